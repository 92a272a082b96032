/*
   Does a 16-bit column index pay in the inner single-precision copy's product (issue 43, item 2)? A PETSc binary matrix,
   scaled symmetrically to unit diagonal (as PCSPCG stores its half copies), multiplied on the GPU in single arithmetic by the
   jagged core's pJDS products: float and half values with 4-byte column indices, and packed half storage (jaggedpacked.hpp:
   a half value and its column's 16-bit distance from the row's previous one in one 32-bit word, the format built from the
   packed pattern, escapes where a distance passes 65535). Each product is checked against a host product in double: max over
   rows of |y - y_ref| / sum_j |a_ij x_j| (half values round each entry by at most 2^-11). Prints time, matrix bytes a nonzero
   (stored words, padding and escapes included, and the per-row arrays) and the rate of those bytes.

     bench_packedindex FILE [FILE...]      (bench/firstsolve -save writes such files)
*/
#include <petscjagged/private/jaggedpacked.hpp>
#include "benchdevice.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace jagged;
using bench::Check;
using bench::Upload;

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

void Bench(const char *path)
{
  CSR a = LoadPetscBinary(path);
  ScaleSymmetric(a);
  const long long                        nnz = static_cast<long long>(a.colidx.size());
  std::mt19937                           rng(11);
  std::uniform_real_distribution<float>  u(-1.0f, 1.0f);
  std::vector<float>                     x(a.ncols);
  std::vector<double>                    ref(a.nrows, 0.0), mag(a.nrows, 0.0);
  PackedPattern                          packed;
  Format                                 f, fp;
  gpu::DeviceFormat                      d, dp;

  for (float &v : x) v = u(rng);
  for (int r = 0; r < a.nrows; ++r)
    for (int k = a.rowptr[r]; k < a.rowptr[r + 1]; ++k) {
      ref[r] += a.vals[k] * x[a.colidx[k]];
      mag[r] += std::abs(a.vals[k] * x[a.colidx[k]]);
    }
  Check(BuildFormat(a.nrows, a.ncols, a.rowptr.data(), a.colidx.data(), Options{}, &f) == Status::Success, "BuildFormat");
  Check(PackPattern(a.nrows, a.rowptr.data(), a.colidx.data(), &packed) == Status::Success, "PackPattern");
  Check(BuildFormat(a.nrows, a.ncols, packed.rowptr.data(), packed.colidx.data(), Options{}, &fp) == Status::Success, "BuildFormat of the packed pattern");
  Check(fp.nlong == 0, "the matrix has long rows (run by warps: a small matrix of long rows), which packed storage leaves unpacked");
  std::printf("%s: %d x %d, %lld nonzeros (%.1f a row), scaled to unit diagonal; pJDS: %d diagonals, %d long rows; packed: %lld escapes (%.2f a row, %.2f %% of the entries)\n", path, a.nrows, a.ncols, nnz, double(nnz) / a.nrows, f.ndiag, f.nlong, packed.nescapes, double(packed.nescapes) / a.nrows, 100.0 * packed.nescapes / nnz);
  Check(gpu::DeviceFormatCreate(f, &d, 0) == cudaSuccess && gpu::DeviceFormatCreate(fp, &dp, 0) == cudaSuccess, "DeviceFormatCreate");

  std::vector<float>         vf(f.nslots);
  std::vector<Half>          vh(f.nslots);
  std::vector<std::uint32_t> words(std::max(fp.nstored, 1));
  std::vector<int>           first(std::max(fp.nsorted, 1));
  FillValues(f, a.vals.data(), vf.data());
  FillValues(f, a.vals.data(), vh.data());
  PackWords(fp, packed.amap.data(), a.vals.data(), words.data(), first.data());
  float         *dx = Upload(x), *dy = Upload(std::vector<float>(a.nrows)), *df = Upload(vf);
  Half          *dh = Upload(vh);
  std::uint32_t *dw = Upload(words);
  int           *dfirst = Upload(first);
  const double   vec = 4.0 * (a.nrows + a.ncols), rows = 8.0 * f.nsorted;

  Report("pJDS, float + int32", [&] { gpu::Mult(d, df, dx, dy, 0); }, 8.0 * f.nslots + rows + vec, nnz, dy, ref, mag, 1e-5);
  Report("pJDS, half + int32", [&] { gpu::Mult(d, dh, dx, dy, 0); }, 6.0 * f.nslots + rows + vec, nnz, dy, ref, mag, 2e-3);
  Report("pJDS, packed half + 16-bit distance", [&] { gpu::MultPacked(dp, dw, dfirst, dx, dy, 0); }, 4.0 * fp.nslots + 12.0 * fp.nsorted + vec, nnz, dy, ref, mag, 2e-3);
  for (void *q : {static_cast<void *>(dx), static_cast<void *>(dy), static_cast<void *>(df), static_cast<void *>(dh), static_cast<void *>(dw), static_cast<void *>(dfirst)}) cudaFree(q);
  gpu::DeviceFormatDestroy(&d);
  gpu::DeviceFormatDestroy(&dp);
}

} // namespace

int main(int argc, char **argv)
{
  Check(argc > 1, "usage: bench_packedindex FILE [FILE...]");
  for (int i = 1; i < argc; ++i) Bench(argv[i]);
  return failures ? 1 : 0;
}
