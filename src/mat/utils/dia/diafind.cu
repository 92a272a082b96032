/*
   MatDIAFindDiagonals(), MatDIACollectDiagonals() and MatDIAFewerBytes(): see diafind.h.
*/
#include <algorithm>
#include <petscjagged/private/diafind.h>
#include <petscbt.h>
#include <petscjagged/private/jaggedlaunch.cuh>

namespace {

/* found[0]: the number of bits set; found[1 ..]: their offsets (bit - bias), the first MAT_DIA_MAX of them in no order */
__global__ void CollectKernel(long long nwords, long long bias, const unsigned *bits, int *found)
{
  for (long long w = blockIdx.x * (long long)blockDim.x + threadIdx.x; w < nwords; w += (long long)gridDim.x * blockDim.x) {
    unsigned word = bits[w];

    if (!word) continue;
    int pos = atomicAdd(found, __popc(word));
    for (; word; word &= word - 1, pos++)
      if (pos < MAT_DIA_MAX) found[1 + pos] = (int)(w * 32 + __ffs(word) - 1 - bias);
  }
}


} // namespace

/*
  MatDIACollectDiagonals - the offsets marked in the device bitmap bits (nbits bits, bit b standing for the offset b - bias):
  *ndiag of them (MAT_DIA_MAX + 1: more than MAT_DIA_MAX), ascending in offset[]. Runs on stream and waits for it.
*/
PetscErrorCode MatDIACollectDiagonals(long long nbits, long long bias, const unsigned *bits, cudaStream_t stream, PetscInt *ndiag, PetscInt offset[])
{
  const long long nwords = (nbits + 31) / 32;
  int            *found, h[1 + MAT_DIA_MAX];

  PetscFunctionBegin;
  PetscCallCUDA(cudaMallocAsync((void **)&found, sizeof(h), stream));
  PetscCallCUDA(cudaMemsetAsync(found, 0, sizeof(int), stream));
  CollectKernel<<<JaggedBlocks(nwords, 256, 2048), 256, 0, stream>>>(nwords, bias, bits, found);
  PetscCallCUDA(cudaGetLastError());
  PetscCallCUDA(cudaMemcpyAsync(h, found, sizeof(h), cudaMemcpyDeviceToHost, stream));
  PetscCallCUDA(cudaFreeAsync(found, stream));
  PetscCallCUDA(cudaStreamSynchronize(stream));
  *ndiag = PetscMin(h[0], MAT_DIA_MAX + 1);
  for (PetscInt d = 0; d < PetscMin(h[0], MAT_DIA_MAX); d++) offset[d] = h[1 + d];
  if (h[0] <= MAT_DIA_MAX) std::sort(offset, offset + h[0]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatDIAFindDiagonals - the diagonals of the m x ncols CSR (ai, aj) in host memory: *ndiag of them (MAT_DIA_MAX + 1: more
  than MAT_DIA_MAX), their offsets ascending in offset[] (MAT_DIA_MAX of room). The host twin of the GPU searches through
  the row visitor (diaentries.cuh's MatDIAMarkOp, then MatDIACollectDiagonals())
*/
PetscErrorCode MatDIAFindDiagonals(PetscInt m, PetscInt ncols, const PetscInt *ai, const PetscInt *aj, PetscInt *ndiag, PetscInt offset[])
{
  const PetscInt nbits = m + ncols - 1;
  PetscBT        bt;
  PetscInt       n = 0;

  PetscFunctionBegin;
  *ndiag = 0;
  if (m < 1 || ncols < 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscBTCreate(nbits, &bt));
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt k = ai[i]; k < ai[i + 1]; k++) n += !PetscBTLookupSet(bt, aj[k] - i + m - 1);
  *ndiag = PetscMin(n, MAT_DIA_MAX + 1);
  if (n <= MAT_DIA_MAX)
    for (PetscInt b = 0, d = 0; b < nbits && d < n; b++)
      if (PetscBTLookup(bt, b)) offset[d++] = b - m + 1;
  PetscCall(PetscBTDestroy(&bt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatDIAFewerBytes - whether ndiag diagonals of nrows values of unit bytes take at most fraction of the bytes of the CSR of nnz entries (values, column indices, row offsets) */
PetscBool MatDIAFewerBytes(PetscInt ndiag, PetscInt nrows, PetscInt nnz, size_t unit, double fraction)
{
  if (ndiag < 1 || ndiag > MAT_DIA_MAX) return PETSC_FALSE;
  return (PetscBool)((double)ndiag * nrows * unit <= fraction * ((double)nnz * (unit + sizeof(PetscInt)) + (double)(nrows + 1) * sizeof(PetscInt)));
}
