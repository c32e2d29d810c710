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
