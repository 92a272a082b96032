static char help[] = "CA-GMRES benchmark: KSPCAGMRES(s, m) against KSPGMRES(m) (classical Gram-Schmidt) with the same\n\
restart length, tolerance and preconditioner, on 3D convection-diffusion problems (DMDA, 7-point, upwind), for\n\
each matrix type; prints a Markdown table with the time per restart split into MPK (SpMV), BOrth, TSQR and the rest.\n\
  -n <160>              grid points per direction (160: 4.1 M rows)\n\
  -mat_types <aijcusparse,pjdscuda>  matrix types (the vectors follow the matrix: CUDA vectors on the GPU)\n\
  -s <10> -m <30>       CA-GMRES block size and the restart length of both methods\n\
  -rtol <1e-6>          relative tolerance;  -pc <jacobi> preconditioner of both\n\
  -peclet <100>         wind speed of the first problem (constant wind (1, 1/2, 1/4))\n\
  -hard_peclet <400>    wind speed of the second problem, a recirculating wind (hard for restarted GMRES)\n\
  -sync_events          time the events with device synchronization (PetscLogGpuTime) for an exact split\n\n";

#include <petscdmda.h>
#include <petscksp.h>
#include <petscjagged.h>
#include "convdiff.h"

/* The recirculating wind peclet (y - 1/2, 1/2 - x, 0); ctx: peclet */
static void RecirculatingWind(PetscInt i, PetscInt j, PetscInt k, PetscReal h, const void *ctx, PetscReal w[3])
{
  const PetscReal peclet = *(const PetscReal *)ctx;

  (void)k;
  w[0] = peclet * ((j + 1) * h - 0.5);
  w[1] = peclet * (0.5 - (i + 1) * h);
  w[2] = 0;
}

/* -div grad u + w . grad u on the unit cube, first-order upwind: w = peclet (1, 1/2, 1/4), or recirculating */
static PetscErrorCode Assemble(DM da, PetscReal peclet, PetscBool recirculating, Mat A)
{
  const PetscReal w[3] = {peclet, peclet / 2, peclet / 4};

  PetscFunctionBeginUser;
  PetscCall(ConvDiffSetValues(da, NULL, PETSC_FALSE, recirculating ? RecirculatingWind : ConvDiffConstantWind, recirculating ? (const void *)&peclet : (const void *)w, A));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Time of a log event in a stage; 0 when the event was never registered */
static PetscErrorCode EventTime(PetscLogStage stage, const char *name, PetscReal *t)
{
  PetscLogEvent      ev;
  PetscEventPerfInfo info;

  PetscFunctionBeginUser;
  *t = 0;
  PetscCall(PetscLogEventGetId(name, &ev));
  if (ev < 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventGetPerfInfo(stage, ev, &info));
  *t = info.time;
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt  its, restarts;
  PetscReal total, spmv, borth, tsqr, rest, relres;
} Result;

/* One timed solve (after a warm-up solve) in its own log stage */
static PetscErrorCode Run(Mat A, Vec b, const char *label, KSPType type, PetscInt s, PetscInt m, PetscReal rtol, const char *pc, Result *r)
{
  KSP            ksp;
  PC             kpc;
  Vec            x, res;
  PetscLogStage  stage;
  PetscLogDouble t0, t1;
  PetscReal      nb;
  PetscBool      ca;

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(type, KSPCAGMRES, &ca));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &res));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, type));
  PetscCall(KSPGetPC(ksp, &kpc));
  PetscCall(PCSetType(kpc, pc));
  PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
  PetscCall(KSPSetTolerances(ksp, rtol, PETSC_CURRENT, PETSC_CURRENT, 100000));
  PetscCall(KSPGMRESSetRestart(ksp, m));
  if (ca) PetscCall(KSPCAGMRESSetBlockSize(ksp, s)); /* GMRES: PETSc's default, classical Gram-Schmidt without refinement */
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp));
  PetscCall(KSPSolve(ksp, b, x)); /* warm-up: set-up, device copies, library initialization */
  PetscCall(PetscLogStageRegister(label, &stage));
  PetscCall(PetscLogStagePush(stage));
  PetscCall(VecSet(x, 0.0));
  PetscCall(PetscBarrier((PetscObject)ksp));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(VecNorm(x, NORM_2, &nb)); /* waits for the device */
  PetscCall(PetscTime(&t1));
  PetscCall(PetscLogStagePop());
  PetscCall(KSPGetIterationNumber(ksp, &r->its));
  r->restarts = (r->its + m - 1) / m;
  r->total    = t1 - t0;
  if (ca) {
    PetscCall(EventTime(stage, "MatPowers", &r->spmv));
    PetscCall(EventTime(stage, "KSPCAGMRESBOrth", &r->borth));
    PetscCall(EventTime(stage, "KSPCAGMRESTSQR", &r->tsqr));
  } else {
    PetscReal pct;

    PetscCall(EventTime(stage, "MatMult", &r->spmv));
    PetscCall(EventTime(stage, "PCApply", &pct));
    r->spmv += pct;
    PetscCall(EventTime(stage, "VecMDot", &r->borth)); /* the Gram-Schmidt of GMRES: VecMDot, VecMAXPY, VecNormalize */
    PetscCall(EventTime(stage, "VecMAXPY", &pct));
    r->borth += pct;
    PetscCall(EventTime(stage, "VecNormalize", &pct));
    r->borth += pct;
    r->tsqr = 0;
  }
  r->rest = r->total - r->spmv - r->borth - r->tsqr;
  PetscCall(MatMult(A, x, res));
  PetscCall(VecAYPX(res, -1.0, b));
  PetscCall(VecNorm(res, NORM_2, &r->relres));
  PetscCall(VecNorm(b, NORM_2, &nb));
  r->relres /= nb;
  PetscCall(KSPViewFromOptions(ksp, NULL, "-bench_ksp_view"));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&res));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PrintRow(const char *problem, const char *mtype, const char *solver, Result r, PetscReal speedup)
{
  const PetscReal ms = 1e3 / PetscMax(r.restarts, 1);

  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "| %s | %s | %s | %" PetscInt_FMT " | %" PetscInt_FMT " | %.3f | %.2f | %.2f | %.2f | %.2f | %.2f | %.1e | %.2fx |\n", problem, mtype, solver, r.its, r.restarts, (double)r.total, (double)(r.total * ms), (double)(r.spmv * ms),
                        (double)(r.borth * ms), (double)(r.tsqr * ms), (double)(r.rest * ms), (double)r.relres, (double)speedup));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt  n = 160, s = 10, m = 30, ntypes = 8;
  PetscReal rtol = 1e-6, peclet = 100, hard = 400;
  char     *types[8], pc[32] = PCJACOBI;
  PetscBool set, sync = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscJaggedInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-s", &s, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-m", &m, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-rtol", &rtol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-peclet", &peclet, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-hard_peclet", &hard, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-pc", pc, sizeof(pc), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-sync_events", &sync, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-mat_types", types, &ntypes, &set));
  if (!set) {
    ntypes = 2;
    PetscCall(PetscStrallocpy(MATAIJCUSPARSE, &types[0]));
    PetscCall(PetscStrallocpy(MATPJDSCUDA, &types[1]));
  }
  PetscCall(PetscLogDefaultBegin());
  if (sync) PetscCall(PetscLogGpuTime());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "CA-GMRES(s=%" PetscInt_FMT ", m=%" PetscInt_FMT ") vs GMRES(m=%" PetscInt_FMT ", CGS), PC %s, rtol %g, %" PetscInt_FMT "^3 grid; times per restart in ms%s\n\n", s, m, m, pc, (double)rtol, n, sync ? " (events synchronized)" : ""));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "| problem | matrix | solver | its | restarts | total s | per restart | SpMV/MPK | ortho/BOrth | TSQR | rest | true rel. res. | speedup |\n"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"));
  for (PetscInt p = 0; p < 2; p++) {
    const char *problem = p ? "recirculating" : "convection-diffusion";
    DM          da;

    PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
    PetscCall(DMSetUp(da));
    for (PetscInt t = 0; t < ntypes; t++) {
      Mat    A;
      Vec    xe, b;
      Result g, c;
      char   label[64];

      PetscCall(DMSetMatType(da, types[t]));
      PetscCall(DMCreateMatrix(da, &A));
      PetscCall(Assemble(da, p ? hard : peclet, (PetscBool)p, A));
      PetscCall(MatCreateVecs(A, &xe, &b));
      PetscCall(VecSet(xe, 1.0));
      PetscCall(MatMult(A, xe, b));
      PetscCall(PetscSNPrintf(label, sizeof(label), "GMRES %s %" PetscInt_FMT, types[t], p));
      PetscCall(Run(A, b, label, KSPGMRES, s, m, rtol, pc, &g));
      PetscCall(PetscSNPrintf(label, sizeof(label), "CAGMRES %s %" PetscInt_FMT, types[t], p));
      PetscCall(Run(A, b, label, KSPCAGMRES, s, m, rtol, pc, &c));
      PetscCall(PrintRow(problem, types[t], "GMRES", g, 1.0));
      PetscCall(PrintRow(problem, types[t], "CA-GMRES", c, g.total / c.total));
      PetscCall(VecDestroy(&xe));
      PetscCall(VecDestroy(&b));
      PetscCall(MatDestroy(&A));
    }
    PetscCall(DMDestroy(&da));
  }
  for (PetscInt t = 0; t < ntypes; t++) PetscCall(PetscFree(types[t]));
  PetscCall(PetscFinalize());
  return 0;
}
