/*
   JaggedIPCSum: sums of a few doubles over the processes of one host, each with a GPU of its own, on the stream of
   the kernels, without the host: the GPU to GPU path of PCSPCG's inner sums where the halos go through CUDA IPC.
   Each process maps once (a JaggedHaloIPC made for the purpose) a small mailbox of every other process; a kernel of one
   thread writes this process's values into its slot of every mailbox, then a sequence number (a release store), waits
   until every process's number has reached its own mailbox, and adds the slots in the order of the ranks, so that every
   process gets the same bits. Slots alternate between two sets (a process can run at most one sum ahead). Where the
   processes are not on one host, two share a GPU or a GPU cannot store into another's memory, creation says why and
   the caller sums through MPI.
*/
#pragma once

#include <petscsys.h>
#include <petscdevice_cuda.h>

typedef struct _n_JaggedIPCSum *JaggedIPCSum;

/* What a sum writes into the caller's stop flag when another process gave no values for JAGGED_IPC_SUM_WAIT seconds */
#define JAGGED_IPC_SUM_LOST 2

PETSC_INTERN PetscErrorCode JaggedIPCSumCreate(MPI_Comm, JaggedIPCSum *, const char **);
PETSC_INTERN PetscErrorCode JaggedIPCSumAllreduce(JaggedIPCSum, double *, int, int *, cudaStream_t);
PETSC_INTERN PetscErrorCode JaggedIPCSumDestroy(JaggedIPCSum *, cudaStream_t);
