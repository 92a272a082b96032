"""The functions of petscjagged.h that options cannot reach, under their C names, made from one table (SIGNATURES).

Arguments are petsc4py objects (Mat, KSP, PC, Vec), Python ints, floats and bools, enum values by name ("half") or
number; what the C function writes through a pointer is returned (one value, or a tuple), enums by name. An error
raises petsc4py's PETSc.Error, its traceback lines carrying PETSc's message (str(error) shows them).
"""

import ctypes

from . import loader

# Argument kinds: an object (its handle), a PetscInt, PetscReal, PetscBool, PetscCount, a string, an enum named by the
# library's array of names ("E:PCSPCGStorages"); "*" before a kind: written by the function and returned.
SIGNATURES = {
    "MatJaggedSetSinglePrecision": ("Mat", "bool"),
    "MatJaggedGetSinglePrecision": ("Mat", "*bool"),
    "MatJaggedSetKernel": ("Mat", "E:MatJaggedKernels", "int"),
    "MatJaggedGetKernel": ("Mat", "*E:MatJaggedKernels", "*int"),
    "MatJaggedSetBlocks": ("Mat", "E:MatJaggedBlocksTypes"),
    "MatJaggedGetBlocks": ("Mat", "*E:MatJaggedBlocksTypes", "*int"),
    "MatJaggedSetExchange": ("Mat", "E:PetscJaggedExchanges"),
    "MatJaggedGetExchange": ("Mat", "*E:PetscJaggedExchanges"),
    "MatPJDSSetBlockRows": ("Mat", "int"),
    "MatPJDSGetBlockRows": ("Mat", "*int"),
    "MatJaggedSetUseHost": ("Mat", "bool"),
    "MatJaggedGetUseHost": ("Mat", "*bool"),
    "MatJaggedGetStorage": ("Mat", "*count", "*count"),
    "MatJaggedGetProductBytes": ("Mat", "*real"),
    "PCSPCGGetInnerIterations": ("PC", "*int", "*int"),
    "PCSPCGSetInnerPC": ("PC", "PC"),
    "PCSPCGSetMaxIterations": ("PC", "int"),
    "PCSPCGGetMaxIterations": ("PC", "*int"),
    "PCSPCGSetTolerance": ("PC", "real"),
    "PCSPCGGetTolerance": ("PC", "*real"),
    "PCSPCGSetJacobi": ("PC", "bool"),
    "PCSPCGGetJacobi": ("PC", "*bool"),
    "PCSPCGSetFormat": ("PC", "E:PCSPCGFormats"),
    "PCSPCGGetFormat": ("PC", "*E:PCSPCGFormats"),
    "PCSPCGSetStorage": ("PC", "E:PCSPCGStorages"),
    "PCSPCGGetStorage": ("PC", "*E:PCSPCGStorages"),
    "PCSPCGSetUseCUDAGraph": ("PC", "bool"),
    "PCSPCGGetUseCUDAGraph": ("PC", "*bool"),
    "PCSPCGSetExchange": ("PC", "E:PetscJaggedExchanges"),
    "PCSPCGGetExchange": ("PC", "*E:PetscJaggedExchanges"),
    "PCSPCGSetMG": ("PC", "bool"),
    "PCSPCGGetMG": ("PC", "*bool"),
    "PCSPCGSetMGDenseMax": ("PC", "int"),
    "PCSPCGGetMGDenseMax": ("PC", "*int"),
    "KSPMPCGSetTruncation": ("KSP", "int"),
    "KSPMPCGGetTruncation": ("KSP", "*int"),
    "KSPMPCGSetStagnationIterations": ("KSP", "int"),
    "KSPMPCGGetStagnationIterations": ("KSP", "*int"),
    "KSPMPCGSetContinueInner": ("KSP", "bool"),
    "KSPMPCGGetContinueInner": ("KSP", "*bool"),
    "KSPMPCGSetSingleInner": ("KSP", "bool"),
    "KSPMPCGGetSingleInner": ("KSP", "*bool"),
    "KSPMPCGGetInnerIterations": ("KSP", "*int", "*int"),
    "KSPCAGMRESSetBlockSize": ("KSP", "int"),
    "KSPCAGMRESGetBlockSize": ("KSP", "*int"),
    "KSPCAGMRESSetBasis": ("KSP", "E:KSPCAGMRESBases"),
    "KSPCAGMRESGetBasis": ("KSP", "*E:KSPCAGMRESBases"),
    "KSPCAGMRESSetOrthogonalization": ("KSP", "E:KSPCAGMRESOrthogonalizations"),
    "KSPCAGMRESGetOrthogonalization": ("KSP", "*E:KSPCAGMRESOrthogonalizations"),
    "KSPCAGMRESSetBlockOrthogonalization": ("KSP", "E:KSPCAGMRESBlockOrthogonalizations"),
    "KSPCAGMRESGetBlockOrthogonalization": ("KSP", "*E:KSPCAGMRESBlockOrthogonalizations"),
    "KSPCAGMRESSetMaxBreakdowns": ("KSP", "int"),
    "KSPCAGMRESGetMaxBreakdowns": ("KSP", "*int"),
}

_OBJECTS = ("Mat", "KSP", "PC", "Vec", "MatPowers")
_ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p)


def _ctype(kind):
    from petsc4py import PETSc
    import numpy

    if kind in _OBJECTS:
        return ctypes.c_void_p
    if kind == "int":
        return ctypes.c_int64 if numpy.dtype(PETSc.IntType).itemsize == 8 else ctypes.c_int32
    if kind == "real":
        return ctypes.c_double
    if kind == "bool":
        return ctypes.c_bool
    if kind == "count":
        return ctypes.c_ssize_t
    if kind == "str":
        return ctypes.c_char_p
    if kind.startswith("E:"):
        return ctypes.c_int
    raise ValueError(f"petscjagged: unknown argument kind {kind}")


def enum_names(array):
    """The names of an enum from the library's array (PETSc's layout: names, the type, the prefix, NULL)"""
    lib = loader.load()
    names = []
    entries = ctypes.cast(ctypes.addressof(ctypes.c_char_p.in_dll(lib, array)), ctypes.POINTER(ctypes.c_char_p))  # the array itself
    while entries[len(names)] is not None:
        names.append(entries[len(names)].decode())
    return names[:-2]


def _to_c(kind, value, name, position):
    if kind in _OBJECTS:
        from petsc4py import PETSc

        cls = getattr(PETSc, kind, None) or type(value)  # MatPowers: this package's class
        handle = getattr(value, "handle", None) if isinstance(value, cls) else None
        if not handle:
            raise TypeError(f"{name}: argument {position} must be a live {kind}, not {value!r}")
        return handle
    if kind.startswith("E:"):
        names = enum_names(kind[2:])
        if isinstance(value, str):
            if value not in names:
                raise ValueError(f"{name}: argument {position} must be one of {names}, not {value!r}")
            return names.index(value)
        return int(value)
    if kind == "str":
        return value.encode()
    return value


def _from_c(kind, value):
    if kind.startswith("E:"):
        names = enum_names(kind[2:])
        return names[value] if 0 <= value < len(names) else value
    return value


def call(name, argtypes, args):
    """Calls the plugin's function name with args converted to argtypes, PETSc's messages of an error collected into the
    PETSc.Error raised"""
    from petsc4py import PETSc

    lib = loader.load()
    fn = getattr(lib, name)
    fn.restype, fn.argtypes = ctypes.c_int, argtypes
    lines = []

    def handler(comm, line, func, file, n, p, mess, ctx):
        lines.insert(0, f"{(func or b'').decode()}() at {(file or b'').decode()}:{line}")
        if p == 0 and mess:  # PETSC_ERROR_INITIAL: the message
            lines.append(mess.decode())
        return n

    c_handler = _ERROR_HANDLER(handler)
    lib.PetscPushErrorHandler(c_handler, None)
    try:
        err = fn(*args)
    finally:
        lib.PetscPopErrorHandler()
    if err:
        error = PETSc.Error(err)
        error._traceback[:] = lines
        raise error


def _make(name, kinds):
    ins = [k for k in kinds if not k.startswith("*")]
    outs = [k[1:] for k in kinds if k.startswith("*")]

    def function(*args):
        if len(args) != len(ins):
            raise TypeError(f"{name}() takes {len(ins)} arguments ({', '.join(ins)}), {len(args)} given")
        argtypes, cargs, results, i = [], [], [], 0
        for kind in kinds:
            if kind.startswith("*"):
                ctype = _ctype(kind[1:])
                results.append(ctype())
                argtypes.append(ctypes.POINTER(ctype))
                cargs.append(ctypes.byref(results[-1]))
            else:
                argtypes.append(_ctype(kind))
                cargs.append(_to_c(kind, args[i], name, i + 1))
                i += 1
        call(name, argtypes, cargs)
        values = [_from_c(kind, r.value) for kind, r in zip(outs, results)]
        return None if not values else values[0] if len(values) == 1 else tuple(values)

    function.__name__ = name
    function.__doc__ = f"{name}({', '.join(ins)}) -> {', '.join(outs) or 'None'}: petscjagged.h's {name}()"
    return function


def PetscJaggedGetVersion():
    """The plugin's version string (PetscJaggedGetVersion())"""
    buf = ctypes.create_string_buffer(256)
    call("PetscJaggedGetVersion", [ctypes.c_char_p, ctypes.c_size_t], [buf, len(buf)])
    return buf.value.decode()


def MatJaggedMultSingle(A, x, y):
    """y = A x in single precision with A's single-precision copy (MatJaggedMultSingle()): x and y hold PETSc's single
    scalar (float32, complex64 in complex builds), x as many as A's local columns, y as many as its local rows; in GPU
    memory (an object with __cuda_array_interface__, a CuPy array) or, for host kernels (-mat_jagged_host), in host memory
    (__array_interface__, a NumPy array). Runs on PETSc's current CUDA stream and does not synchronize."""
    from petsc4py import PETSc
    import numpy

    single = numpy.complex64 if numpy.dtype(PETSc.ScalarType).kind == "c" else numpy.float32
    m, n = A.getLocalSize()
    pointers = []
    for arr, size, what in ((x, n, "x"), (y, m, "y")):
        ptr, device = _pointer(arr, single, size, what, "MatJaggedMultSingle")
        if device == MatJaggedGetUseHost(A):
            raise TypeError(f"MatJaggedMultSingle: {what} must be in {'host (NumPy)' if MatJaggedGetUseHost(A) else 'GPU (CuPy)'} memory for this matrix")
        pointers.append(ptr)
    call("MatJaggedMultSingle", [ctypes.c_void_p] * 3, [A.handle, *pointers])


def _pointer(arr, dtype, size, what, name):
    """The address of arr's data: GPU memory (__cuda_array_interface__, a CuPy array) or host memory (__array_interface__, a
    NumPy array), contiguous entries of dtype, at least size of them; and whether it is GPU memory"""
    import numpy

    for attr, device in (("__cuda_array_interface__", True), ("__array_interface__", False)):
        iface = getattr(arr, attr, None)
        if iface is not None:
            break
    else:
        raise TypeError(f"{name}: {what} must be a CuPy (GPU) or NumPy (host) array, not {type(arr).__name__}")
    if numpy.dtype(iface["typestr"]) != numpy.dtype(dtype) or int(numpy.prod(iface["shape"])) < size or iface.get("strides") not in (None, (numpy.dtype(dtype).itemsize,)):
        raise ValueError(f"{name}: {what} must be a contiguous {numpy.dtype(dtype)} array of at least {size} entries")
    return iface["data"][0], device


def MatSetValuesCOO(A, values, addv=None):
    """PETSc's MatSetValuesCOO() after A.setPreallocationCOO(): the values (PETSc's scalar, as many as the COO entries) from
    GPU memory (a CuPy array: copied GPU to GPU, nothing through the host) or host memory (a NumPy array); addv a
    PETSc.InsertMode (default INSERT_VALUES). petsc4py's Mat.setValuesCOO() takes host arrays only."""
    from petsc4py import PETSc

    ptr, _ = _pointer(values, PETSc.ScalarType, 0, "values", "MatSetValuesCOO")
    mode = PETSc.InsertMode.INSERT_VALUES if addv is None else addv
    call("MatSetValuesCOO", [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int], [A.handle, ptr, int(mode)])


for _name, _kinds in SIGNATURES.items():
    globals()[_name] = _make(_name, _kinds)

__all__ = [*SIGNATURES, "PetscJaggedGetVersion", "MatJaggedMultSingle", "MatSetValuesCOO", "enum_names"]
