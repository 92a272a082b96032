/*
   The level operations of the V-cycle (spcgmgcycle.c) of PCSPCG's single-precision image of a PCMG hierarchy on the
   host (PCSPCGMGOpsHost): the inner preconditioner of the host inner loop (spcghost.c), and the reference twin of the
   device's (spcgmgdevice.cu): each loop here is the arithmetic of a device kernel there, in the same order. The level
   products are the distributed matrices' host products (on several processes each exchanges its ghosts; the V-cycle
   has no dot product, so no reduction).
*/
#include <petscjagged/private/spcgimpl.h>

typedef PetscJaggedScalarSingle S;

static PetscErrorCode MultHost(const MatSingle *A, const S x[], PetscBool add, S y[], void *ctx)
{
  PetscFunctionBegin;
  PetscCall(MatSingleMultHost(A, x, add, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CopyHost(PetscInt n, const S x[], S y[], void *ctx)
{
  PetscFunctionBegin;
  PetscCall(PetscArraycpy(y, x, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ZeroHost(PetscInt n, S y[], void *ctx)
{
  PetscFunctionBegin;
  PetscCall(PetscArrayzero(y, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ResidualHost(PetscInt n, const S b[], S r[], void *ctx)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) r[i] = b[i] - r[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ChebyshevFirstHost(PetscInt n, PetscReal scale, const S dinv[], const S r[], const S x[], S y[], void *ctx)
{
  const S s = (S)scale;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) y[i] = s * dinv[i] * r[i] + x[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ChebyshevHost(PetscInt n, PetscReal ra, PetscReal ro, PetscReal ros, const S dinv[], const S r[], const S pkm1[], const S pk[], S pkp1[], void *ctx)
{
  const S a = (S)ra, o = (S)ro, os = (S)ros;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) pkp1[i] = a * pkm1[i] + o * pk[i] + os * (dinv[i] * r[i]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RichardsonHost(PetscInt n, PetscReal scale, const S dinv[], const S r[], S x[], void *ctx)
{
  const S s = (S)scale;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) x[i] += s * (dinv[i] * r[i]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  x = A^{-1} b on the coarsest level: the product of this process's rows of the dense inverse with the right-hand
  side (on several processes gathered whole first), each row's sum in single precision in the order of the device's
  warp (lane l sums the columns l, l + 32, ..., then the lanes' sums pairwise, 16 apart, 8, 4, 2, 1), or PCMG's
  coarse KSP in double
*/
/* several processes: gather the coarse right-hand side b (this process's rows, in host memory) whole into ball (host memory) */
PetscErrorCode PCSPCGMGCoarseGather(PCSPCGMG mg, const PetscJaggedScalarSingle b[], PetscJaggedScalarSingle ball[])
{
  PCSPCGMGLevel *c = &mg->level[0];
  PetscMPIInt    count;

  PetscFunctionBegin;
  PetscCall(PetscMPIIntCast(sizeof(PetscJaggedScalarSingle) * c->n, &count));
  PetscCallMPI(MPI_Allgatherv(b, count, MPI_BYTE, ball, mg->counts, mg->displs, MPI_BYTE, PetscObjectComm((PetscObject)c->A)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the coarse solve not dense: PCMG's coarse KSP in double on b, x in host memory (they may be the same array) */
PetscErrorCode PCSPCGMGCoarseSolveKSP(PCSPCGMG mg, const PetscJaggedScalarSingle b[], PetscJaggedScalarSingle x[])
{
  const PetscInt     n = mg->level[0].n;
  PetscScalar       *ba;
  const PetscScalar *xa;

  PetscFunctionBegin;
  PetscCall(VecGetArrayWrite(mg->cb, &ba));
  for (PetscInt i = 0; i < n; i++) ba[i] = (PetscScalar)b[i];
  PetscCall(VecRestoreArrayWrite(mg->cb, &ba));
  PetscCall(VecZeroEntries(mg->cx)); /* as PCMG: a zero guess known as such (a DM's initial guess makes the KSP's guess nonzero) */
  PetscCall(KSPSolve(mg->coarse, mg->cb, mg->cx));
  PetscCall(VecGetArrayRead(mg->cx, &xa));
  for (PetscInt i = 0; i < n; i++) x[i] = (PetscJaggedScalarSingle)xa[i];
  PetscCall(VecRestoreArrayRead(mg->cx, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CoarseHost(PCSPCGMG mg, void *ctx)
{
  PCSPCGMGLevel *c = &mg->level[0];
  const PetscInt n = c->n, N = c->N;

  PetscFunctionBegin;
  if (mg->dense) {
    const PetscJaggedScalarSingle *b = c->b;

    if (mg->counts) {
      PetscCall(PCSPCGMGCoarseGather(mg, c->b, mg->ball));
      b = mg->ball;
    }
    for (PetscInt i = 0; i < n; i++) {
      const PetscJaggedScalarSingle *row = mg->inv + (size_t)i * N;
      PetscJaggedScalarSingle        part[32];

      for (PetscInt l = 0; l < 32; l++) {
        part[l] = 0;
        for (PetscInt j = l; j < N; j += 32) part[l] += row[j] * b[j];
      }
      for (PetscInt off = 16; off > 0; off /= 2)
        for (PetscInt l = 0; l < off; l++) part[l] += part[l + off];
      c->x[i] = part[0];
    }
  } else PetscCall(PCSPCGMGCoarseSolveKSP(mg, c->b, c->x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const PCSPCGMGOps PCSPCGMGOpsHost = {MultHost, CopyHost, ZeroHost, ResidualHost, ChebyshevFirstHost, ChebyshevHost, RichardsonHost, CoarseHost};

/* z = V r on the host: one V-cycle of the host image (PCSPCGMGCycle()), logged with its flops */
PetscErrorCode PCSPCGMGApplyHost(PCSPCGMG mg, const PetscJaggedScalarSingle r[], PetscJaggedScalarSingle z[])
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PC_SPCG_VCycle, 0, 0, 0, 0));
  PetscCall(PCSPCGMGCycle(mg, &PCSPCGMGOpsHost, NULL, r, z));
  PetscCall(PetscLogFlops(mg->flops));
  PetscCall(PetscLogEventEnd(PC_SPCG_VCycle, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
