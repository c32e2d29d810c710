#!/usr/bin/env bash
# Block-library driver used by mk/blocks.mk:
#   tb/blocks.sh list | test | mutants | lint | bench
# A block is in when rtl/<blk>.v and tb/<blk>_params.txt both exist.
# Env: BLK_SEED (first seed, default 1), BLOCKS (restrict to these blocks).
set -u
cmd=${1:-test}
seed0=${BLK_SEED:-1}
blocks() {
  if [ -n "${BLOCKS:-}" ]; then echo "$BLOCKS"; return; fi
  for p in tb/*_params.txt; do
    [ -e "$p" ] || continue
    b=$(basename "$p" _params.txt)
    [ -f "rtl/$b.v" ] && [ -f "csim/blocks/$b.c" ] && [ -f "tb/${b}_tb.c" ] && echo "$b"
  done
}
sets() { sed 's/#.*//' "tb/$1_params.txt" | awk 'NF {print $1}'; }
setcycles() {
  c=$(sed 's/#.*//' "tb/$1_params.txt" | awk -v s="$2" '$1==s' | tr ' \t' '\n\n' | sed -n 's/^cycles=//p')
  echo "${c:-100000}"
}
gparams() { sed 's/#.*//' "tb/$1_params.txt" | awk -v s="$2" '$1==s' | tr ' \t' '\n\n' | grep -E '^-G' | tr '\n' ' '; }
nmutants() { grep -ohE 'MUTANT_[0-9]+' rtl/$1.v rtl/$1_*.v 2>/dev/null | sed 's/MUTANT_//' | sort -n | tail -1; }

fail=0
case $cmd in
list) blocks ;;
test)
  total=0
  for b in $(blocks); do
    bt=0
    for s in $(sets "$b"); do
      tb/vl-build.sh "$b" "$s" || { echo "FAIL build $b $s"; fail=1; continue; }
      bin=build/vl/${b}_$s/tb
      $bin --seed "$seed0" --directed | grep -v '^seed ' || fail=1
      [ "${PIPESTATUS[0]}" = 0 ] || { echo "FAIL $b $s directed"; fail=1; }
      cyc=$(setcycles "$b" "$s")
      for i in 0 1 2; do
        seed=$((seed0 + i))
        out=$($bin --seed $seed --cycles "$cyc" --rand-reset $i 2>&1)
        rc=$?
        if [ $rc != 0 ]; then echo "$out" | head -50; echo "FAIL $b $s seed $seed"; fail=1
        else echo "$out" | tail -1; bt=$((bt + cyc)); fi
      done
    done
    echo "block $b: $bt random cycles checked in lockstep"
    if [ "$bt" -lt 1000000 ]; then
      echo "FAIL $b: fewer than 10^6 random cycles (raise cycles= in tb/${b}_params.txt)"; fail=1
    fi
    total=$((total + bt))
  done
  echo "test-blocks: $total random cycles checked, $([ $fail = 0 ] && echo PASS || echo FAIL)"
  ;;
mutants)
  for b in $(blocks); do
    n=$(nmutants "$b"); n=${n:-0}
    [ "$n" -ge 3 ] || { echo "FAIL $b: only $n mutants (need >= 3)"; fail=1; }
    for k in $(seq 1 "$n"); do
      caught=""
      for s in $(sets "$b"); do
        tb/vl-build.sh "$b" "$s" "$k" || { echo "FAIL build $b mutant $k"; fail=1; break; }
        bin=build/vl/${b}_${s}_m$k/tb
        if ! $bin --seed "$seed0" --directed >/dev/null 2>&1; then caught="$s directed"; break; fi
        for i in 0 1 2; do
          if ! $bin --seed $((seed0 + i)) --cycles 50000 --rand-reset $i >/dev/null 2>&1; then
            caught="$s seed $((seed0 + i))"; break
          fi
        done
        [ -n "$caught" ] && break
      done
      if [ -n "$caught" ]; then echo "mutant $b MUTANT_$k: caught ($caught)"
      else echo "FAIL mutant $b MUTANT_$k survived"; fail=1; fi
    done
  done
  echo "mutants: $([ $fail = 0 ] && echo all caught || echo FAIL)"
  ;;
lint)
  for b in $(blocks); do
    rtl="rtl/$b.v $(ls rtl/${b}_*.v 2>/dev/null | tr '\n' ' ')"
    for s in $(sets "$b"); do
      # shellcheck disable=SC2046,SC2086
      out=$(verilator --lint-only -Wall --top-module "$b" $(gparams "$b" "$s") rtl/lockstep.vlt $rtl 2>&1)
      if [ -n "$out" ]; then echo "$out"; echo "FAIL lint $b $s"; fail=1
      else echo "lint $b $s: clean"; fi
    done
  done
  ;;
bench)
  for b in $(blocks); do
    for s in $(sets "$b"); do
      tb/vl-build.sh "$b" "$s" || { fail=1; continue; }
      build/vl/${b}_$s/tb --seed "$seed0" --cycles 300000 --bench --quiet | grep '^bench' || fail=1
    done
  done
  ;;
*) echo "usage: tb/blocks.sh list|test|mutants|lint|bench" >&2; exit 2 ;;
esac
exit $fail
