/*
   The V-cycle of PCSPCG's single-precision image of a PCMG hierarchy (spcgmg.c), written once over a table of
   level operations (PCSPCGMGOps): on the host (spcgmghost.c, the inner preconditioner of the host inner loop and the
   reference twin) or on a stream (spcgmgdevice.cu, the device inner loop's). It repeats the steps of PCMG's
   multiplicative V-cycle (PCMGMCycle_Private()) and of its smoothers (KSPSolve_Chebyshev_FirstKind(),
   KSPSolve_Richardson() with PCJACOBI and no norms) in the same order, in single precision; the coefficients are
   computed here, in double, and each operation rounds them as the other does.
*/
#include <petscjagged/private/spcgimpl.h>

/* r = b - A x on a level */
static PetscErrorCode PCSPCGMGResidual(const PCSPCGMGOps *ops, void *ctx, const PCSPCGMGLevel *lv, const PetscJaggedScalarSingle x[], PetscJaggedScalarSingle r[])
{
  PetscFunctionBegin;
  PetscCall(ops->mult(lv->opp, x, PETSC_FALSE, r, ctx));
  PetscCall(ops->residual(lv->n, lv->b, r, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  x = the Chebyshev smoother (first kind, degree sm->its, preconditioned by D^{-1}) applied to A x = b from x (zero: x is 0,
  and b is the first residual), as KSPSolve_Chebyshev_FirstKind() runs it: p_0 = x, p_1 = p_0 + scale D^{-1} r_0, then
  p_{k+1} = (1 - omega_k) p_{k-1} + omega_k p_k + omega_k scale D^{-1} (b - A p_k)
*/
static PetscErrorCode PCSPCGMGChebyshev(const PCSPCGMGOps *ops, void *ctx, PCSPCGMGLevel *lv, const PCSPCGMGSmoother *sm, PetscBool zero)
{
  const PetscReal          scale = 2.0 / (sm->emax + sm->emin), alpha = 1.0 - scale * sm->emin, mu = 1.0 / alpha, omegaprod = 2.0 / alpha;
  PetscJaggedScalarSingle *p[3] = {lv->x, lv->w[0], lv->w[1]};
  PetscInt                 km1 = 0, k = 1, kp1 = 2;
  PetscReal                c[3] = {1.0, mu, 0.0};

  PetscFunctionBegin;
  if (!sm->its) PetscFunctionReturn(PETSC_SUCCESS);
  if (!zero) PetscCall(PCSPCGMGResidual(ops, ctx, lv, p[km1], lv->r));
  PetscCall(ops->chebyshevfirst(lv->n, scale, sm->dinv, zero ? lv->b : lv->r, p[km1], p[k], ctx));
  for (PetscInt it = 1; it < sm->its; it++) {
    PetscReal omega;
    PetscInt  t;

    c[kp1] = 2.0 * mu * c[k] - c[km1];
    omega  = omegaprod * c[k] / c[kp1];
    PetscCall(PCSPCGMGResidual(ops, ctx, lv, p[k], lv->r));
    PetscCall(ops->chebyshev(lv->n, 1.0 - omega, omega, omega * scale, sm->dinv, lv->r, p[km1], p[k], p[kp1], ctx));
    t   = km1;
    km1 = k;
    k   = kp1;
    kp1 = t;
  }
  if (k) PetscCall(ops->copy(lv->n, p[k], lv->x, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x = Richardson's sm->its steps x += scale D^{-1} (b - A x) from x (zero: x is 0), as KSPSolve_Richardson() runs them without norms */
static PetscErrorCode PCSPCGMGRichardson(const PCSPCGMGOps *ops, void *ctx, PCSPCGMGLevel *lv, const PCSPCGMGSmoother *sm, PetscBool zero)
{
  PetscFunctionBegin;
  for (PetscInt it = 0; it < sm->its; it++) {
    const PetscJaggedScalarSingle *r = lv->r;

    if (it == 0 && zero) r = lv->b;
    else PetscCall(PCSPCGMGResidual(ops, ctx, lv, lv->x, lv->r));
    PetscCall(ops->richardson(lv->n, sm->scale, sm->dinv, r, lv->x, ctx));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGMGSmooth(const PCSPCGMGOps *ops, void *ctx, PCSPCGMGLevel *lv, const PCSPCGMGSmoother *sm, PetscBool zero)
{
  PetscFunctionBegin;
  if (sm->type == PCSPCG_MG_CHEBYSHEV) PetscCall(PCSPCGMGChebyshev(ops, ctx, lv, sm, zero));
  else PetscCall(PCSPCGMGRichardson(ops, ctx, lv, sm, zero));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  z = V r: one V-cycle of the image in single precision from a zero guess, as PCMG's, through ops (r and z in the memory
  of the image): on each level from the finest down, pre-smoothing, the residual restricted to the next coarser level;
  the coarse solve; on each level back up, the coarse correction interpolated and added, post-smoothing
*/
PetscErrorCode PCSPCGMGCycle(PCSPCGMG mg, const PCSPCGMGOps *ops, void *ctx, const PetscJaggedScalarSingle r[], PetscJaggedScalarSingle z[])
{
  const PetscInt L = mg->nlevels;

  PetscFunctionBegin;
  PetscCall(ops->copy(mg->level[L - 1].n, r, mg->level[L - 1].b, ctx));
  for (PetscInt l = L - 1; l > 0; l--) {
    PCSPCGMGLevel *lv = &mg->level[l], *lc = &mg->level[l - 1];

    PetscCall(ops->zero(lv->n, lv->x, ctx));
    PetscCall(PCSPCGMGSmooth(ops, ctx, lv, &lv->down, PETSC_TRUE));
    PetscCall(PCSPCGMGResidual(ops, ctx, lv, lv->x, lv->r));
    PetscCall(ops->mult(&lv->restr, lv->r, PETSC_FALSE, lc->b, ctx));
  }
  PetscCall(ops->coarse(mg, ctx));
  for (PetscInt l = 1; l < L; l++) {
    PCSPCGMGLevel *lv = &mg->level[l];

    PetscCall(ops->mult(&lv->interp, mg->level[l - 1].x, PETSC_TRUE, lv->x, ctx));
    PetscCall(PCSPCGMGSmooth(ops, ctx, lv, &lv->up, PETSC_FALSE));
  }
  PetscCall(ops->copy(mg->level[L - 1].n, mg->level[L - 1].x, z, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}
