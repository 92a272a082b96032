/* COO assembly of the jagged types, sequential and MPI (src/mat/impls/jagged/jaggedcoo.c) */
#pragma once

#include <petscmat.h>

PETSC_INTERN PetscErrorCode MatJaggedComposeCOO(Mat, PetscErrorCode (*)(Mat));
PETSC_INTERN PetscErrorCode MatJaggedRemoveCOO(Mat);
