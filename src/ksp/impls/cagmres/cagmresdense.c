/*
   KSPCAGMRES: the dense kernels on blocks of columns of the basis Q (n x (m+1), MATDENSE or
   MATDENSECUDA). Each process works on its rows (the block kernels of cagmresgemm.cu / cagmrestrsm.cu on
   the device, their host twins on the host, in the memory PETSc keeps for the matrix); an inner product
   of two blocks is one local product and one MPI_Allreduce of the small result, which lives on the
   host, where the small factorizations run.
*/
#include "cagmresimpl.h"
#include <petscblaslapack.h>
#if defined(PETSC_HAVE_CUDA)
  #include <petscdevice_cuda.h>
  #if defined(PETSC_USE_COMPLEX)
    #define cublasXtrsm(h, sd, ul, tr, dg, m, n, al, a, lda, b, ldb) \
      cublasZtrsm(h, sd, ul, tr, dg, m, n, (const cuDoubleComplex *)(al), (const cuDoubleComplex *)(a), lda, (cuDoubleComplex *)(b), ldb)
  #else
    #define cublasXtrsm cublasDtrsm
  #endif
#endif

/* The local array of Q (device or host) and its leading dimension */
static PetscErrorCode KSPCAGMRESBasisGetArray(KSP ksp, PetscScalar **a, PetscMemType *mtype)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;

  PetscFunctionBegin;
  PetscCall(MatDenseGetArrayAndMemType(ca->Q, a, mtype));
  PetscCheck(PetscMemTypeHost(*mtype) || ca->device, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Basis memory type does not match its vectors");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCAGMRESBasisRestoreArray(KSP ksp, PetscScalar **a)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;

  PetscFunctionBegin;
  PetscCall(MatDenseRestoreArrayAndMemType(ca->Q, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PETSC_HAVE_CUDA)
static PetscErrorCode KSPCAGMRESCopyToDevice(KSP ksp, const PetscScalar *h, PetscInt n, cudaStream_t *stream)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(stream));
  PetscCallCUDA(cudaMemcpyAsync(ca->dwork, h, n * sizeof(PetscScalar), cudaMemcpyHostToDevice, *stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/*
  C (p x q, host, leading dimension p) = Q(:, c0:c0+p)^H Q(:, c1:c1+q), summed over the processes
*/
PetscErrorCode KSPCAGMRESBlockInner(KSP ksp, PetscInt c0, PetscInt p, PetscInt c1, PetscInt q, PetscScalar *C)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;
  PetscScalar *a;
  PetscMemType mtype;

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(C, p * q));
  if (ca->nloc > 0 && p > 0 && q > 0) {
    PetscCall(KSPCAGMRESBasisGetArray(ksp, &a, &mtype));
    if (PetscMemTypeHost(mtype)) PetscCall(KSPCAGMRESInnerProducts(mtype, ca->nloc, p, q, a + c0 * ca->lda, a + c1 * ca->lda, ca->lda, C, NULL));
    else {
#if defined(PETSC_HAVE_CUDA)
      cudaStream_t stream;

      PetscCall(PetscGetCurrentCUDAStream(&stream));
      PetscCall(KSPCAGMRESInnerProducts(mtype, ca->nloc, p, q, a + c0 * ca->lda, a + c1 * ca->lda, ca->lda, ca->dwork, ca->dpartial));
      PetscCallCUDA(cudaMemcpyAsync(C, ca->dwork, p * q * sizeof(PetscScalar), cudaMemcpyDeviceToHost, stream));
      PetscCallCUDA(cudaStreamSynchronize(stream));
#endif
    }
    PetscCall(KSPCAGMRESBasisRestoreArray(ksp, &a));
  }
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, C, (PetscMPIInt)(p * q), MPIU_SCALAR, MPIU_SUM, PetscObjectComm((PetscObject)ksp)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Q(:, c1:c1+q) -= Q(:, c0:c0+p) C, C (p x q, host, leading dimension p)
*/
PetscErrorCode KSPCAGMRESBlockUpdate(KSP ksp, PetscInt c0, PetscInt p, PetscInt c1, PetscInt q, const PetscScalar *C)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;
  PetscScalar *a;
  PetscMemType mtype;

  PetscFunctionBegin;
  if (ca->nloc == 0 || p == 0 || q == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPCAGMRESBasisGetArray(ksp, &a, &mtype));
  if (PetscMemTypeHost(mtype)) PetscCall(KSPCAGMRESUpdateBlock(mtype, ca->nloc, p, q, a + c0 * ca->lda, ca->lda, C, a + c1 * ca->lda));
  else {
#if defined(PETSC_HAVE_CUDA)
    cudaStream_t stream;

    PetscCall(KSPCAGMRESCopyToDevice(ksp, C, p * q, &stream));
    PetscCall(KSPCAGMRESUpdateBlock(mtype, ca->nloc, p, q, a + c0 * ca->lda, ca->lda, ca->dwork, a + c1 * ca->lda));
#endif
  }
  PetscCall(KSPCAGMRESBasisRestoreArray(ksp, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Q(:, c:c+q) := Q(:, c:c+q) R^{-1}, R (q x q upper triangular, host, leading dimension ldr): a row
  a thread on the GPU (cagmrestrsm.cu) up to 32 columns, cuBLAS' TRSM beyond; its host twin on the host
*/
PetscErrorCode KSPCAGMRESBlockTrsm(KSP ksp, PetscInt c, PetscInt q, const PetscScalar *R, PetscInt ldr)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;
  PetscScalar *a;
  PetscMemType mtype;

  PetscFunctionBegin;
  if (ca->nloc == 0 || q == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPCAGMRESBasisGetArray(ksp, &a, &mtype));
  if (PetscMemTypeHost(mtype)) PetscCall(KSPCAGMRESSolveUpperRight(mtype, ca->nloc, q, a + c * ca->lda, ca->lda, R, ldr, NULL));
  else {
#if defined(PETSC_HAVE_CUDA)
    cudaStream_t stream;

    /* R to the device with leading dimension q (from pageable memory: staged before the call returns) */
    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCallCUDA(cudaMemcpy2DAsync(ca->dwork, q * sizeof(PetscScalar), R, ldr * sizeof(PetscScalar), q * sizeof(PetscScalar), q, cudaMemcpyHostToDevice, stream));
    if (q <= KSP_CAGMRES_SOLVE_MAX_COLUMNS) PetscCall(KSPCAGMRESSolveUpperRight(mtype, ca->nloc, q, a + c * ca->lda, ca->lda, R, ldr, ca->dwork));
    else {
      cublasHandle_t handle;
      PetscScalar    one = 1.0;
      PetscBLASInt   bq, bn, blda;

      PetscCall(PetscBLASIntCast(q, &bq));
      PetscCall(PetscBLASIntCast(ca->nloc, &bn));
      PetscCall(PetscBLASIntCast(ca->lda, &blda));
      PetscCall(PetscCUBLASGetHandle(&handle));
      PetscCall(PetscLogGpuTimeBegin());
      PetscCallCUBLAS(cublasXtrsm(handle, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, bn, bq, &one, ca->dwork, bq, a + c * ca->lda, blda));
      PetscCall(PetscLogGpuTimeEnd());
      PetscCall(PetscLogGpuFlops(1.0 * q * q * ca->nloc));
    }
#endif
  }
  PetscCall(KSPCAGMRESBasisRestoreArray(ksp, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  CAQR of Q(:, c:c+q) in place: each process factors its rows with Householder QR (LAPACK, on the
  host: device blocks are copied), the q x q R factors of all processes are gathered (one
  collective) and factored again; Q_local = Q1_local * (block of the second Q factor).
  R (q x q upper triangular, host, leading dimension ldr) is the same on every process.
*/
PetscErrorCode KSPCAGMRESBlockCAQR(KSP ksp, PetscInt c, PetscInt q, PetscScalar *R, PetscInt ldr)
{
  KSP_CAGMRES *ca   = (KSP_CAGMRES *)ksp->data;
  MPI_Comm     comm = PetscObjectComm((PetscObject)ksp);
  PetscMPIInt  size, rank;
  PetscInt     n = ca->nloc, kq = PetscMin(n, q), ns;
  PetscScalar *a, *W, *W2, *Rl, *G, *S, *tau, *work, one = 1.0, zero = 0.0;
  PetscMemType mtype;
  PetscBLASInt bn, bq, bkq, bns, bldq, lwork = 1, info;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  ns = (PetscInt)size * q;
  PetscCall(PetscBLASIntCast(n, &bn));
  PetscCall(PetscBLASIntCast(q, &bq));
  PetscCall(PetscBLASIntCast(kq, &bkq));
  PetscCall(PetscBLASIntCast(ns, &bns));
  PetscCall(PetscBLASIntCast(ca->lda, &bldq));
  { /* workspace: the largest of the four LAPACK queries */
    PetscScalar  wq;
    PetscBLASInt m1 = -1, ldn = PetscMax(bn, 1);

    if (n > 0) {
      PetscCallBLAS("LAPACKgeqrf", LAPACKgeqrf_(&bn, &bq, NULL, &ldn, NULL, &wq, &m1, &info));
      lwork = PetscMax(lwork, (PetscBLASInt)PetscRealPart(wq));
      PetscCallBLAS("LAPACKorgqr", LAPACKorgqr_(&bn, &bkq, &bkq, NULL, &ldn, NULL, &wq, &m1, &info));
      lwork = PetscMax(lwork, (PetscBLASInt)PetscRealPart(wq));
    }
    PetscCallBLAS("LAPACKgeqrf", LAPACKgeqrf_(&bns, &bq, NULL, &bns, NULL, &wq, &m1, &info));
    lwork = PetscMax(lwork, (PetscBLASInt)PetscRealPart(wq));
    PetscCallBLAS("LAPACKorgqr", LAPACKorgqr_(&bns, &bq, &bq, NULL, &bns, NULL, &wq, &m1, &info));
    lwork = PetscMax(lwork, (PetscBLASInt)PetscRealPart(wq));
  }
  PetscCall(PetscMalloc7(n * q, &W, n * q, &W2, q * q, &Rl, ns * q, &G, ns * q, &S, ns, &tau, lwork, &work));
  PetscCall(PetscArrayzero(Rl, q * q));
  if (n > 0) {
    PetscCall(KSPCAGMRESBasisGetArray(ksp, &a, &mtype));
    if (PetscMemTypeHost(mtype)) {
      for (PetscInt j = 0; j < q; j++) PetscCall(PetscArraycpy(W + j * n, a + (c + j) * ca->lda, n));
    } else {
#if defined(PETSC_HAVE_CUDA)
      cudaStream_t stream;

      PetscCall(PetscGetCurrentCUDAStream(&stream));
      PetscCallCUDA(cudaMemcpy2DAsync(W, n * sizeof(PetscScalar), a + c * ca->lda, ca->lda * sizeof(PetscScalar), n * sizeof(PetscScalar), q, cudaMemcpyDeviceToHost, stream));
      PetscCallCUDA(cudaStreamSynchronize(stream));
      PetscCall(PetscLogGpuToCpu(n * q * sizeof(PetscScalar)));
#endif
    }
    /* local Householder QR: R_local (kq x q) padded to q x q, then Q1 (n x kq) explicitly */
    PetscCallBLAS("LAPACKgeqrf", LAPACKgeqrf_(&bn, &bq, W, &bn, tau, work, &lwork, &info));
    PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK geqrf returned %d", (int)info);
    for (PetscInt j = 0; j < q; j++)
      for (PetscInt i = 0; i <= PetscMin(j, kq - 1); i++) Rl[i + j * q] = W[i + j * n];
    PetscCallBLAS("LAPACKorgqr", LAPACKorgqr_(&bn, &bkq, &bkq, W, &bn, tau, work, &lwork, &info));
    PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK orgqr returned %d", (int)info);
    PetscCall(PetscLogFlops(4.0 * n * q * q));
  }
  /* the stacked R factors (ns x q), factored redundantly on every process */
  PetscCallMPI(MPI_Allgather(Rl, (PetscMPIInt)(q * q), MPIU_SCALAR, G, (PetscMPIInt)(q * q), MPIU_SCALAR, comm));
  for (PetscMPIInt d = 0; d < size; d++)
    for (PetscInt j = 0; j < q; j++)
      for (PetscInt i = 0; i < q; i++) S[d * q + i + j * ns] = G[d * q * q + i + j * q];
  PetscCallBLAS("LAPACKgeqrf", LAPACKgeqrf_(&bns, &bq, S, &bns, tau, work, &lwork, &info));
  PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK geqrf returned %d", (int)info);
  for (PetscInt j = 0; j < q; j++)
    for (PetscInt i = 0; i < q; i++) R[i + j * ldr] = i <= j ? S[i + j * ns] : 0.0;
  PetscCallBLAS("LAPACKorgqr", LAPACKorgqr_(&bns, &bq, &bq, S, &bns, tau, work, &lwork, &info));
  PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK orgqr returned %d", (int)info);
  if (n > 0) {
    /* Q_local = Q1 (n x kq) * rows rank*q .. rank*q+kq-1 of the second Q factor */
    PetscCallBLAS("BLASgemm", BLASgemm_("N", "N", &bn, &bq, &bkq, &one, W, &bn, S + rank * q, &bns, &zero, W2, &bn));
    PetscCall(PetscLogFlops(2.0 * n * q * kq));
    if (PetscMemTypeHost(mtype)) {
      for (PetscInt j = 0; j < q; j++) PetscCall(PetscArraycpy(a + (c + j) * ca->lda, W2 + j * n, n));
    } else {
#if defined(PETSC_HAVE_CUDA)
      cudaStream_t stream;

      PetscCall(PetscGetCurrentCUDAStream(&stream));
      PetscCallCUDA(cudaMemcpy2DAsync(a + c * ca->lda, ca->lda * sizeof(PetscScalar), W2, n * sizeof(PetscScalar), n * sizeof(PetscScalar), q, cudaMemcpyHostToDevice, stream));
      PetscCallCUDA(cudaStreamSynchronize(stream));
      PetscCall(PetscLogCpuToGpu(n * q * sizeof(PetscScalar)));
#endif
    }
    PetscCall(KSPCAGMRESBasisRestoreArray(ksp, &a));
  }
  PetscCall(PetscFree7(W, W2, Rl, G, S, tau, work));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Vecs showing columns c .. c+n-1 of Q; the array of Q is held until KSPCAGMRESRestoreColumns()
*/
PetscErrorCode KSPCAGMRESGetColumns(KSP ksp, PetscInt c, PetscInt n, Vec **cols)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;
  PetscScalar *a;
  PetscMemType mtype;

  PetscFunctionBegin;
  PetscCall(KSPCAGMRESBasisGetArray(ksp, &a, &mtype));
  for (PetscInt j = c; j < c + n; j++) {
    if (ca->device) {
#if defined(PETSC_HAVE_CUDA)
      PetscCall(VecCUDAPlaceArray(ca->qcol[j], a + j * ca->lda));
#endif
    } else PetscCall(VecPlaceArray(ca->qcol[j], a + j * ca->lda));
  }
  *cols = ca->qcol + c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPCAGMRESRestoreColumns(KSP ksp, PetscInt c, PetscInt n, Vec **cols)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;
  PetscScalar *a  = NULL;

  PetscFunctionBegin;
  for (PetscInt j = c; j < c + n; j++) {
    if (ca->device) {
#if defined(PETSC_HAVE_CUDA)
      PetscCall(VecCUDAResetArray(ca->qcol[j])); /* brings host-side results back to the column */
#endif
    } else PetscCall(VecResetArray(ca->qcol[j]));
  }
  PetscCall(KSPCAGMRESBasisRestoreArray(ksp, &a));
  *cols = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The basis Q with the operator's vector type (MATDENSECUDA for CUDA vectors), its column Vecs and
  the device scratch
*/
PetscErrorCode KSPCAGMRESDenseSetUp(KSP ksp)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;
  Mat          A;
  Vec          t;
  VecType      vtype;
  PetscBool    iscuda, isstd;
  PetscMPIInt  size;
  PetscScalar *a;
  PetscMemType mtype;
  MPI_Comm     comm = PetscObjectComm((PetscObject)ksp);

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, NULL));
  PetscCall(MatCreateVecs(A, &t, NULL));
  PetscCall(VecGetType(t, &vtype));
  PetscCall(PetscStrcmpAny(vtype, &iscuda, VECCUDA, VECSEQCUDA, VECMPICUDA, ""));
  PetscCall(PetscStrcmpAny(vtype, &isstd, VECSTANDARD, VECSEQ, VECMPI, ""));
  PetscCheck(iscuda || isstd, comm, PETSC_ERR_SUP, "KSPCAGMRES supports host and CUDA vectors, not %s", vtype);
  ca->device = iscuda;
  PetscCall(VecGetLocalSize(t, &ca->nloc));
  PetscCall(MatCreateDenseFromVecType(comm, vtype, ca->nloc, PETSC_DECIDE, PETSC_DETERMINE, ca->m + 1, PETSC_DECIDE, NULL, &ca->Q));
  PetscCall(MatDenseGetLDA(ca->Q, &ca->lda));
  PetscCall(MatZeroEntries(ca->Q));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscMalloc1(ca->m + 1, &ca->qcol));
  PetscCall(MatDenseGetArrayAndMemType(ca->Q, &a, &mtype));
  for (PetscInt j = 0; j <= ca->m; j++) { /* created on the column itself, so that placing an array never allocates */
    if (size > 1) PetscCall(VecCreateMPIWithArrayAndMemType(comm, mtype, 1, ca->nloc, PETSC_DETERMINE, a + j * ca->lda, &ca->qcol[j]));
    else PetscCall(VecCreateSeqWithArrayAndMemType(comm, mtype, 1, ca->nloc, a + j * ca->lda, &ca->qcol[j]));
  }
  PetscCall(MatDenseRestoreArrayAndMemType(ca->Q, &a));
  if (ca->device) {
#if defined(PETSC_HAVE_CUDA)
    PetscCallCUDA(cudaMalloc((void **)&ca->dwork, (ca->m + 1) * (ca->s + 1) * sizeof(PetscScalar)));
    PetscCallCUDA(cudaMalloc((void **)&ca->dpartial, KSP_CAGMRES_INNER_BLOCKS * (ca->m + 1) * (ca->s + 1) * sizeof(PetscScalar)));
#endif
  }
  PetscCall(VecDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPCAGMRESDenseReset(KSP ksp)
{
  KSP_CAGMRES *ca = (KSP_CAGMRES *)ksp->data;

  PetscFunctionBegin;
  if (ca->qcol) PetscCall(VecDestroyVecs(ca->m + 1, &ca->qcol));
  PetscCall(MatDestroy(&ca->Q));
#if defined(PETSC_HAVE_CUDA)
  if (ca->dwork) PetscCallCUDA(cudaFree(ca->dwork));
  if (ca->dpartial) PetscCallCUDA(cudaFree(ca->dpartial));
#endif
  ca->dwork    = NULL;
  ca->dpartial = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
