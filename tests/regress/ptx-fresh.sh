#!/usr/bin/env bash
# ptx-fresh.sh NVCC [OUTDIR]: regenerates every workload's PTX with
# tools/make-ptx.sh into OUTDIR (default build/ptx-fresh) and fails when a
# committed workloads/NAME/NAME.ptx differs from it (stale) or is missing.
# The nvcc banner comments at the top are ignored, so a different nvcc
# build that emits the same code still counts as fresh. Without nvcc the
# check cannot run: it says so and exits 0 (the only check allowed to skip).
set -u
cd "$(dirname "$0")/../.."
nvcc=${1:-}
out=${2:-build/ptx-fresh}
if [ -z "$nvcc" ] || ! command -v "$nvcc" >/dev/null 2>&1; then
  echo "ptx-fresh: SKIPPED: nvcc not found, committed PTX not checked for staleness"
  exit 0
fi
rm -rf "$out"
if ! bash tools/make-ptx.sh "$nvcc" "$out" >/dev/null; then
  echo "ptx-fresh: FAIL: tools/make-ptx.sh failed" >&2
  exit 1
fi
strip() { grep -v '^//' "$1"; }
fail=0; n=0
for cu in workloads/*/*.cu; do
  name=$(basename "$cu" .cu)
  committed=$(dirname "$cu")/$name.ptx
  n=$((n + 1))
  if [ ! -f "$committed" ]; then
    echo "ptx-fresh: FAIL: $committed missing (run make ptx)" >&2
    fail=$((fail + 1))
  elif ! diff -q <(strip "$committed") <(strip "$out/$name.ptx") >/dev/null; then
    echo "ptx-fresh: FAIL: $committed is stale: regenerate with make ptx" >&2
    diff <(strip "$committed") <(strip "$out/$name.ptx") | head -10 >&2
    fail=$((fail + 1))
  fi
done
for ptx in workloads/*/*.ptx; do
  [ -f "${ptx%.ptx}.cu" ] || { echo "ptx-fresh: FAIL: $ptx has no .cu source" >&2; fail=$((fail + 1)); }
done
echo "ptx-fresh: $n kernels checked with $("$nvcc" --version | tail -1), $fail stale or missing"
[ "$fail" = 0 ]
