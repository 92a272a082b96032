/*
   The single-precision matrix's CSR blocks (MatSingleBlockOpsCSR): the CSR values of an AIJ block rounded to single precision and
   the product by a CSR kernel with a group of lanes per row (a power of two near half the mean row
   length), y = A x or, for the off-diagonal block of an MPI operator, y += A x; inside the inner loop the
   product also sums p'Ap and is skipped once the loop has stopped. A block without empty rows on the GPU
   keeps the matrix's own device row offsets and columns and is rounded in one kernel from the device
   values, so the set-up costs one pass over the values; a block with empty rows (the off-diagonal block:
   only the boundary rows have entries) stores its nonempty rows, made on the host. The host twin of the
   product is MatSingleCSRMultHost().
*/
#include <petscdevice_cuda.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <petscjagged/private/matsinglekernels.cuh>

namespace {

/*
  y[rows[r]] (+)= (A x)[r], VS lanes a stored row, in a grid-stride loop whose trips are the same for a whole
  warp (every lane takes part in the shuffles); unless *stopped: with dot, dot += p[rows[r]]' (A x)[r]
*/
template <int VS>
__global__ void CSRMultKernel(int n, const int *ia, const int *ja, const int *rows, const S *a, const S *x, bool add, S *y, const int *stopped, const S *p, D *dot)
{
  const long long groups = (long long)gridDim.x * blockDim.x / VS;
  const int       lane   = threadIdx.x % VS;
  D               py     = 0;

  if (stopped && *stopped) return; /* the inner loop has stopped: the product is not used */
  for (long long r0 = (blockIdx.x * (long long)blockDim.x + threadIdx.x - threadIdx.x % 32) / VS; r0 < n; r0 += groups) {
    const long long r   = r0 + (threadIdx.x % 32) / VS;
    S               sum = S(0);

    if (r < n) {
      const int end = jagged::gpu::LoadRO(ia + r + 1);
      for (int k = jagged::gpu::LoadRO(ia + r) + lane; k < end; k += VS) sum = jagged::gpu::MulAdd(jagged::gpu::LoadStream(a + k), jagged::gpu::LoadRO(x + jagged::gpu::LoadStream(ja + k)), sum);
    }
    for (int delta = VS / 2; delta > 0; delta /= 2) sum += jagged::gpu::ShuffleDown(sum, delta);
    if (r < n && lane == 0) {
      const int row = rows ? rows[r] : (int)r;
      y[row]        = add ? y[row] + sum : sum;
      if (dot) py += DotTerm(p[row], sum);
    }
  }
  if (dot) BlockSumTo(py, dot);
}

template <int VS>
void LaunchMult(const MatSingleBlock &c, const S *x, bool add, S *y, const int *stopped, const S *p, D *dot, cudaStream_t stream)
{
  CSRMultKernel<VS><<<JaggedBlocks(c.nrows * VS, kThreads, kMaxBlocks), kThreads, 0, stream>>>((int)c.nrows, c.i, c.j, c.rows, reinterpret_cast<const S *>(c.a), x, add, y, stopped, p, dot);
}

} // namespace

/*
  y (+)= A x for a CSR block, lanes a row about half the mean row length (measured on an H100, 7-point
  rows: 2 and 4 lanes 12% faster than 8, 1 lane slower); with dot, dot += p' (A x)
*/
static PetscErrorCode MatSingleCSRMultDevice(const MatSingleBlock *c, const PetscJaggedScalarSingle xs[], PetscBool add, PetscJaggedScalarSingle ys[], const int *stopped, const PetscJaggedScalarSingle ps[], PetscScalar *dots, cudaStream_t stream)
{
  const PetscInt mean = c->nrows ? c->nnz / c->nrows : 0;
  const S       *x = reinterpret_cast<const S *>(xs), *p = reinterpret_cast<const S *>(ps);
  S             *y   = reinterpret_cast<S *>(ys);
  D             *dot = reinterpret_cast<D *>(dots);

  PetscFunctionBegin;
  if (!c->nrows) PetscFunctionReturn(PETSC_SUCCESS);
  if (mean <= 4) LaunchMult<2>(*c, x, add, y, stopped, p, dot, stream);
  else if (mean <= 8) LaunchMult<4>(*c, x, add, y, stopped, p, dot, stream);
  else if (mean <= 16) LaunchMult<8>(*c, x, add, y, stopped, p, dot, stream);
  else if (mean <= 32) LaunchMult<16>(*c, x, add, y, stopped, p, dot, stream);
  else LaunchMult<32>(*c, x, add, y, stopped, p, dot, stream);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y[rows[r]] (+)= (A x)[r] for a CSR block on the host: the twin of MatSingleCSRMultDevice() */
static PetscErrorCode MatSingleCSRMultHost(const MatSingleBlock *c, const PetscJaggedScalarSingle x[], PetscBool add, PetscJaggedScalarSingle y[])
{
  PetscFunctionBegin;
  for (PetscInt r = 0; r < c->nrows; r++) {
    const PetscInt          row = c->rows ? c->rows[r] : r;
    PetscJaggedScalarSingle sum = 0;

    for (PetscInt k = c->i[r]; k < c->i[r + 1]; k++) sum += c->a[k] * x[c->j[k]];
    y[row] = add ? y[row] + sum : sum;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

namespace {

bool HasEmptyRow(PetscInt m, const PetscInt *ai)
{
  for (PetscInt r = 0; r < m; r++)
    if (ai[r + 1] == ai[r]) return true;
  return false;
}

/* The nonempty rows of B's host CSR, values in single precision, on the host or copied to the device */
PetscErrorCode CSRFromHost(Mat B, PetscInt m, const PetscInt *ai, const PetscInt *aj, PetscBool device, MatSingleBlock *c)
{
  const PetscScalar       *aa;
  PetscInt                *i, *j, *rows, n = 0;
  PetscJaggedScalarSingle *a;

  PetscFunctionBegin;
  for (PetscInt r = 0; r < m; r++) n += ai[r + 1] > ai[r];
  c->nrows = n;
  PetscCall(PetscMalloc4(n + 1, &i, PetscMax(c->nnz, 1), &j, PetscMax(n, 1), &rows, PetscMax(c->nnz, 1), &a));
  PetscCall(MatSeqAIJGetArrayRead(B, &aa));
  i[0] = 0;
  for (PetscInt r = 0, s = 0; r < m; r++) {
    if (ai[r + 1] == ai[r]) continue;
    for (PetscInt k = ai[r]; k < ai[r + 1]; k++) {
      j[i[s] + k - ai[r]] = aj[k];
      a[i[s] + k - ai[r]] = (PetscJaggedScalarSingle)aa[k];
    }
    rows[s]  = r;
    i[s + 1] = i[s] + ai[r + 1] - ai[r];
    s++;
  }
  PetscCall(MatSeqAIJRestoreArrayRead(B, &aa));
  if (!device) {
    c->i = i, c->j = j, c->rows = rows, c->a = a;
    c->store = i; /* i, j, rows, a: one PetscMalloc4() */
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  { /* one device allocation: i, j, rows, then the values */
    const size_t ni = (n + 1 + PetscMax(c->nnz, 1) + PetscMax(n, 1) + 1) / 2 * 2; /* the values 8-byte aligned */
    PetscInt    *d;

    PetscCallCUDA(cudaMalloc((void **)&d, sizeof(PetscInt) * ni + sizeof(PetscJaggedScalarSingle) * PetscMax(c->nnz, 1)));
    PetscCallCUDA(cudaMemcpy(d, i, sizeof(PetscInt) * (n + 1), cudaMemcpyHostToDevice));
    PetscCallCUDA(cudaMemcpy(d + n + 1, j, sizeof(PetscInt) * c->nnz, cudaMemcpyHostToDevice));
    PetscCallCUDA(cudaMemcpy(d + n + 1 + PetscMax(c->nnz, 1), rows, sizeof(PetscInt) * n, cudaMemcpyHostToDevice));
    c->i     = d;
    c->j     = d + n + 1;
    c->rows  = d + n + 1 + PetscMax(c->nnz, 1);
    c->a     = reinterpret_cast<PetscJaggedScalarSingle *>(d + ni);
    c->store = d;
    PetscCallCUDA(cudaMemcpy(c->a, a, sizeof(PetscJaggedScalarSingle) * c->nnz, cudaMemcpyHostToDevice));
    PetscCall(PetscLogCpuToGpu(sizeof(PetscInt) * ni + sizeof(PetscJaggedScalarSingle) * c->nnz));
  }
  PetscCall(PetscFree4(i, j, rows, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace

/*
  The CSR copy of the m x c->ncols block B (its host CSR ai, aj; c->nnz set), on the device or the host: B's
  own indices and the values rounded where B has no empty row (on the device: B a MATSEQAIJCUSPARSE), else
  its nonempty rows (on the device: also those of a host B, all of them, copied up)
*/
PetscErrorCode MatSingleCSRCreate(Mat B, PetscInt m, const PetscInt *ai, const PetscInt *aj, PetscBool device, MatSingleBlock *c)
{
  PetscBool cusparse;

  PetscFunctionBegin;
  c->format = PCSPCG_FORMAT_CSR;
  c->ops    = &MatSingleBlockOpsCSR;
  PetscCall(PetscObjectTypeCompare((PetscObject)B, MATSEQAIJCUSPARSE, &cusparse));
  if (HasEmptyRow(m, ai) || (device && !cusparse)) PetscCall(CSRFromHost(B, m, ai, aj, device, c));
  else if (device) { /* device indices as they are (without empty rows AIJCUSPARSE does not compress them) */
    const PetscInt *di, *dj;
    PetscScalar    *da;
    cudaStream_t    stream;

    PetscCall(DeviceCSR(B, &di, &dj, &da));
    c->nrows = m;
    c->i     = di;
    c->j     = dj;
    PetscCallCUDA(cudaMalloc((void **)&c->a, sizeof(S) * PetscMax(c->nnz, 1)));
    c->store = NULL;
    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCall(ToSingleDevice((size_t)c->nnz, da, c->a, stream));
  } else { /* host indices as they are */
    const PetscScalar *aa;

    c->nrows = m;
    c->i     = ai;
    c->j     = aj;
    PetscCall(PetscMalloc1(PetscMax(c->nnz, 1), &c->a));
    PetscCall(MatSeqAIJGetArrayRead(B, &aa));
    for (PetscInt k = 0; k < c->nnz; k++) c->a[k] = (PetscJaggedScalarSingle)aa[k];
    PetscCall(MatSeqAIJRestoreArrayRead(B, &aa));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

namespace {

/* rowof[k] = the matrix row of entry k of a CSR block (rows: the stored rows' matrix rows, or NULL) */
__global__ void RowOfKernel(int n, const int *ia, const int *rows, int *rowof)
{
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < n; r += gridDim.x * blockDim.x)
    for (int k = ia[r]; k < ia[r + 1]; k++) rowof[k] = rows ? rows[r] : r;
}

/* seq[k] = k */
__global__ void SequenceKernel(int nnz, int *seq)
{
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < nnz; k += gridDim.x * blockDim.x) seq[k] = k;
}

/* counts[c + 1] = the entries in column c (counts zero on entry) */
__global__ void ColumnCountKernel(int nnz, const int *ja, int *counts)
{
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < nnz; k += gridDim.x * blockDim.x) atomicAdd(counts + ja[k] + 1, 1);
}

/* entry t of the transpose is entry perm[t] of the block */
__global__ void TransposeGatherKernel(int nnz, const int *perm, const int *rowof, const S *a, int *tj, S *ta)
{
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < nnz; t += gridDim.x * blockDim.x) {
    tj[t] = rowof[perm[t]];
    ta[t] = a[perm[t]];
  }
}

/*
  The arrays of t, the transpose of the device CSR block c (t's sizes set): the entries sorted by column with a stable radix sort, so
  that each row of t lists c's rows in ascending order, as CSRTransposeHost() does
*/
PetscErrorCode CSRTransposeDevice(const MatSingleBlock *c, MatSingleBlock *t)
{
  const int    nnz = (int)c->nnz, nt = (int)c->ncols;
  const size_t ni  = (nt + 1 + PetscMax(nnz, 1) + 1) / 2 * 2; /* the values 8-byte aligned */
  int         *d, *work, *seq, *perm, *rowof;
  unsigned    *keys;
  void        *temp = NULL;
  size_t       bytes = 0, scanbytes = 0;
  int          endbit = 1;
  cudaStream_t stream;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  while (endbit < 31 && (1 << endbit) < nt) endbit++;
  PetscCallCUDA(cudaMalloc((void **)&d, sizeof(int) * ni + sizeof(S) * PetscMax(nnz, 1))); /* t's i, j, then values */
  t->i      = d;
  t->j      = d + nt + 1;
  t->a      = reinterpret_cast<PetscJaggedScalarSingle *>(d + ni);
  t->store  = d;
  PetscCallCUDA(cudaMemsetAsync(d, 0, sizeof(int) * (nt + 1), stream));
  if (nnz) {
    PetscCallCUDA(cub::DeviceRadixSort::SortPairs(NULL, bytes, (const unsigned *)NULL, (unsigned *)NULL, (const int *)NULL, (int *)NULL, nnz, 0, endbit, stream));
    PetscCallCUDA(cub::DeviceScan::InclusiveSum(NULL, scanbytes, (int *)NULL, nt + 1, stream));
    bytes = PetscMax(bytes, scanbytes);
    PetscCallCUDA(cudaMallocAsync((void **)&work, sizeof(int) * 4 * (size_t)nnz + bytes, stream));
    keys  = reinterpret_cast<unsigned *>(work);
    perm  = work + nnz;
    rowof = work + 2 * (size_t)nnz;
    seq   = work + 3 * (size_t)nnz;
    temp  = work + 4 * (size_t)nnz;
    SequenceKernel<<<JaggedBlocks(nnz, kThreads, kMaxBlocks), kThreads, 0, stream>>>(nnz, seq);
    PetscCallCUDA(cudaGetLastError());
    PetscCallCUDA(cub::DeviceRadixSort::SortPairs(temp, bytes, reinterpret_cast<const unsigned *>(c->j), keys, seq, perm, nnz, 0, endbit, stream)); /* perm: the entries in column order (stable) */
    ColumnCountKernel<<<JaggedBlocks(nnz, kThreads, kMaxBlocks), kThreads, 0, stream>>>(nnz, c->j, d);
    PetscCallCUDA(cudaGetLastError());
    PetscCallCUDA(cub::DeviceScan::InclusiveSum(temp, bytes, d, nt + 1, stream)); /* t's row offsets */
    RowOfKernel<<<JaggedBlocks(c->nrows, kThreads, kMaxBlocks), kThreads, 0, stream>>>((int)c->nrows, c->i, c->rows, rowof);
    PetscCallCUDA(cudaGetLastError());
    TransposeGatherKernel<<<JaggedBlocks(nnz, kThreads, kMaxBlocks), kThreads, 0, stream>>>(nnz, perm, rowof, reinterpret_cast<const S *>(c->a), d + nt + 1, reinterpret_cast<S *>(t->a));
    PetscCallCUDA(cudaGetLastError());
    PetscCallCUDA(cudaFreeAsync(work, stream));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The arrays of t, the transpose of the host CSR block c (t's sizes set): a counting sort by column, each row of t in c's row order; the twin of CSRTransposeDevice() */
PetscErrorCode CSRTransposeHost(const MatSingleBlock *c, MatSingleBlock *t)
{
  const PetscInt           nnz = c->nnz, nt = c->ncols;
  PetscInt                *i, *j, *next;
  PetscJaggedScalarSingle *a;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(nt + 1, &i, PetscMax(nnz, 1), &j, PetscMax(nnz, 1), &a));
  t->i      = i;
  t->j      = j;
  t->a      = a;
  t->store  = i; /* i, j, a: one PetscMalloc3(), no rows */
  PetscCall(PetscArrayzero(i, nt + 1));
  for (PetscInt k = 0; k < nnz; k++) i[c->j[k] + 1]++;
  for (PetscInt r = 0; r < nt; r++) i[r + 1] += i[r];
  PetscCall(PetscMalloc1(nt + 1, &next));
  PetscCall(PetscArraycpy(next, i, nt + 1));
  for (PetscInt r = 0; r < c->nrows; r++) {
    const PetscInt row = c->rows ? c->rows[r] : r;

    for (PetscInt k = c->i[r]; k < c->i[r + 1]; k++) {
      const PetscInt at = next[c->j[k]]++;

      j[at] = row;
      a[at] = c->a[k];
    }
  }
  PetscCall(PetscFree(next));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace

/* The transpose t of the CSR block c of a matrix of m rows, in c's memory: a CSR block of all c->ncols rows */
PetscErrorCode MatSingleCSRTranspose(const MatSingleBlock *c, PetscInt m, MatSingleBlock *t)
{
  PetscFunctionBegin;
  PetscCheck(c->format == PCSPCG_FORMAT_CSR, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A CSR block only");
  PetscCall(PetscMemzero(t, sizeof(*t)));
  t->format = PCSPCG_FORMAT_CSR;
  t->ops    = &MatSingleBlockOpsCSR;
  t->device = c->device;
  t->nrows  = c->ncols;
  t->ncols  = m;
  t->nnz    = c->nnz;
  if (c->device) PetscCall(CSRTransposeDevice(c, t));
  else PetscCall(CSRTransposeHost(c, t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSingleCSRDestroy(MatSingleBlock *c)
{
  PetscFunctionBegin;
  if (c->device) {
    if (c->store) PetscCallCUDA(cudaFree(c->store)); /* the values too */
    else if (c->a) PetscCallCUDA(cudaFree(c->a));
  } else if (c->store && c->rows) PetscCall(PetscFree4(c->store, c->j, c->rows, c->a));
  else if (c->store) PetscCall(PetscFree3(c->store, c->j, c->a)); /* a transpose (MatSingleCSRTranspose()) */
  else PetscCall(PetscFree(c->a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSingleCSRDescribe(const MatSingleBlock *c, const char *unit, char line[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(line, len, "CSR, %s values with the operator's own indices", unit));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* values, columns, row offsets and, for a block of its nonempty rows, their rows (the matrix's own indices counted too) */
static size_t MatSingleCSRBytes(const MatSingleBlock *c)
{
  return sizeof(PetscJaggedScalarSingle) * c->nnz + sizeof(PetscInt) * (c->nnz + c->nrows + 1 + (c->rows ? c->nrows : 0));
}

/* A host block's values again from B (same pattern): B's values in order, those of its nonempty rows, which are all of them */
static PetscErrorCode MatSingleCSRRefreshHost(MatSingleBlock *c, Mat B)
{
  const PetscScalar *aa;

  PetscFunctionBegin;
  PetscAssert(!c->device, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A host block only");
  PetscCall(MatSeqAIJGetArrayRead(B, &aa));
  for (PetscInt k = 0; k < c->nnz; k++) c->a[k] = (PetscJaggedScalarSingle)aa[k];
  PetscCall(MatSeqAIJRestoreArrayRead(B, &aa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const MatSingleBlockOps MatSingleBlockOpsCSR = {MatSingleCSRMultHost, MatSingleCSRMultDevice, MatSingleCSRDescribe, MatSingleCSRDestroy, MatSingleCSRBytes, MatSingleCSRRefreshHost};
