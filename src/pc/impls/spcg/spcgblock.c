/*
   PCSPCG's single-precision copy of an AIJ operator (MATSEQAIJ(CUSPARSE), or the diagonal and off-diagonal
   blocks of MATMPIAIJ(CUSPARSE)) as blocks: the choice of each block's format (DIA where it pays, else pJDS
   or CSR, as -pc_spcg_format asks; the off-diagonal block always CSR), and the product by all blocks, on
   the device or the host, each block through the operations of its format. On several processes the
   ghost values of x cross in single precision through the matrix's own halo exchange, overlapped with
   the diagonal block's product.
*/
#include <petscjagged/private/spcgimpl.h>

/*
  The single-precision copy of B (a MATSEQAIJ, or MATSEQAIJCUSPARSE with device), on the device or on
  the host: DIA when format allows and it pays, else pJDS (auto, pjds), else CSR
*/
PetscErrorCode PCSPCGBlockCreate(Mat B, PetscBool device, PCSPCGFormat format, PCSPCGBlock *c)
{
  const PetscInt *ai, *aj;
  PetscInt        m;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  c->device = device;
  PetscCall(MatGetRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetRowIJ() failed on %s", ((PetscObject)B)->type_name);
  c->nnz = ai[m];
  PetscCall(MatGetSize(B, NULL, &c->ncols));
  PetscCall(PCSPCGDIACreate(B, m, ai, aj, device, format, c));
  if (c->ops) PetscCall(PetscInfo(B, "Single-precision copy in DIA format: %" PetscInt_FMT " diagonals\n", c->ndiag));
  else if (format == PCSPCG_FORMAT_AUTO || format == PCSPCG_FORMAT_PJDS) {
    char line[128];

    PetscCall(PCSPCGJaggedCreate(B, m, ai, aj, device, c));
    PetscCall((*c->ops->describe)(c, "single-precision", line, sizeof(line)));
    PetscCall(PetscInfo(B, "Single-precision copy: %s\n", line));
  } else PetscCall(PCSPCGCSRCreate(B, m, ai, aj, device, c));
  PetscCall(MatRestoreRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCSPCGBlockDestroy(PCSPCGBlock *c)
{
  PetscFunctionBegin;
  if (c->ops) PetscCall((*c->ops->destroy)(c));
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The blocks of an AIJ operator: of P itself, or of the diagonal and off-diagonal blocks of an MPI P with
  the ghost buffer its halo exchange fills
*/
PetscErrorCode PCSPCGBlocksSetUp(PC pc, Mat P, PetscBool mpi, PetscBool gpu)
{
  PC_SPCG *s  = (PC_SPCG *)pc->data;
  Mat      Ad = P, Ao = NULL;

  PetscFunctionBegin;
  if (mpi) {
    PetscSF sf;

    PetscCall(MatMPIAIJGetSeqAIJ(P, &Ad, &Ao, NULL));
    PetscCall(MatGetMultPetscSF(P, &sf));
    PetscCall(JaggedHaloCreate(sf, sizeof(PetscJaggedScalarSingle), gpu, s->exchange, &s->halo));
    PetscCall(MatGetLocalSize(Ao, NULL, &s->nghosts));
    if (gpu) PetscCallCUDA(cudaMalloc((void **)&s->ghosts, sizeof(PetscJaggedScalarSingle) * PetscMax(s->nghosts, 1)));
    else PetscCall(PetscMalloc1(PetscMax(s->nghosts, 1), &s->ghosts));
    PetscCall(PCSPCGBlockCreate(Ao, gpu, PCSPCG_FORMAT_CSR, &s->block[1]));
  }
  PetscCall(PCSPCGBlockCreate(Ad, gpu, s->format, &s->block[0]));
  s->hasblocks = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCSPCGBlocksReset(PC pc)
{
  PC_SPCG *s = (PC_SPCG *)pc->data;

  PetscFunctionBegin;
  if (s->block[0].device) PetscCallCUDA(cudaFree(s->ghosts));
  else PetscCall(PetscFree(s->ghosts));
  for (PetscInt b = 0; b < 2; b++) PetscCall(PCSPCGBlockDestroy(&s->block[b]));
  s->ghosts    = NULL;
  s->nghosts   = 0;
  s->hasblocks = PETSC_FALSE;
  PetscCall(JaggedHaloDestroy(&s->halo));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  y = A x in single precision on stream (one process: capturable into a CUDA graph); several: the ghosts
  cross during the diagonal block's product. Unless *stopped (device memory, may be NULL): with dot
  (device memory, may be NULL), dot += x'y.
*/
PetscErrorCode PCSPCGBlocksMultDevice(PC pc, const PetscJaggedScalarSingle x[], PetscJaggedScalarSingle y[], const int *stopped, PetscScalar *dot, cudaStream_t stream)
{
  PC_SPCG           *s = (PC_SPCG *)pc->data;
  const PCSPCGBlock *d = &s->block[0], *o = &s->block[1];

  PetscFunctionBegin;
  if (s->halo) PetscCall(JaggedHaloBegin(s->halo, x, stream));
  if (d->nrows) PetscCall((*d->ops->multdevice)(d, x, PETSC_FALSE, y, stopped, x, dot, stream));
  if (s->halo) {
    PetscCall(JaggedHaloEnd(s->halo, s->ghosts, stream));
    if (o->nrows) PetscCall((*o->ops->multdevice)(o, s->ghosts, PETSC_TRUE, y, stopped, x, dot, stream));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x in single precision on the host (the twin of PCSPCGBlocksMultDevice()); several processes: the ghosts cross during the diagonal block's product */
PetscErrorCode PCSPCGBlocksMultHost(PC pc, const PetscJaggedScalarSingle x[], PetscJaggedScalarSingle y[])
{
  PC_SPCG           *s = (PC_SPCG *)pc->data;
  const PCSPCGBlock *d = &s->block[0], *o = &s->block[1];

  PetscFunctionBegin;
  if (s->halo) PetscCall(JaggedHaloBegin(s->halo, x, NULL));
  PetscCall((*d->ops->multhost)(d, x, PETSC_FALSE, y));
  if (s->halo) {
    PetscCall(JaggedHaloEnd(s->halo, s->ghosts, NULL));
    PetscCall((*o->ops->multhost)(o, s->ghosts, PETSC_TRUE, y));
  }
  PetscCall(PetscLogFlops(2.0 * (d->nnz + o->nnz)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
