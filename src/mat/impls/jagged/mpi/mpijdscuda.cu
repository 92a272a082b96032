#include "mpijagged.h"
#include "../../../../sys/jaggedcite.h"

/*MC
   MATMPIJDSCUDA - "mpiaijjdscuda" - distributed sparse matrices in jagged-diagonal format on NVIDIA
   GPUs: a `MATMPIAIJ` whose diagonal and off-diagonal blocks are `MATSEQJDSCUDA`, with `VECCUDA`
   vectors. `MATJDSCUDA` selects it on more than one process.

   Level: beginner

.seealso: `MATSEQJDSCUDA`, `MATJDSCUDA`, `MATMPIPJDSCUDA`, `MATMPIAIJCUSPARSE`
M*/
PETSC_EXTERN PetscErrorCode MatCreate_MPIJDSCUDA(Mat B)
{
  PetscFunctionBegin;
  PetscCall(MatSetType(B, MATMPIAIJ));
  PetscCall(PetscJaggedCiteJDSCG());
  PetscCall(MatConvert_MPIAIJ_MPIJagged_InPlace(B, MATMPIJDSCUDA));
  PetscFunctionReturn(PETSC_SUCCESS);
}
