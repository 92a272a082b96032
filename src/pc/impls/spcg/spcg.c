/*
   PCSPCG: z = B r where B approximates A^{-1} by a CG run in single precision on the operator's
   single-precision copy (Buttari et al.; Golub and Ye's inexact inner-outer PCG; Cevahir, Nukada,
   Matsuoka, "Fast conjugate gradients with multiple GPUs", 2009).

   The inner iterations run where the operator's vectors live: on the GPU (spcgdevice.cu) for CUDA
   vectors, on the host otherwise (spcghost.c, the reference twin of the device loop). This file holds
   the set-up, the application's frame, the options and the view.
*/
#include <petscjagged/private/spcgimpl.h>
#include <petscjagged/private/jaggednccl.h>
#include <petscjagged/private/jaggedcite.h>

const char *const PCSPCGFormats[]  = {"auto", "csr", "dia", "pjds", "PCSPCGFormat", "PCSPCG_FORMAT_", NULL};
const char *const PCSPCGStorages[] = {"single", "half", "auto", "PCSPCGStorage", "PCSPCG_STORAGE_", NULL};

PetscLogEvent PC_SPCG_Inner;

/* What runs inside the inner loop: Jacobi in single precision (diag), the inner PC in double (other), or nothing */
static PetscErrorCode PCSPCGResolveInner(PC pc)
{
  PC_SPCG  *s = (PC_SPCG *)pc->data;
  PetscBool none = PETSC_TRUE, jac = PETSC_FALSE;

  PetscFunctionBegin;
  s->other   = NULL;
  s->fixdiag = PETSC_FALSE;
  if (s->inner) {
    PetscCall(PCSetUp(s->inner));
    PetscCall(PetscObjectTypeCompare((PetscObject)s->inner, PCNONE, &none));
    PetscCall(PetscObjectTypeCompare((PetscObject)s->inner, PCJACOBI, &jac));
    if (jac) { /* only the plain inverse diagonal has a single-precision form here */
      PCJacobiType type;
      PetscBool    useabs, fixdiag;

      PetscCall(PCJacobiGetType(s->inner, &type));
      PetscCall(PCJacobiGetUseAbs(s->inner, &useabs));
      PetscCall(PCJacobiGetFixDiagonal(s->inner, &fixdiag));
      jac        = (PetscBool)(type == PC_JACOBI_DIAGONAL && !useabs);
      s->fixdiag = fixdiag;
    }
    if (!none && !jac) s->other = s->inner;
  }
  s->diag = (PetscBool)(!s->other && (jac || s->jacobi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  A private copy of a matrix that has no single-precision copy of its own: a MATPJDSCUDA matrix with
  the same rows, on the GPU or with host kernels.
*/
static PetscErrorCode PCSPCGCopyOperator(Mat P, PetscBool host, PetscOptions *hostopts, Mat *A)
{
  PetscInt  m, n, M, N, rstart, rend, cstart, cend, *dnz, *onz;
  MPI_Comm  comm = PetscObjectComm((PetscObject)P);

  PetscFunctionBegin;
  PetscCall(MatGetLocalSize(P, &m, &n));
  PetscCall(MatGetSize(P, &M, &N));
  PetscCall(MatGetOwnershipRange(P, &rstart, &rend));
  PetscCall(MatGetOwnershipRangeColumn(P, &cstart, &cend));
  PetscCall(PetscCalloc2(m, &dnz, m, &onz));
  for (PetscInt i = rstart; i < rend; i++) {
    PetscInt        nc;
    const PetscInt *cols;

    PetscCall(MatGetRow(P, i, &nc, &cols, NULL));
    for (PetscInt k = 0; k < nc; k++) {
      if (cols[k] >= cstart && cols[k] < cend) dnz[i - rstart]++;
      else onz[i - rstart]++;
    }
    PetscCall(MatRestoreRow(P, i, &nc, &cols, NULL));
  }
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, m, n, M, N));
  if (host) { /* the type reads it where it starts the GPU, which a machine without one may not have */
    PetscCall(PetscOptionsCreate(hostopts));
    PetscCall(PetscOptionsSetValue(*hostopts, "-mat_jagged_host", NULL));
    PetscCall(PetscObjectSetOptions((PetscObject)*A, *hostopts));
  }
  PetscCall(MatSetType(*A, MATPJDSCUDA));
  PetscCall(MatXAIJSetPreallocation(*A, 1, dnz, onz, NULL, NULL));
  for (PetscInt i = rstart; i < rend; i++) {
    PetscInt           nc;
    const PetscInt    *cols;
    const PetscScalar *vals;

    PetscCall(MatGetRow(P, i, &nc, &cols, &vals));
    PetscCall(MatSetValues(*A, 1, &i, nc, cols, vals, INSERT_VALUES));
    PetscCall(MatRestoreRow(P, i, &nc, &cols, &vals));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree2(dnz, onz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReset_SPCG(PC pc)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  if (s->own) PetscCall(MatDestroy(&s->A));
  PetscCall(PetscOptionsDestroy(&s->hostopts));
  s->A   = NULL;
  s->own = PETSC_FALSE;
  PetscCall(MatSingleDestroy(&s->copy));
  s->hasblocks = PETSC_FALSE;
  PetscCall(PetscFree6(s->x, s->r, s->z, s->p, s->q, s->dinv));
  PetscCall(VecDestroy(&s->wr));
  PetscCall(VecDestroy(&s->wz));
  s->other = NULL;
  PetscCall(PCSPCGDeviceDestroy(&s->dev));
  PetscCall(PCSPCGMGDestroy(&s->mg));
  s->mgwhy = NULL;
  s->n     = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The copies, the inner loop and the V-cycle image, in the storage PCSPCGStorageUsed() gives: at each set-up, and again
  (the image made anew) when auto storage falls back to single precision during a solve
*/
static PetscErrorCode PCSPCGSetUpCopies(PC pc)
{
  PC_SPCG       *s = (PC_SPCG *)pc->data;
  Mat            P = pc->pmat;
  VecType        vtype;
  PetscBool      hasSingle, gpu, seqaij, mpiaij, jagged, half;
  char          *cuda;
  Vec            dinv = NULL;
  PCSPCGMG       keep;
  PCSPCGStorage  storage = PCSPCGStorageUsed(pc);
  PetscErrorCode (*f)(void);

  PetscFunctionBegin;
  PetscCall(MatGetVecType(P, &vtype));
  PetscCall(PetscStrstr(vtype, "cuda", &cuda));
  gpu = (PetscBool)(cuda != NULL);
  PetscCall(PetscObjectQueryFunction((PetscObject)P, "MatJaggedMultSingle_C", &f));
  hasSingle = (PetscBool)(f != NULL);
  keep      = s->mg; /* a values-only change refreshes it */
  s->mg     = NULL;
  PetscCall(PCReset_SPCG(pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)P, gpu ? MATSEQAIJCUSPARSE : MATSEQAIJ, &seqaij)); /* exactly: not a derived type */
  PetscCall(PetscObjectTypeCompare((PetscObject)P, gpu ? MATMPIAIJCUSPARSE : MATMPIAIJ, &mpiaij));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)P, &jagged, MATSEQPJDSCUDA, MATSEQJDSCUDA, MATMPIPJDSCUDA, MATMPIJDSCUDA, ""));
  if (jagged && gpu && (s->format == PCSPCG_FORMAT_AUTO || s->format == PCSPCG_FORMAT_DIA)) /* on a stencil DIA moves fewer bytes than the type's own copy */
    PetscCall(MatSingleCreateDIA(P, s->format, s->exchange, &s->copy, &s->hasblocks));
  /* a jagged operator gets a copy of its own where half may be stored (real scalars, storage half, or auto but for a CSR copy,
     never half; auto decides block by block as for an AIJ operator: MatSingleCreate()), on the GPU made from the CSR scattered
     back from its jagged copy there (nothing uploaded); else it multiplies with its own single-precision copy */
  half = (PetscBool)(!PetscDefined(USE_COMPLEX) && (storage == PCSPCG_STORAGE_HALF || (storage == PCSPCG_STORAGE_AUTO && s->format != PCSPCG_FORMAT_CSR)));
  if (s->hasblocks) { /* the jagged operator's DIA copy */
  } else if (hasSingle && !(jagged && half)) s->A = P;
  else if (seqaij || mpiaij || jagged) { /* a jagged operator where half may be stored: the copy of its CSR */
    PetscCall(MatSingleCreate(P, gpu, s->format, storage, s->halfmin, s->exchange, &s->copy));
    s->hasblocks = PETSC_TRUE;
  } else {
    PetscCall(PCSPCGCopyOperator(P, (PetscBool)!gpu, &s->hostopts, &s->A));
    s->own = PETSC_TRUE;
  }
  if (s->A) { /* a jagged type keeps its copy; other providers of MatJaggedSetMultSingle() have nothing to set */
    PetscErrorCode (*setsingle)(Mat, PetscBool) = NULL;

    PetscCall(PetscObjectQueryFunction((PetscObject)s->A, "MatJaggedSetSinglePrecision_C", &setsingle));
    if (setsingle) PetscCall(MatJaggedSetSinglePrecision(s->A, PETSC_TRUE));
  }
  PetscCall(MatGetLocalSize(P, &s->n, NULL));
  PetscCall(PCSPCGResolveInner(pc));
  PetscCall(PCSPCGMGSetUp(pc, gpu, keep)); /* an inner PCMG: its single-precision V-cycle in place of other, where supported */
  if (s->other) PetscCall(MatCreateVecs(P, &s->wr, &s->wz));
  if (s->diag) {
    PetscScalar *da;

    PetscCall(MatCreateVecs(P, NULL, &dinv));
    PetscCall(MatGetDiagonal(P, dinv));
    PetscCall(VecGetArray(dinv, &da));
    for (PetscInt i = 0; i < s->n; i++) {
      PetscCheck(da[i] != 0.0 || s->fixdiag, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "Zero diagonal entry in row %" PetscInt_FMT ": no Jacobi inside PCSPCG", i);
      da[i] = da[i] != 0.0 ? 1.0 / da[i] : 1.0; /* a zero only with the inner PCJACOBI's fixed diagonal, as PCJACOBI does */
    }
    PetscCall(VecRestoreArray(dinv, &da));
  }
  if (gpu) PetscCall(PCSPCGDeviceCreate(pc, dinv, &s->dev));
  else {
    PetscCall(PetscMalloc6(s->n, &s->x, s->n, &s->r, s->n, &s->z, s->n, &s->p, s->n, &s->q, s->diag ? s->n : 0, &s->dinv));
    if (s->diag) {
      const PetscScalar *da;

      PetscCall(VecGetArrayRead(dinv, &da));
      for (PetscInt i = 0; i < s->n; i++) s->dinv[i] = (PetscJaggedScalarSingle)da[i];
      PetscCall(VecRestoreArrayRead(dinv, &da));
    }
  }
  PetscCall(VecDestroy(&dinv));
  if (s->own || (s->hasblocks && s->copy.d.format == PCSPCG_FORMAT_PJDS)) PetscCall(PetscJaggedCitePJDS()); /* a pJDS copy */
  s->napply = s->ninner = s->nindefinite = 0;
  s->napply0 = s->ninner0 = s->nindefinite0 = 0;
  s->havedir                                = PETSC_FALSE;
  s->halfauto                               = PETSC_FALSE;
  if (storage == PCSPCG_STORAGE_AUTO) { /* the fallback's check runs where some process keeps half */
    s->halfauto = (PetscBool)((s->hasblocks && MatSingleHalf(&s->copy)) || PCSPCGMGHalf(s->mg));
    PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &s->halfauto, 1, MPI_C_BOOL, MPI_LOR, PetscObjectComm((PetscObject)pc)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetUp_SPCG(PC pc)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  if (!pc->setupcalled || pc->flag != SAME_NONZERO_PATTERN) s->fellback = PETSC_FALSE; /* another operator: auto tries half again */
  PetscCall(PCSPCGSetUpCopies(pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The inner stopping tolerance of one application on r with ||r|| = rnorm: -pc_spcg_rtol, or, when the
  outer iteration has said what residual it must reach, no more than half of the reduction still needed
  (the last application does not solve beyond what the outer iteration asks for)
*/
static PetscReal PCSPCGInnerTolerance(PC pc, PetscReal rnorm)
{
  PC_SPCG  *s   = (PC_SPCG *)pc->data;
  PetscReal tol = s->rtol;

  if (s->target > 0) tol = PetscMax(tol, 0.5 * s->target / rnorm);
  return tol;
}

/*
  KSPMPCG, at the start of each solve: whether the inner search direction is continued from one
  application to the next, and the residual norm the solve has to reach (0: unknown); the inner floor starts anew.
  Composed as "PCSPCGSetOuterState_C", KSPMPCG's only way in (it does not include this type's private header)
*/
static PetscErrorCode PCSPCGSetOuterState_SPCG(PC pc, PetscBool cont, PetscReal target)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  s->cont    = cont;
  s->target  = target;
  s->havedir = PETSC_FALSE;
  s->contoff = PETSC_FALSE;
  s->floor   = PCSPCG_FLOOR_START;
  s->atfloor = PETSC_FALSE;
  if (s->dev) PetscCall(PCSPCGDeviceStartSolve(pc, s->floor));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGGetStatistics(PC, PetscInt *, PetscInt *, PetscInt *, PetscReal *);

/*
  Auto storage that chose half: every copy made again in single precision (the V-cycle image too, not refreshed), for the rest of
  the solve and until the operator's nonzero pattern or the storage changes; the outer state kept, the inner search direction
  started anew, the statistics carried over. why: what made it. Composed as "PCSPCGFallBack_C", for KSPMPCG, which calls it where
  its solve would otherwise end (an indefinite preconditioner, stagnation); *done: it fell back (false: no half copy to leave)
*/
static PetscErrorCode PCSPCGFallBack_SPCG(PC pc, const char *why, PetscBool *done)
{
  PC_SPCG  *s = (PC_SPCG *)pc->data;
  PetscInt  napply, ninner, nindefinite;
  PetscReal target = s->target;
  PetscBool cont   = s->cont;

  PetscFunctionBegin;
  *done = (PetscBool)(s->halfauto && !s->fellback);
  if (!*done) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscInfo(pc, "Auto storage falls back to single precision: %s\n", why));
  PetscCall(PCSPCGGetStatistics(pc, &napply, &ninner, &nindefinite, NULL));
  s->fellback = PETSC_TRUE;
  s->fallwhy  = why;
  PetscCall(PCSPCGMGDestroy(&s->mg));
  PetscCall(PCSPCGSetUpCopies(pc));
  s->napply0      = napply;
  s->ninner0      = ninner;
  s->nindefinite0 = nindefinite;
  s->nindeflast   = nindefinite;
  PetscCall(PCSPCGSetOuterState_SPCG(pc, cont, target));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Auto storage with half copies, under KSPMPCG, before an application: an inner breakdown (p'Ap <= 0) in the previous one means the
  half copies (or the operator) are not positive definite: PCSPCGFallBack_SPCG(). Reads the device loop's statistics (waits for it).
*/
static PetscErrorCode PCSPCGCheckHalf(PC pc)
{
  PC_SPCG  *s = (PC_SPCG *)pc->data;
  PetscInt  nindefinite;
  PetscBool done;

  PetscFunctionBegin;
  if (!s->halfauto || s->fellback || s->target <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PCSPCGGetStatistics(pc, NULL, NULL, &nindefinite, NULL));
  if (nindefinite > s->nindeflast) PetscCall(PCSPCGFallBack_SPCG(pc, "an inner solve on the half copies broke down (p'Ap <= 0)", &done));
  else s->nindeflast = nindefinite;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  z = B r: the inner CG in single precision on r / ||r||, then scaled back.

  With continuation (KSPMPCG), the first inner direction is not z but z + beta p_last, p_last the last
  direction of the previous application: the single-precision CG goes on across the outer iterations,
  its residual replaced by the outer's double-precision one (the "reliable updates" of mixed-precision
  CG, Clark et al. 2010). In the units of this application, beta = (||r|| / ||r_last||) r'z / r_last'z_last;
  the first step takes the exact line search alpha = p'r / p'Ap, the next beta divides by r'p (which keeps
  p_1 A-orthogonal to p_0 in complex arithmetic too), and a direction with p'r not of the sign of r'z is dropped. When the
  new residual is far from orthogonal to the continued direction (|beta r'p_last| > PCSPCG_CONT_DRIFT |r'z|:
  measured below 1e-5 on Poisson problems, above 1e-4 on systems too ill-conditioned for single-precision
  directions to carry over, such as 1138_bus), continuation stops for the rest of the solve.
*/
static PetscErrorCode PCApply_SPCG(PC pc, Vec rv, Vec zv)
{
  PC_SPCG  *s = (PC_SPCG *)pc->data;
  PetscReal rnorm, tol2;

  PetscFunctionBegin;
  PetscCall(VecNorm(rv, NORM_2, &rnorm));
  if (rnorm == 0.0) {
    PetscCall(VecSet(zv, 0.0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (PetscIsInfOrNanReal(rnorm)) {
    pc->failedreason = PC_INCONSISTENT_RHS;
    PetscCall(VecFlag(zv, PETSC_TRUE));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PCSPCGCheckHalf(pc));
  tol2 = PetscSqr(PCSPCGInnerTolerance(pc, rnorm));
  PetscCall(PetscLogEventBegin(PC_SPCG_Inner, pc, rv, zv, 0));
  if (s->dev) PetscCall(PCSPCGDeviceApply(pc, rv, rnorm, tol2, zv));
  else PetscCall(PCSPCGHostApply(pc, rv, rnorm, tol2, zv));
  s->rnormlast = rnorm;
  PetscCall(PetscLogEventEnd(PC_SPCG_Inner, pc, rv, zv, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_SPCG(PC pc, PetscOptionItems PetscOptionsObject)
{
  PC_SPCG     *s = (PC_SPCG *)pc->data;
  PetscInt     n;
  PetscReal    r;
  PetscBool    b, flg;
  PCSPCGFormat  format;
  PCSPCGStorage storage;
  PetscJaggedExchange exchange;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "SPCG options (single-precision inner CG)");
  PetscCall(PetscOptionsInt("-pc_spcg_max_it", "Inner CG iterations", "PCSPCGSetMaxIterations", s->max_it, &n, &flg));
  if (flg) PetscCall(PCSPCGSetMaxIterations(pc, n));
  PetscCall(PetscOptionsReal("-pc_spcg_rtol", "Stop the inner CG at this relative residual reduction (0: run all iterations)", "PCSPCGSetTolerance", s->rtol, &r, &flg));
  if (flg) PetscCall(PCSPCGSetTolerance(pc, r));
  PetscCall(PetscOptionsBool("-pc_spcg_jacobi", "Jacobi preconditioning inside the inner CG", "PCSPCGSetJacobi", s->jacobi, &b, &flg));
  if (flg) PetscCall(PCSPCGSetJacobi(pc, b));
  PetscCall(PetscOptionsEnum("-pc_spcg_format", "Format of the single-precision copy of an AIJ operator (of its diagonal block)", "PCSPCGSetFormat", PCSPCGFormats, (PetscEnum)s->format, (PetscEnum *)&format, &flg));
  if (flg) PetscCall(PCSPCGSetFormat(pc, format));
  PetscCall(PetscOptionsEnum("-pc_spcg_storage", "Precision of the values of the pJDS single-precision copies (of the operator and the V-cycle's levels): single, half (scaled by the diagonal; real scalars), or auto (half where the copy keeps dense blocks or packs 16-bit column distances with the values, and it is safe)", "PCSPCGSetStorage", PCSPCGStorages, (PetscEnum)s->storage, (PetscEnum *)&storage, &flg));
  if (flg) PetscCall(PCSPCGSetStorage(pc, storage));
  PetscCall(PetscOptionsBoundedInt("-pc_spcg_half_min_nonzeros", "Auto storage: the fewest nonzeros of a copy (a process's diagonal block, a V-cycle level's) that it stores in half precision", "PCSPCGSetHalfMinNonzeros", s->halfmin, &n, &flg, 0));
  if (flg) PetscCall(PCSPCGSetHalfMinNonzeros(pc, n));
  PetscCall(PetscOptionsBool("-pc_spcg_cuda_graph", "On one process, replay the GPU inner iterations as a CUDA graph", "PCSPCGSetUseCUDAGraph", s->graph, &b, &flg));
  if (flg) PetscCall(PCSPCGSetUseCUDAGraph(pc, b));
  exchange = s->exchange;
  PetscCall(PetscOptionsEnum("-pc_spcg_exchange", "Several processes on GPUs: path of the inner halo exchanges and sums: auto (both through CUDA IPC on one host where each process has a GPU), mpi, nccl (both GPU to GPU) or ipc", "PCSPCGSetExchange", PetscJaggedExchanges, (PetscEnum)exchange, (PetscEnum *)&exchange, &flg));
  if (flg) PetscCall(PCSPCGSetExchange(pc, exchange));
  PetscCall(PetscOptionsBool("-pc_spcg_mg", "Run an inner PCMG (PCGAMG) as a V-cycle in single precision where its smoothers allow", "PCSPCGSetMG", s->usemg, &b, &flg));
  if (flg) PetscCall(PCSPCGSetMG(pc, b));
  PetscCall(PetscOptionsInt("-pc_spcg_mg_dense_max", "Largest coarse problem of the single-precision V-cycle inverted densely (larger: the double coarse solve)", "PCSPCGSetMGDenseMax", s->mgdensemax, &n, &flg));
  if (flg) PetscCall(PCSPCGSetMGDenseMax(pc, n));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The -pc_spcg_ options of an internal PCSPCG (KSPMPCG's), without PCSetFromOptions(), which would also read -pc_type.
  Composed as "PCSPCGSetFromOptionsInner_C", for KSPMPCG
*/
static PetscErrorCode PCSPCGSetFromOptionsInner_SPCG(PC pc)
{
  PetscFunctionBegin;
  PetscObjectOptionsBegin((PetscObject)pc);
  PetscCall(PCSetFromOptions_SPCG(pc, PetscOptionsObject));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Statistics since set-up and the inner floor, from the device loop when it runs */
static PetscErrorCode PCSPCGGetStatistics(PC pc, PetscInt *napply, PetscInt *ninner, PetscInt *nindefinite, PetscReal *floor)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  if (s->dev) PetscCall(PCSPCGDeviceGetStatistics(pc, napply, ninner, nindefinite, floor));
  else {
    if (napply) *napply = s->napply;
    if (ninner) *ninner = s->ninner;
    if (nindefinite) *nindefinite = s->nindefinite;
    if (floor) *floor = s->floor;
  }
  if (napply) *napply += s->napply0; /* the applications before a fallback's set-up */
  if (ninner) *ninner += s->ninner0;
  if (nindefinite) *nindefinite += s->nindefinite0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_SPCG(PC pc, PetscViewer viewer)
{
  PC_SPCG    *s = (PC_SPCG *)pc->data;
  PetscBool   ascii;
  PetscInt    napply, ninner, nindefinite;
  PetscReal   floor;
  PetscMPIInt size;
  const char *where;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  inner CG in single precision: %" PetscInt_FMT " iterations%s", s->max_it, s->A || s->hasblocks ? (s->diag ? ", Jacobi" : "") : (s->jacobi ? ", Jacobi" : "")));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
  if (s->rtol > 0) PetscCall(PetscViewerASCIIPrintf(viewer, ", or to a relative residual of %g", (double)s->rtol));
  PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  if (!s->A && !s->hasblocks) where = "not set up yet";
  else if (s->dev && s->ingraph) where = s->mg ? "on the GPU, with the V-cycle, replayed as a CUDA graph" : "on the GPU, replayed as a CUDA graph";
  else if (s->dev && s->mg && s->graph && size == 1 && s->mg->dense && PCSPCGMGHalf(s->mg)) where = "on the GPU, with the V-cycle (half-precision levels: not replayed as a CUDA graph)";
  else if (s->dev && s->mg && !s->mg->dense) where = "on the GPU, with the V-cycle, its coarse solve crossing the host at each iteration";
  else if (s->dev && s->mg && s->mg->counts) where = "on the GPU, with the V-cycle, its coarse right-hand side gathered through the host at each iteration";
  else if (s->dev) where = s->other ? "on the GPU, the host applying the inner preconditioner at each iteration" : (s->mg ? "on the GPU, with the V-cycle" : "on the GPU");
  else where = "on the host";
  PetscCall(PetscViewerASCIIPrintf(viewer, "  inner iterations run %s\n", where));
  if (s->dev && size > 1) {
    PetscJaggedExchange sums;
    const char         *why;

    PetscCall(PCSPCGDeviceGetExchange(pc, &sums, &why));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  inner sums: %s%s%s%s\n", sums == PETSC_JAGGED_EXCHANGE_NCCL ? "through NCCL, GPU to GPU, the host one iteration behind" : (sums == PETSC_JAGGED_EXCHANGE_IPC ? "through CUDA IPC, GPU to GPU (stores into the others' memory), the host one iteration behind" : "through MPI and the host"), why ? " (" : "", why ? why : "", why ? ")" : ""));
    if (s->copy.halo) {
      const char *how;

      PetscCall(JaggedHaloGetExchange(s->copy.halo, &how, &why));
      PetscCall(PetscViewerASCIIPrintf(viewer, "  inner halo exchanges: %s%s%s%s\n", how, why ? " (" : "", why ? why : "", why ? ")" : ""));
    }
  }
  if (s->cont) PetscCall(PetscViewerASCIIPrintf(viewer, "  inner search direction continued from one application to the next; inner solves stop at half the reduction the outer solve still needs\n"));
  PetscCall(PCSPCGGetStatistics(pc, &napply, &ninner, &nindefinite, &floor));
  if (floor > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  inner solves also stop at the reduction single precision delivers: %g in the last solve\n", (double)floor));
  if (s->hasblocks) {
    const MatSingleBlock *c = &s->copy.d;
    char               block[512];

    PetscCall((*c->ops->describe)(c, PetscDefined(USE_COMPLEX) ? "8-byte" : "4-byte", block, sizeof(block)));
    if (s->copy.halo) PetscCall(PetscViewerASCIIPrintf(viewer, "  operator's single-precision copy: diagonal block %s; off-diagonal block CSR, ghosts exchanged in single precision\n", block));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  operator's single-precision copy: %s\n", block));
  } else PetscCall(PetscViewerASCIIPrintf(viewer, "  operator's single-precision copy: %s%s\n", s->A ? (s->own ? "a private pJDS copy" : "the matrix's own single-precision product") : "not set up yet", s->A && !s->own && s->storage == PCSPCG_STORAGE_AUTO ? " (auto storage keeps it: complex scalars, or a CSR copy asked)" : ""));
  if (s->hasblocks && s->format != PCSPCG_FORMAT_AUTO) PetscCall(PetscViewerASCIIPrintf(viewer, "  format chosen by -pc_spcg_format %s\n", PCSPCGFormats[s->format]));
  if (s->storage == PCSPCG_STORAGE_HALF) PetscCall(PetscViewerASCIIPrintf(viewer, "  storage asked: half precision for the pJDS copies%s\n", PetscDefined(USE_COMPLEX) ? " (complex scalars: single precision kept)" : " (DIA and CSR copies, off-diagonal blocks: single precision)"));
  else if (s->storage == PCSPCG_STORAGE_AUTO) {
    if (PetscDefined(USE_COMPLEX)) PetscCall(PetscViewerASCIIPrintf(viewer, "  storage auto: single precision (complex scalars)\n"));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  storage auto: half precision for the pJDS copies with dense blocks or packed whose scaled entries are safe, else single (and for copies of fewer than %" PetscInt_FMT " nonzeros)\n", s->halfmin));
  }
  if (s->fellback) PetscCall(PetscViewerASCIIPrintf(viewer, "  auto storage fell back to single precision during a solve: %s\n", s->fallwhy));
  if (s->inner) {
    PCType type;

    PetscCall(PCGetType(s->inner, &type));
    if (!s->A && !s->hasblocks) PetscCall(PetscViewerASCIIPrintf(viewer, "  inner preconditioner: %s (precision decided at set-up)\n", type));
    else if (s->other) PetscCall(PetscViewerASCIIPrintf(viewer, "  inner preconditioner: %s, applied in double precision to the single-precision inner residual (converted both ways)\n", type));
    else if (s->mg) PetscCall(PetscViewerASCIIPrintf(viewer, "  inner preconditioner: %s, its V-cycle run in single precision inside the inner loop\n", type));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  inner preconditioner: %s, run in single precision inside the inner loop\n", type));
    if (s->mg) PetscCall(PCSPCGMGView(s->mg, viewer));
    else if (s->mgwhy) PetscCall(PetscViewerASCIIPrintf(viewer, "  no single-precision V-cycle: %s\n", s->mgwhy));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "  applications %" PetscInt_FMT ", inner iterations %" PetscInt_FMT " (%.1f each), inner breakdowns %" PetscInt_FMT "\n", napply, ninner, napply ? (double)ninner / napply : 0.0, nindefinite));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGGetInnerIterations_SPCG(PC pc, PetscInt *napply, PetscInt *ninner)
{
  PetscFunctionBegin;
  PetscCall(PCSPCGGetStatistics(pc, napply, ninner, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGSetInnerPC_SPCG(PC pc, PC inner)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  if (inner) PetscCall(PetscObjectReference((PetscObject)inner));
  PetscCall(PCDestroy(&s->inner));
  s->inner = inner;
  pc->setupcalled = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGSetMaxIterations_SPCG(PC pc, PetscInt max_it)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(max_it >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCSPCG inner iterations (-pc_spcg_max_it) must be nonnegative, not %" PetscInt_FMT, max_it);
  if (max_it != s->max_it) pc->setupcalled = PETSC_FALSE; /* the device loop is sized (and captured) for max_it iterations */
  s->max_it = max_it;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGGetMaxIterations_SPCG(PC pc, PetscInt *max_it)
{
  PetscFunctionBegin;
  *max_it = ((PC_SPCG *)pc->data)->max_it;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGSetTolerance_SPCG(PC pc, PetscReal rtol)
{
  PetscFunctionBegin;
  PetscCheck(rtol >= 0 && rtol < 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCSPCG inner tolerance (-pc_spcg_rtol) must be in [0, 1), not %g", (double)rtol);
  ((PC_SPCG *)pc->data)->rtol = rtol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGGetTolerance_SPCG(PC pc, PetscReal *rtol)
{
  PetscFunctionBegin;
  *rtol = ((PC_SPCG *)pc->data)->rtol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGSetJacobi_SPCG(PC pc, PetscBool flg)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  if (flg != s->jacobi) pc->setupcalled = PETSC_FALSE; /* the inverse diagonal is made at set-up */
  s->jacobi = flg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGGetJacobi_SPCG(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = ((PC_SPCG *)pc->data)->jacobi;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGSetFormat_SPCG(PC pc, PCSPCGFormat format)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(format >= PCSPCG_FORMAT_AUTO && format <= PCSPCG_FORMAT_PJDS, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Unknown PCSPCGFormat %d", (int)format);
  if (format != s->format) pc->setupcalled = PETSC_FALSE; /* the single-precision copy is made at set-up */
  s->format = format;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGGetFormat_SPCG(PC pc, PCSPCGFormat *format)
{
  PetscFunctionBegin;
  *format = ((PC_SPCG *)pc->data)->format;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGSetStorage_SPCG(PC pc, PCSPCGStorage storage)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(storage >= PCSPCG_STORAGE_SINGLE && storage <= PCSPCG_STORAGE_AUTO, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Unknown PCSPCGStorage %d", (int)storage);
  if (storage != s->storage || s->fellback) pc->setupcalled = PETSC_FALSE; /* the copies are made at set-up */
  s->storage  = storage;
  s->fellback = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGGetStorage_SPCG(PC pc, PCSPCGStorage *storage)
{
  PetscFunctionBegin;
  *storage = ((PC_SPCG *)pc->data)->storage;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGSetHalfMinNonzeros_SPCG(PC pc, PetscInt n)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(n >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "The fewest nonzeros of a half copy must be nonnegative: %" PetscInt_FMT, n);
  if (n != s->halfmin) pc->setupcalled = PETSC_FALSE; /* the copies are made at set-up */
  s->halfmin = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGGetHalfMinNonzeros_SPCG(PC pc, PetscInt *n)
{
  PetscFunctionBegin;
  *n = ((PC_SPCG *)pc->data)->halfmin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGSetUseCUDAGraph_SPCG(PC pc, PetscBool flg)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  if (flg != s->graph) pc->setupcalled = PETSC_FALSE; /* the device loop decides at set-up */
  s->graph = flg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGGetUseCUDAGraph_SPCG(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = ((PC_SPCG *)pc->data)->graph;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGSetExchange_SPCG(PC pc, PetscJaggedExchange exchange)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  if (exchange != s->exchange) pc->setupcalled = PETSC_FALSE; /* the halo and the device loop are made at set-up */
  s->exchange = exchange;
  if (exchange == PETSC_JAGGED_EXCHANGE_NCCL) PetscCall(JaggedNCCLPrefetch(PetscObjectComm((PetscObject)pc))); /* made in the background until set-up */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGGetExchange_SPCG(PC pc, PetscJaggedExchange *exchange)
{
  PetscFunctionBegin;
  *exchange = ((PC_SPCG *)pc->data)->exchange;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGSetMG_SPCG(PC pc, PetscBool flg)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  if (flg != s->usemg) pc->setupcalled = PETSC_FALSE; /* the image is made at set-up */
  s->usemg = flg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGGetMG_SPCG(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = ((PC_SPCG *)pc->data)->usemg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGSetMGDenseMax_SPCG(PC pc, PetscInt n)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  PetscCheck(n >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PCSPCG's largest dense coarse problem (-pc_spcg_mg_dense_max) must be nonnegative, not %" PetscInt_FMT, n);
  if (n != s->mgdensemax) pc->setupcalled = PETSC_FALSE; /* the coarse solve is chosen at set-up */
  s->mgdensemax = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSPCGGetMGDenseMax_SPCG(PC pc, PetscInt *n)
{
  PetscFunctionBegin;
  *n = ((PC_SPCG *)pc->data)->mgdensemax;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_SPCG(PC pc)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  PetscCall(PCReset_SPCG(pc));
  PetscCall(PCDestroy(&s->inner));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetInnerIterations_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetInnerPC_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetMaxIterations_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetMaxIterations_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetTolerance_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetTolerance_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetJacobi_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetJacobi_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetFormat_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetFormat_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetStorage_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetStorage_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetHalfMinNonzeros_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetHalfMinNonzeros_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetUseCUDAGraph_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetUseCUDAGraph_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetExchange_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetExchange_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetMG_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetMG_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetMGDenseMax_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetMGDenseMax_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetFromOptionsInner_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetOuterState_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGFallBack_C", NULL));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   PCSPCG - "spcg" - preconditions with a conjugate gradient run in single precision on the operator's
   single-precision copy: the inner solver of the mixed-precision inner-outer CG

   Options Database Keys:
+  -pc_spcg_max_it <50>                - inner iterations at most, see `PCSPCGSetMaxIterations()`
.  -pc_spcg_rtol <0>                   - stop the inner iterations earlier at this relative residual (0: never), see `PCSPCGSetTolerance()`
.  -pc_spcg_jacobi                     - Jacobi preconditioning inside the inner CG, see `PCSPCGSetJacobi()`
.  -pc_spcg_format <auto,csr,dia,pjds> - format of the single-precision copy of an AIJ operator (of its diagonal block), see `PCSPCGSetFormat()`
.  -pc_spcg_storage <auto,single,half>  - precision of the values of the pJDS copies (operator, V-cycle levels), see `PCSPCGSetStorage()`
.  -pc_spcg_half_min_nonzeros <2000000> - auto storage: the fewest nonzeros of a copy it stores in half precision, see `PCSPCGSetHalfMinNonzeros()`
.  -pc_spcg_cuda_graph <true>          - on one process, capture the GPU inner iterations once into a CUDA graph and replay it, see `PCSPCGSetUseCUDAGraph()`
.  -pc_spcg_exchange <auto,mpi,nccl,ipc> - on several processes on GPUs, the path of the inner halo exchanges and sums, see `PCSPCGSetExchange()`
.  -pc_spcg_mg <true>                  - an inner `PCMG` (`PCGAMG`) runs as a V-cycle in single precision where supported, see `PCSPCGSetMG()`
-  -pc_spcg_mg_dense_max <2000>        - the largest coarse problem of that V-cycle inverted densely, see `PCSPCGSetMGDenseMax()`

   Level: intermediate

   Notes:
   B r is a few CG steps, not a fixed linear operator: use it with a flexible outer method
   (`KSPMPCG`, `KSPFCG`, `KSPGCR`, `KSPFGMRES`). The operator should be symmetric (Hermitian) positive
   definite. A `MATJDSCUDA` or `MATPJDSCUDA` operator gets, on the GPU where the entries of every process's diagonal
   block lie on few diagonals (below), the DIA copy of its diagonal block, found and filled on the GPU from the jagged
   format, and a CSR copy of its off-diagonal block; otherwise, in real scalars with half or auto storage (below; auto: not
   with `-pc_spcg_format csr`), a pJDS copy of its own, as an AIJ operator's (on the GPU made from the CSR scattered back
   from its jagged copy there: nothing uploaded but the row starts); else (single storage, complex scalars) it multiplies
   with its own single-precision copy (`MatJaggedMultSingle()`).
   A `MATSEQAIJCUSPARSE` (or `MATSEQAIJ`) operator, and the diagonal and
   off-diagonal blocks of a `MATMPIAIJCUSPARSE` (`MATMPIAIJ`) one, get single-precision copies made on the
   device (host): where all entries of the (diagonal) block lie on at most 32 diagonals and DIA moves at
   most 0.8 of CSR's bytes (a structured-grid operator, such as a `DMDA` stencil), the values stored
   diagonal by diagonal, without column indices (DIA); else padded jagged diagonals (pJDS, the format of
   `MATPJDSCUDA`). The off-diagonal block is always CSR. `-pc_spcg_format` (`PCSPCGSetFormat()`) forces
   CSR (the values rounded, with the matrix's own indices), DIA or pJDS. The product by a CSR or DIA copy
   also sums p'Ap inside the inner loop. Any other assembled matrix gets a private `MATPJDSCUDA` copy. The
   right-hand side is scaled to unit norm before it is rounded to single precision. With `-pc_spcg_storage half`
   (`PCSPCGSetStorage()`, real scalars) the pJDS copies store the values of D^{-1/2} A D^{-1/2}, D = |diag(A)|, in IEEE half
   precision (2 bytes a value, arithmetic in single precision; a scalar copy packs each with its column's 16-bit distance from
   the row's previous one in one 32-bit word), a jagged operator's copy included; by default (auto) half only for copies kept in dense blocks or packed whose scaled
   entries are safe, and back to single precision during a solve where half limits it (`PCSPCGSetStorage()`). An inner step
   that finds p'Ap <= 0 ends the inner iterations and is counted in the view.

   Longer inner solves mean fewer outer iterations, whose double-precision work (product, projection
   against the kept directions, norms) costs several inner iterations, but single-precision CG gains
   little beyond a few decades of reduction. Under
   `KSPMPCG` an inner solve also stops at half the reduction the outer solve still needs and at the
   reduction single precision delivers (1e-4 at first, then raised or lowered by what the outer iterations
   get from inner solves that stopped there), and the inner search direction is continued from one application
   to the next (see `KSPMPCG`).

   The inner iterations run where the operator's vectors live. With CUDA vectors (`-vec_type cuda`,
   a GPU matrix type) the inner vectors are single-precision device arrays and every scalar of the
   recurrence (dot products, alpha, beta, the stop flags) stays in device memory: no inner iteration
   waits for the host. On one process the inner iterations are captured once into a CUDA graph and
   replayed at every application. On more, where the processes share a host and each has a GPU of its own,
   the inner dot products are summed and the halos exchanged from GPU to GPU through CUDA IPC (by default;
   through NCCL with `-pc_spcg_exchange nccl`), on the stream of the kernels, and the host, one iteration
   behind the GPU, only reads the stop flag; elsewhere, or with `-pc_spcg_exchange mpi`, each inner dot product
   is summed through the host for its `MPI_Allreduce()` (see `PetscJaggedExchange`). With host vectors the same loop runs on the host (the reference of the GPU loop).
   The per-application statistics of the device loop are read from the device only when asked for
   (`PCView()`, `PCSPCGGetInnerIterations()`, `-ksp_monitor_mpcg`).

   An inner `PCMG` or `PCGAMG` (`PCSPCGSetInnerPC()`, or the PC `KSPMPCG` wraps) whose levels are smoothed by
   `KSPCHEBYSHEV` or `KSPRICHARDSON` with `PCJACOBI` runs as a V-cycle in single precision inside the inner loop,
   on one or several processes, on the host or on the GPU (on one process in the CUDA graph; see `PCSPCGSetMG()`);
   otherwise it is applied in double precision.

   References:
+  * - A. Cevahir, A. Nukada and S. Matsuoka, Fast conjugate gradients with multiple GPUs, ICCS 2009, LNCS 5544, Springer
-  * - Y. Notay, Flexible conjugate gradients, SIAM J. Sci. Comput. 22(4), 1444-1460, 2000

.seealso: `KSPMPCG`, `MatJaggedSetSinglePrecision()`, `MatJaggedMultSingle()`, `PCSPCGGetInnerIterations()`, `PCSPCGSetInnerPC()`,
          `PCSPCGSetMaxIterations()`, `PCSPCGSetTolerance()`, `PCSPCGSetJacobi()`, `PCSPCGSetFormat()`, `PCSPCGSetStorage()`, `PCSPCGSetHalfMinNonzeros()`, `PCSPCGSetUseCUDAGraph()`, `PCSPCGSetExchange()`, `PCSPCGSetMG()`, `PCSPCGFormat`
M*/
PETSC_EXTERN PetscErrorCode PCCreate_SPCG(PC pc)
{
  PC_SPCG *s;

  PetscFunctionBegin;
  PetscCall(PetscNew(&s));
  s->max_it                = 50;
  s->graph                 = PETSC_TRUE;
  s->exchange              = PETSC_JAGGED_EXCHANGE_AUTO;
  s->usemg                 = PETSC_TRUE;
  s->mgdensemax            = PCSPCG_MG_DENSE_MAX;
  s->storage               = PCSPCG_STORAGE_AUTO;
  s->halfmin               = PCSPCG_HALF_MIN_NONZEROS;
  pc->data                 = s;
  pc->ops->setup           = PCSetUp_SPCG;
  pc->ops->apply           = PCApply_SPCG;
  pc->ops->reset           = PCReset_SPCG;
  pc->ops->destroy         = PCDestroy_SPCG;
  pc->ops->setfromoptions  = PCSetFromOptions_SPCG;
  pc->ops->view            = PCView_SPCG;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetInnerIterations_C", PCSPCGGetInnerIterations_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetInnerPC_C", PCSPCGSetInnerPC_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetMaxIterations_C", PCSPCGSetMaxIterations_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetMaxIterations_C", PCSPCGGetMaxIterations_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetTolerance_C", PCSPCGSetTolerance_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetTolerance_C", PCSPCGGetTolerance_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetJacobi_C", PCSPCGSetJacobi_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetJacobi_C", PCSPCGGetJacobi_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetFormat_C", PCSPCGSetFormat_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetFormat_C", PCSPCGGetFormat_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetStorage_C", PCSPCGSetStorage_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetStorage_C", PCSPCGGetStorage_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetHalfMinNonzeros_C", PCSPCGSetHalfMinNonzeros_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetHalfMinNonzeros_C", PCSPCGGetHalfMinNonzeros_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetUseCUDAGraph_C", PCSPCGSetUseCUDAGraph_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetUseCUDAGraph_C", PCSPCGGetUseCUDAGraph_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetExchange_C", PCSPCGSetExchange_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetExchange_C", PCSPCGGetExchange_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetMG_C", PCSPCGSetMG_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetMG_C", PCSPCGGetMG_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetMGDenseMax_C", PCSPCGSetMGDenseMax_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGGetMGDenseMax_C", PCSPCGGetMGDenseMax_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetFromOptionsInner_C", PCSPCGSetFromOptionsInner_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGSetOuterState_C", PCSPCGSetOuterState_SPCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCSPCGFallBack_C", PCSPCGFallBack_SPCG));
  PetscCall(PetscJaggedCiteJDSCG());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGSetInnerPC - Sets the preconditioner of the inner (single-precision) CG of a `PCSPCG`

  Logically Collective

  Input Parameters:
+ pc    - the `PCSPCG` preconditioner
- inner - the inner preconditioner, on the same operators (`NULL`: none, or `-pc_spcg_jacobi`)

  Level: advanced

  Notes:
  `PCNONE` and `PCJACOBI` (the plain inverse diagonal) run in single precision inside the inner loop,
  on the GPU when the operator's vectors are CUDA vectors. A `PCMG` or `PCGAMG` with Jacobi-preconditioned
  Chebyshev or Richardson smoothers runs as a single-precision image of its hierarchy and V-cycle (on one
  or several processes, on the host or the GPU; see `PCSPCGSetMG()`). Any other preconditioner is applied as it
  is, in double precision: the inner residual is converted to a double-precision vector, the
  preconditioner applied, and its output converted back to single precision. `PCView()` says which.
  `KSPMPCG` calls this with the KSP's own preconditioner when it is not a `PCSPCG`. The inner
  preconditioner should be symmetric positive definite; `inner` is referenced, and set up by
  `PCSetUp()` of `pc`.

.seealso: `PCSPCG`, `KSPMPCG`, `PCSPCGSetMG()`
@*/
PetscErrorCode PCSPCGSetInnerPC(PC pc, PC inner)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  if (inner) PetscValidHeaderSpecific(inner, PC_CLASSID, 2);
  PetscTryMethod(pc, "PCSPCGSetInnerPC_C", (PC, PC), (pc, inner));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGGetInnerIterations - Gets how often a `PCSPCG` was applied since its set-up and the inner
  iterations it ran in all

  Not Collective

  Input Parameter:
. pc - the `PCSPCG` preconditioner

  Output Parameters:
+ napply - applications (may be `NULL`)
- ninner - inner iterations (may be `NULL`)

  Level: intermediate

.seealso: `PCSPCG`, `KSPMPCG`
@*/
PetscErrorCode PCSPCGGetInnerIterations(PC pc, PetscInt *napply, PetscInt *ninner)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCSPCGGetInnerIterations_C", (PC, PetscInt *, PetscInt *), (pc, napply, ninner));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGSetMaxIterations - Sets the largest number of inner (single-precision) CG iterations of one `PCSPCG` application

  Logically Collective

  Input Parameters:
+ pc     - the `PCSPCG` preconditioner
- max_it - the number of iterations, nonnegative (default 50); 0 applies only the inner preconditioner

  Options Database Key:
. -pc_spcg_max_it <max_it> - the number of iterations

  Level: intermediate

  Note:
  A change after `PCSetUp()` sets the preconditioner up again at the next `PCSetUp()` (the GPU inner
  loop is allocated, and captured as a CUDA graph, for this number of iterations).

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGGetMaxIterations()`, `PCSPCGSetTolerance()`, `KSPMPCG`
@*/
PetscErrorCode PCSPCGSetMaxIterations(PC pc, PetscInt max_it)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, max_it, 2);
  PetscTryMethod(pc, "PCSPCGSetMaxIterations_C", (PC, PetscInt), (pc, max_it));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGGetMaxIterations - Gets the largest number of inner CG iterations of one `PCSPCG` application

  Not Collective

  Input Parameter:
. pc - the `PCSPCG` preconditioner

  Output Parameter:
. max_it - the number of iterations

  Level: intermediate

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGSetMaxIterations()`
@*/
PetscErrorCode PCSPCGGetMaxIterations(PC pc, PetscInt *max_it)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(max_it, 2);
  PetscUseMethod(pc, "PCSPCGGetMaxIterations_C", (PC, PetscInt *), (pc, max_it));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGSetTolerance - Sets the relative residual reduction at which the inner CG of `PCSPCG` stops before its largest number of iterations

  Logically Collective

  Input Parameters:
+ pc   - the `PCSPCG` preconditioner
- rtol - the relative reduction, in [0, 1) (default 0: always run all iterations)

  Options Database Key:
. -pc_spcg_rtol <rtol> - the relative reduction

  Level: intermediate

  Note:
  Under `KSPMPCG` an inner solve also stops once it has reached half the reduction the outer solve
  still needs, or the reduction single precision delivers (see `KSPMPCG`); the largest of the tolerances applies.

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGGetTolerance()`, `PCSPCGSetMaxIterations()`, `KSPMPCG`
@*/
PetscErrorCode PCSPCGSetTolerance(PC pc, PetscReal rtol)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveReal(pc, rtol, 2);
  PetscTryMethod(pc, "PCSPCGSetTolerance_C", (PC, PetscReal), (pc, rtol));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGGetTolerance - Gets the relative residual reduction at which the inner CG of `PCSPCG` stops early

  Not Collective

  Input Parameter:
. pc - the `PCSPCG` preconditioner

  Output Parameter:
. rtol - the relative reduction (0: never stops early)

  Level: intermediate

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGSetTolerance()`
@*/
PetscErrorCode PCSPCGGetTolerance(PC pc, PetscReal *rtol)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(rtol, 2);
  PetscUseMethod(pc, "PCSPCGGetTolerance_C", (PC, PetscReal *), (pc, rtol));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGSetJacobi - Sets whether the inner CG of `PCSPCG` is preconditioned by Jacobi (the inverse diagonal, in single precision)

  Logically Collective

  Input Parameters:
+ pc  - the `PCSPCG` preconditioner
- flg - `PETSC_TRUE` for Jacobi, `PETSC_FALSE` (default) for none

  Options Database Key:
. -pc_spcg_jacobi <bool> - Jacobi inside the inner CG

  Level: intermediate

  Notes:
  An inner preconditioner given with `PCSPCGSetInnerPC()` takes precedence. The operator must not have
  zero diagonal entries.

  A change after `PCSetUp()` sets the preconditioner up again at the next `PCSetUp()`.

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGGetJacobi()`, `PCSPCGSetInnerPC()`, `PCJACOBI`
@*/
PetscErrorCode PCSPCGSetJacobi(PC pc, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveBool(pc, flg, 2);
  PetscTryMethod(pc, "PCSPCGSetJacobi_C", (PC, PetscBool), (pc, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGGetJacobi - Gets whether the inner CG of `PCSPCG` is preconditioned by Jacobi

  Not Collective

  Input Parameter:
. pc - the `PCSPCG` preconditioner

  Output Parameter:
. flg - whether Jacobi was requested

  Level: intermediate

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGSetJacobi()`
@*/
PetscErrorCode PCSPCGGetJacobi(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(flg, 2);
  PetscUseMethod(pc, "PCSPCGGetJacobi_C", (PC, PetscBool *), (pc, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGSetFormat - Sets the format of the single-precision copy `PCSPCG` makes of an AIJ operator (of its diagonal block)

  Logically Collective

  Input Parameters:
+ pc     - the `PCSPCG` preconditioner
- format - `PCSPCG_FORMAT_AUTO` (default), `PCSPCG_FORMAT_CSR`, `PCSPCG_FORMAT_DIA` or `PCSPCG_FORMAT_PJDS`

  Options Database Key:
. -pc_spcg_format <auto,csr,dia,pjds> - the format

  Level: advanced

  Notes:
  Applies to `MATSEQAIJ`, `MATMPIAIJ`, `MATSEQAIJCUSPARSE` and `MATMPIAIJCUSPARSE` operators. The jagged types
  on the GPU take the DIA copy with `PCSPCG_FORMAT_AUTO` where it pays and with `PCSPCG_FORMAT_DIA`; otherwise
  (`PCSPCG_FORMAT_PJDS`, `PCSPCG_FORMAT_CSR`) a copy of their own where half storage, or auto storage with a format other
  than CSR, applies (real scalars, `PCSPCGSetStorage()`), else their own single-precision copy. `PCSPCG_FORMAT_DIA`
  fails at set-up when the entries lie on more than 32 diagonals.

  A change after `PCSetUp()` sets the preconditioner up again at the next `PCSetUp()`.

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGFormat`, `PCSPCGGetFormat()`
@*/
PetscErrorCode PCSPCGSetFormat(PC pc, PCSPCGFormat format)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, format, 2);
  PetscTryMethod(pc, "PCSPCGSetFormat_C", (PC, PCSPCGFormat), (pc, format));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGGetFormat - Gets the requested format of the single-precision copy `PCSPCG` makes of an AIJ operator

  Not Collective

  Input Parameter:
. pc - the `PCSPCG` preconditioner

  Output Parameter:
. format - the format

  Level: advanced

  Note:
  `PCView()` shows the format the set-up chose for `PCSPCG_FORMAT_AUTO`.

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGFormat`, `PCSPCGSetFormat()`
@*/
PetscErrorCode PCSPCGGetFormat(PC pc, PCSPCGFormat *format)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(format, 2);
  PetscUseMethod(pc, "PCSPCGGetFormat_C", (PC, PCSPCGFormat *), (pc, format));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGSetStorage - Sets the precision in which `PCSPCG` stores the values of its pJDS copies: of the operator and of each level
  of its single-precision V-cycle

  Logically Collective

  Input Parameters:
+ pc      - the `PCSPCG` preconditioner
- storage - `PCSPCG_STORAGE_AUTO` (default), `PCSPCG_STORAGE_SINGLE` or `PCSPCG_STORAGE_HALF`

  Options Database Key:
. -pc_spcg_storage <auto,single,half> - the storage

  Level: advanced

  Notes:
  Half storage keeps D^{-1/2} A D^{-1/2} (D = |diag(A)|, 1 where a diagonal entry is zero) in IEEE half precision, 2 bytes a
  value instead of 4, and multiplies by D^{1/2} S D^{1/2} in single precision: the operator's copy moves 2.44 bytes a nonzero
  instead of 4.44 with 3 x 3 blocks. A scalar pJDS copy without long rows (rows much longer than the mean, which small
  matrices of long rows have) packs each half value with its column's distance from the row's previous one, 16 bits each,
  into one 32-bit word, a distance over 65535 taking an escape word: 4 bytes a nonzero and the escapes instead of 8 (6
  unpacked, with 4-byte columns); the view gives the escapes and the bytes a nonzero. Entries below half's subnormal range are stored as
  zero and counted in the view; an entry beyond its range (65504) after the scaling is an error at set-up. The outer
  iteration computes true residuals in double precision, so the storage only changes how far each inner solve gets.
  A jagged operator (`MATPJDSCUDA`, `MATJDSCUDA`) then gets a copy of its own, made on the GPU from the CSR scattered back
  from its jagged copy there, not its own single-precision copy.
  DIA and CSR copies and the off-diagonal blocks of MPI operators stay in single precision. Complex builds keep single
  precision (the view says so).

  Auto storage stores half where it moves fewer bytes at the same speed and is safe, single precision elsewhere, copy by copy
  (the operator's, each level's of the V-cycle, each process's diagonal block): half for a pJDS copy of at least 2 M nonzeros
  (`PCSPCGSetHalfMinNonzeros()`: a smaller product is bound by its kernel launches, not its bytes) kept in dense blocks
  (an operator of block size 2 or more, such as elasticity's) or packed (a scalar copy without long rows: a scalar pJDS
  product with 4-byte columns is bounded by its gathers of x, not its values, and is no faster in half unpacked; a jagged
  operator's copy is made as with half, and where auto stores it single it is that copy, not the type's own), where every diagonal entry is positive, every entry of D^{-1/2} A D^{-1/2} is at
  most 1 in magnitude (as for a symmetric positive definite A) and no row loses more than half's unit roundoff (2^-11) of its
  diagonal to underflow; the view says, for each copy kept in single precision, why. On one process with the CUDA graph
  (`PCSPCGSetUseCUDAGraph()`) auto keeps the levels of the V-cycle single: a graph with half-precision levels was followed by
  a never-ending sparse matrix-matrix product of cuSPARSE in a later `PCGAMG` set-up, and half forced runs such a V-cycle
  without the graph. During a solve under `KSPMPCG`, where
  half copies are in use and an inner solve breaks down (p'Ap <= 0), or the outer iteration would end on an indefinite
  preconditioner or stagnation, every copy is made again in single precision and the solve goes on from its current
  iterate: the view says so and why, and the copies stay single until the operator's nonzero pattern or the storage
  changes. The breakdown check reads the inner statistics from the GPU once an application. (An outer residual that falls
  slower than the inner solves promised is no sign: the outer residual of single and half storage alike rises now and then
  on ill-conditioned problems, measured on the checker problem of `mpcgtest`.)

  A change after `PCSetUp()` sets the preconditioner up again at the next `PCSetUp()`.

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGStorage`, `PCSPCGGetStorage()`, `PCSPCGSetHalfMinNonzeros()`, `PCSPCGSetFormat()`
@*/
PetscErrorCode PCSPCGSetStorage(PC pc, PCSPCGStorage storage)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, storage, 2);
  PetscTryMethod(pc, "PCSPCGSetStorage_C", (PC, PCSPCGStorage), (pc, storage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGGetStorage - Gets the precision asked for the values of the pJDS copies `PCSPCG` makes

  Not Collective

  Input Parameter:
. pc - the `PCSPCG` preconditioner

  Output Parameter:
. storage - the storage

  Level: advanced

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGStorage`, `PCSPCGSetStorage()`
@*/
PetscErrorCode PCSPCGGetStorage(PC pc, PCSPCGStorage *storage)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(storage, 2);
  PetscUseMethod(pc, "PCSPCGGetStorage_C", (PC, PCSPCGStorage *), (pc, storage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGSetHalfMinNonzeros - Sets the fewest nonzeros of a pJDS copy (the operator's diagonal block on a process, a level's of the
  V-cycle image) that auto storage (`PCSPCGSetStorage()`) stores in half precision

  Logically Collective

  Input Parameters:
+ pc - the `PCSPCG` preconditioner
- n  - the fewest nonzeros (default 2000000); 0: no such limit

  Options Database Key:
. -pc_spcg_half_min_nonzeros <n> - the fewest nonzeros

  Level: advanced

  Notes:
  A product by a copy of fewer nonzeros is bound by the launch of its kernels, not by the bytes it reads: half storage saves
  2 bytes a nonzero but adds a scaling pass around each product, so auto stores such a copy in single precision (the view
  gives the count as the reason). Half forced (`PCSPCG_STORAGE_HALF`) ignores this limit.

  A change after `PCSetUp()` sets the preconditioner up again at the next `PCSetUp()`.

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGGetHalfMinNonzeros()`, `PCSPCGSetStorage()`, `PCSPCGStorage`
@*/
PetscErrorCode PCSPCGSetHalfMinNonzeros(PC pc, PetscInt n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, n, 2);
  PetscTryMethod(pc, "PCSPCGSetHalfMinNonzeros_C", (PC, PetscInt), (pc, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGGetHalfMinNonzeros - Gets the fewest nonzeros of a pJDS copy that auto storage stores in half precision

  Not Collective

  Input Parameter:
. pc - the `PCSPCG` preconditioner

  Output Parameter:
. n - the fewest nonzeros

  Level: advanced

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGSetHalfMinNonzeros()`, `PCSPCGSetStorage()`
@*/
PetscErrorCode PCSPCGGetHalfMinNonzeros(PC pc, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(n, 2);
  PetscUseMethod(pc, "PCSPCGGetHalfMinNonzeros_C", (PC, PetscInt *), (pc, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGSetUseCUDAGraph - Sets whether the GPU inner iterations of `PCSPCG` on one process are captured once into a CUDA graph and replayed

  Logically Collective

  Input Parameters:
+ pc  - the `PCSPCG` preconditioner
- flg - `PETSC_TRUE` (default) to replay a CUDA graph, `PETSC_FALSE` to launch the kernels of every iteration

  Options Database Key:
. -pc_spcg_cuda_graph <bool> - use a CUDA graph

  Level: advanced

  Notes:
  Only the inner iterations on the GPU of a single process without an inner preconditioner applied in
  double precision are captured (with the V-cycle of an inner `PCMG`, unless its coarse solve is in double
  precision); otherwise the setting has no effect. A V-cycle with half-precision levels (`PCSPCGSetStorage()`) is not
  captured either: after such a graph had run, cuSPARSE's sparse matrix-matrix product in a later `PCGAMG` set-up of the
  same process was seen never to end (CUDA 13.0).

  A change after `PCSetUp()` sets the preconditioner up again at the next `PCSetUp()`.

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGGetUseCUDAGraph()`
@*/
PetscErrorCode PCSPCGSetUseCUDAGraph(PC pc, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveBool(pc, flg, 2);
  PetscTryMethod(pc, "PCSPCGSetUseCUDAGraph_C", (PC, PetscBool), (pc, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGGetUseCUDAGraph - Gets whether the GPU inner iterations of `PCSPCG` on one process are replayed as a CUDA graph

  Not Collective

  Input Parameter:
. pc - the `PCSPCG` preconditioner

  Output Parameter:
. flg - whether a CUDA graph is requested

  Level: advanced

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGSetUseCUDAGraph()`
@*/
PetscErrorCode PCSPCGGetUseCUDAGraph(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(flg, 2);
  PetscUseMethod(pc, "PCSPCGGetUseCUDAGraph_C", (PC, PetscBool *), (pc, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGSetExchange - Sets the path of the inner halo exchanges and dot products of `PCSPCG` on several processes on GPUs

  Logically Collective

  Input Parameters:
+ pc       - the `PCSPCG` preconditioner
- exchange - `PETSC_JAGGED_EXCHANGE_AUTO` (default: halos through CUDA IPC where the processes share a host, sums too where each process also has a GPU of its own, else through MPI), `PETSC_JAGGED_EXCHANGE_MPI`: through the host, `PETSC_JAGGED_EXCHANGE_NCCL`: halos and sums from GPU to GPU through NCCL on the stream of the inner kernels, or `PETSC_JAGGED_EXCHANGE_IPC`: as auto

  Options Database Key:
. -pc_spcg_exchange <auto,mpi,nccl,ipc> - the path

  Level: advanced

  Notes:
  With the sums on the GPU (through CUDA IPC or NCCL) no inner iteration waits for the host: the host follows one
  iteration behind the GPU and reads only the stop flag. Through CUDA IPC a sum is a kernel of one thread that stores
  this process's values and a sequence number into every other process's memory and waits for theirs; it runs where
  the processes share a host, each has a GPU of its own (two processes on one GPU would wait for each other's time
  slices) and each GPU can store into the others' memory; a process whose values do not come within a minute makes the
  wait end in an error. Asking for NCCL starts making its communicator in the background (a fraction of a second on
  two H200s). An inner preconditioner applied in double precision makes the host follow every
  iteration: its sums then go through MPI. Where the path asked for cannot run (see `PetscJaggedExchange`) the MPI path runs; `PCView()`
  names the path taken and why. A `MATMPIJDSCUDA` or `MATMPIPJDSCUDA` operator exchanges its halos by its
  own setting, `MatJaggedSetExchange()`. A change after `PCSetUp()` sets the preconditioner up again at the next `PCSetUp()`.

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGGetExchange()`, `PetscJaggedExchange`, `MatJaggedSetExchange()`
@*/
PetscErrorCode PCSPCGSetExchange(PC pc, PetscJaggedExchange exchange)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(pc, exchange, 2);
  PetscCheck(exchange >= PETSC_JAGGED_EXCHANGE_AUTO && exchange <= PETSC_JAGGED_EXCHANGE_IPC, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Unknown exchange %d", (int)exchange);
  PetscTryMethod(pc, "PCSPCGSetExchange_C", (PC, PetscJaggedExchange), (pc, exchange));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGGetExchange - Gets the path asked for the inner halo exchanges and dot products of `PCSPCG` on several processes

  Not Collective

  Input Parameter:
. pc - the `PCSPCG` preconditioner

  Output Parameter:
. exchange - the path asked for (the path taken is named by `PCView()`)

  Level: advanced

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGSetExchange()`
@*/
PetscErrorCode PCSPCGGetExchange(PC pc, PetscJaggedExchange *exchange)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(exchange, 2);
  PetscUseMethod(pc, "PCSPCGGetExchange_C", (PC, PetscJaggedExchange *), (pc, exchange));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGSetMG - Sets whether an inner `PCMG` (or `PCGAMG`) of `PCSPCG` runs as a V-cycle in single precision inside the inner CG

  Logically Collective

  Input Parameters:
+ pc  - the `PCSPCG` preconditioner
- flg - `PETSC_TRUE` (default) for the single-precision V-cycle where supported, `PETSC_FALSE` to apply the `PCMG` in double precision

  Options Database Key:
. -pc_spcg_mg <bool> - the single-precision V-cycle

  Level: intermediate

  Notes:
  After the double-precision set-up of the inner `PCMG` (`PCSPCGSetInnerPC()`, or the PC that `KSPMPCG` wraps),
  `PCSPCG` makes a single-precision image of its hierarchy: each level's operator in the format of the
  operator's own copy (DIA where it pays, else pJDS; the inner CG's copy where it is the same operator), the
  interpolation in CSR, the restriction an explicit transposed copy of it in CSR (or `PCMG`'s own restriction),
  each smoother with the parameters of the double set-up, and the coarse solve: where `PCMG` solves the coarse
  problem directly (`KSPPREONLY` with `PCLU` or `PCCHOLESKY`, also as the single block of `PCBJACOBI` or in
  `PCREDUNDANT`, as `PCGAMG` does) and it has at most `PCSPCGSetMGDenseMax()` rows, the coarse operator's dense
  inverse, made in double precision (Gauss-Jordan elimination with partial pivoting, on the GPU where the image is)
  and applied in single precision as one dense product (on several processes each keeps its rows of the inverse and
  the coarse right-hand side is gathered); otherwise `PCMG`'s own coarse solve, applied in double precision. On one
  process the restriction is made by transposing the interpolation's single-precision copy where it lies. The
  events `PCSPCGMGOperator`, `PCSPCGMGTransfer`, `PCSPCGMGSmoother` and `PCSPCGMGCoarse` of `-log_view` split the
  image's set-up (`PCSPCGMGSetUp`). The V-cycle then runs in
  single precision at each inner iteration, with the same steps as `PCMG`'s. On several processes each level's
  operator, interpolation and restriction is kept as the inner CG's copy of the operator is: the diagonal block,
  the off-diagonal block in CSR, and the ghost values exchanged in single precision during the diagonal block's
  product; the V-cycle has no dot product, so it communicates through these exchanges and the coarse solve only.
  With CUDA vectors the image is made in device memory (from the device arrays of `MATSEQAIJCUSPARSE` and
  `MATMPIAIJCUSPARSE` levels; host matrices are copied up in CSR) and the V-cycle runs on the GPU, on the stream of
  the inner loop, inside its CUDA graph; but where the coarse solve is `PCMG`'s own, in double precision, its
  right-hand side and solution cross the host at each V-cycle and the inner loop is not captured (nor on several
  processes).

  Supported: the multiplicative V-cycle (one cycle per application), on every level but the coarsest smoothers
  `KSPCHEBYSHEV` of the first kind (with the eigenvalue bounds the double set-up estimated; read for PETSc 3.26)
  or `KSPRICHARDSON` with a fixed damping, each preconditioned by `PCJACOBI` (any variant: its inverse diagonal
  is taken from the double one), without norms, on AIJ operators without a null space, with AIJ transfers.
  Anything else (other smoothers or level preconditioners, W-cycles, additive,
  full or Kaskade multigrid) keeps the `PCMG` in double
  precision; `PCView()` and `-info` say why. `PCView()` shows the levels, their sizes, storage and the bytes of
  the image.

  A change after `PCSetUp()` sets the preconditioner up again at the next `PCSetUp()`.

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGGetMG()`, `PCSPCGSetMGDenseMax()`, `PCSPCGSetInnerPC()`, `KSPMPCG`, `PCMG`, `PCGAMG`
@*/
PetscErrorCode PCSPCGSetMG(PC pc, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveBool(pc, flg, 2);
  PetscTryMethod(pc, "PCSPCGSetMG_C", (PC, PetscBool), (pc, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGGetMG - Gets whether an inner `PCMG` (or `PCGAMG`) of `PCSPCG` is to run as a V-cycle in single precision

  Not Collective

  Input Parameter:
. pc - the `PCSPCG` preconditioner

  Output Parameter:
. flg - whether the single-precision V-cycle is requested (`PCView()` says whether it runs, and why not)

  Level: intermediate

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGSetMG()`
@*/
PetscErrorCode PCSPCGGetMG(PC pc, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(flg, 2);
  PetscUseMethod(pc, "PCSPCGGetMG_C", (PC, PetscBool *), (pc, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGSetMGDenseMax - Sets the largest coarse problem of the single-precision V-cycle of `PCSPCG` inverted densely

  Logically Collective

  Input Parameters:
+ pc - the `PCSPCG` preconditioner
- n  - the largest number of coarse rows, nonnegative (default 2000)

  Options Database Key:
. -pc_spcg_mg_dense_max <n> - the largest dense coarse problem

  Level: advanced

  Notes:
  Where `PCMG` solves its coarse problem directly and it has at most n rows, the V-cycle's coarse solve is a product
  with the coarse operator's dense inverse, made in double precision (Gauss-Jordan with partial pivoting) and kept in single
  precision (n^2 entries); otherwise `PCMG`'s coarse solve is applied in double
  precision (the coarse right-hand side and solution converted). `PCView()` says which.

  A change after `PCSetUp()` sets the preconditioner up again at the next `PCSetUp()`.

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGSetMG()`, `PCSPCGGetMGDenseMax()`
@*/
PetscErrorCode PCSPCGSetMGDenseMax(PC pc, PetscInt n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, n, 2);
  PetscTryMethod(pc, "PCSPCGSetMGDenseMax_C", (PC, PetscInt), (pc, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCSPCGGetMGDenseMax - Gets the largest coarse problem of the single-precision V-cycle of `PCSPCG` inverted densely

  Not Collective

  Input Parameter:
. pc - the `PCSPCG` preconditioner

  Output Parameter:
. n - the largest number of coarse rows

  Level: advanced

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGSetMGDenseMax()`
@*/
PetscErrorCode PCSPCGGetMGDenseMax(PC pc, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(n, 2);
  PetscUseMethod(pc, "PCSPCGGetMGDenseMax_C", (PC, PetscInt *), (pc, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}
