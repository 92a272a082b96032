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

   test:
      # PCMG on a singular operator (Neumann conditions): the inner PC's output loses the null space as under KSPCG
      # (without that, 20 inner iterations where CG takes 8: the null-space part took the single-precision digits)
      suffix: mg
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -pc_type mg -pc_mg_levels 5 -da_grid_x 257 -da_grid_y 257 -ksp_rtol 1e-10 -ksp_converged_reason -ksp_view
      filter: grep -E -o "CONVERGED_RTOL iterations [0-9]+|inner .single precision. iterations since set-up: [0-9]+"

   # GPU (device suite)
   testset:
      requires: cuda_device
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -pc_type jacobi -dm_mat_type aijcusparse -dm_vec_type cuda -da_grid_x 128 -da_grid_y 128 -ksp_rtol 1e-10 -ksp_converged_reason -ksp_view -use_gpu_aware_mpi 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "Linear solve converged due to CONVERGED_RTOL|jacobi, run in single precision" | LC_ALL=C sort -u
      output_file: output/ex50mpcg_gpu_jacobi.out
      test:
         suffix: gpu_jacobi_np1
      test:
         suffix: gpu_jacobi_np2
         nsize: 2

TEST*/
