/*
   The entries of a sequential block in device memory, visited one thread a row: a MATSEQAIJCUSPARSE's CSR or a
   jagged type's format and values (its padding passed over). MatDIAEntriesGet() (src/mat/utils/dia/diaentries.cu)
   reads them from the block; MatDIAVisitKernel() calls op(row, offset, value) for each entry, offset = global column
   - global row. The DIA searches and fills on the GPU of MatPowers (matpowersdiaentries.cu) and the single-precision matrix (matsingledia.cu)
   go through it; their host twins walk the blocks' host CSR. MatDIAOffsets and MatDIADiagonalOf() place an entry in a
   DIA copy, on the device and in the host twins.
*/
#pragma once

#include <petscmat.h>
#include <petscjagged/private/jaggeddevicescalar.cuh>
#include <petscjagged/private/diabits.cuh>
#include <petscjagged/private/diafind.h> /* MAT_DIA_MAX */
#include <petscjagged/private/jaggedlaunch.cuh>

#define MAT_DIA_MAX_BLOCKS 8192 /* thread blocks of 256 at most for a visit of a DIA search (grid-stride loops; JaggedBlocks()) */

#if defined(PETSC_USE_COMPLEX)
using MatDIADS = cuda::std::complex<double>;
#else
using MatDIADS = double;
#endif

/* the diagonals' offsets of a DIA copy, ascending, by value (a kernel argument) */
struct MatDIAOffsets {
  int n, off[MAT_DIA_MAX];
};

/* the diagonal d of the entry (i, i + off[d]): binary search (the offset must be one of o.off) */
__host__ __device__ inline int MatDIADiagonalOf(const MatDIAOffsets &o, PetscInt off)
{
  int lo = 0, hi = o.n - 1;

  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (o.off[mid] < off) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* A block's entries in device memory: a CSR (ai set) or a jagged format; colmap: the global column of a local one (NULL: local + cstart) */
struct MatDIAEntries {
  PetscInt        m;
  const int      *ai, *aj;                                    /* CSR */
  int             nsorted, nlong, nstored;                    /* jagged: sorted rows with entries, long rows, slots of the jagged part */
  const int      *perm, *rowlen, *diagstart, *colidx, *valmap; /* jagged part; valmap < 0: padding */
  const int      *long_rows, *long_rowptr, *long_colidx;      /* long-row part, its values from slot nstored */
  const MatDIADS *v;
  const PetscInt *colmap;
  PetscInt        cstart;
};

/* the threads MatDIAVisitKernel() needs: one a row of the CSR, one a sorted or long row of the jagged format */
__host__ __device__ inline PetscInt MatDIAEntriesThreads(const MatDIAEntries &e)
{
  return e.ai ? e.m : (PetscInt)e.nsorted + e.nlong;
}

/* op(row, offset, value) for every entry of row r of the CSR */
template <typename Op>
__device__ inline void MatDIAVisitCSRRow(const MatDIAEntries &e, PetscInt r, PetscInt rstart, const Op &op)
{
  for (int k = e.ai[r]; k < e.ai[r + 1]; k++) {
    const PetscInt c = e.aj[k];

    op(r, (e.colmap ? e.colmap[c] : c + e.cstart) - (rstart + r), e.v[k]);
  }
}

/* One thread a row of the block (rows rstart, rstart + 1, ... globally): op(row, offset, value) for each entry */
template <typename Op>
__global__ void MatDIAVisitKernel(const MatDIAEntries e, PetscInt rstart, const Op op)
{
  const PetscInt n = MatDIAEntriesThreads(e);

  for (PetscInt t = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; t < n; t += (PetscInt)gridDim.x * blockDim.x) {
    if (e.ai) MatDIAVisitCSRRow(e, t, rstart, op);
    else if (t < e.nsorted) { /* sorted row t: entry j at slot diagstart[j] + t */
      const PetscInt r = e.perm[t];

      for (int j = 0; j < e.rowlen[t]; j++) {
        const int k = e.diagstart[j] + (int)t;

        if (e.valmap[k] >= 0) { /* padding may repeat another row's column */
          const PetscInt c = e.colidx[k];

          op(r, (e.colmap ? e.colmap[c] : c + e.cstart) - (rstart + r), e.v[k]);
        }
      }
    } else { /* long row */
      const PetscInt l = t - e.nsorted, r = e.long_rows[l];

      for (int k = e.long_rowptr[l]; k < e.long_rowptr[l + 1]; k++) {
        const PetscInt c = e.long_colidx[k];

        op(r, (e.colmap ? e.colmap[c] : c + e.cstart) - (rstart + r), e.v[e.nstored + k]);
      }
    }
  }
}

/* the visitor's marking of an entry's offset in a DIA search's bitmap (bit offset + bias; MatDIACollectDiagonals() reads it) */
struct MatDIAMarkOp {
  unsigned *bits;
  long long bias;
  __device__ void operator()(PetscInt, PetscInt off, MatDIADS) const { MatDIAMarkBit(bits, off + bias); }
};


PETSC_INTERN PetscErrorCode MatDIAEntriesGet(Mat, const PetscInt *, PetscInt, MatDIAEntries *, PetscBool *);
PETSC_INTERN PetscErrorCode MatDIAEntriesRestore(Mat, MatDIAEntries *);
