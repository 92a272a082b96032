static char help[] = "The 2D Poisson problem of Table 1 of 'poisson-cg-gpu-memory' (seed 004) as a PETSc program:\n\
-Laplace u = f on the unit square, zero Dirichlet values, 5-point stencil on N x N interior points,\n\
b = h^2 f, exact solution u = sin^2(pi x) sin^2(pi y); CG from x = 0 until ||r|| <= 1e-6 ||b||.\n\
Prints the paper's columns (N, unknowns, max-norm error, iterations) with the time of the first solve\n\
(set-up included) and per iteration, for each N.\n\
  -N <32,64,128,256>         grid sizes\n\
  -op <shell|assembled>      matrix-free (MATSHELL, a CUDA stencil kernel with CUDA vectors, its host\n\
                             twin otherwise) or assembled by DMCreateMatrix() (-dm_mat_type aijcusparse,\n\
                             pjdscuda, ...)\n\
  -kernel <global|shared>    matrix-free product: neighbours read from global memory, or a tile and its\n\
                             halo staged in shared memory (the paper's two main variants)\n\
  -check                     compare the matrix-free products (fp64 and fp32, both kernels on a GPU) with\n\
                             the host twin and the assembled matrix on random vectors first\n\
The solver comes from the options (default -ksp_type cg -pc_type none); with -ksp_type mpcg on one\n\
process the inner CG runs on the single-precision stencil kernel (MatJaggedSetMultSingle()). GPU:\n\
-dm_vec_type cuda (and -use_gpu_aware_mpi 0 with an MPI that is not CUDA-aware).\n\n";

#include <petscdmda.h>
#include <petscksp.h>
#include <petscdevice.h>
#include <petscjagged.h>
#include "poisson2dstencil.h"

typedef struct {
  DM              da;
  Poisson2DBlock  own;    /* the owned block, x stored as the global vector (one process) */
  Poisson2DBlock  ghost;  /* the owned block, x stored as the local (ghosted) vector */
  Poisson2DKernel kernel;
  PetscBool       gpu;    /* CUDA vectors */
  PetscMPIInt     size;
  Vec             xl;     /* local vector for the halo exchange (several processes) */
} Shell;

/* y = A x, matrix-free */
static PetscErrorCode ShellMult(Mat A, Vec x, Vec y)
{
  Shell             *sh;
  const PetscScalar *xa;
  PetscScalar       *ya;
  Vec                xs = x;
  const Poisson2DBlock *b;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &sh));
  b = &sh->own;
  if (sh->size > 1) { /* the halo through the DMDA's scatter */
    PetscCall(DMGlobalToLocal(sh->da, x, INSERT_VALUES, sh->xl));
    xs = sh->xl;
    b  = &sh->ghost;
  }
  if (sh->gpu) {
    PetscCall(VecCUDAGetArrayRead(xs, &xa));
    PetscCall(VecCUDAGetArrayWrite(y, &ya));
    PetscCall(PetscLogGpuTimeBegin());
    PetscCall(Poisson2DStencilDevice(b, sh->kernel, PETSC_FALSE, xa, ya));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(9.0 * b->xm * b->ym));
    PetscCall(VecCUDARestoreArrayRead(xs, &xa));
    PetscCall(VecCUDARestoreArrayWrite(y, &ya));
  } else {
    PetscCall(VecGetArrayRead(xs, &xa));
    PetscCall(VecGetArrayWrite(y, &ya));
    Poisson2DStencilHost(b, PETSC_FALSE, xa, ya);
    PetscCall(PetscLogFlops(9.0 * b->xm * b->ym));
    PetscCall(VecRestoreArrayRead(xs, &xa));
    PetscCall(VecRestoreArrayWrite(y, &ya));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x in single precision on one process (MatJaggedSetMultSingle()): arrays in the memory of the vectors */
static PetscErrorCode ShellMultSingle(Mat A, const PetscJaggedScalarSingle x[], PetscJaggedScalarSingle y[])
{
  Shell *sh;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &sh));
  if (sh->gpu) {
    PetscCall(Poisson2DStencilDevice(&sh->own, sh->kernel, PETSC_TRUE, x, y));
    PetscCall(PetscLogGpuFlops(9.0 * sh->own.xm * sh->own.ym));
  } else {
    Poisson2DStencilHost(&sh->own, PETSC_TRUE, x, y);
    PetscCall(PetscLogFlops(9.0 * sh->own.xm * sh->own.ym));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ShellGetDiagonal(Mat A, Vec d)
{
  PetscFunctionBeginUser;
  PetscCall(VecSet(d, 4.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ShellDestroy(Mat A)
{
  Shell *sh;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &sh));
  PetscCall(VecDestroy(&sh->xl));
  PetscCall(PetscFree(sh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The matrix-free operator on the DMDA's layout and vector type */
static PetscErrorCode CreateShell(DM da, Poisson2DKernel kernel, Mat *A)
{
  Shell        *sh;
  DMDALocalInfo info;
  Vec           v;
  VecType       vtype;
  char         *cuda;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&sh));
  sh->da     = da;
  sh->kernel = kernel;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)da), &sh->size));
  PetscCall(DMDAGetLocalInfo(da, &info));
  sh->own   = (Poisson2DBlock){info.mx, info.xs, info.ys, info.xm, info.ym, info.xs, info.ys, info.xm, info.ym};
  sh->ghost = (Poisson2DBlock){info.mx, info.xs, info.ys, info.xm, info.ym, info.gxs, info.gys, info.gxm, info.gym};
  PetscCall(DMGetGlobalVector(da, &v));
  PetscCall(VecGetType(v, &vtype));
  PetscCall(PetscStrstr(vtype, "cuda", &cuda));
  sh->gpu = (PetscBool)(cuda != NULL);
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)da), info.xm * info.ym, info.xm * info.ym, info.mx * info.my, info.mx * info.my, sh, A));
  PetscCall(MatShellSetVecType(*A, vtype));
  PetscCall(DMRestoreGlobalVector(da, &v));
  if (sh->size > 1) PetscCall(DMCreateLocalVector(da, &sh->xl));
  PetscCall(MatShellSetOperation(*A, MATOP_MULT, (PetscErrorCodeFn *)ShellMult));
  PetscCall(MatShellSetOperation(*A, MATOP_GET_DIAGONAL, (PetscErrorCodeFn *)ShellGetDiagonal));
  PetscCall(MatShellSetOperation(*A, MATOP_DESTROY, (PetscErrorCodeFn *)ShellDestroy));
  if (sh->size == 1) PetscCall(MatJaggedSetMultSingle(*A, ShellMultSingle));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The assembled 5-point matrix of the DMDA (type from -dm_mat_type) */
static PetscErrorCode CreateAssembled(DM da, Mat *A)
{
  DMDALocalInfo info;

  PetscFunctionBeginUser;
  PetscCall(DMCreateMatrix(da, A));
  PetscCall(DMDAGetLocalInfo(da, &info));
  for (PetscInt j = info.ys; j < info.ys + info.ym; j++)
    for (PetscInt i = info.xs; i < info.xs + info.xm; i++) {
      MatStencil  row = {0, j, i, 0}, col[5];
      PetscScalar v[5];
      PetscInt    n = 0;

      if (j > 0) col[n] = (MatStencil){0, j - 1, i, 0}, v[n++] = -1;
      if (i > 0) col[n] = (MatStencil){0, j, i - 1, 0}, v[n++] = -1;
      col[n] = row, v[n++] = 4;
      if (i < info.mx - 1) col[n] = (MatStencil){0, j, i + 1, 0}, v[n++] = -1;
      if (j < info.my - 1) col[n] = (MatStencil){0, j + 1, i, 0}, v[n++] = -1;
      PetscCall(MatSetValuesStencil(*A, 1, &row, n, col, v, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* b = h^2 f and the exact solution u at the interior points */
static PetscErrorCode Problem(DM da, Vec b, Vec u)
{
  DMDALocalInfo info;
  PetscScalar **ba, **ua;
  PetscReal     h;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetLocalInfo(da, &info));
  h = 1.0 / (info.mx + 1);
  PetscCall(DMDAVecGetArrayWrite(da, b, &ba));
  PetscCall(DMDAVecGetArrayWrite(da, u, &ua));
  for (PetscInt j = info.ys; j < info.ys + info.ym; j++)
    for (PetscInt i = info.xs; i < info.xs + info.xm; i++) {
      const PetscReal x = h * (i + 1), y = h * (j + 1), sx = PetscSinReal(PETSC_PI * x), sy = PetscSinReal(PETSC_PI * y);

      ba[j][i] = h * h * -2 * PETSC_PI * PETSC_PI * (PetscCosReal(2 * PETSC_PI * x) * sy * sy + sx * sx * PetscCosReal(2 * PETSC_PI * y));
      ua[j][i] = sx * sx * sy * sy;
    }
  PetscCall(DMDAVecRestoreArrayWrite(da, b, &ba));
  PetscCall(DMDAVecRestoreArrayWrite(da, u, &ua));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max |y1 - y2| / max |y2| */
static PetscErrorCode RelDiff(Vec y1, Vec y2, Vec w, PetscReal *d)
{
  PetscReal n;

  PetscFunctionBeginUser;
  PetscCall(VecWAXPY(w, -1.0, y2, y1));
  PetscCall(VecNorm(w, NORM_INFINITY, d));
  PetscCall(VecNorm(y2, NORM_INFINITY, &n));
  *d /= n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The matrix-free products against the assembled matrix (AIJ on the host) on a random vector: the
  host twin always; on a GPU both kernels in double and, on one process, in single precision
*/
static PetscErrorCode Check(DM da, Mat S, Poisson2DKernel kernel)
{
  Mat         R;
  Vec         x, y, yr, w, w2;
  PetscRandom rnd;
  PetscReal   d;
  Shell      *sh;
  DM          dah;
  PetscInt    n;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(S, &sh));
  PetscCall(DMClone(da, &dah)); /* the reference: AIJ and vectors on the host */
  PetscCall(DMSetMatType(dah, MATAIJ));
  PetscCall(DMSetVecType(dah, VECSTANDARD));
  PetscCall(CreateAssembled(dah, &R));
  PetscCall(MatCreateVecs(S, &x, &y));
  PetscCall(MatGetLocalSize(S, &n, NULL));
  PetscCall(VecDuplicate(y, &w));
  PetscCall(VecDuplicate(y, &w2));
  PetscCall(MatCreateVecs(R, NULL, &yr));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(VecSetRandom(x, rnd));
  {
    const PetscScalar *xa;
    Vec                xh;

    PetscCall(VecDuplicate(yr, &xh));
    PetscCall(VecGetArrayRead(x, &xa));
    PetscCall(VecPlaceArray(xh, xa));
    PetscCall(MatMult(R, xh, yr));
    PetscCall(VecResetArray(xh));
    PetscCall(VecRestoreArrayRead(x, &xa));
    PetscCall(VecDestroy(&xh));
  }
  for (PetscInt k = 0; k < (sh->gpu ? 2 : 1); k++) {
    const PetscScalar *ya, *yra;
    PetscReal          dmax = 0;

    sh->kernel = (Poisson2DKernel)k;
    PetscCall(MatMult(S, x, y));
    PetscCall(VecGetArrayRead(y, &ya));
    PetscCall(VecGetArrayRead(yr, &yra));
    for (PetscInt i = 0; i < n; i++) dmax = PetscMax(dmax, PetscAbsScalar(ya[i] - yra[i]));
    PetscCall(VecRestoreArrayRead(y, &ya));
    PetscCall(VecRestoreArrayRead(yr, &yra));
    PetscCallMPI(MPIU_Allreduce(&dmax, &d, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
    PetscCheck(d <= 1e-14, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s stencil product differs from the assembled one by %g", sh->gpu ? (k ? "shared-memory GPU" : "global-memory GPU") : "host", (double)d);
    if (sh->size == 1) { /* single precision through MatJaggedMultSingle(), against the double product */
      PetscJaggedScalarSingle *xs, *ys;
      const PetscScalar       *xa;
      PetscScalar             *wa;

      PetscCall(PetscMalloc2(n, &xs, n, &ys));
      PetscCall(VecGetArrayRead(x, &xa));
      for (PetscInt i = 0; i < n; i++) xs[i] = (PetscJaggedScalarSingle)xa[i];
      PetscCall(VecRestoreArrayRead(x, &xa));
      if (sh->gpu) PetscCall(Poisson2DMultSingleDevice(S, n, xs, ys));
      else PetscCall(MatJaggedMultSingle(S, xs, ys));
      PetscCall(VecGetArrayWrite(w, &wa));
      for (PetscInt i = 0; i < n; i++) wa[i] = (PetscScalar)ys[i];
      PetscCall(VecRestoreArrayWrite(w, &wa));
      PetscCall(PetscFree2(xs, ys));
      PetscCall(RelDiff(w, y, w2, &d));
      PetscCheck(d <= 1e-6, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "single-precision stencil product differs by %g", (double)d);
    }
  }
  sh->kernel = kernel;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "stencil products match the assembled matrix (%s)\n", sh->gpu ? "GPU kernels: global and shared memory" : "host twin"));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&w));
  PetscCall(VecDestroy(&w2));
  PetscCall(VecDestroy(&yr));
  PetscCall(MatDestroy(&R));
  PetscCall(DMDestroy(&dah));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt  Ns[16] = {32, 64, 128, 256}, nN = 16;
  char      op[16] = "shell", kname[16] = "global";
  PetscBool set, check = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscJaggedInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "2D Poisson (seed 004, Table 1)", NULL);
  PetscCall(PetscOptionsIntArray("-N", "grid sizes", NULL, Ns, &nN, &set));
  if (!set) nN = 4;
  PetscCall(PetscOptionsString("-op", "shell or assembled", NULL, op, op, sizeof(op), NULL));
  PetscCall(PetscOptionsString("-kernel", "global or shared", NULL, kname, kname, sizeof(kname), NULL));
  PetscCall(PetscOptionsBool("-check", "compare the matrix-free products first", NULL, check, &check, NULL));
  PetscOptionsEnd();
  PetscCheck(!strcmp(op, "shell") || !strcmp(op, "assembled"), PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-op must be shell or assembled, not %s", op);
  PetscCheck(!strcmp(kname, "global") || !strcmp(kname, "shared"), PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-kernel must be global or shared, not %s", kname);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%6s %10s %12s %7s %10s %14s\n", "N", "DOF", "L_inf", "#iter", "time s", "ms/iteration"));
  for (PetscInt t = 0; t < nN; t++) {
    const PetscInt     N = Ns[t];
    DM                 da;
    Mat                A;
    Vec                x, b, u;
    KSP                ksp;
    PC                 pc;
    PetscInt           its;
    PetscReal          err;
    PetscLogDouble     t0, t1;
    KSPConvergedReason reason;
    PetscBool          gpu;
    char              *cuda;
    VecType            vtype;

    PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, N, N, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
    PetscCall(DMSetFromOptions(da));
    PetscCall(DMSetUp(da));
    if (!strcmp(op, "shell")) PetscCall(CreateShell(da, strcmp(kname, "shared") ? POISSON2D_GLOBAL : POISSON2D_SHARED, &A));
    else PetscCall(CreateAssembled(da, &A));
    if (check && !strcmp(op, "shell")) PetscCall(Check(da, A, strcmp(kname, "shared") ? POISSON2D_GLOBAL : POISSON2D_SHARED));
    PetscCall(DMCreateGlobalVector(da, &x));
    PetscCall(VecDuplicate(x, &b));
    PetscCall(VecDuplicate(x, &u));
    PetscCall(VecGetType(x, &vtype));
    PetscCall(PetscStrstr(vtype, "cuda", &cuda));
    gpu = (PetscBool)(cuda != NULL);
    PetscCall(Problem(da, b, u));
    PetscCall(VecSet(x, 0.0));

    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPCG));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCNONE));
    PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED)); /* the paper's test: ||r|| <= 1e-6 ||b|| */
    PetscCall(KSPSetTolerances(ksp, 1e-6, 1e-300, PETSC_CURRENT, 100000));
    PetscCall(KSPSetFromOptions(ksp));
    if (gpu) PetscCall(PetscDeviceContextSynchronize(NULL));
    PetscCall(PetscBarrier(NULL));
    PetscCall(PetscTime(&t0));
    PetscCall(KSPSolve(ksp, b, x));
    if (gpu) PetscCall(PetscDeviceContextSynchronize(NULL));
    PetscCall(PetscTime(&t1));
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "N = %" PetscInt_FMT ": %s", N, KSPConvergedReasons[reason]);
    PetscCall(VecAXPY(x, -1.0, u));
    PetscCall(VecNorm(x, NORM_INFINITY, &err));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%6" PetscInt_FMT " %10" PetscInt_FMT " %12.4e %7" PetscInt_FMT " %10.4f %14.5f\n", N, N * N, (double)err, its, t1 - t0, 1e3 * (t1 - t0) / PetscMax(its, 1)));
    PetscCall(KSPViewFromOptions(ksp, NULL, "-solver_view"));
    PetscCall(KSPDestroy(&ksp));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&b));
    PetscCall(VecDestroy(&u));
    PetscCall(MatJaggedSetMultSingle(A, NULL)); /* a composed function is removed by whoever composed it */
    PetscCall(MatDestroy(&A));
    PetscCall(DMDestroy(&da));
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   build:
      depends: poisson2dstencil.cu

   # Table 1 of the seed-004 paper to the printed digits: N, unknowns, max-norm error, iterations
   # (compared exactly; the timing columns are left out)
   testset:
      filter: sed -E "s/ +[0-9.]+ +[0-9.]+$//"
      diff_args: -j
      output_file: output/poisson2d_table1.out
      test:
         suffix: table1_shell
         args: -check
         output_file: output/poisson2d_table1_check.out
      test:
         suffix: table1_assembled
         args: -op assembled
      test:
         suffix: table1_shell_np2
         nsize: 2
         args: -check
         output_file: output/poisson2d_table1_check.out
      test:
         suffix: gpu_table1_global
         requires: cuda_device
         args: -kernel global -check -dm_vec_type cuda -use_gpu_aware_mpi 0
         output_file: output/poisson2d_gpu_table1_check.out
      test:
         suffix: gpu_table1_shared
         requires: cuda_device
         args: -kernel shared -check -dm_vec_type cuda -use_gpu_aware_mpi 0
         output_file: output/poisson2d_gpu_table1_check.out
      test:
         suffix: gpu_table1_aijcusparse
         requires: cuda_device
         args: -op assembled -dm_mat_type aijcusparse -dm_vec_type cuda -use_gpu_aware_mpi 0
      test:
         suffix: gpu_table1_pjdscuda
         requires: cuda_device
         args: -op assembled -dm_mat_type pjdscuda -dm_vec_type cuda -use_gpu_aware_mpi 0
      test:
         suffix: gpu_table1_shell_np2
         requires: cuda_device
         nsize: 2
         args: -check -dm_vec_type cuda -use_gpu_aware_mpi 0
         output_file: output/poisson2d_gpu_table1_check.out

   # MPCG on the single-precision stencil: the error of Table 1's N = 256 row within 0.2 %
   test:
      suffix: mpcg_shell
      args: -N 256 -ksp_type mpcg -solver_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/bound " 65536" 4.99e-05 | ${PETSCJAGGED_DIR}/tests/harness/keep "65536 <= [0-9.e-]+|the matrix.s own single-precision product"
   test:
      suffix: gpu_mpcg_shell
      requires: cuda_device
      args: -N 256 -ksp_type mpcg -solver_view -dm_vec_type cuda -use_gpu_aware_mpi 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/bound " 65536" 4.99e-05 | ${PETSCJAGGED_DIR}/tests/harness/keep "65536 <= [0-9.e-]+|the matrix.s own single-precision product|on the GPU" | sort -u

   test:
      suffix: bad_op
      args: -op csr
      filter: Error: ${PETSCJAGGED_DIR}/tests/harness/keep "[-]op must be shell or assembled|Segmentation|signal [0-9]+" | sort -u

TEST*/
