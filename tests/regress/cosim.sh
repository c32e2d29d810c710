#!/usr/bin/env bash
# cosim.sh CLI: RTL in the loop (`make test-cosim`; docs/cosim.md).
#  - every workload (small) passes with SLP in lockstep under every
#    permutation mode, 0 mismatches, and with no compaction the mode changes
#    nothing: final memory equal to functional mode, cycles and SIMD
#    utilisation equal to mode none;
#  - the rtl backend alone gives the same statistics as the C model;
#  - an RTL mutant given with --rtl stops a real workload with the report
#    (SLP; RVC under lockstep with its windowed trace replayed, and under
#    the rtl backend alone through the decompressed-value check)
#    and exit 3; the trace it writes replays to the same mismatch (exit 3)
#    and to none on the stock RTL (exit 0); --cosim-continue counts;
#  - the JUnit XML parses (python3 xml.etree) with a failing testcase;
#  - bad input: ports of a user's module that do not match, a block not in
#    the loop, a backend in functional mode: exit 2 naming the problem.
set -u
cli=${1:?usage: cosim.sh path/to/lockstep}
out=build/test-cosim
rm -rf "$out"
mkdir -p "$out"
fail=0
ok()  { echo "ok   $*"; }
bad() { echo "FAIL $*" >&2; fail=$((fail + 1)); }

# 1. every mode, lockstep, against functional memory and mode none
"$cli" run all --size small --mode functional --stats-json "$out/func.json" >/dev/null 2>&1 \
  || bad "functional reference run failed"
modes="none balanced odd_even rev_wid wid flip_odd xor_half_odd rotate_odd_1"
for m in $modes; do
  "$cli" run all --size small --cosim slp --set slp.permutation=$m \
      --stats-json "$out/perm_$m.json" >"$out/perm_$m.txt" 2>&1
  rc=$?
  [ $rc = 0 ] && ok "slp.permutation=$m: every workload passes in lockstep" \
    || { bad "slp.permutation=$m: exit $rc"; tail -5 "$out/perm_$m.txt" >&2; }
done
python3 - "$out" $modes <<'PY' || bad "permutation changed a result (above)"
import json, sys
out, modes = sys.argv[1], sys.argv[2:]
func = {o["workload"]: o for o in json.load(open(f"{out}/func.json"))}
base = {o["workload"]: o for o in json.load(open(f"{out}/perm_none.json"))}
errs = 0
for m in modes:
    for o in json.load(open(f"{out}/perm_{m}.json")):
        w, c = o["workload"], o["cosim"].get("slp")
        if not c or c["backend"] != "lockstep" or c["mismatches"] or not c["transactions"]:
            print(f"  {m} {w}: cosim {c}"); errs += 1
        if o["mem_digest"] != func[w]["mem_digest"]:
            print(f"  {m} {w}: final memory differs from functional mode"); errs += 1
        for k in ("cycles", "thread_insts", "warp_insts", "simd_util"):
            if o[k] != base[w][k]:
                print(f"  {m} {w}: {k} {o[k]} != {base[w][k]} under none"); errs += 1
        # one launch and one exit lookup per warp
        if c and c["transactions"] % 2:
            print(f"  {m} {w}: odd transaction count {c['transactions']}"); errs += 1
print(f"  {len(modes)} modes x {len(base)} workloads checked")
sys.exit(1 if errs else 0)
PY
[ $? = 0 ] && ok "permutation modes: memory = functional, cycles and SIMD utilisation = none"

# 2. the rtl backend alone
"$cli" run all --size small --cosim slp --backend rtl --stats-json "$out/rtl.json" >/dev/null 2>&1 \
  || bad "rtl backend run failed"
python3 - "$out" <<'PY' && ok "rtl backend: same statistics as the C model" || bad "rtl backend differs"
import json, sys
a = json.load(open(f"{sys.argv[1]}/rtl.json"))
b = {o["workload"]: o for o in json.load(open(f"{sys.argv[1]}/perm_none.json"))}
bad = [o["workload"] for o in a
       if o["cosim"]["slp"]["backend"] != "rtl" or
       any(o[k] != b[o["workload"]][k] for k in ("cycles", "mem_digest", "thread_insts")) or
       o["cosim"]["slp"]["transactions"] != b[o["workload"]]["cosim"]["slp"]["transactions"]]
print("  differ:", bad) if bad else None
sys.exit(1 if bad else 0)
PY

# 3. a mutant is caught in the loop; its trace replays
{ echo '`define MUTANT_3'; cat rtl/slp.v; } >"$out/slp_m3.v"
"$cli" run bfs --size small --rtl slp="$out/slp_m3.v" --fail-dir "$out/fail" \
    --junit "$out/m3.xml" >"$out/m3.txt" 2>&1
rc=$?
[ $rc = 3 ] && ok "mutant 3 (top lane dropped): run stops with exit 3" || bad "mutant 3: exit $rc, want 3"
grep -q '^FAIL bfs.*MISMATCH sm[0-9]*\.slp edge=[0-9]* port=mask_o\[0\] expected=0x[0-9a-f]* actual=0x' "$out/m3.txt" \
  && grep -q 'at: kernel .*GPU cycle [0-9]*, launch of warp' "$out/m3.txt" \
  && grep -q 'replay: build/lockstep replay' "$out/m3.txt" \
  && ok "mutant 3: report names instance, port, values, warp, replay" || { bad "mutant 3: report incomplete"; cat "$out/m3.txt" >&2; }
trace=$(ls "$out"/fail/bfs/*.trace 2>/dev/null | head -1)
[ -n "$trace" ] && [ -s "${trace%.trace}.fst" ] && ok "mutant 3: trace and FST window written" \
  || bad "mutant 3: no trace/FST under $out/fail/bfs"
if [ -n "$trace" ]; then
  "$cli" replay "$trace" --fst "$out/replay.fst" >"$out/replay.txt" 2>&1
  rc=$?
  want=$(grep -o 'MISMATCH [^(]*' "$out/m3.txt" | head -1)
  got=$(grep -o 'MISMATCH [^(]*' "$out/replay.txt" | head -1)
  [ $rc = 3 ] && [ -n "$want" ] && [ "$want" = "$got" ] && [ -s "$out/replay.fst" ] \
    && ok "replay reproduces: $got" || bad "replay: exit $rc, '$got' vs '$want'"
  grep -v '^rtl ' "$trace" >"$out/stock.trace"
  "$cli" replay "$out/stock.trace" >"$out/replay-stock.txt" 2>&1
  rc=$?
  [ $rc = 0 ] && ok "the same trace on the stock RTL: no mismatch (exit 0)" || bad "stock replay exit $rc"
  make --no-print-directory replay TRACE="$trace" >"$out/make-replay.txt" 2>&1
  [ $? -ne 0 ] && grep -qF "$want" "$out/make-replay.txt" && ok "make replay TRACE=... reproduces" \
    || bad "make replay did not reproduce"
fi
"$cli" run bfs --size small --rtl slp="$out/slp_m3.v" --cosim-continue --fail-dir "$out/fail2" \
    --stats-json "$out/cont.json" >/dev/null 2>&1
rc=$?
n=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['cosim']['slp']['mismatches'])" "$out/cont.json" 2>/dev/null)
[ $rc = 3 ] && [ "${n:-0}" -gt 1 ] && ok "--cosim-continue: $n mismatches counted, exit 3" \
  || bad "--cosim-continue: exit $rc, mismatches '$n'"

# 3b. RVC (gscalar.compress=on, docs/gscalar.md): under lockstep a
# compressor mutant stops bfs and its (windowed) trace replays; under the
# rtl backend alone a decompressor that rebuilds wrong values is caught by
# the check against the architectural value
{ echo '`define MUTANT_3'; cat rtl/rvc_comp.v; } >"$out/rvc_comp_m3.v"
"$cli" run bfs --size small --set gscalar.compress=on --rtl rvc_comp="$out/rvc_comp_m3.v" \
    --fail-dir "$out/rvcfail" >"$out/rvc_m3.txt" 2>&1
rc=$?
rtrace=$(ls "$out"/rvcfail/bfs/sm*.rvc_comp.*.trace 2>/dev/null | head -1)
if [ $rc = 3 ] && grep -q '^FAIL bfs.*MISMATCH sm[0-9]*\.rvc_comp\.[a-z]*[0-9]* edge=' "$out/rvc_m3.txt" \
   && [ -n "$rtrace" ]; then
  "$cli" replay "$rtrace" >"$out/rvc_replay.txt" 2>&1
  rrc=$?
  want=$(grep -o 'MISMATCH [^(]*' "$out/rvc_m3.txt" | head -1)
  got=$(grep -o 'MISMATCH [^(]*' "$out/rvc_replay.txt" | head -1)
  [ $rrc = 3 ] && [ "$want" = "$got" ] && ok "rvc_comp mutant 3 under lockstep: exit 3, replay reproduces: $got" \
    || bad "rvc_comp mutant 3: replay exit $rrc, '$got' vs '$want'"
else
  bad "rvc_comp mutant 3 under lockstep: exit $rc (want 3), trace '$rtrace'"; tail -3 "$out/rvc_m3.txt" >&2
fi
{ echo '`define MUTANT_1'; cat rtl/rvc_decomp.v; } >"$out/rvc_decomp_m1.v"
"$cli" run bfs --size small --set gscalar.compress=on --set gscalar.granularity=16 \
    --rtl rvc_decomp="$out/rvc_decomp_m1.v" --set rvc_decomp.backend=rtl \
    --fail-dir "$out/rvcfail2" >"$out/rvc_d1.txt" 2>&1
rc=$?
[ $rc = 3 ] && grep -q 'RVC MODEL ERROR sm[0-9]*\.rvc_decomp\.oc[0-9]*: .*operand read of .*rtl backend' "$out/rvc_d1.txt" \
  && ok "rvc_decomp mutant 1 under the rtl backend alone: the value check stops the run (exit 3)" \
  || { bad "rvc_decomp mutant 1 (rtl backend): exit $rc"; tail -3 "$out/rvc_d1.txt" >&2; }

# 4. JUnit
python3 - "$out/m3.xml" <<'PY' && ok "JUnit XML parses: workload and block testcases, failure text" || bad "JUnit XML"
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
cases = r.findall(".//testcase")
names = sorted((c.get("classname"), c.get("name")) for c in cases)
assert names == [("lockstep.cosim.slp", "bfs"), ("lockstep.workload", "bfs")], names
fails = [c.find("failure") for c in cases]
assert all(f is not None and "MISMATCH" in f.text for f in fails), "failure text"
assert r.get("failures") == "2"
PY
"$cli" run vecadd --size small --cosim all --junit "$out/ok.xml" >/dev/null 2>&1
python3 -c "import sys,xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); assert r.get('failures')=='0' and len(r.findall('.//testcase'))==2" "$out/ok.xml" \
  && ok "JUnit XML of a passing run: 2 testcases, 0 failures" || bad "JUnit of a passing run"

# 5. bad input
sed 's/launch_i/go_i/g; s/output logic \[W-1:0\]        mask_o/output logic [W-2:0]        mask_o/' \
  rtl/slp.v >"$out/slp_ports.v"
"$cli" run vecadd --size small --rtl slp="$out/slp_ports.v" >"$out/ports.txt" 2>&1
rc=$?
[ $rc = 2 ] && grep -q 'port launch_i (input, 1 bits) is missing' "$out/ports.txt" \
  && grep -q 'port mask_o is 31 bits wide, expected 32' "$out/ports.txt" \
  && grep -q 'port go_i is not a port of the slp block' "$out/ports.txt" \
  && ok "--rtl with wrong ports: exit 2 naming each port" || { bad "--rtl port check: exit $rc"; cat "$out/ports.txt" >&2; }
expect2() {  # description, grep pattern, command...
  local what=$1 pat=$2; shift 2
  "$@" >"$out/e.txt" 2>&1
  local rc=$?
  [ $rc = 2 ] && grep -q "$pat" "$out/e.txt" && ok "$what: exit 2" \
    || { bad "$what: exit $rc"; cat "$out/e.txt" >&2; }
}
expect2 "--cosim xyz" "unknown block 'xyz'" "$cli" run vecadd --cosim xyz
expect2 "--cosim slp in functional mode" "needs timing" "$cli" run vecadd --cosim slp --mode functional
expect2 "--rtl missing file" "cannot read" "$cli" run vecadd --rtl slp=/nonexistent.v
expect2 "--rtl not a block" "not a block in the GPU loop" "$cli" run vecadd --rtl foo=rtl/slp.v
expect2 "--backend bad" "c, rtl, lockstep or netlist" "$cli" run vecadd --backend verilog
expect2 "replay of a non-trace" "README.md:3: expected the header" "$cli" replay README.md

[ $fail = 0 ] && echo "cosim: all checks passed" || echo "cosim: $fail checks failed"
[ $fail = 0 ]
