#!/usr/bin/env python3
"""The papers' programs section of docs/results/dac.md from the sweep of
experiments/dac_papers.toml (make experiments-dac_papers; the suites built,
docs/suites.md): usage: dac_papers.py SWEEP_OUT RESULTS_DIR.

Exports RESULTS_DIR/dac-programs.json (the statistics the section needs,
the suites' commits, the simulator build) and rewrites the section of
RESULTS_DIR/dac.md between its markers; experiments/dac.py draws the same
section from that JSON when it writes the whole page."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import dac   # noqa: E402

if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: dac_papers.py SWEEP_OUT RESULTS_DIR")
    dac.programs_only(sys.argv[1], sys.argv[2])
