/*
   The V-cycle of PCSPCG's single-precision image of a PCMG hierarchy on the device (spcgmg.c made the image
   in device memory): the inner preconditioner of the device inner loop (spcgdevice.cu). Every step is a
   kernel, or a distributed matrix's product, on the stream, none waits for the host, so the loop can be captured
   into a CUDA graph, except where the coarse solve is PCMG's coarse KSP in double (its right-hand side and solution
   cross the host) and on several processes (each product's halo exchange; through MPI it waits for the host). Once the inner loop has stopped (*stopped) the kernels return at once. The host twin is
   spcgmghost.c: each kernel repeats the arithmetic of its loop there, in the same order.
*/
#include <petscdevice_cuda.h>
#include "spcgkernels.cuh"

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

/* b = I, N x N (nn = N * N entries, each of c reals: 1 real, 2 complex) */
__global__ void IdentityKernel(size_t nn, int N, int c, PetscReal *b)
{
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < nn * c; k += (size_t)gridDim.x * blockDim.x) b[k] = (k % c == 0 && (k / c) % (N + 1) == 0) ? 1 : 0;
}

/* out = single-precision copy of in, count entries */
__global__ void ToSingleKernel(size_t count, const D *in, S *out)
{
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < count; k += (size_t)gridDim.x * blockDim.x) out[k] = ToSingle(in[k]);
}

} // namespace

/* r = b - A x on a level, on stream */
static PetscErrorCode PCSPCGMGResidualDevice(const PCSPCGMGLevel *lv, const PetscJaggedScalarSingle x[], PetscJaggedScalarSingle r[], const int *stopped, cudaStream_t stream)
{
  const int n = (int)lv->n;

  PetscFunctionBegin;
  PetscCall(PCSPCGDistMatMultDevice(lv->opp, x, PETSC_FALSE, r, stopped, NULL, stream));
  ResidualKernel<<<BlocksFor(n), kThreads, 0, stream>>>(n, reinterpret_cast<const S *>(lv->b), reinterpret_cast<S *>(r), stopped);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Chebyshev smoother on the device: the twin of PCSPCGMGChebyshevHost(), the coefficients computed on the host as there */
static PetscErrorCode PCSPCGMGChebyshevDevice(PCSPCGMGLevel *lv, const PCSPCGMGSmoother *sm, PetscBool zero, const int *stopped, cudaStream_t stream)
{
  const PetscReal scale = 2.0 / (sm->emax + sm->emin), alpha = 1.0 - scale * sm->emin, mu = 1.0 / alpha, omegaprod = 2.0 / alpha;
  const int       n     = (int)lv->n;
  const S        *dinv  = reinterpret_cast<const S *>(sm->dinv);
  S              *p[3]  = {reinterpret_cast<S *>(lv->x), reinterpret_cast<S *>(lv->w[0]), reinterpret_cast<S *>(lv->w[1])}, *r = reinterpret_cast<S *>(lv->r);
  PetscInt        km1 = 0, k = 1, kp1 = 2;
  PetscReal       c[3] = {1.0, mu, 0.0};
  const S         s    = S((float)(scale));

  PetscFunctionBegin;
  if (!sm->its) PetscFunctionReturn(PETSC_SUCCESS);
  if (!zero) PetscCall(PCSPCGMGResidualDevice(lv, lv->x, lv->r, stopped, stream));
  ChebyshevFirstKernel<<<BlocksFor(n), kThreads, 0, stream>>>(n, s, dinv, zero ? reinterpret_cast<const S *>(lv->b) : r, p[km1], p[k], stopped);
  PetscCallCUDA(cudaGetLastError());
  for (PetscInt it = 1; it < sm->its; it++) {
    PetscReal omega;
    PetscInt  t;

    c[kp1] = 2.0 * mu * c[k] - c[km1];
    omega  = omegaprod * c[k] / c[kp1];
    PetscCall(PCSPCGMGResidualDevice(lv, reinterpret_cast<PetscJaggedScalarSingle *>(p[k]), lv->r, stopped, stream));
    ChebyshevKernel<<<BlocksFor(n), kThreads, 0, stream>>>(n, S((float)(1.0 - omega)), S((float)(omega)), S((float)(omega * scale)), dinv, r, p[km1], p[k], p[kp1], stopped);
    PetscCallCUDA(cudaGetLastError());
    t   = km1;
    km1 = k;
    k   = kp1;
    kp1 = t;
  }
  if (k) {
    CopyKernel<<<BlocksFor(n), kThreads, 0, stream>>>(n, p[k], p[0], stopped);
    PetscCallCUDA(cudaGetLastError());
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Richardson smoother on the device: the twin of PCSPCGMGRichardsonHost() */
static PetscErrorCode PCSPCGMGRichardsonDevice(PCSPCGMGLevel *lv, const PCSPCGMGSmoother *sm, PetscBool zero, const int *stopped, cudaStream_t stream)
{
  const int n = (int)lv->n;
  const S   s = S((float)(sm->scale));

  PetscFunctionBegin;
  for (PetscInt it = 0; it < sm->its; it++) {
    const PetscJaggedScalarSingle *r = lv->r;

    if (it == 0 && zero) r = lv->b;
    else PetscCall(PCSPCGMGResidualDevice(lv, lv->x, lv->r, stopped, stream));
    RichardsonKernel<<<BlocksFor(n), kThreads, 0, stream>>>(n, s, reinterpret_cast<const S *>(sm->dinv), reinterpret_cast<const S *>(r), reinterpret_cast<S *>(lv->x), stopped);
    PetscCallCUDA(cudaGetLastError());
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGMGSmoothDevice(PCSPCGMGLevel *lv, const PCSPCGMGSmoother *sm, PetscBool zero, const int *stopped, cudaStream_t stream)
{
  PetscFunctionBegin;
  if (sm->type == PCSPCG_MG_CHEBYSHEV) PetscCall(PCSPCGMGChebyshevDevice(lv, sm, zero, stopped, stream));
  else PetscCall(PCSPCGMGRichardsonDevice(lv, sm, zero, stopped, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  x = A^{-1} b on the coarsest level: the product with this process's rows of the dense inverse (on several processes
  the right-hand side gathered through the host first), or PCMG's coarse KSP in double,
  its right-hand side and solution crossing the host (the stream waits for the host then; with them the stop flag
  crosses into mg->hstop, and a stopped loop is not solved for)
*/
static PetscErrorCode PCSPCGMGCoarseDevice(PCSPCGMG mg, const int *stopped, cudaStream_t stream)
{
  PCSPCGMGLevel *c = &mg->level[0];
  const PetscInt n = c->n;

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
      DenseMultKernel<<<(int)((n + kDenseRowsPerBlock - 1) / kDenseRowsPerBlock), kThreads, 0, stream>>>((int)n, (int)c->N, reinterpret_cast<const S *>(mg->inv), reinterpret_cast<const S *>(b), reinterpret_cast<S *>(c->x), stopped);
      PetscCallCUDA(cudaGetLastError());
    }
  } else {
    PetscCall(PCSPCGMGCoarseSolveKSP(mg, mg->hc, mg->hc));
    PetscCallCUDA(cudaMemcpyAsync(c->x, mg->hc, sizeof(PetscJaggedScalarSingle) * n, cudaMemcpyHostToDevice, stream));
    PetscCall(PetscLogCpuToGpu(sizeof(PetscJaggedScalarSingle) * n));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  z = V r on stream (r and z in device memory): one V-cycle of the device image from a zero guess, the twin of
  PCSPCGMGApplyHost(), step by step; nothing once *stopped (device memory, not NULL) is set. Neither an event
  nor flops logged here (a captured graph replays it unseen): the inner loop counts its flops with its iterations.
*/
PetscErrorCode PCSPCGMGApplyDevice(PCSPCGMG mg, const PetscJaggedScalarSingle r[], PetscJaggedScalarSingle z[], const int *stopped, cudaStream_t stream)
{
  const PetscInt L  = mg->nlevels;
  const int      nf = (int)mg->level[L - 1].n;

  PetscFunctionBegin;
  PetscCheck(mg->device, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The image is not in device memory");
  CopyKernel<<<BlocksFor(nf), kThreads, 0, stream>>>(nf, reinterpret_cast<const S *>(r), reinterpret_cast<S *>(mg->level[L - 1].b), stopped);
  PetscCallCUDA(cudaGetLastError());
  for (PetscInt l = L - 1; l > 0; l--) {
    PCSPCGMGLevel *lv = &mg->level[l], *lc = &mg->level[l - 1];
    const int      n = (int)lv->n;

    ZeroKernel<<<BlocksFor(n), kThreads, 0, stream>>>(n, reinterpret_cast<S *>(lv->x), stopped);
    PetscCallCUDA(cudaGetLastError());
    PetscCall(PCSPCGMGSmoothDevice(lv, &lv->down, PETSC_TRUE, stopped, stream));
    PetscCall(PCSPCGMGResidualDevice(lv, lv->x, lv->r, stopped, stream));
    PetscCall(PCSPCGDistMatMultDevice(&lv->restr, lv->r, PETSC_FALSE, lc->b, stopped, NULL, stream));
  }
  PetscCall(PCSPCGMGCoarseDevice(mg, stopped, stream));
  for (PetscInt l = 1; l < L; l++) {
    PCSPCGMGLevel *lv = &mg->level[l];

    PetscCall(PCSPCGDistMatMultDevice(&lv->interp, mg->level[l - 1].x, PETSC_TRUE, lv->x, stopped, NULL, stream));
    PetscCall(PCSPCGMGSmoothDevice(lv, &lv->up, PETSC_FALSE, stopped, stream));
  }
  CopyKernel<<<BlocksFor(nf), kThreads, 0, stream>>>(nf, reinterpret_cast<const S *>(mg->level[L - 1].x), reinterpret_cast<S *>(z), stopped);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The rows [rstart, rstart + n) of A^{-1}, A dense (N x N, row-major, on the host), in single precision in device
  memory (*inv, row-major, n x N): A uploaded, LU-factored with partial pivoting and solved for the identity in
  double by cuSOLVER. Read column-major the array is A^T, and A^T X = I leaves X = A^{-T}, column-major, which read
  row-major is A^{-1}. *singular on a zero pivot (then *inv stays NULL); the twin of the host's LAPACK getrf + getri
  in PCSPCGMGDenseInvert()
*/
PetscErrorCode PCSPCGMGDenseInvertDevice(PetscInt N, const PetscScalar a[], PetscInt rstart, PetscInt n, PetscJaggedScalarSingle **inv, PetscBool *singular)
{
#if defined(PETSC_USE_COMPLEX)
  const cudaDataType type = CUDA_C_64F;
#else
  const cudaDataType type = CUDA_R_64F;
#endif
  const size_t       nn = (size_t)N * N;
  cusolverDnHandle_t handle;
  cusolverDnParams_t params;
  cudaStream_t       stream;
  PetscScalar       *da, *dx;
  int64_t           *piv;
  int               *dinfo, info;
  void              *dwork, *hwork = NULL;
  size_t             dbytes, hbytes;

  PetscFunctionBegin;
  *inv = NULL;
  PetscCall(PetscCUSOLVERDnGetHandle(&handle));
  PetscCallCUSOLVER(cusolverDnGetStream(handle, &stream));
  PetscCallCUSOLVER(cusolverDnCreateParams(&params));
  PetscCallCUDA(cudaMallocAsync((void **)&da, sizeof(PetscScalar) * nn, stream));
  PetscCallCUDA(cudaMallocAsync((void **)&dx, sizeof(PetscScalar) * nn, stream));
  PetscCallCUDA(cudaMallocAsync((void **)&piv, sizeof(int64_t) * N, stream));
  PetscCallCUDA(cudaMallocAsync((void **)&dinfo, sizeof(int), stream));
  PetscCallCUDA(cudaMemcpyAsync(da, a, sizeof(PetscScalar) * nn, cudaMemcpyHostToDevice, stream));
  PetscCall(PetscLogCpuToGpu(sizeof(PetscScalar) * nn));
  IdentityKernel<<<BlocksFor((PetscInt)PetscMin(nn, (size_t)PETSC_INT_MAX)), kThreads, 0, stream>>>(nn, (int)N, (int)(sizeof(PetscScalar) / sizeof(PetscReal)), reinterpret_cast<PetscReal *>(dx));
  PetscCallCUDA(cudaGetLastError());
  PetscCallCUSOLVER(cusolverDnXgetrf_bufferSize(handle, params, N, N, type, da, N, type, &dbytes, &hbytes));
  PetscCallCUDA(cudaMallocAsync(&dwork, PetscMax(dbytes, (size_t)1), stream));
  if (hbytes) PetscCall(PetscMalloc(hbytes, &hwork));
  PetscCallCUSOLVER(cusolverDnXgetrf(handle, params, N, N, type, da, N, piv, type, dwork, dbytes, hwork, hbytes, dinfo));
  PetscCallCUDA(cudaMemcpyAsync(&info, dinfo, sizeof(int), cudaMemcpyDeviceToHost, stream));
  PetscCallCUDA(cudaStreamSynchronize(stream));
  PetscCheck(info >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "cuSOLVER getrf: argument %d invalid", -info);
  *singular = (PetscBool)(info > 0);
  if (!*singular) {
    PetscCallCUSOLVER(cusolverDnXgetrs(handle, params, CUBLAS_OP_N, N, N, type, da, N, piv, type, dx, N, dinfo));
    PetscCallCUDA(cudaMalloc((void **)inv, sizeof(PetscJaggedScalarSingle) * PetscMax((size_t)n * N, (size_t)1)));
    ToSingleKernel<<<BlocksFor(n * N), kThreads, 0, stream>>>((size_t)n * N, reinterpret_cast<const D *>(dx) + (size_t)rstart * N, reinterpret_cast<S *>(*inv));
    PetscCallCUDA(cudaGetLastError());
    PetscCall(PetscLogGpuFlops(8.0 / 3.0 * N * N * N));
  }
  PetscCallCUDA(cudaFreeAsync(da, stream));
  PetscCallCUDA(cudaFreeAsync(dx, stream));
  PetscCallCUDA(cudaFreeAsync(piv, stream));
  PetscCallCUDA(cudaFreeAsync(dinfo, stream));
  PetscCallCUDA(cudaFreeAsync(dwork, stream));
  PetscCallCUDA(cudaStreamSynchronize(stream));
  PetscCall(PetscFree(hwork));
  PetscCallCUSOLVER(cusolverDnDestroyParams(params));
  PetscFunctionReturn(PETSC_SUCCESS);
}
