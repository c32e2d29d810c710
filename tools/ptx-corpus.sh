#!/usr/bin/env bash
# ptx-corpus.sh SRC_DIR OUT_DIR [LOCKSTEP [NVCC]]: a compatibility corpus.
# Compiles every .cu under SRC_DIR (a CUDA samples or Rodinia checkout, or
# any code base) that nvcc builds for sm_75 to PTX under OUT_DIR (same
# relative paths, .ptx), then runs `lockstep check` over OUT_DIR: one line
# per module that does not load and "N of M load"; OUT_DIR/check.json has
# the same as JSON. The sources are not copied anywhere.
#
# Each file: nvcc -ptx -arch=sm_75 -O3 with include paths for the file's
# own directory, its parent, and every directory named Common, common, inc
# or include under SRC_DIR (the samples' Common/, Rodinia's common/); a file
# that fails is tried once more with -rdc=true (device-side launches need
# it). Files nvcc rejects are listed in OUT_DIR/compile-failed.txt with the
# first error line and are not part of the count. Environment: JOBS
# (parallel nvcc, default 2), NVCC_FLAGS (extra flags).
set -u
src=${1:-}
out=${2:-}
lockstep=${3:-build/lockstep}
nvcc=${4:-$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)}
if [ -z "$src" ] || [ -z "$out" ] || [ ! -d "$src" ]; then
  echo "usage: tools/ptx-corpus.sh SRC_DIR OUT_DIR [LOCKSTEP [NVCC]]" >&2
  exit 2
fi
if ! [ -x "$(command -v "$nvcc" 2>/dev/null || echo /nonexistent)" ]; then
  echo "ptx-corpus: nvcc not found (pass its path as the fourth argument)" >&2
  exit 2
fi
if ! [ -x "$lockstep" ]; then
  echo "ptx-corpus: $lockstep not found (make build/lockstep first)" >&2
  exit 2
fi
src=$(cd "$src" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
incs=()
while IFS= read -r d; do incs+=("-I$d"); done < <(
  find "$src" -type d \( -name Common -o -name common -o -name inc -o -name include \) \
       -not -path '*/.git/*' | LC_ALL=C sort)
export nvcc src out
export INCS="${incs[*]:-}"
export NVCC_FLAGS="${NVCC_FLAGS:-}"
compile_one() {
  rel=${1#"$src"/}
  dst="$out/${rel%.cu}.ptx"
  mkdir -p "$(dirname "$dst")"
  dir=$(dirname "$1")
  # shellcheck disable=SC2086
  if "$nvcc" -ptx -arch=sm_75 -O3 $NVCC_FLAGS -I"$dir" -I"$dir/.." $INCS \
       -o "$dst" "$1" > "$dst.log" 2>&1 ||
     "$nvcc" -ptx -arch=sm_75 -O3 -rdc=true $NVCC_FLAGS -I"$dir" -I"$dir/.." $INCS \
       -o "$dst" "$1" >> "$dst.log" 2>&1; then
    rm -f "$dst.log"
  else
    rm -f "$dst"
    printf '%s: %s\n' "$rel" "$(grep -m1 -i 'error' "$dst.log" || head -1 "$dst.log")" \
      > "$dst.failed"
    rm -f "$dst.log"
  fi
}
export -f compile_one
find "$src" -name '*.cu' -not -path '*/.git/*' -print0 | LC_ALL=C sort -z |
  xargs -0 -n 1 -P "${JOBS:-2}" bash -c 'compile_one "$1"' _
ncu=$(find "$src" -name '*.cu' -not -path '*/.git/*' | wc -l)
find "$out" -name '*.failed' -print0 | LC_ALL=C sort -z | xargs -0 -r cat \
  > "$out/compile-failed.txt"
find "$out" -name '*.failed' -delete
nfail=$(wc -l < "$out/compile-failed.txt")
echo "ptx-corpus: $ncu .cu files, $((ncu - nfail)) compiled for sm_75," \
     "$nfail rejected by nvcc (listed in $out/compile-failed.txt)"
"$lockstep" check --json "$out" > "$out/check.json"
"$lockstep" check "$out"
