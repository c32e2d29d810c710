#!/usr/bin/env bash
# test-times.sh TARGET...: runs each `make test` group alone, one after
# the other, and prints its wall-clock seconds, longest first, with the
# sum (`make test-times`; the table goes to build/test-times.txt too).
# `make test` runs the groups TEST_JOBS at a time, so its duration is
# about the sum over TEST_JOBS when no group dominates: this says which
# group to make shorter when it passes the 15-minute goal.
set -u
[ $# -gt 0 ] || { echo "usage: test-times.sh TARGET..." >&2; exit 2; }
mkdir -p build
out=build/test-times.txt
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
fail=0
for t in "$@"; do
  t0=$(date +%s.%N)
  if make --no-print-directory "$t" >"build/test-times-$t.log" 2>&1; then rc=ok
  else rc=FAIL; fail=1; fi
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" -v r="$rc" -v t="$t" \
    'BEGIN { printf "%8.1f  %-4s  %s\n", b - a, r, t }' | tee -a "$tmp" >&2
done
{
  echo "seconds   rc    group (logs: build/test-times-GROUP.log)"
  sort -rn "$tmp"
  awk '{s += $1} END {printf "%8.1f        sum of %d groups\n", s, NR}' "$tmp"
} | tee "$out"
exit $fail
