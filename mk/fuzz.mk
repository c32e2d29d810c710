# PTX front-end fuzzing (clang libFuzzer + ASan + UBSan).
#   make fuzz        fuzz for FUZZ_SECONDS (default 300)
#   make test-fuzz   60 s run, part of `make test`; fails on any crash
# Seed corpus: tests/ptx/*.ptx, tests/devrt/*.ptx and workloads/*/*.ptx.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 300
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_BIN     := $(FUZZ_DIR)/fuzz_ptx
FUZZ_SRCS    := tests/fuzz/fuzz_ptx.c $(sort $(wildcard csim/ptx/*.c))
FUZZ_FLAGS   := -std=c11 -g -O1 -fno-omit-frame-pointer \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
                -D_POSIX_C_SOURCE=200809L -I. -Iinclude -Icsim

.PHONY: fuzz test-fuzz fuzz-corpus
TEST_TARGETS += test-fuzz

$(FUZZ_BIN): $(FUZZ_SRCS) $(wildcard csim/ptx/*.h csim/ptx/*.def) | deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(FUZZ_SRCS)

fuzz-corpus:
	@mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/artifacts
	@cp -f $(wildcard tests/ptx/*.ptx) $(wildcard tests/devrt/*.ptx) $(wildcard workloads/*/*.ptx) $(FUZZ_DIR)/corpus/ 2>/dev/null || true

fuzz: $(FUZZ_BIN) fuzz-corpus
	$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
	  -rss_limit_mb=2048 -artifact_prefix=$(FUZZ_DIR)/artifacts/ \
	  -dict=tests/fuzz/ptx.dict $(FUZZ_DIR)/corpus

test-fuzz: $(FUZZ_BIN) fuzz-corpus
	$(FUZZ_BIN) -max_total_time=60 -max_len=65536 -timeout=10 \
	  -rss_limit_mb=2048 -artifact_prefix=$(FUZZ_DIR)/artifacts/ \
	  -dict=tests/fuzz/ptx.dict $(FUZZ_DIR)/corpus
	@echo "test-fuzz: 60 s of fuzzing ptx_parse without a crash"
