# One table per concept, and the layering the build enforces.
#   make gen-stats    regenerate the statistics structs of include/lockstep.h
#                     and the tables of docs/stats.md from csim/api/stats.def
#   make test-gen     the committed generated text is current, no config
#                     choice is compared with a number (each check shown to
#                     catch a fault)
#   make test-layers  the link-level calls between csim/ modules follow
#                     tools/layers.txt, every ls_* function is in csim/api
#                     (an injected back edge is caught)
.PHONY: gen-stats test-gen test-layers
TEST_TARGETS += test-gen test-layers

GEN_STATS := $(BUILD)/tools/gen-stats

$(GEN_STATS): tools/gen-stats.c csim/api/stats.def include/lockstep_blocks.def | deps
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) -O1 -I. -Iinclude -Icsim -o $@ $<

gen-stats: $(GEN_STATS)
	@bash tools/gen-check.sh --write $(GEN_STATS) $(BUILD)/gen-stats

test-gen: $(GEN_STATS)
	@bash tools/gen-check.sh --check $(GEN_STATS) $(BUILD)/gen-stats

test-layers: $(LIB) $(CLI) $(CUDART_SO)
	@CC="$(CC)" python3 tools/layers.py $(BUILD) --selftest
