/*
   PETSc's KSP tutorial ex2 (a 2D Laplacian), unmodified, solved with KSPCAGMRES: the plugin reaches
   it only through -dll_append, as it reaches any application.
*/
#include "ex2.c"

/*TEST

   testset:
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type cagmres -ksp_rtol 1e-10 -m 40 -n 40 -ksp_view
      test:
         # the view names the type and its matrix-powers kernel; the error within 1e-7
         suffix: np2
         nsize: 2
         filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-7
      test:
         # GPU: pJDS matrix, CUDA vectors, the basis as MATDENSECUDA
         suffix: gpu_pjdscuda_jacobi
         requires: cuda_device
         args: -use_gpu_aware_mpi 0 -vec_type cuda -mat_type pjdscuda -pc_type jacobi
         filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-7 | ${PETSCJAGGED_DIR}/tests/harness/keep "Norm of error [^i]*|type: cagmres|basis storage: seqdensecuda"

TEST*/
