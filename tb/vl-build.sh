#!/usr/bin/env bash
# Builds the standalone lockstep test of one block/parameter set:
#   tb/vl-build.sh <blk> <set> [mutant-number|0] [cov]
# into build/vl/<blk>_<set>[_m<k>]/tb (build/vl-cov/... with "cov").
# Rebuilds only when an input is newer than the binary.
set -eu
blk=$1; set=$2; mut=${3:-0}; cov=${4:-}
line=$(grep -E "^[[:space:]]*$set([[:space:]]|$)" "tb/${blk}_params.txt" | head -1 | sed 's/#.*//')
[ -n "$line" ] || { echo "vl-build: no set $set in tb/${blk}_params.txt" >&2; exit 2; }
gparams=$(echo "$line" | tr ' \t' '\n\n' | grep -E '^-G' | tr '\n' ' ' || true)
root=build/vl; [ "$cov" = cov ] && root=build/vl-cov
dir=$root/${blk}_${set}; [ "$mut" != 0 ] && dir=${dir}_m$mut
bin=$dir/tb
csrc="csim/blocks/$blk.c $(ls csim/blocks/${blk}_*.c csim/blocks/blk_*.c 2>/dev/null | tr '\n' ' ')"
tbsrc="tb/${blk}_tb.c tb/lockstep.c tb/tb_main.c"
rtl="rtl/$blk.v $(ls rtl/${blk}_*.v 2>/dev/null | tr '\n' ' ')"
deps="$csrc $tbsrc $rtl tb/vl_glue.cpp tb/vl_glue.h tb/lockstep.h tb/${blk}_params.txt tb/vl-build.sh csim/blocks/$blk.h csim/blocks/${blk}_ports.def"
if [ -x "$bin" ]; then
  stale=0
  for f in $deps; do [ "$f" -nt "$bin" ] && stale=1; done
  [ $stale = 0 ] && exit 0
fi
mkdir -p "$dir/c"
# Verilator's makefile does not track the prebuilt .o files below as link
# dependencies: remove the binary so it is always relinked.
rm -f "$bin"
defs=(-DBLK=$blk "-DBLK_HDR=\"blocks/$blk.h\"" "-DBLK_DEF=\"blocks/${blk}_ports.def\"" "-DTB_SET=\"$set\"" "-DTB_GPARAMS=\"$gparams\"" "-DTB_BUILD=\"tb/vl-build.sh $blk $set $mut $cov\"")
objs=""
for f in $csrc $tbsrc; do
  o=$dir/c/$(basename "$f" .c).o
  gcc -std=c11 -Wall -Wextra -Wshadow -Wmissing-prototypes -Werror -O2 -g \
      -D_POSIX_C_SOURCE=200809L -I. -Iinclude -Icsim -Itb "${defs[@]}" -c "$f" -o "$o"
  objs="$objs $(pwd)/$o"
done
# ccache (mk/deps.sh installs it): every build compiles the same Verilator
# runtime and glue, which is most of a build's time; test-blocks and
# mutants make dozens of builds (the cache lives in build/ccache)
objcache=""
if command -v ccache >/dev/null 2>&1; then
  objcache=ccache
  export CCACHE_DIR=${CCACHE_DIR:-$(pwd)/build/ccache}
fi
vflags="--cc --exe --build -j 1 --trace-fst --prefix Vtop --top-module $blk -Wno-fatal"
[ "$mut" != 0 ] && vflags="$vflags -DMUTANT_$mut"
[ "$cov" = cov ] && vflags="$vflags --coverage-line --coverage-toggle"
# shellcheck disable=SC2086
verilator $vflags $gparams -Mdir "$dir" -o tb \
  -CFLAGS "-I$(pwd)/tb -I$(pwd)/csim -I$(pwd)/include -DBLK=$blk '-DBLK_DEF=\"blocks/${blk}_ports.def\"'" \
  -MAKEFLAGS "OBJCACHE=$objcache OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1 -s" \
  $(pwd)/tb/vl_glue.cpp $objs $rtl rtl/lockstep.vlt >"$dir/build.log" 2>&1 \
  || { tail -30 "$dir/build.log" >&2; exit 1; }
[ -x "$bin" ] || { echo "vl-build: $bin not built" >&2; exit 1; }
