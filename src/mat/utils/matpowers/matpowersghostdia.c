/*
   The ghosted kernel's DIA copy of the extended rows (matpowersghost.c decides and calls): where a process's
   extended columns are one range of global indices (a structured grid split into slabs), its extended
   vectors are numbered in global order, a row's entries keep their offsets (column - row), and all the
   extended rows fit in one DIA array; a basis vector is then the one-rank fused kernel (matpowersdia.cu).

   Where A's blocks keep their entries in device memory, the own rows' offsets and values are found and written on
   the GPU (matpowersdiaentries.cu) and only the remote rows here. Here the values are written by blocks of rows,
   each diagonal's slot found in a table of the offsets, into the DIA array itself on the host or, for the GPU,
   into two pinned blocks that are copied to the device in turn while the next is filled: no full-size host array,
   no search per entry.
*/
#include "matpowersimpl.h"
#include <petsc/private/matimpl.h>
#include <petscdevice_cuda.h>

#define MAT_POWERS_DIA_BLOCK 32768 /* rows written at a time */

/*
  Adds o to the ascending offset[] (*ndiag of them): offset[*hint], just after the previous one found, is
  tried first (a row's offsets ascend, and rows repeat them); *ok turns false when it would be the
  (MAT_DIA_MAX + 1)-th
*/
static inline void MatPowersGhostDIAAddOffset(PetscInt o, PetscInt *ndiag, PetscInt offset[], PetscInt *hint, PetscBool *ok)
{
  PetscInt lo = 0, hi = *ndiag;

  if (*hint < *ndiag && offset[*hint] == o) {
    (*hint)++;
    return;
  }
  while (lo < hi) {
    const PetscInt mid = (lo + hi) / 2;

    if (offset[mid] < o) lo = mid + 1;
    else hi = mid;
  }
  if (lo == *ndiag || offset[lo] != o) {
    if (*ndiag == MAT_DIA_MAX) {
      *ok = PETSC_FALSE;
      return;
    }
    for (PetscInt q = *ndiag; q > lo; q--) offset[q] = offset[q - 1];
    offset[lo] = o;
    (*ndiag)++;
  }
  *hint = lo + 1;
}

/*
  Whether the extended rows go through one DIA copy: the extended columns (the own ones, then ghost[], the
  global index of each further one) must form one range of global indices, in which a row's entries keep
  their offsets; the rows up to depth gdepth - 1 must have at most MAT_DIA_MAX offsets, stored in no more
  bytes than their CSR. Sets mpk->ndiag, offset, sidx and ownoff then; decided by each process for itself.
*/
PetscErrorCode MatPowersGhostDIALayout(MatPowers mpk, const PetscInt ghost[], Mat Ad, Mat Ao, const PetscInt garray[])
{
  const PetscInt  rstart = mpk->A->rmap->rstart, nown = mpk->nown, nghost = mpk->ncols - nown;
  PetscInt        gmin = rstart, gmax = rstart + nown - 1, ndiag = 0, offset[MAT_DIA_MAX], n, hint = 0, nprev = -1, prev[MAT_DIA_MAX];
  const PetscInt *ai, *aj, *bi, *bj;
  PetscBool       done, ok = PETSC_TRUE, owndev = PETSC_FALSE;

  PetscFunctionBegin;
  if (!mpk->usedia || mpk->pckind == MAT_POWERS_PC_OTHER || !mpk->ncols) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt c = 0; c < nghost; c++) {
    gmin = PetscMin(gmin, ghost[c]);
    gmax = PetscMax(gmax, ghost[c]);
  }
  if (gmax - gmin + 1 != mpk->ncols) PetscFunctionReturn(PETSC_SUCCESS);
  if (mpk->cuda) { /* the own rows' offsets on the GPU, where A's blocks keep their entries */
    PetscCall(MatPowersDIAOffsetsDevice(mpk, Ad, Ao, garray, &owndev, &ndiag, offset));
    if (ndiag > MAT_DIA_MAX) PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &ai, &aj, &done));
  PetscCall(MatGetRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &n, &bi, &bj, &done));
  for (PetscInt i = 0; i < mpk->nown && ok && !owndev; i++) { /* the offsets, in global indices, of the own rows (the host twin), then of the remote rows */
    const PetscInt  len = ai[i + 1] - ai[i], *cj = aj + ai[i];
    PetscBool       same = (PetscBool)(len == nprev);

    for (PetscInt k = 0; k < len && same; k++) same = (PetscBool)(cj[k] - i == prev[k]); /* the diagonal block's offsets of the row before: known */
    if (!same) {
      hint  = 0; /* a row's first offset is most often the smallest */
      nprev = len <= MAT_DIA_MAX ? len : -1;
      for (PetscInt k = 0; k < len; k++) {
        MatPowersGhostDIAAddOffset(cj[k] - i, &ndiag, offset, &hint, &ok);
        if (nprev > 0) prev[k] = cj[k] - i;
      }
    }
    for (PetscInt k = bi[i]; k < bi[i + 1]; k++) MatPowersGhostDIAAddOffset(garray[bj[k]] - (rstart + i), &ndiag, offset, &hint, &ok);
  }
  for (PetscInt r = 0; r < mpk->nrows - nown && ok; r++) /* remote row r is extended column nown + r (its columns in no order of offsets) */
    for (PetscInt k = mpk->rowptr[r]; k < mpk->rowptr[r + 1]; k++) {
      const PetscInt e = mpk->cols[k];

      MatPowersGhostDIAAddOffset((e < nown ? rstart + e : ghost[e - nown]) - ghost[r], &ndiag, offset, &hint, &ok);
    }
  PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &ai, &aj, &done));
  PetscCall(MatRestoreRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &n, &bi, &bj, &done));
  if (!ok || !MatDIAFewerBytes(ndiag, mpk->ncols, mpk->nnzext, sizeof(PetscScalar), 1.0)) PetscFunctionReturn(PETSC_SUCCESS);
  mpk->ndiag  = ndiag;
  mpk->diaown = owndev;
  mpk->ownoff = rstart - gmin;
  for (PetscInt d = 0; d < ndiag; d++) mpk->offset[d] = offset[d];
  PetscCall(PetscMalloc1(nghost, &mpk->sidx));
  for (PetscInt c = 0; c < nghost; c++) mpk->sidx[c] = ghost[c] - gmin;
  PetscCall(PetscInfo(mpk, "Extended rows through a DIA copy in global order: %" PetscInt_FMT " diagonals\n", ndiag));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Where the values of the extended rows come from, for MatPowersGhostDIARows() */
typedef struct {
  const PetscInt    *ai, *aj, *bi, *bj, *garray; /* the own rows: A's blocks */
  const PetscScalar *aa, *ba;
  const PetscInt    *remote;                     /* the remote row (0, 1, ...) of each extended row beyond the own ones (rows 0..ownoff-1, then ownoff+nown..), -1: depth gdepth (only read) */
  const signed char *slot;                       /* slot[o - offset[0]]: the diagonal of offset o, -1 if none */
} MatPowersGhostDIASource;

/*
  Extended rows i0 <= row < i1 into buf, diagonal d of row at buf[d * pitch + row - i0]; rows without entries are
  zero. An own row with no off-diagonal block entries whose offsets are those of the row before reuses its slots (the
  interior of a stencil: no lookup), and one that fills every diagonal is not zeroed first
*/
static PetscErrorCode MatPowersGhostDIARows(MatPowers mpk, const MatPowersGhostDIASource *src, PetscInt i0, PetscInt i1, PetscScalar buf[], PetscInt pitch)
{
  const PetscInt off = mpk->ownoff, rstart = mpk->A->rmap->rstart, o0 = mpk->offset[0], range = mpk->offset[mpk->ndiag - 1] - o0, ndiag = mpk->ndiag;
  PetscInt       nprev = -1, prev[MAT_DIA_MAX]; /* the offsets of the last own row looked up, and their slots */
  signed char    pslot[MAT_DIA_MAX];

#define MatPowersGhostDIASlot(o, s) \
  do { \
    const PetscInt o_ = (o) - o0; \
    PetscCheck(o_ >= 0 && o_ <= range && src->slot[o_] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Offset %" PetscInt_FMT " not among the DIA copy's diagonals", o_ + o0); \
    (s) = src->slot[o_]; \
  } while (0)
#define MatPowersGhostDIAPut(row, col, v) \
  do { \
    signed char s_; \
    MatPowersGhostDIASlot((col) - (row), s_); \
    buf[s_ * pitch + (row) - i0] = (v); \
  } while (0)
  PetscFunctionBegin;
  for (PetscInt row = i0; row < i1; row++) {
    const PetscInt i = row - off;

    if (i >= 0 && i < mpk->nown && src->bi[i] == src->bi[i + 1] && src->ai[i + 1] - src->ai[i] <= MAT_DIA_MAX) { /* own row i, diagonal block only */
      const PetscInt     len = src->ai[i + 1] - src->ai[i], *cj = src->aj + src->ai[i];
      const PetscScalar *v   = src->aa + src->ai[i];
      PetscBool          same = (PetscBool)(len == nprev);

      for (PetscInt k = 0; k < len && same; k++) same = (PetscBool)(cj[k] - i == prev[k]);
      if (!same) {
        for (PetscInt k = 0; k < len; k++) {
          prev[k] = cj[k] - i;
          MatPowersGhostDIASlot(prev[k], pslot[k]);
        }
        nprev = len;
      }
      if (len < ndiag) /* a row's offsets are distinct: len == ndiag fills every diagonal */
        for (PetscInt d = 0; d < ndiag; d++) buf[d * pitch + row - i0] = 0;
      for (PetscInt k = 0; k < len; k++) buf[pslot[k] * pitch + row - i0] = v[k];
      continue;
    }
    for (PetscInt d = 0; d < ndiag; d++) buf[d * pitch + row - i0] = 0;
    if (i >= 0 && i < mpk->nown) { /* own row i */
      for (PetscInt k = src->ai[i]; k < src->ai[i + 1]; k++) MatPowersGhostDIAPut(row, off + src->aj[k], src->aa[k]);
      for (PetscInt k = src->bi[i]; k < src->bi[i + 1]; k++) MatPowersGhostDIAPut(row, off + src->garray[src->bj[k]] - rstart, src->ba[k]);
    } else if (src->remote[i < 0 ? row : row - mpk->nown] >= 0) { /* remote row r */
      const PetscInt r = src->remote[i < 0 ? row : row - mpk->nown];

      for (PetscInt k = mpk->rowptr[r]; k < mpk->rowptr[r + 1]; k++) {
        const PetscInt e = mpk->cols[k];

        MatPowersGhostDIAPut(row, e < mpk->nown ? off + e : mpk->sidx[e - mpk->nown], mpk->vals[mpk->perm[k]]);
      }
    }
  }
#undef MatPowersGhostDIAPut
#undef MatPowersGhostDIASlot
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The values of the DIA copy of the extended rows (global order): the own rows from A's blocks, the remote rows
  as fetched, then, where the copy is, times the inverse diagonal of the Jacobi PC on the columns (right) or
  the rows (left); the rows at depth gdepth stay zero (they are only read)
*/
PetscErrorCode MatPowersGhostDIAFill(MatPowers mpk, Mat Ad, Mat Ao, const PetscInt garray[])
{
  const PetscInt          m = mpk->ncols, range = mpk->offset[mpk->ndiag - 1] - mpk->offset[0] + 1;
  MatPowersGhostDIASource src = {.garray = garray};
  PetscInt               *remote, n;
  signed char            *slot;
  PetscBool               done, owndev = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(m - mpk->nown, &remote, range, &slot));
  for (PetscInt c = 0; c < m - mpk->nown; c++) remote[c] = -1;
  for (PetscInt r = 0; r < mpk->nrows - mpk->nown; r++) {
    const PetscInt row = mpk->sidx[r];

    remote[row < mpk->ownoff ? row : row - mpk->nown] = r;
  }
  for (PetscInt o = 0; o < range; o++) slot[o] = -1;
  for (PetscInt d = 0; d < mpk->ndiag; d++) slot[mpk->offset[d] - mpk->offset[0]] = (signed char)d;
  src.remote = remote;
  src.slot   = slot;
  if (mpk->diaown) PetscCall(MatPowersDIAFillDevice(mpk, Ad, Ao, garray, m, mpk->ownoff, &owndev)); /* the own rows where A's blocks keep them (else all rows below) */
  if (!owndev) {
    PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &src.ai, &src.aj, &done));
    PetscCall(MatGetRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &n, &src.bi, &src.bj, &done));
    PetscCall(MatSeqAIJGetArrayRead(Ad, &src.aa));
    PetscCall(MatSeqAIJGetArrayRead(Ao, &src.ba));
  }
  if (mpk->diacuda) { /* the rows left (the remote ones, or all) by blocks through two pinned buffers: one is copied while the other is filled */
    const PetscInt b         = PetscMin(m, MAT_POWERS_DIA_BLOCK);
    const PetscInt rows[2][2] = {{0, owndev ? mpk->ownoff : m}, {owndev ? mpk->ownoff + mpk->nown : m, m}}; /* all, or the remote rows before and after the own ones */
    PetscScalar   *pinned;
    cudaEvent_t    copied[2];
    cudaStream_t   stream;
    PetscInt       nblocks = 0;

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCallCUDA(cudaMallocHost((void **)&pinned, sizeof(PetscScalar) * 2 * mpk->ndiag * b));
    for (int k = 0; k < 2; k++) PetscCallCUDA(cudaEventCreateWithFlags(&copied[k], cudaEventDisableTiming));
    for (int r = 0; r < 2; r++)
      for (PetscInt i0 = rows[r][0]; i0 < rows[r][1]; i0 += b, nblocks++) {
        const PetscInt i1  = PetscMin(rows[r][1], i0 + b), k = nblocks % 2;
        PetscScalar   *buf = pinned + k * mpk->ndiag * b;

        if (nblocks >= 2) PetscCallCUDA(cudaEventSynchronize(copied[k])); /* the copy of this buffer's previous block is done */
        PetscCall(MatPowersGhostDIARows(mpk, &src, i0, i1, buf, b));
        PetscCallCUDA(cudaMemcpy2DAsync(mpk->dia + i0, sizeof(PetscScalar) * m, buf, sizeof(PetscScalar) * b, sizeof(PetscScalar) * (i1 - i0), mpk->ndiag, cudaMemcpyHostToDevice, stream));
        PetscCallCUDA(cudaEventRecord(copied[k], stream));
      }
    PetscCallCUDA(cudaStreamSynchronize(stream));
    for (int k = 0; k < 2; k++) PetscCallCUDA(cudaEventDestroy(copied[k]));
    PetscCallCUDA(cudaFreeHost(pinned));
    PetscCall(PetscLogCpuToGpu(sizeof(PetscScalar) * mpk->ndiag * (rows[0][1] - rows[0][0] + rows[1][1] - rows[1][0])));
  } else
    for (PetscInt i0 = 0; i0 < m; i0 += MAT_POWERS_DIA_BLOCK) PetscCall(MatPowersGhostDIARows(mpk, &src, i0, PetscMin(m, i0 + MAT_POWERS_DIA_BLOCK), mpk->dia + i0, m));
  if (!owndev) {
    PetscCall(MatSeqAIJRestoreArrayRead(Ad, &src.aa));
    PetscCall(MatSeqAIJRestoreArrayRead(Ao, &src.ba));
    PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &src.ai, &src.aj, &done));
    PetscCall(MatRestoreRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &n, &src.bi, &src.bj, &done));
  }
  PetscCall(PetscFree2(remote, slot));
  if (mpk->dinvext) PetscCall(MatPowersDIAScale(mpk, m, mpk->dinvext)); /* where the copy is */
  PetscFunctionReturn(PETSC_SUCCESS);
}
