/*
   KSPCAGMRES: shifts of the Newton basis. The Ritz values of the square Hessenberg matrix of the first
   (standard GMRES) cycle, in Leja order (each next value maximizes the product of its distances to the
   values taken before), the first s of them. In real builds a complex conjugate pair stays together,
   the value with positive imaginary part first, so that the matrix-powers kernel can apply the pair in
   real arithmetic (Bai, Hu and Reichel 1994; Hoemmen 2010, Sec. 7.3).
*/
#include "cagmresimpl.h"
#include <petscblaslapack.h>

/* Leja order of the n candidates z (real builds: one of each conjugate pair, im >= 0); writes the order to idx */
static void KSPCAGMRESLejaOrder(PetscInt n, const PetscReal *re, const PetscReal *im, PetscInt *idx)
{
  PetscBool used[1024] = {PETSC_FALSE};
  PetscReal logprod[1024];

  for (PetscInt i = 0; i < n; i++) logprod[i] = 0.0;
  for (PetscInt t = 0; t < n; t++) {
    PetscInt  best  = -1;
    PetscReal bestv = 0.0;

    for (PetscInt i = 0; i < n; i++) {
      PetscReal v = t ? logprod[i] : PetscSqrtReal(re[i] * re[i] + im[i] * im[i]); /* first: the largest modulus */
      if (used[i]) continue;
      if (best < 0 || v > bestv) {
        best  = i;
        bestv = v;
      }
    }
    idx[t]     = best;
    used[best] = PETSC_TRUE;
    for (PetscInt i = 0; i < n; i++) { /* distances to the new value and, in real builds, to its conjugate */
      PetscReal dr = re[i] - re[best], di = im[i] - im[best], d2 = im[i] + im[best];
      PetscReal dist = PetscSqrtReal(dr * dr + di * di);

      logprod[i] += PetscLogReal(PetscMax(dist, PETSC_SMALL));
#if !defined(PETSC_USE_COMPLEX)
      if (im[best] > 0) logprod[i] += PetscLogReal(PetscMax(PetscSqrtReal(dr * dr + d2 * d2), PETSC_SMALL));
#else
      (void)d2;
#endif
    }
  }
}

/*
  KSPCAGMRESComputeShifts - Ritz values of H(0:nc, 0:nc), Leja-ordered, as the s shifts of the Newton basis
  (repeated cyclically when there are fewer than s). Without usable Ritz values the basis stays monomial.
*/
PetscErrorCode KSPCAGMRESComputeShifts(KSP ksp, PetscInt nc)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;
  PetscScalar *A, *work, dummy;
  PetscReal   *re, *im;
  PetscInt    *idx, n = 0, ld = ca->m + 1, L = 0;
  PetscBLASInt bn, lwork, info, one = 1;
  PetscBool    finite = PETSC_TRUE;

  PetscFunctionBegin;
  ca->haveshifts = PETSC_FALSE;
  if (nc < 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(nc <= 1024, PETSC_COMM_SELF, PETSC_ERR_SUP, "At most 1024 Ritz values");
  PetscCall(PetscBLASIntCast(nc, &bn));
  lwork = 8 * bn;
  PetscCall(PetscMalloc5(nc * nc, &A, lwork, &work, nc, &re, nc, &im, 2 * nc, &idx));
  for (PetscInt j = 0; j < nc; j++)
    for (PetscInt i = 0; i < nc; i++) A[i + j * nc] = ca->H[i + j * ld];
  {
#if defined(PETSC_USE_COMPLEX)
    PetscScalar *w;
    PetscReal   *rwork;

    PetscCall(PetscMalloc2(nc, &w, 2 * nc, &rwork));
    PetscCallBLAS("LAPACKgeev", LAPACKgeev_("N", "N", &bn, A, &bn, w, &dummy, &one, &dummy, &one, work, &lwork, rwork, &info));
    for (PetscInt i = 0; i < nc; i++) {
      re[n]   = PetscRealPart(w[i]);
      im[n++] = PetscImaginaryPart(w[i]);
    }
    PetscCall(PetscFree2(w, rwork));
#else
    PetscReal *wr, *wi;

    PetscCall(PetscMalloc2(nc, &wr, nc, &wi));
    PetscCallBLAS("LAPACKgeev", LAPACKgeev_("N", "N", &bn, A, &bn, wr, wi, &dummy, &one, &dummy, &one, work, &lwork, &info));
    for (PetscInt i = 0; i < nc; i++) {
      if (wi[i] < 0) continue; /* the conjugate of the previous one */
      re[n]   = wr[i];
      im[n++] = wi[i];
    }
    PetscCall(PetscFree2(wr, wi));
#endif
  }
  for (PetscInt i = 0; i < n; i++)
    if (PetscIsInfOrNanReal(re[i]) || PetscIsInfOrNanReal(im[i])) finite = PETSC_FALSE;
  if (info || !finite || n == 0) {
    PetscCall(PetscInfo(ksp, "No usable Ritz values (LAPACK geev info %d): monomial basis\n", (int)info));
  } else {
    PetscScalar *seq;
    PetscReal   *seqim;

    KSPCAGMRESLejaOrder(n, re, im, idx);
    PetscCall(PetscMalloc2(2 * n, &seq, 2 * n, &seqim));
    for (PetscInt t = 0; t < n; t++) { /* the full ordered sequence, pairs expanded */
      PetscInt i = idx[t];
#if defined(PETSC_USE_COMPLEX)
      seq[L]     = PetscCMPLX(re[i], im[i]);
      seqim[L++] = 0.0;
#else
      seq[L]     = re[i];
      seqim[L++] = im[i];
      if (im[i] > 0) {
        seq[L]     = re[i];
        seqim[L++] = -im[i];
      }
#endif
    }
    for (PetscInt j = 0; j <= ca->s; j++) {
      ca->theta[j]   = seq[j % L];
      ca->thetaim[j] = seqim[j % L];
    }
    ca->haveshifts = PETSC_TRUE;
    PetscCall(PetscInfo(ksp, "Newton basis: %" PetscInt_FMT " Ritz values, first shift %g%+gi, largest modulus used first (Leja order)\n", nc, (double)PetscRealPart(seq[0]), (double)seqim[0]));
    PetscCall(PetscFree2(seq, seqim));
  }
  PetscCall(PetscFree5(A, work, re, im, idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}
