#!/usr/bin/env python3
"""Plots and results page of make experiments-memory (experiments/
memory.toml): usage: memory.py SWEEP_OUT RESULTS_DIR.

Writes RESULTS_DIR/memory.md (generated: do not edit) and its PNG plots:
the L1D and L2 sector categories per scheme (Fig 5.7, 5.8), off-chip
traffic normalised to cg_only (Fig 5.9), speedup (Fig 5.12), DRAM power
(Fig 5.13), system Perf/W (Fig 5.14), read-in sectors against FG-only, the
DRAM's energy by bank state and sub-ranking's effect on activates (5.3.1),
the sensitivity of Fig 5.15, BGP's thresholds and the 4K-bit array, traffic
against run length (small/default/large inputs, with a plot), the GDU
answers judged at their lines' end, TLP (Fig 5.16), an ablation table, and
PCA's L1D hit rates and speedup per token count (Fig 6.4, 6.5). Workloads are split into FG- and
CG-leaning by the suite's measured categories (`lockstep list workloads
@fg`, docs/workloads.md); Avg_sec of this sweep's cg_only point is shown
beside. The dissertation's claims stand beside ours; where they differ the
page says why from the statistics."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))

from sweeplib import plot, progpage, table   # noqa: E402
from sweeplib.source import commit_label as commit   # noqa: E402
import correlate   # noqa: E402  (the "baseline correlated" headline row)
import memory_noise   # noqa: E402  (timing noise, default against large inputs)

LAMAR = ["cg_only", "fg_only", "static", "spp", "bgp_inf", "bgp"]
LETTER = {"cg_only": "C", "fg_only": "F", "static": "St", "spp": "S", "bgp_inf": "I", "bgp": "B"}
TOKENS = [0, 2, 4, 8, 12]
PCA_FOCUS = ["bfs", "sssp", "kmeans"]     # Table 6.2's cache-sensitive four, less CoMD
CATS = ["demand", "pred_ref", "pred_nref", "npred_ref"]
# Equation 5.1's terms as Fig 5.13 stacks them (power.dram_energy_j members)
# Table 5.4's #Instr. (thread instructions) of the programs that share a
# name with an FG-leaning workload of ours (BFS1 is LonestarGPU's BFS)
PAPER_INSTR = {"iix": ("IIX", 1.8e9), "sssp": ("SSSP", 1.5e9), "bfs": ("BFS1", 3e9),
               "ssc": ("SSC", 4.9e9), "mum": ("MUM", 149e6), "nw": ("NW", 220e6),
               "mst": ("MST", 5e9)}
DRAM_PARTS = [("background", ("act_stby", "act_pdn", "pre_stby", "pre_pdn")),
              ("refresh", ("refresh",)), ("act_pre", ("act_pre",)),
              ("read", ("rd", "rd_io")), ("write", ("wr", "wr_io"))]


def category(lockstep, cat):
    return subprocess.run([lockstep, "list", "workloads", "@" + cat], check=True,
                          capture_output=True, text=True).stdout.split()


def derive(rows):
    """Adds computed columns and the derived static rows: offchip bytes,
    perf (1 / cycles), and per workload a 'static' copy of the fg_only row
    when cg_only's Avg_sec is at most 2, else of the cg_only row."""
    out = []
    for r in rows:
        r = dict(r)
        if r["status"] == "pass":
            r["offchip"] = r["dram.read_bytes"] + r["dram.write_bytes"]
            r["perf"] = 1e9 / r["cycles"]
            pa, da = r["pca.prio_accesses"], r["pca.deprio_accesses"]
            r["l1_hit"] = 1 - r["l1d.miss_rate"]
            r["prio_hit"] = r["pca.prio_hits"] / pa if pa else None
            r["deprio_hit"] = r["pca.deprio_hits"] / da if da else None
        out.append(r)
    for w in dict.fromkeys(r["workload"] for r in out):
        cg = plot.value(out, "lamar.avg_sec", workload=w, variant="cg_only")
        src = "fg_only" if cg <= 2.0 else "cg_only"
        r = dict(next(x for x in out if x["workload"] == w and x["variant"] == src))
        r["variant"] = "static"
        r["static_from"] = src
        out.append(r)
    for r in out:
        if r["variant"].startswith("pca-"):
            r["tokens"] = int(r["variant"][4:])
    return out


def gmean_ratio(rows, ws, metric, v, base, inverse=False):
    vals = []
    for w in ws:
        a = plot.value(rows, metric, workload=w, variant=v)
        b = plot.value(rows, metric, workload=w, variant=base)
        vals.append((b / a) if inverse else (a / b))
    return plot.geomean(vals)


def pct(x):
    return f"{100 * x:+.1f}%"


def pcn(ratio):
    """A ratio as a change in percent; '- (none under cg_only)' for None."""
    return "- (none under cg_only)" if ratio is None else pct(ratio - 1)


def main(out, res):
    m = table.read_manifest(out)
    raw = table.read_rows(out)
    bad = [r for r in raw if r["status"] != "pass"]
    core = [r for r in bad if r["variant"] in LAMAR or r["variant"].startswith("pca-")]
    if core:
        sys.exit(f"memory: {len(core)} points of the schemes or PCA did not pass (first: point "
                 f"{core[0]['point']} {core[0]['workload']} {core[0]['variant']}: "
                 f"{core[0]['status']}): no page from an incomplete sweep")
    failed = failed_variants(out, bad)
    rows = derive([r for r in raw if r["status"] == "pass"])
    wl = list(dict.fromkeys(r["workload"] for r in rows))
    fg_all, cg_all = category(m["lockstep"], "fg"), category(m["lockstep"], "cg")
    fg = [w for w in fg_all if w in wl]
    cg = [w for w in cg_all if w in wl]
    missing = [w for w in fg_all + cg_all if w not in wl]
    os.makedirs(res, exist_ok=True)
    lam = [r for r in rows if r["variant"] in LAMAR]
    P = lambda name: os.path.join(res, name)   # noqa: E731
    # sector categories, one bar per workload x scheme (FG-leaning workloads)
    for lvl in ("l1d", "l2"):
        sub = []
        for w in fg:
            for v in ["cg_only", "fg_only", "spp", "bgp_inf", "bgp"]:
                r = dict(next(x for x in lam if x["workload"] == w and x["variant"] == v))
                r["wv"] = f"{w} {LETTER[v]}"
                sub.append(r)
        plot.stacked_bars(P(f"memory-sectors-{lvl}.png"), sub, "wv",
                          [f"{lvl}.{c}" for c in CATS], labels=CATS,
                          title=f"Sectors filled into the {lvl.upper()} by category, FG-leaning "
                                "workloads (C/F/S/I/B = cg_only/fg_only/spp/bgp_inf/bgp)",
                          ylabel="sectors")
    traffic = plot.grouped_bars(P("memory-traffic.png"), lam, "workload", "variant", "offchip",
                                baseline="cg_only", xs=fg + cg, groups=LAMAR,
                                title="Off-chip bytes (DRAM read + write), normalised to cg_only",
                                ylabel="bytes / cg_only")
    speed = plot.grouped_bars(P("memory-speedup.png"), lam, "workload", "variant", "perf",
                              baseline="cg_only", xs=fg + cg, groups=LAMAR,
                              title="Speedup over cg_only (cycles of cg_only / cycles)",
                              ylabel="speedup")
    plot.grouped_bars(P("memory-dram-power.png"), lam, "workload", "variant", "power.dram_w",
                      xs=fg + cg, groups=LAMAR, title="Average DRAM power (W)", ylabel="W")
    ppw = plot.grouped_bars(P("memory-perfw.png"), lam, "workload", "variant",
                            "power.perf_per_watt", baseline="cg_only", xs=fg + cg,
                            groups=LAMAR, title="System Perf/W normalised to cg_only",
                            ylabel="Perf/W / cg_only")
    for lvl, fig in (("l1d", "5.10"), ("l2", "5.11")):
        plot.grouped_bars(P(f"memory-{lvl}-miss.png"), lam, "workload", "variant",
                          f"{lvl}.miss_rate", xs=fg + cg, groups=LAMAR, gmean=False,
                          title=f"Fig {fig}: {lvl.upper()} miss rate per scheme",
                          ylabel="miss rate")
    # Fig 5.13: DRAM power by Equation 5.1's component, FG-leaning workloads
    sub = []
    for w in fg:
        for v in ["cg_only", "fg_only", "spp", "bgp_inf", "bgp"]:
            r = dict(next(x for x in lam if x["workload"] == w and x["variant"] == v))
            secs = r.get("power.seconds") or 0
            for name, comps in DRAM_PARTS:
                r[f"w_{name}"] = (sum(r.get(f"power.dram_energy_j.{c}") or 0 for c in comps) / secs
                                  if secs else 0.0)
            r["wv"] = f"{w} {LETTER[v]}"
            sub.append(r)
    plot.stacked_bars(P("memory-dram-parts.png"), sub, "wv",
                      [f"w_{n}" for n, _ in DRAM_PARTS], labels=[n for n, _ in DRAM_PARTS],
                      title="Fig 5.13: DRAM power by component, FG-leaning workloads "
                            "(C/F/S/I/B = cg_only/fg_only/spp/bgp_inf/bgp)", ylabel="W")
    pr = [r for r in rows if r["variant"].startswith("pca-")]
    pca_speed = plot.normalised(pr, "workload", "variant", "perf", "pca-0")
    plot.lines(P("memory-pca-speedup.png"), [dict(r, speedup=pca_speed[r["workload"]][r["variant"]])
                                             for r in pr if r["workload"] in PCA_FOCUS],
               "tokens", "speedup", "workload", axis_values=TOKENS,
               title="PCA: speedup over pca.tokens = 0 (GTO)", ylabel="speedup")
    plot.lines(P("memory-pca-l1.png"), [r for r in pr if r["workload"] in PCA_FOCUS],
               "tokens", "l1_hit", "workload", axis_values=TOKENS,
               title="PCA: L1D hit rate per token count", ylabel="L1D hit rate")
    rl = run_length_plot(P("memory-runlength.png"), rows, fg)
    paper_plot(P("memory-paper.png"), rows, fg, table.sizes(lam))
    lrows, lfg = large_view(rows, fg)
    if lfg:
        paper_plot(P("memory-paper-large.png"), lrows, lfg, table.sizes(lrows))
    write_page(P("memory.md"), m, rows, fg, cg, traffic, speed, ppw, pr, pca_speed, missing, rl,
               failed, pca_headline(out))


def pca_headline(out):
    """pca.md's results beside 6.2.3 (experiments/pca.headline: PCA at its
    best token count over Opt-CTA on Table 6.1's setup, and that page's
    rows beside the dissertation), read from the pca sweep beside this one
    (OUT/../pca, as make experiments-pca and the sweep queue place it);
    None when that sweep is not there or is incomplete."""
    sib = os.path.join(os.path.dirname(os.path.normpath(os.path.abspath(out))), "pca")
    if not os.path.exists(os.path.join(sib, "results.json")):
        return None
    import pca   # noqa: E402  (experiments/pca.py imports this module)
    try:
        return pca.headline(sib)
    except (SystemExit, KeyError, StopIteration, ValueError, TypeError):
        return None   # an incomplete sweep: the page says so


def pca_section(pca_head):
    """Chapter 6's claims beside ours, as pca.md states them from its own
    sweep (Fig 6.3-6.7, the two-token average), with its figures."""
    L = ["## PCA beside the dissertation (chapter 6; from pca.md's sweep)", ""]
    if not pca_head:
        return L + ["pca.md's sweep (experiments/pca.toml) is not beside this one or is "
                    "incomplete, so its rows are not repeated here: see [pca.md](pca.md).", ""]
    return L + ["Table 6.1's setup (GTO, the DRAM without sub-ranks, Opt-CTA the best static "
                "CTA cap); every figure, its causes and the ablation are in [pca.md](pca.md).",
                "", "| claim (6.2.3) | paper | ours |", "|---|---|---|"] + pca_head[1] + [
                "", "![Fig 6.3: IPC per resident-CTA cap](pca-tlp.png)", "",
                "![Fig 6.4: PCA speedup over Opt-CTA](pca-speedup.png)", "",
                "![Fig 6.5: L1D miss rate](pca-l1-miss.png)", "",
                "![Fig 6.6: L1D block reuse](pca-l1-reuse.png)", "",
                "![Fig 6.7: DRAM bandwidth](pca-bandwidth.png)", ""]


def failed_variants(out, bad):
    """{variant: (points that did not pass, the first failure's message)}
    of the side variants (sensitivity, ablation) whose points failed."""
    msgs = {}
    try:
        with open(os.path.join(out, "results.json"), encoding="utf-8") as f:
            for rec in json.load(f).get("failures", []):
                msgs.setdefault(rec.get("point"), rec.get("msg") or rec.get("status"))
    except (OSError, ValueError):
        pass
    out_ = {}
    for r in bad:
        n, msg = out_.get(r["variant"], (0, None))
        out_[r["variant"]] = (n + 1, msg or msgs.get(r["point"]) or r["status"])
    return out_


def fmt(v, n=3):
    return "-" if v is None else f"{v:.{n}f}"


def pct_of(a, b):
    """1 - a/b as a percentage (b = 0: '-')."""
    return f"{100 * (1 - a / b):.1f}%" if b else "-"


def learning(rows, fg):
    """How far each BGP learned (5.2.3): per FG-leaning workload under bgp,
    the GDUs that closed a skew window, windows and refreshes per GDU."""
    V = lambda w, k: plot.value(rows, k, workload=w, variant="bgp")   # noqa: E731
    per = lambda w, lv, k: V(w, f"{lv}.gdu.{k}") / max(V(w, f"{lv}.gdu.units"), 1)  # noqa: E731
    L = ["## How far the predictors learned (bgp, FG-leaning)", "",
         "A BGP clears a bit-array every N insertions (`lamar.bgp_refresh`) and flips its "
         "default only at the end of a skew window of NUM_EVICT evictions (`lamar."
         "bgp_num_evict`; Table 5.2's 512 and 1,000 are the keys' defaults); a GDU that never "
         "closed a window still predicts its reset default, CG. Per workload: cycles, "
         "then per level the GDUs that closed at least one window of those that saw an "
         "eviction, skew windows and refreshes per such GDU, and default flips (docs/"
         "lamar.md \"The sector categories\").", "",
         "| workload | cycles | L1D windowed | windows/GDU | refreshes/GDU | flips | "
         "L2 windowed | windows/GDU | refreshes/GDU | flips |",
         "|---|---|---|---|---|---|---|---|---|---|"]
    for w in fg:
        cells = [w, str(V(w, "cycles"))]
        for lv in ("l1d", "l2"):
            cells += [f"{V(w, lv + '.gdu.units_windowed')}/{V(w, lv + '.gdu.units')}",
                      f"{per(w, lv, 'windows'):.1f}", f"{per(w, lv, 'refreshes'):.1f}",
                      str(V(w, lv + ".gdu.inversions"))]
        L.append("| " + " | ".join(cells) + " |")
    l2none = [w for w in fg if V(w, "l2.gdu.units_windowed") == 0]
    few = [w for w in fg if per(w, "l1d", "windows") < 10]
    L += ["", f"In {len(l2none)} of {len(fg)} FG-leaning workloads no L2 GDU closed a "
          "skew window (" + (", ".join(l2none) or "none") + "): their L2 predictors, "
          "which decide DRAM traffic, never left the CG default. In "
          f"{len(few)} of {len(fg)} the L1D GDUs closed fewer than 10 windows each. "
          "The dissertation's runs are orders of magnitude longer; at these inputs the "
          "predictors are measured before they reach a steady state.", ""]
    return L


def attribution(rows, fg, speed, traffic):
    """Where a speedup comes from: per FG-leaning workload, bgp against cg_only
    in the statistics that a fetch granularity moves."""
    V = lambda w, v, k: plot.value(rows, k, workload=w, variant=v)   # noqa: E731
    rv = lambda w, v, k: V(w, v, k) / V(w, "cg_only", k) if V(w, "cg_only", k) else None  # noqa: E731
    r = lambda w, k: rv(w, "bgp", k)   # noqa: E731
    L = ["## Where the cycles went (FG-leaning, fg_only and bgp / cg_only)", "",
         "Ratios of each scheme's figure to cg_only's: speedup, off-chip bytes, sectors "
         "filled into the L1Ds (each crosses the L2-to-L1 reply path), L2 accesses, "
         "interconnect flits (`energy.noc_flits`), L1D MSHR merges, L1D reservation "
         "failures (a request refused for want of an MSHR, line or queue slot: the SM "
         "retries), and SM-cycles stalled on the memory unit (`stall.mem_wait`); the last "
         "column is mem_wait's share of SM-cycles under cg_only.", "",
         "| workload | scheme | speedup | off-chip | L1D fills | L2 accesses | flits | "
         "MSHR merges | reservation fails | mem_wait | mem_wait share (C) |",
         "|---|---|---|---|---|---|---|---|---|---|---|"]
    for w in fg:
        for v in ("fg_only", "bgp"):
            cells = [w, LETTER[v], fmt(speed[w][v]), fmt(traffic[w][v])]
            cells += [fmt(rv(w, v, k)) for k in ("l1d.sector_fills", "l2.accesses",
                                                 "energy.noc_flits", "l1d.mshr_merges",
                                                 "l1d.reservation_fails", "stall.mem_wait")]
            cells.append(fmt(V(w, "cg_only", "stall.mem_wait") / V(w, "cg_only", "sm_cycles")))
            L.append("| " + " | ".join(cells) + " |")
    onchip = [w for w in fg if speed[w]["bgp"] > 1.05 and abs(traffic[w]["bgp"] - 1) < 0.02]
    L.append("")
    if onchip:
        L += [f"{len(onchip)} of {len(fg)} FG-leaning workloads run more than 5% faster "
              "under bgp with off-chip bytes within 2% of cg_only's (" + ", ".join(
                  f"{w} {pct(speed[w]['bgp'] - 1)}" for w in onchip) + "). For them "
              "the gain is on chip: the L1D filled " + ", ".join(
                  f"{w} {pcn(r(w, 'l1d.sector_fills'))}" for w in onchip)
              + " sectors, and the SM-cycles stalled on the memory unit moved " + ", ".join(
                  f"{w} {pcn(r(w, 'stall.mem_wait'))}" for w in onchip)
              + ": fewer sectors per L1D miss free the L2-to-L1 fill path and the L1D's "
              "MSHRs, which the dissertation's traffic figure (off-chip bytes) does not "
              "see.", ""]
    return L


CTA_CAPS = [1, 2, 4]                         # memory.toml's -ctaK variants


def tlp(rows):
    """Fig 5.16: performance per resident-CTA cap under cg_only and bgp,
    normalised to cg_only at its best cap (Opt); the uncapped run is Max."""
    V = lambda w, v, k: plot.value(rows, k, workload=w, variant=v)   # noqa: E731
    caps = [(f"{c}", f"-cta{c}") for c in CTA_CAPS] + [("max", "")]
    wl = list(dict.fromkeys(r["workload"] for r in rows))
    ws = [w for w in wl if all(w in have(rows, v + suf, [w]) for _, suf in caps
                               for v in ("cg_only", "bgp"))]
    if not ws:
        return []
    L = ["## TLP (Fig 5.16): LAMAR across resident-CTA caps", "",
         "Per workload, performance (1 / cycles) at a cap of 1, 2 and 4 resident CTAs per "
         "SM and uncapped (max), under cg_only and bgp, normalised to cg_only at its "
         "fastest cap (Opt). 5.3.2.5: only IIX, MUM and SCLST of the 20 benefit from "
         "throttling, SSC (the common case) loses with less TLP, and LAMAR stays "
         "effective at the throttled optimum.", "",
         "| workload | Opt cap (C) | " + " | ".join(f"C {c}" for c, _ in caps) + " | "
         + " | ".join(f"B {c}" for c, _ in caps) + " | bgp at Opt / C at Opt |",
         "|---" * (3 + 2 * len(caps)) + "|"]
    for w in ws:
        cyc = {(v, c): V(w, v + suf, "cycles") for c, suf in caps for v in ("cg_only", "bgp")}
        order = [c for c, _ in caps]                 # ties: the most TLP
        opt = min(order, key=lambda c: (cyc[("cg_only", c)], -order.index(c)))
        base = cyc[("cg_only", opt)]
        cells = [w, opt] + [fmt(base / cyc[("cg_only", c)]) for c, _ in caps]
        cells += [fmt(base / cyc[("bgp", c)]) for c, _ in caps]
        cells.append(pct(base / cyc[("bgp", opt)] - 1))
        L.append("| " + " | ".join(cells) + " |")
    return L + [""]


RUNS = [("small", "-small"), ("default", ""), ("large", "-large"), ("xlarge", "-xlarge")]
BASE_RUNS = RUNS[:3]
SIZE_ORDER = [size for size, _ in RUNS]      # every FG-leaning workload that ran at large ran at these


def run_length_plot(path, rows, fg):
    """bgp's off-chip traffic reduction against cg_only per input size, one
    line per FG-leaning workload run at small, default and large, with its
    xlarge point where it ran one."""
    V = lambda w, v, k: plot.value(rows, k, workload=w, variant=v)   # noqa: E731
    data = {}
    for w in fg:
        if not all(w in have(rows, v + suf, [w]) for _, suf in BASE_RUNS
                   for v in ("cg_only", "bgp")):
            continue
        ys = []
        for _, suf in RUNS:
            ran = all(w in have(rows, v + suf, [w]) for v in ("cg_only", "bgp"))
            c = V(w, "cg_only" + suf, "offchip") if ran else 0
            ys.append(1 - V(w, "bgp" + suf, "offchip") / c if c else None)
        if all(y is not None for y in ys[:len(BASE_RUNS)]):
            data[w] = ys
    if not data:
        return False
    plt = plot._plt()
    fig, ax = plt.subplots(figsize=(4.5, 3.2))
    xs = list(range(len(RUNS)))
    marks = "osD^vP<>X*h"
    for i, (w, ys) in enumerate(data.items()):
        pts = [(x, y) for x, y in zip(xs, ys) if y is not None]
        ax.plot([x for x, _ in pts], [y for _, y in pts], marker=marks[i % len(marks)],
                color=plt.get_cmap("tab20")(i % 20), label=w)
    ax.axhline(0.33, linestyle="--", color="grey", linewidth=0.8, label="paper (~0.33)")
    ax.set_xticks(xs)
    ax.set_xticklabels([size for size, _ in RUNS])
    ax.set_xlabel("input")
    ax.set_ylabel("1 - bgp bytes / cg_only bytes")
    ax.set_title("bgp off-chip traffic reduction vs cg_only per input size")
    ax.legend(fontsize=6, ncol=2)
    plot._save(fig, path)
    return True


def run_length(rows, fg):
    """Traffic against run length (the predictors' steady state): the
    FG-leaning workloads at small, default and large inputs under cg_only,
    fg_only (where run) and bgp; per run length the L2 GDUs' skew windows,
    the L2's FG answers, and the traffic and speed of bgp and fg_only."""
    V = lambda w, v, k: plot.value(rows, k, workload=w, variant=v)   # noqa: E731
    ws = [w for w in have(rows, "bgp-large", fg) if w in have(rows, "cg_only-large", fg)]
    if not ws:
        return []
    L = ["## Traffic against run length (FG-leaning)", "",
         "The same workloads at small, default and large inputs (variants `-small`, none, "
         "`-large`), and those whose L2 predictors still learned at large inputs also at "
         "xlarge (`-xlarge`). Per input size: cycles under cg_only, skew windows closed per L2 GDU "
         "and the share of the L2's queries answered FG under bgp (the L2's GDUs decide "
         "what is read from DRAM), bgp's and fg_only's off-chip traffic reduction against "
         "that size's cg_only (fg_only's is the most any predictor could save by fetching "
         "less), and bgp's speedup; and the run's thread instructions (C), the count Table "
         "5.4 gives for the dissertation's runs (#Instr.). 5.3.2.5: BGP about 33%.", "",
         "| workload | size | cycles (C) | thread insts (C) | L2 windows/GDU | L2 FG share | "
         "bgp traffic red. | fg_only traffic red. | bgp speedup |",
         "|---|---|---|---|---|---|---|---|---|"]
    summ = {}
    for w in ws:
        for size, suf in RUNS:
            c, b, f = "cg_only" + suf, "bgp" + suf, "fg_only" + suf
            if w not in have(rows, c, [w]) or w not in have(rows, b, [w]):
                continue
            off_c = V(w, c, "offchip")
            q = V(w, b, "l2.gdu.queries")
            fgr = (f"{100 * (1 - V(w, f, 'offchip') / off_c):.1f}%"
                   if off_c and w in have(rows, f, [w]) else "-")
            L.append(f"| {w} | {size} | {V(w, c, 'cycles')} | {count(optional(rows, 'thread_insts', w, c))} | "
                     f"{V(w, b, 'l2.gdu.windows') / max(V(w, b, 'l2.gdu.units'), 1):.1f} | "
                     f"{100 * V(w, b, 'l2.gdu.fg') / q if q else 0:.1f}% | "
                     f"{pct_of(V(w, b, 'offchip'), off_c)} | {fgr} | "
                     f"{pct(V(w, c, 'cycles') / V(w, b, 'cycles') - 1)} |")
    L += ["", "Geometric means over the " + str(len(ws)) + " workloads that ran at small, "
          "default and large inputs (reduction = 1 - mean of the ratios); the last row takes "
          "each at the largest size it ran (xlarge where it has one):", "",
          "| size | bgp traffic red. | fg_only traffic red. | bgp speedup | L2 windows/GDU "
          "(mean) |", "|---|---|---|---|---|"]
    for size, suf in BASE_RUNS:
        c, b, f = "cg_only" + suf, "bgp" + suf, "fg_only" + suf
        got = [w for w in ws if w in have(rows, c, ws) and w in have(rows, b, ws)
               and V(w, c, "offchip")]
        if not got:
            continue
        tr = 1 - gmean_ratio(rows, got, "offchip", b, c)
        fgot = [w for w in got if w in have(rows, f, got)]
        fr = f"{100 * (1 - gmean_ratio(rows, fgot, 'offchip', f, c)):.1f}%" if fgot else "-"
        sp = gmean_ratio(rows, got, "cycles", b, c, inverse=True)
        win = sum(V(w, b, "l2.gdu.windows") / max(V(w, b, "l2.gdu.units"), 1)
                  for w in got) / len(got)
        summ[size] = tr
        L.append(f"| {size} | {100 * tr:.1f}% | {fr} | {pct(sp - 1)} | {win:.1f} |")
    lm = largest_means(rows, ws)
    if lm:
        tr, fr, sp, win, _ = lm
        summ["largest"] = tr
        L.append(f"| largest each ran | {100 * tr:.1f}% | "
                 f"{'-' if fr is None else f'{100 * fr:.1f}%'} | {pct(sp - 1)} | {win:.1f} |")
    L.append("")
    L += xlarge_notes(rows, lm[4] if lm else [])
    if "default" in summ and "large" in summ:
        grew = summ["large"] > summ["default"] + 0.01
        L += [f"bgp's traffic reduction is {100 * summ['default']:.1f}% at default inputs and "
              f"{100 * summ['large']:.1f}% at large ones" + (
                  ": the longer the run, the more L2 lines end, the more skew windows the "
                  "L2 GDUs close (the windows column), and the more of their answers are FG "
                  "(the FG share column)." if grew else
                  ": it does not grow with run length here.")
              + " iix is not run at large inputs (experiments/memory.toml says why).", ""]
    if "largest" in summ:
        L += [f"With each workload at the largest size it ran, bgp's traffic reduction is "
              f"{100 * summ['largest']:.1f}% (5.3.2.5: about 33%).", ""]
    L += paper_lengths(rows, fg)
    return L


def optional(rows, k, w, v):
    """Metric k of workload w under variant v; None where the sweep did not
    record it (an older spec) or has no such point."""
    r = next((r for r in rows if r["workload"] == w and r["variant"] == v), None)
    return None if r is None else r.get(k)


def count(n):
    """A count as 1.2M, 3.4G; '-' where the sweep did not record it."""
    if n is None:
        return "-"
    for div, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if n >= div:
            return f"{n / div:.{1 if n < 100 * div else 0}f}{unit}"
    return str(n)


def paper_lengths(rows, fg):
    """Our run lengths beside Table 5.4's (#Instr.) for the FG-leaning
    workloads that share a name with its programs: thread instructions
    under cg_only at the largest input each ran."""
    order = {suf: i for i, (_, suf) in enumerate(RUNS)}
    parts = []
    for w in [w for w in fg if w in PAPER_INSTR]:
        got = [(order[suf], size, optional(rows, "thread_insts", w, "cg_only" + suf))
               for size, suf in RUNS if w in have(rows, "cg_only" + suf, [w])]
        got = [g for g in got if g[2]]
        if not got:
            continue
        _, size, n = max(got)
        name, paper = PAPER_INSTR[w]
        parts.append(f"{w} {count(n)} at {size} inputs ({name} {count(paper)}, "
                     f"x{paper / n:.0f})" if paper > n else
                     f"{w} {count(n)} at {size} inputs ({name} {count(paper)})")
    if not parts:
        return []
    return ["**Run length beside the dissertation's.** Thread instructions of our longest run "
            "(cg_only) against Table 5.4's #Instr. of the program of the same name: "
            + ", ".join(parts) + ". The predictors' state after a run depends on how many lines "
            "ended in it (the windows column), which grows with the run.", ""]


def largest_means(rows, ws):
    """With each of ws at the largest size it ran under cg_only and bgp:
    (bgp's traffic reduction, fg_only's or None, bgp's speedup, mean L2
    windows per GDU, the workloads taken at xlarge), geometric means; None
    when none ran at xlarge."""
    V = lambda w, v, k: plot.value(rows, k, workload=w, variant=v)   # noqa: E731
    top = largest_sizes(rows, ws)
    xl = [w for w in top if top[w] == "-xlarge"]
    got = [w for w in top if V(w, "cg_only" + top[w], "offchip")]
    if not xl or not got:
        return None
    ratio = lambda v, w: V(w, v + top[w], "offchip") / V(w, "cg_only" + top[w], "offchip")  # noqa: E731
    fgot = [w for w in got if w in have(rows, "fg_only" + top[w], [w])]
    return (1 - plot.geomean([ratio("bgp", w) for w in got]),
            1 - plot.geomean([ratio("fg_only", w) for w in fgot]) if fgot else None,
            plot.geomean([V(w, "cg_only" + top[w], "cycles") / V(w, "bgp" + top[w], "cycles")
                          for w in got]),
            sum(V(w, "bgp" + top[w], "l2.gdu.windows")
                / max(V(w, "bgp" + top[w], "l2.gdu.units"), 1) for w in got) / len(got),
            xl)


def xlarge_notes(rows, ws):
    """Where the traffic stops moving: per workload run at xlarge (its L2
    predictor still learned at large), bgp's and fg_only's traffic
    reduction at large and xlarge, the L2 GDUs' windows, the L2 FG share,
    the first fetches and the steady-state verdict."""
    if not ws:
        return []
    V = lambda w, v, k: plot.value(rows, k, workload=w, variant=v)   # noqa: E731
    L = ["Past large inputs: the FG-leaning workloads whose L2 predictors had not settled "
         "at large inputs ran again at xlarge (docs/workloads.md \"Sizes\"), where their "
         "footprints exceed the 768 KB L2:", ""]
    for w in ws:
        parts = []
        for size, suf in (("large", "-large"), ("xlarge", "-xlarge")):
            c, b, f = "cg_only" + suf, "bgp" + suf, "fg_only" + suf
            off_c = V(w, c, "offchip")
            red = 1 - V(w, b, "offchip") / off_c if off_c else 0.0
            fr = (1 - V(w, f, "offchip") / off_c if off_c and w in have(rows, f, [w])
                  else None)
            q = V(w, b, "l2.gdu.queries")
            parts.append((size, red, fr, V(w, b, "l2.gdu.windows")
                          / max(V(w, b, "l2.gdu.units"), 1),
                          V(w, b, "l2.gdu.fg") / q if q else 0.0,
                          V(w, b, "l2.gdu.first") / q if q else 0.0,
                          V(w, c, "l2.miss_rate")))
        (_, r0, f0, w0, s0, _, m0), (_, r1, f1, w1, s1, fi1, m1) = parts
        ok, txt = steady(fg_series(rows, w, "bgp-xlarge", "l2"))
        moved = abs(r1 - r0) > 0.01
        fs = lambda x: "-" if x is None else f"{100 * x:.1f}%"   # noqa: E731
        L.append(f"* **{w}**: bgp's traffic reduction {100 * r0:.1f}% at large, "
                 f"{100 * r1:.1f}% at xlarge (fg_only's ceiling {fs(f0)} and {fs(f1)}); "
                 f"cg_only's L2 miss rate {m0:.3f} and {m1:.3f}; the L2 GDUs closed "
                 f"{w0:.1f} and {w1:.1f} skew windows each and answered FG on "
                 f"{100 * s0:.1f}% and {100 * s1:.1f}% of their queries; at xlarge "
                 f"{100 * fi1:.0f}% of the L2's queries were first fetches; steady at xlarge: "
                 f"{txt}. " + ("The traffic still moves with input size; no larger input was "
                                "run, so where it stops is not measured." if moved and not ok
                               else "The traffic stops moving here: " + (
                                   "the predictor settled" if ok else
                                   "it moved less than a point") + (
                                   ", and fg_only, the most any predictor could save, saves "
                                   f"{fs(f1)}." if f1 is not None else ".")))
    return L + [""]


BUCKETS = ["0", "1", "2-3", "4-7", "8-15", "16-31", "32-63", "64-127", "128+"]
MINQ = 500            # a bucket's FG share is shown from this many queries
STEADY = 0.05         # steady: the last two shown buckets' FG shares this close


def fg_series(rows, w, v, lv):
    """The FG share of lv's queries per bucket of skew windows closed before
    them (gdu.q_by_windows / fg_by_windows), None below MINQ queries."""
    out = []
    for b in range(len(BUCKETS)):
        q = plot.value(rows, f"{lv}.gdu.q_by_windows[{b}]", workload=w, variant=v)
        f = plot.value(rows, f"{lv}.gdu.fg_by_windows[{b}]", workload=w, variant=v)
        out.append(f / q if q and q >= MINQ else None)
    return out


def steady(series):
    """(verdict, text) for an FG-share series: steady when the last two
    shown buckets past the first window differ by at most STEADY."""
    shown = [(b, x) for b, x in enumerate(series) if b >= 1 and x is not None]
    if len(shown) < 2:
        return False, "no (fewer than two buckets past the first window)"
    (b1, x1), (b2, x2) = shown[-2], shown[-1]
    d = x2 - x1
    return abs(d) <= STEADY, (f"yes ({x1:.2f} -> {x2:.2f})" if abs(d) <= STEADY
                              else f"no ({x1:.2f} -> {x2:.2f})")


def steady_state(rows, fg):
    """Whether bgp's predictors reached a steady state within each run:
    per FG-leaning workload and input size, the L2's first fetches (no
    address-keyed history) and its FG share by skew windows closed."""
    V = lambda w, v, k: plot.value(rows, k, workload=w, variant=v)   # noqa: E731
    runs = [(size, "bgp" + suf) for size, suf in RUNS[1:]
            if have(rows, "bgp" + suf, fg)]
    if not runs:
        return []
    L = ["## Steady state: FG answers by skew windows closed (bgp, FG-leaning)", "",
         "Each query counts in the bucket of skew windows its GDU had closed before it "
         "(`gdu.q_by_windows`, `gdu.fg_by_windows`: " + ", ".join(BUCKETS) + "); a "
         "predictor in a steady state answers FG at the same rate in its later buckets. "
         f"Shown: the L2's FG share per bucket (buckets under {MINQ} queries as -), steady "
         f"when the last two shown buckets past the first window differ by at most "
         f"{STEADY:.2f}; and the L2's first fetches (`gdu.first`: a line its GDU had never "
         "seen queried or evicted, for which no address-keyed history exists, so BGP "
         "answers its default) with their FG share. The L1D's verdict by the same rule "
         "is in the last column.", "",
         "| workload | size | L2 queries | first fetches | FG of first | L2 FG share by windows "
         "closed (" + " / ".join(BUCKETS) + ") | L2 steady | L1D steady |",
         "|---|---|---|---|---|---|---|---|"]
    summ = {}
    for _, v in runs:
        size = table.sizes([r for r in rows if r["variant"] == v])
        n_st = n = 0
        q_all = first_all = ffg_all = 0
        for w in have(rows, v, fg):
            q = V(w, v, "l2.gdu.queries")
            first, ffg = V(w, v, "l2.gdu.first"), V(w, v, "l2.gdu.first_fg")
            ser = fg_series(rows, w, v, "l2")
            ok, txt = steady(ser)
            ok1, txt1 = steady(fg_series(rows, w, v, "l1d"))
            n += 1
            n_st += ok
            q_all, first_all, ffg_all = q_all + q, first_all + first, ffg_all + ffg
            L.append(f"| {w} | {size} | {q} | {100 * first / q if q else 0:.0f}% | "
                     f"{100 * ffg / first if first else 0:.0f}% | "
                     + " / ".join("-" if x is None else f"{x:.2f}" for x in ser)
                     + f" | {txt} | {txt1} |")
        summ[size] = (n_st, n, first_all / q_all if q_all else 0.0,
                      ffg_all / first_all if first_all else 0.0)
    L.append("")
    for size, (n_st, n, fs, ffs) in summ.items():
        L.append(f"* {size} inputs: the L2 predictors reached a steady state in {n_st} of {n} "
                 f"FG-leaning workloads; {100 * fs:.0f}% of the L2's queries were first "
                 f"fetches, {100 * ffs:.0f}% of those answered FG.")
    L += ["", "A workload not steady at the largest size ran was measured while its L2 "
          "predictor still learned; the dissertation's runs are orders of magnitude longer. "
          "First fetches are the traffic no address-keyed predictor can cut until its "
          "default flips to FG: fg_only answers them FG, bgp by its default.", ""]
    return L


def accuracy(rows, fg, suf=""):
    """The GDUs' answers judged at their lines' end (gdu.*_ended/_wrong):
    per level, the share of FG answers whose line used at least TH_FG
    sectors and of CG answers whose line used fewer, under bgp, and under
    cg_only the share of lines a perfect predictor would have fetched FG."""
    S = lambda v, k: sum(plot.value(rows, k, workload=w, variant=v) for w in fg)   # noqa: E731
    share = lambda a, b: f"{100 * a / b:.1f}%" if b else "-"   # noqa: E731
    L = ["| scheme | level | FG answers judged | FG wrong | CG answers judged | CG wrong | "
         "unused sectors of right CG lines |", "|---|---|---|---|---|---|---|"]
    for v in ("cg_only", "bgp_inf", "bgp"):
        name = v + suf
        if len(have(rows, name, fg)) != len(fg):
            continue
        for lv in ("l1d", "l2"):
            fe, fw = S(name, f"{lv}.gdu.fg_ended"), S(name, f"{lv}.gdu.fg_wrong")
            ce, cw = S(name, f"{lv}.gdu.cg_ended"), S(name, f"{lv}.gdu.cg_wrong")
            L.append(f"| {name} | {lv.upper()} | {fe} | {share(fw, fe)} | {ce} | "
                     f"{share(cw, ce)} | {S(name, f'{lv}.gdu.cg_right_nref')} |")
    return L + [""]


def predictor_section(rows, fg):
    """Predictor accuracy (default inputs and, where run, large)."""
    L = ["## How right the predictions were (FG-leaning, summed)", "",
         "Each line remembers whether the query that allocated it was answered FG or CG; "
         "when its life ends (eviction, or the L1D's kernel-end sweep) it is judged by the "
         "GDU's own rule (TH_FG = 2: fewer used sectors is FG). *FG wrong*: FG answers whose "
         "line used at least TH_FG sectors (each extra sector a second miss: `npred_ref`); "
         "*CG wrong*: CG answers whose line used fewer (fetched sectors unused: "
         "`pred_nref`); the last column counts the unused sectors of CG lines judged "
         "right (`gdu.cg_right_nref`). Under cg_only every answer is CG, so its L1D *CG wrong* is the share "
         "of lines a perfect predictor would have fetched FG (its L2 lines are whole-line "
         "requests of the L1Ds, so they use every sector they fetch). L2 lines still resident at the "
         "end are not judged (docs/lamar.md \"The sector categories\").", ""]
    L += ["Default inputs:", ""] + accuracy(rows, fg)
    wl = [w for w in have(rows, "bgp-large", fg) if w in have(rows, "cg_only-large", fg)]
    if wl:
        L += [f"Large inputs ({len(wl)} workloads):", ""] + accuracy(rows, wl, "-large")
    return L


def l2_resident(rows, fg, v):
    """Of the sectors the L2 fetched on a CG answer and never referenced,
    the share still resident at the end (sector_fills less the four
    categories): never evicted, so no GDU learned from them."""
    S = lambda k: sum(plot.value(rows, k, workload=w, variant=v) for w in fg)   # noqa: E731
    live = S("l2.sector_fills") - sum(S(f"l2.{c}") for c in CATS)
    gone = S("l2.pred_nref")
    return live, gone


SENS = [("baseline", "cg_only", "bgp", "33%"), ("caches x0.25 (Fig 5.15a)", "cg_only-cache-x0.25",
                                                "bgp-cache-x0.25", "37%"),
        ("caches x8 (Fig 5.15a)", "cg_only-cache-x8", "bgp-cache-x8", "17%"),
        ("256-byte L2 blocks (Fig 5.15b)", "cg_only-l2-256B", "bgp-l2-256B", "58%"),
        ("64-byte sectors, no sub-ranks (Fig 5.15c)", "cg_only-sector-64B", "bgp-sector-64B", "20%"),
        ("TH_FG = 3 (5.3.2.5: trends hold for TH_FG < 3)", "cg_only", "bgp-thfg3", "-"),
        ("SKEW_thres 0.5 (trends hold above 0.7)", "cg_only", "bgp-skew50", "-"),
        ("SKEW_thres 0.9", "cg_only", "bgp-skew90", "-"),
        ("large inputs: baseline", "cg_only-large", "bgp-large", "33%"),
        ("large inputs: caches x0.25 (Fig 5.15a)", "cg_only-cache-x0.25-large",
         "bgp-cache-x0.25-large", "37%"),
        ("large inputs: caches x8 (Fig 5.15a)", "cg_only-cache-x8-large",
         "bgp-cache-x8-large", "17%"),
        ("large inputs: 256-byte L2 blocks (Fig 5.15b)", "cg_only-l2-256B-large",
         "bgp-l2-256B-large", "58%"),
        ("large inputs: 64-byte sectors, no sub-ranks (Fig 5.15c)", "cg_only-sector-64B-large",
         "bgp-sector-64B-large", "20%")]
# the configuration whose cg_only a row's right axis normalises to
SENS_BASE = {c: "cg_only-large" for _, c, _, _ in SENS if c.endswith("-large")}


def have(rows, v, ws):
    """The workloads of ws with a passing point of variant v."""
    got = {r["workload"] for r in rows if r["variant"] == v and r["status"] == "pass"}
    return [w for w in ws if w in got]


def readin_ratio(rows, ws, lvl, v):
    """Geometric mean over ws of sectors filled into lvl under v over fg_only's."""
    xs = []
    for w in ws:
        b = plot.value(rows, f"{lvl}.sector_fills", workload=w, variant="fg_only")
        if b:
            xs.append(plot.value(rows, f"{lvl}.sector_fills", workload=w, variant=v) / b)
    return plot.geomean(xs) if xs else None


def readin_pct(rows, ws, lvl, v):
    x = readin_ratio(rows, ws, lvl, v)
    return "-" if x is None else f"{100 * (x - 1):+.0f}%"


def cg_readin_note(rows, cg):
    """Why the CG-leaning read-in differs from 5.3.2.1's: split by Avg_sec
    under cg_only at 3 (of Table 5.4's ten CG-leaning programs only MST is
    below it: a line whose sectors are mostly used costs a CG fetch little)."""
    av = {w: plot.value(rows, "lamar.avg_sec", workload=w, variant="cg_only") for w in cg}
    lo = [w for w in cg if av[w] is not None and av[w] < 3]
    hi = [w for w in cg if av[w] is not None and av[w] >= 3]
    if not lo or not hi:
        return ""
    return (f" ({len(lo)} of {len(cg)} have Avg_sec below 3 under cg_only, where one of Table "
            "5.4's ten CG-leaning programs does (MST 2.39; the others 3.29 to 4.00): those "
            f"{readin_pct(rows, lo, 'l1d', 'cg_only')}"
            f" / {readin_pct(rows, lo, 'l2', 'cg_only')}, the other {len(hi)} "
            f"{readin_pct(rows, hi, 'l1d', 'cg_only')} / {readin_pct(rows, hi, 'l2', 'cg_only')})")


def readin(rows, fg):
    """Fig 5.7 / 5.8's read-in traffic: sectors filled into the L1Ds and the
    L2 per scheme over FG-only's, per FG-leaning workload."""
    V = lambda w, v, k: plot.value(rows, k, workload=w, variant=v)   # noqa: E731
    vs = ("cg_only", "spp", "bgp_inf", "bgp")
    L = ["## Read-in sectors against FG-only (Fig 5.7, 5.8; FG-leaning)", "",
         "Sectors filled into the L1Ds (`l1d.sector_fills`) and into the L2 slices "
         "(`l2.sector_fills`) per scheme over fg_only's (1.000 = as many as FG-only). "
         "5.3.2.1: CG-only reads in 171% / 93% more L1 / L2 sectors than FG-only, SPP 60% / "
         "72%, BGP_inf 20% / 22%, BGP 37% / 47% (harmonic means; ours are geometric "
         "means of the ratios).", "",
         "| workload | " + " | ".join(f"L1 {LETTER[v]}" for v in vs) + " | "
         + " | ".join(f"L2 {LETTER[v]}" for v in vs) + " |", "|---" * (1 + 2 * len(vs)) + "|"]
    for w in fg:
        cells = [w]
        for lv in ("l1d", "l2"):
            b = V(w, "fg_only", f"{lv}.sector_fills")
            cells += [fmt(V(w, v, f"{lv}.sector_fills") / b) if b else "-" for v in vs]
        L.append("| " + " | ".join(cells) + " |")
    g = ["geometric mean"] + [fmt(readin_ratio(rows, fg, lv, v)) for lv in ("l1d", "l2")
                              for v in vs]
    L += ["| " + " | ".join(g) + " |", ""]
    c1, c2 = readin_ratio(rows, fg, "l1d", "cg_only"), readin_ratio(rows, fg, "l2", "cg_only")
    if c1 and c2:
        L += [f"CG-only reads in {100 * (c1 - 1):+.0f}% L1 and {100 * (c2 - 1):+.0f}% L2 sectors "
              "over FG-only here (paper +171% / +93%). The L2's ratio is the L1 requests' "
              "(whole lines under cg_only, the asked sectors under fg_only) filtered by the L2's "
              "hits; the sector categories below split each level's fills by prediction "
              "outcome.", ""]
    S = lambda v, k: sum(V(w, v, k) or 0 for w in fg)   # noqa: E731
    miss = plot.geomean(max(V(w, "cg_only", "l2.miss_rate") or 0, 1e-6) for w in fg)
    b1, b2 = readin_ratio(rows, fg, "l1d", "bgp"), readin_ratio(rows, fg, "l2", "bgp")
    if b1 and b2 and c2 and len(have(rows, "bgp", fg)) == len(fg):
        ce, cw = S("bgp", "l1d.gdu.cg_ended"), S("bgp", "l1d.gdu.cg_wrong")
        q, qf = S("bgp", "l1d.gdu.queries"), S("bgp", "l1d.gdu.fg")
        extra = S("bgp", "l1d.sector_fills") - S("fg_only", "l1d.sector_fills")
        nref = S("bgp", "l1d.pred_nref")
        L += [f"BGP reads in {100 * (b1 - 1):+.0f}% L1 and {100 * (b2 - 1):+.0f}% L2 sectors "
              "over FG-only (paper +37% / +47%). At the L1Ds (summed over the FG-leaning "
              f"workloads) bgp answered CG on {100 * (1 - qf / q):.0f}% of its queries"
              + (f", and {100 * cw / ce:.0f}% of the CG-answered lines that ended used fewer "
                 "than TH_FG sectors (CG wrong by the GDU's own rule)" if ce else "")
              + f"; its L1Ds filled {extra} sectors more than fg_only's, and {nref} sectors "
              "it predicted were never referenced (`l1d.pred_nref`). At the L2, cg_only "
              f"itself reads in only {100 * (c2 - 1):+.0f}% over FG-only (paper +93%), with "
              f"an L2 miss rate of {100 * miss:.1f}% (geometric mean): few L2 lines are "
              "evicted before more of their sectors are asked for, which leaves little for any "
              "scheme's CG answers there to waste.", ""]
    return L


def traffic_gap(rows, fg):
    """The traffic bullet: the FG-only ceiling, the L2's miss rate, where
    cg_only's unneeded L2 sectors were at the end, and the L2's answers."""
    V = lambda w, v, k: plot.value(rows, k, workload=w, variant=v)   # noqa: E731
    S = lambda v, k: sum(V(w, v, k) for w in fg)   # noqa: E731
    ceil = 1 - gmean_ratio(rows, fg, "offchip", "fg_only", "cg_only")
    bgp = 1 - gmean_ratio(rows, fg, "offchip", "bgp", "cg_only")
    miss = plot.geomean(max(V(w, "cg_only", "l2.miss_rate"), 1e-6) for w in fg)
    live, gone = l2_resident(rows, fg, "bgp")
    ce, cw = S("bgp", "l2.gdu.cg_ended"), S("bgp", "l2.gdu.cg_wrong")
    crn = S("bgp", "l2.gdu.cg_right_nref")
    q, fa = S("bgp", "l2.gdu.queries"), S("bgp", "l2.gdu.fg")
    first, ffg = S("bgp", "l2.gdu.first"), S("bgp", "l2.gdu.first_fg")
    return (f"* **Why bgp's traffic reduction is {100 * bgp:.1f}%, not about 33% (measured).** "
            f"(1) The ceiling: fg_only, which fetches only asked-for sectors everywhere, "
            f"cuts FG-leaning traffic by {100 * ceil:.1f}% (geometric mean): the least "
            "traffic of the schemes (5.3.2.1 finds the same), the bound a predictor aims at. "
            f"(2) cg_only's L2 miss rate is {100 * miss:.1f}% (geometric mean)"
            + (": few L2 lines are evicted and fetched again, so the L2 GDUs see few "
               "evictions to learn from (the learning table below). " if miss < 0.1 else ". ")
            + "(3) A GDU learns only from lines whose life ended: of the sectors bgp's L2 "
            "fetched on a CG answer and never referenced, "
            f"{100 * live / (live + gone) if live + gone else 0:.0f}% were still resident at "
            f"the end of the run ({live} resident, {gone} evicted); of the L2 lines fetched "
            f"CG that did end, {100 * cw / ce if ce else 0:.1f}% used fewer than TH_FG "
            "sectors (CG answers a perfect predictor would not give), and "
            f"{100 * crn / gone if gone else 0:.0f}% of the evicted unreferenced sectors "
            "were in lines the rule rightly called CG (at least TH_FG sectors used): a "
            "binary FG/CG answer fetches them whatever the predictor learns. "
            f"(4) So under bgp the L2 GDUs answered FG on {100 * fa / q if q else 0:.1f}% "
            f"of their queries; {100 * first / q if q else 0:.0f}% of those queries were first "
            "fetches (a line the GDU had never seen: no address-keyed history, so the "
            f"default answers; {100 * ffg / first if first else 0:.0f}% FG). The run-length "
            "table below measures the reduction against input size, the steady-state table "
            "whether each predictor stopped learning; the dissertation's runs are far longer "
            "than ours.")


def large_note(rows, fg):
    """The run-length bullet: the headline's FG-leaning rows at large inputs,
    the L2 predictors' windows and steady states there, and what is left."""
    lrows, lfg = large_view(rows, fg)
    if not lfg:
        return ("* **Run length.** The FG-leaning workloads were not run at large inputs "
                "under every scheme; the run-length table below has what was.")
    V = lambda w, v, k: plot.value(lrows, k, workload=w, variant=v)   # noqa: E731
    size = table.sizes(lrows)
    tr = 1 - gmean_ratio(lrows, lfg, "offchip", "bgp", "cg_only")
    ceil = 1 - gmean_ratio(lrows, lfg, "offchip", "fg_only", "cg_only")
    sp = gmean_ratio(lrows, lfg, "cycles", "bgp", "cg_only", inverse=True)
    dtr = 1 - gmean_ratio(rows, lfg, "offchip", "bgp", "cg_only")
    dsize = table.sizes([r for r in rows if r["variant"] == "bgp"])
    q = sum(V(w, "bgp", "l2.gdu.queries") for w in lfg)
    fa = sum(V(w, "bgp", "l2.gdu.fg") for w in lfg)
    first = sum(V(w, "bgp", "l2.gdu.first") for w in lfg)
    win = sum(V(w, "bgp", "l2.gdu.windows") / max(V(w, "bgp", "l2.gdu.units"), 1)
              for w in lfg) / len(lfg)
    st = [w for w in lfg if steady(fg_series(lrows, w, "bgp", "l2"))[0]]
    r2d, r2l = readin_ratio(rows, lfg, "l2", "cg_only"), readin_ratio(lrows, lfg, "l2", "cg_only")
    m2d = plot.geomean(max(V2, 1e-6) for V2 in
                       (plot.value(rows, "l2.miss_rate", workload=w, variant="cg_only") for w in lfg))
    m2l = plot.geomean(max(V(w, "cg_only", "l2.miss_rate"), 1e-6) for w in lfg)
    return (f"* **Run length (the last column).** On the same {len(lfg)} FG-leaning workloads "
            f"bgp cuts off-chip traffic by {100 * dtr:.1f}% at {dsize} inputs and "
            f"{100 * tr:.1f}% at {size} ones (fg_only's ceiling there {100 * ceil:.1f}%), "
            f"with a speedup of {pct(sp - 1)}: its L2 GDUs close {win:.1f} skew windows each "
            f"on average and answer FG on {100 * fa / q if q else 0:.1f}% of their queries. "
            f"Their FG share had settled (\"Steady state\") in {len(st)} of {len(lfg)}"
            + (f" ({', '.join(st)})" if st else "") + f"; {100 * first / q if q else 0:.0f}% of "
            "the L2's queries were first fetches, which bgp answers by its default. "
            + (f"The L2 read-in of CG-only over FG-only is {100 * (r2d - 1):+.0f}% at {dsize} "
               f"inputs and {100 * (r2l - 1):+.0f}% at {size} (paper +93%), cg_only's L2 miss "
               f"rate {100 * m2d:.1f}% and {100 * m2l:.1f}%"
               + (": the more L2 lines are evicted, the fewer stay long enough to collect "
                  "every sector some SM asks for, and the more a whole-line fetch wastes. "
                  if r2l > r2d + 0.02 and m2l > m2d else ". ") if r2d and r2l else "")
            + xlarge_tail(rows, lfg))


def xlarge_tail(rows, lfg):
    """The run-length bullet's last sentence: the xlarge runs, where made."""
    lm = largest_means(rows, lfg)
    if not lm:
        return ("Larger inputs than these exceed the instruction budget of our sizes "
                "(docs/workloads.md), so the dissertation's longer runs are not reproduced.")
    tr, fr, sp, win, xl = lm
    return (f"{', '.join(xl)} ran again at xlarge inputs (\"Traffic against run length\"): "
            f"with each workload at the largest size it ran, bgp cuts off-chip traffic by "
            f"{100 * tr:.1f}%" + (f" (fg_only's ceiling {100 * fr:.1f}%)" if fr is not None
                                  else "") + f" at a speedup of {pct(sp - 1)}, its L2 GDUs "
            f"closing {win:.1f} skew windows each on average; the per-workload notes there "
            "say where the traffic stops moving.")


def dram_ppw_note(rows, fg):
    """The DRAM Perf/W bullet: bgp's gain split into speed and DRAM power,
    and DRAM energy into what traffic moves and what time moves."""
    S = lambda v, k: sum(plot.value(rows, k, workload=w, variant=v) for w in fg)   # noqa: E731
    sp = gmean_ratio(rows, fg, "cycles", "bgp", "cg_only", inverse=True)
    pw = gmean_ratio(rows, fg, "power.dram_w", "bgp", "cg_only")
    dp = gmean_ratio(rows, fg, "power.dram_perf_per_watt", "bgp", "cg_only")
    traf = ("act_pre", "rd", "rd_io", "wr", "wr_io")
    parts = []
    for v in ("cg_only", "bgp"):
        tot = S(v, "power.dram_energy_j.total")
        t = sum(S(v, f"power.dram_energy_j.{c}") for c in traf)
        parts.append((t, tot))
    (tc, ec), (tb, eb) = parts
    return (f"* **DRAM Perf/W (paper BGP +27%; ours {pct(dp - 1)}).** DRAM Perf/W = speed / "
            f"DRAM W: bgp's speedup {pct(sp - 1)} over its DRAM power ratio {pw:.3f} "
            "(geometric means). Activates and bursts (`act_pre`, `rd`, `wr` and their I/O), the "
            f"energy traffic moves, are {100 * tc / ec if ec else 0:.0f}% of cg_only's DRAM "
            f"energy and bgp changes them by {pct(tb / tc - 1) if tc else '-'}; the rest is "
            "background and refresh, which follow run time"
            + (", so with traffic within 5% of cg_only's DRAM Perf/W follows speed."
               if abs(gmean_ratio(rows, fg, "offchip", "bgp", "cg_only") - 1) < 0.05 else "."))


def sys_ppw_note(rows, fg):
    """The system Perf/W and speedup bullet: bgp's Perf/W gain split into
    speed and system power, the DRAM's share of the system power, and where
    the speed came from (L1D fills, memory-unit stalls, DRAM bus use)."""
    sp = gmean_ratio(rows, fg, "cycles", "bgp", "cg_only", inverse=True)
    pw = gmean_ratio(rows, fg, "power.system_w", "bgp", "cg_only")
    pp = gmean_ratio(rows, fg, "power.perf_per_watt", "bgp", "cg_only")
    tr = gmean_ratio(rows, fg, "offchip", "bgp", "cg_only")
    V = lambda w, v, k: plot.value(rows, k, workload=w, variant=v)   # noqa: E731
    S = lambda v, k: sum(V(w, v, k) for w in fg)   # noqa: E731
    sh = sorted(V(w, "cg_only", "power.dram_w") / V(w, "cg_only", "power.system_w")
                for w in fg if V(w, "cg_only", "power.system_w"))
    med = sh[len(sh) // 2] if sh else 0.0
    fills = S("bgp", "l1d.sector_fills") / S("cg_only", "l1d.sector_fills") \
        if S("cg_only", "l1d.sector_fills") else None
    mw = S("bgp", "stall.mem_wait") / S("cg_only", "stall.mem_wait") \
        if S("cg_only", "stall.mem_wait") else None
    peak, secs = dram_peak_bps(), S("cg_only", "power.seconds")
    util = ((S("cg_only", "dram.read_bytes") + S("cg_only", "dram.write_bytes")) / secs / peak
            if peak and secs else None)
    return (f"* **Speed and system Perf/W (paper BGP +12-14% and +17%; ours {pct(sp - 1)} and "
            f"{pct(pp - 1)}).** System Perf/W = speed / system W: bgp's speedup {pct(sp - 1)} "
            f"over its system power ratio {pw:.3f} (geometric means, FG-leaning). The DRAM is "
            f"{100 * med:.0f}% of cg_only's system power (median, FG-leaning)"
            + (", so the DRAM's power change barely moves the system's and system Perf/W "
               "follows speed. " if med < 0.2 else ". ") + "Summed "
            "over the FG-leaning workloads, the sectors bgp filled into the L1Ds moved "
            + (f"{pct(fills - 1)}" if fills else "-")
            + (f" and its SM-cycles stalled on the memory unit {pct(mw - 1)}" if mw else "")
            + f" against cg_only, with off-chip bytes x{tr:.3f} (geometric mean; per workload "
            "in \"Where the cycles went\")"
            + (f"; under cg_only the DRAM data buses are busy {100 * util:.1f}% of the time, "
               "where the dissertation's gains come from \"more efficient utilization of the "
               "off-chip bandwidth\" (5.3.2.2)." if util is not None else "."))


def miss_note(rows, ws):
    """Fig 5.10/5.11: how many workloads fg_only raises the L1D and L2 miss
    rates of, and the largest share of NPRED_REF sectors per level."""
    V = lambda w, v, k: plot.value(rows, k, workload=w, variant=v)   # noqa: E731
    out = []
    for lv, name in (("l1d", "L1D"), ("l2", "L2")):
        up = [w for w in ws if V(w, "fg_only", f"{lv}.miss_rate") > V(w, "cg_only", f"{lv}.miss_rate") + 0.01]
        share = {w: V(w, "fg_only", f"{lv}.npred_ref") / V(w, "fg_only", f"{lv}.sector_fills")
                 for w in ws if V(w, "fg_only", f"{lv}.sector_fills")}
        top = max(share, key=share.get) if share else None
        out.append(f"{name} miss rate up by more than 0.01 in {len(up)} of {len(ws)}"
                   + (f", largest NPRED_REF share {top} {100 * share[top]:.0f}%" if top else ""))
    return "; ".join(out) + " (fg_only vs cg_only)"


def dram_share(rows, ws):
    """DRAM power over system power under cg_only: range and median."""
    xs = sorted(plot.value(rows, "power.dram_w", workload=w, variant="cg_only") /
                plot.value(rows, "power.system_w", workload=w, variant="cg_only") for w in ws
                if plot.value(rows, "power.system_w", workload=w, variant="cg_only"))
    if not xs:
        return "-"
    return (f"{100 * xs[0]:.0f}-{100 * xs[-1]:.0f}% under cg_only (median "
            f"{100 * xs[len(xs) // 2]:.0f}%, {len(xs)} workloads)")


def fg_cg_ppw(ppw, cg):
    """fg_only's system Perf/W against cg_only on the CG-leaning workloads."""
    worse = sorted((w for w in cg if ppw[w]["fg_only"] < 0.95), key=lambda w: ppw[w]["fg_only"])
    return (f"{len(worse)} of {len(cg)} lose more than 5%"
            + (": " + ", ".join(f"{w} {pct(ppw[w]['fg_only'] - 1)}" for w in worse[:5])
               if worse else "") + (" (five worst)" if len(worse) > 5 else ""))


def gtx480_keys():
    """The key = value pairs of configs/gtx480.conf ({} when unreadable)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "configs", "gtx480.conf")
    kv = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                k, _, v = line.split("#")[0].partition("=")
                if v.strip():
                    kv[k.strip()] = v.strip()
    except OSError:
        pass
    return kv


def dram_peak_bps():
    """Peak DRAM data rate of configs/gtx480.conf (bytes/s): partitions x
    dram_bus_bytes per DRAM clock; None when a key is missing."""
    kv = gtx480_keys()
    try:
        return (float(kv["mem_partitions"]) * float(kv["dram_bus_bytes"])
                * float(kv["dram_clock_mhz"]) * 1e6)
    except (KeyError, ValueError):
        return None


def background_note(rows, fg):
    """The DRAM power bullet: background share and power-down time, from
    the statistics."""
    S = lambda v, k: sum(plot.value(rows, k, workload=w, variant=v) for w in fg)   # noqa: E731
    out = []
    for v in ("cg_only", "bgp"):
        tot = S(v, "power.dram_energy_j.total")
        bg = sum(S(v, f"power.dram_energy_j.{c}") for c in ("act_stby", "act_pdn", "pre_stby",
                                                           "pre_pdn", "refresh"))
        ticks = sum(S(v, f"dram.{c}_ticks") for c in ("act_stby", "act_pdn", "pre_stby",
                                                      "pre_pdn"))
        pdn = S(v, "dram.act_pdn_ticks") + S(v, "dram.pre_pdn_ticks")
        out.append(f"{v} {100 * bg / tot:.0f}% of the DRAM energy (sub-ranks powered down "
                   f"{100 * pdn / ticks:.0f}% of the time)" if tot and ticks else f"{v} -")
    peak = dram_peak_bps()
    secs = S("cg_only", "power.seconds")
    util = (S("cg_only", "dram.read_bytes") + S("cg_only", "dram.write_bytes")) / secs / peak \
        if secs and peak else None
    dyn = ("act_pre", "rd", "rd_io", "wr", "wr_io")
    ec = S("cg_only", "power.dram_energy_j.total")
    dc = sum(S("cg_only", f"power.dram_energy_j.{c}") for c in dyn)
    db = sum(S("bgp", f"power.dram_energy_j.{c}") for c in dyn)
    tr = 1 - gmean_ratio(rows, fg, "offchip", "bgp", "cg_only")
    kv = gtx480_keys()
    return ("Summed over the FG-leaning workloads, background and refresh are "
            + "; ".join(out) + ". "
            + (f"Under cg_only the DRAM data buses are busy {100 * util:.1f}% of the time "
               f"(read and write bytes over {peak / 1e9:.1f} GB/s peak, configs/gtx480.conf), "
               "so the sub-ranks idle, and power down, most of the run. " if util is not None else "")
            + f"GDDR5's power-down saves little (IDD3P {kv.get('dram_idd3p', '?')} mA against "
            f"IDD3N {kv.get('dram_idd3n', '?')} mA, configs/gtx480.conf: DRAMsim3's "
            "GDDR5_1Gb_x32 currents, the organisation of the dissertation's Hynix H5GQ1H24AFR, "
            "whose own IDD table we found in no readable public source (docs/lamar.md); "
            "Equation 5.1 has no power-down at all: the ablation's "
            "no-power-down row is its model), so background power follows run time, and a "
            "scheme that runs faster saves background energy whatever its traffic. "
            + (f"Activates and bursts, the energy traffic moves, are {100 * dc / ec:.0f}% of "
               f"cg_only's DRAM energy and bgp changes them by {pct(db / dc - 1)} with its "
               f"{100 * tr:.1f}% traffic reduction: the DRAM power rows follow the traffic row, "
               "whose gap has its own causes (the bullet above)." if ec and dc else ""))


def dram_states(rows, fg):
    """DRAM energy by component and the sub-ranks' time per state, summed
    over the FG-leaning workloads, per scheme."""
    S = lambda v, k: sum(plot.value(rows, k, workload=w, variant=v) for w in fg)   # noqa: E731
    comps = ["act_stby", "act_pdn", "pre_stby", "pre_pdn", "refresh", "act_pre", "rd",
             "rd_io", "wr", "wr_io"]
    L = ["## DRAM energy by component and bank state (5.3.1; FG-leaning, summed)", "",
         "Equation 5.1's components (docs/lamar.md \"DRAM and system power\"), in mJ, "
         "and the share of sub-rank clocks in each state the DRAM model counted (active / "
         "precharged, standby / power-down).", "",
         "| scheme | " + " | ".join(comps) + " | total | W | act stby | act pdn | pre stby | "
         "pre pdn |", "|---" * (len(comps) + 7) + "|"]
    for v in ("cg_only", "fg_only", "spp", "bgp_inf", "bgp"):
        e = [S(v, f"power.dram_energy_j.{c}") for c in comps]
        t = [S(v, f"dram.{c}_ticks") for c in ("act_stby", "act_pdn", "pre_stby", "pre_pdn")]
        secs = S(v, "power.seconds")
        cells = [v] + [f"{1e3 * x:.3f}" for x in e] + [f"{1e3 * sum(e):.3f}",
                                                       f"{sum(e) / secs:.2f}" if secs else "-"]
        cells += [f"{100 * x / sum(t):.1f}%" if sum(t) else "-" for x in t]
        L.append("| " + " | ".join(cells) + " |")
    return L + [""]


def subranking(rows, fg):
    """Sub-ranking's effect on activate power (5.2.1, 5.3.1): the same
    scheme with and without sub-ranks."""
    S = lambda v, k, ws: sum(plot.value(rows, k, workload=w, variant=v) for w in ws)   # noqa: E731
    L = ["## Sub-ranking and activate power (5.2.1, 5.3.1; FG-leaning, summed)", "",
         "The same scheme on the sub-ranked channel (`dram_subranks = 2`: an FG sector is a "
         "32-byte atom on one chip, and an activate opens the row only in the sub-rank it "
         "touches) and without (`-nosr`: every activate opens both chips, an FG sector "
         "moves a 64-byte atom). Activate energy is `act_pre`; chips per activate = "
         "`act_subranks` x chips per sub-rank / `activates`.", "",
         "| scheme | sub-ranks | activates | chips / activate | act_pre mJ | read bytes | "
         "DRAM mJ | DRAM W |", "|---|---|---|---|---|---|---|---|"]
    res = {}
    for v in ("fg_only", "bgp"):
        ws = have(rows, f"{v}-nosr", fg)
        if not ws:
            continue
        for name, sr in ((v, 2), (f"{v}-nosr", 1)):
            acts = S(name, "dram.activates", ws)
            chips = S(name, "dram.act_subranks", ws) * 2 / sr
            e = S(name, "power.dram_energy_j.act_pre", ws)
            tot = S(name, "power.dram_energy_j.total", ws)
            secs = S(name, "power.seconds", ws)
            res[name] = e
            L.append(f"| {v} | {sr} | {acts} | {chips / acts:.2f} | {1e3 * e:.3f} | "
                     f"{S(name, 'dram.read_bytes', ws)} | {1e3 * tot:.3f} | "
                     f"{tot / secs:.2f} |" if acts and secs else f"| {v} | {sr} | - |")
    L.append("")
    for v in ("fg_only", "bgp"):
        if v in res and res.get(f"{v}-nosr"):
            L.append(f"* {v}: sub-ranking changes activate energy by "
                     f"{100 * (res[v] / res[v + '-nosr'] - 1):+.1f}%.")
    return L + [""]


def sensitivity(rows, fg):
    """Fig 5.15's sensitivity and Table 5.2's 4K-bit array: BGP's off-chip
    traffic reduction against each configuration's own CG-only."""
    L = ["## Sensitivity (Fig 5.15, 5.3.2.5; FG-leaning)", "",
         "Per configuration: BGP's off-chip traffic reduction against that configuration's "
         "cg_only (the paper's left axis), that cg_only's traffic against the baseline "
         "cg_only (its right axis, CG-normalised), and BGP's speedup over its cg_only. "
         "Geometric means over the FG-leaning workloads that ran. Three rows change "
         "BGP's thresholds (`lamar.th_fg`, `lamar.bgp_skew_pct`; Table 5.2's 2 and "
         "0.7 are the defaults), for which 5.3.2.5 gives no figure, only that the trends "
         "hold while TH_FG is below 3 and SKEW_thres above 0.7. The last five repeat the "
         "baseline and Fig 5.15's four configurations at large inputs (their right axis "
         "against the large "
         "baseline's cg_only), where the L2 GDUs close skew windows (\"Steady state\").", "",
         "| configuration | BGP traffic reduction (paper) | ours | cg_only traffic / "
         "baseline | BGP speedup | workloads |", "|---|---|---|---|---|---|"]
    for label, c, b, paper in SENS:
        ws = [w for w in have(rows, c, fg) if w in have(rows, b, fg)
              and plot.value(rows, "offchip", workload=w, variant=c)]
        if not ws:
            L.append(f"| {label} | {paper} | not run | - | - | 0 |")
            continue
        red = 1 - gmean_ratio(rows, ws, "offchip", b, c)
        cgn = gmean_ratio(rows, ws, "offchip", c, SENS_BASE.get(c, "cg_only"))
        sp = gmean_ratio(rows, ws, "cycles", b, c, inverse=True)
        L.append(f"| {label} | {paper} | {100 * red:.1f}% | {cgn:.3f} | {pct(sp - 1)} | "
                 f"{len(ws)} |")
    ws = have(rows, "bgp-4Kbit", fg)
    if ws:
        sp = gmean_ratio(rows, ws, "cycles", "bgp-4Kbit", "bgp", inverse=True)
        tr = gmean_ratio(rows, ws, "offchip", "bgp-4Kbit", "bgp")
        best = max(ws, key=lambda w: plot.value(rows, "cycles", workload=w, variant="bgp") /
                   plot.value(rows, "cycles", workload=w, variant="bgp-4Kbit"))
        bsp = (plot.value(rows, "cycles", workload=best, variant="bgp") /
               plot.value(rows, "cycles", workload=best, variant="bgp-4Kbit"))
        L += ["", f"**4K-bit arrays** (`lamar.bgp_bits = 4096`, Table 5.2's 4K bits per BGP "
              "doubled; 5.3.2.5: performance +2% to +7% with a 4K bit-array): speedup over "
              f"the 2K-bit BGP {pct(sp - 1)} (geometric mean, {len(ws)} workloads; best "
              f"{best} {pct(bsp - 1)}), off-chip traffic x{tr:.3f}."]
    ws = [w for w in have(rows, "bgp-4Kbit-large", fg) if w in have(rows, "bgp-large", fg)]
    if ws:
        sp = gmean_ratio(rows, ws, "cycles", "bgp-4Kbit-large", "bgp-large", inverse=True)
        tr = gmean_ratio(rows, ws, "offchip", "bgp-4Kbit-large", "bgp-large")
        best = max(ws, key=lambda w: plot.value(rows, "cycles", workload=w, variant="bgp-large")
                   / plot.value(rows, "cycles", workload=w, variant="bgp-4Kbit-large"))
        bsp = (plot.value(rows, "cycles", workload=best, variant="bgp-large") /
               plot.value(rows, "cycles", workload=best, variant="bgp-4Kbit-large"))
        L += ["", f"At large inputs, where the L2 GDUs refresh their arrays: speedup over the "
              f"2K-bit BGP {pct(sp - 1)} (geometric mean, {len(ws)} workloads; best {best} "
              f"{pct(bsp - 1)}), off-chip traffic x{tr:.3f}."]
    return L + [""]


ABL = [("as shipped: default inputs, GDDR5 currents, power-down", "cg_only", "bgp"),
       ("run length: small inputs", "cg_only-small", "bgp-small"),
       ("run length: large inputs", "cg_only-large", "bgp-large"),
       ("DRAM power model: no power-down", "cg_only-pd-off", "bgp-pd-off"),
       ("DRAM power model: GDDR3 currents, no power-down (the earlier model)",
        "cg_only-gddr3", "bgp-gddr3"),
       ("no sub-ranks: 64-byte sectors and bursts", "cg_only-sector-64B", "bgp-sector-64B"),
       ("4K-bit arrays (bgp only)", "cg_only", "bgp-4Kbit"),
       ("L1D set index: linear instead of gtx480's Fermi hash (l1d_set_index = linear)",
        "cg_only-linear", "bgp-linear")]


def ablation(rows, fg):
    """Each ingredient of the result changed alone: BGP against the same
    setting's cg_only, FG-leaning geometric means."""
    L = ["## Ablation (FG-leaning, bgp against the same setting's cg_only)", "",
         "One change per row from the shipped setting; the paper's figures are in the "
         "headline. No timing fix was made for LAMAR itself (the attribution above traces "
         "bgp's extra speed to the on-chip fill path, which the baseline's correlation "
         "with GPGPU-Sim sets for every row alike), so the rows vary the run length, the "
         "DRAM power model and the configuration. Power-model rows move only the power "
         "columns: the runs are the same.", "",
         "| setting | traffic reduction | speedup | DRAM power reduction | DRAM Perf/W | "
         "system Perf/W | workloads |", "|---|---|---|---|---|---|---|"]
    big = None
    top = largest_sizes(rows, [w for w in have(rows, "bgp-large", fg)
                               if w in have(rows, "cg_only-large", fg)])
    xl = sorted(w for w, suf in top.items() if suf == "-xlarge")
    if xl:
        V = lambda w, v, k: plot.value(rows, k, workload=w, variant=v + top[w])   # noqa: E731
        g = lambda k, inv=False: plot.geomean(   # noqa: E731
            [V(w, "cg_only", k) / V(w, "bgp", k) if inv else V(w, "bgp", k) / V(w, "cg_only", k)
             for w in top])
        big = (f"| run length: each at the largest input it ran (xlarge: {', '.join(xl)}) | "
               f"{100 * (1 - g('offchip')):.1f}% | {pct(g('cycles', True) - 1)} | "
               f"{100 * (1 - g('power.dram_w')):.1f}% | "
               f"{pct(g('power.dram_perf_per_watt') - 1)} | "
               f"{pct(g('power.perf_per_watt') - 1)} | {len(top)} |")
    for label, c, b in ABL:
        ws = [w for w in have(rows, c, fg) if w in have(rows, b, fg)]
        if not ws:
            L.append(f"| {label} | not run | | | | | 0 |")
            continue
        tr = 1 - gmean_ratio(rows, ws, "offchip", b, c)
        sp = gmean_ratio(rows, ws, "cycles", b, c, inverse=True)
        dw = 1 - gmean_ratio(rows, ws, "power.dram_w", b, c)
        dp = gmean_ratio(rows, ws, "power.dram_perf_per_watt", b, c)
        sysp = gmean_ratio(rows, ws, "power.perf_per_watt", b, c)
        L.append(f"| {label} | {100 * tr:.1f}% | {pct(sp - 1)} | {100 * dw:.1f}% | "
                 f"{pct(dp - 1)} | {pct(sysp - 1)} | {len(ws)} |")
        if big and c == "cg_only-large":
            L.append(big)
    return L + [""]


def largest_sizes(rows, ws):
    """Per workload of ws, the variant suffix of the largest input it ran
    under both cg_only and bgp ('-large', '-xlarge', ...)."""
    sufs = [x for _, x in RUNS]
    top = {}
    for w in ws:
        ran = [suf for suf in sufs if w in have(rows, "cg_only" + suf, [w])
               and w in have(rows, "bgp" + suf, [w])]
        if ran:
            top[w] = max(ran, key=sufs.index)
    return top


FIVE = ["cg_only", "fg_only", "spp", "bgp_inf", "bgp"]


def large_view(rows, fg):
    """The -large points renamed to their scheme (cg_only-large -> cg_only),
    and the FG-leaning workloads that ran every scheme at that size."""
    lv = [dict(r, variant=r["variant"][:-len("-large")]) for r in rows
          if r["variant"] in {v + "-large" for v in FIVE}]
    ws = [w for w in fg if all(w in have(lv, v, [w]) for v in FIVE)]
    return lv, ws


def fg_claims(rows, fg):
    """The FG-leaning headline cells computed from rows over fg: {key: text}."""
    red = lambda k, v: 1 - gmean_ratio(rows, fg, k, v, "cg_only")   # noqa: E731
    sp = {w: plot.value(rows, "cycles", workload=w, variant="cg_only")
          / plot.value(rows, "cycles", workload=w, variant="bgp") for w in fg}
    return {
        "traffic": f"{100 * red('offchip', 'bgp'):.1f}%",
        "traffic_inf": f"{100 * red('offchip', 'bgp_inf'):.1f}%",
        "bgp_vs_inf": f"{gmean_ratio(rows, fg, 'offchip', 'bgp', 'bgp_inf'):.3f}",
        "speedup": f"BGP {pct(plot.geomean(sp.values()) - 1)}, max {pct(max(sp.values()) - 1)}",
        "dram_w": ", ".join(f"{v} {100 * red('power.dram_w', v):.1f}%" for v in FIVE[1:]),
        "sys_ppw": ", ".join(
            f"{v} {pct(gmean_ratio(rows, fg, 'power.perf_per_watt', v, 'cg_only') - 1)}"
            for v in FIVE[1:]),
        "dram_ppw": ", ".join(
            f"{v} {pct(gmean_ratio(rows, fg, 'power.dram_perf_per_watt', v, 'cg_only') - 1)}"
            for v in FIVE[1:]),
        "readin": ", ".join(f"{v} {readin_pct(rows, fg, 'l1d', v)} / "
                            f"{readin_pct(rows, fg, 'l2', v)}"
                            for v in ("cg_only", "spp", "bgp_inf", "bgp")),
    }


# The dissertation's FG-leaning means (5.3.2.2-5.3.2.5) as ratios to CG-only,
# drawn beside ours: {(measure, scheme): value}
PAPER_FG = {("off-chip bytes", "bgp"): 0.67, ("speedup", "bgp"): 1.13,
            ("DRAM W", "fg_only"): 0.81, ("DRAM W", "spp"): 0.99, ("DRAM W", "bgp_inf"): 0.87,
            ("DRAM W", "bgp"): 0.92, ("system Perf/W", "fg_only"): 1.19,
            ("system Perf/W", "spp"): 1.13, ("system Perf/W", "bgp_inf"): 1.18,
            ("system Perf/W", "bgp"): 1.17, ("DRAM Perf/W", "spp"): 1.16,
            ("DRAM Perf/W", "bgp_inf"): 1.34, ("DRAM Perf/W", "bgp"): 1.27}
MEASURES = [("off-chip bytes", "offchip", False), ("speedup", "cycles", True),
            ("DRAM W", "power.dram_w", False), ("system Perf/W", "power.perf_per_watt", False),
            ("DRAM Perf/W", "power.dram_perf_per_watt", False)]


def paper_plot(path, rows, fg, size):
    """The FG-leaning geometric means per scheme over cg_only beside the
    dissertation's (hatched)."""
    pts = []
    for name, k, inv in MEASURES:
        for v in FIVE[1:]:
            pts.append({"measure": name, "scheme": v, "status": "pass",
                        "ratio": gmean_ratio(rows, fg, k, v, "cg_only", inverse=inv)})
    plot.grouped_bars(path, pts, "measure", "scheme", "ratio", groups=FIVE[1:], gmean=False,
                      paper=PAPER_FG, title=f"FG-leaning means over cg_only, {size} inputs "
                      "(hatched: the dissertation)", ylabel="ratio to cg_only")


def write_page(path, m, rows, fg, cg, traffic, speed, ppw, pr, pca_speed, missing=(), rl=False,
               failed=None, pca_head=None):
    V = lambda w, v, k: plot.value(rows, k, workload=w, variant=v)   # noqa: E731
    n = len([r for r in rows if r["variant"] != "static"])
    size = table.sizes([r for r in rows if r["variant"] in LAMAR])   # the ablation's small aside
    other = {r["size"] for r in rows if r.get("size")} - {r["size"] for r in rows
                                                         if r["variant"] in LAMAR}
    L = ["# Memory hierarchy: LAMAR schemes and PCA", "",
         "Generated by `make experiments-memory` (spec experiments/memory.toml, plots "
         "experiments/memory.py, runner docs/sweeps.md): do not edit. gtx480 with "
         f"sub-ranked DRAM (`dram_subranks = 2`, 32-byte FG bursts), timing mode, **{size} "
         f"inputs**" + (f" (the sections that say so also "
                        f"{', '.join(sorted(other, key=SIZE_ORDER.index))})" if other else "")
         + f", seed 1: {n} points; source commit {commit()}, simulator binary sha256 "
         f"{str(m.get('build'))[:12]}. Mechanisms: docs/lamar.md, docs/pca.md; "
         "power model: docs/lamar.md \"DRAM and system power\".", "",
         "`static` is derived, not run: the dissertation's profiled static GDU \"is "
         "equivalent to the best of CG-only and FG-only for each application\"; per "
         "workload we take the fg_only point when the cg_only point's Avg_sec is at most 2 "
         "(the profile), else the cg_only point. Means are geometric means of per-workload "
         "ratios over the suite's FG-leaning (`@fg`, Avg_sec <= 2 at default inputs) and "
         "CG-leaning (`@cg`) workloads.", ""]
    if failed:
        L += ["**Points that did not run:** " + "; ".join(
            f"`{v}` ({n} points: {msg})" for v, (n, msg) in sorted(failed.items()))
            + ". Their rows below read \"not run\"; every other point passed.", ""]
    if missing:
        L += [f"**A subset of the suite:** {len(missing)} of {len(fg) + len(cg) + len(missing)} "
              "workloads of `@fg` and `@cg` were not run for this page (" + ", ".join(missing)
              + "); every mean below is over the workloads that were.", ""]
    # headline
    fg_cg = [speed[w]["fg_only"] for w in cg]
    worst = min(cg, key=lambda w: speed[w]["fg_only"])
    pca_best = {}
    for w in [w for w in PCA_FOCUS if w in pca_speed]:
        t = max(TOKENS, key=lambda k: pca_speed[w][f"pca-{k}"])
        pca_best[w] = (t, pca_speed[w][f"pca-{t}"])
    lrows, lfg = large_view(rows, fg)
    lsize = table.sizes([r for r in rows if r["variant"] in {v + "-large" for v in FIVE}])
    ours, big = fg_claims(rows, fg), (fg_claims(lrows, lfg) if lfg else {})
    n_def, n_large = memory_noise.headline_cells(rows, fg, lfg)
    X = lambda k: big.get(k, "not run")   # noqa: E731
    lm = largest_means(rows, lfg) if lfg else None
    xl_cell = (f" ({100 * lm[0]:.1f}% with {', '.join(lm[4])} at xlarge; \"Traffic against "
               "run length\")" if lm else "")
    L += ["## Headline: ours against the dissertation", "",
          (f"The last column repeats the FG-leaning rows at {lsize} inputs "
           f"({len(lfg)} FG-leaning workloads that ran every scheme there: "
           + ", ".join(lfg) + "), where the predictors learn longer (\"Steady state\" "
           "below); the other rows were run at one size only." if lfg else
           "The FG-leaning rows were not run at large inputs under every scheme (the last "
           "column)."), "",
          f"| claim | paper | ours, {size} inputs | ours, {lsize} inputs |", "|---|---|---|---|",
          correlate.baseline_row("gtx480")[:-1] + "| |",
          f"| BGP off-chip traffic reduction, FG-leaning (5.3.2.5) | about 33% | "
          f"{ours['traffic']} | {X('traffic')}{xl_cell} |",
          f"| BGP_inf off-chip traffic reduction, FG-leaning | (close to BGP, Fig 5.9) | "
          f"{ours['traffic_inf']} | {X('traffic_inf')} |",
          f"| BGP close to BGP_inf: BGP traffic / BGP_inf traffic, FG-leaning | slightly above 1 | "
          f"{ours['bgp_vs_inf']} | {X('bgp_vs_inf')} |",
          f"| LAMAR speedup on FG-leaning (5.3.2.2) | average 12-14%, max 49% | "
          f"{ours['speedup']}{n_def} | {X('speedup')}{n_large if lfg else ''} |",
          "| low-traffic FG-leaning programs still gain (5.3.2.2) | PVC, SSC gain well | "
          + ", ".join(f"{w} {pct(speed[w]['bgp'] - 1)}" for w in sorted(
              fg, key=lambda w: V(w, "cg_only", "offchip") / max(V(w, "cg_only", "warp_insts"), 1))[:3])
          + " (the three with the fewest off-chip bytes per warp instruction under cg_only) | |",
          f"| CG-leaning under BGP vs cg_only (5.3.2.2) | comparable (worst: MST -13% with BGP_inf) | "
          f"{pct(gmean_ratio(rows, cg, 'cycles', 'bgp', 'cg_only', inverse=True) - 1)}, worst "
          f"{pct(min(speed[w]['bgp'] for w in cg) - 1)} | |",
          f"| fg_only on CG-leaning (5.3.2.2) | hurts 5 of 10, -4% to -22% | "
          f"{pct(plot.geomean(fg_cg) - 1)} mean; {sum(1 for s in fg_cg if s < 0.99)} of "
          f"{len(cg)} slower by > 1%; worst {worst} {pct(speed[worst]['fg_only'] - 1)} | |",
          f"| DRAM power reduction, FG-leaning (5.3.2.3) | FG-only 19%, SPP 1%, BGP_inf 13%, BGP 8% | "
          f"{ours['dram_w']} | {X('dram_w')} |",
          f"| System Perf/W gain, FG-leaning (5.3.2.4) | FG-only 19%, SPP 13%, BGP_inf 18%, BGP 17% | "
          f"{ours['sys_ppw']} | {X('sys_ppw')} |",
          f"| DRAM Perf/W gain, FG-leaning (5.3.2.3) | SPP 16%, BGP_inf 34%, BGP 27% | "
          f"{ours['dram_ppw']} | {X('dram_ppw')} |",
          f"| L1 / L2 read-in sectors over FG-only, FG-leaning (5.3.2.1) | CG-only 171% / 93%, "
          f"SPP 60% / 72%, BGP_inf 20% / 22%, BGP 37% / 47% | {ours['readin']} | {X('readin')} |",
          f"| CG-leaning: L1 / L2 read-in sectors of CG-only over FG-only (5.3.2.1) | +13% / +3% | "
          f"{readin_pct(rows, cg, 'l1d', 'cg_only')} / {readin_pct(rows, cg, 'l2', 'cg_only')}"
          + cg_readin_note(rows, cg) + " | |",
          "| FG-only raises miss rates for some applications (Fig 5.10, 5.11) | some (NN: 65% / "
          "54% of L1 / L2 sectors NPRED_REF) | " + miss_note(rows, fg + cg) + " | |",
          "| DRAM share of GPU power (5.3.2.4, from the literature) | about 5-45% | "
          + dram_share(rows, fg + cg) + " | |",
          "| FG-only Perf/W on CG-leaning (5.3.2.4) | degrades MST, NN, SRAD significantly | "
          + fg_cg_ppw(ppw, cg) + " | |",
          "| PCA best token count speedup over Opt-CTA (6.2.3.4), Table 6.1's setup "
          "([pca.md](pca.md): GTO, DRAM without sub-ranks, the best static CTA cap) | "
          "BFS +8%, SSSP +9%, KMEANS +39% | "
          + ("; ".join(f"{c}, {sz} inputs: {pct(s - 1)} at {t} tokens per core"
                       for c, t, s, sz in pca_head[0]) if pca_head else
             "see [pca.md](pca.md): its sweep (experiments/pca.toml) is not beside this one "
             "or is incomplete")
          + " | |",
          "| the same on this page's setup: tokens over none (not the paper's baseline: "
          f"sub-ranked DRAM, every CTA that fits, {size} inputs) | - | "
          + ", ".join(f"{w} {pct(s - 1)} at {t}" for w, (t, s) in pca_best.items())
          + " | |", "",
          "![FG-leaning means beside the dissertation](memory-paper.png)", ""]
    if lfg:
        L += [f"![FG-leaning means beside the dissertation, {lsize} inputs]"
              "(memory-paper-large.png)", ""]
    tot = lambda v, k: int(sum(V(w, v, k) for w in fg + cg))   # noqa: E731
    L += ["### Why ours differ", "",
          f"* **What the GDUs answer.** Under bgp the L1D GDUs answered FG "
          f"{tot('bgp', 'l1d.gdu.fg')} of {tot('bgp', 'l1d.gdu.queries')} times, the L2 GDUs "
          f"{tot('bgp', 'l2.gdu.fg')} of {tot('bgp', 'l2.gdu.queries')}; under bgp_inf (the "
          f"exact set) the L2 GDUs answered FG {tot('bgp_inf', 'l2.gdu.fg')} of "
          f"{tot('bgp_inf', 'l2.gdu.queries')}. DRAM traffic is decided at the L2: sectors "
          "the L2 fetched on a CG answer and never referenced before eviction "
          "(`l2.pred_nref`; cg_only has none at the L2, whose requests are the L1Ds' whole "
          "lines) summed over the suite were " + ", ".join(
              f"{v} {tot(v, 'l2.pred_nref')}" for v in ("bgp", "bgp_inf"))
          + ", and DRAM read bytes " + ", ".join(
              f"{v} {tot(v, 'dram.read_bytes')}" for v in ("cg_only", "bgp", "bgp_inf", "fg_only"))
          + f". Over the suite bgp's DRAM read bytes are {pct_of(tot('bgp', 'dram.read_bytes'), tot('cg_only', 'dram.read_bytes'))} "
          "below cg_only's, but the headline is a geometric mean of per-workload ratios "
          "over the FG-leaning workloads; largest reductions "
          + ", ".join(f"{w} {pct_of(traffic[w]['bgp'], 1.0)}" for w in
                      sorted(fg, key=lambda w: traffic[w]["bgp"])[:3])
          + f"; {sum(1 for w in fg if traffic[w]['bgp'] > 0.95)} of {len(fg)} FG-leaning "
          "workloads move less than 5%. bgp's traffic over bgp_inf's (FG-leaning geometric "
          f"mean): {gmean_ratio(rows, fg, 'offchip', 'bgp', 'bgp_inf'):.3f}.",
          ("* **Small inputs.** The footprints of the small inputs mostly fit the 16 KB L1Ds "
           "and the 768 KB L2, so few lines are evicted and the GDUs learn from few "
           "evictions; every traffic and speed ratio is closer to 1 than at larger inputs."
           if size == "small" else
           f"* **Inputs.** {size} inputs, not the dissertation's full ones (our large inputs "
           "are capped by the instruction budget; the xlarge inputs of gaussian, sobflt and ssc "
           "go past it, docs/workloads.md \"Sizes\"); the `@fg`/`@cg` classes "
           "are measured at default inputs (docs/workloads.md) and each workload's Avg_sec "
           "under cg_only is in the tables below. Our suite is not the dissertation's: shared "
           "names (BFS, SSSP, SPMV, MUM, ...) are reimplementations with our own inputs."),
          traffic_gap(rows, fg),
          large_note(rows, fg),
          "* **DRAM power is mostly background.** " + background_note(rows, fg),
          dram_ppw_note(rows, fg),
          sys_ppw_note(rows, fg),
          memory_noise.speed_bullet(rows, fg, lfg, int(gtx480_keys().get("num_sms", 15)),
                                    dram_peak_bps(),
                                    float(gtx480_keys().get("core_clock_mhz", 700)) * 1e6),
          "* **PCA: two rows, two setups.** The row beside 6.2.3.4 is pca.md's, computed by "
          "experiments/pca.py from its own sweep: the dissertation's baseline, the best "
          "static CTA throttling (Opt-CTA), on Table 6.1's DRAM, with each workload at the "
          "largest input its sweep ran (pca.md names each case), where the causes of its "
          "differences are measured. The row below it is this page's PCA sweep: "
          "pca.tokens over 0 with every CTA that fits, on this page's sub-ranked DRAM, at "
          f"{size} inputs, kmeans with 8 features; it is not the paper's comparison. "
          "Fills bypassed at its best token count: "
          + ", ".join(
              f"{w} {V(w, f'pca-{t}', 'pca.bypassed')} (tokens {t})"
              for w, (t, _) in pca_best.items())
          + "; a workload whose best count is 0 is one where no token count helped.", ""]
    L += learning(rows, fg) + run_length(rows, fg)
    if rl:
        L += ["![traffic against run length](memory-runlength.png)", ""]
    L += steady_state(rows, fg)
    L += predictor_section(rows, fg)
    L += attribution(rows, fg, speed, traffic)
    kv = gtx480_keys()
    nsms, core_hz = int(kv.get("num_sms", 15)), float(kv.get("core_clock_mhz", 700)) * 1e6
    L += memory_noise.noise_section(rows, fg, lfg, nsms)
    L += memory_noise.default_gap(rows, fg, lfg, nsms, dram_peak_bps(), core_hz)
    L += readin(rows, fg) + dram_states(rows, fg) + subranking(rows, fg)
    L += sensitivity(rows, fg) + tlp(rows) + ablation(rows, fg) + pca_section(pca_head)
    L += ["![L1D sectors](memory-sectors-l1d.png)", "", "![L2 sectors](memory-sectors-l2.png)",
          "", "![off-chip traffic](memory-traffic.png)", "", "![speedup](memory-speedup.png)", "",
          "![DRAM power](memory-dram-power.png)", "",
          "![DRAM power by component (Fig 5.13)](memory-dram-parts.png)", "",
          "![L1D miss rate (Fig 5.10)](memory-l1d-miss.png)", "",
          "![L2 miss rate (Fig 5.11)](memory-l2-miss.png)", "", "![Perf/W](memory-perfw.png)", "",
          "![PCA speedup](memory-pca-speedup.png)", "", "![PCA L1D hit rate](memory-pca-l1.png)",
          ""]
    for ws, title in ((fg, "FG-leaning (`@fg`)"), (cg, "CG-leaning (`@cg`)")):
        L += [f"## {title}: off-chip traffic / cg_only, speedup, DRAM W, Perf/W / cg_only", ""]
        head = (["workload", "Avg_sec (C)", "static"] +
                [f"traffic {LETTER[v]}" for v in LAMAR[1:]] +
                [f"speedup {LETTER[v]}" for v in LAMAR[1:]] +
                ["DRAM W C", "DRAM W B"] + [f"Perf/W {LETTER[v]}" for v in ("fg_only", "bgp")])
        L += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for w in ws:
            st = next(r["static_from"] for r in rows if r["workload"] == w and r["variant"] == "static")
            cells = [w, fmt(V(w, "cg_only", "lamar.avg_sec"), 2), LETTER[st]]
            cells += [fmt(traffic[w][v]) for v in LAMAR[1:]]
            cells += [fmt(speed[w][v]) for v in LAMAR[1:]]
            cells += [fmt(V(w, "cg_only", "power.dram_w"), 2), fmt(V(w, "bgp", "power.dram_w"), 2)]
            cells += [fmt(ppw[w][v]) for v in ("fg_only", "bgp")]
            L.append("| " + " | ".join(cells) + " |")
        g = ["geometric mean", "", ""]
        g += [fmt(plot.geomean(traffic[w][v] for w in ws)) for v in LAMAR[1:]]
        g += [fmt(plot.geomean(speed[w][v] for w in ws)) for v in LAMAR[1:]]
        g += ["", ""] + [fmt(plot.geomean(ppw[w][v] for w in ws)) for v in ("fg_only", "bgp")]
        L += ["| " + " | ".join(g) + " |", ""]
    L += ["## Sector categories (sum over the suite, sectors filled)", "",
          "| scheme | L1D demand | pred_ref | pred_nref | npred_ref | L2 demand | pred_ref | "
          "pred_nref | npred_ref |", "|---|---|---|---|---|---|---|---|---|"]
    for v in ("cg_only", "fg_only", "spp", "bgp_inf", "bgp"):
        cells = [v] + [str(sum(V(w, v, f"{lv}.{c}") for w in fg + cg))
                       for lv in ("l1d", "l2") for c in CATS]
        L.append("| " + " | ".join(cells) + " |")
    L += ["", "## PCA per token count (GTO, cg_only)", "",
          "Speedup over pca.tokens = 0; L1D hit rate of all loads, of token holders' and of "
          "the others'; fills bypassed. Tokens are per SM (2 per scheduler = 4).", "",
          "| workload | tokens | speedup | L1D hit | prio hit | deprio hit | bypassed |",
          "|---|---|---|---|---|---|---|"]
    for w in sorted(dict.fromkeys(r["workload"] for r in pr)):
        for t in TOKENS:
            r = next(x for x in pr if x["workload"] == w and x["tokens"] == t)
            L.append(f"| {w} | {t} | {fmt(pca_speed[w][f'pca-{t}'])} | {fmt(r['l1_hit'])} | "
                     f"{fmt(r['prio_hit'])} | {fmt(r['deprio_hit'])} | {r['pca.bypassed']} |")
    L += ["", "Rerun: `make experiments-memory` (cached per point; `SWEEP_FLAGS=--force` "
          "reruns all). The merged table is build/experiments/memory/results.csv.", ""]
    doc = progpage.load(os.path.join(os.path.dirname(path), "memory-programs.json"))
    if doc:
        L += progpage.wrap("memory", programs_section(doc)) + [""]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(L))


# --- the papers' programs (make programs-memory, docs/suites.md) ----------
# Table 5.4: (abbreviation, the dissertation's Avg_sec, our workload of that name)
TABLE54 = [("IIX", 1.09, "iix"), ("SSSP", 1.24, "sssp"), ("BFS1", 1.25, "bfs"),
           ("SP", 1.28, None), ("SSC", 1.46, "ssc"), ("BFS2", 1.48, "bfs"),
           ("MUM", 1.49, "mum"), ("NW", 1.67, "nw"), ("PVC", 1.75, None), ("WP", 2.00, None),
           ("MST", 2.39, "mst"), ("RAY", 3.29, "ray"), ("SCLST", 3.41, "sclst"),
           ("BACKP", 3.62, "backprop"), ("NN", 3.65, None), ("SRAD", 3.88, "srad"),
           ("LAVAMD", 3.89, "lavamd"), ("SPROD", 3.99, "sprod"), ("MCARLO", 3.99, "mcarlo"),
           ("FWT", 4.00, "fwt")]
# Table 6.2's programs the dissertation found cache-sensitive (PCA gains):
# (abbreviation, its best-token speedup, our workload of that name)
PCA_GAINS = [("BFS", 1.08, "bfs"), ("SSSP", 1.09, "sssp"), ("KMEANS", 1.39, "kmeans")]


def mem_measures(rows, w):
    """Avg_sec, BGP speedup and off-chip traffic over cg_only, and PCA's
    8-token speedup over none, of one workload or program ({} when a
    point did not pass)."""
    r = {v: rows.get((w, v)) for v in ("cg_only", "fg_only", "bgp", "pca-0", "pca-8")}
    if not all(x and x["status"] == "pass" for x in r.values()):
        return {}
    off = {v: r[v]["dram.read_bytes"] + r[v]["dram.write_bytes"] for v in r}
    return {"avg_sec": r["cg_only"]["lamar.avg_sec"],
            "bgp": r["cg_only"]["cycles"] / r["bgp"]["cycles"],
            "fg": r["cg_only"]["cycles"] / r["fg_only"]["cycles"],
            "traffic": off["bgp"] / off["cg_only"] if off["cg_only"] else None,
            "pca8": r["pca-0"]["cycles"] / r["pca-8"]["cycles"]}


def programs_section(doc):
    """The section's markdown lines from the exported programs sweep."""
    rows = progpage.by(doc)
    labels = {}
    for r in doc["rows"]:
        if r["kind"] == "program":
            for t in ("rhu5.4", "rhu6.2"):
                for n in progpage.paper_names(r["workload"], [t]):
                    labels[(t, n)] = r["workload"]
    L = ["", "## The papers' programs: Tables 5.4 and 6.2's benchmarks themselves", "",
         progpage.provenance(doc, "memory") + " gtx480 with sub-ranked DRAM, timing mode, "
         "each program's small input; our workloads of the same names from the same sweep "
         "(default inputs, as above). Avg_sec under cg_only; FG-leaning = Avg_sec at most 2 "
         "(5.3.1); speedup = cycles of cg_only over the scheme's; traffic = off-chip bytes "
         "under bgp over cg_only.", "",
         "| Table 5.4 | Avg_sec (paper) | program | Avg_sec | BGP speedup | fg_only speedup | "
         "BGP traffic || built-in | Avg_sec | BGP speedup |",
         "|---|---|---|---|---|---|---||---|---|---|"]
    pm, bm = {}, {}
    f2 = lambda x: "-" if x is None else f"{x:.2f}"    # noqa: E731
    f3 = lambda x: "-" if x is None else f"{x:.3f}"    # noqa: E731
    for abbr, avg, wl in TABLE54:
        lab = labels.get(("rhu5.4", abbr))
        m = mem_measures(rows, lab) if lab else {}
        b = mem_measures(rows, wl) if wl else {}
        if m:
            pm[abbr] = dict(m, paper=avg)
        if b:
            bm[abbr] = dict(b, paper=avg)
        pc = (f"{lab} | {f2(m['avg_sec'])} | {f3(m['bgp'])} | {f3(m['fg'])} | "
              f"{f3(m['traffic'])}") if m else f"{lab or 'not available'} | - | - | - | -"
        bc = f"{wl} | {f2(b['avg_sec'])} | {f3(b['bgp'])}" if b else f"{wl or '-'} | - | -"
        L.append(f"| {abbr} | {avg:.2f} | {pc} || {bc} |")

    def agree(d):
        return sum((m["avg_sec"] <= 2) == (m["paper"] <= 2) for m in d.values()), len(d)

    def err(d):
        return sum(abs(m["avg_sec"] - m["paper"]) for m in d.values()) / len(d) if d else None

    def fg_speed(d):
        xs = [m["bgp"] for m in d.values() if m["paper"] <= 2]
        return (plot.geomean(xs), max(xs), len(xs)) if xs else (None, None, 0)

    def fg_traffic(d):
        xs = [m["traffic"] for m in d.values() if m["paper"] <= 2 and m["traffic"]]
        return (1 - plot.geomean(xs), len(xs)) if xs else (None, 0)
    ap, bp = agree(pm), agree(bm)
    sp_, sb = fg_speed(pm), fg_speed(bm)
    tp, tb = fg_traffic(pm), fg_traffic(bm)
    pc = lambda x: "-" if x is None else f"{100 * (x - 1):+.1f}%"   # noqa: E731
    L += ["", "| claim | dissertation | its programs (ours) | our workloads of those names |",
          "|---|---|---|---|",
          f"| FG/CG class from Avg_sec = Table 5.4's | all | {ap[0]} of {ap[1]} | "
          f"{bp[0]} of {bp[1]} |",
          f"| mean distance of Avg_sec from Table 5.4's | 0 | {f2(err(pm))} | {f2(err(bm))} |",
          f"| LAMAR (BGP) speedup on Table 5.4's FG-leaning set | 12-14% average, max 49% | "
          f"{pc(sp_[0])} gmean, max {pc(sp_[1])} ({sp_[2]}) | {pc(sb[0])} gmean, max "
          f"{pc(sb[1])} ({sb[2]}) |",
          f"| BGP off-chip traffic reduction, same set | about 33% | "
          f"{'-' if tp[0] is None else f'{100 * tp[0]:.1f}%'} ({tp[1]}) | "
          f"{'-' if tb[0] is None else f'{100 * tb[0]:.1f}%'} ({tb[1]}) |"]
    for abbr, gain, wl in PCA_GAINS:
        lab = labels.get(("rhu6.2", abbr))
        m = mem_measures(rows, lab) if lab else {}
        b = mem_measures(rows, wl) if wl else {}
        L.append(f"| PCA on {abbr}, 8 tokens over none (6.2.3.4: best count over Opt-CTA) | "
                 f"{pc(gain)} | {lab + ' ' + pc(m['pca8']) if m else '-'} | "
                 f"{wl + ' ' + pc(b['pca8']) if b else '-'} |")
    if err(pm) is not None and err(bm) is not None:
        who = "the papers' programs" if err(pm) < err(bm) else "our workloads"

        def part(d, fg):
            return err({a: m for a, m in d.items() if (m["paper"] <= 2) == fg})
        far = sorted(((abs(m["avg_sec"] - m["paper"]), a) for a, m in pm.items()
                      if m["paper"] <= 2), reverse=True)[:3]
        L += ["", f"**Which is closer to the dissertation: {who}**, by how many sectors of a "
              f"block a program touches (Avg_sec, which decides every LAMAR result): "
              f"{f2(err(pm))} against {f2(err(bm))} from Table 5.4's values on average. On "
              f"the CG-leaning rows (Avg_sec above 2 in Table 5.4) the programs are "
              f"{f2(part(pm, False))} away and our workloads {f2(part(bm, False))}; on the "
              f"FG-leaning rows {f2(part(pm, True))} against {f2(part(bm, True))}, most on "
              + ", ".join(f"{a} ({labels[('rhu5.4', a)]}: {f2(pm[a]['avg_sec'])} against "
                          f"{f2(pm[a]['paper'])})" for _, a in far)
              + ". Those run the small generated graphs of tools/suites/gen, not the "
              "dissertation's road networks, and nearly fit in the L2 (L2 miss rate under "
              "cg_only " + ", ".join(
                  f"{100 * rows[(labels[('rhu5.4', a)], 'cg_only')]['l2.miss_rate']:.1f}%"
                  for _, a in far)
              + "): a block stays resident until more of its sectors are touched."]
    bad = progpage.status_lines(doc)
    if bad:
        L += ["", "Points that did not pass:", ""] + bad
    miss = [a for a, _, _ in TABLE54 if ("rhu5.4", a) not in labels]
    if miss:
        L += ["", "Table 5.4's programs without a row of ours:", ""]
        L += progpage.not_run_lines("rhu5.4", miss)
    return L + [""]


def programs_only(out, res):
    """make programs-memory: exports the sweep and rewrites the section."""
    doc = progpage.export(out, os.path.join(res, "memory-programs.json"))
    progpage.splice(os.path.join(res, "memory.md"), "memory", programs_section(doc))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--programs":
        programs_only(sys.argv[2], sys.argv[3])
        sys.exit(0)
    if len(sys.argv) != 3:
        sys.exit("usage: memory.py SWEEP_OUT RESULTS_DIR | memory.py --programs OUT RESULTS")
    main(sys.argv[1], sys.argv[2])
