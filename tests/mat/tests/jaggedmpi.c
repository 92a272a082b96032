static char help[] = "Checks the MPI jagged-diagonal types against MATMPIAIJ on a random distributed matrix:\n\
products, diagonal, scaling, the single-precision product with its halo exchange, conversions,\n\
duplication, binding to the CPU, COO assembly with entries of other processes' rows (on GPUs from\n\
device memory, summed there); on GPUs, the NCCL and the MPI halo exchanges against each other.\n\
  -type <pjdscuda>  the type (root name)\n\
  -m <200>          local rows on rank 0 (rank r has m + 37 r)\n\
  -gpu              GPU kernels and VECCUDA vectors (else give -mat_jagged_host)\n\n";

#include <petscjagged.h>
#include <petscdevice_cuda.h>
#include <petsc/private/petscimpl.h> /* use_gpu_aware_mpi, PETSc's -use_gpu_aware_mpi */
#include "checkvec.h"
#include "copycounters.h"
#include "subsetaxpy.h"

/*
  What nmult products move between host and device, from PETSc's own copy counters (MatMult's event,
  and the MatJaggedMultSingle event): at most the ghost values this process receives (host to
  device) and sends (device to host) per product, in the product's precision
*/
static PetscErrorCode CheckCopies(Mat A, Vec x, Vec y, PetscInt *checks)
{
  const PetscInt nmult = 10;
  const char    *events[2] = {"MatMult", "MatJaggedMultSgl"};
  const size_t   unit[2]   = {sizeof(PetscScalar), sizeof(PetscScalar) / 2};
  PetscInt       nrecv, nsend, m;
  EventCopies    before, after, d;
  PetscScalar   *buf;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(A, &m, NULL));
  PetscCall(MatGhostCounts(A, &nrecv, &nsend));
  PetscCallCUDA(cudaMalloc((void **)&buf, 2 * sizeof(PetscScalar) * PetscMax(m, 1)));
  PetscCallCUDA(cudaMemset(buf, 0, 2 * sizeof(PetscScalar) * PetscMax(m, 1)));
  for (PetscInt e = 0; e < 2; e++) {
    PetscCall(EventCopiesGet(events[e], &before));
    for (PetscInt k = 0; k < nmult; k++) {
      if (e == 0) { /* x changed on the device before each product: a host product would have to copy it */
        PetscCall(VecScale(x, -1.0));
        PetscCall(MatMult(A, x, y));
      }
      else PetscCall(MatJaggedMultSingle(A, (const PetscJaggedScalarSingle *)buf, (PetscJaggedScalarSingle *)buf + m));
    }
    PetscCall(EventCopiesGet(events[e], &after));
    d = EventCopiesDiff(after, before);
    PetscCheck(d.h2d <= nmult * nrecv * unit[e] && d.d2h <= nmult * nsend * unit[e], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s moved %g bytes host to device and %g device to host in %" PetscInt_FMT " products; the ghosts are %" PetscInt_FMT " received, %" PetscInt_FMT " sent values of %zu bytes", events[e], d.h2d, d.d2h, nmult, nrecv, nsend, unit[e]);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " products moved only ghost values between host and device (first process: %g bytes host to device, %g device to host)\n", events[e], nmult, d.h2d, d.d2h));
    ++*checks;
  }
  PetscCallCUDA(cudaFree(buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The products through every path of the halo exchange (the default first) give the same vectors, bit for bit (the
  transpose products to rounding: the owners add what comes back atomically); PETSc's copy counters show where they
  went: through CUDA IPC, NCCL or a GPU-aware MPI (-use_gpu_aware_mpi 1) no value crosses the host, through MPI staged
  in host memory (-use_gpu_aware_mpi 0) the ghosts do. The processes of these tests share a host, so CUDA IPC runs
  and the default takes it; NCCL runs where every process has a GPU of its own (one node: as many GPUs as processes),
  processes sharing a GPU take the MPI path although NCCL is asked for.
*/
static PetscErrorCode CheckExchanges(Mat A, Vec x, Vec w, Vec yr, PetscReal tol, PetscInt *checks)
{
  const PetscJaggedExchange paths[4] = {PETSC_JAGGED_EXCHANGE_AUTO, PETSC_JAGGED_EXCHANGE_MPI, PETSC_JAGGED_EXCHANGE_NCCL, PETSC_JAGGED_EXCHANGE_IPC};
  Vec                       y[4], yt[4];
  int                       ngpu;
  PetscMPIInt               size;
  PetscBool                 equal, ownsgpu;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCallCUDA(cudaGetDeviceCount(&ngpu));
  ownsgpu = (PetscBool)(ngpu >= size);
  for (PetscInt e = 0; e < 4; e++) {
    EventCopies before, after, d;
    PetscBool   nccl   = (PetscBool)(paths[e] == PETSC_JAGGED_EXCHANGE_NCCL && ownsgpu);
    PetscBool   ipc    = (PetscBool)(paths[e] == PETSC_JAGGED_EXCHANGE_IPC || paths[e] == PETSC_JAGGED_EXCHANGE_AUTO);
    PetscBool   direct = (PetscBool)(nccl || ipc || use_gpu_aware_mpi); /* from device memory to device memory */
    const char *path   = ipc ? "through CUDA IPC" : (nccl ? "through NCCL" : (use_gpu_aware_mpi ? "through a GPU-aware MPI" : "through MPI and the host"));
    PetscMPIInt staged, anystaged;
    char        what[96];

    PetscCall(VecDuplicate(w, &y[e])); /* A's vectors: CUDA */
    PetscCall(VecDuplicate(x, &yt[e]));
    if (e) PetscCall(MatJaggedSetExchange(A, paths[e])); /* the first: as the matrix was made */
    PetscCall(MatMult(A, x, y[e])); /* makes the halo */
    PetscCall(EventCopiesGet("MatMult", &before));
    for (PetscInt k = 0; k < 5; k++) PetscCall(MatMult(A, x, y[e]));
    PetscCall(EventCopiesGet("MatMult", &after));
    d      = EventCopiesDiff(after, before);
    staged = d.h2d > 0 || d.d2h > 0;
    PetscCallMPI(MPIU_Allreduce(&staged, &anystaged, 1, MPI_INT, MPI_MAX, PetscObjectComm((PetscObject)A)));
    PetscCheck(direct ? !anystaged : anystaged, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatMult with -mat_jagged_exchange %s on %s, -use_gpu_aware_mpi %d: %g bytes host to device, %g device to host in 5 products (%s expected)", PetscJaggedExchanges[paths[e]], ownsgpu ? "a GPU each" : "shared GPUs", (int)use_gpu_aware_mpi, d.h2d, d.d2h, direct ? "none" : "the ghosts");
    PetscCall(PetscSNPrintf(what, sizeof(what), "MatMult, exchange %s: %s", PetscJaggedExchanges[paths[e]], path));
    PetscCall(CheckVecClose(what, y[e], yr, tol, checks));
    PetscCall(MatMultTranspose(A, w, yt[e])); /* the reverse exchange */
  }
  for (PetscInt e = 0; e < 4; e++) {
    PetscCall(VecEqual(y[e], y[1], &equal));
    PetscCheck(equal, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "MatMult differs between the %s and the MPI exchanges", PetscJaggedExchanges[paths[e]]);
    PetscCall(CheckVecClose("MatMultTranspose against MPI's (entries added atomically: to rounding)", yt[e], yt[1], tol, checks));
  }
  *checks += 4;
  PetscCall(PetscPrintf(PetscObjectComm((PetscObject)A), "the auto, MPI, NCCL and CUDA IPC exchanges: the same products, and the copy counters of the path these GPUs allow\n"));
  for (PetscInt e = 0; e < 4; e++) {
    PetscCall(VecDestroy(&y[e]));
    PetscCall(VecDestroy(&yt[e]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x in single precision through MatJaggedMultSingle(), returned in a double vector like y */
static PetscErrorCode MultSingle(Mat A, Vec x, Vec y, PetscBool gpu)
{
  PetscInt                 m, n;
  const PetscScalar       *xa;
  PetscScalar             *ya;
  PetscJaggedScalarSingle *xf, *yf;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCall(PetscMalloc2(n, &xf, m, &yf));
  PetscCall(VecGetArrayRead(x, &xa));
  for (PetscInt i = 0; i < n; i++) xf[i] = (PetscJaggedScalarSingle)xa[i];
  PetscCall(VecRestoreArrayRead(x, &xa));
  if (gpu) {
    PetscJaggedScalarSingle *dx, *dy;

    PetscCallCUDA(cudaMalloc((void **)&dx, sizeof(*dx) * PetscMax(n, 1)));
    PetscCallCUDA(cudaMalloc((void **)&dy, sizeof(*dy) * PetscMax(m, 1)));
    PetscCallCUDA(cudaMemcpy(dx, xf, sizeof(*dx) * n, cudaMemcpyHostToDevice));
    PetscCall(MatJaggedMultSingle(A, dx, dy));
    PetscCallCUDA(cudaMemcpy(yf, dy, sizeof(*dy) * m, cudaMemcpyDeviceToHost));
    PetscCallCUDA(cudaFree(dx));
    PetscCallCUDA(cudaFree(dy));
  } else PetscCall(MatJaggedMultSingle(A, xf, yf));
  PetscCall(VecGetArrayWrite(y, &ya));
  for (PetscInt i = 0; i < m; i++) ya[i] = (PetscScalar)yf[i];
  PetscCall(VecRestoreArrayWrite(y, &ya));
  PetscCall(PetscFree2(xf, yf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  B x after MatSetValuesCOO() against yr; on the GPU (values from device memory) with the copy counters of the product: at most
  the ghost values it receives came to the GPU (values summed on the host would have to be copied there first)
*/
static PetscErrorCode CheckCOOMult(const char *what, Mat B, PetscBool gpu, PetscScalar scale, Vec x, Vec y, Vec yr, PetscReal tol, PetscInt *checks)
{
  EventCopies before, after, d;
  PetscInt    nrecv, nsend;

  PetscFunctionBeginUser;
  PetscCall(EventCopiesGet("MatMult", &before));
  PetscCall(MatMult(B, x, y));
  PetscCall(EventCopiesGet("MatMult", &after));
  PetscCall(VecScale(y, scale));
  PetscCall(CheckVecClose(what, y, yr, tol, checks));
  if (!gpu) PetscFunctionReturn(PETSC_SUCCESS);
  d = EventCopiesDiff(after, before);
  PetscCall(MatGhostCounts(B, &nrecv, &nsend));
  PetscCheck(d.h2d <= nrecv * sizeof(PetscScalar), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the product copied %g bytes to the GPU (ghosts: %" PetscInt_FMT " values): the COO values did not stay there", what, d.h2d, nrecv);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  R assembled through COO into a new matrix of the type: each process gives half of each value of its own rows and half of each
  value of the rows of the process before it (received from it), so that entries go to other processes and every nonzero sums two;
  on the GPU from device memory. INSERT_VALUES, again after a MatScale() (the new values win), then ADD_VALUES (2 R); on the GPU
  the products after the last two checked to copy no value of the matrix to the GPU (CheckCOOMult()).
*/
static PetscErrorCode CheckCOO(Mat R, MatType type, PetscBool gpu, Vec x, Vec y, Vec yr, PetscReal tol, PetscInt *checks)
{
  MPI_Comm     comm = PetscObjectComm((PetscObject)R);
  PetscMPIInt  size, rank, next, prev;
  PetscInt     rstart, rend, m, N, nz = 0, nprev, cnt = 0, *ci, *cj;
  PetscScalar *cv, *dv = NULL;
  const PetscScalar *v;
  Mat          B;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  next = (rank + 1) % size;
  prev = (rank + size - 1) % size;
  PetscCall(MatGetOwnershipRange(R, &rstart, &rend));
  PetscCall(MatGetLocalSize(R, &m, NULL));
  PetscCall(MatGetSize(R, &N, NULL));
  for (PetscInt i = rstart; i < rend; i++) {
    PetscInt ncols;

    PetscCall(MatGetRow(R, i, &ncols, NULL, NULL));
    nz += ncols;
    PetscCall(MatRestoreRow(R, i, &ncols, NULL, NULL));
  }
  PetscCallMPI(MPI_Sendrecv(&nz, 1, MPIU_INT, next, 0, &nprev, 1, MPIU_INT, prev, 0, comm, MPI_STATUS_IGNORE));
  PetscCall(PetscMalloc3(nz + nprev, &ci, nz + nprev, &cj, nz + nprev, &cv));
  for (PetscInt i = rstart; i < rend; i++) {
    PetscInt           ncols;
    const PetscInt    *cols;
    const PetscScalar *vals;

    PetscCall(MatGetRow(R, i, &ncols, &cols, &vals));
    for (PetscInt k = 0; k < ncols; k++, cnt++) ci[cnt] = i, cj[cnt] = cols[k], cv[cnt] = vals[k] / 2;
    PetscCall(MatRestoreRow(R, i, &ncols, &cols, &vals));
  }
  /* our half entries to the next process, which gives them again: the previous process's rows are given here */
  PetscCallMPI(MPI_Sendrecv(ci, (PetscMPIInt)nz, MPIU_INT, next, 1, ci + nz, (PetscMPIInt)nprev, MPIU_INT, prev, 1, comm, MPI_STATUS_IGNORE));
  PetscCallMPI(MPI_Sendrecv(cj, (PetscMPIInt)nz, MPIU_INT, next, 2, cj + nz, (PetscMPIInt)nprev, MPIU_INT, prev, 2, comm, MPI_STATUS_IGNORE));
  PetscCallMPI(MPI_Sendrecv(cv, (PetscMPIInt)nz, MPIU_SCALAR, next, 3, cv + nz, (PetscMPIInt)nprev, MPIU_SCALAR, prev, 3, comm, MPI_STATUS_IGNORE));
  nz += nprev;
  v = cv;
  if (gpu) {
    PetscCallCUDA(cudaMalloc((void **)&dv, sizeof(PetscScalar) * PetscMax(nz, 1)));
    PetscCallCUDA(cudaMemcpy(dv, cv, sizeof(PetscScalar) * nz, cudaMemcpyHostToDevice));
    v = dv;
  }
  PetscCall(MatCreate(comm, &B));
  PetscCall(MatSetSizes(B, m, m, N, N));
  PetscCall(MatSetType(B, type));
  PetscCall(MatSetPreallocationCOO(B, nz, ci, cj));
  PetscCall(MatSetValuesCOO(B, v, INSERT_VALUES));
  PetscCall(CheckCOOMult("MatMult after COO assembly (entries of other processes' rows among them)", B, PETSC_FALSE, 1.0, x, y, yr, tol, checks)); /* makes the halo */
  PetscCall(MatScale(B, 3.0));
  PetscCall(MatSetValuesCOO(B, v, INSERT_VALUES)); /* new values through COO: refreshed */
  PetscCall(CheckCOOMult("MatMult after MatSetValuesCOO again", B, gpu, 1.0, x, y, yr, tol, checks));
  PetscCall(MatSetValuesCOO(B, v, ADD_VALUES));
  PetscCall(CheckCOOMult("MatMult after MatSetValuesCOO with ADD_VALUES, halved", B, gpu, 0.5, x, y, yr, tol, checks));
  PetscCall(MatDestroy(&B));
  if (dv) PetscCallCUDA(cudaFree(dv));
  PetscCall(PetscFree3(ci, cj, cv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char        type[64] = MATPJDSCUDA, seqtype[64];
  PetscInt    m = 200, rstart, rend, N, checks = 0;
  PetscMPIInt rank, size;
  PetscBool   gpu = PETSC_FALSE, flg;
  PetscRandom rnd;
  Mat         R, A, B;
  Vec         x, y, yr, w;
  PetscReal   tol = 1e3 * PETSC_MACHINE_EPSILON;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscLogDefaultBegin()); /* the copy counters CheckCopies() reads */
  PetscCall(PetscJaggedInitializePackage());
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", type, sizeof(type), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-m", &m, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-gpu", &gpu, NULL));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetFromOptions(rnd));

  /* random matrix: diagonal, neighbours, and entries in random (mostly off-process) columns */
  m += 37 * rank;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, m, m, PETSC_DETERMINE, PETSC_DETERMINE, 8, NULL, 8, NULL, &R));
  PetscCall(MatGetSize(R, &N, NULL));
  PetscCall(MatGetOwnershipRange(R, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; i++) {
    PetscInt    cols[6] = {i, (i + 1) % N, (i + N - 1) % N, 0, 0, 0};
    PetscScalar v[6];
    for (PetscInt k = 0; k < 6; k++) PetscCall(PetscRandomGetValue(rnd, &v[k]));
    for (PetscInt k = 3; k < 6; k++) {
      PetscReal r;
      PetscCall(PetscRandomGetValueReal(rnd, &r));
      cols[k] = (PetscInt)(r * N) % N;
    }
    PetscCall(MatSetValues(R, 1, &i, 6, cols, v, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(R, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(R, MAT_FINAL_ASSEMBLY));

  PetscCall(MatConvert(R, type, MAT_INITIAL_MATRIX, &A));
  PetscCall(PetscSNPrintf(seqtype, sizeof(seqtype), "%s%s", size > 1 ? "mpiaij" : "seqaij", type));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, seqtype, &flg));
  if (!flg) {
    MatType got;
    PetscCall(MatGetType(A, &got));
    SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatConvert gave %s, not %s", got, seqtype);
  }
  PetscCall(MatViewFromOptions(A, NULL, "-jagged_view"));
  PetscCall(MatBoundToCPU(A, &flg));
  PetscCheck(!flg, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatConvert gave a matrix bound to the CPU");

  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(MatCreateVecs(R, NULL, &yr));
  PetscCall(VecDuplicate(y, &w));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(VecSetRandom(w, rnd));

  PetscCall(MatMult(R, x, yr));
  PetscCall(MatMult(A, x, y));
  PetscCall(CheckVecClose("MatMult", y, yr, tol, &checks));
  PetscCall(MatMultAdd(R, x, w, yr));
  PetscCall(MatMultAdd(A, x, w, y));
  PetscCall(CheckVecClose("MatMultAdd", y, yr, tol, &checks));
  PetscCall(MatMultTranspose(R, w, yr));
  PetscCall(MatMultTranspose(A, w, y));
  PetscCall(CheckVecClose("MatMultTranspose", y, yr, tol, &checks));
  PetscCall(MatMultTransposeAdd(R, w, x, yr));
  PetscCall(MatMultTransposeAdd(A, w, x, y));
  PetscCall(CheckVecClose("MatMultTransposeAdd", y, yr, tol, &checks));
  PetscCall(MatMultHermitianTranspose(R, w, yr));
  PetscCall(MatMultHermitianTranspose(A, w, y));
  PetscCall(CheckVecClose("MatMultHermitianTranspose", y, yr, tol, &checks));
  PetscCall(MatGetDiagonal(R, yr));
  PetscCall(MatGetDiagonal(A, y));
  PetscCall(CheckVecClose("MatGetDiagonal", y, yr, tol, &checks));

  PetscCall(MatScale(R, -2.5));
  PetscCall(MatScale(A, -2.5));
  PetscCall(MatMult(R, x, yr));
  PetscCall(MatMult(A, x, y));
  PetscCall(CheckVecClose("MatMult after MatScale", y, yr, tol, &checks));
  PetscCall(MultSingle(A, x, y, gpu));
  PetscCall(CheckVecClose("MatJaggedMultSingle", y, yr, 1e-5, &checks));
  { /* X of the same type with a pattern within theirs (PCGAMG's smoothed prolongator): merged block by block, the off-diagonal blocks by global column */
    Mat S, SA;

    PetscCall(MatEvenEntries(R, &S));
    PetscCall(MatConvert(S, type, MAT_INITIAL_MATRIX, &SA));
    PetscCall(MatAXPY(R, 0.75, S, SUBSET_NONZERO_PATTERN));
    PetscCall(MatAXPYSubsetMerged(A, 0.75, SA, SUBSET_NONZERO_PATTERN, &checks));
    PetscCall(MatAXPY(R, -0.5, S, DIFFERENT_NONZERO_PATTERN));
    PetscCall(MatAXPYSubsetMerged(A, -0.5, SA, DIFFERENT_NONZERO_PATTERN, &checks));
    PetscCall(MatDestroy(&SA));
    PetscCall(MatMult(R, x, yr));
    PetscCall(MatMult(A, x, y));
    PetscCall(CheckVecClose("MatMult after MatAXPY of a subset pattern", y, yr, tol, &checks));
    PetscCall(MatDestroy(&S));
  }

  if (gpu && size > 1) {
    PetscCall(CheckCopies(A, x, y, &checks));
    PetscCall(CheckExchanges(A, x, w, yr, tol, &checks));
  }

  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
  PetscCall(MatMult(B, x, y));
  PetscCall(CheckVecClose("MatMult of a duplicate", y, yr, tol, &checks));
  PetscCall(MatDestroy(&B));
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &B));
  PetscCall(MatEqual(B, R, &flg));
  PetscCheck(flg, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatConvert back to AIJ changed the matrix");
  checks++;
  PetscCall(MatDestroy(&B));

  PetscCall(CheckCOO(R, type, gpu, x, y, yr, tol, &checks)); /* the same matrix through COO: MATMPIAIJ's blocks, the type's map */

  /* Last, so that every check above runs on A as applications make it: MatBindToCPU() itself (an application's call), bound,
     the products run on the host; unbound again, on the GPU with only the ghosts crossing */
  PetscCall(MatBindToCPU(A, PETSC_TRUE));
  PetscCall(MatMult(A, x, y));
  PetscCall(CheckVecClose("MatMult bound to the CPU", y, yr, tol, &checks));
  PetscCall(MatBindToCPU(A, PETSC_FALSE));
  PetscCall(MatMult(A, x, y));
  PetscCall(CheckVecClose("MatMult unbound", y, yr, tol, &checks));
  if (gpu && size > 1) PetscCall(CheckCopies(A, x, y, &checks));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s on %d processes: %" PetscInt_FMT " checks passed\n", seqtype, size, checks));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&yr));
  PetscCall(VecDestroy(&w));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   testset:
      args: -mat_jagged_host
      test:
         suffix: pjds
         args: -type pjdscuda
         nsize: {{1 2 3}separate output}
      test:
         suffix: jds
         args: -type jdscuda
         nsize: {{1 2 3}separate output}

   testset:
      requires: cuda_device
      args: -type pjdscuda -gpu -use_gpu_aware_mpi 0 -m 20000
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "moved only ghost values between host and device|the auto, MPI, NCCL and CUDA IPC exchanges: .*|on [0-9] processes: [0-9]+ checks passed" | sed -E "s/: [0-9]+ checks/: checks/" | sort -u
      test:
         suffix: gpu_pjds_np1
      test:
         suffix: gpu_pjds_np2
         nsize: 2

   test:
      # the MPI path through a GPU-aware MPI: device buffers handed to MPI, no value staged through the host
      # (generated with PJ_GPU_AWARE_MPI=1, where mpiexec runs a GPU-aware MPI: scripts/device-session's harness-cudampi)
      requires: cuda_device gpu_aware_mpi
      suffix: cudampi_pjds_np2
      nsize: 2
      args: -type pjdscuda -gpu -use_gpu_aware_mpi 1 -m 20000
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "moved only ghost values between host and device|the auto, MPI, NCCL and CUDA IPC exchanges: .*|on [0-9] processes: [0-9]+ checks passed" | sed -E "s/: [0-9]+ checks/: checks/" | sort -u
      output_file: output/jaggedmpi_gpu_pjds_np2.out

TEST*/
