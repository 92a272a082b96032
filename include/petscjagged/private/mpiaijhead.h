/*
   MatCOOStruct_MPIAIJ of PETSc's src/mat/impls/aij/mpi/mpiaij.h, which PETSc does not install: the map of COO entries that
   MATMPIAIJ's MatSetPreallocationCOO() makes and composes on the matrix as "__PETSc_MatCOOStruct_Host" (read by the MPI jagged
   types to sum values in GPU memory on the GPU, mpijaggedcoo.cu). Copied from PETSc 3.26, the minor version jaggedinit.c also
   requires; MatMPIJaggedCOOCheck() checks it against the blocks at each preallocation.
*/
#pragma once

#include <petscsf.h>

#if PETSC_VERSION_MAJOR != 3 || PETSC_VERSION_MINOR != 26
  #error "mpiaijhead.h copies MatCOOStruct_MPIAIJ of PETSc 3.26: compare it with src/mat/impls/aij/mpi/mpiaij.h of this PETSc"
#endif

/*
   Entry k of MatSetValuesCOO()'s v[]: local ones summed into nonzero i of the diagonal block A for k in Aperm1[Ajmap1[i] ..
   Ajmap1[i + 1]) (B, the off-diagonal block, the same); those of rows of other processes packed into sendbuf[t] = v[Cperm1[t]]
   and sent through sf (leaves) to recvbuf (roots) of their owners, which add recvbuf[Aperm2[k]], k in [Ajmap2[i], Ajmap2[i + 1]),
   to nonzero Aimap2[i] of A (B the same)
*/
typedef struct {
  PetscCount   n;
  PetscSF      sf;
  PetscCount   Annz, Bnnz;
  PetscCount   Annz2, Bnnz2;
  PetscCount   Atot1, Atot2, Btot1, Btot2;
  PetscCount  *Ajmap1, *Aperm1;
  PetscCount  *Bjmap1, *Bperm1;
  PetscCount  *Aimap2, *Ajmap2, *Aperm2;
  PetscCount  *Bimap2, *Bjmap2, *Bperm2;
  PetscCount  *Cperm1;
  PetscScalar *sendbuf, *recvbuf;
  PetscInt     sendlen, recvlen;
} MatMPIAIJCOOHead;
