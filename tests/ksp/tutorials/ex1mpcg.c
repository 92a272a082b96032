/*
   PETSc's KSP tutorial ex1 (a 1D Laplacian, PCJACOBI set in the code), unmodified: the plugin reaches it
   only through -dll_append. These tests run it with -ksp_type mpcg.
*/
#include "ex1.c"

/*TEST

   test:
      suffix: jacobi
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -n 400 -ksp_rtol 1e-12 -ksp_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-9 | ${PETSCJAGGED_DIR}/tests/harness/keep "Norm of error [^,]*, Iterations"

   test:
      # GPU (device suite); kappa ~ 1.6e6
      suffix: gpu_jacobi
      requires: cuda_device
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -n 2000 -mat_type aijcusparse -vec_type cuda -ksp_rtol 1e-12 -use_gpu_aware_mpi 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-6 | ${PETSCJAGGED_DIR}/tests/harness/keep "Norm of error [^,]*, Iterations"

TEST*/
