#!/usr/bin/env python3
"""tools/layers.py BUILD [OBJ...]: the link-level call edges between the
modules of csim/ follow tools/layers.txt (make test-layers).

Reads the symbol tables (nm) of every object of the library and the CLI
(BUILD/obj/csim/MODULE/*.o), of the CUDA runtime (BUILD/pic/csim/cudart/
*.o) and of the extra OBJ files (their module: their directory's name).
Each undefined symbol that another module defines is an edge caller ->
callee; an edge tools/layers.txt does not allow is printed as

  csim/core/core_sm.o (core) calls api: ls_block_name

and makes the exit status 1, as does a module the table does not name and
a public ls_* function defined outside csim/api/.
--selftest: also compiles an object of module core that calls the public
API (a back edge) and fails unless the check reports exactly that edge.
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_table(path):
    allow = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#")[0].strip()
            if not line:
                continue
            mod, sep, rest = line.partition(":")
            if not sep:
                sys.exit(f"{path}:{n}: expected 'module: callees'")
            allow[mod.strip()] = set(rest.split())
    for mod, callees in allow.items():
        for c in callees - set(allow):
            sys.exit(f"{path}: {mod} may call {c}, which is not a module of the table")
    return allow


def objects(build):
    out = []
    for top, only in ((os.path.join(build, "obj", "csim"), None),
                      (os.path.join(build, "pic", "csim"), "cudart")):
        if not os.path.isdir(top):
            continue
        for mod in sorted(os.listdir(top)):
            d = os.path.join(top, mod)
            if (only and mod != only) or not os.path.isdir(d):
                continue
            # objects of sources that still exist (not a stale one's)
            out += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".o")
                    and os.path.exists(os.path.join(ROOT, "csim", mod, f[:-2] + ".c"))]
    return out


def symbols(objs):
    """{obj: (defined set, undefined set)} from one nm run."""
    res = {o: (set(), set()) for o in objs}
    p = subprocess.run(["nm", "-A", "-P"] + objs, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("layers: nm failed: " + p.stderr.strip()[:300])
    for line in p.stdout.splitlines():
        head, _, rest = line.partition(": ")
        f = rest.split()
        if head not in res or len(f) < 2:
            continue
        name, kind = f[0], f[1]
        if kind == "U":
            res[head][1].add(name)
        elif kind in "TDBRCGSVWi":
            res[head][0].add(name)
    return res


def module_of(obj):
    return os.path.basename(os.path.dirname(obj))


def shown(obj):
    """csim/core/core_sm.o, or MODULE/FILE.o for an object elsewhere."""
    if "/csim/" in obj:
        return "csim/" + obj.split("/csim/", 1)[1]
    return module_of(obj) + "/" + os.path.basename(obj)


def check(build, extra, allow):
    objs = objects(build) + list(extra)
    if not objs:
        sys.exit(f"layers: no objects under {build}/obj/csim: build first")
    syms = symbols(objs)
    owner = {}
    for o, (defs, _) in syms.items():
        for s in defs:
            owner.setdefault(s, module_of(o))
    bad, edges = [], set()
    for mod in sorted({module_of(o) for o in objs} - set(allow)):
        bad.append(f"module {mod} is not in tools/layers.txt: add it with the modules "
                   f"it may call")
    for o in objs:
        mod = module_of(o)
        pub = sorted(s for s in syms[o][0] if s.startswith("ls_"))
        if pub and mod != "api":
            bad.append(f"{shown(o)} ({mod}) defines the public {', '.join(pub)}: every "
                       f"ls_* function lives in csim/api/")
        calls = {}
        for s in syms[o][1]:
            callee = owner.get(s)
            if callee and callee != mod:
                edges.add((mod, callee))
                calls.setdefault(callee, []).append(s)
        for callee, names in sorted(calls.items()):
            if mod in allow and callee not in allow[mod]:
                bad.append(f"{shown(o)} ({mod}) calls {callee}: {', '.join(sorted(names))}"
                           f" -- {mod} may call: {' '.join(sorted(allow[mod])) or 'nothing'}")
    return bad, edges, len(objs)


def selftest(build, allow):
    """A back edge (core calling the public API) must be the one finding."""
    with tempfile.TemporaryDirectory() as tmp:
        d = os.path.join(tmp, "core")
        os.makedirs(d)
        src = os.path.join(d, "fault.c")
        with open(src, "w") as f:
            f.write("struct ls_gpu;\nvoid ls_gpu_destroy(struct ls_gpu *g);\n"
                    "void core_layers_fault(void);\n"
                    "void core_layers_fault(void) { ls_gpu_destroy(0); }\n")
        cc = os.environ.get("CC", "cc")
        obj = os.path.join(d, "fault.o")
        subprocess.run([cc, "-c", src, "-o", obj], check=True)
        bad, _, _ = check(build, [obj], allow)
        ok = len(bad) == 1 and "fault.o (core) calls api: ls_gpu_destroy" in bad[0]
        return ok, bad


def main():
    args = sys.argv[1:]
    test = "--selftest" in args
    args = [a for a in args if a != "--selftest"]
    if not args:
        sys.exit(__doc__)
    build, extra = args[0], args[1:]
    allow = read_table(os.path.join(ROOT, "tools", "layers.txt"))
    bad, edges, nobj = check(build, extra, allow)
    for b in bad:
        print("FAIL layers: " + b)
    if test:
        ok, got = selftest(build, allow)
        if not ok:
            print("FAIL layers: an injected back edge (core -> api) was not the one "
                  "finding: " + "; ".join(got))
            bad.append("selftest")
    if bad:
        return 1
    print(f"test-layers: {nobj} objects, {len(edges)} module edges, all allowed by "
          f"tools/layers.txt" + (" (an injected back edge is caught)" if test else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
