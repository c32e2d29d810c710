#!/usr/bin/env python3
"""Page generator of make experiments-compaction_more: usage:
compaction_more.py SWEEP_OUT RESULTS_DIR. The SLP permutations, CAPT
histories and CAPT sizes are part of docs/results/compaction.md, which
experiments/compaction.py writes from
this sweep's output (build/experiments/compaction_more) beside its own;
this script only checks that every point passed and says so."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))

from sweeplib import table   # noqa: E402


def main(out, res):
    rows = table.read_rows(out)
    bad = [r for r in rows if r["status"] != "pass"]
    if bad:
        sys.exit(f"compaction_more: {len(bad)} of {len(rows)} points did not pass")
    print(f"compaction_more: {len(rows)} points passed; docs/results/compaction.md "
          f"(make experiments-compaction) reads them from {out}, not {res}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: compaction_more.py SWEEP_OUT RESULTS_DIR")
    main(sys.argv[1], sys.argv[2])
