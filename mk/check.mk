# `lockstep check` over many files (docs/user-guide.md, check).
#   make test-check     directories and lists of files, one line per file
#                       that does not load, the summary, --json, exit status
#                       (tests/regress/check.sh)
.PHONY: test-check
TEST_TARGETS += test-check

test-check: $(CLI)
	@bash tests/regress/check.sh $(CLI)
