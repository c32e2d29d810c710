#!/usr/bin/env python3
"""Writes the key file Rodinia's b+tree reads ("file" argument): the key
count, then the keys 1..N one per line in a seeded random order, and the
command file it runs ("command" argument): COUNT range queries ("j") and
COUNT point queries ("k"), Rodinia's own command.txt for N = 1,000,000
being "j 6000 3000" and "k 10000". The command file ends in a NUL byte:
b+tree reads it into a buffer it never terminates and parses commands up
to the first NUL, so without one it runs whatever follows in the heap.

usage: rodinia_btree.py N KEYS_OUT COMMANDS_OUT [SEED]"""
import random
import sys


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit(__doc__.split("\n\n")[-1])
    n, keys, cmds = int(argv[0]), argv[1], argv[2]
    rng = random.Random(int(argv[3]) if len(argv) == 4 else 1)
    order = list(range(1, n + 1))
    rng.shuffle(order)
    with open(keys, "w", encoding="ascii") as f:
        f.write(f"{n}\n")
        f.writelines(f"{k}\n" for k in order)
    count = max(1, n // 100)
    with open(cmds, "w", encoding="ascii") as f:
        f.write(f"j {count} {max(1, count // 2)}\nk {count}\n\0")


if __name__ == "__main__":
    main(sys.argv[1:])
