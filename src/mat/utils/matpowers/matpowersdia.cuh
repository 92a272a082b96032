/*
   What the DIA kernels of MatPowers share (matpowersdia.cu: the copy and its fused step; matpowersdiaentries.cu:
   a copy's own rows found and filled on the GPU from A's blocks): the diagonals' offsets as a kernel argument and the
   diagonal of an offset (the device scalar and the launch size are diaentries.cuh's).
*/
#pragma once

#include "matpowersimpl.h"
#include <petscjagged/private/diaentries.cuh> /* MatDIADS, the device scalar; MatDIABlocks(), the launch size */

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
