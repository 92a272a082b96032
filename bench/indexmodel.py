#!/usr/bin/env python3
"""
A model of 16-bit column indices for the inner single/half-precision copies (groundwork for issue 43, item 2; NumPy and SciPy,
no GPU). For a matrix written by PETSc (binary, e.g. bench/firstsolve -save), in its own ordering and after reverse
Cuthill-McKee, it counts how many nonzeros a 16-bit index could hold without a per-entry base load:

  row-relative   column = row + int16 offset (the thread has its row in a register): |j - i| <= 32767
  row base       column = base + uint16 offset, base = the row's smallest column (loaded once a row, with its length): the
                 rows whose columns span less than 65536, and the nonzeros in them
  block base     column = base + uint16 offset, base = the smallest column of a block of 32 consecutive rows (one register
                 a block, loaded once): the blocks whose columns span less than 65536, and the nonzeros in them
  4 row bases    column = base[sel] + 14-bit offset, sel a 2-bit selector in the index, up to 4 bases a row (loaded once a
                 row: 16 bytes a row): the rows whose columns fall in at most 4 clusters (a new cluster after a gap of
                 16384 or more) each spanning less than 16384, and the nonzeros in them (bases counted in the bytes)

and what a nonzero would move (value + index, padding left out) where the rest keeps 4-byte indices.

  bench/indexmodel.py FILE [FILE ...]     (SciPy: pip install scipy)
"""
import sys

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import reverse_cuthill_mckee

MAT_FILE_CLASSID = 1211216


def read_petsc_binary(path):
    """A PETSc binary AIJ matrix (big-endian int32 header, row lengths, columns; float64 values) as a CSR matrix"""
    with open(path, "rb") as f:
        header = np.fromfile(f, dtype=">i4", count=4)
        if header[0] != MAT_FILE_CLASSID:
            raise SystemExit(f"{path}: not a PETSc binary matrix (class id {header[0]})")
        m, n, nz = (int(x) for x in header[1:])
        lens = np.fromfile(f, dtype=">i4", count=m).astype(np.int64)
        cols = np.fromfile(f, dtype=">i4", count=nz).astype(np.int64)
        vals = np.fromfile(f, dtype=">f8", count=nz)
    indptr = np.concatenate(([0], np.cumsum(lens)))
    return sp.csr_matrix((vals, cols, indptr), shape=(m, n))


def stats(a, label):
    """The counts above for the CSR matrix a"""
    m, nnz = a.shape[0], a.nnz
    rows = np.repeat(np.arange(m), np.diff(a.indptr))
    off = a.indices - rows
    row_rel = np.count_nonzero(np.abs(off) <= 32767)
    lens = np.diff(a.indptr)
    nonempty = lens > 0
    rmin = np.minimum.reduceat(a.indices, a.indptr[:-1][nonempty]) if nnz else np.array([])
    rmax = np.maximum.reduceat(a.indices, a.indptr[:-1][nonempty]) if nnz else np.array([])
    row_base = int(lens[nonempty][(rmax - rmin) < 65536].sum())
    nb = (m + 31) // 32
    starts = a.indptr[np.minimum(np.arange(nb) * 32, m)]
    ends = a.indptr[np.minimum(np.arange(nb) * 32 + 32, m)]
    span_ok = 0
    blocks_ok = 0
    for b in range(nb):
        c = a.indices[starts[b]:ends[b]]
        if c.size and c.max() - c.min() < 65536:
            blocks_ok += 1
            span_ok += c.size
    bandwidth = int(np.abs(off).max()) if nnz else 0
    gap = np.zeros(nnz, bool)
    gap[1:] = (np.diff(a.indices) >= 16384) & (rows[1:] == rows[:-1])
    gap[a.indptr[:-1][nonempty]] = True  # a cluster starts at each row's first nonzero and after each large gap
    first = np.flatnonzero(gap)
    wide = (np.maximum.reduceat(a.indices, first) - np.minimum.reduceat(a.indices, first)) >= 16384 if nnz else np.array([], bool)
    crow = rows[first]
    nclus = np.bincount(crow, minlength=m)
    badrow = np.zeros(m, bool)
    badrow[crow[wide]] = True
    four = int(lens[(nclus <= 4) & ~badrow].sum())
    for name, fit, extra in (("row-relative int16", row_rel, 0), ("row base + uint16", row_base, 4 * m / nnz), ("block base + uint16", span_ok, 0), ("4 row bases, 2 + 14 bits", four, 16 * m / nnz)):
        frac = fit / nnz
        single = 4 + 2 * frac + 4 * (1 - frac) + extra  # 4-byte value, 2- or 4-byte index, the bases
        half = 2 + 2 * frac + 4 * (1 - frac) + extra
        print(f"| {label} | {m:,} | {nnz:,} | {bandwidth:,} | {name} | {100 * frac:.1f} % | {single:.2f} | {half:.2f} |")
    print(f"|  |  |  |  | blocks of 32 rows spanning < 65536 columns | {100 * blocks_ok / nb:.1f} % of {nb:,} |  |  |")


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    print("| matrix, ordering | rows | nonzeros | bandwidth | 16-bit index | nonzeros it holds | single B/nz | half B/nz |")
    print("|---|---:|---:|---:|---|---:|---:|---:|")
    for path in sys.argv[1:]:
        a = read_petsc_binary(path)
        a.sort_indices()
        stats(a, f"{path}, as written")
        p = reverse_cuthill_mckee(a, symmetric_mode=True)
        r = a[p][:, p].tocsr()
        r.sort_indices()
        stats(r, f"{path}, RCM")


if __name__ == "__main__":
    main()
