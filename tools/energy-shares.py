#!/usr/bin/env python3
"""tools/energy-shares.py: the chip energy model's component shares of a run.

  energy-shares.py STATS.json [STATS.json ...]

Sums energy.j (docs/energy.md) over every workload of the --stats-json
files and prints a Markdown table: each component's share of the summed
energy beside GPUWattch's published GTX480 share where one exists (the
G-Scalar paper, section 1; Rhu's dissertation, section 5.3.1)."""
import json
import sys

# component groups of the table: (label, energy.j keys, published share)
GROUPS = [
    ("register file (`rf` + `oc`)", ("rf", "oc"),
     "16% (GPUWattch via the G-Scalar paper, section 1)"),
    ("execution units (`alu` + `sfu` + `mem`)", ("alu", "sfu", "mem"),
     "24% (GPUWattch via the G-Scalar paper, section 1)"),
    ("front end and pipeline (`fds` + `icache` + `pipe`)", ("fds", "icache", "pipe"), "-"),
    ("DAC queues (`dac`)", ("dac",), "-"),
    ("memory system (`l1d` + `shmem` + `l2` + `noc` + `dram`)",
     ("l1d", "shmem", "l2", "noc", "dram"),
     "5-45% by application (dissertation 5.3.2.4, citing GPUWattch)"),
    ("leakage (`sm_leak` + `uncore_leak`)", ("sm_leak", "uncore_leak"),
     "McPAT on GPUWattch's GTX480 configuration: 46.4 W (docs/energy.md \"Static "
     "power\"), none of it in the power GPUWattch reports; 29% at peak in the "
     "dissertation's model (59 W of 201.5 W, 5.3.1)"),
    ("constant power (`sm_busy` + `sm_idle` + `uncore_const`)",
     ("sm_busy", "sm_idle", "uncore_const"),
     "GPUWattch: 11 W for the chip + 1.59 W per idle SM, none per busy SM "
     "(gpuwattch_gtx480.xml, power_interface.cc)"),
]


def shares(runs):
    """{key: joules} summed over runs' energy.j, and the total."""
    tot = {}
    for r in runs:
        for k, v in r.get("energy", {}).get("j", {}).items():
            tot[k] = tot.get(k, 0.0) + v
    return tot, sum(tot.values())


def table(runs):
    tot, all_j = shares(runs)
    if all_j <= 0:
        raise SystemExit("energy-shares: no energy in these runs (timing mode?)")
    n = len(runs)
    L = [f"Suite: {n} workloads, {all_j:.4g} J in all.", "",
         "| component | ours | GPUWattch GTX480 |", "|---|---|---|"]
    for label, keys, pub in GROUPS:
        L.append(f"| {label} | {100 * sum(tot.get(k, 0.0) for k in keys) / all_j:.1f}% | {pub} |")
    L += ["", "| component | ours |", "|---|---|"]
    L += [f"| `{k}` | {100 * v / all_j:.1f}% |" for k, v in tot.items()]
    return "\n".join(L)


def main(paths):
    runs = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            d = json.load(f)
        runs += d if isinstance(d, list) else [d]
    print(table(runs))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__.split("\n\n")[1])
    main(sys.argv[1:])
