#!/usr/bin/env bash
# cosim-mutants.sh CLI: every RTL mutant of every block in the GPU loop
# (`ifdef MUTANT_k in rtl/<blk>*.v, tb/README.md) must be caught in the
# loop: a real workload run with the mutant given by --rtl must exit 3 with
# a mismatch report (`make mutants-loop`, part of `make mutants`). Each
# mutant tries the block's configurations in turn and stops at the first
# that catches it; a mutant no configuration catches fails the target.
set -u
cli=${1:?usage: cosim-mutants.sh path/to/lockstep}
out=build/test-cosim-mutants
rm -rf "$out"
mkdir -p "$out"
fail=0
# configurations that give each block's modes traffic (a variant is one or
# more key=value joined by '+'; wl=NAME runs workload NAME instead of bfs)
declare -A variants
variants[slp]="slp.permutation=none slp.permutation=balanced slp.permutation=odd_even slp.permutation=rotate_odd_1"
# BGP (LAMAR): the GDUs of the L1Ds and L2 slices; a short skew window
# and refresh period make windows close near the threshold and arrays clear
variants[bgp]="lamar.gdu=bgp lamar.gdu=bgp,lamar.bgp_num_evict=10,lamar.bgp_refresh=8 lamar.gdu=bgp,lamar.bgp_num_evict=3,lamar.bgp_refresh=4,lamar.th_fg=3"
# Mutants no run of the GPU can tell from the stock RTL, with the reason;
# the standalone testbench (make mutants, random addresses) catches them.
declare -A equivalent
equivalent[bgp_1]="a workload's block addresses stay below 2^24 unless it allocates past 2 GiB (device memory from 0x10000000, 128-byte lines): the top address byte is 0 and leaving it out of the hashes changes no output"
variants[rvc_comp]="gscalar.compress=on gscalar.compress=on+gscalar.granularity=16"
variants[rvc_decomp]="gscalar.compress=on gscalar.compress=on+gscalar.granularity=16"
# thread-block compaction: the WCU under tbc (every branch a compaction
# point) and capri (bypassed warps: UMask 0); the CAPT under capri with
# 2-entry tables under both replacement policies (evictions; sortnet has
# the most divergent branches) and the 2-bit counter
variants[wcu]="simt.compaction=tbc simt.compaction=capri"
variants[capt]="simt.compaction=capri simt.compaction=capri+capri.entries=2+capri.lru=true simt.compaction=capri+capri.history=counter2 wl=sortnet+simt.compaction=capri+capri.entries=2"
equivalent[wcu_4]="the WCU has NW = 32 rows (one per warp of a CTA) and no workload launches 1024-thread CTAs (at most 768 threads, 24 warps): warp id 31 never reaches a priority encoder"
equivalent[capt_1]="the CAPT tags are branch PCs as instruction indices of one kernel (below 2^16), so the tag MSB is always 0 and ignoring it changes no output"
equivalent[capt_5]="the model resets the CAPT at every kernel start (the seam's per-kernel reset) and never flushes within a kernel, and every update names the entry its branch's lookup made valid: no update reaches an invalid entry"
# Mutants that are not equivalent but that no run tried here exercises:
# named as such (not "equivalent"); the standalone testbench catches them.
declare -A unexercised
unexercised[capt_6]="update without the tag check: it changes an output only on a stale update, when another lookup replaces the entry between a branch's last lookup and its update a few cycles later (needs more divergent branches in flight per SM than entries); bfs, sortnet, mandelbrot and nw with 2 and 4 entries never give one"
for top in rtl/*.v; do
  blk=$(basename "$top" .v)
  [ -n "${variants[$blk]:-}" ] || continue      # not in the GPU loop (or a helper)
  n=$(grep -ho 'MUTANT_[0-9]\+' rtl/"$blk".v rtl/"$blk"_*.v 2>/dev/null | sort -u | wc -l)
  for k in $(seq 1 "$n"); do
    f=$out/${blk}_m$k.v
    { echo "\`define MUTANT_$k"; cat "$top"; } >"$f"
    what=$(grep -h "ifdef MUTANT_$k\b" rtl/"$blk"*.v | head -1 | sed 's/.*\/\/ *//')
    if [ -n "${unexercised[${blk}_$k]:-}" ]; then
      echo "note $blk mutant $k: NOT EXERCISED in the loop, not equivalent (${unexercised[${blk}_$k]}); only the standalone testbench catches it"
      continue
    fi
    if [ -n "${equivalent[${blk}_$k]:-}" ]; then
      echo "ok   $blk mutant $k: equivalent in the loop (${equivalent[${blk}_$k]}); the standalone testbench catches it"
      continue
    fi
    caught=""
    for v in ${variants[$blk]}; do
      sets=(); wl=bfs
      for kv in ${v//[,+]/ }; do    # a,b or a+b: two --set
        case $kv in wl=*) wl=${kv#wl=} ;; *) sets+=(--set "$kv") ;; esac
      done
      "$cli" run "$wl" --size small --rtl "$blk=$f" "${sets[@]}" --fail-dir "$out/fail" \
          >"$out/${blk}_m$k.txt" 2>&1
      rc=$?
      if [ $rc = 3 ] && grep -q "MISMATCH [a-z0-9]*\.$blk" "$out/${blk}_m$k.txt"; then
        caught=$v
        break
      fi
    done
    if [ -n "$caught" ]; then
      echo "ok   $blk mutant $k ($what): caught in the loop under $caught"
    else
      echo "FAIL $blk mutant $k ($what): no configuration caught it" >&2
      fail=$((fail + 1))
    fi
  done
done
[ $fail = 0 ] && echo "mutants-loop: every mutant caught" || echo "mutants-loop: $fail not caught"
[ $fail = 0 ]
