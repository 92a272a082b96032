static char help[] = "Checks PCSPCG's GPU inner loop against its host twin: z = B r on a random SPD matrix.\n\
  -n <4000>     rows\n\
  -apply <3>    applications (the graph is replayed after the first)\n\
  -tol <1e-5>   bound on ||z_gpu - z_host|| / ||z_host|| (single-precision rounding, 6e-8 a step, amplified by the inner steps)\n\
  -csr          the operator as AIJCUSPARSE (GPU) and AIJ (host): PCSPCG's single-precision CSR (or DIA) copy and its host twin\n\
  -twin_view    view both PCs (the GPU's first)\n\
  -banded       the random entries on 7 fixed diagonals (offsets 0, +-1, +-3, +-40): the copy of -csr is DIA\n\
  -inner <type> the inner CG's preconditioner (PCSPCGSetInnerPC()): none, jacobi (single precision), or another (double)\n\
  PCSPCG options (-pc_spcg_max_it, -pc_spcg_jacobi, -pc_spcg_rtol, -pc_spcg_cuda_graph) apply to both.\n\n";

#include <petscjagged.h>

/* A random symmetric, strictly diagonally dominant matrix with positive diagonal (so SPD), about 9 entries a row */
static PetscErrorCode RandomSPD(PetscInt n, PetscRandom rnd, Mat *A)
{
  PetscInt rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 12, NULL, 12, NULL, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; i++) {
    for (PetscInt k = 0; k < 4; k++) { /* entry (i, j) and its mirror (j, i), j near or far */
      PetscScalar u, v;
      PetscInt    j;

      PetscCall(PetscRandomGetValue(rnd, &u));
      PetscCall(PetscRandomGetValue(rnd, &v));
      j = k < 2 ? i + 1 + (PetscInt)(PetscRealPart(u) * 5) : (PetscInt)(PetscRealPart(u) * n);
      if (j >= n || j == i) continue;
      v = -(0.1 + PetscRealPart(v));
      PetscCall(MatSetValue(*A, i, j, v, ADD_VALUES));
      PetscCall(MatSetValue(*A, j, i, v, ADD_VALUES));
      PetscCall(MatSetValue(*A, i, i, -v + 0.05, ADD_VALUES)); /* the diagonals of both rows take |v| plus a margin */
      PetscCall(MatSetValue(*A, j, j, -v + 0.05, ADD_VALUES));
    }
    PetscCall(MatSetValue(*A, i, i, 1e-2, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A random SPD matrix with its entries on the diagonals 0, +-1, +-3, +-40: off-diagonal entries in (-1.1, -0.1], diagonal 6.7 (dominant) */
static PetscErrorCode RandomBanded(PetscInt n, PetscRandom rnd, Mat *A)
{
  const PetscInt offset[3] = {1, 3, 40};
  PetscInt       rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 7, NULL, 7, NULL, A));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; i++) {
    for (PetscInt k = 0; k < 3; k++) {
      const PetscInt j = i + offset[k];
      PetscScalar    v;

      PetscCall(PetscRandomGetValue(rnd, &v));
      v = -(0.1 + PetscRealPart(v));
      if (j >= n) continue;
      PetscCall(MatSetValue(*A, i, j, v, INSERT_VALUES));
      PetscCall(MatSetValue(*A, j, i, v, INSERT_VALUES));
    }
    PetscCall(MatSetValue(*A, i, i, 6.7, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A PCSPCG on A (options of the database, prefix "twin_"), its inner CG preconditioned by -inner when given */
static PetscErrorCode CreateSPCG(Mat A, PC *pc)
{
  char      type[64];
  PetscBool set;

  PetscFunctionBeginUser;
  PetscCall(PCCreate(PETSC_COMM_WORLD, pc));
  PetscCall(PCSetType(*pc, PCSPCG));
  PetscCall(PCSetOperators(*pc, A, A));
  PetscCall(PCSetOptionsPrefix(*pc, "twin_"));
  PetscCall(PCSetFromOptions(*pc));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-inner", type, sizeof(type), &set));
  if (set) {
    PC inner;

    PetscCall(PCCreate(PETSC_COMM_WORLD, &inner));
    PetscCall(PCSetType(inner, type));
    PetscCall(PCSetOperators(inner, A, A));
    PetscCall(PCSPCGSetInnerPC(*pc, inner));
    PetscCall(PCDestroy(&inner));
  }
  PetscCall(PCSetUp(*pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt    n = 4000, napply = 3, ag, ig, ah, ih;
  PetscReal   tol = 1e-5, worst = 0;
  Mat         A, Ag, Ah;
  PC          pcg, pch;
  Vec         rg, zg, rh, zh;
  PetscRandom rnd;
  PetscBool   csr = PETSC_FALSE, banded = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscJaggedInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-apply", &napply, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetFromOptions(rnd));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-banded", &banded, NULL));
  if (banded) PetscCall(RandomBanded(n, rnd, &A));
  else PetscCall(RandomSPD(n, rnd, &A));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-csr", &csr, NULL));
  if (csr) { /* the single-precision CSR copy: AIJCUSPARSE on the GPU, its host twin for AIJ */
    PetscCall(MatConvert(A, MATAIJCUSPARSE, MAT_INITIAL_MATRIX, &Ag));
    PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &Ah));
  } else {
    PetscCall(MatConvert(A, MATPJDSCUDA, MAT_INITIAL_MATRIX, &Ag)); /* GPU */
    PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &Ah));
    PetscCall(MatConvert(Ah, MATPJDSCUDA, MAT_INPLACE_MATRIX, &Ah));
    PetscCall(MatJaggedSetUseHost(Ah, PETSC_TRUE)); /* the host twin */
  }
  PetscCall(CreateSPCG(Ag, &pcg));
  PetscCall(CreateSPCG(Ah, &pch));
  PetscCall(MatCreateVecs(Ag, &rg, &zg));
  PetscCall(MatCreateVecs(Ah, &rh, &zh));
  for (PetscInt a = 0; a < napply; a++) {
    PetscReal d, nz;

    PetscCall(VecSetRandom(rh, rnd));
    PetscCall(VecScale(rh, (PetscScalar)PetscPowReal(10.0, (PetscReal)(3 * a - 3)))); /* scale-free: r is normalized inside */
    PetscCall(VecCopy(rh, rg));
    PetscCall(PCApply(pcg, rg, zg));
    PetscCall(PCApply(pch, rh, zh));
    PetscCall(VecNorm(zh, NORM_2, &nz));
    PetscCall(VecAXPY(zh, -1.0, zg)); /* host - device, on the host */
    PetscCall(VecNorm(zh, NORM_2, &d));
    PetscCheck(nz > 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "z = 0 from the host loop");
    worst = PetscMax(worst, d / nz);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "application %" PetscInt_FMT ": ||z_gpu - z_host|| / ||z_host|| = %.2e\n", a, (double)(d / nz)));
  }
  PetscCall(PCSPCGGetInnerIterations(pcg, &ag, &ig));
  PetscCall(PCSPCGGetInnerIterations(pch, &ah, &ih));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "inner iterations: GPU %" PetscInt_FMT " in %" PetscInt_FMT " applications, host %" PetscInt_FMT " in %" PetscInt_FMT "\n", ig, ag, ih, ah));
  PetscCall(PCViewFromOptions(pcg, NULL, "-view"));
  PetscCall(PCViewFromOptions(pch, NULL, "-view"));
  PetscCheck(ag == napply && ah == napply && ig == ih && ig > 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "The loops ran different inner iterations");
  PetscCheck(worst <= tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "GPU and host inner loops differ by %g > %g", (double)worst, (double)tol);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "GPU inner loop matches its host twin: %.2e <= %.1e\n", (double)worst, (double)tol));
  PetscCall(VecDestroy(&rg));
  PetscCall(VecDestroy(&zg));
  PetscCall(VecDestroy(&rh));
  PetscCall(VecDestroy(&zh));
  PetscCall(PCDestroy(&pcg));
  PetscCall(PCDestroy(&pch));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&Ag));
  PetscCall(MatDestroy(&Ah));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # PCSPCG's GPU inner loop against its host twin on random SPD data (device suite); the program checks
   # the difference and the inner iteration counts, then prints "GPU inner loop matches its host twin"
   testset:
      requires: cuda_device
      args: -use_gpu_aware_mpi 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "GPU inner loop matches its host twin"
      output_file: output/spcgtwin_gpu_matches.out
      test:
         suffix: gpu_graph
         args: -twin_pc_spcg_max_it 10
      test:
         suffix: gpu_jacobi
         args: -twin_pc_spcg_jacobi -twin_pc_spcg_max_it 20
      test:
         suffix: gpu_rtol
         args: -twin_pc_spcg_rtol 1e-2 -twin_pc_spcg_max_it 50
      test:
         suffix: gpu_nograph
         args: -twin_pc_spcg_cuda_graph 0 -twin_pc_spcg_jacobi
      test:
         suffix: gpu_np2
         nsize: 2
         args: -twin_pc_spcg_jacobi
      test:
         suffix: gpu_inner_jacobi
         args: -inner jacobi -twin_pc_spcg_max_it 20
      test:
         suffix: gpu_inner_sor
         args: -inner sor -twin_pc_spcg_max_it 20
      test:
         suffix: gpu_inner_sor_rtol_np2
         nsize: 2
         args: -inner sor -twin_pc_spcg_max_it 30 -twin_pc_spcg_rtol 1e-3
      test:
         suffix: gpu_csr
         args: -csr -twin_pc_spcg_format csr -twin_pc_spcg_max_it 20
      test:
         suffix: gpu_csr_jacobi_nograph
         args: -csr -twin_pc_spcg_format csr -twin_pc_spcg_jacobi -twin_pc_spcg_cuda_graph 0
      test:
         suffix: gpu_csr_np2
         nsize: 2
         args: -csr -twin_pc_spcg_format csr -twin_pc_spcg_jacobi

   # the pJDS copy of a random operator (the default where DIA does not pay), its kernel against the host twin
   testset:
      requires: cuda_device
      args: -csr -twin_view -use_gpu_aware_mpi 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "GPU inner loop matches its host twin|pJDS, [0-9]+ stored entries for [0-9]+ nonzeros" | sed -E "s/pJDS, [0-9]+ stored entries for [0-9]+ nonzeros/pJDS, N stored entries for M nonzeros/" | LC_ALL=C sort -u
      output_file: output/spcgtwin_gpu_pjds.out
      test:
         suffix: gpu_pjds
         args: -twin_pc_spcg_max_it 20
      test:
         suffix: gpu_pjds_jacobi_nograph
         args: -twin_pc_spcg_jacobi -twin_pc_spcg_cuda_graph 0
      test:
         suffix: gpu_pjds_rtol
         args: -twin_pc_spcg_rtol 1e-2 -twin_pc_spcg_max_it 50
      test:
         suffix: gpu_pjds_np2
         nsize: 2
         args: -twin_pc_spcg_jacobi

   # half storage (real scalars): the pJDS copy's values in half precision, scaled by the diagonal, its products on the GPU against
   # the host twin, for an AIJCUSPARSE operator (-csr) and a jagged one (the copy made from its CSR, not the type's own)
   testset:
      requires: cuda_device !complex
      args: -twin_view -twin_pc_spcg_storage half -use_gpu_aware_mpi 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "GPU inner loop matches its host twin|half-precision values of the block scaled by its diagonal|16-bit column distances packed with them \([0-9]+ escapes\)" | LC_ALL=C sort -u
      output_file: output/spcgtwin_gpu_half.out
      test:
         suffix: gpu_half_csr
         args: -csr -twin_pc_spcg_max_it 20
      test:
         suffix: gpu_half_jacobi_nograph
         args: -csr -twin_pc_spcg_jacobi -twin_pc_spcg_cuda_graph 0
      test:
         suffix: gpu_half_jagged
         args: -twin_pc_spcg_max_it 20
      test:
         suffix: gpu_half_np2
         nsize: 2
         args: -csr -twin_pc_spcg_jacobi

   # auto storage (the default; no size limit) on a jagged operator: a packed half copy of its own, made on the GPU from the CSR scattered back
   # from its jagged copy there (the diagonal blocks' on two processes), against the host twin's made from its host CSR
   test:
      suffix: gpu_auto_jagged
      requires: cuda_device !complex
      nsize: {{1 2}}
      args: -twin_view -twin_pc_spcg_max_it 20 -twin_pc_spcg_half_min_nonzeros 0 -use_gpu_aware_mpi 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "GPU inner loop matches its host twin|chosen by auto storage\) and 16-bit column distances packed with them \([0-9]+ escapes\)" | LC_ALL=C sort -u
      output_file: output/spcgtwin_gpu_auto_jagged.out

   # packed half storage with escapes: 200,000 rows whose far entries lie more than 65,535 columns apart in places (on one
   # process, and in the diagonal blocks of two), the packed pattern built on the GPU against the host's, the packed product
   # inside the inner loop against its host twin
   test:
      suffix: gpu_half_escapes
      requires: cuda_device !complex
      nsize: {{1 2}}
      args: -csr -n 200000 -twin_view -twin_pc_spcg_storage half -twin_pc_spcg_max_it 20 -use_gpu_aware_mpi 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "GPU inner loop matches its host twin|16-bit column distances packed with them \([1-9][0-9]* escapes\)" | sed -E "s/\([0-9]+ escapes\)/(escapes)/" | LC_ALL=C sort -u
      output_file: output/spcgtwin_gpu_half_escapes.out

   # the DIA copy of a banded operator (and CSR when asked), its kernel against the host twin
   testset:
      requires: cuda_device
      args: -csr -banded -twin_view -use_gpu_aware_mpi 0
      # what each checks: the GPU loop against its host twin, and the copy the view names
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "GPU inner loop matches its host twin|(diagonal block )?DIA, [48]-byte values on 7 diagonals(, no column indices. off-diagonal block CSR)?|CSR, [48]-byte values with the operator.s own indices" | sed -E "s/[48]-byte/4 or 8-byte/" | LC_ALL=C sort -u
      test:
         suffix: gpu_dia
         args: -twin_pc_spcg_max_it 20
         output_file: output/spcgtwin_gpu_dia.out
      test:
         suffix: gpu_dia_jacobi_nograph
         args: -twin_pc_spcg_jacobi -twin_pc_spcg_cuda_graph 0
         output_file: output/spcgtwin_gpu_dia.out
      test:
         suffix: gpu_dia_np2
         nsize: 2
         args: -twin_pc_spcg_jacobi
      test:
         suffix: gpu_banded_csr
         args: -twin_pc_spcg_format csr


   # a banded jagged operator (MATPJDSCUDA, no -csr): on the GPU the DIA copy found and filled from the jagged
   # format (its host twin: the jagged type's own host copy)
   testset:
      requires: cuda_device
      args: -banded -twin_view -use_gpu_aware_mpi 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "GPU inner loop matches its host twin|(diagonal block )?DIA, [48]-byte values on 7 diagonals(, no column indices. off-diagonal block CSR)?|CSR, [48]-byte values with the operator.s own indices" | sed -E "s/[48]-byte/4 or 8-byte/" | LC_ALL=C sort -u
      test:
         suffix: gpu_jagged_dia
         args: -twin_pc_spcg_max_it 20
         output_file: output/spcgtwin_gpu_dia.out
      test:
         suffix: gpu_jagged_dia_jacobi_nograph
         args: -twin_pc_spcg_jacobi -twin_pc_spcg_cuda_graph 0
         output_file: output/spcgtwin_gpu_dia.out
      test:
         suffix: gpu_jagged_dia_np2
         nsize: 2
         args: -twin_pc_spcg_jacobi
         output_file: output/spcgtwin_gpu_dia_np2.out
      test:
         # -pc_spcg_format pjds in single storage keeps the jagged type's own single-precision copy
         suffix: gpu_jagged_own
         args: -twin_pc_spcg_format pjds -twin_pc_spcg_storage single -twin_pc_spcg_max_it 20
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "GPU inner loop matches its host twin|the matrix.s own single-precision product" | LC_ALL=C sort -u
TEST*/
