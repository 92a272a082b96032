/*
   CholQR's triangular solve of KSPCAGMRES, V := V R^{-1} for a tall block V (n x q, leading dimension
   lda) and an upper triangular R (q x q): each row of V is solved on its own, x R = v. The GPU kernel
   gives a row to a thread (cuBLAS' TRSM runs far below bandwidth on these shapes); the host twin does
   the same arithmetic in the same order, column by column.
*/
#pragma once

#include <complex>
#include <cuda_runtime.h>

namespace cagmres {

/* Widest block the kernel takes; wider ones go to cuBLAS */
constexpr int kSolveMaxColumns = 32;

/* Host twin: V (n x q, leading dimension lda) := V R^{-1}, R upper triangular with leading dimension ldr */
template <typename T>
void SolveUpperRightHost(int n, int q, T *V, long long lda, const T *R, int ldr);

/* The same on the device: V and R (leading dimension q) in device memory, q <= kSolveMaxColumns */
template <typename T>
cudaError_t SolveUpperRight(int n, int q, T *V, long long lda, const T *R, cudaStream_t stream);

} // namespace cagmres
