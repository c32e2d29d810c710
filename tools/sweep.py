#!/usr/bin/env python3
"""tools/sweep.py: the sweep runner (docs/sweeps.md).

  sweep.py SPEC [--out DIR] [--jobs N] [--force] [--dry-run] [--lockstep PATH]
                [--backend local|slurm] [--partition P] [--time T] [--mem M]
                [--sbatch-opt 'OPTS']... [--array-tasks N] [--no-wait]
  sweep.py --collect DIR          the merged table of a sweep (e.g. after --no-wait)
  sweep.py --task DIR --index I --count N    one Slurm array task (the job runs it)

Exit status: 0 every point passed, 1 a point failed, errored or is missing,
2 a bad spec or usage, 130 interrupted."""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from sweeplib import points as pts          # noqa: E402
from sweeplib import runner, slurm, table   # noqa: E402
from sweeplib.spec import SpecError, load   # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_INT = 0, 1, 2, 130


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="tools/sweep.py", description="Runs a sweep spec (docs/sweeps.md): the "
        "points locally N at a time or as one Slurm job array, cached by key, "
        "into one merged table (OUT/results.csv, OUT/results.json).")
    ap.add_argument("spec", nargs="?", help="the sweep spec (TOML)")
    ap.add_argument("--out", help="output directory (default: the spec's out, else "
                    "build/sweeps/NAME)")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                    help="local points at a time (default: the number of cores, %(default)s)")
    ap.add_argument("--force", action="store_true", help="rerun every point, cached or not")
    ap.add_argument("--dry-run", action="store_true",
                    help="list the points and whether each is cached; run nothing")
    ap.add_argument("--lockstep", default=os.environ.get("LOCKSTEP",
                    os.path.join(ROOT, "build", "lockstep")),
                    help="the simulator (default: $LOCKSTEP, else build/lockstep)")
    ap.add_argument("--suites", help="built suites for the programs axis (default: "
                    "$LOCKSTEP_SUITES, else build/suites; docs/suites.md)")
    ap.add_argument("--backend", choices=("local", "slurm"), default="local",
                    help="run the points here (default) or as one Slurm job array")
    ap.add_argument("--partition", help="slurm: sbatch --partition")
    ap.add_argument("--time", help="slurm: sbatch --time (per array task)")
    ap.add_argument("--mem", help="slurm: sbatch --mem (per array task)")
    ap.add_argument("--sbatch-opt", action="append", metavar="'OPTS'",
                    help="slurm: more sbatch options, passed through (repeatable)")
    ap.add_argument("--array-tasks", type=int, default=1000,
                    help="slurm: most tasks in the array (default %(default)s); each "
                    "runs its share of the points one after the other")
    ap.add_argument("--no-wait", dest="wait", action="store_false",
                    help="slurm: submit and return; collect later with --collect OUT")
    ap.add_argument("--sbatch", default="sbatch", help=argparse.SUPPRESS)
    ap.add_argument("--squeue", default="squeue", help=argparse.SUPPRESS)
    ap.add_argument("--collect", metavar="DIR", help="write and report the merged "
                    "table of the sweep in DIR")
    ap.add_argument("--task", metavar="DIR", help=argparse.SUPPRESS)
    ap.add_argument("--index", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--count", type=int, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    modes = sum(x is not None for x in (a.spec, a.collect, a.task))
    if modes != 1:
        ap.error("give one of SPEC, --collect DIR, --task DIR")
    if a.task is not None and (a.index is None or not a.count or
                               not 0 <= a.index < a.count):
        ap.error("--task needs --index I --count N with 0 <= I < N")
    if a.jobs < 1 or a.array_tasks < 1:
        ap.error("--jobs and --array-tasks must be at least 1")
    return a


def write_json(path, obj):
    """Writes obj as indented JSON, atomically."""
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def manifest(spec, sim, points):
    """What OUT/sweep.json holds: everything --collect needs."""
    return {"schema": table.TABLE_SCHEMA, "name": spec.name, "spec": spec.path,
            "description": spec.description,
            "metrics_line": spec.lines.line("metrics"), "build": sim.build_id,
            "lockstep": sim.path, "metrics": spec.metrics, "axes": list(spec.grid),
            "variants": [v for v, _ in spec.variants], "timeout": spec.timeout,
            "points": points}


def report(out, m, stream=sys.stderr):
    """Builds and writes the merged table, prints the failures and a
    summary line. Returns the exit status."""
    cols, rows, failures = table.build(out, m)
    s = table.write(out, m, cols, rows, failures)
    for rec in failures:
        stream.write(f"sweep {m['name']}: point {rec['point']} ({rec['what']}): "
                     f"{rec['status']}: {rec['msg']}\n  command: {rec['command']}\n")
        if rec.get("stderr_tail"):
            stream.write("  stderr (tail):\n" + "".join(
                f"    {ln}\n" for ln in rec["stderr_tail"].splitlines()))
    missing = [r for r in rows if r["status"] == "missing"]
    for r in missing[:10]:
        stream.write(f"sweep {m['name']}: point {r['point']} has no result yet\n")
    stream.write(f"sweep {m['name']}: {s['points']} points: {s['pass']} passed, "
                 f"{s['fail']} failed, {s['error']} errors, {s['missing']} missing -> "
                 f"{os.path.join(out, 'results.csv')}\n")
    return EXIT_OK if s["pass"] == s["points"] else EXIT_FAIL


def do_sweep(a):
    spec = load(a.spec)
    sim = pts.Sim(a.lockstep)
    skipped = []
    points = pts.expand(spec, sim, a.suites, skipped)
    for label, why in skipped:
        sys.stderr.write(f"sweep {spec.name}: program {label} skipped: {why}\n")
    out = os.path.abspath(a.out or spec.out or os.path.join("build", "sweeps", spec.name))
    todo, seen, cached = [], set(), 0
    for p in points:
        if p["key"] in seen:
            continue        # two points with one effective configuration
        seen.add(p["key"])
        if not a.force and runner.load_cached(out, p) is not None:
            cached += 1
        else:
            todo.append(p)
    if a.dry_run:
        run_keys = {p["key"] for p in todo}
        for p in points:
            state = "run" if p["key"] in run_keys else "cached"
            print(f"{p['index']:5d} {p['key']} {state:6s} {pts.describe(p)}")
        print(f"sweep {spec.name}: {len(points)} points, {cached} cached, "
              f"{len(todo)} to run")
        return EXIT_OK
    os.makedirs(runner.point_dir(out), exist_ok=True)
    m = manifest(spec, sim, points)
    write_json(os.path.join(out, table.MANIFEST), m)
    where = (f"{a.jobs} local jobs" if a.backend == "local" else "slurm job array")
    sys.stderr.write(f"sweep {spec.name}: {len(points)} points, {cached} cached, "
                     f"{len(todo)} to run ({where}) -> {out}\n")
    progress = runner.Progress(spec.name, len(todo))
    t0 = time.monotonic()
    if todo and a.backend == "local":
        try:
            walls = runner.run_local(todo, out, a.jobs, spec.timeout, progress)
        except KeyboardInterrupt:
            sys.stderr.write(f"\nsweep {spec.name}: interrupted\n")
            report(out, m)
            return EXIT_INT
        write_json(os.path.join(out, "timing.json"), {
            "backend": "local", "jobs": a.jobs, "ran": len(walls), "cached": cached,
            "elapsed_s": round(time.monotonic() - t0, 3),
            "point_s_sum": round(sum(walls.values()), 3),
            "point_s": {k: round(v, 3) for k, v in walls.items()}})
    elif todo:
        os.makedirs(slurm.slurm_dir(out), exist_ok=True)
        write_json(os.path.join(slurm.slurm_dir(out), slurm.PENDING),
                   {"build": sim.build_id, "timeout": spec.timeout, "points": todo})
        try:
            slurm.submit(todo, out, spec.name, a, os.path.abspath(__file__), progress)
        except KeyboardInterrupt:
            sys.stderr.write(f"\nsweep {spec.name}: interrupted (the job array may still "
                             f"run: scancel it, or collect later with --collect {out})\n")
            return EXIT_INT
        if not a.wait:
            sys.stderr.write(f"sweep {spec.name}: collect the table when the job has "
                             f"ended: tools/sweep.py --collect {out}\n")
            return EXIT_OK
    return report(out, m)


def do_task(a):
    out = os.path.abspath(a.task)
    with open(os.path.join(slurm.slurm_dir(out), slurm.PENDING), encoding="utf-8") as f:
        pend = json.load(f)
    bad = runner.run_slice(pend["points"], out, a.index, a.count, pend["timeout"],
                           pend["build"])
    return EXIT_OK if bad == 0 else EXIT_FAIL


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        if a.task is not None:
            return do_task(a)
        if a.collect is not None:
            out = os.path.abspath(a.collect)
            return report(out, table.read_manifest(out))
        return do_sweep(a)
    except SpecError as e:
        sys.stderr.write(f"sweep: {e}\n")
        return EXIT_USAGE
    except (pts.SweepError, table.TableError) as e:
        sys.stderr.write(f"sweep: {e}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("\nsweep: interrupted\n")
        return EXIT_INT


if __name__ == "__main__":
    sys.exit(main())
