/*
   The shift of a basis step, shared by the plain and the ghosted kernels (the DIA kernel, matpowersdia.cu,
   applies it inside its product): the kernels call it, it calls no kernel.
*/
#include "matpowersimpl.h"

/*
  Vnew = B Vcur on entry; applies the shift of step j: Vnew -= re[j] Vcur, and for the second shift of
  a conjugate pair (im[j] < 0, real builds) Vnew += im[j]^2 Vprev.
*/
PetscErrorCode MatPowersShift(PetscInt j, const PetscScalar re[], const PetscReal im[], Vec Vnew, Vec Vcur, Vec Vprev)
{
  const PetscScalar r = re ? re[j] : 0.0;

  PetscFunctionBegin;
  if (!PetscDefined(USE_COMPLEX) && im && im[j] < 0) PetscCall(VecAXPBYPCZ(Vnew, -r, (PetscScalar)(im[j] * im[j]), 1.0, Vcur, Vprev));
  else if (r != (PetscScalar)0.0) PetscCall(VecAXPY(Vnew, -r, Vcur));
  PetscFunctionReturn(PETSC_SUCCESS);
}
