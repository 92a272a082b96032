/*
   JaggedIPCSum (see jaggedipcsum.h): sums over the processes of one host through their GPUs' memory. A process's
   mailbox is the receive buffer of a JaggedHaloIPC in which every process (itself included) has a part: two sets of
   kMaxCount slots and a sequence number.
*/
#include <petscjagged/private/jaggedipcsum.h>
#include <petscjagged/private/jaggedhaloipc.h>
#include <petscjagged/private/jaggedgpus.h>
#include <cuda/atomic>

/* Seconds a sum waits for the other processes' values before it gives up (a process that stopped: an error, not a hang) */
#define JAGGED_IPC_SUM_WAIT 60

namespace {

constexpr int kMaxCount = 4; /* doubles a sum carries at most */

/* A process's part of a mailbox: its values of the sums of either parity, and the number of its last sum */
struct Part {
  double             slot[2][kMaxCount];
  unsigned long long seq;
  unsigned long long pad;
};

using Flag = cuda::atomic_ref<unsigned long long, cuda::thread_scope_system>;

__device__ unsigned long long GlobalTimer()
{
  unsigned long long t;

  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/*
  Sum number seq of buf[0, count) over size processes: this process's values into its part of every mailbox (dst[r]:
  in the mailbox of rank r), then seq; then, once every part of this process's mailbox (box) holds seq or later, the
  values of parity seq % 2 added in the order of the ranks. A part that has not reached seq after the wait: stopped set
  to JAGGED_IPC_SUM_LOST and buf left as it was.
*/
__global__ void IPCSumKernel(double *buf, int count, int size, unsigned long long seq, Part *const *dst, Part *box, int *stopped)
{
  const int          par = (int)(seq & 1);
  unsigned long long t0;

  for (int r = 0; r < size; r++) {
    for (int c = 0; c < count; c++) dst[r]->slot[par][c] = buf[c];
    Flag(dst[r]->seq).store(seq, cuda::memory_order_release); /* the values before the number */
  }
  t0 = GlobalTimer();
  for (int r = 0; r < size; r++)
    while (Flag(box[r].seq).load(cuda::memory_order_acquire) < seq) {
      if (GlobalTimer() - t0 > JAGGED_IPC_SUM_WAIT * 1000000000ull) {
        if (stopped) *stopped = JAGGED_IPC_SUM_LOST;
        return;
      }
      __nanosleep(100);
    }
  for (int c = 0; c < count; c++) {
    double s = 0;

    for (int r = 0; r < size; r++) s += box[r].slot[par][c];
    buf[c] = s;
  }
}

} // namespace

struct _n_JaggedIPCSum {
  JaggedHaloIPC      x;   /* the mappings of the others' mailboxes, and this process's mailbox */
  Part             **dst; /* device array: this process's part in the mailbox of each rank */
  Part              *box; /* this process's mailbox: a part for each rank */
  PetscMPIInt        size;
  unsigned long long seq; /* of the last sum */
};

/*
  JaggedIPCSumCreate - collective on comm (several processes); *sum is NULL on every process where the sums cannot go
  through CUDA IPC, and *why then says why
*/
PetscErrorCode JaggedIPCSumCreate(MPI_Comm comm, JaggedIPCSum *sum, const char **why)
{
  PetscMPIInt   size, rank, ok = 1, allok;
  PetscBool     onehost, shared;
  int           dev;
  char          bus[32];
  char         *buses;
  PetscMPIInt  *ranks;
  PetscInt     *off;
  JaggedHaloIPC x;
  JaggedIPCSum  s;
  char         *recv;
  Part        **hdst;

  PetscFunctionBegin;
  *sum = NULL;
  *why = NULL;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(JaggedHaloIPCOneHost(comm, &onehost));
  if (!onehost) {
    *why = "the processes are not on one host";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* a GPU each (a sum spins on its GPU until the others' values arrive), each able to store into the others' memory */
  PetscCall(JaggedGPUsShared(comm, &shared));
  if (shared) {
    *why = "two processes share a GPU";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallCUDA(cudaGetDevice(&dev));
  PetscCallCUDA(cudaDeviceGetPCIBusId(bus, sizeof(bus), dev));
  PetscCall(PetscMalloc1(size * sizeof(bus), &buses));
  PetscCallMPI(MPI_Allgather(bus, (PetscMPIInt)sizeof(bus), MPI_CHAR, buses, (PetscMPIInt)sizeof(bus), MPI_CHAR, comm));
  for (PetscMPIInt r = 0; r < size && ok; r++) {
    int peer, can = 0;

    if (r == rank) continue;
    if (cudaDeviceGetByPCIBusId(&peer, buses + r * sizeof(bus)) != cudaSuccess || cudaDeviceCanAccessPeer(&can, dev, peer) != cudaSuccess) (void)cudaGetLastError(); /* not visible here: not sticky */
    ok = can;
  }
  PetscCall(PetscFree(buses));
  PetscCallMPI(MPIU_Allreduce(&ok, &allok, 1, MPI_INT, MPI_MIN, comm));
  if (!allok) {
    *why = "a GPU cannot store into another's memory (no peer access)";
    PetscFunctionReturn(PETSC_SUCCESS);
  }

  /* the mailboxes: every process sends one part to every process, and receives one from each */
  PetscCall(PetscMalloc2(size, &ranks, size + 1, &off));
  for (PetscMPIInt r = 0; r <= size; r++) {
    if (r < size) ranks[r] = r;
    off[r] = r;
  }
  PetscCall(JaggedHaloIPCCreate(comm, sizeof(Part), size, ranks, off, size, ranks, off, &x, why));
  PetscCall(PetscFree2(ranks, off));
  if (!x) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(JaggedHaloIPCGetBuffer(x, &recv));
  PetscCallCUDA(cudaMemset(recv, 0, sizeof(Part) * size)); /* no sum numbered yet: zeroed before any process pushes (the barrier below) */
  PetscCallCUDA(cudaDeviceSynchronize());
  PetscCall(PetscNew(&s));
  s->x    = x;
  s->box  = reinterpret_cast<Part *>(recv);
  s->size = size;
  PetscCall(PetscMalloc1(size, &hdst));
  for (PetscMPIInt r = 0; r < size; r++) {
    char *d = recv + sizeof(Part) * rank;

    if (r != rank) PetscCall(JaggedHaloIPCGetDestination(x, r, &d));
    hdst[r] = reinterpret_cast<Part *>(d);
  }
  PetscCallCUDA(cudaMalloc((void **)&s->dst, sizeof(Part *) * size));
  PetscCallCUDA(cudaMemcpy(s->dst, hdst, sizeof(Part *) * size, cudaMemcpyHostToDevice));
  PetscCall(PetscFree(hdst));
  PetscCallMPI(MPI_Barrier(comm));
  *sum = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  JaggedIPCSumAllreduce - buf[0, count) (device, doubles: a complex is two) summed over the processes in place, on
  stream; every process calls it the same number of times in the same order. stopped (device, or NULL): set to
  JAGGED_IPC_SUM_LOST if another process's values did not come
*/
PetscErrorCode JaggedIPCSumAllreduce(JaggedIPCSum s, double *buf, int count, int *stopped, cudaStream_t stream)
{
  PetscFunctionBegin;
  PetscCheck(count >= 0 && count <= kMaxCount, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "A sum through CUDA IPC carries at most %d doubles, not %d", kMaxCount, count);
  IPCSumKernel<<<1, 1, 0, stream>>>(buf, count, (int)s->size, ++s->seq, s->dst, s->box, stopped);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  JaggedIPCSumDestroy - stream: the one the sums ran on, waited for before the mappings close (once this process's last
  sum has ended, no process stores into its mailbox any more); the mailbox is freed once the other processes have closed
  their mappings of it (JaggedHaloIPCDestroy())
*/
PetscErrorCode JaggedIPCSumDestroy(JaggedIPCSum *sum, cudaStream_t stream)
{
  JaggedIPCSum s = *sum;

  PetscFunctionBegin;
  if (!s) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(JaggedHaloIPCDestroy(&s->x, stream));
  PetscCallCUDA(cudaFree(s->dst));
  PetscCall(PetscFree(*sum));
  PetscFunctionReturn(PETSC_SUCCESS);
}
