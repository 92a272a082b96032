#!/usr/bin/env python3
"""The Python package petscjagged with petsc4py: a petsc4py program loads the plugin (--before: petscjagged.load()
initialises PETSc with -dll_append; else petsc4py first, the plugin after), solves with MPCG and CA-GMRES on matrices made
with MatSetValues and converted to pJDS, calls the functions of petscjagged.h that options cannot reach, and gets PETSc's
message in a Python exception for a bad argument. Prints each check and one "N passed, M failed" line; exits nonzero on a
failure. On a machine without a GPU run with -mat_jagged_host (the host kernels); on a GPU, without it (CuPy for the
single-precision product's arrays)."""

import sys

BEFORE = "--before" in sys.argv
sys.argv = [a for a in sys.argv if a != "--before"]
if BEFORE:
    import petscjagged

    petscjagged.load(sys.argv)
    from petsc4py import PETSc
else:
    import petsc4py

    petsc4py.init(sys.argv)
    from petsc4py import PETSc

    import petscjagged

    petscjagged.load()
import numpy as np

results = []


def check(what, ok, detail=""):
    results.append(bool(ok))
    PETSc.Sys.Print(f"{'ok' if ok else 'FAILED'}: {what}" + (f" ({detail})" if detail and not ok else ""))


def laplacian(n):
    """The 3D 7-point Laplacian on n^3 points, by MatSetValues, AIJ"""
    N = n**3
    A = PETSc.Mat().createAIJ([N, N], nnz=(7, 6), comm=PETSc.COMM_WORLD)
    r0, r1 = A.getOwnershipRange()
    for r in range(r0, r1):
        x, y, z = r % n, (r // n) % n, r // (n * n)
        A.setValue(r, r, 6.0)
        for dx, dy, dz in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
            X, Y, Z = x + dx, y + dy, z + dz
            if 0 <= X < n and 0 <= Y < n and 0 <= Z < n:
                A.setValue(r, (Z * n + Y) * n + X, -1.0)
    A.assemble()
    return A


def solve(A, ktype, setup=None):
    """Solves A x = b (b = A x_e, x_e random) with ktype to 1e-10; returns the KSP, its true relative residual and reason"""
    xe, b = A.createVecs()
    xe.setRandom()
    A.mult(xe, b)
    x = xe.duplicate()
    ksp = PETSc.KSP().create(A.getComm())
    ksp.setOperators(A)
    ksp.setType(ktype)
    ksp.setTolerances(rtol=1e-10)
    if setup:
        setup(ksp)
    ksp.setFromOptions()
    ksp.solve(b, x)
    r = b.duplicate()
    A.mult(x, r)
    r.aypx(-1.0, b)
    res = r.norm() / b.norm()
    for v in (xe, b, x, r):
        v.destroy()
    return ksp, res, ksp.getConvergedReason()


version = petscjagged.PetscJaggedGetVersion()
check("PetscJaggedGetVersion() gives the plugin's version", len(version) > 0, version)

A = laplacian(10)
ksp, res, reason = solve(A, "mpcg")
napply, ninner = petscjagged.KSPMPCGGetInnerIterations(ksp)
check("KSPMPCG on an AIJ matrix reaches 1e-10", reason > 0 and res <= 2e-10, f"reason {reason}, residual {res:.2e}")
check("KSPMPCGGetInnerIterations() counts the inner iterations", napply >= ksp.getIterationNumber() > 0 and ninner >= napply, f"{napply} applications, {ninner} inner")
ksp.destroy()

B = A.convert("pjdscuda")
HOST = PETSc.Options().getBool("mat_jagged_host", False)
check(f"the matrix converts to pJDS ({'host kernels' if HOST else 'GPU'})", B.getType().endswith("pjdscuda") and petscjagged.MatJaggedGetUseHost(B) == HOST, B.getType())
nnz, stored = petscjagged.MatJaggedGetStorage(B)
check("MatJaggedGetStorage(): the stored slots hold the nonzeros", stored >= nnz == int(A.getInfo(PETSc.Mat.InfoType.LOCAL)["nz_used"]), f"{stored} slots, {nnz} nonzeros")
check("MatJaggedGetProductBytes() is a product's bytes", petscjagged.MatJaggedGetProductBytes(B) > 0)

single = np.complex64 if np.dtype(PETSc.ScalarType).kind == "c" else np.float32
xv, yv = B.createVecs()
xv.setRandom()
B.mult(xv, yv)
xp, where = np, "NumPy arrays"
if not HOST:
    try:
        import cupy as xp

        where = "CuPy arrays on the GPU"
    except ImportError:
        xp = None
if B.getComm().getSize() > 1:
    pass  # the local parts of x and y: on more processes x's local part is not its ghosted columns
elif xp is None:
    PETSc.Sys.Print("not checked: MatJaggedMultSingle() on the GPU (no CuPy here)")
else:
    x32 = xp.asarray(xv.getArray(readonly=True).astype(single))
    y32 = xp.zeros(B.getLocalSize()[0], dtype=single)
    petscjagged.MatJaggedMultSingle(B, x32, y32)
    if xp is not np:  # the product ran on PETSc's stream, not CuPy's: wait for the device
        xp.cuda.runtime.deviceSynchronize()
        y32 = xp.asnumpy(y32)
    err = np.max(np.abs(y32 - yv.getArray(readonly=True))) / np.max(np.abs(yv.getArray(readonly=True)))
    check(f"MatJaggedMultSingle() on {where} is A x in single precision", err < 1e-5, f"relative error {err:.2e}")

# COO assembly from arrays where the data live: A's entries by MatSetPreallocationCOO() and petscjagged.MatSetValuesCOO(), its values
# from a CuPy array on the GPU (NumPy with the host kernels); the product against the pJDS matrix made by MatSetValues()
ai, aj, av = A.getValuesCSR()
r0, r1 = A.getOwnershipRange()
C = PETSc.Mat().create(A.getComm())
C.setSizes(A.getSizes())
C.setType("pjdscuda")
C.setPreallocationCOO(np.repeat(np.arange(r0, r1, dtype=aj.dtype), np.diff(ai)), aj)
values = av if xp is None or xp is np else xp.asarray(av)
petscjagged.MatSetValuesCOO(C, values)
petscjagged.MatSetValuesCOO(C, values, PETSc.InsertMode.ADD_VALUES)  # twice the values
zc, zb = B.createVecs()
C.mult(xv, zc)
B.mult(xv, zb)
zc.axpy(-2.0, zb)
err = zc.norm() / zb.norm()
check(f"MatSetValuesCOO() from {'a CuPy array' if values is not av else 'a NumPy array'}, inserted then added: 2 A x", err < 1e-14, f"relative error {err:.2e}")
for o in (zc, zb, C):
    o.destroy()

ksp, res, reason = solve(B, "cagmres", lambda k: petscjagged.KSPCAGMRESSetBasis(k, "monomial"))
check("KSPCAGMRES on the pJDS matrix reaches 1e-10", reason > 0 and res <= 1e-9, f"reason {reason}, residual {res:.2e}")
check("an enum set by name reads back by name", petscjagged.KSPCAGMRESGetBasis(ksp) == "monomial", petscjagged.KSPCAGMRESGetBasis(ksp))
ksp.destroy()

pc = PETSc.PC().create(PETSc.COMM_WORLD)
pc.setType("spcg")
petscjagged.PCSPCGSetStorage(pc, "half")
petscjagged.PCSPCGSetMaxIterations(pc, 7)
petscjagged.PCSPCGSetTolerance(pc, 0.25)
check("PCSPCG setters and getters", (petscjagged.PCSPCGGetStorage(pc), petscjagged.PCSPCGGetMaxIterations(pc), petscjagged.PCSPCGGetTolerance(pc)) == ("half", 7, 0.25))
try:
    petscjagged.PCSPCGSetMaxIterations(pc, -1)
    check("a bad argument raises PETSc.Error", False, "no exception")
except PETSc.Error as e:
    check("a bad argument raises PETSc.Error with PETSc's message", "must be nonnegative, not -1" in str(e), str(e))
try:
    petscjagged.PCSPCGSetStorage(pc, "quarter")
    check("an unknown enum name raises ValueError", False, "no exception")
except ValueError as e:
    check("an unknown enum name raises ValueError naming the choices", "auto" in str(e), str(e))
other = PETSc.KSP().create(PETSc.COMM_WORLD)
try:
    petscjagged.PCSPCGSetMaxIterations(other, 3)
    check("an object of another class is refused", False, "no exception")
except TypeError as e:
    check("an object of another class is refused (TypeError naming the class)", "must be a live PC" in str(e), str(e))
other.destroy()
pc.destroy()

with petscjagged.MatPowers(B, 3) as mpk:
    mpk.setUp()
    V = [xv.duplicate() for _ in range(4)]
    V[0].setRandom()
    mpk.apply(V)
    w = V[0].duplicate()
    worst = 0.0
    for j in range(3):
        B.mult(V[j], w)
        w.axpy(-1.0, V[j + 1])
        worst = max(worst, w.norm() / V[j + 1].norm())
    check("MatPowers: apply() gives the monomial basis A^j x", worst < 1e-12, f"relative error {worst:.2e}")
    check("MatPowers: getType() names a MatPowersType", mpk.getType() in petscjagged.enum_names("MatPowersTypes"), mpk.getType())
    for v in (*V, w):
        v.destroy()

try:
    petscjagged.built_plugin("/elsewhere/petsc")
    check("a plugin of another PETSc is refused", False, "no exception")
except ImportError as e:
    check("a plugin of another PETSc is refused, both PETSc builds named", "/elsewhere/petsc" in str(e) and "built against the PETSc in" in str(e), str(e))

for o in (xv, yv, A, B):
    o.destroy()
failed = results.count(False)
PETSc.Sys.Print(f"{results.count(True)} passed, {failed} failed")
sys.exit(1 if failed else 0)
