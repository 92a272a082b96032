"""MatPowers, the matrix-powers kernel of petscjagged.h (MatCreateMatrixPowers() and the MatPowers functions), as a
Python object owning its C handle"""

import ctypes

from . import functions
from .functions import call

_METHODS = {
    "setPC": ("MatPowersSetPC", ("MatPowers", "PC")),
    "setType": ("MatPowersSetType", ("MatPowers", "E:MatPowersTypes")),
    "getType": ("MatPowersGetType", ("MatPowers", "*E:MatPowersTypes")),
    "setUseDIA": ("MatPowersSetUseDIA", ("MatPowers", "bool")),
    "getUseDIA": ("MatPowersGetUseDIA", ("MatPowers", "*bool")),
    "setMaxExtraFlops": ("MatPowersSetMaxExtraFlops", ("MatPowers", "real")),
    "getMaxExtraFlops": ("MatPowersGetMaxExtraFlops", ("MatPowers", "*real")),
    "setPartial": ("MatPowersSetPartial", ("MatPowers", "bool")),
    "getPartial": ("MatPowersGetPartial", ("MatPowers", "*bool")),
    "setExchange": ("MatPowersSetExchange", ("MatPowers", "E:PetscJaggedExchanges")),
    "getExchange": ("MatPowersGetExchange", ("MatPowers", "*E:PetscJaggedExchanges")),
    "setOptionsPrefix": ("MatPowersSetOptionsPrefix", ("MatPowers", "str")),
    "setFromOptions": ("MatPowersSetFromOptions", ("MatPowers",)),
    "setUp": ("MatPowersSetUp", ("MatPowers",)),
    "applyPC": ("MatPowersApplyPC", ("MatPowers", "Vec", "Vec")),
    "getInfo": ("MatPowersGetInfo", ("MatPowers", "*real", "*real")),
}


class MatPowers:
    """s products with A (right-preconditioned, shifted) for one halo exchange: MatPowers(A, s), then the C functions as
    methods (setPC, setType, setUp, apply, applyPC, getInfo, ...); destroy() or a with-block frees it."""

    def __init__(self, A, s):
        self.handle = None
        h = ctypes.c_void_p()
        call("MatCreateMatrixPowers", [ctypes.c_void_p, functions._ctype("int"), ctypes.POINTER(ctypes.c_void_p)], [A.handle, s, ctypes.byref(h)])
        self.handle = h.value

    def __getattr__(self, method):
        if method not in _METHODS:
            raise AttributeError(method)
        name, kinds = _METHODS[method]
        bound = functions._make(name, kinds)
        return lambda *args: bound(self, *args)

    def apply(self, V, re=None, im=None):
        """MatPowersApply(): V a list of k + 1 Vecs (V[0] read, V[1..k] written), re and im the k shifts' parts or None"""
        from petsc4py import PETSc
        import numpy

        k = len(V) - 1
        vecs = (ctypes.c_void_p * len(V))(*[v.handle for v in V])
        arrays = [None if a is None else numpy.ascontiguousarray(a, dtype=t) for a, t in ((re, PETSc.ScalarType), (im, PETSc.RealType))]
        for a, what in zip(arrays, ("re", "im")):
            if a is not None and a.size != k:
                raise ValueError(f"MatPowers.apply: {what} must have {k} entries, one a new vector")
        ptrs = [None if a is None else a.ctypes.data for a in arrays]
        call("MatPowersApply", [ctypes.c_void_p, functions._ctype("int"), ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p], [self.handle, k, ptrs[0], ptrs[1], vecs])

    def view(self, viewer=None):
        call("MatPowersView", [ctypes.c_void_p, ctypes.c_void_p], [self.handle, viewer.handle if viewer else None])

    def destroy(self):
        if self.handle:
            h = ctypes.c_void_p(self.handle)
            call("MatPowersDestroy", [ctypes.POINTER(ctypes.c_void_p)], [ctypes.byref(h)])
            self.handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.destroy()
