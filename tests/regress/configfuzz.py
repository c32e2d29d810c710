#!/usr/bin/env python3
"""Differential config test (docs/timing-core.md, "Machine shapes").

usage: configfuzz.py CLI [--configs N] [--seed S] [--size small]
                         [--workloads a,b] [--timeout SEC] [--out DIR]

Samples N random valid timing configurations (seed S, S+1, ...): every
timing key of `lockstep config --keys` within its documented range, with
the extremes over-represented (one SM, one MSHR, one bank, one lane,
latencies of 1, tiny caches, no L1D). Each configuration runs every
workload at small size; the final memory of every launch must equal
functional mode, every workload must pass, and no run may crash, hang
(--timeout) or hit the watchdog. A configuration too small for a
workload's CTA (LS_ERR_LAUNCH "does not fit") is reported and skipped:
that is a clean error, not a disagreement.

Each failure prints the seed and the one command that reproduces it.
Exit status 0 when every configuration agreed, 1 otherwise."""
import argparse
import json
import os
import random
import subprocess
import sys

# keys the sampler leaves alone: functional limits, RTL-in-the-loop
# backends, the model's fixed warp width, clocks that only scale time,
# the undefined-behaviour checks (docs/checks.md; not a machine shape),
# the device runtime's limits (printf buffer, device heap: not a shape)
FIXED = {"warp_size", "max_warp_insts", "max_stack_depth", "watchdog_cycles",
         "cosim", "slp_backend", "bgp_backend", "rvc_comp_backend",
         "rvc_decomp_backend", "wcu_backend", "capt_backend", "cosim_continue", "core_clock_mhz",
         "icnt_clock_mhz", "dram_clock_mhz", "check", "check_error",
         "printf_fifo_size", "malloc_heap_size", "dac_fault_inject",
         # the device's limits (cudart's): a limit below a workload's CTA or
         # buffers only tests the launch and allocation errors, which the
         # CUDA tests cover; memcheck stays the golden error mode
         "global_mem_bytes", "host_mem_limit", "max_threads_per_cta",
         "max_shared_per_cta", "max_shared_per_cta_optin", "max_regs_per_cta",
         "memcheck"}
# practical upper ends: the documented maxima (1024 SMs, 1000-cycle
# latencies) are valid but make a small run take minutes; their extremes
# are covered by the unit tests of each unit
CAP = {"num_sms": 64, "mem_partitions": 16, "alu_latency": 200, "sfu_latency": 200,
       "shmem_latency": 200, "l1d_latency": 200, "l2_latency": 200,
       "icnt_latency": 100, "operand_collectors": 64, "rf_banks": 64,
       "dram_queue": 64, "l1d_mshrs": 64, "dram_banks": 32,
       "fetch_latency": 50, "l1d_assoc": 16, "l2_assoc": 32}
for k in ("dram_tRCD", "dram_tRP", "dram_tRAS", "dram_tCL", "dram_tWL", "dram_tRRD",
          "dram_tRC", "dram_tWTR", "dram_tRTW", "dram_tWR", "dram_tXP"):
    CAP[k] = 100
CAP.update({"l2_rop_latency": 200, "dram_latency": 200})
# column-to-column time sets the DRAM bandwidth: tCCD 100 with a 1-byte bus
# and 8-byte sub-rank atoms moves 8 bytes per 100 DRAM cycles, and a
# memory-bound small workload takes minutes (seed 2007: linear in tCCD, no
# hang); GDDR5's is 2-4
CAP["dram_tCCD"] = 16


def pick_int(rng, lo, hi):
    """An integer in [lo, hi]: the extremes 30% of the time, else log-uniform."""
    r = rng.random()
    if r < 0.2:
        return lo
    if r < 0.3:
        return hi
    a, b = max(lo, 1), max(hi, 1)
    v = int(round(a * (b / a) ** rng.random()))
    return min(max(v, lo), hi)


def pow2(rng, lo, hi):
    opts = [1 << i for i in range(0, 31) if lo <= (1 << i) <= hi]
    return rng.choice(opts)


def sample(rng, keys):
    """A dict key -> value within the documented ranges that passes the
    config's cross-key rules by construction."""
    c = {}
    for k in keys:
        name = k["key"]
        if name in FIXED:
            continue
        if k["kind"] == "enum":
            c[name] = rng.choice(k["choices"])
        elif k["kind"] == "int":
            c[name] = pick_int(rng, k["min"], min(k["max"], CAP.get(name, k["max"])))
        else:
            c[name] = k["min"] + (k["max"] - k["min"]) * rng.random()
    # resources: every shipped workload's CTA must fit (a smaller SM only
    # tests the "does not fit" error, which the unit tests cover)
    c["max_threads_per_sm"] = rng.choice([1024, 1536, 2048])
    c["regs_per_sm"] = rng.choice([32768, 65536, 131072])
    c["shared_per_sm"] = rng.choice([49152, 65536, 98304])
    c["max_ctas_per_sm"] = pick_int(rng, 1, 32)
    # geometry: powers of two, sizes whole sets
    l1_line = None
    for lvl, lo in (("l1d", 0), ("l2", 1)):
        line = pow2(rng, l1_line or 32, 256)      # l2_line >= l1d_line
        l1_line = l1_line or line
        sector = pow2(rng, max(4, line // 8), line)   # 1..8 sectors per line
        assoc = pick_int(rng, 1, CAP[f"{lvl}_assoc"])
        c[f"{lvl}_line"], c[f"{lvl}_sector"], c[f"{lvl}_assoc"] = line, sector, assoc
        parts = c["mem_partitions"] if lvl == "l2" else 1
        unit = assoc * line * parts
        sets = rng.choice([0 if lo == 0 else 1, 1, 2, 4, 16, 64, 256])
        c[f"{lvl}_size"] = unit * sets
    # the Fermi L1D set hash covers 32 or 64 sets of 128-byte lines only
    if c.get("l1d_set_index") == "fermi" and (
            c["l1d_line"] != 128 or c["l1d_size"] // (c["l1d_assoc"] * 128) not in (32, 64)):
        c["l1d_set_index"] = "linear"
    # part_map = chunk: whole L2 lines a chunk (any multiple is valid)
    c["part_chunk_bytes"] = c["l2_line"] * pick_int(rng, 1, 8)
    atom = pow2(rng, 16, 256)
    c["dram_atom_bytes"] = atom
    c["dram_subranks"] = rng.choice([s for s in (1, 2, 4, 8) if atom % s == 0])
    c["dram_row_bytes"] = pow2(rng, 64, 8192)
    # LAMAR's BGP: bit arrays a power of two, refresh period even
    c["lamar_bgp_bits"] = pow2(rng, 256, 65536)
    c["lamar_bgp_refresh"] = 2 * pick_int(rng, 1, 16384)
    # the bus width sets the DRAM bandwidth with tCCD: a 1-byte bus on one
    # partition moves 1 byte per DRAM cycle and a small run of the suite
    # takes minutes (seed 3 with 64 SMs: over the 300 s limit on a loaded
    # 2-core machine); the narrow extremes are covered by the DRAM unit tests
    c["dram_bus_bytes"] = max(c.get("dram_bus_bytes", 4), 4)
    # dual-path execution / DWS and thread-block compaction do not combine
    # yet; DWS schedules every split (no constrained scheduler); path
    # forwarding is a dual-path stack feature
    if c.get("simt_paths") in ("dual", "dws"):
        c["simt_compaction"] = "none"
    if c.get("simt_paths") == "dws":
        c["dpe_scheduler"] = "full"
    if c.get("simt_paths") != "dual":
        c["dpe_path_forwarding"] = "off"
    # affine.mode (docs/dac.md): cae keeps register classes per warp of one
    # stack and owns one-lane execution; dac has per-warp queues on a
    # single-path stack and its removed instructions bypass the G-Scalar
    # register file: neither combines with compaction, dual paths or G-Scalar
    if c.get("affine_mode") in ("cae", "dac"):
        c["simt_compaction"], c["simt_paths"] = "none", "single"
        c["dpe_path_forwarding"] = "off"
        c["gscalar_compress"], c["gscalar_scalar"] = "off", "off"
    if c.get("affine_mode") == "dac":
        c["gscalar_stats"] = "off"
    # collector units per unit class: all zero (one pool) or all positive,
    # together at most operand_collectors
    n = max(3, c.get("operand_collectors", 16))
    c["operand_collectors"] = n
    if rng.random() < 0.5:
        c["oc_units_alu"] = c["oc_units_sfu"] = c["oc_units_mem"] = 0
    else:
        c["oc_units_alu"] = pick_int(rng, 1, n - 2)
        c["oc_units_sfu"] = pick_int(rng, 1, n - 1 - c["oc_units_alu"])
        c["oc_units_mem"] = pick_int(rng, 1, n - c["oc_units_alu"] - c["oc_units_sfu"])
    # CAPT: tree pseudo-LRU needs a power-of-two entry count
    if c.get("capri_lru") == "tree":
        c["capri_entries"] = pow2(rng, 2, 64)
    return c


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout} s"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("--configs", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--size", default="small")
    ap.add_argument("--workloads", default="all")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--out", default="build/configfuzz")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    keys = [json.loads(line) for line in
            subprocess.run([a.cli, "config", "--keys"], capture_output=True, text=True,
                           check=True).stdout.splitlines()]
    wl = a.workloads.split(",") if a.workloads != "all" else ["all"]
    ref_path = os.path.join(a.out, "functional.json")
    rc, out = run([a.cli, "run", *wl, "--size", a.size, "--mode", "functional",
                   "--stats-json", ref_path], a.timeout)
    if rc != 0:
        print(f"FAIL functional reference run: exit {rc}\n{out[-2000:]}")
        return 1
    ref = json.load(open(ref_path))
    ref = {o["workload"]: o for o in (ref if isinstance(ref, list) else [ref])}
    fails = skips = 0
    for i in range(a.configs):
        seed = a.seed + i
        rng = random.Random(seed)
        c = sample(rng, keys)
        sets = [f"{k}={v}" for k, v in sorted(c.items())]
        args = [x for s in sets for x in ("--set", s)]
        path = os.path.join(a.out, f"seed{seed}.json")
        cmd = [a.cli, "run", *wl, "--size", a.size, "--mode", "timing",
               "--stats-json", path, *args]
        repro = " ".join(cmd[:1] + ["run", *wl, "--size", a.size, *args])
        rc, out = run(cmd, a.timeout)
        if rc is None or rc < 0 or not os.path.exists(path):
            print(f"FAIL seed {seed}: {'signal %d' % -rc if rc and rc < 0 else out[-300:]}\n"
                  f"  reproduce: {repro}")
            fails += 1
            continue
        res = json.load(open(path))
        os.remove(path)
        bad = []
        for o in (res if isinstance(res, list) else [res]):
            w = o["workload"]
            if not o["pass"] and "does not fit" in o["msg"]:
                skips += 1
                continue
            if not o["pass"]:
                bad.append(f"{w}: {o['msg'][:200]}")
            elif o["mem_digest"] != ref[w]["mem_digest"]:
                bad.append(f"{w}: final memory differs from functional mode")
            elif [l["mem_digest"] for l in o["launches"]] != \
                    [l["mem_digest"] for l in ref[w]["launches"]]:
                bad.append(f"{w}: memory after some launch differs from functional mode")
        if bad:
            fails += 1
            print(f"FAIL seed {seed}: " + "; ".join(bad) + f"\n  reproduce: {repro}")
        else:
            print(f"ok   seed {seed}: {len(res) if isinstance(res, list) else 1} workloads "
                  f"agree with functional mode (num_sms={c['num_sms']}, "
                  f"l1d_size={c['l1d_size']}, l1d_mshrs={c['l1d_mshrs']}, "
                  f"alu_lanes={c['alu_lanes']}, sched={c['sched_policy']})")
    print(f"configfuzz: {a.configs - fails} passed, {fails} failed"
          + (f" ({skips} workload runs skipped: CTA does not fit)" if skips else ""))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
