# The papers' programs from public benchmark suites (docs/suites.md).
#   make test-suites   the harness (tools/suite.py, the sweep's programs axis)
#                      on the mini suite of our own (tests/suites/): prebuilt
#                      binaries, and the build through nvcc when there is one
.PHONY: test-suites
TEST_TARGETS += test-suites

test-suites: $(CLI) $(CUDART_SO)
	@LOCKSTEP=$(CLI) $(PY) tests/suites/test_suites.py

# The results pages' "papers' programs" sections (docs/suites.md):
#   make programs-NAME   runs experiments/programs/NAME.toml on the suites
#                        built in build/suites (tools/suite.py build) into
#                        build/programs/NAME, exports the statistics the page
#                        needs to docs/results/NAME-programs.json and rewrites
#                        the section of docs/results/NAME.md from it
# A sweep whose points did not all pass still makes a section (a failing
# program is a result); a bad spec or an unbuilt suite stops it.
PROGRAM_PAGES := $(patsubst experiments/programs/%.toml,%,$(wildcard experiments/programs/*.toml))
.PHONY: $(addprefix programs-,$(PROGRAM_PAGES))

$(addprefix programs-,$(PROGRAM_PAGES)): programs-%: $(CLI) $(CUDART_SO) deps-plot
	$(PY) tools/sweep.py experiments/programs/$*.toml --out $(BUILD)/programs/$* \
	  --lockstep $(CLI) $(SWEEP_FLAGS); test $$? -le 1
	$(PY) experiments/$*.py --programs $(BUILD)/programs/$* docs/results
