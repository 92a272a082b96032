#!/usr/bin/env python3
"""bench/gathermodel.py FILE [BS]

A model (NumPy/SciPy, no GPU) of the L2 traffic of x's gathers in a product with a PETSc binary matrix (MatView/-save): how many
32-byte sectors of a single-precision x each warp-wide load touches, per nonzero, for the jagged kernel (one thread a row, or a
block row with BS > 1: 32 consecutive sorted rows a warp, step j reading each row's j-th column or block) and for a CSR kernel with
VS lanes a row (lanes along one row). Values and indices are read coalesced, 4 + 4 bytes a nonzero in single precision, 2 + 4 in
half (blocks: 4 or 2 + 4/BS^2); x's gathers add 32 bytes a sector touched. Also for the RCM ordering of the matrix, and the rows
in their own order (32-row blocks unsorted): the padding the sort saves. Prints one table (markdown); issue 43."""
import sys
import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import reverse_cuthill_mckee

from petscbinary import load


def jagged(A, bs, sort=True):
    """x sectors a nonzero and padding of the jagged kernel, one thread a (block) row, warps of 32 consecutive (sorted) rows"""
    rows = A.shape[0] // bs
    # block pattern: (block row, block column) pairs
    r = np.repeat(np.arange(A.shape[0]), np.diff(A.indptr)) // bs
    keys = np.unique(r * (A.shape[1] // bs + 1) + A.indices // bs)
    br, bc = keys // (A.shape[1] // bs + 1), keys % (A.shape[1] // bs + 1)
    rl = np.bincount(br, minlength=rows)
    ptr = np.concatenate([[0], np.cumsum(rl)])
    order = np.argsort(-rl, kind="stable") if sort else np.arange(rows)
    sectors = slots = 0
    for w in range(0, rows, 32):
        rws = order[w : w + 32]
        L = rl[rws].max()
        slots += L * len(rws)
        for j in range(L):
            c = bc[ptr[rws[rl[rws] > j]] + j] * bs  # first scalar column of each lane's block
            first, last = (4 * c) // 32, (4 * (c + bs) - 1) // 32
            sectors += len(np.unique(np.concatenate([first, last])))
    return sectors / A.nnz, slots * bs * bs / A.nnz - 1


def csr(A, vs):
    """x sectors a nonzero of a CSR kernel with vs lanes a row (32 / vs rows a warp)"""
    rl, ptr, cols, sectors = np.diff(A.indptr), A.indptr, A.indices, 0
    for w in range(0, A.shape[0], 32 // vs):
        rws = range(w, min(w + 32 // vs, A.shape[0]))
        for s in range(0, max(rl[r] for r in rws), vs):
            c = np.concatenate([cols[ptr[r] + s : ptr[r] + min(s + vs, rl[r])] for r in rws])
            sectors += len(np.unique(c // 8))
    return sectors / A.nnz


A = load(sys.argv[1], values=False)
A.sort_indices()
bs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
p = reverse_cuthill_mckee(A, symmetric_mode=True)
print(f"{sys.argv[1]}: {A.shape[0]} rows, {A.nnz} nonzeros ({A.nnz / A.shape[0]:.1f} a row), block size {bs}")
print("| ordering | kernel | x sectors a nonzero | x bytes a nonzero (L2) | padding | bytes a nonzero, single / half (values, indices, x) |")
print("|---|---|---:|---:|---:|---|")
idx = 4.0 / (bs * bs)
for name, M in (("own", A), ("RCM", A[p][:, p].tocsr())):
    M.sort_indices()
    for label, (sec, pad) in (("jagged, rows sorted", jagged(M, bs)), ("jagged, rows unsorted", jagged(M, bs, sort=False))):
        x = 32 * sec
        print(f"| {name} | {label} | {sec:.3f} | {x:.1f} | {pad:.2f} | {(4 + idx) * (1 + pad) + x:.1f} / {(2 + idx) * (1 + pad) + x:.1f} |", flush=True)
    if bs == 1:
        for vs in (4, 8, 16):
            sec = csr(M, vs)
            print(f"| {name} | CSR, {vs} lanes a row | {sec:.3f} | {32 * sec:.1f} | 0 | {8 + 32 * sec:.1f} / {6 + 32 * sec:.1f} |", flush=True)
