"""The sweep runner's library (docs/sweeps.md): spec parsing, grid
expansion and cache keys (spec, points), running points locally or as a
Slurm job array (runner, slurm), the merged table (table) and the plotting
helpers every results page uses (plot). tools/sweep.py is the command."""
