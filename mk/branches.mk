# Branch classes: P/D by taint analysis (docs/branch-classes.md).
#   make test-branches   `lockstep branches` on files, workloads, --json,
#                        errors (tests/regress/branches.sh)
#   make branch-table    the P/D counts of every workload into
#                        docs/branch-classes.md (tools/branch-table.py)
#   make taint-ptx       regenerates the -lineinfo compiles the unit test
#                        finds branches in by .cu line (needs nvcc)
.PHONY: test-branches branch-table taint-ptx
TEST_TARGETS += test-branches

test-branches: $(CLI)
	@bash tests/regress/branches.sh $(CLI)

branch-table: $(CLI)
	python3 tools/branch-table.py $(CLI) docs/branch-classes.md

TAINT_PTX_WL := bfs sortnet mandelbrot
taint-ptx:
	@test -n "$(NVCC)" || { echo "taint-ptx: nvcc not found (NVCC=path)" >&2; exit 2; }
	@for w in $(TAINT_PTX_WL); do \
	  o=tests/ptx/taint_$${w}_lineinfo.ptx; \
	  "$(NVCC)" -ptx -arch=sm_75 -O3 -lineinfo -o $$o workloads/$$w/$$w.cu && \
	  sed -i 's|"$(CURDIR)/|"|' $$o || exit 1; echo "taint-ptx: $$o"; done
