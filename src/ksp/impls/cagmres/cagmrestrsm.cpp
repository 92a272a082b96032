#include "cagmrestrsm.hpp"

namespace cagmres {

template <typename T>
void SolveUpperRightHost(int n, int q, T *V, long long lda, const T *R, int ldr)
{
  for (int j = 0; j < q; ++j)
    for (int row = 0; row < n; ++row) {
      T acc = V[row + j * lda];
      for (int i = 0; i < j; ++i) acc -= V[row + i * lda] * R[i + j * ldr];
      V[row + j * lda] = acc / R[j + j * ldr];
    }
}

template void SolveUpperRightHost<double>(int, int, double *, long long, const double *, int);
template void SolveUpperRightHost<std::complex<double>>(int, int, std::complex<double> *, long long, const std::complex<double> *, int);

} // namespace cagmres
