#!/usr/bin/env bash
# make-ptx.sh NVCC [OUTDIR [NAME...]]: compiles every workloads/*/*.cu (or
# only the NAMEd workloads) to PTX with `nvcc -ptx -arch=sm_75 -O3`. Without
# OUTDIR (or with OUTDIR "") each NAME.ptx is written next to its NAME.cu
# (the committed copy); otherwise to OUTDIR/NAME.ptx (used by
# tests/regress/ptx-fresh.sh). Output is deterministic for a given
# nvcc: no line info, sources compiled from the repository root in sorted
# order.
set -eu
nvcc=${1:-}
outdir=${2:-}
shift $(( $# < 2 ? $# : 2 ))
only=" $* "
if [ -z "$nvcc" ] || ! [ -x "$(command -v "$nvcc" 2>/dev/null || echo /nonexistent)" ]; then
  echo "make-ptx: nvcc not found (pass its path as the first argument)" >&2
  exit 2
fi
cd "$(dirname "$0")/.."
[ -n "$outdir" ] && mkdir -p "$outdir"
n=0
for cu in $(ls workloads/*/*.cu | LC_ALL=C sort); do
  name=$(basename "$cu" .cu)
  dir=$(dirname "$cu")
  [ "$only" = "  " ] || case "$only" in *" $name "*) ;; *) continue ;; esac
  if [ "$name" != "$(basename "$dir")" ]; then
    echo "make-ptx: $cu: file stem must equal its directory name" >&2
    exit 1
  fi
  out=${outdir:+$outdir/$name.ptx}
  out=${out:-$dir/$name.ptx}
  "$nvcc" -ptx -arch=sm_75 -O3 -o "$out.tmp" "$cu"
  mv "$out.tmp" "$out"
  n=$((n + 1))
done
echo "make-ptx: $n PTX files written${outdir:+ to $outdir}"
