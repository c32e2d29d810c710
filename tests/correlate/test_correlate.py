#!/usr/bin/env python3
"""Tests of tools/correlate.py that need neither GPGPU-Sim nor nvcc
(make test-correlate): the parser of GPGPU-Sim's statistics (cumulative
counters diffed per launch, instruction fetches left out of the L2, DRAM
bytes from column commands), the per-kernel join and its refusals, the
statistics (r, MAE), the CSV round trip, the page, and the GPGPU-Sim
runner on a fake GPGPU-Sim tree whose "program" prints a canned log
(config amendments, a cache hit on the second run, a failed check with
the same work compared, a crash reported)."""
import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import correlate as C  # noqa: E402


def kernel_block(name, cycles, insn, winsts, l1, l1m, l1p, l2, dram):
    """One kernel's statistics as GPGPU-Sim 4.2 prints them (the lines the
    parser reads, cumulative where GPGPU-Sim's are)."""
    hit = dict(l2)
    lines = ["kernel_name = %s " % name, "kernel_launch_uid = 1 ", "kernel_stream_id = 0",
             "gpu_sim_cycle = %d" % cycles, "gpu_sim_insn = %d" % insn,
             "\tL1D_total_cache_accesses = %d" % l1, "\tL1D_total_cache_misses = %d" % l1m,
             "\tL1D_total_cache_pending_hits = %d" % l1p,
             "gpgpu_n_tot_w_icount = %d" % winsts]
    for ch, n in enumerate(dram):
        lines.append("DRAM[%d]: 16 bks, busW=4 BL=8 CL=12, " % ch)
        lines.append("n_cmd=100 n_nop=90 n_act=1 n_pre=0 n_ref_event=0 n_req=%d n_rd=%d "
                     "n_rd_L2_A=0 n_write=%d n_wr_bk=0 bw_util=0.1" % (n[0] + n[1], n[0], n[1]))
    for t, (acc, h) in hit.items():
        lines.append("\tL2_cache_stats_breakdown[%s][HIT] = %d" % (t, h))
        lines.append("\tL2_cache_stats_breakdown[%s][TOTAL_ACCESS] = %d" % (t, acc))
    return "\n".join(lines) + "\n"


LOG = ("GPGPU-Sim PTX: banner\n" +
       kernel_block("_Z3fooPf", 1000, 3200, 100, 50, 10, 5,
                    {"GLOBAL_ACC_R": (40, 30), "INST_ACC_R": (7, 0)}, [(4, 1), (2, 0)]) +
       kernel_block("_Z3fooPf", 2000, 6400, 300, 150, 30, 5,
                    {"GLOBAL_ACC_R": (100, 60), "GLOBAL_ACC_W": (10, 10), "INST_ACC_R": (9, 0)},
                    [(10, 1), (4, 2)]) +
       kernel_block("bar", 500, 320, 340, 160, 35, 6,
                    {"GLOBAL_ACC_R": (104, 62), "GLOBAL_ACC_W": (10, 10), "INST_ACC_R": (9, 0)},
                    [(10, 1), (4, 2)]))


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


class Parse(unittest.TestCase):
    def test_cumulative_counters_are_diffed_per_launch(self):
        L = C.parse_gpgpusim(LOG, 64)
        self.assertEqual([x["kernel"] for x in L], ["_Z3fooPf", "_Z3fooPf", "bar"])
        self.assertEqual([x["cycles"] for x in L], [1000, 2000, 500])         # per launch
        self.assertEqual([x["thread_insts"] for x in L], [3200, 6400, 320])
        self.assertEqual([x["warp_insts"] for x in L], [100, 200, 40])       # diffed
        self.assertEqual([x["l1_acc"] for x in L], [50, 100, 10])
        self.assertEqual([x["l1_miss"] for x in L], [15, 20, 6])             # + pending hits
        # instruction fetches are not L2 data accesses
        self.assertEqual([x["l2_acc"] for x in L], [40, 70, 4])
        self.assertEqual([x["l2_miss"] for x in L], [10, 30, 2])
        self.assertEqual([x["dram_bytes"] for x in L], [7 * 64, 10 * 64, 0])

    def test_no_statistics_no_launches(self):
        self.assertEqual(C.parse_gpgpusim("GPGPU-Sim: *** exit detected ***\n", 64), [])


def launches(spec):
    return [dict({f: 0.0 for f in C.FIELDS}, kernel=k, cycles=c, warp_insts=w) for k, c, w in spec]


class Join(unittest.TestCase):
    prog = C.Program("p", "bin", [], path="/bin/true")

    def test_kernels_summed_in_launch_order(self):
        gs = {"launches": launches([("a", 700, 10), ("b", 70, 5), ("a", 700, 10)]), "clock_mhz": 700.0}
        ls = {"launches": launches([("a", 1400, 10), ("b", 70, 5), ("a", 700, 10)]), "clock_mhz": 700.0}
        rows = C.join("gtx480", self.prog, gs, ls)
        self.assertEqual([r["kernel"] for r in rows], ["a", "b"])
        self.assertEqual(rows[0]["launches"], 2)
        self.assertEqual((rows[0]["gs_us"], rows[0]["ls_us"]), (2.0, 3.0))

    def test_gs_from_reuses_gpgpusim_rows(self):
        """--gs-from: GPGPU-Sim's side from a CSV section, Lockstep's fresh."""
        gs = {"launches": launches([("a", 700, 10), ("b", 70, 5), ("a", 700, 10)]), "clock_mhz": 700.0}
        ls = {"launches": launches([("a", 1400, 10), ("b", 70, 5), ("a", 700, 10)]), "clock_mhz": 700.0}
        old = [dict(r, section="after") for r in C.join("gtx480", self.prog, gs, ls)]
        src = C.CsvGpgpuSim(old, "after", {})
        new_ls = {"launches": launches([("a", 2800, 10), ("b", 140, 5), ("a", 700, 10)]), "clock_mhz": 700.0}
        rows = C.join_rows("gtx480", self.prog, src.run("gtx480", None, self.prog), new_ls)
        self.assertEqual([(r["gs_us"], r["ls_us"]) for r in rows], [(2.0, 5.0), (0.1, 0.2)])
        self.assertEqual(rows[0]["gs_cycles"], old[0]["gs_cycles"])
        with self.assertRaises(RuntimeError):     # other kernels than the section's
            C.join_rows("gtx480", self.prog, src.run("gtx480", None, self.prog),
                        {"launches": launches([("a", 1, 1)]), "clock_mhz": 700.0})
        with self.assertRaises(RuntimeError):     # no rows for that config
            src.run("fx5800", None, self.prog)

    def test_different_launches_refused(self):
        gs = {"launches": launches([("a", 1, 1)]), "clock_mhz": 1.0}
        ls = {"launches": launches([("a", 1, 1), ("a", 1, 1)]), "clock_mhz": 1.0}
        with self.assertRaises(RuntimeError):
            C.join("gtx480", self.prog, gs, ls)

    def test_failed_check_compared_only_with_the_same_work(self):
        gs = {"launches": launches([("a", 10, 1000)]), "clock_mhz": 1.0, "check": "FAIL p"}
        ok = {"launches": launches([("a", 10, 1005)]), "clock_mhz": 1.0}
        self.assertEqual(C.join("gtx480", self.prog, gs, ok)[0]["gs_check"], "fail")
        off = {"launches": launches([("a", 10, 1200)]), "clock_mhz": 1.0}
        with self.assertRaises(RuntimeError):
            C.join("gtx480", self.prog, gs, off)


class Stats(unittest.TestCase):
    def test_pearson_and_mae(self):
        self.assertAlmostEqual(C.pearson([1, 2, 3], [2, 4, 6]), 1.0)
        self.assertAlmostEqual(C.pearson([1, 2, 3], [3, 2, 1]), -1.0)
        rows = [{"program": "p", "gs_us": g, "ls_us": l} for g, l in ((10, 5), (20, 30), (40, 40))]
        s = C.summary(rows)
        self.assertEqual(s["n"], 3)
        self.assertAlmostEqual(s["mae"], 100 * (0.5 + 0.5 + 0.0) / 3)
        self.assertAlmostEqual(s["median"], 1.0)

    def test_short_kernel_names(self):
        self.assertEqual(C.short("_Z8chase_l1PKjjPj"), "chase_l1")
        self.assertEqual(C.short("vecadd"), "vecadd")


class CsvAndPage(unittest.TestCase):
    def test_round_trip_and_page(self):
        gs = {"launches": launches([("_Z3fooPf", 700, 10)]), "clock_mhz": 700.0}
        ls = {"launches": launches([("_Z3fooPf", 350, 10)]), "clock_mhz": 700.0}
        rows = [dict(r, section=s) for s in ("before", "after")
                for r in C.join("gtx480", Join.prog, gs, ls)]
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "c.csv")
            C.save_csv(p, rows)
            back = C.load_csv(p)
        self.assertEqual(len(back), 2)
        self.assertEqual(back[1]["ls_cycles"], 350.0)
        page = C.page(back, {"failures": {"after": {"gtx480": {"q": "GPGPU-Sim: exit status -6"}}}})
        for want in ("## Summary", "## before", "### after: gtx480", "| p | foo | 1 |",
                     "q: GPGPU-Sim: exit status -6", "-gpgpu_scheduler old"):
            self.assertIn(want, page)

    def test_ablation_summary_only(self):
        gs = {"launches": launches([("_Z3fooPf", 700, 10), ("_Z3barPf", 1400, 10)]),
              "clock_mhz": 700.0}
        ls = {"launches": launches([("_Z3fooPf", 350, 10), ("_Z3barPf", 1400, 10)]),
              "clock_mhz": 700.0}
        rows = [dict(r, section=s) for s in ("after", "without-x")
                for r in C.join("gtx480", Join.prog, gs, ls)]
        page = C.page(rows, {"sets": {"without-x": ["pipe_collect=lumped"]}})
        self.assertIn("## Ablation", page)
        self.assertIn("| without-x | `pipe_collect=lumped` | gtx480 |", page)
        self.assertIn("### after: gtx480", page)
        self.assertNotIn("## without-x", page)       # no per-kernel tables


    def test_isolation_against_after(self):
        gs = {"launches": launches([("_Z3fooPf", 700, 10), ("_Z3barPf", 1400, 10)]),
              "clock_mhz": 700.0}
        gs_ideal = {"launches": launches([("_Z3fooPf", 350, 10), ("_Z3barPf", 1400, 10)]),
                    "clock_mhz": 700.0}
        ls = {"launches": launches([("_Z3fooPf", 350, 10), ("_Z3barPf", 1400, 10)]),
              "clock_mhz": 700.0}
        rows = [dict(r, section="after") for r in C.join("gtx480", Join.prog, gs, ls)]
        rows += [dict(r, section="gs-ideal") for r in C.join("gtx480", Join.prog, gs_ideal, ls)]
        page = C.page(rows, {"gs_sets": {"gs-ideal": ["-gpgpu_perfect_inst_const_cache 1"]},
                             "sets": {"gs-ideal": ["icache_size=0"]}})
        self.assertIn("## GPGPU-Sim isolations", page)
        self.assertIn("| gs-ideal | `-gpgpu_perfect_inst_const_cache 1` | `icache_size=0` | gtx480 | 2 |",
                      page)
        self.assertIn("0.0 % | 1.000, 25.0 % | foo 0.50 -> 1.00", page)
        self.assertNotIn("## gs-ideal", page)        # no per-kernel tables

    def test_target_names_causes_from_figures(self):
        """A kernel off by more than 20 % is named by the first cause section
        in which it agrees, else by its L2 miss rates, else not traced."""
        gs = {"launches": launches([("_Z3fooPf", 700, 10), ("_Z3barPf", 1400, 10),
                                    ("_Z3bazPf", 700, 10)]), "clock_mhz": 700.0}
        ls = {"launches": launches([("_Z3fooPf", 350, 10), ("_Z3barPf", 1400, 10),
                                    ("_Z3bazPf", 350, 10)]), "clock_mhz": 700.0}
        ls_perfect = {"launches": launches([("_Z3fooPf", 700, 10), ("_Z3barPf", 1400, 10),
                                            ("_Z3bazPf", 350, 10)]), "clock_mhz": 700.0}
        rows = [dict(r, section="after") for r in C.join("gtx480", Join.prog, gs, ls)]
        rows += [dict(r, section="gs-perfect-icache")
                 for r in C.join("gtx480", Join.prog, gs, ls_perfect)]
        page = C.page(rows, {})
        self.assertIn("## Target", page)
        self.assertIn("**gtx480**: r 1.000, MAE 33.3 % over 3 kernels: MAE target not met; "
                      "2 kernels off by more than 20 %, 1 of them with a named cause, "
                      "0 with a partial one.", page)
        self.assertIn("| p | foo | 0.50 | instruction and constant fetch: with both simulators' "
                      "instruction caches perfect (and GPGPU-Sim's constant cache) the ratio is 1.00", page)
        self.assertIn("| p | baz | 0.50 | not traced (with both instruction caches perfect: 0.50) |", page)
        self.assertNotIn("| p | bar | 1.00 |", page)     # within 20 %: not listed
        # the L2 rule: GPGPU-Sim misses every one of 2,000 accesses, Lockstep none
        for r in rows:
            if r["kernel"] == "_Z3bazPf":
                r["gs_l2_acc"] = r["ls_l2_acc"] = r["gs_l2_miss"] = 2000.0
                r["ls_l2_miss"] = 0.0
        self.assertIn("| p | baz | 0.50 | L2 misses: 1.00 of its L2 accesses there, 0.00 here",
                      C.page(rows, {}))

    def test_partial_and_weak_causes(self):
        """A section that brings a kernel within 20 % but closes less than half
        its gap names nothing; one that closes 40-50 % is a partial cause."""
        gs = {"launches": launches([("_Z3fooPf", 1000, 10), ("_Z3bazPf", 1000, 10)]),
              "clock_mhz": 700.0}
        ls = {"launches": launches([("_Z3fooPf", 790, 10), ("_Z3bazPf", 500, 10)]),
              "clock_mhz": 700.0}
        ls_iso = {"launches": launches([("_Z3fooPf", 800, 10), ("_Z3bazPf", 720, 10)]),
                  "clock_mhz": 700.0}
        rows = [dict(r, section="after") for r in C.join("gtx480", Join.prog, gs, ls)]
        rows += [dict(r, section="gs-perfect-icache") for r in C.join("gtx480", Join.prog, gs, ls_iso)]
        page = C.page(rows, {})
        self.assertIn("| p | foo | 0.79 | not traced (with both instruction caches perfect: 0.80) |", page)
        self.assertIn("| p | baz | 0.50 | in part (44 % of the gap) instruction and constant fetch", page)
        self.assertIn("0 of them with a named cause, 1 with a partial one.", page)

    def test_failed_run_keeps_gs_from_rows(self):
        fails = {"fx5800": {"b": "nvcc failed"}}
        self.assertEqual(C.replaced(["fx5800"], ["a", "b"], fails, None),
                         {("fx5800", "a"), ("fx5800", "b")})
        self.assertEqual(C.replaced(["fx5800"], ["a", "b"], fails, "after"), {("fx5800", "a")})

    def test_refresh_reruns_every_section_but_before(self):
        """--refresh: one Lockstep run per section (after first), each with
        its recorded overrides, configs and programs, GPGPU-Sim's side from
        the section itself; before is kept."""
        gs = {"launches": launches([("k", 700, 10)]), "clock_mhz": 700.0}
        ls = {"launches": launches([("k", 350, 10)]), "clock_mhz": 700.0}
        q = C.Program("q", "bin", [], path="/bin/true")
        rows = [dict(r, section=s) for s in ("before", "without-x", "after")
                for r in C.join("gtx480", Join.prog, gs, ls)]
        rows += [dict(r, section=s) for s in ("gs-y", "after") for r in C.join("fx5800", q, gs, ls)]
        calls = []
        real = C.subprocess.run
        with tempfile.TemporaryDirectory() as d:
            csvf = os.path.join(d, "c.csv")
            C.save_csv(csvf, rows)
            write(os.path.join(d, "c.meta.json"),
                  json.dumps({"sets": {"without-x": ["pipe_collect=lumped"], "gs-y": ["a=1", "b=2"]}}))
            try:
                C.subprocess.run = lambda argv, **kw: calls.append(argv) or \
                    subprocess.CompletedProcess(argv, 0)
                self.assertEqual(C.main(["--refresh", "--csv", csvf, "--page",
                                         os.path.join(d, "c.md"), "--lockstep", "/bin/true"]), 0)
            finally:
                C.subprocess.run = real
        secs = [(c[c.index("--section") + 1], c[c.index("--configs") + 1]) for c in calls]
        self.assertEqual(secs, [("after", "fx5800"), ("after", "gtx480"), ("gs-y", "fx5800"),
                                ("without-x", "gtx480")])        # a config's own programs
        after5, after, gsy, wx = calls
        self.assertEqual((after5[-1], after[-1]), ("q", "p"))
        self.assertEqual(after[after.index("--gs-from") + 1], "after")
        self.assertNotIn("--set", after)
        self.assertEqual(gsy[gsy.index("--configs") + 1], "fx5800")
        self.assertEqual([gsy[i + 1] for i, x in enumerate(gsy) if x == "--set"], ["a=1", "b=2"])
        self.assertEqual(gsy[-1], "q")
        self.assertEqual(wx[wx.index("--set") + 1], "pipe_collect=lumped")
        self.assertEqual(wx[-1], "p")


FAKE_PROG = """#!/bin/sh
# a stand-in for a CUDA program under GPGPU-Sim: prints a canned log
test -f gpgpusim.config || { echo "no config"; exit 3; }
grep -q -- "-power_simulation_enabled 0" gpgpusim.config || { echo "not amended"; exit 4; }
grep -q "^# dropped by tools/correlate.py: -gpuwattch_xml_file" gpgpusim.config || exit 5
echo run >> "$COUNT"
cat "$LOGFILE"
exit $STATUS
"""


class Runner(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.TemporaryDirectory()
        d = self.d.name
        lib = os.path.join(d, "gs", "lib", "gcc", "cuda", "release")
        os.makedirs(lib)
        write(os.path.join(lib, "libcudart.so"), "fake")
        cfg = os.path.join(d, "gs", "configs", "tested-cfgs", "SM2_GTX480")
        os.makedirs(cfg)
        write(os.path.join(cfg, "gpgpusim.config"), 
            "-gpgpu_clock_domains 700.0:700.0:700.0:924.0\n-gpgpu_dram_burst_length 8\n"
            "-gpgpu_dram_buswidth 4\n-gpgpu_n_mem_per_ctrlr 2\n-gpuwattch_xml_file x.xml\n")
        write(os.path.join(cfg, "config_fermi_islip.icnt"), "flit_size = 40;\n")
        os.makedirs(os.path.join(d, "cuda", "bin"))
        cu = os.path.join(d, "cuda", "bin", "cuobjdump")
        write(cu, "#!/bin/sh\n")
        os.chmod(cu, 0o755)
        self.prog = os.path.join(d, "prog")
        write(self.prog, FAKE_PROG)
        os.chmod(self.prog, os.stat(self.prog).st_mode | stat.S_IEXEC)
        self.log = os.path.join(d, "log.txt")
        self.count = os.path.join(d, "count")
        os.environ.update({"LOGFILE": self.log, "COUNT": self.count, "STATUS": "0"})
        self.gs = C.GpgpuSim(os.path.join(d, "gs"), os.path.join(d, "cuda"), os.path.join(d, "work"), 60)
        self.files = self.gs.config_files("gtx480", {})

    def tearDown(self):
        self.d.cleanup()

    def runs(self):
        return len(C.read(self.count).split()) if os.path.exists(self.count) else 0

    def program(self):
        p = C.Program("prog", "bin", ["x"], path=self.prog)
        p.bin = self.prog
        return p

    def test_amended_config_parsed_and_cached(self):
        write(self.log, LOG)
        r = self.gs.run("gtx480", self.files, self.program())
        self.assertEqual(r["clock_mhz"], 700.0)
        self.assertEqual(len(r["launches"]), 3)
        self.assertEqual(r["launches"][0]["dram_bytes"], 7 * 64)   # 8 x 4 x 2 byte bursts
        self.assertEqual(self.runs(), 1)
        self.assertEqual(self.gs.run("gtx480", self.files, self.program()), json.loads(json.dumps(r)))
        self.assertEqual(self.runs(), 1)                              # the cache answered
        other = self.gs.config_files("gtx480", {}, ["-gpgpu_l1_latency 1"])
        self.gs.run("gtx480", other, self.program())
        self.assertEqual(self.runs(), 2)                              # another config: a run

    def test_failed_check_kept_crash_reported(self):
        write(self.log, LOG + "FAIL prog: out[0] = 1, want 2\n")
        os.environ["STATUS"] = "1"
        r = self.gs.run("gtx480", self.files, self.program())
        self.assertIn("FAIL prog", r["check"])
        write(self.log, "GPGPU-Sim PTX: something\nprog: gpu-cache.cc:1: Assertion `0' failed.\n")
        os.environ["STATUS"] = "134"
        with self.assertRaises(RuntimeError) as e:
            self.gs.run("gtx480", self.gs.config_files("gtx480", {}, ["-x 1"]), self.program())
        self.assertIn("Assertion", str(e.exception))
        # the message reaches the committed page: the log relative to --work
        self.assertIn("(--work/gpgpusim/gtx480/prog/gpgpusim.log)", str(e.exception))
        self.assertNotIn(self.d.name, str(e.exception))

    def test_page_only_runs_nothing(self):
        d = self.d.name
        csvf, pagef = os.path.join(d, "c.csv"), os.path.join(d, "c.md")
        with self.assertRaises(SystemExit):
            C.main(["--page-only", "--csv", csvf, "--page", pagef])   # no CSV yet
        self.assertFalse(os.path.exists(pagef))
        write(os.path.join(d, "c.meta.json"),
              json.dumps({"failures": {"after": {"gtx480": {"q": "GPGPU-Sim: exit status -6"}}}}))
        gs = {"launches": launches([("k", 700, 10)]), "clock_mhz": 700.0}
        ls = {"launches": launches([("k", 350, 10)]), "clock_mhz": 700.0}
        C.save_csv(csvf, [dict(r, section="after") for r in C.join("gtx480", Join.prog, gs, ls)])
        self.assertEqual(C.main(["--page-only", "--csv", csvf, "--page", pagef]), 0)
        text = C.read(pagef)
        self.assertIn("### after: gtx480", text)
        self.assertIn("| p | k | 1 |", text)
        self.assertIn("q: GPGPU-Sim: exit status -6", text)
        self.assertEqual(self.runs(), 0)                              # nothing ran


if __name__ == "__main__":
    unittest.main(verbosity=1)
