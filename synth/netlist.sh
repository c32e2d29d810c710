#!/usr/bin/env bash
# The gate-level netlist of one block and parameter set: synth/flow.ys (the
# flow of the area figures) mapped to synth/nand2eq.lib, flattened, with the
# cell models (synth/nand2eq_cells.v) appended, so the file is a
# self-contained Verilog design with the block's module name and ports.
#   synth/netlist.sh BLK OUTDIR [-GNAME=value ...] [--rtl FILE.v] [--area STAT]
# Writes OUTDIR/BLK.v (the netlist), OUTDIR/cells.txt (its flat cell
# counts: stat -liberty) and OUTDIR/yosys.log. --rtl synthesises FILE.v
# instead of rtl/BLK.v (helper modules rtl/BLK_*.v are added unless FILE.v
# defines them, as tb/vl-so.sh does). --area also runs the transistor
# mapping and writes the joined stat report synth/area.py reads to STAT.
# Rebuilds only when the sources, the flow, the library, the cell models or
# the parameters changed (OUTDIR/key); concurrent calls for one OUTDIR wait
# for each other (flock). The GPU's netlist backend (csim/cosim/
# cosim_netlist.c), make synth, make equiv and make run-gates call it.
# Exit status: 0 built or up to date ("netlist: built" on stdout when
# built), 1 Yosys failed (the log tail on stderr), 2 bad arguments.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { echo "usage: synth/netlist.sh BLK OUTDIR [-GNAME=value ...] [--rtl FILE.v] [--area STAT]" >&2; exit 2; }
blk=$1; out=$2; shift 2
rtl=$root/rtl/$blk.v
area=""
gparams=()
while [ $# -gt 0 ]; do
  case $1 in
    -G*=*) gparams+=("$1") ;;
    --rtl) rtl=$(readlink -f "$2"); shift ;;
    --area) area=$(readlink -m "$2"); shift ;;
    *) echo "netlist.sh: unexpected argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
[ -f "$rtl" ] || { echo "netlist.sh: no RTL $rtl" >&2; exit 2; }
files=("$rtl")
for h in "$root"/rtl/"${blk}"_*.v; do
  [ -e "$h" ] || continue
  mod=$(basename "$h" .v)
  if [ "$rtl" != "$(readlink -f "$root/rtl/$blk.v")" ] &&
     grep -Eq "^[[:space:]]*module[[:space:]]+$mod\\b" "$rtl"; then
    continue
  fi
  files+=("$h")
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
exec 9>"$out/.lock"
flock 9
# content key: sources, flow, library, cell models, this script, parameters
key=$( (cd "$root" && cat "${files[@]}" synth/flow.ys synth/nand2eq.lib synth/nand2eq_cells.v \
          synth/netlist.sh; echo "${gparams[*]:-}") | md5sum | cut -c1-32)
net=$out/$blk.v
if [ -f "$net" ] && [ "$(cat "$out/key" 2>/dev/null)" = "$key" ] &&
   { [ -z "$area" ] || { [ -f "$area" ] && [ "$(cat "$area.key" 2>/dev/null)" = "$key" ]; }; }; then
  exit 0
fi
chp=""
for g in "${gparams[@]:+${gparams[@]}}"; do
  kv=${g#-G}
  chp="$chp -set ${kv%%=*} ${kv#*=}"
done
[ -n "$chp" ] && chp="chparam$chp $blk"
cmos="# "
[ -n "$area" ] && cmos=""
tmp=$out/tmp.$$
ys=$tmp.ys
sed -e "s|@FILES@|${files[*]}|" -e "s|@TOP@|$blk|" -e "s|@CHPARAM@|$chp|" \
    -e "s|@STAT@|$tmp|" -e "s|@NETLIST@|$tmp.v|" -e "s|@CMOS@|$cmos|" \
    "$root/synth/flow.ys" > "$ys"
if ! (cd "$root" && yosys -q -l "$out/yosys.log" -s "$ys") >/dev/null 2>&1; then
  echo "netlist.sh: Yosys failed for $blk ${gparams[*]:-} (log: $out/yosys.log):" >&2
  tail -20 "$out/yosys.log" >&2
  rm -f "$tmp".*
  exit 1
fi
# The parameters the netlist was synthesised for, declared in its top
# module (so the loop's -G values elaborate) with a guard: other values are
# an elaboration error in Yosys and a USERFATAL warning in Verilator.
decl=""; cond=""; vals=""
for g in "${gparams[@]:+${gparams[@]}}"; do
  kv=${g#-G}
  decl="$decl  parameter ${kv%%=*} = ${kv#*=};\n"
  cond="$cond${cond:+ || }${kv%%=*} != ${kv#*=}"
  vals="$vals${vals:+ }$kv"
done
if [ -n "$cond" ]; then
  decl="$decl  generate if ($cond) begin : netlist_params\n"
  decl="$decl    \$fatal(1, \"this netlist of $blk was synthesised for $vals only\");\n"
  decl="$decl  end endgenerate\n"
fi
{
  echo "// Gate-level netlist of $blk ${vals:-(default parameters)}: synth/flow.ys"
  echo "// mapped to synth/nand2eq.lib, flattened (synth/netlist.sh; a build output)."
  echo "// RTL: ${files[*]#"$root"/}"
  awk -v top="$blk" -v decl="$decl" '
    { print }
    !done && $1 == "module" && index($2, top "(") == 1 { inhdr = 1 }
    inhdr && /\);[[:space:]]*$/ { printf "%s", decl; inhdr = 0; done = 1 }
  ' "$tmp.v"
  cat "$root/synth/nand2eq_cells.v"
} > "$net.tmp"
# the same netlist keeps its time stamp: a Verilated model of it stays valid
if cmp -s "$net.tmp" "$net"; then rm -f "$net.tmp"; else mv "$net.tmp" "$net"; fi
mv "$tmp.flat" "$out/cells.txt"
if [ -n "$area" ]; then
  { cat "$tmp.cmos"; echo "#### LIBERTY ####"; cat "$tmp.lib"; } > "$area.tmp$$"
  mv "$area.tmp$$" "$area"
  echo "$key" > "$area.key"
fi
rm -f "$tmp".*
echo "$key" > "$out/key"
echo "netlist: built $net"
