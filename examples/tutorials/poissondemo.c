static char help[] = "Solves the 3D Poisson equation (7-point, DMDA) with CG + Jacobi twice: with PETSc's default GPU\n\
matrix (aijcusparse) and with petsc-jagged's pjdscuda, and prints both times.\n\
Without a GPU it says so and runs the CPU path (aij, and pjdscuda's host kernels).\n\
  -n <64>                   grid points per direction\n\
  -types <aijcusparse,pjdscuda> the matrix types to compare (on the GPU)\n\n";

#include <petscdmda.h>
#include <petscksp.h>
#include <petscjagged.h>
#include <petscdevice_cuda.h>

/* The 7-point Laplacian on the DMDA's grid, Dirichlet boundary folded in */
static PetscErrorCode AssembleLaplacian(DM da, Mat A)
{
  DMDALocalInfo info;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetLocalInfo(da, &info));
  for (PetscInt k = info.zs; k < info.zs + info.zm; k++)
    for (PetscInt j = info.ys; j < info.ys + info.ym; j++)
      for (PetscInt i = info.xs; i < info.xs + info.xm; i++) {
        MatStencil  row = {k, j, i, 0}, col[7];
        PetscScalar v[7];
        PetscInt    n = 0;

        col[n] = row, v[n++] = 6.0;
        if (i > 0) col[n] = (MatStencil){k, j, i - 1, 0}, v[n++] = -1.0;
        if (i < info.mx - 1) col[n] = (MatStencil){k, j, i + 1, 0}, v[n++] = -1.0;
        if (j > 0) col[n] = (MatStencil){k, j - 1, i, 0}, v[n++] = -1.0;
        if (j < info.my - 1) col[n] = (MatStencil){k, j + 1, i, 0}, v[n++] = -1.0;
        if (k > 0) col[n] = (MatStencil){k - 1, j, i, 0}, v[n++] = -1.0;
        if (k < info.mz - 1) col[n] = (MatStencil){k + 1, j, i, 0}, v[n++] = -1.0;
        PetscCall(MatSetValuesStencil(A, 1, &row, n, col, v, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Solves A x = A 1 with matrix type mtype; reports iterations, time of KSPSolve() and the error */
static PetscErrorCode Solve(DM da, MatType mtype, PetscBool gpu)
{
  Mat            A;
  Vec            x, b, one;
  KSP            ksp;
  PetscInt       its;
  PetscReal      err;
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  PetscCall(DMSetMatType(da, mtype));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(AssembleLaplacian(da, A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &one));
  PetscCall(VecSet(one, 1.0));
  PetscCall(MatMult(A, one, b));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  {
    PC pc;
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCJACOBI));
  }
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_CURRENT, PETSC_CURRENT, 10000));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp));
  PetscCall(VecSet(x, 0.0));
  PetscCall(KSPSolve(ksp, b, x)); /* warm-up: first-use costs stay out of the timing */
  PetscCall(VecSet(x, 0.0));
  if (gpu) PetscCallCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(ksp, b, x));
  if (gpu) PetscCallCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(&t1));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(VecAXPY(x, -1.0, one));
  PetscCall(VecNorm(x, NORM_INFINITY, &err));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-12s %5" PetscInt_FMT " iterations %9.4f s  %8.3f ms/iteration  max error %.2e\n", mtype, its, t1 - t0, 1e3 * (t1 - t0) / PetscMax(its, 1), (double)err));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&one));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM        da;
  PetscInt  n = 64;
  int       ngpus = 0;
  PetscBool gpu;
  char     *types[8];
  PetscInt  ntypes = 8;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscJaggedInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-types", types, &ntypes, &gpu));
  if (!gpu) {
    PetscCall(PetscStrallocpy(MATAIJCUSPARSE, &types[0]));
    PetscCall(PetscStrallocpy(MATPJDSCUDA, &types[1]));
    ntypes = 2;
  }
  gpu = (PetscBool)(cudaGetDeviceCount(&ngpus) == cudaSuccess && ngpus > 0);
  (void)cudaGetLastError();
  PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "3D Poisson, %" PetscInt_FMT "^3 = %" PetscInt_FMT " unknowns, CG + Jacobi to rtol 1e-8\n", n, n * n * n));
  if (gpu) {
    PetscCall(DMSetVecType(da, VECCUDA));
    for (PetscInt t = 0; t < ntypes; t++) PetscCall(Solve(da, types[t], gpu));
  } else {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "No GPU here: solving on the CPU with aij and with pjdscuda's host reference kernels\n"));
    PetscCall(PetscOptionsSetValue(NULL, "-mat_jagged_host", "1"));
    PetscCall(Solve(da, MATAIJ, gpu));
    PetscCall(Solve(da, MATPJDSCUDA, gpu));
  }
  for (PetscInt t = 0; t < ntypes; t++) PetscCall(PetscFree(types[t]));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: cpu
      requires: !cuda_device
      nsize: 2
      args: -n 24
      filter: ${PETSCJAGGED_DIR}/tests/harness/bound "max error" 1e-5 | ${PETSCJAGGED_DIR}/tests/harness/keep "No GPU here|^ *[a-z]+ +[0-9]+ iterations|max error <?=? ?[^ ]+"

   test:
      suffix: gpu
      requires: cuda_device
      args: -use_gpu_aware_mpi 0 -n 96
      filter: ${PETSCJAGGED_DIR}/tests/harness/bound "max error" 1e-5 | ${PETSCJAGGED_DIR}/tests/harness/keep "^ *(aijcusparse|pjdscuda) |max error <?=? ?[^ ]+"

TEST*/
