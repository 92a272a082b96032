/*
   Stream-ordered temporaries of the jagged core's device builds (jaggedbuild.cu, jaggedpacked.cu): device memory freed on
   scope exit, CUB's two-call algorithms, and an early return of a failed CUDA call.
*/
#pragma once

#include <algorithm>
#include <cuda_runtime_api.h>

namespace jagged {
namespace gpu {

#define JAGGED_CUDA_TRY(call) \
  do { \
    const cudaError_t err_ = (call); \
    if (err_ != cudaSuccess) return err_; \
  } while (0)

/* Stream-ordered device memory for a build's temporaries, freed on scope exit */
template <typename T>
class Scratch {
public:
  explicit Scratch(cudaStream_t stream) : stream_(stream) {}
  Scratch(const Scratch &)            = delete;
  Scratch &operator=(const Scratch &) = delete;
  ~Scratch()
  {
    if (p_) cudaFreeAsync(p_, stream_);
  }
  cudaError_t Allocate(size_t n) { return cudaMallocAsync(reinterpret_cast<void **>(&p_), std::max<size_t>(n, 1) * sizeof(T), stream_); }
  T          *get() const { return p_; }

private:
  T           *p_ = nullptr;
  cudaStream_t stream_;
};

/* A CUB device algorithm, called as algorithm(temp, bytes): once for the size, then with its temporary storage */
template <typename Algorithm>
cudaError_t RunCub(const Algorithm &algorithm, cudaStream_t stream)
{
  size_t        bytes = 0;
  Scratch<char> temp(stream);

  JAGGED_CUDA_TRY(algorithm(nullptr, bytes));
  JAGGED_CUDA_TRY(temp.Allocate(bytes));
  return algorithm(temp.get(), bytes);
}

} // namespace gpu
} // namespace jagged
