#include "cagmresgemm.hpp"
#include <algorithm>
#include "cagmresdevice.cuh"
#include <petscjagged/private/jaggedlaunch.cuh>

namespace cagmres {

namespace {

__device__ __forceinline__ double Conj(double v)
{
  return v;
}
__device__ __forceinline__ cuda::std::complex<double> Conj(cuda::std::complex<double> v)
{
  return {v.real(), -v.imag()};
}

/* a x + acc, complex products written out (cuda::std::complex's operator* adds the C99 inf/nan recovery) */
__device__ __forceinline__ double MulAdd(double a, double x, double acc)
{
  return fma(a, x, acc);
}
__device__ __forceinline__ cuda::std::complex<double> MulAdd(cuda::std::complex<double> a, cuda::std::complex<double> x, cuda::std::complex<double> acc)
{
  return {fma(a.real(), x.real(), fma(-a.imag(), x.imag(), acc.real())), fma(a.real(), x.imag(), fma(a.imag(), x.real(), acc.imag()))};
}

constexpr int kThreads         = 256;
constexpr int kColsA           = 64;        /* columns of A a thread block of the inner product takes (grid y covers the rest) */
constexpr int kColsB           = 16;        /* columns of B a thread block takes (grid z covers the rest); registers a thread */
constexpr int kSharedBytes     = 40 * 1024; /* for the staged rows of A and B */
constexpr int kUpdateMaxBlocks = 4096;

/*
  Partial sums of C(a0:a0+pc, b0:b0+qc) = A^H B over the rows of this block's tiles (tiles of `rows` rows,
  grid-stride): the tile's columns are staged in shared memory (coalesced along the rows), thread t takes
  column a0 + t % pc of A and every row g, g + G, ... of the tile (g = t / pc, G groups), all qc columns of
  B in registers; the groups are then summed in a fixed order into partial[block][a + b p].
*/
template <typename T>
__global__ void InnerKernel(int n, int p, int q, const T *__restrict__ A, const T *__restrict__ B, long long lda, int rows, T *__restrict__ partial)
{
  extern __shared__ unsigned char smem[];
  T        *As = reinterpret_cast<T *>(smem);
  const int a0 = blockIdx.y * kColsA, b0 = blockIdx.z * kColsB;
  const int pc = min(kColsA, p - a0), qc = min(kColsB, q - b0), ld = rows + 1;
  T        *Bs     = As + pc * ld;
  const int groups = blockDim.x / pc, a = threadIdx.x % pc, g = threadIdx.x / pc;
  T         acc[kColsB];

#pragma unroll
  for (int b = 0; b < kColsB; ++b) acc[b] = T(0);
  for (long long r0 = (long long)blockIdx.x * rows; r0 < n; r0 += (long long)gridDim.x * rows) {
    const int nr = (int)min((long long)rows, n - r0);

    for (int idx = threadIdx.x; idx < (pc + qc) * rows; idx += blockDim.x) {
      const int c = idx / rows, r = idx % rows;

      if (c < pc) As[c * ld + r] = r < nr ? A[r0 + r + (a0 + c) * lda] : T(0);
      else Bs[(c - pc) * ld + r] = r < nr ? B[r0 + r + (b0 + c - pc) * lda] : T(0);
    }
    __syncthreads();
    if (g < groups) {
      for (int r = g; r < nr; r += groups) {
        const T av = Conj(As[a * ld + r]);
#pragma unroll
        for (int b = 0; b < kColsB; ++b)
          if (b < qc) acc[b] = MulAdd(av, Bs[b * ld + r], acc[b]);
      }
    }
    __syncthreads();
  }
  /* the groups' sums, one column of B at a time, through shared memory (blockDim.x entries fit: see BlockInner()) */
#pragma unroll
  for (int b = 0; b < kColsB; ++b) {
    if (b < qc) {
      As[threadIdx.x] = g < groups ? acc[b] : T(0);
      __syncthreads();
      if (threadIdx.x < pc) {
        T sum = T(0);
        for (int h = 0; h < groups; ++h) sum += As[h * pc + threadIdx.x];
        partial[(long long)blockIdx.x * p * q + (a0 + threadIdx.x) + (long long)(b0 + b) * p] = sum;
      }
      __syncthreads();
    }
  }
}

/* C[o] = sum over the nblocks partial sums of entry o, one thread block an entry, in a fixed order */
template <typename T>
__global__ void SumKernel(int nblocks, int pq, const T *partial, T *C)
{
  __shared__ T s[128];
  T            sum = T(0);

  for (int k = threadIdx.x; k < nblocks; k += blockDim.x) sum += partial[(long long)k * pq + blockIdx.x];
  s[threadIdx.x] = sum;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h /= 2) {
    if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
    __syncthreads();
  }
  if (threadIdx.x == 0) C[blockIdx.x] = s[0];
}

/* B(:, b0:b0+qc) -= A C(:, b0:b0+qc), a row a thread (C read through the cache: every thread reads the same entry) */
template <typename T>
__global__ void UpdateKernel(int n, int p, int q, const T *__restrict__ A, long long lda, const T *__restrict__ C, T *__restrict__ B)
{
  const int b0 = blockIdx.y * kColsB, qc = min(kColsB, q - b0);

  for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < n; row += gridDim.x * blockDim.x) {
    T acc[kColsB];

#pragma unroll
    for (int b = 0; b < kColsB; ++b) acc[b] = T(0);
#pragma unroll 4
    for (int a = 0; a < p; ++a) {
      const T av = A[row + a * lda];
#pragma unroll
      for (int b = 0; b < kColsB; ++b)
        if (b < qc) acc[b] = MulAdd(av, C[a + (b0 + b) * p], acc[b]);
    }
#pragma unroll
    for (int b = 0; b < kColsB; ++b)
      if (b < qc) B[row + (b0 + b) * lda] -= acc[b];
  }
}

} // namespace

template <typename T>
cudaError_t BlockInner(int n, int p, int q, const T *A, const T *B, long long lda, T *C, T *work, cudaStream_t stream)
{
  using D = typename Device<T>::type;
  const int pc = std::min(p, kColsA), qc = std::min(q, kColsB);
  /* rows a tile: as many as the shared memory holds (even, so that the padded stride is odd), 32 to 256 */
  int    rows = std::max(32, std::min(256, kSharedBytes / ((pc + qc) * (int)sizeof(D)) - 1) / 2 * 2);
  size_t shared;
  dim3   grid;

  if (p <= 0 || q <= 0) return cudaSuccess;
  if (n <= 0) return cudaMemsetAsync(C, 0, sizeof(T) * p * q, stream);
  shared = sizeof(D) * std::max((size_t)(pc + qc) * (rows + 1), (size_t)kThreads);
  grid   = dim3((unsigned)std::min<long long>(((long long)n + rows - 1) / rows, kInnerBlocks), (unsigned)((p + kColsA - 1) / kColsA), (unsigned)((q + kColsB - 1) / kColsB));
  InnerKernel<D><<<grid, kThreads, shared, stream>>>(n, p, q, reinterpret_cast<const D *>(A), reinterpret_cast<const D *>(B), lda, rows, reinterpret_cast<D *>(work));
  SumKernel<D><<<p * q, 128, 0, stream>>>((int)grid.x, p * q, reinterpret_cast<const D *>(work), reinterpret_cast<D *>(C));
  return cudaGetLastError();
}

template <typename T>
cudaError_t BlockUpdate(int n, int p, int q, const T *A, long long lda, const T *C, T *B, cudaStream_t stream)
{
  using D = typename Device<T>::type;
  dim3 grid;

  if (n <= 0 || p <= 0 || q <= 0) return cudaSuccess;
  grid = dim3(JaggedBlocks(n, kThreads, kUpdateMaxBlocks), JaggedBlocks(q, kColsB));
  UpdateKernel<D><<<grid, kThreads, 0, stream>>>(n, p, q, reinterpret_cast<const D *>(A), lda, reinterpret_cast<const D *>(C), reinterpret_cast<D *>(B));
  return cudaGetLastError();
}

template cudaError_t BlockInner<double>(int, int, int, const double *, const double *, long long, double *, double *, cudaStream_t);
template cudaError_t BlockInner<std::complex<double>>(int, int, int, const std::complex<double> *, const std::complex<double> *, long long, std::complex<double> *, std::complex<double> *, cudaStream_t);
template cudaError_t BlockUpdate<double>(int, int, int, const double *, long long, const double *, double *, cudaStream_t);
template cudaError_t BlockUpdate<std::complex<double>>(int, int, int, const std::complex<double> *, long long, const std::complex<double> *, std::complex<double> *, cudaStream_t);

} // namespace cagmres
