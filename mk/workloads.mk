# Workload targets: freshness of the committed PTX against the .cu sources.
.PHONY: test-ptx-fresh
TEST_TARGETS += test-ptx-fresh

test-ptx-fresh:
	@bash tests/regress/ptx-fresh.sh "$(NVCC)" $(BUILD)/ptx-fresh
