/*
   Private header of PCSPCG: the host inner loop (spcg.c, the reference) and the device inner loop
   (spcgdevice.cu) share this state.
*/
#pragma once

#include <petsc/private/pcimpl.h>
#include <petscjagged.h>

typedef struct _n_PCSPCGDevice *PCSPCGDevice; /* the device inner loop's state (spcgdevice.cu) */

typedef struct {
  PetscInt                 max_it; /* inner iterations */
  PetscReal                rtol;   /* stop earlier at this relative reduction (0: never) */
  PetscBool                jacobi; /* -pc_spcg_jacobi: Jacobi preconditioning inside the inner CG */
  PC                       inner;  /* the inner CG's preconditioner given by PCSPCGSetInnerPC(), or NULL */
  PetscBool                diag;   /* resolved at set-up: Jacobi in single precision inside the inner loop */
  PetscBool                fixdiag; /* ... replacing zero diagonal entries by 1 (as the inner PCJACOBI does) */
  PC                       other;  /* resolved at set-up: inner, applied in double precision (not none or Jacobi) */
  Vec                      wr, wz; /* double-precision vectors for other: the inner residual and its preconditioned form */
  PetscBool                graph;  /* device loop on one process: replay it as a CUDA graph */
  Mat                      A;      /* operator with the single-precision copy: Pmat itself, or a private jagged copy */
  PetscBool                own;
  PetscInt                 n;
  PetscJaggedScalarSingle *x, *r, *z, *p, *q, *dinv; /* host loop */
  PCSPCGDevice             dev;                      /* device loop, when the operator's vectors are CUDA vectors */
  PetscInt                 napply, ninner, nindefinite; /* statistics since PCSetUp() (device loop: see PCSPCGDeviceGetStatistics()) */
} PC_SPCG;

PETSC_INTERN PetscErrorCode PCSPCGSetFromOptionsInner(PC);
PETSC_INTERN PetscErrorCode PCSPCGDeviceCreate(PC, Vec, PCSPCGDevice *);
PETSC_INTERN PetscErrorCode PCSPCGDeviceApply(PC, Vec, PetscReal, Vec);
PETSC_INTERN PetscErrorCode PCSPCGDeviceGetStatistics(PC, PetscInt *, PetscInt *, PetscInt *);
PETSC_INTERN PetscErrorCode PCSPCGDeviceDestroy(PCSPCGDevice *);
