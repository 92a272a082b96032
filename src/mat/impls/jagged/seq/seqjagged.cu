/*
   MATSEQJDSCUDA and MATSEQPJDSCUDA: sequential jagged-diagonal matrices on NVIDIA GPUs.

   The matrix is a MATSEQAIJ whose host CSR stays the master copy. A->spptr holds a jagged-diagonal
   copy (index structure + values, double and optionally single precision) that is rebuilt when the
   nonzero pattern changes and refreshed, values only, when the values change. A->nonzerostate tells
   whether the pattern changed; A->offloadmask, as for MATSEQAIJCUSPARSE, whether the values did:
   MatAssemblyEnd() and the restore of Mat_SeqAIJ's value accessors (MatSeqAIJRestoreArray(),
   MatSeqAIJRestoreArrayWrite(), which MatSetValues(), MatZeroRows(), MatDiagonalSet(), MatCopy() and
   the other host operations of MATSEQAIJ write through) set PETSC_OFFLOAD_CPU; a refresh sets
   PETSC_OFFLOAD_BOTH. The host reference kernels (-mat_jagged_host) keep their copy the same way.

   Operations that change values (MatScale(), MatShift(), MatDiagonalScale(), MatZeroEntries(),
   MatAXPY()) run on the host CSR (so factorizations and all other host paths see them) and, when
   the device copy is current, on the device too, which saves the refresh and leaves PETSC_OFFLOAD_BOTH.
*/
#include <petscdevice_cuda.h>
#include <petsc/private/vecimpl.h>

#include <petscjagged/private/seqjagged.h>
#include <petscjagged/private/jaggedtwin.h>
#include <petscjagged/private/jaggedbuild.cuh>
#include <petscjagged/private/jaggedvalueops.cuh>
#include <petscjagged/private/jaggedupload.h>
#include <petscjagged/private/jaggedcoo.h>

#include <new>

PetscLogEvent MAT_JAGGED_Build, MAT_JAGGED_Refresh, MAT_JAGGED_MultSingle;

const char *const MatJaggedKernels[] = {"auto", "jagged", "split", "MatJaggedKernel", "MAT_JAGGED_KERNEL_", NULL};
const char *const MatJaggedBlocksTypes[] = {"auto", "on", "off", "MatJaggedBlocks", "MAT_JAGGED_BLOCKS_", NULL};

#define PetscCallJagged(call) \
  do { \
    jagged::Status st_ = (call); \
    PetscCheck(st_ == jagged::Status::Success, PETSC_COMM_SELF, st_ == jagged::Status::OutOfMemory ? PETSC_ERR_MEM : PETSC_ERR_ARG_OUTOFRANGE, "Jagged-diagonal format: %s", jagged::StatusString(st_)); \
  } while (0)


/* The sequential type asked for: MatConvert() may pass the root name (pjdscuda, jdscuda) */
static PetscErrorCode MatSeqJaggedTypeOf(MatType type, MatType *seqtype)
{
  PetscBool pjds, jds;

  PetscFunctionBegin;
  PetscCall(PetscStrendswith(type, MATPJDSCUDA, &pjds));
  PetscCall(PetscStrendswith(type, MATJDSCUDA, &jds));
  PetscCheck(pjds || jds, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Not a jagged-diagonal type: %s", type);
  *seqtype = pjds ? MATSEQPJDSCUDA : MATSEQJDSCUDA;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* cudaFree(NULL) still needs a driver: free only what was allocated */
static PetscErrorCode MatSeqJaggedDeviceFree(void *p)
{
  PetscFunctionBegin;
  if (p) PetscCallCUDA(cudaFree(p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSeqJaggedFreeValues(Mat A)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  if (j->host) {
    PetscCall(PetscFree(j->vals));
    PetscCall(PetscFree(j->vals_single));
  } else {
    PetscCall(MatSeqJaggedDeviceFree(j->vals));
    PetscCall(MatSeqJaggedDeviceFree(j->vals_single));
  }
  j->vals        = NULL;
  j->vals_single = NULL;
  A->offloadmask = PETSC_OFFLOAD_UNALLOCATED;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Drops the format and every value array: the next use rebuilds them */
static PetscErrorCode MatSeqJaggedReset(Mat A)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  PetscCall(MatSeqJaggedFreeValues(A));
  if (j->dformat) {
    PetscCallCUDA(jagged::gpu::DeviceFormatDestroy(j->dformat));
    delete j->dformat;
    j->dformat = NULL;
  }
  delete j->format;
  j->format = NULL;
  for (int k = 0; k < 3; k++) {
    PetscCall(MatSeqJaggedDeviceFree(j->stage[k]));
    j->stage[k]  = NULL;
    j->nstage[k] = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSeqJaggedGetCSR(Mat A, const int **ia, const int **ja, const PetscScalar **aa)
{
  const PetscInt *i, *jj;
  PetscScalar    *a;
  PetscMemType    mtype;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJGetCSRAndMemType(A, &i, &jj, &a, &mtype));
  PetscCheck(mtype == PETSC_MEMTYPE_HOST, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Expected the host CSR of the matrix");
  PetscCheck(((MatSeqAIJHead *)A->data)->a == a, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Mat_SeqAIJ of this PETSc differs from seqaijhead.h");
  *ia = i;
  *ja = jj;
  *aa = a;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The format's block options: the matrix's row block size, from 2 to jagged::kMaxBlockSize, when it divides the rows and columns,
  the column block size is the same or 1 and j->blocks asks for blocks (auto: the build keeps them where they move fewer bytes,
  jagged::BlocksPay(), counting them on the device or the host); else 1
*/
static PetscErrorCode MatSeqJaggedBlockOptions(Mat A)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;
  const int      m = (int)A->rmap->n, n = (int)A->cmap->n;
  PetscInt       rbs, cbs;

  PetscFunctionBegin;
  j->options.block_size       = 1;
  j->options.block_auto_bytes = j->blocks == MAT_JAGGED_BLOCKS_AUTO ? (int)sizeof(PetscScalar) : 0;
  PetscCall(MatGetBlockSizes(A, &rbs, &cbs));
  /* an MPI matrix's off-diagonal block has the row block size and column block size 1: its ghost columns, in blocks where whole blocks are ghosts */
  if (j->blocks == MAT_JAGGED_BLOCKS_OFF || (cbs != rbs && cbs != 1) || rbs < 2 || rbs > jagged::kMaxBlockSize || m % rbs || n % rbs) PetscFunctionReturn(PETSC_SUCCESS);
  j->options.block_size = (int)rbs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Builds the format of the host CSR pattern: on the GPU from an upload of the pattern (the format's
  arrays then exist on the device only, j->format holds the summary), or on the host for the twins.
*/
static PetscErrorCode MatSeqJaggedBuildFormat(Mat A)
{
  Mat_SeqJagged     *j = (Mat_SeqJagged *)A->spptr;
  const int         *ia, *ja;
  const PetscScalar *aa;
  const int          m = (int)A->rmap->n, n = (int)A->cmap->n;
  jagged::Format    *format;
  PetscLogDouble     t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MAT_JAGGED_Build, A, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  PetscCall(MatSeqJaggedReset(A));
  PetscCall(MatSeqJaggedGetCSR(A, &ia, &ja, &aa));
  format = new (std::nothrow) jagged::Format;
  PetscCheck(format, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory for the jagged-diagonal format");
  j->format = format;
  PetscCall(MatSeqJaggedBlockOptions(A));
  if (j->host) PetscCallJagged(jagged::BuildFormat(m, n, ia, ja, j->options, format));
  else {
    const size_t   nnz = m > 0 ? (size_t)ia[m] : 0;
    cudaStream_t   stream;
    int           *dia, *dja;
    jagged::Status st;
    cudaError_t    cerr;

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    j->dformat = new (std::nothrow) jagged::gpu::DeviceFormat;
    PetscCheck(j->dformat, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory for the jagged-diagonal format");
    PetscCallCUDA(cudaMallocAsync((void **)&dia, sizeof(int) * (m + 1), stream));
    PetscCallCUDA(cudaMallocAsync((void **)&dja, sizeof(int) * PetscMax(nnz, (size_t)1), stream));
    PetscCall(MatJaggedUpload(dia, ia, sizeof(int) * (m + 1), stream));
    PetscCall(MatJaggedUpload(dja, ja, sizeof(int) * nnz, stream));
    PetscCall(PetscLogCpuToGpu(sizeof(int) * (m + 1 + nnz)));
    st = jagged::gpu::BuildDeviceFormat(m, n, dia, dja, j->options, format, j->dformat, stream, &cerr);
    PetscCallCUDA(cudaFreeAsync(dia, stream));
    PetscCallCUDA(cudaFreeAsync(dja, stream));
    if (st == jagged::Status::DeviceError) PetscCallCUDA(cerr);
    PetscCallJagged(st);
    j->generation++;
  }
  j->format_nzstate = A->nonzerostate;
  PetscCall(PetscTime(&t1));
  PetscCall(PetscLogEventEnd(MAT_JAGGED_Build, A, 0, 0, 0));
  PetscCall(PetscInfo(A, "Built %s format: %d rows, %d stored entries for %d nonzeros, %d long rows, blocks of %d, %g s\n", j->kind == jagged::Kind::PJDS ? "pJDS" : "JDS", format->nrows, format->nslots, format->nnz, format->nlong, format->bs, t1 - t0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The jagged arrays on the GPU (both precisions) from dcsr, the values of the host CSR's nonzeros in a device array, on stream */
static PetscErrorCode MatSeqJaggedFillFromDevice(Mat A, const PetscScalar *dcsr, cudaStream_t stream)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;
  const int      nslots = j->format->nslots;

  PetscFunctionBegin;
  if (!j->vals) PetscCallCUDA(cudaMalloc((void **)&j->vals, sizeof(PetscScalar) * PetscMax(nslots, 1)));
  PetscCallCUDA(jagged::gpu::RefreshValues(*j->dformat, HostScalar(dcsr), HostScalar(j->vals), stream));
  if (j->single) {
    if (!j->vals_single) {
      PetscCallCUDA(cudaMalloc((void **)&j->vals_single, sizeof(PetscJaggedScalarSingle) * PetscMax(nslots, 1)));
      j->generation++;
    }
    PetscCallCUDA(jagged::gpu::RefreshValues(*j->dformat, HostScalar(dcsr), reinterpret_cast<MatJaggedHostSingle *>(j->vals_single), stream));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Values of the current host CSR into the jagged arrays (both precisions) */
static PetscErrorCode MatSeqJaggedRefreshValues(Mat A)
{
  Mat_SeqJagged     *j = (Mat_SeqJagged *)A->spptr;
  const jagged::Format &f = *j->format;
  const int         *ia, *ja;
  const PetscScalar *aa;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MAT_JAGGED_Refresh, A, 0, 0, 0));
  PetscCall(MatSeqJaggedGetCSR(A, &ia, &ja, &aa));
  if (!j->single && j->vals_single) {
    if (j->host) PetscCall(PetscFree(j->vals_single));
    else PetscCall(MatSeqJaggedDeviceFree(j->vals_single));
    j->vals_single = NULL;
  }
  if (j->host) {
    if (!j->vals) PetscCall(PetscMalloc1(f.nslots, &j->vals));
    jagged::FillValues(f, HostScalar(aa), HostScalar(j->vals));
    if (j->single) {
      if (!j->vals_single) PetscCall(PetscMalloc1(f.nslots, &j->vals_single));
      jagged::FillValues(f, HostScalar(aa), reinterpret_cast<MatJaggedHostSingle *>(j->vals_single));
    }
  } else {
    cudaStream_t stream;
    PetscScalar *dcsr; /* the CSR values on the device, for the gather into the jagged order */

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCallCUDA(cudaMallocAsync((void **)&dcsr, sizeof(PetscScalar) * PetscMax(f.nnz, 1), stream));
    PetscCall(MatJaggedUpload(dcsr, aa, sizeof(PetscScalar) * f.nnz, stream));
    PetscCall(PetscLogCpuToGpu(sizeof(PetscScalar) * f.nnz));
    PetscCall(MatSeqJaggedFillFromDevice(A, dcsr, stream));
    PetscCallCUDA(cudaFreeAsync(dcsr, stream));
  }
  A->offloadmask = PETSC_OFFLOAD_BOTH;
  PetscCall(PetscLogEventEnd(MAT_JAGGED_Refresh, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The single-precision copy again from the double one, after the double values were changed in place */
static PetscErrorCode MatSeqJaggedDemote(Mat A)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  if (!j->vals_single) PetscFunctionReturn(PETSC_SUCCESS);
  if (j->host) jagged::host::Convert(j->format->nslots, HostScalar((const PetscScalar *)j->vals), reinterpret_cast<MatJaggedHostSingle *>(j->vals_single));
  else {
    cudaStream_t stream;

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCallCUDA(jagged::gpu::Convert(j->format->nslots, HostScalar((const PetscScalar *)j->vals), reinterpret_cast<MatJaggedHostSingle *>(j->vals_single), stream));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The single-precision copy asked for when the double one is current: converted from the double values in the
  jagged order where they are, without uploading the CSR values again (a preconditioner asking for it after
  assembly, as PCSPCG does, would otherwise pay a second upload of every value)
*/
static PetscErrorCode MatSeqJaggedAddSingle(Mat A)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;
  const size_t   nslots = (size_t)PetscMax(j->format->nslots, 1);

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MAT_JAGGED_Refresh, A, 0, 0, 0));
  if (j->host) PetscCall(PetscMalloc1(nslots, &j->vals_single));
  else {
    PetscCallCUDA(cudaMalloc((void **)&j->vals_single, sizeof(PetscJaggedScalarSingle) * nslots));
    j->generation++;
  }
  PetscCall(MatSeqJaggedDemote(A));
  PetscCall(PetscLogEventEnd(MAT_JAGGED_Refresh, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Brings the jagged copy up to date with the host CSR: rebuilds the format when the nonzero
  pattern changed, refreshes the values when the host CSR changed since the last refresh.
*/
static PetscErrorCode MatSeqJaggedSync_Private(Mat A)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  if (!j->format || j->format_nzstate != A->nonzerostate) PetscCall(MatSeqJaggedBuildFormat(A));
  if (A->offloadmask != PETSC_OFFLOAD_BOTH) PetscCall(MatSeqJaggedRefreshValues(A));
  else if (j->single && !j->vals_single) PetscCall(MatSeqJaggedAddSingle(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqJaggedSync(Mat A)
{
  PetscFunctionBegin;
  PetscCheck(A->assembled, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Not for an unassembled matrix");
  PetscCall(MatSeqJaggedSync_Private(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The host CSR values changed: the jagged copy, if there is one, is out of date */
static PetscErrorCode MatSeqJaggedHostChanged(Mat A)
{
  PetscFunctionBegin;
  if (A->offloadmask != PETSC_OFFLOAD_UNALLOCATED) A->offloadmask = PETSC_OFFLOAD_CPU;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the jagged copy holds the values of the host CSR, in the format of its pattern */
static PetscBool MatSeqJaggedCurrent(Mat A)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  return (PetscBool)(A->offloadmask == PETSC_OFFLOAD_BOTH && j->format && j->format_nzstate == A->nonzerostate);
}

/* MatSeqJaggedDeviceCurrent - whether A's jagged copy on the GPU holds its current values, in the format of its pattern */
PetscErrorCode MatSeqJaggedDeviceCurrent(Mat A, PetscBool *current)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  *current = (PetscBool)(!j->host && !A->boundtocpu && j->dformat && j->vals && MatSeqJaggedCurrent(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatSeqJaggedScatterToCSR - A's values from its current jagged copy on the GPU (MatSeqJaggedDeviceCurrent()) into csr[],
  a device array of its nonzeros in the order of its host CSR (a MATSEQAIJCUSPARSE twin's values), on stream
*/
PetscErrorCode MatSeqJaggedScatterToCSR(Mat A, PetscScalar csr[], cudaStream_t stream)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;
  PetscBool      current;

  PetscFunctionBegin;
  PetscCall(MatSeqJaggedDeviceCurrent(A, &current));
  PetscCheck(current, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The jagged copy of the matrix on the GPU is not current");
  PetscCallCUDA(jagged::gpu::ScatterValues(*j->dformat, HostScalar((const PetscScalar *)j->vals), HostScalar(csr), stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSeqJaggedHasDeviceCSR - whether A is a sequential jagged matrix whose jagged copy on the GPU is current: MatSeqJaggedGetDeviceCSR() can serve */
PetscErrorCode MatSeqJaggedHasDeviceCSR(Mat A, PetscBool *has)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, has, MATSEQJDSCUDA, MATSEQPJDSCUDA, ""));
  if (*has) PetscCall(MatSeqJaggedDeviceCurrent(A, has));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatSeqJaggedGetDeviceCSR - A's CSR in new device arrays, from its current jagged copy on the GPU (MatSeqJaggedHasDeviceCSR()):
  the column indices and values scattered back into CSR order there (ScatterColumns(), ScatterValues()), the row starts copied
  from the host, the only bytes that cross (no twin made, nothing else uploaded); on PETSc's stream, freed by
  MatSeqJaggedRestoreDeviceCSR(); logged as MatJaggedRefresh (values and columns moved from the jagged order back to CSR's)
*/
PetscErrorCode MatSeqJaggedGetDeviceCSR(Mat A, PetscInt **di, PetscInt **dj, PetscScalar **da)
{
  Mat_SeqJagged       *j = (Mat_SeqJagged *)A->spptr;
  const MatSeqAIJHead *h = (const MatSeqAIJHead *)A->data;
  const PetscInt       m = A->rmap->n;
  PetscBool            current;
  cudaStream_t         stream;

  PetscFunctionBegin;
  static_assert(sizeof(PetscInt) == sizeof(int), "the jagged core's column indices are int");
  PetscCall(MatSeqJaggedDeviceCurrent(A, &current));
  PetscCheck(current, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The jagged copy of the matrix on the GPU is not current");
  PetscCall(PetscLogEventBegin(MAT_JAGGED_Refresh, A, 0, 0, 0));
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCallCUDA(cudaMallocAsync((void **)di, sizeof(PetscInt) * (m + 1), stream));
  PetscCallCUDA(cudaMallocAsync((void **)dj, sizeof(PetscInt) * PetscMax(h->nz, 1), stream));
  PetscCallCUDA(cudaMallocAsync((void **)da, sizeof(PetscScalar) * PetscMax(h->nz, 1), stream));
  PetscCallCUDA(cudaMemcpyAsync(*di, h->i, sizeof(PetscInt) * (m + 1), cudaMemcpyHostToDevice, stream));
  PetscCall(PetscLogCpuToGpu(sizeof(PetscInt) * (m + 1)));
  PetscCall(PetscLogGpuTimeBegin());
  PetscCallCUDA(jagged::gpu::ScatterColumns(*j->dformat, *dj, stream));
  PetscCallCUDA(jagged::gpu::ScatterValues(*j->dformat, HostScalar((const PetscScalar *)j->vals), HostScalar(*da), stream));
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(PetscLogEventEnd(MAT_JAGGED_Refresh, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSeqJaggedRestoreDeviceCSR - the arrays of MatSeqJaggedGetDeviceCSR() freed, on PETSc's stream (after what it has queued that reads them) */
PetscErrorCode MatSeqJaggedRestoreDeviceCSR(Mat A, PetscInt **di, PetscInt **dj, PetscScalar **da)
{
  cudaStream_t stream;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCallCUDA(cudaFreeAsync(*di, stream));
  PetscCallCUDA(cudaFreeAsync(*dj, stream));
  PetscCallCUDA(cudaFreeAsync(*da, stream));
  *di = *dj = NULL;
  *da       = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- COO assembly from GPU memory (jaggedcoo.c) */

static_assert(sizeof(PetscCount) == sizeof(long long), "MATSEQAIJ's COO map is handed to SumCOO() as long long");

/* The device copies of MATSEQAIJ's COO map dropped (after a new MatSetPreallocationCOO(), or when A goes) */
static PetscErrorCode MatSeqJaggedFreeCOOMap(Mat A)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  PetscCall(MatSeqJaggedDeviceFree(j->coo_dmap));
  j->coo_dmap = j->coo_djmap = j->coo_dperm = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MATSEQAIJ's COO map of A, checked against its host CSR (the layout seqaijhead.h copies) */
static PetscErrorCode MatSeqJaggedCOOGetMap(Mat A, const MatSeqAIJCOOHead **coo)
{
  PetscContainer c;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)A, "__PETSc_MatCOOStruct_Host", (PetscObject *)&c));
  PetscCheck(c, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MATSEQAIJ's COO map not found");
  PetscCall(PetscContainerGetPointer(c, (void **)coo));
  PetscCheck((*coo)->nz == ((MatSeqAIJHead *)A->data)->nz && (*coo)->jmap[(*coo)->nz] == (*coo)->Atot && (*coo)->Atot <= (*coo)->n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MATSEQAIJ's COO map of this PETSc differs from seqaijhead.h");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  After MATSEQAIJ's MatSetPreallocationCOO(): its new map checked (on every path, host kernels included, so that a PETSc whose
  layout differs is told at once), the device copy of the previous one dropped
*/
static PetscErrorCode MatSeqJaggedCOOPreallocated(Mat A)
{
  const MatSeqAIJCOOHead *coo;

  PetscFunctionBegin;
  PetscCall(MatSeqJaggedCOOGetMap(A, &coo));
  PetscCall(MatSeqJaggedFreeCOOMap(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  A new device array *dcsr of A's values in the order of its host CSR's nonzeros, to be summed into on the GPU (COO assembly): the
  current values with current (read from the jagged copy, made current first), else not set. MatSeqJaggedRestoreDeviceCSRValues()
  takes it back.
*/
PetscErrorCode MatSeqJaggedGetDeviceCSRValues(Mat A, PetscBool current, PetscScalar **dcsr, cudaStream_t stream)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  PetscCheck(!j->host && !A->boundtocpu, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The matrix multiplies on the host: its values have no device copy");
  if (current && !(MatSeqJaggedCurrent(A) && j->vals)) PetscCall(MatSeqJaggedSync(A)); /* the values added to, on the GPU */
  if (!j->format || j->format_nzstate != A->nonzerostate) PetscCall(MatSeqJaggedBuildFormat(A));
  PetscCallCUDA(cudaMallocAsync((void **)dcsr, sizeof(PetscScalar) * PetscMax(((MatSeqAIJHead *)A->data)->nz, 1), stream));
  if (current) PetscCallCUDA(jagged::gpu::ScatterValues(*j->dformat, HostScalar((const PetscScalar *)j->vals), HostScalar(*dcsr), stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  A's values from *dcsr (MatSeqJaggedGetDeviceCSRValues(), then summed into on the GPU): gathered into the jagged copy there and
  copied to the host CSR, the master copy (one device-to-host copy of the nonzeros' values; nothing goes from the host to the
  GPU); *dcsr freed
*/
PetscErrorCode MatSeqJaggedRestoreDeviceCSRValues(Mat A, PetscScalar **dcsr, cudaStream_t stream)
{
  const PetscInt nz = ((MatSeqAIJHead *)A->data)->nz;
  PetscScalar   *ha;

  PetscFunctionBegin;
  PetscCall(MatSeqJaggedFillFromDevice(A, *dcsr, stream));
  PetscCall(MatSeqAIJGetArrayWrite(A, &ha)); /* the master copy takes the values the GPU holds now */
  PetscCallCUDA(cudaMemcpyAsync(ha, *dcsr, sizeof(PetscScalar) * nz, cudaMemcpyDeviceToHost, stream));
  PetscCallCUDA(cudaFreeAsync(*dcsr, stream));
  PetscCallCUDA(cudaStreamSynchronize(stream));
  PetscCall(MatSeqAIJRestoreArrayWrite(A, &ha));
  PetscCall(PetscLogGpuToCpu(sizeof(PetscScalar) * nz));
  A->offloadmask = PETSC_OFFLOAD_BOTH; /* after the restore, which took the host for the only current copy */
  *dcsr          = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatSetValuesCOO() with v[] in GPU memory: summed through MATSEQAIJ's own COO map (uploaded once) into the order of the host
  CSR's nonzeros on the GPU (the current values first, for ADD_VALUES), then the jagged copy and the host CSR set from them
  (MatSeqJaggedRestoreDeviceCSRValues()). *done false for host values or the host kernels: MATSEQAIJ's own function then.
*/
static PetscErrorCode MatSeqJaggedSetValuesCOO(Mat A, const PetscScalar v[], PetscMemType mtype, InsertMode imode, PetscBool *done)
{
  Mat_SeqJagged          *j = (Mat_SeqJagged *)A->spptr;
  const MatSeqAIJCOOHead *coo;
  PetscScalar            *dcsr;
  cudaStream_t            stream;

  PetscFunctionBegin;
  *done = (PetscBool)(!j->host && !A->boundtocpu && PetscMemTypeCUDA(mtype));
  if (!*done) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSeqJaggedCOOGetMap(A, &coo));
  PetscCall(PetscLogEventBegin(MAT_JAGGED_Refresh, A, 0, 0, 0));
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  if (!j->coo_dmap) {
    const PetscCount *src[2] = {coo->jmap, coo->perm};
    long long **const dst[2] = {&j->coo_djmap, &j->coo_dperm};
    const size_t      len[2] = {(size_t)coo->nz + 1, (size_t)coo->Atot};

    PetscCall(MatJaggedUploadIndexArrays(2, src, len, dst, &j->coo_dmap, stream));
  }
  PetscCall(MatSeqJaggedGetDeviceCSRValues(A, (PetscBool)(imode == ADD_VALUES), &dcsr, stream));
  PetscCallCUDA(jagged::gpu::SumCOO((long long)coo->nz, nullptr, j->coo_djmap, j->coo_dperm, HostScalar(v), HostScalar(dcsr), imode == ADD_VALUES, stream));
  PetscCall(MatSeqJaggedRestoreDeviceCSRValues(A, &dcsr, stream));
  PetscCall(PetscLogEventEnd(MAT_JAGGED_Refresh, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Mat_SeqAIJ's value accessors, as MATSEQAIJCUSPARSE sets them: the host CSR is always current, so getting an
  array needs nothing; restoring one that may have been written leaves the jagged copy out of date.
*/
static PetscErrorCode MatSeqAIJRestoreArray_SeqJagged(Mat A, PetscScalar *array[])
{
  PetscFunctionBegin;
  PetscCall(MatSeqJaggedHostChanged(A));
  *array = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatRetrieveValues_SeqJagged(Mat A)
{
  PetscFunctionBegin;
  PetscCall(((Mat_SeqJagged *)A->spptr)->aijretrievevalues(A));
  PetscCall(MatSeqJaggedHostChanged(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- vectors */

static PetscErrorCode VecCheckDevice(Vec v)
{
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)v, &dev, VECSEQCUDA, VECMPICUDA, ""));
  PetscCheck(dev, PetscObjectComm((PetscObject)v), PETSC_ERR_ARG_WRONG, "Jagged-diagonal GPU matrices multiply vectors in GPU memory (VECCUDA: use MatCreateVecs() or -vec_type cuda), not %s; or use -mat_jagged_host", ((PetscObject)v)->type_name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Device buffer k (0: x, 1: w, 2: y) of at least n entries, for vectors that are not VECCUDA */
static PetscErrorCode MatSeqJaggedStage(Mat A, int k, PetscInt n, PetscScalar **buf)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  if (n > j->nstage[k]) {
    PetscCall(MatSeqJaggedDeviceFree(j->stage[k]));
    PetscCallCUDA(cudaMalloc((void **)&j->stage[k], sizeof(PetscScalar) * n));
    j->nstage[k] = n;
  }
  *buf = j->stage[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Device array of v for reading: its own when VECCUDA, else a staged copy of its host array */
static PetscErrorCode VecGetDeviceRead(Mat A, int k, Vec v, const PetscScalar **a, PetscBool *staged)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)v, staged, VECSEQCUDA, VECMPICUDA, ""));
  *staged = (PetscBool)!*staged;
  if (!*staged) PetscCall(VecCUDAGetArrayRead(v, a));
  else {
    const PetscScalar *h;
    PetscScalar       *d;
    PetscInt           n;
    cudaStream_t       stream;

    PetscCall(VecGetLocalSize(v, &n));
    PetscCall(MatSeqJaggedStage(A, k, n, &d));
    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCall(VecGetArrayRead(v, &h));
    PetscCallCUDA(cudaMemcpyAsync(d, h, sizeof(PetscScalar) * n, cudaMemcpyHostToDevice, stream));
    PetscCall(VecRestoreArrayRead(v, &h));
    PetscCall(PetscLogCpuToGpu(sizeof(PetscScalar) * n));
    *a = d;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Arrays of the input x, the added w and the output y of a product, in the memory the kernels run in.
  On the GPU, vectors that are not VECCUDA are staged through device buffers: MATMPIAIJ's ghost
  vector is one when MATMPIAIJ made it before its blocks became jagged (hash or COO assembly,
  MatConvert()); its products read it (MatMult) or write it (MatMultTranspose).
*/
static PetscErrorCode VecGetArrays_Private(Mat A, Vec x, Vec w, Vec y, const PetscScalar **xa, const PetscScalar **wa, PetscScalar **ya, PetscBool staged[3])
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  staged[0] = staged[1] = staged[2] = PETSC_FALSE;
  if (j->host) {
    PetscCall(VecGetArrayRead(x, xa));
    if (w && w != y) PetscCall(VecGetArrayRead(w, wa));
    if (w == y) PetscCall(VecGetArray(y, ya));
    else PetscCall(VecGetArrayWrite(y, ya));
  } else {
    PetscCall(VecGetDeviceRead(A, 0, x, xa, &staged[0]));
    if (w && w != y) PetscCall(VecGetDeviceRead(A, 1, w, wa, &staged[1]));
    PetscCall(PetscObjectTypeCompareAny((PetscObject)y, &staged[2], VECSEQCUDA, VECMPICUDA, ""));
    staged[2] = (PetscBool)!staged[2];
    if (staged[2]) {
      if (w == y) PetscCall(VecGetDeviceRead(A, 2, y, (const PetscScalar **)ya, &staged[2]));
      else {
        PetscInt n;

        PetscCall(VecGetLocalSize(y, &n));
        PetscCall(MatSeqJaggedStage(A, 2, n, ya));
      }
    } else if (w == y) PetscCall(VecCUDAGetArray(y, ya));
    else PetscCall(VecCUDAGetArrayWrite(y, ya));
  }
  if (w == y) *wa = *ya;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VecRestoreArrays_Private(Mat A, Vec x, Vec w, Vec y, const PetscScalar **xa, const PetscScalar **wa, PetscScalar **ya, const PetscBool staged[3])
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  if (j->host) {
    PetscCall(VecRestoreArrayRead(x, xa));
    if (w && w != y) PetscCall(VecRestoreArrayRead(w, wa));
    if (w == y) PetscCall(VecRestoreArray(y, ya));
    else PetscCall(VecRestoreArrayWrite(y, ya));
  } else {
    if (!staged[0]) PetscCall(VecCUDARestoreArrayRead(x, xa));
    if (w && w != y && !staged[1]) PetscCall(VecCUDARestoreArrayRead(w, wa));
    if (staged[2]) { /* the result back to the host vector */
      PetscScalar *h;
      PetscInt     n;
      cudaStream_t stream;

      PetscCall(VecGetLocalSize(y, &n));
      PetscCall(PetscGetCurrentCUDAStream(&stream));
      PetscCall(VecGetArrayWrite(y, &h));
      PetscCallCUDA(cudaMemcpyAsync(h, *ya, sizeof(PetscScalar) * n, cudaMemcpyDeviceToHost, stream));
      PetscCallCUDA(cudaStreamSynchronize(stream));
      PetscCall(VecRestoreArrayWrite(y, &h));
      PetscCall(PetscLogGpuToCpu(sizeof(PetscScalar) * n));
    } else if (w == y) PetscCall(VecCUDARestoreArray(y, ya));
    else PetscCall(VecCUDARestoreArrayWrite(y, ya));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- products */

typedef enum {
  PRODUCT_MULT,
  PRODUCT_MULTADD,
  PRODUCT_MULTTRANSPOSE,
  PRODUCT_MULTTRANSPOSEADD
} MatJaggedProduct;

/* y = op(A) x (+ w), on the device or through the host twins */
static PetscErrorCode MatSeqJaggedApply(Mat A, MatJaggedProduct product, Vec x, Vec w, Vec y)
{
  Mat_SeqJagged     *j = (Mat_SeqJagged *)A->spptr;
  const PetscScalar *xa, *wa = NULL;
  PetscScalar       *ya;
  PetscBool          staged[3];

  PetscFunctionBegin;
  PetscCall(MatSeqJaggedSync(A));
  PetscCall(VecGetArrays_Private(A, x, w, y, &xa, &wa, &ya, staged));
  if (j->host) {
    const jagged::Format &f = *j->format;
    switch (product) {
    case PRODUCT_MULT:
      jagged::host::Mult(f, HostScalar((const PetscScalar *)j->vals), HostScalar(xa), HostScalar(ya));
      break;
    case PRODUCT_MULTADD:
      jagged::host::MultAdd(f, HostScalar((const PetscScalar *)j->vals), HostScalar(xa), HostScalar(wa), HostScalar(ya));
      break;
    case PRODUCT_MULTTRANSPOSE:
      jagged::host::MultTranspose(f, HostScalar((const PetscScalar *)j->vals), HostScalar(xa), HostScalar(ya));
      break;
    case PRODUCT_MULTTRANSPOSEADD:
      jagged::host::MultTransposeAdd(f, HostScalar((const PetscScalar *)j->vals), HostScalar(xa), HostScalar(wa), HostScalar(ya));
      break;
    }
    PetscCall(PetscLogFlops(2.0 * j->format->nnz));
  } else {
    const jagged::gpu::DeviceFormat &d = *j->dformat;
    cudaStream_t                     stream;
    cudaError_t                      err = cudaSuccess;

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCall(PetscLogGpuTimeBegin());
    switch (product) {
    case PRODUCT_MULT:
      err = jagged::gpu::Mult(d, HostScalar((const PetscScalar *)j->vals), HostScalar(xa), HostScalar(ya), stream);
      break;
    case PRODUCT_MULTADD:
      err = jagged::gpu::MultAdd(d, HostScalar((const PetscScalar *)j->vals), HostScalar(xa), HostScalar(wa), HostScalar(ya), stream);
      break;
    case PRODUCT_MULTTRANSPOSE:
      err = jagged::gpu::MultTranspose(d, HostScalar((const PetscScalar *)j->vals), HostScalar(xa), HostScalar(ya), stream);
      break;
    case PRODUCT_MULTTRANSPOSEADD:
      err = jagged::gpu::MultTransposeAdd(d, HostScalar((const PetscScalar *)j->vals), HostScalar(xa), HostScalar(wa), HostScalar(ya), stream);
      break;
    }
    PetscCallCUDA(err);
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(2.0 * j->format->nnz));
  }
  PetscCall(VecRestoreArrays_Private(A, x, w, y, &xa, &wa, &ya, staged));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_SeqJagged(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatSeqJaggedApply(A, PRODUCT_MULT, x, NULL, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultAdd_SeqJagged(Mat A, Vec x, Vec w, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatSeqJaggedApply(A, PRODUCT_MULTADD, x, w, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTranspose_SeqJagged(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatSeqJaggedApply(A, PRODUCT_MULTTRANSPOSE, x, NULL, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTransposeAdd_SeqJagged(Mat A, Vec x, Vec w, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatSeqJaggedApply(A, PRODUCT_MULTTRANSPOSEADD, x, w, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x (+ w; w may be y) with the single-precision copy; arrays on the device, or the host with host kernels */
PetscErrorCode MatSeqJaggedMultSingle(Mat A, const PetscJaggedScalarSingle x[], const PetscJaggedScalarSingle w[], PetscJaggedScalarSingle y[])
{
  Mat_SeqJagged            *j = (Mat_SeqJagged *)A->spptr;
  const MatJaggedHostSingle *xs = reinterpret_cast<const MatJaggedHostSingle *>(x), *ws = reinterpret_cast<const MatJaggedHostSingle *>(w);
  MatJaggedHostSingle       *ys = reinterpret_cast<MatJaggedHostSingle *>(y);

  PetscFunctionBegin;
  if (!j->single) {
    PetscCall(PetscInfo(A, "Creating the single-precision copy on first use of MatJaggedMultSingle()\n"));
    j->single = PETSC_TRUE;
  }
  PetscCall(MatSeqJaggedSync(A));
  PetscCall(PetscLogEventBegin(MAT_JAGGED_MultSingle, A, 0, 0, 0));
  const MatJaggedHostSingle *vals = reinterpret_cast<const MatJaggedHostSingle *>(j->vals_single);
  if (j->host) {
    if (w) jagged::host::MultAdd(*j->format, vals, xs, ws, ys);
    else jagged::host::Mult(*j->format, vals, xs, ys);
    PetscCall(PetscLogFlops(2.0 * j->format->nnz));
  } else {
    cudaStream_t stream;

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCall(PetscLogGpuTimeBegin());
    if (w) PetscCallCUDA(jagged::gpu::MultAdd(*j->dformat, vals, xs, ws, ys, stream));
    else PetscCallCUDA(jagged::gpu::Mult(*j->dformat, vals, xs, ys, stream));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(2.0 * j->format->nnz));
  }
  PetscCall(PetscLogEventEnd(MAT_JAGGED_MultSingle, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Makes the single-precision copy current on the device for MatSeqJaggedMultSingleLaunch(); the
  generation returned changes whenever the arrays such a product reads are reallocated (a CUDA graph
  that captured the product must then be captured again).
*/
PetscErrorCode MatSeqJaggedSingleReady(Mat A, PetscObjectState *generation)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  PetscCheck(!j->host, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The matrix runs host kernels (-mat_jagged_host)");
  j->single = PETSC_TRUE;
  PetscCall(MatSeqJaggedSync(A));
  *generation = j->generation;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x with the device single-precision copy made ready by MatSeqJaggedSingleReady(): kernel launches on stream only (no logging, no synchronization), so that a CUDA graph can capture them */
PetscErrorCode MatSeqJaggedMultSingleLaunch(Mat A, const PetscJaggedScalarSingle x[], PetscJaggedScalarSingle y[], cudaStream_t stream)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  PetscCallCUDA(jagged::gpu::Mult(*j->dformat, reinterpret_cast<const MatJaggedHostSingle *>(j->vals_single), reinterpret_cast<const MatJaggedHostSingle *>(x), reinterpret_cast<MatJaggedHostSingle *>(y), stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedMultSingle_SeqJagged(Mat A, const PetscJaggedScalarSingle x[], PetscJaggedScalarSingle y[])
{
  PetscFunctionBegin;
  PetscCall(MatSeqJaggedMultSingle(A, x, NULL, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- value operations */

static PetscErrorCode MatGetDiagonal_SeqJagged(Mat A, Vec d)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;
  PetscScalar   *da;

  PetscFunctionBegin;
  PetscCall(MatSeqJaggedSync(A));
  if (j->host) {
    PetscCall(VecGetArrayWrite(d, &da));
    jagged::host::GetDiagonal(*j->format, HostScalar((const PetscScalar *)j->vals), HostScalar(da));
    PetscCall(VecRestoreArrayWrite(d, &da));
  } else {
    cudaStream_t stream;

    PetscCall(VecCheckDevice(d));
    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCall(VecCUDAGetArrayWrite(d, &da));
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA(jagged::gpu::GetDiagonal(*j->dformat, HostScalar((const PetscScalar *)j->vals), HostScalar(da), stream));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(VecCUDARestoreArrayWrite(d, &da));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatScale_SeqJagged(Mat A, PetscScalar alpha)
{
  Mat_SeqJagged         *j       = (Mat_SeqJagged *)A->spptr;
  const PetscBool        current = MatSeqJaggedCurrent(A);
  const PetscObjectState nzstate = A->nonzerostate;

  PetscFunctionBegin;
  PetscCall(j->aijops.scale(A, alpha));
  PetscCall(MatSeqJaggedHostChanged(A));
  if (current && A->nonzerostate == nzstate) {
    const MatJaggedHostScalar a = *HostScalar(&alpha);

    if (j->host) jagged::host::Scale(*j->format, HostScalar(j->vals), a);
    else {
      cudaStream_t stream;

      PetscCall(PetscGetCurrentCUDAStream(&stream));
      PetscCallCUDA(jagged::gpu::Scale(*j->dformat, HostScalar(j->vals), a, stream));
    }
    PetscCall(MatSeqJaggedDemote(A));
    A->offloadmask = PETSC_OFFLOAD_BOTH;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatShift_SeqJagged(Mat A, PetscScalar alpha)
{
  Mat_SeqJagged         *j       = (Mat_SeqJagged *)A->spptr;
  const PetscBool        current = MatSeqJaggedCurrent(A);
  const PetscObjectState nzstate = A->nonzerostate;

  PetscFunctionBegin;
  PetscCall(j->aijops.shift(A, alpha)); /* inserts missing diagonal entries: then the pattern changed */
  PetscCall(MatSeqJaggedHostChanged(A));
  if (current && A->nonzerostate == nzstate) {
    const MatJaggedHostScalar a = *HostScalar(&alpha);

    if (j->host) jagged::host::Shift(*j->format, HostScalar(j->vals), a);
    else {
      cudaStream_t stream;

      PetscCall(PetscGetCurrentCUDAStream(&stream));
      PetscCallCUDA(jagged::gpu::Shift(*j->dformat, HostScalar(j->vals), a, stream));
    }
    PetscCall(MatSeqJaggedDemote(A));
    A->offloadmask = PETSC_OFFLOAD_BOTH;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDiagonalScale_SeqJagged(Mat A, Vec l, Vec r)
{
  Mat_SeqJagged         *j       = (Mat_SeqJagged *)A->spptr;
  const PetscBool        current = MatSeqJaggedCurrent(A);
  const PetscObjectState nzstate = A->nonzerostate;
  PetscBool              ldev = PETSC_TRUE, rdev = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(j->aijops.diagonalscale(A, l, r));
  PetscCall(MatSeqJaggedHostChanged(A));
  if (!j->host) {
    if (l) PetscCall(PetscObjectTypeCompareAny((PetscObject)l, &ldev, VECSEQCUDA, VECMPICUDA, ""));
    if (r) PetscCall(PetscObjectTypeCompareAny((PetscObject)r, &rdev, VECSEQCUDA, VECMPICUDA, ""));
  }
  if (current && A->nonzerostate == nzstate && ldev && rdev) { /* else the next use refreshes the values */
    const PetscScalar *la = NULL, *ra = NULL;

    if (j->host) {
      if (l) PetscCall(VecGetArrayRead(l, &la));
      if (r) PetscCall(VecGetArrayRead(r, &ra));
      jagged::host::DiagonalScale(*j->format, HostScalar(j->vals), HostScalar(la), HostScalar(ra));
      if (l) PetscCall(VecRestoreArrayRead(l, &la));
      if (r) PetscCall(VecRestoreArrayRead(r, &ra));
    } else {
      cudaStream_t stream;

      PetscCall(PetscGetCurrentCUDAStream(&stream));
      if (l) PetscCall(VecCUDAGetArrayRead(l, &la));
      if (r) PetscCall(VecCUDAGetArrayRead(r, &ra));
      PetscCallCUDA(jagged::gpu::DiagonalScale(*j->dformat, HostScalar(j->vals), HostScalar(la), HostScalar(ra), stream));
      if (l) PetscCall(VecCUDARestoreArrayRead(l, &la));
      if (r) PetscCall(VecCUDARestoreArrayRead(r, &ra));
    }
    PetscCall(MatSeqJaggedDemote(A));
    A->offloadmask = PETSC_OFFLOAD_BOTH;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatZeroEntries_SeqJagged(Mat A)
{
  Mat_SeqJagged         *j       = (Mat_SeqJagged *)A->spptr;
  const PetscBool        current = MatSeqJaggedCurrent(A);
  const PetscObjectState nzstate = A->nonzerostate;

  PetscFunctionBegin;
  PetscCall(j->aijops.zeroentries(A));
  PetscCall(MatSeqJaggedHostChanged(A));
  if (current && A->nonzerostate == nzstate) {
    const size_t n = (size_t)j->format->nslots;

    if (j->host) {
      PetscCall(PetscArrayzero(j->vals, n));
      if (j->vals_single) PetscCall(PetscMemzero(j->vals_single, n * sizeof(PetscJaggedScalarSingle)));
    } else {
      cudaStream_t stream;

      PetscCall(PetscGetCurrentCUDAStream(&stream));
      PetscCallCUDA(cudaMemsetAsync(j->vals, 0, n * sizeof(PetscScalar), stream));
      if (j->vals_single) PetscCallCUDA(cudaMemsetAsync(j->vals_single, 0, n * sizeof(PetscJaggedScalarSingle), stream));
    }
    A->offloadmask = PETSC_OFFLOAD_BOTH;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Whether the jagged values of X and Y, both current, line up slot for slot, for MatAXPY(): the slot of
  each CSR position follows from the row lengths and the format options alone (the columns do not
  matter, as each matrix keeps its own)
*/
static PetscErrorCode MatSeqJaggedSameSlots(Mat X, Mat Y, PetscBool *same)
{
  Mat_SeqJagged        *jx = (Mat_SeqJagged *)X->spptr, *jy = (Mat_SeqJagged *)Y->spptr;
  const jagged::Format &fx = *jx->format, &fy = *jy->format;
  const int            *xi, *xj, *yi, *yj;
  const PetscScalar    *xa, *ya;

  PetscFunctionBegin;
  *same = (PetscBool)(jx->host == jy->host && fx.kind == fy.kind && fx.block_rows == fy.block_rows && fx.long_threshold == fy.long_threshold && fx.nrows == fy.nrows && fx.nslots == fy.nslots);
  if (*same) {
    PetscCall(MatSeqJaggedGetCSR(X, &xi, &xj, &xa));
    PetscCall(MatSeqJaggedGetCSR(Y, &yi, &yj, &ya));
    PetscCall(PetscArraycmp(xi, yi, fx.nrows + 1, same));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Y += alpha X on the host CSR where every nonzero of X is one of Y's (a subset pattern, said or not), both with a Mat_SeqAIJ head
  (the jagged types, MATSEQAIJ and its subtypes), the columns of their entries read through ycol and xcol where given (the
  global columns of an MPI matrix's off-diagonal blocks), else their own: each row's sorted columns merged in one pass.
  MATSEQAIJ goes through MatAXPY_Basic() there, a MatGetRow() and a MatSetValues() a row (PCGAMG's smoothed prolongator,
  PCGAMGOptProlongator_AGG()). With apply false only *subset: whether every entry of X is in Y, nothing changed; with apply,
  after that check, the sum.
*/
PetscErrorCode MatJaggedAXPYSubset_Private(Mat Y, const PetscInt ycol[], PetscScalar alpha, Mat X, const PetscInt xcol[], PetscBool apply, PetscBool *subset)
{
  const MatSeqAIJHead *x  = (const MatSeqAIJHead *)X->data, *y = (const MatSeqAIJHead *)Y->data;
  const PetscScalar   *xa = NULL;
  PetscScalar         *ya = NULL;

  PetscFunctionBegin;
  *subset = PETSC_TRUE;
  if (apply) {
    PetscCall(MatSeqAIJGetArrayRead(X, &xa)); /* a MATSEQAIJCUSPARSE's values copied back where its device copy is newer */
    PetscCall(MatSeqAIJGetArray(Y, &ya));
  }
  for (PetscInt r = 0; r < Y->rmap->n && *subset; r++) {
    PetscInt k = y->i[r];

    for (PetscInt l = x->i[r]; l < x->i[r + 1]; l++) {
      const PetscInt c = xcol ? xcol[x->j[l]] : x->j[l];

      while (k < y->i[r + 1] && (ycol ? ycol[y->j[k]] : y->j[k]) < c) k++;
      if (k == y->i[r + 1] || (ycol ? ycol[y->j[k]] : y->j[k]) != c) {
        *subset = PETSC_FALSE;
        break;
      }
      if (apply) ya[k] += alpha * xa[l];
    }
  }
  if (apply) {
    PetscCall(MatSeqAIJRestoreArray(Y, &ya)); /* Y's jagged values out of date */
    PetscCall(MatSeqAIJRestoreArrayRead(X, &xa));
    PetscCheck(*subset, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Merged a sum whose pattern was not checked");
    PetscCall(PetscLogFlops(2.0 * x->nz));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Y += a X; on the jagged values too when X (not Y itself) has the same type, pattern and format options. Where X (AIJ-based,
  not Y, str not SAME_NONZERO_PATTERN) has a pattern within Y's, merged on the host CSR by MatJaggedAXPYSubset_Private(),
  Y's pattern kept (MATSEQAIJ's DIFFERENT_NONZERO_PATTERN path makes a new matrix, here a new jagged format); else MATSEQAIJ's code.
*/
static PetscErrorCode MatAXPY_SeqJagged(Mat Y, PetscScalar alpha, Mat X, MatStructure str)
{
  Mat_SeqJagged         *jy      = (Mat_SeqJagged *)Y->spptr;
  const PetscBool        current = MatSeqJaggedCurrent(Y);
  const PetscObjectState nzstate = Y->nonzerostate;
  PetscBool              same, merged = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)X, ((PetscObject)Y)->type_name, &same));
  if (str != SAME_NONZERO_PATTERN && X != Y) { /* a pattern within Y's, also where not promised (PCGAMG's graph, G + G^T: DIFFERENT_NONZERO_PATTERN) */
    PetscBool aij;

    PetscCall(PetscObjectBaseTypeCompare((PetscObject)X, MATSEQAIJ, &aij));
    if (aij) PetscCall(MatJaggedAXPYSubset_Private(Y, NULL, alpha, X, NULL, PETSC_FALSE, &merged));
    if (merged) PetscCall(MatJaggedAXPYSubset_Private(Y, NULL, alpha, X, NULL, PETSC_TRUE, &merged));
  }
  if (!merged) PetscCall(jy->aijops.axpy(Y, alpha, X, str));
  PetscCall(MatSeqJaggedHostChanged(Y));
  if (same && X != Y && str == SAME_NONZERO_PATTERN && current && Y->nonzerostate == nzstate) {
    Mat_SeqJagged *jx = (Mat_SeqJagged *)X->spptr;
    PetscBool      slots;

    PetscCall(MatSeqJaggedSync(X));
    PetscCall(MatSeqJaggedSameSlots(X, Y, &slots));
    if (slots) {
      const MatJaggedHostScalar a = *HostScalar(&alpha);

      if (jy->host) jagged::host::AXPY(jy->format->nslots, HostScalar(jy->vals), a, HostScalar((const PetscScalar *)jx->vals));
      else {
        cudaStream_t stream;

        PetscCall(PetscGetCurrentCUDAStream(&stream));
        PetscCallCUDA(jagged::gpu::AXPY(jy->format->nslots, HostScalar(jy->vals), a, HostScalar((const PetscScalar *)jx->vals), stream));
      }
      PetscCall(MatSeqJaggedDemote(Y));
      Y->offloadmask = PETSC_OFFLOAD_BOTH;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- assembly, options, view */

static PetscErrorCode MatAssemblyEnd_SeqJagged(Mat A, MatAssemblyType mode)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  PetscCall(j->aijops.assemblyend(A, mode));
  PetscCall(MatSeqJaggedHostChanged(A)); /* MatSetValues() changed the host values */
  if (mode == MAT_FLUSH_ASSEMBLY || A->boundtocpu || j->deferred) PetscFunctionReturn(PETSC_SUCCESS); /* deferred: MatSeqJaggedSync() at the first use */
  PetscCall(MatSeqJaggedSync_Private(A)); /* the format when the pattern changed, else the values only */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSeqJaggedSetKernel_Private(Mat_SeqJagged *j, MatJaggedKernel kernel, PetscInt threshold)
{
  PetscFunctionBegin;
  j->kernel = kernel;
  switch (kernel) {
  case MAT_JAGGED_KERNEL_AUTO:
    j->options.long_rows = jagged::LongRowMode::Auto;
    break;
  case MAT_JAGGED_KERNEL_JAGGED:
    j->options.long_rows = jagged::LongRowMode::JaggedOnly;
    break;
  case MAT_JAGGED_KERNEL_SPLIT:
    j->options.long_rows = jagged::LongRowMode::Split;
    if (threshold != PETSC_DETERMINE) j->options.long_row_threshold = (int)threshold;
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The options of the jagged types, sequential (pjds: MATSEQPJDSCUDA) and MPI alike, read through their getters and
  set through their setters. -mat_jagged_host is not one of them: it is read, without a prefix, where the type is
  created.
*/
PetscErrorCode MatJaggedSetFromOptions_Private(Mat A, PetscBool pjds, PetscOptionItems PetscOptionsObject)
{
  PetscInt        br, threshold;
  MatJaggedKernel kernel;
  MatJaggedBlocks blocks;
  PetscBool       single, flg, tflg;

  PetscFunctionBegin;
  PetscCall(MatJaggedGetKernel(A, &kernel, &threshold));
  PetscCall(MatJaggedGetBlocks(A, &blocks, NULL));
  PetscCall(MatJaggedGetSinglePrecision(A, &single));
  PetscOptionsHeadBegin(PetscOptionsObject, "Jagged-diagonal GPU matrix options");
  if (pjds) {
    PetscCall(MatPJDSGetBlockRows(A, &br));
    PetscCall(PetscOptionsInt("-mat_pjds_block_rows", "Rows padded together to the longest of them (pJDS b_r)", "MatPJDSSetBlockRows", br, &br, &flg));
    if (flg) PetscCall(MatPJDSSetBlockRows(A, br));
  }
  PetscCall(PetscOptionsEnum("-mat_jagged_kernel", "Treatment of rows much longer than the rest", "MatJaggedSetKernel", MatJaggedKernels, (PetscEnum)kernel, (PetscEnum *)&kernel, &flg));
  PetscCall(PetscOptionsInt("-mat_jagged_long_row_threshold", "With -mat_jagged_kernel split: rows longer than this go to the warp-per-row part", "MatJaggedSetKernel", threshold, &threshold, &tflg));
  if (flg || tflg) PetscCall(MatJaggedSetKernel(A, kernel, tflg ? threshold : PETSC_DETERMINE));
  PetscCall(PetscOptionsEnum("-mat_jagged_blocks", "Dense blocks with one column index each, where the matrix has a block size of 2 to 6", "MatJaggedSetBlocks", MatJaggedBlocksTypes, (PetscEnum)blocks, (PetscEnum *)&blocks, &flg));
  if (flg) PetscCall(MatJaggedSetBlocks(A, blocks));
  PetscCall(PetscOptionsBool("-mat_jagged_single", "Keep a single-precision copy of the values", "MatJaggedSetSinglePrecision", single, &single, &flg));
  if (flg) PetscCall(MatJaggedSetSinglePrecision(A, single));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetFromOptions_SeqJagged(Mat A, PetscOptionItems PetscOptionsObject)
{
  PetscFunctionBegin;
  PetscCall(MatJaggedSetFromOptions_Private(A, (PetscBool)(((Mat_SeqJagged *)A->spptr)->kind == jagged::Kind::PJDS), PetscOptionsObject));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatView_SeqJagged(Mat A, PetscViewer viewer)
{
  Mat_SeqJagged    *j = (Mat_SeqJagged *)A->spptr;
  PetscBool         ascii;
  PetscViewerFormat fmt;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (ascii) PetscCall(PetscViewerGetFormat(viewer, &fmt));
  if (!ascii || (fmt != PETSC_VIEWER_ASCII_INFO && fmt != PETSC_VIEWER_ASCII_INFO_DETAIL)) {
    PetscCall(j->aijops.view(A, viewer));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (A->assembled && !A->boundtocpu) PetscCall(MatSeqJaggedSync(A));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%s format%s, %s\n", j->kind == jagged::Kind::PJDS ? "padded jagged-diagonal (pJDS)" : "jagged-diagonal (JDS)", j->host ? " with host reference kernels" : " on the GPU", A->boundtocpu ? "bound to the CPU" : "device copy in use"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  if (j->kind == jagged::Kind::PJDS) PetscCall(PetscViewerASCIIPrintf(viewer, "block rows (b_r): %d\n", j->options.block_rows));
  if (j->format) {
    const jagged::Format &f  = *j->format;
    const jagged::Stats   st = jagged::GetStats(f, sizeof(PetscScalar));

    PetscCall(PetscViewerASCIIPrintf(viewer, "rows %d, columns %d, nonzeros %lld, longest %s %d\n", f.nrows, f.ncols, st.nnz, f.bs > 1 ? "block row (blocks)" : "row", f.maxrowlen));
    PetscCall(PetscViewerASCIIPrintf(viewer, "stored entries %lld: padding %lld (%.1f%% of the nonzeros); ELLPACK would store %lld, saving %.1f%%\n", st.nslots, st.padding, 100.0 * st.padding_ratio, st.ellpack_slots, 100.0 * st.ellpack_reduction));
    if (f.bs > 1) PetscCall(PetscViewerASCIIPrintf(viewer, "layout: dense blocks of %d x %d, one column index a block (-mat_jagged_blocks %s); %d block rows, %d blocks stored (the zeros of partly empty blocks count as padding)\n", f.bs, f.bs, MatJaggedBlocksTypes[j->blocks], f.nsorted, f.nstored));
    else {
      PetscInt rbs;

      PetscCall(MatGetBlockSize(A, &rbs));
      PetscCall(PetscViewerASCIIPrintf(viewer, "layout: single entries, one column index each%s\n", rbs > 1 ? (j->blocks == MAT_JAGGED_BLOCKS_OFF ? " (-mat_jagged_blocks off)" : rbs > jagged::kMaxBlockSize ? " (block size above 6)" : " (blocks would move more bytes, or the block size does not divide the rows and columns)") : ""));
    }
    PetscCall(PetscViewerASCIIPrintf(viewer, "bytes a nonzero in a product: %.2f (values and column indices, padding included)\n", st.product_bytes));
    if (f.nlong) PetscCall(PetscViewerASCIIPrintf(viewer, "jagged diagonals %d; kernel: %s, %d long rows (> %d entries, %d nonzeros) in a warp-per-row CSR part, %d of them block-per-row\n", f.ndiag, MatJaggedKernels[j->kernel], f.nlong, f.long_threshold, f.long_nnz, f.nlong_block));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "jagged diagonals %d; kernel: %s, one thread per %s for all %ss\n", f.ndiag, MatJaggedKernels[j->kernel], f.bs > 1 ? "block row" : "row", f.bs > 1 ? "block row" : "row"));
    PetscCall(PetscViewerASCIIPrintf(viewer, "%s memory: %.3g MB (indices %.3g MB, refresh map %.3g MB, values %.3g MB%s)\n", j->host ? "host" : "device",
                                     (st.device_bytes + (j->vals_single ? f.nslots * sizeof(PetscJaggedScalarSingle) : 0)) / 1.e6, st.index_bytes / 1.e6, st.valmap_bytes / 1.e6, st.value_bytes / 1.e6, j->vals_single ? ", plus the single-precision copy" : ""));
  } else PetscCall(PetscViewerASCIIPrintf(viewer, "format not built yet\n"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "single-precision copy: %s\n", j->single ? "yes" : "no"));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- type management */

static PetscErrorCode MatBindToCPU_SeqJagged(Mat A, PetscBool flg)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  A->boundtocpu = flg;
  /* as MATSEQAIJCUSPARSE: no inodes once the device copy is used (their search in MatAssemblyEnd() is a pass over the pattern) */
  if (!flg) PetscCall(MatSetOption(A, MAT_USE_INODES, PETSC_FALSE));
  if (flg) { /* the host CSR is always current: nothing to copy back */
    A->ops->mult             = j->aijops.mult;
    A->ops->multadd          = j->aijops.multadd;
    A->ops->multtranspose    = j->aijops.multtranspose;
    A->ops->multtransposeadd = j->aijops.multtransposeadd;
    A->ops->getdiagonal      = j->aijops.getdiagonal;
    A->ops->multhermitiantranspose    = j->aijops.multhermitiantranspose;
    A->ops->multhermitiantransposeadd = j->aijops.multhermitiantransposeadd;
  } else {
    A->ops->mult             = MatMult_SeqJagged;
    A->ops->multadd          = MatMultAdd_SeqJagged;
    A->ops->multtranspose    = MatMultTranspose_SeqJagged;
    A->ops->multtransposeadd = MatMultTransposeAdd_SeqJagged;
    A->ops->getdiagonal      = MatGetDiagonal_SeqJagged;
    /* MatMultHermitianTranspose() then conjugates around the (GPU) transpose product */
    A->ops->multhermitiantranspose    = NULL;
    A->ops->multhermitiantransposeadd = NULL;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedSetSinglePrecision_SeqJagged(Mat A, PetscBool flg)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  j->single = flg;
  if (A->assembled && !A->boundtocpu) PetscCall(MatSeqJaggedSync(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedGetSinglePrecision_SeqJagged(Mat A, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = ((Mat_SeqJagged *)A->spptr)->single;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedGetStorage_SeqJagged(Mat A, PetscCount *nnz, PetscCount *stored)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  PetscCall(MatSeqJaggedSync(A));
  if (nnz) *nnz = j->format->nnz;
  if (stored) *stored = j->format->nslots;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedGetProductBytes_SeqJagged(Mat A, PetscReal *bytes)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  PetscCall(MatSeqJaggedSync(A));
  *bytes = (PetscReal)jagged::GetStats(*j->format, sizeof(PetscScalar)).product_bytes;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedSetKernel_SeqJagged(Mat A, MatJaggedKernel kernel, PetscInt threshold)
{
  Mat_SeqJagged        *j   = (Mat_SeqJagged *)A->spptr;
  const jagged::Options old = j->options;

  PetscFunctionBegin;
  PetscCall(MatSeqJaggedSetKernel_Private(j, kernel, threshold));
  if (j->options.long_rows != old.long_rows || j->options.long_row_threshold != old.long_row_threshold) PetscCall(MatSeqJaggedReset(A)); /* the format is built again */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedGetKernel_SeqJagged(Mat A, MatJaggedKernel *kernel, PetscInt *threshold)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  if (kernel) *kernel = j->kernel;
  if (threshold) *threshold = j->options.long_row_threshold;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedSetBlocks_SeqJagged(Mat A, MatJaggedBlocks blocks)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  if (blocks == j->blocks) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSeqJaggedReset(A)); /* the format is built again */
  j->blocks = blocks;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedGetBlocks_SeqJagged(Mat A, MatJaggedBlocks *blocks, PetscInt *bs)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  if (blocks) *blocks = j->blocks;
  if (bs) {
    if (A->assembled && !A->boundtocpu) PetscCall(MatSeqJaggedSync(A));
    *bs = j->format ? j->format->bs : 1;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatPJDSSetBlockRows_SeqJagged(Mat A, PetscInt br)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  if (br == j->options.block_rows) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSeqJaggedReset(A));
  j->options.block_rows = (int)br;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatPJDSGetBlockRows_SeqJagged(Mat A, PetscInt *br)
{
  PetscFunctionBegin;
  *br = ((Mat_SeqJagged *)A->spptr)->options.block_rows;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedSetUseHost_SeqJagged(Mat A, PetscBool flg)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  if (flg == j->host) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSeqJaggedReset(A));
  j->host = flg;
  PetscCall(PetscFree(A->defaultvectype));
  PetscCall(PetscStrallocpy(flg ? VECSTANDARD : VECCUDA, &A->defaultvectype));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatJaggedGetUseHost_SeqJagged(Mat A, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = ((Mat_SeqJagged *)A->spptr)->host;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Copies the format options of src (another jagged matrix) into A */
PetscErrorCode MatSeqJaggedSetOptions(Mat A, const Mat_SeqJagged *src)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  PetscCall(MatJaggedSetUseHost_SeqJagged(A, src->host));
  if (j->options.block_rows != src->options.block_rows || j->options.long_rows != src->options.long_rows || j->options.long_row_threshold != src->options.long_row_threshold || j->blocks != src->blocks) PetscCall(MatSeqJaggedReset(A));
  j->options = src->options;
  j->kernel  = src->kernel;
  j->blocks  = src->blocks;
  j->single  = src->single;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDuplicate_SeqJagged(Mat A, MatDuplicateOption op, Mat *B)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  PetscCall(j->aijops.duplicate(A, op, B)); /* creates *B of A's type, then copies the CSR */
  PetscCall(MatSeqJaggedSetOptions(*B, j));
  if ((*B)->assembled) PetscCall(MatSeqJaggedSync(*B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSeqJaggedComposeAll(Mat B, MatType type, PetscBool add);

/* In place back to MATSEQAIJ */
static PetscErrorCode MatSeqJaggedToSeqAIJ(Mat B)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)B->spptr;

  PetscFunctionBegin;
  PetscCall(MatSeqJaggedComposeAll(B, ((PetscObject)B)->type_name, PETSC_FALSE));
  *B->ops = j->aijops;
  PetscCall(PetscMemzero(((MatSeqAIJHead *)B->data)->ops, sizeof(MatSeqAIJHeadOps)));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatRetrieveValues_C", j->aijretrievevalues));
  PetscCall(MatJaggedRemoveCOO(B));
  PetscCall(MatSeqJaggedFreeCOOMap(B));
  PetscCall(MatSeqJaggedReset(B));
  PetscCall(MatDestroy(&j->twin));
  PetscCall(PetscFree(B->spptr));
  PetscCall(PetscFree(B->defaultvectype));
  PetscCall(PetscStrallocpy(VECSTANDARD, &B->defaultvectype));
  B->offloadmask = PETSC_OFFLOAD_UNALLOCATED;
  PetscCall(PetscObjectChangeTypeName((PetscObject)B, MATSEQAIJ));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatConvert_SeqJagged_SeqAIJ(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatCopy(A, *newmat, SAME_NONZERO_PATTERN));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (reuse == MAT_INITIAL_MATRIX) PetscCall(MatDuplicate(A, MAT_COPY_VALUES, newmat));
  PetscCall(MatSeqJaggedToSeqAIJ(*newmat));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatConvert_SeqJagged_SeqAIJCUSPARSE(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatCopy(A, *newmat, SAME_NONZERO_PATTERN));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatConvert_SeqJagged_SeqAIJ(A, MATSEQAIJ, reuse, newmat));
  PetscCall(MatConvert(*newmat, MATSEQAIJCUSPARSE, MAT_INPLACE_MATRIX, newmat));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* From AIJCUSPARSE (found by MatConvert() on a matrix of the target type) */
static PetscErrorCode MatConvert_SeqAIJCUSPARSE_SeqJagged(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatCopy(A, *newmat, SAME_NONZERO_PATTERN));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (reuse == MAT_INITIAL_MATRIX) PetscCall(MatConvert(A, MATSEQAIJ, MAT_INITIAL_MATRIX, newmat));
  else PetscCall(MatConvert(A, MATSEQAIJ, MAT_INPLACE_MATRIX, newmat));
  PetscCall(MatConvert_SeqAIJ_SeqJagged(*newmat, type, MAT_INPLACE_MATRIX, newmat));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSeqJaggedComposeAll(Mat B, MatType type, PetscBool add)
{
  char      name[256];
  PetscBool pjds;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(type, MATSEQPJDSCUDA, &pjds));
  if (pjds) {
    PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatPJDSSetBlockRows_C", add ? MatPJDSSetBlockRows_SeqJagged : NULL));
    PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatPJDSGetBlockRows_C", add ? MatPJDSGetBlockRows_SeqJagged : NULL));
  }
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatJaggedSetSinglePrecision_C", add ? MatJaggedSetSinglePrecision_SeqJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatJaggedGetSinglePrecision_C", add ? MatJaggedGetSinglePrecision_SeqJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatJaggedMultSingle_C", add ? MatJaggedMultSingle_SeqJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatJaggedSetKernel_C", add ? MatJaggedSetKernel_SeqJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatJaggedGetKernel_C", add ? MatJaggedGetKernel_SeqJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatJaggedSetBlocks_C", add ? MatJaggedSetBlocks_SeqJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatJaggedGetBlocks_C", add ? MatJaggedGetBlocks_SeqJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatJaggedGetStorage_C", add ? MatJaggedGetStorage_SeqJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatJaggedGetProductBytes_C", add ? MatJaggedGetProductBytes_SeqJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatJaggedSetUseHost_C", add ? MatJaggedSetUseHost_SeqJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatJaggedGetUseHost_C", add ? MatJaggedGetUseHost_SeqJagged : NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatProductSetFromOptions_anytype_C", add ? MatProductSetFromOptions_SeqJagged : NULL)); /* with an operand of another type */
  PetscCall(PetscSNPrintf(name, sizeof(name), "MatConvert_%s_seqaij_C", type));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, name, add ? MatConvert_SeqJagged_SeqAIJ : NULL));
  PetscCall(PetscSNPrintf(name, sizeof(name), "MatConvert_%s_seqaijcusparse_C", type));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, name, add ? MatConvert_SeqJagged_SeqAIJCUSPARSE : NULL));
  PetscCall(PetscSNPrintf(name, sizeof(name), "MatConvert_seqaij_%s_C", type));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, name, add ? MatConvert_SeqAIJ_SeqJagged : NULL));
  PetscCall(PetscSNPrintf(name, sizeof(name), "MatConvert_seqaijcusparse_%s_C", type));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, name, add ? MatConvert_SeqAIJCUSPARSE_SeqJagged : NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_SeqJagged(Mat A)
{
  Mat_SeqJagged *j = (Mat_SeqJagged *)A->spptr;

  PetscFunctionBegin;
  PetscCall(MatSeqJaggedComposeAll(A, ((PetscObject)A)->type_name, PETSC_FALSE));
  PetscCall(MatSeqJaggedReset(A));
  PetscCall(MatSeqJaggedFreeCOOMap(A));
  PetscCall(MatDestroy(&j->twin)); /* kept across format rebuilds: it depends on the host CSR only, and copies made from its device CSR read it */
  A->ops->destroy = j->aijops.destroy;
  PetscCall(PetscFree(A->spptr));
  PetscCall((*A->ops->destroy)(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MATSEQAIJ (in place, a copy, or into an existing jagged matrix) to MATSEQJDSCUDA or MATSEQPJDSCUDA */
PetscErrorCode MatConvert_SeqAIJ_SeqJagged(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  Mat            B;
  Mat_SeqJagged *j;
  MatSeqAIJHead *a;
  PetscBool      pjds, host = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCheck(sizeof(PetscInt) == sizeof(int), PETSC_COMM_SELF, PETSC_ERR_SUP, "Jagged-diagonal matrices need 32-bit PetscInt");
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatCopy(A, *newmat, SAME_NONZERO_PATTERN));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatSeqJaggedTypeOf(type, &type));
  if (reuse == MAT_INITIAL_MATRIX) PetscCall(MatDuplicate(A, MAT_COPY_VALUES, newmat));
  B = *newmat;

  PetscCall(PetscNew(&j));
  PetscCall(PetscStrcmp(type, MATSEQPJDSCUDA, &pjds));
  j->kind                       = pjds ? jagged::Kind::PJDS : jagged::Kind::JDS;
  j->options.kind               = j->kind;
  j->options.block_rows         = jagged::kDefaultBlockRows;
  j->options.long_rows          = jagged::LongRowMode::Auto;
  j->options.long_row_threshold = 0;
  j->blocks                     = MAT_JAGGED_BLOCKS_AUTO;
  j->kernel                     = MAT_JAGGED_KERNEL_AUTO;
  j->aijops                     = *B->ops;
  B->spptr                      = j;
  B->offloadmask                = PETSC_OFFLOAD_UNALLOCATED;
  /* the testing mode is a global option, as -use_gpu_aware_mpi: the matrices PETSc makes inside its own algorithms
     (those of PCGAMG, say) take it too; the options database is the matrix's (PCSPCG gives its private copy its own) */
  PetscCall(PetscOptionsGetBool(((PetscObject)B)->options, NULL, "-mat_jagged_host", &host, NULL));
  j->host = host;
  PetscCall(PetscFree(B->defaultvectype));
  PetscCall(PetscStrallocpy(host ? VECSTANDARD : VECCUDA, &B->defaultvectype));

  B->ops->assemblyend      = MatAssemblyEnd_SeqJagged;
  B->ops->destroy          = MatDestroy_SeqJagged;
  B->ops->duplicate        = MatDuplicate_SeqJagged;
  B->ops->setfromoptions   = MatSetFromOptions_SeqJagged;
  B->ops->view             = MatView_SeqJagged;
  B->ops->bindtocpu        = MatBindToCPU_SeqJagged;
  /* value operations run on the host CSR first: wrap only those MATSEQAIJ has */
  if (j->aijops.scale) B->ops->scale = MatScale_SeqJagged;
  if (j->aijops.shift) B->ops->shift = MatShift_SeqJagged;
  if (j->aijops.diagonalscale) B->ops->diagonalscale = MatDiagonalScale_SeqJagged;
  if (j->aijops.zeroentries) B->ops->zeroentries = MatZeroEntries_SeqJagged;
  if (j->aijops.axpy) B->ops->axpy = MatAXPY_SeqJagged;
  B->ops->productsetfromoptions = MatProductSetFromOptions_SeqJagged; /* sparse products of jagged operands through cuSPARSE */
  /* host value changes through Mat_SeqAIJ's accessors (MatSetValues(), MatZeroRows(), MatCopy(), ...) and MatRetrieveValues() */
  a                          = (MatSeqAIJHead *)B->data;
  a->ops->restorearray       = MatSeqAIJRestoreArray_SeqJagged;
  a->ops->restorearraywrite  = MatSeqAIJRestoreArray_SeqJagged;
  PetscCall(PetscObjectQueryFunction((PetscObject)B, "MatRetrieveValues_C", &j->aijretrievevalues));
  if (j->aijretrievevalues) PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatRetrieveValues_C", MatRetrieveValues_SeqJagged));
  {
    const MatJaggedCOOOps coo = {MatSeqJaggedHostChanged, MatSeqJaggedCOOPreallocated, MatSeqJaggedSetValuesCOO}; /* COO assembly: MATSEQAIJ's, and from GPU memory through its map */

    PetscCall(MatJaggedComposeCOO(B, &coo));
  }
  PetscCall(MatBindToCPU_SeqJagged(B, PETSC_FALSE));
  PetscCall(MatSeqJaggedComposeAll(B, type, PETSC_TRUE));
  PetscCall(PetscObjectChangeTypeName((PetscObject)B, type));
  if (!j->host) PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA)); /* as AIJCUSPARSE: the device starts with the matrix, not inside its first format build */
  if (B->assembled) PetscCall(MatSeqJaggedSync(B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's own factorizations of MATSEQAIJ, registered for the jagged types (MatSeqJaggedRegisterFactors()).
   The factor is a MATSEQAIJ; its symbolic factorization copies the function list of the matrix it
   factors (MatDuplicateNoCreate_SeqAIJ()), so the factor's destroy removes the jagged types' functions
   again, which MATSEQAIJ's destroy does not know (-checkfunctionlist). */
static PetscErrorCode (*MatGetFactor_SeqAIJ_PETSc[4])(Mat, MatFactorType, Mat *);
static PetscErrorCode (*MatDestroy_SeqAIJFactor)(Mat);

static PetscErrorCode MatDestroy_SeqJaggedFactor(Mat F)
{
  PetscFunctionBegin;
  PetscCall(MatSeqJaggedComposeAll(F, MATSEQPJDSCUDA, PETSC_FALSE));
  PetscCall(MatSeqJaggedComposeAll(F, MATSEQJDSCUDA, PETSC_FALSE));
  PetscCall(MatDestroy_SeqAIJFactor(F));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetFactor_SeqJagged_PETSc(Mat A, MatFactorType ft, Mat *F)
{
  PetscFunctionBegin;
  PetscCall(MatGetFactor_SeqAIJ_PETSc[ft - MAT_FACTOR_LU](A, ft, F));
  MatDestroy_SeqAIJFactor = (*F)->ops->destroy;
  (*F)->ops->destroy      = MatDestroy_SeqJaggedFactor;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Registers PETSc's own LU/ILU/Cholesky/ICC (those of MATSEQAIJ, which read the host CSR) for a jagged type */
PetscErrorCode MatSeqJaggedRegisterFactors(MatType type)
{
  const MatFactorType ftypes[] = {MAT_FACTOR_LU, MAT_FACTOR_CHOLESKY, MAT_FACTOR_ILU, MAT_FACTOR_ICC};

  PetscFunctionBegin;
  for (MatFactorType ft : ftypes) {
    PetscCall(MatSolverTypeGet(MATSOLVERPETSC, MATSEQAIJ, ft, NULL, NULL, &MatGetFactor_SeqAIJ_PETSc[ft - MAT_FACTOR_LU]));
    if (MatGetFactor_SeqAIJ_PETSc[ft - MAT_FACTOR_LU]) PetscCall(MatSolverTypeRegister(MATSOLVERPETSC, type, ft, MatGetFactor_SeqJagged_PETSc));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
