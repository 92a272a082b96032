#include <petscjagged/private/seqjagged.h>
#include <petscjagged/private/jaggedcite.h>

/*MC
   MATSEQJDSCUDA - "seqaijjdscuda" (MATJDSCUDA = "jdscuda" on one process) - sparse matrices in jagged-diagonal (JDS) format on
   NVIDIA GPUs

   Rows are sorted by decreasing length and stored jagged diagonal by jagged diagonal, each diagonal
   padded to a multiple of 32 entries for aligned, coalesced loads; one thread per row runs the
   "CSR-like" loop over its own row length and writes its result once (Cevahir, Nukada, Matsuoka,
   "Fast conjugate gradients with multiple GPUs", 2009). Compared with `MATSEQPJDSCUDA` it stores
   less padding but threads of a warp may run different numbers of iterations. Very long rows are
   split off as for `MATSEQPJDSCUDA`.

   The host CSR stays the master copy; see `MATSEQPJDSCUDA` for the operations on the GPU.

   Options Database Keys:
+  -mat_type jdscuda                      - sets the type (the MPI type on more than one process)
.  -mat_jagged_kernel <auto,jagged,split> - treatment of very long rows, see `MatJaggedSetKernel()`
.  -mat_jagged_long_row_threshold <n>     - with split: rows longer than n go to the CSR part
.  -mat_jagged_blocks <auto,on,off>       - dense blocks with one column index where the block size is 2 to 6, see `MatJaggedSetBlocks()`
.  -mat_jagged_single                     - keep a single-precision copy, see `MatJaggedSetSinglePrecision()`
-  -mat_jagged_host                       - global testing mode, no prefix: the host reference kernels instead of
                                            the GPU ones, with host vectors, for every jagged matrix, see `MatJaggedSetUseHost()`

   Level: beginner

   References:
.  * - A. Cevahir, A. Nukada and S. Matsuoka, Fast conjugate gradients with multiple GPUs, ICCS 2009, LNCS 5544, Springer

.seealso: [](ch_matrices), `MATJDSCUDA`, `MATMPIJDSCUDA`, `MATSEQPJDSCUDA`, `MatJaggedSetKernel()`, `MatJaggedSetSinglePrecision()`, `MatJaggedSetUseHost()`
M*/
PETSC_EXTERN PetscErrorCode MatCreate_SeqJDSCUDA(Mat B)
{
  PetscFunctionBegin;
  PetscCall(MatSetType(B, MATSEQAIJ));
  PetscCall(PetscJaggedCiteJDSCG());
  PetscCall(MatConvert_SeqAIJ_SeqJagged(B, MATSEQJDSCUDA, MAT_INPLACE_MATRIX, &B));
  PetscFunctionReturn(PETSC_SUCCESS);
}
