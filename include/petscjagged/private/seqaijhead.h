/*
   The head of PETSc's Mat_SeqAIJ, as far as its ops member: the value accessors MATSEQAIJ's subclasses
   provide (MatSeqAIJGetArray(), MatSeqAIJRestoreArray(), ...). PETSc does not install
   src/mat/impls/aij/seq/aij.h; these declarations copy its Mat_SeqAIJOps and SEQAIJHEADER of
   PETSc 3.26, the minor version jaggedinit.c also requires when the library is loaded.
*/
#pragma once

#include <petsc/private/matimpl.h>

#if PETSC_VERSION_MAJOR != 3 || PETSC_VERSION_MINOR != 26
  #error "seqaijhead.h copies the layout of Mat_SeqAIJ of PETSc 3.26: compare it with src/mat/impls/aij/seq/aij.h of this PETSc"
#endif

/* Mat_SeqAIJOps of aij.h */
typedef struct {
  PetscErrorCode (*getarray)(Mat, PetscScalar **);
  PetscErrorCode (*restorearray)(Mat, PetscScalar **);
  PetscErrorCode (*getarrayread)(Mat, const PetscScalar **);
  PetscErrorCode (*restorearrayread)(Mat, const PetscScalar **);
  PetscErrorCode (*getarraywrite)(Mat, PetscScalar **);
  PetscErrorCode (*restorearraywrite)(Mat, PetscScalar **);
  PetscErrorCode (*getcsrandmemtype)(Mat, const PetscInt **, const PetscInt **, PetscScalar **, PetscMemType *);
} MatSeqAIJHeadOps;

/* SEQAIJHEADER(MatScalar) of aij.h, the first members of Mat_SeqAIJ */
typedef struct {
  PetscBool         roworiented;
  PetscInt          nonew;
  PetscInt          nounused;
  PetscInt          maxnz;
  PetscInt         *imax;
  PetscInt         *ilen;
  PetscInt         *ipre;
  PetscBool         free_imax_ilen;
  PetscInt          reallocs;
  PetscInt          rmax;
  PetscBool         keepnonzeropattern;
  PetscBool         ignorezeroentries;
  PetscBool         free_ij;
  PetscBool         free_a;
  Mat_CompressedRow compressedrow;
  PetscInt          nz;
  PetscInt         *i;
  PetscInt         *j;
  PetscInt         *diag;
  PetscObjectState  diagNonzeroState;
  PetscBool         diagDense;
  PetscInt          nonzerorowcnt;
  MatScalar        *a;
  PetscScalar      *solve_work;
  IS                row, col, icol;
  PetscBool         pivotinblocks;
  Mat               parent;
  void             *submatis1;
  MatSeqAIJHeadOps  ops[1];
} MatSeqAIJHead;

/* MatCOOStruct_SeqAIJ of aij.h: the map MATSEQAIJ's MatSetPreallocationCOO() makes and composes as "__PETSc_MatCOOStruct_Host"
   (the entries of nonzero i are perm[jmap[i] .. jmap[i + 1]), those of MatSetValuesCOO()'s v[]) */
typedef struct {
  PetscInt    nz;
  PetscCount  n;
  PetscCount  Atot;
  PetscCount *jmap;
  PetscCount *perm;
} MatSeqAIJCOOHead;
