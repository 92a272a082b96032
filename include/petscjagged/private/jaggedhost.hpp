/*
   Host reference twins of the GPU kernels in jaggedkernels.cu: plain loops over the same format
   arrays, in the same order of slots per row (thread-per-row jagged part, CSR long-row part).
   They define what the kernels compute and are what the CPU tests check against CSR.

   vals[] holds format.nslots values (see FillValues()). MatT is the matrix value type, VecT the
   vector type, in which products are accumulated. Pairs provided (MatT, VecT):
     (double, double) (float, float) (float, double)
     (std::complex<double>, same) (std::complex<float>, same) (std::complex<float>, std::complex<double>)
     (Half, float): 16-bit values widened to float (jaggedhalf.hpp)
   Padding slots hold zero values, so non-finite x entries can reach rows through them.
*/
#pragma once

#include <petscjagged/private/jaggedformat.hpp>

namespace jagged {
namespace host {

/* y[nrows] = A x */
template <typename MatT, typename VecT>
void Mult(const Format &format, const MatT vals[], const VecT x[], VecT y[]);

/* y[nrows] = A x + w; w may be y */
template <typename MatT, typename VecT>
void MultAdd(const Format &format, const MatT vals[], const VecT x[], const VecT w[], VecT y[]);

/* y[ncols] = A^T x (transpose, not conjugated) */
template <typename MatT, typename VecT>
void MultTranspose(const Format &format, const MatT vals[], const VecT x[], VecT y[]);

/* y[ncols] = A^T x + w; w may be y */
template <typename MatT, typename VecT>
void MultTransposeAdd(const Format &format, const MatT vals[], const VecT x[], const VecT w[], VecT y[]);

/* diag[nrows]: diag[r] = A(r, r), 0 where the row has no diagonal entry (r >= ncols included) */
template <typename MatT>
void GetDiagonal(const Format &format, const MatT vals[], MatT diag[]);

/* vals *= alpha */
template <typename MatT>
void Scale(const Format &format, MatT vals[], MatT alpha);

} // namespace host
} // namespace jagged
