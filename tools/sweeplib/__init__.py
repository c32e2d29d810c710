"""The sweep runner's library (docs/sweeps.md): spec parsing, grid
expansion and cache keys (spec, points), running points locally or as a
Slurm job array (runner, slurm), the merged table (table) and the plotting
helpers every results page uses (plot); the papers' programs from public
suites (suites: descriptors; programs: build, run, check and the sweep's
programs axis; progpage: the pages' programs sections, docs/suites.md).
tools/sweep.py and tools/suite.py are the commands."""
