/*
   PETSc's KSP tutorial ex25 (1D, a DMDA), unmodified, solved with KSPCAGMRES: the plugin reaches it
   only through -dll_append.
*/
#include "ex25.c"

/*TEST

   test:
      # 400 points, rtol 1e-10, where restarted GMRES nearly stagnates: converged with two passes. The count
      # depends on rounding: on 2 ranks 8530 iterations with the blocks' products, 10627 with the DIA copy of
      # the extended rows (the default; on one rank 9753 and 12090 likewise; KSPGMRES 8837), so the limit is 20000
      suffix: refine_always_np2
      nsize: 2
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type cagmres -pc_type jacobi -da_grid_x 400 -ksp_rtol 1e-10 -ksp_max_it 20000 -ksp_orthogonalization_cgs_refinement_type refine_always -ksp_converged_reason -ksp_view
      # the near stagnation makes the iteration count (~8500) depend on rounding (real and complex builds differ): the
      # counts that follow it are masked
      filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Residual norm" 1e-9 | sed -E -e "s/CONVERGED_RTOL iterations [0-9]+/CONVERGED_RTOL iterations N/" -e "s/last solve: [0-9]+ cycles, [0-9]+ iterations/last solve: N cycles, N iterations/" -e "s/orthogonalized twice: [0-9]+/orthogonalized twice: N/" -e "s/halo exchanges: [0-9]+ for [0-9]+ products/halo exchanges: N for N products/"

TEST*/
