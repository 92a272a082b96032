/*
   The device CSR of a sequential jagged matrix, for code outside the jagged types that reads one (the single-precision
   copies of src/mat/utils/single): that of its MATSEQAIJCUSPARSE twin (seqjaggedproduct.cu), or one scattered back from its
   current jagged copy on the GPU (seqjagged.cu). A C header, where seqjagged.h is C++.
*/
#pragma once

#include <petscmat.h>

PETSC_INTERN PetscErrorCode MatSeqJaggedGetDeviceTwin(Mat, Mat *);
PETSC_INTERN PetscErrorCode MatSeqJaggedHasDeviceCSR(Mat, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqJaggedGetDeviceCSR(Mat, PetscInt **, PetscInt **, PetscScalar **);
PETSC_INTERN PetscErrorCode MatSeqJaggedRestoreDeviceCSR(Mat, PetscInt **, PetscInt **, PetscScalar **);
