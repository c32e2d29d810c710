/* `lockstep run`: runs workloads on fresh GPUs and reports per launch, per
 * workload, as a table and as JSON. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
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

static const char *const size_names[] = { "small", "default", "large" };

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
    for (int i = 0; i < 3; i++)
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
                        "(small, default or large)\n", val);
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
                "small|default|large] [--seed N] [--mode functional|timing]\n"
                "       [--config NAME|FILE] [--set key=value]... "
                "[--stats-json FILE] [--table]\n"
                "       [--cosim LIST] [--backend c|rtl|lockstep] [--rtl BLK=FILE.v] "
                "[--cosim-continue] [--junit FILE] [--fail-dir DIR]\n");
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
    int failed = 0, mismatch = 0, check_error = 0;
    struct sigaction sa, old_sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_sa);
    cli_sigint = 0;
    o.cfg.cancel = (const volatile int *)&cli_sigint;
    size_t ran = 0;
    for (size_t i = 0; i < n && !cli_sigint; i++, ran++) {
        const struct workload *w = o.all ? wl_registry[i] : wl_find(o.names[i]);
        run_one(w, &o, &res[i]);
        failed += !res[i].pass;
        mismatch |= res[i].mismatch;
        check_error |= res[i].check_error;
        if (!o.table) {
            print_result(o.human, &res[i]);
            print_checks(o.human, &res[i]);
            fflush(o.human);
        }
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
        fprintf(o.human, "interrupted (Ctrl-C): %zu of %zu workloads ran; the one in "
                "flight reports its statistics so far\n", ran, n);
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
