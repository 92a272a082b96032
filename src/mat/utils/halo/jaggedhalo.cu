/*
   JaggedHalo (see jaggedhalo.h). The plan comes from a PetscSF of type basic (a copy is made of any
   other): for each neighbour, the owned entries it needs (PetscSFGetLeafRanks(), in the order the
   neighbour lists them) and the ghost entries it provides (PetscSFGetRootRanks()). One message each
   way per neighbour, of unit bytes an entry: through CUDA IPC (peer copies into the receivers' device
   buffers, jaggedhaloipc.cu), through NCCL from device buffer to device buffer, through a GPU-aware MPI
   (-use_gpu_aware_mpi) from device buffer to device buffer, or through MPI and pinned host buffers.
   PETSC_JAGGED_EXCHANGE_AUTO takes CUDA IPC where the processes share a host, else MPI.
*/
#include <petsc/private/petscimpl.h> /* use_gpu_aware_mpi */
#include <petscjagged/private/jaggedhalo.h>
#include <petscjagged/private/jaggednccl.h>
#include <petscjagged/private/jaggedhaloipc.h>
#include <cstdint>
#include <petscjagged/private/jaggedlaunch.cuh>

struct _n_JaggedHalo {
  MPI_Comm     comm;
  PetscMPIInt  tag, rank;
  size_t       unit;   /* bytes an entry */
  PetscBool    device; /* the arrays are in device memory */
  PetscMPIInt  nsend, nrecv;
  PetscMPIInt *sendrank, *recvrank;
  PetscInt    *sendoff, *recvoff; /* [n + 1] entries of each message */
  PetscInt    *sendidx, *recvidx; /* owned entries to send; ghost entries received (host) */
  int         *dsendidx, *drecvidx;
  PetscInt     leafbase;   /* the ghosts are leafbase, leafbase + 1, ... in message order: received in place */
  PetscBool    leafcontig;
  PetscBool    inplace; /* JaggedHaloEndInPlace() left the ghosts in the CUDA IPC receive buffer: JaggedHaloRelease() frees it */
  char        *hsend, *hrecv; /* pinned (device) or plain host buffers */
  char        *dsend, *drecv;
  MPI_Request *req;
  JaggedNCCL    nccl;   /* the exchange runs through NCCL (device arrays) ... */
  JaggedHaloIPC ipc[2]; /* ... or through CUDA IPC: the forward [0] and the reverse [1] exchange ... */
  PetscBool     gpuaware;   /* ... or through MPI from and into device buffers (device arrays, -use_gpu_aware_mpi), else staged through hsend, hrecv */
  const char   *reversesrc; /* NCCL, CUDA IPC or GPU-aware MPI: the ghost entries the reverse exchange sends */
  char          why[192];   /* why this path: what auto found, or why not the one asked for (empty: asked for and taken) */
  cudaStream_t copy;   /* of the copies to and from the host, or of the NCCL exchange; of the greatest priority */
  cudaEvent_t  packed, sent, arrived;
};

namespace {

struct alignas(16) Unit16 {
  std::uint64_t a, b;
};

template <typename T>
__global__ void HaloGatherKernel(PetscInt n, const int *idx, const T *src, T *dst)
{
  for (PetscInt i = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i < n; i += (PetscInt)gridDim.x * blockDim.x) dst[i] = src[idx[i]];
}

template <typename T>
__global__ void HaloScatterKernel(PetscInt n, const int *idx, const T *src, T *dst)
{
  for (PetscInt i = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i < n; i += (PetscInt)gridDim.x * blockDim.x) dst[idx[i]] = src[i];
}

/* dst[k] = src[idx[k]] (gather) or dst[idx[k]] = src[k] (scatter), k < n, on the device (stream) or the host (its twin) */
template <typename T>
PetscErrorCode JaggedHaloMove(bool gather, bool device, PetscInt n, const PetscInt *hidx, const int *didx, const void *src, void *dst, cudaStream_t stream)
{
  const T *s = static_cast<const T *>(src);
  T       *d = static_cast<T *>(dst);

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  if (device) {
    const unsigned blocks = JaggedBlocks(n, 256, 4096);

    if (gather) HaloGatherKernel<T><<<blocks, 256, 0, stream>>>(n, didx, s, d);
    else HaloScatterKernel<T><<<blocks, 256, 0, stream>>>(n, didx, s, d);
    PetscCallCUDA(cudaGetLastError());
  } else if (gather) {
    for (PetscInt k = 0; k < n; k++) d[k] = s[hidx[k]];
  } else {
    for (PetscInt k = 0; k < n; k++) d[hidx[k]] = s[k];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode JaggedHaloMoveUnit(size_t unit, bool gather, bool device, PetscInt n, const PetscInt *hidx, const int *didx, const void *src, void *dst, cudaStream_t stream)
{
  PetscFunctionBegin;
  switch (unit) {
  case 4:
    PetscCall(JaggedHaloMove<std::uint32_t>(gather, device, n, hidx, didx, src, dst, stream));
    break;
  case 8:
    PetscCall(JaggedHaloMove<std::uint64_t>(gather, device, n, hidx, didx, src, dst, stream));
    break;
  case 16:
    PetscCall(JaggedHaloMove<Unit16>(gather, device, n, hidx, didx, src, dst, stream));
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "Halo entries of %zu bytes are not supported (4, 8 or 16)", unit);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dst[idx[k]] += src[k], k < n, for PetscScalar entries of ncomp doubles; atomic: an owned entry may be a ghost of several processes */
__global__ void HaloAddKernel(PetscInt n, int ncomp, const int *idx, const double *src, double *dst)
{
  for (PetscInt i = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i < n; i += (PetscInt)gridDim.x * blockDim.x)
    for (int c = 0; c < ncomp; c++) atomicAdd(&dst[(PetscInt)idx[i] * ncomp + c], src[i * ncomp + c]);
}

/* An index list on the device, as int */
PetscErrorCode JaggedHaloDeviceIndices(PetscInt n, const PetscInt *h, int **d)
{
  int *tmp;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(PetscMax(n, 1), &tmp));
  for (PetscInt k = 0; k < n; k++) PetscCall(PetscIntCast(h[k], &tmp[k]));
  PetscCallCUDA(cudaMalloc((void **)d, sizeof(int) * PetscMax(n, 1)));
  PetscCallCUDA(cudaMemcpy(*d, tmp, sizeof(int) * n, cudaMemcpyHostToDevice));
  PetscCall(PetscFree(tmp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace

/*
  The path of a halo of device arrays: the one asked for where it can run, else MPI; auto takes CUDA IPC where the
  processes share a host (no host synchronization, a copy engine each way), else MPI (from the device buffers where
  PETSc reports a GPU-aware MPI). h->why says what was found. Collective.
*/
static PetscErrorCode JaggedHaloChoose(JaggedHalo h, PetscJaggedExchange exchange)
{
  PetscMPIInt size;
  const char *why = NULL;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(h->comm, &size));
  if (size > 1 && exchange == PETSC_JAGGED_EXCHANGE_NCCL) PetscCall(JaggedNCCLGet(h->comm, &h->nccl, &why));
  else if (size > 1 && exchange != PETSC_JAGGED_EXCHANGE_MPI) {
    PetscCall(JaggedHaloIPCCreate(h->comm, h->unit, h->nsend, h->sendrank, h->sendoff, h->nrecv, h->recvrank, h->recvoff, &h->ipc[0], &why));
    if (h->ipc[0]) PetscCall(JaggedHaloIPCCreate(h->comm, h->unit, h->nrecv, h->recvrank, h->recvoff, h->nsend, h->sendrank, h->sendoff, &h->ipc[1], &why));
    PetscCheck(!h->ipc[0] || h->ipc[1], PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA IPC mapped the forward exchange but not the reverse one: %s", why);
  }
  h->gpuaware = (PetscBool)(!h->nccl && !h->ipc[0] && use_gpu_aware_mpi);
  if (exchange == PETSC_JAGGED_EXCHANGE_AUTO && size > 1) PetscCall(PetscSNPrintf(h->why, sizeof(h->why), "auto: %s%s", h->ipc[0] ? "the processes share a host" : "not CUDA IPC: ", h->ipc[0] ? "" : why));
  else if (size == 1 && exchange != PETSC_JAGGED_EXCHANGE_MPI && exchange != PETSC_JAGGED_EXCHANGE_AUTO) PetscCall(PetscSNPrintf(h->why, sizeof(h->why), "%s asked for: one process", PetscJaggedExchanges[exchange]));
  else if (why) PetscCall(PetscSNPrintf(h->why, sizeof(h->why), "%s asked for: %s", PetscJaggedExchanges[exchange], why));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  JaggedHaloDirect - whether a halo of device arrays on comm, asked for exchange, would move its values from GPU to GPU
  (CUDA IPC, NCCL or a GPU-aware MPI) rather than through host memory: for choices made before the halo is. Collective
*/
PetscErrorCode JaggedHaloDirect(MPI_Comm comm, PetscJaggedExchange exchange, PetscBool *direct)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  *direct = (PetscBool)(size > 1 && (use_gpu_aware_mpi || exchange == PETSC_JAGGED_EXCHANGE_NCCL));
  if (size > 1 && !*direct && exchange != PETSC_JAGGED_EXCHANGE_MPI) PetscCall(JaggedHaloIPCOneHost(comm, direct));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  JaggedHaloCreate - the exchange of sf (roots: owned entries, leaves: ghosts) for arrays of unit bytes an
  entry, in device memory (device) or host memory, through NCCL where asked for and possible (device
  arrays on several processes), else through MPI. Collective on sf's communicator.
*/
PetscErrorCode JaggedHaloCreate(PetscSF sf, size_t unit, PetscBool device, PetscJaggedExchange exchange, JaggedHalo *halo)
{
  JaggedHalo         h;
  PetscSF            basic = sf;
  PetscBool          isbasic;
  PetscMPIInt        nr, ni;
  const PetscMPIInt *ranks, *iranks;
  const PetscInt    *roffset, *rmine, *rremote, *ioffset, *irootloc;

  PetscFunctionBegin;
  PetscCall(PetscNew(&h));
  *halo     = h;
  h->comm   = PetscObjectComm((PetscObject)sf);
  h->unit   = unit;
  h->device = device;
  PetscCallMPI(MPI_Comm_rank(h->comm, &h->rank));
  PetscCall(PetscSFSetUp(sf));
  PetscCall(PetscObjectTypeCompare((PetscObject)sf, PETSCSFBASIC, &isbasic));
  if (!isbasic) { /* the rank lists below are those of the basic type */
    PetscInt           nroots, nleaves;
    const PetscInt    *ilocal;
    const PetscSFNode *iremote;

    PetscCall(PetscSFGetGraph(sf, &nroots, &nleaves, &ilocal, &iremote));
    PetscCall(PetscSFCreate(h->comm, &basic));
    PetscCall(PetscSFSetType(basic, PETSCSFBASIC));
    PetscCall(PetscSFSetGraph(basic, nroots, nleaves, const_cast<PetscInt *>(ilocal), PETSC_COPY_VALUES, const_cast<PetscSFNode *>(iremote), PETSC_COPY_VALUES)); /* copied */
    PetscCall(PetscSFSetUp(basic));
  }
  PetscCall(PetscObjectGetNewTag((PetscObject)basic, &h->tag));
  PetscCall(PetscSFGetRootRanks(basic, &nr, &ranks, &roffset, &rmine, &rremote));
  PetscCall(PetscSFGetLeafRanks(basic, &ni, &iranks, &ioffset, &irootloc));
  h->nrecv = nr;
  h->nsend = ni;
  PetscCall(PetscMalloc4(nr, &h->recvrank, nr + 1, &h->recvoff, ni, &h->sendrank, ni + 1, &h->sendoff));
  PetscCall(PetscArraycpy(h->recvrank, ranks, nr));
  PetscCall(PetscArraycpy(h->recvoff, roffset, nr + 1));
  PetscCall(PetscArraycpy(h->sendrank, iranks, ni));
  PetscCall(PetscArraycpy(h->sendoff, ioffset, ni + 1));
  PetscCall(PetscMalloc2(h->sendoff[ni], &h->sendidx, h->recvoff[nr], &h->recvidx));
  PetscCall(PetscArraycpy(h->sendidx, irootloc, h->sendoff[ni]));
  PetscCall(PetscArraycpy(h->recvidx, rmine, h->recvoff[nr]));
  if (!isbasic) PetscCall(PetscSFDestroy(&basic));
  h->leafbase   = h->recvoff[nr] ? h->recvidx[0] : 0;
  h->leafcontig = PETSC_TRUE;
  for (PetscInt k = 0; k < h->recvoff[nr]; k++)
    if (h->recvidx[k] != h->leafbase + k) h->leafcontig = PETSC_FALSE;
  PetscCall(PetscMalloc1(nr + ni, &h->req));
  if (device) {
    PetscCall(JaggedHaloChoose(h, exchange));
    if (!h->nccl && !h->ipc[0] && !h->gpuaware) { /* NCCL, CUDA IPC and a GPU-aware MPI read and write the device buffers */
      PetscCallCUDA(cudaMallocHost((void **)&h->hsend, unit * PetscMax(h->sendoff[ni], 1)));
      PetscCallCUDA(cudaMallocHost((void **)&h->hrecv, unit * PetscMax(h->recvoff[nr], 1)));
    }
    PetscCallCUDA(cudaMalloc((void **)&h->dsend, unit * PetscMax(h->sendoff[ni], 1)));
    PetscCall(JaggedHaloDeviceIndices(h->sendoff[ni], h->sendidx, &h->dsendidx));
    if (!h->leafcontig) {
      PetscCallCUDA(cudaMalloc((void **)&h->drecv, unit * PetscMax(h->recvoff[nr], 1)));
      PetscCall(JaggedHaloDeviceIndices(h->recvoff[nr], h->recvidx, &h->drecvidx));
    }
    { /* the greatest priority: NCCL's kernels take SMs as the diagonal block's product frees them, not after it */
      int least, greatest;

      PetscCallCUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
      PetscCallCUDA(cudaStreamCreateWithPriority(&h->copy, cudaStreamNonBlocking, greatest));
    }
    for (cudaEvent_t *e : {&h->packed, &h->sent, &h->arrived}) PetscCallCUDA(cudaEventCreateWithFlags(e, cudaEventDisableTiming));
    PetscCallCUDA(cudaEventRecord(h->arrived, h->copy)); /* nothing in flight yet */
  } else {
    PetscCall(PetscMalloc2(unit * PetscMax(h->sendoff[ni], 1), &h->hsend, unit * PetscMax(h->recvoff[nr], 1), &h->hrecv));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Posts the receives (send = false) or the sends of one side of the exchange from or into buf: the ghost
  side (the processes that own the ghosts; offsets recvoff) or the owned side (the processes that need them;
  offsets sendoff). The forward exchange receives on the ghost side and sends from the owned side, the
  reverse one the other way.
*/
static PetscErrorCode JaggedHaloPost(JaggedHalo h, PetscBool ghostside, PetscBool send, const char *buf)
{
  const PetscMPIInt  n     = ghostside ? h->nrecv : h->nsend, *rank = ghostside ? h->recvrank : h->sendrank;
  const PetscInt    *off   = ghostside ? h->recvoff : h->sendoff;
  MPI_Request       *req   = ghostside ? h->req : h->req + h->nrecv;

  PetscFunctionBegin;
  for (PetscMPIInt i = 0; i < n; i++) {
    const size_t bytes = h->unit * (off[i + 1] - off[i]);

    if (rank[i] == h->rank) req[i] = MPI_REQUEST_NULL; /* to itself: copied */
    else if (send) PetscCallMPI(MPIU_Isend(buf + h->unit * off[i], bytes, MPI_BYTE, rank[i], h->tag, h->comm, &req[i]));
    else PetscCallMPI(MPIU_Irecv(const_cast<char *>(buf) + h->unit * off[i], bytes, MPI_BYTE, rank[i], h->tag, h->comm, &req[i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The message a process sends to itself, copied: from the owned side's buffer src to the ghost side's dst
  (forward), or back (reverse); on stream where the buffers are in device memory (CUDA IPC, a GPU-aware MPI)
*/
static PetscErrorCode JaggedHaloSelf(JaggedHalo h, PetscBool forward, const char *src, char *dst, cudaStream_t stream)
{
  PetscFunctionBegin;
  for (PetscMPIInt i = 0; i < h->nrecv; i++)
    if (h->recvrank[i] == h->rank)
      for (PetscMPIInt j = 0; j < h->nsend; j++)
        if (h->sendrank[j] == h->rank) {
          const size_t bytes = h->unit * (h->recvoff[i + 1] - h->recvoff[i]);
          const char  *s     = src + h->unit * (forward ? h->sendoff[j] : h->recvoff[i]);
          char        *d     = dst + h->unit * (forward ? h->recvoff[i] : h->sendoff[j]);

          if (h->gpuaware || h->ipc[0]) PetscCallCUDA(cudaMemcpyAsync(d, s, bytes, cudaMemcpyDeviceToDevice, stream));
          else PetscCall(PetscMemcpy(d, s, bytes));
        }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The exchange through a GPU-aware MPI, once the packing (event packed) is done: the messages of the
  device buffer src to the other side, those of the other side into the device buffer dst (forward: from
  the owned side to the ghost side; reverse: back). MPI has written dst when it returns.
*/
static PetscErrorCode JaggedHaloGPUAwareMPI(JaggedHalo h, PetscBool forward, const char *src, char *dst, cudaStream_t stream)
{
  PetscFunctionBegin;
  PetscCallCUDA(cudaEventSynchronize(h->packed)); /* src is packed, and what read dst before the packing is done */
  PetscCall(JaggedHaloPost(h, forward, PETSC_FALSE, dst));
  PetscCall(JaggedHaloPost(h, (PetscBool)!forward, PETSC_TRUE, src));
  PetscCall(JaggedHaloSelf(h, forward, src, dst, stream));
  PetscCallMPI(MPI_Waitall(h->nrecv + h->nsend, h->req, MPI_STATUSES_IGNORE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* JaggedHaloBegin - gathers the owned entries of roots that others need (on stream, then to the host on the halo's own stream) and posts the receives */
PetscErrorCode JaggedHaloBegin(JaggedHalo h, const void *roots, cudaStream_t stream)
{
  const PetscInt nsend = h->sendoff[h->nsend];

  PetscFunctionBegin;
  if (h->nccl || h->ipc[0] || h->gpuaware) { /* the exchange waits for the packing in JaggedHaloEnd() */
    PetscCall(JaggedHaloMoveUnit(h->unit, true, true, nsend, NULL, h->dsendidx, roots, h->dsend, stream));
    PetscCallCUDA(cudaEventRecord(h->packed, stream));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (h->device) {
    PetscCallCUDA(cudaEventSynchronize(h->arrived)); /* the last exchange's receive buffer has reached the device */
    if (nsend) {
      PetscCall(JaggedHaloMoveUnit(h->unit, true, true, nsend, NULL, h->dsendidx, roots, h->dsend, stream));
      PetscCallCUDA(cudaEventRecord(h->packed, stream));
      PetscCallCUDA(cudaStreamWaitEvent(h->copy, h->packed, 0));
      PetscCallCUDA(cudaMemcpyAsync(h->hsend, h->dsend, h->unit * nsend, cudaMemcpyDeviceToHost, h->copy));
      PetscCall(PetscLogGpuToCpu((PetscLogDouble)(h->unit * nsend)));
    }
    PetscCallCUDA(cudaEventRecord(h->sent, h->copy));
  } else PetscCall(JaggedHaloMoveUnit(h->unit, true, false, nsend, h->sendidx, NULL, roots, h->hsend, NULL));
  PetscCall(JaggedHaloPost(h, PETSC_TRUE, PETSC_FALSE, h->hrecv));
  if (!h->device) PetscCall(JaggedHaloPost(h, PETSC_FALSE, PETSC_TRUE, h->hsend));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  One NCCL group on the halo's stream, after the event packed: the messages of sendbuf (offsets sendoff)
  to the processes sendrank, those of recvrank into recvbuf (offsets recvoff); then stream waits for it
*/
static PetscErrorCode JaggedHaloNCCL(JaggedHalo h, PetscMPIInt nsend, const PetscMPIInt *sendrank, const PetscInt *sendoff, const char *sendbuf, PetscMPIInt nrecv, const PetscMPIInt *recvrank, const PetscInt *recvoff, char *recvbuf, cudaStream_t stream)
{
  PetscFunctionBegin;
  PetscCallCUDA(cudaStreamWaitEvent(h->copy, h->packed, 0));
  PetscCall(JaggedNCCLGroupStart());
  for (PetscMPIInt i = 0; i < nsend; i++) PetscCall(JaggedNCCLSend(h->nccl, sendbuf + h->unit * sendoff[i], h->unit * (sendoff[i + 1] - sendoff[i]), sendrank[i], h->copy));
  for (PetscMPIInt i = 0; i < nrecv; i++) PetscCall(JaggedNCCLRecv(h->nccl, recvbuf + h->unit * recvoff[i], h->unit * (recvoff[i + 1] - recvoff[i]), recvrank[i], h->copy));
  PetscCall(JaggedNCCLGroupEnd());
  PetscCallCUDA(cudaEventRecord(h->arrived, h->copy));
  PetscCallCUDA(cudaStreamWaitEvent(stream, h->arrived, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  JaggedHaloEndInPlace - as JaggedHaloEnd(), but where the ghosts arrive contiguous in the CUDA IPC receive buffer they stay
  there, not copied into leaves: *ghosts is where leaves would hold them (entries leafbase, leafbase + 1, ...), read on stream
  until JaggedHaloRelease() (the others push into the buffer again only after it); elsewhere *ghosts is leaves
*/
PetscErrorCode JaggedHaloEndInPlace(JaggedHalo h, void *leaves, const void **ghosts, cudaStream_t stream)
{
  char *buf;

  PetscFunctionBegin;
  if (!(h->ipc[0] && h->leafcontig)) {
    PetscCall(JaggedHaloEnd(h, leaves, stream));
    *ghosts = leaves;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(JaggedHaloIPCGetBuffer(h->ipc[0], &buf));
  PetscCall(JaggedHaloSelf(h, PETSC_TRUE, h->dsend, buf, stream));
  PetscCall(JaggedHaloIPCPush(h->ipc[0], h->dsend, h->packed, h->copy, stream));
  *ghosts    = buf - h->unit * h->leafbase;
  h->inplace = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* JaggedHaloRelease - after JaggedHaloEndInPlace(): what stream has queued so far read the ghosts for the last time */
PetscErrorCode JaggedHaloRelease(JaggedHalo h, cudaStream_t stream)
{
  PetscFunctionBegin;
  if (h->inplace) PetscCall(JaggedHaloIPCDrained(h->ipc[0], stream));
  h->inplace = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* JaggedHaloEnd - sends, receives, and puts the ghost entries into leaves; on the device, stream waits for them */
PetscErrorCode JaggedHaloEnd(JaggedHalo h, void *leaves, cudaStream_t stream)
{
  const PetscInt nrecv = h->recvoff[h->nrecv];

  PetscFunctionBegin;
  if (h->ipc[0]) { /* the ghosts pushed into the IPC buffer (this process's own part copied there), then moved into leaves */
    char *buf;

    PetscCall(JaggedHaloIPCGetBuffer(h->ipc[0], &buf));
    PetscCall(JaggedHaloSelf(h, PETSC_TRUE, h->dsend, buf, stream));
    PetscCall(JaggedHaloIPCPush(h->ipc[0], h->dsend, h->packed, h->copy, stream));
    if (h->leafcontig && nrecv) PetscCallCUDA(cudaMemcpyAsync(static_cast<char *>(leaves) + h->unit * h->leafbase, buf, h->unit * nrecv, cudaMemcpyDeviceToDevice, stream));
    else if (!h->leafcontig) PetscCall(JaggedHaloMoveUnit(h->unit, false, true, nrecv, NULL, h->drecvidx, buf, leaves, stream));
    PetscCall(JaggedHaloIPCDrained(h->ipc[0], stream));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (h->nccl || h->gpuaware) { /* the ghosts go straight into leaves where they are contiguous there */
    char *dst = h->leafcontig ? static_cast<char *>(leaves) + h->unit * h->leafbase : h->drecv;

    if (h->nccl) PetscCall(JaggedHaloNCCL(h, h->nsend, h->sendrank, h->sendoff, h->dsend, h->nrecv, h->recvrank, h->recvoff, dst, stream));
    else PetscCall(JaggedHaloGPUAwareMPI(h, PETSC_TRUE, h->dsend, dst, stream));
    if (!h->leafcontig) PetscCall(JaggedHaloMoveUnit(h->unit, false, true, nrecv, NULL, h->drecvidx, h->drecv, leaves, stream));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (h->device) {
    PetscCallCUDA(cudaEventSynchronize(h->sent));
    PetscCall(JaggedHaloPost(h, PETSC_FALSE, PETSC_TRUE, h->hsend));
  }
  PetscCall(JaggedHaloSelf(h, PETSC_TRUE, h->hsend, h->hrecv, NULL));
  PetscCallMPI(MPI_Waitall(h->nrecv + h->nsend, h->req, MPI_STATUSES_IGNORE));
  if (!h->device) {
    PetscCall(JaggedHaloMoveUnit(h->unit, false, false, nrecv, h->recvidx, NULL, h->hrecv, leaves, NULL));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (nrecv) {
    char *dst = h->leafcontig ? static_cast<char *>(leaves) + h->unit * h->leafbase : h->drecv;

    PetscCallCUDA(cudaMemcpyAsync(dst, h->hrecv, h->unit * nrecv, cudaMemcpyHostToDevice, h->copy));
    PetscCall(PetscLogCpuToGpu((PetscLogDouble)(h->unit * nrecv)));
  }
  PetscCallCUDA(cudaEventRecord(h->arrived, h->copy));
  PetscCallCUDA(cudaStreamWaitEvent(stream, h->arrived, 0));
  if (!h->leafcontig) PetscCall(JaggedHaloMoveUnit(h->unit, false, true, nrecv, NULL, h->drecvidx, h->drecv, leaves, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  JaggedHaloReverseBegin - the reverse exchange, for transpose products: the ghost entries of leaves (PetscScalar)
  go back to their owners, to be added there by JaggedHaloReverseEnd(); the caller runs its local product between
*/
PetscErrorCode JaggedHaloReverseBegin(JaggedHalo h, const void *leaves, cudaStream_t stream)
{
  const PetscInt nrecv = h->recvoff[h->nrecv];

  PetscFunctionBegin;
  PetscCheck(h->unit == sizeof(PetscScalar), PETSC_COMM_SELF, PETSC_ERR_SUP, "The reverse halo exchange adds PetscScalar entries only");
  if (h->nccl || h->ipc[1] || h->gpuaware) { /* the ghosts leave from leaves where they are contiguous there, in JaggedHaloReverseEnd() */
    h->reversesrc = static_cast<const char *>(leaves) + h->unit * h->leafbase;
    if (!h->leafcontig) {
      PetscCall(JaggedHaloMoveUnit(h->unit, true, true, nrecv, NULL, h->drecvidx, leaves, h->drecv, stream));
      h->reversesrc = h->drecv;
    }
    PetscCallCUDA(cudaEventRecord(h->packed, stream));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (h->device) {
    PetscCallCUDA(cudaEventSynchronize(h->arrived)); /* the last exchange's receive buffer has reached the device */
    if (nrecv) {
      const char *src = static_cast<const char *>(leaves) + h->unit * h->leafbase;

      if (!h->leafcontig) {
        PetscCall(JaggedHaloMoveUnit(h->unit, true, true, nrecv, NULL, h->drecvidx, leaves, h->drecv, stream));
        src = h->drecv;
      }
      PetscCallCUDA(cudaEventRecord(h->packed, stream));
      PetscCallCUDA(cudaStreamWaitEvent(h->copy, h->packed, 0));
      PetscCallCUDA(cudaMemcpyAsync(h->hrecv, src, h->unit * nrecv, cudaMemcpyDeviceToHost, h->copy));
      PetscCall(PetscLogGpuToCpu((PetscLogDouble)(h->unit * nrecv)));
    }
    PetscCallCUDA(cudaEventRecord(h->sent, h->copy));
  } else PetscCall(JaggedHaloMoveUnit(h->unit, true, false, nrecv, h->recvidx, NULL, leaves, h->hrecv, NULL));
  PetscCall(JaggedHaloPost(h, PETSC_FALSE, PETSC_FALSE, h->hsend));
  if (!h->device) PetscCall(JaggedHaloPost(h, PETSC_TRUE, PETSC_TRUE, h->hrecv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* roots[sendidx[k]] += src[k] on stream (src in device memory): the entries the other processes sent back (atomic: an owned entry may be a ghost of several) */
static PetscErrorCode JaggedHaloAdd(JaggedHalo h, const char *src, void *roots, cudaStream_t stream)
{
  const PetscInt n = h->sendoff[h->nsend];

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  HaloAddKernel<<<JaggedBlocks(n, 256, 4096), 256, 0, stream>>>(n, (int)(sizeof(PetscScalar) / sizeof(double)), h->dsendidx, reinterpret_cast<const double *>(src), static_cast<double *>(roots));
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* JaggedHaloReverseEnd - adds the entries the other processes sent back into roots; on the device, on stream */
PetscErrorCode JaggedHaloReverseEnd(JaggedHalo h, void *roots, cudaStream_t stream)
{
  const PetscInt nsend = h->sendoff[h->nsend];

  PetscFunctionBegin;
  if (h->ipc[1]) { /* the ghosts pushed back into the owners' IPC buffers, then added */
    char *buf;

    PetscCall(JaggedHaloIPCGetBuffer(h->ipc[1], &buf));
    PetscCall(JaggedHaloSelf(h, PETSC_FALSE, h->reversesrc, buf, stream));
    PetscCall(JaggedHaloIPCPush(h->ipc[1], h->reversesrc, h->packed, h->copy, stream));
    PetscCall(JaggedHaloAdd(h, buf, roots, stream));
    PetscCall(JaggedHaloIPCDrained(h->ipc[1], stream));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (h->nccl || h->gpuaware) {
    if (h->nccl) PetscCall(JaggedHaloNCCL(h, h->nrecv, h->recvrank, h->recvoff, h->reversesrc, h->nsend, h->sendrank, h->sendoff, h->dsend, stream));
    else PetscCall(JaggedHaloGPUAwareMPI(h, PETSC_FALSE, h->reversesrc, h->dsend, stream));
    PetscCall(JaggedHaloAdd(h, h->dsend, roots, stream));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (h->device) {
    PetscCallCUDA(cudaEventSynchronize(h->sent));
    PetscCall(JaggedHaloPost(h, PETSC_TRUE, PETSC_TRUE, h->hrecv));
  }
  PetscCall(JaggedHaloSelf(h, PETSC_FALSE, h->hrecv, h->hsend, NULL));
  PetscCallMPI(MPI_Waitall(h->nrecv + h->nsend, h->req, MPI_STATUSES_IGNORE));
  if (!h->device) {
    const PetscScalar *src = reinterpret_cast<const PetscScalar *>(h->hsend);
    PetscScalar       *dst = static_cast<PetscScalar *>(roots);

    for (PetscInt k = 0; k < nsend; k++) dst[h->sendidx[k]] += src[k]; /* the host twin of HaloAddKernel */
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (nsend) {
    PetscCallCUDA(cudaMemcpyAsync(h->dsend, h->hsend, h->unit * nsend, cudaMemcpyHostToDevice, h->copy));
    PetscCall(PetscLogCpuToGpu((PetscLogDouble)(h->unit * nsend)));
  }
  PetscCallCUDA(cudaEventRecord(h->arrived, h->copy));
  PetscCallCUDA(cudaStreamWaitEvent(stream, h->arrived, 0));
  PetscCall(JaggedHaloAdd(h, h->dsend, roots, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode JaggedHaloDestroy(JaggedHalo *halo)
{
  JaggedHalo h = *halo;

  PetscFunctionBegin;
  if (!h) PetscFunctionReturn(PETSC_SUCCESS);
  if (h->device) {
    for (JaggedHaloIPC &x : h->ipc) PetscCall(JaggedHaloIPCDestroy(&x, h->copy));
    PetscCallCUDA(cudaStreamSynchronize(h->copy));
    if (h->hsend) PetscCallCUDA(cudaFreeHost(h->hsend));
    if (h->hrecv) PetscCallCUDA(cudaFreeHost(h->hrecv));
    for (void *a : {(void *)h->dsend, (void *)h->drecv, (void *)h->dsendidx, (void *)h->drecvidx})
      if (a) PetscCallCUDA(cudaFree(a));
    for (cudaEvent_t e : {h->packed, h->sent, h->arrived}) PetscCallCUDA(cudaEventDestroy(e));
    PetscCallCUDA(cudaStreamDestroy(h->copy));
  } else PetscCall(PetscFree2(h->hsend, h->hrecv));
  PetscCall(PetscFree4(h->recvrank, h->recvoff, h->sendrank, h->sendoff));
  PetscCall(PetscFree2(h->sendidx, h->recvidx));
  PetscCall(PetscFree(h->req));
  PetscCall(PetscFree(*halo));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* JaggedHaloGetExchange - the path the exchange takes, in words for the views, and why (what auto found, or why not the path asked for; else NULL) */
PetscErrorCode JaggedHaloGetExchange(JaggedHalo h, const char **how, const char **why)
{
  PetscFunctionBegin;
  if (h->nccl) *how = "through NCCL, GPU to GPU";
  else if (h->ipc[0]) *how = "through CUDA IPC, GPU to GPU (peer copies)";
  else if (h->gpuaware) *how = "through MPI, GPU to GPU (GPU-aware MPI)";
  else if (h->device) *how = "through MPI and pinned host memory";
  else *how = "through MPI, host arrays";
  *why = h->why[0] ? h->why : NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
