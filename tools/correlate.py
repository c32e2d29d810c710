#!/usr/bin/env python3
"""Correlate Lockstep's timing model with GPGPU-Sim on the same binaries.

    tools/correlate.py --gpgpusim DIR [--cuda DIR] [--section before|after]
                       [--configs gtx480,fx5800] [--jobs N] [PROGRAM ...]

Every PROGRAM is an nvcc-built CUDA program run unchanged by both
simulators: a workload name (workloads/NAME built as a CUDA program, as
`make test-cuda` builds it, run with the input size of PROGRAM_SIZES), a
microbenchmark name (tools/ubench/NAME.cu), or a path to any binary
(`"./prog arg1 arg2"`: the program's arguments after it). Without PROGRAM
the default set (DEFAULT_PROGRAMS) runs. A program must exit with status 0
under both simulators (it checks its own results).

GPGPU-Sim (a build of accel-sim/gpgpu-sim_distribution: DIR/lib/*/libcudart.so)
runs each binary with a copy of its config (DIR/configs/tested-cfgs/SM2_GTX480
for gtx480; QuadroFX5800 for fx5800, taken from DIR's git history where the
tree no longer ships it) amended by GS_OVERRIDES, each line with its reason;
GPGPU-Sim calls `cuobjdump` from --cuda DIR/bin (CUDA 13 ships none: point
--cuda at a tree holding a stand-in). Lockstep runs the same binary with
`lockstep exec --config NAME` (plus --set KEY=VALUE overrides).

Per kernel (launches of one kernel in one program summed), both sides'
cycles (each at its own core clock), instructions, IPC, L1D and L2 miss
rates, DRAM bytes and simulated time go side by side into a CSV
(--csv, default docs/results/correlation.csv) under the section named by
--section; the page (--page, default docs/results/correlation.md) is then
regenerated from every section in the CSV, with the Pearson correlation
coefficient r and the mean absolute relative error (MAE) of simulated time
per config and section. GPGPU-Sim's results are cached in --work (keyed by
binary, arguments, config text and GPGPU-Sim library), so an "after" run
re-runs only Lockstep; `--gs-from SECTION` takes GPGPU-Sim's per-kernel
figures from that CSV section instead of running it (the same binaries
and GPGPU-Sim configs: an empty cache need not cost GPGPU-Sim's hour when
only Lockstep changed). `--no-page` prints the table without writing files;
`--page-only` rewrites the page from the CSV and its .meta.json, running
nothing (--gpgpusim is then not needed). A failed run's message names its
log relative to --work.
"""
import argparse
import concurrent.futures as cf
import csv
import glob
import hashlib
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ---- what runs ----

# Input size (wl_host.c's first argument). GPGPU-Sim simulates 100-200x
# slower than Lockstep: at the "small" input (10-220 K warp instructions a
# program) a GPGPU-Sim run takes about a minute on a busy two-core machine,
# at "default" (0.2-3.8 M) ten times that. A PROGRAM argument "NAME SIZE"
# picks another size.
WL_SIZE = "small"
UBENCH = ["ub_lat", "ub_alu", "ub_bw", "ub_misc", "ub_fetch"]


def workload_names():
    d = os.path.join(ROOT, "workloads")
    return sorted(n for n in os.listdir(d)
                  if os.path.isfile(os.path.join(d, n, n + ".cu")) and
                  os.path.isfile(os.path.join(d, n, n + ".c")))


def default_programs():
    return UBENCH + workload_names()


# ---- the two configs ----

# Lockstep config name -> GPGPU-Sim config directory (relative to the
# GPGPU-Sim tree, or a path in its git history) and the override lines
# appended to its gpgpusim.config, each with the reason it is there.
GS_CONFIGS = {
    "gtx480": {
        "dir": "configs/tested-cfgs/SM2_GTX480",
        "history": None,
        "drop": ["-gpuwattch_xml_file"],
        "overrides": [
            ("-power_simulation_enabled 0",
             "no power model (4.2's AccelWattch also rejects the GPUWattch "
             "option -gpuwattch_xml_file, which is dropped)"),
            ("-gpgpu_perf_sim_memcpy 0",
             "copies do not fill the L2: Lockstep's copies take no simulated "
             "time and leave the L2 as it was (a runtime difference, not one "
             "of the timing models compared)"),
            ("-gpgpu_scheduler old",
             "oldest warp first, as the dissertation's Tables 3.1 and 5.3 "
             "(the shipped config says gto)"),
            ("-ptx_opcode_latency_int 4,13,4,5,145,13",
             "4.x runs shfl on the SP pipeline, whose depth is the f32 MAX "
             "latency (13): the shipped SHFL latency 32 overruns it and "
             "crashes (Fermi has no shfl)"),
        ],
    },
    "fx5800": {
        "dir": "configs/deprecated-cfgs/QuadroFX5800",
        "history": "configs/deprecated-cfgs/QuadroFX5800",
        "drop": [],
        "overrides": [
            ("-gpgpu_cache:dl1 N:64:64:8,L:L:m:N:L,A:32:8,8",
             "Table 4.1: 32 KB/8-way/64 B L1 (the shipped GT200 config has "
             "no L1D); MSHRs and queues as the 3.x configs' L1s"),
            ("-gpgpu_cache:dl2 N:32:64:64,L:B:m:N:L,A:16:4,4",
             "Table 4.1: 1024 KB/64-way/64 B L2 over the 8 partitions, "
             "MSHRs as the shipped L2; write-back without write-allocate (a "
             "store miss goes to DRAM, no fetch): Table 4.1 names no "
             "policy, the shipped fetch-on-write belonged to a texture-only "
             "L2 that never saw a store, and 4.x allows SM2_GTX480's lazy "
             "fetch on read only in a sectored cache of 128 B lines"),
            ("-gpgpu_cache:dl2_texture_only 0", "Table 4.1: the L2 caches every access"),
            ("-gpgpu_shmem_size 32768", "Table 4.1: 32 KB shared memory"),
            ("-gpgpu_scheduler lrr",
             "round robin, GPGPU-Sim's nearest to Table 4.1's two-level "
             "round robin (its two_level_active is a different policy)"),
            ("-power_simulation_enabled 0", "no power model"),
            ("-gpgpu_perf_sim_memcpy 0", "as for gtx480"),
            ("-gpgpu_flush_l1_cache 1",
             "the L1 is invalidated at each kernel's end, as Lockstep's (and "
             "SM2_GTX480's): it is not coherent (the GT200 config has no L1D "
             "to flush)"),
            ("-gpgpu_pipeline_widths 1,0,0,1,1,1,0,0,1,1,1",
             "4.x format (DP and INT stages added, none used): the 3.x widths"),
            ("-gpgpu_num_dp_units 0", "as the 3.x config: f64 runs on the SFU"),
            ("-gpgpu_cache:il1 N:16:64:4,L:R:f:N:L,A:2:32,4",
             "4.x cache-string format; 64 B lines (same 4 KB) because 4.x "
             "rejects a fill larger than the 64 B L2 line"),
            ("-gpgpu_tex_cache:l1 N:16:64:5,L:R:m:N:L,F:128:4,128:2",
             "the same for the texture cache"),
            ("-gpgpu_const_cache:l1 N:64:64:2,L:R:f:N:L,A:2:32,4",
             "4.x cache-string format"),
            ("-ptx_opcode_latency_int 1,1,19,25,145,25",
             "4.x adds SHFL to the integer lists; as for gtx480 its latency "
             "may not exceed the SP pipeline's depth (25, below)"),
            ("-ptx_opcode_initiation_int 1,1,4,4,32,4", "4.x's default SHFL interval"),
            ("-gpgpu_coalesce_arch 40",
             "32-byte coalescing segments: 4.x's GT200 rules (arch 13) make "
             "128-byte requests, which it cannot put in a 64-byte L1 line "
             "(gpu-cache.cc:1980, `data_cache::access`: 29 of the 52 programs "
             "stop there; the isolation gs-arch13 runs the others); GT200 "
             "coalesces a half-warp into 32, 64 or 128 bytes, as Lockstep's "
             "fx5800 does (coalesce = cc13)"),
            ("-ptx_opcode_latency_fp 1,25,1,1,30",
             "4.x sizes the SP pipeline by the f32 MAX latency and runs "
             "integer ops there: MAX must cover the integer MAD's 25"),
        ],
    },
}
# gtx480-gscalar (the G-Scalar paper's Table 1 machine, GPGPU-Sim 3.2.2's
# GTX480) is compared with the same SM2_GTX480 run as gtx480 ("same_as":
# one GPGPU-Sim run and cache entry serve both).
GS_CONFIGS["gtx480-gscalar"] = dict(GS_CONFIGS["gtx480"], same_as="gtx480")


# ---- small helpers ----

def die(msg):
    sys.exit("correlate: " + msg)


def note(msg):
    print("correlate: " + msg, file=sys.stderr, flush=True)


def sha256_file(path, h=None):
    h = h or hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h


def read(path, **kw):
    with open(path, **kw) as f:
        return f.read()


def newer(out, inputs):
    """True when out is missing or older than one of inputs."""
    if not os.path.exists(out):
        return True
    t = os.path.getmtime(out)
    return any(os.path.getmtime(i) > t for i in inputs)


# ---- building the programs ----

class Program:
    def __init__(self, name, kind, args, path=None, size=""):
        self.name, self.kind, self.args, self.path, self.size = name, kind, args, path, size
        self.bin = None
        self.err = None


def nvcc_flags():
    return ["-cudart", "shared", "-gencode", "arch=compute_75,code=compute_75"]


def build_workload(p, nvcc, bdir):
    w = os.path.join(ROOT, "workloads", p.name)
    cu, c, ptx = (os.path.join(w, p.name + e) for e in (".cu", ".c", ".ptx"))
    host = os.path.join(ROOT, "tests", "cuda", "wl_host.c")
    common = os.path.join(ROOT, "workloads", "wl_common.c")
    table = os.path.join(bdir, p.name + ".table.cu")
    if newer(table, [ptx]):
        # the kernels' host stubs and the __constant__ shadows by name, as
        # tests/cuda/run.sh lists them for wl_host.c
        ents, consts = [], []
        for line in read(ptx).splitlines():
            m = re.match(r"^\.visible \.entry ([A-Za-z_0-9]*)\(", line)
            if m:
                ents.append(m.group(1))
            m = re.match(r"^\.const .* ([A-Za-z_][A-Za-z_0-9]*)\[", line)
            if m:
                consts.append(m.group(1))
        with open(table, "w") as f:
            f.write('#include "workloads/%s/%s.cu"\n' % (p.name, p.name))
            f.write("struct wl_entity { const char *name; const void *host; };\n")
            f.write('extern "C" const struct wl_entity wl_entities[] = {\n')
            for e in ents:
                f.write('  { "%s", (const void *)%s },\n' % (e, e))
            for e in consts:
                f.write('  { "%s", (const void *)&%s },\n' % (e, e))
            f.write("  { 0, 0 } };\n")
    # wl_common.c's wl_has_xlarge reads wl_xlarge_names[]: the drivers
    # that call wl_pick_xl, listed by tools/gen-registry.sh
    xl = os.path.join(bdir, "wl_xlarge.c")
    drivers = sorted(glob.glob(os.path.join(ROOT, "workloads", "*", "*.c")))
    if newer(xl, drivers):
        subprocess.run(["bash", os.path.join(ROOT, "tools", "gen-registry.sh"),
                        "--xlarge-only", xl] + drivers, check=True)
    out = os.path.join(bdir, p.name)
    deps = [table, cu, c, host, common, xl, os.path.join(ROOT, "workloads", "wl_common.h"),
            os.path.join(ROOT, "workloads", "workload.h"), os.path.join(ROOT, "include", "lockstep.h")]
    cmd = [nvcc] + nvcc_flags() + ["-O3", "-I" + ROOT, "-I" + os.path.join(ROOT, "include"),
                                   "-DWL_DEF=wl_def_" + p.name.replace("-", "_"),
                                   table, host, c, common, xl, "-o", out]
    return out, deps, cmd


def build_ubench(p, nvcc, bdir):
    src = os.path.join(ROOT, "tools", "ubench", p.name + ".cu")
    out = os.path.join(bdir, p.name)
    return out, [src], [nvcc] + nvcc_flags() + ["-O2", src, "-o", out]


def build_all(progs, nvcc, work, jobs):
    bdir = os.path.join(work, "bin")
    os.makedirs(bdir, exist_ok=True)
    todo = []
    for p in progs:
        if p.kind == "bin":
            p.bin = p.path
            continue
        out, deps, cmd = (build_workload if p.kind == "wl" else build_ubench)(p, nvcc, bdir)
        p.bin = out
        if newer(out, deps):
            todo.append((p, cmd))

    def one(item):
        p, cmd = item
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            p.err = "nvcc failed: " + (r.stderr or r.stdout).strip()[-400:]
    if todo:
        note("building %d programs with nvcc" % len(todo))
        with cf.ThreadPoolExecutor(jobs) as ex:
            list(ex.map(one, todo))


# ---- GPGPU-Sim ----

class GpgpuSim:
    def __init__(self, root, cuda, work, timeout):
        self.root = os.path.abspath(root)
        libs = []
        for dp, _, fs in os.walk(os.path.join(self.root, "lib")):
            if "libcudart.so" in fs:
                libs.append(dp)
        if not libs:
            die("%s has no lib/.../libcudart.so: build GPGPU-Sim first (source "
                "setup_environment; make)" % self.root)
        self.libdir = sorted(libs)[-1]
        self.cuda = os.path.abspath(cuda)
        if not os.access(os.path.join(self.cuda, "bin", "cuobjdump"), os.X_OK):
            die("%s/bin/cuobjdump is missing: GPGPU-Sim extracts each program's PTX "
                "with it (CUDA 13 ships none; give --cuda a CUDA tree with a "
                "stand-in that implements -lptx and -xptx)" % self.cuda)
        self.work = work
        self.timeout = timeout
        self.libhash = sha256_file(os.path.join(self.libdir, "libcudart.so")).hexdigest()[:16]
        self.version = "?"
        vf = os.path.join(self.root, "version")
        if os.path.exists(vf):
            m = re.search(r"Version ([0-9.]+)", read(vf))
            self.version = m.group(1) if m else "?"
        try:
            self.commit = subprocess.run(["git", "-C", self.root, "rev-parse", "--short=8", "HEAD"],
                                         capture_output=True, text=True).stdout.strip() or "?"
        except OSError:
            self.commit = "?"

    def config_files(self, name, extra_dirs, gs_set=(), gs_icnt=()):
        """{file name: text} of the config, overrides (then gs_set) appended;
        gs_icnt ("key=value") replaces the interconnect file's "key = ...;"."""
        spec = GS_CONFIGS[name]
        d = extra_dirs.get(name) or os.path.join(self.root, spec["dir"])
        files = {}
        if os.path.isdir(d):
            for f in sorted(os.listdir(d)):
                if f == "gpgpusim.config" or f.endswith(".icnt"):
                    files[f] = read(os.path.join(d, f))
        elif spec["history"]:
            files = self.from_history(spec["history"])
        if "gpgpusim.config" not in files:
            die("no GPGPU-Sim config for %s: %s is missing (give --gpgpusim-config "
                "%s=DIR)" % (name, d, name))
        lines = []
        for line in files["gpgpusim.config"].splitlines():
            if any(line.strip().startswith(k) for k in spec["drop"]):
                line = "# dropped by tools/correlate.py: " + line
            lines.append(line)
        lines.append("")
        lines.append("# ---- appended by tools/correlate.py ----")
        for opt, why in spec["overrides"]:
            lines.append("# " + why)
            lines.append(opt)
        if gs_set:
            lines.append("# --gs-set")
            lines.extend(gs_set)
        for kv in gs_icnt:
            key, _, val = kv.partition("=")
            key, val = key.strip(), val.strip()
            icnt = [f for f in files if f.endswith(".icnt")]
            pat = re.compile(r"^%s\s*=.*$" % re.escape(key), flags=re.M)
            if not key or not val or not icnt or not pat.search(files[icnt[0]]):
                die("--gs-icnt %s: no line \"%s = ...;\" in %s's interconnect file" % (kv, key, name))
            files[icnt[0]] = pat.sub("%s = %s;" % (key, val), files[icnt[0]])
        files["gpgpusim.config"] = "\n".join(lines) + "\n"
        return files

    def from_history(self, path):
        """The files of a config directory the tree no longer ships, from the
        newest commit of the git history that has it."""
        g = ["git", "-C", self.root]
        r = subprocess.run(g + ["log", "--all", "--format=%H", "--", path + "/gpgpusim.config"],
                           capture_output=True, text=True)
        for commit in r.stdout.split():
            ls = subprocess.run(g + ["ls-tree", "--name-only", commit, path + "/"],
                                capture_output=True, text=True)
            names = [os.path.basename(n) for n in ls.stdout.split()]
            if "gpgpusim.config" not in names:
                continue
            files = {}
            for n in names:
                if n == "gpgpusim.config" or n.endswith(".icnt"):
                    files[n] = subprocess.run(g + ["show", "%s:%s/%s" % (commit, path, n)],
                                              capture_output=True, text=True).stdout
            return files
        return {}

    def run(self, cfg_name, files, prog):
        """Runs prog; returns its per-launch records (or raises RuntimeError)."""
        h = hashlib.sha256()
        sha256_file(prog.bin, h)
        h.update(json.dumps([prog.args, sorted(files.items()), self.libhash]).encode())
        key = h.hexdigest()[:24]
        cache = os.path.join(self.work, "cache", "gpgpusim-%s-%s-%s.json" % (cfg_name, prog.name, key))
        if os.path.exists(cache):
            return json.loads(read(cache))
        rd = os.path.join(self.work, "gpgpusim", cfg_name, prog.name)
        shutil.rmtree(rd, ignore_errors=True)
        os.makedirs(rd)
        for f, text in files.items():
            with open(os.path.join(rd, f), "w") as fh:
                fh.write(text)
        env = dict(os.environ)
        env.update({
            "LD_LIBRARY_PATH": self.libdir, "CUDA_INSTALL_PATH": self.cuda,
            "PTXAS_CUDA_INSTALL_PATH": self.cuda, "PTX_SIM_USE_PTX_FILE": "1.ptx",
            "PTX_SIM_KERNELFILE": "_1.ptx", "CUOBJDUMP_SIM_FILE": "jj",
        })
        env.pop("LD_PRELOAD", None)
        log = os.path.join(rd, "gpgpusim.log")
        shown = os.path.relpath(log, self.work)  # messages reach the committed page
        t0 = time.time()
        with open(log, "w") as out:
            try:
                r = subprocess.run([os.path.abspath(prog.bin)] + prog.args, cwd=rd, env=env,
                                   stdout=out, stderr=subprocess.STDOUT, timeout=self.timeout)
                rc = r.returncode
            except subprocess.TimeoutExpired:
                raise RuntimeError("GPGPU-Sim ran past --timeout %d s (--work/%s)" % (self.timeout, shown))
        wall = time.time() - t0
        text = read(log, errors="replace")
        # a program that ran to its end but whose own check failed (its exit
        # status 1 and a FAIL line: GPGPU-Sim's arithmetic, e.g. an unfused
        # fma) still has every launch's statistics; join() decides
        check = [l for l in text.splitlines() if l.startswith("FAIL ")]
        if rc != 0 and not (rc == 1 and check):
            tail = [l for l in text.splitlines() if l.strip() and not l.startswith("-")][-3:]
            raise RuntimeError("GPGPU-Sim: exit status %d (--work/%s): %s" % (rc, shown, " | ".join(tail)))
        atom = self.atom_bytes(files["gpgpusim.config"])
        launches = parse_gpgpusim(text, atom)
        if not launches:
            raise RuntimeError("GPGPU-Sim printed no kernel statistics (--work/%s)" % shown)
        res = {"launches": launches, "wall_s": wall, "clock_mhz": self.core_clock(files["gpgpusim.config"]),
               "check": check[0][:200] if rc else ""}
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        with open(cache, "w") as f:
            json.dump(res, f)
        return res

    @staticmethod
    def option(cfg, name):
        val = None
        for line in cfg.splitlines():
            parts = line.split("#")[0].split()
            if len(parts) >= 2 and parts[0] == name:
                val = parts[1]
        return val

    def core_clock(self, cfg):
        return float(self.option(cfg, "-gpgpu_clock_domains").split(":")[0])

    def atom_bytes(self, cfg):
        """DRAM bytes per column command: burst length x bus width x chips
        per controller (GPGPU-Sim's dram_atom_size)."""
        bl = int(self.option(cfg, "-gpgpu_dram_burst_length") or 4)
        bw = int(self.option(cfg, "-gpgpu_dram_buswidth") or 4)
        nc = int(self.option(cfg, "-gpgpu_n_mem_per_ctrlr") or 1)
        return bl * bw * nc


DATA_TYPES = ("GLOBAL_ACC_R", "LOCAL_ACC_R", "CONST_ACC_R", "TEXTURE_ACC_R",
              "GLOBAL_ACC_W", "LOCAL_ACC_W")


def parse_gpgpusim(text, atom):
    """Per-launch statistics from GPGPU-Sim's stdout. Its memory counters
    are cumulative since the start: each launch gets the difference from
    the previous print."""
    blocks = re.split(r"^kernel_name = ", text, flags=re.M)[1:]
    out, prev = [], None
    for b in blocks:
        kname = b.split(None, 1)[0]

        def num(pat, default=0):
            m = re.search(pat, b, flags=re.M)
            return float(m.group(1)) if m else default
        cur = {
            "l1_acc": num(r"^\s*L1D_total_cache_accesses = (\d+)"),
            "l1_miss": num(r"^\s*L1D_total_cache_misses = (\d+)") +
            num(r"^\s*L1D_total_cache_pending_hits = (\d+)"),
            "l2_acc": 0.0, "l2_hit": 0.0,
            "winsts": num(r"^gpgpu_n_tot_w_icount = (\d+)"),
            "dram_cmds": 0.0,
        }
        for t in DATA_TYPES:
            cur["l2_acc"] += num(r"L2_cache_stats_breakdown\[%s\]\[TOTAL_ACCESS\] = (\d+)" % t)
            cur["l2_hit"] += num(r"L2_cache_stats_breakdown\[%s\]\[HIT\] = (\d+)" % t)
        for m in re.finditer(r"n_rd=(\d+) n_rd_L2_A=(\d+) n_write=(\d+) n_wr_bk=(\d+)", b):
            cur["dram_cmds"] += sum(float(x) for x in m.groups())
        d = {k: cur[k] - (prev[k] if prev else 0.0) for k in cur}
        prev = cur
        out.append({
            "kernel": kname,
            "cycles": num(r"^gpu_sim_cycle = (\d+)"),
            "thread_insts": num(r"^gpu_sim_insn = (\d+)"),
            "warp_insts": d["winsts"],
            "l1_acc": d["l1_acc"], "l1_miss": d["l1_miss"],
            "l2_acc": d["l2_acc"], "l2_miss": d["l2_acc"] - d["l2_hit"],
            "dram_bytes": d["dram_cmds"] * atom,
        })
    return out


# ---- Lockstep ----

def run_lockstep(cli, cfg_name, sets, prog, work, section):
    rd = os.path.join(work, "lockstep", section, cfg_name)
    os.makedirs(rd, exist_ok=True)
    js = os.path.join(rd, prog.name + ".json")
    if os.path.exists(js):
        os.remove(js)
    cmd = [cli, "exec", "--config", cfg_name, "--quiet", "--stats-json", js]
    for s in sets:
        cmd += ["--set", s]
    cmd += ["--", os.path.abspath(prog.bin)] + prog.args
    t0 = time.time()
    r = subprocess.run(cmd, cwd=rd, capture_output=True, text=True)
    wall = time.time() - t0
    if r.returncode != 0 or not os.path.exists(js):
        raise RuntimeError("Lockstep: exit status %d: %s" % (r.returncode, (r.stdout + r.stderr).strip()[-300:]))
    j = json.loads(read(js))
    launches = []
    for L in j["launches"]:
        launches.append({
            "kernel": L["kernel"], "cycles": L["cycles"], "thread_insts": L["thread_insts"],
            "warp_insts": L["warp_insts"],
            "l1_acc": L["l1d"]["accesses"], "l1_miss": L["l1d"]["misses"],
            "l2_acc": L["l2"]["accesses"], "l2_miss": L["l2"]["misses"],
            "dram_bytes": L["dram"]["bytes"],
        })
    clk = subprocess.run([cli, "config", "--config", cfg_name] + sum((["--set", s] for s in sets), []) +
                         ["--dump"], capture_output=True, text=True).stdout
    m = re.search(r"^core_clock_mhz\s*=\s*(\d+)", clk, flags=re.M)
    return {"launches": launches, "wall_s": wall, "clock_mhz": float(m.group(1))}


# ---- joining and statistics ----

FIELDS = ["cycles", "thread_insts", "warp_insts", "l1_acc", "l1_miss", "l2_acc", "l2_miss", "dram_bytes"]


def per_kernel(launches):
    """Launches summed per kernel, in order of first launch."""
    rows = {}
    for L in launches:
        r = rows.setdefault(L["kernel"], dict({f: 0.0 for f in FIELDS}, launches=0))
        r["launches"] += 1
        for f in FIELDS:
            r[f] += L[f]
    return rows


def ratio(a, b):
    return a / b if b else float("nan")


# A program whose own check fails under GPGPU-Sim is compared only when
# both simulators executed the same work: warp instructions within this
# fraction of each other in every kernel.
SAME_WORK = 0.01


def join(cfg_name, prog, gs, ls):
    if [L["kernel"] for L in gs["launches"]] != [L["kernel"] for L in ls["launches"]]:
        raise RuntimeError("the simulators ran different launches: GPGPU-Sim %d, Lockstep %d"
                           % (len(gs["launches"]), len(ls["launches"])))
    g, l = per_kernel(gs["launches"]), per_kernel(ls["launches"])
    if gs.get("check"):
        for k in g:
            if abs(g[k]["warp_insts"] - l[k]["warp_insts"]) > SAME_WORK * l[k]["warp_insts"]:
                raise RuntimeError("its check failed under GPGPU-Sim (%s) and kernel %s ran %d warp "
                                   "instructions there, %d in Lockstep" % (
                                       gs["check"], short(k), g[k]["warp_insts"], l[k]["warp_insts"]))
    rows = []
    for k in g:
        a, b = g[k], l[k]
        row = {"config": cfg_name, "program": prog.name, "size": prog.size, "kernel": k,
               "gs_check": "fail" if gs.get("check") else "",
               "launches": a["launches"], "gs_mhz": gs["clock_mhz"], "ls_mhz": ls["clock_mhz"]}
        for f in FIELDS:
            row["gs_" + f], row["ls_" + f] = a[f], b[f]
        row["gs_us"] = a["cycles"] / gs["clock_mhz"]
        row["ls_us"] = b["cycles"] / ls["clock_mhz"]
        rows.append(row)
    return rows


class CsvGpgpuSim:
    """GPGPU-Sim's per-kernel figures from a section of the CSV (--gs-from)."""
    def __init__(self, rows, section, meta):
        self.rows = [r for r in rows if r["section"] == section]
        if not self.rows:
            die("--gs-from %s: the CSV has no such section" % section)
        self.section = section
        self.failed = meta.get("failures", {}).get(section, {})
        self.version, self.commit = meta.get("gs_version"), meta.get("gs_commit")

    def run(self, cfg_name, files, prog):
        rows = [r for r in self.rows if r["config"] == cfg_name and r["program"] == prog.name]
        if not rows:
            why = self.failed.get(cfg_name, {}).get(prog.name)
            raise RuntimeError(why or "no GPGPU-Sim rows in section %s" % self.section)
        return {"rows": rows, "wall_s": 0.0}


def join_rows(cfg_name, prog, gs, ls):
    """join() with GPGPU-Sim's side taken from CSV rows."""
    l = per_kernel(ls["launches"])
    if [r["kernel"] for r in gs["rows"]] != list(l):
        raise RuntimeError("the kernels differ from section's: GPGPU-Sim %s, Lockstep %s"
                           % ([short(r["kernel"]) for r in gs["rows"]], [short(k) for k in l]))
    out = []
    for r in gs["rows"]:
        b = l[r["kernel"]]
        row = {k: r[k] for k in ("program", "size", "kernel", "gs_check", "launches", "gs_mhz", "gs_us")}
        row.update({"config": cfg_name, "ls_mhz": ls["clock_mhz"]})
        for f in FIELDS:
            row["gs_" + f], row["ls_" + f] = r["gs_" + f], b[f]
        row["ls_us"] = b["cycles"] / ls["clock_mhz"]
        out.append(row)
    return out


def lockstep_commit():
    """The checkout's commit (short), "+" when the model's sources differ
    from it (csim/, include/, configs/)."""
    g = ["git", "-C", ROOT]
    try:
        c = subprocess.run(g + ["rev-parse", "--short=7", "HEAD"], capture_output=True,
                           text=True, check=True).stdout.strip()
        d = subprocess.run(g + ["status", "--porcelain", "--", "csim", "include", "configs"],
                           capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"
    return c + ("+" if d else "")


def pearson(x, y):
    n = len(x)
    if n < 2:
        return float("nan")
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def fmt_r(x):
    """A correlation coefficient for the page: "-" where it is undefined
    (fewer than two kernels, or no spread)."""
    return "-" if x is None or x != x else "%.3f" % x


def summary(rows):
    """n, r of simulated time, r of log10 time, MAE (%), median ratio."""
    rs = [r for r in rows if r["gs_us"] > 0 and r["ls_us"] > 0]
    if not rs:
        return None
    x = [r["gs_us"] for r in rs]
    y = [r["ls_us"] for r in rs]
    q = sorted(b / a for a, b in zip(x, y))
    med = q[len(q) // 2] if len(q) % 2 else 0.5 * (q[len(q) // 2 - 1] + q[len(q) // 2])
    return {
        "n": len(rs), "programs": len({r["program"] for r in rs}),
        "r": pearson(x, y),
        "rlog": pearson([math.log10(a) for a in x], [math.log10(b) for b in y]),
        "mae": 100.0 * sum(abs(b / a - 1.0) for a, b in zip(x, y)) / len(rs),
        "median": med,
    }


def baseline_row(config, csv_path=None):
    """The results pages' headline row "baseline correlated": config's
    simulated time against GPGPU-Sim's on the same binaries, r and MAE of
    the CSV's "after" section (the shipped config) and of "before"."""
    csv_path = csv_path or os.path.join(ROOT, "docs", "results", "correlation.csv")
    rows = [r for r in load_csv(csv_path) if r["config"] == config]
    sm = {s: summary([r for r in rows if r["section"] == s]) for s in ("before", "after")}
    if sm["after"]:
        ours = "r %.3f, MAE %.1f %% of simulated time over %d kernels" % (
            sm["after"]["r"], sm["after"]["mae"], sm["after"]["n"])
        if sm["before"]:
            ours += " (before the correction: r %.3f, MAE %.1f %%)" % (sm["before"]["r"], sm["before"]["mae"])
        ours += ", [correlation.md](correlation.md)"
    else:
        ours = "not measured (tools/correlate.py)"
    gs = GS_CONFIGS[config]["dir"].split("/")[-1] if config in GS_CONFIGS else "?"
    return "| baseline correlated: %s against GPGPU-Sim's %s, same binaries | the paper's simulator | %s |" % (
        config, gs, ours)

# ---- CSV and page ----

CSV_COLS = ["section", "config", "program", "size", "kernel", "gs_check", "launches", "gs_mhz", "ls_mhz"] + \
    ["%s_%s" % (s, f) for f in FIELDS for s in ("gs", "ls")] + ["gs_us", "ls_us"]


def load_csv(path):
    if not os.path.exists(path):
        return []
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            for k in CSV_COLS:
                if k not in ("section", "config", "program", "size", "kernel", "gs_check"):
                    r[k] = float(r[k])
            rows.append(r)
    return rows


def save_csv(path, rows):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_COLS, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: (("%.6g" % r[k]) if isinstance(r[k], float) else r[k]) for k in CSV_COLS})


def fmt_int(v):
    return "{:,}".format(int(round(v)))


def fmt_rate(m, a):
    return "%.3f" % (m / a) if a else "-"


def fmt_bytes(v):
    if v >= 1e6:
        return "%.2f MB" % (v / 1e6)
    if v >= 1e3:
        return "%.1f kB" % (v / 1e3)
    return "%d B" % v


def short(k):
    """A readable kernel name: the identifier inside an Itanium mangled name."""
    m = re.match(r"_Z(\d+)(.*)", k)
    if m and int(m.group(1)) <= len(m.group(2)):
        return m.group(2)[:int(m.group(1))]
    return k


SECTION_TEXT = {
    "before": "Lockstep as it was before the memory-system and configuration "
              "changes that the correlation motivated (docs/timing-core.md, "
              "\"Comparison with GPGPU-Sim\").",
    "after": "Lockstep as shipped: those changes, GPGPU-Sim's operand-collector and "
             "write-back stages (pipe_collect, pipe_writeback, result_buses), its L1 "
             "write-evict for global stores (l1d_store_hit), its per-opcode "
             "latency, interval and unit (opcode_timing), its partition address map "
             "(part_map, part_chunk_bytes), its sectored L2's DRAM reads per sector "
             "(dram_sector_reads, gtx480), its L2 MSHR merge bounds "
             "(l2_mshr_merge, l2_merge_room) and its instruction cache (icache_size, "
             "icache_assoc, icache_line: SM2_GTX480's il1 N:4:128:4, QuadroFX5800's "
             "4:256:4), looked up on every path that fills a warp's instruction "
             "buffer (the SM's fetch, TBC/CAPRI's warp formation, DPE's paths), "
             "through GPGPU-Sim's one fetch port (fetch_port = one: a block lookup "
             "per SM a cycle, the next block once the buffer is empty); the "
             "initiation interval spent in the unit's dispatch register (staged "
             "write-back); a warp's atomics to one word serialized "
             "(atom_conflicts); on gtx480 the Fermi L1 set hash (l1d_set_index); "
             "on fx5800 compute capability 1.3's half-warp coalescing (coalesce = "
             "cc13).",
}

# Ablation sections ("without-..."): the shipped configs with one part taken
# out by --set (recorded in the .meta.json); summary rows only.
ABLATION_PREFIX = "without-"
# GPGPU-Sim isolation sections ("gs-..."): GPGPU-Sim with one of its
# mechanisms idealised by --gs-set (recorded in the .meta.json), Lockstep as
# shipped: how much of the remaining difference that mechanism is.
ISOLATION_PREFIX = "gs-"


def isolation_table(rows, meta, sections):
    """Per isolation section and config: r and MAE beside the shipped
    configs' ("after"), and the kernels whose ratio it moves most."""
    L = ["## GPGPU-Sim isolations", "",
         "Each row runs GPGPU-Sim with one of its mechanisms idealised (the "
         "GPGPU-Sim options named) against Lockstep as shipped, or with the same "
         "mechanism idealised (the Lockstep overrides named), over the programs "
         "run: how much of the remaining difference that mechanism is. \"as shipped\" "
         "is the after section over the same kernels.", "",
         "| section | GPGPU-Sim options | Lockstep overrides | config | kernels | r | MAE | r, MAE as shipped | ratio moved most (as shipped -> isolated) |",
         "|---|---|---|---|---:|---:|---:|---:|---|"]
    for s in sections:
        opts = ", ".join("`%s`" % x for x in meta.get("gs_sets", {}).get(s, [])) or "-"
        lsets = ", ".join("`%s`" % x for x in meta.get("sets", {}).get(s, [])) or "-"
        for c in sorted({r["config"] for r in rows if r["section"] == s}):
            iso = {(r["program"], r["kernel"]): r for r in rows if r["section"] == s and r["config"] == c}
            aft = {(r["program"], r["kernel"]): r for r in rows if r["section"] == "after" and r["config"] == c}
            keys = [k for k in iso if k in aft]
            sm = summary([iso[k] for k in keys])
            base = summary([aft[k] for k in keys])
            if not sm or not base:
                continue
            mv = sorted(keys, key=lambda k: -abs(ratio(iso[k]["ls_us"], iso[k]["gs_us"]) -
                                                 ratio(aft[k]["ls_us"], aft[k]["gs_us"])))[:5]
            moved = ", ".join("%s %.2f -> %.2f" % (short(k[1]), ratio(aft[k]["ls_us"], aft[k]["gs_us"]),
                                                   ratio(iso[k]["ls_us"], iso[k]["gs_us"])) for k in mv)
            L.append("| %s | %s | %s | %s | %d | %s | %.1f %% | %s, %.1f %% | %s |" % (
                s, opts, lsets, c, sm["n"], fmt_r(sm["r"]), sm["mae"], fmt_r(base["r"]), base["mae"],
                moved))
    L.append("")
    return L


# The target per config (after): r of simulated time at least
# TARGET_R and MAE at most TARGET_MAE %; each kernel off by more than
# KERNEL_TOL gets the cause its measured figures show (KERNEL_CAUSES, in
# order: the first section in which it comes within KERNEL_TOL names it).
TARGET_R, TARGET_MAE, KERNEL_TOL = 0.95, 20.0, 0.20
# the memory rules name a cause only where the traffic is not negligible
MIN_L2_ACC, MIN_DRAM_BYTES = 1000, 65536
KERNEL_CAUSES = [
    ("without-il1-256B",
     "instruction-cache lines: GPGPU-Sim 4.x ran QuadroFX5800's L1I in 64 B lines "
     "(it rejects 256 B); with Lockstep's in 64 B lines too the ratio is %.2f "
     "(timing-core.md, cause 17)"),
    ("gs-perfect-icache",
     "instruction and constant fetch: with both simulators' instruction caches "
     "perfect (and GPGPU-Sim's constant cache) the ratio is %.2f (timing-core.md, "
     "causes 17 and 18)"),
    ("without-two-level",
     "warp scheduler: the GPGPU-Sim run schedules loose round robin (its nearest to "
     "Table 4.1's two-level); with Lockstep's `lrr` too the ratio is %.2f "
     "(timing-core.md, causes 20 and 21)"),
    ("gs-no-write-alloc",
     "the run's L2 write policy: GPGPU-Sim's QuadroFX5800 L2 ran without "
     "write-allocate (`N`: every store miss a DRAM write), ours allocates the "
     "written sectors; with Lockstep's L2 not allocating either "
     "(`l2_write_alloc=none`) the ratio is %.2f (timing-core.md, cause 34)"),
    ("gs-atom-wait",
     "atomic issue stall: GPGPU-Sim holds a warp until every lane's atomic has "
     "returned (shd_warp_t::waiting, a stall its source calls not required for "
     "accurate timing); with Lockstep's warps held too (`atom_issue=wait`) the "
     "ratio is %.2f (timing-core.md, cause 28)"),
    ("gs-l2-mshr64",
     "L2 MSHRs: GPGPU-Sim's L2 runs out of its 16 MSHRs a partition (its failed "
     "reservations stall the partition's queue and shrink the DRAM scheduler's "
     "window); with 64 there the ratio is %.2f (timing-core.md, cause 31)"),
    ("gs-icnt-wide",
     "interconnect contention: GPGPU-Sim's crossbar (iSLIP, one virtual channel "
     "of 8 flits, three cores a node) limits it; with one core a node and 64-byte "
     "flits in both simulators the ratio is %.2f (timing-core.md, cause 32)"),
    ("gs-atom-wait-icnt-wide",
     "atomic issue stall and interconnect contention together: with Lockstep's "
     "warps held at atomics as GPGPU-Sim's are, one core a node and 64-byte flits "
     "in both simulators the ratio is %.2f (timing-core.md, causes 28 and 32)"),
    ("gs-hot-port",
     "request size and the hot partition's reply port: the run's 32-byte "
     "requests make twice the replies, and GPGPU-Sim's crossbar took 0.65 flits "
     "a cycle out of the one partition they all leave (its L2 blocked on the "
     "reply network, `gpu_stall_icnt2sh`), ours 0.97; with Lockstep's requests "
     "at 32 B and its interconnect clock at that rate (420 MHz) the ratio is %.2f "
     "(timing-core.md, causes 20 and 32)"),
    ("gs-ctas2",
     "occupancy: GPGPU-Sim takes a kernel's registers from ptxas (sprod: 50 a "
     "thread for sm_75, so 2 CTAs an SM and a second wave of CTAs), ours from "
     "its PTX estimate (24: every CTA at once); with Lockstep at 2 CTAs an SM "
     "(`max_ctas_per_sm=2`) the ratio is %.2f (timing-core.md, cause 22)"),
    ("gs-l2x2",
     "L2 capacity edge: with GPGPU-Sim's L2 at twice the sets the ratio is %.2f "
     "(timing-core.md, cause 21)"),
    ("gs-fetch-tput",
     "fetch throughput: with GPGPU-Sim fetching for a warp 4 instructions a cycle "
     "the ratio is %.2f (timing-core.md, cause 18)"),
    ("gs-perfect-icache-32B",
     "instruction fetch and request size together: with both instruction caches "
     "perfect and Lockstep's L1 requests in 32 B (the run's segments) the ratio is "
     "%.2f (timing-core.md, causes 17 and 20)"),
    ("gs-arch13",
     "request size: the GPGPU-Sim run coalesces into 32 B segments "
     "(`-gpgpu_coalesce_arch 40`); with GPGPU-Sim at GT200's rule too "
     "(`-gpgpu_coalesce_arch 13`, which 4.x runs only for programs that never "
     "make a 128-byte transaction) the ratio is %.2f (timing-core.md, cause 20)"),
    ("without-64B-requests",
     "request size: the GPGPU-Sim run coalesces into 32 B segments "
     "(`-gpgpu_coalesce_arch 40`, 4.x's only choice for 64 B L1 lines); with "
     "Lockstep's L1 in 32 B lines, so its requests too, the ratio is %.2f "
     "(timing-core.md, cause 20)"),
    ("gs-as-run",
     "the reference run's departures from the machine together: with Lockstep "
     "configured as GPGPU-Sim ran (instruction-cache lines of 64 B and requests "
     "of 32 B, 4.x's limits; loose round robin and no L2 write-allocate, the "
     "run's choices) the ratio is %.2f (timing-core.md, causes 17, 20, 21 and 34)"),
    ("gs-as-run-icnt-wide",
     "the reference run's departures and interconnect contention together: with "
     "Lockstep configured as GPGPU-Sim ran, and one core a node and 64-byte flits "
     "in both simulators, the ratio is %.2f (timing-core.md, causes 17, 20, 21, "
     "32 and 34)"),
    ("gs-as-run-perfect-icache",
     "the reference run's departures and instruction fetch together: with "
     "Lockstep configured as GPGPU-Sim ran and both instruction caches perfect "
     "the ratio is %.2f (timing-core.md, causes 17, 18, 20, 21 and 34)"),
]


# a section names a kernel's cause when it closes at least this share of
# the kernel's gap (|ratio - 1|); a partial cause closes PARTIAL_SHARE
NAMED_SHARE, PARTIAL_SHARE = 0.5, 0.4


def kernel_cause(r, by_section):
    """The named cause of after-row r's difference, from the figures."""
    key = (r["program"], r["kernel"])
    gap = abs(ratio(r["ls_us"], r["gs_us"]) - 1.0)
    best, best_share, best_sec = None, 0.0, None
    for sec, text in KERNEL_CAUSES:
        o = by_section.get(sec, {}).get(key)
        if not o:
            continue
        g = abs(ratio(o["ls_us"], o["gs_us"]) - 1.0)
        share = 1.0 - g / gap if gap else 0.0
        if g <= KERNEL_TOL and share >= NAMED_SHARE:
            return text % ratio(o["ls_us"], o["gs_us"])
        if share > best_share:
            best, best_share = text % ratio(o["ls_us"], o["gs_us"]), share
            best_sec = (sec, ratio(o["ls_us"], o["gs_us"]))
    # what the isolations show beside a cause named by the memory figures
    most = ("; of the sections, %s closes the most: %.2f, %d %% of the gap" % (
        best_sec[0], best_sec[1], round(100 * best_share)) if best_sec and best_share >= 0.1 else "")
    # the fx5800 run's L2 writes every store miss to DRAM (cause 34): its
    # DRAM bytes with Lockstep's L2 not allocating either
    wp = r.get("config") == "fx5800"
    nwa = by_section.get("gs-no-write-alloc", {}).get(key)
    if wp and nwa:
        most = "; with Lockstep's L2 not allocating on a write miss, %s here%s" % (
            fmt_bytes(nwa["ls_dram_bytes"]), most)
    gm, lm = ratio(r["gs_l2_miss"], r["gs_l2_acc"]), ratio(r["ls_l2_miss"], r["ls_l2_acc"])
    if r["gs_l2_acc"] >= MIN_L2_ACC and r["ls_l2_acc"] and abs(gm - lm) >= KERNEL_TOL:
        return ("L2 misses: %.2f of its L2 accesses there, %.2f here (DRAM %s / %s; "
                "timing-core.md, cause%s%s)" % (
                    gm, lm, fmt_bytes(r["gs_dram_bytes"]), fmt_bytes(r["ls_dram_bytes"]),
                    "s 21 and 34" if wp else " 21", most))
    d = ratio(r["ls_dram_bytes"], r["gs_dram_bytes"])
    if r["gs_dram_bytes"] >= MIN_DRAM_BYTES and (d >= 1.5 or d <= 1 / 1.5):
        return "DRAM traffic: %s there, %s here%s%s" % (
            fmt_bytes(r["gs_dram_bytes"]), fmt_bytes(r["ls_dram_bytes"]),
            " (timing-core.md, cause 34" + most + ")" if wp else "",
            " (" + most[2:] + ")" if most and not wp else "")
    if best and best_share >= PARTIAL_SHARE:
        return "in part (%d %% of the gap) %s" % (round(100 * best_share), best)
    iso = by_section.get("gs-perfect-icache", {}).get(key)
    notes = []
    if iso:
        notes.append("with both instruction caches perfect: %.2f" % ratio(iso["ls_us"], iso["gs_us"]))
    if best_sec and best_share >= 0.1:
        notes.append("the most any section closes: %s, %.2f, %d %% of the gap" % (
            best_sec[0], best_sec[1], round(100 * best_share)))
    return "not traced%s" % (" (%s)" % "; ".join(notes) if notes else "")


def target_table(rows):
    """Per config of the after section: whether the target is met, and the
    named cause of every kernel off by more than KERNEL_TOL."""
    L = ["## Target", "",
         "The target per config: simulated time correlates at r >= %.2f and the "
         "mean absolute error is at most %d %%, or every kernel off by more than "
         "%d %% has a named cause. A cause is named from the figures: the first "
         "of these sections in which the kernel comes within %d %% and which closes "
         "at least %d %% of its gap (%s), else an "
         "L2 miss rate %.2f apart (at least %s L2 accesses in GPGPU-Sim), else DRAM "
         "bytes 1.5x apart (at least %s there), else, as a partial cause, the "
         "section that closes the largest share of the gap if at least %d %%, "
         "else \"not traced\" (with the largest share a section closes, from 10 %%)."
         % (TARGET_R, TARGET_MAE, 100 * KERNEL_TOL, 100 * KERNEL_TOL, 100 * NAMED_SHARE,
            ", ".join(s for s, _ in KERNEL_CAUSES), KERNEL_TOL, fmt_int(MIN_L2_ACC),
            fmt_bytes(MIN_DRAM_BYTES), 100 * PARTIAL_SHARE), ""]
    by_section = {}
    for r in rows:
        by_section.setdefault(r["section"], {}).setdefault(r["config"], {})[(r["program"], r["kernel"])] = r
    for c in sorted(GS_CONFIGS):
        if "same_as" in GS_CONFIGS[c]:
            continue
        aft = [r for r in rows if r["section"] == "after" and r["config"] == c]
        sm = summary(aft)
        if not sm:
            continue
        off = sorted((r for r in aft if abs(ratio(r["ls_us"], r["gs_us"]) - 1.0) > KERNEL_TOL),
                     key=lambda r: ratio(r["ls_us"], r["gs_us"]))
        bs = {s: v.get(c, {}) for s, v in by_section.items()}
        causes = [kernel_cause(r, bs) for r in off]
        traced = sum(1 for x in causes if not x.startswith(("not traced", "in part")))
        partial = sum(1 for x in causes if x.startswith("in part"))
        met = sm["r"] >= TARGET_R and sm["mae"] <= TARGET_MAE
        L.append("**%s**: r %.3f, MAE %.1f %% over %d kernels: %s; %d kernels off by more "
                 "than %d %%, %d of them with a named cause, %d with a partial one." % (
                     c, sm["r"], sm["mae"], sm["n"],
                     "target met" if met else "MAE target not met" if sm["r"] >= TARGET_R
                     else "target not met", len(off), 100 * KERNEL_TOL, traced, partial))
        L.append("")
        untraced = [r for r, why in zip(off, causes) if why.startswith("not traced")]
        if off:
            part = [r for r, why in zip(off, causes) if why.startswith("in part")]
            L.append("Not traced: %s. Traced in part: %s." % (
                ", ".join("`%s` %.2f" % (short(r["kernel"]), ratio(r["ls_us"], r["gs_us"])) for r in untraced) or "none",
                ", ".join("`%s` %.2f" % (short(r["kernel"]), ratio(r["ls_us"], r["gs_us"])) for r in part) or "none"))
            L.append("")
        if off:
            L.append("| program | kernel | ratio | cause |")
            L.append("|---|---|---:|---|")
            for r, why in zip(off, causes):
                L.append("| %s | %s | %.2f | %s |" % (r["program"], short(r["kernel"]),
                                                      ratio(r["ls_us"], r["gs_us"]), why))
            L.append("")
    return L


def ablation_table(rows, meta, sections):
    """The ablation rows: per section and config, r and MAE beside the
    shipped configs' ("after")."""
    L = ["## Ablation", "",
         "Each row is the shipped config with one part taken out (the Lockstep "
         "`--set` overrides named; GPGPU-Sim unchanged), over the same kernels: "
         "what that part moves.", "",
         "| section | Lockstep overrides | config | r | MAE | r, MAE as shipped (after) |",
         "|---|---|---|---:|---:|---:|"]
    for s in sections:
        sets = ", ".join("`%s`" % x for x in meta.get("sets", {}).get(s, [])) or "-"
        for c in sorted({r["config"] for r in rows if r["section"] == s}):
            sm = summary([r for r in rows if r["section"] == s and r["config"] == c])
            base = summary([r for r in rows if r["section"] == "after" and r["config"] == c])
            if sm:
                L.append("| %s | %s | %s | %.3f | %.1f %% | %s |" % (
                    s, sets, c, sm["r"], sm["mae"],
                    "%.3f, %.1f %%" % (base["r"], base["mae"]) if base else "-"))
    L.append("")
    return L


def page(rows, meta):
    L = []
    w = L.append
    w("# Correlation with GPGPU-Sim")
    w("")
    w("Generated by `tools/correlate.py` (do not edit): every program below is one")
    w("nvcc-built binary run unchanged by GPGPU-Sim %s (commit %s) and by"
      % (meta.get("gs_version", "?"), meta.get("gs_commit", "?")))
    lc = meta.get("ls_commits", {})
    others = sorted({v for k, v in lc.items() if k not in ("after", "before")} - {lc.get("after")})
    w("`lockstep exec` (commit %s%s), on GPGPU-Sim's SM2_GTX480 and QuadroFX5800 configs and"
      % (lc.get("after", "?"), "; other sections also " + ", ".join(others) if others else ""))
    w("Lockstep's `gtx480` and `fx5800` (and `gtx480-gscalar`, the G-Scalar paper's")
    w("GTX480, against the same SM2_GTX480 runs). Each row is one kernel of one program")
    w("(its launches summed). Cycles are each simulator's core cycles at its own")
    w("core clock; simulated time is cycles / clock. IPC is warp instructions per")
    w("core cycle. L1 and L2 miss rates count merged misses (MSHR hits) as misses;")
    w("GPGPU-Sim's L2 figures exclude instruction fetches (Lockstep's instruction")
    w("cache does not fetch through its memory system) and, on gtx480, count 32-byte")
    w("sectors, Lockstep's line requests.")
    w("DRAM bytes are column commands x atom (GPGPU-Sim: burst x bus width x chips).")
    w("**r** is the Pearson correlation coefficient of simulated time over the")
    w("kernels of a config, **r(log)** the same over log10 time (every kernel")
    w("weighs the same), **MAE** the mean of |Lockstep time / GPGPU-Sim time - 1|.")
    w("The causes of the differences, each with a measured example, and the")
    w("key-by-key comparison of the two machines are in")
    w("[../timing-core.md](../timing-core.md), \"Comparison with GPGPU-Sim\";")
    w("what remains is named there with the microbenchmark or GPGPU-Sim isolation")
    w("that shows it: most of it instruction fetch (GPGPU-Sim's instruction-cache")
    w("misses and constant cache cost more than ours; the gs-perfect-icache")
    w("isolation takes both simulators' instruction caches out), on fx5800 with the")
    w("reference run's 32-byte requests (GPGPU-Sim 4.2 cannot run GT200's coalescing")
    w("with 64-byte L1 lines; gs-arch13 runs it where it can), then atomics:")
    w("GPGPU-Sim holds a warp until all its atomics have returned, a stall its")
    w("source calls not required for accurate timing (gs-atom-wait holds Lockstep's")
    w("warps the same way). On fx5800 most of what remains is where the reference")
    w("run departs from the machine, by GPGPU-Sim 4.2's limits (64-byte instruction-")
    w("cache lines, 32-byte requests) or its configuration (loose round robin, no L2")
    w("write-allocate): gs-as-run configures Lockstep the same way, and")
    w("gs-as-run-perfect-icache also takes both instruction caches out.")
    w("The Target section says per config whether")
    w("the target is met and names the cause of every kernel off by more than")
    w("%d %%, from the figures of the sections below." % (100 * KERNEL_TOL))
    w("")
    w("Regenerate (GPGPU-Sim's results are cached; a run from an empty cache takes")
    w("%s):" % meta.get("duration", "?"))
    w("")
    w("```")
    w("tools/correlate.py --gpgpusim GPGPUSIM_DIR --cuda CUDA_WITH_CUOBJDUMP --section after")
    w("```")
    w("")
    w("## Inputs")
    w("")
    w("GPGPU-Sim simulates 100-200x slower than Lockstep, so inputs are chosen for")
    w("GPGPU-Sim to finish in about a minute each: the workloads run their `%s`" % WL_SIZE)
    w("input (wl_host.c's size argument: 10-220 K warp instructions a program;")
    w("`default` is ten times that), the microbenchmarks (tools/ubench/) the")
    w("sizes their sources name. Each microbenchmark kernel isolates one")
    w("mechanism and is named after it.")
    w("")
    w("## GPGPU-Sim build")
    w("")
    w("GPGPU-Sim 4.2.0 (accel-sim/gpgpu-sim_distribution, branch dev) built against")
    w("CUDA 13 needs a few source changes: the CUDA version gate, CUDA 12's removed")
    w("texture and surface reference types re-declared, `cudaDeviceProp.clockRate`")
    w("skipped, `__cudaGetKernel`/`__cudaLaunchKernel` (nvcc 13's launch stubs)")
    w("added, a `libcudart.so.13` symbol version, and lexer rules for ptxas 13's")
    w("`used N barriers`, `Compile time` and `N bytes cumulative stack size`")
    w("output. Three of its own bugs had to be fixed for these programs: a direct")
    w("`cudaLaunchKernel` call (wl_host.c's) pushed no launch configuration; the")
    w("kernel constructor used by every launch left the stream id uninitialised,")
    w("and the per-stream statistics (the L2 breakdown this page reads) were")
    w("keyed by garbage; 4.x's SP pipeline, sized by the f32 MAX latency, crashes")
    w("on a longer opcode (the overrides below). CUDA 13 ships no `cuobjdump`,")
    w("which GPGPU-Sim calls to extract each program's PTX: `--cuda` names a CUDA")
    w("tree with a stand-in that implements `-lptx` and `-xptx`. Programs")
    w("GPGPU-Sim cannot run are listed under each table (it lacks")
    w("`cudaGetSymbolAddress` and some atomics).")
    w("")
    w("## GPGPU-Sim configuration")
    w("")
    w("The shipped config files, with these lines appended (tools/correlate.py,")
    w("GS_CONFIGS):")
    w("")
    w("| config | option | why |")
    w("|---|---|---|")
    for name in sorted(n for n in GS_CONFIGS if "same_as" not in GS_CONFIGS[n]):
        for opt, why in GS_CONFIGS[name]["overrides"]:
            w("| %s | `%s` | %s |" % (name, opt, why))
    w("")
    sections = [s for s in ("before", "after") if any(r["section"] == s for r in rows)]
    sections += sorted({r["section"] for r in rows} - set(sections))
    w("## Summary")
    w("")
    w("| section | config | programs | kernels | r | r(log) | MAE | median Lockstep / GPGPU-Sim time |")
    w("|---|---|---:|---:|---:|---:|---:|---:|")
    for s in sections:
        for c in sorted({r["config"] for r in rows if r["section"] == s}):
            sm = summary([r for r in rows if r["section"] == s and r["config"] == c])
            if sm:
                w("| %s | %s | %d | %d | %s | %s | %.1f %% | %.2f |"
                  % (s, c, sm["programs"], sm["n"], fmt_r(sm["r"]), fmt_r(sm["rlog"]), sm["mae"],
                     sm["median"]))
    w("")
    L += target_table(rows)
    ablations = [s for s in sections if s.startswith(ABLATION_PREFIX)]
    if ablations:
        L += ablation_table(rows, meta, ablations)
    isolations = [s for s in sections if s.startswith(ISOLATION_PREFIX)]
    if isolations:
        L += isolation_table(rows, meta, isolations)
    fails = meta.get("failures", {})
    for s in sections:
        if s in ablations or s in isolations:
            continue
        w("## %s" % s)
        w("")
        w(SECTION_TEXT.get(s, ""))
        w("")
        for c in sorted({r["config"] for r in rows if r["section"] == s}):
            rs = [r for r in rows if r["section"] == s and r["config"] == c]
            w("### %s: %s" % (s, c))
            w("")
            w("GPGPU-Sim at %g MHz, Lockstep at %g MHz. Per column pair: GPGPU-Sim / Lockstep."
              % (rs[0]["gs_mhz"], rs[0]["ls_mhz"]))
            w("")
            w("| program | kernel | n | cycles | warp insts | IPC | L1 miss | L2 miss | DRAM | time (us) | ratio |")
            w("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
            for r in rs:
                w("| %s | %s | %d | %s / %s | %s / %s | %.2f / %.2f | %s / %s | %s / %s | %s / %s | %.1f / %.1f | %.2f |" % (
                    r["program"] + (" (%s)" % r["size"] if r["size"] else "") +
                    ("\\*" if r.get("gs_check") else ""), short(r["kernel"]),
                    r["launches"], fmt_int(r["gs_cycles"]), fmt_int(r["ls_cycles"]),
                    fmt_int(r["gs_warp_insts"]), fmt_int(r["ls_warp_insts"]),
                    ratio(r["gs_warp_insts"], r["gs_cycles"]), ratio(r["ls_warp_insts"], r["ls_cycles"]),
                    fmt_rate(r["gs_l1_miss"], r["gs_l1_acc"]), fmt_rate(r["ls_l1_miss"], r["ls_l1_acc"]),
                    fmt_rate(r["gs_l2_miss"], r["gs_l2_acc"]), fmt_rate(r["ls_l2_miss"], r["ls_l2_acc"]),
                    fmt_bytes(r["gs_dram_bytes"]), fmt_bytes(r["ls_dram_bytes"]),
                    r["gs_us"], r["ls_us"], ratio(r["ls_us"], r["gs_us"])))
            w("")
            if any(r.get("gs_check") for r in rs):
                w("\\* the program's own check failed under GPGPU-Sim (its arithmetic: e.g. an")
                w("unfused multiply-add, a different shuffle result) while every kernel ran the")
                w("same warp instructions as in Lockstep (within %g %%): compared." % (100 * SAME_WORK))
                w("")
            fl = fails.get(s, {}).get(c, {})
            if fl:
                w("Not compared (a simulator failed):")
                w("")
                for p in sorted(fl):
                    w("* %s: %s" % (p, fl[p]))
                w("")
    return "\n".join(L) + "\n"


# ---- main ----

def parse_programs(names):
    wls = set(workload_names())
    progs = []
    for spec in names:
        parts = shlex.split(spec)
        if not parts:
            continue
        n = parts[0]
        if n in wls:
            size = parts[1] if len(parts) > 1 else WL_SIZE
            progs.append(Program(n, "wl", [size, "1"], size=size))
        elif n in UBENCH or os.path.isfile(os.path.join(ROOT, "tools", "ubench", n + ".cu")):
            progs.append(Program(n, "ub", parts[1:]))
        elif os.path.isfile(n) and os.access(n, os.X_OK):
            progs.append(Program(os.path.basename(n), "bin", parts[1:], path=os.path.abspath(n)))
        else:
            die("%s is neither a workload, a tools/ubench program nor an executable file" % n)
    return progs


def replaced(configs, names, failures, gs_from):
    """The (config, program) pairs whose rows a run replaces in its section:
    every one run, but under --gs-from not one that failed (GPGPU-Sim's
    figures in the section are the only copy)."""
    return {(c, n) for c in configs for n in names
            if not (gs_from and n in failures.get(c, {}))}


def refresh(a, metaf):
    """--refresh: every section but before again, Lockstep only."""
    if not os.path.exists(a.csv) or not os.path.exists(metaf):
        die("--refresh needs %s and its .meta.json" % a.csv)
    rows, meta = load_csv(a.csv), json.loads(read(metaf))
    sections = sorted({r["section"] for r in rows} - {"before"},
                      key=lambda s: (s != "after", s))
    for s in sections:
        for c in sorted({r["config"] for r in rows if r["section"] == s}):
            progs = sorted({r["program"] for r in rows if r["section"] == s and r["config"] == c})
            argv = [sys.executable, os.path.abspath(__file__), "--gs-from", s, "--section", s,
                    "--configs", c, "--lockstep", a.lockstep, "--work", a.work,
                    "--csv", a.csv, "--page", a.page, "--jobs", str(a.jobs)]
            for x in meta.get("sets", {}).get(s, []):
                argv += ["--set", x]
            note("refresh: section %s, %s (%d programs)" % (s, c, len(progs)))
            r = subprocess.run(argv + progs)
            if r.returncode:
                die("refresh: section %s, %s failed (exit %d)" % (s, c, r.returncode))
    return 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("programs", nargs="*", help="workload, microbenchmark or \"binary args...\"")
    ap.add_argument("--gpgpusim", help="GPGPU-Sim tree (built)")
    ap.add_argument("--page-only", action="store_true",
                    help="rewrite the page from the CSV and its .meta.json; run nothing")
    ap.add_argument("--cuda", default=os.environ.get("CUDA_INSTALL_PATH", "/usr/local/cuda"),
                    help="CUDA tree whose bin/cuobjdump GPGPU-Sim calls")
    ap.add_argument("--gpgpusim-config", action="append", default=[], metavar="NAME=DIR",
                    help="GPGPU-Sim config directory for a Lockstep config name")
    ap.add_argument("--lockstep", default=os.path.join(ROOT, "build", "lockstep"))
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc"))
    ap.add_argument("--configs", default="gtx480,fx5800")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="Lockstep config override (every config)")
    ap.add_argument("--gs-set", action="append", default=[], metavar="\"-OPTION VALUE\"",
                    help="GPGPU-Sim option appended to every config (isolating one cause)")
    ap.add_argument("--gs-icnt", action="append", default=[], metavar="KEY=VALUE",
                    help="replace a line of GPGPU-Sim's interconnect file (k=38, flit_size=64) for an isolation")
    ap.add_argument("--section", default="after", help="CSV/page section to replace (before, after, ...)")
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "correlate"))
    ap.add_argument("--csv", default=os.path.join(ROOT, "docs", "results", "correlation.csv"))
    ap.add_argument("--page", default=os.path.join(ROOT, "docs", "results", "correlation.md"))
    ap.add_argument("--no-page", action="store_true", help="print the rows, write no CSV or page")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--gs-from", metavar="SECTION",
                    help="GPGPU-Sim's figures from this CSV section (run only Lockstep)")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per GPGPU-Sim run")
    ap.add_argument("--refresh", action="store_true",
                    help="re-run Lockstep for every section of the CSV but before (each with the "
                         "--set overrides its .meta.json records, over its configs and programs, "
                         "GPGPU-Sim's figures from the section itself), then rewrite the page")
    a = ap.parse_args(argv)
    metaf = os.path.splitext(a.csv)[0] + ".meta.json"
    if a.refresh:
        return refresh(a, metaf)
    if a.page_only:
        if not os.path.exists(a.csv):
            die("%s does not exist: nothing to write the page from" % a.csv)
        meta = json.loads(read(metaf)) if os.path.exists(metaf) else {}
        with open(a.page, "w") as f:
            f.write(page(load_csv(a.csv), meta))
        note("wrote %s from %s" % (a.page, a.csv))
        return 0
    if not a.gpgpusim and not a.gs_from:
        die("--gpgpusim DIR is required (a built GPGPU-Sim tree), unless --page-only or --gs-from")

    configs = [c for c in a.configs.split(",") if c]
    for c in configs:
        if c not in GS_CONFIGS:
            die("no GPGPU-Sim counterpart for config %s (known: %s)" % (c, ", ".join(sorted(GS_CONFIGS))))
    extra = {}
    for s in a.gpgpusim_config:
        k, _, v = s.partition("=")
        extra[k] = os.path.abspath(v)
    if not os.access(a.lockstep, os.X_OK):
        die("%s is not built (make)" % a.lockstep)
    progs = parse_programs(a.programs or default_programs())
    work = os.path.abspath(a.work)
    if a.gs_from:
        gs = CsvGpgpuSim(load_csv(a.csv), a.gs_from, json.loads(read(metaf)) if os.path.exists(metaf) else {})
        cfg_files = {c: None for c in configs}
    else:
        gs = GpgpuSim(a.gpgpusim, a.cuda, work, a.timeout)
        cfg_files = {c: gs.config_files(c, extra, a.gs_set, a.gs_icnt) for c in configs}
    t0 = time.time()
    build_all(progs, a.nvcc, work, a.jobs)

    tasks = [(c, p) for c in configs for p in progs]
    results, failures = {}, {}

    def one(t):
        c, p = t
        if p.err:
            return t, None, p.err
        try:
            g = gs.run(GS_CONFIGS[c].get("same_as", c), cfg_files[c], p)
            l = run_lockstep(os.path.abspath(a.lockstep), c, a.set, p, work, a.section)
            walls["gs"] += g["wall_s"]
            walls["ls"] += l["wall_s"]
            if "rows" in g:
                return t, join_rows(c, p, g, l), None
            return t, join(c, p, g, l), None
        except (RuntimeError, OSError, KeyError, ValueError) as e:
            return t, None, str(e)

    done = 0
    walls = {"gs": 0.0, "ls": 0.0}
    with cf.ThreadPoolExecutor(max(1, a.jobs)) as ex:
        for (c, p), rows, err in ex.map(one, tasks):
            done += 1
            if err:
                failures.setdefault(c, {})[p.name] = err
                note("[%d/%d] %s %s: FAILED: %s" % (done, len(tasks), c, p.name, err))
            else:
                results[(c, p.name)] = rows
                sm = summary(rows)
                note("[%d/%d] %s %s: %d kernels, time ratio %.2f" % (
                    done, len(tasks), c, p.name, len(rows), sm["median"] if sm else float("nan")))
    new = [dict(r, section=a.section) for c in configs for p in progs for r in results.get((c, p.name), [])]
    dur = time.time() - t0
    for c in configs:
        sm = summary([r for r in new if r["config"] == c])
        if sm:
            note("%s %s: %d programs, %d kernels, r %.3f, r(log) %.3f, MAE %.1f %%, median ratio %.2f"
                 % (a.section, c, sm["programs"], sm["n"], sm["r"], sm["rlog"], sm["mae"], sm["median"]))
    note("took %.0f s" % dur)
    if a.no_page:
        for r in new:
            print("%s,%s,%s,%.1f,%.1f,%.3f" % (r["config"], r["program"], r["kernel"], r["gs_us"], r["ls_us"],
                                            ratio(r["ls_us"], r["gs_us"])))
        return 0
    ran = replaced(configs, [p.name for p in progs], failures, a.gs_from)
    old = [r for r in load_csv(a.csv) if not (r["section"] == a.section and (r["config"], r["program"]) in ran)]
    rows = old + new
    save_csv(a.csv, rows)
    meta = json.loads(read(metaf)) if os.path.exists(metaf) else {}
    meta["gs_version"], meta["gs_commit"] = gs.version, gs.commit
    meta.setdefault("ls_commits", {})[a.section] = lockstep_commit()
    meta.setdefault("sets", {})[a.section] = list(a.set)
    if a.gs_set or a.gs_icnt:
        meta.setdefault("gs_sets", {})[a.section] = list(a.gs_set) + ["icnt: %s" % x for x in a.gs_icnt]
    elif a.section in meta.get("gs_sets", {}) and not a.gs_from:
        del meta["gs_sets"][a.section]
    if len(progs) >= 20 and not a.gs_from and {c for c in GS_CONFIGS if "same_as" not in GS_CONFIGS[c]} <= set(configs):
        meta["duration"] = ("GPGPU-Sim %.0f minutes and Lockstep %.0f s of wall time, summed over "
                            "the runs (a busy two-core machine; --jobs 2 halves it)"
                            % (walls["gs"] / 60, walls["ls"]))
    fl = meta.setdefault("failures", {}).setdefault(a.section, {})
    for c in configs:
        fc = fl.setdefault(c, {})
        for p in progs:
            fc.pop(p.name, None)
        fc.update(failures.get(c, {}))
    with open(metaf, "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")
    with open(a.page, "w") as f:
        f.write(page(rows, meta))
    note("wrote %s, %s" % (os.path.relpath(a.page, ROOT), os.path.relpath(a.csv, ROOT)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
