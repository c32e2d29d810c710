#!/usr/bin/env bash
# The CAPT area bound (synth/bound/capt_array.v) at 2..32 entries, without
# and with the spec's update port, through the blocks' flow (synth/flow.ys)
# and NAND2-equivalent library; prints a markdown table against Table 4.3.
#   bash synth/bound.sh [OUTDIR]      (docs/area.md quotes its output)
set -eu
out=${1:-build/synth-bound}
mkdir -p "$out"
declare -A paper=([2]=733.56 [4]=1432.63 [8]=2840.43 [16]=6005.44 [32]=12338.07)
echo "| entries | Table 4.3 | array alone | vs paper | array + update port | vs paper |"
echo "|---:|---:|---:|---:|---:|---:|"
for e in 2 4 8 16 32; do
  row="| $e | ${paper[$e]}"
  for upd in 0 1; do
    st=$out/e${e}_u$upd
    sed -e "s|@FILES@|synth/bound/capt_array.v|" -e "s|@TOP@|capt_array|" \
        -e "s|@CHPARAM@|chparam -set ENTRIES $e -set UPD $upd capt_array|" \
        -e "s|@STAT@|$st|" -e "s|@CMOS@||" -e "s|@NETLIST@|$st.v|" synth/flow.ys > "$st.ys"
    yosys -q -l "$st.log" -s "$st.ys" >/dev/null
    a=$(awk '/Chip area for (top )?module/{a=$NF} END{print a}' "$st.lib")
    row="$row | $(printf %.0f "$a") | $(python3 -c "print('%+.1f%%' % (100*($a/${paper[$e]}-1)))")"
  done
  echo "$row |"
done
