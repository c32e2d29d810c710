#!/usr/bin/env bash
# checks.sh CLI [NVCC]: racecheck, synccheck, initcheck (docs/checks.md).
#  1. tests/check/checks.ptx equals nvcc's output for checks.cu (skipped,
#     with a message, only when nvcc is absent, as in ptx-fresh.sh);
#  2. every workload `lockstep list workloads` names runs clean under
#     --check all --check-error at small size in functional and in timing
#     mode, and the two modes report the same (empty) checks section;
#  3. a bad --check list is a usage error (exit 2).
# The kernels with hazards are tests/unit/test_checks.c (make test-unit).
set -u
cd "$(dirname "$0")/../.."
cli=${1:?usage: checks.sh path/to/lockstep [nvcc]}
nvcc=${2:-}
out=build/checks
mkdir -p "$out"
fail=0
if [ -n "$nvcc" ] && command -v "$nvcc" >/dev/null 2>&1; then
  "$nvcc" -ptx -arch=sm_75 -O3 -o "$out/checks.ptx" tests/check/checks.cu
  if diff -q <(grep -v '^//' tests/check/checks.ptx) <(grep -v '^//' "$out/checks.ptx") >/dev/null; then
    echo "ok   checks: tests/check/checks.ptx is fresh"
  else
    echo "FAIL checks: tests/check/checks.ptx is stale: nvcc -ptx -arch=sm_75 -O3 -o tests/check/checks.ptx tests/check/checks.cu" >&2
    fail=1
  fi
else
  echo "checks: SKIPPED freshness of tests/check/checks.ptx: nvcc not found"
fi
mapfile -t wl < <("$cli" list workloads)
for mode in functional timing; do
  "$cli" run "${wl[@]}" --size small --mode "$mode" --check all --check-error \
    --table --stats-json "$out/$mode.json" >"$out/$mode.txt" 2>&1
  rc=$?
  if [ "$rc" != 0 ]; then
    echo "FAIL checks: ${#wl[@]} workloads under --check all in $mode mode: exit $rc" >&2
    grep -E "CHECK|FAIL" "$out/$mode.txt" | head -20 >&2
    fail=1
  else
    echo "ok   checks: ${#wl[@]} workloads clean under --check all --check-error ($mode, small)"
  fi
done
python3 - "$out/functional.json" "$out/timing.json" <<'PY' || fail=1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
bad = [x["workload"] for x, y in zip(a, b)
       if "checks" not in x or x.get("checks") != y.get("checks")
       or x["checks"]["enabled"] != ["memcheck", "racecheck", "synccheck", "initcheck"]]
if len(a) != len(b) or bad:
    print("FAIL checks: checks sections differ or are missing:", bad, file=sys.stderr)
    sys.exit(1)
print("ok   checks: functional and timing report the same checks section for", len(a), "workloads")
PY
"$cli" run vecadd --size small --check racecheck,bogus >/dev/null 2>"$out/usage.txt"
rc=$?
if [ "$rc" = 2 ] && grep -q "bogus" "$out/usage.txt"; then
  echo "ok   checks: --check racecheck,bogus is a usage error naming the value"
else
  echo "FAIL checks: --check racecheck,bogus gave exit $rc" >&2; fail=1
fi
[ "$fail" = 0 ]
