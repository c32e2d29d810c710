#!/usr/bin/env python3
"""Writes a road-like graph in the binary .gr format (version 1) that
LonestarGPU reads (Galois's FileGraph): little-endian u64 version = 1,
edge-data size = 4, node count, edge count; u64 end index of each node's
edges; u32 destinations (padded to 8 bytes); u32 edge weights. The graph
is a W x H grid, every edge in both directions, weights 1..100 seeded: the
shape of the USA road networks the papers ran (degree 2 to 4), small
enough to simulate.

usage: galois_graph.py W H OUT [SEED]"""
import random
import struct
import sys


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit(__doc__.split("\n\n")[-1])
    w, h, out = int(argv[0]), int(argv[1]), argv[2]
    rng = random.Random(int(argv[3]) if len(argv) == 4 else 1)
    n = w * h
    adj = [[] for _ in range(n)]
    for y in range(h):
        for x in range(w):
            u = y * w + x
            for v in ([u + 1] if x + 1 < w else []) + ([u + w] if y + 1 < h else []):
                wt = rng.randint(1, 100)
                adj[u].append((v, wt))
                adj[v].append((u, wt))
    ends, dsts, wts, e = [], [], [], 0
    for u in range(n):
        adj[u].sort()
        e += len(adj[u])
        ends.append(e)
        dsts += [v for v, _ in adj[u]]
        wts += [x for _, x in adj[u]]
    with open(out, "wb") as f:
        f.write(struct.pack("<4Q", 1, 4, n, e))
        f.write(struct.pack(f"<{n}Q", *ends))
        f.write(struct.pack(f"<{e}I", *dsts))
        if e % 2:
            f.write(b"\0" * 4)
        f.write(struct.pack(f"<{e}I", *wts))


if __name__ == "__main__":
    main(sys.argv[1:])
