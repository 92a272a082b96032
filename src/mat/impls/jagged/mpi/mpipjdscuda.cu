#include "mpijagged.h"
#include "../../../../sys/jaggedcite.h"

/*MC
   MATMPIPJDSCUDA - "mpiaijpjdscuda" - distributed sparse matrices in padded jagged-diagonal format on
   NVIDIA GPUs: a `MATMPIAIJ` whose diagonal and off-diagonal blocks are `MATSEQPJDSCUDA`, with
   `VECCUDA` vectors. `MATPJDSCUDA` selects it on more than one process.

   Level: beginner

.seealso: `MATSEQPJDSCUDA`, `MATPJDSCUDA`, `MATMPIJDSCUDA`, `MATMPIAIJCUSPARSE`
M*/
PETSC_EXTERN PetscErrorCode MatCreate_MPIPJDSCUDA(Mat B)
{
  PetscFunctionBegin;
  PetscCall(MatSetType(B, MATMPIAIJ));
  PetscCall(PetscJaggedCitePJDS());
  PetscCall(MatConvert_MPIAIJ_MPIJagged_InPlace(B, MATMPIPJDSCUDA));
  PetscFunctionReturn(PETSC_SUCCESS);
}
