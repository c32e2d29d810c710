/* `lockstep diff OLD.json NEW.json`: compares two --stats-json files
 * (docs/stats.md) figure by figure, per workload and per launch, for
 * golden-model checks in CI (docs/golden.md). */
#ifndef CLI_DIFF_H
#define CLI_DIFF_H

/* `lockstep diff [--tol PCT] [--only KEY,...] [--format text|markdown|json]
 * OLD NEW` (argv after the command word). Returns 0 when every figure is
 * within tolerance and no result changed, 1 when not, 2 on bad input or
 * usage (with a "lockstep: diff: ..." message on stderr). */
int cli_diff(int argc, char **argv);

#endif
