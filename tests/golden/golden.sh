#!/usr/bin/env bash
# golden.sh CLI check|update|selftest [DIR]: the statistics baselines
# (docs/golden.md), in DIR (default tests/golden).
# The suite runs at small size, seed 1, in timing mode under every shipped
# config and once in functional mode; each run's --stats-json, without its
# wall-clock parts (the "sim" objects), keys sorted, workloads in name
# order, is split into one file per workload, tests/golden/<run>/<workload>.json
# (<run> is <config>-timing or functional), so no baseline file grows with
# the suite and a diff names the workload in its path.
#   check   (make test-golden, part of make test): every figure must equal
#           the baseline exactly; a change prints the diff table
#           (lockstep diff) and the command that accepts it; a workload
#           with no baseline row, or a row with no workload, is reported
#           and does not fail.
#   update  (make golden): rewrites the baselines; commit them with the
#           change that moved them, so the diff of the JSON shows what moved.
#   selftest  proves the check can fail: a copy of the baselines with one
#           counter moved by one must be reported (and exit 1).
set -u
cli=${1:?usage: golden.sh path/to/lockstep check|update|selftest [DIR]}
what=${2:-check}
dir=${3:-tests/golden}
out=build/golden
if [ "$what" = selftest ]; then
  t=build/golden-selftest
  rm -rf "$t" && mkdir -p "$t"
  cp -r "$dir"/*/ "$t"/
  w=$(cd "$t/gtx480-timing" && ls *.json | head -n 1) && w=${w%.json}
  python3 - "$t/gtx480-timing/$w.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["l1d"]["misses"] += 1
with open(sys.argv[1], "w") as f:
    json.dump(d, f, sort_keys=True, indent=1)
PY
  if bash "$0" "$cli" check "$t" >"$t/out.txt" 2>&1; then
    echo "FAIL golden selftest: a moved counter was not reported" >&2; exit 1
  fi
  nruns=$(ls -d "$t"/*/ | wc -l)
  grep -q "golden gtx480-timing: changed: $w" "$t/out.txt" && [ "$(grep -c '^ok   golden' "$t/out.txt")" = $((nruns - 1)) ] \
    && { echo "ok   golden selftest: $w l1d.misses + 1 in a copy of the baseline is reported, exit 1"; exit 0; }
  echo "FAIL golden selftest: report did not name $w:" >&2; cat "$t/out.txt" >&2; exit 1
fi
mkdir -p "$out"
configs=$("$cli" list configs) || { echo "golden: lockstep list configs failed" >&2; exit 2; }
runs="functional"
for c in $configs; do runs="$runs $c-timing"; done
normalize() {   # in.json out.json
  python3 - "$1" "$2" <<'PY'
import json, sys
def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if k not in ("sim", "wall_s")}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o
d = json.load(open(sys.argv[1]))
d = sorted((strip(o) for o in (d if isinstance(d, list) else [d])), key=lambda o: o["workload"])
with open(sys.argv[2], "w") as f:
    json.dump(d, f, sort_keys=True, indent=1)
    f.write("\n")
PY
}
fail=0
for r in $runs; do
  if [ "$r" = functional ]; then args=(--mode functional); else args=(--mode timing --config "${r%-timing}"); fi
  "$cli" run all --size small --seed 1 "${args[@]}" --stats-json "$out/$r.raw.json" >"$out/$r.log" 2>&1
  rc=$?
  if [ ! -s "$out/$r.raw.json" ]; then
    echo "FAIL golden $r: no statistics (lockstep exited $rc; see $out/$r.log)" >&2
    fail=$((fail + 1)); continue
  fi
  normalize "$out/$r.raw.json" "$out/$r.json" || { echo "FAIL golden $r: bad JSON" >&2; fail=$((fail + 1)); continue; }
  if [ "$what" = update ]; then
    rm -rf "${dir:?}/$r" && mkdir -p "$dir/$r"
    python3 - "$out/$r.json" "$dir/$r" <<'PY' || { echo "FAIL golden $r: cannot write $dir/$r" >&2; fail=$((fail + 1)); continue; }
import json, os, sys
for o in json.load(open(sys.argv[1])):
    with open(os.path.join(sys.argv[2], o["workload"] + ".json"), "w") as f:
        json.dump(o, f, sort_keys=True, indent=1)
        f.write("\n")
PY
    echo "golden: wrote $dir/$r/ ($(ls "$dir/$r" | wc -l) workloads)"
    continue
  fi
  if [ ! -d "$dir/$r" ]; then
    echo "FAIL golden $r: no baseline $dir/$r/ (make golden writes it)" >&2
    fail=$((fail + 1)); continue
  fi
  # the baseline rows joined into one list, as lockstep diff reads it
  python3 - "$dir/$r" "$out/$r.base.json" <<'PY'
import glob, json, os, sys
rows = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(sys.argv[1], "*.json")))]
with open(sys.argv[2], "w") as f:
    json.dump(rows, f, sort_keys=True, indent=1)
PY
  # exact comparison of every figure; rows only on one side are reported
  python3 - "$out/$r.base.json" "$out/$r.json" "$r" <<'PY'
import json, sys
old = {o["workload"]: o for o in json.load(open(sys.argv[1]))}
new = {o["workload"]: o for o in json.load(open(sys.argv[2]))}
for w in sorted(set(new) - set(old)):
    print(f"note golden {sys.argv[3]}: {w} has no baseline row (make golden adds it)")
for w in sorted(set(old) - set(new)):
    print(f"note golden {sys.argv[3]}: baseline row {w} has no workload (make golden drops it)")
changed = [w for w in sorted(set(old) & set(new)) if old[w] != new[w]]
if changed:
    print(f"golden {sys.argv[3]}: changed: {', '.join(changed)}")
sys.exit(1 if changed else 0)
PY
  if [ $? = 0 ]; then
    echo "ok   golden $r: every figure equals the baseline"
  else
    fail=$((fail + 1))
    echo "FAIL golden $r: figures moved against $dir/$r/:" >&2
    "$cli" diff "$out/$r.base.json" "$out/$r.json" >&2
    echo "  if the change is intended: make golden, and commit $dir/ with it" >&2
  fi
done
if [ "$what" = update ]; then
  echo "golden: baselines rewritten; git diff $dir shows what moved"
  exit 0
fi
[ $fail = 0 ] && echo "golden: all baselines match" || echo "golden: $fail baselines differ"
[ $fail = 0 ]
