/*
   PETSc's KSP tutorial ex2 (a 2D Laplacian solved with KSP), unmodified: the plugin reaches it only
   through -dll_append. These tests run it with KSPMPCG and PCSPCG (and, for -citations, KSPCAGMRES).
*/
#include "ex2.c"

/*TEST

   # PETSc's tutorial with -ksp_type mpcg, and the other flexible methods with -pc_type spcg
   testset:
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_rtol 1e-12 -m 40 -n 40 -ksp_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-8 | ${PETSCJAGGED_DIR}/tests/harness/keep "type: spcg|Norm of error [^i]*" | LC_ALL=C sort -u
      output_file: output/ex2mpcg_mpcg_spcg.out
      test:
         suffix: mpcg_spcg
         args: -ksp_type mpcg
      test:
         suffix: fcg_spcg
         args: -ksp_type fcg -pc_type spcg
      test:
         suffix: gcr_spcg
         args: -ksp_type gcr -pc_type spcg
      test:
         suffix: fgmres_spcg
         args: -ksp_type fgmres -pc_type spcg

   # the tutorial's own PCs under -ksp_type mpcg: applied in double precision, or (Jacobi) run in single precision
   testset:
      nsize: 2
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -ksp_rtol 1e-12 -m 60 -n 60 -ksp_view
      test:
         suffix: bjacobi_np2
         args: -pc_type bjacobi
         filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-8 | ${PETSCJAGGED_DIR}/tests/harness/keep "bjacobi, applied in double precision|Norm of error [^i]*" | LC_ALL=C sort -u
      test:
         suffix: jacobi_np2
         args: -pc_type jacobi
         filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-8 | ${PETSCJAGGED_DIR}/tests/harness/keep "jacobi, run in single precision|Norm of error [^i]*" | LC_ALL=C sort -u

   test:
      # the outer residual norms with the inner iterations of each application
      suffix: monitor
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -ksp_monitor_mpcg -m 30 -n 30

   test:
      suffix: spcg_bad_max_it
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -pc_spcg_max_it -2
      filter: Error: grep -E -o "inner iterations \(-pc_spcg_max_it\) must be nonnegative, not -2|Segmentation|signal [0-9]+" | sort -u

   # -citations lists the papers of the methods that ran: MPCG/SPCG and the pJDS matrix type, CA-GMRES alone
   testset:
      args: -dll_append ${PETSCJAGGED_LIB} -citations -ksp_rtol 1e-12 -m 40 -n 30
      test:
         suffix: mpcg_citations
         args: -ksp_type mpcg -mat_type pjdscuda -mat_jagged_host
         filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-8 | ${PETSCJAGGED_DIR}/tests/harness/keep "please cite the following|author += .Ali Cevahir and Akira Nukada and Satoshi Matsuoka.|title += .Fast Conjugate Gradients with Multiple .GPU.s.|author += .Moritz Kreutzer and Georg Hager|title += .Sparse Matrix-Vector Multiplication on .GPGPU. Clusters|Yamazaki|Norm of error [^i]*" | LC_ALL=C sort -u
      test:
         suffix: cagmres_citations
         args: -ksp_type cagmres
         filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-8 | ${PETSCJAGGED_DIR}/tests/harness/keep "please cite the following|author += .Ichitaro Yamazaki and Hartwig Anzt and Stanimire Tomov and Mark Hoemmen and Jack Dongarra.|title += .Improving the Performance of .CA-GMRES. on Multicores with Multiple .GPU.s.|Cevahir|Kreutzer|Norm of error [^i]*" | LC_ALL=C sort -u

   test:
      # the inner solves of PCSPCG are their own -log_view event, with the flops of the inner iterations run
      suffix: log_view
      args: -dll_append ${PETSCJAGGED_LIB} -ksp_type mpcg -log_view -ksp_rtol 1e-12 -m 40 -n 30
      filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-8 | ${PETSCJAGGED_DIR}/tests/harness/keep "^PCApply +[1-9][0-9]* |^PCSPCGInner +[1-9][0-9]* 1\.0 +[^ ]+ +[^ ]+ +[1-9]\.[0-9]+e\+0[4-9] 1\.0 |Norm of error [^i]*" | sed -E -e "s/^PCApply .*$/PCApply line as required/" -e "s/^PCSPCGInner .*$/PCSPCGInner line as required/" | LC_ALL=C sort -u

   # GPU (device suite)
   testset:
      requires: cuda_device
      args: -dll_append ${PETSCJAGGED_LIB} -use_gpu_aware_mpi 0 -ksp_type mpcg -mat_type aijcusparse -vec_type cuda -ksp_rtol 1e-12
      test:
         suffix: gpu_log_view
         args: -log_view -m 40 -n 30
         filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-8 | ${PETSCJAGGED_DIR}/tests/harness/keep "^PCSPCGInner +[1-9][0-9]* 1\.0 +[^ ]+ +[^ ]+ +[1-9]\.[0-9]+e\+0[4-9] 1\.0 |Norm of error [^i]*" | sed -E -e "s/^PCApply .*$/PCApply line as required/" -e "s/^PCSPCGInner .*$/PCSPCGInner line as required/" | LC_ALL=C sort -u
      test:
         suffix: gpu_bjacobi_np2
         nsize: 2
         args: -pc_type bjacobi -m 80 -n 80 -ksp_view
         filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-8 | ${PETSCJAGGED_DIR}/tests/harness/keep "bjacobi, applied in double precision|Norm of error [^i]*" | LC_ALL=C sort -u
         output_file: output/ex2mpcg_bjacobi_np2.out
      test:
         suffix: gpu_aijcusparse
         args: -m 60 -n 60 -ksp_view
         filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-8 | ${PETSCJAGGED_DIR}/tests/harness/keep "type: spcg|on the GPU|Norm of error [^i]*" | LC_ALL=C sort -u

TEST*/
