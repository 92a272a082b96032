/*
   What the DIA kernels of MatPowers share (matpowersdia.cu: the copy and its fused step; matpowersdiaentries.cu:
   a copy's own rows found and filled on the GPU from A's blocks): the copy's offsets as a kernel argument (the offsets'
   type, the diagonal of an offset, the device scalar and the launch size are diaentries.cuh's).
*/
#pragma once

#include "matpowersimpl.h"
#include <petscjagged/private/diaentries.cuh>

/* the offsets of mpk's DIA copy */
static inline MatDIAOffsets MatPowersToOffsets(const MatPowers mpk)
{
  MatDIAOffsets o;

  o.n = (int)mpk->ndiag;
  for (PetscInt d = 0; d < mpk->ndiag; d++) o.off[d] = (int)mpk->offset[d];
  return o;
}
