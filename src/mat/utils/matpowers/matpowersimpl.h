/*
   MatPowers internals, shared by matpowers.c (interface, plain products) and matpowersghost.c
   (the depth-s ghosted kernel).
*/
#pragma once

#include <petsc/private/petscimpl.h>
#include <petscjagged.h>

/* What the right preconditioner contributes to the ghosted kernel */
typedef enum {
  MAT_POWERS_PC_NONE,   /* no PC or PCNONE: B = A */
  MAT_POWERS_PC_JACOBI, /* PCJACOBI: folded into the extended matrix as a column scaling */
  MAT_POWERS_PC_OTHER   /* anything else: not local, plain products only */
} MatPowersPCKind;

/* s2v and extra before the ghost layers are examined (MatPowersSetUp() skips them when only plain products can be chosen) */
#define MAT_POWERS_NOT_EXAMINED (-2.0)

typedef struct _MatPowersOps *MatPowersOps;
struct _MatPowersOps {
  PetscErrorCode (*apply)(MatPowers, PetscInt, const PetscScalar[], const PetscReal[], Vec[]); /* the resolved kernel */
};

struct _p_MatPowers {
  PETSCHEADER(struct _MatPowersOps);
  Mat             A;
  PC              pc; /* right preconditioner or NULL */
  PetscInt        s;
  MatPowersType   reqtype, type; /* requested; resolved at set-up (GHOSTED or PLAIN) */
  PetscReal       max_extra_flops;
  PetscBool       setupcalled;
  MatPowersPCKind pckind;
  const char     *reason; /* why the resolved type was chosen */

  /* what the set-up was made for; a change in A or the PC's operator triggers a rebuild or a refresh */
  PetscObjectState Astate, Pstate;
  PetscObjectState Anzstate;

  /* statistics (set-up) and counters (apply) */
  PetscReal      s2v, extra;         /* maxima over processes; -1 when the matrix type cannot be ghosted, MAT_POWERS_NOT_EXAMINED before the layers are computed */
  PetscInt       nown, nrows, ncols; /* this process: own rows, extended rows (depth <= s-1), extended columns (depth <= s) */
  PetscInt       nnzown, nnzext;     /* nonzeros of the own rows and of the extended rows */
  PetscLogDouble nexchanges, nproducts;

  /* plain: the PC's output */
  Vec W;

  /* ghosted */
  IS         isext;   /* global indices of the extended columns: own rows, then depth 1, ..., depth s */
  IS         isrow;   /* the first nrows of them */
  VecScatter scatter; /* global vector -> extended vector: the one halo exchange per apply */
  Mat       *sub;     /* A[isrow, isext] as extracted (reused when only values change) */
  Mat        Apad;    /* ncols x ncols MATSEQAIJ: A[isrow, isext] (column-scaled by the Jacobi inverse diagonal), rows at depth s empty */
  Mat        Aext;    /* Apad in the type of A's diagonal block */
  Vec        Z[3];    /* extended work vectors, used round robin */
  Vec        dinv;    /* the inverse diagonal of the PCJACOBI (A's vector type), and its extension (host) */
  Vec        dinvext;
};

PETSC_INTERN PetscLogEvent MAT_POWERS_Apply, MAT_POWERS_SetUp;

PETSC_INTERN PetscErrorCode MatPowersGhostLayers(MatPowers);
PETSC_INTERN PetscErrorCode MatPowersGhostBuild(MatPowers);
PETSC_INTERN PetscErrorCode MatPowersGhostRefresh(MatPowers);
PETSC_INTERN PetscErrorCode MatPowersGhostReset(MatPowers);
PETSC_INTERN PetscErrorCode MatPowersApply_Ghosted(MatPowers, PetscInt, const PetscScalar[], const PetscReal[], Vec[]);
PETSC_INTERN PetscErrorCode MatPowersShift(PetscInt, const PetscScalar[], const PetscReal[], Vec, Vec, Vec);
