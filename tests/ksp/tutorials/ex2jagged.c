/*
   PETSc's KSP tutorial ex2 (a 2D Laplacian solved with KSP), unmodified, with the jagged matrix types
   selected by -mat_type: the solution error within its bound and the type -ksp_view reports.
*/
#include "ex2.c"

/*TEST

   testset:
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_rtol 1e-12 -m 40 -n 30 -ksp_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-9 | ${PETSCJAGGED_DIR}/tests/harness/keep "Norm of error <= [^ ]+|type: (seq|mpi)aij[a-z]*|type: gamg" | sort -u
      test:
         suffix: pjds_host
         nsize: {{1 2 3}separate output}
         args: -mat_type pjdscuda -mat_jagged_host
      test:
         suffix: jds_host_cg
         nsize: 2
         args: -mat_type jdscuda -mat_jagged_host -ksp_type cg -pc_type jacobi
      test:
         suffix: pjds_host_gamg
         nsize: {{1 2}separate output}
         args: -mat_type pjdscuda -mat_jagged_host -pc_type gamg
         filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-8 | ${PETSCJAGGED_DIR}/tests/harness/keep "Norm of error <= [^ ]+|type: (seq|mpi)aijpjdscuda|type: gamg" | sort -u
      test:
         suffix: gpu_aijcusparse
         requires: cuda_device
         args: -info :sys -use_gpu_aware_mpi 0 -vec_type cuda -mat_type aijcusparse -log_view
         filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-9 | ${PETSCJAGGED_DIR}/tests/harness/keep "Norm of error <= [^ ]+|type: seqaijcusparse|MatCUSPARSCopyTo|Registered petsc-jagged [0-9.]+ \(PETSc [0-9.]+" | sort -u
      test:
         suffix: gpu_aijcusparse_np2
         requires: cuda_device
         nsize: 2
         args: -use_gpu_aware_mpi 0 -vec_type cuda -mat_type aijcusparse
      test:
         suffix: gpu_pjdscuda_gamg
         requires: cuda_device
         nsize: {{1 2}separate output}
         args: -use_gpu_aware_mpi 0 -vec_type cuda -mat_type pjdscuda -pc_type gamg
         filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-8 | ${PETSCJAGGED_DIR}/tests/harness/keep "Norm of error <= [^ ]+|type: (seq|mpi)aijpjdscuda|type: gamg" | sort -u
      test:
         suffix: gpu_pjdscuda_cg
         requires: cuda_device
         nsize: {{1 2}separate output}
         args: -use_gpu_aware_mpi 0 -vec_type cuda -mat_type pjdscuda -ksp_type cg -pc_type jacobi
      test:
         suffix: gpu_jdscuda_cg
         requires: cuda_device
         nsize: {{1 2}separate output}
         args: -use_gpu_aware_mpi 0 -vec_type cuda -mat_type jdscuda -ksp_type cg -pc_type jacobi
      test:
         suffix: gpu_pjds_default_pc
         requires: cuda_device
         args: -use_gpu_aware_mpi 0 -vec_type cuda -mat_type pjdscuda

   test:
      # -help lists the types' options, in one section: options are read in MatSetFromOptions() only
      suffix: help_lists_types
      args: -dll_append ${PETSCJAGGED_LIB} -mat_type pjdscuda -mat_jagged_host -help -ksp_rtol 1e-12 -m 40 -n 30
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "pjdscuda|[-]mat_pjds_block_rows|[-]mat_jagged_kernel|Jagged-diagonal GPU matrix options" | sort | uniq -c

TEST*/
