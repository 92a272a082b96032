static char help[] = "Checks the blocked layout of the jagged-diagonal types (-mat_jagged_blocks) against MATAIJ.\n\
A matrix of bs x bs blocks is made as programs make one: by MatSetValuesBlocked() and MatSetValues() (-make setvalues;\n\
with -fill below 1 some blocks are partly empty), by DMCreateMatrix() on a DMDA with bs fields (-make dm), or by MatLoad()\n\
of a file written with its block size (-make load). Its products, diagonal, scaling, shift, diagonal scaling and a values\n\
refresh are compared with MATAIJ's, and the block size its format uses is printed.\n\
  -type <pjdscuda>    the type (root name)\n\
  -make <setvalues>   setvalues, dm or load\n\
  -bs <3>             the block size\n\
  -nb <300>           block rows a process (setvalues, load); the DMDA has nb^(1/3) nodes a side on each process\n\
  -fill <1>           the fraction of a block's entries set (setvalues, load)\n\
  -view               MatView() with PETSC_VIEWER_ASCII_INFO\n\n";

#include <petscjagged.h>
#include <petscdmda.h>
#include "checkvec.h"
#include "copycounters.h"

/* A random matrix of bs x bs blocks: each block row its diagonal block and about 8 others, full blocks set by MatSetValuesBlocked(), else each entry with probability fill */
static PetscErrorCode MakeSetValues(MatType type, PetscInt bs, PetscInt nb, PetscReal fill, PetscRandom rnd, Mat *A)
{
  PetscInt     rstart, nbg;
  PetscScalar *v;

  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, nb * bs, nb * bs, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetBlockSize(*A, bs));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatSeqAIJSetPreallocation(*A, 9 * bs, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, 9 * bs, NULL, 9 * bs, NULL));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatGetOwnershipRange(*A, &rstart, NULL));
  PetscCall(MatGetSize(*A, &nbg, NULL));
  nbg /= bs;
  PetscCall(PetscMalloc1(bs * bs, &v));
  for (PetscInt bi = rstart / bs; bi < rstart / bs + nb; bi++) {
    for (PetscInt k = 0; k < 9; k++) {
      PetscReal r;
      PetscInt  bj = bi;

      if (k) {
        PetscCall(PetscRandomGetValueReal(rnd, &r));
        bj = PetscMin(nbg - 1, PetscMax(0, bi + (PetscInt)((r - 0.5) * 40))); /* near the diagonal, some on other processes */
      }
      for (PetscInt e = 0; e < bs * bs; e++) PetscCall(PetscRandomGetValue(rnd, &v[e]));
      if (fill >= 1) PetscCall(MatSetValuesBlocked(*A, 1, &bi, 1, &bj, v, ADD_VALUES));
      else
        for (PetscInt e = 0; e < bs * bs; e++) {
          PetscInt row = bi * bs + e / bs, col = bj * bs + e % bs;

          PetscCall(PetscRandomGetValueReal(rnd, &r));
          if (r < fill || row == col) PetscCall(MatSetValues(*A, 1, &row, 1, &col, &v[e], ADD_VALUES));
        }
    }
  }
  PetscCall(PetscFree(v));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A vector problem's matrix as a DM gives it: a 3D DMDA of bs fields, box stencil, every coupling a dense block */
static PetscErrorCode MakeDM(MatType type, PetscInt bs, PetscInt nb, PetscRandom rnd, DM *da, Mat *A)
{
  PetscMPIInt  size;
  PetscInt     n, xs, ys, zs, xm, ym, zm, M;
  PetscScalar *v;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  n = (PetscInt)PetscCeilReal(PetscPowReal((PetscReal)nb * size, 1.0 / 3));
  PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_BOX, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, bs, 1, NULL, NULL, NULL, da));
  PetscCall(DMSetFromOptions(*da));
  PetscCall(DMSetUp(*da));
  PetscCall(DMSetMatType(*da, type));
  PetscCall(DMCreateMatrix(*da, A));
  PetscCall(DMDAGetCorners(*da, &xs, &ys, &zs, &xm, &ym, &zm));
  PetscCall(DMDAGetInfo(*da, NULL, &M, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(PetscMalloc1(bs * bs, &v));
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        MatStencil row = {.k = k, .j = j, .i = i};

        for (PetscInt dk = -1; dk <= 1; dk++)
          for (PetscInt dj = -1; dj <= 1; dj++)
            for (PetscInt di = -1; di <= 1; di++) {
              MatStencil col = {.k = k + dk, .j = j + dj, .i = i + di};

              if (col.k < 0 || col.k >= M || col.j < 0 || col.j >= M || col.i < 0 || col.i >= M) continue;
              for (PetscInt e = 0; e < bs * bs; e++) PetscCall(PetscRandomGetValue(rnd, &v[e]));
              PetscCall(MatSetValuesBlockedStencil(*A, 1, &row, 1, &col, v, INSERT_VALUES));
            }
      }
  PetscCall(PetscFree(v));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The setvalues matrix as MATAIJ, written in PETSc's binary format (its .info gives the block size), read back by MatLoad() as type */
static PetscErrorCode MakeLoad(MatType type, PetscInt bs, PetscInt nb, PetscReal fill, PetscRandom rnd, Mat *A)
{
  Mat         W;
  PetscViewer viewer;

  PetscFunctionBeginUser;
  PetscCall(MakeSetValues(MATAIJ, bs, nb, fill, rnd, &W));
  PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, "jaggedblocks.bin", FILE_MODE_WRITE, &viewer));
  PetscCall(MatView(W, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(MatDestroy(&W));
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, "jaggedblocks.bin", FILE_MODE_READ, &viewer));
  PetscCall(MatLoad(*A, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The products and the diagonal of A against R's, on the same random vectors */
static PetscErrorCode CheckProducts(const char *label, Mat A, Mat R, PetscRandom rnd, PetscReal tol, PetscInt *checks)
{
  Vec  xr, yr, wr, xa, ya, wa, tr, ta;
  char what[128];

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(R, &xr, &yr));
  PetscCall(VecDuplicate(yr, &wr));
  PetscCall(MatCreateVecs(A, &xa, &ya));
  PetscCall(VecDuplicate(ya, &wa));
  PetscCall(VecSetRandom(xr, rnd));
  PetscCall(VecSetRandom(wr, rnd));
  PetscCall(VecCopy(xr, xa));
  PetscCall(VecCopy(wr, wa));
  PetscCall(MatMult(R, xr, yr));
  PetscCall(VecSet(ya, 42.0)); /* every entry must be written */
  PetscCall(MatMult(A, xa, ya));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s: MatMult", label));
  PetscCall(CheckVecClose(what, ya, yr, tol, checks));
  PetscCall(MatMultAdd(R, xr, wr, yr));
  PetscCall(MatMultAdd(A, xa, wa, ya));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s: MatMultAdd", label));
  PetscCall(CheckVecClose(what, ya, yr, tol, checks));
  PetscCall(VecDuplicate(xr, &tr));
  PetscCall(VecDuplicate(xa, &ta));
  PetscCall(MatMultTranspose(R, wr, tr));
  PetscCall(VecSet(ta, 42.0));
  PetscCall(MatMultTranspose(A, wa, ta));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s: MatMultTranspose", label));
  PetscCall(CheckVecClose(what, ta, tr, tol, checks));
  PetscCall(MatMultTransposeAdd(R, wr, xr, tr));
  PetscCall(MatMultTransposeAdd(A, wa, xa, ta));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s: MatMultTransposeAdd", label));
  PetscCall(CheckVecClose(what, ta, tr, tol, checks));
  PetscCall(MatGetDiagonal(R, yr));
  PetscCall(VecSet(ya, 42.0));
  PetscCall(MatGetDiagonal(A, ya));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s: MatGetDiagonal", label));
  PetscCall(CheckVecClose(what, ya, yr, tol, checks));
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&yr));
  PetscCall(VecDestroy(&wr));
  PetscCall(VecDestroy(&tr));
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&wa));
  PetscCall(VecDestroy(&ta));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The value operations on both matrices, each followed by the products: scale, shift, diagonal scaling, new values by MatSetValues() */
static PetscErrorCode CheckValueOps(Mat A, Mat R, PetscRandom rnd, PetscReal tol, PetscInt *checks)
{
  Vec      l, r, la, ra;
  PetscInt rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(CheckProducts("as made", A, R, rnd, tol, checks));
  PetscCall(MatScale(A, -2.0));
  PetscCall(MatScale(R, -2.0));
  PetscCall(CheckProducts("MatScale", A, R, rnd, tol, checks));
  PetscCall(MatShift(A, 3.0));
  PetscCall(MatShift(R, 3.0));
  PetscCall(CheckProducts("MatShift", A, R, rnd, tol, checks));
  PetscCall(MatCreateVecs(R, &r, &l));
  PetscCall(MatCreateVecs(A, &ra, &la));
  PetscCall(VecSetRandom(l, rnd));
  PetscCall(VecSetRandom(r, rnd));
  PetscCall(VecCopy(l, la));
  PetscCall(VecCopy(r, ra));
  PetscCall(MatDiagonalScale(A, la, ra));
  PetscCall(MatDiagonalScale(R, l, r));
  PetscCall(CheckProducts("MatDiagonalScale", A, R, rnd, tol, checks));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; i++) { /* the same pattern, new values: the values refresh */
    PetscScalar v = 0.25 * (i % 7);

    PetscCall(MatSetValue(A, i, i, v, ADD_VALUES));
    PetscCall(MatSetValue(R, i, i, v, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(R, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(R, MAT_FINAL_ASSEMBLY));
  PetscCall(CheckProducts("new values", A, R, rnd, tol, checks));
  PetscCall(VecDestroy(&l));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&la));
  PetscCall(VecDestroy(&ra));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  On one process with CUDA vectors, from PETSc's copy counters: ten products of the blocked matrix, x changed on the device
  before each, move nothing between host and device (the format and values stay on the GPU)
*/
static PetscErrorCode CheckResidency(Mat A, PetscRandom rnd, PetscInt *checks)
{
  Vec         x, y;
  PetscBool   cuda;
  PetscMPIInt size;
  EventCopies before, after, d;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)x, &cuda, VECSEQCUDA, VECMPICUDA, ""));
  if (cuda && size == 1) {
    PetscCall(VecSetRandom(x, rnd));
    PetscCall(MatMult(A, x, y));
    PetscCall(EventCopiesGet("MatMult", &before));
    for (PetscInt k = 0; k < 10; k++) {
      PetscCall(VecScale(x, -1.0));
      PetscCall(MatMult(A, x, y));
    }
    PetscCall(EventCopiesGet("MatMult", &after));
    d = EventCopiesDiff(after, before);
    PetscCheck(d.h2d == 0 && d.d2h == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "10 products moved %g bytes host to device and %g device to host", d.h2d, d.d2h);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "10 products on the GPU moved nothing between host and device\n"));
    ++*checks;
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char            type[64] = MATPJDSCUDA, make[16] = "setvalues";
  PetscInt        bs = 3, nb = 300, checks = 0, used;
  PetscReal       fill = 1.0, tol = 100 * PETSC_MACHINE_EPSILON;
  PetscBool       view = PETSC_FALSE, isdm, isload;
  PetscMPIInt     size;
  MatJaggedBlocks blocks;
  MatType         mtype;
  PetscRandom     rnd;
  DM              da = NULL;
  Mat             A, R;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscJaggedInitializePackage());
  PetscCall(PetscLogDefaultBegin()); /* the copy counters CheckResidency() reads */
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", type, sizeof(type), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-make", make, sizeof(make), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bs", &bs, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nb", &nb, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-fill", &fill, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-view", &view, NULL));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(PetscRandomSetFromOptions(rnd));
  PetscCall(PetscStrcmp(make, "dm", &isdm));
  PetscCall(PetscStrcmp(make, "load", &isload));
  if (isdm) PetscCall(MakeDM(type, bs, nb, rnd, &da, &A));
  else if (isload) PetscCall(MakeLoad(type, bs, nb, fill, rnd, &A));
  else PetscCall(MakeSetValues(type, bs, nb, fill, rnd, &A));
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &R)); /* the reference: MATAIJ's host products */
  PetscCall(MatJaggedGetBlocks(A, &blocks, &used));
  PetscCall(MatGetType(A, &mtype));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s made by %s, block size %" PetscInt_FMT ", -mat_jagged_blocks %s: the format uses blocks of %" PetscInt_FMT "\n", mtype, make, bs, MatJaggedBlocksTypes[blocks], used));
  if (view) {
    PetscCall(PetscViewerPushFormat(PETSC_VIEWER_STDOUT_WORLD, PETSC_VIEWER_ASCII_INFO));
    PetscCall(MatView(A, PETSC_VIEWER_STDOUT_WORLD));
    PetscCall(PetscViewerPopFormat(PETSC_VIEWER_STDOUT_WORLD));
  }
  PetscCall(CheckValueOps(A, R, rnd, tol, &checks));
  PetscCall(CheckResidency(A, rnd, &checks));
  { /* MatJaggedGetProductBytes(): between the values alone and the values with an index each, and below 12 + padding where blocks are used */
    PetscCount nnz, stored;
    PetscReal  bytes, lo, hi;

    PetscCall(MatJaggedGetStorage(A, &nnz, &stored));
    PetscCall(MatJaggedGetProductBytes(A, &bytes));
    lo = nnz ? (PetscReal)stored * sizeof(PetscScalar) / (PetscReal)nnz : 0;
    hi = nnz ? (PetscReal)stored * (sizeof(PetscScalar) + sizeof(int)) / (PetscReal)nnz : 0;
    if (used > 1) hi = nnz ? (PetscReal)stored * (sizeof(PetscScalar) + (PetscReal)sizeof(int) / 2) / (PetscReal)nnz : 0; /* a block of 2 x 2 or more: at most half an index an entry */
    PetscCheck(bytes >= lo - PETSC_SMALL && bytes <= hi + PETSC_SMALL, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatJaggedGetProductBytes() gave %g, outside [%g, %g]", (double)bytes, (double)lo, (double)hi);
    checks++;
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "on %d processes: %" PetscInt_FMT " checks passed\n", size, checks));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   testset:
      args: -mat_jagged_host
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "the format uses blocks of [0-9]+|layout: [a-z ]+[0-9x ]*|[0-9]+ checks passed"
      test:
         suffix: setvalues
         args: -bs {{2 3 6}separate output}
         nsize: {{1 2}separate output}
      test:
         suffix: setvalues_partial
         args: -bs 3 -fill 0.3 -view
      test:
         suffix: setvalues_partial_on
         args: -bs 3 -fill 0.3 -mat_jagged_blocks on -view
      test:
         suffix: setvalues_off
         args: -bs 4 -mat_jagged_blocks off -view
      test:
         suffix: dm
         args: -make dm -bs {{3 5}separate output} -nb 216 -view
         nsize: {{1 2}separate output}
      test:
         suffix: load
         args: -make load -bs 3 -fill 0.8 -view
         nsize: {{1 3}separate output}
      test:
         suffix: jds
         args: -type jdscuda -bs 2

   testset:
      requires: cuda_device
      args: -use_gpu_aware_mpi 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "the format uses blocks of [0-9]+|layout: [a-z ]+[0-9x ]*|moved nothing between host and device|[0-9]+ checks passed"
      test:
         suffix: gpu_setvalues
         args: -bs {{2 3 4 5 6}separate output}
         nsize: {{1 2}separate output}
      test:
         suffix: gpu_setvalues_partial
         args: -bs 3 -fill 0.5 -mat_jagged_blocks on -view
      test:
         suffix: gpu_dm
         args: -make dm -bs 3 -nb 1000 -view
         nsize: {{1 2}separate output}
      test:
         suffix: gpu_load
         args: -make load -bs 3 -fill 0.8 -view
         nsize: 2

TEST*/
