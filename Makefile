# Lockstep top-level Makefile.
#   make            build build/lockstep and build/liblockstep.a
#   make run        run the default workload suite (every block in lockstep)
#   make test       everything CI checks (installs Debian deps first)
# Fragments in mk/*.mk add block/RTL targets and append to TEST_TARGETS.

# every core unless the caller chose -jN (a fresh clone's `make run` builds
# in parallel); `make -j1` keeps the serial order; a sub-make inherits the
# jobserver (setting -j there again would multiply the jobs)
ifeq ($(MAKELEVEL)$(filter -j% j%,$(MAKEFLAGS)),0)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif

BUILD   ?= build
CC      := gcc
CXX     := g++
WARN    := -Wall -Wextra -Wshadow -Wmissing-prototypes
ifeq ($(WERROR),1)
WARN    += -Werror
endif
OPT     ?= -O2 -g
SAN     ?=
# the POPCNT instruction where the host has it: without it every lane-mask
# popcount is a libgcc call (__popcountdi2), about 1% of a timing run;
# it adds no other instruction set (floating point is unchanged)
ARCH    ?= $(shell grep -qw popcnt /proc/cpuinfo 2>/dev/null && echo -mpopcnt)
CFLAGS  := -std=c11 $(WARN) $(OPT) $(ARCH) $(SAN) -D_POSIX_C_SOURCE=200809L \
           -I. -Iinclude -Icsim -I$(BUILD)/gen -MMD -MP
LDFLAGS := $(SAN)
LDLIBS  := -lm -ldl

LIB     := $(BUILD)/liblockstep.a
CLI     := $(BUILD)/lockstep
WLLIB   := $(BUILD)/libworkloads.a
# generated from csim/cfg/cfg_keys.def; every object waits for it
CFG_ENUMS := $(BUILD)/gen/cfg_enums.h

LIB_SRCS  := $(sort $(shell find csim -name '*.c' -not -path 'csim/cli/*' -not -path 'csim/cudart/*'))
CLI_SRCS  := $(sort $(wildcard csim/cli/*.c))
WL_SRCS   := $(sort $(wildcard workloads/*.c workloads/*/*.c))
WL_PTX    := $(sort $(wildcard workloads/*/*.ptx))
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
LIB_OBJS  := $(call obj,$(LIB_SRCS)) $(BUILD)/obj/gen/cfg_blobs.o
CFG_FILES := $(sort $(wildcard configs/*.conf))
CLI_OBJS  := $(call obj,$(CLI_SRCS))
WL_META   := workloads/papers.tsv workloads/categories.tsv
WL_OBJS   := $(call obj,$(WL_SRCS)) $(BUILD)/obj/gen/wl_ptx.o $(BUILD)/obj/gen/wl_registry.o \
             $(BUILD)/obj/gen/wl_meta.o
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))

# Targets the fragments extend.
TEST_TARGETS := test-unit test-workloads test-asan
ALL_TARGETS  := $(LIB) $(CLI)

.PHONY: all deps run replay opcodes-ptx test test-unit test-workloads test-asan test-times bench ptx clean
default: all

-include mk/*.mk

all: $(ALL_TARGETS)

deps:
	@bash mk/deps.sh

# the seam finds rtl/ and tb/vl-so.sh here unless LOCKSTEP_ROOT says otherwise
$(BUILD)/obj/csim/cosim/%.o: CFLAGS += -DLS_SRC_ROOT='"$(CURDIR)"'

$(BUILD)/obj/%.o: %.c | deps $(CFG_ENUMS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(WLLIB): $(WL_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(CLI): $(CLI_OBJS) $(WLLIB) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(WLLIB) $(LIB) $(LDLIBS)

# The enums of the config's choice keys (CFG_AFFINE_MODE_DAC, ...), from
# the key table: csim/cfg/cfg.h includes them.
$(BUILD)/tools/cfg-enums: tools/cfg-enums.c csim/cfg/cfg_keys.def include/lockstep_blocks.def | deps
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) -O1 -I. -Iinclude -Icsim -o $@ $<

$(CFG_ENUMS): $(BUILD)/tools/cfg-enums
	@mkdir -p $(dir $@)
	$(BUILD)/tools/cfg-enums $@

# Committed PTX is embedded in the CLI so it runs from any directory.
$(BUILD)/tools/bin2c: tools/bin2c.c | deps
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) -O2 -o $@ $<

$(BUILD)/gen/wl_ptx.c: $(BUILD)/tools/bin2c $(WL_PTX)
	@mkdir -p $(dir $@)
	$(BUILD)/tools/bin2c $@ $(WL_PTX)

# Paper-table rows and measured categories of the workloads (list --long,
# run @divergent).
$(BUILD)/gen/wl_meta.c: $(BUILD)/tools/bin2c $(WL_META)
	@mkdir -p $(dir $@)
	$(BUILD)/tools/bin2c --table wl_meta_blobs --struct wl_ptx_blob \
	  --header workloads/wl_ptx.h $@ $(WL_META)

# Shipped configs are embedded in the library: --config NAME works anywhere.
$(BUILD)/gen/cfg_blobs.c: $(BUILD)/tools/bin2c $(CFG_FILES)
	@mkdir -p $(dir $@)
	$(BUILD)/tools/bin2c --table gpu_cfg_blobs --struct gpu_cfg_blob \
	  --header gpu/gpu_cfgblobs.h $@ $(CFG_FILES)

# The registry lists every `const struct workload wl_def_NAME` in WL_SRCS,
# so adding a workload never edits a shared file.
$(BUILD)/gen/wl_registry.c: $(WL_SRCS) tools/gen-registry.sh
	@mkdir -p $(dir $@)
	bash tools/gen-registry.sh $@ $(WL_SRCS)

$(BUILD)/tests/%: tests/unit/%.c $(WLLIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(WLLIB) $(LIB) $(LDLIBS) -lcmocka

# every block the GPU clocks runs against its Verilated RTL, compared on
# every edge; the per-block figures print under the table (G-Scalar's
# register-file compression on, so the RVC blocks see every write-back and
# operand read: docs/gscalar.md). Workloads run side by side, one per core
# (JOBS=N to choose; JOBS=1 runs them one after another).
# (make bench times the same settings: RUN_FLAGS)
RUN_FLAGS = --mode timing --config gtx480 --set lamar.gdu=bgp --set gscalar.compress=on \
  --set simt.compaction=capri --set slp.permutation=balanced
run: deps $(CLI)
	$(CLI) run all $(RUN_FLAGS) --cosim all --table$(if $(JOBS), --jobs $(JOBS))

# re-runs a block trace written on a mismatch: make replay TRACE=build/fail/...
replay: deps $(CLI)
	@test -n "$(TRACE)" || { echo "usage: make replay TRACE=build/fail/RUN/INSTANCE.trace [FST=out.fst]"; exit 2; }
	$(CLI) replay $(TRACE) $(if $(FST),--fst $(FST))

# The test groups are independent: run them TEST_JOBS at a time, each
# group's output kept together (--output-sync).
TEST_JOBS ?= 2
test: deps
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target $(TEST_TARGETS)
	@echo "make test: $(words $(TEST_TARGETS)) passed, 0 failed"

test-unit: $(UNIT_BINS)
	@bash tests/run-unit.sh $(UNIT_BINS)

test-workloads: $(CLI)
	@bash tests/regress/workloads.sh $(CLI)

# The unit and workload suites again under AddressSanitizer + UBSan.
# (flock: test-fuzz-run builds in build/asan too; never both at once)
test-asan: deps
	@mkdir -p build
	WL_SIZES="small default" flock build/.asan.lock $(MAKE) BUILD=build/asan \
	  OPT="-O1 -g -fno-omit-frame-pointer" \
	  SAN="-fsanitize=address,undefined -fno-sanitize-recover=all" \
	  test-unit test-workloads

# Each test group alone, timed (longest first): which one to shorten.
test-times: deps
	@bash tools/test-times.sh $(TEST_TARGETS)

bench: deps $(CLI)
	@RUN_FLAGS="$(RUN_FLAGS)" bash tests/bench.sh $(CLI) $(BUILD)/bench.json

# Regenerates committed PTX where nvcc exists.
NVCC ?= $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
ptx:
	@bash tools/make-ptx.sh "$(NVCC)"

# Regenerates tests/ptx/all_opcodes.ptx (every opcode string of the PTX
# census) from the spec: make opcodes-ptx SPEC=path/to/ptx-coverage.md
opcodes-ptx:
	@test -n "$(SPEC)" || { echo "make opcodes-ptx SPEC=path/to/ptx-coverage.md (the shared spec's PTX census)" >&2; exit 2; }
	cd tests/ptx && python3 gen_all_opcodes.py $(abspath $(SPEC))

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
