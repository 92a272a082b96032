/*
   Timing of the jagged products on a GPU against cuSPARSE CSR (generic SpMV, CSR_ALG1), on a few
   large matrices of different row-length profiles. Prints time, GFLOP/s and the bandwidth of the
   minimum traffic (stored entries with indices, perm and rowlen, x and y once).

     nvcc -std=c++17 -arch=sm_90 -O2 bench_jaggedkernels.cu jaggedkernels.cu jaggedformat.cpp -lcusparse -o bench_jaggedkernels
*/
#include <petscjagged/private/jaggedkernels.cuh>
#include "benchdevice.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cusparse.h>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace jagged;
using bench::Check;
using bench::Upload;

struct CSR {
  std::string      name;
  int              nrows = 0, ncols = 0;
  std::vector<int> rowptr{0}, colidx;
};

/* Rows of the given lengths, distinct columns drawn within band of the diagonal (band 0: anywhere) */
CSR Banded(std::string name, int ncols, const std::vector<int> &len, int band, std::mt19937 &rng)
{
  CSR a;
  a.name  = std::move(name);
  a.nrows = static_cast<int>(len.size());
  a.ncols = ncols;
  for (int r = 0; r < a.nrows; ++r) {
    const long long lo = band ? std::max(0, r - band) : 0, hi = band ? std::min<long long>(ncols - 1, static_cast<long long>(r) + band) : ncols - 1;
    std::uniform_int_distribution<long long> col(lo, hi);
    std::vector<int>                         cols;
    const long long                          range = hi - lo + 1, want = std::min<long long>(len[r], range);
    if (2 * want > range) {
      std::vector<int> all(range);
      for (long long c = 0; c < range; ++c) all[c] = static_cast<int>(lo + c);
      std::sample(all.begin(), all.end(), std::back_inserter(cols), want, rng);
    }
    while (static_cast<long long>(cols.size()) < want) {
      while (static_cast<long long>(cols.size()) < want) cols.push_back(static_cast<int>(col(rng)));
      std::sort(cols.begin(), cols.end());
      cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    }
    a.colidx.insert(a.colidx.end(), cols.begin(), cols.end());
    a.rowptr.push_back(static_cast<int>(a.colidx.size()));
  }
  return a;
}

/* 5-point Laplacian on an n x n grid */
CSR Laplace2D(int n)
{
  CSR a;
  a.name  = "Laplace 2D 5-point " + std::to_string(n) + "^2";
  a.nrows = a.ncols = n * n;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const int r = i * n + j;
      for (int c : {r - n, r - 1, r, r + 1, r + n})
        if (c >= 0 && c < a.ncols && (c / n == i || c % n == j)) a.colidx.push_back(c);
      a.rowptr.push_back(static_cast<int>(a.colidx.size()));
    }
  }
  return a;
}

/*
   A vector problem's matrix: bs unknowns a node of an n^3 grid, every node coupled to its 27 neighbours by a dense
   bs x bs block (Q1 elasticity with bs 3: snes ex56's 64^3 mesh has 0.75 M rows, 58.9 M nonzeros)
*/
CSR BlockGrid3D(int n, int bs)
{
  CSR a;
  a.name  = "27-point block grid " + std::to_string(n) + "^3, blocks of " + std::to_string(bs);
  a.nrows = a.ncols = n * n * n * bs;
  for (int node = 0; node < n * n * n; ++node) {
    const int        i = node / (n * n), j = node / n % n, k = node % n;
    std::vector<int> nb;
    for (int di = -1; di <= 1; ++di)
      for (int dj = -1; dj <= 1; ++dj)
        for (int dk = -1; dk <= 1; ++dk)
          if (i + di >= 0 && i + di < n && j + dj >= 0 && j + dj < n && k + dk >= 0 && k + dk < n) nb.push_back(((i + di) * n + j + dj) * n + k + dk);
    for (int r = 0; r < bs; ++r) {
      for (int b : nb)
        for (int c = 0; c < bs; ++c) a.colidx.push_back(b * bs + c);
      a.rowptr.push_back(static_cast<int>(a.colidx.size()));
    }
  }
  return a;
}

std::vector<CSR> BenchMatrices(std::mt19937 &rng)
{
  std::vector<CSR>                       m;
  std::uniform_int_distribution<int>     narrow(10, 50), dense(100, 140);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<int>                       len(1 << 20);

  m.push_back(Laplace2D(2048));
  for (int &l : len) l = narrow(rng);
  m.push_back(Banded("banded, 10..50 per row", 1 << 20, len, 20000, rng));
  len.resize(1 << 19);
  for (int &l : len) l = dense(rng);
  m.push_back(Banded("banded, 100..140 per row", 1 << 19, len, 20000, rng));
  len.resize(1 << 20);
  for (int &l : len) l = std::min(1 << 18, static_cast<int>(2.0 / std::pow(1.0 - u(rng), 1.0 / 1.3)));
  m.push_back(Banded("power law, random columns", 1 << 20, len, 0, rng));
  for (int &l : len) l = u(rng) < 0.05 ? 100 + narrow(rng) * 6 : 8;
  m.push_back(Banded("5% rows of 160..400, others 8", 1 << 20, len, 20000, rng));
  for (int &l : len) l = narrow(rng) / 5;
  len[12345] = 1 << 20;
  m.push_back(Banded("dense row + 2..10 per row", 1 << 20, len, 0, rng));
  return m;
}

/* Mean time in ms of run(), after warm-up */
double TimeMs(const std::function<void()> &run)
{
  cudaEvent_t start, stop;
  float       ms = 0;
  const int   nrep = 20;

  for (int i = 0; i < 3; ++i) run();
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  for (int i = 0; i < nrep; ++i) run();
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  Check(cudaGetLastError() == cudaSuccess, "kernel");
  return ms / nrep;
}

void Report(const char *what, double ms, long long nnz, double bytes)
{
  std::printf("  %-34s %8.3f ms %7.1f GFLOP/s %7.1f GB/s\n", what, ms, 2.0 * nnz / ms * 1e-6, bytes / ms * 1e-6);
}

/* cuSPARSE CSR y = A x in the value type of dtype */
template <typename T>
double CuSparseMs(const CSR &a, const int *drowptr, const int *dcolidx, const T *dvals, const T *dx, T *dy, cudaDataType dtype)
{
  cusparseHandle_t     handle;
  cusparseSpMatDescr_t mat;
  cusparseDnVecDescr_t vx, vy;
  const T              one = 1, zero = 0;
  size_t               bytes = 0;
  void                *buffer;

  cusparseCreate(&handle);
  cusparseCreateCsr(&mat, a.nrows, a.ncols, a.colidx.size(), const_cast<int *>(drowptr), const_cast<int *>(dcolidx), const_cast<T *>(dvals), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, dtype);
  cusparseCreateDnVec(&vx, a.ncols, const_cast<T *>(dx), dtype);
  cusparseCreateDnVec(&vy, a.nrows, dy, dtype);
  cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy, dtype, CUSPARSE_SPMV_CSR_ALG1, &bytes);
  cudaMalloc(&buffer, std::max<size_t>(bytes, 1));
  const double ms = TimeMs([&] { Check(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy, dtype, CUSPARSE_SPMV_CSR_ALG1, buffer) == CUSPARSE_STATUS_SUCCESS, "cusparseSpMV"); });
  cudaFree(buffer);
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroySpMat(mat);
  cusparseDestroy(handle);
  return ms;
}

/* Jagged y = A x in double, and unless brief in float and y = A^T x, for one set of options */
void BenchFormat(const CSR &a, const Options &o, const std::string &label, bool brief, const std::vector<double> &vals, double *dx, double *dy, float *dxf, float *dyf)
{
  Format            f;
  gpu::DeviceFormat d;

  Check(BuildFormat(a.nrows, a.ncols, a.rowptr.data(), a.colidx.data(), o, &f) == Status::Success, "BuildFormat");
  Check(gpu::DeviceFormatCreate(f, &d, 0) == cudaSuccess, "DeviceFormatCreate");
  std::vector<double> jv(f.nslots);
  std::vector<float>  jf(f.nslots);
  FillValues(f, vals.data(), jv.data());
  FillValues(f, vals.data(), jf.data());
  double     *dv = Upload(jv);
  float      *df = Upload(jf);
  const Stats st = GetStats(f, sizeof(double));
  const double vec = 2.0 * f.nrows + f.ncols, idx = (f.nstored + f.long_nnz) * 4.0 + f.nsorted * 8.0 + (f.nlong * 8.0);
  std::printf(" %s: nslots %lld (padding %.1f%%, vs ELLPACK -%.1f%%), ndiag %d, long rows %d (%d block); matrix bytes a nonzero: double %.2f, float %.2f\n", label.c_str(), st.nslots, 100 * st.padding_ratio, 100 * st.ellpack_reduction, f.ndiag, f.nlong, f.nlong_block,
              st.product_bytes, GetStats(f, sizeof(float)).product_bytes);
  Report("Mult double", TimeMs([&] { gpu::Mult(d, dv, dx, dy, 0); }), f.nnz, idx + 8.0 * (f.nslots + vec));
  if (!brief) {
    Report("Mult float", TimeMs([&] { gpu::Mult(d, df, dxf, dyf, 0); }), f.nnz, idx + 4.0 * (f.nslots + vec));
    Report("Mult float matrix, double vectors", TimeMs([&] { gpu::Mult(d, df, dx, dy, 0); }), f.nnz, idx + 4.0 * f.nslots + 8.0 * vec);
    if (a.nrows == a.ncols) Report("MultTranspose double", TimeMs([&] { gpu::MultTranspose(d, dv, dx, dy, 0); }), f.nnz, idx + 8.0 * (f.nslots + vec));
  }
  cudaFree(dv);
  cudaFree(df);
  gpu::DeviceFormatDestroy(&d);
}

/* A matrix of bs x bs blocks: cuSPARSE's CSR (AIJCUSPARSE's product), the scalar pJDS and the blocked pJDS */
void BenchMatrix(const CSR &a, std::mt19937 &rng, int bs)
{
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double>                    vals(a.colidx.size()), x(std::max(a.nrows, a.ncols));
  for (double &v : vals) v = u(rng);
  for (double &v : x) v = u(rng);
  const std::vector<float> valsf(vals.begin(), vals.end()), xf(x.begin(), x.end());
  int    *drowptr = Upload(a.rowptr), *dcolidx = Upload(a.colidx);
  double *dvals = Upload(vals), *dx = Upload(x), *dy = Upload(x);
  float  *dvalsf = Upload(valsf), *dxf = Upload(xf), *dyf = Upload(xf);
  const long long nnz = a.colidx.size();
  const double    vec = 2.0 * a.nrows + a.ncols;

  std::printf("%s: %d x %d, nnz %lld, mean row %.1f\n", a.name.c_str(), a.nrows, a.ncols, nnz, a.nrows ? double(nnz) / a.nrows : 0.0);
  Report("cuSPARSE CSR double", CuSparseMs(a, drowptr, dcolidx, dvals, dx, dy, CUDA_R_64F), nnz, 12.0 * nnz + 4.0 * a.nrows + 8.0 * vec);
  Report("cuSPARSE CSR float", CuSparseMs(a, drowptr, dcolidx, dvalsf, dxf, dyf, CUDA_R_32F), nnz, 8.0 * nnz + 4.0 * a.nrows + 4.0 * vec);
  if (bs > 1) {
    BenchFormat(a, {Kind::PJDS, kDefaultBlockRows, LongRowMode::Auto, 0}, "pJDS b_r 32 (scalar)", false, vals, dx, dy, dxf, dyf);
    BenchFormat(a, {Kind::PJDS, kDefaultBlockRows, LongRowMode::Auto, 0, bs}, "pJDS b_r 32, blocks of " + std::to_string(bs), false, vals, dx, dy, dxf, dyf);
    for (void *p : std::initializer_list<void *>{drowptr, dcolidx, dvals, dx, dy, dvalsf, dxf, dyf}) cudaFree(p);
    return;
  }
  BenchFormat(a, {Kind::JDS, kDefaultBlockRows, LongRowMode::Auto, 0}, "JDS", false, vals, dx, dy, dxf, dyf);
  BenchFormat(a, {Kind::PJDS, kDefaultBlockRows, LongRowMode::Auto, 0}, "pJDS b_r 32", false, vals, dx, dy, dxf, dyf);
  for (int t : {32, 64, 128, 256, 512, 1024}) BenchFormat(a, {Kind::PJDS, kDefaultBlockRows, LongRowMode::Split, t}, "pJDS b_r 32, split at " + std::to_string(t), true, vals, dx, dy, dxf, dyf);
  BenchFormat(a, {Kind::PJDS, kDefaultBlockRows, LongRowMode::JaggedOnly, 0}, "pJDS b_r 32, no long-row split", true, vals, dx, dy, dxf, dyf);
  for (void *p : std::initializer_list<void *>{drowptr, dcolidx, dvals, dx, dy, dvalsf, dxf, dyf}) cudaFree(p);
}

} // namespace

/* bench_jaggedkernels [blocked]: every matrix, or only the matrices of blocks */
int main(int argc, char **argv)
{
  std::mt19937 rng(7);
  if (argc < 2 || std::string(argv[1]) != "blocked")
    for (const CSR &a : BenchMatrices(rng)) BenchMatrix(a, rng, 1);
  for (const auto &[n, bs] : std::initializer_list<std::pair<int, int>>{{63, 3}, {80, 3}, {40, 6}, {50, 4}, {100, 2}}) BenchMatrix(BlockGrid3D(n, bs), rng, bs);
  return 0;
}
