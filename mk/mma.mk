# Tensor cores (docs/exec-semantics.md, "Tensor cores").
#   make test-mma-fault  the tensor-core tests can fail: a build that reads
#                        the mma.sync A fragment and the wmma B fragment
#                        transposed (LS_FAULT_MMA_TRANSPOSE) must fail
#                        test_ptx_mma and test_nv_wmma
.PHONY: test-mma-fault
TEST_TARGETS += test-mma-fault

test-mma-fault: deps
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/fault-mma OPT="-O2 -g -DLS_FAULT_MMA_TRANSPOSE" \
	  $(BUILD)/fault-mma/tests/test_ptx_mma $(BUILD)/fault-mma/tests/test_nv_wmma
	@bash tests/regress/mma-fault.sh $(BUILD)/fault-mma/tests
