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

# Runtime PTX fuzzing under ASan + UBSan (tests/fuzz/fuzz_run.c): mutated
# workload PTX run in both modes; a crash, a sanitizer report or a model
# disagreement fails. FUZZ_RUN_ITERS iterations from FUZZ_RUN_SEED.
.PHONY: test-fuzz-run fuzz-run
TEST_TARGETS += test-fuzz-run
FUZZ_RUN_ITERS ?= 150
FUZZ_RUN_SEED ?= 1
ASAN_FLAGS := BUILD=build/asan OPT="-O1 -g -fno-omit-frame-pointer" \
              SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
FUZZ_RUN_BIN := build/asan/fuzz_run

$(FUZZ_RUN_BIN): tests/fuzz/fuzz_run.c FORCE
	@mkdir -p build
	@flock build/.asan.lock $(MAKE) --no-print-directory $(ASAN_FLAGS) \
	  build/asan/liblockstep.a build/asan/libworkloads.a
	$(CC) -std=c11 $(WARN) -O1 -g -fno-omit-frame-pointer \
	  -fsanitize=address,undefined -fno-sanitize-recover=all -D_POSIX_C_SOURCE=200809L \
	  -I. -Iinclude -Icsim -Ibuild/asan/gen -o $@ $< build/asan/libworkloads.a \
	  build/asan/liblockstep.a $(LDLIBS)
.PHONY: FORCE
FORCE:

test-fuzz-run: $(FUZZ_RUN_BIN)
	@mkdir -p $(BUILD)/fuzz-run; TMPDIR=$(BUILD)/fuzz-run \
	  $(FUZZ_RUN_BIN) --iters $(FUZZ_RUN_ITERS) --seed $(FUZZ_RUN_SEED) \
	  --save $(BUILD)/fuzz-run >$(BUILD)/fuzz-run/log.txt 2>&1; rc=$$?; \
	  grep -E "MEMORY DIFFERS|ERROR|runtime error" $(BUILD)/fuzz-run/log.txt | head -20; \
	  tail -2 $(BUILD)/fuzz-run/log.txt; \
	  [ $$rc = 0 ] || echo "test-fuzz-run: failed (exit $$rc); each line starts with the seed: fuzz_run --iters 1 --seed S reproduces it; log $(BUILD)/fuzz-run/log.txt"; \
	  exit $$rc

# a longer run: make fuzz-run FUZZ_RUN_ITERS=5000 FUZZ_RUN_SEED=12345
fuzz-run: test-fuzz-run

# Inputs a user can hit (tests/regress/limits.sh) and a memcheck slice.
.PHONY: test-limits valgrind
TEST_TARGETS += test-limits valgrind
VALGRIND := valgrind -q --error-exitcode=1 --leak-check=full \
            --errors-for-leak-kinds=definite,indirect

test-limits: $(CLI)
	@bash tests/regress/limits.sh $(CLI)

# every workload (small) in both modes and the API unit tests under
# valgrind memcheck: zero errors, no definite or indirect leak
valgrind: $(CLI) $(BUILD)/tests/test_api $(BUILD)/tests/test_harden
	@$(VALGRIND) $(CLI) run all --size small --table >/dev/null
	@$(VALGRIND) $(CLI) run all --size small --mode functional --table >/dev/null
	@$(VALGRIND) $(BUILD)/tests/test_api >/dev/null
	@$(VALGRIND) $(BUILD)/tests/test_harden >/dev/null
	@echo "valgrind: memcheck clean (every workload, small, both modes; test_api; test_harden)"
