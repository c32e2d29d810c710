#!/usr/bin/env python3
"""Plots and results page of make experiments-dac (experiments/dac.toml):
usage: dac.py SWEEP_OUT RESULTS_DIR.

Writes RESULTS_DIR/dac.md (generated: do not edit) and its PNG plots: the
headline against the paper at default and large inputs, the reason table
of the loads the transform keeps in the main stream (lockstep check --dac),
the ablation of each change of docs/dac.md, per-workload tables by class,
and the queue-size sensitivity. The large-input points are the variants
named NAME-large (off, dac, cae, mta and the variants of the large-input
loss section, on a stated subset). Workloads are
split into memory- and compute-bound by the off run's stall share (RULE
below). The dac/cae/mta statistics objects exist only under their own
mode, so they are read from each point's cached stats. Every figure in the
prose is computed here."""
import json
import math
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))

from sweeplib import plot, progpage, runner, table   # noqa: E402
from sweeplib.source import commit_label as commit   # noqa: E402
import correlate   # noqa: E402  (the "baseline correlated" headline row)

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
MAIN = ["dac", "cae", "mta", "dac-mta"]
LARGE = ["dac", "cae", "mta"]
SUFFIX_L = "-large"     # experiments/dac.toml's large-input variants
# memory-bound: in the off run, at least this share of the SM-cycles with
# resident work has no warp that can issue because its operands are not
# ready (loads, mostly) or the memory unit is full (stall.scoreboard +
# stall.mem_wait over sm_cycles): the in-order cores stall on memory
MEM_STALL = 0.5
ABL = [("abl0", "the transform and units without the changes below",
        "dac.pred_combine=off, dac.feedback=off, dac.aeu_switch=off, dac.vector=off"),
       ("abl1", "+ predicate combinations, selects and min/max (4.3, 4.6)",
        "dac.feedback=off, dac.aeu_switch=off, dac.vector=off"),
       ("abl2", "+ masks of data-dependent branches fed back (4.4)",
        "dac.aeu_switch=off, dac.vector=off"),
       ("abl3", "+ per-CTA AEU/PEU switching (4.2)", "dac.vector=off"),
       ("dac", "+ vectors: div/rem of an affine value by a uniform one, per lane (3, 4.6): "
        "DAC as on this page", "(defaults)"),
       ("dac-aw", "+ prefetch of loads a same-thread store may precede (Fig 7; unsafe)",
        "dac.prefetch_after_write=on"),
       ("dac-p2", "+ a second pass context (beyond the paper), instead of dac-aw",
        "dac.passes=2"),
       ("dac-p8s", "+ a pass context per resident CTA, each its share of the ATQ (beyond "
        "the paper; no CTA waits for a pass), instead of dac-aw",
        "dac.passes=8, dac.atq_split=on"),
       ("dac-fd", "masks fed back only where a region holds an enq.data, instead of "
        "dac-aw", "dac.feedback=data"),
       ("dac-be", "the AEU expands and prefetches past a barrier before the CTA passed it "
        "(not the paper's 4.2), instead of dac-aw", "dac.barrier_fetch=early"),
       ("dac-lb", "an allocation evicts a locked L1D line rather than wait for the set's "
        "pending way (not the paper's 4.2), instead of dac-aw", "dac.lock_break=on")]
# the large-input variants that measure why DAC loses at large inputs
WHY_L = [("dac", "DAC as on this page"),
         ("dac-fd", "masks fed back only where a region holds an enq.data (dac.feedback=data)"),
         ("dac-q", "every DAC queue 64 deep (dac.atq_entries, addr_queue, pred_queue, "
          "mask_queue = 64)"),
         ("dac-fdq", "both"),
         ("dac-p8s", "a pass context per resident CTA, each its share of the ATQ "
          "(dac.passes=8, dac.atq_split=on): no CTA waits for a pass")]
SENS = {"addr/pred queue": ("dac.addr_queue", [("aq1", 1), ("aq2", 2), ("dac", 4), ("aq16", 16)]),
        "ATQ entries": ("dac.atq_entries", [("atq1", 1), ("atq2", 2), ("dac", 8), ("atq32", 32)])}
PAPER = {"speedup": 1.407, "compute_dac": 1.34, "compute_cae": 1.11, "memory_dac": 1.44,
         "memory_mta": 1.16, "insts": 0.260, "decoupled": 0.798, "affine_share": 0.04,
         "peu_uniform": 0.64, "peu_two": 0.93, "peu_full": 0.07, "energy": 0.202,
         "energy_dyn": 0.184}
# The chip energy model (docs/energy.md), split as GPUWattch splits a
# chip's power: static is the leakage and constant power charged per cycle
# (every SM, the uncore) and the DRAM's standby and refresh energy; dynamic
# is every per-event component, the DRAM's commands (activate/precharge,
# read, write and their I/O) included.
E_STATIC = ("sm_leak", "sm_busy", "sm_idle", "uncore_leak", "uncore_const")
DRAM_DYN = ("act_pre", "rd", "rd_io", "wr", "wr_io")
E_ROWS = [("rf", "register file arrays (vector operands, affine tuples)"),
          ("oc", "operand crossbar"), ("alu", "ALU lanes (the AEU/PEU included)"),
          ("sfu", "SFU lanes"), ("mem", "MEM lanes (address computation)"),
          ("dac", "DAC queues (ATQ, per-warp records, masks)"),
          ("fds", "fetch, decode, schedule per issued warp instruction"), ("l1d", "L1D"),
          ("shmem", "shared memory"), ("l2", "L2"), ("noc", "interconnect"),
          ("dram_dyn", "DRAM commands"), ("dram_bg", "DRAM standby and refresh"),
          ("sm_leak", "SM leakage"), ("sm_busy", "SM constant power, busy"),
          ("sm_idle", "SM constant power, idle"), ("uncore_leak", "uncore leakage"),
          ("uncore_const", "uncore constant power")]
WHY = {"nonaffine": "the address is not affine (from data, a division or mod of a "
                    "value that is neither affine nor a vector, bit "
                    "operations, a min/max of two affine values, two selects, a merge "
                    "after divergence, a register of a loop whose threads a branch splits "
                    "across iterations)",
       "local-write": "a .local load that a write of the same thread to local or generic "
                      "memory may precede",
       "not-kernel": "in a .func body", "unstructured": "an unstructured region",
       "data-control": "under a data-dependent branch not fed back",
       "barrier": "after a barrier the affine warp does not see", "exit": "a guarded exit",
       "space": "not a global/local space"}


def cfg_keys(lockstep, config):
    """The numeric keys of config (lockstep config --dump)."""
    dump = subprocess.run([lockstep, "config", "--config", config, "--dump"], check=True,
                          capture_output=True, text=True).stdout
    keys = {}
    for line in dump.splitlines():
        k, _, v = line.partition("=")
        try:
            keys[k.strip()] = float(v.split("#")[0].strip())
        except ValueError:
            pass
    return keys


def load(out):
    m = table.read_manifest(out)
    rows = table.read_rows(out)
    bad = [r for r in rows if r["status"] != "pass"]
    if bad:
        sys.exit(f"dac: {len(bad)} points of {out} did not pass (first: point "
                 f"{bad[0]['point']} {bad[0]['workload']} {bad[0]['variant']}: "
                 f"{bad[0]['status']}): no page from an incomplete sweep")
    stats = {}
    for p in m["points"]:
        stats[(p["workload"], p["variant"])] = runner.load_cached(out, p)
    for r in rows:
        st = stats[(r["workload"], r["variant"])]
        r["st"] = st
        for obj in ("dac", "cae", "mta"):
            if obj in st:
                r[obj] = st[obj]
    return m, {(r["workload"], r["variant"]): r for r in rows}


def e_comp(r, k):
    """Joules of r's run in chip-model component k (E_ROWS; the DRAM split
    into its commands and its background)."""
    st = r["st"]
    if k in ("dram_dyn", "dram_bg"):
        d = st["power"]["dram_energy_j"]
        dyn = sum(d.get(x, 0.0) for x in DRAM_DYN)
        return dyn if k == "dram_dyn" else d["total"] - dyn
    return st["energy"]["j"][k]


def e_total(r):
    """The run's energy, chip and DRAM (energy.total)."""
    return r["st"]["energy"]["total"]


def e_dyn(r):
    """The run's dynamic energy: every per-event component (E_STATIC and
    the DRAM's background left out)."""
    return sum(e_comp(r, k) for k, _ in E_ROWS
               if k not in E_STATIC and k != "dram_bg")


def gm(vals):
    return plot.geomean(list(vals))


def pct(x):
    return f"{100 * x:.1f}%"


def fmt(v, n=3):
    return "-" if v is None else f"{v:.{n}f}"


def reasons(lockstep):
    """Per workload: (loads, enq.data, {why: kept}, {source: nonaffine kept})
    from check --dac --json all (sources: chain_sources)."""
    out = subprocess.run([lockstep, "check", "--dac", "--json", "all"], check=True,
                         capture_output=True, text=True).stdout
    d = json.loads(out)
    res = {}
    for mod in d["modules"]:
        w = os.path.basename(os.path.dirname(mod["file"]))
        kept, src = {}, {}
        for f in mod["functions"]:
            for k, n in f.get("kept", {}).items():
                kept[k] = kept.get(k, 0) + n
            for k, n in chain_sources(f).items():
                src[k] = src.get(k, 0) + n
        res[w] = (mod["loads_gl"], mod["loads_gl_decoupled"], kept, src)
    return res


# what makes a kept load's address non-affine, by the first kind found (in
# this order) among the instructions that define its address registers,
# followed back through every definition of each source register (flow-
# insensitive: every definition in the function, whatever the path)
CHAIN = [("data", "a value loaded from memory (indirection)", ("ld", "ldu", "atom", "tex",
                                                             "shfl", "vote", "suld")),
         ("div/rem", "a division or mod of an index", ("div", "rem")),
         ("mul.hi", "the high half of a product (a division by a constant)", ()),
         ("bit ops", "bit operations on an index (and/or/xor/shr/not, bit-field)",
          ("and", "or", "xor", "shr", "not", "popc", "clz", "brev", "bfe", "bfi", "prmt")),
         ("min/max", "a min/max of two affine values or of a select", ("min", "max")),
         ("selp", "a select of a select or between non-affine values", ("selp",)),
         ("other", "none of these: a merge after divergence or a register of a loop whose "
          "threads a branch splits across iterations", ())]
_REG = re.compile(r"%[A-Za-z_]+\d+")
_INST = re.compile(r"(?:@!?%\w+\s+)?(\S+)\s*(.*)")


def chain_kind(op):
    """The CHAIN kind of a defining opcode (ld.param: none, a uniform)."""
    base = op.split(".")[0]
    if base in ("mul", "mad") and ".hi" in op:
        return "mul.hi"
    for k, _, ops in CHAIN:
        if base in ops and not (k == "data" and ".param" in op):
            return k
    return None


def chain_sources(fn):
    """{CHAIN kind: global/local loads of function fn (an entry of check
    --dac --json) kept as non-affine whose address that kind reaches}."""
    defs = {}
    for e in fn["list"]:
        m = _INST.match(e["inst"])
        op, ops = m.group(1), m.group(2).split(",")
        if op.split(".")[0] in ("st", "bra", "brx", "ret", "exit", "bar", "red", "membar",
                                "call") or not ops[0].strip():
            continue
        for r in _REG.findall(ops[0]):
            defs.setdefault(r, []).append((op, _REG.findall(",".join(ops[1:]))))
    out = {}
    for e in fn["list"]:
        m = _INST.match(e["inst"])
        op = m.group(1)
        if e["why"] != "nonaffine" or not op.startswith("ld") or \
                any(x in op for x in (".shared", ".param", ".const")):
            continue
        a = re.search(r"\[([^\]]*)\]", e["inst"])
        work, seen, found = _REG.findall(a.group(1) if a else ""), set(), set()
        while work:
            r = work.pop()
            if r in seen:
                continue
            seen.add(r)
            for dop, srcs in defs.get(r, []):
                found.add(chain_kind(dop))
                work += srcs
        k = next((k for k, _, _ in CHAIN if k in found), "other")
        out[k] = out.get(k, 0) + 1
    return out


def static_affine(lockstep):
    """Per workload: the share of its static instructions that compute on
    scalars and thread IDs only (uniform or affine: the paper's Fig 6
    "potentially affine"), from check --affine --json all."""
    out = subprocess.run([lockstep, "check", "--affine", "--json", "all"], check=True,
                         capture_output=True, text=True).stdout
    res = {}
    for mod in json.loads(out)["modules"]:
        w = os.path.basename(os.path.dirname(mod["file"]))
        n = sum(f["insts"] for f in mod["functions"])
        a = sum(f["uniform"] + f["affine"] for f in mod["functions"])
        if n:
            res[w] = a / n
    return res


def classes(R, wl):
    share = {}
    for w in wl:
        o = R[(w, "off")]
        share[w] = (o["stall.scoreboard"] + o["stall.mem_wait"]) / o["sm_cycles"]
    mem = [w for w in wl if share[w] >= MEM_STALL]
    return share, mem, [w for w in wl if share[w] < MEM_STALL]


def dsum(R, ws, v, keys):
    return {k: sum(R[(w, v)]["dac"][k] for w in ws) for k in keys}


def summary(R, ws, v):
    """Suite figures of variant v over ws: decoupled loads, instructions vs
    undecoupled, affine share, CTAs per pass, passes per SM."""
    S = dsum(R, ws, v, ["affine_insts", "main_insts", "removed_insts", "gl_loads",
                        "gl_loads_enq_data", "batches", "batch_ctas", "cta_wait"])
    issued = S["affine_insts"] + S["main_insts"]
    undec = S["main_insts"] + S["removed_insts"]
    nsm = KEYS["num_sms"]
    launches = sum(R[(w, v)]["dac"]["launches"] - R[(w, v)]["dac"]["not_decoupled"]
                   for w in ws)
    return {"dec": S["gl_loads_enq_data"] / max(1, S["gl_loads"]),
            "red": 1 - issued / max(1, undec), "share": S["affine_insts"] / max(1, issued),
            "cpp": S["batch_ctas"] / max(1, S["batches"]),
            "pps": S["batches"] / max(1, launches * nsm), "S": S}


KEYS = {}
# the input size of the sweep's main points (the variants not NAME-large),
# which the page states wherever it says which inputs a figure comes from
SZ = {"main": "default"}


def main(out, res):
    m, R = load(out)
    KEYS.update(cfg_keys(m["lockstep"], "gtx480"))
    SZ["main"] = next((r["size"] for (w, v), r in R.items() if not v.endswith(SUFFIX_L)),
                      "default")
    # the variants NAME-large: NAME at large inputs on the stated subset
    RL = {(w, v[:-len(SUFFIX_L)]): r for (w, v), r in R.items() if v.endswith(SUFFIX_L)}
    R = {k: r for k, r in R.items() if not k[1].endswith(SUFFIX_L)}
    wl = list(dict.fromkeys(w for (w, v) in R if v == "off"))
    share, mem, comp = classes(R, wl)
    abl = [a for a, _, _ in ABL if a != "dac" and all((w, a) in R for w in wl)]
    sp = {w: {v: R[(w, "off")]["cycles"] / R[(w, v)]["cycles"]
              for v in MAIN + abl} for w in wl}
    wlL = [w for w in wl if (w, "off") in RL]
    whyL = [v for v, _ in WHY_L if all((w, v) in RL for w in wlL)]
    spL = {w: {v: RL[(w, "off")]["cycles"] / RL[(w, v)]["cycles"]
               for v in dict.fromkeys(LARGE + whyL)} for w in wlL}
    os.makedirs(res, exist_ok=True)
    P = lambda name: os.path.join(res, name)   # noqa: E731
    main_rows = [r for (w, v), r in R.items() if v in ["off"] + MAIN]
    for r in main_rows:
        r["perf"] = 1e9 / r["cycles"]
    plot.grouped_bars(P("dac-speedup-memory.png"), main_rows, "workload", "variant", "perf",
                      baseline="off", xs=mem, groups=MAIN,
                      paper={("gmean", "dac"): PAPER["memory_dac"],
                             ("gmean", "mta"): PAPER["memory_mta"]},
                      title=f"Memory-bound (memory stall share >= {MEM_STALL:.0%}): "
                            f"speedup over off, {SZ['main']} inputs",
                      ylabel="cycles off / cycles")
    plot.grouped_bars(P("dac-speedup-compute.png"), main_rows, "workload", "variant", "perf",
                      baseline="off", xs=comp, groups=MAIN,
                      paper={("gmean", "dac"): PAPER["compute_dac"],
                             ("gmean", "cae"): PAPER["compute_cae"]},
                      title=f"Compute-bound (memory stall share < {MEM_STALL:.0%}): speedup "
                            f"over off, {SZ['main']} inputs", ylabel="cycles off / cycles")
    dd = []
    for w in mem + comp:
        d = R[(w, "dac")]["dac"]
        dd.append({"workload": w, "kind": "instruction reduction", "status": "pass",
                   "v": 1 - d["insts_vs_off"] if d["main_insts"] + d["removed_insts"] else 0.0})
        dd.append({"workload": w, "kind": "loads decoupled", "status": "pass",
                   "v": d["gl_loads_decoupled"] if d["gl_loads"] else 0.0})
        dd.append({"workload": w, "kind": "affine share", "status": "pass",
                   "v": d["affine_share"] if d["affine_insts"] + d["main_insts"] else 0.0})
    plot.grouped_bars(P("dac-stats.png"), dd, "workload", "kind", "v", xs=mem + comp,
                      title="DAC per workload (decoupled launches): dynamic warp instruction "
                            "reduction, global/local loads served by enq.data, affine-warp "
                            "share", ylabel="fraction")
    plot.grouped_bars(P("dac-energy.png"), main_rows, "workload", "variant", "energy.total",
                      baseline="off", xs=mem + comp, groups=MAIN,
                      paper={("gmean", "dac"): 1 - PAPER["energy"]},
                      title="Energy of the chip model (docs/energy.md), DRAM included, "
                            "relative to off (memory-bound first)",
                      ylabel="energy / energy of off")
    sens_ws = list(dict.fromkeys(w for (w, v) in R if v == "aq1"))
    sens = {}
    for title, (key, pts) in SENS.items():
        spd = {w: [R[(w, "off")]["cycles"] / R[(w, v)]["cycles"] for v, _ in pts]
               for w in sens_ws}
        shown = sorted(sens_ws, key=lambda w: max(spd[w]) - min(spd[w]), reverse=True)[:7]
        lr = [{"workload": w, "entries": n, "status": "pass", "speedup": spd[w][i]}
              for w in shown for i, (_, n) in enumerate(pts)]
        lr += [{"workload": "geomean", "entries": n, "status": "pass",
                "speedup": gm(spd[w][i] for w in sens_ws)} for i, (_, n) in enumerate(pts)]
        sens[title] = plot.lines(P(f"dac-sens-{key.split('.')[1]}.png"), lr, "entries",
                                 "speedup", "workload", axis_values=[n for _, n in pts],
                                 logx=True, title=f"DAC speedup over off against {key} "
                                 "(the 7 workloads it moves most, and the geomean of all "
                                 f"{len(sens_ws)})", ylabel="cycles off / cycles")
    rs = reasons(m["lockstep"])
    sa = static_affine(m["lockstep"])
    doc = progpage.load(P("dac-programs.json"))
    ctx = dict(m=m, R=R, RL=RL, wl=wl, wlL=wlL, mem=mem, comp=comp, share=share, sp=sp,
               spL=spL, sens_ws=sens_ws, sens=sens, rs=rs, sa=sa, abl=abl, whyL=whyL,
               progdoc=doc)
    L = page(ctx)
    if doc:
        L += progpage.wrap("dac", programs_section(doc, m.get("build", ""))) + [""]
    with open(P("dac.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(L))


def page(c):
    R, RL, wl, mem, comp, sp, spL = c["R"], c["RL"], c["wl"], c["mem"], c["comp"], c["sp"], c["spL"]
    g = {cl: {v: gm(sp[w][v] for w in ws) for v in MAIN}
         for cl, ws in (("all", wl), ("memory", mem), ("compute", comp))}
    memL = [w for w in mem if w in spL]
    compL = [w for w in comp if w in spL]
    gL = {cl: {v: gm(spL[w][v] for w in ws) for v in LARGE} if ws else {}
          for cl, ws in (("all", c["wlL"]), ("memory", memL), ("compute", compL))}
    D = summary(R, wl, "dac")
    DL = summary(RL, c["wlL"], "dac") if c["wlL"] else None
    K = ["records_pred", "peu_uniform", "peu_two_compares", "peu_full", "launches",
         "not_decoupled", "stall_deq_empty", "stall_deq_data", "stall_enq_full",
         "stall_aw_mask", "lock_refused", "locks_broken", "records_data", "records_mask", "checked_mask",
         "prefetch_lines", "affine_insts", "stall_aw_dep", "stall_aw_pipe"]
    S = dsum(R, wl, "dac", K)
    npts = len(R) + len(RL)
    L = ["# Decoupled affine computation: DAC against CAE and MTA", "",
         "Generated by `make experiments-dac` (spec experiments/dac.toml, page and plots "
         f"experiments/dac.py, runner docs/sweeps.md) at commit `{commit()}`: do not edit. "
         f"gtx480, timing mode, seed 1: {npts} points, {len(R)} over {len(wl)} workloads "
         f"(the whole suite) at {SZ['main']} inputs, " +
         (f"{len(RL)} at large inputs (" + ", ".join(dict.fromkeys(v for _, v in RL)) +
          f") on {len(c['wlL'])} workloads, the suite less its longest large points ("
          + ", ".join(w for w in wl if w not in c["wlL"]) + "). " if RL else
          "no large-input points in this run. ") + "Mechanisms: docs/dac.md; "
         "statistics: docs/stats.md (`dac`, `cae`, `mta`). Speedup = cycles of off / "
         "cycles of the variant; means are geometric means of per-workload speedups. "
         "`dac-mta` is DAC with the MTA prefetcher on as well. The baseline GPU's timing "
         "may still change (its correlation with GPGPU-Sim is under way): the page "
         "regenerates with the one command.", "",
         "**Classes.** The paper splits its 29 programs into 18 memory-bound and 11 "
         "compute-bound without stating the rule in the text we have; what its text says "
         "of the two (the abstract and section 1) is that for compute-bound programs DAC "
         "reduces the dynamic warp instruction count and for memory-bound ones it reduces "
         "memory latency, \"allowing the address calculations to bypass stalled "
         "instructions on a GPU's in-order cores\". The closest rule to that: a workload "
         "is *memory-bound* when, in its off run, at least "
         f"{MEM_STALL:.0%} of the SM-cycles with resident work issue nothing because no "
         "warp's operands are ready (loads, mostly) or the memory unit is full "
         "(`stall.scoreboard` + `stall.mem_wait` over `sm_cycles`: the in-order cores "
         "stalled on memory), else *compute-bound*. The threshold (half the cycles) was "
         f"fixed before any speedup was looked at. It gives {len(mem)} memory-bound and "
         f"{len(comp)} compute-bound workloads (the paper: 18 and 11 of 29). The "
         "scoreboard share also holds the waits on long ALU/SFU results, which the "
         "statistics do not separate from waits on loads.", ""]
    L += headline(c, g, gL, D, DL, S, memL, compL)
    L += gap_section(c)
    L += reason_table(c)
    L += ablation(c)
    L += why_differ(c, g, D, S)
    L += large_loss(c)
    L += ["![memory-bound speedup](dac-speedup-memory.png)", "",
          "![compute-bound speedup](dac-speedup-compute.png)", "",
          "![DAC statistics](dac-stats.png)", "", "![energy](dac-energy.png)", ""]
    L += per_workload(c)
    L += sensitivity(c)
    L += ["Rerun: `make experiments-dac` (cached per point; `SWEEP_FLAGS=--force` reruns "
          "all). The merged table is build/experiments/dac/results.csv (the large-input "
          "points: variants " + ", ".join(f"{v}{SUFFIX_L}" for v in dict.fromkeys(
              v for _, v in RL)) + ").", ""]
    return L


def headline(c, g, gL, D, DL, S, memL, compL):
    R, RL, wl = c["R"], c["RL"], c["wl"]
    e_tot = 1 - gm(e_total(R[(w, "dac")]) / e_total(R[(w, "off")]) for w in wl)
    e_dy = 1 - gm(e_dyn(R[(w, "dac")]) / e_dyn(R[(w, "off")]) for w in wl)
    pu = S["peu_uniform"] / max(1, S["records_pred"])
    p2 = (S["peu_uniform"] + S["peu_two_compares"]) / max(1, S["records_pred"])
    pf = S["peu_full"] / max(1, S["records_pred"])
    L = ["## Headline: ours against the paper", "",
         f"| claim | paper | ours, {SZ['main']} inputs | ours, large inputs |", "|---|---|---|---|",
         correlate.baseline_row("gtx480") + " |"]

    def lg(cl, v):
        return fmt(gL[cl][v]) if gL.get(cl) else "-"

    def nL(n, word=""):
        return f" ({n}{word})" if c["wlL"] else ""
    L.append(f"| DAC speedup, geomean over all programs | 1.407 (29 programs) | "
             f"{g['all']['dac']:.3f} ({len(wl)} workloads) | {lg('all', 'dac')}"
             f"{nL(len(c['wlL']), ' workloads')} |")
    L.append(f"| compute-bound: DAC vs CAE | 1.34 vs 1.11 (11) | {g['compute']['dac']:.3f} vs "
             f"{g['compute']['cae']:.3f} ({len(c['comp'])}) | {lg('compute', 'dac')} vs "
             f"{lg('compute', 'cae')}{nL(len(compL))} |")
    L.append(f"| memory-bound: DAC vs MTA | 1.44 vs 1.16 (18) | {g['memory']['dac']:.3f} vs "
             f"{g['memory']['mta']:.3f} ({len(c['mem'])}) | {lg('memory', 'dac')} vs "
             f"{lg('memory', 'mta')}{nL(len(memL))} |")
    L.append(f"| DAC + MTA, geomean over all | - | {g['all']['dac-mta']:.3f} | - |")
    L.append(f"| dynamic warp instructions, DAC vs undecoupled | 26.0% fewer | {pct(D['red'])} "
             "fewer in decoupled launches (affine + main against main + removed) | "
             + (f"{pct(DL['red'])} fewer |" if DL else "- |"))
    L.append(f"| global/local loads decoupled (served by an enq.data prefetch) | 79.8% | "
             f"{pct(D['dec'])} of the loads of main warps in decoupled launches | "
             + (f"{pct(DL['dec'])} |" if DL else "- |"))
    L.append(f"| affine-warp share of issued instructions | 4.0% | {pct(D['share'])} | "
             + (f"{pct(DL['share'])} |" if DL else "- |"))
    L.append(f"| CTAs per affine-warp pass; passes per SM and launch | - | {D['cpp']:.2f}; "
             f"{D['pps']:.2f} | " + (f"{DL['cpp']:.2f}; {DL['pps']:.2f} |" if DL else "- |"))
    L.append(f"| PEU records: uniform / at most two compares / full | 64.0% / 93.0% / 7.0% | "
             f"{pct(pu)} / {pct(p2)} / {pct(pf)} ({S['records_pred']} records) | - |")
    sa = [c["sa"][w] for w in wl if w in c["sa"]]
    if sa:
        L.append("| static instructions computing on scalars and thread IDs only (Fig 6, "
                 "\"potentially affine\") | about half (29 programs) | "
                 f"{pct(sum(sa) / len(sa))} mean over {len(sa)} workloads (from "
                 f"{pct(min(sa))} to {pct(max(sa))}; `lockstep check --affine`: uniform + "
                 "affine over all instructions) | the same (static) |")
    L.append("| L1D line requests per enq.data record (Fig 10: at an offset of 4 a warp's "
             "32 words are one 128-byte line) | 1 at offset 4 | "
             f"{S['prefetch_lines'] / max(1, S['records_data']):.2f} "
             f"({S['prefetch_lines']} lines for {S['records_data']} records; a record "
             "not prefetched, its lock refused or its load after a possible same-thread "
             "store, requests none) | - |")
    L.append(f"| energy, total (dynamic) | 20.2% (18.4%) less | {pct(e_tot)} ({pct(e_dy)}) "
             "less: the chip energy model (docs/energy.md), DRAM included; dynamic = the "
             "per-event components (\"Energy\" below) | - |")
    L.append("")
    return L


def rsum(rs, i):
    """Sum of field i (0 loads, 1 enq.data) of reasons() over the workloads."""
    return sum(v[i] for v in rs.values())


def rsrc(rs, kind):
    """Kept loads whose address chain_sources classes as kind, suite sum."""
    return sum(v[3].get(kind, 0) for v in rs.values())


def reason_table(c):
    rs, wl = c["rs"], c["wl"]
    whys = sorted({k for w in rs for k in rs[w][2]}, key=lambda k: -sum(
        rs[w][2].get(k, 0) for w in rs))
    tot_l = sum(rs[w][0] for w in rs)
    tot_d = sum(rs[w][1] for w in rs)
    L = ["## Loads kept in the main stream", "",
         "`lockstep check --dac all` lists, per kernel, every global/local load the "
         "transform keeps in the main stream (not `enq.data`) and why; the counts per "
         f"workload are below (static: each load instruction of the committed PTX once). "
         f"Of {tot_l} global/local loads, {tot_d} ({pct(tot_d / tot_l)}) are `enq.data`. "
         "Boolean combinations of affine predicates, selects, and min/max of an affine "
         "and a uniform value decouple (4.3, 4.6), and so do loads under data-dependent "
         "branches, whose masks the main warps feed back (4.4). What stays: " + "; ".join(f"**{k}** ({sum(rs[w][2].get(k, 0) for w in rs)}): "
                               f"{WHY.get(k, k)}" for k in whys) + ". "
         "The paper's text does not say how an early fetch would order against a "
         "thread's own earlier store to local memory, so those loads stay ordinary "
         "loads. Section 4.6 lists mod among DAC's \"additional instruction types\" "
         "without, in the text we have, saying how DAC computes one: a division or mod "
         "of an affine value by a uniform one (dxtc's `i / w` and `i - (i / w) * w`) is "
         "a *vector* here, held per lane in the affine warp from section 3's \"expanded "
         "into concrete vector values\" (our design, "
         "docs/dac.md, \"What the engine adds to the paper's text\").", "",
         "| workload | loads | enq.data | " + " | ".join(whys) + " |",
         "|---|---:|---:|" + "---:|" * len(whys)]
    for w in wl:
        if w not in rs or rs[w][0] == rs[w][1]:
            continue
        n, dec, k, _ = rs[w]
        L.append(f"| {w} | {n} | {dec} | " + " | ".join(str(k.get(x, 0)) for x in whys) + " |")
    L.append(f"| **all** | **{tot_l}** | **{tot_d}** | " + " | ".join(
        f"**{sum(rs[w][2].get(x, 0) for w in rs)}**" for x in whys) + " |")
    na = sum(rs[w][2].get("nonaffine", 0) for w in rs)
    srcs = {k: {w: rs[w][3][k] for w in rs if rs[w][3].get(k)} for k, _, _ in CHAIN}
    if na and sum(sum(v.values()) for v in srcs.values()) == na:
        L += ["", f"What makes the {na} non-affine addresses non-affine: the first of these "
              "kinds found among the instructions that define a kept load's address "
              "registers, followed back through every definition of each source register "
              "in the function (flow-insensitive, from the same `check --dac --json all`). "
              "Indirection, which no affine unit can compute, is "
              f"{pct(sum(srcs['data'].values()) / na)} of them.", "",
              "| what the address comes from | loads | workloads (loads) |", "|---|---:|---|"]
        for k, what, _ in CHAIN:
            if srcs[k]:
                L.append(f"| {what} | {sum(srcs[k].values())} | " + ", ".join(
                    f"{w} ({n})" for w, n in sorted(srcs[k].items(),
                                                    key=lambda x: -x[1])) + " |")
    L += dyn_kept_table(c)
    L.append("")
    return L


# dac.gl_loads_kept's reasons as the page names them
KEPT_NAMES = {"nonaffine": "kept: address not affine", "local-write":
              "kept: `.local` load after a local write", "data-control":
              "kept: under a data branch not fed back", "not-kernel": "kept: in a `.func`",
              "exit": "kept: kernel with a data-guarded exit", "barrier":
              "enq.addr: after a barrier the affine warp cannot see", "space":
              "enq.addr: not a global/local load", "unstructured":
              "kept: unstructured data control", "none": "kept: no reason given",
              "after-write": "enq.data, fetched at its deq: a same-thread store may "
              "precede it", "not-prefetched": "enq.data, not prefetched (lock refused, "
              "`.local` window)", "unknown": "not served (a build without "
              "dac.gl_loads_kept)"}


def dyn_kept(R, ws, v):
    """Suite sums of variant v's main-warp global/local loads: (loads,
    served, {reason: kept})."""
    n = sum(R[(w, v)]["dac"]["gl_loads"] for w in ws)
    served = sum(R[(w, v)]["dac"]["gl_loads_enq_data"] for w in ws)
    k = {}
    for w in ws:
        for r, x in kept(R[(w, v)]["dac"], v).items():
            k[r] = k.get(r, 0) + x
    return n, served, k


def dyn_text(R, wl):
    """Why the dynamic share of loads served differs from the static one,
    from dac.gl_loads_kept, as sentences."""
    n, served, k = dyn_kept(R, wl, "dac")
    if not n or "unknown" in k:
        return ("The dynamic figure differs from the static one because loads in loops "
                "weigh by their trip counts and an `enq.data` load that a global store of "
                "the same thread may precede is fetched at its deq (docs/dac.md, \"The "
                "units\"). ")
    top = sorted(k, key=k.get, reverse=True)
    return ("Dynamically (the table after the reason table; loads in loops weigh by "
            "their trip counts), the loads not served are, as shares of all loads: " +
            "; ".join(f"{KEPT_NAMES.get(r, r)} ({pct(k[r] / n)})" for r in top if k[r]) +
            ". ")


def dyn_kept_table(c):
    """The dynamic counterpart of the static reason table: every main-warp
    global/local load instruction of the dac runs, at both sizes."""
    cols = [(f"{SZ['main']} inputs, {len(c['wl'])} workloads", c["R"], c["wl"])]
    if c["wlL"]:
        cols.append((f"large inputs, {len(c['wlL'])} workloads", c["RL"], c["wlL"]))
    D = [(t, dyn_kept(R, ws, "dac")) for t, R, ws in cols]
    rs = sorted({r for _, (_, _, k) in D for r in k}, key=lambda r: -sum(
        k.get(r, 0) for _, (_, _, k) in D))
    L = ["", "Dynamically (`dac.gl_loads_kept`: main-warp global/local load instructions "
         "of decoupled launches under dac, each execution counted, so loads in loops "
         "weigh by their trip counts), a share of the loads:", "",
         "| loads | " + " | ".join(t for t, _ in D) + " |", "|---|" + "---:|" * len(D),
         "| all (warp instructions) | " + " | ".join(str(n) for _, (n, _, _) in D) + " |",
         "| served by an enq.data prefetch | " + " | ".join(
             pct(s / max(1, n)) for _, (n, s, _) in D) + " |"]
    for r in rs:
        L.append(f"| {KEPT_NAMES.get(r, r)} | " + " | ".join(
            pct(k.get(r, 0) / max(1, n)) for _, (n, _, k) in D) + " |")
    return L


def ablation(c):
    R, wl, mem, comp, sp = c["R"], c["wl"], c["mem"], c["comp"], c["sp"]
    L = ["## Ablation", "",
         "Each change of docs/dac.md (\"What the engine adds to the paper's text\") turned "
         f"on in turn, over the whole suite at {SZ['main']} inputs: loads decoupled (global/local "
         "loads of main warps served by an enq.data prefetch), dynamic warp instructions "
         "against the undecoupled count, CTAs per pass, and the geomean speedup over off "
         "(all, memory-bound, compute-bound).", "",
         "| variant | change | keys | loads decoupled | instructions fewer | CTAs per pass | "
         "CTA-cycles waiting for a pass | store hazards | speedup all | memory | compute |",
         "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for v, what, keys in ABL:
        if v != "dac" and v not in c["abl"]:
            continue
        s = summary(R, wl, v)
        hz = sum(R[(w, v)]["dac"]["wr_hazards"] for w in wl)
        L.append(f"| {v} | {what} | `{keys}` | {pct(s['dec'])} | {pct(s['red'])} | "
                 f"{s['cpp']:.2f} | {s['S']['cta_wait']} | {hz} | "
                 f"{gm(sp[w][v] for w in wl):.3f} | {gm(sp[w][v] for w in mem):.3f} | "
                 f"{gm(sp[w][v] for w in comp):.3f} |")
    L += ablation_large(c)
    hzw = [w for w in wl if R[(w, "dac-aw")]["dac"]["wr_hazards"]]
    L += ["", "Store hazards: records whose prefetched lines a global store of the same "
          "warp wrote before their deq (`wr_hazards`): with dac-aw, in "
          + (", ".join(f"{w} ({R[(w, 'dac-aw')]['dac']['wr_hazards']})" for w in hzw) or "none")
          + "; a machine would have to update or refetch those lines, which the paper's "
          "text does not describe, so DAC on this page does not prefetch such loads "
          "(they are `enq.data`, their lines fetched at the deq).", ""]
    return L


def ablation_large(c):
    """The ablation's rows at large inputs (the variants NAME-large of
    ABL's names that ran on every large-input workload), where an SM runs
    several affine-warp passes: the same columns over those workloads, with
    the rows at the main size on the same workloads beside them."""
    R, RL, ws, sp = c["R"], c["RL"], c["wlL"], c["sp"]
    vs = [v for v, _, _ in ABL if ws and all((w, v) in RL and (w, v) in R for w in ws)]
    if not ws or "dac" not in vs or len(vs) < 2 or not all((w, "off") in RL for w in ws):
        return []
    memL = [w for w in c["mem"] if w in ws]
    compL = [w for w in c["comp"] if w in ws]

    def spd(v, xs):
        return gm(RL[(w, "off")]["cycles"] / RL[(w, v)]["cycles"] for w in xs) if xs else 0.0
    L = ["", f"The same changes at large inputs on the {len(ws)} workloads of the large-input "
         "rows (an SM runs several affine-warp passes there; classes as at "
         f"{SZ['main']} inputs), with the speedup over all {len(ws)} at {SZ['main']} "
         "inputs beside it:", "",
         "| variant | loads decoupled | instructions fewer | CTAs per pass | passes per SM "
         "| CTA-cycles waiting for a pass | speedup all | memory | compute | "
         f"speedup all, {SZ['main']} inputs |",
         "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for v in vs:
        s = summary(RL, ws, v)
        L.append(f"| {v} | {pct(s['dec'])} | {pct(s['red'])} | {s['cpp']:.2f} | "
                 f"{s['pps']:.2f} | {s['S']['cta_wait']} | {spd(v, ws):.3f} | "
                 f"{spd(v, memL):.3f} | {spd(v, compL):.3f} | "
                 f"{gm(sp[w][v] for w in ws):.3f} |")
    # each step of the ablation at both sizes: the geomean after over before
    steps = [(a, b) for a, b in (("abl0", "abl1"), ("abl1", "abl2"), ("abl2", "abl3"),
                                 ("abl3", "dac"),
                                 ("dac", "dac-p2"), ("dac", "dac-p8s"), ("dac", "dac-fd"),
                                 ("dac", "dac-be"),
                                 ("dac", "dac-lb")) if a in vs and b in vs]
    if steps:
        what = {v: w for v, w, _ in ABL}
        L += ["", "Each step over the one before it (geomean speedup after / before), at "
              f"large and at {SZ['main']} inputs on the same {len(ws)} workloads: " +
              "; ".join(f"{b} ({what[b].split(':')[0].split(', instead')[0]}) "
                        f"{spd(b, ws) / spd(a, ws):.3f} against "
                        f"{gm(sp[w][b] for w in ws) / gm(sp[w][a] for w in ws):.3f}"
                        for a, b in steps) + "."]
    return L


def paper_rules(c):
    """The bullet on the two rules of the paper's 4.2 that DAC follows
    (records after a barrier held for the CTA; locked lines kept): each
    relaxed alone (dac-be, dac-lb), the suite factor, the workloads that
    gain most, and the statistic that measures the rule."""
    R, wl, sp = c["R"], c["wl"], c["sp"]
    if not all((w, v) in R for w in wl for v in ("dac-be", "dac-lb")):
        return ("* **The paper's 4.2 rules.** The variants that relax them (dac-be, dac-lb "
                "of experiments/dac.toml) were not part of this run.")
    g0 = gm(sp[w]["dac"] for w in wl)

    def top(v):
        ws = sorted(wl, key=lambda w: sp[w]["dac"] / sp[w][v])[:3]
        return ", ".join(f"{w} {sp[w][v] / sp[w]['dac']:.2f}" for w in ws)
    held = sum(R[(w, "dac")]["dac"].get("stall_aeu_bar", 0) or 0 for w in wl)
    nheld = sum(1 for w in wl if R[(w, "dac")]["dac"].get("stall_aeu_bar"))
    brk = sum(R[(w, "dac-lb")]["dac"].get("locks_broken", 0) or 0 for w in wl)
    return ("* **The paper's 4.2 rules cost speed here.** The AEU expands the records after a "
            "barrier only for CTAs that passed it (\"the AEU only issues memory requests for "
            "non-affine blocks that pass the barrier\"): it had nothing else to expand for "
            f"{held} cycles (`stall_aeu_bar`, in {nheld} workloads); expanding early "
            f"(dac-be) gives {gm(sp[w]['dac-be'] for w in wl) / g0:.3f} on the geomean, most "
            f"in {top('dac-be')} (dac-be / dac). A locked L1D line is never replaced (lock "
            "counters \"temporarily disable replacement\"), so a miss behind the set's "
            "pending way waits; breaking locks instead (dac-lb, "
            f"{brk} locks broken) gives {gm(sp[w]['dac-lb'] for w in wl) / g0:.3f}, most in "
            f"{top('dac-lb')}. The paper reports neither cost; its text has the rules.")


def why_differ(c, g, D, S):
    DL = summary(c["RL"], c["wlL"], "dac") if c["wlL"] else None
    R, wl, mem, comp, sp, share = c["R"], c["wl"], c["mem"], c["comp"], c["sp"], c["share"]
    order = sorted(wl, key=lambda w: sp[w]["dac"])
    worst, best = order[:3], order[::-1][:4]
    hi = [w for w in wl if R[(w, "dac")]["dac"]["gl_loads"] and
          R[(w, "dac")]["dac"]["gl_loads_decoupled"] >= 0.5]
    lo = [w for w in wl if w not in hi]
    undec = [w for w in wl if R[(w, "dac")]["dac"]["not_decoupled"] ==
             R[(w, "dac")]["dac"]["launches"]]
    flat = [w for w in wl if abs(sp[w]["dac"] - 1) < 0.02]
    mta_m = [R[(w, "mta")]["mta"] for w in mem if "mta" in R[(w, "mta")]]
    mta_iss = sum(x["issued"] for x in mta_m)
    mta_use = sum(x["useful"] for x in mta_m)
    cae_c = {w: R[(w, "cae")]["cae"]["compact_fraction"] for w in comp if "cae" in R[(w, "cae")]}
    atq = {w: R[(w, "off")]["cycles"] / R[(w, "atq32")]["cycles"] for w in c["sens_ws"]}

    def awm(w):
        """The affine warp's mask waits of w's dac run per SM-cycle, as text."""
        d = R[(w, "dac")]
        x = d["dac"]["stall_aw_mask"] / d["sm_cycles"]
        return f", affine warp waiting for fed-back masks {x:.2f} per SM-cycle" if x else ""
    fb = sorted(wl, key=lambda w: sp[w]["abl2"] / sp[w]["abl1"])
    fb_lo = [w for w in fb if sp[w]["abl2"] / sp[w]["abl1"] < 0.98][:5]
    fb_hi = [w for w in fb[::-1] if sp[w]["abl2"] / sp[w]["abl1"] > 1.02][:5]
    s1, s2 = summary(R, wl, "abl1"), summary(R, wl, "abl2")
    L = ["## Why ours differ", "",
         f"* **What is decoupled.** {pct(D['dec'])} of the global/local loads of decoupled "
         f"main warps were served by an enq.data prefetch (paper 79.8%); {len(undec)} "
         f"workloads have no decoupled launch ({', '.join(undec) or 'none'}). The loads "
         "that stay are those of the reason table above: of its static loads, "
         f"{pct(rsum(c['rs'], 1) / max(1, rsum(c['rs'], 0)))} are `enq.data`, and "
         f"{pct(rsrc(c['rs'], 'data') / max(1, rsum(c['rs'], 0)))} have an address "
         "from loaded data (indirection), which no affine unit can compute. " +
         dyn_text(R, wl) +
         f"Geomean DAC speedup on the {len(hi)} workloads with at least half their loads "
         f"decoupled: {gm(sp[w]['dac'] for w in hi):.3f}; on the other {len(lo)}: "
         f"{gm(sp[w]['dac'] for w in lo):.3f}.",
         "* **Where DAC wins and loses.** Best: " + ", ".join(
             f"{w} {sp[w]['dac']:.2f}x (instructions {R[(w, 'dac')]['dac']['insts_vs_off']:.2f}"
             f" of the undecoupled count, {pct(R[(w, 'dac')]['dac']['gl_loads_decoupled'])} "
             "loads decoupled)" for w in best) + "; worst: " + ", ".join(
             f"{w} {sp[w]['dac']:.2f}x (main-warp checks refused for want of a record "
             f"{R[(w, 'dac')]['dac']['stall_deq_empty'] / R[(w, 'dac')]['sm_cycles']:.2f} per "
             f"SM-cycle{awm(w)}, affine warp blocked on a full ATQ "
             f"{R[(w, 'dac')]['dac']['stall_enq_full']} cycles; with a 32-entry ATQ "
             f"{atq[w]:.2f}x)" if w in atq else
             f"{w} {sp[w]['dac']:.2f}x (main-warp checks refused for want of a record "
             f"{R[(w, 'dac')]['dac']['stall_deq_empty'] / R[(w, 'dac')]['sm_cycles']:.2f} per "
             f"SM-cycle{awm(w)})" for w in worst) +
         ". The slow ones wait on the affine warp: a pass runs at the pace of the slowest "
         "warp of its CTAs, because an ATQ entry leaves only when every warp it covers has "
         "taken its record, so the CTAs of one pass stay within the ATQ's depth of each "
         "other (the ATQ rows of the sensitivity table); CTAs that arrive while a pass "
         "runs wait for the next one (the ablation's CTA-cycles, and dac-p2). "
         f"{len(flat)} of {len(wl)} workloads are within 2% of off. Suite sums: main-warp "
         f"issue checks refused for want of a record {S['stall_deq_empty']}, for lines not "
         f"arrived {S['stall_deq_data']}; affine-warp cycles blocked on a full ATQ "
         f"{S['stall_enq_full']}, waiting for fed-back masks {S['stall_aw_mask']}; masks "
         f"fed back {S['records_mask']}; enq.data records refused a lock (the deadlock "
         f"bounds: N-1 lines of an L1D set, dac.lock_lines per SM) {S['lock_refused']} of "
         f"{S['records_data']}, locked lines evicted {S['locks_broken']}.",
         f"* **Fed-back masks cost slack.** Feeding the masks of data-dependent branches "
         f"back (the ablation's abl1 to abl2) raises the loads decoupled from "
         f"{pct(s1['dec'])} to {pct(s2['dec'])} and the instructions removed from "
         f"{pct(s1['red'])} to {pct(s2['red'])}, but the affine warp can pass a fed-back "
         "branch only once every warp of its pass has reached it and sent its mask, so it "
         "runs no further ahead of the slowest main warp than the next such branch; in a "
         "loop whose trip count or body depends on data, the affine warp and its main warps "
         "then advance an iteration at a time, and the main warps wait for records the "
         "affine warp could not produce early. Slower with feedback (abl2 / abl1): " +
         (", ".join(f"{w} {sp[w]['abl2'] / sp[w]['abl1']:.2f} (masks awaited "
                    f"{R[(w, 'dac')]['dac']['stall_aw_mask'] / R[(w, 'dac')]['sm_cycles']:.2f}"
                    " of the SM-cycles)" for w in fb_lo)
          or "none") + "; faster: " +
         (", ".join(f"{w} {sp[w]['abl2'] / sp[w]['abl1']:.2f}" for w in fb_hi) or "none") +
         f". Suite geomean: {gm(sp[w]['abl1'] for w in wl):.3f} without, "
         f"{gm(sp[w]['abl2'] for w in wl):.3f} with." + fd_text(c),
         f"* **Steady state.** An affine-warp pass covered {D['cpp']:.2f} CTAs at {SZ['main']} "
         f"inputs, {D['pps']:.2f} passes per SM and decoupled launch; " +
         (f"at large inputs {DL['cpp']:.2f} CTAs and {DL['pps']:.2f} passes, with DAC's "
          f"geomean speedup {gm(c['spL'][w]['dac'] for w in c['wlL']):.3f} against "
          f"{gm(sp[w]['dac'] for w in c['wlL']):.3f} at {SZ['main']} inputs on the same "
          f"{len(c['wlL'])} workloads. " + size_moves(c) if DL else
          "the large-input variants (*-large in experiments/dac.toml) were not part of "
          "this run, so its columns are empty. " + first_pass(c, D)),
         aw_pace(S),
         paper_rules(c),
         inst_split(c, D),
         f"* **CAE on compute-bound.** CAE runs an instruction on one lane when its sources "
         "are uniform or affine; it saves lane-cycles, not issue slots, and gains where the "
         "pipelines are busy: compact fraction on the compute-bound workloads "
         f"{min(cae_c.values()) if cae_c else 0:.2f} to {max(cae_c.values()) if cae_c else 0:.2f}"
         f", geomean speedup {g['compute']['cae']:.3f}. " + comp_room(c),
         f"* **MTA on memory-bound.** {mta_iss} prefetches issued on the memory-bound "
         f"workloads, {mta_use} useful ({pct(mta_use / mta_iss) if mta_iss else '-'}): most "
         "loads run once per warp (no loop to train a stride), so only the inter-warp table "
         "predicts, and warps of one SM reach the same load within a few cycles of each "
         "other (docs/dac.md, MTA).",
         "* **Memory-bound and DRAM.** Of the memory-bound workloads, those whose off run "
         "already keeps the DRAM busy cannot go faster with earlier requests: DRAM "
         "utilisation of the off run (bytes / seconds / peak) " + ", ".join(
             f"{w} {util(R, w):.2f}" for w in sorted(mem, key=lambda x: -util(R, x))[:6]) +
         ". " + mem_room(c),
         energy_text(c), ""]
    L += energy_table(c)
    return L


def fd_text(c):
    """dac-fd (masks fed back only where a region holds an enq.data)
    against DAC, as a sentence; empty when the variant was not run."""
    R, wl, sp = c["R"], c["wl"], c["sp"]
    if "dac-fd" not in c["abl"]:
        return ""
    d, f = summary(R, wl, "dac"), summary(R, wl, "dac-fd")
    up = sorted((w for w in wl if sp[w]["dac-fd"] / sp[w]["dac"] > 1.02),
                key=lambda w: -sp[w]["dac-fd"] / sp[w]["dac"])[:4]
    dn = sorted((w for w in wl if sp[w]["dac-fd"] / sp[w]["dac"] < 0.98),
                key=lambda w: sp[w]["dac-fd"] / sp[w]["dac"])[:4]
    aw = lambda v: sum(R[(w, v)]["dac"]["stall_aw_mask"] for w in wl)   # noqa: E731
    return (" Feeding back only the branches whose region holds an enq.data (dac-fd, "
            "`dac.feedback=data`; the rest are skipped as without feedback): loads "
            f"decoupled {pct(d['dec'])} -> {pct(f['dec'])}, instructions fewer "
            f"{pct(d['red'])} -> {pct(f['red'])}, affine-warp cycles waiting for masks "
            f"{aw('dac')} -> {aw('dac-fd')}, geomean speedup "
            f"{gm(sp[w]['dac'] for w in wl):.3f} -> {gm(sp[w]['dac-fd'] for w in wl):.3f}; "
            "faster: " + (", ".join(f"{w} {sp[w]['dac']:.3f} -> {sp[w]['dac-fd']:.3f}"
                                    for w in up) or "none") +
            "; slower (in parentheses the issued warp instructions over the undecoupled "
            "count: where it rises, the main warps keep the arithmetic of the regions no "
            "longer fed back): " +
            (", ".join(f"{w} {sp[w]['dac']:.3f} -> {sp[w]['dac-fd']:.3f} ("
                       f"{R[(w, 'dac')]['dac']['insts_vs_off']:.3f} -> "
                       f"{R[(w, 'dac-fd')]['dac']['insts_vs_off']:.3f})" for w in dn)
             or "none") +
            ". It is not DAC's default: the paper's text feeds data-dependent control back "
            "without that distinction (4.4).")


def large_loss(c):
    """Where DAC's cycles go at large inputs: per workload that moves most
    from default to large, the waits of the dac-large run and the speedups
    of the variants that remove one cause each (WHY_L)."""
    R, RL, sp, spL, ws, whyL = c["R"], c["RL"], c["sp"], c["spL"], c["wlL"], c["whyL"]
    if not ws:
        return ["## Large inputs: where DAC's cycles go", "",
                "Not in this run: the section needs the large-input variants of "
                "experiments/dac.toml (off, dac and " + ", ".join(
                    f"{v}{SUFFIX_L}" for v, _ in WHY_L if v != "dac") + ").", ""]
    movers = sorted(ws, key=lambda w: spL[w]["dac"] / sp[w]["dac"])[:6]

    def per(w, v, k):
        """dac statistic k of w's large run of v per SM-cycle."""
        r = RL[(w, v)]
        return r["dac"][k] / max(1, r["sm_cycles"])

    def nowarp(w, v):
        r = RL[(w, v)]
        return r["st"]["stall"]["no_warps"] / max(1, r["sm_cycles"])
    L = ["## Large inputs: where DAC's cycles go", "",
         f"On the {len(ws)} workloads run at both sizes DAC's geomean speedup is "
         f"{gm(sp[w]['dac'] for w in ws):.3f} at {SZ['main']} inputs and "
         f"{gm(spL[w]['dac'] for w in ws):.3f} at large. At large inputs an SM runs "
         "several passes of several CTAs each; a pass goes at the pace of the slowest warp "
         "of its CTAs (the affine warp takes the fed-back masks of every warp at a "
         "data-dependent branch, and an ATQ entry leaves only when every warp it covers "
         "has its record), and a CTA that arrives meanwhile waits for the pass to end. "
         "The table gives, for the workloads whose speedup falls most with the input size, "
         "the dac-large run's affine-warp cycles waiting for masks and blocked on a full "
         "ATQ (per SM-cycle), CTA-cycles waiting for a pass per CTA, SM-cycles with no "
         "resident warp (off and dac; the launch's tail), and the speedup over off at "
         "large inputs of each variant that takes one cause away:" +
         "".join(f" **{v}**, {what};" for v, what in WHY_L if v in whyL)[:-1] + ".", "",
         f"| workload | dac {SZ['main']} | dac large | CTAs per pass | masks awaited | ATQ full | "
         "CTA wait per CTA | no warp off / dac | " + " | ".join(
             f"{v} large" for v in whyL if v != "dac") + " |",
         "|---|---:|---:|---:|---:|---:|---:|---:|" + "---:|" * len([v for v in whyL
                                                                     if v != "dac"])]
    for w in movers:
        r = RL[(w, "dac")]
        b = summary(RL, [w], "dac")
        L.append(f"| {w} | {sp[w]['dac']:.3f} | {spL[w]['dac']:.3f} | {b['cpp']:.2f} | "
                 f"{per(w, 'dac', 'stall_aw_mask'):.2f} | {per(w, 'dac', 'stall_enq_full'):.2f}"
                 f" | {r['dac']['cta_wait'] / max(1, r['ctas']):.0f} | "
                 f"{nowarp(w, 'off'):.2f} / {nowarp(w, 'dac'):.2f} | " + " | ".join(
                     f"{spL[w][v]:.3f}" for v in whyL if v != "dac") + " |")
    L.append(f"| **geomean ({len(ws)})** | {gm(sp[w]['dac'] for w in ws):.3f} | "
             f"{gm(spL[w]['dac'] for w in ws):.3f} | | | | | | " + " | ".join(
                 f"**{gm(spL[w][v] for w in ws):.3f}**" for v in whyL if v != "dac") + " |")
    L.append("")
    if all(v in whyL for v in ("dac-fd", "dac-q", "dac-fdq")):
        fd = [w for w in movers if spL[w]["dac-fd"] / spL[w]["dac"] > 1.05]
        q = [w for w in movers if spL[w]["dac-q"] / spL[w]["dac"] > 1.05]
        L += [f"Feeding masks back only where a prefetch needs them recovers "
              f"{', '.join(fd) or 'none'} of these; 64-deep queues recover "
              f"{', '.join(q) or 'none'}. Over the {len(ws)}: dac-fd "
              f"{gm(spL[w]['dac-fd'] for w in ws):.3f}, dac-q "
              f"{gm(spL[w]['dac-q'] for w in ws):.3f}, both "
              f"{gm(spL[w]['dac-fdq'] for w in ws):.3f}. Neither is DAC's default: the "
              "paper feeds data-dependent control back without that distinction (4.4) and "
              f"gives no queue sizes in the text we have (docs/dac.md, Keys); at {SZ['main']} "
              "inputs dac-fd is " + (f"{gm(sp[w]['dac-fd'] for w in c['wl']):.3f}"
                                     if "dac-fd" in c["abl"] else "not run") +
              " against DAC's " f"{gm(sp[w]['dac'] for w in c['wl']):.3f} (the ablation).",
              ""]
    if "dac-p8s" in whyL:
        p8 = [w for w in movers if spL[w]["dac-p8s"] / spL[w]["dac"] > 1.05]
        L += [f"A pass context per resident CTA (no CTA waits for a pass) recovers "
              f"{', '.join(p8) or 'none'} of these; over the {len(ws)}: dac-p8s "
              f"{gm(spL[w]['dac-p8s'] for w in ws):.3f} against DAC's "
              f"{gm(spL[w]['dac'] for w in ws):.3f}. It is beyond the paper's one affine "
              "warp per SM (4.1), so DAC on this page keeps one pass context.", ""]
    return L


def gm_of(sp, ws, v):
    """The geometric mean of variant v's speedups over workloads ws, three
    decimals ("-" for none)."""
    return f"{gm(sp[w][v] for w in ws):.3f}" if ws else "-"


def comp_room(c):
    """DAC and CAE on the compute-bound workloads where DAC removes at least
    a fifth of the warp instructions, and on the rest."""
    R, comp, sp = c["R"], c["comp"], c["sp"]
    many = [w for w in comp if summary(R, [w], "dac")["red"] >= 0.2]
    rest = [w for w in comp if w not in many]

    return (f"On the {len(many)} compute-bound workloads where DAC issues at least 20% "
            "fewer warp instructions (" + ", ".join(many) + f"), DAC {gm_of(sp, many, 'dac')} "
            f"against CAE {gm_of(sp, many, 'cae')}; on the other {len(rest)}, DAC "
            f"{gm_of(sp, rest, 'dac')} against CAE {gm_of(sp, rest, 'cae')}.")


def mem_room(c):
    """DAC and MTA on the memory-bound workloads where early loads can help
    (DRAM under half busy in off, at least half the loads decoupled) and
    on the rest."""
    R, mem, sp = c["R"], c["mem"], c["sp"]
    room = [w for w in mem if util(R, w) < 0.5 and R[(w, "dac")]["dac"]["gl_loads"] and
            R[(w, "dac")]["dac"]["gl_loads_decoupled"] >= 0.5]
    rest = [w for w in mem if w not in room]

    return (f"On the {len(room)} memory-bound workloads with the DRAM under half busy in "
            "off and at least half their loads decoupled (" + ", ".join(room) + f"), DAC "
            f"{gm_of(sp, room, 'dac')} against MTA {gm_of(sp, room, 'mta')}; on the other {len(rest)}, "
            f"DAC {gm_of(sp, rest, 'dac')} against MTA {gm_of(sp, rest, 'mta')}.")


def first_pass(c, D):
    """What the passes per SM say of the default inputs' steady state."""
    R, wl = c["R"], c["wl"]
    one = [w for w in wl if R[(w, "dac")]["dac"]["launches"] >
           R[(w, "dac")]["dac"]["not_decoupled"] and summary(R, [w], "dac")["pps"] <= 1.0]
    return (f"At {D['pps']:.2f} passes per SM and decoupled launch the {SZ['main']} inputs are "
            "far from a steady state: most main warps belong to a launch's first pass, "
            "which starts with them, so the affine warp cannot run ahead of them by more "
            "than the ATQ's depth of records; " f"{len(one)} of {len(wl)} workloads run at "
            "most one pass per SM and launch" + (f" ({', '.join(one[:12])}"
                                                  + (", ..." if len(one) > 12 else "") + ")"
                                                  if one else "") + ".")


def size_moves(c):
    """The workloads whose DAC speedup moves most from default to large
    inputs, with what moved with it (CTAs per pass, loads decoupled,
    instructions against the undecoupled count)."""
    R, RL, sp, spL = c["R"], c["RL"], c["sp"], c["spL"]
    ws = sorted(c["wlL"], key=lambda w: -abs(spL[w]["dac"] / sp[w]["dac"] - 1))[:4]

    def one(w):
        a, b = summary(R, [w], "dac"), summary(RL, [w], "dac")
        return (f"{w} {sp[w]['dac']:.3f} -> {spL[w]['dac']:.3f} (CTAs per pass "
                f"{a['cpp']:.2f} -> {b['cpp']:.2f}, loads decoupled {pct(a['dec'])} -> "
                f"{pct(b['dec'])}, instructions {1 - a['red']:.3f} -> {1 - b['red']:.3f} of "
                "the undecoupled count)")
    return (f"Moved most by the input size (DAC speedup {SZ['main']} -> large): " +
            "; ".join(one(w) for w in ws) + ".") if ws else ""


def inst_split(c, D):
    """The instruction reduction as removed minus added, and where."""
    R, wl = c["R"], c["wl"]
    X = D["S"]
    undec = max(1, X["main_insts"] + X["removed_insts"])
    per = {w: summary(R, [w], "dac")["red"] for w in wl}
    top = sorted(wl, key=lambda w: -per[w])[:4]
    low = [w for w in wl if per[w] < 0.02]
    return (f"* **Instructions.** The transform takes {pct(X['removed_insts'] / undec)} of "
            "the main warps' dynamic warp instructions out of their stream and the affine "
            f"warp adds back {pct(X['affine_insts'] / undec)} (once per pass, not per warp): "
            f"{pct(D['red'])} fewer, against the paper's 26.0%. The static share "
            "computing on scalars and thread IDs only is the headline's Fig 6 row; of "
            "those instructions the transform removes only those no main-stream "
            "instruction reads (docs/dac.md, invariants: an affine value that also feeds "
            "data, such as a loop counter with a trip count from data, stays in the main "
            "stream too). Most removed: " + ", ".join(f"{w} {pct(per[w])}" for w in top) +
            f"; {len(low)} of {len(wl)} workloads lose under 2%.")


def aw_pace(S):
    """The affine warp's waits per issued instruction over the suite, the
    largest first, as a bullet."""
    n = max(1, S["affine_insts"])
    waits = sorted([(S["stall_aw_mask"] / n, "for fed-back masks"),
                    (S["stall_aw_dep"] / n, "for a source tuple (a main warp's per-opcode "
                     "latency, docs/dac.md)"),
                    (S["stall_aw_pipe"] / n, "for a free ALU/SFU pipeline")], reverse=True)
    return (f"* **The affine warp's own pace.** It issued {S['affine_insts']} instructions "
            "over the suite; per instruction it waited " +
            ", ".join(f"{x:.2f} cycles {why}" for x, why in waits) +
            f"; an enq found the ATQ full in {S['stall_enq_full']} of its cycles.")


def energy_sums(c):
    """Suite sums per chip-model component (E_ROWS) of off and dac."""
    R, wl = c["R"], c["wl"]
    return {v: {k: sum(e_comp(R[(w, v)], k) for w in wl) for k, _ in E_ROWS}
            for v in ("off", "dac")}


def pearson(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / (sxx * syy) ** 0.5 if sxx and syy else 0.0


def signed(x):
    return ("+" if x >= 0 else "-") + pct(abs(x))


def energy_text(c):
    R, wl, sp = c["R"], c["wl"], c["sp"]
    E = energy_sums(c)
    off_t = sum(E["off"].values())
    stat = list(E_STATIC) + ["dram_bg"]
    s_off = sum(E["off"][k] for k in stat)
    d_stat = sum(E["dac"][k] - E["off"][k] for k in stat)
    d_dyn = sum(E["dac"][k] - E["off"][k] for k, _ in E_ROWS if k not in stat)
    moves = sorted(((E["dac"][k] - E["off"][k]) / off_t, k) for k, _ in E_ROWS
                   if k not in stat)
    down = [f"{k} {signed(d)}" for d, k in moves if d <= -0.0005][:4]
    up = [f"{k} {signed(d)}" for d, k in moves[::-1] if d >= 0.0005][:4]
    ws = [w for w in wl if R[(w, "dac")]["dac"]["main_insts"] +
          R[(w, "dac")]["dac"]["removed_insts"]]
    ins = [R[(w, "dac")]["dac"]["insts_vs_off"] for w in ws]
    dyn = [e_dyn(R[(w, "dac")]) / e_dyn(R[(w, "off")]) for w in ws]
    cyc = [1 / sp[w]["dac"] for w in ws]
    tot = [e_total(R[(w, "dac")]) / e_total(R[(w, "off")]) for w in ws]
    return ("* **Energy** (the chip energy model of every timing run, docs/energy.md: "
            "per-event energies of the SM structures, caches, interconnect and DRAM "
            "commands, and static power per cycle; by component in the table below). "
            f"Static power is {pct(s_off / off_t)} of off's energy over the suite, so the "
            "total follows the cycles: per workload, DAC's total energy over off's "
            f"correlates with its cycles over off's (r = {pearson(cyc, tot):.2f}), and its "
            "dynamic energy over off's with its issued warp instructions over the "
            f"undecoupled count (r = {pearson(ins, dyn):.2f}; both over the {len(ws)} "
            "workloads with a decoupled launch). Over the suite DAC changes the energy by "
            f"{signed((d_stat + d_dyn) / off_t)} of off's: static {signed(d_stat / off_t)}, "
            f"per-event {signed(d_dyn / off_t)}; per-event components that fall most: "
            f"{', '.join(down) or 'none'}; that rise: {', '.join(up) or 'none'}. The "
            "paper's 18.4% dynamic reduction comes with its 26.0% fewer warp instructions, "
            "ours with the fewer of the headline. The suite sums weigh the long workloads, "
            "the headline's geomeans every workload alike. The constants of the DAC units "
            "(a tuple or queue entry at one register-file array, an AEU/PEU operation at "
            "an ALU lane operation) are our estimates (docs/dac.md).")


def energy_table(c):
    E = energy_sums(c)
    off_t = sum(E["off"].values())
    dac_t = sum(E["dac"].values())
    L = [f"Energy by component of the chip model, summed over the suite at {SZ['main']} "
         "inputs (joules of every workload's run added, so the long workloads weigh "
         "most): each component's share of off's energy, and DAC's change in it as a "
         "share of off's energy (the changes add up to DAC's total change).", "",
         "| component | what | kind | off: share of off's energy | DAC - off: share of "
         "off's energy |", "|---|---|---|---:|---:|"]
    for k, what in E_ROWS:
        kind = "static" if k in E_STATIC or k == "dram_bg" else "dynamic"
        d = E["dac"][k] - E["off"][k]
        L.append(f"| {k} | {what} | {kind} | {pct(E['off'][k] / off_t)} | "
                 f"{signed(d / off_t)} |")
    L.append(f"| **all** | | | **100.0%** | **{signed((dac_t - off_t) / off_t)}** |")
    L.append("")
    return L


def peak_bw(keys):
    """Peak DRAM bytes per second of a config's keys (cfg_keys):
    mem_partitions x dram_bus_bytes x dram_clock_mhz."""
    return keys["mem_partitions"] * keys["dram_bus_bytes"] * keys["dram_clock_mhz"] * 1e6


def util(R, w):
    """DRAM bytes of w's off run / its simulated seconds / the peak."""
    o = R[(w, "off")]
    return (o["dram.read_bytes"] + o["dram.write_bytes"]) / o["power.seconds"] / peak_bw(KEYS)


def per_workload(c):
    R, RL, mem, comp, sp, spL, share = c["R"], c["RL"], c["mem"], c["comp"], c["sp"], c["spL"], c["share"]
    L = []
    for ws, title in ((mem, "Memory-bound"), (comp, "Compute-bound")):
        L += [f"## {title} workloads", "",
              "| workload | memory stall share (off) | CTAs | dac | cae | mta | dac-mta | "
              "dac large | cae large | mta large | DAC insts vs off | loads decoupled | "
              "affine share | CTAs per pass | DAC energy vs off (dynamic) | not decoupled |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for w in sorted(ws, key=lambda x: -share[x]):
            d = R[(w, "dac")]["dac"]
            cells = [w, fmt(share[w], 2), str(R[(w, "off")]["ctas"])]
            cells += [fmt(sp[w][v]) for v in MAIN]
            cells += [fmt(spL[w][v]) if w in spL else "-" for v in LARGE]
            cells += [fmt(d["insts_vs_off"]),
                      fmt(d["gl_loads_decoupled"], 2) if d["gl_loads"] else "-",
                      fmt(d["affine_share"], 3),
                      f"{d['batch_ctas'] / d['batches']:.2f}" if d["batches"] else "-",
                      f"{fmt(e_total(R[(w, 'dac')]) / e_total(R[(w, 'off')]))} "
                      f"({fmt(e_dyn(R[(w, 'dac')]) / e_dyn(R[(w, 'off')]))})",
                      f"{d['not_decoupled']}/{d['launches']}"]
            L.append("| " + " | ".join(cells) + " |")
        wsL = [w for w in ws if w in spL]
        L.append("| geometric mean | | | " + " | ".join(
            fmt(gm(sp[w][v] for w in ws)) for v in MAIN) + " | " + " | ".join(
            fmt(gm(spL[w][v] for w in wsL)) if wsL else "-" for v in LARGE) + " | | | | | "
            f"{fmt(gm(e_total(R[(w, 'dac')]) / e_total(R[(w, 'off')]) for w in ws))} "
            f"({fmt(gm(e_dyn(R[(w, 'dac')]) / e_dyn(R[(w, 'off')]) for w in ws))}) | |")
        L.append("")
    return L


def sensitivity(c):
    R, sens_ws, sens = c["R"], c["sens_ws"], c["sens"]
    L = ["## Queue-size sensitivity", "",
         f"DAC speedup over off on {len(sens_ws)} workloads whose loads decouple "
         f"({', '.join(sens_ws)}), the per-warp address and predicate queue depth "
         "(`dac.addr_queue` = `dac.pred_queue`, default 4) and the ATQ (`dac.atq_entries`, "
         "default 8) each varied alone. The paper's study of its queue sizes is in the "
         "part of its text we do not have; the defaults are not tuned to these rows. " +
         " ".join(f"{t}: geomean {sens[t]['geomean'][0][1]:.3f} at {sens[t]['geomean'][0][0]} "
                  f"to {sens[t]['geomean'][-1][1]:.3f} at {sens[t]['geomean'][-1][0]}."
                  for t in SENS), "",
         "![address queue](dac-sens-addr_queue.png)", "", "![ATQ](dac-sens-atq_entries.png)", ""]
    for title, (key, pts) in SENS.items():
        L += [f"| `{key}` | " + " | ".join(str(nn) for _, nn in pts) + " |",
              "|---|" + "---|" * len(pts)]
        for w in sens_ws:
            L.append(f"| {w} | " + " | ".join(
                fmt(R[(w, 'off')]['cycles'] / R[(w, v)]['cycles']) for v, _ in pts) + " |")
        L.append("| geometric mean | " + " | ".join(
            fmt(gm(R[(w, 'off')]['cycles'] / R[(w, v)]['cycles'] for w in sens_ws))
            for v, _ in pts) + " |")
        L.append("| deq stalls (empty + data), sum | " + " | ".join(
            str(sum(R[(w, v)]['dac']['stall_deq_empty'] + R[(w, v)]['dac']['stall_deq_data']
                    for w in sens_ws)) for v, _ in pts) + " |")
        L.append("| affine-warp enq stalls (ATQ full), sum | " + " | ".join(
            str(sum(R[(w, v)]['dac']['stall_enq_full'] for w in sens_ws)) for v, _ in pts) + " |")
        L.append("")
    return L


# --- the gap to the paper's geomean, in measured parts -------------------
# One timing limit of our units taken away at a time, cumulatively
# (experiments/dac.toml's gap chain): variant, what it takes away, and the
# dac statistics (suite sums) that measure the limit, before and after.
GAP_CHAIN = [("dac-fd", "feedback scope: masks fed back only where a region holds an "
              "enq.data (dac.feedback=data)", "stall_aw_mask",
              "affine-warp cycles waiting for fed-back masks"),
             ("dac-fdq", "queue depth: every DAC queue 64 deep (dac.atq_entries, "
              "addr_queue, pred_queue, mask_queue)", "stall_enq_full",
              "affine-warp cycles blocked on a full ATQ"),
             ("dac-fdqp", "pass contexts: a second one (dac.passes=2)", "cta_wait",
              "CTA-cycles waiting for a pass"),
             ("dac-fdqpa", "early fetch of loads a same-thread store may precede (Fig 7; "
              "dac.prefetch_after_write=on)", "kept:after-write",
              "loads fetched at their deq after a possible same-thread store")]
# a memory-bound workload whose off run keeps the DRAM at least this busy
# (bytes / seconds / peak) has little room for earlier requests (as in
# "Memory-bound and DRAM")
DRAM_BUSY = 0.5
# "little affine work": DAC issues at least this share of the undecoupled
# warp instructions
FEW_REMOVED = 0.9


# variants with dac.prefetch_after_write=on: every enq.data load is
# prefetched there, so one not served had its lock refused (not-prefetched);
# a sweep from a build that counted such loads as after-write is read so
AW_ON = ("dac-aw", "dac-fdqpa")


def kept(d, v=None):
    """A dac run's loads not served by a prefetch, by reason
    (dac.gl_loads_kept; one "unknown" entry for a sweep from a build
    without it); v: the run's variant."""
    k = d.get("gl_loads_kept")
    if k is None:
        return {"unknown": d["gl_loads"] - d["gl_loads_enq_data"]}
    k = dict(k)
    if v in AW_ON and k.get("after-write"):
        k["not-prefetched"] = k.get("not-prefetched", 0) + k.pop("after-write")
    return {r: x for r, x in k.items() if x}


def gap_stat(R, ws, v, key):
    if key.startswith("kept:"):
        return sum(kept(R[(w, v)]["dac"], v).get(key[5:], 0) for w in ws)
    return sum(R[(w, v)]["dac"].get(key, 0) for w in ws)


def gap_class(R, w, v, mem):
    """The measured class of w's shortfall under variant v (first match)."""
    d = R[(w, v)]["dac"]
    if w in mem and util(R, w) >= DRAM_BUSY:
        return "dram"
    if d["gl_loads"] and d["gl_loads_enq_data"] < 0.5 * d["gl_loads"]:
        k = kept(d, v)
        top = max(k, key=k.get) if k else "unknown"
        return {"nonaffine": "nonaffine", "local-write": "local"}.get(top, "keptother")
    if d["main_insts"] + d["removed_insts"] and d["insts_vs_off"] >= FEW_REMOVED:
        return "small"
    return rest_cause(R, w, v)


# the last class split by where DAC's SM-cycles go (shares of off's
# SM-cycles, num_sms x cycles): the launch leaves most SMs without work
# already in off; the SM-cycles without a resident warp grow under DAC
# (the SMs unbalanced); the waits on records and lines (stall.mem_wait,
# where the deq waits count) plus the scoreboard waits grow; else what
# it issues bounds it. A tenth and a half of off's SM-cycles, fixed as
# round shares.
FEW_CTAS = 0.5
REST_GROW = 0.1


def sm_parts(R, w, v):
    """Where w's SM-cycles go under v, as shares of off's num_sms x cycles:
    issue (an instruction issued), nowarp (no resident warp), wait
    (stall.mem_wait + stall.scoreboard), other (pipe, ibuffer, barrier)."""
    r, t0 = R[(w, v)], KEYS["num_sms"] * R[(w, "off")]["cycles"]
    tot = KEYS["num_sms"] * r["cycles"]
    p = {"nowarp": r["stall.no_warps"], "wait": r["stall.mem_wait"] + r["stall.scoreboard"],
         "other": r["stall.pipe_busy"] + r["stall.ibuffer"] + r["stall.barrier"]}
    p["issue"] = tot - r["idle_cycles"]
    return {k: x / t0 for k, x in p.items()}


def rest_cause(R, w, v):
    """The measured cause of a decoupled workload's shortfall (its first
    match): rest_few, rest_tail, rest_wait or rest_issue."""
    o, x = sm_parts(R, w, "off"), sm_parts(R, w, v)
    if o["nowarp"] >= FEW_CTAS:
        return "rest_few"
    if x["nowarp"] - o["nowarp"] >= REST_GROW:
        return "rest_tail"
    if x["wait"] - o["wait"] >= REST_GROW:
        return "rest_wait"
    return "rest_issue"


GAP_CLASSES = [
    ("dram", "memory-bound, the DRAM already busy in off", "DRAM utilisation of off "
     f"(bytes / seconds / peak) at least {DRAM_BUSY:.0%}"),
    ("nonaffine", "at most half its loads served by a prefetch, most kept ones with addresses that are not affine (indirection, "
     "bit operations, min/max of two affine values: the reason table)", "share of its loads kept for "
     "`nonaffine` (dac.gl_loads_kept)"),
    ("local", "at most half its loads served by a prefetch, most kept ones `.local` loads after a local write", "share of its loads "
     "kept for `local-write` (dac.gl_loads_kept)"),
    ("keptother", "at most half its loads served by a prefetch, most kept ones for another reason", "dac.gl_loads_kept"),
    ("small", "little affine work to remove, loads decoupled or none", "issued warp "
     f"instructions at least {FEW_REMOVED:.0%} of the undecoupled count (dac.insts_vs_off)"),
    ("rest_few", "decoupled, with affine work removed, the launch's critical path "
     "untouched: in off most SM-cycles hold no resident warp (few CTAs, short launches)",
     f"stall.no_warps of off at least {FEW_CTAS:.0%} of its SM-cycles (num_sms x cycles); "
     "of each: that share, instructions issued against the undecoupled count, the busy "
     "SMs' speedup (sm_cycles of off / of the variant)"),
    ("rest_tail", "decoupled, with affine work removed, the SMs unbalanced: SM-cycles "
     "without a resident warp grow (the last CTAs land on few SMs)",
     f"stall.no_warps grows by at least {REST_GROW:.0%} of off's SM-cycles; of each: "
     "no-warp share off -> the variant, the busy SMs' speedup, the most CTAs one SM ran "
     "(dac.sm_ctas_max; one-launch workloads), and the speedups of `dac` "
     "and of `dac-p8s` (a pass context per CTA: no CTA waits for a pass)"),
    ("rest_wait", "decoupled, with affine work removed, held by its waits: the main warps "
     "wait on records and lines longer than off waited on its loads",
     f"stall.mem_wait + stall.scoreboard (a deq's wait counts in mem_wait) grows by at "
     f"least {REST_GROW:.0%} of off's SM-cycles; of each: the waits' share off -> the "
     "variant, instructions issued against the undecoupled count, the share of the "
     "refused deq checks whose record was not there yet (the rest: its lines not "
     "arrived; dac.stall_deq_empty, stall_deq_data), and the speedups of `dac`, "
     "`dac-p8s` and `dac-dq` (a deq.data issues before its lines arrive, the warp "
     "waiting at the value's first use: dac.deq_data=issue)"),
    ("rest_issue", "decoupled, with affine work removed, held by what it still issues",
     "none of the above; of each: issuing SM-cycles off -> the variant (shares of off's "
     "SM-cycles), instructions issued against the undecoupled count (1 / it: the speedup "
     "if only the removed instructions counted)"),
    ("above", "at or above the paper's geomean", "speedup over off")]


def gap_table(c, R, ws, sp_of, chain, label):
    """The gap between DAC's geomean over ws and the paper's 1.407: the
    timing limits (chain variants present for every workload of ws), then
    the rest per workload, log(1.407 / speedup) over len(ws), summed by
    the measured class of each workload. sp_of(w, v): speedup. Returns
    the lines (a table) and the figures."""
    n = len(ws)
    mem = c["mem"]
    steps = [s for s in chain if all((w, s[0]) in R for w in ws)]
    L = [f"| part ({label}) | factor on the geomean | geomean after | measured by |",
         "|---|---:|---:|---|"]
    prev, g_prev = "dac", gm(sp_of(w, "dac") for w in ws)
    L.append(f"| DAC as on this page | | {g_prev:.3f} | `dac` |")
    for v, what, key, stat in steps:
        g = gm(sp_of(w, v) for w in ws)
        L.append(f"| {what} | {g / g_prev:.3f} | {g:.3f} | {stat}: "
                 f"{gap_stat(R, ws, prev, key)} -> {gap_stat(R, ws, v, key)} (`{v}`) |")
        prev, g_prev = v, g
    byc = {}
    for w in ws:
        s = sp_of(w, prev)
        cl = "above" if s >= PAPER["speedup"] else gap_class(R, w, prev, mem)
        byc.setdefault(cl, []).append(w)
    for cl, what, stat in GAP_CLASSES:
        wsc = byc.get(cl, [])
        if not wsc:
            continue
        f = math.exp(sum(math.log(PAPER["speedup"] / sp_of(w, prev)) for w in wsc) / n)
        g_prev *= f
        worst = sorted(wsc, key=lambda w: sp_of(w, prev))
        L.append(f"| {what}: {len(wsc)} workload{'s' if len(wsc) > 1 else ''} | {f:.3f} | {g_prev:.3f} | {stat}; "
                 + ", ".join(f"{w} {sp_of(w, prev):.3f}{gap_note(R, w, prev, cl)}"
                             for w in worst[:6])
                 + (f", {len(worst) - 6} more" if len(worst) > 6 else "") + " |")
    return L, steps, byc, prev


def rest_text(R, byc, sp_of, last, label):
    """A paragraph on the decoupled workloads that fall short, by the
    measured cause of gap_class (byc: workloads per class under last;
    sp_of(w, v): speedup), with the ablations that take a cause away (an
    ablation that moves their geomean by less than the SLOWER margin is
    said to leave the cause standing)."""
    few, tail, wait, iss = (byc.get(k, []) for k in ("rest_few", "rest_tail", "rest_wait",
                                                      "rest_issue"))
    if not (few or tail or wait or iss):
        return []

    def g(ws, v):
        return gm(sp_of(w, v) for w in ws) if ws and all((w, v) in R for w in ws) else None

    def moved(ws, v, big, small):
        a, b = g(ws, "dac"), g(ws, v)
        if not (a and b):
            return ""
        return (f"`dac` {a:.3f} -> `{v}` {b:.3f}: " +
                (big if b / a >= 1 / SLOWER else small))
    S = []
    if few:
        busy = gm(R[(w, "off")]["sm_cycles"] / R[(w, last)]["sm_cycles"] for w in few)
        S.append(f"{', '.join(few)}: most SMs idle already in off; DAC shortens the busy "
                 f"SMs' work by {busy:.2f}x (geomean of sm_cycles off / `{last}`), the "
                 f"launch by {g(few, last):.3f}x, what is left being the launch's critical "
                 "path")
    if tail:
        m = moved(tail, "dac-p8s", "the passes' grouping of CTAs is much of it",
                  "not the passes' grouping of CTAs")
        S.append(f"{', '.join(tail)}: the launch's tail, SMs without a resident warp grow "
                 "as the last CTAs land on few SMs (sm_ctas_max against an even share)" +
                 (f"; a pass context per CTA gives {m}" if m else ""))
    if wait:
        de = sum(R[(w, last)]["dac"].get("stall_deq_empty", 0) for w in wait)
        dd = sum(R[(w, last)]["dac"].get("stall_deq_data", 0) for w in wait)
        mq = moved(wait, "dac-dq", "the deq's stall for its lines is much of it",
                   "the latency itself holds them, not where the deq waits for it")
        m8 = moved(wait, "dac-p8s", "CTAs waiting for a pass are much of it",
                   "not CTAs waiting for a pass")
        S.append(f"{', '.join(wait)}: the main warps wait on records and lines longer than "
                 f"off waited on its loads; {de / max(1, de + dd):.0%} of the refused deq "
                 "checks found no record yet, the rest a record whose lines had not arrived" +
                 (f"; a deq.data that does not stall for its lines gives {mq}" if mq else "") +
                 (f"; no CTA waiting for a pass gives {m8}" if m8 else ""))
    if iss:
        S.append(f"{', '.join(iss)}: held by what they still issue, their issuing SM-cycles "
                 "falling less than their instructions (two schedulers issue in one "
                 "SM-cycle)")
    return ["", f"The decoupled workloads that fall short ({label}), by measured cause: " +
            "; ".join(S) + "."]


def gap_note(R, w, v, cl):
    d = R[(w, v)]["dac"]
    if cl == "dram":
        return f" (DRAM {util(R, w):.2f})"
    if cl in ("nonaffine", "local", "keptother"):
        k = kept(d, v)
        top = max(k, key=k.get) if k else "-"
        lk = (f"; locks refused to {d['lock_refused']} of {d['records_data']} enq.data "
              "records" if top == "not-prefetched" and d.get("lock_refused") else "")
        return f" ({top} {k.get(top, 0) / max(1, d['gl_loads']):.0%}{lk})"
    if cl == "small":
        return f" (instructions {d['insts_vs_off']:.2f})"
    if cl.startswith("rest"):
        o, x = sm_parts(R, w, "off"), sm_parts(R, w, v)
        busy = R[(w, "off")]["sm_cycles"] / R[(w, v)]["sm_cycles"]
        ins = f"instructions {d['insts_vs_off']:.2f}"
        vs = [x for x in (("dac-p8s", "dac-dq") if cl == "rest_wait" else ("dac-p8s",))
              if (w, x) in R]
        p8 = "".join(f", {x} {R[(w, 'off')]['cycles'] / R[(w, x)]['cycles']:.3f}"
                     for x in ["dac"] + vs) if vs else ""
        if cl == "rest_few":
            return f" (no warp {o['nowarp']:.2f}, {ins}, busy SMs {busy:.2f})"
        if cl == "rest_tail":
            mx = (f", most CTAs on one SM {d['sm_ctas_max']} (an even share "
                  f"{math.ceil(R[(w, v)]['ctas'] / KEYS['num_sms'])})"
                  if d.get("sm_ctas_max") and R[(w, "off")].get("st", {}).get(
                      "nlaunches") == 1 else "")
            return (f" (no warp {o['nowarp']:.2f} -> {x['nowarp']:.2f}, busy SMs "
                    f"{busy:.2f}{mx}{p8})")
        if cl == "rest_wait":
            de, dd = d.get("stall_deq_empty", 0), d.get("stall_deq_data", 0)
            why = f", deq checks refused for want of a record {de / (de + dd):.0%}" \
                if de + dd else ""
            return f" (waits {o['wait']:.2f} -> {x['wait']:.2f}, {ins}{why}{p8})"
        return (f" (issuing {o['issue']:.2f} -> {x['issue']:.2f}, {ins}, 1 / it "
                f"{1 / d['insts_vs_off'] if d['insts_vs_off'] else 0:.2f})")
    return ""


# the timing limits taken away one at a time (variants of the whole suite)
ALONE = (("dac-fd", "feedback scope"), ("dac-q", "queue depth"),
         ("dac-p2", "a second pass context"),
         ("dac-p8s", "a pass context per resident CTA, each its share of the ATQ"),
         ("dac-dq", "a deq.data that issues before its lines arrive"),
         ("dac-aw", "the early fetch past same-thread stores"))


def gap_section(c):
    """The section: the gap at the main inputs and at large inputs."""
    R, RL, wl, wlL = c["R"], c["RL"], c["wl"], c["wlL"]
    sp = lambda w, v: R[(w, "off")]["cycles"] / R[(w, v)]["cycles"]     # noqa: E731
    spL = lambda w, v: RL[(w, "off")]["cycles"] / RL[(w, v)]["cycles"]  # noqa: E731
    T, steps, byc, last = gap_table(c, R, wl, sp, GAP_CHAIN, f"{SZ['main']} inputs, "
                                    f"{len(wl)} workloads")
    g0 = gm(sp(w, "dac") for w in wl)
    L = ["## The gap to the paper's speedup, in measured parts", "",
         f"DAC's geomean speedup is {g0:.3f} over the {len(wl)} workloads at {SZ['main']} "
         f"inputs against the paper's {PAPER['speedup']} over its 29 programs. The table "
         "takes the distance apart. First the timing limits of our units, each measured by "
         "rerunning the suite with that limit taken away, cumulatively (the statistic that "
         "measures the limit is given for the run before and after). What remains is "
         "split by workload: a workload's part is log(1.407 / its speedup) / "
         f"{len(wl)}, so the factor of a group is how much the geomean would grow if "
         "each of its workloads reached 1.407; each workload goes to the first group "
         "whose measured condition it meets, under the last variant of the chain "
         f"(`{last}`). The factors multiply from {g0:.3f} to 1.407 exactly. The loads are "
         "dynamic: main-warp global/local load instructions of decoupled launches, "
         "served by a prefetch (dac.gl_loads_enq_data) or kept, by reason "
         "(dac.gl_loads_kept; the static reasons are the reason table below).", ""]
    L += T
    L += rest_text(R, byc, sp, last, f"{SZ['main']} inputs")
    alone = [(v, t) for v, t in ALONE if all((w, v) in R for w in wl)]
    if alone:
        L += ["", "Each limit taken away alone, not cumulatively (factor on DAC's geomean, "
              f"{SZ['main']} inputs): " + "; ".join(
                  f"{t} `{v}` {gm(sp(w, v) for w in wl) / g0:.3f}" for v, t in alone) +
              f": their product {math.prod(gm(sp(w, v) for w in wl) / g0 for v, _ in alone):.3f}"
              f", the chain's {gm(sp(w, last) for w in wl) / g0:.3f} (`{last}`)."]
    rules = [(v, t) for v, t in (("dac-be", "records after a barrier expanded and prefetched "
                                  "before the CTA passed it"),
                                 ("dac-lb", "locked L1D lines evicted rather than waited for"))
             if all((w, v) in R for w in wl)]
    if rules:
        L += ["", "Two rules of the paper's 4.2 that DAC on this page follows cost speed here; "
              "each relaxed alone (factor on DAC's geomean, " + SZ['main'] + " inputs): " +
              "; ".join(f"{t} `{v}` {gm(sp(w, v) for w in wl) / g0:.3f}" for v, t in rules) +
              ". They are not timing limits of our units but the paper's design, so the "
              "chain above keeps them."]
    if not steps:
        L += ["", "The gap-chain variants (dac-fd, dac-fdq, dac-fdqp, dac-fdqpa of "
              "experiments/dac.toml) were not part of this run: the rest is split from "
              "DAC as on this page."]
    mem_cls = {cl: ws for cl, ws in byc.items()}
    n_lo = sum(len(mem_cls.get(cl, [])) for cl in ("nonaffine", "local", "keptother"))
    L += ["", f"Read: {n_lo} of {len(wl)} workloads keep most of their loads in the main "
          "stream, and no timing change gives those back; the paper's suite decouples "
          f"{PAPER['decoupled']:.1%} of its loads, ours {pct(summary(R, wl, last)['dec'])} "
          f"under `{last}`. The DRAM row holds workloads where earlier requests cannot "
          "help, the small-work row those whose affine stream is a few instructions (the "
          "Fig 6 row of the headline)."]
    mem, comp = c["mem"], c["comp"]
    if mem and comp:
        gmm, gmc = gm(sp(w, "dac") for w in mem), gm(sp(w, "dac") for w in comp)
        mix = math.exp((18 * math.log(gmm) + 11 * math.log(gmc)) / 29)
        L[-1] += (f" The class mix: {len(mem)} of our {len(wl)} workloads are memory-bound "
                  f"({len(mem) / len(wl):.0%}), 18 of the paper's 29 (62%); with DAC's "
                  f"geomeans per class ({gmm:.3f} memory-bound, {gmc:.3f} compute-bound) "
                  f"weighed 18 to 11, the geomean would be {mix:.3f} instead of {g0:.3f}.")
    if wlL:
        TL, stL, bycL, lastL = gap_table(c, RL, wlL, spL, GAP_CHAIN,
                                      f"large inputs, {len(wlL)} workloads")
        L += ["", f"The same at large inputs (the {len(wlL)} workloads of the large-input "
              "rows; memory-bound classes as at default inputs):", ""] + TL
        L += rest_text(RL, bycL, spL, lastL, "large inputs")
        aloneL = [(v, x) for v, x in ALONE if all((w, v) in RL for w in wlL)]
        if aloneL:
            g0L = gm(spL(w, "dac") for w in wlL)
            L += ["", "Each limit taken away alone at large inputs (factor on DAC's geomean "
                  f"{g0L:.3f}): " + "; ".join(f"{x} `{v}` {gm(spL(w, v) for w in wlL) / g0L:.3f}"
                                             for v, x in aloneL) + "."]
        L += ["", f"Input size: on these {len(wlL)} workloads DAC's geomean is "
              f"{gm(sp(w, 'dac') for w in wlL):.3f} at {SZ['main']} inputs and "
              f"{gm(spL(w, 'dac') for w in wlL):.3f} at large; with the timing limits "
              f"taken away {gm(sp(w, last) for w in wlL):.3f} (`{last}`) and "
              f"{gm(spL(w, lastL) for w in wlL):.3f} (`{lastL}`)."]
    doc = c.get("progdoc")
    if doc:
        def dac_gm(kind):
            rows = progpage.by(doc, kind)
            xs = [rows[(w, "off")]["cycles"] / rows[(w, "dac")]["cycles"]
                  for (w, v) in rows if v == "off" and (w, "dac") in rows and
                  rows[(w, "off")]["status"] == "pass" and rows[(w, "dac")]["status"] == "pass"]
            return (gm(xs), len(xs)) if xs else (None, 0)
        (gp, np_), (gb, nb) = dac_gm("program"), dac_gm("workload")
        if gp and gb:
            L += ["", f"The programs: the paper's 29 are not named in the text we have; the "
                  "public suites' programs of the other papers' tables stand in (\"The "
                  f"papers' programs\" below): DAC's geomean over {np_} of them is {gp:.3f}, "
                  f"over the {nb} built-in workloads of the same sweep {gb:.3f}, so the "
                  "choice of workloads moves the geomean by a factor of "
                  f"{gp / gb:.3f}" + (f" (that sweep's build, "
                                      f"{doc.get('lockstep_build', '')[:12]}, is not this "
                                      "page's)" if doc.get("lockstep_build", "")[:12] !=
                                      c["m"].get("build", "")[:12] else "") + "."]
    return L + [""]


# --- the papers' programs (experiments/dac_papers.toml, docs/suites.md) ----
# DAC's own statistics, exported beside the spec's metrics (absent, None,
# where affine.mode is off)
DAC_FIELDS = ["dac.launches", "dac.not_decoupled", "dac.affine_insts", "dac.removed_insts",
              "dac.gl_loads", "dac.gl_loads_enq_data", "dac.stall_aw_mask",
              "dac.stall_deq_empty", "dac.stall_deq_data", "dac.stall_aeu_bar",
              "dac.stall_enq_full", "dac.cta_wait", "dac.cycles"]
# a program DAC slows by more than this share gets its measured causes listed
SLOWER = 0.95
def programs_section(doc, build=""):
    """The section's markdown lines from the exported programs sweep (build:
    the simulator build of the rest of the page, to say when they differ)."""
    rows = progpage.by(doc)
    peak = doc["peak_bw"]

    def ok(w, v):
        r = rows.get((w, v))
        return r if r and r["status"] == "pass" else None

    def meas(w):
        r = {v: ok(w, v) for v in ("off", "dac", "cae", "mta")}
        if not all(r.values()):
            return {}
        o = r["off"]
        util = (o["dram.read_bytes"] + o["dram.write_bytes"]) / o["power.seconds"] / peak
        d = r["dac"]
        # issued under DAC: the undecoupled count less what the transform
        # removed, plus the affine warps' (as the headline above)
        issued = d["warp_insts"] - (d["dac.removed_insts"] or 0) + (d["dac.affine_insts"] or 0)
        share = (o["stall.scoreboard"] + o["stall.mem_wait"]) / o["sm_cycles"]
        cyc = d.get("dac.cycles") or d["sm_cycles"]
        return {"mem": share >= MEM_STALL, "util": util, "insts": issued / o["warp_insts"],
                "loads": d["dac.gl_loads"] or 0, "enq": d["dac.gl_loads_enq_data"] or 0,
                "why": {k: (d.get("dac." + k) or 0) / cyc if cyc else 0.0
                        for k in ("stall_aw_mask", "stall_deq_empty", "stall_deq_data",
                                  "stall_aeu_bar", "stall_enq_full", "cta_wait")},
                "whole": (d["dac.launches"] or 0) == (d["dac.not_decoupled"] or 0),
                "fd": o["cycles"] / ok(w, "dac-fd")["cycles"] if ok(w, "dac-fd") else None,
                "p8s": o["cycles"] / ok(w, "dac-p8s")["cycles"] if ok(w, "dac-p8s") else None,
                **{v: o["cycles"] / r[v]["cycles"] for v in ("dac", "cae", "mta")}}
    progs = list(dict.fromkeys(r["workload"] for r in doc["rows"] if r["kind"] == "program"))
    wls = list(dict.fromkeys(r["workload"] for r in doc["rows"] if r["kind"] == "workload"))
    pm = {w: meas(w) for w in progs if meas(w)}
    bm = {w: meas(w) for w in wls if meas(w)}
    L = ["", "## The papers' programs", "",
         progpage.provenance(spec_now(doc), "dac") + " gtx480, timing mode, each program's small "
         "input; the built-in suite from the same sweep at " + next(
             (r["size"] for r in doc["rows"] if r["kind"] == "workload"), "default") +
         " inputs (as above). The "
         "DAC paper's 29 programs are not named in the stored text, so the public suites' "
         "programs of the other papers' tables stand in (all that build and have their "
         "inputs). Memory-bound "
         f"as above (at least {MEM_STALL:.0%} of off's SM-cycles stalled on memory); speedup = "
         "cycles of off over the scheme's." +
         (f" **Older build:** this section comes from simulator build "
          f"{doc['lockstep_build'][:12]}, the rest of the page from {build[:12]}; its "
          "sweep (experiments/dac_papers.toml) was not rerun on the newer build, so its "
          "figures may differ from what that build gives."
          if build and doc.get("lockstep_build") and
          doc["lockstep_build"][:12] != build[:12] else ""), "",
         "| program | papers' names | class | DRAM util | DAC | CAE | MTA | warp insts DAC/off |",
         "|---|---|---|---|---|---|---|---|"]
    for w in progs:
        m = pm.get(w)
        names = progpage.paper_cell(w)
        if not m:
            bad = [f"{rows[(w, v)]['status']} ({v})" if (w, v) in rows else f"not run ({v})"
                   for v in ("off", "dac", "cae", "mta") if not ok(w, v)]
            L.append(f"| {w} | {names} | {', '.join(bad)} | | | | | |")
            continue
        L.append(f"| {w} | {names} | {'memory' if m['mem'] else 'compute'} | "
                 f"{m['util']:.2f} | {m['dac']:.3f} | {m['cae']:.3f} | {m['mta']:.3f} | "
                 f"{m['insts']:.3f} |")

    def g(d, k, keep=lambda m: True):
        xs = [m[k] for m in d.values() if keep(m)]
        return (plot.geomean(xs), len(xs)) if xs else (None, 0)
    c = lambda x: "-" if x[0] is None else f"{x[0]:.3f} ({x[1]})"   # noqa: E731
    comp, mem = (lambda m: not m["mem"]), (lambda m: m["mem"])
    L += ["", "| claim | paper | the programs (ours) | the built-in suite |", "|---|---|---|---|",
          f"| DAC speedup, geomean over all | 1.407 (29 programs) | {c(g(pm, 'dac'))} | "
          f"{c(g(bm, 'dac'))} |",
          f"| compute-bound: DAC vs CAE | 1.34 vs 1.11 | {c(g(pm, 'dac', comp))} vs "
          f"{c(g(pm, 'cae', comp))} | {c(g(bm, 'dac', comp))} vs {c(g(bm, 'cae', comp))} |",
          f"| memory-bound: DAC vs MTA | 1.44 vs 1.16 | {c(g(pm, 'dac', mem))} vs "
          f"{c(g(pm, 'mta', mem))} | {c(g(bm, 'dac', mem))} vs {c(g(bm, 'mta', mem))} |",
          f"| dynamic warp instructions, DAC / off | 0.740 | {c(g(pm, 'insts'))} | "
          f"{c(g(bm, 'insts'))} |"]
    gp, gb = g(pm, "dac")[0], g(bm, "dac")[0]
    ip, ib = g(pm, "insts")[0], g(bm, "insts")[0]
    if gp and gb:
        who = "the programs" if abs(gp - 1.407) < abs(gb - 1.407) else "the built-in suite"

        def dec(d):
            n = sum(m["loads"] for m in d.values())
            return sum(m["enq"] for m in d.values()) / n if n else 0.0

        def whole(d):
            return sum(m["whole"] for m in d.values())
        L += ["", f"**Closer to the paper's speedup: {who}**, though both stay far from it. "
              f"DAC gains by removing redundant affine instructions and by loading early "
              f"what the affine warp expands: DAC issues {ip:.3f} of off's warp instructions "
              f"on the programs against {ib:.3f} on the built-in suite (the paper: 0.740), "
              f"and enq.data serves {100 * dec(pm):.1f}% of the global/local loads of the "
              f"programs against {100 * dec(bm):.1f}% of the built-in suite's (the paper: "
              f"79.8%); the transform left every launch whole in {whole(pm)} of {len(pm)} "
              f"programs and {whole(bm)} of {len(bm)} workloads. Memory-bound share "
              f"{sum(m['mem'] for m in pm.values())} of {len(pm)} programs against "
              f"{sum(m['mem'] for m in bm.values())} of {len(bm)} workloads."]
    L += programs_slower(pm)
    out = [w for w in LEFT_OUT if w not in progs]
    if out:
        L += ["", "Left out of the sweep (experiments/dac_papers.toml): " + "; ".join(
            f"{w}: {LEFT_OUT[w]}" for w in out) + "."]
    bad = progpage.status_lines(doc)
    if bad:
        L += ["", "Points that did not pass:", ""] + bad
    L += programs_since(doc, rows)
    return L + [""]


def programs_slower(pm):
    """Lines naming, for each program DAC slows (speedup below SLOWER), its
    measured causes: loads served, instructions issued, and the DAC stalls
    per cycle of its SMs' DAC units (dac.cycles)."""
    slow = sorted((w for w, m in pm.items() if m["dac"] < SLOWER), key=lambda w: pm[w]["dac"])
    if not slow:
        return []
    names = {"stall_aw_mask": "affine warp waiting for fed-back masks",
             "stall_deq_empty": "main warps waiting for their records",
             "stall_deq_data": "main warps waiting for prefetched data",
             "stall_aeu_bar": "AEU holding records for a barrier",
             "stall_enq_full": "affine warp blocked on a full ATQ",
             "cta_wait": "CTAs waiting for a pass"}

    def one(w):
        m = pm[w]
        top = sorted(((v, k) for k, v in m["why"].items() if v > 0), reverse=True)[:2]
        dec = m["enq"] / m["loads"] if m["loads"] else 0.0
        fd = f"; dac-fd {m['fd']:.3f}" if m.get("fd") else ""
        fd += f"; dac-p8s {m['p8s']:.3f}" if m.get("p8s") else ""
        return (f"{w} {m['dac']:.3f} (loads served {dec:.0%}, instructions "
                f"{m['insts']:.2f}; " + (", ".join(f"{names[k]} {v:.2f}" for v, k in top)
                                         or "no DAC stall") + fd + ")")
    L = ["", f"**Where DAC slows a program** (speedup below {SLOWER}; in parentheses "
            "the share of its global/local loads served by a prefetch, the warp "
            "instructions issued against off's, and the largest DAC stalls per cycle of "
            "the SMs' DAC units (dac.cycles; main-warp stalls count warps, so they can "
            "exceed 1; CTAs waiting for a pass: dac.cta_wait, CTA-cycles per cycle)" +
            ("; dac-fd: the speedup with masks fed back only where a region "
             "holds an enq.data, dac.feedback=data" if any(pm[w].get("fd") for w in slow)
             else "") +
            ("; dac-p8s: the speedup with a pass context per resident CTA, each with its "
             "share of the ATQ (dac.passes=8, dac.atq_split=on), where no CTA waits for a "
             "pass" if any(pm[w].get("p8s") for w in slow) else "") + "): " +
            "; ".join(one(w) for w in slow) + "."]
    fd = [w for w in slow if pm[w].get("fd")]
    if fd:
        L += ["", f"With feedback limited to prefetching regions (dac-fd) the geomean over "
              f"the programs goes from {plot.geomean([m['dac'] for m in pm.values()]):.3f} "
              f"to {plot.geomean([m['fd'] or m['dac'] for m in pm.values()]):.3f}; over "
              f"the {len(slow)} programs DAC slows, from "
              f"{plot.geomean([pm[w]['dac'] for w in slow]):.3f} to "
              f"{plot.geomean([pm[w]['fd'] or pm[w]['dac'] for w in slow]):.3f}."]
    p8 = [w for w in slow if pm[w].get("p8s")]
    if p8:
        top = [w for w in p8 if pm[w]["p8s"] >= pm[w]["dac"] / SLOWER]
        L += ["", f"With no CTA waiting for a pass (dac-p8s) the geomean over the programs "
              f"goes from {plot.geomean([m['dac'] for m in pm.values()]):.3f} to "
              f"{plot.geomean([m['p8s'] or m['dac'] for m in pm.values()]):.3f}; over the "
              f"{len(slow)} programs DAC slows, from "
              f"{plot.geomean([pm[w]['dac'] for w in slow]):.3f} to "
              f"{plot.geomean([pm[w]['p8s'] or pm[w]['dac'] for w in slow]):.3f}" +
              (f". Where it lifts a program by more than {1 / SLOWER - 1:.1%}, CTAs waiting "
               "for the one pass context were the cause (the largest stall per cycle may "
               "name what those CTAs' warps wait in): " + ", ".join(
                  f"{w} {pm[w]['dac']:.3f} -> {pm[w]['p8s']:.3f}" for w in top)
               if top else "") + "."]
    return L


def spec_now(doc):
    """doc with its spec path as it is now: an export from before the spec
    moved (experiments/programs/dac.toml) names experiments/dac_papers.toml,
    which regenerates it (`make experiments-dac_papers`)."""
    if doc.get("spec") and not os.path.exists(os.path.join(ROOT, doc["spec"])):
        return {**doc, "spec": "experiments/dac_papers.toml"}
    return doc


# programs whose failure in an exported programs sweep the DAC transform
# fixes of docs/dac.md ("Chained skips", barrier and selp operands) cured,
# and the command that shows each passing now (memory equal to functional)
FIXED = {"ispass2009/LPS": "python3 tools/suite.py run ispass2009 LPS --mode both "
                           "--config gtx480 --set affine.mode=dac",
         "parboil/stencil": "python3 tools/suite.py run parboil stencil --mode both "
                            "--config gtx480 --set affine.mode=dac"}


# programs of the suites that experiments/dac_papers.toml leaves out, and why
LEFT_OUT = {"rodinia/myocyte": "its input data/myocyte/params.txt is absent from the "
                               "snapshot (`tools/suite.py run` refuses the run without it)",
            "rodinia/srad_v2": "its srad_cuda_1 reads `J_cuda[index_n]` with `index_n = "
                               "... + tx - cols` for the first row of blocks, before the "
                               "start of its first allocation, so it stops with a memory "
                               "fault in every mode, functional included (with "
                               "`memcheck=warn` it passes its own check in both modes)"}


def programs_since(doc, rows):
    """Notes on an exported programs sweep older than the model: its DAC
    failures fixed since (with the command showing the pass), and a
    myocyte row computed without its parameter file."""
    L = []
    failed = [w for w in FIXED if (w, "dac") in rows and rows[(w, "dac")]["status"] != "pass"]
    if failed:
        L += ["", f"Since simulator build {doc.get('lockstep_build', '?')[:12]}, which this "
              "section came from, the DAC transform fixes of docs/dac.md make " + " and ".join(failed) +
              " pass under affine.mode=dac with memory equal to functional mode (" +
              "; ".join(f"`{FIXED[w]}`" for w in failed) + "); `make experiments-dac_papers` "
              "regenerates the section on the current model."]
    # a sweep that failed there predates the harness naming myocyte's
    # params.txt too (a later one runs myocyte with it or skips it)
    if failed and ("rodinia/myocyte", "off") in rows:
        L += ["", "rodinia/myocyte's row ran without data/myocyte/params.txt: its 18 "
              "model parameters were uninitialised host memory, so its figures are not "
              "a measurement; the harness now names the file as an input and refuses "
              "the run without it (docs/suites.md)."]
    srad = [v for v in ("off", "dac", "cae", "mta") if ("rodinia/srad_v2", v) in rows and
            rows[("rodinia/srad_v2", v)]["status"] != "pass"]
    if srad and any("MEMFAULT" in f.get("msg", "") for f in doc.get("failures", [])
                    if "srad_v2" in f.get("what", "")):
        L += ["", "rodinia/srad_v2 stops with a memory fault in every mode, functional "
              "included: not a simulator defect. Its srad_cuda_1 reads "
              "`J_cuda[index_n]` with `index_n = ... + tx - cols` for the first row of "
              "blocks (srad_kernel.cu), before the start of its first allocation, and "
              "overwrites the value afterwards; the golden default `memcheck = error` "
              "stops there, and with `memcheck=warn` (docs/checks.md) the program passes "
              "its own check in both modes (`python3 tools/suite.py run rodinia srad_v2 "
              "--mode both --input small --set memcheck=warn --set affine.mode=dac`)."]
    return L


def programs_only(out, res):
    """experiments/dac_papers.py: exports the sweep (with gtx480's peak DRAM
    bandwidth) and rewrites the page's section."""
    path = os.path.join(res, "dac-programs.json")
    doc = progpage.export(out, path, fields=DAC_FIELDS)
    doc["peak_bw"] = peak_bw(cfg_keys(table.read_manifest(out)["lockstep"], "gtx480"))
    progpage.write(path, doc)
    progpage.splice(os.path.join(res, "dac.md"), "dac", programs_section(doc))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--programs":
        programs_only(sys.argv[2], sys.argv[3])
        sys.exit(0)
    if len(sys.argv) != 3:
        sys.exit("usage: dac.py SWEEP_OUT RESULTS_DIR | dac.py --programs OUT RESULTS")
    main(sys.argv[1], sys.argv[2])
