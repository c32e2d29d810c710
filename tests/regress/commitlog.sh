#!/usr/bin/env bash
# commitlog.sh CLI FAULT_CLI: commit logs (`make test-commitlog`; docs/golden.md).
#  - every workload (small) writes identical per-warp commit logs in
#    functional and in timing mode (run --compare-modes exits 0);
#  - FAULT_CLI is a build with -DLS_FAULT_STALE_STORE (a global store reads
#    lane 5 of its data register stale in timing mode): --compare-modes
#    must exit 1 and name the store's PTX line and lane 5;
#  - lockstep diff --commit-log: identical logs exit 0, the fault's exit 1
#    with the same report, a file that is not a log exits 2;
#  - under simt.paths=dual and dws the logs agree per thread (the paths of
#    a warp interleave), and the fault is found there too, lane 5.
set -u
cli=${1:?usage: commitlog.sh path/to/lockstep path/to/fault/lockstep}
fcli=${2:?usage: commitlog.sh path/to/lockstep path/to/fault/lockstep}
out=build/test-commitlog
rm -rf "$out"
mkdir -p "$out"
fail=0
ok()  { echo "ok   $*"; }
bad() { echo "FAIL $*" >&2; fail=$((fail + 1)); }

n=0
for w in $("$cli" list workloads); do
  TMPDIR=$out "$cli" run "$w" --size small --compare-modes >"$out/$w.txt" 2>&1
  rc=$?
  if [ $rc = 0 ] && grep -q '^commit logs: identical' "$out/$w.txt"; then
    n=$((n + 1))
  else
    bad "$w: functional and timing commit logs differ (exit $rc)"; tail -5 "$out/$w.txt" >&2
  fi
done
[ $n -gt 0 ] && ok "$n workloads: functional and timing commit logs identical per warp"
[ -z "$(ls "$out"/*.log 2>/dev/null)" ] && ok "--compare-modes removes its temporary logs" \
  || bad "temporary logs left in $out"

# the injected fault
"$fcli" run vecadd --size small --compare-modes --commit-log "$out/fault" >"$out/fault.txt" 2>&1
rc=$?
line=$(grep -n 'st\.global\.f32' workloads/vecadd/vecadd.ptx | head -1 | cut -d: -f1)
if [ $rc = 1 ] && grep -q "record [0-9]* differs: pc [0-9]*, PTX line $line, st" "$out/fault.txt" \
   && grep -q "d lane 5: expected 0x[0-9a-f]*, actual 0x" "$out/fault.txt"; then
  ok "injected stale store found at PTX line $line (st.global.f32), lane 5, exit 1"
else
  bad "injected fault: exit $rc, want 1 naming PTX line $line lane 5"; head -5 "$out/fault.txt" >&2
fi
lanes=$(grep -o 'lane [0-9]*:' "$out/fault.txt" | sort -u | tr '\n' ' ')
[ "$lanes" = "lane 5: " ] && ok "only lane 5 differs" || bad "lanes reported: $lanes"

# lockstep diff --commit-log
if "$cli" diff --commit-log "$out/fault.functional" "$out/fault.functional" >"$out/same.txt" 2>&1; then
  grep -q '^commit logs: identical' "$out/same.txt" && ok "diff --commit-log of a log with itself: identical, exit 0" \
    || bad "diff --commit-log same: no 'identical' line"
else
  bad "diff --commit-log same: exit $?"
fi
"$cli" diff --commit-log "$out/fault.functional" "$out/fault.timing" >"$out/d.txt" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "PTX line $line" "$out/d.txt" && ok "diff --commit-log finds the fault, exit 1" \
  || bad "diff --commit-log fault: exit $rc"
"$cli" diff --commit-log README.md "$out/fault.timing" >"$out/e.txt" 2>&1
rc=$?
[ $rc = 2 ] && grep -q 'not a lockstep commit log' "$out/e.txt" && ok "a file that is not a log: exit 2" \
  || bad "not a log: exit $rc"
head -2 "$out/fault.timing" | grep -q '^launch 1 vecadd grid' && ok "log header: launch line" \
  || bad "log header"
# dual paths and DWS (docs/dpe.md): a warp's paths interleave, so
# --compare-modes compares each thread's own records; the workloads that
# diverge still agree, some with their paths interleaved differently from
# functional order; the injected stale store is found under dual, lane 5
inter=0
for p in dual dws; do
  for w in mcml ssc sclst bitonic; do
    TMPDIR=$out "$cli" run "$w" --size small --compare-modes --set simt.paths=$p >"$out/$p-$w.txt" 2>&1
    rc=$?
    if [ $rc = 0 ] && grep -q '^commit logs: identical per thread' "$out/$p-$w.txt"; then
      k=$(sed -n 's/.*warps (\([0-9]*\) of them with their paths interleaved.*/\1/p' "$out/$p-$w.txt")
      inter=$((inter + ${k:-0}))
    else
      bad "$w under simt.paths=$p: commit logs differ per thread (exit $rc)"; tail -3 "$out/$p-$w.txt" >&2
    fi
  done
done
[ $inter -gt 0 ] && ok "dual and dws: mcml ssc sclst bitonic identical per thread ($inter warps interleaved their paths)" \
  || bad "dual/dws: no warp interleaved its paths, the per-thread comparison was not exercised"
"$fcli" run ssc --size small --compare-modes --set simt.paths=dual >"$out/fault-dual.txt" 2>&1
rc=$?
lanes=$(grep -o 'thread of lane [0-9]*:' "$out/fault-dual.txt" | sort -u | tr '\n' ' ')
[ $rc = 1 ] && [ "$lanes" = "thread of lane 5: " ] && grep -q "lane 5: expected 0x[0-9a-f]*, actual 0x" "$out/fault-dual.txt" \
  && ok "injected stale store found under dual per thread: lane 5 only, exit 1" \
  || { bad "injected fault under dual: exit $rc, lanes: $lanes"; head -5 "$out/fault-dual.txt" >&2; }
"$cli" diff --commit-log --per-thread "$out/fault.functional" "$out/fault.timing" >"$out/dp.txt" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "thread of lane 5: its records differ: pc [0-9]*, PTX line $line" "$out/dp.txt" \
  && ok "diff --commit-log --per-thread finds the fault, exit 1" || bad "diff --per-thread fault: exit $rc"

[ $fail = 0 ] && echo "commitlog: all checks passed" || echo "commitlog: $fail checks failed"
[ $fail = 0 ]
