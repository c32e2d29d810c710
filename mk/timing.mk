# Timing-mode regression: every workload (small) under every shipped config
# matches functional-mode memory, deterministic statistics, config errors.
.PHONY: test-timing
TEST_TARGETS += test-timing

test-timing: $(CLI)
	@bash tests/regress/timing.sh $(CLI)
