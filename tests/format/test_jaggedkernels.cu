/*
   GPU test of the jagged kernels (needs a CUDA device): on the matrices and formats of the host
   test, every kernel against the CSR reference (products, transposes, both MultAdd forms), the
   values refresh and scaling against the host twins, the diagonal exactly. Exits non-zero on failure.

     nvcc -std=c++17 -arch=sm_90 -O2 test_jaggedkernels.cu jaggedkernels.cu jaggedformat.cpp jaggedhost.cpp -o test_jaggedkernels
*/
#include "jaggedhost.hpp"
#include "jaggedkernels.cuh"
#include "test_jaggedutil.hpp"

#include <cstdlib>
#include <limits>
#include <cuda_runtime.h>

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

/* Diagonal (exact) and scaling (against the host twin) on the GPU */
template <typename MatT>
void CheckValueOps(const CSR &a, const Format &f, const gpu::DeviceFormat &d, std::mt19937 &rng, const std::string &what)
{
  using M0                      = typename Master<MatT>::type;
  const std::vector<M0>  master = MasterValues<M0>(a, rng);
  std::vector<MatT>      vals(f.nslots);
  const MatT             alpha = RandomScalar<MatT>(rng);

  FillValues(f, master.data(), vals.data());
  DeviceVector<MatT> dvals(vals), ddiag(std::vector<MatT>(a.nrows, RandomScalar<MatT>(rng)));
  CudaCheck(gpu::GetDiagonal(d, dvals.get(), ddiag.get(), 0), "GetDiagonal");
  JAGGED_CHECK(ddiag.download() == CSRDiagonal(a, Convert<MatT>(master)), "%s: diagonal differs", what.c_str());
  CudaCheck(gpu::Scale(d, dvals.get(), alpha, 0), "Scale");
  host::Scale(f, vals.data(), alpha);
  const double diff = RelativeDifference(dvals.download(), vals);
  JAGGED_CHECK(diff <= 4 * std::numeric_limits<typename Real<MatT>::type>::epsilon(), "%s: scaled values differ by %g", what.c_str(), diff);
}

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
  CheckProducts<double, double>(a, f, d, rng, what + " <double>");
  CheckProducts<float, float>(a, f, d, rng, what + " <float>");
  CheckProducts<float, double>(a, f, d, rng, what + " <float, double>");
  CheckProducts<std::complex<double>, std::complex<double>>(a, f, d, rng, what + " <complex>");
  CheckProducts<std::complex<float>, std::complex<float>>(a, f, d, rng, what + " <complex float>");
  CheckProducts<std::complex<float>, std::complex<double>>(a, f, d, rng, what + " <complex float, complex>");
  CheckValueOps<double>(a, f, d, rng, what + " <double>");
  CheckValueOps<float>(a, f, d, rng, what + " <float>");
  CheckValueOps<std::complex<double>>(a, f, d, rng, what + " <complex>");
  CheckValueOps<std::complex<float>>(a, f, d, rng, what + " <complex float>");
  CudaCheck(gpu::DeviceFormatDestroy(&d), "DeviceFormatDestroy");
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

} // namespace

int main()
{
  std::mt19937 rng(20240611);
  int          nbuilt = 0;

  for (const CSR &a : TestMatrices(rng)) {
    for (const Options &o : TestOptions()) {
      CheckMatrix(a, o, rng);
      nbuilt++;
    }
  }
  CheckDiagonalTables(rng);
  std::printf("test_jaggedkernels: %d matrix/format combinations (+14 diagonal-table cases), %d failures\n", nbuilt, failures);
  return failures ? 1 : 0;
}
