#!/usr/bin/env python3
"""A petsc4py program on GPU data: the 3D Poisson problem (7-point Laplacian, n^3 points) assembled from CuPy arrays,
handed to PETSc without a copy through the host (the COO pattern once through petsc4py, the values GPU to GPU through
petscjagged.MatSetValuesCOO(), the right-hand side and the solution as CUDA vectors wrapping CuPy arrays through DLPack),
solved with pJDS + MPCG (its default preconditioner, PCSPCG) and with CA-GMRES + Jacobi, the solution read back as a CuPy array. With -mat_jagged_host the same
program runs on NumPy arrays with the host kernels (no GPU).

    PYTHONPATH=<petsc4py>:build/real/python python3 examples/python/poisson.py [-n 64] [-mat_jagged_host] [-ksp_view]

Options: -n (points a direction, default 32), -rtol (default 1e-10), -rhs ones (b = 1, as bench/firstsolve -problem poisson;
default: b = A x_e), -solvers (default mpcg,cagmres: the solvers to run, in order), and PETSc's (the KSPs have prefixes mpcg_ and ca_). Prints, for each solver, its iterations, the times of a
first solve (KSPSetUp() inside it, as bench/firstsolve counts it) and a repeated one, the true relative residual, the error
against the exact solution and, on the GPU, what PETSc's copy counters say the solves moved between the vectors' host and
device memory (nothing: the solves run on the GPU). On a GPU without CuPy the arrays are made on the host and PETSc copies
them up before the solves (the solves are the same).
"""

import sys
import time

import petsc4py

petsc4py.init(sys.argv)
from petsc4py import PETSc  # noqa: E402

import numpy  # noqa: E402
import petscjagged  # noqa: E402

petscjagged.load()
PETSc.Log.begin()  # PETSc's copy counters (the events VecCUDACopyTo, VecCUDACopyFrom) count only while it logs
opts = PETSc.Options()
n = opts.getInt("n", 32)
rtol = opts.getReal("rtol", 1e-10)
solvers = opts.getString("solvers", "mpcg,cagmres").split(",")
ones = opts.getString("rhs", "exact") == "ones"  # b = 1 (as bench/firstsolve -problem poisson), else b = A x_e
host = opts.getBool("mat_jagged_host", False)
xp, cupy = numpy, None
if not host:
    try:
        import cupy

        xp = cupy
    except ImportError:
        PETSc.Sys.Print("no CuPy: the arrays are made on the host and copied to the GPU by PETSc")

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
to_host = xp.asnumpy if cupy else (lambda a: a)
A.setPreallocationCOO(to_host(rows), to_host(cols))  # the pattern, once, through the host
petscjagged.MatSetValuesCOO(A, vals)  # the values: GPU to GPU with CuPy
A.assemble()


def vector(array):
    """A PETSc vector over array's memory (a CUDA vector over a CuPy array: no copy); without CuPy on a GPU, a CUDA vector
    whose values are copied from the host array (read back with result())"""
    if cupy:
        return PETSc.Vec().createWithDLPack(array, size=(array.size, N), comm=comm)
    if host:
        return PETSc.Vec().createWithArray(array, size=(array.size, N), comm=comm)
    v = A.createVecs()[0]
    v.setArray(array)
    return v


def result(v, array):
    """v's values as an array of xp: the array v wraps, or (a CUDA vector without CuPy) a copy"""
    return array if cupy or host else v.getArray(readonly=True)


# the exact solution x_e = 1 + (point's index mod 7), b = A x_e (or b = 1), both in the arrays' own memory
xe_array = (1.0 + (idx % 7)).astype(PETSc.ScalarType)
b_array = xp.ones(idx.size, dtype=PETSc.ScalarType)
xe, b = vector(xe_array), vector(b_array)
if not ones:
    A.mult(xe, b)
bnorm = b.norm()  # before the solves, as bench/firstsolve (its first vector operation on the GPU starts cuBLAS there)

def vector_copies():
    """how many times PETSc copied a vector's values between host and GPU so far, on this process"""
    return sum(PETSc.Log.Event(e).getPerfInfo()["count"] for e in ("VecCUDACopyTo", "VecCUDACopyFrom"))


def total(value):
    """the sum of value over the processes"""
    v = PETSc.Vec().createMPI((1, PETSc.DECIDE), comm=comm)
    v.setValue(v.getOwnershipRange()[0], value)
    v.assemble()
    s = v.sum()
    v.destroy()
    return int(round(s.real))


status = 0
prefixes = {"mpcg": "mpcg_", "cagmres": "ca_"}
for ktype in solvers:
    if ktype not in prefixes:
        raise SystemExit(f"-solvers: mpcg and/or cagmres, not {ktype}")
    prefix = prefixes[ktype]
    x_array = xp.zeros(idx.size, dtype=PETSc.ScalarType)
    x = vector(x_array)
    ksp = PETSc.KSP().create(comm)
    ksp.setOptionsPrefix(prefix)
    ksp.setOperators(A)
    ksp.setType(ktype)
    ksp.setTolerances(rtol=rtol, max_it=10000)
    if ktype == "cagmres":
        ksp.getPC().setType("jacobi")  # in code, as programs do (PETSc's default on one process would be ILU, on the host)
    ksp.setFromOptions()
    times = []
    copies = vector_copies()
    for _ in range(2):  # the first solve (its set-up inside) and a repeated one, each from a zero guess
        x.set(0.0)
        comm.barrier()
        t0 = time.perf_counter()
        ksp.solve(b, x)
        comm.barrier()
        times.append(time.perf_counter() - t0)
    copies = vector_copies() - copies
    r = b.duplicate()
    A.mult(x, r)
    r.aypx(-1.0, b)
    res = r.norm() / bnorm
    err = "none known (-rhs ones)" if ones else f"{float(xp.max(xp.abs(result(x, x_array) - xe_array))):.2e}"  # on process 0
    extra = ""
    if ktype == "mpcg":
        napply, ninner = petscjagged.KSPMPCGGetInnerIterations(ksp)
        extra = f", {ninner} inner iterations"
    if not host:
        copies = total(copies)
        extra += f", vector copies host <-> GPU in the solves {copies}"
    ok = ksp.getConvergedReason() > 0 and res <= 2 * rtol and (host or copies == 0)
    PETSc.Sys.Print(f"{ktype} + {ksp.getPC().getType()}: {ksp.getConvergedReason()}, {ksp.getIterationNumber()} iterations{extra}, first solve {times[0]:.4f} s, "
                    f"repeated solve {times[1]:.4f} s, true relative residual {res:.2e}, max error (process 0) {err}: {'ok' if ok else 'FAILED'}")
    status |= not ok
    for o in (r, x, ksp):
        o.destroy()
for o in (xe, b, A):
    o.destroy()
sys.exit(status)
