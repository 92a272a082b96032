/*
   Private interface of the sequential jagged-diagonal matrix types MATSEQJDSCUDA and
   MATSEQPJDSCUDA. Both are MATSEQAIJ matrices (the host CSR stays the master copy for
   preallocation, MatSetValues() and every host operation) carrying, in A->spptr, a jagged-diagonal
   copy for the GPU built from that CSR.
*/
#pragma once

#include <petsc/private/matimpl.h>
#include <petscjagged.h>

#include <petscjagged/private/jaggedformat.hpp>
#include <petscjagged/private/jaggedkernels.cuh>
#include <petscjagged/private/jaggedhost.hpp>
#include <petscjagged/private/seqaijhead.h>

#if defined(PETSC_USE_COMPLEX)
  #include <complex>
typedef std::complex<double> MatJaggedHostScalar; /* PetscScalar as the host twins see it */
#else
typedef double MatJaggedHostScalar;
#endif
typedef PetscJaggedScalarSingle MatJaggedHostSingle;

/* PetscScalar arrays as the host twins and the kernels' templates take them */
static inline MatJaggedHostScalar *HostScalar(PetscScalar *a)
{
  return reinterpret_cast<MatJaggedHostScalar *>(a);
}
static inline const MatJaggedHostScalar *HostScalar(const PetscScalar *a)
{
  return reinterpret_cast<const MatJaggedHostScalar *>(a);
}

typedef struct {
  jagged::Kind    kind;
  jagged::Options options;   /* block rows, long-row treatment */
  MatJaggedKernel kernel;    /* user's choice, mapped to options.long_rows */
  MatJaggedBlocks blocks;    /* user's choice of dense blocks where the matrix has a block size; options.block_size is what the build chose */
  PetscBool       single;    /* keep a single-precision copy of the values */
  PetscBool       host;      /* run the host reference twins instead of the GPU kernels */
  PetscBool       deferred;  /* the jagged copy made at its first use, not at assembly: a product's result, which PCGAMG may only read on the host */
  struct _MatOps  aijops;    /* MATSEQAIJ's operations, delegated to */

  PetscErrorCode (*aijretrievevalues)(Mat); /* MATSEQAIJ's MatRetrieveValues() */

  jagged::Format  *format;         /* index structure, NULL until built */
  PetscObjectState format_nzstate; /* A->nonzerostate the format was built for */

  /* values, nslots of them, on the device (or on the host when host is set); A->offloadmask tells whether they
     are current: PETSC_OFFLOAD_UNALLOCATED (none), PETSC_OFFLOAD_CPU (only the host CSR is) or PETSC_OFFLOAD_BOTH */
  PetscScalar             *vals;
  PetscJaggedScalarSingle *vals_single;

  jagged::gpu::DeviceFormat *dformat; /* GPU only */
  PetscScalar               *stage[3]; /* device copies of host vectors x, w, y of a product (GPU only) */
  PetscInt                   nstage[3];
  PetscObjectState           generation; /* changes whenever the device arrays a product reads are reallocated */

  /* sparse products on the GPU (seqjaggedproduct.cu): a MATSEQAIJCUSPARSE on the host CSR arrays of this matrix, made at the
     first such product, whose device CSR cuSPARSE multiplies (kept across format rebuilds, destroyed with the matrix);
     the state and pattern of this matrix it last took */
  Mat              twin;
  PetscObjectState twin_state, twin_nzstate;

  /* COO assembly from GPU memory (jaggedcoo.c): device copies of the jmap and perm arrays of MATSEQAIJ's COO map, made at the
     first values from GPU memory after MatSetPreallocationCOO(), in one allocation, coo_dmap */
  long long *coo_dmap, *coo_djmap, *coo_dperm;
} Mat_SeqJagged;

PETSC_INTERN PetscErrorCode MatConvert_SeqAIJ_SeqJagged(Mat, MatType, MatReuse, Mat *);
PETSC_INTERN PetscErrorCode MatSeqJaggedSetOptions(Mat, const Mat_SeqJagged *);
PETSC_INTERN PetscErrorCode MatJaggedSetFromOptions_Private(Mat, PetscBool, PetscOptionItems);
PETSC_INTERN PetscErrorCode MatSeqJaggedSync(Mat);
PETSC_INTERN PetscErrorCode MatSeqJaggedDeviceCurrent(Mat, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqJaggedScatterToCSR(Mat, PetscScalar[], cudaStream_t);
PETSC_INTERN PetscErrorCode MatSeqJaggedGetDeviceCSRValues(Mat, PetscBool, PetscScalar **, cudaStream_t);
PETSC_INTERN PetscErrorCode MatSeqJaggedRestoreDeviceCSRValues(Mat, PetscScalar **, cudaStream_t);
PETSC_INTERN PetscErrorCode MatSeqJaggedRegisterFactors(MatType);
PETSC_INTERN PetscErrorCode MatProductSetFromOptions_SeqJagged(Mat);
PETSC_INTERN PetscErrorCode MatJaggedAXPYSubset_Private(Mat, const PetscInt[], PetscScalar, Mat, const PetscInt[], PetscBool, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqJaggedMultSingle(Mat, const PetscJaggedScalarSingle[], const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[]);
PETSC_INTERN PetscErrorCode MatSeqJaggedSingleReady(Mat, PetscObjectState *);
PETSC_INTERN PetscErrorCode MatSeqJaggedMultSingleLaunch(Mat, const PetscJaggedScalarSingle[], PetscJaggedScalarSingle[], cudaStream_t);

PETSC_INTERN PetscLogEvent MAT_JAGGED_Build, MAT_JAGGED_Refresh, MAT_JAGGED_MultSingle;
