#!/usr/bin/env python3
"""Plots and results page of make experiments-compaction (experiments/
compaction.toml, with experiments/compaction_more.toml's permutations, CAPT
histories and sizes and the size study experiments/compaction_size.toml,
read from the sibling output directories when they are there):
usage: compaction.py SWEEP_OUT RESULTS_DIR.

Writes RESULTS_DIR/compaction.md (generated, prose numbers included: do not
edit) and its PNG plots: every claim of the dissertation's chapter 4 that
the model can measure, ours beside the paper's -- CAPRI's performance over
No_TBC and TBC+ (4.4.2.3), its prediction quality (Fig 4.21), SIMD
utilisation and idle cycles (Fig 4.22), L1/L2 misses (Fig 4.24, 4.4.3.4),
CAPT size (Fig 4.25), the compaction rate by branch class with TBC_ideal
(Fig 4.15, 4.26) and by fraction of active threads (Fig 4.27, 4.28), SLP's
SIMD utilisation and performance (Fig 4.29, 4.30) -- the input-size study,
the ablation table (each modelling choice put back) and, where ours
differ, the statistic of ours that explains it. The compaction object of
--stats-json is read from each point's stats JSON."""
import json
import math
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "tools"))

from sweeplib import plot, progpage, runner, table   # noqa: E402
from sweeplib.source import source_commit   # noqa: E402
import correlate   # noqa: E402  (the "baseline correlated" headline row)

PERMS = ["none", "balanced", "odd_even", "rev_wid", "wid", "flip_odd", "xor_half_odd",
         "rotate_odd_1"]
SCHEMES = ["none", "tbc", "tbc_plus", "capri-latest", "capri-sticky", "capri-counter2",
           "ideal"]
ENTRIES = [2, 4, 8, 16, 32]
QUAL = ["bypass_bypass", "stall_stall", "bypass_stall", "stall_bypass"]
QLABEL = ["Bypass/Bypass", "Stall/Stall", "Bypass/Stall", "Stall/Bypass"]
DIV90 = 0.90         # 4.4.2 (Fig 4.21 caption): divergent = SIMD_util below 90 %
DIV99 = 0.99         # 4.4.1: 18 of 40 benchmarks exhibit divergence (the other 22 > 99 %)
EFFECTIVE = 0.98     # compaction-effective: tbc issues at most 98 % of none's warps
SIMD_GAIN = 0.01     # L1 misses (4.4.3.4): workloads whose SIMD utilisation rises by > 1 point
QUARTERS = ["0-25%", "25-50%", "50-75%", "75-100%"]


def hmean(vals):
    vals = list(vals)
    return len(vals) / sum(1.0 / v for v in vals) if vals else float("nan")


def amean(vals):
    vals = list(vals)
    return sum(vals) / len(vals) if vals else float("nan")


def pct(x):
    return f"{100 * x:+.1f}%"


def pc(x):
    return f"{100 * x:.1f}%"


def fmt(v, n=3):
    return "-" if v is None else f"{v:.{n}f}"


def load(out):
    """Rows of a sweep with 'st' (the point's stats JSON) added; exits when a
    point did not pass."""
    raw = table.read_rows(out)
    bad = [r for r in raw if r["status"] != "pass"]
    if bad:
        sys.exit(f"compaction: {len(bad)} points of {out} did not pass (first: point "
                 f"{bad[0]['point']} {bad[0]['workload']} {bad[0]['variant']}: "
                 f"{bad[0]['status']}): no page from an incomplete sweep")
    return [with_stats(out, r) for r in raw]


def with_stats(out, r):
    """Row r of the sweep in out with its stats JSON and derived fields."""
    r = dict(r)
    with open(runner.stats_path(out, r["key"]), encoding="utf-8") as f:
        r["st"] = json.load(f)
    r["perf"] = r["thread_insts"] / r["cycles"]
    r["idle_res"] = r["idle_cycles"] - r["st"]["stall"]["no_warps"]
    r["nlaunch"] = len(r["st"]["launches"])
    return r


class Part:
    """What a companion sweep (compaction_more, compaction_size) holds:
    every point (it finished: results.json), the points that passed so far
    (it is running or was cut: its manifest and points/ only), or nothing
    (not run). rows: the passed rows; done / points: counts."""

    def __init__(self, out, spec):
        self.spec, self.rows, self.done, self.points = spec, [], 0, 0
        self.complete = os.path.exists(os.path.join(out, "results.json"))
        if self.complete:
            self.rows = load(out)
            self.done = self.points = len(self.rows)
        elif os.path.exists(os.path.join(out, table.MANIFEST)):
            _, raw, _ = table.build(out)
            self.points = len(raw)
            self.rows = [with_stats(out, r) for r in raw if r["status"] == "pass"]
            self.done = len(self.rows)

    def note(self):
        """How the page names what is missing of this sweep."""
        if self.complete:
            return f"complete ({self.points} points)"
        if self.points:
            return (f"partial: {self.done} of {self.points} points had passed when this page "
                    "was rendered")
        return f"not run (experiments/{self.spec}.toml: `make experiments-{self.spec}`)"

    def missing(self):
        """A table cell / sentence for a figure this sweep would give."""
        if self.points:
            return (f"not yet measured (experiments/{self.spec}.toml: {self.done} of "
                    f"{self.points} points)")
        return f"not run (experiments/{self.spec}.toml: `make experiments-{self.spec}`)"


def complete_workloads(rows):
    """rows less the workloads that lack one of the (variant, size) pairs
    the rows have (a partial sweep: every figure over the same workloads)."""
    pairs = {(r["variant"], r["size"]) for r in rows}
    have = {}
    for r in rows:
        have.setdefault(r["workload"], set()).add((r["variant"], r["size"]))
    ok = {w for w, h in have.items() if h >= pairs}
    return [r for r in rows if r["workload"] in ok]


class Sweep:
    """Lookups into one sweep's rows by (workload, variant[, size])."""

    def __init__(self, rows):
        self.rows = rows
        self.idx = {}
        for r in rows:
            self.idx[(r["workload"], r["variant"], r["size"])] = r
        self.sizes = sorted({r["size"] for r in rows},
                            key=["small", "default", "large"].index)
        self.wl = list(dict.fromkeys(r["workload"] for r in rows))
        full = lambda v: all(self.has(w, v) for w in self.wl)   # noqa: E731
        self.schemes = [v for v in SCHEMES if full(f"{v}.none")]
        self.more_on(self.wl)

    def more_on(self, ws):
        """What compaction_more.toml added, over the workloads ws it covers
        (self.mw): the permutations, CAPT histories and sizes every one of
        them has (none and balanced are compaction.toml's)."""
        self.mw = list(ws) or list(self.wl)
        full = lambda v: all(self.has(w, v) for w in self.mw)   # noqa: E731
        self.perms = [p for p in PERMS if full(f"tbc.{p}") and full(f"capri-latest.{p}")]
        self.hists = [v for v in ("capri-latest", "capri-sticky", "capri-counter2")
                      if full(f"{v}.none")]
        self.sizes_ok = bool(self.mw) and all(full(f"capri.e{e}") for e in ENTRIES if e != 32)

    def m(self, ws):
        """ws less the workloads compaction_more did not run."""
        return [w for w in ws if w in self.mw]

    def has(self, w, v, size=None):
        return (w, v, size or self.sizes[0]) in self.idx

    def G(self, w, v, size=None):
        k = (w, v, size or self.sizes[0])
        if k not in self.idx:
            raise plot.PlotError(f"no row for {k}")
        return self.idx[k]

    def C(self, w, v, size=None):
        return self.G(w, v, size)["st"]["compaction"]

    def sp(self, w, v, base, size=None):
        return self.G(w, v, size)["perf"] / self.G(w, base, size)["perf"]


# The dissertation's aggregate figures drawn as hatched bars beside ours
# (its text, ch. 4): CAPRI over No_TBC on the divergent benchmarks
# (4.4.2.3, hmean); idle cycles of TBC / TBC+ / CAPRI over No_TBC
# (4.4.2.2); L1 / L2 misses of SLP on CAPRI (4.4.3.4); compaction rate by
# class without SLP, with Balanced and ideal (4.4.3.1); Balanced on CAPRI
# over No_TBC (4.4.3.3, hmean). Ours are geometric means (the plots'
# gmean cluster), the text's as it states them.
PAPER = {"capri": 1.149, "idle": {"tbc": 1.72, "tbc_plus": 1.63, "capri-latest": 1.05},
         "l1": 1.069, "l2": 1.013,
         "rate": {("none", "P"): 0.032, ("balanced", "P"): 0.715, ("ideal", "P"): 0.727,
                  ("none", "D"): 0.425, ("ideal", "D"): 0.644},
         "slp_speed": 1.116}


# uncompacted reasons forced by the rule that timing never changes a result
# (docs/compaction.md, "Kernels that run uncompacted"): the warp-level
# instructions and the atomics; the others (call, brx.idx, tex, tld4,
# bar.red, more than 32 warps, gscalar.scalar/stats) are engine limits
FORCED_UNCOMPACTED = {"shfl", "vote", "activemask", "match", "bar.warp.sync",
                      "nanosleep", "wmma/mma", "atom", "red"}


def launch_reasons(st):
    """{reason: launches} of the launches that ran uncompacted."""
    out = {}
    for ln in st["launches"]:
        u = (ln.get("compaction") or {}).get("uncompacted")
        if u:
            key = u.replace("uncompacted: ", "").split(" at line")[0]
            out[key] = out.get(key, 0) + 1
    return out


def sets(S, size=None):
    """The workload sets of the page, from the sweep's own statistics."""
    G, C = (lambda w, v: S.G(w, v, size)), (lambda w, v: S.C(w, v, size))
    wl = S.wl
    unc = [w for w in wl if C(w, "tbc.none")["uncompacted_launches"] ==
           C(w, "tbc.none")["launches"]]
    comp = [w for w in wl if w not in unc]
    div90 = [w for w in comp if G(w, "none.none")["simd_util"] < DIV90]
    div99 = [w for w in comp if G(w, "none.none")["simd_util"] < DIV99]
    eff = [w for w in comp if G(w, "tbc.none")["warp_insts"] <=
           EFFECTIVE * G(w, "none.none")["warp_insts"]]
    ineff = [w for w in comp if w not in eff]
    nondiv = [w for w in comp if w not in div90]
    idle_up = [w for w in div99 if G(w, "tbc.none")["idle_res"] > G(w, "none.none")["idle_res"]]
    return dict(wl=wl, unc=unc, comp=comp, div90=div90, div99=div99, eff=eff, ineff=ineff,
                nondiv=nondiv, idle_up=idle_up)


def class_rates(C, ws, variant, cl, ideal=False):
    """Per-workload compaction rate of branch class cl (only workloads with
    such paths) under variant: {workload: rate}."""
    out = {}
    for w in ws:
        c = C(w, variant)["classes"][cl]
        if c["paths"]:
            out[w] = (c["paths_ideal"] if ideal else c["paths_tbc"]) / c["paths"]
    return out


def headline(S, st, names=None, size=None):
    """The headline figures (a dict) on the sets st; names maps a role to
    the variant that plays it (ablations put another variant there)."""
    n = {"tbc": "tbc.none", "tbc_plus": "tbc_plus.none", "capri": "capri-latest.none",
         "ideal": "ideal.none", "bal": "capri-latest.balanced", "tbc_bal": "tbc.balanced"}
    n.update(names or {})

    def sp(w, v, base="none.none"):
        return S.sp(w, v, base, size)
    h = {}
    div, ineff, nondiv = st["div90"], st["ineff"], st["nondiv"]
    if div:
        h["capri_none"] = hmean(sp(w, n["capri"]) for w in div)
        h["capri_tbcp"] = hmean(sp(w, n["capri"], n["tbc_plus"]) for w in div)
        h["ideal_none"] = hmean(sp(w, n["ideal"]) for w in div)
        h["bal_none"] = hmean(sp(w, n["bal"]) for w in div)
        h["bal_capri"] = hmean(sp(w, n["bal"], n["capri"]) for w in div)
    if ineff:
        cap = [sp(w, n["capri"]) for w in ineff]
        h["capri_in2"] = sum(1 for x in cap if abs(x - 1) <= 0.02)
        h["capri_in_n"] = len(cap)
        h["capri_in_mean"] = hmean(cap)
    if nondiv:
        t = [sp(w, n["tbc"]) for w in nondiv]
        h["tbc_nondiv"] = hmean(t)
        h["tbc_nondiv_min"] = min(t)
        h["tbcp_nondiv"] = hmean(sp(w, n["tbc_plus"]) for w in nondiv)
    iu = [w for w in st["idle_up"] if S.G(w, "none.none", size)["idle_res"] > 0]
    if iu:
        for k, v in (("idle_tbc", n["tbc"]), ("idle_tbcp", n["tbc_plus"]),
                     ("idle_capri", n["capri"])):
            h[k] = amean(S.G(w, v, size)["idle_res"] / S.G(w, "none.none", size)["idle_res"]
                         for w in iu) - 1
    return h


def main(out, res):
    sib = lambda name: os.path.join(os.path.dirname(os.path.abspath(out)), name)   # noqa: E731
    part = Part(out, "compaction")
    if not part.points:
        sys.exit(f"compaction: {out} holds no sweep (no {table.MANIFEST})")
    mine = complete_workloads(part.rows)
    if not mine:
        sys.exit(f"compaction: no workload of {out} has every variant yet "
                 f"({part.done} of {part.points} points)")
    more = Part(sib("compaction_more"), "compaction_more")
    have = {r["workload"] for r in mine}
    S = Sweep(mine + [r for r in more.rows if r["workload"] in have])
    S.part, S.more = part, more
    size_part = Part(sib("compaction_size"), "compaction_size")
    zrows = complete_workloads(size_part.rows)
    Z = Sweep(zrows) if zrows else None
    S.size_part = size_part
    st = sets(S)
    # compaction_more runs the divergent set (its spec lists it): its
    # figures use the workloads that have every one of its variants
    mvars = {r["variant"] for r in more.rows}
    S.more_on([w for w in S.wl if mvars and all(S.has(w, v) for v in mvars)])
    os.makedirs(res, exist_ok=True)
    P = lambda name: os.path.join(res, name)   # noqa: E731
    G, C = S.G, S.C
    rows = S.rows

    # ---- plots
    main_rows = [dict(r, scheme=r["variant"].split(".")[0]) for r in rows
                 if r["variant"].endswith(".none") and r["variant"].split(".")[0] in S.schemes]
    plot.grouped_bars(P("compaction-ipc.png"), main_rows, "workload", "scheme", "perf",
                      baseline="none", xs=st["div90"], groups=S.schemes,
                      paper={("gmean", "capri-latest"): PAPER["capri"]},
                      title="Thread IPC normalised to No_TBC, divergent workloads "
                            "(SIMD < 90 %) (Fig 4.23; hatched: the paper's hmean)",
                      ylabel="IPC / none")
    plot.grouped_bars(P("compaction-simd.png"), main_rows, "workload", "scheme", "simd_util",
                      xs=st["div99"], groups=[v for v in S.schemes if v != "capri-counter2"],
                      title="SIMD lane utilisation (Fig 4.10, 4.22a)",
                      ylabel="SIMD utilisation")
    iws = [w for w in st["div90"] if G(w, "none.none")["idle_res"] > 0]
    plot.grouped_bars(P("compaction-idle.png"), main_rows, "workload", "scheme", "idle_res",
                      baseline="none", xs=iws,
                      groups=[v for v in S.schemes if v not in ("capri-counter2", "ideal")],
                      paper={("gmean", g): v for g, v in PAPER["idle"].items()},
                      title="Idle SM-cycles with resident warps, normalised to No_TBC "
                            "(Fig 4.22b; hatched: the paper's averages)",
                      ylabel="idle / none")
    qws = [w for w in S.m(st["comp"]) if C(w, "capri-latest.none")["capri"]["lookups"] > 0]
    qrows = []
    for w in qws:
        for v in S.hists:
            letter = {"capri-latest": "L", "capri-sticky": "S", "capri-counter2": "C"}[v]
            q = C(w, v + ".none")["capri"]["quality"]
            qrows.append(dict({k: q[k] for k in QUAL}, wv=f"{w} {letter}", status="pass"))
    plot.stacked_bars(P("compaction-quality.png"), qrows, "wv", QUAL, labels=QLABEL,
                      fraction=True, title="CAPRI prediction quality (prediction/outcome), "
                      "L/S/C = 1b-latest/1b-sticky/2-bit counter (Fig 4.21)",
                      ylabel="fraction of lookups")
    miss = {}
    for lvl in ("l1d", "l2"):
        mws = [w for w in st["div90"] if G(w, "none.none")[f"{lvl}.misses"] > 0]
        mrows = [dict(r, scheme=r["variant"]) for r in rows if r["variant"] in
                 ("none.none", "tbc_plus.none", "capri-latest.none", "capri-latest.balanced")]
        miss[lvl] = plot.grouped_bars(
            P(f"compaction-{lvl}-misses.png"), mrows, "workload", "scheme", f"{lvl}.misses",
            baseline="none.none", xs=mws,
            groups=["none.none", "tbc_plus.none", "capri-latest.none", "capri-latest.balanced"],
            paper={("gmean", "capri-latest.balanced"): PAPER["l1" if lvl == "l1d" else "l2"]},
            title=f"{lvl.upper()} misses normalised to No_TBC (Fig 4.24; hatched: the "
                  "paper's average for SLP on CAPRI, 4.4.3.4)",
            ylabel="misses / none")
    size_v = {e: ("capri-latest.none" if e == 32 else f"capri.e{e}") for e in ENTRIES}
    lws = [w for w in qws]
    srows = [] if not S.sizes_ok else [{"entries": e, "series": "gmean (workloads with lookups)", "status": "pass",
              "speedup": plot.geomean(S.sp(w, size_v[e], "none.none") for w in lws)}
             for e in ENTRIES]
    for w in sorted(lws, key=lambda w: -C(w, "capri-latest.none")["capri"]["lookups"])[:5]:
        for e in ENTRIES if S.sizes_ok else []:
            srows.append({"entries": e, "series": w, "status": "pass",
                          "speedup": S.sp(w, size_v[e], "none.none")})
    if srows:
        plot.lines(P("compaction-capt-size.png"), srows, "entries", "speedup", "series",
                   axis_values=ENTRIES, logx=True,
                   title="CAPT size: speedup over No_TBC (capri 1b-latest, LRU) (Fig 4.25)",
                   ylabel="IPC / none")
    # compaction rate by class (Fig 4.26), average over workloads with paths
    rate, rate_ideal = {}, {}
    for cl in ("P", "D"):
        rate_ideal[cl] = class_rates(C, st["comp"], "tbc.none", cl, ideal=True)
        for p in S.perms:
            rate[(p, cl)] = class_rates(C, st["comp"] if p in ("none", "balanced")
                                        else S.m(st["comp"]), f"tbc.{p}", cl)
    crows = []
    for cl in ("P", "D"):
        for p in S.perms + ["ideal"]:
            # the figure compares the permutations over compaction_more's workloads
            r = rate_ideal[cl] if p == "ideal" else rate[(p, cl)]
            r = {w: x for w, x in r.items() if w in S.mw}
            crows.append({"perm": p, "class": cl, "rate": amean(r.values()) if r else 0.0,
                          "status": "pass"})
    plot.grouped_bars(P("compaction-class-rate.png"), crows, "perm", "class", "rate",
                      xs=S.perms + ["ideal"], groups=["P", "D"], gmean=False,
                      paper=PAPER["rate"],
                      title="Compaction rate (compactable paths of divergent branches), "
                            "mean over workloads, tbc per SLP permutation (Fig 4.26; "
                            "hatched: the paper's means)",
                      ylabel="compaction rate")
    # SLP: SIMD (Fig 4.29) and performance (Fig 4.30)
    simd_rows = [dict(r, perm=r["variant"].split(".", 1)[1]) for r in rows
                 if r["variant"].startswith("tbc.")]
    plot.grouped_bars(P("compaction-slp-simd.png"), simd_rows, "workload", "perm",
                      "simd_util", xs=S.m(st["div99"]), groups=S.perms,
                      title="SIMD utilisation under tbc per SLP permutation (Fig 4.29)",
                      ylabel="SIMD utilisation")
    perf_rows = [dict(r, perm=r["variant"].split(".", 1)[1]) for r in rows
                 if r["variant"].startswith("capri-latest.")] + \
                [dict(r, perm="no_tbc") for r in rows if r["variant"] == "none.none"]
    plot.grouped_bars(P("compaction-slp-ipc.png"), perf_rows, "workload", "perm", "perf",
                      baseline="no_tbc", xs=S.m(st["div90"]), groups=["no_tbc"] + S.perms,
                      paper={("gmean", "balanced"): PAPER["slp_speed"]},
                      title="Speedup over No_TBC, capri (1b-latest) per SLP permutation "
                            "(Fig 4.30; hatched: the paper's hmean for Balanced)",
                      ylabel="IPC / none")
    write_page(P("compaction.md"), S, Z, st, rate, rate_ideal, miss, qws, lws, size_v)


def more_scope(S, st):
    """The page's sentence on the workloads compaction_more ran (its spec
    lists the divergent set less iix, for time), checked against this
    sweep's divergent set."""
    if not S.more.points or S.mw == S.wl:
        return []
    lack = [w for w in st["div90"] if w not in S.mw]
    extra = [w for w in S.mw if w not in st["div90"]]
    return [f"experiments/compaction_more.toml runs the divergent set less iix (its points "
            "take about 12 s each, a sixth of that sweep), so the figures of the SLP "
            "permutations other than none and balanced, of the CAPT histories other than "
            f"1b-latest and of the CAPT sizes use its {len(S.mw)} workloads "
            f"({', '.join(S.mw)}); the divergent workloads it lacks: "
            f"{', '.join(lack) if lack else 'none'}; the ones it has that this sweep does "
            f"not count as divergent: {', '.join(extra) if extra else 'none'}.", ""]


def right(C, ws, v):
    """Fig 4.21's fraction of right decisions of variant v over workloads
    ws: every warp's decision at a branch, the lookups' and the bypasses of
    warps that did not diverge, judged by the evaluator."""
    ok = tot = 0
    for w in ws:
        c = C(w, v)["capri"]
        q, qn = c["quality"], c["nodiv_quality"]
        ok += q["bypass_bypass"] + q["stall_stall"] + qn["bypass_bypass"]
        tot += sum(q.values()) + sum(qn.values())
    return ok / tot if tot else float("nan")


def row(*cells):
    return "| " + " | ".join(str(c) for c in cells) + " |"


def write_page(path, S, Z, st, rate, rate_ideal, miss, qws, lws, size_v):
    G, C = S.G, S.C
    head, dirty = source_commit()
    H = headline(S, st)
    n = len(S.rows)
    size = S.sizes[0]
    ctas = {w: G(w, "none.none")["ctas"] / G(w, "none.none")["nlaunch"] / 30.0 for w in S.wl}
    L = ["# Thread-block compaction, CAPRI and SLP", "",
         "Generated by `make experiments-compaction` (specs experiments/compaction.toml, "
         "experiments/compaction_more.toml and experiments/compaction_size.toml, page "
         "experiments/compaction.py, runner "
         f"docs/sweeps.md) from commit `{head}`"
         + (f" with uncommitted changes to {', '.join(dirty)}" if dirty else "") +
         ": do not edit. fx5800 (the dissertation's Table 4.1: 30 SMs, 32-lane SIMD, "
         f"two-level round-robin warp scheduler), timing mode, **{size} inputs**, seed 1: "
         f"{n} points; every capri run uses true LRU (4.4.2.5). The size study below "
         "shows where the figures stop moving. Mechanisms and the table of the "
         "dissertation's rules against the engine: docs/compaction.md; statistics: "
         "docs/stats.md.", "",
         *([] if S.part.complete else
           [f"**This sweep is {S.part.note()}**: the page uses the {len(S.wl)} workloads "
            f"that have every variant ({', '.join(S.wl)}); experiments/compaction.toml "
            "lists the divergent workloads first, so they come first.", ""]),
         f"Companion sweeps: experiments/compaction_more.toml (SLP permutations, CAPT "
         f"histories and sizes) {S.more.note()}; experiments/compaction_size.toml (the size "
         f"study) {S.size_part.note()}" +
         ("" if S.more.complete and S.size_part.complete else
          "; a figure that needs what did not run says so where it would stand") + ".", "",
         *(more_scope(S, st)),
         "Workload sets, from this sweep's own statistics: **compacted**: "
         f"{len(st['comp'])} of {len(S.wl)} (the other {len(st['unc'])} run every launch "
         "uncompacted, docs/compaction.md); **divergent** (4.4.2, Fig 4.21: SIMD "
         f"utilisation below {DIV90:.0%} without compaction): {len(st['div90'])} "
         f"({', '.join(st['div90'])}); **with divergence** (4.4.1: below {DIV99:.0%}): "
         f"{len(st['div99'])}; **non-divergent**: the other {len(st['nondiv'])} compacted; "
         f"**compaction-effective** (tbc issues at most {EFFECTIVE:.0%} of No_TBC's warp "
         f"instructions): {len(st['eff'])} ({', '.join(st['eff'])}); "
         f"**compaction-ineffective**: the other {len(st['ineff'])}. Speedup = thread IPC "
         "(the same thread instructions under every scheme) over No_TBC; performance "
         "means are harmonic, as the dissertation's.", ""]
    # ---- headline
    P_tbc = rate[("none", "P")]
    P_bal = rate[("balanced", "P")]
    P_id = rate_ideal["P"]
    D_tbc = rate[("none", "D")]
    D_id = rate_ideal["D"]
    pc_ws = [w for w in P_id if P_id[w] > 0 and w in st["div99"] and w in P_bal]
    PM = S.perms
    allp = len(PM) == len(PERMS)
    # none and balanced: every workload; the other permutations:
    # compaction_more's (S.m)
    d99m, d90m = S.m(st["div99"]), S.m(st["div90"])
    simd = {p: {w: G(w, f"tbc.{p}")["simd_util"]
                for w in (st["div99"] if p in ("none", "balanced") else d99m)} for p in PM}
    s_none = {w: G(w, "none.none")["simd_util"] for w in st["div99"]}
    bal_simd_none = amean(simd["balanced"][w] / s_none[w] for w in st["div99"]) - 1
    bal_simd_tbc = amean(simd["balanced"][w] / simd["none"][w] for w in st["div99"]) - 1
    best_simd = {w: max(simd[p][w] for p in PM) for w in d99m}
    worst_bal = min(d99m, key=lambda w: simd["balanced"][w] / best_simd[w]) if d99m else None
    perf = {p: {w: G(w, f"capri-latest.{p}")["perf"]
                for w in (st["div90"] if p in ("none", "balanced") else d90m)} for p in PM}
    best_perf = {w: max(perf[p][w] for p in PM) for w in d90m}
    worst_balp = min(d90m, key=lambda w: perf["balanced"][w] / best_perf[w]) if d90m else None
    gain = [w for w in st["div90"] if G(w, "capri-latest.balanced")["simd_util"] >
            G(w, "none.none")["simd_util"] + SIMD_GAIN and G(w, "none.none")["l1d.misses"] > 0]
    l1 = {w: G(w, "capri-latest.balanced")["l1d.misses"] / G(w, "none.none")["l1d.misses"]
          for w in gain}
    l2 = {w: G(w, "capri-latest.balanced")["l2.misses"] / max(1, G(w, "none.none")["l2.misses"])
          for w in gain}
    lmax = max(l1, key=l1.get) if l1 else None
    qual = {}
    for name, ws in (("div", st["div90"]), ("nondiv", st["nondiv"])):
        for v in S.hists:
            qual[(name, v)] = right(C, ws if v == "capri-latest" else S.m(ws), v + ".none")
    bm = [w for w in ("bfs", "mum") if w in S.m(st["comp"])]
    qbm = {v: right(C, bm, v + ".none") if bm and v in S.hists else None
           for v in ("capri-latest", "capri-sticky")}
    de = [w for w in st["div90"] if w in st["eff"]]
    e4 = {w: S.sp(w, "capri.e4", "none.none") / S.sp(w, "capri-latest.none", "none.none")
          for w in lws} if S.sizes_ok else {}
    e8 = hmean(S.sp(w, "capri.e8", "none.none") for w in lws) / \
        hmean(S.sp(w, "capri-latest.none", "none.none") for w in lws) if lws and e4 else None
    slow_ideal = sorted((w for w in st["div90"] if S.sp(w, "ideal.none", "none.none") < 1),
                        key=lambda w: S.sp(w, "ideal.none", "none.none"))
    L += ["## Headline: ours against the dissertation", "",
          row("claim (dissertation section)", "paper", "ours"), "|---|---|---|",
          correlate.baseline_row("fx5800"),
          row("CAPRI (1b-latest) over No_TBC, divergent benchmarks (4.4.2.3)", "+14.9% hmean",
              f"{pct(H['capri_none'] - 1)} hmean over the {len(st['div90'])} divergent"),
          row("CAPRI (1b-latest) over TBC+, divergent benchmarks (4.4.2.3)", "+7.6% hmean",
              pct(H["capri_tbcp"] - 1)),
          row("... the same on the divergent workloads where compaction is effective "
              "(the dissertation's divergent pair BFS and MUM are both)", "(BFS, MUM)",
              f"{pct(hmean(S.sp(w, 'capri-latest.none', 'none.none') for w in de) - 1)} / "
              f"{pct(hmean(S.sp(w, 'capri-latest.none', 'tbc_plus.none') for w in de) - 1)} "
              f"over No_TBC / TBC+ ({len(de)}: {', '.join(de)})" if de else "-"),
          row("CAPRI within +-2% of No_TBC where compaction is ineffective (4.2.3, 4.6)",
              "all", f"{H['capri_in2']} of {H['capri_in_n']} (hmean "
              f"{pct(H['capri_in_mean'] - 1)})"),
          row("TBC / TBC+ on non-divergent benchmarks (4.4.2.3); TBC's worst (4.6)",
              "-12% / -11% avg; -19% max", f"{pct(H['tbc_nondiv'] - 1)} / "
              f"{pct(H['tbcp_nondiv'] - 1)} hmean; {pct(H['tbc_nondiv_min'] - 1)} worst "
              f"({min(st['nondiv'], key=lambda w: S.sp(w, 'tbc.none', 'none.none'))})"),
          row("TBC_ideal, the upper bound of 4.3.1 (threads may change lanes)",
              "an upper bound on compaction (no time reported)",
              f"SIMD {fmt(amean(G(w, 'ideal.none')['simd_util'] for w in st['div99']))} "
              f"against TBC {fmt(amean(G(w, 'tbc.none')['simd_util'] for w in st['div99']))} "
              f"(mean, with divergence); speed over No_TBC {pct(H['ideal_none'] - 1)} hmean "
              f"on the divergent, slower on {len(slow_ideal)} of them"),
          row("Idle cycles: TBC / TBC+ / CAPRI 1b-latest over No_TBC, benchmarks where TBC "
              "raises them (4.4.2.2)", "+72% / +63% / +5%",
              f"{pct(H['idle_tbc'])} / {pct(H['idle_tbcp'])} / {pct(H['idle_capri'])} "
              f"(mean, {len(st['idle_up'])} benchmarks)"),
          row("Decisions right, CAPRI 1b-latest: non-divergent / divergent (4.4.2.1, "
              "Fig 4.21: every warp's stall or bypass at a branch)",
              "99% / 87%", f"{pc(qual[('nondiv', 'capri-latest')])} / "
              f"{pc(qual[('div', 'capri-latest')])}"),
          row("Prediction right on BFS and MUM: 1b-sticky / 1b-latest (4.4.2.1)",
              "61% / 75%", (f"{pc(qbm['capri-sticky'])} / {pc(qbm['capri-latest'])}"
               if qbm["capri-sticky"] is not None else
               "1b-sticky " + S.more.missing() if "capri-sticky" not in S.hists else "-")),
          row("CAPT size: 8 entries reach 97% of an unbounded CAPT; 4 entries >= 98.3% "
              "except MUM (95%) (4.2.2, 4.4.2.5)", "97%; >= 98.3%",
              (f"8 entries {pc(e8)} of 32; 4 entries >= {pc(min(e4.values()))} "
               f"({min(e4, key=e4.get)})" if e4 else S.more.missing() if not S.sizes_ok else "-")),
          row("P-branch compaction rate: TBC / SLP Balanced / TBC_ideal (4.3.3, 4.4.3.1, "
              "Fig 4.26)", "3.2% / 71.5% / 72.7%",
              f"{pc(amean(P_tbc.values()))} / {pc(amean(P_bal.values()))} / "
              f"{pc(amean(P_id.values()))} (mean of {len(P_id)} workloads with P paths)"
              + (f"; {pc(amean(P_tbc[w] for w in pc_ws))} / "
                 f"{pc(amean(P_bal[w] for w in pc_ws))} / {pc(amean(P_id[w] for w in pc_ws))}"
                 f" over the {len(pc_ws)} with divergence whose P paths ideal compaction can "
                 "compact (the paper's average: its 10 of 15 benchmarks with compactable "
                 "P-branches, 4.4.3.1)" if pc_ws else "")),
          row("D-branch compaction rate: TBC / TBC_ideal (4.4.3.1)", "42.5% / 64.4%",
              f"{pc(amean(D_tbc.values()))} / {pc(amean(D_id.values()))} (mean of "
              f"{len(D_id)} workloads with D paths)"),
          row("SIMD utilisation, Balanced over No_TBC / over TBC (4.4.3.2, Fig 4.29)",
              "+11.3% / +7.1%", f"{pct(bal_simd_none)} / {pct(bal_simd_tbc)} (mean, "
              f"{len(st['div99'])} with divergence)"),
          row("Balanced within 99.4% of the best permutation's SIMD utilisation (4.4.3.2)",
              ">= 99.4%", f"worst {pc(simd['balanced'][worst_bal] / best_simd[worst_bal])} "
              f"({worst_bal}); {sum(1 for w in d99m if simd['balanced'][w] >= 0.994 * best_simd[w])} "
              f"of {len(d99m)} at >= 99.4%" if allp and d99m else "the other permutations " + S.more.missing()),
          row("Speed, Balanced on CAPRI over No_TBC / over CAPRI (4.4.3.3, Fig 4.30)",
              "+11.6% / +7.0% hmean", f"{pct(H['bal_none'] - 1)} / {pct(H['bal_capri'] - 1)}"),
          row("Balanced within 98.9% of the best permutation's speed (4.4.3.3)", ">= 98.9%",
              f"worst {pc(perf['balanced'][worst_balp] / best_perf[worst_balp])} "
              f"({worst_balp})" if allp and d90m else "the other permutations " + S.more.missing()),
          row("L1 / L2 misses where SIMD utilisation rises (SLP on CAPRI, 4.4.3.4)",
              "+6.9% avg (max +27%, BFS) / +1.3%",
              (f"{pct(amean(l1.values()) - 1)} avg (max {pct(l1[lmax] - 1)}, {lmax}) / "
               f"{pct(amean(l2.values()) - 1)} ({len(gain)} workloads)" if gain else "-")),
          ""]
    L += why_section(S, Z, st, H, slow_ideal, ctas)[:-1] + \
        why_slp(S, st, H, rate, rate_ideal)[:-1] + \
        why_rows(S, st, H, perf, best_perf, worst_balp, l1, ctas)[:-1] + \
        why_more(S, st, lws, size_v) + [""]
    L += capri_cost_section(S, st, ctas)
    L += size_section(S, Z, st)
    L += ablation_section(S, st, H)
    L += ["![IPC](compaction-ipc.png)", "", "![SIMD utilisation](compaction-simd.png)", "",
          "![idle cycles](compaction-idle.png)", "",
          "![prediction quality](compaction-quality.png)", "",
          "![L1 misses](compaction-l1d-misses.png)", "", "![L2 misses](compaction-l2-misses.png)",
          ""] + (["![CAPT size](compaction-capt-size.png)", ""] if S.sizes_ok else []) + [
          "![compaction rate by class](compaction-class-rate.png)", "",
          "![SLP SIMD utilisation](compaction-slp-simd.png)", "",
          "![SLP speedup](compaction-slp-ipc.png)", ""]
    L += tables_section(S, st, rate, rate_ideal, qws, lws, size_v, ctas, miss)
    L += ["Rerun: `make experiments-compaction` (cached per point; `SWEEP_FLAGS=--force` "
          "reruns all). The merged tables are build/experiments/compaction/results.csv, "
          "build/experiments/compaction_more/results.csv and build/experiments/compaction_size/results.csv.", ""]
    doc = progpage.load(os.path.join(os.path.dirname(path), "compaction-programs.json"))
    if doc:
        L += progpage.wrap("compaction", programs_section(doc)) + [""]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(L))


def why_slp(S, st, H, rate, rate_ideal):
    """Bullets on the compaction rates and SLP, from the sweep's statistics."""
    G, C = S.G, S.C
    P_id, P_bal, P_tbc = rate_ideal["P"], rate[("balanced", "P")], rate[("none", "P")]
    cover = [w for w in P_id if P_id[w] > 0]
    own = [w for w in cover if w in st["div99"]]
    reach = sum(1 for w in cover if P_bal.get(w, 0) >= P_id[w] - 1e-9)
    zero = sorted(w for w in P_id if P_id[w] == 0)
    paths = lambda v, cl, key: sum(C(w, v)["classes"][cl].get(key, 0) for w in st["comp"])  # noqa
    nP = max(1, paths('tbc.none', 'P', 'paths'))
    one, dense = paths('tbc.none', 'P', 'paths_one_warp'), paths('tbc.none', 'P', 'paths_dense')
    p_id, p_tbc = paths('tbc.none', 'P', 'paths_ideal'), paths('tbc.none', 'P', 'paths_tbc')
    nD = max(1, paths('tbc.none', 'D', 'paths'))
    d_one = paths('tbc.none', 'D', 'paths_one_warp')
    # the rate over the paths that span more than one warp (one-warp paths
    # left out of the definition), per workload as the figure's
    multi = {}
    for w in st["comp"]:
        c = C(w, "tbc.none")["classes"]["P"]
        m = c["paths"] - c.get("paths_one_warp", 0)
        if m > 0:
            multi[w] = c["paths_ideal"] / m
    verdict = (", still far from 72.7%: the gap is our workloads' paths (dense or in "
               "one warp), not the definition. "
               if amean(multi.values() or [0]) < 0.6 else
               ", near 72.7%: the gap is which paths the definition counts. ")
    div = st["div90"]
    simd_c = amean(G(w, "capri-latest.balanced")["simd_util"] / G(w, "capri-latest.none")
                   ["simd_util"] for w in div) - 1
    slot = sum(C(w, "capri-latest.balanced")["stall_slot_cycles"] for w in div) / \
        max(1, sum(C(w, "capri-latest.none")["stall_slot_cycles"] for w in div)) - 1
    l1 = sum(G(w, "capri-latest.balanced")["l1d.misses"] for w in div) / \
        max(1, sum(G(w, "capri-latest.none")["l1d.misses"] for w in div)) - 1
    return [
        "* **The P-branch compaction rate is bounded by our paths, not by SLP.** Of "
        f"{paths('tbc.none', 'P', 'paths')} CTA-wide paths of divergent P branches in the "
        f"suite, ideal compaction (threads may change lanes) could compact "
        f"{paths('tbc.none', 'P', 'paths_ideal')} ({pc(paths('tbc.none', 'P', 'paths_ideal') / max(1, paths('tbc.none', 'P', 'paths')))}): "
        "a path is compactable only where its threads fit in fewer warps than the warps "
        "it spans, whatever the lane map. What our P paths are, from the sweep's counts "
        f"(`paths_one_warp`, `paths_dense`): {pc(one / nP)} lie in one warp (a branch on "
        "the thread index that splits one warp of the CTA, or a CTA of one warp: "
        f"nothing to compact), {pc(dense / nP)} span more warps that their threads "
        "still fill (ceil(threads / 32) = the warps spanned, e.g. a bound that cuts off "
        f"part of the last warp), {pc((p_id - p_tbc) / nP)} could be compacted only by "
        "moving threads between lanes (the same lanes taken in every warp: aligned "
        f"masks) and {pc(p_tbc / nP)} have masks that complement one another across "
        "the CTA's warps, so TBC compacts them in their home lanes (D paths: "
        f"{pc(d_one / nD)} in one warp). Counted over the paths that span more than "
        "one warp only (one-warp paths left out of the definition), ideal's P rate is "
        f"{pc(amean(multi.values()) if multi else 0)} per workload on average{verdict}"
        f"TBC without SLP compacts {pc(amean(P_tbc.values()))} per workload on average "
        f"(paper 3.2%) and Balanced {pc(amean(P_bal.values()))}; Balanced reaches ideal's "
        f"rate on {reach} of the {len(cover)} workloads where ideal compacts any P path "
        f"({len(zero)} workloads have P paths none of which ideal can compact: "
        f"{', '.join(zero[:12])}{', ...' if len(zero) > 12 else ''}). The dissertation's "
        "72.7% for TBC_ideal is its benchmarks' bound; ours is "
        f"{pc(amean(P_id.values()))}"
        + (f", {pc(amean(P_id[w] for w in own))} over the {len(own)} workloads with "
           "divergence whose P paths ideal can compact (the set the paper averages)"
           if own else "") + ".",
        "* **SLP on top of CAPRI.** On the divergent workloads Balanced raises CAPRI's "
        f"SIMD utilisation by {pct(simd_c)} (mean) while its warp-slot cycles waiting at "
        f"compaction points change by {pct(slot)} and its L1 misses by {pct(l1)} (sums), "
        f"for {pct(H['bal_capri'] - 1)} speed over CAPRI (hmean): the lanes it frees are "
        "worth less than the waiting at compaction points that CAPRI already pays (\"How "
        "much compaction can remove\" above).", ""]


def why_more(S, st, lws, size_v):
    """Bullets giving a measured cause for the rows compaction_more
    measures: the CAPT size (4.4.2.5) and the prediction on BFS and MUM
    (4.4.2.1)."""
    C, out = S.C, []
    big = max(ENTRIES)
    if S.sizes_ok and lws:
        def miss(e, ws):
            return sum(C(w, size_v[e])["capri"]["lookups"] - C(w, size_v[e])["capri"]["hits"]
                       for w in ws)

        def rel(w, e):
            return S.sp(w, size_v[e], "none.none") / S.sp(w, size_v[big], "none.none")
        look = {e: sum(C(w, size_v[e])["capri"]["lookups"] for w in lws) for e in ENTRIES}
        worst = min(lws, key=lambda w: rel(w, 2))
        most = max(lws, key=lambda w: miss(2, [w]) - miss(big, [w]))
        cap = {e: miss(e, lws) - miss(big, lws) for e in ENTRIES}
        out.append(
            "* **CAPT size.** CAPT misses over the "
            f"{len(lws)} workloads with lookups: "
            + ", ".join(f"{miss(e, lws)} of {look[e]} lookups at {e} entries" for e in ENTRIES)
            + f"; at {big} entries a miss is a branch's first lookup on an SM after its CTA "
            "started the kernel (no entry to evict), so the misses a smaller CAPT adds are "
            "capacity misses: "
            + ", ".join(f"{cap[e]} at {e}" for e in ENTRIES if e != big)
            + f". A miss allocates the entry and stalls the warp (4.2.2). The workload that "
            f"loses most with 2 entries is {worst}: {fmt(rel(worst, 2))} / "
            f"{fmt(rel(worst, 4))} / {fmt(rel(worst, 8))} of its {big}-entry speed at 2 / 4 / "
            f"8 entries, with {miss(2, [worst])} / {miss(4, [worst])} / {miss(8, [worst])} "
            f"misses against {miss(big, [worst])} (paper: MUM 86% / 95% at 2 / 4). Most "
            f"capacity misses at 2 entries are {most}'s ({miss(2, [most]) - miss(big, [most])} "
            f"of its {C(most, size_v[2])['capri']['lookups']} lookups), at "
            f"{fmt(rel(most, 2))} of its {big}-entry speed: what the size costs is the stalls "
            "its misses force, and where a stall costs little against the bypass the "
            "history would have given, the size costs little.")
    d99m = S.m(st["div99"])
    if len(S.perms) == len(PERMS) and d99m:
        def su(w, p):
            return S.G(w, f"tbc.{p}")["simd_util"]
        best = {w: max(S.perms, key=lambda p: su(w, p)) for w in d99m}
        wb = min(d99m, key=lambda w: su(w, "balanced") / su(w, best[w]))
        bp = best[wb]
        if bp != "balanced":
            def cell(p):
                c = C(wb, f"tbc.{p}")
                k = [f"{cl} paths compacted {c['classes'][cl]['paths_tbc']} of "
                     f"{c['classes'][cl]['paths']}" for cl in ("P", "D")
                     if c["classes"][cl]["paths"]]
                return (f"{p}: SIMD {fmt(su(wb, p))}, warps formed at compaction points "
                        f"{c['warps_formed']} (NW_TBC {c['nw_tbc']}, NW_ideal {c['nw_ideal']})"
                        + ("; " + ", ".join(k) if k else ""))
            out.append(
                f"* **Balanced's worst SIMD utilisation** against the best permutation is "
                f"{wb}'s ({pc(su(wb, 'balanced') / su(wb, bp))} of {bp}'s; paper: within "
                "99.4% everywhere). Under tbc: " + "; ".join(cell(p) for p in ("balanced", bp))
                + (f". {bp} forms fewer warps at the compaction points, which is its higher "
                   "SIMD utilisation: Balanced's masks are built for the alignment patterns "
                   "of Fig 4.18 (4.3.3), and on this workload's masks another permutation "
                   "lines the threads up better."
                   if C(wb, f"tbc.{bp}")["warps_formed"] < C(wb, "tbc.balanced")["warps_formed"]
                   else f". {bp} forms no fewer warps at the compaction points; its SIMD "
                   "utilisation comes from the warps outside them."))
    bm = [w for w in ("bfs", "mum") if w in S.m(st["comp"])]
    hs = [v for v in ("capri-sticky", "capri-latest") if v in S.hists]
    if bm and len(hs) == 2:
        def part(v):
            q = {k: sum(C(w, v + ".none")["capri"]["quality"][k] for w in bm) for k in QUAL}
            lk = sum(C(w, v + ".none")["capri"]["lookups"] for w in bm)
            ms = lk - sum(C(w, v + ".none")["capri"]["hits"] for w in bm)
            return q, lk, ms
        acc, cells = {}, []
        for v in hs:
            q, lk, ms = part(v)
            acc[v] = (q["bypass_bypass"] + q["stall_stall"]) / lk if lk else float("nan")
            cells.append(
                f"{v[6:]} {pc(acc[v])} of {lk} lookups right (Stall/Bypass "
                f"{pc(q['stall_bypass'] / lk)}, of which CAPT misses {pc(ms / lk)}; "
                f"Bypass/Stall {pc(q['bypass_stall'] / lk)}; Stall/Stall "
                f"{pc(q['stall_stall'] / lk)})" if lk else f"{v[6:]}: no lookup")
        order = ("as the paper's, 1b-latest above 1b-sticky"
                 if acc["capri-latest"] > acc["capri-sticky"] else
                 "unlike the paper's, 1b-sticky at or above 1b-latest")
        out.append(
            f"* **Prediction on {' and '.join(bm)}** (paper 61% / 75% right, 1b-sticky / "
            "1b-latest). The headline row counts every warp's decision (Fig 4.21); the "
            "predictions alone, the lookups of divergent warps judged by the WCU evaluator: "
            + "; ".join(cells) + f" ({order}). A miss stalls whatever the history, and "
            "1b-sticky stalls every warp of a branch once one diverged there, so its wrong "
            "decisions are Stall/Bypass; 1b-latest follows the last outcome and errs both "
            "ways where the outcome alternates.")
    return out


def why_rows(S, st, H, perf, best_perf, worst_balp, l1, ctas):
    """Bullets giving a measured cause for the headline rows the other
    bullets leave: idle cycles, decision quality, CAPRI on the
    compaction-ineffective workloads, Balanced's worst speed, L1 misses."""
    G, C = S.G, S.C
    out = []
    # idle cycles (Fig 4.22b): how idle the SMs already are without compaction,
    # and how much of TBC's waiting CAPRI keeps
    iu = [w for w in st["idle_up"] if G(w, "none.none")["idle_res"] > 0]
    if len(iu) >= 2 and "idle_tbc" in H:
        def share(w):
            n = G(w, "none.none")
            return n["idle_res"] / max(1, n["st"]["sm_cycles"])   # SM-cycles with work
        ws = sorted(iu, key=share)
        lo, hi = ws[:len(ws) // 2], ws[len(ws) // 2:]
        up = lambda v, part: amean(G(w, v)["idle_res"] / G(w, "none.none")["idle_res"]  # noqa
                                   for w in part) - 1
        tw = sum(C(w, "tbc.none")["stall_slot_cycles"] for w in iu)
        cw = sum(C(w, "capri-latest.none")["stall_slot_cycles"] for w in iu)
        ca = sum(C(w, "capri-latest.none")["capri"]["ahead_wait_cycles"] for w in iu)
        kept = H["idle_capri"] / H["idle_tbc"] if H["idle_tbc"] else float("nan")
        ulo, uhi = up("tbc.none", lo), up("tbc.none", hi)
        out.append(
            "* **Idle cycles.** Over the "
            f"{len(iu)} workloads where TBC raises the idle SM-cycles (cycles with resident "
            "warps and no issue), No_TBC's idle share of the SM-cycles with work is "
            f"{pc(share(lo[0]))} .. {pc(share(hi[-1]))}, median {pc(share(hi[0]))}. The "
            f"half with the smaller share has TBC at {pct(ulo)}, the other half "
            f"{pct(uhi)}"
            + (": the more latency is exposed already, the less a compaction barrier adds "
               "to it" if ulo > uhi else "")
            + (", which keeps our mean below the paper's +72% (its 8 applications are not "
               "ours)" if H["idle_tbc"] < 0.72 else "") + ". CAPRI keeps "
            f"{pc(kept)} of TBC's added idle cycles (the paper's +5% keeps 7%): on these "
            f"workloads its warps still wait {cw} slot-cycles at compaction points and "
            f"{ca} one block ahead (4.2.2), {pc((cw + ca) / max(1, tw))} of TBC's {tw} "
            "slot-cycles at compaction points, since a warp predicted to stall waits for "
            "every warp of its CTA's entry, bypassed ones included, and a bypassed warp "
            "waits at its block's end for its entry to be formed.")
    # decision quality (Fig 4.21): which wrong decisions there are
    for name, ws, paper in (("divergent", st["div90"], "87%"),
                            ("non-divergent", st["nondiv"], "99%")):
        agg = {k: 0 for k in QUAL}
        nb = nbs = look = miss = 0
        for w in ws:
            q = C(w, "capri-latest.none")["capri"]
            for k in QUAL:
                agg[k] += q["quality"][k]
            nb += q["nodiv_quality"]["bypass_bypass"]
            nbs += q["nodiv_quality"]["bypass_stall"]
            look += q["lookups"]
            miss += q["lookups"] - q["hits"]
        tot = sum(agg.values()) + nb + nbs
        if not tot:
            continue
        out.append(
            f"* **Wrong decisions, {name} workloads** ({pc(1 - (agg['bypass_stall'] + agg['stall_bypass'] + nbs) / tot)} "
            f"right, paper {paper}). Of {tot} decisions (every warp's bypass or stall at a "
            f"branch), {pc(nbs / tot)} are warps that did not diverge, bypassed without a "
            "lookup (Fig 4.8(a)) and were judged wrong because compacting their CTA's "
            f"paths reduced the warps (Bypass/Stall); {pc(agg['stall_bypass'] / tot)} are "
            "predicted stalls that compacted nothing (Stall/Bypass; "
            f"{miss} of the {look} lookups missed the CAPT and a miss stalls) and "
            f"{pc(agg['bypass_stall'] / tot)} predicted bypasses where compaction would "
            "have paid. The first kind is set by the rule of Fig 4.8(a) and by how often "
            "a non-divergent warp meets a branch at which other warps of its CTA "
            "diverge, not by the predictor.")
    # CAPRI outside +-2% on the compaction-ineffective workloads
    off = sorted((w for w in st["ineff"]
                  if abs(S.sp(w, "capri-latest.none", "none.none") - 1) > 0.02),
                 key=lambda w: S.sp(w, "capri-latest.none", "none.none"))
    if off:
        parts = []
        for w in off:
            c, cc = G(w, "capri-latest.none"), C(w, "capri-latest.none")
            q = cc["capri"]
            cyc = max(1, c["cycles"])
            parts.append(
                f"{w} {fmt(S.sp(w, 'capri-latest.none', 'none.none'))} "
                f"({cc['stall_slot_cycles'] / cyc:.1f} slots waiting at compaction points "
                f"and {q['ahead_wait_cycles'] / cyc:.1f} one block ahead per cycle; "
                f"{q['quality']['stall_bypass']} of {q['pred_stall']} predicted stalls "
                f"compacted nothing, {q['lookups'] - q['hits']} CAPT misses; "
                f"{fmt(ctas[w], 1)} CTAs per SM)")
        ahead = [w for w in off if C(w, "capri-latest.none")["capri"]["ahead_wait_cycles"] >
                 C(w, "capri-latest.none")["stall_slot_cycles"]]
        out.append(
            f"* **CAPRI where compaction is ineffective.** {len(off)} of "
            f"{len(st['ineff'])} compaction-ineffective workloads leave +-2% of No_TBC. "
            "Their warp instructions barely change, so what moves is waiting: warps "
            "predicted to stall wait for their CTA at compaction points (a branch's first "
            "lookups in a kernel miss the CAPT, and a miss stalls, 4.2.2), and warps that "
            "bypassed wait one block ahead; on "
            f"{len(ahead)} of them ({', '.join(ahead) if ahead else 'none'}) the waits "
            "one block ahead are the larger. Per workload: " + "; ".join(parts) + ".")
    # Balanced's worst speed against the best permutation (Fig 4.30)
    if worst_balp and perf and len(perf) > 1:
        w = worst_balp
        best = max((p for p in perf if p != "balanced"), key=lambda p: perf[p][w])
        b, o = G(w, "capri-latest.balanced"), G(w, f"capri-latest.{best}")
        sh = lambda r: r["st"].get("energy", {}).get("shmem_accesses")   # noqa: E731
        pb = lambda r: r["st"]["stall"]["pipe_busy"]   # noqa: E731
        bits = [f"cycles {b['cycles']} against {o['cycles']}",
                f"warp instructions {b['warp_insts']} against {o['warp_insts']}",
                f"SIMD utilisation {fmt(b['simd_util'])} against {fmt(o['simd_util'])}",
                f"idle SM-cycles with a pipeline busy {pb(b)} against {pb(o)}"]
        if sh(b) is not None and sh(o):
            bits.append(f"shared-memory bank passes {sh(b)} against {sh(o)} "
                        f"({pct(sh(b) / sh(o) - 1)})")
        bits.append(f"L1 misses {b['l1d.misses']} against {o['l1d.misses']}")
        conflict = sh(b) is not None and sh(o) and sh(b) > 1.05 * sh(o) and pb(b) > 1.05 * pb(o)
        out.append(
            f"* **Balanced's worst speed** is {w}'s, against its best permutation "
            f"({best}): " + ", ".join(bits) + "."
            + (" Balanced compacts more threads into fewer warps, but the threads a "
               "compacted warp then holds reach the same shared-memory banks more often, "
               "and the passes a conflict adds keep the memory pipeline busy; the lanes it "
               "frees do not pay for them there." if conflict else ""))
    # L1 misses (4.4.3.4): they follow the accesses compacted warps make
    if len(l1) >= 2:
        acc = {w: G(w, "capri-latest.balanced")["l1d.accesses"] /
               max(1, G(w, "none.none")["l1d.accesses"]) for w in l1}
        ws = list(l1)
        out.append(
            "* **L1 misses.** Where SIMD utilisation rises, our L1 misses move with the "
            "L1 accesses (the requests after coalescing): compacted warps hold threads "
            "of several home warps, whose addresses coalesce into other lines. Over the "
            f"{len(ws)} workloads, misses x{amean(l1.values()):.3f} and accesses "
            f"x{amean(acc.values()):.3f} (means), Pearson r "
            f"{correlate.pearson([acc[w] for w in ws], [l1[w] for w in ws]):.2f}; the largest "
            "rises: " + ", ".join(f"{w} misses x{l1[w]:.2f}, accesses x{acc[w]:.2f}"
                                  for w in sorted(ws, key=lambda w: -l1[w])[:3]) +
            "." + (" Our SIMD gains are smaller than the paper's (the rows above), so fewer "
                   "threads change warps and the L1 rise stays below +6.9%."
                   if amean(l1.values()) < 1.069 else ""))
    return out + [""]


def why_section(S, Z, st, H, slow_ideal, ctas):
    G, C = S.G, S.C
    reasons = {}
    for w in S.wl:
        for k in launch_reasons(G(w, "tbc.none")["st"]):
            reasons.setdefault(k, []).append(w)
    div = st["div90"]
    tot = lambda v, key, ws=div: sum(C(w, v)[key] for w in ws)   # noqa: E731
    cap = [C(w, "capri-latest.none") for w in div]
    nw0 = sum(C(w, "tbc.none")["nw_nocomp"] for w in div)
    nwt = sum(C(w, "tbc.none")["nw_tbc"] for w in div)
    nwi = sum(C(w, "tbc.none")["nw_ideal"] for w in div)
    wins = [w for w in div if S.sp(w, "capri-latest.none", "none.none") > 1.0]
    simd_up = {w: G(w, "capri-latest.none")["simd_util"] / G(w, "none.none")["simd_util"]
               for w in div}
    stall = {w: C(w, "capri-latest.none")["stall_slot_cycles"] for w in div}
    warps = {w: G(w, "none.none")["warp_insts"] for w in div}
    ahead = sum(c["capri"]["ahead_wait_cycles"] for c in cap)
    waits = sum(c["capri"]["ahead_waits"] for c in cap)
    wcu = sum(C(w, v)["wcu_wait_cycles"] for w in div for v in ("tbc.none", "capri-latest.none"))
    pts = sum(C(w, v)["points"] for w in div for v in ("tbc.none", "capri-latest.none"))
    lines = []
    for w in sorted(div, key=lambda w: S.sp(w, "capri-latest.none", "none.none")):
        lines.append(f"{w} {fmt(S.sp(w, 'capri-latest.none', 'none.none'))} (SIMD "
                     f"x{simd_up[w]:.2f}, {stall[w] / max(1, warps[w]):.2f} waiting "
                     f"slot-cycles per No_TBC warp instruction, {ctas[w]:.1f} CTAs per SM)")
    ideal_cost = []
    for w in slow_ideal[:6]:
        c = C(w, "ideal.none")
        n, i = G(w, "none.none"), G(w, "ideal.none")
        sb = i["st"]["stall"]["scoreboard"] / max(1, n["st"]["stall"]["scoreboard"])
        ib = i["st"]["stall"]["ibuffer"] - n["st"]["stall"]["ibuffer"]
        nw = i["st"]["stall"]["no_warps"] / max(1, n["st"]["stall"]["no_warps"])
        ideal_cost.append(f"{w} {fmt(S.sp(w, 'ideal.none', 'none.none'))} "
                          f"({c['points']} compaction points, "
                          f"{c['stall_slot_cycles'] / max(1, i['cycles']):.1f} "
                          "slot-cycles waiting per cycle, "
                          f"{ctas[w]:.1f} CTAs per SM; warp instructions "
                          f"x{i['warp_insts'] / n['warp_insts']:.2f}, idle SM-cycles "
                          f"on the scoreboard x{sb:.2f}, on refetch after compaction "
                          f"{ib:+d}, with no resident warp x{nw:.2f}"
                          + ("" if splits(c)[1] is None else
                             f"; divergent points {splits(c)[0]}, of them loop exits "
                             f"{splits(c)[1]} and warp-uniform {splits(c)[2]}") + ")")
    out = ["### Why ours differ, from our statistics", "",
           f"* **Uncompacted kernels.** {len(st['unc'])} workload"
           f"{'s' if len(st['unc']) != 1 else ''} ({', '.join(st['unc'])}) ran every launch "
           "uncompacted, outside every mean; launches that ran uncompacted, by "
           "reason (forced where the rule that timing never changes a result "
           "demands it: warp-level instructions and atoms; a limit of the engine "
           "otherwise, docs/compaction.md): " +
           "; ".join(f"`{k}` ({', '.join(sorted(set(v)))}"
                     f"{'' if k.split()[0] in FORCED_UNCOMPACTED else '; engine limit'})"
                     for k, v in sorted(reasons.items(), key=lambda kv: -len(kv[1]))) + ".",
           decompose_line(S, div, H),
           nondiv_line(S, st, ctas),
           f"* **How much compaction can remove.** On the divergent workloads TBC's "
           f"compaction points had NW_noTBC {nw0}, NW_TBC {nwt} "
           f"({pc(1 - nwt / nw0)} fewer warps) and NW_ideal {nwi} ({pc(1 - nwi / nw0)}). "
           "Compaction trades that for waiting: CAPRI speeds up "
           f"{len(wins)} of {len(div)} divergent workloads. Per workload, CAPRI's speedup "
           "over No_TBC beside what it gains (SIMD utilisation, CAPRI over No_TBC) and "
           "what it pays (warp-slot cycles waiting at compaction points per warp "
           "instruction No_TBC issues): " + "; ".join(lines) + ".",
           f"* **Waiting a block ahead.** CAPRI's warps that bypassed stopped {waits} times "
           f"one block ahead, {ahead} cycles in all, on the divergent workloads "
           "(the rule of 4.2.2, `capri.ahead_waits`).",
           f"* **Bypasses refused.** {sum(c['capri']['nodiv_denied'] for c in cap)} "
           "non-divergent warps (which bypass without a lookup) and "
           f"{sum(c['capri']['bypass_denied'] for c in cap)} divergent ones predicted to "
           f"bypass stalled instead, against {sum(c['capri']['bypassed'] for c in cap)} "
           "bypasses, on the divergent workloads: a whole warp whose path is its entry's "
           "own reconvergence point waits there, as every warp reaching its entry's RPC "
           "does (4.1.3: reconvergence only after all active warps synchronized), and in "
           "a CTA of more than 16 warps a warp holding part of a home warp stalls where "
           "the WCU's 32 rows could not hold its bypassed threads (docs/compaction.md, "
           "CAPRI).",
           f"* **WCU throughput.** WCU loads waited {wcu} cycles for a previous mask's "
           f"warps over {pts} compaction points (tbc and capri, divergent): the "
           "back-to-back ride the model leaves out is worth at most that.",
           "* **TBC_ideal is slower than No_TBC** where its barriers cost more than its "
           "fewer warps save; the dissertation bounds compaction with it, not time. Per "
           "workload: speedup (compaction points, warp slots waiting at them per cycle, "
           "CTAs per SM; warp instructions against No_TBC, idle SM-cycles with every "
           "resident warp waiting on the scoreboard against No_TBC, and the change in "
           "SM-cycles waiting for an instruction buffer refilled after a compaction "
           "point, and SM-cycles with no resident warp against No_TBC): " +
           ("; ".join(ideal_cost) if ideal_cost else "none") + ". With about "
           "one CTA per SM a compaction point stops every warp of the SM, and the "
           "latencies the other warps would hide are exposed (the scoreboard column); "
           "where the SM-cycles with no resident warp grow, the kernel ends on its "
           "slowest CTA, which runs alone on its SM and pays every compaction point's "
           "wait in full. A loop exit (a divergent point inside a loop whose "
           "immediate post-dominator lies past the loop's end, 4.1.3, with code on both "
           "paths: a plain break is not counted) leaves trips to both paths and makes "
           "the CTA run them one path after the other, where per-warp stacks let each "
           "warp run its own trips side by side with the others; ideal compaction packs "
           "those trips into fewer warps but cannot overlap them (mcml: "
           "docs/compaction.md, Statistics). "
           "Table 4.1's cores hold 1024 "
           "threads each; the page's CTAs-per-SM figures say how far below that our "
           "inputs keep them (the size study below shows the effect of larger inputs).",
           "* **Not the dissertation's benchmarks.** Our suite shares names with Table 4.2 "
           "(bfs, mum, bitonic, lps, backprop, dwtharr, sortnet, mandelbrot, dxtc, ...), "
           "but they are our CUDA reimplementations with our inputs compiled by nvcc 13 "
           "for sm_75, and their branch classes are those of today's PTX "
           "(docs/branch-classes.md): e.g. our bitonic's branches are D (its "
           "comparisons), not P.", ""]
    return out


def decompose_line(S, div, H):
    """CAPRI over No_TBC as (CAPRI over TBC+) x (TBC+ over No_TBC), ours and
    the dissertation's (its TBC+ figure implied by its two CAPRI ratios)."""
    tp = hmean(S.sp(w, "tbc_plus.none", "none.none") for w in div)
    paper_tp = 1.149 / 1.076
    return ("* **Where the CAPRI gap sits.** CAPRI over No_TBC is CAPRI over TBC+ times "
            "TBC+ over No_TBC (exactly per workload, about for the means). The "
            "dissertation's two CAPRI figures (+14.9%, +7.6%) imply TBC+ about "
            f"{pct(paper_tp - 1)} over No_TBC on its divergent benchmarks; ours is "
            f"{pct(tp - 1)} (hmean over the {len(div)} divergent workloads) with CAPRI over "
            f"TBC+ {pct(H['capri_tbcp'] - 1)}: "
            + ("most of the gap is that compaction itself does not pay on our workloads "
               "(the rows below say why per workload); CAPRI's smaller gain over TBC+ is the "
               "lesser part."
               if abs(math.log(tp / paper_tp)) > abs(math.log(H["capri_tbcp"] / 1.076))
               else "most of the gap is CAPRI's smaller gain over TBC+; compaction's own loss "
               "is the lesser part."))


def nondiv_line(S, st, ctas):
    """What TBC costs on the non-divergent workloads: its worst four with
    the compaction points per warp instruction and the waiting they bring."""
    nd = st["nondiv"]
    if not nd:
        return "* **TBC on non-divergent workloads.** None in this sweep."
    worst = sorted(nd, key=lambda w: S.sp(w, "tbc.none", "none.none"))[:4]

    def one(w):
        c, g = S.C(w, "tbc.none"), S.G(w, "tbc.none")
        return (f"{w} {fmt(S.sp(w, 'tbc.none', 'none.none'))} ({c['points']} compaction "
                f"points, {1000 * c['points'] / max(1, S.G(w, 'none.none')['warp_insts']):.1f} "
                f"per 1000 No_TBC warp instructions, {c['divergent_points']} divergent; "
                f"{c['stall_slot_cycles'] / max(1, g['cycles']):.1f} slots waiting per "
                f"cycle; {ctas[w]:.1f} CTAs per SM)")
    dens = {w: S.C(w, "tbc.none")["points"] / max(1, S.G(w, "none.none")["warp_insts"])
            for w in nd}
    med = sorted(dens.values())[len(dens) // 2]
    hi = [w for w in nd if dens[w] > med]
    lo = [w for w in nd if dens[w] <= med]
    return ("* **TBC on non-divergent workloads** (every branch a barrier, 4.1.3). Worst: "
            + "; ".join(one(w) for w in worst)
            + f". The half with more compaction points per warp instruction loses "
            f"{pct(hmean(S.sp(w, 'tbc.none', 'none.none') for w in hi) - 1)} hmean, the other "
            f"half {pct(hmean(S.sp(w, 'tbc.none', 'none.none') for w in lo) - 1)}: the loss "
            "follows how many barriers per instruction our kernels' branches make (the "
            "dissertation's benchmarks are other kernels) and how many warp slots wait at "
            "them.")


def splits(c):
    """(divergent points, loop-exit splits, warp-uniform splits) of a
    compaction object; the last two None where the sweep's build did not
    count them."""
    return (c["divergent_points"], c.get("loop_exit_points"), c.get("warp_uniform_points"))


def capri_cost_section(S, st, ctas):
    """What CAPRI gains and pays per divergent workload, from the sweep's
    statistics: warp instructions saved against the waits compaction
    imposes, and the CTA-wide stack's splits."""
    G, C = S.G, S.C
    div = st["div90"]
    if not div:
        return []
    rows, lx_ws, wait_ws, gain_ws, new_ws = [], [], [], [], []
    for w in sorted(div, key=lambda w: S.sp(w, "capri-latest.none", "none.none")):
        n, c = G(w, "none.none"), G(w, "capri-latest.none")
        cc = C(w, "capri-latest.none")
        cyc = max(1, c["cycles"])
        d, lx, wu = splits(cc)
        sp = S.sp(w, "capri-latest.none", "none.none")
        loopy = lx is not None and d > 0 and lx / d >= 0.05
        saved = (n["warp_insts"] - c["warp_insts"]) / cyc
        waits = (cc["stall_slot_cycles"] + cc["capri"]["ahead_wait_cycles"]) / cyc
        q = cc["capri"]
        if (q["pred_stall"] and q["quality"]["stall_bypass"] >= 0.9 * q["pred_stall"] and
                2 * (q["lookups"] - q["hits"]) >= d):
            new_ws.append(w)
        if loopy:
            lx_ws.append(w)
        if sp < 0.98 and waits > saved:
            wait_ws.append(w)
        if sp > 1.0:
            gain_ws.append(w)
        rows.append(row(w, fmt(sp), fmt(c["warp_insts"] / max(1, n["warp_insts"])),
                        f"{saved:.2f}",
                        f"{cc['stall_slot_cycles'] / cyc:.2f}",
                        f"{cc['capri']['ahead_wait_cycles'] / cyc:.2f}",
                        cc["capri"]["nodiv_denied"] + cc["capri"]["bypass_denied"],
                        f"{cc['capri']['quality']['stall_bypass']} of "
                        f"{cc['capri']['pred_stall']} "
                        f"({cc['capri']['lookups'] - cc['capri']['hits']} misses)",
                        d, "-" if lx is None else lx, "-" if wu is None else wu,
                        fmt(ctas[w], 1)))
    have = any(splits(C(w, "capri-latest.none"))[1] is not None for w in div)
    out = ["### CAPRI per divergent workload: what it gains, what it pays", "",
           "Gain: the warp instructions CAPRI saves against No_TBC (per CAPRI cycle, "
           "whole GPU). Cost: warp slots waiting at compaction points (stalled warps, per "
           "cycle), warps waiting one block ahead (the rule of 4.2.2, per cycle), "
           "refused bypasses, predicted stalls whose compaction formed no fewer warps "
           "(Stall/Bypass of Fig 4.21: a branch's first lookups in a kernel, and every "
           "lookup before its first update, follow the allocation's 'adequate', 4.2.2), "
           "and two splits of the CTA-wide stack that per-warp stacks "
           "do not make: loop exits, divergent points inside a loop whose reconvergence "
           "point (the immediate post-dominator, 4.1.3) lies past the loop's end and "
           "whose two paths both hold code (an if one side of which holds a break): "
           "the CTA runs the trips of one path, then the other's, where per-warp stacks "
           "run each warp's trips side by side (a plain break, whose path is the "
           "reconvergence point itself, costs what it costs per-warp stacks and is not "
           "counted); and "
           "warp-uniform splits, divergent points that split no warp, whose paths "
           "per-warp stacks run side by side in different warps. Sorted by speed.", "",
           row("workload", "CAPRI / No_TBC", "warp insts CAPRI / No_TBC",
               "warp insts saved per cycle", "slots waiting at compaction per cycle",
               "slots waiting ahead per cycle", "refused bypasses",
               "predicted stalls that compacted nothing", "divergent points",
               "loop exits", "warp-uniform", "CTAs per SM"),
           "|---|" + "---|" * 11, *rows, ""]
    para = (f"CAPRI is faster than No_TBC on {len(gain_ws)} of {len(div)} divergent "
            "workloads" + (f" ({', '.join(gain_ws)})" if gain_ws else "") + ". ")
    if not have:
        para += ("The loop-exit and warp-uniform counts are not in this sweep (its build "
                 "did not count them). ")
    elif lx_ws:
        para += (f"Loop exits with code on both paths are at least 5% of the divergent "
                 f"points on {', '.join(lx_ws)}: there the CTA runs the trips left to "
                 "each path one after the other (a cost of the CTA-wide stack with "
                 "immediate post-dominator reconvergence, 4.1.3, that CAPRI, TBC and "
                 "TBC_ideal share; mcml's `if (w == 0)`, one side of which holds the "
                 "loop's break, is traced in docs/compaction.md, Statistics). Plain "
                 "breaks (mandelbrot's escape test jumps straight to the loop's exit, "
                 "`lockstep branches mandelbrot`) cost nothing over per-warp stacks and "
                 "are not counted. ")
    else:
        para += "No divergent workload has 5% of its divergent points at loop exits. "
    if wait_ws:
        para += (f"Where CAPRI loses over 2% ({', '.join(wait_ws)}), the slots waiting at "
                 "compaction points and one block ahead per cycle exceed the warp "
                 "instructions saved per cycle, and with few CTAs per SM no other CTA's "
                 "warps fill the cycles they leave.")
    if new_ws:
        para += (f" On {', '.join(new_ws)} at least 90% of the predicted stalls compacted "
                 "nothing and CAPT misses are at least half the divergent points: the "
                 "branch is new to the CAPT at most of its divergent points (the CAPT "
                 "starts empty at every kernel, the 1b-sticky bit lasting 'until the kernel "
                 "completes', 4.2.2), so with few CTAs per SM and each branch met about "
                 "once per CTA the table never learns before the kernel ends.")
    return out + [para, ""]


def size_section(S, Z, st):
    zp = S.size_part
    if Z is None:
        return ["## Input size", "", "The size study (experiments/compaction_size.toml): "
                f"{zp.note()}.", ""]
    ws = Z.wl
    out = ["## Input size: where the figures stop moving", "",
           *([] if zp.complete else
             [f"The size study is {zp.note()}: the table uses the {len(ws)} workloads "
              "that have every scheme at every size so far.", ""]),
           f"The headline schemes at {', '.join(Z.sizes)} inputs on {len(ws)} divergent "
           f"workloads ({', '.join(ws)}); speedups over No_TBC (hmean over the "
           "workloads), SIMD utilisation (mean) and CTAs per SM (launched CTAs / 30 SMs, "
           "mean over launches and workloads). The rest of the page uses "
           f"**{S.sizes[0]}** inputs.", "",
           row("figure", *Z.sizes), "|---|" + "---|" * len(Z.sizes)]

    def f(fn):
        return [fn(sz) for sz in Z.sizes]

    def hm(v, base, sz):
        return hmean(Z.sp(w, v, base, sz) for w in ws)
    out.append(row("CTAs per SM", *f(lambda sz: fmt(amean(
        Z.G(w, "none", sz)["ctas"] / Z.G(w, "none", sz)["nlaunch"] / 30.0 for w in ws), 1))))
    out.append(row("cycles (No_TBC, sum)", *f(lambda sz: sum(Z.G(w, "none", sz)["cycles"]
                                                             for w in ws))))
    for v, label in (("tbc", "TBC over No_TBC"), ("tbc_plus", "TBC+ over No_TBC"),
                     ("capri-latest", "CAPRI over No_TBC"),
                     ("capri-latest.balanced", "CAPRI + Balanced over No_TBC"),
                     ("ideal", "TBC_ideal over No_TBC")):
        out.append(row(label, *f(lambda sz: pct(hm(v, "none", sz) - 1))))
    out.append(row("CAPRI over TBC+", *f(lambda sz: pct(hm("capri-latest", "tbc_plus", sz) - 1))))
    for v in ("none", "tbc", "ideal"):
        out.append(row(f"SIMD utilisation, {v}", *f(lambda sz: fmt(amean(
            Z.G(w, v, sz)["simd_util"] for w in ws)))))
    if all(Z.has(w, "tbc.balanced", sz) for w in ws for sz in Z.sizes):
        out.append(row("SIMD utilisation, Balanced over No_TBC / over TBC (Fig 4.29)",
                       *f(lambda sz: f"{pct(amean(Z.G(w, 'tbc.balanced', sz)['simd_util'] / Z.G(w, 'none', sz)['simd_util'] for w in ws) - 1)} / "
                          f"{pct(amean(Z.G(w, 'tbc.balanced', sz)['simd_util'] / Z.G(w, 'tbc', sz)['simd_util'] for w in ws) - 1)}")))

    def rate(sz, v, cl, key):
        r = [Z.C(w, v, sz)["classes"][cl][key] / Z.C(w, v, sz)["classes"][cl]["paths"]
             for w in ws if Z.C(w, v, sz)["classes"][cl]["paths"]]
        return pc(amean(r)) if r else "-"
    out.append(row("P-branch compaction rate: TBC / Balanced / ideal (mean over workloads "
                   "with P paths)", *f(lambda sz: f"{rate(sz, 'tbc', 'P', 'paths_tbc')} / "
                                       f"{rate(sz, 'capri-latest.balanced', 'P', 'paths_tbc')} / "
                                       f"{rate(sz, 'tbc', 'P', 'paths_ideal')}")))
    out.append(row("D-branch compaction rate: TBC / ideal",
                   *f(lambda sz: f"{rate(sz, 'tbc', 'D', 'paths_tbc')} / "
                                 f"{rate(sz, 'tbc', 'D', 'paths_ideal')}")))

    def idle(sz, v):
        iw = [w for w in ws if Z.G(w, "none", sz)["idle_res"] > 0]
        return pct(amean(Z.G(w, v, sz)["idle_res"] / Z.G(w, "none", sz)["idle_res"]
                         for w in iw) - 1) if iw else "-"
    out.append(row("idle SM-cycles with resident warps over No_TBC: TBC / CAPRI (mean)",
                   *f(lambda sz: f"{idle(sz, 'tbc')} / {idle(sz, 'capri-latest')}")))

    def l1(sz):
        lw = [w for w in ws if Z.G(w, "none", sz)["l1d.misses"] > 0]
        return pct(amean(Z.G(w, "capri-latest.balanced", sz)["l1d.misses"] /
                         Z.G(w, "none", sz)["l1d.misses"] for w in lw) - 1) if lw else "-"
    out.append(row("L1 misses, CAPRI + Balanced over No_TBC (mean)", *f(l1)))

    def ishare(sz, v):
        return pc(amean(Z.G(w, v, sz)["idle_res"] / max(1, Z.G(w, v, sz)["st"]["sm_cycles"])
                        for w in ws))
    out.append(row("CAPRI prediction right", *f(lambda sz: pc(
        sum(Z.C(w, "capri-latest", sz)["capri"]["quality"]["bypass_bypass"] +
            Z.C(w, "capri-latest", sz)["capri"]["quality"]["stall_stall"] for w in ws) /
        max(1, sum(Z.C(w, "capri-latest", sz)["capri"]["lookups"] for w in ws))))))
    out.append("")
    if "default" in Z.sizes and "large" in Z.sizes:
        moves = []
        for v, base, label in (("tbc", "none", "TBC over No_TBC"),
                               ("capri-latest", "none", "CAPRI over No_TBC"),
                               ("capri-latest", "tbc_plus", "CAPRI over TBC+"),
                               ("capri-latest.balanced", "none", "CAPRI + Balanced over No_TBC"),
                               ("ideal", "none", "TBC_ideal over No_TBC")):
            d, g = hm(v, base, "default"), hm(v, base, "large")
            moves.append((abs(g - d), label, (d > 1) == (g > 1)))
        big, lab, _ = max(moves)
        flips = [m[1] for m in moves if not m[2]]
        dl = {w: Z.sp(w, "capri-latest", "none", "large") / Z.sp(w, "capri-latest", "none",
                                                                   "default") for w in ws}
        far = max(dl, key=lambda w: abs(dl[w] - 1))
        out.append(
            f"From default to large inputs the hmean rows move by at most {big * 100:.1f} "
            f"points ({lab}); "
            + (f"the sign of {', '.join(flips)} changes" if flips else
               "none changes sign (a gain stays a gain, a loss a loss)")
            + ". The idle-cycle row moves more (over No_TBC, TBC "
            f"{idle('default', 'tbc')} at default against {idle('large', 'tbc')} at large, "
            f"CAPRI {idle('default', 'capri-latest')} against {idle('large', 'capri-latest')}): "
            "it is a ratio of idle cycles, and the larger inputs' extra CTAs per SM hide "
            "more latency in No_TBC than under the compaction barriers (idle share of the "
            f"SM-cycles with work, mean: No_TBC {ishare('default', 'none')} at default, "
            f"{ishare('large', 'none')} at large; TBC {ishare('default', 'tbc')}, "
            f"{ishare('large', 'tbc')}). Per workload they still move "
            f"(largest: {far}, CAPRI over No_TBC x{dl[far]:.3f} from default to large), so "
            "the per-workload figures of this page are those of default inputs, not a "
            "limit. The suite under every variant at large inputs costs tens of CPU "
            "hours on the shared host; default is the size of the page.")
        out.append("")
    out.append("Per workload, CAPRI over No_TBC: " + "; ".join(
        f"{w} " + " / ".join(fmt(Z.sp(w, "capri-latest", "none", sz)) for sz in Z.sizes)
        for w in ws) + f" ({' / '.join(Z.sizes)}).")
    if "default" in Z.sizes and "large" in Z.sizes:
        worse = [w for w in ws if Z.sp(w, "capri-latest", "none", "large") <
                 min(0.98, Z.sp(w, "capri-latest", "none", "default"))]
        if worse:
            out.append("")
            out.append(f"CAPRI loses more at large than at default inputs on "
                       f"{', '.join(worse)}: with more CTAs per SM their losses do not "
                       "shrink, so they are not an effect of our small inputs.")
    out.append("")
    return out


ABLATIONS = [
    ("per-home-warp scoreboard (`tbc.scoreboard = home`)",
     {"tbc": "ablate.tbc.sb-home", "tbc_plus": "ablate.tbc_plus.sb-home",
      "capri": "ablate.capri.sb-home"}),
    ("a warp ahead waits before every control instruction (`capri.ahead = control`)",
     {"capri": "ablate.capri.ahead-control"}),
    ("a skipping warp waits at the RPC for its CTA (`capri.skip = wait`)",
     {"capri": "ablate.capri.skip-wait"}),
    ("only a warp holding whole home-warp rows bypasses (`capri.umask = row`)",
     {"capri": "ablate.capri.umask-row"}),
    ("tree PLRU in the CAPT instead of LRU (`capri.lru = tree`)",
     {"capri": "ablate.capri.plru"}),
]


def ablation_section(S, st, H):
    out = ["## Ablation: each modelling choice put back", "",
           "Each row runs the whole suite with one choice of docs/compaction.md's table "
           "set the other way (a rule stricter than the dissertation's, or the other "
           "choice where the dissertation is silent); the columns are the headline rows "
           "it moves, on the same workload sets.", "",
           row("variant", "CAPRI / No_TBC (div.)", "CAPRI / TBC+ (div.)",
               "CAPRI within +-2% (ineff.)", "TBC / No_TBC (non-div.)",
               "TBC+ / No_TBC (non-div.)", "idle TBC / CAPRI"),
           "|---|---|---|---|---|---|---|"]

    def line(name, h):
        return row(name, pct(h["capri_none"] - 1), pct(h["capri_tbcp"] - 1),
                   f"{h['capri_in2']} of {h['capri_in_n']}", pct(h["tbc_nondiv"] - 1),
                   pct(h["tbcp_nondiv"] - 1), f"{pct(h['idle_tbc'])} / {pct(h['idle_capri'])}")
    out.append(line("the engine", H))
    worth = []
    for name, names in ABLATIONS:
        if all(S.has(w, v) for v in names.values() for w in S.wl):
            h = headline(S, st, names)
            out.append(line(name, h))
            worth.append(f"{name.split(' (')[0]}: "
                         f"{100 * (H['capri_none'] - h['capri_none']):+.1f} / "
                         f"{100 * (H['tbc_nondiv'] - h['tbc_nondiv']):+.1f}")
    out.append("")
    if worth:
        den = sum((S.C(w, "capri-latest.none").get("capri") or {}).get("bypass_denied", 0)
                  for w in S.wl if S.has(w, "capri-latest.none"))
        out += ["What each is worth: the engine's rule or choice against the ablation, in "
                "points of CAPRI over No_TBC (divergent) / TBC over No_TBC (non-divergent); "
                "positive: the engine is faster. " + "; ".join(worth) + ". The WCU's "
                "spare-row limit on bypasses (a warp holding part of a home warp, in a CTA "
                "of more than 16 warps, docs/compaction.md) has no row: "
                + ("it refuses no bypass the CAPT predicted in the suite (`bypass_denied` 0)."
                   if not den else f"`bypass_denied` counts {den} refused bypasses in the "
                   "suite (that limit, or a part at its entry's reconvergence point)."), ""]
    return out


def tables_section(S, st, rate, rate_ideal, qws, lws, size_v, ctas, miss):
    G, C = S.G, S.C
    out = ["## Per workload: speedup over No_TBC, SIMD utilisation, CTAs per SM", "",
           row("workload", "set", "uncompacted", *S.schemes[1:], "capri+B", "SIMD none", "tbc",
               "capri-L", "ideal", "CTAs/SM"),
           "|" + "---|" * (3 + len(S.schemes) - 1 + 6)]
    for w in S.wl:
        s = ("unc" if w in st["unc"] else "eff" if w in st["eff"] else "ineff") + \
            (" div" if w in st["div90"] else "")
        c = C(w, "tbc.none")
        out.append(row(w, s, f"{c['uncompacted_launches']}/{c['launches']}",
                       *[fmt(S.sp(w, v + ".none", "none.none")) for v in S.schemes[1:]],
                       fmt(S.sp(w, "capri-latest.balanced", "none.none")),
                       *[fmt(G(w, v)["simd_util"]) for v in
                         ("none.none", "tbc.none", "capri-latest.none", "ideal.none")],
                       fmt(ctas[w], 1)))
    out.append("")
    out += ["## Compaction rate by branch class (Fig 4.15, 4.26): compactable paths of "
            "divergent branches per workload", "",
            row("workload", "P paths", *[f"P {p}" for p in S.perms], "P ideal", "D paths",
                *[f"D {p}" for p in S.perms], "D ideal"),
            "|" + "---|" * (5 + 2 * len(S.perms))]
    for w in st["comp"]:
        cells = [w]
        for cl in ("P", "D"):
            paths = C(w, "tbc.none")["classes"][cl]["paths"]
            cells.append(paths)
            for p in S.perms:
                cells.append(pc(rate[(p, cl)][w]) if w in rate[(p, cl)] else "-")
            cells.append(pc(rate_ideal[cl][w]) if w in rate_ideal[cl] else "-")
        if cells[1] or cells[2 + len(S.perms) + 1]:
            out.append(row(*cells))
    out.append("")
    out += ["## Compactable paths by fraction of the CTA's threads on the path (Fig 4.27, "
            "4.28), suite sums", "",
            "Each cell: paths TBC compacts as-is / paths ideal compaction could compact, "
            "for the quarter of the CTA's threads the path holds; the ideal column is the "
            "full bar of the figures.", "",
            row("class", "permutation", *QUARTERS), "|---|---|" + "---|" * 4]
    for cl in ("P", "D"):
        ci = 0 if cl == "P" else 1
        for p in [p for p in ("none", "odd_even", "rev_wid", "balanced") if p in S.perms]:
            tb = [sum(C(w, f"tbc.{p}")["classes"][cl]["by_active"]["tbc"][q]
                      for w in S.m(st["comp"])) for q in range(4)]
            idl = [sum(C(w, f"tbc.{p}")["classes"][cl]["by_active"]["ideal"][q]
                       for w in S.m(st["comp"])) for q in range(4)]
            out.append(row(cl, p, *[f"{a} / {b}" for a, b in zip(tb, idl)]))
        del ci
    out.append("")
    out += ["## CAPRI prediction quality (Fig 4.21), per history", "",
            row("workload", "history", "lookups", "hits", "B/B", "S/S", "B/S", "S/B", "right"),
            "|---|---|---|---|---|---|---|---|---|"]
    tot = {v: [0] * 5 for v in S.hists}
    for w in qws:
        for v in tot:
            c = C(w, v + ".none")["capri"]
            q = c["quality"]
            out.append(row(w, v[6:], c["lookups"], c["hits"], *[q[k] for k in QUAL],
                           f"{(q['bypass_bypass'] + q['stall_stall']) / c['lookups']:.2f}"
                           if c["lookups"] else "-"))
            for i, k in enumerate(QUAL):
                tot[v][i] += q[k]
            tot[v][4] += c["lookups"]
    for v, t in tot.items():
        out.append(row("all", v[6:], t[4], "", *t[:4],
                       f"{(t[0] + t[1]) / t[4]:.2f}" if t[4] else "-"))
    out.append("")
    out += ["## SIMD utilisation per permutation under tbc (Fig 4.29)", "",
            row("workload", *S.perms, "balanced / best"), "|" + "---|" * (len(S.perms) + 2)]
    for w in S.m(st["div99"]):
        s = [G(w, f"tbc.{p}")["simd_util"] for p in S.perms]
        out.append(row(w, *[fmt(x) for x in s], pc(s[1] / max(s))))
    out.append("")
    out += ["## Speedup over No_TBC per permutation under capri 1b-latest (Fig 4.30)", "",
            row("workload", *S.perms), "|" + "---|" * (len(S.perms) + 1)]
    for w in S.m(st["div90"]):
        out.append(row(w, *[fmt(S.sp(w, f"capri-latest.{p}", "none.none")) for p in S.perms]))
    out.append(row("hmean", *[fmt(hmean(S.sp(w, f"capri-latest.{p}", "none.none")
                                         for w in S.m(st["div90"]))) for p in S.perms]))
    out.append("")
    out += ["## CAPT size (Fig 4.25): speedup over No_TBC, capri 1b-latest with LRU, "
            "workloads with lookups (geometric mean)", "",
            row("entries", "speedup", "hits / lookups"), "|---|---|---|"]
    if not S.sizes_ok:
        out.append(row("2-16", S.more.missing(), ""))
    for e in ENTRIES if S.sizes_ok else []:
        h = sum(C(w, size_v[e])["capri"]["hits"] for w in lws)
        lk = sum(C(w, size_v[e])["capri"]["lookups"] for w in lws)
        out.append(row(e, fmt(plot.geomean(S.sp(w, size_v[e], "none.none") for w in lws)),
                       f"{h}/{lk}"))
    out.append("")
    out += ["## L1/L2 misses normalised to No_TBC (Fig 4.24), geometric means over the "
            "divergent workloads with misses", "", row("scheme", "L1D", "L2"), "|---|---|---|"]
    for v in ("tbc_plus.none", "capri-latest.none", "capri-latest.balanced"):
        out.append(row(v, fmt(miss["l1d"]["gmean"][v]), fmt(miss["l2"]["gmean"][v])))
    out.append("")
    return out


# --- the papers' programs (make programs-compaction, docs/suites.md) ------
# Table 4.2: (abbreviation, our built-in workload of that name)
TABLE42 = [("LPS", "lps"), ("BFS", "bfs"), ("MUM", "mum"), ("LIB", "lib"),
           ("BACKP", "backprop"), ("PFLT", "pflt"), ("BITONIC", "bitonic"),
           ("REDUCT", "reduce"), ("MDBROT", "mandelbrot"), ("DXTC", "dxtc"),
           ("AOSSORT", None), ("FDTD3D", None), ("SORTNW", "sortnet"), ("EIGENVL", "eigenvl"),
           ("3DFD", None), ("DWTHARR", "dwtharr"), ("QSRDM", "quasirandom"),
           ("BINOM", "binom"), ("CONVSEP", "convsep"), ("SOBFLT", "sobflt")]
PROG_SCHEMES = ["none.none", "tbc.none", "tbc_plus.none", "capri-latest.none", "ideal.none"]


def cp_measures(rows, w):
    """SIMD utilisation and thread-IPC speedups over none of one workload
    or program ({} when a scheme's point did not pass)."""
    r = {v: rows.get((w, v)) for v in PROG_SCHEMES}
    if not all(x and x["status"] == "pass" for x in r.values()):
        return {}
    perf = {v: r[v]["thread_insts"] / r[v]["cycles"] for v in PROG_SCHEMES}
    m = {f"simd.{v}": r[v]["simd_util"] for v in PROG_SCHEMES}
    m.update({f"sp.{v}": perf[v] / perf["none.none"] for v in PROG_SCHEMES})
    m["div"] = r["none.none"]["simd_util"] < 0.99
    m["eff"] = r["tbc.none"]["warp_insts"] <= EFFECTIVE * r["none.none"]["warp_insts"]
    idle = r["none.none"]["idle_cycles"]
    m["idle.tbc"] = r["tbc.none"]["idle_cycles"] / idle if idle else None
    return m


def programs_section(doc):
    """The section's markdown lines from the exported programs sweep."""
    rows = progpage.by(doc)
    labels = {}
    for r in doc["rows"]:
        if r["kind"] == "program":
            for n in progpage.paper_names(r["workload"], ["rhu4.2"]):
                labels[n] = r["workload"]
    L = ["", "## The papers' programs: Table 4.2's benchmarks themselves", "",
         progpage.provenance(doc, "compaction") + " fx5800, timing mode, each program's "
         "small input, SLP off; our workloads of the same names from the same sweep (small "
         "inputs). Divergent = SIMD utilisation below 0.99 under none; effective = TBC issues "
         "at most 98% of none's warp instructions; speedups are thread IPC over none.", "",
         "| Table 4.2 | program | set | SIMD none | tbc | ideal | tbc | tbc+ | capri | ideal "
         "|| built-in | set | SIMD none | tbc | capri |",
         "|---|---|---|---|---|---|---|---|---|---||---|---|---|---|---|"]
    pm, bm = {}, {}
    sets = lambda m: ("div " if m["div"] else "") + ("eff" if m["eff"] else "ineff")  # noqa
    for abbr, wl in TABLE42:
        lab = labels.get(abbr)
        m = cp_measures(rows, lab) if lab else {}
        if m:
            pm[abbr] = m
        b = cp_measures(rows, wl) if wl else {}
        if b:
            bm[abbr] = b
        pc = (f"{lab} | {sets(m)} | " + " | ".join(
            f"{m['simd.' + v]:.3f}" for v in ("none.none", "tbc.none", "ideal.none")) + " | " +
            " | ".join(f"{m['sp.' + v]:.3f}" for v in PROG_SCHEMES[1:])) if m else \
            f"{lab or 'not available'} |" + " - |" * 8
        bc = (f"{wl} | {sets(b)} | {b['simd.none.none']:.3f} | {b['sp.tbc.none']:.3f} | "
              f"{b['sp.capri-latest.none']:.3f}") if b else f"{wl or '-'} | - | - | - | -"
        L.append(f"| {abbr} | {pc} || {bc} |")

    def claim(d, f, keep):
        xs = [f(m) for m in d.values() if keep(m)]
        return (hmean(xs), len(xs)) if xs else (None, 0)
    claims = [("TBC on compaction-ineffective divergent kernels", 0.90,
               lambda m: m["sp.tbc.none"], lambda m: m["div"] and not m["eff"]),
              ("CAPRI (1b-latest) over TBC+ on divergent kernels", 1.076,
               lambda m: m["sp.capri-latest.none"] / m["sp.tbc_plus.none"], lambda m: m["div"]),
              ("CAPRI (1b-latest) over none on divergent kernels", 1.149,
               lambda m: m["sp.capri-latest.none"], lambda m: m["div"])]
    L += ["", "| claim (harmonic means) | dissertation | its programs (ours) | our workloads "
          "of those names |", "|---|---|---|---|"]
    closer = []
    for name, paper, f, keep in claims:
        a, na = claim(pm, f, keep)
        b, nb = claim(bm, f, keep)
        cell = lambda x, n: "-" if x is None else f"{pct(x - 1)} ({n})"   # noqa: E731
        L.append(f"| {name} | {pct(paper - 1)} | {cell(a, na)} | {cell(b, nb)} |")
        if a is not None and b is not None:
            closer.append((name, "the programs" if abs(a - paper) < abs(b - paper)
                           else "our workloads"))
    if pm and bm:
        def divs(d):
            return [m for m in d.values() if m["div"]]

        def gain(d, v):
            xs = divs(d)
            return sum(m[f"simd.{v}"] - m["simd.none.none"] for m in xs) / max(1, len(xs))

        def idle(d):
            xs = [m["idle.tbc"] for m in divs(d) if m["idle.tbc"]]
            return plot.geomean(xs) if xs else None
        def quiet(d):
            return sum(m["simd.tbc.none"] - m["simd.none.none"] < 0.005 and
                       (m["idle.tbc"] or 1) < 1.1 for m in divs(d))
        ip, ib = idle(pm), idle(bm)
        L += ["", "**Which is closer to the dissertation.** " + "; ".join(
            f"{n}: {w}" for n, w in closer) + ". What compaction can win is the SIMD "
            f"utilisation ideal compaction adds over none on the divergent kernels: "
            f"{100 * gain(pm, 'ideal.none'):+.1f} points on the programs against "
            f"{100 * gain(bm, 'ideal.none'):+.1f} on our workloads of those names, of which "
            f"TBC takes {100 * gain(pm, 'tbc.none'):+.1f} and "
            f"{100 * gain(bm, 'tbc.none'):+.1f}. What TBC costs shows in the idle cycles "
            "with resident warps its CTA-wide synchronisation adds: TBC / none "
            + ("-" if ip is None else f"{ip:.2f}") + " on the programs' divergent kernels "
            "(geometric mean) against " + ("-" if ib is None else f"{ib:.2f}") + " on our "
            f"workloads'. TBC neither compacts (SIMD utilisation within 0.005 of none's) nor "
            f"adds 10% idle cycles on {quiet(pm)} of {len(divs(pm))} divergent programs "
            f"against {quiet(bm)} of {len(divs(bm))} workloads: there it stays near none, so "
            "the dissertation's TBC loss on compaction-ineffective kernels does not appear "
            "and CAPRI, which avoids that loss, has little to recover over TBC+."]
    bad = progpage.status_lines(doc)
    if bad:
        L += ["", "Points that did not pass:", ""] + bad
    miss = [a for a, _ in TABLE42 if a not in labels]
    if miss:
        L += ["", "Table 4.2's programs without a row of ours:", ""]
        L += progpage.not_run_lines("rhu4.2", miss)
    return L + [""]


def programs_only(out, res):
    """make programs-compaction: exports the sweep and rewrites the section."""
    doc = progpage.export(out, os.path.join(res, "compaction-programs.json"))
    progpage.splice(os.path.join(res, "compaction.md"), "compaction", programs_section(doc))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--programs":
        programs_only(sys.argv[2], sys.argv[3])
        sys.exit(0)
    if len(sys.argv) != 3:
        sys.exit("usage: compaction.py SWEEP_OUT RESULTS_DIR | compaction.py --programs OUT "
                 "RESULTS")
    main(sys.argv[1], sys.argv[2])
