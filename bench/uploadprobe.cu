// How fast a process bound to one core (mpiexec's default for 1 and 2 ranks) moves a rank's CSR of the 2 M-row Q2
// matrix on 2 ranks (250 MB of int columns, 500 MB of double values, malloc'd and written as MatLoad() leaves them) to its
// GPU: pinned in place in 8, 32 or 2 pieces or whole (unpinned after), cudaMemcpyAsync() from pageable memory, staged
// through two pinned buffers, and a copy out of memory pinned before (the link alone); each with the other rank copying at
// the same time, waiting in MPI_Recv(), spinning, or sleeping; then the same with the arrays in transparent huge pages.
// Built as build/real/bench/uploadprobe (a measurement for bench/RESULTS.md, "Session 45"); on the GPU machine:
//   mpiexec -n 1 uploadprobe; mpiexec -n 2 uploadprobe
// Output: bench/uploadprobe-h200-np1.txt, bench/uploadprobe-h200x2-np2.txt (2 x NVIDIA H200, 32 cores, Linux 6.18).
#include <cuda_runtime.h>
#include <mpi.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)

static double now() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }

struct Stat { double total = 0, regmax = 0, unregmax = 0, reg = 0, unreg = 0; int calls = 0; };

static void PiecesCopy(char *dst, char *src, size_t bytes, int npieces, cudaStream_t s, Stat &st)
{
  const uintptr_t page = 4096, pb = (bytes + npieces - 1) / npieces + page;
  cudaEvent_t ev[2]; char *piece[2] = {0, 0}; bool pinned[2] = {false, false}; int k = 0;
  for (int i = 0; i < 2; i++) CK(cudaEventCreateWithFlags(&ev[i], cudaEventDisableTiming));
  for (size_t off = 0; off < bytes; k ^= 1) {
    uintptr_t at = (uintptr_t)src + off, end = std::min((at + pb) & ~(page - 1), (uintptr_t)src + bytes);
    size_t n = end - at;
    piece[k] = src + off;
    double t = now();
    pinned[k] = cudaHostRegister(piece[k], n, 0) == cudaSuccess;
    t = now() - t; st.reg += t; st.regmax = std::max(st.regmax, t); st.calls++;
    if (!pinned[k]) (void)cudaGetLastError();
    CK(cudaMemcpyAsync(dst + off, piece[k], n, cudaMemcpyHostToDevice, s));
    CK(cudaEventRecord(ev[k], s));
    off += n;
    if (pinned[k ^ 1]) {
      CK(cudaEventSynchronize(ev[k ^ 1]));
      t = now(); CK(cudaHostUnregister(piece[k ^ 1])); t = now() - t; st.unreg += t; st.unregmax = std::max(st.unregmax, t);
      pinned[k ^ 1] = false;
    }
  }
  for (int i = 0; i < 2; i++) {
    CK(cudaEventSynchronize(ev[i]));
    if (pinned[i]) { double t = now(); CK(cudaHostUnregister(piece[i])); t = now() - t; st.unreg += t; st.unregmax = std::max(st.unregmax, t); }
    CK(cudaEventDestroy(ev[i]));
  }
}

static void StagedCopy(char *dst, const char *src, size_t bytes, char *buf[2], cudaEvent_t ev[2], cudaStream_t s, size_t chunk)
{
  int k = 0;
  for (size_t off = 0; off < bytes; off += chunk, k ^= 1) {
    size_t n = std::min(chunk, bytes - off);
    CK(cudaEventSynchronize(ev[k]));
    memcpy(buf[k], src + off, n);
    CK(cudaMemcpyAsync(dst + off, buf[k], n, cudaMemcpyHostToDevice, s));
    CK(cudaEventRecord(ev[k], s));
  }
  CK(cudaStreamSynchronize(s));
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, ndev;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CK(cudaGetDeviceCount(&ndev));
  CK(cudaSetDevice(rank % ndev));
  cpu_set_t set; sched_getaffinity(0, sizeof(set), &set);
  const size_t nidx = (size_t)62.5e6, nval = nidx; /* a rank of the Q2 matrix on 2 ranks */
  const size_t bi = nidx * 4, bv = nval * 8;
  cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  char *d; CK(cudaMalloc(&d, bi + bv));
  char *sbuf[2]; cudaEvent_t sev[2];
  for (int k = 0; k < 2; k++) { CK(cudaMallocHost(&sbuf[k], 8 << 20)); CK(cudaEventCreateWithFlags(&sev[k], cudaEventDisableTiming)); CK(cudaEventRecord(sev[k], s)); }
  CK(cudaDeviceSynchronize());
  printf("rank %d: GPU %d, %d cores in its affinity\n", rank, rank % ndev, CPU_COUNT(&set));
  const char *methods[] = {"pieces8", "pieces32", "pieces2", "whole", "pageable", "staged8M", "staged2M", "prepinned-dma"};
  const char *scen[]    = {"together", "other-in-MPI_Recv", "other-spins", "other-sleeps"};
  for (int thp = 0; thp < 2; thp++) {
    /* fresh arrays as MatLoad leaves them: malloc'd (thp: 2 MB aligned and madvised) and written */
    char *hi, *hv;
    if (!thp) { hi = (char *)malloc(bi); hv = (char *)malloc(bv); }
    else { hi = (char *)aligned_alloc(2 << 20, (bi + (2 << 20) - 1) / (2 << 20) * (2 << 20)); hv = (char *)aligned_alloc(2 << 20, (bv + (2 << 20) - 1) / (2 << 20) * (2 << 20)); madvise(hi, bi, MADV_HUGEPAGE); madvise(hv, bv, MADV_HUGEPAGE); }
    for (size_t i = 0; i < nidx; i++) ((int *)hi)[i] = (int)(i * 7);
    for (size_t i = 0; i < nval; i++) ((double *)hv)[i] = 1.0 / (i + 1);
    for (int m = 0; m < 8; m++) {
      for (int sc = 0; sc < (size > 1 ? 4 : 1); sc++) {
        for (int rep = 0; rep < 3; rep++) {
          MPI_Barrier(MPI_COMM_WORLD);
          const bool active = sc == 0 || rank == 0 || size == 1;
          Stat st;
          double t = now();
          if (active) {
            if (m == 7) { CK(cudaHostRegister(hi, bi, 0)); CK(cudaHostRegister(hv, bv, 0)); t = now(); }
            for (int a = 0; a < 2; a++) {
              char *src = a ? hv : hi, *dst = a ? d + bi : d; size_t b = a ? bv : bi;
              if (m == 0) PiecesCopy(dst, src, b, 8, s, st);
              else if (m == 1) PiecesCopy(dst, src, b, 32, s, st);
              else if (m == 2) PiecesCopy(dst, src, b, 2, s, st);
              else if (m == 3) PiecesCopy(dst, src, b, 1, s, st);
              else if (m == 4) CK(cudaMemcpyAsync(dst, src, b, cudaMemcpyHostToDevice, s));
              else if (m == 5) StagedCopy(dst, src, b, sbuf, sev, s, 8 << 20);
              else if (m == 6) StagedCopy(dst, src, b, sbuf, sev, s, 2 << 20);
              else CK(cudaMemcpyAsync(dst, src, b, cudaMemcpyHostToDevice, s));
            }
            CK(cudaStreamSynchronize(s));
            st.total = now() - t;
            if (m == 7) { CK(cudaHostUnregister(hi)); CK(cudaHostUnregister(hv)); }
          } else if (sc == 1) { /* wait in MPI, as a rank waits for another in MatLoad() or an assembly */
            int flag = 0; MPI_Recv(&flag, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          } else if (sc == 2) { /* spin on this rank's core until rank 0 is done */
            int flag = 0; MPI_Request r; MPI_Irecv(&flag, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &r);
            int done = 0; volatile double x = 0; while (!done) { for (int i = 0; i < 1000; i++) x += i; MPI_Test(&r, &done, MPI_STATUS_IGNORE); }
          } else { /* sleep until rank 0 is done */
            int flag = 0; MPI_Request r; MPI_Irecv(&flag, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &r);
            int done = 0; while (!done) { usleep(200); MPI_Test(&r, &done, MPI_STATUS_IGNORE); }
          }
          if (rank == 0 && size > 1 && sc > 0) { int flag = 1; MPI_Send(&flag, 1, MPI_INT, 1, 7, MPI_COMM_WORLD); }
          if (active) printf("R%d thp%d %-14s %-22s rep%d %8.1f ms %6.1f GB/s  reg %6.1f (max %5.1f) unreg %6.1f (max %5.1f) ms, %d pins\n", rank, thp, methods[m], size > 1 ? scen[sc] : "one-process", rep,
                             st.total * 1e3, (bi + bv) / st.total * 1e-9, st.reg * 1e3, st.regmax * 1e3, st.unreg * 1e3, st.unregmax * 1e3, st.calls);
          fflush(stdout);
        }
      }
    }
    free(hi); free(hv);
  }
  MPI_Finalize();
  return 0;
}
