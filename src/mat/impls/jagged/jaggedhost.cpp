#include <petscjagged/private/jaggedhost.hpp>

#include <algorithm>
#include <complex>

namespace jagged {
namespace host {

namespace {

/* Slots of sorted row i in the order the GPU thread walks them: fn(column, slot) */
template <typename Fn>
void ForJaggedRow(const Format &f, int i, Fn fn)
{
  for (int j = 0; j < f.rowlen[i]; ++j) {
    const int s = f.diagstart[j] + i;
    fn(f.colidx[s], s);
  }
}

/* Slots of long row r (CSR, after the jagged slots) as the GPU warp or block walks them */
template <typename Fn>
void ForLongRow(const Format &f, int r, Fn fn)
{
  for (int k = f.long_rowptr[r]; k < f.long_rowptr[r + 1]; ++k) fn(f.long_colidx[k], f.nstored + k);
}

/* Entry (r, c) of the block in slot s of a blocked format */
inline size_t BlockEntry(const Format &f, int s, int r, int c)
{
  return static_cast<size_t>(r * f.bs + c) * f.nstored + s;
}

/* Blocked y = A x (+ w when w is not null): one thread a block row, its bs sums over the row's blocks, entries in row order */
template <typename MatT, typename VecT>
void BlockMultRows(const Format &f, const MatT vals[], const VecT x[], const VecT w[], VecT y[])
{
  const int bs = f.bs;

  for (int i = 0; i < f.nsorted; ++i) {
    const int brow = f.perm[i] * bs;
    VecT      sum[kMaxBlockSize];
    std::fill(sum, sum + bs, VecT(0));
    ForJaggedRow(f, i, [&](int col, int s) {
      for (int r = 0; r < bs; ++r)
        for (int c = 0; c < bs; ++c) sum[r] += static_cast<VecT>(vals[BlockEntry(f, s, r, c)]) * x[col + c];
    });
    for (int r = 0; r < bs; ++r) y[brow + r] = w ? w[brow + r] + sum[r] : sum[r];
  }
}

/* Blocked y = A^T x (+ w when w is not null), y set first */
template <typename MatT, typename VecT>
void BlockMultTransposeRows(const Format &f, const MatT vals[], const VecT x[], VecT y[])
{
  const int bs = f.bs;

  for (int i = 0; i < f.nsorted; ++i) {
    const int brow = f.perm[i] * bs;
    ForJaggedRow(f, i, [&](int col, int s) {
      for (int r = 0; r < bs; ++r)
        for (int c = 0; c < bs; ++c) y[col + c] += static_cast<VecT>(vals[BlockEntry(f, s, r, c)]) * x[brow + r];
    });
  }
}

/* y = A x (+ w when w is not null) */
template <typename MatT, typename VecT>
void MultRows(const Format &f, const MatT vals[], const VecT x[], const VecT w[], VecT y[])
{
  if (f.bs > 1) {
    BlockMultRows(f, vals, x, w, y);
    return;
  }
  for (int i = 0; i < f.nsorted; ++i) {
    const int row = f.perm[i];
    VecT      sum(0);
    ForJaggedRow(f, i, [&](int col, int s) { sum += static_cast<VecT>(vals[s]) * x[col]; });
    y[row] = w ? w[row] + sum : sum;
  }
  for (int r = 0; r < f.nlong; ++r) {
    const int row = f.long_rows[r];
    VecT      sum(0);
    ForLongRow(f, r, [&](int col, int s) { sum += static_cast<VecT>(vals[s]) * x[col]; });
    y[row] = w ? w[row] + sum : sum;
  }
}

/* y = A^T x (+ w when w is not null): scatter each row times its x entry, as the atomics do */
template <typename MatT, typename VecT>
void MultTransposeRows(const Format &f, const MatT vals[], const VecT x[], const VecT w[], VecT y[])
{
  if (!w) std::fill(y, y + f.ncols, VecT(0));
  else if (w != y) std::copy(w, w + f.ncols, y);
  if (f.bs > 1) {
    BlockMultTransposeRows(f, vals, x, y);
    return;
  }
  for (int i = 0; i < f.nsorted; ++i) {
    const VecT xi = x[f.perm[i]];
    ForJaggedRow(f, i, [&](int col, int s) { y[col] += static_cast<VecT>(vals[s]) * xi; });
  }
  for (int r = 0; r < f.nlong; ++r) {
    const VecT xi = x[f.long_rows[r]];
    ForLongRow(f, r, [&](int col, int s) { y[col] += static_cast<VecT>(vals[s]) * xi; });
  }
}

} // namespace

template <typename MatT, typename VecT>
void Mult(const Format &format, const MatT vals[], const VecT x[], VecT y[])
{
  MultRows(format, vals, x, static_cast<const VecT *>(nullptr), y);
}

template <typename MatT, typename VecT>
void MultAdd(const Format &format, const MatT vals[], const VecT x[], const VecT w[], VecT y[])
{
  MultRows(format, vals, x, w, y);
}

template <typename MatT, typename VecT>
void MultTranspose(const Format &format, const MatT vals[], const VecT x[], VecT y[])
{
  MultTransposeRows(format, vals, x, static_cast<const VecT *>(nullptr), y);
}

template <typename MatT, typename VecT>
void MultTransposeAdd(const Format &format, const MatT vals[], const VecT x[], const VecT w[], VecT y[])
{
  MultTransposeRows(format, vals, x, w, y);
}

template <typename MatT>
void GetDiagonal(const Format &f, const MatT vals[], MatT diag[])
{
  if (f.bs > 1) { /* the diagonal block's diagonal: the block whose first column is the block row's first row */
    for (int i = 0; i < f.nsorted; ++i) {
      const int brow = f.perm[i] * f.bs;
      for (int r = 0; r < f.bs; ++r) diag[brow + r] = MatT(0);
      ForJaggedRow(f, i, [&](int col, int s) {
        if (col == brow)
          for (int r = 0; r < f.bs; ++r) diag[brow + r] += vals[BlockEntry(f, s, r, r)];
      });
    }
    return;
  }
  for (int i = 0; i < f.nsorted; ++i) {
    const int row = f.perm[i];
    diag[row]     = MatT(0);
    ForJaggedRow(f, i, [&](int col, int s) { if (col == row) diag[row] += vals[s]; });
  }
  for (int r = 0; r < f.nlong; ++r) {
    const int row = f.long_rows[r];
    diag[row]     = MatT(0);
    ForLongRow(f, r, [&](int col, int s) { if (col == row) diag[row] += vals[s]; });
  }
}

template <typename MatT>
void Scale(const Format &format, MatT vals[], MatT alpha)
{
  for (int s = 0; s < format.nslots; ++s) vals[s] *= alpha;
}

#define JAGGED_HOST_INSTANTIATE_MULT(MatT, VecT) \
  template void Mult(const Format &, const MatT[], const VecT[], VecT[]); \
  template void MultAdd(const Format &, const MatT[], const VecT[], const VecT[], VecT[]); \
  template void MultTranspose(const Format &, const MatT[], const VecT[], VecT[]); \
  template void MultTransposeAdd(const Format &, const MatT[], const VecT[], const VecT[], VecT[])
#define JAGGED_HOST_INSTANTIATE_VALUES(MatT) \
  template void GetDiagonal(const Format &, const MatT[], MatT[]); \
  template void Scale(const Format &, MatT[], MatT)

JAGGED_HOST_INSTANTIATE_MULT(double, double);
JAGGED_HOST_INSTANTIATE_MULT(float, float);
JAGGED_HOST_INSTANTIATE_MULT(float, double);
JAGGED_HOST_INSTANTIATE_MULT(Half, float);
JAGGED_HOST_INSTANTIATE_MULT(std::complex<double>, std::complex<double>);
JAGGED_HOST_INSTANTIATE_MULT(std::complex<float>, std::complex<float>);
JAGGED_HOST_INSTANTIATE_MULT(std::complex<float>, std::complex<double>);
JAGGED_HOST_INSTANTIATE_VALUES(double);
JAGGED_HOST_INSTANTIATE_VALUES(float);
JAGGED_HOST_INSTANTIATE_VALUES(std::complex<double>);
JAGGED_HOST_INSTANTIATE_VALUES(std::complex<float>);

} // namespace host
} // namespace jagged
