static char help[] = "Checks the sparse products of sequential jagged matrices (those PCGAMG's set-up makes) against MATSEQAIJ's.\n\
A random operator A (bs x bs blocks) and a prolongator P made by MatSetValues() give A P (MatMatMult()), P^T (A P)\n\
(MatTransposeMatMult()), P^T A P (MatPtAP()) and R A R^T (MatRARt(), R = P^T), each compared entry by entry with the same\n\
product of MATSEQAIJ copies, again after A's values change (MAT_REUSE_MATRIX). Prints the type of the results and where\n\
the products ran (GPU flops logged by their numeric phases). With -nb 40000 A's column indices (10 MB) are pinned for the\n\
upload of its twin's pattern (the twin's values come from A's jagged copy on the GPU).\n\
  -type <pjdscuda>  the type (root name)\n\
  -bs <3>           the block size of A\n\
  -nb <400>         block rows of A; P has one column for every 4 rows of A, and two entries a row\n\n";

#include <petscjagged.h>

/* the relative error allowed: the GPU sums in another order than MATSEQAIJ's host code */
#define PRODUCT_TOL (1e3 * PETSC_MACHINE_EPSILON)

/* A: bs x bs blocks, each block row its diagonal block and about 6 others near it; P: n x n/4, P(i, i/4) and P(i, i/4 + 1) */
static PetscErrorCode MakeOperands(MatType type, PetscInt bs, PetscInt nb, PetscRandom rnd, Mat *A, Mat *P)
{
  const PetscInt n = nb * bs, nc = (n + 3) / 4;
  PetscScalar   *v;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 7 * bs, NULL, A));
  PetscCall(MatSetBlockSize(*A, bs));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(PetscMalloc1(bs * bs, &v));
  for (PetscInt bi = 0; bi < nb; bi++)
    for (PetscInt k = 0; k < 7; k++) {
      PetscReal r;
      PetscInt  bj = bi;

      if (k) {
        PetscCall(PetscRandomGetValueReal(rnd, &r));
        bj = PetscMin(nb - 1, PetscMax(0, bi + (PetscInt)((r - 0.5) * 30)));
      }
      for (PetscInt e = 0; e < bs * bs; e++) PetscCall(PetscRandomGetValue(rnd, &v[e]));
      PetscCall(MatSetValuesBlocked(*A, 1, &bi, 1, &bj, v, ADD_VALUES));
    }
  PetscCall(PetscFree(v));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatConvert(*A, type, MAT_INPLACE_MATRIX, A));

  PetscCall(MatCreate(PETSC_COMM_SELF, P));
  PetscCall(MatSetSizes(*P, n, nc, n, nc));
  PetscCall(MatSetType(*P, type));
  PetscCall(MatSeqAIJSetPreallocation(*P, 2, NULL));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt    cols[2] = {i / 4, PetscMin(nc - 1, i / 4 + 1)};
    PetscScalar pv[2];

    PetscCall(PetscRandomGetValue(rnd, &pv[0]));
    PetscCall(PetscRandomGetValue(rnd, &pv[1]));
    PetscCall(MatSetValues(*P, 1, &i, cols[0] == cols[1] ? 1 : 2, cols, pv, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*P, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* got against ref entry by entry, relative to ref's largest entry; got must be of type */
static PetscErrorCode CheckMatClose(const char *what, Mat got, Mat ref, MatType type, PetscReal tol, PetscInt *checks)
{
  Mat       d;
  PetscReal nd, nr;
  PetscBool same;
  MatType   gtype;

  PetscFunctionBeginUser;
  PetscCall(MatGetType(got, &gtype));
  PetscCall(PetscStrcmp(gtype, type, &same));
  PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the result is a %s, not a %s", what, gtype, type);
  PetscCall(MatConvert(got, MATSEQAIJ, MAT_INITIAL_MATRIX, &d));
  PetscCall(MatAXPY(d, -1.0, ref, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(d, NORM_MAX, &nd));
  PetscCall(MatNorm(ref, NORM_MAX, &nr));
  PetscCall(MatDestroy(&d));
  nd /= PetscMax(nr, PETSC_SMALL);
  PetscCall(PetscInfo(NULL, "%s: relative error %g\n", what, (double)nd));
  PetscCheck(nd <= tol, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: relative error %g above %g", what, (double)nd, (double)tol);
  (*checks)++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* C = f(A, B) of the jagged operands and Cs = f(As, Bs) of their MATSEQAIJ copies (f: MatMatMult(), MatPtAP(), ...), compared */
static PetscErrorCode CheckProduct(const char *what, PetscErrorCode (*f)(Mat, Mat, MatReuse, PetscReal, Mat *), Mat A, Mat B, Mat As, Mat Bs, MatReuse reuse, MatType type, PetscInt *checks, Mat *C, Mat *Cs)
{
  PetscFunctionBeginUser;
  PetscCall((*f)(A, B, reuse, PETSC_DETERMINE, C));
  PetscCall((*f)(As, Bs, reuse, PETSC_DETERMINE, Cs));
  PetscCall(CheckMatClose(what, *C, *Cs, type, PRODUCT_TOL, checks));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* GPU flops logged so far by the event named name */
static PetscErrorCode EventGpuFlops(const char *name, PetscLogDouble *flops)
{
  PetscLogEvent      ev;
  PetscEventPerfInfo info;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventGetId(name, &ev));
  PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, ev, &info));
  *flops = info.GpuFlops;
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char           root[64] = "pjdscuda";
  MatType        type;
  PetscInt       bs = 3, nb = 400, checks = 0;
  PetscRandom    rnd;
  Mat            A, P, R, As, Ps, Rs, AP, PtAP, PtAPs, RARt, RARts, PtAPP, PtAPPs, APs;
  PetscLogDouble gpuflops[2];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscJaggedInitializePackage());
  PetscCall(PetscLogDefaultBegin()); /* the GPU flops of the products' events */
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", root, sizeof(root), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bs", &bs, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nb", &nb, NULL));
  type = !strcmp(root, "jdscuda") ? MATSEQJDSCUDA : MATSEQPJDSCUDA;
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetFromOptions(rnd));

  PetscCall(MakeOperands(type, bs, nb, rnd, &A, &P));
  PetscCall(MatConvert(A, MATSEQAIJ, MAT_INITIAL_MATRIX, &As));
  PetscCall(MatConvert(P, MATSEQAIJ, MAT_INITIAL_MATRIX, &Ps));
  PetscCall(MatTranspose(P, MAT_INITIAL_MATRIX, &R));
  PetscCall(MatTranspose(Ps, MAT_INITIAL_MATRIX, &Rs));

  PetscCall(CheckProduct("A P", MatMatMult, A, P, As, Ps, MAT_INITIAL_MATRIX, type, &checks, &AP, &APs));
  PetscCall(CheckProduct("P^T (A P)", MatTransposeMatMult, P, AP, Ps, APs, MAT_INITIAL_MATRIX, type, &checks, &PtAPP, &PtAPPs));
  PetscCall(CheckProduct("P^T A P", MatPtAP, A, P, As, Ps, MAT_INITIAL_MATRIX, type, &checks, &PtAP, &PtAPs));
  PetscCall(CheckProduct("R A R^T", MatRARt, A, R, As, Rs, MAT_INITIAL_MATRIX, type, &checks, &RARt, &RARts));

  /* A's values change (on the host CSR and the jagged copy): the products again on the same patterns */
  PetscCall(MatShift(A, 2.0));
  PetscCall(MatShift(As, 2.0));
  PetscCall(MatScale(A, -0.5));
  PetscCall(MatScale(As, -0.5));
  PetscCall(CheckProduct("A P again", MatMatMult, A, P, As, Ps, MAT_REUSE_MATRIX, type, &checks, &AP, &APs));
  PetscCall(CheckProduct("P^T A P again", MatPtAP, A, P, As, Ps, MAT_REUSE_MATRIX, type, &checks, &PtAP, &PtAPs));
  { /* the result as an operator: its product against MATSEQAIJ's */
    Vec       x, y, ys;
    PetscReal err, ref;

    PetscCall(MatCreateVecs(PtAP, &x, &y));
    PetscCall(MatCreateVecs(PtAPs, NULL, &ys));
    PetscCall(VecSetRandom(x, rnd));
    PetscCall(MatMult(PtAP, x, y));
    PetscCall(MatMult(PtAPs, x, ys));
    PetscCall(VecAXPY(y, -1.0, ys));
    PetscCall(VecNorm(y, NORM_INFINITY, &err));
    PetscCall(VecNorm(ys, NORM_INFINITY, &ref));
    PetscCheck(err <= PRODUCT_TOL * ref, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatMult of P^T A P: relative error %g above %g", (double)(err / ref), (double)PRODUCT_TOL);
    checks++;
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(VecDestroy(&ys));
  }

  PetscCall(EventGpuFlops("MatMatMultNum", &gpuflops[0]));
  PetscCall(EventGpuFlops("MatPtAPNumeric", &gpuflops[1]));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "results of type %s; the products' numeric phases ran on the %s\n", type, gpuflops[0] > 0 && gpuflops[1] > 0 ? "GPU" : "host"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%" PetscInt_FMT " checks passed\n", checks));

  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&P));
  PetscCall(MatDestroy(&R));
  PetscCall(MatDestroy(&As));
  PetscCall(MatDestroy(&Ps));
  PetscCall(MatDestroy(&Rs));
  PetscCall(MatDestroy(&AP));
  PetscCall(MatDestroy(&APs));
  PetscCall(MatDestroy(&PtAPP));
  PetscCall(MatDestroy(&PtAPPs));
  PetscCall(MatDestroy(&PtAP));
  PetscCall(MatDestroy(&PtAPs));
  PetscCall(MatDestroy(&RARt));
  PetscCall(MatDestroy(&RARts));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: host
      args: -mat_jagged_host -bs {{1 3}separate output}
      output_file: output/jaggedproduct_host.out
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "results of type [a-z]+|ran on the [A-Za-z]+|[0-9]+ checks passed"

   test:
      suffix: gpu
      requires: cuda_device
      args: -use_gpu_aware_mpi 0 -bs {{1 3 6}separate output} -type {{pjdscuda jdscuda}separate output}
      output_file: output/jaggedproduct_gpu.out
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "ran on the [A-Za-z]+|[0-9]+ checks passed"

   test:
      suffix: gpu_pinned
      requires: cuda_device
      args: -use_gpu_aware_mpi 0 -bs 3 -nb 40000
      output_file: output/jaggedproduct_gpu.out
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "ran on the [A-Za-z]+|[0-9]+ checks passed"

TEST*/
