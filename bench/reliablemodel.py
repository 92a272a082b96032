#!/usr/bin/env python3
"""bench/reliablemodel.py FILE

A model (NumPy/SciPy, no GPU) of where MPCG's inner iterations go on a finite-element matrix (issue 43): MPCG's flexible outer CG
restarts the inner Krylov space at each outer step, and on Q2 Poisson its inner CG made 1.7x the iterations of CG in double.
Compares, with Jacobi and a true relative residual of 1e-10 (b = A 1): CG in double; CG in single arithmetic to looser
tolerances (where it follows double's iterations, and where single stops converging); and one CG in single arithmetic whose
residual is replaced by the true one computed in double whenever it has dropped by DELTA (reliable updates: the Krylov space
kept, only the residual refreshed), with the matrix in half as PCSPCG's half storage keeps it (scaled, row sums kept), in single, in
single with the row sums kept by the diagonal, or in double; and refreshed on a fixed schedule instead (every 50 iterations:
MPCG's inner cap).
FILE: a PETSc binary matrix (bench/firstsolve -save). Prints one table (markdown)."""
import sys
import numpy as np
import scipy.sparse as sp

from petscbinary import load


def single(v):
    return v.astype(np.float32).astype(np.float64)


def cg(A, As, b, minv, tol, rnd, maxit=2000):
    """Jacobi CG on As with every vector rounded by rnd; iterations to a true relative residual (of A) tol, or None"""
    x, r = np.zeros_like(b), rnd(b.copy())
    z = rnd(minv * r)
    p, rz, nb = z.copy(), r @ z, np.linalg.norm(b)
    for it in range(1, maxit):
        q = rnd(As @ p)
        a = rz / (p @ q)
        x, r = rnd(x + a * p), rnd(r - a * q)
        if np.linalg.norm(b - A @ x) < tol * nb:
            return it
        z = rnd(minv * r)
        rzn = r @ z
        p, rz = rnd(z + (rzn / rz) * p), rzn
    return None


def reliable(A, As, b, minv, tol, delta, maxit=2000, every=0):
    """Jacobi CG in single arithmetic on As; the residual replaced by b - A x (double) when it has dropped by delta, or every
    `every` iterations if given (MPCG's inner cap as the schedule): (its, updates)"""
    nb = np.linalg.norm(b)
    x, xs, r = np.zeros_like(b), np.zeros_like(b), single(b)
    z = single(minv * r)
    p, rz, rmax, updates = z.copy(), r @ z, np.linalg.norm(r), 0
    for it in range(1, maxit):
        q = single(As @ p)
        a = rz / (p @ q)
        xs, r = single(xs + a * p), single(r - a * q)
        if (it % every == 0 or np.linalg.norm(b - A @ (x + xs)) < tol * nb) if every else np.linalg.norm(r) < delta * rmax:
            x, xs = x + xs, np.zeros_like(b)
            rd = b - A @ x
            r, rmax, updates = single(rd), np.linalg.norm(rd), updates + 1
            if rmax < tol * nb:
                return it, updates
        z = single(minv * r)
        rzn = r @ z
        p, rz = single(z + (rzn / rz) * p), rzn
    return None, updates


def main():
    A = load(sys.argv[1])
    b, minv = A @ np.ones(A.shape[0]), 1.0 / A.diagonal()
    D = sp.diags(A.diagonal())
    A32 = A.astype(np.float32).astype(np.float64)
    off = (A - D).tocsr()
    off32 = off.copy()
    off32.data = single(off32.data)
    lost = np.asarray((off - off32).sum(axis=1)).ravel()
    print(f"{sys.argv[1]}: {A.shape[0]} rows, {A.nnz} nonzeros; Jacobi, b = A 1\n")
    print("| solver | matrix | iterations to 1e-10 (updates) |")
    print("|---|---|---:|")
    print(f"| CG, double | double | {cg(A, A, b, minv, 1e-10, lambda v: v)} |")
    for tol in (1e-3, 1e-5, 1e-6):
        print(f"| CG to {tol:g}: double / single arithmetic (None: not reached in 400) | double / single | {cg(A, A, b, minv, tol, lambda v: v)} / {cg(A, A32, b, minv, tol, single, 400)} |")
    # half as PCSPCG stores it: S = D^-1/2 A D^-1/2 (D = |diag|), S's off-diagonal entries in IEEE half, its diagonal taking their rounding
    sq = np.sqrt(np.abs(A.diagonal()))
    soff = (sp.diags(1 / sq) @ off @ sp.diags(1 / sq)).tocsr()
    soff16 = soff.copy()
    soff16.data = soff16.data.astype(np.float16).astype(np.float64)
    sdiag = single(A.diagonal() / sq**2 + np.asarray((soff - soff16).sum(axis=1)).ravel())
    Ahalf = (sp.diags(sq) @ (soff16 + sp.diags(sdiag)) @ sp.diags(sq)).tocsr()
    kinds = {"half, row sums kept": Ahalf, "single": A32, "single, row sums kept": (off32 + sp.diags(single(A.diagonal() + lost))).tocsr(), "double": A}
    for delta in (0.5, 0.1):
        for name, As in kinds.items():
            its, up = reliable(A, As, b, minv, 1e-10, delta)
            print(f"| CG in single, reliable updates (delta {delta:g}) | {name} | {its} ({up}) |")
    for every in (50, 20):
        its, up = reliable(A, A32, b, minv, 1e-10, 0, every=every)
        print(f"| CG in single, residual refreshed every {every} iterations | single | {its} ({up}) |")


if __name__ == "__main__":
    main()
