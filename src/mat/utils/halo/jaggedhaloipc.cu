/*
   JaggedHaloIPC (see jaggedhaloipc.h): the exchange of one direction of a halo through CUDA IPC between the
   processes of one host. Messages to this process itself are left to the halo (a device copy).
*/
#include <petscjagged/private/jaggedhaloipc.h>
#include <petsc/private/petscimpl.h>
#include <petsctime.h>

#include <vector>

struct _n_JaggedHaloIPC {
  MPI_Comm     comm;
  PetscMPIInt  tagoffer, tagpushed, tagdrained, tagclosed;
  PetscMPIInt  nout, nin;           /* the other processes this one pushes to, and receives from */
  PetscMPIInt *outrank, *inrank;
  size_t      *outsrc, *outbytes;   /* each message pushed: its byte offset in the source, its bytes */
  char       **outbase, **outdst;   /* each out-process's receive buffer mapped here, and where the message goes in it */
  cudaEvent_t *drained;             /* each out-process's: it has read its receive buffer */
  cudaEvent_t *pushed;              /* each in-process's: its pushes into this process's buffer are done */
  char        *recv;                /* this process's receive buffer (every in-process's part and its own) */
  cudaEvent_t  mypushed, mydrained; /* this process's, opened by the others */
  cudaEvent_t  arrived, read;       /* the caller's stream waits on, and records, these local events only: the interprocess
                                       ones are waited on and recorded on the copy stream (each costs its stream about 4 us
                                       on an H200, CUPTI, bench/RESULTS.md "Session 45") */
  cudaStream_t copy;                /* the stream of the last JaggedHaloIPCPush() */
  MPI_Request *tokens;              /* those sent at the last exchange: pushed to each out-process, drained to each in-process */
  PetscBool    started;             /* an exchange ran: the out-processes' drained tokens are due before the next pushes */
};

namespace {

/* What a process tells another at creation: its receive buffer and the offset of the other's part (to those it receives from), and the event the other waits on */
struct Offer {
  cudaIpcMemHandle_t   mem;
  size_t               offset;
  cudaIpcEventHandle_t event;
};

/* The other processes of a list: those that are not this one */
PetscErrorCode OthersOf(PetscMPIInt n, const PetscMPIInt rank[], const PetscInt off[], size_t unit, PetscMPIInt self, PetscMPIInt *m, PetscMPIInt **ranks, size_t **start, size_t **bytes)
{
  PetscFunctionBegin;
  *m = 0;
  for (PetscMPIInt i = 0; i < n; i++)
    if (rank[i] != self) (*m)++;
  PetscCall(PetscMalloc1(*m, ranks));
  PetscCall(PetscMalloc1(*m, start));
  PetscCall(PetscMalloc1(*m, bytes));
  for (PetscMPIInt i = 0, k = 0; i < n; i++)
    if (rank[i] != self) {
      (*ranks)[k]   = rank[i];
      (*start)[k]   = unit * (size_t)off[i];
      (*bytes)[k++] = unit * (size_t)(off[i + 1] - off[i]);
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  A receive buffer, with this process's events, kept until every process that mapped them has closed its mappings
  (its "closed" token each): JaggedHaloIPCDestroy() does not wait for those tokens, since processes may destroy their
  halos in different orders (waiting there once left two processes each waiting for the other's token of another halo)
*/
struct Retired {
  char                    *recv;
  cudaEvent_t              events[2];
  PetscMPIInt              nout;   /* closed[0, nout): this process's tokens sent, then the others' awaited */
  std::vector<MPI_Request> closed;
};

std::vector<Retired> *retired = nullptr;

PetscErrorCode RetiredFree(Retired &r)
{
  PetscFunctionBegin;
  PetscCallCUDA(cudaFree(r.recv));
  for (cudaEvent_t e : r.events) PetscCallCUDA(cudaEventDestroy(e));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Frees the retired buffers whose tokens have all arrived */
PetscErrorCode RetiredReap()
{
  PetscFunctionBegin;
  for (auto r = retired->begin(); r != retired->end();) {
    int done;

    PetscCallMPI(MPI_Testall((int)r->closed.size(), r->closed.data(), &done, MPI_STATUSES_IGNORE));
    if (done) {
      PetscCall(RetiredFree(*r));
      r = retired->erase(r);
    } else r++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  At PetscFinalize(): the others' tokens awaited (each process destroys its halos before it ends) for at most 10 s; a
  buffer still mapped then (a process that never destroyed its halo) is left to the end of the process, its receives cancelled
*/
PetscErrorCode RetiredFinalize()
{
  PetscLogDouble t0, t;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  for (t = t0; !retired->empty() && t - t0 < 10;) {
    PetscCall(RetiredReap());
    PetscCall(PetscTime(&t));
  }
  if (!retired->empty()) PetscCall(PetscInfo(NULL, "CUDA IPC: %zu receive buffers still mapped by a process that did not destroy its halo: left to the end of the process\n", retired->size()));
  for (Retired &r : *retired)
    for (size_t k = 0; k < r.closed.size(); k++) {
      if ((PetscMPIInt)k >= r.nout && r.closed[k] != MPI_REQUEST_NULL) PetscCallMPI(MPI_Cancel(&r.closed[k]));
      PetscCallMPI(MPI_Wait(&r.closed[k], MPI_STATUS_IGNORE));
    }
  delete retired;
  retired = nullptr;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x's buffer and events retired: the tokens that say the mappings are closed sent, the others' posted */
PetscErrorCode Retire(JaggedHaloIPC x)
{
  Retired r = {x->recv, {x->mypushed, x->mydrained}, x->nout, std::vector<MPI_Request>(x->nout + x->nin, MPI_REQUEST_NULL)};

  PetscFunctionBegin;
  if (!retired) {
    retired = new std::vector<Retired>;
    PetscCall(PetscRegisterFinalize(RetiredFinalize));
  }
  for (PetscMPIInt j = 0; j < x->nout; j++) PetscCallMPI(MPI_Isend(NULL, 0, MPI_BYTE, x->outrank[j], x->tagclosed, x->comm, &r.closed[j]));
  for (PetscMPIInt i = 0; i < x->nin; i++) PetscCallMPI(MPI_Irecv(NULL, 0, MPI_BYTE, x->inrank[i], x->tagclosed, x->comm, &r.closed[x->nout + i]));
  retired->push_back(std::move(r));
  PetscCall(RetiredReap());
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace

static PetscMPIInt onehost_keyval = MPI_KEYVAL_INVALID; /* the answer kept on the communicator: 1 + onehost */

static PetscErrorCode JaggedHaloIPCOneHostFinalize(void)
{
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_free_keyval(&onehost_keyval));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  JaggedHaloIPCOneHost - whether the processes of comm share a host (MPI's shared-memory split): where CUDA IPC may
  serve. Collective the first time on comm; the answer is then kept on comm (an attribute), as each halo of a
  communicator asks it again
*/
PetscErrorCode JaggedHaloIPCOneHost(MPI_Comm comm, PetscBool *onehost)
{
  MPI_Comm    node;
  PetscMPIInt size, nodesize, found;
  void       *kept;

  PetscFunctionBegin;
  if (onehost_keyval == MPI_KEYVAL_INVALID) {
    PetscCallMPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &onehost_keyval, NULL));
    PetscCall(PetscRegisterFinalize(JaggedHaloIPCOneHostFinalize));
  }
  PetscCallMPI(MPI_Comm_get_attr(comm, onehost_keyval, &kept, &found));
  if (found) {
    *onehost = (PetscBool)((intptr_t)kept == 2);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  PetscCallMPI(MPI_Comm_size(node, &nodesize));
  PetscCallMPI(MPI_Comm_free(&node));
  *onehost = (PetscBool)(nodesize == size);
  PetscCallMPI(MPI_Comm_set_attr(comm, onehost_keyval, (void *)(intptr_t)(1 + *onehost)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  JaggedHaloIPCCreate - one direction of an exchange of entries of unit bytes: this process sends the messages
  [outoff[i], outoff[i + 1]) of its source (given at each push) to outrank[i], and receives those of inrank[i] into
  [inoff[i], inoff[i + 1]) of its receive buffer (JaggedHaloIPCGetBuffer()). Collective; *ipc is NULL, on every
  process, where CUDA IPC cannot serve (the processes are not on one host, or a buffer could not be mapped), and
  *why then says why.
*/
PetscErrorCode JaggedHaloIPCCreate(MPI_Comm comm, size_t unit, PetscMPIInt nout, const PetscMPIInt outrank[], const PetscInt outoff[], PetscMPIInt nin, const PetscMPIInt inrank[], const PetscInt inoff[], JaggedHaloIPC *ipc, const char **why)
{
  JaggedHaloIPC x;
  PetscBool     onehost;
  PetscMPIInt   rank, ok = 1, allok;
  size_t       *instart, *inbytes;
  Offer        *mine, *theirs;
  MPI_Request  *req;
  cudaError_t   err = cudaSuccess;

  PetscFunctionBegin;
  *ipc = NULL;
  *why = NULL;
  if (retired) PetscCall(RetiredReap()); /* the buffers of halos destroyed since */
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(JaggedHaloIPCOneHost(comm, &onehost));
  if (!onehost) {
    *why = "the processes are not on one host";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscNew(&x));
  x->comm = comm;
  for (PetscMPIInt *tag : {&x->tagoffer, &x->tagpushed, &x->tagdrained, &x->tagclosed}) PetscCall(PetscCommGetNewTag(comm, tag));
  PetscCall(OthersOf(nout, outrank, outoff, unit, rank, &x->nout, &x->outrank, &x->outsrc, &x->outbytes));
  PetscCall(OthersOf(nin, inrank, inoff, unit, rank, &x->nin, &x->inrank, &instart, &inbytes));
  PetscCall(PetscCalloc4(x->nout, &x->outbase, x->nout, &x->outdst, x->nout, &x->drained, x->nin, &x->pushed));
  PetscCall(PetscMalloc1(x->nout + x->nin, &x->tokens));
  for (PetscMPIInt i = 0; i < x->nout + x->nin; i++) x->tokens[i] = MPI_REQUEST_NULL;
  PetscCallCUDA(cudaMalloc((void **)&x->recv, unit * PetscMax(inoff[nin], 1)));
  for (cudaEvent_t *e : {&x->mypushed, &x->mydrained}) PetscCallCUDA(cudaEventCreateWithFlags(e, cudaEventDisableTiming | cudaEventInterprocess));
  for (cudaEvent_t *e : {&x->arrived, &x->read}) PetscCallCUDA(cudaEventCreateWithFlags(e, cudaEventDisableTiming));

  /* offers: to each in-process the receive buffer, its part and the drained event; to each out-process the pushed event */
  PetscCall(PetscCalloc3(x->nin + x->nout, &mine, x->nin + x->nout, &theirs, 2 * (x->nin + x->nout), &req));
  for (PetscMPIInt i = 0; i < x->nin; i++) {
    PetscCallCUDA(cudaIpcGetMemHandle(&mine[i].mem, x->recv));
    mine[i].offset = instart[i];
    PetscCallCUDA(cudaIpcGetEventHandle(&mine[i].event, x->mydrained));
  }
  for (PetscMPIInt j = 0; j < x->nout; j++) PetscCallCUDA(cudaIpcGetEventHandle(&mine[x->nin + j].event, x->mypushed));
  for (PetscMPIInt j = 0; j < x->nout; j++) PetscCallMPI(MPI_Irecv(&theirs[j], (PetscMPIInt)sizeof(Offer), MPI_BYTE, x->outrank[j], x->tagoffer, comm, &req[j]));
  for (PetscMPIInt i = 0; i < x->nin; i++) PetscCallMPI(MPI_Irecv(&theirs[x->nout + i], (PetscMPIInt)sizeof(Offer), MPI_BYTE, x->inrank[i], x->tagpushed, comm, &req[x->nout + i]));
  for (PetscMPIInt i = 0; i < x->nin; i++) PetscCallMPI(MPI_Isend(&mine[i], (PetscMPIInt)sizeof(Offer), MPI_BYTE, x->inrank[i], x->tagoffer, comm, &req[x->nout + x->nin + i]));
  for (PetscMPIInt j = 0; j < x->nout; j++) PetscCallMPI(MPI_Isend(&mine[x->nin + j], (PetscMPIInt)sizeof(Offer), MPI_BYTE, x->outrank[j], x->tagpushed, comm, &req[x->nout + 2 * x->nin + j]));
  PetscCallMPI(MPI_Waitall(2 * (x->nin + x->nout), req, MPI_STATUSES_IGNORE));

  /* mapped: each out-process's buffer (peer access enabled on first use) and drained event, each in-process's pushed event */
  for (PetscMPIInt j = 0; j < x->nout && err == cudaSuccess; j++) {
    void *base = NULL;

    err = cudaIpcOpenMemHandle(&base, theirs[j].mem, cudaIpcMemLazyEnablePeerAccess);
    if (err == cudaSuccess) {
      x->outbase[j] = static_cast<char *>(base);
      x->outdst[j]  = x->outbase[j] + theirs[j].offset;
      err           = cudaIpcOpenEventHandle(&x->drained[j], theirs[j].event);
      if (err != cudaSuccess) x->drained[j] = NULL; /* not opened: nothing to destroy */
    }
  }
  for (PetscMPIInt i = 0; i < x->nin && err == cudaSuccess; i++) {
    err = cudaIpcOpenEventHandle(&x->pushed[i], theirs[x->nout + i].event);
    if (err != cudaSuccess) x->pushed[i] = NULL;
  }
  if (err != cudaSuccess) {
    ok = 0;
    PetscCall(PetscInfo(NULL, "CUDA IPC: mapping another process's buffer or event failed: %s\n", cudaGetErrorString(err)));
    (void)cudaGetLastError(); /* not sticky: cleared */
  }
  PetscCall(PetscFree3(mine, theirs, req));
  PetscCall(PetscFree(instart));
  PetscCall(PetscFree(inbytes));
  PetscCallMPI(MPIU_Allreduce(&ok, &allok, 1, MPI_INT, MPI_MIN, comm));
  if (!allok) { /* nothing pushed yet: the mappings closed, the buffer freed once the others have closed theirs */
    *why = "CUDA IPC could not map the other processes' device memory";
    PetscCall(JaggedHaloIPCDestroy(&x, NULL));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *ipc = x;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* JaggedHaloIPCGetBuffer - the receive buffer (device): the part of inrank[i] at inoff[i], this process's own message included */
PetscErrorCode JaggedHaloIPCGetBuffer(JaggedHaloIPC x, char **buf)
{
  PetscFunctionBegin;
  *buf = x->recv;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* JaggedHaloIPCGetDestination - where this process's message to the out-process rank goes in that process's receive buffer (mapped here) */
PetscErrorCode JaggedHaloIPCGetDestination(JaggedHaloIPC x, PetscMPIInt rank, char **dst)
{
  PetscFunctionBegin;
  *dst = NULL;
  for (PetscMPIInt j = 0; j < x->nout; j++)
    if (x->outrank[j] == rank) *dst = x->outdst[j];
  PetscCheck(*dst, x->comm, PETSC_ERR_ARG_OUTOFRANGE, "Process %d is not one this process sends to through CUDA IPC", (int)rank);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  JaggedHaloIPCPush - the messages of src (device) pushed into the other processes' buffers on the stream copy, after
  the event ready (the packing), each once its receiver has read its last ones; then stream waits for these pushes (src
  may be written again after them) and for the others' pushes into this process's buffer, through a local event that
  copy records once it has waited for the others' interprocess events. The caller reads the buffer on stream, then
  calls JaggedHaloIPCDrained().
*/
PetscErrorCode JaggedHaloIPCPush(JaggedHaloIPC x, const char *src, cudaEvent_t ready, cudaStream_t copy, cudaStream_t stream)
{
  PetscFunctionBegin;
  PetscCallMPI(MPI_Waitall(x->nout + x->nin, x->tokens, MPI_STATUSES_IGNORE)); /* the last exchange's tokens, long delivered */
  PetscCallCUDA(cudaStreamWaitEvent(copy, ready, 0));
  for (PetscMPIInt j = 0; j < x->nout; j++) {
    if (x->started) { /* the receiver recorded its drained event before telling */
      PetscCallMPI(MPI_Recv(NULL, 0, MPI_BYTE, x->outrank[j], x->tagdrained, x->comm, MPI_STATUS_IGNORE));
      PetscCallCUDA(cudaStreamWaitEvent(copy, x->drained[j], 0));
    }
    if (x->outbytes[j]) PetscCallCUDA(cudaMemcpyAsync(x->outdst[j], src + x->outsrc[j], x->outbytes[j], cudaMemcpyDeviceToDevice, copy));
  }
  PetscCallCUDA(cudaEventRecord(x->mypushed, copy));
  for (PetscMPIInt j = 0; j < x->nout; j++) PetscCallMPI(MPI_Isend(NULL, 0, MPI_BYTE, x->outrank[j], x->tagpushed, x->comm, &x->tokens[j]));
  for (PetscMPIInt i = 0; i < x->nin; i++) {
    PetscCallMPI(MPI_Recv(NULL, 0, MPI_BYTE, x->inrank[i], x->tagpushed, x->comm, MPI_STATUS_IGNORE));
    PetscCallCUDA(cudaStreamWaitEvent(copy, x->pushed[i], 0));
  }
  PetscCallCUDA(cudaEventRecord(x->arrived, copy));
  PetscCallCUDA(cudaStreamWaitEvent(stream, x->arrived, 0)); /* the others' pushes have arrived, and what stream does next may overwrite src (the next packing) */
  x->copy    = copy;
  x->started = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  JaggedHaloIPCDrained - what stream has queued so far reads the receive buffer for the last time: the others may push
  again after it (the interprocess event recorded on the copy stream, after a local one of stream)
*/
PetscErrorCode JaggedHaloIPCDrained(JaggedHaloIPC x, cudaStream_t stream)
{
  PetscFunctionBegin;
  PetscCallCUDA(cudaEventRecord(x->read, stream));
  PetscCallCUDA(cudaStreamWaitEvent(x->copy, x->read, 0));
  PetscCallCUDA(cudaEventRecord(x->mydrained, x->copy));
  for (PetscMPIInt i = 0; i < x->nin; i++) PetscCallMPI(MPI_Isend(NULL, 0, MPI_BYTE, x->inrank[i], x->tagdrained, x->comm, &x->tokens[x->nout + i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  JaggedHaloIPCDestroy - the last drained tokens taken (sent at the last exchange), the copies on the stream copy
  finished, the mappings closed; this process's buffer is freed once every process that mapped it has closed its
  mapping (a token each), at a later JaggedHaloIPCCreate() or JaggedHaloIPCDestroy() or at PetscFinalize(): it
  waits for no process to destroy its side, whatever order the processes destroy their halos in
*/
PetscErrorCode JaggedHaloIPCDestroy(JaggedHaloIPC *ipc, cudaStream_t copy)
{
  JaggedHaloIPC x = *ipc;

  PetscFunctionBegin;
  if (!x) PetscFunctionReturn(PETSC_SUCCESS);
  if (x->started)
    for (PetscMPIInt j = 0; j < x->nout; j++) PetscCallMPI(MPI_Recv(NULL, 0, MPI_BYTE, x->outrank[j], x->tagdrained, x->comm, MPI_STATUS_IGNORE));
  PetscCallMPI(MPI_Waitall(x->nout + x->nin, x->tokens, MPI_STATUSES_IGNORE));
  if (copy) PetscCallCUDA(cudaStreamSynchronize(copy));
  for (PetscMPIInt j = 0; j < x->nout; j++) {
    if (x->outbase[j]) PetscCallCUDA(cudaIpcCloseMemHandle(x->outbase[j]));
    if (x->drained[j]) PetscCallCUDA(cudaEventDestroy(x->drained[j]));
  }
  for (PetscMPIInt i = 0; i < x->nin; i++)
    if (x->pushed[i]) PetscCallCUDA(cudaEventDestroy(x->pushed[i]));
  for (cudaEvent_t e : {x->arrived, x->read}) PetscCallCUDA(cudaEventDestroy(e));
  PetscCall(Retire(x));
  PetscCall(PetscFree(x->outrank));
  PetscCall(PetscFree(x->outsrc));
  PetscCall(PetscFree(x->outbytes));
  PetscCall(PetscFree(x->inrank));
  PetscCall(PetscFree4(x->outbase, x->outdst, x->drained, x->pushed));
  PetscCall(PetscFree(x->tokens));
  PetscCall(PetscFree(*ipc));
  PetscFunctionReturn(PETSC_SUCCESS);
}
