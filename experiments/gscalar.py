#!/usr/bin/env python3
"""Plots and results page of make experiments-gscalar (experiments/
gscalar.toml): usage: gscalar.py SWEEP_OUT RESULTS_DIR.

Writes RESULTS_DIR/gscalar.md (generated: do not edit) with the paper's
figures as we measure them, each beside the paper's (the G-Scalar paper,
Liu et al.): Fig 1 divergent instructions (gscalar-fig1.png), Fig 8
register-read categories, Fig 9 eligibility, Fig 11 IPC/W against the
baseline and ALU scalar with its scalar register file, the cost of the
3-cycle latency, Fig 12 RF energy (compressed and scalar RF alone), the
area of the RVC blocks against our register-file estimate; every figure at
each input size the sweep ran, the headline at the largest, and every
headline figure of the paper beside ours at each size (gscalar-paper.png);
IPC/W decomposed per size (static share, RF share of dynamic energy, issue
rate against the peak, G-Scalar's energy change by part); and the
measured causes of each difference and an ablation, all computed here from
the sweep's statistics. Variants are named SCALAR-cCOMPRESS-lLATENCY."""
import json
import math
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "tools"))

from sweeplib import plot, progpage, table   # noqa: E402
from sweeplib.source import commit_label as commit   # noqa: E402
import correlate   # noqa: E402  (the "baseline correlated" headline row)

BASE = "off-coff-l0"          # the baseline GPU: no compression, no scalar
ALU = "alu-coff-l0"           # "ALU scalar": prior scalar execution (+ scalar RF)
GS = "all-con-l3"             # G-Scalar: compression, all classes, +3 cycles
GS0 = "all-con-l0"            # the same without the extra latency
RF = "off-con-l3"             # compression alone (Fig 8, Fig 12)
NODIV = "nodiv-con-l3"        # Fig 11's "G-Scalar w/o divergent" (optional)
KEY = (BASE, ALU, GS0, GS, RF)
CATS = ["scalar", "byte3", "byte2", "byte1", "none", "raw", "divergent"]
ELIG = ["alu", "sfu", "mem", "half", "div"]
ORDER = {"small": 0, "default": 1, "large": 2}
# the paper's figures (the G-Scalar paper, sections 1, 5.2, 5.3, 5.4)
PAPER = {"div": 0.28, "div_scalar": 0.45, "alu": 0.22, "all": 0.40, "ipcw_base": 1.24,
         "ipcw_alu": 1.15, "lat": 0.017, "rf": 0.46, "srf": 0.63, "ratio": 2.17,
         "ratio_bdi": 2.13, "area_mm2": 0.16, "area_pct": 0.7, "power_w": 0.32,
         "power_pct": 1.6, "cats": (36, 17, 4, 7)}
# the energy model these pages used before the chip model (docs/energy.md
# history: per E_v, one vector-register access): the ablation recomputes it
# from the same counts to show what the model change moves
OLD_LANE = {"alu": 0.1406, "sfu": 1.19, "mem": 0.1406}
OLD_SM_CYCLE = 11.25
# area: Nangate 45 nm NAND2_X1 (synth/nand2eq.lib) and a 45 nm 6T SRAM cell
# (0.346 um^2, Mistry et al., IEDM 2007); per SM 16 decompressors and 4
# compressors (the paper, section 5.1)
# the paper's BP draws "over 100W" with "over 50%" in the execution units
# and register files (the G-Scalar paper, section 5.3): at least 50 W
BP_RF_LANE_W = 50.0
# energy of one cell-output transition: half of C V^2 with C the mean
# input capacitance of Nangate 45 nm's NAND2_X1 (1.599 and 1.664 fF, pins
# A1 and A2, NangateOpenCellLibrary_typical.lib) at the library's typical
# corner, 1.10 V: a lower bound (no wire, no internal power, fan-out one)
E_TRANSITION_J = 0.5 * (1.599 + 1.664) / 2 * 1e-15 * 1.10 ** 2
NAND2_UM2 = 0.798
SRAM_BIT_UM2 = 0.346
N_DECOMP, N_COMP = 16, 4
# the chip model's constants and rules before they followed GPUWattch
# 3.2.2 on every component (docs/energy.md; the model of build
# f66ca0bd9605): Keckler et al.'s 28 nm energies for a line access (L1D,
# shared pass, L2: 200 pJ) and a 32-byte flit (256 pJ), clock-gated lanes
# with the pipeline registers per active thread and no duty cap, FP_INT on
# every instruction, 1.59 W per busy SM, the dissertation's 59 W of leakage
# less the DRAM's 4.5 W standby; the ablation recomputes each run's energy
# with each of them from its event counts
PREV = {"l1d": 200.0, "shmem": 200.0, "l2": 200.0, "noc": 256.0, "busy_w": 1.59,
        "leak_w": 54.5}
PREV_PARTS = (("mem", "Keckler et al.'s memory-system energies (200 pJ per L1D, shared or L2 "
               "access, 256 pJ per flit) instead of GPUWattch's"),
              ("lanes", "inactive lanes free and the pipeline registers per active thread "
               "without the 0.8 duty cap (clock-gated lanes) instead of GPUWattch's default"),
              ("fpint", "FP_INT on every instruction instead of those with an operand type"),
              ("busy", "1.59 W per busy SM (the dissertation's constant) instead of none"),
              ("leak", "the dissertation's 54.5 W of chip leakage instead of McPAT's 43.6 W"))
# the pipeline's ablation: the baseline, ALU scalar and G-Scalar without
# and with its 3 cycles on the lumped pipeline timing instead of
# gtx480-gscalar's GPGPU-Sim 3.2.2 one (experiments/gscalar.toml)
LBASE, LALU = "off-coff-l0-lumped", "alu-coff-l0-lumped"
LGS0, LGS = "all-con-l0-lumped", "all-con-l3-lumped"
def _model_tables():
    """The energy classes (csim/core/core_ecls.def: {class: (counter,
    weight)}) and the energy keys' defaults (csim/cfg/cfg_keys.def), read
    from the sources the simulator is built from, so the page prices a
    class exactly as the model does."""
    with open(os.path.join(ROOT, "csim", "core", "core_ecls.def"), encoding="utf-8") as f:
        ecls = {m.group(1): (m.group(2), float(m.group(3))) for m in re.finditer(
            r'^CORE_ECLS\(\w+,\s*"(\w+)",\s*(\w+),\s*([\d.]+)', f.read(), re.M)}
    with open(os.path.join(ROOT, "csim", "cfg", "cfg_keys.def"), encoding="utf-8") as f:
        keys = {m.group(1): float(m.group(2)) for m in re.finditer(
            r"^CFG_REAL\((energy_\w+),\s*([\d.]+)", f.read(), re.M)}
    acc = {"SP": keys["energy_sp_acc_pj"], "FPU": keys["energy_fpu_acc_pj"],
           "SFU": keys["energy_sfu_acc_pj"]}
    return (ecls, acc, keys["energy_mem_lane_pj"], keys["energy_fpint_inst_pj"],
            keys["energy_pipe_thread_pj"])


ECLS, ACC_PJ, MEM_PJ, FPINT_PJ, PIPE_PJ = _model_tables()


def _machine():
    """configs/gtx480-gscalar.conf's keys (the text the page states about
    the machine: clock, lanes, pipeline stages)."""
    out = {}
    with open(os.path.join(ROOT, "configs", "gtx480-gscalar.conf"), encoding="utf-8") as f:
        for line in f:
            k, eq, v = line.split("#", 1)[0].partition("=")
            if eq:
                out[k.strip()] = v.strip()
    return out


MACHINE = _machine()
NUM_SMS = int(MACHINE.get("num_sms", 15))
# the issue peak of gtx480-gscalar per cycle: per SM a warp instruction per
# scheduler, at most as many as its ALU pipelines' lanes take warps a cycle
PEAK_ISSUE = NUM_SMS * min(int(MACHINE.get("num_schedulers", 2)),
                           int(MACHINE.get("alu_units", 2)) * int(MACHINE.get("alu_lanes", 32))
                           // 32)
# the classes of instructions an SFU runs (PTX's transcendentals, divides
# and rcp): the paper's "SFU instructions" (section 5.3)
SFU_CLASSES = ("sin", "sqrt", "lg2", "ex2", "fdiv", "idiv")
# warps per SM if a launch's threads were all resident: threads / 32 over
# 15 SMs, at most 1536 threads (48 warps) per SM
MAX_WARPS = 48
WARP_BINS = ((0, 2), (2, 8), (8, MAX_WARPS + 1))


def mean(xs):
    xs = list(xs)
    return sum(xs) / len(xs) if xs else 0.0


def gmean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else 0.0


def pct(x, digits=1):
    return f"{100 * x:+.{digits}f}%"


class Sweep:
    """The rows of one size, indexed by (workload, variant)."""

    def __init__(self, rows, size):
        self.size = size
        self.rows = [r for r in rows if r["size"] == size]
        self.idx = {(r["workload"], r["variant"]): r for r in self.rows}
        self.variants = {r["variant"] for r in self.rows}
        self.wl = list(dict.fromkeys(r["workload"] for r in self.rows))

    def v(self, w, var, k):
        return plot.value(self.rows, k, workload=w, variant=var)

    def has(self, *vs):
        return all(v in self.variants for v in vs)

    def rfr(self, w, var=RF):
        """Fig 12: RF energy, compressed / baseline (E_v counts)."""
        return self.v(w, var, "gscalar.rf_energy") / self.v(w, var, "gscalar.rf_energy_base")

    def old_energy(self, w, var):
        """E_v of the former model: RF + lanes + a constant per busy SM-cycle."""
        e = self.v(w, var, "gscalar.rf_energy")
        e += sum(self.v(w, var, f"gscalar.lane_ops.{u}") * c for u, c in OLD_LANE.items())
        return e + self.v(w, var, "sm_cycles") * OLD_SM_CYCLE

    def ipcw(self, w, var, srf=False):
        k = "gscalar.energy.insts_per_energy_srf" if srf else "gscalar.energy.insts_per_energy"
        return self.v(w, var, k)

    def leak(self, w, var):
        return self.v(w, var, "energy.j.sm_leak") + self.v(w, var, "energy.j.uncore_leak")

    def has_metric(self, *ks):
        return all(r.get(k) is not None for r in self.rows for k in ks)

    def idle_j(self, w, var, prefix="gscalar.class_idle"):
        """Joules of GPUWattch's inactive-lane charge in the run's G-Scalar
        lanes (docs/energy.md "Inactive lanes")."""
        return sum(self.v(w, var, f"{prefix}.{c}") * wt * ACC_PJ[ctr]
                   for c, (ctr, wt) in ECLS.items()) * 1e-12

    def prev_delta(self, w, var, parts):
        """Joules that the former constants and rules of `parts` (PREV_PARTS)
        add to this run's energy, from its event counts."""
        v = lambda k: self.v(w, var, k)   # noqa: E731
        d = 0.0
        if "mem" in parts:
            d += (v("l1d.accesses") * PREV["l1d"] + v("energy.shmem_accesses") * PREV["shmem"] +
                  v("l2.accesses") * PREV["l2"] + v("energy.noc_flits") * PREV["noc"]) * 1e-12
            d -= v("energy.j.l1d") + v("energy.j.shmem") + v("energy.j.l2") + v("energy.j.noc")
        if "lanes" in parts:
            d += v("thread_insts") * PIPE_PJ * 1e-12 - v("energy.j.pipe") - self.idle_j(w, var)
        if "fpint" in parts:
            d += v("energy.ctrl_insts") * FPINT_PJ * 1e-12
        if "busy" in parts:
            d += (PREV["busy_w"] * v("sm_cycles") * v("power.seconds") / v("cycles") -
                  v("energy.j.sm_busy"))
        if "leak" in parts:
            d += PREV["leak_w"] * v("power.seconds") - self.leak(w, var)
        return d

    def ipcw_prev(self, w, var, parts, srf=False):
        """IPC/W with the former constants of `parts` (the ablation)."""
        e = self.v(w, var, "gscalar.energy.total_srf" if srf else "gscalar.energy.total")
        return self.v(w, var, "warp_insts") / (e + self.prev_delta(w, var, parts))

    def warps(self, w, base=BASE):
        """Warps per SM if the run's threads were all resident (capped)."""
        return min(MAX_WARPS, self.v(w, base, "threads") / 32 / NUM_SMS)

    def lane_classes(self):
        """The baseline's and G-Scalar's lane energy by GPUWattch class
        (docs/energy.md "Lanes"), suite sums in joules: {class: (baseline
        J, G-Scalar J)}, the MEM lanes as "mem", and the chip totals."""
        wl = self.wl
        out = {}
        idle = self.has_metric("gscalar.class_idle.ialu")
        for c, (ctr, wt) in ECLS.items():
            pj = wt * ACC_PJ[ctr] * 1e-12
            b = sum(self.v(w, BASE, f"gscalar.base_class_ops.{c}") +
                    (self.v(w, BASE, f"gscalar.base_class_idle.{c}") if idle else 0) for w in wl)
            g = sum(self.v(w, GS, f"gscalar.class_ops.{c}") +
                    (self.v(w, GS, f"gscalar.class_idle.{c}") if idle else 0) for w in wl)
            out[c] = (b * pj, g * pj)
        if idle:
            out["_idle"] = (sum(self.idle_j(w, BASE, "gscalar.base_class_idle") for w in wl),
                            sum(self.idle_j(w, GS) for w in wl))
        out["mem"] = (sum(self.v(w, BASE, "gscalar.base_lane_ops.mem") for w in wl) * MEM_PJ * 1e-12,
                      sum(self.v(w, GS, "gscalar.lane_ops.mem") for w in wl) * MEM_PJ * 1e-12)
        return out

    def sfu_share(self, w, var=BASE):
        """The share of w's chip energy in GPUWattch's SFU-unit classes
        (transcendentals and divides, the paper's "SFUs"; section 5.3)."""
        j = sum(self.v(w, var, f"gscalar.base_class_ops.{c}") * ECLS[c][1] * ACC_PJ[ECLS[c][0]]
                for c in SFU_CLASSES) * 1e-12
        t = self.v(w, var, "gscalar.energy.total")
        return j / t if t else 0.0

    def lat_groups(self, l0=GS0, l3=GS, base=BASE):
        """The latency's IPC cost by warps per SM: (bin, workloads, cost,
        and of the SM-cycles the latency adds, the shares with no resident
        warp and with warps waiting on a source register)."""
        out = []
        for lo, hi in WARP_BINS:
            ws = [w for w in self.wl if lo <= self.warps(w, base) < hi]
            if not ws:
                continue
            d = lambda k: sum(self.v(w, l3, k) - self.v(w, l0, k) for w in ws)   # noqa
            added = NUM_SMS * d("cycles")
            out.append(((lo, hi), ws,
                        1 - gmean(self.v(w, l3, "ipc") / self.v(w, l0, "ipc") for w in ws),
                        d("stall.no_warps") / added if added else 0.0,
                        d("stall.scoreboard") / added if added else 0.0))
        return out

    def ipcw_nl(self, w, var, srf=False):
        """IPC/W with the power GPUWattch reports: the chip model without
        its leakage components (docs/energy.md "Checked against GPUWattch's
        released model and the dissertation")."""
        e = self.v(w, var, "gscalar.energy.total_srf" if srf else "gscalar.energy.total")
        return self.v(w, var, "warp_insts") / (e - self.leak(w, var))

    def decompose(self):
        """IPC/W decomposed from the suite's sums: the baseline's energy by
        part, its issue rate against the peak, and G-Scalar's change of
        energy per warp instruction split into static (time), RF + lanes
        and the other dynamic components, each as a share of the
        baseline's energy per instruction."""
        wl = self.wl
        tot = lambda var, k: sum(self.v(w, var, k) for w in wl)   # noqa: E731
        d = {}
        for var in (BASE, GS0, GS):
            n = tot(var, "warp_insts")
            e = tot(var, "gscalar.energy.total")
            st = tot(var, "energy.static")
            lk = sum(self.leak(w, var) for w in wl)
            rl = tot(var, "gscalar.energy.rf") + tot(var, "gscalar.energy.exec")
            rf = tot(var, "gscalar.energy.rf")
            d[var] = {"n": n, "e": e, "static": st, "leak": lk, "rflane": rl, "rf": rf,
                      "dyn": e - st, "other": e - st - rl,
                      "dram": tot(var, "energy.j.dram"), "cycles": tot(var, "cycles"),
                      "rate": n / (tot(var, "cycles") * PEAK_ISSUE),
                      "wrate": mean(self.v(w, var, "warp_insts") /
                                    (self.v(w, var, "cycles") * PEAK_ISSUE) for w in wl)}
        b = d[BASE]
        per = b["e"] / b["n"]
        for var in (GS0, GS):
            g = d[var]
            g["d_static"] = (g["static"] / g["n"] - b["static"] / b["n"]) / per
            g["d_rflane"] = (g["rflane"] / g["n"] - b["rflane"] / b["n"]) / per
            g["d_other"] = (g["other"] / g["n"] - b["other"] / b["n"]) / per
            g["ipcw"] = (b["e"] / b["n"]) / (g["e"] / g["n"])
        return d

    def figures(self):
        """The headline figures at this size (those its variants allow)."""
        f, wl = {}, self.wl
        if self.has(BASE):
            f["div"] = mean(self.v(w, BASE, "gscalar.div_frac") for w in wl)
            f["div_scalar"] = mean(self.v(w, BASE, "gscalar.div_scalar_frac") for w in wl)
        if self.has(GS):
            el = {c: mean(self.v(w, GS, f"gscalar.eligible_frac.{c}") for w in wl) for c in ELIG}
            f["elig"] = el
            f["alu"] = el["alu"]
            f["all"] = sum(el.values())
        if self.has(BASE, ALU, GS0, GS):
            g = lambda var, srf=False: gmean(self.ipcw(w, var, srf) / self.ipcw(w, BASE)   # noqa
                                             for w in wl)
            f["ipcw_gs"], f["ipcw_gs0"] = g(GS), g(GS0)
            f["ipcw_alu_srf"], f["ipcw_alu"] = g(ALU, True), g(ALU)
            f["lat"] = 1 - gmean(self.v(w, GS, "ipc") / self.v(w, GS0, "ipc") for w in wl)
            old = {var: gmean((self.v(w, var, "warp_insts") / self.old_energy(w, var)) /
                              (self.v(w, BASE, "warp_insts") / self.old_energy(w, BASE))
                              for w in wl) for var in (ALU, GS0, GS)}
            f["old_gs"], f["old_alu"] = old[GS], old[ALU]
            gl = lambda var, srf=False: gmean(self.ipcw_nl(w, var, srf) /   # noqa
                                              self.ipcw_nl(w, BASE) for w in wl)
            f["nl_gs"], f["nl_gs0"], f["nl_alu_srf"] = gl(GS), gl(GS0), gl(ALU, True)
            f["dec"] = self.decompose()
            if self.has(NODIV):
                f["ipcw_nodiv"], f["nl_nodiv"] = g(NODIV), gl(NODIV)
            if self.has_metric("thread_insts", "energy.ctrl_insts", "l1d.accesses",
                               "energy.noc_flits", "gscalar.class_idle.ialu"):
                # the ablation: each former constant alone, then all of them
                gp = lambda var, parts, srf=False: gmean(   # noqa: E731
                    self.ipcw_prev(w, var, parts, srf) / self.ipcw_prev(w, BASE, parts)
                    for w in wl)
                f["prev"] = {}
                for parts in [(p,) for p, _ in PREV_PARTS] + [tuple(p for p, _ in PREV_PARTS)]:
                    f["prev"][parts] = (gp(GS, parts), gp(ALU, parts, True))
            if self.has_metric("gscalar.lane_ops.alu"):
                f["lanes"] = self.lane_classes()
            if self.has_metric("threads", "stall.scoreboard"):
                f["lat_groups"] = self.lat_groups()
                if self.has(LGS0, LGS):
                    f["lat_lumped"] = 1 - gmean(self.v(w, LGS, "ipc") / self.v(w, LGS0, "ipc")
                                                for w in wl)
                    f["lat_groups_lumped"] = self.lat_groups(LGS0, LGS, LBASE)
            if self.has(LBASE, LALU, LGS0, LGS):
                gl2 = lambda var, srf=False: gmean(self.ipcw(w, var, srf) /   # noqa
                                                   self.ipcw(w, LBASE) for w in wl)
                f["lu_gs"], f["lu_gs0"], f["lu_alu_srf"] = gl2(LGS), gl2(LGS0), gl2(LALU, True)
                f["lu_cyc"] = sum(self.v(w, BASE, "cycles") for w in wl) / \
                    sum(self.v(w, LBASE, "cycles") for w in wl) - 1
        if self.has(RF):
            f["rf"] = mean(self.rfr(w) for w in wl)
            f["srf"] = mean(self.v(w, RF, "gscalar.energy.srf_energy_ratio") for w in wl)
            f["cats"] = {c: mean(self.v(w, RF, f"gscalar.read_cat.{c}") /
                                 max(1, self.v(w, RF, "gscalar.reads")) for w in wl) for c in CATS}
            f["ratio"] = mean(self.v(w, RF, "gscalar.ratio_gs") for w in wl)
            f["ratio_bdi"] = mean(self.v(w, RF, "gscalar.ratio_bdi_all") for w in wl)
            f["ratio_wc"] = mean(self.v(w, RF, "gscalar.ratio_bdi") for w in wl)
            f["wc"] = mean(self.v(w, RF, "gscalar.wc_energy_ratio") for w in wl)
            f["rf_j"] = mean(self.v(w, RF, "gscalar.energy.rf") /
                             self.v(w, RF, "gscalar.energy.rf_base") for w in wl)
        return f


def area(path):
    """(RVC NAND2 eq per SM, RVC mm^2 per SM, RF cell-array mm^2, regs) from
    the committed Yosys baseline (synth/area-baseline.json, make synth)."""
    with open(path, encoding="utf-8") as f:
        ent = json.load(f)["entries"]
    n = {e["block"]: e["nand2_eq"] for e in ent
         if e["block"] in ("rvc_comp", "rvc_decomp") and e["label"] == "default"}
    eq = N_DECOMP * n["rvc_decomp"] + N_COMP * n["rvc_comp"]
    regs = 32768                     # configs/gtx480-gscalar.conf regs_per_sm
    return eq, eq * NAND2_UM2 * 1e-6, regs * 32 * SRAM_BIT_UM2 * 1e-6, regs


def port_bits(block):
    """Input plus output bits of a block's ports (csim/blocks/BLOCK_ports.def)."""
    import re
    with open(os.path.join(ROOT, "csim", "blocks", f"{block}_ports.def"), encoding="utf-8") as f:
        return sum(int(b) * int(c) for b, c in
                   re.findall(r"^PORT_(?:IN|OUT)\s*\(\s*\w+\s*,\s*(\d+)\s*,\s*(\d+)\s*\)",
                              f.read(), flags=re.M))


def rvc_power(S):
    """The RVC blocks' power under G-Scalar (variant GS), suite sums: the
    switching activity at the seam (port bits changed per transaction over
    the ports' bits) taken as every cell's, times the Yosys cell count and
    E_TRANSITION_J per transaction; and the pipeline registers' clock (two
    transitions per flop per edge) gated to the transactions, or every
    cycle. Returns None when the sweep lacks the counts."""
    with open(os.path.join(ROOT, "synth", "area-baseline.json"), encoding="utf-8") as f:
        ent = {e["block"]: e for e in json.load(f)["entries"]
               if e["block"] in ("rvc_comp", "rvc_decomp") and e["label"] == "default"}
    wl = S.wl
    tot = lambda k: sum(S.v(w, GS, k) for w in wl)   # noqa: E731
    try:
        txn = {b: tot(f"gscalar.{b}_txns") for b in ent}
    except (KeyError, TypeError):
        return None
    if not all(txn.values()):
        return None
    secs, cycles = tot("power.seconds"), tot("cycles")
    act = {b: tot(f"gscalar.{b}_toggles") / (txn[b] * port_bits(b)) for b in ent}
    logic = sum(act[b] * ent[b]["cells"] * txn[b] * E_TRANSITION_J for b in ent)
    clk_txn = sum(2 * ent[b]["flops"] * txn[b] * E_TRANSITION_J for b in ent)
    flops_chip = NUM_SMS * (N_DECOMP * ent["rvc_decomp"]["flops"] + N_COMP * ent["rvc_comp"]["flops"])
    clk_all = 2 * flops_chip * cycles * E_TRANSITION_J
    chip_w = tot("gscalar.energy.total") / secs
    return {"act": act, "logic_w": logic / secs, "clk_txn_w": clk_txn / secs,
            "clk_all_w": clk_all / secs, "chip_w": chip_w, "flops_chip": flops_chip,
            "cells": {b: ent[b]["cells"] for b in ent}, "bits": {b: port_bits(b) for b in ent}}


def plots(res, fig):
    S, wl = fig, fig.wl
    plot.stacked_bars(os.path.join(res, "gscalar-fig1.png"),
                      [{"workload": w, "status": "pass",
                        "div_scalar": S.v(w, BASE, "gscalar.eligible_frac.div"),
                        "div_other": S.v(w, BASE, "gscalar.div_frac") -
                        S.v(w, BASE, "gscalar.eligible_frac.div")} for w in wl],
                      "workload", ["div_scalar", "div_other"], xs=wl,
                      labels=["divergent scalar", "divergent, not scalar"],
                      title=f"Fig 1: divergent instructions ({S.size} inputs)",
                      ylabel="fraction of warp instructions")
    plot.stacked_bars(os.path.join(res, "gscalar-fig8.png"), S.rows, "workload",
                      [f"gscalar.read_cat.{c}" for c in CATS], where={"variant": RF},
                      xs=wl, labels=CATS, fraction=True,
                      title=f"Fig 8: register reads by equal leading bytes ({S.size} inputs)",
                      ylabel="fraction of operand reads")
    plot.stacked_bars(os.path.join(res, "gscalar-fig9.png"), S.rows, "workload",
                      [f"gscalar.eligible_frac.{c}" for c in ELIG], where={"variant": GS},
                      xs=wl, labels=["ALU", "SFU", "MEM", "half-scalar", "divergent-scalar"],
                      title=f"Fig 9: warp instructions eligible for scalar execution "
                      f"({S.size} inputs)", ylabel="fraction of warp instructions")
    rows = [{"workload": w, "scheme": name, "status": "pass", "ipcw": S.ipcw(w, var, srf)}
            for w in wl for name, var, srf in
            (("baseline", BASE, False), ("ALU scalar + scalar RF", ALU, True))
            + ((("G-Scalar w/o divergent", NODIV, False),) if S.has(NODIV) else ())
            + (("G-Scalar, no latency", GS0, False), ("G-Scalar", GS, False))]
    plot.grouped_bars(os.path.join(res, "gscalar-fig11.png"), rows, "workload", "scheme",
                      "ipcw", baseline="baseline", xs=wl,
                      paper={("gmean", "G-Scalar"): PAPER["ipcw_base"],
                             # the paper's ALU scalar over the baseline: 1.24 / 1.15
                             ("gmean", "ALU scalar + scalar RF"):
                             PAPER["ipcw_base"] / PAPER["ipcw_alu"]},
                      title=f"Fig 11: IPC/W normalised to the baseline ({S.size} inputs)",
                      ylabel="IPC/W / baseline")
    plot.grouped_bars(os.path.join(res, "gscalar-ipc.png"), S.rows, "workload", "variant",
                      "ipc", baseline=GS0, xs=wl, groups=[GS0, GS],
                      title=f"IPC with the 3-cycle extra latency ({S.size} inputs)",
                      ylabel=f"IPC / IPC of {GS0}")
    rows = [{"workload": w, "scheme": name, "status": "pass", "rf": val}
            for w in wl for name, val in
            (("G-Scalar compression", S.rfr(w)),
             ("scalar RF only", S.v(w, RF, "gscalar.energy.srf_energy_ratio")),
             ("Warped-Compression", S.v(w, RF, "gscalar.wc_energy_ratio")))]
    for name in ("G-Scalar compression", "scalar RF only", "Warped-Compression"):
        rows.append({"workload": "mean", "scheme": name, "status": "pass",
                     "rf": mean(r["rf"] for r in rows if r["scheme"] == name)})
    plot.grouped_bars(os.path.join(res, "gscalar-fig12.png"), rows, "workload", "scheme", "rf",
                      xs=wl + ["mean"], gmean=False,
                      paper={("mean", "G-Scalar compression"): PAPER["rf"],
                             ("mean", "scalar RF only"): PAPER["srf"]},
                      title=f"Fig 12: RF dynamic energy / baseline ({S.size} inputs)",
                      ylabel="RF energy / baseline")


def main(out, res):
    m = table.read_manifest(out)
    rows = table.read_rows(out)
    bad = [r for r in rows if r["status"] != "pass"]
    # a large point that did not finish drops its workload's large rows
    # (named on the page); any other failure stops the page
    dropped = sorted({r["workload"] for r in bad if r["size"] == "large"})
    if bad and all(r["size"] == "large" for r in bad):
        rows = [r for r in rows if not (r["size"] == "large" and r["workload"] in dropped)]
        bad = []
    m["_dropped_large"] = [(r["workload"], r["variant"], r["status"]) for r in
                           table.read_rows(out) if r["size"] == "large" and r["status"] != "pass"]
    if bad:
        sys.exit(f"gscalar: {len(bad)} points did not pass (first: point {bad[0]['point']} "
                 f"{bad[0]['workload']} {bad[0]['variant']}: {bad[0]['status']}): no page "
                 "from an incomplete sweep")
    sizes = sorted({r["size"] for r in rows}, key=lambda s: ORDER.get(s, 9))
    by = {s: Sweep(rows, s) for s in sizes}
    # the figures' size: the largest at which every variant of the headline ran
    fsize = [s for s in sizes if by[s].has(*KEY)][-1]
    os.makedirs(res, exist_ok=True)
    plots(res, by[fsize])
    paper_figure(res, by, fsize)
    write_page(os.path.join(res, "gscalar.md"), m, rows, by, sizes, fsize)


def causes(S, F, small):
    """The "why ours differ" bullets, every number from the sweep."""
    wl, L = S.wl, []
    tot = lambda var, k: sum(S.v(w, var, k) for w in wl)   # noqa: E731
    e_base = tot(BASE, "gscalar.energy.total")
    rf_lane = tot(BASE, "gscalar.energy.rf") + tot(BASE, "gscalar.energy.exec")
    static = tot(BASE, "energy.static")
    saved = (tot(GS0, "gscalar.energy.total_base") - tot(GS0, "gscalar.energy.total")) / \
        tot(GS0, "gscalar.energy.total_base")
    sfu_el = round(sum(S.v(w, GS, "gscalar.eligible_frac.sfu") * S.v(w, GS, "gscalar.insts")
                       for w in wl))
    cyc0 = tot(GS0, "cycles") / tot(BASE, "cycles") - 1
    cyc = tot(GS, "cycles") / tot(BASE, "cycles") - 1
    lat_w = sorted(wl, key=lambda w: S.v(w, GS, "ipc") / S.v(w, GS0, "ipc"))[:3]
    L.append(f"* **Fig 11, IPC/W.** The register file and the lanes are "
             f"{100 * rf_lane / e_base:.0f}% of the baseline's chip energy in this sweep "
             f"(GPUWattch's GTX480: 40%, the paper's section 1); leakage and constant power "
             f"are {100 * static / e_base:.0f}%. The RF and lane energy G-Scalar saves is "
             f"{100 * saved:.1f}% of the chip energy of its runs; the rest of its IPC/W "
             f"change is time, charged static power: without the latency G-Scalar takes "
             f"{pct(cyc0)} cycles against the baseline (suite sum"
             + ("; scalar instructions hold their pipelines for fewer cycles" if cyc0 < 0 else "")
             + f"), IPC/W {pct(F['ipcw_gs0'] - 1)}; with the 3-cycle "
             f"latency {pct(cyc)} cycles, IPC/W {pct(F['ipcw_gs'] - 1)}. A single "
             f"constant per busy SM-cycle instead of the chip model gives {pct(F['old_gs'] - 1)} "
             "on the same counts"
             + (f", the chip model's constants before it followed GPUWattch on every component "
                f"{pct(F['prev'][tuple(p for p, _ in PREV_PARTS)][0] - 1)}"
                if "prev" in F else "") + " (ablation below).")
    leak = sum(S.leak(w, BASE) for w in wl)
    insts = tot(BASE, "warp_insts")
    rate = insts / (tot(BASE, "cycles") * PEAK_ISSUE)
    wrate = mean(S.v(w, BASE, "warp_insts") / (S.v(w, BASE, "cycles") * PEAK_ISSUE) for w in wl)
    clock = tot(BASE, "cycles") / tot(BASE, "power.seconds")
    per_inst = rf_lane / insts
    need = BP_RF_LANE_W / (per_inst * PEAK_ISSUE * clock)
    L.append(f"* **Static share against GPUWattch.** Our constant power is GPUWattch's (11 W "
             "for the chip, 1.59 W per SM without an active CTA, none per busy SM) and our "
             "leakage McPAT's for GPUWattch's GTX480 configuration (docs/energy.md \"Static "
             "power\"), but GPUWattch, the tool behind the paper's IPC/W (section 5), reports "
             "runtime power without leakage: GPGPU-Sim's gpgpu_sim_wrapper.cc sums the "
             "per-event components and those two constant terms, and McPAT's leakage is "
             f"printed apart. Leakage is {100 * leak / e_base:.0f}% of our baseline's chip "
             f"energy; without it the static share is {100 * (static - leak) / (e_base - leak):.0f}% "
             f"and G-Scalar's IPC/W is {pct(F['nl_gs'] - 1)} against the baseline, "
             f"{pct(F['nl_gs'] / F['nl_alu_srf'] - 1)} against ALU scalar with its scalar RF. "
             f"The rest is activity: the baseline issues {100 * rate:.1f}% of the chip's peak of "
             f"{PEAK_ISSUE} warp instructions per cycle (suite sum; {100 * wrate:.1f}% per-workload "
             f"mean) and spends {1e9 * per_inst:.2f} nJ of RF and lane energy per warp "
             "instruction; the paper's BP, over 100 W with over half in the execution units and "
             f"register files (section 5.3), needs at least {BP_RF_LANE_W:.0f} W of it: "
             f"{100 * need:.0f}% of peak issue at our energy per instruction.")
    # the same cause across workloads: IPC/W by the baseline's issue rate
    wr = {w: S.v(w, BASE, "warp_insts") / (S.v(w, BASE, "cycles") * PEAK_ISSUE) for w in wl}
    srt = sorted(wl, key=lambda w: -wr[w])
    q = max(1, len(wl) // 4)
    if len(wl) > q:
        grp = [("top", srt[:q]), ("rest", srt[q:])]
        share = lambda ws: (sum(S.v(w, BASE, "gscalar.energy.rf") +   # noqa: E731
                                S.v(w, BASE, "gscalar.energy.exec") for w in ws) /
                            sum(S.v(w, BASE, "gscalar.energy.total") for w in ws))
        gi = {k: (mean(wr[w] for w in ws), gmean(S.ipcw(w, GS) / S.ipcw(w, BASE) for w in ws),
                  gmean(S.ipcw(w, GS0) / S.ipcw(w, BASE) for w in ws), share(ws))
              for k, ws in grp}
        L.append(f"* **Fig 11 by issue rate.** The {q} workloads whose baseline issues most "
                 f"({', '.join(srt[:q])}; {100 * gi['top'][0]:.0f}% of peak on average) gain "
                 f"{pct(gi['top'][1] - 1)} IPC/W under G-Scalar ({pct(gi['top'][2] - 1)} "
                 f"without the latency); the other {len(wl) - q} ({100 * gi['rest'][0]:.0f}% of "
                 f"peak) {pct(gi['rest'][1] - 1)} ({pct(gi['rest'][2] - 1)}). The register "
                 f"file and lanes are {100 * gi['top'][3]:.1f}% of the first group's baseline "
                 f"energy and {100 * gi['rest'][3]:.1f}% of the others': the closer a workload "
                 "runs to the peak, the more of its energy is what G-Scalar saves.")
    if "ipcw_nodiv" in F:
        L.append(f"* **Fig 11, G-Scalar w/o divergent** (ALU, SFU and MEM scalar, no half- or "
                 f"divergent-scalar; the text gives no figure for this bar): "
                 f"{pct(F['ipcw_nodiv'] - 1)} against the baseline "
                 f"({pct(F['nl_nodiv'] - 1)} without leakage), against G-Scalar's "
                 f"{pct(F['ipcw_gs'] - 1)}: the divergent- and half-scalar classes add "
                 f"{100 * (F['elig']['half'] + F['elig']['div']):.1f}% of the warp instructions.")
    if "lanes" in F:
        ln = dict(F["lanes"])
        idle = ln.pop("_idle", None)
        lb = sum(b for b, _ in ln.values())
        lg_ = sum(g for _, g in ln.values())
        grp = {"integer ALU": ("ialu",), "32-bit integer multiply (GPUWattch's SFU counter)":
               ("imul32",), "float add, mul, mad": ("fpu", "fmul"),
               "SFU (transcendentals, divides)": SFU_CLASSES,
               "other integer multiplies": ("imul", "imul24"), "MEM address": ("mem",)}
        parts = ", ".join(f"{k} {100 * sum(ln[c][0] for c in cs) / lb:.0f}%"
                          for k, cs in grp.items() if lb)
        sw = [w for w in wl if S.sfu_share(w) > 0]
        top = max(sw, key=S.sfu_share) if sw else None
        sfu_tot = sum(ln[c][0] for c in SFU_CLASSES) / e_base
        L.append(f"* **Lanes by opcode class** (GPUWattch's energies, docs/energy.md "
                 f"\"Lanes\"). The baseline's lanes cost {1e3 * lb:.3g} mJ in all, "
                 f"{100 * lb / e_base:.1f}% of its chip energy: {parts}. G-Scalar's scalar "
                 f"execution removes {100 * (1 - lg_ / lb):.0f}% of it "
                 f"({100 * (lb - lg_) / e_base:.1f}% of the baseline's chip energy)"
                 + (f"; GPUWattch's charge for inactive lanes (docs/energy.md \"Inactive "
                    f"lanes\") is {100 * idle[0] / lb:.0f}% of the baseline's lane energy and "
                    f"{100 * idle[1] / lg_:.0f}% of G-Scalar's, which runs scalar instructions "
                    "with the other lanes clock-gated" if idle and lb and lg_ else "")
                 + ". The paper's "
                 "BP spends over 25% of the GPU's power in the SFUs with 14% of its "
                 "instructions SFU ones (section 5.3); here SFU-class lanes are "
                 f"{100 * sfu_tot:.2f}% of the suite's baseline energy"
                 + (f", {100 * S.sfu_share(top):.1f}% in {top}, the workload where they "
                    "weigh most" if top else "") + ".")
    L.append(f"* **Fig 11 vs ALU scalar.** With the scalar register file of the paper's [3] "
             f"the ALU-scalar point is {pct(F['ipcw_alu_srf'] - 1)} over the baseline "
             f"(without it {pct(F['ipcw_alu'] - 1)}); G-Scalar over it: "
             f"{pct(F['ipcw_gs'] / F['ipcw_alu_srf'] - 1)} (paper {pct(PAPER['ipcw_alu'] - 1, 0)}).")
    L.append(f"* **The latency's IPC cost** is {100 * F['lat']:.1f}% here (paper 1.7%); "
             f"the three workloads it costs most: " + ", ".join(
                 f"{w} {100 * (1 - S.v(w, GS, 'ipc') / S.v(w, GS0, 'ipc')):.1f}%" for w in lat_w)
             + (f"; at small inputs it is {100 * small['lat']:.1f}% (fewer warps per SM hide "
                "less of it)" if small and "lat" in small and S.size != "small" else "")
             + ".")
    # the SFU pipeline's lane operations by energy class: transcendentals and
    # divides, and (3.2.2's opcode table, opcode_timing = class3) integer
    # multiplies; which workloads issue transcendentals at all
    has_cls = S.has_metric(*(f"gscalar.base_class_ops.{c}" for c in SFU_CLASSES))
    trans = (lambda w: sum(S.v(w, BASE, f"gscalar.base_class_ops.{c}") for c in SFU_CLASSES)) \
        if has_cls else (lambda w: S.v(w, BASE, "gscalar.base_lane_ops.sfu"))
    trans_w = [w for w in wl if trans(w) > 0]
    sfu_ops = sum(S.v(w, BASE, "gscalar.base_lane_ops.sfu") for w in wl)
    tr_ops = sum(trans(w) for w in wl)
    mix = (f" The SFU pipeline also runs what the configured opcode table sends it "
           f"(opcode_timing = {MACHINE.get('opcode_timing', 'unit')}; GPGPU-Sim 3.2.2 issues "
           f"32-bit integer multiplies and mads there, cuda-sim.cc lines 684 and 706): "
           f"{100 * (1 - tr_ops / sfu_ops):.0f}% of its lane operations here are not "
           "transcendentals or divides, so Fig 9's SFU class holds scalar integer multiplies "
           "too." if has_cls and sfu_ops and tr_ops < sfu_ops else "")
    bp = ("our backprop issues none" if "backprop" in wl and not trans("backprop") else
          f"our backprop issues {trans('backprop'):.0f} transcendental lane operations"
          if "backprop" in wl else "backprop is not in this sweep")
    why = (f"{100 * F['elig']['sfu']:.2g}% of all warp instructions (suite mean) are "
           "eligible in the SFU class. Transcendentals (sin, cos, ex2, lg2, sqrt, rsqrt, rcp, "
           f"divides) appear in {len(trans_w)} of {len(wl)} workloads ("
           + (", ".join(trans_w) or "none") + "); the classifier's SFU rule is exercised by "
           "tests/unit/test_gscalar_exec.c (an ex2 with scalar sources is classified SFU). The "
           "paper's BP computes 2.0 to the n-th power with n uniform; " + bp + ": the class "
           "is small because few of our workloads issue transcendentals." + mix)
    # Fig 9's totals against the scalar share of operand reads (Fig 8)
    if S.has(RF) and S.has(GS):
        sc = {w: S.v(w, RF, "gscalar.read_cat.scalar") / max(1, S.v(w, RF, "gscalar.reads"))
              for w in wl}
        hi = [w for w in wl if sc[w] >= PAPER["cats"][0] / 100]
        lo = [w for w in wl if w not in hi]
        el = lambda ws: mean(sum(S.v(w, GS, f"gscalar.eligible_frac.{c}")   # noqa: E731
                                 for c in ELIG) for w in ws)
        rd = lambda ws: mean(sc[w] for w in ws)   # noqa: E731
        follows = bool(hi and lo) and el(hi) > el(lo)
        L.append(f"* **Fig 9, eligible instructions** ({100 * F['all']:.1f}% under G-Scalar, "
                 f"paper 40%; ALU scalar {100 * F['alu']:.1f}%, paper 22%). An instruction is "
                 "eligible only when every source is scalar (over its active lanes, or per "
                 "half); our operand reads are "
                 f"{100 * F['cats']['scalar']:.0f}% scalar (Fig 8; the paper's 36%). The "
                 f"{len(hi)} workloads with at least 36% scalar reads "
                 f"({100 * rd(hi) if hi else 0:.0f}% on average) have "
                 f"{100 * el(hi) if hi else 0:.1f}% of their warp instructions eligible, the "
                 f"other {len(lo)} ({100 * rd(lo) if lo else 0:.0f}% scalar reads) "
                 f"{100 * el(lo) if lo else 0:.1f}%: "
                 + ("eligibility follows the scalar share of the operands, which is the "
                    "programs', so the gap to the paper is our suite's operands." if follows else
                    "eligibility does not follow the scalar share of reads here, so the "
                    "suite's operand mix alone does not explain the gap; the per-workload "
                    "table below has each workload's classes."))
    L.append(f"* **Fig 9, SFU class.** {sfu_el} warp instructions of the SFU pipeline are "
             f"eligible: {why}")
    c = F["cats"]
    L.append(f"* **Fig 12.** Compression leaves {100 * F['rf']:.0f}% of the RF energy "
             f"(paper 46%), the scalar RF alone {100 * F['srf']:.0f}% (paper 63%): our "
             f"reads are {100 * c['scalar']:.0f}% scalar and {100 * c['divergent']:.0f}% "
             f"divergent (read in full) against the paper's 36% scalar. Warped-Compression "
             f"(BDI in the bank's arrays, base included; the paper shows it above G-Scalar "
             f"without a figure in the text) leaves {100 * F['wc']:.0f}%: per operand read it "
             f"activates {tot(RF, 'gscalar.wc_arrays_read') / tot(RF, 'gscalar.reads'):.2f} "
             f"arrays against G-Scalar's {tot(RF, 'gscalar.arrays_read') / tot(RF, 'gscalar.reads'):.2f} "
             f"plus a BVR access, per write "
             f"{tot(RF, 'gscalar.wc_arrays_written') / tot(RF, 'gscalar.writes'):.2f} against "
             f"{tot(RF, 'gscalar.arrays_written') / tot(RF, 'gscalar.writes'):.2f} (moves "
             f"included: {tot(RF, 'gscalar.wc_moves'):.0f} and {tot(RF, 'gscalar.rmw_moves'):.0f}); "
             f"BDI's compression ratio here is {F['ratio_wc']:.2f} against G-Scalar's "
             f"{F['ratio']:.2f}. These ratios count array activations alike (Fig 12's "
             f"measure); in joules, with GPUWattch's read, write and crossbar energies, "
             f"compression leaves {100 * F['rf_j']:.0f}% of the RF energy.")
    L.append(f"* **Fig 1.** {100 * F['div']:.0f}% of our warp instructions are divergent "
             f"(paper 28%), and {100 * F['div_scalar']:.0f}% of those are divergent-scalar "
             "(paper 45%): our suite is not the paper's 17 Parboil/Rodinia programs.")
    return L


def latency_section(by, sizes, fsize):
    """Where the 3-cycle latency hurts: its IPC cost by warps per SM, the
    dependent-issue stalls it adds, and the same on GPGPU-Sim's pipeline."""
    done = [s for s in sizes if "lat_groups" in by[s].figures()]
    if not done:
        return []
    L = ["", "## The latency's cost", "",
         "The paper adds its 3 cycles (one each to compress a result, to read the encoding bits "
         "and BVR, to decompress an operand: section 5.1) to the latency of every pipeline, and "
         "finds that they \"primarily increase the chance of pipeline stall due to data "
         "dependency\", hidden by \"a large number of active warps\" (section 5.3). Ours add "
         "them at the same place: `gscalar.extra_latency` cycles to the cycle every ALU, SFU "
         "and MEM result (a load's included) becomes readable, without changing issue or a "
         "unit's occupancy (docs/gscalar.md). What differs is how many warps there are to "
         "hide them. Warps per SM below: a launch's threads / 32 over 15 SMs (at most 48), "
         "the warps the SM could hold if every CTA were resident. The SM-cycles the "
         "latency adds (15 x the added cycles, suite sum) are split by what each SM did in "
         "them: no resident warp (`stall.no_warps`: its CTAs done while another SM's "
         "dependent chain runs on) or warps waiting on a source register "
         "(`stall.scoreboard`).", "",
         "| size | warps per SM | workloads | IPC cost | added SM-cycles: no resident warp / "
         "waiting on a register |", "|---|---|---|---|---|"]
    for s in done:
        f = by[s].figures()
        for (lo, hi), ws, cost, nw, sb in f["lat_groups"]:
            rng = f"{lo}-{hi - 1}" if hi <= MAX_WARPS else f"{lo} or more"
            L.append(f"| {s} | {rng} | {len(ws)} | {100 * cost:.1f}% | "
                     f"{100 * nw:.0f}% / {100 * sb:.0f}% |")
    f = by[done[-1]].figures()
    full = [g for g in f["lat_groups"] if g[0][0] >= 8]
    few = [w for g in f["lat_groups"] if g[0][0] < 8 for w in g[1]]
    if full:
        (_, ws, cost, nw, sb) = full[0]
        S = by[done[-1]]
        c_few = 1 - gmean(S.v(w, GS, "ipc") / S.v(w, GS0, "ipc") for w in few) if few else 0
        L += ["", f"At {done[-1]} inputs the cost is {100 * cost:.1f}% on the {len(ws)} "
              f"workloads with 8 or more warps per SM and {100 * c_few:.1f}% on the other "
              f"{len(few)}; where the SMs are full, {100 * sb:.0f}% of the SM-cycles the "
              f"latency adds have warps waiting on a source register (the dependence stalls "
              f"the paper names) and {100 * nw:.0f}% no resident warp (SMs whose CTAs are "
              "done, waiting for the rest of the launch). The paper names one program with "
              "\"an insufficient number of warps to effectively hide latency\" (LC, section "
              f"5.3); our suite at these sizes has {len(few)} of {len(S.wl)} workloads with "
              "fewer than 8 warps per SM."]
    gp = [s for s in done if "lat_lumped" in by[s].figures()]
    if gp:
        L += ["", f"The base pipeline: gtx480-gscalar's stages are pipe_collect = "
              f"{MACHINE.get('pipe_collect', 'lumped')}, pipe_writeback = "
              f"{MACHINE.get('pipe_writeback', 'lumped')} (configs/gtx480-gscalar.conf; "
              "docs/timing-core.md): staged is GPGPU-Sim's operand collector and EX_WB "
              "write-back, where a dependent instruction waits for its producer's collector, "
              "execution and write-back stages; lumped charges bank conflicts as extra start "
              "cycles and makes a result readable after its latency, a shorter distance of "
              "which the same 3 cycles are a larger part. The same runs with lumped stages, "
              "every other key the config's (variants " + ", ".join((LBASE, LALU, LGS0, LGS))
              + "):", "",
              "| size | IPC cost, gtx480-gscalar | IPC cost, lumped stages | "
              "of it at 8 or more warps per SM |", "|---|---|---|---|"]
        for s in gp:
            f = by[s].figures()
            full = [g for g in f["lat_groups_lumped"] if g[0][0] >= 8]
            L.append(f"| {s} | {100 * f['lat']:.1f}% | {100 * f['lat_lumped']:.1f}% | "
                     + (f"{100 * full[0][2]:.1f}% ({len(full[0][1])} workloads)" if full
                        else "-") + " |")
    clk, lanes = MACHINE.get("core_clock_mhz", "?"), MACHINE.get("alu_lanes", "?")
    L += ["", f"Clock: gtx480-gscalar runs its SMs at {clk} MHz with {lanes}-lane ALU "
          "pipelines, and the 3 cycles are cycles of that clock. "
          + ("GPGPU-Sim 3.2.2's GTX480 configuration models the paper's Table 1 machine "
             "(1.4 GHz, 16 lanes) so, warp-wide pipelines at half the clock "
             "(gpgpusim.config: \"the Core clock needs to be divided by 2\"): the only core "
             "clock the paper's simulator had, so 3 cycles added in it are 700 MHz cycles "
             "as well, each two of the 1.4 GHz circuit's (Table 3: \"at 1.4GHz\")."
             if str(clk) == "700" else
             "The paper's Table 1 gives 1.4 GHz and 16 lanes; its Table 3 times the circuit "
             "\"at 1.4GHz\".")]
    return L


def decomposition(by, sizes, fsize):
    """The "IPC/W decomposed" section: per size, the baseline's energy by
    part and its issue rate, and G-Scalar's change of energy per
    instruction by part (Sweep.decompose), every number from the sweep."""
    L = ["", "## IPC/W decomposed", "",
         "Suite sums per size. Baseline columns: its chip energy by part and its issue rate "
         f"against the peak of {PEAK_ISSUE} warp instructions per cycle (suite sum / "
         "per-workload mean). G-Scalar columns: its change of energy per warp instruction "
         "against the baseline's, split into static (leakage and constant power over its "
         "run time), RF + lanes, and the other parts (front end, pipeline registers, caches, "
         "NoC, and the DRAM, "
         "whose background power also grows with the run's time), "
         "each as a share of the baseline's energy per instruction, and the IPC/W this gives "
         "(suite sums, so it differs from the geometric means above).", "",
         "| size | leakage / constant / dynamic | RF share of dynamic | RF + lanes of total "
         "| issue rate vs peak | G-Scalar, no latency: static / RF+lanes / other = IPC/W "
         "| G-Scalar: static / RF+lanes / other = IPC/W |", "|---|---|---|---|---|---|---|"]
    got = {}
    for s in sizes:
        f = by[s].figures()
        if "dec" not in f:
            continue
        d = got[s] = f["dec"]
        b = d[BASE]
        cell = lambda g: (f"{pct(g['d_static'])} / {pct(g['d_rflane'])} / "   # noqa: E731
                          f"{pct(g['d_other'])} = {pct(g['ipcw'] - 1)}")
        L.append(f"| {s} | {100 * b['leak'] / b['e']:.0f}% / "
                 f"{100 * (b['static'] - b['leak']) / b['e']:.0f}% / "
                 f"{100 * b['dyn'] / b['e']:.0f}% | {100 * b['rf'] / b['dyn']:.0f}% | "
                 f"{100 * b['rflane'] / b['e']:.1f}% | {100 * b['rate']:.1f}% / "
                 f"{100 * b['wrate']:.1f}% | {cell(d[GS0])} | {cell(d[GS])} |")
    if fsize in got:
        d = got[fsize]
        b, g = d[BASE], d[GS]
        only = 1 / (1 + g["d_rflane"]) - 1
        L += ["", f"At {fsize} inputs the register file and lanes are "
              f"{100 * b['rflane'] / b['e']:.1f}% of the baseline's energy (GPUWattch's "
              f"GTX480: 40%, the paper's section 1), so even G-Scalar's saving there "
              f"({pct(g['d_rflane'])} of the baseline's energy per instruction) is worth "
              f"{pct(only)} of IPC/W alone; G-Scalar with its 3-cycle latency takes "
              f"{100 * (g['cycles'] / b['cycles'] - 1):+.1f}% cycles (suite sum), and the "
              f"static power over its run is {pct(g['d_static'])}. Static power is "
              f"{100 * b['static'] / b['e']:.0f}% of the baseline's energy at an issue rate of "
              f"{100 * b['rate']:.1f}% of the peak."]
    return L


def paper_figure(res, by, fsize):
    """gscalar-paper.png: every headline figure of the paper beside ours,
    at each size that has it (percent)."""
    items = [("Fig 1 divergent", "div", lambda f: f["div"], PAPER["div"]),
             ("Fig 1 div. scalar", "div_scalar", lambda f: f["div_scalar"],
              PAPER["div_scalar"]),
             ("Fig 8 scalar reads", "cats", lambda f: f["cats"]["scalar"],
              PAPER["cats"][0] / 100),
             ("Fig 9 ALU", "alu", lambda f: f["alu"], PAPER["alu"]),
             ("Fig 9 G-Scalar", "all", lambda f: f["all"], PAPER["all"]),
             ("Fig 11 vs base", "ipcw_gs", lambda f: f["ipcw_gs"] - 1, PAPER["ipcw_base"] - 1),
             ("Fig 11 vs ALU", "ipcw_gs", lambda f: f["ipcw_gs"] / f["ipcw_alu_srf"] - 1,
              PAPER["ipcw_alu"] - 1),
             ("latency cost", "lat", lambda f: f["lat"], PAPER["lat"]),
             ("Fig 12 RF saved", "rf", lambda f: 1 - f["rf"], 1 - PAPER["rf"]),
             ("Fig 12 scalar RF saved", "srf", lambda f: 1 - f["srf"], 1 - PAPER["srf"])]
    rows = [{"figure": name, "size": "paper", "status": "pass", "pct": 100 * pv}
            for name, k, fn, pv in items]
    for s in by:
        f = by[s].figures()
        if not any(k in f for _, k, _, _ in items):
            continue
        # a figure this size lacks (large inputs run only the IPC/W variants)
        # is drawn as no bar
        for name, k, fn, pv in items:
            rows.append({"figure": name, "size": f"ours, {s}", "status": "pass",
                         "pct": 100 * fn(f) if k in f else float("nan")})
    plot.grouped_bars(os.path.join(res, "gscalar-paper.png"), rows, "figure", "size", "pct",
                      xs=[i[0] for i in items], gmean=False,
                      title="The paper's figures beside ours (percent)",
                      ylabel="percent")


def write_page(path, m, rows, by, sizes, fsize):
    S = by[fsize]
    F = S.figures()
    small = by["small"].figures() if "small" in by else None
    wl = S.wl
    # the IPC/W and latency rows also at large inputs when the sweep ran them
    big = by["large"].figures() if "large" in by and fsize != "large" else {}
    lg = lambda fn: f" (large: {fn(big)})" if "ipcw_gs" in big else ""   # noqa: E731
    eq, rvc_mm2, rf_mm2, regs = area(os.path.join(ROOT, "synth", "area-baseline.json"))
    P = rvc_power(S)
    L = ["# G-Scalar: scalar execution, register compression, energy", "",
         "Generated by `make experiments-gscalar` (spec experiments/gscalar.toml, "
         "page and plots experiments/gscalar.py; docs/sweeps.md): do not edit. Timing mode "
         "on gtx480-gscalar (the paper's machine as GPGPU-Sim 3.2.2, the simulator its "
         "section 5.1 names, models it: docs/gscalar.md; the `-lumped` variants are the "
         f"pipeline's ablation), {table.sizes(rows)} inputs, seed 1, {len(wl)} workloads, "
         f"{len(rows)} points; source commit {commit()}, simulator binary sha256 "
         f"{str(m.get('build'))[:12]}. Variants are "
         "SCALAR-cCOMPRESS-lLATENCY: gscalar.scalar off/alu/all/nodiv, gscalar.compress off/on, "
         "gscalar.extra_latency 0/3 (latency only applies with compression); granularity 16 "
         "everywhere. Energy: the chip model of docs/energy.md (GPUWattch's per-access "
         "energies, lanes by opcode class, sourced static constants). Definitions: "
         "docs/gscalar.md.", "",
         f"**The figures are at {fsize} inputs**, the largest size every headline variant "
         f"ran at (sizes in this sweep: {', '.join(sizes)}; "
         + (f"large inputs for the variants of IPC/W and the latency cost, {len(by['large'].wl)} "
            "workloads: section \"Where the figures stop moving\")." if "large" in by else
            "large inputs were not run: the spec lists the sizes).") + "", "",
         f"## Headline: ours vs the paper ({fsize} inputs)", "",
         "| figure | paper | ours |", "|---|---|---|",
         correlate.baseline_row("gtx480-gscalar"),
         f"| Fig 1: divergent instructions / divergent-scalar among them | 28% / 45% | "
         f"{100 * F['div']:.1f}% / {100 * F['div_scalar']:.1f}% |",
         f"| Fig 9: eligible, ALU scalar | 22% | {100 * F['alu']:.1f}% |",
         f"| Fig 9: eligible, G-Scalar (ALU+SFU+MEM+half+divergent) | 40% | "
         f"{100 * F['all']:.1f}% |",
         "| Fig 9: SFU / MEM / half / divergent atop ALU | 7 / 2 / 9% (SFU+MEM, half, div) | "
         + " / ".join(f"{100 * F['elig'][c]:.1f}" for c in ELIG[1:]) + "% |",
         f"| Fig 11: IPC/W, G-Scalar vs baseline (gmean) | +24% | {pct(F['ipcw_gs'] - 1)}"
         + lg(lambda f: pct(f['ipcw_gs'] - 1)) + " |",
         f"| Fig 11: IPC/W, G-Scalar vs ALU scalar with scalar RF (gmean) | +15% | "
         f"{pct(F['ipcw_gs'] / F['ipcw_alu_srf'] - 1)}"
         + lg(lambda f: pct(f['ipcw_gs'] / f['ipcw_alu_srf'] - 1)) + " |",
         f"| Fig 11 with GPUWattch's reported power (no leakage): vs baseline / vs ALU "
         f"scalar with scalar RF | +24% / +15% | {pct(F['nl_gs'] - 1)} / "
         f"{pct(F['nl_gs'] / F['nl_alu_srf'] - 1)} |",
         (f"| Fig 11: IPC/W, G-Scalar w/o divergent vs baseline (gmean) | a bar, no figure in "
          f"the text | {pct(F['ipcw_nodiv'] - 1)} |" if "ipcw_nodiv" in F else
          "| Fig 11: IPC/W, G-Scalar w/o divergent vs baseline | a bar | not in this sweep |"),
         f"| IPC cost of the 3-cycle latency (gmean) | 1.7% | {100 * F['lat']:.1f}%"
         + lg(lambda f: f"{100 * f['lat']:.1f}%")
         + "".join(f"; {100 * g[2]:.1f}% on the {len(g[1])} workloads with 8 or more warps "
                   "per SM" for g in F.get("lat_groups", []) if g[0][0] >= 8)
         + (f"; {100 * F['lat_lumped']:.1f}% with lumped pipeline stages "
            "(section \"The latency's cost\")" if "lat_lumped" in F else "") + " |",
         f"| Fig 12: RF dynamic energy vs baseline | -54% | {pct(F['rf'] - 1)} |",
         f"| Fig 12: scalar RF alone vs baseline | -37% | {pct(F['srf'] - 1)} |",
         f"| Fig 12: Warped-Compression (W-C) vs baseline | above G-Scalar's, no figure in the "
         f"text | {pct(F['wc'] - 1)} |",
         f"| compression ratio, ours vs BDI (mean of workloads) | 2.17 vs 2.13 | "
         f"{F['ratio']:.2f} vs {F['ratio_bdi']:.2f} (BDI as Warped-Compression: "
         f"{F['ratio_wc']:.2f}) |",
         "| Fig 8: scalar / 3-byte / 2-byte / 1-byte reads | 36 / 17 / 4 / 7% | "
         + " / ".join(f"{100 * F['cats'][c]:.0f}" for c in CATS[:4])
         + f"% (divergent {100 * F['cats']['divergent']:.0f}%) |",
         f"| area of 16 decompressors + 4 compressors per SM | 0.16 mm2 (40 nm), 0.7% of "
         f"the SM | {eq:.0f} NAND2 eq = {rvc_mm2:.3f} mm2 at 45 nm; "
         f"{100 * rvc_mm2 / rf_mm2:.0f}% of our RF cell-array estimate |",
         (f"| their power (G-Scalar's runs, mean over the suite) | 0.32 W, 1.6% | "
          f"{1e3 * (P['logic_w'] + P['clk_txn_w']):.1f} mW ({100 * (P['logic_w'] + P['clk_txn_w']) / P['chip_w']:.2f}% of our "
          f"chip's {P['chip_w']:.0f} W) with the registers clocked per transaction; "
          f"{P['clk_all_w'] + P['logic_w']:.2f} W ({100 * (P['clk_all_w'] + P['logic_w']) / P['chip_w']:.1f}%) clocked every cycle "
          "(method below) |" if P else
          "| their power | 0.32 W, 1.6% | not in this sweep (no toggle counts) |"),
         "| Fig 10: half-scalar with 64-thread warps | 5% | not run: `warp_size` takes only "
         "32 (every active mask is a 32-bit word through simt/ and core/), and nvcc's sm_75 "
         "PTX hard-codes 32-thread warps (shfl/vote with full masks): docs/gscalar.md "
         "\"Not modelled yet\" |", "",
         "## Why ours differ (measured in this sweep)", ""]
    L += causes(S, F, small)
    L += ["", f"Area: per SM {N_DECOMP} x rvc_decomp + {N_COMP} x rvc_comp (the paper, section "
          f"5.1) from the committed Yosys figures (synth/area-baseline.json, `make synth`, "
          f"docs/area.md) at the Nangate 45 nm NAND2_X1 area ({NAND2_UM2} um2); the RF "
          f"estimate is the cell array alone: {regs} x 32 bits x {SRAM_BIT_UM2} um2 "
          f"(a 45 nm 6T cell, Mistry et al., IEDM 2007) = {rf_mm2:.3f} mm2, without "
          "decoders, sense amplifiers or the crossbar, so the share is an upper bound of the "
          "RVC's cost relative to the whole register file.", ""]
    if P:
        L += [f"Power: every compressor and decompressor transaction of G-Scalar's runs ({GS}) "
              "counts the port bits (inputs and outputs) that changed since the instance's "
              "previous transaction (`rvc_comp_toggles`, `rvc_decomp_toggles`, docs/gscalar.md "
              f"\"RVC power\"): {100 * P['act']['rvc_comp']:.1f}% of the compressor's "
              f"{P['bits']['rvc_comp']} port bits and {100 * P['act']['rvc_decomp']:.1f}% of the "
              f"decompressor's {P['bits']['rvc_decomp']} change per transaction. That activity, "
              f"taken as every cell's, times the Yosys cell counts ({P['cells']['rvc_comp']} and "
              f"{P['cells']['rvc_decomp']} cells) and {1e15 * E_TRANSITION_J:.2f} fJ per cell-output "
              "transition (half of C V^2: the mean NAND2_X1 input capacitance of Nangate 45 nm, "
              "1.60/1.66 fF, at its typical 1.10 V) gives the logic "
              f"{1e3 * P['logic_w']:.2f} mW; the pipeline registers' clock (two transitions per "
              f"flop per edge, the same load) adds {1e3 * P['clk_txn_w']:.2f} mW when clocked only on "
              f"transactions, {P['clk_all_w']:.2f} W when all {P['flops_chip']} flops of the "
              "chip's RVC blocks are clocked every cycle. A lower bound on each: no wires, no "
              "internal cell power, fan-out one; the paper's 0.32 W is from a commercial 40 nm "
              "library's synthesis report.", ""]
    # sizes
    L += ["## Where the figures stop moving", "",
          "| size | IPC/W G-Scalar vs base | vs ALU scalar + scalar RF | the same without "
          "leakage | latency IPC cost | RF energy | scalar RF | eligible (G-Scalar) |",
          "|---|---|---|---|---|---|---|---|"]
    for s in sizes:
        f = by[s].figures()
        if "ipcw_gs" not in f:
            continue
        opt = lambda k, fmt: fmt(f[k]) if k in f else "-"   # noqa: E731
        L.append(f"| {s} ({len(by[s].wl)} workloads) | {pct(f['ipcw_gs'] - 1)} | "
                 f"{pct(f['ipcw_gs'] / f['ipcw_alu_srf'] - 1)} | {pct(f['nl_gs'] - 1)} / "
                 f"{pct(f['nl_gs'] / f['nl_alu_srf'] - 1)} | {100 * f['lat']:.1f}% | "
                 f"{opt('rf', lambda x: pct(x - 1))} | {opt('srf', lambda x: pct(x - 1))} | "
                 f"{opt('all', lambda x: f'{100 * x:.1f}%')} |")
    gone = m.get("_dropped_large") or []
    if gone:
        L += ["", "Large points that did not finish (their workloads are left out of the large "
              "row): " + "; ".join(f"{w} {v}: {st}" for w, v, st in gone) + "."]
    done = [s for s in sizes if "ipcw_gs" in by[s].figures()]
    if len(done) >= 2:
        a, b = by[done[-2]].figures(), by[done[-1]].figures()
        d_ipcw = 100 * (b["ipcw_gs"] - a["ipcw_gs"])
        d_lat = 100 * (b["lat"] - a["lat"])
        settled = abs(d_ipcw) <= 1 and abs(d_lat) <= 1
        L += ["", f"From {done[-2]} to {done[-1]} inputs G-Scalar's IPC/W against the baseline "
              f"moves by {d_ipcw:+.1f} points and the latency's IPC cost by {d_lat:+.1f}: "
              + ("settled within a point." if settled else
                 "they have not stopped moving (the direction is that of more warps per SM "
                 "hiding the latency)" + ("." if done[-1] == "large" else
                                         "; large inputs are not in this sweep."))]
    L += latency_section(by, sizes, fsize)
    L += decomposition(by, sizes, fsize)
    ALLP = tuple(p for p, _ in PREV_PARTS)
    L += ["", "## Ablation", "",
          "Suite geometric means at "
          f"{fsize} inputs unless stated. The energy rows recompute each point's energy "
          "from its event counts with the former constant or rule named (\"this model but "
          "...\": that one alone reverted; the ALU-scalar column with its scalar RF); from "
          "\"this model\" on, each row changes one thing against the row above.", "",
          "| configuration | IPC/W G-Scalar vs base | vs ALU scalar |", "|---|---|---|",
          f"| former single-constant energy model (E_v per RF access, lane and busy "
          f"SM-cycle), ALU scalar without scalar RF | "
          f"{pct(F['old_gs'] - 1)} | {pct(F['old_gs'] / F['old_alu'] - 1)} |",
          ] + ([
          f"| chip model with all five former constants and rules below (the model before "
          f"it followed GPUWattch 3.2.2 on every component), ALU scalar with scalar RF | "
          f"{pct(F['prev'][ALLP][0] - 1)} | {pct(F['prev'][ALLP][0] / F['prev'][ALLP][1] - 1)} |"]
          + [f"| this model but {txt} | {pct(F['prev'][(p,)][0] - 1)} | "
             f"{pct(F['prev'][(p,)][0] / F['prev'][(p,)][1] - 1)} |" for p, txt in PREV_PARTS]
          if "prev" in F else []) + [
          f"| this model: GPUWattch's per-event energies and rules (docs/energy.md), as the "
          f"sweep ran, ALU scalar without scalar RF | {pct(F['ipcw_gs'] - 1)} | "
          f"{pct(F['ipcw_gs'] / F['ipcw_alu'] - 1)} |",
          f"| + the ALU-scalar point's scalar register file | {pct(F['ipcw_gs'] - 1)} | "
          f"{pct(F['ipcw_gs'] / F['ipcw_alu_srf'] - 1)} |",
          f"| without the 3-cycle latency (its cost) | {pct(F['ipcw_gs0'] - 1)} | "
          f"{pct(F['ipcw_gs0'] / F['ipcw_alu_srf'] - 1)} |",
          f"| with the latency, power as GPUWattch reports it (no leakage) | "
          f"{pct(F['nl_gs'] - 1)} | {pct(F['nl_gs'] / F['nl_alu_srf'] - 1)} |"]
    if "lu_gs" in F:
        L.append(f"| with the latency, lumped pipeline stages instead of the config's "
                 f"(the baseline {pct(-F['lu_cyc'] / (1 + F['lu_cyc']))} cycles) | "
                 f"{pct(F['lu_gs'] - 1)} | {pct(F['lu_gs'] / F['lu_alu_srf'] - 1)} |")
    if small and "ipcw_gs" in small and fsize != "small":
        L.append(f"| the same figures at small inputs | "
                 f"{pct(small['ipcw_gs'] - 1)} | "
                 f"{pct(small['ipcw_gs'] / small['ipcw_alu_srf'] - 1)} |")
    if big and "ipcw_gs" in big:
        L.append(f"| the same figures at large inputs | {pct(big['ipcw_gs'] - 1)} | "
                 f"{pct(big['ipcw_gs'] / big['ipcw_alu_srf'] - 1)} |")
    L += ["", "![the paper's figures beside ours](gscalar-paper.png)", "",
          "![Fig 1](gscalar-fig1.png)", "", "![Fig 8](gscalar-fig8.png)", "",
          "![Fig 9](gscalar-fig9.png)", "", "![Fig 11](gscalar-fig11.png)", "",
          "![IPC](gscalar-ipc.png)", "", "![Fig 12](gscalar-fig12.png)", "",
          f"## Per workload ({fsize} inputs)", "",
          f"Eligible fractions under G-Scalar ({GS}); compression ratio and RF energy with "
          f"compression alone ({RF}); IPC/W normalised to {BASE} (ALU scalar with its "
          "scalar RF).", ""]
    head = ["workload", "div", "ALU", "SFU", "MEM", "half", "div-sc", "ratio ours",
            "ratio BDI", "RF energy", "scalar RF", "IPC/W ALU", f"IPC/W {GS0}",
            f"IPC/W {GS}", "IPC l3/l0"]
    L += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for w in wl:
        b = S.ipcw(w, BASE)
        cells = [w, f"{S.v(w, BASE, 'gscalar.div_frac'):.3f}"]
        cells += [f"{S.v(w, GS, f'gscalar.eligible_frac.{c}'):.3f}" for c in ELIG]
        cells += [f"{S.v(w, RF, 'gscalar.ratio_gs'):.2f}",
                  f"{S.v(w, RF, 'gscalar.ratio_bdi_all'):.2f}",
                  f"{S.rfr(w):.2f}",
                  f"{S.v(w, RF, 'gscalar.energy.srf_energy_ratio'):.2f}",
                  f"{S.ipcw(w, ALU, True) / b:.3f}", f"{S.ipcw(w, GS0) / b:.3f}",
                  f"{S.ipcw(w, GS) / b:.3f}", f"{S.v(w, GS, 'ipc') / S.v(w, GS0, 'ipc'):.3f}"]
        L.append("| " + " | ".join(cells) + " |")
    L += ["", "Rerun: `make experiments-gscalar` (cached; `SWEEP_FLAGS=--force` reruns "
          "all). The merged table is build/experiments/gscalar/results.csv.", ""]
    doc = progpage.load(os.path.join(os.path.dirname(path), "gscalar-programs.json"))
    if doc:
        L += progpage.wrap("gscalar", programs_section(doc)) + [""]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(L))


# --- the papers' programs (make programs-gscalar, docs/suites.md) ---------
# G-Scalar's Table 2: (abbreviation, our built-in workload of that name)
TABLE2 = [("BT", "bptree"), ("BP", "backprop"), ("HW", None), ("HS", "hotspot"),
          ("LC", None), ("PF", "pathfinder"), ("SR1", "srad"), ("SR2", "srad"),
          ("CC", None), ("LBM", "lbm"), ("MG", None), ("MQ", "mri-q"), ("SAD", None),
          ("MM", None), ("MV", None), ("ST", "stencil3d"), ("ACF", None)]


def gs_measures(rows, w):
    """The headline measures of one workload or program ({} when a point
    it needs did not pass)."""
    def r(var):
        x = rows.get((w, var))
        return x if x and x["status"] == "pass" else None
    g, b, a, g0, rf = r(GS), r(BASE), r(ALU), r(GS0), r(RF)
    if not all((g, b, a, g0, rf)):
        return {}
    return {"alu": g["gscalar.eligible_frac.alu"],
            "all": sum(g[f"gscalar.eligible_frac.{c}"] for c in ELIG),
            "ratio": rf["gscalar.ratio_gs"], "bdi": rf["gscalar.ratio_bdi_all"],
            "rf": rf["gscalar.rf_energy"] / rf["gscalar.rf_energy_base"],
            "ipcw": g["gscalar.energy.insts_per_energy"] / b["gscalar.energy.insts_per_energy"],
            "ipcw_alu": g["gscalar.energy.insts_per_energy"] /
            a["gscalar.energy.insts_per_energy"],
            "lat": 1 - g["ipc"] / g0["ipc"],
            "scalar_reads": rf["gscalar.read_cat.scalar"] / max(1, rf["gscalar.reads"]),
            "div_reads": rf["gscalar.read_cat.divergent"] / max(1, rf["gscalar.reads"])}


def programs_section(doc):
    """The section's markdown lines from the exported programs sweep."""
    rows = progpage.by(doc)
    labels = {}
    for r in doc["rows"]:
        if r["kind"] == "program":
            for n in progpage.paper_names(r["workload"], ["gscalar2"]):
                labels[n] = r["workload"]
    L = ["", "## The papers' programs: Table 2's benchmarks themselves", "",
         progpage.provenance(doc, "gscalar") + " gtx480-gscalar, timing mode, each "
         "program's small input; our workloads of the same names from the same sweep (small "
         "inputs). Columns as in the table above.", "",
         "| Table 2 | program | ALU | all eligible | ratio ours | RF energy | IPC/W G-Scalar "
         "| IPC l3/l0 || built-in | all eligible | ratio ours | RF energy | IPC/W G-Scalar |",
         "|---|---|---|---|---|---|---|---||---|---|---|---|---|"]
    pm, bm = {}, {}
    for abbr, wl in TABLE2:
        lab = labels.get(abbr)
        m = gs_measures(rows, lab) if lab else {}
        if m:
            pm[abbr] = m
        if wl:
            b = gs_measures(rows, wl)
            if b:
                bm[wl] = b
        b = bm.get(wl, {})
        pc = (f"{lab} | {100 * m['alu']:.1f}% | {100 * m['all']:.1f}% | {m['ratio']:.2f} | "
              f"{m['rf']:.2f} | {m['ipcw']:.3f} | {1 - m['lat']:.3f}") if m else \
            f"{lab or 'not available'} | - | - | - | - | - | -"
        bc = (f"{wl} | {100 * b['all']:.1f}% | {b['ratio']:.2f} | {b['rf']:.2f} | "
              f"{b['ipcw']:.3f}") if b else f"{wl or '-'} | - | - | - | -"
        L.append(f"| {abbr} | {pc} || {bc} |")
    mean_ = lambda d, k: (sum(x[k] for x in d.values()) / len(d)) if d else None   # noqa: E731
    gm_ = lambda d, k: plot.geomean(x[k] for x in d.values()) if d else None     # noqa: E731
    claims = [("Fig 9: eligible, ALU scalar", 0.22, "alu", mean_, "pct"),
              ("Fig 9: eligible, G-Scalar", 0.40, "all", mean_, "pct"),
              ("compression ratio, ours", 2.17, "ratio", mean_, "x"),
              ("Fig 12: RF dynamic energy vs baseline", 0.46, "rf", mean_, "rel"),
              ("Fig 11: IPC/W, G-Scalar vs baseline (gmean)", 1.24, "ipcw", gm_, "rel"),
              ("Fig 11: IPC/W, G-Scalar vs ALU scalar (gmean)", 1.15, "ipcw_alu", gm_, "rel"),
              ("IPC cost of the 3-cycle latency", 0.017, "lat", mean_, "pct")]
    fm = {"pct": lambda x: f"{100 * x:.1f}%", "x": lambda x: f"{x:.2f}",
          "rel": lambda x: f"{100 * (x - 1):+.1f}%"}
    L += ["", "| claim | paper | its programs (ours, mean) | our workloads of those names |",
          "|---|---|---|---|"]
    closer = {"programs": [], "workloads": []}
    for name, paper, k, agg, kind in claims:
        a, b = agg(pm, k), agg(bm, k)
        L.append(f"| {name} | {fm[kind](paper)} | {'-' if a is None else fm[kind](a)} "
                 f"({len(pm)}) | {'-' if b is None else fm[kind](b)} ({len(bm)}) |")
        if a is not None and b is not None:
            closer["programs" if abs(a - paper) < abs(b - paper) else "workloads"].append(name)
    sp, sb = mean_(pm, "scalar_reads"), mean_(bm, "scalar_reads")
    dp, db = mean_(pm, "div_reads"), mean_(bm, "div_reads")
    if sp is not None and sb is not None:
        L += ["", f"**Which is closer to the paper.** The programs on "
              f"{len(closer['programs'])} of {len(claims)} claims "
              f"({'; '.join(closer['programs']) or 'none'}), our workloads on the others. "
              "Eligibility, compression and the register-file energy follow from how often a "
              f"register read is scalar: {100 * sp:.0f}% of reads on the programs against "
              f"{100 * sb:.0f}% on our workloads of those names (the paper's Fig 8: 36%), and "
              f"divergent reads (which G-Scalar handles apart) {100 * dp:.0f}% against "
              f"{100 * db:.0f}%."]
    bad = progpage.status_lines(doc)
    if bad:
        L += ["", "Points that did not pass:", ""] + bad
    miss = [a for a, _ in TABLE2 if a not in labels]
    if miss:
        L += ["", "Table 2's programs without measures of ours:", ""]
        L += progpage.not_run_lines("gscalar2", miss)
    return L + [""]


PROGRAM_FIELDS = ()


def programs_only(out, res):
    """make programs-gscalar: exports the sweep and rewrites the section."""
    doc = progpage.export(out, os.path.join(res, "gscalar-programs.json"), PROGRAM_FIELDS)
    progpage.splice(os.path.join(res, "gscalar.md"), "gscalar", programs_section(doc))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--programs":
        programs_only(sys.argv[2], sys.argv[3])
        sys.exit(0)
    if len(sys.argv) != 3:
        sys.exit("usage: gscalar.py SWEEP_OUT RESULTS_DIR | gscalar.py --programs OUT RESULTS")
    main(sys.argv[1], sys.argv[2])
