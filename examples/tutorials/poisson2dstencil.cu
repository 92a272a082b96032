/* The CUDA kernels of the 5-point stencil product and its host reference twin (see poisson2dstencil.h) */
#include "poisson2dstencil.h"
#include <petscdevice_cuda.h>
#include <cuda/std/complex>

namespace {

#if defined(PETSC_USE_COMPLEX)
using D = cuda::std::complex<double>;
using F = cuda::std::complex<float>;
#else
using D = double;
using F = float;
#endif

constexpr int kTileX = 32, kTileY = 8;

/* y at owned point (i, j) from x at c (x's entry of the point), row length ld */
template <typename T>
__host__ __device__ inline T Point(const Poisson2DBlock &b, int i, int j, const T *c, int ld)
{
  T s = T(0);

  if (j > 0) s -= c[-ld];
  if (i > 0) s -= c[-1];
  s += T(4) * c[0];
  if (i < b.N - 1) s -= c[1];
  if (j < b.N - 1) s -= c[ld];
  return s;
}

template <typename T>
__global__ void GlobalKernel(const Poisson2DBlock b, const T *__restrict__ x, T *__restrict__ y)
{
  const int i = (int)b.xs + blockIdx.x * kTileX + threadIdx.x, j = (int)b.ys + blockIdx.y * kTileY + threadIdx.y;

  if (i >= b.xs + b.xm || j >= b.ys + b.ym) return;
  y[(i - b.xs) + (j - b.ys) * b.xm] = Point(b, i, j, x + (i - b.gxs) + (j - b.gys) * b.gxm, (int)b.gxm);
}

/* a kTileX x kTileY tile of points and its one-point halo in shared memory, then the same sum */
template <typename T>
__global__ void SharedKernel(const Poisson2DBlock b, const T *__restrict__ x, T *__restrict__ y)
{
  __shared__ T  tile[kTileY + 2][kTileX + 2];
  const int     i0 = (int)b.xs + blockIdx.x * kTileX, j0 = (int)b.ys + blockIdx.y * kTileY;
  const int     i = i0 + threadIdx.x, j = j0 + threadIdx.y;
  constexpr int ld = kTileX + 2;

  /* the tile with its halo, loaded by the block's threads in turn; points outside x's storage (never read) stay 0 */
  for (int k = threadIdx.y * kTileX + threadIdx.x; k < (kTileX + 2) * (kTileY + 2); k += kTileX * kTileY) {
    const int li = i0 - 1 + k % ld - (int)b.gxs, lj = j0 - 1 + k / ld - (int)b.gys;

    tile[k / ld][k % ld] = li >= 0 && li < b.gxm && lj >= 0 && lj < b.gym ? x[li + lj * b.gxm] : T(0);
  }
  __syncthreads();
  if (i >= b.xs + b.xm || j >= b.ys + b.ym) return;
  y[(i - b.xs) + (j - b.ys) * b.xm] = Point(b, i, j, &tile[threadIdx.y + 1][threadIdx.x + 1], ld);
}

template <typename T>
PetscErrorCode Launch(const Poisson2DBlock &b, Poisson2DKernel kernel, const void *x, void *y)
{
  cudaStream_t stream;
  const dim3   block(kTileX, kTileY), grid((unsigned)PetscMax((b.xm + kTileX - 1) / kTileX, 1), (unsigned)PetscMax((b.ym + kTileY - 1) / kTileY, 1));

  PetscFunctionBegin;
  if (!b.xm || !b.ym) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  if (kernel == POISSON2D_GLOBAL) GlobalKernel<T><<<grid, block, 0, stream>>>(b, static_cast<const T *>(x), static_cast<T *>(y));
  else SharedKernel<T><<<grid, block, 0, stream>>>(b, static_cast<const T *>(x), static_cast<T *>(y));
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename T>
void Host(const Poisson2DBlock &b, const T *x, T *y)
{
  for (PetscInt j = b.ys; j < b.ys + b.ym; j++)
    for (PetscInt i = b.xs; i < b.xs + b.xm; i++) y[(i - b.xs) + (j - b.ys) * b.xm] = Point(b, (int)i, (int)j, x + (i - b.gxs) + (j - b.gys) * b.gxm, (int)b.gxm);
}

} // namespace

void Poisson2DStencilHost(const Poisson2DBlock *b, PetscBool single, const void *x, void *y)
{
  if (single) Host(*b, static_cast<const F *>(x), static_cast<F *>(y));
  else Host(*b, static_cast<const D *>(x), static_cast<D *>(y));
}

PetscErrorCode Poisson2DStencilDevice(const Poisson2DBlock *b, Poisson2DKernel kernel, PetscBool single, const void *x, void *y)
{
  PetscFunctionBegin;
  if (single) PetscCall(Launch<F>(*b, kernel, x, y));
  else PetscCall(Launch<D>(*b, kernel, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode Poisson2DMultSingleDevice(Mat A, PetscInt n, const PetscJaggedScalarSingle xs[], PetscJaggedScalarSingle ys[])
{
  PetscJaggedScalarSingle *d;
  const size_t             bytes = sizeof(PetscJaggedScalarSingle) * PetscMax(n, 1);

  PetscFunctionBegin;
  PetscCallCUDA(cudaMalloc((void **)&d, 2 * bytes));
  PetscCallCUDA(cudaMemcpy(d, xs, sizeof(PetscJaggedScalarSingle) * n, cudaMemcpyHostToDevice));
  PetscCall(MatJaggedMultSingle(A, d, d + PetscMax(n, 1)));
  PetscCallCUDA(cudaDeviceSynchronize());
  PetscCallCUDA(cudaMemcpy(ys, d + PetscMax(n, 1), sizeof(PetscJaggedScalarSingle) * n, cudaMemcpyDeviceToHost));
  PetscCallCUDA(cudaFree(d));
  PetscFunctionReturn(PETSC_SUCCESS);
}
