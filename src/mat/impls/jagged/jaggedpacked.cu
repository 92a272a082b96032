/*
   Packed half storage of a scalar jagged format on the GPU (see jaggedpacked.hpp): the packed pattern from a device CSR
   pattern (a warp a row counts its escapes, a scan places the rows, a warp a row writes them) and the words of the format
   built from it (a thread a sorted row), the twins of PackPattern() and PackWords() in jaggedpacked.cpp. The product is
   gpu::MultPacked() in jaggedkernels.cu.
*/
#include <petscjagged/private/jaggedpacked.hpp>
#include <petscjagged/private/jaggedscratch.cuh>
#include <petscjagged/private/jaggedlaunch.cuh>

#include <cub/device/device_scan.cuh>
#include <cuda_fp16.h>

namespace jagged {
namespace gpu {

namespace {

constexpr int kThreads = 256;

constexpr int kWarp = 32;

/* Whether entry k of a row starting at `start` lies more than kPackedMaxDistance columns past the row's entry before it */
__device__ inline bool NeedsEscape(int k, int start, const int *__restrict__ colidx)
{
  return k > start && static_cast<long long>(colidx[k]) - colidx[k - 1] > kPackedMaxDistance;
}

/* count[r] = the escapes row r needs, a warp a row (its lanes read the row's columns together); count[nrows] = 0 (the scan's total) */
__global__ void __launch_bounds__(kThreads) EscapeCountKernel(int nrows, const int *__restrict__ rowptr, const int *__restrict__ colidx, int *count)
{
  const long long r    = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp;
  const int       lane = threadIdx.x % kWarp;
  int             n    = 0;

  if (r > nrows) return; /* the whole warp */
  if (r < nrows)
    for (int k = rowptr[r] + lane; k < rowptr[r + 1]; k += kWarp) n += NeedsEscape(k, rowptr[r], colidx);
  n = __reduce_add_sync(0xffffffffu, n);
  if (lane == 0) count[r] = n;
}

/*
  Row r of the packed pattern (offset[r]: the escapes of the rows before it), as PackPattern() writes it, a warp a row: each
  round of 32 entries places an entry after the escapes of the round's entries up to it (a ballot), an escape just before its entry
*/
__global__ void __launch_bounds__(kThreads) PackRowKernel(int nrows, const int *__restrict__ rowptr, const int *__restrict__ colidx, const int *__restrict__ offset, int *prowptr, int *pcolidx, int *amap)
{
  const long long r    = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp;
  const int       lane = threadIdx.x % kWarp;

  if (r > nrows) return; /* the whole warp */
  int q = rowptr[r] + offset[r];
  if (lane == 0) prowptr[r] = q;
  if (r == nrows) return;
  for (int base = rowptr[r]; base < rowptr[r + 1]; base += kWarp) {
    const int      k      = base + lane;
    const bool     in     = k < rowptr[r + 1];
    const bool     escape = in && NeedsEscape(k, rowptr[r], colidx);
    const unsigned mask   = __ballot_sync(0xffffffffu, escape);
    const int      at     = q + lane + __popc(mask & (0xffffffffu >> (kWarp - 1 - lane))); /* escapes up to this entry, its own included */

    if (escape) {
      const long long gap = static_cast<long long>(colidx[k]) - colidx[k - 1];
      pcolidx[at - 1] = static_cast<int>(colidx[k - 1] + (gap - 1) / kPackedMaxDistance * kPackedMaxDistance);
      amap[at - 1]    = -1;
    }
    if (in) {
      pcolidx[at] = colidx[k];
      amap[at]    = k;
    }
    q += min(kWarp, rowptr[r + 1] - base) + __popc(mask);
  }
}

/* The words and first column of sorted row i, as PackWords() writes them (words zeroed before) */
__global__ void __launch_bounds__(kThreads) PackWordsKernel(int nsorted, const int *__restrict__ rowlen, const int *__restrict__ diagstart, const int *__restrict__ colidx, const int *__restrict__ valmap, const int *__restrict__ amap, const double *__restrict__ vals, std::uint32_t *words, int *first)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nsorted) return;
  const int len = rowlen[i];
  int       prev;

  first[i] = len > 0 && valmap[diagstart[0] + i] >= 0 ? colidx[diagstart[0] + i] - 1 : 0;
  prev     = first[i];
  for (int j = 0; j < len; ++j) {
    const int s = diagstart[j] + i, p = valmap[s];
    if (p < 0) continue;
    const std::uint32_t d = static_cast<std::uint32_t>(colidx[s] - prev);
    prev                  = colidx[s];
    words[s]              = amap[p] < 0 ? (d / kPackedMaxDistance) << 16 : static_cast<std::uint32_t>(__half_as_ushort(__double2half(vals[amap[p]]))) << 16 | d;
  }
}

} // namespace

Status PackPattern(int nrows, const int rowptr[], const int colidx[], DevicePackedPattern *packed, cudaStream_t stream, cudaError_t *cuda_error)
{
  Scratch<int> count(stream);
  int          nnz = 0, nescapes = 0;
  const auto   fail = [&](cudaError_t err) {
    *cuda_error = err;
    PackedPatternDestroy(packed);
    return Status::DeviceError;
  };

  *cuda_error = cudaSuccess;
  *packed     = DevicePackedPattern();
  if (nrows < 0) return Status::InvalidCSR;
  cudaError_t err = count.Allocate(static_cast<size_t>(nrows) + 1);
  if (err == cudaSuccess) {
    EscapeCountKernel<<<JaggedBlocks((nrows + 1LL) * kWarp, kThreads), kThreads, 0, stream>>>(nrows, rowptr, colidx, count.get());
    err = cudaGetLastError();
  }
  if (err == cudaSuccess) err = RunCub([&](void *temp, size_t &bytes) { return cub::DeviceScan::ExclusiveSum(temp, bytes, count.get(), nrows + 1, stream); }, stream);
  if (err == cudaSuccess) err = cudaMemcpyAsync(&nescapes, count.get() + nrows, sizeof(int), cudaMemcpyDeviceToHost, stream);
  if (err == cudaSuccess) err = cudaMemcpyAsync(&nnz, rowptr + nrows, sizeof(int), cudaMemcpyDeviceToHost, stream);
  if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
  if (err != cudaSuccess) return fail(err);
  if (static_cast<long long>(nnz) + nescapes > kMaxSlots) return Status::TooLarge;
  const size_t n = static_cast<size_t>(nnz) + nescapes;
  err            = cudaMalloc(&packed->storage, sizeof(int) * (static_cast<size_t>(nrows) + 1 + n));
  if (err == cudaSuccess) err = cudaMalloc(reinterpret_cast<void **>(&packed->amap), sizeof(int) * std::max<size_t>(n, 1));
  if (err != cudaSuccess) return fail(err);
  packed->rowptr   = static_cast<int *>(packed->storage);
  packed->colidx   = packed->rowptr + nrows + 1;
  packed->nescapes = nescapes;
  PackRowKernel<<<JaggedBlocks((nrows + 1LL) * kWarp, kThreads), kThreads, 0, stream>>>(nrows, rowptr, colidx, count.get(), packed->rowptr, packed->colidx, packed->amap);
  err = cudaGetLastError();
  return err == cudaSuccess ? Status::Success : fail(err);
}

cudaError_t PackedPatternDestroy(DevicePackedPattern *packed)
{
  cudaError_t err = cudaFree(packed->storage), err2 = cudaFree(packed->amap);
  *packed         = DevicePackedPattern();
  return err != cudaSuccess ? err : err2;
}

cudaError_t PackWords(const DeviceFormat &d, const int amap[], const double vals[], std::uint32_t words[], int first[], cudaStream_t stream)
{
  JAGGED_CUDA_TRY(cudaMemsetAsync(words, 0, sizeof(std::uint32_t) * std::max(d.nstored, 1), stream));
  if (d.nsorted == 0) return cudaSuccess;
  PackWordsKernel<<<JaggedBlocks(d.nsorted, kThreads), kThreads, 0, stream>>>(d.nsorted, d.rowlen, d.diagstart, d.colidx, d.valmap, amap, vals, words, first);
  return cudaGetLastError();
}

} // namespace gpu
} // namespace jagged
