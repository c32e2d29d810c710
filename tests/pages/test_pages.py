#!/usr/bin/env python3
"""tests/pages/test_pages.py: every results page renders from a small fixed
sweep with no hole in it.

  test_pages.py LOCKSTEP [NAME ...]

For each committed fixture tests/pages/fixtures/NAME (experiments/NAME.toml
run on a few workloads at small size, tests/pages/make-fixtures.py), runs
experiments/NAME.py on a copy into a scratch directory and checks its page:
  - no unfilled placeholder: no {identifier} or {expr:fmt} left by a string
    that was not formatted, no nan, inf or None printed;
  - every count matches its list: "N workloads (a, b, c)" names N
    workloads whenever the parenthesis is a list of workload names;
  - the page states the fixture's input size ("small inputs"), and states
    "default inputs" once the fixture's rows are relabelled default (a
    page that hard-codes its size fails one of the two).
Each checker is shown to fail on a page with the fault injected
(self_test). Exit 0 when every page passes."""
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIX = os.path.join(ROOT, "tests", "pages", "fixtures")
NUMBERS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_.\[\]'\"()]*(![rsa])?(:[^{}\s]*)?\}")
BADNUM = re.compile(r"(?<![\w`])(nan|-?inf|None)(?![\w`])")
COUNT = re.compile(r"\b(\d+|" + "|".join(NUMBERS) + r")\s+(?:of\s+\d+\s+)?(?:[\w-]+\s+)?"
                   r"workloads?\s*(?::\s*|\()([^()\n]*)\)?", re.I)
# a page that states a size in prose its owner has not yet derived from the
# rows; the test asserts the fault is still there, so fixing it fails here
# until the entry goes
SIZE_FIXED = {}
# a page whose script does not yet read the chip energy model
# (docs/energy.md): it must still fail with this message, so that its port
# fails here until the entry goes (the owner of experiments/dac.py ports
# its energy prose from the former E_v model to energy.j)
KNOWN_BROKEN = {}


def page_faults(text, names, size):
    """The faults of one rendered page, as strings."""
    out = []
    body = re.sub(r"`[^`\n]*`", "``", text)       # code spans may hold braces
    for m in PLACEHOLDER.finditer(body):
        out.append(f"unfilled placeholder {m.group(0)!r}")
    for m in BADNUM.finditer(body):
        ln = body.count("\n", 0, m.start()) + 1
        out.append(f"line {ln}: {m.group(0)!r} printed")
    for m in COUNT.finditer(text):
        n = m.group(1).lower()
        n = NUMBERS[n] if n in NUMBERS else int(n)
        items = [x.strip(" .*`") for x in re.split(r",\s*|\s+and\s+", m.group(2)) if x.strip()]
        if items and all(x in names for x in items) and len(items) != n:
            out.append(f"count {n} lists {len(items)}: {m.group(0)!r}")
    if size and not re.search(r"\b" + size + r"(\*\*)? inputs", text):
        out.append(f"does not state its {size} inputs")
    return out


def render(lockstep, name, relabel=None):
    """The page experiments/NAME.py writes from the fixture (sizes relabelled
    to relabel when given), and its stderr."""
    with tempfile.TemporaryDirectory() as tmp:
        out, res = os.path.join(tmp, "out"), os.path.join(tmp, "res")
        shutil.copytree(os.path.join(FIX, name), out)
        gz = os.path.join(out, "points.json.gz")
        if os.path.exists(gz):              # the points' stats, one file each
            with gzip.open(gz, "rt", encoding="utf-8") as f:
                pts = json.load(f)
            os.makedirs(os.path.join(out, "points"), exist_ok=True)
            for key, st in pts.items():
                with open(os.path.join(out, "points", key + ".json"), "w",
                          encoding="utf-8") as f:
                    json.dump(st, f)
        mp = os.path.join(out, "sweep.json")
        with open(mp, encoding="utf-8") as f:
            m = json.load(f)
        m["lockstep"] = lockstep
        if relabel:
            for p in m["points"]:
                p["size"] = relabel
        with open(mp, "w", encoding="utf-8") as f:
            json.dump(m, f)
        if relabel:
            rp = os.path.join(out, "results.json")
            with open(rp, encoding="utf-8") as f:
                r = json.load(f)
            for row in r["rows"]:
                row["size"] = relabel
            with open(rp, "w", encoding="utf-8") as f:
                json.dump(r, f)
        p = subprocess.run([sys.executable, os.path.join(ROOT, "experiments", name + ".py"),
                            out, res], capture_output=True, text=True,
                           env=dict(os.environ, MPLBACKEND="Agg"))
        if p.returncode:
            return None, p.stderr.strip()[-800:]
        with open(os.path.join(res, name + ".md"), encoding="utf-8") as f:
            return f.read(), ""


def self_test(names):
    """Every checker fails on a page with its fault injected."""
    good = "Timing mode, small inputs: 2 workloads (vecadd, bfs) and three workloads (a b).\n"
    assert page_faults(good, names, "small") == [], page_faults(good, names, "small")
    for bad in ("**{size} inputs**", "mean {x:.2f}", "ratio nan here", "None"):
        assert page_faults(good + bad, names, "small"), bad
    assert page_faults(good + "In 5 workloads (vecadd, bfs, reduce, sfu) it", names, "small")
    assert page_faults(good.replace("small", "default"), names, "small")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.split("\n\n")[1])
    lockstep = os.path.abspath(sys.argv[1])
    names = set(subprocess.run([lockstep, "list", "workloads"], capture_output=True,
                               text=True, check=True).stdout.split())
    self_test(names)
    pages = sys.argv[2:] or sorted(os.listdir(FIX))
    bad = 0
    for name in pages:
        faults = []
        for size in ("small", "default"):
            text, err = render(lockstep, name, None if size == "small" else size)
            if name in KNOWN_BROKEN:
                if text is not None or KNOWN_BROKEN[name] not in err:
                    faults.append(f"{size}: no longer fails with {KNOWN_BROKEN[name]!r}: "
                                  "remove its KNOWN_BROKEN entry (and check the page)")
                continue
            if text is None:
                faults.append(f"{size}: the script failed: {err}")
                continue
            f = page_faults(text, names, None if SIZE_FIXED.get(name) else size)
            faults += [f"{size}: {x}" for x in f]
            if SIZE_FIXED.get(name) and not re.search(SIZE_FIXED[name] + r"(\*\*)? inputs", text):
                faults.append(f"{size}: no longer states {SIZE_FIXED[name]} inputs "
                              "whatever its rows: remove its SIZE_FIXED entry")
        known = " (known: " + KNOWN_BROKEN[name] + ")" if name in KNOWN_BROKEN else ""
        print(f"{'ok  ' if not faults else 'FAIL'} {name}{known}")
        for x in faults:
            print(f"       {x}")
        bad += bool(faults)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
