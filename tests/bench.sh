#!/usr/bin/env bash
# bench.sh CLI OUT.json [CONFIG]: simulator speed per workload at default
# size, in functional mode and in timing mode (CONFIG, default gtx480 with
# its 15 SMs): thread- and warp-instructions per host second and simulated
# cycles per host second. Prints a table and writes OUT.json:
#   {"schema": 1, "config": ..., "size": "default",
#    "rows": [{"workload", "category", "pass",
#              "functional": {"wall_s", "thread_insts_per_s", "warp_insts_per_s"},
#              "timing": {"wall_s", "thread_insts_per_s", "warp_insts_per_s",
#                         "cycles_per_s", "cycles", "ipc"}}],
#    "total": {"functional": {...}, "timing": {...},
#              "cpu_s": {"functional", "timing"} (whole runs, if /usr/bin/time)},
#    "targets": {"regular_thread_insts_per_s": 1e7, "regular_cycles_per_s": 2e4,
#                "met": true|false},
#    "lockstep": {"wall_s": {"c", "lockstep"}, "cpu_s": {...}, "ratio_wall",
#                 "ratio_cpu", "target_ratio": 3, "met", "cosim": {blk: stats}},
#    "make_run": {"flags", "sizes": {"small"|"default": {"c_seconds", "c_wall_s", "cases":
#                 [{"cosim", "seconds", "ratio", "target_ratio", "wall_s", "cycles_compared",
#                   "mismatches", "pass", "met"}]}}, "target_ratio_all": 2,
#                 "target_ratio_kind": 1.5, "met"},
#    "lamar": {"workloads", "wall_s": {"cg_only", "bgp"}, "cpu_s": {...}, "ratio",
#              "target_ratio": 1.3, "met", "pass"},
#    "compaction": {"workloads", "seconds", "cycles", "ratio_capri",
#                   "ratio_capri_per_cycle", "ratio_lockstep", "target_ratio_capri": 1.5,
#                   "target_ratio_lockstep": 3, "mismatches", "met", "pass"},
#    "gscalar"|"dpe"|"dac": {"workloads", "cases": [{"case", "seconds", "cycles", "ratio",
#                      "ratio_per_cycle", "target_ratio", "mismatches", "pass", "met"}],
#                      "met"}}
# Their "seconds" are each variant's median over BENCH_ROUNDS alternating
# rounds (default 3).
# The lockstep column: the same timing run with every block in the GPU loop
# (--cosim all) against the C backends alone, whole runs (GPU creation and
# loading the Verilated models included).
# The run is single-threaded, so the figures are for one host core.
# BENCH_SECTIONS="speed make_run lamar compaction ratios" (any of them)
# runs only those sections (default: all); OUT.json then holds only theirs.
set -u
here=$(cd "$(dirname "$0")" && pwd)    # bench_cpu.py
cli=${1:?usage: bench.sh path/to/lockstep OUT.json [CONFIG]}
out=${2:-build/bench.json}
conf=${3:-gtx480}
mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
rc=0
# CPU seconds of each whole run (user+sys) where /usr/bin/time exists: on a
# shared host they are steadier than the wall-clock rates.
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -f "%U %S")
# The ratio sections (compaction, G-Scalar, dual paths, DAC) run their
# variants BENCH_ROUNDS times (default 3), alternating, and take each
# variant's median CPU seconds: one sample of a 1 s run on a shared host
# moves by 10-20%, enough to flip a target either way.
rounds=${BENCH_ROUNDS:-3}
sections=${BENCH_SECTIONS:-speed make_run lamar compaction ratios}
want() { [[ " $sections " == *" $1 "* ]]; }
for sec in $sections; do
  case $sec in speed|make_run|lamar|compaction|ratios) ;;
    *) echo "bench: BENCH_SECTIONS: unknown section '$sec' (speed make_run lamar compaction ratios)" >&2
       exit 2 ;;
  esac
done
# the host load beside the figures (a shared host moves them)
echo "bench: load average at start: $(cut -d" " -f1-3 /proc/loadavg)"
# a section's Python adds its key to OUT.json; the first section writes it
want speed || echo '{"schema": 1, "config": "'"$conf"'"}' >"$out"
# ---- section speed: functional and timing rates, the lockstep column
if want speed; then
"${timer[@]}" ${timer:+-o "$tmp/func.cpu"} "$cli" run all --size default --mode functional \
  --stats-json "$tmp/func.json" >/dev/null || rc=$?
t0=$(date +%s.%N)
"${timer[@]}" ${timer:+-o "$tmp/timing.cpu"} "$cli" run all --size default --mode timing \
  --config "$conf" --stats-json "$tmp/timing.json" >/dev/null || rc=$?
t1=$(date +%s.%N)
# once untimed, so a first Verilator build is not in the figure (also the
# blocks only compaction and compression instantiate: WCU, CAPT, RVC, whose
# lockstep lines below would otherwise time their Verilator build)
"$cli" run vecadd --size small --config "$conf" --cosim all >/dev/null 2>&1 || true
"$cli" run bfs --size small --config "$conf" --set simt.compaction=capri \
  --set slp.permutation=balanced --cosim wcu,capt,slp >/dev/null 2>&1 || true
"$cli" run matmul --size small --config gtx480-gscalar --set gscalar.compress=on \
  --set gscalar.scalar=all --cosim rvc >/dev/null 2>&1 || true
t2=$(date +%s.%N)
"${timer[@]}" ${timer:+-o "$tmp/lockstep.cpu"} "$cli" run all --size default --mode timing \
  --config "$conf" --cosim all --stats-json "$tmp/lockstep.json" >/dev/null || rc=$?
t3=$(date +%s.%N)
echo "$t0 $t1 $t2 $t3" >"$tmp/walls"
for f in func timing lockstep; do
  if [ ! -s "$tmp/$f.json" ]; then
    echo "bench: no $f statistics written (lockstep exited $rc)" >&2
    exit 1
  fi
done
PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" python3 - "$tmp/func.json" "$tmp/timing.json" "$out" "$conf" "$tmp" <<'PY'
import json, os, sys
func, tim, out, conf = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3], sys.argv[4]
from bench_cpu import cpu_s
def cpu(name):
    return cpu_s(sys.argv[5], name)
fref = {r["workload"]: r for r in func}
TARGET_TI, TARGET_CY = 10e6, 20e3
rows = []
hdr = "%-12s %-10s %-4s %12s %12s | %9s %9s %9s %9s %10s %7s"
print(hdr % ("workload", "category", "res", "thread_insts", "cycles",
             "F Mthr/s", "T Mthr/s", "T Mwarp/s", "T Kcyc/s", "T wall_s", "IPC"))
tot = {"functional": [0, 0, 0.0], "timing": [0, 0, 0.0, 0]}
met = True
for t in tim:
    f = fref.get(t["workload"], {})
    fs, ts = f.get("sim", {}), t["sim"]
    ok = bool(t["pass"] and f.get("pass"))
    row = {"workload": t["workload"], "category": t.get("category"), "pass": ok,
           "functional": {k: fs.get(k) for k in ("wall_s", "thread_insts_per_s", "warp_insts_per_s")},
           "timing": {"wall_s": ts["wall_s"], "thread_insts_per_s": ts["thread_insts_per_s"],
                      "warp_insts_per_s": ts["warp_insts_per_s"],
                      "cycles_per_s": ts["cycles_per_s"], "cycles": t["cycles"], "ipc": t["ipc"]}}
    rows.append(row)
    print(hdr % (t["workload"], t.get("category", ""), "PASS" if ok else "FAIL",
                 t["thread_insts"], t["cycles"],
                 "%.2f" % ((fs.get("thread_insts_per_s") or 0) / 1e6),
                 "%.2f" % ((ts["thread_insts_per_s"] or 0) / 1e6),
                 "%.3f" % ((ts["warp_insts_per_s"] or 0) / 1e6),
                 "%.1f" % ((ts["cycles_per_s"] or 0) / 1e3),
                 "%.3f" % ts["wall_s"], "%.3f" % (t["ipc"] or 0)))
    tot["functional"][0] += f.get("thread_insts", 0); tot["functional"][1] += f.get("warp_insts", 0)
    tot["functional"][2] += fs.get("wall_s") or 0
    tot["timing"][0] += t["thread_insts"]; tot["timing"][1] += t["warp_insts"]
    tot["timing"][2] += ts["wall_s"] or 0; tot["timing"][3] += t["cycles"]
    if t.get("category") == "regular" and ((ts["thread_insts_per_s"] or 0) < TARGET_TI
                                           or (ts["cycles_per_s"] or 0) < TARGET_CY):
        met = False
def rate(a, b):
    return a / b if b > 0 else 0.0
F, T = tot["functional"], tot["timing"]
total = {"functional": {"wall_s": F[2], "thread_insts_per_s": rate(F[0], F[2]),
                        "warp_insts_per_s": rate(F[1], F[2])},
         "timing": {"wall_s": T[2], "thread_insts_per_s": rate(T[0], T[2]),
                    "warp_insts_per_s": rate(T[1], T[2]), "cycles_per_s": rate(T[3], T[2]),
                    "cycles": T[3]}}
print(hdr % ("total", "", "", T[0], T[3], "%.2f" % (total["functional"]["thread_insts_per_s"] / 1e6),
             "%.2f" % (total["timing"]["thread_insts_per_s"] / 1e6),
             "%.3f" % (total["timing"]["warp_insts_per_s"] / 1e6),
             "%.1f" % (total["timing"]["cycles_per_s"] / 1e3), "%.3f" % T[2], ""))
cpu_f, cpu_t = cpu("func"), cpu("timing")
if cpu_f and cpu_t:
    print("whole runs in CPU seconds (inputs and CPU references included): functional "
          "%.2f s, %.1f M thread-inst/s; timing %.2f s, %.1f M thread-inst/s, %.1f K cycles/s"
          % (cpu_f, F[0] / cpu_f / 1e6, cpu_t, T[0] / cpu_t / 1e6, T[3] / cpu_t / 1e3))
    total["cpu_s"] = {"functional": cpu_f, "timing": cpu_t}
print("targets on the regular workloads (timing, %s): >= %.0f M thread-inst/s and "
      ">= %.0f K cycles/s: %s" % (conf, TARGET_TI / 1e6, TARGET_CY / 1e3, "met" if met else "NOT met"))
# the lockstep column
lk = {r["workload"]: r for r in json.load(open(os.path.join(sys.argv[5], "lockstep.json")))}
w0, w1, w2, w3 = map(float, open(os.path.join(sys.argv[5], "walls")).read().split())
wall_c, wall_l = w1 - w0, w3 - w2
cpu_l = cpu("lockstep")
cos = {}
for r in lk.values():
    for b, c in r.get("cosim", {}).items():
        a = cos.setdefault(b, {"instances": 0, "cycles": 0, "idle_skipped": 0,
                               "transactions": 0, "mismatches": 0, "backend": c["backend"]})
        a["instances"] = max(a["instances"], c["instances"])
        for k in ("cycles", "idle_skipped", "transactions", "mismatches"):
            a[k] += c[k]
lpass = all(r["pass"] for r in lk.values())
ratio_w = wall_l / wall_c if wall_c > 0 else 0.0
ratio_c = cpu_l / cpu_t if cpu_l and cpu_t else None
TARGET_LR = 3.0
lmet = lpass and ratio_w <= TARGET_LR and (ratio_c is None or ratio_c <= TARGET_LR)
print("lockstep (--cosim all, %s): whole suite %.2f s wall against %.2f s with the C "
      "backends: %.2fx%s (target <= %.0fx: %s)" % (conf, wall_l, wall_c, ratio_w,
      ", CPU %.2f s / %.2f s = %.2fx" % (cpu_l, cpu_t, ratio_c) if ratio_c else "",
      TARGET_LR, "met" if lmet else "NOT met"))
for b, a in sorted(cos.items()):
    print("  %s %s: %d instances, %d cycles compared, %d idle skipped, %d transactions, "
          "%d mismatches" % (b, a["backend"], a["instances"], a["cycles"], a["idle_skipped"],
                             a["transactions"], a["mismatches"]))
for r in rows:
    l = lk.get(r["workload"], {})
    r["lockstep"] = {"pass": l.get("pass"), "wall_s": l.get("sim", {}).get("wall_s"),
                     "cosim": l.get("cosim")}
json.dump({"schema": 1, "config": conf, "size": "default", "rows": rows, "total": total,
           "targets": {"regular_thread_insts_per_s": TARGET_TI,
                       "regular_cycles_per_s": TARGET_CY, "met": met},
           "lockstep": {"wall_s": {"c": wall_c, "lockstep": wall_l},
                        "cpu_s": {"c": cpu_t, "lockstep": cpu_l},
                        "ratio_wall": ratio_w, "ratio_cpu": ratio_c,
                        "target_ratio": TARGET_LR, "met": lmet, "cosim": cos}},
          open(out, "w"), indent=2)
PY
fi
# ---- section make_run
if want make_run; then
# make run's configuration (RUN_FLAGS, passed by the Makefile: every
# mechanism whose block the GPU clocks) at small and default size: the C
# backends (--cosim none) against every block in lockstep (--cosim all) and
# each block kind alone. Whole runs in CPU seconds (workers included), one
# round each (BENCH_RUN_ROUNDS); the models are built untimed first.
# shellcheck disable=SC2206
runflags=(${RUN_FLAGS:---mode timing --config gtx480 --set lamar.gdu=bgp --set gscalar.compress=on --set simt.compaction=capri --set slp.permutation=balanced})
kinds=(bgp rvc wcu,capt slp)
runrounds=${BENCH_RUN_ROUNDS:-1}
"$cli" run vecadd --size small "${runflags[@]}" --cosim all >/dev/null 2>&1 || true
for k in $(seq 1 "$runrounds"); do
  for size in small default; do
    for v in none all "${kinds[@]}"; do
      w0=$(date +%s.%N)
      "${timer[@]}" ${timer:+-o "$tmp/run-$size-$v.cpu.$k"} "$cli" run all --size $size \
        "${runflags[@]}" --cosim "$v" --stats-json "$tmp/run-$size-$v.json" >/dev/null || rc=$?
      echo "$w0 $(date +%s.%N)" >"$tmp/run-$size-$v.wall"
    done
  done
done
PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" python3 - "$out" "$tmp" "${kinds[*]}" "${runflags[*]}" <<'PY'
import json, os, sys
out, tmp, kinds, flags = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4]
b = json.load(open(out))
from bench_cpu import cpu_s
TARGET_ALL, TARGET_KIND = 2.0, 1.5
def load(size, v):
    st = json.load(open(os.path.join(tmp, "run-%s-%s.json" % (size, v))))
    sec = cpu_s(tmp, "run-%s-%s" % (size, v)) or sum(r["sim"]["wall_s"] for r in st)
    mism = sum(c["mismatches"] for r in st for c in r.get("cosim", {}).values())
    comp = sum(c["cycles"] for r in st for c in r.get("cosim", {}).values()
               if c["backend"] == "lockstep")
    w0, w1 = map(float, open(os.path.join(tmp, "run-%s-%s.wall" % (size, v))).read().split())
    walls[(size, v)] = w1 - w0
    return sec, all(r["pass"] for r in st), mism, comp
walls = {}
res, allmet = {}, True
for size in ("small", "default"):
    base, bpass, _, _ = load(size, "none")
    cases = []
    for v in ["all"] + kinds:
        sec, ok, mism, comp = load(size, v)
        target = TARGET_ALL if v == "all" else TARGET_KIND
        met = ok and bpass and mism == 0 and sec / base <= target
        if size == "default":
            allmet &= met
        cases.append({"cosim": v, "seconds": sec, "ratio": sec / base, "target_ratio": target,
                      "wall_s": walls[(size, v)], "cycles_compared": comp,
                      "mismatches": mism, "pass": ok, "met": met})
    res[size] = {"c_seconds": base, "c_wall_s": walls[(size, "none")], "cases": cases}
print("make run's settings (%s), CPU seconds against the C backends (--cosim none):" % flags)
print("  %-9s %17s %17s   %s" % ("--cosim", "small", "default", "default: target, compared"))
print("  %-9s %8.2f s        %8.2f s        (wall %.1f s)" % ("none", res["small"]["c_seconds"],
      res["default"]["c_seconds"], res["default"]["c_wall_s"]))
for cs, cd in zip(res["small"]["cases"], res["default"]["cases"]):
    print("  %-9s %8.2f s %5.2fx %8.2f s %5.2fx   <= %.1fx %s, %d cycles, %d mismatches "
          "(wall %.1f s)"
          % (cd["cosim"], cs["seconds"], cs["ratio"], cd["seconds"], cd["ratio"],
             cd["target_ratio"], "met" if cd["met"] else "NOT met", cd["cycles_compared"],
             cd["mismatches"], cd["wall_s"]))
b["make_run"] = {"flags": flags, "sizes": res, "target_ratio_all": TARGET_ALL,
                 "target_ratio_kind": TARGET_KIND, "met": allmet}
json.dump(b, open(out, "w"), indent=2)
PY
fi
# ---- section lamar
if want lamar; then
# LAMAR and PCA (docs/lamar.md): three memory-bound workloads, timing mode,
# lamar.gdu=bgp with pca.tokens=4 against cg_only, C backends; the warp
# instructions are the same, so the CPU-second ratio is the speed ratio
lw=(bfs spmv sssp)
for v in cg_only bgp; do
  extra=(); [ "$v" = bgp ] && extra=(--set pca.tokens=4)
  "${timer[@]}" ${timer:+-o "$tmp/lamar-$v.cpu"} "$cli" run "${lw[@]}" --size default --mode timing \
    --config "$conf" --set dram_subranks=2 --set lamar.gdu=$v "${extra[@]}" \
    --stats-json "$tmp/lamar-$v.json" >/dev/null || rc=$?
done
PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" python3 - "$out" "$tmp" "${lw[*]}" <<'PY'
import json, os, sys
out, tmp, wl = sys.argv[1], sys.argv[2], sys.argv[3].split()
b = json.load(open(out))
from bench_cpu import cpu_s
def cpu(name):
    return cpu_s(tmp, name)
st = {v: json.load(open(os.path.join(tmp, "lamar-%s.json" % v))) for v in ("cg_only", "bgp")}
wall = {v: sum(r["sim"]["wall_s"] for r in st[v]) for v in st}
cpus = {v: cpu("lamar-" + v) for v in st}
ok = all(r["pass"] for v in st for r in st[v])
ratio = cpus["bgp"] / cpus["cg_only"] if cpus["bgp"] and cpus["cg_only"] else wall["bgp"] / wall["cg_only"]
TARGET = 1.3
met = ok and ratio <= TARGET
print("lamar (%s, default): bgp + pca.tokens=4 against cg_only: %.2f s / %.2f s %s = %.2fx "
      "(target <= %.1fx: %s)" % (" ".join(wl), cpus["bgp"] or wall["bgp"],
      cpus["cg_only"] or wall["cg_only"], "CPU" if cpus["bgp"] else "wall", ratio, TARGET,
      "met" if met else "NOT met"))
b["lamar"] = {"workloads": wl, "wall_s": wall, "cpu_s": cpus, "ratio": ratio,
              "target_ratio": TARGET, "met": met, "pass": ok}
json.dump(b, open(out, "w"), indent=2)
PY
fi
if want compaction || want ratios; then
  echo "ratio sections: each variant's median CPU seconds over $rounds alternating rounds (BENCH_ROUNDS)"
fi
# ---- section compaction
if want compaction; then
# Compaction (docs/compaction.md): three divergent workloads, timing mode;
# simt.compaction=capri against none (C backends), and capri with
# slp.permutation=balanced with the WCU, CAPT and SLP in lockstep against
# the same run on the C backends. Whole runs in CPU seconds; capri runs a
# different number of cycles, so the per-cycle ratio is printed beside.
cw=(bfs sortnet mandelbrot)
cvar=("none|" "capri|--set simt.compaction=capri"
      "capri_bal|--set simt.compaction=capri --set slp.permutation=balanced"
      "lockstep|--set simt.compaction=capri --set slp.permutation=balanced --cosim wcu,capt,slp")
for ((k = 1; k <= rounds; k++)); do
  for c in "${cvar[@]}"; do
    n=${c%%|*}; read -r -a a <<<"${c#*|}"
    "${timer[@]}" ${timer:+-o "$tmp/comp-$n.cpu.$k"} "$cli" run "${cw[@]}" --size default --mode timing \
      --config "$conf" "${a[@]}" --stats-json "$tmp/comp-$n.json" >/dev/null || rc=$?
  done
done
PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" python3 - "$out" "$tmp" "${cw[*]}" <<'PY'
import json, os, sys
out, tmp, wl = sys.argv[1], sys.argv[2], sys.argv[3].split()
b = json.load(open(out))
V = ("none", "capri", "capri_bal", "lockstep")
from bench_cpu import cpu_s
def cpu(name):
    return cpu_s(tmp, name)
st = {v: json.load(open(os.path.join(tmp, "comp-%s.json" % v))) for v in V}
sec = {v: cpu("comp-" + v) or sum(r["sim"]["wall_s"] for r in st[v]) for v in V}
cyc = {v: sum(r["cycles"] for r in st[v]) for v in V}
ok = all(r["pass"] for v in V for r in st[v])
mism = sum(c["mismatches"] for r in st["lockstep"] for c in r.get("cosim", {}).values())
r1, r2 = sec["capri"] / sec["none"], sec["lockstep"] / sec["capri_bal"]
p1 = (sec["capri"] / cyc["capri"]) / (sec["none"] / cyc["none"])
T1, T2 = 1.5, 3.0
met = ok and mism == 0 and r1 <= T1 and r2 <= T2
print("compaction (%s, default): capri against none: %.2f s / %.2f s = %.2fx (per simulated "
      "cycle %.2fx; target <= %.1fx); capri + balanced, WCU+CAPT+SLP lockstep against C: "
      "%.2f s / %.2f s = %.2fx (target <= %.1fx), %d mismatches: %s"
      % (" ".join(wl), sec["capri"], sec["none"], r1, p1, T1, sec["lockstep"],
         sec["capri_bal"], r2, T2, mism, "met" if met else "NOT met"))
b["compaction"] = {"workloads": wl, "seconds": sec, "cycles": cyc, "ratio_capri": r1,
                   "ratio_capri_per_cycle": p1, "ratio_lockstep": r2,
                   "target_ratio_capri": T1, "target_ratio_lockstep": T2,
                   "mismatches": mism, "met": met, "pass": ok}
json.dump(b, open(out, "w"), indent=2)
PY
fi
# ---- section ratios
if want ratios; then
# G-Scalar (docs/gscalar.md), dual-path execution (docs/dpe.md) and DAC: whole
# runs in CPU seconds against their baseline, with the per-simulated-cycle
# ratio beside (scalar execution, dual paths and DAC change the cycle count).
#   gscalar: compression + scalar execution (C backends) against compression
#            off on gtx480-gscalar, and the same with the RVC blocks in
#            lockstep against the C backends;
#   dpe:     simt.paths=dual against single on workloads with interleavable
#            branches;
#   dac:     affine.mode=dac against off (docs/dac.md "The hardware") on
#            workloads whose loads decouple (docs/results/dac.md), target
#            <= 1.3x.
gw=(matmul backprop bfs)
dw=(mcml ssc sclst)
aw=(vecadd reduce kmeans)
xvar=("gs_off|gscalar|gtx480-gscalar|"
      "gs_c|gscalar|gtx480-gscalar|--set gscalar.compress=on --set gscalar.scalar=all"
      "gs_lockstep|gscalar|gtx480-gscalar|--set gscalar.compress=on --set gscalar.scalar=all --cosim rvc"
      "dpe_single|dpe|$conf|"
      "dpe_dual|dpe|$conf|--set simt.paths=dual"
      "dac_off|dac|$conf|--set affine.mode=off"
      "dac_on|dac|$conf|--set affine.mode=dac")
for ((k = 1; k <= rounds; k++)); do
  for c in "${xvar[@]}"; do
    IFS='|' read -r n grp cf args <<<"$c"; read -r -a a <<<"$args"
    case $grp in gscalar) w=("${gw[@]}");; dpe) w=("${dw[@]}");; *) w=("${aw[@]}");; esac
    "${timer[@]}" ${timer:+-o "$tmp/x-$n.cpu.$k"} "$cli" run "${w[@]}" --size default --mode timing \
      --config "$cf" "${a[@]}" --stats-json "$tmp/x-$n.json" >/dev/null || rc=$?
  done
done
PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" python3 - "$out" "$tmp" "${gw[*]}" "${dw[*]}" "${aw[*]}" <<'PY'
import json, os, sys
out, tmp = sys.argv[1], sys.argv[2]
wl = {"gscalar": sys.argv[3].split(), "dpe": sys.argv[4].split(), "dac": sys.argv[5].split()}
b = json.load(open(out))
from bench_cpu import cpu_s
def cpu(name):
    return cpu_s(tmp, name)
def load(v):
    st = json.load(open(os.path.join(tmp, "x-%s.json" % v)))
    sec = cpu("x-" + v) or sum(r["sim"]["wall_s"] for r in st)
    mism = sum(c["mismatches"] for r in st for c in r.get("cosim", {}).values())
    return st, sec, sum(r["cycles"] for r in st), all(r["pass"] for r in st), mism
# (group, [(label, run, baseline, target)])
CASES = (("gscalar", (("compress+scalar C vs off", "gs_c", "gs_off", 1.5),
                      ("RVC lockstep vs C", "gs_lockstep", "gs_c", 3.0))),
         ("dpe", (("dual vs single", "dpe_dual", "dpe_single", 1.3),)),
         ("dac", (("dac vs off", "dac_on", "dac_off", 1.3),)))
for grp, cases in CASES:
    rows, allmet = [], True
    for label, run, base, target in cases:
        sr, s1, c1, p1, m1 = load(run)
        sb, s0, c0, p0, m0 = load(base)
        r = s1 / s0
        per = (s1 / c1) / (s0 / c0) if c0 and c1 else None
        met = p1 and p0 and m1 == 0 and r <= target
        allmet &= bool(met)
        rows.append({"case": label, "seconds": [s1, s0], "cycles": [c1, c0], "ratio": r,
                     "ratio_per_cycle": per, "target_ratio": target, "mismatches": m1,
                     "pass": p1 and p0, "met": bool(met)})
        print("%s (%s, default): %s: %.2f s / %.2f s = %.2fx (per simulated cycle %.2fx; "
              "target <= %.1fx), %d mismatches: %s" % (grp, " ".join(wl[grp]), label, s1, s0,
              r, per or 0, target, m1, "met" if met else "NOT met"))
    b[grp] = {"workloads": wl[grp], "cases": rows, "met": allmet}
json.dump(b, open(out, "w"), indent=2)
PY
fi
echo "bench: load average at end: $(cut -d" " -f1-3 /proc/loadavg)"
echo "bench: wrote $out"
[ "$rc" = 0 ] || { echo "bench: some workloads FAILED (lockstep exited $rc)" >&2; exit 1; }
