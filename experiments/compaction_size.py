#!/usr/bin/env python3
"""make experiments-compaction_size: The size study of docs/results/compaction.md, which
experiments/compaction.py writes from this sweep's output
(build/experiments/compaction_size) beside its own: usage: compaction_size.py SWEEP_OUT
RESULTS_DIR checks that every point passed (sweeplib/feeder.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))

from sweeplib import feeder   # noqa: E402

if __name__ == "__main__":
    feeder.run("compaction_size", "compaction", sys.argv)
