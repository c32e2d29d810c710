# Sweeps and experiments (docs/sweeps.md).
#   make experiments-NAME  runs experiments/NAME.toml with tools/sweep.py into
#                          build/experiments/NAME (cached: a rerun runs only
#                          what changed), then experiments/NAME.py writes the
#                          results page docs/results/NAME.md and its PNGs
#   make experiments       every experiments/*.toml
#   make test-sweep        the runner's tests: spec errors, grid, cache keys,
#                          a small sweep equal to its points run one by one
#   make test-pages        every results page rendered from its committed
#                          fixture (tests/pages): no unfilled placeholder,
#                          counts match their lists, the stated size
#   make test-slurm        the small sweep on a one-node Slurm cluster started
#                          here (root; installs slurm-wlm and munge)
# SWEEP_FLAGS passes options through (SWEEP_FLAGS="--jobs 1 --force").
PY          := $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)
SWEEP_FLAGS ?=
EXPERIMENTS := $(patsubst experiments/%.toml,%,$(wildcard experiments/*.toml))
EXP_TARGETS := $(addprefix experiments-,$(EXPERIMENTS))

.PHONY: deps-plot experiments test-sweep test-slurm test-pages $(EXP_TARGETS)
TEST_TARGETS += test-sweep test-slurm test-pages

deps-plot:
	@bash mk/deps.sh plot

experiments: $(EXP_TARGETS)

$(EXP_TARGETS): experiments-%: $(CLI) deps-plot
	$(PY) tools/sweep.py experiments/$*.toml --out $(BUILD)/experiments/$* \
	  --lockstep $(CLI) $(SWEEP_FLAGS)
	$(PY) experiments/$*.py $(BUILD)/experiments/$* docs/results

test-sweep: $(CLI) deps-plot
	@LOCKSTEP=$(CLI) $(PY) tests/sweep/test_sweep.py

test-pages: $(CLI) deps-plot
	@MPLBACKEND=Agg $(PY) tests/pages/test_pages.py $(CLI)

test-slurm: $(CLI)
	@bash mk/deps.sh slurm
	@bash tests/slurm/slurm-test.sh $(CLI) $(BUILD)/slurm
