#!/usr/bin/env python3
"""One-gate mutant of a gate-level netlist (synth/netlist.sh output).

  mutate.py NETLIST.v OUT.v PORT[INDEX]

Finds the flop whose Q drives output bit PORT[INDEX] (PORT alone for a
one-bit port), then the cell that drives that flop's D, and replaces that
one cell by its dual (AND <-> OR, NAND <-> NOR, XOR <-> XNOR, AOI <-> OAI,
INV <-> BUF; a MUX2's data inputs swapped). Every other line is copied as
is. Prints what it changed. The mutant must fail `make equiv` and stop a
GPU run in the loop with a mismatch (exit 3): mk/gates.mk checks both.
Choosing the gate by the output it feeds, not at random, keeps the mutant
observable whatever the synthesis does to the rest of the block."""
import re
import sys

DUAL = {"AND2": "OR2", "AND3": "OR3", "AND4": "OR4", "NAND2": "NOR2",
        "NAND3": "NOR3", "NAND4": "NOR4", "XOR2": "XNOR2", "AOI21": "OAI21",
        "AOI22": "OAI22", "AOI211": "OAI211", "AOI221": "OAI221",
        "AOI222": "OAI222", "INV": "BUF"}
DUAL.update({v: k for k, v in list(DUAL.items())})

INST = re.compile(r"^(\s*)(\w+)\s+(\S+)\s*\(\s*$")
CONN = re.compile(r"^\s*\.(\w+)\((.*)\),?\s*$")


def instances(lines):
    """[(first line, last line, type, name, {pin: net})] of the cell
    instances write_verilog wrote (one connection per line)."""
    res = []
    i = 0
    while i < len(lines):
        m = INST.match(lines[i])
        if m and m.group(2) not in ("module", "input", "output", "wire", "reg",
                                    "assign", "parameter"):
            pins, j = {}, i + 1
            while j < len(lines) and not lines[j].strip().startswith(");"):
                c = CONN.match(lines[j])
                if c:
                    pins[c.group(1)] = (c.group(2).strip(), j)
                j += 1
            res.append((i, j, m.group(2), m.group(3), pins))
            i = j
        i += 1
    return res


def norm(net):
    return re.sub(r"\s+", "", net)


ASSIGN = re.compile(r"^\s*assign\s+(\S+)\s*=\s*(\S+)\s*;\s*$")
BIT = re.compile(r"^(\\?\S+?)\[(\d+)\]$")


def assigns(lines):
    """{lhs: rhs} of write_verilog's one-signal `assign` lines (a whole
    vector or one bit on each side)."""
    return {norm(m.group(1)): norm(m.group(2))
            for m in (ASSIGN.match(l) for l in lines) if m}


def source(alias, net):
    """The net an `assign` drives net from (bit i of a vector assigned
    whole: bit i of its source), or None."""
    if net in alias:
        return alias[net]
    m = BIT.match(net)
    if m and m.group(1) in alias and "[" not in alias[m.group(1)]:
        return "%s[%s]" % (alias[m.group(1)], m.group(2))
    return None


def main(argv):
    if len(argv) != 4:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    src, dst, target = argv[1], argv[2], norm(argv[3])
    lines = open(src).read().split("\n")
    end = next((k for k, l in enumerate(lines) if l.startswith("endmodule")), len(lines))
    insts = instances(lines[:end])       # the block's module, not the cell models
    drivers = {norm(p["Y"][0]): x for x in insts for p in [x[4]] if "Y" in p}
    alias = assigns(lines[:end])
    flop = None
    for _ in range(8):              # the port, then what `assign`s it
        flop = next((x for x in insts if "Q" in x[4] and norm(x[4]["Q"][0]) == target), None)
        nxt = source(alias, target)
        if flop is not None or nxt is None:
            break
        target = nxt
    if flop is None:
        print("mutate.py: no flop drives %s in %s" % (argv[3], src), file=sys.stderr)
        return 1
    d = norm(flop[4]["D"][0])
    cell = drivers.get(d)
    if cell is None:
        print("mutate.py: the D input of %s's flop (%s) is not driven by a cell"
              % (argv[3], d), file=sys.stderr)
        return 1
    first, _, typ, name, pins = cell
    if typ == "MUX2":
        (a, la), (b, lb) = pins["A"], pins["B"]
        lines[la] = lines[la].replace(".A(%s)" % a, ".A(%s)" % b)
        lines[lb] = lines[lb].replace(".B(%s)" % b, ".B(%s)" % a)
        what = "MUX2 %s: data inputs A and B swapped" % name
    elif typ in DUAL:
        lines[first] = lines[first].replace(typ, DUAL[typ], 1)
        what = "%s %s -> %s" % (typ, name, DUAL[typ])
    else:
        print("mutate.py: %s (%s) drives %s's flop: no dual cell" % (name, typ, argv[3]),
              file=sys.stderr)
        return 1
    lines.insert(0, "// MUTANT (synth/mutate.py %s): %s, the gate feeding the flop of %s"
                 % (argv[3], what, argv[3]))
    with open(dst, "w") as f:
        f.write("\n".join(lines))
    print("mutant: %s feeds %s; %s" % (name, argv[3], what))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
