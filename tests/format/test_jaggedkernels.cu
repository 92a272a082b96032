/*
   GPU test of the jagged kernels (needs a CUDA device): on the matrices and formats of the host
   test, every kernel against the CSR reference (products, transposes, both MultAdd forms), the
   values refresh and scaling against the host twins, the diagonal exactly. The format built on
   the GPU (BuildDeviceFormat()) against BuildFormat() + DeviceFormatCreate(), every array and
   scalar exactly, on those matrices and on random ones up to 100000 rows, and its products against
   the CSR reference and the host twins. Exits non-zero on failure.

     nvcc -std=c++17 -arch=sm_90 -O2 test_jaggedkernels.cu jaggedkernels.cu jaggedbuild.cu jaggedformat.cpp jaggedhost.cpp -o test_jaggedkernels
*/
#include <petscjagged/private/jaggedbuild.cuh>
#include <petscjagged/private/jaggedhost.hpp>
#include <petscjagged/private/jaggedkernels.cuh>
#include <petscjagged/private/jaggedpacked.hpp>
#include "test_jaggedutil.hpp"

#include <cstdlib>
#include <limits>
#include <unordered_set>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

int jagged::test::failures = 0;

namespace {

using namespace jagged;
using namespace jagged::test;

void CudaCheck(cudaError_t err, const char *what)
{
  if (err == cudaSuccess) return;
  std::printf("CUDA error in %s: %s\n", what, cudaGetErrorString(err));
  std::exit(2);
}

/* A device copy of a host vector */
template <typename T>
class DeviceVector {
public:
  explicit DeviceVector(const std::vector<T> &host) : n_(host.size())
  {
    CudaCheck(cudaMalloc(&p_, std::max<size_t>(n_, 1) * sizeof(T)), "cudaMalloc");
    if (n_) CudaCheck(cudaMemcpy(p_, host.data(), n_ * sizeof(T), cudaMemcpyHostToDevice), "upload");
  }
  DeviceVector(const DeviceVector &)            = delete;
  DeviceVector &operator=(const DeviceVector &) = delete;
  ~DeviceVector() { cudaFree(p_); }
  T             *get() { return p_; }
  std::vector<T> download() const
  {
    std::vector<T> host(n_);
    CudaCheck(cudaDeviceSynchronize(), "kernel");
    if (n_) CudaCheck(cudaMemcpy(host.data(), p_, n_ * sizeof(T), cudaMemcpyDeviceToHost), "download");
    return host;
  }

private:
  T     *p_ = nullptr;
  size_t n_;
};

/* Products on the GPU against CSR; values filled by the GPU refresh and compared with FillValues */
template <typename MatT, typename VecT>
void CheckProducts(const CSR &a, const Format &f, const gpu::DeviceFormat &d, std::mt19937 &rng, const std::string &what)
{
  using M0                       = typename Master<MatT>::type;
  const double            tol    = Tolerance<VecT>();
  const std::vector<M0>   master = MasterValues<M0>(a, rng);
  const std::vector<MatT> csr    = Convert<MatT>(master);
  std::vector<MatT>       vals(f.nslots);
  const std::vector<VecT> x = RandomVector<VecT>(a.ncols, rng), xt = RandomVector<VecT>(a.nrows, rng);
  const std::vector<VecT> w = RandomVector<VecT>(a.nrows, rng), wt = RandomVector<VecT>(a.ncols, rng);
  DeviceVector<M0>        dmaster(master);
  DeviceVector<MatT>      dcsr(csr), dvals(std::vector<MatT>(f.nslots, RandomScalar<MatT>(rng)));
  DeviceVector<VecT>      dx(x), dxt(xt), dw(w), dwt(wt), dy(std::vector<VecT>(a.nrows)), dyt(std::vector<VecT>(a.ncols));
  DeviceVector<VecT>      dyw(w), dytw(wt);
  double                  err;

  FillValues(f, master.data(), vals.data());
  CudaCheck(gpu::RefreshValues(d, dcsr.get(), dvals.get(), 0), "RefreshValues");
  JAGGED_CHECK(dvals.download() == vals, "%s: refresh from CSR of the same type differs", what.c_str());
  CudaCheck(gpu::RefreshValues(d, dmaster.get(), dvals.get(), 0), "RefreshValues");
  JAGGED_CHECK(dvals.download() == vals, "%s: refresh from the double CSR differs", what.c_str());

  CudaCheck(gpu::Mult(d, dvals.get(), dx.get(), dy.get(), 0), "Mult");
  err = RelativeError(dy.download(), CSRMult(a, csr, x, {}, false));
  JAGGED_CHECK(err <= tol, "%s: Mult error %g", what.c_str(), err);
  CudaCheck(gpu::MultAdd(d, dvals.get(), dx.get(), dw.get(), dy.get(), 0), "MultAdd");
  err = RelativeError(dy.download(), CSRMult(a, csr, x, w, false));
  JAGGED_CHECK(err <= tol, "%s: MultAdd error %g", what.c_str(), err);
  CudaCheck(gpu::MultAdd(d, dvals.get(), dx.get(), dyw.get(), dyw.get(), 0), "MultAdd");
  err = RelativeError(dyw.download(), CSRMult(a, csr, x, w, false));
  JAGGED_CHECK(err <= tol, "%s: MultAdd (w = y) error %g", what.c_str(), err);
  CudaCheck(gpu::MultTranspose(d, dvals.get(), dxt.get(), dyt.get(), 0), "MultTranspose");
  err = RelativeError(dyt.download(), CSRMult(a, csr, xt, {}, true));
  JAGGED_CHECK(err <= tol, "%s: MultTranspose error %g", what.c_str(), err);
  CudaCheck(gpu::MultTransposeAdd(d, dvals.get(), dxt.get(), dwt.get(), dyt.get(), 0), "MultTransposeAdd");
  err = RelativeError(dyt.download(), CSRMult(a, csr, xt, wt, true));
  JAGGED_CHECK(err <= tol, "%s: MultTransposeAdd error %g", what.c_str(), err);
  CudaCheck(gpu::MultTransposeAdd(d, dvals.get(), dxt.get(), dytw.get(), dytw.get(), 0), "MultTransposeAdd");
  err = RelativeError(dytw.download(), CSRMult(a, csr, xt, wt, true));
  JAGGED_CHECK(err <= tol, "%s: MultTransposeAdd (w = y) error %g", what.c_str(), err);
}

/* The CSR column indices scattered back on the GPU (ScatterColumns()): the pattern's, as the host twin's */
void CheckColumns(const CSR &a, const Format &f, const gpu::DeviceFormat &d, const std::string &what)
{
  std::vector<int>  cols(a.colidx.size(), -1);
  DeviceVector<int> dcols(cols);

  CudaCheck(gpu::ScatterColumns(d, dcols.get(), 0), "ScatterColumns");
  ScatterColumns(f, cols.data());
  JAGGED_CHECK(cols == a.colidx, "%s: host scatter of the columns differs from the CSR pattern", what.c_str());
  JAGGED_CHECK(dcols.download() == cols, "%s: GPU scatter of the columns differs from the host twin", what.c_str());
}

/* Diagonal (exact), the scatter back to CSR order (exact, against the host twin) and scaling (against the host twin) on the GPU */
template <typename MatT>
void CheckValueOps(const CSR &a, const Format &f, const gpu::DeviceFormat &d, std::mt19937 &rng, const std::string &what)
{
  using M0                      = typename Master<MatT>::type;
  const std::vector<M0>  master = MasterValues<M0>(a, rng);
  std::vector<MatT>      vals(f.nslots), back(master.size(), RandomScalar<MatT>(rng));
  const MatT             alpha = RandomScalar<MatT>(rng);

  FillValues(f, master.data(), vals.data());
  DeviceVector<MatT> dvals(vals), ddiag(std::vector<MatT>(a.nrows, RandomScalar<MatT>(rng))), dback(back);
  CudaCheck(gpu::ScatterValues(d, dvals.get(), dback.get(), 0), "ScatterValues");
  ScatterValues(f, vals.data(), back.data());
  JAGGED_CHECK(back == Convert<MatT>(master), "%s: host scatter to CSR order differs from the CSR values", what.c_str());
  JAGGED_CHECK(dback.download() == back, "%s: GPU scatter to CSR order differs from the host twin", what.c_str());
  CudaCheck(gpu::GetDiagonal(d, dvals.get(), ddiag.get(), 0), "GetDiagonal");
  JAGGED_CHECK(ddiag.download() == CSRDiagonal(a, Convert<MatT>(master)), "%s: diagonal differs", what.c_str());
  CudaCheck(gpu::Scale(d, dvals.get(), alpha, 0), "Scale");
  host::Scale(f, vals.data(), alpha);
  const double diff = RelativeDifference(dvals.download(), vals);
  JAGGED_CHECK(diff <= 4 * std::numeric_limits<typename Real<MatT>::type>::epsilon(), "%s: scaled values differ by %g", what.c_str(), diff);
}

/* Products of the GPU-built format d against the host twins on the host-built f, measured like errors against CSR */
template <typename MatT, typename VecT>
void CheckHostTwins(const CSR &a, const Format &f, const gpu::DeviceFormat &d, std::mt19937 &rng, const std::string &what)
{
  const std::vector<MatT> csr = Convert<MatT>(MasterValues<typename Master<MatT>::type>(a, rng));
  const std::vector<VecT> x = RandomVector<VecT>(a.ncols, rng), xt = RandomVector<VecT>(a.nrows, rng);
  std::vector<MatT>       vals(f.nslots);
  std::vector<VecT>       y(a.nrows), yt(a.ncols);
  DeviceVector<MatT>      dcsr(csr), dvals(vals);
  DeviceVector<VecT>      dx(x), dxt(xt), dy(y), dyt(yt);

  FillValues(f, csr.data(), vals.data());
  host::Mult(f, vals.data(), x.data(), y.data());
  host::MultTranspose(f, vals.data(), xt.data(), yt.data());
  CudaCheck(gpu::RefreshValues(d, dcsr.get(), dvals.get(), 0), "RefreshValues");
  CudaCheck(gpu::Mult(d, dvals.get(), dx.get(), dy.get(), 0), "Mult");
  CudaCheck(gpu::MultTranspose(d, dvals.get(), dxt.get(), dyt.get(), 0), "MultTranspose");
  Reference<VecT> ref = CSRMult(a, csr, x, {}, false), reft = CSRMult(a, csr, xt, {}, true);
  std::copy(y.begin(), y.end(), ref.value.begin());
  std::copy(yt.begin(), yt.end(), reft.value.begin());
  const double err = RelativeError(dy.download(), ref), errt = RelativeError(dyt.download(), reft);
  JAGGED_CHECK(err <= Tolerance<VecT>() && errt <= Tolerance<VecT>(), "%s: products differ from the host twins by %g, transpose %g", what.c_str(), err, errt);
}

/* The index arrays of d, of the sizes the format f gives, in storage order */
std::vector<std::vector<int>> DownloadArrays(const Format &f, const gpu::DeviceFormat &d)
{
  const int   *array[gpu::kDeviceFormatArrays] = {d.perm, d.rowlen, d.diagstart, d.colidx, d.long_rows, d.long_rowptr, d.long_colidx, d.long_chunkptr, d.valmap};
  const size_t size[gpu::kDeviceFormatArrays]  = {static_cast<size_t>(f.nsorted), static_cast<size_t>(f.nsorted), f.ndiag + 1ULL, static_cast<size_t>(f.nstored), static_cast<size_t>(f.nlong), f.nlong + 1ULL, static_cast<size_t>(f.long_nnz), f.nlong_block + 1ULL, static_cast<size_t>(f.nslots)};
  std::vector<std::vector<int>> host(gpu::kDeviceFormatArrays);

  CudaCheck(cudaDeviceSynchronize(), "build");
  for (int k = 0; k < gpu::kDeviceFormatArrays; ++k) {
    host[k].resize(size[k]);
    if (size[k]) CudaCheck(cudaMemcpy(host[k].data(), array[k], size[k] * sizeof(int), cudaMemcpyDeviceToHost), "download");
  }
  return host;
}

/* The summary s and device format built has the scalars and arrays of the host-built f and its upload ref */
void CompareBuilds(const Format &f, const gpu::DeviceFormat &ref, const Format &s, const gpu::DeviceFormat &built, const std::string &what)
{
  const char *names[gpu::kDeviceFormatArrays] = {"perm", "rowlen", "diagstart", "colidx", "long_rows", "long_rowptr", "long_colidx", "long_chunkptr", "valmap"};
  const int   fs[] = {static_cast<int>(f.kind), f.block_rows, f.nrows, f.ncols, f.nnz, f.maxrowlen, f.nsorted, f.ndiag, f.nstored, f.long_threshold, f.nlong, f.nlong_block, f.long_nnz, f.nslots};
  const int   ss[] = {static_cast<int>(s.kind), s.block_rows, s.nrows, s.ncols, s.nnz, s.maxrowlen, s.nsorted, s.ndiag, s.nstored, s.long_threshold, s.nlong, s.nlong_block, s.long_nnz, s.nslots};
  const int   ds[] = {ref.nrows, ref.ncols, ref.nsorted, ref.ndiag, ref.nstored, ref.nlong, ref.nlong_block, ref.nchunks, ref.nslots};
  const int   bs[] = {built.nrows, built.ncols, built.nsorted, built.ndiag, built.nstored, built.nlong, built.nlong_block, built.nchunks, built.nslots};

  for (size_t k = 0; k < sizeof(fs) / sizeof(fs[0]); ++k) JAGGED_CHECK(fs[k] == ss[k], "%s: summary scalar %zu is %d, not %d", what.c_str(), k, ss[k], fs[k]);
  JAGGED_CHECK(s.perm.empty() && s.rowlen.empty() && s.diagstart.empty() && s.colidx.empty() && s.long_rows.empty() && s.long_rowptr.empty() && s.long_colidx.empty() && s.valmap.empty(), "%s: summary has vectors", what.c_str());
  for (size_t k = 0; k < sizeof(ds) / sizeof(ds[0]); ++k) JAGGED_CHECK(ds[k] == bs[k], "%s: device scalar %zu is %d, not %d", what.c_str(), k, bs[k], ds[k]);
  JAGGED_CHECK(built.diagstart_host == ref.diagstart_host, "%s: host diagonal starts differ", what.c_str());
  const std::vector<std::vector<int>> a = DownloadArrays(f, ref), b = DownloadArrays(f, built);
  for (int k = 0; k < gpu::kDeviceFormatArrays; ++k) JAGGED_CHECK(a[k] == b[k], "%s: %s differs", what.c_str(), names[k]);
}

/* The format built on the GPU against the host build and its upload, then its kernels */
void CheckDeviceBuild(const CSR &a, const Options &o, std::mt19937 &rng)
{
  const std::string what = a.name + ", " + Describe(o) + ", GPU build";
  Format            f, s;
  gpu::DeviceFormat ref, built;
  DeviceVector<int> drowptr(a.rowptr), dcolidx(a.colidx);
  cudaError_t       err;

  const Status hs = BuildFormat(a.nrows, a.ncols, a.rowptr.data(), a.colidx.data(), o, &f);
  const Status ds = gpu::BuildDeviceFormat(a.nrows, a.ncols, drowptr.get(), dcolidx.get(), o, &s, &built, 0, &err);
  CudaCheck(err, "BuildDeviceFormat");
  JAGGED_CHECK(ds == hs, "%s: status %s, host %s", what.c_str(), StatusString(ds), StatusString(hs));
  if (hs != Status::Success || ds != Status::Success) {
    CudaCheck(gpu::DeviceFormatDestroy(&built), "DeviceFormatDestroy");
    return;
  }
  CudaCheck(gpu::DeviceFormatCreate(f, &ref, 0), "DeviceFormatCreate");
  CompareBuilds(f, ref, s, built, what);
  CheckProducts<double, double>(a, f, built, rng, what + " <double>");
  CheckProducts<std::complex<float>, std::complex<double>>(a, f, built, rng, what + " <complex float, complex>");
  CheckColumns(a, f, built, what);
  CheckValueOps<double>(a, f, built, rng, what + " <double>");
  CheckHostTwins<double, double>(a, f, built, rng, what + " <double>");
  CheckHostTwins<std::complex<float>, std::complex<float>>(a, f, built, rng, what + " <complex float>");
  CheckHostTwins<Half, float>(a, f, built, rng, what + " <half, float>");
  CudaCheck(gpu::DeviceFormatDestroy(&ref), "DeviceFormatDestroy");
  CudaCheck(gpu::DeviceFormatDestroy(&built), "DeviceFormatDestroy");
}

/*
   Packed half storage on the GPU against its host twins: the packed pattern of the device CSR (every array), the format built on the
   GPU from it (as from any pattern), the words and first columns bit for bit, and the packed product
*/
void CheckPacked(std::mt19937 &rng)
{
  int ncombinations = 0;

  for (const CSR &a : PackedTestMatrices(rng)) {
    PackedPattern            p;
    gpu::DevicePackedPattern dp;
    DeviceVector<int>        drowptr(a.rowptr), dcolidx(a.colidx);
    cudaError_t              err;

    JAGGED_CHECK(PackPattern(a.nrows, a.rowptr.data(), a.colidx.data(), &p) == Status::Success, "%s: PackPattern", a.name.c_str());
    JAGGED_CHECK(gpu::PackPattern(a.nrows, drowptr.get(), dcolidx.get(), &dp, 0, &err) == Status::Success, "%s: gpu::PackPattern", a.name.c_str());
    CudaCheck(err, "gpu::PackPattern");
    const size_t     n = p.colidx.size();
    std::vector<int> rowptr(a.nrows + 1), colidx(n), amap(n);
    CudaCheck(cudaMemcpy(rowptr.data(), dp.rowptr, sizeof(int) * rowptr.size(), cudaMemcpyDeviceToHost), "download");
    if (n) CudaCheck(cudaMemcpy(colidx.data(), dp.colidx, sizeof(int) * n, cudaMemcpyDeviceToHost), "download");
    if (n) CudaCheck(cudaMemcpy(amap.data(), dp.amap, sizeof(int) * n, cudaMemcpyDeviceToHost), "download");
    JAGGED_CHECK(dp.nescapes == p.nescapes && rowptr == p.rowptr && colidx == p.colidx && amap == p.amap, "%s: the packed pattern differs from the host's (%lld escapes, host %lld)", a.name.c_str(), dp.nescapes, p.nescapes);
    const std::vector<double> vals = MasterValues<double>(a, rng);
    const std::vector<float>  x    = RandomVector<float>(a.ncols, rng);
    std::vector<float>        hv(vals.size());
    for (size_t k = 0; k < vals.size(); ++k) hv[k] = static_cast<float>(Half(vals[k]));
    const Reference<float> ref = CSRMult(a, hv, x, {}, false); /* the product of the half values */
    DeviceVector<double>   dvals(vals);
    DeviceVector<float>    dx(x);
    for (const Options &o : {Options{Kind::PJDS, kDefaultBlockRows, LongRowMode::JaggedOnly, 0}, Options{Kind::PJDS, 7, LongRowMode::JaggedOnly, 0}, Options{Kind::JDS, kDefaultBlockRows, LongRowMode::JaggedOnly, 0}}) {
      const std::string          what = a.name + ", " + Describe(o) + ", packed";
      Format                     f, sf;
      gpu::DeviceFormat          d;
      std::vector<std::uint32_t> words(1);
      std::vector<int>           first(1);
      std::vector<float>         y(a.nrows);

      JAGGED_CHECK(BuildFormat(a.nrows, a.ncols, p.rowptr.data(), p.colidx.data(), o, &f) == Status::Success, "%s: BuildFormat", what.c_str());
      JAGGED_CHECK(gpu::BuildDeviceFormat(a.nrows, a.ncols, dp.rowptr, dp.colidx, o, &sf, &d, 0, &err) == Status::Success, "%s: BuildDeviceFormat", what.c_str());
      CudaCheck(err, "BuildDeviceFormat");
      words.resize(std::max(f.nstored, 1));
      first.resize(std::max(f.nsorted, 1));
      PackWords(f, p.amap.data(), vals.data(), words.data(), first.data());
      host::MultPacked(f, words.data(), first.data(), x.data(), y.data());
      DeviceVector<std::uint32_t> dwords(std::vector<std::uint32_t>(words.size(), 0xdeadbeefu));
      DeviceVector<int>           dfirst(std::vector<int>(first.size(), -7));
      DeviceVector<float>         dy(std::vector<float>(a.nrows, NAN));
      CudaCheck(gpu::PackWords(d, dp.amap, dvals.get(), dwords.get(), dfirst.get(), 0), "gpu::PackWords");
      JAGGED_CHECK(dwords.download() == words && (f.nsorted == 0 || dfirst.download() == first), "%s: words or first columns differ from the host twin's", what.c_str());
      CudaCheck(gpu::MultPacked(d, dwords.get(), dfirst.get(), dx.get(), dy.get(), 0), "gpu::MultPacked");
      const double herr = RelativeError(y, ref), derr = RelativeError(dy.download(), ref);
      JAGGED_CHECK(herr <= Tolerance<float>() && derr <= Tolerance<float>(), "%s: MultPacked error %g, its host twin's %g", what.c_str(), derr, herr);
      CudaCheck(gpu::DeviceFormatDestroy(&d), "DeviceFormatDestroy");
      ncombinations++;
    }
    CudaCheck(gpu::PackedPatternDestroy(&dp), "PackedPatternDestroy");
  }
  {
    Format            f;
    gpu::DeviceFormat d;
    const CSR         a = MakeCSR("40x40 long row", 40, {39, 1, 1, 1, 1, 1, 1, 1, 1, 1}, rng, true);
    JAGGED_CHECK(BuildFormat(a.nrows, a.ncols, a.rowptr.data(), a.colidx.data(), Options{Kind::PJDS, kDefaultBlockRows, LongRowMode::Split, 3}, &f) == Status::Success && f.nlong > 0, "a format with long rows");
    CudaCheck(gpu::DeviceFormatCreate(f, &d, 0), "DeviceFormatCreate");
    JAGGED_CHECK(gpu::MultPacked(d, nullptr, nullptr, nullptr, nullptr, 0) == cudaErrorInvalidValue, "MultPacked refuses a long-row part");
    cudaGetLastError();
    CudaCheck(gpu::DeviceFormatDestroy(&d), "DeviceFormatDestroy");
  }
  std::printf("test_jaggedkernels: packed half storage checked against the host twins on %d matrix/format combinations\n", ncombinations);
}

/* A format built on the host and uploaded, and built on the GPU: every product and value operation on the GPU */
void CheckMatrix(const CSR &a, const Options &o, std::mt19937 &rng)
{
  const std::string what = a.name + ", " + Describe(o);
  Format            f;
  gpu::DeviceFormat d;

  if (BuildFormat(a.nrows, a.ncols, a.rowptr.data(), a.colidx.data(), o, &f) != Status::Success) {
    JAGGED_CHECK(false, "%s: build failed", what.c_str());
    return;
  }
  CudaCheck(gpu::DeviceFormatCreate(f, &d, 0), "DeviceFormatCreate");
  CheckDeviceBuild(a, o, rng);
  CheckColumns(a, f, d, what);
  CheckProducts<double, double>(a, f, d, rng, what + " <double>");
  CheckProducts<float, float>(a, f, d, rng, what + " <float>");
  CheckProducts<float, double>(a, f, d, rng, what + " <float, double>");
  CheckProducts<std::complex<double>, std::complex<double>>(a, f, d, rng, what + " <complex>");
  CheckProducts<std::complex<float>, std::complex<float>>(a, f, d, rng, what + " <complex float>");
  CheckProducts<std::complex<float>, std::complex<double>>(a, f, d, rng, what + " <complex float, complex>");
  CheckProducts<Half, float>(a, f, d, rng, what + " <half, float>");
  CheckValueOps<double>(a, f, d, rng, what + " <double>");
  CheckValueOps<float>(a, f, d, rng, what + " <float>");
  CheckValueOps<std::complex<double>>(a, f, d, rng, what + " <complex>");
  CheckValueOps<std::complex<float>>(a, f, d, rng, what + " <complex float>");
  CudaCheck(gpu::DeviceFormatDestroy(&d), "DeviceFormatDestroy");
}

/* A CSR of the given row lengths with distinct sorted random columns (Floyd's sampling): MakeCSR() for many rows */
CSR RandomCSR(const std::string &name, int ncols, const std::vector<int> &lengths, std::mt19937 &rng)
{
  CSR a;

  a.name  = name;
  a.nrows = static_cast<int>(lengths.size());
  a.ncols = ncols;
  for (int len : lengths) {
    std::unordered_set<int> cols;
    for (int c = ncols - std::min(len, ncols); c < ncols; ++c) {
      const int t = std::uniform_int_distribution<int>(0, c)(rng);
      cols.insert(cols.count(t) ? c : t);
    }
    const size_t start = a.colidx.size();
    a.colidx.insert(a.colidx.end(), cols.begin(), cols.end());
    std::sort(a.colidx.begin() + start, a.colidx.end());
    a.rowptr.push_back(static_cast<int>(a.colidx.size()));
  }
  return a;
}

/*
   GPU builds of random matrices: a fifth of the rows empty, the others 1-12 entries, and a few long
   rows (80 to 5000 entries: warp rows, block rows of kBlockRowMinLength and more), with the formats
   of every kind and long-row mode
*/
void CheckRandomDeviceBuilds(std::mt19937 &rng)
{
  const int long_lengths[] = {80, 500, kBlockRowMinLength - 1, kBlockRowMinLength, 3000, 5000};
  int       nbuilt         = 0;

  for (int nrows : {0, 1, 31, 32, 33, 1000, 100000}) {
    for (int trial = 0; trial < (nrows < 100000 ? 3 : 1); ++trial) {
      std::vector<int> len = UniformLengths(nrows, 1, 12, rng);
      for (int &l : len)
        if (rng() % 5 == 0) l = 0;
      for (int k = 0; nrows > 0 && k < 1 + nrows / 5000 + trial; ++k) len[rng() % nrows] = long_lengths[rng() % 6];
      const CSR a = RandomCSR("random " + std::to_string(nrows) + " rows #" + std::to_string(trial), std::max(nrows, 6000), len, rng);
      for (Kind kind : {Kind::JDS, Kind::PJDS}) {
        for (int br : {32, 7}) {
          if (kind == Kind::JDS && br != 32) continue;
          for (Options o : {Options{kind, br, LongRowMode::Auto, 0}, Options{kind, br, LongRowMode::JaggedOnly, 0}, Options{kind, br, LongRowMode::Split, 0}, Options{kind, br, LongRowMode::Split, 40}, Options{kind, br, LongRowMode::Split, kBlockRowMinLength}}) {
            CheckDeviceBuild(a, o, rng);
            nbuilt++;
          }
        }
      }
    }
  }
  std::printf("test_jaggedkernels: %d GPU builds of random matrices\n", nbuilt);
}

/* Bad options and CSR arrays give the statuses of the host build, and no device format */
void CheckDeviceBuildErrors()
{
  const std::vector<int> rowptr{0, 1, 2}, colidx{0, 1}, bad_start{1, 1, 2}, bad_order{0, 2, 1};
  const struct {
    const std::vector<int> &rowptr;
    Options                 o;
    Status                  expected;
  } cases[] = {
    {rowptr, {Kind::PJDS, 0, LongRowMode::Auto, 0}, Status::InvalidBlockRows},
    {rowptr, {Kind::PJDS, 32, LongRowMode::Split, -1}, Status::InvalidThreshold},
    {rowptr, {Kind::PJDS, 32, LongRowMode::Auto, 0, kMaxBlockSize + 1}, Status::InvalidBlockSize},
    {bad_start, Options(), Status::InvalidCSR},
    {bad_order, Options(), Status::InvalidCSR},
  };
  DeviceVector<int> dcolidx(colidx);

  for (const auto &c : cases) {
    DeviceVector<int> drowptr(c.rowptr);
    Format            s;
    gpu::DeviceFormat d;
    cudaError_t       err;
    const Status      st = gpu::BuildDeviceFormat(2, 2, drowptr.get(), dcolidx.get(), c.o, &s, &d, 0, &err);
    JAGGED_CHECK(st == c.expected && err == cudaSuccess && !d.storage, "GPU build of bad input: %s, expected %s", StatusString(st), StatusString(c.expected));
  }
}

/* Diagonal tables of every size class: ndiag around 64, 1024, 4096 and beyond (global starts) */
void CheckDiagonalTables(std::mt19937 &rng)
{
  for (int ndiag : {gpu::kMaxConstantDiagonals - 1, gpu::kMaxConstantDiagonals, gpu::kMaxConstantDiagonals + 1, 1024, 4097, 6000, 20000}) {
    std::vector<int> len = UniformLengths(300, 0, 20, rng);
    len[17]              = ndiag;
    const CSR a          = MakeCSR("ndiag " + std::to_string(ndiag), 8000, len, rng, true);
    CheckMatrix(a, {Kind::JDS, kDefaultBlockRows, LongRowMode::JaggedOnly, 0}, rng);
    CheckMatrix(a, {Kind::PJDS, kDefaultBlockRows, LongRowMode::JaggedOnly, 0}, rng);
  }
}

__global__ void ToHalfKernel(int n, const double *in, __half *out, float *back)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    out[i]  = __double2half(in[i]);
    back[i] = __half2float(out[i]);
  }
}

/*
  The host Half against CUDA's conversions, bit for bit: every half pattern widened to float, and doubles rounded to half
  across the range (subnormals, underflow, overflow, exact midpoints between neighbouring halves, random values)
*/
void CheckHalfConversions(std::mt19937 &rng)
{
  std::vector<double> in;

  for (unsigned b = 0; b < 0x10000u; ++b) {
    Half h;
    h.bits = static_cast<std::uint16_t>(b);
    in.push_back(static_cast<float>(h));
    if ((b & 0x7fffu) < 0x7bffu) {
      Half up;
      up.bits = static_cast<std::uint16_t>(b + 1);
      in.push_back((static_cast<double>(static_cast<float>(h)) + static_cast<float>(up)) / 2);
    }
  }
  std::uniform_real_distribution<double> e(-30.0, 17.0);
  for (int k = 0; k < 200000; ++k) in.push_back((rng() & 1 ? 1.0 : -1.0) * std::exp2(e(rng)));
  for (double v : {0x1p-25, 0x1.0001p-25, 65519.99, 65520.0, 1e300, -0.0}) in.push_back(v);
  const int           n = static_cast<int>(in.size());
  DeviceVector<double> din(in);
  DeviceVector<Half>   dout{std::vector<Half>(n)};
  DeviceVector<float>  dback{std::vector<float>(n)};
  ToHalfKernel<<<256, 256>>>(n, din.get(), reinterpret_cast<__half *>(dout.get()), dback.get());
  const std::vector<Half>  out  = dout.download();
  const std::vector<float> back = dback.download();
  int                      bad  = 0;
  for (int i = 0; i < n; ++i) {
    const bool same = out[i] == Half(in[i]) && (std::isnan(back[i]) ? std::isnan(static_cast<float>(out[i])) : back[i] == static_cast<float>(out[i]));
    if (!same && bad++ < 5) std::printf("half of %.17g: GPU %#x (%g), host %#x (%g)\n", in[i], (unsigned)out[i].bits, (double)back[i], (unsigned)Half(in[i]).bits, (double)static_cast<float>(Half(in[i])));
  }
  JAGGED_CHECK(bad == 0, "%d of %d conversions to half differ between the GPU and the host twin", bad, n);
  std::printf("test_jaggedkernels: %d conversions to half and back, GPU against the host twin\n", n);
}

} // namespace

/* SumCOO() on the GPU against its host twin (the same additions in the same order: equal bit for bit): into CSR order, scattered
   (entries received from other processes), a gather (packing what is sent); inserting and adding */
template <typename T>
void CheckSumCOO(std::mt19937 &rng)
{
  for (long long n : {0LL, 1LL, 17LL, 100000LL})
    for (bool one : {false, true})
      for (bool scatter : {false, true}) {
        const CooMap            m   = RandomCooMap(n, one, scatter, rng);
        const std::vector<T>    coo = RandomVector<T>(m.ncoo, rng), out0 = RandomVector<T>(m.nout, rng);
        DeviceVector<long long> dimap(m.imap), djmap(m.jmap), dperm(m.perm);
        DeviceVector<T>         dcoo(coo);
        for (bool add : {false, true}) {
          std::vector<T>  out = out0;
          DeviceVector<T> dout(out0);
          SumCOO(m.n, scatter ? m.imap.data() : nullptr, one ? nullptr : m.jmap.data(), m.perm.data(), coo.data(), out.data(), add);
          CudaCheck(gpu::SumCOO(m.n, scatter ? dimap.get() : nullptr, one ? nullptr : djmap.get(), dperm.get(), dcoo.get(), dout.get(), add, 0), "SumCOO");
          JAGGED_CHECK(dout.download() == out, "SumCOO (%lld slots, %lld COO entries, %s, %s, %s): the GPU differs from the host twin", n, m.ncoo, one ? "one a slot" : "0-3 a slot", scatter ? "scattered" : "in order", add ? "add" : "insert");
        }
      }
}

int main()
{
  std::mt19937 rng(20240611);
  int          nbuilt = 0, nblocked = 0;

  for (const CSR &a : TestMatrices(rng)) {
    for (const Options &o : TestOptions()) {
      CheckMatrix(a, o, rng);
      nbuilt++;
    }
  }
  CheckHalfConversions(rng);
  CheckPacked(rng);
  CheckDiagonalTables(rng);
  CheckRandomDeviceBuilds(rng);
  CheckDeviceBuildErrors();
  CheckSumCOO<double>(rng);
  CheckSumCOO<std::complex<double>>(rng);
  for (int bs = 2; bs <= kMaxBlockSize; ++bs)
    for (const CSR &a : BlockedTestMatrices(bs, rng))
      for (const Options &o : BlockedTestOptions(bs)) {
        CheckMatrix(a, o, rng);
        nblocked++;
      }
  std::printf("test_jaggedkernels: %d matrix/format combinations (+14 diagonal-table cases), each also built on the GPU; %d blocked ones; %d failures\n", nbuilt, nblocked, failures);
  return failures ? 1 : 0;
}
