#!/usr/bin/env python3
"""make experiments-dpe_size: The size study of docs/results/dpe.md, which
experiments/dpe.py writes from this sweep's output
(build/experiments/dpe_size) beside its own: usage: dpe_size.py SWEEP_OUT
RESULTS_DIR checks that every point passed (sweeplib/feeder.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))

from sweeplib import feeder   # noqa: E402

if __name__ == "__main__":
    feeder.run("dpe_size", "dpe", sys.argv)
