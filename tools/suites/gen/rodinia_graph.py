#!/usr/bin/env python3
"""Writes a random graph in the text format Rodinia's BFS reads (its
GraphFormat.txt): the node count; per node "first-edge degree"; the source
node; the edge count; per edge "destination weight". Edges are undirected
(each stored at both ends), every node starting 2 to 4 of them, weights 1
to 10, as Rodinia's own generator makes them; seeded, so the same
arguments give the same file.

usage: rodinia_graph.py NODES OUT [SEED]"""
import random
import sys


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__.split("\n\n")[-1])
    n, out = int(argv[0]), argv[1]
    rng = random.Random(int(argv[2]) if len(argv) == 3 else 1)
    adj = [[] for _ in range(n)]
    for u in range(n):
        for _ in range(rng.randint(2, 4)):
            v, w = rng.randrange(n), rng.randint(1, 10)
            adj[u].append((v, w))
            adj[v].append((u, w))
    with open(out, "w", encoding="ascii") as f:
        f.write(f"{n}\n")
        start = 0
        for u in range(n):
            f.write(f"{start} {len(adj[u])}\n")
            start += len(adj[u])
        f.write(f"\n0\n\n{start}\n")
        for u in range(n):
            f.writelines(f"{v} {w}\n" for v, w in adj[u])


if __name__ == "__main__":
    main(sys.argv[1:])
