/*
   Device helpers of the single-precision matrix's products (matsinglecsr.cu, matsingledia.cu, matsinglejagged.cu)
   and of the single-precision loops that use it (PCSPCG's inner CG, spcgdevice.cu, and V-cycle, spcgmgdevice.cu):
   the scalar types, conversions between the precisions, and block sums.
*/
#pragma once

#include <petscjagged/private/matsingle.h>
#include <petscjagged/private/seqjagged.h>
#include <petscjagged/private/jaggeddevicescalar.cuh>
#include <petscjagged/private/jaggedlaunch.cuh>
#include <petscjagged/private/jaggedvalueops.cuh>


namespace { /* each translation unit its own copy: device code is not linked across them */

using S = jagged::gpu::DeviceScalar<MatJaggedHostSingle>; /* inner vectors: float or complex float */
using D = jagged::gpu::DeviceScalar<MatJaggedHostScalar>; /* sums and outer vectors: double or complex double */

#if defined(PETSC_USE_COMPLEX)
__device__ __forceinline__ double Re(D v)
{
  return v.real();
}
__device__ __forceinline__ S Conj(S v)
{
  return cuda::std::conj(v);
}
__device__ __forceinline__ D Conj(D v)
{
  return cuda::std::conj(v);
}
__device__ __forceinline__ S ToSingle(D v)
{
  return {(float)v.real(), (float)v.imag()};
}
__device__ __forceinline__ D ToDouble(S v)
{
  return {v.real(), v.imag()};
}
#else
__device__ __forceinline__ double Re(double v)
{
  return v;
}
__device__ __forceinline__ float Conj(float v)
{
  return v;
}
__device__ __forceinline__ double Conj(double v)
{
  return v;
}
__device__ __forceinline__ float ToSingle(double v)
{
  return (float)v;
}
__device__ __forceinline__ double ToDouble(float v)
{
  return v;
}
#endif

/* conj(a) b of single-precision entries, taken in double as the host twin does (a single-precision product underflows below 1e-38, reached near the end of long inner solves) */
__device__ __forceinline__ D DotTerm(S a, S b)
{
  return Conj(ToDouble(a)) * ToDouble(b);
}

constexpr int kThreads = 256; /* threads a block, for every kernel that uses BlockSumTo() */

/* sum over the block of v, added atomically to *out by thread 0 */
__device__ void BlockSumTo(D v, D *out)
{
  __shared__ D partial[kThreads / 32];
  const int    lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  v = jagged::gpu::WarpSum(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < kThreads / 32 ? partial[lane] : D(0);
    v = jagged::gpu::WarpSum(v);
    if (lane == 0) jagged::gpu::AtomicAdd(out, v);
  }
}

/* out = the n values of in (device memory) rounded to single precision, on stream: the jagged core's conversion, the one
   rounding kernel of every single-precision copy (its host twin jagged::host::Convert()) */
inline PetscErrorCode ToSingleDevice(size_t n, const void *in, PetscJaggedScalarSingle *out, cudaStream_t stream)
{
  PetscFunctionBegin;
  PetscCheck(n <= (size_t)PETSC_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "%zu values to round at once: more than 32-bit indices reach", n);
  PetscCallCUDA(jagged::gpu::Convert((int)n, static_cast<const MatJaggedHostScalar *>(in), reinterpret_cast<MatJaggedHostSingle *>(out), stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The CSR arrays of B, a MATSEQAIJCUSPARSE, in device memory (copied there if they are not yet) */
inline PetscErrorCode DeviceCSR(Mat B, const PetscInt **di, const PetscInt **dj, PetscScalar **da)
{
  PetscMemType mtype;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJGetCSRAndMemType(B, di, dj, da, &mtype));
  PetscCheck(PetscMemTypeDevice(mtype), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Expected the device CSR of a MATSEQAIJCUSPARSE");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* at most this many blocks of kThreads for a grid-stride loop (JaggedBlocks()): enough to fill the GPU, few enough for the atomics of BlockSumTo() */
constexpr int kMaxBlocks = 2048;

} // namespace
