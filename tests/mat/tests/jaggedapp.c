static char help[] = "A Poisson matrix made as applications make one -- MatSetFromOptions() with preallocation and\n\
MatSetValues() (3D, 7-point), DMCreateMatrix() (-dm_mat_type; 2D DMDA, 5-point), or MatLoad() (3D) -- its type from\n\
the options database, checked\n\
against the same matrix of PETSc's own type made the same way (MATAIJCUSPARSE with CUDA vectors, else MATAIJ):\n\
the matrix is not bound to the CPU, its product and its solves (-ksp_types, Jacobi set in code) equal the\n\
reference's, and with CUDA vectors PETSc's copy counters show that a product moves only the ghost values and a\n\
solve moves no whole vector per iteration between host and device (CA-GMRES: none in its Jacobi set-up, the first\n\
solve's). Every failed check is reported.\n\
  -create <setvalues|dm|load>   how the matrix is made\n\
  -n <32>                       grid points per direction (2D DMDA: n^2 x n)\n\
  -f <file>                     -create load: the PETSc binary file written and then loaded\n\
  -ksp_types <cg,mpcg,cagmres>  the solvers, each solving twice (the second solve is the one counted)\n\
  -mat_jagged_kernel, -mat_jagged_single   when given, checked on the matrix made\n\n";

#include <petscjagged.h>
#include <petscdmda.h>
#include "copycounters.h"

static PetscInt nfailed = 0, npassed = 0;

/* Counts a check; reports the failed ones (all of them, not only the first) */
static PetscErrorCode Check(PetscBool ok, const char *what)
{
  PetscFunctionBeginUser;
  if (ok) npassed++;
  else {
    nfailed++;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FAILED: %s\n", what));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The 7-point Poisson matrix on n^3 points (Dirichlet boundary, natural ordering), rows of this process, by global indices */
static PetscErrorCode AssemblePoisson(Mat A, PetscInt n)
{
  PetscInt rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (PetscInt row = rstart; row < rend; row++) {
    const PetscInt i = row % n, j = (row / n) % n, k = row / (n * n);
    PetscInt       cols[7], nc = 0;
    PetscScalar    v[7];

    cols[nc] = row, v[nc++] = 6.0;
    if (i > 0) cols[nc] = row - 1, v[nc++] = -1.0;
    if (i < n - 1) cols[nc] = row + 1, v[nc++] = -1.0;
    if (j > 0) cols[nc] = row - n, v[nc++] = -1.0;
    if (j < n - 1) cols[nc] = row + n, v[nc++] = -1.0;
    if (k > 0) cols[nc] = row - n * n, v[nc++] = -1.0;
    if (k < n - 1) cols[nc] = row + n * n, v[nc++] = -1.0;
    PetscCall(MatSetValues(A, 1, &row, nc, cols, v, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* As an application that builds its matrix itself: type given in code (type) or from the options database (NULL) */
static PetscErrorCode CreateBySetValues(PetscInt n, MatType type, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, n * n * n, n * n * n));
  if (type) PetscCall(MatSetType(*A, type));
  else PetscCall(MatSetFromOptions(*A));
  PetscCall(MatMPIAIJSetPreallocation(*A, 7, NULL, 2, NULL));
  PetscCall(MatSeqAIJSetPreallocation(*A, 7, NULL));
  PetscCall(AssemblePoisson(*A, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* As a DMDA application (PETSc's ex50, say): DMCreateMatrix() in the DM's matrix type, then MatSetValuesStencil(); the
   5-point Laplacian on the 2D DMDA (PETSc's 2D and 3D DMDAs make their matrices by different routines, only the 2D one
   leaves a matrix bound to the CPU as it found it) */
static PetscErrorCode CreateByDM(DM da, Mat *A)
{
  DMDALocalInfo info;

  PetscFunctionBeginUser;
  PetscCall(DMCreateMatrix(da, A));
  PetscCall(DMDAGetLocalInfo(da, &info));
  for (PetscInt j = info.ys; j < info.ys + info.ym; j++)
    for (PetscInt i = info.xs; i < info.xs + info.xm; i++) {
      MatStencil  row = {0, j, i, 0}, col[5];
      PetscScalar v[5];
      PetscInt    nc = 0;

      col[nc] = row, v[nc++] = 4.0;
      if (i > 0) col[nc] = row, col[nc].i = i - 1, v[nc++] = -1.0;
      if (i < info.mx - 1) col[nc] = row, col[nc].i = i + 1, v[nc++] = -1.0;
      if (j > 0) col[nc] = row, col[nc].j = j - 1, v[nc++] = -1.0;
      if (j < info.my - 1) col[nc] = row, col[nc].j = j + 1, v[nc++] = -1.0;
      PetscCall(MatSetValuesStencil(*A, 1, &row, nc, col, v, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* As an application reading a matrix: written by PETSc first (a MATAIJ), then MatCreate(), MatSetFromOptions(), MatLoad() */
static PetscErrorCode CreateByLoad(PetscInt n, const char *file, Mat *A)
{
  Mat         W;
  PetscViewer viewer;

  PetscFunctionBeginUser;
  PetscCall(CreateBySetValues(n, MATAIJ, &W));
  PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, file, FILE_MODE_WRITE, &viewer));
  PetscCall(PetscViewerBinarySetSkipInfo(viewer, PETSC_TRUE));
  PetscCall(MatView(W, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(MatDestroy(&W));
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, file, FILE_MODE_READ, &viewer));
  PetscCall(MatLoad(*A, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  if (PetscGlobalRank == 0) PetscCheck(!remove(file), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "Cannot remove %s", file);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* |a - b|_2 / |b|_2 */
static PetscErrorCode RelativeDifference(Vec a, Vec b, PetscReal *rel)
{
  Vec       d;
  PetscReal nd, nb;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &d));
  PetscCall(VecWAXPY(d, -1.0, b, a));
  PetscCall(VecNorm(d, NORM_2, &nd));
  PetscCall(VecNorm(b, NORM_2, &nb));
  PetscCall(VecDestroy(&d));
  *rel = nd / PetscMax(nb, PETSC_SMALL);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Solves A x = b twice with ksptype and Jacobi (set in code, as many programs do); *its of the second solve, the copy counters of the second solve, *ninner: its inner iterations (MPCG; 0 for the other solvers) */
/*
  Two solves; copies: what the second moved in KSPSolve, MatMult and MatJaggedMultSgl; pcd2h: device-to-host bytes of the
  first in the preconditioner's set-up and applications and the matrix-powers kernel's set-up (PCJACOBI's own set-up
  copies its diagonal to the host and back; CA-GMRES applies the kernel's inverse diagonal instead)
*/
static PetscErrorCode Solve(Mat A, const char *ksptype, Vec b, Vec x, PetscInt *its, KSPConvergedReason *reason, EventCopies copies[3], PetscInt *ninner, PetscLogDouble *pcd2h)
{
  KSP         ksp;
  PC          pc;
  const char *events[3] = {"KSPSolve", "MatMult", "MatJaggedMultSgl"}, *pcevents[3] = {"PCSetUp", "PCApply", "MatPowersSetUp"};
  EventCopies before[3], after[3];
  PetscBool   mpcg;
  PetscInt    inner0 = 0;

  PetscFunctionBeginUser;
  *ninner = 0;
  *pcd2h  = 0;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, ksptype));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_CURRENT, PETSC_CURRENT, 2000));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecSet(x, 0.0));
  for (PetscInt e = 0; e < 3; e++) PetscCall(EventCopiesGet(pcevents[e], &before[e]));
  PetscCall(KSPSolve(ksp, b, x)); /* the first solve makes the formats and copies */
  for (PetscInt e = 0; e < 3; e++) {
    PetscCall(EventCopiesGet(pcevents[e], &after[e]));
    *pcd2h += EventCopiesDiff(after[e], before[e]).d2h;
  }
  PetscCall(VecSet(x, 0.0));
  for (PetscInt e = 0; e < 3; e++) PetscCall(EventCopiesGet(events[e], &before[e]));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPMPCG, &mpcg));
  if (mpcg) PetscCall(KSPMPCGGetInnerIterations(ksp, NULL, &inner0));
  PetscCall(KSPSolve(ksp, b, x));
  for (PetscInt e = 0; e < 3; e++) {
    PetscCall(EventCopiesGet(events[e], &after[e]));
    copies[e] = EventCopiesDiff(after[e], before[e]);
  }
  if (mpcg) PetscCall(KSPMPCGGetInnerIterations(ksp, NULL, ninner));
  *ninner -= inner0;
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char        create[16] = "setvalues", file[PETSC_MAX_PATH_LEN] = "jaggedapp.bin", msg[512], *ksptypes[8];
  PetscInt    n = 32, nksp = 8, nrecv = 0, nsend = 0, m;
  PetscMPIInt size;
  PetscBool   gpu, bound, jagged, flg;
  DM          da = NULL;
  Mat         A, R;
  Vec         x, y, yr, w, b, xr;
  MatType     type;
  VecType     vtype;
  PetscRandom rnd;
  PetscReal   rel;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscLogDefaultBegin()); /* the copy counters */
  PetscCall(PetscJaggedInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-create", create, sizeof(create), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", file, sizeof(file), NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-ksp_types", ksptypes, &nksp, &flg));
  if (!flg) {
    const char *def[3] = {KSPCG, KSPMPCG, KSPCAGMRES};

    nksp = 3;
    for (PetscInt k = 0; k < nksp; k++) PetscCall(PetscStrallocpy(def[k], &ksptypes[k]));
  }

  /* the matrix under test, and the reference made the same way in PETSc's own type */
  if (!strcmp(create, "setvalues")) PetscCall(CreateBySetValues(n, NULL, &A));
  else if (!strcmp(create, "load")) PetscCall(CreateByLoad(n, file, &A));
  else {
    PetscCheck(!strcmp(create, "dm"), PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-create must be setvalues, dm or load, not %s", create);
    PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n * n, n, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
    PetscCall(DMSetFromOptions(da));
    PetscCall(DMSetUp(da));
    PetscCall(CreateByDM(da, &A));
  }
  PetscCall(MatGetType(A, &type));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecGetType(x, &vtype));
  PetscCall(PetscStrendswith(vtype, VECCUDA, &gpu));
  PetscCall(PetscStrendswith(type, MATJDSCUDA, &jagged));
  PetscCheck(jagged, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "Give a jagged type (-mat_type or -dm_mat_type pjdscuda|jdscuda), not %s", type);
  { /* the matrix options given read by MatSetFromOptions(), whichever way it was made */
    MatJaggedKernel kernel, expect_kernel;
    PetscBool       single, expect_single;

    PetscCall(PetscOptionsGetEnum(NULL, NULL, "-mat_jagged_kernel", MatJaggedKernels, (PetscEnum *)&expect_kernel, &flg));
    if (flg) {
      PetscCall(MatJaggedGetKernel(A, &kernel, NULL));
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s made by %s has the kernel %s of -mat_jagged_kernel %s", type, create, MatJaggedKernels[kernel], MatJaggedKernels[expect_kernel]));
      PetscCall(Check((PetscBool)(kernel == expect_kernel), msg));
    }
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_jagged_single", &expect_single, &flg));
    if (flg) {
      PetscCall(MatJaggedGetSinglePrecision(A, &single));
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s made by %s keeps a single-precision copy: %d, -mat_jagged_single %d", type, create, (int)single, (int)expect_single));
      PetscCall(Check((PetscBool)(single == expect_single), msg));
    }
  }
  if (da) {
    PetscCall(DMSetMatType(da, gpu ? MATAIJCUSPARSE : MATAIJ));
    PetscCall(CreateByDM(da, &R));
  } else PetscCall(CreateBySetValues(n, gpu ? MATAIJCUSPARSE : MATAIJ, &R));

  /* bound to the CPU only when the user binds it */
  PetscCall(MatBoundToCPU(A, &bound));
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s made by %s is %sbound to the CPU", type, create, bound ? "" : "not "));
  PetscCall(Check((PetscBool)!bound, msg));

  /* the product equals the reference's */
  PetscCall(MatCreateVecs(R, NULL, &yr));
  PetscCall(VecDuplicate(x, &w));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetFromOptions(rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(VecSetRandom(w, rnd));
  PetscCall(MatMult(A, x, y));
  PetscCall(MatMult(R, x, yr));
  PetscCall(RelativeDifference(y, yr, &rel));
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "MatMult of %s made by %s against %s: relative difference %g", type, create, gpu ? MATAIJCUSPARSE : MATAIJ, (double)rel));
  PetscCall(Check((PetscBool)(rel <= 1e3 * PETSC_MACHINE_EPSILON), msg));

  /* a product moves only the ghost values: x changed on the device before each, y read there after */
  PetscCall(VecGetLocalSize(x, &m));
  if (size > 1) PetscCall(MatGhostCounts(A, &nrecv, &nsend));
  if (gpu) {
    const PetscInt nmult = 10;
    EventCopies    before, after, d;
    PetscReal      norm;

    PetscCall(EventCopiesGet("MatMult", &before));
    for (PetscInt k = 0; k < nmult; k++) {
      PetscCall(VecAXPY(x, 1e-3, w));
      PetscCall(MatMult(A, x, y));
      PetscCall(VecNorm(y, NORM_2, &norm));
    }
    PetscCall(EventCopiesGet("MatMult", &after));
    d = EventCopiesDiff(after, before);
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "%" PetscInt_FMT " products moved %g bytes host to device and %g device to host; the ghost values are %" PetscInt_FMT " received and %" PetscInt_FMT " sent (first process)", nmult, d.h2d, d.d2h, nrecv, nsend));
    PetscCall(Check((PetscBool)(d.h2d <= nmult * nrecv * sizeof(PetscScalar) && d.d2h <= nmult * nsend * sizeof(PetscScalar)), msg));
  }

  /* the solvers: the solution equals the reference's; with GPU vectors no whole vector crosses per iteration */
  PetscCall(VecDuplicate(x, &b));
  PetscCall(VecDuplicate(x, &xr));
  PetscCall(VecSet(b, 1.0));
  for (PetscInt k = 0; k < nksp; k++) {
    PetscInt           its, itsr, ninner, ninnerr;
    PetscLogDouble     pcd2h, pcd2hr;
    PetscBool          cagmres;
    KSPConvergedReason reason, reasonr;
    EventCopies        c[3], cr[3];

    PetscCall(Solve(A, ksptypes[k], b, x, &its, &reason, c, &ninner, &pcd2h));
    PetscCall(Solve(R, ksptypes[k], b, xr, &itsr, &reasonr, cr, &ninnerr, &pcd2hr));
    PetscCall(RelativeDifference(x, xr, &rel));
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s with %s: %s in %" PetscInt_FMT " iterations (reference %s in %" PetscInt_FMT "), solutions differ by %g", ksptypes[k], type, KSPConvergedReasons[reason], its, KSPConvergedReasons[reasonr], itsr, (double)rel));
    PetscCall(Check((PetscBool)(reason > 0 && reasonr > 0 && rel <= 1e-6), msg));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", msg));
    if (gpu) {
      /* allowed: the ghost values of each product in its precision, and a quarter of a vector per iteration for the rest (scalars, the
         matrix-powers halo); the single-precision products are the type's own (MatJaggedMultSgl) or, where MPCG's inner CG multiplies
         with a copy of its own (the DIA copy of a stencil), one an inner iteration */
      const PetscLogDouble nsingle = (PetscLogDouble)PetscMax(c[2].count, ninner);
      const PetscLogDouble ghosts  = (PetscLogDouble)(nrecv + nsend) * (c[1].count * sizeof(PetscScalar) + nsingle * sizeof(PetscScalar) / 2);
      const PetscLogDouble moved   = c[0].h2d + c[0].d2h, vec = (PetscLogDouble)m * sizeof(PetscScalar);

      PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s with %s: the second solve moved %g bytes between host and device, %g beyond the ghost values of its products: %.3g vectors an iteration", ksptypes[k], type, moved, moved - ghosts, (moved - ghosts) / (vec * PetscMax(its, 1))));
      PetscCall(Check((PetscBool)(moved - ghosts <= 0.25 * vec * PetscMax(its, 1)), msg));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", msg));
      PetscCall(PetscStrcmp(ksptypes[k], KSPCAGMRES, &cagmres));
      if (cagmres) { /* Jacobi from the kernel's inverse diagonal: no diagonal through the host (the reference's PCJACOBI moves one) */
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s with %s: the first solve: its Jacobi and kernel set-up moved %g bytes device to host (a vector is %g; the reference's solve %g)", ksptypes[k], type, pcd2h, vec, pcd2hr));
        PetscCall(Check((PetscBool)(pcd2h < 0.25 * vec), msg));
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", msg));
      }
    }
  }

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s made by %s on %d processes: %" PetscInt_FMT " checks passed, %" PetscInt_FMT " failed\n", type, create, size, npassed, nfailed));
  PetscCheck(!nfailed, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " checks failed", nfailed);
  for (PetscInt k = 0; k < nksp; k++) PetscCall(PetscFree(ksptypes[k]));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&yr));
  PetscCall(VecDestroy(&w));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xr));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # the matrix made as applications make it: MatSetFromOptions + MatSetValues, DMCreateMatrix, MatLoad
   testset:
      args: -n 16 -mat_jagged_host -f app.bin
      test:
         suffix: setvalues_pjds
         nsize: 2
         args: -create setvalues -mat_type pjdscuda
      test:
         suffix: dm_pjds
         nsize: 2
         args: -create dm -dm_mat_type pjdscuda
      test:
         suffix: load_pjds
         nsize: 2
         args: -create load -mat_type pjdscuda
      test:
         suffix: setvalues_jds
         nsize: 2
         args: -create setvalues -mat_type jdscuda
      test:
         suffix: dm_jds
         nsize: 2
         args: -create dm -dm_mat_type jdscuda
      test:
         suffix: load_jds
         nsize: 2
         args: -create load -mat_type jdscuda
      test:
         suffix: setvalues_pjds_np1
         args: -create setvalues -mat_type pjdscuda
      test:
         suffix: dm_pjds_np1
         args: -create dm -dm_mat_type pjdscuda
      test:
         suffix: load_pjds_np1
         args: -create load -mat_type pjdscuda
      # the matrix options reach the matrix (and its blocks) whichever way it is made
      test:
         suffix: setvalues_pjds_options
         nsize: 2
         args: -create setvalues -mat_type pjdscuda -mat_jagged_kernel jagged -mat_jagged_single
      test:
         suffix: dm_pjds_options
         nsize: 2
         args: -create dm -dm_mat_type pjdscuda -mat_jagged_kernel jagged -mat_jagged_single
      test:
         suffix: load_jds_options
         nsize: 2
         args: -create load -mat_type jdscuda -mat_jagged_kernel jagged -mat_jagged_single

   # on the GPU: GPU residency by PETSc's copy counters (the program checks them; the reference keeps its verdicts)
   testset:
      requires: cuda_device
      timeoutfactor: 5
      args: -use_gpu_aware_mpi 0 -f app.bin
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "FAILED.*|^[a-z]+ with [a-z]+: CONVERGED_[A-Z]+|the second solve moved|the first solve: its Jacobi and kernel set-up moved|checks passed, [0-9]+ failed"
      test:
         suffix: gpu_setvalues_pjds
         nsize: 2
         args: -create setvalues -mat_type pjdscuda
      test:
         suffix: gpu_dm_pjds
         nsize: 2
         args: -create dm -dm_mat_type pjdscuda -dm_vec_type cuda
      test:
         suffix: gpu_load_pjds
         nsize: 2
         args: -create load -mat_type pjdscuda
      test:
         suffix: gpu_setvalues_jds
         nsize: 2
         args: -create setvalues -mat_type jdscuda
      test:
         suffix: gpu_dm_jds
         nsize: 2
         args: -create dm -dm_mat_type jdscuda -dm_vec_type cuda
      test:
         suffix: gpu_load_jds
         nsize: 2
         args: -create load -mat_type jdscuda
      test:
         suffix: gpu_setvalues_pjds_np1
         args: -create setvalues -mat_type pjdscuda
      test:
         suffix: gpu_dm_pjds_np1
         args: -create dm -dm_mat_type pjdscuda -dm_vec_type cuda
      test:
         suffix: gpu_load_pjds_np1
         args: -create load -mat_type pjdscuda
      test:
         suffix: gpu_setvalues_pjds_options
         nsize: 2
         args: -create setvalues -mat_type pjdscuda -mat_jagged_kernel jagged -mat_jagged_single
      test:
         suffix: gpu_dm_pjds_options
         nsize: 2
         args: -create dm -dm_mat_type pjdscuda -dm_vec_type cuda -mat_jagged_kernel jagged -mat_jagged_single
      test:
         suffix: gpu_load_jds_options
         nsize: 2
         args: -create load -mat_type jdscuda -mat_jagged_kernel jagged -mat_jagged_single

TEST*/
