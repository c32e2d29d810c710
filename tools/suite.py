#!/usr/bin/env python3
"""tools/suite.py: the papers' programs from public benchmark suites, built
from your own checkout and run unmodified on Lockstep (docs/suites.md).

  suite.py list [SUITE...] [--paper TABLE] [--json]
  suite.py build SUITE --root PATH [--data PATH] [--jobs N] [--binaries DIR] [PROGRAM...]
  suite.py run SUITE [PROGRAM...] [--mode functional|timing|both] [--input NAME]
               [--experiment NAME] [--config C] [--set k=v]... [--jobs N] [--timeout S]

SUITE is a shipped descriptor's name (tools/suites/NAME.toml) or a path to
one. Built suites live in --suites DIR (default $LOCKSTEP_SUITES, else
build/suites); a sweep spec's `programs = "suite:NAME"` axis runs them.
Exit status: 0 everything asked for built/passed, 1 something did not,
2 usage or a bad descriptor."""
import argparse
import concurrent.futures
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from sweeplib import points as pts       # noqa: E402
from sweeplib import programs as pg      # noqa: E402
from sweeplib import suites as sl        # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="tools/suite.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suites", default=None, help="where built suites live (default: "
                    "$LOCKSTEP_SUITES, else build/suites)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    li = sub.add_parser("list", help="every program of the papers' tables and its status")
    li.add_argument("suite", nargs="*", help="suites (default: every shipped one)")
    li.add_argument("--paper", choices=list(sl.PAPER_TABLES), help="only this table's programs")
    li.add_argument("--json", action="store_true", help="machine-readable")
    b = sub.add_parser("build", help="build a suite's programs from your checkout")
    b.add_argument("suite")
    b.add_argument("programs", nargs="*", help="only these (default: all)")
    b.add_argument("--root", required=True, help="your checkout of the suite")
    b.add_argument("--data", help="where its inputs are (default: the descriptor's data "
                   "directory under the checkout)")
    b.add_argument("--jobs", "-j", type=int, default=1, help="makes at a time (default 1)")
    b.add_argument("--binaries", help="take binaries built elsewhere from DIR/PROGRAM "
                   "(built with nvcc -cudart shared -gencode arch=compute_75,code=compute_75) "
                   "instead of building")
    b.add_argument("--timeout", type=float, default=1800, help="seconds per make (1800)")
    r = sub.add_parser("run", help="run a built suite's programs on Lockstep and check them")
    r.add_argument("suite")
    r.add_argument("programs", nargs="*", help="only these (default: all that built)")
    r.add_argument("--mode", choices=("functional", "timing", "both"), default="both",
                   help="both (default): functional, then timing compared with it")
    r.add_argument("--input", help="the input scale (default: each program's for "
                   "--experiment, else its default)")
    r.add_argument("--experiment", help="pick each program's input for this experiment")
    r.add_argument("--config", default="builtin", help="shipped config name or file")
    r.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    r.add_argument("--jobs", "-j", type=int, default=1, help="programs at a time (default 1)")
    r.add_argument("--timeout", type=float, help="seconds per run (default: the descriptor's)")
    r.add_argument("--lockstep", default=os.environ.get("LOCKSTEP", os.path.join(
        ROOT, "build", "lockstep")), help="the simulator (default: $LOCKSTEP, else "
        "build/lockstep)")
    a = ap.parse_args(argv)
    if a.suites is None:
        a.suites = pg.default_suites_dir(ROOT)
    return a


# --- list -------------------------------------------------------------------
def _recorded(prog):
    """(build, functional, timing) as the descriptor records them."""
    s = prog.status
    return {"pass": ("ok", "pass", "pass"), "nobuild": ("no", "-", "-"),
            "simfail": ("ok", "fail", "fail"), "noinput": ("ok", "-", "-"),
            "slow": ("ok", "pass", "slow"), "unavailable": ("-", "-", "-"),
            "untested": ("?", "?", "?")}[s]


def _local(ctx, prog):
    """(build, functional, timing, why) from this machine's state, or None."""
    b = ctx.build_rec(prog.name)
    if not b:
        return None
    runs = ctx.state.get("runs", {}).get(prog.name, {})
    res = {"functional": "-", "timing": "-"}
    why = b.get("msg", "") if b.get("build") != "ok" else ""
    for inp in runs.values():
        for mode, rec in inp.items():
            if rec.get("check") != prog.check.as_dict():
                continue            # judged by a check the descriptor no longer has
            if mode in res and (res[mode] in ("-", "pass")):
                res[mode] = rec["status"]
                if rec["status"] != "pass" and not why:
                    why = rec.get("msg", "")
    return b.get("build", "?"), res["functional"], res["timing"], why


def rows_for(suite_names, suites_dir, paper=None):
    """One dict per program: suite, program, papers, build, functional,
    timing, status, why, source (here or recorded)."""
    rows = []
    for name in suite_names:
        ctx = pg.Ctx(sl.load(name), suites_dir)
        for p in ctx.suite.programs.values():
            if paper and not any(t == paper for t, _ in p.papers):
                continue
            loc = _local(ctx, p)
            if loc and loc[0] == "ok" and loc[1] == loc[2] == "-":
                loc = None          # built here, not run: the recorded verdict stands
            row = {"suite": ctx.suite.name, "program": p.name, "title": p.title,
                   "papers": [f"{t}:{a}" for t, a in p.papers], "status": p.status,
                   "class": p.klass, "note": p.note, "recorded_commit": ctx.suite.commit}
            if loc:
                row.update(zip(("build", "functional", "timing", "why"), loc))
                row["source"] = "here"
                row["why"] = row["why"] or p.note
            else:
                row.update(zip(("build", "functional", "timing"), _recorded(p)))
                row.update(why=p.note, source="recorded")
            rows.append(row)
    return rows


def local_verdict(r):
    """What this machine's build and runs say of a program."""
    if r["build"] != "ok":
        return "does not build here"
    if r["functional"] == "pass" and r["timing"] == "pass":
        return "runs and passes here"
    if "fail" in (r["functional"], r["timing"]) or "error" in (r["functional"], r["timing"]):
        return "fails here"
    return "built here, not run in both modes yet"


def do_list(a):
    names = a.suite or sl.names()
    rows = rows_for(names, a.suites, a.paper)
    if a.json:
        json.dump(rows, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return EXIT_OK
    head = ("suite", "program", "papers", "build", "func", "timing", "status: why")
    tab = []
    for r in rows:
        papers = sl.paper_cell(r["papers"])
        mark = "" if r["source"] == "here" else "*"
        why = sl.STATUSES[r["status"]] if r["source"] == "recorded" else local_verdict(r)
        if r["why"]:
            why += ": " + r["why"] + (f" [{r['class']}]" if r["class"] else "")
        tab.append((r["suite"], r["program"], papers or "-", r["build"] + mark,
                    r["functional"] + mark, r["timing"] + mark, why))
    widths = [max(len(x[i]) for x in tab + [head]) for i in range(6)]
    for t in [head] + tab:
        print("  ".join(t[i].ljust(widths[i]) for i in range(6)) + "  " + t[6])
    counts = {}
    for r in rows:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    print(f"\n{len(rows)} programs; recorded: " + ", ".join(
        f"{n} {sl.STATUSES[s]}" for s, n in counts.items()))
    print("papers: 3.2, 4.2, 5.4, 6.2 = Rhu dissertation Tables 3.2 (DPE), 4.2 (CAPRI/SLP), "
          "5.4 (LAMAR), 6.2 (PCA); GS = G-Scalar Table 2")
    print("* as recorded in the descriptor at the suite's commit (tools/suites/NAME.toml); "
          "runs on this machine replace it (python3 tools/suite.py run SUITE)")
    return EXIT_OK


# --- build ------------------------------------------------------------------
def do_build(a):
    ctx = pg.Ctx(sl.load(a.suite), a.suites)
    recs = pg.build(ctx, a.root, a.data, a.programs or None, a.jobs, a.binaries, a.timeout,
                    log=lambda s: print(s, flush=True) if not a.binaries else None)
    ok = sum(r["build"] == "ok" for r in recs.values())
    if a.binaries:
        for n, r in recs.items():
            print(f"{ctx.suite.name}/{n}: {r['build']}" + (f": {r['msg']}" if r.get("msg") else ""))
    st = ctx.state
    print(f"suite {ctx.suite.name}: {ok}/{len(recs)} built from {st['tree']} (commit "
          f"{st['commit'] or 'unknown'}{', modified' if st['dirty'] else ''}; descriptor "
          f"recorded {ctx.suite.commit or 'none'}) -> {ctx.dir}")
    if st["commit"] and ctx.suite.commit and st["commit"] != ctx.suite.commit:
        print(f"suite {ctx.suite.name}: note: your checkout is not the recorded commit; "
              "statuses may differ")
    return EXIT_OK if ok == len(recs) else EXIT_FAIL


# --- run --------------------------------------------------------------------
def _sets(a):
    out = []
    for kv in a.set:
        k, sep, v = kv.partition("=")
        if not sep or not k:
            raise pg.ProgramError(f"--set {kv!r}: expected KEY=VALUE")
        out.append((k, v))
    return out


def _one(ctx, prog, inp, mode, a, sets, build_id):
    spec = pg.run_spec(ctx, prog, inp)
    tag = f"{prog.name}.{inp}.{mode}"
    r = pg.run_checked(spec, a.lockstep, mode, a.config, sets, os.path.join(ctx.dir, "runs", tag),
                       os.path.join(ctx.dir, "stats", tag + ".json"), os.path.join(ctx.dir, "refs"),
                       build_id, a.timeout)
    return r


def do_run(a):
    ctx = pg.Ctx(sl.load(a.suite), a.suites)
    if not ctx.built:
        raise pg.ProgramError(f"suite {ctx.suite.name} is not built here: python3 "
                              f"tools/suite.py build {ctx.suite.name} --root PATH")
    sim = pts.Sim(a.lockstep)
    sets = _sets(a)
    progs = [p for p in ctx.suite.programs.values() if p.status != "unavailable"]
    if a.programs:
        unknown = [n for n in a.programs if n not in ctx.suite.programs]
        if unknown:
            raise pg.ProgramError(f"{ctx.suite.name}: no program {unknown[0]}")
        progs = [p for p in progs if p.name in a.programs]
    else:
        progs = [p for p in progs if ctx.build_rec(p.name).get("build") == "ok"]
    modes = ["functional", "timing"] if a.mode == "both" else [a.mode]
    jobs = []
    for p in progs:
        inp = p.input_for(a.experiment, a.input)
        if inp not in p.inputs:
            print(f"{p.label}: no input {a.input!r} (inputs: {', '.join(p.inputs)})")
            continue
        jobs.append((p, inp))
    bad = 0
    runs = ctx.state.setdefault("runs", {})

    def chain(p, inp):
        res = []
        for mode in modes:
            try:
                r = _one(ctx, p, inp, mode, a, sets, sim.build_id)
            except pg.ProgramError as e:
                r = {"status": "error", "msg": str(e), "wall_s": 0, "stats": None}
            res.append((mode, r))
            if r["status"] != "pass":
                break
        return p, inp, res

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        for f in concurrent.futures.as_completed([ex.submit(chain, p, i) for p, i in jobs]):
            p, inp, res = f.result()
            for mode, r in res:
                st = r.get("stats") or {}
                extra = (f", {st.get('cycles')} cycles, IPC {st.get('ipc'):.3f}"
                         if mode == "timing" and st.get("cycles") else "")
                unst = (f"; not compared (differ between two functional runs): "
                        f"{', '.join(r['unstable'])}" if r.get("unstable") else "")
                print(f"{p.label} {inp} {mode}: {r['status']} ({r['wall_s']:.1f} s{extra})"
                      + (f": {r['msg']}" if r["msg"] else "") + unst, flush=True)
                runs.setdefault(p.name, {}).setdefault(inp, {})[mode] = {
                    "status": r["status"], "msg": r["msg"], "config": a.config,
                    "sets": [f"{k}={v}" for k, v in sets], "wall_s": r["wall_s"],
                    "cycles": st.get("cycles"), "warp_insts": st.get("warp_insts"),
                    "unstable": r.get("unstable", []), "check": p.check.as_dict(),
                    "build": sim.build_id}
                bad += r["status"] != "pass"
            ctx.save()
    print(f"suite {ctx.suite.name}: {len(jobs)} programs, {bad} runs did not pass")
    return EXIT_OK if bad == 0 else EXIT_FAIL


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return {"list": do_list, "build": do_build, "run": do_run}[a.cmd](a)
    except sl.SuiteError as e:
        sys.stderr.write(f"suite: {e}\n")
        return EXIT_USAGE
    except (pg.ProgramError, pts.SweepError) as e:
        sys.stderr.write(f"suite: {e}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("\nsuite: interrupted\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
