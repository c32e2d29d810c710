# The CUDA runtime library: build/libcudart.so.13 (and libcudart.so), the
# CUDA runtime API over liblockstep for programs built with
# `nvcc -cudart shared` (docs/cuda-programs.md).
#   make cudart       build the library (part of `make`)
#   make test-cuda    tests/cuda: our CUDA programs, every workload's kernel
#                     through a CUDA host program, bad use (without nvcc:
#                     the committed class programs of tests/cuda/bin only)
#   make test-cuda-env  every LOCKSTEP_* variable (LOCKSTEP_COSIM=all: every
#                     block in lockstep) on a program built without nvcc
#   make cudart-doc   the supported-call and device-attribute tables of
#                     docs/cuda-programs.md from csim/cudart/*.def
# The library links position-independent copies of liblockstep's objects
# (build/pic/), every symbol hidden but the CUDA entry points
# (csim/cudart/cudart.map).
.PHONY: cudart test-cuda test-cuda-env cudart-doc
TEST_TARGETS += test-cuda test-cuda-env

CUDART_SO   := $(BUILD)/libcudart.so.13
CUDART_SRCS := $(sort $(wildcard csim/cudart/*.c))
CUDART_PIC  := $(patsubst %.c,$(BUILD)/pic/%.o,$(CUDART_SRCS) $(LIB_SRCS)) \
                 $(BUILD)/pic/gen/cfg_blobs.o
ALL_TARGETS += $(CUDART_SO)

cudart: $(CUDART_SO)

$(BUILD)/pic/csim/cosim/%.o: CFLAGS += -DLS_SRC_ROOT='"$(CURDIR)"'

$(BUILD)/pic/%.o: %.c | deps $(CFG_ENUMS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@

$(BUILD)/pic/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@

$(CUDART_SO): $(CUDART_PIC) csim/cudart/cudart.map
	$(CC) $(LDFLAGS) -shared -Wl,-soname,libcudart.so.13 \
	  -Wl,--version-script=csim/cudart/cudart.map -Wl,-z,defs \
	  -o $@ $(CUDART_PIC) $(LDLIBS) -lpthread
	ln -sf libcudart.so.13 $(BUILD)/libcudart.so

test-cuda: $(CLI) $(CUDART_SO)
	@bash tests/cuda/run.sh $(CLI) "$(NVCC)"

test-cuda-env: $(CLI) $(CUDART_SO)
	@CC="$(CC)" bash tests/cuda/env/run.sh $(CLI)

cudart-doc:
	@python3 tools/cudart-doc.py

-include $(shell find $(BUILD)/pic -name '*.d' 2>/dev/null)
