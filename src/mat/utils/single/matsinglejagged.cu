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
   or as zero are counted and shown by the view; one beyond half's range is an error. Half storage of a scalar copy without
   long rows packs each value with its column's 16-bit distance from the row's previous one in one 32-bit word
   (jaggedpacked.hpp: 4 bytes a nonzero and the escapes, against 6 unpacked and 8 in single precision), the format built from
   the packed pattern.

   Auto storage (PCSPCG_STORAGE_AUTO) stores half where it pays and is safe, else single: the copy keeps dense blocks or is packed
   (a scalar pJDS product with 4-byte columns is no faster in half: its x gathers, not its values, bound it), every diagonal entry is positive, every
   scaled off-diagonal entry is at most 1 in magnitude (as a symmetric positive definite matrix's are), and no row loses to
   underflow (entries stored subnormal or as zero) more than half's unit roundoff of its diagonal. The view says which.
*/
#include <petscdevice_cuda.h>
#include <petscjagged/private/matsinglekernels.cuh>
#include <petscjagged/private/jaggedbuild.cuh>
#include <petscjagged/private/jaggedhost.hpp>
#include <petscjagged/private/jaggedpacked.hpp>
#include <petscjagged/private/jaggedtwin.h>

#include <new>

struct _n_MatSingleJagged {
  jagged::Format             format;            /* the whole format on the host; on the device its summary */
  jagged::gpu::DeviceFormat *dformat = nullptr; /* the device arrays */
  jagged::Half              *half    = nullptr; /* half storage: the values of S, else NULL (the block's a holds the single ones) */
  float                     *scale   = nullptr; /* half storage: D^{1/2}, a row */
  float                     *xs      = nullptr; /* half storage: D^{1/2} x, the product's scratch */
  float                     *diag    = nullptr; /* half storage: S's diagonal plus the rounding of its row's other entries, a row */
  std::uint32_t             *words   = nullptr; /* packed half storage: a value and a column distance a slot, then the sorted rows' first columns (first), else NULL */
  int                       *first   = nullptr;
  int                       *amap    = nullptr; /* packed: the block's CSR position of each entry of the packed pattern (-1: an escape); the format is that pattern's */
  PetscCount                 nescapes = 0;      /* packed: escape slots */
  PetscCount                 nsubnormal = 0, nzeroed = 0; /* half storage: nonzero entries of S stored subnormal, and stored as zero */
  PCSPCGStorage              storage = PCSPCG_STORAGE_SINGLE; /* as asked */
  PetscInt                   halfmin = 0;                     /* auto storage: the fewest nonzeros stored in half precision */
  char                       why[160] = "";                   /* auto storage that stores single precision: why */
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
static inline double RowScale(PetscInt r, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa)
{
  for (PetscInt k = ai[r]; k < ai[r + 1]; k++)
    if (aj[k] == r && aa[k] != 0.0) return sqrt(fabs(aa[k]));
  return 1.0;
}

/*
  What half does to S (HalfCount, counted by ScaledRow()): entries stored subnormal, nonzero entries stored as zero, entries beyond half's
  range; and what auto storage refuses: off-diagonal entries above 1 in magnitude, rows whose diagonal entry is not positive, rows
  that lose more than half's unit roundoff to underflow
*/
enum HalfCount {
  kSubnormal,
  kZeroed,
  kBeyond,
  kAboveOne,
  kNotPositive,
  kUnderflowRows,
  kHalfCounts
};

/* The class of an entry of S as half stores it: kSubnormal, kZeroed, kBeyond, or -1 (a normal half or zero) */
__host__ __device__ inline int HalfClass(double v)
{
  const double a = fabs(v);
  return a >= 65520.0 ? kBeyond : a != 0.0 && a <= 0x1p-25 ? kZeroed : a != 0.0 && a < jagged::kHalfMinNormal ? kSubnormal : -1;
}

constexpr int kWarp = 32;

/* d[r] = RowScale(r), and in single precision dscale[r], a warp a row (its lanes read the row together) */
__global__ void RowScaleKernel(int m, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, double *d, float *dscale)
{
  const int lane = threadIdx.x % kWarp;

  for (long long r = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp; r < m; r += static_cast<long long>(gridDim.x) * blockDim.x / kWarp) {
    double dr = 1.0;

    for (PetscInt base = ai[r]; base < ai[r + 1]; base += kWarp) {
      const PetscInt k     = base + lane;
      const bool     found = k < ai[r + 1] && aj[k] == r && aa[k] != 0.0;
      const unsigned mask  = __ballot_sync(0xffffffffu, found);

      if (mask) {
        dr = __shfl_sync(0xffffffffu, found ? sqrt(fabs(PetscRealPart(aa[k]))) : 0.0, __ffs(mask) - 1);
        break;
      }
    }
    if (lane == 0) {
      d[r]      = dr;
      dscale[r] = (float)dr;
    }
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
  Entry k of row r of S, aa[k] / (d[r] d[column]), in double into sval[k], the diagonal's slot 0 (its value into *dg); what
  rounding it to half changes added to *lost (and where half stores it subnormal or as zero, to *under); counts[HalfCount] added to
*/
__host__ __device__ inline void ScaledEntry(PetscInt r, PetscInt k, const PetscInt *aj, const PetscScalar *aa, const double *d, double *sval, double *dg, double *lost, double *under, unsigned long long *counts)
{
  const double v = PetscRealPart(aa[k]) / (d[r] * d[aj[k]]);

  if (aj[k] == r) {
    *dg     = v;
    sval[k] = 0;
    return;
  }
  const int    c = HalfClass(v);
  const double e = v - HalfRounded(v);

  sval[k] = v;
  *lost += e;
  if (c >= 0) counts[c]++;
  if (c == kSubnormal || c == kZeroed) *under += fabs(e);
  if (fabs(v) > 1.0) counts[kAboveOne]++;
}

/* Row r's end, its entries' sums made: sdiag[r] = S(r, r) plus what rounding changed in the row's other entries (the row sum kept); counts[HalfCount] added to */
__host__ __device__ inline void ScaledRowEnd(PetscInt r, double dg, double lost, double under, float *sdiag, unsigned long long *counts)
{
  if (!(dg > 0)) counts[kNotPositive]++;
  if (under > jagged::kHalfUnitRoundoff) counts[kUnderflowRows]++;
  sdiag[r] = (float)(dg + lost);
}

/* Row r of S (ScaledEntry() on each entry, ScaledRowEnd()): the host twin of ScaledEntriesKernel() */
static inline void ScaledRow(PetscInt r, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const double *d, double *sval, float *sdiag, unsigned long long *counts)
{
  double dg = 0, lost = 0, under = 0;

  for (PetscInt k = ai[r]; k < ai[r + 1]; k++) ScaledEntry(r, k, aj, aa, d, sval, &dg, &lost, &under, counts);
  ScaledRowEnd(r, dg, lost, under, sdiag, counts);
}

/* The sum of v over the lanes of a warp */
template <typename T>
__device__ inline T WarpSum(T v)
{
  for (int delta = kWarp / 2; delta > 0; delta /= 2) v += __shfl_down_sync(0xffffffffu, v, delta);
  return v;
}

/*
  ScaledRow() on the GPU, a warp a row (its lanes read and write the row's entries together, their sums added across the lanes:
  the order of the host twin's sums is not kept), each lane counting into its own registers and a warp adding its counts to counts[] once: an atomic
  an entry serialised on the counters (21.9 M entries of elasticity's matrix stored as zero took 18 ms)
*/
__global__ void ScaledEntriesKernel(int m, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, const double *d, double *sval, float *sdiag, unsigned long long *counts)
{
  const int          lane                = threadIdx.x % kWarp;
  unsigned long long mine[kHalfCounts] = {};

  for (long long r = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp; r < m; r += static_cast<long long>(gridDim.x) * blockDim.x / kWarp) {
    double dg = 0, lost = 0, under = 0;

    for (PetscInt k = ai[r] + lane; k < ai[r + 1]; k += kWarp) ScaledEntry(r, k, aj, aa, d, sval, &dg, &lost, &under, mine);
    dg    = WarpSum(dg);
    lost  = WarpSum(lost);
    under = WarpSum(under);
    if (lane == 0) ScaledRowEnd(r, dg, lost, under, sdiag, mine);
  }
  for (int c = 0; c < kHalfCounts; c++) {
    mine[c] = WarpSum(mine[c]);
    if (lane == 0 && mine[c]) atomicAdd(counts + c, mine[c]);
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
  the kept diagonal, D^{1/2}, and counts[kHalfCounts]; the host loops are the twins of RowScaleKernel() and ScaledEntriesKernel()
*/
static PetscErrorCode MatSingleJaggedFillHalf(MatSingleBlock *c, PetscInt m, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, unsigned long long counts[])
{
  MatSingleJagged jg = c->jagged;

  PetscFunctionBegin;
  PetscCheck(c->ncols == m, PETSC_COMM_SELF, PETSC_ERR_SUP, "Half storage scales a square block symmetrically: %" PetscInt_FMT " rows, %" PetscInt_FMT " columns", m, c->ncols);
  for (int k = 0; k < kHalfCounts; k++) counts[k] = 0;
  if (c->device) {
    double             *sval, *d;
    unsigned long long *dcounts;
    cudaStream_t        stream;
    const unsigned      nw = JaggedBlocks((long long)m * kWarp, kThreads, kMaxBlocks); /* a warp a row */

    if (!jg->scale) {
      if (jg->amap) PetscCallCUDA(cudaMalloc((void **)&jg->words, sizeof(std::uint32_t) * (PetscMax(jg->format.nstored, 1) + PetscMax(jg->format.nsorted, 1))));
      else PetscCallCUDA(cudaMalloc((void **)&jg->half, sizeof(jagged::Half) * PetscMax(jg->format.nslots, 1)));
      PetscCallCUDA(cudaMalloc((void **)&jg->scale, sizeof(float) * 3 * PetscMax(m, 1)));
    }
    if (jg->words) jg->first = reinterpret_cast<int *>(jg->words + PetscMax(jg->format.nstored, 1));
    jg->xs   = jg->scale + PetscMax(m, 1);
    jg->diag = jg->xs + PetscMax(m, 1);
    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCallCUDA(cudaMallocAsync((void **)&sval, sizeof(double) * (PetscMax(c->nnz, 1) + m) + sizeof(unsigned long long) * kHalfCounts, stream));
    d       = sval + PetscMax(c->nnz, 1);
    dcounts = reinterpret_cast<unsigned long long *>(d + m);
    PetscCallCUDA(cudaMemsetAsync(dcounts, 0, sizeof(unsigned long long) * kHalfCounts, stream));
    RowScaleKernel<<<nw, kThreads, 0, stream>>>((int)m, ai, aj, aa, d, jg->scale);
    PetscCallCUDA(cudaGetLastError());
    ScaledEntriesKernel<<<nw, kThreads, 0, stream>>>((int)m, ai, aj, aa, d, sval, jg->diag, dcounts);
    PetscCallCUDA(cudaGetLastError());
    if (jg->words) PetscCallCUDA(jagged::gpu::PackWords(*jg->dformat, jg->amap, sval, jg->words, jg->first, stream));
    else PetscCallCUDA(jagged::gpu::RefreshValues(*jg->dformat, sval, jg->half, stream));
    PetscCallCUDA(cudaMemcpyAsync(counts, dcounts, sizeof(unsigned long long) * kHalfCounts, cudaMemcpyDeviceToHost, stream));
    PetscCallCUDA(cudaFreeAsync(sval, stream));
    PetscCallCUDA(cudaStreamSynchronize(stream));
  } else {
    double *sval, *d;

    if (!jg->scale) {
      if (jg->amap) PetscCall(PetscMalloc1(PetscMax(jg->format.nstored, 1) + PetscMax(jg->format.nsorted, 1), &jg->words));
      else PetscCall(PetscMalloc1(PetscMax(jg->format.nslots, 1), &jg->half));
      PetscCall(PetscMalloc1(3 * PetscMax(m, 1), &jg->scale));
    }
    if (jg->words) jg->first = reinterpret_cast<int *>(jg->words + PetscMax(jg->format.nstored, 1));
    jg->xs   = jg->scale + PetscMax(m, 1);
    jg->diag = jg->xs + PetscMax(m, 1);
    PetscCall(PetscMalloc2(PetscMax(c->nnz, 1), &sval, PetscMax(m, 1), &d));
    for (PetscInt r = 0; r < m; r++) {
      d[r]         = RowScale(r, ai, aj, aa);
      jg->scale[r] = (float)d[r];
    }
    for (PetscInt r = 0; r < m; r++) ScaledRow(r, ai, aj, aa, d, sval, jg->diag, counts);
    if (jg->words) jagged::PackWords(jg->format, jg->amap, sval, jg->words, jg->first);
    else jagged::FillValues(jg->format, sval, jg->half);
    PetscCall(PetscFree2(sval, d));
  }
  jg->nsubnormal = (PetscCount)counts[kSubnormal];
  jg->nzeroed    = (PetscCount)counts[kZeroed];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Why auto storage does not keep the half values that counts describe, into why (empty: it keeps them) */
static PetscErrorCode HalfRefused(const unsigned long long counts[], char why[], size_t len)
{
  PetscFunctionBegin;
  why[0] = 0;
  if (counts[kNotPositive]) PetscCall(PetscSNPrintf(why, len, "%llu rows with a diagonal entry not positive", counts[kNotPositive]));
  else if (counts[kAboveOne]) PetscCall(PetscSNPrintf(why, len, "%llu entries of the block scaled by its diagonal above 1 in magnitude", counts[kAboveOne]));
  else if (counts[kUnderflowRows]) PetscCall(PetscSNPrintf(why, len, "%llu rows lose more than half's rounding to underflow", counts[kUnderflowRows]));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* Whether auto storage keeps the pJDS copy c in single precision for its size: fewer than its halfmin nonzeros */
static PetscBool MatSingleJaggedTooSmall(const MatSingleBlock *c)
{
  return (PetscBool)(c->jagged->storage == PCSPCG_STORAGE_AUTO && c->nnz < c->jagged->halfmin);
}

/* The single-precision values of the pJDS copy c (its format built) from B's values aa (device memory where c is on the device) */
static PetscErrorCode MatSingleJaggedFillSingle(MatSingleBlock *c, const PetscScalar *aa)
{
  MatSingleJagged jg = c->jagged;

  PetscFunctionBegin;
  PetscAssert(!jg->amap, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A packed format holds half values only");
  if (c->device) {
    cudaStream_t stream;

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    if (!c->a) PetscCallCUDA(cudaMalloc((void **)&c->a, sizeof(S) * PetscMax(jg->format.nslots, 1)));
    PetscCallCUDA(jagged::gpu::RefreshValues(*jg->dformat, reinterpret_cast<const MatJaggedHostScalar *>(aa), reinterpret_cast<MatJaggedHostSingle *>(c->a), stream));
  } else {
    if (!c->a) PetscCall(PetscMalloc1(PetscMax(jg->format.nslots, 1), &c->a));
    jagged::FillValues(jg->format, reinterpret_cast<const MatJaggedHostScalar *>(aa), reinterpret_cast<MatJaggedHostSingle *>(c->a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if !defined(PETSC_USE_COMPLEX)
/* The half-precision arrays of the pJDS copy c freed (a packed one's map too): auto storage that stores single precision after all */
static PetscErrorCode MatSingleJaggedFreeHalf(MatSingleBlock *c)
{
  MatSingleJagged jg = c->jagged;

  PetscFunctionBegin;
  if (c->device) {
    PetscCallCUDA(cudaFree(jg->half));
    PetscCallCUDA(cudaFree(jg->scale)); /* and xs, diag */
    PetscCallCUDA(cudaFree(jg->words)); /* and first */
    PetscCallCUDA(cudaFree(jg->amap));
  } else {
    PetscCall(PetscFree(jg->half));
    PetscCall(PetscFree(jg->scale));
    PetscCall(PetscFree(jg->words));
    PetscCall(PetscFree(jg->amap));
  }
  jg->half  = NULL;
  jg->scale = jg->xs = jg->diag = NULL;
  jg->words = NULL;
  jg->first = jg->amap = NULL;
  jg->nsubnormal = jg->nzeroed = jg->nescapes = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/*
  The values of the pJDS copy c (its format built) from the m x m block's CSR ai, aj, aa (device arrays where c is on the device), in
  the storage asked for (jg->storage; auto: half where the copy keeps dense blocks or is packed and HalfRefused() finds nothing,
  jg->why says why not). *rebuild: auto refused half for a format built for it (blocked for 2-byte values, or packed): no values
  filled, the caller builds the format again for single precision (MatSingleJaggedSingleAgain()).
*/
static PetscErrorCode MatSingleJaggedFill(MatSingleBlock *c, PetscInt m, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa, PetscBool *rebuild)
{
  MatSingleJagged jg = c->jagged;

  PetscFunctionBegin;
  *rebuild   = PETSC_FALSE;
  jg->why[0] = 0;
  if (jg->storage == PCSPCG_STORAGE_SINGLE) {
    PetscCall(MatSingleJaggedFillSingle(c, aa));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#if !defined(PETSC_USE_COMPLEX) /* complex scalars keep single storage: the PC's view says so */
  if (MatSingleJaggedTooSmall(c)) PetscCall(PetscSNPrintf(jg->why, sizeof(jg->why), "%" PetscInt_FMT " nonzeros, fewer than the %" PetscInt_FMT " of -pc_spcg_half_min_nonzeros: a product this small is bound by its launches", c->nnz, jg->halfmin));
  else if (jg->storage == PCSPCG_STORAGE_AUTO && jg->format.bs == 1 && !jg->amap) PetscCall(PetscStrncpy(jg->why, "no dense blocks in the copy, and rows too long to pack: a scalar product with 4-byte columns is no faster in half", sizeof(jg->why)));
  else {
    unsigned long long counts[kHalfCounts];

    PetscCall(MatSingleJaggedFillHalf(c, m, ai, aj, aa, counts));
    PetscCheck(jg->storage != PCSPCG_STORAGE_HALF || !counts[kBeyond], PETSC_COMM_SELF, PETSC_ERR_FP, "Half storage: %llu entries of the block scaled by its diagonal are beyond half precision's range (65504): use -pc_spcg_storage single or auto", counts[kBeyond]);
    if (jg->storage == PCSPCG_STORAGE_AUTO) PetscCall(HalfRefused(counts, jg->why, sizeof(jg->why)));
    if (!jg->why[0]) {
      if (c->device) PetscCallCUDA(cudaFree(c->a));
      else PetscCall(PetscFree(c->a));
      c->a = NULL; /* a refresh that keeps half after one that did not */
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    *rebuild = (PetscBool)(jg->format.bs > 1 || jg->amap);
    PetscCall(MatSingleJaggedFreeHalf(c));
    if (*rebuild) PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  PetscCall(MatSingleJaggedFillSingle(c, aa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The block options of the pJDS copy of B (m x ncols): B's block size, from 2 to jagged::kMaxBlockSize, where it divides the rows
  and columns, the build keeping blocks where dense blocks of values of vbytes bytes (single or half precision) pay (jagged::BlocksPay())
*/
static PetscErrorCode MatSingleJaggedBlockOptions(Mat B, PetscInt m, PetscInt ncols, size_t vbytes, jagged::Options *options)
{
  PetscInt rbs, cbs;

  PetscFunctionBegin;
  options->block_auto_bytes = (int)vbytes;
  PetscCall(MatGetBlockSizes(B, &rbs, &cbs));
  if (rbs == cbs && rbs >= 2 && rbs <= jagged::kMaxBlockSize && !(m % rbs) && !(ncols % rbs)) options->block_size = (int)rbs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The format of the pJDS copy c of the m x c->ncols block B from its CSR ai, aj (device arrays where c is on the device), its blocks
  kept where values of vbytes bytes pay; with pack, where B has no blocks: the format of the packed pattern (jaggedpacked.hpp, its
  map kept in c->jagged->amap), unless that format has long rows (then the plain one)
*/
static PetscErrorCode MatSingleJaggedBuild(MatSingleBlock *c, Mat B, PetscInt m, const PetscInt *ai, const PetscInt *aj, size_t vbytes, PetscBool pack)
{
  MatSingleJagged jg = c->jagged;
  jagged::Options options;
  jagged::Status  st;

  PetscFunctionBegin;
  PetscCall(MatSingleJaggedBlockOptions(B, m, c->ncols, vbytes, &options));
  pack = (PetscBool)(pack && options.block_size == 1 && !PetscDefined(USE_COMPLEX));
  if (c->device) {
    cudaStream_t                     stream;
    cudaError_t                      cerr;
    jagged::gpu::DevicePackedPattern packed;

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    if (jg->dformat) PetscCallCUDA(jagged::gpu::DeviceFormatDestroy(jg->dformat));
    else {
      jg->dformat = new (std::nothrow) jagged::gpu::DeviceFormat;
      PetscCheck(jg->dformat, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory for the pJDS copy of the operator");
    }
    if (pack) {
      PetscCall(CheckStatus(jagged::gpu::PackPattern((int)m, ai, aj, &packed, stream, &cerr), cerr));
      st = jagged::gpu::BuildDeviceFormat((int)m, (int)c->ncols, packed.rowptr, packed.colidx, options, &jg->format, jg->dformat, stream, &cerr);
      if (st == jagged::Status::Success && !jg->format.nlong) {
        jg->amap     = packed.amap;
        jg->nescapes = packed.nescapes;
        packed.amap  = NULL;
      } else if (st == jagged::Status::Success) PetscCallCUDA(jagged::gpu::DeviceFormatDestroy(jg->dformat));
      PetscCallCUDA(cudaStreamSynchronize(stream)); /* the build's kernels have read the packed pattern */
      PetscCallCUDA(jagged::gpu::PackedPatternDestroy(&packed));
      PetscCall(CheckStatus(st, cerr));
      if (jg->amap) PetscFunctionReturn(PETSC_SUCCESS);
    }
    st = jagged::gpu::BuildDeviceFormat((int)m, (int)c->ncols, ai, aj, options, &jg->format, jg->dformat, stream, &cerr);
    PetscCall(CheckStatus(st, cerr));
  } else {
    if (pack) {
      jagged::PackedPattern packed;

      PetscCall(CheckStatus(jagged::PackPattern((int)m, ai, aj, &packed), cudaSuccess));
      PetscCall(CheckStatus(jagged::BuildFormat((int)m, (int)c->ncols, packed.rowptr.data(), packed.colidx.data(), options, &jg->format), cudaSuccess));
      if (!jg->format.nlong) {
        PetscCall(PetscMalloc1(PetscMax(packed.amap.size(), (size_t)1), &jg->amap));
        PetscCall(PetscArraycpy(jg->amap, packed.amap.data(), packed.amap.size()));
        jg->nescapes = packed.nescapes;
        PetscFunctionReturn(PETSC_SUCCESS);
      }
    }
    st = jagged::BuildFormat((int)m, (int)c->ncols, ai, aj, options, &jg->format);
    PetscCall(CheckStatus(st, cudaSuccess));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The format of the pJDS copy c built again for single-precision values (blocks where 4-byte values pay, not packed), and the values from aa: auto's refusal of half */
static PetscErrorCode MatSingleJaggedSingleAgain(MatSingleBlock *c, Mat B, PetscInt m, const PetscInt *ai, const PetscInt *aj, const PetscScalar *aa)
{
  PetscFunctionBegin;
  if (c->device) PetscCallCUDA(cudaFree(c->a));
  else PetscCall(PetscFree(c->a));
  c->a = NULL;
  PetscCall(MatSingleJaggedBuild(c, B, m, ai, aj, sizeof(PetscJaggedScalarSingle), PETSC_FALSE));
  PetscCall(MatSingleJaggedFillSingle(c, aa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The pJDS copy of the m x c->ncols block B (its host CSR ai, aj), its values in storage (half: those of the block scaled
  symmetrically by its diagonal; real scalars; auto: see MatSingleJaggedFill()), of blocks where they move fewer bytes: on the device
  from B's device CSR (B a MATSEQAIJCUSPARSE, or a sequential jagged matrix whose CSR is scattered back from its jagged copy on
  the GPU for the build: MatSeqJaggedGetDeviceCSR()), or on the host. Auto stores single precision in a block of fewer than halfmin
  nonzeros (the reason kept for the view). When auto refuses half after a build for it (blocked for 2-byte values, or packed), the
  format is built again for single precision's.
*/
PetscErrorCode MatSingleJaggedCreate(Mat B, PetscInt m, const PetscInt *ai, const PetscInt *aj, PetscBool device, PCSPCGStorage storage, PetscInt halfmin, MatSingleBlock *c)
{
  MatSingleJagged    jg;
  const PetscInt    *bi = ai, *bj = aj;
  const PetscScalar *aa;
  PetscScalar       *da = NULL;
  PetscInt          *si = NULL, *sj = NULL; /* a jagged B's scattered CSR */
  PetscBool          rebuild, jaggedB = PETSC_FALSE;

  PetscFunctionBegin;
  jg = new (std::nothrow) _n_MatSingleJagged;
  PetscCheck(jg, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory for the pJDS copy of the operator");
  jg->storage = storage;
  jg->halfmin = halfmin;
  c->format   = PCSPCG_FORMAT_PJDS;
  c->ops      = &MatSingleBlockOpsPJDS;
  c->jagged   = jg;
  c->nrows    = m;
  if (device) {
    PetscCall(MatSeqJaggedHasDeviceCSR(B, &jaggedB));
    if (jaggedB) {
      PetscCall(MatSeqJaggedGetDeviceCSR(B, &si, &sj, &da));
      bi = si;
      bj = sj;
    } else PetscCall(DeviceCSR(B, &bi, &bj, &da));
    aa = da;
  } else PetscCall(MatSeqAIJGetArrayRead(B, &aa));
  if (storage == PCSPCG_STORAGE_SINGLE || PetscDefined(USE_COMPLEX) || MatSingleJaggedTooSmall(c)) PetscCall(MatSingleJaggedBuild(c, B, m, bi, bj, sizeof(PetscJaggedScalarSingle), PETSC_FALSE));
  else PetscCall(MatSingleJaggedBuild(c, B, m, bi, bj, sizeof(jagged::Half), PETSC_TRUE));
  PetscCall(MatSingleJaggedFill(c, m, bi, bj, aa, &rebuild));
  if (rebuild) PetscCall(MatSingleJaggedSingleAgain(c, B, m, bi, bj, aa));
  if (jaggedB) PetscCall(MatSeqJaggedRestoreDeviceCSR(B, &si, &sj, &da));
  if (!device) PetscCall(MatSeqAIJRestoreArrayRead(B, &aa));
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
    PetscCallCUDA(cudaFree(jg->words)); /* and first */
    PetscCallCUDA(cudaFree(jg->amap));
  } else {
    PetscCall(PetscFree(c->a));
    PetscCall(PetscFree(jg->half));
    PetscCall(PetscFree(jg->scale));
    PetscCall(PetscFree(jg->words));
    PetscCall(PetscFree(jg->amap));
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
  else if (jg->amap) PetscCall(PetscSNPrintf(layout, sizeof(layout), "16-bit column distances packed with them (%" PetscCount_FMT " escapes)", jg->nescapes));
  else PetscCall(PetscSNPrintf(layout, sizeof(layout), "4-byte columns"));
  if (jg->half || jg->words) PetscCall(PetscSNPrintf(values, sizeof(values), "half-precision values of the block scaled by its diagonal (%" PetscCount_FMT " stored subnormal, %" PetscCount_FMT " as zero; the diagonal in single precision, row sums kept%s)", jg->nsubnormal, jg->nzeroed, jg->storage == PCSPCG_STORAGE_AUTO ? "; chosen by auto storage" : ""));
  else if (jg->why[0]) PetscCall(PetscSNPrintf(values, sizeof(values), "%s values (%s storage kept single precision: %s)", unit, PCSPCGStorages[jg->storage], jg->why));
  else PetscCall(PetscSNPrintf(values, sizeof(values), "%s values", unit));
  PetscCall(PetscSNPrintf(line, len, "pJDS, %" PetscCount_FMT " stored entries for %" PetscInt_FMT " nonzeros, %s and %s, %.2f bytes a nonzero", (PetscCount)f.nslots, c->nnz, values, layout, jg->amap ? 4.0 * f.nslots / PetscMax(c->nnz, 1) : jagged::GetStats(f, jg->half ? sizeof(jagged::Half) : sizeof(PetscJaggedScalarSingle)).product_bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x for a pJDS block on the host (a diagonal block: never add): the twin of MatSingleJaggedMultDevice() */
static PetscErrorCode MatSingleJaggedMultHost(const MatSingleBlock *c, const PetscJaggedScalarSingle x[], PetscBool add, PetscJaggedScalarSingle y[])
{
  MatSingleJagged jg = c->jagged;

  PetscFunctionBegin;
  PetscAssert(!add, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A pJDS block is a diagonal block: y = A x");
#if !defined(PETSC_USE_COMPLEX)
  if (jg->half || jg->words) { /* y = D^{1/2} (S_offdiag + diag) (D^{1/2} x): the twin of ScaleInKernel(), the jagged kernel and ScaleOutKernel() */
    for (PetscInt i = 0; i < c->nrows; i++) jg->xs[i] = jg->scale[i] * x[i];
    if (jg->words) jagged::host::MultPacked(jg->format, jg->words, jg->first, jg->xs, y);
    else jagged::host::Mult(jg->format, jg->half, jg->xs, y);
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
  if (c->jagged->half || c->jagged->words) { /* y = D^{1/2} (S_offdiag + diag) (D^{1/2} x) */
    MatSingleJagged jg = c->jagged;
    const unsigned  nb = JaggedBlocks(c->nrows, kThreads, kMaxBlocks);

    ScaleInKernel<<<nb, kThreads, 0, stream>>>((int)c->nrows, jg->scale, x, jg->xs, stopped);
    PetscCallCUDA(cudaGetLastError());
    if (jg->words) PetscCallCUDA(jagged::gpu::MultPacked(*jg->dformat, jg->words, jg->first, jg->xs, y, stream));
    else PetscCallCUDA(jagged::gpu::Mult(*jg->dformat, jg->half, jg->xs, y, stream));
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

  if (jg->words) return st.index_bytes + sizeof(std::uint32_t) * (jg->format.nslots + jg->format.nsorted) + sizeof(int) * (c->nnz + jg->nescapes) + 2 * sizeof(float) * c->nrows; /* packed: the words, first columns and map too */
  return st.value_bytes + st.index_bytes + (jg->half ? 2 * sizeof(float) * c->nrows : 0); /* half: D^{1/2} and the diagonal too */
}

/* A host block's values again from B (same pattern), in the storage asked for (auto: decided again; the format kept unless auto now refuses half for a format built for it) */
static PetscErrorCode MatSingleJaggedRefreshHost(MatSingleBlock *c, Mat B)
{
  const PetscInt    *ai = NULL, *aj = NULL;
  const PetscScalar *aa;
  PetscInt           m;
  PetscBool          done, rebuild;

  PetscFunctionBegin;
  PetscAssert(!c->device, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A host block only");
  PetscCall(MatGetRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetRowIJ() failed on %s", ((PetscObject)B)->type_name);
  PetscCall(MatSeqAIJGetArrayRead(B, &aa));
  PetscCall(MatSingleJaggedFill(c, m, ai, aj, aa, &rebuild));
  if (rebuild) PetscCall(MatSingleJaggedSingleAgain(c, B, m, ai, aj, aa));
  PetscCall(MatSeqAIJRestoreArrayRead(B, &aa));
  PetscCall(MatRestoreRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the diagonal block of dm is a pJDS copy whose values are stored in half precision */
PetscBool MatSingleHalf(const MatSingle *dm)
{
  return (PetscBool)(dm->d.format == PCSPCG_FORMAT_PJDS && dm->d.jagged && (dm->d.jagged->half || dm->d.jagged->words));
}

const MatSingleBlockOps MatSingleBlockOpsPJDS = {MatSingleJaggedMultHost, MatSingleJaggedMultDevice, MatSingleJaggedDescribe, MatSingleJaggedDestroy, MatSingleJaggedBytes, MatSingleJaggedRefreshHost};
