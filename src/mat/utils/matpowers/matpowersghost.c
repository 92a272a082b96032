/*
   The ghosted matrix-powers kernel. Each process extends its rows by the rows at graph distance
   1, ..., s - 1 and reads the entries at distance up to s (R_d: rows within distance d of its own):

     columns R_s, ordered own rows first, then by depth; rows R_{s-1}, the same order; Apad = A[R_{s-1}, R_s]
     padded with empty rows to a square ncols x ncols matrix (the rows at depth s are only read).

   One scatter fills an extended vector with the entries of V[0] on R_s; each local product then
   leaves the rows at depth d exact as long as d <= s - (products so far), so after k <= s products
   the own rows (depth 0) are exact: the paper's MPK (Fig. 4) with one extended matrix.
*/
#include "matpowersimpl.h"
#include <petscdevice_cuda.h>

/* The graph-distance layers of the own rows up to depth s; the scatter; the statistics */
PetscErrorCode MatPowersGhostLayers(MatPowers mpk)
{
  Mat          A = mpk->A;
  PetscInt     rstart, rend, ncur, *cur, *order, norder, s = mpk->s;
  PetscBool    has[3];
  PetscReal    loc[2], glob[2];
  Vec          x, rl, rlext;
  PetscScalar *r;

  PetscFunctionBegin;
  PetscCall(MatHasOperation(A, MATOP_INCREASE_OVERLAP, &has[0]));
  PetscCall(MatHasOperation(A, MATOP_CREATE_SUBMATRICES, &has[1]));
  PetscCall(MatHasOperation(A, MATOP_GET_ROW, &has[2]));
  if (!has[0] || !has[1] || !has[2]) {
    mpk->s2v = mpk->extra = -1;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  mpk->nown = ncur = rend - rstart;
  PetscCall(PetscMalloc1(ncur, &cur));
  for (PetscInt i = 0; i < ncur; i++) cur[i] = rstart + i;
  PetscCall(PetscMalloc1(ncur, &order));
  PetscCall(PetscArraycpy(order, cur, ncur));
  norder     = ncur;
  mpk->nrows = ncur;
  for (PetscInt d = 1, front = 0; d <= s; d++) { /* cur: R_{d-1}, sorted; order: R_{d-1} by depth, order[front..] at depth d-1 */
    IS              is;
    const PetscInt *idx;
    PetscInt        n, *next, *layer, *merged = NULL, nnew = 0, nmerged;

    /* R_d = R_{d-1} and the columns of the rows at depth d - 1 (those of shallower rows are in R_{d-1}) */
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, norder - front, order + front, PETSC_COPY_VALUES, &is));
    PetscCall(MatIncreaseOverlap(A, 1, &is, 1));
    PetscCall(ISGetLocalSize(is, &n));
    PetscCall(ISGetIndices(is, &idx));
    PetscCall(PetscMalloc2(n, &next, n, &layer));
    PetscCall(PetscArraycpy(next, idx, n));
    PetscCall(ISRestoreIndices(is, &idx));
    PetscCall(ISDestroy(&is));
    PetscCall(PetscSortRemoveDupsInt(&n, next));
    for (PetscInt i = 0, c = 0; i < n; i++) { /* layer d = next \ R_{d-1}, in increasing order */
      while (c < ncur && cur[c] < next[i]) c++;
      if (c < ncur && cur[c] == next[i]) continue;
      layer[nnew++] = next[i];
    }
    PetscCall(PetscRealloc(sizeof(PetscInt) * (norder + nnew), &order));
    PetscCall(PetscArraycpy(order + norder, layer, nnew));
    PetscCall(PetscMergeIntArray(ncur, cur, nnew, layer, &nmerged, &merged));
    PetscCall(PetscFree2(next, layer));
    PetscCall(PetscFree(cur));
    cur   = merged;
    ncur  = nmerged;
    front = norder;
    norder += nnew;
    if (d == s - 1) mpk->nrows = norder;
  }
  PetscCall(PetscFree(cur));
  mpk->ncols = norder;
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, norder, order, PETSC_OWN_POINTER, &mpk->isext));

  /* the scatter, and the nonzeros of the own and of the extended rows through it */
  PetscCall(MatCreateVecs(A, &x, NULL));
  PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)A), mpk->nown, PETSC_DETERMINE, &rl));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, mpk->ncols, &rlext));
  PetscCall(VecScatterCreate(x, mpk->isext, rlext, NULL, &mpk->scatter));
  PetscCall(VecDestroy(&x));
  PetscCall(VecGetArrayWrite(rl, &r));
  for (PetscInt i = rstart; i < rend; i++) {
    PetscInt nc;

    PetscCall(MatGetRow(A, i, &nc, NULL, NULL));
    r[i - rstart] = (PetscReal)nc;
    PetscCall(MatRestoreRow(A, i, &nc, NULL, NULL));
  }
  PetscCall(VecRestoreArrayWrite(rl, &r));
  PetscCall(VecScatterBegin(mpk->scatter, rl, rlext, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(mpk->scatter, rl, rlext, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArray(rlext, &r));
  mpk->nnzown = mpk->nnzext = 0;
  for (PetscInt i = 0; i < mpk->nrows; i++) {
    if (i < mpk->nown) mpk->nnzown += (PetscInt)PetscRealPart(r[i]);
    mpk->nnzext += (PetscInt)PetscRealPart(r[i]);
  }
  PetscCall(VecRestoreArray(rlext, &r));
  PetscCall(VecDestroy(&rl));
  PetscCall(VecDestroy(&rlext));
  loc[0] = mpk->nown ? (PetscReal)(mpk->ncols - mpk->nown) / mpk->nown : 0;
  loc[1] = mpk->nnzown ? (PetscReal)mpk->nnzext / mpk->nnzown - 1 : 0;
  PetscCallMPI(MPIU_Allreduce(loc, glob, 2, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)mpk)));
  mpk->s2v   = glob[0];
  mpk->extra = glob[1];
  PetscCall(PetscInfo(mpk, "Own rows %" PetscInt_FMT ", extended rows %" PetscInt_FMT " (depth <= %" PetscInt_FMT "), columns %" PetscInt_FMT " (depth <= %" PetscInt_FMT "), nonzeros %" PetscInt_FMT " (own %" PetscInt_FMT ")\n", mpk->nown, mpk->nrows, s - 1, mpk->ncols, s, mpk->nnzext, mpk->nnzown));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The extended matrix and vectors (after MatPowersGhostLayers()) */
PetscErrorCode MatPowersGhostBuild(MatPowers mpk)
{
  const PetscInt *idx;
  PetscInt       *nnz;

  PetscFunctionBegin;
  PetscCall(ISGetIndices(mpk->isext, &idx));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, mpk->nrows, idx, PETSC_COPY_VALUES, &mpk->isrow));
  PetscCall(ISRestoreIndices(mpk->isext, &idx));
  PetscCall(MatCreateSubMatrices(mpk->A, 1, &mpk->isrow, &mpk->isext, MAT_INITIAL_MATRIX, &mpk->sub));
  PetscCall(PetscCalloc1(mpk->ncols, &nnz));
  for (PetscInt i = 0; i < mpk->nrows; i++) {
    PetscInt nc;

    PetscCall(MatGetRow(mpk->sub[0], i, &nc, NULL, NULL));
    nnz[i] = nc;
    PetscCall(MatRestoreRow(mpk->sub[0], i, &nc, NULL, NULL));
  }
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, mpk->ncols, mpk->ncols, 0, nnz, &mpk->Apad));
  PetscCall(PetscFree(nnz));
  if (mpk->pckind == MAT_POWERS_PC_JACOBI) {
    PetscCall(MatCreateVecs(mpk->A, &mpk->dinv, NULL));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, mpk->ncols, &mpk->dinvext));
  }
  PetscCall(MatPowersGhostRefresh(mpk));
  for (PetscInt i = 0; i < 3; i++) {
    PetscCall(MatCreateVecs(mpk->Aext, &mpk->Z[i], NULL));
    PetscCall(VecSet(mpk->Z[i], 0.0)); /* allocated where the products run */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The inverse diagonal PCApply() multiplies with (PCJACOBI: y = diag .* x), on the extended columns */
static PetscErrorCode MatPowersJacobiExtend(MatPowers mpk)
{
  Vec                ones, dhost;
  const PetscScalar *d;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(mpk->dinv, &ones));
  PetscCall(VecSet(ones, 1.0));
  PetscCall(PCApply(mpk->pc, ones, mpk->dinv));
  PetscCall(VecDestroy(&ones));
  /* through a host vector: the scaling is applied on the host CSR */
  PetscCall(VecGetArrayRead(mpk->dinv, &d));
  PetscCall(VecCreateMPIWithArray(PetscObjectComm((PetscObject)mpk), 1, mpk->nown, PETSC_DETERMINE, d, &dhost));
  PetscCall(VecScatterBegin(mpk->scatter, dhost, mpk->dinvext, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(mpk->scatter, dhost, mpk->dinvext, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecDestroy(&dhost));
  PetscCall(VecRestoreArrayRead(mpk->dinv, &d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The values of A (and the Jacobi scaling) into the extended matrix, same pattern */
PetscErrorCode MatPowersGhostRefresh(MatPowers mpk)
{
  Mat                Ad;
  MatType            target;
  const PetscScalar *dext = NULL;
  PetscScalar       *buf;
  PetscBool          same;
  PetscInt           maxlen = 0;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MAT_POWERS_SetUp, mpk, 0, 0, 0));
  if (mpk->Aext) PetscCall(MatCreateSubMatrices(mpk->A, 1, &mpk->isrow, &mpk->isext, MAT_REUSE_MATRIX, &mpk->sub));
  if (mpk->pckind == MAT_POWERS_PC_JACOBI) {
    PetscCall(MatPowersJacobiExtend(mpk));
    PetscCall(VecGetArrayRead(mpk->dinvext, &dext));
  }
  for (PetscInt i = 0; i < mpk->nrows; i++) {
    PetscInt nc;

    PetscCall(MatGetRow(mpk->sub[0], i, &nc, NULL, NULL));
    maxlen = PetscMax(maxlen, nc);
    PetscCall(MatRestoreRow(mpk->sub[0], i, &nc, NULL, NULL));
  }
  PetscCall(PetscMalloc1(maxlen, &buf));
  for (PetscInt i = 0; i < mpk->nrows; i++) {
    PetscInt           nc;
    const PetscInt    *cols;
    const PetscScalar *vals;

    PetscCall(MatGetRow(mpk->sub[0], i, &nc, &cols, &vals));
    for (PetscInt c = 0; c < nc; c++) buf[c] = dext ? vals[c] * dext[cols[c]] : vals[c];
    PetscCall(MatSetValues(mpk->Apad, 1, &i, nc, cols, buf, INSERT_VALUES));
    PetscCall(MatRestoreRow(mpk->sub[0], i, &nc, &cols, &vals));
  }
  PetscCall(PetscFree(buf));
  if (dext) PetscCall(VecRestoreArrayRead(mpk->dinvext, &dext));
  PetscCall(MatAssemblyBegin(mpk->Apad, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(mpk->Apad, MAT_FINAL_ASSEMBLY));

  /* in the type of A's diagonal block: a GPU matrix gives a GPU extended matrix */
  PetscCall(MatGetDiagonalBlock(mpk->A, &Ad));
  PetscCall(MatGetType(Ad, &target));
  PetscCall(MatDestroy(&mpk->Aext));
  PetscCall(PetscObjectTypeCompare((PetscObject)mpk->Apad, target, &same));
  if (same) {
    PetscCall(PetscObjectReference((PetscObject)mpk->Apad));
    mpk->Aext = mpk->Apad;
  } else {
    PetscErrorCode (*sethost)(Mat, PetscBool) = NULL;

    PetscCall(MatConvert(mpk->Apad, target, MAT_INITIAL_MATRIX, &mpk->Aext));
    PetscCall(PetscObjectQueryFunction((PetscObject)mpk->Aext, "MatJaggedSetUseHost_C", &sethost));
    if (sethost) { /* a jagged type: host kernels when A's block runs them (its vectors are host vectors) */
      VecType   vtype;
      PetscBool cuda;

      PetscCall(MatGetVecType(Ad, &vtype));
      PetscCall(PetscStrbeginswith(vtype, VECCUDA, &cuda));
      if (!cuda) PetscCall(PetscStrcmpAny(vtype, &cuda, VECSEQCUDA, VECMPICUDA, ""));
      PetscCall(MatJaggedSetUseHost(mpk->Aext, (PetscBool)!cuda));
    }
  }
  PetscCall(PetscLogEventEnd(MAT_POWERS_SetUp, mpk, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatPowersGhostReset(MatPowers mpk)
{
  PetscFunctionBegin;
  PetscCall(ISDestroy(&mpk->isext));
  PetscCall(ISDestroy(&mpk->isrow));
  PetscCall(VecScatterDestroy(&mpk->scatter));
  if (mpk->sub) PetscCall(MatDestroySubMatrices(1, &mpk->sub));
  PetscCall(MatDestroy(&mpk->Apad));
  PetscCall(MatDestroy(&mpk->Aext));
  for (PetscInt i = 0; i < 3; i++) PetscCall(VecDestroy(&mpk->Z[i]));
  PetscCall(VecDestroy(&mpk->dinv));
  PetscCall(VecDestroy(&mpk->dinvext));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The own rows (the first nown entries) of an extended vector into V, on the device when both are there */
static PetscErrorCode MatPowersCopyOwn(PetscInt nown, Vec Z, Vec V)
{
  const PetscScalar *z;
  PetscScalar       *v;
  PetscMemType       zm, vm;

  PetscFunctionBegin;
  PetscCall(VecGetArrayReadAndMemType(Z, &z, &zm));
  PetscCall(VecGetArrayWriteAndMemType(V, &v, &vm));
  if (PetscMemTypeDevice(zm) && PetscMemTypeDevice(vm)) {
    cudaStream_t stream; /* PetscDeviceArrayCopy() would want the arrays registered with PETSc's memory tracker */

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    if (nown) PetscCallCUDA(cudaMemcpyAsync(v, z, sizeof(PetscScalar) * nown, cudaMemcpyDeviceToDevice, stream));
  } else if (PetscMemTypeHost(zm) && PetscMemTypeHost(vm)) {
    PetscCall(PetscArraycpy(v, z, nown));
  } else { /* mixed: through host arrays */
    PetscCall(VecRestoreArrayWriteAndMemType(V, &v));
    PetscCall(VecRestoreArrayReadAndMemType(Z, &z));
    PetscCall(VecGetArrayRead(Z, &z));
    PetscCall(VecGetArrayWrite(V, &v));
    PetscCall(PetscArraycpy(v, z, nown));
    PetscCall(VecRestoreArrayWrite(V, &v));
    PetscCall(VecRestoreArrayRead(Z, &z));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecRestoreArrayWriteAndMemType(V, &v));
  PetscCall(VecRestoreArrayReadAndMemType(Z, &z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One scatter of V[0] to the extended columns, then k local products */
PetscErrorCode MatPowersApply_Ghosted(MatPowers mpk, PetscInt k, const PetscScalar re[], const PetscReal im[], Vec V[])
{
  PetscFunctionBegin;
  PetscCall(VecScatterBegin(mpk->scatter, V[0], mpk->Z[0], INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(mpk->scatter, V[0], mpk->Z[0], INSERT_VALUES, SCATTER_FORWARD));
  for (PetscInt j = 0; j < k; j++) {
    Vec Zc = mpk->Z[j % 3], Zn = mpk->Z[(j + 1) % 3], Zp = mpk->Z[(j + 2) % 3];

    PetscCall(MatMult(mpk->Aext, Zc, Zn));
    PetscCall(MatPowersShift(j, re, im, Zn, Zc, j ? Zp : NULL));
    PetscCall(MatPowersCopyOwn(mpk->nown, Zn, V[j + 1]));
  }
  mpk->nexchanges += 1;
  mpk->nproducts += k;
  PetscFunctionReturn(PETSC_SUCCESS);
}
