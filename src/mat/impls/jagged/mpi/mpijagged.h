/* Private interface of the MPI jagged-diagonal types MATMPIJDSCUDA and MATMPIPJDSCUDA */
#pragma once

#include <petscjagged/private/seqjagged.h>

PETSC_INTERN PetscErrorCode MatConvert_MPIAIJ_MPIJagged_InPlace(Mat, MatType);
PETSC_INTERN PetscErrorCode MatMPIJaggedCOOPreallocated(Mat);
PETSC_INTERN PetscErrorCode MatMPIJaggedSetValuesCOO(Mat, const PetscScalar[], PetscMemType, InsertMode, PetscBool *);
