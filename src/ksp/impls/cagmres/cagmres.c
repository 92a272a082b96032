/*
   KSPCAGMRES: communication-avoiding GMRES(s, m), left or right preconditioning (Hoemmen 2010; Yamazaki,
   Anzt, Tomov, Hoemmen and Dongarra, "Studying the performance of CA-GMRES on multicores with multiple
   GPUs"). Each restart cycle builds the Krylov basis s vectors at a time with a matrix-powers kernel,
   orthogonalizes each block against the earlier vectors (BOrth) and within itself (TSQR), recovers the
   Hessenberg matrix from the R factors and the change-of-basis matrix, and solves the least-squares
   problem with Givens rotations. The first cycle is standard GMRES; its Ritz values are the shifts of
   the Newton basis of the later cycles.
*/
#include "cagmresimpl.h"
#include <petscjagged/private/jaggedcite.h>

PetscLogEvent KSP_CAGMRES_BOrth, KSP_CAGMRES_TSQR, KSP_CAGMRES_Small;

const char *const KSPCAGMRESOrthogonalizations[]      = {"cholqr", "svqr", "caqr", "mgs", "cgs", "KSPCAGMRESOrthogonalization", "KSP_CAGMRES_TSQR_", NULL};
const char *const KSPCAGMRESBases[]                   = {"newton", "monomial", "KSPCAGMRESBasis", "KSP_CAGMRES_BASIS_", NULL};
const char *const KSPCAGMRESBlockOrthogonalizations[] = {"cgs", "mgs", "KSPCAGMRESBlockOrthogonalization", "KSP_CAGMRES_BORTH_", NULL};

static PetscErrorCode KSPSetUp_CAGMRES(KSP ksp)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;
  PetscInt     m = ca->m, s = ca->s;

  PetscFunctionBegin;
  PetscCall(KSPSetWorkVecs(ksp, 3));
  PetscCall(KSPCAGMRESDenseSetUp(ksp));
  /* RT ((m+1) x s), RD (s x s), Rk ((m+2) x (s+1)), Bk ((s+1) x s), M and X ((m+2) x s) */
  ca->lwork = (m + 1) * s + s * s + (m + 2) * (s + 1) + (s + 1) * s + 2 * (m + 2) * s;
  PetscCall(PetscMalloc6((m + 1) * m, &ca->H, (m + 1) * m, &ca->HR, m + 1, &ca->g, m, &ca->gc, m, &ca->gs, m, &ca->y));
  PetscCall(PetscMalloc4(ca->lwork, &ca->work, s + 1, &ca->theta, s + 1, &ca->thetaim, s, &ca->res));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPReset_CAGMRES(KSP ksp)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;

  PetscFunctionBegin;
  PetscCall(KSPCAGMRESDenseReset(ksp));
  PetscCall(PetscFree6(ca->H, ca->HR, ca->g, ca->gc, ca->gs, ca->y));
  PetscCall(PetscFree4(ca->work, ca->theta, ca->thetaim, ca->res));
  PetscCall(MatPowersDestroy(&ca->mpk));
  PetscCall(MatDestroy(&ca->mpkA));
  PetscCall(VecDestroy(&ca->soltemp));
  ca->haveshifts = PETSC_FALSE;
  ca->nc         = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The matrix-powers kernel of the current operator and preconditioner (rebuilt when the operator is another Mat) */
static PetscErrorCode KSPCAGMRESSetUpMPK(KSP ksp)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;
  Mat          A;
  const char  *prefix;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  if (ca->mpk && ca->mpkA == A) {
    PetscCall(MatPowersSetPCSide(ca->mpk, ksp->pc_side)); /* a new side sets the kernel up again */
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatPowersDestroy(&ca->mpk));
  PetscCall(MatDestroy(&ca->mpkA));
  PetscCall(MatCreateMatrixPowers(A, ca->s, &ca->mpk));
  PetscCall(MatPowersSetPC(ca->mpk, ksp->pc));
  PetscCall(MatPowersSetPCSide(ca->mpk, ksp->pc_side));
  PetscCall(KSPGetOptionsPrefix(ksp, &prefix));
  PetscCall(MatPowersSetOptionsPrefix(ca->mpk, prefix));
  PetscCall(MatPowersSetFromOptions(ca->mpk));
  PetscCall(MatPowersSetUp(ca->mpk));
  PetscCall(PetscObjectReference((PetscObject)A));
  ca->mpkA = A;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  M^{-1} x as the matrix-powers kernel applies it (MatPowersApplyPC(): PCJACOBI by the kernel's own inverse diagonal,
  so that PCJACOBI's set-up, a copy of the diagonal to the host and back, never runs), then KSP's null-space removal
*/
static PetscErrorCode KSPCAGMRESApplyPC(KSP ksp, Vec x, Vec y)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;

  PetscFunctionBegin;
  if (ksp->transpose_solve || !ca->mpk) PetscCall(KSP_PCApply(ksp, x, y));
  else {
    PetscCall(MatPowersApplyPC(ca->mpk, x, y));
    PetscCall(KSP_RemoveNullSpace(ksp, y));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Columns j .. j+kk-1 of the Hessenberg matrix from the block just orthogonalized. With Y = [q_j, v_{j+1}, ...,
  v_{j+kk}] the block generated from q_j, B Y(:, 0:kk) = Y Bk (Bk: change of basis), Y = Q Rk (Rk from RT, RD)
  and B Q(:, 0:j) = Q H_prev, so
      H(:, j:j+kk) = (Rk Bk - [H_prev Rk(0:j, :); 0]) T^{-1},   T = Rk(j:j+kk, 0:kk).
*/
static PetscErrorCode KSPCAGMRESHessenbergUpdate(KSP ksp, PetscInt j, PetscInt kk, const PetscScalar *RT, const PetscScalar *RD, PetscInt ldrd, const PetscScalar *theta, const PetscReal *thetaim)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;
  PetscInt     ld = ca->m + 1, nr = j + kk + 1, c = j + 1;
  PetscScalar *Rk = ca->work + (ca->m + 1) * ca->s + ca->s * ca->s, *Bk = Rk + nr * (kk + 1), *M = Bk + (kk + 1) * kk, *X = M + nr * kk;

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(Rk, nr * (kk + 1)));
  PetscCall(PetscArrayzero(Bk, (kk + 1) * kk));
  Rk[j] = 1.0;
  for (PetscInt col = 1; col <= kk; col++) {
    for (PetscInt i = 0; i < c; i++) Rk[i + col * nr] = RT[i + (col - 1) * c];
    for (PetscInt i = 0; i < col; i++) Rk[c + i + col * nr] = RD[i + (col - 1) * ldrd];
  }
  for (PetscInt i = 0; i < kk; i++) { /* v_{i+1} = (B - theta_i) v_i, or a conjugate pair in real arithmetic */
    Bk[i + 1 + i * (kk + 1)] = 1.0;
    if (!theta) continue;
    Bk[i + i * (kk + 1)] = theta[i];
    if (thetaim && thetaim[i] > 0 && i + 1 < kk) { /* B v_{i+1} = v_{i+2} + re v_{i+1} - im^2 v_i */
      Bk[i + (i + 1) * (kk + 1)]     = -thetaim[i] * thetaim[i];
      Bk[i + 1 + (i + 1) * (kk + 1)] = theta[i];
      Bk[i + 2 + (i + 1) * (kk + 1)] = 1.0;
      i++;
    }
  }
  for (PetscInt col = 0; col < kk; col++) {
    for (PetscInt i = 0; i < nr; i++) {
      PetscScalar sum = 0.0;

      for (PetscInt l = 0; l <= kk; l++) sum += Rk[i + l * nr] * Bk[l + col * (kk + 1)];
      if (i < c)
        for (PetscInt l = 0; l < j; l++) sum -= ca->H[i + l * ld] * Rk[l + col * nr];
      M[i + col * nr] = sum;
    }
  }
  for (PetscInt col = 0; col < kk; col++) { /* X T = M */
    const PetscScalar tcc = Rk[j + col + col * nr];

    for (PetscInt i = 0; i < nr; i++) {
      PetscScalar sum = M[i + col * nr];

      for (PetscInt l = 0; l < col; l++) sum -= X[i + l * nr] * Rk[j + l + col * nr];
      X[i + col * nr] = sum / tcc;
    }
    for (PetscInt i = 0; i < ld; i++) ca->H[i + (j + col) * ld] = i < nr ? X[i + col * nr] : 0.0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Applies the earlier Givens rotations to column col of H and a new one that zeroes H(col+1, col); returns the residual estimate */
static PetscReal KSPCAGMRESGivensColumn(KSP_CAGMRES *ca, PetscInt col)
{
  PetscInt     ld = ca->m + 1;
  PetscScalar *h  = ca->HR + col * ld, a, b;
  PetscReal    t;

  for (PetscInt i = 0; i < ld; i++) h[i] = ca->H[i + col * ld];
  for (PetscInt l = 0; l < col; l++) {
    a        = h[l];
    b        = h[l + 1];
    h[l]     = PetscConj(ca->gc[l]) * a + PetscConj(ca->gs[l]) * b;
    h[l + 1] = -ca->gs[l] * a + ca->gc[l] * b;
  }
  t = PetscSqrtReal(PetscRealPart(h[col] * PetscConj(h[col]) + h[col + 1] * PetscConj(h[col + 1])));
  if (t == 0.0) {
    ca->gc[col] = 1.0;
    ca->gs[col] = 0.0;
  } else {
    ca->gc[col] = h[col] / t;
    ca->gs[col] = h[col + 1] / t;
  }
  h[col]         = t;
  h[col + 1]     = 0.0;
  a              = ca->g[col];
  ca->g[col]     = PetscConj(ca->gc[col]) * a;
  ca->g[col + 1] = -ca->gs[col] * a;
  return PetscAbsScalar(ca->g[col + 1]);
}

/* y = HR(0:n, 0:n)^{-1} g(0:n); n is cut at the first zero diagonal (a singular least-squares problem) */
static PetscErrorCode KSPCAGMRESLeastSquares(KSP ksp, PetscInt *n, PetscScalar *y)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;
  PetscInt     ld = ca->m + 1;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < *n; i++)
    if (ca->HR[i + i * ld] == 0.0) {
      PetscCall(PetscInfo(ksp, "Singular least-squares problem: the update uses the first %" PetscInt_FMT " of %" PetscInt_FMT " basis vectors\n", i, *n));
      *n = i;
    }
  for (PetscInt i = *n - 1; i >= 0; i--) {
    PetscScalar sum = ca->g[i];

    for (PetscInt l = i + 1; l < *n; l++) sum -= ca->HR[i + l * ld] * y[l];
    y[i] = sum / ca->HR[i + i * ld];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dest = x + M^{-1} Q(:, 0:nc) y (right preconditioning) or x + Q(:, 0:nc) y (left) for the columns of the current cycle */
static PetscErrorCode KSPCAGMRESBuildSolution(KSP ksp, Vec dest)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;
  PetscInt     n  = ca->nc;
  Vec         *cols, Z = ksp->work[1], W = ksp->work[2];

  PetscFunctionBegin;
  if (dest != ksp->vec_sol) PetscCall(VecCopy(ksp->vec_sol, dest));
  PetscCall(KSPCAGMRESLeastSquares(ksp, &n, ca->y));
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecSet(Z, 0.0));
  PetscCall(KSPCAGMRESGetColumns(ksp, 0, n, &cols));
  PetscCall(VecMAXPY(Z, n, ca->y, cols));
  PetscCall(KSPCAGMRESRestoreColumns(ksp, 0, n, &cols));
  if (ksp->pc_side == PC_RIGHT) {
    PetscCall(KSPCAGMRESApplyPC(ksp, Z, W));
    Z = W;
  }
  PetscCall(VecAXPY(dest, 1.0, Z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPBuildSolution_CAGMRES(KSP ksp, Vec ptr, Vec *result)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;

  PetscFunctionBegin;
  if (!ptr) {
    if (!ca->soltemp) PetscCall(VecDuplicate(ksp->vec_sol, &ca->soltemp));
    ptr = ca->soltemp;
  }
  PetscCall(KSPCAGMRESBuildSolution(ksp, ptr));
  if (result) *result = ptr;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  One restart cycle from the residual R of norm beta: builds up to m basis vectors in blocks, with the
  convergence test after each basis vector (the rotated least-squares residual). On return ca->nc columns
  are ready for the update; *dependent tells that a block turned out dependent and ended the cycle.
*/
static PetscErrorCode KSPCAGMRESCycle(KSP ksp, Vec R, PetscReal beta, PetscBool *dependent, PetscReal *est)
{
  KSP_CAGMRES       *ca    = (KSP_CAGMRES *)ksp->data;
  const PetscBool    first = (PetscBool)(ca->basis == KSP_CAGMRES_BASIS_NEWTON && !ca->haveshifts);
  const PetscScalar *theta = NULL;
  const PetscReal   *thim  = NULL;
  PetscScalar       *RT = ca->work, *RD = ca->work + (ca->m + 1) * ca->s;
  PetscInt           j = 0;
  PetscReal         *res = ca->res;
  Vec               *V;

  PetscFunctionBegin;
  *dependent = PETSC_FALSE;
  *est       = beta;
  if (ca->basis == KSP_CAGMRES_BASIS_NEWTON && !first) {
    theta = ca->theta;
    if (!PetscDefined(USE_COMPLEX)) thim = ca->thetaim;
  }
  PetscCall(KSPCAGMRESGetColumns(ksp, 0, 1, &V));
  PetscCall(VecAXPBY(V[0], 1.0 / beta, 0.0, R));
  PetscCall(KSPCAGMRESRestoreColumns(ksp, 0, 1, &V));
  PetscCall(PetscArrayzero(ca->g, ca->m + 1));
  ca->g[0] = beta;
  ca->nc   = 0;
  ca->ncycles++;
  while (j < ca->m && !ksp->reason) {
    PetscInt       k = first ? 1 : PetscMin(ca->seff, ca->m - j), rank, kk;
    PetscBool      finite;
    PCFailedReason pcreason;

    k = PetscMin(k, ksp->max_it - ksp->its);
    if (k <= 0) break;
    PetscCall(KSPCAGMRESGetColumns(ksp, j, k + 1, &V));
    PetscCall(MatPowersApply(ca->mpk, k, theta, thim, V));
    PetscCall(KSPCAGMRESRestoreColumns(ksp, j, k + 1, &V));
    PetscCall(PCReduceFailedReason(ksp->pc));
    PetscCall(PCGetFailedReason(ksp->pc, &pcreason));
    if (pcreason) {
      PetscCheck(!ksp->errorifnotconverged, PetscObjectComm((PetscObject)ksp), PETSC_ERR_NOT_CONVERGED, "KSPSolve has not converged: the preconditioner failed (%s)", PCFailedReasons[pcreason]);
      ksp->reason = KSP_DIVERGED_PC_FAILED;
      break;
    }
    PetscCall(KSPCAGMRESOrthogonalizeBlock(ksp, j + 1, k, RT, RD, &rank, &finite));
    if (!finite) {
      if (k > 1) { /* monomial-basis overflow (or a NaN): retry with smaller blocks */
        ca->seff = PetscMax(1, k / 2);
        ca->noverflow++;
        PetscCall(PetscInfo(ksp, "Inf or NaN in a block of %" PetscInt_FMT " vectors: block size %" PetscInt_FMT " from now on\n", k, ca->seff));
        continue;
      }
      PetscCheck(!ksp->errorifnotconverged, PetscObjectComm((PetscObject)ksp), PETSC_ERR_NOT_CONVERGED, "KSPSolve has not converged due to infinity or NaN in the basis");
      ksp->reason = KSP_DIVERGED_NANORINF;
      break;
    }
    kk = PetscMin(rank + 1, k);
    PetscCall(PetscLogEventBegin(KSP_CAGMRES_Small, ksp, 0, 0, 0));
    PetscCall(KSPCAGMRESHessenbergUpdate(ksp, j, kk, RT, RD, k, theta, thim));
    for (PetscInt col = j; col < j + kk; col++) res[col - j] = KSPCAGMRESGivensColumn(ca, col);
    PetscCall(PetscLogEventEnd(KSP_CAGMRES_Small, ksp, 0, 0, 0));
    for (PetscInt col = j; col < j + kk && !ksp->reason; col++) {
      PetscReal rnorm = res[col - j];

      ksp->its++;
      ca->nc = col + 1;
      *est   = rnorm;
      KSPCheckNorm(ksp, rnorm);
      ksp->rnorm = rnorm;
      PetscCall(KSPLogResidualHistory(ksp, rnorm));
      PetscCall(KSPMonitor(ksp, ksp->its, rnorm));
      PetscCall((*ksp->converged)(ksp, ksp->its, rnorm, &ksp->reason, ksp->cnvP));
    }
    j += kk;
    if (rank < k && !ksp->reason) {
      *dependent = PETSC_TRUE;
      PetscCall(PetscInfo(ksp, "Block from basis vector %" PetscInt_FMT ": vector %" PetscInt_FMT " of %" PetscInt_FMT " depends on the earlier ones; the cycle ends with %" PetscInt_FMT " vectors\n", j - kk, rank + 1, k, j));
      break;
    }
  }
  if (first && ca->nc) PetscCall(KSPCAGMRESComputeShifts(ksp, ca->nc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSolve_CAGMRES(KSP ksp)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;
  Mat          A;
  Vec          X = ksp->vec_sol, B = ksp->vec_rhs, R = ksp->work[0];
  PetscReal    beta;

  PetscFunctionBegin;
  PetscCall(KSPCAGMRESSetUpMPK(ksp));
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  ca->seff       = ca->s;
  ca->haveshifts = PETSC_FALSE;
  ca->nfallback = ca->noverflow = ca->nbreakdown = ca->ncycles = ca->nrefined = 0;
  ca->nc                                                        = 0;
  ksp->its                                                      = 0;
  if (ksp->pc_side == PC_LEFT) { /* KSPInitialResidual(), M^{-1} as the kernel applies it */
    if (!ksp->guess_zero) {
      PetscCall(KSP_MatMult(ksp, A, X, ksp->work[1]));
      PetscCall(VecAYPX(ksp->work[1], -1.0, B));
    } else PetscCall(VecCopy(B, ksp->work[1]));
    PetscCall(KSPCAGMRESApplyPC(ksp, ksp->work[1], R));
    PetscCall(VecFlag(R, ksp->reason == KSP_DIVERGED_PC_FAILED)); /* as KSPInitialResidual(): seen by the first norm */
  } else PetscCall(KSPInitialResidual(ksp, X, ksp->work[1], ksp->work[2], R, B));
  PetscCall(VecNorm(R, NORM_2, &beta));
  KSPCheckNorm(ksp, beta);
  ksp->rnorm = beta;
  PetscCall(KSPLogResidualHistory(ksp, beta));
  PetscCall(KSPMonitor(ksp, 0, beta));
  PetscCall((*ksp->converged)(ksp, 0, beta, &ksp->reason, ksp->cnvP));
  if (!ksp->reason && beta == 0.0) {
    ksp->reason = KSP_CONVERGED_ATOL;
    PetscCall(PetscInfo(ksp, "Converged due to zero residual norm on entry\n"));
  }
  while (!ksp->reason) {
    PetscBool dependent, estconverged;
    PetscReal est;

    PetscCall(KSPCAGMRESCycle(ksp, R, beta, &dependent, &est));
    if (ca->nc) {
      PetscCall(KSPCAGMRESBuildSolution(ksp, X));
      ca->nc = 0;
    }
    if (ksp->reason < 0) break; /* NaN or failed preconditioner */
    estconverged = (PetscBool)(ksp->reason > 0);
    /* the true (left: preconditioned) residual: the start of the next cycle and the judge of convergence */
    if (ksp->pc_side == PC_LEFT) {
      PetscCall(KSP_MatMult(ksp, A, X, ksp->work[1]));
      PetscCall(VecAYPX(ksp->work[1], -1.0, B));
      PetscCall(KSPCAGMRESApplyPC(ksp, ksp->work[1], R));
    } else {
      PetscCall(KSP_MatMult(ksp, A, X, R));
      PetscCall(VecAYPX(R, -1.0, B));
    }
    PetscCall(VecNorm(R, NORM_2, &beta));
    KSPCheckNorm(ksp, beta);
    ksp->rnorm  = beta;
    ksp->reason = KSP_CONVERGED_ITERATING;
    PetscCall((*ksp->converged)(ksp, ksp->its, beta, &ksp->reason, ksp->cnvP));
    if (ksp->reason) break;
    if (estconverged) {
      PetscCall(PetscInfo(ksp, "The least-squares residual %g converged, the true residual %g did not: restart from the true residual\n", (double)est, (double)beta));
      if (beta > 10 * est) ca->nbreakdown++; /* lost orthogonality */
    }
    if (dependent) ca->nbreakdown++;
    if (ca->nbreakdown > ca->maxbreakdowns) {
      ksp->reason = KSP_DIVERGED_BREAKDOWN;
      PetscCall(PetscInfo(ksp, "%" PetscInt_FMT " restarts forced by dependent blocks or by a true residual far above the estimate: breakdown\n", ca->nbreakdown));
    } else if (ksp->its >= ksp->max_it) ksp->reason = KSP_DIVERGED_ITS;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPView_CAGMRES(KSP ksp, PetscViewer viewer)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;
  PetscBool    ascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  CA-GMRES(s=%" PetscInt_FMT ", m=%" PetscInt_FMT "): %s basis%s\n", ca->s, ca->m, KSPCAGMRESBases[ca->basis], ca->basis == KSP_CAGMRES_BASIS_NEWTON ? " (shifts: Leja-ordered Ritz values of a first standard GMRES cycle)" : ""));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  block orthogonalization %s, TSQR %s, %s\n", KSPCAGMRESBlockOrthogonalizations[ca->borth], KSPCAGMRESOrthogonalizations[ca->tsqr], ksp->cgstype == KSP_ORTHOGONALIZATION_CGS_REFINE_ALWAYS ? "twice (reorthogonalization)" : (ksp->cgstype == KSP_ORTHOGONALIZATION_CGS_REFINE_NEVER ? "once" : "twice where BOrth left a column below 1/sqrt(2) of its norm")));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  basis storage: %s\n", ca->Q ? ((PetscObject)ca->Q)->type_name : "not set up"));
  if (ca->ncycles) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  last solve: %" PetscInt_FMT " cycles, %" PetscInt_FMT " iterations\n", ca->ncycles, ksp->its));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  blocks orthogonalized twice: %" PetscInt_FMT ", TSQR fallbacks to CAQR: %" PetscInt_FMT ", block size reductions after Inf/NaN: %" PetscInt_FMT " (block size now %" PetscInt_FMT "), restarts forced by breakdowns: %" PetscInt_FMT "\n", ca->nrefined, ca->nfallback, ca->noverflow, ca->seff, ca->nbreakdown));
  }
  if (ca->mpk) {
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscCall(MatPowersView(ca->mpk, viewer));
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCAGMRESSetSizes_Private(KSP ksp, PetscInt s, PetscInt m)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(s >= 1, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCAGMRES block size s must be positive, not %" PetscInt_FMT, s);
  PetscCheck(m >= 1, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCAGMRES restart length must be positive, not %" PetscInt_FMT, m);
  if (s != ca->s || m != ca->m) {
    PetscCall(KSPReset_CAGMRES(ksp));
    ca->s           = s;
    ca->m           = m;
    ksp->setupstage = KSP_SETUP_NEW;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCAGMRESSetBlockSize_CAGMRES(KSP ksp, PetscInt s)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;

  PetscFunctionBegin;
  PetscCall(KSPCAGMRESSetSizes_Private(ksp, s, ca->m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCAGMRESGetBlockSize_CAGMRES(KSP ksp, PetscInt *s)
{
  PetscFunctionBegin;
  *s = ((KSP_CAGMRES *)ksp->data)->s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPGMRESSetRestart_CAGMRES(KSP ksp, PetscInt m)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;

  PetscFunctionBegin;
  PetscCall(KSPCAGMRESSetSizes_Private(ksp, ca->s, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPGMRESGetRestart_CAGMRES(KSP ksp, PetscInt *m)
{
  PetscFunctionBegin;
  *m = ((KSP_CAGMRES *)ksp->data)->m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCAGMRESSetBasis_CAGMRES(KSP ksp, KSPCAGMRESBasis basis)
{
  PetscFunctionBegin;
  ((KSP_CAGMRES *)ksp->data)->basis = basis;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCAGMRESSetOrthogonalization_CAGMRES(KSP ksp, KSPCAGMRESOrthogonalization tsqr)
{
  PetscFunctionBegin;
  ((KSP_CAGMRES *)ksp->data)->tsqr = tsqr;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCAGMRESSetBlockOrthogonalization_CAGMRES(KSP ksp, KSPCAGMRESBlockOrthogonalization borth)
{
  PetscFunctionBegin;
  ((KSP_CAGMRES *)ksp->data)->borth = borth;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCAGMRESGetBasis_CAGMRES(KSP ksp, KSPCAGMRESBasis *basis)
{
  PetscFunctionBegin;
  *basis = ((KSP_CAGMRES *)ksp->data)->basis;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCAGMRESGetOrthogonalization_CAGMRES(KSP ksp, KSPCAGMRESOrthogonalization *tsqr)
{
  PetscFunctionBegin;
  *tsqr = ((KSP_CAGMRES *)ksp->data)->tsqr;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCAGMRESGetBlockOrthogonalization_CAGMRES(KSP ksp, KSPCAGMRESBlockOrthogonalization *borth)
{
  PetscFunctionBegin;
  *borth = ((KSP_CAGMRES *)ksp->data)->borth;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCAGMRESSetMaxBreakdowns_CAGMRES(KSP ksp, PetscInt n)
{
  PetscFunctionBegin;
  PetscCheck(n >= 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCAGMRES breakdowns allowed (-ksp_cagmres_max_breakdowns) must be nonnegative, not %" PetscInt_FMT, n);
  ((KSP_CAGMRES *)ksp->data)->maxbreakdowns = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCAGMRESGetMaxBreakdowns_CAGMRES(KSP ksp, PetscInt *n)
{
  PetscFunctionBegin;
  *n = ((KSP_CAGMRES *)ksp->data)->maxbreakdowns;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetFromOptions_CAGMRES(KSP ksp, PetscOptionItems PetscOptionsObject)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;
  PetscInt     s = ca->s, m = ca->m, nb;
  PetscBool    flg;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "KSP CA-GMRES options (communication-avoiding GMRES)");
  PetscCall(PetscOptionsInt("-ksp_cagmres_s", "Block size s: basis vectors per matrix-powers kernel call", "KSPCAGMRESSetBlockSize", s, &s, NULL));
  PetscCall(PetscOptionsInt("-ksp_gmres_restart", "Restart length m (the last block of a cycle has m mod s vectors when s does not divide m)", "KSPGMRESSetRestart", m, &m, NULL));
  PetscCall(KSPCAGMRESSetSizes_Private(ksp, s, m));
  PetscCall(PetscOptionsEnum("-ksp_cagmres_basis", "Polynomial basis", "KSPCAGMRESSetBasis", KSPCAGMRESBases, (PetscEnum)ca->basis, (PetscEnum *)&ca->basis, NULL));
  PetscCall(PetscOptionsEnum("-ksp_cagmres_tsqr", "Orthogonalization within a block (TSQR)", "KSPCAGMRESSetOrthogonalization", KSPCAGMRESOrthogonalizations, (PetscEnum)ca->tsqr, (PetscEnum *)&ca->tsqr, NULL));
  PetscCall(PetscOptionsEnum("-ksp_cagmres_borth", "Orthogonalization against the earlier basis vectors (BOrth)", "KSPCAGMRESSetBlockOrthogonalization", KSPCAGMRESBlockOrthogonalizations, (PetscEnum)ca->borth, (PetscEnum *)&ca->borth, NULL));
  PetscCall(PetscOptionsInt("-ksp_cagmres_max_breakdowns", "Restarts forced by dependent blocks or lost orthogonality before KSP_DIVERGED_BREAKDOWN", "KSPCAGMRESSetMaxBreakdowns", ca->maxbreakdowns, &nb, &flg));
  if (flg) PetscCall(KSPCAGMRESSetMaxBreakdowns(ksp, nb));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPDestroy_CAGMRES(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPReset_CAGMRES(ksp));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESSetBlockSize_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESGetBlockSize_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESSetBasis_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESSetOrthogonalization_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESSetBlockOrthogonalization_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESGetBasis_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESGetOrthogonalization_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESGetBlockOrthogonalization_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESSetMaxBreakdowns_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESGetMaxBreakdowns_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPGMRESSetRestart_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPGMRESGetRestart_C", NULL));
  PetscCall(KSPDestroyDefault(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCAGMRESSetBlockSize - Sets the block size s of `KSPCAGMRES`: the basis vectors built per matrix-powers kernel call

  Logically Collective

  Input Parameters:
+ ksp - the `KSPCAGMRES` solver
- s   - the block size, at least 1; when it does not divide the restart length m, the last block of each cycle has m mod s vectors

  Options Database Key:
. -ksp_cagmres_s <s> - the block size

  Level: intermediate

.seealso: `KSPCAGMRES`, `KSPCAGMRESGetBlockSize()`, `KSPGMRESSetRestart()`
@*/
PetscErrorCode KSPCAGMRESSetBlockSize(KSP ksp, PetscInt s)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ksp, s, 2);
  PetscTryMethod(ksp, "KSPCAGMRESSetBlockSize_C", (KSP, PetscInt), (ksp, s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCAGMRESGetBlockSize - Gets the block size s of `KSPCAGMRES`

  Not Collective

  Input Parameter:
. ksp - the `KSPCAGMRES` solver

  Output Parameter:
. s - the block size

  Level: intermediate

.seealso: `KSPCAGMRES`, `KSPCAGMRESSetBlockSize()`
@*/
PetscErrorCode KSPCAGMRESGetBlockSize(KSP ksp, PetscInt *s)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(s, 2);
  PetscUseMethod(ksp, "KSPCAGMRESGetBlockSize_C", (KSP, PetscInt *), (ksp, s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCAGMRESSetBasis - Sets the polynomial basis `KSPCAGMRES` generates its blocks in

  Logically Collective

  Input Parameters:
+ ksp   - the `KSPCAGMRES` solver
- basis - `KSP_CAGMRES_BASIS_NEWTON` (default) or `KSP_CAGMRES_BASIS_MONOMIAL`

  Options Database Key:
. -ksp_cagmres_basis <newton,monomial> - the basis

  Level: intermediate

.seealso: `KSPCAGMRES`, `KSPCAGMRESBasis`, `KSPCAGMRESGetBasis()`
@*/
PetscErrorCode KSPCAGMRESSetBasis(KSP ksp, KSPCAGMRESBasis basis)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(ksp, basis, 2);
  PetscTryMethod(ksp, "KSPCAGMRESSetBasis_C", (KSP, KSPCAGMRESBasis), (ksp, basis));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCAGMRESSetOrthogonalization - Sets how `KSPCAGMRES` orthogonalizes the vectors of a block among themselves (TSQR)

  Logically Collective

  Input Parameters:
+ ksp  - the `KSPCAGMRES` solver
- tsqr - `KSP_CAGMRES_TSQR_CHOLQR` (default), `KSP_CAGMRES_TSQR_SVQR`, `KSP_CAGMRES_TSQR_CAQR`, `KSP_CAGMRES_TSQR_MGS` or `KSP_CAGMRES_TSQR_CGS`

  Options Database Key:
. -ksp_cagmres_tsqr <cholqr,svqr,caqr,mgs,cgs> - the scheme

  Level: intermediate

  Note:
  When the Cholesky factorization of CholQR (or the factorization of SVQR) breaks down, or an R(i,i) it
  gives is below 1e-6 of the norm of the column, where the Gram matrix no longer determines it, that
  block is orthogonalized with CAQR instead (counted in `KSPView()`, reported by -info).

.seealso: `KSPCAGMRES`, `KSPCAGMRESOrthogonalization`, `KSPCAGMRESGetOrthogonalization()`, `KSPOrthogonalizationSetCGSRefinementType()`
@*/
PetscErrorCode KSPCAGMRESSetOrthogonalization(KSP ksp, KSPCAGMRESOrthogonalization tsqr)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(ksp, tsqr, 2);
  PetscTryMethod(ksp, "KSPCAGMRESSetOrthogonalization_C", (KSP, KSPCAGMRESOrthogonalization), (ksp, tsqr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCAGMRESSetBlockOrthogonalization - Sets how `KSPCAGMRES` orthogonalizes a block against the earlier basis vectors (BOrth)

  Logically Collective

  Input Parameters:
+ ksp   - the `KSPCAGMRES` solver
- borth - `KSP_CAGMRES_BORTH_CGS` (default) or `KSP_CAGMRES_BORTH_MGS`

  Options Database Key:
. -ksp_cagmres_borth <cgs,mgs> - the scheme

  Level: intermediate

.seealso: `KSPCAGMRES`, `KSPCAGMRESBlockOrthogonalization`, `KSPCAGMRESGetBlockOrthogonalization()`
@*/
PetscErrorCode KSPCAGMRESSetBlockOrthogonalization(KSP ksp, KSPCAGMRESBlockOrthogonalization borth)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(ksp, borth, 2);
  PetscTryMethod(ksp, "KSPCAGMRESSetBlockOrthogonalization_C", (KSP, KSPCAGMRESBlockOrthogonalization), (ksp, borth));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCAGMRESGetBasis - Gets the polynomial basis `KSPCAGMRES` generates its blocks in

  Not Collective

  Input Parameter:
. ksp - the `KSPCAGMRES` solver

  Output Parameter:
. basis - the basis

  Level: intermediate

.seealso: `KSPCAGMRES`, `KSPCAGMRESBasis`, `KSPCAGMRESSetBasis()`
@*/
PetscErrorCode KSPCAGMRESGetBasis(KSP ksp, KSPCAGMRESBasis *basis)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(basis, 2);
  PetscUseMethod(ksp, "KSPCAGMRESGetBasis_C", (KSP, KSPCAGMRESBasis *), (ksp, basis));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCAGMRESGetOrthogonalization - Gets how `KSPCAGMRES` orthogonalizes the vectors of a block among themselves (TSQR)

  Not Collective

  Input Parameter:
. ksp - the `KSPCAGMRES` solver

  Output Parameter:
. tsqr - the scheme

  Level: intermediate

.seealso: `KSPCAGMRES`, `KSPCAGMRESOrthogonalization`, `KSPCAGMRESSetOrthogonalization()`
@*/
PetscErrorCode KSPCAGMRESGetOrthogonalization(KSP ksp, KSPCAGMRESOrthogonalization *tsqr)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(tsqr, 2);
  PetscUseMethod(ksp, "KSPCAGMRESGetOrthogonalization_C", (KSP, KSPCAGMRESOrthogonalization *), (ksp, tsqr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCAGMRESGetBlockOrthogonalization - Gets how `KSPCAGMRES` orthogonalizes a block against the earlier basis vectors (BOrth)

  Not Collective

  Input Parameter:
. ksp - the `KSPCAGMRES` solver

  Output Parameter:
. borth - the scheme

  Level: intermediate

.seealso: `KSPCAGMRES`, `KSPCAGMRESBlockOrthogonalization`, `KSPCAGMRESSetBlockOrthogonalization()`
@*/
PetscErrorCode KSPCAGMRESGetBlockOrthogonalization(KSP ksp, KSPCAGMRESBlockOrthogonalization *borth)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(borth, 2);
  PetscUseMethod(ksp, "KSPCAGMRESGetBlockOrthogonalization_C", (KSP, KSPCAGMRESBlockOrthogonalization *), (ksp, borth));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCAGMRESSetMaxBreakdowns - Sets how many restarts forced by breakdowns `KSPCAGMRES` allows in a solve before it
  ends with `KSP_DIVERGED_BREAKDOWN`

  Logically Collective

  Input Parameters:
+ ksp - the `KSPCAGMRES` solver
- n   - the number of forced restarts allowed, nonnegative (default 5)

  Options Database Key:
. -ksp_cagmres_max_breakdowns <n> - the number of forced restarts allowed

  Level: advanced

  Note:
  A breakdown is a block whose vectors turn out dependent (R(i,i) at most 1e-12 of the vector's norm),
  or a cycle whose true residual is more than ten times the least-squares estimate (lost orthogonality).
  Each forces a restart from the true residual.

.seealso: `KSPCAGMRES`, `KSPCAGMRESGetMaxBreakdowns()`, `KSPCAGMRESSetBasis()`
@*/
PetscErrorCode KSPCAGMRESSetMaxBreakdowns(KSP ksp, PetscInt n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ksp, n, 2);
  PetscTryMethod(ksp, "KSPCAGMRESSetMaxBreakdowns_C", (KSP, PetscInt), (ksp, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCAGMRESGetMaxBreakdowns - Gets how many restarts forced by breakdowns `KSPCAGMRES` allows in a solve

  Not Collective

  Input Parameter:
. ksp - the `KSPCAGMRES` solver

  Output Parameter:
. n - the number of forced restarts allowed

  Level: advanced

.seealso: `KSPCAGMRES`, `KSPCAGMRESSetMaxBreakdowns()`
@*/
PetscErrorCode KSPCAGMRESGetMaxBreakdowns(KSP ksp, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(n, 2);
  PetscUseMethod(ksp, "KSPCAGMRESGetMaxBreakdowns_C", (KSP, PetscInt *), (ksp, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   KSPCAGMRES - "cagmres" - communication-avoiding GMRES(s, m), a drop-in for `KSPGMRES`: left preconditioning by default, right with `-ksp_pc_side right`

   Options Database Keys:
+  -ksp_cagmres_s <10>                           - block size s: basis vectors per matrix-powers kernel call, see `KSPCAGMRESSetBlockSize()`
.  -ksp_gmres_restart <30>                       - restart length m (the last block of a cycle is shorter when s does not divide m), see `KSPGMRESSetRestart()`
.  -ksp_cagmres_basis <newton,monomial>          - polynomial basis, see `KSPCAGMRESSetBasis()`
.  -ksp_cagmres_tsqr <cholqr,svqr,caqr,mgs,cgs>  - orthogonalization within a block, see `KSPCAGMRESSetOrthogonalization()`
.  -ksp_cagmres_borth <cgs,mgs>                  - orthogonalization against the earlier vectors, see `KSPCAGMRESSetBlockOrthogonalization()`
.  -ksp_orthogonalization_cgs_refinement_type <refine_never> - a second BOrth + TSQR pass (e.g. CholQR2): never, where BOrth left a column below 1/sqrt(2) of its norm (the DGKS test), always
.  -ksp_cagmres_max_breakdowns <5>               - restarts forced by breakdowns before `KSP_DIVERGED_BREAKDOWN`, see `KSPCAGMRESSetMaxBreakdowns()`
.  -mat_powers_type <auto,ghosted,plain>         - how the matrix-powers kernel computes its products (under the KSP's prefix), see `MatPowersSetType()`
-  -mat_powers_partial <false>                   - auto may ghost to a depth below s, one halo exchange every depth products, see `MatPowersSetPartial()`

   Level: intermediate

   Notes:
   Each restart cycle builds the basis of the Krylov space of B = M^{-1} A (left) or A M^{-1} (right) (M the preconditioner) in
   blocks of s vectors with a matrix-powers kernel (`MatCreateMatrixPowers()`), orthogonalizes each block
   against the earlier vectors (BOrth, one reduction with CGS) and within itself (TSQR, one reduction
   with CholQR, SVQR or CAQR), recovers the Hessenberg matrix from the R factors and the change-of-basis
   matrix, and solves the least-squares problem with Givens rotations on the host. The basis is a
   dense matrix (`MATDENSECUDA` with CUDA vectors, `MATDENSE` otherwise): the inner products of a block are
   one GEMM and one `MPI_Allreduce`.

   The first cycle is standard GMRES (blocks of one vector); the Ritz values of its Hessenberg matrix,
   in Leja order, are the shifts of the Newton basis v_{j+1} = (B - theta_j) v_j of the later cycles; a
   complex conjugate pair is applied in real arithmetic in real builds. The monomial basis v_{j+1} = B v_j
   needs no first cycle but its vectors become dependent as s grows, so that the cycles end early and the
   solve stalls: the Newton basis and the orthogonalization scheme decide whether the method converges.

   The residual estimate of the least-squares problem is tested after every basis vector (each block is
   one communication step; iteration counts are basis vectors, as in `KSPGMRES`). At the end of every cycle
   the true residual b - A x (left: M^{-1}(b - A x)) is computed; convergence is only reported when it passes the test. A true
   residual more than ten times the estimate (lost orthogonality) or a block whose vectors turn out
   dependent (R(i,i) at most 1e-12 of the vector's norm; a happy breakdown when the true residual then
   converges) forces a restart; more than -ksp_cagmres_max_breakdowns of these end the solve with
   `KSP_DIVERGED_BREAKDOWN` (`KSPCAGMRESSetMaxBreakdowns()`). As in `KSPGMRES`, each block is orthogonalized once by default; PETSc's
   `-ksp_orthogonalization_cgs_refinement_type refine_always` orthogonalizes every block twice, which
   helps where restarted GMRES nearly stagnates and costs twice the BOrth and TSQR time. With the Newton basis
   `refine_ifneeded`'s test (a column left below 1/sqrt(2) of its norm) fires on nearly every block. A block with Inf or NaN (an overflowing monomial basis) is generated again
   with half the block size; with a block of one vector it ends the solve with `KSP_DIVERGED_NANORINF`.

   -log_view shows the events MatPowers (basis generation), KSPCAGMRESBOrth, KSPCAGMRESTSQR and
   KSPCAGMRESSmall (Hessenberg update, rotations, shifts). `KSPView()` includes the matrix-powers kernel
   (its surface-to-volume ratio and extra flops) and the fallbacks of the last solve.

   As `KSPGMRES`: left preconditioning with the preconditioned residual norm by default (so that both
   take the same iterations to the same test), right preconditioning (`-ksp_pc_side right`) with the
   unpreconditioned norm. The matrix-powers kernel costs the same either way (`MatPowersSetPCSide()`).
   `KSPGMRESSetRestart()` works. Every M^{-1} of the solve goes through `MatPowersApplyPC()`: with `PCJACOBI`
   the kernel's own inverse diagonal, made on the GPU, so that `PCJACOBI`'s set-up (a copy of the diagonal to
   the host and back) does not run; the same values `PCApply()` would multiply with.

   References:
+  * - I. Yamazaki, H. Anzt, S. Tomov, M. Hoemmen and J. Dongarra, Improving the performance of CA-GMRES on multicores
       with multiple GPUs, IEEE IPDPS, 2014
-  * - M. Hoemmen, Communication-avoiding Krylov subspace methods, PhD thesis, University of California, Berkeley, 2010

.seealso: `KSPGMRES`, `KSPCAGMRESSetBlockSize()`, `KSPCAGMRESSetBasis()`, `KSPCAGMRESSetOrthogonalization()`,
          `KSPCAGMRESSetBlockOrthogonalization()`, `KSPCAGMRESSetMaxBreakdowns()`, `KSPOrthogonalizationSetCGSRefinementType()`, `MatCreateMatrixPowers()`
M*/
PETSC_EXTERN PetscErrorCode KSPCreate_CAGMRES(KSP ksp)
{
  KSP_CAGMRES *ca;

  PetscFunctionBegin;
  PetscCall(PetscNew(&ca));
  ca->s             = 10;
  ca->m             = 30;
  ca->basis         = KSP_CAGMRES_BASIS_NEWTON;
  ca->tsqr          = KSP_CAGMRES_TSQR_CHOLQR;
  ca->borth         = KSP_CAGMRES_BORTH_CGS;
  ca->maxbreakdowns = 5;
  ksp->data         = ca;
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_PRECONDITIONED, PC_LEFT, 3));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_RIGHT, 2));
  ksp->ops->setup          = KSPSetUp_CAGMRES;
  ksp->ops->solve          = KSPSolve_CAGMRES;
  ksp->ops->reset          = KSPReset_CAGMRES;
  ksp->ops->destroy        = KSPDestroy_CAGMRES;
  ksp->ops->view           = KSPView_CAGMRES;
  ksp->ops->setfromoptions = KSPSetFromOptions_CAGMRES;
  ksp->ops->buildsolution  = KSPBuildSolution_CAGMRES;
  ksp->ops->buildresidual  = KSPBuildResidualDefault;
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESSetBlockSize_C", KSPCAGMRESSetBlockSize_CAGMRES));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESGetBlockSize_C", KSPCAGMRESGetBlockSize_CAGMRES));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESSetBasis_C", KSPCAGMRESSetBasis_CAGMRES));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESSetOrthogonalization_C", KSPCAGMRESSetOrthogonalization_CAGMRES));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESSetBlockOrthogonalization_C", KSPCAGMRESSetBlockOrthogonalization_CAGMRES));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESGetBasis_C", KSPCAGMRESGetBasis_CAGMRES));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESGetOrthogonalization_C", KSPCAGMRESGetOrthogonalization_CAGMRES));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESGetBlockOrthogonalization_C", KSPCAGMRESGetBlockOrthogonalization_CAGMRES));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESSetMaxBreakdowns_C", KSPCAGMRESSetMaxBreakdowns_CAGMRES));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCAGMRESGetMaxBreakdowns_C", KSPCAGMRESGetMaxBreakdowns_CAGMRES));
  PetscCall(PetscJaggedCiteCAGMRES());
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPGMRESSetRestart_C", KSPGMRESSetRestart_CAGMRES));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPGMRESGetRestart_C", KSPGMRESGetRestart_CAGMRES));
  PetscFunctionReturn(PETSC_SUCCESS);
}
