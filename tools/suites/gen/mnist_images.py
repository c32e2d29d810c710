#!/usr/bin/env python3
"""Writes COUNT 28 x 28 greyscale images in the MNIST idx3 file format
(big-endian magic 2051, count, rows, cols, then the pixels) to OUT, and
links the files of each extra directory given next to it. The images are
seeded random strokes, not handwriting: a stand-in of the right format and
size for programs that read MNIST's t10k-images-idx3-ubyte (the GPGPU-Sim
ISPASS 2009 NN), whose 7.8 MB file is not in the public tree.

usage: mnist_images.py COUNT OUT [LINK_DIR...]"""
import os
import random
import struct
import sys


def image(rng):
    px = bytearray(28 * 28)
    x, y = rng.uniform(6, 22), rng.uniform(6, 22)
    for _ in range(rng.randint(60, 160)):
        x = min(26.0, max(1.0, x + rng.uniform(-1.2, 1.2)))
        y = min(26.0, max(1.0, y + rng.uniform(-1.2, 1.2)))
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                i = (int(y) + dy) * 28 + int(x) + dx
                px[i] = min(255, px[i] + (255 if dx == dy == 0 else 90))
    return bytes(px)


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__.split("\n\n")[-1])
    n, out = int(argv[0]), argv[1]
    rng = random.Random(1)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "wb") as f:
        f.write(struct.pack(">IIII", 2051, n, 28, 28))
        for _ in range(n):
            f.write(image(rng))
    for d in argv[2:]:
        for name in sorted(os.listdir(d)):
            dst = os.path.join(os.path.dirname(os.path.abspath(out)), name)
            if not os.path.exists(dst):
                os.symlink(os.path.join(os.path.abspath(d), name), dst)


if __name__ == "__main__":
    main(sys.argv[1:])
