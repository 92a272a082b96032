/*
   The ghosted matrix-powers kernel. Each process extends its rows by the rows at graph distance
   1, ..., s - 1 and reads the entries at distance up to s (R_d: rows within distance d of its own):

     extended vectors hold the entries of R_s, own rows first, then by depth (depth 1 in the order of
     the columns of A's off-diagonal block); the own rows are multiplied by A's own diagonal and
     off-diagonal blocks (the depth-1 entries are exactly the off-diagonal block's columns), the
     remote rows R_{s-1} \ R_0 by a small matrix R of their entries; rows at depth s are only read.

   One halo exchange fills an extended vector with the entries of V[0] on R_s; each local product then
   leaves the rows at depth d exact as long as d <= s - (products so far), so after k <= s products
   the own rows (depth 0) are exact: the paper's MPK (Fig. 4).

   Partly ghosted: where the depth-s rows cost more extra flops than allowed but a depth t, 2 <= t < s,
   does not, the kernel is built to depth t and exchanges again every t products (s products: about
   s / t exchanges instead of s).

   Set-up is one pass over the boundary: the depth-d rows are fetched from their owners (their
   lengths, then their columns, packed from the owners' CSR arrays: matpowershalo.c) d = 1, ..., s-1,
   which gives depth d + 1; the own rows are not copied. A values-only change moves the values of
   the remote rows again, point to point, and writes them into R in place.
*/
#include "matpowersimpl.h"
#include <petsc/private/matimpl.h>
#include <petscdevice_cuda.h>

/*
  A's diagonal and off-diagonal blocks, and the global columns of the latter: A must be AIJ-based
  (MATSEQAIJ, MATMPIAIJ, their GPU types, the jagged types) with equal row and column layouts and its
  blocks must multiply VECSEQ vectors, or VECSEQCUDA ones with A not bound to the CPU; *ok is false otherwise. Ao is NULL for a sequential A.
*/
static PetscErrorCode MatPowersGetBlocks(Mat A, Mat *Ad, Mat *Ao, const PetscInt **garray, PetscBool *cuda, PetscBool *ok)
{
  PetscBool mpiaij, seqaij, host;
  VecType   vtype;

  PetscFunctionBegin;
  *Ad     = *Ao = NULL;
  *garray = NULL;
  *ok     = PETSC_FALSE;
  /* the jagged types are named as AIJ's subtypes (seqaijpjdscuda, mpiaijpjdscuda, ...) */
  PetscCall(PetscStrbeginswith(((PetscObject)A)->type_name, MATMPIAIJ, &mpiaij));
  PetscCall(PetscStrbeginswith(((PetscObject)A)->type_name, MATSEQAIJ, &seqaij));
  if (mpiaij) PetscCall(MatMPIAIJGetSeqAIJ(A, Ad, Ao, garray));
  else if (seqaij) *Ad = A;
  if (!*Ad || A->rmap->rstart != A->cmap->rstart || A->rmap->n != A->cmap->n || (*Ao && (*Ao)->cmap->n && !*garray)) PetscFunctionReturn(PETSC_SUCCESS);
  if (*Ao) { /* the depth-1 rows are fetched in the order of the off-diagonal block's columns */
    PetscBool sorted;

    PetscCall(PetscSortedInt((*Ao)->cmap->n, *garray, &sorted));
    if (!sorted) PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatGetVecType(*Ad, &vtype));
  PetscCall(PetscStrcmpAny(vtype, cuda, VECCUDA, VECSEQCUDA, ""));
  PetscCall(PetscStrcmpAny(vtype, &host, VECSTANDARD, VECSEQ, ""));
  if (A->boundtocpu) *cuda = PETSC_FALSE; /* bound by the user: plain products, through A's own (host) MatMult() */
  *ok = (PetscBool)(*cuda || host);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatPowersGhostGPUWithoutDIA - whether, on some process, A's blocks multiply on the GPU and the ghosted kernel could not
  go through the DIA copy: the copy is turned off, or the own rows' entries lie on more than MAT_DIA_MAX diagonals
  (found on the GPU, one pass over the blocks' entries). The ghosted kernel then runs through the blocks' generic
  products, which on the GPU are slower than plain products whose exchanges hide behind the diagonal block's product
  (bench/RESULTS.md), so auto resolves to plain without examining the ghost layers. Collective.
*/
PetscErrorCode MatPowersGhostGPUWithoutDIA(MatPowers mpk, PetscBool *without)
{
  Mat             Ad, Ao;
  const PetscInt *garray;
  PetscBool       cuda = PETSC_FALSE, ok, dev = PETSC_FALSE;
  PetscInt        ndiag = 0, offset[MAT_DIA_MAX];
  PetscMPIInt     loc = 0, glob;

  PetscFunctionBegin;
  PetscCall(MatPowersGetBlocks(mpk->A, &Ad, &Ao, &garray, &cuda, &ok));
  if (ok && cuda) {
    if (!mpk->usedia) loc = 1;
    else {
      PetscCall(MatPowersDIAOffsetsDevice(mpk, Ad, Ao, garray, &dev, &ndiag, offset));
      loc = (PetscMPIInt)(dev && ndiag > MAT_DIA_MAX); /* entries not on the GPU: examined as on the host */
    }
  }
  PetscCallMPI(MPIU_Allreduce(&loc, &glob, 1, MPI_INT, MPI_MAX, PetscObjectComm((PetscObject)mpk)));
  *without = (PetscBool)(glob > 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The extended columns beyond the own rows found so far, and the scratch of the next layer's sort and merge,
  kept from layer to layer (on some hosts touching fresh memory costs more than the sort itself)
*/
typedef struct {
  PetscInt  n;                   /* columns known */
  PetscInt *g, *ext;             /* their global indices, ascending, and their positions in the extended vectors */
  PetscInt *g2, *ext2;           /* the next merge's output, then swapped with g, ext */
  PetscInt  cap;                 /* room in g, ext, g2, ext2 */
  PetscInt *key, *val, *tk, *tv; /* the sort's pairs and its scratch */
  PetscInt  scap;                /* room in those */
} MatPowersKnown;

/* Room for n known columns and a sort of ns pairs, at least doubling what grows */
static PetscErrorCode MatPowersKnownReserve(MatPowersKnown *known, PetscInt n, PetscInt ns)
{
  PetscFunctionBegin;
  if (n > known->cap) {
    known->cap = PetscMax(n, 2 * known->cap);
    PetscCall(PetscRealloc(sizeof(PetscInt) * known->cap, &known->g));
    PetscCall(PetscRealloc(sizeof(PetscInt) * known->cap, &known->ext));
    PetscCall(PetscRealloc(sizeof(PetscInt) * known->cap, &known->g2));
    PetscCall(PetscRealloc(sizeof(PetscInt) * known->cap, &known->ext2));
  }
  if (ns > known->scap) {
    known->scap = PetscMax(ns, 2 * known->scap);
    PetscCall(PetscRealloc(sizeof(PetscInt) * known->scap, &known->key));
    PetscCall(PetscRealloc(sizeof(PetscInt) * known->scap, &known->val));
    PetscCall(PetscRealloc(sizeof(PetscInt) * known->scap, &known->tk));
    PetscCall(PetscRealloc(sizeof(PetscInt) * known->scap, &known->tv));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatPowersKnownDestroy(MatPowersKnown *known)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(known->g));
  PetscCall(PetscFree(known->ext));
  PetscCall(PetscFree(known->g2));
  PetscCall(PetscFree(known->ext2));
  PetscCall(PetscFree(known->key));
  PetscCall(PetscFree(known->val));
  PetscCall(PetscFree(known->tk));
  PetscCall(PetscFree(known->tv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Sorts the pairs (key[i], val[i]) by key, 0 <= key < maxkey, stably: LSD radix sort by 11-bit digits (tmpk, tmpv: scratch of n) */
static PetscErrorCode MatPowersRadixSort(PetscInt n, PetscInt maxkey, PetscInt *key, PetscInt *val, PetscInt *tmpk, PetscInt *tmpv)
{
  PetscInt *k = key, *v = val, *k2 = tmpk, *v2 = tmpv, count[2048];

  PetscFunctionBegin;
  for (PetscInt shift = 0; shift == 0 || (maxkey - 1) >> shift; shift += 11) {
    PetscCall(PetscArrayzero(count, 2048));
    for (PetscInt i = 0; i < n; i++) count[(k[i] >> shift) & 2047]++;
    for (PetscInt d = 0, sum = 0; d < 2048; d++) {
      const PetscInt c = count[d];

      count[d] = sum;
      sum += c;
    }
    for (PetscInt i = 0; i < n; i++) {
      const PetscInt pos = count[(k[i] >> shift) & 2047]++;

      k2[pos] = k[i];
      v2[pos] = v[i];
    }
    {
      PetscInt *t = k;

      k  = k2;
      k2 = t;
      t  = v;
      v  = v2;
      v2 = t;
    }
  }
  if (k != key) {
    PetscCall(PetscArraycpy(key, k, n));
    PetscCall(PetscArraycpy(val, v, n));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The entries fetched since entry e0 to extended columns, in place; the columns that are in no layer
  yet, ascending, are the next layer, appended to ghost (the global index of each extended column
  nown, nown + 1, ..., *norder - 1) and to known. Sorting the entries by column and merging them with the
  known columns makes it linear work with no random lookups.
*/
static PetscErrorCode MatPowersNextLayer(Mat A, MatPowersRemoteRows *rr, PetscInt e0, MatPowersKnown *known, PetscInt nown, PetscInt **ghost, PetscInt *norder)
{
  const PetscInt n = rr->nnz - e0, nghost = *norder - nown;
  PetscInt      *key, *val, m = 0, nnew = 0, *g, *ext, kmin = PETSC_INT_MAX, kmax = -1;

  PetscFunctionBegin;
  PetscCall(MatPowersKnownReserve(known, 0, n));
  key = known->key;
  val = known->val;
  for (PetscInt e = e0; e < rr->nnz; e++) {
    const PetscInt gc = rr->gcols[e];

    if (gc >= A->rmap->rstart && gc < A->rmap->rend) rr->gcols[e] = gc - A->rmap->rstart;
    else {
      key[m]   = gc;
      val[m++] = e;
      kmin     = PetscMin(kmin, gc);
      kmax     = PetscMax(kmax, gc);
    }
  }
  for (PetscInt i = 0; i < m; i++) key[i] -= kmin; /* sorted relative to the smallest: the fewer digits of the columns' span (a slab's neighbours), not of N */
  PetscCall(MatPowersRadixSort(m, m ? kmax - kmin + 1 : 1, key, val, known->tk, known->tv));
  PetscCall(PetscRealloc(sizeof(PetscInt) * (nghost + m), ghost));
  for (PetscInt i = 0, j = 0; i < m;) { /* distinct columns: known (j walks the known ones) or new */
    const PetscInt gc = key[i] + kmin;
    PetscInt       idx;

    while (j < known->n && known->g[j] < gc) j++;
    if (j < known->n && known->g[j] == gc) idx = known->ext[j];
    else {
      idx                        = *norder + nnew;
      (*ghost)[nghost + nnew++] = gc;
    }
    for (; i < m && key[i] + kmin == gc; i++) rr->gcols[val[i]] = idx;
  }
  /* known and the new layer, both ascending, merged */
  PetscCall(MatPowersKnownReserve(known, known->n + nnew, 0));
  g   = known->g2;
  ext = known->ext2;
  for (PetscInt i = 0, j = 0, k = 0; k < known->n + nnew; k++) {
    if (j >= nnew || (i < known->n && known->g[i] < (*ghost)[nghost + j])) {
      g[k]   = known->g[i];
      ext[k] = known->ext[i++];
    } else {
      g[k]   = (*ghost)[nghost + j];
      ext[k] = *norder + j++;
    }
  }
  known->g2   = known->g;
  known->ext2 = known->ext;
  known->g    = g;
  known->ext  = ext;
  known->n += nnew;
  *norder += nnew;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The graph-distance layers of the own rows up to depth s, the remote rows' entries, the halo exchange, the
  statistics. With a limit on the extra flops, the rounds stop at the first depth that passes it; with
  partial, the kernel is then built to the depth before (at least 2): the state before that round is kept.
  Where the blocks multiply on the GPU, the layers stop at depth gpumax (< s: the kernel built to that depth).
*/
static PetscErrorCode MatPowersGhostLayers_Private(MatPowers mpk, PetscReal limit, PetscBool partial, PetscInt gpumax)
{
  Mat                 A = mpk->A, Ad, Ao;
  const PetscInt     *garray, *ai = NULL, *aj = NULL, *bi = NULL, *bj = NULL;
  PetscInt           *ghost, norder, *gB = NULL, nb = 0, n;
  PetscBool           ok, done;
  PetscReal           loc[3], glob[3];
  MatPowersKnown      known = {0};
  MatPowersRemoteRows rr = {0};
  MatInfo             info;

  PetscFunctionBegin;
  PetscCall(MatPowersGhostReset(mpk));
  PetscCall(MatPowersGetBlocks(A, &Ad, &Ao, &garray, &mpk->cuda, &ok));
  loc[2] = ok ? 0 : 1;
  loc[1] = mpk->cuda ? 0 : 1;
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &loc[1], 2, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)mpk)));
  if (loc[1] > 0) gpumax = mpk->s; /* some process multiplies on the host: the depth cap is for GPUs only (and the same on every process) */
  if (loc[2] > 0) {
    mpk->s2v = mpk->extra = -1;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  mpk->nown = mpk->nrows = A->rmap->n;
  mpk->ng   = Ao ? Ao->cmap->n : 0;
  mpk->gdepth   = PetscMin(mpk->s, gpumax);
  mpk->gpudepth = (PetscBool)(gpumax < mpk->s);
  mpk->s2vdeeper = mpk->extradeeper = -1;
  norder    = mpk->nown + mpk->ng;
  PetscCall(PetscMalloc1(mpk->ng, &ghost)); /* the global index of each extended column beyond the own ones */
  PetscCall(MatPowersKnownReserve(&known, mpk->ng, 0));
  known.n = mpk->ng;
  for (PetscInt c = 0; c < mpk->ng; c++) { /* garray is ascending */
    ghost[c] = known.g[c] = garray[c];
    known.ext[c]                      = mpk->nown + c;
  }
  PetscCall(MatGetInfo(Ad, MAT_LOCAL, &info));
  mpk->nnzown = (PetscInt)info.nz_used;
  PetscCall(PetscMalloc1(1, &rr.rowptr));
  rr.rowptr[0] = 0;
  if (!mpk->halo.tag) PetscCall(PetscObjectGetNewTag((PetscObject)mpk, &mpk->halo.tag));
  if (Ao) { /* depth 1, ..., s - 1: fetch the rows, whose columns give the next depth */
    PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &ai, &aj, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetRowIJ() failed on the diagonal block");
    PetscCall(MatGetRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &n, &bi, &bj, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetRowIJ() failed on the off-diagonal block");
    nb = bi[n];
    mpk->nnzown += nb;
    PetscCall(PetscMalloc1(nb, &gB));
    for (PetscInt e = 0; e < nb; e++) gB[e] = garray[bj[e]];
    for (PetscInt d = 1, front = mpk->nown; d < mpk->gdepth; d++) {
      const PetscInt    e0 = rr.nnz, nl = norder - front;
      const PetscInt    keep[3] = {rr.n, mpk->nrows, norder}; /* the depth-d kernel, should this round pass the limit */
      const PetscMPIInt keepmsg[2] = {mpk->halo.nsend, mpk->halo.nrecv};

      PetscCall(PetscLogEventBegin(MAT_POWERS_Fetch, mpk, 0, 0, 0));
      PetscCall(MatPowersHaloFetchRows(A, ai, aj, bi, gB, nl, ghost + front - mpk->nown, &rr, &mpk->halo));
      PetscCall(PetscLogEventEnd(MAT_POWERS_Fetch, mpk, 0, 0, 0));
      mpk->nrows = norder;
      front      = norder;
      PetscCall(PetscLogEventBegin(MAT_POWERS_Layer, mpk, 0, 0, 0));
      PetscCall(MatPowersNextLayer(A, &rr, e0, &known, mpk->nown, &ghost, &norder));
      PetscCall(PetscLogEventEnd(MAT_POWERS_Layer, mpk, 0, 0, 0));
      if (limit < PETSC_MAX_REAL) { /* the extra flops only grow with depth: stop once they pass the limit (FEM matrices at depth 1 or 2) */
        loc[0] = mpk->nown ? (PetscReal)(norder - mpk->nown) / mpk->nown : 0;
        loc[1] = mpk->nnzown ? (PetscReal)(mpk->nnzown + rr.nnz) / mpk->nnzown - 1 : 0;
        PetscCallMPI(MPIU_Allreduce(loc, glob, 2, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)mpk)));
        if (glob[1] > limit && partial && d >= 2) { /* partly ghosted: back to the depth-d kernel, within the limit */
          rr.n               = keep[0];
          rr.nnz             = e0;
          mpk->nrows         = keep[1];
          norder             = keep[2];
          mpk->halo.nsend    = keepmsg[0];
          mpk->halo.nrecv    = keepmsg[1];
          mpk->gdepth        = d;
          mpk->s2vdeeper     = glob[0];
          mpk->extradeeper   = glob[1];
          PetscCall(PetscInfo(mpk, "Extra flops %g above %g at depth %" PetscInt_FMT ": partly ghosted, to depth %" PetscInt_FMT "\n", (double)glob[1], (double)limit, d + 1, d));
          break;
        }
        if (glob[1] > limit) {
          mpk->s2v    = glob[0];
          mpk->extra  = glob[1];
          mpk->depth  = d + 1;
          mpk->rowptr = rr.rowptr; /* freed by MatPowersGhostReset() */
          mpk->cols   = rr.gcols;
          PetscCall(PetscFree(gB));
          PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &ai, &aj, &done));
          PetscCall(MatRestoreRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &n, &bi, &bj, &done));
          PetscCall(MatPowersKnownDestroy(&known));
          PetscCall(PetscFree(ghost));
          PetscCall(PetscInfo(mpk, "Extra flops %g above %g already at depth %" PetscInt_FMT ": ghost rows not examined deeper\n", (double)mpk->extra, (double)limit, mpk->depth));
          PetscFunctionReturn(PETSC_SUCCESS);
        }
      }
    }
    PetscCall(PetscFree(gB));
    PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &ai, &aj, &done));
    PetscCall(MatRestoreRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &n, &bi, &bj, &done));
  }
  mpk->ncols  = norder;
  mpk->nnzext = mpk->nnzown + rr.nnz;

  /* the remote rows' entries, ascending in each row (R's CSR), and where R's values come from */
  PetscCall(PetscLogEventBegin(MAT_POWERS_Plan, mpk, 0, 0, 0));
  mpk->rowptr = rr.rowptr;
  mpk->cols   = rr.gcols;
  PetscCall(PetscMalloc3(rr.nnz, &mpk->perm, rr.nnz, &mpk->vals, rr.nnz, &mpk->rvals));
  for (PetscInt e = 0; e < rr.nnz; e++) mpk->perm[e] = e;
  for (PetscInt r = 0; r < rr.n; r++) PetscCall(PetscSortIntWithArray(rr.rowptr[r + 1] - rr.rowptr[r], mpk->cols + rr.rowptr[r], mpk->perm + rr.rowptr[r]));
  PetscCall(MatPowersKnownDestroy(&known));
  if (Ao) PetscCall(MatPowersGhostDIALayout(mpk, ghost, Ad, Ao, garray));

  /* the one halo exchange: global vector -> the ghost part of the extended vector (the own part is a copy) */
  {
    PetscSF   sf;
    PetscInt *leaves;

    PetscCall(PetscMalloc1(norder - mpk->nown, &leaves));
    for (PetscInt i = 0; i < norder - mpk->nown; i++) leaves[i] = mpk->sidx ? mpk->sidx[i] : mpk->nown + i;
    PetscCall(PetscSFCreate(PetscObjectComm((PetscObject)mpk), &sf));
    PetscCall(PetscSFSetGraphLayout(sf, A->rmap, norder - mpk->nown, leaves, PETSC_OWN_POINTER, ghost));
    PetscCall(JaggedHaloCreate(sf, sizeof(PetscScalar), mpk->cuda, mpk->exchangetype, &mpk->exchange));
    PetscCall(PetscSFDestroy(&sf));
  }
  PetscCall(PetscLogEventEnd(MAT_POWERS_Plan, mpk, 0, 0, 0));
  PetscCall(PetscFree(ghost));

  loc[0] = mpk->nown ? (PetscReal)(mpk->ncols - mpk->nown) / mpk->nown : 0;
  loc[1] = mpk->nnzown ? (PetscReal)mpk->nnzext / mpk->nnzown - 1 : 0;
  PetscCallMPI(MPIU_Allreduce(loc, glob, 2, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)mpk)));
  mpk->s2v   = glob[0];
  mpk->extra = glob[1];
  mpk->depth = mpk->gdepth;
  PetscCall(PetscInfo(mpk, "Own rows %" PetscInt_FMT ", extended rows %" PetscInt_FMT " (depth <= %" PetscInt_FMT "), columns %" PetscInt_FMT " (depth <= %" PetscInt_FMT "), nonzeros %" PetscInt_FMT " (own %" PetscInt_FMT ")\n", mpk->nown, mpk->nrows, mpk->gdepth - 1, mpk->ncols, mpk->gdepth, mpk->nnzext, mpk->nnzown));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatPowersGhostLayers_Private() within the event MatPowersGhosts */
PetscErrorCode MatPowersGhostLayers(MatPowers mpk, PetscReal limit, PetscBool partial, PetscInt gpumax)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MAT_POWERS_Ghosts, mpk, 0, 0, 0));
  PetscCall(MatPowersGhostLayers_Private(mpk, limit, partial, gpumax));
  PetscCall(PetscLogEventEnd(MAT_POWERS_Ghosts, mpk, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An extended vector, or a view (no array of its own) of n entries, in the memory the blocks multiply in */
static PetscErrorCode MatPowersCreateVec(MatPowers mpk, PetscInt n, PetscBool view, Vec *v)
{
  PetscFunctionBegin;
  if (view && mpk->cuda) PetscCall(VecCreateSeqCUDAWithArray(PETSC_COMM_SELF, 1, n, NULL, v));
  else if (view) PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, NULL, v));
  else {
    PetscCall(VecCreate(PETSC_COMM_SELF, v));
    PetscCall(VecSetSizes(*v, n, n));
    PetscCall(VecSetType(*v, mpk->cuda ? VECSEQCUDA : VECSEQ));
    PetscCall(VecSet(*v, 0.0)); /* allocated where the products run */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The extended inverse diagonal, and the global one as a view of its own rows: MatPowersJacobiInverse() writes them in place, and
  MatPowersExtend() only exchanges the ghost rows (MatCreateVecs() would allocate a vector, and its pinned host copy)
*/
static PetscErrorCode MatPowersCreateDinv(MatPowers mpk)
{
  MPI_Comm     comm = PetscObjectComm((PetscObject)mpk->A);
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(MatPowersCreateVec(mpk, mpk->ncols, PETSC_FALSE, &mpk->dinvext));
  if (mpk->cuda) {
    PetscCall(VecCUDAGetArray(mpk->dinvext, &a));
    PetscCall(VecCreateMPICUDAWithArray(comm, 1, mpk->nown, PETSC_DECIDE, a + mpk->ownoff, &mpk->dinv));
    PetscCall(VecCUDARestoreArray(mpk->dinvext, &a));
  } else {
    PetscCall(VecGetArray(mpk->dinvext, &a));
    PetscCall(VecCreateMPIWithArray(comm, 1, mpk->nown, PETSC_DECIDE, a + mpk->ownoff, &mpk->dinv));
    PetscCall(VecRestoreArray(mpk->dinvext, &a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The remote-rows matrix (on the arrays of mpk) and the extended vectors (after MatPowersGhostLayers()) */
PetscErrorCode MatPowersGhostBuild(MatPowers mpk)
{
  const PetscInt nrem = mpk->nrows - mpk->nown;
  const PetscInt size[4] = {mpk->nown, mpk->ng, mpk->nown, nrem};

  PetscFunctionBegin;
  if (mpk->ndiag) { /* the extended rows in one DIA copy, the Jacobi scaling folded in: no R, no views */
    PetscCall(MatPowersDIAAlloc(mpk, mpk->ncols, mpk->cuda));
    for (PetscInt i = 0; i < 3; i++) PetscCall(MatPowersCreateVec(mpk, mpk->ncols, PETSC_FALSE, &mpk->Z[i]));
    if (mpk->pckind == MAT_POWERS_PC_JACOBI) PetscCall(MatPowersCreateDinv(mpk));
    PetscCall(MatPowersGhostRefresh(mpk));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (nrem > 0) { /* in the type of A's diagonal block: a GPU matrix gives a GPU R; converted in place, so it keeps the arrays */
    Mat            Ad, Ao;
    MatType        target;
    PetscBool      same, ok, cuda;
    const PetscInt *garray;
    PetscErrorCode (*sethost)(Mat, PetscBool) = NULL;

    PetscCall(PetscArrayzero(mpk->rvals, mpk->rowptr[nrem]));
    PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, nrem, mpk->ncols, mpk->rowptr, mpk->cols, mpk->rvals, &mpk->R));
    PetscCall(MatPowersGetBlocks(mpk->A, &Ad, &Ao, &garray, &cuda, &ok));
    PetscCall(MatGetType(Ad, &target));
    PetscCall(PetscObjectTypeCompare((PetscObject)mpk->R, target, &same));
    if (!same) PetscCall(MatConvert(mpk->R, target, MAT_INPLACE_MATRIX, &mpk->R));
    PetscCall(PetscObjectQueryFunction((PetscObject)mpk->R, "MatJaggedSetUseHost_C", &sethost));
    if (sethost) PetscCall(MatJaggedSetUseHost(mpk->R, (PetscBool)!mpk->cuda)); /* host kernels when A's block runs them */
  }
  for (PetscInt i = 0; i < 3; i++) PetscCall(MatPowersCreateVec(mpk, mpk->ncols, PETSC_FALSE, &mpk->Z[i]));
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatPowersCreateVec(mpk, size[i], PETSC_TRUE, &mpk->view[i]));
  if (mpk->pckind == MAT_POWERS_PC_JACOBI) {
    PetscCall(MatPowersCreateDinv(mpk));
    if (mpk->side == PC_RIGHT) PetscCall(MatPowersCreateVec(mpk, mpk->ncols, PETSC_FALSE, &mpk->Zs));
  }
  PetscCall(MatPowersGhostRefresh(mpk));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The nown entries of Z from zoff into V from voff (the own rows of an extended vector and a global one, either way), on the device when both are there */
static PetscErrorCode MatPowersCopyOwn(PetscInt nown, Vec Z, PetscInt zoff, Vec V, PetscInt voff)
{
  const PetscScalar *z;
  PetscScalar       *v;
  PetscMemType       zm, vm;

  PetscFunctionBegin;
  PetscCall(VecGetArrayReadAndMemType(Z, &z, &zm));
  PetscCall(VecGetArrayWriteAndMemType(V, &v, &vm));
  if (PetscMemTypeDevice(zm) && PetscMemTypeDevice(vm)) {
    cudaStream_t stream; /* PetscDeviceArrayCopy() would want the arrays registered with PETSc's memory tracker */

    PetscCall(PetscGetCurrentCUDAStream(&stream));
    if (nown && v + voff != z + zoff) PetscCallCUDA(cudaMemcpyAsync(v + voff, z + zoff, sizeof(PetscScalar) * nown, cudaMemcpyDeviceToDevice, stream)); /* not a view of the other (MatPowersCreateDinv()) */
  } else if (PetscMemTypeHost(zm) && PetscMemTypeHost(vm)) {
    if (v + voff != z + zoff) PetscCall(PetscArraycpy(v + voff, z + zoff, nown));
  } else { /* mixed: through host arrays */
    PetscCall(VecRestoreArrayWriteAndMemType(V, &v));
    PetscCall(VecRestoreArrayReadAndMemType(Z, &z));
    PetscCall(VecGetArrayRead(Z, &z));
    PetscCall(VecGetArrayWrite(V, &v));
    PetscCall(PetscArraycpy(v + voff, z + zoff, nown));
    PetscCall(VecRestoreArrayWrite(V, &v));
    PetscCall(VecRestoreArrayRead(Z, &z));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecRestoreArrayWriteAndMemType(V, &v));
  PetscCall(VecRestoreArrayReadAndMemType(Z, &z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A global vector V to an extended vector Z: the own rows copied, the ghost rows exchanged */
static PetscErrorCode MatPowersExtend(MatPowers mpk, Vec V, Vec Z)
{
  const PetscScalar *v;
  PetscScalar       *z;
  cudaStream_t       stream = NULL;

  PetscFunctionBegin;
  PetscCall(MatPowersCopyOwn(mpk->nown, V, 0, Z, mpk->ownoff));
  if (mpk->cuda) {
    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCall(VecCUDAGetArrayRead(V, &v));
    PetscCall(VecCUDAGetArray(Z, &z));
  } else {
    PetscCall(VecGetArrayRead(V, &v));
    PetscCall(VecGetArray(Z, &z));
  }
  PetscCall(JaggedHaloBegin(mpk->exchange, v, stream));
  PetscCall(JaggedHaloEnd(mpk->exchange, z, stream));
  if (mpk->cuda) {
    PetscCall(VecCUDARestoreArrayRead(V, &v));
    PetscCall(VecCUDARestoreArray(Z, &z));
  } else {
    PetscCall(VecRestoreArrayRead(V, &v));
    PetscCall(VecRestoreArray(Z, &z));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The values of the remote rows from their owners, into R; the Jacobi scaling on the extended columns */
PetscErrorCode MatPowersGhostRefresh(MatPowers mpk)
{
  Mat                Ad, Ao;
  const PetscInt    *garray;
  const PetscInt    *ai, *aj, *bi, *bj;
  const PetscScalar *aa = NULL, *ba = NULL;
  PetscScalar       *rv;
  PetscInt           n;
  PetscBool          ok, cuda, done;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MAT_POWERS_SetUp, mpk, 0, 0, 0));
  PetscCall(PetscLogEventBegin(MAT_POWERS_Values, mpk, 0, 0, 0));
  PetscCall(MatPowersGetBlocks(mpk->A, &Ad, &Ao, &garray, &cuda, &ok));
  if (Ao) {
    PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &ai, &aj, &done));
    PetscCall(MatGetRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &n, &bi, &bj, &done));
    PetscCall(MatSeqAIJGetArrayRead(Ad, &aa));
    PetscCall(MatSeqAIJGetArrayRead(Ao, &ba));
    PetscCall(MatPowersHaloValues(mpk->A, ai, aa, bi, ba, &mpk->halo, mpk->vals));
    PetscCall(MatSeqAIJRestoreArrayRead(Ad, &aa));
    PetscCall(MatSeqAIJRestoreArrayRead(Ao, &ba));
    PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &ai, &aj, &done));
    PetscCall(MatRestoreRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &n, &bi, &bj, &done));
  }
  if (mpk->R) { /* in place: R's structure is unchanged, its device copy refreshes its values only */
    PetscCall(MatSeqAIJGetArrayWrite(mpk->R, &rv));
    for (PetscInt k = 0; k < mpk->rowptr[mpk->nrows - mpk->nown]; k++) rv[k] = mpk->vals[mpk->perm[k]];
    PetscCall(MatSeqAIJRestoreArrayWrite(mpk->R, &rv));
  }
  if (mpk->pckind == MAT_POWERS_PC_JACOBI) { /* the inverse diagonal PCApply() multiplies with (PCJACOBI: y = diag .* x) */
    PetscCall(MatPowersJacobiInverse(mpk, mpk->dinv));
    PetscCall(MatPowersExtend(mpk, mpk->dinv, mpk->dinvext));
  }
  if (mpk->ndiag) PetscCall(MatPowersGhostDIAFill(mpk, Ad, Ao, garray));
  PetscCall(PetscLogEventEnd(MAT_POWERS_Values, mpk, 0, 0, 0));
  PetscCall(PetscLogEventEnd(MAT_POWERS_SetUp, mpk, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatPowersGhostReset(MatPowers mpk)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&mpk->R)); /* before the arrays it was made on */
  PetscCall(PetscFree(mpk->rowptr));
  PetscCall(PetscFree(mpk->cols));
  PetscCall(PetscFree3(mpk->perm, mpk->vals, mpk->rvals));
  PetscCall(MatPowersHaloReset(&mpk->halo));
  PetscCall(JaggedHaloDestroy(&mpk->exchange));
  for (PetscInt i = 0; i < 3; i++) PetscCall(VecDestroy(&mpk->Z[i]));
  for (PetscInt i = 0; i < 4; i++) PetscCall(VecDestroy(&mpk->view[i]));
  PetscCall(VecDestroy(&mpk->Zs));
  PetscCall(VecDestroy(&mpk->dinv));
  PetscCall(VecDestroy(&mpk->dinvext));
  PetscCall(PetscFree(mpk->sidx));
  PetscCall(MatPowersDIAReset(mpk));
  mpk->ownoff = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Places view v on a + offset (device memory when the kernel runs on the GPU), or takes it off (a = NULL) */
static PetscErrorCode MatPowersPlace(MatPowers mpk, Vec v, const PetscScalar *a, PetscInt offset)
{
  PetscFunctionBegin;
  if (mpk->cuda && a) PetscCall(VecCUDAPlaceArray(v, a + offset));
  else if (mpk->cuda) PetscCall(VecCUDAResetArray(v));
  else if (a) PetscCall(VecPlaceArray(v, a + offset));
  else PetscCall(VecResetArray(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Y = B X on the extended rows up to depth gdepth - 1: own rows by A's blocks, remote rows by R; rows at depth gdepth keep their values */
static PetscErrorCode MatPowersExtendedMult(MatPowers mpk, Vec X, Vec Y)
{
  Mat                Ad, Ao;
  const PetscInt    *garray;
  const PetscScalar *x;
  PetscScalar       *y;
  PetscBool          ok, cuda;

  PetscFunctionBegin;
  PetscCall(MatPowersGetBlocks(mpk->A, &Ad, &Ao, &garray, &cuda, &ok));
  if (mpk->cuda) {
    PetscCall(VecCUDAGetArrayRead(X, &x));
    PetscCall(VecCUDAGetArray(Y, &y));
  } else {
    PetscCall(VecGetArrayRead(X, &x));
    PetscCall(VecGetArray(Y, &y));
  }
  PetscCall(MatPowersPlace(mpk, mpk->view[0], x, 0));
  PetscCall(MatPowersPlace(mpk, mpk->view[1], x, mpk->nown));
  PetscCall(MatPowersPlace(mpk, mpk->view[2], y, 0));
  PetscCall(MatPowersPlace(mpk, mpk->view[3], y, mpk->nown));
  PetscCall(MatMult(Ad, mpk->view[0], mpk->view[2]));
  if (mpk->ng) PetscCall(MatMultAdd(Ao, mpk->view[1], mpk->view[2], mpk->view[2]));
  if (mpk->R) PetscCall(MatMult(mpk->R, X, mpk->view[3]));
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatPowersPlace(mpk, mpk->view[i], NULL, 0));
  if (mpk->cuda) {
    PetscCall(VecCUDARestoreArrayRead(X, &x));
    PetscCall(VecCUDARestoreArray(Y, &y));
  } else {
    PetscCall(VecRestoreArrayRead(X, &x));
    PetscCall(VecRestoreArray(Y, &y));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  One halo exchange of V[0] to the extended columns, then local products (Jacobi: on the scaled input, right,
  or scaling the output, left); the ghosts last gdepth products, then V[j] is exchanged again (partly
  ghosted). The second shift of a conjugate pair also reads the extended V[j-1], whose ghosts, the last
  product of a block, are exact to depth 1 only: an exchange due there is made one product earlier, so
  that V[j-1] is the freshly exchanged vector (depth 2 needs no more than depth 1).
*/
PetscErrorCode MatPowersApply_Ghosted(MatPowers mpk, PetscInt k, const PetscScalar re[], const PetscReal im[], Vec V[])
{
  PetscInt left = 0; /* products the extended vectors' ghosts are still exact for */

  PetscFunctionBegin;
  for (PetscInt j = 0; j < k; j++) {
    Vec             Zc = mpk->Z[j % 3], Zn = mpk->Z[(j + 1) % 3], Zp = mpk->Z[(j + 2) % 3];
    const PetscBool pairnext = (PetscBool)(!PetscDefined(USE_COMPLEX) && im && j + 1 < k && im[j + 1] < 0 && mpk->gdepth > 2);

    if (!left || (left == 1 && pairnext)) {
      PetscCall(MatPowersExtend(mpk, V[j], Zc));
      mpk->nexchanges += 1;
      left = mpk->gdepth;
    }
    if (mpk->ndiag) { /* product, Jacobi and shift in one kernel */
      const PetscBool pair = (PetscBool)(!PetscDefined(USE_COMPLEX) && im && im[j] < 0);

      PetscCall(MatPowersDIAStep(mpk, mpk->ncols, Zc, pair ? Zp : NULL, re ? re[j] : 0.0, pair ? (PetscScalar)(im[j] * im[j]) : 0.0, Zn));
    } else {
      if (mpk->Zs) PetscCall(VecPointwiseMult(mpk->Zs, mpk->dinvext, Zc));
      PetscCall(MatPowersExtendedMult(mpk, mpk->Zs ? mpk->Zs : Zc, Zn));
      if (mpk->dinvext && !mpk->Zs) PetscCall(VecPointwiseMult(Zn, mpk->dinvext, Zn));
      PetscCall(MatPowersShift(j, re, im, Zn, Zc, j ? Zp : NULL));
    }
    PetscCall(MatPowersCopyOwn(mpk->nown, Zn, mpk->ownoff, V[j + 1], 0));
    left--;
  }
  mpk->nproducts += k;
  PetscFunctionReturn(PETSC_SUCCESS);
}
