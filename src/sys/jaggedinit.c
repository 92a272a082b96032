#include <petsc/private/petscimpl.h>
#include <petscjagged.h>
#include <petscjagged/private/jaggednccl.h>
#include <petscjagged/private/jaggedcite.h>

static PetscBool PetscJaggedPackageInitialized = PETSC_FALSE;

static PetscBool  PJDSCited      = PETSC_FALSE;
static const char PJDSCitation[] = "@inproceedings{kreutzer2012pjds,\n"
                                   "  author    = {Moritz Kreutzer and Georg Hager and Gerhard Wellein and Holger Fehske and Achim Basermann and Alan R. Bishop},\n"
                                   "  title     = {Sparse Matrix-Vector Multiplication on {GPGPU} Clusters: A New Storage Format and a Scalable Implementation},\n"
                                   "  booktitle = {2012 IEEE 26th International Parallel and Distributed Processing Symposium Workshops and PhD Forum (IPDPSW)},\n"
                                   "  publisher = {IEEE},\n"
                                   "  year      = {2012}\n"
                                   "}\n";
static PetscBool  JDSCGCited      = PETSC_FALSE;
static const char JDSCGCitation[] = "@inproceedings{cevahir2009fastcg,\n"
                                    "  author    = {Ali Cevahir and Akira Nukada and Satoshi Matsuoka},\n"
                                    "  title     = {Fast Conjugate Gradients with Multiple {GPU}s},\n"
                                    "  booktitle = {Computational Science -- ICCS 2009},\n"
                                    "  series    = {Lecture Notes in Computer Science},\n"
                                    "  volume    = {5544},\n"
                                    "  publisher = {Springer},\n"
                                    "  year      = {2009}\n"
                                    "}\n";
static PetscBool  CAGMRESCited      = PETSC_FALSE;
static const char CAGMRESCitation[] = "@inproceedings{yamazaki2014cagmres,\n"
                                      "  author    = {Ichitaro Yamazaki and Hartwig Anzt and Stanimire Tomov and Mark Hoemmen and Jack Dongarra},\n"
                                      "  title     = {Improving the Performance of {CA-GMRES} on Multicores with Multiple {GPU}s},\n"
                                      "  booktitle = {2014 IEEE 28th International Parallel and Distributed Processing Symposium (IPDPS)},\n"
                                      "  publisher = {IEEE},\n"
                                      "  year      = {2014}\n"
                                      "}\n";

PetscErrorCode PetscJaggedCitePJDS(void)
{
  PetscFunctionBegin;
  PetscCall(PetscCitationsRegister(PJDSCitation, &PJDSCited));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscJaggedCiteJDSCG(void)
{
  PetscFunctionBegin;
  PetscCall(PetscCitationsRegister(JDSCGCitation, &JDSCGCited));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscJaggedCiteCAGMRES(void)
{
  PetscFunctionBegin;
  PetscCall(PetscCitationsRegister(CAGMRESCitation, &CAGMRESCited));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_EXTERN PetscErrorCode MatCreate_SeqJDSCUDA(Mat);
PETSC_EXTERN PetscErrorCode MatCreate_SeqPJDSCUDA(Mat);
PETSC_EXTERN PetscErrorCode MatCreate_MPIJDSCUDA(Mat);
PETSC_EXTERN PetscErrorCode MatCreate_MPIPJDSCUDA(Mat);
PETSC_INTERN PetscErrorCode MatSeqJaggedRegisterFactors(MatType);
PETSC_EXTERN PetscErrorCode PCCreate_SPCG(PC);
PETSC_EXTERN PetscErrorCode KSPCreate_MPCG(KSP);
PETSC_EXTERN PetscErrorCode KSPCreate_CAGMRES(KSP);
PETSC_INTERN PetscLogEvent  KSP_CAGMRES_BOrth, KSP_CAGMRES_TSQR, KSP_CAGMRES_Small;
PETSC_INTERN PetscLogEvent  MAT_JAGGED_Build, MAT_JAGGED_Refresh, MAT_JAGGED_MultSingle;
PETSC_INTERN PetscLogEvent  MAT_POWERS_Apply, MAT_POWERS_SetUp, MAT_POWERS_Ghosts, MAT_POWERS_Values, MAT_POWERS_Fetch, MAT_POWERS_Layer, MAT_POWERS_Plan, MAT_POWERS_Diags, MAT_POWERS_Build;
PETSC_INTERN PetscLogEvent  PC_SPCG_Inner, PC_SPCG_MGSetUp, PC_SPCG_MGOperators, PC_SPCG_MGTransfers, PC_SPCG_MGSmoothers, PC_SPCG_MGCoarse, PC_SPCG_VCycle;

const char *const PetscJaggedExchanges[] = {"auto", "mpi", "nccl", "ipc", "PetscJaggedExchange", "PETSC_JAGGED_EXCHANGE_", NULL};

#if defined(PETSC_USE_COMPLEX)
  #define PETSC_JAGGED_SCALAR_NAME "complex"
#else
  #define PETSC_JAGGED_SCALAR_NAME "real"
#endif
#if defined(PETSC_USE_REAL_SINGLE)
  #define PETSC_JAGGED_PRECISION_NAME "single"
#elif defined(PETSC_USE_REAL___FLOAT128)
  #define PETSC_JAGGED_PRECISION_NAME "__float128"
#elif defined(PETSC_USE_REAL___FP16)
  #define PETSC_JAGGED_PRECISION_NAME "__fp16"
#else
  #define PETSC_JAGGED_PRECISION_NAME "double"
#endif
#if defined(PETSC_USE_64BIT_INDICES)
  #define PETSC_JAGGED_INDEX_BITS 64
#else
  #define PETSC_JAGGED_INDEX_BITS 32
#endif

/* Value of the last "--opt=value" in PETSc's configure options; dflt when the option is absent */
static PetscErrorCode PetscJaggedConfigureValue(const char conf[], const char opt[], const char dflt[], char value[], size_t len)
{
  const char *p = conf, *last = NULL, *hit;
  size_t      optlen, n = 0;

  PetscFunctionBegin;
  PetscCall(PetscStrlen(opt, &optlen));
  while (p && (hit = strstr(p, opt))) {
    last = hit + optlen;
    p    = last;
  }
  PetscCall(PetscStrncpy(value, dflt, len));
  if (!last) PetscFunctionReturn(PETSC_SUCCESS);
  if (*last == '=') {
    last++;
    while (last[n] && last[n] != ' ' && last[n] != '\'' && last[n] != '"' && n + 1 < len) n++;
    PetscCall(PetscStrncpy(value, last, n + 1));
  } else if (*last == ' ' || *last == '\0' || *last == '\'' || *last == '"') {
    PetscCall(PetscStrncpy(value, "1", len)); /* a bare --with-foo means yes */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The plugin is compiled against one PETSc; loaded into another (e.g. the complex build, whose
  shared library has the same soname) every PetscScalar it passes would be misread. Stop instead.
*/
static PetscErrorCode PetscJaggedCheckRuntimePETSc(void)
{
  PetscInt    major, minor, subminor, release;
  const char *conf;
  char        scalar[32], precision[32], bits64[32];
  PetscBool   complex_, is64, same;

  PetscFunctionBegin;
  PetscCall(PetscGetVersionNumber(&major, &minor, &subminor, &release));
  PetscCheck(major == PETSC_VERSION_MAJOR && minor == PETSC_VERSION_MINOR, PETSC_COMM_SELF, PETSC_ERR_LIB,
             "petsc-jagged was built against PETSc %d.%d but is loaded into PETSc %" PetscInt_FMT ".%" PetscInt_FMT "; rebuild it against this PETSc", PETSC_VERSION_MAJOR, PETSC_VERSION_MINOR, major, minor);
  PetscCall(PetscGetConfiguration(&conf));
  PetscCall(PetscJaggedConfigureValue(conf, "--with-scalar-type", "real", scalar, sizeof(scalar)));
  PetscCall(PetscJaggedConfigureValue(conf, "--with-precision", "double", precision, sizeof(precision)));
  PetscCall(PetscJaggedConfigureValue(conf, "--with-64-bit-indices", "0", bits64, sizeof(bits64)));
  PetscCall(PetscStrcmp(scalar, "complex", &complex_));
  PetscCheck(complex_ == PetscDefined(USE_COMPLEX), PETSC_COMM_SELF, PETSC_ERR_LIB,
             "petsc-jagged was built for PETSc with %s scalars but is loaded into PETSc with %s scalars; load the build made for that PETSc (make petsc-dir SCALAR=%s)", PETSC_JAGGED_SCALAR_NAME, complex_ ? "complex" : "real", complex_ ? "complex" : "real");
  PetscCall(PetscStrcmp(precision, PETSC_JAGGED_PRECISION_NAME, &same));
  PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_LIB, "petsc-jagged was built for PETSc with %s precision but is loaded into PETSc with %s precision; rebuild it against this PETSc", PETSC_JAGGED_PRECISION_NAME, precision);
  is64 = (PetscBool)(bits64[0] == '1' || bits64[0] == 'y' || bits64[0] == 't');
  PetscCheck(is64 == PetscDefined(USE_64BIT_INDICES), PETSC_COMM_SELF, PETSC_ERR_LIB, "petsc-jagged was built for %d-bit PetscInt but is loaded into PETSc with %d-bit PetscInt; rebuild it against this PETSc",
             PETSC_JAGGED_INDEX_BITS, is64 ? 64 : 32);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PetscJaggedGetVersion - Gets the petsc-jagged version and the PETSc configuration it was built for

  Not Collective

  Input Parameter:
. len - length of `version`

  Output Parameter:
. version - a string such as "petsc-jagged 0.1.0 (PETSc 3.26.1, real double scalars, 32-bit indices)"

  Level: intermediate

.seealso: `PetscJaggedInitializePackage()`, `PetscGetVersion()`
@*/
PetscErrorCode PetscJaggedGetVersion(char version[], size_t len)
{
  PetscFunctionBegin;
  PetscAssertPointer(version, 1);
  PetscCall(PetscSNPrintf(version, len, "petsc-jagged %s (PETSc %d.%d.%d, %s %s scalars, %d-bit indices)", PETSC_JAGGED_VERSION_STRING, PETSC_VERSION_MAJOR, PETSC_VERSION_MINOR, PETSC_VERSION_SUBMINOR, PETSC_JAGGED_SCALAR_NAME, PETSC_JAGGED_PRECISION_NAME,
                          PETSC_JAGGED_INDEX_BITS));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PetscJaggedFinalizePackage - Called by `PetscFinalize()`; destroys the NCCL communicators and forgets that the package was initialized

  Level: developer

.seealso: `PetscJaggedInitializePackage()`
@*/
PetscErrorCode PetscJaggedFinalizePackage(void)
{
  PetscFunctionBegin;
  PetscCall(JaggedNCCLFinalize());
  PetscJaggedPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PetscJaggedInitializePackage - Checks that the running PETSc matches the one petsc-jagged was
  built for and registers the petsc-jagged types with PETSc

  Not Collective

  Level: beginner

  Notes:
  Called automatically when the library is loaded with `-dll_append`; a program that links
  libpetscjagged calls it once after `PetscInitialize()`. Further calls do nothing.

  Fails with `PETSC_ERR_LIB` when the running PETSc has another version, scalar type,
  precision or `PetscInt` size than the one the library was compiled against.

.seealso: `PetscJaggedFinalizePackage()`, `PetscDLLibraryRegister_petscjagged()`, `PetscJaggedGetVersion()`
@*/
PetscErrorCode PetscJaggedInitializePackage(void)
{
  char version[256];

  PetscFunctionBegin;
  if (PetscJaggedPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscJaggedCheckRuntimePETSc());
  PetscJaggedPackageInitialized = PETSC_TRUE;
  PetscCall(PetscRegisterFinalize(PetscJaggedFinalizePackage));
  PetscCall(MatInitializePackage());
  PetscCall(MatRegisterRootName(MATJDSCUDA, MATSEQJDSCUDA, MATMPIJDSCUDA));
  PetscCall(MatRegisterRootName(MATPJDSCUDA, MATSEQPJDSCUDA, MATMPIPJDSCUDA));
  PetscCall(MatRegister(MATSEQJDSCUDA, MatCreate_SeqJDSCUDA));
  PetscCall(MatRegister(MATSEQPJDSCUDA, MatCreate_SeqPJDSCUDA));
  PetscCall(MatRegister(MATMPIJDSCUDA, MatCreate_MPIJDSCUDA));
  PetscCall(MatRegister(MATMPIPJDSCUDA, MatCreate_MPIPJDSCUDA));
  PetscCall(MatSeqJaggedRegisterFactors(MATSEQJDSCUDA));
  PetscCall(MatSeqJaggedRegisterFactors(MATSEQPJDSCUDA));
  PetscCall(PCRegister(PCSPCG, PCCreate_SPCG));
  PetscCall(KSPRegister(KSPMPCG, KSPCreate_MPCG));
  PetscCall(KSPMonitorRegister("mpcg", PETSCVIEWERASCII, PETSC_VIEWER_DEFAULT, KSPMonitorMPCG, NULL, NULL));
  PetscCall(PetscLogEventRegister("PCSPCGInner", PC_CLASSID, &PC_SPCG_Inner));
  PetscCall(PetscLogEventRegister("PCSPCGMGSetUp", PC_CLASSID, &PC_SPCG_MGSetUp));
  PetscCall(PetscLogEventRegister("PCSPCGMGOperator", PC_CLASSID, &PC_SPCG_MGOperators));
  PetscCall(PetscLogEventRegister("PCSPCGMGTransfer", PC_CLASSID, &PC_SPCG_MGTransfers));
  PetscCall(PetscLogEventRegister("PCSPCGMGSmoother", PC_CLASSID, &PC_SPCG_MGSmoothers));
  PetscCall(PetscLogEventRegister("PCSPCGMGCoarse", PC_CLASSID, &PC_SPCG_MGCoarse));
  PetscCall(PetscLogEventRegister("PCSPCGVCycle", PC_CLASSID, &PC_SPCG_VCycle));
  PetscCall(PetscLogEventRegister("MatJaggedBuild", MAT_CLASSID, &MAT_JAGGED_Build));
  PetscCall(PetscLogEventRegister("MatJaggedRefresh", MAT_CLASSID, &MAT_JAGGED_Refresh));
  PetscCall(PetscLogEventRegister("MatJaggedMultSgl", MAT_CLASSID, &MAT_JAGGED_MultSingle));
  PetscCall(PetscClassIdRegister("MatPowers", &MATPOWERS_CLASSID));
  PetscCall(PetscLogEventRegister("MatPowers", MATPOWERS_CLASSID, &MAT_POWERS_Apply));
  PetscCall(PetscLogEventRegister("MatPowersSetUp", MATPOWERS_CLASSID, &MAT_POWERS_SetUp));
  PetscCall(PetscLogEventRegister("MatPowersGhosts", MATPOWERS_CLASSID, &MAT_POWERS_Ghosts));
  PetscCall(PetscLogEventRegister("MatPowersValues", MATPOWERS_CLASSID, &MAT_POWERS_Values));
  PetscCall(PetscLogEventRegister("MatPowersFetch", MATPOWERS_CLASSID, &MAT_POWERS_Fetch));
  PetscCall(PetscLogEventRegister("MatPowersLayer", MATPOWERS_CLASSID, &MAT_POWERS_Layer));
  PetscCall(PetscLogEventRegister("MatPowersPlan", MATPOWERS_CLASSID, &MAT_POWERS_Plan));
  PetscCall(PetscLogEventRegister("MatPowersDiags", MATPOWERS_CLASSID, &MAT_POWERS_Diags));
  PetscCall(PetscLogEventRegister("MatPowersBuild", MATPOWERS_CLASSID, &MAT_POWERS_Build));
  PetscCall(KSPRegister(KSPCAGMRES, KSPCreate_CAGMRES));
  PetscCall(PetscLogEventRegister("KSPCAGMRESBOrth", KSP_CLASSID, &KSP_CAGMRES_BOrth));
  PetscCall(PetscLogEventRegister("KSPCAGMRESTSQR", KSP_CLASSID, &KSP_CAGMRES_TSQR));
  PetscCall(PetscLogEventRegister("KSPCAGMRESSmall", KSP_CLASSID, &KSP_CAGMRES_Small));
  PetscCall(PetscLogEventRegister("JaggedNCCLWait", PETSC_SMALLEST_CLASSID, &PETSC_JAGGED_NCCLWait));
  PetscCall(PetscJaggedGetVersion(version, sizeof(version)));
  PetscCall(PetscInfo(NULL, "Registered %s\n", version));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PetscDLLibraryRegister_petscjagged - Entry point PETSc calls when it opens libpetscjagged
  through `-dll_append`, `-dll_prepend` or `PetscDLLibraryAppend()`

  Level: developer

  Note:
  Where an option of the database asks an exchange for NCCL (see `PetscJaggedExchange`) and the program runs on several
  processes with GPUs, the NCCL communicator of `PETSC_COMM_WORLD` starts being made here, in the background, so that its
  seconds pass while the program assembles.

.seealso: `PetscJaggedInitializePackage()`, `PetscDLLibraryAppend()`
@*/
PetscErrorCode PetscDLLibraryRegister_petscjagged(void)
{
  PetscFunctionBegin;
  PetscCall(PetscJaggedInitializePackage());
  PetscCall(JaggedNCCLPrefetchFromOptions()); /* loaded by every process of PETSC_COMM_WORLD */
  PetscFunctionReturn(PETSC_SUCCESS);
}
