# Documentation (docs/README.md is the index of every page).
#   make test-docs   every docs/ page is in the index, every relative link
#                    and every docs/NAME.md named in docs/ and README.md
#                    resolves, no page reads as a journal; and the checker
#                    finds each of those faults in a broken copy
#                    (tools/docs-check.py --selftest)
.PHONY: test-docs
TEST_TARGETS += test-docs

test-docs:
	@python3 tools/docs-check.py
	@python3 tools/docs-check.py --selftest

# The mechanism combination table of docs/architecture.md, generated from
# csim/core/core_mech.def (tools/mech-rules.c):
#   make docs-mech        rewrites it between the mech-rules markers
#   make test-docs-mech   fails when the page differs from the table
.PHONY: docs-mech test-docs-mech
TEST_TARGETS += test-docs-mech
MECH_RULES := $(BUILD)/tools/mech-rules

$(MECH_RULES): tools/mech-rules.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDLIBS)

docs-mech: $(MECH_RULES)
	@python3 tools/docs-block.py docs/architecture.md mech-rules $(MECH_RULES)

test-docs-mech: $(MECH_RULES)
	@python3 tools/docs-block.py --check docs/architecture.md mech-rules $(MECH_RULES)
