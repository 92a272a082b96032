/*
   MatJaggedUpload() (see jaggedupload.h). Measured on an H100 host (bench/RESULTS.md, "Format build"):
   636 MB from pageable memory take 0.105 s through cudaMemcpy() (6.4 GB/s); pinned in place
   (cudaHostRegister(), 0.036 s, copy 0.012 s, cudaHostUnregister() 0.014 s) 0.062 s; in 2 MB chunks by 8
   threads with two pinned buffers each 0.016 s (41 GB/s), 4 threads 0.028 s. The lanes' pinned buffers
   are made at the first large upload (0.45 ms a MB) and kept until PetscFinalize(). A process bound to one
   core (MPI launchers bind 2 ranks so) has no lanes: it pins the array in place an eighth at a time, each
   piece's copy crossing while the next one is pinned, so that only the last piece's copy adds to the pinning
   (bench/RESULTS.md, "Two GPUs as users meet them, on the final code": 8-16 % less time than pinned whole).
*/
#include <petscdevice_cuda.h>
#include <petscmat.h>
#include <petsctime.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <thread>
#include <vector>

#include <petscjagged/private/jaggedupload.h>

namespace {

constexpr size_t kChunk     = (size_t)2 << 20; /* bytes a lane copies at a time */
constexpr size_t kMinStaged = (size_t)8 << 20; /* smaller arrays go by cudaMemcpyAsync() */
constexpr int    kMaxLanes  = 8;               /* more lanes measured no faster than the link */
constexpr size_t kPinPieces = 8;               /* pieces an array is pinned in, one at a time, on one core */

/* One lane: a thread's two pinned buffers, alternated, and the stream their copies cross on */
struct Lane {
  char        *buf[2];
  cudaEvent_t  done[2]; /* the copy out of buf[k] has finished */
  cudaStream_t stream;
};

struct Pool {
  int  nlanes = -1; /* -1: not decided yet; 0: one core, pin in place */
  Lane lane[kMaxLanes];
} pool;

/* The CPU cores this process may run on (MPI launchers bind ranks to cores) */
int CoresAvailable()
{
  cpu_set_t set;

  if (sched_getaffinity(0, sizeof(set), &set)) return 1;
  return CPU_COUNT(&set);
}

PetscErrorCode MatJaggedUploadPoolDestroy()
{
  PetscFunctionBegin;
  for (int l = 0; l < pool.nlanes; l++) {
    for (int k = 0; k < 2; k++) {
      PetscCallCUDA(cudaFreeHost(pool.lane[l].buf[k]));
      PetscCallCUDA(cudaEventDestroy(pool.lane[l].done[k]));
    }
    PetscCallCUDA(cudaStreamDestroy(pool.lane[l].stream));
  }
  pool.nlanes = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatJaggedUploadPoolCreate()
{
  const int cores = CoresAvailable(), nlanes = cores > 1 ? std::min(cores, kMaxLanes) : 0;

  PetscFunctionBegin;
  for (int l = 0; l < nlanes; l++) {
    PetscCallCUDA(cudaStreamCreateWithFlags(&pool.lane[l].stream, cudaStreamNonBlocking));
    for (int k = 0; k < 2; k++) {
      PetscCallCUDA(cudaMallocHost((void **)&pool.lane[l].buf[k], kChunk));
      PetscCallCUDA(cudaEventCreateWithFlags(&pool.lane[l].done[k], cudaEventDisableTiming));
    }
  }
  pool.nlanes = nlanes;
  PetscCall(PetscRegisterFinalize(MatJaggedUploadPoolDestroy));
  PetscCall(PetscInfo(NULL, "Large uploads: %s (%d CPU cores available)\n", nlanes ? "lanes of threads through pinned buffers" : "pinned in place", cores));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Lane l copies chunks l, l + nlanes, ... on device (a new thread's current device is device 0); returns its first CUDA error */
cudaError_t LaneCopy(int l, int device, char *dst, const char *src, size_t bytes)
{
  Lane        &lane    = pool.lane[l];
  const size_t nchunks = (bytes + kChunk - 1) / kChunk;
  int          k       = 0;
  cudaError_t  err     = cudaSetDevice(device);

  for (size_t c = l; c < nchunks && err == cudaSuccess; c += pool.nlanes, k ^= 1) {
    const size_t off = c * kChunk, len = std::min(kChunk, bytes - off);

    err = cudaEventSynchronize(lane.done[k]); /* the copy out of this buffer two chunks ago */
    if (err != cudaSuccess) break;
    std::copy(src + off, src + off + len, lane.buf[k]);
    err = cudaMemcpyAsync(dst + off, lane.buf[k], len, cudaMemcpyHostToDevice, lane.stream);
    if (err == cudaSuccess) err = cudaEventRecord(lane.done[k], lane.stream);
  }
  return err;
}

/*
  One core: [src, src + bytes) pinned in place piece by piece (pieces end on page boundaries, so that two pinned at
  once share no page), each piece's copy queued on stream as soon as it is pinned and the piece before unpinned once
  its copy has crossed; a piece that cannot be pinned goes as from pageable memory. Returns when every copy out of
  src has finished (src may change then).
*/
cudaError_t PinnedCopy(char *dst, const char *src, size_t bytes, cudaStream_t stream)
{
  const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), piece_bytes = (bytes + kPinPieces - 1) / kPinPieces + page; /* > a page */
  cudaEvent_t     copied[2];
  const char     *piece[2]  = {NULL, NULL};
  bool            pinned[2] = {false, false};
  cudaError_t     err       = cudaSuccess;
  int             k         = 0;

  for (int i = 0; i < 2 && err == cudaSuccess; i++) err = cudaEventCreateWithFlags(&copied[i], cudaEventDisableTiming);
  if (err != cudaSuccess) return err;
  for (size_t off = 0; off < bytes && err == cudaSuccess; k ^= 1) {
    const uintptr_t at = (uintptr_t)src + off, end = std::min((at + piece_bytes) & ~(page - 1), (uintptr_t)src + bytes);
    const size_t    n  = end - at;

    piece[k]  = src + off;
    pinned[k] = cudaHostRegister(const_cast<char *>(piece[k]), n, cudaHostRegisterDefault) == cudaSuccess;
    if (!pinned[k]) (void)cudaGetLastError(); /* pinned already, or not pinnable: copied as from pageable memory */
    err = cudaMemcpyAsync(dst + off, piece[k], n, cudaMemcpyHostToDevice, stream);
    if (err == cudaSuccess) err = cudaEventRecord(copied[k], stream);
    off += n;
    if (err == cudaSuccess && pinned[k ^ 1]) { /* the piece before: copied while this one was pinned */
      err = cudaEventSynchronize(copied[k ^ 1]);
      if (err == cudaSuccess) err = cudaHostUnregister(const_cast<char *>(piece[k ^ 1]));
      pinned[k ^ 1] = false;
    }
  }
  for (int i = 0; i < 2; i++) {
    cudaError_t e = cudaEventSynchronize(copied[i]);

    if (e == cudaSuccess && pinned[i]) e = cudaHostUnregister(const_cast<char *>(piece[i]));
    if (err == cudaSuccess) err = e;
    e = cudaEventDestroy(copied[i]);
    if (err == cudaSuccess) err = e;
  }
  return err;
}

} // namespace

static PetscErrorCode MatJaggedUpload_Private(void *, const void *, size_t, cudaStream_t);

PetscErrorCode MatJaggedPin(const void *p, size_t bytes, PetscBool *pinned)
{
  PetscFunctionBegin;
  *pinned = PETSC_FALSE;
  if (!p || bytes < kMinStaged) PetscFunctionReturn(PETSC_SUCCESS);
  if (cudaHostRegister(const_cast<void *>(p), bytes, cudaHostRegisterDefault) == cudaSuccess) *pinned = PETSC_TRUE;
  else (void)cudaGetLastError(); /* pinned already, or not pinnable: copies out of it go as from pageable memory */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatJaggedUnpin(const void *p, PetscBool pinned)
{
  PetscFunctionBegin;
  if (pinned) PetscCallCUDA(cudaHostUnregister(const_cast<void *>(p)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatJaggedUpload(void *dst, const void *src, size_t bytes, cudaStream_t stream)
{
  PetscLogDouble t0, t1;
  PetscBool      info;

  PetscFunctionBegin;
  if (bytes < kMinStaged) {
    if (bytes) PetscCallCUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (pool.nlanes < 0) PetscCall(MatJaggedUploadPoolCreate());
  PetscCall(PetscTime(&t0));
  PetscCall(MatJaggedUpload_Private(dst, src, bytes, stream));
  PetscCall(PetscInfoEnabled(MAT_CLASSID, &info));
  if (info) { /* timed for -info only: it synchronizes */
    PetscCallCUDA(cudaStreamSynchronize(stream));
    PetscCall(PetscTime(&t1));
    PetscCall(PetscInfo(NULL, "Uploaded %zu bytes in %g s (%g GB/s, %d lanes)\n", bytes, t1 - t0, bytes / PetscMax(t1 - t0, 1e-9) * 1e-9, pool.nlanes));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedUpload_Private(void *dst, const void *src, size_t bytes, cudaStream_t stream)
{
  PetscFunctionBegin;
  if (!pool.nlanes) { /* one core: pinned in place piece by piece, the copies at the link's speed */
    PetscCallCUDA(PinnedCopy(static_cast<char *>(dst), static_cast<const char *>(src), bytes, stream));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  {
    std::vector<std::thread> threads;
    cudaError_t              err[kMaxLanes];
    cudaEvent_t              ready;
    int                      device;

    /* the lanes' streams start after what stream has queued (dst may have just been allocated on it) */
    PetscCallCUDA(cudaGetDevice(&device));
    PetscCallCUDA(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
    PetscCallCUDA(cudaEventRecord(ready, stream));
    for (int l = 0; l < pool.nlanes; l++) PetscCallCUDA(cudaStreamWaitEvent(pool.lane[l].stream, ready, 0));
    PetscCallCUDA(cudaEventDestroy(ready));
    for (int l = 1; l < pool.nlanes; l++) threads.emplace_back([&, l] { err[l] = LaneCopy(l, device, static_cast<char *>(dst), static_cast<const char *>(src), bytes); });
    err[0] = LaneCopy(0, device, static_cast<char *>(dst), static_cast<const char *>(src), bytes);
    for (auto &t : threads) t.join();
    for (int l = 0; l < pool.nlanes; l++) PetscCallCUDA(err[l]);
    for (int l = 0; l < pool.nlanes; l++) /* stream waits for every chunk */
      for (int k = 0; k < 2; k++) PetscCallCUDA(cudaStreamWaitEvent(stream, pool.lane[l].done[k], 0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatJaggedUploadIndexArrays(int n, const PetscCount *const src[], const size_t len[], long long **const dst[], long long **base, cudaStream_t stream)
{
  size_t total = 0;

  PetscFunctionBegin;
  static_assert(sizeof(PetscCount) == sizeof(long long), "the device kernels read PetscCount arrays as long long");
  for (int k = 0; k < n; k++) total += len[k];
  PetscCallCUDA(cudaMalloc((void **)base, sizeof(long long) * PetscMax(total, (size_t)1)));
  total = 0;
  for (int k = 0; k < n; k++) {
    *dst[k] = *base + total;
    PetscCall(MatJaggedUpload(*dst[k], src[k], sizeof(long long) * len[k], stream));
    total += len[k];
  }
  PetscCall(PetscLogCpuToGpu(sizeof(long long) * total));
  PetscFunctionReturn(PETSC_SUCCESS);
}
