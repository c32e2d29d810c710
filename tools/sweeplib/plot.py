"""Plots for the results pages (docs/results/), from the rows of a sweep's
merged table (table.read_rows): grouped bars normalised to a baseline,
stacked bars, and lines over a swept axis; where a paper claims a value,
it is drawn beside ours (a hatched bar, or a dashed line with hollow
markers). matplotlib comes from Debian's python3-matplotlib (mk/deps.sh
plot). Each function returns the figures it drew, so a test can check
them, and writes a PNG without a timestamp or version (same data, same
bytes).

A value the plot needs that the table does not have (a point that failed
or is missing) is a PlotError: a page never shows a silently shorter
bar."""
import math

_PALETTE = ("#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377",
            "#bbbbbb", "#000000")


class PlotError(Exception):
    """The rows cannot give the plot asked for."""


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"font.size": 8, "axes.titlesize": 9, "svg.hashsalt": "lockstep"})
    return plt


def _save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=110, bbox_inches="tight", metadata={"Software": None})
    import matplotlib.pyplot as plt
    plt.close(fig)


def _select(rows, where):
    """Rows whose columns equal every item of where."""
    where = where or {}
    return [r for r in rows if all(r.get(k) == v for k, v in where.items())]


def value(rows, metric, **match):
    """The metric of the one row matching match (column=value); PlotError
    when there is none, several, or the point did not pass."""
    found = [r for r in rows if all(r.get(k) == v for k, v in match.items())]
    what = ", ".join(f"{k}={v}" for k, v in match.items())
    if len(found) != 1:
        raise PlotError(f"{len(found)} rows with {what} (want exactly one)")
    r = found[0]
    if r.get("status") != "pass" or r.get(metric) is None:
        raise PlotError(f"no {metric} for {what}: point {r.get('point')} is "
                        f"{r.get('status')}")
    return r[metric]


def _uniq(seq):
    out = []
    for v in seq:
        if v not in out:
            out.append(v)
    return out


def geomean(vals):
    """Geometric mean of positive numbers."""
    vals = list(vals)
    if not vals or any(v <= 0 for v in vals):
        raise PlotError("geometric mean of an empty list or a non-positive value")
    return math.exp(sum(math.log(v) for v in vals) / len(vals))


def normalised(rows, x, group, metric, baseline, where=None, xs=None, groups=None):
    """{x value: {group value: metric / metric of the baseline group}} over
    the rows matching where."""
    rows = _select(rows, where)
    xs = xs or _uniq(r[x] for r in rows)
    groups = groups or _uniq(r[group] for r in rows)
    out = {}
    for xv in xs:
        base = value(rows, metric, **{x: xv, group: baseline})
        if not base:
            raise PlotError(f"{metric} of the baseline {group}={baseline} is 0 at {x}={xv}")
        out[xv] = {g: value(rows, metric, **{x: xv, group: g}) / base for g in groups}
    return out


def grouped_bars(path, rows, x, group, metric, baseline=None, where=None, xs=None,
                 groups=None, paper=None, gmean=True, title="", ylabel=None):
    """One cluster of bars per x value (e.g. workload), one bar per group
    value (e.g. config), normalised to the baseline group when given (with
    a geometric-mean cluster at the end when gmean). paper: {(x, group):
    value on the same scale}, drawn as a hatched bar beside ours. Returns
    {x: {group: plotted value}}."""
    rows = _select(rows, where)
    xs = list(xs or _uniq(r[x] for r in rows))
    groups = list(groups or _uniq(r[group] for r in rows))
    if baseline is not None:
        data = normalised(rows, x, group, metric, baseline, None, xs, groups)
        if gmean and len(xs) > 1:
            data["gmean"] = {g: geomean(data[xv][g] for xv in xs) for g in groups}
            xs = xs + ["gmean"]
    else:
        data = {xv: {g: value(rows, metric, **{x: xv, group: g}) for g in groups}
                for xv in xs}
    paper = paper or {}
    plt = _plt()
    fig, ax = plt.subplots(figsize=(max(4.0, 0.32 * len(xs) * max(1, len(groups)) / 2 + 2),
                                    3.2))
    slots = len(groups) + (1 if paper else 0)
    w = 0.8 / slots
    for gi, g in enumerate(groups):
        col = _PALETTE[gi % len(_PALETTE)]
        pos = [i - 0.4 + w * (gi + 0.5) for i in range(len(xs))]
        ax.bar(pos, [data[xv][g] for xv in xs], w, label=str(g), color=col)
        pp = [(p + w * 0.5, paper[(xv, g)]) for p, xv in zip(pos, xs) if (xv, g) in paper]
        if pp:
            ax.bar([p for p, _ in pp], [v for _, v in pp], w * 0.5, color="white",
                   edgecolor=col, hatch="////", label=f"{g} (paper)")
    if baseline is not None:
        ax.axhline(1.0, color="black", linewidth=0.6)
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels([str(v) for v in xs], rotation=60, ha="right")
    ax.set_ylabel(ylabel or (f"{metric} / {baseline}" if baseline is not None else metric))
    ax.set_title(title)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_xlim(-0.6, len(xs) - 0.4)
    _save(fig, path)
    return data


def stacked_bars(path, rows, x, parts, where=None, xs=None, labels=None, fraction=False,
                 title="", ylabel=None):
    """One bar per x value, stacked from the metrics parts (e.g. the stall
    reasons); fraction divides each bar by its total. Returns {x: [part
    values as plotted]}."""
    rows = _select(rows, where)
    xs = list(xs or _uniq(r[x] for r in rows))
    data = {}
    for xv in xs:
        vals = [value(rows, p, **{x: xv}) for p in parts]
        tot = sum(vals)
        data[xv] = [v / tot if fraction and tot else v for v in vals]
    plt = _plt()
    fig, ax = plt.subplots(figsize=(max(4.0, 0.3 * len(xs) + 2), 3.2))
    bottom = [0.0] * len(xs)
    for pi, p in enumerate(parts):
        vals = [data[xv][pi] for xv in xs]
        ax.bar(range(len(xs)), vals, 0.7, bottom=bottom, color=_PALETTE[pi % len(_PALETTE)],
               label=(labels or parts)[pi])
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels([str(v) for v in xs], rotation=60, ha="right")
    ax.set_ylabel(ylabel or ("fraction" if fraction else "count"))
    ax.set_title(title)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    _save(fig, path)
    return data


def lines(path, rows, axis, metric, series, where=None, axis_values=None, paper=None,
          logx=False, title="", ylabel=None):
    """One line per series value (e.g. workload or variant) of metric over
    the swept axis. paper: {(series, axis value): value}, a dashed line
    with hollow markers. Returns {series: [(axis value, value)...]}."""
    rows = _select(rows, where)
    avs = list(axis_values or sorted(_uniq(r[axis] for r in rows)))
    ss = _uniq(r[series] for r in rows)
    data = {s: [(a, value(rows, metric, **{axis: a, series: s})) for a in avs] for s in ss}
    paper = paper or {}
    plt = _plt()
    fig, ax = plt.subplots(figsize=(4.5, 3.2))
    for si, s in enumerate(ss):
        col = _PALETTE[si % len(_PALETTE)]
        ax.plot([a for a, _ in data[s]], [v for _, v in data[s]], marker="o", color=col,
                label=str(s))
        pp = sorted((a, v) for (ps, a), v in paper.items() if ps == s)
        if pp:
            ax.plot([a for a, _ in pp], [v for _, v in pp], linestyle="--", marker="o",
                    markerfacecolor="none", color=col, label=f"{s} (paper)")
    if logx:
        ax.set_xscale("log", base=2)
    ax.set_xlabel(axis)
    ax.set_ylabel(ylabel or metric)
    ax.set_title(title)
    ax.legend(fontsize=7)
    _save(fig, path)
    return data
