/*
   PCSPCG's single-precision copy of a sequential AIJCUSPARSE operator on the GPU: the CSR values
   rounded to single precision, with the matrix's own device row offsets and columns, and the
   product by a CSR kernel with a group of lanes per row (a power of two near half the mean row length).
   Made in one kernel from the device CSR, so the set-up costs one pass over the values. The host
   twin is SPCGCSRMultHost() in spcg.c (the product of a MATSEQAIJ operator with host vectors).
*/
#include "spcgimpl.h"
#include <petscdevice_cuda.h>
#include "../../../mat/impls/jagged/seq/seqjagged.h"
#include "../../../mat/impls/jagged/jaggeddevicescalar.cuh"

namespace {

using S = jagged::gpu::DeviceScalar<MatJaggedHostSingle>;
using D = jagged::gpu::DeviceScalar<MatJaggedHostScalar>;

constexpr int kThreads = 256;

__global__ void RoundKernel(PetscInt nnz, const D *a, S *as)
{
  for (PetscInt k = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; k < nnz; k += (PetscInt)gridDim.x * blockDim.x) {
#if defined(PETSC_USE_COMPLEX)
    as[k] = S((float)a[k].real(), (float)a[k].imag());
#else
    as[k] = (float)a[k];
#endif
  }
}

/* y = A x, VS lanes a row; every lane takes part in the shuffles */
template <int VS>
__global__ void CSRMultKernel(int n, const int *ia, const int *ja, const S *a, const S *x, S *y)
{
  const int row = (int)((blockIdx.x * (long long)blockDim.x + threadIdx.x) / VS), lane = threadIdx.x % VS;
  S         sum = S(0);

  if (row < n) {
    const int end = jagged::gpu::LoadRO(ia + row + 1);
    for (int k = jagged::gpu::LoadRO(ia + row) + lane; k < end; k += VS) sum = jagged::gpu::MulAdd(jagged::gpu::LoadStream(a + k), jagged::gpu::LoadRO(x + jagged::gpu::LoadStream(ja + k)), sum);
  }
  for (int delta = VS / 2; delta > 0; delta /= 2) sum += jagged::gpu::ShuffleDown(sum, delta);
  if (row < n && lane == 0) y[row] = sum;
}

template <int VS>
void LaunchMult(int n, const int *ia, const int *ja, const S *a, const S *x, S *y, cudaStream_t stream)
{
  const long long threads = (long long)n * VS;

  CSRMultKernel<VS><<<(unsigned)PetscMax((threads + kThreads - 1) / kThreads, 1), kThreads, 0, stream>>>(n, ia, ja, a, x, y);
}

} // namespace

/* The single-precision values of the device CSR of P (a MATSEQAIJCUSPARSE), and its device indices */
PetscErrorCode PCSPCGCSRCreateDevice(PC pc, Mat P)
{
  PC_SPCG           *s = (PC_SPCG *)pc->data;
  const PetscInt    *i, *j;
  PetscScalar       *a;
  PetscMemType       mtype;
  cudaStream_t       stream;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJGetCSRAndMemType(P, &i, &j, &a, &mtype));
  PetscCheck(PetscMemTypeDevice(mtype), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Expected the device CSR of a MATSEQAIJCUSPARSE");
  PetscCall(MatGetLocalSize(P, &s->n, NULL));
  s->csri = i;
  s->csrj = j;
  {
    MatInfo info;

    PetscCall(MatGetInfo(P, MAT_LOCAL, &info));
    s->csrnnz = (PetscInt)info.nz_used;
  }
  PetscCallCUDA(cudaMalloc((void **)&s->csra, sizeof(S) * PetscMax(s->csrnnz, 1)));
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  RoundKernel<<<(unsigned)PetscMin(PetscMax((s->csrnnz + kThreads - 1) / kThreads, 1), 65535), kThreads, 0, stream>>>(s->csrnnz, reinterpret_cast<const D *>(a), reinterpret_cast<S *>(s->csra));
  PetscCallCUDA(cudaGetLastError());
  s->csrdevice = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCSPCGCSRDestroyDevice(PC pc)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  if (s->csra) PetscCallCUDA(cudaFree(s->csra));
  s->csra = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_INTERN PetscErrorCode PCSPCGCSRMultDevice(PC, const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[], cudaStream_t);

/* y = A x in single precision on stream (capturable into a CUDA graph) */
PetscErrorCode PCSPCGCSRMultDevice(PC pc, const PetscJaggedScalarSingle x[], PetscJaggedScalarSingle y[], cudaStream_t stream)
{
  PC_SPCG  *s    = (PC_SPCG *)pc->data;
  const int n    = (int)s->n;
  const int mean = s->n ? (int)(s->csrnnz / s->n) : 0;
  const S  *xs = reinterpret_cast<const S *>(x), *as = reinterpret_cast<const S *>(s->csra);
  S        *ys = reinterpret_cast<S *>(y);

  PetscFunctionBegin;
  /* lanes a row: about half the mean row length (measured on an H100, 7-point rows: 2 and 4 lanes 12% faster than 8, 1 lane slower) */
  if (mean <= 4) LaunchMult<2>(n, s->csri, s->csrj, as, xs, ys, stream);
  else if (mean <= 8) LaunchMult<4>(n, s->csri, s->csrj, as, xs, ys, stream);
  else if (mean <= 16) LaunchMult<8>(n, s->csri, s->csrj, as, xs, ys, stream);
  else if (mean <= 32) LaunchMult<16>(n, s->csri, s->csrj, as, xs, ys, stream);
  else LaunchMult<32>(n, s->csri, s->csrj, as, xs, ys, stream);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}
