/*
   petsc-jagged: jagged-diagonal GPU matrices and Krylov solvers for PETSc.

   Load into any PETSc program with -dll_append <libdir>/libpetscjagged.so (or PETSC_OPTIONS),
   or link it and call PetscJaggedInitializePackage() after PetscInitialize().
*/
#pragma once

#include <petscksp.h>

#define PETSC_JAGGED_VERSION_MAJOR 0
#define PETSC_JAGGED_VERSION_MINOR 1
#define PETSC_JAGGED_VERSION_SUBMINOR 0

/*MC
   petsc-jagged - a PETSc plugin library of GPU matrix types and Krylov solvers

   Level: beginner

   Notes:
   The library is built against one PETSc install (one scalar type, one precision) and refuses to
   load into a PETSc of another version, scalar type, precision or index size.

   Loading:
.vb
   ./app -dll_append /path/to/libpetscjagged.so [options]
   PETSC_OPTIONS="-dll_append /path/to/libpetscjagged.so" ./app [options]
.ve
   A program that links the library calls `PetscJaggedInitializePackage()` once after `PetscInitialize()`.

.seealso: `PetscJaggedInitializePackage()`, `PetscJaggedFinalizePackage()`, `PetscDLLibraryRegister_petscjagged()`
M*/

PETSC_EXTERN PetscErrorCode PetscJaggedInitializePackage(void);
PETSC_EXTERN PetscErrorCode PetscJaggedFinalizePackage(void);
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_petscjagged(void);
PETSC_EXTERN PetscErrorCode PetscJaggedGetVersion(char[], size_t);

/*
   Matrix types. The root names pick the sequential or the MPI type by communicator size.
*/
#define MATJDSCUDA     "jdscuda"
#define MATSEQJDSCUDA  "seqjdscuda"
#define MATMPIJDSCUDA  "mpijdscuda"
#define MATPJDSCUDA    "pjdscuda"
#define MATSEQPJDSCUDA "seqpjdscuda"
#define MATMPIPJDSCUDA "mpipjdscuda"

/*E
   MatJaggedKernel - How a jagged-diagonal matrix treats rows much longer than the others

   Values:
+  `MAT_JAGGED_KERNEL_AUTO`   - split off the long rows when there are any: rows longer than max(8 x mean, 64), or, in
                                matrices of at most 65536 rows averaging more than 16 entries, rows longer than 16
.  `MAT_JAGGED_KERNEL_JAGGED` - every row in the jagged-diagonal part, one thread per row (the papers' kernels)
-  `MAT_JAGGED_KERNEL_SPLIT`  - rows longer than `-mat_jagged_long_row_threshold` in a CSR part run by a warp (or a block) per row

   Level: intermediate

.seealso: `MATPJDSCUDA`, `MATJDSCUDA`, `MatJaggedSetKernel()`
E*/
typedef enum {
  MAT_JAGGED_KERNEL_AUTO,
  MAT_JAGGED_KERNEL_JAGGED,
  MAT_JAGGED_KERNEL_SPLIT
} MatJaggedKernel;
PETSC_EXTERN const char *const MatJaggedKernels[];

/*
   Scalar of the single-precision copy: float, or a complex of two floats in complex builds
   (same layout as std::complex<float> and float _Complex).
*/
#if defined(PETSC_USE_COMPLEX)
  #if defined(__cplusplus)
    #include <complex>
typedef std::complex<float> PetscJaggedScalarSingle;
  #else
typedef float _Complex PetscJaggedScalarSingle;
  #endif
#else
typedef float PetscJaggedScalarSingle;
#endif

PETSC_EXTERN PetscErrorCode MatJaggedSetSinglePrecision(Mat, PetscBool);
PETSC_EXTERN PetscErrorCode MatJaggedGetSinglePrecision(Mat, PetscBool *);
PETSC_EXTERN PetscErrorCode MatJaggedMultSingle(Mat, const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[]);
PETSC_EXTERN PetscErrorCode MatJaggedSetKernel(Mat, MatJaggedKernel, PetscInt);
PETSC_EXTERN PetscErrorCode MatJaggedSetUseHost(Mat, PetscBool);
PETSC_EXTERN PetscErrorCode MatJaggedGetStorage(Mat, PetscCount *, PetscCount *);

/* Mixed-precision inner-outer CG: the outer flexible CG and the single-precision inner CG */
#define KSPMPCG "mpcg"
#define PCSPCG  "spcg"
PETSC_EXTERN PetscErrorCode PCSPCGGetInnerIterations(PC, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode KSPMonitorMPCG(KSP, PetscInt, PetscReal, PetscViewerAndFormat *);
