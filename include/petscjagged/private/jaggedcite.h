/*
   Private: the papers the petsc-jagged methods come from, registered with PetscCitationsRegister()
   (listed by -citations) where the methods are created or set up. Each entry is registered once.
*/
#pragma once

#include <petscsys.h>

PETSC_INTERN PetscErrorCode PetscJaggedCitePJDS(void);   /* pJDS format and kernel: Kreutzer et al. */
PETSC_INTERN PetscErrorCode PetscJaggedCiteJDSCG(void);  /* JDS kernel and mixed-precision CG: Cevahir, Nukada and Matsuoka */
PETSC_INTERN PetscErrorCode PetscJaggedCiteCAGMRES(void); /* CA-GMRES on GPUs: Yamazaki et al. */
