#!/usr/bin/env bash
# compaction.sh CLI: thread-block compaction (docs/compaction.md), the full
# cross product behind `make test-compaction-all` (test-timing runs a subset):
#  - every workload (small) PASSes under simt.compaction = tbc, tbc_plus,
#    ideal (and capri below), each with slp.permutation = none and balanced, and leaves final
#    memory identical to functional mode (the comparison of timing.sh);
#  - every such run has a "compaction" object naming the scheme; a compacted
#    launch's compacted warps ran every thread instruction of the launch;
#  - a kernel with warp-level instructions (reduce: shfl) runs uncompacted
#    and says "uncompacted: shfl at line N";
#  - a divergent kernel (bfs) forms fewer warps than it would without
#    compaction (nw_tbc < nw_nocomp) and ideal never forms more than tbc;
#  - capri under each CAPT history x {none, balanced}: the same, and its
#    lookups, predictions and their Fig 4.21 judgements add up.
set -u
cli=${1:?usage: compaction.sh path/to/lockstep}
size=${TIMING_SIZE:-small}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-compaction.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
ok()  { echo "ok   $*"; }
bad() { echo "FAIL $*" >&2; fail=$((fail + 1)); }
here=$(cd "$(dirname "$0")" && pwd)

"$cli" run all --size "$size" --mode functional --stats-json "$tmp/func.json" \
  >"$tmp/func.txt" 2>&1 || bad "functional reference: exit $?"
# the digest comparison of timing.sh, shared
sed -n '/^cat >"\$tmp\/compare.py" <<.PY.$/,/^PY$/p' "$here/timing.sh" | sed '1d;$d' \
  >"$tmp/compare.py"
[ -s "$tmp/compare.py" ] || bad "compare.py not found in timing.sh"

cat >"$tmp/check.py" <<'PY'
import json, re, sys
runs, scheme = json.load(open(sys.argv[1])), sys.argv[2]
errs = []
for o in runs:
    w, c = o["workload"], o.get("compaction")
    if not c or c.get("scheme") != scheme:
        errs.append("%s: no compaction object for %s: %r" % (w, scheme, c))
        continue
    for l in o.get("launches", []):
        lc = l.get("compaction", {})
        if lc.get("uncompacted") is None and lc.get("thread_insts") != l.get("thread_insts"):
            errs.append("%s: a compacted launch ran %s of its %s thread insts in "
                        "compacted warps" % (w, lc.get("thread_insts"), l.get("thread_insts")))
    if w == "reduce" and not re.fullmatch(r"uncompacted: shfl at line [0-9]+",
                                          str(c.get("uncompacted"))):
        errs.append("reduce: uncompacted reason %r" % c.get("uncompacted"))
    if w == "bfs" and not c["nw_tbc"] < c["nw_nocomp"]:
        errs.append("bfs: nw_tbc %s not below nw_nocomp %s" % (c["nw_tbc"], c["nw_nocomp"]))
    if w == "bfs" and scheme == "ideal" and c["nw_tbc"] != c["nw_ideal"]:
        errs.append("bfs: ideal formed %s warps, NW_ideal %s" % (c["nw_tbc"], c["nw_ideal"]))
for e in errs:
    print("  %s: %s" % (scheme, e), file=sys.stderr)
sys.exit(1 if errs else 0)
PY

for scheme in tbc tbc_plus ideal; do
  for perm in none balanced; do
    tag=$scheme-$perm
    "$cli" run all --size "$size" --mode timing --set simt.compaction=$scheme \
      --set slp.permutation=$perm --stats-json "$tmp/$tag.json" >"$tmp/$tag.txt" 2>&1
    rc=$?
    if [ "$rc" = 0 ] && python3 "$tmp/compare.py" "$tmp/func.json" "$tmp/$tag.json" "$tag" &&
       python3 "$tmp/check.py" "$tmp/$tag.json" "$scheme"; then
      ok "compaction=$scheme slp=$perm: every workload PASS, memory = functional, statistics"
    else
      bad "compaction=$scheme slp=$perm: exit $rc or results/statistics wrong"
      grep '^ *FAIL' "$tmp/$tag.txt" >&2
    fi
  done
done

# the checker can fail: a claimed scheme that did not run is caught
if python3 "$tmp/check.py" "$tmp/tbc-none.json" ideal 2>/dev/null; then
  bad "check.py accepted tbc statistics as ideal"
else
  ok "check.py rejects statistics of another scheme"
fi
# capri: predictions and the statistics by branch class add up; the
# checker can fail (a run whose predictions were not judged is caught)
cat >"$tmp/capri.py" <<'PY'
import json, sys
runs, errs = json.load(open(sys.argv[1])), []
for o in runs:
    w, c = o["workload"], o.get("compaction") or {}
    k = c.get("capri", {})
    q = sum(k.get("quality", {}).values())
    if q != k.get("lookups"):
        errs.append("%s: %s predictions judged, %s lookups" % (w, q, k.get("lookups")))
    if k.get("pred_stall", 0) + k.get("pred_bypass", 0) != k.get("lookups"):
        errs.append("%s: stall + bypass predictions != lookups" % w)
    if k.get("hits", 0) > k.get("lookups", 0):
        errs.append("%s: more hits than lookups" % w)
    cl = c.get("classes", {})
    if sum(cl[x]["points"] for x in "PD") > c.get("points", 0):
        errs.append("%s: more class points than compaction points" % w)
    if w == "bfs" and not (k.get("lookups", 0) > 0 and k.get("bypassed", 0) > 0 and
                           cl["D"]["compaction_rate"] > 0):
        errs.append("bfs: no lookups, bypasses or D-branch compaction: %r %r" % (k, cl))
for e in errs:
    print("  capri: %s" % e, file=sys.stderr)
sys.exit(1 if errs else 0)
PY
for hist in latest sticky counter2; do
  for perm in none balanced; do
    tag=capri-$hist-$perm
    "$cli" run all --size "$size" --mode timing --set simt.compaction=capri \
      --set capri.history=$hist --set slp.permutation=$perm \
      --stats-json "$tmp/$tag.json" >"$tmp/$tag.txt" 2>&1
    rc=$?
    if [ "$rc" = 0 ] && python3 "$tmp/compare.py" "$tmp/func.json" "$tmp/$tag.json" "$tag" &&
       python3 "$tmp/check.py" "$tmp/$tag.json" capri && python3 "$tmp/capri.py" "$tmp/$tag.json"; then
      ok "compaction=capri history=$hist slp=$perm: every workload PASS, memory = functional, statistics"
    else
      bad "compaction=capri history=$hist slp=$perm: exit $rc or results/statistics wrong"
      grep '^ *FAIL' "$tmp/$tag.txt" >&2
    fi
  done
done
# G-Scalar's compressed register file with compaction: every operand read
# of a compacted warp rebuilds each home warp's row (a wrong per-home write
# stops the run: RVC MODEL ERROR), memory = functional
"$cli" run all --size "$size" --mode timing --set simt.compaction=capri \
  --set slp.permutation=balanced --set gscalar.compress=on \
  --stats-json "$tmp/capri-rvc.json" >"$tmp/capri-rvc.txt" 2>&1
rc=$?
if [ "$rc" = 0 ] && python3 "$tmp/compare.py" "$tmp/func.json" "$tmp/capri-rvc.json" capri-rvc &&
   python3 "$tmp/check.py" "$tmp/capri-rvc.json" capri &&
   python3 -c 'import json,sys; r=[o for o in json.load(open(sys.argv[1])) if o["workload"]=="bfs"][0]; sys.exit(0 if r["compaction"]["uncompacted"] is None and r["cosim"]["rvc_decomp"]["transactions"] > 0 else 1)' "$tmp/capri-rvc.json"; then
  ok "compaction=capri gscalar.compress=on: every workload PASS, memory = functional, bfs compacted with RVC traffic"
else
  bad "compaction=capri gscalar.compress=on: exit $rc or results/statistics wrong"
  grep '^ *FAIL' "$tmp/capri-rvc.txt" >&2
fi
python3 - "$tmp/capri-latest-none.json" "$tmp/capri-bad.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))
for o in runs:
    if o["workload"] == "bfs":
        o["compaction"]["capri"]["quality"]["stall_stall"] += 1
json.dump(runs, open(sys.argv[2], "w"))
PY
if python3 "$tmp/capri.py" "$tmp/capri-bad.json" 2>/dev/null; then
  bad "capri.py accepted a prediction count that does not add up"
else
  ok "capri.py rejects predictions that do not add up"
fi

echo "compaction: $fail failed"
[ "$fail" = 0 ]
