#include "cagmrestrsm.hpp"
#include "cagmresdevice.cuh"
#include <petscjagged/private/jaggedlaunch.cuh>

namespace cagmres {

namespace {

constexpr int kThreads   = 256;
constexpr int kMaxBlocks = 4096;

/* One row a thread: x R = v by forward substitution, x kept in registers (QMAX bounds the unrolling) */
template <typename T, int QMAX>
__global__ void SolveUpperRightKernel(int n, int q, T *V, long long lda, const T *R)
{
  __shared__ T Rs[QMAX * QMAX];

  for (int k = threadIdx.x; k < q * q; k += blockDim.x) Rs[k] = R[k];
  __syncthreads();
  for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < n; row += gridDim.x * blockDim.x) {
    T x[QMAX];
#pragma unroll
    for (int j = 0; j < QMAX; ++j) {
      if (j < q) {
        T acc = V[row + j * lda];
#pragma unroll
        for (int i = 0; i < j; ++i) acc -= x[i] * Rs[i + j * q];
        x[j]             = acc / Rs[j + j * q];
        V[row + j * lda] = x[j];
      }
    }
  }
}

template <typename T, int QMAX>
cudaError_t Launch(int n, int q, T *V, long long lda, const T *R, cudaStream_t stream)
{
  const unsigned blocks = JaggedBlocks(n, kThreads, kMaxBlocks);

  SolveUpperRightKernel<T, QMAX><<<blocks, kThreads, 0, stream>>>(n, q, V, lda, R);
  return cudaGetLastError();
}

} // namespace

template <typename T>
cudaError_t SolveUpperRight(int n, int q, T *V, long long lda, const T *R, cudaStream_t stream)
{
  using D = typename Device<T>::type;
  D       *v = reinterpret_cast<D *>(V);
  const D *r = reinterpret_cast<const D *>(R);

  if (n <= 0 || q <= 0) return cudaSuccess;
  if (q > kSolveMaxColumns) return cudaErrorInvalidValue;
  if (q <= 8) return Launch<D, 8>(n, q, v, lda, r, stream);
  if (q <= 16) return Launch<D, 16>(n, q, v, lda, r, stream);
  return Launch<D, 32>(n, q, v, lda, r, stream);
}

template cudaError_t SolveUpperRight<double>(int, int, double *, long long, const double *, cudaStream_t);
template cudaError_t SolveUpperRight<std::complex<double>>(int, int, std::complex<double> *, long long, const std::complex<double> *, cudaStream_t);

} // namespace cagmres
