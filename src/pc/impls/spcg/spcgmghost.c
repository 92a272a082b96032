/*
   The V-cycle of PCSPCG's single-precision image of a PCMG hierarchy (spcgmg.c) on the host: the inner
   preconditioner of the host inner loop (spcghost.c), and the reference twin of a device V-cycle. It
   repeats the steps of PCMG's multiplicative V-cycle (PCMGMCycle_Private()) and of its smoothers
   (KSPSolve_Chebyshev_FirstKind(), KSPSolve_Richardson() with PCJACOBI and no norms) in the same order,
   in single precision, with the level products by the distributed matrices' host products (on several
   processes each exchanges its ghosts; the V-cycle has no dot product, so no reduction).
*/
#include <petscjagged/private/spcgimpl.h>

/* r = b - A x on a level */
static PetscErrorCode PCSPCGMGResidualHost(const PCSPCGMGLevel *lv, const PetscJaggedScalarSingle x[], PetscJaggedScalarSingle r[])
{
  PetscFunctionBegin;
  PetscCall(PCSPCGDistMatMultHost(lv->opp, x, PETSC_FALSE, r));
  for (PetscInt i = 0; i < lv->n; i++) r[i] = lv->b[i] - r[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  x = the Chebyshev smoother (first kind, degree sm->its, preconditioned by D^{-1}) applied to A x = b from x (zero: x is 0,
  and b is the first residual), as KSPSolve_Chebyshev_FirstKind() runs it: p_0 = x, p_1 = p_0 + scale D^{-1} r_0, then
  p_{k+1} = (1 - omega_k) p_{k-1} + omega_k p_k + omega_k scale D^{-1} (b - A p_k)
*/
static PetscErrorCode PCSPCGMGChebyshevHost(PCSPCGMGLevel *lv, const PCSPCGMGSmoother *sm, PetscBool zero)
{
  const PetscReal                scale = 2.0 / (sm->emax + sm->emin), alpha = 1.0 - scale * sm->emin, mu = 1.0 / alpha, omegaprod = 2.0 / alpha;
  const PetscJaggedScalarSingle *dinv  = sm->dinv, *b = lv->b;
  PetscJaggedScalarSingle       *p[3] = {lv->x, lv->w[0], lv->w[1]}, *r = lv->r;
  PetscInt                       km1 = 0, k = 1, kp1 = 2;
  PetscReal                      c[3] = {1.0, mu, 0.0};

  PetscFunctionBegin;
  if (!sm->its) PetscFunctionReturn(PETSC_SUCCESS);
  if (zero) {
    const PetscJaggedScalarSingle s = (PetscJaggedScalarSingle)scale;

    for (PetscInt i = 0; i < lv->n; i++) p[k][i] = s * dinv[i] * b[i] + p[km1][i];
  } else {
    const PetscJaggedScalarSingle s = (PetscJaggedScalarSingle)scale;

    PetscCall(PCSPCGMGResidualHost(lv, p[km1], r));
    for (PetscInt i = 0; i < lv->n; i++) p[k][i] = s * dinv[i] * r[i] + p[km1][i];
  }
  for (PetscInt it = 1; it < sm->its; it++) {
    PetscReal               omega;
    PetscJaggedScalarSingle a, o, os;
    PetscInt                t;

    c[kp1] = 2.0 * mu * c[k] - c[km1];
    omega  = omegaprod * c[k] / c[kp1];
    a      = (PetscJaggedScalarSingle)(1.0 - omega);
    o      = (PetscJaggedScalarSingle)omega;
    os     = (PetscJaggedScalarSingle)(omega * scale);
    PetscCall(PCSPCGMGResidualHost(lv, p[k], r));
    for (PetscInt i = 0; i < lv->n; i++) p[kp1][i] = a * p[km1][i] + o * p[k][i] + os * (dinv[i] * r[i]);
    t   = km1;
    km1 = k;
    k   = kp1;
    kp1 = t;
  }
  if (k) PetscCall(PetscArraycpy(lv->x, p[k], lv->n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x = Richardson's sm->its steps x += scale D^{-1} (b - A x) from x (zero: x is 0), as KSPSolve_Richardson() runs them without norms */
static PetscErrorCode PCSPCGMGRichardsonHost(PCSPCGMGLevel *lv, const PCSPCGMGSmoother *sm, PetscBool zero)
{
  const PetscJaggedScalarSingle s = (PetscJaggedScalarSingle)sm->scale;

  PetscFunctionBegin;
  for (PetscInt it = 0; it < sm->its; it++) {
    const PetscJaggedScalarSingle *r = lv->r;

    if (it == 0 && zero) r = lv->b;
    else PetscCall(PCSPCGMGResidualHost(lv, lv->x, lv->r));
    for (PetscInt i = 0; i < lv->n; i++) lv->x[i] += s * (sm->dinv[i] * r[i]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGMGSmoothHost(PCSPCGMGLevel *lv, const PCSPCGMGSmoother *sm, PetscBool zero)
{
  PetscFunctionBegin;
  if (sm->type == PCSPCG_MG_CHEBYSHEV) PetscCall(PCSPCGMGChebyshevHost(lv, sm, zero));
  else PetscCall(PCSPCGMGRichardsonHost(lv, sm, zero));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  x = A^{-1} b on the coarsest level: the product of this process's rows of the dense inverse with the right-hand
  side (on several processes gathered whole first), each row's sum in single precision in the order of the device's
  warp (lane l sums the columns l, l + 32, ..., then the lanes' sums pairwise, 16 apart, 8, 4, 2, 1), or PCMG's
  coarse KSP in double
*/
/* several processes: gather the coarse right-hand side b (this process's rows, in host memory) whole into ball (host memory) */
PetscErrorCode PCSPCGMGCoarseGather(PCSPCGMG mg, const PetscJaggedScalarSingle b[], PetscJaggedScalarSingle ball[])
{
  PCSPCGMGLevel *c = &mg->level[0];
  PetscMPIInt    count;

  PetscFunctionBegin;
  PetscCall(PetscMPIIntCast(sizeof(PetscJaggedScalarSingle) * c->n, &count));
  PetscCallMPI(MPI_Allgatherv(b, count, MPI_BYTE, ball, mg->counts, mg->displs, MPI_BYTE, PetscObjectComm((PetscObject)c->A)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the coarse solve not dense: PCMG's coarse KSP in double on b, x in host memory (they may be the same array) */
PetscErrorCode PCSPCGMGCoarseSolveKSP(PCSPCGMG mg, const PetscJaggedScalarSingle b[], PetscJaggedScalarSingle x[])
{
  const PetscInt     n = mg->level[0].n;
  PetscScalar       *ba;
  const PetscScalar *xa;

  PetscFunctionBegin;
  PetscCall(VecGetArrayWrite(mg->cb, &ba));
  for (PetscInt i = 0; i < n; i++) ba[i] = (PetscScalar)b[i];
  PetscCall(VecRestoreArrayWrite(mg->cb, &ba));
  PetscCall(VecZeroEntries(mg->cx)); /* as PCMG: a zero guess known as such (a DM's initial guess makes the KSP's guess nonzero) */
  PetscCall(KSPSolve(mg->coarse, mg->cb, mg->cx));
  PetscCall(VecGetArrayRead(mg->cx, &xa));
  for (PetscInt i = 0; i < n; i++) x[i] = (PetscJaggedScalarSingle)xa[i];
  PetscCall(VecRestoreArrayRead(mg->cx, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGMGCoarseHost(PCSPCGMG mg)
{
  PCSPCGMGLevel *c = &mg->level[0];
  const PetscInt n = c->n, N = c->N;

  PetscFunctionBegin;
  if (mg->dense) {
    const PetscJaggedScalarSingle *b = c->b;

    if (mg->counts) {
      PetscCall(PCSPCGMGCoarseGather(mg, c->b, mg->ball));
      b = mg->ball;
    }
    for (PetscInt i = 0; i < n; i++) {
      const PetscJaggedScalarSingle *row = mg->inv + (size_t)i * N;
      PetscJaggedScalarSingle        part[32];

      for (PetscInt l = 0; l < 32; l++) {
        part[l] = 0;
        for (PetscInt j = l; j < N; j += 32) part[l] += row[j] * b[j];
      }
      for (PetscInt off = 16; off > 0; off /= 2)
        for (PetscInt l = 0; l < off; l++) part[l] += part[l + off];
      c->x[i] = part[0];
    }
  } else PetscCall(PCSPCGMGCoarseSolveKSP(mg, c->b, c->x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  z = V r: one V-cycle of the image in single precision from a zero guess, as PCMG's: on each level from the
  finest down, pre-smoothing, the residual restricted to the next coarser level; the coarse solve; on each level
  back up, the coarse correction interpolated and added, post-smoothing
*/
PetscErrorCode PCSPCGMGApplyHost(PCSPCGMG mg, const PetscJaggedScalarSingle r[], PetscJaggedScalarSingle z[])
{
  const PetscInt L = mg->nlevels;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_SPCG_VCycle, 0, 0, 0, 0));
  PetscCall(PetscArraycpy(mg->level[L - 1].b, r, mg->level[L - 1].n));
  for (PetscInt l = L - 1; l > 0; l--) {
    PCSPCGMGLevel *lv = &mg->level[l], *lc = &mg->level[l - 1];

    PetscCall(PetscArrayzero(lv->x, lv->n));
    PetscCall(PCSPCGMGSmoothHost(lv, &lv->down, PETSC_TRUE));
    PetscCall(PCSPCGMGResidualHost(lv, lv->x, lv->r));
    PetscCall(PCSPCGDistMatMultHost(&lv->restr, lv->r, PETSC_FALSE, lc->b));
  }
  PetscCall(PCSPCGMGCoarseHost(mg));
  for (PetscInt l = 1; l < L; l++) {
    PCSPCGMGLevel *lv = &mg->level[l];

    PetscCall(PCSPCGDistMatMultHost(&lv->interp, mg->level[l - 1].x, PETSC_TRUE, lv->x));
    PetscCall(PCSPCGMGSmoothHost(lv, &lv->up, PETSC_FALSE));
  }
  PetscCall(PetscArraycpy(z, mg->level[L - 1].x, mg->level[L - 1].n));
  PetscCall(PetscLogFlops(mg->flops));
  PetscCall(PetscLogEventEnd(PC_SPCG_VCycle, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
