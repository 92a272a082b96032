/*
   KSPMPCG: the outer method of the mixed-precision inner-outer CG. A flexible CG in double
   precision (Notay's truncated FCG, "Flexible conjugate gradients", SISC 22, 2000) whose
   preconditioner defaults to PCSPCG, a CG in single precision; it stops on the true residual.
*/
#include <petsc/private/kspimpl.h>
#include <petsc/private/pcimpl.h>
#include <petscjagged.h>

typedef struct {
  PetscInt     mmax;     /* previous directions kept */
  PetscInt     stagits;  /* outer iterations without progress that mean stagnation */
  Vec         *P, *C;    /* directions p_k and A p_k, mmax + 1 of each, used round robin */
  PetscScalar *eta;      /* p_k' A p_k */
  PetscScalar *dots;
  PetscInt     nreplace; /* residual replacements by the true residual in the last solve */
} KSP_MPCG;

static PetscErrorCode KSPSetUp_MPCG(KSP ksp)
{
  KSP_MPCG *m = (KSP_MPCG *)ksp->data;

  PetscFunctionBegin;
  PetscCall(KSPSetWorkVecs(ksp, 3));
  PetscCall(KSPCreateVecs(ksp, m->mmax + 1, &m->P, 0, NULL));
  PetscCall(KSPCreateVecs(ksp, m->mmax + 1, &m->C, 0, NULL));
  PetscCall(PetscMalloc2(m->mmax + 1, &m->eta, m->mmax + 1, &m->dots));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPReset_MPCG(KSP ksp)
{
  KSP_MPCG *m = (KSP_MPCG *)ksp->data;

  PetscFunctionBegin;
  if (m->P) PetscCall(VecDestroyVecs(m->mmax + 1, &m->P));
  if (m->C) PetscCall(VecDestroyVecs(m->mmax + 1, &m->C));
  PetscCall(PetscFree2(m->eta, m->dots));
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

static PetscErrorCode KSPSolve_MPCG(KSP ksp)
{
  KSP_MPCG *m = (KSP_MPCG *)ksp->data;
  Mat       A;
  Vec       X = ksp->vec_sol, B = ksp->vec_rhs, R = ksp->work[0], Z = ksp->work[1];
  PetscReal rnorm, best;
  PetscInt  i, last_progress = 0;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  m->nreplace = 0;
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
  best = rnorm;
  for (i = 0; !ksp->reason && i < ksp->max_it; i++) {
    const PetscInt cur = i % (m->mmax + 1), nold = PetscMin(i, m->mmax);
    Vec            Pc = m->P[cur], Cc = m->C[cur];
    PetscScalar    gamma, alpha, rz;

    /* z = B r, then p = z made A-orthogonal to the nold previous directions */
    PetscCall(KSP_PCApply(ksp, R, Z));
    {
      PCFailedReason pcreason;

      PetscCall(PCGetFailedReason(ksp->pc, &pcreason));
      if (pcreason) {
        ksp->reason = KSP_DIVERGED_PC_FAILED;
        break;
      }
    }
    PetscCall(VecDot(Z, R, &rz));
    KSPCheckDot(ksp, rz);
    if (PetscRealPart(rz) <= 0.0) {
      ksp->reason = KSP_DIVERGED_INDEFINITE_PC;
      PetscCall(PetscInfo(ksp, "Indefinite preconditioner: r'Br = %g at outer iteration %" PetscInt_FMT "\n", (double)PetscRealPart(rz), i));
      break;
    }
    PetscCall(VecCopy(Z, Pc));
    if (nold) {
      Vec Cold[64], Pold[64];
      for (PetscInt k = 0; k < nold; k++) {
        const PetscInt idx = (i - nold + k) % (m->mmax + 1);
        Cold[k]            = m->C[idx];
        Pold[k]            = m->P[idx];
      }
      PetscCall(VecMDot(Z, nold, Cold, m->dots)); /* (A p_k)' z */
      for (PetscInt k = 0; k < nold; k++) m->dots[k] = -m->dots[k] / m->eta[(i - nold + k) % (m->mmax + 1)];
      PetscCall(VecMAXPY(Pc, nold, m->dots, Pold));
    }
    PetscCall(KSP_MatMult(ksp, A, Pc, Cc));
    PetscCall(VecDot(Cc, Pc, &m->eta[cur])); /* p' A p */
    KSPCheckDot(ksp, m->eta[cur]);
    if (PetscRealPart(m->eta[cur]) <= 0.0) {
      ksp->reason = KSP_DIVERGED_INDEFINITE_MAT;
      PetscCall(PetscInfo(ksp, "Indefinite operator: p'Ap = %g at outer iteration %" PetscInt_FMT "\n", (double)PetscRealPart(m->eta[cur]), i));
      break;
    }
    PetscCall(VecDot(R, Pc, &gamma)); /* p' r */
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
        PetscCall(PetscInfo(ksp, "Recurrence residual %g converged, true residual %g did not: continuing from the true residual\n", (double)rnorm, (double)tnorm));
        ksp->reason = KSP_CONVERGED_ITERATING;
        rnorm       = tnorm;
      }
    }
    if (rnorm < 0.9 * best) {
      best          = rnorm;
      last_progress = i + 1;
    } else if (!ksp->reason && i + 1 - last_progress >= m->stagits) {
      ksp->reason = KSP_DIVERGED_BREAKDOWN;
      PetscCall(PetscInfo(ksp, "Stagnation: no residual reduction by 10%% in %" PetscInt_FMT " outer iterations (residual %g); the problem may be too ill-conditioned for the single-precision inner solver\n", m->stagits, (double)rnorm));
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
  PetscBool   spcg;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp->pc, PCSPCG, &spcg));
  if (spcg) PetscCall(PCSPCGGetInnerIterations(ksp->pc, NULL, &ninner));
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
  PetscBool ascii, spcg;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  flexible CG in double precision, %" PetscInt_FMT " previous directions kept (Notay truncation); stops on the true residual\n", m->mmax));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  stagnation: %" PetscInt_FMT " outer iterations without a 10%% reduction\n", m->stagits));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp->pc, PCSPCG, &spcg));
  if (spcg && ksp->pc->setupcalled) {
    PetscInt napply, ninner;

    PetscCall(PCSPCGGetInnerIterations(ksp->pc, &napply, &ninner));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  last solve: %" PetscInt_FMT " outer iterations; inner (single precision) iterations since set-up: %" PetscInt_FMT "\n", ksp->its, ninner));
  }
  if (m->nreplace) PetscCall(PetscViewerASCIIPrintf(viewer, "  residual replaced by the true residual %" PetscInt_FMT " times in the last solve\n", m->nreplace));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetFromOptions_MPCG(KSP ksp, PetscOptionItems PetscOptionsObject)
{
  KSP_MPCG *m = (KSP_MPCG *)ksp->data;
  PetscInt  mmax = m->mmax;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "KSP MPCG options (mixed-precision inner-outer CG)");
  PetscCall(PetscOptionsInt("-ksp_mpcg_mmax", "Previous search directions kept (truncation)", "KSPMPCG", mmax, &mmax, NULL));
  PetscCheck(mmax >= 1 && mmax <= 64, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "-ksp_mpcg_mmax must be in [1, 64], not %" PetscInt_FMT, mmax);
  PetscCall(PetscOptionsInt("-ksp_mpcg_stagnation_its", "Outer iterations without a 10% residual reduction that stop the solve", "KSPMPCG", m->stagits, &m->stagits, NULL));
  PetscCheck(m->stagits >= 1, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "-ksp_mpcg_stagnation_its must be positive");
  PetscOptionsHeadEnd();
  PetscCall(KSPMonitorSetFromOptions(ksp, "-ksp_monitor_mpcg", "mpcg", NULL));
  if (mmax != m->mmax) {
    PetscCall(KSPReset_MPCG(ksp));
    m->mmax         = mmax;
    ksp->setupstage = KSP_SETUP_NEW;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPDestroy_MPCG(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPReset_MPCG(ksp));
  PetscCall(KSPDestroyDefault(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   KSPMPCG - "mpcg" - mixed-precision inner-outer conjugate gradients: a flexible CG in double
   precision whose preconditioner is, unless set otherwise, `PCSPCG`, a CG in single precision

   Options Database Keys:
+  -ksp_mpcg_mmax <30>            - previous directions kept (Notay's truncation)
.  -ksp_mpcg_stagnation_its <30> - outer iterations without a 10% residual reduction that end the solve
-  -ksp_monitor_mpcg              - monitor the residual and the inner iterations, see `KSPMonitorMPCG()`

   Level: intermediate

   Notes:
   Most of the work runs in single precision in the inner iterations; the outer iterations correct
   in double precision, so the solution reaches double-precision accuracy. Convergence is tested on
   the unpreconditioned residual and, when the recurrence says converged, confirmed on the true
   residual b - A x; a recurrence that drifted is replaced by the true residual and the solve goes on.

   Ends with `KSP_DIVERGED_INDEFINITE_MAT` when p'Ap <= 0, `KSP_DIVERGED_INDEFINITE_PC` when r'Br <= 0,
   `KSP_DIVERGED_NANORINF` on NaN or Inf, and `KSP_DIVERGED_BREAKDOWN` on stagnation, which happens
   when the problem is too ill-conditioned for the single-precision inner solver (-info says so).

   Any other preconditioner works too (it need not be fixed: the method is flexible).

.seealso: `PCSPCG`, `KSPFCG`, `KSPCG`, `MatJaggedSetSinglePrecision()`
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
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCGetType(pc, &pctype));
  if (!pctype) PetscCall(PCSetType(pc, PCSPCG)); /* the default; -pc_type still overrides it */
  PetscFunctionReturn(PETSC_SUCCESS);
}
