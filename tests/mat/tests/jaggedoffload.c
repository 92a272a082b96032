static char help[] = "Checks that the device copy of a jagged-diagonal matrix follows every change of its values: a random\n\
sparse matrix of the type given by -mat_type, made as applications make one (MatSetFromOptions(), preallocation,\n\
MatSetValues(), assembly), and a MATAIJ made the same way go through the same value changes, and after each\n\
one MatMult() of both must agree. Then the setters and getters of the matrix options, and the options read. On several\n\
processes on the GPU, MatCreateVecs() must give vectors without a host copy.\n\
  -n <300>   global rows\n\
  -nz <6>    at most this many random entries per row besides the diagonal\n\n";

#include <petscjagged.h>
#include <pjcheck.h> /* CHECK(), CHECK_REFUSED(), nchecks */

/* Everything the same for the jagged matrix A and the reference R */
typedef struct {
  Mat       A, R;
  Vec       xa, xr, ya, yr; /* input and output of the products, of each matrix's vector type */
  PetscInt  rstart, rend, N;
  PetscReal tol;
} Pair;

/* v_i = 1 + 0.5 cos(a i) by global index, whatever the type of v */
static PetscErrorCode FillVec(Vec v, PetscReal a)
{
  PetscScalar *va;
  PetscInt     lo, hi;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(v, &lo, &hi));
  PetscCall(VecGetArrayWrite(v, &va));
  for (PetscInt i = lo; i < hi; i++) va[i - lo] = 1.0 + 0.5 * PetscCosReal(a * (PetscReal)i);
  PetscCall(VecRestoreArrayWrite(v, &va));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The value of entry (i, j) at step s */
static PetscScalar Value(PetscInt i, PetscInt j, PetscInt s)
{
  return (PetscScalar)(i == j ? 10.0 + s : PetscSinReal((PetscReal)(3 * i + 7 * j + s)));
}

/* MatMult() of A and R, from the same x: |A x - R x| <= tol |R x| (or tol when R x = 0) */
static PetscErrorCode Compare(Pair *p, const char *what)
{
  const PetscScalar *a, *r;
  PetscReal          dl = 0.0, rl = 0.0, d, n;
  PetscInt           m;

  PetscFunctionBeginUser;
  PetscCall(MatMult(p->A, p->xa, p->ya));
  PetscCall(MatMult(p->R, p->xr, p->yr));
  PetscCall(VecGetLocalSize(p->yr, &m));
  PetscCall(VecGetArrayRead(p->ya, &a));
  PetscCall(VecGetArrayRead(p->yr, &r));
  for (PetscInt i = 0; i < m; i++) {
    dl += PetscRealPart((a[i] - r[i]) * PetscConj(a[i] - r[i]));
    rl += PetscRealPart(r[i] * PetscConj(r[i]));
  }
  PetscCall(VecRestoreArrayRead(p->ya, &a));
  PetscCall(VecRestoreArrayRead(p->yr, &r));
  PetscCallMPI(MPIU_Allreduce(&dl, &d, 1, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  PetscCallMPI(MPIU_Allreduce(&rl, &n, 1, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  d = PetscSqrtReal(d);
  n = PetscSqrtReal(n);
  CHECK(d <= p->tol * PetscMax(n, 1.0), "MatMult after %s: the jagged matrix differs from MATAIJ by %g (relative to %g): its copy is stale", what, (double)d, (double)n);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "check %" PetscInt_FMT ": MatMult after %s\n", nchecks, what));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatCreate(), MatSetSizes(), type (from the options database when type is NULL), preallocation */
static PetscErrorCode Create(PetscInt N, PetscInt nz, MatType type, Mat *M)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_WORLD, M));
  PetscCall(MatSetSizes(*M, PETSC_DECIDE, PETSC_DECIDE, N, N));
  if (type) PetscCall(MatSetType(*M, type));
  else PetscCall(MatSetFromOptions(*M));
  PetscCall(MatSeqAIJSetPreallocation(*M, nz + 1, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*M, nz + 1, NULL, nz + 1, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The random pattern, the same in both, with the values of step 0 */
static PetscErrorCode Assemble(Pair *p, PetscInt nz)
{
  PetscRandom rnd;
  PetscInt   *cols;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 7 + 1000 * (unsigned long)rank));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(PetscMalloc1(nz + 1, &cols));
  for (PetscInt i = p->rstart; i < p->rend; i++) {
    PetscReal   r;
    PetscInt    nc = 1;
    PetscScalar v[64];

    cols[0] = i;
    PetscCall(PetscRandomGetValueReal(rnd, &r));
    for (PetscInt k = 0, n = (PetscInt)(r * (nz + 1)); k < n && k < nz; k++) {
      PetscCall(PetscRandomGetValueReal(rnd, &r));
      cols[nc++] = PetscMin((PetscInt)(r * p->N), p->N - 1);
    }
    for (PetscInt k = 0; k < nc; k++) v[k] = Value(i, cols[k], 0);
    PetscCall(MatSetValues(p->A, 1, &i, nc, cols, v, INSERT_VALUES));
    PetscCall(MatSetValues(p->R, 1, &i, nc, cols, v, INSERT_VALUES));
  }
  PetscCall(PetscFree(cols));
  PetscCall(PetscRandomDestroy(&rnd));
  for (PetscInt k = 0; k < 2; k++) {
    Mat M = k ? p->R : p->A;

    PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* New values of step s on the entries of the current pattern (that of R), by MatSetValues() and assembly */
static PetscErrorCode SetValues(Pair *p, PetscInt s)
{
  PetscFunctionBeginUser;
  for (PetscInt i = p->rstart; i < p->rend; i++) {
    const PetscInt *c;
    PetscInt        nc, cols[64];
    PetscScalar     v[64];

    PetscCall(MatGetRow(p->R, i, &nc, &c, NULL));
    PetscCheck(nc <= 64, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Row longer than expected");
    for (PetscInt k = 0; k < nc; k++) cols[k] = c[k], v[k] = Value(i, c[k], s);
    PetscCall(MatRestoreRow(p->R, i, &nc, &c, NULL));
    PetscCall(MatSetValues(p->A, 1, &i, nc, cols, v, INSERT_VALUES));
    PetscCall(MatSetValues(p->R, 1, &i, nc, cols, v, INSERT_VALUES));
  }
  for (PetscInt k = 0; k < 2; k++) {
    Mat M = k ? p->R : p->A;

    PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A write of the host values of M (of its diagonal block on several processes) through MatSeqAIJGetArray() or MatSeqAIJGetArrayWrite() */
static PetscErrorCode WriteArray(Mat M, PetscBool writeonly)
{
  Mat          d = M;
  MatInfo      info;
  PetscScalar *a;
  PetscMPIInt  size;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size > 1) PetscCall(MatMPIAIJGetSeqAIJ(M, &d, NULL, NULL));
  PetscCall(MatGetInfo(d, MAT_LOCAL, &info));
  if (writeonly) {
    PetscCall(MatSeqAIJGetArrayWrite(d, &a));
    for (PetscInt k = 0; k < (PetscInt)info.nz_used; k++) a[k] = 1.0 + 0.25 * (k % 5);
    PetscCall(MatSeqAIJRestoreArrayWrite(d, &a));
  } else {
    PetscCall(MatSeqAIJGetArray(d, &a));
    for (PetscInt k = 0; k < (PetscInt)info.nz_used; k++) a[k] = 1.5 * a[k] + 0.25 * (k % 5);
    PetscCall(MatSeqAIJRestoreArray(d, &a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every value change, applied to A and R alike, each followed by a comparison of the products */
static PetscErrorCode ValueChanges(Pair *p)
{
  Vec      la, lr, ra, rr, da, dr;
  Mat      XA, XR;
  PetscInt zrows[64], nzrows = 0;

  PetscFunctionBeginUser;
  PetscCall(Compare(p, "assembly"));
  PetscCall(SetValues(p, 1));
  PetscCall(Compare(p, "MatSetValues() and assembly, same pattern"));
  PetscCall(MatScale(p->A, 2.5));
  PetscCall(MatScale(p->R, 2.5));
  PetscCall(Compare(p, "MatScale()"));
  PetscCall(MatShift(p->A, 1.5));
  PetscCall(MatShift(p->R, 1.5));
  PetscCall(Compare(p, "MatShift()"));
  PetscCall(WriteArray(p->A, PETSC_FALSE));
  PetscCall(WriteArray(p->R, PETSC_FALSE));
  PetscCall(Compare(p, "a write through MatSeqAIJGetArray()"));
  PetscCall(WriteArray(p->A, PETSC_TRUE));
  PetscCall(WriteArray(p->R, PETSC_TRUE));
  PetscCall(Compare(p, "a write through MatSeqAIJGetArrayWrite()"));

  PetscCall(MatCreateVecs(p->A, &ra, &la));
  PetscCall(MatCreateVecs(p->R, &rr, &lr));
  PetscCall(FillVec(la, 0.3));
  PetscCall(FillVec(lr, 0.3));
  PetscCall(FillVec(ra, 0.7));
  PetscCall(FillVec(rr, 0.7));
  /* MATMPIAIJ scales its blocks without MatDiagonalScale() itself, so without the object-state increase it makes */
  PetscCall(MatDiagonalScale(p->A, la, NULL));
  PetscCall(MatDiagonalScale(p->R, lr, NULL));
  PetscCall(WriteArray(p->A, PETSC_FALSE));
  PetscCall(WriteArray(p->R, PETSC_FALSE));
  PetscCall(Compare(p, "MatDiagonalScale() (left) then a write through MatSeqAIJGetArray()"));
  PetscCall(MatDiagonalScale(p->A, la, ra));
  PetscCall(MatDiagonalScale(p->R, lr, rr));
  PetscCall(Compare(p, "MatDiagonalScale()"));

  PetscCall(MatZeroEntries(p->A));
  PetscCall(MatZeroEntries(p->R));
  PetscCall(Compare(p, "MatZeroEntries()"));
  PetscCall(SetValues(p, 2));
  PetscCall(Compare(p, "MatZeroEntries() then MatSetValues() and assembly"));

  PetscCall(MatDuplicate(p->A, MAT_COPY_VALUES, &XA));
  PetscCall(MatDuplicate(p->R, MAT_COPY_VALUES, &XR));
  PetscCall(MatScale(XA, -0.3));
  PetscCall(MatScale(XR, -0.3));
  PetscCall(MatAXPY(p->A, 0.5, XA, SAME_NONZERO_PATTERN));
  PetscCall(MatAXPY(p->R, 0.5, XR, SAME_NONZERO_PATTERN));
  PetscCall(Compare(p, "MatAXPY()"));
  PetscCall(MatCopy(XA, p->A, SAME_NONZERO_PATTERN));
  PetscCall(MatCopy(XR, p->R, SAME_NONZERO_PATTERN));
  PetscCall(Compare(p, "MatCopy()"));
  PetscCall(MatDestroy(&XA));
  PetscCall(MatDestroy(&XR));

  PetscCall(MatCreateVecs(p->A, NULL, &da));
  PetscCall(MatCreateVecs(p->R, NULL, &dr));
  PetscCall(FillVec(da, 1.1));
  PetscCall(FillVec(dr, 1.1));
  PetscCall(MatDiagonalSet(p->A, da, INSERT_VALUES));
  PetscCall(MatDiagonalSet(p->R, dr, INSERT_VALUES));
  PetscCall(Compare(p, "MatDiagonalSet(INSERT_VALUES)"));
  PetscCall(MatDiagonalSet(p->A, da, ADD_VALUES));
  PetscCall(MatDiagonalSet(p->R, dr, ADD_VALUES));
  PetscCall(Compare(p, "MatDiagonalSet(ADD_VALUES)"));

  PetscCall(MatSetOption(p->A, MAT_NEW_NONZERO_LOCATIONS, PETSC_FALSE));
  PetscCall(MatSetOption(p->R, MAT_NEW_NONZERO_LOCATIONS, PETSC_FALSE));
  PetscCall(MatStoreValues(p->A));
  PetscCall(MatStoreValues(p->R));
  PetscCall(MatScale(p->A, 3.0));
  PetscCall(MatScale(p->R, 3.0));
  PetscCall(Compare(p, "MatStoreValues() and MatScale()"));
  PetscCall(MatRetrieveValues(p->A));
  PetscCall(MatRetrieveValues(p->R));
  PetscCall(Compare(p, "MatRetrieveValues()"));

  for (PetscInt i = p->rstart; i < p->rend && nzrows < 64; i++)
    if (i % 7 == 3) zrows[nzrows++] = i;
  PetscCall(MatZeroRows(p->A, nzrows, zrows, 3.0, NULL, NULL));
  PetscCall(MatZeroRows(p->R, nzrows, zrows, 3.0, NULL, NULL));
  PetscCall(Compare(p, "MatZeroRows()"));
  PetscCall(SetValues(p, 3));
  PetscCall(Compare(p, "MatZeroRows() then MatSetValues() and assembly"));

  PetscCall(VecDestroy(&la));
  PetscCall(VecDestroy(&lr));
  PetscCall(VecDestroy(&ra));
  PetscCall(VecDestroy(&rr));
  PetscCall(VecDestroy(&da));
  PetscCall(VecDestroy(&dr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The options given on the command line, as the getters see them, on the matrix and on its blocks */
static PetscErrorCode CheckOptionsRead(Mat A, PetscBool pjds, const char *which)
{
  PetscInt        br, expect_br = 32, threshold, expect_threshold = 0;
  MatJaggedKernel kernel, expect_kernel = MAT_JAGGED_KERNEL_AUTO;
  PetscBool       flg, expect_single = PETSC_FALSE, expect_host = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_pjds_block_rows", &expect_br, NULL));
  PetscCall(PetscOptionsGetEnum(NULL, NULL, "-mat_jagged_kernel", MatJaggedKernels, (PetscEnum *)&expect_kernel, NULL));
  if (expect_kernel == MAT_JAGGED_KERNEL_SPLIT) PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_jagged_long_row_threshold", &expect_threshold, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_jagged_single", &expect_single, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_jagged_host", &expect_host, NULL));
  if (pjds) {
    PetscCall(MatPJDSGetBlockRows(A, &br));
    CHECK(br == expect_br, "%s: MatPJDSGetBlockRows() gave %" PetscInt_FMT ", not %" PetscInt_FMT, which, br, expect_br);
  }
  PetscCall(MatJaggedGetKernel(A, &kernel, &threshold));
  CHECK(kernel == expect_kernel && threshold == expect_threshold, "%s: MatJaggedGetKernel() gave %s %" PetscInt_FMT ", not %s %" PetscInt_FMT, which, MatJaggedKernels[kernel], threshold, MatJaggedKernels[expect_kernel], expect_threshold);
  PetscCall(MatJaggedGetSinglePrecision(A, &flg));
  CHECK(flg == expect_single, "%s: MatJaggedGetSinglePrecision() gave %d", which, (int)flg);
  PetscCall(MatJaggedGetUseHost(A, &flg));
  CHECK(flg == expect_host, "%s: MatJaggedGetUseHost() gave %d", which, (int)flg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each setter with a value read back by its getter, bad values refused, the product right after each */
static PetscErrorCode CheckSetters(Pair *p, PetscBool pjds)
{
  Mat             A = p->A;
  PetscInt        br, threshold, br0, threshold0;
  MatJaggedKernel kernel, kernel0;
  PetscBool       flg, single0, host0;

  PetscFunctionBeginUser;
  if (pjds) {
    PetscCall(MatPJDSGetBlockRows(A, &br0));
    PetscCall(MatPJDSSetBlockRows(A, 5));
    PetscCall(MatPJDSGetBlockRows(A, &br));
    CHECK(br == 5, "MatPJDSGetBlockRows() gave %" PetscInt_FMT ", not 5", br);
    PetscCall(Compare(p, "MatPJDSSetBlockRows(5)"));
    CHECK_REFUSED(MatPJDSSetBlockRows(A, 0), PETSC_ERR_ARG_OUTOFRANGE);
    PetscCall(MatPJDSSetBlockRows(A, br0));
  } else CHECK_REFUSED(MatPJDSSetBlockRows(A, 8), PETSC_ERR_SUP); /* not for JDS */

  PetscCall(MatJaggedGetKernel(A, &kernel0, &threshold0));
  PetscCall(MatJaggedSetKernel(A, MAT_JAGGED_KERNEL_SPLIT, 2));
  PetscCall(MatJaggedGetKernel(A, &kernel, &threshold));
  CHECK(kernel == MAT_JAGGED_KERNEL_SPLIT && threshold == 2, "MatJaggedGetKernel() gave %s %" PetscInt_FMT ", not split 2", MatJaggedKernels[kernel], threshold);
  PetscCall(Compare(p, "MatJaggedSetKernel(split, 2)"));
  PetscCall(MatJaggedSetKernel(A, MAT_JAGGED_KERNEL_JAGGED, PETSC_DETERMINE));
  PetscCall(MatJaggedGetKernel(A, &kernel, NULL));
  CHECK(kernel == MAT_JAGGED_KERNEL_JAGGED, "MatJaggedGetKernel() gave %s, not jagged", MatJaggedKernels[kernel]);
  PetscCall(Compare(p, "MatJaggedSetKernel(jagged)"));
  CHECK_REFUSED(MatJaggedSetKernel(A, MAT_JAGGED_KERNEL_SPLIT, -2), PETSC_ERR_ARG_OUTOFRANGE);
  PetscCall(MatJaggedSetKernel(A, kernel0, threshold0));

  PetscCall(MatJaggedGetSinglePrecision(A, &single0));
  PetscCall(MatJaggedSetSinglePrecision(A, (PetscBool)!single0));
  PetscCall(MatJaggedGetSinglePrecision(A, &flg));
  CHECK(flg == !single0, "MatJaggedGetSinglePrecision() gave %d", (int)flg);
  PetscCall(MatJaggedSetSinglePrecision(A, single0));

  PetscCall(MatJaggedGetUseHost(A, &host0));
  if (!host0) { /* on the GPU: the host kernels and back (without a GPU, the GPU kernels cannot be tried) */
    PetscCall(MatJaggedSetUseHost(A, PETSC_TRUE));
    PetscCall(MatJaggedGetUseHost(A, &flg));
    CHECK(flg, "MatJaggedGetUseHost() gave %d", (int)flg);
    PetscCall(Compare(p, "MatJaggedSetUseHost(true)"));
    PetscCall(MatJaggedSetUseHost(A, PETSC_FALSE));
  }
  PetscCall(MatJaggedGetUseHost(A, &flg));
  CHECK(flg == host0, "MatJaggedGetUseHost() gave %d", (int)flg);
  PetscCall(Compare(p, "the setters, options set back"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Pair        p;
  PetscInt    nz = 6;
  PetscBool   pjds;
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscJaggedInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  p.N   = 300;
  p.tol = 1e-10;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &p.N, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nz", &nz, NULL));
  PetscCheck(nz >= 0 && nz < 63, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-nz must be in [0, 62]");

  PetscCall(Create(p.N, nz, NULL, &p.A));
  PetscCall(Create(p.N, nz, MATAIJ, &p.R));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)p.A, &pjds, MATSEQPJDSCUDA, MATMPIPJDSCUDA, ""));
  PetscCall(MatGetOwnershipRange(p.A, &p.rstart, &p.rend));
  PetscCall(MatCreateVecs(p.A, &p.xa, &p.ya));
  PetscCall(MatCreateVecs(p.R, &p.xr, &p.yr));
  if (size > 1) { /* the GPU types' MatCreateVecs(): no host copy until one is used (VecCreate() of a VECMPICUDA makes one) */
    PetscBool        host;
    PetscOffloadMask mask[2];

    PetscCall(MatJaggedGetUseHost(p.A, &host));
    PetscCall(VecGetOffloadMask(p.xa, &mask[0]));
    PetscCall(VecGetOffloadMask(p.ya, &mask[1]));
    for (int k = 0; k < 2; k++) CHECK(host || !PetscOffloadHost(mask[k]), "MatCreateVecs() gave a vector with a host copy (%s)", PetscOffloadMaskToString(mask[k]));
  }
  PetscCall(FillVec(p.xa, 0.1));
  PetscCall(FillVec(p.xr, 0.1));

  PetscCall(CheckOptionsRead(p.A, pjds, "the matrix"));
  PetscCall(Assemble(&p, nz));
  if (size > 1) {
    Mat d, o;

    PetscCall(MatMPIAIJGetSeqAIJ(p.A, &d, &o, NULL));
    PetscCall(CheckOptionsRead(d, pjds, "its diagonal block"));
    PetscCall(CheckOptionsRead(o, pjds, "its off-diagonal block"));
  }
  PetscCall(ValueChanges(&p));
  PetscCall(CheckSetters(&p, pjds));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "jaggedoffload: %" PetscInt_FMT " checks passed\n", nchecks));
  PetscCall(VecDestroy(&p.xa));
  PetscCall(VecDestroy(&p.xr));
  PetscCall(VecDestroy(&p.ya));
  PetscCall(VecDestroy(&p.yr));
  PetscCall(MatDestroy(&p.A));
  PetscCall(MatDestroy(&p.R));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # the GPU runs check one thing more (MatJaggedSetUseHost(true): from the device copy to the host
   # kernels), so the references leave out the check numbers and that line
   testset:
      args: -mat_jagged_host
      filter: grep -v "MatJaggedSetUseHost.true" | sed -E "s/^check [0-9]+:/check:/" | sed -E "s/: [0-9]+ checks passed/: checks passed/"
      test:
         suffix: pjds
         args: -mat_type pjdscuda
      test:
         suffix: pjds_np2
         nsize: 2
         args: -mat_type pjdscuda
      test:
         suffix: pjds_options_np2
         nsize: 2
         args: -mat_type pjdscuda -mat_pjds_block_rows 8 -mat_jagged_kernel split -mat_jagged_long_row_threshold 3 -mat_jagged_single
      test:
         suffix: jds
         args: -mat_type jdscuda
      test:
         suffix: jds_np2
         nsize: 2
         args: -mat_type jdscuda
      test:
         suffix: jds_options
         args: -mat_type jdscuda -mat_jagged_kernel jagged -mat_jagged_single

   # the same checks with the GPU kernels and the device copy
   testset:
      requires: cuda_device
      args: -use_gpu_aware_mpi 0
      filter: grep -v "MatJaggedSetUseHost.true" | sed -E "s/^check [0-9]+:/check:/" | sed -E "s/: [0-9]+ checks passed/: checks passed/"
      test:
         suffix: gpu_pjds
         args: -mat_type pjdscuda
         output_file: output/jaggedoffload_pjds.out
      test:
         suffix: gpu_pjds_np2
         nsize: 2
         args: -mat_type pjdscuda
         output_file: output/jaggedoffload_pjds_np2.out
      test:
         suffix: gpu_pjds_options_np2
         nsize: 2
         args: -mat_type pjdscuda -mat_pjds_block_rows 8 -mat_jagged_kernel split -mat_jagged_long_row_threshold 3 -mat_jagged_single
         output_file: output/jaggedoffload_pjds_options_np2.out
      test:
         suffix: gpu_jds
         args: -mat_type jdscuda
         output_file: output/jaggedoffload_jds.out
      test:
         suffix: gpu_jds_np2
         nsize: 2
         args: -mat_type jdscuda
         output_file: output/jaggedoffload_jds_np2.out
      test:
         suffix: gpu_jds_options
         args: -mat_type jdscuda -mat_jagged_kernel jagged -mat_jagged_single
         output_file: output/jaggedoffload_jds_options.out

TEST*/
