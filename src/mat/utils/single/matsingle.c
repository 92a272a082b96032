/*
   The single-precision copy of an AIJ matrix (MATSEQAIJ(CUSPARSE), or the diagonal and off-diagonal blocks of
   MATMPIAIJ(CUSPARSE)) as a MatSingle: PCSPCG's copy of its operator and the matrices of the image of a
   PCMG hierarchy (spcgmg.c). The choice of each block's format (DIA where it pays, else pJDS or CSR, as asked;
   the off-diagonal block always CSR), and the product by all blocks, on the device or the host, each block
   through the operations of its format. On several processes the ghost values of x cross in single precision
   through the matrix's own halo exchange, overlapped with the diagonal block's product.
*/
#include <petscjagged/private/matsingle.h>
#include <petscjagged/private/jaggedtwin.h>

/*
  The single-precision copy of B (a MATSEQAIJ, or MATSEQAIJCUSPARSE with device), on the device or on
  the host: DIA when format allows and it pays, else pJDS (auto, pjds; its values in storage, auto's half only for at least halfmin
  nonzeros: MatSingleJaggedCreate()), else CSR
*/
PetscErrorCode MatSingleBlockCreate(Mat B, PetscBool device, PCSPCGFormat format, PCSPCGStorage storage, PetscInt halfmin, MatSingleBlock *c)
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
  PetscCall(MatSingleDIACreate(B, m, ai, aj, device, format, c));
  if (c->ops) PetscCall(PetscInfo(B, "Single-precision copy in DIA format: %" PetscInt_FMT " diagonals\n", c->ndiag));
  else if (format == PCSPCG_FORMAT_AUTO || format == PCSPCG_FORMAT_PJDS) {
    char line[512];

    PetscCall(MatSingleJaggedCreate(B, m, ai, aj, device, storage, halfmin, c));
    PetscCall((*c->ops->describe)(c, "single-precision", line, sizeof(line)));
    PetscCall(PetscInfo(B, "Single-precision copy: %s\n", line));
  } else PetscCall(MatSingleCSRCreate(B, m, ai, aj, device, c));
  PetscCall(MatRestoreRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSingleBlockDestroy(MatSingleBlock *c)
{
  PetscFunctionBegin;
  if (c->ops) PetscCall((*c->ops->destroy)(c));
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  A block of a distributed matrix (m local rows): MatSingleBlockCreate()'s copy, or with no row (a coarse level of PCGAMG
  on fewer processes) an empty CSR block, nothing to copy, on the device as on the host
*/
static PetscErrorCode MatSingleLocalBlock(Mat B, PetscInt m, PetscBool device, PCSPCGFormat format, PCSPCGStorage storage, PetscInt halfmin, MatSingleBlock *c)
{
  PetscFunctionBegin;
  if (m) PetscCall(MatSingleBlockCreate(B, device, format, storage, halfmin, c));
  else {
    PetscCall(PetscMemzero(c, sizeof(*c)));
    c->format = PCSPCG_FORMAT_CSR;
    c->ops    = &MatSingleBlockOpsCSR;
    c->device = device;
    PetscCall(MatGetSize(B, NULL, &c->ncols));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An MPI M's off-diagonal block Ao in CSR, the ghost buffer and the halo exchange that fills it (through exchange where device) */
static PetscErrorCode MatSingleOffDiagonal(Mat M, Mat Ao, PetscBool device, PetscJaggedExchange exchange, MatSingle *dm)
{
  PetscSF sf;

  PetscFunctionBegin;
  PetscCall(MatGetMultPetscSF(M, &sf));
  PetscCall(JaggedHaloCreate(sf, sizeof(PetscJaggedScalarSingle), device, exchange, &dm->halo));
  PetscCall(MatGetLocalSize(Ao, NULL, &dm->nghosts));
  if (device) PetscCallCUDA(cudaMalloc((void **)&dm->ghosts, sizeof(PetscJaggedScalarSingle) * PetscMax(dm->nghosts, 1)));
  else PetscCall(PetscMalloc1(PetscMax(dm->nghosts, 1), &dm->ghosts));
  PetscCall(MatSingleLocalBlock(Ao, dm->m, device, PCSPCG_FORMAT_CSR, PCSPCG_STORAGE_SINGLE, 0, &dm->o));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The copy of M (a MATSEQAIJ or MATMPIAIJ, their CUSPARSE forms, or a jagged type: its host CSR; on the device the CSR
  scattered back from its current jagged copy there (nothing uploaded but its row starts), else that of its AIJCUSPARSE twin)
  in single precision, on the device or the host:
  M itself, or the diagonal and off-diagonal blocks of an MPI M with the ghost buffer its halo exchange (through
  exchange where device) fills. The diagonal block in format where it pays (MatSingleBlockCreate(); a pJDS one with
  its values in storage, auto's half only for a block of at least halfmin nonzeros); on the device a host matrix's blocks are
  copied up in CSR. Collective on M where MPI.
*/
PetscErrorCode MatSingleCreate(Mat M, PetscBool device, PCSPCGFormat format, PCSPCGStorage storage, PetscInt halfmin, PetscJaggedExchange exchange, MatSingle *dm)
{
  Mat       Ad = M, Ao = NULL, twin = NULL;
  PetscBool mpi, cusparse, scattered = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(dm, sizeof(*dm)));
  PetscCall(MatGetLocalSize(M, &dm->m, NULL));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)M, &mpi, MATMPIAIJ, MATMPIAIJCUSPARSE, MATMPIJDSCUDA, MATMPIPJDSCUDA, ""));
  if (mpi) {
    PetscCall(MatMPIAIJGetSeqAIJ(M, &Ad, &Ao, NULL));
    PetscCall(MatSingleOffDiagonal(M, Ao, device, exchange, dm));
  }
  if (device) PetscCall(MatSeqJaggedHasDeviceCSR(Ad, &scattered)); /* a jagged block: its device CSR scattered from its jagged copy */
  if (device && !scattered) PetscCall(MatSeqJaggedGetDeviceTwin(Ad, &twin)); /* or that of its AIJCUSPARSE twin */
  if (twin) Ad = twin;
  PetscCall(PetscObjectTypeCompare((PetscObject)Ad, MATSEQAIJCUSPARSE, &cusparse));
  PetscCall(MatSingleLocalBlock(Ad, dm->m, device, device && !cusparse && !scattered ? PCSPCG_FORMAT_CSR : format, storage, halfmin, &dm->d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The copy of a jagged M on the device (a MATSEQPJDSCUDA or MATSEQJDSCUDA, or the MPI types, whose blocks are those)
  when the diagonal block of every process is stored as DIA (MatSingleBlockUseDIA() with format, a stencil's operator):
  its diagonal block DIA, found and filled on the GPU from the jagged format, the off-diagonal block CSR; *made false,
  and nothing kept, where some process's would not be DIA (the jagged type's own single-precision copy serves then).
  Collective on M.
*/
PetscErrorCode MatSingleCreateDIA(Mat M, PCSPCGFormat format, PetscJaggedExchange exchange, MatSingle *dm, PetscBool *made)
{
  Mat             Ad = M, Ao = NULL;
  PetscBool       mpi, done;
  const PetscInt *ai, *aj;
  PetscInt        m;
  PetscMPIInt     dia, alldia;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(dm, sizeof(*dm)));
  PetscCall(MatGetLocalSize(M, &dm->m, NULL));
  PetscCall(PetscStrbeginswith(((PetscObject)M)->type_name, MATMPIAIJ, &mpi)); /* the jagged types are named as AIJ's subtypes */
  if (mpi) PetscCall(MatMPIAIJGetSeqAIJ(M, &Ad, &Ao, NULL));
  dm->d.device = PETSC_TRUE;
  PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetRowIJ() failed on %s", ((PetscObject)Ad)->type_name);
  dm->d.nnz = ai[m];
  PetscCall(MatGetSize(Ad, NULL, &dm->d.ncols));
  PetscCall(MatSingleDIACreate(Ad, m, ai, aj, PETSC_TRUE, format, &dm->d));
  PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  dia = dm->d.ops ? 1 : 0;
  PetscCallMPI(MPIU_Allreduce(&dia, &alldia, 1, MPI_INT, MPI_MIN, PetscObjectComm((PetscObject)M)));
  *made = (PetscBool)alldia;
  if (!*made) PetscCall(MatSingleDestroy(dm));
  else {
    PetscCall(PetscInfo(Ad, "Single-precision copy of the jagged operator's diagonal block in DIA format: %" PetscInt_FMT " diagonals\n", dm->d.ndiag));
    if (mpi) PetscCall(MatSingleOffDiagonal(M, Ao, PETSC_TRUE, exchange, dm));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The transpose R of the one-process copy P (its block CSR), in P's memory: a restriction made from an interpolation */
PetscErrorCode MatSingleTranspose(const MatSingle *P, MatSingle *R)
{
  PetscFunctionBegin;
  PetscCheck(!P->halo, PETSC_COMM_SELF, PETSC_ERR_PLIB, "One process only");
  PetscCall(PetscMemzero(R, sizeof(*R)));
  PetscCall(MatSingleCSRTranspose(&P->d, P->m, &R->d));
  R->m = R->d.nrows;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSingleDestroy(MatSingle *dm)
{
  PetscFunctionBegin;
  if (dm->d.device) {
    if (dm->ghosts) PetscCallCUDA(cudaFree(dm->ghosts));
  } else PetscCall(PetscFree(dm->ghosts));
  PetscCall(MatSingleBlockDestroy(&dm->d));
  PetscCall(MatSingleBlockDestroy(&dm->o));
  PetscCall(JaggedHaloDestroy(&dm->halo));
  PetscCall(PetscMemzero(dm, sizeof(*dm)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A host copy's values again from M, the matrix it was made from, whose nonzero pattern has not changed */
PetscErrorCode MatSingleRefreshHost(MatSingle *dm, Mat M)
{
  Mat Ad = M, Ao = NULL;

  PetscFunctionBegin;
  if (dm->halo) PetscCall(MatMPIAIJGetSeqAIJ(M, &Ad, &Ao, NULL));
  PetscCall((*dm->d.ops->refreshhost)(&dm->d, Ad));
  if (Ao) PetscCall((*dm->o.ops->refreshhost)(&dm->o, Ao));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the bytes the copy stores: its blocks (the ghost buffer and the halo's buffers not counted) */
size_t MatSingleBytes(const MatSingle *dm)
{
  return (*dm->d.ops->bytes)(&dm->d) + (dm->o.ops ? (*dm->o.ops->bytes)(&dm->o) : 0);
}

/*
  y = A x, or y += A x (add: the diagonal block in CSR), in single precision on stream (one process: capturable into
  a CUDA graph); several: the ghosts cross during the diagonal block's product. A diagonal block of its nonempty
  rows adds into y, zeroed first unless add. Unless *stopped (device memory, may be NULL): with dot (device memory,
  may be NULL), dot += x'(A x). The twin of MatSingleMultHost().
*/
PetscErrorCode MatSingleMultDevice(const MatSingle *dm, const PetscJaggedScalarSingle x[], PetscBool add, PetscJaggedScalarSingle y[], const int *stopped, PetscScalar *dot, cudaStream_t stream)
{
  const MatSingleBlock *d = &dm->d, *o = &dm->o;

  PetscFunctionBegin;
  if (dm->halo) PetscCall(JaggedHaloBegin(dm->halo, x, stream));
  if (d->rows && !add) PetscCallCUDA(cudaMemsetAsync(y, 0, sizeof(PetscJaggedScalarSingle) * dm->m, stream)); /* 0 is all bits zero */
  if (d->nrows) PetscCall((*d->ops->multdevice)(d, x, (PetscBool)(add || d->rows), y, stopped, x, dot, stream));
  if (dm->halo) { /* the ghosts read where they arrived (CUDA IPC) */
    const void *ghosts;

    PetscCall(JaggedHaloEndInPlace(dm->halo, dm->ghosts, &ghosts, stream));
    if (o->nrows) PetscCall((*o->ops->multdevice)(o, (const PetscJaggedScalarSingle *)ghosts, PETSC_TRUE, y, stopped, x, dot, stream));
    PetscCall(JaggedHaloRelease(dm->halo, stream));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  y = A x, or y += A x (add: the diagonal block in CSR), in single precision on the host (the twin of
  MatSingleMultDevice()); several processes: the ghosts cross during the diagonal block's product
*/
PetscErrorCode MatSingleMultHost(const MatSingle *dm, const PetscJaggedScalarSingle x[], PetscBool add, PetscJaggedScalarSingle y[])
{
  const MatSingleBlock *d = &dm->d, *o = &dm->o;

  PetscFunctionBegin;
  if (dm->halo) PetscCall(JaggedHaloBegin(dm->halo, x, NULL));
  if (d->rows && !add) PetscCall(PetscArrayzero(y, dm->m));
  PetscCall((*d->ops->multhost)(d, x, (PetscBool)(add || d->rows), y));
  if (dm->halo) {
    PetscCall(JaggedHaloEnd(dm->halo, dm->ghosts, NULL));
    PetscCall((*o->ops->multhost)(o, dm->ghosts, PETSC_TRUE, y));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
