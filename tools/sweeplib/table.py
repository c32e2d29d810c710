"""The merged table of a sweep: one row per point, the axes as columns,
then the status and the spec's metrics, from OUT/sweep.json (the expanded
points) and OUT/points/ (the results). Written as OUT/results.csv and
OUT/results.json; both are deterministic (no host times: those go to
OUT/timing.json), so a sweep run locally and on Slurm gives identical
files."""
import csv
import io
import json
import os
import re

from . import runner
from .spec import SpecError

TABLE_SCHEMA = 1
MANIFEST = "sweep.json"


class TableError(Exception):
    """A table that cannot be built (no manifest, a metric the stats do not
    have)."""


def read_manifest(out):
    """The manifest OUT/sweep.json written when the sweep was expanded."""
    path = os.path.join(out, MANIFEST)
    try:
        with open(path, encoding="utf-8") as f:
            m = json.load(f)
    except OSError as e:
        raise TableError(f"{path}: cannot read ({e.strerror}): not a sweep output "
                         "directory?") from None
    except ValueError as e:
        raise TableError(f"{path}: not JSON: {e}") from None
    if m.get("schema") != TABLE_SCHEMA:
        raise TableError(f"{path}: schema {m.get('schema')}, this runner reads "
                         f"{TABLE_SCHEMA}")
    return m


def metric(stats, path):
    """The value at a metric path (`l1d.miss_rate`, `stack_depth_hist[2]`)
    of a stats object; KeyError when the stats have no such member."""
    v = stats
    for part in path.split("."):
        m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)(?:\[([0-9]+)\])?", part)
        name, idx = m.group(1), m.group(2)
        if not isinstance(v, dict) or name not in v:
            raise KeyError(path)
        v = v[name]
        if idx is not None:
            if not isinstance(v, list) or int(idx) >= len(v):
                raise KeyError(path)
            v = v[int(idx)]
    if isinstance(v, (dict, list)):
        raise KeyError(path)
    return v


def columns(m):
    """The table's columns for manifest m."""
    cols = ["point", "workload", "size", "seed", "mode", "config"]
    if m["variants"]:
        cols.append("variant")
    cols += list(m["axes"])
    return cols + ["status"] + list(m["metrics"]) + ["key"]


def build(out, m=None):
    """(columns, rows, failures) of the sweep in out: rows are dicts in
    point order, status "pass", "fail", "error" or "missing" (never run, or
    still running); failures are the failure records (with command and
    stderr tail) of the points that did not pass."""
    m = m or read_manifest(out)
    cols = columns(m)
    rows, failures = [], []
    for p in m["points"]:
        row = {"point": p["index"], "workload": p["workload"], "size": p["size"],
               "seed": p["seed"], "mode": p["mode"], "config": p["config"]}
        if m["variants"]:
            row["variant"] = p["variant"]
        for a in m["axes"]:
            row[a] = _axis_value(p["axes"][a])
        st = runner.load_cached(out, p)
        if st is not None:
            row["status"] = "pass"
            for k in m["metrics"]:
                try:
                    row[k] = metric(st, k)
                except KeyError:
                    raise SpecError(m["spec"], m.get("metrics_line", 0), "metrics",
                                    f"'{k}' is not in the statistics of point "
                                    f"{p['index']} ({runner.stats_path(out, p['key'])}; "
                                    "docs/stats.md)") from None
        else:
            rec = _fail_record(out, p)
            row["status"] = rec["status"] if rec else "missing"
            for k in m["metrics"]:
                row[k] = None
            if rec:
                failures.append(rec)
        row["key"] = p["key"]
        rows.append(row)
    return cols, rows, failures


def _axis_value(v):
    """A --set value as a table cell: an integer where it reads as one."""
    return int(v) if re.fullmatch(r"-?[0-9]+", v) else v


def _fail_record(out, p):
    try:
        with open(runner.fail_path(out, p["key"]), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def summary(rows):
    """{points, pass, fail, error, missing} counts of rows."""
    s = {"points": len(rows), "pass": 0, "fail": 0, "error": 0, "missing": 0}
    for r in rows:
        s[r["status"]] += 1
    return s


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def csv_text(cols, rows):
    """The CSV text of a table (header, then one line per row)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for r in rows:
        w.writerow([_cell(r.get(c)) for c in cols])
    return buf.getvalue()


def write(out, m, cols, rows, failures):
    """Writes OUT/results.csv and OUT/results.json; returns the summary."""
    s = summary(rows)
    with open(os.path.join(out, "results.csv"), "w", encoding="utf-8") as f:
        f.write(csv_text(cols, rows))
    failures = [{k: v for k, v in rec.items() if k != "wall_s"} for rec in failures]
    doc = {"schema": TABLE_SCHEMA, "sweep": m["name"], "spec": m["spec"],
           "build": m["build"], "summary": s, "columns": cols, "rows": rows,
           "failures": failures}
    trees = suite_trees(m)
    if trees:
        doc["suites"] = trees
    with open(os.path.join(out, "results.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    return s


def sizes(rows):
    """The input sizes of rows as a page states them: "small", or
    "small/default" when a sweep ran more than one (smallest first)."""
    order = {"small": 0, "default": 1, "large": 2}
    got = {r["size"] for r in rows if r.get("size")}
    return "/".join(sorted(got, key=lambda x: (order.get(x, 9), x))) or "unknown"


def suite_trees(m):
    """{suite: {commit, dirty, recorded, repository}} of the program points
    of manifest m: which checkouts the papers' programs came from."""
    out = {}
    for p in m["points"]:
        if p.get("kind") == "program":
            out.setdefault(p["program"]["suite"], p["program"].get("tree", {}))
    return out


def read_rows(out):
    """The rows of OUT/results.json (for plotting scripts)."""
    with open(os.path.join(out, "results.json"), encoding="utf-8") as f:
        return json.load(f)["rows"]
