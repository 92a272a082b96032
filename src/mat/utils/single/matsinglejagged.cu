/*
   The single-precision matrix's pJDS copy of an AIJ operator's (diagonal) block in single precision (-pc_spcg_format pjds, and
   auto where DIA does not pay): the padded jagged-diagonal format of MATPJDSCUDA built from the block's CSR
   pattern, its values gathered into the slots and rounded, and the product by MATPJDSCUDA's kernel. On the
   GPU the format is built from the device CSR that MATSEQAIJCUSPARSE already holds (jaggedbuild.cu: no host
   pass over the entries, nothing uploaded) and the values are gathered from its device values; on the host
   (the twin) by BuildFormat() and FillValues(), the product by the host jagged kernel. A single-precision
   product then moves 4 bytes of value and 4 of column an entry, at the jagged kernel's bandwidth.
*/
#include <petscdevice_cuda.h>
#include <petscjagged/private/matsinglekernels.cuh>
#include <petscjagged/private/jaggedbuild.cuh>
#include <petscjagged/private/jaggedhost.hpp>

#include <new>

struct _n_MatSingleJagged {
  jagged::Format             format;            /* the whole format on the host; on the device its summary */
  jagged::gpu::DeviceFormat *dformat = nullptr; /* the device arrays */
};

namespace {

/* dot += p' y over n rows, unless *stopped */
__global__ void DotAddKernel(int n, const S *p, const S *y, const int *stopped, D *dot)
{
  D sum = 0;

  if (stopped && *stopped) return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += DotTerm(p[i], y[i]);
  BlockSumTo(sum, dot);
}

PetscErrorCode CheckStatus(jagged::Status st, cudaError_t cerr)
{
  PetscFunctionBegin;
  if (st == jagged::Status::DeviceError) PetscCallCUDA(cerr);
  PetscCheck(st == jagged::Status::Success, PETSC_COMM_SELF, st == jagged::Status::OutOfMemory ? PETSC_ERR_MEM : PETSC_ERR_ARG_OUTOFRANGE, "pJDS copy of the operator: %s", jagged::StatusString(st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace

/*
  The block options of the pJDS copy of B (m x ncols): B's block size, from 2 to jagged::kMaxBlockSize, where it divides the rows
  and columns, the build keeping blocks where dense blocks of single-precision values pay (jagged::BlocksPay())
*/
static PetscErrorCode MatSingleJaggedBlockOptions(Mat B, PetscInt m, PetscInt ncols, jagged::Options *options)
{
  PetscInt rbs, cbs;

  PetscFunctionBegin;
  options->block_auto_bytes = (int)sizeof(PetscJaggedScalarSingle);
  PetscCall(MatGetBlockSizes(B, &rbs, &cbs));
  if (rbs == cbs && rbs >= 2 && rbs <= jagged::kMaxBlockSize && !(m % rbs) && !(ncols % rbs)) options->block_size = (int)rbs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The pJDS copy of the m x c->ncols block B (its host CSR ai, aj), in single precision, of blocks where they move fewer bytes:
  on the device from B's device CSR (B a MATSEQAIJCUSPARSE), or on the host
*/
PetscErrorCode MatSingleJaggedCreate(Mat B, PetscInt m, const PetscInt *ai, const PetscInt *aj, PetscBool device, MatSingleBlock *c)
{
  MatSingleJagged jg;
  jagged::Status  st;
  jagged::Options options;

  PetscFunctionBegin;
  PetscCall(MatSingleJaggedBlockOptions(B, m, c->ncols, &options));
  jg = new (std::nothrow) _n_MatSingleJagged;
  PetscCheck(jg, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory for the pJDS copy of the operator");
  c->format = PCSPCG_FORMAT_PJDS;
  c->ops    = &MatSingleBlockOpsPJDS;
  c->jagged = jg;
  c->nrows  = m;
  if (device) {
    const PetscInt *di, *dj;
    PetscScalar    *da;
    cudaStream_t    stream;
    cudaError_t     cerr;

    PetscCall(DeviceCSR(B, &di, &dj, &da));
    PetscCall(PetscGetCurrentCUDAStream(&stream));
    jg->dformat = new (std::nothrow) jagged::gpu::DeviceFormat;
    PetscCheck(jg->dformat, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory for the pJDS copy of the operator");
    st = jagged::gpu::BuildDeviceFormat((int)m, (int)c->ncols, di, dj, options, &jg->format, jg->dformat, stream, &cerr);
    PetscCall(CheckStatus(st, cerr));
    PetscCallCUDA(cudaMalloc((void **)&c->a, sizeof(S) * PetscMax(jg->format.nslots, 1)));
    PetscCallCUDA(jagged::gpu::RefreshValues(*jg->dformat, reinterpret_cast<const MatJaggedHostScalar *>(da), reinterpret_cast<MatJaggedHostSingle *>(c->a), stream));
  } else {
    const PetscScalar *aa;

    st = jagged::BuildFormat((int)m, (int)c->ncols, ai, aj, options, &jg->format);
    PetscCall(CheckStatus(st, cudaSuccess));
    PetscCall(PetscMalloc1(PetscMax(jg->format.nslots, 1), &c->a));
    PetscCall(MatSeqAIJGetArrayRead(B, &aa));
    jagged::FillValues(jg->format, reinterpret_cast<const MatJaggedHostScalar *>(aa), reinterpret_cast<MatJaggedHostSingle *>(c->a));
    PetscCall(MatSeqAIJRestoreArrayRead(B, &aa));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSingleJaggedDestroy(MatSingleBlock *c)
{
  MatSingleJagged jg = c->jagged;

  PetscFunctionBegin;
  if (!jg) PetscFunctionReturn(PETSC_SUCCESS);
  if (jg->dformat) {
    PetscCallCUDA(jagged::gpu::DeviceFormatDestroy(jg->dformat));
    delete jg->dformat;
    PetscCallCUDA(cudaFree(c->a));
  } else PetscCall(PetscFree(c->a));
  delete jg;
  c->jagged = NULL;
  c->a      = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The storage: the entries the copy stores, padding included, the layout, and the bytes a nonzero of a product (values and column indices) */
static PetscErrorCode MatSingleJaggedDescribe(const MatSingleBlock *c, const char *unit, char line[], size_t len)
{
  const jagged::Format &f = c->jagged->format;
  char                  layout[64];

  PetscFunctionBegin;
  if (f.bs > 1) PetscCall(PetscSNPrintf(layout, sizeof(layout), "dense %d x %d blocks with a 4-byte column each", f.bs, f.bs));
  else PetscCall(PetscSNPrintf(layout, sizeof(layout), "4-byte columns"));
  PetscCall(PetscSNPrintf(line, len, "pJDS, %" PetscCount_FMT " stored entries for %" PetscInt_FMT " nonzeros, %s values and %s, %.2f bytes a nonzero", (PetscCount)f.nslots, c->nnz, unit, layout, jagged::GetStats(f, sizeof(PetscJaggedScalarSingle)).product_bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x for a pJDS block on the host (a diagonal block: never add): the twin of MatSingleJaggedMultDevice() */
static PetscErrorCode MatSingleJaggedMultHost(const MatSingleBlock *c, const PetscJaggedScalarSingle x[], PetscBool add, PetscJaggedScalarSingle y[])
{
  PetscFunctionBegin;
  PetscAssert(!add, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A pJDS block is a diagonal block: y = A x");
  jagged::host::Mult(c->jagged->format, reinterpret_cast<const MatJaggedHostSingle *>(c->a), reinterpret_cast<const MatJaggedHostSingle *>(x), reinterpret_cast<MatJaggedHostSingle *>(y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  y = A x for a pJDS block on stream (capturable into a CUDA graph; a diagonal block: never add, p = x);
  unless *stopped (device memory, may be NULL): with dot (device memory, may be NULL), dot += x'y
*/
static PetscErrorCode MatSingleJaggedMultDevice(const MatSingleBlock *c, const PetscJaggedScalarSingle x[], PetscBool add, PetscJaggedScalarSingle y[], const int *stopped, const PetscJaggedScalarSingle p[], PetscScalar *dot, cudaStream_t stream)
{
  PetscFunctionBegin;
  PetscAssert(!add && p == x, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A pJDS block is a diagonal block: y = A x, p = x");
  PetscCallCUDA(jagged::gpu::Mult(*c->jagged->dformat, reinterpret_cast<const MatJaggedHostSingle *>(c->a), reinterpret_cast<const MatJaggedHostSingle *>(x), reinterpret_cast<MatJaggedHostSingle *>(y), stream));
  if (dot) {
    DotAddKernel<<<JaggedBlocks(c->nrows, kThreads, kMaxBlocks), kThreads, 0, stream>>>((int)c->nrows, reinterpret_cast<const S *>(x), reinterpret_cast<const S *>(y), stopped, reinterpret_cast<D *>(dot));
    PetscCallCUDA(cudaGetLastError());
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the values and the index arrays (columns, a slot's or a block's, and the row structure of both parts), padding included */
static size_t MatSingleJaggedBytes(const MatSingleBlock *c)
{
  const jagged::Stats st = jagged::GetStats(c->jagged->format, sizeof(PetscJaggedScalarSingle));

  return st.value_bytes + st.index_bytes;
}

/* A host block's values again from B (same pattern): gathered into the slots */
static PetscErrorCode MatSingleJaggedRefreshHost(MatSingleBlock *c, Mat B)
{
  const PetscScalar *aa;

  PetscFunctionBegin;
  PetscAssert(!c->device, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A host block only");
  PetscCall(MatSeqAIJGetArrayRead(B, &aa));
  jagged::FillValues(c->jagged->format, reinterpret_cast<const MatJaggedHostScalar *>(aa), reinterpret_cast<MatJaggedHostSingle *>(c->a));
  PetscCall(MatSeqAIJRestoreArrayRead(B, &aa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const MatSingleBlockOps MatSingleBlockOpsPJDS = {MatSingleJaggedMultHost, MatSingleJaggedMultDevice, MatSingleJaggedDescribe, MatSingleJaggedDestroy, MatSingleJaggedBytes, MatSingleJaggedRefreshHost};
