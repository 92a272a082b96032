/*
   Which GPUs the processes of a communicator run on (src/sys/jaggedgpus.cu): the GPU-to-GPU paths (NCCL, the inner sums
   through CUDA IPC) need a GPU a process, since a process spinning on its GPU for another's data would wait for that
   other's time slice on a shared one.
*/
#pragma once

#include <petscsys.h>

/* JaggedGPUsShared - whether two processes of comm run on one GPU (their current devices' UUIDs compared); collective */
PETSC_INTERN PetscErrorCode JaggedGPUsShared(MPI_Comm, PetscBool *);
