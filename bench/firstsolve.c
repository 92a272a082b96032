static char help[] = "A PETSc application as a user writes it, timed the way the user sees it: 3D Poisson or\n\
convection-diffusion on a DMDA, or the Poisson problem in Q1/Q2 finite elements on a DMPlex hexahedral mesh\n\
(unstructured: rows of 8-125 entries, DMPlex's numbering), the matrix from DMCreateMatrix() (-dm_mat_type), the solver from\n\
KSPSetFromOptions() (-ksp_type, -pc_type). It links PETSc only; petsc-jagged's types come in through\n\
-dll_append. Prints the assembly time (DMCreateMatrix() and MatSetValues()), the time of MatAssemblyEnd()\n\
('format': the jagged formats build theirs there, AIJCUSPARSE copies its CSR inside the first product; the least\n\
over the processes: the last to enter it waited for no other's assembly, nor for MatLoad()'s distribution), the\n\
set-up time (KSPSetUp()), the first solve (set-up included), a repeated solve from a zero guess, the\n\
iterations and the true relative residual; b = 1.\n\
  -problem <poisson|aniso|convdiff|fem|elasticity>  7-point Poisson, anisotropic Poisson (eps along z), upwind\n\
                   convection-diffusion, or finite-element Poisson / linear elasticity (DMPlex, PetscFE, Dirichlet boundary,\n\
                   assembled by DMPlexSNESComputeJacobianFEM())\n\
  -n <200>         grid points per direction (fem: cells per direction)\n\
  -order <2>       fem, elasticity: the Lagrange element order\n\
  -dim <3>         fem, elasticity: 3 (n^3 hexahedra) or 2 (n^2 quadrilaterals; elasticity then has block size 2)\n\
  -save <file>     fem, elasticity, mtx: write the matrix (PETSc binary) and stop\n\
  -mtx <file>      -problem mtx: the Matrix Market file to convert (with -save)\n\
  -f <file>        instead of a -problem: load the matrix from a PETSc binary file (MatCreate(), MatSetFromOptions()\n\
                   with -mat_type, MatLoad()), as a program reading its matrix does\n\
  -eps <0.01>      anisotropy of -problem aniso\n\
  -peclet <100>    wind speed of -problem convdiff (constant wind (1, 1/2, 1/4))\n\
  -code_pc <type>  a preconditioner the program sets in code before KSPSetFromOptions() (as many do)\n\
  -mult <0>        also time this many MatMult() after the solves (the mean is reported in ms)\n\
  -refresh         with -mult: also time a values-only change as a nonlinear solver makes it (every entry doubled\n\
                   by MatSetValues(), MatAssemblyEnd(), the first MatMult() after it, less a product's time; checked)\n\
  -label <text>    name of the run in the output;  -csv <file>: append one CSV line\n\n";

#include <petscdmda.h>
#include <petscdmplex.h>
#include <petscds.h>
#include <petscsnes.h>
#include <petscksp.h>
#include <petscdevice.h>
#include <petscjagged/private/mtxload.h>
#include "convdiff.h"

static PetscBool on_gpu; /* CUDA vectors: wait for the device around the timings */

static PetscErrorCode SetOnGPU(Mat A)
{
  VecType vtype;
  char   *cuda;

  PetscFunctionBeginUser;
  PetscCall(MatGetVecType(A, &vtype));
  PetscCall(PetscStrstr(vtype, "cuda", &cuda));
  on_gpu = (PetscBool)(cuda != NULL);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -eps_d d^2/dx_d^2 u + w . grad u, 7-point, first-order upwind; h^2-scaled so Poisson has 6 on the diagonal; *tend: MatAssemblyEnd() */
static PetscErrorCode Assemble(DM da, const PetscReal eps[3], const PetscReal w[3], Mat A, PetscLogDouble *tend)
{
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  PetscCall(ConvDiffSetValues(da, eps, PETSC_TRUE, ConvDiffConstantWind, w, A));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  if (on_gpu) PetscCall(PetscDeviceContextSynchronize(NULL));
  PetscCall(PetscBarrier(NULL));
  PetscCall(PetscTime(&t0));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  if (on_gpu) PetscCall(PetscDeviceContextSynchronize(NULL));
  PetscCall(PetscTime(&t1));
  *tend = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The time MatAssemblyEnd() has taken so far, from its log event (for assemblies inside PETSc routines), the device idle */
static PetscErrorCode AssemblyEndTime(PetscLogDouble *t)
{
  PetscLogEvent      ev;
  PetscEventPerfInfo info;

  PetscFunctionBeginUser;
  if (on_gpu) PetscCall(PetscDeviceContextSynchronize(NULL));
  PetscCall(PetscLogEventGetId("MatAssemblyEnd", &ev));
  PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, ev, &info));
  *t = info.time;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The overlapped product taken apart (several processes, an AIJ-based A): the diagonal block's product and the
  off-diagonal block's (added into the same output) each timed alone over nmult products, maxima over the
  processes, against the whole MatMult() (twhole): what the whole takes beyond the two parts is the halo exchange
  that the diagonal block's product did not hide
*/
static PetscErrorCode TimeMultParts(Mat A, PetscInt nmult, PetscLogDouble twhole)
{
  Mat            Ad, Ao;
  Vec            xd, yd, g;
  PetscLogDouble t[2], t0, t1;
  PetscRandom    rnd;

  PetscFunctionBeginUser;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, NULL));
  PetscCall(MatCreateVecs(Ad, &xd, &yd));
  PetscCall(MatCreateVecs(Ao, &g, NULL));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(VecSetRandom(xd, rnd));
  PetscCall(VecSetRandom(g, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  for (PetscInt part = 0; part < 2; part++) {
    if (on_gpu) PetscCall(PetscDeviceContextSynchronize(NULL));
    PetscCall(PetscTime(&t0));
    for (PetscInt k = 0; k < nmult; k++) {
      if (part == 0) PetscCall(MatMult(Ad, xd, yd));
      else PetscCall(MatMultAdd(Ao, g, yd, yd));
    }
    if (on_gpu) PetscCall(PetscDeviceContextSynchronize(NULL));
    PetscCall(PetscTime(&t1));
    t[part] = 1e3 * (t1 - t0) / nmult;
  }
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, t, 2, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatMult taken apart (maxima over processes): diagonal block %.3f ms, off-diagonal block %.3f ms, both %.3f ms; whole product %.3f ms: the exchange adds %.3f ms\n", t[0], t[1], t[0] + t[1], twhole, twhole - t[0] - t[1]));
  PetscCall(VecDestroy(&xd));
  PetscCall(VecDestroy(&yd));
  PetscCall(VecDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Laplacian's pointwise Jacobian: g3 = I */
static void Laplacian_g3(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g3[])
{
  for (PetscInt d = 0; d < dim; ++d) g3[d * dim + d] = 1.0;
}

/* Isotropic linear elasticity (Lame parameters 1, 1), g3[fc][gc][df][dg]: lambda d_fc,df d_gc,dg + mu (d_fc,gc d_df,dg + d_fc,dg d_df,gc) */
static void Elasticity_g3(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g3[])
{
  const PetscReal mu = 1.0, lambda = 1.0;

  for (PetscInt c = 0; c < dim; ++c)
    for (PetscInt d = 0; d < dim; ++d) {
      g3[((c * dim + c) * dim + d) * dim + d] += mu;
      g3[((c * dim + d) * dim + d) * dim + c] += mu;
      g3[((c * dim + d) * dim + c) * dim + d] += lambda;
    }
}

static PetscErrorCode Zero(PetscInt dim, PetscReal time, const PetscReal x[], PetscInt Nc, PetscScalar *u, void *ctx)
{
  for (PetscInt c = 0; c < Nc; ++c) u[c] = 0.0;
  return PETSC_SUCCESS;
}

/* Poisson (or, elasticity, linear elasticity: dim components a node) in Q_order elements on n^dim boxes (DMPlex, distributed),
   Dirichlet boundary eliminated; the matrix from DMCreateMatrix(), *tend: MatAssemblyEnd() */
static PetscErrorCode AssembleFEM(PetscInt dim, PetscInt n, PetscInt order, PetscBool elasticity, DM *dm, Mat *A, PetscLogDouble *tend)
{
  const PetscInt     faces[3] = {n, n, n}, id = 1;
  DM                 dist;
  PetscFE            fe;
  PetscDS            ds;
  DMLabel            label;
  Vec                u;
  PetscLogDouble     t0, t1;

  PetscFunctionBeginUser;
  PetscCall(DMPlexCreateBoxMesh(PETSC_COMM_WORLD, dim, PETSC_FALSE, faces, NULL, NULL, NULL, PETSC_TRUE, 0, PETSC_FALSE, dm));
  PetscCall(DMPlexDistribute(*dm, 0, NULL, &dist));
  if (dist) {
    PetscCall(DMDestroy(dm));
    *dm = dist;
  }
  PetscCall(DMSetFromOptions(*dm));
  PetscCall(DMCreateLabel(*dm, "boundary"));
  PetscCall(DMGetLabel(*dm, "boundary", &label));
  PetscCall(DMPlexMarkBoundaryFaces(*dm, 1, label));
  PetscCall(DMPlexLabelComplete(*dm, label));
  PetscCall(PetscFECreateLagrange(PETSC_COMM_WORLD, dim, elasticity ? dim : 1, PETSC_FALSE, order, PETSC_DETERMINE, &fe));
  PetscCall(DMSetField(*dm, 0, NULL, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(*dm));
  PetscCall(DMGetDS(*dm, &ds));
  PetscCall(PetscDSSetJacobian(ds, 0, 0, NULL, NULL, NULL, elasticity ? Elasticity_g3 : Laplacian_g3));
  PetscCall(DMAddBoundary(*dm, DM_BC_ESSENTIAL, "wall", label, 1, &id, 0, 0, NULL, (PetscVoidFn *)Zero, NULL, NULL, NULL));
  PetscCall(DMCreateMatrix(*dm, A));
  PetscCall(SetOnGPU(*A));
  PetscCall(DMCreateLocalVector(*dm, &u)); /* DMPlexSNESComputeJacobianFEM() reads the closures of a local vector */
  PetscCall(VecSet(u, 0.0));
  PetscCall(AssemblyEndTime(&t0)); /* MatAssemblyEnd() runs inside the assembly routine */
  PetscCall(DMPlexSNESComputeJacobianFEM(*dm, u, *A, *A, NULL));
  PetscCall(AssemblyEndTime(&t1));
  *tend = t1 - t0;
  if (elasticity) { /* the rigid-body modes, which PCGAMG needs (as snes ex56 gives them) */
    MatNullSpace nsp;

    PetscCall(DMPlexCreateRigidBody(*dm, 0, &nsp));
    PetscCall(MatSetNearNullSpace(*A, nsp));
    PetscCall(MatNullSpaceDestroy(&nsp));
  }
  PetscCall(VecDestroy(&u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* As a program reading its matrix: MatCreate(), MatSetFromOptions() (-mat_type), MatLoad(); *tend: MatAssemblyEnd() inside MatLoad() */
static PetscErrorCode LoadMatrix(const char *file, Mat *A, PetscLogDouble *tend)
{
  PetscViewer    viewer;
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(SetOnGPU(*A));
  PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, file, FILE_MODE_READ, &viewer));
  PetscCall(AssemblyEndTime(&t0));
  PetscCall(MatLoad(*A, viewer));
  PetscCall(AssemblyEndTime(&t1));
  *tend = t1 - t0;
  PetscCall(PetscViewerDestroy(&viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static Vec solve_b, solve_x;

/* Wall time of f(ksp) with the device idle before and after */
static PetscErrorCode Timed(PetscErrorCode (*f)(KSP), KSP ksp, PetscLogDouble *sec)
{
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  if (on_gpu) PetscCall(PetscDeviceContextSynchronize(NULL));
  PetscCall(PetscBarrier(NULL));
  PetscCall(PetscTime(&t0));
  PetscCall(f(ksp));
  if (on_gpu) PetscCall(PetscDeviceContextSynchronize(NULL));
  PetscCall(PetscTime(&t1));
  *sec = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  A values-only change as a nonlinear solver's re-assembly makes it: every local entry set again, doubled,
  MatAssemblyEnd() and the first product after it; *sec: the time from MatAssemblyBegin() to the end of that
  product, which is checked against twice the product before the change (a stale device copy fails)
*/
static PetscErrorCode TimeRefresh(Mat A, Vec x, Vec y, PetscLogDouble *sec)
{
  PetscInt       rstart, rend, *ptr;
  PetscInt      *cols;
  PetscScalar   *vals;
  PetscLogDouble t0, t1;
  PetscReal      err, norm;
  Vec            y0;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(y, &y0));
  PetscCall(MatMult(A, x, y0));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCall(PetscMalloc1(rend - rstart + 1, &ptr));
  ptr[0] = 0;
  for (PetscInt i = rstart; i < rend; i++) {
    PetscInt nc;

    PetscCall(MatGetRow(A, i, &nc, NULL, NULL));
    ptr[i - rstart + 1] = ptr[i - rstart] + nc;
    PetscCall(MatRestoreRow(A, i, &nc, NULL, NULL));
  }
  PetscCall(PetscMalloc2(ptr[rend - rstart], &cols, ptr[rend - rstart], &vals));
  for (PetscInt i = rstart; i < rend; i++) { /* all rows first: MatSetValues() leaves the matrix unassembled */
    PetscInt           nc;
    const PetscInt    *c;
    const PetscScalar *v;

    PetscCall(MatGetRow(A, i, &nc, &c, &v));
    PetscCall(PetscArraycpy(cols + ptr[i - rstart], c, nc));
    for (PetscInt k = 0; k < nc; k++) vals[ptr[i - rstart] + k] = 2.0 * v[k];
    PetscCall(MatRestoreRow(A, i, &nc, &c, &v));
  }
  for (PetscInt i = rstart; i < rend; i++) PetscCall(MatSetValues(A, 1, &i, ptr[i - rstart + 1] - ptr[i - rstart], cols + ptr[i - rstart], vals + ptr[i - rstart], INSERT_VALUES));
  PetscCall(PetscFree(ptr));
  PetscCall(PetscFree2(cols, vals));
  PetscCall(PetscBarrier(NULL));
  PetscCall(PetscTime(&t0));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatMult(A, x, y));
  if (on_gpu) PetscCall(PetscDeviceContextSynchronize(NULL));
  PetscCall(PetscTime(&t1));
  *sec = t1 - t0;
  PetscCall(VecScale(y0, 2.0));
  PetscCall(VecNorm(y0, NORM_2, &norm));
  PetscCall(VecAXPY(y0, -1.0, y));
  PetscCall(VecNorm(y0, NORM_2, &err));
  if (err > 1e-12 * norm) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "WARNING: the product after the values-only change is off by %g (relative): a stale device copy\n", (double)(err / norm)));
  PetscCall(VecDestroy(&y0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Solve(KSP ksp)
{
  PetscFunctionBeginUser;
  PetscCall(VecSet(solve_x, 0.0));
  PetscCall(KSPSolve(ksp, solve_b, solve_x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char               problem[PETSC_MAX_PATH_LEN] = "poisson", codepc[32] = "", label[64] = "run", csv[PETSC_MAX_PATH_LEN] = "", file[PETSC_MAX_PATH_LEN] = "", save[PETSC_MAX_PATH_LEN] = "", mtx[PETSC_MAX_PATH_LEN] = "";
  PetscInt           n = 200, its, nmult = 0, order = 2, dim = 3, rows;
  PetscReal          eps = 0.01, peclet = 100, epsd[3] = {1, 1, 1}, w[3] = {0, 0, 0}, res, bnorm;
  PetscLogDouble     tassembly, tformat, tsetup, tsolve, trepeat, tmult = 0, trefresh = 0;
  PetscBool          setpc, load, store, refresh = PETSC_FALSE, parts = PETSC_FALSE;
  DM                 da;
  Mat                A;
  Vec                r;
  KSP                ksp;
  KSPType            ktype;
  PC                 pc;
  PCType             ptype;
  MatType            mtype;
  KSPConvergedReason reason;
  PetscMPIInt        size;
  PetscLogStage      stage[2];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "First-solve benchmark", NULL);
  PetscCall(PetscOptionsString("-problem", "poisson, aniso, convdiff, fem, elasticity or mtx", NULL, problem, problem, sizeof(problem), NULL));
  PetscCall(PetscOptionsInt("-n", "grid points (fem: cells) per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-order", "fem: element order", NULL, order, &order, NULL));
  PetscCall(PetscOptionsRangeInt("-dim", "fem, elasticity: the mesh dimension", NULL, dim, &dim, NULL, 2, 3));
  PetscCall(PetscOptionsString("-save", "fem: write the matrix to this file and stop", NULL, save, save, sizeof(save), &store));
  PetscCall(PetscOptionsString("-f", "load the matrix from this PETSc binary file", NULL, file, file, sizeof(file), &load));
  PetscCall(PetscOptionsString("-mtx", "-problem mtx: Matrix Market file to convert", NULL, mtx, mtx, sizeof(mtx), NULL));
  PetscCall(PetscOptionsReal("-eps", "anisotropy", NULL, eps, &eps, NULL));
  PetscCall(PetscOptionsReal("-peclet", "wind speed", NULL, peclet, &peclet, NULL));
  PetscCall(PetscOptionsString("-code_pc", "PC set in code", NULL, codepc, codepc, sizeof(codepc), &setpc));
  PetscCall(PetscOptionsInt("-mult", "MatMult() calls to time", NULL, nmult, &nmult, NULL));
  PetscCall(PetscOptionsBool("-refresh", "with -mult: time a values-only change", NULL, refresh, &refresh, NULL));
  PetscCall(PetscOptionsBool("-mult_parts", "with -mult on several processes: time the diagonal and off-diagonal blocks' products alone", NULL, parts, &parts, NULL));
  PetscCall(PetscOptionsString("-label", "name of the run", NULL, label, label, sizeof(label), NULL));
  PetscCall(PetscOptionsString("-csv", "CSV file to append to", NULL, csv, csv, sizeof(csv), NULL));
  PetscOptionsEnd();
  if (!strcmp(problem, "aniso")) epsd[2] = eps;
  else if (!strcmp(problem, "convdiff")) {
    w[0] = peclet;
    w[1] = peclet / 2;
    w[2] = peclet / 4;
  } else PetscCheck(!strcmp(problem, "poisson") || !strcmp(problem, "fem") || !strcmp(problem, "elasticity") || !strcmp(problem, "mtx"), PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-problem must be poisson, aniso, convdiff, fem, elasticity or mtx");

  if (load) {
    const char *base;

    PetscCall(PetscLogDefaultBegin()); /* MatAssemblyEnd()'s time from its event */
    PetscCall(PetscTime(&tassembly));
    PetscCall(LoadMatrix(file, &A, &tformat));
    base = strrchr(file, '/');
    PetscCall(PetscStrncpy(problem, base ? base + 1 : file, sizeof(problem)));
    n  = 0; /* the report groups the runs by problem (the file), n and processes */
    da = NULL;
  } else if (!strcmp(problem, "fem") || !strcmp(problem, "elasticity") || !strcmp(problem, "mtx")) {
    PetscCall(PetscLogDefaultBegin()); /* MatAssemblyEnd()'s time from its event */
    PetscCall(PetscTime(&tassembly));
    da = NULL;
    if (!strcmp(problem, "mtx")) {
      MtxSymmetry sym;

      PetscCheck(store, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "-problem mtx only converts a Matrix Market file (-mtx) to a PETSc binary one (-save), which -f then loads");
      PetscCall(MtxLoad(PETSC_COMM_WORLD, mtx, &sym, &A));
    } else PetscCall(AssembleFEM(dim, n, order, (PetscBool)!strcmp(problem, "elasticity"), &da, &A, &tformat));
    if (store) {
      PetscViewer viewer;

      PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, save, FILE_MODE_WRITE, &viewer));
      PetscCall(MatView(A, viewer));
      PetscCall(PetscViewerDestroy(&viewer));
      PetscCall(MatDestroy(&A));
      PetscCall(DMDestroy(&da));
      PetscCall(PetscFinalize());
      return 0;
    }
  } else {
    PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
    PetscCall(DMSetFromOptions(da));
    PetscCall(DMSetUp(da));
    PetscCall(PetscTime(&tassembly));
    PetscCall(DMCreateMatrix(da, &A));
    PetscCall(SetOnGPU(A));
    PetscCall(Assemble(da, epsd, w, A, &tformat));
  }
  PetscCall(MatGetSize(A, &rows, NULL));
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &tformat, 1, MPIU_PETSCLOGDOUBLE, MPI_MIN, PETSC_COMM_WORLD)); /* less any wait for the others (help) */
  {
    PetscLogDouble t;

    PetscCall(PetscTime(&t));
    tassembly = t - tassembly - tformat;
  }
  PetscCall(MatCreateVecs(A, &solve_x, &solve_b));
  PetscCall(VecDuplicate(solve_b, &r));
  PetscCall(VecSet(solve_b, 1.0)); /* not A x: the matrix first reaches the GPU inside the first solve, as in an application */
  PetscCall(VecNorm(solve_b, NORM_2, &bnorm));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  if (da) { /* the program's DM given to the KSP, as DMDA and DMPlex programs do (a DMDA's grid gives PCMG its levels with -pc_mg_galerkin); the matrix stays the program's */
    PetscCall(KSPSetDM(ksp, da));
    PetscCall(KSPSetDMActive(ksp, KSP_DMACTIVE_ALL, PETSC_FALSE));
  }
  PetscCall(KSPGetPC(ksp, &pc));
  if (setpc) PetscCall(PCSetType(pc, codepc));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(PetscLogStageRegister("First solve", &stage[0]));
  PetscCall(PetscLogStageRegister("Repeated solve", &stage[1]));
  PetscCall(PetscLogStagePush(stage[0])); /* -log_view shows the two solves apart */
  PetscCall(Timed(KSPSetUp, ksp, &tsetup));
  PetscCall(KSPSetUp(ksp));
  {
    PetscLogDouble t;

    PetscCall(Timed(Solve, ksp, &t));
    tsolve = tsetup + t;
  }
  PetscCall(PetscLogStagePop());
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(MatMult(A, solve_x, r));
  PetscCall(VecAYPX(r, -1.0, solve_b));
  PetscCall(VecNorm(r, NORM_2, &res));
  PetscCall(PetscLogStagePush(stage[1]));
  PetscCall(Timed(Solve, ksp, &trepeat));
  PetscCall(PetscLogStagePop());
  if (nmult > 0) { /* the product alone, warm */
    PetscLogDouble t0, t1;

    if (on_gpu) PetscCall(PetscDeviceContextSynchronize(NULL));
    PetscCall(PetscBarrier(NULL));
    PetscCall(PetscTime(&t0));
    for (PetscInt k = 0; k < nmult; k++) PetscCall(MatMult(A, solve_x, r));
    if (on_gpu) PetscCall(PetscDeviceContextSynchronize(NULL));
    PetscCall(PetscTime(&t1));
    tmult = 1e3 * (t1 - t0) / nmult;
    if (parts && size > 1) PetscCall(TimeMultParts(A, nmult, tmult));
    if (refresh) PetscCall(TimeRefresh(A, solve_x, r, &trefresh));
    trefresh -= 1e-3 * tmult;
  }
  PetscCall(KSPGetType(ksp, &ktype));
  PetscCall(PCGetType(pc, &ptype));
  PetscCall(MatGetType(A, &mtype));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-28s %s n=%" PetscInt_FMT " (%" PetscInt_FMT " rows) np=%d %s %s %s: %s, %" PetscInt_FMT " its, true rel. residual %.2e | assembly %.3f s, format %.3f s, set-up %.3f s, first solve %.3f s, repeated solve %.3f s, MatMult %.3f ms, values-only refresh %.4f s\n", label, problem, n, rows, size, mtype, ktype, ptype, KSPConvergedReasons[reason], its, (double)(res / bnorm), tassembly, tformat, tsetup, tsolve, trepeat, tmult, trefresh));
  if (csv[0]) {
    FILE *f;

    PetscCall(PetscFOpen(PETSC_COMM_WORLD, csv, "a", &f));
    PetscCall(PetscFPrintf(PETSC_COMM_WORLD, f, "%s,%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%d,%s,%s,%s,%s,%" PetscInt_FMT ",%.3e,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n", label, problem, n, rows, size, mtype, ktype, ptype, KSPConvergedReasons[reason], its, (double)(res / bnorm), tassembly, tformat, tsetup, tsolve, trepeat, tmult, trefresh));
    PetscCall(PetscFClose(PETSC_COMM_WORLD, f));
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&solve_x));
  PetscCall(VecDestroy(&solve_b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}
