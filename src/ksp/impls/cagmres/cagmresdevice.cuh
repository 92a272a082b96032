/*
   The device scalar of KSPCAGMRES's block kernels (cagmrestrsm.cu, cagmresgemm.cu): double, or
   cuda::std::complex<double> for std::complex<double>.
*/
#pragma once

#include <complex>
#include <cuda/std/complex>

namespace cagmres {

template <typename T>
struct Device {
  using type = T;
};
template <>
struct Device<std::complex<double>> {
  using type = cuda::std::complex<double>;
};

} // namespace cagmres
