#include <petscjagged/private/jaggedvalueops.cuh>
#include <petscjagged/private/jaggeddevicescalar.cuh>
#include <petscjagged/private/jaggedlaunch.cuh>

namespace jagged {
namespace gpu {

namespace {

constexpr int kThreads = 128;


template <typename T>
DeviceScalar<T> *Dev(T *p)
{
  return reinterpret_cast<DeviceScalar<T> *>(p);
}
template <typename T>
const DeviceScalar<T> *Dev(const T *p)
{
  return reinterpret_cast<const DeviceScalar<T> *>(p);
}

/* The index arrays of a DeviceFormat, as a kernel argument */
struct Slots {
  int        nsorted, nlong, nstored, bs;
  const int *perm, *rowlen, *diagstart, *colidx, *long_rows, *long_rowptr, *long_colidx, *valmap;
};

Slots SlotsOf(const DeviceFormat &d)
{
  return {d.nsorted, d.nlong, d.nstored, d.bs, d.perm, d.rowlen, d.diagstart, d.colidx, d.long_rows, d.long_rowptr, d.long_colidx, d.valmap};
}

/* fn(row, col, value entry) over the entries of one row: thread t < nsorted takes sorted row t (blocked: block row t, its
   blocks' bs^2 entries each), the next nlong threads the long rows */
template <typename Fn>
__device__ __forceinline__ void ForRowSlots(const Slots &d, unsigned t, Fn fn)
{
  if (d.bs > 1 && t < static_cast<unsigned>(d.nsorted)) {
    const int brow = d.perm[t] * d.bs, len = d.rowlen[t];
    for (int j = 0; j < len; ++j) {
      const int s = d.diagstart[j] + static_cast<int>(t), col = d.colidx[s];
      for (int r = 0; r < d.bs; ++r)
        for (int c = 0; c < d.bs; ++c) fn(brow + r, col + c, (r * d.bs + c) * d.nstored + s);
    }
  } else if (t < static_cast<unsigned>(d.nsorted)) {
    const int row = d.perm[t], len = d.rowlen[t];
    for (int j = 0; j < len; ++j) {
      const int s = d.diagstart[j] + static_cast<int>(t);
      fn(row, d.colidx[s], s);
    }
  } else if (t < static_cast<unsigned>(d.nsorted + d.nlong)) {
    const int r = static_cast<int>(t) - d.nsorted, row = d.long_rows[r];
    for (int k = d.long_rowptr[r]; k < d.long_rowptr[r + 1]; ++k) fn(row, d.long_colidx[k], d.nstored + k);
  }
}

template <typename M>
__global__ void ShiftKernel(const Slots d, M *vals, M alpha)
{
  ForRowSlots(d, blockIdx.x * blockDim.x + threadIdx.x, [&](int row, int col, int s) {
    if (row == col && d.valmap[s] >= 0) vals[s] += alpha;
  });
}

template <typename M>
__global__ void DiagonalScaleKernel(const Slots d, M *vals, const M *l, const M *r)
{
  ForRowSlots(d, blockIdx.x * blockDim.x + threadIdx.x, [&](int row, int col, int s) {
    if (l) vals[s] = l[row] * vals[s];
    if (r) vals[s] = vals[s] * r[col];
  });
}

template <typename M>
__global__ void AXPYKernel(int n, M *y, M alpha, const M *x)
{
  const unsigned s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < static_cast<unsigned>(n)) y[s] = MulAdd(alpha, x[s], y[s]);
}

template <typename F, typename T>
__global__ void ConvertKernel(int n, const F *src, T *dst)
{
  const unsigned s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < static_cast<unsigned>(n)) dst[s] = static_cast<T>(src[s]);
}

} // namespace

template <typename MatT>
cudaError_t Shift(const DeviceFormat &d, MatT vals[], MatT alpha, cudaStream_t stream)
{
  const int n = d.nsorted + d.nlong;
  if (n == 0) return cudaSuccess;
  ShiftKernel<<<JaggedBlocks(n, kThreads), kThreads, 0, stream>>>(SlotsOf(d), Dev(vals), *Dev(&alpha));
  return cudaGetLastError();
}

template <typename MatT>
cudaError_t DiagonalScale(const DeviceFormat &d, MatT vals[], const MatT l[], const MatT r[], cudaStream_t stream)
{
  const int n = d.nsorted + d.nlong;
  if (n == 0) return cudaSuccess;
  DiagonalScaleKernel<<<JaggedBlocks(n, kThreads), kThreads, 0, stream>>>(SlotsOf(d), Dev(vals), Dev(l), Dev(r));
  return cudaGetLastError();
}

template <typename MatT>
cudaError_t AXPY(int n, MatT y[], MatT alpha, const MatT x[], cudaStream_t stream)
{
  if (n == 0) return cudaSuccess;
  AXPYKernel<<<JaggedBlocks(n, kThreads), kThreads, 0, stream>>>(n, Dev(y), *Dev(&alpha), Dev(x));
  return cudaGetLastError();
}

template <typename From, typename To>
cudaError_t Convert(int n, const From src[], To dst[], cudaStream_t stream)
{
  if (n == 0) return cudaSuccess;
  ConvertKernel<<<JaggedBlocks(n, kThreads), kThreads, 0, stream>>>(n, Dev(src), Dev(dst));
  return cudaGetLastError();
}

#define JAGGED_GPU_VALUEOPS(T) \
  template cudaError_t Shift(const DeviceFormat &, T[], T, cudaStream_t); \
  template cudaError_t DiagonalScale(const DeviceFormat &, T[], const T[], const T[], cudaStream_t); \
  template cudaError_t AXPY(int, T[], T, const T[], cudaStream_t)
JAGGED_GPU_VALUEOPS(double);
JAGGED_GPU_VALUEOPS(float);
JAGGED_GPU_VALUEOPS(std::complex<double>);
JAGGED_GPU_VALUEOPS(std::complex<float>);
template cudaError_t Convert(int, const double[], float[], cudaStream_t);
template cudaError_t Convert(int, const std::complex<double>[], std::complex<float>[], cudaStream_t);

} // namespace gpu
} // namespace jagged
