/*
   Device scalar helpers for the jagged kernels: the device type of each host scalar type,
   read-only and streaming loads, fused multiply-add, atomic add and warp shuffles, each for
   double, float and cuda::std::complex of both (loads also for __half, the device Half). Complex products are written out (no C99
   inf/nan recovery), as in PETSc's and cuSPARSE's kernels.
*/
#pragma once

#include <complex>
#include <cuda/std/complex>
#include <cuda_fp16.h>

#include <petscjagged/private/jaggedhalf.hpp>

namespace jagged {
namespace gpu {

template <typename T>
struct DeviceScalarOf {
  using type = T;
};
template <typename R>
struct DeviceScalarOf<std::complex<R>> {
  using type = cuda::std::complex<R>;
};
template <>
struct DeviceScalarOf<Half> {
  using type = __half;
};
/* Device type of a host scalar type: itself, cuda::std::complex for std::complex, __half for Half */
template <typename T>
using DeviceScalar = typename DeviceScalarOf<T>::type;

static_assert(sizeof(cuda::std::complex<double>) == sizeof(std::complex<double>), "complex<double> layouts differ");
static_assert(sizeof(cuda::std::complex<float>) == sizeof(std::complex<float>), "complex<float> layouts differ");
static_assert(sizeof(__half) == sizeof(Half), "half layouts differ");

/* Read-only (non-coherent cache) load, for data reused by other threads: x, index arrays */
__device__ __forceinline__ int LoadRO(const int *p)
{
  return __ldg(p);
}
__device__ __forceinline__ float LoadRO(const float *p)
{
  return __ldg(p);
}
__device__ __forceinline__ double LoadRO(const double *p)
{
  return __ldg(p);
}
__device__ __forceinline__ cuda::std::complex<float> LoadRO(const cuda::std::complex<float> *p)
{
  const float2 v = __ldg(reinterpret_cast<const float2 *>(p));
  return {v.x, v.y};
}
__device__ __forceinline__ cuda::std::complex<double> LoadRO(const cuda::std::complex<double> *p)
{
  const double2 v = __ldg(reinterpret_cast<const double2 *>(p));
  return {v.x, v.y};
}
__device__ __forceinline__ __half LoadRO(const __half *p)
{
  return __ldg(p);
}

/* Streaming (evict-first) load, for matrix entries read once per product */
__device__ __forceinline__ int LoadStream(const int *p)
{
  return __ldcs(p);
}
__device__ __forceinline__ float LoadStream(const float *p)
{
  return __ldcs(p);
}
__device__ __forceinline__ double LoadStream(const double *p)
{
  return __ldcs(p);
}
__device__ __forceinline__ cuda::std::complex<float> LoadStream(const cuda::std::complex<float> *p)
{
  const float2 v = __ldcs(reinterpret_cast<const float2 *>(p));
  return {v.x, v.y};
}
__device__ __forceinline__ cuda::std::complex<double> LoadStream(const cuda::std::complex<double> *p)
{
  const double2 v = __ldcs(reinterpret_cast<const double2 *>(p));
  return {v.x, v.y};
}
__device__ __forceinline__ __half LoadStream(const __half *p)
{
  return __ldcs(p);
}

/* a * x + acc */
__device__ __forceinline__ float MulAdd(float a, float x, float acc)
{
  return fmaf(a, x, acc);
}
__device__ __forceinline__ double MulAdd(double a, double x, double acc)
{
  return fma(a, x, acc);
}
template <typename R>
__device__ __forceinline__ cuda::std::complex<R> MulAdd(cuda::std::complex<R> a, cuda::std::complex<R> x, cuda::std::complex<R> acc)
{
  const R re = fma(a.real(), x.real(), fma(-a.imag(), x.imag(), acc.real()));
  const R im = fma(a.real(), x.imag(), fma(a.imag(), x.real(), acc.imag()));
  return {re, im};
}

/* *p += v, atomically (complex: each part atomically) */
__device__ __forceinline__ void AtomicAdd(float *p, float v)
{
  atomicAdd(p, v);
}
__device__ __forceinline__ void AtomicAdd(double *p, double v)
{
  atomicAdd(p, v);
}
template <typename R>
__device__ __forceinline__ void AtomicAdd(cuda::std::complex<R> *p, cuda::std::complex<R> v)
{
  R *parts = reinterpret_cast<R *>(p);
  atomicAdd(parts, v.real());
  atomicAdd(parts + 1, v.imag());
}

/* v of the lane delta above, within a full warp */
__device__ __forceinline__ float ShuffleDown(float v, int delta)
{
  return __shfl_down_sync(0xffffffffu, v, delta);
}
__device__ __forceinline__ double ShuffleDown(double v, int delta)
{
  return __shfl_down_sync(0xffffffffu, v, delta);
}
template <typename R>
__device__ __forceinline__ cuda::std::complex<R> ShuffleDown(cuda::std::complex<R> v, int delta)
{
  return {ShuffleDown(v.real(), delta), ShuffleDown(v.imag(), delta)};
}

/* Sum over a full warp, valid in lane 0 */
template <typename V>
__device__ __forceinline__ V WarpSum(V v)
{
  for (int delta = 16; delta > 0; delta /= 2) v += ShuffleDown(v, delta);
  return v;
}

} // namespace gpu
} // namespace jagged
