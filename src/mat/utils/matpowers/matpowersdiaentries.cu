/*
   A DIA copy's rows found and filled on the GPU from the blocks of A that keep their entries in device memory (a
   MATSEQAIJCUSPARSE's CSR, a jagged type's format and values, visited by MatDIAVisitKernel()): one pass marks the
   entries' offsets (global column - global row) in a bitmap, a second writes their values into the DIA array where it
   lies, one thread a row. Used for the one-process copy of A (matpowersdia.cu) and the own rows of the ghosted
   kernel's copy (matpowersghostdia.c, which writes the remote rows on the host). The host twins are the CSR loops of
   MatPowersDIASetUp() and MatPowersDIAFill() (one process), MatPowersGhostDIALayout() and MatPowersGhostDIARows()
   (own rows), which run where the blocks are elsewhere (MATSEQAIJ, -mat_jagged_host).
*/
#include <petsc/private/matimpl.h>
#include "matpowersdia.cuh"
#include <petscjagged/private/diaentries.cuh>

namespace {

/* Writes the value at dia[d * m + ownoff + row], d the diagonal of the offset (one thread a row: no race) */
struct MatPowersFillOp {
  MatDIAOffsets o;
  PetscInt      m, ownoff;
  MatDIADS     *dia;
  __device__ void operator()(PetscInt row, PetscInt off, MatDIADS v) const
  {
    dia[(size_t)MatDIADiagonalOf(o, off) * m + ownoff + row] = v;
  }
};

} // namespace

/*
  op on the entries of the own rows, Ad's and Ao's (NULL on one process: Ad is A), on stream; *ok false (and nothing
  done) unless both keep them in device memory
*/
template <typename Op>
static PetscErrorCode MatPowersVisitOwn(MatPowers mpk, Mat Ad, Mat Ao, const PetscInt garray[], cudaStream_t stream, const Op &op, PetscBool *ok)
{
  const PetscInt   rstart = mpk->A->rmap->rstart, ng = Ao ? Ao->cmap->n : 0;
  MatDIAEntries    ed, eo;
  PetscBool        okd, oko;
  PetscInt        *dgarray = NULL;

  PetscFunctionBegin;
  PetscCall(MatDIAEntriesGet(Ad, NULL, rstart, &ed, &okd));
  if (okd && ng) { /* an off-diagonal block without columns has no entries to visit */
    PetscCallCUDA(cudaMallocAsync((void **)&dgarray, sizeof(PetscInt) * ng, stream));
    PetscCallCUDA(cudaMemcpyAsync(dgarray, garray, sizeof(PetscInt) * ng, cudaMemcpyHostToDevice, stream));
    PetscCall(MatDIAEntriesGet(Ao, dgarray, 0, &eo, &oko));
  } else PetscCall(PetscMemzero(&eo, sizeof(eo)));
  *ok = (PetscBool)(okd && (!ng || oko));
  if (*ok) {
    const PetscInt nd = MatDIAEntriesThreads(ed), no = MatDIAEntriesThreads(eo);

    if (nd) MatDIAVisitKernel<<<JaggedBlocks(nd, 256, MAT_DIA_MAX_BLOCKS), 256, 0, stream>>>(ed, rstart, op);
    PetscCallCUDA(cudaGetLastError());
    if (no) MatDIAVisitKernel<<<JaggedBlocks(no, 256, MAT_DIA_MAX_BLOCKS), 256, 0, stream>>>(eo, rstart, op);
    PetscCallCUDA(cudaGetLastError());
  }
  if (dgarray) PetscCallCUDA(cudaFreeAsync(dgarray, stream));
  PetscCall(MatDIAEntriesRestore(Ao, &eo));
  PetscCall(MatDIAEntriesRestore(Ad, &ed));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatPowersDIAOffsetsDevice - the offsets (global column - global row) of the own rows' entries, Ad's and Ao's (NULL on
  one process), found on the GPU: *ndiag of them (MAT_DIA_MAX + 1: more), ascending in offset[]; *ok false, and nothing
  found, unless the blocks keep their entries in device memory
*/
PetscErrorCode MatPowersDIAOffsetsDevice(MatPowers mpk, Mat Ad, Mat Ao, const PetscInt garray[], PetscBool *ok, PetscInt *ndiag, PetscInt offset[])
{
  const PetscInt  N     = mpk->A->rmap->N;
  const long long nbits = 2LL * N - 1, nwords = (nbits + 31) / 32; /* offsets -(N - 1) .. N - 1 */
  MatDIAMarkOp    op;
  cudaStream_t    stream;

  PetscFunctionBegin;
  *ndiag = 0;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  op.bias = N - 1;
  PetscCallCUDA(cudaMallocAsync((void **)&op.bits, sizeof(unsigned) * nwords, stream));
  PetscCallCUDA(cudaMemsetAsync(op.bits, 0, sizeof(unsigned) * nwords, stream));
  PetscCall(MatPowersVisitOwn(mpk, Ad, Ao, garray, stream, op, ok));
  if (*ok) PetscCall(MatDIACollectDiagonals(nbits, op.bias, op.bits, stream, ndiag, offset));
  PetscCallCUDA(cudaFreeAsync(op.bits, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatPowersDIAFillDevice - the own rows of the DIA copy of m rows (device memory, all of it zeroed first), unscaled, own
  row i at row ownoff + i, from Ad and Ao (NULL on one process) in device memory; *ok false, and nothing written, unless
  both keep their entries there
*/
PetscErrorCode MatPowersDIAFillDevice(MatPowers mpk, Mat Ad, Mat Ao, const PetscInt garray[], PetscInt m, PetscInt ownoff, PetscBool *ok)
{
  MatPowersFillOp op;
  cudaStream_t    stream;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  op.o      = MatPowersToOffsets(mpk);
  op.m      = m;
  op.ownoff = ownoff;
  op.dia    = reinterpret_cast<MatDIADS *>(mpk->dia);
  PetscCallCUDA(cudaMemsetAsync(mpk->dia, 0, sizeof(PetscScalar) * mpk->ndiag * m, stream));
  PetscCall(MatPowersVisitOwn(mpk, Ad, Ao, garray, stream, op, ok));
  PetscFunctionReturn(PETSC_SUCCESS);
}
