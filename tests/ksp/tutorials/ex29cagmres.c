/*
   PETSc's KSP tutorial ex29 (2D, a DMDA, KSPSetComputeOperators), unmodified, solved with KSPCAGMRES:
   the plugin reaches it only through -dll_append.
*/
#include "ex29.c"

/*TEST

   test:
      # Neumann conditions (a constant null space): left preconditioning removes it from every product, as GMRES
      suffix: nullspace_np2
      nsize: 2
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type cagmres -bc_type neumann -da_refine 2 -pc_type jacobi -ksp_rtol 1e-10 -ksp_converged_reason -ksp_view

TEST*/
