#!/usr/bin/env python3
"""Plots and results page of make experiments-pca (experiments/pca.toml):
usage: pca.py SWEEP_OUT RESULTS_DIR.

Writes RESULTS_DIR/pca.md (generated: do not edit) and its PNG plots:
normalised IPC per resident-CTA cap (Fig 6.3), PCA's speedup over Opt-CTA
per token count (Fig 6.4), L1D/L2 miss rates (Fig 6.5), L1D/L2 average
block reuse (Fig 6.6: hits per line over the lines whose life ended) and
off-chip bandwidth (Fig 6.7), each beside the dissertation's claims (6.2.3)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))

from sweeplib import plot, runner, table   # noqa: E402
from sweeplib.source import commit_label as commit   # noqa: E402
import correlate   # noqa: E402  (the "baseline correlated" headline row)
import memory   # noqa: E402  (configs/gtx480.conf's keys)

CAP, TOK = "max_ctas_per_sm", "pca.tokens"
PAPER_SPEEDUP = {"bfs": 0.08, "sssp": 0.09, "kmeans": 0.39}   # 6.2.3.4, vs Opt-CTA
PAPER_BEST_MAX_TLP = {"bfs": True, "sssp": True, "kmeans": False}   # 6.2.3.3, Fig 6.3
PAPER_INSTR = {"bfs": 2.8e9, "sssp": 696e6, "kmeans": 719e6}   # Table 6.2's #Instr.
KMEANS_FEATURES = {"xlarge": 34}   # features per point by size, else 8 (workloads/kmeans/kmeans.c)


def hmean(vals):
    vals = list(vals)
    return len(vals) / sum(1 / v for v in vals)


def fmt(v, n=3):
    return "-" if v is None else f"{v:.{n}f}"


def pct(x):
    return f"{100 * x:+.1f}%"


def case_of(r):
    """A workload under one L1D set index and input size (pca.toml's
    variants): 'bfs (fermi)', 'kmeans (fermi-large)'; the bare name where
    the sweep has no variants."""
    v = r.get("variant")
    return f"{r['workload']} ({v})" if v else r["workload"]


def primary(ws, rows):
    """The cases of Table 6.1's setup: the Fermi-hash L1D (SM2_GTX480's) at
    the largest input each workload ran at; every case without variants."""
    var = {r["workload"]: (r.get("variant") or "", r["base"], r["size"]) for r in rows}
    if not any(v for v, _, _ in var.values()):
        return list(ws)
    order = {"small": 0, "default": 1, "large": 2, "xlarge": 3}
    best = {}
    for w in ws:
        v, b, size = var[w]
        if v.startswith("fermi") and (b not in best or order[size] > order[var[best[b]][2]]):
            best[b] = w
    return [best[b] for b in dict.fromkeys(var[w][1] for w in ws) if b in best]


def cta_limits(out, m):
    """Per workload, the most CTAs a gtx480 core can hold by its thread and
    CTA limits (configs/gtx480.conf), from the threads per CTA of a cached
    point's statistics; {} where no point's statistics are at hand."""
    kv = memory.gtx480_keys()
    try:
        tmax, cmax = int(kv["max_threads_per_sm"]), int(kv["max_ctas_per_sm"])
    except (KeyError, ValueError):
        return {}
    lim = {}
    for p in m.get("points", []):
        if p["workload"] in lim:
            continue
        st = runner.load_cached(out, p)
        if st and st.get("ctas") and st.get("threads"):
            lim[p["workload"]] = min(cmax, tmax // (st["threads"] // st["ctas"]))
    return lim


def analyse(out):
    """The sweep's rows (one per point, 'workload' the case), its case
    names, caps, token counts, a value lookup V(case, cap, tokens, key),
    and per case: the cap that changes nothing past it (fit), Opt-CTA's
    cap (opt), the best token count there and the speedups over Opt-CTA."""
    rows = table.read_rows(out)
    bad = [r for r in rows if r["status"] != "pass"]
    if bad:
        sys.exit(f"pca: {len(bad)} points did not pass (first: point {bad[0]['point']} "
                 f"{bad[0]['workload']}: {bad[0]['status']}): no page from an incomplete sweep")
    for r in rows:
        r["base"] = r["workload"]
        r["workload"] = case_of(r)
        r["perf"] = 1e9 / r["cycles"]
        r["bw"] = r["dram.bytes"] / r["power.seconds"] / 1e9 if r["power.seconds"] else 0.0
        r["l1_reuse"] = r["l1d.block_reuse"]
        r["l2_reuse"] = r["l2.block_reuse"]
    ws = list(dict.fromkeys(r["workload"] for r in rows))
    caps = sorted({r[CAP] for r in rows})
    toks = sorted({r[TOK] for r in rows})
    V = lambda w, c, t, k: plot.value(rows, k, workload=w, **{CAP: c, TOK: t})   # noqa: E731
    info = {}
    for w in ws:
        top = max(caps)
        # the largest cap that changes anything: above it every CTA that fits is resident
        fit = min(c for c in caps if all(V(w, c2, 0, "cycles") == V(w, top, 0, "cycles")
                                         for c2 in caps if c2 >= c))
        opt = min((c for c in caps if c <= fit), key=lambda c: (V(w, c, 0, "cycles"), -c))
        best_t = max(toks, key=lambda t: (V(w, opt, 0, "cycles") / V(w, opt, t, "cycles"), -t))
        info[w] = {"fit": fit, "opt": opt, "best": best_t,
                   "opt_gain": V(w, fit, 0, "cycles") / V(w, opt, 0, "cycles") - 1,
                   "sp": {t: V(w, opt, 0, "cycles") / V(w, opt, t, "cycles") for t in toks}}
    return rows, ws, caps, toks, V, info


def headline(out):
    """What other pages (memory.md) quote from this one: the row beside
    6.2.3.4 (Table 6.1's setup, each workload's primary case) as a list of
    (case, best token count, speedup over Opt-CTA, input size), and the
    page's table rows beside the dissertation (paper_rows)."""
    rows, ws, _, toks, V, info = analyse(out)
    size = {r["workload"]: r["size"] for r in rows}
    return ([(w, info[w]["best"], info[w]["sp"][info[w]["best"]], size[w])
             for w in primary(ws, rows)], paper_rows(rows, ws, toks, info, V))


def main(out, res):
    m = table.read_manifest(out)
    lim = cta_limits(out, m)
    rows, ws, caps, toks, V, info = analyse(out)
    os.makedirs(res, exist_ok=True)
    P = lambda n: os.path.join(res, n)   # noqa: E731
    fig63 = [dict(r, norm=V(r["workload"], info[r["workload"]]["fit"], 0, "ipc") and
                  r["ipc"] / V(r["workload"], info[r["workload"]]["fit"], 0, "ipc"))
             for r in rows if r[TOK] == 0]
    plot.lines(P("pca-tlp.png"), fig63, CAP, "norm", "workload", axis_values=None,
               title="Fig 6.3: IPC per resident-CTA cap (flat past the CTAs that fit), / Max-CTA",
               ylabel="IPC / Max-CTA")
    at_opt = [r for r in rows if r[CAP] == info[r["workload"]]["opt"]]
    sp_rows = [dict(r, speedup=info[r["workload"]]["sp"][r[TOK]]) for r in at_opt]
    plot.lines(P("pca-speedup.png"), sp_rows, TOK, "speedup", "workload", axis_values=toks,
               title="Fig 6.4: PCA speedup over Opt-CTA per token count (per core)",
               ylabel="speedup")
    for k, name in (("l1d.miss_rate", "pca-l1-miss.png"), ("l2.miss_rate", "pca-l2-miss.png"),
                    ("l1_reuse", "pca-l1-reuse.png"), ("l2_reuse", "pca-l2-reuse.png"),
                    ("bw", "pca-bandwidth.png")):
        plot.lines(P(name), at_opt, TOK, k, "workload", axis_values=toks,
                   title=f"{k} at Opt-CTA's cap per token count", ylabel=k)
    for w in ws:
        base = next(r["base"] for r in rows if r["workload"] == w)
        info[w]["hw"] = lim.get(base)
    write_page(P("pca.md"), m, rows, ws, toks, info, V)


def ablation(ws, toks, info, V):
    """Each ingredient alone: throttling (Opt-CTA's cap), PCA's tokens at
    either cap, a fixed token count; harmonic means over the workloads."""
    best_at = lambda w, c: max(toks, key=lambda t: V(w, c, 0, "cycles") / V(w, c, t, "cycles"))  # noqa: E731
    sp = lambda w, c0, t0, c, t: V(w, c0, t0, "cycles") / V(w, c, t, "cycles")   # noqa: E731
    rowdefs = [
        ("PCA at Opt-CTA's cap, best token count, vs Opt-CTA (as shipped)",
         lambda w: sp(w, info[w]["opt"], 0, info[w]["opt"], info[w]["best"])),
        ("throttling alone: Opt-CTA vs Max-CTA",
         lambda w: sp(w, info[w]["fit"], 0, info[w]["opt"], 0)),
        ("PCA without throttling: Max-CTA's cap, its best token count, vs Max-CTA",
         lambda w: sp(w, info[w]["fit"], 0, info[w]["fit"], best_at(w, info[w]["fit"]))),
        ("PCA and throttling together vs Max-CTA",
         lambda w: sp(w, info[w]["fit"], 0, info[w]["opt"], info[w]["best"]))]
    for t in (4, max(toks)):
        if t in toks:
            rowdefs.append((f"a fixed {t} tokens per core at Opt-CTA's cap, vs Opt-CTA",
                            lambda w, t=t: sp(w, info[w]["opt"], 0, info[w]["opt"], t)))
    L = ["## Ablation (speedups; harmonic mean over the workloads)", "",
         "Each ingredient of the result alone, from the same grid: the cap (Opt-CTA against "
         "Max-CTA), the tokens at either cap, and a token count fixed for every workload "
         "instead of each one's best. The dissertation's PCA figures are the first row's.", "",
         "| setting | " + " | ".join(ws) + " | harmonic mean |", "|---" * (len(ws) + 2) + "|"]
    for label, f in rowdefs:
        vals = [f(w) for w in ws]
        L.append(f"| {label} | " + " | ".join(pct(v - 1) for v in vals)
                 + f" | {pct(hmean(vals) - 1)} |")
    return L + [""]


def set_index(ws, toks, info, V, caps):
    """The L1D set index and the input size, measured: the L1D miss rate at
    the fewest and the most resident CTAs (0 tokens). A miss rate that does
    not fall with fewer warps is not capacity (set conflicts or streaming);
    one that does is the thrashing a cache policy can act on."""
    lo = min(caps)
    L = ["## L1D set index and input size", "",
         "Per case: the L1D miss rate at 0 tokens with one resident CTA per core and with "
         "every CTA that fits (Max-CTA), Max-CTA's cycles against the same workload's "
         "linear case, and PCA's best speedup over Opt-CTA. kmeans reads its feature columns (8, 34 at xlarge) "
         "`npoints` x 4 bytes apart, a multiple of 32 sets x 128 bytes at every input size: "
         "under the linear index every warp's feature lines share one 4-way set, so its "
         "miss rate does not fall with fewer warps and no token count can help; the hash "
         "spreads them, and what remains is capacity.", "",
         f"| case | L1D miss, {lo} CTA | L1D miss, Max-CTA | Max-CTA cycles vs linear | "
         "Opt-CTA of Max-CTA | PCA best speedup |", "|---|---|---|---|---|---|"]
    for w in ws:
        i = info[w]
        b = w.split(" (")[0]
        lin = f"{b} (linear)"
        rel = (fmt(V(lin, info[lin]["fit"], 0, "cycles") / V(w, i["fit"], 0, "cycles"))
               if lin in info and lin != w and V(lin, info[lin]["fit"], 0, "size") == V(w, i["fit"], 0, "size")
               else "-")
        L.append(f"| {w} | {fmt(V(w, lo, 0, 'l1d.miss_rate'))} | "
                 f"{fmt(V(w, i['fit'], 0, 'l1d.miss_rate'))} | {rel} | {i['opt']} of {i['fit']} | "
                 f"{pct(i['sp'][i['best']] - 1)} at {i['best']} |")
    return L + ["", "(Max-CTA cycles vs linear: the linear case's cycles over this case's, same "
                "input size; above 1 the hash is faster.)", ""]


def causes(rows, ws, toks, info):
    """Why PCA moves each workload as much as it does, from its statistics
    at Opt-CTA's cap: who holds tokens, how the two classes hit, how many
    fills bypass, and the memory stalls."""
    L = ["## What PCA changed (at Opt-CTA's cap)", "",
         "Per token count: the share of L1D accesses made by warps without a token "
         "(`pca.deprio_accesses`), the L1D hit rate of token holders and of the others, fills "
         "that bypassed the L1D (a token-less warp found no token-less line to replace), L1D "
         "evictions and reservation failures against 0 tokens, and the share of SM-cycles "
         "stalled on the memory unit (`stall.mem_wait`).", "",
         "| workload | tokens | speedup | token-less share | prio hit | deprio hit | bypassed "
         "| evictions / 0 tokens | reservation fails / 0 tokens | mem_wait share |",
         "|---|---|---|---|---|---|---|---|---|---|"]
    for w in ws:
        i = info[w]
        R = {t: next(x for x in rows if x["workload"] == w and x[CAP] == i["opt"] and x[TOK] == t)
             for t in toks}
        r0 = R[0]
        for t in toks:
            r = R[t]
            pa, da = r["pca.prio_accesses"], r["pca.deprio_accesses"]
            rat = lambda k: fmt(r[k] / r0[k]) if r0[k] else "-"   # noqa: E731
            L.append(f"| {w} | {t} | {fmt(i['sp'][t])} | "
                     f"{fmt(da / (pa + da)) if pa + da else '-'} | "
                     f"{fmt(r['pca.prio_hits'] / pa) if pa else '-'} | "
                     f"{fmt(r['pca.deprio_hits'] / da) if da else '-'} | {r['pca.bypassed']} | "
                     f"{rat('l1d.evictions')} | {rat('l1d.reservation_fails')} | "
                     f"{fmt(r['stall.mem_wait'] / r['sm_cycles']) if r['sm_cycles'] else '-'} |")
    return L + [""]


def paper_rows(rows, ws, toks, info, V):
    """The rows of "Ours beside the dissertation" after the baseline's: one
    per claim of 6.2.3, over each workload's primary case."""
    pw = primary(ws, rows)
    lin = [w for w in ws if w.endswith("(linear)")]
    two = hmean(info[w]["sp"][2] for w in pw) - 1
    best_avg = max((t for t in toks if t), key=lambda t: hmean(info[w]["sp"][t] for w in pw))
    L = []
    L.append("| best cap at 0 tokens (Fig 6.3) | BFS, SSSP: the maximum; KMEANS, CoMD: fewer | "
             + ", ".join(f"{w} {info[w]['opt']} of {info[w]['fit']}" for w in pw) + " |")
    L.append("| PCA at its best token count vs Opt-CTA (6.2.3.4) | BFS +8%, SSSP +9%, "
             "KMEANS +39% | " + ", ".join(
                 f"{w} {pct(info[w]['sp'][info[w]['best']] - 1)} at {info[w]['best']}"
                 for w in pw) + " |")
    if lin:
        L.append("| the same with a linear L1D index (ablation) | | " + ", ".join(
            f"{w} {pct(info[w]['sp'][info[w]['best']] - 1)} at {info[w]['best']}"
            for w in lin) + " |")
    L.append(f"| two tokens per scheduler (4 per core): harmonic-mean speedup | +14%, the best "
             f"average | {pct(hmean(info[w]['sp'][4] for w in pw) - 1)}; best average at "
             f"{best_avg} per core ({pct(hmean(info[w]['sp'][best_avg] for w in pw) - 1)}); "
             f"2 per core {pct(two)}"
             + (f"; linear index: {pct(hmean(info[w]['sp'][4] for w in lin) - 1)}" if lin else "")
             + " |")
    L.append("| Opt-CTA lowers DRAM bandwidth where it throttles; PCA raises it (Fig 6.7) | "
             "PCA +30% average, KMEANS +103% | " + ", ".join(
                 f"{w} {pct(V(w, info[w]['opt'], info[w]['best'], 'bw') / V(w, info[w]['opt'], 0, 'bw') - 1)}"
                 for w in pw) + " (best token count vs 0, at Opt-CTA's cap) |")
    at = lambda w, t, k: V(w, info[w]["opt"], t, k)   # noqa: E731
    low_miss = {w: min(toks, key=lambda t: (at(w, t, "l1d.miss_rate"), t)) for w in pw}
    hi_reuse = {w: max(toks, key=lambda t: (at(w, t, "l1_reuse") or 0, -t)) for w in pw}
    L.append("| the best token count is not the lowest L1D miss rate (Fig 6.5) | most programs; "
             "one token per scheduler (2 per core) raises L1 misses | " + ", ".join(
                 f"{w}: best {info[w]['best']}, lowest miss at {low_miss[w]}, 2 tokens "
                 f"{fmt(at(w, 2, 'l1d.miss_rate'))} vs 0 {fmt(at(w, 0, 'l1d.miss_rate'))}"
                 for w in pw) + " |")
    L.append("| highest L1 block reuse at one token per scheduler, not the best count (Fig 6.6) | "
             "BFS, SSSP: highest reuse at 1 token per scheduler (2 per core), best speed at 4 "
             "per scheduler | " + ", ".join(
                 f"{w}: highest at {hi_reuse[w]} ({fmt(at(w, hi_reuse[w], 'l1_reuse'), 2)} hits/line; "
                 f"0 tokens {fmt(at(w, 0, 'l1_reuse'), 2)})" for w in pw) + " |")
    L.append("| Opt-CTA lowers DRAM bandwidth against Max-CTA where it throttles (Fig 6.7) | CoMD, "
             "KMEANS | " + ", ".join(
                 f"{w} {pct(V(w, info[w]['opt'], 0, 'bw') / V(w, info[w]['fit'], 0, 'bw') - 1)}"
                 + ("" if info[w]["opt"] < info[w]["fit"] else " (no throttling)") for w in pw)
             + " |")
    return L


def run_lengths(rows, pw, info):
    """The stated input size: thread instructions of each primary case at
    Max-CTA and 0 tokens beside Table 6.2's #Instr.; [] where the sweep did
    not record them."""
    parts = []
    for w in pw:
        r = next((x for x in rows if x["workload"] == w and x[CAP] == info[w]["fit"]
                  and x[TOK] == 0), None)
        n = r and r.get("thread_insts")
        base = w.split(" (")[0]
        if n and base in PAPER_INSTR:
            parts.append(f"{w} {n / 1e6:.0f}M at {r['size']} inputs (Table 6.2: "
                         f"{PAPER_INSTR[base] / 1e6:.0f}M)")
    if not parts:
        return []
    return ["Run lengths (thread instructions at Max-CTA, 0 tokens, against Table 6.2's "
            "#Instr.): " + ", ".join(parts) + ".", ""]


def write_page(path, m, rows, ws, toks, info, V):
    size = "/".join(sorted({r["size"] for r in rows}))
    pw = primary(ws, rows)
    L = ["# PCA: priority-based cache allocation against Opt-CTA", "",
         "Generated by `make experiments-pca` (spec experiments/pca.toml, page "
         "experiments/pca.py): do not edit. Dissertation 6.2.3's setup (Table 6.1): gtx480, "
         f"GTO, the DRAM without sub-ranks; timing mode, **{size} inputs**, seed 1: "
         f"{len(rows)} points ({len(ws)} cases x every resident-CTA cap x token counts "
         f"{', '.join(map(str, toks))} per core); source commit {commit()}, simulator "
         f"binary sha256 {str(m.get('build'))[:12]}. Mechanism: docs/pca.md.", "",
         "Max-CTA is the run with every CTA that fits resident; Opt-CTA the cap with the "
         "fewest cycles at 0 tokens (Fig 6.3); PCA runs at Opt-CTA's cap, and its speedup "
         "is Opt-CTA's cycles over its own (6.2.3.3-6.2.3.4). The suite has three of "
         "Table 6.2's four cache-sensitive programs (CoMD is not in it), each our own "
         "implementation with our inputs.", "",
         "A *case* is a workload under one L1D set index and input size (the sweep's "
         "variants): `fermi` is gtx480's own index, the hash of SM2_GTX480's L1D "
         "(GPGPU-Sim's set index function H, the simulator the dissertation ran), "
         "`fermi-large` the three at large inputs with it, `fermi-xlarge` kmeans with the 34 "
         "features of Table 6.2's kdd_cup input (10,240 points; docs/workloads.md "
         "\"Sizes\"), and `linear` the ablation (set = "
         "address / line size mod sets). The rows beside the paper "
         "use Table 6.1's setup: the hash, at the largest input each workload ran at ("
         + ", ".join(pw) + "); the ablation and per-case tables show every case.", ""]
    L += run_lengths(rows, pw, info)
    L += ["## Ours beside the dissertation", "",
         "| claim (6.2.3) | paper | ours |", "|---|---|---|",
         correlate.baseline_row("gtx480")]
    L += paper_rows(rows, ws, toks, info, V)
    top = max(r[CAP] for r in rows)
    full = [w for w in ws if info[w]["fit"] == top and info[w].get("hw") != top]
    hw = [w for w in ws if info[w]["fit"] == top and info[w].get("hw") == top]
    if full:
        L += ["", "Max-CTA of " + ", ".join(full) + " is the grid's top cap: a larger cap "
              "might still change its runs (experiments/pca.toml)."]
    if hw:
        L += ["", "Max-CTA of " + ", ".join(hw) + f" is the grid's top cap, {top} CTAs, which is "
              "also the most a gtx480 core holds by its thread and CTA limits for their CTA "
              "size (threads per CTA from the points' statistics, configs/gtx480.conf): no "
              "larger cap could change their runs."]
    L += ["", "### Why ours differ", ""]
    peak = memory.dram_peak_bps()
    for w in ws:
        i = info[w]
        t = i["best"] or max(t for t in toks if t)
        r0 = next(x for x in rows if x["workload"] == w and x[CAP] == i["opt"] and x[TOK] == 0)
        rt = next(x for x in rows if x["workload"] == w and x[CAP] == i["opt"] and x[TOK] == t)
        thr = (f"throttling to {i['opt']} of {i['fit']} CTAs is {pct(i['opt_gain'])} over Max-CTA"
               if i["opt"] < i["fit"] else f"no cap below the {i['fit']} CTAs that fit is faster")
        pa, da = rt["pca.prio_accesses"], rt["pca.deprio_accesses"]
        mw = r0["stall.mem_wait"] / r0["sm_cycles"] if r0["sm_cycles"] else 0.0
        sb = (r0.get("stall.scoreboard") or 0) / r0["sm_cycles"] if r0["sm_cycles"] else 0.0
        L.append(f"* **{w}**: {thr}; at {t} tokens {rt['pca.bypassed']} fills bypassed "
                 f"({100 * rt['pca.bypassed'] / max(rt['l1d.accesses'], 1):.2f}% of "
                 f"{rt['l1d.accesses']} L1D accesses), L1D miss rate {fmt(r0['l1d.miss_rate'])} "
                 f"-> {fmt(rt['l1d.miss_rate'])}, speedup {pct(i['sp'][t] - 1)}. Warps "
                 f"without a token made {100 * da / (pa + da) if pa + da else 0:.0f}% of the "
                 "L1D accesses (PCA protects the token holders' lines from those only), "
                 f"token holders hit {fmt(rt['pca.prio_hits'] / pa) if pa else '-'} and the "
                 f"others {fmt(rt['pca.deprio_hits'] / da) if da else '-'} of theirs; "
                 f"at 0 tokens {100 * mw:.1f}% of SM-cycles stalled on the memory unit "
                 f"(`stall.mem_wait`: a request refused) and {100 * sb:.1f}% waiting on an "
                 "operand (`stall.scoreboard`, where a missing load's latency shows)"
                 + (" (little for a cache policy to win)" if mw + sb < 0.05 else "")
                 + (f", at {t} tokens {100 * rt['stall.mem_wait'] / rt['sm_cycles']:.1f}% "
                    "stalled on the memory unit (L1D reservation failures x"
                    f"{rt['l1d.reservation_fails'] / r0['l1d.reservation_fails']:.2f})"
                    if mw >= 0.05 and rt["sm_cycles"] and r0["l1d.reservation_fails"] else "")
                 + f"; L2 miss rate {fmt(r0['l2.miss_rate'])}, DRAM {r0['bw']:.1f} GB/s"
                 + (f" ({100 * r0['bw'] * 1e9 / peak:.0f}% of the {peak / 1e9:.1f} GB/s peak)"
                    if peak else "")
                 + (f": most L1D misses go on to DRAM, so the run follows its DRAM bytes "
                    f"(x{rt['dram.bytes'] / r0['dram.bytes']:.3f} at {t} tokens)"
                    if r0["l2.miss_rate"] > 0.5 and r0["dram.bytes"] else "") + ".")
    km = [w for w in ws if w.split(" (")[0] == "kmeans" and "(fermi" in w]
    if km:
        parts = []
        for w in km:
            i = info[w]
            lo = min(r[CAP] for r in rows if r["workload"] == w)
            m1 = next(x for x in rows if x["workload"] == w and x[CAP] == lo and x[TOK] == 0)
            mx = next(x for x in rows if x["workload"] == w and x[CAP] == i["fit"] and x[TOK] == 0)
            nf = KMEANS_FEATURES.get(m1["size"], 8)
            parts.append(f"{w}: {nf} features, {i['fit']} resident CTA"
                         f"{'s' if i['fit'] != 1 else ''} of 4 warps hold "
                         f"{i['fit'] * 4 * nf * 128 / 1024:.0f} KB of feature lines; L1D miss "
                         f"rate at 0 tokens {fmt(m1['l1d.miss_rate'])} with {lo} resident CTA "
                         f"and {fmt(mx['l1d.miss_rate'])} with {i['fit']}, yet {lo} CTA runs "
                         f"at {mx['cycles'] / m1['cycles']:.2f} of Max-CTA's speed (L2 miss "
                         f"rate {fmt(m1['l2.miss_rate'])} and {fmt(mx['l2.miss_rate'])}); PCA's "
                         f"best {pct(i['sp'][i['best']] - 1)} at {i['best']} tokens")
        L.append("* **kmeans' working set.** A warp reads one 128-byte line per feature "
                 "(column-major features, workloads/kmeans/kmeans.c) and revisits them for "
                 "each of the 8 centroids; the dissertation's Rodinia kmeans runs kdd_cup's 34 "
                 "features (4.25 KB a warp), our default, large inputs 8 (1 KB) and our xlarge "
                 "input 34, against the 16 KB L1D. " + "; ".join(parts) + ". The thrashing PCA "
                 "relieves is the miss rate's rise from few to all resident CTAs; throttling "
                 "(Fig 6.3's KMEANS) removes it too, but pays in warps that hide the misses "
                 "that remain, which go on to the L2 and, where it misses, to DRAM.")
    bw = []
    for w in pw:
        i = info[w]
        t = i["best"]
        if not t:
            continue
        r0 = next(x for x in rows if x["workload"] == w and x[CAP] == i["opt"] and x[TOK] == 0)
        rt = next(x for x in rows if x["workload"] == w and x[CAP] == i["opt"] and x[TOK] == t)
        if r0["dram.bytes"] and r0["bw"]:
            bw.append(f"{w} {pct(rt['bw'] / r0['bw'] - 1)} (DRAM bytes "
                      f"x{rt['dram.bytes'] / r0['dram.bytes']:.3f} at a speedup of "
                      f"{pct(i['sp'][t] - 1)})")
    if bw:
        L.append("* **DRAM bandwidth (Fig 6.7; paper PCA +30% on average, KMEANS +103%).** "
                 "At each case's best token count against 0 tokens: " + "; ".join(bw)
                 + ". Bandwidth is bytes over time: where the bytes barely move, PCA's "
                 "bandwidth gain is its speedup, and the dissertation's larger bandwidth "
                 "gains go with its larger speedups (KMEANS +39%).")
    if 4 in toks:
        parts = []
        for w in pw:
            r = next(x for x in rows if x["workload"] == w and x[CAP] == info[w]["opt"] and x[TOK] == 4)
            pa, da = r["pca.prio_accesses"], r["pca.deprio_accesses"]
            parts.append(f"{w} {pct(info[w]['sp'][4] - 1)} (token-less warps make "
                         f"{100 * da / (pa + da) if pa + da else 0:.0f}% of the L1D accesses and "
                         f"hit {fmt(r['pca.deprio_hits'] / da) if da else '-'}; {r['pca.bypassed']} "
                         "fills bypassed)")
        best = []
        for w in pw:
            r = next(x for x in rows if x["workload"] == w and x[CAP] == info[w]["opt"]
                     and x[TOK] == info[w]["best"])
            pa, da = r["pca.prio_accesses"], r["pca.deprio_accesses"]
            best.append(f"{w} {100 * da / (pa + da) if pa + da else 0:.0f}% at {info[w]['best']}")
        L.append("* **Two tokens per scheduler (4 per core).** " + "; ".join(parts) + ". With "
                 "4 of a core's warps holding tokens, the others' fills that find no token-less "
                 "line bypass the L1D, and their next access to the line misses again; at each "
                 "case's best count the token-less share of accesses is smaller ("
                 + ", ".join(best) + ").")
    L += ["", "Block reuse (Fig 6.6) is `l1d.block_reuse` / `l2.block_reuse`: hits to a "
          "line while it was resident, averaged over the lines whose life ended (evicted, or "
          "at the L1D's kernel-end invalidation; docs/stats.md).", ""]
    L += ablation(ws, toks, info, V) + set_index(ws, toks, info, V, sorted({r[CAP] for r in rows}))
    L += causes(rows, ws, toks, info)
    L += ["## Per workload", "",
          "| workload | Max-CTA cap | Opt-CTA cap | Opt-CTA vs Max-CTA | tokens | speedup vs "
          "Opt-CTA | L1D miss | L2 miss | L1D reuse | L2 reuse | DRAM GB/s | bypassed |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for w in ws:
        i = info[w]
        for t in toks:
            r = next(x for x in rows if x["workload"] == w and x[CAP] == i["opt"] and x[TOK] == t)
            L.append(f"| {w} | {i['fit']} | {i['opt']} | {pct(i['opt_gain'])} | {t} | "
                     f"{fmt(i['sp'][t])} | {fmt(r['l1d.miss_rate'])} | {fmt(r['l2.miss_rate'])} | "
                     f"{fmt(r['l1_reuse'], 2)} | {fmt(r['l2_reuse'], 2)} | {fmt(r['bw'], 1)} | "
                     f"{r['pca.bypassed']} |")
    L += ["", "![Fig 6.3](pca-tlp.png)", "", "![Fig 6.4](pca-speedup.png)", "",
          "![L1D miss](pca-l1-miss.png)", "", "![L2 miss](pca-l2-miss.png)", "",
          "![L1D reuse](pca-l1-reuse.png)", "", "![L2 reuse](pca-l2-reuse.png)", "",
          "![bandwidth](pca-bandwidth.png)", "",
          "Rerun: `make experiments-pca` (cached per point). The merged table is "
          "build/experiments/pca/results.csv.", ""]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(L))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: pca.py SWEEP_OUT RESULTS_DIR")
    main(sys.argv[1], sys.argv[2])
