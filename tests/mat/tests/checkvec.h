/* Shared by the matrix tests: got against ref, relative to ref's largest entry */
#pragma once

#include <petscvec.h>

/* Fails when |got - ref|_inf / max(|ref|_inf, tiny) exceeds tol; counts the check. got and ref may be of different Vec types. */
static inline PetscErrorCode CheckVecClose(const char *what, Vec got, Vec ref, PetscReal tol, PetscInt *count)
{
  Vec       d;
  PetscReal nd, nr;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(ref, &d));
  PetscCall(VecCopy(got, d));
  PetscCall(VecAXPY(d, -1.0, ref));
  PetscCall(VecNorm(d, NORM_INFINITY, &nd));
  PetscCall(VecNorm(ref, NORM_INFINITY, &nr));
  PetscCall(VecDestroy(&d));
  nd /= PetscMax(nr, PETSC_SMALL);
  PetscCall(PetscInfo(NULL, "%s: relative error %g\n", what, (double)nd));
  PetscCheck(nd <= tol, PetscObjectComm((PetscObject)ref), PETSC_ERR_PLIB, "%s: relative error %g above %g", what, (double)nd, (double)tol);
  (*count)++;
  PetscFunctionReturn(PETSC_SUCCESS);
}
