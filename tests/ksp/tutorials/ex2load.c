/*
   PETSc's KSP tutorial ex2 (a 2D Laplacian solved with KSP), unmodified: the plugin reaches it only
   through -dll_append or PETSC_OPTIONS, as it reaches any application. These tests load it.
*/
#include "ex2.c"

/*TEST

   testset:
      args: -ksp_rtol 1e-12 -m 40 -n 30
      filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-9 | ${PETSCJAGGED_DIR}/tests/harness/keep "Norm of error [^i]*|libpetscjagged[.a-z]*|Registered petsc-jagged [0-9.]+ \(PETSc [0-9.]+" | sort -u
      # (-dll_view is read after PETSc reports unused options: it is listed as one)
      test:
         suffix: dll_append
         args: -dll_append ${PETSCJAGGED_LIB} -dll_view -info :sys
      test:
         suffix: petsc_options
         env: 'PETSC_OPTIONS="-dll_append ${PETSCJAGGED_LIB} -dll_view"'
      test:
         suffix: dll_append_np2
         nsize: 2
         args: -dll_append ${PETSCJAGGED_LIB} -info :sys
         filter: ${PETSCJAGGED_DIR}/tests/harness/bound "Norm of error" 1e-9 | ${PETSCJAGGED_DIR}/tests/harness/keep "Norm of error [^i]*|^\[[01]\] <sys> PetscJaggedInitializePackage\(\): Registered petsc-jagged [0-9.]+ \(PETSc [0-9.]+" | sort -u

   test:
      # a GPU path on a machine without a GPU stops with a clear PETSc error, not a crash
      suffix: path_without_gpu
      requires: !cuda_device
      args: -dll_append ${PETSCJAGGED_LIB} -vec_type cuda -mat_type aijcusparse
      filter: Error: grep -E -o "cudaError(InsufficientDriver|NoDevice)|Segmentation|signal [0-9]+" | sort -u

TEST*/
