/*
   The diagonals of a CSR matrix: the distinct column - row offsets of its entries, when there are at
   most MAT_DIA_MAX of them. Shared by the DIA copies of PCSPCG (single precision) and MatPowers
   (double precision, the Jacobi scaling folded in). On the GPU one pass over the entries (diaentries.cuh's
   row visitor) marks a bitmap of the offsets, which MatDIACollectDiagonals() reads; the host twin,
   MatDIAFindDiagonals(), marks a PetscBT.
*/
#pragma once

#include <petscsys.h>
#include <petscdevice_cuda.h>

#define MAT_DIA_MAX 32 /* diagonals a DIA copy may have */

PETSC_INTERN PetscErrorCode MatDIAFindDiagonals(PetscInt, PetscInt, const PetscInt *, const PetscInt *, PetscInt *, PetscInt[]);
PETSC_INTERN PetscErrorCode MatDIACollectDiagonals(long long, long long, const unsigned *, cudaStream_t, PetscInt *, PetscInt[]);
PETSC_INTERN PetscBool      MatDIAFewerBytes(PetscInt, PetscInt, PetscInt, size_t, double);
