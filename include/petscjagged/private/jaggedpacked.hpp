/*
   Packed half storage of a scalar jagged format: one 32-bit word a slot, a half value in the high 16 bits and, in the low 16,
   the column's distance from the column of the row's slot before (the row's first slot: from first[i], kept once a sorted
   row with its length). The product keeps the running column in a register: no column index and no base loaded an entry
   (bench/RESULTS.md, "16-bit column distances packed with half values": 4.3 against 8.3 bytes a nonzero on Q2 Poisson, its
   product 1.29x the single-precision pJDS's).

   A distance over kPackedMaxDistance takes an escape: a slot whose low half is 0 and whose high half h adds h times
   kPackedMaxDistance to the column, its value read as zero. Escapes are entries of their own: PackPattern() inserts one
   before each entry that lies too far from its row's previous one, at the column previous + h kPackedMaxDistance (a valid
   column, strictly between the two, so no entry of the row), and the format is built from that packed pattern as from any
   other. Padding slots hold the word 0 (an escape adding nothing). Scalar formats without a long-row part only.

   The host functions are the twins of the gpu:: ones (jaggedpacked.cu, and gpu::MultPacked() in jaggedkernels.cu), word for
   word: a value's bits are jagged::Half's, CUDA's __double2half() rounding.
*/
#pragma once

#include <cstdint>
#include <vector>

#include <petscjagged/private/jaggedkernels.cuh>

namespace jagged {

constexpr int kPackedMaxDistance = 65535;

/* A CSR pattern with the escapes inserted: rowptr[nrows+1], colidx[nnz + nescapes], amap[nnz + nescapes] the position of each entry in the pattern it came from (-1: an escape) */
struct PackedPattern {
  std::vector<int> rowptr, colidx, amap;
  long long        nescapes = 0;
};

/* The packed pattern of a CSR pattern whose rows are sorted by column (as AIJ keeps them); InvalidCSR where a row is not sorted, TooLarge past kMaxSlots entries */
Status PackPattern(int nrows, const int rowptr[], const int colidx[], PackedPattern *packed);

/*
   words[format.nstored] and first[format.nsorted] of a scalar format built from a packed pattern (its amap), the values of the
   pattern it came from, vals[] (by position; rounded to half): an entry's word its value's bits and its distance, an escape's
   its multiple of kPackedMaxDistance, padding 0; first[i] one less than sorted row i's first column (0 for a row without one)
*/
void PackWords(const Format &format, const int amap[], const double vals[], std::uint32_t words[], int first[]);

namespace host {
/* y = A x from packed words: the twin of gpu::MultPacked() */
void MultPacked(const Format &format, const std::uint32_t words[], const int first[], const float x[], float y[]);
} // namespace host

namespace gpu {
/* A packed pattern in device memory (rowptr and colidx in one allocation, storage; amap in its own), made by PackPattern() */
struct DevicePackedPattern {
  int      *rowptr = nullptr, *colidx = nullptr, *amap = nullptr;
  long long nescapes = 0;
  void     *storage = nullptr;
};

/*
   The packed pattern of a CSR pattern in device memory (rows sorted by column, as MATSEQAIJCUSPARSE keeps them: not checked),
   into the empty packed on stream; reads the escapes' number back (a synchronization). TooLarge past kMaxSlots entries, or
   DeviceError with the CUDA error in *cuda_error.
*/
Status PackPattern(int nrows, const int rowptr[], const int colidx[], DevicePackedPattern *packed, cudaStream_t stream, cudaError_t *cuda_error);
/* Frees the packed pattern's arrays: rowptr and colidx, and amap unless the caller took it (set it to NULL; cudaFree() it later) */
cudaError_t PackedPatternDestroy(DevicePackedPattern *packed);

/* PackWords() on the GPU: amap and vals in device memory, the format's device arrays; on stream */
cudaError_t PackWords(const DeviceFormat &dformat, const int amap[], const double vals[], std::uint32_t words[], int first[], cudaStream_t stream);

/* y[nrows] = A x from packed words (device arrays) on stream; cudaErrorInvalidValue for a blocked format or one with a long-row part */
cudaError_t MultPacked(const DeviceFormat &dformat, const std::uint32_t words[], const int first[], const float x[], float y[], cudaStream_t stream);
} // namespace gpu

} // namespace jagged
