#!/usr/bin/env bash
# tools/gen-check.sh --write|--check GEN_STATS TMPDIR (make gen-stats, make
# test-gen): the text generated from csim/api/stats.def into its two files
# (the statistics structs of include/lockstep.h, the tables of
# docs/stats.md). --write updates a file that differs; --check fails on
# one, naming it, and shows that it fails on a stale copy. --check also
# runs tools/choice-lint.py (no code compares a config choice with a
# number: the CFG_<KEY>_<CHOICE> enums generated from the key table) and
# shows that it fails on a bare comparison.
set -u
mode=${1:?usage: gen-check.sh --write|--check GEN_STATS TMPDIR}
gen=${2:?}
tmp=${3:?}
mkdir -p "$tmp"
fails=0
for pair in header:include/lockstep.h doc:docs/stats.md; do
  what=${pair%%:*} f=${pair#*:}
  out=$tmp/$(basename "$f")
  "$gen" "$what" "$f" "$out" || exit 2
  if cmp -s "$f" "$out"; then
    continue
  elif [ "$mode" = --write ]; then
    cp "$out" "$f" && echo "gen-stats: updated $f"
  else
    echo "FAIL test-gen: $f is not what csim/api/stats.def generates (run make gen-stats):"
    diff -u "$f" "$out" | head -20
    fails=$((fails + 1))
  fi
done
[ "$mode" = --write ] && exit 0
# injected fault: a stale line in the generated part of a copy must show
stale=$tmp/stale.md
sed '/^<!-- generated from csim\/api\/stats.def/a | `stale` | | | a key the table no longer has |' \
  docs/stats.md > "$stale"
"$gen" doc "$stale" "$tmp/stale.out.md" || exit 2
if cmp -s "$stale" "$tmp/stale.out.md"; then
  echo "FAIL test-gen: a stale line in docs/stats.md went unnoticed"
  fails=$((fails + 1))
fi
root=$(cd "$(dirname "$0")/.." && pwd)
python3 "$root/tools/choice-lint.py" || { echo "FAIL test-gen: a config choice compared with a number (above)"; fails=$((fails + 1)); }
printf '%s\n' 'a = c->affine_mode == 2;' 'b = 1 != c->lamar_level;' 'c->dram_sched = 0;' \
  'd = c->check & 8;' 'e = c->affine_mode == CFG_AFFINE_MODE_DAC;' > "$tmp/bare.c"
n=$(python3 "$root/tools/choice-lint.py" "$tmp/bare.c" | wc -l)
[ "$n" = 4 ] || { echo "FAIL test-gen: choice-lint found $n of the 4 bare uses in a fault file"; fails=$((fails + 1)); }
[ "$fails" = 0 ] || exit 1
echo "test-gen: include/lockstep.h and docs/stats.md are what csim/api/stats.def generates, no choice key is compared with a number (a stale copy and a bare comparison are caught)"
