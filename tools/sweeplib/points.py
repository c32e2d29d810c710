"""Grid expansion and cache keys: a Spec and the simulator become the list
of points (one `lockstep run` each), every point keyed by what decides its
result: the simulator build, workload, size, seed, mode and the effective
configuration (`lockstep config --dump` with its comments stripped, so a
comment or a key order in a config file does not change the key)."""
import hashlib
import itertools
import json
import os
import re
import shlex
import subprocess

from . import programs as progs
from .spec import SpecError

KEY_VERSION = 1


class SweepError(Exception):
    """Anything that stops a sweep before its points run (no simulator,
    a bad output directory, ...)."""


class Sim:
    """The lockstep binary: its build id (SHA-256 of the file) and the
    queries a sweep makes of it."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        if not os.path.isfile(self.path) or not os.access(self.path, os.X_OK):
            raise SweepError(f"{path}: no simulator there (build it with make, or "
                             "name one with --lockstep)")
        self.build_id = file_sha256(self.path)
        self._dumps = {}

    def _run(self, *args):
        p = subprocess.run([self.path, *args], stdin=subprocess.DEVNULL,
                           capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr.strip()

    def workloads(self):
        """Every workload name, in registry order."""
        rc, out, err = self._run("list", "workloads")
        if rc:
            raise SweepError(f"{self.path} list workloads: exit {rc}: {err}")
        return out.split()

    def category(self, cat):
        """(names, None) of @cat (cat without '@'), or (None, message)."""
        rc, out, err = self._run("list", "workloads", "@" + cat)
        return (out.split(), None) if rc == 0 else (None, err)

    def config_dump(self, config, sets):
        """(dump text, None) of the effective configuration of config with
        the --set pairs sets, or (None, lockstep's message)."""
        k = (config, tuple(sets))
        if k not in self._dumps:
            args = ["config"]
            if config != "builtin":
                args += ["--config", config_arg(config)]
            for key, v in sets:
                args += ["--set", f"{key}={v}"]
            rc, out, err = self._run(*args, "--dump")
            self._dumps[k] = (out, None) if rc == 0 else (None, err or f"exit {rc}")
        return self._dumps[k]


def file_sha256(path):
    """Hex SHA-256 of a file's bytes."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def config_arg(config):
    """The --config argument of a spec's config: a file that exists becomes
    an absolute path (a Slurm task may start elsewhere), a name stays."""
    return os.path.abspath(config) if os.path.isfile(config) else config


def normalise_dump(text):
    """`key=value` lines of a `config --dump`, comments and spacing gone."""
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        k, sep, v = line.partition("=")
        if not sep:
            raise SweepError(f"unexpected line in lockstep config --dump: {line!r}")
        out.append(f"{k.strip()}={v.strip()}")
    return "\n".join(out)


def point_key(build_id, workload, size, seed, mode, dump):
    """The cache key of one point (20 hex digits); dump is the effective
    configuration as normalise_dump gives it."""
    blob = json.dumps([KEY_VERSION, build_id, workload, size, int(seed), mode, dump])
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


def expand_workloads(spec, sim, tokens=None):
    """The workload names of the spec (or of tokens, a variant's list:
    [(token, line)]), categories expanded, each name once, in the order
    first named."""
    known = set(sim.workloads())
    out = []
    for tok, line in (spec.workloads if tokens is None else tokens):
        if tok.startswith("@"):
            names, err = sim.category(tok[1:])
            if names is None:
                raise SpecError(spec.path, line, "workloads", err)
            if not names:
                raise SpecError(spec.path, line, "workloads", f"{tok} has no workloads")
        elif tok == "all":
            names = sim.workloads()
        elif tok in known:
            names = [tok]
        else:
            raise SpecError(spec.path, line, "workloads",
                            f"unknown workload '{tok}' (lockstep list workloads)")
        out += [n for n in names if n not in out]
    return out


def combos(spec):
    """[(variant name or None, {axis: value}, [(key, value)...])] in spec
    order: variants outer, grid axes as a cross product (first axis
    slowest); the --set list is set, then the variant's, then the grid's."""
    variants = spec.variants or [(None, {})]
    keys = list(spec.grid)
    out = []
    for vname, vset in variants:
        for vals in itertools.product(*(spec.grid[k] for k in keys)):
            axes = dict(zip(keys, vals))
            sets = list(spec.set.items()) + list(vset.items()) + list(axes.items())
            out.append((vname, axes, sets))
    return out


def _dump_error(spec, config, line, sets, err):
    """A SpecError for a failed `config --dump`, at the key lockstep names."""
    m = re.search(r"key '([^']+)'", err)
    if m and "--set" in err:
        kl, kname = spec.key_line(m.group(1))
        if kl:
            return SpecError(spec.path, kl, kname, err)
    what = " ".join(f"{k}={v}" for k, v in sets)
    return SpecError(spec.path, line, "configs",
                     f"config '{config}'" + (f" with {what}" if what else "") + f": {err}")


def expand(spec, sim, suites_dir=None, skipped=None):
    """Every point of the spec as a dict: index, workload, size, seed, mode,
    config, variant, axes, sets, key, argv (the `lockstep run` command
    without --stats-json); the points of the spec's programs axis follow
    the workloads' (kind "program", the run in "program": docs/suites.md);
    the programs it cannot run are appended to skipped [(label, why)]."""
    workloads = expand_workloads(spec, sim) if spec.workloads else []
    # a variant with its own workloads runs only those (each must be one of
    # the spec's: the point order stays the spec's)
    only = {}
    for vname, toks in spec.variant_workloads.items():
        names = expand_workloads(spec, sim, toks)
        extra = [n for n in names if n not in workloads]
        if extra:
            raise SpecError(spec.path, toks[0][1] if toks else 0, "workloads",
                            f"variant '{vname}' names {extra[0]}, which is not in the "
                            "spec's workloads")
        only[vname] = set(names)
    cs = combos(spec)
    dumps = {}
    for config, line in spec.configs:
        for _, _, sets in cs:
            text, err = sim.config_dump(config, sets)
            if err is not None:
                raise _dump_error(spec, config, line, sets, err)
            dumps[(config, tuple(sets))] = normalise_dump(text)
    # a variant with its own sizes runs at those instead of the spec's
    sizes = list(spec.sizes)
    for vs in spec.variant_sizes.values():
        sizes += [x for x in vs if x not in sizes]
    points = []
    for w in workloads:
        for size in sizes:
            for seed in spec.seeds:
                for config, _ in spec.configs:
                    for vname, axes, sets in cs:
                        if vname in only and w not in only[vname]:
                            continue
                        if size not in spec.variant_sizes.get(vname, spec.sizes):
                            continue
                        dump = dumps[(config, tuple(sets))]
                        argv = [sim.path, "run", w, "--size", size, "--seed", str(seed),
                                "--mode", spec.mode]
                        if config != "builtin":
                            argv += ["--config", config_arg(config)]
                        for k, v in sets:
                            argv += ["--set", f"{k}={v}"]
                        points.append({
                            "index": len(points), "workload": w, "size": size,
                            "seed": seed, "mode": spec.mode, "config": config,
                            "variant": vname, "axes": axes, "sets": sets,
                            "key": point_key(sim.build_id, w, size, seed, spec.mode, dump),
                            "argv": argv,
                        })
    if spec.programs:
        sk = _program_points(spec, sim, suites_dir, cs, dumps, only, points)
        if skipped is not None:
            skipped.extend(sk)
    return points


def _program_points(spec, sim, suites_dir, cs, dumps, only, points):
    """Appends the program points of spec to points (programs x configs x
    variants x grid; sizes and seeds do not apply: each program runs its
    input for this sweep). Returns the skipped programs."""
    if suites_dir is None:
        suites_dir = progs.default_suites_dir(
            os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    toks = [t for t, _ in spec.programs]
    runs, skipped, err = progs.expand_programs(toks, suites_dir, spec.name, spec.program_input)
    if err:
        raise SpecError(spec.path, spec.programs[0][1], "programs", err)
    for _ctx, _prog, inp, run in runs:
        for config, _ in spec.configs:
            for vname, axes, sets in cs:
                if vname in only:
                    continue        # a variant restricted to some workloads
                dump = dumps[(config, tuple(sets))]
                points.append({
                    "index": len(points), "kind": "program", "workload": run["label"],
                    "size": inp, "seed": 0, "mode": spec.mode, "config": config,
                    "variant": vname, "axes": axes, "sets": sets,
                    "key": progs.point_key(sim.build_id, run, spec.mode, dump),
                    "argv": progs.exec_argv(sim.path, spec.mode, config, sets),
                    "program": run, "build": sim.build_id,
                })
    return skipped


def describe(p):
    """One line naming a point: `bfs default seed 1 gtx480 dws num_sms=4`."""
    parts = [p["workload"], p["size"], f"seed {p['seed']}", p["config"]]
    if p.get("variant"):
        parts.append(p["variant"])
    parts += [f"{k}={v}" for k, v in p["axes"].items()]
    return " ".join(parts)


def command_line(p, stats_path="FILE"):
    """The shell command of point p, as one would type it."""
    if p.get("kind") == "program":
        return progs.command_line(p, stats_path)
    return shlex.join(p["argv"] + ["--stats-json", stats_path])
