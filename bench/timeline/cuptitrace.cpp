/*
   libcuptitrace.so: a timeline of the GPU work of an unmodified CUDA program (an MPI one included),
   through CUPTI's activity API, where there is no Nsight Systems. Read by bench/timeline/timeline.py.

   Loaded by the CUDA driver itself, which calls InitializeInjection() when the program initialises
   CUDA:
       CUDA_INJECTION64_PATH=$PWD/build/real/bench/libcuptitrace.so PJ_TRACE_DIR=/tmp/trace prog ...
       mpiexec -n 2 -x CUDA_INJECTION64_PATH -x PJ_TRACE_DIR prog ...
   (LD_PRELOAD does nothing: the library has no constructor.) It finds libcupti.so.13 next to itself
   (RPATH $ORIGIN; the build copies the one of scripts/get-cupti there).

   At exit each process writes ${PJ_TRACE_DIR:-.}/trace-<rank>-<pid>.csv (the rank from
   OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK or SLURM_PROCID, else 0), one row a record:
       kind,name,start_ns,end_ns,stream,device,bytes,correlation,grid,block
     kernel   a kernel (concurrent kernel records: tracing does not serialise them); name demangled,
              without its return type and parameters, "(anonymous namespace)::" dropped; grid and block
              as XxYxZ
     memcpy   a copy: name HtoD, DtoH, DtoD, HtoH, PtoP ..., with " pageable" where the host side is
              pageable memory (such a copy blocks the host); bytes
     memset   bytes
     runtime  a CUDA runtime API call (cudaLaunchKernel, cudaMemcpyAsync, cudaEventSynchronize ...):
              the host's side, blocking included; stream holds the host thread id, device is empty.
              cudaGetLastError, cudaPeekAtLastError and cudaGetDevice are left out (many, never block)
     process  one row: the tracer's start (CUDA initialisation) and end (exit); stream holds the pid
   Times are CUPTI's nanosecond clock (cuptiGetTimestamp), one axis for host and device records of a
   process. correlation links a runtime call to the kernel or copy it launched. Rows are in CUPTI's
   buffer order, not sorted.
   PJ_TRACE_MAX (default 2000000; 0: no limit) caps the rows written: the first ones are kept.

   Never fatal to the program: if CUPTI fails, one line on stderr and no trace. Each process prints one
   line at exit: the file and its row count; a process without CUDA records (mpiexec, which may
   initialise CUDA too) leaves no file.
*/
#include <cupti.h>
#include <cxxabi.h>

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>

namespace {

constexpr size_t kActivityBuffer = 8u << 20; /* bytes of each buffer handed to CUPTI */
constexpr size_t kOutBuffer      = 1u << 20; /* rows gathered before a write() */

/*
   State, on the heap and never freed: CUPTI's thread may deliver a buffer while the process runs its
   static destructors. The output goes through write(2), not stdio, so that a forked child's exit()
   cannot flush a copy of it.
*/
struct Trace {
  std::mutex                                    lock;
  int                                           fd = -1;
  std::string                                   path, out;
  unsigned long long                            rows = 0, limit = 2000000, capped = 0;
  size_t                                        dropped = 0;
  uint64_t                                      start = 0;
  pid_t                                         pid = 0;
  bool                                          done = false;
  std::unordered_map<const char *, std::string> kernels; /* CUPTI's name pointer -> short name */
  std::unordered_map<uint32_t, std::string>     apis;    /* runtime cbid -> name, empty: left out */
};
Trace *trace;

void Say(const char *fmt, ...)
{
  va_list ap;

  va_start(ap, fmt);
  fputs("cuptitrace: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

const char *ResultString(CUptiResult r)
{
  const char *s = nullptr;

  if (cuptiGetResultString(r, &s) != CUPTI_SUCCESS || !s) s = "unknown CUPTI error";
  return s;
}

void Flush(Trace &t)
{
  const char *p = t.out.data();
  size_t      n = t.out.size();

  while (n && t.fd >= 0) {
    const ssize_t w = write(t.fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) { /* disk full or the like: stop writing, keep the program running */
      Say("writing %s failed (%s); the trace stops here", t.path.c_str(), strerror(errno));
      close(t.fd);
      t.fd = -1;
      break;
    }
    p += w;
    n -= (size_t)w;
  }
  t.out.clear();
}

/* "void ns::(anonymous namespace)::Kernel<T>(args)" -> "ns::Kernel<T>"; a name that does not demangle stays */
std::string KernelName(const char *mangled)
{
  int         status = -1;
  char       *d      = mangled ? abi::__cxa_demangle(mangled, nullptr, nullptr, &status) : nullptr;
  std::string s      = d && status == 0 ? d : (mangled ? mangled : "?");

  free(d);
  if (status == 0 && !s.empty() && s.back() == ')') { /* the parameter list: back to its '(' */
    int depth = 0;
    for (size_t i = s.size(); i-- > 0;) {
      if (s[i] == ')') depth++;
      else if (s[i] == '(' && --depth == 0) {
        s.resize(i);
        break;
      }
    }
  }
  if (s.compare(0, 5, "void ") == 0) s.erase(0, 5);
  for (size_t p; (p = s.find("(anonymous namespace)::")) != std::string::npos;) s.erase(p, 23);
  return s;
}

const std::string &KernelNameCached(Trace &t, const char *mangled)
{
  auto it = t.kernels.find(mangled);
  if (it == t.kernels.end()) it = t.kernels.emplace(mangled, KernelName(mangled)).first;
  return it->second;
}

/* cudaMemcpyAsync_v3020 -> cudaMemcpyAsync; empty for the calls left out */
const std::string &ApiName(Trace &t, CUpti_CallbackId cbid)
{
  auto it = t.apis.find(cbid);
  if (it == t.apis.end()) {
    const char *name = nullptr;
    std::string s;

    if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, &name) == CUPTI_SUCCESS && name) s = name;
    else s = "runtime-cbid-" + std::to_string(cbid);
    const size_t v = s.rfind("_v");
    if (v != std::string::npos && v + 2 < s.size() && s.find_first_not_of("0123456789", v + 2) == std::string::npos) s.resize(v);
    if (s == "cudaGetLastError" || s == "cudaPeekAtLastError" || s == "cudaGetDevice") s.clear();
    it = t.apis.emplace(cbid, s).first;
  }
  return it->second;
}

const char *CopyName(const CUpti_ActivityMemcpy6 *m)
{
  const bool src = m->srcKind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE, dst = m->dstKind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;

  switch (m->copyKind) {
  case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    return src ? "HtoD pageable" : "HtoD";
  case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    return dst ? "DtoH pageable" : "DtoH";
  case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
    return src ? "HtoA pageable" : "HtoA";
  case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
    return dst ? "AtoH pageable" : "AtoH";
  case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
    return "AtoA";
  case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    return "AtoD";
  case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
    return "DtoA";
  case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    return "DtoD";
  case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
    return "HtoH";
  case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
    return "PtoP";
  default:
    return "copy";
  }
}

/* One CSV row; the name quoted (template arguments hold commas) */
void Row(Trace &t, const char *kind, const std::string &name, uint64_t start, uint64_t end, long long stream, long long device, unsigned long long bytes, uint32_t correlation, const char *grid = "", const char *block = "")
{
  char num[224];

  if (t.limit && t.rows >= t.limit) {
    t.capped++;
    return;
  }
  t.rows++;
  t.out += kind;
  t.out += ",\"";
  for (char c : name) {
    if (c == '"') t.out += '"';
    t.out += c;
  }
  t.out += "\",";
  snprintf(num, sizeof(num), "%llu,%llu,%lld,", (unsigned long long)start, (unsigned long long)end, stream);
  t.out += num;
  if (device >= 0) t.out += std::to_string(device);
  snprintf(num, sizeof(num), ",%llu,%u,%s,%s\n", bytes, correlation, grid, block);
  t.out += num;
  if (t.out.size() >= kOutBuffer) Flush(t);
}

void Record(Trace &t, const CUpti_Activity *r)
{
  char grid[48], block[48];

  switch (r->kind) {
  case CUPTI_ACTIVITY_KIND_KERNEL:
  case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
    const auto *k = reinterpret_cast<const CUpti_ActivityKernel10 *>(r);
    snprintf(grid, sizeof(grid), "%dx%dx%d", k->gridX, k->gridY, k->gridZ);
    snprintf(block, sizeof(block), "%dx%dx%d", k->blockX, k->blockY, k->blockZ);
    Row(t, "kernel", KernelNameCached(t, k->name), k->start, k->end, k->streamId, k->deviceId, 0, k->correlationId, grid, block);
    break;
  }
  case CUPTI_ACTIVITY_KIND_MEMCPY: {
    const auto *m = reinterpret_cast<const CUpti_ActivityMemcpy6 *>(r);
    Row(t, "memcpy", CopyName(m), m->start, m->end, m->streamId, m->deviceId, m->bytes, m->correlationId);
    break;
  }
  case CUPTI_ACTIVITY_KIND_MEMSET: {
    const auto *m = reinterpret_cast<const CUpti_ActivityMemset4 *>(r);
    Row(t, "memset", "memset", m->start, m->end, m->streamId, m->deviceId, m->bytes, m->correlationId);
    break;
  }
  case CUPTI_ACTIVITY_KIND_RUNTIME: {
    const auto        *a    = reinterpret_cast<const CUpti_ActivityAPI *>(r);
    const std::string &name = ApiName(t, a->cbid);
    if (!name.empty()) Row(t, "runtime", name, a->start, a->end, a->threadId, -1, 0, a->correlationId);
    break;
  }
  default:
    break;
  }
}

void CUPTIAPI BufferRequested(uint8_t **buffer, size_t *size, size_t *maxNumRecords)
{
  *buffer        = static_cast<uint8_t *>(aligned_alloc(8, kActivityBuffer));
  *size          = *buffer ? kActivityBuffer : 0; /* none: CUPTI drops the records, and counts them */
  *maxNumRecords = 0;
}

void CUPTIAPI BufferCompleted(CUcontext ctx, uint32_t streamId, uint8_t *buffer, size_t, size_t validSize)
{
  Trace &t = *trace;
  try { /* nothing thrown into CUPTI: out of memory ends the trace, not the program */
    std::lock_guard<std::mutex> guard(t.lock);
    CUpti_Activity             *r = nullptr;
    size_t                      d = 0;

    if (!t.done && t.fd >= 0)
      while (cuptiActivityGetNextRecord(buffer, validSize, &r) == CUPTI_SUCCESS) Record(t, r);
    if (cuptiActivityGetNumDroppedRecords(ctx, streamId, &d) == CUPTI_SUCCESS) t.dropped += d;
  } catch (...) {
    t.done = true;
  }
  free(buffer);
}

const CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_RUNTIME};

void AtExit()
{
  Trace   &t   = *trace;
  uint64_t end = 0;

  if (getpid() != t.pid) return; /* a forked child: the trace is its parent's */
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); /* delivers the last buffers (BufferCompleted) */
  if (cuptiGetTimestamp(&end) != CUPTI_SUCCESS) end = t.start;
  std::lock_guard<std::mutex> guard(t.lock);
  if (t.fd < 0) return;
  if (t.rows == 0 && t.capped == 0) { /* no CUDA work here (mpiexec itself may initialise CUDA): no file */
    close(t.fd);
    t.fd = -1;
    unlink(t.path.c_str());
    t.done = true;
    return;
  }
  try {
    std::string more;

    t.limit = 0; /* the process row always */
    if (!t.done) Row(t, "process", "cuptitrace", t.start, end, t.pid, -1, 0, 0);
    Flush(t);
    if (t.capped) more += ", " + std::to_string(t.capped) + " left out (PJ_TRACE_MAX)";
    if (t.dropped) more += ", " + std::to_string(t.dropped) + " dropped by CUPTI (buffers)";
    Say("%s: %llu rows%s", t.path.c_str(), t.rows, more.c_str());
  } catch (...) {
  }
  if (t.fd >= 0) close(t.fd);
  t.fd   = -1;
  t.done = true;
}

int Start()
{
  Trace      &t = *trace;
  uint32_t    version = 0;
  CUptiResult r;
  const char *dir = getenv("PJ_TRACE_DIR"), *max = getenv("PJ_TRACE_MAX"), *rank = nullptr;
  int         enabled = 0;

  if ((r = cuptiGetVersion(&version)) != CUPTI_SUCCESS) {
    Say("no trace: cuptiGetVersion failed (%s)", ResultString(r));
    return 0;
  }
  if (version / 10000 != CUPTI_API_VERSION / 10000) {
    Say("no trace: the CUPTI loaded has API version %u, this library was built against %u", version, (unsigned)CUPTI_API_VERSION);
    return 0;
  }
  for (const char *v : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"})
    if (!rank && getenv(v) && *getenv(v)) rank = getenv(v);
  if (max && *max) t.limit = strtoull(max, nullptr, 10);
  if (!dir || !*dir) dir = ".";
  mkdir(dir, 0777); /* one level; an existing directory is fine */
  t.pid  = getpid();
  t.path = std::string(dir) + "/trace-" + (rank ? rank : "0") + "-" + std::to_string(t.pid) + ".csv";
  t.fd   = open(t.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (t.fd < 0) {
    Say("no trace: cannot write %s (%s)", t.path.c_str(), strerror(errno));
    return 0;
  }
  t.out = "kind,name,start_ns,end_ns,stream,device,bytes,correlation,grid,block\n";
  if ((r = cuptiActivityRegisterCallbacks(BufferRequested, BufferCompleted)) != CUPTI_SUCCESS) {
    Say("no trace: cuptiActivityRegisterCallbacks failed (%s)", ResultString(r));
  } else {
    for (CUpti_ActivityKind k : kKinds) {
      if ((r = cuptiActivityEnable(k)) != CUPTI_SUCCESS) {
        Say("no trace: cuptiActivityEnable(%d) failed (%s)", (int)k, ResultString(r));
        break;
      }
      enabled++;
    }
  }
  if (enabled < (int)(sizeof(kKinds) / sizeof(kKinds[0]))) {
    for (int i = 0; i < enabled; i++) cuptiActivityDisable(kKinds[i]);
    close(t.fd);
    t.fd = -1;
    unlink(t.path.c_str());
    return 0;
  }
  if (cuptiGetTimestamp(&t.start) != CUPTI_SUCCESS) t.start = 0;
  atexit(AtExit);
  return 1;
}

} // namespace

/* Called by the CUDA driver (CUDA_INJECTION64_PATH) when the program initialises CUDA; 1 always, so that the program goes on */
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void)
{
  static std::atomic<bool> called{false};

  if (called.exchange(true)) return 1;
  try {
    trace = new Trace;
    Start();
  } catch (...) {
    Say("no trace: out of memory");
  }
  return 1;
}
