/* Shared by the solver tests and the benchmarks (bench/firstsolve, bench/spmvbench): a Matrix Market (coordinate) reader */
#pragma once

#include <petscmat.h>

typedef enum {
  MTX_GENERAL,
  MTX_SYMMETRIC,
  MTX_HERMITIAN,
  MTX_SKEW_SYMMETRIC
} MtxSymmetry;

/* The header of a Matrix Market file: its field (complex, pattern: no values) and its symmetry */
static inline PetscErrorCode MtxHeader(const char *file, const char *line, PetscBool *cplx, PetscBool *pattern, MtxSymmetry *sym)
{
  PetscFunctionBeginUser;
  PetscCheck(strstr(line, "coordinate"), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: not a coordinate Matrix Market file", file);
  *cplx    = (PetscBool)(strstr(line, " complex") != NULL);
  *pattern = (PetscBool)(strstr(line, " pattern") != NULL);
  PetscCheck(*cplx || *pattern || strstr(line, " real") || strstr(line, " integer"), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: neither real, integer, complex nor pattern", file);
  *sym = strstr(line, "skew-symmetric") ? MTX_SKEW_SYMMETRIC : (strstr(line, "hermitian") ? MTX_HERMITIAN : (strstr(line, "symmetric") ? MTX_SYMMETRIC : MTX_GENERAL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MtxReadable - whether this build can read file: not a complex matrix in a real build */
static inline PetscErrorCode MtxReadable(const char *file, PetscBool *ok)
{
  FILE       *f;
  char        line[512];
  PetscBool   cplx, pattern;
  MtxSymmetry sym;

  PetscFunctionBeginUser;
  PetscCall(PetscFOpen(PETSC_COMM_SELF, file, "r", &f));
  PetscCheck(fgets(line, sizeof(line), f), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: empty", file);
  PetscCall(PetscFClose(PETSC_COMM_SELF, f));
  PetscCall(MtxHeader(file, line, &cplx, &pattern, &sym));
  *ok = (PetscBool)(!cplx || PetscDefined(USE_COMPLEX));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Reads a Matrix Market file (real, integer, pattern: entries 1, or complex; general, symmetric, skew-symmetric or
  Hermitian: the stored triangle mirrored) into an AIJ matrix on comm, each process keeping its rows, duplicates
  summed; the type can be changed with -mat_type. Every process reads the file.
*/
static inline PetscErrorCode MtxLoad(MPI_Comm comm, const char *file, MtxSymmetry *sym, Mat *A)
{
  FILE        *f;
  char         line[512];
  PetscInt     M, N, L, n = 0, rstart, rend, cstart, cend, *ri, *ci, *dnz, *onz;
  PetscScalar *va;
  PetscBool    cplx, pattern;

  PetscFunctionBeginUser;
  PetscCall(PetscFOpen(PETSC_COMM_SELF, file, "r", &f));
  PetscCheck(fgets(line, sizeof(line), f), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: empty", file);
  PetscCall(MtxHeader(file, line, &cplx, &pattern, sym));
  PetscCheck(!cplx || PetscDefined(USE_COMPLEX), PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: complex matrices need a complex build", file);
  do PetscCheck(fgets(line, sizeof(line), f), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: no size line", file);
  while (line[0] == '%');
  PetscCheck(sscanf(line, "%" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT, &M, &N, &L) == 3, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: bad size line", file);
  PetscCall(PetscMalloc3(2 * L, &ri, 2 * L, &ci, 2 * L, &va));
  for (PetscInt e = 0; e < L; e++) {
    PetscInt r, c;
    double   re = 1, im = 0;

    PetscCheck(fgets(line, sizeof(line), f) && sscanf(line, "%" PetscInt_FMT " %" PetscInt_FMT " %lf %lf", &r, &c, &re, &im) >= (pattern ? 2 : 3), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: bad entry %" PetscInt_FMT, file, e);
    ri[n] = r - 1;
    ci[n] = c - 1;
#if defined(PETSC_USE_COMPLEX)
    va[n] = PetscCMPLX(re, im);
#else
    va[n] = re;
#endif
    n++;
    if (*sym != MTX_GENERAL && r != c) {
      ri[n] = c - 1;
      ci[n] = r - 1;
      va[n] = *sym == MTX_HERMITIAN ? PetscConj(va[n - 1]) : (*sym == MTX_SKEW_SYMMETRIC ? -va[n - 1] : va[n - 1]);
      n++;
    }
  }
  PetscCall(PetscFClose(PETSC_COMM_SELF, f));
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, M, N));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  PetscCall(MatGetOwnershipRangeColumn(*A, &cstart, &cend));
  PetscCall(PetscCalloc2(rend - rstart, &dnz, rend - rstart, &onz));
  for (PetscInt e = 0; e < n; e++) {
    if (ri[e] < rstart || ri[e] >= rend) continue;
    if (ci[e] >= cstart && ci[e] < cend) dnz[ri[e] - rstart]++;
    else onz[ri[e] - rstart]++;
  }
  for (PetscInt r = 0; r < rend - rstart; r++) { /* duplicates are counted twice: an upper bound, capped */
    dnz[r] = PetscMin(dnz[r], cend - cstart);
    onz[r] = PetscMin(onz[r], N - (cend - cstart));
  }
  PetscCall(MatSeqAIJSetPreallocation(*A, 0, dnz));
  PetscCall(MatMPIAIJSetPreallocation(*A, 0, dnz, 0, onz));
  for (PetscInt e = 0; e < n; e++)
    if (ri[e] >= rstart && ri[e] < rend) PetscCall(MatSetValue(*A, ri[e], ci[e], va[e], ADD_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree2(dnz, onz));
  PetscCall(PetscFree3(ri, ci, va));
  PetscFunctionReturn(PETSC_SUCCESS);
}
