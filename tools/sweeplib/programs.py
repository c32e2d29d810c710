"""The papers' programs, built from a user's checkout of each public suite
and run unmodified on Lockstep (docs/suites.md).

* A toolkit shim (STATE/toolkit) stands in for the CUDA toolkit when the
  suite's own Makefile runs: its nvcc is the real one with `-cudart shared
  -gencode arch=compute_75,code=compute_75` in place of the Makefile's
  architecture and runtime options; its libcudart.so brings the C++
  runtime nvcc 13's launch stubs need when a Makefile links with gcc; its
  libcuda.so is the driver stub, linked only when a program calls it.
  Nothing in the suite's tree is changed but the objects its Makefile
  writes.
* build: `make -B -C DIR [TARGET] VARS` per program, the binary copied to
  STATE/bin/PROGRAM with its SHA-256; STATE/state.json records the tree,
  its commit and every build and run.
* run: `lockstep exec` in a fresh run directory, then the program's check
  (its own output, or its outputs against the functional-mode run's).
* sweep points: a spec's `programs` axis becomes one point per program,
  cached under a key of the simulator, the binary, the inputs, the mode and
  the effective configuration, as workload points are."""
import concurrent.futures
import fcntl
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import time

from . import suites as sl

STATE_VERSION = 1
TAIL_LINES = 20
NVCC_GENCODE = "arch=compute_75,code=compute_75"

# nvcc options the shim drops: the Makefile's target architectures and
# runtime choice (nvcc 13 rejects sm_1x/sm_2x; Lockstep needs the shared
# runtime and sm_75 PTX), and the long-gone -deviceemu.
_NVCC_WRAPPER = r"""#!/bin/bash
# Lockstep's nvcc shim (tools/sweeplib/programs.py): the real nvcc with
# -cudart shared and sm_75 PTX in place of the caller's architecture and
# runtime options, and whole-program compilation in place of relocatable
# device code (Lockstep loads no -rdc fat binaries); LOCKSTEP_NVCC_COMPAT
# names a header included first.
args=()
skip=0
for a in "$@"; do
  if [ "$skip" = 1 ]; then skip=0; continue; fi
  case "$a" in
    -arch|--gpu-architecture|-gencode|--generate-code|-code|--gpu-code|-cudart|--cudart) skip=1 ;;
    -arch=*|--gpu-architecture=*|-gencode=*|--generate-code=*|-code=*|--gpu-code=*) ;;
    -cudart=*|--cudart=*|-deviceemu|--device-emulation) ;;
    -rdc|--relocatable-device-code) skip=1 ;;
    -rdc=*|--relocatable-device-code=*) ;;
    -dc|--device-c) args+=(-c) ;;
    -arch*|-gencode*) ;;
    *) args+=("$a") ;;
  esac
done
compat=()
if [ -n "${LOCKSTEP_NVCC_COMPAT:-}" ]; then compat=(-include "$LOCKSTEP_NVCC_COMPAT"); fi
exec "@NVCC@" "${compat[@]}" -cudart shared -gencode @GENCODE@ "${args[@]}"
"""


class ProgramError(Exception):
    """A harness error the user must act on (no tree, not built, no nvcc)."""


# --- files and digests ------------------------------------------------------
def sha256_file(path):
    """Hex SHA-256 of a file."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def sha256_text(text):
    """Hex SHA-256 of a string."""
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def path_digest(path):
    """What identifies an input path: a file's SHA-256, a directory's
    sorted names and sizes, or None when it does not exist."""
    if os.path.isfile(path):
        return sha256_file(path)
    if os.path.isdir(path):
        items = []
        for d, dirs, files in os.walk(path):
            dirs.sort()
            for f in sorted(files):
                p = os.path.join(d, f)
                items.append(f"{os.path.relpath(p, path)}:{os.path.getsize(p)}")
        return sha256_text("\n".join(items))
    return None


def write_json(path, obj):
    """Writes obj as indented JSON, atomically."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = f"{path}.{os.getpid()}.{id(obj)}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=1, sort_keys=False)
        f.write("\n")
    os.replace(tmp, path)


def read_json(path, default=None):
    """The JSON at path, or default when absent or unreadable."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def tail(text, n=TAIL_LINES):
    """The last n lines of text."""
    return "\n".join(text.rstrip("\n").splitlines()[-n:])


# --- the toolkit shim -------------------------------------------------------
def find_nvcc():
    """The real nvcc: $NVCC, else nvcc on PATH, else /usr/local/cuda/bin/nvcc;
    None when there is none."""
    for c in (os.environ.get("NVCC"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.realpath(c)
    return None


def make_toolkit(tk, nvcc):
    """Writes the toolkit shim at tk for the real nvcc (kept when one for
    the same nvcc and wrapper is there: builds of two suites share it);
    returns tk."""
    cuda = os.path.dirname(os.path.dirname(nvcc))
    stamp = sha256_text(nvcc + _NVCC_WRAPPER)
    if read_json(os.path.join(tk, "stamp.json"), {}).get("stamp") == stamp:
        return tk
    if os.path.isdir(tk):
        shutil.rmtree(tk)
    os.makedirs(os.path.join(tk, "bin"))
    os.makedirs(os.path.join(tk, "lib64"))
    for e in sorted(os.listdir(cuda)):
        if e not in ("bin", "lib64", "lib"):
            os.symlink(os.path.join(cuda, e), os.path.join(tk, e))
    for e in sorted(os.listdir(os.path.join(cuda, "bin"))):
        if e != "nvcc":
            os.symlink(os.path.join(cuda, "bin", e), os.path.join(tk, "bin", e))
    wrapper = os.path.join(tk, "bin", "nvcc")
    with open(wrapper, "w", encoding="utf-8") as f:
        f.write(_NVCC_WRAPPER.replace("@NVCC@", nvcc).replace("@GENCODE@", NVCC_GENCODE))
    os.chmod(wrapper, 0o755)
    libdir = os.path.join(cuda, "lib64")
    if not os.path.isdir(libdir):
        libdir = os.path.join(cuda, "lib")
    for e in sorted(os.listdir(libdir)):
        if e in ("libcudart.so", "libcuda.so", "libcudart_static.a", "stubs"):
            continue
        os.symlink(os.path.join(libdir, e), os.path.join(tk, "lib64", e))
    os.symlink(os.path.join(libdir, "stubs"), os.path.join(tk, "lib64", "stubs"))
    scripts = {
        "libcudart.so": f"INPUT({libdir}/libcudart.so.13 AS_NEEDED(-lstdc++))\n",
        "libcuda.so": f"INPUT(AS_NEEDED({libdir}/stubs/libcuda.so))\n",
    }
    for name, text in scripts.items():
        with open(os.path.join(tk, "lib64", name), "w", encoding="utf-8") as f:
            f.write("/* GNU ld script: Lockstep's toolkit shim (docs/suites.md) */\n" + text)
    os.symlink("lib64", os.path.join(tk, "lib"))
    write_json(os.path.join(tk, "stamp.json"), {"stamp": stamp, "nvcc": nvcc})
    return tk


def compat_header():
    """The CUDA 12 compatibility header (tools/suites/compat/)."""
    return os.path.join(sl.SUITES_DIR, "compat", "lockstep_cuda12_compat.h")


# --- state ------------------------------------------------------------------
class Ctx:
    """One suite's local state: STATE = SUITES/NAME (state.json, bin/,
    logs/, inputs/, runs/, refs/)."""

    def __init__(self, suite, suites_dir):
        self.suite = suite
        self.suites_dir = os.path.abspath(suites_dir)
        self.dir = os.path.join(self.suites_dir, suite.name)
        self.state = read_json(self.path, None) or {}

    @property
    def path(self):
        """STATE/state.json."""
        return os.path.join(self.dir, "state.json")

    def save(self):
        """Writes state.json."""
        write_json(self.path, self.state)

    @property
    def built(self):
        """True when `suite.py build` has recorded a tree for this suite."""
        return bool(self.state.get("root"))

    def values(self, prog=None, inp=None):
        """The placeholder values of a program's templates."""
        v = {"root": self.state.get("tree"), "data": self.state.get("data"),
             "cuda": os.path.join(self.suites_dir, "toolkit"),
             "bindir": os.path.join(self.dir, "make-bin"),
             "objdir": os.path.join(self.dir, "make-obj"),
             "suite": self.suite.name, "tools": sl.TOOLS}
        if prog is not None:
            v["program"] = prog.name
        if prog is not None and inp is not None:
            v["gen"] = os.path.join(self.dir, "inputs", f"{prog.name}.{inp}")
        return v

    def build_rec(self, name):
        """The recorded build of a program ({} when none)."""
        return self.state.get("programs", {}).get(name, {})


def locate_tree(suite, root):
    """(tree, message): the suite's tree under root (root/subdir, or root
    itself), or (None, why not)."""
    root = os.path.abspath(root)
    cands = [os.path.join(root, suite.subdir), root] if suite.subdir else [root]
    for t in cands:
        if not suite.marker or os.path.exists(os.path.join(t, suite.marker)):
            return t, None
    return None, (f"{root}: not a checkout of {suite.title} (no {suite.marker}"
                  + (f" under it or under {suite.subdir}" if suite.subdir else "")
                  + f"; the descriptor names {suite.repository or 'the suite'})")


def git_commit(path):
    """(commit, modified, absent) of the git work tree at path: modified
    when a tracked file under path differs from the commit, absent the
    number of tracked files missing (a snapshot without its large files);
    (None, False, 0) outside git."""
    try:
        c = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], capture_output=True,
                           text=True, timeout=30)
        if c.returncode:
            return None, False, 0
        d = subprocess.run(["git", "-C", path, "status", "--porcelain", "-uno", "--", "."],
                           capture_output=True, text=True, timeout=60)
        lines = d.stdout.splitlines()
        absent = sum(ln.startswith(" D") for ln in lines)
        return c.stdout.strip(), len(lines) > absent, absent
    except (OSError, subprocess.TimeoutExpired):
        return None, False, 0


def git_toplevel(path):
    """The top of the git work tree holding path, or None."""
    try:
        r = subprocess.run(["git", "-C", path, "rev-parse", "--show-toplevel"],
                           capture_output=True, text=True, timeout=30)
        return r.stdout.strip() if r.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired):
        return None


# --- build ------------------------------------------------------------------
def _first_error(log):
    """The line of a build log that says why it failed."""
    pats = (r"\berror\b", r"fatal", r"undefined reference", r"No such file", r"\*\*\*", r"Error \d")
    for pat in pats:
        for line in log.splitlines():
            if re.search(pat, line):
                return line.strip()[:300]
    return (log.strip().splitlines() or ["(no output)"])[-1][:300]


def _make_cmd(ctx, prog):
    """(argv, env) of the suite's own make for prog."""
    v = ctx.values(prog)
    d = os.path.join(ctx.state["tree"], prog.dir)
    argv = ["make", "-B", "-C", d]
    if prog.makefile:
        argv += ["-f", sl.expand(prog.makefile, v)]
    if prog.target:
        argv.append(prog.target)
    allvars = dict(ctx.suite.build_vars)
    allvars.update(prog.vars)
    argv += [f"{k}={sl.expand(x, v)}" for k, x in allvars.items()]
    env = dict(os.environ)
    env.update({k: sl.expand(x, v) for k, x in ctx.suite.build_env.items()})
    env["PATH"] = os.path.join(v["cuda"], "bin") + os.pathsep + env.get("PATH", "")
    for k in ("CUDA_DIR", "CUDA_INSTALL_PATH", "CUDA_PATH", "CUDA_HOME"):
        env[k] = v["cuda"]
    env.pop("LOCKSTEP_NVCC_COMPAT", None)
    if prog.compat:
        env["LOCKSTEP_NVCC_COMPAT"] = compat_header()
    env["MAKEFLAGS"] = ""
    return argv, env


def _cmake_cmds(ctx, prog):
    """([configure argv, build argv], env) of the suite's own CMake project
    in prog.dir, built in STATE/make-obj/PROGRAM with the shim's nvcc and
    the shared runtime."""
    argv, env = _make_cmd(ctx, prog)
    v = ctx.values(prog)
    obj = os.path.join(v["objdir"], prog.name)
    d = os.path.join(ctx.state["tree"], prog.dir)
    allvars = dict(ctx.suite.build_vars)
    allvars.update(prog.vars)
    conf = ["cmake", "-S", d, "-B", obj, "-DCMAKE_BUILD_TYPE=Release",
            f"-DCMAKE_CUDA_COMPILER={v['cuda']}/bin/nvcc", f"-DCUDAToolkit_ROOT={v['cuda']}",
            "-DCMAKE_CUDA_RUNTIME_LIBRARY=Shared"]
    conf += [f"-D{k}={sl.expand(x, v)}" for k, x in allvars.items()]
    bld = ["cmake", "--build", obj, "-j", "1"] + (["--target", prog.target] if prog.target
                                                  else [])
    return [conf, bld], env


def _build_group(ctx, progs, timeout):
    """Runs one make (or CMake configure and build) for programs sharing a
    directory, target and variables; returns {name: build record}."""
    prog = progs[0]
    if ctx.suite.tool == "cmake":
        cmds, env = _cmake_cmds(ctx, prog)
        shutil.rmtree(cmds[0][cmds[0].index("-B") + 1], ignore_errors=True)
    else:
        argv, env = _make_cmd(ctx, prog)
        cmds = [argv]
    logdir = os.path.join(ctx.dir, "logs")
    os.makedirs(logdir, exist_ok=True)
    log = os.path.join(logdir, f"{prog.name}.build.log")
    t0 = time.monotonic()
    out, rc = "", 0
    for argv in cmds:
        out += "$ " + shlex.join(argv) + "\n"
        try:
            r = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=timeout)
            out, rc = out + r.stdout.decode("utf-8", "replace"), r.returncode
        except subprocess.TimeoutExpired as e:
            out, rc = out + (e.stdout or b"").decode("utf-8", "replace") + \
                f"\n(timed out after {timeout} s)\n", -1
        if rc:
            break
    argv = cmds[-1]
    with open(log, "w", encoding="utf-8") as f:
        f.write(out)
    recs = {}
    for p in progs:
        binpath = os.path.join(ctx.state["tree"], p.dir, sl.expand(p.binary, ctx.values(p)))
        rec = {"log": log, "command": " && ".join(shlex.join(c) for c in cmds),
               "compat": p.compat,
               "seconds": round(time.monotonic() - t0, 1)}
        if os.path.isfile(binpath) and (rc == 0 or len(progs) > 1):
            dst = os.path.join(ctx.dir, "bin", p.name)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(binpath, dst)
            rec.update(build="ok", binary=dst, sha256=sha256_file(dst))
        else:
            why = _first_error(out) if rc else f"make succeeded but {binpath} is absent"
            rec.update(build="fail", msg=why)
        recs[p.name] = rec
    return recs


def build(ctx, root, data, names=None, jobs=1, binaries=None, timeout=1800, log=None):
    """Builds the programs names (None: all the descriptor can build) of the
    suite from the tree at root (or takes them from the directory binaries);
    records everything in the state. Returns {name: record}."""
    suite = ctx.suite
    tree, why = locate_tree(suite, root)
    if tree is None:
        raise ProgramError(why)
    commit, dirty, absent = git_commit(tree)
    data = os.path.abspath(data) if data else os.path.join(tree, suite.data)
    data_commit = None
    if os.path.isdir(data) and git_toplevel(data) not in (None, git_toplevel(tree)):
        data_commit = git_commit(data)[0]
    ctx.state.update({"version": STATE_VERSION, "suite": suite.name,
                      "data_commit": data_commit,
                      "descriptor": os.path.abspath(suite.path), "root": os.path.abspath(root),
                      "tree": tree, "data": data, "commit": commit, "dirty": dirty,
                      "absent": absent,
                      "recorded_commit": suite.commit})
    ctx.state.setdefault("programs", {})
    progs = [p for p in suite.programs.values() if p.status != "unavailable"]
    if names:
        unknown = [n for n in names if n not in suite.programs]
        if unknown:
            raise ProgramError(f"{suite.name}: no program {unknown[0]} (programs: "
                               + ", ".join(suite.programs) + ")")
        progs = [p for p in progs if p.name in names]
    recs = {}
    if binaries:
        for p in progs:
            src = os.path.join(binaries, p.name)
            if os.path.isfile(src):
                dst = os.path.join(ctx.dir, "bin", p.name)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy2(src, dst)
                recs[p.name] = {"build": "ok", "binary": dst, "sha256": sha256_file(dst),
                                "command": f"taken from {os.path.abspath(src)}"}
            else:
                recs[p.name] = {"build": "fail", "msg": f"no prebuilt binary {src}"}
    else:
        nvcc = find_nvcc()
        if not nvcc:
            raise ProgramError("no nvcc (set NVCC, or put it on PATH); or take binaries "
                               "built elsewhere with --binaries DIR")
        make_toolkit(os.path.join(ctx.suites_dir, "toolkit"), nvcc)
        os.makedirs(ctx.values()["bindir"], exist_ok=True)
        groups = {}
        for p in progs:
            k = (p.dir, p.makefile, p.target, tuple(sorted(p.vars.items())), p.compat)
            groups.setdefault(k, []).append(p)
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
            futs = [ex.submit(_build_group, ctx, g, timeout) for g in groups.values()]
            for f in concurrent.futures.as_completed(futs):
                r = f.result()
                recs.update(r)
                if log:
                    for n, rec in r.items():
                        log(f"{suite.name}/{n}: build {rec['build']}"
                            + (f": {rec['msg']}" if rec.get("msg") else ""))
    ctx.state["programs"].update(recs)
    ctx.save()
    return recs


# --- running one program ----------------------------------------------------
def run_spec(ctx, prog, inp):
    """The JSON-able description of one program run (what a sweep point
    carries): binary, expanded args, stdin, links, generator, check."""
    rec = ctx.build_rec(prog.name)
    if rec.get("build") != "ok":
        raise ProgramError(f"{prog.label}: not built"
                           + (f" ({rec['msg']})" if rec.get("msg") else
                              f" (python3 tools/suite.py build {ctx.suite.name} --root PATH)"))
    i = prog.inputs[inp]
    v = ctx.values(prog, inp)
    gen = None
    if i.gen:
        gen = {"cmd": [sl.expand(a, v) for a in i.gen], "dir": v["gen"]}
    spec = {"suite": ctx.suite.name, "program": prog.name, "label": prog.label,
            "input": inp, "binary": rec["binary"], "sha256": rec["sha256"],
            "args": [sl.expand(a, v) for a in i.args],
            "stdin": sl.expand(i.stdin, v) if i.stdin is not None else None,
            "links": {k: sl.expand(x, v) for k, x in i.links.items()},
            "cwd": i.cwd, "gen": gen, "check": prog.check.as_dict(),
            "timeout": prog.timeout or ctx.suite.timeout,
            "tree": {"commit": ctx.state.get("commit"), "dirty": ctx.state.get("dirty"),
                     "absent": ctx.state.get("absent", 0),
                     "data_commit": ctx.state.get("data_commit"),
                     "recorded": ctx.suite.commit, "repository": ctx.suite.repository}}
    return spec


def ensure_inputs(spec):
    """Runs the input generator when its output is not there yet; returns
    None, or a message saying which input is missing."""
    g = spec.get("gen")
    if g:
        os.makedirs(os.path.dirname(g["dir"]), exist_ok=True)
        with open(g["dir"] + ".lock", "w", encoding="utf-8") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)     # points of one input run at once
            err = _generate(g)
        if err:
            return err
    for a in input_paths(spec):
        if not os.path.exists(a):
            return f"input {a} is missing"
    return None


def _generate(g):
    """Runs generator g into its directory unless its stamp says it has
    (the caller holds the directory's lock); returns None or a message."""
    if g:
        stamp = os.path.join(g["dir"], ".lockstep-gen")
        want = sha256_text(json.dumps(g["cmd"]))
        have = ""
        if os.path.isfile(stamp):
            with open(stamp, encoding="utf-8") as f:
                have = f.read()
        if have != want:
            if os.path.isdir(g["dir"]):
                shutil.rmtree(g["dir"])
            os.makedirs(g["dir"])
            r = subprocess.run(g["cmd"], cwd=g["dir"], capture_output=True, text=True)
            if r.returncode:
                return (f"input generator failed (exit {r.returncode}): {shlex.join(g['cmd'])}: "
                        + tail(r.stderr or r.stdout, 3))
            with open(stamp, "w", encoding="utf-8") as f:
                f.write(want)
    return None


def input_paths(spec):
    """The absolute paths among the run's arguments (a comma-separated
    list of them counts too: Parboil's -i A,B) and links."""
    out = []
    for a in spec["args"]:
        parts = a.split(",")
        if all(os.path.isabs(x) for x in parts):
            out += parts
    return out + sorted(spec["links"].values())


def inputs_digest(spec):
    """A digest of every input path the run names (files by content)."""
    parts = []
    for a in input_paths(spec):
        parts.append(f"{a}={path_digest(a)}")
    if spec.get("gen"):
        parts.append("gen=" + json.dumps(spec["gen"]["cmd"]))
        if os.path.isfile(spec["gen"]["cmd"][0]):
            parts.append("genprog=" + sha256_file(spec["gen"]["cmd"][0]))
    return sha256_text("\n".join(parts))


COPY_LIMIT = 64 << 20


def place(src, dst):
    """Puts an input where a program opens it by a relative path: a copy
    (programs write into their data directories: the CUDA samples' dxtc
    rewrites data/teapot512_std.dds), or a symbolic link when it is larger
    than COPY_LIMIT."""
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    size = 0
    if os.path.isdir(src):
        for d, _, files in os.walk(src, followlinks=True):
            size += sum(os.path.getsize(os.path.join(d, f)) for f in files)
    elif os.path.isfile(src):
        size = os.path.getsize(src)
    if size > COPY_LIMIT:
        os.symlink(src, dst)
    elif os.path.isdir(src):
        shutil.copytree(src, dst, symlinks=False)
    elif os.path.exists(src):
        shutil.copy(src, dst)


def exec_argv(lockstep, mode, config, sets):
    """`lockstep exec` and its options (before --stats-json and --)."""
    argv = [os.path.abspath(lockstep), "exec", "--mode", mode]
    if config and config != "builtin":
        argv += ["--config", os.path.abspath(config) if os.path.isfile(config) else config]
    for k, v in sets:
        argv += ["--set", f"{k}={v}"]
    return argv


# Lines every comparison drops: the device name Lockstep reports names the
# mode and configuration (cudaGetDeviceProperties), which differ by design.
ALWAYS_IGNORE = (r"Lockstep simulated GPU",)


def filtered_stdout(text, ignore):
    """stdout with the lines matching any ignore regex (or ALWAYS_IGNORE)
    removed."""
    rx = [re.compile(p) for p in list(ignore) + list(ALWAYS_IGNORE)]
    return "\n".join(ln for ln in text.splitlines() if not any(r.search(ln) for r in rx))


def memory_digest(stats):
    """The memory digests after every kernel launch, in order, as one
    digest (None without statistics)."""
    if not isinstance(stats, dict):
        return None
    return sha256_text(" ".join(str(ln.get("mem_digest")) for ln in stats.get("launches", [])))


def judge(check, rc, stdout, cwd, stats, ref):
    """(status, message, digests) of a finished run: 'fail' when its own
    check or the comparison with the reference digests fails, 'error' when
    it exited non-zero for another reason, else 'pass'."""
    digests = {}
    for item in check["compare"]:
        if item == "stdout":
            digests[item] = sha256_text(filtered_stdout(stdout, check["ignore"]))
        elif item == "memory":
            digests[item] = memory_digest(stats)
        else:
            p = os.path.join(cwd, item)
            digests[item] = sha256_file(p) if os.path.isfile(p) else None
    for rx in check["reject"]:
        m = re.search(rx, stdout, re.M)
        if m:
            return "fail", f"output has {m.group(0)!r} (check.reject)", digests
    for rx in check["expect"]:
        if not re.search(rx, stdout, re.M):
            return "fail", f"output lacks {rx!r} (check.expect)", digests
    if rc != 0:
        return "error", f"exit {rc}", digests
    for item, d in digests.items():
        if d is None:
            what = "statistics" if item == "memory" else item
            return "fail", f"the program wrote no {what}", digests
        if ref is not None and ref.get(item) is not None and ref[item] != d:
            what = ("memory after its kernels" if item == "memory" else item)
            return "fail", f"{what} differs from the functional-mode run's", digests
    return "pass", "", digests


def _error_line(text):
    """The line of a run's stderr/stdout that best says what went wrong."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for pat in (r"lockstep[^:]*:.*(error|not supported|fault|deadlock|mismatch|refus|budget)",
                r"\bcuda\w*Error\w*|\berror\b", r"fail|abort|Segmentation|Assertion"):
        for ln in lines:
            if re.search(pat, ln, re.I):
                return ln[:300]
    return lines[-1][:300] if lines else ""


def run_once(spec, argv, run_dir, stats_path, ref=None, timeout=None):
    """Runs the program of spec under `lockstep exec` (argv: exec_argv)
    in a fresh run_dir; judges the result against ref (the functional
    run's digests, or None). Returns a result dict: status, msg, rc,
    digests, wall_s, stats (the JSON, relabelled: workload = suite/program,
    pass = the check's verdict)."""
    if os.path.isdir(run_dir):
        shutil.rmtree(run_dir)
    os.makedirs(run_dir)
    missing = ensure_inputs(spec)
    if missing:
        return {"status": "error", "msg": missing, "rc": None, "digests": {},
                "wall_s": 0.0, "stats": None, "stderr_tail": ""}
    for name, target in spec["links"].items():
        place(target, os.path.join(run_dir, name))
    cwd = os.path.join(run_dir, spec.get("cwd") or "")
    os.makedirs(cwd, exist_ok=True)
    tmp = os.path.join(run_dir, ".stats.json")
    full = argv + ["--stats-json", tmp, "--quiet", "--", spec["binary"], *spec["args"]]
    t0 = time.monotonic()
    stdin = spec["stdin"].encode() if spec["stdin"] is not None else None
    rc, out, err, msg = None, b"", b"", ""
    try:
        r = subprocess.run(full, cwd=cwd, input=stdin,
                           stdin=None if stdin is not None else subprocess.DEVNULL,
                           capture_output=True, timeout=timeout or spec.get("timeout"))
        rc, out, err = r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired as e:
        out, err = e.stdout or b"", e.stderr or b""
        msg = f"timed out after {timeout or spec.get('timeout'):g} s"
    except OSError as e:
        msg = f"cannot run: {e.strerror}"
    wall = time.monotonic() - t0
    stdout = out.decode("utf-8", "replace")
    stderr = err.decode("utf-8", "replace")
    with open(os.path.join(run_dir, ".stdout"), "w", encoding="utf-8") as f:
        f.write(stdout)
    with open(os.path.join(run_dir, ".stderr"), "w", encoding="utf-8") as f:
        f.write(stderr)
    st = read_json(tmp)
    if msg:
        status, digests = "error", {}
    else:
        status, msg, digests = judge(spec["check"], rc, stdout, cwd, st, ref)
        sim_err = next((ln.strip() for ln in stderr.splitlines()
                        if ln.startswith("lockstep cudart:") and "LS_ERR" in ln), None)
        if status == "fail" and rc != 0 and sim_err:
            # a kernel the simulator refused or stopped, not a wrong answer
            status, msg = "error", f"exit {rc}: {sim_err[:250]}"
        if status == "pass" and not isinstance(st, dict):
            status, msg = "error", "no statistics written (did the program use CUDA?)"
        elif status == "pass" and st.get("pass") is not True:
            status, msg = "error", st.get("msg") or "a kernel launch failed"
        if status == "error" and msg.startswith("exit"):
            why = _error_line(stderr + "\n" + stdout)
            msg = f"{msg}: {why}" if why else msg
    if isinstance(st, dict):
        st["workload"] = spec["label"]
        st["size"] = spec["input"]
        st["pass"] = status == "pass"
        st["msg"] = msg
        st["program"] = {"suite": spec["suite"], "name": spec["program"],
                         "input": spec["input"], "args": spec["args"],
                         "binary_sha256": spec["sha256"], "digests": digests,
                         "rc": rc}
        write_json(stats_path, st)
    return {"status": status, "msg": msg, "rc": rc, "digests": digests,
            "wall_s": round(wall, 3), "stats": st if isinstance(st, dict) else None,
            "stderr_tail": tail(stderr)}


def ref_key(spec, config, sets, build_id):
    """The key of a program's functional-mode reference under a config."""
    cfg = config
    if config and os.path.isfile(config):
        cfg = sha256_file(config)
    blob = json.dumps([STATE_VERSION, build_id, spec["sha256"], spec["args"], spec["stdin"],
                       inputs_digest(spec), spec["check"], list(ALWAYS_IGNORE), cfg,
                       list(map(list, sets))])
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


def reference(spec, lockstep, config, sets, refdir, build_id, timeout=None):
    """The functional-mode reference of spec under config/sets, cached in
    refdir: {status, msg, digests, unstable}. The program runs twice; an
    output that differs between the two (uninitialised host memory copied
    to the device, a time-seeded input) is unstable and not compared (its
    digest is None)."""
    key = ref_key(spec, config, sets, build_id)
    path = os.path.join(refdir, key + ".json")
    ref = read_json(path)
    if ref is not None:
        return ref
    argv = exec_argv(lockstep, "functional", config, sets)
    runs = []
    for i in (1, 2):
        run_dir = os.path.join(refdir, f"{key}.run{i}")
        r = run_once(spec, argv, run_dir, os.path.join(run_dir, "stats.json"), None, timeout)
        if r["status"] != "pass":
            return {"status": r["status"], "msg": r["msg"], "digests": {}, "unstable": []}
        runs.append(r["digests"])
    unstable = sorted(k for k in runs[0] if runs[0][k] != runs[1].get(k))
    ref = {"status": "pass", "msg": "", "unstable": unstable,
           "digests": {k: (None if k in unstable else d) for k, d in runs[0].items()}}
    write_json(path, ref)
    for i in (1, 2):
        shutil.rmtree(os.path.join(refdir, f"{key}.run{i}"), ignore_errors=True)
    return ref


def run_checked(spec, lockstep, mode, config, sets, run_dir, stats_path, refdir, build_id,
                timeout=None):
    """One run of spec in mode, compared with the functional-mode reference
    when the check compares outputs and mode is timing."""
    ref = None
    if mode != "functional" and spec["check"]["compare"]:
        ref = reference(spec, lockstep, config, sets, refdir, build_id, timeout)
        if ref["status"] != "pass":
            # judged on its own check; a pass there still lacks its reference
            r = run_once(spec, exec_argv(lockstep, mode, config, sets), run_dir, stats_path,
                         None, timeout)
            if r["status"] == "pass":
                r.update(status="error", msg=f"functional-mode reference: {ref['status']}: "
                         f"{ref['msg']}")
            return r
        r = run_once(spec, exec_argv(lockstep, mode, config, sets), run_dir, stats_path,
                     ref["digests"], timeout)
        r["unstable"] = ref.get("unstable", [])
        if r["unstable"] and isinstance(r.get("stats"), dict):
            r["stats"]["program"]["unstable"] = r["unstable"]
            write_json(stats_path, r["stats"])
        return r
    return run_once(spec, exec_argv(lockstep, mode, config, sets), run_dir, stats_path,
                    None, timeout)


# --- the sweep's programs axis ---------------------------------------------
def default_suites_dir(repo_root):
    """Where built suites live: $LOCKSTEP_SUITES, else build/suites."""
    return os.environ.get("LOCKSTEP_SUITES") or os.path.join(repo_root, "build", "suites")


def load_built(name, suites_dir):
    """The Ctx of a suite name: the descriptor its build recorded (a suite
    of one's own, given to `suite.py build` as a path), else the shipped
    one."""
    st = read_json(os.path.join(suites_dir, name, "state.json"), {})
    desc = st.get("descriptor")
    if desc and os.path.isfile(desc):
        return Ctx(sl.load(desc), suites_dir)
    return Ctx(sl.load(name), suites_dir)


def _token_programs(tok, suites_dir):
    """[(ctx, program)] a spec token names, and an error message or None.
    Tokens: suite:NAME (every program of a built suite), suite:NAME/PROG,
    paper:TABLE (every program of any built shipped suite the table names)."""
    kind, sep, rest = tok.partition(":")
    if kind == "suite" and sep and rest:
        name, _, prog = rest.partition("/")
        try:
            ctx = load_built(name, suites_dir)
        except sl.SuiteError as e:
            return None, str(e)
        if not ctx.built:
            return None, (f"suite '{name}' is not built here ({ctx.path} absent): "
                          f"python3 tools/suite.py build {name} --root PATH (docs/suites.md)")
        if prog:
            if prog not in ctx.suite.programs:
                return None, (f"suite '{name}' has no program '{prog}' (programs: "
                              + ", ".join(ctx.suite.programs) + ")")
            return [(ctx, ctx.suite.programs[prog])], None
        return [(ctx, p) for p in ctx.suite.programs.values()], None
    if kind == "paper" and sep and rest:
        if rest not in sl.PAPER_TABLES:
            return None, f"unknown paper table '{rest}' (tables: " + ", ".join(sl.PAPER_TABLES) + ")"
        out = []
        for name in sl.names():
            ctx = Ctx(sl.load(name), suites_dir)
            if ctx.built:
                out += [(ctx, p) for p in ctx.suite.programs.values()
                        if any(t == rest for t, _ in p.papers)]
        return out, None
    return None, f"'{tok}' is not suite:NAME, suite:NAME/PROGRAM or paper:TABLE"


def expand_programs(tokens, suites_dir, experiment, forced_input=None):
    """The runs a spec's programs axis names: ([(ctx, program, input, run
    spec)], [(label, why skipped)], error or None). A program that did not
    build, has no such input or whose input is missing is skipped (named,
    with the reason) rather than failing the sweep."""
    runs, skipped, seen = [], [], set()
    for tok in tokens:
        found, err = _token_programs(tok, suites_dir)
        if err:
            return None, None, err
        for ctx, prog in found:
            if prog.label in seen:
                continue
            seen.add(prog.label)
            if prog.status == "unavailable":
                skipped.append((prog.label, "not in a public suite"))
                continue
            inp = prog.input_for(experiment, forced_input)
            if inp not in prog.inputs:
                skipped.append((prog.label, f"no input '{forced_input}'"))
                continue
            try:
                spec = run_spec(ctx, prog, inp)
            except ProgramError as e:
                skipped.append((prog.label, str(e)))
                continue
            absent = [] if spec["gen"] else [a for a in input_paths(spec)
                                             if not os.path.exists(a)]
            if absent:
                skipped.append((prog.label, f"input {absent[0]} is missing"))
                continue
            runs.append((ctx, prog, inp, spec))
    return runs, skipped, None


def point_key(build_id, spec, mode, dump):
    """The cache key of a program point (20 hex digits)."""
    blob = json.dumps(["program", 1, build_id, spec["label"], spec["input"], spec["sha256"],
                       spec["args"], spec["stdin"], inputs_digest(spec), spec["check"],
                       mode, dump])
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


def command_line(p, stats_path="FILE"):
    """The shell command of a program point, as one would type it (in a
    fresh directory)."""
    s = p["program"]
    cmd = shlex.join(p["argv"] + ["--stats-json", stats_path, "--", s["binary"], *s["args"]])
    if s["stdin"] is not None:
        cmd = f"echo {shlex.quote(s['stdin'])} | {cmd}"
    return cmd


def run_point(p, out, stats_tmp, timeout):
    """Runs a sweep's program point into stats_tmp; returns run_once's
    result. Its run directory (OUT/runs/KEY) is removed when it passes."""
    run_dir = os.path.join(out, "runs", p["key"])
    r = run_checked(p["program"], p["argv"][0], p["mode"], p["config"], p["sets"], run_dir,
                    stats_tmp, os.path.join(out, "refs"), p["build"], timeout)
    if r["status"] == "pass":
        shutil.rmtree(run_dir, ignore_errors=True)
    return r
