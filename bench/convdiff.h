/*
   The 3D convection-diffusion operator of the benchmarks, set on a DMDA as programs do (MatSetValuesStencil()):
   -sum_d eps_d d^2u/dx_d^2 + w . grad u, 7 points, first-order upwind, Dirichlet boundaries, h = 1 / (mx + 1).
*/
#pragma once

#include <petscdmda.h>

/* The wind at grid point (i, j, k) of spacing h; ctx: what the caller gave */
typedef void (*ConvDiffWind)(PetscInt i, PetscInt j, PetscInt k, PetscReal h, const void *ctx, PetscReal w[3]);

/* A constant wind: ctx holds its three components */
static inline void ConvDiffConstantWind(PetscInt i, PetscInt j, PetscInt k, PetscReal h, const void *ctx, PetscReal w[3])
{
  const PetscReal *c = (const PetscReal *)ctx;

  (void)i, (void)j, (void)k, (void)h;
  for (PetscInt d = 0; d < 3; d++) w[d] = c[d];
}

/*
  ConvDiffSetValues - sets the rows of A this process owns on da, with INSERT_VALUES; the caller assembles. hscaled:
  the operator times h^2 (diffusion eps_d, so that Poisson has 6 on the diagonal, convection w h); else the operator
  itself with eps_d = 1 (eps NULL: 1 / h^2 and w / h)
*/
static PetscErrorCode ConvDiffSetValues(DM da, const PetscReal eps[3], PetscBool hscaled, ConvDiffWind wind, const void *ctx, Mat A)
{
  DMDALocalInfo info;
  PetscReal     h;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetLocalInfo(da, &info));
  h = 1.0 / (info.mx + 1);
  for (PetscInt k = info.zs; k < info.zs + info.zm; k++)
    for (PetscInt j = info.ys; j < info.ys + info.ym; j++)
      for (PetscInt i = info.xs; i < info.xs + info.xm; i++) {
        const PetscInt pos[3] = {i, j, k}, dim[3] = {info.mx, info.my, info.mz};
        MatStencil     row = {k, j, i, 0}, col[7];
        PetscScalar    v[7], diag = 0;
        PetscInt       n = 1;
        PetscReal      w[3];

        wind(i, j, k, h, ctx, w);
        for (PetscInt d = 0; d < 3; d++) {
          const PetscReal a = hscaled ? eps[d] : 1.0 / (h * h), c = hscaled ? w[d] * h : w[d] / h;
          PetscReal       lo = -a, hi = -a;

          if (w[d] > 0) lo -= c; /* upwind: the neighbour the wind comes from */
          else hi += c;
          diag += 2.0 * a + PetscAbsReal(c);
          for (PetscInt side = 0; side < 2; side++) {
            MatStencil cs = row;
            PetscInt   p  = pos[d] + (side ? 1 : -1);

            if (p < 0 || p >= dim[d]) continue;
            if (d == 0) cs.i = p;
            else if (d == 1) cs.j = p;
            else cs.k = p;
            col[n] = cs;
            v[n++] = side ? hi : lo;
          }
        }
        col[0] = row;
        v[0]   = diag;
        PetscCall(MatSetValuesStencil(A, 1, &row, n, col, v, INSERT_VALUES));
      }
  PetscFunctionReturn(PETSC_SUCCESS);
}
