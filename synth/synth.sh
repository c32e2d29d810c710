#!/usr/bin/env bash
# Runs synth/flow.ys for every line of every synth/<blk>_sweep.txt whose
# rtl/<blk>.v exists; stat files go to $1 (default build/synth), then
# synth/area.py collects them into $1/area.json.
#   BLOCKS="a b" restricts the blocks; runs 2 Yosys jobs at a time.
set -u
out=${1:-build/synth}
mkdir -p "$out"
jobs=""
for sw in synth/*_sweep.txt; do
  blk=$(basename "$sw" _sweep.txt)
  [ -f "rtl/$blk.v" ] || continue
  if [ -n "${BLOCKS:-}" ] && ! echo " $BLOCKS " | grep -q " $blk "; then continue; fi
  files="rtl/$blk.v $(ls rtl/${blk}_*.v 2>/dev/null | tr '\n' ' ')"
  while read -r label params; do
    [ -n "$label" ] || continue
    case $label in \#*) continue ;; esac
    params=${params%%#*}
    chp=""
    for kv in $params; do chp="$chp -set ${kv%%=*} ${kv#*=}"; done
    [ -n "$chp" ] && chp="chparam$chp $blk"
    stat=$out/${blk}__$label.stat
    echo "$blk $label $params" > "$out/${blk}__$label.params"
    # rerun only when an input changed (content key: sources, flow, params)
    # shellcheck disable=SC2086
    key=$( (cat $files synth/flow.ys synth/nand2eq.lib; echo "$params") | md5sum | cut -c1-32)
    if [ -f "$stat" ] && [ "$(cat "$stat.key" 2>/dev/null)" = "$key" ]; then
      continue
    fi
    rm -f "$stat" "$stat.key"
    ys=$out/${blk}__$label.$$.ys
    sed -e "s|@FILES@|$files|" -e "s|@TOP@|$blk|" -e "s|@CHPARAM@|$chp|" \
        -e "s|@STAT@|$stat.tmp$$|" synth/flow.ys > "$ys"
    # per-run temporaries, atomic renames: two synth runs may share $out
    ( yosys -q -l "$out/${blk}__$label.log" -s "$ys" >/dev/null 2>&1 \
        && { cat "$stat.tmp$$.cmos"; echo "#### LIBERTY ####"; cat "$stat.tmp$$.lib"; } > "$stat.$$" \
        && rm -f "$stat.tmp$$".* "$ys" && mv "$stat.$$" "$stat" \
        && echo "$key" > "$stat.key" || echo "synth: yosys failed for $blk $label (see $out/${blk}__$label.log)" ) &
    jobs="$jobs $!"
    while [ "$(jobs -rp | wc -l)" -ge 2 ]; do sleep 0.2; done
  done < <(sed 's/#.*//' "$sw")
done
wait
python3 synth/area.py collect "$out" "$out/area.json"
