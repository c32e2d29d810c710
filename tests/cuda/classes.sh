# tests/cuda/classes.sh, sourced by run.sh: the programs of the behaviour
# classes real CUDA programs rely on (docs/cuda-programs.md), each run in
# functional and timing mode, and the injected faults that show their
# checks can fail. Where nvcc is, run.sh builds them into build/cuda/ and
# checks that tests/cuda/bin/ (the binaries used without nvcc, made by
# tests/cuda/mkbin.sh) was built from the same sources.
# shellcheck shell=bash
class_progs=(limits devmem atomics_half barrier_exit events memcheck arrays graphs graph_nodes race longrun coop threads zerocopy hostwait pools)
nclasses=${#class_progs[@]}

run() {    # run NAME [exec options] -- ARGS: PASS line and exit 0 expected
  local p=$1; shift
  local bin=${dir:-$out}/$p
  if ! [ -x "$bin" ]; then fail "$p: did not build: $(tail -5 "$out/$p.log" 2>/dev/null)"; return; fi
  local args=() a
  for a in "$@"; do [ "$a" = "@BIN@" ] && a=$bin; args+=("$a"); done
  if ! "$cli" exec --quiet "${args[@]}" > "$out/$p.out" 2> "$out/$p.err" ||
     ! grep -q "^PASS " "$out/$p.out"; then
    fail "$p ($*): $(grep -m1 FAIL "$out/$p.out") $(head -3 "$out/$p.err")"
  fi
}

classes_run() {   # classes_run DIR: every class program of DIR, both modes
  local dir=$1 m
  for m in functional timing; do
    # limits: the gtx480's, then a GPU with opt-in shared memory
    run limits --mode "$m" --config gtx480 -- @BIN@ 1024 49152 49152 32768
    run limits --mode "$m" --set shared_per_sm=98304 --set max_shared_per_cta_optin=65536 \
      --set max_threads_per_cta=512 --set max_regs_per_cta=16384 -- @BIN@ 512 49152 65536 16384
    # device memory: the configured sizes; a host budget below what is touched
    run devmem --mode "$m" --config gtx480 -- @BIN@ 1536
    run devmem --mode "$m" --config fx5800 -- @BIN@ 4096
    run devmem --mode "$m" --set host_mem_limit=67108864 -- @BIN@ 1536 128
    # half-precision atomics: CUDA's rounding, atomicity (an injected
    # rounding fault, .rz in atom_apply, fails it at "native bf16 atomics")
    run atomics_half --mode "$m" -- @BIN@
    # barriers after some threads exited (the model before it deadlocked:
    # "barrier 0 reached by 167 of 256 threads")
    run barrier_exit --mode "$m" -- @BIN@
    # event times: an estimate in functional mode (0 ms before), cycles in
    # timing mode
    run events --mode "$m" -- @BIN@
    # memcheck: error stops, warn names each site once (.cu line from
    # -lineinfo) and goes on, off goes on silently
    local mc
    for mc in error warn off; do
      run memcheck --mode "$m" --memcheck "$mc" -- @BIN@ "$mc"
      cp "$out/memcheck.err" "$out/memcheck.$m.$mc.err"
    done
    # (4 sites: the off-by-one's store and load, the halo past the last
    # buffer and the one before the first, in the page below the heap)
    [ "$(grep -c "memcheck out-of-bounds" "$out/memcheck.$m.warn.err")" = 4 ] &&
      grep -q "memcheck.cu:20), global 0x" "$out/memcheck.$m.warn.err" &&
      grep -q "memcheck.cu:32), global 0xffffc00" "$out/memcheck.$m.warn.err" ||
      fail "memcheck ($m): warn should name 4 sites once each with their .cu lines: $(head -5 "$out/memcheck.$m.warn.err")"
    ! grep -q "memcheck out-of-bounds" "$out/memcheck.$m.off.err" ||
      fail "memcheck ($m): off reported a finding"
    # textures and surfaces on CUDA arrays (the programming guide's code)
    run arrays --mode "$m" -- @BIN@
    # CUDA graphs: capture, fork/join, explicit nodes in dependency order
    # (an injected fault running nodes in creation order fails it)
    run graphs --mode "$m" -- @BIN@
    # CUDA 12 graph nodes: cudaGraphAddNode, node parameters, memory nodes,
    # conditional if/else, while and switch set by cudaGraphSetConditional
    # (a while node running its body once fails it at "while from 10")
    run graph_nodes --mode "$m" -- @BIN@
    # the long-run programs (CUB block scan, math functions, a graph), small
    run longrun --mode "$m" -- @BIN@ 1
    # cooperative launches: grid.sync() across every CTA of the grid
    run coop --mode "$m" -- @BIN@
    # CUDA calls from several host threads
    run threads --mode "$m" -- @BIN@
    # mapped pinned and registered host memory shared with the kernels
    run zerocopy --mode "$m" -- @BIN@
    # a kernel waiting for the host: released before the launch it runs;
    # released after it, it stops at the instruction budget (a small one
    # here) and the runtime names the host-mapped argument
    run hostwait --mode "$m" --set max_warp_insts=1000000 -- @BIN@
    grep -q "reads host memory mapped into the device (argument 0, " "$out/hostwait.err" ||
      fail "hostwait ($m): no message naming the host-mapped argument: $(head -3 "$out/hostwait.err")"
    # stream-ordered allocation and memory pools
    run pools --mode "$m" -- @BIN@
  done
  # the progress line (kernel, launch, CTAs done); LOCKSTEP_PROGRESS=now
  # skips the 2 s wait, so the check does not depend on the host's speed
  LOCKSTEP_PROGRESS=now "$cli" exec --quiet --mode functional -- "$dir/longrun" 40 \
    > "$out/longrun.prog" 2>&1
  tr '\r' '\n' < "$out/longrun.prog" |
    grep -q "^\[lockstep\] .*, launch [0-9]*: CTAs [0-9]*/[0-9]*, [0-9.]* M warp insts" ||
    fail "longrun: no progress line under LOCKSTEP_PROGRESS=now: $(tail -c 300 "$out/longrun.prog")"
  # a race a GPU's schedule hides: timing mode and the interleaved
  # functional schedule pass; the block schedule exposes it, exec points to
  # racecheck, and racecheck names the two accesses
  run race --mode timing -- @BIN@
  run race --mode functional --schedule interleave -- @BIN@
  if "$cli" exec --mode functional --schedule block -- "$dir/race" > "$out/race.block" 2>&1 ||
     ! grep -q "^FAIL race" "$out/race.block" ||
     ! grep -q "exited with status 1.*--check racecheck.*--schedule interleave" "$out/race.block"; then
    fail "race: the block schedule should expose the race and exec point to racecheck: $(tail -2 "$out/race.block")"
  fi
  "$cli" exec --mode functional --check racecheck -- "$dir/race" > "$out/race.rc" 2>&1
  grep -q "racecheck write-after-read.*race.cu:16.*race.cu:23" "$out/race.rc" ||
    fail "race: racecheck did not name the race: $(grep -m1 racecheck "$out/race.rc")"
  # injected fault: a program expecting warn's behaviour under error fails
  if "$cli" exec --quiet -- "$dir/memcheck" warn > "$out/memcheck.inj" 2>&1; then
    fail "memcheck: error mode went on past the end of an allocation"
  fi
  # injected faults: the programs must notice other limits than they were told
  if "$cli" exec --quiet --config gtx480 -- "$dir/devmem" 1024 > "$out/devmem.inj" 2>&1; then
    fail "devmem: a wrong device memory size went unnoticed"
  fi
  if "$cli" exec --quiet --set host_mem_limit=268435456 -- "$dir/devmem" 1536 128 \
       > "$out/devmem.inj2" 2>&1; then
    fail "devmem: a run within its host budget was reported as over it"
  fi
  if "$cli" exec --quiet --config gtx480 -- "$dir/limits" 1024 49152 65536 32768 \
       > "$out/limits.inj" 2>&1; then
    fail "limits: a wrong opt-in limit went unnoticed"
  fi
}

classes_fresh() {  # the committed binaries were built from these sources
  local p want got
  for p in "${class_progs[@]}"; do
    want=$(cat "$root/tests/cuda/$p.cu" "$root/tests/cuda/ck.h" | sha256sum | cut -c1-64)
    got=$(sed -n "s/^\([0-9a-f]*\)  $p\$/\1/p" "$root/tests/cuda/bin/SOURCES" 2>/dev/null)
    [ "$want" = "$got" ] ||
      fail "tests/cuda/bin/$p is not built from tests/cuda/$p.cu (run tests/cuda/mkbin.sh)"
  done
}
