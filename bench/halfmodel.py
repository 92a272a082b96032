#!/usr/bin/env python3
"""bench/halfmodel.py [MTX-FILE ...]

A model (NumPy/SciPy, no GPU) of 16-bit storage for the inner solve of MPCG (issue 43): what rounding the symmetrically
Jacobi-scaled matrix (unit diagonal) to IEEE half or to bfloat16 does to its smallest eigenvalue, and to the iterations of
a flexible CG in double preconditioned by a CG in single arithmetic on the stored copy. Storage variants: single (today),
half, half with each row sum kept (the diagonal takes the rounding of its row's off-diagonal entries), bfloat16.
The outer solve stops at a true relative residual of 1e-10; each inner solve stops at a reduction of 0.1, or of 1e-4 (as
deep as MPCG's inner solves go, its floor for single precision), or after 50 iterations (as PCSPCG's defaults bound it). Matrices: 2D and 3D Poisson stencils, an anisotropic 2D stencil, the 3D Q1
Laplacian (27 points), and the Matrix Market files given (symmetric, positive definite: tests/matrices/bcsstk13.mtx).
Prints one table (markdown)."""
import sys
import numpy as np
import scipy.io
import scipy.sparse as sp
import scipy.sparse.linalg as spla


def lap1(n):
    return sp.diags([-np.ones(n - 1), 2 * np.ones(n), -np.ones(n - 1)], [-1, 0, 1])


def poisson(dim, n, eps=1.0):
    one, I = lap1(n), sp.identity(n)
    if dim == 2:
        return (sp.kron(I, one) + eps * sp.kron(one, I)).tocsr()
    return (sp.kron(sp.kron(I, I), one) + sp.kron(sp.kron(I, one), I) + sp.kron(sp.kron(one, I), I)).tocsr()


def q1(n):
    """the 3D Q1 stiffness matrix on a uniform grid of n^3 interior nodes, Dirichlet: K x M x M + M x K x M + M x M x K (27 points)"""
    K = lap1(n)
    M = sp.diags([np.full(n - 1, 1 / 6), np.full(n, 2 / 3), np.full(n - 1, 1 / 6)], [-1, 0, 1])
    return (sp.kron(sp.kron(K, M), M) + sp.kron(sp.kron(M, K), M) + sp.kron(sp.kron(M, M), K)).tocsr()


def scaled(A):
    d = 1.0 / np.sqrt(A.diagonal())
    D = sp.diags(d)
    return (D @ A @ D).tocsr()


def to_bf16(x):
    b = np.asarray(x, dtype=np.float32).view(np.uint32)
    b = ((b + 0x7FFF + ((b >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)  # round to nearest even
    return b.view(np.float32).astype(np.float64)


def stored(S, kind):
    """S's values as the inner copy stores them (returned in double)"""
    C = S.copy()
    if kind == "single":
        C.data = C.data.astype(np.float32).astype(np.float64)
    elif kind in ("half", "half-rowsum"):
        C.data = C.data.astype(np.float16).astype(np.float64)
        if kind == "half-rowsum":  # the diagonal takes what rounding changed in its row: row sums as in S
            delta = np.asarray(S.sum(axis=1)).ravel() - np.asarray(C.sum(axis=1)).ravel()
            C = (C + sp.diags(delta)).tocsr()
            C.data = C.data.astype(np.float32).astype(np.float64)  # the diagonal itself kept in single
    elif kind == "bfloat16":
        C.data = to_bf16(C.data)
    return C


def underflow(S):
    a = np.abs(S.data[S.data != 0])
    return int(np.sum(a < 6.104e-5)), int(np.sum(a < 5.96e-8))  # subnormal in half, flushed to zero


def lmin(M):
    return spla.eigsh(M, k=1, sigma=0, which="LM", return_eigenvectors=False)[0]


def inner_cg(C32, r, maxit=50, red=0.1):
    """CG in single arithmetic on the stored copy, from zero; stops at ||r|| <= red ||r0|| or after maxit"""
    r = r.astype(np.float32)
    x = np.zeros_like(r)
    p = r.copy()
    rr = np.float32(r @ r)
    stop = (red ** 2) * rr
    for k in range(maxit):
        q = C32 @ p
        pq = np.float32(p @ q)
        if not pq > 0:
            return x.astype(np.float64), k
        a = rr / pq
        x += a * p
        r -= a * q
        rr1 = np.float32(r @ r)
        if rr1 <= stop:
            return x.astype(np.float64), k + 1
        p = r + (rr1 / rr) * p
        rr = rr1
    return x.astype(np.float64), maxit


def fcg(S, C, red, tol=1e-10, maxit=2000, trunc=30):
    """flexible CG in double on S (Notay truncation), each preconditioner application an inner CG on C in single"""
    C32 = C.astype(np.float32)
    rng = np.random.default_rng(1)
    b = S @ rng.standard_normal(S.shape[0])
    x = np.zeros_like(b)
    r = b.copy()
    nb = np.linalg.norm(b)
    P, AP, PAP = [], [], []
    inner = 0
    for k in range(maxit):
        if np.linalg.norm(b - S @ x) <= tol * nb:
            return k, inner
        z, it = inner_cg(C32, r, red=red)
        inner += it
        p = z.copy()
        for pj, apj, d in zip(P, AP, PAP):
            p -= (apj @ z) / d * pj
        ap = S @ p
        pap = p @ ap
        alpha = (p @ r) / pap
        x += alpha * p
        r -= alpha * ap
        P.append(p), AP.append(ap), PAP.append(pap)
        if len(P) > trunc:
            P.pop(0), AP.pop(0), PAP.pop(0)
    return maxit, inner


cases = [("2D Poisson 128^2", poisson(2, 128)), ("3D Poisson 24^3", poisson(3, 24)), ("2D aniso 1e-3, 128^2", poisson(2, 128, 1e-3)), ("3D Q1 Laplacian 20^3", q1(20))]
for f in sys.argv[1:]:
    cases.append((f.rsplit("/", 1)[-1], sp.csr_matrix(scipy.io.mmread(f))))
kinds = ["single", "half", "half-rowsum", "bfloat16"]
print("| matrix | rows | entries subnormal / zero in half | storage | lambda_min of the copy / exact | outer / inner its, inner reduction 0.1 | outer / inner its, 1e-4 |")
print("|---|---:|---|---|---:|---:|---:|")
for name, A in cases:
    S = scaled(A)
    l0 = lmin(S)
    sub, zero = underflow(S)
    for kind in kinds:
        C = stored(S, kind)
        runs = [fcg(S, C, red) for red in (0.1, 1e-4)]
        print(f"| {name} | {S.shape[0]} | {sub} / {zero} | {kind} | {lmin(C) / l0:.4f} | " + " | ".join(f"{its} / {inner}" for its, inner in runs) + " |", flush=True)
