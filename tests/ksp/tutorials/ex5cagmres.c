/*
   PETSc's KSP tutorial ex5 (two linear systems solved with one KSP), unmodified, solved with
   KSPCAGMRES: the plugin reaches it only through -dll_append.
*/
#include "ex5.c"

/*TEST

   test:
      # the nonsymmetric variant: both solves converge, relative residuals between 1e-9 and 1e-5
      suffix: nonsym_np2
      nsize: 2
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type cagmres -ksp_cagmres_s 5 -mat_nonsym -m 40 -ksp_converged_reason
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "Linear solve converged due to CONVERGED_RTOL iterations [1-9][0-9]*|Relative norm of the residual [0-9.]+e-0[6-9], Iterations [0-9]+"

TEST*/
