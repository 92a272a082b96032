/* COO assembly of the jagged types, sequential and MPI (src/mat/impls/jagged/jaggedcoo.c) */
#pragma once

#include <petscmat.h>

/* What a jagged type adds to its AIJ type's COO assembly */
typedef struct {
  PetscErrorCode (*changed)(Mat); /* the host values changed: the jagged copies are out of date */
  /* optional: the map of the COO entries to the host CSR's nonzeros, after the AIJ type's MatSetPreallocationCOO() */
  PetscErrorCode (*setmap)(Mat, PetscCount, const PetscInt[], const PetscInt[]);
  /* optional: the values through that map (those in GPU memory into the jagged copy on the GPU, the host CSR after; with the host
     kernels, host values into the host CSR by the host twin); *done false: not taken (the AIJ type's function then) */
  PetscErrorCode (*setvalues)(Mat, const PetscScalar[], PetscMemType, InsertMode, PetscBool *);
} MatJaggedCOOOps;

PETSC_INTERN PetscErrorCode MatJaggedComposeCOO(Mat, const MatJaggedCOOOps *);
PETSC_INTERN PetscErrorCode MatJaggedRemoveCOO(Mat);
