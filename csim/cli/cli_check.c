/* `lockstep list` and `lockstep check`. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cli_json.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_print.h"
#include "workloads/workload.h"
#include "gpu/gpu_cfgblobs.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Prints the sorted *.conf stems of dir; returns the count or -1 when dir
 * cannot be opened. */
static int list_conf_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    char *names[256];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256) {
        size_t len = strlen(e->d_name);
        if (len > 5 && !strcmp(e->d_name + len - 5, ".conf")) {
            names[n] = strndup(e->d_name, len - 5);
            if (names[n])
                n++;
        }
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_str);
    for (int i = 0; i < n; i++) {
        printf("%s\n", names[i]);
        free(names[i]);
    }
    return n;
}

/* The shipped configs are embedded in the library (gpu_cfg_blobs; --config
 * NAME resolves them anywhere); $LOCKSTEP_CONFIGS names a directory of
 * *.conf files to list instead. */
static int list_configs(void)
{
    const char *env = getenv("LOCKSTEP_CONFIGS");
    if (env && *env) {
        if (list_conf_dir(env) >= 0)
            return CLI_OK;
        fprintf(stderr, "lockstep: LOCKSTEP_CONFIGS=%s: %s\n", env, strerror(errno));
        return CLI_FAIL;
    }
    const char *names[256];
    int n = 0;
    for (const struct gpu_cfg_blob *b = gpu_cfg_blobs; b->name && n < 256; b++)
        names[n++] = b->name;
    qsort(names, (size_t)n, sizeof names[0], cmp_str);
    for (int i = 0; i < n; i++)
        printf("%s\n", names[i]);
    return CLI_OK;
}

int cli_list(const char *argv0, int argc, char **argv)
{
    (void)argv0;
    if (argc == 2 && !strcmp(argv[0], "workloads") && !strcmp(argv[1], "--long")) {
        cli_wl_list_long(stdout);
        return CLI_OK;
    }
    if (argc == 2 && !strcmp(argv[0], "workloads") && argv[1][0] == '@') {
        /* the names `run @CAT` would run, one per line (tools/sweep.py) */
        const char *names[256];
        int n = cli_wl_select(argv[1] + 1, names, 256, "list");
        if (n < 0)
            return CLI_USAGE;
        for (int i = 0; i < n; i++)
            printf("%s\n", names[i]);
        return CLI_OK;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: lockstep list workloads [--long | @CATEGORY] | configs\n");
        return CLI_USAGE;
    }
    if (!strcmp(argv[0], "workloads")) {
        for (const struct workload *const *w = wl_registry; *w; w++)
            printf("%s\n", (*w)->name);
        return CLI_OK;
    }
    if (!strcmp(argv[0], "configs"))
        return list_configs();
    fprintf(stderr, "lockstep: list: unknown list '%s' (workloads or configs)\n",
            argv[0]);
    return CLI_USAGE;
}

/* ---- many files: one line per module that does not load, a summary ---- */

struct flist {
    char **v;
    size_t n, cap;
};

static int flist_add(struct flist *l, const char *path)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 64;
        char **nv = realloc(l->v, nc * sizeof *nv);
        if (!nv)
            return -1;
        l->v = nv;
        l->cap = nc;
    }
    l->v[l->n] = strdup(path);
    if (!l->v[l->n])
        return -1;
    l->n++;
    return 0;
}

/* Adds path, or every *.ptx under it (recursively, sorted) if a directory.
 * Returns 0, or -1 (message printed) when path cannot be read. */
static int collect(struct flist *l, const char *path, int depth)
{
    DIR *d = opendir(path);
    if (!d) {
        if (errno != ENOTDIR) {
            FILE *f = fopen(path, "rb");
            if (!f) {
                fprintf(stderr, "lockstep: check: %s: %s\n", path, strerror(errno));
                return -1;
            }
            fclose(f);
        }
        return flist_add(l, path);
    }
    struct flist here = { 0 };
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) && rc == 0) {
        if (e->d_name[0] == '.')
            continue;
        size_t pl = strlen(path), nl = strlen(e->d_name);
        char *full = malloc(pl + nl + 2);
        if (!full) {
            rc = -1;
            break;
        }
        snprintf(full, pl + nl + 2, "%s%s%s", path,
                 pl && path[pl - 1] == '/' ? "" : "/", e->d_name);
        DIR *sub = depth < 32 ? opendir(full) : NULL;
        if (sub) {
            closedir(sub);
            rc = flist_add(&here, full);            /* sorted, then walked */
        } else if (nl > 4 && !strcmp(e->d_name + nl - 4, ".ptx")) {
            rc = flist_add(&here, full);
        }
        free(full);
    }
    closedir(d);
    if (here.n)
        qsort(here.v, here.n, sizeof here.v[0], cmp_str);
    for (size_t i = 0; i < here.n; i++) {
        DIR *sub = rc == 0 ? opendir(here.v[i]) : NULL;
        if (sub) {
            closedir(sub);
            rc = collect(l, here.v[i], depth + 1);
        } else if (rc == 0) {
            rc = flist_add(l, here.v[i]);
        }
        free(here.v[i]);
    }
    free(here.v);
    return rc;
}

/* Loads one file on a fresh functional GPU; err receives why it does not
 * load ("" when it does). Returns 1 when it loads. */
static int loads(const char *path, char *err, size_t n)
{
    ls_config c;
    ls_config_default(&c);
    c.mode = LS_MODE_FUNCTIONAL;
    c.global_mem_bytes = 1ull << 40;    /* a module's variables always fit */
    ls_gpu *g = ls_gpu_create(&c, err, n);
    if (!g)
        return 0;
    ls_module *m = NULL;
    ls_status st = ls_module_load_file(g, path, &m);
    if (st == LS_OK)
        err[0] = 0;
    else
        snprintf(err, n, "%s", ls_gpu_error(g));
    ls_gpu_destroy(g);
    return st == LS_OK;
}

static int check_many(char **paths, int npaths, bool json)
{
    struct flist l = { 0 };
    for (int i = 0; i < npaths; i++)
        if (collect(&l, paths[i], 0) != 0) {
            for (size_t k = 0; k < l.n; k++)
                free(l.v[k]);
            free(l.v);
            return CLI_USAGE;
        }
    size_t ok = 0;
    if (json)
        printf("{\n  \"schema\": 1,\n  \"files\": [");
    for (size_t i = 0; i < l.n; i++) {
        char err[4096];
        int good = loads(l.v[i], err, sizeof err);
        ok += (size_t)good;
        if (json) {
            printf("%s\n    {\"file\": ", i ? "," : "");
            api_json_str(stdout, l.v[i], strlen(l.v[i]));
            printf(", \"loads\": %s", good ? "true" : "false");
            if (!good) {
                printf(", \"error\": ");
                api_json_str(stdout, err, strlen(err));
            }
            printf("}");
        } else if (!good) {
            printf("%s\n", err);
        }
        free(l.v[i]);
    }
    free(l.v);
    if (json)
        printf("%s],\n  \"total\": %zu,\n  \"load\": %zu,\n  \"fail\": %zu\n}\n",
               l.n ? "\n  " : "", l.n, ok, l.n - ok);
    else
        printf("%zu of %zu load\n", ok, l.n);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "lockstep: check: error writing the report\n");
        return CLI_FAIL;
    }
    return ok == l.n ? CLI_OK : CLI_USAGE;
}

int cli_check(int argc, char **argv)
{
    bool json = false;
    int n = 0;
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--affine")) {
            for (int k = i; k + 1 < argc; k++)
                argv[k] = argv[k + 1];
            return cli_affine(argc - 1, argv);
        }
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--dac")) {
            for (int k = i; k + 1 < argc; k++)
                argv[k] = argv[k + 1];
            return cli_dac(argc - 1, argv);
        }
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = true;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "lockstep: check: unknown option '%s'\n", argv[i]);
            n = -1;
            break;
        } else {
            argv[n++] = argv[i];
        }
    }
    if (n <= 0) {
        fprintf(stderr, "usage: lockstep check FILE.ptx | lockstep check [--json] "
                "FILE.ptx|DIR...\n");
        return CLI_USAGE;
    }
    DIR *dir = n == 1 ? opendir(argv[0]) : NULL;
    if (dir)
        closedir(dir);
    if (json || n > 1 || dir)
        return check_many(argv, n, json);
    const char *path = argv[0];
    size_t len = 0;
    char *text = cli_read_file(path, &len);
    if (!text && errno == EFBIG) {
        fprintf(stderr, "%s: error: larger than %u MiB, the model's limit for one "
                "module\n", path, PTX_MAX_TEXT >> 20);
        return CLI_USAGE;
    }
    if (!text) {
        fprintf(stderr, "%s: error: cannot read: %s\n", path, strerror(errno));
        return CLI_USAGE;
    }
    struct ptx_module *m = NULL;
    struct ptx_diag diag;
    memset(&diag, 0, sizeof diag);
    if (ptx_parse(path, text, len, &m, &diag) != 0) {
        size_t pl = strlen(path);
        if (!strncmp(diag.msg, path, pl) && diag.msg[pl] == ':')
            fprintf(stderr, "%s\n", diag.msg);
        else
            fprintf(stderr, "%s:%u:%u: error: %s\n", path, diag.line, diag.col,
                    diag.msg[0] ? diag.msg : "parse failed");
        ptx_module_free(m);
        free(text);
        return CLI_USAGE;
    }
    int wrc = ptx_check_print(stdout, m);
    if (fflush(stdout) != 0)
        wrc = -1;
    ptx_module_free(m);
    free(text);
    if (wrc != 0) {
        fprintf(stderr, "lockstep: check: error writing the report\n");
        return CLI_FAIL;
    }
    return CLI_OK;
}
