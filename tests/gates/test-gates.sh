#!/usr/bin/env bash
# make test-gates: the part of the gate-level sign-off that fits make test
# (the whole is make run-gates and make equiv, mk/gates.mk), on the
# smallest block in the loop, the SLP of gtx480 (W=32 NWARPS=48 ROT_EN=1):
#  1. synth/nand2eq_cells.v is what synth/cells.py makes of the liberty;
#  2. its netlist (synth/netlist.sh) runs three workloads in the loop with
#     0 mismatches under the netlist backend;
#  3. a one-gate mutant of that netlist (synth/mutate.py) stops a run with
#     a mismatch report and exit 3;
#  4. Yosys proves the netlist equal to rtl/slp.v (synth/equiv.py), and
#     its counterexample converter keeps every input bit of every block
#     (tests/gates/test-cex.py);
#  and the coverage bins are the same under the C model and the netlist,
#  and in --stats-json (a bin not reached shows 0).
#   tests/gates/test-gates.sh LOCKSTEP
set -u
cli=${1:-build/lockstep}
out=build/test-gates
mkdir -p "$out"
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
set_=(--config gtx480 --set slp.permutation=balanced --set simt.compaction=tbc)

python3 synth/cells.py synth/nand2eq.lib --check synth/nand2eq_cells.v >/dev/null &&
  ok "synth/nand2eq_cells.v matches synth/nand2eq.lib" ||
  bad "synth/nand2eq_cells.v is stale: run make synth and commit it"

python3 tests/gates/test-cex.py > "$out/cex.log" 2>&1 &&
  ok "counterexample to block trace: every input bit of every block, a mid-way reset refused (tests/gates/test-cex.py)" ||
  { bad "tests/gates/test-cex.py:"; cat "$out/cex.log"; }

nl=build/netlist/slp_W32_NWARPS48_ROT_EN1
bash synth/netlist.sh slp "$nl" -GW=32 -GNWARPS=48 -GROT_EN=1 >/dev/null ||
  bad "synth/netlist.sh slp"

"$cli" run bfs sssp reduce --size small "${set_[@]}" --cosim slp --backend netlist \
  --table > "$out/loop.log" 2>&1
rc=$?
line=$(grep '^cosim slp' "$out/loop.log")
if [ $rc = 0 ] && echo "$line" | grep -q 'netlist .* 0 mismatches'; then
  ok "SLP netlist in the loop: $(echo "$line" | sed 's/  */ /g')"
else
  bad "SLP netlist in the loop (exit $rc):"; tail -20 "$out/loop.log"
fi

# the coverage bins are counted at the seam: the gates and the C model
# must give the same counts on the same runs
for be in c netlist; do
  "$cli" coverage bfs sssp reduce --size small "${set_[@]}" --cosim slp --backend $be \
    --quiet --json "$out/cover-$be.json" > /dev/null 2>&1 || bad "lockstep coverage --backend $be"
done
if python3 - "$out/cover-c.json" "$out/cover-netlist.json" <<'EOF'
import json, sys
a, b = (json.load(open(p))["workloads"] for p in sys.argv[1:3])
strip = lambda ws: [(w["workload"], w["blocks"]) for w in ws]
sys.exit(0 if strip(a) == strip(b) and any(w["blocks"]["slp"].get("lookup_xor") for w in a) else 1)
EOF
then ok "coverage bins of the SLP: the same under the C model and the netlist"
else bad "coverage bins differ between --backend c and netlist ($out/cover-*.json)"; fi

# the same bins in --stats-json ("coverage": per block clocked, every bin
# by name, 0 for one not reached: launch_none under the balanced mode)
"$cli" run bfs sssp reduce --size small "${set_[@]}" --cosim slp \
  --stats-json "$out/stats.json" > /dev/null 2>&1 || bad "lockstep run --stats-json"
if python3 - "$out/cover-c.json" "$out/stats.json" <<'EOF'
import json, sys
cov = {w["workload"]: w["blocks"]["slp"] for w in json.load(open(sys.argv[1]))["workloads"]}
st = {w["workload"]: w for w in json.load(open(sys.argv[2]))}
ok = all(st[n]["coverage"]["slp"] == b and
         sum(l["coverage"]["slp"]["lookup_xor"] for l in st[n]["launches"]) == b["lookup_xor"]
         for n, b in cov.items())
sys.exit(0 if ok and all(st[n]["coverage"]["slp"]["launch_none"] == 0 for n in st) else 1)
EOF
then ok "--stats-json coverage: the bins of lockstep coverage, per workload and summed over launches; a bin not reached shows 0"
else bad "--stats-json coverage differs from lockstep coverage ($out/stats.json)"; fi

mkdir -p "$out/mutant"
mut=$(python3 synth/mutate.py "$nl/slp.v" "$out/mutant/slp.v" 'key_o[0]') ||
  bad "synth/mutate.py"
"$cli" run bfs --size small "${set_[@]}" --cosim slp --rtl slp="$out/mutant/slp.v" \
  --fail-dir "$out/mutant/fail" > "$out/mutant/loop.log" 2>&1
rc=$?
if [ $rc = 3 ] && grep -q 'MISMATCH sm[0-9]*\.slp .*port=key_o' "$out/mutant/loop.log"; then
  ok "$mut: caught in the loop, exit 3, $(grep -m1 -o 'MISMATCH [^(]*' "$out/mutant/loop.log")"
else
  bad "$mut: not caught in the loop (exit $rc)"; tail -20 "$out/mutant/loop.log"
fi

eq=$(python3 synth/equiv.py --out "$out/equiv" slp gtx480 W=32 NWARPS=48 ROT_EN=1)
rc=$?
[ $rc = 0 ] && ok "$eq" || bad "$eq"
echo "test-gates: $([ $fail = 0 ] && echo PASS || echo FAIL)"
exit $fail
