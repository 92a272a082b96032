static char help[] = "Checks the public setters and getters of KSPMPCG, PCSPCG, KSPCAGMRES and MatPowers: every setter\n\
with a non-default value read back by its getter, the options read by the *SetFromOptions() routines, bad values\n\
refused, getters refused on other types, and PCSPCG set up again after a setter that changes what it builds.\n\
  -n <40>         rows of the 1D Laplacian (its type from -mat_type)\n\
  -from_options   compare the getters after *SetFromOptions() with the options given (all of them required):\n\
                  -mpcg_ksp_mpcg_{mmax,stagnation_its,continue_inner,single_inner}, -mpcg_pc_spcg_max_it,\n\
                  -spcg_pc_spcg_{max_it,rtol,jacobi,format,cuda_graph}, -ca_ksp_cagmres_{s,basis,tsqr,borth,max_breakdowns},\n\
                  -mpk_mat_powers_{type,dia,max_extra_flops}\n\n";

#include <petscjagged.h>
#include <pjcheck.h> /* CHECK(), CHECK_REFUSED(), nchecks */
#include <petsc/private/pcimpl.h> /* pc->setupcalled */

static PetscErrorCode BuildLaplacian(PetscInt n, Mat *A)
{
  PetscInt rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, n, n));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatSeqAIJSetPreallocation(*A, 3, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, 3, NULL, 1, NULL));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; i++) {
    PetscCall(MatSetValue(*A, i, i, 2.0, INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(*A, i, i - 1, -1.0, INSERT_VALUES));
    if (i < n - 1) PetscCall(MatSetValue(*A, i, i + 1, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Option values that must be given (-from_options) */
static PetscErrorCode RequireInt(const char prefix[], const char name[], PetscInt *v)
{
  PetscBool flg;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetInt(NULL, prefix, name, v, &flg));
  PetscCheck(flg, PETSC_COMM_WORLD, PETSC_ERR_USER, "-from_options needs -%s%s", prefix, name + 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RequireReal(const char prefix[], const char name[], PetscReal *v)
{
  PetscBool flg;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetReal(NULL, prefix, name, v, &flg));
  PetscCheck(flg, PETSC_COMM_WORLD, PETSC_ERR_USER, "-from_options needs -%s%s", prefix, name + 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RequireBool(const char prefix[], const char name[], PetscBool *v)
{
  PetscBool flg;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetBool(NULL, prefix, name, v, &flg));
  PetscCheck(flg, PETSC_COMM_WORLD, PETSC_ERR_USER, "-from_options needs -%s%s", prefix, name + 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RequireEnum(const char prefix[], const char name[], const char *const list[], PetscEnum *v)
{
  PetscBool flg;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetEnum(NULL, prefix, name, list, v, &flg));
  PetscCheck(flg, PETSC_COMM_WORLD, PETSC_ERR_USER, "-from_options needs -%s%s", prefix, name + 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The values the getters must return */
typedef struct {
  PetscInt                         mmax, stagits, outer_max_it; /* KSPMPCG and its PCSPCG */
  PetscBool                        cont, single;
  PetscInt                         max_it; /* PCSPCG */
  PetscReal                        rtol;
  PetscBool                        jacobi, graph;
  PCSPCGFormat                     format;
  PetscInt                         s, maxbreakdowns; /* KSPCAGMRES */
  KSPCAGMRESBasis                  basis;
  KSPCAGMRESOrthogonalization      tsqr;
  KSPCAGMRESBlockOrthogonalization borth;
  MatPowersType                    mtype; /* MatPowers */
  PetscBool                        dia;
  PetscReal                        extra;
  PetscJaggedExchange              spcgexchange, mpkexchange; /* PCSPCG, MatPowers */
  PetscBool                        partial;                   /* MatPowers */
  PetscBool                        usemg;                     /* PCSPCG: the single-precision V-cycle */
  PetscInt                         densemax;                  /* PCSPCG: the largest dense coarse problem */
  PCSPCGStorage                    storage;                   /* PCSPCG: the precision of the pJDS copies' values */
} Values;

static PetscErrorCode CheckGetters(KSP mpcg, PC spcg, KSP ca, MatPowers mpk, const Values *v, const char *when)
{
  PC                               inner;
  PetscInt                         i;
  PetscReal                        r;
  PetscBool                        b;
  PCSPCGFormat                     format;
  PCSPCGStorage                    storage;
  KSPCAGMRESBasis                  basis;
  KSPCAGMRESOrthogonalization      tsqr;
  KSPCAGMRESBlockOrthogonalization borth;
  MatPowersType                    mtype;
  PetscJaggedExchange              exchange;

  PetscFunctionBeginUser;
  PetscCall(KSPMPCGGetTruncation(mpcg, &i));
  CHECK(i == v->mmax, "%s: KSPMPCGGetTruncation() gave %" PetscInt_FMT ", not %" PetscInt_FMT, when, i, v->mmax);
  PetscCall(KSPMPCGGetStagnationIterations(mpcg, &i));
  CHECK(i == v->stagits, "%s: KSPMPCGGetStagnationIterations() gave %" PetscInt_FMT ", not %" PetscInt_FMT, when, i, v->stagits);
  PetscCall(KSPMPCGGetContinueInner(mpcg, &b));
  CHECK(b == v->cont, "%s: KSPMPCGGetContinueInner() gave %d, not %d", when, (int)b, (int)v->cont);
  PetscCall(KSPMPCGGetSingleInner(mpcg, &b));
  CHECK(b == v->single, "%s: KSPMPCGGetSingleInner() gave %d, not %d", when, (int)b, (int)v->single);
  PetscCall(KSPGetPC(mpcg, &inner));
  PetscCall(PCSPCGGetMaxIterations(inner, &i));
  CHECK(i == v->outer_max_it, "%s: PCSPCGGetMaxIterations() of KSPMPCG's PC gave %" PetscInt_FMT ", not %" PetscInt_FMT, when, i, v->outer_max_it);

  PetscCall(PCSPCGGetMaxIterations(spcg, &i));
  CHECK(i == v->max_it, "%s: PCSPCGGetMaxIterations() gave %" PetscInt_FMT ", not %" PetscInt_FMT, when, i, v->max_it);
  PetscCall(PCSPCGGetTolerance(spcg, &r));
  CHECK(r == v->rtol, "%s: PCSPCGGetTolerance() gave %g, not %g", when, (double)r, (double)v->rtol);
  PetscCall(PCSPCGGetJacobi(spcg, &b));
  CHECK(b == v->jacobi, "%s: PCSPCGGetJacobi() gave %d, not %d", when, (int)b, (int)v->jacobi);
  PetscCall(PCSPCGGetFormat(spcg, &format));
  CHECK(format == v->format, "%s: PCSPCGGetFormat() gave %s, not %s", when, PCSPCGFormats[format], PCSPCGFormats[v->format]);
  PetscCall(PCSPCGGetUseCUDAGraph(spcg, &b));
  CHECK(b == v->graph, "%s: PCSPCGGetUseCUDAGraph() gave %d, not %d", when, (int)b, (int)v->graph);
  PetscCall(PCSPCGGetExchange(spcg, &exchange));
  CHECK(exchange == v->spcgexchange, "%s: PCSPCGGetExchange() gave %s, not %s", when, PetscJaggedExchanges[exchange], PetscJaggedExchanges[v->spcgexchange]);
  PetscCall(PCSPCGGetMG(spcg, &b));
  CHECK(b == v->usemg, "%s: PCSPCGGetMG() gave %d, not %d", when, (int)b, (int)v->usemg);
  PetscCall(PCSPCGGetMGDenseMax(spcg, &i));
  CHECK(i == v->densemax, "%s: PCSPCGGetMGDenseMax() gave %" PetscInt_FMT ", not %" PetscInt_FMT, when, i, v->densemax);
  PetscCall(PCSPCGGetStorage(spcg, &storage));
  CHECK(storage == v->storage, "%s: PCSPCGGetStorage() gave %s, not %s", when, PCSPCGStorages[storage], PCSPCGStorages[v->storage]);

  PetscCall(KSPCAGMRESGetBlockSize(ca, &i));
  CHECK(i == v->s, "%s: KSPCAGMRESGetBlockSize() gave %" PetscInt_FMT ", not %" PetscInt_FMT, when, i, v->s);
  PetscCall(KSPCAGMRESGetBasis(ca, &basis));
  CHECK(basis == v->basis, "%s: KSPCAGMRESGetBasis() gave %s, not %s", when, KSPCAGMRESBases[basis], KSPCAGMRESBases[v->basis]);
  PetscCall(KSPCAGMRESGetOrthogonalization(ca, &tsqr));
  CHECK(tsqr == v->tsqr, "%s: KSPCAGMRESGetOrthogonalization() gave %s, not %s", when, KSPCAGMRESOrthogonalizations[tsqr], KSPCAGMRESOrthogonalizations[v->tsqr]);
  PetscCall(KSPCAGMRESGetBlockOrthogonalization(ca, &borth));
  CHECK(borth == v->borth, "%s: KSPCAGMRESGetBlockOrthogonalization() gave %s, not %s", when, KSPCAGMRESBlockOrthogonalizations[borth], KSPCAGMRESBlockOrthogonalizations[v->borth]);
  PetscCall(KSPCAGMRESGetMaxBreakdowns(ca, &i));
  CHECK(i == v->maxbreakdowns, "%s: KSPCAGMRESGetMaxBreakdowns() gave %" PetscInt_FMT ", not %" PetscInt_FMT, when, i, v->maxbreakdowns);

  PetscCall(MatPowersGetType(mpk, &mtype));
  CHECK(mtype == v->mtype, "%s: MatPowersGetType() gave %s, not %s", when, MatPowersTypes[mtype], MatPowersTypes[v->mtype]);
  PetscCall(MatPowersGetUseDIA(mpk, &b));
  CHECK(b == v->dia, "%s: MatPowersGetUseDIA() gave %d, not %d", when, (int)b, (int)v->dia);
  PetscCall(MatPowersGetMaxExtraFlops(mpk, &r));
  CHECK(r == v->extra, "%s: MatPowersGetMaxExtraFlops() gave %g, not %g", when, (double)r, (double)v->extra);
  PetscCall(MatPowersGetPartial(mpk, &b));
  CHECK(b == v->partial, "%s: MatPowersGetPartial() gave %d, not %d", when, (int)b, (int)v->partial);
  PetscCall(MatPowersGetExchange(mpk, &exchange));
  CHECK(exchange == v->mpkexchange, "%s: MatPowersGetExchange() gave %s, not %s", when, PetscJaggedExchanges[exchange], PetscJaggedExchanges[v->mpkexchange]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat           A;
  KSP           mpcg, ca;
  PC            spcg, inner, jac;
  MatPowers     mpk;
  Vec           x, b;
  PetscInt      n = 40, i;
  PetscReal     r;
  PetscBool     fromopts = PETSC_FALSE;
  PCSPCGStorage storage;
  Values        v;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscJaggedInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-from_options", &fromopts, NULL));
  PetscCall(BuildLaplacian(n, &A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &mpcg));
  PetscCall(KSPSetOptionsPrefix(mpcg, "mpcg_"));
  PetscCall(KSPSetType(mpcg, KSPMPCG));
  PetscCall(KSPSetOperators(mpcg, A, A));
  PetscCall(KSPGetPC(mpcg, &inner));
  PetscCall(PCCreate(PETSC_COMM_WORLD, &spcg));
  PetscCall(PCSetOptionsPrefix(spcg, "spcg_"));
  PetscCall(PCSetType(spcg, PCSPCG));
  PetscCall(PCSetOperators(spcg, A, A));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ca));
  PetscCall(KSPSetOptionsPrefix(ca, "ca_"));
  PetscCall(KSPSetType(ca, KSPCAGMRES));
  PetscCall(KSPSetOperators(ca, A, A));
  PetscCall(MatCreateMatrixPowers(A, 4, &mpk));
  PetscCall(MatPowersSetOptionsPrefix(mpk, "mpk_"));

  /* the defaults */
  v = (Values){30, 30, 50, PETSC_TRUE, PETSC_TRUE, 50, 0.0, PETSC_FALSE, PETSC_TRUE, PCSPCG_FORMAT_AUTO, 10, 5, KSP_CAGMRES_BASIS_NEWTON, KSP_CAGMRES_TSQR_CHOLQR, KSP_CAGMRES_BORTH_CGS, MAT_POWERS_AUTO, PETSC_TRUE, 0.25, PETSC_JAGGED_EXCHANGE_AUTO, PETSC_JAGGED_EXCHANGE_AUTO, PETSC_FALSE, PETSC_TRUE, 2000, PCSPCG_STORAGE_AUTO};
  PetscCall(CheckGetters(mpcg, spcg, ca, mpk, &v, "defaults"));

  if (fromopts) {
    PetscCall(KSPSetFromOptions(mpcg));
    PetscCall(PCSetFromOptions(spcg));
    PetscCall(KSPSetFromOptions(ca));
    PetscCall(MatPowersSetFromOptions(mpk));
    PetscCall(RequireInt("mpcg_", "-ksp_mpcg_mmax", &v.mmax));
    PetscCall(RequireInt("mpcg_", "-ksp_mpcg_stagnation_its", &v.stagits));
    PetscCall(RequireBool("mpcg_", "-ksp_mpcg_continue_inner", &v.cont));
    PetscCall(RequireBool("mpcg_", "-ksp_mpcg_single_inner", &v.single));
    PetscCall(RequireInt("mpcg_", "-pc_spcg_max_it", &v.outer_max_it));
    PetscCall(RequireInt("spcg_", "-pc_spcg_max_it", &v.max_it));
    PetscCall(RequireReal("spcg_", "-pc_spcg_rtol", &v.rtol));
    PetscCall(RequireBool("spcg_", "-pc_spcg_jacobi", &v.jacobi));
    PetscCall(RequireEnum("spcg_", "-pc_spcg_format", PCSPCGFormats, (PetscEnum *)&v.format));
    PetscCall(RequireBool("spcg_", "-pc_spcg_cuda_graph", &v.graph));
    PetscCall(RequireInt("ca_", "-ksp_cagmres_s", &v.s));
    PetscCall(RequireEnum("ca_", "-ksp_cagmres_basis", KSPCAGMRESBases, (PetscEnum *)&v.basis));
    PetscCall(RequireEnum("ca_", "-ksp_cagmres_tsqr", KSPCAGMRESOrthogonalizations, (PetscEnum *)&v.tsqr));
    PetscCall(RequireEnum("ca_", "-ksp_cagmres_borth", KSPCAGMRESBlockOrthogonalizations, (PetscEnum *)&v.borth));
    PetscCall(RequireInt("ca_", "-ksp_cagmres_max_breakdowns", &v.maxbreakdowns));
    PetscCall(RequireEnum("mpk_", "-mat_powers_type", MatPowersTypes, (PetscEnum *)&v.mtype));
    PetscCall(RequireBool("mpk_", "-mat_powers_dia", &v.dia));
    PetscCall(RequireReal("mpk_", "-mat_powers_max_extra_flops", &v.extra));
    PetscCall(RequireEnum("spcg_", "-pc_spcg_exchange", PetscJaggedExchanges, (PetscEnum *)&v.spcgexchange));
    PetscCall(RequireBool("spcg_", "-pc_spcg_mg", &v.usemg));
    PetscCall(RequireInt("spcg_", "-pc_spcg_mg_dense_max", &v.densemax));
    PetscCall(RequireEnum("spcg_", "-pc_spcg_storage", PCSPCGStorages, (PetscEnum *)&v.storage));
    PetscCall(RequireEnum("mpk_", "-mat_powers_exchange", PetscJaggedExchanges, (PetscEnum *)&v.mpkexchange));
    PetscCall(RequireBool("mpk_", "-mat_powers_partial", &v.partial));
    PetscCall(CheckGetters(mpcg, spcg, ca, mpk, &v, "options"));
  } else {
    v = (Values){7, 11, 13, PETSC_FALSE, PETSC_FALSE, 17, 0.125, PETSC_TRUE, PETSC_FALSE, PCSPCG_FORMAT_CSR, 3, 2, KSP_CAGMRES_BASIS_MONOMIAL, KSP_CAGMRES_TSQR_SVQR, KSP_CAGMRES_BORTH_MGS, MAT_POWERS_PLAIN, PETSC_FALSE, 0.5, PETSC_JAGGED_EXCHANGE_NCCL, PETSC_JAGGED_EXCHANGE_NCCL, PETSC_TRUE, PETSC_FALSE, 77, PCSPCG_STORAGE_HALF};
    PetscCall(KSPMPCGSetTruncation(mpcg, v.mmax));
    PetscCall(KSPMPCGSetStagnationIterations(mpcg, v.stagits));
    PetscCall(KSPMPCGSetContinueInner(mpcg, v.cont));
    PetscCall(KSPMPCGSetSingleInner(mpcg, v.single));
    PetscCall(PCSPCGSetMaxIterations(inner, v.outer_max_it));
    PetscCall(PCSPCGSetMaxIterations(spcg, v.max_it));
    PetscCall(PCSPCGSetTolerance(spcg, v.rtol));
    PetscCall(PCSPCGSetJacobi(spcg, v.jacobi));
    PetscCall(PCSPCGSetFormat(spcg, v.format));
    PetscCall(PCSPCGSetUseCUDAGraph(spcg, v.graph));
    PetscCall(KSPCAGMRESSetBlockSize(ca, v.s));
    PetscCall(KSPCAGMRESSetBasis(ca, v.basis));
    PetscCall(KSPCAGMRESSetOrthogonalization(ca, v.tsqr));
    PetscCall(KSPCAGMRESSetBlockOrthogonalization(ca, v.borth));
    PetscCall(KSPCAGMRESSetMaxBreakdowns(ca, v.maxbreakdowns));
    PetscCall(MatPowersSetType(mpk, v.mtype));
    PetscCall(MatPowersSetUseDIA(mpk, v.dia));
    PetscCall(MatPowersSetMaxExtraFlops(mpk, v.extra));
    PetscCall(PCSPCGSetExchange(spcg, v.spcgexchange));
    PetscCall(PCSPCGSetMG(spcg, v.usemg));
    PetscCall(PCSPCGSetMGDenseMax(spcg, v.densemax));
    PetscCall(PCSPCGSetStorage(spcg, v.storage));
    PetscCall(MatPowersSetExchange(mpk, v.mpkexchange));
    PetscCall(MatPowersSetPartial(mpk, v.partial));
    PetscCall(CheckGetters(mpcg, spcg, ca, mpk, &v, "setters"));
    /* no options given: *SetFromOptions() keeps what the setters set */
    PetscCall(KSPSetFromOptions(mpcg));
    PetscCall(PCSetFromOptions(spcg));
    PetscCall(KSPSetFromOptions(ca));
    PetscCall(MatPowersSetFromOptions(mpk));
    PetscCall(CheckGetters(mpcg, spcg, ca, mpk, &v, "setters, then *SetFromOptions()"));
  }

  /* bad values are refused and leave the value as it was */
  CHECK_REFUSED(PCSPCGSetMaxIterations(spcg, -1), PETSC_ERR_ARG_OUTOFRANGE);
  CHECK_REFUSED(PCSPCGSetTolerance(spcg, 1.0), PETSC_ERR_ARG_OUTOFRANGE);
  CHECK_REFUSED(PCSPCGSetTolerance(spcg, -0.5), PETSC_ERR_ARG_OUTOFRANGE);
  CHECK_REFUSED(PCSPCGSetFormat(spcg, (PCSPCGFormat)17), PETSC_ERR_ARG_OUTOFRANGE);
  CHECK_REFUSED(KSPMPCGSetTruncation(mpcg, 0), PETSC_ERR_ARG_OUTOFRANGE);
  CHECK_REFUSED(KSPMPCGSetTruncation(mpcg, 65), PETSC_ERR_ARG_OUTOFRANGE);
  CHECK_REFUSED(KSPMPCGSetStagnationIterations(mpcg, 0), PETSC_ERR_ARG_OUTOFRANGE);
  CHECK_REFUSED(KSPCAGMRESSetBlockSize(ca, 0), PETSC_ERR_ARG_OUTOFRANGE);
  CHECK_REFUSED(KSPCAGMRESSetMaxBreakdowns(ca, -1), PETSC_ERR_ARG_OUTOFRANGE);
  CHECK_REFUSED(MatPowersSetMaxExtraFlops(mpk, -1.0), PETSC_ERR_ARG_OUTOFRANGE);
  CHECK_REFUSED(PCSPCGSetExchange(spcg, (PetscJaggedExchange)5), PETSC_ERR_ARG_OUTOFRANGE);
  CHECK_REFUSED(PCSPCGSetMGDenseMax(spcg, -1), PETSC_ERR_ARG_OUTOFRANGE);
  CHECK_REFUSED(PCSPCGSetStorage(spcg, (PCSPCGStorage)3), PETSC_ERR_ARG_OUTOFRANGE);
  CHECK_REFUSED(MatPowersSetExchange(mpk, (PetscJaggedExchange)-1), PETSC_ERR_ARG_OUTOFRANGE);
  CHECK_REFUSED(MatJaggedSetExchange(A, (PetscJaggedExchange)4), PETSC_ERR_ARG_OUTOFRANGE);
  PetscCall(CheckGetters(mpcg, spcg, ca, mpk, &v, "after the refused values"));

  { /* the matrix's exchange: set and read back on an MPI jagged matrix; a sequential or AIJ matrix ignores the setter and has no getter */
    PetscBool           mpijagged;
    PetscJaggedExchange exchange;

    PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &mpijagged, MATMPIJDSCUDA, MATMPIPJDSCUDA, ""));
    PetscCall(MatJaggedSetExchange(A, PETSC_JAGGED_EXCHANGE_NCCL));
    if (mpijagged) {
      PetscCall(MatJaggedGetExchange(A, &exchange));
      CHECK(exchange == PETSC_JAGGED_EXCHANGE_NCCL, "MatJaggedGetExchange() gave %s, not nccl", PetscJaggedExchanges[exchange]);
      PetscCall(MatJaggedSetExchange(A, PETSC_JAGGED_EXCHANGE_MPI));
    } else CHECK_REFUSED(MatJaggedGetExchange(A, &exchange), PETSC_ERR_SUP);
  }

  /* another type: its setters do nothing, its getters fail */
  PetscCall(PCCreate(PETSC_COMM_WORLD, &jac));
  PetscCall(PCSetType(jac, PCJACOBI));
  PetscCall(PCSPCGSetMaxIterations(jac, 3));
  PetscCall(PCSPCGSetStorage(jac, PCSPCG_STORAGE_HALF));
  PetscCall(KSPMPCGSetTruncation(ca, 3));
  PetscCall(KSPCAGMRESSetMaxBreakdowns(mpcg, 3));
  CHECK_REFUSED(PCSPCGGetMaxIterations(jac, &i), PETSC_ERR_SUP);
  CHECK_REFUSED(PCSPCGGetStorage(jac, &storage), PETSC_ERR_SUP);
  CHECK_REFUSED(KSPMPCGGetTruncation(ca, &i), PETSC_ERR_SUP);
  CHECK_REFUSED(KSPCAGMRESGetMaxBreakdowns(mpcg, &i), PETSC_ERR_SUP);
  PetscCall(PCDestroy(&jac));

  /* a setter that changes what PCSetUp() builds sets the PCSPCG up again; the tolerance does not */
  PetscCall(PCSetUp(spcg));
  CHECK(spcg->setupcalled, "PCSetUp() did not set up the PCSPCG");
  PetscCall(PCSPCGSetTolerance(spcg, 0.25));
  CHECK(spcg->setupcalled, "PCSPCGSetTolerance() asked for a new set-up");
  PetscCall(PCSPCGSetFormat(spcg, v.format == PCSPCG_FORMAT_CSR ? PCSPCG_FORMAT_PJDS : PCSPCG_FORMAT_CSR));
  CHECK(!spcg->setupcalled, "PCSPCGSetFormat() with another format did not ask for a new set-up");
  PetscCall(PCSetUp(spcg));
  PetscCall(PCSPCGSetStorage(spcg, v.storage == PCSPCG_STORAGE_HALF ? PCSPCG_STORAGE_SINGLE : PCSPCG_STORAGE_HALF));
  CHECK(!spcg->setupcalled, "PCSPCGSetStorage() with another storage did not ask for a new set-up");
  PetscCall(PCSetUp(spcg));
  PetscCall(PCSPCGSetJacobi(spcg, (PetscBool)!v.jacobi));
  CHECK(!spcg->setupcalled, "PCSPCGSetJacobi() with another value did not ask for a new set-up");
  PetscCall(PCSetUp(spcg));
  PetscCall(PCSPCGSetMaxIterations(spcg, v.max_it + 1));
  CHECK(!spcg->setupcalled, "PCSPCGSetMaxIterations() with another value did not ask for a new set-up");
  PetscCall(PCSetUp(spcg));
  PetscCall(PCSPCGSetMaxIterations(spcg, v.max_it + 1));
  CHECK(spcg->setupcalled, "PCSPCGSetMaxIterations() with the same value asked for a new set-up");
  PetscCall(PCApply(spcg, b, x));
  PetscCall(PCSPCGGetInnerIterations(spcg, &i, NULL));
  CHECK(i == 1, "PCSPCG applied once after its new set-up counts %" PetscInt_FMT " applications", i);

  /* the solvers still solve with the values set */
  PetscCall(KSPSetTolerances(mpcg, 1e-10, PETSC_CURRENT, PETSC_CURRENT, PETSC_CURRENT));
  PetscCall(KSPSolve(mpcg, b, x));
  {
    KSPConvergedReason reason;

    PetscCall(KSPGetConvergedReason(mpcg, &reason));
    CHECK(reason > 0, "KSPMPCG did not converge: %s", KSPConvergedReasons[reason]);
    PetscCall(KSPSetTolerances(ca, 1e-10, PETSC_CURRENT, PETSC_CURRENT, PETSC_CURRENT));
    PetscCall(KSPSolve(ca, b, x));
    PetscCall(KSPGetConvergedReason(ca, &reason));
    CHECK(reason > 0, "KSPCAGMRES did not converge: %s", KSPConvergedReasons[reason]);
  }
  PetscCall(KSPMPCGGetTruncation(mpcg, &i));
  CHECK(i == v.mmax, "KSPMPCGGetTruncation() after the solve gave %" PetscInt_FMT ", not %" PetscInt_FMT, i, v.mmax);
  PetscCall(MatPowersGetMaxExtraFlops(mpk, &r));
  CHECK(r == v.extra, "MatPowersGetMaxExtraFlops() gave %g, not %g", (double)r, (double)v.extra);

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "apitest: %" PetscInt_FMT " checks passed (%s)\n", nchecks, fromopts ? "options" : "setters"));
  PetscCall(MatPowersDestroy(&mpk));
  PetscCall(KSPDestroy(&ca));
  PetscCall(PCDestroy(&spcg));
  PetscCall(KSPDestroy(&mpcg));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # every option's setter and getter (the program counts its checks: "apitest: N checks passed")
   test:
      suffix: setters
   test:
      suffix: setters_pjds_np2
      nsize: 2
      args: -mat_type pjdscuda -mat_jagged_host

   # the options read by the *SetFromOptions() routines
   testset:
      args: -from_options -mpcg_ksp_mpcg_mmax 9 -mpcg_ksp_mpcg_stagnation_its 12 -mpcg_ksp_mpcg_continue_inner 0 -mpcg_ksp_mpcg_single_inner 0 -mpcg_pc_spcg_max_it 21
      args: -spcg_pc_spcg_max_it 19 -spcg_pc_spcg_rtol 0.0625 -spcg_pc_spcg_jacobi 1 -spcg_pc_spcg_format dia -spcg_pc_spcg_cuda_graph 0 -spcg_pc_spcg_exchange nccl -spcg_pc_spcg_mg 0 -spcg_pc_spcg_mg_dense_max 55 -spcg_pc_spcg_storage half
      args: -ca_ksp_cagmres_s 4 -ca_ksp_cagmres_basis monomial -ca_ksp_cagmres_tsqr caqr -ca_ksp_cagmres_borth mgs -ca_ksp_cagmres_max_breakdowns 3
      args: -mpk_mat_powers_type ghosted -mpk_mat_powers_dia 0 -mpk_mat_powers_max_extra_flops 0.75 -mpk_mat_powers_exchange nccl -mpk_mat_powers_partial 1
      test:
         suffix: options
      test:
         suffix: options_pjds
         args: -mat_type pjdscuda -mat_jagged_host
      # a bad value given as an option is refused by the setter *SetFromOptions() calls
      test:
         suffix: bad_option_mmax
         args: -mpcg_ksp_mpcg_mmax 0
         filter: Error: grep -E -o "truncation \(-ksp_mpcg_mmax\) must be in \[1, 64\], not 0|Segmentation|signal [0-9]+" | sort -u
      test:
         suffix: bad_option_extra_flops
         args: -mpk_mat_powers_max_extra_flops -1
         filter: Error: grep -E -o "extra flops limit \(-mat_powers_max_extra_flops\) must be nonnegative|Segmentation|signal [0-9]+" | sort -u

      test:
         suffix: bad_option_exchange
         args: -spcg_pc_spcg_exchange gpu
         filter: Error: grep -E -o "Unknown .*gpu.*-spcg_pc_spcg_exchange|Segmentation|signal [0-9]+" | sort -u

TEST*/
