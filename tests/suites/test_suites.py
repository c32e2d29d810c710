#!/usr/bin/env python3
"""make test-suites: the papers'-programs harness (tools/suite.py,
tools/sweeplib/suites.py and programs.py, docs/suites.md) on the mini
suite of our own (tests/suites/mini.toml, sources in tests/suites/mini/).

Descriptor errors name their line; build through the toolkit shim (with
nvcc: the Makefile's rejected -arch replaced, the CUDA 12 compatibility
header, a texture reference reported as not building) or from prebuilt
binaries (tests/suites/mini/bin/, what CI uses: it has no nvcc); run in
both modes with each kind of check; a wrong result, a tampered reference
and an unstable output told apart; the sweep's programs axis. LOCKSTEP
names the simulator.

  test_suites.py --regenerate   rebuild tests/suites/mini/bin/ with nvcc"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from sweeplib import progpage          # noqa: E402
from sweeplib import programs as pg     # noqa: E402
from sweeplib import suites as sl       # noqa: E402

LOCKSTEP = os.path.abspath(os.environ.get("LOCKSTEP", os.path.join(ROOT, "build", "lockstep")))
SUITE = os.path.join(ROOT, "tools", "suite.py")
SWEEP = os.path.join(ROOT, "tools", "sweep.py")
MINI = os.path.join(HERE, "mini.toml")
TREE = os.path.join(HERE, "mini")
PREBUILT = os.path.join(TREE, "bin")
BUILT = ("vecadd", "histo", "wrong")


def tool(script, *args, suites=None):
    """Runs a tool; returns (exit status, stdout, stderr)."""
    env = dict(os.environ, LOCKSTEP=LOCKSTEP)
    if suites:
        env["LOCKSTEP_SUITES"] = suites
    p = subprocess.run([sys.executable, script, *args], capture_output=True, text=True,
                       env=env, cwd=ROOT)
    return p.returncode, p.stdout, p.stderr


class Env:
    """One copy of the mini tree and one suites directory for the tests."""
    tmp = tree = suites = None
    nvcc = pg.find_nvcc()

    @classmethod
    def up(cls):
        if cls.tmp:
            return
        cls.tmp = tempfile.mkdtemp(prefix="lockstep-suites-")
        cls.tree = os.path.join(cls.tmp, "mini")
        shutil.copytree(TREE, cls.tree, ignore=shutil.ignore_patterns("bin"))
        cls.suites = os.path.join(cls.tmp, "suites")
        rc, out, err = tool(SUITE, "--suites", cls.suites, "build", MINI, "--root", cls.tree,
                            "--binaries", PREBUILT)
        assert rc == 1, (rc, out, err)          # oldtex has no prebuilt binary

    @classmethod
    def down(cls):
        if cls.tmp:
            shutil.rmtree(cls.tmp, ignore_errors=True)


def setUpModule():
    Env.up()


def tearDownModule():
    Env.down()


def state():
    with open(os.path.join(Env.suites, "mini", "state.json"), encoding="utf-8") as f:
        return json.load(f)


class Descriptor(unittest.TestCase):
    """A bad descriptor is an error naming its line and key."""

    def err(self, text):
        with self.assertRaises(sl.SuiteError) as cm:
            sl.Suite("d.toml", text)
        return cm.exception

    def test_shipped_descriptors_parse(self):
        for name in sl.names():
            s = sl.load(name)
            self.assertTrue(s.programs, name)
            for p in s.programs.values():
                for t, _ in p.papers:
                    self.assertIn(t, sl.PAPER_TABLES)

    def test_unknown_key_line(self):
        e = self.err('suite = "x"\n\n[programs.a]\ndir = "a"\nbinary = "a"\nbinray = "b"\n'
                     'inputs.default = []\n')
        self.assertEqual(e.line, 6)
        self.assertIn("programs.a.binray", str(e))

    def test_bad_paper_table(self):
        e = self.err('suite = "x"\n[programs.a]\npapers = ["rhu9.9:A"]\ndir = "a"\n'
                     'binary = "a"\ninputs.default = []\n')
        self.assertEqual(e.line, 3)
        self.assertIn("not TABLE:NAME", str(e))

    def test_unknown_placeholder(self):
        e = self.err('suite = "x"\n[programs.a]\ndir = "a"\nbinary = "{bin}/a"\n'
                     'inputs.default = []\n')
        self.assertIn("unknown placeholder {bin}", str(e))

    def test_bad_status_and_scale(self):
        e = self.err('suite = "x"\n[programs.a]\ndir = "a"\nbinary = "a"\nstatus = "ok"\n'
                     'inputs.default = []\n')
        self.assertIn("'ok' is not one of pass", str(e))
        e = self.err('suite = "x"\n[programs.a]\ndir = "a"\nbinary = "a"\n'
                     'scale = { dpe = "huge" }\ninputs.default = []\n')
        self.assertIn("no such input", str(e))

    def test_myocyte_names_every_file_it_reads(self):
        # myocyte's read() leaves a missing file's array uninitialised and
        # goes on: each file must be an input (reported when missing) and
        # the line it prints a failure
        p = sl.load("rodinia").programs["myocyte"]
        for name, inp in p.inputs.items():
            self.assertEqual(sorted(os.path.basename(t) for t in inp.links.values()),
                             ["params.txt", "y.txt"], name)
        self.assertTrue(any(re.search(r, "The file was not opened for reading\n")
                            for r in p.check.reject))

    def test_link_outside_run_dir(self):
        e = self.err('suite = "x"\n[programs.a]\ndir = "a"\nbinary = "a"\n'
                     'inputs.default = { args = [], links = { "../x" = "{data}" } }\n')
        self.assertIn("relative paths inside the run directory", str(e))


class BuildAndRun(unittest.TestCase):
    """The mini suite built (prebuilt binaries, and with nvcc when there is
    one) and run in both modes."""

    def test_prebuilt_state(self):
        st = state()
        for p in BUILT:
            self.assertEqual(st["programs"][p]["build"], "ok", p)
        self.assertEqual(st["programs"]["oldtex"]["build"], "fail")
        self.assertIn("no prebuilt binary", st["programs"]["oldtex"]["msg"])

    def test_build_with_nvcc(self):
        if not Env.nvcc:
            print("test-suites: nvcc not found: the build through the shim is not "
                  "exercised (prebuilt binaries only)", file=sys.stderr)
            return
        sd = os.path.join(Env.tmp, "nvcc-suites")
        rc, out, err = tool(SUITE, "--suites", sd, "build", MINI, "histo", "oldtex",
                            "--root", Env.tree, "--jobs", "2")
        self.assertEqual(rc, 1, out + err)
        self.assertIn("mini/histo: build ok", out)
        self.assertRegex(out, r"mini/oldtex: build fail: .*texture is not a template")
        with open(os.path.join(sd, "mini", "logs", "histo.build.log"), encoding="utf-8") as f:
            log = f.read()
        self.assertIn("-arch=sm_20", log)            # the Makefile's, which the shim drops
        # the shim's nvcc builds what the committed binary is: same statistics
        rc, out, err = tool(SUITE, "--suites", sd, "run", MINI, "histo", "--mode", "timing")
        self.assertEqual(rc, 0, out + err)
        rc2, out2, err2 = tool(SUITE, "--suites", Env.suites, "run", MINI, "histo",
                               "--mode", "timing")
        cyc = [ln.split("(")[1].split(",")[1] for ln in (out.splitlines()[0],
                                                         out2.splitlines()[0])]
        self.assertEqual(cyc[0], cyc[1], "tests/suites/mini/bin/histo is stale: "
                         "tests/suites/test_suites.py --regenerate")

    def test_run_both_modes(self):
        rc, out, err = tool(SUITE, "--suites", Env.suites, "run", MINI)
        self.assertEqual(rc, 1, out + err)            # wrong fails
        self.assertRegex(out, r"mini/vecadd default timing: pass \(.*cycles")
        self.assertRegex(out, r"mini/histo default timing: pass")
        self.assertIn("mini/wrong default functional: fail", out)
        self.assertIn("output lacks 'PASSED'", out)
        runs = state()["runs"]
        self.assertEqual(runs["histo"]["default"]["timing"]["status"], "pass")
        self.assertEqual(runs["histo"]["default"]["timing"]["unstable"], [])
        rc, out, err = tool(SUITE, "--suites", Env.suites, "list", MINI, "--json")
        rows = {r["program"]: r for r in json.loads(out)}
        self.assertEqual((rows["histo"]["build"], rows["histo"]["timing"]), ("ok", "pass"))
        self.assertEqual(rows["wrong"]["functional"], "fail")
        self.assertEqual(rows["oldtex"]["build"], "fail")
        self.assertEqual(rows["gone"]["source"], "recorded")

    def test_tampered_reference_fails(self):
        """The comparison with the functional run can fail: a reference
        whose hist.txt digest is changed makes the timing run a failure."""
        ctx = pg.Ctx(sl.load(MINI), Env.suites)
        prog = ctx.suite.programs["histo"]
        spec = pg.run_spec(ctx, prog, "default")
        refdir = os.path.join(Env.tmp, "refs-tampered")
        sim = pg.sha256_file(LOCKSTEP)
        ref = pg.reference(spec, LOCKSTEP, "builtin", [], refdir, sim)
        self.assertEqual((ref["status"], ref["unstable"]), ("pass", []))
        key = pg.ref_key(spec, "builtin", [], sim)
        ref["digests"]["hist.txt"] = "0" * 64
        pg.write_json(os.path.join(refdir, key + ".json"), ref)
        r = pg.run_checked(spec, LOCKSTEP, "timing", "builtin", [], os.path.join(Env.tmp, "rt"),
                           os.path.join(Env.tmp, "rt.json"), refdir, sim)
        self.assertEqual(r["status"], "fail")
        self.assertIn("hist.txt differs from the functional-mode run's", r["msg"])

    def test_unstable_output_not_compared(self):
        rc, out, err = tool(SUITE, "--suites", Env.suites, "run", MINI, "histo",
                            "--input", "jitter")
        self.assertEqual(rc, 0, out + err)
        self.assertIn("not compared (differ between two functional runs): stdout", out)

    def test_not_built_and_bad_root(self):
        rc, out, err = tool(SUITE, "--suites", Env.suites, "run", MINI, "oldtex",
                            "--mode", "functional")
        self.assertEqual(rc, 1)
        self.assertIn("not built (no prebuilt binary", out)
        rc, out, err = tool(SUITE, "--suites", Env.suites, "build", MINI, "--root", Env.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("not a checkout of Lockstep's mini test suite (no vecadd/vecadd.cu", err)


class SweepAxis(unittest.TestCase):
    """A sweep spec's programs axis: points per program x grid, the wrong
    program a failed point, the unbuilt ones skipped and named."""

    def test_programs_axis(self):
        spec = os.path.join(Env.tmp, "mini-sweep.toml")
        with open(spec, "w", encoding="utf-8") as f:
            f.write('name = "mini-sweep"\nprograms = "suite:mini"\nconfigs = ["gtx480"]\n'
                    'metrics = ["cycles", "ipc", "warp_insts"]\n[grid]\nnum_sms = [2, 4]\n')
        out = os.path.join(Env.tmp, "sw")
        rc, _, err = tool(SWEEP, spec, "--out", out, "--jobs", "2", suites=Env.suites)
        self.assertEqual(rc, 1, err)
        self.assertIn("program mini/oldtex skipped: mini/oldtex: not built", err)
        self.assertIn("program mini/gone skipped: not in a public suite", err)
        self.assertIn("6 points: 4 passed, 2 failed", err)
        with open(os.path.join(out, "results.json"), encoding="utf-8") as f:
            doc = json.load(f)
        rows = {(r["workload"], r["num_sms"]): r for r in doc["rows"]}
        self.assertEqual(rows[("mini/vecadd", 2)]["size"], "small")   # scale for this sweep
        self.assertEqual(rows[("mini/histo", 4)]["status"], "pass")
        self.assertEqual(rows[("mini/wrong", 2)]["status"], "fail")
        self.assertGreater(rows[("mini/histo", 2)]["cycles"], rows[("mini/histo", 4)]["cycles"])
        self.assertIn("mini", doc["suites"])
        self.assertIn("output lacks 'PASSED'", json.dumps(doc["failures"]))
        rc, _, err = tool(SWEEP, spec, "--out", out, "--jobs", "2", suites=Env.suites)
        self.assertIn("6 points, 4 cached, 2 to run", err)        # failures are not cached
        # a page's section: exported statistics (extra fields too), spliced twice
        exp = os.path.join(Env.tmp, "mini-programs.json")
        d = progpage.export(out, exp, ["sm_cycles", "nosuch.field"])
        r = [x for x in d["rows"] if x["workload"] == "mini/histo"][0]
        self.assertGreater(r["sm_cycles"], 0)
        self.assertIsNone(r["nosuch.field"])
        self.assertEqual(r["kind"], "program")
        self.assertEqual(progpage.load(exp)["suites"], d["suites"])
        page = os.path.join(Env.tmp, "page.md")
        with open(page, "w", encoding="utf-8") as f:
            f.write("# page\n\ntext\n")
        for n in (1, 2):
            progpage.splice(page, "mini", [f"section {n}"])
        with open(page, encoding="utf-8") as f:
            text = f.read()
        self.assertEqual(text.count("papers' programs: begin"), 1)
        self.assertIn("section 2", text)
        self.assertNotIn("section 1", text)

    def test_unbuilt_suite_is_a_spec_error(self):
        spec = os.path.join(Env.tmp, "bad.toml")
        with open(spec, "w", encoding="utf-8") as f:
            f.write('name = "bad"\n\nprograms = ["suite:rodinia"]\n')
        rc, _, err = tool(SWEEP, spec, "--out", os.path.join(Env.tmp, "bad"),
                          suites=os.path.join(Env.tmp, "none"))
        self.assertEqual(rc, 2)
        self.assertIn("bad.toml:3: key 'programs': suite 'rodinia' is not built here", err)


def regenerate():
    """Rebuilds tests/suites/mini/bin/ with nvcc through the shim."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = os.path.join(tmp, "mini")
        shutil.copytree(TREE, tree, ignore=shutil.ignore_patterns("bin"))
        rc, out, err = tool(SUITE, "--suites", os.path.join(tmp, "s"), "build", MINI,
                            *BUILT, "--root", tree)
        sys.stdout.write(out + err)
        if rc:
            return rc
        for p in BUILT:
            shutil.copy2(os.path.join(tmp, "s", "mini", "bin", p), os.path.join(PREBUILT, p))
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--regenerate"]:
        sys.exit(regenerate())
    unittest.main(verbosity=1)
