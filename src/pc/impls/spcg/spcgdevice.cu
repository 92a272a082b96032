/*
   PCSPCG's inner CG on the GPU: single-precision device vectors, the operator's device
   single-precision copy, and every scalar of the recurrence (dot products, alpha, beta, the stop
   flags) kept in device memory, so no inner iteration waits for the host. On one process the
   iterations are captured once into a CUDA graph and replayed at each application. On more, the dot
   products are summed on the stream, GPU to GPU (through CUDA IPC between the processes of one host with
   a GPU each, or through NCCL), and the host, one iteration behind the GPU, only looks at the stop flag to
   end the loop; or, through MPI, each dot product crosses the host for its MPI_Allreduce. An inner PCMG with a single-precision image runs as its V-cycle on the stream
   (spcgmgdevice.cu), inside the graph. The host loop in spcghost.c is the reference twin.
*/
#include <cstddef>
#include <petscjagged/private/spcgimpl.h>
#include <petscjagged/private/jaggednccl.h>
#include <petscjagged/private/jaggedipcsum.h>
#include <petscdevice_cuda.h>
#include <petscjagged/private/seqjagged.h>
#include <petscjagged/private/matsinglekernels.cuh>

namespace {

/* The sums of one inner iteration k: p'Ap of step k, then r'z and r'r of the residual it leaves */
struct Step {
  D pq, rz, rr;
};

/* Where the inner iterations of the current application stand, totals since set-up, and the continued direction */
struct Status {
  int       its, stopped, indefinite;
  long long total_its, total_indefinite;
  double    tol2;     /* stop when r'r <= tol2 (0: never) */
  double    c;        /* ||r|| / ||r_last||: the units of the last application's direction in this one's */
  D         rz_last;  /* r'z of the last direction taken by the previous application */
  D         pr0;      /* r'p of this application's first direction */
  int       have_dir; /* p and rz_last hold that direction */
  int       cont_off; /* continuation stopped for this solve */
  int       drift;    /* this application found the continued direction drifted: stop continuing */
  double    floor;      /* the inner floor (PCSPCGNextFloor(); 0: none) */
  int       floorbinds; /* the floor is this application's tolerance */
  int       atfloor;    /* the previous application stopped at the floor */
};

/*
  The stopping tolerance: tol2 or the floor, raised by what the previous application delivered (c = ||r|| / ||r_last||).
  r = b / ||b||, x = 0; unless the inner PC is applied after (other: in double, or the V-cycle): z = D^{-1} r (z is r without Jacobi) and
  r'z of step 0, and p = z unless the direction is continued (cont), in which case p'r of the last
  direction goes to steps[0].rr
*/
__global__ void StartKernel(int n, const D *b, double scale, S *x, S *r, S *z, S *p, const S *dinv, bool other, bool cont, double tol2, double c, Step *steps, Status *st)
{
  D          rz = 0, por = 0;
  const bool old = cont && st->have_dir && !st->cont_off;

  if (blockIdx.x == 0 && threadIdx.x == 0) { /* later kernels read these */
    double floor = st->floor;

    if (floor > 0 && c > 0) floor = PCSPCGNextFloor(floor, st->atfloor, c);
    st->its = st->stopped = st->indefinite = 0;
    st->floor                              = floor;
    st->floorbinds                         = floor * floor > tol2;
    st->tol2                               = st->floorbinds ? floor * floor : tol2;
    st->c                                  = c;
  }
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const S ri = ToSingle(b[i] * scale), zi = dinv ? dinv[i] * ri : ri;
    r[i] = ri;
    x[i] = S(0);
    if (old) por += DotTerm(ri, p[i]);
    if (other) continue;
    if (dinv) z[i] = zi;
    if (!cont) p[i] = zi;
    rz += DotTerm(ri, zi);
  }
  if (!other) BlockSumTo(rz, &steps[0].rz);
  if (old) BlockSumTo(por, &steps[0].rr);
}

/* a double-precision scalar as the (re, im) pair PCSPCGContinueDirection() takes, and back */
__device__ __forceinline__ PCSPCGPair PairOf(D v)
{
#if defined(PETSC_USE_COMPLEX)
  return {v.real(), v.imag()};
#else
  return {v, 0};
#endif
}

__device__ __forceinline__ D DoubleOf(PCSPCGPair p)
{
#if defined(PETSC_USE_COMPLEX)
  return D(p.re, p.im);
#else
  return p.re;
#endif
}

/* the first direction: p = z + beta p_last with beta = c r'z / rz_last, or p = z when there is none or p'r is not of the sign of r'z */
__global__ void ContinueKernel(int n, const S *z, S *p, const Step *steps, Status *st)
{
  const D rz = steps[0].rz;
  D       beta = 0, pr = rz;

  if (st->have_dir && !st->cont_off) { /* r'p, p = z + beta p_last: the first alpha is its conjugate p'r over p'Ap */
    PCSPCGPair b, p;

    if (PCSPCGContinueDirection(PairOf(rz), PairOf(steps[0].rr), PairOf(st->rz_last), st->c, &b, &p) && blockIdx.x == 0 && threadIdx.x == 0) st->drift = 1;
    beta = DoubleOf(b);
    pr   = DoubleOf(p);
  }
  const S b = ToSingle(beta);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = beta != D(0) ? z[i] + b * p[i] : z[i]; /* p may hold anything: no 0 * p */
  if (blockIdx.x == 0 && threadIdx.x == 0) st->pr0 = pr;
}

/* the first alpha's numerator is p'r (exact line search along a continued direction) */
__global__ void FirstRzKernel(Step *steps, const Status *st)
{
  steps[0].rz = st->pr0;
}

/* rd = r in double precision, for the inner PC applied in double */
__global__ void ToDoubleKernel(int n, const S *r, D *rd)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) rd[i] = ToDouble(r[i]);
}

/* z = zd in single precision (and p = z at step 0); r'z into step->rz */
__global__ void FromDoubleKernel(int n, const D *zd, const S *r, S *z, S *p, Step *step)
{
  D rz = 0;

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const S zi = ToSingle(zd[i]);
    z[i] = zi;
    if (p) p[i] = zi;
    rz += DotTerm(r[i], zi);
  }
  BlockSumTo(rz, &step->rz);
}

/* z = V r of the V-cycle (and p = z at step 0): r'z of step k, unless the loop has stopped */
__global__ void VCycleDotKernel(int n, const S *r, const S *z, S *p, Step *step, const Status *st)
{
  D rz = 0;

  if (st->stopped) return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    if (p) p[i] = z[i];
    rz += DotTerm(r[i], z[i]);
  }
  BlockSumTo(rz, &step->rz);
}

/* stops when r'r of step k + 1 is at most tol2 (tol2 > 0), before the V-cycle is applied to that residual, as the host loop does */
__global__ void ToleranceKernel(int k, const Step *steps, Status *st)
{
  if (!st->stopped && st->tol2 > 0 && Re(steps[k + 1].rr) <= st->tol2) st->stopped = 1;
}

/* p'q of step k */
__global__ void DotKernel(int n, const S *p, const S *q, Step *step, const Status *st)
{
  D pq = 0;

  if (st->stopped) return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) pq += DotTerm(p[i], q[i]);
  BlockSumTo(pq, &step->pq);
}

/* step k: alpha = r'z / p'q, x += alpha p, r -= alpha q, z = D^{-1} r; r'z (unless other: the PC after) and r'r for step k + 1; stops on p'q <= 0 */
__global__ void UpdateKernel(int n, int k, S *x, S *r, S *z, const S *p, const S *q, const S *dinv, bool other, Step *steps, Status *st)
{
  const D pq = steps[k].pq;
  D       rz = 0, rr = 0;

  if (st->stopped) return;
  if (!(Re(pq) * Re(steps[k].rz) > 0)) { /* p'Ap of another sign than r'z (both negative: a negative-definite A and inner PC), zero or not a number: keep what converged so far */
    if (blockIdx.x == 0 && threadIdx.x == 0) st->stopped = st->indefinite = 1;
    return;
  }
  const S alpha = ToSingle(Conj(steps[k].rz) / pq); /* r'z is real but for a continued direction (r'p) */
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const S ri = r[i] - alpha * q[i], zi = dinv ? dinv[i] * ri : ri;
    x[i] += alpha * p[i];
    r[i] = ri;
    if (dinv) z[i] = zi;
    if (!other) rz += DotTerm(ri, zi);
    rr += DotTerm(ri, ri);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) st->its = k + 1;
  if (!other) BlockSumTo(rz, &steps[k + 1].rz);
  BlockSumTo(rr, &steps[k + 1].rr);
}

/*
  stops when r'r <= tol2 (tol2 > 0); otherwise beta = r'z (k + 1) / r'z (k), p = z + beta p. hstop (pinned host memory, or
  NULL): the stop flag as the iteration leaves it, for the host that polls it (PCSPCGDevicePoll())
*/
__global__ void DirectionKernel(int n, int k, const S *z, S *p, const Step *steps, Status *st, int *hstop)
{
  const double tol2    = st->tol2;
  const int    stopped = st->stopped ? st->stopped : (tol2 > 0 && Re(steps[k + 1].rr) <= tol2);

  if (blockIdx.x == 0 && threadIdx.x == 0) {
    if (hstop) *hstop = stopped;
    if (stopped && !st->stopped) st->stopped = stopped;
  }
  if (stopped) return;
  const S beta = ToSingle(steps[k + 1].rz / steps[k].rz);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = z[i] + beta * p[i];
}

/* The graph's conditional nodes: the next iteration runs while the loop has not stopped */
__global__ void CondKernel(cudaGraphConditionalHandle handle, const Status *st)
{
  cudaGraphSetConditional(handle, st->stopped ? 0u : 1u);
}

/* out = scale x (or scale z when no inner step was taken); totals; the last direction taken and whether the floor stopped it, for the next application */
__global__ void FinishKernel(int n, int max_it, D *out, double scale, const S *x, const S *z, const Step *steps, Status *st)
{
  const S *src = st->its ? x : z;

  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = ToDouble(src[i]) * scale;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    st->total_its += st->its;
    st->total_indefinite += st->indefinite;
    st->have_dir = st->its > 0 && !st->indefinite;
    st->atfloor  = st->floorbinds && st->its > 0 && st->its < max_it && !st->indefinite && Re(steps[st->its].rr) <= st->tol2; /* before max_it: rr summed on every process */
    st->cont_off = st->cont_off || st->drift;
    st->drift    = 0;
    if (st->have_dir) st->rz_last = steps[st->its - 1].rz;
  }
}

/* A new solve: no direction to continue, and the inner floor (0: none) */
__global__ void StartSolveKernel(Status *st, double floor)
{
  st->have_dir = st->cont_off = st->drift = st->atfloor = 0;
  st->floor                                             = floor;
}

} // namespace

struct _n_PCSPCGDevice {
  PetscInt        n, max_it;
  PetscMPIInt     size;
  S              *x, *r, *z, *p, *q, *dinv; /* z is r without Jacobi */
  Step           *steps;                    /* max_it + 1 of them */
  Status         *status;
  Step           *hstep; /* sync: pinned host copy of one step, for the MPI_Allreduce */
  bool            sync;  /* the host follows the iterations (several processes through MPI, or an inner PC in double) */
  JaggedNCCL      nccl;  /* several processes: the sums go through NCCL on the stream, ... */
  JaggedIPCSum    ipc;   /* ... or through CUDA IPC on the stream, else through MPI */
  bool            gpusums; /* the sums go GPU to GPU (nccl or ipc) */
  const char     *why;   /* why they go the way they go */
  char            whynot[128]; /* why not through CUDA IPC */
  int            *hstop;   /* sums on the GPU (no sync): the stop flag of the last two iterations, in pinned host memory the GPU writes ... */
  cudaEvent_t     polled[2]; /* ... and the events of their copies */
  bool            cont;  /* the captured graph continues the direction */
  double          tol2;  /* of the current application (the host's copy, for the loop it follows) */
  Mat             seq;   /* on one process: the sequential jagged matrix whose product the graph captures */
  bool            graph; /* the iterations are captured into a CUDA graph (one process, no inner PC in double) */
  cudaStream_t    capture, body; /* the streams capturing the graph and the bodies of its conditional nodes */
  cudaGraphConditionalHandle *cond; /* their handles, one a node (from 1 to max_it - 1): iteration k runs (the loop went on) */
  cudaGraphExec_t exec;
  PetscObjectState generation; /* of seq's device arrays when exec was captured */
  PetscLogDouble   flops_mult, flops_vec; /* of one inner iteration */
};


/*
  Sums a part of steps[k] over the processes: on the stream through NCCL or CUDA IPC, or through the host (the
  device's MPI need not be CUDA-aware), which then also gets the sums in hstep
*/
static PetscErrorCode PCSPCGDeviceAllreduce(PC pc, PCSPCGDevice d, PetscInt k, size_t offset, PetscMPIInt count, cudaStream_t stream)
{
  char *dst = reinterpret_cast<char *>(d->steps + k) + offset, *h = reinterpret_cast<char *>(d->hstep) + offset;

  PetscFunctionBegin;
  if (d->nccl) { /* the host does not follow the iterations */
    PetscCall(JaggedNCCLAllreduceSum(d->nccl, dst, count, PETSC_SCALAR, stream));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (d->ipc) {
    PetscCall(JaggedIPCSumAllreduce(d->ipc, reinterpret_cast<double *>(dst), (int)(count * sizeof(D) / sizeof(double)), &d->status->stopped, stream));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallCUDA(cudaMemcpyAsync(h, dst, sizeof(D) * count, cudaMemcpyDeviceToHost, stream));
  PetscCallCUDA(cudaStreamSynchronize(stream));
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, h, count, MPIU_SCALAR, MPIU_SUM, PetscObjectComm((PetscObject)pc)));
  PetscCallCUDA(cudaMemcpyAsync(dst, h, sizeof(D) * count, cudaMemcpyHostToDevice, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* z = M r (and p = z at step 0) with the inner PC applied in double precision (PCSPCGApplyOther()); r'z of step k */
static PetscErrorCode PCSPCGDeviceInnerPC(PC pc, PetscInt k, cudaStream_t stream)
{
  PC_SPCG       *s = (PC_SPCG *)pc->data;
  PCSPCGDevice   d = s->dev;
  const int      n = (int)d->n;
  PetscScalar   *rd;
  const PetscScalar *zd;

  PetscFunctionBegin;
  PetscCall(VecCUDAGetArrayWrite(s->wr, &rd));
  ToDoubleKernel<<<JaggedBlocks(n, kThreads, kMaxBlocks), kThreads, 0, stream>>>(n, d->r, reinterpret_cast<D *>(rd));
  PetscCallCUDA(cudaGetLastError());
  PetscCall(VecCUDARestoreArrayWrite(s->wr, &rd));
  PetscCall(PCSPCGApplyOther(pc));
  PetscCall(VecCUDAGetArrayRead(s->wz, &zd));
  FromDoubleKernel<<<JaggedBlocks(n, kThreads, kMaxBlocks), kThreads, 0, stream>>>(n, reinterpret_cast<const D *>(zd), d->r, d->z, k || s->cont ? nullptr : d->p, d->steps + k);
  PetscCallCUDA(cudaGetLastError());
  PetscCall(VecCUDARestoreArrayRead(s->wz, &zd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* z = V r with the V-cycle of the inner PCMG's image on stream (and p = z at step 0); r'z of step k */
static PetscErrorCode PCSPCGDeviceVCycle(PC pc, PetscInt k, cudaStream_t stream)
{
  PC_SPCG     *s = (PC_SPCG *)pc->data;
  PCSPCGDevice d = s->dev;
  const int    n = (int)d->n;

  PetscFunctionBegin;
  PetscCall(PCSPCGMGApplyDevice(s->mg, reinterpret_cast<PetscJaggedScalarSingle *>(d->r), reinterpret_cast<PetscJaggedScalarSingle *>(d->z), &d->status->stopped, stream));
  VCycleDotKernel<<<JaggedBlocks(n, kThreads, kMaxBlocks), kThreads, 0, stream>>>(n, d->r, d->z, k || s->cont ? nullptr : d->p, d->steps + k, d->status);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Sums on the GPU (no sync): whether iteration k - 1 stopped, once the GPU has finished it (iteration k is
  queued behind it, so the GPU does not wait for the host); DirectionKernel() wrote the flag into pinned host
  memory (no copy: a copy cost the GPU about 8 us an iteration on two H200s). All processes see the same flag,
  but for a sum through CUDA IPC that waited in vain for another process's values (an error here, not a hang).
*/
static PetscErrorCode PCSPCGDevicePoll(PCSPCGDevice d, PetscInt k, cudaStream_t stream, bool *stop)
{
  PetscFunctionBegin;
  PetscCallCUDA(cudaEventRecord(d->polled[k % 2], stream));
  *stop = false;
  if (k > 0) {
    PetscCallCUDA(cudaEventSynchronize(d->polled[(k - 1) % 2]));
    PetscCheck(d->hstop[(k - 1) % 2] != JAGGED_IPC_SUM_LOST, PETSC_COMM_SELF, PETSC_ERR_LIB, "An inner sum through CUDA IPC waited in vain for another process's values: that process stopped or fell too far behind");
    *stop = d->hstop[(k - 1) % 2] != 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Inner iteration k on stream; *brk: the host leaves the loop after it (it follows the iterations and saw them stop,
  the last iteration, or on several processes a stop seen)
*/
static PetscErrorCode PCSPCGDeviceIteration(PC pc, PetscInt k, cudaStream_t stream, bool *brk)
{
  PC_SPCG     *s = (PC_SPCG *)pc->data;
  PCSPCGDevice d = s->dev;
  const int    n = (int)d->n;
  const double tol2 = d->tol2;
  const S     *dinv = s->diag ? d->dinv : nullptr;
  const bool   sync = d->sync, other = s->other != NULL, vcycle = s->mg != NULL, reduce = d->sync || d->gpusums;
  const size_t sums = offsetof(Step, rz);

  PetscFunctionBegin;
  *brk = true;
  if (s->hasblocks) { /* the product sums p'q itself */
    PetscCall(MatSingleMultDevice(&s->copy, reinterpret_cast<PetscJaggedScalarSingle *>(d->p), PETSC_FALSE, reinterpret_cast<PetscJaggedScalarSingle *>(d->q), &d->status->stopped, reinterpret_cast<PetscScalar *>(&d->steps[k].pq), stream));
  } else {
    if (d->seq) PetscCall(MatSeqJaggedMultSingleLaunch(d->seq, reinterpret_cast<PetscJaggedScalarSingle *>(d->p), reinterpret_cast<PetscJaggedScalarSingle *>(d->q), stream));
    else PetscCall(MatJaggedMultSingle(s->A, reinterpret_cast<PetscJaggedScalarSingle *>(d->p), reinterpret_cast<PetscJaggedScalarSingle *>(d->q)));
    DotKernel<<<JaggedBlocks(n, kThreads, kMaxBlocks), kThreads, 0, stream>>>(n, d->p, d->q, d->steps + k, d->status);
    PetscCallCUDA(cudaGetLastError());
  }
  if (reduce) PetscCall(PCSPCGDeviceAllreduce(pc, d, k, offsetof(Step, pq), 1, stream));
  UpdateKernel<<<JaggedBlocks(n, kThreads, kMaxBlocks), kThreads, 0, stream>>>(n, (int)k, d->x, d->r, d->z, d->p, d->q, dinv, other || vcycle, d->steps, d->status);
  PetscCallCUDA(cudaGetLastError());
  if (sync && !(PetscRealPart(d->hstep->pq) > 0)) PetscFunctionReturn(PETSC_SUCCESS);
  if (k + 1 == s->max_it) PetscFunctionReturn(PETSC_SUCCESS);
  if (other) { /* the inner PC in double costs as much as an iteration of the outer PCG: not applied once the tolerance is met */
    if (tol2 > 0) {
      PetscCall(PCSPCGDeviceAllreduce(pc, d, k + 1, offsetof(Step, rr), 1, stream));
      if (PetscRealPart(d->hstep->rr) <= tol2) PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(PCSPCGDeviceInnerPC(pc, k + 1, stream));
    PetscCall(PCSPCGDeviceAllreduce(pc, d, k + 1, sums, 1, stream));
  } else if (vcycle) { /* several processes: r'r summed before the tolerance test, r'z after the V-cycle */
    if (reduce) PetscCall(PCSPCGDeviceAllreduce(pc, d, k + 1, offsetof(Step, rr), 1, stream));
    ToleranceKernel<<<1, 1, 0, stream>>>((int)k, d->steps, d->status);
    PetscCallCUDA(cudaGetLastError());
    if (sync && tol2 > 0 && PetscRealPart(d->hstep->rr) <= tol2) PetscFunctionReturn(PETSC_SUCCESS); /* the host follows: no V-cycle for a stopped loop */
    PetscCall(PCSPCGDeviceVCycle(pc, k + 1, stream));
    if (reduce) PetscCall(PCSPCGDeviceAllreduce(pc, d, k + 1, sums, 1, stream));
    if (s->mg->hstop && *s->mg->hstop) PetscFunctionReturn(PETSC_SUCCESS); /* its coarse solve crossed the host, which saw the loop stopped */
  } else if (reduce) PetscCall(PCSPCGDeviceAllreduce(pc, d, k + 1, sums, 2, stream)); /* r'r: the floor may stop the loop */
  DirectionKernel<<<JaggedBlocks(n, kThreads, kMaxBlocks), kThreads, 0, stream>>>(n, (int)k, d->z, d->p, d->steps, d->status, d->hstop ? d->hstop + k % 2 : nullptr);
  PetscCallCUDA(cudaGetLastError());
  if (sync && !other && tol2 > 0 && PetscRealPart(d->hstep->rr) <= tol2) PetscFunctionReturn(PETSC_SUCCESS);
  if (d->hstop) {
    bool stop;

    PetscCall(PCSPCGDevicePoll(d, k, stream, &stop));
    if (stop) PetscFunctionReturn(PETSC_SUCCESS);
  }
  *brk = false;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Captured: the next iteration's kernels go into the body of a conditional node of the graph, captured on d->body,
  which runs only while the loop goes on (its handle set by CondKernel at the end of the iteration before), so
  that the iterations after a stop cost a node each, not their kernels (a V-cycle has tens of them)
*/
static PetscErrorCode PCSPCGDeviceBeginIf(PCSPCGDevice d, PetscInt k, cudaStream_t stream)
{
  cudaStreamCaptureStatus status;
  cudaGraph_t             graph;
  const cudaGraphNode_t  *deps;
  size_t                  ndeps;
  cudaGraphNodeParams     params = {};
  cudaGraphNode_t         node;

  PetscFunctionBegin;
  PetscCallCUDA(cudaStreamGetCaptureInfo(stream, &status, NULL, &graph, &deps, NULL, &ndeps));
  params.type               = cudaGraphNodeTypeConditional;
  params.conditional.handle = d->cond[k];
  params.conditional.type   = cudaGraphCondTypeIf;
  params.conditional.size   = 1;
  PetscCallCUDA(cudaGraphAddNode(&node, graph, deps, NULL, ndeps, &params));
  PetscCallCUDA(cudaStreamUpdateCaptureDependencies(stream, &node, NULL, 1, cudaStreamSetCaptureDependencies));
  PetscCallCUDA(cudaStreamBeginCaptureToGraph(d->body, params.conditional.phGraph_out[0], NULL, NULL, 0, cudaStreamCaptureModeThreadLocal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Captured, after iteration k on stream: the handle of iteration k + 1's conditional node set to whether the loop goes
  on (a handle serves one node; one not set, its iteration's node skipped, stays 0), and the body's capture ended
*/
static PetscErrorCode PCSPCGDeviceEndIteration(PCSPCGDevice d, PetscInt k, PetscInt max_it, cudaStream_t stream, bool body)
{
  PetscFunctionBegin;
  if (k + 1 < max_it) {
    CondKernel<<<1, 1, 0, stream>>>(d->cond[k + 1], d->status);
    PetscCallCUDA(cudaGetLastError());
  }
  if (body) {
    cudaGraph_t graph;

    PetscCallCUDA(cudaStreamEndCapture(stream, &graph)); /* the conditional node's own body graph */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The inner iterations after StartKernel, launched on stream: captured into the graph on one process (capture),
  every iteration after the first in a conditional node, run directly on more (then the host also leaves the loop
  as soon as a stop condition is seen: at once where it follows the iterations, one iteration later through NCCL)
*/
static PetscErrorCode PCSPCGDeviceIterations(PC pc, cudaStream_t stream, bool capture)
{
  PC_SPCG     *s = (PC_SPCG *)pc->data;
  PCSPCGDevice d = s->dev;
  const int    n = (int)d->n;
  const bool   reduce = d->sync || d->gpusums;
  const size_t sums = offsetof(Step, rz);

  PetscFunctionBegin;
  if (s->other) PetscCall(PCSPCGDeviceInnerPC(pc, 0, stream));
  else if (s->mg) PetscCall(PCSPCGDeviceVCycle(pc, 0, stream));
  if (reduce) PetscCall(PCSPCGDeviceAllreduce(pc, d, 0, sums, s->cont ? 2 : 1, stream));
  if (s->cont) {
    ContinueKernel<<<JaggedBlocks(n, kThreads, kMaxBlocks), kThreads, 0, stream>>>(n, d->z, d->p, d->steps, d->status);
    PetscCallCUDA(cudaGetLastError());
    FirstRzKernel<<<1, 1, 0, stream>>>(d->steps, d->status);
    PetscCallCUDA(cudaGetLastError());
  }
  for (PetscInt k = 0; k < s->max_it; k++) {
    const bool   body = capture && k > 0;
    cudaStream_t cs   = body ? d->body : stream;
    bool         brk;

    if (body) PetscCall(PCSPCGDeviceBeginIf(d, k, stream));
    PetscCall(PCSPCGDeviceIteration(pc, k, cs, &brk));
    if (capture) PetscCall(PCSPCGDeviceEndIteration(d, k, s->max_it, cs, body));
    if (brk) break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (Re)captures the graph of the inner iterations when the operator's device arrays moved */
static PetscErrorCode PCSPCGDeviceCapture(PC pc)
{
  PCSPCGDevice     d      = ((PC_SPCG *)pc->data)->dev;
  const PetscInt   max_it = ((PC_SPCG *)pc->data)->max_it;
  PetscObjectState generation;
  cudaGraph_t      graph;

  PetscFunctionBegin;
  if (d->seq) PetscCall(MatSeqJaggedSingleReady(d->seq, &generation));
  else generation = 0; /* the CSR copy lives as long as this device loop */
  if (d->exec && generation == d->generation && d->cont == (bool)((PC_SPCG *)pc->data)->cont) PetscFunctionReturn(PETSC_SUCCESS);
  if (d->exec) PetscCallCUDA(cudaGraphExecDestroy(d->exec));
  d->exec = nullptr;
  if (!d->capture) PetscCallCUDA(cudaStreamCreateWithFlags(&d->capture, cudaStreamNonBlocking));
  if (!d->body) PetscCallCUDA(cudaStreamCreateWithFlags(&d->body, cudaStreamNonBlocking));
  PetscCallCUDA(cudaGraphCreate(&graph, 0));
  PetscCall(PetscFree(d->cond));
  PetscCall(PetscMalloc1(max_it, &d->cond));
  for (PetscInt k = 1; k < max_it; k++) PetscCallCUDA(cudaGraphConditionalHandleCreate(&d->cond[k], graph, 0, cudaGraphCondAssignDefault)); /* 0 at each launch until set */
  PetscCallCUDA(cudaStreamBeginCaptureToGraph(d->capture, graph, NULL, NULL, 0, cudaStreamCaptureModeThreadLocal));
  PetscCall(PCSPCGDeviceIterations(pc, d->capture, true));
  PetscCallCUDA(cudaStreamEndCapture(d->capture, &graph));
  PetscCallCUDA(cudaGraphInstantiate(&d->exec, graph, 0));
  PetscCallCUDA(cudaGraphDestroy(graph));
  d->generation = generation;
  d->cont       = ((PC_SPCG *)pc->data)->cont;
  PetscCall(PetscInfo(pc, "Captured the %" PetscInt_FMT " inner iterations into a CUDA graph, each after the first run only while the loop goes on\n", max_it));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCSPCGDeviceDestroy(PCSPCGDevice *dev)
{
  PCSPCGDevice d = *dev;

  PetscFunctionBegin;
  if (!d) PetscFunctionReturn(PETSC_SUCCESS);
  if (d->ipc) {
    cudaStream_t stream;

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCall(JaggedIPCSumDestroy(&d->ipc, stream));
  }
  if (d->exec) PetscCallCUDA(cudaGraphExecDestroy(d->exec));
  if (d->capture) PetscCallCUDA(cudaStreamDestroy(d->capture));
  if (d->body) PetscCallCUDA(cudaStreamDestroy(d->body));
  PetscCall(PetscFree(d->cond));
  for (void *a : {(void *)d->x, (void *)d->r, (void *)d->p, (void *)d->q, (void *)d->dinv, (void *)d->steps, (void *)d->status})
    if (a) PetscCallCUDA(cudaFree(a));
  if (d->z != d->r && d->z) PetscCallCUDA(cudaFree(d->z));
  if (d->hstep) PetscCallCUDA(cudaFreeHost(d->hstep));
  if (d->hstop) {
    PetscCallCUDA(cudaFreeHost(d->hstop));
    for (cudaEvent_t e : d->polled) PetscCallCUDA(cudaEventDestroy(e));
  }
  PetscCall(PetscFree(*dev));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Device vectors and sums for the inner loop; dinv: the host Jacobi inverse diagonal, or NULL */
PetscErrorCode PCSPCGDeviceCreate(PC pc, Vec dinv, PCSPCGDevice *dev)
{
  PC_SPCG     *s = (PC_SPCG *)pc->data;
  PCSPCGDevice d;
  const size_t bytes = sizeof(S) * PetscMax(s->n, 1);
  Mat          Ad;
  PetscBool    isseq;

  PetscFunctionBegin;
  PetscCall(PetscNew(&d));
  *dev      = d;
  d->n      = s->n;
  d->max_it = s->max_it;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &d->size));
  {
    MatInfo   info;
    PetscBool has;

    PetscCall(MatHasOperation(pc->pmat, MATOP_GETINFO, &has));
    if (has) PetscCall(MatGetInfo(pc->pmat, MAT_LOCAL, &info));
    d->flops_mult = has ? 2.0 * info.nz_used : 0; /* a matrix-free product logs its own flops, if any */
    d->flops_vec  = (s->diag ? 14.0 : 12.0) * s->n + (s->mg ? s->mg->flops + 2.0 * s->n : 0); /* a V-cycle at each iteration, with r'z */
  }
  PetscCallCUDA(cudaMalloc((void **)&d->x, bytes));
  PetscCallCUDA(cudaMalloc((void **)&d->r, bytes));
  PetscCallCUDA(cudaMalloc((void **)&d->p, bytes));
  PetscCallCUDA(cudaMalloc((void **)&d->q, bytes));
  if (s->diag) {
    const PetscScalar       *da;
    PetscJaggedScalarSingle *h;

    PetscCallCUDA(cudaMalloc((void **)&d->z, bytes));
    PetscCallCUDA(cudaMalloc((void **)&d->dinv, bytes));
    PetscCall(PetscMalloc1(PetscMax(s->n, 1), &h));
    PetscCall(VecGetArrayRead(dinv, &da));
    for (PetscInt i = 0; i < s->n; i++) h[i] = (PetscJaggedScalarSingle)da[i];
    PetscCall(VecRestoreArrayRead(dinv, &da));
    PetscCallCUDA(cudaMemcpy(d->dinv, h, sizeof(S) * s->n, cudaMemcpyHostToDevice));
    PetscCall(PetscFree(h));
  } else if (s->other || s->mg) PetscCallCUDA(cudaMalloc((void **)&d->z, bytes));
  else d->z = d->r;
  if (d->size > 1) { /* an inner PC in double makes the host follow every iteration: the sums go through MPI then */
    if (s->other) d->why = "the host follows the iterations of an inner PC in double precision";
    else if (s->exchange == PETSC_JAGGED_EXCHANGE_NCCL) PetscCall(JaggedNCCLGet(PetscObjectComm((PetscObject)pc), &d->nccl, &d->why));
    else if (s->exchange == PETSC_JAGGED_EXCHANGE_MPI) d->why = "MPI asked for";
    else { /* auto or ipc: through CUDA IPC where it can run (NCCL's communicator takes a fraction of a second to make, and the halos go through CUDA IPC) */
      const char *why;

      PetscCall(JaggedIPCSumCreate(PetscObjectComm((PetscObject)pc), &d->ipc, &why));
      if (d->ipc) d->why = s->exchange == PETSC_JAGGED_EXCHANGE_AUTO ? "auto: the processes share a host, a GPU each" : NULL;
      else {
        PetscCall(PetscSNPrintf(d->whynot, sizeof(d->whynot), "%snot CUDA IPC: %s", s->exchange == PETSC_JAGGED_EXCHANGE_AUTO ? "auto: " : "", why));
        d->why = d->whynot;
      }
    }
  }
  d->gpusums = d->nccl || d->ipc;
  d->sync    = (d->size > 1 && !d->gpusums) || s->other;
  if (d->gpusums) {
    PetscCallCUDA(cudaMallocHost((void **)&d->hstop, 2 * sizeof(int)));
    for (cudaEvent_t &e : d->polled) PetscCallCUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  }
  PetscCallCUDA(cudaMalloc((void **)&d->steps, sizeof(Step) * (s->max_it + 1)));
  PetscCallCUDA(cudaMalloc((void **)&d->status, sizeof(Status)));
  PetscCallCUDA(cudaMemset(d->status, 0, sizeof(Status)));
  if (d->sync) PetscCallCUDA(cudaMallocHost((void **)&d->hstep, sizeof(Step))); /* only the host that follows reads the sums (the process's first pinned allocation: 5.8 ms on an H200) */
  /*
    one process: the graph multiplies with the CSR copy, or the sequential jagged matrix itself (an MPI jagged matrix's diagonal
    block); a V-cycle whose coarse solve crosses the host is not captured, nor one with half-precision levels: after such a graph
    ran (its conditional nodes are the ingredient: the same kernels captured without them did not do it), a later
    cusparseSpGEMM_compute() of the process (PCGAMG's next set-up) was seen never to end (bench/RESULTS.md, "A stop after MPCG")
  */
  d->graph = d->size == 1 && s->graph && !s->other && !(s->mg && (!s->mg->dense || PCSPCGMGHalf(s->mg)));
  if (d->graph && s->A) { /* a product provided through MatJaggedSetMultSingle() is called at each iteration, not captured */
    PetscBool ismpi;

    PetscCall(PetscObjectTypeCompareAny((PetscObject)s->A, &isseq, MATSEQJDSCUDA, MATSEQPJDSCUDA, ""));
    PetscCall(PetscObjectTypeCompareAny((PetscObject)s->A, &ismpi, MATMPIJDSCUDA, MATMPIPJDSCUDA, ""));
    if (isseq) d->seq = s->A;
    else if (ismpi) { /* its diagonal block */
      PetscCall(MatMPIAIJGetSeqAIJ(s->A, &Ad, NULL, NULL));
      d->seq = Ad;
    } else d->graph = false;
  }
  s->ingraph = (PetscBool)d->graph;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCSPCGDeviceStartSolve(PC pc, PetscReal floor)
{
  PCSPCGDevice d = ((PC_SPCG *)pc->data)->dev;
  cudaStream_t stream;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  StartSolveKernel<<<1, 1, 0, stream>>>(d->status, (double)floor);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* z = B r with the device inner loop; rnorm = ||r|| > 0; tol2: the inner stopping tolerance, squared (0: none) */
PetscErrorCode PCSPCGDeviceApply(PC pc, Vec rv, PetscReal rnorm, PetscReal tol2, Vec zv)
{
  PC_SPCG           *s = (PC_SPCG *)pc->data;
  PCSPCGDevice       d = s->dev;
  const PetscScalar *ra;
  PetscScalar       *za;
  cudaStream_t       stream;
  const int          n = (int)d->n;

  PetscFunctionBegin;
  d->tol2 = (double)tol2;
  if (d->graph) PetscCall(PCSPCGDeviceCapture(pc));
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(PetscLogGpuTimeBegin());
  PetscCallCUDA(cudaMemsetAsync(d->steps, 0, sizeof(Step) * (s->max_it + 1), stream));
  PetscCall(VecCUDAGetArrayRead(rv, &ra));
  StartKernel<<<JaggedBlocks(n, kThreads, kMaxBlocks), kThreads, 0, stream>>>(n, reinterpret_cast<const D *>(ra), 1.0 / (double)rnorm, d->x, d->r, d->z, d->p, s->diag ? d->dinv : nullptr, s->other || s->mg, (bool)s->cont, (double)tol2,
                                                      s->rnormlast > 0 ? (double)(rnorm / s->rnormlast) : 0.0, d->steps, d->status);
  PetscCallCUDA(cudaGetLastError());
  PetscCall(VecCUDARestoreArrayRead(rv, &ra));
  if (d->sync) { /* the host follows the iterations: it needs the tolerance StartKernel chose */
    PetscCallCUDA(cudaMemcpyAsync(&d->tol2, &d->status->tol2, sizeof(double), cudaMemcpyDeviceToHost, stream));
    PetscCallCUDA(cudaStreamSynchronize(stream));
  }
  if (d->graph) PetscCallCUDA(cudaGraphLaunch(d->exec, stream));
  else PetscCall(PCSPCGDeviceIterations(pc, stream, false));
  PetscCall(VecCUDAGetArrayWrite(zv, &za));
  FinishKernel<<<JaggedBlocks(n, kThreads, kMaxBlocks), kThreads, 0, stream>>>(n, (int)s->max_it, reinterpret_cast<D *>(za), (double)rnorm, d->x, d->z, d->steps, d->status);
  PetscCallCUDA(cudaGetLastError());
  PetscCall(VecCUDARestoreArrayWrite(zv, &za));
  PetscCall(PetscLogGpuTimeEnd());
  {
    PetscBool logging;

    PetscCall(PetscLogIsActive(&logging));
    if (logging) { /* the flops of the iterations run: their count waits for the device, so only when logging */
      int its;

      PetscCallCUDA(cudaMemcpyAsync(&its, &d->status->its, sizeof(int), cudaMemcpyDeviceToHost, stream));
      PetscCallCUDA(cudaStreamSynchronize(stream));
      PetscCall(PetscLogGpuFlops((d->graph || s->hasblocks ? d->flops_mult + d->flops_vec : d->flops_vec) * its)); /* MatJaggedMultSingle() logs its own */
    }
  }
  s->napply++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* How the inner sums travel between processes: through NCCL, CUDA IPC or MPI, and why (NULL on one process) */
PetscErrorCode PCSPCGDeviceGetExchange(PC pc, PetscJaggedExchange *exchange, const char **why)
{
  PCSPCGDevice d = ((PC_SPCG *)pc->data)->dev;

  PetscFunctionBegin;
  *exchange = d->nccl ? PETSC_JAGGED_EXCHANGE_NCCL : (d->ipc ? PETSC_JAGGED_EXCHANGE_IPC : PETSC_JAGGED_EXCHANGE_MPI);
  *why      = d->why;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Inner iterations and breakdowns since set-up, and the inner floor (waits for the device) */
PetscErrorCode PCSPCGDeviceGetStatistics(PC pc, PetscInt *napply, PetscInt *ninner, PetscInt *nindefinite, PetscReal *floor)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;
  Status   st;

  PetscFunctionBegin;
  PetscCallCUDA(cudaMemcpy(&st, s->dev->status, sizeof(Status), cudaMemcpyDeviceToHost));
  if (napply) *napply = s->napply;
  if (ninner) *ninner = (PetscInt)st.total_its;
  if (nindefinite) *nindefinite = (PetscInt)st.total_indefinite;
  if (floor) *floor = (PetscReal)st.floor;
  PetscFunctionReturn(PETSC_SUCCESS);
}
