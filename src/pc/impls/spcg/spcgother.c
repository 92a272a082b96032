/*
   PCSPCG's inner preconditioner applied in double precision (an inner PC with no single-precision form: not none,
   Jacobi or a PCMG with an image), called by both inner loops (spcghost.c, spcgdevice.cu) on the double-precision
   vectors they fill and read
*/
#include <petscjagged/private/spcgimpl.h>

/*
  wz = M wr with the inner preconditioner applied in double precision (the host and the device loop), less the
  operator's null space as KSP_PCApply() removes it for KSPCG: without that, on a singular operator (Neumann
  conditions) the null-space part of M r grows in the single-precision inner vectors and takes their digits
  (ksp ex50 with PCMG: outer reductions of 1e-3 where the inner solves reached 1e-6)
*/
PetscErrorCode PCSPCGApplyOther(PC pc)
{
  PC_SPCG       *s = (PC_SPCG *)pc->data;
  PCFailedReason reason;
  MatNullSpace   nullsp;

  PetscFunctionBegin;
  PetscCall(PCApply(s->other, s->wr, s->wz));
  PetscCall(PCGetFailedReason(s->other, &reason));
  if (reason) pc->failedreason = reason;
  PetscCall(MatGetNullSpace(pc->mat, &nullsp));
  if (nullsp) PetscCall(MatNullSpaceRemove(nullsp, s->wz));
  PetscFunctionReturn(PETSC_SUCCESS);
}
