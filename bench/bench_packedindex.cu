/*
   Does a 16-bit column index pay in the inner single-precision copy's product (issue 43, item 2)? A PETSc binary matrix,
   scaled symmetrically to unit diagonal (as PCSPCG stores its half copies), multiplied on the GPU in single arithmetic by:
     - the jagged core's own pJDS products, float and half values with 4-byte column indices (what MPCG runs today);
     - one JDS layout (rows sorted by length, one thread a row) holding
         float value + int32 column   (8 bytes an entry),
         half value + int32 column    (6 bytes),
         packed: one 32-bit word an entry, a half value in the high 16 bits and the column's distance from the row's
         previous column in the low 16 (the first from a column kept once a row, as the row's length is): no base loaded
         an entry. A distance over 65535 takes an escape word (low half 0) whose high 16 bits add that many times 65535
         to the column, its value read as zero (4 bytes an entry, and 4 an escape).
   Each product is checked against a host product in double: max over rows of |y - y_ref| / sum_j |a_ij x_j| (half values
   round each entry by at most 2^-11). Prints time, matrix bytes a nonzero (stored words, padding and escapes included)
   and the rate of those bytes.

     bench_packedindex FILE [FILE...]      (bench/firstsolve -save writes such files)
*/
#include <petscjagged/private/jaggedhost.hpp>
#include "benchdevice.hpp"
#include <petscjagged/private/jaggedkernels.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace jagged;
using bench::Check;
using bench::Upload;

constexpr int kThreads = 256;

struct CSR {
  int                 nrows = 0, ncols = 0;
  std::vector<int>    rowptr{0}, colidx;
  std::vector<double> vals;
};

/* PETSc's binary matrix format: big-endian int32 header (class id, rows, columns, nonzeros), row lengths, columns, doubles */
CSR LoadPetscBinary(const char *path)
{
  FILE *f = std::fopen(path, "rb");
  Check(f, "cannot open the matrix file");
  auto ints = [&](std::vector<int> &v, size_t n) {
    v.resize(n);
    Check(std::fread(v.data(), 4, n, f) == n, "short read");
    for (int &x : v) x = static_cast<int>(__builtin_bswap32(static_cast<std::uint32_t>(x)));
  };
  std::vector<int> head, len;
  ints(head, 4);
  Check(head[0] == 1211216, "not a PETSc binary matrix (32-bit indices)");
  CSR a;
  a.nrows = head[1];
  a.ncols = head[2];
  ints(len, a.nrows);
  for (int l : len) a.rowptr.push_back(a.rowptr.back() + l);
  ints(a.colidx, static_cast<size_t>(head[3]));
  a.vals.resize(head[3]);
  Check(std::fread(a.vals.data(), 8, a.vals.size(), f) == a.vals.size(), "short read");
  for (double &v : a.vals) {
    std::uint64_t u;
    std::memcpy(&u, &v, 8);
    u = __builtin_bswap64(u);
    std::memcpy(&v, &u, 8);
  }
  std::fclose(f);
  return a;
}

/* S = D^-1/2 A D^-1/2 (positive diagonal required) */
void ScaleSymmetric(CSR &a)
{
  std::vector<double> d(a.nrows, 0.0);
  for (int r = 0; r < a.nrows; ++r)
    for (int k = a.rowptr[r]; k < a.rowptr[r + 1]; ++k)
      if (a.colidx[k] == r) d[r] = a.vals[k];
  for (double &v : d) {
    Check(v > 0, "a diagonal entry is not positive");
    v = 1.0 / std::sqrt(v);
  }
  for (int r = 0; r < a.nrows; ++r)
    for (int k = a.rowptr[r]; k < a.rowptr[r + 1]; ++k) a.vals[k] *= d[r] * d[a.colidx[k]];
}

/* One JDS layout: sorted position i -> row perm[i] of len[i] slots, slot j of it at dstart[j] + i */
struct JDS {
  std::vector<int> perm, len, dstart, first;
  long long        nslots = 0;
};

JDS Layout(const std::vector<int> &rowlen)
{
  JDS s;
  s.perm.resize(rowlen.size());
  std::iota(s.perm.begin(), s.perm.end(), 0);
  std::stable_sort(s.perm.begin(), s.perm.end(), [&](int p, int q) { return rowlen[p] > rowlen[q]; });
  for (int r : s.perm) s.len.push_back(rowlen[r]);
  const int maxlen = s.len.empty() ? 0 : s.len[0];
  int       count  = static_cast<int>(s.len.size());
  s.dstart.push_back(0);
  for (int j = 0; j < maxlen; ++j) {
    while (count > 0 && s.len[count - 1] <= j) --count;
    s.dstart.push_back(s.dstart.back() + count);
  }
  s.nslots = s.dstart.back();
  return s;
}

/* The words of row r: escapes for distances over 65535, else (half value << 16 | distance) */
void PackRow(const CSR &a, int r, std::vector<std::uint32_t> &w, int &first)
{
  int col = a.rowptr[r] < a.rowptr[r + 1] ? a.colidx[a.rowptr[r]] - 1 : 0;
  first   = col;
  for (int k = a.rowptr[r]; k < a.rowptr[r + 1]; ++k) {
    long long jump = static_cast<long long>(a.colidx[k]) - col;
    Check(jump >= 1, "columns not sorted within a row");
    if (jump > 65535) {
      const long long hi = (jump - 1) / 65535;
      Check(hi <= 65535, "a distance beyond 65535^2");
      w.push_back(static_cast<std::uint32_t>(hi) << 16);
      jump -= hi * 65535;
    }
    const std::uint16_t v = Half(a.vals[k]).bits;
    w.push_back(static_cast<std::uint32_t>(v) << 16 | static_cast<std::uint32_t>(jump));
    col = a.colidx[k];
  }
}

/* The host twin of the kernel's decoding: row r's words give back its columns and half values exactly */
void CheckPackedRow(const CSR &a, int r, const std::vector<std::uint32_t> &w, int first)
{
  int col = first, k = a.rowptr[r];
  for (std::uint32_t u : w) {
    const std::uint32_t d = u & 0xffffu, hv = u >> 16;
    if (d == 0) {
      col += static_cast<int>(hv * 65535u);
      continue;
    }
    col += static_cast<int>(d);
    Check(k < a.rowptr[r + 1] && col == a.colidx[k] && hv == Half(a.vals[k]).bits, "packed row decodes wrongly");
    ++k;
  }
  Check(k == a.rowptr[r + 1], "packed row decodes short");
}

template <typename M>
__global__ void __launch_bounds__(kThreads) ScalarJDSKernel(int n, const int *__restrict__ perm, const int *__restrict__ len, const int *__restrict__ dstart, const int *__restrict__ colidx, const M *__restrict__ vals, const float *__restrict__ x, float *__restrict__ y)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int l = __ldg(len + i);
  float     acc = 0;
#pragma unroll 4
  for (int j = 0; j < l; ++j) {
    const int k = __ldg(dstart + j) + i;
    acc         = fmaf(static_cast<float>(__ldcs(vals + k)), __ldg(x + __ldcs(colidx + k)), acc);
  }
  y[__ldg(perm + i)] = acc;
}

__global__ void __launch_bounds__(kThreads) PackedJDSKernel(int n, const int *__restrict__ perm, const int *__restrict__ len, const int *__restrict__ first, const int *__restrict__ dstart, const unsigned *__restrict__ words, const float *__restrict__ x, float *__restrict__ y)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int l   = __ldg(len + i);
  int       col = __ldg(first + i);
  float     acc = 0;
#pragma unroll 4
  for (int j = 0; j < l; ++j) {
    const unsigned w = __ldcs(words + __ldg(dstart + j) + i), d = w & 0xffffu, hv = w >> 16;
    const bool     escape = d == 0;
    col += escape ? static_cast<int>(hv * 65535u) : static_cast<int>(d);
    const float v = escape ? 0.0f : __half2float(__ushort_as_half(static_cast<unsigned short>(hv)));
    acc           = fmaf(v, __ldg(x + col), acc);
  }
  y[__ldg(perm + i)] = acc;
}

/* Median time in ms of run() over 7 batches of 20 (after warm-up) */
double TimeMs(const std::function<void()> &run)
{
  cudaEvent_t         start, stop;
  std::vector<double> t;

  for (int i = 0; i < 5; ++i) run();
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (int b = 0; b < 7; ++b) {
    float ms = 0;
    cudaEventRecord(start);
    for (int i = 0; i < 20; ++i) run();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms, start, stop);
    t.push_back(ms / 20);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  Check(cudaGetLastError() == cudaSuccess, "kernel");
  std::sort(t.begin(), t.end());
  return t[3];
}

/* max over rows of |y - ref| / sum |a x| */
double Error(const float *dy, const std::vector<double> &ref, const std::vector<double> &mag)
{
  std::vector<float> y(ref.size());
  Check(cudaMemcpy(y.data(), dy, y.size() * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess, "download");
  double e = 0;
  for (size_t r = 0; r < ref.size(); ++r) e = std::max(e, std::abs(y[r] - ref[r]) / std::max(mag[r], 1e-300));
  return e;
}

int failures = 0;

/* Times run(), then checks the y it left (in this order: not as arguments of one call, whose order C++ leaves open) */
void Report(const char *what, const std::function<void()> &run, double bytes, long long nnz, const float *dy, const std::vector<double> &ref, const std::vector<double> &mag, double tol)
{
  const double ms  = TimeMs(run);
  const double err = Error(dy, ref, mag);
  std::printf("  %-46s %8.4f ms  %5.2f B/nz  %7.1f GB/s  error %.2e %s\n", what, ms, bytes / nnz, bytes / ms * 1e-6, err, err <= tol ? "ok" : "FAILED");
  failures += err > tol;
}

/* The error of a host product y (as Error()) */
double HostError(const std::vector<float> &y, const std::vector<double> &ref, const std::vector<double> &mag)
{
  double e = 0;
  for (size_t r = 0; r < ref.size(); ++r) e = std::max(e, std::abs(y[r] - ref[r]) / std::max(mag[r], 1e-300));
  return e;
}

void Bench(const char *path)
{
  CSR a = LoadPetscBinary(path);
  ScaleSymmetric(a);
  const long long nnz = static_cast<long long>(a.colidx.size());
  std::vector<int> rowlen(a.nrows), first(a.nrows), wlen(a.nrows);
  std::vector<std::vector<std::uint32_t>> rows(a.nrows);
  long long        escapes = 0;
  for (int r = 0; r < a.nrows; ++r) {
    rowlen[r] = a.rowptr[r + 1] - a.rowptr[r];
    PackRow(a, r, rows[r], first[r]);
    CheckPackedRow(a, r, rows[r], first[r]);
    wlen[r] = static_cast<int>(rows[r].size());
    escapes += wlen[r] - rowlen[r];
  }
  std::printf("%s: %d x %d, %lld nonzeros (%.1f a row), scaled to unit diagonal; packed: %lld escape words (%.2f a row, %.2f %% of the entries), decoded on the host: ok\n", path, a.nrows, a.ncols, nnz, double(nnz) / a.nrows, escapes, double(escapes) / a.nrows, 100.0 * escapes / nnz);
  std::mt19937    rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float>  x(a.ncols);
  std::vector<double> ref(a.nrows, 0.0), mag(a.nrows, 0.0);
  for (float &v : x) v = u(rng);
  for (int r = 0; r < a.nrows; ++r)
    for (int k = a.rowptr[r]; k < a.rowptr[r + 1]; ++k) {
      ref[r] += a.vals[k] * x[a.colidx[k]];
      mag[r] += std::abs(a.vals[k] * x[a.colidx[k]]);
    }
  float *dx = Upload(x), *dy = Upload(std::vector<float>(a.nrows));
  const double vec = 4.0 * (a.nrows + a.ncols);

  { /* the jagged core's pJDS */
    Format            f;
    gpu::DeviceFormat d;
    Check(BuildFormat(a.nrows, a.ncols, a.rowptr.data(), a.colidx.data(), Options{}, &f) == Status::Success, "BuildFormat");
    Check(gpu::DeviceFormatCreate(f, &d, 0) == cudaSuccess, "DeviceFormatCreate");
    std::vector<float> vf(f.nslots);
    std::vector<Half>  vh(f.nslots);
    FillValues(f, a.vals.data(), vf.data());
    FillValues(f, a.vals.data(), vh.data());
    float      *df = Upload(vf);
    Half       *dh = Upload(vh);
    const double idx = 4.0 * f.nslots + 8.0 * f.nsorted;
    std::vector<float> yh(a.nrows);
    host::Mult(f, vf.data(), x.data(), yh.data());
    std::printf("  pJDS: %d sorted rows, %d diagonals, %d long rows; host twin's error %.2e\n", f.nsorted, f.ndiag, f.nlong, HostError(yh, ref, mag));
    Check(gpu::Mult(d, df, dx, dy, 0) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess, "gpu::Mult");
    Report("pJDS (jagged core), float + int32", [&] { gpu::Mult(d, df, dx, dy, 0); }, idx + 4.0 * f.nslots + vec, nnz, dy, ref, mag, 1e-5);
    Report("pJDS (jagged core), half + int32", [&] { gpu::Mult(d, dh, dx, dy, 0); }, idx + 2.0 * f.nslots + vec, nnz, dy, ref, mag, 2e-3);
    cudaFree(df);
    cudaFree(dh);
    gpu::DeviceFormatDestroy(&d);
  }

  const JDS          s = Layout(rowlen);
  std::vector<int>   cj(s.nslots);
  std::vector<float> vf(s.nslots);
  std::vector<Half>  vh(s.nslots);
  for (size_t i = 0; i < s.perm.size(); ++i)
    for (int j = 0; j < s.len[i]; ++j) {
      const int k = a.rowptr[s.perm[i]] + j, slot = s.dstart[j] + static_cast<int>(i);
      cj[slot] = a.colidx[k];
      vf[slot] = static_cast<float>(a.vals[k]);
      vh[slot] = Half(a.vals[k]);
    }
  const int n  = static_cast<int>(s.perm.size()), nb = (n + kThreads - 1) / kThreads;
  int      *dperm = Upload(s.perm), *dlen = Upload(s.len), *dstart = Upload(s.dstart), *dcol = Upload(cj);
  float    *dvf   = Upload(vf);
  Half     *dvh   = Upload(vh);
  Report("JDS, float + int32", [&] { ScalarJDSKernel<<<nb, kThreads>>>(n, dperm, dlen, dstart, dcol, dvf, dx, dy); }, 8.0 * s.nslots + 8.0 * n + vec, nnz, dy, ref, mag, 1e-5);
  Report("JDS, half + int32", [&] { ScalarJDSKernel<<<nb, kThreads>>>(n, dperm, dlen, dstart, dcol, reinterpret_cast<const __half *>(dvh), dx, dy); }, 6.0 * s.nslots + 8.0 * n + vec, nnz, dy, ref, mag, 2e-3);
  for (void *p : {static_cast<void *>(dperm), static_cast<void *>(dlen), static_cast<void *>(dstart), static_cast<void *>(dcol), static_cast<void *>(dvf), static_cast<void *>(dvh)}) cudaFree(p);

  JDS                        p = Layout(wlen);
  std::vector<std::uint32_t> words(p.nslots);
  for (size_t i = 0; i < p.perm.size(); ++i) {
    p.first.push_back(first[p.perm[i]]);
    for (int j = 0; j < p.len[i]; ++j) words[p.dstart[j] + i] = rows[p.perm[i]][j];
  }
  int      *pperm = Upload(p.perm), *plen = Upload(p.len), *pstart = Upload(p.dstart), *pfirst = Upload(p.first);
  unsigned *dw    = reinterpret_cast<unsigned *>(Upload(words));
  Report("JDS, packed half + 16-bit distance", [&] { PackedJDSKernel<<<nb, kThreads>>>(n, pperm, plen, pfirst, pstart, dw, dx, dy); }, 4.0 * p.nslots + 12.0 * n + vec, nnz, dy, ref, mag, 2e-3);
  for (void *q : {static_cast<void *>(pperm), static_cast<void *>(plen), static_cast<void *>(pstart), static_cast<void *>(pfirst), static_cast<void *>(dw), static_cast<void *>(dx), static_cast<void *>(dy)}) cudaFree(q);
}

} // namespace

int main(int argc, char **argv)
{
  Check(argc > 1, "usage: bench_packedindex FILE [FILE...]");
  for (int i = 1; i < argc; ++i) Bench(argv[i]);
  return failures ? 1 : 0;
}
