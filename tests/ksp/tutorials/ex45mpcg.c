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

TEST*/
