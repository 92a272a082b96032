/*
   Shared by the kernel benches without PETSc (bench_jaggedkernels.cu, bench_packedindex.cu): a failed check ends the bench,
   and a host vector's device copy.
*/
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

namespace bench {

inline void Check(bool ok, const char *what)
{
  if (ok) return;
  std::printf("bench failed: %s\n", what);
  std::exit(2);
}

/* A device copy of h (cudaFree() it) */
template <typename T>
T *Upload(const std::vector<T> &h)
{
  T *p = nullptr;
  Check(cudaMalloc(&p, std::max<size_t>(h.size(), 1) * sizeof(T)) == cudaSuccess, "cudaMalloc");
  Check(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess, "upload");
  return p;
}

} // namespace bench
