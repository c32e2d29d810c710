#!/usr/bin/env python3
"""Writes a random K-SAT formula in DIMACS CNF (what LonestarGPU's survey
propagation reads, as its inputs random-N-M-K.cnf are): VARS variables,
CLAUSES clauses of K distinct literals, each negated with probability 1/2,
seeded.

usage: random_cnf.py VARS CLAUSES K OUT [SEED]"""
import random
import sys


def main(argv):
    if len(argv) not in (4, 5):
        sys.exit(__doc__.split("\n\n")[-1])
    nv, nc, k, out = int(argv[0]), int(argv[1]), int(argv[2]), argv[3]
    rng = random.Random(int(argv[4]) if len(argv) == 5 else 1)
    with open(out, "w", encoding="ascii") as f:
        f.write(f"p cnf {nv} {nc}\n")
        for _ in range(nc):
            lits = rng.sample(range(1, nv + 1), k)
            f.write(" ".join(str(v if rng.random() < 0.5 else -v) for v in lits) + " 0\n")


if __name__ == "__main__":
    main(sys.argv[1:])
