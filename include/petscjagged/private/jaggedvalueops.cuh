/*
   Operations on the values of a jagged matrix in place (no product): shift of the diagonal,
   diagonal scaling, Y += a X on identical formats, and precision conversion of a value array.
   GPU launch wrappers in namespace jagged::gpu (jaggedvalueops.cu), host reference twins in
   jagged::host (jaggedvalueops.cpp), for double, float, std::complex<double>, std::complex<float>.
   This header has no device code and compiles as plain C++ too.
*/
#pragma once

#include <petscjagged/private/jaggedkernels.cuh>

namespace jagged {

namespace gpu {
/* A(r, r) += alpha for every stored diagonal entry (padding slots untouched) */
template <typename MatT>
cudaError_t Shift(const DeviceFormat &dformat, MatT vals[], MatT alpha, cudaStream_t stream);
/* A(r, c) *= l[r] r[c]; l or r may be null (no scaling from that side) */
template <typename MatT>
cudaError_t DiagonalScale(const DeviceFormat &dformat, MatT vals[], const MatT l[], const MatT r[], cudaStream_t stream);
/* y[s] += alpha x[s], s < n: Y += alpha X for two matrices of one format */
template <typename MatT>
cudaError_t AXPY(int n, MatT y[], MatT alpha, const MatT x[], cudaStream_t stream);
/* dst[s] = src[s] in the precision of To, s < n */
template <typename From, typename To>
cudaError_t Convert(int n, const From src[], To dst[], cudaStream_t stream);
} // namespace gpu

namespace host {
template <typename MatT>
void Shift(const Format &format, MatT vals[], MatT alpha);
template <typename MatT>
void DiagonalScale(const Format &format, MatT vals[], const MatT l[], const MatT r[]);
template <typename MatT>
void AXPY(int n, MatT y[], MatT alpha, const MatT x[]);
template <typename From, typename To>
void Convert(int n, const From src[], To dst[]);
} // namespace host

} // namespace jagged
