/*
   PCSPCG's inner CG on the host: single-precision host vectors and the host products of the operator's
   single-precision copy (its blocks, a MatSingle, or MatJaggedMultSingle() of a jagged operator); the
   reference twin of the device loop (spcgdevice.cu), which the tests compare it with.
*/
#include <petscjagged/private/spcgimpl.h>

/* a scalar as the (re, im) pair PCSPCGContinueDirection() takes, and back */
static inline PCSPCGPair PCSPCGPairOf(PetscScalar v)
{
  PCSPCGPair p = {PetscRealPart(v), PetscImaginaryPart(v)};
  return p;
}

static inline PetscScalar PCSPCGScalarOf(PCSPCGPair p)
{
#if defined(PETSC_USE_COMPLEX)
  return PetscCMPLX(p.re, p.im);
#else
  return p.re;
#endif
}

/* Hermitian dot product of single-precision vectors, summed in double over all processes */
static PetscErrorCode PCSPCGHostDot(PC pc, const PetscJaggedScalarSingle a[], const PetscJaggedScalarSingle b[], PetscScalar *dot)
{
  PC_SPCG    *s   = (PC_SPCG *)pc->data;
  PetscScalar sum = 0.0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < s->n; i++) sum += PetscConj((PetscScalar)a[i]) * (PetscScalar)b[i];
  PetscCallMPI(MPIU_Allreduce(&sum, dot, 1, MPIU_SCALAR, MPIU_SUM, PetscObjectComm((PetscObject)pc)));
  PetscCall(PetscLogFlops(8.0 * s->n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* z = M r with the inner preconditioner: D^{-1} r (Jacobi), r (none), the V-cycle of an inner PCMG's single-precision image, or the other PC applied in double precision */
static PetscErrorCode PCSPCGHostPrecondition(PC pc)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  if (s->mg) PetscCall(PCSPCGMGApplyHost(s->mg, s->r, s->z));
  else if (s->other) {
    PetscScalar       *ra;
    const PetscScalar *za;

    PetscCall(VecGetArrayWrite(s->wr, &ra));
    for (PetscInt i = 0; i < s->n; i++) ra[i] = (PetscScalar)s->r[i];
    PetscCall(VecRestoreArrayWrite(s->wr, &ra));
    PetscCall(PCSPCGApplyOther(pc));
    PetscCall(VecGetArrayRead(s->wz, &za));
    for (PetscInt i = 0; i < s->n; i++) s->z[i] = (PetscJaggedScalarSingle)za[i];
    PetscCall(VecRestoreArrayRead(s->wz, &za));
  } else if (s->diag)
    for (PetscInt i = 0; i < s->n; i++) s->z[i] = s->dinv[i] * s->r[i];
  else
    for (PetscInt i = 0; i < s->n; i++) s->z[i] = s->r[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x in single precision with the operator's copy (host loop): its blocks, or MatJaggedMultSingle() of a jagged operator */
static PetscErrorCode PCSPCGHostMult(PC pc, const PetscJaggedScalarSingle x[], PetscJaggedScalarSingle y[])
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  if (s->hasblocks) {
    PetscCall(MatSingleMultHost(&s->copy, x, PETSC_FALSE, y));
    PetscCall(PetscLogFlops(2.0 * (s->copy.d.nnz + s->copy.o.nnz)));
  } else PetscCall(MatJaggedMultSingle(s->A, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  z = B r on the host: the inner CG on r / ||r|| from x = 0, then scaled back (see PCApply_SPCG()); tol2: the
  inner tolerance, squared, which the inner floor may raise
*/
PetscErrorCode PCSPCGHostApply(PC pc, Vec rv, PetscReal rnorm, PetscReal tol2, Vec zv)
{
  PC_SPCG           *s = (PC_SPCG *)pc->data;
  const PetscScalar *ra;
  PetscScalar       *za, rz, pq, rznew;
  PetscInt           its = 0;
  PetscBool          floorbinds;

  PetscFunctionBegin;
  if (s->floor > 0 && s->rnormlast > 0) s->floor = PCSPCGNextFloor(s->floor, s->atfloor, rnorm / s->rnormlast);
  floorbinds = (PetscBool)(PetscSqr(s->floor) > tol2);
  tol2       = PetscMax(tol2, PetscSqr(s->floor));
  PetscCall(VecGetArrayRead(rv, &ra));
  for (PetscInt i = 0; i < s->n; i++) {
    s->r[i] = (PetscJaggedScalarSingle)(ra[i] / rnorm); /* scaled: single precision keeps its range */
    s->x[i] = 0;
  }
  PetscCall(VecRestoreArrayRead(rv, &ra));
  PetscCall(PCSPCGHostPrecondition(pc));
  PetscCall(PCSPCGHostDot(pc, s->r, s->z, &rz));
  {
    PetscScalar beta = 0.0;

    if (s->cont && s->havedir && !s->contoff) { /* p = z + beta p_last; rz becomes r'p, the first alpha's numerator (its conjugate p'r over p'Ap) */
      PetscScalar por;
      PCSPCGPair  b, pr;

      PetscCall(PCSPCGHostDot(pc, s->r, s->p, &por));
      if (PCSPCGContinueDirection(PCSPCGPairOf(rz), PCSPCGPairOf(por), PCSPCGPairOf(s->rzlast), rnorm / s->rnormlast, &b, &pr)) s->contoff = PETSC_TRUE;
      beta = PCSPCGScalarOf(b);
      rz   = PCSPCGScalarOf(pr);
    }
    if (beta != 0.0)
      for (PetscInt i = 0; i < s->n; i++) s->p[i] = s->z[i] + (PetscJaggedScalarSingle)beta * s->p[i];
    else
      for (PetscInt i = 0; i < s->n; i++) s->p[i] = s->z[i]; /* p may hold anything: no 0 * p */
  }
  s->havedir = PETSC_FALSE;
  s->atfloor = PETSC_FALSE;
  while (its < s->max_it) {
    PetscScalar alpha, beta, rr;

    PetscCall(PCSPCGHostMult(pc, s->p, s->q));
    PetscCall(PCSPCGHostDot(pc, s->p, s->q, &pq));
    if (!(PetscRealPart(pq) * PetscRealPart(rz) > 0)) { /* p'Ap of another sign than r'z (both negative: a negative-definite A and inner PC), zero or not a number: keep what converged so far */
      s->nindefinite++;
      PetscCall(PetscInfo(pc, "Inner CG stopped at iteration %" PetscInt_FMT ": p'Ap = %g\n", its, (double)PetscRealPart(pq)));
      break;
    }
    alpha = PetscConj(rz) / pq; /* r'z is real but for a continued direction (r'p) */
    for (PetscInt i = 0; i < s->n; i++) {
      s->x[i] += (PetscJaggedScalarSingle)alpha * s->p[i];
      s->r[i] -= (PetscJaggedScalarSingle)alpha * s->q[i];
    }
    PetscCall(PetscLogFlops(8.0 * s->n));
    its++;
    s->havedir = PETSC_TRUE; /* p, with rz, is the last direction taken */
    s->rzlast  = rz;
    if (tol2 > 0) {
      PetscCall(PCSPCGHostDot(pc, s->r, s->r, &rr));
      if (PetscRealPart(rr) <= tol2) {
        s->atfloor = (PetscBool)(floorbinds && its < s->max_it);
        break;
      }
    }
    if (its == s->max_it) break;
    PetscCall(PCSPCGHostPrecondition(pc));
    PetscCall(PCSPCGHostDot(pc, s->r, s->z, &rznew));
    beta = rznew / rz;
    rz   = rznew;
    for (PetscInt i = 0; i < s->n; i++) s->p[i] = s->z[i] + (PetscJaggedScalarSingle)beta * s->p[i];
    PetscCall(PetscLogFlops(4.0 * s->n));
  }
  /* no inner step taken: z, the inner preconditioner applied to r, is the result */
  PetscCall(VecGetArrayWrite(zv, &za));
  for (PetscInt i = 0; i < s->n; i++) za[i] = rnorm * (its ? (PetscScalar)s->x[i] : (PetscScalar)s->z[i]);
  PetscCall(VecRestoreArrayWrite(zv, &za));
  s->napply++;
  s->ninner += its;
  PetscFunctionReturn(PETSC_SUCCESS);
}
