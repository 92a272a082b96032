static char help[] = "Time to solution of the mixed-precision inner-outer CG (KSPMPCG + PCSPCG) against KSPCG in\n\
double precision with MATAIJCUSPARSE and with MATPJDSCUDA, in one run on one GPU.\n\
  -n <200>            3D grid edge (n^3 rows) of the 7-point operators\n\
  -n27 <160>          3D grid edge of the 27-point operator\n\
  -problems <poisson7,aniso,poisson27>  which operators\n\
  -eps <0.01>         anisotropy of -problems aniso (couplings along z)\n\
  -rtol <1e-10>       relative residual of every solver\n\
  -inner <10,20>      inner iterations of the PCSPCG runs (one run each)\n\
  -csv <file>         write the results as CSV;  -history <file>: residual against time, CSV\n\n";

#include <petscjagged.h>
#include <petscdevice_cuda.h>
#include "stencil.h"

#define MAX_HISTORY 20000

typedef struct {
  PetscLogDouble t0;
  PetscReal      bnorm;
  PetscInt       n;
  double         t[MAX_HISTORY], r[MAX_HISTORY];
} History;

/* records (seconds since the solve began, relative residual norm) */
static PetscErrorCode Record(KSP ksp, PetscInt it, PetscReal rnorm, void *ctx)
{
  History       *h = (History *)ctx;
  PetscLogDouble now;

  PetscFunctionBeginUser;
  PetscCall(PetscTime(&now));
  if (h->n < MAX_HISTORY) {
    h->t[h->n] = now - h->t0;
    h->r[h->n] = rnorm / h->bnorm;
    h->n++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  const char *name;
  MatType     mtype;
  KSPType     ktype;
  PetscInt    inner; /* PCSPCG inner iterations; 0: plain CG */
  PetscBool   graph;
} Solver;

typedef struct {
  PetscReal setup, solve, relres, share;
  PetscInt  its, inner;
} Result;

/* Seconds of one PCApply(), averaged over a few, synchronized */
static PetscErrorCode TimeApply(PC pc, Vec b, PetscReal *sec)
{
  Vec            z;
  PetscLogDouble t0, t1;
  const PetscInt reps = 5;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &z));
  PetscCall(PCApply(pc, b, z));
  PetscCallCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(&t0));
  for (PetscInt k = 0; k < reps; k++) PetscCall(PCApply(pc, b, z));
  PetscCallCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(&t1));
  *sec = (t1 - t0) / reps;
  PetscCall(VecDestroy(&z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Run(Mat A0, Vec b0, const Solver *s, PetscReal rtol, History *h, Result *res)
{
  Mat            A;
  KSP            ksp;
  PC             pc;
  Vec            b, x, r;
  PetscLogDouble t0, t1;
  PetscReal      bnorm;
  PetscInt       napply0 = 0, inner0 = 0;
  char           opt[32];

  PetscFunctionBeginUser;
  PetscCall(MatConvert(A0, s->mtype, MAT_INITIAL_MATRIX, &A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(VecCopy(b0, b));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, s->ktype));
  PetscCall(KSPGetPC(ksp, &pc));
  if (s->inner) {
    PetscCall(PCSetType(pc, PCSPCG));
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "%" PetscInt_FMT, s->inner));
    PetscCall(PetscOptionsSetValue(NULL, "-bench_pc_spcg_max_it", opt));
    PetscCall(PetscOptionsSetValue(NULL, "-bench_pc_spcg_cuda_graph", s->graph ? "1" : "0"));
  } else PetscCall(PCSetType(pc, PCNONE));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPSetTolerances(ksp, rtol, 0.0, PETSC_CURRENT, 100000));
  PetscCall(KSPSetOptionsPrefix(ksp, "bench_"));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCallCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSetUp(ksp));
  PetscCallCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(&t1));
  res->setup = t1 - t0;
  /* warm-up: a few iterations (libraries, graph capture) */
  PetscCall(KSPSetTolerances(ksp, rtol, 0.0, PETSC_CURRENT, 3));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPSetTolerances(ksp, rtol, 0.0, PETSC_CURRENT, 100000));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  h->bnorm = bnorm;
  h->n     = 0;
  PetscCall(KSPMonitorSet(ksp, Record, h, NULL));
  PetscCall(VecSet(x, 0.0));
  if (s->inner) PetscCall(PCSPCGGetInnerIterations(pc, &napply0, &inner0));
  PetscCallCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(&t0));
  h->t0 = t0;
  PetscCall(KSPSolve(ksp, b, x));
  PetscCallCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(&t1));
  res->solve = t1 - t0;
  PetscCall(KSPGetIterationNumber(ksp, &res->its));
  {
    KSPConvergedReason reason;
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%s did not converge: %s", s->name, KSPConvergedReasons[reason]);
  }
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &res->relres));
  res->relres /= bnorm;
  res->inner = 0;
  res->share = 0;
  if (s->inner) {
    PetscInt  napply;
    PetscReal apply;

    PetscCall(PCSPCGGetInnerIterations(pc, &napply, &res->inner));
    napply -= napply0;
    res->inner -= inner0;
    PetscCall(TimeApply(pc, b, &apply));
    res->share = PetscMin(1.0, napply * apply / res->solve);
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&r));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt              n = 200, n27 = 160, inner[8] = {10, 20}, ninner = 8, nprob = 8;
  char                 *problems[8], csvname[PETSC_MAX_PATH_LEN] = "", histname[PETSC_MAX_PATH_LEN] = "";
  PetscReal             eps = 0.01, rtol = 1e-10;
  PetscBool             set, iset;
  FILE                 *csv = NULL, *hist = NULL;
  struct cudaDeviceProp prop;
  int                   dev;
  static History        h;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscJaggedInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Mixed-precision CG benchmark options", NULL);
  PetscCall(PetscOptionsInt("-n", "3D grid edge, 7-point operators", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-n27", "3D grid edge, 27-point operator", NULL, n27, &n27, NULL));
  PetscCall(PetscOptionsStringArray("-problems", "operators: poisson7, aniso, poisson27", NULL, problems, &nprob, &set));
  PetscCall(PetscOptionsReal("-eps", "anisotropy", NULL, eps, &eps, NULL));
  PetscCall(PetscOptionsReal("-rtol", "relative residual", NULL, rtol, &rtol, NULL));
  PetscCall(PetscOptionsIntArray("-inner", "inner iterations of the PCSPCG runs", NULL, inner, &ninner, &iset));
  PetscCall(PetscOptionsString("-csv", "CSV output", NULL, csvname, csvname, sizeof(csvname), NULL));
  PetscCall(PetscOptionsString("-history", "residual history CSV", NULL, histname, histname, sizeof(histname), NULL));
  PetscOptionsEnd();
  if (!iset) ninner = 2;
  if (!set) {
    nprob = 3;
    PetscCall(PetscStrallocpy("poisson7", &problems[0]));
    PetscCall(PetscStrallocpy("aniso", &problems[1]));
    PetscCall(PetscStrallocpy("poisson27", &problems[2]));
  }
  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
  PetscCallCUDA(cudaGetDevice(&dev));
  PetscCallCUDA(cudaGetDeviceProperties(&prop, dev));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "GPU: %s; relative residual %g; times in seconds\n", prop.name, (double)rtol));
  if (csvname[0]) {
    PetscCall(PetscFOpen(PETSC_COMM_SELF, csvname, "w", &csv));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, "# %s\nproblem,rows,solver,outer_its,inner_its,setup_s,solve_s,true_relres,x_cg_aijcusparse,x_cg_pjdscuda,inner_share\n", prop.name));
  }
  if (histname[0]) {
    PetscCall(PetscFOpen(PETSC_COMM_SELF, histname, "w", &hist));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, hist, "problem,solver,seconds,relres\n"));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n| problem | rows | solver | outer its | inner its | setup | solve | true rel. residual | x CG+AIJCUSPARSE | x CG+pJDS | inner share |\n|---|---|---|---|---|---|---|---|---|---|---|\n"));
  for (PetscInt p = 0; p < nprob; p++) {
    CSR         c;
    Mat         A0;
    Vec         b0, xe;
    PetscRandom rnd;
    Solver      solvers[12];
    PetscInt    ns = 0;
    PetscReal   t_aij = 0, t_pjds = 0;
    char        names[8][48];

    if (!strcmp(problems[p], "poisson7")) PetscCall(Stencil(3, 7, n, PETSC_FALSE, 1.0, &c));
    else if (!strcmp(problems[p], "aniso")) PetscCall(Stencil(3, 7, n, PETSC_FALSE, eps, &c));
    else if (!strcmp(problems[p], "poisson27")) PetscCall(Stencil(3, 27, n27, PETSC_FALSE, 1.0, &c));
    else SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "Unknown problem %s", problems[p]);
    PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, c.m, c.n, c.i, c.j, c.a, &A0));
    PetscCall(MatCreateVecs(A0, &xe, &b0));
    PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
    PetscCall(VecSetRandom(xe, rnd));
    PetscCall(MatMult(A0, xe, b0));
    solvers[ns++] = (Solver){"CG AIJCUSPARSE fp64", MATAIJCUSPARSE, KSPCG, 0, PETSC_FALSE};
    solvers[ns++] = (Solver){"CG pJDS fp64", MATPJDSCUDA, KSPCG, 0, PETSC_FALSE};
    for (PetscInt k = 0; k < ninner && k < 8; k++) {
      PetscCall(PetscSNPrintf(names[k], sizeof(names[k]), "MPCG + SPCG(%" PetscInt_FMT ") pJDS", inner[k]));
      solvers[ns++] = (Solver){names[k], MATPJDSCUDA, KSPMPCG, inner[k], PETSC_TRUE};
    }
    solvers[ns++] = (Solver){"MPCG + SPCG(first) pJDS no CUDA graph", MATPJDSCUDA, KSPMPCG, inner[0], PETSC_FALSE};
    for (PetscInt k = 0; k < ns; k++) {
      Result r;

      PetscCall(Run(A0, b0, &solvers[k], rtol, &h, &r));
      if (k == 0) t_aij = r.solve;
      if (k == 1) t_pjds = r.solve;
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "| %s | %" PetscInt_FMT " | %s | %" PetscInt_FMT " | %" PetscInt_FMT " | %.3f | %.3f | %.1e | %.2f | %.2f | %.0f%% |\n", problems[p], c.m, solvers[k].name, r.its, r.inner, r.setup, r.solve, (double)r.relres, t_aij / r.solve, t_pjds ? t_pjds / r.solve : 1.0, 100 * r.share));
      if (csv) PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, "%s,%" PetscInt_FMT ",%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%g,%g,%g,%g,%g,%g\n", problems[p], c.m, solvers[k].name, r.its, r.inner, r.setup, r.solve, (double)r.relres, t_aij / r.solve, t_pjds ? t_pjds / r.solve : 1.0, r.share));
      if (hist)
        for (PetscInt i = 0; i < h.n; i++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, hist, "%s,%s,%g,%g\n", problems[p], solvers[k].name, h.t[i], h.r[i]));
    }
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(VecDestroy(&xe));
    PetscCall(VecDestroy(&b0));
    PetscCall(MatDestroy(&A0));
    PetscCall(CSRDestroy(&c));
    PetscCall(PetscFree(problems[p]));
  }
  if (csv) PetscCall(PetscFClose(PETSC_COMM_SELF, csv));
  if (hist) PetscCall(PetscFClose(PETSC_COMM_SELF, hist));
  PetscCall(PetscFinalize());
  return 0;
}
