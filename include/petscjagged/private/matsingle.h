/*
   Private header of the single-precision matrix (src/mat/utils/single): the copy of an AIJ matrix, or of a jagged
   one's diagonal block, in single precision, whose products run inside single-precision iterations on the device or
   the host. Its users: PCSPCG's copy of its operator and every matrix of the image of a PCMG hierarchy (the V-cycle
   in single precision). The format of its diagonal block is one of PCSPCGFormat's (public: petscjagged.h).
*/
#pragma once

#include <petsc/private/matimpl.h>
#include <petscdevice_cuda.h>
#include <petscjagged.h>
#include <petscjagged/private/jaggedhalo.h>
#include <petscjagged/private/diafind.h>

#define MATSINGLE_DIA_MAX MAT_DIA_MAX /* diagonals a DIA copy may have */

typedef struct _n_MatSingleJagged *MatSingleJagged; /* a pJDS copy's format (matsinglejagged.cu) */

typedef struct _MatSingleBlockOps MatSingleBlockOps;

/*
  A block of the matrix in single precision, in one of three formats (format), each with its table of
  operations (ops): CSR (matsinglecsr.cu); DIA when its entries lie on few diagonals (structured-grid
  operators: ndiag arrays of nrows values, one a diagonal, with no column indices at all; matsingledia.cu); or
  pJDS (padded jagged diagonals, MATPJDSCUDA's format and kernel; matsinglejagged.cu), whose values may also be stored in half
  precision (real scalars: those of the block scaled symmetrically by its diagonal, kept in the format's own data, a NULL).
  Made by MatSingleBlockCreate() (matsingle.c), which chooses the format.
*/
typedef struct {
  PCSPCGFormat             format;            /* PCSPCG_FORMAT_CSR, _DIA or _PJDS: how the block is stored */
  const MatSingleBlockOps *ops;               /* the operations of that format */
  PetscInt                 nrows, ncols, nnz; /* rows stored (CSR with rows: the nonempty ones), columns, entries */
  const PetscInt          *i, *j;             /* CSR: row offsets and columns, the matrix's own or copies in store */
  const PetscInt          *rows;              /* CSR: the matrix row of each stored row, or NULL: all rows in order */
  PetscJaggedScalarSingle *a;                 /* the values: CSR's; DIA's, diagonal d of row r at a[d * nrows + r], 0 outside the block; pJDS's slots */
  void                    *store;             /* CSR: the copies of i, j, rows made here, or NULL */
  PetscInt                 ndiag;             /* DIA: the number of diagonals */
  PetscInt                 offset[MATSINGLE_DIA_MAX]; /* DIA: column - row of each diagonal, ascending */
  MatSingleJagged          jagged;            /* pJDS: the format, its values in a */
  PetscBool                device;            /* the arrays are in device memory */
} MatSingleBlock;

/* The operations of a block format */
struct _MatSingleBlockOps {
  /* y = A x, or y += A x (add: CSR only, the off-diagonal block), on the host: the twin of multdevice */
  PetscErrorCode (*multhost)(const MatSingleBlock *, const PetscJaggedScalarSingle[], PetscBool, PetscJaggedScalarSingle[]);
  /* the same on stream; unless *stopped (device memory, may be NULL): with dot (device memory, may be NULL), dot += p'(A x) (DIA and pJDS, diagonal blocks: p = x) */
  PetscErrorCode (*multdevice)(const MatSingleBlock *, const PetscJaggedScalarSingle[], PetscBool, PetscJaggedScalarSingle[], const int *, const PetscJaggedScalarSingle[], PetscScalar *, cudaStream_t);
  /* one line for PCView(): the storage, unit the name of the single-precision type */
  PetscErrorCode (*describe)(const MatSingleBlock *, const char *, char[], size_t);
  PetscErrorCode (*destroy)(MatSingleBlock *);
  /* the bytes the block stores: values, indices, row structure */
  size_t (*bytes)(const MatSingleBlock *);
  /* a host block: its values again from B, the matrix it was made from, whose nonzero pattern has not changed */
  PetscErrorCode (*refreshhost)(MatSingleBlock *, Mat);
};

PETSC_INTERN const MatSingleBlockOps MatSingleBlockOpsCSR, MatSingleBlockOpsDIA, MatSingleBlockOpsPJDS;

/*
  A distributed AIJ matrix in single precision (matsingle.c): a sequential matrix as one block, or an MPI one as
  its diagonal block and its off-diagonal block in CSR, whose columns are the ghost values of x, exchanged in
  single precision through the matrix's own halo (MatGetMultPetscSF()) during the diagonal block's product.
  PCSPCG's copy of its operator and every matrix of the image of a PCMG hierarchy.
*/
typedef struct {
  PetscInt                 m;       /* local rows */
  MatSingleBlock           d;       /* the matrix (one process) or its diagonal block, in the format asked for where it pays */
  MatSingleBlock           o;       /* several processes: the off-diagonal block in CSR, its columns the ghosts; else empty */
  JaggedHalo               halo;    /* several processes: the exchange of the ghost values of x; else NULL */
  PetscJaggedScalarSingle *ghosts;  /* several processes: the ghost values, in the memory of the products */
  PetscInt                 nghosts; /* the number of ghosts */
} MatSingle;

PETSC_INTERN PetscErrorCode MatSingleBlockCreate(Mat, PetscBool, PCSPCGFormat, PCSPCGStorage, PetscInt, MatSingleBlock *);
PETSC_INTERN PetscErrorCode MatSingleBlockDestroy(MatSingleBlock *);
PETSC_INTERN PetscErrorCode MatSingleCreate(Mat, PetscBool, PCSPCGFormat, PCSPCGStorage, PetscInt, PetscJaggedExchange, MatSingle *);
PETSC_INTERN PetscErrorCode MatSingleCreateDIA(Mat, PCSPCGFormat, PetscJaggedExchange, MatSingle *, PetscBool *);
PETSC_INTERN PetscErrorCode MatSingleTranspose(const MatSingle *, MatSingle *);
PETSC_INTERN PetscErrorCode MatSingleDestroy(MatSingle *);
PETSC_INTERN PetscErrorCode MatSingleRefreshHost(MatSingle *, Mat);
PETSC_INTERN PetscErrorCode MatSingleMultHost(const MatSingle *, const PetscJaggedScalarSingle[], PetscBool, PetscJaggedScalarSingle[]);
PETSC_INTERN PetscErrorCode MatSingleMultDevice(const MatSingle *, const PetscJaggedScalarSingle[], PetscBool, PetscJaggedScalarSingle[], const int *, PetscScalar *, cudaStream_t);
PETSC_INTERN size_t         MatSingleBytes(const MatSingle *);
PETSC_INTERN PetscBool      MatSingleBlockUseDIA(PCSPCGFormat, PetscInt, PetscInt, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode MatSingleCSRTranspose(const MatSingleBlock *, PetscInt, MatSingleBlock *);
PETSC_INTERN PetscErrorCode MatSingleCSRCreate(Mat, PetscInt, const PetscInt *, const PetscInt *, PetscBool, MatSingleBlock *);
PETSC_INTERN PetscErrorCode MatSingleDIACreate(Mat, PetscInt, const PetscInt *, const PetscInt *, PetscBool, PCSPCGFormat, MatSingleBlock *);
PETSC_INTERN PetscErrorCode MatSingleJaggedCreate(Mat, PetscInt, const PetscInt *, const PetscInt *, PetscBool, PCSPCGStorage, PetscInt, MatSingleBlock *);
PETSC_INTERN PetscBool      MatSingleHalf(const MatSingle *);
