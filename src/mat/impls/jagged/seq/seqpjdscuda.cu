#include <petscjagged/private/seqjagged.h>
#include <petscjagged/private/jaggedcite.h>

/*MC
   MATSEQPJDSCUDA - "seqaijpjdscuda" (MATPJDSCUDA = "pjdscuda" on one process) - sparse matrices in padded jagged-diagonal (pJDS)
   format on NVIDIA GPUs

   Rows are sorted by decreasing length, blocks of b_r rows are padded to the longest row of the
   block, and the entries are stored jagged diagonal by jagged diagonal, so that one thread per row
   reads coalesced values and column indices and all threads of a warp run the same number of
   iterations (Kreutzer et al., "Sparse matrix-vector multiplication on GPGPU clusters: a new storage
   format and a scalable implementation", 2012). Rows much longer than the rest (power-law and arrow
   matrices) may go to a CSR part multiplied by a warp (or a thread block) per row, see `MatJaggedKernel`.
   A matrix with a block size of 2 to 6 (`MatGetBlockSize()`: vector problems) stores its block rows so, each block dense
   with one column index, where that moves fewer bytes, see `MatJaggedSetBlocks()`.

   The matrix is a `MATSEQAIJ` whose host CSR stays the master copy: preallocation, `MatSetValues()`,
   `MatZeroRows()`, `MatGetRow()`, factorizations and every operation without a GPU implementation
   run on it. `MatAssemblyEnd()` builds the pJDS structure on the device, or refreshes only the
   values when the nonzero pattern did not change; so does the next product after a change of the
   host values through `MatSeqAIJGetArray()` and the other accessors of `MATSEQAIJ`. `MatMult()`, `MatMultAdd()`, `MatMultTranspose()`,
   `MatMultTransposeAdd()` and `MatGetDiagonal()` run on the GPU; `MatScale()`, `MatShift()`,
   `MatDiagonalScale()`, `MatZeroEntries()` and `MatAXPY()` (same pattern) update both copies; `MatAXPY()` of a matrix whose
   pattern lies in this one's (`SUBSET_NONZERO_PATTERN`, or a different pattern that is one: `PCGAMG`'s smoothed prolongator
   and graph) merges it into the host CSR in one pass (`MATSEQAIJ` sets a subset's values a row at a time and makes a new
   matrix for a different pattern), the pattern kept and the device copy refreshed at its next use.
   Sparse products of two such matrices (`MatMatMult()`, `MatTransposeMatMult()`, `MatPtAP()`, `MatRARt()`: those of
   `PCGAMG`'s set-up) run cuSPARSE's, as for `MATSEQAIJCUSPARSE`, on copies that read the operands' host CSR; the result
   is of the type of the first operand. Such a copy keeps the CSR in device memory (values and column indices, as
   `MATSEQAIJCUSPARSE` stores them) from the matrix's first product on, until its pattern changes or it is destroyed; the
   single-precision V-cycle of `PCSPCG` builds its copies of the levels from it.

   Options Database Keys:
+  -mat_type pjdscuda                     - sets the type (the MPI type on more than one process)
.  -mat_pjds_block_rows <32>              - rows padded together (b_r), see `MatPJDSSetBlockRows()`
.  -mat_jagged_kernel <auto,jagged,split> - treatment of very long rows, see `MatJaggedSetKernel()`
.  -mat_jagged_long_row_threshold <n>     - with split: rows longer than n go to the CSR part
.  -mat_jagged_blocks <auto,on,off>       - dense blocks with one column index where the block size is 2 to 6, see `MatJaggedSetBlocks()`
.  -mat_jagged_single                     - keep a single-precision copy, see `MatJaggedSetSinglePrecision()`
-  -mat_jagged_host                       - global testing mode, no prefix: the host reference kernels instead of
                                            the GPU ones, with host vectors, for every jagged matrix, see `MatJaggedSetUseHost()`

   Level: beginner

   Notes:
   Vectors must be `VECCUDA` (`MatCreateVecs()` gives them). Uses 32-bit indices.

   `MatSetPreallocationCOO()` and `MatSetValuesCOO()` are those of `MATSEQAIJ`; values in CUDA memory are taken too: summed
   into the jagged copy on the GPU, then copied to the host CSR (the master copy), one copy of the matrix's values.

   `MatSetFromOptions()` reads the options, under the matrix's prefix; a matrix PETSc creates by
   `MatConvert()`, `MatDuplicate()` or a product reads none (a duplicate takes those of its original).

   References:
.  * - M. Kreutzer, G. Hager, G. Wellein, H. Fehske, A. Basermann and A. R. Bishop, Sparse matrix-vector multiplication
       on GPGPU clusters: a new storage format and a scalable implementation, IEEE IPDPS Workshops, 2012

.seealso: [](ch_matrices), `MATPJDSCUDA`, `MATMPIPJDSCUDA`, `MATSEQJDSCUDA`, `MATAIJCUSPARSE`, `MatPJDSSetBlockRows()`, `MatJaggedSetKernel()`,
          `MatJaggedSetSinglePrecision()`, `MatJaggedSetUseHost()`, `MatJaggedMultSingle()`
M*/
PETSC_EXTERN PetscErrorCode MatCreate_SeqPJDSCUDA(Mat B)
{
  PetscFunctionBegin;
  PetscCall(MatSetType(B, MATSEQAIJ));
  PetscCall(PetscJaggedCitePJDS());
  PetscCall(MatConvert_SeqAIJ_SeqJagged(B, MATSEQPJDSCUDA, MAT_INPLACE_MATRIX, &B));
  PetscFunctionReturn(PETSC_SUCCESS);
}
