# Decoupled affine computation (issue 19; docs/dac.md).
#   make test-dac        `lockstep check --affine` on a file, a workload,
#                        --json, --kernel and errors (tests/regress/affine.sh)
#   make affine-table    the static affine classes of every workload into
#                        docs/dac.md (tools/affine-table.py)
.PHONY: test-dac affine-table
TEST_TARGETS += test-dac

test-dac: $(CLI)
	@bash tests/regress/affine.sh $(CLI)

affine-table: $(CLI)
	python3 tools/affine-table.py $(CLI) docs/dac.md
