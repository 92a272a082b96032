/*
   Test of KSPCAGMRES's block inner products C = A^H B and updates B -= A C
   (src/ksp/impls/cagmres/cagmresgemm.*), real and complex, on random blocks (n from 1 to 100003 rows,
   A up to 70 columns and B up to 20: past the kernels' 64- and 16-column tiles; lda > n):
     test_cagmresgemm host : the host twins, against sums taken row by row, and B - A (A^H B) orthogonal
                             to A for A with orthonormal columns
     test_cagmresgemm gpu  : the GPU kernels against the host twins (needs a CUDA device)
   Prints "N failures"; exits non-zero on failure.
*/
#include "cagmresgemm.hpp"

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
T Random(std::mt19937 &gen);
template <>
double Random<double>(std::mt19937 &gen)
{
  return std::uniform_real_distribution<double>(-1, 1)(gen);
}
template <>
std::complex<double> Random<std::complex<double>>(std::mt19937 &gen)
{
  std::uniform_real_distribution<double> u(-1, 1);
  return {u(gen), u(gen)};
}

double Conj(double v)
{
  return v;
}
std::complex<double> Conj(std::complex<double> v)
{
  return std::conj(v);
}

/* a random n x c block with leading dimension lda, the rows past n set to 7 (they must stay untouched) */
template <typename T>
std::vector<T> Block(int n, int c, long long lda, std::mt19937 &gen)
{
  std::vector<T> V(lda * c, T(7));
  for (int j = 0; j < c; ++j)
    for (int i = 0; i < n; ++i) V[i + j * lda] = Random<T>(gen);
  return V;
}

template <typename T>
double MaxAbs(const std::vector<T> &v)
{
  double m = 0;
  for (const T &x : v) m = std::max(m, (double)std::abs(x));
  return m;
}

template <typename T>
double MaxDiff(const std::vector<T> &x, const std::vector<T> &y)
{
  double m = 0;
  for (size_t k = 0; k < x.size(); ++k) m = std::max(m, (double)std::abs(x[k] - y[k]));
  return m;
}

/* The twins: C against sums accumulated row by row; after Gram-Schmidt of A's columns, B - A (A^H B) is orthogonal to A */
template <typename T>
void CheckHost(const char *scalar, int n, int p, int q, unsigned seed)
{
  const long long lda = n + 3;
  std::mt19937    gen(seed);
  std::vector<T>  A = Block<T>(n, p, lda, gen), B = Block<T>(n, q, lda, gen), C(p * q), R(p * q, T(0));

  cagmres::BlockInnerHost(n, p, q, A.data(), B.data(), lda, C.data());
  for (int i = 0; i < n; ++i)
    for (int b = 0; b < q; ++b)
      for (int a = 0; a < p; ++a) R[a + b * p] += Conj(A[i + a * lda]) * B[i + b * lda];
  const double err = MaxDiff(C, R) / std::max(MaxAbs(R), 1e-300);
  if (!(err <= 1e-12)) {
    ++failures;
    std::printf("FAIL host %s n=%d p=%d q=%d: A^H B differs from the row-by-row sums by %.2e\n", scalar, n, p, q, err);
  }
  if (n < p) return;
  for (int a = 0; a < p; ++a) { /* orthonormal columns of A, with the twins themselves (classical Gram-Schmidt twice) */
    for (int pass = 0; pass < 2 && a > 0; ++pass) {
      std::vector<T> c(a);
      cagmres::BlockInnerHost(n, a, 1, A.data(), A.data() + a * lda, lda, c.data());
      cagmres::BlockUpdateHost(n, a, 1, A.data(), lda, c.data(), A.data() + a * lda);
    }
    double nrm = 0;
    for (int i = 0; i < n; ++i) nrm += std::norm(A[i + a * lda]);
    for (int i = 0; i < n; ++i) A[i + a * lda] /= std::sqrt(nrm);
  }
  std::vector<T> B0 = B;
  cagmres::BlockInnerHost(n, p, q, A.data(), B.data(), lda, C.data());
  cagmres::BlockUpdateHost(n, p, q, A.data(), lda, C.data(), B.data());
  cagmres::BlockInnerHost(n, p, q, A.data(), B.data(), lda, C.data());
  double pad = 0;
  for (int b = 0; b < q; ++b)
    for (long long i = n; i < lda; ++i) pad = std::max(pad, (double)std::abs(B[i + b * lda] - T(7)));
  const double orth = MaxAbs(C) / std::max(MaxAbs(B0), 1e-300);
  if (!(orth <= 1e-12 && pad == 0)) {
    ++failures;
    std::printf("FAIL host %s n=%d p=%d q=%d: A^H (B - A A^H B) = %.2e, padding changed by %.2e\n", scalar, n, p, q, orth, pad);
  }
}

void CudaCheck(cudaError_t err, const char *what)
{
  if (err == cudaSuccess) return;
  std::printf("CUDA error in %s: %s\n", what, cudaGetErrorString(err));
  std::exit(2);
}

template <typename T>
T *Upload(const std::vector<T> &v)
{
  T *d;
  CudaCheck(cudaMalloc(&d, std::max<size_t>(v.size(), 1) * sizeof(T)), "cudaMalloc");
  CudaCheck(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
  return d;
}

template <typename T>
std::vector<T> Download(const T *d, size_t n)
{
  std::vector<T> v(n);
  CudaCheck(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
  return v;
}

/* The kernels against the twins */
template <typename T>
void CheckDevice(const char *scalar, int n, int p, int q, unsigned seed)
{
  const long long lda = n + 3;
  std::mt19937    gen(seed);
  std::vector<T>  A = Block<T>(n, p, lda, gen), B = Block<T>(n, q, lda, gen), C(p * q), Cs(p * q), X = B;
  T              *dA = Upload(A), *dB = Upload(B), *dC, *dW;

  for (T &c : Cs) c = Random<T>(gen);
  CudaCheck(cudaMalloc(&dC, p * q * sizeof(T)), "cudaMalloc");
  CudaCheck(cudaMalloc(&dW, (size_t)cagmres::kInnerBlocks * p * q * sizeof(T)), "cudaMalloc");
  cagmres::BlockInnerHost(n, p, q, A.data(), B.data(), lda, C.data());
  CudaCheck(cagmres::BlockInner(n, p, q, dA, dB, lda, dC, dW, 0), "BlockInner");
  const double dinner = MaxDiff(Download(dC, p * q), C) / std::max(MaxAbs(C), 1e-300);
  CudaCheck(cudaMemcpy(dC, Cs.data(), p * q * sizeof(T), cudaMemcpyHostToDevice), "upload");
  cagmres::BlockUpdateHost(n, p, q, A.data(), lda, Cs.data(), X.data());
  CudaCheck(cagmres::BlockUpdate(n, p, q, dA, lda, dC, dB, 0), "BlockUpdate");
  const double dupdate = MaxDiff(Download(dB, B.size()), X) / std::max(MaxAbs(X), 1e-300);
  for (T *d : {dA, dB, dC, dW}) CudaCheck(cudaFree(d), "cudaFree");
  if (!(dinner <= 1e-12 && dupdate <= 1e-13)) { /* the inner products sum in another order: rounding grows with n */
    ++failures;
    std::printf("FAIL gpu %s n=%d p=%d q=%d: kernels differ from the host twins by %.2e (A^H B), %.2e (B - A C)\n", scalar, n, p, q, dinner, dupdate);
  }
}

} // namespace

int main(int argc, char **argv)
{
  const bool gpu = argc > 1 && !std::strcmp(argv[1], "gpu");
  int        cases = 0;
  unsigned   seed  = 1;

  for (int n : {1, 37, 5000, 100003})
    for (int p : {1, 3, 31, 64, 70})
      for (int q : {1, 2, 11, 16, 20}) {
        if (!gpu && (long long)n * p * q > 2000000) continue; /* the host check is quadratic in the columns */
        if (gpu) {
          CheckDevice<double>("real", n, p, q, seed++);
          CheckDevice<std::complex<double>>("complex", n, p, q, seed++);
        } else {
          CheckHost<double>("real", n, p, q, seed++);
          CheckHost<std::complex<double>>("complex", n, p, q, seed++);
        }
        cases += 2;
      }
  std::printf("%s: %d cases, %d failures\n", gpu ? "GPU kernels against the host twins" : "host twins", cases, failures);
  return failures ? 1 : 0;
}
