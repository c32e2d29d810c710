#!/usr/bin/env python3
"""Writes small inputs in the formats Parboil 2.5's CUDA benchmarks read,
for when its datasets (pb2.5datasets) are not at hand. Seeded: the same
arguments give the same files.

  parboil.py sgemm M K N          A.txt (M x K), B.txt, Bt.txt (N x K): text,
                                  "rows cols" then the values column by column
  parboil.py stencil NX NY NZ     grid.bin: NX*NY*NZ float32
  parboil.py mri-q NUMK NUMX      data.bin: numK, numX (int32), then kx ky kz
                                  (numK), x y z (numX), phiR phiI (numK) float32
  parboil.py lbm X Y Z            obstacles.of: Z blocks of Y lines of X chars,
                                  '.' free, '#' a sphere in the middle
  parboil.py cutcp ATOMS SIDE     atoms.pqr: PQR ATOM records in a SIDE A box"""
import random
import struct
import sys


def sgemm(m, k, n):
    rng = random.Random(1)

    def write(name, rows, cols):
        with open(name, "w", encoding="ascii") as f:
            f.write(f"{rows} {cols}\n")
            f.write("\n".join(f"{rng.uniform(-1, 1):.6f}" for _ in range(rows * cols)))
            f.write("\n")
    write("A.txt", m, k)
    write("B.txt", k, n)
    write("Bt.txt", n, k)


def stencil(nx, ny, nz):
    rng = random.Random(1)
    with open("grid.bin", "wb") as f:
        f.write(struct.pack(f"<{nx * ny * nz}f",
                            *(rng.uniform(0, 1) for _ in range(nx * ny * nz))))


def mri_q(numk, numx):
    rng = random.Random(1)

    def floats(n, lo, hi):
        return struct.pack(f"<{n}f", *(rng.uniform(lo, hi) for _ in range(n)))
    with open("data.bin", "wb") as f:
        f.write(struct.pack("<ii", numk, numx))
        for _ in range(3):
            f.write(floats(numk, -0.5, 0.5))
        for _ in range(3):
            f.write(floats(numx, -16, 16))
        f.write(floats(numk, 0, 1))
        f.write(floats(numk, 0, 1))


def lbm(x, y, z):
    cx, cy, cz, r = x / 2, y / 2, z / 2, min(x, y, z) / 5
    with open("obstacles.of", "w", encoding="ascii") as f:
        for k in range(z):
            for j in range(y):
                f.write("".join("#" if (i - cx) ** 2 + (j - cy) ** 2 + (k - cz) ** 2 < r * r
                                else "." for i in range(x)) + "\n")
            f.write("\n")


def cutcp(atoms, side):
    rng = random.Random(1)
    with open("atoms.pqr", "w", encoding="ascii") as f:
        for i in range(atoms):
            x, y, z = (rng.uniform(0, side) for _ in range(3))
            q = rng.choice((-0.834, 0.417, 0.417))
            f.write(f"ATOM  {i + 1:5d}  OH2 TIP3 {i // 3 + 1:4d}    "
                    f"{x:8.3f}{y:8.3f}{z:8.3f} {q:7.4f} 1.5000\n")


def main(argv):
    fns = {"sgemm": sgemm, "stencil": stencil, "mri-q": mri_q, "lbm": lbm, "cutcp": cutcp}
    if not argv or argv[0] not in fns:
        sys.exit(__doc__)
    fns[argv[0]](*(int(a) for a in argv[1:]))


if __name__ == "__main__":
    main(sys.argv[1:])
