# Workload targets: freshness of the committed PTX against the .cu sources.
.PHONY: test-ptx-fresh
TEST_TARGETS += test-ptx-fresh

test-ptx-fresh:
	@bash tests/regress/ptx-fresh.sh "$(NVCC)" $(BUILD)/ptx-fresh

# Measured categories (docs/workloads.md): rewrites workloads/categories.tsv
# and the measured table; commit both after adding a workload.
.PHONY: workload-table
workload-table: $(CLI)
	@python3 tools/workload-table.py $(CLI)
	@$(MAKE) --no-print-directory $(CLI)
