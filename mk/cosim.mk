# RTL in the loop (docs/cosim.md): the GPU model drives the Verilated
# blocks through the seam in csim/cosim.
#   make test-cosim     backends agree on every workload, mutant caught,
#                       replay, JUnit, bad-input errors (tests/regress/cosim.sh)
#   make mutants-loop   every RTL mutant of a block in the loop is caught
#                       by a real workload run (also run by make mutants)
.PHONY: test-cosim mutants-loop
TEST_TARGETS += test-cosim mutants-loop

test-cosim: $(CLI)
	@bash tests/regress/cosim.sh $(CLI)

mutants-loop: $(CLI)
	@bash tests/regress/cosim-mutants.sh $(CLI)

mutants: mutants-loop
