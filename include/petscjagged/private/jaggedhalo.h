/*
   JaggedHalo: the halo exchange of a PetscSF (owned entries -> ghost entries) for arrays in device
   memory, made to overlap a product. Through CUDA IPC (between the processes of one host; auto's choice there):
   Begin() gathers the values to send on the caller's stream; End() pushes them into the receivers' device
   buffers with peer copies on the halo's own stream, makes the caller's stream wait for the pushes into this
   process's buffer and moves the ghosts from it into place (jaggedhaloipc.h). Through NCCL: Begin() gathers the values to send on the caller's
   stream; End() enqueues one group of sends and receives on a stream of the halo's own, after the
   gather, and makes the caller's stream wait for it: no host synchronization, and the product the
   caller launched between the two runs while the messages travel. Through MPI (not CUDA-aware):
   Begin() gathers the values and copies them to pinned host memory on the halo's stream; End() sends
   them, receives the ghosts and copies them to the device, and makes the caller's stream wait for
   them. Through a GPU-aware MPI (`-use_gpu_aware_mpi`, PETSc's own switch): Begin() gathers the values;
   End() waits for the gather, hands the device buffers to MPI (the ghosts received straight into the ghost
   vector where they are contiguous there) and returns when they have arrived. The caller launches its local
   product between the two. The reverse exchange (ReverseBegin()/ReverseEnd())
   sends ghost entries back and adds them to their owners' entries, for transpose products. With host
   arrays the same exchanges run on the host (the reference twin of the gather/scatter/add kernels).
*/
#pragma once

#include <petscsf.h>
#include <petscdevice_cuda.h>
#include <petscjagged.h>

typedef struct _n_JaggedHalo *JaggedHalo;

PETSC_INTERN PetscErrorCode JaggedHaloCreate(PetscSF, size_t, PetscBool, PetscJaggedExchange, JaggedHalo *);
PETSC_INTERN PetscErrorCode JaggedHaloDirect(MPI_Comm, PetscJaggedExchange, PetscBool *);
PETSC_INTERN PetscErrorCode JaggedHaloGetExchange(JaggedHalo, const char **, const char **);
PETSC_INTERN PetscErrorCode JaggedHaloBegin(JaggedHalo, const void *, cudaStream_t);
PETSC_INTERN PetscErrorCode JaggedHaloEnd(JaggedHalo, void *, cudaStream_t);
PETSC_INTERN PetscErrorCode JaggedHaloEndInPlace(JaggedHalo, void *, const void **, cudaStream_t);
PETSC_INTERN PetscErrorCode JaggedHaloRelease(JaggedHalo, cudaStream_t);
PETSC_INTERN PetscErrorCode JaggedHaloReverseBegin(JaggedHalo, const void *, cudaStream_t);
PETSC_INTERN PetscErrorCode JaggedHaloReverseEnd(JaggedHalo, void *, cudaStream_t);
PETSC_INTERN PetscErrorCode JaggedHaloDestroy(JaggedHalo *);
