#!/usr/bin/env python3
"""make test-sweep: the sweep runner (tools/sweep.py, docs/sweeps.md).

Spec errors name the line and key; grid expansion; cache keys (a config
change changes the key, a comment in a config file does not); the small
sweep (3 workloads x 2 configs x 2 values) equals the points run one by
one with lockstep itself; incremental reruns, --force, failures recorded
without stopping the others, timeouts, --collect, the Slurm array path
(with a stand-in sbatch that runs the tasks here; make test-slurm runs a
real one) and the plotting library. LOCKSTEP names the simulator."""
import csv
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from sweeplib import points as pts      # noqa: E402
from sweeplib import spec as sp         # noqa: E402

LOCKSTEP = os.path.abspath(os.environ.get("LOCKSTEP", os.path.join(ROOT, "build", "lockstep")))
TOOL = os.path.join(ROOT, "tools", "sweep.py")
SMALL = os.path.join(HERE, "small.toml")


def read(path, mode="r"):
    """The contents of a file."""
    with open(path, mode) as f:
        return f.read()


def sweep(*args, env=None):
    """Runs tools/sweep.py; returns (exit status, stderr)."""
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True,
                       env=e, cwd=ROOT)
    return p.returncode, p.stderr


def parse(text, name="t.toml"):
    return sp.Spec(name, text)


class SpecErrors(unittest.TestCase):
    """A bad spec is a clear error naming its line and key."""

    def err(self, text):
        with self.assertRaises(sp.SpecError) as cm:
            parse(text)
        return cm.exception

    def test_minimal_defaults(self):
        s = parse('name = "m"\nworkloads = ["vecadd"]\n')
        self.assertEqual((s.sizes, s.seeds, s.mode, s.configs, s.metrics),
                         (["default"], [1], "timing", [("builtin", 0)],
                          list(sp.DEFAULT_METRICS)))
        self.assertEqual((s.grid, s.variants, s.set, s.timeout), ({}, [], {}, None))

    def test_syntax_error_names_line(self):
        e = self.err('name = "m"\nworkloads = ["vecadd"]\n\nsizes = [small]\n')
        self.assertEqual(e.line, 4)
        self.assertTrue(str(e).startswith("t.toml:4: TOML syntax:"), str(e))

    def test_unknown_top_key(self):
        e = self.err('name = "m"\nworkloads = ["vecadd"]\n# c\ngrdi = 3\n')
        self.assertEqual((e.line, e.key), (4, "grdi"))
        self.assertIn("t.toml:4: key 'grdi': unknown key", str(e))

    def test_missing_name(self):
        e = self.err('workloads = ["vecadd"]\n')
        self.assertEqual(e.key, "name")

    def test_grid_not_a_list(self):
        e = self.err('name = "m"\nworkloads = ["a"]\n[grid]\nsched_policy = ["gto"]\n'
                     'num_sms = 4\n')
        self.assertEqual((e.line, e.key), (5, "grid.num_sms"))

    def test_grid_float_value(self):
        e = self.err('name = "m"\nworkloads = ["a"]\n\n[grid]\nl1d_size = [16384, 1.5]\n')
        self.assertEqual((e.line, e.key), (5, "grid.l1d_size"))
        self.assertIn("expected an integer or a string", str(e))

    def test_line_after_multiline_array(self):
        e = self.err('name = "m"\nworkloads = [\n  "a",  # [\n  "b",\n]\n'
                     'sizes = ["small", "huge"]\n')
        self.assertEqual((e.line, e.key), (6, "sizes"))

    def test_variant_keys(self):
        text = ('name = "m"\nworkloads = ["a"]\n[[variants]]\nname = "x"\n'
                'set = { num_sms = 4 }\n[[variants]]\nname = "y"\nsett = { }\n')
        e = self.err(text)
        self.assertEqual((e.line, e.key), (8, "variants[2].sett"))
        e = self.err(text.replace("sett = { }", "set = { num_sms = true }"))
        self.assertEqual((e.line, e.key), (8, "variants[2].set.num_sms"))
        e = self.err(text.replace('name = "y"', 'name = "x"').replace("sett = { }", ""))
        self.assertEqual((e.line, e.key), (7, "variants[2].name"))

    def test_key_in_two_places(self):
        e = self.err('name = "m"\nworkloads = ["a"]\nset = { num_sms = 4 }\n'
                     '[grid]\nnum_sms = [1, 2]\n')
        self.assertEqual((e.line, e.key), (5, "grid.num_sms"))

    def test_bad_metric_and_seed(self):
        e = self.err('name = "m"\nworkloads = ["a"]\nmetrics = ["ipc", "l1d..x"]\n')
        self.assertEqual((e.line, e.key), (3, "metrics"))
        e = self.err('name = "m"\nworkloads = ["a"]\nseeds = [1, -2]\n')
        self.assertEqual((e.line, e.key), (3, "seeds"))

    def test_key_line_for_lockstep_messages(self):
        s = parse('name = "m"\nworkloads = ["a"]\nset = { l1d_size = 1 }\n[grid]\n'
                  'num_sms = [1]\n[[variants]]\nname = "v"\nset = { dram_sched = "x" }\n')
        self.assertEqual(s.key_line("l1d_size"), (3, "set.l1d_size"))
        self.assertEqual(s.key_line("num_sms"), (5, "grid.num_sms"))
        self.assertEqual(s.key_line("dram_sched"), (8, "variants[1].set.dram_sched"))
        self.assertEqual(s.key_line("nope"), (0, None))


class WithSim(unittest.TestCase):
    sim = None

    @classmethod
    def setUpClass(cls):
        cls.sim = pts.Sim(LOCKSTEP)
        cls.tmp = tempfile.mkdtemp(prefix="lockstep-sweep-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path


class SpecErrorsFromLockstep(WithSim):
    """What only the simulator knows still names the spec's line and key."""

    def expand_err(self, text):
        with self.assertRaises(sp.SpecError) as cm:
            pts.expand(parse(text), self.sim)
        return cm.exception

    def test_unknown_workload_and_category(self):
        e = self.expand_err('name = "m"\n\nworkloads = ["vecadd", "nosuch"]\n')
        self.assertEqual((e.line, e.key), (3, "workloads"))
        self.assertIn("unknown workload 'nosuch'", str(e))
        e = self.expand_err('name = "m"\nworkloads = ["@weird"]\n')
        self.assertEqual((e.line, e.key), (2, "workloads"))
        self.assertIn("unknown category '@weird'", str(e))

    def test_bad_value_names_grid_line(self):
        e = self.expand_err('name = "m"\nworkloads = ["vecadd"]\n[grid]\n'
                            'sched_policy = ["gto"]\nnum_sms = [4, 0]\n')
        self.assertEqual((e.line, e.key), (5, "grid.num_sms"))
        self.assertIn("bad value '0'", str(e))

    def test_unknown_config_key(self):
        e = self.expand_err('name = "m"\nworkloads = ["vecadd"]\n[[variants]]\nname = "a"\n'
                            'set = { l1d_sise = 4 }\n')
        self.assertEqual((e.line, e.key), (5, "variants[1].set.l1d_sise"))
        self.assertIn("unknown key 'l1d_sise'", str(e))

    def test_bad_config_name_and_file(self):
        e = self.expand_err('name = "m"\nworkloads = ["vecadd"]\nconfigs = ["gtx480", "gtx9"]\n')
        self.assertEqual((e.line, e.key), (3, "configs"))
        self.assertIn("gtx9", str(e))
        bad = self.write("bad.conf", "num_sms = 4\nl1d_sise = 3\n")
        e = self.expand_err(f'name = "m"\nworkloads = ["vecadd"]\nconfigs = ["{bad}"]\n')
        self.assertEqual((e.line, e.key), (3, "configs"))
        self.assertIn("bad.conf:2", str(e))


class Grid(WithSim):
    """Grid expansion: variants x cross product of the axes, in spec order."""

    def test_combos_order_and_sets(self):
        s = parse('name = "m"\nworkloads = ["vecadd"]\nset = { l1d_assoc = 4 }\n'
                  '[grid]\nnum_sms = [4, 8]\nsched_policy = ["gto", "lrr", "oldest"]\n'
                  '[[variants]]\nname = "a"\n[[variants]]\nname = "b"\n'
                  'set = { dram_sched = "fcfs" }\n')
        cs = pts.combos(s)
        self.assertEqual(len(cs), 2 * 2 * 3)
        self.assertEqual(cs[0], ("a", {"num_sms": "4", "sched_policy": "gto"},
                                 [("l1d_assoc", "4"), ("num_sms", "4"), ("sched_policy", "gto")]))
        self.assertEqual(cs[1][1], {"num_sms": "4", "sched_policy": "lrr"})
        self.assertEqual(cs[3][1], {"num_sms": "8", "sched_policy": "gto"})
        self.assertEqual(cs[6][0], "b")
        self.assertEqual(cs[6][2], [("l1d_assoc", "4"), ("dram_sched", "fcfs"),
                                    ("num_sms", "4"), ("sched_policy", "gto")])
        self.assertEqual(len({tuple(c[2]) for c in cs}), len(cs))

    def test_no_grid_one_combo(self):
        self.assertEqual(pts.combos(parse('name = "m"\nworkloads = ["a"]\n')),
                         [(None, {}, [])])

    def test_variant_workloads(self):
        s = parse('name = "m"\nworkloads = ["bfs", "vecadd", "matmul"]\n'
                  '[[variants]]\nname = "all"\n[[variants]]\nname = "few"\n'
                  'workloads = ["matmul", "bfs"]\nset = { num_sms = 4 }\n')
        ps = pts.expand(s, self.sim)
        self.assertEqual([(p["workload"], p["variant"]) for p in ps],
                         [("bfs", "all"), ("bfs", "few"), ("vecadd", "all"),
                          ("matmul", "all"), ("matmul", "few")])
        s = parse('name = "m"\nworkloads = ["bfs"]\n[[variants]]\nname = "x"\n'
                  'workloads = ["vecadd"]\n')
        with self.assertRaises(sp.SpecError) as c:
            pts.expand(s, self.sim)
        self.assertEqual((c.exception.line, c.exception.key), (5, "workloads"))
        self.assertIn("not in the spec's workloads", str(c.exception))

    def test_variant_sizes(self):
        s = parse('name = "m"\nworkloads = ["bfs", "vecadd"]\nsizes = ["small"]\n'
                  '[[variants]]\nname = "all"\n[[variants]]\nname = "big"\n'
                  'sizes = ["small", "default"]\n')
        ps = pts.expand(s, self.sim)
        self.assertEqual([(p["workload"], p["size"], p["variant"]) for p in ps],
                         [("bfs", "small", "all"), ("bfs", "small", "big"),
                          ("bfs", "default", "big"), ("vecadd", "small", "all"),
                          ("vecadd", "small", "big"), ("vecadd", "default", "big")])
        with self.assertRaises(sp.SpecError) as c:
            parse('name = "m"\nworkloads = ["a"]\n[[variants]]\nname = "x"\n'
                  'sizes = ["huge"]\n')
        self.assertEqual((c.exception.line, c.exception.key), (5, "variants[1].sizes"))

    def test_points_product_and_categories(self):
        s = parse('name = "m"\nworkloads = ["@fg", "bfs", "vecadd"]\n'
                  'sizes = ["small", "default"]\nseeds = [1, 2]\n'
                  'configs = ["gtx480", "fx5800"]\n[grid]\nnum_sms = [2, 4, 8]\n')
        ps = pts.expand(s, self.sim)
        fg = subprocess.run([LOCKSTEP, "list", "workloads", "@fg"], capture_output=True,
                            text=True, check=True).stdout.split()
        self.assertIn("bfs", fg)          # named twice, expanded once
        wl = fg + ["vecadd"]
        self.assertEqual(len(ps), len(wl) * 2 * 2 * 2 * 3)
        self.assertEqual([p["index"] for p in ps], list(range(len(ps))))
        self.assertEqual(pts.expand_workloads(s, self.sim), wl)
        self.assertEqual(len({p["key"] for p in ps}), len(ps))
        p = ps[1]
        self.assertEqual((p["workload"], p["size"], p["seed"], p["config"], p["axes"]),
                         (fg[0], "small", 1, "gtx480", {"num_sms": "4"}))
        self.assertEqual(p["argv"][:8], [self.sim.path, "run", fg[0], "--size", "small",
                                         "--seed", "1", "--mode"])
        self.assertEqual(p["argv"][-4:], ["--config", "gtx480", "--set", "num_sms=4"])


class CacheKeys(WithSim):
    """The key follows the effective configuration and the build, nothing else."""

    def key(self, config, sets=(), workload="vecadd", size="small", seed=1, mode="timing",
            sim=None):
        sim = sim or self.sim
        text, err = sim.config_dump(config, list(sets))
        self.assertIsNone(err)
        return pts.point_key(sim.build_id, workload, size, seed, mode, pts.normalise_dump(text))

    def test_config_change_changes_key(self):
        a = self.write("a.conf", "num_sms = 15\n")
        b = self.write("b.conf", "num_sms = 16\n")
        self.assertNotEqual(self.key(a), self.key(b))
        self.assertNotEqual(self.key("gtx480"), self.key("gtx480", [("num_sms", "14")]))

    def test_comment_does_not_change_key(self):
        src = os.path.join(ROOT, "configs", "gtx480.conf")
        with open(src, encoding="utf-8") as f:
            text = f.read()
        plain = self.write("g1.conf", text)
        commented = self.write("g2.conf", "# a new comment\n\n" +
                               text.replace("\n", "   # and one more\n", 3))
        self.assertNotEqual(text, read(commented))
        k = self.key("gtx480")
        self.assertEqual(self.key(plain), k)
        self.assertEqual(self.key(commented), k)
        # and a --set to the value the config already has is the same point
        self.assertEqual(self.key("gtx480", [("num_sms", "15")]), k)

    def test_other_inputs_change_key(self):
        k = self.key("gtx480")
        self.assertNotEqual(self.key("gtx480", workload="bfs"), k)
        self.assertNotEqual(self.key("gtx480", size="default"), k)
        self.assertNotEqual(self.key("gtx480", seed=2), k)
        self.assertNotEqual(self.key("gtx480", mode="functional"), k)
        other = os.path.join(self.tmp, "lockstep-copy")
        shutil.copy(LOCKSTEP, other)
        self.assertEqual(self.key("gtx480", sim=pts.Sim(other)), k)
        with open(other, "ab") as f:
            f.write(b"\0")
        self.assertNotEqual(self.key("gtx480", sim=pts.Sim(other)), k)

    def test_normalise_dump(self):
        self.assertEqual(pts.normalise_dump("# effective configuration: x\n"
                                            "num_sms    = 4   # doc = here\n\n"
                                            "sched_policy= gto\n"),
                         "num_sms=4\nsched_policy=gto")


def _fmt(v):
    """A cell as the test expects it in the CSV (written here, not taken from
    the runner)."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    return repr(v) if isinstance(v, float) else str(v)


def table_diffs(expected, got):
    """Differences between two tables (lists of row dicts): the checker the
    small-sweep test relies on."""
    out = []
    if len(expected) != len(got):
        out.append(f"{len(got)} rows, want {len(expected)}")
    for i, (e, g) in enumerate(zip(expected, got)):
        for k in e:
            if k not in g or g[k] != e[k] or type(g[k]) is not type(e[k]):
                out.append(f"row {i} {k}: {g.get(k)!r}, want {e[k]!r}")
    return out


class SmallSweep(WithSim):
    """3 workloads x 2 configs x 2 values, locally: all points present and
    the merged table equals running the points one by one."""

    WL = ["vecadd", "bfs", "reduce"]
    CONFIGS = ["gtx480", "fx5800"]
    VALUES = [4, 8]
    METRICS = ["cycles", "ipc", "simd_util", "l1d.miss_rate", "stall.scoreboard",
               "dram.bytes", "mem_digest"]

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.out = os.path.join(cls.tmp, "small")
        cls.rc, cls.err = sweep(SMALL, "--out", cls.out, "--jobs", "2",
                                "--lockstep", LOCKSTEP)
        # the reference: each point with lockstep itself, one after the other
        cls.direct = []
        for w in cls.WL:
            for c in cls.CONFIGS:
                for n in cls.VALUES:
                    js = os.path.join(cls.tmp, f"direct-{w}-{c}-{n}.json")
                    subprocess.run([LOCKSTEP, "run", w, "--size", "small", "--seed", "1",
                                    "--config", c, "--set", f"num_sms={n}",
                                    "--stats-json", js], check=True,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    with open(js, encoding="utf-8") as f:
                        cls.direct.append((w, c, n, json.load(f)))

    def expected_rows(self):
        rows = []
        for i, (w, c, n, st) in enumerate(self.direct):
            r = {"point": i, "workload": w, "size": "small", "seed": 1, "mode": "timing",
                 "config": c, "num_sms": n, "status": "pass"}
            for m in self.METRICS:
                v = st
                for part in m.split("."):
                    v = v[part]
                r[m] = v
            rows.append(r)
        return rows

    def test_all_points_pass(self):
        self.assertEqual(self.rc, 0, self.err)
        self.assertIn("12 points: 12 passed, 0 failed", self.err)

    def test_json_table_equals_one_by_one(self):
        with open(os.path.join(self.out, "results.json"), encoding="utf-8") as f:
            doc = json.load(f)
        self.assertEqual(doc["summary"], {"points": 12, "pass": 12, "fail": 0, "error": 0,
                                          "missing": 0})
        self.assertEqual(doc["columns"][:8], ["point", "workload", "size", "seed", "mode",
                                              "config", "num_sms", "status"])
        self.assertEqual(table_diffs(self.expected_rows(), doc["rows"]), [])

    def test_csv_table_equals_one_by_one(self):
        with open(os.path.join(self.out, "results.csv"), encoding="utf-8") as f:
            got = list(csv.DictReader(f))
        want = [{k: _fmt(v) for k, v in r.items()} for r in self.expected_rows()]
        self.assertEqual(table_diffs(want, got), [])

    def test_point_stats_equal_direct_runs(self):
        with open(os.path.join(self.out, "results.json"), encoding="utf-8") as f:
            rows = json.load(f)["rows"]
        for r, (_, _, _, st) in zip(rows, self.direct):
            with open(os.path.join(self.out, "points", r["key"] + ".json"),
                      encoding="utf-8") as f:
                mine = json.load(f)
            mine.pop("sim"), st.pop("sim", None)
            for launch in mine["launches"] + st["launches"]:
                launch.pop("sim", None)
            self.assertEqual(mine, st, r)

    def test_checker_can_fail(self):
        want = self.expected_rows()
        with open(os.path.join(self.out, "results.json"), encoding="utf-8") as f:
            got = json.load(f)["rows"]
        bad = [dict(r) for r in got]
        bad[5]["cycles"] += 1
        self.assertEqual(len(table_diffs(want, bad)), 1)
        bad = [dict(r) for r in got]
        bad[2]["ipc"] = str(bad[2]["ipc"])
        self.assertEqual(len(table_diffs(want, bad)), 1)
        self.assertTrue(table_diffs(want, got[:-1]))

    def test_rerun_runs_nothing_and_collect_is_identical(self):
        csv1 = read(os.path.join(self.out, "results.csv"))
        rc, err = sweep(SMALL, "--out", self.out, "--jobs", "2", "--lockstep", LOCKSTEP)
        self.assertEqual(rc, 0, err)
        self.assertIn("12 points, 12 cached, 0 to run", err)
        os.unlink(os.path.join(self.out, "results.csv"))
        rc, err = sweep("--collect", self.out)
        self.assertEqual(rc, 0, err)
        self.assertEqual(read(os.path.join(self.out, "results.csv")),
                         csv1)


FAKE = """#!/bin/sh
# a stand-in simulator: logs each run, fails or sleeps on demand, then execs
# the real one
if [ "$1" = run ]; then
  echo "$*" >> "$SWEEP_TEST_LOG"
  case " $* " in *" $SWEEP_TEST_FAIL "*)
    i=0; while [ $i -lt 30 ]; do echo "noise line $i" >&2; i=$((i+1)); done
    echo "injected failure for $SWEEP_TEST_FAIL" >&2; exit 3 ;; esac
  [ -n "$SWEEP_TEST_SLEEP" ] && sleep "$SWEEP_TEST_SLEEP"
fi
exec REAL "$@"
"""


class Incremental(WithSim):
    """Only what changed reruns; --force reruns all; a failing point is
    recorded (command, stderr tail) and does not stop the others."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(dir=self.tmp)
        self.fake = os.path.join(self.dir, "lockstep")
        with open(self.fake, "w", encoding="utf-8") as f:
            f.write(FAKE.replace("REAL", LOCKSTEP))
        os.chmod(self.fake, os.stat(self.fake).st_mode | stat.S_IXUSR)
        self.log = os.path.join(self.dir, "runs.log")
        self.out = os.path.join(self.dir, "out")
        self.spec = os.path.join(self.dir, "s.toml")
        self.set_spec([4, 8])

    def set_spec(self, values, extra=""):
        with open(self.spec, "w", encoding="utf-8") as f:
            f.write('name = "inc"\nworkloads = ["vecadd", "reduce"]\nsizes = ["small"]\n'
                    f'mode = "functional"\n{extra}[grid]\nnum_sms = {values}\n')

    def run_sweep(self, *args, fail="", sleep=""):
        if os.path.exists(self.log):
            os.unlink(self.log)
        rc, err = sweep(self.spec, "--out", self.out, "--lockstep", self.fake, "-j", "2",
                        *args, env={"SWEEP_TEST_LOG": self.log, "SWEEP_TEST_FAIL": fail,
                                    "SWEEP_TEST_SLEEP": sleep})
        runs = read(self.log).splitlines() if os.path.exists(self.log) else []
        return rc, err, sorted(runs)

    def test_only_changes_rerun(self):
        rc, err, runs = self.run_sweep()
        self.assertEqual((rc, len(runs)), (0, 4), err)
        rc, err, runs = self.run_sweep()
        self.assertEqual((rc, runs), (0, []), err)
        self.set_spec([4, 8, 16])
        rc, err, runs = self.run_sweep()
        self.assertEqual(rc, 0, err)
        self.assertEqual(len(runs), 2)
        self.assertTrue(all("num_sms=16" in r for r in runs), runs)
        rc, err, runs = self.run_sweep("--force")
        self.assertEqual((rc, len(runs)), (0, 6), err)
        self.assertIn("6 points, 0 cached, 6 to run", err)

    def test_failure_recorded_others_run(self):
        rc, err, runs = self.run_sweep(fail="reduce")
        self.assertEqual(rc, 1, err)
        self.assertEqual(len(runs), 4)
        self.assertIn("4 points: 2 passed, 0 failed, 2 errors", err)
        self.assertIn("injected failure for reduce", err)
        with open(os.path.join(self.out, "results.json"), encoding="utf-8") as f:
            doc = json.load(f)
        bad = [r for r in doc["rows"] if r["status"] != "pass"]
        self.assertEqual([r["workload"] for r in bad], ["reduce", "reduce"])
        self.assertTrue(all(r["cycles"] is None for r in bad))
        self.assertEqual(len(doc["failures"]), 2)
        f0 = doc["failures"][0]
        self.assertEqual((f0["status"], f0["rc"], f0["msg"]), ("error", 3, "exit 3"))
        self.assertIn("run reduce --size small", f0["command"])
        self.assertIn("--stats-json", f0["command"])
        tail = f0["stderr_tail"].splitlines()
        self.assertEqual(tail[-1], "injected failure for reduce")
        self.assertEqual(len(tail), 20)        # the tail, not all 31 lines
        # the next sweep reruns only the failed points, and they pass now
        rc, err, runs = self.run_sweep()
        self.assertEqual(rc, 0, err)
        self.assertEqual(len(runs), 2)
        self.assertTrue(all(" reduce " in r for r in runs), runs)
        self.assertFalse([n for n in os.listdir(os.path.join(self.out, "points"))
                          if n.endswith(".fail.json")])

    def test_wrong_result_is_fail(self):
        # a result the CPU reference rejects: exit 1 and pass=false
        self.set_spec([4])
        with open(self.fake, "w", encoding="utf-8") as f:
            f.write("#!/bin/sh\nif [ \"$1\" = run ]; then\n  eval \"out=\\${$#}\"\n"
                    "  echo '{\"pass\": false, \"msg\": \"c[3] = 1, want 2\"}' > \"$out\"\n"
                    "  echo FAIL >&2; exit 1\nfi\n"
                    f"exec {LOCKSTEP} \"$@\"\n")
        rc, err, _ = self.run_sweep()
        self.assertEqual(rc, 1, err)
        self.assertIn("2 points: 0 passed, 2 failed", err)
        self.assertIn("fail: c[3] = 1, want 2", err)

    def test_timeout(self):
        self.set_spec([4], extra="timeout = 0.5\n")
        rc, err, runs = self.run_sweep(sleep="5")
        self.assertEqual(rc, 1, err)
        self.assertIn("timed out after 0.5 s", err)

    def test_missing_metric_names_spec_line(self):
        self.set_spec([4], extra='metrics = ["cycles", "l1d.nosuch"]\n')
        rc, err, _ = self.run_sweep()
        self.assertEqual(rc, 2, err)
        self.assertIn("s.toml:5: key 'metrics': 'l1d.nosuch' is not in the statistics", err)

    def test_collect_reports_missing(self):
        rc, err, _ = self.run_sweep()
        self.assertEqual(rc, 0, err)
        pdir = os.path.join(self.out, "points")
        os.unlink(os.path.join(pdir, sorted(os.listdir(pdir))[0]))
        rc, err = sweep("--collect", self.out)
        self.assertEqual(rc, 1, err)
        self.assertIn("3 passed, 0 failed, 0 errors, 1 missing", err)
        rc, err = sweep("--collect", os.path.join(self.dir, "nothing"))
        self.assertEqual(rc, 2)
        self.assertIn("not a sweep output directory", err)


FAKE_SBATCH = """#!/bin/sh
# a stand-in sbatch: records its arguments, prints a job id, runs each task
# of the array here, one after the other
echo "$@" > "$SBATCH_LOG"
array=""; script=""
while [ $# -gt 0 ]; do
  case $1 in --array) array=$2; shift 2 ;; --job-name|--output|--partition|--time|--mem) shift 2 ;;
    --*) shift ;; *) script=$1; shift ;; esac
done
echo 4242
last=${array#0-}
i=0; rc=0
while [ $i -le $last ]; do SLURM_ARRAY_TASK_ID=$i sh "$script" > /dev/null || rc=1; i=$((i+1)); done
exit $rc
"""


class SlurmPath(WithSim):
    """--backend slurm with a stand-in sbatch (make test-slurm runs the real
    one): the array command, every point run once, the same table."""

    def test_array_equals_local(self):
        d = tempfile.mkdtemp(dir=self.tmp)
        sb = os.path.join(d, "sbatch")
        with open(sb, "w", encoding="utf-8") as f:
            f.write(FAKE_SBATCH)
        os.chmod(sb, 0o755)
        log = os.path.join(d, "sbatch.log")
        rc, err = sweep(SMALL, "--out", os.path.join(d, "local"), "--lockstep", LOCKSTEP)
        self.assertEqual(rc, 0, err)
        sq = os.path.join(d, "squeue")
        with open(sq, "w", encoding="utf-8") as f:
            f.write("#!/bin/sh\necho \"$@\" >> \"$SBATCH_LOG.squeue\"\n")
        os.chmod(sq, 0o755)
        rc, err = sweep(SMALL, "--out", os.path.join(d, "slurm"), "--lockstep", LOCKSTEP,
                        "--backend", "slurm", "--sbatch", sb, "--squeue", sq,
                        "--array-tasks", "5",
                        "--partition", "p1", "--time", "5", "--mem", "100M",
                        "--sbatch-opt", "--qos=low --exclusive", env={"SBATCH_LOG": log})
        self.assertEqual(rc, 0, err)
        self.assertIn("submitted job array 4242 (12 points, 5 tasks)", err)
        args = read(log).split()
        for a in ("--array 0-4", "--partition p1", "--time 5", "--mem 100M",
                  "--qos=low --exclusive"):
            self.assertIn(a, " ".join(args))
        self.assertEqual(read(log + ".squeue").splitlines()[0], "-h -j 4242 -o %i %T")
        for name in ("results.csv", "results.json"):
            self.assertEqual(read(os.path.join(d, "local", name)),
                             read(os.path.join(d, "slurm", name)), name)

    def test_slices_cover_every_point_once(self):
        todo = list(range(23))
        seen = sorted(i for k in range(5) for i in todo[k::5])
        self.assertEqual(seen, todo)

    def test_task_refuses_other_build(self):
        d = tempfile.mkdtemp(dir=self.tmp)
        out = os.path.join(d, "o")
        os.makedirs(os.path.join(out, "slurm"))
        s = parse('name = "m"\nworkloads = ["vecadd"]\nsizes = ["small"]\n')
        todo = pts.expand(s, self.sim)
        with open(os.path.join(out, "slurm", "pending.json"), "w") as f:
            json.dump({"build": "0" * 64, "timeout": None, "points": todo}, f)
        rc, err = sweep("--task", out, "--index", "0", "--count", "1")
        self.assertEqual(rc, 1, err)
        with open(os.path.join(out, "points", todo[0]["key"] + ".fail.json")) as f:
            self.assertIn("not the simulator this sweep was expanded with", json.load(f)["msg"])

    def test_sbatch_refusal_is_clear(self):
        d = tempfile.mkdtemp(dir=self.tmp)
        sb = os.path.join(d, "sbatch")
        with open(sb, "w") as f:
            f.write("#!/bin/sh\necho 'sbatch: error: invalid partition specified: p9' >&2\n"
                    "exit 1\n")
        os.chmod(sb, 0o755)
        rc, err = sweep(SMALL, "--out", os.path.join(d, "o"), "--lockstep", LOCKSTEP,
                        "--backend", "slurm", "--sbatch", sb)
        self.assertEqual(rc, 2, err)
        self.assertIn("sbatch refused the job (exit 1): sbatch: error: invalid partition", err)


class Plots(unittest.TestCase):
    """The plotting library: values as computed, PNGs written, a missing
    point an error."""

    ROWS = [
        {"point": 0, "workload": "a", "config": "base", "n": 1, "status": "pass", "ipc": 2.0,
         "x": 1, "y": 3},
        {"point": 1, "workload": "a", "config": "new", "n": 1, "status": "pass", "ipc": 3.0,
         "x": 2, "y": 2},
        {"point": 2, "workload": "b", "config": "base", "n": 2, "status": "pass", "ipc": 4.0,
         "x": 0, "y": 4},
        {"point": 3, "workload": "b", "config": "new", "n": 2, "status": "pass", "ipc": 2.0,
         "x": 1, "y": 1},
    ]

    @classmethod
    def setUpClass(cls):
        from sweeplib import plot
        cls.plot = plot
        cls.tmp = tempfile.mkdtemp(prefix="lockstep-plot-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def png(self, name):
        p = os.path.join(self.tmp, name)
        with open(p, "rb") as f:
            head = f.read(8)
        self.assertEqual(head, b"\x89PNG\r\n\x1a\n")
        self.assertGreater(os.path.getsize(p), 2000)
        return p

    def test_grouped_normalised(self):
        p = os.path.join(self.tmp, "g.png")
        d = self.plot.grouped_bars(p, self.ROWS, "workload", "config", "ipc", baseline="base",
                                   paper={("a", "new"): 1.4})
        self.assertEqual(d["a"], {"base": 1.0, "new": 1.5})
        self.assertEqual(d["b"], {"base": 1.0, "new": 0.5})
        self.assertAlmostEqual(d["gmean"]["new"], (1.5 * 0.5) ** 0.5)
        self.png("g.png")
        # same data, same bytes (no timestamp in the PNG)
        b1 = read(p, "rb")
        self.plot.grouped_bars(p, self.ROWS, "workload", "config", "ipc", baseline="base",
                               paper={("a", "new"): 1.4})
        self.assertEqual(read(p, "rb"), b1)

    def test_stacked_and_lines(self):
        d = self.plot.stacked_bars(os.path.join(self.tmp, "s.png"), self.ROWS, "point",
                                   ["x", "y"], fraction=True)
        self.assertEqual(d[0], [0.25, 0.75])
        self.png("s.png")
        d = self.plot.lines(os.path.join(self.tmp, "l.png"), self.ROWS, "n", "ipc", "config",
                            paper={("new", 1): 2.5, ("new", 2): 2.2})
        self.assertEqual(d, {"base": [(1, 2.0), (2, 4.0)], "new": [(1, 3.0), (2, 2.0)]})
        self.png("l.png")

    def test_missing_point_is_an_error(self):
        rows = [dict(r) for r in self.ROWS]
        rows[3].update(status="error", ipc=None)
        with self.assertRaises(self.plot.PlotError) as cm:
            self.plot.grouped_bars(os.path.join(self.tmp, "x.png"), rows, "workload",
                                   "config", "ipc", baseline="base")
        self.assertIn("point 3 is error", str(cm.exception))


if __name__ == "__main__":
    if not os.access(LOCKSTEP, os.X_OK):
        sys.exit(f"test_sweep: no simulator at {LOCKSTEP} (make, or set LOCKSTEP)")
    unittest.main(verbosity=1)
