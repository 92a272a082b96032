/*
   PCSPCG's single-precision image of a PCMG (PCGAMG) hierarchy, whose V-cycle (spcgmghost.c) replaces the
   inner PCMG applied in double precision inside the inner CG. Made after PCMG's double set-up, from what it
   left: each level's operator as a MatSingle (its diagonal block DIA where it pays, else pJDS; on several
   processes with its off-diagonal block in CSR and its halo exchange), the interpolation and the restriction
   in CSR likewise (the restriction an explicit transposed copy of the interpolation when PCMG restricts with
   it: a product by rows, without the scattered sums of a transposed product), each smoother (Chebyshev of
   the first kind with the eigenvalue bounds the double set-up estimated, or Richardson, both with Jacobi:
   the local inverse diagonal in single precision), and the coarse solve (the coarse operator's dense inverse, made in double
   and kept in single precision, where PCMG solves the coarse problem exactly and it is small enough, each process
   keeping its rows; else PCMG's own coarse KSP in double, collective on several processes). The V-cycle has no dot
   product: on several processes only the products' halo exchanges communicate. Anything else keeps the
   double path, with the reason in PetscInfo() and PCView(). For the device inner loop the same image is made in device memory (mg->device):
   the blocks made from the MATSEQAIJCUSPARSE levels' device arrays (a host matrix's copied up in CSR), the level
   vectors, inverse diagonals and coarse inverse in device memory; its V-cycle is
   spcgmgdevice.cu's, the twin of spcgmghost.c's.
*/
#include <petscjagged/private/spcgimpl.h>
#include <petsc/private/pcmgimpl.h>
#include <petsc/private/kspimpl.h>

PetscLogEvent PC_SPCG_MGSetUp, PC_SPCG_MGOperators, PC_SPCG_MGTransfers, PC_SPCG_MGSmoothers, PC_SPCG_MGCoarse, PC_SPCG_VCycle;

/*
  The eigenvalue bounds of a KSPCHEBYSHEV, which PETSc has no getter for: the head of its private KSP_Chebyshev
  (src/ksp/ksp/impls/cheby/chebyshevimpl.h, not installed), read as KSPSolve_Chebyshev_FirstKind() reads
  them (KSPChebyshevGetEigenvalues_Chebyshev()); the layout is that of PETSc 3.26. Likewise the head of
  KSP_Richardson (richardsonimpl.h, not installed either) for its damping. The tests compare the V-cycle
  with PCMG's, which a wrong layout fails.
*/
#if PETSC_VERSION_GE(3, 26, 0) && PETSC_VERSION_LT(3, 27, 0)
  #define PCSPCG_MG_KSP_HEADS 1
typedef struct {
  PetscReal  emin, emax;                   /* set, or computed and transformed */
  PetscReal  emin_computed, emax_computed; /* computed by the estimator */
  PetscReal  emin_provided, emax_provided; /* provided by PCGAMG */
  PetscReal *betas;                        /* fourth kind's */
  PetscInt   num_betas_alloc;
  KSP        kspest;   /* the estimator */
  PetscReal  tform[4]; /* from the estimates to the bounds */
} PCSPCGChebyshevHead;

typedef struct {
  PetscReal scale;     /* the damping */
  PetscBool selfscale; /* a damping chosen at each step */
} PCSPCGRichardsonHead;
#endif

/* Whether M is a matrix of which MatSingleCreate() makes a copy: MATSEQAIJ, MATMPIAIJ, their CUSPARSE forms, or a jagged type */
static PetscErrorCode PCSPCGMGIsAIJ(Mat M, PetscBool *aij)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)M, aij, MATSEQAIJ, MATSEQAIJCUSPARSE, MATMPIAIJ, MATMPIAIJCUSPARSE, MATSEQJDSCUDA, MATSEQPJDSCUDA, MATMPIJDSCUDA, MATMPIPJDSCUDA, ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The count entries at *a, made on the host, moved to device memory (device) or left there */
static PetscErrorCode PCSPCGMGUpload(PetscBool device, size_t count, PetscJaggedScalarSingle **a)
{
  PetscJaggedScalarSingle *d;

  PetscFunctionBegin;
  if (!device) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaMalloc((void **)&d, sizeof(*d) * PetscMax(count, 1)));
  PetscCallCUDA(cudaMemcpy(d, *a, sizeof(*d) * count, cudaMemcpyHostToDevice));
  PetscCall(PetscLogCpuToGpu(sizeof(*d) * count));
  PetscCall(PetscFree(*a));
  *a = d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Frees an array of the image, in device memory (device) or on the host */
static PetscErrorCode PCSPCGMGFree(PetscBool device, void *a)
{
  void **p = (void **)a;

  PetscFunctionBegin;
  if (device) {
    if (*p) PetscCallCUDA(cudaFree(*p));
    *p = NULL;
  } else PetscCall(PetscFree(*p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  A level's smoother as the double set-up left it: KSPCHEBYSHEV (first kind) or KSPRICHARDSON (fixed damping)
  with PCJACOBI on the operator A, a fixed number of steps (no norm, no convergence test), left
  preconditioned; else *why says what is not supported. The inverse diagonal in device memory with device.
*/
static PetscErrorCode PCSPCGMGSmootherRead(KSP ksp, Mat A, PetscInt n, PetscBool device, PCSPCGMGSmoother *sm, const char **why)
{
  PC        jac;
  Mat       Amat;
  PetscBool cheb, rich, isjac;
  Vec       ones, d;

  PetscFunctionBegin;
  *why = NULL;
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPCHEBYSHEV, &cheb));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPRICHARDSON, &rich));
  PetscCall(KSPGetPC(ksp, &jac));
  PetscCall(PetscObjectTypeCompare((PetscObject)jac, PCJACOBI, &isjac));
  PetscCall(KSPGetOperators(ksp, &Amat, NULL));
  if (!cheb && !rich) *why = "a level smoother is neither Chebyshev nor Richardson";
  else if (!isjac) *why = "a level smoother is not preconditioned by Jacobi";
  else if (Amat != A) *why = "a level smoother's operator is not the level's residual operator";
  else if (ksp->normtype != KSP_NORM_NONE) *why = "a level smoother computes norms (it may stop early)";
  else if (ksp->pc_side != PC_LEFT) *why = "a level smoother is right preconditioned";
  if (*why) PetscFunctionReturn(PETSC_SUCCESS);
#if defined(PCSPCG_MG_KSP_HEADS)
  if (cheb) {
    const PCSPCGChebyshevHead *h = (const PCSPCGChebyshevHead *)ksp->data;
    KSPChebyshevKind           kind;

    PetscCall(KSPChebyshevGetKind(ksp, &kind));
    if (kind != KSP_CHEBYSHEV_FIRST) {
      *why = "a level smoother is Chebyshev of the fourth kind";
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    sm->type = PCSPCG_MG_CHEBYSHEV;
    if (h->emax != 0.) sm->emax = h->emax;
    else if (h->emax_computed != 0.) sm->emax = h->tform[2] * h->emin_computed + h->tform[3] * h->emax_computed;
    else sm->emax = h->tform[2] * h->emin_provided + h->tform[3] * h->emax_provided;
    if (h->emin != 0.) sm->emin = h->emin;
    else if (h->emin_computed != 0.) sm->emin = h->tform[0] * h->emin_computed + h->tform[1] * h->emax_computed;
    else sm->emin = h->tform[0] * h->emin_provided + h->tform[1] * h->emax_provided;
    if (!(sm->emax > sm->emin && sm->emin > 0)) {
      *why = "a Chebyshev smoother has no positive eigenvalue bounds after the double set-up";
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  } else {
    const PCSPCGRichardsonHead *h = (const PCSPCGRichardsonHead *)ksp->data;

    if (h->selfscale) {
      *why = "a Richardson smoother chooses its damping at each step (self-scaling)";
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    sm->type  = PCSPCG_MG_RICHARDSON;
    sm->scale = h->scale;
  }
#else
  *why = "the smoothers' parameters are read for PETSc 3.26 only";
  PetscFunctionReturn(PETSC_SUCCESS);
#endif
  PetscCall(KSPGetTolerances(ksp, NULL, NULL, NULL, &sm->its));
  /* Jacobi's inverse diagonal, whichever its variant: the PC applied to ones */
  PetscCall(MatCreateVecs(A, &ones, &d));
  PetscCall(VecSet(ones, 1.0));
  PetscCall(PCApply(jac, ones, d));
  {
    const PetscScalar *da;
    PetscMemType       mtype;

    PetscCall(VecGetArrayReadAndMemType(d, &da, &mtype));
    if (device && PetscMemTypeDevice(mtype)) PetscCall(PCSPCGMGToSingleDevice(n, da, &sm->dinv)); /* rounded where it lies */
    else {
      PetscCall(PetscMalloc1(PetscMax(n, 1), &sm->dinv));
      for (PetscInt i = 0; i < n; i++) sm->dinv[i] = (PetscJaggedScalarSingle)da[i];
      PetscCall(PCSPCGMGUpload(device, n, &sm->dinv));
    }
    PetscCall(VecRestoreArrayReadAndMemType(d, &da));
  }
  PetscCall(VecDestroy(&ones));
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the coarse KSP solves exactly: KSPPREONLY with LU or Cholesky, directly or as the one block of block Jacobi or PCREDUNDANT */
static PetscErrorCode PCSPCGMGCoarseIsDirect(KSP ksp, PetscBool *direct)
{
  PC        pc;
  PetscBool preonly, bjac, red;

  PetscFunctionBegin;
  *direct = PETSC_FALSE;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)ksp, &preonly, KSPPREONLY, KSPNONE, ""));
  if (!preonly) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)pc, direct, PCLU, PCCHOLESKY, ""));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCBJACOBI, &bjac));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCREDUNDANT, &red));
  if (bjac) {
    KSP     *sub;
    PetscInt nlocal;

    PetscCall(PCBJacobiGetSubKSP(pc, &nlocal, NULL, &sub));
    if (nlocal == 1) PetscCall(PCSPCGMGCoarseIsDirect(sub[0], direct));
  } else if (red) {
    KSP sub;

    PetscCall(PCRedundantGetKSP(pc, &sub));
    PetscCall(PCSPCGMGCoarseIsDirect(sub, direct));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Frees the coarse solve's part of the image: the dense inverse and its gather, or the reference to the double coarse KSP */
static PetscErrorCode PCSPCGMGCoarseFree(PCSPCGMG mg)
{
  PetscFunctionBegin;
  PetscCall(PCSPCGMGFree(mg->device, &mg->inv));
  PetscCall(PCSPCGMGFree(mg->device, &mg->ball));
  PetscCall(PetscFree2(mg->counts, mg->displs));
  if (mg->hball) PetscCallCUDA(cudaFreeHost(mg->hball));
  if (mg->hc) PetscCallCUDA(cudaFreeHost(mg->hc));
  if (mg->hstop) PetscCallCUDA(cudaFreeHost(mg->hstop));
  mg->hball = NULL;
  mg->hc    = NULL;
  mg->hstop = NULL;
  PetscCall(KSPDestroy(&mg->coarse));
  PetscCall(VecDestroy(&mg->cb));
  PetscCall(VecDestroy(&mg->cx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a pivot's size, |re| + |im|: exact sums, the same on the device (spcgmgdevice.cu) */
static inline PetscReal PCSPCGMGPivotSize(PetscScalar v)
{
  return PetscAbsReal(PetscRealPart(v)) + PetscAbsReal(PetscImaginaryPart(v));
}

/*
  a (N x N, row-major) replaced by its inverse: Gauss-Jordan elimination in place with partial pivoting (at step k
  the row of the largest |a[i][k]|, i >= k, the first of equals, swapped into row k), the columns swapped back at
  the end, last step first; *singular on a zero (or not finite) pivot, a then undefined. The twin of
  PCSPCGMGDenseInvertDevice()'s kernels, step by step.
*/
static PetscErrorCode PCSPCGMGGaussJordan(PetscInt N, PetscScalar a[], PetscBool *singular)
{
  PetscScalar *col, *row;
  PetscInt    *perm;

  PetscFunctionBegin;
  *singular = PETSC_FALSE;
  PetscCall(PetscMalloc3(N, &col, N, &row, N, &perm));
  for (PetscInt k = 0; k < N && !*singular; k++) {
    PetscReal   best = -1;
    PetscInt    p    = N;
    PetscScalar piv;

    for (PetscInt i = k; i < N; i++) {
      const PetscReal sz = PCSPCGMGPivotSize(a[(size_t)i * N + k]);

      if (sz > best) best = sz, p = i;
    }
    if (!(best > 0) || PetscIsInfOrNanReal(best)) {
      *singular = PETSC_TRUE;
      break;
    }
    if (p != k)
      for (PetscInt j = 0; j < N; j++) {
        const PetscScalar v = a[(size_t)k * N + j];

        a[(size_t)k * N + j] = a[(size_t)p * N + j];
        a[(size_t)p * N + j] = v;
      }
    perm[k] = p;
    piv     = a[(size_t)k * N + k];
    for (PetscInt i = 0; i < N; i++) {
      col[i] = a[(size_t)i * N + k];
      row[i] = i == k ? 1.0 / piv : a[(size_t)k * N + i] / piv;
    }
    for (PetscInt i = 0; i < N; i++) {
      PetscScalar *ai = a + (size_t)i * N;

      if (i == k) {
        PetscCall(PetscArraycpy(ai, row, N));
        continue;
      }
      for (PetscInt j = 0; j < N; j++) ai[j] = (j == k ? 0.0 : ai[j]) - col[i] * row[j];
    }
  }
  if (!*singular)
    for (PetscInt i = 0; i < N; i++)
      for (PetscInt k = N - 1; k >= 0; k--) {
        const PetscScalar v = a[(size_t)i * N + k];

        if (perm[k] == k) continue;
        a[(size_t)i * N + k]       = a[(size_t)i * N + perm[k]];
        a[(size_t)i * N + perm[k]] = v;
      }
  PetscCall(PetscFree3(col, row, perm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The inverse of the coarse operator A (N rows), explicit, for the rows [rstart, rstart + n) this process owns: A
  gathered whole on each process (several processes: MatCreateRedundantMatrix()), inverted in double by Gauss-Jordan
  elimination with partial pivoting (on the device 2 N + 1 kernels, 2 N^3 flops, no solver library to initialize;
  on the host PCSPCGMGGaussJordan(), their twin), the rows kept in single
  precision, row-major, so that the coarse solve is one dense product (on the device a warp a row, all rows at once:
  a triangular solve is 2 N steps one after the other). *singular on a zero pivot, on any process
*/
static PetscErrorCode PCSPCGMGDenseInvert(Mat A, PCSPCGMG mg, PetscBool *singular)
{
  MPI_Comm     comm = PetscObjectComm((PetscObject)A);
  PetscMPIInt  size;
  PetscInt     N, n, rstart;
  Mat          Aseq = A;
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatGetLocalSize(A, &n, NULL));
  PetscCall(MatGetOwnershipRange(A, &rstart, NULL));
  if (size > 1) PetscCall(MatCreateRedundantMatrix(A, size, MPI_COMM_NULL, MAT_INITIAL_MATRIX, &Aseq));
  *singular = PETSC_FALSE;
  if (n) { /* a process with no coarse rows (PCGAMG's coarsest level lives on one) inverts nothing */
    PetscCall(PetscCalloc1((size_t)N * N, &a));
    for (PetscInt i = 0; i < N; i++) {
      PetscInt           nc;
      const PetscInt    *cols;
      const PetscScalar *vals;

      PetscCall(MatGetRow(Aseq, i, &nc, &cols, &vals));
      for (PetscInt k = 0; k < nc; k++) a[(size_t)i * N + cols[k]] = vals[k];
      PetscCall(MatRestoreRow(Aseq, i, &nc, &cols, &vals));
    }
    if (mg->device) PetscCall(PCSPCGMGDenseInvertDevice(N, a, rstart, n, &mg->inv, singular));
    else {
      PetscCall(PCSPCGMGGaussJordan(N, a, singular));
      if (!*singular) {
        PetscCall(PetscMalloc1((size_t)n * N, &mg->inv));
        for (size_t k = 0; k < (size_t)n * N; k++) mg->inv[k] = (PetscJaggedScalarSingle)a[(size_t)rstart * N + k];
        PetscCall(PetscLogFlops(2.0 * N * N * N));
      }
    }
    PetscCall(PetscFree(a));
  }
  if (size > 1) {
    PetscCall(MatDestroy(&Aseq));
    PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, singular, 1, MPI_C_BOOL, MPI_LOR, comm));
  }
  if (*singular) PetscCall(PCSPCGMGFree(mg->device, &mg->inv));
  if (size > 1 && !*singular) { /* the gather of the right-hand side */
    const PetscInt *ranges;

    PetscCall(MatGetOwnershipRanges(A, &ranges));
    PetscCall(PetscMalloc2(size, &mg->counts, size, &mg->displs));
    for (PetscMPIInt p = 0; p < size; p++) {
      PetscCall(PetscMPIIntCast(sizeof(PetscJaggedScalarSingle) * (ranges[p + 1] - ranges[p]), &mg->counts[p]));
      PetscCall(PetscMPIIntCast(sizeof(PetscJaggedScalarSingle) * ranges[p], &mg->displs[p]));
    }
    if (mg->device) {
      PetscCallCUDA(cudaMalloc((void **)&mg->ball, sizeof(PetscJaggedScalarSingle) * N));
      PetscCallCUDA(cudaMallocHost((void **)&mg->hball, sizeof(PetscJaggedScalarSingle) * N));
      PetscCallCUDA(cudaMallocHost((void **)&mg->hc, sizeof(PetscJaggedScalarSingle) * PetscMax(n, 1)));
      PetscCallCUDA(cudaMallocHost((void **)&mg->hstop, sizeof(int)));
      *mg->hstop = 0;
    } else PetscCall(PetscMalloc1(N, &mg->ball));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCSPCGMGDestroy(PCSPCGMG *pmg)
{
  PCSPCGMG mg = *pmg;

  PetscFunctionBegin;
  if (!mg) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt l = 0; l < mg->nlevels; l++) {
    PCSPCGMGLevel *lv = &mg->level[l];

    PetscCall(MatSingleDestroy(&lv->op));
    PetscCall(MatSingleDestroy(&lv->interp));
    PetscCall(MatSingleDestroy(&lv->restr));
    if (lv->up.dinv != lv->down.dinv) PetscCall(PCSPCGMGFree(mg->device, &lv->up.dinv));
    PetscCall(PCSPCGMGFree(mg->device, &lv->down.dinv));
    if (mg->device) PetscCall(PCSPCGMGFree(PETSC_TRUE, &lv->b));
    else PetscCall(PetscFree5(lv->b, lv->x, lv->r, lv->w[0], lv->w[1]));
    PetscCall(MatDestroy(&lv->A));
    PetscCall(MatDestroy(&lv->P));
    PetscCall(MatDestroy(&lv->R));
  }
  PetscCall(PetscFree(mg->level));
  PetscCall(PCSPCGMGCoarseFree(mg));
  PetscCall(PetscFree(*pmg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the PCMG pc runs a V-cycle the image can reproduce; else *why */
static PetscErrorCode PCSPCGMGSupported(PC pc, const char **why)
{
  PC_MG *mg = (PC_MG *)pc->data;

  PetscFunctionBegin;
  *why = NULL;
  if (mg->nlevels < 2) *why = "a single level (its solve is the coarse solve)";
  else if (mg->am != PC_MG_MULTIPLICATIVE) *why = "the multigrid type is not multiplicative";
  else if (mg->cyclesperpcapply != 1) *why = "more than one cycle per application";
  if (*why) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt l = 1; l < mg->nlevels; l++) {
    PC_MG_Levels *lv = mg->levels[l];

    if (lv->cycles != 1 && l > 1) *why = "a W-cycle";
    else if (lv->cr) *why = "compatible relaxation";
    else if (lv->residual != PCMGResidualDefault) *why = "a level residual of the user's";
    if (*why) break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The level operator of PCMG level l: the residual's, or on the coarsest level the coarse KSP's */
static PetscErrorCode PCSPCGMGLevelOperator(PC_MG *pcmg, PetscInt l, Mat *A)
{
  PetscFunctionBegin;
  if (l) *A = pcmg->levels[l]->A;
  else PetscCall(KSPGetOperators(pcmg->levels[0]->smoothd, A, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PCMG level l's transfers as the image keeps them: P fine x coarse (*Pt: given transposed), R coarse x fine (*Rt:
  given transposed); nc the global rows of level l - 1 (the global sizes tell, the same on every process)
*/
static PetscErrorCode PCSPCGMGTransfers(PC_MG *pcmg, PetscInt l, PetscInt nc, Mat *P, PetscBool *Pt, Mat *R, PetscBool *Rt)
{
  PetscInt pm, rm;

  PetscFunctionBegin;
  *P = pcmg->levels[l]->interpolate;
  *R = pcmg->levels[l]->restrct ? pcmg->levels[l]->restrct : pcmg->levels[l]->interpolate;
  PetscCall(MatGetSize(*P, &pm, NULL));
  PetscCall(MatGetSize(*R, &rm, NULL));
  *Pt = (PetscBool)(pm == nc); /* coarse x fine: MatInterpolate() multiplies by its transpose */
  *Rt = (PetscBool)(rm != nc); /* fine x coarse: MatRestrict() multiplies by its transpose */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Records the identities, nonzero states and states of what level l of the image (nc global rows on level l - 1) is made from */
static PetscErrorCode PCSPCGMGRecord(PC_MG *pcmg, PetscInt l, PetscInt nc, PCSPCGMGLevel *lv)
{
  Mat       A, P, R;
  PetscBool Pt, Rt;

  PetscFunctionBegin;
  PetscCall(PCSPCGMGLevelOperator(pcmg, l, &A));
  PetscCall(PetscObjectGetId((PetscObject)A, &lv->Aid));
  PetscCall(MatGetNonzeroState(A, &lv->Anz));
  PetscCall(PetscObjectStateGet((PetscObject)A, &lv->Astate));
  if (!l) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PCSPCGMGTransfers(pcmg, l, nc, &P, &Pt, &R, &Rt));
  PetscCall(PetscObjectGetId((PetscObject)P, &lv->Pid));
  PetscCall(MatGetNonzeroState(P, &lv->Pnz));
  PetscCall(PetscObjectStateGet((PetscObject)P, &lv->Pstate));
  PetscCall(PetscObjectGetId((PetscObject)R, &lv->Rid));
  PetscCall(MatGetNonzeroState(R, &lv->Rnz));
  PetscCall(PetscObjectStateGet((PetscObject)R, &lv->Rstate));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Level lv's restriction in single precision (lv->interp and lv->transposed set), from PCMG's R: on one process the
  transpose of lv->interp, made in its memory (lv->R NULL); on several the copy of R^T made explicit (lv->R), or of R itself.
  lv->restr.d.ops stays NULL where R is not an AIJ matrix.
*/
static PetscErrorCode PCSPCGMGRestriction(PCSPCGMGLevel *lv, Mat R, PetscBool device, PetscJaggedExchange exchange)
{
  PetscMPIInt size;
  PetscBool   aij;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)R), &size));
  if (lv->transposed && size == 1) {
    PetscCall(MatSingleTranspose(&lv->interp, &lv->restr));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!lv->R) {
    if (lv->transposed) PetscCall(MatTranspose(R, MAT_INITIAL_MATRIX, &lv->R));
    else {
      PetscCall(PetscObjectReference((PetscObject)R));
      lv->R = R;
    }
  }
  PetscCall(PCSPCGMGIsAIJ(lv->R, &aij));
  if (aij) PetscCall(MatSingleCreate(lv->R, device, PCSPCG_FORMAT_CSR, PCSPCG_STORAGE_SINGLE, 0, exchange, &lv->restr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Level l's smoothers from PCMG's (their inverse diagonals made anew); *why where not supported */
static PetscErrorCode PCSPCGMGSmoothers(PC_MG *pcmg, PetscInt l, PCSPCGMG mg, const char **why)
{
  PC_MG_Levels  *ml = pcmg->levels[l];
  PCSPCGMGLevel *lv = &mg->level[l];

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_SPCG_MGSmoothers, 0, 0, 0, 0));
  if (lv->up.dinv != lv->down.dinv) PetscCall(PCSPCGMGFree(mg->device, &lv->up.dinv));
  PetscCall(PCSPCGMGFree(mg->device, &lv->down.dinv));
  lv->up.dinv = NULL;
  PetscCall(PCSPCGMGSmootherRead(ml->smoothd, lv->A, lv->n, mg->device, &lv->down, why));
  if (!*why) {
    if (ml->smoothu == ml->smoothd) lv->up = lv->down;
    else PetscCall(PCSPCGMGSmootherRead(ml->smoothu, lv->A, lv->n, mg->device, &lv->up, why));
  }
  PetscCall(PetscLogEventEnd(PC_SPCG_MGSmoothers, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The coarse solve: the dense inverse where PCMG solves directly and the coarse problem is small enough (on several
  processes each its own rows, the right-hand side gathered), else PCMG's coarse KSP in double (on several processes:
  collective, its vectors of the coarse operator's layout)
*/
static PetscErrorCode PCSPCGMGCoarseSetUp(PC pc, PC_MG *pcmg, PCSPCGMG mg)
{
  PC_SPCG       *s = (PC_SPCG *)pc->data;
  PCSPCGMGLevel *c = &mg->level[0];
  PetscBool      direct, singular = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_SPCG_MGCoarse, 0, 0, 0, 0));
  PetscCall(PCSPCGMGCoarseFree(mg));
  mg->coarsewhy = NULL;
  PetscCall(PCSPCGMGCoarseIsDirect(pcmg->levels[0]->smoothd, &direct));
  if (!direct) mg->coarsewhy = "PCMG's coarse solve is not a direct one";
  else if (c->N > s->mgdensemax) mg->coarsewhy = "the coarse problem is larger than -pc_spcg_mg_dense_max";
  else {
    PetscCall(PCSPCGMGDenseInvert(c->A, mg, &singular));
    if (singular) mg->coarsewhy = "the coarse operator has a zero pivot";
  }
  mg->dense = (PetscBool)!mg->coarsewhy;
  if (!mg->dense) {
    PetscCall(PetscObjectReference((PetscObject)pcmg->levels[0]->smoothd));
    mg->coarse = pcmg->levels[0]->smoothd;
    PetscCall(MatCreateVecs(c->A, &mg->cx, &mg->cb));
    if (mg->device) {
      PetscCallCUDA(cudaMallocHost((void **)&mg->hc, sizeof(PetscJaggedScalarSingle) * PetscMax(c->n, 1)));
      PetscCallCUDA(cudaMallocHost((void **)&mg->hstop, sizeof(int)));
      *mg->hstop = 0;
    }
    PetscCall(PetscInfo(pc, "Coarse solve of the single-precision V-cycle in double precision: %s\n", mg->coarsewhy));
  }
  PetscCall(PetscLogEventEnd(PC_SPCG_MGCoarse, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The flops of one V-cycle and the bytes of the image */
static PetscErrorCode PCSPCGMGCount(PCSPCGMG mg)
{
  PetscFunctionBegin;
  mg->flops = mg->dense ? 2.0 * mg->level[0].n * mg->level[0].N : 0; /* the double coarse KSP logs its own */
  mg->bytes = mg->dense ? sizeof(PetscJaggedScalarSingle) * (size_t)mg->level[0].n * mg->level[0].N : 0;
  for (PetscInt l = 1; l < mg->nlevels; l++) {
    const PCSPCGMGLevel *lv    = &mg->level[l];
    const PetscLogDouble steps = (PetscLogDouble)(lv->down.its + lv->up.its + 1); /* the residual: one product more */

    mg->flops += steps * (2.0 * (lv->opp->d.nnz + lv->opp->o.nnz) + 6.0 * lv->n) + 2.0 * (lv->interp.d.nnz + lv->interp.o.nnz + lv->restr.d.nnz + lv->restr.o.nnz);
    mg->bytes += (lv->opp == &lv->op ? MatSingleBytes(&lv->op) : 0) + MatSingleBytes(&lv->interp) + MatSingleBytes(&lv->restr);
    mg->bytes += sizeof(PetscJaggedScalarSingle) * (size_t)lv->n * (lv->up.dinv != lv->down.dinv ? 2 : 1);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Level operators' copies: PCSPCG's own where it is the same operator (remade at each set-up of PCSPCG) */
static PetscErrorCode PCSPCGMGShareOperator(PC pc, PCSPCGMGLevel *lv, PetscBool *shared)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  *shared = (PetscBool)(s->hasblocks && lv->A == pc->pmat);
  if (*shared) lv->opp = &s->copy;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The storage of the levels' own operator copies: PCSPCG's, but auto keeps them single where the inner loop is replayed as a CUDA
  graph (one process on the GPU, the graph asked for): after a graph with half-precision levels in the bodies of its conditional
  nodes had run (from 12 to 25 of them; not without the nodes), cuSPARSE's SpGEMM in a later PCGAMG set-up of the process never
  ended, and without the graph the V-cycle's launches cost more than half saves
  (both measured in bench/RESULTS.md, "A stop after MPCG")
*/
static PetscErrorCode PCSPCGMGStorage(PC pc, PetscBool device, PCSPCGStorage *storage, PetscBool *ingraph)
{
  PC_SPCG    *s = (PC_SPCG *)pc->data;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  *storage = PCSPCGStorageUsed(pc);
  *ingraph = (PetscBool)(device && size == 1 && s->graph && *storage == PCSPCG_STORAGE_AUTO);
  if (*ingraph) *storage = PCSPCG_STORAGE_SINGLE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The right-hand side, solution, residual and Chebyshev iterates of level l (n rows), on the host or in one device allocation */
static PetscErrorCode PCSPCGMGLevelVectors(PCSPCGMG mg, PetscInt l, PCSPCGMGLevel *lv)
{
  const PetscInt n = PetscMax(lv->n, 1);

  PetscFunctionBegin;
  if (mg->device) {
    PetscCallCUDA(cudaMalloc((void **)&lv->b, sizeof(PetscJaggedScalarSingle) * n * (l ? 5 : 3)));
    lv->x    = lv->b + n;
    lv->r    = lv->b + 2 * n;
    lv->w[0] = l ? lv->b + 3 * n : NULL;
    lv->w[1] = l ? lv->b + 4 * n : NULL;
  } else PetscCall(PetscMalloc5(n, &lv->b, n, &lv->x, n, &lv->r, l ? n : 0, &lv->w[0], l ? n : 0, &lv->w[1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Makes the image of the set-up PCMG mgpc, in device memory with device; *why instead where it cannot be made (mg stays NULL) */
static PetscErrorCode PCSPCGMGCreate(PC pc, PC mgpc, PetscBool device, PCSPCGMG *pmg, const char **why)
{
  PC_SPCG *s    = (PC_SPCG *)pc->data;
  PC_MG   *pcmg = (PC_MG *)mgpc->data;
  PCSPCGMG      mg;
  PetscInt      L = pcmg->nlevels;
  PCSPCGStorage storage;

  PetscFunctionBegin;
  *pmg = NULL;
  PetscCall(PCSPCGMGSupported(mgpc, why));
  if (*why) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscNew(&mg));
  mg->nlevels = L;
  mg->device  = device;
  PetscCall(PCSPCGMGStorage(pc, device, &storage, &mg->singlegraph));
  PetscCall(PetscCalloc1(L, &mg->level));
  for (PetscInt l = 0; l < L && !*why; l++) { /* the operators first: all must be AIJ matrices */
    PCSPCGMGLevel *lv = &mg->level[l];
    Mat            A;
    MatNullSpace   nsp;
    PetscBool      aij;

    PetscCall(PCSPCGMGLevelOperator(pcmg, l, &A));
    PetscCall(PCSPCGMGIsAIJ(A, &aij));
    PetscCall(MatGetNullSpace(A, &nsp));
    if (!aij) *why = "a level operator is not an AIJ matrix";
    else if (nsp) *why = "a level operator has a null space";
    if (*why) break;
    PetscCall(PetscObjectReference((PetscObject)A));
    lv->A = A;
    PetscCall(MatGetLocalSize(A, &lv->n, NULL));
    PetscCall(MatGetSize(A, &lv->N, NULL));
  }
  for (PetscInt l = 1; l < L && !*why; l++) PetscCall(PCSPCGMGSmoothers(pcmg, l, mg, why));
  PetscCall(PetscLogEventBegin(PC_SPCG_MGTransfers, 0, 0, 0, 0));
  for (PetscInt l = 1; l < L && !*why; l++) { /* the transfers: P fine x coarse, R coarse x fine */
    PCSPCGMGLevel *lv = &mg->level[l];
    Mat            P, R;
    PetscBool      Pt, Rt, aij;

    PetscCall(PCSPCGMGTransfers(pcmg, l, mg->level[l - 1].N, &P, &Pt, &R, &Rt));
    if (Pt) PetscCall(MatTranspose(P, MAT_INITIAL_MATRIX, &lv->P));
    else {
      PetscCall(PetscObjectReference((PetscObject)P));
      lv->P = P;
    }
    PetscCall(PCSPCGMGIsAIJ(lv->P, &aij));
    if (!aij) {
      *why = "an interpolation is not an AIJ matrix";
      break;
    }
    PetscCall(MatSingleCreate(lv->P, device, PCSPCG_FORMAT_CSR, PCSPCG_STORAGE_SINGLE, 0, s->exchange, &lv->interp));
    lv->transposed = Rt; /* MatRestrict() by R^T = P: the restriction made explicit */
    PetscCall(PCSPCGMGRestriction(lv, R, device, s->exchange));
    if (!lv->restr.d.ops) {
      *why = "a restriction is not an AIJ matrix";
      break;
    }
  }
  PetscCall(PetscLogEventEnd(PC_SPCG_MGTransfers, 0, 0, 0, 0));
  if (*why) {
    PetscCall(PCSPCGMGDestroy(&mg));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt l = 0; l < L; l++) {
    PCSPCGMGLevel *lv = &mg->level[l];
    PetscBool      shared;

    PetscCall(PCSPCGMGRecord(pcmg, l, l ? mg->level[l - 1].N : 0, lv));
    PetscCall(PCSPCGMGLevelVectors(mg, l, lv));
    if (!l) continue;
    PetscCall(PCSPCGMGShareOperator(pc, lv, &shared));
    if (!shared) {
      PetscCall(PetscLogEventBegin(PC_SPCG_MGOperators, 0, 0, 0, 0));
      PetscCall(MatSingleCreate(lv->A, device, PCSPCG_FORMAT_AUTO, storage, s->halfmin, s->exchange, &lv->op));
      PetscCall(PetscLogEventEnd(PC_SPCG_MGOperators, 0, 0, 0, 0));
      lv->opp = &lv->op;
    }
  }
  PetscCall(PCSPCGMGCoarseSetUp(pc, pcmg, mg));
  PetscCall(PCSPCGMGCount(mg));
  *pmg = mg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The image mg again for the set-up PCMG mgpc when only values changed since it was made (the same operators and
  transfers, with the same nonzero patterns: PCMG set up again with SAME_NONZERO_PATTERN): the values of the
  changed matrices rounded again into the same blocks (made again, on the device), the smoothers read again, the
  coarse solve made again where its operator changed. *same is false, and mg untouched, where anything else changed; *why where the PCMG is no
  longer supported.
*/
static PetscErrorCode PCSPCGMGRefresh(PC pc, PC mgpc, PCSPCGMG mg, PetscBool *same, const char **why)
{
  PC_SPCG      *s    = (PC_SPCG *)pc->data;
  PC_MG        *pcmg = (PC_MG *)mgpc->data;
  PCSPCGStorage storage;

  PetscFunctionBegin;
  *same = PETSC_FALSE;
  PetscCall(PCSPCGMGStorage(pc, mg->device, &storage, &mg->singlegraph));
  PetscCall(PCSPCGMGSupported(mgpc, why));
  if (*why || pcmg->nlevels != mg->nlevels) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt l = 0; l < mg->nlevels; l++) { /* the same matrices with the same patterns */
    const PCSPCGMGLevel *lv = &mg->level[l];
    PCSPCGMGLevel        now;

    PetscCall(PetscMemzero(&now, sizeof(now)));
    PetscCall(PCSPCGMGRecord(pcmg, l, l ? mg->level[l - 1].N : 0, &now));
    if (now.Aid != lv->Aid || now.Anz != lv->Anz) PetscFunctionReturn(PETSC_SUCCESS);
    if (l && (now.Pid != lv->Pid || now.Pnz != lv->Pnz || now.Rid != lv->Rid || now.Rnz != lv->Rnz)) PetscFunctionReturn(PETSC_SUCCESS);
  }
  *same = PETSC_TRUE;
  for (PetscInt l = 1; l < mg->nlevels && !*why; l++) PetscCall(PCSPCGMGSmoothers(pcmg, l, mg, why));
  if (*why) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt l = 0; l < mg->nlevels; l++) {
    PCSPCGMGLevel *lv = &mg->level[l];
    PCSPCGMGLevel  now;
    PetscBool      shared, Pt, Rt;
    Mat            P, R;

    PetscCall(PetscMemzero(&now, sizeof(now)));
    PetscCall(PCSPCGMGRecord(pcmg, l, l ? mg->level[l - 1].N : 0, &now));
    if (!l) {
      if (now.Astate != lv->Astate) PetscCall(PCSPCGMGCoarseSetUp(pc, pcmg, mg));
      lv->Astate = now.Astate;
      continue;
    }
    PetscCall(PCSPCGMGShareOperator(pc, lv, &shared)); /* PCSPCG's own copy is made anew at each of its set-ups */
    if (shared) PetscCall(MatSingleDestroy(&lv->op));
    else {
      if (lv->op.d.ops && now.Astate != lv->Astate && mg->device) PetscCall(MatSingleDestroy(&lv->op)); /* refreshhost is the host's */
      if (!lv->op.d.ops) PetscCall(MatSingleCreate(lv->A, mg->device, PCSPCG_FORMAT_AUTO, storage, s->halfmin, s->exchange, &lv->op));
      else if (now.Astate != lv->Astate) PetscCall(MatSingleRefreshHost(&lv->op, lv->A));
      lv->opp = &lv->op;
    }
    PetscCall(PCSPCGMGTransfers(pcmg, l, mg->level[l - 1].N, &P, &Pt, &R, &Rt));
    if (now.Pstate != lv->Pstate) {
      if (Pt) PetscCall(MatTranspose(P, MAT_REUSE_MATRIX, &lv->P));
      if (mg->device) {
        PetscCall(MatSingleDestroy(&lv->interp));
        PetscCall(MatSingleCreate(lv->P, PETSC_TRUE, PCSPCG_FORMAT_CSR, PCSPCG_STORAGE_SINGLE, 0, s->exchange, &lv->interp));
      } else PetscCall(MatSingleRefreshHost(&lv->interp, lv->P));
    }
    if (now.Rstate != lv->Rstate) {
      if (lv->R && lv->transposed) PetscCall(MatTranspose(R, MAT_REUSE_MATRIX, &lv->R));
      if (mg->device || !lv->R) { /* made again: on the device, or one process's transpose of interp */
        PetscCall(MatSingleDestroy(&lv->restr));
        PetscCall(PCSPCGMGRestriction(lv, R, mg->device, s->exchange));
      } else PetscCall(MatSingleRefreshHost(&lv->restr, lv->R));
    }
    lv->Astate = now.Astate;
    lv->Pstate = now.Pstate;
    lv->Rstate = now.Rstate;
  }
  PetscCall(PCSPCGMGCount(mg));
  mg->nrefresh++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  After the inner PC's set-up: when it is a PCMG (PCGAMG) and -pc_spcg_mg, its single-precision image replaces
  the double path (s->other); else s->mgwhy says why not. keep: the image of the previous set-up (or NULL), whose
  values are refreshed where only they changed, else destroyed. gpu: the inner loop runs on the GPU, the image in device memory.
*/
PetscErrorCode PCSPCGMGSetUp(PC pc, PetscBool gpu, PCSPCGMG keep)
{
  PC_SPCG  *s = (PC_SPCG *)pc->data;
  PetscBool ismg = PETSC_FALSE, same = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PCSPCGMGDestroy(&s->mg));
  s->mgwhy = NULL;
  if (s->other) PetscCall(PetscObjectTypeCompareAny((PetscObject)s->other, &ismg, PCMG, PCGAMG, ""));
  if (ismg && !s->usemg) s->mgwhy = "-pc_spcg_mg 0";
  else if (ismg) {
    PetscCall(PetscLogEventBegin(PC_SPCG_MGSetUp, pc, 0, 0, 0));
    if (keep && keep->device == gpu) PetscCall(PCSPCGMGRefresh(pc, s->other, keep, &same, &s->mgwhy));
    if (same && !s->mgwhy) {
      s->mg = keep;
      keep  = NULL;
      PetscCall(PetscInfo(pc, "The single-precision V-cycle's values refreshed\n"));
    } else if (!s->mgwhy) PetscCall(PCSPCGMGCreate(pc, s->other, gpu, &s->mg, &s->mgwhy));
    PetscCall(PetscLogEventEnd(PC_SPCG_MGSetUp, pc, 0, 0, 0));
  }
  PetscCall(PCSPCGMGDestroy(&keep));
  if (!ismg) PetscFunctionReturn(PETSC_SUCCESS);
  if (s->mg) {
    s->other = NULL;
    PetscCall(PetscInfo(pc, "The inner PCMG runs as a single-precision V-cycle on %" PetscInt_FMT " levels, %zu bytes, on the %s\n", s->mg->nlevels, s->mg->bytes, gpu ? "GPU" : "host"));
  } else PetscCall(PetscInfo(pc, "The inner PCMG is applied in double precision: %s\n", s->mgwhy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether a level's own operator copy (not the one it shares with the inner CG) stores half-precision values on this process */
PetscBool PCSPCGMGHalf(PCSPCGMG mg)
{
  for (PetscInt l = 1; mg && l < mg->nlevels; l++)
    if (mg->level[l].op.d.ops && MatSingleHalf(&mg->level[l].op)) return PETSC_TRUE;
  return PETSC_FALSE;
}

/*
  The levels of the image: global sizes and nonzeros, storage (on several processes the format of process 0's diagonal
  blocks), smoothers, bytes on all processes. Collective.
*/
PetscErrorCode PCSPCGMGView(PCSPCGMG mg, PetscViewer viewer)
{
  const char *unit = PetscDefined(USE_COMPLEX) ? "8-byte" : "4-byte";
  char        line[512];
  MPI_Comm    comm = PetscObjectComm((PetscObject)mg->level[0].A);
  PetscReal   mb   = (PetscReal)mg->bytes / 1e6;

  PetscFunctionBegin;
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &mb, 1, MPIU_REAL, MPIU_SUM, comm));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  single-precision V-cycle%s: %" PetscInt_FMT " levels, %.3g MB in all", mg->device ? " on the GPU" : "", mg->nlevels, (double)mb));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
  if (mg->nrefresh) PetscCall(PetscViewerASCIIPrintf(viewer, "; its values refreshed at %" PetscInt_FMT " set-up%s since it was made", mg->nrefresh, mg->nrefresh > 1 ? "s" : ""));
  PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  if (mg->singlegraph && !PetscDefined(USE_COMPLEX)) { /* said where auto could have chosen half: a level's own copy in dense blocks */
    PetscBool blocked = PETSC_FALSE;

    for (PetscInt l = 1; l < mg->nlevels; l++) {
      PetscInt bs;

      PetscCall(MatGetBlockSize(mg->level[l].A, &bs));
      if (mg->level[l].opp == &mg->level[l].op && bs > 1) blocked = PETSC_TRUE;
    }
    if (blocked) PetscCall(PetscViewerASCIIPrintf(viewer, "  auto storage keeps the levels' copies single: on one process the V-cycle is replayed as a CUDA graph\n"));
  }
  for (PetscInt l = mg->nlevels - 1; l > 0; l--) {
    const PCSPCGMGLevel *lv     = &mg->level[l];
    PetscInt             nnz[2] = {lv->interp.d.nnz + lv->interp.o.nnz, lv->restr.d.nnz + lv->restr.o.nnz};
    const char          *copy;

    if (lv->opp->halo) copy = lv->opp == &lv->op ? " (diagonal blocks; off-diagonal blocks CSR)" : " (diagonal blocks; off-diagonal blocks CSR; the inner CG's copy)";
    else copy = lv->opp == &lv->op ? "" : " (the inner CG's copy)";
    PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, nnz, 2, MPIU_INT, MPI_SUM, comm));
    PetscCall((*lv->opp->d.ops->describe)(&lv->opp->d, unit, line, sizeof(line)));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  level %" PetscInt_FMT ": %" PetscInt_FMT " rows, operator %s%s\n", l, lv->N, line, copy));
    PetscCall(PetscViewerASCIIPrintf(viewer, "    interpolation CSR (%" PetscInt_FMT " nonzeros), restriction CSR (%" PetscInt_FMT " nonzeros%s)\n", nnz[0], nnz[1], lv->transposed ? ", the interpolation's explicit transpose" : ""));
    for (PetscInt k = 0; k < (lv->up.dinv == lv->down.dinv ? 1 : 2); k++) {
      const PCSPCGMGSmoother *sm  = k ? &lv->up : &lv->down;
      const char             *way = lv->up.dinv == lv->down.dinv ? "smoother" : (k ? "post-smoother" : "pre-smoother");

      if (sm->type == PCSPCG_MG_CHEBYSHEV) PetscCall(PetscViewerASCIIPrintf(viewer, "    %s Chebyshev, degree %" PetscInt_FMT ", eigenvalue bounds [%g, %g], Jacobi\n", way, sm->its, (double)sm->emin, (double)sm->emax));
      else PetscCall(PetscViewerASCIIPrintf(viewer, "    %s Richardson, %" PetscInt_FMT " steps, damping %g, Jacobi\n", way, sm->its, (double)sm->scale));
    }
  }
  if (mg->dense) PetscCall(PetscViewerASCIIPrintf(viewer, "  level 0: %" PetscInt_FMT " rows, dense inverse made in double, applied in single precision\n", mg->level[0].N));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  level 0: %" PetscInt_FMT " rows, PCMG's coarse solve in double precision (%s)\n", mg->level[0].N, mg->coarsewhy));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}
