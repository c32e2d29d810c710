#!/usr/bin/env python3
"""tools/point-diff.py: one workload's points in two sweep outputs side by
side (two builds, or two settings of one), split into the work and the tail.

  point-diff.py A_DIR B_DIR WORKLOAD [--variants cg_only,fg_only,bgp]
                [--size default] [--sms 15] [--metrics k1,k2,...]

Per variant: cycles, the mean SM-busy cycles (sm_cycles / SMs: the work,
which SMs idle while the last ones finish do not lengthen) and the idle
share (1 - that over cycles: the tail), then each metric; last, each
variant's speedup over the first, by cycles and by SM-busy cycles. A run
whose cycles move while its SM-busy cycles stay is one whose tail moved.
Reads DIR/results.json (tools/sweep.py's merged rows)."""
import argparse
import json
import os
import sys

METRICS = ["stall.mem_wait", "l1d.hits", "l1d.sector_fills", "l2.accesses", "dram.bytes",
           "dram.activates", "energy.noc_flits", "l1d.gdu.fg", "l1d.gdu.windows",
           "l1d.gdu.inversions", "l2.gdu.windows"]


def load(d):
    try:
        with open(os.path.join(d, "results.json"), encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"point-diff: {d}/results.json: {e}")
    return {(r["workload"], r["size"], r["variant"]): r for r in doc["rows"]}, \
        str(doc.get("build", "?"))[:12]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("workload")
    ap.add_argument("--variants", default="cg_only,fg_only,bgp")
    ap.add_argument("--size", default="default")
    ap.add_argument("--sms", type=int, default=15, help="SMs of the config (gtx480: 15)")
    ap.add_argument("--metrics", default=",".join(METRICS))
    a = ap.parse_args()
    runs = [load(a.a), load(a.b)]
    vs, ms = a.variants.split(","), [m for m in a.metrics.split(",") if m]
    print(f"{a.workload} ({a.size}): A = {a.a} (build {runs[0][1]}), "
          f"B = {a.b} (build {runs[1][1]})")
    busy = {}
    for v in vs:
        rs = [R.get((a.workload, a.size, v)) for R, _ in runs]
        if None in rs or any(r["status"] != "pass" for r in rs):
            print(f"  {v}: not in both (or did not pass)")
            continue
        print(f"  {v}")
        for i, r in enumerate(rs):
            busy[(v, i)] = (r["cycles"], r["sm_cycles"] / a.sms)
        for label, f in (("cycles", lambda i: busy[(v, i)][0]),
                         ("SM-busy cycles (mean)", lambda i: round(busy[(v, i)][1])),
                         ("idle share", lambda i: f"{1 - busy[(v, i)][1] / busy[(v, i)][0]:.3f}")):
            print(f"    {label:24s} {f(0)!s:>14} {f(1)!s:>14}")
        for m in ms:
            print(f"    {m:24s} {rs[0].get(m)!s:>14} {rs[1].get(m)!s:>14}")
    base = vs[0]
    for v in vs[1:]:
        if (v, 0) in busy and (base, 0) in busy:
            cells = [f"{busy[(base, i)][k] / busy[(v, i)][k] - 1:+.1%}" for i in (0, 1)
                     for k in (0, 1)]
            print(f"  {v} over {base}: by cycles A {cells[0]}, B {cells[2]}; "
                  f"by SM-busy cycles A {cells[1]}, B {cells[3]}")


if __name__ == "__main__":
    main()
