static char help[] = "Complex Helmholtz problem of 'helmholtz-krylov-complex-gpu' (seed 003) solved by PETSc's Krylov\n\
methods on the GPU types: -Laplace u - k^2 u = g on the unit cube, 7-point finite differences on\n\
n^3 interior points, u = 0 on the face z = 0 (Dirichlet), a first-order absorbing condition\n\
du/dn = i k u on the five other faces (a complex diagonal: the matrix is complex symmetric), g a\n\
point source at the centre; the wavenumber from the points per wavelength, k = 2 pi / (ppw h).\n\
For every matrix type and solver listed it prints the iterations, the time of the solve (set-up\n\
included) and the true relative residual, and checks that all solutions agree.\n\
  -n <32>                         interior points per direction\n\
  -ppw <10>                       points per wavelength\n\
  -mat_types <aijcusparse,pjdscuda>  matrix types (aij, aijcusparse, jdscuda, pjdscuda, ...)\n\
  -solvers <bcgs,bcgsl,tfqmr,gmres,cagmres>  KSP types, each with its own options (-ksp_..., -pc_type)\n\
  -agree_tol <1e-4>               largest relative difference allowed between the solutions\n\
Vectors: -vec_type cuda on a GPU (standard otherwise); -use_gpu_aware_mpi 0 with an MPI that is not\n\
CUDA-aware. Needs a complex-scalar PETSc.\n\n";

#include <petscdmda.h>
#include <petscksp.h>
#include <petscdevice.h>
#include <petscjagged.h>

#if defined(PETSC_USE_COMPLEX)
/* h^2 (-Laplace - k^2) with the absorbing faces folded into the diagonal: a missing neighbour across an absorbing face is (1 + i k h) u */
static PetscErrorCode Assemble(DM da, PetscReal kh, Mat A)
{
  DMDALocalInfo     info;
  const PetscScalar absorb = 1.0 + PETSC_i * kh;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetLocalInfo(da, &info));
  for (PetscInt k = info.zs; k < info.zs + info.zm; k++)
    for (PetscInt j = info.ys; j < info.ys + info.ym; j++)
      for (PetscInt i = info.xs; i < info.xs + info.xm; i++) {
        const PetscInt pos[3] = {i, j, k}, dim[3] = {info.mx, info.my, info.mz};
        MatStencil     row = {k, j, i, 0}, col[7];
        PetscScalar    v[7], diag = 6.0 - kh * kh;
        PetscInt       nc = 1;

        for (PetscInt d = 0; d < 3; d++)
          for (PetscInt side = 0; side < 2; side++) {
            const PetscInt p = pos[d] + (side ? 1 : -1);
            MatStencil     c = row;

            if (p < 0 || p >= dim[d]) {
              if (!(d == 2 && side == 0)) diag -= absorb; /* z = 0 is the Dirichlet face: the neighbour is 0 */
              continue;
            }
            if (d == 0) c.i = p;
            else if (d == 1) c.j = p;
            else c.k = p;
            col[nc] = c;
            v[nc++] = -1.0;
          }
        col[0] = row;
        v[0]   = diag;
        PetscCall(MatSetValuesStencil(A, 1, &row, nc, col, v, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* h^2 g: a unit point source at the centre */
static PetscErrorCode Source(DM da, Vec b)
{
  DMDALocalInfo info;
  PetscInt      c;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetLocalInfo(da, &info));
  PetscCall(VecSet(b, 0.0));
  c = info.mx / 2;
  { /* every process gets and restores the array, so that all drop the norms VecSet() cached */
    PetscScalar ***ba;

    PetscCall(DMDAVecGetArray(da, b, &ba));
    if (c >= info.xs && c < info.xs + info.xm && c >= info.ys && c < info.ys + info.ym && c >= info.zs && c < info.zs + info.zm) ba[c][c][c] = 1.0;
    PetscCall(DMDAVecRestoreArray(da, b, &ba));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

int main(int argc, char **argv)
{
#if defined(PETSC_USE_COMPLEX)
  PetscInt  n = 32, ntypes = 8, nsolvers = 8, nsol = 0;
  PetscReal ppw = 10, agree = 1e-4, worst = 0;
  char     *types[8], *solvers[8];
  PetscBool set;
  DM        da;
  Vec       b, r;
  PetscScalar *first = NULL; /* the first solution, local part on the host: the reference */

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscJaggedInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Complex Helmholtz (seed 003)", NULL);
  PetscCall(PetscOptionsInt("-n", "interior points per direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsReal("-ppw", "points per wavelength", NULL, ppw, &ppw, NULL));
  PetscCall(PetscOptionsStringArray("-mat_types", "matrix types", NULL, types, &ntypes, &set));
  if (!set) {
    ntypes = 2;
    PetscCall(PetscStrallocpy(MATAIJCUSPARSE, &types[0]));
    PetscCall(PetscStrallocpy(MATPJDSCUDA, &types[1]));
  }
  PetscCall(PetscOptionsStringArray("-solvers", "KSP types", NULL, solvers, &nsolvers, &set));
  if (!set) {
    const char *def[] = {KSPBCGS, KSPBCGSL, KSPTFQMR, KSPGMRES, "cagmres"};

    nsolvers = 5;
    for (PetscInt s = 0; s < nsolvers; s++) PetscCall(PetscStrallocpy(def[s], &solvers[s]));
  }
  PetscCall(PetscOptionsReal("-agree_tol", "largest relative difference between the solutions", NULL, agree, &agree, NULL));
  PetscOptionsEnd();
  PetscCheck(n >= 2 && ppw >= 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "Need -n >= 2 and -ppw >= 2");

  PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  {
    const PetscReal h = 1.0 / (n + 1), kh = 2 * PETSC_PI / ppw;

    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Helmholtz n = %" PetscInt_FMT " (%" PetscInt_FMT " unknowns), k = %.2f (%.1f points per wavelength)\n", n, n * n * n, (double)(kh / h), (double)ppw));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-14s %-9s %7s %10s %16s %12s\n", "matrix", "solver", "its", "time s", "true rel. res.", "vs first"));
    for (PetscInt t = 0; t < ntypes; t++) {
      Mat A;

      PetscCall(DMSetMatType(da, types[t]));
      PetscCall(DMCreateMatrix(da, &A));
      PetscCall(Assemble(da, kh, A));
      PetscCall(MatCreateVecs(A, NULL, &b));
      PetscCall(VecDuplicate(b, &r));
      PetscCall(Source(da, b));
      for (PetscInt s = 0; s < nsolvers; s++) {
        KSP                ksp;
        Vec                x;
        PetscInt           its;
        PetscReal          res, bn, diff = 0;
        PetscLogDouble     t0, t1;
        KSPConvergedReason reason;
        VecType            vtype;
        char              *cuda;
        PetscInt           nloc;

        PetscCall(VecDuplicate(b, &x));
        PetscCall(VecGetType(x, &vtype));
        PetscCall(PetscStrstr(vtype, "cuda", &cuda)); /* wait for the device around the timing */
        PetscCall(VecGetLocalSize(x, &nloc));
        PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
        PetscCall(KSPSetOperators(ksp, A, A));
        PetscCall(KSPSetType(ksp, solvers[s]));
        PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_CURRENT, PETSC_CURRENT, 20000));
        PetscCall(KSPSetFromOptions(ksp));
        PetscCall(KSPSetType(ksp, solvers[s])); /* the list decides, -ksp_type aside */
        if (cuda) PetscCall(PetscDeviceContextSynchronize(NULL));
        PetscCall(PetscBarrier(NULL));
        PetscCall(PetscTime(&t0));
        PetscCall(KSPSolve(ksp, b, x));
        if (cuda) PetscCall(PetscDeviceContextSynchronize(NULL));
        PetscCall(PetscTime(&t1));
        PetscCall(KSPGetIterationNumber(ksp, &its));
        PetscCall(KSPGetConvergedReason(ksp, &reason));
        PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%s with %s: %s after %" PetscInt_FMT " iterations", solvers[s], types[t], KSPConvergedReasons[reason], its);
        PetscCall(MatMult(A, x, r));
        PetscCall(VecAYPX(r, -1.0, b));
        PetscCall(VecNorm(r, NORM_2, &res));
        PetscCall(VecNorm(b, NORM_2, &bn));
        {
          const PetscScalar *xa;
          PetscReal          loc[2] = {0, 0}, glob[2];

          PetscCall(VecGetArrayRead(x, &xa));
          if (!first) {
            PetscCall(PetscMalloc1(nloc, &first));
            PetscCall(PetscArraycpy(first, xa, nloc));
          }
          for (PetscInt i = 0; i < nloc; i++) {
            loc[0] += PetscRealPart(PetscConj(xa[i] - first[i]) * (xa[i] - first[i]));
            loc[1] += PetscRealPart(PetscConj(first[i]) * first[i]);
          }
          PetscCall(VecRestoreArrayRead(x, &xa));
          PetscCallMPI(MPIU_Allreduce(loc, glob, 2, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
          diff  = PetscSqrtReal(glob[0] / glob[1]);
          worst = PetscMax(worst, diff);
        }
        nsol++;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-14s %-9s %7" PetscInt_FMT " %10.4f %16.2e %12.2e\n", types[t], solvers[s], its, t1 - t0, (double)(res / bn), (double)diff));
        PetscCall(KSPDestroy(&ksp));
        PetscCall(VecDestroy(&x));
      }
      PetscCall(VecDestroy(&b));
      PetscCall(VecDestroy(&r));
      PetscCall(MatDestroy(&A));
    }
  }
  PetscCheck(worst <= agree, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "solutions differ by %g (relative), above -agree_tol %g", (double)worst, (double)agree);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " solutions agree within %.1e (relative)\n", nsol, (double)worst));
  PetscCall(PetscFree(first));
  for (PetscInt t = 0; t < ntypes; t++) PetscCall(PetscFree(types[t]));
  for (PetscInt s = 0; s < nsolvers; s++) PetscCall(PetscFree(solvers[s]));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
#else
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "helmholtz needs a PETSc with complex scalars (build/complex)\n"));
  PetscCall(PetscFinalize());
  return 0;
#endif
}

/*TEST

   # every solver reaches its tolerance (true relative residual below 1e-8) and all solutions agree
   testset:
      requires: complex
      filter: sed -E "s/ +[0-9]+ +[0-9]+\.[0-9]{4} / res /" | ${PETSCJAGGED_DIR}/tests/harness/bound " res" 1e-8 | grep -E " res |solutions agree"
      test:
         suffix: cpu
         args: -n 16 -mat_types aij,pjdscuda -mat_jagged_host -pc_type jacobi
      test:
         suffix: cpu_np2
         nsize: 2
         args: -n 16 -mat_types aij,pjdscuda -mat_jagged_host -pc_type jacobi
         output_file: output/helmholtz_cpu.out
      test:
         suffix: gpu
         requires: cuda_device
         args: -n 24 -mat_types aijcusparse,pjdscuda -pc_type jacobi -use_gpu_aware_mpi 0
      test:
         # two ranks on one GPU: every product copies the halo through the host and the ranks' contexts
         # take turns on the GPU; -n 24 took 7.7 s alone but over 180 s beside 7 other GPU tests (H100)
         suffix: gpu_np2
         requires: cuda_device
         timeoutfactor: 3
         nsize: 2
         args: -n 16 -mat_types jdscuda,pjdscuda -pc_type jacobi -use_gpu_aware_mpi 0

   test:
      suffix: bad_n
      requires: complex
      args: -n 1
      filter: Error: grep -E -o "Need -n >= 2|Segmentation|signal [0-9]+" | sort -u

TEST*/
