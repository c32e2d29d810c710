/* The lockstep command line: `list`, `check`, `run`. Each command returns the
 * process exit status: 0 success, 1 a failing run, 2 a usage/parse error. */
#ifndef CLI_H
#define CLI_H

#include <stdint.h>
#include <stdio.h>
#include "lockstep.h"

#define CLI_VERSION "0.1.0"

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* Result of running one workload (what the table and JSON report). */
struct cli_result {
    const char *workload;
    const char *category;
    const char *size;          /* "small", "default", "large"             */
    uint64_t seed;
    int pass;
    char msg[320];             /* first failure, "" on a pass              */
    ls_stats total;            /* summed over launches                     */
    unsigned nlaunches;
    double wall_s;             /* simulation seconds (stats, else measured) */
};

/* `lockstep list workloads|configs`; argv0 locates configs/ next to the
 * executable. Returns an exit status. */
int cli_list(const char *argv0, int argc, char **argv);
/* `lockstep check FILE.ptx`: parses and prints the module summary; parse
 * errors go to stderr as file:line:col and give status 2. */
int cli_check(int argc, char **argv);
/* `lockstep run WORKLOAD...|all [options]`. Returns an exit status. */
int cli_run(int argc, char **argv);

/* Writes r as one JSON object (no trailing newline) at the given indent. */
void cli_json_result(FILE *f, const struct cli_result *r, int indent);
/* Writes n results as an aligned table with a header and a totals line. */
void cli_print_table(FILE *f, const struct cli_result *r, size_t n);
/* Thread instructions per second of r (0 when no time was measured). */
double cli_rate(uint64_t insts, double wall_s);

#endif
