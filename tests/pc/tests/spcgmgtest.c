static char help[] = "Checks PCSPCG's single-precision V-cycle (the image of an inner PCMG or PCGAMG) against PCMG's double V-cycle.\n\
A 7-point Laplacian on an n^3 DMDA (Dirichlet), a PCMG on it set up in double (options without prefix: -pc_type mg\n\
with the DMDA's interpolations and Galerkin coarse operators, or gamg on the assembled matrix), and a PCSPCG (prefix\n\
spcg_) whose inner PC it is, with no inner iteration (-spcg_pc_spcg_max_it 0): PCSPCG then applies the V-cycle alone.\n\
  -n <17>       grid points a direction\n\
  -vectors <3>  random vectors compared\n\
  -tol <1e-4>   bound on ||V_single r - V_double r|| / ||V_double r||\n\
  -rho <0.5>    bound on the A-norm of the error one single-precision V-cycle leaves of a random solution, relative\n\
                (not checked with -scale: A is then not symmetric)\n\
  -perturb      also change the finest smoother's eigenvalue bounds in the double PCMG: the old image must then\n\
                differ from it by more than 10 tol, and a new image match it again (checks the bounds are read)\n\
  -refresh     then change the operator's values (not its pattern), set both PCs up again and compare again: the image's\n\
                values are refreshed (its view says so), not the image made anew\n\
  -expect_double  the V-cycle is not supported: the PCMG stays in double precision, applied to the residual rounded to\n\
                single precision (checks the two agree to 1e-6 instead)\n\
  -twin         also set the same PCMG and PCSPCG up on a host copy (AIJ matrices, standard vectors) and check the\n\
                V-cycle against that host twin (with CUDA types: the device V-cycle against the host one)\n\
  -twin_tol <1e-5> bound on ||V r - V_host r|| / ||V_host r|| (single-precision rounding, summed in other orders)\n\
  -spcg_view    view the PCSPCG\n\
The DMDA takes its options (-dm_mat_type aijcusparse -dm_vec_type cuda: the inner loop and the V-cycle on the GPU).\n\n";

#include <petscjagged.h>
#include <petscdmda.h>

/* The 7-point Laplacian on the n^3 DMDA da, Dirichlet conditions outside the grid, the rows of grid plane k scaled by scale^(k / (n - 1)) (scale 1: symmetric; large: the coarse operator's entries below the diagonal outgrow the diagonal ones, and its inverse pivots) */
static PetscErrorCode Laplacian7(DM da, PetscReal scale, Mat *A)
{
  PetscInt xs, ys, zs, xm, ym, zm, n;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(da, NULL, &n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMCreateMatrix(da, A));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        MatStencil  row = {.k = k, .j = j, .i = i}, col[7];
        PetscScalar v[7];
        PetscInt    nc = 0;
        PetscReal   d  = PetscPowReal(scale, (PetscReal)k / (n - 1)); /* the row's scale */

        col[nc] = row;
        v[nc++] = 6.0;
        if (i > 0) col[nc] = (MatStencil){.k = k, .j = j, .i = i - 1}, v[nc++] = -1.0;
        if (i < n - 1) col[nc] = (MatStencil){.k = k, .j = j, .i = i + 1}, v[nc++] = -1.0;
        if (j > 0) col[nc] = (MatStencil){.k = k, .j = j - 1, .i = i}, v[nc++] = -1.0;
        if (j < n - 1) col[nc] = (MatStencil){.k = k, .j = j + 1, .i = i}, v[nc++] = -1.0;
        if (k > 0) col[nc] = (MatStencil){.k = k - 1, .j = j, .i = i}, v[nc++] = -1.0;
        if (k < n - 1) col[nc] = (MatStencil){.k = k + 1, .j = j, .i = i}, v[nc++] = -1.0;
        for (PetscInt c = 0; c < nc; c++) v[c] *= d;
        PetscCall(MatSetValuesStencil(*A, 1, &row, nc, col, v, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The PC of the given type on A set up in double: mg with the DMDA's interpolations and Galerkin coarse operators, or gamg */
static PetscErrorCode CreateMG(DM da, Mat A, const char type[], PC *mg)
{
  PetscBool ismg;

  PetscFunctionBeginUser;
  PetscCall(PCCreate(PETSC_COMM_WORLD, mg));
  PetscCall(PCSetOperators(*mg, A, A));
  PetscCall(PCSetType(*mg, type));
  PetscCall(PetscObjectTypeCompare((PetscObject)*mg, PCMG, &ismg));
  if (ismg) {
    PetscCall(PCSetDM(*mg, da));
    PetscCall(PCMGSetGalerkin(*mg, PC_MG_GALERKIN_BOTH));
  }
  PetscCall(PCSetFromOptions(*mg));
  PetscCall(PCSetUp(*mg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The PCSPCG (prefix spcg_) whose inner PC is mg, set up */
static PetscErrorCode CreateSPCG(Mat A, PC mg, PC *spcg)
{
  PetscFunctionBeginUser;
  PetscCall(PCCreate(PETSC_COMM_WORLD, spcg));
  PetscCall(PCSetType(*spcg, PCSPCG));
  PetscCall(PCSetOperators(*spcg, A, A));
  PetscCall(PCSetOptionsPrefix(*spcg, "spcg_"));
  PetscCall(PCSetFromOptions(*spcg));
  PetscCall(PCSPCGSetInnerPC(*spcg, mg));
  PetscCall(PCSetUp(*spcg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||z1 - z2|| / ||z2|| */
static PetscErrorCode RelativeDifference(Vec z1, Vec z2, PetscReal *d)
{
  Vec       w;
  PetscReal n2;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(z1, &w));
  PetscCall(VecWAXPY(w, -1.0, z2, z1));
  PetscCall(VecNorm(w, NORM_2, d));
  PetscCall(VecNorm(z2, NORM_2, &n2));
  PetscCheck(n2 > 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "The double V-cycle gave 0");
  *d /= n2;
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The worst relative difference of spcg and mg over nv random vectors */
static PetscErrorCode Compare(PC spcg, PC mg, PetscInt nv, PetscRandom rnd, PetscReal *worst)
{
  Vec r, zs, zd;
  Mat A;

  PetscFunctionBeginUser;
  PetscCall(PCGetOperators(mg, &A, NULL));
  PetscCall(MatCreateVecs(A, &r, &zs));
  PetscCall(VecDuplicate(zs, &zd));
  *worst = 0;
  for (PetscInt v = 0; v < nv; v++) {
    PetscReal d;

    PetscCall(VecSetRandom(r, rnd));
    PetscCall(VecScale(r, (PetscScalar)PetscPowReal(10.0, (PetscReal)(3 * v - 3)))); /* PCSPCG scales r to unit norm inside */
    PetscCall(PCApply(spcg, r, zs));
    PetscCall(PCApply(mg, r, zd));
    PetscCall(RelativeDifference(zs, zd, &d));
    *worst = PetscMax(*worst, d);
  }
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&zs));
  PetscCall(VecDestroy(&zd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* to = from, vectors of the same layout and perhaps of other types (CUDA and standard), through the host arrays */
static PetscErrorCode CopyValues(Vec from, Vec to)
{
  const PetscScalar *f;
  PetscScalar       *t;
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(from, &n));
  PetscCall(VecGetArrayRead(from, &f));
  PetscCall(VecGetArrayWrite(to, &t));
  PetscCall(PetscArraycpy(t, f, n));
  PetscCall(VecRestoreArrayWrite(to, &t));
  PetscCall(VecRestoreArrayRead(from, &f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The worst relative difference of spcg (on A, perhaps on the GPU) and its twin spcgh (on Ah, a host copy of A) over
  nv random vectors, the same for both
*/
static PetscErrorCode CompareTwin(PC spcg, PC spcgh, PetscInt nv, PetscRandom rnd, PetscReal *worst)
{
  Vec r, z, rh, zh, zd;
  Mat A, Ah;

  PetscFunctionBeginUser;
  PetscCall(PCGetOperators(spcg, &A, NULL));
  PetscCall(PCGetOperators(spcgh, &Ah, NULL));
  PetscCall(MatCreateVecs(A, &r, &z));
  PetscCall(MatCreateVecs(Ah, &rh, &zh));
  PetscCall(VecDuplicate(zh, &zd));
  *worst = 0;
  for (PetscInt v = 0; v < nv; v++) {
    PetscReal d;

    PetscCall(VecSetRandom(rh, rnd));
    PetscCall(CopyValues(rh, r));
    PetscCall(PCApply(spcg, r, z));
    PetscCall(PCApply(spcgh, rh, zh));
    PetscCall(CopyValues(z, zd));
    PetscCall(RelativeDifference(zd, zh, &d));
    *worst = PetscMax(*worst, d);
  }
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&rh));
  PetscCall(VecDestroy(&zh));
  PetscCall(VecDestroy(&zd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||x - V A x||_A / ||x||_A for a random x: the error one single-precision V-cycle leaves */
static PetscErrorCode ErrorReduction(PC spcg, Mat A, PetscRandom rnd, PetscReal *rho)
{
  Vec         x, b, e, Ae;
  PetscScalar ee, xx;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &e));
  PetscCall(VecDuplicate(x, &Ae));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(MatMult(A, x, b));
  PetscCall(PCApply(spcg, b, e));
  PetscCall(VecAYPX(e, -1.0, x));
  PetscCall(MatMult(A, e, Ae));
  PetscCall(VecDot(Ae, e, &ee));
  PetscCall(VecDot(b, x, &xx));
  *rho = PetscSqrtReal(PetscRealPart(ee) / PetscRealPart(xx));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&e));
  PetscCall(VecDestroy(&Ae));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt    n = 17, nv = 3;
  PetscReal   tol = 1e-4, rhomax = 0.5, twintol = 1e-5, scale = 1, worst, rho;
  PetscBool   perturb = PETSC_FALSE, expectdouble = PETSC_FALSE, refresh = PETSC_FALSE, twin = PETSC_FALSE;
  char        type[64] = PCMG;
  DM          da;
  Mat         A;
  PC          mg, spcg;
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscJaggedInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-vectors", &nv, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-rho", &rhomax, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-perturb", &perturb, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-expect_double", &expectdouble, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-refresh", &refresh, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-twin", &twin, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-twin_tol", &twintol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-scale", &scale, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_type", type, sizeof(type), NULL));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetFromOptions(rnd));
  PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(Laplacian7(da, scale, &A));
  PetscCall(CreateMG(da, A, type, &mg));
  PetscCall(CreateSPCG(A, mg, &spcg));
  PetscCall(PCViewFromOptions(spcg, NULL, "-view"));

  PetscCall(Compare(spcg, mg, nv, rnd, &worst));
  if (expectdouble) {
    PetscCheck(worst < 1e-6, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "PCMG applied in double inside PCSPCG (to the rounded residual) differs from itself by %g", (double)worst);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "V-cycle in double, as PCMG: ok\n"));
  } else {
    PetscCheck(worst < tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "V-cycle single vs double: relative difference %g, above %g", (double)worst, (double)tol);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "V-cycle single vs double: ok\n"));
    PetscCall(PetscInfo(NULL, "worst relative difference %g\n", (double)worst));
  }
  if (scale == 1) { /* the A-norm needs a symmetric A */
    PetscCall(ErrorReduction(spcg, A, rnd, &rho));
    PetscCheck(rho < rhomax, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "One V-cycle left %g of the error in the A-norm, above %g", (double)rho, (double)rhomax);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "V-cycle reduces the error: ok\n"));
    PetscCall(PetscInfo(NULL, "error reduction %g\n", (double)rho));
  } else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "V-cycle reduces the error: not checked (-scale: A not symmetric)\n"));

  if (twin) { /* the same on a host copy: DMDA, operator, PCMG and PCSPCG with host types */
    DM  dah;
    Mat Ah;
    PC  mgh, spcgh;

    PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &dah));
    PetscCall(DMSetMatType(dah, MATAIJ));
    PetscCall(DMSetVecType(dah, VECSTANDARD));
    PetscCall(DMSetUp(dah));
    PetscCall(Laplacian7(dah, scale, &Ah));
    PetscCall(CreateMG(dah, Ah, type, &mgh));
    PetscCall(CreateSPCG(Ah, mgh, &spcgh));
    PetscCall(CompareTwin(spcg, spcgh, nv, rnd, &worst));
    PetscCheck(worst < twintol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "V-cycle against its host twin: relative difference %g, above %g", (double)worst, (double)twintol);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "V-cycle matches its host twin: ok\n"));
    PetscCall(PetscInfo(NULL, "worst relative difference from the host twin %g\n", (double)worst));
    PetscCall(PCDestroy(&spcgh));
    PetscCall(PCDestroy(&mgh));
    PetscCall(MatDestroy(&Ah));
    PetscCall(DMDestroy(&dah));
  }

  if (perturb) { /* other bounds on the finest smoother of the double PCMG: the old image must see the difference, a new one follow */
    KSP      smoother;
    PetscInt L;

    PetscCall(PCMGGetLevels(mg, &L));
    PetscCall(PCMGGetSmoother(mg, L - 1, &smoother));
    PetscCall(KSPChebyshevSetEigenvalues(smoother, 4.0, 0.4));
    PetscCall(Compare(spcg, mg, nv, rnd, &worst));
    PetscCheck(worst > 10 * tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Other eigenvalue bounds changed the double V-cycle by only %g", (double)worst);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "V-cycle single vs double with other bounds: differ\n"));
    PetscCall(PCDestroy(&spcg));
    PetscCall(CreateSPCG(A, mg, &spcg));
    PetscCall(Compare(spcg, mg, nv, rnd, &worst));
    PetscCheck(worst < tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "V-cycle single vs double, set bounds: relative difference %g, above %g", (double)worst, (double)tol);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "V-cycle single vs double, set bounds: ok\n"));
  }

  if (refresh) { /* new values, the same pattern: both PCs set up again (the image refreshed), compared again */
    PetscCall(MatShift(A, 2.0));
    PetscCall(MatScale(A, 0.25));
    PetscCall(PCSetUp(mg));
    PetscCall(PCSetUp(spcg));
    PetscCall(PCViewFromOptions(spcg, NULL, "-view"));
    PetscCall(Compare(spcg, mg, nv, rnd, &worst));
    PetscCheck(worst < tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "V-cycle single vs double after new values: relative difference %g, above %g", (double)worst, (double)tol);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "V-cycle single vs double after new values: ok\n"));
    PetscCall(ErrorReduction(spcg, A, rnd, &rho));
    PetscCheck(rho < rhomax, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "After new values, one V-cycle left %g of the error in the A-norm, above %g", (double)rho, (double)rhomax);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "V-cycle reduces the error after new values: ok\n"));
  }

  PetscCall(PCDestroy(&spcg));
  PetscCall(PCDestroy(&mg));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # PCMG with the DMDA's interpolations and Galerkin coarse operators, Chebyshev/Jacobi smoothers (degree 2), dense coarse LU;
   # the finest level shares the inner CG's DIA copy; the 27-point Galerkin operator is DIA in real, pJDS in complex
   test:
      suffix: mg_chebyshev
      args: -pc_type mg -pc_mg_levels 3 -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -spcg_pc_spcg_max_it 0 -perturb -spcg_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep -l "V-cycle|level [0-9]+:|smoother|interpolation" | sed -E "s/bounds \[[^]]*\]/bounds [B]/; s/[0-9.]+ MB/N MB/; s/[48]-byte/4 or 8-byte/; s/operator (DIA, [^,]* on 27 diagonals, no column indices|pJDS, [0-9]+ stored entries for [0-9]+ nonzeros, [^,]* and 4-byte columns, [0-9.]+ bytes a nonzero)/operator DIA (real) or pJDS (complex: DIA does not pay)/"

   # Richardson (damping 0.6) with Jacobi, three steps
   test:
      suffix: mg_richardson
      args: -pc_type mg -pc_mg_levels 3 -mg_levels_ksp_type richardson -mg_levels_ksp_richardson_scale 0.6 -mg_levels_ksp_max_it 3 -mg_levels_pc_type jacobi -spcg_pc_spcg_max_it 0

   # distinct pre- and post-smoothers (degree 2 down, 3 up), and the coarse solve in double (PCMG's LU)
   test:
      suffix: mg_distinct_coarse_double
      args: -pc_type mg -pc_mg_levels 4 -pc_mg_distinct_smoothup -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -mg_levels_up_ksp_max_it 3 -mg_levels_up_pc_type jacobi -spcg_pc_spcg_max_it 0 -spcg_pc_spcg_mg_dense_max 0 -spcg_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep -l "V-cycle|level 0:|smoother" | sed -E "s/bounds \[[^]]*\]/bounds [B]/; s/[0-9.]+ MB/N MB/"

   # new values, the same pattern: the image's values refreshed (operators, Galerkin coarse operators, smoothers, coarse LU)
   test:
      suffix: mg_refresh
      args: -pc_type mg -pc_mg_levels 3 -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -spcg_pc_spcg_max_it 0 -refresh -spcg_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep -l "V-cycle" | sed -E "s/[0-9.]+ MB/N MB/"

   # PCGAMG on the assembled matrix: its Chebyshev/Jacobi smoothers with the bounds GAMG provides, its coarse block Jacobi LU
   test:
      suffix: gamg
      args: -pc_type gamg -n 21 -spcg_pc_spcg_max_it 0 -spcg_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep -l "V-cycle|level 0:" | sed -E "s/[0-9]+ levels/L levels/; s/[0-9.]+ MB/N MB/; s/level 0: [0-9]+ rows/level 0: N rows/"

   # the twin check on the host (the host V-cycle against itself, the check's own test; its point is the gpu_ tests)
   test:
      suffix: mg_twin
      args: -pc_type mg -pc_mg_levels 3 -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -spcg_pc_spcg_max_it 0 -twin

   # rows scaled apart plane by plane (D A): the coarse inverse's Gauss-Jordan elimination swaps rows (partial pivoting)
   test:
      suffix: mg_scaled
      args: -pc_type mg -pc_mg_levels 2 -n 9 -scale 1e4 -mg_levels_ksp_type richardson -mg_levels_ksp_richardson_scale 0.6 -mg_levels_pc_type jacobi -spcg_pc_spcg_max_it 0 -twin

   # unsupported (SOR smoothers): the PCMG stays in double precision, and says why
   test:
      suffix: mg_sor_double
      args: -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type sor -spcg_pc_spcg_max_it 0 -expect_double -spcg_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep -l "V-cycle|no single-precision V-cycle|applied in double"

   # several processes: every matrix of the image distributed (diagonal blocks, off-diagonal blocks in CSR, their ghosts
   # exchanged in single precision), the finest level the inner CG's copy, the coarse solve each process's rows of the
   # dense inverse (the right-hand side gathered); the view gives global rows and nonzeros, the same on 2 and 3 processes
   testset:
      args: -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type jacobi -spcg_pc_spcg_max_it 0 -spcg_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep -l "V-cycle|level [0-9]+:|smoother|interpolation" | sed -E "s/bounds \[[^]]*\]/bounds [B]/; s/[0-9.]+ MB/N MB/; s/[48]-byte/4 or 8-byte/; s/operator (DIA, [^,]* on 27 diagonals, no column indices|pJDS, [0-9]+ stored entries for [0-9]+ nonzeros, [^,]* and 4-byte columns, [0-9.]+ bytes a nonzero)/operator DIA (real) or pJDS (complex: DIA does not pay)/"
      test:
         suffix: mg_chebyshev_np2
         nsize: 2
         args: -mg_levels_ksp_type chebyshev -perturb
         output_file: output/spcgmgtest_mg_chebyshev_mpi.out
      test:
         suffix: mg_chebyshev_np3
         nsize: 3
         args: -mg_levels_ksp_type chebyshev -perturb
         output_file: output/spcgmgtest_mg_chebyshev_mpi.out
      test:
         suffix: mg_richardson_np2
         nsize: 2
         args: -mg_levels_ksp_type richardson -mg_levels_ksp_richardson_scale 0.6 -mg_levels_ksp_max_it 3
         output_file: output/spcgmgtest_mg_richardson_mpi.out
      test:
         suffix: mg_richardson_np3
         nsize: 3
         args: -mg_levels_ksp_type richardson -mg_levels_ksp_richardson_scale 0.6 -mg_levels_ksp_max_it 3
         output_file: output/spcgmgtest_mg_richardson_mpi.out
      test:
         # new values, the same pattern: the values of the diagonal and off-diagonal blocks refreshed
         suffix: mg_refresh_np2
         nsize: 2
         args: -mg_levels_ksp_type chebyshev -refresh
      test:
         # the coarse solve PCMG's KSP in double (larger than -pc_spcg_mg_dense_max), collective
         suffix: mg_coarse_double_np2
         nsize: 2
         args: -mg_levels_ksp_type chebyshev -spcg_pc_spcg_mg_dense_max 0

   # PCGAMG on several processes (its coarse levels on fewer processes, some with no rows; the coarsest on one)
   testset:
      args: -pc_type gamg -n 21 -spcg_pc_spcg_max_it 0 -spcg_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep -l "V-cycle|level 0:" | sed -E "s/[0-9]+ levels/L levels/; s/[0-9.]+ MB/N MB/; s/level 0: [0-9]+ rows/level 0: N rows/"
      output_file: output/spcgmgtest_gamg_mpi.out
      test:
         suffix: gamg_np2
         nsize: 2
      test:
         suffix: gamg_np3
         nsize: 3

   # GPU (device suite): CUDA matrices and vectors, the image in device memory and its V-cycle on the GPU (the view
   # says so), compared with the double PCMG on the GPU as above, and (-twin) with the host V-cycle, its twin, on a
   # host copy of the problem (to 1e-5: rounding in other orders of summation); with a dense coarse inverse the inner loop, V-cycle and
   # all, is replayed as a CUDA graph, with PCMG's coarse solve in double it is not (the coarse problem crosses the host)
   testset:
      requires: cuda_device
      args: -dm_mat_type aijcusparse -dm_vec_type cuda -use_gpu_aware_mpi 0 -spcg_pc_spcg_max_it 0 -spcg_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep -l "V-cycle|inner iterations run|level 0:" | sed -E "s/^ +//; s/[0-9]+ levels/L levels/; s/[0-9.]+ MB/N MB/; s/level 0: [0-9]+ rows/level 0: N rows/"
      test:
         suffix: gpu_mg_chebyshev
         args: -pc_type mg -pc_mg_levels 3 -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -twin -perturb
      test:
         suffix: gpu_mg_richardson
         args: -pc_type mg -pc_mg_levels 3 -mg_levels_ksp_type richardson -mg_levels_ksp_richardson_scale 0.6 -mg_levels_ksp_max_it 3 -mg_levels_pc_type jacobi -twin
      test:
         suffix: gpu_mg_distinct_coarse_double
         args: -pc_type mg -pc_mg_levels 4 -pc_mg_distinct_smoothup -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -mg_levels_up_ksp_max_it 3 -mg_levels_up_pc_type jacobi -spcg_pc_spcg_mg_dense_max 0 -twin
      test:
         suffix: gpu_mg_refresh
         args: -pc_type mg -pc_mg_levels 3 -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -refresh
      test:
         suffix: gpu_gamg
         args: -pc_type gamg -n 21
      # the device's Gauss-Jordan inverse with row swaps against its host twin
      test:
         suffix: gpu_mg_scaled
         args: -pc_type mg -pc_mg_levels 2 -n 9 -scale 1e4 -mg_levels_ksp_type richardson -mg_levels_ksp_richardson_scale 0.6 -mg_levels_pc_type jacobi -twin
      # several processes: the device products exchange their ghosts through the host, the coarse right-hand side is
      # gathered through it, so the inner loop is not captured; the device V-cycle against the double PCMG and against
      # its host twin; with the coarse solve PCMG's KSP in double likewise
      test:
         suffix: gpu_mg_chebyshev_np2
         nsize: 2
         args: -pc_type mg -pc_mg_levels 3 -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -twin
      test:
         suffix: gpu_gamg_np2
         nsize: 2
         args: -pc_type gamg -n 21
      test:
         suffix: gpu_mg_coarse_double_np2
         nsize: 2
         args: -pc_type mg -pc_mg_levels 3 -mg_levels_ksp_type chebyshev -mg_levels_pc_type jacobi -spcg_pc_spcg_mg_dense_max 0 -twin

TEST*/
