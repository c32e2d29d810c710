#!/usr/bin/env bash
# tests/cuda/run.sh CLI NVCC (make test-cuda): CUDA programs built with
# nvcc -cudart shared and run by `lockstep exec` on build/libcudart.so.13.
#  1. our programs (tests/cuda/*.cu), each checking its own results, also
#     built with every fat-binary compression nvcc offers;
#  2. every workload's kernel through a CUDA host program (wl_host.c: the
#     workload's own C driver over the CUDA runtime): the statistics JSON
#     must equal `lockstep run NAME --size small` (lockstep diff);
#  3. bad use: unsupported call, unregistered launch, out-of-bounds kernel,
#     static runtime, no PTX, unknown symbol and symbol version;
#  0. the behaviour classes real programs rely on (tests/cuda/classes.sh:
#     limits, device memory, half atomics, barriers after exits, CUDA
#     arrays, graphs, memcheck modes, races, event times, progress), each
#     in both modes; built here where nvcc is, else the committed
#     binaries of tests/cuda/bin/ (tests/cuda/mkbin.sh); CUB and thrust
#     where the toolkit's headers are.
# Each checker is shown to fail on an injected fault. Builds are cached
# under build/cuda/ (rebuilt when a source is newer) and run two at a time.
# Without nvcc only part 0 runs, from the committed binaries.
set -u
cli=${1:?usage: run.sh CLI NVCC}
nvcc=${2:-}
t0=$(date +%s)
root=$(cd "$(dirname "$0")/../.." && pwd)
cli=$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")
out=$(dirname "$cli")/cuda
mkdir -p "$out/wl" "$out/fake"
nvf=(-cudart shared -gencode arch=compute_75,code=compute_75)
fails=0
fail() { echo "FAIL cuda: $*"; fails=$((fails + 1)); }
# the supported-call and attribute tables of the doc are the runtime's own
python3 "$root/tools/cudart-doc.py" --check || fail "docs/cuda-programs.md: stale tables"
if [ -z "$nvcc" ] || ! command -v "$nvcc" >/dev/null 2>&1; then
  # shellcheck source=tests/cuda/classes.sh
  . "$root/tests/cuda/classes.sh"
  classes_run "$root/tests/cuda/bin"
  t2=$(date +%s)
  if [ "$fails" -gt 0 ]; then
    echo "test-cuda: $fails failed (committed binaries; nvcc not found)"
    exit 1
  fi
  echo "test-cuda: $nclasses class programs from tests/cuda/bin passed in both modes" \
       "($((t2 - t0)) s); nvcc not found: the rest skipped (set NVCC=...)"
  exit 0
fi

# ---- builds (cached, two at a time) ----
stale() {  # stale OUT INPUT...: OUT is missing or older than an input
  local o=$1; shift
  [ -e "$o" ] || return 0
  for f in "$@"; do [ "$f" -nt "$o" ] && return 0; done
  return 1
}
bg() {     # bg LOG CMD...: runs CMD in the background, two at a time
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
  local log=$1; shift
  ( "$@" > "$log" 2>&1 || { echo "build failed: $*" >> "$log"; } ) &
}
build() {  # build OUT "INPUTS" NVCC-ARGS...
  local o=$1 ins=$2; shift 2
  # shellcheck disable=SC2086
  stale "$o" $ins "$root/tests/cuda/ck.h" && { rm -f "$o"; bg "$o.log" "$nvcc" "$@" -o "$o"; }
  return 0
}
cu=$root/tests/cuda
for p in symbols managed streams pitch2d texture dynshared device bad_use; do
  build "$out/$p" "$cu/$p.cu" "${nvf[@]}" "$cu/$p.cu"
done
# shellcheck source=tests/cuda/classes.sh
. "$cu/classes.sh"
for p in "${class_progs[@]}"; do
  build "$out/$p" "$cu/$p.cu" "${nvf[@]}" -compress-mode none -lineinfo "$cu/$p.cu"
done
if [ -f "$(dirname "$(command -v "$nvcc")")/../include/cccl/cub/cub.cuh" ] ||
   [ -f "$(dirname "$(command -v "$nvcc")")/../include/cub/cub.cuh" ]; then
  have_cub=1
  build "$out/cub_thrust" "$cu/cub_thrust.cu" "${nvf[@]}" "$cu/cub_thrust.cu"
else
  have_cub=0
fi
build "$out/modules" "$cu/modules_a.cu $cu/modules_b.cu" "${nvf[@]}" "$cu/modules_a.cu" "$cu/modules_b.cu"
build "$out/symbols_none" "$cu/symbols.cu" "${nvf[@]}" -compress-mode none "$cu/symbols.cu"
build "$out/symbols_lz4" "$cu/symbols.cu" "${nvf[@]}" -compress-mode speed "$cu/symbols.cu"
build "$out/symbols_static" "$cu/symbols.cu" -gencode arch=compute_75,code=compute_75 "$cu/symbols.cu"
build "$out/symbols_cubin" "$cu/symbols.cu" -cudart shared -gencode arch=compute_75,code=sm_75 "$cu/symbols.cu"

wls=$(cd "$root/workloads" && ls -d */ | tr -d / | LC_ALL=C sort)
# wl_common.c's wl_has_xlarge reads the drivers' list of xlarge inputs
xl=$out/wl/xlarge.c
bash "$root/tools/gen-registry.sh" --xlarge-only "$xl.new" "$root"/workloads/*/*.c
if cmp -s "$xl.new" "$xl"; then rm "$xl.new"; else mv "$xl.new" "$xl"; fi
for n in $wls; do
  w=$root/workloads/$n
  [ -f "$w/$n.cu" ] && [ -f "$w/$n.c" ] && [ -f "$w/$n.ptx" ] || continue
  t=$out/wl/$n.table.cu
  if stale "$t" "$w/$n.ptx" "$cu/run.sh"; then
    {
      echo "#include \"workloads/$n/$n.cu\""
      echo "struct wl_entity { const char *name; const void *host; };"
      echo "extern \"C\" const struct wl_entity wl_entities[] = {"
      sed -n 's/^\.visible \.entry \([A-Za-z_0-9]*\)(.*/  { "\1", (const void *)\1 },/p' "$w/$n.ptx"
      sed -n 's/^\.const .* \([A-Za-z_][A-Za-z_0-9]*\)\[.*/  { "\1", (const void *)\&\1 },/p' "$w/$n.ptx"
      echo "  { 0, 0 } };"
    } > "$t"
  fi
  build "$out/wl/$n" "$t $w/$n.cu $w/$n.c $cu/wl_host.c $root/workloads/wl_common.c $root/workloads/wl_common.h $root/workloads/workload.h $root/include/lockstep.h $xl" \
    "${nvf[@]}" -O3 -I"$root" -I"$root/include" -DWL_DEF="wl_def_${n//-/_}" \
    "$t" "$cu/wl_host.c" "$w/$n.c" "$root/workloads/wl_common.c" "$xl"
done
wait
t1=$(date +%s)

# ---- 0. the behaviour classes, both modes ----
classes_run "$out"
classes_fresh
if [ "$have_cub" = 1 ]; then
  for m in functional timing; do
    run cub_thrust --mode "$m" -- "$out/cub_thrust"
  done
  # injected fault: a GPU whose CTAs cannot hold CUB's blocks must fail it
  "$cli" exec --quiet --mode functional --set max_shared_per_cta=1024 -- \
    "$out/cub_thrust" > "$out/cub_thrust.inj" 2>&1 &&
    fail "cub_thrust: launches refused by the GPU went unnoticed"
fi

# ---- 1. our programs ----
for p in symbols managed pitch2d texture dynshared modules symbols_none symbols_lz4; do
  run "$p" -- "$out/$p"
done
run device --set num_sms=4 --set core_clock_mhz=1000 -- "$out/device" 4 1000000
# injected fault: the program must notice a wrong SM count
if "$cli" exec --quiet --set num_sms=5 -- "$out/device" 4 1000000 > "$out/device.inj" 2>&1; then
  fail "device: a wrong SM count went unnoticed"
fi
# injected fault: a launch that cannot finish must fail the program
if "$cli" exec --quiet --set max_warp_insts=20 -- "$out/symbols" > "$out/symbols.inj" 2>&1 ||
   ! grep -q "cudaErrorLaunchTimeout" "$out/symbols.inj"; then
  fail "symbols: a failed launch went unnoticed: $(head -2 "$out/symbols.inj")"
fi
# events measure the launches' simulated time: cycles / core clock
run streams --config gtx480 --stats-json "$out/streams.json" -- "$out/streams"
clk=$("$cli" config --config gtx480 --dump | sed -n 's/^core_clock_mhz *= *\([0-9]*\).*/\1/p')
python3 - "$out/streams.json" "$out/streams.out" "$clk" <<'EOF' || fail "streams: event times"
import json, sys
j = json.load(open(sys.argv[1]))
line = [l.split() for l in open(sys.argv[2]) if l.startswith("elapsed_ms")][0]
got_all, got_first = float(line[1]), float(line[3])
khz = float(sys.argv[3]) * 1000.0
c = [l["cycles"] for l in j["launches"]]
want_all, want_first = sum(c) / khz, c[0] / khz
ok = len(c) == 2 and c[0] > 0 and abs(got_all - want_all) <= 1e-6 * want_all and \
     abs(got_first - want_first) <= 1e-6 * want_first
if not ok:
    print("streams: events %g, %g ms; launches %s cycles at %g kHz: want %g, %g"
          % (got_all, got_first, c, khz, want_all, want_first))
sys.exit(0 if ok else 1)
EOF
# functional mode: the documented estimate, ceil(warp insts / (min(CTAs,
# SMs) x schedulers)) cycles per launch at the clock
run streams --mode functional --config gtx480 --stats-json "$out/streams.f.json" -- "$out/streams"
sms=$("$cli" config --config gtx480 --dump | sed -n 's/^num_sms *= *\([0-9]*\).*/\1/p')
nsch=$("$cli" config --config gtx480 --dump | sed -n 's/^num_schedulers *= *\([0-9]*\).*/\1/p')
python3 - "$out/streams.f.json" "$out/streams.out" "$clk" "$sms" "$nsch" <<'EOF2' ||
import json, math, sys
j = json.load(open(sys.argv[1]))
line = [l.split() for l in open(sys.argv[2]) if l.startswith("elapsed_ms")][0]
got_all, got_first = float(line[1]), float(line[3])
khz, sms, nsch = float(sys.argv[3]) * 1000.0, int(sys.argv[4]), int(sys.argv[5])
c = [math.ceil(l["warp_insts"] / (min(l["ctas"], sms) * nsch)) for l in j["launches"]]
want_all, want_first = sum(c) / khz, c[0] / khz
ok = len(c) == 2 and c[0] > 0 and abs(got_all - want_all) <= 1e-6 * want_all and \
     abs(got_first - want_first) <= 1e-6 * want_first
if not ok:
    print("streams (functional): events %g, %g ms; want %g, %g" % (got_all, got_first,
                                                                   want_all, want_first))
sys.exit(0 if ok else 1)
EOF2
  fail "streams: functional-mode event estimate"

# ---- 2. every workload through a CUDA host program ----
nwl=0
for n in $wls; do
  [ -f "$root/workloads/$n/$n.cu" ] || continue
  nwl=$((nwl + 1))
  b=$out/wl/$n
  if ! [ -x "$b" ]; then fail "workload $n: did not build: $(tail -5 "$b.log")"; continue; fi
  "$cli" run "$n" --size small --stats-json "$b.c.json" > "$b.c.txt" 2>&1 ||
    { fail "workload $n: lockstep run failed"; continue; }
  if ! "$cli" exec --quiet --stats-json "$b.cuda.json" -- "$b" small 1 > "$b.cuda.txt" 2>&1 ||
     ! grep -q "^PASS $n" "$b.cuda.txt"; then
    fail "workload $n: the CUDA program failed: $(head -3 "$b.cuda.txt")"
    continue
  fi
  # the seed is an input label (the program was given seed 1): not a figure
  sed 's/^  "seed": 1,$/  "seed": 0,/' "$b.c.json" > "$b.c0.json"
  "$cli" diff "$b.c0.json" "$b.cuda.json" > "$b.diff.txt" 2>&1 ||
    fail "workload $n: statistics differ from the C driver's: $(head -5 "$b.diff.txt")"
done
# injected fault: another machine must make the comparison fail
"$cli" exec --quiet --set num_sms=14 --stats-json "$out/wl/vecadd.inj.json" -- "$out/wl/vecadd" small 1 > /dev/null 2>&1
if "$cli" diff "$out/wl/vecadd.c0.json" "$out/wl/vecadd.inj.json" > /dev/null 2>&1; then
  fail "workloads: the statistics comparison cannot fail (14 SMs compared equal)"
fi

# ---- 3. bad use ----
run bad_use -- "$out/bad_use"
for m in "cudaIpcGetMemHandle is not supported" "is not a registered kernel" \
         "LS_ERR_MEMFAULT" "out-of-bounds global store"; do
  grep -q "$m" "$out/bad_use.err" || fail "bad_use: no message '$m' on stderr"
done
"$cli" exec -- "$out/symbols_static" > "$out/static.out" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "static CUDA runtime.*-cudart shared" "$out/static.out" ||
  fail "static runtime: exit $rc, $(head -2 "$out/static.out")"
"$cli" exec --quiet -- "$out/symbols_cubin" > "$out/cubin.out" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "cudaErrorNoKernelImageForDevice" "$out/cubin.out" &&
  grep -q "arch=compute_75,code=compute_75" "$out/cubin.out" ||
  fail "no PTX: exit $rc, $(head -3 "$out/cubin.out")"
# a program wanting a symbol and a symbol version the library lacks (a
# stand-in libcudart.so.13 built here, so no nvcc is needed)
f=$out/fake
printf 'int cudaMalloc(void) { return 0; }\nint cudaFutureCall(void) { return 0; }\n' > "$f/lib.c"
printf 'libcudart.so.14 { global: cudaMalloc; local: *; };\nlibcudart.so.13 { global: cudaFutureCall; };\n' > "$f/lib.map"
printf 'int cudaMalloc(void);\nint cudaFutureCall(void);\nint main(void) { return cudaMalloc() + cudaFutureCall(); }\n' > "$f/prog.c"
if gcc -shared -fPIC -Wl,-soname,libcudart.so.13 -Wl,--version-script="$f/lib.map" \
       -o "$f/libcudart.so.13" "$f/lib.c" &&
   gcc -o "$f/prog" "$f/prog.c" "$f/libcudart.so.13" -Wl,-rpath,"$f"; then
  "$cli" exec -- "$f/prog" > "$f/out" 2>&1; rc=$?
  [ $rc = 2 ] && grep -q "cudaMalloc@libcudart.so.14.*cudaErrorSharedObjectSymbolNotFound" "$f/out" &&
    grep -q "cudaFutureCall@libcudart.so.13" "$f/out" ||
    fail "unknown symbol version: exit $rc, $(head -3 "$f/out")"
else
  fail "could not build the stand-in library"
fi

t2=$(date +%s)
if [ "$fails" -gt 0 ]; then
  echo "test-cuda: $fails failed"
  exit 1
fi
echo "test-cuda: $nclasses class programs (both modes)$([ "$have_cub" = 1 ] && echo ", CUB and thrust"), 11 programs, $nwl workloads as CUDA programs (statistics equal to the C drivers'), bad use: all passed (build $((t1 - t0)) s, run $((t2 - t1)) s)"
