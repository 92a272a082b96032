#include <petscjagged/private/jaggedkernels.cuh>
#include <petscjagged/private/jaggedpacked.hpp>
#include <petscjagged/private/jaggeddevicescalar.cuh>

#include <algorithm>
#include <type_traits>
#include <petscjagged/private/jaggedlaunch.cuh>

namespace jagged {
namespace gpu {

namespace {

constexpr int kRowThreads    = 128; /* thread-per-row kernels and element-wise kernels */
constexpr int kLongThreads   = 256; /* long-row kernels: a warp per row, or a block per chunk */
constexpr int kWarpSize      = 32;
constexpr int kWarpsPerBlock = kLongThreads / kWarpSize;

/*
   Diagonal starts passed by value as a __grid_constant__ kernel parameter, which lives in the
   constant bank: the JDS paper's constant-memory placement, without a __constant__ symbol that all
   matrices and streams would share. Tables of 64, 1024 or 4096 entries keep the parameter, copied
   at each launch, small in the common case of few diagonals.
*/
template <int N>
struct DiagTable {
  int start[N];
};
template <>
struct DiagTable<0> {};

struct JaggedArrays {
  int        nsorted;
  const int *perm, *rowlen, *diagstart, *colidx;
};

struct LongArrays {
  const int *rows, *rowptr, *colidx, *chunkptr;
};

/* Start of diagonal j: from the constant table when it holds the starts, else from global memory */
template <int N>
__device__ __forceinline__ int DiagStart(const DiagTable<N> &table, const int *diagstart, int j)
{
  if constexpr (N > 0) return table.start[j];
  else return LoadRO(diagstart + j);
}

/* acc + a x[col]: the product */
template <typename V>
struct MultTerm {
  const V *x;
  template <typename M>
  __device__ __forceinline__ V operator()(V acc, int, int col, M a) const
  {
    return MulAdd(static_cast<V>(a), LoadRO(x + col), acc);
  }
};

/* acc + a where col is the row: the diagonal */
template <typename V>
struct DiagTerm {
  __device__ __forceinline__ V operator()(V acc, int row, int col, V a) const { return col == row ? acc + a : acc; }
};

/*
   Jagged part, one thread per sorted row (pJDS paper, Listing 2; JDS "CSR-like" kernel): the
   thread walks its row down the jagged diagonals and writes y[perm[i]] once, y = sum (+ w).
*/
template <int N, typename M, typename V, typename Term>
__global__ void __launch_bounds__(kRowThreads) JaggedRowKernel(const __grid_constant__ DiagTable<N> table, const JaggedArrays a, const M *__restrict__ vals, const Term term, const V *w, V *y)
{
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= static_cast<unsigned>(a.nsorted)) return;
  const int row = LoadRO(a.perm + i), len = LoadRO(a.rowlen + i);
  V         acc(0);
#pragma unroll 4
  for (int j = 0; j < len; ++j) {
    const int k = DiagStart(table, a.diagstart, j) + i;
    acc         = term(acc, row, LoadStream(a.colidx + k), LoadStream(vals + k));
  }
  y[row] = w ? w[row] + acc : acc;
}

/*
   Packed half storage (jaggedpacked.hpp), one thread per sorted row: the thread keeps its row's running column, adds each
   slot's 16-bit distance (an escape's multiple of kPackedMaxDistance) and gathers x there; one 32-bit load a slot.
*/
template <int N>
__global__ void __launch_bounds__(kRowThreads) PackedRowKernel(const __grid_constant__ DiagTable<N> table, const JaggedArrays a, const std::uint32_t *__restrict__ words, const int *__restrict__ first, const float *__restrict__ x, float *y)
{
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= static_cast<unsigned>(a.nsorted)) return;
  const int row = LoadRO(a.perm + i), len = LoadRO(a.rowlen + i);
  int       col = LoadRO(first + i);
  float     acc = 0;
#pragma unroll 4
  for (int j = 0; j < len; ++j) {
    const unsigned w = __ldcs(words + DiagStart(table, a.diagstart, j) + i), d = w & 0xffffu, h = w >> 16;
    if (d == 0) col += static_cast<int>(h * kPackedMaxDistance);
    else {
      col += static_cast<int>(d);
      acc = fmaf(__half2float(__ushort_as_half(static_cast<unsigned short>(h))), LoadRO(x + col), acc);
    }
  }
  y[row] = acc;
}

/*
   Blocked jagged part, one thread per sorted block row: the thread walks its block row down the jagged diagonals, loads
   each block's BS columns of x once and its BS^2 entries (entry e of slot k at vals[e * nstored + k]: coalesced over the
   warp), and writes its BS entries of y once, y = sum (+ w). With 16-bit entries the loop is software-pipelined one block
   ahead (Ahead): the next block's index and entries are loaded before the current block's x gathers, so that the streamed
   loads stay in flight while the gathers wait. Measured on elasticity's 3 x 3 blocks (bench/RESULTS.md, MPCG + Jacobi solves):
   about 10 % off the solve with half values, about 4 % onto the one with single values, whose larger loads keep enough in
   flight without it.
*/
template <int BS, int N, typename M, typename V>
__global__ void __launch_bounds__(kRowThreads) BlockRowKernel(const __grid_constant__ DiagTable<N> table, const JaggedArrays a, int nstored, const M *__restrict__ vals, const V *__restrict__ x, const V *w, V *y)
{
  constexpr bool Ahead = sizeof(M) < sizeof(float);
  const unsigned i     = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= static_cast<unsigned>(a.nsorted)) return;
  const int brow = LoadRO(a.perm + i) * BS, len = LoadRO(a.rowlen + i);
  V         acc[BS];
  int       col = 0;
  M         blk[BS * BS] = {};
#pragma unroll
  for (int r = 0; r < BS; ++r) acc[r] = V(0);
  /* the block of diagonal j into col and blk */
  auto load = [&](int j, int &c, M b[BS * BS]) {
    const int k = DiagStart(table, a.diagstart, j) + i;
    c           = LoadStream(a.colidx + k);
#pragma unroll
    for (int e = 0; e < BS * BS; ++e) b[e] = LoadStream(vals + e * nstored + k);
  };
  if constexpr (Ahead)
    if (len > 0) load(0, col, blk);
  for (int j = 0; j < len; ++j) {
    int next_col = 0;
    M   next_blk[BS * BS] = {};
    if constexpr (!Ahead) load(j, col, blk);
    else if (j + 1 < len) load(j + 1, next_col, next_blk);
    V xc[BS];
#pragma unroll
    for (int c = 0; c < BS; ++c) xc[c] = LoadRO(x + col + c);
#pragma unroll
    for (int r = 0; r < BS; ++r)
#pragma unroll
      for (int c = 0; c < BS; ++c) acc[r] = MulAdd(static_cast<V>(blk[r * BS + c]), xc[c], acc[r]);
    if constexpr (Ahead) {
      col = next_col;
#pragma unroll
      for (int e = 0; e < BS * BS; ++e) blk[e] = next_blk[e];
    }
  }
#pragma unroll
  for (int r = 0; r < BS; ++r) y[brow + r] = w ? w[brow + r] + acc[r] : acc[r];
}

/* Blocked y += A^T x, one thread per sorted block row scattering a(r, c) x(r) to column c of each block */
template <int BS, typename M, typename V>
__global__ void __launch_bounds__(kRowThreads) BlockTransposeKernel(const JaggedArrays a, int nstored, const M *__restrict__ vals, const V *__restrict__ x, V *y)
{
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= static_cast<unsigned>(a.nsorted)) return;
  const int brow = LoadRO(a.perm + i) * BS, len = LoadRO(a.rowlen + i);
  V         xr[BS];
#pragma unroll
  for (int r = 0; r < BS; ++r) xr[r] = LoadRO(x + brow + r);
  for (int j = 0; j < len; ++j) {
    const int k = LoadRO(a.diagstart + j) + i, col = LoadStream(a.colidx + k);
#pragma unroll
    for (int c = 0; c < BS; ++c) {
      V sum(0);
#pragma unroll
      for (int r = 0; r < BS; ++r) sum = MulAdd(static_cast<V>(LoadStream(vals + (r * BS + c) * nstored + k)), xr[r], sum);
      AtomicAdd(y + col + c, sum);
    }
  }
}

/* Blocked diagonal: diag[brow + r] = entry (r, r) of the block row's diagonal block (the block whose first column is brow), 0 without one */
template <typename M>
__global__ void __launch_bounds__(kRowThreads) BlockDiagKernel(const JaggedArrays a, int bs, int nstored, const M *__restrict__ vals, M *diag)
{
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= static_cast<unsigned>(a.nsorted)) return;
  const int brow = LoadRO(a.perm + i) * bs, len = LoadRO(a.rowlen + i);
  for (int r = 0; r < bs; ++r) {
    M d(0);
    for (int j = 0; j < len; ++j) {
      const int k = LoadRO(a.diagstart + j) + i;
      if (LoadRO(a.colidx + k) == brow) d += LoadRO(vals + (r * bs + r) * nstored + k);
    }
    diag[brow + r] = d;
  }
}

/* Sum over the thread block, valid in thread 0 */
template <typename V>
__device__ __forceinline__ V BlockSum(V v)
{
  __shared__ alignas(V) unsigned char buffer[kWarpsPerBlock * sizeof(V)];
  V *partial = reinterpret_cast<V *>(buffer);

  v = WarpSum(v);
  if (threadIdx.x % kWarpSize == 0) partial[threadIdx.x / kWarpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    for (int p = 1; p < kWarpsPerBlock; ++p) v += partial[p];
  return v;
}

/* Long rows first..first+count-1, one warp per row: y = sum (+ w) */
template <typename M, typename V, typename Term>
__global__ void __launch_bounds__(kLongThreads) LongRowKernel(const LongArrays l, int first, int count, const M *__restrict__ vals, const Term term, const V *w, V *y)
{
  const int r = first + blockIdx.x * kWarpsPerBlock + threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
  if (r >= first + count) return; /* uniform over the warp */
  const int row = LoadRO(l.rows + r), end = LoadRO(l.rowptr + r + 1);
  V         acc(0);
  for (int k = LoadRO(l.rowptr + r) + lane; k < end; k += kWarpSize) acc = term(acc, row, LoadStream(l.colidx + k), LoadStream(vals + k));
  acc = WarpSum(acc);
  if (lane == 0) y[row] = w ? w[row] + acc : acc;
}

/* Entries [begin, end) of long row r */
struct Chunk {
  int r, begin, end;
};

/* Chunk c of the block-processed rows 0..nrows-1: r is the last row with chunkptr[r] <= c */
__device__ __forceinline__ Chunk ChunkOf(const LongArrays &l, int nrows, int c)
{
  int lo = 0, hi = nrows;
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (LoadRO(l.chunkptr + mid) <= c) lo = mid;
    else hi = mid;
  }
  const int begin = LoadRO(l.rowptr + lo) + (c - LoadRO(l.chunkptr + lo)) * kRowChunkLength, rowend = LoadRO(l.rowptr + lo + 1);
  return {lo, begin, rowend - begin > kRowChunkLength ? begin + kRowChunkLength : rowend};
}

/* y[row] = w[row] (or 0) for the block-processed rows, which their chunks then add to */
template <typename V>
__global__ void __launch_bounds__(kRowThreads) LongInitKernel(const int *__restrict__ rows, int count, const V *w, V *y)
{
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= count) return;
  const int row = LoadRO(rows + r);
  y[row]        = w ? w[row] : V(0);
}

/* One block per chunk of a very long row: y[row] += chunk sum, atomically */
template <typename M, typename V, typename Term>
__global__ void __launch_bounds__(kLongThreads) LongChunkKernel(const LongArrays l, int nrows, const M *__restrict__ vals, const Term term, V *y)
{
  const Chunk ch  = ChunkOf(l, nrows, blockIdx.x);
  const int   row = LoadRO(l.rows + ch.r);
  V           acc(0);
  for (int k = ch.begin + threadIdx.x; k < ch.end; k += kLongThreads) acc = term(acc, row, LoadStream(l.colidx + k), LoadStream(vals + k));
  acc = BlockSum(acc);
  if (threadIdx.x == 0) AtomicAdd(y + row, acc);
}

/* Jagged part of y += A^T x, one thread per sorted row scattering a(i, col) x(i) */
template <typename M, typename V>
__global__ void __launch_bounds__(kRowThreads) JaggedTransposeKernel(const JaggedArrays a, const M *__restrict__ vals, const V *__restrict__ x, V *y)
{
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= static_cast<unsigned>(a.nsorted)) return;
  const V   xi  = LoadRO(x + LoadRO(a.perm + i));
  const int len = LoadRO(a.rowlen + i);
  for (int j = 0; j < len; ++j) {
    const int k = LoadRO(a.diagstart + j) + i;
    AtomicAdd(y + LoadStream(a.colidx + k), MulAdd(static_cast<V>(LoadStream(vals + k)), xi, V(0)));
  }
}

/* Long rows first..first+count-1 of y += A^T x, one warp per row */
template <typename M, typename V>
__global__ void __launch_bounds__(kLongThreads) LongTransposeKernel(const LongArrays l, int first, int count, const M *__restrict__ vals, const V *__restrict__ x, V *y)
{
  const int r = first + blockIdx.x * kWarpsPerBlock + threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
  if (r >= first + count) return;
  const V   xi  = LoadRO(x + LoadRO(l.rows + r));
  const int end = LoadRO(l.rowptr + r + 1);
  for (int k = LoadRO(l.rowptr + r) + lane; k < end; k += kWarpSize) AtomicAdd(y + LoadStream(l.colidx + k), MulAdd(static_cast<V>(LoadStream(vals + k)), xi, V(0)));
}

/* Chunks of the block-processed rows of y += A^T x, one block per chunk */
template <typename M, typename V>
__global__ void __launch_bounds__(kLongThreads) LongTransposeChunkKernel(const LongArrays l, int nrows, const M *__restrict__ vals, const V *__restrict__ x, V *y)
{
  const Chunk ch = ChunkOf(l, nrows, blockIdx.x);
  const V     xi = LoadRO(x + LoadRO(l.rows + ch.r));
  for (int k = ch.begin + threadIdx.x; k < ch.end; k += kLongThreads) AtomicAdd(y + LoadStream(l.colidx + k), MulAdd(static_cast<V>(LoadStream(vals + k)), xi, V(0)));
}

/* vals[s] = csr[valmap[s]], 0 for padding */
template <typename C, typename M>
__global__ void __launch_bounds__(kRowThreads) RefreshKernel(int nslots, const int *__restrict__ valmap, const C *__restrict__ csr, M *vals)
{
  const unsigned s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= static_cast<unsigned>(nslots)) return;
  const int pos = valmap[s];
  vals[s]       = pos >= 0 ? static_cast<M>(LoadRO(csr + pos)) : M(0);
}

/* csr[valmap[s]] = vals[s], padding skipped */
template <typename M>
__global__ void __launch_bounds__(kRowThreads) ScatterKernel(int nslots, const int *__restrict__ valmap, const M *__restrict__ vals, M *csr)
{
  const unsigned s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= static_cast<unsigned>(nslots)) return;
  const int pos = valmap[s];
  if (pos >= 0) csr[pos] = LoadRO(vals + s);
}

/* csr_cols[valmap[s]] = SlotColumn(s), padding skipped */
__global__ void __launch_bounds__(kRowThreads) ScatterColumnsKernel(int nslots, int bs, int nstored, const int *__restrict__ valmap, const int *__restrict__ colidx, const int *__restrict__ long_colidx, int *csr_cols)
{
  const unsigned s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= static_cast<unsigned>(nslots)) return;
  const int pos = valmap[s];
  if (pos >= 0) csr_cols[pos] = SlotColumn(static_cast<int>(s), bs, nstored, colidx, long_colidx);
}

/* out[t] = (add ? out[t] : 0) + the COO values of slot i, in the order of perm (as the host twin adds them); t, the entries as SumCOO() says */
template <typename M>
__global__ void __launch_bounds__(kRowThreads) SumCOOKernel(long long n, const long long *__restrict__ imap, const long long *__restrict__ jmap, const long long *__restrict__ perm, const M *__restrict__ coo, M *out, bool add)
{
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const long long t = imap ? imap[i] : i, end = jmap ? jmap[i + 1] : i + 1;
  M               sum = add ? out[t] : M(0);
  for (long long k = jmap ? jmap[i] : i; k < end; ++k) sum += LoadRO(coo + perm[k]);
  out[t] = sum;
}

template <typename M>
__global__ void __launch_bounds__(kRowThreads) ScaleKernel(int nslots, M *vals, M alpha)
{
  const unsigned s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < static_cast<unsigned>(nslots)) vals[s] = MulAdd(vals[s], alpha, M(0));
}


JaggedArrays JaggedArraysOf(const DeviceFormat &d)
{
  return {d.nsorted, d.perm, d.rowlen, d.diagstart, d.colidx};
}

LongArrays LongArraysOf(const DeviceFormat &d)
{
  return {d.long_rows, d.long_rowptr, d.long_colidx, d.long_chunkptr};
}

/*
  Jagged part with a diagonal table of N starts (N = 0: starts read from global memory). Adding in place
  (w == y), the rows without entries have nothing to do: only the nonempty ones, a prefix of the sorted
  rows, are launched (the off-diagonal block of an MPI matrix: few nonempty rows among all local rows).
*/
template <int N, typename M, typename V, typename Term>
cudaError_t LaunchJaggedRowsWith(const DeviceFormat &d, const M *vals, const Term &term, const V *w, V *y, cudaStream_t stream)
{
  DiagTable<N> table{};
  JaggedArrays a = JaggedArraysOf(d);
  if (w && w == y) a.nsorted = d.nnonempty;
  if (a.nsorted == 0) return cudaSuccess;
  if constexpr (N > 0) std::copy(d.diagstart_host.begin(), d.diagstart_host.begin() + d.ndiag, table.start);
  JaggedRowKernel<N><<<JaggedBlocks(a.nsorted, kRowThreads), kRowThreads, 0, stream>>>(table, a, vals, term, w, y);
  return cudaGetLastError();
}

/*
   Jagged part with the diagonal starts in a constant table of kMaxConstantDiagonals entries, else from
   global memory (warp-uniform loads, served by the L1 cache). Larger tables were measured to cost more
   than they save: the launch copies the whole parameter block (a 4 KB table added about 4 us per
   product on an H100, twice the time of a small product).
*/
template <typename M, typename V, typename Term>
cudaError_t LaunchJaggedRows(const DeviceFormat &d, const M *vals, const Term &term, const V *w, V *y, cudaStream_t stream)
{
  if (d.ndiag <= kMaxConstantDiagonals) return LaunchJaggedRowsWith<kMaxConstantDiagonals>(d, vals, term, w, y, stream);
  return LaunchJaggedRowsWith<0>(d, vals, term, w, y, stream);
}

template <int N>
cudaError_t LaunchPackedRowsWith(const DeviceFormat &d, const std::uint32_t *words, const int *first, const float *x, float *y, cudaStream_t stream)
{
  DiagTable<N> table{};
  if (d.nsorted == 0) return cudaSuccess;
  if constexpr (N > 0) std::copy(d.diagstart_host.begin(), d.diagstart_host.begin() + d.ndiag, table.start);
  PackedRowKernel<N><<<JaggedBlocks(d.nsorted, kRowThreads), kRowThreads, 0, stream>>>(table, JaggedArraysOf(d), words, first, x, y);
  return cudaGetLastError();
}

/* Long rows: the first nlong_block set to w (or 0) then summed in chunks, one block each; a warp for each other row */
template <typename M, typename V, typename Term>
cudaError_t LaunchLongRows(const DeviceFormat &d, const M *vals, const Term &term, const V *w, V *y, cudaStream_t stream)
{
  const LongArrays l          = LongArraysOf(d);
  const int        nwarp_rows = d.nlong - d.nlong_block;

  if (d.nlong_block > 0) {
    LongInitKernel<<<JaggedBlocks(d.nlong_block, kRowThreads), kRowThreads, 0, stream>>>(d.long_rows, d.nlong_block, w, y);
    LongChunkKernel<<<d.nchunks, kLongThreads, 0, stream>>>(l, d.nlong_block, vals + d.nstored, term, y);
  }
  if (nwarp_rows > 0) LongRowKernel<<<JaggedBlocks(nwarp_rows, kWarpsPerBlock), kLongThreads, 0, stream>>>(l, d.nlong_block, nwarp_rows, vals + d.nstored, term, w, y);
  return cudaGetLastError();
}

/* Blocked jagged part of block size BS, with a diagonal table of N starts (as LaunchJaggedRowsWith()) */
template <int BS, int N, typename M, typename V>
cudaError_t LaunchBlockRowsWith(const DeviceFormat &d, const M *vals, const V *x, const V *w, V *y, cudaStream_t stream)
{
  DiagTable<N> table{};
  JaggedArrays a = JaggedArraysOf(d);
  if (w && w == y) a.nsorted = d.nnonempty;
  if (a.nsorted == 0) return cudaSuccess;
  if constexpr (N > 0) std::copy(d.diagstart_host.begin(), d.diagstart_host.begin() + d.ndiag, table.start);
  BlockRowKernel<BS, N><<<JaggedBlocks(a.nsorted, kRowThreads), kRowThreads, 0, stream>>>(table, a, d.nstored, vals, x, w, y);
  return cudaGetLastError();
}

template <int BS, typename M, typename V>
cudaError_t LaunchBlockRows(const DeviceFormat &d, const M *vals, const V *x, const V *w, V *y, cudaStream_t stream)
{
  if (d.ndiag <= kMaxConstantDiagonals) return LaunchBlockRowsWith<BS, kMaxConstantDiagonals>(d, vals, x, w, y, stream);
  return LaunchBlockRowsWith<BS, 0>(d, vals, x, w, y, stream);
}

/* fn(std::integral_constant<int, BS>) for the block size of a blocked format (2..kMaxBlockSize) */
template <typename Fn>
cudaError_t ForBlockSize(int bs, Fn fn)
{
  switch (bs) {
  case 2:
    return fn(std::integral_constant<int, 2>());
  case 3:
    return fn(std::integral_constant<int, 3>());
  case 4:
    return fn(std::integral_constant<int, 4>());
  case 5:
    return fn(std::integral_constant<int, 5>());
  case 6:
    return fn(std::integral_constant<int, 6>());
  }
  return cudaErrorInvalidValue;
}

template <typename M, typename V>
cudaError_t MultRows(const DeviceFormat &d, const M *vals, const V *x, const V *w, V *y, cudaStream_t stream)
{
  if (d.bs > 1) return ForBlockSize(d.bs, [&](auto BS) { return LaunchBlockRows<decltype(BS)::value>(d, vals, x, w, y, stream); });
  const MultTerm<V> term{x};
  const cudaError_t err = LaunchJaggedRows(d, vals, term, w, y, stream);
  return err != cudaSuccess ? err : LaunchLongRows(d, vals, term, w, y, stream);
}

/* y = w (or 0), then the scatter of both parts */
template <typename M, typename V>
cudaError_t MultTransposeRows(const DeviceFormat &d, const M *vals, const V *x, const V *w, V *y, cudaStream_t stream)
{
  const LongArrays l          = LongArraysOf(d);
  const int        nwarp_rows = d.nlong - d.nlong_block;
  cudaError_t      err        = cudaSuccess;

  if (!w) err = cudaMemsetAsync(y, 0, sizeof(V) * d.ncols, stream);
  else if (w != y) err = cudaMemcpyAsync(y, w, sizeof(V) * d.ncols, cudaMemcpyDeviceToDevice, stream);
  if (err != cudaSuccess) return err;
  if (d.bs > 1)
    return d.nsorted == 0 ? cudaSuccess : ForBlockSize(d.bs, [&](auto BS) {
      BlockTransposeKernel<decltype(BS)::value><<<JaggedBlocks(d.nsorted, kRowThreads), kRowThreads, 0, stream>>>(JaggedArraysOf(d), d.nstored, vals, x, y);
      return cudaGetLastError();
    });
  if (d.nsorted > 0) JaggedTransposeKernel<<<JaggedBlocks(d.nsorted, kRowThreads), kRowThreads, 0, stream>>>(JaggedArraysOf(d), vals, x, y);
  if (d.nlong_block > 0) LongTransposeChunkKernel<<<d.nchunks, kLongThreads, 0, stream>>>(l, d.nlong_block, vals + d.nstored, x, y);
  if (nwarp_rows > 0) LongTransposeKernel<<<JaggedBlocks(nwarp_rows, kWarpsPerBlock), kLongThreads, 0, stream>>>(l, d.nlong_block, nwarp_rows, vals + d.nstored, x, y);
  return cudaGetLastError();
}

/* First chunk of each of the nlong_block rows processed by blocks, and the total */
std::vector<int> ChunkPointers(const Format &f)
{
  std::vector<int> chunkptr(static_cast<size_t>(f.nlong_block) + 1, 0);
  for (int r = 0; r < f.nlong_block; ++r) chunkptr[r + 1] = chunkptr[r] + (f.long_rowptr[r + 1] - f.long_rowptr[r] + kRowChunkLength - 1) / kRowChunkLength;
  return chunkptr;
}

template <typename T>
const DeviceScalar<T> *Device(const T *p)
{
  return reinterpret_cast<const DeviceScalar<T> *>(p);
}

template <typename T>
DeviceScalar<T> *Device(T *p)
{
  return reinterpret_cast<DeviceScalar<T> *>(p);
}

} // namespace

cudaError_t DeviceFormatAllocate(const size_t size[kDeviceFormatArrays], DeviceFormat *d, int *array[kDeviceFormatArrays])
{
  const int      **targets[kDeviceFormatArrays] = {&d->perm, &d->rowlen, &d->diagstart, &d->colidx, &d->long_rows, &d->long_rowptr, &d->long_colidx, &d->long_chunkptr, &d->valmap};
  constexpr size_t align                         = 256 / sizeof(int);
  size_t           offset[kDeviceFormatArrays], total = 0;
  int             *base = nullptr;

  for (int a = 0; a < kDeviceFormatArrays; ++a) {
    offset[a] = total;
    total += (size[a] + align - 1) / align * align;
  }
  const cudaError_t err = cudaMalloc(&base, std::max<size_t>(total, 1) * sizeof(int));
  if (err != cudaSuccess) return err;
  for (int a = 0; a < kDeviceFormatArrays; ++a) *targets[a] = array[a] = base + offset[a];
  d->storage = base;
  return cudaSuccess;
}

void DeviceFormatSetSizes(const Format &f, int nchunks, const std::vector<int> &diagstart, DeviceFormat *d)
{
  d->nrows       = f.nrows;
  d->ncols       = f.ncols;
  d->bs          = f.bs;
  d->nsorted     = f.nsorted;
  d->ndiag       = f.ndiag;
  d->nstored     = f.nstored;
  d->nlong       = f.nlong;
  d->nlong_block = f.nlong_block;
  d->nchunks     = nchunks;
  d->nslots      = f.nslots;
  d->nnonempty   = f.ndiag > 0 ? std::min(diagstart[1] - diagstart[0], f.nsorted) : 0; /* diagonal 0 holds the sorted rows with entries (its start rounded up to the alignment) */
  if (f.ndiag <= kMaxConstantDiagonals) d->diagstart_host = diagstart;
  else d->diagstart_host.clear();
}

cudaError_t DeviceFormatCreate(const Format &f, DeviceFormat *d, cudaStream_t stream)
{
  const std::vector<int>  chunkptr                     = ChunkPointers(f);
  const std::vector<int> *arrays[kDeviceFormatArrays] = {&f.perm, &f.rowlen, &f.diagstart, &f.colidx, &f.long_rows, &f.long_rowptr, &f.long_colidx, &chunkptr, &f.valmap};
  size_t                  size[kDeviceFormatArrays];
  int                    *target[kDeviceFormatArrays];

  for (int a = 0; a < kDeviceFormatArrays; ++a) size[a] = arrays[a]->size();
  cudaError_t err = DeviceFormatAllocate(size, d, target);
  for (int a = 0; a < kDeviceFormatArrays && err == cudaSuccess; ++a)
    if (size[a]) err = cudaMemcpyAsync(target[a], arrays[a]->data(), size[a] * sizeof(int), cudaMemcpyHostToDevice, stream);
  if (err != cudaSuccess) {
    DeviceFormatDestroy(d);
    return err;
  }
  DeviceFormatSetSizes(f, chunkptr.back(), f.diagstart, d);
  return cudaSuccess;
}

cudaError_t DeviceFormatDestroy(DeviceFormat *d)
{
  const cudaError_t err = cudaFree(d->storage);
  *d                    = DeviceFormat();
  return err;
}

template <typename MatT, typename VecT>
cudaError_t Mult(const DeviceFormat &d, const MatT vals[], const VecT x[], VecT y[], cudaStream_t stream)
{
  return MultRows(d, Device(vals), Device(x), static_cast<const DeviceScalar<VecT> *>(nullptr), Device(y), stream);
}

cudaError_t MultPacked(const DeviceFormat &d, const std::uint32_t words[], const int first[], const float x[], float y[], cudaStream_t stream)
{
  if (d.bs != 1 || d.nlong != 0) return cudaErrorInvalidValue; /* packed: scalar formats without a long-row part */
  if (d.ndiag <= kMaxConstantDiagonals) return LaunchPackedRowsWith<kMaxConstantDiagonals>(d, words, first, x, y, stream);
  return LaunchPackedRowsWith<0>(d, words, first, x, y, stream);
}

template <typename MatT, typename VecT>
cudaError_t MultAdd(const DeviceFormat &d, const MatT vals[], const VecT x[], const VecT w[], VecT y[], cudaStream_t stream)
{
  return MultRows(d, Device(vals), Device(x), Device(w), Device(y), stream);
}

template <typename MatT, typename VecT>
cudaError_t MultTranspose(const DeviceFormat &d, const MatT vals[], const VecT x[], VecT y[], cudaStream_t stream)
{
  return MultTransposeRows(d, Device(vals), Device(x), static_cast<const DeviceScalar<VecT> *>(nullptr), Device(y), stream);
}

template <typename MatT, typename VecT>
cudaError_t MultTransposeAdd(const DeviceFormat &d, const MatT vals[], const VecT x[], const VecT w[], VecT y[], cudaStream_t stream)
{
  return MultTransposeRows(d, Device(vals), Device(x), Device(w), Device(y), stream);
}

template <typename CsrT, typename MatT>
cudaError_t RefreshValues(const DeviceFormat &d, const CsrT csr_vals[], MatT vals[], cudaStream_t stream)
{
  if (d.nslots == 0) return cudaSuccess;
  RefreshKernel<<<JaggedBlocks(d.nslots, kRowThreads), kRowThreads, 0, stream>>>(d.nslots, d.valmap, Device(csr_vals), Device(vals));
  return cudaGetLastError();
}

template <typename MatT>
cudaError_t ScatterValues(const DeviceFormat &d, const MatT vals[], MatT csr_vals[], cudaStream_t stream)
{
  if (d.nslots == 0) return cudaSuccess;
  ScatterKernel<<<JaggedBlocks(d.nslots, kRowThreads), kRowThreads, 0, stream>>>(d.nslots, d.valmap, Device(vals), Device(csr_vals));
  return cudaGetLastError();
}

cudaError_t ScatterColumns(const DeviceFormat &d, int csr_cols[], cudaStream_t stream)
{
  if (d.nslots == 0) return cudaSuccess;
  ScatterColumnsKernel<<<JaggedBlocks(d.nslots, kRowThreads), kRowThreads, 0, stream>>>(d.nslots, d.bs, d.nstored, d.valmap, d.colidx, d.long_colidx, csr_cols);
  return cudaGetLastError();
}

template <typename MatT>
cudaError_t SumCOO(long long n, const long long imap[], const long long jmap[], const long long perm[], const MatT coo_vals[], MatT out[], bool add, cudaStream_t stream)
{
  if (n == 0) return cudaSuccess;
  SumCOOKernel<<<JaggedBlocks(n, kRowThreads), kRowThreads, 0, stream>>>(n, imap, jmap, perm, Device(coo_vals), Device(out), add);
  return cudaGetLastError();
}

template <typename MatT>
cudaError_t GetDiagonal(const DeviceFormat &d, const MatT vals[], MatT diag[], cudaStream_t stream)
{
  using M = DeviceScalar<MatT>;
  const DiagTerm<M> term;
  const M          *w   = nullptr;
  if (d.bs > 1) {
    if (d.nsorted > 0) BlockDiagKernel<<<JaggedBlocks(d.nsorted, kRowThreads), kRowThreads, 0, stream>>>(JaggedArraysOf(d), d.bs, d.nstored, Device(vals), Device(diag));
    return cudaGetLastError();
  }
  const cudaError_t err = LaunchJaggedRowsWith<0>(d, Device(vals), term, w, Device(diag), stream);
  return err != cudaSuccess ? err : LaunchLongRows(d, Device(vals), term, w, Device(diag), stream);
}

template <typename MatT>
cudaError_t Scale(const DeviceFormat &d, MatT vals[], MatT alpha, cudaStream_t stream)
{
  if (d.nslots == 0) return cudaSuccess;
  ScaleKernel<<<JaggedBlocks(d.nslots, kRowThreads), kRowThreads, 0, stream>>>(d.nslots, Device(vals), *Device(&alpha));
  return cudaGetLastError();
}

#define JAGGED_GPU_INSTANTIATE_MULT(MatT, VecT) \
  template cudaError_t Mult(const DeviceFormat &, const MatT[], const VecT[], VecT[], cudaStream_t); \
  template cudaError_t MultAdd(const DeviceFormat &, const MatT[], const VecT[], const VecT[], VecT[], cudaStream_t); \
  template cudaError_t MultTranspose(const DeviceFormat &, const MatT[], const VecT[], VecT[], cudaStream_t); \
  template cudaError_t MultTransposeAdd(const DeviceFormat &, const MatT[], const VecT[], const VecT[], VecT[], cudaStream_t)
#define JAGGED_GPU_INSTANTIATE_VALUES(MatT) \
  template cudaError_t GetDiagonal(const DeviceFormat &, const MatT[], MatT[], cudaStream_t); \
  template cudaError_t Scale(const DeviceFormat &, MatT[], MatT, cudaStream_t); \
  template cudaError_t ScatterValues(const DeviceFormat &, const MatT[], MatT[], cudaStream_t)
#define JAGGED_GPU_INSTANTIATE_REFRESH(CsrT, MatT) template cudaError_t RefreshValues(const DeviceFormat &, const CsrT[], MatT[], cudaStream_t)

JAGGED_GPU_INSTANTIATE_MULT(double, double);
JAGGED_GPU_INSTANTIATE_MULT(float, float);
JAGGED_GPU_INSTANTIATE_MULT(float, double);
JAGGED_GPU_INSTANTIATE_MULT(Half, float);
JAGGED_GPU_INSTANTIATE_MULT(std::complex<double>, std::complex<double>);
JAGGED_GPU_INSTANTIATE_MULT(std::complex<float>, std::complex<float>);
JAGGED_GPU_INSTANTIATE_MULT(std::complex<float>, std::complex<double>);
JAGGED_GPU_INSTANTIATE_VALUES(double);
JAGGED_GPU_INSTANTIATE_VALUES(float);
JAGGED_GPU_INSTANTIATE_VALUES(std::complex<double>);
JAGGED_GPU_INSTANTIATE_VALUES(std::complex<float>);
JAGGED_GPU_INSTANTIATE_REFRESH(double, double);
JAGGED_GPU_INSTANTIATE_REFRESH(double, float);
JAGGED_GPU_INSTANTIATE_REFRESH(double, Half);
JAGGED_GPU_INSTANTIATE_REFRESH(Half, Half);
JAGGED_GPU_INSTANTIATE_REFRESH(float, float);
JAGGED_GPU_INSTANTIATE_REFRESH(std::complex<double>, std::complex<double>);
JAGGED_GPU_INSTANTIATE_REFRESH(std::complex<double>, std::complex<float>);
JAGGED_GPU_INSTANTIATE_REFRESH(std::complex<float>, std::complex<float>);
template cudaError_t SumCOO(long long, const long long[], const long long[], const long long[], const double[], double[], bool, cudaStream_t);
template cudaError_t SumCOO(long long, const long long[], const long long[], const long long[], const std::complex<double>[], std::complex<double>[], bool, cudaStream_t);

} // namespace gpu
} // namespace jagged
