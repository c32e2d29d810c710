#!/usr/bin/env python3
"""tests/pages/make-fixtures.py: rebuilds the committed sweep fixtures the
page-render test (tests/pages/test_pages.py) renders every results page
from: each experiments/NAME.toml run on FIXTURE_WORKLOADS at small size
(its variants, configs and metrics unchanged), of which the manifest
(sweep.json), the merged rows (results.json) and, for the scripts that
read them, the points' stats (points.json.gz: {key: stats}) are kept in
tests/pages/fixtures/NAME/.

  make-fixtures.py [--lockstep build/lockstep] [--jobs 2] [NAME ...]

Rerun when a page script reads a metric its fixture lacks."""
import argparse
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from sweeplib import runner   # noqa: E402
# two of each class the page scripts split by (a geometric mean needs
# two): FG- (bfs, spmv) and CG-leaning, divergent (reduce, bfs, sfu) and
# not (vecadd, kmeans); an SFU user (sfu); memory.py's PCA workloads (bfs,
# sssp, kmeans); backprop, in dac's and dpe's sensitivity variants
FIXTURE_WORKLOADS = ["vecadd", "kmeans", "reduce", "bfs", "spmv", "sssp", "sfu", "backprop"]


def derive(spec_text):
    """The spec with the fixture's workloads (a variant's own list cut to
    them, a variant left with none dropped) and small inputs."""
    ws = ", ".join(f'"{w}"' for w in FIXTURE_WORKLOADS)
    t = re.sub(r"^workloads\s*=.*$", f"workloads = [{ws}]", spec_text, count=1, flags=re.M)

    def cut(m):
        keep = [w for w in re.findall(r'"([^"]+)"', m.group(1)) if w in FIXTURE_WORKLOADS]
        return "workloads = [" + ", ".join(f'"{w}"' for w in keep) + "]"
    head, *blocks = t.split("[[variants]]")
    # a variant whose own workloads are none of the fixture's is left out
    blocks = [re.sub(r"^workloads\s*=\s*\[(.*)\][ \t]*$", cut, b, flags=re.M) for b in blocks]
    t = head + "".join("[[variants]]" + b for b in blocks
                       if not re.search(r"^workloads = \[\]$", b, flags=re.M))
    t = re.sub(r"^sizes\s*=.*$", 'sizes = ["small"]', t, flags=re.M)
    return re.sub(r"^out\s*=.*$", "", t, flags=re.M)


def scrub(x, paths):
    """x with every string naming one of paths (this machine's) cut to
    the part after it, so no committed file names a local path."""
    if isinstance(x, dict):
        return {k: scrub(v, paths) for k, v in x.items()}
    if isinstance(x, list):
        return [scrub(v, paths) for v in x]
    if isinstance(x, str):
        for p in paths:
            x = x.replace(p + os.sep, "").replace(p, "")
    return x


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lockstep", default=os.path.join(ROOT, "build", "lockstep"))
    ap.add_argument("--jobs", default="2")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    edir = os.path.join(ROOT, "experiments")
    # a feeder sweep (sweeplib/feeder.py: compaction_more, ...) writes no page
    def page_script(n):
        with open(os.path.join(edir, n + ".py"), encoding="utf-8") as f:
            return "feeder.run(" not in f.read()
    names = a.names or sorted(f[:-5] for f in os.listdir(edir)
                              if f.endswith(".toml") and page_script(f[:-5]))
    for name in names:
        with open(os.path.join(edir, name + ".toml"), encoding="utf-8") as f:
            text = derive(f.read())
        with tempfile.TemporaryDirectory() as tmp:
            spec = os.path.join(tmp, name + ".toml")
            with open(spec, "w", encoding="utf-8") as f:
                f.write(text)
            out = os.path.join(tmp, "out")
            subprocess.run([sys.executable, os.path.join(ROOT, "tools", "sweep.py"), spec,
                            "--out", out, "--lockstep", a.lockstep, "--jobs", a.jobs],
                           check=True)
            dst = os.path.join(ROOT, "tests", "pages", "fixtures", name)
            shutil.rmtree(dst, ignore_errors=True)
            os.makedirs(dst)
            paths = [out, tmp, ROOT, os.path.dirname(os.path.abspath(a.lockstep))]
            with open(os.path.join(out, "sweep.json"), encoding="utf-8") as f:
                m = scrub(json.load(f), paths)
            m["lockstep"] = "LOCKSTEP"          # the test puts its build here
            m["spec"] = f"experiments/{name}.toml"
            with open(os.path.join(dst, "sweep.json"), "w", encoding="utf-8") as f:
                json.dump(m, f, indent=1)
            with open(os.path.join(out, "results.json"), encoding="utf-8") as f:
                res = scrub(json.load(f), paths)
            with open(os.path.join(dst, "results.json"), "w", encoding="utf-8") as f:
                json.dump(res, f, indent=0)
            # the per-point stats JSONs, for the scripts that read them
            with open(os.path.join(edir, name + ".py"), encoding="utf-8") as f:
                src = f.read()
                if "stats_path" in src or "load_cached" in src:
                    pts = {}
                    for r in res["rows"]:
                        with open(runner.stats_path(out, r["key"]), encoding="utf-8") as f:
                            pts[r["key"]] = scrub(json.load(f), paths)
                    with gzip.open(os.path.join(dst, "points.json.gz"), "wt",
                                   encoding="utf-8") as f:
                        json.dump(pts, f, separators=(",", ":"))
            print(f"make-fixtures: {name}: {len(m['points'])} points -> {dst}")


if __name__ == "__main__":
    main()
