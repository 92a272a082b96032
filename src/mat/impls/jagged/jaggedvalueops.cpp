#include <petscjagged/private/jaggedvalueops.cuh>

#include <complex>

namespace jagged {
namespace host {

namespace {
/* fn(row, col, value entry) for every value entry of the format, padding included, row by row as the GPU threads walk them
   (blocked: block row by block row, each block's bs^2 entries) */
template <typename Fn>
void ForEachSlot(const Format &f, Fn fn)
{
  if (f.bs > 1) {
    for (int i = 0; i < f.nsorted; ++i)
      for (int j = 0; j < f.rowlen[i]; ++j) {
        const int s = f.diagstart[j] + i;
        for (int r = 0; r < f.bs; ++r)
          for (int c = 0; c < f.bs; ++c) fn(f.perm[i] * f.bs + r, f.colidx[s] + c, (r * f.bs + c) * f.nstored + s);
      }
    return;
  }
  for (int i = 0; i < f.nsorted; ++i)
    for (int j = 0; j < f.rowlen[i]; ++j) fn(f.perm[i], f.colidx[f.diagstart[j] + i], f.diagstart[j] + i);
  for (int r = 0; r < f.nlong; ++r)
    for (int k = f.long_rowptr[r]; k < f.long_rowptr[r + 1]; ++k) fn(f.long_rows[r], f.long_colidx[k], f.nstored + k);
}
} // namespace

template <typename MatT>
void Shift(const Format &f, MatT vals[], MatT alpha)
{
  ForEachSlot(f, [&](int row, int col, int s) {
    if (row == col && f.valmap[s] >= 0) vals[s] += alpha;
  });
}

template <typename MatT>
void DiagonalScale(const Format &f, MatT vals[], const MatT l[], const MatT r[])
{
  ForEachSlot(f, [&](int row, int col, int s) {
    if (l) vals[s] = l[row] * vals[s];
    if (r) vals[s] = vals[s] * r[col];
  });
}

template <typename MatT>
void AXPY(int n, MatT y[], MatT alpha, const MatT x[])
{
  for (int s = 0; s < n; ++s) y[s] += alpha * x[s];
}

template <typename From, typename To>
void Convert(int n, const From src[], To dst[])
{
  for (int s = 0; s < n; ++s) dst[s] = static_cast<To>(src[s]);
}

#define JAGGED_HOST_VALUEOPS(T) \
  template void Shift(const Format &, T[], T); \
  template void DiagonalScale(const Format &, T[], const T[], const T[]); \
  template void AXPY(int, T[], T, const T[])
JAGGED_HOST_VALUEOPS(double);
JAGGED_HOST_VALUEOPS(float);
JAGGED_HOST_VALUEOPS(std::complex<double>);
JAGGED_HOST_VALUEOPS(std::complex<float>);
template void Convert(int, const double[], float[]);
template void Convert(int, const std::complex<double>[], std::complex<float>[]);

} // namespace host
} // namespace jagged
