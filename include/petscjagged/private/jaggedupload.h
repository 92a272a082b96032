/*
   Uploads of large host arrays (a matrix's CSR) to the GPU faster than cudaMemcpyAsync() from
   pageable memory, which goes through one staging buffer at about 6 GB/s on an H100 host
   (jaggedupload.cu).
*/
#pragma once

#include <petscsys.h>
#include <cuda_runtime.h>

/*
   Copies bytes from the host array src (pageable) to the device array dst, ordered on stream: the
   device sees the data in dst for every later operation on stream, and src may change once this
   returns. With several CPU cores available, lanes of threads copy chunks into pinned buffers while
   the previous chunks cross; on one core the array is pinned in place an eighth at a time, each piece
   crossing while the next is pinned. Small arrays go by cudaMemcpyAsync().
*/
PETSC_INTERN PetscErrorCode MatJaggedUpload(void *dst, const void *src, size_t bytes, cudaStream_t stream);

/*
   Pins the host array [p, p + bytes) in place where it is large (at least the size MatJaggedUpload() stages) and can be
   pinned, so that a copy out of it, made here or by other code (MATSEQAIJCUSPARSE's upload), runs at the link's speed;
   *pinned says whether it was (an array pinned already, or sharing a page with a pinned one, is not). MatJaggedUnpin()
   once every copy out of it has finished.
*/
PETSC_INTERN PetscErrorCode MatJaggedPin(const void *p, size_t bytes, PetscBool *pinned);
PETSC_INTERN PetscErrorCode MatJaggedUnpin(const void *p, PetscBool pinned);

/*
   Device copies of n host index arrays (a COO map's: PetscCount entries, the device kernels read them as long long)
   in one allocation, *base, uploaded on stream: dst[k] receives the copy of src[k] (len[k] entries). cudaFree(*base)
   frees them all.
*/
PETSC_INTERN PetscErrorCode MatJaggedUploadIndexArrays(int n, const PetscCount *const src[], const size_t len[], long long **const dst[], long long **base, cudaStream_t stream);
