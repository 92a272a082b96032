/*
   MatPowers: the matrix-powers kernel (MPK) of communication-avoiding Krylov methods. Builds
   V[j+1] = (B - theta_j) V[j], j < k <= s, with B = A M^{-1}, either by s ordinary products (one halo
   exchange each) or, ghosted, by one halo exchange of the depth-s ghost rows followed by k local
   products on the extended rows (matpowersghost.c). Yamazaki, Anzt, Tomov, Hoemmen, Dongarra,
   "Improving the performance of CA-GMRES on multicores with multiple GPUs", IPDPS 2014, Sec. IV.
*/
#include "matpowersimpl.h"
#include <petscjagged/private/jaggednccl.h>

PetscClassId  MATPOWERS_CLASSID;
PetscLogEvent MAT_POWERS_Apply, MAT_POWERS_SetUp, MAT_POWERS_Ghosts, MAT_POWERS_Values, MAT_POWERS_Fetch, MAT_POWERS_Layer, MAT_POWERS_Plan, MAT_POWERS_Diags, MAT_POWERS_Build;

/*S
   MatPowers - The matrix-powers kernel: k <= s new vectors of a (shifted) Krylov basis of B = A M^{-1}
   for one halo exchange, the basis generator of `KSPCAGMRES`

   Level: intermediate

   Notes:
   Ghosted (`MAT_POWERS_GHOSTED`), each process multiplies its rows extended by the rows within graph
   distance s - 1, reading the entries within distance s, which one scatter brings in; plain
   (`MAT_POWERS_PLAIN`), it calls `MatMult()` s times. `MatPowersView()` shows which it uses, the cost
   of the ghost rows (the paper's surface-to-volume ratio and extra flops) and the halo exchanges made.
   The `-log_view` events are MatPowers (`MatPowersApply()`) and MatPowersSetUp (set-up and refreshes), within
   which MatPowersGhosts (the ghost rows' structure fetched from their owners, the halo exchange's plan, the DIA
   copy's diagonals; within it MatPowersFetch, the rows' messages, MatPowersLayer, the columns of each new
   layer sorted and merged, and MatPowersPlan, the remote rows sorted, the DIA copy's layout and the
   exchange's plan), MatPowersValues (the extended rows' values: the remote ones fetched, the DIA copy
   written; again at each values-only refresh), MatPowersDiags (auto on several processes: whether the own
   rows' entries lie on few enough diagonals for the DIA copy, found on the GPU) and MatPowersBuild (the
   ghosted kernel's storage: the DIA copy or the remote rows' matrix, the extended vectors; MatPowersValues
   within it).

.seealso: `MatCreateMatrixPowers()`, `MatPowersApply()`, `MatPowersType`, `KSPCAGMRES`
S*/

const char *const MatPowersTypes[] = {"auto", "ghosted", "plain", "MatPowersType", "MAT_POWERS_", NULL};

/*@
  MatCreateMatrixPowers - Creates a matrix-powers kernel: up to s products with A (right-preconditioned
  and shifted, see `MatPowersApply()`) for one halo exchange

  Collective

  Input Parameters:
+ A - the square operator (any type with `MatMult()`; ghosting needs an AIJ-based type: `MATAIJ`, its GPU types, the jagged types)
- s - the largest number of products `MatPowersApply()` will be asked for, at least 1

  Output Parameter:
. mpk - the kernel

  Level: intermediate

  Note:
  The kernel keeps a reference to `A`. It notices when the values of `A` change (same pattern: the
  values of the remote rows are fetched again, nothing else) or its nonzero pattern changes (the ghost
  rows are recomputed) at the next `MatPowersApply()`.

.seealso: `MatPowers`, `MatPowersSetPC()`, `MatPowersSetType()`, `MatPowersSetUp()`, `MatPowersApply()`, `MatPowersGetInfo()`, `MatPowersView()`, `MatPowersDestroy()`
@*/
PetscErrorCode MatCreateMatrixPowers(Mat A, PetscInt s, MatPowers *mpk)
{
  MatPowers m;
  PetscInt  M, N, mloc, nloc;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveInt(A, s, 2);
  PetscAssertPointer(mpk, 3);
  PetscCheck(s >= 1, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "The matrix-powers kernel needs s >= 1, not %" PetscInt_FMT, s);
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetLocalSize(A, &mloc, &nloc));
  PetscCheck(M == N && mloc == nloc, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "The matrix-powers kernel needs a square matrix with equal row and column layouts, not %" PetscInt_FMT " x %" PetscInt_FMT " (local %" PetscInt_FMT " x %" PetscInt_FMT ")", M, N, mloc, nloc);
  PetscCall(PetscJaggedInitializePackage());
  PetscCall(PetscHeaderCreate(m, MATPOWERS_CLASSID, "MatPowers", "Matrix-powers kernel", "MatPowers", PetscObjectComm((PetscObject)A), MatPowersDestroy, MatPowersView));
  PetscCall(PetscObjectReference((PetscObject)A));
  m->A               = A;
  m->s               = s;
  m->reqtype         = MAT_POWERS_AUTO;
  m->type            = MAT_POWERS_AUTO;
  m->max_extra_flops = 0.25;
  m->partial         = PETSC_FALSE;
  m->exchangetype    = PETSC_JAGGED_EXCHANGE_AUTO;
  m->usedia          = PETSC_TRUE;
  m->side            = PC_RIGHT;
  m->s2v             = -1;
  m->extra           = -1;
  *mpk               = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersSetPC - Sets the preconditioner: `MatPowersApply()` then multiplies by B = A M^{-1} (right, the default) or
  B = M^{-1} A (left, `MatPowersSetPCSide()`), where M^{-1} is `PCApply()`

  Collective

  Input Parameters:
+ mpk - the kernel
- pc  - the preconditioner, or `NULL` for none (B = A)

  Level: intermediate

  Notes:
  `PCNONE` is the same as `NULL`. `PCJACOBI` (any of its variants) is local: its inverse diagonal, the one
  `PCApply()` multiplies with, is applied by the ghosted kernel as a scaling of the extended vectors and by
  the others as a scaling of each product (`MatPowersApplyPC()`). For the default variant (the diagonal) the
  kernel makes it from `MatGetDiagonal()` where the vectors are, as `PCJACOBI` does, except that a zero on the
  diagonal is only detected there (`PCJACOBI` replaces zeros by 1 on the host): with one, and for the other
  variants, it is `PCApply()` of a vector of ones. Any other preconditioner
  couples the processes in ways the ghost rows do not capture: the kernel then runs plain products
  (`MatMult()` and `PCApply()`), also when `MAT_POWERS_GHOSTED` was requested.

  The kernel calls `PCSetUp()` in `MatPowersSetUp()`, so the operators of `pc` must be set.

.seealso: `MatPowers`, `MatCreateMatrixPowers()`, `MatPowersSetPCSide()`, `MatPowersApply()`, `PCJACOBI`
@*/
PetscErrorCode MatPowersSetPC(MatPowers mpk, PC pc)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  if (pc) PetscValidHeaderSpecific(pc, PC_CLASSID, 2);
  if (pc) PetscCall(PetscObjectReference((PetscObject)pc));
  PetscCall(PCDestroy(&mpk->pc));
  mpk->pc          = pc;
  mpk->setupcalled = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersSetPCSide - Sets the side of the preconditioner: `MatPowersApply()` multiplies by B = A M^{-1} (`PC_RIGHT`, the default) or B = M^{-1} A (`PC_LEFT`)

  Logically Collective

  Input Parameters:
+ mpk  - the kernel
- side - `PC_RIGHT` or `PC_LEFT`

  Level: intermediate

  Note:
  Both sides cost the same: the ghosted kernel scales the input (right) or the output (left) of each
  extended product by the Jacobi inverse diagonal, the DIA copy folds it into the columns (right) or rows
  (left), plain products call `PCApply()` before (right) or after (left) `MatMult()`.

.seealso: `MatPowers`, `MatPowersSetPC()`, `MatPowersApply()`, `KSPSetPCSide()`
@*/
PetscErrorCode MatPowersSetPCSide(MatPowers mpk, PCSide side)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(mpk, side, 2);
  PetscCheck(side == PC_LEFT || side == PC_RIGHT, PetscObjectComm((PetscObject)mpk), PETSC_ERR_SUP, "The matrix-powers kernel supports left and right preconditioning, not %s", PCSides[side]);
  if (side != mpk->side) mpk->setupcalled = PETSC_FALSE;
  mpk->side = side;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersSetType - Chooses between the ghosted kernel and plain products

  Logically Collective

  Input Parameters:
+ mpk  - the kernel
- type - `MAT_POWERS_AUTO` (default), `MAT_POWERS_GHOSTED` or `MAT_POWERS_PLAIN`

  Options Database Key:
. -mat_powers_type <auto,ghosted,plain> - the type

  Level: intermediate

  Note:
  `MAT_POWERS_GHOSTED` with a preconditioner that is not local (see `MatPowersSetPC()`) or a matrix
  type that is not AIJ-based runs plain products; `MatPowersView()`
  and `-info` say why.

.seealso: `MatPowers`, `MatPowersType`, `MatPowersGetType()`, `MatPowersSetFromOptions()`
@*/
PetscErrorCode MatPowersSetType(MatPowers mpk, MatPowersType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(mpk, type, 2);
  if (type != mpk->reqtype) mpk->setupcalled = PETSC_FALSE;
  mpk->reqtype = type;
  if (!mpk->setupcalled) mpk->type = type;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersGetType - Gets the type: the requested one before `MatPowersSetUp()`, the resolved one
  (`MAT_POWERS_GHOSTED` or `MAT_POWERS_PLAIN`) after it

  Not Collective

  Input Parameter:
. mpk - the kernel

  Output Parameter:
. type - the type

  Level: intermediate

.seealso: `MatPowers`, `MatPowersSetType()`, `MatPowersSetUp()`
@*/
PetscErrorCode MatPowersGetType(MatPowers mpk, MatPowersType *type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  PetscAssertPointer(type, 2);
  *type = mpk->type;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersSetOptionsPrefix - Sets the prefix of the kernel's options (`KSPCAGMRES` gives it its own prefix)

  Logically Collective

  Input Parameters:
+ mpk    - the kernel
- prefix - the prefix, or `NULL`

  Level: intermediate

.seealso: `MatPowers`, `MatPowersSetFromOptions()`
@*/
PetscErrorCode MatPowersSetOptionsPrefix(MatPowers mpk, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)mpk, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersSetUseDIA - Sets whether plain products on one process, and the ghosted kernel's products on
  several, may go through a DIA copy

  Logically Collective

  Input Parameters:
+ mpk - the kernel
- flg - `PETSC_TRUE` (default) to allow the DIA copy, `PETSC_FALSE` to call `MatMult()` (and `PCApply()`)

  Options Database Key:
. -mat_powers_dia <bool> - allow the DIA copy

  Level: advanced

  Notes:
  The copy is made for a `MATSEQAIJ`, `MATSEQAIJCUSPARSE`, `MATSEQJDSCUDA` or `MATSEQPJDSCUDA` A whose entries lie
  on at most 32 diagonals (a stencil), on the GPU from A's entries there for the GPU types: the values stored diagonal by diagonal, without column indices, the Jacobi
  preconditioner folded into its columns (right) or rows (left), and the shift applied in the same kernel.
  Ghosted, on several processes, a process makes one for its extended rows (its own rows and the ghost
  rows, numbered in global order) when their columns form one range of global indices, as a
  structured grid split into slabs gives, in which the stencil's offsets survive, whatever A's AIJ-based
  type; a basis vector is then one kernel over the extended rows and a copy of the own rows.

  A change after `MatPowersSetUp()` sets the kernel up again at the next `MatPowersApply()`.

.seealso: `MatPowers`, `MatPowersGetUseDIA()`, `MatPowersSetType()`, `MatPowersSetFromOptions()`
@*/
PetscErrorCode MatPowersSetUseDIA(MatPowers mpk, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  PetscValidLogicalCollectiveBool(mpk, flg, 2);
  if (flg != mpk->usedia) mpk->setupcalled = PETSC_FALSE;
  mpk->usedia = flg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersGetUseDIA - Gets whether plain products on one process may go through a DIA copy of A

  Not Collective

  Input Parameter:
. mpk - the kernel

  Output Parameter:
. flg - whether the DIA copy is allowed

  Level: advanced

  Note:
  `MatPowersView()` shows whether a copy was made.

.seealso: `MatPowers`, `MatPowersSetUseDIA()`
@*/
PetscErrorCode MatPowersGetUseDIA(MatPowers mpk, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  PetscAssertPointer(flg, 2);
  *flg = mpk->usedia;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersSetMaxExtraFlops - Sets the largest extra flops of the ghosted kernel, relative to s plain
  products, for which `MAT_POWERS_AUTO` chooses it

  Logically Collective

  Input Parameters:
+ mpk   - the kernel
- extra - the limit, nonnegative (default 0.25)

  Options Database Key:
. -mat_powers_max_extra_flops <extra> - the limit

  Level: advanced

  Notes:
  The default trades at most a quarter more flops than s products for saving s - 1 of s halo
  exchanges: a sparse product is memory bound and, across processes or GPUs, its halo exchange (a
  gather, a message, and with MPI that is not GPU-aware two device-host copies) costs a fraction of
  the product of that order. The ghost rows are also fetched and assembled on the host at set-up, in
  time proportional to their nonzeros, which the first solve pays. The set-up stops examining deeper
  ghost rows once the limit is passed. `MatPowersGetInfo()` gives the extra flops of a matrix.

  A change after `MatPowersSetUp()` sets the kernel up again at the next `MatPowersApply()`.

.seealso: `MatPowers`, `MatPowersGetMaxExtraFlops()`, `MatPowersSetType()`, `MatPowersGetInfo()`
@*/
PetscErrorCode MatPowersSetMaxExtraFlops(MatPowers mpk, PetscReal extra)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  PetscValidLogicalCollectiveReal(mpk, extra, 2);
  PetscCheck(extra >= 0, PetscObjectComm((PetscObject)mpk), PETSC_ERR_ARG_OUTOFRANGE, "MatPowers extra flops limit (-mat_powers_max_extra_flops) must be nonnegative, not %g", (double)extra);
  if (extra != mpk->max_extra_flops) mpk->setupcalled = PETSC_FALSE;
  mpk->max_extra_flops = extra;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersGetMaxExtraFlops - Gets the largest extra flops of the ghosted kernel for which `MAT_POWERS_AUTO` chooses it

  Not Collective

  Input Parameter:
. mpk - the kernel

  Output Parameter:
. extra - the limit

  Level: advanced

.seealso: `MatPowers`, `MatPowersSetMaxExtraFlops()`
@*/
PetscErrorCode MatPowersGetMaxExtraFlops(MatPowers mpk, PetscReal *extra)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  PetscAssertPointer(extra, 2);
  *extra = mpk->max_extra_flops;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersSetPartial - Sets whether `MAT_POWERS_AUTO` may ghost to a depth below s (partly ghosted) when the
  depth-s ghost rows cost more extra flops than `MatPowersSetMaxExtraFlops()` allows

  Logically Collective

  Input Parameters:
+ mpk - the kernel
- flg - `PETSC_TRUE` to allow it (default `PETSC_FALSE`)

  Options Database Key:
. -mat_powers_partial <false> - allow it

  Level: advanced

  Notes:
  Partly ghosted, the kernel is built to the deepest depth t, 2 <= t < s, whose extra flops are within
  the limit, and makes one halo exchange every t products: about s / t exchanges for s products instead
  of s plain ones. Finite-element matrices partitioned into slabs or blocks typically reach the limit
  at a depth of 2 to 5; structured-grid operators at depth s. Without it such matrices get plain products.
  Off by default: on a CPU host the extra flops of a finite-element matrix ghosted to a depth of 3 cost more than the
  exchanges they save (the package's bench/RESULTS.md, "MatPowers partly ghosted"). On the GPU it does not apply: there
  `MAT_POWERS_AUTO` ghosts only through the DIA copy of the extended rows (see `MatPowersSetUp()`), which a
  finite-element matrix cannot have, so such a matrix gets plain products, each exchange hidden behind the diagonal
  block's product, with or without this flag.

  A change after `MatPowersSetUp()` sets the kernel up again at the next `MatPowersApply()`.

.seealso: `MatPowers`, `MatPowersGetPartial()`, `MatPowersSetMaxExtraFlops()`, `MatPowersSetType()`, `MatPowersView()`
@*/
PetscErrorCode MatPowersSetPartial(MatPowers mpk, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  PetscValidLogicalCollectiveBool(mpk, flg, 2);
  if (flg != mpk->partial) mpk->setupcalled = PETSC_FALSE;
  mpk->partial = flg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersGetPartial - Gets whether `MAT_POWERS_AUTO` may ghost to a depth below s

  Not Collective

  Input Parameter:
. mpk - the kernel

  Output Parameter:
. flg - whether it may

  Level: advanced

.seealso: `MatPowers`, `MatPowersSetPartial()`
@*/
PetscErrorCode MatPowersGetPartial(MatPowers mpk, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  PetscAssertPointer(flg, 2);
  *flg = mpk->partial;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersSetExchange - Sets the path of the ghosted kernel's halo exchange on several processes on GPUs

  Logically Collective

  Input Parameters:
+ mpk      - the kernel
- exchange - `PETSC_JAGGED_EXCHANGE_AUTO` (default: CUDA IPC where the processes share a host, else MPI), `PETSC_JAGGED_EXCHANGE_MPI`: through the host, `PETSC_JAGGED_EXCHANGE_NCCL` or `PETSC_JAGGED_EXCHANGE_IPC`: from GPU to GPU on the stream of the products

  Options Database Key:
. -mat_powers_exchange <auto,mpi,nccl,ipc> - the path

  Level: advanced

  Notes:
  Plain products exchange through A's own `MatMult()` (for `MATMPIJDSCUDA` and `MATMPIPJDSCUDA`, see
  `MatJaggedSetExchange()`). Asking for NCCL starts making its communicator in the background. Where the path asked for cannot run (see `PetscJaggedExchange`) the MPI path runs;
  `MatPowersView()` names the path taken and why. A change after `MatPowersSetUp()` sets the kernel up
  again at the next `MatPowersApply()`.

.seealso: `MatPowers`, `MatPowersGetExchange()`, `PetscJaggedExchange`, `MatPowersSetFromOptions()`
@*/
PetscErrorCode MatPowersSetExchange(MatPowers mpk, PetscJaggedExchange exchange)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(mpk, exchange, 2);
  PetscCheck(exchange >= PETSC_JAGGED_EXCHANGE_AUTO && exchange <= PETSC_JAGGED_EXCHANGE_IPC, PetscObjectComm((PetscObject)mpk), PETSC_ERR_ARG_OUTOFRANGE, "Unknown exchange %d", (int)exchange);
  if (exchange != mpk->exchangetype) mpk->setupcalled = PETSC_FALSE;
  mpk->exchangetype = exchange;
  if (exchange == PETSC_JAGGED_EXCHANGE_NCCL) PetscCall(JaggedNCCLPrefetch(PetscObjectComm((PetscObject)mpk))); /* made in the background until set-up */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersGetExchange - Gets the path asked for the ghosted kernel's halo exchange

  Not Collective

  Input Parameter:
. mpk - the kernel

  Output Parameter:
. exchange - the path asked for (the path taken is named by `MatPowersView()`)

  Level: advanced

.seealso: `MatPowers`, `MatPowersSetExchange()`
@*/
PetscErrorCode MatPowersGetExchange(MatPowers mpk, PetscJaggedExchange *exchange)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  PetscAssertPointer(exchange, 2);
  *exchange = mpk->exchangetype;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersSetFromOptions - Sets the kernel's type, its choice of DIA products and the threshold of `MAT_POWERS_AUTO` from the options database

  Collective

  Input Parameter:
. mpk - the kernel

  Options Database Keys:
+ -mat_powers_type <auto,ghosted,plain> - ghosted kernel, plain products, or the cheaper of the two, see `MatPowersSetType()`
. -mat_powers_max_extra_flops <0.25>    - auto: ghosted only when its extra flops, relative to s plain products, are at most this, see `MatPowersSetMaxExtraFlops()`
. -mat_powers_partial <false>           - auto: ghosted to a smaller depth (one exchange every depth products) when depth s passes that limit, see `MatPowersSetPartial()`
. -mat_powers_dia <true>                - products through a DIA copy where the entries lie on at most 32 diagonals: of A on one process, of the extended rows when ghosted, see `MatPowersSetUseDIA()`
- -mat_powers_exchange <auto,mpi,nccl,ipc> - the ghosted kernel's halo exchange on several processes on GPUs, see `MatPowersSetExchange()`

  Level: intermediate

.seealso: `MatPowers`, `MatPowersSetType()`, `MatPowersSetMaxExtraFlops()`, `MatPowersSetPartial()`, `MatPowersSetUseDIA()`, `MatPowersSetExchange()`, `MatPowersSetOptionsPrefix()`
@*/
PetscErrorCode MatPowersSetFromOptions(MatPowers mpk)
{
  MatPowersType       type;
  PetscReal           r;
  PetscBool           dia, partial, flg;
  PetscJaggedExchange exchange;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  PetscObjectOptionsBegin((PetscObject)mpk);
  PetscCall(PetscOptionsEnum("-mat_powers_type", "Matrix-powers kernel: ghosted (one halo exchange per s products), plain (s ordinary products) or auto", "MatPowersSetType", MatPowersTypes, (PetscEnum)mpk->reqtype, (PetscEnum *)&type, &flg));
  if (flg) PetscCall(MatPowersSetType(mpk, type));
  PetscCall(PetscOptionsBool("-mat_powers_dia", "Products through a DIA copy (of A on one process, of the extended rows when ghosted) when the entries lie on few diagonals", "MatPowersSetUseDIA", mpk->usedia, &dia, &flg));
  if (flg) PetscCall(MatPowersSetUseDIA(mpk, dia));
  PetscCall(PetscOptionsReal("-mat_powers_max_extra_flops", "Auto: ghosted only when its extra flops relative to s plain products are at most this", "MatPowersSetMaxExtraFlops", mpk->max_extra_flops, &r, &flg));
  if (flg) PetscCall(MatPowersSetMaxExtraFlops(mpk, r));
  PetscCall(PetscOptionsBool("-mat_powers_partial", "Auto: ghosted to a smaller depth (one exchange every depth products) when depth s passes the extra flops limit", "MatPowersSetPartial", mpk->partial, &partial, &flg));
  if (flg) PetscCall(MatPowersSetPartial(mpk, partial));
  PetscCall(PetscOptionsEnum("-mat_powers_exchange", "Ghosted, several processes on GPUs: path of the halo exchange: auto (CUDA IPC on one host, else MPI), mpi, nccl or ipc (GPU to GPU)", "MatPowersSetExchange", PetscJaggedExchanges, (PetscEnum)mpk->exchangetype, (PetscEnum *)&exchange, &flg));
  if (flg) PetscCall(MatPowersSetExchange(mpk, exchange));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Kind of the preconditioner, and the state of its operator */
static PetscErrorCode MatPowersPCKindGet(MatPowers mpk, MatPowersPCKind *kind, PetscObjectState *pstate)
{
  PetscBool none, jacobi;
  Mat       P;

  PetscFunctionBegin;
  *kind   = MAT_POWERS_PC_NONE;
  *pstate = 0;
  if (!mpk->pc) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectTypeCompare((PetscObject)mpk->pc, PCNONE, &none));
  PetscCall(PetscObjectTypeCompare((PetscObject)mpk->pc, PCJACOBI, &jacobi));
  *kind = none ? MAT_POWERS_PC_NONE : (jacobi ? MAT_POWERS_PC_JACOBI : MAT_POWERS_PC_OTHER);
  PetscCall(PCGetOperators(mpk->pc, NULL, &P));
  PetscCall(PetscObjectStateGet((PetscObject)P, pstate));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatPowersReset(MatPowers mpk)
{
  PetscFunctionBegin;
  PetscCall(MatPowersGhostReset(mpk));
  PetscCall(MatPowersDIAReset(mpk));
  PetscCall(VecDestroy(&mpk->W));
  PetscCall(MatNullSpaceDestroy(&mpk->nullsp));
  mpk->setupcalled = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = M^{-1} x as the kernel applies it (MatPowersApplyPC()), its set-up current */
static PetscErrorCode MatPowersApplyPC_Private(MatPowers mpk, Vec x, Vec y)
{
  PetscBool same = PETSC_FALSE;

  PetscFunctionBegin;
  if (mpk->dinv) PetscCall(PetscObjectTypeCompare((PetscObject)x, ((PetscObject)mpk->dinv)->type_name, &same));
  if (same) PetscCall(PetscObjectTypeCompare((PetscObject)y, ((PetscObject)mpk->dinv)->type_name, &same));
  if (same) PetscCall(VecPointwiseMult(y, x, mpk->dinv));
  else if (mpk->pc) PetscCall(PCApply(mpk->pc, x, y));
  else PetscCall(VecCopy(x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* s plain products: MatMult() (and M^{-1} after it, left, or before it, right) and the shift update, one halo exchange each */
static PetscErrorCode MatPowersApply_Plain(MatPowers mpk, PetscInt k, const PetscScalar re[], const PetscReal im[], Vec V[])
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < k; j++) {
    if (mpk->pckind == MAT_POWERS_PC_NONE) PetscCall(MatMult(mpk->A, V[j], V[j + 1]));
    else if (mpk->side == PC_LEFT) {
      PetscCall(MatMult(mpk->A, V[j], mpk->W));
      PetscCall(MatPowersApplyPC_Private(mpk, mpk->W, V[j + 1]));
    } else {
      PetscCall(MatPowersApplyPC_Private(mpk, V[j], mpk->W));
      PetscCall(MatMult(mpk->A, mpk->W, V[j + 1]));
    }
    PetscCall(MatPowersShift(j, re, im, V[j + 1], V[j], j ? V[j - 1] : NULL));
    if (mpk->nullsp) PetscCall(MatNullSpaceRemove(mpk->nullsp, V[j + 1]));
  }
  mpk->nexchanges += k;
  mpk->nproducts += k;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersSetUp - Decides between the ghosted kernel and plain products and builds what the choice needs

  Collective

  Input Parameter:
. mpk - the kernel

  Level: intermediate

  Notes:
  Computes the depth-s ghost rows of each process (the rows at depth d, fetched from their owners'
  CSR arrays, give depth d + 1), the surface-to-volume ratio and the extra flops
  (`MatPowersGetInfo()`), and, when the kernel is ghosted, the matrix of the remote rows (in the type of
  A's diagonal block, so a GPU matrix gives a GPU one; the own rows are multiplied by A's own blocks),
  the extended work vectors and the one scatter. `MAT_POWERS_AUTO` resolves
  to ghosted when there is more than one process, the preconditioner is local and the extra flops
  are at most `-mat_powers_max_extra_flops`; with `-mat_powers_partial`, to ghosted to the deepest depth t,
  2 <= t < s, within that limit (one halo exchange every t products) where depth s passes it; to plain otherwise.
  On GPUs whose halo exchange skips the host (CUDA IPC between the processes of one host, NCCL, a GPU-aware MPI; see
  `PetscJaggedExchange`) auto builds the ghosted kernel to depth 2 and exchanges every 2 products: each depth more costs
  the set-up, and so the first solve, more than the exchange it saves (`-mat_powers_partial` keeps the depth its limit gives).
  On the GPU it ghosts only where every process's extended rows go through the DIA copy (see `MatPowersSetUseDIA()`):
  the ghosted kernel's generic block products are slower there than plain products, whose halo exchange the
  matrix hides behind its diagonal block's product; a matrix whose own rows lie on more than 32 diagonals (a
  finite-element matrix) resolves to plain before its ghost layers are examined.

  `MatPowersApply()` calls it when needed.

.seealso: `MatPowers`, `MatPowersSetType()`, `MatPowersGetInfo()`, `MatPowersApply()`
@*/
PetscErrorCode MatPowersSetUp(MatPowers mpk)
{
  PetscMPIInt size;
  PetscBool   ghost_ok, gpunodia = PETSC_FALSE;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  if (mpk->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(MAT_POWERS_SetUp, mpk, 0, 0, 0));
  PetscCall(MatPowersReset(mpk));
  if (mpk->pc) PetscCall(PCSetUp(mpk->pc));
  PetscCall(MatPowersPCKindGet(mpk, &mpk->pckind, &mpk->Pstate));
  PetscCall(PetscObjectStateGet((PetscObject)mpk->A, &mpk->Astate));
  PetscCall(MatGetNonzeroState(mpk->A, &mpk->Anzstate));
  if (mpk->side == PC_LEFT) {
    PetscCall(MatGetNullSpace(mpk->A, &mpk->nullsp));
    if (mpk->nullsp) PetscCall(PetscObjectReference((PetscObject)mpk->nullsp));
  }
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)mpk), &size));
  /* the ghost layers (s - 1 rounds fetching the boundary rows, a scatter) only when the ghosted kernel may be chosen */
  mpk->s2v = mpk->extra = MAT_POWERS_NOT_EXAMINED;
  if (mpk->reqtype == MAT_POWERS_AUTO && mpk->pckind != MAT_POWERS_PC_OTHER && !mpk->nullsp && size > 1) {
    PetscCall(PetscLogEventBegin(MAT_POWERS_Diags, mpk, 0, 0, 0));
    PetscCall(MatPowersGhostGPUWithoutDIA(mpk, &gpunodia));
    PetscCall(PetscLogEventEnd(MAT_POWERS_Diags, mpk, 0, 0, 0));
  }
  if (mpk->reqtype != MAT_POWERS_PLAIN && mpk->pckind != MAT_POWERS_PC_OTHER && !mpk->nullsp && !gpunodia && (size > 1 || mpk->reqtype == MAT_POWERS_GHOSTED)) {
    PetscInt  gpumax = mpk->s; /* auto on GPUs exchanging without the host: built to MAT_POWERS_GPU_DEPTH */
    PetscBool direct;

    if (mpk->reqtype == MAT_POWERS_AUTO && !mpk->partial && size > 1) { /* -mat_powers_partial: the depth the user's limit gives */
      PetscCall(JaggedHaloDirect(PetscObjectComm((PetscObject)mpk), mpk->exchangetype, &direct));
      if (direct) gpumax = PetscMin(mpk->s, MAT_POWERS_GPU_DEPTH);
    }
    PetscCall(MatPowersGhostLayers(mpk, mpk->reqtype == MAT_POWERS_AUTO ? mpk->max_extra_flops : PETSC_MAX_REAL, (PetscBool)(mpk->reqtype == MAT_POWERS_AUTO && mpk->partial), gpumax));
  }
  if (mpk->reqtype == MAT_POWERS_AUTO && !gpunodia && mpk->s2v >= 0) { /* after the layers: some process's extended rows on the GPU outside a DIA copy */
    PetscMPIInt loc = (PetscMPIInt)(mpk->cuda && !mpk->ndiag), glob;

    PetscCallMPI(MPIU_Allreduce(&loc, &glob, 1, MPI_INT, MPI_MAX, PetscObjectComm((PetscObject)mpk)));
    gpunodia = (PetscBool)(glob > 0);
  }
  ghost_ok = (PetscBool)(mpk->s2v >= 0 || mpk->s2v == MAT_POWERS_NOT_EXAMINED);
  if (mpk->reqtype == MAT_POWERS_PLAIN) {
    mpk->type   = MAT_POWERS_PLAIN;
    mpk->reason = "requested";
  } else if (!ghost_ok) {
    mpk->type   = MAT_POWERS_PLAIN;
    mpk->reason = "the matrix is not AIJ-based (AIJ, its GPU and jagged types) with equal row and column layouts";
  } else if (mpk->nullsp) {
    mpk->type   = MAT_POWERS_PLAIN;
    mpk->reason = "left preconditioning of an operator with a null space: it is removed from every product (a reduction each), as KSPGMRES does";
  } else if (mpk->pckind == MAT_POWERS_PC_OTHER) {
    mpk->type   = MAT_POWERS_PLAIN;
    mpk->reason = "the preconditioner is not local (only none and Jacobi can be ghosted)";
  } else if (mpk->reqtype == MAT_POWERS_GHOSTED) {
    mpk->type   = MAT_POWERS_GHOSTED;
    mpk->reason = "requested";
  } else if (size == 1) {
    mpk->type   = MAT_POWERS_PLAIN;
    mpk->reason = "one process: no halo exchange to save";
  } else if (mpk->extra > mpk->max_extra_flops) {
    mpk->type   = MAT_POWERS_PLAIN;
    mpk->reason = "the ghost rows cost more extra flops than -mat_powers_max_extra_flops";
  } else if (gpunodia) {
    mpk->type   = MAT_POWERS_PLAIN;
    mpk->reason = "on the GPU the ghosted kernel pays only through the DIA copy of the extended rows (a stencil split into slabs), which this matrix cannot have (more than 32 diagonals, or extended columns that are not one range) or -mat_powers_dia turned off: plain products, each exchange hidden behind the diagonal block's product";
  } else if (mpk->gpudepth) {
    mpk->type   = MAT_POWERS_GHOSTED;
    mpk->reason = "on GPUs whose halo exchange skips the host (CUDA IPC, NCCL, a GPU-aware MPI), ghosted to a small depth: each depth more costs the set-up more than the exchange it saves";
  } else if (mpk->gdepth < mpk->s) {
    mpk->type   = MAT_POWERS_GHOSTED;
    mpk->reason = "partly ghosted: the depth-s ghost rows cost more extra flops than -mat_powers_max_extra_flops, a smaller depth does not (-mat_powers_partial)";
  } else {
    mpk->type   = MAT_POWERS_GHOSTED;
    mpk->reason = "extra flops within -mat_powers_max_extra_flops";
  }
  if (mpk->reqtype == MAT_POWERS_GHOSTED && mpk->type == MAT_POWERS_PLAIN) PetscCall(PetscInfo(mpk, "Ghosted kernel requested but falling back to plain products: %s\n", mpk->reason));
  PetscCall(PetscInfo(mpk, "s = %" PetscInt_FMT ": %s (%s); surface-to-volume %g, extra flops %g\n", mpk->s, MatPowersTypes[mpk->type], mpk->reason, (double)mpk->s2v, (double)mpk->extra));
  if (mpk->type == MAT_POWERS_GHOSTED) {
    PetscCall(PetscLogEventBegin(MAT_POWERS_Build, mpk, 0, 0, 0));
    PetscCall(MatPowersGhostBuild(mpk));
    PetscCall(PetscLogEventEnd(MAT_POWERS_Build, mpk, 0, 0, 0));
    mpk->ops->apply = MatPowersApply_Ghosted;
  } else {
    PetscCall(MatPowersGhostReset(mpk));
    if (size == 1) PetscCall(MatPowersDIASetUp(mpk));
    if (mpk->ndiag) mpk->ops->apply = MatPowersApply_DIA;
    else {
      if (mpk->pckind != MAT_POWERS_PC_NONE) PetscCall(MatCreateVecs(mpk->A, &mpk->W, NULL));
      if (mpk->pckind == MAT_POWERS_PC_JACOBI) { /* MatPowersApplyPC() */
        PetscCall(VecDuplicate(mpk->W, &mpk->dinv));
        PetscCall(MatPowersJacobiInverse(mpk, mpk->dinv));
      }
      mpk->ops->apply = MatPowersApply_Plain;
    }
  }
  PetscCall(PetscObjectChangeTypeName((PetscObject)mpk, MatPowersTypes[mpk->type]));
  mpk->setupcalled = PETSC_TRUE;
  PetscCall(PetscLogEventEnd(MAT_POWERS_SetUp, mpk, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Checks the shifts of one call (see MatPowersApply()) */
static PetscErrorCode MatPowersCheckShifts(MatPowers mpk, PetscInt k, const PetscScalar re[], const PetscReal im[])
{
  PetscFunctionBegin;
  if (!im) PetscFunctionReturn(PETSC_SUCCESS);
#if defined(PETSC_USE_COMPLEX)
  for (PetscInt j = 0; j < k; j++) PetscCheck(im[j] == 0, PetscObjectComm((PetscObject)mpk), PETSC_ERR_ARG_WRONG, "Complex builds take complex shifts in theta_re; theta_im must be NULL or zero, not %g at %" PetscInt_FMT, (double)im[j], j);
#else
  PetscCheck(im[0] >= 0, PetscObjectComm((PetscObject)mpk), PETSC_ERR_ARG_WRONG, "theta_im[0] = %g < 0: the second shift of a complex conjugate pair cannot start a call (a pair split across calls); start with a real shift or a whole pair", (double)im[0]);
  for (PetscInt j = 0; j < k; j++) {
    if (im[j] > 0 && j + 1 < k) {
      PetscCheck(im[j + 1] == -im[j] && (!re || re[j + 1] == re[j]), PetscObjectComm((PetscObject)mpk), PETSC_ERR_ARG_WRONG, "Shifts %" PetscInt_FMT " and %" PetscInt_FMT " are not a complex conjugate pair: (%g, %g) and (%g, %g)", j, j + 1, re ? (double)re[j] : 0.0, (double)im[j], re ? (double)re[j + 1] : 0.0, (double)im[j + 1]);
      j++; /* the second of the pair */
    } else PetscCheck(im[j] >= 0, PetscObjectComm((PetscObject)mpk), PETSC_ERR_ARG_WRONG, "theta_im[%" PetscInt_FMT "] = %g < 0 is not the second shift of a complex conjugate pair", j, (double)im[j]);
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The set-up brought up to date: made again when the nonzero pattern, the kind of preconditioner or the null space
   changed, its values refreshed when only values did */
static PetscErrorCode MatPowersUpdate(MatPowers mpk)
{
  PetscObjectState astate, anzstate, pstate;
  MatPowersPCKind  kind;
  MatNullSpace     nullsp;

  PetscFunctionBegin;
  if (mpk->setupcalled) { /* what changed since the set-up */
    PetscCall(MatGetNonzeroState(mpk->A, &anzstate));
    PetscCall(PetscObjectStateGet((PetscObject)mpk->A, &astate));
    PetscCall(MatPowersPCKindGet(mpk, &kind, &pstate));
    PetscCall(MatGetNullSpace(mpk->A, &nullsp));
    if (anzstate != mpk->Anzstate || kind != mpk->pckind || (mpk->side == PC_LEFT && nullsp != mpk->nullsp)) {
      PetscCall(PetscInfo(mpk, "The nonzero pattern of the matrix, the kind of preconditioner or the null space changed: new set-up\n"));
      mpk->setupcalled = PETSC_FALSE;
    } else if (astate != mpk->Astate || pstate != mpk->Pstate) {
      mpk->Astate = astate;
      mpk->Pstate = pstate;
      if (mpk->type == MAT_POWERS_GHOSTED) PetscCall(MatPowersGhostRefresh(mpk));
      else if (mpk->ndiag) PetscCall(MatPowersDIAFill(mpk));
      else if (mpk->dinv) PetscCall(MatPowersJacobiInverse(mpk, mpk->dinv));
    }
  }
  PetscCall(MatPowersSetUp(mpk));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersApply - Builds k vectors of a shifted (Newton) or monomial Krylov basis of B = A M^{-1}

  Collective

  Input Parameters:
+ mpk - the kernel
. k   - the number of new vectors, 1 <= k <= s
. re  - the k shifts theta_j (real parts in real builds), or `NULL` for all zero (monomial basis)
- im  - real builds: imaginary parts of the shifts, or `NULL` for all zero; complex builds: `NULL` or all zero

  Input/Output Parameter:
. V - k + 1 vectors with A's column layout and vector type: `V[0]` is read, `V[1]`, ..., `V[k]` are written

  Level: intermediate

  Notes:
  For j = 0, ..., k - 1: V[j+1] = B V[j] - theta_j V[j].

  Real builds keep complex shifts in real arithmetic (Bai, Hu and Reichel): a conjugate pair
  re +- i im, im > 0, occupies positions j and j + 1 (im[j] = im, im[j+1] = -im, re[j+1] = re[j]), and
.vb
   V[j+1] = (B - re) V[j],   V[j+2] = (B - re) V[j+1] + im^2 V[j] = ((B - re)^2 + im^2) V[j]
.ve
  A pair starting at j = k - 1 gives only its first vector (the next call, whose V[0] is then
  that vector, must not begin with the pair's second shift: im[0] < 0 is `PETSC_ERR_ARG_WRONG`).

  Ghosted, the call makes one halo exchange (a scatter of V[0] to the depth-s ghost rows) and k local
  products; plain, k `MatMult()` calls. Either way the result is the same up to rounding.

.seealso: `MatPowers`, `MatCreateMatrixPowers()`, `MatPowersSetPC()`, `MatPowersSetUp()`
@*/
PetscErrorCode MatPowersApply(MatPowers mpk, PetscInt k, const PetscScalar re[], const PetscReal im[], Vec V[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  PetscValidLogicalCollectiveInt(mpk, k, 2);
  PetscAssertPointer(V, 5);
  PetscCheck(k >= 1 && k <= mpk->s, PetscObjectComm((PetscObject)mpk), PETSC_ERR_ARG_OUTOFRANGE, "MatPowersApply() needs 1 <= k <= s = %" PetscInt_FMT ", not k = %" PetscInt_FMT, mpk->s, k);
  for (PetscInt j = 0; j <= k; j++) PetscValidHeaderSpecific(V[j], VEC_CLASSID, 5);
  PetscCall(MatPowersCheckShifts(mpk, k, re, im));
  PetscCall(MatPowersUpdate(mpk));
  PetscCall(PetscLogEventBegin(MAT_POWERS_Apply, mpk, 0, 0, 0));
  PetscCall((*mpk->ops->apply)(mpk, k, re, im, V));
  PetscCall(PetscLogEventEnd(MAT_POWERS_Apply, mpk, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  d = the inverse diagonal PCJACOBI multiplies with (y = d .* x). For its default type (the diagonal) made here by the
  vector operations of PCJACOBI's own set-up, where the vectors are: MatGetDiagonal(), VecReciprocal() (which keeps
  zeros), VecAbs() if asked; PCJACOBI's replacement of zero entries by 1 runs a loop on the host (a copy of the vector
  there and back, 2 x 67 MB for 8.4 M rows), so here a zero entry is only detected (the minimum modulus, on the GPU)
  and, if there is one, as for the other types of PCJACOBI: PCApply() of a vector of ones
*/
PetscErrorCode MatPowersJacobiInverse(MatPowers mpk, Vec d)
{
  PCJacobiType type;
  PetscBool    useabs, fix;
  PetscReal    min = 1.0;
  Vec          ones;

  PetscFunctionBegin;
  PetscCall(PCJacobiGetType(mpk->pc, &type));
  if (type == PC_JACOBI_DIAGONAL) {
    Mat P;

    PetscCall(PCJacobiGetUseAbs(mpk->pc, &useabs));
    PetscCall(PCJacobiGetFixDiagonal(mpk->pc, &fix));
    PetscCall(PCGetOperators(mpk->pc, NULL, &P));
    PetscCall(MatGetDiagonal(P, d));
    PetscCall(VecReciprocal(d));
    if (useabs) PetscCall(VecAbs(d));
    if (fix) {
      Vec a;

      PetscCall(VecDuplicate(d, &a));
      PetscCall(VecCopy(d, a));
      PetscCall(VecAbs(a));
      PetscCall(VecMin(a, NULL, &min));
      PetscCall(VecDestroy(&a));
    }
    if (min != 0.0) PetscFunctionReturn(PETSC_SUCCESS);
    PetscCall(PetscInfo(mpk, "Zero on the diagonal: the inverse diagonal from PCApply()\n"));
  }
  PetscCall(VecDuplicate(d, &ones));
  PetscCall(VecSet(ones, 1.0));
  PetscCall(PCApply(mpk->pc, ones, d));
  PetscCall(VecDestroy(&ones));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersApplyPC - Applies the preconditioner as the kernel applies it, y = M^{-1} x

  Collective

  Input Parameters:
+ mpk - the kernel
- x   - the vector, with A's row layout

  Output Parameter:
. y - the result

  Level: intermediate

  Notes:
  With `PCJACOBI` and the DIA copy or the ghosted kernel, y = d .* x with the kernel's own inverse
  diagonal d, the one `PCApply()` multiplies with, made at set-up on the device: a solver that applies M^{-1}
  through this function (`KSPCAGMRES` does) never runs `PCJACOBI`'s own set-up, whose check of the diagonal for
  zeros copies it to the host and back. Otherwise `PCApply()` (a copy of x without a preconditioner). Brings the
  kernel's set-up up to date first, as `MatPowersApply()` does.

.seealso: `MatPowers`, `MatPowersSetPC()`, `MatPowersApply()`, `PCJACOBI`
@*/
PetscErrorCode MatPowersApplyPC(MatPowers mpk, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  PetscValidHeaderSpecific(x, VEC_CLASSID, 2);
  PetscValidHeaderSpecific(y, VEC_CLASSID, 3);
  PetscCall(MatPowersUpdate(mpk));
  PetscCall(MatPowersApplyPC_Private(mpk, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}


/*@
  MatPowersGetInfo - Gets the cost of the depth-s ghost rows, computed at set-up whatever the resolved type

  Collective

  Input Parameter:
. mpk - the kernel

  Output Parameters:
+ surface_to_volume - ghost rows (depth 1 to s) over own rows, the maximum over the processes
- extra_flops       - flops of the ghosted kernel for s products over those of s plain products, minus 1; the maximum over the processes

  Level: intermediate

  Notes:
  Calls `MatPowersSetUp()` if needed. Both are negative when the matrix type cannot be ghosted. When the
  set-up resolved to plain products without examining the ghost rows (one process, plain requested, or
  a preconditioner that is not local), they are computed here. A partly ghosted kernel
  (`MatPowersSetPartial()`) gives those of the depth it was built to.

  The ghosted kernel multiplies, at each of its s steps, all extended rows up to depth s - 1 (the
  rows at depth s are only read), so its flops are s 2 nnz(A[R_{s-1}, :]) against s 2 nnz(A[own, :])
  for plain products; the preconditioner's flops are not counted (Jacobi scales a vector per product, as plain products do).
  A process without rows counts 0.

.seealso: `MatPowers`, `MatPowersSetUp()`, `MatPowersView()`
@*/
PetscErrorCode MatPowersGetInfo(MatPowers mpk, PetscReal *surface_to_volume, PetscReal *extra_flops)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  PetscCall(MatPowersSetUp(mpk));
  if (mpk->type != MAT_POWERS_GHOSTED && (mpk->s2v == MAT_POWERS_NOT_EXAMINED || (mpk->s2v >= 0 && mpk->depth < mpk->s))) PetscCall(MatPowersGhostLayers(mpk, PETSC_MAX_REAL, PETSC_FALSE, mpk->s)); /* the set-up resolved to plain without them, or stopped short of depth s */
  if (surface_to_volume) *surface_to_volume = mpk->s2v;
  if (extra_flops) *extra_flops = mpk->extra;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersView - Shows the kernel: requested and resolved type, s, the preconditioner, the matrix its products read
  (with a DIA copy, its bytes a nonzero), the cost of the ghost rows, the extended rows, and the halo exchanges and
  products so far

  Collective

  Input Parameters:
+ mpk    - the kernel
- viewer - an ASCII viewer, or `NULL` for standard output

  Level: intermediate

  Note:
  The halo exchanges are counted as the kernel's scatters: one per `MatPowersApply()` when ghosted,
  one per product (inside `MatMult()`) when plain; on one process they are local copies.
  Without a DIA copy the products are those of A's own format (of its diagonal block and, ghosted, of the remote
  rows' matrix of the same type): `MatView()` of A gives their bytes a nonzero.

.seealso: `MatPowers`, `MatPowersGetInfo()`, `KSPCAGMRES`
@*/
PetscErrorCode MatPowersView(MatPowers mpk, PetscViewer viewer)
{
  PetscBool ascii;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(mpk, MATPOWERS_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)mpk), &viewer));
  PetscValidHeaderSpecific(viewer, PETSC_VIEWER_CLASSID, 2);
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectPrintClassNamePrefixType((PetscObject)mpk, viewer));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  if (!mpk->setupcalled) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "not set up; requested %s, s = %" PetscInt_FMT "\n", MatPowersTypes[mpk->reqtype], mpk->s));
    PetscCall(PetscViewerASCIIPopTab(viewer));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "s = %" PetscInt_FMT ", requested %s, resolved %s: %s\n", mpk->s, MatPowersTypes[mpk->reqtype], MatPowersTypes[mpk->type], mpk->reason));
  if (mpk->reqtype == MAT_POWERS_GHOSTED && mpk->type == MAT_POWERS_PLAIN) PetscCall(PetscViewerASCIIPrintf(viewer, "fell back to plain products: %s\n", mpk->reason));
  if (mpk->pckind == MAT_POWERS_PC_NONE) PetscCall(PetscViewerASCIIPrintf(viewer, "operator: A (no preconditioner)\n"));
  else {
    const char *op = mpk->side == PC_LEFT ? "M^{-1} A" : "A M^{-1}";

    if (mpk->pckind == MAT_POWERS_PC_JACOBI) PetscCall(PetscViewerASCIIPrintf(viewer, "operator: %s, Jacobi %s\n", op, mpk->ndiag ? (mpk->side == PC_LEFT ? "folded into the rows of the DIA copy" : "folded into the columns of the DIA copy") : (mpk->type == MAT_POWERS_GHOSTED ? (mpk->side == PC_LEFT ? "applied as a scaling of each extended product" : "applied as a scaling of the extended vector") : "applied as its inverse diagonal, made on the kernel's vectors")));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "operator: %s, M^{-1} = PCApply() of PC %s (not local)\n", op, ((PetscObject)mpk->pc)->type_name));
  }
  if (mpk->nullsp) PetscCall(PetscViewerASCIIPrintf(viewer, "the operator's null space is removed from every product\n"));
  if (mpk->ndiag) {
    const PetscBool ghosted = (PetscBool)(mpk->type == MAT_POWERS_GHOSTED);
    PetscLogDouble  nnz     = (PetscLogDouble)mpk->nnzext;
    PetscInt        rows    = mpk->nrows;

    PetscCall(PetscViewerASCIIPrintf(viewer, "products: a DIA copy of %s (%" PetscInt_FMT " diagonals, %s), the shift in the same kernel (-mat_powers_dia)\n", ghosted ? "the extended rows in global order (first process)" : "A", mpk->ndiag, mpk->diacuda ? (mpk->diaown ? "on the GPU, its own rows found and written there" : "on the GPU") : "on the host"));
    if (!ghosted) { /* plain: one process, a copy of A */
      MatInfo info;

      PetscCall(MatGetInfo(mpk->A, MAT_LOCAL, &info));
      PetscCall(MatGetLocalSize(mpk->A, &rows, NULL));
      nnz = info.nz_used;
    }
    if (nnz > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "the DIA copy: %.2f bytes a nonzero (%d-byte values on every diagonal, padding included, no column indices)\n", (double)((PetscLogDouble)mpk->ndiag * rows * sizeof(PetscScalar) / nnz), (int)sizeof(PetscScalar)));
  } else {
    PetscErrorCode (*getbytes)(Mat, PetscReal *) = NULL;

    PetscCall(PetscObjectQueryFunction((PetscObject)mpk->A, "MatJaggedGetProductBytes_C", &getbytes));
    if (getbytes) { /* a jagged operator: its own products (of its blocks and, ghosted, of the remote rows' matrix of their type) */
      PetscReal bytes;

      PetscCall(MatJaggedGetProductBytes(mpk->A, &bytes));
      PetscCall(PetscViewerASCIIPrintf(viewer, "products: those of A's %s format, %.2f bytes a nonzero (values and column indices, padding included; first process)\n", ((PetscObject)mpk->A)->type_name, (double)bytes));
    }
  }
  if (mpk->s2v == MAT_POWERS_NOT_EXAMINED) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "ghost rows not examined: plain products were resolved without them (MatPowersGetInfo() computes them)\n"));
  } else if (mpk->s2v >= 0) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "depth-%" PetscInt_FMT " ghost rows%s: surface-to-volume %.4g, extra flops %.4g (maxima over processes; auto ghosts up to %g)\n", mpk->depth, mpk->depth < mpk->s && mpk->type != MAT_POWERS_GHOSTED ? " (examined no deeper: the extra flops passed the limit)" : "", (double)mpk->s2v, (double)mpk->extra, (double)mpk->max_extra_flops));
    if (mpk->type == MAT_POWERS_GHOSTED && mpk->gpudepth) PetscCall(PetscViewerASCIIPrintf(viewer, "ghosted to depth %" PetscInt_FMT " of s = %" PetscInt_FMT " (GPUs, the exchange skipping the host): one halo exchange every %" PetscInt_FMT " products\n", mpk->gdepth, mpk->s, mpk->gdepth));
    else if (mpk->type == MAT_POWERS_GHOSTED && mpk->gdepth < mpk->s) PetscCall(PetscViewerASCIIPrintf(viewer, "partly ghosted, to depth %" PetscInt_FMT " of s = %" PetscInt_FMT ": one halo exchange every %" PetscInt_FMT " products (depth %" PetscInt_FMT ": surface-to-volume %.4g, extra flops %.4g, above the limit)\n", mpk->gdepth, mpk->s, mpk->gdepth, mpk->gdepth + 1, (double)mpk->s2vdeeper, (double)mpk->extradeeper));
  } else PetscCall(PetscViewerASCIIPrintf(viewer, "surface-to-volume and extra flops not available for matrix type %s\n", ((PetscObject)mpk->A)->type_name));
  if (mpk->type == MAT_POWERS_GHOSTED) {
    Mat         Ad;
    const char *blocktype;

    PetscCall(MatGetDiagonalBlock(mpk->A, &Ad));
    blocktype = ((PetscObject)Ad)->type_name;
    if (mpk->ndiag) PetscCall(PetscViewerASCIIPrintf(viewer, "extended rows (first process): %" PetscInt_FMT " own rows and %" PetscInt_FMT " remote rows to depth %" PetscInt_FMT " in the DIA copy; %" PetscInt_FMT " columns to depth %" PetscInt_FMT ", %" PetscInt_FMT " nonzeros (own rows %" PetscInt_FMT ")\n", mpk->nown, mpk->nrows - mpk->nown, mpk->gdepth - 1, mpk->ncols, mpk->gdepth, mpk->nnzext, mpk->nnzown));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "extended rows (first process): %" PetscInt_FMT " own rows through the blocks of A (%s), %" PetscInt_FMT " remote rows to depth %" PetscInt_FMT " in a %s; %" PetscInt_FMT " columns to depth %" PetscInt_FMT ", %" PetscInt_FMT " nonzeros (own rows %" PetscInt_FMT ")\n", mpk->nown, blocktype, mpk->nrows - mpk->nown, mpk->gdepth - 1, mpk->R ? ((PetscObject)mpk->R)->type_name : "(none)", mpk->ncols, mpk->gdepth, mpk->nnzext, mpk->nnzown));
  }
  if (mpk->exchange && mpk->type == MAT_POWERS_GHOSTED && mpk->cuda) { /* host arrays: through MPI */
    const char *how, *why;

    PetscCall(JaggedHaloGetExchange(mpk->exchange, &how, &why));
    PetscCall(PetscViewerASCIIPrintf(viewer, "halo exchanges: %.0f for %.0f products (%s%s%s)\n", mpk->nexchanges, mpk->nproducts, how, why ? "; " : "", why ? why : ""));
  } else PetscCall(PetscViewerASCIIPrintf(viewer, "halo exchanges: %.0f for %.0f products\n", mpk->nexchanges, mpk->nproducts));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPowersDestroy - Destroys the kernel

  Collective

  Input Parameter:
. mpk - the kernel

  Level: intermediate

.seealso: `MatPowers`, `MatCreateMatrixPowers()`
@*/
PetscErrorCode MatPowersDestroy(MatPowers *mpk)
{
  PetscFunctionBegin;
  if (!*mpk) PetscFunctionReturn(PETSC_SUCCESS);
  PetscValidHeaderSpecific(*mpk, MATPOWERS_CLASSID, 1);
  if (--((PetscObject)*mpk)->refct > 0) {
    *mpk = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatPowersReset(*mpk));
  PetscCall(PCDestroy(&(*mpk)->pc));
  PetscCall(MatDestroy(&(*mpk)->A));
  PetscCall(PetscHeaderDestroy(mpk));
  PetscFunctionReturn(PETSC_SUCCESS);
}
