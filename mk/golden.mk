# Golden-model diffing (docs/golden.md).
#   make test-golden    the suite (small, seed 1) under every shipped config
#                       and in functional mode equals tests/golden/ exactly
#   make golden         rewrites the baselines (commit them with the change)
#   make test-commitlog functional and timing commit logs agree per warp on
#                       every workload; an injected timing fault is found
.PHONY: test-golden golden test-commitlog
TEST_TARGETS += test-golden test-commitlog

test-golden: $(CLI)
	@bash tests/golden/golden.sh $(CLI) check
	@bash tests/golden/golden.sh $(CLI) selftest

golden: $(CLI)
	@bash tests/golden/golden.sh $(CLI) update

# the fault-injected build (LS_FAULT_STALE_STORE) is made in build/fault
test-commitlog: $(CLI)
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/fault OPT="-O2 -g -DLS_FAULT_STALE_STORE" $(BUILD)/fault/lockstep
	@bash tests/regress/commitlog.sh $(CLI) $(BUILD)/fault/lockstep
