/* The driver of the static PTX analysis reports (`lockstep check --affine`,
 * `--dac`): options, modules named as files, workloads or `all`, the JSON
 * envelope and the errors; each analysis reports one module (cli.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cli_json.h"
#include "ptx/ptx_ir.h"
#include "workloads/wl_ptx.h"

/* One module: parsed, each function with a body (or the --kernel one)
 * reported, then the module's sums. */
static int report_module(const struct cli_pass *p, const char *label, const char *text,
                         size_t len, struct cli_pass_opts *o, bool first)
{
    struct ptx_module *m = NULL;
    struct ptx_diag diag;
    memset(&diag, 0, sizeof diag);
    if (ptx_parse(label, text, len, &m, &diag) != 0) {
        fprintf(stderr, "%s\n", diag.msg[0] ? diag.msg : "parse failed");
        ptx_module_free(m);
        return CLI_USAGE;
    }
    void *sum = calloc(1, p->stats_size);
    if (!sum) {
        fprintf(stderr, "lockstep: check --%s: host memory exhausted\n", p->name);
        ptx_module_free(m);
        return CLI_FAIL;
    }
    if (o->json) {
        printf("%s\n    {\"file\": ", first ? "" : ",");
        api_json_str(stdout, label, strlen(label));
        printf(", \"functions\": [");
    } else {
        printf("%s== %s\n", first ? "" : "\n", label);
    }
    int rc = CLI_OK;
    bool firstf = true;
    for (uint32_t i = 0; i < m->nfuncs && rc == CLI_OK; i++) {
        const struct ptx_func *f = &m->funcs[i];
        if (!f->has_body || (o->kernel && strcmp(o->kernel, f->name) != 0))
            continue;
        o->kernel_seen = true;
        if (p->func(label, m, f, o, firstf, sum) != 0)
            rc = CLI_FAIL;
        firstf = false;
    }
    if (o->json) {
        printf("%s], ", firstf ? "" : "\n      ");
        p->stats(sum, true);
        printf("}");
    } else if (!o->kernel) {
        printf("total: ");
        p->stats(sum, false);
        printf("\n");
    }
    free(sum);
    ptx_module_free(m);
    return rc;
}

static int report_arg(const struct cli_pass *p, const char *arg, struct cli_pass_opts *o,
                      bool *first)
{
    int rc = CLI_OK;
    if (!strcmp(arg, "all")) {
        for (const struct wl_ptx_blob *b = wl_ptx_blobs; b->name && rc == CLI_OK; b++) {
            rc = report_module(p, b->path, b->text, b->len, o, *first);
            *first = false;
        }
        return rc;
    }
    size_t len = 0;
    char *text = cli_read_file(arg, &len);
    if (text) {
        rc = report_module(p, arg, text, len, o, *first);
        free(text);
    } else if (errno == ENOENT && wl_ptx_find(arg)) {
        const struct wl_ptx_blob *b = wl_ptx_find(arg);
        rc = report_module(p, b->path, b->text, b->len, o, *first);
    } else {
        fprintf(stderr, "lockstep: check --%s: %s: %s%s\n", p->name, arg,
                errno == EFBIG ? "larger than the model's limit for one module"
                               : strerror(errno),
                errno == ENOENT ? " (and no workload has that name)" : "");
        return CLI_USAGE;
    }
    *first = false;
    return rc;
}

int cli_pass_main(const struct cli_pass *p, int argc, char **argv)
{
    struct cli_pass_opts o = { 0 };
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            o.json = true;
        } else if (!strcmp(argv[i], "--kernel") && i + 1 < argc) {
            o.kernel = argv[++i];
        } else if (!strncmp(argv[i], "--kernel=", 9)) {
            o.kernel = argv[i] + 9;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "lockstep: check --%s: unknown option '%s'\n", p->name,
                    argv[i]);
            n = -1;
            break;
        } else {
            argv[n++] = argv[i];
        }
    }
    if (n <= 0) {
        fprintf(stderr, "usage: lockstep check --%s [--kernel K] [--json] "
                "FILE.ptx|WORKLOAD|all...\n", p->name);
        return CLI_USAGE;
    }
    if (o.json)
        printf("{\n  \"schema\": 1,\n  \"analysis\": \"%s\",\n  \"modules\": [", p->name);
    int rc = CLI_OK;
    bool first = true;
    for (int i = 0; i < n && rc == CLI_OK; i++)
        rc = report_arg(p, argv[i], &o, &first);
    if (o.json)
        printf("\n  ]\n}\n");
    if (rc == CLI_OK && o.kernel && !o.kernel_seen) {
        fprintf(stderr, "lockstep: check --%s: no function named '%s' with a body\n",
                p->name, o.kernel);
        rc = CLI_USAGE;
    }
    if (fflush(stdout) != 0) {
        fprintf(stderr, "lockstep: check --%s: error writing the report\n", p->name);
        return CLI_FAIL;
    }
    return rc;
}
