/*
   MatPowers internals, shared by matpowers.c (interface, plain products), matpowersghost.c (the depth-s
   ghosted kernel), matpowersghostdia.c (its DIA copy), matpowershalo.c, matpowersshift.c, matpowersdia.cu (the DIA
   copies' kernels, the one-process copy) and matpowersdiaentries.cu (a copy's own rows from A's blocks on the GPU).
*/
#pragma once

#include <petsc/private/petscimpl.h>
#include <petscjagged.h>
#include <petscjagged/private/jaggedhalo.h>
#include <petscjagged/private/diafind.h>

/* What the right preconditioner contributes to the ghosted kernel */
typedef enum {
  MAT_POWERS_PC_NONE,   /* no PC or PCNONE: B = A */
  MAT_POWERS_PC_JACOBI, /* PCJACOBI: folded into the extended matrix as a column scaling */
  MAT_POWERS_PC_OTHER   /* anything else: not local, plain products only */
} MatPowersPCKind;

/* s2v and extra before the ghost layers are examined (MatPowersSetUp() skips them when only plain products can be chosen) */
#define MAT_POWERS_NOT_EXAMINED (-2.0)

/*
  Auto on GPUs whose halo exchange skips the host (CUDA IPC, NCCL, a GPU-aware MPI): the ghosted kernel is built to this
  depth at most, one exchange every MAT_POWERS_GPU_DEPTH products. Each depth more costs the set-up (the first solve) more
  than the exchange it saves costs: on conv-diff 256^3, 2 H100s, depth 2 against s = 10 took 0.24 s off the first solve
  and added 2 % to the repeated one (bench/RESULTS.md).
*/
#define MAT_POWERS_GPU_DEPTH 2

/* The remote rows as fetched: their entries with global columns */
typedef struct {
  PetscInt  n, nnz;
  PetscInt *rowptr; /* [n + 1] */
  PetscInt *gcols;  /* [nnz] */
} MatPowersRemoteRows;

/* Point-to-point plan of the remote rows' values: sends of own rows to the processes that extend by them, receives in fetch order */
typedef struct {
  PetscMPIInt  tag;
  PetscMPIInt  nsend, nrecv;    /* messages, one per (depth, neighbour) */
  PetscMPIInt *sendrank, *recvrank;
  PetscInt    *sendrowptr;      /* [nsend + 1] into sendrows */
  PetscInt    *sendrows;        /* own (local) rows whose values are sent */
  PetscInt    *sendvalptr;      /* [nsend + 1] values a send packs */
  PetscInt    *recvvalptr;      /* [nrecv + 1] where a receive lands in the fetched values */
} MatPowersHalo;

typedef struct _MatPowersOps *MatPowersOps;
struct _MatPowersOps {
  PetscErrorCode (*apply)(MatPowers, PetscInt, const PetscScalar[], const PetscReal[], Vec[]); /* the resolved kernel */
};

struct _p_MatPowers {
  PETSCHEADER(struct _MatPowersOps);
  Mat             A;
  PC              pc; /* preconditioner or NULL */
  PCSide          side; /* PC_RIGHT: B = A M^{-1}; PC_LEFT: B = M^{-1} A */
  MatNullSpace    nullsp; /* left: A's null space, removed from every product as KSP_PCApply() does (plain products) */
  PetscInt        s;
  MatPowersType   reqtype, type; /* requested; resolved at set-up (GHOSTED or PLAIN) */
  PetscReal       max_extra_flops;
  PetscBool       partial; /* auto may ghost to a depth below s when depth s passes max_extra_flops */
  PetscJaggedExchange exchangetype; /* the path asked for the ghosted kernel's halo exchange */
  PetscBool       setupcalled;
  MatPowersPCKind pckind;
  const char     *reason; /* why the resolved type was chosen */

  /* what the set-up was made for; a change in A or the PC's operator triggers a rebuild or a refresh */
  PetscObjectState Astate, Pstate;
  PetscObjectState Anzstate;

  /* statistics (set-up) and counters (apply) */
  PetscReal      s2v, extra;         /* maxima over processes; -1 when the matrix type cannot be ghosted, MAT_POWERS_NOT_EXAMINED before the layers are computed */
  PetscInt       depth;              /* depth of the ghost rows s2v and extra are of: s, or less when the extra flops passed the set-up's limit first */
  PetscInt       gdepth;             /* ghosted: the depth built, the products per halo exchange: s, or less (partly ghosted) */
  PetscReal      s2vdeeper, extradeeper; /* partly ghosted: those of depth gdepth + 1, which passed the limit */
  PetscBool      gpudepth;           /* auto: built to MAT_POWERS_GPU_DEPTH, the exchange skipping the host */
  PetscInt       nown, nrows, ncols; /* this process: own rows, extended rows (depth <= s-1), extended columns (depth <= s) */
  PetscInt       nnzown, nnzext;     /* nonzeros of the own rows and of the extended rows */
  PetscLogDouble nexchanges, nproducts;

  /* plain: the PC's output */
  Vec W;

  /* plain on one process: a DIA copy of A, the Jacobi scaling folded into its columns (right) or rows (left) (matpowersdia.cu);
     ghosted: a DIA copy of the extended rows in global order, when the extended columns are one range of global indices */
  PetscBool    usedia;  /* -mat_powers_dia: may make one */
  PetscInt     ndiag;   /* its diagonals; 0: none made */
  PetscInt     offset[MAT_DIA_MAX];
  PetscScalar *dia;     /* ndiag x n values, diagonal d of row i at dia[d * n + i] */
  PetscBool    diacuda; /* in device memory */
  PetscBool    diaown;  /* ghosted: its own rows found and written on the GPU from A's blocks in device memory (else on the host) */

  /* ghosted: own rows through A's own blocks, remote rows (depth 1..gdepth-1) in R; extended vectors ordered own, depth 1, ..., depth gdepth */
  PetscBool    cuda;    /* the blocks multiply VECSEQCUDA vectors (else VECSEQ) */
  PetscInt     ng;      /* depth-1 columns: the columns of A's off-diagonal block, in its order */
  PetscInt    *sidx;    /* ghosted DIA: the position in global order (global index - gstart) of each extended column beyond the own ones (own: ownoff + local index) */
  PetscInt     ownoff;  /* where the own rows start in an extended vector: 0, or in global order rstart - gstart */
  PetscInt    *rowptr;  /* [nrows - nown + 1] entries of the remote rows: R's row pointers */
  PetscInt    *cols;    /* their extended column indices, ascending in each row: R's columns */
  PetscInt    *perm;    /* R's entry k is the k-th fetched value perm[k] */
  PetscScalar *vals;    /* the values as fetched, again when A's values change */
  PetscScalar *rvals;   /* R's values */
  MatPowersHalo halo;   /* how the values travel */
  JaggedHalo   exchange; /* global vector -> ghost part of an extended vector: the one halo exchange per apply */
  Mat          R;       /* the remote rows, (nrows - nown) x ncols, in the type of A's diagonal block; NULL without */
  Vec          Z[3];    /* extended work vectors, used round robin */
  Vec          Zs;      /* the Jacobi-scaled input of a product (right preconditioning) */
  Vec          view[4]; /* placed on extended arrays: input own rows, input depth 1, output own rows, output remote rows */
  Vec          dinv;    /* the inverse diagonal of the PCJACOBI (MatPowersJacobiInverse()): ghosted, a global vector viewing its extension's own rows; else a vector of A */
  Vec          dinvext;
};

PETSC_INTERN PetscLogEvent MAT_POWERS_Apply, MAT_POWERS_SetUp, MAT_POWERS_Ghosts, MAT_POWERS_Values, MAT_POWERS_Fetch, MAT_POWERS_Layer, MAT_POWERS_Plan, MAT_POWERS_Diags, MAT_POWERS_Build;

PETSC_INTERN PetscErrorCode MatPowersGhostGPUWithoutDIA(MatPowers, PetscBool *);
PETSC_INTERN PetscErrorCode MatPowersGhostLayers(MatPowers, PetscReal, PetscBool, PetscInt);
PETSC_INTERN PetscErrorCode MatPowersGhostBuild(MatPowers);
PETSC_INTERN PetscErrorCode MatPowersGhostRefresh(MatPowers);
PETSC_INTERN PetscErrorCode MatPowersGhostReset(MatPowers);
PETSC_INTERN PetscErrorCode MatPowersGhostDIALayout(MatPowers, const PetscInt[], Mat, Mat, const PetscInt[]);
PETSC_INTERN PetscErrorCode MatPowersGhostDIAFill(MatPowers, Mat, Mat, const PetscInt[]);
PETSC_INTERN PetscErrorCode MatPowersApply_Ghosted(MatPowers, PetscInt, const PetscScalar[], const PetscReal[], Vec[]);
PETSC_INTERN PetscErrorCode MatPowersHaloFetchRows(Mat, const PetscInt[], const PetscInt[], const PetscInt[], const PetscInt[], PetscInt, const PetscInt[], MatPowersRemoteRows *, MatPowersHalo *);
PETSC_INTERN PetscErrorCode MatPowersHaloValues(Mat, const PetscInt[], const PetscScalar[], const PetscInt[], const PetscScalar[], MatPowersHalo *, PetscScalar[]);
PETSC_INTERN PetscErrorCode MatPowersHaloReset(MatPowersHalo *);
PETSC_INTERN PetscErrorCode MatPowersDIASetUp(MatPowers);
PETSC_INTERN PetscErrorCode MatPowersDIAFill(MatPowers);
PETSC_INTERN PetscErrorCode MatPowersDIAReset(MatPowers);
PETSC_INTERN PetscErrorCode MatPowersApply_DIA(MatPowers, PetscInt, const PetscScalar[], const PetscReal[], Vec[]);
PETSC_INTERN PetscErrorCode MatPowersDIAAlloc(MatPowers, PetscInt, PetscBool);
PETSC_INTERN PetscErrorCode MatPowersDIAScale(MatPowers, PetscInt, Vec);
PETSC_INTERN PetscErrorCode MatPowersDIAOffsetsDevice(MatPowers, Mat, Mat, const PetscInt[], PetscBool *, PetscInt *, PetscInt[]);
PETSC_INTERN PetscErrorCode MatPowersDIAFillDevice(MatPowers, Mat, Mat, const PetscInt[], PetscInt, PetscInt, PetscBool *);
PETSC_INTERN PetscErrorCode MatPowersDIAStep(MatPowers, PetscInt, Vec, Vec, PetscScalar, PetscScalar, Vec);
PETSC_INTERN PetscErrorCode MatPowersJacobiInverse(MatPowers, Vec);
PETSC_INTERN PetscErrorCode MatPowersShift(PetscInt, const PetscScalar[], const PetscReal[], Vec, Vec, Vec);
