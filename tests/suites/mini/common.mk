# The mini suite's own build rule (tests/suites/test_suites.py), included
# by each program's Makefile as the real suites' common makefiles are. The
# -arch option is one nvcc 13 rejects: the harness's toolkit shim replaces
# it, as it does in the real suites (docs/suites.md).
CUDA_DIR ?= /usr/local/cuda
NVCC     := $(CUDA_DIR)/bin/nvcc
NVFLAGS  := -O2 -arch=sm_20 -compress-mode none

$(PROG): $(PROG).cu
	$(NVCC) $(NVFLAGS) -o $@ $<
