/*
   PETSc's KSP tutorial ex45 (3D Laplacian on a DMDA), unmodified, with the matrix type chosen by
   -dm_mat_type: DMCreateMatrix() makes a jagged matrix; the residual within its bound.
*/
#include "ex45.c"

/*TEST

   test:
      suffix: dm_mat_type
      nsize: {{1 2}separate output}
      args: -dll_append ${PETSCJAGGED_LIB} -dm_mat_type pjdscuda -mat_jagged_host -da_grid_x 12 -da_grid_y 12 -da_grid_z 12 -ksp_type cg -pc_type jacobi -ksp_rtol 1e-12 -ksp_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Residual norm" 1e-8 | ${PETSCJAGGED_DIR}/tests/harness/keep "Residual norm <= [^ ]+|type: (seq|mpi)aijpjdscuda" | sort -u

TEST*/
