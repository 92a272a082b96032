/*
   JaggedNCCL: the NCCL communicator of a PETSc communicator, for the GPU-to-GPU halo exchanges and
   reductions of petsc-jagged's objects. NCCL is opened at run time (libnccl.so.2 on the loader's path,
   else the copy the plugin was built against); the communicator is made once (ncclGetUniqueId() on
   rank 0, broadcast with MPI), by a thread of its own started by the first JaggedNCCLPrefetch() or
   JaggedNCCLGet() (collective then; when the library is loaded, where an option asks for NCCL) and joined
   and connected by the first JaggedNCCLGet(), and kept as an attribute
   of PETSc's inner communicator until that is freed or PETSc finalizes. Where NCCL cannot run on every process (no
   library, no GPU, two processes on one GPU) the request says why, and the caller takes its MPI path.
   Every call is enqueued on the given stream: no host synchronization.
*/
#pragma once

#include <petscsys.h>
#include <petscdevice_cuda.h>

typedef struct _n_JaggedNCCL *JaggedNCCL;

PETSC_INTERN PetscErrorCode JaggedNCCLPrefetch(MPI_Comm);
PETSC_INTERN PetscErrorCode JaggedNCCLPrefetchFromOptions(void);
PETSC_INTERN PetscErrorCode JaggedNCCLGet(MPI_Comm, JaggedNCCL *, const char **);
PETSC_INTERN PetscErrorCode JaggedNCCLGroupStart(void);
PETSC_INTERN PetscErrorCode JaggedNCCLGroupEnd(void);
PETSC_INTERN PetscErrorCode JaggedNCCLSend(JaggedNCCL, const void *, size_t, PetscMPIInt, cudaStream_t);
PETSC_INTERN PetscErrorCode JaggedNCCLRecv(JaggedNCCL, void *, size_t, PetscMPIInt, cudaStream_t);
PETSC_INTERN PetscErrorCode JaggedNCCLAllreduceSum(JaggedNCCL, void *, size_t, PetscDataType, cudaStream_t);
PETSC_INTERN PetscErrorCode JaggedNCCLFinalize(void);
PETSC_INTERN PetscLogEvent  PETSC_JAGGED_NCCLWait; /* JaggedNCCLGet() waiting for the communicator being made */
