/*
   KSPCAGMRES's entry point to the block triangular solve of cagmrestrsm.cu and its host twin.
*/
#include "cagmrestrsm.hpp"
#include "cagmresimpl.h"
#include <petscdevice_cuda.h>

#if defined(PETSC_USE_COMPLEX)
typedef std::complex<double> SolveScalar;
#else
typedef double SolveScalar;
#endif
static_assert(KSP_CAGMRES_SOLVE_MAX_COLUMNS == cagmres::kSolveMaxColumns, "KSPCAGMRES and its kernel disagree on the widest block");

/* V (nloc x q, leading dimension lda, host or device) := V R^{-1}; R (q x q upper triangular) on the host, and for device V also in dR (leading dimension q) */
PetscErrorCode KSPCAGMRESSolveUpperRight(PetscMemType mtype, PetscInt n, PetscInt q, PetscScalar *V, PetscInt lda, const PetscScalar *R, PetscInt ldr, const PetscScalar *dR)
{
  PetscFunctionBegin;
  if (PetscMemTypeHost(mtype)) {
    cagmres::SolveUpperRightHost((int)n, (int)q, reinterpret_cast<SolveScalar *>(V), (long long)lda, reinterpret_cast<const SolveScalar *>(R), (int)ldr);
    PetscCall(PetscLogFlops(1.0 * q * q * n));
  } else {
    cudaStream_t stream;

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA(cagmres::SolveUpperRight((int)n, (int)q, reinterpret_cast<SolveScalar *>(V), (long long)lda, reinterpret_cast<const SolveScalar *>(dR), stream));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(1.0 * q * q * n));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
