#!/usr/bin/env python3
"""Formal equivalence of a block's RTL and its gate-level netlist (Yosys).

  equiv.py [--netlist FILE.v] [--out DIR] [--bmc N] [--limit S] [--passes]
           BLK LABEL [P=v ...]

Gold: rtl/BLK.v (+ rtl/BLK_*.v) with the parameters, `prep -flatten` and
`memory`; gate: the netlist (default: synth/netlist.sh's for these
parameters, built if needed; --netlist another one, e.g. a mutant) with
its cell models. Yosys builds the miter of the two (`miter -equiv`, every
flop of both starting at 0 as under Verilator's --x-initial fast, every
input free on every edge, reset included) and writes it as AIGER; ABC's
`dprove` (yosys-abc, Yosys's own ABC) proves the miter's output never
rises: signal correspondence (register and internal-node pairs found by
simulation, proven together by k-induction), then BMC, interpolation and
property-directed reachability (pdr, S/4 seconds at most) on what is
left; S wall seconds in all (--limit, default 3600). --passes uses
Yosys's equivalence passes instead (`equiv_make` pairs the signals by
name, `equiv_simple`, `equiv_induct`): the same verdicts, but equiv_induct
does not finish on the larger sets (BGP, WCU, CAPT of 16 entries and up)
on a 2-core host. Prints one line:

  equiv BLK LABEL: proven (ABC dprove on the miter: F flops, A AND nodes; T)
  equiv BLK LABEL: failed at edge E: PORT differs (counterexample: ...)
  equiv BLK LABEL: unproven (why; no counterexample in the first F frames
                   (ABC bmc3, every input free))

When ABC finds the miter failing, a bounded check (miter + Yosys `sat`,
one reset edge and then rst_ni high, every flop starting at 0, up to B
edges) finds the inputs; they are written as a lockstep block trace
(docs/cosim.md) whose `rtl` line names the netlist, so `lockstep replay
DIR/cex.trace` re-runs them on the C model and the Verilated netlist and
shows the mismatch. When dprove does not decide, ABC's `bmc3` searches
the same AIG B + 1 frames deep (within S seconds) first; only a failure it
finds goes on to `sat`.
Exit status 0 proven, 1 failed, 3 unproven, 2 usage or tool error."""
import os
import re
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

GOLD = """read_verilog -sv {files}
{chparam}
prep -flatten -top {top}
memory
opt_clean
rename {top} gold
design -stash gold
read_verilog {netlist}
hierarchy -top {top}
proc
flatten
opt_clean
rename {top} gate
design -stash gate
design -copy-from gold -as gold gold
design -copy-from gate -as gate gate
"""

PROVE = GOLD + """equiv_make gold gate equiv
hierarchy -top equiv
equiv_simple
equiv_induct
tee -o {status} equiv_status
"""

# The miter of gold and gate as an AIGER file for ABC: every flop of both
# starts at 0 (setundef -init, as under Verilator's --x-initial fast), the
# miter's x-aware compares become plain ones (two-valued AIG), the clocked
# flops the AIGER latches of one global clock.
AIG = GOLD + """miter -equiv -flatten gold gate miter
hierarchy -top miter
flatten
chtype -map $eqx $eq
chtype -map $nex $ne
opt_clean
async2sync
dffunmap
techmap
aigmap
setundef -zero -undriven -init
setundef -zero
write_aiger -zinit {aig}
"""

# The bounded check: reset at step 1 only, rst_ni high from step 2 on (a
# block trace has no reset column: `lockstep replay` resets once and then
# steps the listed edges, so a counterexample that resets again mid-way
# could not be replayed).
BMC = GOLD + """miter -equiv -flatten -make_outputs gold gate miter
hierarchy -top miter
sat -seq {n} -prove trigger 0 -prove-skip 2 -set-at 1 in_rst_ni 0 {run} -set-init-zero -show-inputs -show-outputs miter
"""


def files_of(blk):
    fs = ["rtl/%s.v" % blk]
    fs += sorted("rtl/" + f for f in os.listdir(os.path.join(ROOT, "rtl"))
                 if f.startswith(blk + "_") and f.endswith(".v"))
    return fs


def nldir(blk, params):
    d = os.path.join("build", "netlist", blk)
    for kv in params:
        k, v = kv.split("=", 1)
        d += "_%s%s" % (k, v)
    return d


def yosys(script, log):
    with open(log + ".ys", "w") as f:
        f.write(script)
    r = subprocess.run(["yosys", "-q", "-l", log, "-s", log + ".ys"], cwd=ROOT,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return r.returncode


def input_ports(blk, netlist):
    """[(name, bits, count)] of the block's inputs in .def order, sized by
    the netlist's port widths (a multi-element port: the .def's element
    width, so count = width / bits)."""
    defs = []
    for m in re.finditer(r"PORT_IN\s*\(\s*(\w+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)",
                         open(os.path.join(ROOT, "csim/blocks/%s_ports.def" % blk)).read()):
        defs.append((m.group(1), int(m.group(2)), int(m.group(3))))
    widths = {}
    for m in re.finditer(r"^\s*input\s+(?:\[(\d+):0\]\s+)?(\w+)\s*;",
                         open(netlist).read(), re.M):
        widths[m.group(2)] = int(m.group(1)) + 1 if m.group(1) else 1
    res = []
    for name, bits, count in defs:
        w = widths[name]
        if count == 1:
            res.append((name, w, 1))
        else:
            res.append((name, bits, w // bits))
    return res


def parse_sat(log):
    """{step: {signal: int}} of sat's -show-inputs/-show-outputs table, and
    the first step from 3 on whose trigger is 1 (step 1 is the initial
    state, step 2 the reset's outputs: a replay compares neither)."""
    vals, first = {}, None
    for m in re.finditer(r"^\s+(\d+)\s+\\(\S+)\s+(-?\d+|-+)\s+([0-9a-fx-]+)\s+([01x]+)\s*$",
                         open(log).read(), re.M):
        step, sig, bits = int(m.group(1)), m.group(2), m.group(5)
        v = int(bits.replace("x", "0"), 2)
        vals.setdefault(step, {})[sig] = v
        if sig == "trigger" and v and step >= 3 and (first is None or step < first):
            first = step
    return vals, first


CLOCK_RESET = ("in_clk_i", "in_rst_ni")


def trace_rows(ports, vals, t):
    """The inputs of sat steps 2..t-1 as block-trace rows [(edge, [element
    values])]: sat step 1 is the reset, step s >= 2 the replay's edge s-2,
    and a trigger at step t shows the outputs after edge t-3. Raises
    ValueError where the table holds what a trace cannot carry: an input
    that is not a port, a value wider than its port, or rst_ni low after
    step 1 (a trace resets once, at its start)."""
    names = {"in_" + p[0] for p in ports}
    rows = []
    for e in range(t - 2):
        step = vals.get(e + 2, {})
        extra = sorted(s for s in step if s.startswith("in_") and s not in names
                       and s not in CLOCK_RESET)
        if extra:
            raise ValueError("inputs %s are no port of the block" % ", ".join(extra))
        if step.get("in_rst_ni", 1) == 0:
            raise ValueError("rst_ni is low at edge %d: a block trace resets only at "
                             "its start" % e)
        row = []
        for name, bits, count in ports:
            v = step.get("in_" + name, 0)
            if v >> (bits * count):
                raise ValueError("%s = %#x is wider than its %d x %d bits"
                                 % (name, v, count, bits))
            row += [(v >> (i * bits)) & ((1 << bits) - 1) for i in range(count)]
        rows.append((e, row))
    return rows


def write_trace(path, blk, params, netlist, ports, vals, t):
    """The counterexample as a lockstep block trace (trace_rows); returns
    the edge of the mismatch."""
    mm = t - 3
    rows = trace_rows(ports, vals, t)
    with open(path, "w") as f:
        f.write("# lockstep block trace 1\n# counterexample of make equiv "
                "(synth/equiv.py): replay: build/lockstep replay %s\n" % path)
        f.write("block %s\ninstance equiv.%s\n" % (blk, blk))
        for kv in params:
            k, v = kv.split("=", 1)
            f.write("param %s %s\n" % (k, v))
        f.write("rtl %s\nmismatch_edge %d\nedges %d\n" % (os.path.abspath(netlist), mm, mm + 1))
        f.write("inputs %s\n" % " ".join(p[0] for p in ports))
        for e, row in rows:
            if any(row):
                f.write("%d %s\n" % (e, " ".join("%x" % x for x in row)))
    return mm


def read_trace(path, ports):
    """{edge: {port: value}} of a block trace's input rows, every element of
    a port packed back into one integer (element i at bits i*bits): the
    inverse of write_trace, for checking a conversion."""
    res = {}
    for line in open(path):
        f = line.split()
        if not f or not f[0].isdigit():
            continue
        xs = [int(x, 16) for x in f[1:]]
        if len(xs) != sum(p[2] for p in ports):
            raise ValueError("%s: edge %s has %d input elements, the ports %d"
                             % (path, f[0], len(xs), sum(p[2] for p in ports)))
        vals, k = {}, 0
        for name, bits, count in ports:
            vals[name] = sum(xs[k + i] << (i * bits) for i in range(count))
            k += count
        res[int(f[0])] = vals
    return res


def took(t0):
    """'W s, C s CPU': wall and the CPU of the tools run since t0."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return "%.0f s, %.0f s CPU" % (time.time() - t0[0], ru.ru_utime + ru.ru_stime - t0[1])


def prove_passes(blk, label, out, sub, t0):
    """Yosys's equivalence passes (equiv_make, equiv_simple, equiv_induct):
    ("proven", line), ("open", why) or ("error", line)."""
    if yosys(PROVE.format(**sub), os.path.join(out, "prove.log")):
        return ("error", "equiv %s %s: error: Yosys failed (log %s/prove.log)" % (blk, label, out))
    st = open(sub["status"]).read()
    m = re.search(r"Of those cells (\d+) are proven and (\d+) are unproven", st)
    if not m:
        return ("error", "equiv %s %s: error: no equiv_status in %s" % (blk, label, sub["status"]))
    proven, unproven = int(m.group(1)), int(m.group(2))
    total = proven + unproven
    if not unproven:
        return ("proven", "equiv %s %s: proven (equiv_induct, %d equivalences, %s)"
                % (blk, label, total, took(t0)))
    why = re.findall(r"Unproven \$equiv \S+: (\S+) (\S+)", st)
    return ("open", "%d of %d equivalences open, e.g. %s"
            % (unproven, total, ", ".join(w[0] for w in why[:3])))


def prove_abc(blk, label, out, sub, t0, limit):
    """The miter of gold and gate (Yosys `miter -equiv`, AIGER) proven by
    ABC's `dprove` (yosys-abc): signal correspondence (the flop pairs and
    internal equivalences found by simulation, proven together by
    induction), then BMC and interpolation on what is left. From the
    all-zero state, every input free on every edge (reset included).
    ("proven", line), ("open", why) or ("error", line)."""
    if yosys(AIG.format(**sub), os.path.join(out, "miter.log")):
        return ("error", "equiv %s %s: error: Yosys failed (log %s/miter.log)" % (blk, label, out))
    log = os.path.join(out, "dprove.log")
    try:
        # (cwd: dprove writes the unsolved reduced miter, sm01.aig, there)
        r = subprocess.run(["yosys-abc", "-c", "read_aiger %s; print_stats; dprove -T %d"
                            % (sub["aig"], max(60, limit // 4))],
                           cwd=out, capture_output=True, text=True, timeout=limit)
        text = r.stdout + r.stderr
    except subprocess.TimeoutExpired as e:
        text = (e.stdout or b"").decode(errors="replace") + "\n(timeout)\n"
    open(log, "w").write(text)
    m = re.search(r"lat\s*=\s*(\d+)\s+and\s*=\s*(\d+)", text)
    size = "%s flops, %s AND nodes" % (m.group(1), m.group(2)) if m else "miter"
    if "Networks are equivalent" in text:
        return ("proven", "equiv %s %s: proven (ABC dprove on the miter: %s; %s)"
                % (blk, label, size, took(t0)))
    m = re.search(r"was asserted in frame (\d+)", text)
    if "(timeout)" not in text and (m or re.search(r"not equivalent|NOT EQUIVALENT", text)):
        # the bounded check starts at the depth of ABC's counterexample
        # (frame F from the zero state: F + 1 edges after a reset edge)
        sub["from"] = int(m.group(1)) + 2 if m else 4
        return ("open", "ABC dprove: the miter fails")
    why = ("ABC dprove undecided after %d s on the miter (%s)" % (limit, size)
           if "(timeout)" in text else
           "ABC dprove undecided (%s; log %s)" % (size, os.path.relpath(log, ROOT)))
    # Undecided: a bounded search by ABC (bmc3 on the same AIG, every input
    # free on every edge, reset included) before Yosys `sat` is asked for
    # a trace: on a large miter (the BGP's 8416 flops) sat needs gigabytes
    # per unrolled edge, bmc3 a fraction.
    blog = os.path.join(out, "bmc3.log")
    try:
        r = subprocess.run(["yosys-abc", "-c", "read_aiger %s; bmc3 -F %d -T %d"
                            % (sub["aig"], sub["n"] - 2, limit)],
                           cwd=out, capture_output=True, text=True, timeout=limit + 60)
        btext = r.stdout + r.stderr
    except subprocess.TimeoutExpired as e:
        btext = (e.stdout or b"").decode(errors="replace") + "\n(timeout)\n"
    open(blog, "w").write(btext)
    m = re.search(r"was asserted in frame (\d+)", btext)
    if m:
        sub["from"] = int(m.group(1)) + 2
        return ("open", why)
    m = re.search(r"No output asserted in (\d+) frames", btext)
    sub["bmc_done"] = ("no counterexample in the first %s frames (ABC bmc3, every input free)"
                       % (m.group(1) if m else "0"))
    return ("open", why)


def main(argv):
    args = argv[1:]
    netlist, out, bmc, limit, passes = None, None, 24, 3600, False
    while args and args[0].startswith("--"):
        if args[0] == "--netlist" and len(args) > 1:
            netlist = os.path.abspath(args[1])
        elif args[0] == "--out" and len(args) > 1:
            out = args[1]
        elif args[0] == "--bmc" and len(args) > 1:
            bmc = int(args[1])
        elif args[0] == "--limit" and len(args) > 1:
            limit = int(args[1])
        elif args[0] == "--passes":
            passes = True
            args = args[1:]
            continue
        else:
            print(__doc__.split("\n\n")[0], file=sys.stderr)
            return 2
        args = args[2:]
    if len(args) < 2:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    blk, label, params = args[0], args[1], args[2:]
    out = os.path.abspath(out or os.path.join(ROOT, "build", "equiv", "%s_%s" % (blk, label)))
    os.makedirs(out, exist_ok=True)
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = (time.time(), ru.ru_utime + ru.ru_stime)
    if netlist is None:
        d = nldir(blk, params)
        r = subprocess.run(["bash", "synth/netlist.sh", blk, d] + ["-G" + kv for kv in params],
                           cwd=ROOT, stdout=subprocess.DEVNULL)
        if r.returncode:
            print("equiv %s %s: error: synth/netlist.sh failed" % (blk, label))
            return 2
        netlist = os.path.join(ROOT, d, blk + ".v")
    chp = ""
    if params:
        chp = "chparam %s %s" % (" ".join("-set %s %s" % tuple(kv.split("=", 1))
                                          for kv in params), blk)
    sub = dict(files=" ".join(files_of(blk)), chparam=chp, top=blk, netlist=netlist,
               status=os.path.join(out, "status.txt"), n=bmc + 3,
               aig=os.path.join(out, "miter.aig"))
    if passes:
        verdict = prove_passes(blk, label, out, sub, t0)
    else:
        verdict = prove_abc(blk, label, out, sub, t0, limit)
    if verdict[0] in ("proven", "error"):
        print(verdict[1])
        return 0 if verdict[0] == "proven" else 2
    why = verdict[1]
    if sub.get("bmc_done"):
        print("equiv %s %s: unproven (%s; %s) (%s)" % (blk, label, why, sub["bmc_done"], took(t0)))
        return 3
    # the bounded check, deepening: a short counterexample costs little
    t = None
    depth = max(4, sub.get("from", 4))
    while t is None:
        depth = min(depth, bmc)
        sub["n"] = depth + 3
        sub["run"] = " ".join("-set-at %d in_rst_ni 1" % s for s in range(2, depth + 4))
        if yosys(BMC.format(**sub), os.path.join(out, "bmc.log")):
            print("equiv %s %s: error: the bounded check failed (log %s/bmc.log)"
                  % (blk, label, out))
            return 2
        vals, t = parse_sat(os.path.join(out, "bmc.log"))
        if depth == bmc:
            break
        depth *= 2
    if t is not None:
        ports = input_ports(blk, netlist)
        diff = sorted(s[5:] for s in vals[t] if s.startswith("gold_") and
                      vals[t][s] != vals[t].get("gate_" + s[5:]))
        trace = os.path.join(out, "cex.trace")
        try:
            mm = write_trace(trace, blk, params, netlist, ports, vals, t)
        except ValueError as e:
            print("equiv %s %s: error: the counterexample cannot be a block trace: %s"
                  % (blk, label, e))
            return 2
        print("equiv %s %s: failed at edge %d: %s differ%s (counterexample: "
              "build/lockstep replay %s) (%s)"
              % (blk, label, mm, ", ".join(diff[:4]) or "outputs", "s" if len(diff) == 1 else "",
                 os.path.relpath(trace, ROOT), took(t0)))
        return 1
    print("equiv %s %s: unproven (%s; no counterexample in the first %d edges from "
          "reset) (%s)" % (blk, label, why, bmc, took(t0)))
    return 3


if __name__ == "__main__":
    sys.exit(main(sys.argv))
