/* COO assembly of the jagged types, sequential and MPI (src/mat/impls/jagged/jaggedcoo.c) */
#pragma once

#include <petscmat.h>

/* What a jagged type adds to its AIJ type's COO assembly */
typedef struct {
  PetscErrorCode (*changed)(Mat); /* the host values changed: the jagged copies are out of date */
  /* optional: after the AIJ type's MatSetPreallocationCOO() (a new pattern and COO map) */
  PetscErrorCode (*preallocated)(Mat);
  /* optional: values through the AIJ type's COO map (those in GPU memory into the jagged copy on the GPU, the host CSR after);
     *done false: not taken (the AIJ type's function then). Called on every process of an MPI type (collective there), whatever
     its number of entries */
  PetscErrorCode (*setvalues)(Mat, const PetscScalar[], PetscMemType, InsertMode, PetscBool *);
} MatJaggedCOOOps;

PETSC_INTERN PetscErrorCode MatJaggedComposeCOO(Mat, const MatJaggedCOOOps *);
PETSC_INTERN PetscErrorCode MatJaggedRemoveCOO(Mat);
