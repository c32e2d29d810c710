"""Two sections of docs/results/memory.md (imported by experiments/memory.py):
the timing noise of the FG-leaning speedups (memory.toml's perturbation
variants: one latency moved by one cycle) and why default inputs gain less
than large ones, from the statistics of both sizes."""
import math
import statistics

from sweeplib import plot

# memory.toml's perturbation variants: (suffix, what it moves)
PERTS = [("icnt-m1", "icnt_latency -1"), ("icnt-p1", "icnt_latency +1"),
         ("dram-m1", "dram_latency -1"), ("dram-p1", "dram_latency +1"),
         ("rop-m1", "l2_rop_latency -1"), ("rop-p1", "l2_rop_latency +1")]
LARGE_PERTS = PERTS[:2]          # at large inputs only the interconnect's
# the headline's FG-leaning means: (label, metric, reduction: 1 - bgp / cg_only)
HEAD = [("off-chip traffic reduction", "offchip", True),
        ("DRAM power reduction", "power.dram_w", True),
        ("DRAM Perf/W gain", "power.dram_perf_per_watt", False),
        ("system Perf/W gain", "power.perf_per_watt", False)]


def pct(x):
    return f"{100 * x:+.1f}%"


def fmt(v, n=3):
    return "-" if v is None else f"{v:.{n}f}"


class Index:
    """Rows by (workload, variant): passing points only."""

    def __init__(self, rows):
        self.r = {(r["workload"], r["variant"]): r for r in rows if r.get("status") == "pass"}

    def get(self, w, v, k):
        r = self.r.get((w, v))
        return None if r is None else r.get(k)

    def speed(self, w, v, base, k="cycles"):
        """base's k over v's (a speedup for cycles); None where either lacks it."""
        a, b = self.get(w, base, k), self.get(w, v, k)
        return a / b if a is not None and b else None

    def idle(self, w, v, nsms):
        """Share of SM-cycles without resident work (before an SM's first CTA
        or after its last): 1 - sm_cycles / (cycles x SMs)."""
        c, s = self.get(w, v, "cycles"), self.get(w, v, "sm_cycles")
        return 1 - s / (c * nsms) if c and s is not None else None


def settings(ix, fg, mid, perts):
    """The settings (suffixes: '' is the shipped one) under which every
    workload of fg ran cg_only and bgp with infix mid ('' or '-large')."""
    out = [""]
    for suf, _ in perts:
        if all(ix.get(w, f"cg_only{mid}-{suf}", "cycles") and ix.get(w, f"bgp{mid}-{suf}", "cycles")
               for w in fg):
            out.append("-" + suf)
    return out


def spread(xs):
    return f"{pct(min(xs) - 1)} to {pct(max(xs) - 1)}"


def means(ix, fg, mid, sets, v, k="cycles"):
    """Per setting, the geometric mean over fg of cg_only's k over v's."""
    return [plot.geomean(ix.speed(w, f"{v}{mid}{s}", f"cg_only{mid}{s}", k) for w in fg)
            for s in sets]


def headline_cells(rows, fg, lfg):
    """(default, large) notes for the headline's speedup row: the FG-leaning
    mean's range over the timing settings; '' where they were not run."""
    ix = Index(rows)
    out = []
    for mid, ws, perts in (("", fg, PERTS), ("-large", lfg, LARGE_PERTS)):
        sets = settings(ix, ws, mid, perts) if ws else [""]
        out.append("" if len(sets) < 2 else
                   f" (mean {spread(means(ix, ws, mid, sets, 'bgp'))} over {len(sets)} "
                   "one-cycle latency settings, \"Timing noise\")")
    return out


def tail_note(top):
    """Whether the widest spreads are in the tail: the SM-busy speedup's
    spread under half the cycle speedup's in every one of top."""
    tails = [w for _, w, sb, sm, _, _ in top if max(sm) - min(sm) < (max(sb) - min(sb)) / 2]
    if not tails:
        return ("Their SM-busy speedups spread as widely: the work itself, not only the "
                "run's tail, moves with the order of requests in the queues. ")
    return (("In both" if len(tails) == len(top) else f"In {tails[0]}")
            + " the SM-busy speedup spreads less than half as widely as the speedup: what "
            "moves most is how long the SMs that finish first wait for the last (the idle "
            "share), and which SM ends last, and when, follows the order in which requests "
            "meet in the L2 and interconnect queues, which a one-cycle change reorders. ")


def noise_section(rows, fg, lfg, nsms):
    """'Timing noise at default inputs': per FG-leaning workload the bgp and
    fg_only speedups over cg_only under each setting, their spread, the
    speedup in SM-busy cycles, and cg_only's idle-SM share."""
    ix = Index(rows)
    sets = settings(ix, fg, "", PERTS)
    L = ["## Timing noise (FG-leaning)", ""]
    if len(sets) < 2:
        return L + ["The perturbation variants (memory.toml, `cg_only-icnt-m1` ...) were not "
                    "run with this sweep: the speedups above are single runs.", ""]
    names = ", ".join(f"`{d}`" for s, d in PERTS if "-" + s in sets)
    same = sum(1 for w in fg if len({ix.get(w, v + s, "warp_insts") for v in
                                     ("cg_only", "fg_only", "bgp") for s in sets}) == 1)
    L += [f"A timing setting moves no architectural result (every point here passed its CPU "
          f"reference check, and {same} of {len(fg)} workloads ran the same warp "
          "instructions under every setting and scheme), only the order in which "
          f"requests meet in queues. Each speedup at default inputs was measured under "
          f"{len(sets)} settings, the shipped one and one latency moved by one cycle "
          f"({names}; memory.toml says why one cycle is noise), cg_only, fg_only and bgp "
          "alike; a speedup is cg_only's cycles over the scheme's under the same setting. "
          "SM-busy speedup: the same ratio of `sm_cycles` (SM-cycles with resident work, "
          "summed over the SMs), which a run's tail (SMs idle while the last ones finish) "
          "does not lengthen. Idle (C): share of cg_only's SM-cycles without resident work, "
          "over the settings.", "",
          "| workload | bgp speedup | over the settings | fg_only speedup | over the settings "
          "| bgp SM-busy speedup | over the settings | cg_only cycles, max / min | idle (C) |",
          "|---|---|---|---|---|---|---|---|---|"]
    wide = []
    for w in fg:
        sb = [ix.speed(w, "bgp" + s, "cg_only" + s) for s in sets]
        sf = [ix.speed(w, "fg_only" + s, "cg_only" + s) for s in sets]
        sm = [ix.speed(w, "bgp" + s, "cg_only" + s, "sm_cycles") for s in sets]
        cyc = [ix.get(w, "cg_only" + s, "cycles") for s in sets]
        idle = [ix.idle(w, "cg_only" + s, nsms) for s in sets]
        wide.append((max(sb) - min(sb), w, sb, sm, cyc, idle))
        fcell = (pct(sf[0] - 1), spread(sf)) if None not in sf else ("-", "-")
        L.append(f"| {w} | {pct(sb[0] - 1)} | {spread(sb)} | {fcell[0]} | {fcell[1]} | "
                 f"{pct(sm[0] - 1)} | {spread(sm)} | {max(cyc) / min(cyc):.3f} | "
                 f"{100 * min(idle):.0f}-{100 * max(idle):.0f}% |")
    mb, ms = means(ix, fg, "", sets, "bgp"), means(ix, fg, "", sets, "bgp", "sm_cycles")
    fok = all(ix.speed(w, "fg_only" + s, "cg_only" + s) for w in fg for s in sets)
    mf = means(ix, fg, "", sets, "fg_only") if fok else None
    L.append(f"| geometric mean | {pct(mb[0] - 1)} | {spread(mb)} | "
             + (f"{pct(mf[0] - 1)} | {spread(mf)}" if mf else "- | -")
             + f" | {pct(ms[0] - 1)} | {spread(ms)} | | |")
    L += ["", "The headline's other FG-leaning means over the same settings (bgp against "
          "cg_only under each):", "",
          "| mean | shipped | lowest | highest |", "|---|---|---|---|"]
    for label, k, red in HEAD:
        xs = [plot.geomean(ix.get(w, "bgp" + x, k) / ix.get(w, "cg_only" + x, k) for w in fg)
              for x in sets]
        f = (lambda v: f"{100 * (1 - v):.1f}%") if red else (lambda v: pct(v - 1))
        lo, hi = (max(xs), min(xs)) if red else (min(xs), max(xs))
        L.append(f"| {label} | {f(xs[0])} | {f(lo)} | {f(hi)} |")
    wide.sort(reverse=True)
    top = wide[:2]
    L += ["", f"**The FG-leaning mean bgp speedup at default inputs lies between "
          f"{pct(min(mb) - 1)} and {pct(max(mb) - 1)}** over the {len(sets)} settings "
          f"(shipped {pct(mb[0] - 1)}, median {pct(statistics.median(mb) - 1)}); the "
          f"SM-busy speedup's mean between {pct(min(ms) - 1)} and {pct(max(ms) - 1)}. "
          "The widest spreads: " + "; ".join(
              f"{w} {spread(sb)} (SM-busy {spread(sm)}), where cg_only's cycles move by "
              f"{100 * (max(cyc) / min(cyc) - 1):.1f}% and its idle share between "
              f"{100 * min(idle):.0f}% and {100 * max(idle):.0f}%"
              for _, w, sb, sm, cyc, idle in top)
          + ". " + tail_note(top)
          + "A speedup at default inputs is therefore known to within its row's spread, the "
          f"mean to within {100 * (max(mb) - min(mb)):.1f} points."]
    lsets = settings(ix, lfg, "-large", LARGE_PERTS) if lfg else [""]
    if len(lsets) > 1:
        lb = means(ix, lfg, "-large", lsets, "bgp")
        lw = max(lfg, key=lambda w: (lambda xs: max(xs) - min(xs))(
            [ix.speed(w, "bgp-large" + s, "cg_only-large" + s) for s in lsets]))
        lx = [ix.speed(lw, "bgp-large" + s, "cg_only-large" + s) for s in lsets]
        L += ["", f"At large inputs ({len(lfg)} workloads, {len(lsets)} settings: the shipped "
              "one and `icnt_latency` -1 and +1, cg_only and bgp) the mean bgp speedup lies "
              f"between {pct(min(lb) - 1)} and {pct(max(lb) - 1)} (shipped {pct(lb[0] - 1)}); "
              f"the widest workload, {lw}, between {pct(min(lx) - 1)} and {pct(max(lx) - 1)}; "
              "cg_only's idle share there: " + ", ".join(
                  f"{w} {100 * ix.idle(w, 'cg_only-large', nsms):.0f}%" for w in lfg) + "."]
    return L + [""]


def reasons(ix, w, nsms, bus):
    """What moved for workload w between default and large inputs: a list
    of (tag, detail) for the indicators that changed by much."""
    def get(v, k):
        return ix.get(w, v, k), ix.get(w, v + "-large", k)

    c, fl = get("cg_only", "cycles"), get("cg_only", "energy.noc_flits")
    fl = (fl[0] / c[0] if fl[0] is not None and c[0] else None,
          fl[1] / c[1] if fl[1] is not None and c[1] else None)
    out = []
    idle = (ix.idle(w, "cg_only", nsms), ix.idle(w, "cg_only-large", nsms))
    miss = get("cg_only", "l1d.miss_rate")
    q, f = get("bgp", "l2.gdu.queries"), get("bgp", "l2.gdu.fg")
    l2 = tuple(b / a if a and b is not None else None for a, b in zip(q, f))
    bs = (bus(w, ""), bus(w, "-large"))
    if None not in fl and fl[1] > 1.5 * fl[0]:
        out.append(("a less loaded L2-to-L1 fill path",
                    f"the L2-to-L1 path is busier (cg_only's flits per cycle {fl[0]:.1f} -> "
                    f"{fl[1]:.1f}, L1D miss rate {miss[0]:.2f} -> {miss[1]:.2f})"))
    if None not in idle and idle[0] - idle[1] > 0.1:
        out.append(("a larger tail of idle SMs",
                    f"less of the run is a tail (cg_only's idle share {100 * idle[0]:.0f}% -> "
                    f"{100 * idle[1]:.0f}%)"))
    if None not in l2 and l2[1] - l2[0] > 0.2:
        out.append(("an L2 predictor not yet answering FG",
                    f"the L2's GDUs learned to answer FG ({l2[0]:.2f} -> {l2[1]:.2f} of their "
                    "queries)" + (f" on DRAM buses busy {100 * bs[1]:.0f}% of the run, the "
                                  "off-chip gain 5.3.2.2 describes"
                                  if bs[1] and bs[1] > 0.2 else "")))
    return out


def why_larger(ix, w, sp, nsms, bus):
    """One sentence: what moved for workload w between default and large."""
    parts = [d for _, d in reasons(ix, w, nsms, bus)] or ["none of the indicators moved by much"]
    return (f"{w} ({pct(sp[(w, '')] - 1)} -> {pct(sp[(w, '-large')] - 1)}): "
            + "; ".join(parts) + ".")


def bus_of(ix, peak_bps, core_hz):
    """bus(w, mid): the DRAM data buses' busy share under cg_only."""
    def bus(w, m):
        b, c = ix.get(w, "cg_only" + m, "dram.bytes"), ix.get(w, "cg_only" + m, "cycles")
        return b / (c / core_hz) / peak_bps if b is not None and c and peak_bps else None
    return bus


def default_gap(rows, fg, lfg, nsms, peak_bps, core_hz):
    """'Why default inputs gain less': per FG-leaning workload run at both
    sizes, bgp's speedup at each and what moved between them."""
    ix = Index(rows)
    ws = [w for w in lfg if w in fg]
    if not ws:
        return []
    sp = {(w, m): ix.speed(w, "bgp" + m, "cg_only" + m) for w in ws for m in ("", "-large")}
    gd = plot.geomean(sp[(w, "")] for w in ws)
    gl = plot.geomean(sp[(w, "-large")] for w in ws)
    share = {w: math.log(sp[(w, "-large")] / sp[(w, "")]) / len(ws) for w in ws}

    def per(w, m, v, k, den=None):
        x = ix.get(w, v + m, k)
        d = ix.get(w, v + m, den) if den else 1
        return x / d if x is not None and d else None

    bus = bus_of(ix, peak_bps, core_hz)

    def two(f, n=2, scale=1):
        return lambda w: " / ".join(fmt(None if f(w, m) is None else scale * f(w, m), n)
                                    for m in ("", "-large"))
    cols = [
        ("idle (C) %", two(lambda w, m: ix.idle(w, "cg_only" + m, nsms), 0, 100)),
        ("L1D windows/GDU (B)", two(lambda w, m: per(w, m, "bgp", "l1d.gdu.windows",
                                                     "l1d.gdu.units_windowed"), 1)),
        ("L1D FG share (B)", two(lambda w, m: per(w, m, "bgp", "l1d.gdu.fg",
                                                  "l1d.gdu.queries"))),
        ("L2 FG share (B)", two(lambda w, m: per(w, m, "bgp", "l2.gdu.fg", "l2.gdu.queries"))),
        ("L1D miss rate (C)", two(lambda w, m: ix.get(w, "cg_only" + m, "l1d.miss_rate"))),
        ("flits/cycle (C)", two(lambda w, m: per(w, m, "cg_only", "energy.noc_flits",
                                                 "cycles"), 1)),
        ("L1D fills B/C", two(lambda w, m: ix.speed(w, "cg_only" + m, "bgp" + m,
                                                    "l1d.sector_fills"))),
        ("mem_wait B/C", two(lambda w, m: ix.speed(w, "cg_only" + m, "bgp" + m,
                                                   "stall.mem_wait"))),
        ("DRAM bus % (C)", two(bus, 1, 100)),
    ]
    L = ["## Why default inputs gain less (FG-leaning, bgp against cg_only)", "",
         f"bgp's mean speedup over the {len(ws)} FG-leaning workloads that ran both sizes "
         f"is {pct(gd - 1)} at default inputs and {pct(gl - 1)} at large. Per workload, "
         "each figure at default / large: the speedup, its share of the mean's difference "
         "(the workload's log-ratio over the count, in points; the shares sum to the "
         "difference of the log-means), cg_only's idle-SM share (\"Timing noise\"), how far "
         "bgp's L1D GDUs learned and what they and the L2's answered, cg_only's L1D miss "
         "rate and interconnect flits per cycle (both directions: the L2-to-L1 fills FG "
         "answers shrink), bgp's L1D sector fills and mem_wait stalls over cg_only's, and "
         "the DRAM data buses' busy share under cg_only.", "",
         "| workload | speedup | share (points) | " + " | ".join(c for c, _ in cols) + " |",
         "|---|---|---|" + "---|" * len(cols)]
    for w in sorted(ws, key=lambda w: -share[w]):
        L.append(f"| {w} | {pct(sp[(w, '')] - 1)} / {pct(sp[(w, '-large')] - 1)} | "
                 f"{100 * share[w]:+.1f} | " + " | ".join(f(w) for _, f in cols) + " |")
    top = sorted(ws, key=lambda w: -share[w])[:3]
    tot = math.log(gl / gd)
    sets = settings(ix, ws, "", PERTS)
    noise = ""
    if len(sets) > 1:
        nb = means(ix, ws, "", sets, "bgp")
        noise = (f" Timing noise alone does not close it: over the {len(sets)} settings of "
                 f"\"Timing noise\" the default mean over these {len(ws)} lies between "
                 f"{pct(min(nb) - 1)} and {pct(max(nb) - 1)}.")
    busd = [bus(w, "") for w in ws if bus(w, "") is not None]
    where = ("The two means are equal." if abs(tot) < 1e-9 else
             f"Of the {100 * tot:.1f} log-points between the two means, "
             f"{', '.join(f'{w} carries {100 * share[w]:+.1f}' for w in top)} "
             f"({100 * sum(share[w] for w in top) / tot:.0f}% of it). "
             + " ".join(why_larger(ix, w, sp, nsms, bus) for w in top))
    L += ["", "**Where the difference is.** " + where + noise
          + " The gain at default inputs is on chip (\"Where the cycles went\"): an FG "
          "answer fills fewer sectors over the L2-to-L1 path, which pays where that path is "
          "loaded (many L1D misses, many flits per cycle) and where the SMs' work, not a "
          "tail, sets the run time. DRAM bandwidth limits few of these runs: under cg_only "
          f"the data buses are busy a median {100 * statistics.median(busd):.1f}% of a "
          "default-input run" + (", above 10% only in " + ", ".join(
              f"{w} ({100 * bus(w, ''):.1f}%)" for w in ws if (bus(w, "") or 0) > 0.1)
              if any((bus(w, "") or 0) > 0.1 for w in ws) else "")
          + ", where 5.3.2.2 credits LAMAR's gains to \"more efficient utilization of the "
          "off-chip bandwidth\"."]
    return L + [""]


def speed_bullet(rows, fg, lfg, nsms, peak_bps, core_hz):
    """The headline's "why ours differ" bullet on the FG-leaning speedup:
    its timing noise and what separates default from large inputs."""
    ix = Index(rows)
    sets = settings(ix, fg, "", PERTS)
    gd = plot.geomean(ix.speed(w, "bgp", "cg_only") for w in fg)
    L = [f"* **Speedup at default inputs (paper 12-14%; ours {pct(gd - 1)}).**"]
    if len(sets) > 1:
        mb = means(ix, fg, "", sets, "bgp")
        ww = max(fg, key=lambda w: (lambda xs: max(xs) - min(xs))(
            [ix.speed(w, "bgp" + s, "cg_only" + s) for s in sets]))
        wx = [ix.speed(w, "bgp" + s, "cg_only" + s) for w in [ww] for s in sets]
        L.append(f"Timing noise: with one latency moved by one cycle the mean lies between "
                 f"{pct(min(mb) - 1)} and {pct(max(mb) - 1)} (median "
                 f"{pct(statistics.median(mb) - 1)}), {ww} alone between {pct(min(wx) - 1)} "
                 f"and {pct(max(wx) - 1)}" + (
                     f": {100 * ix.idle(ww, 'cg_only', nsms):.0f}% of its SM-cycles under "
                     "cg_only are a tail of idle SMs waiting for the last"
                     if (ix.idle(ww, "cg_only", nsms) or 0) > 0.15 else "")
                 + " (\"Timing noise\").")
    ws = [w for w in lfg if w in fg]
    if ws:
        sp = {(w, m): ix.speed(w, "bgp" + m, "cg_only" + m) for w in ws for m in ("", "-large")}
        d = plot.geomean(sp[(w, "")] for w in ws)
        g = plot.geomean(sp[(w, "-large")] for w in ws)
        share = {w: math.log(sp[(w, "-large")] / sp[(w, "")]) / len(ws) for w in ws}
        top = sorted(ws, key=lambda w: -share[w])[:3]
        lsets = settings(ix, ws, "-large", LARGE_PERTS)
        ln = ""
        if len(lsets) > 1:
            lb = means(ix, ws, "-large", lsets, "bgp")
            ln = f" ({pct(min(lb) - 1)} to {pct(max(lb) - 1)} under the interconnect's -1/+1)"
        L.append(f"Run length: on the {len(ws)} workloads run at both sizes the mean is "
                 f"{pct(d - 1)} at default and {pct(g - 1)} at large inputs{ln}; of the "
                 f"difference {', '.join(f'{w} carries {100 * share[w]:+.1f}' for w in top)} "
                 "log-points; at default inputs " + "; ".join(
                     f"{w} has " + (" and ".join(t for t, _ in reasons(
                         ix, w, nsms, bus_of(ix, peak_bps, core_hz))) or "no indicator that "
                         "moved by much") for w in top)
                 + " (\"Why default inputs gain less\").")
    return " ".join(L)
