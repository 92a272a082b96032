static char help[] = "Checks KSPMPCG + PCSPCG: double accuracy on SPD problems, error against KSPCG's, breakdowns.\n\
  -problem <poisson2d|poisson3d|aniso|vector|checker|mtx|negdef|indefinite|nan|dirichlet1|seed004|ex45>  (negdef: the negative 2D Laplacian;\n\
                vector: a vector problem of block size 3, the 3D Laplacian times a dense SPD 3 x 3 coupling of the components;\n\
                checker: the same with the neighbour couplings' signs flipped and Neumann boundaries, the diagonal 1e-4 above them:\n\
                its lowest mode alternates in sign from point to point;\n\
                ex45: PETSc's ksp ex45 operator, a 3D Laplacian on a DMDA whose boundary rows are identity rows scaled, their columns kept)\n\
  -n <32>       grid points per direction\n\
  -mg_levels <l>  with -pc mg: the levels of PCMG (on the DMDA of -problem ex45)\n\
  -inner_ratio <r>  MPCG's inner iterations (each one inner PC application) must be at most r times CG's iterations\n\
  -f <file>     Matrix Market file (real symmetric; -problem mtx)\n\
  -rtol <1e-12> relative tolerance of both solves\n\
  -shift <s>    the operator shifted by s times the identity (MatShift())\n\
  -checker_shift <1e-4>  -problem checker: how far above the couplings its diagonal lies, relative\n\
  -expect_breakdown  mpcg must end with a divergence reason\n\
  -mpcg_ksp_type <type>  the first solve with another KSP (the GPU stress test's control: both solves PETSc's own)\n\
  -reference_first  the reference CG before MPCG (the GPU stress test: the stops came in the reference's GAMG set-up after MPCG)\n\n";

#include <petscdmda.h>
#include <petscjagged.h>
#include <petscjagged/private/mtxload.h>

/* 5- or 7-point Laplacian on an n^d grid, anisotropic (eps in y) when aniso */
static PetscErrorCode Laplacian(PetscInt d, PetscInt n, PetscReal eps, Mat *A)
{
  PetscInt N = d == 2 ? n * n : n * n * n, rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, N, N, 7, NULL, 7, NULL, A));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  for (PetscInt r = rstart; r < rend; r++) {
    PetscInt x = r % n, y = (r / n) % n, z = d == 3 ? r / (n * n) : 0;
    PetscReal diag = 0;
    const PetscInt    dx[6] = {-1, 1, 0, 0, 0, 0}, dy[6] = {0, 0, -1, 1, 0, 0}, dz[6] = {0, 0, 0, 0, -1, 1};
    for (PetscInt k = 0; k < 2 * d; k++) {
      PetscInt  X = x + dx[k], Y = y + dy[k], Z = z + dz[k];
      PetscReal w = dy[k] ? eps : 1.0;
      diag += w;
      if (X < 0 || X >= n || Y < 0 || Y >= n || Z < 0 || Z >= (d == 3 ? n : 1)) continue;
      PetscCall(MatSetValue(*A, r, (d == 3 ? Z * n * n : 0) + Y * n + X, -w, INSERT_VALUES));
    }
    PetscCall(MatSetValue(*A, r, r, diag, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The operator of PETSc's ksp ex45 on an n^3 DMDA, made as ex45 makes it: DMCreateMatrix() and MatSetValuesStencil(),
  the boundary rows holding only their diagonal while the interior rows keep their couplings to the boundary
  points (not symmetric)
*/
static PetscErrorCode Ex45Operator(PetscInt n, DM *da, Mat *A)
{
  PetscInt        xs, ys, zs, xm, ym, zm;
  const PetscReal h = 1.0 / (n - 1);

  PetscFunctionBeginUser;
  PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, da));
  PetscCall(DMSetFromOptions(*da));
  PetscCall(DMSetUp(*da));
  PetscCall(DMCreateMatrix(*da, A));
  PetscCall(DMDAGetCorners(*da, &xs, &ys, &zs, &xm, &ym, &zm));
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        MatStencil  row = {k, j, i, 0}, col[7];
        PetscScalar v[7];
        PetscInt    nc = 0;

        if (i && j && k && i < n - 1 && j < n - 1 && k < n - 1) {
          const PetscInt d[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};

          for (PetscInt e = 0; e < 6; e++) {
            col[nc].k   = k + d[e][0];
            col[nc].j   = j + d[e][1];
            col[nc].i   = i + d[e][2];
            col[nc].c   = 0;
            v[nc++]     = -h;
          }
        }
        col[nc] = row;
        v[nc++] = 6 * h;
        PetscCall(MatSetValuesStencil(*A, 1, &row, nc, col, v, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  A vector problem: 3 components a point of an n^3 grid, the 7-point Laplacian times the SPD coupling C (4 on the diagonal, 1 off it),
  assembled by MatSetValuesBlocked() on a matrix of block size 3, as vector-valued discretizations give one. With checker, the
  neighbour couplings +C and the diagonal block (1 + 1e-4) times the number of neighbours times C: (D + Adj + 1e-4 D) x C, positive
  definite (x'(D + Adj)x sums (x_i + x_j)^2 over the edges), its lowest mode alternating in sign from point to point, 1e-4 D above zero;
  rounded to half, the scaled couplings 1/deg (1/6 inside) move that mode's eigenvalue by about 2^-11 deg, several times 1e-4
*/
static PetscErrorCode VectorLaplacian(PetscInt n, PetscBool checker, Mat *A)
{
  PetscReal checker_shift = 1e-4;
  const PetscInt bs = 3, N = n * n * n;
  PetscInt       rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-checker_shift", &checker_shift, NULL));
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, bs * N, bs * N));
  PetscCall(MatSetBlockSize(*A, bs));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatSeqAIJSetPreallocation(*A, 7 * bs, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, 7 * bs, NULL, 7 * bs, NULL));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  for (PetscInt r = rstart / bs; r < rend / bs; r++) {
    const PetscInt x = r % n, y = (r / n) % n, z = r / (n * n);
    const PetscInt nb[7][3] = {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};

    for (PetscInt k = 0; k < 7; k++) {
      const PetscInt X = x + nb[k][0], Y = y + nb[k][1], Z = z + nb[k][2];
      PetscScalar    v[9];
      PetscInt       c;

      if (X < 0 || X >= n || Y < 0 || Y >= n || Z < 0 || Z >= n) continue;
      c = (Z * n + Y) * n + X;
      for (PetscInt e = 0; e < 9; e++) v[e] = (k ? (checker ? 1.0 : -1.0) : 6.0) * (e % 4 ? 1.0 : 4.0);
      if (checker && !k) { /* the diagonal block: 1 + 1e-4 times the neighbours */
        PetscInt deg = 0;

        for (PetscInt l = 1; l < 7; l++) deg += x + nb[l][0] >= 0 && x + nb[l][0] < n && y + nb[l][1] >= 0 && y + nb[l][1] < n && z + nb[l][2] >= 0 && z + nb[l][2] < n;
        for (PetscInt e = 0; e < 9; e++) v[e] *= deg * (1 + checker_shift) / 6.0;
      }
      PetscCall(MatSetValuesBlocked(*A, 1, &r, 1, &c, v, INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A real symmetric or (complex builds) complex Hermitian Matrix Market file */
static PetscErrorCode ReadSymmetricMM(const char *file, Mat *A)
{
  MtxSymmetry sym;

  PetscFunctionBeginUser;
  { /* read whole by each process: the solvers of this program run on PETSC_COMM_WORLD */
    PetscMPIInt size;

    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_SUP, "-problem mtx runs on one process");
  }
  PetscCall(MtxLoad(PETSC_COMM_SELF, file, &sym, A));
  PetscCheck(sym == MTX_SYMMETRIC || sym == MTX_HERMITIAN, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: not real symmetric or complex Hermitian", file);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The seed-004 right-hand side h^2 f and exact solution on the n x n interior points of the unit square */
static PetscErrorCode Seed004(PetscInt n, Vec b, Vec u)
{
  const PetscReal h = 1.0 / (n + 1), pi = PETSC_PI;
  PetscInt        rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(b, &rstart, &rend));
  for (PetscInt r = rstart; r < rend; r++) {
    const PetscReal x = h * (r % n + 1), y = h * (r / n + 1), sx = PetscSinReal(pi * x), sy = PetscSinReal(pi * y);
    const PetscReal f = -2 * pi * pi * (PetscCosReal(2 * pi * x) * sy * sy + sx * sx * PetscCosReal(2 * pi * y));

    PetscCall(VecSetValue(b, r, h * h * f, INSERT_VALUES));
    PetscCall(VecSetValue(u, r, sx * sx * sy * sy, INSERT_VALUES));
  }
  PetscCall(VecAssemblyBegin(b));
  PetscCall(VecAssemblyEnd(b));
  PetscCall(VecAssemblyBegin(u));
  PetscCall(VecAssemblyEnd(u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Solves A x = b with the given KSP type and PC (on the DMDA da, without letting it compute the operator, when
  da is given: PCMG takes its levels from it); returns the true relative residual, the error against xe:
  relative in the 2-norm, or (maxnorm) absolute in the max norm, the iterations and the inner iterations of a KSPMPCG (inner: NULL for other types)
*/
static PetscErrorCode SolveWith(Mat A, DM da, Vec b, Vec xe, KSPType type, PCType pctype, PetscInt mglevels, PetscReal rtol, PetscBool maxnorm, PetscReal *relres, PetscReal *err, KSPConvergedReason *reason, PetscInt *its, PetscInt *inner)
{
  KSP       ksp;
  Vec       x, r;
  PetscReal nb;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  if (da) {
    PetscCall(KSPSetDM(ksp, da));
    PetscCall(KSPSetDMActive(ksp, KSP_DMACTIVE_ALL, PETSC_FALSE));
  }
  PetscCall(KSPSetType(ksp, type));
  if (pctype) {
    PC        pc;
    PetscBool ismg;

    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, pctype));
    PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCMG, &ismg));
    if (ismg && mglevels > 1) {
      PetscCall(PCMGSetLevels(pc, mglevels, NULL));
      PetscCall(PCMGSetGalerkin(pc, PC_MG_GALERKIN_BOTH)); /* coarse operators from the interpolation of the DMDA */
    }
  }
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED)); /* both stop on ||b - A x|| <= rtol ||b|| */
  PetscCall(KSPSetTolerances(ksp, rtol, PETSC_SMALL * 1e-30, PETSC_CURRENT, 20000));
  PetscCall(KSPSetOptionsPrefix(ksp, type));
  PetscCall(KSPAppendOptionsPrefix(ksp, "_"));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, relres));
  PetscCall(VecNorm(b, NORM_2, &nb));
  *relres /= nb;
  PetscCall(VecAXPY(x, -1.0, xe));
  PetscCall(VecNorm(x, maxnorm ? NORM_INFINITY : NORM_2, err));
  PetscCall(VecNorm(xe, NORM_2, &nb));
  if (!maxnorm) *err /= nb;
  PetscCall(KSPGetIterationNumber(ksp, its));
  if (inner) { /* a first solve of another type (-mpcg_ksp_type, the stress test's PETSc-only control) has no inner iterations */
    PetscBool ismpcg;

    PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPMPCG, &ismpcg));
    *inner = 0;
    if (ismpcg) PetscCall(KSPMPCGGetInnerIterations(ksp, NULL, inner));
  }
  PetscCall(KSPGetType(ksp, &type)); /* the type that ran (-mpcg_ksp_type may change it) */
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-5s %s: %s, %" PetscInt_FMT " iterations, true relative residual %.2e, %s error %.4e\n", type, pctype ? pctype : "default PC", KSPConvergedReasons[*reason], *its, (double)*relres, maxnorm ? "max-norm" : "relative", (double)*err));
  PetscCall(KSPViewFromOptions(ksp, NULL, "-view"));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&r));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char               problem[32] = "poisson2d", file[PETSC_MAX_PATH_LEN] = "", pc[32] = "";
  PetscInt           n           = 32, mglevels = 0, its, inner, itscg;
  PetscReal          rtol = 1e-12, res, err, rescg, errcg, ratio = 10, innerratio = 0, shift = 0;
  PetscBool          seed004, pcset;
  DM                 da = NULL;
  Mat                A;
  Vec                xe, b;
  PetscRandom        rnd;
  KSPConvergedReason reason, reasoncg;
  PetscBool          breakdown, reffirst = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscJaggedInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-problem", problem, sizeof(problem), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", file, sizeof(file), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-rtol", &rtol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-error_ratio", &ratio, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-pc", pc, sizeof(pc), &pcset));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mg_levels", &mglevels, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-inner_ratio", &innerratio, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-shift", &shift, NULL));
  PetscCall(PetscStrcmp(problem, "seed004", &seed004));
  PetscCall(PetscStrcmpAny(problem, &breakdown, "indefinite", "nan", ""));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-expect_breakdown", &breakdown, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-reference_first", &reffirst, NULL));

  if (!strcmp(problem, "poisson3d")) PetscCall(Laplacian(3, n, 1.0, &A));
  else if (!strcmp(problem, "aniso")) PetscCall(Laplacian(2, n, 1e-2, &A));
  else if (!strcmp(problem, "vector") || !strcmp(problem, "checker")) PetscCall(VectorLaplacian(n, (PetscBool)!strcmp(problem, "checker"), &A));
  else if (!strcmp(problem, "mtx")) PetscCall(ReadSymmetricMM(file, &A));
  else if (!strcmp(problem, "ex45")) PetscCall(Ex45Operator(n, &da, &A));
  else PetscCall(Laplacian(2, n, 1.0, &A));
  if (!strcmp(problem, "dirichlet1")) { /* the rows of the points at x = 0 become identity rows; their columns stay */
    PetscInt rstart, rend, nrows = 0, *rows;

    PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
    PetscCall(PetscMalloc1(rend - rstart, &rows));
    for (PetscInt r = rstart; r < rend; r++)
      if (r % n == 0) rows[nrows++] = r;
    PetscCall(MatZeroRows(A, nrows, rows, 1.0, NULL, NULL));
    PetscCall(PetscFree(rows));
  }
  if (!strcmp(problem, "indefinite")) PetscCall(MatShift(A, -1.0)); /* eigenvalues of both signs */
  if (!strcmp(problem, "negdef")) PetscCall(MatScale(A, -1.0)); /* negative definite: CG with Jacobi solves it */
  if (shift != 0) PetscCall(MatShift(A, shift));
  { /* -op_type: the operator's type (e.g. pjdscuda with -mat_jagged_host) */
    char      mtype[64];
    PetscBool set;
    PetscCall(PetscOptionsGetString(NULL, NULL, "-op_type", mtype, sizeof(mtype), &set));
    if (set) PetscCall(MatConvert(A, mtype, MAT_INPLACE_MATRIX, &A));
  }

  PetscCall(MatCreateVecs(A, &xe, &b));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  if (seed004) PetscCall(Seed004(n, b, xe));
  else {
    PetscCall(VecSetRandom(xe, rnd));
    PetscCall(MatMult(A, xe, b));
  }
  if (!strcmp(problem, "nan")) PetscCall(VecFlag(b, PETSC_TRUE));

  if (reffirst && !breakdown) PetscCall(SolveWith(A, da, b, xe, KSPCG, pcset ? pc : PCJACOBI, mglevels, rtol, seed004, &rescg, &errcg, &reasoncg, &itscg, NULL));
  PetscCall(SolveWith(A, da, b, xe, KSPMPCG, pcset ? pc : NULL, mglevels, rtol, seed004, &res, &err, &reason, &its, &inner));
  if (!breakdown) {
    if (!reffirst) PetscCall(SolveWith(A, da, b, xe, KSPCG, pcset ? pc : PCJACOBI, mglevels, rtol, seed004, &rescg, &errcg, &reasoncg, &itscg, NULL));
    PetscCheck(reasoncg > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "the reference CG did not converge: %s", KSPConvergedReasons[reasoncg]);
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "mpcg did not converge: %s", KSPConvergedReasons[reason]);
    PetscCheck(res <= 2 * rtol, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "mpcg true relative residual %g above %g", (double)res, (double)rtol);
    PetscCheck(err <= ratio * errcg + 10 * PETSC_MACHINE_EPSILON, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "mpcg error %g above %g times CG's %g", (double)err, (double)ratio, (double)errcg);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "double accuracy reached: residual %.2e, error %.2e (CG %.2e)\n", (double)res, (double)err, (double)errcg));
    if (innerratio > 0) {
      PetscCheck(inner <= innerratio * itscg, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "mpcg ran %" PetscInt_FMT " inner iterations, more than %g times CG's %" PetscInt_FMT, inner, (double)innerratio, itscg);
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "inner iterations %" PetscInt_FMT " <= %.1f x CG's %" PetscInt_FMT "\n", inner, (double)innerratio, itscg));
    }
  } else PetscCheck(reason < 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "mpcg reported %s on a problem it cannot solve", KSPConvergedReasons[reason]);
  PetscCall(VecDestroy(&xe));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # KSPMPCG + PCSPCG with host inner iterations: double accuracy reached, error against KSPCG's
   # (checked by the program, which then prints "double accuracy reached"); the whole output, iteration
   # counts included, is the reference
   test:
      suffix: poisson2d
      args: -problem poisson2d -n 48
   test:
      suffix: poisson2d_np2
      nsize: 2
      args: -problem poisson2d -n 48
   test:
      suffix: poisson3d
      args: -problem poisson3d -n 14
   test:
      suffix: poisson3d_pjds_np2
      nsize: 2
      args: -problem poisson3d -n 14 -op_type pjdscuda -mat_jagged_host
   test:
      suffix: aniso
      args: -problem aniso -n 40
   test:
      suffix: aniso_jacobi
      args: -problem aniso -n 40 -mpcg_pc_spcg_jacobi
   test:
      # the seed-004 paper's problem, unpreconditioned, to its tolerance: the max-norm error within 5 % of CG's
      suffix: seed004_256
      args: -problem seed004 -n 256 -rtol 1e-6 -pc none -error_ratio 1.05
   test:
      suffix: seed004_512
      args: -problem seed004 -n 512 -rtol 1e-6 -pc none -error_ratio 1.05
      timeoutfactor: 4
   test:
      suffix: seed004_512_fcg
      args: -problem seed004 -n 512 -rtol 1e-6 -pc none -error_ratio 1.05 -mpcg_ksp_mpcg_single_inner 0
      timeoutfactor: 4
   test:
      suffix: seed004_512_tight
      args: -problem seed004 -n 512 -rtol 1e-10 -pc none -error_ratio 1.05
      timeoutfactor: 4
   test:
      suffix: seed004_256_np2
      nsize: 2
      args: -problem seed004 -n 256 -rtol 1e-6 -pc none -error_ratio 1.05
   test:
      suffix: seed004_256_jacobi_np2
      nsize: 2
      args: -problem seed004 -n 256 -rtol 1e-6 -pc jacobi -error_ratio 1.05
   test:
      # a program's own PC under -ksp_type mpcg: ICC / SOR applied in double inside the single-precision inner CG
      suffix: poisson2d_icc
      args: -problem poisson2d -n 48 -pc icc
   test:
      suffix: poisson2d_sor_np2
      nsize: 2
      args: -problem poisson2d -n 48 -pc sor
   test:
      # Dirichlet rows eliminated on one side only: mildly nonsymmetric
      suffix: dirichlet1
      args: -problem dirichlet1 -n 64 -pc jacobi
   test:
      suffix: dirichlet1_fcg
      args: -problem dirichlet1 -n 64 -pc jacobi -mpcg_ksp_mpcg_single_inner 0
   test:
      suffix: dirichlet1_np2
      nsize: 2
      args: -problem dirichlet1 -n 64 -pc jacobi
   test:
      # negative definite: with Jacobi (negative too) CG converges, so must MPCG (inner and outer signs consistent)
      suffix: negdef_jacobi
      args: -problem negdef -n 48 -pc jacobi
   test:
      suffix: negdef_spcg_jacobi
      args: -problem negdef -n 48 -mpcg_pc_spcg_jacobi
   test:
      suffix: negdef_pjds_np2
      nsize: 2
      args: -problem negdef -n 48 -pc jacobi -op_type pjdscuda -mat_jagged_host
   test:
      # an operator with no single-precision copy of its own (BAIJ): PCSPCG's private pJDS copy with host kernels, no GPU started
      suffix: poisson2d_baij
      args: -problem poisson2d -n 32 -op_type baij
   test:
      suffix: poisson2d_baij_np2
      nsize: 2
      args: -problem poisson2d -n 32 -op_type baij
   test:
      suffix: nos5
      args: -problem mtx -f ${PETSCJAGGED_DIR}/tests/matrices/nos5.mtx -mpcg_pc_spcg_jacobi -mpcg_pc_spcg_max_it 20
   test:
      suffix: bcsstk13
      args: -problem mtx -f ${PETSCJAGGED_DIR}/tests/matrices/bcsstk13.mtx -mpcg_pc_spcg_jacobi -mpcg_pc_spcg_max_it 30
   test:
      # half storage where half is hardest (bcsstk13, condition number about 1e10: after the scaling 15,752 entries below half's
      # least subnormal, stored as zero): the same accuracy as CG, in about single storage's outer iterations
      suffix: bcsstk13_half
      requires: !complex
      args: -problem mtx -f ${PETSCJAGGED_DIR}/tests/matrices/bcsstk13.mtx -mpcg_pc_spcg_jacobi -mpcg_pc_spcg_max_it 30 -mpcg_pc_spcg_format pjds -mpcg_pc_spcg_storage half
   test:
      # condition numbers ~1e7 (1138_bus) and ~1e12 (mhd1280b): at the same residual the error depends on
      # how the residual spreads over the spectrum; single-precision inner solves leave more in the lowest
      # modes than double CG does (measured up to 25x CG's error, with the residual below the tolerance)
      suffix: 1138_bus
      args: -problem mtx -f ${PETSCJAGGED_DIR}/tests/matrices/1138_bus.mtx -mpcg_pc_spcg_jacobi -mpcg_pc_spcg_max_it 20 -error_ratio 50
   test:
      # Hermitian positive definite, complex-float inner vectors
      suffix: mhd1280b
      requires: complex
      args: -problem mtx -f ${PETSCJAGGED_DIR}/tests/matrices/mhd1280b.mtx -mpcg_pc_spcg_jacobi -mpcg_pc_spcg_max_it 20 -error_ratio 50
   test:
      # ... and a poor inner solve that still makes progress converges (it stagnated under the former residual rule)
      suffix: slow_inner
      args: -problem mtx -f ${PETSCJAGGED_DIR}/tests/matrices/bcsstk13.mtx -rtol 1e-10 -pc jacobi -mpcg_pc_spcg_max_it 1

   # PETSc's ksp ex45 operator (boundary rows eliminated on one side: not symmetric) with Jacobi, ILU (block Jacobi
   # on 2 processes) and PCMG: MPCG's inner iterations, one inner PC application each, at most twice CG's iterations
   # with the same PC (the program checks it; d07f851 ran 3879, 185 and 72 inner iterations here)
   test:
      suffix: ex45_jacobi
      args: -problem ex45 -n 24 -pc jacobi -rtol 1e-10 -inner_ratio 2
   test:
      suffix: ex45_ilu
      args: -problem ex45 -n 33 -pc ilu -rtol 1e-10 -inner_ratio 2
   test:
      suffix: ex45_mg
      args: -problem ex45 -n 33 -pc mg -mg_levels 3 -rtol 1e-10 -inner_ratio 2
   test:
      suffix: ex45_jacobi_np2
      nsize: 2
      args: -problem ex45 -n 24 -pc jacobi -rtol 1e-10 -inner_ratio 2
   test:
      suffix: ex45_bjacobi_np2
      nsize: 2
      args: -problem ex45 -n 33 -pc bjacobi -rtol 1e-10 -inner_ratio 2
   test:
      suffix: ex45_mg_np2
      nsize: 2
      args: -problem ex45 -n 33 -pc mg -mg_levels 3 -rtol 1e-10 -inner_ratio 2

   # PCMG with Chebyshev/Jacobi smoothers and PCGAMG (its defaults): the inner PC runs as PCSPCG's single-precision
   # V-cycle (the view says so; spcgmgtest compares it with PCMG's); inner iterations at most twice CG's (10 and 11
   # inner iterations where CG takes 11 and 11)
   testset:
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep -l "^(mpcg|cg) |double accuracy|inner iterations [0-9]|V-cycle run in single precision" | sed -E "s/^ +//"
      test:
         suffix: ex45_mg_jacobi_single
         args: -problem ex45 -n 33 -pc mg -mg_levels 3 -mg_levels_pc_type jacobi -rtol 1e-10 -inner_ratio 2 -mpcg_view
      test:
         suffix: poisson3d_gamg_single
         args: -problem poisson3d -n 24 -pc gamg -rtol 1e-10 -inner_ratio 2 -mpcg_view
      test:
         # the reference CG first (-reference_first, which the GPU stress test also runs): the same solves
         suffix: poisson3d_gamg_single_reffirst
         args: -problem poisson3d -n 24 -pc gamg -rtol 1e-10 -inner_ratio 2 -mpcg_view -reference_first
      test:
         # on 2 processes: each level's matrices distributed, the coarse solve each process's rows of the dense inverse (10 and 11 inner iterations, as on one)
         suffix: ex45_mg_jacobi_single_np2
         nsize: 2
         args: -problem ex45 -n 33 -pc mg -mg_levels 3 -mg_levels_pc_type jacobi -rtol 1e-10 -inner_ratio 2 -mpcg_view
      test:
         suffix: poisson3d_gamg_single_np2
         nsize: 2
         args: -problem poisson3d -n 24 -pc gamg -rtol 1e-10 -inner_ratio 2 -mpcg_view
      test:
         # a jagged operator (host kernels): GAMG's coarse operators and transfers of its type, the image made of them
         suffix: poisson3d_gamg_single_pjds
         args: -problem poisson3d -n 24 -pc gamg -rtol 1e-10 -inner_ratio 2 -mpcg_view -op_type pjdscuda -mat_jagged_host
      test:
         suffix: poisson3d_gamg_single_pjds_np2
         nsize: 2
         args: -problem poisson3d -n 24 -pc gamg -rtol 1e-10 -inner_ratio 2 -mpcg_view -op_type pjdscuda -mat_jagged_host
      test:
         # the same with the PCMG applied in double inside the inner CG: today's path, the same outer and inner counts
         suffix: ex45_mg_jacobi_double
         args: -problem ex45 -n 33 -pc mg -mg_levels 3 -mg_levels_pc_type jacobi -rtol 1e-10 -inner_ratio 2 -mpcg_view -mpcg_pc_spcg_mg 0

   # problems MPCG cannot solve end with a divergence reason (the program checks it is negative)
   test:
      suffix: indefinite
      args: -problem indefinite -n 20
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "DIVERGED_INDEFINITE_(MAT|PC)"
   test:
      suffix: nan
      args: -problem nan -n 20
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "DIVERGED_(NANORINF|PC_FAILED)"
   test:
      # a tolerance below the attainable accuracy: stagnation is reported, long before the iteration limit
      suffix: stagnation
      args: -problem poisson2d -n 32 -rtol 1e-30 -expect_breakdown
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "mpcg .*DIVERGED_BREAKDOWN, [0-9]{1,3} iterations" | sed -E "s/, [0-9]+ iterations/, N iterations/"

   # the view; the single-precision copy's format: DIA for a stencil (also the diagonal block on 2
   # processes), pJDS when DIA does not pay, CSR when asked (4-byte values, 8-byte in complex builds)
   test:
      suffix: view
      args: -problem poisson2d -n 20 -mpcg_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached|type: mpcg|type: spcg|inner \(single precision\) iterations since set-up: [1-9]|single-precision copy: DIA, [48]-byte values on 5 diagonals, no column indices|inner search direction continued" | sed -E -e "s/[48]-byte/4 or 8-byte/" -e "s/set-up: [1-9]$/set-up: N > 0/"
   test:
      suffix: view_csr
      args: -problem poisson3d -n 12 -mpcg_pc_spcg_format csr -mpcg_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached|single-precision copy: CSR, [48]-byte values with the operator.s own indices|format chosen by -pc_spcg_format csr" | sed -E "s/[48]-byte/4 or 8-byte/"
   test:
      suffix: view_dia_np2
      nsize: 2
      args: -problem poisson3d -n 12 -mpcg_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached|diagonal block DIA, [48]-byte values on 7 diagonals, no column indices. off-diagonal block CSR" | sed -E "s/[48]-byte/4 or 8-byte/"
   test:
      # a vector problem of block size 3: the single-precision copy in dense 3 x 3 blocks, one column index each
      suffix: view_blocks
      nsize: {{1 2}}
      args: -problem vector -n 10 -pc jacobi -mpcg_pc_spcg_format pjds -mpcg_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached|dense 3 x 3 blocks with a 4-byte column each"
      output_file: output/mpcgtest_view_blocks.out
   test:
      # half storage (real scalars): the pJDS copies' values in half precision, scaled by the diagonal, in 3 x 3 blocks: the operator's
      # copy (the diagonal block on 2 processes) and GAMG's levels; double accuracy still reached
      suffix: view_half
      requires: !complex
      nsize: {{1 2}}
      args: -problem vector -n 10 -pc gamg -rtol 1e-10 -mpcg_pc_spcg_format pjds -mpcg_pc_spcg_storage half -mpcg_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached|half-precision values of the block scaled by its diagonal \([0-9]+ stored subnormal, [0-9]+ as zero; the diagonal in single precision, row sums kept\) and dense 3 x 3 blocks with a 4-byte column each, 2\.[0-9]+ bytes a nonzero" | sed -E -e "s/[0-9]+ stored subnormal, [0-9]+ as zero/N stored subnormal, M as zero/" -e "s/2\.[0-9]+ bytes/2.x bytes/" | LC_ALL=C sort -u
      output_file: output/mpcgtest_view_half.out
   test:
      # auto storage (the default): half for the copies kept in dense 3 x 3 blocks (the operator's, GAMG's levels), single for
      # a scalar copy, with the reason; no fallback; double accuracy reached (these small copies in half too: no size limit)
      suffix: auto_storage
      requires: !complex
      nsize: {{1 2}}
      args: -problem vector -n 10 -pc gamg -rtol 1e-10 -mpcg_pc_spcg_format pjds -mpcg_view -mpcg_pc_spcg_half_min_nonzeros 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached|fell back|(half-precision|4-byte) values [^,]*, [0-9]+ as zero; the diagonal in single precision, row sums kept; chosen by auto storage|storage auto: [^,]+" | sed -E "s/[0-9]+ stored subnormal, [0-9]+ as zero/N stored subnormal, M as zero/" | LC_ALL=C sort -u
      output_file: output/mpcgtest_auto_storage.out
   test:
      # auto storage on a scalar operator without long rows: half values packed with 16-bit column distances
      suffix: auto_storage_scalar
      requires: !complex
      args: -problem poisson3d -n 12 -mpcg_pc_spcg_format pjds -mpcg_view -mpcg_pc_spcg_half_min_nonzeros 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached|chosen by auto storage\) and 16-bit column distances packed with them \([0-9]+ escapes\)"
   test:
      # ... and by default on a small matrix: single precision, its size the reason
      suffix: auto_storage_small
      requires: !complex
      args: -problem mtx -f ${PETSCJAGGED_DIR}/tests/matrices/1138_bus.mtx -mpcg_pc_spcg_jacobi -mpcg_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached|auto storage kept single precision: [^)]*|storage auto: .*"
   test:
      # ... and on one of long rows (a small matrix's rows run by warps): single precision, and why
      suffix: auto_storage_long_rows
      requires: !complex
      args: -problem mtx -f ${PETSCJAGGED_DIR}/tests/matrices/bcsstk13.mtx -mpcg_pc_spcg_jacobi -mpcg_pc_spcg_max_it 30 -mpcg_pc_spcg_format pjds -mpcg_view -mpcg_pc_spcg_half_min_nonzeros 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached|auto storage kept single precision: [^)]*"
   test:
      # auto storage's fallback during a solve: the vector problem shifted to indefinite keeps a positive diagonal and scaled
      # entries below 1, so auto stores half; the first inner solve breaks down, every copy is made again in single precision
      # and the solve goes on until the outer iteration finds the operator indefinite (a divergence reason, no crash)
      suffix: auto_storage_fallback
      requires: !complex
      nsize: {{1 2}}
      args: -problem vector -n 8 -shift -2 -expect_breakdown -mpcg_pc_spcg_format pjds -mpcg_view -mpcg_pc_spcg_half_min_nonzeros 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "auto storage fell back to single precision during a solve: .*|mpcg .*DIVERGED_INDEFINITE_[A-Z]+" | sed -E "s/DIVERGED_INDEFINITE_[A-Z]+/DIVERGED_INDEFINITE/"
      output_file: output/mpcgtest_auto_storage_fallback.out
   test:
      # the same two on the GPU (AIJCUSPARSE operator, the inner loop on the GPU): auto's choice, and the fallback making the
      # device loop again in the middle of a solve
      suffix: gpu_auto_storage
      requires: cuda_device !complex
      nsize: {{1 2}}
      args: -problem vector -n 10 -pc gamg -rtol 1e-10 -mpcg_pc_spcg_format pjds -mpcg_view -op_type aijcusparse -use_gpu_aware_mpi 0 -mpcg_pc_spcg_half_min_nonzeros 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached|fell back|(half-precision|4-byte) values [^,]*, [0-9]+ as zero; the diagonal in single precision, row sums kept; chosen by auto storage|storage auto: [^,]+" | sed -E "s/[0-9]+ stored subnormal, [0-9]+ as zero/N stored subnormal, M as zero/" | LC_ALL=C sort -u
      output_file: output/mpcgtest_auto_storage.out
   test:
      suffix: gpu_auto_storage_fallback
      requires: cuda_device !complex
      nsize: {{1 2}}
      args: -problem vector -n 8 -shift -2 -expect_breakdown -mpcg_pc_spcg_format pjds -mpcg_view -op_type aijcusparse -use_gpu_aware_mpi 0 -mpcg_pc_spcg_half_min_nonzeros 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "auto storage fell back to single precision during a solve: .*|mpcg .*DIVERGED_INDEFINITE_[A-Z]+" | sed -E "s/DIVERGED_INDEFINITE_[A-Z]+/DIVERGED_INDEFINITE/"
      output_file: output/mpcgtest_auto_storage_fallback.out
   testset:
      # half storage asked for a scalar operator: each half value packed with its column's 16-bit distance from the row's previous
      # one (4 bytes a nonzero), on the host and, with an AIJCUSPARSE operator, on the GPU (the packed pattern built there, the
      # inner loop in the CUDA graph); double accuracy still reached
      nsize: {{1 2}}
      args: -problem poisson3d -n 12 -mpcg_pc_spcg_format pjds -mpcg_pc_spcg_storage half -mpcg_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached|16-bit column distances packed with them \([0-9]+ escapes\), 4\.[0-9]+ bytes a nonzero" | sed -E "s/4\.[0-9]+ bytes/4.x bytes/" | LC_ALL=C sort -u
      output_file: output/mpcgtest_view_half_packed.out
      test:
         suffix: view_half_packed
         requires: !complex
      test:
         suffix: gpu_view_half_packed
         requires: cuda_device !complex
         args: -op_type aijcusparse -use_gpu_aware_mpi 0
   test:
      # complex builds keep single storage when half is asked, and say so
      suffix: view_half_complex
      requires: complex
      args: -problem poisson3d -n 12 -mpcg_pc_spcg_format pjds -mpcg_pc_spcg_storage half -mpcg_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached|complex scalars: single precision kept|8-byte values and 4-byte columns"
   test:
      # GAMG on the vector problem: the V-cycle image's coarse operators in 3 x 3 blocks too
      suffix: view_blocks_gamg
      args: -problem vector -n 12 -pc gamg -rtol 1e-10 -mpcg_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached|level 2: [0-9]+ rows, operator pJDS, [0-9]+ stored entries for [0-9]+ nonzeros, .* and dense 3 x 3 blocks" | sed -E "s/nonzeros, .* and dense 3 x 3 blocks.*$/nonzeros, its values in dense 3 x 3 blocks/"
   test:
      # the same with a jagged operator on the GPU: its coarse operators, made by the GPU products, in 3 x 3 blocks too (their twins' block size)
      suffix: gpu_view_blocks_gamg_pjds
      requires: cuda_device
      args: -problem vector -n 12 -pc gamg -rtol 1e-10 -mpcg_view -op_type pjdscuda -use_gpu_aware_mpi 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached|level 2: [0-9]+ rows, operator pJDS, [0-9]+ stored entries for [0-9]+ nonzeros, .* and dense 3 x 3 blocks" | sed -E "s/nonzeros, .* and dense 3 x 3 blocks.*$/nonzeros, its values in dense 3 x 3 blocks/"
      output_file: output/mpcgtest_view_blocks_gamg.out
   test:
      # the same with a jagged operator (host kernels): a copy of its own, made as an AIJ operator's (auto storage)
      suffix: vector_pjds
      nsize: {{1 2}}
      args: -problem vector -n 10 -pc jacobi -op_type pjdscuda -mat_jagged_host
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached"
      output_file: output/mpcgtest_gpu_double_accuracy.out
   test:
      suffix: view_pjds_auto
      args: -problem mtx -f ${PETSCJAGGED_DIR}/tests/matrices/bcsstk13.mtx -mpcg_pc_spcg_jacobi -mpcg_pc_spcg_max_it 30 -mpcg_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached|single-precision copy: pJDS, [0-9]+ stored entries for [0-9]+ nonzeros, [48]-byte values( \([^)]*\))? and 4-byte columns" | sed -E -e "s/[48]-byte values( \([^)]*\))?/4 or 8-byte values/" -e "s/pJDS, [0-9]+ stored entries for [0-9]+ nonzeros/pJDS, N stored entries for M nonzeros/"
   testset:
      # a jagged operator with auto storage (no size limit): a packed half copy of its own (on the GPU made from the CSR
      # scattered back from its jagged copy there), not the type's single-precision copy, and double accuracy
      args: -problem mtx -f ${PETSCJAGGED_DIR}/tests/matrices/1138_bus.mtx -op_type pjdscuda -mpcg_pc_spcg_jacobi -mpcg_view -mpcg_pc_spcg_half_min_nonzeros 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached|chosen by auto storage\) and 16-bit column distances packed with them \([0-9]+ escapes\)"
      output_file: output/mpcgtest_view_pjds_auto_jagged.out
      test:
         suffix: view_pjds_auto_jagged
         requires: !complex
         args: -mat_jagged_host
      test:
         suffix: gpu_view_pjds_auto_jagged
         requires: cuda_device !complex
         args: -use_gpu_aware_mpi 0
   test:
      suffix: spcg_dia_too_many
      args: -problem mtx -f ${PETSCJAGGED_DIR}/tests/matrices/bcsstk13.mtx -mpcg_pc_spcg_format dia
      filter: Error: grep -E -o -e "-pc_spcg_format dia: the operator.s entries lie on more than 32 diagonals|Segmentation|signal [0-9]+" | sort -u

   # GPU (device suite): the inner iterations on the GPU
   testset:
      requires: cuda_device
      args: -use_gpu_aware_mpi 0
      timeoutfactor: 4
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached"
      output_file: output/mpcgtest_gpu_double_accuracy.out
      test:
         suffix: gpu_poisson3d_pjds
         args: -problem poisson3d -n 30 -op_type pjdscuda
      test:
         suffix: gpu_poisson3d_aijcusparse
         args: -problem poisson3d -n 30 -op_type aijcusparse
      test:
         suffix: gpu_vector
         nsize: {{1 2}}
         args: -problem vector -n 20 -pc jacobi -op_type {{aijcusparse pjdscuda}}
      test:
         suffix: gpu_poisson3d_pjds_np2
         nsize: 2
         args: -problem poisson3d -n 30 -op_type pjdscuda
      test:
         suffix: gpu_aniso_jacobi_nograph
         args: -problem aniso -n 60 -op_type pjdscuda -mpcg_pc_spcg_jacobi -mpcg_pc_spcg_cuda_graph 0
      test:
         suffix: gpu_seed004_1024_pjds
         args: -problem seed004 -n 1024 -rtol 1e-6 -pc none -error_ratio 1.05 -op_type pjdscuda
      test:
         suffix: gpu_seed004_2048_aijcusparse
         args: -problem seed004 -n 2048 -rtol 1e-6 -pc none -error_ratio 1.05 -op_type aijcusparse
      test:
         suffix: gpu_seed004_1024_np2
         nsize: 2
         args: -problem seed004 -n 1024 -rtol 1e-6 -pc none -error_ratio 1.05 -op_type aijcusparse
      test:
         suffix: gpu_seed004_1024_fcg
         args: -problem seed004 -n 1024 -rtol 1e-6 -pc none -error_ratio 1.05 -op_type aijcusparse -mpcg_ksp_mpcg_single_inner 0
      test:
         suffix: gpu_dirichlet1_jacobi
         args: -problem dirichlet1 -n 256 -pc jacobi -op_type aijcusparse
      test:
         suffix: gpu_dirichlet1_jacobi_np2
         nsize: 2
         args: -problem dirichlet1 -n 256 -pc jacobi -op_type pjdscuda
      test:
         suffix: gpu_poisson2d_icc
         args: -problem poisson2d -n 64 -pc icc -op_type aijcusparse
      test:
         suffix: gpu_poisson3d_aijcusparse_csr
         args: -problem poisson3d -n 30 -op_type aijcusparse -mpcg_pc_spcg_format csr
      test:
         suffix: gpu_poisson3d_aijcusparse_np2
         nsize: 2
         args: -problem poisson3d -n 30 -op_type aijcusparse
      test:
         # the inner halo exchanges and sums through NCCL (where each process has a GPU; else through MPI)
         suffix: gpu_poisson3d_aijcusparse_np2_nccl
         nsize: 2
         args: -problem poisson3d -n 30 -op_type aijcusparse -mpcg_pc_spcg_exchange nccl
      test:
         suffix: gpu_negdef_jacobi_aijcusparse
         args: -problem negdef -n 128 -pc jacobi -op_type aijcusparse
      test:
         suffix: gpu_negdef_jacobi_pjds_np2
         nsize: 2
         args: -problem negdef -n 128 -pc jacobi -op_type pjdscuda
      test:
         suffix: gpu_bcsstk13
         args: -problem mtx -f ${PETSCJAGGED_DIR}/tests/matrices/bcsstk13.mtx -op_type pjdscuda -mpcg_pc_spcg_jacobi -mpcg_pc_spcg_max_it 30
      test:
         suffix: gpu_mhd1280b
         requires: complex
         args: -problem mtx -f ${PETSCJAGGED_DIR}/tests/matrices/mhd1280b.mtx -op_type pjdscuda -mpcg_pc_spcg_jacobi -mpcg_pc_spcg_max_it 20 -error_ratio 50

   # through a GPU-aware MPI (generated with PJ_GPU_AWARE_MPI=1, where mpiexec runs one): the operator's and the
   # inner iterations' halo exchanges hand device buffers to MPI
   testset:
      requires: cuda_device gpu_aware_mpi
      args: -use_gpu_aware_mpi 1
      nsize: 2
      timeoutfactor: 4
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached"
      output_file: output/mpcgtest_gpu_double_accuracy.out
      test:
         suffix: cudampi_poisson3d_pjds_np2
         args: -problem poisson3d -n 30 -op_type pjdscuda
      test:
         suffix: cudampi_dirichlet1_jacobi_np2
         args: -problem dirichlet1 -n 256 -pc jacobi -op_type pjdscuda

   # the ex45 operator on the GPU (DMDA with CUDA matrices and vectors): inner iterations at most twice CG's
   testset:
      requires: cuda_device
      args: -dm_mat_type aijcusparse -dm_vec_type cuda -use_gpu_aware_mpi 0 -rtol 1e-10 -inner_ratio 2
      timeoutfactor: 3
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached|inner iterations [0-9]+ <= 2.0 x CG.s" | sed -E "s/inner iterations [0-9]+ </inner iterations N </"
      output_file: output/mpcgtest_gpu_ex45.out
      test:
         suffix: gpu_ex45_jacobi
         args: -problem ex45 -n 48 -pc jacobi
      test:
         suffix: gpu_ex45_ilu
         args: -problem ex45 -n 33 -pc ilu
      test:
         suffix: gpu_ex45_mg
         args: -problem ex45 -n 65 -pc mg -mg_levels 4
      test:
         suffix: gpu_ex45_mg_np2
         nsize: 2
         args: -problem ex45 -n 65 -pc mg -mg_levels 4
      test:
         suffix: gpu_ex45_jacobi_np2
         nsize: 2
         args: -problem ex45 -n 48 -pc jacobi -dm_mat_type pjdscuda

   # PCMG (Chebyshev/Jacobi) and PCGAMG on the GPU: the inner PC runs as the single-precision V-cycle on the GPU, inside
   # the inner loop's CUDA graph (the view says so; spcgmgtest's gpu_ tests compare it with PCMG's); double accuracy,
   # inner iterations at most twice CG's (on the host: 10 and 11 where CG takes 11 and 11)
   testset:
      requires: cuda_device
      args: -use_gpu_aware_mpi 0 -rtol 1e-10 -inner_ratio 2 -mpcg_view
      timeoutfactor: 3
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "inner iterations run on the GPU, with the V-cycle, replayed as a CUDA graph|V-cycle run in single precision inside the inner loop|single-precision V-cycle on the GPU|double accuracy reached|inner iterations [0-9]+ <= 2.0 x CG.s" | sed -E "s/inner iterations [0-9]+ </inner iterations N </"
      output_file: output/mpcgtest_gpu_mg_single.out
      test:
         suffix: gpu_ex45_mg_jacobi_single
         args: -problem ex45 -n 33 -pc mg -mg_levels 3 -mg_levels_pc_type jacobi -dm_mat_type aijcusparse -dm_vec_type cuda
      test:
         suffix: gpu_poisson3d_gamg_single
         args: -problem poisson3d -n 24 -pc gamg -op_type aijcusparse
      test:
         # GAMG on a jagged operator: its set-up's products (A P, P^T A P) through cuSPARSE, on the operands' AIJCUSPARSE twins;
         # the V-cycle's image of its jagged levels built from the twins' device CSR
         suffix: gpu_poisson3d_gamg_single_pjds
         args: -problem poisson3d -n 24 -pc gamg -op_type pjdscuda

   # the same on 2 processes: the V-cycle on the GPU, not captured (its halo exchanges and its coarse right-hand side cross the host)
   testset:
      requires: cuda_device
      nsize: 2
      args: -use_gpu_aware_mpi 0 -rtol 1e-10 -inner_ratio 2 -mpcg_view
      timeoutfactor: 3
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "inner iterations run on the GPU, with the V-cycle, its coarse (solve crossing the host|right-hand side gathered through the host) at each iteration|V-cycle run in single precision inside the inner loop|single-precision V-cycle on the GPU|double accuracy reached|inner iterations [0-9]+ <= 2.0 x CG.s" | sed -E "s/inner iterations [0-9]+ </inner iterations N </"
      output_file: output/mpcgtest_gpu_mg_single_np2.out
      test:
         suffix: gpu_ex45_mg_jacobi_single_np2
         args: -problem ex45 -n 33 -pc mg -mg_levels 3 -mg_levels_pc_type jacobi -dm_mat_type aijcusparse -dm_vec_type cuda
      test:
         suffix: gpu_poisson3d_gamg_single_np2
         args: -problem poisson3d -n 24 -pc gamg -op_type aijcusparse
      test:
         # a jagged operator: the distributed Galerkin products' local products on the GPU (some empty), the image of jagged levels
         suffix: gpu_poisson3d_gamg_single_np2_pjds
         args: -problem poisson3d -n 24 -pc gamg -op_type pjdscuda
      test:
         # the inner sums and all halo exchanges, the V-cycle's too, through NCCL (where each process has a GPU; else MPI)
         suffix: gpu_poisson3d_gamg_single_np2_nccl
         args: -problem poisson3d -n 24 -pc gamg -op_type aijcusparse -mpcg_pc_spcg_exchange nccl

   test:
      suffix: gpu_indefinite
      requires: cuda_device
      args: -problem indefinite -n 20 -op_type pjdscuda -use_gpu_aware_mpi 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "DIVERGED_INDEFINITE_(MAT|PC)" | sed -E "s/INDEFINITE_(MAT|PC)$/INDEFINITE_MAT or _PC/"
   test:
      suffix: gpu_view
      requires: cuda_device
      args: -problem poisson2d -n 40 -op_type pjdscuda -mpcg_view -use_gpu_aware_mpi 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "inner iterations run on the GPU, replayed as a CUDA graph|inner iterations [1-9][0-9]* \([0-9.]+ each\)" | sed -E "s/inner iterations [0-9]+ \([0-9.]+ each\)/inner iterations N (x each)/"
   test:
      # two processes: the inner sums on the GPUs through CUDA IPC by default where each has a GPU of its own, else (two
      # processes on one GPU) through MPI, saying why; double accuracy either way
      suffix: gpu_view_sums_np2
      requires: cuda_device
      nsize: 2
      args: -problem poisson3d -n 30 -op_type pjdscuda -mpcg_view -use_gpu_aware_mpi 0
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "double accuracy reached|inner sums: through (CUDA IPC, GPU to GPU \(stores into the others. memory\), the host one iteration behind \(auto: the processes share a host, a GPU each\)|MPI and the host \(auto: not CUDA IPC: two processes share a GPU\))" | sed -E "s/inner sums: .+$/inner sums: through CUDA IPC (a GPU each) or MPI (a GPU shared)/"

TEST*/
