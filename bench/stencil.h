/*
   Stencil matrices of the benchmarks, as a host CSR.
*/
#pragma once

#include <petscsys.h>

typedef struct {
  PetscInt     m, n, nnz;
  PetscInt    *i, *j;
  PetscScalar *a;
} CSR;

static PetscErrorCode CSRDestroy(CSR *c)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree3(c->i, c->j, c->a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Poisson stencils on an n^d grid with Dirichlet boundaries (d = 2: 5-point; d = 3: 7- or 27-point),
  rows optionally permuted P A P^T; in the 5- and 7-point stencils the couplings along the last
  axis weigh eps (anisotropic diffusion; 1: Poisson)
*/
static PetscErrorCode Stencil(PetscInt d, PetscInt npts, PetscInt n, PetscBool permute, PetscReal eps, CSR *c)
{
  PetscInt  N = d == 2 ? n * n : n * n * n, maxnz = npts, *perm = NULL, *inv = NULL, k = 0;
  PetscReal diag = npts == 27 ? 26.0 : 2.0 * (d - 1) + 2.0 * eps;
  PetscRandom rnd;

  PetscFunctionBeginUser;
  c->m = c->n = N;
  PetscCall(PetscMalloc3(N + 1, &c->i, N * maxnz, &c->j, N * maxnz, &c->a));
  if (permute) {
    PetscCall(PetscMalloc2(N, &perm, N, &inv));
    PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
    for (PetscInt r = 0; r < N; r++) perm[r] = r;
    for (PetscInt r = N - 1; r > 0; r--) { /* Fisher-Yates */
      PetscReal u;
      PetscInt  s, t;
      PetscCall(PetscRandomGetValueReal(rnd, &u));
      s       = (PetscInt)(u * (r + 1));
      t       = perm[r];
      perm[r] = perm[s];
      perm[s] = t;
    }
    for (PetscInt r = 0; r < N; r++) inv[perm[r]] = r;
    PetscCall(PetscRandomDestroy(&rnd));
  }
  c->i[0] = 0;
  for (PetscInt pr = 0; pr < N; pr++) {
    PetscInt r = permute ? perm[pr] : pr, x = r % n, y = (r / n) % n, z = d == 3 ? r / (n * n) : 0, start = k;
    for (PetscInt dz = (d == 3 ? -1 : 0); dz <= (d == 3 ? 1 : 0); dz++)
      for (PetscInt dy = -1; dy <= 1; dy++)
        for (PetscInt dx = -1; dx <= 1; dx++) {
          PetscInt nb = PetscAbsInt(dx) + PetscAbsInt(dy) + PetscAbsInt(dz), X = x + dx, Y = y + dy, Z = z + dz, col;
          if (npts != 27 && nb > 1) continue;
          if (X < 0 || X >= n || Y < 0 || Y >= n || Z < 0 || Z >= (d == 3 ? n : 1)) continue;
          col      = (d == 3 ? Z * n * n : 0) + Y * n + X;
          c->j[k]  = permute ? inv[col] : col;
          c->a[k++] = nb == 0 ? diag : (npts != 27 && (d == 3 ? dz : dy) != 0 ? -eps : -1.0);
        }
    if (permute) PetscCall(PetscSortIntWithScalarArray(k - start, c->j + start, c->a + start));
    c->i[pr + 1] = k;
  }
  c->nnz = k;
  PetscCall(PetscFree2(perm, inv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

