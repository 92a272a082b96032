/*
   PETSc's SNES tutorial ex56 (linear elasticity on a DMPlex cube of hexahedra, GAMG with the rigid-body modes),
   unmodified, on the jagged types (-dm_mat_type pjdscuda: 3 x 3 blocks) and with KSPMPCG: the plugin reaches it only
   through -dll_append. The same program at scale is issue 42's "snes ex56 itself" (bench/blocks-ex56-cases.txt).
*/
#include "../../../snes/tutorials/ex56.c"

/*TEST

   testset:
      nsize: 2
      args: -dll_append ${PETSCJAGGED_LIB} -dm_plex_dim 3 -dm_plex_simplex 0 -dm_plex_box_lower 0,0,0 -dm_plex_box_upper 1,1,1 -dm_plex_box_faces 4,4,4 -petscpartitioner_type simple -petscspace_degree 1 -max_conv_its 2 -snes_type ksponly -ksp_rtol 1e-10 -ksp_norm_type unpreconditioned -pc_type gamg -use_mat_nearnullspace true -dm_mat_type pjdscuda -mat_jagged_host -ksp_converged_reason -ksp_view_mat ::ascii_info
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "Linear solve converged due to [A-Z_]+|type: mpiaijpjdscuda|layout: diagonal block dense 3 x 3 blocks"
      test:
         suffix: pjds_host_cg
         args: -ksp_type cg
         output_file: output/ex56jagged_pjds_host.out
      test:
         suffix: pjds_host_mpcg
         args: -ksp_type mpcg
         output_file: output/ex56jagged_pjds_host.out

   # the same on the GPU: the operator in 3 x 3 blocks on the device, MPCG's inner copy too
   testset:
      requires: cuda_device
      nsize: 2
      args: -dll_append ${PETSCJAGGED_LIB} -use_gpu_aware_mpi 0 -dm_plex_dim 3 -dm_plex_simplex 0 -dm_plex_box_lower 0,0,0 -dm_plex_box_upper 1,1,1 -dm_plex_box_faces 4,4,4 -petscpartitioner_type simple -petscspace_degree 1 -max_conv_its 2 -snes_type ksponly -ksp_rtol 1e-10 -ksp_norm_type unpreconditioned -pc_type gamg -use_mat_nearnullspace true -dm_mat_type pjdscuda -dm_vec_type cuda -ksp_converged_reason -ksp_view_mat ::ascii_info
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "Linear solve converged due to [A-Z_]+|type: mpiaijpjdscuda|layout: diagonal block dense 3 x 3 blocks"
      output_file: output/ex56jagged_pjds_host.out
      test:
         suffix: gpu_pjds_cg
         args: -ksp_type cg
      test:
         suffix: gpu_pjds_mpcg
         args: -ksp_type mpcg

TEST*/
