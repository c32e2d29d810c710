# racecheck, synccheck, initcheck (docs/checks.md).
#   make test-checks   the check kernels' PTX is fresh, every workload is
#                      clean under --check all in both modes (the hazard
#                      kernels themselves: tests/unit/test_checks.c)
.PHONY: test-checks
TEST_TARGETS += test-checks

test-checks: $(CLI) $(BUILD)/tests/test_checks
	@$(BUILD)/tests/test_checks
	@bash tests/regress/checks.sh $(CLI) "$(NVCC)"
