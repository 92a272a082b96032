/*
   petsc-jagged: jagged-diagonal GPU matrices and Krylov solvers for PETSc.

   Load into any PETSc program with -dll_append <libdir>/libpetscjagged.so (or PETSC_OPTIONS),
   or link it and call PetscJaggedInitializePackage() after PetscInitialize().
*/
#pragma once

#include <petscksp.h>

#define PETSC_JAGGED_VERSION_MAJOR 0
#define PETSC_JAGGED_VERSION_MINOR 1
#define PETSC_JAGGED_VERSION_SUBMINOR 0

/*MC
   petsc-jagged - a PETSc plugin library of GPU matrix types and Krylov solvers

   Level: beginner

   Notes:
   The library is built against one PETSc install (one scalar type, one precision) and refuses to
   load into a PETSc of another version, scalar type, precision or index size.

   Loading:
.vb
   ./app -dll_append /path/to/libpetscjagged.so [options]
   PETSC_OPTIONS="-dll_append /path/to/libpetscjagged.so" ./app [options]
.ve
   A program that links the library calls `PetscJaggedInitializePackage()` once after `PetscInitialize()`.

.seealso: `PetscJaggedInitializePackage()`, `PetscJaggedFinalizePackage()`, `PetscDLLibraryRegister_petscjagged()`
M*/

PETSC_EXTERN PetscErrorCode PetscJaggedInitializePackage(void);
PETSC_EXTERN PetscErrorCode PetscJaggedFinalizePackage(void);
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_petscjagged(void);
PETSC_EXTERN PetscErrorCode PetscJaggedGetVersion(char[], size_t);

/*
   Matrix types. The root names pick the sequential or the MPI type by communicator size.
*/
#define MATJDSCUDA     "jdscuda"
#define MATSEQJDSCUDA  "seqaijjdscuda"
#define MATMPIJDSCUDA  "mpiaijjdscuda"
#define MATPJDSCUDA    "pjdscuda"
#define MATSEQPJDSCUDA "seqaijpjdscuda"
#define MATMPIPJDSCUDA "mpiaijpjdscuda"

/*E
   MatJaggedKernel - How a jagged-diagonal matrix treats rows much longer than the others

   Values:
+  `MAT_JAGGED_KERNEL_AUTO`   - split off the long rows when there are any: rows longer than max(8 x mean, 64), or, in
                                matrices of at most 65536 rows averaging more than 16 entries, rows longer than 16
.  `MAT_JAGGED_KERNEL_JAGGED` - every row in the jagged-diagonal part, one thread per row (the papers' kernels)
-  `MAT_JAGGED_KERNEL_SPLIT`  - rows longer than `-mat_jagged_long_row_threshold` in a CSR part run by a warp (or a block) per row

   Level: intermediate

.seealso: `MATPJDSCUDA`, `MATJDSCUDA`, `MatJaggedSetKernel()`
E*/
typedef enum {
  MAT_JAGGED_KERNEL_AUTO,
  MAT_JAGGED_KERNEL_JAGGED,
  MAT_JAGGED_KERNEL_SPLIT
} MatJaggedKernel;
PETSC_EXTERN const char *const MatJaggedKernels[];

/*E
   MatJaggedBlocks - Whether a jagged-diagonal matrix with a block size (`MatGetBlockSize()` of 2 to 6) stores its
   entries in dense blocks with one column index each

   Values:
+  `MAT_JAGGED_BLOCKS_AUTO` - blocks where they move fewer bytes in a product than single entries: where the blocks'
                              values and one index each take fewer bytes than the nonzeros with an index each, except in
                              a matrix of at most 65536 rows with more than 32 blocks a block row on average
.  `MAT_JAGGED_BLOCKS_ON`   - blocks whenever the block size is 2 to 6 and divides the rows and columns
-  `MAT_JAGGED_BLOCKS_OFF`  - one column index per entry

   Level: intermediate

.seealso: `MATPJDSCUDA`, `MATJDSCUDA`, `MatJaggedSetBlocks()`
E*/
typedef enum {
  MAT_JAGGED_BLOCKS_AUTO,
  MAT_JAGGED_BLOCKS_ON,
  MAT_JAGGED_BLOCKS_OFF
} MatJaggedBlocks;
PETSC_EXTERN const char *const MatJaggedBlocksTypes[];

/*E
   PetscJaggedExchange - How the halo exchanges and reductions of petsc-jagged's GPU objects travel between processes

   Values:
+  `PETSC_JAGGED_EXCHANGE_AUTO` - the default: CUDA IPC where the processes share a host, else MPI; the inner sums of `PCSPCG` through CUDA IPC
                                  where each process also has a GPU of its own, else through MPI
.  `PETSC_JAGGED_EXCHANGE_MPI`  - through MPI: where MPI is GPU-aware (PETSc's `-use_gpu_aware_mpi 1`, its default), the device buffers
                                  go to MPI as they are; with `-use_gpu_aware_mpi 0` they are staged through pinned host memory. A host synchronization each
.  `PETSC_JAGGED_EXCHANGE_NCCL` - from GPU to GPU through NCCL, enqueued on the stream of the kernels, without a host synchronization
-  `PETSC_JAGGED_EXCHANGE_IPC`  - between the processes of one host through CUDA IPC: each process maps the receive buffers of the processes
                                  it sends to once, and pushes its messages into them with peer copies (a copy engine, no kernel) on the
                                  stream of the kernels; interprocess events order the GPUs and a zero-byte MPI message per neighbour tells
                                  that an event was recorded, so the host never waits for a GPU. `PCSPCG`'s inner sums: a one-thread kernel
                                  stores this process's values and a sequence number into every other's memory and waits for theirs

   Level: intermediate

   Notes:
   Reductions whose result the host needs (`KSPCAGMRES`'s Gram matrices) go through host memory on every path but NCCL;
   `PCSPCG`'s inner sums stay on the GPUs through NCCL or CUDA IPC.

   NCCL runs where every process has a GPU of its own and finds `libnccl.so.2` (on the loader's path, else
   the copy petsc-jagged was built against); CUDA IPC where the processes share a host and can map each other's
   device memory (two processes may share a GPU); elsewhere, and on one process, the MPI path runs. The object's view
   names the path taken and why. The NCCL communicator is made once per communicator, by a thread of its own
   started when NCCL is asked for (the setter or the option), so that it is made while the program goes on;
   making it costs seconds (see bench/RESULTS.md), which is why the default takes it only where asked for.

.seealso: `MatJaggedSetExchange()`, `PCSPCGSetExchange()`, `MatPowersSetExchange()`
E*/
typedef enum {
  PETSC_JAGGED_EXCHANGE_AUTO,
  PETSC_JAGGED_EXCHANGE_MPI,
  PETSC_JAGGED_EXCHANGE_NCCL,
  PETSC_JAGGED_EXCHANGE_IPC
} PetscJaggedExchange;
PETSC_EXTERN const char *const PetscJaggedExchanges[];

/*
   Scalar of the single-precision copy: float, or a complex of two floats in complex builds
   (same layout as std::complex<float> and float _Complex).
*/
#if defined(PETSC_USE_COMPLEX)
  #if defined(__cplusplus)
    #include <complex>
typedef std::complex<float> PetscJaggedScalarSingle;
  #else
typedef float _Complex PetscJaggedScalarSingle;
  #endif
#else
typedef float PetscJaggedScalarSingle;
#endif

PETSC_EXTERN PetscErrorCode MatJaggedSetSinglePrecision(Mat, PetscBool);
PETSC_EXTERN PetscErrorCode MatJaggedGetSinglePrecision(Mat, PetscBool *);
PETSC_EXTERN PetscErrorCode MatJaggedMultSingle(Mat, const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[]);

/*S
   MatJaggedMultSingleFn - A single-precision product y = A x that any matrix (a `MATSHELL`, say) can
   provide with `MatJaggedSetMultSingle()`: x and y are local arrays of `PetscJaggedScalarSingle` in the
   memory of the matrix's vectors (GPU memory for CUDA vectors)

   Level: advanced

.seealso: `MatJaggedSetMultSingle()`, `MatJaggedMultSingle()`, `PCSPCG`
S*/
typedef PetscErrorCode (*MatJaggedMultSingleFn)(Mat, const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[]);
PETSC_EXTERN PetscErrorCode MatJaggedSetMultSingle(Mat, MatJaggedMultSingleFn);
PETSC_EXTERN PetscErrorCode MatJaggedSetKernel(Mat, MatJaggedKernel, PetscInt);
PETSC_EXTERN PetscErrorCode MatJaggedGetKernel(Mat, MatJaggedKernel *, PetscInt *);
PETSC_EXTERN PetscErrorCode MatJaggedSetBlocks(Mat, MatJaggedBlocks);
PETSC_EXTERN PetscErrorCode MatJaggedGetBlocks(Mat, MatJaggedBlocks *, PetscInt *);
PETSC_EXTERN PetscErrorCode MatJaggedSetExchange(Mat, PetscJaggedExchange);
PETSC_EXTERN PetscErrorCode MatJaggedGetExchange(Mat, PetscJaggedExchange *);
PETSC_EXTERN PetscErrorCode MatPJDSSetBlockRows(Mat, PetscInt);
PETSC_EXTERN PetscErrorCode MatPJDSGetBlockRows(Mat, PetscInt *);
PETSC_EXTERN PetscErrorCode MatJaggedSetUseHost(Mat, PetscBool);
PETSC_EXTERN PetscErrorCode MatJaggedGetUseHost(Mat, PetscBool *);
PETSC_EXTERN PetscErrorCode MatJaggedGetStorage(Mat, PetscCount *, PetscCount *);
PETSC_EXTERN PetscErrorCode MatJaggedGetProductBytes(Mat, PetscReal *);

/* Mixed-precision inner-outer CG: the outer flexible CG and the single-precision inner CG */
#define KSPMPCG "mpcg"
#define PCSPCG  "spcg"

/*E
   PCSPCGFormat - The storage of the single-precision copy `PCSPCG` makes of an AIJ operator (of its diagonal block)

   Values:
+  `PCSPCG_FORMAT_AUTO` - DIA where the entries lie on few diagonals and DIA moves fewer bytes than CSR, pJDS otherwise
.  `PCSPCG_FORMAT_CSR`  - the values rounded to single precision, with the matrix's own CSR indices
.  `PCSPCG_FORMAT_DIA`  - the values stored diagonal by diagonal, without column indices (at most 32 diagonals)
-  `PCSPCG_FORMAT_PJDS` - padded jagged diagonals, the format and kernel of `MATPJDSCUDA`

   Level: intermediate

   Note:
   Operators of the jagged types (`MATPJDSCUDA`, `MATJDSCUDA`) on the GPU get the DIA copy with `PCSPCG_FORMAT_AUTO` (where
   every process's diagonal block lies on few diagonals and DIA pays) and `PCSPCG_FORMAT_DIA`, found and filled from the
   jagged format on the GPU; otherwise, and with `PCSPCG_FORMAT_PJDS` or `PCSPCG_FORMAT_CSR`, a pJDS copy of their own where
   half storage, or auto storage with a format other than CSR, applies (real scalars, `PCSPCGSetStorage()`), else their own
   single-precision copy.

.seealso: `PCSPCG`, `PCSPCGSetFormat()`, `PCSPCGGetFormat()`
E*/
typedef enum {
  PCSPCG_FORMAT_AUTO,
  PCSPCG_FORMAT_CSR,
  PCSPCG_FORMAT_DIA,
  PCSPCG_FORMAT_PJDS
} PCSPCGFormat;

/*E
   PCSPCGStorage - The precision in which `PCSPCG` stores the values of its single-precision copies (of the operator and of
   every level of its single-precision V-cycle)

   Values:
+  `PCSPCG_STORAGE_SINGLE` - single precision (4 bytes a value; complex: 8)
.  `PCSPCG_STORAGE_HALF`   - IEEE half precision (2 bytes a value) of each pJDS copy scaled symmetrically by its diagonal,
                             D^{-1/2} A D^{-1/2} with D = |diag(A)|, so that the stored entries are of order one; the product
                             scales the vectors and computes in single precision. Real scalars only (complex builds keep
                             single); DIA and CSR copies, and off-diagonal blocks, stay in single precision.
-  `PCSPCG_STORAGE_AUTO`   - half where it pays and is safe, else single: for each pJDS copy that keeps dense blocks (a
                             scalar pJDS product is no faster in half) whose scaled entries are those of a symmetric positive
                             definite matrix (positive diagonal, |S_ij| <= 1) and lose at most half's rounding to underflow;
                             and back to single precision during a solve where an outer step shows the half copies limit it

   Level: advanced

   Note:
   `PCView()` gives each copy's storage, its bytes a nonzero, how many entries half stores as subnormals or as zero, why auto
   kept single precision for a copy, and a fallback during a solve.

.seealso: [](ch_ksp), `PCSPCG`, `PCSPCGSetStorage()`, `PCSPCGGetStorage()`, `PCSPCGFormat`
E*/
typedef enum {
  PCSPCG_STORAGE_SINGLE,
  PCSPCG_STORAGE_HALF,
  PCSPCG_STORAGE_AUTO
} PCSPCGStorage;
PETSC_EXTERN const char *const PCSPCGStorages[];
PETSC_EXTERN const char *const PCSPCGFormats[];

PETSC_EXTERN PetscErrorCode PCSPCGGetInnerIterations(PC, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode PCSPCGSetInnerPC(PC, PC);
PETSC_EXTERN PetscErrorCode PCSPCGSetMaxIterations(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCSPCGGetMaxIterations(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCSPCGSetTolerance(PC, PetscReal);
PETSC_EXTERN PetscErrorCode PCSPCGGetTolerance(PC, PetscReal *);
PETSC_EXTERN PetscErrorCode PCSPCGSetJacobi(PC, PetscBool);
PETSC_EXTERN PetscErrorCode PCSPCGGetJacobi(PC, PetscBool *);
PETSC_EXTERN PetscErrorCode PCSPCGSetFormat(PC, PCSPCGFormat);
PETSC_EXTERN PetscErrorCode PCSPCGGetFormat(PC, PCSPCGFormat *);
PETSC_EXTERN PetscErrorCode PCSPCGSetStorage(PC, PCSPCGStorage);
PETSC_EXTERN PetscErrorCode PCSPCGGetStorage(PC, PCSPCGStorage *);
PETSC_EXTERN PetscErrorCode PCSPCGSetHalfMinNonzeros(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCSPCGGetHalfMinNonzeros(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCSPCGSetUseCUDAGraph(PC, PetscBool);
PETSC_EXTERN PetscErrorCode PCSPCGGetUseCUDAGraph(PC, PetscBool *);
PETSC_EXTERN PetscErrorCode PCSPCGSetExchange(PC, PetscJaggedExchange);
PETSC_EXTERN PetscErrorCode PCSPCGGetExchange(PC, PetscJaggedExchange *);
PETSC_EXTERN PetscErrorCode PCSPCGSetMG(PC, PetscBool);
PETSC_EXTERN PetscErrorCode PCSPCGGetMG(PC, PetscBool *);
PETSC_EXTERN PetscErrorCode PCSPCGSetMGDenseMax(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCSPCGGetMGDenseMax(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode KSPMPCGSetTruncation(KSP, PetscInt);
PETSC_EXTERN PetscErrorCode KSPMPCGGetTruncation(KSP, PetscInt *);
PETSC_EXTERN PetscErrorCode KSPMPCGSetStagnationIterations(KSP, PetscInt);
PETSC_EXTERN PetscErrorCode KSPMPCGGetStagnationIterations(KSP, PetscInt *);
PETSC_EXTERN PetscErrorCode KSPMPCGSetContinueInner(KSP, PetscBool);
PETSC_EXTERN PetscErrorCode KSPMPCGGetContinueInner(KSP, PetscBool *);
PETSC_EXTERN PetscErrorCode KSPMPCGSetSingleInner(KSP, PetscBool);
PETSC_EXTERN PetscErrorCode KSPMPCGGetSingleInner(KSP, PetscBool *);
PETSC_EXTERN PetscErrorCode KSPMPCGGetInnerIterations(KSP, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode KSPMonitorMPCG(KSP, PetscInt, PetscReal, PetscViewerAndFormat *);

/*
   Matrix-powers kernel: s products with a (right-preconditioned, shifted) operator for one halo
   exchange, the basis generator of KSPCAGMRES (src/mat/utils/matpowers/).
*/
typedef struct _p_MatPowers *MatPowers;
PETSC_EXTERN PetscClassId MATPOWERS_CLASSID;

/*E
   MatPowersType - How a `MatPowers` computes its s products

   Values:
+  `MAT_POWERS_AUTO`    - ghosted when the depth-s ghost rows cost less than the halo exchanges they save, plain otherwise
.  `MAT_POWERS_GHOSTED` - each process multiplies its rows extended by the depth-s ghost rows: one halo exchange per s products
-  `MAT_POWERS_PLAIN`   - s ordinary `MatMult()` (and `PCApply()`) calls, one halo exchange each

   Level: intermediate

.seealso: `MatPowers`, `MatCreateMatrixPowers()`, `MatPowersSetType()`
E*/
typedef enum {
  MAT_POWERS_AUTO,
  MAT_POWERS_GHOSTED,
  MAT_POWERS_PLAIN
} MatPowersType;
PETSC_EXTERN const char *const MatPowersTypes[];

PETSC_EXTERN PetscErrorCode MatCreateMatrixPowers(Mat, PetscInt, MatPowers *);
PETSC_EXTERN PetscErrorCode MatPowersSetPC(MatPowers, PC);
PETSC_EXTERN PetscErrorCode MatPowersSetPCSide(MatPowers, PCSide);
PETSC_EXTERN PetscErrorCode MatPowersSetType(MatPowers, MatPowersType);
PETSC_EXTERN PetscErrorCode MatPowersGetType(MatPowers, MatPowersType *);
PETSC_EXTERN PetscErrorCode MatPowersSetUseDIA(MatPowers, PetscBool);
PETSC_EXTERN PetscErrorCode MatPowersGetUseDIA(MatPowers, PetscBool *);
PETSC_EXTERN PetscErrorCode MatPowersSetMaxExtraFlops(MatPowers, PetscReal);
PETSC_EXTERN PetscErrorCode MatPowersGetMaxExtraFlops(MatPowers, PetscReal *);
PETSC_EXTERN PetscErrorCode MatPowersSetPartial(MatPowers, PetscBool);
PETSC_EXTERN PetscErrorCode MatPowersGetPartial(MatPowers, PetscBool *);
PETSC_EXTERN PetscErrorCode MatPowersSetExchange(MatPowers, PetscJaggedExchange);
PETSC_EXTERN PetscErrorCode MatPowersGetExchange(MatPowers, PetscJaggedExchange *);
PETSC_EXTERN PetscErrorCode MatPowersSetOptionsPrefix(MatPowers, const char[]);
PETSC_EXTERN PetscErrorCode MatPowersSetFromOptions(MatPowers);
PETSC_EXTERN PetscErrorCode MatPowersSetUp(MatPowers);
PETSC_EXTERN PetscErrorCode MatPowersApply(MatPowers, PetscInt, const PetscScalar[], const PetscReal[], Vec[]);
PETSC_EXTERN PetscErrorCode MatPowersApplyPC(MatPowers, Vec, Vec);
PETSC_EXTERN PetscErrorCode MatPowersGetInfo(MatPowers, PetscReal *, PetscReal *);
PETSC_EXTERN PetscErrorCode MatPowersView(MatPowers, PetscViewer);
PETSC_EXTERN PetscErrorCode MatPowersDestroy(MatPowers *);

/* Communication-avoiding GMRES(s, m) */
#define KSPCAGMRES "cagmres"

/*E
   KSPCAGMRESOrthogonalization - How `KSPCAGMRES` orthogonalizes the s new basis vectors within their block (TSQR)

   Values:
+  `KSP_CAGMRES_TSQR_CHOLQR` - Cholesky QR: the Gram matrix (one reduction), its Cholesky factor R, then V R^{-1}
.  `KSP_CAGMRES_TSQR_SVQR`   - singular-value QR: R from the eigendecomposition of the Gram matrix (one reduction)
.  `KSP_CAGMRES_TSQR_CAQR`   - communication-avoiding QR: local Householder QR, QR of the stacked R factors (one reduction)
.  `KSP_CAGMRES_TSQR_MGS`    - modified Gram-Schmidt (one reduction per inner product)
-  `KSP_CAGMRES_TSQR_CGS`    - classical Gram-Schmidt (one reduction per vector)

   Level: intermediate

.seealso: `KSPCAGMRES`, `KSPCAGMRESSetOrthogonalization()`
E*/
typedef enum {
  KSP_CAGMRES_TSQR_CHOLQR,
  KSP_CAGMRES_TSQR_SVQR,
  KSP_CAGMRES_TSQR_CAQR,
  KSP_CAGMRES_TSQR_MGS,
  KSP_CAGMRES_TSQR_CGS
} KSPCAGMRESOrthogonalization;
PETSC_EXTERN const char *const KSPCAGMRESOrthogonalizations[];

/*E
   KSPCAGMRESBasis - The polynomial basis `KSPCAGMRES` generates the s vectors of a block in

   Values:
+  `KSP_CAGMRES_BASIS_NEWTON`   - v_{j+1} = (B - theta_j) v_j with the Leja-ordered Ritz values of the first (standard GMRES) cycle
-  `KSP_CAGMRES_BASIS_MONOMIAL` - v_{j+1} = B v_j; its vectors become dependent quickly as s grows

   Level: intermediate

.seealso: `KSPCAGMRES`, `KSPCAGMRESSetBasis()`
E*/
typedef enum {
  KSP_CAGMRES_BASIS_NEWTON,
  KSP_CAGMRES_BASIS_MONOMIAL
} KSPCAGMRESBasis;
PETSC_EXTERN const char *const KSPCAGMRESBases[];

/*E
   KSPCAGMRESBlockOrthogonalization - How `KSPCAGMRES` orthogonalizes a new block against the earlier basis vectors (BOrth)

   Values:
+  `KSP_CAGMRES_BORTH_CGS` - classical Gram-Schmidt: one block inner product (one reduction)
-  `KSP_CAGMRES_BORTH_MGS` - modified Gram-Schmidt: one reduction per earlier basis vector

   Level: intermediate

.seealso: `KSPCAGMRES`, `KSPCAGMRESSetBlockOrthogonalization()`
E*/
typedef enum {
  KSP_CAGMRES_BORTH_CGS,
  KSP_CAGMRES_BORTH_MGS
} KSPCAGMRESBlockOrthogonalization;
PETSC_EXTERN const char *const KSPCAGMRESBlockOrthogonalizations[];

PETSC_EXTERN PetscErrorCode KSPCAGMRESSetBlockSize(KSP, PetscInt);
PETSC_EXTERN PetscErrorCode KSPCAGMRESGetBlockSize(KSP, PetscInt *);
PETSC_EXTERN PetscErrorCode KSPCAGMRESSetBasis(KSP, KSPCAGMRESBasis);
PETSC_EXTERN PetscErrorCode KSPCAGMRESGetBasis(KSP, KSPCAGMRESBasis *);
PETSC_EXTERN PetscErrorCode KSPCAGMRESSetOrthogonalization(KSP, KSPCAGMRESOrthogonalization);
PETSC_EXTERN PetscErrorCode KSPCAGMRESGetOrthogonalization(KSP, KSPCAGMRESOrthogonalization *);
PETSC_EXTERN PetscErrorCode KSPCAGMRESSetBlockOrthogonalization(KSP, KSPCAGMRESBlockOrthogonalization);
PETSC_EXTERN PetscErrorCode KSPCAGMRESGetBlockOrthogonalization(KSP, KSPCAGMRESBlockOrthogonalization *);
PETSC_EXTERN PetscErrorCode KSPCAGMRESSetMaxBreakdowns(KSP, PetscInt);
PETSC_EXTERN PetscErrorCode KSPCAGMRESGetMaxBreakdowns(KSP, PetscInt *);
