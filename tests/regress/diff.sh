#!/usr/bin/env bash
# diff.sh CLI: `lockstep diff OLD.json NEW.json` on --stats-json files
# (`make test-diff`; docs/golden.md). Inputs come from real small runs:
#  - two identical runs (and one rewritten like a golden baseline: no `sim`,
#    keys sorted, indent 1) exit 0 with "0 changed";
#  - sched_policy=lrr exits 1 naming cycles; the changed figures are exactly
#    the numeric leaves python finds changed, the geomean is python's;
#    --tol 1000 exits 0, but not where a figure was 0 (vecadd's
#    l1d.evictions in a 1 KB L1D); --only narrows to the keys asked for;
#  - an edited mem_digest exits 1 even with --tol 1000 and is reported first;
#  - 64-bit counters are compared exactly (2^63+1 vs 2^63+2 differ, though
#    equal as doubles);
#  - an added workload, launch or key is listed and exits 0;
#  - --format json parses, markdown has a table header;
#  - not JSON, truncated JSON, schema 2, a missing file, usage: exit 2 with
#    a message naming the file;
#  - one workload object vs a one-element list compares fine;
#  - truncated or garbled files never crash it.
set -u
cli=${1:?usage: diff.sh path/to/lockstep}
out=build/test-diff
rm -rf "$out"
mkdir -p "$out"
fail=0
ok()  { echo "ok   $*"; }
bad() { echo "FAIL $*" >&2; fail=$((fail + 1)); }

# `lockstep diff` is dispatched by csim/cli/cli_main.c; a CLI without it
# says "unknown command" (exit 2) to --help.
if ! "$cli" diff --help >/dev/null 2>&1; then
  echo "FAIL $cli has no 'diff' command: csim/cli/cli_main.c must dispatch" \
       "\"diff\" to cli_diff() (csim/cli/cli_diff.h)" >&2
  echo "diff: 1 check failed"
  exit 1
fi

# d NAME ARGS...: runs `lockstep diff ARGS`, output in $out/NAME.out/.err,
# exit status in $rc.
d() {
  local name=$1
  shift
  "$cli" diff "$@" >"$out/$name.out" 2>"$out/$name.err"
  rc=$?
}
# want NAME RC WHAT: checks $rc, showing the output when it is wrong.
want() {
  if [ "$rc" = "$2" ]; then
    ok "$3 (exit $rc)"
  else
    bad "$3: exit $rc, want $2"
    head -20 "$out/$1.out" "$out/$1.err" >&2
  fi
}

wl="histogram bfs matmul"
# shellcheck disable=SC2086
"$cli" run $wl --size small --stats-json "$out/base.json" >/dev/null 2>&1 \
  && "$cli" run $wl --size small --stats-json "$out/base2.json" >/dev/null 2>&1 \
  && "$cli" run $wl --size small --set sched_policy=lrr --stats-json "$out/lrr.json" >/dev/null 2>&1 \
  && "$cli" run vecadd --size small --stats-json "$out/one.json" >/dev/null 2>&1 \
  && "$cli" run vecadd --size small --set l1d_size=1024 --stats-json "$out/onel1.json" >/dev/null 2>&1 \
  || { bad "the runs that make the inputs failed"; echo "diff: $fail checks failed"; exit 1; }

# the edited inputs
python3 - "$out" <<'PY' || bad "python could not write the edited inputs"
import json, sys
out = sys.argv[1]
def load(n): return json.load(open(f"{out}/{n}.json"))
def save(o, n, **kw): json.dump(o, open(f"{out}/{n}.json", "w"), **kw)
def strip(o):
    if isinstance(o, dict): return {k: strip(v) for k, v in o.items() if k != "sim"}
    if isinstance(o, list): return [strip(v) for v in o]
    return o
save(strip(load("base")), "golden", sort_keys=True, indent=1)
lrr = load("lrr")
next(o for o in lrr if o["workload"] == "bfs")["mem_digest"] = "0123456789abcdef"
save(lrr, "digest")
big = load("base")
big[0]["l1d"]["hits"] = 2**63 + 1
big2 = load("base")
big2[0]["l1d"]["hits"] = 2**63 + 2
save(big, "big1"); save(big2, "big2")
add = load("base")
add.append(dict(add[0], workload="newwl"))
add[0]["l1d"]["new_counter"] = 5
add[1]["launches"].append(dict(add[1]["launches"][0], kernel="extra_kernel"))
del add[2]["dram"]["bytes"]
save(add, "added")
save([load("one")], "onelist")
save([load("one"), load("base")[1]], "oneplus")
s2 = load("base")
s2[1]["schema"] = 2
save(s2, "schema2")
open(f"{out}/notjson.json", "w").write("PASS vecadd (small, seed 1)\n")
open(f"{out}/trunc.json", "w").write(open(f"{out}/base.json").read()[:700])
PY

# 1. identical runs, and the same run rewritten as a golden baseline
d same "$out/base.json" "$out/base2.json"
want same 0 "two identical runs"
head -1 "$out/same.out" | grep -q '^3 workloads, 0 changed' \
  && ok "identical: summary says 3 workloads, 0 changed" \
  || bad "identical: summary is '$(head -1 "$out/same.out")'"
d golden "$out/golden.json" "$out/base.json"
want golden 0 "a golden-style file (no sim, sorted keys, indent 1) against its run"
grep -q '0 changed' "$out/golden.out" || bad "golden: no '0 changed' in the output"

# 2. a timing change
d lrr "$out/base.json" "$out/lrr.json"
want lrr 1 "sched_policy=lrr changes timing figures"
grep -Eq '^ +histogram +- +cycles ' "$out/lrr.out" \
  && ok "sched_policy: the histogram cycles row is listed" \
  || bad "sched_policy: no histogram cycles row"
head -1 "$out/lrr.out" | grep -Eq '^3 workloads, [1-3] changed, cycles [-+][0-9.]+% geomean, worst histogram [-+]' \
  && ok "sched_policy: summary line '$(head -1 "$out/lrr.out")'" \
  || bad "sched_policy: summary line '$(head -1 "$out/lrr.out")'"
d lrrjson "$out/base.json" "$out/lrr.json" --format json
want lrrjson 1 "--format json exits as text does"
python3 - "$out" <<'PY' && ok "json: parses; its changes are exactly python's changed leaves; geomean agrees" \
  || bad "json: disagrees with python (above)"
import json, math, sys
out = sys.argv[1]
r = json.load(open(f"{out}/lrrjson.out"))
a = {o["workload"]: o for o in json.load(open(f"{out}/base.json"))}
b = {o["workload"]: o for o in json.load(open(f"{out}/lrr.json"))}
def flat(o, p=""):
    if isinstance(o, dict):
        for k, v in o.items():
            if k in ("sim", "wall_s") or (p == "" and k in ("schema", "workload", "launches", "index")):
                continue
            yield from flat(v, f"{p}.{k}" if p else k)
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from flat(v, f"{p}[{i}]")
    elif isinstance(o, (int, float)) and not isinstance(o, bool):
        yield p, o
want = set()
for w in a:
    pairs = [(0, a[w], b[w])] + [(i + 1, x, y) for i, (x, y) in
                                 enumerate(zip(a[w]["launches"], b[w]["launches"]))]
    for li, x, y in pairs:
        fy = dict(flat(y))
        want |= {(w, li, k) for k, v in flat(x) if fy[k] != v}
got = {(c["workload"], c["launch"]["index"] if c["launch"] else 0, c["key"]) for c in r["changes"]}
errs = 0
if got != want:
    print("  only diff:", sorted(got - want)[:5], " only python:", sorted(want - got)[:5]); errs += 1
s = r["summary"]
g = (math.exp(sum(math.log(b[w]["cycles"] / a[w]["cycles"]) for w in a) / len(a)) - 1) * 100
if s["status"] != 1 or s["workloads"] != 3 or abs(s["cycles_geomean_pct"] - g) > 1e-6:
    print("  summary", s, "python geomean", g); errs += 1
for c in r["changes"]:
    if not all(k in c for k in ("group", "old", "new", "delta", "delta_pct", "outside_tolerance")):
        print("  change lacks a member:", c); errs += 1; break
    if c["key"] == "cycles" and c["group"] != "cycles/IPC" or c["key"].startswith("l1d.") and c["group"] != "L1D":
        print("  wrong group:", c); errs += 1; break
print(f"  {len(got)} changed figures")
sys.exit(1 if errs else 0)
PY
d lrrmd "$out/base.json" "$out/lrr.json" --format markdown
want lrrmd 1 "--format markdown"
grep -q '^| workload | launch | figure | old | new | delta | delta % |$' "$out/lrrmd.out" \
  && grep -q '^|---|---|---|--:|' "$out/lrrmd.out" \
  && ok "markdown: a table header" || bad "markdown: no table header"

# 3. tolerance and --only
d tol "$out/base.json" "$out/lrr.json" --tol 1000
want tol 0 "--tol 1000 accepts the sched_policy change"
grep -q '^ok: [0-9]* changed figures, all within tolerance 1000%' "$out/tol.out" \
  || bad "--tol 1000: no 'all within tolerance' verdict"
# a figure that was 0 is outside any finite tolerance: in a 1 KB L1D
# vecadd's l1d.evictions go from 0 to hundreds
d fromzero "$out/one.json" "$out/onel1.json" --tol 1000
want fromzero 1 "vecadd in a 1 KB L1D with --tol 1000: a figure that was 0"
grep -Eq '^ +vecadd +- +l1d\.evictions +0 +[1-9][0-9]* +\+[0-9]+ +new +over$' "$out/fromzero.out" \
  || bad "from zero: no 'l1d.evictions 0 ... new over' row"
d only "$out/base.json" "$out/lrr.json" --only cycles,stall --format json
want only 1 "--only cycles,stall still fails on cycles"
python3 - "$out/only.out" <<'PY' && ok "--only cycles,stall: only cycles and stall.* are listed" \
  || bad "--only cycles,stall lists other keys (above)"
import json, sys
c = json.load(open(sys.argv[1]))["changes"]
keys = {x["key"] for x in c}
odd = [k for k in keys if k != "cycles" and not k.startswith("stall.")]
print("  keys:", sorted(keys)[:6], "..." if len(keys) > 6 else "")
sys.exit(1 if odd or "cycles" not in keys or not any(k.startswith("stall.") for k in keys) else 0)
PY
d onlyipc "$out/base.json" "$out/lrr.json" --only ipc --tol 50
want onlyipc 0 "--only ipc --tol 50"

# 4. a result change fails whatever the tolerance, and comes first
d digest "$out/base.json" "$out/digest.json" --tol 1000
want digest 1 "a mem_digest edit with --tol 1000"
first=$(grep -E '^[a-zA-Z/ ()]+: [0-9]+$' "$out/digest.out" | head -1)
[ "$first" = "result: 1" ] && grep -Eq '^ +bfs +- +mem_digest +[0-9a-f]{16} +0123456789abcdef$' "$out/digest.out" \
  && sed -n 2p "$out/digest.out" | grep -q '^FAIL: 1 result change' \
  && ok "mem_digest: reported first ('$first'), verdict FAIL" \
  || { bad "mem_digest: first section '$first'"; head -12 "$out/digest.out" >&2; }

# 5. 64-bit counters exactly
d big "$out/big1.json" "$out/big2.json"
want big 1 "l1d.hits 2^63+1 -> 2^63+2 (equal as doubles)"
grep -Eq 'l1d\.hits +9223372036854775809 +9223372036854775810 +\+1 ' "$out/big.out" \
  || bad "64-bit: the row does not show the exact values and delta +1"

# 6. added and removed keys, launches, workloads
d added "$out/base.json" "$out/added.json"
want added 0 "an added workload, launch and key, a removed key"
for pat in '^added: 3$' 'newwl +- +\(workload\)' 'l1d\.new_counter +5$' '#[0-9]+ extra_kernel +\(launch\)' \
           '^removed: 1$' 'dram\.bytes +[0-9]+$'; do
  grep -Eq "$pat" "$out/added.out" || bad "added: no line matching '$pat'"
done
head -1 "$out/added.out" | grep -q '^3 workloads, 0 changed, 1 added' \
  || bad "added: summary '$(head -1 "$out/added.out")'"

# 7. bad input: exit 2 naming the file
for f in notjson trunc schema2; do
  d "bad_$f" "$out/base.json" "$out/$f.json"
  want "bad_$f" 2 "$f input"
  grep -q "^lockstep: diff: $out/$f.json" "$out/bad_$f.err" \
    && ok "$f: '$(head -1 "$out/bad_$f.err")'" || bad "$f: message does not name the file"
done
grep -q "json:1:1: not JSON" "$out/bad_notjson.err" || bad "not JSON: no line:col"
grep -Eq "trunc.json:[0-9]+:[0-9]+: not JSON: .*\(byte [0-9]+\)" "$out/bad_trunc.err" \
  || bad "truncated: no line:col and byte offset"
grep -q "schema 2" "$out/bad_schema2.err" || bad "schema 2: the message does not say which schema"
d missing "$out/no-such.json" "$out/base.json"
want missing 2 "a missing file"
d usage "$out/base.json"
want usage 2 "one file only"
d badtol --tol abc "$out/base.json" "$out/base.json"
want badtol 2 "--tol abc"

# 8. one workload object against a one-element list (and against a list)
d one "$out/one.json" "$out/onelist.json"
want one 0 "a single-object file vs a one-element list"
grep -q '^1 workload, 0 changed' "$out/one.out" || bad "single object: summary '$(head -1 "$out/one.out")'"
d onebase "$out/one.json" "$out/oneplus.json"
want onebase 0 "vecadd alone vs a list of vecadd and bfs"
grep -q '^1 workload, 0 changed, 1 added' "$out/onebase.out" \
  || bad "single vs list: summary '$(head -1 "$out/onebase.out")'"

# 9. garbled files: truncated anywhere, bytes changed: exit 0, 1 or 2 (2 with
# a message), never a crash
python3 - "$out" <<'PY' || bad "python could not write the garbled inputs"
import random, sys
out = sys.argv[1]
src = open(f"{out}/one.json", "rb").read()
rng = random.Random(7)
for i in range(40):
    d = bytearray(src)
    if i < 20:
        d = d[:rng.randrange(len(d))]
    else:
        for _ in range(rng.randint(1, 4)):
            d[rng.randrange(len(d))] = rng.choice(b'{}[],:"\\0-.eE \n\x00\xff')
    open(f"{out}/garbled{i}.json", "wb").write(bytes(d))
PY
crashed=0
for i in $(seq 0 39); do
  g="$out/garbled$i.json"
  "$cli" diff "$out/one.json" "$g" >/dev/null 2>"$out/garbled.err"
  rc=$?
  if [ $rc -gt 2 ] || { [ $rc = 2 ] && ! grep -q "^lockstep: diff: $g" "$out/garbled.err"; }; then
    bad "garbled $g: exit $rc: $(head -1 "$out/garbled.err")"
    crashed=$((crashed + 1))
  fi
done
[ $crashed = 0 ] && ok "40 truncated or garbled files: exit 0/1/2, a message naming the file on 2"

if [ $fail = 0 ]; then
  echo "diff: all checks passed"
else
  echo "diff: $fail checks failed"
  exit 1
fi
