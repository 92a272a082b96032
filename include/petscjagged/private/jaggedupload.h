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
   the previous chunks cross; on one core the array is pinned in place for the copy. Small arrays go
   by cudaMemcpyAsync().
*/
PETSC_INTERN PetscErrorCode MatJaggedUpload(void *dst, const void *src, size_t bytes, cudaStream_t stream);
