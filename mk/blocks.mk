# Block library: RTL blocks checked in lockstep against their C models.
# A block is in when rtl/<blk>.v, csim/blocks/<blk>.c, tb/<blk>_tb.c and
# tb/<blk>_params.txt exist (tb/README.md); nothing here names a block.
#   make test-blocks     directed + seeded random lockstep tests, every block
#   make mutants         every `ifdef MUTANT_k fault must be caught: by the
#                        standalone testbench (make mutants-tb) and in the
#                        GPU loop (make mutants-loop, mk/cosim.mk); make test
#                        runs the two as separate groups, so they can run
#                        side by side
#   make lint            verilator --lint-only -Wall per block/param set
#   make coverage        functional coverage bins of the suite's kernels and of
#                        the random testbenches -> docs/blocks/coverage.md and
#                        the list of bins the suite reaches,
#                        tests/coverage/reached.txt (about 1 minute)
#   make code-coverage   RTL line/toggle coverage of the testbenches ->
#                        docs/blocks/code-coverage.md (every parameter set
#                        Verilated with coverage: tens of minutes)
#   make synth           Yosys sweeps -> build/synth/area.json, docs/area.md
#                        (with synth/bound.sh: the CAPT area lower bound),
#                        and the gate-level netlist of every sweep point and
#                        shipped parameter set -> build/netlist/ (mk/gates.mk)
#   make test-synth-drift  area vs synth/area-baseline.json (> 5% fails)
#   make bench-blocks    lockstep and C-model cycles/s per block
# BLK_SEED=<n> changes the first seed; BLOCKS="a b" restricts the blocks.

.PHONY: test-blocks mutants mutants-tb lint coverage code-coverage synth test-synth-drift bench-blocks \
        synth-baseline

test-blocks: deps
	@bash tb/blocks.sh test

mutants: mutants-tb

mutants-tb: deps
	@bash tb/blocks.sh mutants

lint: deps
	@bash tb/blocks.sh lint

bench-blocks: deps
	@mkdir -p $(BUILD)
	@bash -o pipefail -c 'bash tb/blocks.sh bench | tee $(BUILD)/bench-blocks.txt'

COVERAGE_DIR = $(BUILD)/coverage
coverage: deps $(CLI)
	@mkdir -p $(COVERAGE_DIR)
	@python3 tests/coverage/coverage.py suite $(CLI) tests/coverage/plan.txt $(COVERAGE_DIR)/suite small
	@bash tests/coverage/tb-cover.sh $(COVERAGE_DIR)/tb
	@COVERAGE_PLAN=tests/coverage/plan.txt python3 tests/coverage/coverage.py page \
	  $(COVERAGE_DIR)/suite $(COVERAGE_DIR)/tb docs/blocks/coverage.md
	@COVERAGE_PLAN=tests/coverage/plan.txt python3 tests/coverage/coverage.py reached \
	  $(COVERAGE_DIR)/suite tests/coverage/reached.txt

code-coverage: deps
	@bash tb/coverage.sh

synth: deps
	@python3 synth/cells.py synth/nand2eq.lib synth/nand2eq_cells.v
	@bash synth/synth.sh $(BUILD)/synth
	@bash synth/bound.sh $(BUILD)/synth/bound > $(BUILD)/synth/capt_bound.md
	@python3 synth/area.py report $(BUILD)/synth/area.json docs/area.md

test-synth-drift: synth
	@python3 synth/area.py check $(BUILD)/synth/area.json synth/area-baseline.json

# Re-baselines after an intended area change (commit the result).
synth-baseline: synth
	@python3 synth/area.py baseline $(BUILD)/synth/area.json synth/area-baseline.json

bench: bench-blocks

TEST_TARGETS += lint test-blocks mutants-tb test-synth-drift
