/*
   The jagged format built on the GPU (see jaggedbuild.cuh), step for step the host BuildFormat():
     1. row lengths and the longest row (read back: the sort's key bits, the Auto threshold's nnz);
     2. rows sorted by decreasing length, stably: a radix sort of key = maxlen - length with the
        row numbers as values (radix sorts are stable, like the host's counting sort);
     3. the long rows, a prefix of the sorted rows, their row pointers and chunk pointers by scans
        (read back: their number and entries, the length of the longest jagged row, ndiag);
     4. for each jagged diagonal j, count[j] = rows with true length > j, by binary search in the
        sorted lengths (read back: the host rounds the counts up into the diagonal starts, exactly
        as BuildFormat() does, and uploads them);
     5. every slot filled by its own thread.
   Entry j of jagged row i sits in slot diagstart[j] + i; it is real for i < count[j] (the true
   lengths do not increase along the sorted rows) and padding after, where the host repeats the
   column of the slot before, that is the column of the last real slot of the diagonal: entry j of
   jagged row count[j] - 1. count[j] >= 1 for every j < ndiag, the longest jagged row's length.
   A blocked format (block size bs > 1), as BuildFormat() makes it: the block pattern first (each block row's column / bs,
   sorted within the block row by a segmented sort, the distinct ones counted and gathered by a thread a block row), the
   scalar format of that pattern built as above (no long-row part), then its columns times bs and the value map expanded
   to bs^2 entries a slot (a thread a scalar row finds each entry's block by binary search in its block row).
*/
#include <petscjagged/private/jaggedbuild.cuh>
#include <petscjagged/private/jaggedscratch.cuh>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <algorithm>
#include <petscjagged/private/jaggedlaunch.cuh>

namespace jagged {
namespace gpu {

namespace {

constexpr int kThreads = 256;

/* Found by the kernels, read by the host when it synchronizes */
struct Scalars {
  unsigned maxlen;  /* longest row */
  int      invalid; /* some row pointer decreases */
  int      nlong;   /* sorted rows longer than the threshold: the long-row part */
  int      nblock;  /* sorted rows of at least kBlockRowMinLength entries */
  int      ndiag;   /* length of the first (longest) jagged row */
};

long long RoundUp(long long n, long long multiple)
{
  return (n + multiple - 1) / multiple * multiple;
}

__device__ __forceinline__ unsigned ThreadIndex()
{
  return blockIdx.x * blockDim.x + threadIdx.x;
}

/* Length of sorted row p, from its sort key */
__device__ __forceinline__ int SortedLength(const unsigned *key, unsigned maxlen, int p)
{
  return static_cast<int>(maxlen - key[p]);
}

/* len[r] of each row; flags decreasing row pointers */
__global__ void __launch_bounds__(kThreads) RowLengthKernel(int nrows, const int *__restrict__ rowptr, unsigned *len, Scalars *s)
{
  const unsigned r = ThreadIndex();
  if (r >= static_cast<unsigned>(nrows)) return;
  const int l = rowptr[r + 1] - rowptr[r];
  if (l < 0) s->invalid = 1;
  len[r] = l < 0 ? 0 : l;
}

/* Sort key maxlen - len in place, and the row numbers the sort carries along */
__global__ void __launch_bounds__(kThreads) SortKeyKernel(int nrows, unsigned maxlen, unsigned *key, int *row)
{
  const unsigned r = ThreadIndex();
  if (r >= static_cast<unsigned>(nrows)) return;
  key[r] = maxlen - key[r];
  row[r] = static_cast<int>(r);
}

/* nlong, nblock and ndiag: the sorted positions where the lengths cross the threshold and kBlockRowMinLength */
__global__ void __launch_bounds__(kThreads) SplitKernel(int nrows, const unsigned *__restrict__ key, unsigned maxlen, int threshold, Scalars *s)
{
  const unsigned p = ThreadIndex();
  if (p >= static_cast<unsigned>(nrows)) return;
  const int len = SortedLength(key, maxlen, p), next = p + 1 < static_cast<unsigned>(nrows) ? SortedLength(key, maxlen, p + 1) : -1;
  if (len > threshold && next <= threshold) s->nlong = p + 1;
  if (len >= kBlockRowMinLength && next < kBlockRowMinLength) s->nblock = p + 1;
  if (len <= threshold && (p == 0 || SortedLength(key, maxlen, p - 1) > threshold)) s->ndiag = len;
}

/*
   Inputs of the long-row scans: long_len[p] the length of long row p (0 past nlong, p <= nrows);
   chunks[p] the chunks of block-processed row p (0 past nlong_block, p < nchunk_items)
*/
__global__ void __launch_bounds__(kThreads) LongLengthKernel(int nrows, int nchunk_items, const unsigned *__restrict__ key, unsigned maxlen, const Scalars *s, int *long_len, int *chunks)
{
  const unsigned p = ThreadIndex();
  if (p > static_cast<unsigned>(nrows)) return;
  const int nlong = s->nlong, nlong_block = min(nlong, s->nblock);
  long_len[p] = static_cast<int>(p) < nlong ? SortedLength(key, maxlen, p) : 0;
  if (static_cast<int>(p) < nchunk_items) chunks[p] = static_cast<int>(p) < nlong_block ? static_cast<int>((SortedLength(key, maxlen, p) + kRowChunkLength - 1LL) / kRowChunkLength) : 0;
}

/* count[j] = jagged rows (sorted positions nlong..) longer than j, by binary search in the non-increasing lengths */
__global__ void __launch_bounds__(kThreads) CountKernel(int ndiag, int nsorted, int nlong, const unsigned *__restrict__ key, unsigned maxlen, int *count)
{
  const unsigned j = ThreadIndex();
  if (j >= static_cast<unsigned>(ndiag)) return;
  int lo = 0, hi = nsorted;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (SortedLength(key, maxlen, nlong + mid) > static_cast<int>(j)) lo = mid + 1;
    else hi = mid;
  }
  count[j] = lo;
}

/* perm and rowlen of the jagged rows: pJDS pads each row to the first of its block */
__global__ void __launch_bounds__(kThreads) SortedRowKernel(int nsorted, int nlong, int block_rows, const unsigned *__restrict__ key, unsigned maxlen, const int *__restrict__ order, int *perm, int *rowlen)
{
  const unsigned i = ThreadIndex();
  if (i >= static_cast<unsigned>(nsorted)) return;
  perm[i]   = order[nlong + i];
  rowlen[i] = SortedLength(key, maxlen, nlong + i - i % block_rows);
}

/* Column and CSR position of jagged slot s; padding takes the column of the diagonal's last real slot */
__global__ void __launch_bounds__(kThreads) JaggedSlotKernel(int nstored, int ndiag, const int *__restrict__ diagstart, const int *__restrict__ count, int nlong, const int *__restrict__ order, const int *__restrict__ rowptr, const int *__restrict__ csr_colidx, int *colidx, int *valmap)
{
  const unsigned s = ThreadIndex();
  if (s >= static_cast<unsigned>(nstored)) return;
  int lo = 0, hi = ndiag - 1; /* the diagonal: last j with diagstart[j] <= s (diagonals are not empty) */
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (diagstart[mid] <= static_cast<int>(s)) lo = mid;
    else hi = mid - 1;
  }
  const int i = s - diagstart[lo], real = count[lo], pos = rowptr[order[nlong + min(i, real - 1)]] + lo;
  colidx[s] = csr_colidx[pos];
  valmap[s] = i < real ? pos : -1;
}

/* long_rows, long_rowptr and long_chunkptr from the sorted rows and the scans (r <= nlong) */
__global__ void __launch_bounds__(kThreads) LongRowKernel(int nlong, int nlong_block, const int *__restrict__ order, const int *__restrict__ long_scan, const int *__restrict__ chunk_scan, int *long_rows, int *long_rowptr, int *long_chunkptr)
{
  const unsigned r = ThreadIndex();
  if (r > static_cast<unsigned>(nlong)) return;
  if (r < static_cast<unsigned>(nlong)) long_rows[r] = order[r];
  long_rowptr[r] = long_scan[r];
  if (r <= static_cast<unsigned>(nlong_block)) long_chunkptr[r] = chunk_scan[r];
}

/* Column and CSR position of long-row entry s; rows are not empty */
__global__ void __launch_bounds__(kThreads) LongSlotKernel(int long_nnz, int nlong, const int *__restrict__ long_rows, const int *__restrict__ long_rowptr, const int *__restrict__ rowptr, const int *__restrict__ csr_colidx, int *long_colidx, int *valmap)
{
  const unsigned s = ThreadIndex();
  if (s >= static_cast<unsigned>(long_nnz)) return;
  int lo = 0, hi = nlong - 1; /* the row: last r with long_rowptr[r] <= s */
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (long_rowptr[mid] <= static_cast<int>(s)) lo = mid;
    else hi = mid - 1;
  }
  const int pos  = rowptr[long_rows[lo]] + s - long_rowptr[lo];
  long_colidx[s] = csr_colidx[pos];
  valmap[s]      = pos;
}

/* Blocked: boff[b] = rowptr[b bs], the first entry of block row b (b <= nb), and key[k] = colidx[k] / bs */
__global__ void __launch_bounds__(kThreads) BlockKeyKernel(int nb, int bs, long long nnz, const int *__restrict__ rowptr, const int *__restrict__ colidx, int *boff, int *key)
{
  const long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (t <= nb) boff[t] = rowptr[t * bs];
  if (t < nnz) key[t] = colidx[t] / bs;
}

/* Blocked: the distinct block columns of block row b in its sorted keys: counted (bcol null) into count[b], or written from bcol + browptr[b] */
__global__ void __launch_bounds__(kThreads) BlockDistinctKernel(int nb, const int *__restrict__ boff, const int *__restrict__ key, int *count, const int *__restrict__ browptr, int *bcol)
{
  const unsigned b = ThreadIndex();
  if (b >= static_cast<unsigned>(nb)) return;
  int n = 0;
  for (int k = boff[b]; k < boff[b + 1]; ++k)
    if (k == boff[b] || key[k] != key[k - 1]) {
      if (bcol) bcol[browptr[b] + n] = key[k];
      n++;
    }
  if (!bcol) count[b] = n;
}

/* Blocked: the block format's columns as the blocks' first scalar columns, and slotof[p] = the slot of block CSR position p */
__global__ void __launch_bounds__(kThreads) BlockSlotKernel(int nstored, int bs, const int *__restrict__ bcolidx, const int *__restrict__ bvalmap, int *colidx, int *slotof)
{
  const unsigned s = ThreadIndex();
  if (s >= static_cast<unsigned>(nstored)) return;
  colidx[s] = bcolidx[s] * bs;
  if (bvalmap[s] >= 0) slotof[bvalmap[s]] = static_cast<int>(s);
}

/* Blocked: valmap[(r bs + c) nstored + slot] = k for every entry k of scalar row row = b bs + r, its block found in block row b */
__global__ void __launch_bounds__(kThreads) BlockValmapKernel(int nrows, int bs, int nstored, const int *__restrict__ rowptr, const int *__restrict__ colidx, const int *__restrict__ browptr, const int *__restrict__ bcol, const int *__restrict__ slotof, int *valmap)
{
  const unsigned row = ThreadIndex();
  if (row >= static_cast<unsigned>(nrows)) return;
  const int b = row / bs, r = row % bs;
  for (int k = rowptr[row]; k < rowptr[row + 1]; ++k) {
    const int bc = colidx[k] / bs;
    int       lo = browptr[b], hi = browptr[b + 1] - 1;
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (bcol[mid] < bc) lo = mid + 1;
      else hi = mid;
    }
    valmap[static_cast<size_t>(r * bs + colidx[k] % bs) * nstored + slotof[lo]] = k;
  }
}

/* One build: the steps share the temporaries, which free themselves on the stream */
class Builder {
public:
  Builder(int nrows, const int *rowptr, const int *colidx, cudaStream_t stream) : nrows_(nrows), rowptr_(rowptr), colidx_(colidx), stream_(stream), key_{Scratch<unsigned>(stream), Scratch<unsigned>(stream)}, row_{Scratch<int>(stream), Scratch<int>(stream)}, scalars_(stream), long_scan_(stream), chunk_scan_(stream), count_(stream) {}

  /* Steps 1 and 2; sets nnz and maxrowlen */
  cudaError_t SortRows(Format *f, Status *status)
  {
    Scalars h{};
    int     first = 0;

    JAGGED_CUDA_TRY(scalars_.Allocate(1));
    JAGGED_CUDA_TRY(cudaMemsetAsync(scalars_.get(), 0, sizeof(Scalars), stream_));
    for (int b = 0; b < 2; ++b) {
      JAGGED_CUDA_TRY(key_[b].Allocate(nrows_));
      JAGGED_CUDA_TRY(row_[b].Allocate(nrows_));
    }
    key_sorted_ = key_[0].get();
    order_      = row_[0].get();
    if (nrows_ == 0) return cudaSuccess;
    RowLengthKernel<<<JaggedBlocks(nrows_, kThreads), kThreads, 0, stream_>>>(nrows_, rowptr_, key_[0].get(), scalars_.get());
    JAGGED_CUDA_TRY(cudaGetLastError());
    JAGGED_CUDA_TRY(RunCub([&](void *temp, size_t &bytes) { return cub::DeviceReduce::Max(temp, bytes, key_[0].get(), &scalars_.get()->maxlen, nrows_, stream_); }, stream_));
    JAGGED_CUDA_TRY(cudaMemcpyAsync(&h, scalars_.get(), sizeof(h), cudaMemcpyDeviceToHost, stream_));
    JAGGED_CUDA_TRY(cudaMemcpyAsync(&first, rowptr_, sizeof(int), cudaMemcpyDeviceToHost, stream_));
    JAGGED_CUDA_TRY(cudaMemcpyAsync(&f->nnz, rowptr_ + nrows_, sizeof(int), cudaMemcpyDeviceToHost, stream_));
    JAGGED_CUDA_TRY(cudaStreamSynchronize(stream_));
    if (h.invalid || first != 0) {
      *status = Status::InvalidCSR;
      return cudaSuccess;
    }
    f->maxrowlen = static_cast<int>(h.maxlen);
    maxlen_      = h.maxlen;

    int end_bit = 1; /* the keys lie in [0, maxlen] */
    while (end_bit < 32 && (maxlen_ >> end_bit) != 0) end_bit++;
    cub::DoubleBuffer<unsigned> keys(key_[0].get(), key_[1].get());
    cub::DoubleBuffer<int>      rows(row_[0].get(), row_[1].get());
    SortKeyKernel<<<JaggedBlocks(nrows_, kThreads), kThreads, 0, stream_>>>(nrows_, maxlen_, key_[0].get(), row_[0].get());
    JAGGED_CUDA_TRY(cudaGetLastError());
    JAGGED_CUDA_TRY(RunCub([&](void *temp, size_t &bytes) { return cub::DeviceRadixSort::SortPairs(temp, bytes, keys, rows, nrows_, 0, end_bit, stream_); }, stream_));
    key_sorted_ = keys.Current();
    order_      = rows.Current();
    return cudaSuccess;
  }

  /* Step 3: the long-row part; sets nlong, nlong_block, long_nnz, nsorted, ndiag */
  cudaError_t SplitRows(Format *f)
  {
    const int nchunk_items = std::min(nrows_, f->nnz / kBlockRowMinLength) + 1; /* block-processed rows have >= kBlockRowMinLength entries */
    Scalars   h{};

    JAGGED_CUDA_TRY(long_scan_.Allocate(static_cast<size_t>(nrows_) + 1));
    JAGGED_CUDA_TRY(chunk_scan_.Allocate(nchunk_items));
    if (nrows_ > 0) SplitKernel<<<JaggedBlocks(nrows_, kThreads), kThreads, 0, stream_>>>(nrows_, key_sorted_, maxlen_, f->long_threshold, scalars_.get());
    LongLengthKernel<<<JaggedBlocks(nrows_ + 1LL, kThreads), kThreads, 0, stream_>>>(nrows_, nchunk_items, key_sorted_, maxlen_, scalars_.get(), long_scan_.get(), chunk_scan_.get());
    JAGGED_CUDA_TRY(cudaGetLastError());
    JAGGED_CUDA_TRY(RunCub([&](void *temp, size_t &bytes) { return cub::DeviceScan::ExclusiveSum(temp, bytes, long_scan_.get(), nrows_ + 1, stream_); }, stream_));
    JAGGED_CUDA_TRY(RunCub([&](void *temp, size_t &bytes) { return cub::DeviceScan::ExclusiveSum(temp, bytes, chunk_scan_.get(), nchunk_items, stream_); }, stream_));
    JAGGED_CUDA_TRY(cudaMemcpyAsync(&h, scalars_.get(), sizeof(h), cudaMemcpyDeviceToHost, stream_));
    JAGGED_CUDA_TRY(cudaMemcpyAsync(&f->long_nnz, long_scan_.get() + nrows_, sizeof(int), cudaMemcpyDeviceToHost, stream_));
    JAGGED_CUDA_TRY(cudaMemcpyAsync(&nchunks_, chunk_scan_.get() + nchunk_items - 1, sizeof(int), cudaMemcpyDeviceToHost, stream_));
    JAGGED_CUDA_TRY(cudaStreamSynchronize(stream_));
    f->nlong       = h.nlong;
    f->nlong_block = std::min(h.nlong, h.nblock);
    f->nsorted     = nrows_ - h.nlong;
    f->ndiag       = h.ndiag;
    return cudaSuccess;
  }

  /* Step 4: diagstart and nstored, from the counts of rows longer than each j */
  cudaError_t StartDiagonals(Format *f, std::vector<int> *diagstart, Status *status)
  {
    const int        align = f->kind == Kind::PJDS ? f->block_rows : kJDSDiagonalAlign;
    std::vector<int> count(f->ndiag);

    JAGGED_CUDA_TRY(count_.Allocate(f->ndiag));
    if (f->ndiag > 0) {
      CountKernel<<<JaggedBlocks(f->ndiag, kThreads), kThreads, 0, stream_>>>(f->ndiag, f->nsorted, f->nlong, key_sorted_, maxlen_, count_.get());
      JAGGED_CUDA_TRY(cudaGetLastError());
      JAGGED_CUDA_TRY(cudaMemcpyAsync(count.data(), count_.get(), count.size() * sizeof(int), cudaMemcpyDeviceToHost, stream_));
      JAGGED_CUDA_TRY(cudaStreamSynchronize(stream_));
    }
    for (int &c : count) c = static_cast<int>(std::min<long long>(f->nsorted, RoundUp(c, f->block_rows))); /* true lengths -> block-padded rowlen */
    *status = DiagonalStarts(count, align, diagstart, &f->nstored);
    if (*status == Status::Success && static_cast<long long>(f->nstored) + f->long_nnz > kMaxSlots) *status = Status::TooLarge;
    f->nslots = f->nstored + f->long_nnz;
    return cudaSuccess;
  }

  /* Step 5: the device arrays in one allocation, as DeviceFormatCreate() lays them out */
  cudaError_t Fill(const Format &f, const std::vector<int> &diagstart, DeviceFormat *d)
  {
    const size_t size[kDeviceFormatArrays] = {static_cast<size_t>(f.nsorted), static_cast<size_t>(f.nsorted), diagstart.size(), static_cast<size_t>(f.nstored), static_cast<size_t>(f.nlong), f.nlong + 1ULL, static_cast<size_t>(f.long_nnz), f.nlong_block + 1ULL, static_cast<size_t>(f.nslots)};
    int         *a[kDeviceFormatArrays];

    JAGGED_CUDA_TRY(DeviceFormatAllocate(size, d, a));
    JAGGED_CUDA_TRY(cudaMemcpyAsync(a[2], diagstart.data(), diagstart.size() * sizeof(int), cudaMemcpyHostToDevice, stream_));
    if (f.nsorted > 0) SortedRowKernel<<<JaggedBlocks(f.nsorted, kThreads), kThreads, 0, stream_>>>(f.nsorted, f.nlong, f.block_rows, key_sorted_, maxlen_, order_, a[0], a[1]);
    if (f.nstored > 0) JaggedSlotKernel<<<JaggedBlocks(f.nstored, kThreads), kThreads, 0, stream_>>>(f.nstored, f.ndiag, a[2], count_.get(), f.nlong, order_, rowptr_, colidx_, a[3], a[8]);
    LongRowKernel<<<JaggedBlocks(f.nlong + 1LL, kThreads), kThreads, 0, stream_>>>(f.nlong, f.nlong_block, order_, long_scan_.get(), chunk_scan_.get(), a[4], a[5], a[7]);
    if (f.long_nnz > 0) LongSlotKernel<<<JaggedBlocks(f.long_nnz, kThreads), kThreads, 0, stream_>>>(f.long_nnz, f.nlong, a[4], a[5], rowptr_, colidx_, a[6], a[8] + f.nstored);
    JAGGED_CUDA_TRY(cudaGetLastError());
    DeviceFormatSetSizes(f, nchunks_, diagstart, d);
    return cudaSuccess;
  }

private:
  const int          nrows_;
  const int         *rowptr_, *colidx_;
  const cudaStream_t stream_;
  Scratch<unsigned>  key_[2];   /* row lengths, then sort keys, sorted */
  Scratch<int>       row_[2];   /* row numbers, sorted */
  Scratch<Scalars>   scalars_;
  Scratch<int>       long_scan_, chunk_scan_; /* exclusive scans: long_rowptr and long_chunkptr */
  Scratch<int>       count_;                  /* [ndiag] jagged rows longer than j */
  const unsigned    *key_sorted_ = nullptr;
  const int         *order_      = nullptr; /* rows by decreasing length */
  unsigned           maxlen_     = 0;
  int                nchunks_    = 0;
};

cudaError_t Build(int nrows, const int rowptr[], const int colidx[], const Options &options, cudaStream_t stream, Format *f, DeviceFormat *d, Status *status)
{
  Builder          b(nrows, rowptr, colidx, stream);
  std::vector<int> diagstart;

  JAGGED_CUDA_TRY(b.SortRows(f, status));
  if (*status != Status::Success) return cudaSuccess;
  f->long_threshold = ResolveLongThreshold(options, nrows, f->nnz);
  JAGGED_CUDA_TRY(b.SplitRows(f));
  JAGGED_CUDA_TRY(b.StartDiagonals(f, &diagstart, status));
  if (*status != Status::Success) return cudaSuccess;
  return b.Fill(*f, diagstart, d);
}

/*
   A blocked format (options.block_size > 1; nrows and ncols multiples of it): the block pattern on the device, the scalar format
   of the pattern (Build()), then the blocked arrays in one allocation as DeviceFormatCreate() lays out a host-built one;
   *declined (and nothing built) where options.block_auto_bytes asks and the blocks counted would not pay
*/
cudaError_t BuildBlocked(int nrows, int ncols, const int rowptr[], const int colidx[], const Options &options, cudaStream_t stream, Format *f, DeviceFormat *d, Status *status, bool *declined)
{
  const int         bs = options.block_size, nb = nrows / bs;
  int               nnz = 0, nblocks = 0;
  Scratch<int>      boff(stream), key(stream), sorted(stream), browptr(stream), bcol(stream), slotof(stream);
  Options           bo = options;
  Format            bf;
  DeviceFormat      bd;
  std::vector<int>  diagstart;
  cudaError_t       err;

  if (nrows > 0) {
    JAGGED_CUDA_TRY(cudaMemcpyAsync(&nnz, rowptr + nrows, sizeof(int), cudaMemcpyDeviceToHost, stream));
    JAGGED_CUDA_TRY(cudaStreamSynchronize(stream));
  }
  JAGGED_CUDA_TRY(boff.Allocate(static_cast<size_t>(nb) + 1));
  JAGGED_CUDA_TRY(key.Allocate(nnz));
  JAGGED_CUDA_TRY(sorted.Allocate(nnz));
  JAGGED_CUDA_TRY(browptr.Allocate(static_cast<size_t>(nb) + 1));
  BlockKeyKernel<<<JaggedBlocks(std::max<long long>(nnz, nb + 1LL), kThreads), kThreads, 0, stream>>>(nb, bs, nnz, rowptr, colidx, boff.get(), key.get());
  JAGGED_CUDA_TRY(cudaGetLastError());
  if (nnz > 0) JAGGED_CUDA_TRY(RunCub([&](void *temp, size_t &bytes) { return cub::DeviceSegmentedSort::SortKeys(temp, bytes, key.get(), sorted.get(), nnz, nb, boff.get(), boff.get() + 1, stream); }, stream));
  if (nb > 0) BlockDistinctKernel<<<JaggedBlocks(nb, kThreads), kThreads, 0, stream>>>(nb, boff.get(), sorted.get(), browptr.get(), nullptr, nullptr);
  JAGGED_CUDA_TRY(cudaGetLastError());
  JAGGED_CUDA_TRY(RunCub([&](void *temp, size_t &bytes) { return cub::DeviceScan::ExclusiveSum(temp, bytes, browptr.get(), nb + 1, stream); }, stream));
  JAGGED_CUDA_TRY(cudaMemcpyAsync(&nblocks, browptr.get() + nb, sizeof(int), cudaMemcpyDeviceToHost, stream));
  JAGGED_CUDA_TRY(cudaStreamSynchronize(stream));
  if (options.block_auto_bytes && !BlocksPay(nrows, nnz, nblocks, bs, options.block_auto_bytes)) { /* single entries are faster */
    *declined = true;
    return cudaSuccess;
  }
  JAGGED_CUDA_TRY(bcol.Allocate(nblocks));
  if (nb > 0) BlockDistinctKernel<<<JaggedBlocks(nb, kThreads), kThreads, 0, stream>>>(nb, boff.get(), sorted.get(), nullptr, browptr.get(), bcol.get());
  JAGGED_CUDA_TRY(cudaGetLastError());

  /* the scalar format of the block pattern, as BuildFormat() makes it for a blocked format */
  bo.block_size = 1;
  bo.long_rows  = LongRowMode::JaggedOnly;
  bf.kind       = bo.kind;
  bf.block_rows = bo.kind == Kind::PJDS ? bo.block_rows : 1;
  bf.nrows      = nb;
  bf.ncols      = ncols / bs;
  JAGGED_CUDA_TRY(Build(nb, browptr.get(), bcol.get(), bo, stream, &bf, &bd, status));
  if (*status != Status::Success) return bd.storage ? DeviceFormatDestroy(&bd) : cudaSuccess;
  if (static_cast<long long>(bf.nstored) * bs * bs > kMaxSlots) {
    *status = Status::TooLarge;
    return DeviceFormatDestroy(&bd);
  }

  /* the blocked arrays: the pattern's perm, rowlen and diagstart; columns times bs; the value map of bs^2 entries a slot */
  *f        = bf;
  f->bs     = bs;
  f->nrows  = nrows;
  f->ncols  = ncols;
  f->nnz    = nnz;
  f->nslots = bf.nstored * bs * bs;
  {
    const size_t size[kDeviceFormatArrays] = {static_cast<size_t>(bf.nsorted), static_cast<size_t>(bf.nsorted), bf.ndiag + 1ULL, static_cast<size_t>(bf.nstored), 0, 1, 0, 1, static_cast<size_t>(f->nslots)};
    int         *a[kDeviceFormatArrays];

    err = DeviceFormatAllocate(size, d, a);
    if (err == cudaSuccess) err = slotof.Allocate(nblocks);
    if (err == cudaSuccess) err = cudaMemcpyAsync(a[0], bd.perm, size[0] * sizeof(int), cudaMemcpyDeviceToDevice, stream);
    if (err == cudaSuccess) err = cudaMemcpyAsync(a[1], bd.rowlen, size[1] * sizeof(int), cudaMemcpyDeviceToDevice, stream);
    if (err == cudaSuccess) err = cudaMemcpyAsync(a[2], bd.diagstart, size[2] * sizeof(int), cudaMemcpyDeviceToDevice, stream);
    if (err == cudaSuccess) err = cudaMemsetAsync(a[5], 0, sizeof(int), stream); /* long_rowptr {0} */
    if (err == cudaSuccess) err = cudaMemsetAsync(a[7], 0, sizeof(int), stream); /* long_chunkptr {0} */
    if (err == cudaSuccess) err = cudaMemsetAsync(a[8], 0xff, size[8] * sizeof(int), stream); /* -1: padding and missing entries */
    if (err == cudaSuccess && bf.nstored > 0) {
      BlockSlotKernel<<<JaggedBlocks(bf.nstored, kThreads), kThreads, 0, stream>>>(bf.nstored, bs, bd.colidx, bd.valmap, a[3], slotof.get());
      err = cudaGetLastError();
    }
    if (err == cudaSuccess && nrows > 0) {
      BlockValmapKernel<<<JaggedBlocks(nrows, kThreads), kThreads, 0, stream>>>(nrows, bs, bf.nstored, rowptr, colidx, browptr.get(), bcol.get(), slotof.get(), a[8]);
      err = cudaGetLastError();
    }
    if (err == cudaSuccess) err = cudaStreamSynchronize(stream); /* bd's arrays are read until here */
    diagstart = bd.diagstart_host;
    if (err == cudaSuccess && bf.ndiag > kMaxConstantDiagonals) { /* DeviceFormatSetSizes() reads diagonal 0's start too */
      diagstart.resize(2);
      err = cudaMemcpy(diagstart.data(), bd.diagstart, 2 * sizeof(int), cudaMemcpyDeviceToHost);
    }
  }
  const cudaError_t derr = DeviceFormatDestroy(&bd);
  if (err != cudaSuccess) return err;
  DeviceFormatSetSizes(*f, 0, diagstart, d);
  return derr;
}

} // namespace

Status BuildDeviceFormat(int nrows, int ncols, const int rowptr[], const int colidx[], const Options &options, Format *summary, DeviceFormat *dformat, cudaStream_t stream, cudaError_t *cuda_error)
{
  Status status = CheckOptions(options);

  *cuda_error = cudaSuccess;
  if (status != Status::Success) return status;
  if (nrows < 0 || ncols < 0) return Status::InvalidCSR;
  if (nrows % options.block_size || ncols % options.block_size) return Status::InvalidBlockSize;
  *summary            = Format();
  summary->kind       = options.kind;
  summary->block_rows = options.kind == Kind::PJDS ? options.block_rows : 1;
  summary->nrows      = nrows;
  summary->ncols      = ncols;
  bool declined = options.block_size == 1;
  if (!declined) *cuda_error = BuildBlocked(nrows, ncols, rowptr, colidx, options, stream, summary, dformat, &status, &declined);
  if (declined && *cuda_error == cudaSuccess) {
    Options scalar    = options;
    scalar.block_size = 1;
    *cuda_error       = Build(nrows, rowptr, colidx, scalar, stream, summary, dformat, &status);
  }
  if (*cuda_error == cudaSuccess && status == Status::Success) return status;
  if (dformat->storage) DeviceFormatDestroy(dformat);
  return *cuda_error != cudaSuccess ? Status::DeviceError : status;
}

} // namespace gpu
} // namespace jagged
