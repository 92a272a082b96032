/*
   KSPCAGMRES's block kernels alone (src/ksp/impls/cagmres/cagmresgemm.cu) against cuBLAS' DGEMM/ZGEMM
   on the shapes of the block orthogonalization: C = A^H B (A n x p, B n x q) and B -= A C, n rows with
   leading dimension n. For each shape: the first call of each (in a fresh process cuBLAS' first call of a
   shape pays its set-up) and the mean of the next ones, in ms, and the bandwidth of the mean (each block
   read once, B written once by the update).
     bench_cagmresgemm [n (8000000)] [real|complex]
*/
#include "cagmresgemm.hpp"

#include <chrono>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cublas_v2.h>
#include <vector>

namespace {

void Check(cudaError_t e, const char *what)
{
  if (e != cudaSuccess) {
    std::printf("CUDA error in %s: %s\n", what, cudaGetErrorString(e));
    std::exit(2);
  }
}
void Check(cublasStatus_t e, const char *what)
{
  if (e != CUBLAS_STATUS_SUCCESS) {
    std::printf("cuBLAS error %d in %s\n", (int)e, what);
    std::exit(2);
  }
}

/* ms of the first call and mean ms of the next reps */
template <typename F>
void Time(F f, int reps, double *first, double *mean)
{
  Check(cudaDeviceSynchronize(), "sync");
  auto t0 = std::chrono::steady_clock::now();
  f();
  Check(cudaDeviceSynchronize(), "sync");
  auto t1 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r) f();
  Check(cudaDeviceSynchronize(), "sync");
  auto t2 = std::chrono::steady_clock::now();
  *first = std::chrono::duration<double, std::milli>(t1 - t0).count();
  *mean  = std::chrono::duration<double, std::milli>(t2 - t1).count() / reps;
}

template <typename T>
void Run(long long n)
{
  const bool     cplx = sizeof(T) == 16;
  const int      shapes[][2] = {{1, 1}, {11, 1}, {30, 1}, {10, 10}, {11, 10}, {21, 10}, {31, 11}};
  const int      reps = 20;
  T             *Q, *C, *W;
  cublasHandle_t h;

  Check(cudaMalloc(&Q, sizeof(T) * n * 42), "cudaMalloc");
  Check(cudaMalloc(&C, sizeof(T) * 64 * 64), "cudaMalloc");
  Check(cudaMalloc(&W, sizeof(T) * cagmres::kInnerBlocks * 64 * 64), "cudaMalloc");
  {
    std::vector<T> col(n);
    for (long long i = 0; i < n; ++i) col[i] = T(1.0 / (1 + i % 97));
    for (int c = 0; c < 42; ++c) Check(cudaMemcpy(Q + c * n, col.data(), sizeof(T) * n, cudaMemcpyHostToDevice), "upload");
  }
  Check(cudaMemset(C, 0, sizeof(T) * 64 * 64), "memset");
  Check(cublasCreate(&h), "cublasCreate");
  std::printf("%s, n = %lld: ms (first call / mean of %d) and GB/s of the mean\n", cplx ? "complex" : "real", n, reps);
  std::printf("%4s %4s | %-24s %-24s | %-24s %-24s\n", "p", "q", "inner: ours", "inner: cuBLAS", "update: ours", "update: cuBLAS");
  for (auto &s : shapes) {
    const int    p = s[0], q = s[1];
    const T     *A = Q, *B = Q + (long long)p * n;
    T           *Bw = Q + (long long)p * n;
    const double gin = sizeof(T) * (double)n * (p + q) / 1e6, gup = sizeof(T) * (double)n * (p + 2 * q) / 1e6; /* MB, / ms = GB/s */
    double       f[4], m[4];

    Time([&] { Check(cagmres::BlockInner((int)n, p, q, A, B, n, C, W, 0), "BlockInner"); }, reps, &f[0], &m[0]);
    Time([&] {
      if (cplx) {
        const cuDoubleComplex one = {1, 0}, zero = {0, 0};
        Check(cublasZgemm(h, CUBLAS_OP_C, CUBLAS_OP_N, p, q, (int)n, &one, (const cuDoubleComplex *)A, (int)n, (const cuDoubleComplex *)B, (int)n, &zero, (cuDoubleComplex *)C, p), "zgemm");
      } else {
        const double one = 1, zero = 0;
        Check(cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, p, q, (int)n, &one, (const double *)A, (int)n, (const double *)B, (int)n, &zero, (double *)C, p), "dgemm");
      }
    }, reps, &f[1], &m[1]);
    Time([&] { Check(cagmres::BlockUpdate((int)n, p, q, A, n, C, Bw, 0), "BlockUpdate"); }, reps, &f[2], &m[2]);
    Time([&] {
      if (cplx) {
        const cuDoubleComplex one = {1, 0}, mone = {-1, 0};
        Check(cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, q, p, &mone, (const cuDoubleComplex *)A, (int)n, (const cuDoubleComplex *)C, p, &one, (cuDoubleComplex *)Bw, (int)n), "zgemm");
      } else {
        const double one = 1, mone = -1;
        Check(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, q, p, &mone, (const double *)A, (int)n, (const double *)C, p, &one, (double *)Bw, (int)n), "dgemm");
      }
    }, reps, &f[3], &m[3]);
    std::printf("%4d %4d |", p, q);
    for (int k = 0; k < 4; ++k) std::printf(" %7.2f / %6.3f %5.0f %s", f[k], m[k], (k < 2 ? gin : gup) / m[k], k == 1 ? "|" : "");
    std::printf("\n");
  }
  Check(cublasDestroy(h), "cublasDestroy");
  Check(cudaFree(Q), "cudaFree");
  Check(cudaFree(C), "cudaFree");
  Check(cudaFree(W), "cudaFree");
}

} // namespace

int main(int argc, char **argv)
{
  const long long n = argc > 1 ? std::atoll(argv[1]) : 8000000;

  if (argc > 2 && !std::strcmp(argv[2], "complex")) Run<std::complex<double>>(n);
  else Run<double>(n);
  return 0;
}
