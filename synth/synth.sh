#!/usr/bin/env bash
# make synth: every line of every synth/<blk>_sweep.txt whose rtl/<blk>.v
# exists through synth/netlist.sh with --area (stat files to $1, default
# build/synth; synth/area.py collects them into $1/area.json), and every
# shipped parameter set of synth/shipped.txt (the netlist alone). Each
# point leaves its gate-level netlist in build/netlist/<blk>_<P><v>.../
# (the directory the GPU's netlist backend looks in; a sweep point and a
# shipped set with the same parameters share one synthesis).
#   BLOCKS="a b" restricts the blocks; runs 2 Yosys jobs at a time.
set -u
out=${1:-build/synth}
nl=${NETLIST_DIR:-build/netlist}
mkdir -p "$out" "$nl"
rm -f "$out"/*.err
# netlist directory of a block and its "P=v ..." list: <blk>_<P><v>...
nldir() {
  local d=$nl/$1 kv
  for kv in $2; do d="${d}_${kv%%=*}${kv#*=}"; done
  echo "$d"
}
gargs() {
  local kv
  for kv in $1; do printf -- '-G%s ' "$kv"; done
}
run() {   # blk label params [stat]
  local blk=$1 label=$2 params=$3 stat=${4:-}
  local a=()
  [ -n "$stat" ] && a=(--area "$stat")
  # shellcheck disable=SC2046
  bash synth/netlist.sh "$blk" "$(nldir "$blk" "$params")" $(gargs "$params") "${a[@]}" \
    >/dev/null 2>"$out/${blk}__$label.err" ||
    { echo "synth: Yosys failed for $blk $label ($params):"; cat "$out/${blk}__$label.err"; return 1; }
  rm -f "$out/${blk}__$label.err"
}
wait_slot() {
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do sleep 0.2; done
}
want() { [ -f "rtl/$1.v" ] && { [ -z "${BLOCKS:-}" ] || echo " $BLOCKS " | grep -q " $1 "; }; }
for sw in synth/*_sweep.txt; do
  blk=$(basename "$sw" _sweep.txt)
  want "$blk" || continue
  while read -r label params; do
    [ -n "$label" ] || continue
    echo "$blk $label $params" > "$out/${blk}__$label.params"
    run "$blk" "$label" "$params" "$out/${blk}__$label.stat" &
    wait_slot
  done < <(sed 's/#.*//' "$sw")
done
while read -r blk label params; do
  [ -n "$blk" ] || continue
  want "$blk" || continue
  run "$blk" "shipped-$label" "$params" &
  wait_slot
done < <(sed 's/#.*//' synth/shipped.txt)
wait
fail=0
ls "$out"/*.err >/dev/null 2>&1 && fail=1   # run leaves one per failed point
python3 synth/area.py collect "$out" "$out/area.json" || fail=1
exit $fail
