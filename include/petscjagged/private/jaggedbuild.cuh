/*
   Builds a jagged format on the GPU from a device copy of the CSR pattern: the same DeviceFormat,
   array for array and bit for bit, as BuildFormat() followed by DeviceFormatCreate(), without the
   host sort and slot fill and without uploading the index arrays (only the CSR pattern travels).
   This header has no device code and compiles as plain C++ too.
*/
#pragma once

#include <petscjagged/private/jaggedkernels.cuh>

namespace jagged {
namespace gpu {

/*
   Builds into the empty dformat the format of the CSR pattern in device memory (rowptr[nrows+1] from
   0, colidx[rowptr[nrows]] in [0, ncols)), on stream, and sets the scalar fields of *summary (its
   vectors stay empty). The pattern is read by kernels still running on return: keep it until stream
   has passed them. Only small reads synchronize the stream (the longest row, the long-row split,
   the diagonal lengths).

   Blocked formats too (options.block_size > 1): InvalidBlockSize where it does not divide nrows and ncols.
   Returns the statuses of BuildFormat(): InvalidBlockRows, InvalidThreshold, TooLarge; InvalidCSR
   for negative sizes or row pointers that do not start at 0 or decrease (columns are trusted, as
   PETSc's SeqAIJ CSR is valid); DeviceError when a CUDA call failed, its error in *cuda_error
   (cudaSuccess otherwise). dformat stays empty unless Success.
*/
Status BuildDeviceFormat(int nrows, int ncols, const int rowptr[], const int colidx[], const Options &options, Format *summary, DeviceFormat *dformat, cudaStream_t stream, cudaError_t *cuda_error);

} // namespace gpu
} // namespace jagged
