/*
   A DIA copy's rows found and filled on the GPU from the blocks of A that keep their entries in device memory (a
   MATSEQAIJCUSPARSE's CSR, a jagged type's format and values): one pass marks the entries' offsets (global column -
   global row) in a bitmap, a second writes their values into the DIA array where it lies, one thread a row. Used
   for the one-process copy of A (matpowersdia.cu) and the own rows of the ghosted kernel's copy
   (matpowersghostdia.c, which writes the remote rows on the host). The host twins are the CSR loops of
   MatPowersDIASetUp() and MatPowersDIAFill() (one process), MatPowersGhostDIALayout() and MatPowersGhostDIARows()
   (own rows), which run where the blocks are elsewhere (MATSEQAIJ, -mat_jagged_host).
*/
#include "matpowersdia.cuh"
#include <petscjagged/private/seqjagged.h>
#include <petscjagged/private/diabits.cuh>

namespace {

/* A block's entries in device memory: a CSR (ai set) or a jagged format; colmap: the global column of a local one (NULL: local + cstart) */
struct MatPowersEntries {
  PetscInt           m;
  const int         *ai, *aj;                                    /* CSR */
  int                nsorted, nlong, nstored;                    /* jagged: sorted rows with entries, long rows, slots of the jagged part */
  const int         *perm, *rowlen, *diagstart, *colidx, *valmap; /* jagged part; valmap < 0: padding */
  const int         *long_rows, *long_rowptr, *long_colidx;      /* long-row part, its values from slot nstored */
  const MatPowersDS *v;
  const PetscInt    *colmap;
  PetscInt           cstart;
};

/* op(row, offset, value) for every entry of row r of the CSR */
template <typename Op>
__device__ inline void MatPowersVisitCSRRow(const MatPowersEntries &e, PetscInt r, PetscInt rstart, const Op &op)
{
  for (int k = e.ai[r]; k < e.ai[r + 1]; k++) {
    const PetscInt c = e.aj[k];

    op(r, (e.colmap ? e.colmap[c] : c + e.cstart) - (rstart + r), e.v[k]);
  }
}

/* One thread a row of the block: op(row, offset, value) for each entry (the jagged format's padding passed over) */
template <typename Op>
__global__ void MatPowersVisitKernel(const MatPowersEntries e, PetscInt rstart, const Op op)
{
  const PetscInt n = e.ai ? e.m : (PetscInt)e.nsorted + e.nlong;

  for (PetscInt t = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; t < n; t += (PetscInt)gridDim.x * blockDim.x) {
    if (e.ai) MatPowersVisitCSRRow(e, t, rstart, op);
    else if (t < e.nsorted) { /* sorted row t: entry j at slot diagstart[j] + t */
      const PetscInt r = e.perm[t];

      for (int j = 0; j < e.rowlen[t]; j++) {
        const int k = e.diagstart[j] + (int)t;

        if (e.valmap[k] >= 0) { /* padding may repeat another row's column */
          const PetscInt c = e.colidx[k];

          op(r, (e.colmap ? e.colmap[c] : c + e.cstart) - (rstart + r), e.v[k]);
        }
      }
    } else { /* long row */
      const PetscInt l = t - e.nsorted, r = e.long_rows[l];

      for (int k = e.long_rowptr[l]; k < e.long_rowptr[l + 1]; k++) {
        const PetscInt c = e.long_colidx[k];

        op(r, (e.colmap ? e.colmap[c] : c + e.cstart) - (rstart + r), e.v[e.nstored + k]);
      }
    }
  }
}

/* Marks bit offset + bias */
struct MatPowersMarkOp {
  unsigned *bits;
  long long bias;
  __device__ void operator()(PetscInt, PetscInt off, MatPowersDS) const { MatDIAMarkBit(bits, off + bias); }
};

/* Writes the value at dia[d * m + ownoff + row], d the diagonal of the offset (one thread a row: no race) */
struct MatPowersFillOp {
  MatPowersOffsets o;
  PetscInt         m, ownoff;
  MatPowersDS     *dia;
  __device__ void operator()(PetscInt row, PetscInt off, MatPowersDS v) const
  {
    dia[(size_t)MatPowersDiagonalOf(o, off) * m + ownoff + row] = v;
  }
};

} // namespace

/* The entries of block B in device memory, and whether it keeps them there (*ok); colmap (device) maps its local columns to global ones, or NULL with cstart */
static PetscErrorCode MatPowersEntriesGet(Mat B, const PetscInt *colmap, PetscInt cstart, MatPowersEntries *e, PetscBool *ok)
{
  PetscBool cusparse, jagged;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(e, sizeof(*e)));
  e->m      = B->rmap->n;
  e->colmap = colmap;
  e->cstart = cstart;
  PetscCall(PetscObjectTypeCompare((PetscObject)B, MATSEQAIJCUSPARSE, &cusparse));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)B, &jagged, MATSEQPJDSCUDA, MATSEQJDSCUDA, ""));
  *ok = (PetscBool)(cusparse || jagged);
  if (cusparse) {
    const PetscScalar *v;

    PetscCall(MatSeqAIJCUSPARSEGetIJ(B, PETSC_FALSE, &e->ai, &e->aj));
    PetscCall(MatSeqAIJCUSPARSEGetArrayRead(B, &v));
    e->v = reinterpret_cast<const MatPowersDS *>(v);
  } else if (jagged) {
    Mat_SeqJagged *j = (Mat_SeqJagged *)B->spptr;

    if (j->host) { /* -mat_jagged_host: its values are in host memory */
      *ok = PETSC_FALSE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(MatSeqJaggedSync(B));
    if (j->dformat) { /* none for a block without rows */
      const jagged::gpu::DeviceFormat &d = *j->dformat;

      e->nsorted     = d.nnonempty;
      e->nlong       = d.nlong;
      e->nstored     = d.nstored;
      e->perm        = d.perm;
      e->rowlen      = d.rowlen;
      e->diagstart   = d.diagstart;
      e->colidx      = d.colidx;
      e->valmap      = d.valmap;
      e->long_rows   = d.long_rows;
      e->long_rowptr = d.long_rowptr;
      e->long_colidx = d.long_colidx;
    }
    e->v = reinterpret_cast<const MatPowersDS *>(j->vals);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatPowersEntriesRestore(Mat B, MatPowersEntries *e)
{
  PetscFunctionBegin;
  if (e->ai) {
    const PetscScalar *v = reinterpret_cast<const PetscScalar *>(e->v);

    PetscCall(MatSeqAIJCUSPARSERestoreIJ(B, PETSC_FALSE, &e->ai, &e->aj));
    PetscCall(MatSeqAIJCUSPARSERestoreArrayRead(B, &v));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  op on the entries of the own rows, Ad's and Ao's (NULL on one process: Ad is A), on stream; *ok false (and nothing
  done) unless both keep them in device memory
*/
template <typename Op>
static PetscErrorCode MatPowersVisitOwn(MatPowers mpk, Mat Ad, Mat Ao, const PetscInt garray[], cudaStream_t stream, const Op &op, PetscBool *ok)
{
  const PetscInt   rstart = mpk->A->rmap->rstart, ng = Ao ? Ao->cmap->n : 0;
  MatPowersEntries ed, eo;
  PetscBool        okd, oko;
  PetscInt        *dgarray = NULL;

  PetscFunctionBegin;
  PetscCall(MatPowersEntriesGet(Ad, NULL, rstart, &ed, &okd));
  if (okd && ng) { /* an off-diagonal block without columns has no entries to visit */
    PetscCallCUDA(cudaMallocAsync((void **)&dgarray, sizeof(PetscInt) * ng, stream));
    PetscCallCUDA(cudaMemcpyAsync(dgarray, garray, sizeof(PetscInt) * ng, cudaMemcpyHostToDevice, stream));
    PetscCall(MatPowersEntriesGet(Ao, dgarray, 0, &eo, &oko));
  } else PetscCall(PetscMemzero(&eo, sizeof(eo)));
  *ok = (PetscBool)(okd && (!ng || oko));
  if (*ok) {
    const PetscInt nd = ed.ai ? ed.m : (PetscInt)ed.nsorted + ed.nlong, no = eo.ai ? eo.m : (PetscInt)eo.nsorted + eo.nlong;

    if (nd) MatPowersVisitKernel<<<MatPowersBlocks(nd), 256, 0, stream>>>(ed, rstart, op);
    PetscCallCUDA(cudaGetLastError());
    if (no) MatPowersVisitKernel<<<MatPowersBlocks(no), 256, 0, stream>>>(eo, rstart, op);
    PetscCallCUDA(cudaGetLastError());
  }
  if (dgarray) PetscCallCUDA(cudaFreeAsync(dgarray, stream));
  PetscCall(MatPowersEntriesRestore(Ao, &eo));
  PetscCall(MatPowersEntriesRestore(Ad, &ed));
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
  MatPowersMarkOp op;
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
  op.dia    = reinterpret_cast<MatPowersDS *>(mpk->dia);
  PetscCallCUDA(cudaMemsetAsync(mpk->dia, 0, sizeof(PetscScalar) * mpk->ndiag * m, stream));
  PetscCall(MatPowersVisitOwn(mpk, Ad, Ao, garray, stream, op, ok));
  PetscFunctionReturn(PETSC_SUCCESS);
}
