/*
   JaggedNCCL (see jaggednccl.h): NCCL opened at run time, and one NCCL communicator per PETSc inner
   communicator, kept as an MPI attribute whose delete callback destroys it. The communicator is made
   by a thread of its own (ncclCommInitRank() only: every NCCL operation is issued by the program's
   thread), started as early as an object knows it will exchange through NCCL (JaggedNCCLPrefetch():
   when NCCL is asked for), and joined and connected at the first use (JaggedNCCLGet(), collective), so
   that the making runs while the program goes on.
*/
#include <petscjagged/private/jaggednccl.h>
#include <petscjagged/private/jaggedgpus.h>
#include <petsc/private/petscimpl.h>
#include <petscdevice.h>
#include <nccl.h>
#include <dlfcn.h>
#include <chrono>
#include <thread>
#include <cstring>

PetscLogEvent PETSC_JAGGED_NCCLWait;

/*
  The communicators' channels (CTAs) at most: on 2 H200s the first exchange and sum, which connect them, took 2.1 s
  with NCCL's default (24 channels) and 0.18 s with 2 (bench/RESULTS.md)
*/
#define JAGGED_NCCL_MAX_CTAS 2

struct _n_JaggedNCCL {
  ncclComm_t   comm;      /* NULL where NCCL cannot run on every process of the communicator */
  const char  *why;       /* then: why not */
  JaggedNCCL   next;      /* the list of live communicators, freed at PetscFinalize() */
  MPI_Comm     petsccomm; /* the inner communicator holding this as an attribute */
  std::thread *maker;     /* the thread making comm, until joined */
  ncclResult_t result;    /* of the making */
  double       tinit;     /* seconds of ncclCommInitRank() */
};

namespace {

/* The NCCL functions petsc-jagged calls, opened once */
struct NCCLLibrary {
  bool        tried, loaded;
  const char *why;
  decltype(&ncclGetVersion)     GetVersion;
  decltype(&ncclGetUniqueId)    GetUniqueId;
  decltype(&ncclCommInitRank)   CommInitRank;
  decltype(&ncclCommInitRankConfig) CommInitRankConfig; /* NULL before NCCL 2.14 */
  decltype(&ncclCommDestroy)    CommDestroy;
  decltype(&ncclGetErrorString) GetErrorString;
  decltype(&ncclGroupStart)     GroupStart;
  decltype(&ncclGroupEnd)       GroupEnd;
  decltype(&ncclSend)           Send;
  decltype(&ncclRecv)           Recv;
  decltype(&ncclAllReduce)      AllReduce;
};
NCCLLibrary nccl;

PetscMPIInt JaggedNCCLKeyval = MPI_KEYVAL_INVALID;
JaggedNCCL  JaggedNCCLLive   = nullptr;

#define JaggedCallNCCL(...) \
  do { \
    ncclResult_t ierr_nccl_ = __VA_ARGS__; \
    PetscCheck(ierr_nccl_ == ncclSuccess, PETSC_COMM_SELF, PETSC_ERR_LIB, "NCCL error %d: %s", (int)ierr_nccl_, nccl.GetErrorString(ierr_nccl_)); \
  } while (0)

template <typename F>
bool JaggedNCCLSymbol(void *lib, const char *name, F *f)
{
  *f = reinterpret_cast<F>(dlsym(lib, name));
  return *f != nullptr;
}

/* Opens libnccl.so.2: the loader's search path first, then the copy petsc-jagged was built against */
PetscErrorCode JaggedNCCLOpen(void)
{
  void          *lib;
  int            version = 0;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  if (nccl.tried) PetscFunctionReturn(PETSC_SUCCESS);
  nccl.tried = true;
  PetscCall(PetscTime(&t0));
  lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
  if (!lib) lib = dlopen(PETSC_JAGGED_NCCL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    nccl.why = "no libnccl.so.2 on the library path";
    PetscCall(PetscInfo(NULL, "NCCL not found (libnccl.so.2, nor %s): halo exchanges and reductions go through MPI\n", PETSC_JAGGED_NCCL_LIBRARY));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  nccl.loaded = JaggedNCCLSymbol(lib, "ncclGetVersion", &nccl.GetVersion) && JaggedNCCLSymbol(lib, "ncclGetUniqueId", &nccl.GetUniqueId) && JaggedNCCLSymbol(lib, "ncclCommInitRank", &nccl.CommInitRank) &&
                JaggedNCCLSymbol(lib, "ncclCommDestroy", &nccl.CommDestroy) && JaggedNCCLSymbol(lib, "ncclGetErrorString", &nccl.GetErrorString) && JaggedNCCLSymbol(lib, "ncclGroupStart", &nccl.GroupStart) &&
                JaggedNCCLSymbol(lib, "ncclGroupEnd", &nccl.GroupEnd) && JaggedNCCLSymbol(lib, "ncclSend", &nccl.Send) && JaggedNCCLSymbol(lib, "ncclRecv", &nccl.Recv) && JaggedNCCLSymbol(lib, "ncclAllReduce", &nccl.AllReduce);
  if (!nccl.loaded) {
    nccl.why = "libnccl.so.2 lacks a function petsc-jagged calls";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (nccl.loaded && !JaggedNCCLSymbol(lib, "ncclCommInitRankConfig", &nccl.CommInitRankConfig)) nccl.CommInitRankConfig = nullptr;
  if (nccl.GetVersion(&version) != ncclSuccess || version < 20700) { /* grouped send/receive: NCCL 2.7 */
    nccl.loaded = false;
    nccl.why    = "libnccl.so.2 is older than NCCL 2.7";
  }
  PetscCall(PetscTime(&t1));
  PetscCall(PetscInfo(NULL, "Opened NCCL %d in %g s\n", version, t1 - t0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscMPIInt MPIAPI JaggedNCCLDelete(MPI_Comm, PetscMPIInt, void *value, void *)
{
  JaggedNCCL c = static_cast<JaggedNCCL>(value);

  if (c->maker) {
    c->maker->join();
    delete c->maker;
  }
  for (JaggedNCCL *l = &JaggedNCCLLive; *l; l = &(*l)->next)
    if (*l == c) {
      *l = c->next;
      break;
    }
  if (c->comm) (void)nccl.CommDestroy(c->comm);
  delete c;
  return MPI_SUCCESS;
}

/* Whether every process has a GPU of its own (told apart by their UUIDs), and NCCL: else why not (the same answer on every process) */
PetscErrorCode JaggedNCCLUsable(MPI_Comm comm, const char **why)
{
  PetscMPIInt ok, allok;
  PetscBool   shared;

  PetscFunctionBegin;
  *why = nullptr;
  PetscCall(JaggedNCCLOpen());
  ok = nccl.loaded ? 1 : 0;
  PetscCallMPI(MPIU_Allreduce(&ok, &allok, 1, MPI_INT, MPI_MIN, comm));
  if (!allok) {
    *why = nccl.loaded ? "NCCL is missing on another process" : nccl.why;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(JaggedGPUsShared(comm, &shared));
  if (shared) *why = "two processes share a GPU";
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The making thread: the communicator on the process's GPU, ncclCommInitRank() alone. It issues no NCCL operation:
  NCCL forbids operations issued from two threads at once on communicators of one GPU, and an operation waiting on
  its GPU for the other process while this process's program thread sits in a call that synchronizes the GPU
  (cudaFree()) can wait for ever (JaggedNCCLConnect()). No MPI and no PETSc calls here.
*/
void JaggedNCCLMake(JaggedNCCL c, int size, ncclUniqueId id, int rank, int device)
{
  auto         now = [] { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); };
  const double t0  = now();

  if (cudaSetDevice(device) != cudaSuccess) {
    c->result = ncclUnhandledCudaError;
    return;
  }
  if (nccl.CommInitRankConfig) { /* few channels: a halo of a few megabytes needs no more, and each channel costs connections */
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;

    config.maxCTAs = JAGGED_NCCL_MAX_CTAS;
    c->result      = nccl.CommInitRankConfig(&c->comm, size, id, rank, &config);
  } else c->result = nccl.CommInitRank(&c->comm, size, id, rank);
  c->tinit = now() - t0;
}

/*
  The communicator's connections to the neighbouring ranks and NCCL's kernels, made by one exchange of a byte with the
  next and the previous rank and one sum, on this (the program's) thread while every process waits here: a first
  exchange in a solve would otherwise connect while the other process may already wait in a call that synchronizes
  its GPU, which NCCL's connection (its proxy thread's CUDA calls) then waits for
*/
PetscErrorCode JaggedNCCLConnect(JaggedNCCL c, MPI_Comm comm)
{
  cudaStream_t stream;
  char        *buf;
  PetscMPIInt  size, rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  PetscCallCUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  PetscCallCUDA(cudaMalloc((void **)&buf, 32));
  PetscCallCUDA(cudaMemsetAsync(buf, 0, 32, stream));
  JaggedCallNCCL(nccl.GroupStart());
  for (int peer : {next, prev}) {
    JaggedCallNCCL(nccl.Send(buf, 1, ncclUint8, peer, c->comm, stream));
    JaggedCallNCCL(nccl.Recv(buf + (peer == prev ? 16 : 8), 1, ncclUint8, peer, c->comm, stream));
    if (next == prev) break;
  }
  JaggedCallNCCL(nccl.GroupEnd());
  JaggedCallNCCL(nccl.AllReduce(buf + 24, buf + 24, 1, ncclDouble, ncclSum, c->comm, stream));
  PetscCallCUDA(cudaStreamSynchronize(stream));
  PetscCallCUDA(cudaFree(buf));
  PetscCallCUDA(cudaStreamDestroy(stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The communicator's attribute, made (collective then) and its making thread started where NCCL can run */
PetscErrorCode JaggedNCCLStart(MPI_Comm inner, JaggedNCCL *c)
{
  PetscMPIInt flag;
  const char *reason;
  JaggedNCCL  value;

  PetscFunctionBegin;
  if (JaggedNCCLKeyval == MPI_KEYVAL_INVALID) PetscCallMPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, JaggedNCCLDelete, &JaggedNCCLKeyval, NULL));
  PetscCallMPI(MPI_Comm_get_attr(inner, JaggedNCCLKeyval, c, &flag));
  if (flag) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(JaggedNCCLUsable(inner, &reason));
  value            = new _n_JaggedNCCL();
  value->why       = reason;
  value->petsccomm = inner;
  if (!reason) {
    ncclUniqueId id;
    PetscMPIInt  size, rank;
    int          device;

    PetscCallMPI(MPI_Comm_size(inner, &size));
    PetscCallMPI(MPI_Comm_rank(inner, &rank));
    PetscCallCUDA(cudaGetDevice(&device));
    if (rank == 0) JaggedCallNCCL(nccl.GetUniqueId(&id));
    PetscCallMPI(MPI_Bcast(&id, (PetscMPIInt)sizeof(id), MPI_BYTE, 0, inner));
    value->maker = new std::thread(JaggedNCCLMake, value, (int)size, id, (int)rank, device);
  } else PetscCall(PetscInfo(NULL, "No NCCL communicator: %s\n", reason));
  value->next    = JaggedNCCLLive;
  JaggedNCCLLive = value;
  PetscCallMPI(MPI_Comm_set_attr(inner, JaggedNCCLKeyval, value));
  *c = value;
  PetscFunctionReturn(PETSC_SUCCESS);
}

} // namespace

/*
  JaggedNCCLPrefetch - starts making the NCCL communicator of comm in the background, where PETSc's CUDA
  device is initialized and comm has several processes; collective the first time
*/
PetscErrorCode JaggedNCCLPrefetch(MPI_Comm comm)
{
  MPI_Comm    inner;
  PetscMPIInt size;
  JaggedNCCL  value;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size == 1 || !PetscDeviceInitialized(PETSC_DEVICE_CUDA)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscCommDuplicate(comm, &inner, NULL));
  PetscCall(JaggedNCCLStart(inner, &value));
  PetscCall(PetscCommDestroy(&inner));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  JaggedNCCLPrefetchFromOptions - where any option of the database asks an exchange for NCCL (`-mat_jagged_exchange nccl`,
  `-pc_spcg_exchange nccl`, `-mat_powers_exchange nccl`, under any prefix), starts making the communicator of
  PETSC_COMM_WORLD at once, while the program assembles: the objects that will ask for it (a MatPowers made inside
  the first solve, say) are created too late to hide its seconds. Collective on PETSC_COMM_WORLD: called when
  PETSc loads the library (-dll_append).
*/
PetscErrorCode JaggedNCCLPrefetchFromOptions(void)
{
  char       *all;
  PetscMPIInt size, asked, allasked;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscOptionsGetAll(NULL, &all));
  asked = strstr(all, "_exchange nccl") != NULL;
  PetscCall(PetscFree(all));
  if (asked) { /* and where this process sees a GPU (no GPU: nothing to make) */
    int ngpu = 0;

    if (cudaGetDeviceCount(&ngpu) != cudaSuccess) {
      (void)cudaGetLastError();
      ngpu = 0;
    }
    asked = ngpu > 0;
  }
  PetscCallMPI(MPIU_Allreduce(&asked, &allasked, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD)); /* every process or none starts the collective making */
  if (!allasked) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA)); /* the device PETSc gives this rank, as the first GPU object would */
  PetscCall(JaggedNCCLPrefetch(PETSC_COMM_WORLD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  JaggedNCCLGet - the NCCL communicator of comm, started on the first call (collective then) and waited
  for; NULL with why where NCCL cannot run on every process
*/
PetscErrorCode JaggedNCCLGet(MPI_Comm comm, JaggedNCCL *c, const char **why)
{
  MPI_Comm   inner;
  JaggedNCCL value;

  PetscFunctionBegin;
  PetscCall(PetscCommDuplicate(comm, &inner, NULL));
  PetscCall(JaggedNCCLStart(inner, &value));
  if (value->maker) {
    PetscLogDouble t0, t1, t2;
    PetscMPIInt    made, allmade;

    PetscCall(PetscLogEventBegin(PETSC_JAGGED_NCCLWait, 0, 0, 0, 0));
    PetscCall(PetscTime(&t0));
    value->maker->join();
    delete value->maker;
    value->maker = nullptr;
    PetscCall(PetscTime(&t1));
    made = value->result == ncclSuccess;
    PetscCallMPI(MPIU_Allreduce(&made, &allmade, 1, MPI_INT, MPI_MIN, inner)); /* a failure on one process fails every process, none waits for it */
    PetscCheck(made, PETSC_COMM_SELF, PETSC_ERR_LIB, "Making the NCCL communicator failed: NCCL error %d: %s", (int)value->result, nccl.GetErrorString(value->result));
    PetscCheck(allmade, PETSC_COMM_SELF, PETSC_ERR_LIB, "Making the NCCL communicator failed on another process");
    PetscCall(JaggedNCCLConnect(value, inner));
    PetscCall(PetscTime(&t2));
    PetscCall(PetscLogEventEnd(PETSC_JAGGED_NCCLWait, 0, 0, 0, 0));
    PetscCall(PetscInfo(NULL, "NCCL communicator made in %g s by a thread of its own (waited %g s for it), connected in %g s\n", value->tinit, t1 - t0, t2 - t1));
  }
  *c = value->comm ? value : nullptr;
  if (why) *why = value->why;
  PetscCall(PetscCommDestroy(&inner));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode JaggedNCCLGroupStart(void)
{
  PetscFunctionBegin;
  JaggedCallNCCL(nccl.GroupStart());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode JaggedNCCLGroupEnd(void)
{
  PetscFunctionBegin;
  JaggedCallNCCL(nccl.GroupEnd());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* JaggedNCCLSend - bytes of buf to process peer of the communicator, on stream (inside a group with the matching receives) */
PetscErrorCode JaggedNCCLSend(JaggedNCCL c, const void *buf, size_t bytes, PetscMPIInt peer, cudaStream_t stream)
{
  PetscFunctionBegin;
  JaggedCallNCCL(nccl.Send(buf, bytes, ncclUint8, peer, c->comm, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode JaggedNCCLRecv(JaggedNCCL c, void *buf, size_t bytes, PetscMPIInt peer, cudaStream_t stream)
{
  PetscFunctionBegin;
  JaggedCallNCCL(nccl.Recv(buf, bytes, ncclUint8, peer, c->comm, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* JaggedNCCLAllreduceSum - buf[0..count) summed over the processes in place, on stream; type PETSC_DOUBLE, PETSC_FLOAT or PETSC_COMPLEX (two doubles; PETSC_SCALAR is one of these) */
PetscErrorCode JaggedNCCLAllreduceSum(JaggedNCCL c, void *buf, size_t count, PetscDataType type, cudaStream_t stream)
{
  ncclDataType_t t = ncclDouble;

  PetscFunctionBegin;
  switch (type) {
  case PETSC_DOUBLE:
    break;
  case PETSC_FLOAT:
    t = ncclFloat;
    break;
  case PETSC_COMPLEX:
    count *= 2;
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "NCCL sums of %s are not supported", PetscDataTypes[type]);
  }
  JaggedCallNCCL(nccl.AllReduce(buf, buf, count, t, ncclSum, c->comm, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* JaggedNCCLFinalize - destroys the NCCL communicators still alive; called by PetscJaggedFinalizePackage() */
PetscErrorCode JaggedNCCLFinalize(void)
{
  PetscFunctionBegin;
  while (JaggedNCCLLive) PetscCallMPI(MPI_Comm_delete_attr(JaggedNCCLLive->petsccomm, JaggedNCCLKeyval)); /* the callback unlinks it */
  if (JaggedNCCLKeyval != MPI_KEYVAL_INVALID) PetscCallMPI(MPI_Comm_free_keyval(&JaggedNCCLKeyval));
  PetscFunctionReturn(PETSC_SUCCESS);
}
