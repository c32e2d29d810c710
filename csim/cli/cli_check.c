/* `lockstep list` and `lockstep check`. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
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

/* Reads a whole file into a NUL-terminated buffer; NULL with errno set. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    /* the model's limit, before reading any of it */
    if (fseek(f, 0, SEEK_END) == 0) {
        long sz = ftell(f);
        if (sz > (long)PTX_MAX_TEXT) {
            fclose(f);
            errno = EFBIG;
            return NULL;
        }
        rewind(f);
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        char *nb = realloc(buf, cap * 2 + 1);
        if (!nb) {
            free(buf);
            buf = NULL;
            errno = ENOMEM;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
        errno = EIO;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *len = n;
    }
    return buf;
}

int cli_check(int argc, char **argv)
{
    if (argc != 1 || argv[0][0] == '-') {
        fprintf(stderr, "usage: lockstep check FILE.ptx\n");
        return CLI_USAGE;
    }
    const char *path = argv[0];
    size_t len = 0;
    char *text = read_file(path, &len);
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
