/* JaggedGPUsShared() (see jaggedgpus.h) */
#include <petscjagged/private/jaggedgpus.h>
#include <petscdevice_cuda.h>
#include <cstring>

PetscErrorCode JaggedGPUsShared(MPI_Comm comm, PetscBool *shared)
{
  PetscMPIInt    size;
  int            dev;
  cudaDeviceProp prop;
  cudaUUID_t    *all;

  PetscFunctionBegin;
  *shared = PETSC_FALSE;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallCUDA(cudaGetDevice(&dev));
  PetscCallCUDA(cudaGetDeviceProperties(&prop, dev));
  PetscCall(PetscMalloc1(size, &all));
  PetscCallMPI(MPI_Allgather(&prop.uuid, (PetscMPIInt)sizeof(cudaUUID_t), MPI_BYTE, all, (PetscMPIInt)sizeof(cudaUUID_t), MPI_BYTE, comm));
  for (PetscMPIInt i = 0; i < size && !*shared; i++)
    for (PetscMPIInt j = 0; j < i && !*shared; j++)
      if (!memcmp(&all[i], &all[j], sizeof(cudaUUID_t))) *shared = PETSC_TRUE;
  PetscCall(PetscFree(all));
  PetscFunctionReturn(PETSC_SUCCESS);
}
