# Golden-model diffing (docs/golden.md).
#   make test-diff      lockstep diff on statistics files from real small
#                       runs: identical runs, a timing change, --tol, --only,
#                       result changes, added keys, the three formats, bad
#                       input (tests/regress/diff.sh)
.PHONY: test-diff
TEST_TARGETS += test-diff

test-diff: $(CLI)
	@bash tests/regress/diff.sh $(CLI)
