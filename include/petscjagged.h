/*
   petsc-jagged: jagged-diagonal GPU matrices and Krylov solvers for PETSc.

   Load into any PETSc program with -dll_append <libdir>/libpetscjagged.so (or PETSC_OPTIONS),
   or link it and call PetscJaggedInitializePackage() after PetscInitialize().
*/
#pragma once

#include <petscsys.h>

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
