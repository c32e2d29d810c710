# Invariants of the divergence mechanisms (docs/dpe.md, docs/compaction.md):
# DPE equals single-path execution where no branch diverges (or none is
# interleavable), compaction costs nothing where no branch is, capri
# nothing where none diverges and no warp waits ahead, and ideal never
# needs more warps than TBC (tests/regress/divergence.sh, small suite).
.PHONY: test-divergence
TEST_TARGETS += test-divergence

test-divergence: $(CLI)
	@bash tests/regress/divergence.sh $(CLI)
