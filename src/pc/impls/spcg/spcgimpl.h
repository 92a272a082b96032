/*
   Private header of PCSPCG: the host inner loop (spcg.c, the reference) and the device inner loop
   (spcgdevice.cu) share this state.
*/
#pragma once

#include <petsc/private/pcimpl.h>
#include <petscjagged.h>

typedef struct _n_PCSPCGDevice *PCSPCGDevice;

/* continuation stops when |beta r'p_last| exceeds this fraction of r'z (see PCApply_SPCG()) */
#define PCSPCG_CONT_DRIFT 1e-4 /* the device inner loop's state (spcgdevice.cu) */

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
  Mat                      A;      /* operator with the single-precision copy: Pmat itself, or a private jagged copy (NULL with csra) */
  PetscBool                own;
  const PetscInt          *csri, *csrj; /* or a sequential AIJ Pmat's own CSR indices (host or device) ... */
  PetscJaggedScalarSingle *csra;        /* ... with its values in single precision (host or device) */
  PetscInt                 csrnnz;
  PetscBool                csrdevice;
  PetscInt                 n;
  PetscJaggedScalarSingle *x, *r, *z, *p, *q, *dinv; /* host loop */
  PCSPCGDevice             dev;                      /* device loop, when the operator's vectors are CUDA vectors */
  PetscInt                 napply, ninner, nindefinite; /* statistics since PCSetUp() (device loop: see PCSPCGDeviceGetStatistics()) */

  /* set by the outer KSPMPCG for each solve (PCSPCGSetOuterState()) */
  PetscBool   cont;      /* continue the inner search direction from one application to the next */
  PetscReal   target;    /* residual norm the outer iteration has to reach (0: unknown) */
  PetscBool   havedir;   /* host loop: p and rzlast hold the last direction of the previous application */
  PetscBool   contoff;   /* host loop: continuation stopped for this solve (the directions drift) */
  PetscScalar rzlast;    /* host loop: r'z of that direction */
  PetscReal   rnormlast; /* ||r|| given to the previous application */
} PC_SPCG;

PETSC_INTERN PetscErrorCode PCSPCGSetFromOptionsInner(PC);
PETSC_INTERN PetscErrorCode PCSPCGSetOuterState(PC, PetscBool, PetscReal);
PETSC_INTERN PetscReal      PCSPCGInnerTolerance(PC, PetscReal);
PETSC_INTERN PetscErrorCode PCSPCGDeviceForgetDirection(PC);
PETSC_INTERN PetscErrorCode PCSPCGCSRCreateDevice(PC, Mat);
PETSC_INTERN PetscErrorCode PCSPCGCSRDestroyDevice(PC);
PETSC_INTERN PetscErrorCode PCSPCGDeviceCreate(PC, Vec, PCSPCGDevice *);
PETSC_INTERN PetscErrorCode PCSPCGDeviceApply(PC, Vec, PetscReal, PetscReal, Vec);
PETSC_INTERN PetscErrorCode PCSPCGDeviceGetStatistics(PC, PetscInt *, PetscInt *, PetscInt *);
PETSC_INTERN PetscErrorCode PCSPCGDeviceDestroy(PCSPCGDevice *);
