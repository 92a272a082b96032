/*
   KSPCAGMRES's entry points to its block kernels and their host twins: the triangular solve
   V := V R^{-1} (cagmrestrsm.*), the inner products C = A^H B and the updates B -= A C
   (cagmresgemm.*), on the host or the device according to the memory of the basis.
*/
#include "cagmrestrsm.hpp"
#include "cagmresgemm.hpp"
#include "cagmresimpl.h"
#include <petscdevice_cuda.h>

#if defined(PETSC_USE_COMPLEX)
typedef std::complex<double> BlockScalar;
#else
typedef double BlockScalar;
#endif
static_assert(KSP_CAGMRES_SOLVE_MAX_COLUMNS == cagmres::kSolveMaxColumns, "KSPCAGMRES and its kernel disagree on the widest block");
static_assert(KSP_CAGMRES_INNER_BLOCKS == cagmres::kInnerBlocks, "KSPCAGMRES and its kernel disagree on the scratch of the inner products");

/* V (nloc x q, leading dimension lda, host or device) := V R^{-1}; R (q x q upper triangular) on the host, and for device V also in dR (leading dimension q) */
PetscErrorCode KSPCAGMRESSolveUpperRight(PetscMemType mtype, PetscInt n, PetscInt q, PetscScalar *V, PetscInt lda, const PetscScalar *R, PetscInt ldr, const PetscScalar *dR)
{
  PetscFunctionBegin;
  if (PetscMemTypeHost(mtype)) {
    cagmres::SolveUpperRightHost((int)n, (int)q, reinterpret_cast<BlockScalar *>(V), (long long)lda, reinterpret_cast<const BlockScalar *>(R), (int)ldr);
    PetscCall(PetscLogFlops(1.0 * q * q * n));
  } else {
    cudaStream_t stream;

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA(cagmres::SolveUpperRight((int)n, (int)q, reinterpret_cast<BlockScalar *>(V), (long long)lda, reinterpret_cast<const BlockScalar *>(dR), stream));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(1.0 * q * q * n));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  C (p x q, leading dimension p) = A^H B for blocks of n rows (leading dimension lda); A, B and C in the
  memory mtype, and for the device work, KSP_CAGMRES_INNER_BLOCKS * p * q device entries
*/
PetscErrorCode KSPCAGMRESInnerProducts(PetscMemType mtype, PetscInt n, PetscInt p, PetscInt q, const PetscScalar *A, const PetscScalar *B, PetscInt lda, PetscScalar *C, PetscScalar *work)
{
  const PetscLogDouble flops = (PetscDefined(USE_COMPLEX) ? 8.0 : 2.0) * p * q * n;

  PetscFunctionBegin;
  if (PetscMemTypeHost(mtype)) {
    cagmres::BlockInnerHost((int)n, (int)p, (int)q, reinterpret_cast<const BlockScalar *>(A), reinterpret_cast<const BlockScalar *>(B), (long long)lda, reinterpret_cast<BlockScalar *>(C));
    PetscCall(PetscLogFlops(flops));
  } else {
    cudaStream_t stream;

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA(cagmres::BlockInner((int)n, (int)p, (int)q, reinterpret_cast<const BlockScalar *>(A), reinterpret_cast<const BlockScalar *>(B), (long long)lda, reinterpret_cast<BlockScalar *>(C), reinterpret_cast<BlockScalar *>(work), stream));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(flops));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* B -= A C for blocks of n rows (leading dimension lda), C (p x q, leading dimension p); all in the memory mtype */
PetscErrorCode KSPCAGMRESUpdateBlock(PetscMemType mtype, PetscInt n, PetscInt p, PetscInt q, const PetscScalar *A, PetscInt lda, const PetscScalar *C, PetscScalar *B)
{
  const PetscLogDouble flops = (PetscDefined(USE_COMPLEX) ? 8.0 : 2.0) * p * q * n;

  PetscFunctionBegin;
  if (PetscMemTypeHost(mtype)) {
    cagmres::BlockUpdateHost((int)n, (int)p, (int)q, reinterpret_cast<const BlockScalar *>(A), (long long)lda, reinterpret_cast<const BlockScalar *>(C), reinterpret_cast<BlockScalar *>(B));
    PetscCall(PetscLogFlops(flops));
  } else {
    cudaStream_t stream;

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA(cagmres::BlockUpdate((int)n, (int)p, (int)q, reinterpret_cast<const BlockScalar *>(A), (long long)lda, reinterpret_cast<const BlockScalar *>(C), reinterpret_cast<BlockScalar *>(B), stream));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(flops));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
