/*
   Test of KSPCAGMRES's block triangular solve V := V R^{-1} (src/ksp/impls/cagmres/cagmrestrsm.*),
   real and complex, on random blocks (n from 1 to 100003 rows, 1 to 32 columns, lda > n):
     test_cagmrestrsm host : the host twin, checked by multiplying back (X R = V)
     test_cagmrestrsm gpu  : the GPU kernel against the host twin (needs a CUDA device)
   Prints "N failures"; exits non-zero on failure.
*/
#include "cagmrestrsm.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {

int failures = 0;

template <typename T>
T Random(std::mt19937 &gen, double scale);
template <>
double Random<double>(std::mt19937 &gen, double scale)
{
  return scale * std::uniform_real_distribution<double>(-1, 1)(gen);
}
template <>
std::complex<double> Random<std::complex<double>>(std::mt19937 &gen, double scale)
{
  std::uniform_real_distribution<double> u(-1, 1);
  return {scale * u(gen), scale * u(gen)};
}

/* V (n x q, leading dimension lda) and a well-conditioned upper triangular R (q x q, leading dimension q) */
template <typename T>
void Block(int n, int q, long long lda, std::vector<T> &V, std::vector<T> &R, unsigned seed)
{
  std::mt19937 gen(seed);
  V.assign(lda * q, T(7)); /* the rows past n must stay untouched */
  for (int j = 0; j < q; ++j)
    for (int i = 0; i < n; ++i) V[i + j * lda] = Random<T>(gen, 1.0);
  R.assign(q * q, T(0));
  for (int j = 0; j < q; ++j) {
    for (int i = 0; i < j; ++i) R[i + j * q] = Random<T>(gen, 0.3);
    R[j + j * q] = T(1.5) + Random<T>(gen, 0.5);
  }
}

template <typename T>
double MaxAbs(const std::vector<T> &v)
{
  double m = 0;
  for (const T &x : v) m = std::max(m, (double)std::abs(x));
  return m;
}

/* The twin's X satisfies X R = V, and leaves the padding rows alone */
template <typename T>
void CheckHost(const char *scalar, int n, int q, unsigned seed)
{
  const long long lda = n + 5;
  std::vector<T>  V, R;
  Block(n, q, lda, V, R, seed);
  std::vector<T> X = V;
  cagmres::SolveUpperRightHost(n, q, X.data(), lda, R.data(), q);
  double err = 0, pad = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < q; ++j) {
      T xr = 0;
      for (int k = 0; k <= j; ++k) xr += X[i + k * lda] * R[k + j * q];
      err = std::max(err, (double)std::abs(xr - V[i + j * lda]));
    }
  for (int j = 0; j < q; ++j)
    for (long long i = n; i < lda; ++i) pad = std::max(pad, (double)std::abs(X[i + j * lda] - T(7)));
  err /= std::max(MaxAbs(V), 1e-300);
  if (!(err <= 1e-13 && pad == 0)) {
    ++failures;
    std::printf("FAIL host %s n=%d q=%d: |X R - V| / |V| = %.2e, padding changed by %.2e\n", scalar, n, q, err, pad);
  }
}

void CudaCheck(cudaError_t err, const char *what)
{
  if (err == cudaSuccess) return;
  std::printf("CUDA error in %s: %s\n", what, cudaGetErrorString(err));
  std::exit(2);
}

/* The kernel against the twin */
template <typename T>
void CheckDevice(const char *scalar, int n, int q, unsigned seed)
{
  const long long lda = n + 5;
  std::vector<T>  V, R;
  Block(n, q, lda, V, R, seed);
  std::vector<T> X = V, Y(V.size());
  T             *dV, *dR;
  cagmres::SolveUpperRightHost(n, q, X.data(), lda, R.data(), q);
  CudaCheck(cudaMalloc(&dV, V.size() * sizeof(T)), "cudaMalloc");
  CudaCheck(cudaMalloc(&dR, R.size() * sizeof(T)), "cudaMalloc");
  CudaCheck(cudaMemcpy(dV, V.data(), V.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
  CudaCheck(cudaMemcpy(dR, R.data(), R.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
  CudaCheck(cagmres::SolveUpperRight(n, q, dV, lda, dR, 0), "SolveUpperRight");
  CudaCheck(cudaMemcpy(Y.data(), dV, Y.size() * sizeof(T), cudaMemcpyDeviceToHost), "download");
  CudaCheck(cudaFree(dV), "cudaFree");
  CudaCheck(cudaFree(dR), "cudaFree");
  double diff = 0;
  for (size_t k = 0; k < Y.size(); ++k) diff = std::max(diff, (double)std::abs(Y[k] - X[k]));
  diff /= std::max(MaxAbs(X), 1e-300);
  if (!(diff <= 1e-13)) {
    ++failures;
    std::printf("FAIL gpu %s n=%d q=%d: kernel differs from the host twin by %.2e\n", scalar, n, q, diff);
  }
}

} // namespace

int main(int argc, char **argv)
{
  const bool gpu = argc > 1 && !std::strcmp(argv[1], "gpu");
  int        cases = 0;
  unsigned   seed  = 1;

  for (int n : {1, 37, 100003})
    for (int q : {1, 3, 8, 9, 16, 17, 32}) {
      if (gpu) {
        CheckDevice<double>("real", n, q, seed++);
        CheckDevice<std::complex<double>>("complex", n, q, seed++);
      } else {
        CheckHost<double>("real", n, q, seed++);
        CheckHost<std::complex<double>>("complex", n, q, seed++);
      }
      cases += 2;
    }
  if (gpu) { /* wider than the kernel takes: refused, not mis-solved */
    ++cases;
    if (cagmres::SolveUpperRight<double>(10, cagmres::kSolveMaxColumns + 1, nullptr, 10, nullptr, 0) != cudaErrorInvalidValue) {
      ++failures;
      std::printf("FAIL: a block wider than %d columns was not refused\n", cagmres::kSolveMaxColumns);
    }
  }
  std::printf("%s: %d cases, %d failures\n", gpu ? "GPU kernel against the host twin" : "host twin", cases, failures);
  return failures ? 1 : 0;
}
