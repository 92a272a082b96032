/*
   KSPCAGMRES: private data shared by the solver (cagmres.c), the block orthogonalization
   (cagmresortho.c), the dense kernels on the basis (cagmresdense.c) and the Newton shifts
   (cagmresshifts.c).
*/
#pragma once

#include <petsc/private/kspimpl.h>
#include <petscjagged.h>

/* |R(i,i)| at most this times the norm the vector had when generated: the vector depends on the earlier ones */
#define KSP_CAGMRES_RANK_TOL 1e-12
/* REFINE_IFNEEDED: a second pass when BOrth leaves a column less than this fraction of its norm (DGKS: 1/sqrt(2)) */
#define KSP_CAGMRES_REFINE_ETA 0.70710678118654752
/* A Gram-matrix R(i,i) below this fraction of the column norm is too inaccurate: the block goes to CAQR */
#define KSP_CAGMRES_GRAM_TOL 1e-6
/* thread blocks of the inner-product kernel of cagmresgemm.cu (cagmres::kInnerBlocks): its scratch holds that many partial sums of each entry */
#define KSP_CAGMRES_INNER_BLOCKS 512
/* widest block whose V R^{-1} runs the kernel of cagmrestrsm.cu (cagmres::kSolveMaxColumns) */
#define KSP_CAGMRES_SOLVE_MAX_COLUMNS 32

typedef struct {
  /* options */
  PetscInt                         s, m;          /* block size, restart length */
  KSPCAGMRESBasis                  basis;
  KSPCAGMRESOrthogonalization      tsqr;
  KSPCAGMRESBlockOrthogonalization borth;
  PetscInt                         maxbreakdowns; /* forced restarts before KSP_DIVERGED_BREAKDOWN */

  /* set-up */
  MatPowers    mpk;
  Mat          mpkA;    /* the operator mpk was made for (a reference) */
  Mat          Q;       /* the basis, n x (m+1), MATDENSE or MATDENSECUDA */
  Vec         *qcol;    /* m+1 Vecs showing the columns of Q (arrays placed on demand) */
  PetscBool    device;  /* Q and the vectors live on a CUDA device */
  PetscScalar *dwork;    /* device scratch for the small matrices, (m+1) x (s+1) */
  PetscScalar *dpartial; /* device scratch of the inner products: KSP_CAGMRES_INNER_BLOCKS (m+1) x (s+1) partial sums */
  PetscInt     nloc, lda;
  Vec          soltemp; /* KSPBuildSolution() without a destination */

  /* the small problem of the current cycle (host, column major) */
  PetscScalar *H;      /* (m+1) x m Hessenberg matrix, leading dimension m+1 */
  PetscScalar *HR;     /* H after the Givens rotations (upper triangular) */
  PetscScalar *g;      /* rotated right-hand side, m+1 */
  PetscScalar *gc, *gs; /* Givens rotations, m each */
  PetscScalar *y;      /* least-squares solution, m */
  PetscInt     nc;     /* columns of the cycle whose rotations are applied (0 once x is updated) */
  PetscScalar *work;   /* scratch for the block: RT, RD and the Hessenberg update */
  PetscInt     lwork;
  PetscReal   *res;    /* residual estimates after each column of the block, s */

  /* Newton shifts (Leja-ordered Ritz values of the first cycle): s of each; real builds: conjugate pairs (im > 0 first) */
  PetscScalar *theta;
  PetscReal   *thetaim;
  PetscBool    haveshifts;

  /* statistics of the last solve */
  PetscInt seff;       /* block size in use (halved after an overflow) */
  PetscInt nfallback;  /* blocks whose Gram-matrix TSQR failed and went to CAQR */
  PetscInt nrefined;   /* blocks orthogonalized twice */
  PetscInt noverflow;  /* blocks regenerated with a smaller block size after Inf/NaN */
  PetscInt nbreakdown; /* cycles ended by a dependent block or a true residual far above the estimate */
  PetscInt ncycles;
} KSP_CAGMRES;

PETSC_INTERN PetscLogEvent KSP_CAGMRES_BOrth, KSP_CAGMRES_TSQR, KSP_CAGMRES_Small;

/* cagmresdense.c: operations on blocks of columns of the basis Q (one MPI_Allreduce per inner product) */
PETSC_INTERN PetscErrorCode KSPCAGMRESBlockInner(KSP, PetscInt, PetscInt, PetscInt, PetscInt, PetscScalar *);
PETSC_INTERN PetscErrorCode KSPCAGMRESBlockUpdate(KSP, PetscInt, PetscInt, PetscInt, PetscInt, const PetscScalar *);
PETSC_INTERN PetscErrorCode KSPCAGMRESBlockTrsm(KSP, PetscInt, PetscInt, const PetscScalar *, PetscInt);
PETSC_INTERN PetscErrorCode KSPCAGMRESBlockCAQR(KSP, PetscInt, PetscInt, PetscScalar *, PetscInt);
/* cagmresblock.cu: V := V R^{-1}, C = A^H B and B -= A C on blocks, host twins or GPU kernels (cagmrestrsm.cu, cagmresgemm.cu) */
PETSC_INTERN PetscErrorCode KSPCAGMRESSolveUpperRight(PetscMemType, PetscInt, PetscInt, PetscScalar *, PetscInt, const PetscScalar *, PetscInt, const PetscScalar *);
PETSC_INTERN PetscErrorCode KSPCAGMRESInnerProducts(PetscMemType, PetscInt, PetscInt, PetscInt, const PetscScalar *, const PetscScalar *, PetscInt, PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode KSPCAGMRESUpdateBlock(PetscMemType, PetscInt, PetscInt, PetscInt, const PetscScalar *, PetscInt, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode KSPCAGMRESGetColumns(KSP, PetscInt, PetscInt, Vec **);
PETSC_INTERN PetscErrorCode KSPCAGMRESRestoreColumns(KSP, PetscInt, PetscInt, Vec **);
PETSC_INTERN PetscErrorCode KSPCAGMRESDenseSetUp(KSP);
PETSC_INTERN PetscErrorCode KSPCAGMRESDenseReset(KSP);

/* cagmresortho.c: BOrth + TSQR of the new block */
PETSC_INTERN PetscErrorCode KSPCAGMRESOrthogonalizeBlock(KSP, PetscInt, PetscInt, PetscScalar *, PetscScalar *, PetscInt *, PetscBool *);

/* cagmresshifts.c: Ritz values of the Hessenberg matrix, Leja-ordered */
PETSC_INTERN PetscErrorCode KSPCAGMRESComputeShifts(KSP, PetscInt);
