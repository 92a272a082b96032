#include <petsc/private/matimpl.h>
#include <petscjagged.h>

/*@
  MatJaggedSetSinglePrecision - Keeps (or drops) a single-precision copy of the values of a
  jagged-diagonal matrix, next to the double-precision one

  Logically Collective

  Input Parameters:
+ A   - a `MATJDSCUDA` or `MATPJDSCUDA` matrix
- flg - `PETSC_TRUE` to keep the copy

  Options Database Key:
. -mat_jagged_single <false> - keep the copy

  Level: intermediate

  Notes:
  The copy (float, or complex float in complex builds) shares the index arrays of the matrix and is
  refreshed with it. `MatJaggedMultSingle()` multiplies with it; mixed-precision solvers such as
  `PCSPCG` run their inner iterations on it.

.seealso: `MatJaggedGetSinglePrecision()`, `MatJaggedMultSingle()`, `MATPJDSCUDA`, `MATJDSCUDA`
@*/
PetscErrorCode MatJaggedSetSinglePrecision(Mat A, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveBool(A, flg, 2);
  PetscUseMethod(A, "MatJaggedSetSinglePrecision_C", (Mat, PetscBool), (A, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatJaggedGetSinglePrecision - Tells whether a jagged-diagonal matrix keeps a single-precision copy

  Not Collective

  Input Parameter:
. A - a `MATJDSCUDA` or `MATPJDSCUDA` matrix

  Output Parameter:
. flg - `PETSC_TRUE` when it keeps one

  Level: intermediate

.seealso: `MatJaggedSetSinglePrecision()`
@*/
PetscErrorCode MatJaggedGetSinglePrecision(Mat A, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(flg, 2);
  PetscUseMethod(A, "MatJaggedGetSinglePrecision_C", (Mat, PetscBool *), (A, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  MatJaggedMultSingle - Computes y = A x in single precision with the single-precision copy of a
  jagged-diagonal matrix

  Collective

  Input Parameters:
+ A - a `MATJDSCUDA` or `MATPJDSCUDA` matrix
- x - the local part of the input, `PetscJaggedScalarSingle` entries in GPU memory (host memory
      with `-mat_jagged_host`), as many as the local columns

  Output Parameter:
. y - the local part of the result, as many entries as the local rows, same memory

  Level: advanced

  Notes:
  Creates the single-precision copy on first use if `MatJaggedSetSinglePrecision()` was not called.
  Runs on PETSc's current CUDA stream and does not synchronize. On more than one process the
  off-process entries of x travel in single precision too, through the matrix's `PetscSF`, while
  the diagonal block multiplies.

.seealso: `MatJaggedSetSinglePrecision()`, `MatMult()`, `PetscJaggedScalarSingle`
@*/
PetscErrorCode MatJaggedMultSingle(Mat A, const PetscJaggedScalarSingle x[], PetscJaggedScalarSingle y[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCheck(A->assembled, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONGSTATE, "Not for an unassembled matrix");
  if (A->rmap->n) PetscAssertPointer(y, 3);
  if (A->cmap->n) PetscAssertPointer(x, 2);
  PetscUseMethod(A, "MatJaggedMultSingle_C", (Mat, const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[]), (A, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  MatJaggedSetMultSingle - Gives a matrix of any type a single-precision product, the one
  `MatJaggedMultSingle()` calls and the single-precision inner CG of `PCSPCG` (and so `KSPMPCG`) runs on

  Logically Collective

  Input Parameters:
+ A    - the matrix, typically a `MATSHELL` whose product is a stencil kernel
- mult - the product y = A x on local arrays of `PetscJaggedScalarSingle`, in the memory of the
         matrix's vectors (GPU memory for CUDA vectors), on PETSc's current CUDA stream; on several
         processes it makes its own halo exchange. `NULL` removes it.

  Level: advanced

  Note:
  The jagged types have their own; setting one on them replaces it. `PCSPCG` checks at set-up whether
  its operator has a single-precision product; without one it makes a private single-precision copy,
  which needs an assembled matrix. The product is a function composed with the matrix: remove it with
  `NULL` before destroying a matrix of another type (PETSc's `-checkfunctionlist` reports composed
  functions left on a destroyed object).

.seealso: `MatJaggedMultSingleFn`, `MatJaggedMultSingle()`, `PCSPCG`, `KSPMPCG`, `MatShellSetOperation()`
@*/
PetscErrorCode MatJaggedSetMultSingle(Mat A, MatJaggedMultSingleFn mult)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatJaggedMultSingle_C", mult));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatJaggedSetKernel - Chooses how a jagged-diagonal matrix treats rows much longer than the others

  Logically Collective

  Input Parameters:
+ A         - a `MATJDSCUDA` or `MATPJDSCUDA` matrix
. kernel    - `MAT_JAGGED_KERNEL_AUTO`, `MAT_JAGGED_KERNEL_JAGGED` or `MAT_JAGGED_KERNEL_SPLIT`
- threshold - with `MAT_JAGGED_KERNEL_SPLIT`, rows with more entries go to the warp-per-row part, a
              nonnegative number (`PETSC_DETERMINE` keeps the current value); ignored by the other kernels

  Options Database Keys:
+ -mat_jagged_kernel <auto,jagged,split> - the kernel
- -mat_jagged_long_row_threshold <n>     - the threshold

  Level: intermediate

  Note:
  A change of the kernel or of the threshold builds the format again at the next product.

.seealso: `MatJaggedGetKernel()`, `MatJaggedKernel`, `MATPJDSCUDA`, `MATJDSCUDA`
@*/
PetscErrorCode MatJaggedSetKernel(Mat A, MatJaggedKernel kernel, PetscInt threshold)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(A, kernel, 2);
  PetscValidLogicalCollectiveInt(A, threshold, 3);
  PetscCheck(threshold >= 0 || threshold == PETSC_DETERMINE, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "Long-row threshold (-mat_jagged_long_row_threshold) must be nonnegative, not %" PetscInt_FMT, threshold);
  PetscUseMethod(A, "MatJaggedSetKernel_C", (Mat, MatJaggedKernel, PetscInt), (A, kernel, threshold));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatJaggedGetKernel - Gets how a jagged-diagonal matrix treats rows much longer than the others

  Not Collective

  Input Parameter:
. A - a `MATJDSCUDA` or `MATPJDSCUDA` matrix

  Output Parameters:
+ kernel    - `MAT_JAGGED_KERNEL_AUTO`, `MAT_JAGGED_KERNEL_JAGGED` or `MAT_JAGGED_KERNEL_SPLIT` (may be `NULL`)
- threshold - the threshold `MAT_JAGGED_KERNEL_SPLIT` uses (may be `NULL`)

  Level: intermediate

.seealso: `MatJaggedSetKernel()`, `MatJaggedKernel`, `MATPJDSCUDA`, `MATJDSCUDA`
@*/
PetscErrorCode MatJaggedGetKernel(Mat A, MatJaggedKernel *kernel, PetscInt *threshold)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  if (kernel) PetscAssertPointer(kernel, 2);
  if (threshold) PetscAssertPointer(threshold, 3);
  PetscUseMethod(A, "MatJaggedGetKernel_C", (Mat, MatJaggedKernel *, PetscInt *), (A, kernel, threshold));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatJaggedSetBlocks - Chooses whether a jagged-diagonal matrix with a block size stores dense blocks with one column
  index each

  Logically Collective

  Input Parameters:
+ A      - a `MATJDSCUDA` or `MATPJDSCUDA` matrix
- blocks - `MAT_JAGGED_BLOCKS_AUTO` (the default), `MAT_JAGGED_BLOCKS_ON` or `MAT_JAGGED_BLOCKS_OFF`

  Options Database Key:
. -mat_jagged_blocks <auto,on,off> - the choice

  Level: intermediate

  Notes:
  The block size is the matrix's (`MatSetBlockSize()`, `-mat_block_size`, a `DM` with several fields, `MatLoad()` with
  a `.info` file); from 2 to 6 it may be used when it divides the local rows and columns of each block of the matrix
  (an MPI matrix's diagonal and off-diagonal blocks decide each for itself). The rows of the jagged part are then block
  rows, sorted by their number of blocks and padded as single rows are, and each stored block holds its bs x bs values,
  zeros included where a block is partly empty: `MatView()` with `PETSC_VIEWER_ASCII_INFO` gives the layout, the zeros
  added and the bytes a nonzero. A 3 x 3 block of doubles moves 8.44 bytes a nonzero (padding apart) against 12 for single entries.
  `MAT_JAGGED_BLOCKS_AUTO` takes blocks where their values and one index each take fewer bytes than the nonzeros and an
  index each, except in a small matrix (at most 65536 rows) whose block rows hold more than 32 blocks on average (GAMG's
  coarse levels): one GPU thread walks a whole block row, where single entries run such long rows by warps.
  A change builds the format again at the next product.

.seealso: `MatJaggedGetBlocks()`, `MatJaggedBlocks`, `MATPJDSCUDA`, `MATJDSCUDA`, `MatSetBlockSize()`
@*/
PetscErrorCode MatJaggedSetBlocks(Mat A, MatJaggedBlocks blocks)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(A, blocks, 2);
  PetscCheck(blocks >= MAT_JAGGED_BLOCKS_AUTO && blocks <= MAT_JAGGED_BLOCKS_OFF, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "Unknown MatJaggedBlocks %d", (int)blocks);
  PetscUseMethod(A, "MatJaggedSetBlocks_C", (Mat, MatJaggedBlocks), (A, blocks));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatJaggedGetBlocks - Gets whether a jagged-diagonal matrix with a block size stores dense blocks, and the block size
  its format uses

  Not Collective

  Input Parameter:
. A - a `MATJDSCUDA` or `MATPJDSCUDA` matrix

  Output Parameters:
+ blocks - `MAT_JAGGED_BLOCKS_AUTO`, `MAT_JAGGED_BLOCKS_ON` or `MAT_JAGGED_BLOCKS_OFF` (may be `NULL`)
- bs     - the block size of the format built (1: single entries; of the diagonal block for an MPI matrix), building
           it if needed (may be `NULL`)

  Level: intermediate

.seealso: `MatJaggedSetBlocks()`, `MatJaggedBlocks`, `MATPJDSCUDA`, `MATJDSCUDA`
@*/
PetscErrorCode MatJaggedGetBlocks(Mat A, MatJaggedBlocks *blocks, PetscInt *bs)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  if (blocks) PetscAssertPointer(blocks, 2);
  if (bs) PetscAssertPointer(bs, 3);
  PetscUseMethod(A, "MatJaggedGetBlocks_C", (Mat, MatJaggedBlocks *, PetscInt *), (A, blocks, bs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPJDSSetBlockRows - Sets the number of rows a padded jagged-diagonal matrix pads together: each
  block of that many consecutive rows, in the order of decreasing length, is padded to the longest of them

  Logically Collective

  Input Parameters:
+ A  - a `MATPJDSCUDA` matrix
- br - the number of rows (b_r), positive; the default is the warp size, 32

  Options Database Key:
. -mat_pjds_block_rows <32> - the number of rows

  Level: advanced

  Notes:
  One thread multiplies one row, so a multiple of the warp size keeps the threads of a warp in
  step; smaller blocks store less padding.

  A change builds the format again at the next product.

.seealso: `MatPJDSGetBlockRows()`, `MATPJDSCUDA`, `MatJaggedGetStorage()`
@*/
PetscErrorCode MatPJDSSetBlockRows(Mat A, PetscInt br)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveInt(A, br, 2);
  PetscCheck(br > 0, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "Rows padded together (-mat_pjds_block_rows) must be positive, not %" PetscInt_FMT, br);
  PetscUseMethod(A, "MatPJDSSetBlockRows_C", (Mat, PetscInt), (A, br));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPJDSGetBlockRows - Gets the number of rows a padded jagged-diagonal matrix pads together

  Not Collective

  Input Parameter:
. A - a `MATPJDSCUDA` matrix

  Output Parameter:
. br - the number of rows (b_r)

  Level: advanced

.seealso: `MatPJDSSetBlockRows()`, `MATPJDSCUDA`
@*/
PetscErrorCode MatPJDSGetBlockRows(Mat A, PetscInt *br)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(br, 2);
  PetscUseMethod(A, "MatPJDSGetBlockRows_C", (Mat, PetscInt *), (A, br));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatJaggedSetUseHost - Runs the host reference kernels of a jagged-diagonal matrix instead of
  the GPU ones

  Logically Collective

  Input Parameters:
+ A   - a `MATJDSCUDA` or `MATPJDSCUDA` matrix
- flg - `PETSC_TRUE` for the host kernels

  Options Database Key:
. -mat_jagged_host - a global option (read without the matrix's prefix when a jagged matrix is
                     created, so that the matrices PETSc creates inside its algorithms take it too):
                     every jagged matrix uses the host kernels

  Level: developer

  Notes:
  A testing mode: the host kernels walk the same format as the GPU ones; they are what the tests check
  the GPU kernels against, and let the types run on a machine without a GPU (with host vectors,
  which `MatCreateVecs()` then gives).

  The format is built again at the next product.

.seealso: `MatJaggedGetUseHost()`, `MATPJDSCUDA`, `MATJDSCUDA`
@*/
PetscErrorCode MatJaggedSetUseHost(Mat A, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveBool(A, flg, 2);
  PetscUseMethod(A, "MatJaggedSetUseHost_C", (Mat, PetscBool), (A, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatJaggedGetUseHost - Tells whether a jagged-diagonal matrix runs the host reference kernels instead
  of the GPU ones

  Not Collective

  Input Parameter:
. A - a `MATJDSCUDA` or `MATPJDSCUDA` matrix

  Output Parameter:
. flg - `PETSC_TRUE` for the host kernels

  Level: developer

.seealso: `MatJaggedSetUseHost()`, `MATPJDSCUDA`, `MATJDSCUDA`
@*/
PetscErrorCode MatJaggedGetUseHost(Mat A, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(flg, 2);
  PetscUseMethod(A, "MatJaggedGetUseHost_C", (Mat, PetscBool *), (A, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatJaggedGetStorage - Gets the number of nonzeros of a jagged-diagonal matrix and the number of
  entries its format stores, padding included (on this process)

  Not Collective

  Input Parameter:
. A - an assembled `MATJDSCUDA` or `MATPJDSCUDA` matrix

  Output Parameters:
+ nnz    - nonzeros (may be `NULL`)
- stored - stored entries, padding included (may be `NULL`)

  Level: intermediate

  Note:
  `MatView()` with `PETSC_VIEWER_ASCII_INFO` reports the same with the ELLPACK comparison.

.seealso: `MATPJDSCUDA`, `MATJDSCUDA`, `MatView()`
@*/
PetscErrorCode MatJaggedGetStorage(Mat A, PetscCount *nnz, PetscCount *stored)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCheck(A->assembled, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Not for an unassembled matrix");
  PetscUseMethod(A, "MatJaggedGetStorage_C", (Mat, PetscCount *, PetscCount *), (A, nnz, stored));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatJaggedGetProductBytes - Gets the bytes a product `MatMult()` of a jagged-diagonal matrix reads a nonzero: its
  values and column indices, padding included (on this process; vectors apart)

  Not Collective

  Input Parameter:
. A - an assembled `MATJDSCUDA` or `MATPJDSCUDA` matrix

  Output Parameter:
. bytes - the bytes a nonzero (12.1 or so for single entries in double, about 8.5 for 3 x 3 blocks, see `MatJaggedSetBlocks()`)

  Level: intermediate

  Note:
  On several processes, the diagonal and off-diagonal blocks together, weighted by their nonzeros. `MatView()` with
  `PETSC_VIEWER_ASCII_INFO` reports it too; `KSPCAGMRES`'s view gives it for the products of its matrix-powers kernel.

.seealso: `MATPJDSCUDA`, `MATJDSCUDA`, `MatJaggedGetStorage()`, `MatJaggedSetBlocks()`, `MatView()`
@*/
PetscErrorCode MatJaggedGetProductBytes(Mat A, PetscReal *bytes)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(bytes, 2);
  PetscCheck(A->assembled, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Not for an unassembled matrix");
  PetscUseMethod(A, "MatJaggedGetProductBytes_C", (Mat, PetscReal *), (A, bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatJaggedSetExchange - Sets the path of the halo exchanges of a jagged-diagonal matrix on several processes

  Logically Collective

  Input Parameters:
+ A        - a `MATJDSCUDA` or `MATPJDSCUDA` matrix
- exchange - `PETSC_JAGGED_EXCHANGE_AUTO` (default), `PETSC_JAGGED_EXCHANGE_MPI`, `PETSC_JAGGED_EXCHANGE_NCCL` or `PETSC_JAGGED_EXCHANGE_IPC`

  Options Database Key:
. -mat_jagged_exchange <auto,mpi,nccl,ipc> - the path

  Level: intermediate

  Notes:
  `MatMult()`, `MatMultAdd()`, the transpose products and `MatJaggedMultSingle()` exchange the ghost
  entries of x while the diagonal block multiplies. Through CUDA IPC (auto's choice where the processes share
  a host) or NCCL they go from GPU to GPU on a stream of their own, without a host synchronization; through
  MPI (not CUDA-aware) they are staged through pinned host memory. Asking for NCCL starts making its
  communicator in the background. Where the path asked for cannot run (see `PetscJaggedExchange`) the MPI path runs; `MatView()` with `PETSC_VIEWER_ASCII_INFO` names the
  path taken and why. A sequential matrix ignores the setting.

.seealso: `MatJaggedGetExchange()`, `PetscJaggedExchange`, `MATPJDSCUDA`, `MATJDSCUDA`
@*/
PetscErrorCode MatJaggedSetExchange(Mat A, PetscJaggedExchange exchange)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(A, exchange, 2);
  PetscCheck(exchange >= PETSC_JAGGED_EXCHANGE_AUTO && exchange <= PETSC_JAGGED_EXCHANGE_IPC, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "Unknown exchange %d", (int)exchange);
  PetscTryMethod(A, "MatJaggedSetExchange_C", (Mat, PetscJaggedExchange), (A, exchange));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatJaggedGetExchange - Gets the path asked for the halo exchanges of a jagged-diagonal matrix on several processes

  Not Collective

  Input Parameter:
. A - a `MATMPIJDSCUDA` or `MATMPIPJDSCUDA` matrix

  Output Parameter:
. exchange - the path asked for (the path taken is named by `MatView()`)

  Level: intermediate

.seealso: `MatJaggedSetExchange()`, `PetscJaggedExchange`
@*/
PetscErrorCode MatJaggedGetExchange(Mat A, PetscJaggedExchange *exchange)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(exchange, 2);
  PetscUseMethod(A, "MatJaggedGetExchange_C", (Mat, PetscJaggedExchange *), (A, exchange));
  PetscFunctionReturn(PETSC_SUCCESS);
}
