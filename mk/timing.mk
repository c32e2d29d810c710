# Timing-mode regression: every workload (small) under every shipped config
# matches functional-mode memory, deterministic statistics, config errors.
.PHONY: test-timing
TEST_TARGETS += test-timing

test-timing: $(CLI)
	@bash tests/regress/timing.sh $(CLI)

# Thread-block compaction: every workload under every scheme x {none,
# balanced} permutation (test-timing runs a subset; docs/compaction.md).
.PHONY: test-compaction-all
test-compaction-all: $(CLI)
	@bash tests/regress/compaction.sh $(CLI)
