#!/usr/bin/env bash
# timing.sh CLI: the timing-mode regression suite (`make test-timing`).
#  - `list configs` names every shipped config (gtx480, fx5800, gtx480-gscalar);
#  - for every workload (small size) under every shipped config, timing mode
#    PASSes and leaves final memory identical to functional mode
#    (mem_digest after every launch equal), with cycles > 0 and
#    ipc = warp_insts / cycles;
#  - so do gtx480 with other schedulers, no L1, sub-ranks, one SM, starved
#    MSHRs/queues, G-Scalar compression and scalar execution (timing knobs
#    never change architectural results);
#  - the same command twice gives identical JSON apart from the "sim"
#    wall-clock objects (determinism);
#  - nothing is written to stderr when it is not a terminal (no progress line);
#  - `config --dump` prints the effective configuration with overrides;
#  - a bad --config, --set or --mode exits 2 with a message naming the key
#    (and the file:line for a config file).
set -u
cli=${1:?usage: timing.sh path/to/lockstep}
size=${TIMING_SIZE:-small}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-timing.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
ok()  { echo "ok   $*"; }
bad() { echo "FAIL $*" >&2; fail=$((fail + 1)); }

configs=$("$cli" list configs) || bad "list configs exited $?"
for want in gtx480 fx5800 gtx480-gscalar; do
  echo "$configs" | grep -qx "$want" && ok "list configs has $want" \
    || bad "list configs lacks $want (got: $(echo $configs))"
done

first_wl=$("$cli" list workloads | head -1)

# Functional reference: one run (timing keys never change results).
"$cli" run all --size "$size" --mode functional --stats-json "$tmp/func.json" \
  >"$tmp/func.txt" 2>"$tmp/func.err"
rc=$?
[ "$rc" = 0 ] && ok "functional reference ($size)" \
  || { bad "functional reference: exit $rc"; tail -5 "$tmp/func.txt" >&2; }

# compare.py FUNC TIMING CONFIG: every workload passes, same digest.
cat >"$tmp/compare.py" <<'PY'
import json, sys
func, tim, conf = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
ref = {o["workload"]: o for o in func}
errs = []
if sorted(ref) != sorted(o["workload"] for o in tim):
    errs.append("workload lists differ")
for o in tim:
    w = o["workload"]
    if o.get("mode") != "timing":
        errs.append("%s: mode %r" % (w, o.get("mode")))
    if o.get("pass") is not True:
        errs.append("%s: FAIL: %s" % (w, o.get("msg")))
    if o.get("mem_digest") is None or o.get("mem_digest") != ref.get(w, {}).get("mem_digest"):
        errs.append("%s: final memory differs from functional (digest %s vs %s)"
                    % (w, o.get("mem_digest"), ref.get(w, {}).get("mem_digest")))
    if o.get("mem_digest") == "cbf29ce484222325":   # FNV basis: no memory seen
        errs.append("%s: digest of an empty memory" % w)
    ld = [l.get("mem_digest") for l in o.get("launches", [])]
    rd = [l.get("mem_digest") for l in ref.get(w, {}).get("launches", [])]
    if ld != rd:
        bad = next((i for i, (x, y) in enumerate(zip(ld, rd)) if x != y), min(len(ld), len(rd)))
        errs.append("%s: memory after launch %d differs from functional" % (w, bad + 1))
    if o.get("thread_insts") != ref.get(w, {}).get("thread_insts"):
        errs.append("%s: %s thread insts, functional %s" % (w, o.get("thread_insts"),
                    ref.get(w, {}).get("thread_insts")))
    c = o.get("cycles", 0)
    if not c > 0:
        errs.append("%s: no cycles" % w)
    elif abs(o["ipc"] - o["warp_insts"] / c) > 1e-4 * max(1, o["ipc"]):
        errs.append("%s: ipc %r != warp_insts/cycles" % (w, o["ipc"]))
    for k in ("l1d", "l2", "dram", "stall", "stack_depth_hist", "idle_cycles"):
        if k not in o:
            errs.append("%s: no key %s" % (w, k))
    if "used_sectors_hist" not in o.get("l1d", {}):
        errs.append("%s: no l1d.used_sectors_hist" % w)
    if "cycles_per_s" not in o.get("sim", {}):
        errs.append("%s: no sim.cycles_per_s" % w)
    if sum(l.get("cycles", 0) for l in o.get("launches", [])) != c:
        errs.append("%s: per-launch cycles do not add up" % w)
for e in errs:
    print("  %s: %s" % (conf, e), file=sys.stderr)
sys.exit(1 if errs else 0)
PY

for conf in $configs; do
  start=$(date +%s)
  "$cli" run all --size "$size" --mode timing --config "$conf" \
    --stats-json "$tmp/t-$conf.json" >"$tmp/t-$conf.txt" 2>"$tmp/t-$conf.err"
  rc=$?
  secs=$(( $(date +%s) - start ))
  if [ "$rc" != 0 ]; then
    bad "timing $conf: exit $rc (${secs}s)"
    grep '^ *FAIL' "$tmp/t-$conf.txt" >&2 || tail -n 3 "$tmp/t-$conf.txt" "$tmp/t-$conf.err" >&2
  fi
  [ -s "$tmp/t-$conf.err" ] && bad "timing $conf: stderr not empty when not a terminal: $(head -1 "$tmp/t-$conf.err")"
  if [ -s "$tmp/t-$conf.json" ] && python3 "$tmp/compare.py" "$tmp/func.json" "$tmp/t-$conf.json" "$conf"; then
    ok "timing $conf ($size, ${secs}s): every workload PASS, memory = functional"
  else
    bad "timing $conf: results differ from functional mode"
  fi
done

# Timing knobs never change results: schedulers, no L1, sub-ranks, one SM,
# FCFS DRAM, tiny MSHR/queue counts on gtx480 still give functional memory.
for sets in "sched_policy=lrr" "sched_policy=gto" "sched_policy=two_level" \
            "l1d_size=0" "dram_subranks=2 dram_sched=fcfs" "num_sms=1" \
            "l1d_mshrs=1 dram_queue=1 num_schedulers=1" \
            "lamar.gdu=cg_only" "lamar.gdu=bgp dram_subranks=2" \
            "lamar.gdu=bgp lamar.bgp_num_evict=10 lamar.bgp_refresh=8 l1d_mshrs=2 dram_queue=2" \
            "lamar.gdu=bgp_inf lamar.level=l2" "lamar.gdu=spp lamar.level=l1 lamar.spp_entries=16" \
            "lamar.gdu=static lamar.static_fg=1" \
            "pca.tokens=1 l1d_mshrs=2" "pca.tokens=4 lamar.gdu=bgp" \
            "gscalar.compress=on" "gscalar.stats=on" \
            "gscalar.compress=on gscalar.granularity=16 gscalar.extra_latency=0" \
            "simt.compaction=tbc slp.permutation=balanced" "simt.compaction=tbc_plus" \
            "simt.compaction=capri capri.history=counter2 capri.entries=4 slp.permutation=balanced" \
            "gscalar.scalar=alu" "gscalar.scalar=all gscalar.granularity=16" \
            "gscalar.scalar=all gscalar.compress=on gscalar.granularity=16" \
            "simt.paths=dual" "simt.paths=dual dpe.scoreboard=optimistic" \
            "simt.paths=dual dpe.scheduler=constrained num_schedulers=1" \
            "simt.paths=dual gscalar.compress=on" \
            "simt.paths=dual dpe.path_forwarding=on" \
            "simt.paths=dws dws.n=10" "simt.paths=dws dws.n=100" \
            "prefetch=mta" "prefetch=mta mta.throttle=off mta.degree=4 mta.mshr_reserve=0 mta.cache_kb=0" \
            "prefetch=mta l1d_mshrs=2 mta.gs_entries=0 mta.ip_entries=1" \
            "affine.mode=cae" "affine.mode=cae prefetch=mta sched_policy=lrr"; do
  args=(); for kv in $sets; do args+=(--set "$kv"); done
  tag=$(echo "$sets" | tr ' =' '_-')
  "$cli" run all --size "$size" --mode timing --config gtx480 "${args[@]}" \
    --stats-json "$tmp/s-$tag.json" >"$tmp/s-$tag.txt" 2>&1
  rc=$?
  if [ "$rc" = 0 ] && python3 "$tmp/compare.py" "$tmp/func.json" "$tmp/s-$tag.json" "gtx480 $sets"; then
    ok "timing gtx480 --set $sets: every workload PASS, memory = functional"
  else
    bad "timing gtx480 --set $sets: exit $rc or results differ from functional mode"
    grep '^ *FAIL' "$tmp/s-$tag.txt" >&2
  fi
done

# The chip energy model (docs/energy.md) counts what G-Scalar's baseline
# register file counts by another path (csim/core/core_rvc.c): with
# gscalar.stats=on every workload's arrays read and written and lane
# operations equal the gscalar object's baseline figures, the execution
# energy and every other component equal its own, and the run equals off's
# (energy included). The components add up to the total, which is the
# power object's GPU + DRAM energy, and every SM leaks. Under CAE, compact
# instructions use tuple registers: vecadd's register-file and dynamic
# energies fall.
python3 - "$tmp/t-gtx480.json" "$tmp/s-gscalar.stats-on.json" "$tmp/s-affine.mode-cae.json" <<'PY' \
  && ok "energy: counts equal G-Scalar's baseline counting on every workload, parts add up; CAE lowers vecadd's RF and dynamic energy" \
  || bad "energy: figures disagree with G-Scalar's baseline or CAE"
import json, sys
off, gs, cae = ({o["workload"]: o for o in json.load(open(p))} for p in sys.argv[1:4])
near = lambda a, b: abs(a - b) <= 2e-5 * max(abs(a), abs(b)) + 1e-18   # 6 digits printed
for w, o in gs.items():
    j, p = o["energy"]["j"], o["power"]
    assert near(sum(j.values()), o["energy"]["total"]), (w, j)
    assert near(p["system_j"], o["energy"]["total"]) and near(p["dram_energy_j"]["total"], j["dram"]), (w, p)
    assert j["sm_leak"] > 0 and j["uncore_leak"] > 0 and j["fds"] > 0 and j["noc"] > 0, (w, j)
    e, g = o["energy"], o["gscalar"]
    assert e["rf_arrays_read"] == g["base_arrays_read"], (w, e, g["base_arrays_read"])
    assert e["rf_arrays_written"] == g["base_arrays_written"], (w, e, g["base_arrays_written"])
    assert [e["lane_ops"][k] for k in ("alu", "sfu", "mem")] == \
        [g["base_lane_ops"][k] for k in ("alu", "sfu", "mem")], (w, e, g["base_lane_ops"])
    assert near(e["exec"], g["energy"]["exec_base"]) and near(e["other"] - e["j"]["oc"], g["energy"]["other"]), (w, e, g["energy"])
    assert e == off[w]["energy"], (w, "gscalar.stats=on changed the energy counts")
    assert near(e["rf"] + e["exec"] + e["dac"] + e["other"], e["total"]), (w, e)
    assert e["tuple_accesses"] == 0 and e["queue_accesses"] == 0 and e["total"] > 0, (w, e)
v, x = cae["vecadd"]["energy"], off["vecadd"]["energy"]
assert v["tuple_accesses"] > 0 and v["rf"] < x["rf"] and v["dynamic"] < x["dynamic"], (v, x)
PY

# DWS does what it is for: warps subdivide, a larger threshold refuses
# fewer branches, and SIMD utilisation drops where splits do not reconverge
# (mcml: they run apart to the kernel's end), while dual keeps it.
python3 - "$tmp/t-gtx480.json" "$tmp/s-simt.paths-dws_dws.n-10.json" \
  "$tmp/s-simt.paths-dws_dws.n-100.json" "$tmp/s-simt.paths-dual.json" <<'PY' \
  && ok "dws: subdivides, dws.n=100 refuses fewer than 10, mcml SIMD utilisation drops (dual: equal)" \
  || bad "dws: subdivision, threshold or SIMD utilisation figures wrong"
import json, sys
single, d10, d100, dual = ({o["workload"]: o for o in json.load(open(p))} for p in sys.argv[1:5])
tot = lambda r, k: sum(o.get("dpe", {}).get(k, 0) for o in r.values())
assert tot(d10, "subdivided") > 0 and tot(d10, "splits_created") > 0, "no subdivision"
assert tot(d100, "refused") < tot(d10, "refused"), (tot(d100, "refused"), tot(d10, "refused"))
assert d10["mcml"]["dpe"]["paths"] == "dws" and d10["mcml"]["dpe"]["avg_path"] > 1
assert d10["mcml"]["simd_util"] < single["mcml"]["simd_util"], "mcml simd did not drop"
assert dual["mcml"]["simd_util"] == single["mcml"]["simd_util"], "dual changed simd"
PY

# MTA (docs/dac.md "Comparison points") prefetches and its prefetches are
# used: over the suite some are useful, on reduce (a strided loop, promoted
# to the GS table) most are, served from the prefetch cache (L1D misses
# that did not go below); the fates add up; off reports no "mta".
python3 - "$tmp/t-gtx480.json" "$tmp/s-prefetch-mta.json" <<'PY' \
  && ok "prefetch=mta: prefetches issued and useful (reduce: accuracy > 0.5), fates add up" \
  || bad "prefetch=mta: no useful prefetches or figures inconsistent"
import json, sys
off, on = ({o["workload"]: o for o in json.load(open(p))} for p in sys.argv[1:3])
assert all("mta" not in o for o in off.values()), "mta reported with prefetch=off"
tot = lambda k: sum(o["mta"][k] for o in on.values())
assert tot("issued") > 0 and tot("useful") > 0, (tot("issued"), tot("useful"))
for w, o in on.items():
    m = o["mta"]
    assert m["useful"] + m["unused"] <= m["issued"], (w, m)
    assert m["late"] <= m["useful"] and m["issued"] == m["issued_gs"] + m["issued_pws"] + m["issued_ip"], (w, m)
r = on["reduce"]["mta"]
assert r["issued_gs"] > 0 and r["accuracy"] > 0.5, r
assert on["reduce"]["l2"]["accesses"] <= off["reduce"]["l2"]["accesses"] + r["issued"] - r["useful"], r
PY

# CAE (docs/dac.md "Comparison points") runs instructions compactly: over
# the suite 15% or more of the warp instructions (20% at small size), vecadd's index math
# and loads most of its own, with affine register writes; the same warp
# instructions as off (no reduction across warps); off reports no "cae".
python3 - "$tmp/t-gtx480.json" "$tmp/s-affine.mode-cae.json" <<'PY' \
  && ok "affine.mode=cae: compact instructions (suite >= 15%, vecadd >= 50%), affine writes, warp insts unchanged" \
  || bad "affine.mode=cae: compact execution figures wrong"
import json, sys
off, on = ({o["workload"]: o for o in json.load(open(p))} for p in sys.argv[1:3])
assert all("cae" not in o for o in off.values()), "cae reported with affine.mode=off"
comp = sum(o["cae"]["compact"] for o in on.values())
ins = sum(o["cae"]["insts"] for o in on.values())
assert comp >= 0.15 * ins, (comp, ins)
for w, o in on.items():
    c = o["cae"]
    assert o["warp_insts"] == off[w]["warp_insts"], (w, o["warp_insts"], off[w]["warp_insts"])
    assert c["insts"] == o["warp_insts"], (w, c["insts"], o["warp_insts"])
    assert c["compact"] == c["compact_alu"] + c["compact_sfu"] + c["compact_mem"], w
    assert c["compact_affine"] <= c["compact"], w
v = on["vecadd"]["cae"]
assert v["compact_fraction"] >= 0.5 and v["writes_affine"] > 0 and v["compact_mem"] > 0, v
PY

# Determinism: the same command twice gives the same JSON but for "sim".
first=$(echo "$configs" | head -1)
"$cli" run all --size "$size" --mode timing --config "$first" \
  --stats-json "$tmp/again.json" >/dev/null 2>&1
python3 - "$tmp/t-$first.json" "$tmp/again.json" <<'PY' \
  && ok "timing $first: identical statistics on a second run" \
  || bad "timing $first: statistics differ between two identical runs"
import json, sys
def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if k != "sim"}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o
a, b = (strip(json.load(open(p))) for p in sys.argv[1:3])
if a != b:
    for x, y in zip(a, b):
        if x != y:
            print("  differs: %s" % x.get("workload"), file=sys.stderr)
    sys.exit(1)
PY

# A config given as a file path is the same machine as its shipped name.
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -f "$root/configs/gtx480.conf" ]; then
  "$cli" run "$first_wl" --size "$size" --mode timing --config "$root/configs/gtx480.conf" \
    --stats-json "$tmp/byfile.json" >/dev/null 2>&1
  python3 - "$tmp/byfile.json" "$tmp/t-gtx480.json" "$first_wl" <<'PY' \
    && ok "--config configs/gtx480.conf = --config gtx480 ($first_wl)" \
    || bad "--config configs/gtx480.conf differs from --config gtx480"
import json, sys
a = json.load(open(sys.argv[1]))
b = next(o for o in json.load(open(sys.argv[2])) if o["workload"] == sys.argv[3])
assert a["cycles"] == b["cycles"] and a["cycles"] > 0, (a["cycles"], b["cycles"])
assert a["l1d"] == b["l1d"] and a["dram"] == b["dram"]
PY
fi

# config --dump: the effective values, overrides applied.
if "$cli" config --config gtx480 --set num_sms=4 --dump >"$tmp/dump" 2>"$tmp/e" \
   && grep -Eq '^num_sms *= *4\b' "$tmp/dump" && grep -Eq '^l1d_sector *= *32\b' "$tmp/dump"; then
  ok "config --dump: $(grep -c = "$tmp/dump") keys, --set applied"
else
  bad "config --dump: $(head -1 "$tmp/e")"
fi
n1=$("$cli" config --config fx5800 --dump 2>/dev/null | grep -E '^num_sms' | tr -dc 0-9)
n2=$("$cli" config --config gtx480 --dump 2>/dev/null | grep -E '^num_sms' | tr -dc 0-9)
[ -n "$n1" ] && [ "$n1" != "$n2" ] && ok "config --dump: fx5800 has $n1 SMs, gtx480 $n2" \
  || bad "config --dump: fx5800 and gtx480 give the same num_sms ($n1/$n2)"

# Errors: exit 2 and a message that names the key (and file:line).
expect2() {   # description, grep pattern for stderr, then the command
  local what=$1 pat=$2; shift 2
  "$@" >"$tmp/o" 2>"$tmp/e"
  local rc=$?
  if [ "$rc" = 2 ] && grep -Eq -- "$pat" "$tmp/e"; then ok "$what: exit 2: $(head -1 "$tmp/e")"
  else bad "$what: exit $rc, stderr '$(head -1 "$tmp/e")' (want 2 and /$pat/)"; fi
}
wl=$("$cli" list workloads | head -1)
printf '# test config\nnum_sms = 4\nl1d_sise = 8192\n' >"$tmp/badkey.conf"
printf 'num_sms = 4\n\nl1d_assoc = four\n' >"$tmp/badval.conf"
expect2 "unknown config name"   'no_such_config'      "$cli" run "$wl" --mode timing --config no_such_config
expect2 "config file bad key"   'badkey.conf:3.*l1d_sise' "$cli" run "$wl" --mode timing --config "$tmp/badkey.conf"
expect2 "config file bad value" 'badval.conf:3.*l1d_assoc' "$cli" run "$wl" --mode timing --config "$tmp/badval.conf"
expect2 "--set unknown key"     'no_such_key'         "$cli" run "$wl" --set no_such_key=1
expect2 "--set bad value"       'l1d_size'            "$cli" run "$wl" --set l1d_size=big
expect2 "--set out of range"    'num_sms'             "$cli" run "$wl" --set num_sms=0
expect2 "--set without ="       'key=value'           "$cli" run "$wl" --set num_sms
expect2 "--set capri tree, 24"  'capri_lru = tree needs capri_entries' "$cli" run "$wl" --set capri.lru=tree --set capri.entries=24
expect2 "dual paths with compaction" 'simt.paths=dual with simt.compaction' \
  "$cli" run "$wl" --mode timing --set simt.paths=dual --set simt.compaction=tbc
expect2 "dws with compaction" 'simt.paths=dws with simt.compaction' \
  "$cli" run "$wl" --mode timing --set simt.paths=dws --set simt.compaction=tbc
expect2 "dws, constrained scheduler" 'simt.paths=dws with dpe.scheduler=constrained' \
  "$cli" run "$wl" --mode timing --set simt.paths=dws --set dpe.scheduler=constrained
expect2 "cae with G-Scalar" 'affine.mode=cae with gscalar.scalar' \
  "$cli" run "$wl" --mode timing --set affine.mode=cae --set gscalar.scalar=alu
expect2 "cae with compaction" 'affine.mode=cae with simt.compaction' \
  "$cli" run "$wl" --mode timing --set affine.mode=cae --set simt.compaction=tbc
expect2 "dac with G-Scalar" 'affine.mode=dac with simt.compaction, simt.paths or gscalar' \
  "$cli" run "$wl" --mode timing --set affine.mode=dac --set gscalar.stats=on
expect2 "path forwarding without dual" 'dpe.path_forwarding=on needs simt.paths=dual' \
  "$cli" run "$wl" --mode timing --set simt.paths=dws --set dpe.path_forwarding=on
expect2 "bad --mode"            'functional or timing' "$cli" run "$wl" --mode fast
expect2 "config bad key"        'l1d_sise'            "$cli" config --config "$tmp/badkey.conf" --dump
expect2 "config without --dump" 'usage'               "$cli" config --config gtx480

if [ "$fail" = 0 ]; then echo "test-timing: all checks passed"; else echo "test-timing: $fail checks FAILED" >&2; fi
[ "$fail" = 0 ]
