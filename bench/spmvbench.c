static char help[] = "SpMV benchmark: MATSEQPJDSCUDA and MATSEQJDSCUDA (fp64 and their fp32 copy) against\n\
MATSEQAIJCUSPARSE and MATSEQSELLCUDA, in one run on one GPU.\n\
  -n3 <216>        3D grid edge: 7- and 27-point Poisson with n3^3 rows (216: 10.1 M rows)\n\
  -n2 <3200>       2D grid edge: 5-point Poisson\n\
  -powerlaw <2000000> rows of the power-law matrix (degrees Zipf, exponent 2.5, min 4)\n\
  -mtx <f1,f2,...> Matrix Market files\n\
  -reps <50>       products per timed batch (5 batches, the best one counts)\n\
  -csv <file>      write the results as CSV\n\n";

#include <petscjagged.h>
#include <petscdevice_cuda.h>
#include <petscjagged/private/mtxload.h>

#include "stencil.h"

/* Power-law rows: degree floor(4 u^(-1/1.5)) capped at n/4, random distinct-ish columns, diagonal first */
static PetscErrorCode PowerLaw(PetscInt N, CSR *c)
{
  PetscRandom rnd;
  PetscInt   *deg, total = 0, k = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscMalloc1(N, &deg));
  for (PetscInt r = 0; r < N; r++) {
    PetscReal u;
    PetscCall(PetscRandomGetValueReal(rnd, &u));
    deg[r] = PetscMin((PetscInt)(4.0 * PetscPowReal(PetscMax(u, 1e-12), -1.0 / 1.5)), N / 4);
    total += deg[r] + 1;
  }
  c->m = c->n = N;
  PetscCall(PetscMalloc3(N + 1, &c->i, total, &c->j, total, &c->a));
  c->i[0] = 0;
  for (PetscInt r = 0; r < N; r++) {
    PetscInt start = k, cnt;
    c->j[k]   = r;
    c->a[k++] = deg[r] + 1.0;
    for (PetscInt e = 0; e < deg[r]; e++) {
      PetscReal u;
      PetscCall(PetscRandomGetValueReal(rnd, &u));
      c->j[k]   = (PetscInt)(u * N) % N;
      c->a[k++] = -u;
    }
    PetscCall(PetscSortIntWithScalarArray(k - start, c->j + start, c->a + start));
    cnt = 0; /* merge duplicate columns */
    for (PetscInt q = start; q < k; q++) {
      if (cnt && c->j[start + cnt - 1] == c->j[q]) c->a[start + cnt - 1] += c->a[q];
      else {
        c->j[start + cnt] = c->j[q];
        c->a[start + cnt] = c->a[q];
        cnt++;
      }
    }
    k            = start + cnt;
    c->i[r + 1] = k;
  }
  c->nnz = k;
  PetscCall(PetscFree(deg));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A Matrix Market file as a host CSR (mtxload.h: real, integer, pattern; complex ones in complex builds, *ok false otherwise) */
static PetscErrorCode ReadMM(const char *file, CSR *c, PetscBool *ok)
{
  Mat             A;
  MtxSymmetry     sym;
  PetscBool       isseqaij;
  const PetscInt *ia, *ja;
  PetscScalar    *aa;
  PetscMemType    mt;

  PetscFunctionBeginUser;
  PetscCall(MtxReadable(file, ok));
  if (!*ok) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MtxLoad(PETSC_COMM_SELF, file, &sym, &A));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJ, &isseqaij));
  if (!isseqaij) PetscCall(MatConvert(A, MATSEQAIJ, MAT_INPLACE_MATRIX, &A)); /* whatever -mat_type said: the host arrays */
  PetscCall(MatSeqAIJGetCSRAndMemType(A, &ia, &ja, &aa, &mt));
  PetscCall(MatGetSize(A, &c->m, &c->n));
  c->nnz = ia[c->m];
  PetscCall(PetscMalloc3(c->m + 1, &c->i, c->nnz, &c->j, c->nnz, &c->a));
  PetscCall(PetscArraycpy(c->i, ia, c->m + 1));
  PetscCall(PetscArraycpy(c->j, ja, c->nnz));
  PetscCall(PetscArraycpy(c->a, aa, c->nnz));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Device-to-device copy bandwidth, bytes read + written per second, best of 10 */
static PetscErrorCode CopyBandwidth(PetscReal *gbs)
{
  const size_t   bytes = (size_t)2 << 30;
  void          *a, *b;
  cudaEvent_t    e0, e1;
  float          ms, best = 1e30f;

  PetscFunctionBeginUser;
  PetscCallCUDA(cudaMalloc(&a, bytes));
  PetscCallCUDA(cudaMalloc(&b, bytes));
  PetscCallCUDA(cudaMemset(a, 1, bytes));
  PetscCallCUDA(cudaEventCreate(&e0));
  PetscCallCUDA(cudaEventCreate(&e1));
  for (int t = 0; t < 12; t++) {
    PetscCallCUDA(cudaEventRecord(e0, 0));
    PetscCallCUDA(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
    PetscCallCUDA(cudaEventRecord(e1, 0));
    PetscCallCUDA(cudaEventSynchronize(e1));
    PetscCallCUDA(cudaEventElapsedTime(&ms, e0, e1));
    if (t >= 2) best = PetscMin(best, ms);
  }
  *gbs = 2.0 * bytes / (best * 1e-3) / 1e9;
  PetscCallCUDA(cudaEventDestroy(e0));
  PetscCallCUDA(cudaEventDestroy(e1));
  PetscCallCUDA(cudaFree(a));
  PetscCallCUDA(cudaFree(b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Seconds per product, best batch of 5; single: the fp32 copy with float device vectors */
static PetscErrorCode TimeMult(Mat B, PetscBool single, PetscInt reps, Vec x, Vec y, PetscReal *sec)
{
  PetscInt                 m, n;
  PetscJaggedScalarSingle *xf = NULL, *yf = NULL;
  PetscLogDouble           t0, t1, best = 1e30;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(B, &m, &n));
  if (single) {
    PetscCallCUDA(cudaMalloc((void **)&xf, sizeof(*xf) * n));
    PetscCallCUDA(cudaMalloc((void **)&yf, sizeof(*yf) * m));
    PetscCallCUDA(cudaMemset(xf, 0, sizeof(*xf) * n));
  }
  for (PetscInt b = 0; b < 6; b++) {
    PetscCallCUDA(cudaDeviceSynchronize());
    PetscCall(PetscTime(&t0));
    for (PetscInt r = 0; r < reps; r++) {
      if (single) PetscCall(MatJaggedMultSingle(B, xf, yf));
      else PetscCall(MatMult(B, x, y));
    }
    PetscCallCUDA(cudaDeviceSynchronize());
    PetscCall(PetscTime(&t1));
    if (b > 0) best = PetscMin(best, (t1 - t0) / reps); /* batch 0 warms up */
  }
  *sec = best;
  if (single) {
    PetscCallCUDA(cudaFree(xf));
    PetscCallCUDA(cudaFree(yf));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Bench(const char *label, CSR *c, PetscInt reps, PetscReal copybw, FILE *csv)
{
  const char *types[] = {MATSEQAIJCUSPARSE, MATSEQSELLCUDA, MATSEQJDSCUDA, MATSEQPJDSCUDA};
  Mat         A;
  Vec         xref = NULL, yref = NULL;
  PetscReal   t_aij = 0, t_sell = 0;
  PetscInt    maxrow = 0;

  PetscFunctionBeginUser;
  for (PetscInt r = 0; r < c->m; r++) maxrow = PetscMax(maxrow, c->i[r + 1] - c->i[r]);
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, c->m, c->n, c->i, c->j, c->a, &A));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n%s: %" PetscInt_FMT " x %" PetscInt_FMT ", %" PetscInt_FMT " nonzeros (%.1f per row, longest %" PetscInt_FMT ")\n", label, c->m, c->n, c->nnz, (double)c->nnz / PetscMax(c->m, 1), maxrow));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-16s %9s %9s %9s %7s %9s %8s %8s %9s %8s\n", "type", "us/SpMV", "GFLOP/s", "GB/s", "%copy", "overhead", "x AIJ", "x SELL", "setup s", "rel.err"));
  for (int t = 0; t < 4; t++) {
    for (int s = 0; s < (t >= 2 ? 2 : 1); s++) {
      Mat            B;
      Vec            x, y;
      PetscLogDouble c0, c1;
      PetscReal      sec, minbytes, err = 0, overhead = 0;
      char           name[64];

      PetscCallCUDA(cudaDeviceSynchronize());
      PetscCall(PetscTime(&c0));
      if (t == 1) { /* PETSc converts AIJ to SELLCUDA through SELL */
        PetscCall(MatConvert(A, MATSEQSELL, MAT_INITIAL_MATRIX, &B));
        PetscCall(MatConvert(B, MATSEQSELLCUDA, MAT_INPLACE_MATRIX, &B));
      } else PetscCall(MatConvert(A, types[t], MAT_INITIAL_MATRIX, &B));
      if (s) PetscCall(MatJaggedSetSinglePrecision(B, PETSC_TRUE));
      PetscCall(MatCreateVecs(B, &x, &y));
      if (!xref) {
        PetscRandom rnd;
        PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
        PetscCall(VecDuplicate(x, &xref));
        PetscCall(VecDuplicate(y, &yref));
        PetscCall(VecSetRandom(xref, rnd));
        PetscCall(PetscRandomDestroy(&rnd));
      }
      PetscCall(VecCopy(xref, x));
      PetscCall(MatMult(B, x, y)); /* first product: device structures complete */
      PetscCallCUDA(cudaDeviceSynchronize());
      PetscCall(PetscTime(&c1));
      if (t == 0) PetscCall(VecCopy(y, yref));
      else {
        PetscReal ny;
        PetscCall(VecAXPY(y, -1.0, yref));
        PetscCall(VecNorm(y, NORM_INFINITY, &err));
        PetscCall(VecNorm(yref, NORM_INFINITY, &ny));
        err /= PetscMax(ny, PETSC_SMALL);
      }
      PetscCall(TimeMult(B, s, reps, x, y, &sec));
      if (s) minbytes = c->nnz * (sizeof(PetscJaggedScalarSingle) + 4.0) + (c->m + c->n) * sizeof(PetscJaggedScalarSingle);
      else minbytes = c->nnz * (sizeof(PetscScalar) + 4.0) + (c->m + c->n) * sizeof(PetscScalar);
      if (t >= 2) {
        PetscCount nnz, stored;
        PetscCall(MatJaggedGetStorage(B, &nnz, &stored));
        overhead = nnz ? (PetscReal)(stored - nnz) / nnz : 0;
      }
      if (t == 0) t_aij = sec;
      if (t == 1) t_sell = sec;
      PetscCall(PetscSNPrintf(name, sizeof(name), "%s%s", types[t], s ? "-fp32" : ""));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-16s %9.1f %9.1f %9.1f %6.1f%% %8.1f%% %8.2f %8.2f %9.3f %8.1e\n", name, sec * 1e6, 2.0 * c->nnz / sec / 1e9, minbytes / sec / 1e9, 100.0 * minbytes / sec / 1e9 / copybw, 100.0 * overhead, t_aij / sec, t_sell ? t_sell / sec : 0.0, c1 - c0, err));
      if (csv) PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, "%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%s,%g,%g,%g,%g,%g,%g,%g,%g,%g\n", label, c->m, c->nnz, name, sec * 1e6, 2.0 * c->nnz / sec / 1e9, minbytes / sec / 1e9, 100.0 * minbytes / sec / 1e9 / copybw, 100.0 * overhead, t_aij / sec, t_sell ? t_sell / sec : 0.0, c1 - c0, err));
      PetscCall(VecDestroy(&x));
      PetscCall(VecDestroy(&y));
      PetscCall(MatDestroy(&B));
    }
  }
  PetscCall(VecDestroy(&xref));
  PetscCall(VecDestroy(&yref));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt              n3 = 216, n2 = 3200, npl = 2000000, reps = 50, nfiles = 64;
  char                 *files[64], csvname[PETSC_MAX_PATH_LEN] = "";
  FILE                 *csv = NULL;
  PetscReal             bw;
  CSR                   c;
  struct cudaDeviceProp prop;
  int                   dev;
  PetscBool             set;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscJaggedInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "SpMV benchmark options", NULL);
  PetscCall(PetscOptionsInt("-n3", "3D grid edge", NULL, n3, &n3, NULL));
  PetscCall(PetscOptionsInt("-n2", "2D grid edge", NULL, n2, &n2, NULL));
  PetscCall(PetscOptionsInt("-powerlaw", "power-law rows", NULL, npl, &npl, NULL));
  PetscCall(PetscOptionsInt("-reps", "products per batch", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsStringArray("-mtx", "Matrix Market files", NULL, files, &nfiles, &set));
  PetscCall(PetscOptionsString("-csv", "CSV output", NULL, csvname, csvname, sizeof(csvname), NULL));
  PetscOptionsEnd();
  if (!set) nfiles = 0;

  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
  PetscCallCUDA(cudaGetDevice(&dev));
  PetscCallCUDA(cudaGetDeviceProperties(&prop, dev));
  PetscCall(CopyBandwidth(&bw));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "GPU: %s; device-to-device copy: %.0f GB/s (read + write)\n", prop.name, (double)bw));
  if (csvname[0]) {
    PetscCall(PetscFOpen(PETSC_COMM_SELF, csvname, "w", &csv));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, "# %s, copy bandwidth %.0f GB/s\nmatrix,rows,nnz,type,us_per_spmv,gflops,gbs,pct_copy,overhead_pct,x_aijcusparse,x_sellcuda,setup_s,rel_err\n", prop.name, (double)bw));
  }
  if (n3 > 0) {
    PetscCall(Stencil(3, 7, n3, PETSC_FALSE, 1.0, &c));
    PetscCall(Bench("3D Poisson 7-pt", &c, reps, bw, csv));
    PetscCall(CSRDestroy(&c));
    PetscCall(Stencil(3, 7, n3, PETSC_TRUE, 1.0, &c));
    PetscCall(Bench("3D Poisson 7-pt permuted", &c, reps, bw, csv));
    PetscCall(CSRDestroy(&c));
    PetscCall(Stencil(3, 27, n3, PETSC_FALSE, 1.0, &c));
    PetscCall(Bench("3D Poisson 27-pt", &c, reps, bw, csv));
    PetscCall(CSRDestroy(&c));
  }
  if (n2 > 0) {
    PetscCall(Stencil(2, 5, n2, PETSC_FALSE, 1.0, &c));
    PetscCall(Bench("2D Poisson 5-pt", &c, reps, bw, csv));
    PetscCall(CSRDestroy(&c));
  }
  if (npl > 0) {
    PetscCall(PowerLaw(npl, &c));
    PetscCall(Bench("power-law", &c, reps, bw, csv));
    PetscCall(CSRDestroy(&c));
  }
  for (PetscInt f = 0; f < nfiles; f++) {
    PetscBool ok;
    PetscCall(ReadMM(files[f], &c, &ok));
    if (ok) {
      PetscCall(Bench(PetscBasename(files[f]), &c, reps, bw, csv));
      PetscCall(CSRDestroy(&c));
    } else PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n%s: complex matrix skipped in a real build\n", files[f]));
    PetscCall(PetscFree(files[f]));
  }
  if (csv) PetscCall(PetscFClose(PETSC_COMM_SELF, csv));
  PetscCall(PetscFinalize());
  return 0;
}
