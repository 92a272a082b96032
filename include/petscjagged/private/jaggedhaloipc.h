/*
   JaggedHaloIPC: one direction of a JaggedHalo's exchange between the processes of one host, through CUDA IPC.
   Each process maps, once, the device receive buffers of the processes it sends to (cudaIpcOpenMemHandle(), the
   handles exchanged through MPI at creation) and pushes its messages into them with peer copies on the copy engine,
   on the halo's stream after the packing. Interprocess events order the GPUs: the receiver waits for the sender's
   pushes, the sender's next pushes wait until the receiver has read its buffer; both are waited on and recorded on the
   copy stream, the compute stream only waiting on and recording local events (each interprocess one idles its stream
   a few microseconds). A zero-byte MPI message (a token) tells the other process that the event it is to wait on has
   been recorded, so the host never waits for a GPU, only for the other process to have enqueued its part.
*/
#pragma once

#include <petscsys.h>
#include <petscdevice_cuda.h>

typedef struct _n_JaggedHaloIPC *JaggedHaloIPC;

PETSC_INTERN PetscErrorCode JaggedHaloIPCOneHost(MPI_Comm, PetscBool *);
PETSC_INTERN PetscErrorCode JaggedHaloIPCCreate(MPI_Comm, size_t, PetscMPIInt, const PetscMPIInt[], const PetscInt[], PetscMPIInt, const PetscMPIInt[], const PetscInt[], JaggedHaloIPC *, const char **);
PETSC_INTERN PetscErrorCode JaggedHaloIPCGetBuffer(JaggedHaloIPC, char **);
PETSC_INTERN PetscErrorCode JaggedHaloIPCGetDestination(JaggedHaloIPC, PetscMPIInt, char **);
PETSC_INTERN PetscErrorCode JaggedHaloIPCPush(JaggedHaloIPC, const char *, cudaEvent_t, cudaStream_t, cudaStream_t);
PETSC_INTERN PetscErrorCode JaggedHaloIPCDrained(JaggedHaloIPC, cudaStream_t);
PETSC_INTERN PetscErrorCode JaggedHaloIPCDestroy(JaggedHaloIPC *, cudaStream_t);
