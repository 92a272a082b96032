static char help[] = "Checks the jagged-diagonal matrix types against MATSEQAIJ on random matrices.\n\
Every operation of the type runs on a random matrix and random vectors and is compared with\n\
MATSEQAIJ; with -gpu the GPU kernels are compared with the host reference kernels as well.\n\
  -type <seqaijpjdscuda>  the type to test\n\
  -m <n> -n <n>        sizes (default 1000 x 1000)\n\
  -nz <k>              mean nonzeros per row (default 7)\n\
  -empty_rows <f>      fraction of empty rows (default 0.1)\n\
  -long_row <len>      one row of this many entries (0: none)\n\
  -zero_matrix         a matrix without any nonzero\n\
  -gpu                 also run the GPU kernels (VECCUDA vectors)\n\
  -seed <s>            random seed\n\n";

#include <petscjagged.h>
#include <petscdevice_cuda.h>
#include "checkvec.h"
#include "subsetaxpy.h"

typedef struct {
  PetscReal tol, tol_single;
  PetscBool gpu;
  PetscInt  checks;
} Ctx;

static PetscErrorCode Check(Ctx *ctx, const char *what, Vec got, Vec ref, PetscReal tol)
{
  PetscFunctionBeginUser;
  PetscCall(CheckVecClose(what, got, ref, tol, &ctx->checks));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Random matrix: nz entries per row on average, some empty rows, an optional long row, random values */
static PetscErrorCode RandomMatrix(PetscRandom rnd, PetscInt m, PetscInt n, PetscInt nz, PetscReal empty, PetscInt longrow, PetscBool zero, Mat *A)
{
  PetscInt *nnz;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(m, &nnz));
  for (PetscInt i = 0; i < m; i++) {
    PetscReal r;

    PetscCall(PetscRandomGetValueReal(rnd, &r));
    nnz[i] = zero || r < empty ? 0 : PetscMin(n, 1 + (PetscInt)(2 * nz * PetscRealPart(r)));
    if (i == m / 3 && longrow) nnz[i] = PetscMin(n, longrow);
  }
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, m, n, 0, nnz, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  for (PetscInt i = 0; i < m; i++) {
    for (PetscInt k = 0; k < nnz[i]; k++) {
      PetscReal   r;
      PetscScalar v;
      PetscInt    col;

      PetscCall(PetscRandomGetValueReal(rnd, &r));
      col = nnz[i] == n ? k : (PetscInt)(r * n) % n;
      if (k == 0 && i < n) col = i; /* most rows have their diagonal */
      PetscCall(PetscRandomGetValue(rnd, &v));
      PetscCall(MatSetValue(*A, i, col, v + 0.5, ADD_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree(nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Runs every product of A (a jagged matrix, host or GPU kernels per its setting) against the same
  product of R (MATSEQAIJ). x, w: random host vectors of the right sizes.
*/
static PetscErrorCode CheckProducts(Ctx *ctx, const char *label, Mat A, Mat R, PetscRandom rnd)
{
  Vec  xr, wr, yr, xc, wc, yc, ya, xa, wa, dr, da;
  char what[256];

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(R, &xr, &yr));
  PetscCall(VecDuplicate(yr, &wr));
  PetscCall(VecSetRandom(xr, rnd));
  PetscCall(VecSetRandom(wr, rnd));
  PetscCall(MatCreateVecs(A, &xa, &ya));
  PetscCall(VecDuplicate(ya, &wa));
  PetscCall(VecCopy(xr, xa));
  PetscCall(VecCopy(wr, wa));
  PetscCall(VecDuplicate(xr, &xc));
  PetscCall(VecDuplicate(xr, &wc));
  PetscCall(VecDuplicate(yr, &yc));

  PetscCall(MatMult(R, xr, yr));
  PetscCall(VecSet(ya, 42.0)); /* poison: every entry must be written */
  PetscCall(MatMult(A, xa, ya));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s MatMult", label));
  PetscCall(Check(ctx, what, ya, yr, ctx->tol));

  PetscCall(MatMultAdd(R, xr, wr, yr));
  PetscCall(MatMultAdd(A, xa, wa, ya));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s MatMultAdd", label));
  PetscCall(Check(ctx, what, ya, yr, ctx->tol));
  PetscCall(VecCopy(wa, ya)); /* in place: w = y */
  PetscCall(MatMultAdd(A, xa, ya, ya));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s MatMultAdd in place", label));
  PetscCall(Check(ctx, what, ya, yr, ctx->tol));

  /* transpose: x of the row size, y of the column size */
  PetscCall(VecSetRandom(wr, rnd));
  PetscCall(VecCopy(wr, wa));
  PetscCall(MatMultTranspose(R, wr, xc));
  PetscCall(VecSet(xa, 42.0));
  PetscCall(MatMultTranspose(A, wa, xa));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s MatMultTranspose", label));
  PetscCall(Check(ctx, what, xa, xc, ctx->tol));
  PetscCall(VecCopy(xr, wc));
  PetscCall(MatMultTransposeAdd(R, wr, wc, xc));
  PetscCall(VecCopy(xr, xa));
  PetscCall(MatMultTransposeAdd(A, wa, xa, xa));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s MatMultTransposeAdd", label));
  PetscCall(Check(ctx, what, xa, xc, ctx->tol));

  PetscCall(MatMultHermitianTranspose(R, wr, xc));
  PetscCall(VecSet(xa, 42.0));
  PetscCall(MatMultHermitianTranspose(A, wa, xa));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s MatMultHermitianTranspose", label));
  PetscCall(Check(ctx, what, xa, xc, ctx->tol));

  PetscCall(MatCreateVecs(R, NULL, &dr));
  PetscCall(MatCreateVecs(A, NULL, &da));
  PetscCall(MatGetDiagonal(R, dr));
  PetscCall(VecSet(da, 42.0));
  PetscCall(MatGetDiagonal(A, da));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s MatGetDiagonal", label));
  PetscCall(Check(ctx, what, da, dr, ctx->tol));

  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&wr));
  PetscCall(VecDestroy(&yr));
  PetscCall(VecDestroy(&xc));
  PetscCall(VecDestroy(&wc));
  PetscCall(VecDestroy(&yc));
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&wa));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&dr));
  PetscCall(VecDestroy(&da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x with the single-precision copy against MatMult() in double */
static PetscErrorCode CheckSingle(Ctx *ctx, const char *label, Mat A, PetscRandom rnd)
{
  PetscInt                 m, n;
  PetscScalar             *xs, *ys;
  PetscJaggedScalarSingle *xf, *yf;
  Vec                      x, y, yf_as_double;
  PetscBool                host;
  char                     what[256];

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(MatMult(A, x, y));
  PetscCall(VecDuplicate(y, &yf_as_double));
  PetscCall(PetscMalloc2(n, &xf, m, &yf));
  PetscCall(VecGetArray(x, &xs));
  for (PetscInt i = 0; i < n; i++) xf[i] = (PetscJaggedScalarSingle)xs[i];
  PetscCall(VecRestoreArray(x, &xs));
  PetscCall(PetscObjectTypeCompare((PetscObject)x, VECSEQCUDA, &host));
  host = (PetscBool)!host;
  if (host) PetscCall(MatJaggedMultSingle(A, xf, yf));
  else {
#if defined(PETSC_HAVE_CUDA)
    PetscJaggedScalarSingle *dx, *dy;

    PetscCallCUDA(cudaMalloc((void **)&dx, sizeof(*dx) * PetscMax(n, 1)));
    PetscCallCUDA(cudaMalloc((void **)&dy, sizeof(*dy) * PetscMax(m, 1)));
    PetscCallCUDA(cudaMemcpy(dx, xf, sizeof(*dx) * n, cudaMemcpyHostToDevice));
    PetscCall(MatJaggedMultSingle(A, dx, dy));
    PetscCallCUDA(cudaMemcpy(yf, dy, sizeof(*dy) * m, cudaMemcpyDeviceToHost));
    PetscCallCUDA(cudaFree(dx));
    PetscCallCUDA(cudaFree(dy));
#endif
  }
  PetscCall(VecGetArray(yf_as_double, &ys));
  for (PetscInt i = 0; i < m; i++) ys[i] = (PetscScalar)yf[i];
  PetscCall(VecRestoreArray(yf_as_double, &ys));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s MatJaggedMultSingle", label));
  PetscCall(Check(ctx, what, yf_as_double, y, ctx->tol_single));
  PetscCall(PetscFree2(xf, yf));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&yf_as_double));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The host-kernel copy H and, with -gpu, the GPU copy G of R; every check on both */
static PetscErrorCode CheckAll(Ctx *ctx, const char *label, Mat H, Mat G, Mat R, PetscRandom rnd)
{
  char l[256];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(l, sizeof(l), "%s (host kernels)", label));
  PetscCall(CheckProducts(ctx, l, H, R, rnd));
  PetscCall(CheckSingle(ctx, l, H, rnd));
  if (G) {
    PetscCall(PetscSNPrintf(l, sizeof(l), "%s (GPU kernels)", label));
    PetscCall(CheckProducts(ctx, l, G, R, rnd));
    PetscCall(CheckProducts(ctx, l, G, H, rnd)); /* the GPU kernels against their host twins */
    PetscCall(CheckSingle(ctx, l, G, rnd));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The same value operation on R, H and G */
#define ALL(call) \
  do { \
    Mat M_ = R; \
    call; \
    M_ = H; \
    call; \
    if (G) { \
      M_ = G; \
      call; \
    } \
  } while (0)

int main(int argc, char **argv)
{
  Ctx         ctx = {0};
  char        type[64] = MATSEQPJDSCUDA;
  PetscInt    m = 1000, n = 1000, nz = 7, longrow = 0;
  PetscReal   empty = 0.1;
  PetscBool   zero = PETSC_FALSE;
  PetscRandom rnd;
  Mat         R, H, G = NULL, X;
  Vec         l, r;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscJaggedInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "jaggedmat test options", NULL);
  PetscCall(PetscOptionsString("-type", "jagged type", NULL, type, type, sizeof(type), NULL));
  PetscCall(PetscOptionsInt("-m", "rows", NULL, m, &m, NULL));
  PetscCall(PetscOptionsInt("-n", "columns", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-nz", "mean nonzeros per row", NULL, nz, &nz, NULL));
  PetscCall(PetscOptionsReal("-empty_rows", "fraction of empty rows", NULL, empty, &empty, NULL));
  PetscCall(PetscOptionsInt("-long_row", "length of one long row", NULL, longrow, &longrow, NULL));
  PetscCall(PetscOptionsBool("-zero_matrix", "no nonzeros at all", NULL, zero, &zero, NULL));
  PetscCall(PetscOptionsBool("-gpu", "also the GPU kernels", NULL, ctx.gpu, &ctx.gpu, NULL));
  PetscOptionsEnd();
  ctx.tol        = 1e3 * PETSC_MACHINE_EPSILON;
  ctx.tol_single = 1e-5;

  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetFromOptions(rnd));
  PetscCall(RandomMatrix(rnd, m, n, nz, empty, longrow, zero, &R));

  /* MatConvert both ways, MatDuplicate */
  PetscCall(MatConvert(R, type, MAT_INITIAL_MATRIX, &H));
  PetscCall(MatSetFromOptions(H)); /* the -mat_jagged_* options: a conversion reads none */
  PetscCall(MatJaggedSetUseHost(H, PETSC_TRUE));
  PetscCall(MatJaggedSetSinglePrecision(H, PETSC_TRUE));
  if (ctx.gpu) {
    PetscCall(MatConvert(R, type, MAT_INITIAL_MATRIX, &G));
    PetscCall(MatSetFromOptions(G));
  }
  PetscCall(MatViewFromOptions(ctx.gpu ? G : H, NULL, "-jagged_view"));
  PetscCall(CheckAll(&ctx, "converted", H, G, R, rnd));
  {
    Mat       back, dup;
    PetscBool eq, istype;

    PetscCall(MatConvert(H, MATSEQAIJ, MAT_INITIAL_MATRIX, &back));
    PetscCall(PetscObjectTypeCompare((PetscObject)back, MATSEQAIJ, &istype));
    PetscCall(MatEqual(back, R, &eq));
    PetscCheck(istype && eq, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatConvert to MATSEQAIJ lost the matrix");
    PetscCall(MatDestroy(&back));
    PetscCall(MatDuplicate(H, MAT_COPY_VALUES, &dup));
    PetscCall(PetscObjectTypeCompare((PetscObject)dup, type, &istype));
    PetscCheck(istype, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatDuplicate changed the type");
    PetscCall(CheckProducts(&ctx, "duplicate", dup, R, rnd));
    PetscCall(MatDestroy(&dup));
    if (G) {
      PetscCall(MatConvert(G, MATSEQAIJCUSPARSE, MAT_INITIAL_MATRIX, &back));
      PetscCall(CheckProducts(&ctx, "to aijcusparse and back", G, R, rnd));
      PetscCall(MatDestroy(&back));
    }
  }

  /* values-only refresh: new values on the same pattern, then MatZeroRows */
  {
    PetscInt           ncols;
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscScalar       *nv;
    PetscInt           zrows[3] = {0, m / 3, m - 1};

    if (m > 0) {
      PetscInt *ptr, *nc, nrows = 0;

      /* every nonempty row gets new values (gathered first: MatSetValues() leaves R unassembled for MatGetRow()) */
      PetscCall(PetscMalloc1(m + 1, &ptr));
      ptr[0] = 0;
      for (PetscInt i = 0; i < m; i++) {
        PetscCall(MatGetRow(R, i, &ncols, NULL, NULL));
        ptr[i + 1] = ptr[i] + ncols;
        nrows += ncols > 0;
        PetscCall(MatRestoreRow(R, i, &ncols, NULL, NULL));
      }
      PetscCall(PetscMalloc2(ptr[m], &nv, ptr[m], &nc));
      for (PetscInt i = 0; i < m; i++) {
        PetscCall(MatGetRow(R, i, &ncols, &cols, &vals));
        for (PetscInt k = 0; k < ncols; k++) {
          nv[ptr[i] + k] = 3.0 * vals[k] + 1.0;
          nc[ptr[i] + k] = cols[k];
        }
        PetscCall(MatRestoreRow(R, i, &ncols, &cols, &vals));
      }
      for (PetscInt i = 0; i < m; i++) ALL(PetscCall(MatSetValues(M_, 1, &i, ptr[i + 1] - ptr[i], nc + ptr[i], nv + ptr[i], INSERT_VALUES)));
      PetscCall(PetscFree2(nv, nc));
      PetscCall(PetscFree(ptr));
      ALL(PetscCall(MatAssemblyBegin(M_, MAT_FINAL_ASSEMBLY)));
      ALL(PetscCall(MatAssemblyEnd(M_, MAT_FINAL_ASSEMBLY)));
      PetscCall(PetscInfo(R, "Values-only refresh: new values in %" PetscInt_FMT " nonempty rows\n", nrows));
      PetscCall(CheckAll(&ctx, "after MatSetValues", H, G, R, rnd));
      PetscInt nz = 0; /* PETSc's MatZeroRows_SeqAIJ() writes through a stale pointer when it must insert into an empty row: zero non-empty rows */
      for (PetscInt k = 0; k < 3; k++) {
        PetscInt ncols, n;

        PetscCall(MatGetRow(R, zrows[k], &ncols, NULL, NULL));
        n = ncols; /* MatRestoreRow() zeroes ncols */
        PetscCall(MatRestoreRow(R, zrows[k], &ncols, NULL, NULL));
        if (n) zrows[nz++] = zrows[k];
      }
      ALL(PetscCall(MatZeroRows(M_, nz, zrows, 2.0, NULL, NULL)));
      PetscCall(CheckAll(&ctx, "after MatZeroRows", H, G, R, rnd));
    }
  }

  /* value operations */
  ALL(PetscCall(MatScale(M_, -0.75)));
  PetscCall(CheckAll(&ctx, "after MatScale", H, G, R, rnd));
  if (m == n) {
    ALL(PetscCall(MatShift(M_, 2.5)));
    PetscCall(CheckAll(&ctx, "after MatShift", H, G, R, rnd));
  }
  PetscCall(MatCreateVecs(R, &r, &l));
  PetscCall(VecSetRandom(l, rnd));
  PetscCall(VecSetRandom(r, rnd));
  {
    Vec lh, rh, lg = NULL, rg = NULL;

    PetscCall(MatCreateVecs(H, &rh, &lh));
    PetscCall(VecCopy(l, lh));
    PetscCall(VecCopy(r, rh));
    if (G) {
      PetscCall(MatCreateVecs(G, &rg, &lg));
      PetscCall(VecCopy(l, lg));
      PetscCall(VecCopy(r, rg));
    }
    PetscCall(MatDiagonalScale(R, l, r));
    PetscCall(MatDiagonalScale(H, lh, rh));
    if (G) PetscCall(MatDiagonalScale(G, lg, rg));
    PetscCall(CheckAll(&ctx, "after MatDiagonalScale", H, G, R, rnd));
    PetscCall(VecDestroy(&lh));
    PetscCall(VecDestroy(&rh));
    PetscCall(VecDestroy(&lg));
    PetscCall(VecDestroy(&rg));
  }
  PetscCall(VecDestroy(&l));
  PetscCall(VecDestroy(&r));
  {
    Mat XH, XG = NULL;

    PetscCall(MatDuplicate(R, MAT_COPY_VALUES, &X));
    PetscCall(MatScale(X, 0.5));
    PetscCall(MatConvert(X, type, MAT_INITIAL_MATRIX, &XH));
    PetscCall(MatSetFromOptions(XH));
    PetscCall(MatJaggedSetUseHost(XH, PETSC_TRUE));
    if (G) {
      PetscCall(MatConvert(X, type, MAT_INITIAL_MATRIX, &XG));
      PetscCall(MatSetFromOptions(XG));
    }
    PetscCall(MatAXPY(R, 2.0, X, SAME_NONZERO_PATTERN));
    PetscCall(MatAXPY(H, 2.0, XH, SAME_NONZERO_PATTERN));
    if (G) PetscCall(MatAXPY(G, 2.0, XG, SAME_NONZERO_PATTERN));
    PetscCall(CheckAll(&ctx, "after MatAXPY", H, G, R, rnd));
    { /* X of the same type with a pattern within theirs (PCGAMG's smoothed prolongator): merged on the host CSR */
      Mat S, SH, SG = NULL;

      PetscCall(MatEvenEntries(R, &S));
      PetscCall(MatConvert(S, type, MAT_INITIAL_MATRIX, &SH));
      PetscCall(MatSetFromOptions(SH));
      PetscCall(MatJaggedSetUseHost(SH, PETSC_TRUE));
      if (G) {
        PetscCall(MatConvert(S, type, MAT_INITIAL_MATRIX, &SG));
        PetscCall(MatSetFromOptions(SG));
      }
      PetscCall(MatAXPY(R, -1.5, S, SUBSET_NONZERO_PATTERN));
      PetscCall(MatAXPYSubsetMerged(H, -1.5, SH, SUBSET_NONZERO_PATTERN, &ctx.checks));
      if (G) PetscCall(MatAXPYSubsetMerged(G, -1.5, SG, SUBSET_NONZERO_PATTERN, &ctx.checks));
      PetscCall(MatAXPY(R, 0.5, S, DIFFERENT_NONZERO_PATTERN)); /* a pattern said different that is within theirs: merged too */
      PetscCall(MatAXPYSubsetMerged(H, 0.5, SH, DIFFERENT_NONZERO_PATTERN, &ctx.checks));
      if (G) PetscCall(MatAXPYSubsetMerged(G, 0.5, SG, DIFFERENT_NONZERO_PATTERN, &ctx.checks));
      PetscCall(CheckAll(&ctx, "after MatAXPY of a subset pattern", H, G, R, rnd));
      PetscCall(MatDestroy(&S));
      PetscCall(MatDestroy(&SH));
      PetscCall(MatDestroy(&SG));
    }
    PetscCall(MatCopy(XH, H, SAME_NONZERO_PATTERN));
    if (G) PetscCall(MatCopy(XG, G, SAME_NONZERO_PATTERN));
    PetscCall(CheckAll(&ctx, "after MatCopy", H, G, X, rnd));
    PetscCall(MatDestroy(&XH));
    PetscCall(MatDestroy(&XG));
  }
  ALL(PetscCall(MatZeroEntries(M_)));
  PetscCall(CheckAll(&ctx, "after MatZeroEntries", H, G, R, rnd));

  /* a new nonzero: the pattern changes and the format is rebuilt */
  if (m > 1 && n > 1) {
    ALL(PetscCall(MatSetOption(M_, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE)));
    ALL(PetscCall(MatSetValue(M_, m - 1, 0, 7.0, ADD_VALUES)));
    ALL(PetscCall(MatSetValue(M_, 0, n - 1, -3.0, ADD_VALUES)));
    ALL(PetscCall(MatAssemblyBegin(M_, MAT_FINAL_ASSEMBLY)));
    ALL(PetscCall(MatAssemblyEnd(M_, MAT_FINAL_ASSEMBLY)));
    PetscCall(MatAXPY(X, 1.0, X, SAME_NONZERO_PATTERN)); /* X stays untouched otherwise */
    PetscCall(CheckAll(&ctx, "after a new nonzero", H, G, R, rnd));
  }
  PetscCall(MatDestroy(&X));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %" PetscInt_FMT " x %" PetscInt_FMT ": %" PetscInt_FMT " checks passed\n", type, m, n, ctx.checks));
  PetscCall(MatDestroy(&R));
  PetscCall(MatDestroy(&H));
  PetscCall(MatDestroy(&G));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   testset:
      args: -mat_jagged_host
      test:
         suffix: pjds
         args: -type seqaijpjdscuda
      test:
         suffix: jds
         args: -type seqaijjdscuda
      test:
         suffix: pjds_long_row
         args: -type seqaijpjdscuda -m 3000 -n 6000 -long_row 5000
      test:
         suffix: jds_long_row
         args: -type seqaijjdscuda -m 3000 -n 6000 -long_row 5000
      test:
         suffix: pjds_jagged_only_long_row
         args: -type seqaijpjdscuda -long_row 2000 -n 2500 -m 2500 -mat_jagged_kernel jagged
      test:
         suffix: pjds_forced_split
         args: -type seqaijpjdscuda -mat_jagged_kernel split -mat_jagged_long_row_threshold 3
      test:
         suffix: jds_forced_split
         args: -type seqaijjdscuda -mat_jagged_kernel split -mat_jagged_long_row_threshold 0
      test:
         suffix: pjds_n1
         args: -type seqaijpjdscuda -m 1 -n 1
      test:
         suffix: pjds_n37
         args: -type seqaijpjdscuda -m 37 -n 37 -empty_rows 0.3
      test:
         suffix: pjds_wide
         args: -type seqaijpjdscuda -m 50 -n 77
      test:
         suffix: jds_tall
         args: -type seqaijjdscuda -m 77 -n 50
      test:
         suffix: pjds_zero_matrix
         args: -type seqaijpjdscuda -zero_matrix
      test:
         suffix: jds_all_empty_rows
         args: -type seqaijjdscuda -empty_rows 1.0
      test:
         suffix: pjds_block_rows_7
         args: -type seqaijpjdscuda -mat_pjds_block_rows 7 -m 500 -n 500
      test:
         suffix: view
         args: -type seqaijpjdscuda -long_row 3000 -n 4000 -jagged_view ::ascii_info
      test:
         suffix: bad_block_rows
         args: -type seqaijpjdscuda -mat_pjds_block_rows -1
         filter: Error: ${PETSCJAGGED_DIR}/tests/harness/keep "mat_pjds_block_rows\) must be positive, not -1"

   test:
      suffix: api_on_aij
      args: -type seqaij
      filter: Error: grep -o "Cannot locate function MatJagged[A-Za-z]*"

   testset:
      requires: cuda_device
      args: -gpu -use_gpu_aware_mpi 0
      # the GPU kernels are checked against the host twins too: more checks than on the CPU
      filter: sed -E "s/: [0-9]+ checks passed/: checks passed/"
      test:
         suffix: gpu_pjds
         args: -type seqaijpjdscuda
      test:
         suffix: gpu_jds
         args: -type seqaijjdscuda
      test:
         suffix: gpu_pjds_long_row
         args: -type seqaijpjdscuda -m 3000 -n 6000 -long_row 5000
      test:
         suffix: gpu_jds_long_row
         args: -type seqaijjdscuda -m 3000 -n 6000 -long_row 5000
      test:
         suffix: gpu_pjds_jagged_only_long_row
         args: -type seqaijpjdscuda -long_row 2000 -n 2500 -m 2500 -mat_jagged_kernel jagged
      test:
         suffix: gpu_pjds_forced_split
         args: -type seqaijpjdscuda -mat_jagged_kernel split -mat_jagged_long_row_threshold 3
      test:
         suffix: gpu_jds_forced_split
         args: -type seqaijjdscuda -mat_jagged_kernel split -mat_jagged_long_row_threshold 0
      test:
         suffix: gpu_pjds_n1
         args: -type seqaijpjdscuda -m 1 -n 1
      test:
         suffix: gpu_pjds_n37
         args: -type seqaijpjdscuda -m 37 -n 37 -empty_rows 0.3
      test:
         suffix: gpu_pjds_wide
         args: -type seqaijpjdscuda -m 50 -n 77
      test:
         suffix: gpu_jds_tall
         args: -type seqaijjdscuda -m 77 -n 50
      test:
         suffix: gpu_pjds_zero_matrix
         args: -type seqaijpjdscuda -zero_matrix
      test:
         suffix: gpu_jds_all_empty_rows
         args: -type seqaijjdscuda -empty_rows 1.0
      test:
         suffix: gpu_pjds_block_rows_7
         args: -type seqaijpjdscuda -mat_pjds_block_rows 7 -m 500 -n 500
      test:
         # large uploads: lanes of threads where the process may use several cores (the host checks of a 400,000-row
         # matrix took 60-63 s of the harness's 60 beside 7 other GPU tests on an H100 machine)
         suffix: gpu_pjds_large_lanes
         timeoutfactor: 3
         env: "PETSCMPIEXEC='mpiexec --bind-to none'"
         args: -type seqaijpjdscuda -m 400000 -n 400000 -nz 9 -info :sys
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "checks passed|Large uploads: [a-z]+( [a-z]+)*" | sort -u
      test:
         # ... pinned in place where it is bound to one core (OpenMPI's default for 1 and 2 ranks)
         suffix: gpu_pjds_large_pinned
         timeoutfactor: 3
         args: -type seqaijpjdscuda -m 400000 -n 400000 -nz 9 -info :sys
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "checks passed|Large uploads: [a-z]+( [a-z]+)*" | sort -u

TEST*/
