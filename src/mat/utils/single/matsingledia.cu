/*
   The single-precision matrix's DIA copy of an AIJ operator's (diagonal) block: when all its entries lie on a few diagonals
   (the operator of a structured grid: a DMDA stencil), the single-precision values are stored diagonal
   by diagonal, zero where a diagonal leaves the block, and the product reads no column index at all:
   for a 7-point stencil 28 bytes a row against CSR's 60 (Bell and Garland, "Implementing sparse
   matrix-vector multiplication on throughput-oriented processors", 2009). The diagonals are found in
   one pass over the entries, the values placed in a second; on the GPU both passes go through the row
   visitor (MatDIAVisitKernel()) over a MATSEQAIJCUSPARSE's CSR or a jagged type's format and values, so
   that a jagged operator on a stencil gets the same copy. The host twins: MatDIAFindDiagonals() and
   MatSingleDIAFillHost() of the passes, MatSingleDIAMultHost() of the product; the operations of the format:
   MatSingleBlockOpsDIA.
*/
#include <petscdevice_cuda.h>
#include <petscjagged/private/matsinglekernels.cuh>
#include <petscjagged/private/diafind.h>
#include <petscjagged/private/diaentries.cuh>

/*
  Whether a block of nrows rows and nnz entries on ndiag diagonals is stored as DIA: always with
  format dia, never with csr or pjds; with auto when its values take at most 0.8 of the bytes of CSR's values,
  column indices and row offsets. Never beyond MATSINGLE_DIA_MAX diagonals, nor for a block without entries.
*/
PetscBool MatSingleBlockUseDIA(PCSPCGFormat format, PetscInt ndiag, PetscInt nrows, PetscInt nnz, PetscInt unit)
{
  if (format == PCSPCG_FORMAT_CSR || format == PCSPCG_FORMAT_PJDS || ndiag < 1 || ndiag > MATSINGLE_DIA_MAX) return PETSC_FALSE;
  if (format == PCSPCG_FORMAT_DIA) return PETSC_TRUE;
  return MatDIAFewerBytes(ndiag, nrows, nnz, (size_t)unit, 0.8);
}

namespace {

/* the visitor's placing of an entry: a[d * m + row], d its offset's diagonal (one thread a row: no race) */
struct FillOp {
  MatDIAOffsets o;
  int           m;
  S            *a;
  __device__ void operator()(PetscInt row, PetscInt off, MatDIADS v) const { a[(size_t)MatDIADiagonalOf(o, off) * m + row] = ToSingle(*reinterpret_cast<const D *>(&v)); }
};

/* y = A x; unless stopped is set: with dot, dot += x'y */
__global__ void DIAMultKernel(int m, int ncols, MatDIAOffsets o, const S *a, const S *x, S *y, const int *stopped, D *dot)
{
  D xy = 0;

  if (stopped && *stopped) return; /* the inner loop has stopped: the product is not used */
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < m; i += gridDim.x * blockDim.x) {
    S sum = S(0);

    for (int d = 0; d < o.n; d++) {
      const int c = i + o.off[d];

      if (c >= 0 && c < ncols) sum = jagged::gpu::MulAdd(jagged::gpu::LoadStream(a + (size_t)d * m + i), jagged::gpu::LoadRO(x + c), sum);
    }
    y[i] = sum;
    if (dot) xy += DotTerm(x[i], sum);
  }
  if (dot) BlockSumTo(xy, dot);
}

MatDIAOffsets ToOffsets(const MatSingleBlock &c)
{
  MatDIAOffsets o;

  o.n = (int)c.ndiag;
  for (PetscInt d = 0; d < c.ndiag; d++) o.off[d] = (int)c.offset[d];
  return o;
}

} // namespace

/* The values of the host DIA block c from B (its host CSR ai, aj) into c->a, zero where B has no entry */
static PetscErrorCode MatSingleDIAFillHost(Mat B, const PetscInt *ai, const PetscInt *aj, MatSingleBlock *c)
{
  const PetscScalar  *aa;
  const PetscInt      m = c->nrows;
  const MatDIAOffsets o = ToOffsets(*c);

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(c->a, c->ndiag * m));
  PetscCall(MatSeqAIJGetArrayRead(B, &aa));
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt k = ai[i]; k < ai[i + 1]; k++) c->a[MatDIADiagonalOf(o, aj[k] - i) * m + i] = (PetscJaggedScalarSingle)aa[k];
  PetscCall(MatSeqAIJRestoreArrayRead(B, &aa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The diagonals of the m x ncols block whose entries e keeps in device memory (a MATSEQAIJCUSPARSE's or a jagged type's),
  found through the row visitor on stream: *ndiag of them (MATSINGLE_DIA_MAX + 1: more), ascending in offset[]; the twin of
  MatDIAFindDiagonals()
*/
static PetscErrorCode MatSingleDIAVisitOffsets(const MatDIAEntries &e, PetscInt m, PetscInt ncols, cudaStream_t stream, PetscInt *ndiag, PetscInt offset[])
{
  const long long nbits = (long long)m + ncols - 1, nwords = (nbits + 31) / 32; /* offsets -(m - 1) .. ncols - 1 */
  MatDIAMarkOp    op;

  PetscFunctionBegin;
  op.bias = m - 1;
  PetscCallCUDA(cudaMallocAsync((void **)&op.bits, sizeof(unsigned) * nwords, stream));
  PetscCallCUDA(cudaMemsetAsync(op.bits, 0, sizeof(unsigned) * nwords, stream));
  if (MatDIAEntriesThreads(e)) MatDIAVisitKernel<<<JaggedBlocks(MatDIAEntriesThreads(e), 256, MAT_DIA_MAX_BLOCKS), 256, 0, stream>>>(e, 0, op);
  PetscCallCUDA(cudaGetLastError());
  PetscCall(MatDIACollectDiagonals(nbits, op.bias, op.bits, stream, ndiag, offset));
  PetscCallCUDA(cudaFreeAsync(op.bits, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The DIA copy of the m x c->ncols block B (its host CSR ai, aj) when MatSingleBlockUseDIA() takes it: on the device (B a
  MATSEQAIJCUSPARSE or a jagged type, found and filled through the row visitor from its device entries; none where a
  jagged type keeps its values on the host) or on the host (the twins: MatDIAFindDiagonals(), MatSingleDIAFillHost());
  else c->ops stays NULL and nothing is allocated
*/
PetscErrorCode MatSingleDIACreate(Mat B, PetscInt m, const PetscInt *ai, const PetscInt *aj, PetscBool device, PCSPCGFormat format, MatSingleBlock *c)
{
  PetscInt      ndiag, offset[MATSINGLE_DIA_MAX];
  cudaStream_t  stream = NULL;
  MatDIAEntries e;

  PetscFunctionBegin;
  if (format == PCSPCG_FORMAT_CSR || format == PCSPCG_FORMAT_PJDS || !m || !ai[m]) PetscFunctionReturn(PETSC_SUCCESS);
  if (device) {
    PetscBool ok;

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCall(MatDIAEntriesGet(B, NULL, 0, &e, &ok));
    if (!ok) PetscFunctionReturn(PETSC_SUCCESS); /* a jagged type's values on the host (-mat_jagged_host): no DIA copy on the device */
    PetscCall(MatSingleDIAVisitOffsets(e, m, c->ncols, stream, &ndiag, offset));
  } else PetscCall(MatDIAFindDiagonals(m, c->ncols, ai, aj, &ndiag, offset));
  PetscCheck(format != PCSPCG_FORMAT_DIA || ndiag <= MATSINGLE_DIA_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "-pc_spcg_format dia: the operator's entries lie on more than %d diagonals; use csr or auto", MATSINGLE_DIA_MAX);
  if (MatSingleBlockUseDIA(format, ndiag, m, ai[m], sizeof(S))) {
    c->format = PCSPCG_FORMAT_DIA;
    c->ops    = &MatSingleBlockOpsDIA;
    c->ndiag  = ndiag;
    c->nrows  = m;
    for (PetscInt d = 0; d < ndiag; d++) c->offset[d] = offset[d];
    if (device) {
      PetscCallCUDA(cudaMalloc((void **)&c->a, sizeof(S) * ndiag * m));
      PetscCallCUDA(cudaMemsetAsync(c->a, 0, sizeof(S) * ndiag * m, stream));
      const FillOp op = {ToOffsets(*c), (int)m, reinterpret_cast<S *>(c->a)};

      MatDIAVisitKernel<<<JaggedBlocks(MatDIAEntriesThreads(e), 256, MAT_DIA_MAX_BLOCKS), 256, 0, stream>>>(e, 0, op);
      PetscCallCUDA(cudaGetLastError());
    } else {
      PetscCall(PetscCalloc1(ndiag * m, &c->a));
      PetscCall(MatSingleDIAFillHost(B, ai, aj, c));
    }
  }
  if (device) PetscCall(MatDIAEntriesRestore(B, &e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x with the DIA block c on stream (a diagonal block: never add, p = x); unless *stopped: with dot, dot += x'y */
static PetscErrorCode MatSingleDIAMultDevice(const MatSingleBlock *c, const PetscJaggedScalarSingle x[], PetscBool add, PetscJaggedScalarSingle y[], const int *stopped, const PetscJaggedScalarSingle p[], PetscScalar *dot, cudaStream_t stream)
{
  PetscFunctionBegin;
  PetscAssert(!add && p == x, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A DIA block is a diagonal block: y = A x, p = x");
  DIAMultKernel<<<JaggedBlocks(c->nrows, kThreads, kMaxBlocks), kThreads, 0, stream>>>((int)c->nrows, (int)c->ncols, ToOffsets(*c), reinterpret_cast<const S *>(c->a), reinterpret_cast<const S *>(x), reinterpret_cast<S *>(y), stopped, reinterpret_cast<D *>(dot));
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x for a DIA block on the host: the twin of MatSingleDIAMultDevice() */
static PetscErrorCode MatSingleDIAMultHost(const MatSingleBlock *c, const PetscJaggedScalarSingle x[], PetscBool add, PetscJaggedScalarSingle y[])
{
  PetscFunctionBegin;
  PetscAssert(!add, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A DIA block is a diagonal block: y = A x");
  for (PetscInt i = 0; i < c->nrows; i++) {
    PetscJaggedScalarSingle sum = 0;

    for (PetscInt d = 0; d < c->ndiag; d++) {
      const PetscInt col = i + c->offset[d];

      if (col >= 0 && col < c->ncols) sum += c->a[d * c->nrows + i] * x[col];
    }
    y[i] = sum;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSingleDIADescribe(const MatSingleBlock *c, const char *unit, char line[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(line, len, "DIA, %s values on %" PetscInt_FMT " diagonals, no column indices", unit, c->ndiag));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSingleDIADestroy(MatSingleBlock *c)
{
  PetscFunctionBegin;
  if (c->device) PetscCallCUDA(cudaFree(c->a));
  else PetscCall(PetscFree(c->a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the values, one array of nrows a diagonal: no index at all */
static size_t MatSingleDIABytes(const MatSingleBlock *c)
{
  return sizeof(PetscJaggedScalarSingle) * c->ndiag * c->nrows;
}

/* A host block's values again from B (same pattern) */
static PetscErrorCode MatSingleDIARefreshHost(MatSingleBlock *c, Mat B)
{
  const PetscInt *ai, *aj;
  PetscInt        m;
  PetscBool       done;

  PetscFunctionBegin;
  PetscAssert(!c->device, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A host block only");
  PetscCall(MatGetRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetRowIJ() failed on %s", ((PetscObject)B)->type_name);
  PetscCall(MatSingleDIAFillHost(B, ai, aj, c));
  PetscCall(MatRestoreRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const MatSingleBlockOps MatSingleBlockOpsDIA = {MatSingleDIAMultHost, MatSingleDIAMultDevice, MatSingleDIADescribe, MatSingleDIADestroy, MatSingleDIABytes, MatSingleDIARefreshHost};
