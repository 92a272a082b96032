#include "mpijagged.h"
#include <petscjagged/private/jaggedcite.h>

/*MC
   MATMPIJDSCUDA - "mpiaijjdscuda" - distributed sparse matrices in jagged-diagonal format on NVIDIA
   GPUs: a `MATMPIAIJ` whose diagonal and off-diagonal blocks are `MATSEQJDSCUDA`, with `VECCUDA`
   vectors. `MATJDSCUDA` selects it on more than one process.

   Options Database Keys:
+  -mat_type jdscuda                      - sets the type (the sequential type on one process)
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

   `MatCreateVecs()` gives `VECCUDA` vectors whose host copy is allocated when first used (as `VecDuplicate()` gives
   them): `VecCreate()` of a `VECMPICUDA` allocates a pinned host copy and zeroes it, a cost each solver's set-up would
   otherwise pay for its work vectors.

   References:
.  * - A. Cevahir, A. Nukada and S. Matsuoka, Fast conjugate gradients with multiple GPUs, ICCS 2009, LNCS 5544, Springer

.seealso: `MATSEQJDSCUDA`, `MATJDSCUDA`, `MATMPIPJDSCUDA`, `MATMPIAIJCUSPARSE`
M*/
PETSC_EXTERN PetscErrorCode MatCreate_MPIJDSCUDA(Mat B)
{
  PetscFunctionBegin;
  PetscCall(MatSetType(B, MATMPIAIJ));
  PetscCall(PetscJaggedCiteJDSCG());
  PetscCall(MatConvert_MPIAIJ_MPIJagged_InPlace(B, MATMPIJDSCUDA));
  PetscFunctionReturn(PETSC_SUCCESS);
}
