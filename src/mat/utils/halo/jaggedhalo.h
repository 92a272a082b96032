/*
   JaggedHalo: the halo exchange of a PetscSF (owned entries -> ghost entries) for arrays in device
   memory when MPI is not CUDA-aware, made to overlap a product: Begin() gathers the values to send on
   the GPU and copies them to pinned host memory on a stream of its own; End() sends them, receives the
   ghosts and copies them to the device, and makes the caller's stream wait for them. The caller
   launches its local product between the two. The reverse exchange (ReverseBegin()/ReverseEnd())
   sends ghost entries back and adds them to their owners' entries, for transpose products. With host
   arrays the same exchanges run on the host (the reference twin of the gather/scatter/add kernels).
*/
#pragma once

#include <petscsf.h>
#include <petscdevice_cuda.h>

typedef struct _n_JaggedHalo *JaggedHalo;

PETSC_INTERN PetscErrorCode JaggedHaloCreate(PetscSF, size_t, PetscBool, JaggedHalo *);
PETSC_INTERN PetscErrorCode JaggedHaloBegin(JaggedHalo, const void *, cudaStream_t);
PETSC_INTERN PetscErrorCode JaggedHaloEnd(JaggedHalo, void *, cudaStream_t);
PETSC_INTERN PetscErrorCode JaggedHaloReverseBegin(JaggedHalo, const void *, cudaStream_t);
PETSC_INTERN PetscErrorCode JaggedHaloReverseEnd(JaggedHalo, void *, cudaStream_t);
PETSC_INTERN PetscErrorCode JaggedHaloDestroy(JaggedHalo *);
