"""petscjagged: the petsc-jagged plugin for petsc4py programs.

    import petscjagged                  # before or after petsc4py.init(): initialises PETSc if need be
    from petsc4py import PETSc
    ksp = PETSc.KSP().create(); ksp.setType("mpcg") ...   # or -ksp_type mpcg, -mat_type pjdscuda
    napply, ninner = petscjagged.KSPMPCGGetInnerIterations(ksp)

The plugin loaded is the one built against the PETSc that petsc4py was built against (the build tree's
_build.py says which; the environment variable PETSCJAGGED_LIB names another); a plugin of another PETSc
is refused with both named. Options (-mat_type, -ksp_type, ...) need nothing else; the functions of
petscjagged.h that options cannot reach are here under their C names (see functions.py), taking and
returning petsc4py objects; an error raises petsc4py's PETSc.Error carrying PETSc's message.
"""

from .loader import built_plugin, load, plugin_path
from .functions import *  # noqa: F401,F403  (the C API, generated from the table in functions.py)
from .functions import __all__ as _functions
from .powers import MatPowers

__all__ = ["load", "plugin_path", "built_plugin", "MatPowers", *_functions]
