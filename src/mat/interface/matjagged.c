#include <petsc/private/matimpl.h>
#include <petscjagged.h>

/*@
  MatJaggedSetSinglePrecision - Keeps (or drops) a single-precision copy of the values of a
  jagged-diagonal matrix, next to the double-precision one

  Logically Collective

  Input Parameters:
+ A   - a `MATJDSCUDA` or `MATPJDSCUDA` matrix
- flg - `PETSC_TRUE` to keep the copy

  Options Database Key:
. -mat_jagged_single - keep the copy

  Level: intermediate

  Notes:
  The copy (float, or complex float in complex builds) shares the index arrays of the matrix and is
  refreshed with it. `MatJaggedMultSingle()` multiplies with it; mixed-precision solvers such as
  `PCSPCG` run their inner iterations on it.

.seealso: `MatJaggedGetSinglePrecision()`, `MatJaggedMultSingle()`, `MATPJDSCUDA`, `MATJDSCUDA`
@*/
PetscErrorCode MatJaggedSetSinglePrecision(Mat A, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveBool(A, flg, 2);
  PetscUseMethod(A, "MatJaggedSetSinglePrecision_C", (Mat, PetscBool), (A, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatJaggedGetSinglePrecision - Tells whether a jagged-diagonal matrix keeps a single-precision copy

  Not Collective

  Input Parameter:
. A - a `MATJDSCUDA` or `MATPJDSCUDA` matrix

  Output Parameter:
. flg - `PETSC_TRUE` when it keeps one

  Level: intermediate

.seealso: `MatJaggedSetSinglePrecision()`
@*/
PetscErrorCode MatJaggedGetSinglePrecision(Mat A, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(flg, 2);
  PetscUseMethod(A, "MatJaggedGetSinglePrecision_C", (Mat, PetscBool *), (A, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  MatJaggedMultSingle - Computes y = A x in single precision with the single-precision copy of a
  jagged-diagonal matrix

  Collective

  Input Parameters:
+ A - a `MATJDSCUDA` or `MATPJDSCUDA` matrix
- x - the local part of the input, `PetscJaggedScalarSingle` entries in GPU memory (host memory
      with `-mat_jagged_host`), as many as the local columns

  Output Parameter:
. y - the local part of the result, as many entries as the local rows, same memory

  Level: advanced

  Notes:
  Creates the single-precision copy on first use if `MatJaggedSetSinglePrecision()` was not called.
  Runs on PETSc's current CUDA stream and does not synchronize. On more than one process the
  off-process entries of x travel in single precision too, through the matrix's `PetscSF`, while
  the diagonal block multiplies.

.seealso: `MatJaggedSetSinglePrecision()`, `MatMult()`, `PetscJaggedScalarSingle`
@*/
PetscErrorCode MatJaggedMultSingle(Mat A, const PetscJaggedScalarSingle x[], PetscJaggedScalarSingle y[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCheck(A->assembled, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONGSTATE, "Not for an unassembled matrix");
  if (A->rmap->n) PetscAssertPointer(y, 3);
  if (A->cmap->n) PetscAssertPointer(x, 2);
  PetscUseMethod(A, "MatJaggedMultSingle_C", (Mat, const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[]), (A, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  MatJaggedSetMultSingle - Gives a matrix of any type a single-precision product, the one
  `MatJaggedMultSingle()` calls and the single-precision inner CG of `PCSPCG` (and so `KSPMPCG`) runs on

  Logically Collective

  Input Parameters:
+ A    - the matrix, typically a `MATSHELL` whose product is a stencil kernel
- mult - the product y = A x on local arrays of `PetscJaggedScalarSingle`, in the memory of the
         matrix's vectors (GPU memory for CUDA vectors), on PETSc's current CUDA stream; on several
         processes it makes its own halo exchange. `NULL` removes it.

  Level: advanced

  Note:
  The jagged types have their own; setting one on them replaces it. `PCSPCG` checks at set-up whether
  its operator has a single-precision product; without one it makes a private single-precision copy,
  which needs an assembled matrix. The product is a function composed with the matrix: remove it with
  `NULL` before destroying a matrix of another type (PETSc's `-checkfunctionlist` reports composed
  functions left on a destroyed object).

.seealso: `MatJaggedMultSingleFn`, `MatJaggedMultSingle()`, `PCSPCG`, `KSPMPCG`, `MatShellSetOperation()`
@*/
PetscErrorCode MatJaggedSetMultSingle(Mat A, MatJaggedMultSingleFn mult)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatJaggedMultSingle_C", mult));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatJaggedSetKernel - Chooses how a jagged-diagonal matrix treats rows much longer than the others

  Logically Collective

  Input Parameters:
+ A         - a `MATJDSCUDA` or `MATPJDSCUDA` matrix
. kernel    - `MAT_JAGGED_KERNEL_AUTO`, `MAT_JAGGED_KERNEL_JAGGED` or `MAT_JAGGED_KERNEL_SPLIT`
- threshold - with `MAT_JAGGED_KERNEL_SPLIT`, rows with more entries go to the warp-per-row part
              (`PETSC_DETERMINE` keeps the current value)

  Options Database Keys:
+ -mat_jagged_kernel <auto,jagged,split> - the kernel
- -mat_jagged_long_row_threshold <n>     - the threshold

  Level: intermediate

.seealso: `MatJaggedKernel`, `MATPJDSCUDA`, `MATJDSCUDA`
@*/
PetscErrorCode MatJaggedSetKernel(Mat A, MatJaggedKernel kernel, PetscInt threshold)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(A, kernel, 2);
  PetscValidLogicalCollectiveInt(A, threshold, 3);
  PetscUseMethod(A, "MatJaggedSetKernel_C", (Mat, MatJaggedKernel, PetscInt), (A, kernel, threshold));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatJaggedSetUseHost - Runs the host reference kernels of a jagged-diagonal matrix instead of
  the GPU ones

  Logically Collective

  Input Parameters:
+ A   - a `MATJDSCUDA` or `MATPJDSCUDA` matrix
- flg - `PETSC_TRUE` for the host kernels

  Options Database Key:
. -mat_jagged_host - use the host kernels

  Level: developer

  Note:
  The host kernels walk the same format as the GPU ones; they are what the tests check the GPU
  kernels against, and let the types run on a machine without a GPU (with host vectors).

.seealso: `MATPJDSCUDA`, `MATJDSCUDA`
@*/
PetscErrorCode MatJaggedSetUseHost(Mat A, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveBool(A, flg, 2);
  PetscUseMethod(A, "MatJaggedSetUseHost_C", (Mat, PetscBool), (A, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatJaggedGetStorage - Gets the number of nonzeros of a jagged-diagonal matrix and the number of
  entries its format stores, padding included (on this process)

  Not Collective

  Input Parameter:
. A - an assembled `MATJDSCUDA` or `MATPJDSCUDA` matrix

  Output Parameters:
+ nnz    - nonzeros (may be `NULL`)
- stored - stored entries, padding included (may be `NULL`)

  Level: intermediate

  Note:
  `MatView()` with `PETSC_VIEWER_ASCII_INFO` reports the same with the ELLPACK comparison.

.seealso: `MATPJDSCUDA`, `MATJDSCUDA`, `MatView()`
@*/
PetscErrorCode MatJaggedGetStorage(Mat A, PetscCount *nnz, PetscCount *stored)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCheck(A->assembled, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Not for an unassembled matrix");
  PetscUseMethod(A, "MatJaggedGetStorage_C", (Mat, PetscCount *, PetscCount *), (A, nnz, stored));
  PetscFunctionReturn(PETSC_SUCCESS);
}
