#!/usr/bin/env bash
# tests/cuda/mkbin.sh [NVCC]: rebuilds tests/cuda/bin/, the binaries of the
# behaviour-class programs (tests/cuda/classes.sh) that `make test-cuda`
# runs where nvcc is not installed, and bin/SOURCES, the digests of the
# sources they were built from (run.sh fails when they are stale).
# Uncompressed fat binaries (no libzstd needed), stripped, naming their
# sources by repository-relative paths.
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
  # -lineinfo embeds the source's absolute path in the PTX: write it as
  # the repository-relative path, padded to the same length with ./
  python3 - "bin/$p" "$(cd ../.. && pwd)/" <<'PY'
import sys
path, root = sys.argv[1], sys.argv[2].encode()
rel = b"./" * (len(root) // 2) + b"/" * (len(root) % 2)
with open(path, "rb") as f:
    data = f.read()
with open(path, "wb") as f:
    f.write(data.replace(root, rel))
PY
  echo "$(cat "$p.cu" ck.h | sha256sum | cut -c1-64)  $p" >> bin/SOURCES.new
done
mv bin/SOURCES.new bin/SOURCES
echo "mkbin: ${#class_progs[@]} programs in tests/cuda/bin ($(du -sh bin | cut -f1))"
