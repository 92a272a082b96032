/*
   COO assembly of the jagged types (sequential and MPI): MatSetPreallocationCOO() and MatSetValuesCOO() of the MATSEQAIJ or
   MATMPIAIJ the type is built on, with values in CUDA memory taken too, and the jagged copies told that the host values
   changed (they are refreshed at their next use). Values in GPU memory (a CUDA array handed over, from CuPy say) go into the
   jagged copies on the GPU (MatJaggedCOOOps.setvalues: summed there through MATSEQAIJ's or MATMPIAIJ's own COO map, the host
   CSR, the master copy, updated after; seqjagged.cu, mpijaggedcoo.cu); where the type does not take them (bound to the CPU, the
   host kernels), they are copied to the host first: one copy of the COO values, logged (-log_view's GpuToCpu) and said by -info.
*/
#include <petscjagged/private/jaggedcoo.h>
#include <petscdevice_cuda.h>

typedef struct {
  PetscErrorCode (*aijpreallocationcoo)(Mat, PetscCount, PetscInt[], PetscInt[]); /* the AIJ type's MatSetPreallocationCOO() */
  PetscErrorCode (*aijsetvaluescoo)(Mat, const PetscScalar[], InsertMode);         /* ... and MatSetValuesCOO() */
  MatJaggedCOOOps ops;                                                             /* the jagged type's part */
  PetscCount ncoo;                                                                 /* the entries given to MatSetPreallocationCOO() */
} MatJaggedCOO;

static PetscErrorCode MatJaggedCOOGet(Mat A, MatJaggedCOO **coo)
{
  PetscContainer c;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)A, "MatJaggedCOO", (PetscObject *)&c));
  PetscCheck(c, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A jagged matrix without its COO functions");
  PetscCall(PetscContainerGetPointer(c, (void **)coo));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetPreallocationCOO_Jagged(Mat A, PetscCount ncoo, PetscInt coo_i[], PetscInt coo_j[])
{
  MatJaggedCOO *coo;

  PetscFunctionBegin;
  PetscCall(MatJaggedCOOGet(A, &coo));
  PetscCall(coo->aijpreallocationcoo(A, ncoo, coo_i, coo_j));
  coo->ncoo = ncoo;
  if (coo->ops.preallocated) PetscCall(coo->ops.preallocated(A));
  PetscCall(coo->ops.changed(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetValuesCOO_Jagged(Mat A, const PetscScalar v[], InsertMode imode)
{
  MatJaggedCOO *coo;
  PetscMemType  mtype;
  PetscScalar  *hv;
  PetscBool     done = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(MatJaggedCOOGet(A, &coo));
  PetscCall(PetscGetMemType(v, &mtype));
  if (coo->ops.setvalues) PetscCall(coo->ops.setvalues(A, v, mtype, imode, &done)); /* collective on an MPI type: called on every process */
  if (done) PetscFunctionReturn(PETSC_SUCCESS);
  if (PetscMemTypeHost(mtype) || coo->ncoo == 0) PetscCall(coo->aijsetvaluescoo(A, v, imode));
  else {
    PetscCheck(PetscMemTypeCUDA(mtype), PETSC_COMM_SELF, PETSC_ERR_SUP, "COO values in %s memory: the jagged types take host or CUDA memory", PetscMemTypeToString(mtype));
    PetscCall(PetscInfo(A, "COO values in GPU memory copied to the host CSR, the master copy: %" PetscCount_FMT " values\n", coo->ncoo));
    PetscCall(PetscMalloc1(coo->ncoo, &hv));
    PetscCallCUDA(cudaMemcpy(hv, v, sizeof(PetscScalar) * coo->ncoo, cudaMemcpyDeviceToHost));
    PetscCall(PetscLogGpuToCpu(sizeof(PetscScalar) * coo->ncoo));
    PetscCall(coo->aijsetvaluescoo(A, hv, imode));
    PetscCall(PetscFree(hv));
  }
  PetscCall(coo->ops.changed(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatJaggedComposeCOO - A (just converted from its AIJ type) takes COO assembly as described above, with the type's part ops.
  Does nothing where the AIJ type has no COO functions.
*/
PetscErrorCode MatJaggedComposeCOO(Mat A, const MatJaggedCOOOps *ops)
{
  MatJaggedCOO *coo;

  PetscFunctionBegin;
  PetscCall(PetscNew(&coo));
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatSetPreallocationCOO_C", &coo->aijpreallocationcoo));
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatSetValuesCOO_C", &coo->aijsetvaluescoo));
  coo->ops = *ops;
  if (!coo->aijpreallocationcoo || !coo->aijsetvaluescoo) {
    PetscCall(PetscFree(coo));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscObjectContainerCompose((PetscObject)A, "MatJaggedCOO", coo, PetscCtxDestroyDefault));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSetPreallocationCOO_C", MatSetPreallocationCOO_Jagged));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSetValuesCOO_C", MatSetValuesCOO_Jagged));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatJaggedRemoveCOO - the AIJ type's COO functions again, for A converted back to it */
PetscErrorCode MatJaggedRemoveCOO(Mat A)
{
  PetscContainer c;
  MatJaggedCOO  *coo;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)A, "MatJaggedCOO", (PetscObject *)&c));
  if (!c) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscContainerGetPointer(c, (void **)&coo));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSetPreallocationCOO_C", coo->aijpreallocationcoo));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatSetValuesCOO_C", coo->aijsetvaluescoo));
  PetscCall(PetscObjectCompose((PetscObject)A, "MatJaggedCOO", NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}
