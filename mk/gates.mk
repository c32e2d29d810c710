# Signing a block off (docs/cosim.md, "Signing a block off"): its gates
# behave like its RTL, its RTL like the golden model on real kernels, and
# the kernels cover its behaviour.
#   make run-gates      the suite at small size with every block's
#                       gate-level netlist in the loop (netlist backend)
#   make equiv          RTL == netlist for every shipped parameter set
#                       (synth/shipped.txt), and the one-gate mutants of
#                       tests/gates/mutants.txt fail the proof and the loop
#   make equiv-proofs   the proofs alone; make equiv-mutants the mutants
#   make test-gates     (make test) the cell models are current, the SLP
#                       netlist runs clean in the loop, its mutant stops a
#                       run with exit 3, and its equivalence is proven
#   make test-coverage  (make test) every bin tests/coverage/reached.txt
#                       lists is still reached by its run (and a list
#                       claiming a bin no kernel reaches fails the check)
#   make coverage       (mk/blocks.mk) the coverage page
.PHONY: run-gates equiv equiv-proofs equiv-mutants test-gates test-coverage

RUN_GATES_SET = --config gtx480 --set lamar.gdu=bgp --set gscalar.compress=on \
  --set simt.compaction=capri --set slp.permutation=balanced

run-gates: deps $(CLI)
	$(CLI) run all --size small --cosim all --backend netlist $(RUN_GATES_SET) --table

equiv: deps $(CLI)
	@bash tests/gates/equiv.sh $(CLI) all

equiv-proofs: deps $(CLI)
	@bash tests/gates/equiv.sh $(CLI) proofs

equiv-mutants: deps $(CLI)
	@bash tests/gates/equiv.sh $(CLI) mutants

test-gates: deps $(CLI)
	@bash tests/gates/test-gates.sh $(CLI)

test-coverage: $(CLI)
	@python3 tests/coverage/coverage.py check $(CLI) tests/coverage/plan.txt \
	  tests/coverage/reached.txt small
	@python3 tests/coverage/coverage.py selftest $(CLI) tests/coverage/plan.txt \
	  tests/coverage/reached.txt small

TEST_TARGETS += test-gates test-coverage
