/* `lockstep run`: runs workloads on fresh GPUs and reports per launch, per
 * workload, as a table and as JSON. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include "cli/cli.h"
#include "workloads/workload.h"
#include "workloads/wl_ptx.h"

struct run_opts {
    enum wl_size size;
    uint64_t seed;
    const char *json_path;     /* NULL: no JSON                           */
    const char *junit_path;    /* NULL: no JUnit XML                      */
    const char *fail_dir;      /* NULL: build/fail of the source tree     */
    const char *commit_log;    /* --commit-log FILE (one workload)        */
    int compare_modes;         /* --compare-modes                         */
    int table;
    int all;
    int jobs;                  /* --jobs: workloads run at once (>= 1)    */
    const char **names;        /* workloads named on the command line     */
    int nnames;
    FILE *human;               /* report stream: stderr when JSON -> stdout */
    struct cli_machine m;      /* --mode, --config, --set                 */
    ls_config cfg;             /* the GPU configuration every run uses    */
};

/* What the per-launch hook needs. */
struct launch_ctx {
    FILE *out;                 /* NULL: quiet (table mode)                */
    const char *workload;
    unsigned index;
    struct cli_result *r;      /* receives the per-launch records         */
    ls_gpu *gpu;               /* for the memory digest after each launch */
    int digest;                /* take it (only JSON reports it)          */
};

static const char *const size_names[] = { "small", "default", "large", "xlarge" };

/* Ctrl-C: the first SIGINT raises this flag, which every GPU of the run
 * watches (ls_config.cancel): the launch in flight stops with its
 * statistics so far, the report and JSON are written, and the run exits
 * 130. A second SIGINT exits at once. A signal handler can reach the
 * program only through a static flag; nothing else here is global. */
static volatile sig_atomic_t cli_sigint;
_Static_assert(sizeof(sig_atomic_t) == sizeof(int), "cancel flag is an int");

static void on_sigint(int sig)
{
    (void)sig;
    if (cli_sigint)
        _exit(130);
    cli_sigint = 1;
}

/* A worker process (--jobs): every SIGINT only raises the flag (the
 * terminal's Ctrl-C and the one the parent forwards may both arrive);
 * the parent decides when to give up on it. */
static void on_sigint_worker(int sig)
{
    (void)sig;
    cli_sigint = 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void on_launch(void *user, const char *kernel, ls_status st,
                      const ls_stats *s)
{
    struct launch_ctx *c = user;
    c->index++;
    struct cli_result *r = c->r;
    if (r->nlaunch_rec < c->index) {
        struct api_launch *nl = realloc(r->launch, c->index * sizeof *nl);
        if (nl) {
            r->launch = nl;
            struct api_launch *l = &nl[r->nlaunch_rec++];
            memset(l, 0, sizeof *l);
            snprintf(l->kernel, sizeof l->kernel, "%s", kernel ? kernel : "");
            l->status = st;
            if (s)
                l->s = *s;
            /* device memory right after the launch: drivers free their
             * buffers before returning, so this is where it is visible */
            if (c->digest && ls_mem_digest(c->gpu, &l->mem_digest) == LS_OK) {
                l->have_digest = 1;
                r->mem_digest = l->mem_digest;
                r->have_digest = 1;
            }
        }
    }
    if (!c->out)
        return;
    if (st != LS_OK) {
        fprintf(c->out, "  FAIL %s launch %u %s: %s\n", c->workload, c->index,
                kernel, ls_status_name(st));
        if (st == LS_ERR_INTERRUPTED && s)
            fprintf(c->out, "  interrupted %s launch %u %s: so far %llu cycles, "
                    "%llu warp insts, %llu thread insts, SIMD util %.3f\n",
                    c->workload, c->index, kernel, (unsigned long long)s->cycles,
                    (unsigned long long)s->warp_insts,
                    (unsigned long long)s->thread_insts, s->simd_util);
        return;
    }
    if (s->cycles) {
        fprintf(c->out, "  PASS %s launch %u %s: %llu cycles, IPC %.3f, "
                "%llu warp insts, %llu thread insts, SIMD util %.3f, "
                "idle %llu SM-cycles, L1D miss %.3f, L2 miss %.3f, "
                "DRAM %llu B\n", c->workload, c->index, kernel,
                (unsigned long long)s->cycles, s->ipc,
                (unsigned long long)s->warp_insts,
                (unsigned long long)s->thread_insts, s->simd_util,
                (unsigned long long)s->idle_cycles, cli_miss_rate(&s->l1d),
                cli_miss_rate(&s->l2), (unsigned long long)s->dram.bytes);
        return;
    }
    fprintf(c->out, "  PASS %s launch %u %s: %llu warp insts, %llu thread insts, "
            "SIMD util %.3f, %llu divergent branches, max stack %llu\n",
            c->workload, c->index, kernel, (unsigned long long)s->warp_insts,
            (unsigned long long)s->thread_insts, s->simd_util,
            (unsigned long long)s->divergent_branches,
            (unsigned long long)s->max_stack_depth);
}

/* Runs one workload into *r; never exits. */
static void run_one(const struct workload *w, const struct run_opts *o,
                    struct cli_result *r)
{
    memset(r, 0, sizeof *r);
    r->workload = w->name;
    r->category = w->category;
    r->size = size_names[o->size];
    r->seed = o->seed;

    if (o->size == WL_XLARGE && !wl_has_xlarge(w->name)) {
        snprintf(r->msg, sizeof r->msg, "%s has no xlarge input "
                 "(docs/workloads.md \"Sizes\")", w->name);
        return;
    }
    const struct wl_ptx_blob *blob = wl_ptx_find(w->name);
    if (!blob) {
        snprintf(r->msg, sizeof r->msg, "no embedded PTX named %s", w->name);
        return;
    }
    r->mode = o->cfg.mode == LS_MODE_TIMING ? "timing" : "functional";
    r->config = o->cfg.config ? o->cfg.config : "builtin";
    char err[4096] = "";
    ls_config cfg = o->cfg;
    cfg.run_name = w->name;     /* mismatch files: <fail_dir>/<workload>/ */
    ls_gpu *gpu = ls_gpu_create(&cfg, err, sizeof err);
    if (!gpu) {
        snprintf(r->msg, sizeof r->msg, "creating the GPU: %s", err);
        return;
    }
    ls_module *mod = NULL;
    ls_status st = ls_module_load_text(gpu, blob->path, blob->text, blob->len, &mod);
    if (st != LS_OK) {
        snprintf(r->msg, sizeof r->msg, "loading %s: %s: %s", blob->path,
                 ls_status_name(st), ls_gpu_error(gpu));
        ls_gpu_destroy(gpu);
        return;
    }
    struct launch_ctx lc = { o->table ? NULL : o->human, w->name, 0, r, gpu,
                             o->json_path != NULL };
    struct wl_report rep;
    memset(&rep, 0, sizeof rep);
    rep.on_launch = on_launch;
    rep.user = &lc;
    double t0 = now_s();
    int rc = w->run(gpu, mod, o->size, o->seed, &rep);
    double t1 = now_s();
    r->total = rep.total;
    r->nlaunches = rep.nlaunches;
    if (r->nlaunch_rec == rep.nlaunches && rep.nlaunches) {
        /* every field summed (the timing counters included) */
        memset(&r->total, 0, sizeof r->total);
        for (unsigned i = 0; i < r->nlaunch_rec; i++)
            ls_stats_add(&r->total, &r->launch[i].s, 32);
    }
    if (rc == LS_ERR_INTERRUPTED && r->nlaunch_rec) {
        /* the launch in flight counts with what it did so far */
        memset(&r->total, 0, sizeof r->total);
        for (unsigned i = 0; i < r->nlaunch_rec; i++)
            ls_stats_add(&r->total, &r->launch[i].s, 32);
    }
    r->wall_s = rep.total.wall_s > 0 ? rep.total.wall_s : t1 - t0;
    r->pass = rc == 0 && rep.pass && rep.nlaunches > 0;
    if (rc != 0 && ls_gpu_error(gpu)[0])
        /* the GPU's whole message (a deadlock report names every warp);
         * the driver's copy is cut at 256 bytes */
        snprintf(r->msg, sizeof r->msg, "%s: %s", ls_status_name((ls_status)rc),
                 ls_gpu_error(gpu));
    else if (rep.msg[0])
        snprintf(r->msg, sizeof r->msg, "%s", rep.msg);
    else if (rc != 0)
        snprintf(r->msg, sizeof r->msg, "%s: %s", ls_status_name((ls_status)rc),
                 ls_gpu_error(gpu));
    else if (rep.nlaunches == 0)
        snprintf(r->msg, sizeof r->msg, "the driver launched no kernel");
    /* a lockstep mismatch: the run stopped on it (its report is the GPU's
     * error) or, under cosim_continue, counted it */
    r->mismatch = rc == LS_ERR_COSIM;
    for (unsigned i = 0; i < r->nlaunch_rec; i++)
        r->mismatch |= r->launch[i].status == LS_ERR_COSIM;
    for (int b = 0; b < LS_BLK_COUNT; b++)
        r->mismatch |= r->total.cosim[b].mismatches > 0;
    if (r->mismatch) {
        /* the whole report (the driver's message may have cut it) */
        const char *e = ls_gpu_error(gpu);
        if (rc == LS_ERR_COSIM && e[0])
            snprintf(r->msg, sizeof r->msg, "%s", e);
        else if (!r->msg[0])
            snprintf(r->msg, sizeof r->msg, "RTL/C mismatches counted under "
                     "cosim_continue (see the cosim statistics)");
    }
    if (r->mismatch)
        r->pass = 0;
    /* racecheck, synccheck, initcheck: every finding of every launch */
    const ls_check_finding *cl = NULL;
    size_t nc = ls_check_findings(gpu, &cl);
    r->checks_on = ls_checks_enabled(gpu);
    if (nc && (r->chk = malloc(nc * sizeof *r->chk)) != NULL) {
        memcpy(r->chk, cl, nc * sizeof *r->chk);
        r->nchk = nc;
    }
    r->check_error = rc == LS_ERR_CHECK;
    for (unsigned i = 0; i < r->nlaunch_rec; i++)
        r->check_error |= r->launch[i].status == LS_ERR_CHECK;
    ls_gpu_destroy(gpu);
}

/* Findings printed per workload; --stats-json has all of them. */
#define CLI_CHECK_PRINT 10

static void print_checks(FILE *f, const struct cli_result *r)
{
    char line[1024];
    for (size_t i = 0; i < r->nchk && i < CLI_CHECK_PRINT; i++)
        fprintf(f, "  CHECK %s: %s\n", r->workload, ls_check_format(&r->chk[i], line,
                                                                   sizeof line));
    if (r->nchk > CLI_CHECK_PRINT)
        fprintf(f, "  CHECK %s: %zu more findings (all of them in --stats-json)\n",
                r->workload, r->nchk - CLI_CHECK_PRINT);
}

static void print_result(FILE *f, const struct cli_result *r)
{
    if (!r->pass) {
        fprintf(f, "FAIL %s (%s, seed %llu): %s\n", r->workload, r->size,
                (unsigned long long)r->seed, r->msg);
        return;
    }
    const ls_stats *s = &r->total;
    if (s->cycles) {
        fprintf(f, "PASS %s (%s, seed %llu, %s): %u launches, %llu cycles, "
                "IPC %.3f, %llu warp insts, %llu thread insts, SIMD util %.3f, "
                "idle %llu SM-cycles (scoreboard %llu, pipe %llu, mem %llu, "
                "barrier %llu, ibuffer %llu, no warps %llu), "
                "L1D %llu acc miss %.3f, L2 %llu acc miss %.3f, "
                "DRAM %llu B (%llu row hits, %llu activates), "
                "%.3f s, %.2f M thread-inst/s, %.0f cycles/s\n",
                r->workload, r->size, (unsigned long long)r->seed, r->config,
                r->nlaunches, (unsigned long long)s->cycles, s->ipc,
                (unsigned long long)s->warp_insts,
                (unsigned long long)s->thread_insts, s->simd_util,
                (unsigned long long)s->idle_cycles,
                (unsigned long long)s->stall.scoreboard,
                (unsigned long long)s->stall.pipe_busy,
                (unsigned long long)s->stall.mem_wait,
                (unsigned long long)s->stall.barrier,
                (unsigned long long)s->stall.ibuffer,
                (unsigned long long)s->stall.no_warps,
                (unsigned long long)s->l1d.accesses, cli_miss_rate(&s->l1d),
                (unsigned long long)s->l2.accesses, cli_miss_rate(&s->l2),
                (unsigned long long)s->dram.bytes,
                (unsigned long long)s->dram.row_hits,
                (unsigned long long)s->dram.activates, r->wall_s,
                cli_rate(s->thread_insts, r->wall_s) / 1e6,
                cli_rate(s->cycles, r->wall_s));
        return;
    }
    fprintf(f, "PASS %s (%s, seed %llu): %u launches, %llu warp insts, "
            "%llu thread insts, SIMD util %.3f, %llu divergent branches, "
            "max stack %llu, %.3f s, %.2f M thread-inst/s\n",
            r->workload, r->size, (unsigned long long)r->seed, r->nlaunches,
            (unsigned long long)r->total.warp_insts,
            (unsigned long long)r->total.thread_insts, r->total.simd_util,
            (unsigned long long)r->total.divergent_branches,
            (unsigned long long)r->total.max_stack_depth, r->wall_s,
            cli_rate(r->total.thread_insts, r->wall_s) / 1e6);
}

static int write_json(const char *path, const struct cli_result *res, size_t n,
                      int as_list)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
    if (!f) {
        fprintf(stderr, "lockstep: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (as_list) {
        fprintf(f, "[\n");
        for (size_t i = 0; i < n; i++) {
            cli_json_result(f, &res[i], 2);
            fprintf(f, "%s\n", i + 1 < n ? "," : "");
        }
        fprintf(f, "]\n");
    } else {
        cli_json_result(f, &res[0], 0);
        fprintf(f, "\n");
    }
    return cli_close_out(f, path);
}

static int parse_size(const char *s, enum wl_size *out)
{
    for (int i = 0; i < (int)(sizeof size_names / sizeof *size_names); i++)
        if (!strcmp(s, size_names[i])) {
            *out = (enum wl_size)i;
            return 0;
        }
    return -1;
}

static int parse_seed(const char *s, uint64_t *out)
{
    if (*s < '0' || *s > '9')   /* no sign, no blanks, not empty */
        return -1;
    /* decimal, or hex with 0x (no octal surprise for a leading 0) */
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, hex ? 16 : 10);
    if (errno || *end || end == s + (hex ? 2 : 0))
        return -1;
    *out = v;
    return 0;
}

#define CLI_MAX_JOBS 256

/* --jobs N: 1..CLI_MAX_JOBS. Returns 0 or -1. */
static int parse_jobs(const char *s, int *out)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < 1 || v > CLI_MAX_JOBS)
        return -1;
    *out = (int)v;
    return 0;
}

/* --compare-modes: the workload in functional and in timing mode, each
 * with a commit log, then the logs compared warp by warp. */
static int compare_modes(struct run_opts *o)
{
    const struct workload *w = wl_find(o->names[0]);
    char pa[512], pb[512];
    const char *dir = o->commit_log ? NULL : getenv("TMPDIR");
    if (o->commit_log) {
        snprintf(pa, sizeof pa, "%s.functional", o->commit_log);
        snprintf(pb, sizeof pb, "%s.timing", o->commit_log);
    } else {
        snprintf(pa, sizeof pa, "%s/lockstep-%s-%ld.functional.log", dir ? dir : "/tmp",
                 w->name, (long)getpid());
        snprintf(pb, sizeof pb, "%s/lockstep-%s-%ld.timing.log", dir ? dir : "/tmp",
                 w->name, (long)getpid());
    }
    struct cli_result r[2];
    const char *paths[2] = { pa, pb };
    for (int m = 0; m < 2; m++) {
        struct run_opts x = *o;
        x.cfg.mode = m ? LS_MODE_TIMING : LS_MODE_FUNCTIONAL;
        x.cfg.commit_log = paths[m];
        run_one(w, &x, &r[m]);
        print_result(o->human, &r[m]);
        print_checks(o->human, &r[m]);
    }
    /* dual paths and DWS interleave a warp's paths: compare per thread */
    int rc = cli_commit_diff_opt(pa, pb, "functional", "timing",
                                 r[1].total.dpe_paths != 0, o->human);
    if (!o->commit_log) {
        remove(pa);
        remove(pb);
    } else {
        fprintf(o->human, "commit logs kept: %s %s\n", pa, pb);
    }
    for (int m = 0; m < 2; m++) {
        if (!r[m].pass && rc == CLI_OK)
            rc = r[m].mismatch ? CLI_MISMATCH : r[m].check_error ? CLI_CHECK : CLI_FAIL;
        free(r[m].launch);
        free(r[m].chk);
    }
    return rc;
}

/* Parses the run arguments into *o (names points into argv). Returns 0 or
 * CLI_USAGE after printing why. */
static int parse_args(int argc, char **argv, struct run_opts *o)
{
    size_t nreg = 0;            /* an @category adds up to every workload */
    while (wl_registry[nreg])
        nreg++;
    o->names = calloc(((size_t)argc + 1) * (nreg + 1), sizeof *o->names);
    if (!o->names) {
        fprintf(stderr, "lockstep: out of memory\n");
        return CLI_USAGE;
    }
    if (cli_machine_alloc(&o->m, argc)) {
        fprintf(stderr, "lockstep: out of memory\n");
        return CLI_USAGE;
    }
    for (int i = 0; i < argc; i++) {
        int mk = cli_machine_opt(&o->m, argc, argv, &i, "run");
        if (mk == 1)
            continue;
        if (mk)
            return CLI_USAGE;
        const char *a = argv[i];
        const char *val = NULL;
        if (!strcmp(a, "--compare-modes")) {
            o->compare_modes = 1;
            continue;
        }
        if (!strcmp(a, "--jobs") || !strncmp(a, "--jobs=", 7) || !strncmp(a, "-j", 2)) {
            const char *v = a[1] == 'j' ? a + 2 : a[6] == '=' ? a + 7 : NULL;
            if (!v || !*v)
                v = i + 1 < argc ? argv[++i] : NULL;
            if (parse_jobs(v, &o->jobs)) {
                fprintf(stderr, "lockstep: run: bad %s '%s' (workloads at once: an "
                        "integer from 1 to %d)\n", a[1] == 'j' ? "-j" : "--jobs",
                        v ? v : "", CLI_MAX_JOBS);
                return CLI_USAGE;
            }
            continue;
        }
        if (!strcmp(a, "--commit-log") || !strncmp(a, "--commit-log=", 13)) {
            const char *eq = strchr(a, '=');
            const char *v = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
            if (!v || !*v) {
                fprintf(stderr, "lockstep: run: --commit-log needs a file name\n");
                return CLI_USAGE;
            }
            o->commit_log = v;
            continue;
        }
        if (!strcmp(a, "--junit") || !strcmp(a, "--fail-dir") ||
            !strncmp(a, "--junit=", 8) || !strncmp(a, "--fail-dir=", 11)) {
            const char *eq = strchr(a, '=');
            const char *v = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
            if (!v || !*v) {
                fprintf(stderr, "lockstep: run: %.10s needs a file name\n", a);
                return CLI_USAGE;
            }
            if (a[2] == 'j')
                o->junit_path = v;
            else
                o->fail_dir = v;
            continue;
        }
        if (!strcmp(a, "--size") || !strcmp(a, "--seed") ||
            !strcmp(a, "--stats-json")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "lockstep: run: %s needs a value\n", a);
                return CLI_USAGE;
            }
            val = argv[++i];
        } else if (!strncmp(a, "--size=", 7) || !strncmp(a, "--seed=", 7)) {
            val = a + 7;
        } else if (!strncmp(a, "--stats-json=", 13)) {
            val = a + 13;
        }
        if (val && !strncmp(a, "--size", 6)) {
            if (parse_size(val, &o->size)) {
                fprintf(stderr, "lockstep: run: bad --size '%s' "
                        "(small, default, large or xlarge)\n", val);
                return CLI_USAGE;
            }
        } else if (val && !strncmp(a, "--seed", 6)) {
            if (parse_seed(val, &o->seed)) {
                fprintf(stderr, "lockstep: run: bad --seed '%s' "
                        "(an unsigned integer)\n", val);
                return CLI_USAGE;
            }
        } else if (val && !strncmp(a, "--stats-json", 12)) {
            if (!*val) {
                fprintf(stderr, "lockstep: run: empty --stats-json file name\n");
                return CLI_USAGE;
            }
            o->json_path = val;
        } else if (!strcmp(a, "--table")) {
            o->table = 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "lockstep: run: unknown option '%s' "
                    "(try lockstep --help)\n", a);
            return CLI_USAGE;
        } else if (!strcmp(a, "all")) {
            o->all = 1;
        } else if (a[0] == '@') {
            /* a measured category (workloads/categories.tsv) */
            int k = cli_wl_select(a + 1, o->names + o->nnames, (int)nreg, "run");
            if (k < 0)
                return CLI_USAGE;
            o->nnames += k;
        } else if (!wl_find(a)) {
            fprintf(stderr, "lockstep: run: unknown workload '%s' "
                    "(see lockstep list workloads)\n", a);
            return CLI_USAGE;
        } else {
            o->names[o->nnames++] = a;
        }
    }
    if (!o->all && o->nnames == 0) {
        fprintf(stderr, "usage: lockstep run WORKLOAD...|all [--size "
                "small|default|large|xlarge] [--seed N] [--mode functional|timing]\n"
                "       [--config NAME|FILE] [--set key=value]... "
                "[--stats-json FILE] [--table]\n"
                "       [--cosim LIST] [--backend c|rtl|lockstep|netlist] [--rtl BLK=FILE.v] "
                "[--cosim-continue] [--junit FILE] [--fail-dir DIR]\n"
                "       [--jobs N|-jN]\n");
        return CLI_USAGE;
    }
    if (o->all && o->nnames) {
        fprintf(stderr, "lockstep: run: 'all' cannot be combined with names\n");
        return CLI_USAGE;
    }
    if ((o->commit_log || o->compare_modes) && (o->all || o->nnames != 1)) {
        fprintf(stderr, "lockstep: run: %s takes exactly one workload\n",
                o->compare_modes ? "--compare-modes" : "--commit-log");
        return CLI_USAGE;
    }
    return 0;
}

/* ------------------------------------------------------------ --jobs N */

/* Workloads run in worker processes, at most o->jobs at a time, started in
 * order. Each worker runs run_one() exactly as the serial loop does, with
 * its stdout and stderr captured; the result comes back through a pipe.
 * The parent prints each workload's output and result in workload order
 * (so stdout, the table and the JSON are the serial run's), forwards a
 * worker's stderr as it comes (unless the report itself goes to stderr),
 * and draws a progress line on a terminal. */

/* A growing byte buffer. */
struct rbuf {
    char *p;
    size_t len, cap;
};

static int rbuf_add(struct rbuf *b, const void *s, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        char *np = realloc(b->p, cap);
        if (!np)
            return -1;
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    return 0;
}

enum { W_OUT, W_ERR, W_RES, W_NFD };

/* One worker process and what it has sent so far. */
struct worker {
    pid_t pid;                 /* 0: slot free                            */
    size_t idx;                /* its workload in res[]                   */
    int fd[W_NFD];             /* read ends; -1 once at EOF               */
    struct rbuf buf[W_NFD];    /* stdout, stderr (if ordered), result     */
    struct rbuf line;          /* a forwarded stderr line not yet ended   */
    double t0;
};

/* The scheduler's state. */
struct sched {
    struct run_opts *o;
    struct cli_result *res;
    const struct workload **wl;
    size_t n, next, printed, finished;
    struct worker *wk;
    int nwk, running;
    struct rbuf *out, *err;    /* per workload: ordered output, kept until printed */
    unsigned char *done;
    double *secs;              /* per workload: seconds its worker ran    */
    int live_err;              /* forward workers' stderr as it comes     */
    int tty;                   /* draw a progress line (stderr)           */
    int drawn;                 /* a progress line is on the screen        */
    int forwarded;             /* Ctrl-C passed on to the workers         */
    double t_start, t_drawn;
};

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t k = write(fd, c, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        c += k;
        n -= (size_t)k;
    }
    return 0;
}

/* The worker: runs workload w with stdout and stderr on pipes, sends the
 * result (the struct, then its launch records and findings) and exits.
 * The pointers of the struct it sends point into memory the parent shares
 * (the registry, the options, string constants), except launch and chk. */
static void worker_main(const struct workload *w, struct run_opts *o, pid_t parent,
                        const int fd[W_NFD])
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint_worker;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);   /* never outlive the run */
#endif
    if (getppid() != parent)
        _exit(1);
    if (dup2(fd[W_OUT], STDOUT_FILENO) < 0 || dup2(fd[W_ERR], STDERR_FILENO) < 0)
        _exit(1);
    close(fd[W_OUT]);
    close(fd[W_ERR]);
    o->cfg.progress = 0;       /* the parent draws the only progress line */
    struct cli_result *r = calloc(1, sizeof *r);
    if (!r)
        _exit(1);
    run_one(w, o, r);
    fflush(stdout);
    fflush(stderr);
    int bad = write_all(fd[W_RES], r, sizeof *r) ||
              write_all(fd[W_RES], r->launch, r->nlaunch_rec * sizeof *r->launch) ||
              write_all(fd[W_RES], r->chk, r->nchk * sizeof *r->chk);
    _exit(bad ? 1 : 0);
}

/* Starts workload i in worker slot k. Returns 0 or -1 (fork or pipe
 * failed: the workload then fails with the reason). */
static int start_worker(struct sched *s, int k, size_t i)
{
    struct worker *w = &s->wk[k];
    int p[W_NFD][2], wr[W_NFD];
    int np = 0;
    for (; np < W_NFD; np++)
        if (pipe(p[np]) != 0)
            break;
    pid_t pid = -1;
    if (np == W_NFD) {
        for (int j = 0; j < W_NFD; j++)
            wr[j] = p[j][1];
        fflush(stdout);
        fflush(stderr);
        pid = fork();
    }
    if (pid == 0) {
        for (int j = 0; j < W_NFD; j++)
            close(p[j][0]);
        for (int j = 0; j < s->nwk; j++)      /* the other workers' pipes */
            for (int f = 0; f < W_NFD; f++)
                if (s->wk[j].pid && s->wk[j].fd[f] >= 0)
                    close(s->wk[j].fd[f]);
        worker_main(s->wl[i], s->o, getppid(), wr);
    }
    for (int j = 0; j < np; j++)
        close(p[j][1]);
    if (pid < 0) {
        for (int j = 0; j < np; j++)
            close(p[j][0]);
        struct cli_result *r = &s->res[i];
        memset(r, 0, sizeof *r);
        r->workload = s->wl[i]->name;
        r->category = s->wl[i]->category;
        r->size = size_names[s->o->size];
        r->seed = s->o->seed;
        snprintf(r->msg, sizeof r->msg, "cannot start a worker process: %s",
                 strerror(errno));
        s->done[i] = 1;
        s->finished++;
        return -1;
    }
    memset(w, 0, sizeof *w);
    w->pid = pid;
    w->idx = i;
    for (int j = 0; j < W_NFD; j++)
        w->fd[j] = p[j][0];
    w->t0 = now_s();
    s->running++;
    return 0;
}

static void progress_clear(struct sched *s)
{
    if (s->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        s->drawn = 0;
    }
}

/* "lockstep: 12/47 done, 2 running (qsort 41 s), about 1m05s left" */
static void progress_draw(struct sched *s)
{
    double now = now_s();
    if (!s->tty || now - s->t_drawn < 0.25)
        return;
    s->t_drawn = now;
    const struct worker *slow = NULL;
    double busy = 0, done_s = 0;
    for (int k = 0; k < s->nwk; k++)
        if (s->wk[k].pid) {
            busy += now - s->wk[k].t0;
            if (!slow || s->wk[k].t0 < slow->t0)
                slow = &s->wk[k];
        }
    for (size_t i = 0; i < s->next; i++)
        if (s->done[i])
            done_s += s->secs[i];
    char eta[64] = "";
    if (s->finished) {
        /* the finished workloads' mean, over the slots, less what the
         * running ones have done; never below the slowest's own time */
        double per = done_s / (double)s->finished;
        double left = (per * (double)(s->n - s->finished) - busy) / s->nwk;
        if (left < 0)
            left = 0;
        snprintf(eta, sizeof eta, ", about %dm%02ds left", (int)left / 60, (int)left % 60);
    }
    char run[160] = "";
    if (slow)
        snprintf(run, sizeof run, ", %d running (longest %s, %.0f s)", s->running,
                 s->wl[slow->idx]->name, now - slow->t0);
    fprintf(stderr, "\r\033[Klockstep: %zu/%zu done%s%s", s->finished, s->n, run, eta);
    fflush(stderr);
    s->drawn = 1;
}

/* A worker's stderr when forwarded live: whole lines, under the
 * progress line. */
static void forward_err(struct sched *s, struct worker *w, const char *b, size_t n, int eof)
{
    for (size_t i = 0; i < n; i++) {
        rbuf_add(&w->line, b + i, 1);
        if (b[i] == '\n' || (eof && i + 1 == n)) {
            progress_clear(s);
            fwrite(w->line.p, 1, w->line.len, stderr);
            fflush(stderr);
            w->line.len = 0;
        }
    }
    if (eof && w->line.len) {
        progress_clear(s);
        fwrite(w->line.p, 1, w->line.len, stderr);
        fputc('\n', stderr);
        fflush(stderr);
        w->line.len = 0;
    }
}

/* The result a worker sent (or why there is none) into res[w->idx]. */
static void collect(struct sched *s, struct worker *w, int status)
{
    struct cli_result *r = &s->res[w->idx];
    const struct rbuf *b = &w->buf[W_RES];
    int ok = b->len >= sizeof *r;
    if (ok) {
        memcpy(r, b->p, sizeof *r);
        size_t need = sizeof *r + r->nlaunch_rec * sizeof *r->launch +
                      r->nchk * sizeof *r->chk;
        ok = b->len == need;
        r->launch = NULL;
        r->chk = NULL;
        if (ok && r->nlaunch_rec) {
            r->launch = malloc(r->nlaunch_rec * sizeof *r->launch);
            if (r->launch)
                memcpy(r->launch, b->p + sizeof *r, r->nlaunch_rec * sizeof *r->launch);
            else
                r->nlaunch_rec = 0;
        }
        if (ok && r->nchk) {
            r->chk = malloc(r->nchk * sizeof *r->chk);
            if (r->chk)
                memcpy(r->chk, b->p + sizeof *r + r->nlaunch_rec * sizeof *r->launch,
                       r->nchk * sizeof *r->chk);
            else
                r->nchk = 0;
        }
    }
    if (!ok) {
        free(r->launch);
        memset(r, 0, sizeof *r);
        r->workload = s->wl[w->idx]->name;
        r->category = s->wl[w->idx]->category;
        r->size = size_names[s->o->size];
        r->seed = s->o->seed;
        if (WIFSIGNALED(status))
            snprintf(r->msg, sizeof r->msg, "the worker process died (signal %d: %s)",
                     WTERMSIG(status), strsignal(WTERMSIG(status)));
        else
            snprintf(r->msg, sizeof r->msg, "the worker process ended without a "
                     "result (exit status %d)", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    s->out[w->idx] = w->buf[W_OUT];
    s->err[w->idx] = w->buf[W_ERR];
    free(w->buf[W_RES].p);
    free(w->line.p);
    s->secs[w->idx] = now_s() - w->t0;
    s->done[w->idx] = 1;
    s->finished++;
    s->running--;
    w->pid = 0;
}

/* Prints, in workload order, every finished result whose predecessors are
 * printed: what its worker wrote, then what the serial loop prints. */
static void emit_ready(struct sched *s)
{
    while (s->printed < s->next && s->done[s->printed]) {
        size_t i = s->printed++;
        progress_clear(s);
        if (s->out[i].len)      /* an empty buffer may be NULL */
            fwrite(s->out[i].p, 1, s->out[i].len, stdout);
        fflush(stdout);
        if (s->err[i].len)
            fwrite(s->err[i].p, 1, s->err[i].len, stderr);
        fflush(stderr);
        free(s->out[i].p);
        free(s->err[i].p);
        memset(&s->out[i], 0, sizeof s->out[i]);
        memset(&s->err[i], 0, sizeof s->err[i]);
        if (!s->o->table) {
            print_result(s->o->human, &s->res[i]);
            print_checks(s->o->human, &s->res[i]);
            fflush(s->o->human);
        }
    }
}

/* Reads what the running workers sent (waiting up to timeout ms). */
static void pump(struct sched *s, int timeout)
{
    struct pollfd pf[CLI_MAX_JOBS * W_NFD];
    struct worker *who[CLI_MAX_JOBS * W_NFD];
    int which[CLI_MAX_JOBS * W_NFD], np = 0;
    for (int k = 0; k < s->nwk; k++)
        for (int f = 0; f < W_NFD; f++)
            if (s->wk[k].pid && s->wk[k].fd[f] >= 0) {
                pf[np].fd = s->wk[k].fd[f];
                pf[np].events = POLLIN;
                who[np] = &s->wk[k];
                which[np++] = f;
            }
    if (np && poll(pf, (nfds_t)np, timeout) <= 0)
        return;                  /* timeout, or a signal (EINTR) */
    char b[65536];
    for (int j = 0; j < np; j++) {
        if (!(pf[j].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        struct worker *w = who[j];
        int f = which[j];
        ssize_t k = read(w->fd[f], b, sizeof b);
        if (k < 0 && errno == EINTR)
            continue;
        if (k > 0) {
            if (f == W_ERR && s->live_err)
                forward_err(s, w, b, (size_t)k, 0);
            else if (rbuf_add(&w->buf[f], b, (size_t)k))
                k = -1;          /* out of memory: treat as the end */
        }
        if (k <= 0) {
            if (f == W_ERR && s->live_err)
                forward_err(s, w, b, 0, 1);
            close(w->fd[f]);
            w->fd[f] = -1;
        }
    }
    for (int k = 0; k < s->nwk; k++) {
        struct worker *w = &s->wk[k];
        if (!w->pid || w->fd[W_OUT] >= 0 || w->fd[W_ERR] >= 0 || w->fd[W_RES] >= 0)
            continue;
        int status = 0;
        while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
            ;
        collect(s, w, status);
    }
}

/* Runs the n workloads wl[] with up to o->jobs workers into res[]; returns
 * how many were started (all of them unless Ctrl-C stopped the run). */
static size_t run_parallel(struct run_opts *o, const struct workload **wl, size_t n,
                           struct cli_result *res)
{
    struct sched s;
    memset(&s, 0, sizeof s);
    s.o = o;
    s.res = res;
    s.wl = wl;
    s.n = n;
    s.nwk = o->jobs < (int)n ? o->jobs : (int)n;
    s.wk = calloc((size_t)s.nwk, sizeof *s.wk);
    s.out = calloc(n, sizeof *s.out);
    s.err = calloc(n, sizeof *s.err);
    s.done = calloc(n, 1);
    s.secs = calloc(n, sizeof *s.secs);
    s.live_err = o->human != stderr;
    s.tty = isatty(STDERR_FILENO);
    s.t_start = now_s();
    if (!s.wk || !s.out || !s.err || !s.done || !s.secs) {
        fprintf(stderr, "lockstep: out of memory\n");
        free(s.wk), free(s.out), free(s.err), free(s.done), free(s.secs);
        return 0;
    }
    while (s.running || (s.next < n && !cli_sigint)) {
        for (int k = 0; k < s.nwk && s.next < n && !cli_sigint; k++)
            if (!s.wk[k].pid)
                start_worker(&s, k, s.next++);
        if (cli_sigint && !s.forwarded) {
            /* workers outside the terminal's process group (kill -INT of
             * the parent alone) stop as on Ctrl-C */
            for (int k = 0; k < s.nwk; k++)
                if (s.wk[k].pid)
                    kill(s.wk[k].pid, SIGINT);
            s.forwarded = 1;
        }
        pump(&s, s.tty ? 250 : 1000);
        emit_ready(&s);
        progress_draw(&s);
    }
    emit_ready(&s);
    progress_clear(&s);
    size_t started = s.next;
    free(s.wk), free(s.out), free(s.err), free(s.done), free(s.secs);
    return started;
}

int cli_run(int argc, char **argv)
{
    struct run_opts o;
    memset(&o, 0, sizeof o);
    o.size = WL_DEFAULT;
    o.seed = 1;
    o.human = stdout;
    o.m.mode = -1;
    int rc = parse_args(argc, argv, &o);
    if (!rc) {
        ls_config_default(&o.cfg);
        cli_machine_apply(&o.m, &o.cfg);
        o.cfg.progress = isatty(STDERR_FILENO) ? 1 : 0;
        o.cfg.fail_dir = o.fail_dir;
        rc = cli_machine_check(&o.cfg, "run");
    }
    if (!rc) {
        /* a GPU of this configuration once up front: a bad --rtl file or a
         * backend the mode cannot clock is a usage error, not N failures */
        char err[4096] = "";
        ls_gpu *g = ls_gpu_create(&o.cfg, err, sizeof err);
        if (!g) {
            fprintf(stderr, "lockstep: run: %s\n", err);
            rc = CLI_USAGE;
        }
        ls_gpu_destroy(g);
    }
    if (rc) {
        free(o.names);
        cli_machine_free(&o.m);
        return rc;
    }
    if (o.json_path && !strcmp(o.json_path, "-"))
        o.human = stderr;      /* keep stdout pure JSON */
    if (o.compare_modes) {
        rc = compare_modes(&o);
        free(o.names);
        cli_machine_free(&o.m);
        return rc;
    }
    o.cfg.commit_log = o.commit_log;
    size_t n = 0;
    if (o.all)
        while (wl_registry[n])
            n++;
    else
        n = (size_t)o.nnames;
    if (n == 0) {
        fprintf(stderr, "lockstep: run: no workloads are built in\n");
        free(o.names);
        cli_machine_free(&o.m);
        return CLI_FAIL;
    }
    struct cli_result *res = calloc(n, sizeof *res);
    if (!res) {
        fprintf(stderr, "lockstep: out of memory\n");
        free(o.names);
        cli_machine_free(&o.m);
        return CLI_FAIL;
    }
    const struct workload **wl = calloc(n, sizeof *wl);
    if (!wl) {
        fprintf(stderr, "lockstep: out of memory\n");
        free(res);
        free(o.names);
        cli_machine_free(&o.m);
        return CLI_FAIL;
    }
    for (size_t i = 0; i < n; i++)
        wl[i] = o.all ? wl_registry[i] : wl_find(o.names[i]);
    if (o.jobs == 0) {         /* the default: every core */
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        o.jobs = c < 1 ? 1 : c > CLI_MAX_JOBS ? CLI_MAX_JOBS : (int)c;
    }
    int failed = 0, mismatch = 0, check_error = 0;
    struct sigaction sa, old_sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_sa);
    cli_sigint = 0;
    o.cfg.cancel = (const volatile int *)&cli_sigint;
    size_t ran = 0;
    if (o.jobs > 1 && n > 1 && !o.commit_log) {
        ran = run_parallel(&o, wl, n, res);
    } else {
        for (size_t i = 0; i < n && !cli_sigint; i++, ran++) {
            run_one(wl[i], &o, &res[i]);
            if (!o.table) {
                print_result(o.human, &res[i]);
                print_checks(o.human, &res[i]);
                fflush(o.human);
            }
        }
    }
    free(wl);
    for (size_t i = 0; i < ran; i++) {
        failed += !res[i].pass;
        mismatch |= res[i].mismatch;
        check_error |= res[i].check_error;
    }
    if (o.table) {
        cli_print_table(o.human, res, ran);
        for (size_t i = 0; i < ran; i++)
            if (!res[i].pass)
                fprintf(o.human, "FAIL %s: %s\n", res[i].workload, res[i].msg);
        for (size_t i = 0; i < ran; i++)
            print_checks(o.human, &res[i]);
    }
    int cosim_on = 0;
    for (int b = 0; b < LS_BLK_COUNT; b++)
        for (size_t i = 0; i < ran; i++)
            cosim_on |= res[i].total.cosim[b].instances && res[i].total.cosim[b].backend > 0;
    if (cosim_on)
        cli_print_cosim(o.human, res, ran);
    int interrupted = cli_sigint != 0;
    sigaction(SIGINT, &old_sa, NULL);
    if (interrupted)
        fprintf(o.human, "interrupted (Ctrl-C): %zu of %zu workloads ran; %s\n", ran, n,
                o.jobs > 1 && n > 1 && !o.commit_log
                    ? "those in flight report their statistics so far"
                    : "the one in flight reports its statistics so far");
    if (ran > 1 || o.table)
        fprintf(o.human, "%zu workloads: %zu passed, %d failed\n", ran,
                ran - (size_t)failed, failed);
    if (o.json_path && write_json(o.json_path, res, ran, o.all || n > 1))
        failed++;
    if (o.junit_path && cli_write_junit(o.junit_path, res, ran))
        failed++;
    for (size_t i = 0; i < n; i++) {
        free(res[i].launch);
        free(res[i].chk);
    }
    free(res);
    free(o.names);
    cli_machine_free(&o.m);
    if (interrupted)
        return 130;
    return mismatch ? CLI_MISMATCH : check_error ? CLI_CHECK : failed ? CLI_FAIL : CLI_OK;
}
