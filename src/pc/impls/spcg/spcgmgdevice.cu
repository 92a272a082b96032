/*
   The level operations of the V-cycle (spcgmgcycle.c) of PCSPCG's single-precision image of a PCMG hierarchy on the
   device (PCSPCGMGOpsDevice; spcgmg.c made the image in device memory): the inner preconditioner of the device inner
   loop (spcgdevice.cu). Every operation is a kernel, or a distributed matrix's product, on the stream, none waits
   for the host, so the loop can be captured into a CUDA graph, except where the coarse solve is PCMG's coarse KSP in
   double (its right-hand side and solution cross the host) and on several processes (each product's halo exchange;
   through MPI it waits for the host). Once the inner loop has stopped (*stopped) the kernels return at once. The host
   twins are in spcgmghost.c: each kernel repeats the arithmetic of its loop there, in the same order.
*/
#include <petscdevice_cuda.h>
#include <petscjagged/private/spcgimpl.h>
#include <petscjagged/private/matsinglekernels.cuh>

namespace {

/* y = x */
__global__ void CopyKernel(int n, const S *x, S *y, const int *stopped)
{
  if (*stopped) return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = x[i];
}

/* y = 0 */
__global__ void ZeroKernel(int n, S *y, const int *stopped)
{
  if (*stopped) return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = S(0);
}

/* r = b - r, r holding A x: the residual after the block's product */
__global__ void ResidualKernel(int n, const S *b, S *r, const int *stopped)
{
  if (*stopped) return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) r[i] = b[i] - r[i];
}

/* Chebyshev's first step: y = s dinv r + x */
__global__ void ChebyshevFirstKernel(int n, S s, const S *dinv, const S *r, const S *x, S *y, const int *stopped)
{
  if (*stopped) return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = s * dinv[i] * r[i] + x[i];
}

/* Chebyshev's next steps: p_{k+1} = a p_{k-1} + o p_k + os (dinv r) */
__global__ void ChebyshevKernel(int n, S a, S o, S os, const S *dinv, const S *r, const S *pkm1, const S *pk, S *pkp1, const int *stopped)
{
  if (*stopped) return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) pkp1[i] = a * pkm1[i] + o * pk[i] + os * (dinv[i] * r[i]);
}

/* Richardson's step: x += s (dinv r) */
__global__ void RichardsonKernel(int n, S s, const S *dinv, const S *r, S *x, const int *stopped)
{
  if (*stopped) return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] += s * (dinv[i] * r[i]);
}

constexpr int kDenseRowsPerBlock = kThreads / 32; /* the dense coarse product: a warp a row */

/* x = inv b, inv row-major (n x N): the twin of the host's sums in PCSPCGMGCoarseHost() */
__global__ void DenseMultKernel(int n, int N, const S *inv, const S *b, S *x, const int *stopped)
{
  const int i = blockIdx.x * kDenseRowsPerBlock + threadIdx.x / 32, lane = threadIdx.x % 32;
  S         sum = S(0);

  if (*stopped || i >= n) return;
  for (int j = lane; j < N; j += 32) sum += inv[(size_t)i * N + j] * b[j];
  sum = jagged::gpu::WarpSum(sum);
  if (lane == 0) x[i] = sum;
}

/* a pivot's size, |re| + |im|: the same sums as the host's (PCSPCGMGGaussJordan()) */
#if defined(PETSC_USE_COMPLEX)
__device__ __forceinline__ double PivotSize(const cuda::std::complex<double> &v)
{
  return fabs(v.real()) + fabs(v.imag());
}
#else
__device__ __forceinline__ double PivotSize(double v)
{
  return fabs(v);
}
#endif

/*
  Gauss-Jordan step k on a (N x N, row-major), one block: the row of the largest |a[i][k]|, i >= k (the first of
  equals), swapped into row k and recorded in perm[k]; col = column k, row = row k over the pivot with row[k] = 1 /
  pivot. *singular on a zero (or not finite) pivot, after which every step returns at once.
*/
__global__ void GaussJordanPivotKernel(int N, int k, D *a, D *col, D *row, int *perm, int *singular)
{
  __shared__ double size[kThreads];
  __shared__ int    at[kThreads];
  const int         t    = threadIdx.x;
  double            best = -1;
  int               bi   = N;

  if (*singular) return;
  for (int i = k + t; i < N; i += blockDim.x) {
    const double s = PivotSize(a[(size_t)i * N + k]);

    if (s > best) best = s, bi = i;
  }
  size[t] = best;
  at[t]   = bi;
  __syncthreads();
  for (int off = blockDim.x / 2; off > 0; off /= 2) {
    if (t < off && (size[t + off] > size[t] || (size[t + off] == size[t] && at[t + off] < at[t]))) size[t] = size[t + off], at[t] = at[t + off];
    __syncthreads();
  }
  const int p = at[0];

  if (!(size[0] > 0) || !isfinite(size[0])) {
    if (!t) *singular = 1;
    return;
  }
  if (p != k)
    for (int j = t; j < N; j += blockDim.x) {
      const D v = a[(size_t)k * N + j];

      a[(size_t)k * N + j] = a[(size_t)p * N + j];
      a[(size_t)p * N + j] = v;
    }
  __syncthreads();
  const D piv = a[(size_t)k * N + k];

  for (int i = t; i < N; i += blockDim.x) {
    col[i] = a[(size_t)i * N + k];
    row[i] = i == k ? D(1) / piv : a[(size_t)k * N + i] / piv;
  }
  if (!t) perm[k] = p;
}

/* Gauss-Jordan step k's update: row k = row; a[i][j] = a[i][j] - col[i] row[j] elsewhere, a[i][k] taken as 0 */
__global__ void GaussJordanUpdateKernel(int N, int k, D *a, const D *col, const D *row, const int *singular)
{
  const size_t nn = (size_t)N * N;

  if (*singular) return;
  for (size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x; e < nn; e += (size_t)gridDim.x * blockDim.x) {
    const int i = (int)(e / N), j = (int)(e % N);

    if (i == k) a[e] = row[j];
    else a[e] = (j == k ? D(0) : a[e]) - col[i] * row[j];
  }
}

/* after the N steps: the columns of each row swapped back, last step first */
__global__ void GaussJordanUnscrambleKernel(int N, D *a, const int *perm, const int *singular)
{
  if (*singular) return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
    for (int k = N - 1; k >= 0; k--) {
      if (perm[k] == k) continue;
      const D v = a[(size_t)i * N + k];

      a[(size_t)i * N + k]       = a[(size_t)i * N + perm[k]];
      a[(size_t)i * N + perm[k]] = v;
    }
}

} // namespace

namespace {

/* the operations of PCSPCGMGOpsDevice: ctx is a PCSPCGMGDeviceCtx */
PetscErrorCode MultDevice(const MatSingle *A, const PetscJaggedScalarSingle x[], PetscBool add, PetscJaggedScalarSingle y[], void *ctx)
{
  const PCSPCGMGDeviceCtx *c = static_cast<const PCSPCGMGDeviceCtx *>(ctx);

  PetscFunctionBegin;
  PetscCall(MatSingleMultDevice(A, x, add, y, c->stopped, NULL, c->stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CopyDevice(PetscInt n, const PetscJaggedScalarSingle x[], PetscJaggedScalarSingle y[], void *ctx)
{
  const PCSPCGMGDeviceCtx *c = static_cast<const PCSPCGMGDeviceCtx *>(ctx);

  PetscFunctionBegin;
  CopyKernel<<<JaggedBlocks(n, kThreads, kMaxBlocks), kThreads, 0, c->stream>>>((int)n, reinterpret_cast<const S *>(x), reinterpret_cast<S *>(y), c->stopped);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ZeroDevice(PetscInt n, PetscJaggedScalarSingle y[], void *ctx)
{
  const PCSPCGMGDeviceCtx *c = static_cast<const PCSPCGMGDeviceCtx *>(ctx);

  PetscFunctionBegin;
  ZeroKernel<<<JaggedBlocks(n, kThreads, kMaxBlocks), kThreads, 0, c->stream>>>((int)n, reinterpret_cast<S *>(y), c->stopped);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ResidualDevice(PetscInt n, const PetscJaggedScalarSingle b[], PetscJaggedScalarSingle r[], void *ctx)
{
  const PCSPCGMGDeviceCtx *c = static_cast<const PCSPCGMGDeviceCtx *>(ctx);

  PetscFunctionBegin;
  ResidualKernel<<<JaggedBlocks(n, kThreads, kMaxBlocks), kThreads, 0, c->stream>>>((int)n, reinterpret_cast<const S *>(b), reinterpret_cast<S *>(r), c->stopped);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ChebyshevFirstDevice(PetscInt n, PetscReal scale, const PetscJaggedScalarSingle dinv[], const PetscJaggedScalarSingle r[], const PetscJaggedScalarSingle x[], PetscJaggedScalarSingle y[], void *ctx)
{
  const PCSPCGMGDeviceCtx *c = static_cast<const PCSPCGMGDeviceCtx *>(ctx);

  PetscFunctionBegin;
  ChebyshevFirstKernel<<<JaggedBlocks(n, kThreads, kMaxBlocks), kThreads, 0, c->stream>>>((int)n, S((float)scale), reinterpret_cast<const S *>(dinv), reinterpret_cast<const S *>(r), reinterpret_cast<const S *>(x), reinterpret_cast<S *>(y), c->stopped);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ChebyshevDevice(PetscInt n, PetscReal a, PetscReal o, PetscReal os, const PetscJaggedScalarSingle dinv[], const PetscJaggedScalarSingle r[], const PetscJaggedScalarSingle pkm1[], const PetscJaggedScalarSingle pk[], PetscJaggedScalarSingle pkp1[], void *ctx)
{
  const PCSPCGMGDeviceCtx *c = static_cast<const PCSPCGMGDeviceCtx *>(ctx);

  PetscFunctionBegin;
  ChebyshevKernel<<<JaggedBlocks(n, kThreads, kMaxBlocks), kThreads, 0, c->stream>>>((int)n, S((float)a), S((float)o), S((float)os), reinterpret_cast<const S *>(dinv), reinterpret_cast<const S *>(r), reinterpret_cast<const S *>(pkm1), reinterpret_cast<const S *>(pk), reinterpret_cast<S *>(pkp1), c->stopped);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RichardsonDevice(PetscInt n, PetscReal scale, const PetscJaggedScalarSingle dinv[], const PetscJaggedScalarSingle r[], PetscJaggedScalarSingle x[], void *ctx)
{
  const PCSPCGMGDeviceCtx *c = static_cast<const PCSPCGMGDeviceCtx *>(ctx);

  PetscFunctionBegin;
  RichardsonKernel<<<JaggedBlocks(n, kThreads, kMaxBlocks), kThreads, 0, c->stream>>>((int)n, S((float)scale), reinterpret_cast<const S *>(dinv), reinterpret_cast<const S *>(r), reinterpret_cast<S *>(x), c->stopped);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace

/*
  x = A^{-1} b on the coarsest level: the product with this process's rows of the dense inverse (on several processes
  the right-hand side gathered through the host first), or PCMG's coarse KSP in double,
  its right-hand side and solution crossing the host (the stream waits for the host then; with them the stop flag
  crosses into mg->hstop, and a stopped loop is not solved for)
*/
static PetscErrorCode CoarseDevice(PCSPCGMG mg, void *ctx)
{
  const PCSPCGMGDeviceCtx *dc      = static_cast<const PCSPCGMGDeviceCtx *>(ctx);
  const int               *stopped = dc->stopped;
  cudaStream_t             stream  = dc->stream;
  PCSPCGMGLevel           *c       = &mg->level[0];
  const PetscInt           n       = c->n;

  PetscFunctionBegin;
  if (!mg->dense || mg->counts) { /* the right-hand side to the host, unless the inner loop has stopped (the same on every process: global sums) */
    PetscCallCUDA(cudaMemcpyAsync(mg->hc, c->b, sizeof(PetscJaggedScalarSingle) * n, cudaMemcpyDeviceToHost, stream));
    PetscCallCUDA(cudaMemcpyAsync(mg->hstop, stopped, sizeof(int), cudaMemcpyDeviceToHost, stream));
    PetscCallCUDA(cudaStreamSynchronize(stream));
    PetscCall(PetscLogGpuToCpu(sizeof(PetscJaggedScalarSingle) * n));
    if (*mg->hstop) PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (mg->dense) {
    const PetscJaggedScalarSingle *b = c->b;

    if (mg->counts) { /* several processes: the right-hand side gathered whole through the host */
      PetscCall(PCSPCGMGCoarseGather(mg, mg->hc, mg->hball));
      PetscCallCUDA(cudaMemcpyAsync(mg->ball, mg->hball, sizeof(PetscJaggedScalarSingle) * c->N, cudaMemcpyHostToDevice, stream));
      PetscCall(PetscLogCpuToGpu(sizeof(PetscJaggedScalarSingle) * c->N));
      b = mg->ball;
    }
    if (n) {
      DenseMultKernel<<<JaggedBlocks(n, kDenseRowsPerBlock), kThreads, 0, stream>>>((int)n, (int)c->N, reinterpret_cast<const S *>(mg->inv), reinterpret_cast<const S *>(b), reinterpret_cast<S *>(c->x), stopped);
      PetscCallCUDA(cudaGetLastError());
    }
  } else {
    PetscCall(PCSPCGMGCoarseSolveKSP(mg, mg->hc, mg->hc));
    PetscCallCUDA(cudaMemcpyAsync(c->x, mg->hc, sizeof(PetscJaggedScalarSingle) * n, cudaMemcpyHostToDevice, stream));
    PetscCall(PetscLogCpuToGpu(sizeof(PetscJaggedScalarSingle) * n));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

const PCSPCGMGOps PCSPCGMGOpsDevice = {MultDevice, CopyDevice, ZeroDevice, ResidualDevice, ChebyshevFirstDevice, ChebyshevDevice, RichardsonDevice, CoarseDevice};

/*
  z = V r on stream (r and z in device memory): one V-cycle of the device image (PCSPCGMGCycle()); nothing once
  *stopped (device memory, not NULL) is set. Neither an event nor flops logged here (a captured graph replays it
  unseen): the inner loop counts its flops with its iterations.
*/
PetscErrorCode PCSPCGMGApplyDevice(PCSPCGMG mg, const PetscJaggedScalarSingle r[], PetscJaggedScalarSingle z[], const int *stopped, cudaStream_t stream)
{
  PCSPCGMGDeviceCtx ctx = {stopped, stream};

  PetscFunctionBegin;
  PetscCheck(mg->device, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The image is not in device memory");
  PetscCall(PCSPCGMGCycle(mg, &PCSPCGMGOpsDevice, &ctx, r, z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* *a = a new device array of the n values of x (device memory) rounded to single precision */
PetscErrorCode PCSPCGMGToSingleDevice(PetscInt n, const PetscScalar x[], PetscJaggedScalarSingle **a)
{
  cudaStream_t stream;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCallCUDA(cudaMalloc((void **)a, sizeof(PetscJaggedScalarSingle) * PetscMax(n, 1)));
  if (n) {
    PetscCall(ToSingleDevice((size_t)n, x, *a, stream));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The rows [rstart, rstart + n) of A^{-1}, A dense (N x N, row-major, on the host), in single precision in device
  memory (*inv, row-major, n x N): A uploaded and inverted in place in double by Gauss-Jordan elimination with
  partial pivoting, two kernels a column (GaussJordanPivotKernel, GaussJordanUpdateKernel) and the columns
  unscrambled at the end: the steps of the host's PCSPCGMGGaussJordan(), its twin. *singular on a zero pivot
  (then *inv stays NULL).
*/
PetscErrorCode PCSPCGMGDenseInvertDevice(PetscInt N, const PetscScalar a[], PetscInt rstart, PetscInt n, PetscJaggedScalarSingle **inv, PetscBool *singular)
{
  const size_t nn = (size_t)N * N;
  cudaStream_t stream;
  D           *da, *col, *row;
  int         *perm, *dsingular, hsingular;

  PetscFunctionBegin;
  *inv = NULL;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCallCUDA(cudaMallocAsync((void **)&da, sizeof(D) * (nn + 2 * N), stream));
  PetscCallCUDA(cudaMallocAsync((void **)&perm, sizeof(int) * (N + 1), stream));
  col       = da + nn;
  row       = col + N;
  dsingular = perm + N;
  PetscCallCUDA(cudaMemcpyAsync(da, a, sizeof(D) * nn, cudaMemcpyHostToDevice, stream));
  PetscCall(PetscLogCpuToGpu(sizeof(D) * nn));
  PetscCallCUDA(cudaMemsetAsync(dsingular, 0, sizeof(int), stream));
  for (PetscInt k = 0; k < N; k++) {
    GaussJordanPivotKernel<<<1, kThreads, 0, stream>>>((int)N, (int)k, da, col, row, perm, dsingular);
    GaussJordanUpdateKernel<<<JaggedBlocks((PetscInt)PetscMin(nn, (size_t)PETSC_INT_MAX), kThreads, kMaxBlocks), kThreads, 0, stream>>>((int)N, (int)k, da, col, row, dsingular);
  }
  GaussJordanUnscrambleKernel<<<JaggedBlocks(N, kThreads, kMaxBlocks), kThreads, 0, stream>>>((int)N, da, perm, dsingular);
  PetscCallCUDA(cudaGetLastError());
  PetscCallCUDA(cudaMemcpyAsync(&hsingular, dsingular, sizeof(int), cudaMemcpyDeviceToHost, stream));
  PetscCallCUDA(cudaStreamSynchronize(stream));
  *singular = (PetscBool)(hsingular != 0);
  if (!*singular) {
    PetscCallCUDA(cudaMalloc((void **)inv, sizeof(PetscJaggedScalarSingle) * PetscMax((size_t)n * N, (size_t)1)));
    PetscCall(ToSingleDevice((size_t)n * N, da + (size_t)rstart * N, *inv, stream));
    PetscCall(PetscLogGpuFlops(2.0 * N * N * N));
  }
  PetscCallCUDA(cudaFreeAsync(da, stream));
  PetscCallCUDA(cudaFreeAsync(perm, stream));
  PetscCallCUDA(cudaStreamSynchronize(stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}
