# Decoupled affine computation (issue 19; docs/dac.md).
#   make test-dac        `lockstep check --affine` and `lockstep check --dac`
#                        on a file, a workload, --json, --kernel and errors;
#                        the transform's invariants over every workload
#                        (tests/regress/affine.sh, tests/regress/dac.sh);
#                        the DAC hardware in timing mode: every workload
#                        under affine.mode=dac (default and starved dac.*
#                        keys) with memory = functional, every record
#                        checked, fault injection (tests/regress/dac-hw.sh)
#   make affine-table    the static affine classes of every workload into
#                        docs/dac.md (tools/affine-table.py)
#   make dac-table       the static transform of every workload into
#                        docs/dac.md (tools/dac-table.py)
.PHONY: test-dac affine-table dac-table
TEST_TARGETS += test-dac

test-dac: $(CLI)
	@bash tests/regress/affine.sh $(CLI)
	@bash tests/regress/dac.sh $(CLI)
	@bash tests/regress/dac-hw.sh $(CLI)

affine-table: $(CLI)
	python3 tools/affine-table.py $(CLI) docs/dac.md

dac-table: $(CLI)
	python3 tools/dac-table.py $(CLI) docs/dac.md

