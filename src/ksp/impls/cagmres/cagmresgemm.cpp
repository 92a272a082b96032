#include "cagmresgemm.hpp"

namespace cagmres {

namespace {

inline double Conj(double v)
{
  return v;
}
inline std::complex<double> Conj(std::complex<double> v)
{
  return std::conj(v);
}

} // namespace

template <typename T>
void BlockInnerHost(int n, int p, int q, const T *A, const T *B, long long lda, T *C)
{
  for (int b = 0; b < q; ++b)
    for (int a = 0; a < p; ++a) {
      T sum = T(0);
      for (int row = 0; row < n; ++row) sum += Conj(A[row + a * lda]) * B[row + b * lda];
      C[a + b * p] = sum;
    }
}

template <typename T>
void BlockUpdateHost(int n, int p, int q, const T *A, long long lda, const T *C, T *B)
{
  for (int row = 0; row < n; ++row)
    for (int b = 0; b < q; ++b) {
      T acc = T(0);
      for (int a = 0; a < p; ++a) acc += A[row + a * lda] * C[a + b * p];
      B[row + b * lda] -= acc;
    }
}

template void BlockInnerHost<double>(int, int, int, const double *, const double *, long long, double *);
template void BlockInnerHost<std::complex<double>>(int, int, int, const std::complex<double> *, const std::complex<double> *, long long, std::complex<double> *);
template void BlockUpdateHost<double>(int, int, int, const double *, long long, const double *, double *);
template void BlockUpdateHost<std::complex<double>>(int, int, int, const std::complex<double> *, long long, const std::complex<double> *, std::complex<double> *);

} // namespace cagmres
