/*
   MATMPIJDSCUDA and MATMPIPJDSCUDA: MATMPIAIJ matrices whose diagonal and off-diagonal blocks are
   the sequential jagged-diagonal types. The blocks take that type as soon as MATMPIAIJ creates them
   (at preallocation). MatMult(), MatMultAdd() and MatJaggedMultSingle() run the paper's "task mode":
   the values of x that other processes need are gathered on the GPU and cross, on a stream of their
   own, from GPU to GPU through NCCL (or through pinned host memory and MPI) while the diagonal block's
   product runs; then the off-diagonal block's product is added (JaggedHalo). The transpose products run the reverse
   exchange: the off-diagonal block's transpose product is sent back to the owners during the diagonal
   block's and added there.
*/
#include "mpijagged.h"
#include <petscjagged/private/jaggedcoo.h>
#include <petscjagged/private/jaggedhalo.h>
#include <petscjagged/private/jaggednccl.h>
#include <petscsf.h>
#include <petscdevice_cuda.h>

typedef struct {
  MatType                  seqtype;
  PetscBool                pjds;
  PetscInt                 block_rows; /* the options, handed to the blocks when they become jagged */
  MatJaggedKernel          kernel;
  PetscInt                 threshold;
  MatJaggedBlocks          blocks;
  PetscBool                single, host;
  PetscJaggedScalarSingle *ghosts_single; /* the off-process entries of x for MatJaggedMultSingle() */
  PetscInt                 nghosts;
  PetscBool                ghosts_host;
  Vec                      ghosts;        /* ... for MatMult() */
  JaggedHalo               halo[2];       /* the exchanges of x in double [0] and single [1] precision */
  PetscObjectState         halostate;     /* the nonzero state they were made for */
  PetscBool                halohost;      /* ... and where the blocks multiply */
  PetscJaggedExchange      exchange;      /* the path asked for the exchanges */
  struct _MatOps aijops; /* MATMPIAIJ's operations */
  PetscErrorCode (*aijpreallocation)(Mat, PetscInt, const PetscInt[], PetscInt, const PetscInt[]);
} Mat_MPIJagged;

/* The options of the matrix to one of its jagged blocks */
static PetscErrorCode MatMPIJaggedSetBlockOptions(Mat A, Mat b)
{
  Mat_MPIJagged *j = (Mat_MPIJagged *)A->spptr;

  PetscFunctionBegin;
  PetscCall(MatJaggedSetUseHost(b, j->host));
  if (j->pjds) PetscCall(MatPJDSSetBlockRows(b, j->block_rows));
  PetscCall(MatJaggedSetKernel(b, j->kernel, j->threshold));
  PetscCall(MatJaggedSetBlocks(b, j->blocks));
  PetscCall(MatJaggedSetSinglePrecision(b, j->single));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The diagonal and off-diagonal blocks to the sequential jagged type (they may be unassembled), with the matrix's options; also
  the blocks already of the type with fresh (MATMPIAIJ's COO preallocation converts the new blocks to the root type itself)
*/
static PetscErrorCode MatMPIJaggedConvertBlocks(Mat A, PetscBool fresh)
{
  Mat_MPIJagged *j = (Mat_MPIJagged *)A->spptr;
  Mat            blocks[2];

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &blocks[0], &blocks[1], NULL));
  for (Mat b : blocks) {
    PetscBool done;

    if (!b) continue;
    PetscCall(PetscObjectTypeCompare((PetscObject)b, j->seqtype, &done));
    if (done && !fresh) continue;
    PetscCall(PetscObjectSetOptions((PetscObject)b, ((PetscObject)A)->options)); /* the options database of the matrix (-mat_jagged_host) */
    if (!done) PetscCall(MatConvert_SeqAIJ_SeqJagged(b, j->seqtype, MAT_INPLACE_MATRIX, &b));
    PetscCall(MatMPIJaggedSetBlockOptions(A, b));
    PetscCall(MatBindToCPU(b, A->boundtocpu)); /* the conversion unbinds; a block is bound as its matrix */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMPIAIJSetPreallocation_MPIJagged(Mat A, PetscInt d_nz, const PetscInt d_nnz[], PetscInt o_nz, const PetscInt o_nnz[])
{
  Mat_MPIJagged *j = (Mat_MPIJagged *)A->spptr;

  PetscFunctionBegin;
  PetscCall(j->aijpreallocation(A, d_nz, d_nnz, o_nz, o_nnz));
  PetscCall(MatMPIJaggedConvertBlocks(A, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatAssemblyEnd_MPIJagged(Mat A, MatAssemblyType mode)
{
  Mat_MPIJagged *j = (Mat_MPIJagged *)A->spptr;

  PetscFunctionBegin;
  PetscCall(j->aijops.assemblyend(A, mode));
  if (mode == MAT_FINAL_ASSEMBLY) PetscCall(MatMPIJaggedConvertBlocks(A, PETSC_FALSE)); /* blocks made by other paths than preallocation */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Applies a setter to the blocks that are already jagged (the others take the options when they become so) */
#define MatMPIJaggedForBlocks(A, call) \
  do { \
    Mat blocks_[2]; \
    PetscCall(MatMPIAIJGetSeqAIJ(A, &blocks_[0], &blocks_[1], NULL)); \
    for (Mat b_ : blocks_) { \
      PetscBool jagged_; \
      if (!b_) continue; \
      PetscCall(PetscObjectTypeCompare((PetscObject)b_, ((Mat_MPIJagged *)A->spptr)->seqtype, &jagged_)); \
      if (jagged_) call; \
    } \
  } while (0)

static PetscErrorCode MatJaggedSetSinglePrecision_MPIJagged(Mat A, PetscBool flg)
{
  PetscFunctionBegin;
  ((Mat_MPIJagged *)A->spptr)->single = flg;
  MatMPIJaggedForBlocks(A, PetscCall(MatJaggedSetSinglePrecision(b_, flg)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The diagonal block may have made its copy on first use of MatJaggedMultSingle() */
static PetscErrorCode MatJaggedGetSinglePrecision_MPIJagged(Mat A, PetscBool *flg)
{
  Mat_MPIJagged *j = (Mat_MPIJagged *)A->spptr;
  Mat            d;
  PetscBool      jagged = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &d, NULL, NULL));
  if (d) PetscCall(PetscObjectTypeCompare((PetscObject)d, j->seqtype, &jagged));
  if (jagged) PetscCall(MatJaggedGetSinglePrecision(d, flg));
  else *flg = j->single;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedGetStorage_MPIJagged(Mat A, PetscCount *nnz, PetscCount *stored)
{
  PetscCount n = 0, s = 0, nb, sb;

  PetscFunctionBegin;
  MatMPIJaggedForBlocks(A, { PetscCall(MatJaggedGetStorage(b_, &nb, &sb)); n += nb; s += sb; });
  if (nnz) *nnz = n;
  if (stored) *stored = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The blocks' bytes a nonzero weighted by their nonzeros */
static PetscErrorCode MatJaggedGetProductBytes_MPIJagged(Mat A, PetscReal *bytes)
{
  PetscReal  sum = 0, b;
  PetscCount n = 0, nb;

  PetscFunctionBegin;
  MatMPIJaggedForBlocks(A, {
    PetscCall(MatJaggedGetStorage(b_, &nb, NULL));
    PetscCall(MatJaggedGetProductBytes(b_, &b));
    sum += b * (PetscReal)nb;
    n += nb;
  });
  *bytes = n ? sum / (PetscReal)n : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedSetKernel_MPIJagged(Mat A, MatJaggedKernel kernel, PetscInt threshold)
{
  Mat_MPIJagged *j = (Mat_MPIJagged *)A->spptr;

  PetscFunctionBegin;
  j->kernel = kernel;
  if (kernel == MAT_JAGGED_KERNEL_SPLIT && threshold != PETSC_DETERMINE) j->threshold = threshold; /* as the blocks keep it */
  MatMPIJaggedForBlocks(A, PetscCall(MatJaggedSetKernel(b_, kernel, threshold)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedGetKernel_MPIJagged(Mat A, MatJaggedKernel *kernel, PetscInt *threshold)
{
  Mat_MPIJagged *j = (Mat_MPIJagged *)A->spptr;

  PetscFunctionBegin;
  if (kernel) *kernel = j->kernel;
  if (threshold) *threshold = j->threshold;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedSetBlocks_MPIJagged(Mat A, MatJaggedBlocks blocks)
{
  PetscFunctionBegin;
  ((Mat_MPIJagged *)A->spptr)->blocks = blocks;
  MatMPIJaggedForBlocks(A, PetscCall(MatJaggedSetBlocks(b_, blocks)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the block size of the diagonal block's format */
static PetscErrorCode MatJaggedGetBlocks_MPIJagged(Mat A, MatJaggedBlocks *blocks, PetscInt *bs)
{
  Mat Ad;

  PetscFunctionBegin;
  if (blocks) *blocks = ((Mat_MPIJagged *)A->spptr)->blocks;
  if (bs) {
    PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, NULL, NULL));
    *bs = 1;
    if (Ad) PetscCall(MatJaggedGetBlocks(Ad, NULL, bs));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatPJDSSetBlockRows_MPIJagged(Mat A, PetscInt br)
{
  PetscFunctionBegin;
  ((Mat_MPIJagged *)A->spptr)->block_rows = br;
  MatMPIJaggedForBlocks(A, PetscCall(MatPJDSSetBlockRows(b_, br)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatPJDSGetBlockRows_MPIJagged(Mat A, PetscInt *br)
{
  PetscFunctionBegin;
  *br = ((Mat_MPIJagged *)A->spptr)->block_rows;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedSetUseHost_MPIJagged(Mat A, PetscBool flg)
{
  PetscFunctionBegin;
  ((Mat_MPIJagged *)A->spptr)->host = flg;
  MatMPIJaggedForBlocks(A, PetscCall(MatJaggedSetUseHost(b_, flg)));
  PetscCall(PetscFree(A->defaultvectype));
  PetscCall(PetscStrallocpy(flg ? VECSTANDARD : VECCUDA, &A->defaultvectype));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedGetUseHost_MPIJagged(Mat A, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = ((Mat_MPIJagged *)A->spptr)->host;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetFromOptions_MPIJagged(Mat A, PetscOptionItems PetscOptionsObject)
{
  PetscJaggedExchange exchange = ((Mat_MPIJagged *)A->spptr)->exchange;
  PetscBool           flg;

  PetscFunctionBegin;
  PetscCall(MatJaggedSetFromOptions_Private(A, (PetscBool)(((Mat_MPIJagged *)A->spptr)->pjds), PetscOptionsObject));
  PetscOptionsHeadBegin(PetscOptionsObject, "Jagged-diagonal GPU matrix options, several processes");
  PetscCall(PetscOptionsEnum("-mat_jagged_exchange", "Path of the halo exchanges of the products: auto (CUDA IPC on one host, else MPI), mpi, nccl or ipc (GPU to GPU)", "MatJaggedSetExchange", PetscJaggedExchanges, (PetscEnum)exchange, (PetscEnum *)&exchange, &flg));
  if (flg) PetscCall(MatJaggedSetExchange(A, exchange));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MATMPIAIJ's view; the ASCII info formats also name the path of the halo exchange */
static PetscErrorCode MatView_MPIJagged(Mat A, PetscViewer viewer)
{
  Mat_MPIJagged    *j = (Mat_MPIJagged *)A->spptr;
  PetscBool         ascii;
  PetscViewerFormat fmt = PETSC_VIEWER_DEFAULT;

  PetscFunctionBegin;
  PetscCall(j->aijops.view(A, viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (ascii) PetscCall(PetscViewerGetFormat(viewer, &fmt));
  if (!ascii || (fmt != PETSC_VIEWER_ASCII_INFO && fmt != PETSC_VIEWER_ASCII_INFO_DETAIL)) PetscFunctionReturn(PETSC_SUCCESS);
  if (j->halo[0] || j->halo[1]) {
    const char *how, *why;

    PetscCall(JaggedHaloGetExchange(j->halo[0] ? j->halo[0] : j->halo[1], &how, &why));
    PetscCall(PetscViewerASCIIPrintf(viewer, "halo exchange: %s%s%s%s\n", how, why ? " (" : "", why ? why : "", why ? ")" : ""));
  } else PetscCall(PetscViewerASCIIPrintf(viewer, "halo exchange: %s asked for, made at the first product\n", PetscJaggedExchanges[j->exchange]));
  if (A->assembled && !A->boundtocpu) { /* the blocks' layouts (-mat_jagged_blocks), as the first process has them */
    Mat      Ad, Ao;
    PetscInt bs[2] = {1, 1};
    char     layout[2][48];

    PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, NULL));
    if (Ad) PetscCall(MatJaggedGetBlocks(Ad, NULL, &bs[0]));
    if (Ao) PetscCall(MatJaggedGetBlocks(Ao, NULL, &bs[1]));
    for (PetscInt k = 0; k < 2; k++) {
      if (bs[k] > 1) PetscCall(PetscSNPrintf(layout[k], sizeof(layout[k]), "dense %" PetscInt_FMT " x %" PetscInt_FMT " blocks", bs[k], bs[k]));
      else PetscCall(PetscSNPrintf(layout[k], sizeof(layout[k]), "single entries"));
    }
    PetscCall(PetscViewerASCIIPrintf(viewer, "layout: diagonal block %s, off-diagonal block %s (first process; -mat_jagged_blocks %s)\n", layout[0], layout[1], MatJaggedBlocksTypes[j->blocks]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMPIJaggedFreeGhosts(Mat_MPIJagged *j)
{
  PetscFunctionBegin;
  if (j->ghosts_host) PetscCall(PetscFree(j->ghosts_single));
  else if (j->ghosts_single) PetscCallCUDA(cudaFree(j->ghosts_single));
  j->ghosts_single = NULL;
  j->nghosts       = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Drops the halo exchanges and the ghost vector: the next product makes them again, where the blocks then multiply */
static PetscErrorCode MatMPIJaggedResetHalo(Mat_MPIJagged *j)
{
  PetscFunctionBegin;
  for (JaggedHalo &h : j->halo) PetscCall(JaggedHaloDestroy(&h));
  PetscCall(VecDestroy(&j->ghosts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedSetExchange_MPIJagged(Mat A, PetscJaggedExchange exchange)
{
  Mat_MPIJagged *j = (Mat_MPIJagged *)A->spptr;

  PetscFunctionBegin;
  if (exchange != j->exchange) PetscCall(MatMPIJaggedResetHalo(j));
  j->exchange = exchange;
  if (exchange == PETSC_JAGGED_EXCHANGE_NCCL && !j->host) PetscCall(JaggedNCCLPrefetch(PetscObjectComm((PetscObject)A))); /* made while the program assembles */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedGetExchange_MPIJagged(Mat A, PetscJaggedExchange *exchange)
{
  PetscFunctionBegin;
  *exchange = ((Mat_MPIJagged *)A->spptr)->exchange;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The halo exchange of x in double (single = false) or single precision, made again when the nonzero pattern changed or the blocks moved between host and device */
static PetscErrorCode MatMPIJaggedGetHalo(Mat A, Mat d, PetscBool single, JaggedHalo *halo)
{
  Mat_MPIJagged  *j    = (Mat_MPIJagged *)A->spptr;
  const PetscBool host = (PetscBool)(((Mat_SeqJagged *)d->spptr)->host || (!single && A->boundtocpu));

  PetscFunctionBegin;
  if (j->halostate != A->nonzerostate || j->halohost != host) {
    PetscCall(MatMPIJaggedResetHalo(j));
    j->halostate = A->nonzerostate;
    j->halohost  = host;
  }
  if (!j->halo[single]) {
    PetscSF sf;

    PetscCall(MatGetMultPetscSF(A, &sf));
    PetscCall(JaggedHaloCreate(sf, single ? sizeof(PetscJaggedScalarSingle) : sizeof(PetscScalar), (PetscBool)!host, j->exchange, &j->halo[single]));
  }
  if (!single && !j->ghosts) { /* in double precision, the ghosts go into a vector the off-diagonal block multiplies */
    Mat o;

    PetscCall(MatMPIAIJGetSeqAIJ(A, NULL, &o, NULL));
    PetscCall(VecCreate(PETSC_COMM_SELF, &j->ghosts));
    PetscCall(VecSetSizes(j->ghosts, o->cmap->n, o->cmap->n));
    PetscCall(VecSetType(j->ghosts, host ? VECSEQ : VECSEQCUDA));
  }
  *halo = j->halo[single];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The array of v where the blocks multiply: on the host or on the device, read, written or both */
static PetscErrorCode MatMPIJaggedVecGetArray(Vec v, PetscBool host, PetscMemoryAccessMode mode, PetscScalar **a)
{
  PetscFunctionBegin;
  switch (mode) {
  case PETSC_MEMORY_ACCESS_READ:
    if (host) PetscCall(VecGetArrayRead(v, (const PetscScalar **)a));
    else PetscCall(VecCUDAGetArrayRead(v, (const PetscScalar **)a));
    break;
  case PETSC_MEMORY_ACCESS_WRITE:
    if (host) PetscCall(VecGetArrayWrite(v, a));
    else PetscCall(VecCUDAGetArrayWrite(v, a));
    break;
  default:
    if (host) PetscCall(VecGetArray(v, a));
    else PetscCall(VecCUDAGetArray(v, a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMPIJaggedVecRestoreArray(Vec v, PetscBool host, PetscMemoryAccessMode mode, PetscScalar **a)
{
  PetscFunctionBegin;
  switch (mode) {
  case PETSC_MEMORY_ACCESS_READ:
    if (host) PetscCall(VecRestoreArrayRead(v, (const PetscScalar **)a));
    else PetscCall(VecCUDARestoreArrayRead(v, (const PetscScalar **)a));
    break;
  case PETSC_MEMORY_ACCESS_WRITE:
    if (host) PetscCall(VecRestoreArrayWrite(v, a));
    else PetscCall(VecCUDARestoreArrayWrite(v, a));
    break;
  default:
    if (host) PetscCall(VecRestoreArray(v, a));
    else PetscCall(VecCUDARestoreArray(v, a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* zz = A xx (+ yy): the ghosts of xx cross during the diagonal block's product */
static PetscErrorCode MatMPIJaggedMult(Mat A, Vec xx, Vec yy, Vec zz)
{
  Mat_MPIJagged *j = (Mat_MPIJagged *)A->spptr;
  Mat            d, o;
  JaggedHalo     halo;
  cudaStream_t   stream = NULL;
  PetscScalar   *a;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &d, &o, NULL));
  PetscCall(MatMPIJaggedGetHalo(A, d, PETSC_FALSE, &halo));
  if (!j->halohost) PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(MatMPIJaggedVecGetArray(xx, j->halohost, PETSC_MEMORY_ACCESS_READ, &a));
  PetscCall(JaggedHaloBegin(halo, a, stream));
  PetscCall(MatMPIJaggedVecRestoreArray(xx, j->halohost, PETSC_MEMORY_ACCESS_READ, &a));
  if (yy) PetscCall((*d->ops->multadd)(d, xx, yy, zz));
  else PetscCall((*d->ops->mult)(d, xx, zz));
  PetscCall(MatMPIJaggedVecGetArray(j->ghosts, j->halohost, PETSC_MEMORY_ACCESS_WRITE, &a));
  PetscCall(JaggedHaloEnd(halo, a, stream));
  PetscCall(MatMPIJaggedVecRestoreArray(j->ghosts, j->halohost, PETSC_MEMORY_ACCESS_WRITE, &a));
  PetscCall((*o->ops->multadd)(o, j->ghosts, zz, zz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* zz = A^T xx (+ yy): the off-diagonal block's transpose product first, its entries sent back to their owners during the diagonal block's */
static PetscErrorCode MatMPIJaggedMultTranspose(Mat A, Vec xx, Vec yy, Vec zz)
{
  Mat_MPIJagged *j = (Mat_MPIJagged *)A->spptr;
  Mat            d, o;
  JaggedHalo     halo;
  cudaStream_t   stream = NULL;
  PetscScalar   *a;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &d, &o, NULL));
  PetscCall(MatMPIJaggedGetHalo(A, d, PETSC_FALSE, &halo));
  if (!j->halohost) PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall((*o->ops->multtranspose)(o, xx, j->ghosts));
  PetscCall(MatMPIJaggedVecGetArray(j->ghosts, j->halohost, PETSC_MEMORY_ACCESS_READ, &a));
  PetscCall(JaggedHaloReverseBegin(halo, a, stream));
  PetscCall(MatMPIJaggedVecRestoreArray(j->ghosts, j->halohost, PETSC_MEMORY_ACCESS_READ, &a));
  if (yy) PetscCall((*d->ops->multtransposeadd)(d, xx, yy, zz));
  else PetscCall((*d->ops->multtranspose)(d, xx, zz));
  PetscCall(MatMPIJaggedVecGetArray(zz, j->halohost, PETSC_MEMORY_ACCESS_READ_WRITE, &a));
  PetscCall(JaggedHaloReverseEnd(halo, a, stream));
  PetscCall(MatMPIJaggedVecRestoreArray(zz, j->halohost, PETSC_MEMORY_ACCESS_READ_WRITE, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTranspose_MPIJagged(Mat A, Vec xx, Vec yy)
{
  PetscFunctionBegin;
  PetscCall(MatMPIJaggedMultTranspose(A, xx, NULL, yy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTransposeAdd_MPIJagged(Mat A, Vec xx, Vec yy, Vec zz)
{
  PetscFunctionBegin;
  PetscCall(MatMPIJaggedMultTranspose(A, xx, yy, zz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_MPIJagged(Mat A, Vec xx, Vec yy)
{
  PetscFunctionBegin;
  PetscCall(MatMPIJaggedMult(A, xx, NULL, yy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultAdd_MPIJagged(Mat A, Vec xx, Vec yy, Vec zz)
{
  PetscFunctionBegin;
  PetscCall(MatMPIJaggedMult(A, xx, yy, zz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x in single precision: the halo exchange of x in single precision during the diagonal block's product, then the off-diagonal block's product added */
static PetscErrorCode MatJaggedMultSingle_MPIJagged(Mat A, const PetscJaggedScalarSingle x[], PetscJaggedScalarSingle y[])
{
  Mat_MPIJagged *j = (Mat_MPIJagged *)A->spptr;
  Mat            d, o;
  JaggedHalo     halo;
  PetscBool      host;
  cudaStream_t   stream = NULL;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &d, &o, NULL));
  host = ((Mat_SeqJagged *)d->spptr)->host;
  if (j->nghosts != o->cmap->n || j->ghosts_host != host) {
    PetscCall(MatMPIJaggedFreeGhosts(j));
    j->ghosts_host = host;
    j->nghosts     = o->cmap->n;
    if (host) PetscCall(PetscMalloc1(j->nghosts, &j->ghosts_single));
    else PetscCallCUDA(cudaMalloc((void **)&j->ghosts_single, sizeof(PetscJaggedScalarSingle) * PetscMax(j->nghosts, 1)));
  }
  PetscCall(MatMPIJaggedGetHalo(A, d, PETSC_TRUE, &halo));
  if (!host) PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(PetscLogEventBegin(MAT_JAGGED_MultSingle, A, 0, 0, 0)); /* the halo exchange included */
  PetscCall(JaggedHaloBegin(halo, x, stream));
  PetscCall(MatSeqJaggedMultSingle(d, x, NULL, y));
  PetscCall(JaggedHaloEnd(halo, j->ghosts_single, stream));
  PetscCall(MatSeqJaggedMultSingle(o, j->ghosts_single, y, y));
  PetscCall(PetscLogEventEnd(MAT_JAGGED_MultSingle, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Composes the type's functions (add) or removes them; removing composes nothing new, as MatHeaderMerge() destroys
   the matrix with its function list set aside (a list created then would be lost) */
static PetscErrorCode MatMPIJaggedComposeAll(Mat A, PetscBool add)
{
  PetscFunctionBegin;
  if (((Mat_MPIJagged *)A->spptr)->pjds) {
    PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatPJDSSetBlockRows_C", add ? MatPJDSSetBlockRows_MPIJagged : NULL));
    PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatPJDSGetBlockRows_C", add ? MatPJDSGetBlockRows_MPIJagged : NULL));
  }
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatMPIAIJSetPreallocation_C", add ? MatMPIAIJSetPreallocation_MPIJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatJaggedSetSinglePrecision_C", add ? MatJaggedSetSinglePrecision_MPIJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatJaggedGetSinglePrecision_C", add ? MatJaggedGetSinglePrecision_MPIJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatJaggedMultSingle_C", add ? MatJaggedMultSingle_MPIJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatJaggedSetKernel_C", add ? MatJaggedSetKernel_MPIJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatJaggedGetKernel_C", add ? MatJaggedGetKernel_MPIJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatJaggedSetBlocks_C", add ? MatJaggedSetBlocks_MPIJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatJaggedGetBlocks_C", add ? MatJaggedGetBlocks_MPIJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatJaggedGetStorage_C", add ? MatJaggedGetStorage_MPIJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatJaggedGetProductBytes_C", add ? MatJaggedGetProductBytes_MPIJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatJaggedSetUseHost_C", add ? MatJaggedSetUseHost_MPIJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatJaggedGetUseHost_C", add ? MatJaggedGetUseHost_MPIJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatJaggedSetExchange_C", add ? MatJaggedSetExchange_MPIJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatJaggedGetExchange_C", add ? MatJaggedGetExchange_MPIJagged : NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Y += a X. Where X (MPI AIJ-based, not Y, str not SAME_NONZERO_PATTERN) has a pattern within Y's on every process, merged
  block by block on the host CSR (the off-diagonal blocks by global column), as MatAXPY() of the blocks does for the same
  pattern, Y's pattern kept; else MATMPIAIJ's code, which sets the values of a subset one row at a time and makes a new
  matrix for a different pattern
*/
static PetscErrorCode MatAXPY_MPIJagged(Mat Y, PetscScalar a, Mat X, MatStructure str)
{
  Mat_MPIJagged *j = (Mat_MPIJagged *)Y->spptr;
  PetscBool      aij = PETSC_FALSE, merge = PETSC_FALSE;

  PetscFunctionBegin;
  if (str != SAME_NONZERO_PATTERN && X != Y) PetscCall(PetscObjectBaseTypeCompare((PetscObject)X, MATMPIAIJ, &aij));
  if (aij) { /* the same choice on every process: the other path is collective */
    Mat             Yd, Yo, Xd, Xo;
    const PetscInt *ycol, *xcol;
    PetscBool       d, o;

    PetscCall(MatMPIAIJGetSeqAIJ(Y, &Yd, &Yo, &ycol));
    PetscCall(MatMPIAIJGetSeqAIJ(X, &Xd, &Xo, &xcol));
    PetscCall(MatJaggedAXPYSubset_Private(Yd, NULL, a, Xd, NULL, PETSC_FALSE, &d));
    PetscCall(MatJaggedAXPYSubset_Private(Yo, ycol, a, Xo, xcol, PETSC_FALSE, &o));
    merge = (PetscBool)(d && o);
    PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &merge, 1, MPI_C_BOOL, MPI_LAND, PetscObjectComm((PetscObject)Y)));
    if (merge) {
      PetscCall(MatJaggedAXPYSubset_Private(Yd, NULL, a, Xd, NULL, PETSC_TRUE, &d));
      PetscCall(MatJaggedAXPYSubset_Private(Yo, ycol, a, Xo, xcol, PETSC_TRUE, &o));
      PetscCall(PetscObjectStateIncrease((PetscObject)Y));
    }
  }
  if (!merge) PetscCall(j->aijops.axpy(Y, a, X, str));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MATMPIAIJ's duplicate, whose blocks are duplicates of the blocks of A, with the options of A */
static PetscErrorCode MatDuplicate_MPIJagged(Mat A, MatDuplicateOption op, Mat *B)
{
  Mat_MPIJagged *j = (Mat_MPIJagged *)A->spptr, *jb;

  PetscFunctionBegin;
  PetscCall(j->aijops.duplicate(A, op, B));
  jb             = (Mat_MPIJagged *)(*B)->spptr;
  jb->block_rows = j->block_rows;
  jb->kernel     = j->kernel;
  jb->threshold  = j->threshold;
  jb->blocks     = j->blocks;
  jb->single     = j->single;
  jb->exchange   = j->exchange;
  PetscCall(MatJaggedSetUseHost_MPIJagged(*B, j->host));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatCreateVecs(): on the GPU, vectors duplicated from one without arrays, which allocate their host copy when it is
  first used; VecCreate() of a VECMPICUDA allocates a pinned host copy and zeroes it (about 40 ms for 8 M entries on
  an H100 host), at every MatCreateVecs() of a solver's or preconditioner's set-up (KSPSetUp()'s work vectors,
  PCJACOBI's diagonal). On the host (bound, -mat_jagged_host), or for a vector type set by MatSetVecType(), PETSc's own
  MatCreateVecs() (this operation taken away for the call).
*/
static PetscErrorCode MatCreateVecs_MPIJagged(Mat A, Vec *right, Vec *left)
{
  PetscLayout map[2] = {A->cmap, A->rmap};
  Vec        *vec[2] = {right, left};
  PetscBool   cuda;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(A->defaultvectype, VECCUDA, &cuda));
  if (!cuda || ((Mat_MPIJagged *)A->spptr)->host || A->boundtocpu) {
    A->ops->getvecs = NULL;
    PetscCall(MatCreateVecs(A, right, left));
    A->ops->getvecs = MatCreateVecs_MPIJagged;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (int k = 0; k < 2; k++) {
    Vec t;

    if (!vec[k]) continue;
    PetscCall(VecCreateMPICUDAWithArray(PetscObjectComm((PetscObject)A), map[k]->bs > 0 ? map[k]->bs : 1, map[k]->n, map[k]->N, NULL, &t));
    PetscCall(VecDuplicate(t, vec[k]));
    PetscCall(VecDestroy(&t));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MATMPIAIJ's binding (the blocks, the work vectors), then the halo exchanges and the ghost vector made again where the products now run */
static PetscErrorCode MatBindToCPU_MPIJagged(Mat A, PetscBool flg)
{
  Mat_MPIJagged *j = (Mat_MPIJagged *)A->spptr;

  PetscFunctionBegin;
  PetscCall(j->aijops.bindtocpu(A, flg));
  PetscCall(MatMPIJaggedResetHalo(j));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_MPIJagged(Mat A)
{
  Mat_MPIJagged *j = (Mat_MPIJagged *)A->spptr;

  PetscFunctionBegin;
  PetscCall(MatMPIJaggedComposeAll(A, PETSC_FALSE));
  PetscCall(MatMPIJaggedFreeGhosts(j));
  PetscCall(MatMPIJaggedResetHalo(j));
  A->ops->destroy = j->aijops.destroy;
  PetscCall(PetscFree(A->spptr));
  PetscCall((*A->ops->destroy)(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After MATMPIAIJ's MatSetPreallocationCOO(), which made new blocks: the matrix's options given to them, its COO map checked */
static PetscErrorCode MatMPIJaggedCOOSetUp(Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatMPIJaggedConvertBlocks(A, PETSC_TRUE));
  PetscCall(MatMPIJaggedCOOPreallocated(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The host values of A's blocks changed (MATMPIAIJ's COO assembly wrote them): their jagged copies are refreshed at their next use */
static PetscErrorCode MatMPIJaggedBlocksChanged(Mat A)
{
  Mat          b[2];
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &b[0], &b[1], NULL));
  for (int k = 0; k < 2; k++) { /* the accessors' restore is where a jagged block learns that its host values changed */
    PetscCall(MatSeqAIJGetArray(b[k], &a));
    PetscCall(MatSeqAIJRestoreArray(b[k], &a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An unassembled MATMPIAIJ, just created, to MATMPIJDSCUDA or MATMPIPJDSCUDA, unbound from the CPU as PETSc's GPU types (MatCreate() binds) */
PetscErrorCode MatConvert_MPIAIJ_MPIJagged_InPlace(Mat A, MatType type)
{
  Mat_MPIJagged *j;
  PetscBool      pjds, host = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(type, MATMPIPJDSCUDA, &pjds));
  PetscCall(PetscNew(&j));
  j->seqtype    = pjds ? MATSEQPJDSCUDA : MATSEQJDSCUDA;
  j->pjds       = pjds;
  j->block_rows = jagged::kDefaultBlockRows;
  j->kernel     = MAT_JAGGED_KERNEL_AUTO;
  j->blocks     = MAT_JAGGED_BLOCKS_AUTO;
  j->exchange   = PETSC_JAGGED_EXCHANGE_AUTO;
  j->aijops     = *A->ops;
  A->spptr      = j;
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatMPIAIJSetPreallocation_C", &j->aijpreallocation));
  PetscCheck(j->aijpreallocation, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MATMPIAIJ without MatMPIAIJSetPreallocation_C");
  {
    const MatJaggedCOOOps coo = {MatMPIJaggedBlocksChanged, MatMPIJaggedCOOSetUp, MatMPIJaggedSetValuesCOO}; /* COO assembly: MATMPIAIJ's, and from GPU memory through its map (mpijaggedcoo.cu) */

    PetscCall(MatJaggedComposeCOO(A, &coo));
  }
  A->ops->assemblyend = MatAssemblyEnd_MPIJagged;
  A->ops->destroy     = MatDestroy_MPIJagged;
  A->ops->mult             = MatMult_MPIJagged;
  A->ops->multadd          = MatMultAdd_MPIJagged;
  A->ops->multtranspose    = MatMultTranspose_MPIJagged;
  A->ops->multtransposeadd = MatMultTransposeAdd_MPIJagged;
  A->ops->bindtocpu        = MatBindToCPU_MPIJagged;
  A->ops->duplicate        = MatDuplicate_MPIJagged;
  A->ops->setfromoptions   = MatSetFromOptions_MPIJagged;
  A->ops->view             = MatView_MPIJagged;
  A->ops->getvecs          = MatCreateVecs_MPIJagged;
  A->ops->axpy             = MatAXPY_MPIJagged;
  PetscCall(MatBindToCPU_MPIJagged(A, PETSC_FALSE));
  PetscCall(MatMPIJaggedComposeAll(A, PETSC_TRUE));
  PetscCall(PetscOptionsGetBool(((PetscObject)A)->options, NULL, "-mat_jagged_host", &host, NULL)); /* a global option, as for the blocks */
  j->host = host;
  if (!host) PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA)); /* as MPIAIJCUSPARSE: the device starts with the matrix */
  PetscCall(PetscFree(A->defaultvectype));
  PetscCall(PetscStrallocpy(host ? VECSTANDARD : VECCUDA, &A->defaultvectype));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}
