#!/usr/bin/env bash
# Runs every cmocka unit-test binary given; fails if any fails.
set -u
fail=0; n=0
for t in "$@"; do
  n=$((n+1))
  if ! "$t"; then echo "FAILED: $t" >&2; fail=$((fail+1)); fi
done
echo "unit test binaries: $((n-fail)) passed, $fail failed"
[ "$fail" = 0 ]
