/*
   Private header of PCSPCG: the host inner loop (spcghost.c, the reference) and the device inner loop
   (spcgdevice.cu) share this state.
*/
#pragma once

#include <petsc/private/pcimpl.h>
#include <petscdevice_cuda.h>
#include <petscjagged.h>
#include <petscjagged/private/matsingle.h>

typedef struct _n_PCSPCGDevice *PCSPCGDevice;

/* continuation stops when |beta r'p_last| exceeds this fraction of r'z (see PCApply_SPCG()) */
#define PCSPCG_CONT_DRIFT 1e-4 /* the device inner loop's state (spcgdevice.cu) */

/* PCSPCGFormat (-pc_spcg_format) and its names PCSPCGFormats (defined in spcg.c) are public: petscjagged.h */

/*
  Under KSPMPCG an inner solve also stops at the relative reduction single precision delivers (the floor):
  below it the inner residual still falls but the inner solution no longer improves (its true residual
  stays near eps_single times the condition number), and every further iteration, a PC application with
  it, is lost. The floor is approached from above: it starts at PCSPCG_FLOOR_START; after an inner solve
  that stopped at the floor, the outer reduction c = ||r_new|| / ||r|| tells what single precision
  delivered: c above twice the floor raises the floor to c (at most PCSPCG_FLOOR_MAX), c within it lowers
  the floor 10-fold (at least PCSPCG_FLOOR_MIN). Shared by the host loop (spcghost.c) and the device loop (spcgdevice.cu).
*/
#define PCSPCG_FLOOR_START 1e-4
#define PCSPCG_FLOOR_MIN   1e-6
#define PCSPCG_FLOOR_MAX   1e-2

static PETSC_HOSTDEVICE_INLINE_DECL double PCSPCGNextFloor(double floor, int atfloor, double c)
{
  if (!atfloor) return floor;
  if (c > 2 * floor) return c < PCSPCG_FLOOR_MAX ? c : PCSPCG_FLOOR_MAX;
  return 0.1 * floor > PCSPCG_FLOOR_MIN ? 0.1 * floor : PCSPCG_FLOOR_MIN;
}

/*
  The first direction of an inner CG that continues the previous application's, decided once for the host loop
  (spcghost.c) and the device loop (spcgdevice.cu): rz = r'z of this application, por = r'p_last (p_last the last
  direction of the previous one, rzlast its r'z), c = ||r|| / ||r_last|| (p_last in this application's units).
  beta = c rz / rzlast, p = z + beta p_last, and pr = r'p = rz + beta por, the first alpha's numerator. Where the
  continued part |beta por| passes PCSPCG_CONT_DRIFT |rz| the direction has drifted: returns 1 (continuation stops for
  the solve); where pr is not of the sign of rz (real parts) or not finite: beta = 0 and pr = rz (p = z). Scalars as
  (re, im) pairs of doubles (im 0 in real builds), so that C and CUDA run the same arithmetic.
*/
typedef struct {
  double re, im;
} PCSPCGPair;

static PETSC_HOSTDEVICE_INLINE_DECL int PCSPCGContinueDirection(PCSPCGPair rz, PCSPCGPair por, PCSPCGPair rzlast, double c, PCSPCGPair *beta, PCSPCGPair *pr)
{
#if defined(PETSC_USE_COMPLEX)
  const double     den = rzlast.re * rzlast.re + rzlast.im * rzlast.im;
  const PCSPCGPair b   = {c * (rz.re * rzlast.re + rz.im * rzlast.im) / den, c * (rz.im * rzlast.re - rz.re * rzlast.im) / den};
  const PCSPCGPair bp  = {b.re * por.re - b.im * por.im, b.re * por.im + b.im * por.re};
  const PCSPCGPair p   = {rz.re + bp.re, rz.im + bp.im};
  const int        ok  = p.re * rz.re > 0 && isfinite(p.re) && isfinite(p.im);
  const int        drift = sqrt(bp.re * bp.re + bp.im * bp.im) > PCSPCG_CONT_DRIFT * sqrt(rz.re * rz.re + rz.im * rz.im);
#else
  const PCSPCGPair b = {c * rz.re / rzlast.re, 0}, bp = {b.re * por.re, 0}, p = {rz.re + bp.re, 0};
  const int        ok = p.re * rz.re > 0 && isfinite(p.re), drift = fabs(bp.re) > PCSPCG_CONT_DRIFT * fabs(rz.re);
#endif
  const PCSPCGPair zero = {0, 0};

  *beta = !drift && ok ? b : zero;
  *pr   = !drift && ok ? p : rz;
  return drift;
}

/*
  The single-precision image of a set-up PCMG (PCGAMG) hierarchy whose V-cycle is PCSPCG's inner preconditioner
  (spcgmg.c: made from the double set-up, viewed, destroyed; spcgmgcycle.c: the V-cycle, over the level operations of
  the host, spcgmghost.c, or of the device, spcgmgdevice.cu, whose image keeps its arrays in device memory)
*/
#define PCSPCG_MG_DENSE_MAX 2000 /* largest coarse problem inverted densely by default (-pc_spcg_mg_dense_max) */
/* auto storage's default for the fewest nonzeros of a half copy (-pc_spcg_half_min_nonzeros): a product of fewer is bound by its
   launches, not its bytes, and half storage adds a scaling pass around it; about where the 4 bytes a nonzero packed half saves take
   as long to move as a kernel launch in a CUDA graph (the estimate and the small matrix measured slower: bench/RESULTS.md, session 43) */
#define PCSPCG_HALF_MIN_NONZEROS 2000000

typedef enum {
  PCSPCG_MG_CHEBYSHEV, /* KSPCHEBYSHEV of the first kind with PCJACOBI */
  PCSPCG_MG_RICHARDSON /* KSPRICHARDSON (fixed damping) with PCJACOBI */
} PCSPCGMGSmoothType;

/* One smoother of a level, as the double set-up left it */
typedef struct {
  PCSPCGMGSmoothType       type;
  PetscInt                 its;        /* Chebyshev's degree or Richardson's steps (KSP max_it); 0: no smoothing */
  PetscReal                emin, emax; /* Chebyshev: the bounds on the eigenvalues of D^{-1} A the double smoother uses */
  PetscReal                scale;      /* Richardson: the damping */
  PetscJaggedScalarSingle *dinv;       /* the smoother's Jacobi (its PC applied to ones) in single precision (device image: in device memory) */
} PCSPCGMGSmoother;

/* One level of the image; level 0 is the coarsest, as in PCMG */
typedef struct {
  PetscInt                 n, N;        /* local and global rows of the level */
  Mat                      A;           /* the level operator (referenced) */
  Mat                      P;           /* the interpolation from the next coarser level, fine x coarse (referenced; NULL on level 0) */
  Mat                      R;           /* the restriction to it, coarse x fine: PCMG's own, or the explicit transpose of P made here (several processes) */
  PetscBool                transposed;  /* the restriction is P's transpose made here: on one process restr is interp's transpose, R NULL */
  MatSingle                op;          /* A's single-precision copy (its diagonal block DIA where it pays, else pJDS; device image of a host A: CSR), unless shared ... */
  const MatSingle         *opp;         /* ... the copy the products use: op, or PCSPCG's copy of the same operator */
  MatSingle                interp;      /* P in CSR (several processes: its ghosts on the coarse level) */
  MatSingle                restr;       /* R in CSR (several processes: its ghosts on the fine level) */
  PCSPCGMGSmoother         down, up;    /* pre- and post-smoother (up.dinv may be down.dinv: one KSP both ways) */
  PetscObjectId            Aid, Pid, Rid;          /* PCMG's operator, interpolation and restriction the image was made from ... */
  PetscObjectState         Anz, Pnz, Rnz;          /* ... their nonzero states then (another: the image is made anew) ... */
  PetscObjectState         Astate, Pstate, Rstate; /* ... and their states at the last set-up (another: the values are refreshed) */
  PetscJaggedScalarSingle *b, *x, *r;   /* right-hand side, solution and residual of the level (device image: one device allocation at b) */
  PetscJaggedScalarSingle *w[2];        /* Chebyshev's other two iterates */
} PCSPCGMGLevel;

typedef struct _n_PCSPCGMG *PCSPCGMG;
struct _n_PCSPCGMG {
  PetscInt                 nlevels;
  PetscBool                device;  /* the blocks, level vectors, inverse diagonals and coarse inverse are in device memory (the device loop's V-cycle) */
  PCSPCGMGLevel           *level;   /* [nlevels], level[0] the coarsest */
  PetscBool                dense;   /* coarse solve: the coarse operator's dense inverse in single precision, else the double coarse KSP */
  PetscJaggedScalarSingle *inv;     /* dense: the rows of that inverse this process owns (n x N), row-major */
  PetscJaggedScalarSingle *ball;    /* dense, several processes: the whole coarse right-hand side, gathered (N; device image: in device memory) */
  PetscJaggedScalarSingle *hball;   /* ... device image: gathered on the host first (pinned) */
  PetscMPIInt             *counts, *displs; /* ... each process's bytes of it and their offsets */
  PetscJaggedScalarSingle *hc;      /* device image crossing the host (pinned): the coarse right-hand side and solution of the double KSP, or the own part of the right-hand side gathered for the dense inverse on several processes ... */
  int                     *hstop;   /* ... and the inner loop's stop flag read with them (pinned): a stopped loop solves no more */
  KSP                      coarse;  /* the coarse KSP of PCMG (referenced), applied in double when not dense */
  Vec                      cb, cx;  /* its right-hand side and solution in double */
  const char              *coarsewhy; /* why the coarse solve is not dense */
  PetscInt                 nrefresh; /* set-ups since the image was made that refreshed its values only */
  PetscBool                singlegraph; /* auto storage kept the levels' own copies single: one process, the CUDA graph asked for */
  PetscLogDouble           flops;   /* of one V-cycle */
  size_t                   bytes;   /* of the image: matrices, inverse diagonals, coarse inverse */
};

/*
  The level operations of a V-cycle of the image (spcgmgcycle.c writes the V-cycle once over them): on the host
  (PCSPCGMGOpsHost, spcgmghost.c; ctx unused) or on a stream (PCSPCGMGOpsDevice, spcgmgdevice.cu; ctx a
  PCSPCGMGDeviceCtx), the same arithmetic in the same order, the real coefficients rounded to single precision by each
*/
typedef struct {
  /* y = A x, or y += A x (add), A a distributed single-precision matrix */
  PetscErrorCode (*mult)(const MatSingle *, const PetscJaggedScalarSingle[], PetscBool, PetscJaggedScalarSingle[], void *);
  /* y = x; y = 0 (n entries) */
  PetscErrorCode (*copy)(PetscInt, const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[], void *);
  PetscErrorCode (*zero)(PetscInt, PetscJaggedScalarSingle[], void *);
  /* r = b - r, r holding A x */
  PetscErrorCode (*residual)(PetscInt, const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[], void *);
  /* Chebyshev's first step, y = s dinv r + x */
  PetscErrorCode (*chebyshevfirst)(PetscInt, PetscReal, const PetscJaggedScalarSingle[], const PetscJaggedScalarSingle[], const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[], void *);
  /* Chebyshev's next steps, p_{k+1} = a p_{k-1} + o p_k + os (dinv r): a, o, os, dinv, r, p_{k-1}, p_k, p_{k+1} */
  PetscErrorCode (*chebyshev)(PetscInt, PetscReal, PetscReal, PetscReal, const PetscJaggedScalarSingle[], const PetscJaggedScalarSingle[], const PetscJaggedScalarSingle[], const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[], void *);
  /* Richardson's step, x += s (dinv r) */
  PetscErrorCode (*richardson)(PetscInt, PetscReal, const PetscJaggedScalarSingle[], const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[], void *);
  /* the coarsest level's x = A^{-1} b */
  PetscErrorCode (*coarse)(PCSPCGMG, void *);
} PCSPCGMGOps;

/* the device operations' context: the stream, and the inner loop's stop flag (device memory: nothing once it is set) */
typedef struct {
  const int   *stopped;
  cudaStream_t stream;
} PCSPCGMGDeviceCtx;

PETSC_INTERN const PCSPCGMGOps PCSPCGMGOpsHost, PCSPCGMGOpsDevice;

typedef struct {
  PetscInt                 max_it; /* inner iterations */
  PetscReal                rtol;   /* stop earlier at this relative reduction (0: never) */
  PetscBool                jacobi; /* -pc_spcg_jacobi: Jacobi preconditioning inside the inner CG */
  PC                       inner;  /* the inner CG's preconditioner given by PCSPCGSetInnerPC(), or NULL */
  PetscBool                diag;   /* resolved at set-up: Jacobi in single precision inside the inner loop */
  PetscBool                fixdiag; /* ... replacing zero diagonal entries by 1 (as the inner PCJACOBI does) */
  PC                       other;  /* resolved at set-up: inner, applied in double precision (not none or Jacobi, nor a PCMG with an image) */
  PetscBool                usemg;  /* -pc_spcg_mg: run an inner PCMG (PCGAMG) as a single-precision V-cycle where supported */
  PetscInt                 mgdensemax; /* -pc_spcg_mg_dense_max: largest coarse problem inverted densely */
  PCSPCGMG                 mg;     /* resolved at set-up: the single-precision image of inner's hierarchy, or NULL */
  const char              *mgwhy;  /* resolved at set-up: why an inner PCMG keeps the double path (NULL: not a PCMG, or the image runs) */
  Vec                      wr, wz; /* double-precision vectors for other: the inner residual and its preconditioned form */
  PetscBool                graph;  /* device loop on one process: replay it as a CUDA graph */
  PetscBool                ingraph; /* resolved at set-up: the device loop is replayed as a CUDA graph */
  PetscJaggedExchange      exchange; /* several processes on GPUs: the path asked for the inner halo exchanges and sums */
  Mat                      A;      /* operator with the single-precision copy: Pmat itself, or a private jagged copy (NULL with csra) */
  PetscBool                own;
  PetscOptions             hostopts; /* the private copy's options with host kernels (-mat_jagged_host): read when it is made, before any GPU use */
  PetscBool                hasblocks; /* or an AIJ Pmat's copy in single precision, in the memory of the loop: */
  MatSingle                copy;      /* ... its blocks, with Pmat's halo exchange overlapping the diagonal block's product */
  PCSPCGFormat             format;    /* of the diagonal block as asked for (-pc_spcg_format; the off-diagonal block is CSR) */
  PCSPCGStorage            storage;   /* of the values of the pJDS copies (-pc_spcg_storage): single, half precision, or auto */
  PetscInt                 halfmin;   /* auto storage: the fewest nonzeros of a copy (a process's block, a level's) it stores in half precision */
  PetscBool                halfauto;  /* resolved at set-up: auto storage chose half for a copy (on some process) */
  PetscBool                fellback;  /* auto storage fell back to single precision during a solve (until the operator's pattern or the storage changes) */
  const char              *fallwhy;   /* ... what made it */
  PetscInt                 napply0, ninner0, nindefinite0; /* statistics of the applications before the fallback's set-up */
  PetscInt                 n;
  PetscJaggedScalarSingle *x, *r, *z, *p, *q, *dinv; /* host loop */
  PCSPCGDevice             dev;                      /* device loop, when the operator's vectors are CUDA vectors */
  PetscInt                 napply, ninner, nindefinite; /* statistics since PCSetUp() (device loop: see PCSPCGDeviceGetStatistics()) */

  /* set by the outer KSPMPCG for each solve ("PCSPCGSetOuterState_C") */
  PetscBool   cont;      /* continue the inner search direction from one application to the next */
  PetscReal   target;    /* residual norm the outer iteration has to reach (0: unknown) */
  PetscBool   havedir;   /* host loop: p and rzlast hold the last direction of the previous application */
  PetscBool   contoff;   /* host loop: continuation stopped for this solve (the directions drift) */
  PetscScalar rzlast;    /* host loop: r'z of that direction */
  PetscReal   rnormlast; /* ||r|| given to the previous application */
  PetscInt    nindeflast; /* auto storage with half: the inner breakdowns since set-up before the previous application */
  PetscReal   floor;     /* host loop: the inner floor (0: none, outside KSPMPCG) */
  PetscBool   atfloor;   /* host loop: the previous application stopped at the floor */
} PC_SPCG;

PETSC_INTERN PetscLogEvent  PC_SPCG_Inner, PC_SPCG_MGSetUp, PC_SPCG_MGOperators, PC_SPCG_MGTransfers, PC_SPCG_MGSmoothers, PC_SPCG_MGCoarse, PC_SPCG_VCycle;

PETSC_INTERN PetscErrorCode PCSPCGApplyOther(PC);
PETSC_INTERN PetscBool      PCSPCGMGHalf(PCSPCGMG);

/* The storage of the copies: as asked, or single after auto storage fell back during a solve */
static inline PCSPCGStorage PCSPCGStorageUsed(PC pc)
{
  const PC_SPCG *s = (const PC_SPCG *)pc->data;

  return s->fellback ? PCSPCG_STORAGE_SINGLE : s->storage;
}
PETSC_INTERN PetscErrorCode PCSPCGDeviceStartSolve(PC, PetscReal);
PETSC_INTERN PetscErrorCode PCSPCGMGSetUp(PC, PetscBool, PCSPCGMG);
PETSC_INTERN PetscErrorCode PCSPCGMGDestroy(PCSPCGMG *);
PETSC_INTERN PetscErrorCode PCSPCGMGView(PCSPCGMG, PetscViewer);
PETSC_INTERN PetscErrorCode PCSPCGMGCoarseGather(PCSPCGMG, const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[]);
PETSC_INTERN PetscErrorCode PCSPCGMGCoarseSolveKSP(PCSPCGMG, const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[]);
PETSC_INTERN PetscErrorCode PCSPCGMGCycle(PCSPCGMG, const PCSPCGMGOps *, void *, const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[]);
PETSC_INTERN PetscErrorCode PCSPCGMGApplyHost(PCSPCGMG, const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[]);
PETSC_INTERN PetscErrorCode PCSPCGMGToSingleDevice(PetscInt, const PetscScalar[], PetscJaggedScalarSingle **);
PETSC_INTERN PetscErrorCode PCSPCGMGDenseInvertDevice(PetscInt, const PetscScalar[], PetscInt, PetscInt, PetscJaggedScalarSingle **, PetscBool *);
PETSC_INTERN PetscErrorCode PCSPCGMGApplyDevice(PCSPCGMG, const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[], const int *, cudaStream_t);
PETSC_INTERN PetscErrorCode PCSPCGDeviceCreate(PC, Vec, PCSPCGDevice *);
PETSC_INTERN PetscErrorCode PCSPCGDeviceApply(PC, Vec, PetscReal, PetscReal, Vec);
PETSC_INTERN PetscErrorCode PCSPCGHostApply(PC, Vec, PetscReal, PetscReal, Vec);
PETSC_INTERN PetscErrorCode PCSPCGDeviceGetStatistics(PC, PetscInt *, PetscInt *, PetscInt *, PetscReal *);
PETSC_INTERN PetscErrorCode PCSPCGDeviceGetExchange(PC, PetscJaggedExchange *, const char **);
PETSC_INTERN PetscErrorCode PCSPCGDeviceDestroy(PCSPCGDevice *);
