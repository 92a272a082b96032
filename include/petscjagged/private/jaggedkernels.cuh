/*
   CUDA kernels of the jagged formats, behind host launch wrappers that take a stream and return
   the launch's cudaError_t. This header has no device code and compiles as plain C++ too.

   Value and vector types are the host ones: double, float, std::complex<double>,
   std::complex<float>. Device code uses cuda::std::complex of identical size and layout, so
   PETSc's PetscScalar arrays (std::complex or thrust::complex) are passed by reinterpret_cast.
   Pairs provided (MatT, VecT), as for the host twins in jaggedhost.hpp:
     (double, double) (float, float) (float, double)
     (std::complex<double>, same) (std::complex<float>, same) (std::complex<float>, std::complex<double>)
     (Half, float): 16-bit values (__half on the device) widened to float where read
   Arrays are device memory (complex ones aligned to their size, as cudaMalloc gives); value arrays
   have nslots entries (see jaggedformat.hpp). A DeviceFormat is only read by the operations, so one
   may serve several streams at once. Results of long rows split over blocks, and of transposes,
   are summed by atomics, so their last bits may vary from run to run.
*/
#pragma once

#include <cuda_runtime_api.h>

#include <petscjagged/private/jaggedformat.hpp>

namespace jagged {
namespace gpu {

/* Largest ndiag whose diagonal starts are passed in constant memory; longer ones are read from global memory */
constexpr int kMaxConstantDiagonals = 64;

/* Entries of a long row summed by one thread block: rows of nlong_block are cut into such chunks */
constexpr int kRowChunkLength = 2048;

/* The index arrays of a Format on the device (one allocation), plus what the launches need on the host */
struct DeviceFormat {
  int nrows = 0, ncols = 0;
  int bs = 1; /* blocked formats: the block size (rows of the jagged part are block rows) */
  int nsorted = 0, ndiag = 0, nstored = 0;
  int nlong = 0, nlong_block = 0, nchunks = 0, nslots = 0;
  int nnonempty = 0; /* sorted rows with entries (padding included): a prefix of the sorted rows */

  const int *perm = nullptr, *rowlen = nullptr, *diagstart = nullptr, *colidx = nullptr;
  const int *long_rows = nullptr, *long_rowptr = nullptr, *long_colidx = nullptr;
  const int *long_chunkptr = nullptr; /* [nlong_block+1] first chunk of each block-processed row */
  const int *valmap = nullptr;

  std::vector<int> diagstart_host; /* diagonal starts for the constant-memory path (ndiag <= kMaxConstantDiagonals) */
  void            *storage = nullptr;
};

/* Index arrays of a DeviceFormat, in the order of their storage: perm, rowlen, diagstart, colidx, long_rows, long_rowptr, long_colidx, long_chunkptr, valmap */
constexpr int kDeviceFormatArrays = 9;

/*
   Allocates the index arrays of an empty dformat, of size[a] ints each, in one allocation (storage)
   and sets its array pointers; array[a] receives the same addresses, writable. Scalars are left as they are.
*/
cudaError_t DeviceFormatAllocate(const size_t size[kDeviceFormatArrays], DeviceFormat *dformat, int *array[kDeviceFormatArrays]);

/* Copies the index arrays of format to the device on stream into an empty dformat; format may be freed on return */
cudaError_t DeviceFormatCreate(const Format &format, DeviceFormat *dformat, cudaStream_t stream);

/* The sizes of format (nchunks long-row chunks, diagstart its diagonal starts) into dformat, for its launches */
void DeviceFormatSetSizes(const Format &format, int nchunks, const std::vector<int> &diagstart, DeviceFormat *dformat);

/* Frees the device arrays of dformat and resets it */
cudaError_t DeviceFormatDestroy(DeviceFormat *dformat);

/* y[nrows] = A x */
template <typename MatT, typename VecT>
cudaError_t Mult(const DeviceFormat &dformat, const MatT vals[], const VecT x[], VecT y[], cudaStream_t stream);

/* y[nrows] = A x + w; w may be y */
template <typename MatT, typename VecT>
cudaError_t MultAdd(const DeviceFormat &dformat, const MatT vals[], const VecT x[], const VecT w[], VecT y[], cudaStream_t stream);

/* y[ncols] = A^T x (transpose, not conjugated), by atomic additions */
template <typename MatT, typename VecT>
cudaError_t MultTranspose(const DeviceFormat &dformat, const MatT vals[], const VecT x[], VecT y[], cudaStream_t stream);

/* y[ncols] = A^T x + w; w may be y */
template <typename MatT, typename VecT>
cudaError_t MultTransposeAdd(const DeviceFormat &dformat, const MatT vals[], const VecT x[], const VecT w[], VecT y[], cudaStream_t stream);

/*
   vals[nslots] from the device CSR values csr_vals[nnz] of the same pattern, padding zero: one gather
   through valmap. CsrT -> MatT as for FillValues(): to the same type, to single precision, or double to Half.
*/
template <typename CsrT, typename MatT>
cudaError_t RefreshValues(const DeviceFormat &dformat, const CsrT csr_vals[], MatT vals[], cudaStream_t stream);

/* COO values summed into CSR order on the device (imap, jmap, perm, coo_vals, out device arrays or NULL): the twin of SumCOO() */
template <typename MatT>
cudaError_t SumCOO(long long n, const long long imap[], const long long jmap[], const long long perm[], const MatT coo_vals[], MatT out[], bool add, cudaStream_t stream);

/* csr_vals[valmap[s]] = vals[s] for the slots that hold entries, on the device: the twin of ScatterValues() */
template <typename MatT>
cudaError_t ScatterValues(const DeviceFormat &dformat, const MatT vals[], MatT csr_vals[], cudaStream_t stream);

/* csr_cols[valmap[s]] = the column of slot s for the slots that hold entries, on the device: the twin of ScatterColumns() */
cudaError_t ScatterColumns(const DeviceFormat &dformat, int csr_cols[], cudaStream_t stream);

/* diag[nrows]: diag[r] = A(r, r), 0 where the row has no diagonal entry */
template <typename MatT>
cudaError_t GetDiagonal(const DeviceFormat &dformat, const MatT vals[], MatT diag[], cudaStream_t stream);

/* vals *= alpha */
template <typename MatT>
cudaError_t Scale(const DeviceFormat &dformat, MatT vals[], MatT alpha, cudaStream_t stream);

} // namespace gpu
} // namespace jagged
