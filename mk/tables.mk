# One table per concept, and the layering the build enforces.
#   make gen-stats    regenerate the statistics structs of include/lockstep.h
#                     and the tables of docs/stats.md from csim/api/stats.def
#   make test-gen     the committed generated text is current (and the check
#                     catches a stale copy)
.PHONY: gen-stats test-gen
TEST_TARGETS += test-gen

GEN_STATS := $(BUILD)/tools/gen-stats

$(GEN_STATS): tools/gen-stats.c csim/api/stats.def include/lockstep_blocks.def | deps
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) -O1 -I. -Iinclude -Icsim -o $@ $<

gen-stats: $(GEN_STATS)
	@bash tools/gen-check.sh --write $(GEN_STATS) $(BUILD)/gen-stats

test-gen: $(GEN_STATS)
	@bash tools/gen-check.sh --check $(GEN_STATS) $(BUILD)/gen-stats
