# Invariants of the divergence mechanisms (docs/dpe.md, docs/compaction.md):
# DPE equals single-path execution where no branch diverges (or none is
# interleavable), compaction costs nothing where no branch is, capri
# nothing where none diverges and no warp waits ahead, and ideal never
# needs more warps than TBC (tests/regress/divergence.sh, small suite).
.PHONY: test-divergence
TEST_TARGETS += test-divergence

test-divergence: $(CLI)
	@bash tests/regress/divergence.sh $(CLI)
# The results pages of the divergence chapters read their size studies:
# make experiments-compaction runs experiments-compaction_size and
# experiments-compaction_more (permutations, CAPT histories and sizes) first, and
# make experiments-dpe runs experiments-dpe_size (docs/results/compaction.md,
# docs/results/dpe.md).
experiments-compaction: experiments-compaction_size experiments-compaction_more
experiments-dpe: experiments-dpe_size
