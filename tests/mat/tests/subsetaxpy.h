/* Shared by the matrix tests: MatAXPY() of a matrix whose pattern lies in the other's, against MATAIJ's */
#pragma once

#include <petscmat.h>

/* S: a MATAIJ of the entries of the assembled M whose row and column add up to an even number, a pattern within M's */
static inline PetscErrorCode MatEvenEntries(Mat M, Mat *S)
{
  PetscInt rstart, rend, m, n, *nnz;

  PetscFunctionBeginUser;
  PetscCall(MatGetOwnershipRange(M, &rstart, &rend));
  PetscCall(MatGetLocalSize(M, &m, &n));
  PetscCall(PetscMalloc1(PetscMax(m, 1), &nnz));
  for (PetscInt r = rstart; r < rend; r++) {
    PetscInt nc;

    PetscCall(MatGetRow(M, r, &nc, NULL, NULL));
    nnz[r - rstart] = nc; /* MatRestoreRow() zeroes nc */
    PetscCall(MatRestoreRow(M, r, &nc, NULL, NULL));
  }
  PetscCall(MatCreate(PetscObjectComm((PetscObject)M), S));
  PetscCall(MatSetSizes(*S, m, n, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetType(*S, MATAIJ));
  PetscCall(MatSeqAIJSetPreallocation(*S, 0, nnz));
  PetscCall(MatMPIAIJSetPreallocation(*S, 0, nnz, 0, nnz));
  for (PetscInt r = rstart; r < rend; r++) {
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscInt           nc;

    PetscCall(MatGetRow(M, r, &nc, &cols, &vals));
    for (PetscInt k = 0; k < nc; k++)
      if ((r + cols[k]) % 2 == 0) PetscCall(MatSetValue(*S, r, cols[k], vals[k], INSERT_VALUES));
    PetscCall(MatRestoreRow(M, r, &nc, &cols, &vals));
  }
  PetscCall(MatAssemblyBegin(*S, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*S, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree(nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Y += a X with str (SUBSET_ or DIFFERENT_NONZERO_PATTERN), X's entries among Y's: a jagged Y merges X into its host CSR in one pass, which
  logs 2 flops an entry of X (PETSC_FLOPS_PER_OP each; MATAIJ's MatAXPY_Basic() logs none); fails where Y took another path, counts the check
*/
static inline PetscErrorCode MatAXPYSubsetMerged(Mat Y, PetscScalar a, Mat X, MatStructure str, PetscInt *count)
{
  PetscLogDouble f0, f1;
  MatInfo        info;

  PetscFunctionBeginUser;
  PetscCall(MatGetInfo(X, MAT_LOCAL, &info));
  PetscCall(PetscGetFlops(&f0));
  PetscCall(MatAXPY(Y, a, X, str));
  PetscCall(PetscGetFlops(&f1));
  PetscCheck(f1 - f0 == 2 * PETSC_FLOPS_PER_OP * info.nz_used, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatAXPY(%s) of %g entries logged %g flops: not merged on the host CSR", MatStructures[str], info.nz_used, f1 - f0);
  (*count)++;
  PetscFunctionReturn(PETSC_SUCCESS);
}
