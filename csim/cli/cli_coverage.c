/* `lockstep coverage`: runs workloads on fresh GPUs with the blocks'
 * functional coverage on (csim/cosim/cosim_cover.def) and reports, per
 * block, which bins the kernels reached and how often; --json writes the
 * counts per workload and block (docs/blocks/coverage.md, make coverage).
 * The counts come from the seam's environment of each GPU (the same
 * counts are ls_stats.cover, --stats-json's "coverage" object). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli/cli.h"
#include "cosim/cosim.h"
#include "gpu/gpu.h"
#include "workloads/workload.h"
#include "workloads/wl_ptx.h"

static const char *const size_names[] = { "small", "default", "large" };

struct cov_opts {
    enum wl_size size;
    uint64_t seed;
    const char *json_path;
    int quiet;
    const char **names;
    int nnames;
    struct cli_machine m;
    ls_config cfg;
};

/* One workload's outcome and bins. */
struct cov_result {
    const char *name;
    int pass, mismatch;
    char msg[512];
    uint64_t count[COV_COUNT];
    int clocked[LS_BLK_COUNT];     /* the block had instances              */
    double wall_s;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Runs w on a fresh GPU with coverage on into *r; never exits. */
static void cov_one(const struct workload *w, const struct cov_opts *o,
                    struct cov_result *r)
{
    memset(r, 0, sizeof *r);
    r->name = w->name;
    const struct wl_ptx_blob *blob = wl_ptx_find(w->name);
    if (!blob) {
        snprintf(r->msg, sizeof r->msg, "no embedded PTX named %s", w->name);
        return;
    }
    char err[4096] = "";
    ls_config cfg = o->cfg;
    cfg.run_name = w->name;
    ls_gpu *gpu = ls_gpu_create(&cfg, err, sizeof err);
    if (!gpu) {
        snprintf(r->msg, sizeof r->msg, "creating the GPU: %.400s", err);
        return;
    }
    cosim_cover_enable(gpu->cosim);   /* before the first launch makes them */
    ls_module *mod = NULL;
    ls_status st = ls_module_load_text(gpu, blob->path, blob->text, blob->len, &mod);
    if (st != LS_OK) {
        snprintf(r->msg, sizeof r->msg, "loading %s: %s: %.300s", blob->path,
                 ls_status_name(st), ls_gpu_error(gpu));
        ls_gpu_destroy(gpu);
        return;
    }
    struct wl_report rep;
    memset(&rep, 0, sizeof rep);
    double t0 = now_s();
    int rc = w->run(gpu, mod, o->size, o->seed, &rep);
    r->wall_s = now_s() - t0;
    r->pass = rc == 0 && rep.pass && rep.nlaunches > 0;
    r->mismatch = rc == LS_ERR_COSIM;
    for (int b = 0; b < LS_BLK_COUNT; b++) {
        r->clocked[b] = rep.total.cosim[b].instances > 0;
        r->mismatch |= rep.total.cosim[b].mismatches > 0;
    }
    if (!r->pass)
        snprintf(r->msg, sizeof r->msg, "%.500s",
                 rc ? ls_gpu_error(gpu) : rep.msg[0] ? rep.msg : "no kernel launched");
    memcpy(r->count, gpu->cosim->cover, sizeof r->count);
    ls_gpu_destroy(gpu);
}

static void json_counts(FILE *f, const uint64_t *count, const int *clocked, int indent)
{
    int firstb = 1;
    fprintf(f, "{");
    for (int b = 0; b < LS_BLK_COUNT; b++) {
        if (!clocked[b])
            continue;
        fprintf(f, "%s\n%*s\"%s\": {", firstb ? "" : ",", indent + 2, "", ls_block_name(b));
        firstb = 0;
        int first = 1;
        for (unsigned i = 0; i < COV_COUNT; i++) {
            if (cosim_cover_block(i) != b)
                continue;
            fprintf(f, "%s\"%s\": %llu", first ? "" : ", ", cosim_cover_name(i),
                    (unsigned long long)count[i]);
            first = 0;
        }
        fprintf(f, "}");
    }
    fprintf(f, "%s}", firstb ? "" : "\n");
    if (!firstb)
        (void)indent;
}

static int write_json(const char *path, const struct cov_opts *o,
                      const struct cov_result *r, int n)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
    if (!f) {
        fprintf(stderr, "lockstep: coverage: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f, "{\n  \"schema\": 1,\n  \"size\": \"%s\",\n  \"seed\": %llu,\n"
            "  \"config\": \"%s\",\n  \"sets\": [", size_names[o->size],
            (unsigned long long)o->seed, o->cfg.config ? o->cfg.config : "builtin");
    for (int i = 0; o->cfg.sets && o->cfg.sets[i]; i++)
        fprintf(f, "%s\"%s\"", i ? ", " : "", o->cfg.sets[i]);
    fprintf(f, "],\n  \"bins\": {");
    for (int b = 0, fb = 1; b < LS_BLK_COUNT; b++) {
        fprintf(f, "%s\n    \"%s\": [", fb ? "" : ",", ls_block_name(b));
        fb = 0;
        for (unsigned i = 0, first = 1; i < COV_COUNT; i++)
            if (cosim_cover_block(i) == b) {
                fprintf(f, "%s\"%s\"", first ? "" : ", ", cosim_cover_name(i));
                first = 0;
            }
        fprintf(f, "]");
    }
    fprintf(f, "\n  },\n  \"workloads\": [");
    for (int k = 0; k < n; k++) {
        fprintf(f, "%s\n    {\"workload\": \"%s\", \"pass\": %s, \"wall_s\": %.3f, "
                "\"blocks\": ", k ? "," : "", r[k].name, r[k].pass ? "true" : "false",
                r[k].wall_s);
        json_counts(f, r[k].count, r[k].clocked, 6);
        fprintf(f, "}");
    }
    fprintf(f, "\n  ]\n}\n");
    return cli_close_out(f, path);
}

/* The table: per block clocked, each bin's total and the workloads that
 * reached it. */
static void print_table(FILE *f, const struct cov_result *r, int n)
{
    for (int b = 0; b < LS_BLK_COUNT; b++) {
        int clocked = 0;
        for (int k = 0; k < n; k++)
            clocked |= r[k].clocked[b];
        if (!clocked)
            continue;
        unsigned nb = 0, hit = 0;
        for (unsigned i = 0; i < COV_COUNT; i++)
            if (cosim_cover_block(i) == b) {
                uint64_t tot = 0;
                int wls = 0;
                const char *first = NULL;
                for (int k = 0; k < n; k++)
                    if (r[k].count[i]) {
                        tot += r[k].count[i];
                        wls++;
                        first = first ? first : r[k].name;
                    }
                nb++;
                hit += tot > 0;
                fprintf(f, "  %-10s %-22s %12llu  %3d workload%s%s%s\n", ls_block_name(b),
                        cosim_cover_name(i), (unsigned long long)tot, wls,
                        wls == 1 ? " " : "s", first ? "  e.g. " : "", first ? first : "");
            }
        fprintf(f, "coverage %-10s %u of %u bins reached\n", ls_block_name(b), hit, nb);
    }
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

static int usage(void)
{
    fprintf(stderr, "usage: lockstep coverage WORKLOAD...|all|@CATEGORY [--size "
            "small|default|large] [--seed N]\n"
            "       [--config NAME|FILE] [--set key=value]... [--cosim LIST] "
            "[--backend B] [--json FILE] [--quiet]\n");
    return CLI_USAGE;
}

static int parse_args(int argc, char **argv, struct cov_opts *o)
{
    size_t nreg = 0;
    while (wl_registry[nreg])
        nreg++;
    o->names = calloc(((size_t)argc + 1) * (nreg + 1), sizeof *o->names);
    if (!o->names || cli_machine_alloc(&o->m, argc)) {
        fprintf(stderr, "lockstep: out of memory\n");
        return CLI_USAGE;
    }
    for (int i = 0; i < argc; i++) {
        int mk = cli_machine_opt(&o->m, argc, argv, &i, "coverage");
        if (mk == 1)
            continue;
        if (mk)
            return CLI_USAGE;
        const char *a = argv[i];
        if (!strcmp(a, "--size") || !strcmp(a, "--seed") || !strcmp(a, "--json")) {
            if (i + 1 >= argc || !*argv[i + 1]) {
                fprintf(stderr, "lockstep: coverage: %s needs a value\n", a);
                return CLI_USAGE;
            }
            const char *v = argv[++i];
            if (a[2] == 'j') {
                o->json_path = v;
            } else if (a[3] == 'i') {
                if (parse_size(v, &o->size)) {
                    fprintf(stderr, "lockstep: coverage: bad --size '%s' (small, default "
                            "or large)\n", v);
                    return CLI_USAGE;
                }
            } else {
                char *end;
                errno = 0;
                o->seed = strtoull(v, &end, 10);
                if (errno || *end || *v < '0' || *v > '9') {
                    fprintf(stderr, "lockstep: coverage: bad --seed '%s'\n", v);
                    return CLI_USAGE;
                }
            }
        } else if (!strcmp(a, "--quiet")) {
            o->quiet = 1;
        } else if (a[0] == '-') {
            fprintf(stderr, "lockstep: coverage: unknown option '%s'\n", a);
            return usage();
        } else if (!strcmp(a, "all") || a[0] == '@') {
            int k = cli_wl_select(a[0] == '@' ? a + 1 : "all", o->names + o->nnames,
                                  (int)nreg, "coverage");
            if (k < 0)
                return CLI_USAGE;
            o->nnames += k;
        } else if (!wl_find(a)) {
            fprintf(stderr, "lockstep: coverage: unknown workload '%s' (see lockstep "
                    "list workloads)\n", a);
            return CLI_USAGE;
        } else {
            o->names[o->nnames++] = a;
        }
    }
    return o->nnames ? 0 : usage();
}

int cli_coverage(int argc, char **argv)
{
    struct cov_opts o;
    memset(&o, 0, sizeof o);
    o.size = WL_DEFAULT;
    o.seed = 1;
    o.m.mode = -1;
    int rc = parse_args(argc, argv, &o);
    if (!rc) {
        ls_config_default(&o.cfg);
        cli_machine_apply(&o.m, &o.cfg);
        rc = cli_machine_check(&o.cfg, "coverage");
        if (!rc && o.cfg.mode != LS_MODE_TIMING) {
            fprintf(stderr, "lockstep: coverage: the blocks are clocked in timing mode "
                    "only\n");
            rc = CLI_USAGE;
        }
    }
    struct cov_result *res = rc ? NULL : calloc((size_t)o.nnames, sizeof *res);
    if (!rc && !res) {
        fprintf(stderr, "lockstep: out of memory\n");
        rc = CLI_USAGE;
    }
    int fails = 0, mismatch = 0;
    for (int k = 0; !rc && k < o.nnames; k++) {
        cov_one(wl_find(o.names[k]), &o, &res[k]);
        fails += !res[k].pass;
        mismatch |= res[k].mismatch;
        if (!o.quiet)
            fprintf(stderr, "coverage: %s %s (%.1f s)%s%s\n", res[k].name,
                    res[k].pass ? "PASS" : "FAIL", res[k].wall_s,
                    res[k].pass ? "" : ": ", res[k].msg);
    }
    if (!rc) {
        if (!o.json_path || strcmp(o.json_path, "-"))
            print_table(stdout, res, o.nnames);
        if (o.json_path && write_json(o.json_path, &o, res, o.nnames))
            rc = CLI_FAIL;
        if (!rc)
            rc = mismatch ? CLI_MISMATCH : fails ? CLI_FAIL : CLI_OK;
    }
    free(res);
    free(o.names);
    cli_machine_free(&o.m);
    return rc;
}
