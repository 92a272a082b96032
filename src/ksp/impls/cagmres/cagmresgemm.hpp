/*
   The tall-skinny products of KSPCAGMRES's block orthogonalization on a basis block of n rows
   (column major, leading dimension lda): the inner products C = A^H B (A n x p, B n x q) and the
   update B -= A C, p up to the restart length plus one and q up to s plus one. The GPU kernels read
   each block once from memory and are part of this library: cuBLAS' GEMM paid 26-150 ms on an H100 the
   first time each class of these shapes ran (bench/bench_cagmresgemm.cu), several times in a first solve.
   The host twins compute the same sums (the kernels add the rows in another order).
*/
#pragma once

#include <complex>
#include <cuda_runtime.h>

namespace cagmres {

/* Most thread blocks of the inner-product kernel: its device scratch holds kInnerBlocks * p * q partial sums */
constexpr int kInnerBlocks = 512;

/* Host twin: C (p x q, leading dimension p) = A^H B */
template <typename T>
void BlockInnerHost(int n, int p, int q, const T *A, const T *B, long long lda, T *C);

/* Host twin: B -= A C, C (p x q, leading dimension p) */
template <typename T>
void BlockUpdateHost(int n, int p, int q, const T *A, long long lda, const T *C, T *B);

/* C = A^H B on the device (A, B, C and work, kInnerBlocks * p * q entries, in device memory) */
template <typename T>
cudaError_t BlockInner(int n, int p, int q, const T *A, const T *B, long long lda, T *C, T *work, cudaStream_t stream);

/* B -= A C on the device (C in device memory) */
template <typename T>
cudaError_t BlockUpdate(int n, int p, int q, const T *A, long long lda, const T *C, T *B, cudaStream_t stream);

} // namespace cagmres
