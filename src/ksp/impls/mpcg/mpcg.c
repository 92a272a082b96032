/*
   KSPMPCG: the outer method of the mixed-precision inner-outer CG. A flexible CG in double
   precision (Notay's truncated FCG, "Flexible conjugate gradients", SISC 22, 2000) whose
   preconditioner is PCSPCG, a CG in single precision; it stops on the true residual. When the
   KSP's PC is another one (set by the program, or -pc_type), an internal PCSPCG runs the inner CG
   preconditioned by it: in single precision for none and Jacobi and, on one or several processes, on the host
   or the GPU, as a single-precision V-cycle for PCMG and PCGAMG with Jacobi-preconditioned Chebyshev or Richardson smoothers;
   in double otherwise.
*/
#include <petsc/private/kspimpl.h>
#include <petsc/private/pcimpl.h>
#include <petscjagged.h>
#include <petscjagged/private/jaggedcite.h>

/*
  |p_0'A p_1| / (p_0'A p_0 p_1'A p_1)^(1/2) of two directions conjugate from the right above which the operator is
  taken as not symmetric (measured: below 1e-15 on symmetric operators; 8e-3 on a 2D Laplacian with Dirichlet rows
  eliminated on one side, 3e-2 on PETSc's ksp ex45 with PCMG)
*/
#define KSPMPCG_ASYMMETRY 1e-6

typedef struct {
  PetscInt     mmax;     /* previous directions kept */
  PetscInt     stagits;  /* outer iterations in a row without progress that mean stagnation */
  PetscBool    wrap;     /* run an internal PCSPCG around a PC that is not PCSPCG */
  PetscBool    cont;     /* the inner CG continues its search direction across outer iterations */
  PC           spcg;     /* that internal PCSPCG (NULL when the KSP's PC is a PCSPCG or wrap is off) */
  Vec         *P, *C;    /* directions p_k and A p_k, mmax + 1 of each, used round robin */
  PetscScalar *eta;      /* p_k' A p_k */
  PetscScalar *dots;     /* the sums of one iteration, mmax + 2 */
  PetscScalar *beta;     /* the projection coefficients of one iteration, negated, mmax */
  Vec         *Cold, *Pold; /* the kept directions of one iteration and their products, mmax */
  Vec         *W;        /* the vectors of one multiple dot product, mmax + 2 */
  PetscScalar *G;        /* p_m' A p_k of a direction m and an earlier kept one k, ring-indexed (mmax + 1)^2: conjugacy from the left */
  PetscBool    left;     /* this solve makes directions conjugate from the left, p_k' A p = 0 (a nonsymmetric operator); else from the right */
  PetscInt     start;    /* the outer iteration the kept directions were last restarted at */
  PetscInt     nleft;    /* the outer iteration at which the last solve went over to conjugacy from the left (0: never) */
  PetscInt     nreplace; /* residual replacements by the true residual in the last solve */
  PetscReal    energy;   /* decrease of the squared energy norm of the error so far in this solve */
  PetscInt     nflat;    /* outer iterations in a row that decreased it by less than rounding */
} KSP_MPCG;

/* The PCSPCG that runs the inner iterations, or NULL */
static PetscErrorCode KSPMPCGGetSPCG(KSP ksp, PC *spcg)
{
  KSP_MPCG *m = (KSP_MPCG *)ksp->data;
  PetscBool isspcg;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp->pc, PCSPCG, &isspcg));
  *spcg = isspcg ? ksp->pc : m->spcg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Where the solve would end on reason (an indefinite preconditioner, stagnation): whether PCSPCG's auto storage left its half copies
  for single precision (*done), the solve then going on from the current iterate with no kept direction
*/
static PetscErrorCode KSPMPCGFallBack(KSP ksp, const char *why, PetscBool *done)
{
  PC spcg;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  PetscCall(KSPMPCGGetSPCG(ksp, &spcg));
  if (spcg) PetscUseMethod(spcg, "PCSPCGFallBack_C", (PC, const char *, PetscBool *), (spcg, why, done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetUp_MPCG(KSP ksp)
{
  KSP_MPCG   *m = (KSP_MPCG *)ksp->data;
  PetscBool   isspcg;
  Mat         A, P;
  const char *prefix;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp->pc, PCSPCG, &isspcg));
  PetscCall(PCDestroy(&m->spcg));
  if (!isspcg && m->wrap) { /* the inner single-precision CG, preconditioned by the KSP's PC */
    PetscCall(PCCreate(PetscObjectComm((PetscObject)ksp), &m->spcg));
    PetscCall(PetscObjectIncrementTabLevel((PetscObject)m->spcg, (PetscObject)ksp, 1));
    PetscCall(PCSetType(m->spcg, PCSPCG));
    PetscCall(KSPGetOptionsPrefix(ksp, &prefix));
    PetscCall(PCSetOptionsPrefix(m->spcg, prefix));
    PetscUseMethod(m->spcg, "PCSPCGSetFromOptionsInner_C", (PC), (m->spcg)); /* the -pc_spcg_ options, not -pc_type */
    PetscCall(PCSPCGSetInnerPC(m->spcg, ksp->pc));
    PetscCall(PCGetOperators(ksp->pc, &A, &P));
    PetscCall(PCSetOperators(m->spcg, A, P));
  }
  PetscCall(KSPSetWorkVecs(ksp, 1));
  if (m->P) PetscCall(VecDestroyVecs(m->mmax + 1, &m->P));
  if (m->C) PetscCall(VecDestroyVecs(m->mmax + 1, &m->C));
  PetscCall(PetscFree4(m->eta, m->dots, m->beta, m->G));
  PetscCall(PetscFree3(m->Cold, m->Pold, m->W));
  PetscCall(KSPCreateVecs(ksp, m->mmax + 1, &m->P, 0, NULL));
  PetscCall(KSPCreateVecs(ksp, m->mmax + 1, &m->C, 0, NULL));
  PetscCall(PetscMalloc4(m->mmax + 1, &m->eta, m->mmax + 2, &m->dots, m->mmax, &m->beta, (m->mmax + 1) * (m->mmax + 1), &m->G));
  PetscCall(PetscMalloc3(m->mmax, &m->Cold, m->mmax, &m->Pold, m->mmax + 2, &m->W));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPReset_MPCG(KSP ksp)
{
  KSP_MPCG *m = (KSP_MPCG *)ksp->data;

  PetscFunctionBegin;
  if (m->P) PetscCall(VecDestroyVecs(m->mmax + 1, &m->P));
  if (m->C) PetscCall(VecDestroyVecs(m->mmax + 1, &m->C));
  PetscCall(PetscFree4(m->eta, m->dots, m->beta, m->G));
  PetscCall(PetscFree3(m->Cold, m->Pold, m->W));
  PetscCall(PCDestroy(&m->spcg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* r = b - A x; returns its norm */
static PetscErrorCode KSPMPCGTrueResidual(KSP ksp, Vec R, PetscReal *rnorm)
{
  Mat A;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  PetscCall(KSP_MatMult(ksp, A, ksp->vec_sol, R));
  PetscCall(VecAYPX(R, -1.0, ksp->vec_rhs));
  PetscCall(VecNorm(R, NORM_2, rnorm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Stagnation, decided on the energy norm of the error, which every outer step decreases (exact line
  search along p): ||e_k||_A^2 - ||e_{k+1}||_A^2 = |p'r|^2 / p'Ap. CG's residual norm is not monotone and
  may stay flat for many iterations while the error keeps falling, so it cannot tell stagnation.
  The solve has stagnated when stagits steps in a row each removed less than eps^2 of the energy
  removed so far: the error is then at rounding level in the energy norm, and no further step can
  reach a tolerance that has not been met. A converging CG never gets there before that point.
*/
static PetscBool KSPMPCGStagnated(KSP_MPCG *m, PetscReal decrease)
{
  m->energy += decrease;
  if (decrease > PETSC_MACHINE_EPSILON * PETSC_MACHINE_EPSILON * m->energy) m->nflat = 0;
  else m->nflat++;
  return (PetscBool)(m->nflat >= m->stagits);
}

/* z = B r with the preconditioner the outer iteration uses: the internal PCSPCG around the KSP's PC, or the KSP's PC itself */
static PetscErrorCode KSPMPCGPCApply(KSP ksp, Vec R, Vec Z)
{
  KSP_MPCG      *m  = (KSP_MPCG *)ksp->data;
  PC             pc = m->spcg ? m->spcg : ksp->pc;
  PCFailedReason reason;

  PetscFunctionBegin;
  if (m->spcg) {
    PetscCall(PCApply(m->spcg, R, Z));
    PetscCall(KSP_RemoveNullSpace(ksp, Z));
  } else PetscCall(KSP_PCApply(ksp, R, Z));
  PetscCall(PCGetFailedReason(pc, &reason));
  if (!reason && m->spcg) PetscCall(PCGetFailedReason(ksp->pc, &reason));
  if (reason) ksp->reason = KSP_DIVERGED_PC_FAILED;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  p = z - sum_k beta_k p_k over the nold kept directions (m->Pold, m->Cold), with r'z. From the right (the default),
  (A p_k)' p = 0: beta_k = (A p_k)' z / p_k' A p_k, then A p by a product. From the left (a nonsymmetric
  operator), p_k' A p = 0 for every kept p_k, which keeps r - alpha A p orthogonal to all of them (Galerkin):
  A z by a product, beta by forward substitution with the lower triangle of p_m' A p_k (kept in m->G), and A p
  updated along with p. For a symmetric operator the two are the same; from the right needs no G and one
  vector update fewer. m->beta keeps -beta_k. On return Pc = p, Cc = A p.
*/
static PetscErrorCode KSPMPCGProject(KSP ksp, Mat A, PetscInt i, PetscInt nold, Vec Pc, Vec Cc, PetscScalar *rz)
{
  KSP_MPCG      *m    = (KSP_MPCG *)ksp->data;
  const PetscInt ring = m->mmax + 1;

  PetscFunctionBegin;
  if (m->left) { /* A z, then p_k' A z and r'z in one reduction */
    PetscCall(KSP_MatMult(ksp, A, Pc, Cc));
    if (nold) PetscCall(VecMDotBegin(Cc, nold, m->Pold, m->beta));
    PetscCall(VecDotBegin(Pc, ksp->work[0], rz));
    if (nold) PetscCall(VecMDotEnd(Cc, nold, m->Pold, m->beta));
    PetscCall(VecDotEnd(Pc, ksp->work[0], rz));
  } else { /* (A p_k)' z and r'z in one pass */
    for (PetscInt k = 0; k < nold; k++) m->W[k] = m->Cold[k];
    m->W[nold] = ksp->work[0];
    PetscCall(VecMDot(Pc, nold + 1, m->W, m->dots));
    for (PetscInt k = 0; k < nold; k++) m->beta[k] = m->dots[k];
    *rz = m->dots[nold];
  }
  for (PetscInt k = 0; k < nold; k++) {
    const PetscInt idx = (i - nold + k) % ring;

    if (m->left)
      for (PetscInt j = 0; j < k; j++) m->beta[k] += m->G[idx * ring + (i - nold + j) % ring] * m->beta[j];
    m->beta[k] = -m->beta[k] / m->eta[idx];
  }
  if (nold) PetscCall(VecMAXPY(Pc, nold, m->beta, m->Pold));
  if (m->left && nold) PetscCall(VecMAXPY(Cc, nold, m->beta, m->Cold));
  if (!m->left) PetscCall(KSP_MatMult(ksp, A, Pc, Cc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  p'Ap into m->eta, p'r, and p'A p_k for the nrow oldest kept directions (conjugacy from the left) into this
  direction's row of m->G, in one pass.

  With probe (conjugacy from the right, one kept direction p_0), the same reduction also gives p_0'A p, which
  for a symmetric operator is (A p_0)'p = 0 to rounding. When it is not, the operator is not symmetric: p is
  made conjugate to p_0 from the left, p - c p_0 with c = p_0'A p / p_0'A p_0 (A p updated along), and the
  solve makes its directions conjugate from the left from now on.
*/
static PetscErrorCode KSPMPCGStepSums(KSP ksp, PetscInt i, PetscInt nrow, Vec Pc, Vec Cc, PetscScalar *gamma, PetscBool probe)
{
  KSP_MPCG      *m    = (KSP_MPCG *)ksp->data;
  const PetscInt ring = m->mmax + 1, cur = i % ring, prev = (i - 1) % ring;
  PetscScalar    p0Ap = 0.0;
  PetscReal      asym;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < nrow; k++) m->W[k] = m->Cold[k];
  m->W[nrow]     = Cc;
  m->W[nrow + 1] = ksp->work[0];
  PetscCall(VecMDotBegin(Pc, nrow + 2, m->W, m->dots)); /* (A p_k)' p, (A p)' p, r' p */
  if (probe) PetscCall(VecDotBegin(Cc, m->Pold[0], &p0Ap));
  PetscCall(VecMDotEnd(Pc, nrow + 2, m->W, m->dots));
  if (probe) PetscCall(VecDotEnd(Cc, m->Pold[0], &p0Ap));
  for (PetscInt k = 0; k < nrow; k++) m->G[cur * ring + (i - nrow + k) % ring] = PetscConj(m->dots[k]);
  m->eta[cur] = PetscConj(m->dots[nrow]); /* p' A p */
  *gamma      = PetscConj(m->dots[nrow + 1]); /* p' r */
  if (!probe) PetscFunctionReturn(PETSC_SUCCESS);
  asym = PetscAbsScalar(p0Ap) / PetscSqrtReal(PetscAbsScalar(m->eta[cur]) * PetscAbsScalar(m->eta[prev]));
  if (!(asym > KSPMPCG_ASYMMETRY)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscInfo(ksp, "Outer iteration %" PetscInt_FMT ": |p_0'Ap| / (p_0'Ap_0 p'Ap)^(1/2) = %g, the operator is not symmetric: directions conjugate from the left from now on\n", i, (double)asym));
  PetscCall(VecAXPY(Pc, -p0Ap / m->eta[prev], m->Pold[0]));
  PetscCall(VecAXPY(Cc, -p0Ap / m->eta[prev], m->Cold[0]));
  m->left  = PETSC_TRUE;
  m->nleft = i + 1;
  PetscCall(KSPMPCGStepSums(ksp, i, 1, Pc, Cc, gamma, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSolve_MPCG(KSP ksp)
{
  KSP_MPCG *m = (KSP_MPCG *)ksp->data;
  Mat       A, P;
  Vec       X = ksp->vec_sol, B = ksp->vec_rhs, R = ksp->work[0];
  PetscReal rnorm, bestreplaced = PETSC_MAX_REAL;
  PetscInt  nfutile = 0; /* replacements in a row that found the true residual no lower than before */
  PetscReal sign    = 1.0; /* the sign of r'Br and p'Ap: -1 for a negative-definite operator and preconditioner */

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, &P));
  if (m->spcg) { /* the operators may have changed since KSPSetUp(): PCSetUp() rebuilds only what changed */
    PetscCall(PCSetOperators(m->spcg, A, P));
    PetscCall(PCSetUp(m->spcg));
  }
  m->nreplace = 0;
  m->energy   = 0;
  m->nflat    = 0;
  m->left     = PETSC_FALSE;
  m->start    = 0;
  m->nleft    = 0;
  ksp->its    = 0;
  if (ksp->guess_zero) {
    PetscCall(VecCopy(B, R));
    PetscCall(VecSet(X, 0.0));
    PetscCall(VecNorm(R, NORM_2, &rnorm));
  } else PetscCall(KSPMPCGTrueResidual(ksp, R, &rnorm));
  KSPCheckNorm(ksp, rnorm);
  ksp->rnorm = rnorm;
  PetscCall(KSPLogResidualHistory(ksp, rnorm));
  PetscCall(KSPMonitor(ksp, 0, rnorm));
  PetscCall((*ksp->converged)(ksp, 0, rnorm, &ksp->reason, ksp->cnvP));
  {
    PC spcg;

    PetscCall(KSPMPCGGetSPCG(ksp, &spcg));
    if (spcg) PetscUseMethod(spcg, "PCSPCGSetOuterState_C", (PC, PetscBool, PetscReal), (spcg, m->cont, PetscMax(ksp->rtol * rnorm, ksp->abstol)));
  }
  for (PetscInt i = 0; !ksp->reason && i < ksp->max_it; i++) {
    /* Notay's truncation (as KSPFCG's default): 1, 2, ..., mmax previous directions, then 1 again, counted from the last restart */
    const PetscInt ring = m->mmax + 1, cur = i % ring, nold = i > m->start ? (i - m->start - 1) % m->mmax + 1 : 0;
    Vec            Pc = m->P[cur], Cc = m->C[cur];
    PetscScalar    gamma, alpha, rz;

    for (PetscInt k = 0; k < nold; k++) { /* the kept directions, oldest first */
      m->Pold[k] = m->P[(i - nold + k) % ring];
      m->Cold[k] = m->C[(i - nold + k) % ring];
    }
    PetscCall(KSPMPCGPCApply(ksp, R, Pc)); /* z = B r */
    if (ksp->reason) break;
    PetscCall(KSPMPCGProject(ksp, A, i, nold, Pc, Cc, &rz));
    KSPCheckDot(ksp, rz);
    if (!i) sign = PetscRealPart(rz) < 0.0 ? -1.0 : 1.0; /* a negative-definite A with a negative-definite B (Jacobi, say) is as good as a positive one, as for KSPCG */
    if (!(sign * PetscRealPart(rz) > 0.0)) {
      PetscBool done;

      PetscCall(KSPMPCGFallBack(ksp, "the outer iteration found the preconditioner indefinite (r'Br <= 0)", &done));
      if (done) { /* this iteration again, from the current residual, with single-precision copies */
        m->start = i--;
        continue;
      }
      ksp->reason = KSP_DIVERGED_INDEFINITE_PC;
      PetscCall(PetscInfo(ksp, "Indefinite preconditioner: r'Br = %g at outer iteration %" PetscInt_FMT "\n", (double)PetscRealPart(rz), i));
      break;
    }
    PetscCall(KSPMPCGStepSums(ksp, i, m->left ? nold : 0, Pc, Cc, &gamma, !m->left && nold == 1));
    KSPCheckDot(ksp, m->eta[cur]);
    if (!(sign * PetscRealPart(m->eta[cur]) > 0.0)) {
      ksp->reason = KSP_DIVERGED_INDEFINITE_MAT;
      PetscCall(PetscInfo(ksp, "Indefinite operator: p'Ap = %g at outer iteration %" PetscInt_FMT "\n", (double)PetscRealPart(m->eta[cur]), i));
      break;
    }
    alpha = gamma / m->eta[cur];
    PetscCall(VecAXPY(X, alpha, Pc));
    PetscCall(VecAXPY(R, -alpha, Cc));
    PetscCall(VecNorm(R, NORM_2, &rnorm));
    KSPCheckNorm(ksp, rnorm);
    ksp->its   = i + 1;
    ksp->rnorm = rnorm;
    PetscCall(KSPLogResidualHistory(ksp, rnorm));
    PetscCall(KSPMonitor(ksp, i + 1, rnorm));
    PetscCall((*ksp->converged)(ksp, i + 1, rnorm, &ksp->reason, ksp->cnvP));
    if (ksp->reason > 0) { /* converged by the recurrence: confirm with the true residual */
      PetscReal tnorm;

      PetscCall(KSPMPCGTrueResidual(ksp, R, &tnorm));
      ksp->reason = KSP_CONVERGED_ITERATING;
      ksp->rnorm  = tnorm;
      PetscCall((*ksp->converged)(ksp, i + 1, tnorm, &ksp->reason, ksp->cnvP));
      if (ksp->reason <= 0) {
        m->nreplace++;
        m->start = i + 1; /* the true residual is not orthogonal to the kept directions: the next iteration keeps none */
        PetscCall(PetscInfo(ksp, "Recurrence residual %g converged, true residual %g did not: continuing from the true residual\n", (double)rnorm, (double)tnorm));
        ksp->reason = KSP_CONVERGED_ITERATING;
        if (tnorm < 0.9 * bestreplaced) {
          bestreplaced = tnorm;
          nfutile      = 0;
        } else if (++nfutile == 3) { /* the true residual no longer falls: the tolerance is below the attainable accuracy */
          PetscBool done;

          PetscCall(KSPMPCGFallBack(ksp, "three residual replacements in a row left the true residual no lower", &done));
          if (done) nfutile = 0;
          else {
            ksp->reason = KSP_DIVERGED_BREAKDOWN;
            PetscCall(PetscInfo(ksp, "Stagnation: three residual replacements in a row left the true residual at %g (lowest %g): the tolerance is below the attainable accuracy\n", (double)tnorm, (double)bestreplaced));
          }
        }
      }
    }
    if (!ksp->reason && KSPMPCGStagnated(m, PetscRealPart(gamma * PetscConj(gamma)) / (sign * PetscRealPart(m->eta[cur])))) {
      PetscBool done;

      PetscCall(KSPMPCGFallBack(ksp, "the outer iteration stagnated", &done));
      if (done) {
        m->nflat = 0;
        m->start = i + 1;
      } else {
        ksp->reason = KSP_DIVERGED_BREAKDOWN;
        PetscCall(PetscInfo(ksp, "Stagnation: %" PetscInt_FMT " outer iterations in a row decreased the energy norm of the error by less than rounding (residual %g)\n", m->stagits, (double)rnorm));
      }
    }
  }
  if (!ksp->reason) ksp->reason = KSP_DIVERGED_ITS;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  KSPMonitorMPCG - Prints the residual norm and the inner (single-precision) iterations run so far at
  each outer iteration of `KSPMPCG` with `PCSPCG`

  Collective

  Input Parameters:
+ ksp   - the `KSPMPCG` solver
. n     - outer iteration
. rnorm - residual norm
- vf    - viewer and format

  Options Database Key:
. -ksp_monitor_mpcg - use it

  Level: intermediate

.seealso: `KSPMPCG`, `PCSPCG`, `KSPMonitorResidual()`
@*/
PetscErrorCode KSPMonitorMPCG(KSP ksp, PetscInt n, PetscReal rnorm, PetscViewerAndFormat *vf)
{
  PetscViewer viewer = vf->viewer;
  PetscInt    ninner = 0, tablevel;
  PC          spcg;

  PetscFunctionBegin;
  PetscCall(KSPMPCGGetSPCG(ksp, &spcg));
  if (spcg && spcg->setupcalled) PetscCall(PCSPCGGetInnerIterations(spcg, NULL, &ninner));
  PetscCall(PetscObjectGetTabLevel((PetscObject)ksp, &tablevel));
  PetscCall(PetscViewerPushFormat(viewer, vf->format));
  PetscCall(PetscViewerASCIIAddTab(viewer, tablevel));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%3" PetscInt_FMT " KSP MPCG residual norm %14.12e, inner iterations %" PetscInt_FMT "\n", n, (double)rnorm, ninner));
  PetscCall(PetscViewerASCIISubtractTab(viewer, tablevel));
  PetscCall(PetscViewerPopFormat(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPView_MPCG(KSP ksp, PetscViewer viewer)
{
  KSP_MPCG *m = (KSP_MPCG *)ksp->data;
  PetscBool ascii;
  PC        spcg;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  outer: flexible CG in double precision, up to %" PetscInt_FMT " previous directions kept (Notay truncation), conjugate from the left when the operator is not symmetric; stops on the true residual\n", m->mmax));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  stagnation: %" PetscInt_FMT " outer iterations in a row that decrease the energy norm of the error by less than rounding\n", m->stagits));
  PetscCall(KSPMPCGGetSPCG(ksp, &spcg));
  if (!spcg) PetscCall(PetscViewerASCIIPrintf(viewer, "  inner: none; the preconditioner below runs as it is, once per outer iteration (-ksp_mpcg_single_inner 0)\n"));
  else if (spcg != ksp->pc) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  inner: an internal PCSPCG preconditioned by the PC below\n"));
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscCall(PCView(spcg, viewer));
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
  if (spcg && spcg->setupcalled) {
    PetscInt ninner;

    PetscCall(PCSPCGGetInnerIterations(spcg, NULL, &ninner));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  last solve: %" PetscInt_FMT " outer iterations; inner (single precision) iterations since set-up: %" PetscInt_FMT "\n", ksp->its, ninner));
  }
  if (m->nleft) PetscCall(PetscViewerASCIIPrintf(viewer, "  last solve: the operator is not symmetric; directions conjugate from the left from outer iteration %" PetscInt_FMT " on\n", m->nleft));
  if (m->nreplace) PetscCall(PetscViewerASCIIPrintf(viewer, "  residual replaced by the true residual %" PetscInt_FMT " times in the last solve (the kept directions restarted each time)\n", m->nreplace));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetFromOptions_MPCG(KSP ksp, PetscOptionItems PetscOptionsObject)
{
  KSP_MPCG *m = (KSP_MPCG *)ksp->data;
  PetscInt  n;
  PetscBool flg, b;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "KSP MPCG options (mixed-precision inner-outer CG)");
  PetscCall(PetscOptionsInt("-ksp_mpcg_mmax", "Previous search directions kept (truncation)", "KSPMPCGSetTruncation", m->mmax, &n, &flg));
  if (flg) PetscCall(KSPMPCGSetTruncation(ksp, n));
  PetscCall(PetscOptionsInt("-ksp_mpcg_stagnation_its", "Outer iterations in a row that decrease the energy norm of the error by less than rounding that stop the solve", "KSPMPCGSetStagnationIterations", m->stagits, &n, &flg));
  if (flg) PetscCall(KSPMPCGSetStagnationIterations(ksp, n));
  PetscCall(PetscOptionsBool("-ksp_mpcg_continue_inner", "The inner CG continues its search direction across outer iterations, and stops at the reduction still needed", "KSPMPCGSetContinueInner", m->cont, &b, &flg));
  if (flg) PetscCall(KSPMPCGSetContinueInner(ksp, b));
  PetscCall(PetscOptionsBool("-ksp_mpcg_single_inner", "With a PC other than spcg: run the single-precision inner CG preconditioned by it (else the PC alone, in double)", "KSPMPCGSetSingleInner", m->wrap, &b, &flg));
  if (flg) PetscCall(KSPMPCGSetSingleInner(ksp, b));
  PetscOptionsHeadEnd();
  PetscCall(KSPMonitorSetFromOptions(ksp, "-ksp_monitor_mpcg", "mpcg", NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPMPCGSetTruncation_MPCG(KSP ksp, PetscInt mmax)
{
  KSP_MPCG *m = (KSP_MPCG *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(mmax >= 1 && mmax <= 64, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPMPCG truncation (-ksp_mpcg_mmax) must be in [1, 64], not %" PetscInt_FMT, mmax);
  if (mmax != m->mmax) { /* the kept directions are allocated at set-up */
    PetscCall(KSPReset_MPCG(ksp));
    m->mmax         = mmax;
    ksp->setupstage = KSP_SETUP_NEW;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPMPCGGetTruncation_MPCG(KSP ksp, PetscInt *mmax)
{
  PetscFunctionBegin;
  *mmax = ((KSP_MPCG *)ksp->data)->mmax;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPMPCGSetStagnationIterations_MPCG(KSP ksp, PetscInt its)
{
  PetscFunctionBegin;
  PetscCheck(its >= 1, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPMPCG stagnation iterations (-ksp_mpcg_stagnation_its) must be positive, not %" PetscInt_FMT, its);
  ((KSP_MPCG *)ksp->data)->stagits = its;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPMPCGGetStagnationIterations_MPCG(KSP ksp, PetscInt *its)
{
  PetscFunctionBegin;
  *its = ((KSP_MPCG *)ksp->data)->stagits;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPMPCGSetContinueInner_MPCG(KSP ksp, PetscBool flg)
{
  PetscFunctionBegin;
  ((KSP_MPCG *)ksp->data)->cont = flg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPMPCGGetContinueInner_MPCG(KSP ksp, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = ((KSP_MPCG *)ksp->data)->cont;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPMPCGSetSingleInner_MPCG(KSP ksp, PetscBool flg)
{
  KSP_MPCG *m = (KSP_MPCG *)ksp->data;

  PetscFunctionBegin;
  if (flg != m->wrap) ksp->setupstage = KSP_SETUP_NEW; /* KSPSetUp() makes (or drops) the internal PCSPCG */
  m->wrap = flg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPMPCGGetSingleInner_MPCG(KSP ksp, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = ((KSP_MPCG *)ksp->data)->wrap;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPMPCGGetInnerIterations_MPCG(KSP ksp, PetscInt *napply, PetscInt *ninner)
{
  PC spcg;

  PetscFunctionBegin;
  PetscCall(KSPMPCGGetSPCG(ksp, &spcg));
  if (spcg && spcg->setupcalled) PetscCall(PCSPCGGetInnerIterations(spcg, napply, ninner));
  else {
    if (napply) *napply = 0;
    if (ninner) *ninner = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPDestroy_MPCG(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPReset_MPCG(ksp));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPMPCGSetTruncation_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPMPCGGetTruncation_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPMPCGSetStagnationIterations_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPMPCGGetStagnationIterations_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPMPCGSetContinueInner_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPMPCGGetContinueInner_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPMPCGSetSingleInner_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPMPCGGetSingleInner_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPMPCGGetInnerIterations_C", NULL));
  PetscCall(KSPDestroyDefault(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   KSPMPCG - "mpcg" - mixed-precision inner-outer conjugate gradients: a flexible CG in double
   precision whose preconditioner is an inner CG in single precision (`PCSPCG`)

   Options Database Keys:
+  -ksp_mpcg_mmax <30>             - at most this many previous directions kept (Notay's truncation), see `KSPMPCGSetTruncation()`
.  -ksp_mpcg_stagnation_its <30>  - outer iterations in a row that decrease the energy norm of the error by less than rounding that end the solve, see `KSPMPCGSetStagnationIterations()`
.  -ksp_mpcg_single_inner <true>  - with a preconditioner other than `PCSPCG`: run the single-precision inner CG preconditioned by it, see `KSPMPCGSetSingleInner()`
.  -ksp_mpcg_continue_inner <true> - the inner CG continues its search direction from one outer iteration to the next, and stops at half the reduction the solve still needs, see `KSPMPCGSetContinueInner()`
-  -ksp_monitor_mpcg               - monitor the residual and the inner iterations, see `KSPMonitorMPCG()`

   Level: intermediate

   Notes:
   Most of the work runs in single precision in the inner iterations; the outer iterations correct
   in double precision, so the solution reaches double-precision accuracy. Convergence is tested on
   the unpreconditioned residual and, when the recurrence says converged, confirmed on the true
   residual b - A x; a recurrence that drifted is replaced by the true residual and the solve goes on.

   The preconditioner: with no PC type set, `PCSPCG` (the `-pc_spcg_` options apply), whose inner CG is then
   unpreconditioned (`-pc_spcg_jacobi` adds Jacobi in single precision): on the GPU much faster than `KSPCG` with
   PETSc's default PC (block Jacobi with ILU, applied on the host) on stencil and finite-element problems (figures in
   the project's bench/RESULTS.md), while on the CPU that default, or `-pc_type jacobi`, may serve better
   (elasticity, `ksp ex56`). When the program
   or `-pc_type` sets another PC, `KSPMPCG` keeps it and runs an internal `PCSPCG` whose inner CG is
   preconditioned by it: `PCNONE` and `PCJACOBI` (diagonal) run in single precision inside the inner
   loop (on the GPU with CUDA vectors), so does a `PCMG` or `PCGAMG` with Chebyshev or Richardson smoothers
   preconditioned by Jacobi, as an image of its hierarchy (on one or several processes, on the host or the GPU: see `PCSPCGSetMG()`);
   any other PC is applied as it is, in double precision, to the
   inner residual converted from single precision, and its output converted back. `-ksp_view` shows
   which. So `-ksp_type mpcg` alone turns any CG solve into a mixed-precision one.

   The inner CG restarts at each outer iteration from the new double-precision residual but, by default,
   continues its search direction (p = z + beta p_last, the first step an exact line search; dropped
   when p'r <= 0): the single-precision CG then behaves as one CG whose residual is replaced by the true
   one at every outer iteration (the "reliable updates" of Clark et al., 2010), and loses far less of
   its Krylov information than with restarts. Each inner solve also stops once it has reached half the
   reduction the outer iteration still needs, and once it has reached the reduction single precision
   delivers (below it the inner residual still falls but the inner solution no longer improves, and each
   further inner iteration, a PC application with it, would be lost). That reduction is approached from
   above: 1e-4 at first; when an inner solve stopped there, an outer reduction weaker than twice it raises it to
   that reduction (at most 1e-2), any other lowers it 10-fold (to 1e-6 at least); `-ksp_view` shows it.
   `-ksp_mpcg_continue_inner 0` restarts the inner CG cold.

   The outer iteration keeps, as `KSPFCG` does by default, 1, 2, ..., mmax previous directions and
   then starts again from 1 (Notay). Each new direction is made conjugate to the kept ones, and the residual
   stays orthogonal to them. For a symmetric operator this is Notay's projection, (A p_k)'p = 0. An operator
   that is not symmetric (Dirichlet rows eliminated on one side, as in PETSc's ksp ex45) needs conjugacy from the
   left, p_k'A p = 0: with conjugacy from the right the residual keeps a component along a kept direction that
   every new direction is stripped of, and the solve stands still until the truncation drops that direction
   (182 outer iterations instead of 3 on ex45 24^3 with Jacobi). The solve tests this at its second iteration
   (p_0'A p_1, one more sum in a reduction it makes anyway) and, when the operator is not symmetric, makes
   its directions conjugate from the left from then on: A z before the projection, the coefficients by forward
   substitution with the products p_m'A p_k of the kept directions, one more vector update per iteration. A
   residual replaced by the true one is not orthogonal to the kept directions either: the truncation
   restarts there. `-ksp_view` says which conjugacy the last solve used.

   As `KSPCG`, it takes a negative-definite operator with a negative-definite preconditioner (Jacobi of a
   negative-definite matrix, say) as it takes a positive-definite one: the sign of the first r'Br sets the
   sign r'Br and p'Ap must keep (the inner CG likewise). Ends with
   `KSP_DIVERGED_INDEFINITE_MAT` when p'Ap changes sign, `KSP_DIVERGED_INDEFINITE_PC` when r'Br
   does, `KSP_DIVERGED_NANORINF` on NaN or Inf, and
   `KSP_DIVERGED_BREAKDOWN` on stagnation. Stagnation is judged on the energy norm of the error,
   which every outer step decreases by |p'r|^2 / |p'Ap| (the residual norm of CG is not monotone and is
   no measure of progress): it is declared when `-ksp_mpcg_stagnation_its` steps in a row each remove
   less than (machine epsilon)^2 of what the solve has removed so far, or when three replacements by
   the true residual in a row find it no lower: the tolerance is then below the attainable accuracy.
   A slowly converging solve, however slow, is never stopped as stagnated; it ends at the iteration
   limit with `KSP_DIVERGED_ITS` as `KSPCG` would.
   Where `PCSPCG`'s auto storage (the default, `PCSPCGSetStorage()`) keeps half-precision copies, an
   indefinite preconditioner or stagnation first makes every copy single precision again, and the solve
   goes on from its iterate; only single-precision copies end it so.

   References:
+  * - A. Cevahir, A. Nukada and S. Matsuoka, Fast conjugate gradients with multiple GPUs, ICCS 2009, LNCS 5544, Springer
-  * - Y. Notay, Flexible conjugate gradients, SIAM J. Sci. Comput. 22(4), 1444-1460, 2000

.seealso: `PCSPCG`, `PCSPCGSetInnerPC()`, `KSPMPCGSetTruncation()`, `KSPMPCGSetStagnationIterations()`, `KSPMPCGSetContinueInner()`,
          `KSPMPCGSetSingleInner()`, `KSPMPCGGetInnerIterations()`, `KSPFCG`, `KSPCG`, `MatJaggedSetSinglePrecision()`
M*/
PETSC_EXTERN PetscErrorCode KSPCreate_MPCG(KSP ksp)
{
  KSP_MPCG   *m;
  PC          pc;
  const char *pctype;

  PetscFunctionBegin;
  PetscCall(PetscNew(&m));
  m->mmax    = 30;
  m->stagits = 30;
  m->wrap    = PETSC_TRUE;
  m->cont    = PETSC_TRUE;
  ksp->data  = m;
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_LEFT, 3));
  ksp->ops->setup          = KSPSetUp_MPCG;
  ksp->ops->solve          = KSPSolve_MPCG;
  ksp->ops->reset          = KSPReset_MPCG;
  ksp->ops->destroy        = KSPDestroy_MPCG;
  ksp->ops->view           = KSPView_MPCG;
  ksp->ops->setfromoptions = KSPSetFromOptions_MPCG;
  ksp->ops->buildsolution  = KSPBuildSolutionDefault;
  ksp->ops->buildresidual  = KSPBuildResidualDefault;
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPMPCGSetTruncation_C", KSPMPCGSetTruncation_MPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPMPCGGetTruncation_C", KSPMPCGGetTruncation_MPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPMPCGSetStagnationIterations_C", KSPMPCGSetStagnationIterations_MPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPMPCGGetStagnationIterations_C", KSPMPCGGetStagnationIterations_MPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPMPCGSetContinueInner_C", KSPMPCGSetContinueInner_MPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPMPCGGetContinueInner_C", KSPMPCGGetContinueInner_MPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPMPCGSetSingleInner_C", KSPMPCGSetSingleInner_MPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPMPCGGetSingleInner_C", KSPMPCGGetSingleInner_MPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPMPCGGetInnerIterations_C", KSPMPCGGetInnerIterations_MPCG));
  PetscCall(PetscJaggedCiteJDSCG());
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCGetType(pc, &pctype));
  if (!pctype) PetscCall(PCSetType(pc, PCSPCG)); /* the default; -pc_type still overrides it */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPMPCGSetTruncation - Sets how many previous search directions `KSPMPCG` keeps: the outer
  direction is made A-orthogonal to at most this many earlier ones

  Logically Collective

  Input Parameters:
+ ksp  - the `KSPMPCG` solver
- mmax - the number of directions kept, from 1 to 64 (default 30)

  Options Database Key:
. -ksp_mpcg_mmax <mmax> - the number of directions kept

  Level: intermediate

  Note:
  As `KSPFCG` with its default truncation, the outer iteration keeps 1, 2, ..., mmax previous
  directions and then starts again from 1 (Notay's truncation). Changing it after `KSPSetUp()` frees
  the kept directions; the next `KSPSetUp()` or `KSPSolve()` allocates them again.

.seealso: [](ch_ksp), `KSPMPCG`, `KSPMPCGGetTruncation()`, `KSPFCGSetMmax()`
@*/
PetscErrorCode KSPMPCGSetTruncation(KSP ksp, PetscInt mmax)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ksp, mmax, 2);
  PetscTryMethod(ksp, "KSPMPCGSetTruncation_C", (KSP, PetscInt), (ksp, mmax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPMPCGGetTruncation - Gets how many previous search directions `KSPMPCG` keeps

  Not Collective

  Input Parameter:
. ksp - the `KSPMPCG` solver

  Output Parameter:
. mmax - the number of directions kept

  Level: intermediate

.seealso: [](ch_ksp), `KSPMPCG`, `KSPMPCGSetTruncation()`
@*/
PetscErrorCode KSPMPCGGetTruncation(KSP ksp, PetscInt *mmax)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(mmax, 2);
  PetscUseMethod(ksp, "KSPMPCGGetTruncation_C", (KSP, PetscInt *), (ksp, mmax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPMPCGSetStagnationIterations - Sets how many outer iterations in a row that decrease the energy
  norm of the error by less than rounding end a `KSPMPCG` solve as stagnated

  Logically Collective

  Input Parameters:
+ ksp - the `KSPMPCG` solver
- its - the number of iterations, at least 1 (default 30)

  Options Database Key:
. -ksp_mpcg_stagnation_its <its> - the number of iterations

  Level: advanced

  Note:
  Every outer step decreases the squared energy norm of the error by |p'r|^2 / |p'Ap|. The solve ends
  with `KSP_DIVERGED_BREAKDOWN` when `its` steps in a row each remove less than (machine epsilon)^2
  of what the solve has removed so far: the error is then at rounding level. A slowly converging solve
  is never stopped this way.

.seealso: [](ch_ksp), `KSPMPCG`, `KSPMPCGGetStagnationIterations()`
@*/
PetscErrorCode KSPMPCGSetStagnationIterations(KSP ksp, PetscInt its)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ksp, its, 2);
  PetscTryMethod(ksp, "KSPMPCGSetStagnationIterations_C", (KSP, PetscInt), (ksp, its));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPMPCGGetStagnationIterations - Gets how many outer iterations in a row without progress end a `KSPMPCG` solve as stagnated

  Not Collective

  Input Parameter:
. ksp - the `KSPMPCG` solver

  Output Parameter:
. its - the number of iterations

  Level: advanced

.seealso: [](ch_ksp), `KSPMPCG`, `KSPMPCGSetStagnationIterations()`
@*/
PetscErrorCode KSPMPCGGetStagnationIterations(KSP ksp, PetscInt *its)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(its, 2);
  PetscUseMethod(ksp, "KSPMPCGGetStagnationIterations_C", (KSP, PetscInt *), (ksp, its));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPMPCGSetContinueInner - Sets whether the inner (single-precision) CG of `KSPMPCG` continues its
  search direction from one outer iteration to the next

  Logically Collective

  Input Parameters:
+ ksp - the `KSPMPCG` solver
- flg - `PETSC_TRUE` (default) to continue the direction, `PETSC_FALSE` to restart the inner CG at every outer iteration

  Options Database Key:
. -ksp_mpcg_continue_inner <bool> - continue the inner direction

  Level: advanced

  Note:
  With continuation the first inner direction of an application is z + beta p_last, p_last the last
  direction of the previous application, and each inner solve also stops once it has reached half the
  reduction the outer solve still needs. Continuation stops for the rest of a solve when the
  continued directions drift.

.seealso: [](ch_ksp), `KSPMPCG`, `KSPMPCGGetContinueInner()`, `PCSPCG`
@*/
PetscErrorCode KSPMPCGSetContinueInner(KSP ksp, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveBool(ksp, flg, 2);
  PetscTryMethod(ksp, "KSPMPCGSetContinueInner_C", (KSP, PetscBool), (ksp, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPMPCGGetContinueInner - Gets whether the inner CG of `KSPMPCG` continues its search direction from one outer iteration to the next

  Not Collective

  Input Parameter:
. ksp - the `KSPMPCG` solver

  Output Parameter:
. flg - whether the direction is continued

  Level: advanced

.seealso: [](ch_ksp), `KSPMPCG`, `KSPMPCGSetContinueInner()`
@*/
PetscErrorCode KSPMPCGGetContinueInner(KSP ksp, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(flg, 2);
  PetscUseMethod(ksp, "KSPMPCGGetContinueInner_C", (KSP, PetscBool *), (ksp, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPMPCGSetSingleInner - Sets whether `KSPMPCG` with a preconditioner other than `PCSPCG` runs the
  single-precision inner CG preconditioned by it, or applies that preconditioner alone

  Logically Collective

  Input Parameters:
+ ksp - the `KSPMPCG` solver
- flg - `PETSC_TRUE` (default): an internal `PCSPCG` runs the inner CG preconditioned by the KSP's `PC`;
        `PETSC_FALSE`: the KSP's `PC` is applied once per outer iteration, in double precision

  Options Database Key:
. -ksp_mpcg_single_inner <bool> - run the inner CG around the preconditioner

  Level: intermediate

  Note:
  Has no effect when the KSP's preconditioner is a `PCSPCG`. Changing it after `KSPSetUp()` sets the solver up again at the next `KSPSolve()`.

.seealso: [](ch_ksp), `KSPMPCG`, `KSPMPCGGetSingleInner()`, `PCSPCG`, `PCSPCGSetInnerPC()`
@*/
PetscErrorCode KSPMPCGSetSingleInner(KSP ksp, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveBool(ksp, flg, 2);
  PetscTryMethod(ksp, "KSPMPCGSetSingleInner_C", (KSP, PetscBool), (ksp, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPMPCGGetSingleInner - Gets whether `KSPMPCG` runs the single-precision inner CG around a preconditioner other than `PCSPCG`

  Not Collective

  Input Parameter:
. ksp - the `KSPMPCG` solver

  Output Parameter:
. flg - whether the inner CG runs around the preconditioner

  Level: intermediate

.seealso: [](ch_ksp), `KSPMPCG`, `KSPMPCGSetSingleInner()`
@*/
PetscErrorCode KSPMPCGGetSingleInner(KSP ksp, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(flg, 2);
  PetscUseMethod(ksp, "KSPMPCGGetSingleInner_C", (KSP, PetscBool *), (ksp, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPMPCGGetInnerIterations - Gets how often the inner (single-precision) CG of `KSPMPCG` was applied since its
  set-up and the inner iterations it ran in all

  Not Collective

  Input Parameter:
. ksp - the `KSPMPCG` solver

  Output Parameters:
+ napply - applications (may be `NULL`)
- ninner - inner iterations (may be `NULL`)

  Level: intermediate

  Note:
  Both are 0 before the first solve and without an inner CG (`KSPMPCGSetSingleInner()` with `PETSC_FALSE` and a
  preconditioner other than `PCSPCG`). The counts are those of the `PCSPCG` the solver runs, internal or its own
  (`PCSPCGGetInnerIterations()`); each inner iteration applies the inner preconditioner once.

.seealso: [](ch_ksp), `KSPMPCG`, `PCSPCGGetInnerIterations()`, `KSPMonitorMPCG()`
@*/
PetscErrorCode KSPMPCGGetInnerIterations(KSP ksp, PetscInt *napply, PetscInt *ninner)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscUseMethod(ksp, "KSPMPCGGetInnerIterations_C", (KSP, PetscInt *, PetscInt *), (ksp, napply, ninner));
  PetscFunctionReturn(PETSC_SUCCESS);
}
