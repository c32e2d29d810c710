"""Suite descriptors (docs/suites.md): one TOML file per public benchmark
suite (tools/suites/NAME.toml) naming each program the papers use: where
its sources sit in the suite's own tree, how the suite's own Makefile builds
it, its inputs at each scale, how its result is checked, which paper tables
name it and the status measured at the suite's recorded commit.

Every error is a SuiteError naming the descriptor, the line and the key, as
sweep specs do (spec.SpecLines finds the lines)."""
import os
import re
import tomllib

from .spec import SpecLines

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
SUITES_DIR = os.path.join(TOOLS, "suites")

# The papers' benchmark tables, named as the papers caption them.
PAPER_TABLES = {
    "rhu3.2": "Rhu dissertation Table 3.2 (DPE)",
    "rhu4.2": "Rhu dissertation Table 4.2 (CAPRI/SLP)",
    "rhu5.4": "Rhu dissertation Table 5.4 (LAMAR)",
    "rhu6.2": "Rhu dissertation Table 6.2 (PCA)",
    "gscalar2": "G-Scalar Table 2",
    "dac": "DAC (29 programs; the stored text names none)",
}
# Which tables each results page (experiments/NAME.py) draws its programs from.
EXPERIMENT_TABLES = {
    "baseline": list(PAPER_TABLES),
    "dpe": ["rhu3.2"],
    "compaction": ["rhu4.2"],
    "memory": ["rhu5.4", "rhu6.2"],
    "gscalar": ["gscalar2"],
    "dac": ["dac"],
}
# A program's recorded status (measured at the descriptor's commit).
STATUSES = {
    "pass": "runs and passes in functional and timing mode",
    "nobuild": "does not build with nvcc 13 unchanged",
    "simfail": "builds, fails on the simulator",
    "noinput": "builds; its input is not in the public tree",
    "slow": "runs and passes functionally; timing mode past the time limit",
    "unavailable": "not in a public suite",
    "untested": "not run yet",
}
CHECK_KEYS = ("expect", "reject", "compare", "ignore")
PLACEHOLDERS = ("root", "data", "gen", "cuda", "bindir", "objdir", "suite", "program", "tools")
_PH = re.compile(r"\{([a-z]+)\}")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")

TOP_KEYS = ("suite", "title", "repository", "commit", "marker", "subdir", "data",
            "data_hint", "build", "check", "scale", "programs", "timeout", "notes")
BUILD_KEYS = ("vars", "env", "compat", "tool")
PROGRAM_KEYS = ("title", "papers", "dir", "makefile", "target", "binary", "vars", "compat",
                "inputs", "check", "scale", "status", "note", "class", "timeout")
INPUT_KEYS = ("args", "stdin", "gen", "links", "cwd", "note")


class SuiteError(Exception):
    """A bad descriptor: `FILE:LINE: key 'KEY': what`."""

    def __init__(self, path, line, key, msg):
        self.path, self.line, self.key, self.msg = path, line, key, msg
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: key '{key}': {msg}" if key else f"{where}: {msg}")


class Check:
    """How a run's result is judged: expect (regexes stdout must match),
    reject (regexes it must not), compare (outputs equal to the functional-
    mode run's: "memory", the memory digest after every kernel launch;
    "stdout"; or a file the program writes in its working directory) and
    ignore (stdout lines dropped before comparing: timers). A list left out
    (None) is inherited from the suite's [check]."""

    def __init__(self, expect=None, reject=None, compare=None, ignore=None):
        self.expect, self.reject, self.compare, self.ignore = expect, reject, compare, ignore

    def merged(self, other):
        """other (a program's check) over self (the suite's): each list other
        gives replaces the suite's."""
        def pick(a, b):
            return list(b if b is not None else a or [])
        return Check(pick(self.expect, other.expect), pick(self.reject, other.reject),
                     pick(self.compare, other.compare), pick(self.ignore, other.ignore))

    def as_dict(self):
        """The check as JSON (a sweep point carries it)."""
        return {"expect": self.expect or [], "reject": self.reject or [],
                "compare": self.compare or [], "ignore": self.ignore or []}

    def describe(self):
        """One phrase: `own check ('PASSED')`, `vs functional (memory, result.txt)`."""
        parts = []
        if self.expect:
            parts.append("own check (" + ", ".join(repr(e) for e in self.expect) + ")")
        if self.compare:
            parts.append("vs functional (" + ", ".join(self.compare) + ")")
        return "; ".join(parts) or "exit status"


class Input:
    """One input scale of a program: args, stdin (templates), gen (a
    generator command whose files land in {gen}), links (PATH=TEMPLATE:
    symlinks made in the run directory, for programs that open files by
    relative paths), cwd (where in the run directory it runs)."""

    def __init__(self, name, args, stdin=None, gen=None, links=None, cwd="", note=""):
        self.name, self.args, self.stdin = name, list(args), stdin
        self.gen, self.links, self.cwd, self.note = gen, dict(links or {}), cwd, note


class Program:
    """One program of a suite (members named as the descriptor's keys)."""

    def __init__(self, suite, name, line):
        self.suite, self.name, self.line = suite, name, line
        self.title, self.papers, self.dir, self.target = "", [], None, None
        self.makefile = None
        self.binary, self.vars, self.compat = None, {}, None
        self.inputs, self.check, self.scale = {}, Check(), {}
        self.status, self.note, self.klass, self.timeout = "untested", "", "", None

    @property
    def label(self):
        """suite/name: the program's workload column in sweep tables."""
        return f"{self.suite.name}/{self.name}"

    def paper_names(self, tables=None):
        """The abbreviations the papers give it (in tables, if given)."""
        return [a for t, a in self.papers if tables is None or t in tables]

    def input_for(self, experiment=None, forced=None):
        """The input name a run for experiment uses: forced, else the
        program's scale for the experiment, else the suite's, else 'default'
        (or the program's only input)."""
        for name in (forced, self.scale.get(experiment), self.suite.scale.get(experiment),
                     self.scale.get("default"), self.suite.scale.get("default"), "default"):
            if name and name in self.inputs:
                return name
        return next(iter(self.inputs), None)


class Suite:
    """A parsed descriptor."""

    def __init__(self, path, text):
        self.path = path
        self.lines = SpecLines(text)
        try:
            d = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
            raise SuiteError(path, int(m.group(1)) if m else 0, None,
                             "TOML syntax: " + re.sub(r"\s*\(at line.*\)", "", str(e))) from None
        self._read(d)

    def err(self, keypath, msg):
        """A SuiteError at keypath (a tuple of keys)."""
        return SuiteError(self.path, self.lines.line(*keypath), ".".join(keypath), msg)

    def _str(self, d, keypath, default=None, required=False):
        k = keypath[-1]
        if k not in d:
            if required:
                raise self.err(keypath, "missing")
            return default
        if not isinstance(d[k], str):
            raise self.err(keypath, f"expected a string, got {type(d[k]).__name__}")
        return d[k]

    def _strlist(self, d, keypath):
        v = d.get(keypath[-1], [])
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise self.err(keypath, "expected a list of strings")
        return list(v)

    def _strtable(self, d, keypath):
        v = d.get(keypath[-1], {})
        if not isinstance(v, dict):
            raise self.err(keypath, "expected a table of name = string")
        out = {}
        for k, x in v.items():
            if isinstance(x, bool) or not isinstance(x, (str, int)):
                raise self.err(keypath + (k,), "expected a string or an integer")
            out[k] = str(x)
        return out

    def _unknown(self, d, known, keypath):
        for k in d:
            if k not in known:
                raise self.err(keypath + (k,), "unknown key (known: " + ", ".join(known) + ")")

    def _read(self, d):
        self._unknown(d, TOP_KEYS, ())
        self.name = self._str(d, ("suite",), required=True)
        if not _NAME.match(self.name):
            raise self.err(("suite",), "letters, digits, '_', '.', '-' only")
        self.title = self._str(d, ("title",), self.name)
        self.repository = self._str(d, ("repository",), "")
        self.commit = self._str(d, ("commit",), "")
        self.marker = self._str(d, ("marker",), None)
        self.subdir = self._str(d, ("subdir",), "")
        self.data = self._str(d, ("data",), "")
        self.data_hint = self._str(d, ("data_hint",), "")
        self.notes = self._str(d, ("notes",), "")
        self.timeout = self._number(d, ("timeout",))
        b = d.get("build", {})
        if not isinstance(b, dict):
            raise self.err(("build",), "expected a table")
        self._unknown(b, BUILD_KEYS, ("build",))
        self.build_vars = self._strtable(b, ("build", "vars"))
        self.build_env = self._strtable(b, ("build", "env"))
        self.compat = self._bool(b, ("build", "compat"), False)
        self.tool = self._str(b, ("build", "tool"), "make")
        if self.tool not in ("make", "cmake"):
            raise self.err(("build", "tool"), f"'{self.tool}' is not make or cmake")
        self.check = self._check(d.get("check", {}), ("check",))
        self.scale = self._strtable(d, ("scale",))
        progs = d.get("programs", {})
        if not isinstance(progs, dict):
            raise self.err(("programs",), "expected [programs.NAME] tables")
        self.programs = {}
        for name, pd in progs.items():
            self.programs[name] = self._program(name, pd)
        for k in self.build_vars:
            self._placeholders(self.build_vars[k], ("build", "vars", k))

    def _number(self, d, keypath):
        v = d.get(keypath[-1])
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0:
            raise self.err(keypath, "expected a positive number of seconds")
        return float(v)

    def _bool(self, d, keypath, default):
        v = d.get(keypath[-1], default)
        if not isinstance(v, bool):
            raise self.err(keypath, "expected true or false")
        return v

    def _check(self, c, keypath):
        if not isinstance(c, dict):
            raise self.err(keypath, "expected a table (expect, reject, compare, ignore)")
        self._unknown(c, CHECK_KEYS, keypath)
        lists = {k: self._strlist(c, keypath + (k,)) if k in c else None for k in CHECK_KEYS}
        for k in ("expect", "reject", "ignore"):
            for rx in lists[k] or []:
                try:
                    re.compile(rx)
                except re.error as e:
                    raise self.err(keypath + (k,), f"bad regex {rx!r}: {e}") from None
        return Check(**lists)

    def _placeholders(self, text, keypath):
        for m in _PH.finditer(text):
            if m.group(1) not in PLACEHOLDERS:
                raise self.err(keypath, f"unknown placeholder {{{m.group(1)}}} (known: "
                               + ", ".join("{" + p + "}" for p in PLACEHOLDERS) + ")")

    def _program(self, name, pd):
        kp = ("programs", name)
        if not _NAME.match(name):
            raise self.err(kp, "a program name is letters, digits, '_', '.', '+', '-'")
        if not isinstance(pd, dict):
            raise self.err(kp, "expected a table")
        self._unknown(pd, PROGRAM_KEYS, kp)
        p = Program(self, name, self.lines.line(*kp))
        p.title = self._str(pd, kp + ("title",), "")
        for tok in self._strlist(pd, kp + ("papers",)):
            table, sep, abbr = tok.partition(":")
            if not sep or table not in PAPER_TABLES or not abbr:
                raise self.err(kp + ("papers",), f"'{tok}' is not TABLE:NAME (tables: "
                               + ", ".join(PAPER_TABLES) + ")")
            p.papers.append((table, abbr))
        p.status = self._str(pd, kp + ("status",), "untested")
        if p.status not in STATUSES:
            raise self.err(kp + ("status",), f"'{p.status}' is not one of " + ", ".join(STATUSES))
        p.note = self._str(pd, kp + ("note",), "")
        p.klass = self._str(pd, kp + ("class",), "")
        p.timeout = self._number(pd, kp + ("timeout",))
        if p.status == "unavailable":
            return p
        p.dir = self._str(pd, kp + ("dir",), required=True)
        p.target = self._str(pd, kp + ("target",), None)
        p.makefile = self._str(pd, kp + ("makefile",), None)
        if p.makefile:
            self._placeholders(p.makefile, kp + ("makefile",))
        p.binary = self._str(pd, kp + ("binary",), required=True)
        p.vars = self._strtable(pd, kp + ("vars",))
        p.compat = self._bool(pd, kp + ("compat",), self.compat)
        p.check = self.check.merged(self._check(pd.get("check", {}), kp + ("check",)))
        p.scale = self._strtable(pd, kp + ("scale",))
        ins = pd.get("inputs", {})
        if not isinstance(ins, dict) or not ins:
            raise self.err(kp + ("inputs",), "expected [programs.NAME.inputs.SCALE] tables")
        for iname, idef in ins.items():
            p.inputs[iname] = self._input(iname, idef, kp + ("inputs", iname))
        for k, v in list(p.vars.items()):
            self._placeholders(v, kp + ("vars", k))
        self._placeholders(p.binary, kp + ("binary",))
        for k, s in p.scale.items():
            if s not in p.inputs:
                raise self.err(kp + ("scale",), f"{k} = '{s}': no such input (inputs: "
                               + ", ".join(p.inputs) + ")")
        return p

    def _input(self, name, idef, kp):
        if isinstance(idef, list):
            idef = {"args": idef}
        if not isinstance(idef, dict):
            raise self.err(kp, "expected a table (args, stdin, gen, links) or a list of args")
        self._unknown(idef, INPUT_KEYS, kp)
        args = self._strlist(idef, kp + ("args",))
        gen = self._strlist(idef, kp + ("gen",)) if "gen" in idef else None
        stdin = self._str(idef, kp + ("stdin",), None)
        links = self._strtable(idef, kp + ("links",))
        for i, a in enumerate(args + (gen or []) + ([stdin] if stdin else []) +
                              list(links.values())):
            self._placeholders(a, kp)
        cwd = self._str(idef, kp + ("cwd",), "")
        for rel in list(links) + ([cwd] if cwd else []):
            if os.path.isabs(rel) or ".." in rel.split("/"):
                raise self.err(kp, f"'{rel}': links and cwd are relative paths inside the "
                               "run directory")
        return Input(name, args, stdin, gen, links, cwd, self._str(idef, kp + ("note",), ""))


SHORT_TABLE = {"rhu3.2": "3.2", "rhu4.2": "4.2", "rhu5.4": "5.4", "rhu6.2": "6.2",
               "gscalar2": "GS", "dac": "DAC"}


def paper_cell(papers):
    """`BACKP:3.2,4.2 BP:GS` from [('rhu3.2', 'BACKP'), ...] or ['rhu3.2:BACKP', ...]."""
    names = {}
    for tok in papers:
        t, a = tok.split(":", 1) if isinstance(tok, str) else tok
        names.setdefault(a, []).append(SHORT_TABLE.get(t, t))
    return " ".join(f"{a}:{','.join(ts)}" for a, ts in names.items()) or "-"


def descriptor_path(name):
    """The descriptor of a suite name (tools/suites/NAME.toml), or name
    itself when it is a path to a .toml file."""
    if name.endswith(".toml") or os.sep in name:
        return name
    return os.path.join(SUITES_DIR, name + ".toml")


def load(name):
    """The Suite of a name or descriptor path; SuiteError when unreadable."""
    path = descriptor_path(name)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        known = ", ".join(names())
        raise SuiteError(path, 0, None, f"cannot read ({e.strerror}); shipped suites: "
                         f"{known}") from None
    return Suite(path, text)


def names():
    """The shipped suites' names (tools/suites/*.toml), sorted."""
    try:
        return sorted(f[:-5] for f in os.listdir(SUITES_DIR) if f.endswith(".toml"))
    except OSError:
        return []


def expand(text, values):
    """text with its {placeholders} replaced from values (a dict); a
    placeholder values lacks is an error naming it."""
    def sub(m):
        k = m.group(1)
        if k not in values or values[k] is None:
            raise KeyError(k)
        return str(values[k])
    return _PH.sub(sub, text)
