static char help[] = "Checks KSPCAGMRES against KSPGMRES with the same restart length: true residual, iterations, error.\n\
  -problem <cd2|cd3|mtx|diag3|zero|nan>  convection-diffusion (2D 5-point, 3D 7-point, upwind), a Matrix Market file,\n\
                  a diagonal matrix with 3 distinct values, a zero or a NaN right-hand side\n\
  -n <32>         grid points per direction;  -peclet <40> convection speed (grid Peclet number peclet/n)\n\
  -f <file>       Matrix Market file (-problem mtx);  -scale <1> multiplies the matrix\n\
  -rtol <1e-8>    relative tolerance;  -m <30> restart length;  -pc <none> preconditioner of both solvers\n\
  -side <right>   preconditioner side of both solvers; left: the residuals are the preconditioned ones\n\
  -sweep          s = -smin..-smax (1..10) x every TSQR scheme; the restart length is s * round(m / s)\n\
  -margin <0.1>   CA-GMRES may take at most margin * (GMRES iterations) + 5 more (or fewer) iterations\n\
  -check_error <1> the error against the exact solution at most 10 x GMRES's + 10 rtol (off for ill-conditioned matrices)\n\
  -basis_test     Newton must converge, the monomial basis (same s, m) must not converge or take twice as many iterations\n\
  -compare_seq    also solve the whole system on each process alone: same iterations (+-1) and solution\n\
  -expect <converged|nanorinf|diverged>  the outcome of the CA-GMRES solve (-ca_ options)\n\n";

#include <petscjagged.h>
#include <petscjagged/private/mtxload.h>

typedef struct {
  KSPConvergedReason reason;
  PetscInt           its;
  PetscReal          relres, err; /* ||b - A x|| / ||b|| (left: ||M^{-1}(b - A x)|| / ||M^{-1} b||), ||x - xe|| / ||xe|| */
} Outcome;

static PCSide side = PC_RIGHT; /* -side, of both solvers */

/* -div(grad u) + w . grad u on the unit square/cube, n points per direction, first-order upwind, w = peclet (1, 1/2, 1/4) */
static PetscErrorCode ConvectionDiffusion(MPI_Comm comm, PetscInt d, PetscInt n, PetscReal peclet, Mat *A)
{
  PetscInt        N = d == 2 ? n * n : n * n * n, rstart, rend;
  const PetscReal h = 1.0 / (n + 1), w[3] = {peclet, peclet / 2, peclet / 4};

  PetscFunctionBeginUser;
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, N, N));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatSeqAIJSetPreallocation(*A, 7, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, 7, NULL, 6, NULL));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  for (PetscInt r = rstart; r < rend; r++) {
    PetscInt    x[3] = {r % n, (r / n) % n, d == 3 ? r / (n * n) : 0}, stride[3] = {1, n, n * n};
    PetscScalar diag = 0;

    for (PetscInt k = 0; k < d; k++) {
      PetscReal lo = -1.0 / (h * h) - w[k] / h, hi = -1.0 / (h * h); /* upwind for w > 0: (u_i - u_{i-1}) / h */

      diag += 2.0 / (h * h) + w[k] / h;
      if (x[k] > 0) PetscCall(MatSetValue(*A, r, r - stride[k], lo, INSERT_VALUES));
      if (x[k] < n - 1) PetscCall(MatSetValue(*A, r, r + stride[k], hi, INSERT_VALUES));
    }
    PetscCall(MatSetValue(*A, r, r, diag, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* diagonal with the values 1, 2, 3 in turn: the Krylov space of any vector has dimension at most 3 */
static PetscErrorCode Diag3(MPI_Comm comm, PetscInt N, Mat *A)
{
  PetscInt rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, N, N));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatSeqAIJSetPreallocation(*A, 1, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, 1, NULL, 0, NULL));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  for (PetscInt r = rstart; r < rend; r++) PetscCall(MatSetValue(*A, r, r, (PetscScalar)(1 + r % 3), INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BuildMatrix(MPI_Comm comm, const char *problem, Mat *A)
{
  PetscInt  n = 32;
  PetscReal peclet = 40, scale = 1;
  char      file[PETSC_MAX_PATH_LEN] = "";
  MtxSymmetry sym;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-peclet", &peclet, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-scale", &scale, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", file, sizeof(file), NULL));
  if (!strcmp(problem, "cd3")) PetscCall(ConvectionDiffusion(comm, 3, n, peclet, A));
  else if (!strcmp(problem, "mtx")) PetscCall(MtxLoad(comm, file, &sym, A));
  else if (!strcmp(problem, "diag3")) PetscCall(Diag3(comm, n * n, A));
  else PetscCall(ConvectionDiffusion(comm, 2, n, peclet, A));
  if (scale != 1) PetscCall(MatScale(*A, scale));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Solves with GMRES (classical Gram-Schmidt) or CA-GMRES(s, m) (s = 0: the -ca_ options decide), pc and side for both */
static PetscErrorCode Solve(Mat A, Vec b, Vec xe, KSPType type, PetscInt s, PetscInt m, KSPCAGMRESOrthogonalization tsqr, PetscBool monomial, const char *pc, PetscReal rtol, Vec x, Outcome *o)
{
  KSP       ksp;
  PC        kpc;
  Vec       r;
  PetscReal nb, ne;
  PetscBool ca;

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(type, KSPCAGMRES, &ca));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, ca ? "ca_" : "gmres_"));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, type));
  PetscCall(KSPGetPC(ksp, &kpc));
  PetscCall(PCSetType(kpc, pc));
  PetscCall(KSPSetPCSide(ksp, side)); /* GMRES too: the same residual norm */
  PetscCall(KSPSetTolerances(ksp, rtol, 1e-300, PETSC_CURRENT, 20000));
  PetscCall(KSPGMRESSetRestart(ksp, m));
  if (ca && s) {
    PetscCall(KSPCAGMRESSetBlockSize(ksp, s));
    PetscCall(KSPCAGMRESSetOrthogonalization(ksp, tsqr));
    PetscCall(KSPCAGMRESSetBasis(ksp, monomial ? KSP_CAGMRES_BASIS_MONOMIAL : KSP_CAGMRES_BASIS_NEWTON));
  }
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &o->reason));
  PetscCall(KSPGetIterationNumber(ksp, &o->its));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  if (side == PC_LEFT) { /* the preconditioned residual against the preconditioned right-hand side */
    Vec t;

    PetscCall(VecDuplicate(b, &t));
    PetscCall(PCApply(kpc, r, t));
    PetscCall(VecNorm(t, NORM_2, &o->relres));
    PetscCall(PCApply(kpc, b, t));
    PetscCall(VecNorm(t, NORM_2, &nb));
    PetscCall(VecDestroy(&t));
  } else {
    PetscCall(VecNorm(r, NORM_2, &o->relres));
    PetscCall(VecNorm(b, NORM_2, &nb));
  }
  o->relres = nb > 0 ? o->relres / nb : o->relres;
  PetscCall(VecWAXPY(r, -1.0, xe, x));
  PetscCall(VecNorm(r, NORM_2, &o->err));
  PetscCall(VecNorm(xe, NORM_2, &ne));
  o->err = ne > 0 ? o->err / ne : o->err;
  PetscCall(KSPViewFromOptions(ksp, NULL, "-view"));
  PetscCall(VecDestroy(&r));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CA-GMRES converged to rtol (true residual), its iterations within the margin of GMRES's, its error not far above GMRES's */
static PetscErrorCode CheckAgainstGMRES(const char *what, Outcome ca, Outcome gm, PetscReal rtol, PetscReal margin, PetscInt *nchecks)
{
  PetscBool check_error = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check_error", &check_error, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %s, %" PetscInt_FMT " iterations (gmres %" PetscInt_FMT "), true relative residual %.2e, relative error %.2e (gmres %.2e)\n", what, KSPConvergedReasons[ca.reason], ca.its, gm.its, (double)ca.relres, (double)ca.err, (double)gm.err));
  PetscCheck(gm.reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%s: the reference GMRES did not converge (%s)", what, KSPConvergedReasons[gm.reason]);
  PetscCheck(ca.reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%s: did not converge (%s)", what, KSPConvergedReasons[ca.reason]);
  PetscCheck(ca.relres <= 1.001 * rtol, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%s: true relative residual %g above %g", what, (double)ca.relres, (double)rtol);
  PetscCheck(PetscAbsReal((PetscReal)(ca.its - gm.its)) <= margin * gm.its + 5, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%s: %" PetscInt_FMT " iterations, GMRES %" PetscInt_FMT ": more than %g%% + 5 apart", what, ca.its, gm.its, (double)(100 * margin));
  PetscCheck(!check_error || ca.err <= 10 * gm.err + 10 * rtol, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "%s: relative error %g far above GMRES's %g", what, (double)ca.err, (double)gm.err);
  (*nchecks)++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The same system on this process alone (a copy of the matrix and vectors on PETSC_COMM_SELF): same iterations and solution */
static PetscErrorCode CompareWithSequential(const char *problem, Vec b, Vec xe, Vec x, const char *pc, PetscInt m, PetscReal rtol, Outcome par, PetscInt *nchecks)
{
  Mat        As;
  Vec        bs, xes, xs, xg;
  VecScatter sc;
  Outcome    seq;
  PetscReal  d, nx;

  PetscFunctionBeginUser;
  PetscCall(BuildMatrix(PETSC_COMM_SELF, problem, &As));
  PetscCall(VecScatterCreateToAll(b, &sc, &bs));
  PetscCall(VecDuplicate(bs, &xes));
  PetscCall(VecDuplicate(bs, &xg));
  PetscCall(VecScatterBegin(sc, b, bs, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sc, b, bs, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterBegin(sc, xe, xes, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sc, xe, xes, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterBegin(sc, x, xg, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sc, x, xg, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(MatCreateVecs(As, &xs, NULL));
  { /* the vectors in the matrix's vector type */
    Vec t;
    PetscCall(MatCreateVecs(As, &t, NULL));
    PetscCall(VecCopy(bs, t));
    PetscCall(VecDestroy(&bs));
    bs = t;
    PetscCall(MatCreateVecs(As, &t, NULL));
    PetscCall(VecCopy(xes, t));
    PetscCall(VecDestroy(&xes));
    xes = t;
  }
  PetscCall(Solve(As, bs, xes, KSPCAGMRES, 0, m, KSP_CAGMRES_TSQR_CHOLQR, PETSC_FALSE, pc, rtol, xs, &seq));
  PetscCall(VecAXPY(xg, -1.0, xs));
  PetscCall(VecNorm(xg, NORM_2, &d));
  PetscCall(VecNorm(xs, NORM_2, &nx));
  d /= nx;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "one process: %s, %" PetscInt_FMT " iterations (all processes %" PetscInt_FMT "); solutions differ by %.2e relative\n", KSPConvergedReasons[seq.reason], seq.its, par.its, (double)d));
  PetscCheck(seq.reason > 0, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "one-process solve did not converge");
  PetscCheck(PetscAbs(seq.its - par.its) <= 1, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "iterations on one process %" PetscInt_FMT ", on all %" PetscInt_FMT, seq.its, par.its);
  PetscCheck(d <= 100 * rtol, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "solutions on one and on all processes differ by %g relative (bound 100 rtol)", (double)d);
  (*nchecks)++;
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(VecDestroy(&bs));
  PetscCall(VecDestroy(&xes));
  PetscCall(VecDestroy(&xs));
  PetscCall(VecDestroy(&xg));
  PetscCall(MatDestroy(&As));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char        problem[32] = "cd2", expect[32] = "converged", pc[32] = PCNONE;
  PetscInt    m = 30, smin = 1, smax = 10, nchecks = 0;
  PetscReal   rtol = 1e-8, margin = 0.1;
  PetscBool   sweep = PETSC_FALSE, basis_test = PETSC_FALSE, compare_seq = PETSC_FALSE;
  Mat         A;
  Vec         xe, b, x;
  PetscRandom rnd;
  Outcome     gm, ca;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscJaggedInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-problem", problem, sizeof(problem), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-expect", expect, sizeof(expect), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-pc", pc, sizeof(pc), NULL));
  PetscCall(PetscOptionsGetEnum(NULL, NULL, "-side", PCSides, (PetscEnum *)&side, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-m", &m, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-smin", &smin, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-smax", &smax, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-rtol", &rtol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-margin", &margin, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-sweep", &sweep, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-basis_test", &basis_test, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-compare_seq", &compare_seq, NULL));

  PetscCall(BuildMatrix(PETSC_COMM_WORLD, problem, &A));
  PetscCall(MatCreateVecs(A, &xe, &b));
  PetscCall(VecDuplicate(xe, &x));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetFromOptions(rnd));
  PetscCall(VecSetRandom(xe, rnd));
  PetscCall(MatMult(A, xe, b));
  if (!strcmp(problem, "zero")) {
    PetscCall(VecSet(b, 0.0));
    PetscCall(VecSet(xe, 0.0));
  }
  if (!strcmp(problem, "nan")) PetscCall(VecFlag(b, PETSC_TRUE));

  if (sweep) {
    const KSPCAGMRESOrthogonalization schemes[] = {KSP_CAGMRES_TSQR_CHOLQR, KSP_CAGMRES_TSQR_SVQR, KSP_CAGMRES_TSQR_CAQR, KSP_CAGMRES_TSQR_MGS, KSP_CAGMRES_TSQR_CGS};
    PetscInt                          mlast    = -1;

    for (PetscInt s = smin; s <= smax; s++) {
      PetscInt ms = s * PetscMax(1, (m + s / 2) / s);

      if (ms != mlast) PetscCall(Solve(A, b, xe, KSPGMRES, 0, ms, KSP_CAGMRES_TSQR_CHOLQR, PETSC_FALSE, pc, rtol, x, &gm));
      mlast = ms;
      for (PetscInt t = 0; t < 5; t++) {
        char what[128];

        PetscCall(Solve(A, b, xe, KSPCAGMRES, s, ms, schemes[t], PETSC_FALSE, pc, rtol, x, &ca));
        PetscCall(PetscSNPrintf(what, sizeof(what), "cagmres(s=%" PetscInt_FMT ", m=%" PetscInt_FMT ") %-6s", s, ms, KSPCAGMRESOrthogonalizations[schemes[t]]));
        PetscCall(CheckAgainstGMRES(what, ca, gm, rtol, margin, &nchecks));
      }
    }
  } else if (basis_test) {
    Outcome mono;

    PetscCall(Solve(A, b, xe, KSPGMRES, 0, m, KSP_CAGMRES_TSQR_CHOLQR, PETSC_FALSE, pc, rtol, x, &gm));
    PetscCall(Solve(A, b, xe, KSPCAGMRES, smax, m, KSP_CAGMRES_TSQR_CHOLQR, PETSC_FALSE, pc, rtol, x, &ca));
    PetscCall(CheckAgainstGMRES("newton basis", ca, gm, rtol, margin, &nchecks));
    PetscCall(Solve(A, b, xe, KSPCAGMRES, smax, m, KSP_CAGMRES_TSQR_CHOLQR, PETSC_TRUE, pc, rtol, x, &mono));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "monomial basis: %s, %" PetscInt_FMT " iterations, true relative residual %.2e\n", KSPConvergedReasons[mono.reason], mono.its, (double)mono.relres));
    PetscCheck(mono.reason < 0 || mono.its >= 2 * ca.its, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the monomial basis converged in %" PetscInt_FMT " iterations, the Newton basis took %" PetscInt_FMT ": no stall shown", mono.its, ca.its);
    PetscCheck(mono.reason < 0 || mono.relres <= 1.001 * rtol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the monomial basis reported convergence with a true residual %g", (double)mono.relres);
    nchecks++;
  } else {
    PetscCall(Solve(A, b, xe, KSPCAGMRES, 0, m, KSP_CAGMRES_TSQR_CHOLQR, PETSC_FALSE, pc, rtol, x, &ca));
    if (!strcmp(expect, "converged")) {
      if (!strcmp(problem, "zero") || !strcmp(problem, "diag3")) { /* exact answers known: x = 0 in 0 iterations; at most 3 iterations */
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "cagmres: %s, %" PetscInt_FMT " iterations, true relative residual %.2e, relative error %.2e\n", KSPConvergedReasons[ca.reason], ca.its, (double)ca.relres, (double)ca.err));
        PetscCheck(ca.reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "did not converge");
        if (!strcmp(problem, "zero")) PetscCheck(ca.its == 0 && ca.err == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "zero right-hand side: %" PetscInt_FMT " iterations, |x| %g", ca.its, (double)ca.err);
        else PetscCheck(ca.its <= 3 && ca.relres <= rtol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "3 distinct eigenvalues: %" PetscInt_FMT " iterations, true residual %g", ca.its, (double)ca.relres);
        nchecks++;
      } else {
        PetscCall(Solve(A, b, xe, KSPGMRES, 0, m, KSP_CAGMRES_TSQR_CHOLQR, PETSC_FALSE, pc, rtol, x, &gm));
        PetscCall(CheckAgainstGMRES("cagmres", ca, gm, rtol, margin, &nchecks));
        if (compare_seq) { /* x again: the GMRES solve overwrote it */
          PetscCall(Solve(A, b, xe, KSPCAGMRES, 0, m, KSP_CAGMRES_TSQR_CHOLQR, PETSC_FALSE, pc, rtol, x, &ca));
          PetscCall(CompareWithSequential(problem, b, xe, x, pc, m, rtol, ca, &nchecks));
        }
      }
    } else {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "cagmres: %s, %" PetscInt_FMT " iterations\n", KSPConvergedReasons[ca.reason], ca.its));
      if (!strcmp(expect, "nanorinf")) PetscCheck(ca.reason == KSP_DIVERGED_NANORINF, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "expected DIVERGED_NANORINF");
      else PetscCheck(ca.reason < 0 && ca.relres > rtol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "expected a divergence reason and an unconverged true residual (%g)", (double)ca.relres);
      nchecks++;
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all %" PetscInt_FMT " checks passed\n", nchecks));
  PetscCall(VecDestroy(&xe));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # Every CA-GMRES solve: converged, true relative residual <= rtol, iterations within 10% + 5 of
   # KSPGMRES(m) (classical Gram-Schmidt, same PC and side: right unless -side left, where the residuals
   # are the preconditioned ones), error <= 10 x GMRES's + 10 rtol; the reference output ends with
   # "all N checks passed". Complex builds draw complex random vectors, a different problem: their
   # iteration counts are in the alternative outputs output/cagmrestest_<suffix>_alt.out.
   test:
      suffix: sweep_cd2
      args: -problem cd2 -n 32 -sweep
   test:
      suffix: sweep_cd3
      args: -problem cd3 -n 12 -sweep -pc jacobi
   test:
      suffix: cd2_jacobi_np1
      args: -problem cd2 -n 48 -pc jacobi -compare_seq
   test:
      suffix: cd2_jacobi_np2
      nsize: 2
      args: -problem cd2 -n 48 -pc jacobi -compare_seq -ca_mat_powers_type ghosted
   test:
      suffix: cd3_np4
      nsize: 4
      args: -problem cd3 -n 14 -compare_seq -ca_mat_powers_type ghosted
   test:
      suffix: cd3_jacobi_np4
      nsize: 4
      args: -problem cd3 -n 14 -pc jacobi -compare_seq
   test:
      # a jagged operator in 2 x 2 blocks (-mat_block_size 2, blocks forced on a scalar stencil): the matrix-powers kernel
      # refuses the DIA copy of a blocked format and takes its other path; on 1 and 2 processes
      suffix: cd2_blocks
      nsize: {{1 2}}
      args: -problem cd2 -n 32 -pc jacobi -mat_type pjdscuda -mat_jagged_host -mat_block_size 2 -mat_jagged_blocks on
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "all [1-9][0-9]* checks passed"
      output_file: output/cagmrestest_checks_passed_1.out
   test:
      # its view: the products are the blocked format's own, with their bytes a nonzero (MatJaggedGetProductBytes())
      suffix: cd2_blocks_view
      nsize: 2
      args: -problem cd2 -n 32 -pc jacobi -mat_type pjdscuda -mat_jagged_host -mat_block_size 2 -mat_jagged_blocks on -ca_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "products: those of A.s [a-z]+ format, [0-9.]+ bytes a nonzero|all [1-9][0-9]* checks passed" | sed -E "s/[0-9]+[.][0-9]+ bytes/B bytes/"
   test:
      suffix: cd2_bjacobi_np2
      nsize: 2
      args: -problem cd2 -n 48 -pc bjacobi
   test:
      suffix: cd2_reorth_mgs
      args: -problem cd2 -ca_ksp_orthogonalization_cgs_refinement_type refine_always -ca_ksp_cagmres_borth mgs -ca_ksp_cagmres_s 6
   test:
      suffix: basis_cd2
      args: -problem cd2 -basis_test -smax 24 -m 48
   test:
      suffix: happy_breakdown
      args: -problem diag3 -ca_ksp_cagmres_s 5
   test:
      suffix: s4_m30
      args: -problem cd2 -pc jacobi -ca_ksp_cagmres_s 4
   test:
      suffix: s12_m8
      nsize: 2
      args: -problem cd2 -pc jacobi -ca_ksp_cagmres_s 12 -m 8 -margin 0.2
   test:
      suffix: left_sweep_cd2
      args: -problem cd2 -n 32 -pc jacobi -side left -sweep
   test:
      suffix: left_jacobi_np2
      nsize: 2
      args: -problem cd2 -n 48 -pc jacobi -side left -compare_seq -ca_mat_powers_type ghosted
   test:
      suffix: left_cd3_np3
      nsize: 3
      args: -problem cd3 -n 14 -pc jacobi -side left -compare_seq
   test:
      suffix: left_bjacobi_np2
      nsize: 2
      args: -problem cd2 -n 48 -pc bjacobi -side left
   test:
      suffix: zero_rhs
      nsize: 2
      args: -problem zero
   test:
      suffix: sweep_sherman3_ilu
      args: -problem mtx -f ${PETSCJAGGED_DIR}/tests/matrices/sherman3.mtx -pc ilu -sweep -check_error 0
   test:
      suffix: fs_183_1_jacobi
      args: -problem mtx -f ${PETSCJAGGED_DIR}/tests/matrices/fs_183_1.mtx -pc jacobi -check_error 0 -rtol 1e-9
   test:
      suffix: basis_sherman3_ilu
      args: -problem mtx -f ${PETSCJAGGED_DIR}/tests/matrices/sherman3.mtx -pc ilu -basis_test -smax 24 -m 48 -check_error 0
   test:
      suffix: young1c
      requires: complex
      args: -problem mtx -f ${PETSCJAGGED_DIR}/tests/matrices/young1c.mtx -pc jacobi -check_error 0 -sweep -smin 10 -smax 10
      # about 5000 iterations, their count depending on rounding: masked (the program checks them against GMRES's)
      filter: sed -E "s/[0-9]+ iterations .gmres [0-9]+./N iterations (gmres N)/"

   test:
      # CholQR breaks down on the monomial basis: CAQR for those blocks; the solve converges (within twice GMRES's iterations + 5)
      suffix: cholqr_fallback
      args: -problem cd2 -ca_ksp_cagmres_basis monomial -ca_ksp_cagmres_s 12 -m 36 -margin 1 -ca_view
   test:
      # the monomial basis of a matrix scaled by 1e40 overflows: blocks regenerated with half the block size
      suffix: monomial_overflow
      args: -problem cd2 -scale 1e40 -ca_ksp_cagmres_basis monomial -ca_ksp_cagmres_s 10 -m 30 -ca_view
   test:
      # never a false convergence: the monomial basis with s = 24 ends with a breakdown on sherman3
      suffix: breakdown_reported
      args: -problem mtx -f ${PETSCJAGGED_DIR}/tests/matrices/sherman3.mtx -pc ilu -m 48 -ca_ksp_cagmres_basis monomial -ca_ksp_cagmres_s 24 -expect diverged
   test:
      suffix: nan
      args: -problem nan -expect nanorinf
   test:
      # left preconditioning (the default, as KSPGMRES): the Jacobi scaling folded into the rows of the DIA copy
      suffix: left_dia_view
      args: -problem cd2 -pc jacobi -side left -ca_view
   test:
      # the view and the -log_view events (names and counts)
      suffix: view_log
      nsize: 2
      args: -problem cd2 -pc jacobi -ca_ksp_cagmres_s 5 -ca_ksp_cagmres_tsqr svqr -ca_view -log_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "^cagmres: .*|all [0-9]+ checks passed|CA-GMRES\(s=5, m=30\): newton basis|TSQR svqr|MatPowers Object|^KSPCAGMRESBOrth +[0-9]+|^KSPCAGMRESTSQR +[0-9]+|^KSPCAGMRESSmall +[0-9]+|^MatPowers +[0-9]+"

   # bad input: the documented errors, no crash
   test:
      suffix: bad_s
      args: -problem cd2 -ca_ksp_cagmres_s 0
      filter: Error: grep -E -o "block size s must be positive|Segmentation|signal [0-9]+" | sort -u
   test:
      suffix: bad_restart
      args: -problem cd2 -m 0
      filter: Error: grep -E -o "restart length must be positive|Segmentation|signal [0-9]+" | sort -u
   test:
      suffix: symmetric_pc
      args: -problem cd2 -ca_ksp_pc_side symmetric
      filter: Error: grep -E -o "KSP cagmres does not support .*SYMMETRIC|Segmentation|signal [0-9]+" | sort -u

   # GPU: CUDA vectors (the matrices' vector type), the basis as MATDENSECUDA, cuBLAS inner products; the
   # lines the checks name (counts of fallbacks and reductions only as "at least one")
   testset:
      requires: cuda_device
      args: -use_gpu_aware_mpi 0
      test:
         suffix: gpu_sweep_aijcusparse
         args: -mat_type aijcusparse -problem cd2 -n 64 -sweep -pc jacobi
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "all [1-9][0-9]* checks passed"
      test:
         suffix: gpu_sweep_pjdscuda
         args: -mat_type pjdscuda -problem cd2 -n 64 -sweep -pc jacobi
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "all [1-9][0-9]* checks passed"
         output_file: output/cagmrestest_gpu_sweep_aijcusparse.out
      test:
         suffix: gpu_aijcusparse_np2
         nsize: 2
         args: -mat_type aijcusparse -problem cd3 -n 24 -pc jacobi -compare_seq -ca_mat_powers_type ghosted -ca_view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "all [1-9][0-9]* checks passed|basis storage: mpidensecuda"
      test:
         suffix: gpu_pjdscuda_np2
         nsize: 2
         args: -mat_type pjdscuda -problem cd3 -n 24 -pc jacobi -compare_seq -ca_mat_powers_type ghosted -ca_view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "all [1-9][0-9]* checks passed|basis storage: mpidensecuda"
         output_file: output/cagmrestest_gpu_aijcusparse_np2.out
      test:
         # the halo exchanges of the ghosted kernel and of the products through NCCL (where each process has a GPU)
         suffix: gpu_pjdscuda_np2_nccl
         nsize: 2
         args: -mat_type pjdscuda -problem cd3 -n 24 -pc jacobi -compare_seq -ca_mat_powers_type ghosted -ca_view -ca_mat_powers_exchange nccl -mat_jagged_exchange nccl
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "all [1-9][0-9]* checks passed|basis storage: mpidensecuda"
         output_file: output/cagmrestest_gpu_aijcusparse_np2.out
      test:
         # a jagged operator in 2 x 2 blocks: the matrix-powers kernel on a blocked format (no DIA copy)
         suffix: gpu_cd2_blocks
         nsize: {{1 2}}
         args: -problem cd2 -n 64 -pc jacobi -mat_type pjdscuda -mat_block_size 2 -mat_jagged_blocks on -compare_seq
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "all [1-9][0-9]* checks passed"
         output_file: output/cagmrestest_checks_passed_2.out
      test:
         # left preconditioning: the DIA kernel with the rows scaled (1 process), the ghosted kernel scaling each product (2)
         suffix: gpu_left_np1
         args: -mat_type aijcusparse -problem cd3 -n 24 -pc jacobi -side left -compare_seq -ca_mat_powers_type auto
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "all [1-9][0-9]* checks passed"
      test:
         suffix: gpu_left_np2
         nsize: 2
         args: -mat_type aijcusparse -problem cd3 -n 24 -pc jacobi -side left -compare_seq -ca_mat_powers_type auto
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "all [1-9][0-9]* checks passed"
         output_file: output/cagmrestest_gpu_left_np1.out
      test:
         suffix: gpu_cholqr_fallback
         args: -mat_type aijcusparse -problem cd2 -ca_ksp_cagmres_basis monomial -ca_ksp_cagmres_s 12 -m 36 -margin 1 -ca_view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "all [1-9][0-9]* checks passed|TSQR fallbacks to CAQR: [1-9]" | sed -E "s/CAQR: [1-9]/CAQR: at least one/"
      test:
         suffix: gpu_monomial_overflow
         args: -mat_type aijcusparse -problem cd2 -scale 1e40 -ca_ksp_cagmres_basis monomial -ca_ksp_cagmres_s 10 -m 30 -ca_view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "all [1-9][0-9]* checks passed|block size reductions after Inf/NaN: [1-9]" | sed -E "s/Inf.NaN: [1-9]/Inf-NaN: at least one/"

   test:
      # through a GPU-aware MPI (generated with PJ_GPU_AWARE_MPI=1, where mpiexec runs one): the ghosted kernel's and the
      # products' halo exchanges hand device buffers to MPI
      requires: cuda_device gpu_aware_mpi
      suffix: cudampi_pjdscuda_np2
      nsize: 2
      args: -use_gpu_aware_mpi 1 -mat_type pjdscuda -problem cd3 -n 24 -pc jacobi -compare_seq -ca_mat_powers_type ghosted -ca_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "all [1-9][0-9]* checks passed|basis storage: mpidensecuda"
      output_file: output/cagmrestest_gpu_aijcusparse_np2.out
TEST*/
