#!/usr/bin/env bash
# bench.sh CLI OUT.json: simulator speed per workload (default size,
# functional mode): thread- and warp-instructions per simulated second,
# printed as a table and written to OUT.json (the CLI's --stats-json list).
set -u
cli=${1:?usage: bench.sh path/to/lockstep OUT.json}
out=${2:-build/bench.json}
mkdir -p "$(dirname "$out")"
"$cli" run all --size default --stats-json "$out" >/dev/null
rc=$?
if [ ! -s "$out" ]; then
  echo "bench: no statistics written (lockstep exited $rc)" >&2
  exit 1
fi
python3 - "$out" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
fmt = "%-12s %-4s %13s %12s %8s %12s %12s"
print(fmt % ("workload", "res", "thread_insts", "warp_insts", "wall_s",
             "Mthr-inst/s", "Mwarp-inst/s"))
tt = tw = ts = 0.0
for r in rows:
    s = r["sim"]
    print(fmt % (r["workload"], "PASS" if r["pass"] else "FAIL",
                 r["thread_insts"], r["warp_insts"], "%.3f" % s["wall_s"],
                 "%.2f" % (s["thread_insts_per_s"] / 1e6),
                 "%.2f" % (s["warp_insts_per_s"] / 1e6)))
    tt += r["thread_insts"]; tw += r["warp_insts"]; ts += s["wall_s"]
if ts > 0:
    print(fmt % ("total", "", int(tt), int(tw), "%.3f" % ts,
                 "%.2f" % (tt / ts / 1e6), "%.2f" % (tw / ts / 1e6)))
PY
echo "bench: wrote $out"
[ "$rc" = 0 ] || { echo "bench: some workloads FAILED (lockstep exited $rc)" >&2; exit 1; }
