/*
   KSPCAGMRES: orthogonalization of a new block of basis vectors, columns c .. c+k-1 of Q, against
   the c earlier (orthonormal) columns (BOrth: CGS or MGS) and within itself (TSQR: CholQR, SVQR,
   CAQR, MGS, CGS), twice (e.g. CholQR2) always or only when BOrth lost most of a column (the DGKS test,
   KSP's -ksp_orthogonalization_cgs_refinement_type). Gives V_new = Q_old RT + Q_new RD.
*/
#include "cagmresimpl.h"
#include <petscblaslapack.h>

static PetscBool KSPCAGMRESAllFinite(const PetscScalar *a, PetscInt n)
{
  for (PetscInt i = 0; i < n; i++)
    if (PetscIsInfOrNanScalar(a[i])) return PETSC_FALSE;
  return PETSC_TRUE;
}

/*
  Number of leading independent columns: column i depends on the earlier basis vectors when |R(i,i)|
  is at most KSP_CAGMRES_RANK_TOL times its norm before the orthogonalization, sqrt(rt2[i] + |R(0:i,i)|^2)
*/
static PetscInt KSPCAGMRESLeadingRank(const PetscScalar *RD, PetscInt k, const PetscReal *rt2)
{
  for (PetscInt i = 0; i < k; i++) {
    PetscReal nrm2 = rt2[i];

    for (PetscInt l = 0; l <= i; l++) nrm2 += PetscRealPart(RD[l + i * k] * PetscConj(RD[l + i * k]));
    if (PetscAbsScalar(RD[i + i * k]) <= KSP_CAGMRES_RANK_TOL * PetscSqrtReal(nrm2)) return i;
  }
  return k;
}

/*
  CholQR or SVQR from the Gram matrix G = V^H V, scaled to a unit diagonal: R = Rs D. *ok is false
  when the factorization breaks down or its R(i,i) (i > 0) is below KSP_CAGMRES_GRAM_TOL of the column
  norm, where the Gram matrix no longer determines it. Does not touch V.
*/
static PetscErrorCode KSPCAGMRESGramR(KSP ksp, PetscInt c, PetscInt k, PetscScalar *RD, PetscBool *ok, PetscBool *finite)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;
  PetscScalar *G, *work;
  PetscReal   *d, *w, *rwork;
  PetscBLASInt bk, info = 0, lwork;

  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  PetscCall(PetscBLASIntCast(k, &bk));
  lwork = 4 * bk * bk + 64;
  PetscCall(PetscMalloc5(k * k, &G, k, &d, k, &w, lwork, &work, 3 * k, &rwork));
  PetscCall(KSPCAGMRESBlockInner(ksp, c, k, c, k, G));
  *finite = KSPCAGMRESAllFinite(G, k * k);
  for (PetscInt i = 0; i < k && *finite; i++) {
    d[i] = PetscSqrtReal(PetscRealPart(G[i + i * k]));
    if (d[i] == 0.0) *ok = PETSC_FALSE; /* a zero column */
  }
  if (*finite && *ok) {
    for (PetscInt j = 0; j < k; j++)
      for (PetscInt i = 0; i < k; i++) G[i + j * k] /= d[i] * d[j];
    if (ca->tsqr == KSP_CAGMRES_TSQR_CHOLQR) {
      PetscCallBLAS("LAPACKpotrf", LAPACKpotrf_("U", &bk, G, &bk, &info));
      if (info) *ok = PETSC_FALSE;
      for (PetscInt j = 0; j < k; j++)
        for (PetscInt i = 0; i < k; i++) RD[i + j * k] = i <= j ? G[i + j * k] : 0.0;
    } else { /* SVQR: G = U S U^H, R = qr(S^{1/2} U^H) */
      PetscScalar *M, *tau;

      PetscCall(PetscMalloc2(k * k, &M, k, &tau));
#if defined(PETSC_USE_COMPLEX)
      PetscCallBLAS("LAPACKsyev", LAPACKsyev_("V", "U", &bk, G, &bk, w, work, &lwork, rwork, &info));
#else
      PetscCallBLAS("LAPACKsyev", LAPACKsyev_("V", "U", &bk, G, &bk, w, work, &lwork, &info));
#endif
      if (info) *ok = PETSC_FALSE;
      for (PetscInt j = 0; j < k; j++)
        for (PetscInt i = 0; i < k; i++) M[i + j * k] = PetscSqrtReal(PetscMax(w[i], 0.0)) * PetscConj(G[j + i * k]);
      PetscCallBLAS("LAPACKgeqrf", LAPACKgeqrf_(&bk, &bk, M, &bk, tau, work, &lwork, &info));
      if (info) *ok = PETSC_FALSE;
      for (PetscInt j = 0; j < k; j++)
        for (PetscInt i = 0; i < k; i++) RD[i + j * k] = i <= j ? M[i + j * k] : 0.0;
      PetscCall(PetscFree2(M, tau));
    }
    for (PetscInt j = 0; j < k; j++)
      for (PetscInt i = 0; i <= j; i++) RD[i + j * k] *= d[j];
    for (PetscInt i = 1; i < k && *ok; i++)
      if (PetscAbsScalar(RD[i + i * k]) < KSP_CAGMRES_GRAM_TOL * d[i]) *ok = PETSC_FALSE;
    *finite = KSPCAGMRESAllFinite(RD, k * k);
  }
  PetscCall(PetscFree5(G, d, w, work, rwork));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MGS or CGS within the block, column by column; stops at the first dependent column */
static PetscErrorCode KSPCAGMRESGramSchmidtQR(KSP ksp, PetscInt c, PetscInt k, const PetscReal *rt2, PetscScalar *RD, PetscInt *rank, PetscBool *finite)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;

  PetscFunctionBegin;
  *rank = k;
  for (PetscInt i = 0; i < k; i++) {
    PetscScalar nrm2;
    PetscReal   col2 = rt2[i];

    if (ca->tsqr == KSP_CAGMRES_TSQR_MGS) {
      for (PetscInt l = 0; l < i; l++) {
        PetscCall(KSPCAGMRESBlockInner(ksp, c + l, 1, c + i, 1, &RD[l + i * k]));
        PetscCall(KSPCAGMRESBlockUpdate(ksp, c + l, 1, c + i, 1, &RD[l + i * k]));
      }
    } else {
      PetscCall(KSPCAGMRESBlockInner(ksp, c, i, c + i, 1, &RD[i * k]));
      PetscCall(KSPCAGMRESBlockUpdate(ksp, c, i, c + i, 1, &RD[i * k]));
    }
    PetscCall(KSPCAGMRESBlockInner(ksp, c + i, 1, c + i, 1, &nrm2));
    *finite = (PetscBool)(KSPCAGMRESAllFinite(RD + i * k, i) && !PetscIsInfOrNanScalar(nrm2));
    if (!*finite) PetscFunctionReturn(PETSC_SUCCESS);
    RD[i + i * k] = PetscSqrtReal(PetscRealPart(nrm2));
    for (PetscInt l = 0; l <= i; l++) col2 += PetscRealPart(RD[l + i * k] * PetscConj(RD[l + i * k]));
    if (PetscAbsScalar(RD[i + i * k]) <= KSP_CAGMRES_RANK_TOL * PetscSqrtReal(col2)) {
      *rank = i;
      break;
    }
    PetscCall(KSPCAGMRESBlockTrsm(ksp, c + i, 1, &RD[i + i * k], 1));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One BOrth + TSQR pass over columns c .. c+k-1; RT (c x k) and RD (k x k) zeroed first */
static PetscErrorCode KSPCAGMRESOrthoPass(KSP ksp, PetscInt c, PetscInt k, PetscScalar *RT, PetscScalar *RD, PetscInt *rank, PetscBool *finite)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;
  PetscReal   *rt2;
  PetscBool    ok = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(RT, c * k));
  PetscCall(PetscArrayzero(RD, k * k));
  PetscCall(PetscCalloc1(k, &rt2));
  PetscCall(PetscLogEventBegin(KSP_CAGMRES_BOrth, ksp, 0, 0, 0));
  if (ca->borth == KSP_CAGMRES_BORTH_CGS) {
    PetscCall(KSPCAGMRESBlockInner(ksp, 0, c, c, k, RT));
    PetscCall(KSPCAGMRESBlockUpdate(ksp, 0, c, c, k, RT));
  } else {
    PetscScalar *row;

    PetscCall(PetscMalloc1(k, &row));
    for (PetscInt l = 0; l < c; l++) {
      PetscCall(KSPCAGMRESBlockInner(ksp, l, 1, c, k, row));
      PetscCall(KSPCAGMRESBlockUpdate(ksp, l, 1, c, k, row));
      for (PetscInt i = 0; i < k; i++) RT[l + i * c] = row[i];
    }
    PetscCall(PetscFree(row));
  }
  PetscCall(PetscLogEventEnd(KSP_CAGMRES_BOrth, ksp, 0, 0, 0));
  *finite = KSPCAGMRESAllFinite(RT, c * k);
  if (*finite) {
    for (PetscInt i = 0; i < k; i++)
      for (PetscInt l = 0; l < c; l++) rt2[i] += PetscRealPart(RT[l + i * c] * PetscConj(RT[l + i * c]));
    PetscCall(PetscLogEventBegin(KSP_CAGMRES_TSQR, ksp, 0, 0, 0));
    switch (ca->tsqr) {
    case KSP_CAGMRES_TSQR_CHOLQR:
    case KSP_CAGMRES_TSQR_SVQR:
      PetscCall(KSPCAGMRESGramR(ksp, c, k, RD, &ok, finite));
      if (*finite && ok) {
        *rank = KSPCAGMRESLeadingRank(RD, k, rt2);
        PetscCall(KSPCAGMRESBlockTrsm(ksp, c, *rank, RD, k));
      } else if (*finite) {
        ca->nfallback++;
        PetscCall(PetscInfo(ksp, "%s of a block of %" PetscInt_FMT " vectors broke down (ill-conditioned or dependent block): CAQR for this block\n", KSPCAGMRESOrthogonalizations[ca->tsqr], k));
      }
      break;
    case KSP_CAGMRES_TSQR_MGS:
    case KSP_CAGMRES_TSQR_CGS:
      PetscCall(KSPCAGMRESGramSchmidtQR(ksp, c, k, rt2, RD, rank, finite));
      ok = PETSC_TRUE;
      break;
    case KSP_CAGMRES_TSQR_CAQR:
      break;
    }
    if (*finite && !ok) { /* CAQR, chosen or as the fallback */
      PetscCall(KSPCAGMRESBlockCAQR(ksp, c, k, RD, k));
      *finite = KSPCAGMRESAllFinite(RD, k * k);
      *rank   = KSPCAGMRESLeadingRank(RD, k, rt2);
    }
    PetscCall(PetscLogEventEnd(KSP_CAGMRES_TSQR, ksp, 0, 0, 0));
  }
  PetscCall(PetscFree(rt2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  KSPCAGMRESOrthogonalizeBlock - orthonormalizes columns c .. c+k-1 of Q against columns 0 .. c-1 and
  among themselves: V_new = Q(:, 0:c) RT + Q(:, c:c+k) RD, RT (c x k, leading dimension c) and RD
  (k x k upper triangular, leading dimension k).

  *rank is the number of leading new columns that are independent; when *rank < k, column *rank depends
  on the earlier ones (its R column, with a tiny diagonal, is valid, its Q column is not) and the later
  columns are meaningless. *finite is false when an inner product overflowed or is NaN.
*/
PetscErrorCode KSPCAGMRESOrthogonalizeBlock(KSP ksp, PetscInt c, PetscInt k, PetscScalar *RT, PetscScalar *RD, PetscInt *rank, PetscBool *finite)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;
  PetscInt     r1, r2;
  PetscScalar *RT2, *RD2, *T;
  PetscBool    refine;

  PetscFunctionBegin;
  PetscCall(KSPCAGMRESOrthoPass(ksp, c, k, RT, RD, &r1, finite));
  *rank = r1;
  if (!*finite || r1 == 0 || !c) PetscFunctionReturn(PETSC_SUCCESS);
  refine = (PetscBool)(ksp->cgstype == KSP_ORTHOGONALIZATION_CGS_REFINE_ALWAYS);
  for (PetscInt i = 0; i < r1 && ksp->cgstype == KSP_ORTHOGONALIZATION_CGS_REFINE_IFNEEDED && !refine; i++) { /* DGKS: |P v| < eta |v|, P v = v - Q_old Q_old^H v */
    PetscReal rt2 = 0, pv2 = 0;

    for (PetscInt l = 0; l < c; l++) rt2 += PetscRealPart(RT[l + i * c] * PetscConj(RT[l + i * c]));
    for (PetscInt l = 0; l <= i; l++) pv2 += PetscRealPart(RD[l + i * k] * PetscConj(RD[l + i * k]));
    refine = (PetscBool)(pv2 < KSP_CAGMRES_REFINE_ETA * KSP_CAGMRES_REFINE_ETA * (rt2 + pv2));
  }
  if (!refine) PetscFunctionReturn(PETSC_SUCCESS);
  ca->nrefined++;
  /* second pass over the r1 good columns: Q1 = Q_old RT2 + Q2 RD2, so RT += [RT2 0] RD and RD = diag(RD2, I) RD */
  PetscCall(PetscMalloc3(c * r1, &RT2, r1 * r1, &RD2, k * k, &T));
  PetscCall(KSPCAGMRESOrthoPass(ksp, c, r1, RT2, RD2, &r2, finite));
  if (*finite) {
    for (PetscInt j = 0; j < k; j++) {
      for (PetscInt i = 0; i < c; i++) {
        PetscScalar sum = 0.0;

        for (PetscInt l = 0; l < PetscMin(r1, j + 1); l++) sum += RT2[i + l * c] * RD[l + j * k];
        RT[i + j * c] += sum;
      }
      for (PetscInt i = 0; i < k; i++) {
        PetscScalar sum = 0.0;

        if (i >= r1) sum = RD[i + j * k];
        else
          for (PetscInt l = i; l < PetscMin(r1, j + 1); l++) sum += RD2[i + l * r1] * RD[l + j * k];
        T[i + j * k] = sum;
      }
    }
    PetscCall(PetscArraycpy(RD, T, k * k));
    *rank = PetscMin(r1, r2);
  }
  PetscCall(PetscFree3(RT2, RD2, T));
  PetscFunctionReturn(PETSC_SUCCESS);
}
