# petsc-jagged -- see README.md.
#   make                 build PETSc (real and complex, cached) and the plugin against each
#   make test            ... then run the tests for both: PETSc's test harness (gmakefile.test) and ctest
#   make install PREFIX=/opt/petsc-jagged [SCALAR=real|complex]
#   make petsc           only the two PETSc installs;  make petsc-dir [SCALAR=complex] prints one
#   make python          petsc4py built against each (part of make: the Python package's tests need it)
#   make device-bundle   pack what the GPU machine needs into .device-bundle/ (see README)
#   make demo            build what is missing and run the demos (GPU if there is one, else CPU)
#   make bench           SpMV benchmark on this machine's GPU
SCALAR  ?= real
SCALARS := real complex
BUILD   ?= build
PREFIX  ?= /usr/local
JOBS    ?= $(shell nproc)

petsc_prefix = $(shell scripts/build-petsc --scalar $(1) --print-prefix)
other_scalar = $(if $(filter real,$(1)),complex,real)

.PHONY: all nccl petsc petsc-dir python test install device-bundle demo bench clean $(SCALARS:%=petsc-%) $(SCALARS:%=plugin-%) $(SCALARS:%=python-%)

all: petsc $(SCALARS:%=plugin-%)

petsc: $(SCALARS:%=petsc-%)

$(SCALARS:%=petsc-%): petsc-%:
	scripts/build-petsc --scalar $*

# NCCL's header and library (PyPI wheel, cached beside PETSc): the GPU-to-GPU exchanges
nccl:
	scripts/get-nccl

petsc-dir:
	@scripts/build-petsc --scalar $(SCALAR) --print-prefix

# petsc4py built against each PETSc (PyPI sdist, cached beside it): the Python package's tests
$(SCALARS:%=python-%): python-%: petsc-%
	scripts/build-petsc4py --scalar $*

python: $(SCALARS:%=python-%)

# The other scalar type's PETSc, when built, is handed over for the "refuses a foreign PETSc" test; petsc4py for the Python tests.
$(SCALARS:%=plugin-%): plugin-%: petsc-% nccl python-%
	@foreign=$(call petsc_prefix,$(call other_scalar,$*)); \
	 [ -f $$foreign/.petsc-jagged-complete ] || foreign=; \
	 cmake -S . -B $(BUILD)/$* -DCMAKE_BUILD_TYPE=Release \
	   -DPETSC_DIR=$(call petsc_prefix,$*) -DPETSC_DIR_FOREIGN=$$foreign -DNCCL_DIR=$$(scripts/get-nccl --print-prefix) \
	   -DPETSC4PY_DIR=$$(scripts/build-petsc4py --scalar $* --print-prefix)
	cmake --build $(BUILD)/$* -j $(JOBS)

# CPU tests for each scalar type: PETSc's test harness on the TEST blocks (gmakefile.test; fails on any
# `not ok`), then the ctest unit tests (host twins, installed package). GPU tests are generated only where
# a GPU is present (scripts/device-test runs them on the GPU machine).
test: all
	@failed=; for s in $(SCALARS); do \
	  echo "== petsc-jagged tests, $$s scalars: PETSc's test harness"; \
	  $(MAKE) --no-print-directory -f gmakefile.test -j $(JOBS) test PETSC_DIR=$$(scripts/build-petsc --scalar $$s --print-prefix) PJ_BUILD=$(BUILD)/$$s \
	    || failed="$$failed $$s(harness)"; \
	  echo "== petsc-jagged tests, $$s scalars: unit tests (ctest)"; \
	  (cd $(BUILD)/$$s && ctest -L cpu --output-on-failure) || failed="$$failed $$s(ctest)"; \
	done; \
	if [ -n "$$failed" ]; then echo "tests failed for:$$failed"; exit 1; fi

install: plugin-$(SCALAR)
	cmake --install $(BUILD)/$(SCALAR) --prefix $(PREFIX)

device-bundle: all
	scripts/device-bundle $(BUILD)

demo: all
	scripts/demo $(BUILD)

# SpMV benchmark on this machine's GPU (real scalars); on the lent GPU machine use scripts/device-bench
bench: plugin-real
	$(BUILD)/real/bench/spmvbench -csv $(BUILD)/spmv.csv -mtx $$(ls ../shared/matrices/*.mtx | paste -sd, -)
	python3 bench/report.py $(BUILD)/spmv.csv $(BUILD)/spmv.png $(BUILD)/spmv.md

clean:
	rm -rf $(BUILD) .device-bundle
