/* `lockstep branches`: the P/D class of every conditional branch of a PTX
 * module (csim/ptx/ptx_taint.h, docs/branch-classes.md), as text or JSON.
 * A module is a file, the committed PTX of a workload (by name), or `all`
 * of them. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cli_json.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_print.h"
#include "ptx/ptx_taint.h"
#include "workloads/wl_ptx.h"

struct br_opts {
    const char *kernel;        /* only this function (NULL: all)          */
    unsigned flags;            /* PTX_TAINT_*                             */
    bool json;
    bool kernel_seen;          /* some module has the --kernel function   */
};

static void json_name(const char *key, const char *s)
{
    printf("\"%s\": ", key);
    api_json_str(stdout, s, strlen(s));
}

/* One function: its header line and branch lines (text), or its JSON
 * object. Returns 0, or -1 after printing why the analysis failed. */
static int report_func(const char *label, const struct ptx_module *m,
                       const struct ptx_func *f, const struct br_opts *o, bool first,
                       struct ptx_taint_stats *sum)
{
    uint8_t *cls = malloc(f->ninsts ? f->ninsts : 1);
    struct ptx_taint_stats st;
    struct ptx_diag d;
    memset(&d, 0, sizeof d);
    if (!cls || ptx_taint_branches(f, o->flags, cls, &st, &d) != 0) {
        fprintf(stderr, "%s:%u: error: %s\n", label, d.line,
                cls ? d.msg : "out of memory");
        free(cls);
        return -1;
    }
    sum->nbranch += st.nbranch;
    sum->np += st.np;
    sum->nd += st.nd;
    if (o->json) {
        printf("%s\n        {", first ? "" : ",");
        json_name("name", f->name);
        printf(", \"entry\": %s, \"line\": %u, \"branches\": %u, \"p\": %u, "
               "\"d\": %u, \"passes\": %u, \"list\": [", f->is_entry ? "true" : "false",
               f->line, st.nbranch, st.np, st.nd, st.passes);
    } else {
        printf("%s %s (line %u): branches %u (P %u, D %u), fixpoint in %u "
               "pass%s\n", f->is_entry ? "kernel" : "function", f->name, f->line,
               st.nbranch, st.np, st.nd, st.passes, st.passes == 1 ? "" : "es");
    }
    unsigned k = 0;
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        if (cls[pc] == PTX_BCLS_NONE)
            continue;
        char dis[256];
        ptx_inst_format(dis, sizeof dis, f, &f->insts[pc]);
        uint32_t sl = 0;
        const char *sf = ptx_srcloc_of(m, f, (int32_t)pc, &sl);
        if (o->json) {
            printf("%s\n          {\"pc\": %u, \"line\": %u, \"class\": \"%s\", ",
                   k ? "," : "", pc, f->insts[pc].line, ptx_bcls_name(cls[pc]));
            const char *colon = strstr(dis, "): ");
            json_name("inst", colon ? colon + 3 : dis);
            if (sf) {
                printf(", ");
                json_name("src_file", sf);
                printf(", \"src_line\": %u", sl);
            }
            printf("}");
        } else if (sf) {
            printf("  %s  %s  [%s:%u]\n", ptx_bcls_name(cls[pc]), dis, sf, sl);
        } else {
            printf("  %s  %s\n", ptx_bcls_name(cls[pc]), dis);
        }
        k++;
    }
    if (o->json)
        printf("%s]}", k ? "\n        " : "");
    free(cls);
    return 0;
}

/* One module. Returns an exit status. */
static int report_module(const char *label, const char *text, size_t len,
                         struct br_opts *o, bool first)
{
    struct ptx_module *m = NULL;
    struct ptx_diag diag;
    memset(&diag, 0, sizeof diag);
    if (ptx_parse(label, text, len, &m, &diag) != 0) {
        fprintf(stderr, "%s\n", diag.msg[0] ? diag.msg : "parse failed");
        ptx_module_free(m);
        return CLI_USAGE;
    }
    struct ptx_taint_stats sum = { 0 };
    if (o->json) {
        printf("%s\n    {", first ? "" : ",");
        json_name("file", label);
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
        if (report_func(label, m, f, o, firstf, &sum) != 0)
            rc = CLI_FAIL;
        firstf = false;
    }
    if (o->json)
        printf("%s], \"branches\": %u, \"p\": %u, \"d\": %u}", firstf ? "" : "\n      ",
               sum.nbranch, sum.np, sum.nd);
    else if (!o->kernel)
        printf("total: branches %u (P %u, D %u)\n", sum.nbranch, sum.np, sum.nd);
    ptx_module_free(m);
    return rc;
}

/* A module argument: an existing file, else a workload's committed PTX. */
static int report_arg(const char *arg, struct br_opts *o, bool *first)
{
    int rc = CLI_OK;
    if (!strcmp(arg, "all")) {
        for (const struct wl_ptx_blob *b = wl_ptx_blobs; b->name && rc == CLI_OK; b++) {
            rc = report_module(b->path, b->text, b->len, o, *first);
            *first = false;
        }
        return rc;
    }
    size_t len = 0;
    char *text = cli_read_file(arg, &len);
    if (text) {
        rc = report_module(arg, text, len, o, *first);
        free(text);
    } else if (errno == ENOENT && wl_ptx_find(arg)) {
        const struct wl_ptx_blob *b = wl_ptx_find(arg);
        rc = report_module(b->path, b->text, b->len, o, *first);
    } else {
        fprintf(stderr, "lockstep: branches: %s: %s%s\n", arg,
                errno == EFBIG ? "larger than the model's limit for one module"
                               : strerror(errno),
                errno == ENOENT ? " (and no workload has that name)" : "");
        return CLI_USAGE;
    }
    *first = false;
    return rc;
}

int cli_branches(int argc, char **argv)
{
    struct br_opts o = { 0 };
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            o.json = true;
        } else if (!strcmp(argv[i], "--control")) {
            o.flags |= PTX_TAINT_CONTROL;
        } else if (!strcmp(argv[i], "--kernel") && i + 1 < argc) {
            o.kernel = argv[++i];
        } else if (!strncmp(argv[i], "--kernel=", 9)) {
            o.kernel = argv[i] + 9;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "lockstep: branches: unknown option '%s'\n", argv[i]);
            n = -1;
            break;
        } else {
            argv[n++] = argv[i];
        }
    }
    if (n <= 0) {
        fprintf(stderr, "usage: lockstep branches [--kernel K] [--control] [--json] "
                "FILE.ptx|WORKLOAD|all...\n");
        return CLI_USAGE;
    }
    if (o.json)
        printf("{\n  \"schema\": 1,\n  \"analysis\": \"%s\",\n  \"modules\": [",
               o.flags & PTX_TAINT_CONTROL ? "data+control" : "data");
    int rc = CLI_OK;
    bool first = true;
    for (int i = 0; i < n && rc == CLI_OK; i++)
        rc = report_arg(argv[i], &o, &first);
    if (o.json)
        printf("\n  ]\n}\n");
    if (rc == CLI_OK && o.kernel && !o.kernel_seen) {
        fprintf(stderr, "lockstep: branches: no function named '%s' with a body\n",
                o.kernel);
        rc = CLI_USAGE;
    }
    if (fflush(stdout) != 0) {
        fprintf(stderr, "lockstep: branches: error writing the report\n");
        return CLI_FAIL;
    }
    return rc;
}
