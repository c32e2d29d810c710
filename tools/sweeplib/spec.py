"""Sweep specs: a TOML file (docs/sweeps.md) read into a Spec.

Every error is a SpecError whose text names the spec file, the line and
the key: `experiments/x.toml:7: key 'grid.num_sms': expected a list of
values`. tomllib gives values without positions, so SpecLines finds the
line of each key in the text (tables, arrays of tables, dotted and quoted
keys; multi-line arrays and strings are skipped over)."""
import re
import tomllib

SIZES = ("small", "default", "large", "xlarge")
MODES = ("timing", "functional")
DEFAULT_METRICS = ("cycles", "ipc", "simd_util")

# top-level keys: name -> (what it holds, for messages)
TOP_KEYS = {
    "name": "the sweep's name",
    "description": "one line saying what the sweep is for",
    "out": "output directory",
    "workloads": "workload names and @categories",
    "programs": "the papers' programs: suite:NAME, suite:NAME/PROGRAM, paper:TABLE",
    "program_input": "the input every program runs (default: each program's for this sweep)",
    "sizes": "input sizes",
    "seeds": "input seeds",
    "mode": "timing or functional",
    "configs": "configurations",
    "set": "--set overrides of every point",
    "grid": "--set axes (cross product)",
    "variants": "explicit lists of --set overrides",
    "metrics": "statistics columns of the table",
    "timeout": "seconds a point may run",
}
VARIANT_KEYS = ("name", "set", "workloads", "sizes")

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_METRIC = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])?(\.[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])?)*$")
_CFGKEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")


class SpecError(Exception):
    """A bad spec: str() is `FILE:LINE: key 'KEY': what` (LINE or key left
    out when not known)."""

    def __init__(self, path, line, key, msg):
        self.path, self.line, self.key, self.msg = path, line, key, msg
        where = f"{path}:{line}" if line else f"{path}"
        what = f"key '{key}': {msg}" if key else msg
        super().__init__(f"{where}: {what}")


class SpecLines:
    """Line numbers (1-based) of the keys of a TOML text, by key path:
    ('grid', 'num_sms'), ('variants', 1, 'set'), ('name',)."""

    _HDR = re.compile(r"^\s*(\[\[|\[)\s*([^\]]*?)\s*\]\]?\s*(#.*)?$")
    _KEY = re.compile(r"""^\s*((?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)"""
                      r"""(?:\s*\.\s*(?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+))*)\s*=(.*)$""")

    def __init__(self, text):
        self.lines = {}
        table = ()
        arrays = {}            # array-of-tables name -> count so far
        depth = 0              # open brackets/braces of a multi-line value
        in_ml = None           # the quote of an open multi-line string
        for n, raw in enumerate(text.splitlines(), 1):
            if in_ml:
                if in_ml in raw:
                    in_ml = None
                continue
            if depth > 0:
                depth += self._balance(raw)
                continue
            m = self._HDR.match(raw)
            if m:
                names = self._split(m.group(2))
                if m.group(1) == "[[":
                    i = arrays.get(tuple(names), 0)
                    arrays[tuple(names)] = i + 1
                    table = tuple(names) + (i,)
                else:
                    table = tuple(names)
                self.lines.setdefault(table, n)
                continue
            m = self._KEY.match(raw)
            if not m:
                continue
            path = table + tuple(self._split(m.group(1)))
            self.lines.setdefault(path, n)
            rest = m.group(2)
            for q in ('"""', "'''"):
                if rest.count(q) == 1:
                    in_ml = q
            if not in_ml:
                depth = max(0, self._balance(rest))

    @staticmethod
    def _split(dotted):
        out = []
        for part in re.findall(r""""(?:[^"\\]|\\.)*"|'[^']*'|[^.\s]+""", dotted):
            out.append(part[1:-1] if part[0] in "\"'" else part)
        return out

    @staticmethod
    def _balance(s):
        """Open minus closed brackets of s outside strings and comments."""
        d, q = 0, None
        i = 0
        while i < len(s):
            c = s[i]
            if q:
                if c == "\\" and q == '"':
                    i += 1
                elif c == q:
                    q = None
            elif c in "\"'":
                q = c
            elif c == "#":
                break
            elif c in "[{":
                d += 1
            elif c in "]}":
                d -= 1
            i += 1
        return d

    def line(self, *path):
        """The line of path, or of its nearest enclosing key; 0 if none."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return 0


def _keyname(path):
    """('variants', 1, 'set', 'x') -> 'variants[2].set.x' (1-based, as read)."""
    out = ""
    for p in path:
        if isinstance(p, int):
            out += f"[{p + 1}]"
        else:
            out += ("." if out else "") + p
    return out


class Spec:
    """A parsed sweep spec. Members: path, name, description, out (None:
    build/sweeps/NAME), workloads [(token, line)], programs [(token, line)]
    (the papers' programs, docs/suites.md), program_input, sizes, seeds, mode,
    configs [(name, line)], set {key: str}, grid {key: [str]} (spec order),
    variants [(name, {key: str})], variant_workloads {name: [(token,
    line)]} (a variant that runs only on some of the workloads), metrics, timeout (None or seconds), and
    lines (a SpecLines) for messages that come later (lockstep's own)."""

    def __init__(self, path, text):
        self.path = path
        self.lines = SpecLines(text)
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
            msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e))
            raise SpecError(path, int(m.group(1)) if m else 0, None,
                            f"TOML syntax: {msg}") from None
        self._read(data)

    def error(self, path, msg):
        """A SpecError for key path (a tuple) with msg."""
        return SpecError(self.path, self.lines.line(*path), _keyname(path), msg)

    def _read(self, d):
        for k in d:
            if k not in TOP_KEYS:
                raise self.error((k,), "unknown key (known: " + ", ".join(TOP_KEYS) + ")")
        if "name" not in d:
            raise SpecError(self.path, 1, "name", "missing (the sweep's name)")
        self.name = self._str(d, ("name",))
        if not _NAME.match(self.name):
            raise self.error(("name",), "letters, digits, '_', '.', '-' only")
        self.description = self._str(d, ("description",)) if "description" in d else ""
        self.out = self._str(d, ("out",)) if "out" in d else None
        if "programs" in d and isinstance(d["programs"], str):
            d["programs"] = [d["programs"]]
        self.programs = ([(t, self.lines.line("programs")) for t in
                          self._strlist(d, ("programs",))] if "programs" in d else [])
        self.program_input = (self._str(d, ("program_input",)) if "program_input" in d
                              else None)
        if "workloads" not in d and not self.programs:
            raise SpecError(self.path, 1, "workloads", "missing (names or @categories; "
                            "or programs)")
        self.workloads = ([(w, self.lines.line("workloads"))
                           for w in self._strlist(d, ("workloads",))]
                          if "workloads" in d else [])
        self.sizes = self._strlist(d, ("sizes",), SIZES) if "sizes" in d else ["default"]
        self.seeds = self._seeds(d) if "seeds" in d else [1]
        self.mode = self._str(d, ("mode",), MODES) if "mode" in d else "timing"
        cl = self.lines.line("configs")
        self.configs = ([(c, cl) for c in self._strlist(d, ("configs",))]
                        if "configs" in d else [("builtin", 0)])
        self.set = self._settable(d.get("set", {}), ("set",)) if "set" in d else {}
        self.grid = self._grid(d["grid"]) if "grid" in d else {}
        self.variant_workloads = {}
        self.variant_sizes = {}     # a variant's own sizes (instead of sizes)
        self.variants = self._variants(d["variants"]) if "variants" in d else []
        self.metrics = (self._strlist(d, ("metrics",)) if "metrics" in d
                        else list(DEFAULT_METRICS))
        for m in self.metrics:
            if not _METRIC.match(m):
                raise self.error(("metrics",), f"'{m}' is not a statistics path "
                                 "(e.g. cycles, l1d.miss_rate, stall.scoreboard, "
                                 "stack_depth_hist[2]; docs/stats.md)")
        self.timeout = None
        if "timeout" in d:
            t = d["timeout"]
            if isinstance(t, bool) or not isinstance(t, (int, float)) or t <= 0:
                raise self.error(("timeout",), "expected a positive number of seconds")
            self.timeout = float(t)
        self._check_overlap()

    # --- typed readers -------------------------------------------------
    def _str(self, d, path, choices=None):
        v = d[path[-1]]
        if not isinstance(v, str):
            raise self.error(path, f"expected a string, got {type(v).__name__}")
        if choices and v not in choices:
            raise self.error(path, f"'{v}' is not one of " + ", ".join(choices))
        return v

    def _strlist(self, d, path, choices=None):
        v = d[path[-1]]
        if not isinstance(v, list) or not v:
            raise self.error(path, "expected a non-empty list of strings")
        out = []
        for x in v:
            if not isinstance(x, str):
                raise self.error(path, f"expected strings, got {type(x).__name__} {x!r}")
            if choices and x not in choices:
                raise self.error(path, f"'{x}' is not one of " + ", ".join(choices))
            if x in out:
                raise self.error(path, f"'{x}' is listed twice")
            out.append(x)
        return out

    def _seeds(self, d):
        v = d["seeds"]
        if not isinstance(v, list) or not v:
            raise self.error(("seeds",), "expected a non-empty list of integers")
        for x in v:
            if isinstance(x, bool) or not isinstance(x, int) or x < 0 or x >= 2**64:
                raise self.error(("seeds",), f"expected integers in [0, 2^64), got {x!r}")
        if len(set(v)) != len(v):
            raise self.error(("seeds",), "a seed is listed twice")
        return list(v)

    def _value(self, v, path):
        """A --set value from TOML: an integer or a string."""
        if isinstance(v, bool) or not isinstance(v, (int, str)):
            raise self.error(path, f"expected an integer or a string, got "
                             f"{type(v).__name__} {v!r}")
        s = str(v)
        if not s or any(c.isspace() for c in s):
            raise self.error(path, f"bad value {s!r} (empty or with spaces)")
        return s

    def _settable(self, t, path):
        if not isinstance(t, dict):
            raise self.error(path, "expected a table of config key = value")
        out = {}
        for k, v in t.items():
            if not _CFGKEY.match(k):
                raise self.error(path + (k,), "not a config key (lockstep config --keys)")
            if isinstance(v, dict):
                # a dotted key (slp.backend = ...) reads as a nested table
                for k2, v2 in self._settable(v, path + (k,)).items():
                    out[f"{k}.{k2}"] = v2
                continue
            out[k] = self._value(v, path + (k,))
        return out

    def _grid(self, g):
        if not isinstance(g, dict) or not g:
            raise self.error(("grid",), "expected a table of key = [values]")
        out = {}
        for k, vs in g.items():
            p = ("grid", k)
            if not _CFGKEY.match(k):
                raise self.error(p, "not a config key (lockstep config --keys)")
            if not isinstance(vs, list) or not vs:
                raise self.error(p, "expected a non-empty list of values")
            vals = [self._value(v, p) for v in vs]
            if len(set(vals)) != len(vals):
                raise self.error(p, "a value is listed twice")
            out[k] = vals
        return out

    def _variants(self, vs):
        if not isinstance(vs, list) or not vs or not all(isinstance(v, dict) for v in vs):
            raise self.error(("variants",), "expected [[variants]] tables")
        out, names = [], set()
        for i, v in enumerate(vs):
            p = ("variants", i)
            for k in v:
                if k not in VARIANT_KEYS:
                    raise self.error(p + (k,), "unknown key (a variant has name, set, "
                                     "workloads and sizes)")
            if "name" not in v:
                raise self.error(p, "missing name")
            name = self._str(v, p + ("name",))
            if not _NAME.match(name):
                raise self.error(p + ("name",), "letters, digits, '_', '.', '-' only")
            if name in names:
                raise self.error(p + ("name",), f"variant '{name}' is named twice")
            names.add(name)
            if "workloads" in v:
                line = self.lines.line(*(p + ("workloads",)))
                self.variant_workloads[name] = [
                    (w, line) for w in self._strlist(v, p + ("workloads",))]
            if "sizes" in v:
                self.variant_sizes[name] = self._strlist(v, p + ("sizes",), SIZES)
            out.append((name, self._settable(v.get("set", {}), p + ("set",))))
        return out

    def _check_overlap(self):
        """A key set in two places would make one of them silently lose."""
        for k in self.grid:
            if k in self.set:
                raise self.error(("grid", k), "also given in set (one place only)")
        for i, (_, s) in enumerate(self.variants):
            for k in s:
                if k in self.set or k in self.grid:
                    raise self.error(("variants", i, "set", k),
                                     "also given in " + ("set" if k in self.set else "grid")
                                     + " (one place only)")

    def key_line(self, cfgkey):
        """(line, key name) of the spec entry that sets config key cfgkey,
        for lockstep's messages; (0, None) when no entry does."""
        if cfgkey in self.set:
            p = ("set",) + tuple(cfgkey.split("."))
        elif cfgkey in self.grid:
            p = ("grid", cfgkey)
        else:
            for i, (_, s) in enumerate(self.variants):
                if cfgkey in s:
                    p = ("variants", i, "set") + tuple(cfgkey.split("."))
                    break
            else:
                return 0, None
        return self.lines.line(*p), _keyname(p)


def load(path):
    """Reads and parses the spec at path; raises SpecError (also for an
    unreadable file)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise SpecError(path, 0, None, f"cannot read: {e.strerror}") from None
    return Spec(path, text)
