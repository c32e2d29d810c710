#!/usr/bin/env python3
"""Expands Rodinia's hotspot inputs: writes N x N temperature and power
files (one value a line, row by row) by repeating each value of the
M x M files given (M dividing N) over an (N/M) x (N/M) block, as Rodinia's
inputGen expands its 64 x 64 measurements.

usage: rodinia_hotspot.py TEMP_IN POWER_IN N TEMP_OUT POWER_OUT"""
import math
import sys


def expand(src, n, dst):
    with open(src, encoding="ascii") as f:
        vals = [ln.strip() for ln in f if ln.strip()]
    m = math.isqrt(len(vals))
    if m * m != len(vals) or n % m:
        sys.exit(f"{src}: {len(vals)} values is not a square dividing {n} x {n}")
    r = n // m
    with open(dst, "w", encoding="ascii") as f:
        for i in range(n):
            row = vals[(i // r) * m:(i // r + 1) * m]
            f.writelines(f"{v}\n" for v in row for _ in range(r))


def main(argv):
    if len(argv) != 5:
        sys.exit(__doc__.split("\n\n")[-1])
    expand(argv[0], int(argv[2]), argv[3])
    expand(argv[1], int(argv[2]), argv[4])


if __name__ == "__main__":
    main(sys.argv[1:])
