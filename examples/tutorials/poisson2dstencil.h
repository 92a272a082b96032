/*
   The 5-point stencil product of examples/poisson2d.c (-Laplacian times h^2 on an N x N interior grid,
   zero Dirichlet values outside): y = 4 x_c - x_w - x_e - x_s - x_n, summed in the order of the
   assembled matrix's columns (south, west, centre, east, north) so that every variant rounds alike.

   The owned block [xs, xs+xm) x [ys, ys+ym) of y is computed from x stored on the ghosted block
   [gxs, gxs+gxm) x [gys, gys+gym) (a DMDA local vector; on one process the global vector itself).
   Poisson2DStencilHost() is the host reference twin of the CUDA kernels; Poisson2DStencilDevice()
   launches the global-memory kernel (one thread a point, neighbours read from global memory, the
   paper's fastest variant) or the shared-memory one (a tile and its halo staged in shared memory).
*/
#pragma once

#include <petscmat.h>
#include <petscjagged.h>

typedef struct {
  PetscInt N;                 /* grid points per direction */
  PetscInt xs, ys, xm, ym;    /* owned block */
  PetscInt gxs, gys, gxm, gym; /* ghosted block: x's storage */
} Poisson2DBlock;

typedef enum {
  POISSON2D_GLOBAL,
  POISSON2D_SHARED
} Poisson2DKernel;

/* single: x and y are PetscJaggedScalarSingle (float or complex float), else PetscScalar */
PETSC_EXTERN void           Poisson2DStencilHost(const Poisson2DBlock *, PetscBool single, const void *x, void *y);
PETSC_EXTERN PetscErrorCode Poisson2DStencilDevice(const Poisson2DBlock *, Poisson2DKernel, PetscBool single, const void *x, void *y);

/* ys = A xs through MatJaggedMultSingle() with the vectors copied to the device and back (n entries, host arrays) */
PETSC_EXTERN PetscErrorCode Poisson2DMultSingleDevice(Mat, PetscInt n, const PetscJaggedScalarSingle xs[], PetscJaggedScalarSingle ys[]);
