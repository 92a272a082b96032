/*
   The remote rows of the ghosted matrix-powers kernel, moved between processes point to point.

   Set-up, one round per depth: the process sends the global indices of the rows it wants to their
   owners (PetscCommBuildTwoSided() tells each owner who asks, one collective per round); each owner
   answers with the lengths, then the global columns, of those rows, packed from its diagonal and
   off-diagonal blocks' CSR, diagonal block first. Owners keep which of their rows they sent to whom,
   the requesting process where each answer lands: the values plan. A values refresh is then one
   message per (round, neighbour) each way, packed by the owner and received straight into place.
*/
#include "matpowersimpl.h"
#include <petsc/private/matimpl.h>

/* Appends n entries to a growing array */
#define MatPowersGrow(ptr, used, n) PetscRealloc(sizeof(*(ptr)) * (size_t)PetscMax((used) + (n), 1), &(ptr))

/* One more message of the values plan: to or from rank, with rows [*rowptr ...) (sends) and values [*valptr ...) */
static PetscErrorCode MatPowersHaloAppend(PetscMPIInt *n, PetscMPIInt **rank, PetscInt **valptr, PetscMPIInt r, PetscInt nval)
{
  PetscFunctionBegin;
  PetscCall(MatPowersGrow(*rank, *n, 1));
  PetscCall(MatPowersGrow(*valptr, *n + 1, 1));
  if (!*n) (*valptr)[0] = 0;
  (*rank)[*n]            = r;
  (*valptr)[*n + 1]      = (*valptr)[*n] + nval;
  *n += 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Fetches the rows L[0..nl) of A (global, ascending, owned by other processes; ai/aj/bi: the CSR of
  A's diagonal and off-diagonal blocks, gB: the global columns of the latter) and appends them to rr,
  their columns global. Extends the values plan h. Collective.
*/
PetscErrorCode MatPowersHaloFetchRows(Mat A, const PetscInt ai[], const PetscInt aj[], const PetscInt bi[], const PetscInt gB[], PetscInt nl, const PetscInt L[], MatPowersRemoteRows *rr, MatPowersHalo *h)
{
  MPI_Comm        comm  = PetscObjectComm((PetscObject)A);
  const PetscInt *range = A->rmap->range, rstart = A->rmap->rstart, n = A->rmap->n;
  PetscMPIInt     size, nto = 0, nfrom, *toranks, *tocounts, *fromranks, *fromcounts;
  PetscInt       *tooff, *fromoff, *asked, *lens, *alen, *cols, ncol = 0, nnew = 0;
  MPI_Request    *req;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscMalloc3(size, &toranks, size, &tocounts, size + 1, &tooff));
  tooff[0] = 0;
  for (PetscInt i = 0, owner = 0; i < nl; i++) { /* the owners, in ascending order of the rows */
    PetscCheck(i == 0 || L[i] > L[i - 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Rows to fetch must be ascending");
    while (L[i] >= range[owner + 1]) owner++;
    if (!nto || toranks[nto - 1] != owner) {
      toranks[nto]   = (PetscMPIInt)owner;
      tocounts[nto]  = 0;
      tooff[nto + 1] = tooff[nto];
      nto++;
    }
    tocounts[nto - 1]++;
    tooff[nto]++;
  }
  PetscCall(PetscCommBuildTwoSided(comm, 1, MPI_INT, nto, toranks, tocounts, &nfrom, &fromranks, &fromcounts));
  PetscCall(PetscMalloc1(nfrom + 1, &fromoff));
  fromoff[0] = 0;
  for (PetscMPIInt i = 0; i < nfrom; i++) fromoff[i + 1] = fromoff[i] + fromcounts[i];
  PetscCall(PetscMalloc4(fromoff[nfrom], &asked, fromoff[nfrom], &lens, nl, &alen, nfrom + nto, &req));

  /* the requests */
  for (PetscMPIInt i = 0; i < nfrom; i++) PetscCallMPI(MPIU_Irecv(asked + fromoff[i], fromcounts[i], MPIU_INT, fromranks[i], h->tag, comm, &req[i]));
  for (PetscMPIInt j = 0; j < nto; j++) PetscCallMPI(MPIU_Isend(L + tooff[j], tocounts[j], MPIU_INT, toranks[j], h->tag, comm, &req[nfrom + j]));
  PetscCallMPI(MPI_Waitall(nfrom + nto, req, MPI_STATUSES_IGNORE));

  /* as owner: the lengths, kept as the rows to send values of */
  PetscCall(MatPowersGrow(h->sendrows, h->sendrowptr ? h->sendrowptr[h->nsend] : 0, fromoff[nfrom]));
  for (PetscMPIInt i = 0; i < nfrom; i++) {
    PetscInt nv = 0;

    for (PetscInt k = fromoff[i]; k < fromoff[i + 1]; k++) {
      const PetscInt r = asked[k] - rstart;

      PetscCheck(r >= 0 && r < n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Row %" PetscInt_FMT " asked of a process that does not own it", asked[k]);
      asked[k] = r;
      lens[k]  = ai[r + 1] - ai[r] + bi[r + 1] - bi[r];
      nv += lens[k];
    }
    PetscCall(MatPowersGrow(h->sendrowptr, h->nsend + 1, 1));
    if (!h->nsend) h->sendrowptr[0] = 0;
    PetscCall(PetscArraycpy(h->sendrows + h->sendrowptr[h->nsend], asked + fromoff[i], fromcounts[i]));
    h->sendrowptr[h->nsend + 1] = h->sendrowptr[h->nsend] + fromcounts[i];
    PetscCall(MatPowersHaloAppend(&h->nsend, &h->sendrank, &h->sendvalptr, fromranks[i], nv));
    ncol += nv;
  }
  for (PetscMPIInt j = 0; j < nto; j++) PetscCallMPI(MPIU_Irecv(alen + tooff[j], tocounts[j], MPIU_INT, toranks[j], h->tag, comm, &req[j]));
  for (PetscMPIInt i = 0; i < nfrom; i++) PetscCallMPI(MPIU_Isend(lens + fromoff[i], fromcounts[i], MPIU_INT, fromranks[i], h->tag, comm, &req[nto + i]));
  PetscCallMPI(MPI_Waitall(nfrom + nto, req, MPI_STATUSES_IGNORE));

  /* the columns: packed by the owner, received in place */
  PetscCall(PetscMalloc1(ncol, &cols));
  for (PetscInt k = 0, e = 0; k < fromoff[nfrom]; k++) {
    const PetscInt r = asked[k];

    for (PetscInt c = ai[r]; c < ai[r + 1]; c++) cols[e++] = aj[c] + rstart;
    for (PetscInt c = bi[r]; c < bi[r + 1]; c++) cols[e++] = gB[c];
  }
  PetscCall(MatPowersGrow(rr->rowptr, rr->n + 1, nl));
  for (PetscInt i = 0; i < nl; i++) rr->rowptr[rr->n + i + 1] = rr->rowptr[rr->n + i] + alen[i];
  nnew = rr->rowptr[rr->n + nl] - rr->nnz;
  PetscCall(MatPowersGrow(rr->gcols, rr->nnz, nnew));
  for (PetscMPIInt j = 0; j < nto; j++) {
    const PetscInt e0 = rr->rowptr[rr->n + tooff[j]], e1 = rr->rowptr[rr->n + tooff[j + 1]];

    PetscCallMPI(MPIU_Irecv(rr->gcols + e0, e1 - e0, MPIU_INT, toranks[j], h->tag, comm, &req[j]));
    PetscCall(MatPowersHaloAppend(&h->nrecv, &h->recvrank, &h->recvvalptr, toranks[j], e1 - e0));
  }
  for (PetscMPIInt i = 0; i < nfrom; i++) {
    const PetscInt e0 = h->sendvalptr[h->nsend - nfrom + i], e1 = h->sendvalptr[h->nsend - nfrom + i + 1], base = h->sendvalptr[h->nsend - nfrom];

    PetscCallMPI(MPIU_Isend(cols + e0 - base, e1 - e0, MPIU_INT, fromranks[i], h->tag, comm, &req[nto + i]));
  }
  PetscCallMPI(MPI_Waitall(nfrom + nto, req, MPI_STATUSES_IGNORE));
  rr->n += nl;
  rr->nnz += nnew;

  PetscCall(PetscFree(cols));
  PetscCall(PetscFree4(asked, lens, alen, req));
  PetscCall(PetscFree(fromoff));
  PetscCall(PetscFree(fromranks));
  PetscCall(PetscFree(fromcounts));
  PetscCall(PetscFree3(toranks, tocounts, tooff));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The values of the remote rows into vals (in the order they were fetched), from their owners' blocks aa (diagonal) and ba (off-diagonal). Collective. */
PetscErrorCode MatPowersHaloValues(Mat A, const PetscInt ai[], const PetscScalar aa[], const PetscInt bi[], const PetscScalar ba[], MatPowersHalo *h, PetscScalar vals[])
{
  MPI_Comm     comm = PetscObjectComm((PetscObject)A);
  PetscScalar *buf;
  MPI_Request *req;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(h->nsend ? h->sendvalptr[h->nsend] : 0, &buf, h->nsend + h->nrecv, &req));
  for (PetscMPIInt j = 0; j < h->nrecv; j++) PetscCallMPI(MPIU_Irecv(vals + h->recvvalptr[j], h->recvvalptr[j + 1] - h->recvvalptr[j], MPIU_SCALAR, h->recvrank[j], h->tag, comm, &req[j]));
  for (PetscMPIInt i = 0; i < h->nsend; i++) {
    PetscScalar *v = buf + h->sendvalptr[i];

    for (PetscInt k = h->sendrowptr[i]; k < h->sendrowptr[i + 1]; k++) {
      const PetscInt r = h->sendrows[k];

      for (PetscInt c = ai[r]; c < ai[r + 1]; c++) *v++ = aa[c];
      for (PetscInt c = bi[r]; c < bi[r + 1]; c++) *v++ = ba[c];
    }
    PetscCallMPI(MPIU_Isend(buf + h->sendvalptr[i], h->sendvalptr[i + 1] - h->sendvalptr[i], MPIU_SCALAR, h->sendrank[i], h->tag, comm, &req[h->nrecv + i]));
  }
  PetscCallMPI(MPI_Waitall(h->nsend + h->nrecv, req, MPI_STATUSES_IGNORE));
  PetscCall(PetscFree2(buf, req));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Frees the plan; the tag is kept */
PetscErrorCode MatPowersHaloReset(MatPowersHalo *h)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(h->sendrank));
  PetscCall(PetscFree(h->recvrank));
  PetscCall(PetscFree(h->sendrowptr));
  PetscCall(PetscFree(h->sendrows));
  PetscCall(PetscFree(h->sendvalptr));
  PetscCall(PetscFree(h->recvvalptr));
  h->nsend = h->nrecv = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
