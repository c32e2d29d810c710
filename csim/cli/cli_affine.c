/* `lockstep check --affine`: the affine class of every instruction of a
 * PTX module (csim/ptx/ptx_affine.h, docs/dac.md) and the static
 * potentially-affine fraction, as text or JSON. A module is a file, the
 * committed PTX of a workload (by name), or `all` of them. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cli_json.h"
#include "ptx/ptx_affine.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_print.h"

static void json_name(const char *key, const char *s)
{
    printf("\"%s\": ", key);
    api_json_str(stdout, s, strlen(s));
}

static void add_stats(struct ptx_affine_stats *sum, const struct ptx_affine_stats *st)
{
    sum->ninsts += st->ninsts;
    sum->nnone += st->nnone;
    sum->nuniform += st->nuniform;
    sum->naffine += st->naffine;
    sum->nnonaffine += st->nnonaffine;
    sum->nmem += st->nmem;
    sum->nmem_affine += st->nmem_affine;
    sum->nload_gl += st->nload_gl;
    sum->nload_gl_affine += st->nload_gl_affine;
    sum->nbranch += st->nbranch;
    sum->nbranch_affine += st->nbranch_affine;
}

static double frac(uint32_t a, uint32_t b)
{
    return b ? (double)a / b : 0.0;
}

static void json_stats(const struct ptx_affine_stats *s)
{
    printf("\"insts\": %u, \"uniform\": %u, \"affine\": %u, \"nonaffine\": %u, "
           "\"none\": %u, \"potentially_affine\": %.4f, \"mem\": %u, \"mem_affine\": %u, "
           "\"loads_gl\": %u, \"loads_gl_affine\": %u, \"branches\": %u, "
           "\"branches_affine\": %u", s->ninsts, s->nuniform, s->naffine, s->nnonaffine,
           s->nnone, frac(s->nuniform + s->naffine, s->ninsts), s->nmem, s->nmem_affine,
           s->nload_gl, s->nload_gl_affine, s->nbranch, s->nbranch_affine);
}

static void text_stats(const struct ptx_affine_stats *s)
{
    printf("insts %u: U %u, A %u, N %u, - %u; potentially affine %.1f%%; "
           "global/local loads %u, decouplable %u; branches %u, on U/A %u",
           s->ninsts, s->nuniform, s->naffine, s->nnonaffine, s->nnone,
           100.0 * frac(s->nuniform + s->naffine, s->ninsts), s->nload_gl,
           s->nload_gl_affine, s->nbranch, s->nbranch_affine);
}

/* "A[tid.x+ctaid.x]", "U", ... with the address class of a memory access
 * and the control mark. */
static void describe(char *buf, size_t n, const struct ptx_affine_inst *r)
{
    char t[64];
    ptx_affine_terms_str(t, sizeof t, r->terms);
    size_t k = (size_t)snprintf(buf, n, "%s%s%s%s%s%s", ptx_acls_name(r->cls),
                                r->terms ? "[" : "", t, r->terms ? "]" : "",
                                r->sel ? " sel" : "", r->vec ? " vec" : "");
    if (k < n && r->addr != PTX_ACLS_NONE)
        k += (size_t)snprintf(buf + k, n - k, " addr:%s", ptx_acls_name(r->addr));
    if (k < n && r->ctl != PTX_ACTL_UNIFORM)
        snprintf(buf + k, n - k, " ctl:%s", r->ctl == PTX_ACTL_DATA ? "data" : "affine");
}

/* One function. Returns 0, or -1 after printing why the analysis failed. */
static int report_func(const char *label, const struct ptx_module *m,
                       const struct ptx_func *f, const struct cli_pass_opts *o, bool first,
                       void *sump)
{
    struct ptx_affine_stats *sum = sump;
    struct ptx_affine_inst *r = malloc((f->ninsts ? f->ninsts : 1) * sizeof *r);
    struct ptx_affine_stats st;
    struct ptx_diag d;
    memset(&d, 0, sizeof d);
    if (!r || ptx_affine_analyse(f, r, &st, &d) != 0) {
        fprintf(stderr, "%s:%u: error: %s\n", label, d.line, r ? d.msg : "out of memory");
        free(r);
        return -1;
    }
    add_stats(sum, &st);
    if (o->json) {
        printf("%s\n        {", first ? "" : ",");
        json_name("name", f->name);
        printf(", \"entry\": %s, \"line\": %u, \"passes\": %u, ",
               f->is_entry ? "true" : "false", f->line, st.passes);
        json_stats(&st);
        printf(", \"list\": [");
    } else {
        printf("%s %s (line %u): ", f->is_entry ? "kernel" : "function", f->name, f->line);
        text_stats(&st);
        printf("; fixpoint in %u pass%s\n", st.passes, st.passes == 1 ? "" : "es");
    }
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        char dis[256], cls[96];
        ptx_inst_format(dis, sizeof dis, f, &f->insts[pc]);
        describe(cls, sizeof cls, &r[pc]);
        const char *colon = strstr(dis, "): ");
        if (o->json) {
            char t[64];
            printf("%s\n          {\"pc\": %u, \"line\": %u, \"class\": \"%s\", "
                   "\"terms\": \"%s\", \"addr\": \"%s\", \"ctl\": \"%s\", \"sel\": %s, "
                   "\"vec\": %s, ",
                   pc ? "," : "", pc, f->insts[pc].line, ptx_acls_name(r[pc].cls),
                   ptx_affine_terms_str(t, sizeof t, r[pc].terms), ptx_acls_name(r[pc].addr),
                   r[pc].ctl == PTX_ACTL_DATA ? "data" :
                   r[pc].ctl == PTX_ACTL_AFFINE ? "affine" : "uniform",
                   r[pc].sel ? "true" : "false", r[pc].vec ? "true" : "false");
            json_name("inst", colon ? colon + 3 : dis);
            printf("}");
        } else {
            printf("  %-28s %s\n", cls, dis);
        }
    }
    if (o->json)
        printf("%s]}", f->ninsts ? "\n        " : "");
    (void)m;
    free(r);
    return 0;
}

static void pass_stats(const void *sum, bool json)
{
    if (json)
        json_stats(sum);
    else
        text_stats(sum);
}

int cli_affine(int argc, char **argv)
{
    static const struct cli_pass pass = { "affine", sizeof(struct ptx_affine_stats), report_func,
                                           pass_stats };
    return cli_pass_main(&pass, argc, argv);
}
