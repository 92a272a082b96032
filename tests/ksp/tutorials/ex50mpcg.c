/*
   PETSc's KSP tutorial ex50 (a 2D Poisson problem with Neumann conditions: a constant null space),
   unmodified: the plugin reaches it only through -dll_append. These tests run it with -ksp_type mpcg.
*/
#include "ex50.c"

/*TEST

   testset:
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -pc_type jacobi -ksp_rtol 1e-10 -ksp_converged_reason
      test:
         suffix: jacobi_np1
         args: -da_grid_x 64 -da_grid_y 64
      test:
         suffix: jacobi_np2
         nsize: 2
         args: -da_grid_x 64 -da_grid_y 64

   # GPU (device suite)
   testset:
      requires: cuda_device
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -pc_type jacobi -dm_mat_type aijcusparse -dm_vec_type cuda -da_grid_x 128 -da_grid_y 128 -ksp_rtol 1e-10 -ksp_converged_reason -ksp_view -use_gpu_aware_mpi 0
      filter: grep -E -o "Linear solve converged due to CONVERGED_RTOL|jacobi, run in single precision|Option left: name:[^ ]*|\[ *[0-9]+\] [0-9]+ bytes" | LC_ALL=C sort -u
      output_file: output/ex50mpcg_gpu_jacobi.out
      test:
         suffix: gpu_jacobi_np1
      test:
         suffix: gpu_jacobi_np2
         nsize: 2

TEST*/
