/* Shared by the MPI tests: what PETSc's own copy counters (-log_view's CpuToGpu / GpuToCpu columns) say an event moved */
#pragma once

#include <petscmat.h>
#include <petscsf.h>

typedef struct {
  PetscLogDouble h2d, d2h; /* bytes host to device and device to host, this process */
  PetscInt       count;    /* calls */
} EventCopies;

/* The counters of the event named name so far (zero when it was never registered) */
static inline PetscErrorCode EventCopiesGet(const char *name, EventCopies *c)
{
  PetscLogEvent      ev;
  PetscEventPerfInfo info;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventGetId(name, &ev));
  PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, ev, &info));
  c->h2d   = info.CpuToGpuSize;
  c->d2h   = info.GpuToCpuSize;
  c->count = info.count;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* after - before */
static inline EventCopies EventCopiesDiff(EventCopies after, EventCopies before)
{
  EventCopies d = {after.h2d - before.h2d, after.d2h - before.d2h, after.count - before.count};
  return d;
}

/* The ghost values one product of the MPIAIJ-based A receives (nrecv, host to device) and sends (nsend, device to host) on this process (none on one process) */
static inline PetscErrorCode MatGhostCounts(Mat A, PetscInt *nrecv, PetscInt *nsend)
{
  PetscSF         sf;
  PetscMPIInt     niranks;
  const PetscInt *ioffset;
  PetscMPIInt     size;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  *nrecv = *nsend = 0; /* one process: no ghosts */
  if (size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatGetMultPetscSF(A, &sf));
  PetscCall(PetscSFGetGraph(sf, NULL, nrecv, NULL, NULL));
  PetscCall(PetscSFGetLeafRanks(sf, &niranks, NULL, &ioffset, NULL));
  *nsend = ioffset[niranks];
  PetscFunctionReturn(PETSC_SUCCESS);
}
