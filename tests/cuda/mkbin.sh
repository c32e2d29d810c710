#!/usr/bin/env bash
# tests/cuda/mkbin.sh [NVCC]: rebuilds tests/cuda/bin/, the binaries of the
# behaviour-class programs (tests/cuda/classes.sh) that `make test-cuda`
# runs where nvcc is not installed, and bin/SOURCES, the digests of the
# sources they were built from (run.sh fails when they are stale).
# Uncompressed fat binaries (no libzstd needed), stripped.
set -eu
nvcc=${1:-${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}}
cd "$(dirname "$0")"
# shellcheck source=tests/cuda/classes.sh
. ./classes.sh
mkdir -p bin
: > bin/SOURCES.new
for p in "${class_progs[@]}"; do
  "$nvcc" -cudart shared -gencode arch=compute_75,code=compute_75 -compress-mode none \
    -lineinfo -o "bin/$p" "$p.cu"
  strip "bin/$p"
  echo "$(cat "$p.cu" ck.h | sha256sum | cut -c1-64)  $p" >> bin/SOURCES.new
done
mv bin/SOURCES.new bin/SOURCES
echo "mkbin: ${#class_progs[@]} programs in tests/cuda/bin ($(du -sh bin | cut -f1))"
