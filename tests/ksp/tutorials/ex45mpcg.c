/*
   PETSc's KSP tutorial ex45 (a 3D Laplacian on a DMDA, KSPSetComputeOperators), unmodified: the plugin
   reaches it only through -dll_append. These tests run it with -ksp_type mpcg.
*/
#include "ex45.c"

/*TEST

   test:
      suffix: np2
      nsize: 2
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -pc_type jacobi -da_grid_x 24 -da_grid_y 24 -da_grid_z 24 -ksp_rtol 1e-10 -ksp_converged_reason

   test:
      # PCMG on ex45's own coarse operators (KSPSetComputeOperators): 10 inner iterations, where CG takes 11 with the same PC
      suffix: mg
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -pc_type mg -pc_mg_levels 3 -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -ksp_rtol 1e-10 -ksp_converged_reason -ksp_view
      filter: grep -E -o "CONVERGED_RTOL iterations [0-9]+|inner .single precision. iterations since set-up: [0-9]+|the operator is not symmetric; directions conjugate from the left from outer iteration [0-9]+ on"

   test:
      # PCMG with Chebyshev/Jacobi smoothers on ex45's own coarse operators: the inner PC runs as PCSPCG's single-precision V-cycle
      suffix: mg_jacobi
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type jacobi -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -ksp_rtol 1e-10 -ksp_converged_reason -ksp_view
      filter: grep -E -o "CONVERGED_RTOL iterations [0-9]+|inner .single precision. iterations since set-up: [0-9]+|mg, its V-cycle run in single precision|single-precision V-cycle: [0-9]+ levels|level [0-9]+: [0-9]+ rows"

   test:
      # the coarse solve PCMG's KSP in double: it starts from a zero guess, though ex45's DM gives the KSP an initial guess
      suffix: mg_jacobi_coarse_double
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type jacobi -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -ksp_rtol 1e-10 -ksp_converged_reason -ksp_view -pc_spcg_mg_dense_max 0
      filter: grep -E -o "CONVERGED_RTOL iterations [0-9]+|inner .single precision. iterations since set-up: [0-9]+|mg, its V-cycle run in single precision|level 0: [0-9]+ rows, PCMG.s coarse solve in double precision"

   test:
      # the same on 2 processes: the V-cycle in single precision too (its coarse solve PCMG's KSP in double), the same counts
      suffix: mg_jacobi_np2
      nsize: 2
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type jacobi -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -ksp_rtol 1e-10 -ksp_converged_reason -ksp_view
      filter: grep -E -o "CONVERGED_RTOL iterations [0-9]+|inner .single precision. iterations since set-up: [0-9]+|mg, its V-cycle run in single precision|single-precision V-cycle: [0-9]+ levels|level [0-9]+: [0-9]+ rows"
      output_file: output/ex45mpcg_mg_jacobi.out

   # GPU (device suite): PCMG (Chebyshev/SOR smoothers on ex45's own coarse operators) and ILU (cuSPARSE) inside the inner loop
   test:
      suffix: gpu_mg
      requires: cuda_device
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -pc_type mg -pc_mg_levels 3 -dm_mat_type aijcusparse -dm_vec_type cuda -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -ksp_rtol 1e-10 -ksp_converged_reason -ksp_view -use_gpu_aware_mpi 0
      filter: grep -E -o "CONVERGED_RTOL|inner iterations run on the GPU|mg, applied in double precision|the operator is not symmetric; directions conjugate from the left"
   test:
      # PCMG with Chebyshev/Jacobi smoothers: the single-precision V-cycle on the GPU, inside the inner loop's CUDA graph
      suffix: gpu_mg_jacobi
      requires: cuda_device
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type jacobi -dm_mat_type aijcusparse -dm_vec_type cuda -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -ksp_rtol 1e-10 -ksp_converged_reason -ksp_view -use_gpu_aware_mpi 0
      filter: grep -E -o "CONVERGED_RTOL|inner iterations run on the GPU, with the V-cycle, replayed as a CUDA graph|mg, its V-cycle run in single precision|single-precision V-cycle on the GPU: [0-9]+ levels|level [0-9]+: [0-9]+ rows"
   test:
      # on 2 processes: the V-cycle on the GPU, not captured (its halo exchanges and its coarse right-hand side cross the host)
      suffix: gpu_mg_jacobi_np2
      nsize: 2
      requires: cuda_device
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type jacobi -dm_mat_type aijcusparse -dm_vec_type cuda -da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -ksp_rtol 1e-10 -ksp_converged_reason -ksp_view -use_gpu_aware_mpi 0
      filter: grep -E -o "CONVERGED_RTOL|inner iterations run on the GPU, with the V-cycle, its coarse right-hand side gathered through the host at each iteration|mg, its V-cycle run in single precision|single-precision V-cycle on the GPU: [0-9]+ levels|level [0-9]+: [0-9]+ rows"
   test:
      suffix: gpu_ilu
      requires: cuda_device
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -pc_type ilu -dm_mat_type aijcusparse -dm_vec_type cuda -da_grid_x 32 -da_grid_y 32 -da_grid_z 32 -ksp_rtol 1e-10 -ksp_converged_reason -ksp_view -use_gpu_aware_mpi 0
      filter: grep -E -o "CONVERGED_RTOL|inner iterations run on the GPU|ilu, applied in double precision|the operator is not symmetric; directions conjugate from the left"

TEST*/
