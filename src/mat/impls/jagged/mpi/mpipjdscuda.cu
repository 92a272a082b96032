#include "mpijagged.h"
#include <petscjagged/private/jaggedcite.h>

/*MC
   MATMPIPJDSCUDA - "mpiaijpjdscuda" - distributed sparse matrices in padded jagged-diagonal format on
   NVIDIA GPUs: a `MATMPIAIJ` whose diagonal and off-diagonal blocks are `MATSEQPJDSCUDA`, with
   `VECCUDA` vectors. `MATPJDSCUDA` selects it on more than one process.

   Options Database Keys:
+  -mat_type pjdscuda                     - sets the type (the sequential type on one process)
.  -mat_pjds_block_rows <32>              - rows padded together (b_r), see `MatPJDSSetBlockRows()`
.  -mat_jagged_kernel <auto,jagged,split> - treatment of very long rows, see `MatJaggedSetKernel()`
.  -mat_jagged_long_row_threshold <n>     - with split: rows longer than n go to the CSR part
.  -mat_jagged_blocks <auto,on,off>       - dense blocks with one column index where the block size is 2 to 6, see `MatJaggedSetBlocks()`
.  -mat_jagged_single                     - keep a single-precision copy, see `MatJaggedSetSinglePrecision()`
-  -mat_jagged_host                       - global testing mode, no prefix: the host reference kernels instead of
                                            the GPU ones, with host vectors, for every jagged matrix, see `MatJaggedSetUseHost()`

   Level: beginner

   Notes:
   `MatSetFromOptions()` reads the options, under the matrix's prefix, and hands them to the blocks,
   before or after preallocation.

   `MatSetPreallocationCOO()` and `MatSetValuesCOO()` are those of `MATMPIAIJ`; values in CUDA memory are taken too, summed on
   the GPU through `MATMPIAIJ`'s map of the entries (those of other processes' rows sent to their owners through its `PetscSF`),
   each block's jagged copy filled there and its host CSR (the master copy) updated with one copy (`-info` says so). Where a
   process hands host values, or the matrix runs on the host, all processes take `MATMPIAIJ`'s own function (CUDA values
   copied to the host first).

   `MatCreateVecs()` gives `VECCUDA` vectors whose host copy is allocated when first used (as `VecDuplicate()` gives
   them): `VecCreate()` of a `VECMPICUDA` allocates a pinned host copy and zeroes it, a cost each solver's set-up would
   otherwise pay for its work vectors.

   References:
.  * - M. Kreutzer, G. Hager, G. Wellein, H. Fehske, A. Basermann and A. R. Bishop, Sparse matrix-vector multiplication
       on GPGPU clusters: a new storage format and a scalable implementation, IEEE IPDPS Workshops, 2012

.seealso: `MATSEQPJDSCUDA`, `MATPJDSCUDA`, `MATMPIJDSCUDA`, `MATMPIAIJCUSPARSE`
M*/
PETSC_EXTERN PetscErrorCode MatCreate_MPIPJDSCUDA(Mat B)
{
  PetscFunctionBegin;
  PetscCall(MatSetType(B, MATMPIAIJ));
  PetscCall(PetscJaggedCitePJDS());
  PetscCall(MatConvert_MPIAIJ_MPIJagged_InPlace(B, MATMPIPJDSCUDA));
  PetscFunctionReturn(PETSC_SUCCESS);
}
