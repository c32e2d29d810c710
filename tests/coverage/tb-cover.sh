#!/usr/bin/env bash
# The functional coverage bins the standalone testbenches reach: for every
# block and parameter set of tb/<blk>_params.txt, tests/coverage/cover_tb.c
# compiled with the block's stimulus hooks (tb/<blk>_tb.c) and C model, run
# on the directed cases and the three seeded random runs of make
# test-blocks (same seeds, cycles and --rand-reset values).
#   tests/coverage/tb-cover.sh OUTDIR     writes OUTDIR/<blk>_<set>.txt
# BLK_SEED (first seed, default 1) and BLOCKS ("a b") as in tb/blocks.sh.
set -eu
out=${1:-build/coverage/tb}
mkdir -p "$out"
seed0=${BLK_SEED:-1}
for b in $(bash tb/blocks.sh list); do
  for s in $(sed 's/#.*//' "tb/${b}_params.txt" | awk 'NF {print $1}'); do
    line=$(sed 's/#.*//' "tb/${b}_params.txt" | awk -v s="$s" '$1==s')
    gp=$(echo "$line" | tr ' \t' '\n\n' | grep -E '^-G' | tr '\n' ' ' || true)
    cyc=$(echo "$line" | tr ' \t' '\n\n' | sed -n 's/^cycles=//p')
    cyc=${cyc:-100000}
    dir=build/coverage/bin/${b}_$s
    mkdir -p "$dir"
    srcs="tests/coverage/cover_tb.c tb/${b}_tb.c tb/lockstep.c csim/cosim/cosim_cover.c csim/blocks/$b.c $(ls csim/blocks/${b}_*.c csim/blocks/blk_*.c 2>/dev/null | tr '\n' ' ')"
    bin=$dir/cover_tb
    stale=1
    if [ -x "$bin" ]; then
      stale=0
      # shellcheck disable=SC2086
      for f in $srcs tb/${b}_params.txt csim/blocks/$b.h csim/cosim/cosim_cover.h csim/cosim/cosim_cover.def tests/coverage/tb-cover.sh; do
        [ "$f" -nt "$bin" ] && stale=1
      done
    fi
    if [ $stale = 1 ]; then
      # shellcheck disable=SC2086
      gcc -std=c11 -Wall -Wextra -Wshadow -Wmissing-prototypes -Werror -O2 \
          -D_POSIX_C_SOURCE=200809L -I. -Iinclude -Icsim -Itb -DBLK="$b" \
          "-DBLK_HDR=\"blocks/$b.h\"" "-DBLK_DEF=\"blocks/${b}_ports.def\"" \
          "-DTB_SET=\"$s\"" "-DTB_GPARAMS=\"$gp\"" -o "$bin" $srcs
    fi
    "$bin" "$out/${b}_$s.txt" "$seed0:$cyc:0" "$((seed0 + 1)):$cyc:1" "$((seed0 + 2)):$cyc:2" >/dev/null
  done
done
