/* The lockstep command line: `list`, `check`, `run`, `config`, `replay`.
 * Each command returns the process exit status: 0 success, 1 a failing
 * run (wrong result), 2 a usage/parse error, 3 an RTL/C lockstep mismatch. */
#ifndef CLI_H
#define CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "lockstep.h"
#include "api/api_int.h"

#define CLI_VERSION "0.1.0"

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2, CLI_MISMATCH = 3, CLI_CHECK = 4 };

/* Version of the --stats-json layout (docs/stats.md). */
#define CLI_STATS_SCHEMA API_STATS_SCHEMA

/* Result of running one workload (what the table and JSON report). */
struct cli_result {
    const char *workload;
    const char *category;
    const char *size;          /* "small" ... "xlarge"                    */
    uint64_t seed;
    const char *mode;          /* "functional" or "timing"                */
    const char *config;        /* config name/file, "default" when none   */
    int pass;
    char msg[16384];           /* first failure, "" on a pass (a mismatch
                                  report with its input history fits)     */
    int mismatch;              /* an RTL block disagreed (exit status 3)  */
    ls_stats total;            /* summed over launches                     */
    unsigned nlaunches;
    struct api_launch *launch; /* per-launch records (malloc'd), nlaunch_rec */
    unsigned nlaunch_rec;
    int have_digest;           /* mem_digest is valid                      */
    uint64_t mem_digest;       /* ls_mem_digest after the last launch      */
    double wall_s;             /* simulation seconds (stats, else measured) */
    unsigned checks_on;        /* ls_checks_enabled bits                  */
    ls_check_finding *chk;     /* racecheck/synccheck/initcheck findings  */
    size_t nchk;               /*   (malloc'd copy of ls_check_findings)  */
    int check_error;           /* a launch returned LS_ERR_CHECK (exit 4) */
};

/* `lockstep list workloads|configs` (configs: the shipped ones embedded in
 * the library, or the *.conf of $LOCKSTEP_CONFIGS; argv0 is unused).
 * Returns an exit status. */
int cli_list(const char *argv0, int argc, char **argv);
/* `lockstep check FILE.ptx`: parses and prints the module summary; parse
 * errors go to stderr as file:line:col and give status 2. */
int cli_check(int argc, char **argv);
/* `lockstep branches FILE.ptx|WORKLOAD|all... [--kernel K] [--control]
 * [--json]`: the P/D class of every conditional branch (ptx_taint.h).
 * Returns an exit status. */
int cli_branches(int argc, char **argv);
/* `lockstep check --affine FILE.ptx|WORKLOAD|all... [--kernel K] [--json]`
 * (argv without --affine): the affine class of every instruction and the
 * static potentially-affine fraction (ptx_affine.h). Returns an exit status. */
int cli_affine(int argc, char **argv);

/* `lockstep check --dac FILE.ptx|WORKLOAD|all... [--kernel K] [--json]`
 * (argv without --dac): the decoupling transform of every function, its
 * two streams with the enq/deq ops, and the static counts (ptx_dac.h).
 * Returns an exit status. */
int cli_dac(int argc, char **argv);
/* Options of a static-analysis report (check --affine, --dac). */
struct cli_pass_opts {
    const char *kernel;         /* only this function (NULL: all)          */
    bool json;
    bool kernel_seen;           /* a function of that name was reported    */
};
/* One static-analysis report: its name (the check option without --), the
 * size of its summed statistics, how it reports one function of module m
 * (first: the module's first; adds its figures into sum; 0, or -1 after
 * printing why it failed) and how it prints the sums (as JSON or text). */
struct ptx_module;
struct ptx_func;
struct cli_pass {
    const char *name;
    size_t stats_size;
    int (*func)(const char *label, const struct ptx_module *m, const struct ptx_func *f,
                const struct cli_pass_opts *o, bool first, void *sum);
    void (*stats)(const void *sum, bool json);
};
/* `lockstep check --NAME [--kernel K] [--json] FILE.ptx|WORKLOAD|all...`
 * for pass p (argv without --NAME): the options, each module, the JSON
 * envelope, the errors. Returns an exit status. */
int cli_pass_main(const struct cli_pass *p, int argc, char **argv);
/* Reads a whole file into a NUL-terminated buffer (malloc'd, *len bytes
 * without the NUL); NULL with errno set (EFBIG above PTX_MAX_TEXT). */
char *cli_read_file(const char *path, size_t *len);
/* `lockstep run WORKLOAD...|all [options]`. Returns an exit status. */
int cli_run(int argc, char **argv);
/* `lockstep exec [machine options] [--stats-json F] [--quiet] -- PROG ARGS`:
 * runs a CUDA program built with nvcc -cudart shared on the simulator
 * (build/libcudart.so.13 preloaded; docs/cuda-programs.md). Replaces the
 * process with the program; returns an exit status only on an error. */
int cli_exec(int argc, char **argv);
/* `lockstep config [--config X] [--set k=v]... --dump`: prints the effective
 * timing configuration; a bad config or override gives status 2. */
int cli_config(int argc, char **argv);

/* Machine options shared by `run` and `config`. */
struct cli_machine {
    int mode;                  /* -1: library default, else an ls_mode    */
    const char *config;        /* NULL: built-in defaults                 */
    const char **sets;         /* NULL-terminated overrides (malloc'd,
                                  argc + CLI_EXTRA_SETS entries)           */
    int nsets;
    /* RTL in the loop: --cosim LIST, --backend B, --rtl BLK=FILE */
    int cosim[LS_BLK_COUNT];   /* 1: listed by --cosim                    */
    int cosim_given;
    const char *backend;       /* what --cosim gives (default lockstep)   */
    const char **rtl;          /* NULL-terminated (malloc'd, argc + 1)    */
    int nrtl;
    char cosim_sets[LS_BLK_COUNT + 1][48];
    char check_set[96];        /* "check=LIST" from --check               */
    char memcheck_set[32];     /* "memcheck=MODE" from --memcheck         */
    char schedule_set[32];     /* "schedule=MODE" from --schedule         */
};
#define CLI_EXTRA_SETS (LS_BLK_COUNT + 2)
/* Allocates m's arrays for argc arguments. Returns 0 or -1. */
int cli_machine_alloc(struct cli_machine *m, int argc);
/* Frees m's arrays. */
void cli_machine_free(struct cli_machine *m);
/* If argv[*i] is a machine option (--mode, --config, --set, --check LIST,
 * --check-error, with a
 * separate or =value), consumes it (advancing *i) into m and returns 1;
 * returns 0 when it is not one, CLI_USAGE+1 (3) after printing why a value
 * is missing or bad. m->sets must hold argc+1 entries. */
int cli_machine_opt(struct cli_machine *m, int argc, char **argv, int *i,
                    const char *cmd);
/* Applies m to cfg (mode, config, sets, the --cosim backends, --rtl). */
void cli_machine_apply(struct cli_machine *m, ls_config *cfg);
/* Checks that cfg's config and overrides are valid (via ls_config_dump);
 * prints "lockstep: CMD: message" and returns CLI_USAGE if not, else 0. */
int cli_machine_check(const ls_config *cfg, const char *cmd);

/* Writes r as one JSON object (no trailing newline) at the given indent. */
void cli_json_result(FILE *f, const struct cli_result *r, int indent);
/* Writes n results as an aligned table with a header and a totals line
 * (timing columns when the results carry cycles). */
void cli_print_table(FILE *f, const struct cli_result *r, size_t n);
/* Closes f (flushes it if stdout) and reports a write error on path.
 * Returns 0 or -1 after printing why. */
int cli_close_out(FILE *f, const char *path);
/* Prints one line per block the runs clocked: backend, instances, cycles
 * compared (or stepped), idle edges skipped, transactions, mismatches. */
void cli_print_cosim(FILE *f, const struct cli_result *r, size_t n);
/* Writes JUnit XML: one testcase per workload and one per workload and
 * clocked block (the mismatch report as the failure text). Returns 0 or
 * -1 after printing why. */
int cli_write_junit(const char *path, const struct cli_result *r, size_t n);
/* `lockstep replay TRACE [--fst FILE]`: re-runs a block trace on the C
 * model and the RTL. Returns 0 (no mismatch), 3 (reproduced), 2 (bad
 * file or usage). */
int cli_replay(int argc, char **argv);
/* `lockstep coverage WORKLOAD...|all [--size S] [--seed N] [machine
 * options] [--json FILE]`: the blocks' functional coverage bins the
 * workloads reach (docs/blocks/coverage.md). Returns an exit status. */
int cli_coverage(int argc, char **argv);

/* Compares commit logs pa (named na in messages, the expected one) and pb
 * (nb) warp by warp; prints the first differing record of each warp, lane
 * by lane, and a summary to out. Returns 0 identical, 1 different, 2 bad
 * input. */
int cli_commit_diff(const char *pa, const char *pb, const char *na, const char *nb,
                    FILE *out);
/* cli_commit_diff; per_thread: a warp whose records differ in order is
 * equal when each of its threads saw the same records (its lane's values)
 * in the same order: dual-path and DWS interleave a warp's paths. */
int cli_commit_diff_opt(const char *pa, const char *pb, const char *na, const char *nb,
                        bool per_thread, FILE *out);

/* 1 when workload is in measured category cat ("all", "divergent",
 * "non-divergent", "fg", "cg"), 0 when not, -1 for an unknown category. */
int cli_wl_in_category(const char *workload, const char *cat);
/* 1 when workload has a row in workloads/categories.tsv. */
int cli_wl_measured(const char *workload);
/* Appends the workloads of category cat (no '@') to names, at most max,
 * in registry order; an unmeasured workload is left out (but for "all")
 * with a note on stderr. Returns the count or -1 (unknown category, message
 * printed, prefixed "lockstep: who:"). */
int cli_wl_select(const char *cat, const char **names, int max, const char *who);
/* `lockstep list workloads --long`: driver category, measured categories,
 * the papers' table rows. */
void cli_wl_list_long(FILE *out);

/* Thread instructions per second of r (0 when no time was measured). */
double cli_rate(uint64_t insts, double wall_s);
/* misses / accesses of a cache (0 when it saw no access). */
double cli_miss_rate(const ls_cache_stats *c);

#endif
