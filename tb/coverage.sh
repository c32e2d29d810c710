#!/usr/bin/env bash
# make code-coverage: builds every block/param set with --coverage-line
# --coverage-toggle (build/vl-cov/), runs the directed cases and the three
# random seeds, merges per block with verilator_coverage and writes
# COV_MD (default docs/blocks/code-coverage.md) with tb/coverage.py. Fails
# if a block has < 95 % line coverage. BLOCKS="a b" restricts the blocks.
set -u
seed0=${BLK_SEED:-1}
mkdir -p build/cov
fail=0
blks=$(bash tb/blocks.sh list)
for b in $blks; do
  rm -f build/cov/${b}_*.dat
  for s in $(sed 's/#.*//' "tb/${b}_params.txt" | awk 'NF {print $1}'); do
    tb/vl-build.sh "$b" "$s" 0 cov || { echo "FAIL coverage build $b $s"; fail=1; continue; }
    bin=build/vl-cov/${b}_$s/tb
    cyc=$(sed 's/#.*//' "tb/${b}_params.txt" | awk -v s="$s" '$1==s' | tr ' \t' '\n\n' | sed -n 's/^cycles=//p')
    cyc=${cyc:-100000}
    $bin --seed "$seed0" --directed --quiet --coverage "build/cov/${b}_${s}_d.dat" >/dev/null || fail=1
    for i in 0 1 2; do
      $bin --seed $((seed0 + i)) --cycles "$cyc" --rand-reset $i --quiet \
           --coverage "build/cov/${b}_${s}_$i.dat" >/dev/null || fail=1
    done
  done
  verilator_coverage --write "build/cov/$b.dat" build/cov/${b}_*.dat >/dev/null || fail=1
  rm -rf "build/cov/annotate/$b"
  verilator_coverage --annotate "build/cov/annotate/$b" "build/cov/$b.dat" >/dev/null 2>&1 || true
done
# shellcheck disable=SC2086
python3 tb/coverage.py "${COV_MD:-docs/blocks/code-coverage.md}" $blks || fail=1
exit $fail
