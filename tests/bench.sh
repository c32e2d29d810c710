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
#                "met": true|false}}
# The run is single-threaded, so the figures are for one host core.
set -u
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
"${timer[@]}" ${timer:+-o "$tmp/func.cpu"} "$cli" run all --size default --mode functional \
  --stats-json "$tmp/func.json" >/dev/null || rc=$?
"${timer[@]}" ${timer:+-o "$tmp/timing.cpu"} "$cli" run all --size default --mode timing \
  --config "$conf" --stats-json "$tmp/timing.json" >/dev/null || rc=$?
for f in func timing; do
  if [ ! -s "$tmp/$f.json" ]; then
    echo "bench: no $f statistics written (lockstep exited $rc)" >&2
    exit 1
  fi
done
python3 - "$tmp/func.json" "$tmp/timing.json" "$out" "$conf" "$tmp" <<'PY'
import json, os, sys
func, tim, out, conf = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3], sys.argv[4]
def cpu(name):
    try:
        u, s = open(os.path.join(sys.argv[5], name + ".cpu")).read().split()[-2:]
        return float(u) + float(s)
    except (OSError, ValueError):
        return None
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
json.dump({"schema": 1, "config": conf, "size": "default", "rows": rows, "total": total,
           "targets": {"regular_thread_insts_per_s": TARGET_TI,
                       "regular_cycles_per_s": TARGET_CY, "met": met}},
          open(out, "w"), indent=2)
PY
echo "bench: wrote $out"
[ "$rc" = 0 ] || { echo "bench: some workloads FAILED (lockstep exited $rc)" >&2; exit 1; }
