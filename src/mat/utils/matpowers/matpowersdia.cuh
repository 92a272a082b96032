/*
   What the DIA kernels of MatPowers share (matpowersdia.cu: the copy and its fused step; matpowersdiaentries.cu:
   a copy's own rows found and filled on the GPU from A's blocks): the device scalar, the diagonals' offsets as a kernel argument,
   the diagonal of an offset, the launch size.
*/
#pragma once

#include "matpowersimpl.h"
#include <petscjagged/private/jaggeddevicescalar.cuh>

#if defined(PETSC_USE_COMPLEX)
using MatPowersDS = cuda::std::complex<double>;
#else
using MatPowersDS = double;
#endif

/* the offsets of a DIA copy, by value */
struct MatPowersOffsets {
  int n, off[MAT_DIA_MAX];
};

static inline MatPowersOffsets MatPowersToOffsets(const MatPowers mpk)
{
  MatPowersOffsets o;

  o.n = (int)mpk->ndiag;
  for (PetscInt d = 0; d < mpk->ndiag; d++) o.off[d] = (int)mpk->offset[d];
  return o;
}

/* the diagonal d of the entry (i, i + off[d]): binary search (the offset must be one of o.off) */
__host__ __device__ inline int MatPowersDiagonalOf(const MatPowersOffsets &o, PetscInt off)
{
  int lo = 0, hi = o.n - 1;

  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (o.off[mid] < off) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* thread blocks of 256 for n rows, at most 8192 (grid-stride loops) */
static inline unsigned MatPowersBlocks(PetscInt n)
{
  return (unsigned)PetscMax(1, PetscMin((n + 255) / 256, (PetscInt)8192));
}
