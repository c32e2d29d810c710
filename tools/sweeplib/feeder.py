"""A sweep that feeds another experiment's page (experiments/NAME.py of
such a sweep calls run()): the page's own script reads this sweep's output
from build/experiments/NAME; the feeder only checks that every point
passed and says where its results go. tests/pages/make-fixtures.py makes
no fixture for a feeder (it writes no page)."""
import sys

from sweeplib import table


def run(name, page, argv):
    """experiments/NAME.py SWEEP_OUT RESULTS_DIR for a sweep read by
    docs/results/PAGE.md's script."""
    if len(argv) != 3:
        sys.exit(f"usage: {name}.py SWEEP_OUT RESULTS_DIR")
    out, res = argv[1], argv[2]
    rows = table.read_rows(out)
    bad = [r for r in rows if r["status"] != "pass"]
    if bad:
        sys.exit(f"{name}: {len(bad)} of {len(rows)} points did not pass")
    print(f"{name}: {len(rows)} points passed; {res}/{page}.md (make experiments-{page}) "
          f"reads them from {out}")
