/*
   The checks of the test programs that count what they verified (tests/harness/pjcheck.h, on the harness's include
   path): CHECK(cond, format, ...) fails the program with PETSC_ERR_PLIB and the message unless cond holds, and counts
   one check in nchecks; CHECK_REFUSED(call, code) checks that a call fails with the error code expected, silently.
   The program prints nchecks at its end, so that its expected output says how many checks ran.
*/
#pragma once

#include <petscsys.h>

static PetscInt nchecks = 0;

#define CHECK(cond, ...) \
  do { \
    PetscCheck(cond, PETSC_COMM_WORLD, PETSC_ERR_PLIB, __VA_ARGS__); \
    nchecks++; \
  } while (0)

#define CHECK_REFUSED(call, code) \
  do { \
    PetscErrorCode ierr_; \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); \
    ierr_ = (call); \
    PetscCall(PetscPopErrorHandler()); \
    CHECK(ierr_ == (code), "%s returned error %d, not %d", #call, (int)ierr_, (int)(code)); \
  } while (0)
