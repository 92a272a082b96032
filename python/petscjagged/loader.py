"""Finding and loading the plugin: the one built against petsc4py's PETSc, or the one PETSc already loaded."""

import ctypes
import os
import sys

_lib = None  # the plugin, once loaded (ctypes.CDLL)


def _petsc4py_petsc_dir():
    import petsc4py

    conf = petsc4py.get_config()
    return os.path.realpath(os.path.join(conf["PETSC_DIR"], conf.get("PETSC_ARCH", "") or ""))


def _loaded_plugin():
    """The plugin this process already maps (loaded by PETSc's -dll_append), or None."""
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split()[-1]
                if os.path.basename(path) == "libpetscjagged.so":
                    return path
    except OSError:
        pass
    return None


def built_plugin(petsc_dir):
    """The plugin of this build tree (its _build.py, written by CMake), refused (ImportError naming both) when built against
    another PETSc than the one in petsc_dir"""
    try:
        from . import _build
    except ImportError as err:
        raise ImportError(
            "petscjagged: no plugin: this package was not configured by the plugin's build (no _build.py); "
            "set PETSCJAGGED_LIB to a libpetscjagged.so built against petsc4py's PETSc") from err
    built_for = os.path.realpath(_build.PETSC_DIR)
    if built_for != os.path.realpath(petsc_dir):
        raise ImportError(
            f"petscjagged: the plugin {_build.PLUGIN} was built against the PETSc in {built_for}, but petsc4py against "
            f"the PETSc in {os.path.realpath(petsc_dir)}: build the plugin with -DPETSC_DIR=<that PETSc> (README, Python)")
    return _build.PLUGIN


def plugin_path():
    """The plugin to load: PETSCJAGGED_LIB, or the one PETSc already loaded (-dll_append), or this build tree's, which must
    have been built against petsc4py's PETSc (built_plugin())"""
    path = os.environ.get("PETSCJAGGED_LIB") or _loaded_plugin() or built_plugin(_petsc4py_petsc_dir())
    if not os.path.isfile(path):
        raise ImportError(f"petscjagged: no plugin at {path}")
    return path


def load(args=None, comm=None):
    """Loads the plugin, before or after petsc4py.init(): before, PETSc is initialised (petsc4py.init) with args
    (default sys.argv) and -dll_append, as a C program would load it; after, the plugin is opened and its package
    initialised. Returns the plugin as a ctypes.CDLL; the functions of this package call it themselves."""
    global _lib
    if _lib is not None:
        return _lib
    path = plugin_path()
    if "petsc4py.PETSc" not in sys.modules:
        import petsc4py

        argv = list(sys.argv if args is None else args)
        petsc4py.init(argv + ["-dll_append", path], comm=comm)
    from petsc4py import PETSc

    if not PETSc.Sys.isInitialized():
        raise RuntimeError("petscjagged: PETSc is finalised")
    lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    lib.PetscJaggedInitializePackage.restype = ctypes.c_int
    err = lib.PetscJaggedInitializePackage()
    if err:
        raise PETSc.Error(err)
    _lib = lib
    return lib
