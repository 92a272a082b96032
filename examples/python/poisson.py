#!/usr/bin/env python3
"""A petsc4py program on GPU data: the 3D Poisson problem (7-point Laplacian, n^3 points) assembled from CuPy arrays,
handed to PETSc without a copy through the host (the COO pattern once through petsc4py, the values GPU to GPU through
petscjagged.MatSetValuesCOO(), the right-hand side and the solution as CUDA vectors wrapping CuPy arrays through DLPack),
solved with pJDS + MPCG and with CA-GMRES, the solution read back as a CuPy array. With -mat_jagged_host the same
program runs on NumPy arrays with the host kernels (no GPU).

    PYTHONPATH=<petsc4py>:build/real/python python3 examples/python/poisson.py [-n 64] [-mat_jagged_host] [-ksp_view]

Options: -n (points a direction, default 32), -rtol (default 1e-10), and PETSc's (the KSPs have prefixes mpcg_ and ca_).
Prints, for each solver, its iterations, time and true relative residual, and checks the solution against the exact one.
"""

import sys
import time

import petsc4py

petsc4py.init(sys.argv)
from petsc4py import PETSc  # noqa: E402

import numpy  # noqa: E402
import petscjagged  # noqa: E402

petscjagged.load()
opts = PETSc.Options()
n = opts.getInt("n", 32)
rtol = opts.getReal("rtol", 1e-10)
host = opts.getBool("mat_jagged_host", False)
if host:
    xp = numpy
else:
    import cupy as xp

comm = PETSc.COMM_WORLD
N = n**3
A = PETSc.Mat().create(comm)
A.setSizes([N, N])
A.setType("pjdscuda")
r0, r1 = A.getOwnershipRange()

# the COO entries of this process's rows, made where the data live (on the GPU with CuPy)
idx = xp.arange(r0, r1, dtype=numpy.dtype(PETSc.IntType))
coord = (idx % n, (idx // n) % n, idx // (n * n))
rows, cols, vals = [idx], [idx], [xp.full(idx.size, 6.0, dtype=PETSc.ScalarType)]
for c, stride in zip(coord, (1, n, n * n)):
    for step in (-1, 1):
        keep = (c + step >= 0) & (c + step < n)
        rows.append(idx[keep])
        cols.append(idx[keep] + step * stride)
        vals.append(xp.full(int(keep.sum()), -1.0, dtype=PETSc.ScalarType))
rows, cols, vals = xp.concatenate(rows), xp.concatenate(cols), xp.concatenate(vals)
to_host = (lambda a: a) if host else xp.asnumpy
A.setPreallocationCOO(to_host(rows), to_host(cols))  # the pattern, once, through the host
petscjagged.MatSetValuesCOO(A, vals)  # the values: GPU to GPU with CuPy
A.assemble()


def vector(array):
    """A PETSc vector over array's memory (a CUDA vector over a CuPy array: no copy)"""
    if host:
        return PETSc.Vec().createWithArray(array, size=(array.size, N), comm=comm)
    return PETSc.Vec().createWithDLPack(array, size=(array.size, N), comm=comm)


# the exact solution x_e = 1 + (point's index mod 7), b = A x_e, both in the arrays' own memory
xe_array = (1.0 + (idx % 7)).astype(PETSc.ScalarType)
b_array = xp.zeros(idx.size, dtype=PETSc.ScalarType)
xe, b = vector(xe_array), vector(b_array)
A.mult(xe, b)

status = 0
for prefix, ktype in (("mpcg_", "mpcg"), ("ca_", "cagmres")):
    x_array = xp.zeros(idx.size, dtype=PETSc.ScalarType)
    x = vector(x_array)
    ksp = PETSc.KSP().create(comm)
    ksp.setOptionsPrefix(prefix)
    ksp.setOperators(A)
    ksp.setType(ktype)
    ksp.setTolerances(rtol=rtol, max_it=10000)
    ksp.setFromOptions()
    ksp.setUp()
    comm.barrier()
    t0 = time.perf_counter()
    ksp.solve(b, x)
    comm.barrier()
    elapsed = time.perf_counter() - t0
    r = b.duplicate()
    A.mult(x, r)
    r.aypx(-1.0, b)
    res = r.norm() / b.norm()
    err = float(xp.max(xp.abs(x_array - xe_array)))  # x wraps x_array: the solution, in the array's own memory
    extra = ""
    if ktype == "mpcg":
        napply, ninner = petscjagged.KSPMPCGGetInnerIterations(ksp)
        extra = f", {ninner} inner iterations"
    ok = ksp.getConvergedReason() > 0 and res <= 2 * rtol
    PETSc.Sys.Print(f"{ktype}: {ksp.getConvergedReason()}, {ksp.getIterationNumber()} iterations{extra}, {elapsed:.3f} s, "
                    f"true relative residual {res:.2e}, max error (process 0) {err:.2e}: {'ok' if ok else 'FAILED'}")
    status |= not ok
    for o in (r, x, ksp):
        o.destroy()
for o in (xe, b, A):
    o.destroy()
sys.exit(status)
