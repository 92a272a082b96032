/*
   Plain products on one process through a DIA copy of A. When A is a MATSEQAIJ, MATSEQAIJCUSPARSE or
   jagged type whose entries lie on few diagonals (a DMDA stencil) and the preconditioner is none or Jacobi, the
   kernel keeps A's values diagonal by diagonal with the Jacobi scaling folded into their columns
   (B = A D^{-1}, right preconditioning) or rows (B = D^{-1} A, left), and one kernel makes a Newton basis vector: y = B x - re x (+ im^2 z for the second
   shift of a conjugate pair). Against PCApply(), MatMult() and the shift update it reads no column
   index and no inverse diagonal, and x once: for a 7-point stencil about 72 bytes a row against 140.
   The copy is refreshed, values only, when A or the preconditioner change. A MATSEQAIJCUSPARSE or a jagged
   type has its copy found and filled on the GPU from its entries there (matpowersdiaentries.cu); the host
   loops are the twins of the kernels.
*/
#include "matpowersimpl.h"
#include "matpowersdia.cuh"
#include <petsc/private/matimpl.h>
#include <algorithm>

namespace {

/* a[d * m + i] *= dinv[j] (right) or dinv[i] (left), j = i + off[d]: the Jacobi scaling of a copy filled unscaled */
__global__ void DIAScaleKernel(PetscInt m, MatDIAOffsets o, const MatDIADS *dinv, bool left, MatDIADS *a)
{
  for (PetscInt i = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i < m; i += (PetscInt)gridDim.x * blockDim.x)
    for (int d = 0; d < o.n; d++) {
      const PetscInt col = i + o.off[d];

      if (col >= 0 && col < m) a[(size_t)d * m + i] *= dinv[left ? i : col];
    }
}

/* y = B x - r x + c z (z NULL: no last term) */
__global__ void DIAPowerKernel(PetscInt m, MatDIAOffsets o, const MatDIADS *a, const MatDIADS *x, const MatDIADS *z, MatDIADS r, MatDIADS c, MatDIADS *y)
{
  for (PetscInt i = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i < m; i += (PetscInt)gridDim.x * blockDim.x) {
    MatDIADS sum = MatDIADS(0);

    for (int d = 0; d < o.n; d++) {
      const PetscInt col = i + o.off[d];

      if (col >= 0 && col < m) sum = jagged::gpu::MulAdd(jagged::gpu::LoadStream(a + (size_t)d * m + i), jagged::gpu::LoadRO(x + col), sum);
    }
    sum = sum - r * x[i];
    if (z) sum = sum + c * z[i];
    y[i] = sum;
  }
}

} // namespace

/*
  The host twin of DIAPowerKernel, y = B x - r x + c z (z NULL: no last term), by blocks of rows: each
  diagonal's stretch of a block is one loop without a branch (vectorized), the sums of a row taken over
  the diagonals in the kernel's order
*/
static PetscErrorCode MatPowersDIAPowerHost(PetscInt m, PetscInt ndiag, const PetscInt offset[], const PetscScalar dia[], const PetscScalar x[], const PetscScalar z[], PetscScalar r, PetscScalar c, PetscScalar y[])
{
  constexpr PetscInt kBlock = 512;
  PetscScalar        acc[kBlock];

  PetscFunctionBegin;
  for (PetscInt i0 = 0; i0 < m; i0 += kBlock) {
    const PetscInt i1 = PetscMin(i0 + kBlock, m);

    for (PetscInt i = i0; i < i1; i++) acc[i - i0] = 0.0;
    for (PetscInt d = 0; d < ndiag; d++) { /* the rows i whose column i + offset[d] lies in [0, m) */
      const PetscInt     off = offset[d], lo = PetscMax(i0, -off), hi = PetscMin(i1, m - off);
      const PetscScalar *a   = dia + d * m;

      for (PetscInt i = lo; i < hi; i++) acc[i - i0] += a[i] * x[i + off];
    }
    for (PetscInt i = i0; i < i1; i++) y[i] = acc[i - i0] - r * x[i] + (z ? c * z[i] : 0.0);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The host twin of the device fill: dia[d * m + i] = A(i, i + offset[d]) from A's host CSR, unscaled */
static PetscErrorCode MatPowersDIAFillHost(MatPowers mpk, PetscScalar dia[])
{
  const MatDIAOffsets o = MatPowersToOffsets(mpk);
  const PetscInt     *ai, *aj;
  const PetscScalar  *av;
  PetscInt            m;
  PetscBool           done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(mpk->A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCall(MatSeqAIJGetArrayRead(mpk->A, &av));
  PetscCall(PetscArrayzero(dia, mpk->ndiag * m));
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt k = ai[i]; k < ai[i + 1]; k++) dia[MatDIADiagonalOf(o, aj[k] - i) * m + i] = av[k];
  PetscCall(MatSeqAIJRestoreArrayRead(mpk->A, &av));
  PetscCall(MatRestoreRowIJ(mpk->A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The values of the DIA copy from A's and, with Jacobi, the preconditioner's current values: filled where the copy
  is (on the GPU from A's entries there; where A no longer keeps them there, on the host and copied), then scaled
*/
PetscErrorCode MatPowersDIAFill(MatPowers mpk)
{
  const PetscInt m  = mpk->A->rmap->n;
  PetscBool      ok = PETSC_FALSE;

  PetscFunctionBegin;
  if (mpk->diacuda) PetscCall(MatPowersDIAFillDevice(mpk, mpk->A, NULL, NULL, m, 0, &ok));
  if (!mpk->diacuda) PetscCall(MatPowersDIAFillHost(mpk, mpk->dia));
  else if (!ok) {
    PetscScalar *dia;

    PetscCall(PetscMalloc1(mpk->ndiag * m, &dia));
    PetscCall(MatPowersDIAFillHost(mpk, dia));
    PetscCallCUDA(cudaMemcpy(mpk->dia, dia, sizeof(PetscScalar) * mpk->ndiag * m, cudaMemcpyHostToDevice));
    PetscCall(PetscLogCpuToGpu(sizeof(PetscScalar) * mpk->ndiag * m));
    PetscCall(PetscFree(dia));
  }
  if (mpk->pckind == MAT_POWERS_PC_JACOBI) { /* the inverse diagonal PCApply() multiplies with (PCJACOBI: y = diag .* x), kept for MatPowersApplyPC() */
    if (!mpk->dinv) PetscCall(MatCreateVecs(mpk->A, NULL, &mpk->dinv));
    PetscCall(MatPowersJacobiInverse(mpk, mpk->dinv));
    PetscCall(MatPowersDIAScale(mpk, m, mpk->dinv));
  }
  PetscCall(PetscObjectStateGet((PetscObject)mpk->A, &mpk->Astate)); /* taking the CSR may count as a change */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  On one process, with no preconditioner or Jacobi: the DIA copy when A is a MATSEQAIJ, or a MATSEQAIJCUSPARSE or
  jagged type keeping its entries on the GPU with CUDA vectors, whose entries lie on at most MAT_DIA_MAX diagonals and
  their values take no more bytes than its CSR; mpk->ndiag stays 0 otherwise
*/
PetscErrorCode MatPowersDIASetUp(MatPowers mpk)
{
  Mat            A = mpk->A;
  MatInfo        info;
  PetscBool      seqaij, device, ok;
  PetscInt       ndiag, offset[MAT_DIA_MAX];
  const PetscInt m = A->rmap->n;

  PetscFunctionBegin;
  mpk->ndiag = 0;
  if (!mpk->usedia || mpk->pckind == MAT_POWERS_PC_OTHER || A->rmap->n != A->cmap->n || !m) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJ, &seqaij)); /* exactly these types: their CSR or format is the matrix */
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &device, MATSEQAIJCUSPARSE, MATSEQPJDSCUDA, MATSEQJDSCUDA, ""));
  if (!seqaij && !device) PetscFunctionReturn(PETSC_SUCCESS);
  if (device) { /* the products run where the vectors are; the offsets are found where A keeps its entries (not on the GPU: no copy) */
    VecType   vtype;
    PetscBool cuda;

    PetscCall(MatGetVecType(A, &vtype));
    PetscCall(PetscStrcmpAny(vtype, &cuda, VECCUDA, VECSEQCUDA, ""));
    if (!cuda || A->boundtocpu) PetscFunctionReturn(PETSC_SUCCESS);
    PetscCall(MatPowersDIAOffsetsDevice(mpk, A, NULL, NULL, &ok, &ndiag, offset));
    if (!ok) PetscFunctionReturn(PETSC_SUCCESS);
  } else {
    const PetscInt *ai, *aj;
    PetscInt        n;
    PetscBool       done;

    PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ai, &aj, &done));
    PetscCall(MatDIAFindDiagonals(m, m, ai, aj, &ndiag, offset));
    PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ai, &aj, &done));
  }
  PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
  if (!MatDIAFewerBytes(ndiag, m, (PetscInt)info.nz_used, sizeof(PetscScalar), 1.0)) PetscFunctionReturn(PETSC_SUCCESS); /* the fused kernel saves the PC and shift passes besides */
  mpk->ndiag = ndiag;
  for (PetscInt d = 0; d < ndiag; d++) mpk->offset[d] = offset[d];
  PetscCall(MatPowersDIAAlloc(mpk, m, device));
  PetscCall(MatPowersDIAFill(mpk));
  PetscCall(PetscInfo(mpk, "Plain products through a DIA copy of A: %" PetscInt_FMT " diagonals\n", ndiag));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatPowersDIAReset(MatPowers mpk)
{
  PetscFunctionBegin;
  if (mpk->diacuda && mpk->dia) PetscCallCUDA(cudaFree(mpk->dia));
  else PetscCall(PetscFree(mpk->dia));
  mpk->dia    = NULL;
  mpk->ndiag  = 0;
  mpk->diaown = PETSC_FALSE;
  PetscCall(VecDestroy(&mpk->dinv)); /* one process; the ghosted kernel's went with its extension */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The m rows of the DIA copy, filled unscaled, times the inverse diagonal dinv (m entries) on the columns (right) or the rows (left); the host loop is the twin of DIAScaleKernel */
PetscErrorCode MatPowersDIAScale(MatPowers mpk, PetscInt m, Vec dinv)
{
  const PetscBool left = (PetscBool)(mpk->side == PC_LEFT);

  PetscFunctionBegin;
  if (mpk->diacuda) {
    const PetscScalar *d;
    cudaStream_t       stream;

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCall(VecCUDAGetArrayRead(dinv, &d));
    DIAScaleKernel<<<JaggedBlocks(m, 256, MAT_DIA_MAX_BLOCKS), 256, 0, stream>>>(m, MatPowersToOffsets(mpk), reinterpret_cast<const MatDIADS *>(d), left, reinterpret_cast<MatDIADS *>(mpk->dia));
    PetscCallCUDA(cudaGetLastError());
    PetscCall(VecCUDARestoreArrayRead(dinv, &d));
  } else {
    const PetscScalar *d;

    PetscCall(VecGetArrayRead(dinv, &d));
    for (PetscInt i = 0; i < m; i++)
      for (PetscInt k = 0; k < mpk->ndiag; k++) {
        const PetscInt col = i + mpk->offset[k];

        if (col >= 0 && col < m) mpk->dia[k * m + i] *= d[left ? i : col];
      }
    PetscCall(VecRestoreArrayRead(dinv, &d));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The DIA array of m rows for mpk->ndiag diagonals, on the device or the host */
PetscErrorCode MatPowersDIAAlloc(MatPowers mpk, PetscInt m, PetscBool cuda)
{
  PetscFunctionBegin;
  mpk->diacuda = cuda;
  if (cuda) PetscCallCUDA(cudaMalloc((void **)&mpk->dia, sizeof(PetscScalar) * PetscMax(mpk->ndiag * m, 1)));
  else PetscCall(PetscMalloc1(PetscMax(mpk->ndiag * m, 1), &mpk->dia));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One basis step on the m rows of the DIA copy, one kernel: Y = B X - r X + c Z (Z NULL: no last term); X, Y, Z of m entries */
PetscErrorCode MatPowersDIAStep(MatPowers mpk, PetscInt m, Vec X, Vec Z, PetscScalar r, PetscScalar c, Vec Y)
{
  const MatDIAOffsets o = MatPowersToOffsets(mpk);
  const PetscScalar  *x, *z = NULL;
  PetscScalar        *y;

  PetscFunctionBegin;
  if (mpk->diacuda) {
    cudaStream_t stream;

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCall(VecCUDAGetArrayRead(X, &x));
    if (Z) PetscCall(VecCUDAGetArrayRead(Z, &z));
    PetscCall(VecCUDAGetArrayWrite(Y, &y));
    PetscCall(PetscLogGpuTimeBegin());
    DIAPowerKernel<<<JaggedBlocks(m, 256, MAT_DIA_MAX_BLOCKS), 256, 0, stream>>>(m, o, reinterpret_cast<const MatDIADS *>(mpk->dia), reinterpret_cast<const MatDIADS *>(x), reinterpret_cast<const MatDIADS *>(z), *reinterpret_cast<const MatDIADS *>(&r), *reinterpret_cast<const MatDIADS *>(&c), reinterpret_cast<MatDIADS *>(y));
    PetscCallCUDA(cudaGetLastError());
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(VecCUDARestoreArrayWrite(Y, &y));
    if (Z) PetscCall(VecCUDARestoreArrayRead(Z, &z));
    PetscCall(VecCUDARestoreArrayRead(X, &x));
    PetscCall(PetscLogGpuFlops((2.0 * mpk->ndiag + 4.0) * m));
  } else {
    PetscCall(VecGetArrayRead(X, &x));
    if (Z) PetscCall(VecGetArrayRead(Z, &z));
    PetscCall(VecGetArrayWrite(Y, &y));
    PetscCall(MatPowersDIAPowerHost(m, mpk->ndiag, mpk->offset, mpk->dia, x, z, r, c, y));
    PetscCall(VecRestoreArrayWrite(Y, &y));
    if (Z) PetscCall(VecRestoreArrayRead(Z, &z));
    PetscCall(VecRestoreArrayRead(X, &x));
    PetscCall(PetscLogFlops((2.0 * mpk->ndiag + 4.0) * m));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* k products, each one kernel: V[j + 1] = B V[j] - re[j] V[j] (+ im[j]^2 V[j - 1] for the second shift of a conjugate pair) */
PetscErrorCode MatPowersApply_DIA(MatPowers mpk, PetscInt k, const PetscScalar re[], const PetscReal im[], Vec V[])
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < k; j++) {
    const PetscBool pair = (PetscBool)(!PetscDefined(USE_COMPLEX) && im && im[j] < 0);

    PetscCall(MatPowersDIAStep(mpk, mpk->A->rmap->n, V[j], pair ? V[j - 1] : NULL, re ? re[j] : 0.0, pair ? (PetscScalar)(im[j] * im[j]) : 0.0, V[j + 1]));
    if (mpk->nullsp) PetscCall(MatNullSpaceRemove(mpk->nullsp, V[j + 1]));
  }
  mpk->nexchanges += k;
  mpk->nproducts += k;
  PetscFunctionReturn(PETSC_SUCCESS);
}
