/*
   MatDIAEntriesGet() and MatDIAEntriesRestore(): see diaentries.cuh.
*/
#include <petscjagged/private/diaentries.cuh>
#include <petscjagged/private/seqjagged.h>

/*
  MatDIAEntriesGet - the entries of block B in device memory, and whether it keeps them there (*ok: a MATSEQAIJCUSPARSE,
  or a jagged type not run on the host, with a format of single entries); colmap (device) maps its local columns to global ones, or NULL with cstart
*/
PetscErrorCode MatDIAEntriesGet(Mat B, const PetscInt *colmap, PetscInt cstart, MatDIAEntries *e, PetscBool *ok)
{
  PetscBool cusparse, jagged;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(e, sizeof(*e)));
  e->m      = B->rmap->n;
  e->colmap = colmap;
  e->cstart = cstart;
  PetscCall(PetscObjectTypeCompare((PetscObject)B, MATSEQAIJCUSPARSE, &cusparse));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)B, &jagged, MATSEQPJDSCUDA, MATSEQJDSCUDA, ""));
  *ok = (PetscBool)(cusparse || jagged);
  if (cusparse) {
    const PetscScalar *v;

    PetscCall(MatSeqAIJCUSPARSEGetIJ(B, PETSC_FALSE, &e->ai, &e->aj));
    PetscCall(MatSeqAIJCUSPARSEGetArrayRead(B, &v));
    e->v = reinterpret_cast<const MatDIADS *>(v);
  } else if (jagged) {
    Mat_SeqJagged *j = (Mat_SeqJagged *)B->spptr;

    if (j->host) { /* -mat_jagged_host: its values are in host memory */
      *ok = PETSC_FALSE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(MatSeqJaggedSync(B));
    if (j->format->bs > 1) { /* a blocked format: the row visitor walks single entries */
      *ok = PETSC_FALSE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    if (j->dformat) { /* none for a block without rows */
      const jagged::gpu::DeviceFormat &d = *j->dformat;

      e->nsorted     = d.nnonempty;
      e->nlong       = d.nlong;
      e->nstored     = d.nstored;
      e->perm        = d.perm;
      e->rowlen      = d.rowlen;
      e->diagstart   = d.diagstart;
      e->colidx      = d.colidx;
      e->valmap      = d.valmap;
      e->long_rows   = d.long_rows;
      e->long_rowptr = d.long_rowptr;
      e->long_colidx = d.long_colidx;
    }
    e->v = reinterpret_cast<const MatDIADS *>(j->vals);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatDIAEntriesRestore - gives back what MatDIAEntriesGet() took from B */
PetscErrorCode MatDIAEntriesRestore(Mat B, MatDIAEntries *e)
{
  PetscFunctionBegin;
  if (e->ai) {
    const PetscScalar *v = reinterpret_cast<const PetscScalar *>(e->v);

    PetscCall(MatSeqAIJCUSPARSERestoreIJ(B, PETSC_FALSE, &e->ai, &e->aj));
    PetscCall(MatSeqAIJCUSPARSERestoreArrayRead(B, &v));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
