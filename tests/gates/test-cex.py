#!/usr/bin/env python3
"""make test-gates: synth/equiv.py turns a Yosys `sat` counterexample into
a lockstep block trace that carries every input bit.

For every block (csim/blocks/<blk>_ports.def, at its largest widths: the
1024-bit mask_i of the WCU, the 32 x 32-bit arr_i of the RVC
decompressor), a `sat -show-inputs` table of random inputs over several
edges goes through parse_sat and write_trace, and read_trace must give
back every value of every port on every edge. A table that resets
mid-way, or names an input that is no port, must be refused. Then the
check is shown able to fail: a converter that keeps the first 16
elements of a multi-element port loses the round trip.
  tests/gates/test-cex.py"""
import os
import random
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "synth"))
import equiv  # noqa: E402

BLOCKS = ["slp", "capt", "wcu", "rvc_comp", "rvc_decomp", "bgp"]


def def_ports(blk):
    text = open(os.path.join(ROOT, "csim/blocks/%s_ports.def" % blk)).read()
    return [(m.group(1), int(m.group(2)), int(m.group(3))) for m in
            re.finditer(r"PORT_IN\s*\(\s*(\w+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)", text)]


def fake_netlist(path, blk, ports):
    with open(path, "w") as f:
        f.write("module %s(clk_i, rst_ni, %s);\n" % (blk, ", ".join(p[0] for p in ports)))
        f.write("  input clk_i;\n  input rst_ni;\n")
        for name, bits, count in ports:
            w = bits * count
            f.write("  input %s%s;\n" % ("[%d:0] " % (w - 1) if w > 1 else "", name))
        f.write("endmodule\n")


def sat_line(step, sig, v, w):
    dec = str(v) if w <= 32 else "--"
    hx = "%x" % v if w <= 32 else "--"
    return "  %4d \\%-20s %11s %9s %s\n" % (step, sig, dec, hx, format(v, "0%db" % w))


def sat_table(ports, steps, rng, reset_at=None, extra=None):
    """A sat -show-inputs table: step 1 the reset, rst_ni high after it
    (low again at reset_at), trigger high at the last step."""
    vals, lines = {}, []
    for s in range(1, steps + 1):
        vals[s] = {}
        for name, bits, count in ports:
            w = bits * count
            v = rng.getrandbits(w) if rng.random() < 0.8 else 0
            vals[s][name] = v
            lines.append(sat_line(s, "in_" + name, v, w))
        lines.append(sat_line(s, "in_clk_i", 0, 1))
        lines.append(sat_line(s, "in_rst_ni", 0 if s in (1, reset_at) else 1, 1))
        if extra:
            lines.append(sat_line(s, "in_" + extra, 1, 1))
        lines.append(sat_line(s, "trigger", 1 if s == steps else 0, 1))
    return vals, "".join(lines)


def convert(d, blk, ports, text, write_ports=None):
    """(sat values per step, trace values per edge, mismatch edge)."""
    log = os.path.join(d, "bmc.log")
    open(log, "w").write(text)
    vals, t = equiv.parse_sat(log)
    trace = os.path.join(d, "cex.trace")
    mm = equiv.write_trace(trace, blk, [], os.path.join(d, "n.v"), write_ports or ports, vals, t)
    return t, equiv.read_trace(trace, ports), mm


def round_trip(blk, want, got, steps):
    """Failures: every edge 0..steps-3 (sat step edge+2) must come back, an
    edge the trace omits being all zero."""
    bad = []
    for e in range(steps - 2):
        for name in want[e + 2]:
            g = got.get(e, {}).get(name, 0)
            if g != want[e + 2][name]:
                bad.append("%s edge %d %s: %#x back, %#x in the table"
                           % (blk, e, name, g, want[e + 2][name]))
    return bad


def main():
    rng = random.Random(35)
    fails = []
    with tempfile.TemporaryDirectory() as d:
        for blk in BLOCKS:
            dp = def_ports(blk)
            fake_netlist(os.path.join(d, "n.v"), blk, dp)
            ports = equiv.input_ports(blk, os.path.join(d, "n.v"))
            if ports != dp:
                fails.append("%s: input_ports %s, the .def %s" % (blk, ports, dp))
                continue
            steps = 7
            want, text = sat_table(ports, steps, rng)
            t, got, mm = convert(d, blk, ports, text)
            if t != steps or mm != steps - 3:
                fails.append("%s: trigger at step %s, mismatch edge %s" % (blk, t, mm))
            fails += round_trip(blk, want, got, steps)
            widest = max(b * c for _, b, c in ports)
            for why, kw in (("a reset at edge 2", dict(reset_at=4)),
                            ("an input that is no port", dict(extra="spare_i"))):
                _, text = sat_table(ports, steps, rng, **kw)
                try:
                    convert(d, blk, ports, text)
                    fails.append("%s: a table with %s became a trace" % (blk, why))
                except ValueError:
                    pass
            print("ok   %s: %d inputs (widest %d bits) round-trip over %d edges; mid-way "
                  "reset and a foreign input refused" % (blk, len(ports), widest, steps - 2))
        # the check can fail: keep 16 elements of the RVC decompressor's arr_i
        ports = def_ports("rvc_decomp")
        fake_netlist(os.path.join(d, "n.v"), "rvc_decomp", ports)
        short = [(n, b, min(c, 16)) for n, b, c in ports]
        want, text = sat_table(ports, 7, rng)
        try:
            _, got, _ = convert(d, "rvc_decomp", short, text)
            caught = bool(round_trip("rvc_decomp", want, got, 7))
        except ValueError:
            caught = True
        if caught:
            print("ok   a converter that drops arr_i[16..31] is caught")
        else:
            fails.append("a converter that drops arr_i[16..31] passes the round trip")
    for f in fails:
        print("FAIL " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
