# The papers' programs from public benchmark suites (docs/suites.md).
#   make test-suites   the harness (tools/suite.py, the sweep's programs axis)
#                      on the mini suite of our own (tests/suites/): prebuilt
#                      binaries, and the build through nvcc when there is one
.PHONY: test-suites
TEST_TARGETS += test-suites

test-suites: $(CLI) $(CUDART_SO)
	@LOCKSTEP=$(CLI) $(PY) tests/suites/test_suites.py
