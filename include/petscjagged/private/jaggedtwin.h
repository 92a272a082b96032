/*
   The MATSEQAIJCUSPARSE twin of a sequential jagged matrix (seqjaggedproduct.cu), for code outside the jagged types
   that reads a device CSR (the single-precision copies of src/mat/utils/single): a C header, where seqjagged.h is C++.
*/
#pragma once

#include <petscmat.h>

PETSC_INTERN PetscErrorCode MatSeqJaggedGetDeviceTwin(Mat, Mat *);
