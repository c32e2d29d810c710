#!/usr/bin/env bash
# Builds the Verilated model of one block for the GPU loop as a shared
# object (csim/cosim/cosim_rtl.c runs this on demand and dlopens the result):
#   tb/vl-so.sh BLK OUTDIR RTL_FILE PORTS [-GNAME=value ...]
# PORTS lists the ports the model must have under these parameters, as
# name:in|out:width,... (the C model's port table). The RTL file replaces
# rtl/BLK.v; helper modules rtl/BLK_*.v are added unless it defines them.
# Exit status: 0 built or up to date ("vl-so: built" on stdout when built),
# 2 the module's ports or parameters do not match (one line per problem on
# stderr), 1 Verilator or the compiler failed (the log tail on stderr).
# Concurrent calls for one OUTDIR wait for each other (flock).
set -eu
blk=$1; out=$2; rtl=$3; ports=$4; shift 4
gparams=("$@")
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
exec 9>"$out/.lock"
flock 9
so=$out/lib$blk.so
helpers=()
for h in "$root"/rtl/"${blk}"_*.v; do
  [ -e "$h" ] || continue
  mod=$(basename "$h" .v)
  if [ "$(readlink -f "$rtl")" != "$(readlink -f "$root/rtl/$blk.v")" ] &&
     grep -Eq "^[[:space:]]*module[[:space:]]+$mod\\b" "$rtl"; then
    continue   # the user's file brings its own version
  fi
  helpers+=("$h")
done
deps=("$rtl" "${helpers[@]}" "$root/rtl/lockstep.vlt" "$root/tb/vl_glue.cpp"
      "$root/tb/vl_glue.h" "$root/csim/blocks/${blk}_ports.def"
      "$root/csim/blocks/blk_port.h" "$root/tb/vl-so.sh" "$root/tb/vl-ports.py")
if [ -f "$so" ]; then
  stale=0
  for f in "${deps[@]}"; do [ "$f" -nt "$so" ] && stale=1; done
  [ $stale = 0 ] && exit 0
fi
log=$out/build.log
: >"$log"
# ccache where installed (mk/deps.sh installs it): mutants and parameter
# sets of one block share most of the generated C++ and the glue
cc=()
objcache=""
if command -v ccache >/dev/null 2>&1; then
  cc=(ccache)
  objcache=ccache
  export CCACHE_DIR=${CCACHE_DIR:-$root/build/ccache}
fi
# 1. the ports and parameters, checked before anything is compiled
rm -rf "$out/xml"
if ! verilator --xml-only --top-module "$blk" -Wno-fatal "${gparams[@]}" \
     -Mdir "$out/xml" "$rtl" "${helpers[@]}" "$root/rtl/lockstep.vlt" >>"$log" 2>&1; then
  echo "vl-so: Verilator cannot read $rtl as module $blk with ${gparams[*]}:" >&2
  grep -E '%(Error|Warning)' "$log" | head -10 >&2 || tail -10 "$log" >&2
  exit 2
fi
python3 "$root/tb/vl-ports.py" "$out/xml/V$blk.xml" "$blk" "$rtl" "$ports" "${gparams[@]}" || exit 2
# 2. the model (optimised, tracing compiled in but off until a replay)
vi=$(verilator --getenv VERILATOR_ROOT)/include
if ! verilator --cc --build -j 2 -O3 --x-assign fast --x-initial fast \
     --trace-fst --prefix Vtop --top-module "$blk" -Wno-fatal "${gparams[@]}" \
     -CFLAGS -fPIC -MAKEFLAGS "OBJCACHE=$objcache OPT_FAST=-O2 OPT_SLOW=-O1 OPT_GLOBAL=-O2" \
     -Mdir "$out/obj" "$rtl" "${helpers[@]}" "$root/rtl/lockstep.vlt" >>"$log" 2>&1; then
  echo "vl-so: verilating $rtl failed (log: $log):" >&2
  tail -20 "$log" >&2
  exit 1
fi
# 3. the Verilator runtime, once per machine (shared by every block)
rt=$root/build/vl-so/runtime
mkdir -p "$rt"
(
  flock 8
  for f in verilated verilated_fst_c verilated_threads; do
    [ -f "$rt/$f.o" ] && continue
    g++ -fPIC -O2 -std=c++14 -I"$vi" -I"$vi/vltstd" -DVM_TRACE=1 -DVM_TRACE_FST=1 \
        -DVM_COVERAGE=0 -c "$vi/$f.cpp" -o "$rt/$f.o.tmp" >>"$log" 2>&1
    mv "$rt/$f.o.tmp" "$rt/$f.o"
  done
) 8>"$rt/.lock" || { echo "vl-so: building the Verilator runtime failed (log: $log)" >&2; tail -20 "$log" >&2; exit 1; }
# 4. the generic glue for this block, linked into one shared object; its
# one-eval edge assumes no logic on the falling clock, so RTL that names a
# negedge of clk_i (a user's block, say) keeps the two evals per edge
twoeval=()
grep -Eq 'negedge[[:space:]]+clk_i' "$rtl" "${helpers[@]}" && twoeval=(-DLS_TWO_EVALS)
if ! { "${cc[@]}" g++ -fPIC -O2 -std=c++14 -I"$out/obj" -I"$vi" -I"$vi/vltstd" -I"$root/tb" \
         -I"$root/csim" -I"$root/include" "${twoeval[@]}" -DVM_TRACE=1 -DVM_TRACE_FST=1 \
         -DVM_COVERAGE=0 -DBLK="$blk" "-DBLK_DEF=\"blocks/${blk}_ports.def\"" \
         -c "$root/tb/vl_glue.cpp" -o "$out/glue.o" &&
       g++ -shared -Wl,-Bsymbolic -o "$so.tmp" "$out/glue.o" "$out/obj/Vtop__ALL.a" \
         "$rt/verilated.o" "$rt/verilated_fst_c.o" "$rt/verilated_threads.o" -lz -pthread; } >>"$log" 2>&1; then
  echo "vl-so: compiling the glue for $blk failed (log: $log):" >&2
  tail -20 "$log" >&2
  exit 1
fi
mv "$so.tmp" "$so"
echo "vl-so: built $so"
