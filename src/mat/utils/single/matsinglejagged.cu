/*
   The single-precision matrix's pJDS copy of an AIJ operator's (diagonal) block in single precision (-pc_spcg_format pjds, and
   auto where DIA does not pay): the padded jagged-diagonal format of MATPJDSCUDA built from the block's CSR
   pattern, its values gathered into the slots and rounded, and the product by MATPJDSCUDA's kernel. On the
   GPU the format is built from the device CSR that MATSEQAIJCUSPARSE already holds (jaggedbuild.cu: no host
   pass over the entries, nothing uploaded) and the values are gathered from its device values; on the host
   (the twin) by BuildFormat() and FillValues(), the product by the host jagged kernel. A single-precision
   product then moves 4 bytes of value and 4 of column an entry, at the jagged kernel's bandwidth.

   Half storage (real scalars, PCSPCGSetStorage()): the values are those of S = D^{-1/2} A D^{-1/2}, D = |diag(A)| (1 where
   a row has no or a zero diagonal entry), rounded to IEEE half: entries of order one (|S_ij| <= 1 for a symmetric positive
   definite A), 2 bytes a value. The diagonal of S is kept apart in single precision, and takes what rounding changed in
   its row's other entries, so that S's row sums are kept (a Laplacian's low modes; bench/halfmodel.py): its slot stores
   zero. The product is y = D^{1/2} (S_offdiag + diag) (D^{1/2} x), the scalings and the diagonal in two passes over the
   vectors around the jagged kernel, arithmetic in single precision. Entries that half stores with fewer bits (subnormal)
   or as zero are counted and shown by the view; one beyond half's range is an error.
*/
#include <petscdevice_cuda.h>
#include <petscjagged/private/matsinglekernels.cuh>
#include <petscjagged/private/jaggedbuild.cuh>
#include <petscjagged/private/jaggedhost.hpp>

#include <new>

struct _n_MatSingleJagged {
  jagged::Format             format;            /* the whole format on the host; on the device its summary */
  jagged::gpu::DeviceFormat *dformat = nullptr; /* the device arrays */
  jagged::Half              *half    = nullptr; /* half storage: the values of S, else NULL (the block's a holds the single ones) */
  float                     *scale   = nullptr; /* half storage: D^{1/2}, a row */
  float                     *xs      = nullptr; /* half storage: D^{1/2} x, the product's scratch */
  float                     *diag    = nullptr; /* half storage: S's diagonal plus the rounding of its row's other entries, a row */
  PetscCount                 nsubnormal = 0, nzeroed = 0; /* half storage: nonzero entries of S stored subnormal, and stored as zero */
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

#if !defined(PETSC_USE_COMPLEX)
/* The scaling of row r of a CSR block: the square root of |A(r, r)|, 1 where the row has no or a zero diagonal entry */
__host__ __device__ inline double RowScale(PetscInt r, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa)
{
  for (PetscInt k = ai[r]; k < ai[r + 1]; k++)
    if (aj[k] == r && aa[k] != 0.0) return sqrt(fabs(aa[k]));
  return 1.0;
}

/* Counts of S's entries as half stores them: [0] subnormal, [1] nonzero stored as zero, [2] beyond half's range */
__host__ __device__ inline int HalfClass(double v)
{
  const double a = fabs(v);
  return a >= 65520.0 ? 2 : a != 0.0 && a <= 0x1p-25 ? 1 : a != 0.0 && a < jagged::kHalfMinNormal ? 0 : -1;
}

/* d[r] = RowScale(r), and in single precision dscale[r] */
__global__ void RowScaleKernel(int m, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, double *d, float *dscale)
{
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < m; r += gridDim.x * blockDim.x) {
    d[r]      = RowScale(r, ai, aj, aa);
    dscale[r] = (float)d[r];
  }
}

/* v as half stores it, widened to double: CUDA's rounding on the device, its host twin jagged::Half on the host */
__host__ __device__ inline double HalfRounded(double v)
{
#if defined(__CUDA_ARCH__)
  return (double)__half2float(__double2half(v));
#else
  return (double)(float)jagged::Half(v);
#endif
}

/*
  Row r of S, aa[k] / (d[r] d[column]), in double into sval, its diagonal slot 0, and sdiag[r] = S(r, r) plus what rounding to half
  changes in the row's other entries (the row sum kept); the other entries classified into counts
*/
__host__ __device__ inline void ScaledRow(PetscInt r, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const double *d, double *sval, float *sdiag, unsigned long long *counts)
{
  double dg = 0, lost = 0;

  for (PetscInt k = ai[r]; k < ai[r + 1]; k++) {
    const double v = PetscRealPart(aa[k]) / (d[r] * d[aj[k]]);

    if (aj[k] == r) {
      dg      = v;
      sval[k] = 0;
      continue;
    }
    const int c = HalfClass(v);

    sval[k] = v;
    lost += v - HalfRounded(v);
    if (c >= 0) counts[c]++;
  }
  sdiag[r] = (float)(dg + lost);
}

/*
  ScaledRow() over the rows, each thread counting into its own registers and a warp adding its counts to counts[] once: an atomic an
  entry serialised on the three counters (21.9 M entries of elasticity's matrix stored as zero took 18 ms)
*/
__global__ void ScaledEntriesKernel(int m, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const double *d, double *sval, float *sdiag, unsigned long long *counts)
{
  unsigned long long mine[3] = {0, 0, 0};

  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < m; r += gridDim.x * blockDim.x) ScaledRow(r, ai, aj, aa, d, sval, sdiag, mine);
  for (int c = 0; c < 3; c++) {
    for (int delta = 16; delta > 0; delta /= 2) mine[c] += __shfl_down_sync(0xffffffffu, mine[c], delta);
    if (threadIdx.x % 32 == 0 && mine[c]) atomicAdd(counts + c, mine[c]);
  }
}

/* xs = D^{1/2} x, unless *stopped */
__global__ void ScaleInKernel(int n, const float *scale, const float *x, float *xs, const int *stopped)
{
  if (stopped && *stopped) return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) xs[i] = scale[i] * x[i];
}

/* y = D^{1/2} (y + diag xs), unless *stopped; with dot, dot += p'y */
__global__ void ScaleOutKernel(int n, const float *scale, const float *sdiag, const float *xs, float *y, const float *p, const int *stopped, D *dot)
{
  D sum = 0;

  if (stopped && *stopped) return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    y[i] = scale[i] * (y[i] + sdiag[i] * xs[i]);
    if (dot) sum += DotTerm(p[i], y[i]);
  }
  if (dot) BlockSumTo(sum, dot);
}
#endif

} // namespace

#if !defined(PETSC_USE_COMPLEX)
/*
  The half values of the pJDS copy c of the m x m block B (its CSR ai, aj, aa: device arrays where c is on the device): S's entries,
  their counts, the kept diagonal, and D^{1/2}; the host loops are the twins of RowScaleKernel() and ScaledEntriesKernel()
*/
static PetscErrorCode MatSingleJaggedFillHalf(MatSingleBlock *c, PetscInt m, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa)
{
  MatSingleJagged    jg = c->jagged;
  unsigned long long counts[3] = {0, 0, 0};

  PetscFunctionBegin;
  PetscCheck(c->ncols == m, PETSC_COMM_SELF, PETSC_ERR_SUP, "Half storage scales a square block symmetrically: %" PetscInt_FMT " rows, %" PetscInt_FMT " columns", m, c->ncols);
  if (c->device) {
    double             *sval, *d;
    unsigned long long *dcounts;
    cudaStream_t        stream;
    const unsigned      nb = JaggedBlocks(m, kThreads, kMaxBlocks);

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCallCUDA(cudaMallocAsync((void **)&sval, sizeof(double) * (PetscMax(c->nnz, 1) + m) + sizeof(counts), stream));
    d       = sval + PetscMax(c->nnz, 1);
    dcounts = reinterpret_cast<unsigned long long *>(d + m);
    PetscCallCUDA(cudaMemsetAsync(dcounts, 0, sizeof(counts), stream));
    RowScaleKernel<<<nb, kThreads, 0, stream>>>((int)m, ai, aj, aa, d, jg->scale);
    PetscCallCUDA(cudaGetLastError());
    ScaledEntriesKernel<<<nb, kThreads, 0, stream>>>((int)m, ai, aj, aa, d, sval, jg->diag, dcounts);
    PetscCallCUDA(cudaGetLastError());
    PetscCallCUDA(jagged::gpu::RefreshValues(*jg->dformat, sval, jg->half, stream));
    PetscCallCUDA(cudaMemcpyAsync(counts, dcounts, sizeof(counts), cudaMemcpyDeviceToHost, stream));
    PetscCallCUDA(cudaFreeAsync(sval, stream));
    PetscCallCUDA(cudaStreamSynchronize(stream));
  } else {
    double *sval, *d;

    PetscCall(PetscMalloc2(PetscMax(c->nnz, 1), &sval, PetscMax(m, 1), &d));
    for (PetscInt r = 0; r < m; r++) {
      d[r]         = RowScale(r, ai, aj, aa);
      jg->scale[r] = (float)d[r];
    }
    for (PetscInt r = 0; r < m; r++) ScaledRow(r, ai, aj, aa, d, sval, jg->diag, counts);
    jagged::FillValues(jg->format, sval, jg->half);
    PetscCall(PetscFree2(sval, d));
  }
  PetscCheck(!counts[2], PETSC_COMM_SELF, PETSC_ERR_FP, "Half storage: %llu entries of the block scaled by its diagonal are beyond half precision's range (65504): use -pc_spcg_storage single", counts[2]);
  jg->nsubnormal = (PetscCount)counts[0];
  jg->nzeroed    = (PetscCount)counts[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/*
  The block options of the pJDS copy of B (m x ncols): B's block size, from 2 to jagged::kMaxBlockSize, where it divides the rows
  and columns, the build keeping blocks where dense blocks of the stored values (single or half precision) pay (jagged::BlocksPay())
*/
static PetscErrorCode MatSingleJaggedBlockOptions(Mat B, PetscInt m, PetscInt ncols, PetscBool half, jagged::Options *options)
{
  PetscInt rbs, cbs;

  PetscFunctionBegin;
  options->block_auto_bytes = half ? (int)sizeof(jagged::Half) : (int)sizeof(PetscJaggedScalarSingle);
  PetscCall(MatGetBlockSizes(B, &rbs, &cbs));
  if (rbs == cbs && rbs >= 2 && rbs <= jagged::kMaxBlockSize && !(m % rbs) && !(ncols % rbs)) options->block_size = (int)rbs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The pJDS copy of the m x c->ncols block B (its host CSR ai, aj), in single precision (half: its values in half precision, scaled
  symmetrically by the diagonal; real scalars), of blocks where they move fewer bytes: on the device from B's device CSR (B a
  MATSEQAIJCUSPARSE), or on the host
*/
PetscErrorCode MatSingleJaggedCreate(Mat B, PetscInt m, const PetscInt *ai, const PetscInt *aj, PetscBool device, PetscBool half, MatSingleBlock *c)
{
  MatSingleJagged jg;
  jagged::Status  st;
  jagged::Options options;

  PetscFunctionBegin;
#if defined(PETSC_USE_COMPLEX)
  half = PETSC_FALSE; /* complex scalars keep single storage */
#endif
  PetscCall(MatSingleJaggedBlockOptions(B, m, c->ncols, half, &options));
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
    if (half) {
#if !defined(PETSC_USE_COMPLEX)
      PetscCallCUDA(cudaMalloc((void **)&jg->half, sizeof(jagged::Half) * PetscMax(jg->format.nslots, 1)));
      PetscCallCUDA(cudaMalloc((void **)&jg->scale, sizeof(float) * 3 * PetscMax(m, 1)));
      jg->xs   = jg->scale + PetscMax(m, 1);
      jg->diag = jg->xs + PetscMax(m, 1);
      PetscCall(MatSingleJaggedFillHalf(c, m, di, dj, da));
#endif
    } else {
      PetscCallCUDA(cudaMalloc((void **)&c->a, sizeof(S) * PetscMax(jg->format.nslots, 1)));
      PetscCallCUDA(jagged::gpu::RefreshValues(*jg->dformat, reinterpret_cast<const MatJaggedHostScalar *>(da), reinterpret_cast<MatJaggedHostSingle *>(c->a), stream));
    }
  } else {
    const PetscScalar *aa;

    st = jagged::BuildFormat((int)m, (int)c->ncols, ai, aj, options, &jg->format);
    PetscCall(CheckStatus(st, cudaSuccess));
    PetscCall(MatSeqAIJGetArrayRead(B, &aa));
    if (half) {
#if !defined(PETSC_USE_COMPLEX)
      PetscCall(PetscMalloc1(PetscMax(jg->format.nslots, 1), &jg->half));
      PetscCall(PetscMalloc1(3 * PetscMax(m, 1), &jg->scale));
      jg->xs   = jg->scale + PetscMax(m, 1);
      jg->diag = jg->xs + PetscMax(m, 1);
      PetscCall(MatSingleJaggedFillHalf(c, m, ai, aj, aa));
#endif
    } else {
      PetscCall(PetscMalloc1(PetscMax(jg->format.nslots, 1), &c->a));
      jagged::FillValues(jg->format, reinterpret_cast<const MatJaggedHostScalar *>(aa), reinterpret_cast<MatJaggedHostSingle *>(c->a));
    }
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
    PetscCallCUDA(cudaFree(jg->half));
    PetscCallCUDA(cudaFree(jg->scale)); /* and xs, diag */
  } else {
    PetscCall(PetscFree(c->a));
    PetscCall(PetscFree(jg->half));
    PetscCall(PetscFree(jg->scale));
  }
  delete jg;
  c->jagged = NULL;
  c->a      = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The storage: the entries the copy stores, padding included, the layout, and the bytes a nonzero of a product (values and column indices) */
static PetscErrorCode MatSingleJaggedDescribe(const MatSingleBlock *c, const char *unit, char line[], size_t len)
{
  const jagged::Format &f  = c->jagged->format;
  MatSingleJagged       jg = c->jagged;
  char                  layout[64], values[256];

  PetscFunctionBegin;
  if (f.bs > 1) PetscCall(PetscSNPrintf(layout, sizeof(layout), "dense %d x %d blocks with a 4-byte column each", f.bs, f.bs));
  else PetscCall(PetscSNPrintf(layout, sizeof(layout), "4-byte columns"));
  if (jg->half) PetscCall(PetscSNPrintf(values, sizeof(values), "half-precision values of the block scaled by its diagonal (%" PetscCount_FMT " stored subnormal, %" PetscCount_FMT " as zero; the diagonal in single precision, row sums kept)", jg->nsubnormal, jg->nzeroed));
  else PetscCall(PetscSNPrintf(values, sizeof(values), "%s values", unit));
  PetscCall(PetscSNPrintf(line, len, "pJDS, %" PetscCount_FMT " stored entries for %" PetscInt_FMT " nonzeros, %s and %s, %.2f bytes a nonzero", (PetscCount)f.nslots, c->nnz, values, layout, jagged::GetStats(f, jg->half ? sizeof(jagged::Half) : sizeof(PetscJaggedScalarSingle)).product_bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x for a pJDS block on the host (a diagonal block: never add): the twin of MatSingleJaggedMultDevice() */
static PetscErrorCode MatSingleJaggedMultHost(const MatSingleBlock *c, const PetscJaggedScalarSingle x[], PetscBool add, PetscJaggedScalarSingle y[])
{
  MatSingleJagged jg = c->jagged;

  PetscFunctionBegin;
  PetscAssert(!add, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A pJDS block is a diagonal block: y = A x");
#if !defined(PETSC_USE_COMPLEX)
  if (jg->half) { /* y = D^{1/2} (S_offdiag + diag) (D^{1/2} x): the twin of ScaleInKernel(), the jagged kernel and ScaleOutKernel() */
    for (PetscInt i = 0; i < c->nrows; i++) jg->xs[i] = jg->scale[i] * x[i];
    jagged::host::Mult(jg->format, jg->half, jg->xs, y);
    for (PetscInt i = 0; i < c->nrows; i++) y[i] = jg->scale[i] * (y[i] + jg->diag[i] * jg->xs[i]);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  jagged::host::Mult(jg->format, reinterpret_cast<const MatJaggedHostSingle *>(c->a), reinterpret_cast<const MatJaggedHostSingle *>(x), reinterpret_cast<MatJaggedHostSingle *>(y));
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
#if !defined(PETSC_USE_COMPLEX)
  if (c->jagged->half) { /* y = D^{1/2} (S_offdiag + diag) (D^{1/2} x) */
    MatSingleJagged jg = c->jagged;
    const unsigned  nb = JaggedBlocks(c->nrows, kThreads, kMaxBlocks);

    ScaleInKernel<<<nb, kThreads, 0, stream>>>((int)c->nrows, jg->scale, x, jg->xs, stopped);
    PetscCallCUDA(cudaGetLastError());
    PetscCallCUDA(jagged::gpu::Mult(*jg->dformat, jg->half, jg->xs, y, stream));
    ScaleOutKernel<<<nb, kThreads, 0, stream>>>((int)c->nrows, jg->scale, jg->diag, jg->xs, y, x, stopped, reinterpret_cast<D *>(dot));
    PetscCallCUDA(cudaGetLastError());
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
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
  const MatSingleJagged jg = c->jagged;
  const jagged::Stats   st = jagged::GetStats(jg->format, jg->half ? sizeof(jagged::Half) : sizeof(PetscJaggedScalarSingle));

  return st.value_bytes + st.index_bytes + (jg->half ? 2 * sizeof(float) * c->nrows : 0); /* half: D^{1/2} and the diagonal too */
}

/* A host block's values again from B (same pattern): gathered into the slots */
static PetscErrorCode MatSingleJaggedRefreshHost(MatSingleBlock *c, Mat B)
{
  const PetscScalar *aa;

  PetscFunctionBegin;
  PetscAssert(!c->device, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A host block only");
  PetscCall(MatSeqAIJGetArrayRead(B, &aa));
#if !defined(PETSC_USE_COMPLEX)
  if (c->jagged->half) {
    const PetscInt *ai, *aj;
    PetscInt        m;
    PetscBool       done;

    PetscCall(MatGetRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetRowIJ() failed on %s", ((PetscObject)B)->type_name);
    PetscCall(MatSingleJaggedFillHalf(c, m, ai, aj, aa));
    PetscCall(MatRestoreRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  } else
#endif
    jagged::FillValues(c->jagged->format, reinterpret_cast<const MatJaggedHostScalar *>(aa), reinterpret_cast<MatJaggedHostSingle *>(c->a));
  PetscCall(MatSeqAIJRestoreArrayRead(B, &aa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const MatSingleBlockOps MatSingleBlockOpsPJDS = {MatSingleJaggedMultHost, MatSingleJaggedMultDevice, MatSingleJaggedDescribe, MatSingleJaggedDestroy, MatSingleJaggedBytes, MatSingleJaggedRefreshHost};
