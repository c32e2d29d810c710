#!/usr/bin/env bash
# divergence.sh CLI: the invariants of the divergence mechanisms on the
# whole suite (small inputs), `make test-divergence` (docs/dpe.md,
# docs/compaction.md "Invariants"):
#  - DPE: every launch without a divergent branch (under single) gives
#    single's cycles exactly under dual, dual with the constrained scheduler
#    and dual with path forwarding; every workload without an interleavable
#    branch gives single's cycles in every launch under dual (dissertation
#    3.3.2: such kernels "execute in an identical way with SPE, DPE");
#    every launch in which path forwarding forwarded no path gives dual's
#    cycles exactly (forwarding changes nothing else);
#  - compaction (fx5800): a launch with no branch costs nothing under tbc,
#    capri and ideal; a launch with no divergent branch costs nothing under
#    capri when no warp had to wait a block ahead (capri.ahead_waits 0) --
#    both for launches whose earlier launches ran identically (a launch
#    inherits the caches and DRAM state, and its start cycle, from them);
#  - ideal never needs more warps than TBC: at every compaction point
#    NW_ideal <= NW_TBC, so the ideal run forms at most the tbc run's warps
#    at the same compaction points, and every path TBC can compact ideal
#    compaction can;
#  - capri lets compacted warps bypass: no predicted bypass is refused in
#    launches of at most 16 warps per CTA, and split WCU rows occur.
#  - dws (gtx480, dws.n = 50) keeps every result, and its perfect
#    scheduler issues splits of one warp in the same cycle (3.3.1: "any
#    number of warp splits can be scheduled together"): dpe.coissued is
#    positive on the suite and zero where no warp was subdivided.
# The checker is shown to fail on doctored statistics (one cycle moved).
set -u
cli=${1:?usage: divergence.sh path/to/lockstep}
size=${DIVERGENCE_SIZE:-small}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-divergence.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
ok()  { echo "ok   $*"; }
bad() { echo "FAIL $*" >&2; fail=$((fail + 1)); }

run() {   # run TAG CONFIG KEY=VALUE...
  local tag=$1 cfg=$2
  shift 2
  local sets=()
  for kv in "$@"; do sets+=(--set "$kv"); done
  if "$cli" run all --size "$size" --mode timing --config "$cfg" "${sets[@]}" \
       --stats-json "$tmp/$tag.json" >"$tmp/$tag.txt" 2>&1; then
    ok "$tag: every workload PASS"
  else
    bad "$tag: exit $? ($(grep -c '^ *FAIL' "$tmp/$tag.txt") failing)"
  fi
}

run single gtx480 simt.paths=single
run dual gtx480 simt.paths=dual
run dual-con gtx480 simt.paths=dual dpe.scheduler=constrained
run dual-fwd gtx480 simt.paths=dual dpe.path_forwarding=on
run none fx5800 simt.compaction=none
run tbc fx5800 simt.compaction=tbc
run capri fx5800 simt.compaction=capri
run ideal fx5800 simt.compaction=ideal
run dws gtx480 simt.paths=dws dws.n=50

cat >"$tmp/check.py" <<'PY'
import json, sys

def load(path):
    d = json.load(open(path))
    return {w["workload"]: w for w in (d if isinstance(d, list) else [d])}

def launches(w):
    return w.get("launches", [])

def dpe(single, variants):
    """Launches without a divergent branch equal single's cycles under each
    variant; workloads without an interleavable branch equal in every
    launch under dual."""
    errs, n = [], 0
    for name, v in variants.items():
        for wl, w in single.items():
            for i, l in enumerate(launches(w)):
                if l["divergent_branches"] == 0:
                    n += 1
                    c = launches(v[wl])[i]["cycles"]
                    if c != l["cycles"]:
                        errs.append(f"{name} {wl} launch {i + 1} ({l['kernel']}), no "
                                    f"divergent branch: {c} cycles, single {l['cycles']}")
    dual, m = variants["dual"], 0
    for wl, w in dual.items():
        if w["dpe"]["interleavable"] == 0 and w["dpe"]["single_launches"] == 0:
            m += 1
            for i, l in enumerate(launches(w)):
                s = launches(single[wl])[i]["cycles"]
                if l["cycles"] != s:
                    errs.append(f"dual {wl} launch {i + 1}, no interleavable branch: "
                                f"{l['cycles']} cycles, single {s}")
    # path forwarding changes nothing but the forwarded paths: a launch
    # in which no path was forwarded runs as under dual
    fwd, k = variants["dual-fwd"], 0
    for wl, w in fwd.items():
        for i, l in enumerate(launches(w)):
            if (l.get("dpe") or {}).get("forwarded", 0) == 0:
                k += 1
                c = launches(dual[wl])[i]["cycles"]
                if l["cycles"] != c:
                    errs.append(f"dual-fwd {wl} launch {i + 1}, no path forwarded: "
                                f"{l['cycles']} cycles, dual {c}")
    return errs, f"{n} launch checks without a divergent branch, {m} workloads " \
                 f"without an interleavable branch, {k} launches without a forwarded path"

def compaction(none, runs):
    """Launches whose earlier launches ran identically: no branch -> no
    cost under every scheme; no divergent branch and no wait ahead -> no
    cost under capri."""
    errs, n = [], 0
    for name, r in runs.items():
        for wl, w in none.items():
            clean = True
            for i, l in enumerate(launches(w)):
                lr = launches(r[wl])[i]
                c = lr.get("compaction") or {}
                free = l["branches"] == 0 or (
                    name == "capri" and l["divergent_branches"] == 0 and
                    c.get("capri", {}).get("ahead_waits", 0) == 0)
                if clean and free and c.get("uncompacted") is None:
                    n += 1
                    if lr["cycles"] != l["cycles"]:
                        errs.append(f"{name} {wl} launch {i + 1} ({l['kernel']}): "
                                    f"{lr['cycles']} cycles, none {l['cycles']} "
                                    f"({l['branches']} branches, none divergent)")
                clean = clean and lr["cycles"] == l["cycles"]
    return errs, f"{n} launch checks"

def ideal(tbc, idl):
    errs, n = [], 0
    for wl, w in tbc.items():
        for i, l in enumerate(launches(w)):
            a, b = l.get("compaction") or {}, launches(idl[wl])[i].get("compaction") or {}
            if not a or a.get("uncompacted") is not None:
                continue
            n += 1
            where = f"{wl} launch {i + 1}"
            if a["points"] != b["points"] or a["nw_ideal"] != b["nw_ideal"]:
                errs.append(f"{where}: compaction points {a['points']} / {b['points']}, "
                            f"NW_ideal {a['nw_ideal']} / {b['nw_ideal']} (tbc / ideal)")
            if b["warps_formed"] > a["warps_formed"] or a["nw_ideal"] > a["nw_tbc"]:
                errs.append(f"{where}: ideal formed {b['warps_formed']} warps, tbc "
                            f"{a['warps_formed']} (NW_ideal {a['nw_ideal']}, NW_TBC "
                            f"{a['nw_tbc']})")
            for cl in "PD":
                x = a["classes"][cl]
                if x["paths_ideal"] < x["paths_tbc"]:
                    errs.append(f"{where}: class {cl}: {x['paths_tbc']} paths TBC can "
                                f"compact, ideal {x['paths_ideal']}")
    return errs, f"{n} compacted launches"

def bypass(capri):
    """capri lets every warp bypass, compacted ones included (4.2.2): in a
    launch whose CTAs have at most 16 warps (the WCU's spare rows always
    suffice) no bypass the CAPT predicted is refused, and compacted warps
    bypassed somewhere in the suite (split WCU rows)."""
    errs, n, split = [], 0, 0
    for wl, w in capri.items():
        for i, l in enumerate(launches(w)):
            c = l.get("compaction") or {}
            if not c or c.get("uncompacted") is not None or not l["ctas"]:
                continue
            split += c["capri"]["split_rows"]
            if l["threads"] > 16 * 32 * l["ctas"]:
                continue
            n += 1
            if c["capri"]["bypass_denied"]:
                errs.append(f"capri {wl} launch {i + 1}: {c['capri']['bypass_denied']} "
                            "predicted bypasses refused")
    if not split:
        errs.append("capri: no compacted warp bypassed in the suite (split_rows 0)")
    return errs, f"{n} launches, {split} split WCU rows"

def dws(runs):
    """Splits of one warp issue in the same cycle somewhere in the suite;
    never without a split."""
    errs, total = [], 0
    for wl, w in runs.items():
        x = w.get("dpe") or {}
        total += x.get("coissued", 0)
        if x.get("coissued", 0) and not x.get("splits_created", 0):
            errs.append(f"dws {wl}: {x['coissued']} co-issued splits, no split created")
    if not total:
        errs.append("dws: no two splits of a warp issued in one cycle in the suite "
                    "(dpe.coissued 0): one instruction per warp per cycle")
    return errs, f"{total} co-issued splits"

part = sys.argv[1]
d = {k: load(f"{sys.argv[2]}/{k}.json") for k in
     ("single", "dual", "dual-con", "dual-fwd", "none", "tbc", "capri", "ideal", "dws")}
if len(sys.argv) > 3:           # the checker's own test: one cycle moved
    wl, i = next((wl, i) for wl, w in d["single"].items()
                 for i, l in enumerate(launches(w)) if l["divergent_branches"] == 0)
    d["dual"][wl]["launches"][i]["cycles"] += 1
    wl, i = next((wl, i) for wl, w in d["dual-fwd"].items()
                 for i, l in enumerate(launches(w))
                 if (l.get("dpe") or {}).get("forwarded", 0) == 0 and
                 l["divergent_branches"] > 0)
    d["dual-fwd"][wl]["launches"][i]["cycles"] += 1
    wl = next(wl for wl, w in d["none"].items() if launches(w)[0]["branches"] == 0)
    d["capri"][wl]["launches"][0]["cycles"] += 1
    wl = next(wl for wl, w in d["tbc"].items() if w["compaction"]["warps_formed"])
    for l in launches(d["ideal"][wl]):
        if l["compaction"]["warps_formed"]:
            l["compaction"]["warps_formed"] = 10 ** 9
            break
    for w in d["capri"].values():
        c = launches(w)[0].get("compaction")
        l0 = launches(w)[0]
        if c and c.get("uncompacted") is None and l0["ctas"] and \
                l0["threads"] <= 16 * 32 * l0["ctas"]:
            c["capri"]["bypass_denied"] += 1
            break
    for w in d["dws"].values():
        if w.get("dpe"):
            w["dpe"]["coissued"] = 0
if part == "dpe":
    errs, what = dpe(d["single"], {k: d[k] for k in ("dual", "dual-con", "dual-fwd")})
elif part == "compaction":
    errs, what = compaction(d["none"], {k: d[k] for k in ("tbc", "capri", "ideal")})
elif part == "bypass":
    errs, what = bypass(d["capri"])
elif part == "dws":
    errs, what = dws(d["dws"])
else:
    errs, what = ideal(d["tbc"], d["ideal"])
for e in errs[:20]:
    print("  " + e, file=sys.stderr)
print(what)
sys.exit(1 if errs else 0)
PY

if [ "$fail" = 0 ]; then
  for part in dpe compaction ideal bypass dws; do
    if out=$(python3 "$tmp/check.py" $part "$tmp"); then
      ok "$part invariants: $out"
    else
      bad "$part invariants: $out"
    fi
    if python3 "$tmp/check.py" $part "$tmp" doctored >/dev/null 2>&1; then
      bad "$part checker accepted doctored statistics"
    else
      ok "$part checker rejects doctored statistics"
    fi
  done
fi
echo "divergence: $fail failed"
[ "$fail" = 0 ]
