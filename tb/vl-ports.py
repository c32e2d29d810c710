#!/usr/bin/env python3
"""Checks a Verilated module's ports against the block's port table.

usage: vl-ports.py XML BLK RTL_FILE PORTS [-GNAME=value ...]

XML is `verilator --xml-only` output for top module BLK under the -G
parameters; PORTS is name:in|out:width,... from the C model. Prints one
line per problem (a missing, extra, mis-directed or mis-sized port, a
parameter the module lacks) naming the file, and exits 2; exits 0 when
the module matches."""
import sys
import xml.etree.ElementTree as ET


def main():
    xml, blk, rtl, ports = sys.argv[1:5]
    gparams = [g[2:].split('=', 1)[0] for g in sys.argv[5:] if g.startswith('-G')]
    root = ET.parse(xml).getroot()
    types = {}
    for t in root.iter('basicdtype'):
        left, right = t.get('left'), t.get('right')
        w = abs(int(left) - int(right)) + 1 if left is not None else 1
        types[t.get('id')] = w
    top = None
    for m in root.iter('module'):
        if m.get('topModule') == '1' or m.get('origName') == blk:
            top = m
            break
    problems = []
    if top is None:
        print(f"{rtl}: no module named {blk}", file=sys.stderr)
        return 2
    have = {}
    params = set()
    for v in top.findall('var'):
        name = v.get('origName') or v.get('name')
        if v.get('param') == 'true':
            params.add(name)
        elif v.get('dir') in ('input', 'output'):
            have[name] = ('in' if v.get('dir') == 'input' else 'out',
                          types.get(v.get('dtype_id')))
    for p in gparams:
        if p not in params:
            problems.append(f"parameter {p} is missing (the block's RTL has it)")
    want = {}
    for item in ports.split(','):
        name, d, w = item.split(':')
        want[name] = (d, int(w))
    for clk in ('clk_i', 'rst_ni'):
        want.setdefault(clk, ('in', 1))
    for name, (d, w) in want.items():
        if name not in have:
            problems.append(f"port {name} ({d}put, {w} bits) is missing")
            continue
        hd, hw = have[name]
        if hd != d:
            problems.append(f"port {name} is an {hd}put, expected an {d}put")
        elif hw is not None and hw != w:
            problems.append(f"port {name} is {hw} bits wide, expected {w}")
    for name in have:
        if name not in want:
            problems.append(f"port {name} is not a port of the {blk} block")
    if problems:
        where = ' '.join(sys.argv[5:])
        for p in problems:
            print(f"{rtl}: module {blk} ({where}): {p}", file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main())
