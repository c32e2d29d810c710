#!/usr/bin/env python3
"""tools/stats-same.py: are two simulator builds statistics-identical?

  stats-same.py --ref OLD_LOCKSTEP --new NEW_LOCKSTEP [--size small|default]
                [--jobs N] [--out DIR] [--only SUBSTR] [--list]

Runs the whole workload suite under every setting a refactor must keep:
functional mode, timing mode on every shipped config, every variant of every
experiments/*.toml spec (its configs, its --set keys), and `make run`'s
mechanisms, once with each binary, and compares the --stats-json files with
the "sim" objects (host timings) removed. Prints one line per setting and
the first differing path of each differing workload. Exit 0: identical in
every setting; 1: a difference; 2: usage or a run that failed to start.
"""
import argparse
import concurrent.futures as cf
import json
import os
import subprocess
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MAKE_RUN_SET = ["lamar.gdu=bgp", "gscalar.compress=on", "simt.compaction=capri",
                "slp.permutation=balanced"]


def settings():
    """(name, mode, config, [key=value]) for every setting to compare."""
    out = [("functional", "functional", "gtx480", [])]
    cfgs = sorted(f[:-5] for f in os.listdir(os.path.join(ROOT, "configs"))
                  if f.endswith(".conf"))
    out += [(f"timing.{c}", "timing", c, []) for c in cfgs]
    out.append(("make-run", "timing", "gtx480", MAKE_RUN_SET))
    seen = {(m, c, tuple(s)) for _, m, c, s in out}
    edir = os.path.join(ROOT, "experiments")
    for spec in sorted(f for f in os.listdir(edir) if f.endswith(".toml")):
        with open(os.path.join(edir, spec), "rb") as f:
            d = tomllib.load(f)
        mode = d.get("mode", "timing")
        base = d.get("set", {})
        for c in d.get("configs", ["gtx480"]):
            for v in d.get("variants", [{"name": "base", "set": {}}]):
                kv = dict(base)
                kv.update(v.get("set", {}))
                sets = [f"{k}={str(x).lower() if isinstance(x, bool) else x}"
                        for k, x in sorted(kv.items())]
                key = (mode, c, tuple(sets))
                if key in seen:
                    continue
                seen.add(key)
                out.append((f"{spec[:-5]}.{v['name']}.{c}", mode, c, sets))
    return out


def run(binary, size, mode, config, sets, path):
    cmd = [binary, "run", "all", "--size", size, "--mode", mode, "--config", config,
           "--stats-json", path]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if not os.path.exists(path):
        return f"no stats ({' '.join(cmd)}): exit {p.returncode}: {p.stderr.strip()[-300:]}"
    return None


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k != "sim"}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


NEW_KEYS = []      # --new-key: paths (dots, lists as []) only the new build writes


def new_key(path):
    p = path
    while "[" in p:                      # launches[3].l1d -> launches.l1d
        i = p.index("[")
        p = p[:i] + p[p.index("]", i) + 1:]
    return any(p.endswith(k) for k in NEW_KEYS)


def first_diff(a, b, path=""):
    if type(a) is not type(b):
        return f"{path}: {a!r} vs {b!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a and new_key(f"{path}.{k}"):
                continue
            if k not in a or k not in b:
                return f"{path}.{k}: only in {'new' if k in b else 'ref'}"
            d = first_diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_diff(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} vs {b!r}"


def compare(ref, new):
    ref, new = strip(ref), strip(new)
    rows = []
    rw = {r.get("workload"): r for r in ref}
    nw = {r.get("workload"): r for r in new}
    for w in sorted(set(rw) | set(nw)):
        if w not in rw or w not in nw:
            rows.append(f"{w}: only in {'new' if w in nw else 'ref'}")
            continue
        d = first_diff(rw[w], nw[w])
        if d:
            rows.append(f"{w}{d}")
    return rows


def one(a, st):
    name, mode, config, sets = st
    res = []
    for tag, binary in (("ref", a.ref), ("new", a.new)):
        path = os.path.join(a.out, f"{name}.{tag}.json")
        err = run(binary, a.size, mode, config, sets, path)
        if err:
            return name, [f"{tag}: {err}"], True
        with open(path) as f:
            res.append(json.load(f))
    return name, compare(*res), False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ref", help="the reference lockstep binary")
    ap.add_argument("--new", default=os.path.join(ROOT, "build", "lockstep"))
    ap.add_argument("--size", default="small", choices=("small", "default", "large"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "stats-same"))
    ap.add_argument("--only", help="only settings whose name contains this")
    ap.add_argument("--list", action="store_true", help="list the settings and stop")
    ap.add_argument("--new-key", action="append", default=[], metavar="PATH",
                    help="a statistic only the new build writes, ignored where the "
                         "reference lacks it (a path suffix: l1d.gdu.windows); repeatable")
    a = ap.parse_args()
    NEW_KEYS.extend("." + k.lstrip(".") for k in a.new_key)
    sts = [s for s in settings() if not a.only or a.only in s[0]]
    if a.list:
        for n, m, c, s in sts:
            print(f"{n}: --mode {m} --config {c} {' '.join('--set ' + x for x in s)}")
        return 0
    if not a.ref:
        ap.error("--ref is required")
    os.makedirs(a.out, exist_ok=True)
    bad = 0
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for name, rows, err in ex.map(lambda s: one(a, s), sts):
            print(f"{'ERROR' if err else 'DIFF ' if rows else 'same '} {name}", flush=True)
            for r in rows[:5]:
                print(f"    {r}")
            bad |= 2 if err else 1 if rows else 0
    print(f"{len(sts)} settings at size {a.size}: "
          f"{'identical' if not bad else 'DIFFERENT'}")
    return 2 if bad & 2 else bad


if __name__ == "__main__":
    sys.exit(main())
