/*
   MatSetValuesCOO() of the MPI jagged types with values in GPU memory, summed on the GPU through MATMPIAIJ's own map of the COO
   entries (its "__PETSc_MatCOOStruct_Host", mpiaijhead.h; uploaded at the first such call), as MATMPIAIJCUSPARSE does: the entries
   of rows of other processes packed and sent to their owners through the map's PetscSF (from device buffers; PETSc stages them
   through the host without a GPU-aware MPI) while the local entries are summed into each block's nonzeros, the received ones
   added after; all by jagged::SumCOO() (a gather, sums in CSR order, sums scattered). Each block's jagged copy is then filled on
   the GPU and its host CSR (the master copy) updated with one device-to-host copy. Host values, the host kernels or a matrix
   bound to the CPU take MATMPIAIJ's own function (jaggedcoo.c).
*/
#include "mpijagged.h"
#include <petscjagged/private/mpiaijhead.h>
#include <petscjagged/private/jaggedupload.h>
#include <petscdevice_cuda.h>

/* The device copy of MATMPIAIJ's COO map (the arrays of MatMPIAIJCOOHead, in one allocation) and device send and receive buffers */
typedef struct {
  long long   *map;
  long long   *Ajmap1, *Aperm1, *Bjmap1, *Bperm1, *Aimap2, *Ajmap2, *Aperm2, *Bimap2, *Bjmap2, *Bperm2, *Cperm1;
  PetscScalar *sendbuf, *recvbuf;
} MatMPIJaggedCOODevice;

static PetscErrorCode MatMPIJaggedCOODeviceDestroy(PetscCtxRt ctx)
{
  MatMPIJaggedCOODevice *d = *(MatMPIJaggedCOODevice **)ctx;

  PetscFunctionBegin;
  PetscCallCUDA(cudaFree(d->map));
  PetscCallCUDA(cudaFree(d->sendbuf));
  PetscCallCUDA(cudaFree(d->recvbuf));
  PetscCall(PetscFree(d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MATMPIAIJ's COO map of A, checked against its blocks (the layout mpiaijhead.h copies) */
static PetscErrorCode MatMPIJaggedCOOGetMap(Mat A, const MatMPIAIJCOOHead **coo)
{
  PetscContainer c;
  Mat            b[2];

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)A, "__PETSc_MatCOOStruct_Host", (PetscObject *)&c));
  PetscCheck(c, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MATMPIAIJ's COO map not found");
  PetscCall(PetscContainerGetPointer(c, (void **)coo));
  PetscCall(MatMPIAIJGetSeqAIJ(A, &b[0], &b[1], NULL));
  PetscCheck((*coo)->Annz == ((MatSeqAIJHead *)b[0]->data)->nz && (*coo)->Bnnz == ((MatSeqAIJHead *)b[1]->data)->nz && (*coo)->Ajmap1[(*coo)->Annz] == (*coo)->Atot1 && (*coo)->Bjmap1[(*coo)->Bnnz] == (*coo)->Btot1 &&
               (*coo)->Ajmap2[(*coo)->Annz2] == (*coo)->Atot2 && (*coo)->Bjmap2[(*coo)->Bnnz2] == (*coo)->Btot2 && (*coo)->Atot1 + (*coo)->Btot1 + (*coo)->sendlen <= (*coo)->n,
             PETSC_COMM_SELF, PETSC_ERR_PLIB, "MATMPIAIJ's COO map of this PETSc differs from mpiaijhead.h");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatMPIJaggedCOOPreallocated - after MATMPIAIJ's MatSetPreallocationCOO(): its new map checked (on every path, so that a PETSc
  whose layout differs is told at once), the device copy of the previous one dropped
*/
PetscErrorCode MatMPIJaggedCOOPreallocated(Mat A)
{
  const MatMPIAIJCOOHead *coo;

  PetscFunctionBegin;
  PetscCall(MatMPIJaggedCOOGetMap(A, &coo));
  PetscCall(PetscObjectCompose((PetscObject)A, "MatMPIJaggedCOODevice", NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The device copy of the map, made at the first values in GPU memory */
static PetscErrorCode MatMPIJaggedCOOGetDevice(Mat A, const MatMPIAIJCOOHead *coo, cudaStream_t stream, MatMPIJaggedCOODevice **dev)
{
  PetscContainer         c;
  MatMPIJaggedCOODevice *d;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)A, "MatMPIJaggedCOODevice", (PetscObject *)&c));
  if (c) {
    PetscCall(PetscContainerGetPointer(c, (void **)dev));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscNew(&d));
  {
    const PetscCount *src[11] = {coo->Ajmap1, coo->Aperm1, coo->Bjmap1, coo->Bperm1, coo->Aimap2, coo->Ajmap2, coo->Aperm2, coo->Bimap2, coo->Bjmap2, coo->Bperm2, coo->Cperm1};
    long long **const dst[11] = {&d->Ajmap1, &d->Aperm1, &d->Bjmap1, &d->Bperm1, &d->Aimap2, &d->Ajmap2, &d->Aperm2, &d->Bimap2, &d->Bjmap2, &d->Bperm2, &d->Cperm1};
    const size_t      len[11] = {(size_t)coo->Annz + 1, (size_t)coo->Atot1, (size_t)coo->Bnnz + 1, (size_t)coo->Btot1, (size_t)coo->Annz2, (size_t)coo->Annz2 + 1, (size_t)coo->Atot2, (size_t)coo->Bnnz2, (size_t)coo->Bnnz2 + 1, (size_t)coo->Btot2, (size_t)coo->sendlen};

    PetscCall(MatJaggedUploadIndexArrays(11, src, len, dst, &d->map, stream));
  }
  PetscCallCUDA(cudaMalloc((void **)&d->sendbuf, sizeof(PetscScalar) * PetscMax(coo->sendlen, 1)));
  PetscCallCUDA(cudaMalloc((void **)&d->recvbuf, sizeof(PetscScalar) * PetscMax(coo->recvlen, 1)));
  PetscCall(PetscObjectContainerCompose((PetscObject)A, "MatMPIJaggedCOODevice", d, MatMPIJaggedCOODeviceDestroy));
  *dev = d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatMPIJaggedSetValuesCOO - the MatJaggedCOOOps.setvalues of the MPI jagged types (see the top of this file). Taken where every
  process has its values in GPU memory (or none) and A multiplies on the GPU; *done false on all processes otherwise. Collective.
*/
PetscErrorCode MatMPIJaggedSetValuesCOO(Mat A, const PetscScalar v[], PetscMemType mtype, InsertMode imode, PetscBool *done)
{
  const MatMPIAIJCOOHead *coo;
  MatMPIJaggedCOODevice  *d;
  Mat                     b[2];
  PetscBool               host;
  const bool              add = imode == ADD_VALUES;
  PetscScalar            *vals[2];
  cudaStream_t            stream;

  PetscFunctionBegin;
  PetscCall(MatJaggedGetUseHost(A, &host));
  PetscCall(MatMPIJaggedCOOGetMap(A, &coo));
  *done = (PetscBool)(!host && !A->boundtocpu && (coo->n == 0 || PetscMemTypeCUDA(mtype))); /* v of no entry may be anywhere */
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, done, 1, MPI_C_BOOL, MPI_LAND, PetscObjectComm((PetscObject)A))); /* all take this way, or none */
  if (!*done) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscInfo(A, "COO values summed on the GPU: %" PetscCount_FMT " entries, %" PetscInt_FMT " sent to other processes, %" PetscInt_FMT " received\n", coo->n, coo->sendlen, coo->recvlen));
  PetscCall(PetscLogEventBegin(MAT_JAGGED_Refresh, A, 0, 0, 0));
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(MatMPIJaggedCOOGetDevice(A, coo, stream, &d));
  PetscCall(MatMPIAIJGetSeqAIJ(A, &b[0], &b[1], NULL));
  /* the entries of other processes' rows packed and sent; the local ones summed meanwhile */
  PetscCallCUDA(jagged::gpu::SumCOO((long long)coo->sendlen, nullptr, nullptr, d->Cperm1, HostScalar(v), HostScalar(d->sendbuf), false, stream));
  PetscCall(PetscSFReduceWithMemTypeBegin(coo->sf, MPIU_SCALAR, PETSC_MEMTYPE_CUDA, d->sendbuf, PETSC_MEMTYPE_CUDA, d->recvbuf, MPI_REPLACE));
  for (int k = 0; k < 2; k++) PetscCall(MatSeqJaggedGetDeviceCSRValues(b[k], (PetscBool)add, &vals[k], stream));
  PetscCallCUDA(jagged::gpu::SumCOO((long long)coo->Annz, nullptr, d->Ajmap1, d->Aperm1, HostScalar(v), HostScalar(vals[0]), add, stream));
  PetscCallCUDA(jagged::gpu::SumCOO((long long)coo->Bnnz, nullptr, d->Bjmap1, d->Bperm1, HostScalar(v), HostScalar(vals[1]), add, stream));
  PetscCall(PetscSFReduceEnd(coo->sf, MPIU_SCALAR, d->sendbuf, d->recvbuf, MPI_REPLACE));
  PetscCallCUDA(jagged::gpu::SumCOO((long long)coo->Annz2, d->Aimap2, d->Ajmap2, d->Aperm2, HostScalar(d->recvbuf), HostScalar(vals[0]), true, stream));
  PetscCallCUDA(jagged::gpu::SumCOO((long long)coo->Bnnz2, d->Bimap2, d->Bjmap2, d->Bperm2, HostScalar(d->recvbuf), HostScalar(vals[1]), true, stream));
  for (int k = 0; k < 2; k++) PetscCall(MatSeqJaggedRestoreDeviceCSRValues(b[k], &vals[k], stream));
  PetscCall(PetscLogEventEnd(MAT_JAGGED_Refresh, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
