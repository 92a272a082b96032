/*
   PCSPCG's single-precision copy of an AIJ operator (MATSEQAIJ(CUSPARSE), or the diagonal and
   off-diagonal blocks of MATMPIAIJ(CUSPARSE)): the CSR values rounded to single precision and the
   product by a CSR kernel with a group of lanes per row (a power of two near half the mean row length),
   or, when the (diagonal) block's entries lie on few diagonals, its DIA copy (spcgdia.cu). Inside the
   inner loop the product also sums p'Ap and is skipped once the loop has stopped.
   A block without empty rows on the GPU keeps the matrix's own device row offsets and columns and is
   rounded in one kernel from the device values, so the set-up costs one pass over the values; a block
   with empty rows (the off-diagonal block: only the boundary rows have entries) stores its nonempty
   rows, made on the host. On several processes the ghost values of x cross in single precision through
   the matrix's own halo exchange, overlapped with the diagonal block's product. The host twin is
   SPCGMultSingle() in spcg.c.
*/
#include <petscdevice_cuda.h>
#include "spcgkernels.cuh"

namespace {

__global__ void RoundKernel(PetscInt nnz, const D *a, S *as)
{
  for (PetscInt k = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; k < nnz; k += (PetscInt)gridDim.x * blockDim.x) {
#if defined(PETSC_USE_COMPLEX)
    as[k] = S((float)a[k].real(), (float)a[k].imag());
#else
    as[k] = (float)a[k];
#endif
  }
}

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
void LaunchMult(const PCSPCGBlock &c, const S *x, bool add, S *y, const int *stopped, const S *p, D *dot, cudaStream_t stream)
{
  CSRMultKernel<VS><<<BlocksFor(c.nrows * VS), kThreads, 0, stream>>>((int)c.nrows, c.i, c.j, c.rows, reinterpret_cast<const S *>(c.a), x, add, y, stopped, p, dot);
}

/*
  y (+)= A x for one block: DIA, or CSR with lanes a row about half the mean row length (measured on an
  H100, 7-point rows: 2 and 4 lanes 12% faster than 8, 1 lane slower); with dot, dot += p' (A x)
*/
PetscErrorCode BlockMult(const PCSPCGBlock &c, const S *x, bool add, S *y, const int *stopped, const S *p, D *dot, cudaStream_t stream)
{
  const PetscInt mean = c.nrows ? c.nnz / c.nrows : 0;

  PetscFunctionBegin;
  if (!c.nrows) PetscFunctionReturn(PETSC_SUCCESS);
  if (c.ndiag) { /* only a diagonal block: y = A x, p = x */
    PetscCall(PCSPCGDIAMultDevice(&c, reinterpret_cast<const PetscJaggedScalarSingle *>(x), reinterpret_cast<PetscJaggedScalarSingle *>(y), stopped, reinterpret_cast<PetscScalar *>(dot), stream));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (c.jagged) { /* likewise */
    PetscCall(PCSPCGJaggedMultDevice(&c, reinterpret_cast<const PetscJaggedScalarSingle *>(x), reinterpret_cast<PetscJaggedScalarSingle *>(y), stopped, reinterpret_cast<PetscScalar *>(dot), stream));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (mean <= 4) LaunchMult<2>(c, x, add, y, stopped, p, dot, stream);
  else if (mean <= 8) LaunchMult<4>(c, x, add, y, stopped, p, dot, stream);
  else if (mean <= 16) LaunchMult<8>(c, x, add, y, stopped, p, dot, stream);
  else if (mean <= 32) LaunchMult<16>(c, x, add, y, stopped, p, dot, stream);
  else LaunchMult<32>(c, x, add, y, stopped, p, dot, stream);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

bool HasEmptyRow(PetscInt m, const PetscInt *ai)
{
  for (PetscInt r = 0; r < m; r++)
    if (ai[r + 1] == ai[r]) return true;
  return false;
}

/* The nonempty rows of B's host CSR, values in single precision, on the host or copied to the device */
PetscErrorCode CSRFromHost(Mat B, PetscInt m, const PetscInt *ai, const PetscInt *aj, PetscBool device, PCSPCGBlock *c)
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
  The single-precision copy of B (a MATSEQAIJ, or MATSEQAIJCUSPARSE with device), on the device or on
  the host: DIA when format allows and it pays, else pJDS (auto, pjds), else CSR: B's own indices and the
  values rounded where B has no empty row, else its nonempty rows
*/
static PetscErrorCode PCSPCGBlockCreate(Mat B, PetscBool device, PCSPCGFormat format, PCSPCGBlock *c)
{
  const PetscInt *ai, *aj;
  PetscInt        m;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  c->device = device;
  PetscCall(MatGetRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetRowIJ() failed on %s", ((PetscObject)B)->type_name);
  c->nnz = ai[m];
  PetscCall(MatGetSize(B, NULL, &c->ncols));
  PetscCall(PCSPCGDIACreate(B, m, ai, aj, device, format, c));
  if (c->ndiag) PetscCall(PetscInfo(B, "Single-precision copy in DIA format: %" PetscInt_FMT " diagonals\n", c->ndiag));
  else if (format == PCSPCG_FORMAT_AUTO || format == PCSPCG_FORMAT_PJDS) {
    PetscCall(PCSPCGJaggedCreate(B, m, ai, aj, device, c));
    PetscCall(PetscInfo(B, "Single-precision copy in pJDS format: %" PetscCount_FMT " stored entries for %" PetscInt_FMT " nonzeros\n", PCSPCGJaggedSlots(c), c->nnz));
  } else if (HasEmptyRow(m, ai)) PetscCall(CSRFromHost(B, m, ai, aj, device, c));
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
    RoundKernel<<<(unsigned)PetscMin(PetscMax((c->nnz + kThreads - 1) / kThreads, 1), 65535), kThreads, 0, stream>>>(c->nnz, reinterpret_cast<const D *>(da), reinterpret_cast<S *>(c->a));
    PetscCallCUDA(cudaGetLastError());
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
  PetscCall(MatRestoreRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGBlockDestroy(PCSPCGBlock *c)
{
  PetscFunctionBegin;
  if (c->jagged) PetscCall(PCSPCGJaggedDestroy(c));
  else if (c->device) {
    if (c->store) PetscCallCUDA(cudaFree(c->store)); /* the values too */
    else if (c->a) PetscCallCUDA(cudaFree(c->a));
  } else if (c->store) PetscCall(PetscFree4(c->store, c->j, c->rows, c->a));
  else PetscCall(PetscFree(c->a));
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The single-precision CSR copy of an AIJ operator: of P itself, or of the diagonal and off-diagonal
  blocks of an MPI P with the ghost buffer its halo exchange fills
*/
PetscErrorCode PCSPCGCSRSetUp(PC pc, Mat P, PetscBool mpi, PetscBool gpu)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;
  Mat      Ad = P, Ao = NULL;

  PetscFunctionBegin;
  if (mpi) {
    PetscCall(MatMPIAIJGetSeqAIJ(P, &Ad, &Ao, NULL));
    PetscSF sf;

    PetscCall(MatGetMultPetscSF(P, &sf));
    PetscCall(JaggedHaloCreate(sf, sizeof(PetscJaggedScalarSingle), gpu, s->exchange, &s->halo));
    PetscCall(MatGetLocalSize(Ao, NULL, &s->nghosts));
    if (gpu) PetscCallCUDA(cudaMalloc((void **)&s->ghosts, sizeof(PetscJaggedScalarSingle) * PetscMax(s->nghosts, 1)));
    else PetscCall(PetscMalloc1(PetscMax(s->nghosts, 1), &s->ghosts));
    PetscCall(PCSPCGBlockCreate(Ao, gpu, PCSPCG_FORMAT_CSR, &s->csr[1]));
  }
  PetscCall(PCSPCGBlockCreate(Ad, gpu, s->format, &s->csr[0]));
  s->hascsr = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCSPCGCSRReset(PC pc)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  if (s->csr[0].device) PetscCallCUDA(cudaFree(s->ghosts));
  else PetscCall(PetscFree(s->ghosts));
  for (PetscInt b = 0; b < 2; b++) PetscCall(PCSPCGBlockDestroy(&s->csr[b]));
  s->ghosts  = NULL;
  s->nghosts = 0;
  s->hascsr  = PETSC_FALSE;
  PetscCall(JaggedHaloDestroy(&s->halo));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_INTERN PetscErrorCode PCSPCGCSRMultDevice(PC, const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[], const int *, PetscScalar *, cudaStream_t);

/*
  y = A x in single precision on stream (one process: capturable into a CUDA graph); several: the ghosts
  cross during the diagonal block's product. Unless *stopped (device memory, may be NULL): with dot
  (device memory, may be NULL), dot += x'y.
*/
PetscErrorCode PCSPCGCSRMultDevice(PC pc, const PetscJaggedScalarSingle x[], PetscJaggedScalarSingle y[], const int *stopped, PetscScalar *dot, cudaStream_t stream)
{
  PC_SPCG *s  = (PC_SPCG *)pc->data;
  const S *xs = reinterpret_cast<const S *>(x);
  D       *ds = reinterpret_cast<D *>(dot);

  PetscFunctionBegin;
  if (s->halo) PetscCall(JaggedHaloBegin(s->halo, x, stream));
  PetscCall(BlockMult(s->csr[0], xs, false, reinterpret_cast<S *>(y), stopped, xs, ds, stream));
  if (s->halo) {
    PetscCall(JaggedHaloEnd(s->halo, s->ghosts, stream));
    PetscCall(BlockMult(s->csr[1], reinterpret_cast<const S *>(s->ghosts), true, reinterpret_cast<S *>(y), stopped, xs, ds, stream));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
