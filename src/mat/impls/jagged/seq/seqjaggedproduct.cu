/*
   Sparse products of sequential jagged matrices on the GPU: A B, A^T B, P^T A P and R A R^T of jagged operands (the
   products PCGAMG's set-up makes: the smoothed prolongator, the Galerkin coarse operators) run MATSEQAIJCUSPARSE's
   cuSPARSE products instead of MATSEQAIJ's host code. Each operand lends its host CSR, the master copy of a jagged
   matrix, to a MATSEQAIJCUSPARSE twin made at its first such product (no host copy: the twin reads the same arrays; on the
   GPU it takes the pattern from them and the values from the operand's current jagged copy, else both from the host);
   the product is the twins' product, and the result, of the type of A, takes its pattern at the symbolic phase and its
   values at each numeric phase, its jagged copy made at its first use on the GPU. Other products and operands (host
   reference kernels, a matrix bound to the CPU, a MATSEQAIJ or dense operand, A B C) keep MATSEQAIJ's code.
*/
#include <petscjagged/private/seqjagged.h>
#include <petscjagged/private/jaggedtwin.h>
#include <petscjagged/private/jaggedupload.h>
#include <petscdevice_cuda.h>

/* The product of the twins, the product data of a jagged product made through them */
typedef struct {
  Mat      D;  /* MATSEQAIJCUSPARSE */
  PetscInt nz; /* its nonzeros, and the result's */
} MatProductCtx_SeqJagged;

static PetscErrorCode MatProductCtxDestroy_SeqJagged(PetscCtxRt data)
{
  MatProductCtx_SeqJagged *ctx = *(MatProductCtx_SeqJagged **)data;

  PetscFunctionBegin;
  PetscCall(MatDestroy(&ctx->D));
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether A is a jagged matrix whose products may run on the GPU: its GPU kernels in use, not bound to the CPU */
static PetscErrorCode MatSeqJaggedOnDevice(Mat A, PetscBool *ondevice)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, ondevice, MATSEQJDSCUDA, MATSEQPJDSCUDA, ""));
  if (*ondevice) *ondevice = (PetscBool)(!((Mat_SeqJagged *)A->spptr)->host && !A->boundtocpu);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The twin's device copy made now (the pattern and values, or the values only). Values: where A's jagged copy on the GPU
  is current, scattered from it into CSR order on the device (then only the pattern crosses from the host); else from
  A's host CSR. What crosses is pinned in place for the copy (MATSEQAIJCUSPARSE copies from pageable memory, about 5 GB/s
  on an H200's host), where MatJaggedPin() can.
*/
static PetscErrorCode MatSeqJaggedTwinUpload(Mat A, Mat twin, PetscBool pattern)
{
  MatSeqAIJHead *t  = (MatSeqAIJHead *)twin->data;
  PetscScalar   *aa = t->a;
  const PetscInt nz = t->i[twin->rmap->n];
  PetscBool      ondevice, pinned[2];

  PetscFunctionBegin;
  PetscCall(MatSeqJaggedDeviceCurrent(A, &ondevice));
  if (!pattern && !ondevice) { /* the twin's values are stale: marked so through its host accessor, then uploaded */
    PetscScalar *v;

    PetscCall(MatSeqAIJGetArrayWrite(twin, &v));
    PetscCall(MatSeqAIJRestoreArrayWrite(twin, &v));
  }
  PetscCall(MatJaggedPin(ondevice ? NULL : aa, sizeof(PetscScalar) * nz, &pinned[0]));
  PetscCall(MatJaggedPin(pattern ? t->j : NULL, sizeof(PetscInt) * nz, &pinned[1]));
  if (pattern || !ondevice) {
    const PetscScalar *dr;

    if (ondevice) t->a = NULL; /* MATSEQAIJCUSPARSE uploads the pattern alone where its matrix has no host values */
    PetscCall(MatSeqAIJCUSPARSEGetArrayRead(twin, &dr)); /* the upload */
    PetscCall(MatSeqAIJCUSPARSERestoreArrayRead(twin, &dr));
    t->a = aa;
  }
  if (pinned[0] || pinned[1]) PetscCallCUDA(cudaDeviceSynchronize()); /* the copies out of the pinned arrays done: they ran on a stream of MATSEQAIJCUSPARSE's choosing */
  PetscCall(MatJaggedUnpin(aa, pinned[0]));
  PetscCall(MatJaggedUnpin(t->j, pinned[1]));
  if (ondevice) {
    cudaStream_t stream;
    PetscScalar *dv;

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCall(MatSeqAIJCUSPARSEGetArrayWrite(twin, &dv));
    PetscCall(MatSeqJaggedScatterToCSR(A, dv, stream));
    PetscCall(MatSeqAIJCUSPARSERestoreArrayWrite(twin, &dv));
    twin->offloadmask = PETSC_OFFLOAD_BOTH; /* its host values are A's, which the scattered ones equal */
  }
  PetscCall(PetscInfo(twin, "Twin's %s: values %s; pinned for the copy: %s\n", pattern ? "pattern and values" : "values", ondevice ? "scattered from the jagged copy on the GPU" : "from the host", pinned[0] && pinned[1] ? "values and columns" : pinned[0] ? "values" : pinned[1] ? "columns" : "nothing"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  A MATSEQAIJ on A's host CSR arrays with no inodes. MatCreateSeqAIJWithArrays() assembles the matrix it makes, and the
  assembly searches the pattern for inodes (a pass over every column index) before an option could be set on the
  matrix; a twin never uses inodes
  (MATSEQAIJCUSPARSE turns them off as it converts it). So it is made under an options database of its own that holds
  -mat_no_inode, pushed over the application's for the call (PetscOptionsPush()).
*/
static PetscErrorCode MatSeqJaggedCreateTwin(Mat A, const PetscInt ai[], const PetscInt aj[], PetscScalar aa[], Mat *twin)
{
  PetscOptions   options;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscOptionsCreate(&options));
  PetscCall(PetscOptionsSetValue(options, "-mat_no_inode", NULL));
  PetscCall(PetscOptionsPush(options));
  ierr = MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, A->rmap->n, A->cmap->n, const_cast<PetscInt *>(ai), const_cast<PetscInt *>(aj), aa, twin);
  PetscCall(PetscOptionsPop()); /* the application's options back before an error goes up */
  PetscCall(PetscOptionsDestroy(&options));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The MATSEQAIJCUSPARSE twin of A on its host CSR arrays, its device copy up to date: made at the first call, made again
  when A's pattern or arrays changed, its values uploaded again when A's state changed
*/
static PetscErrorCode MatSeqJaggedGetTwin(Mat A, Mat *twin)
{
  Mat_SeqJagged   *j = (Mat_SeqJagged *)A->spptr;
  const PetscInt  *ai, *aj;
  PetscScalar     *aa;
  PetscMemType     mtype;
  PetscObjectState state;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJGetCSRAndMemType(A, &ai, &aj, &aa, &mtype)); /* A's host CSR (MATSEQAIJ's accessor; a MATSEQAIJCUSPARSE's gives device arrays) */
  PetscCheck(mtype == PETSC_MEMTYPE_HOST, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Expected the host CSR of the matrix");
  if (j->twin) {
    const MatSeqAIJHead *t = (const MatSeqAIJHead *)j->twin->data; /* the twin's host arrays, which are A's */

    if (j->twin_nzstate != A->nonzerostate || t->i != ai || t->j != aj || t->a != aa || j->twin->rmap->bs != A->rmap->bs || j->twin->cmap->bs != A->cmap->bs) PetscCall(MatDestroy(&j->twin));
  }
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  if (!j->twin) {
    PetscCall(MatSeqJaggedCreateTwin(A, ai, aj, aa, &j->twin));
    PetscCheck(((const MatSeqAIJHead *)j->twin->data)->a == aa, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Mat_SeqAIJ of this PETSc differs from seqaijhead.h");
    PetscCall(MatSetBlockSizesFromMats(j->twin, A, A)); /* the single-precision copies made from its device CSR take blocks by them */
    PetscCall(MatConvert(j->twin, MATSEQAIJCUSPARSE, MAT_INPLACE_MATRIX, &j->twin));
    PetscCall(MatSeqJaggedTwinUpload(A, j->twin, PETSC_TRUE));
    j->twin_nzstate = A->nonzerostate;
  } else if (state != j->twin_state) PetscCall(MatSeqJaggedTwinUpload(A, j->twin, PETSC_FALSE)); /* A's values changed */
  j->twin_state = state;
  *twin = j->twin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatSeqJaggedGetDeviceTwin - *twin: the MATSEQAIJCUSPARSE twin of A on A's host CSR (made or refreshed as for a product;
  owned by A, made again only where A's pattern, arrays or block sizes changed, destroyed with A) where A is a sequential jagged matrix whose kernels run on the GPU, so that its
  device CSR (uploaded at the twin's first device use, kept while A's values do not change) serves code that reads one;
  NULL for any other matrix
*/
PetscErrorCode MatSeqJaggedGetDeviceTwin(Mat A, Mat *twin)
{
  PetscBool ondevice;

  PetscFunctionBegin;
  *twin = NULL;
  PetscCall(MatSeqJaggedOnDevice(A, &ondevice));
  if (ondevice) PetscCall(MatSeqJaggedGetTwin(A, twin));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  C's values: the twins' product computed again, its values copied from the GPU straight into C's host CSR (not through
  the product's own host array, which would be touched for the first time and copied again), and C assembled (its jagged
  copy refreshed at its next use)
*/
static PetscErrorCode MatProductNumeric_SeqJagged(Mat C)
{
  Mat_Product             *product = C->product;
  MatProductCtx_SeqJagged *ctx;
  Mat                      At, Bt;
  const PetscScalar       *dv;
  PetscScalar             *cv;
  cudaStream_t             stream;

  PetscFunctionBegin;
  MatCheckProduct(C, 1);
  ctx = (MatProductCtx_SeqJagged *)product->data;
  PetscCall(MatSeqJaggedGetTwin(product->A, &At));
  PetscCall(MatSeqJaggedGetTwin(product->B, &Bt));
  PetscCall(MatProductReplaceMats(At, Bt, NULL, ctx->D));
  PetscCall(MatProductNumeric(ctx->D));
  PetscCall(MatSeqAIJCUSPARSEGetArrayRead(ctx->D, &dv));
  PetscCall(MatSeqAIJGetArrayWrite(C, &cv));
  PetscCall(PetscGetCurrentCUDAStream(&stream)); /* the stream D's product ran on, whatever its kind */
  PetscCallCUDA(cudaMemcpyAsync(cv, dv, sizeof(PetscScalar) * ctx->nz, cudaMemcpyDeviceToHost, stream));
  PetscCallCUDA(cudaStreamSynchronize(stream));
  PetscCall(PetscLogGpuToCpu(sizeof(PetscScalar) * ctx->nz));
  PetscCall(MatSeqAIJRestoreArrayWrite(C, &cv));
  PetscCall(MatSeqAIJCUSPARSERestoreArrayRead(ctx->D, &dv));
  PetscCall(MatAssemblyBegin(C, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(C, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* C's pattern: the twins' product's symbolic phase on the GPU; C of the type of A with that pattern, its jagged copy deferred to its first use */
static PetscErrorCode MatProductSymbolic_SeqJagged(Mat C)
{
  Mat_Product             *product = C->product;
  Mat                      A = product->A, B = product->B, At, Bt, D;
  MatProductCtx_SeqJagged *ctx;
  const PetscInt          *di, *dj;
  PetscInt                 m, n, *rowlen;
  MatSeqAIJHead           *c;

  PetscFunctionBegin;
  MatCheckProduct(C, 1);
  PetscCall(MatSeqJaggedGetTwin(A, &At));
  PetscCall(MatSeqJaggedGetTwin(B, &Bt));
  PetscCall(MatProductCreate(At, Bt, NULL, &D));
  PetscCall(MatProductSetType(D, product->type));
  PetscCall(MatProductSetAlgorithm(D, MATPRODUCTALGORITHMDEFAULT));
  PetscCall(MatProductSetFill(D, product->fill));
  PetscCall(MatProductSetFromOptions(D));
  PetscCall(MatProductSymbolic(D));
  PetscCall(MatGetLocalSize(D, &m, &n));
  di = ((const MatSeqAIJHead *)D->data)->i; /* the host row offsets and columns MATSEQAIJCUSPARSE's symbolic phase copied back */
  dj = ((const MatSeqAIJHead *)D->data)->j;
  PetscCheck(di && (dj || !di[m]) && ((const MatSeqAIJHead *)D->data)->nz == di[m], PETSC_COMM_SELF, PETSC_ERR_PLIB, "The product's host pattern is not there: Mat_SeqAIJ of this PETSc differs from seqaijhead.h"); /* an empty product has no columns */

  PetscCall(MatSetSizes(C, m, n, m, n));
  switch (product->type) { /* the block sizes MatProductSymbolic() gives the result after this phase, now: the jagged format built below takes blocks by them */
  case MATPRODUCT_PtAP:
    if (B->cmap->bs > 1) PetscCall(MatSetBlockSizes(C, B->cmap->bs, B->cmap->bs));
    break;
  case MATPRODUCT_RARt:
    if (B->rmap->bs > 1) PetscCall(MatSetBlockSizes(C, B->rmap->bs, B->rmap->bs));
    break;
  case MATPRODUCT_AtB:
    if (A->cmap->bs > 1 || B->cmap->bs > 1) PetscCall(MatSetBlockSizes(C, A->cmap->bs, B->cmap->bs));
    break;
  default:
    PetscCall(MatSetBlockSizesFromMats(C, A, B));
  }
  PetscCall(MatSetType(C, ((PetscObject)A)->type_name));
  PetscCall(MatSeqJaggedSetOptions(C, (Mat_SeqJagged *)A->spptr));
  ((Mat_SeqJagged *)C->spptr)->deferred = PETSC_TRUE; /* its jagged copy at its first use on the GPU: not for a result only the host reads, not for each numeric phase's values */
  PetscCall(PetscMalloc1(m, &rowlen));
  for (PetscInt r = 0; r < m; r++) rowlen[r] = di[r + 1] - di[r];
  PetscCall(MatSeqAIJSetPreallocation(C, 0, rowlen));
  PetscCall(PetscFree(rowlen));
  c = (MatSeqAIJHead *)C->data;
  PetscCheck(c->i[m] == di[m], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Mat_SeqAIJ of this PETSc differs from seqaijhead.h");
  PetscCall(PetscArraycpy(c->j, dj, di[m]));
  PetscCall(PetscArrayzero(c->a, di[m]));
  for (PetscInt r = 0; r < m; r++) c->ilen[r] = di[r + 1] - di[r];
  PetscCall(MatSetOption(C, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  PetscCall(MatAssemblyBegin(C, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(C, MAT_FINAL_ASSEMBLY));

  PetscCall(PetscNew(&ctx));
  ctx->D                 = D;
  ctx->nz                = di[m];
  product->data          = ctx;
  product->destroy       = MatProductCtxDestroy_SeqJagged;
  C->ops->productnumeric = MatProductNumeric_SeqJagged;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatProductSetFromOptions_SeqJagged - the products of two jagged operands whose kernels run on the GPU, A B, A^T B,
  P^T A P and R A R^T, through their MATSEQAIJCUSPARSE twins; any other product with a jagged operand as MATSEQAIJ makes
  it (nothing for an operand of another base type). The jagged types' productsetfromoptions operation, and their
  MatProductSetFromOptions_anytype_C for products with an operand of another type.
*/
PetscErrorCode MatProductSetFromOptions_SeqJagged(Mat C)
{
  Mat_Product *product = C->product;
  Mat          A = product->A, B = product->B;
  PetscBool    adev, bdev, aaij, baij;

  PetscFunctionBegin;
  MatCheckProduct(C, 1);
  PetscCall(MatSeqJaggedOnDevice(A, &adev));
  PetscCall(MatSeqJaggedOnDevice(B, &bdev));
  switch (product->type) {
  case MATPRODUCT_AB:
  case MATPRODUCT_AtB:
  case MATPRODUCT_PtAP:
  case MATPRODUCT_RARt:
    if (adev && bdev) {
      C->ops->productsymbolic = MatProductSymbolic_SeqJagged;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    break;
  default:
    break;
  }
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQAIJ, &aaij));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)B, MATSEQAIJ, &baij));
  if (aaij && baij && product->C) PetscCall(PetscObjectBaseTypeCompare((PetscObject)product->C, MATSEQAIJ, &baij));
  if (aaij && baij) { /* MATSEQAIJ's own, which a jagged operand keeps among its operations */
    Mat jag = A->ops->productsetfromoptions == MatProductSetFromOptions_SeqJagged ? A : B;

    PetscCall(((Mat_SeqJagged *)jag->spptr)->aijops.productsetfromoptions(C));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
