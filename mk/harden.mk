# Hardening (no input may crash the model; timing agrees with functional
# mode on every machine shape).
#   make test-configfuzz  4 random valid configurations x every workload
#                         (small): memory = functional mode, no crash/hang
#   make soak             the same over SOAK_CONFIGS (200) configurations
#                         from SOAK_SEED (1000); prints a reproduce command
#                         per failure
.PHONY: test-configfuzz soak
TEST_TARGETS += test-configfuzz
SOAK_CONFIGS ?= 200
SOAK_SEED ?= 1000

test-configfuzz: $(CLI)
	@python3 tests/regress/configfuzz.py $(CLI) --configs 4 --seed 1

soak: $(CLI)
	@python3 tests/regress/configfuzz.py $(CLI) --configs $(SOAK_CONFIGS) --seed $(SOAK_SEED) \
	  --out $(BUILD)/soak
