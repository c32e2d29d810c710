#!/usr/bin/env bash
# tools/cuda-samples.sh SAMPLES OUT [FUNCTIONAL_S [TIMING_S]]: how many of
# NVIDIA's public CUDA samples run on Lockstep (docs/cuda-programs.md).
#   SAMPLES  a checkout of NVIDIA/cuda-samples (Samples/, Common/)
#   OUT      a directory for builds and logs (builds are kept and reused,
#            and so is a failed build: delete OUT/NAME to retry one)
# Builds every sample under Samples/*/* that has .cu files (except
# 7_libNVVM and 8_Platform_Specific) with `nvcc -cudart shared -gencode
# arch=compute_75,code=compute_75 -O2 -I Common`, its .cu and .cpp files
# together; runs each one that builds with `lockstep exec --quiet` from its
# own directory in functional and in timing mode (time limits, default 120
# and 300 s); prints one line per sample and mode (exit status, seconds,
# class) and the count of each class, and writes OUT/table.md, the
# Markdown table docs/cuda-programs.md quotes. A class is `pass` (exit 0),
# `waived` (the sample says it waived itself), `timeout`, `unsupported
# CALL` (the first stub the sample called), `exec: ...` (refused before
# running) or `fail` with the first error the runtime printed.
# Environment: LOCKSTEP=path picks the simulator (default build/lockstep);
# DOC=FILE replaces FILE's block between the cuda-samples markers (as in
# docs/cuda-programs.md) with OUT/table.md;
# BUILD_ONLY=1 builds and runs nothing; ONLY=REGEX reruns the samples whose
# name matches, keeping the other samples' lines of OUT/results.txt.
set -u
usage='usage: cuda-samples.sh SAMPLES OUT [FUNCTIONAL_S [TIMING_S]]'
src=${1:?$usage}
out=${2:?$usage}
tf=${3:-120}
tt=${4:-300}
root=$(cd "$(dirname "$0")/.." && pwd)
cli=${LOCKSTEP:-$root/build/lockstep}   # its libcudart.so.13 must sit beside it
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
src=$(cd "$src" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)

class_of() {   # class_of RC STDOUT STDERR
  local rc=$1 o=$2 e=$3 m
  if [ "$rc" = 0 ]; then echo pass; return; fi
  if grep -qi "waiv" "$o" "$e" 2>/dev/null; then echo waived; return; fi
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then echo timeout; return; fi
  m=$(sed -n 's/^lockstep cudart: \([_a-zA-Z0-9]*\) is not supported.*/\1/p' "$e" | head -1)
  if [ -n "$m" ]; then echo "unsupported $m"; return; fi
  m=$(sed -n 's/^lockstep: exec: [^:]*: \(.*\)/\1/p' "$e" | head -1 | cut -c1-70)
  if [ -n "$m" ] && [ "$rc" = 2 ]; then echo "exec: $m"; return; fi
  m=$(grep -o "LS_ERR_[A-Z]*[^[]*" "$e" | head -1 | cut -c1-90)
  [ -n "$m" ] || m=$(grep -m1 "^lockstep cudart:" "$e" | cut -c18-100)
  echo "fail${m:+ $m}"
}

if [ -n "${ONLY:-}" ] && [ -f "$out/results.txt" ]; then
  awk -v re="$ONLY" '$1 !~ re' "$out/results.txt" > "$out/results.keep"
else
  : > "$out/results.keep"
fi
: > "$out/results.txt"
for d in "$src"/Samples/*/*/; do
  d=${d%/}
  name=$(basename "$d")
  case "$d" in */7_libNVVM/*|*/8_Platform_Specific/*) continue ;; esac
  if ! [[ $name =~ ${ONLY:-.} ]]; then
    grep "^$name " "$out/results.keep" >> "$out/results.txt"
    continue
  fi
  ls "$d"/*.cu > /dev/null 2>&1 || continue
  b=$out/$name
  mkdir -p "$b"
  if ! [ -x "$b/prog" ] && ! [ -e "$b/nobuild" ]; then
    echo "building $name" >&2
    # shellcheck disable=SC2046
    "$nvcc" -cudart shared -gencode arch=compute_75,code=compute_75 -O2 -I"$src/Common" \
      -I"$d" -o "$b/prog" $(ls "$d"/*.cu "$d"/*.cpp 2>/dev/null) > "$b/build.log" 2>&1 ||
      touch "$b/nobuild"
  fi
  if ! [ -x "$b/prog" ]; then
    echo "$name build - 0 nobuild" >> "$out/results.txt"
    continue
  fi
  [ "${BUILD_ONLY:-0}" = 1 ] && continue
  for m in functional timing; do
    t=$tf
    [ "$m" = timing ] && t=$tt
    s0=$(date +%s)
    (cd "$d" && timeout -k 5 "$t" "$cli" exec --quiet --mode "$m" -- "$b/prog" \
       > "$b/$m.out" 2> "$b/$m.err" < /dev/null)
    rc=$?
    echo "$name $m $rc $(( $(date +%s) - s0 )) $(class_of "$rc" "$b/$m.out" "$b/$m.err")" \
      >> "$out/results.txt"
    echo "$name $m: $(tail -1 "$out/results.txt" | cut -d' ' -f3-)" >&2
  done
done
cat "$out/results.txt"
nb=$(grep -c ' nobuild$' "$out/results.txt")
nr=$(awk '$2 == "functional"' "$out/results.txt" | wc -l)
echo "--- samples that build: $nr (and $nb that do not)"
for m in functional timing; do
  echo "--- $m:"
  awk -v m="$m" '$2 == m { $1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); print }' \
    "$out/results.txt" | sort | uniq -c | sort -rn
done

# OUT/table.md: counts per class and mode, then one row per sample.
{
  echo "$((nr + nb)) samples with .cu files: $nr build with nvcc as above," \
       "$nb do not. Time limits: functional ${tf} s, timing ${tt} s."
  echo
  echo "| class | functional | timing |"
  echo "|---|---:|---:|"
  awk '$2 == "functional" || $2 == "timing" {
         c = $5; if (c != "pass" && c != "waived" && c != "timeout") {
           c = $5; for (i = 6; i <= NF && i <= 7; i++) c = c " " $i }
         n[c, $2]++; k[c] = 1 }
       END { for (c in k) printf "| %s | %d | %d |\n", c, n[c, "functional"], n[c, "timing"] }' \
    "$out/results.txt" | sort -t'|' -k3,3nr
  echo
  echo "| sample | functional | timing |"
  echo "|---|---|---|"
  awk '$2 == "functional" { f[$1] = $5 " (" $4 " s)"; o[++n] = $1 }
       $2 == "timing" { t[$1] = $5 " (" $4 " s)" }
       END { for (i = 1; i <= n; i++) printf "| %s | %s | %s |\n", o[i], f[o[i]], t[o[i]] }' \
    "$out/results.txt"
} > "$out/table.md"
echo "--- table: $out/table.md"
if [ -n "${DOC:-}" ]; then
  python3 - "$DOC" "$out/table.md" <<'PY'
import re, sys
doc, table = sys.argv[1], open(sys.argv[2]).read()
text = open(doc).read()
begin = "<!-- cuda-samples: generated by tools/cuda-samples.sh; do not edit -->\n"
end = "<!-- end cuda-samples -->"
i, j = text.index(begin) + len(begin), text.index(end)
open(doc, "w").write(text[:i] + "\n" + table + "\n" + text[j:])
PY
  echo "--- $DOC updated"
fi
