static char help[] = "Checks MatPowers (the matrix-powers kernel) against an explicit PCApply()/MatMult() recurrence.\n\
  -problem <random|convdiff|lap1d>  nonsymmetric random sparse (band and far entries), 2D 5-point convection-diffusion, 1D Laplacian\n\
  -n <200>          rows (random, lap1d) or grid points per direction (convdiff)\n\
  -far <0.02>       random: probability of an entry far from the diagonal in each row\n\
  -s <5>            the kernel's s; every k = 1, ..., s is checked\n\
  -shifts <none|real|pair|complex>  monomial, real shifts, conjugate pairs (real builds), complex shifts (complex builds)\n\
  -use_pc           preconditioner from -pc_type (PCNONE by default);  -side <right|left>  B = A M^{-1} or M^{-1} A\n\
  -expect_type <ghosted|plain>  the type the kernel must resolve to\n\
  -expect_depth <t>  ghosted: the depth the kernel must be built to (partly ghosted: t < s; default s)\n\
  -change <none|values|pattern>  change A after the first round and check again\n\
  -check_info       compare MatPowersGetInfo() with the test's own breadth-first count\n\
  -bad <s|k|pair|mismatch|im>  bad input that must fail\n\
  -zero_diagonal    a zero on the diagonal (the first row of each process; Jacobi puts 1 there unless -pc_jacobi_fixdiagonal 0)\n\
  -check_apply_pc   MatPowersApplyPC() against PCApply() on a random vector (after each round)\n\
  -view             MatPowersView() at the end\n\
  -shell            give the kernel A as a MATSHELL (MatMult() only)\n\n";

#include <petscjagged.h>

/* Deterministic value in [-1, 1) for (row, slot): the matrix does not depend on the number of processes */
static PetscReal Hash01(PetscInt row, PetscInt slot)
{
  unsigned long long z = (unsigned long long)row * 0x9E3779B97F4A7C15ULL + (unsigned long long)slot * 0xBF58476D1CE4E5B9ULL + 0x94D049BB133111EBULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return (PetscReal)((z >> 11) * (1.0 / 9007199254740992.0)) * 2 - 1;
}

static PetscScalar HashScalar(PetscInt row, PetscInt slot)
{
#if defined(PETSC_USE_COMPLEX)
  return PetscCMPLX(Hash01(row, slot), 0.3 * Hash01(row, slot + 1000));
#else
  return Hash01(row, slot);
#endif
}

static PetscErrorCode BuildMatrix(const char *problem, PetscInt n, PetscReal far, Mat *A)
{
  PetscInt  N, rstart, rend;
  PetscBool random, convdiff;

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(problem, "random", &random));
  PetscCall(PetscStrcmp(problem, "convdiff", &convdiff));
  N = convdiff ? n * n : n;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, N, N));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatXAIJSetPreallocation(*A, 1, NULL, NULL, NULL, NULL));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatSetUp(*A));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; i++) {
    if (random) { /* diagonal, a band of width 3 filled at random, and now and then a far entry */
      PetscCall(MatSetValue(*A, i, i, 4.0 + HashScalar(i, 0), INSERT_VALUES));
      for (PetscInt d = -3; d <= 3; d++) {
        if (!d || i + d < 0 || i + d >= N || Hash01(i, 10 + d) < -0.2) continue;
        PetscCall(MatSetValue(*A, i, i + d, HashScalar(i, 20 + d), INSERT_VALUES));
      }
      if ((Hash01(i, 40) + 1) / 2 < far) PetscCall(MatSetValue(*A, i, (PetscInt)((Hash01(i, 41) + 1) / 2 * N) % N, HashScalar(i, 42), INSERT_VALUES));
    } else if (convdiff) { /* -lap u + (b1, b2) . grad u, central differences, cell Peclet numbers 0.6 and 0.4 */
      PetscInt x = i % n, y = i / n;

      PetscCall(MatSetValue(*A, i, i, 4.0, INSERT_VALUES));
      if (x > 0) PetscCall(MatSetValue(*A, i, i - 1, -1.0 - 0.3, INSERT_VALUES));
      if (x < n - 1) PetscCall(MatSetValue(*A, i, i + 1, -1.0 + 0.3, INSERT_VALUES));
      if (y > 0) PetscCall(MatSetValue(*A, i, i - n, -1.0 - 0.2, INSERT_VALUES));
      if (y < n - 1) PetscCall(MatSetValue(*A, i, i + n, -1.0 + 0.2, INSERT_VALUES));
    } else {
      PetscCall(MatSetValue(*A, i, i, 2.0, INSERT_VALUES));
      if (i > 0) PetscCall(MatSetValue(*A, i, i - 1, -1.0, INSERT_VALUES));
      if (i < N - 1) PetscCall(MatSetValue(*A, i, i + 1, -1.0, INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -shell: the kernel sees A only through MatMult() */
static PetscErrorCode ShellMult(Mat S, Vec x, Vec y)
{
  Mat A;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(S, &A));
  PetscCall(MatMult(A, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PCSide side = PC_RIGHT; /* -side */

/* y = B x = A M^{-1} x (right) or M^{-1} A x (left) */
static PetscErrorCode ApplyB(Mat A, PC pc, Vec x, Vec w, Vec y)
{
  PetscFunctionBeginUser;
  if (pc && side == PC_LEFT) {
    PetscCall(MatMult(A, x, w));
    PetscCall(PCApply(pc, w, y));
  } else if (pc) {
    PetscCall(PCApply(pc, x, w));
    PetscCall(MatMult(A, w, y));
  } else PetscCall(MatMult(A, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Reference: V[j+1] = B V[j] - theta_j V[j]; a conjugate pair (real builds) as one quadratic factor,
  V[j+2] = B^2 V[j] - 2 re B V[j] + |theta|^2 V[j], a different evaluation from the kernel's.
*/
static PetscErrorCode Reference(Mat A, PC pc, PetscInt k, const PetscScalar re[], const PetscReal im[], Vec R[], Vec w, Vec x)
{
  PetscFunctionBeginUser;
  for (PetscInt j = 0; j < k; j++) {
    PetscCall(ApplyB(A, pc, R[j], w, R[j + 1]));
    if (im && im[j] > 0 && j + 1 < k) {
      PetscCall(VecCopy(R[j + 1], x)); /* x = B R[j] */
      PetscCall(ApplyB(A, pc, x, w, R[j + 2]));
      PetscCall(VecAXPBYPCZ(R[j + 2], -2 * re[j], (PetscScalar)(re[j] * re[j] + im[j] * im[j]), 1.0, x, R[j]));
      PetscCall(VecAXPY(R[j + 1], -re[j], R[j]));
      j++;
    } else if (re) PetscCall(VecAXPY(R[j + 1], -re[j], R[j]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||B||_inf: exact for no PC and Jacobi, ||A|| ||M^{-1}|| (explicit M^{-1}) otherwise */
static PetscErrorCode NormB(Mat A, PC pc, PetscReal *nb)
{
  PetscBool jacobi, none;

  PetscFunctionBeginUser;
  PetscCall(MatNorm(A, NORM_INFINITY, nb));
  if (!pc) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCJACOBI, &jacobi));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCNONE, &none));
  if (none) PetscFunctionReturn(PETSC_SUCCESS);
  if (jacobi) {
    Mat AD;
    Vec d, one;

    PetscCall(MatCreateVecs(A, &one, &d));
    PetscCall(VecSet(one, 1.0));
    PetscCall(PCApply(pc, one, d));
    PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &AD));
    PetscCall(MatDiagonalScale(AD, side == PC_LEFT ? d : NULL, side == PC_LEFT ? NULL : d));
    PetscCall(MatNorm(AD, NORM_INFINITY, nb));
    PetscCall(MatDestroy(&AD));
    PetscCall(VecDestroy(&d));
    PetscCall(VecDestroy(&one));
  } else {
    Mat       Minv;
    PetscReal nm;

    PetscCall(PCComputeOperator(pc, MATDENSE, &Minv));
    PetscCall(MatNorm(Minv, NORM_INFINITY, &nm));
    PetscCall(MatDestroy(&Minv));
    *nb *= nm;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The depth-s ghost rows counted by breadth-first search on a redundant copy of A: surface-to-volume and extra flops */
static PetscErrorCode CountGhosts(Mat A, PetscInt s, PetscReal *s2v, PetscReal *extra)
{
  Mat         Ar;
  PetscMPIInt size;
  PetscInt    N, rstart, rend, *dist, *queue, head = 0, tail = 0, nghost = 0, nnzown = 0, nnzext = 0;
  PetscReal   loc[2];

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(MatCreateRedundantMatrix(A, size, MPI_COMM_NULL, MAT_INITIAL_MATRIX, &Ar));
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCall(PetscMalloc2(N, &dist, N, &queue));
  for (PetscInt i = 0; i < N; i++) dist[i] = -1;
  for (PetscInt i = rstart; i < rend; i++) {
    dist[i]       = 0;
    queue[tail++] = i;
  }
  while (head < tail) {
    PetscInt        i = queue[head++], nc;
    const PetscInt *cols;

    PetscCall(MatGetRow(Ar, i, &nc, &cols, NULL));
    if (dist[i] == 0) nnzown += nc;
    if (dist[i] <= s - 1) nnzext += nc;
    if (dist[i] < s)
      for (PetscInt c = 0; c < nc; c++)
        if (dist[cols[c]] < 0) {
          dist[cols[c]] = dist[i] + 1;
          queue[tail++] = cols[c];
          nghost++;
        }
    PetscCall(MatRestoreRow(Ar, i, &nc, &cols, NULL));
  }
  loc[0] = rend > rstart ? (PetscReal)nghost / (rend - rstart) : 0;
  loc[1] = nnzown ? (PetscReal)nnzext / nnzown - 1 : 0;
  PetscCallMPI(MPIU_Allreduce(loc, s2v, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscCallMPI(MPIU_Allreduce(loc + 1, extra, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscCall(PetscFree2(dist, queue));
  PetscCall(MatDestroy(&Ar));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 1D Laplacian: the ghost rows are known in closed form */
static PetscErrorCode CountGhostsLap1d(Mat A, PetscInt s, PetscReal *s2v, PetscReal *extra)
{
  PetscInt  N, rstart, rend, lo, hi, nnzown, nnzext;
  PetscReal loc[2];

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  lo     = PetscMax(0, rstart - (s - 1));
  hi     = PetscMin(N, rend + s - 1);
  nnzext = 3 * (hi - lo) - (lo == 0) - (hi == N);
  nnzown = 3 * (rend - rstart) - (rstart == 0) - (rend == N);
  loc[0] = rend > rstart ? (PetscReal)(rstart - PetscMax(0, rstart - s) + PetscMin(N, rend + s) - rend) / (rend - rstart) : 0;
  loc[1] = rend > rstart ? (PetscReal)nnzext / nnzown - 1 : 0;
  PetscCallMPI(MPIU_Allreduce(loc, s2v, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscCallMPI(MPIU_Allreduce(loc + 1, extra, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The counters of MatPowersView(): "halo exchanges: N for M products" */
static PetscErrorCode ViewCounters(MatPowers mpk, PetscInt *nex, PetscInt *nprod)
{
  PetscViewer viewer;
  char       *buf = NULL, *p;
  size_t      len;
  FILE       *f;
  long        a, b;

  PetscFunctionBeginUser;
  f = open_memstream(&buf, &len);
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_SYS, "open_memstream() failed");
  PetscCall(PetscViewerASCIIOpenWithFILE(PETSC_COMM_SELF, f, &viewer));
  PetscCall(MatPowersView(mpk, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  fclose(f);
  p = buf ? strstr(buf, "halo exchanges: ") : NULL;
  PetscCheck(p && sscanf(p, "halo exchanges: %ld for %ld products", &a, &b) == 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No halo exchange count in the view:\n%s", buf ? buf : "");
  free(buf);
  *nex   = (PetscInt)a;
  *nprod = (PetscInt)b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Changes A: row scaling by random factors (values), or new far entries (pattern) */
static PetscErrorCode ChangeMatrix(Mat A, const char *change)
{
  PetscInt rstart, rend, N;
  Vec      l;

  PetscFunctionBeginUser;
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCall(MatGetSize(A, &N, NULL));
  if (!strcmp(change, "values")) {
    PetscCall(MatCreateVecs(A, NULL, &l));
    for (PetscInt i = rstart; i < rend; i++) PetscCall(VecSetValue(l, i, 1.5 + Hash01(i, 77), INSERT_VALUES));
    PetscCall(VecAssemblyBegin(l));
    PetscCall(VecAssemblyEnd(l));
    PetscCall(MatDiagonalScale(A, l, NULL));
    PetscCall(VecDestroy(&l));
  } else {
    for (PetscInt i = rstart; i < rend; i++)
      if (i % 7 == 0) PetscCall(MatSetValue(A, i, (i + N / 2) % N, 0.5, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Halo exchanges of one ghosted apply of k products, ghosts of depth t: one every t products, one product
  earlier (t > 2) where the next product is the second shift of a conjugate pair (it reads the previous vector's ghosts)
*/
static PetscInt ExpectedExchanges(PetscInt k, PetscInt t, const PetscReal im[])
{
  PetscInt n = 0, left = 0;

  for (PetscInt j = 0; j < k; j++, left--) {
    const PetscBool pairnext = (PetscBool)(!PetscDefined(USE_COMPLEX) && im && j + 1 < k && im[j + 1] < 0 && t > 2);

    if (!left || (left == 1 && pairnext)) {
      n++;
      left = t;
    }
  }
  return n;
}

int main(int argc, char **argv)
{
  char          problem[32] = "random", shifts[32] = "none", expect[32] = "", change[32] = "none", bad[32] = "";
  PetscInt      n = 200, s = 5, depth = 0, nexp = 0, nprodexp = 0, ncmp = 0, nex, nprod;
  PetscReal     far = 0.02, nb, worst = 0, worstratio = 0, im[16];
  PetscScalar   re[16];
  PetscBool     shell = PETSC_FALSE, use_pc = PETSC_FALSE, check_info = PETSC_FALSE, view = PETSC_FALSE, useim = PETSC_FALSE, usere = PETSC_TRUE;
  PetscBool     zero_diagonal = PETSC_FALSE, check_apply_pc = PETSC_FALSE;
  PetscReal     pcdiff = 0;
  Mat           A, S;
  PC            pc = NULL;
  MatPowers     mpk;
  MatPowersType type;
  Vec          *V, *R, w, x;
  PetscInt      maxrow = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscJaggedInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-problem", problem, sizeof(problem), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-shifts", shifts, sizeof(shifts), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-expect_type", expect, sizeof(expect), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-change", change, sizeof(change), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-bad", bad, sizeof(bad), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-s", &s, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-expect_depth", &depth, NULL));
  if (!depth) depth = s;
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-far", &far, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-use_pc", &use_pc, NULL));
  PetscCall(PetscOptionsGetEnum(NULL, NULL, "-side", PCSides, (PetscEnum *)&side, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check_info", &check_info, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-view", &view, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-shell", &shell, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-zero_diagonal", &zero_diagonal, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check_apply_pc", &check_apply_pc, NULL));
  PetscCheck(s <= 15, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-s at most 15 in this test");

  PetscCall(BuildMatrix(problem, n, far, &A));
  if (zero_diagonal) {
    PetscInt rstart, rend;

    PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
    if (rend > rstart) PetscCall(MatSetValue(A, rstart, rstart, 0.0, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  }
  if (!strcmp(bad, "s")) PetscCall(MatCreateMatrixPowers(A, 0, &mpk)); /* must fail */
  if (shell) {
    PetscInt m, N;

    PetscCall(MatGetLocalSize(A, &m, NULL));
    PetscCall(MatGetSize(A, &N, NULL));
    PetscCall(MatCreateShell(PETSC_COMM_WORLD, m, m, N, N, A, &S));
    PetscCall(MatShellSetOperation(S, MATOP_MULT, (PetscErrorCodeFn *)ShellMult));
  } else {
    PetscCall(PetscObjectReference((PetscObject)A));
    S = A;
  }
  PetscCall(MatCreateMatrixPowers(S, s, &mpk));
  PetscCall(MatPowersSetOptionsPrefix(mpk, "mpk_"));
  PetscCall(MatPowersSetFromOptions(mpk));
  if (use_pc) {
    PetscCall(PCCreate(PETSC_COMM_WORLD, &pc));
    PetscCall(PCSetOperators(pc, A, A));
    PetscCall(PCSetFromOptions(pc));
    PetscCall(PCSetUp(pc));
    PetscCall(MatPowersSetPC(mpk, pc));
    PetscCall(MatPowersSetPCSide(mpk, side));
  }

  /* shifts: real ones of either sign, a conjugate pair at 1-2 (cut at k = 2), another at 4-5 */
  for (PetscInt j = 0; j < 16; j++) {
    re[j] = 1.0 + 0.5 * Hash01(j, 99);
    im[j] = 0;
#if defined(PETSC_USE_COMPLEX)
    if (!strcmp(shifts, "complex")) re[j] += PetscCMPLX(0, 0.7 * Hash01(j, 98));
#endif
  }
  if (!strcmp(shifts, "pair")) {
    PetscCheck(!PetscDefined(USE_COMPLEX), PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-shifts pair is for real builds; use -shifts complex");
    useim = PETSC_TRUE;
    for (PetscInt j = 1; j + 1 < 16; j += 3) {
      re[j + 1] = re[j];
      im[j]     = 0.8 + 0.1 * j;
      im[j + 1] = -im[j];
    }
  }
  if (!strcmp(shifts, "none")) usere = PETSC_FALSE;

  {
    VecType  vtype;
    PetscInt mloc, N;

    PetscCall(MatGetVecType(A, &vtype));
    PetscCall(MatGetLocalSize(A, NULL, &mloc));
    PetscCall(MatGetSize(A, NULL, &N));
    PetscCall(VecCreate(PETSC_COMM_WORLD, &x));
    PetscCall(VecSetSizes(x, mloc, N));
    PetscCall(VecSetType(x, vtype));
    PetscCall(VecSetFromOptions(x));
  }
  PetscCall(VecDuplicate(x, &w));
  PetscCall(VecDuplicateVecs(x, s + 1, &V));
  PetscCall(VecDuplicateVecs(x, s + 1, &R));
  {
    PetscRandom rnd;

    PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
    PetscCall(VecSetRandom(V[0], rnd));
    PetscCall(PetscRandomDestroy(&rnd));
  }
  {
    PetscInt rstart, rend, nc;

    PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
    for (PetscInt i = rstart; i < rend; i++) {
      PetscCall(MatGetRow(A, i, &nc, NULL, NULL));
      maxrow = PetscMax(maxrow, nc);
      PetscCall(MatRestoreRow(A, i, &nc, NULL, NULL));
    }
    PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &maxrow, 1, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD));
  }

  if (bad[0]) { /* each must stop with its error */
    if (!strcmp(bad, "k")) PetscCall(MatPowersApply(mpk, s + 1, NULL, NULL, V));
    im[0] = !strcmp(bad, "pair") ? -0.5 : 0.5;
    im[1] = -0.4;
    PetscCall(MatPowersApply(mpk, PetscMin(2, s), re, im, V));
    SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_PLIB, "bad input -bad %s was accepted", bad);
  }

  for (PetscInt round = 0; round < (strcmp(change, "none") ? 2 : 1); round++) {
    if (round) PetscCall(ChangeMatrix(A, change));
    PetscCall(NormB(A, pc, &nb));
    for (PetscInt k = 1; k <= s; k++) {
      PetscReal growth = 1, n0;

      PetscCall(MatPowersApply(mpk, k, usere ? re : NULL, useim ? im : NULL, V));
      PetscCall(MatPowersGetType(mpk, &type));
      PetscCheck(type == MAT_POWERS_GHOSTED || type == MAT_POWERS_PLAIN, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Unresolved type after an apply");
      if (expect[0]) PetscCheck(!strcmp(expect, MatPowersTypes[type]), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "The kernel resolved to %s, expected %s", MatPowersTypes[type], expect);
      nexp += type == MAT_POWERS_GHOSTED ? ExpectedExchanges(k, depth, useim ? im : NULL) : k;
      nprodexp += k;
      PetscCall(VecCopy(V[0], R[0]));
      PetscCall(Reference(A, pc, k, usere ? re : NULL, useim ? im : NULL, R, w, x));
      PetscCall(VecNorm(V[0], NORM_INFINITY, &n0));
      for (PetscInt i = 1; i <= k; i++) {
        PetscReal nd, nr, tol;

        /* first-order rounding bound of both recurrences: each product errs by at most
           (row length + 3) eps ||B|| ||x|| in the max norm, and is then amplified by the later factors */
        growth *= nb + PetscSqrtReal(PetscSqr(PetscAbsScalar(usere ? re[i - 1] : 0)) + PetscSqr(useim ? im[i - 1] : 0));
        PetscCall(VecNorm(R[i], NORM_INFINITY, &nr));
        PetscCall(VecAXPY(R[i], -1.0, V[i]));
        PetscCall(VecNorm(R[i], NORM_INFINITY, &nd));
        tol = 2 * 10 * i * (maxrow + 3) * PETSC_MACHINE_EPSILON * growth * n0 / nr;
        nd /= nr;
        PetscCheck(nd <= tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "k = %" PetscInt_FMT ", V[%" PetscInt_FMT "]: relative difference %g to the reference above %g (%s kernel)", k, i, (double)nd, (double)tol, MatPowersTypes[type]);
        worst      = PetscMax(worst, nd);
        worstratio = PetscMax(worstratio, nd / tol);
        ncmp++;
      }
    }
    if (check_apply_pc) { /* the kernel's M^{-1} is PCApply()'s: Jacobi's inverse diagonal made by the kernel, the same values */
      PetscReal nd, nr;

      PetscCheck(pc, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-check_apply_pc needs -use_pc");
      PetscCall(MatPowersApplyPC(mpk, V[0], w));
      PetscCall(PCApply(pc, V[0], x));
      PetscCall(VecNorm(x, NORM_INFINITY, &nr));
      PetscCall(VecAXPY(x, -1.0, w));
      PetscCall(VecNorm(x, NORM_INFINITY, &nd));
      nd /= nr;
      PetscCheck(nd <= 10 * PETSC_MACHINE_EPSILON, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatPowersApplyPC() and PCApply() differ by %g relative", (double)nd);
      pcdiff = PetscMax(pcdiff, nd);
    }
  }
  if (check_apply_pc) {
    PCType pctype;

    PetscCall(PCGetType(pc, &pctype));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatPowersApplyPC() equals PCApply() of PC %s: max relative difference %.2e\n", pctype, (double)pcdiff));
  }
  PetscCall(ViewCounters(mpk, &nex, &nprod));
  PetscCheck(nex == nexp && nprod == nprodexp, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "The view counts %" PetscInt_FMT " halo exchanges for %" PetscInt_FMT " products, expected %" PetscInt_FMT " for %" PetscInt_FMT, nex, nprod, nexp, nprodexp);
  if (check_info) {
    PetscReal s2v, extra, cs2v, cextra;

    PetscCall(MatPowersGetInfo(mpk, &s2v, &extra));
    PetscCall(CountGhosts(A, depth, &cs2v, &cextra)); /* a partly ghosted kernel gives those of its depth */
    PetscCheck(PetscAbsReal(s2v - cs2v) <= 1e-12 * (1 + cs2v) && PetscAbsReal(extra - cextra) <= 1e-12 * (1 + cextra), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatPowersGetInfo(): surface-to-volume %g, extra flops %g; breadth-first count: %g, %g", (double)s2v, (double)extra, (double)cs2v, (double)cextra);
    if (!strcmp(problem, "lap1d")) {
      PetscCall(CountGhostsLap1d(A, s, &cs2v, &cextra));
      PetscCheck(PetscAbsReal(s2v - cs2v) <= 1e-12 * (1 + cs2v) && PetscAbsReal(extra - cextra) <= 1e-12 * (1 + cextra), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatPowersGetInfo(): surface-to-volume %g, extra flops %g; 1D Laplacian: %g, %g", (double)s2v, (double)extra, (double)cs2v, (double)cextra);
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "info matches the test's count: surface-to-volume %.6g, extra flops %.6g\n", (double)s2v, (double)extra));
  }
  if (view) PetscCall(MatPowersView(mpk, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "matpowers checks passed: %s kernel, %" PetscInt_FMT " vectors compared, max relative difference %.2e (%.2e of the tolerance), %" PetscInt_FMT " halo exchanges for %" PetscInt_FMT " products\n", MatPowersTypes[type], ncmp, (double)worst, (double)worstratio, nex, nprod));

  PetscCall(VecDestroyVecs(s + 1, &V));
  PetscCall(VecDestroyVecs(s + 1, &R));
  PetscCall(VecDestroy(&w));
  PetscCall(VecDestroy(&x));
  PetscCall(MatPowersDestroy(&mpk));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&S));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # Each test compares every k = 1..s with the explicit PCApply()/MatMult() recurrence; the reference
   # output holds "matpowers checks passed" (and, with -view, the kernel's view).
   # Tests whose shifts depend on the scalar type come twice: real builds take real shifts with complex
   # conjugate pairs (-shifts pair, one pair cut at the end of a call), complex builds complex shifts
   # (-shifts complex, suffix _complex); both print the same lines (numbers with a decimal point aside), so
   # the complex tests use the real tests' reference outputs.
   testset:
      requires: !complex
      args: -shifts pair
      test:
         suffix: random_ghosted_np1
         args: -s 10 -mpk_mat_powers_type ghosted -check_info
      test:
         suffix: random_ghosted_np2
         nsize: 2
         args: -s 10 -mpk_mat_powers_type ghosted -check_info
      test:
         suffix: random_ghosted_np4
         nsize: 4
         args: -s 10 -mpk_mat_powers_type ghosted -check_info
      test:
         suffix: random_plain_np4
         nsize: 4
         args: -s 10 -mpk_mat_powers_type plain -check_info
      test:
         suffix: random_jacobi_abs_np2
         nsize: 2
         args: -s 8 -use_pc -pc_type jacobi -pc_jacobi_abs -mpk_mat_powers_type ghosted
      test:
         suffix: convdiff_jacobi_np4
         nsize: 4
         args: -problem convdiff -n 24 -s 5 -use_pc -pc_type jacobi -mpk_mat_powers_type ghosted -check_info
      test:
         suffix: change_values_np2
         nsize: 2
         args: -s 6 -use_pc -pc_type jacobi -mpk_mat_powers_type ghosted -change values
      test:
         suffix: left_jacobi_ghosted_np2
         nsize: 2
         args: -s 8 -use_pc -pc_type jacobi -side left -mpk_mat_powers_type ghosted -change values
      test:
         suffix: left_convdiff_jacobi_np4
         nsize: 4
         args: -problem convdiff -n 24 -s 5 -use_pc -pc_type jacobi -side left -mpk_mat_powers_type ghosted
      test:
         suffix: left_bjacobi_np2
         nsize: 2
         args: -s 4 -use_pc -pc_type bjacobi -side left
      test:
         # auto: ghosted on a 2D grid split in two
         suffix: convdiff_auto_np2
         nsize: 2
         args: -problem convdiff -n 40 -s 4 -expect_type ghosted -check_info -view
      test:
         # a preconditioner that is not local: plain products even when ghosted is requested
         suffix: bjacobi_fallback_np2
         nsize: 2
         args: -s 4 -use_pc -pc_type bjacobi -mpk_mat_powers_type ghosted -view
      test:
         suffix: shell_fallback_np2
         nsize: 2
         args: -shell -s 4 -mpk_mat_powers_type ghosted -view
      test:
         # the remote rows take the type of A's diagonal block (pJDS, host kernels here)
         suffix: pjds_host_np2
         nsize: 2
         args: -mat_type pjdscuda -mat_jagged_host -problem convdiff -n 40 -s 4 -use_pc -pc_type jacobi -expect_type ghosted -view
      test:
         # one process, plain: the DIA copy (Jacobi folded in, shift in the kernel), values changed
         suffix: dia_jacobi_np1
         args: -problem convdiff -n 12 -s 6 -use_pc -pc_type jacobi -change values -view
      test:
         suffix: dia_left_np1
         args: -problem convdiff -n 12 -s 6 -use_pc -pc_type jacobi -side left -change values -view
      test:
         # without the DIA copy: the view must not name one
         suffix: dia_off_np1
         args: -problem convdiff -n 12 -s 6 -use_pc -pc_type jacobi -mpk_mat_powers_dia 0 -view
      test:
         suffix: dia_random_csr_np1
         args: -s 6 -mpk_mat_powers_type plain -view

   testset:
      requires: complex
      args: -shifts complex
      test:
         suffix: random_ghosted_np1_complex
         args: -s 10 -mpk_mat_powers_type ghosted -check_info
         output_file: output/matpowerstest_random_ghosted_np1.out
      test:
         suffix: random_ghosted_np2_complex
         nsize: 2
         args: -s 10 -mpk_mat_powers_type ghosted -check_info
         output_file: output/matpowerstest_random_ghosted_np2.out
      test:
         suffix: random_ghosted_np4_complex
         nsize: 4
         args: -s 10 -mpk_mat_powers_type ghosted -check_info
         output_file: output/matpowerstest_random_ghosted_np4.out
      test:
         suffix: random_plain_np4_complex
         nsize: 4
         args: -s 10 -mpk_mat_powers_type plain -check_info
         output_file: output/matpowerstest_random_plain_np4.out
      test:
         suffix: random_jacobi_abs_np2_complex
         nsize: 2
         args: -s 8 -use_pc -pc_type jacobi -pc_jacobi_abs -mpk_mat_powers_type ghosted
         output_file: output/matpowerstest_random_jacobi_abs_np2.out
      test:
         suffix: convdiff_jacobi_np4_complex
         nsize: 4
         args: -problem convdiff -n 24 -s 5 -use_pc -pc_type jacobi -mpk_mat_powers_type ghosted -check_info
         output_file: output/matpowerstest_convdiff_jacobi_np4.out
      test:
         suffix: change_values_np2_complex
         nsize: 2
         args: -s 6 -use_pc -pc_type jacobi -mpk_mat_powers_type ghosted -change values
         output_file: output/matpowerstest_change_values_np2.out
      test:
         suffix: left_jacobi_ghosted_np2_complex
         nsize: 2
         args: -s 8 -use_pc -pc_type jacobi -side left -mpk_mat_powers_type ghosted -change values
         output_file: output/matpowerstest_left_jacobi_ghosted_np2.out
      test:
         suffix: left_convdiff_jacobi_np4_complex
         nsize: 4
         args: -problem convdiff -n 24 -s 5 -use_pc -pc_type jacobi -side left -mpk_mat_powers_type ghosted
         output_file: output/matpowerstest_left_convdiff_jacobi_np4.out
      test:
         suffix: left_bjacobi_np2_complex
         nsize: 2
         args: -s 4 -use_pc -pc_type bjacobi -side left
         output_file: output/matpowerstest_left_bjacobi_np2.out
      test:
         suffix: convdiff_auto_np2_complex
         nsize: 2
         args: -problem convdiff -n 40 -s 4 -expect_type ghosted -check_info -view
         output_file: output/matpowerstest_convdiff_auto_np2.out
      test:
         suffix: bjacobi_fallback_np2_complex
         nsize: 2
         args: -s 4 -use_pc -pc_type bjacobi -mpk_mat_powers_type ghosted -view
         output_file: output/matpowerstest_bjacobi_fallback_np2.out
      test:
         suffix: shell_fallback_np2_complex
         nsize: 2
         args: -shell -s 4 -mpk_mat_powers_type ghosted -view
         output_file: output/matpowerstest_shell_fallback_np2.out
      test:
         suffix: pjds_host_np2_complex
         nsize: 2
         args: -mat_type pjdscuda -mat_jagged_host -problem convdiff -n 40 -s 4 -use_pc -pc_type jacobi -expect_type ghosted -view
         output_file: output/matpowerstest_pjds_host_np2.out
      test:
         suffix: dia_jacobi_np1_complex
         args: -problem convdiff -n 12 -s 6 -use_pc -pc_type jacobi -change values -view
         output_file: output/matpowerstest_dia_jacobi_np1.out
      test:
         suffix: dia_left_np1_complex
         args: -problem convdiff -n 12 -s 6 -use_pc -pc_type jacobi -side left -change values -view
         output_file: output/matpowerstest_dia_left_np1.out
      test:
         suffix: dia_off_np1_complex
         args: -problem convdiff -n 12 -s 6 -use_pc -pc_type jacobi -mpk_mat_powers_dia 0 -view
         output_file: output/matpowerstest_dia_off_np1.out
      test:
         suffix: dia_random_csr_np1_complex
         args: -s 6 -mpk_mat_powers_type plain -view
         output_file: output/matpowerstest_dia_random_csr_np1.out

   # the same in both scalar types
   test:
      suffix: random_monomial_np2
      nsize: 2
      args: -s 6 -shifts none -mpk_mat_powers_type ghosted
   test:
      suffix: convdiff_auto_np1
      args: -problem convdiff -n 20 -s 4 -shifts real -expect_type plain
   test:
      suffix: lap1d_np4
      nsize: 4
      args: -problem lap1d -n 60 -s 7 -shifts real -mpk_mat_powers_type ghosted -check_info
   test:
      suffix: change_pattern_np2
      nsize: 2
      args: -s 6 -shifts real -mpk_mat_powers_type ghosted -change pattern -check_info
   test:
      # the stencil's ghosted products through the blocks of A and R (-mat_powers_dia 0) and through the DIA copy of the extended rows
      suffix: ghosted_dia_off_np2
      nsize: 2
      args: -problem convdiff -n 40 -s 6 -shifts real -use_pc -pc_type jacobi -side left -mpk_mat_powers_type ghosted -mpk_mat_powers_dia 0 -change values -view
      filter: grep -E -o "own rows through the blocks of A \(seqaij\)|matpowers checks passed: [a-z]+ kernel"
   test:
      suffix: ghosted_dia_np4
      nsize: 4
      args: -problem convdiff -n 40 -s 6 -shifts real -use_pc -pc_type jacobi -mpk_mat_powers_type ghosted -change values -view
      filter: grep -E -o "a DIA copy of the extended rows in global order \(first process\) \([0-9]+ diagonals|matpowers checks passed: [a-z]+ kernel"
   test:
      suffix: partial_convdiff_np2
      nsize: 2
      args: -problem convdiff -n 40 -s 8 -shifts real -use_pc -pc_type jacobi -mpk_mat_powers_max_extra_flops 0.12 -mpk_mat_powers_partial -expect_type ghosted -expect_depth 3 -check_info -change values -view
   test:
      suffix: partial_off_np2
      nsize: 2
      args: -problem convdiff -n 40 -s 8 -shifts real -use_pc -pc_type jacobi -mpk_mat_powers_max_extra_flops 0.12 -expect_type plain
   test:
      suffix: partial_left_np4
      nsize: 4
      args: -problem convdiff -n 40 -s 6 -shifts real -use_pc -pc_type jacobi -side left -mpk_mat_powers_max_extra_flops 0.3 -mpk_mat_powers_partial -expect_type ghosted -expect_depth 2 -check_info
   test:
      suffix: partial_pair_np2
      nsize: 2
      requires: !complex
      args: -problem convdiff -n 40 -s 12 -shifts pair -mpk_mat_powers_max_extra_flops 0.17 -mpk_mat_powers_partial -expect_type ghosted -expect_depth 4 -check_info -view
   test:
      suffix: partial_pair_depth2_np2
      nsize: 2
      requires: !complex
      args: -problem convdiff -n 40 -s 12 -shifts pair -mpk_mat_powers_max_extra_flops 0.07 -mpk_mat_powers_partial -expect_type ghosted -expect_depth 2
   test:
      suffix: partial_pjds_host_np2
      nsize: 2
      args: -mat_type pjdscuda -mat_jagged_host -problem convdiff -n 64 -s 12 -shifts real -use_pc -pc_type jacobi -mpk_mat_powers_max_extra_flops 0.1 -mpk_mat_powers_partial -expect_type ghosted -expect_depth 4
      filter: grep -E -o "matpowers checks passed: [a-z]+ kernel|[0-9]+ halo exchanges for [0-9]+ products"
   test:
      suffix: ilu_fallback_np1
      args: -s 4 -shifts real -use_pc -pc_type ilu -mpk_mat_powers_type ghosted
   test:
      # the view: one halo exchange per apply (10 applies, k = 1..10), info checked against the test's own count
      suffix: view_ghosted_np2
      nsize: 2
      args: -s 10 -mpk_mat_powers_type ghosted -check_info -view
   test:
      # auto: plain when the threshold is lower ...
      suffix: convdiff_threshold_np2
      nsize: 2
      args: -problem convdiff -n 40 -s 4 -mpk_mat_powers_max_extra_flops 0.1 -expect_type plain -view
   test:
      # ... or far entries make the ghost rows costly
      suffix: far_auto_plain_np4
      nsize: 4
      args: -far 0.2 -s 5 -expect_type plain -check_info -view
   test:
      # a process without rows, s beyond the graph's diameter
      suffix: zero_rows_np4
      nsize: 4
      args: -problem lap1d -n 3 -s 10 -mpk_mat_powers_type ghosted -check_info
   test:
      # the -log_view events: their names and counts
      suffix: log_view_np2
      nsize: 2
      args: -s 10 -mpk_mat_powers_type ghosted -log_view
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "^MatPowers[A-Za-z]* +[0-9]+|matpowers checks passed: [a-z]+ kernel"

   # bad input: the documented errors, no crash
   test:
      suffix: bad_s
      args: -bad s
      filter: Error: grep -E -o "needs s >= 1, not 0|Segmentation|signal [0-9]+" | sort -u
   test:
      suffix: bad_k
      args: -bad k
      filter: Error: grep -E -o "needs 1 <= k <= s = 5, not k = 6|Segmentation|signal [0-9]+" | sort -u
   test:
      suffix: bad_pair
      requires: !complex
      args: -bad pair
      filter: Error: grep -E -o "the second shift of a complex conjugate pair cannot start a call|Segmentation|signal [0-9]+" | sort -u
   test:
      suffix: bad_mismatch
      requires: !complex
      args: -bad mismatch
      filter: Error: grep -E -o "Shifts 0 and 1 are not a complex conjugate pair|Segmentation|signal [0-9]+" | sort -u
   test:
      suffix: bad_im
      requires: complex
      args: -bad im
      filter: Error: grep -E -o "Complex builds take complex shifts in theta_re|Segmentation|signal [0-9]+" | sort -u

   # GPU: the remote rows in the GPU type of A's block (none on one process), CUDA vectors, the own rows
   # copied on the device; the lines the checks name
   testset:
      requires: cuda_device !complex
      args: -use_gpu_aware_mpi 0 -vec_type cuda -shifts pair
      test:
         suffix: gpu_aijcusparse_np1
         args: -mat_type aijcusparse -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -mpk_mat_powers_type ghosted -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "own rows through the blocks of A \(seq(aij)?aijcusparse\), [0-9]+ remote rows to depth 5 in a (seq(aij)?aijcusparse|\(none\))|matpowers checks passed: ghosted"
      test:
         suffix: gpu_aijcusparse_np2
         nsize: 2
         args: -mat_type aijcusparse -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -mpk_mat_powers_type ghosted -view -mpk_mat_powers_dia 0
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "own rows through the blocks of A \(seq(aij)?aijcusparse\), [0-9]+ remote rows to depth 5 in a (seq(aij)?aijcusparse|\(none\))|matpowers checks passed: ghosted"
      test:
         suffix: gpu_pjdscuda_np1
         args: -mat_type pjdscuda -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -mpk_mat_powers_type ghosted -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "own rows through the blocks of A \(seq(aij)?pjdscuda\), [0-9]+ remote rows to depth 5 in a (seq(aij)?pjdscuda|\(none\))|matpowers checks passed: ghosted"
      test:
         suffix: gpu_pjdscuda_np2
         nsize: 2
         args: -mat_type pjdscuda -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -mpk_mat_powers_type ghosted -view -mpk_mat_powers_dia 0
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "own rows through the blocks of A \(seq(aij)?pjdscuda\), [0-9]+ remote rows to depth 5 in a (seq(aij)?pjdscuda|\(none\))|matpowers checks passed: ghosted"
      test:
         suffix: gpu_dia_ghosted_np2
         nsize: 2
         args: -mat_type aijcusparse -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -mpk_mat_powers_type ghosted -change values -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "products: a DIA copy of the extended rows in global order \(first process\) \([0-9]+ diagonals, on the GPU, its own rows found and written there\)|[0-9]+ own rows and [0-9]+ remote rows to depth 5 in the DIA copy|matpowers checks passed: ghosted"
      test:
         suffix: gpu_dia_ghosted_pjds_np2
         nsize: 2
         args: -mat_type pjdscuda -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -side left -mpk_mat_powers_type ghosted -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "products: a DIA copy of the extended rows in global order \(first process\) \([0-9]+ diagonals, on the GPU, its own rows found and written there\)|[0-9]+ own rows and [0-9]+ remote rows to depth 5 in the DIA copy|matpowers checks passed: ghosted"
      test:
         suffix: gpu_random_np1
         args: -mat_type aijcusparse -n 3000 -s 10 -mpk_mat_powers_type ghosted -change values -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "matpowers checks passed: ghosted|halo exchanges: 20 for 110 products"
      test:
         suffix: gpu_random_np2
         nsize: 2
         args: -mat_type aijcusparse -n 3000 -s 10 -mpk_mat_powers_type ghosted -change values -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "matpowers checks passed: ghosted|halo exchanges: 20 for 110 products"
      test:
         # left preconditioning: the DIA copy's rows scaled (1 process), each extended product scaled (2, ghosted)
         suffix: gpu_left_np1
         args: -mat_type aijcusparse -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -side left -change values -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "operator: M\^\{-1\} A, Jacobi (folded into the rows of the DIA copy|applied as a scaling of each extended product)|matpowers checks passed"
      test:
         # auto on 2 processes of one host: ghosted to depth 2 (the exchange skips the host), an exchange every 2 products
         suffix: gpu_left_np2
         nsize: 2
         args: -mat_type aijcusparse -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -side left -change values -expect_depth 2 -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "operator: M\^\{-1\} A, Jacobi (folded into the rows of the DIA copy|applied as a scaling of each extended product)|matpowers checks passed"
      test:
         suffix: gpu_dia_np1
         args: -mat_type aijcusparse -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -change values -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "products: a DIA copy of A \(5 diagonals, on the GPU\)|matpowers checks passed: plain"
      test:
         # one process, pJDS, left: the DIA copy found and filled on the GPU from the jagged format, its rows scaled, refreshed
         suffix: gpu_dia_pjds_np1
         args: -mat_type pjdscuda -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -side left -change values -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "products: a DIA copy of A \(5 diagonals, on the GPU\)|matpowers checks passed: plain"
         output_file: output/matpowerstest_gpu_dia_np1.out
      test:
         # partly ghosted on the GPU: through the DIA copy (auto on the GPU ghosts only through it)
         # auto on 2 processes of one host: the exchange skips the host (CUDA IPC), so the kernel is built to depth 2
         suffix: gpu_auto_depth_np2
         nsize: 2
         args: -mat_type pjdscuda -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -expect_type ghosted -expect_depth 2 -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "ghosted to depth 2 of s = 6 \(GPUs, the exchange skipping the host\)|through CUDA IPC, GPU to GPU|matpowers checks passed: ghosted"
      test:
         suffix: gpu_pjdscuda_partial_np2
         nsize: 2
         args: -mat_type pjdscuda -problem convdiff -n 64 -s 12 -use_pc -pc_type jacobi -mpk_mat_powers_max_extra_flops 0.1 -mpk_mat_powers_partial -expect_type ghosted -expect_depth 4 -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "[0-9]+ own rows and [0-9]+ remote rows to depth 3 in the DIA copy|partly ghosted, to depth 4 of s = 12|[0-9]+ halo exchanges for [0-9]+ products|matpowers checks passed: ghosted"

   # through a GPU-aware MPI (generated with PJ_GPU_AWARE_MPI=1, where mpiexec runs one): the ghosted exchange
   # hands device buffers to MPI; the same checks against the host kernel
   testset:
      requires: cuda_device gpu_aware_mpi !complex
      args: -use_gpu_aware_mpi 1 -vec_type cuda -shifts pair
      nsize: 2
      test:
         suffix: cudampi_dia_ghosted_pjds_np2
         args: -mat_type pjdscuda -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -side left -mpk_mat_powers_type ghosted -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "products: a DIA copy of the extended rows in global order \(first process\) \([0-9]+ diagonals, on the GPU, its own rows found and written there\)|[0-9]+ own rows and [0-9]+ remote rows to depth 5 in the DIA copy|matpowers checks passed: ghosted"
         output_file: output/matpowerstest_gpu_dia_ghosted_pjds_np2.out
      test:
         suffix: cudampi_random_np2
         args: -mat_type aijcusparse -n 3000 -s 10 -mpk_mat_powers_type ghosted -change values -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "matpowers checks passed: ghosted|halo exchanges: 20 for 110 products"
         output_file: output/matpowerstest_gpu_random_np2.out

   testset:
      requires: cuda_device complex
      args: -use_gpu_aware_mpi 0 -vec_type cuda -shifts complex
      test:
         suffix: gpu_aijcusparse_np1_complex
         args: -mat_type aijcusparse -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -mpk_mat_powers_type ghosted -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "own rows through the blocks of A \(seq(aij)?aijcusparse\), [0-9]+ remote rows to depth 5 in a (seq(aij)?aijcusparse|\(none\))|matpowers checks passed: ghosted"
         output_file: output/matpowerstest_gpu_aijcusparse_np1.out
      test:
         suffix: gpu_aijcusparse_np2_complex
         nsize: 2
         args: -mat_type aijcusparse -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -mpk_mat_powers_type ghosted -view -mpk_mat_powers_dia 0
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "own rows through the blocks of A \(seq(aij)?aijcusparse\), [0-9]+ remote rows to depth 5 in a (seq(aij)?aijcusparse|\(none\))|matpowers checks passed: ghosted"
         output_file: output/matpowerstest_gpu_aijcusparse_np2.out
      test:
         suffix: gpu_pjdscuda_np1_complex
         args: -mat_type pjdscuda -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -mpk_mat_powers_type ghosted -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "own rows through the blocks of A \(seq(aij)?pjdscuda\), [0-9]+ remote rows to depth 5 in a (seq(aij)?pjdscuda|\(none\))|matpowers checks passed: ghosted"
         output_file: output/matpowerstest_gpu_pjdscuda_np1.out
      test:
         suffix: gpu_pjdscuda_np2_complex
         nsize: 2
         args: -mat_type pjdscuda -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -mpk_mat_powers_type ghosted -view -mpk_mat_powers_dia 0
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "own rows through the blocks of A \(seq(aij)?pjdscuda\), [0-9]+ remote rows to depth 5 in a (seq(aij)?pjdscuda|\(none\))|matpowers checks passed: ghosted"
         output_file: output/matpowerstest_gpu_pjdscuda_np2.out
      test:
         suffix: gpu_dia_ghosted_np2_complex
         nsize: 2
         args: -mat_type aijcusparse -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -mpk_mat_powers_type ghosted -change values -view
         output_file: output/matpowerstest_gpu_dia_ghosted_np2.out
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "products: a DIA copy of the extended rows in global order \(first process\) \([0-9]+ diagonals, on the GPU, its own rows found and written there\)|[0-9]+ own rows and [0-9]+ remote rows to depth 5 in the DIA copy|matpowers checks passed: ghosted"
      test:
         suffix: gpu_dia_ghosted_pjds_np2_complex
         nsize: 2
         args: -mat_type pjdscuda -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -side left -mpk_mat_powers_type ghosted -view
         output_file: output/matpowerstest_gpu_dia_ghosted_pjds_np2.out
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "products: a DIA copy of the extended rows in global order \(first process\) \([0-9]+ diagonals, on the GPU, its own rows found and written there\)|[0-9]+ own rows and [0-9]+ remote rows to depth 5 in the DIA copy|matpowers checks passed: ghosted"
      test:
         suffix: gpu_random_np1_complex
         args: -mat_type aijcusparse -n 3000 -s 10 -mpk_mat_powers_type ghosted -change values -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "matpowers checks passed: ghosted|halo exchanges: 20 for 110 products"
         output_file: output/matpowerstest_gpu_random_np1.out
      test:
         suffix: gpu_random_np2_complex
         nsize: 2
         args: -mat_type aijcusparse -n 3000 -s 10 -mpk_mat_powers_type ghosted -change values -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "matpowers checks passed: ghosted|halo exchanges: 20 for 110 products"
         output_file: output/matpowerstest_gpu_random_np2.out
      test:
         suffix: gpu_left_np1_complex
         args: -mat_type aijcusparse -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -side left -change values -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "operator: M\^\{-1\} A, Jacobi (folded into the rows of the DIA copy|applied as a scaling of each extended product)|matpowers checks passed"
         output_file: output/matpowerstest_gpu_left_np1.out
      test:
         suffix: gpu_left_np2_complex
         nsize: 2
         args: -mat_type aijcusparse -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -side left -change values -expect_depth 2 -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "operator: M\^\{-1\} A, Jacobi (folded into the rows of the DIA copy|applied as a scaling of each extended product)|matpowers checks passed"
         output_file: output/matpowerstest_gpu_left_np2.out
      test:
         suffix: gpu_dia_np1_complex
         args: -mat_type aijcusparse -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -change values -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "products: a DIA copy of A \(5 diagonals, on the GPU\)|matpowers checks passed: plain"
         output_file: output/matpowerstest_gpu_dia_np1.out
      test:
         suffix: gpu_dia_pjds_np1_complex
         args: -mat_type pjdscuda -problem convdiff -n 64 -s 6 -use_pc -pc_type jacobi -side left -change values -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "products: a DIA copy of A \(5 diagonals, on the GPU\)|matpowers checks passed: plain"
         output_file: output/matpowerstest_gpu_dia_np1.out
      test:
         # partly ghosted on the GPU: through the DIA copy (auto on the GPU ghosts only through it)
         suffix: gpu_pjdscuda_partial_np2_complex
         nsize: 2
         args: -mat_type pjdscuda -problem convdiff -n 64 -s 12 -use_pc -pc_type jacobi -mpk_mat_powers_max_extra_flops 0.1 -mpk_mat_powers_partial -expect_type ghosted -expect_depth 4 -view
         filter: ${PETSCJAGGED_DIR}/tests/harness/keep "[0-9]+ own rows and [0-9]+ remote rows to depth 3 in the DIA copy|partly ghosted, to depth 4 of s = 12|[0-9]+ halo exchanges for [0-9]+ products|matpowers checks passed: ghosted"

   # M^{-1} as the kernel applies it (MatPowersApplyPC(), after each round): PCJACOBI's inverse diagonal made by the kernel
   # (ghosted, plain, the DIA copy), with a zero on the diagonal (PCJACOBI puts 1 there, or keeps 0 with
   # -pc_jacobi_fixdiagonal 0), its other variants and other preconditioners through PCApply()
   testset:
      args: -use_pc -s 6 -check_apply_pc -change values
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "MatPowersApplyPC\(\) equals PCApply\(\) of PC [a-z]+|matpowers checks passed: [a-z]+ kernel"
      test:
         suffix: applypc_ghosted_np2
         nsize: 2
         args: -pc_type jacobi -mpk_mat_powers_type ghosted
      test:
         suffix: applypc_abs_left_np2
         nsize: 2
         args: -pc_type jacobi -pc_jacobi_abs -side left -mpk_mat_powers_type ghosted
      test:
         suffix: applypc_zero_np2
         nsize: 2
         args: -pc_type jacobi -zero_diagonal -mpk_mat_powers_type ghosted
      test:
         suffix: applypc_zero_nofix_np2
         nsize: 2
         args: -pc_type jacobi -zero_diagonal -pc_jacobi_fixdiagonal 0 -mpk_mat_powers_type ghosted
      test:
         suffix: applypc_rowmax_np2
         nsize: 2
         args: -pc_type jacobi -pc_jacobi_type rowmax -mpk_mat_powers_type ghosted
      test:
         suffix: applypc_plain_left_np2
         nsize: 2
         args: -pc_type jacobi -side left -zero_diagonal -mpk_mat_powers_type plain
      test:
         suffix: applypc_dia_zero_np1
         args: -problem convdiff -n 12 -pc_type jacobi -zero_diagonal
      test:
         suffix: applypc_bjacobi_np2
         nsize: 2
         args: -pc_type bjacobi
   testset:
      requires: cuda_device
      args: -use_gpu_aware_mpi 0 -vec_type cuda -problem convdiff -n 64 -use_pc -pc_type jacobi -s 6 -check_apply_pc -change values
      filter: ${PETSCJAGGED_DIR}/tests/harness/keep "MatPowersApplyPC\(\) equals PCApply\(\) of PC [a-z]+|matpowers checks passed: [a-z]+ kernel"
      test:
         suffix: gpu_applypc_ghosted_np2
         nsize: 2
         args: -mat_type aijcusparse -mpk_mat_powers_type ghosted
      test:
         suffix: gpu_applypc_zero_pjds_np2
         nsize: 2
         args: -mat_type pjdscuda -zero_diagonal -mpk_mat_powers_type ghosted
      test:
         suffix: gpu_applypc_dia_pjds_np1
         args: -mat_type pjdscuda -side left
      test:
         suffix: gpu_applypc_plain_pjds_np2
         nsize: 2
         args: -mat_type pjdscuda -mpk_mat_powers_type plain

TEST*/
