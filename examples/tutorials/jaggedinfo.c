static char help[] = "Prints the petsc-jagged version and the PETSc it was built for.\n\
Shows how a program that links libpetscjagged initializes it.\n\n";

#include <petscjagged.h>

int main(int argc, char **argv)
{
  char version[256];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscJaggedInitializePackage());
  PetscCall(PetscJaggedGetVersion(version, sizeof(version)));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", version));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: link_initialize
      filter: grep -E -o "^petsc-jagged [0-9.]+ \(PETSc [0-9.]+"

TEST*/
