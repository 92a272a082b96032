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

/* x = inv b, inv row-major (n x n): the twin of the host's sums in PCSPCGMGCoarseHost() */
__global__ void DenseMultKernel(int n, const S *inv, const S *b, S *x, const int *stopped)
{
  const int i = blockIdx.x * kDenseRowsPerBlock + threadIdx.x / 32, lane = threadIdx.x % 32;
  S         sum = S(0);

  if (*stopped || i >= n) return;
  for (int j = lane; j < n; j += 32) sum += inv[(size_t)i * n + j] * b[j];
  sum = jagged::gpu::WarpSum(sum);
  if (lane == 0) x[i] = sum;
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
  x = A^{-1} b on the coarsest level: the product with the dense inverse, or PCMG's coarse KSP in double,
  its right-hand side and solution crossing the host (the stream waits for the host then; with them the stop flag
  crosses into mg->hstop, and a stopped loop is not solved for)
*/
static PetscErrorCode PCSPCGMGCoarseDevice(PCSPCGMG mg, const int *stopped, cudaStream_t stream)
{
  PCSPCGMGLevel *c = &mg->level[0];
  const PetscInt n = c->n;

  PetscFunctionBegin;
  if (mg->dense) {
    DenseMultKernel<<<(int)((n + kDenseRowsPerBlock - 1) / kDenseRowsPerBlock), kThreads, 0, stream>>>((int)n, reinterpret_cast<const S *>(mg->inv), reinterpret_cast<const S *>(c->b), reinterpret_cast<S *>(c->x), stopped);
    PetscCallCUDA(cudaGetLastError());
  } else {
    PetscScalar       *ba;
    const PetscScalar *xa;

    PetscCallCUDA(cudaMemcpyAsync(mg->hc, c->b, sizeof(PetscJaggedScalarSingle) * n, cudaMemcpyDeviceToHost, stream));
    PetscCallCUDA(cudaMemcpyAsync(mg->hstop, stopped, sizeof(int), cudaMemcpyDeviceToHost, stream));
    PetscCallCUDA(cudaStreamSynchronize(stream));
    PetscCall(PetscLogGpuToCpu(sizeof(PetscJaggedScalarSingle) * n));
    if (*mg->hstop) PetscFunctionReturn(PETSC_SUCCESS);
    PetscCall(VecGetArrayWrite(mg->cb, &ba));
    for (PetscInt i = 0; i < n; i++) ba[i] = (PetscScalar)mg->hc[i];
    PetscCall(VecRestoreArrayWrite(mg->cb, &ba));
    PetscCall(VecZeroEntries(mg->cx)); /* as PCMG: a zero guess known as such (a DM's initial guess makes the KSP's guess nonzero) */
    PetscCall(KSPSolve(mg->coarse, mg->cb, mg->cx));
    PetscCall(VecGetArrayRead(mg->cx, &xa));
    for (PetscInt i = 0; i < n; i++) mg->hc[i] = (PetscJaggedScalarSingle)xa[i];
    PetscCall(VecRestoreArrayRead(mg->cx, &xa));
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
