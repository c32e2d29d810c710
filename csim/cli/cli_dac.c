/* `lockstep check --dac`: the decoupling transform of every kernel of a
 * PTX module (csim/ptx/ptx_dac.h, docs/dac.md): the affine stream with its
 * enq ops, the main stream with its deq ops, every global/local load kept
 * in the main stream with why (the reason table), and the static counts,
 * as text or JSON. Each function's transform is checked (ptx_dac_check)
 * before it is printed; a violation is an error. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cli_json.h"
#include "ptx/ptx_affine.h"
#include "ptx/ptx_dac.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_print.h"

static void json_name(const char *key, const char *s)
{
    printf("\"%s\": ", key);
    api_json_str(stdout, s, strlen(s));
}

static void add_stats(struct ptx_dac_stats *sum, const struct ptx_dac_stats *st)
{
    sum->ninsts += st->ninsts;
    sum->naff += st->naff;
    sum->nmain += st->nmain;
    sum->nboth += st->nboth;
    sum->nremoved += st->nremoved;
    sum->nenq_data += st->nenq_data;
    sum->nenq_addr += st->nenq_addr;
    sum->nenq_pred += st->nenq_pred;
    sum->nload_gl += st->nload_gl;
    sum->nload_gl_dec += st->nload_gl_dec;
    sum->nload_after_wr += st->nload_after_wr;
    sum->nmem += st->nmem;
    sum->nmem_dec += st->nmem_dec;
    sum->nbranch += st->nbranch;
    sum->nbranch_dec += st->nbranch_dec;
    sum->nmask += st->nmask;
    for (unsigned w = 0; w < PTX_DAC_W_COUNT; w++)
        sum->nkept[w] += st->nkept[w];
}

static double frac(uint32_t a, uint32_t b)
{
    return b ? (double)a / b : 0.0;
}

static void json_stats(const struct ptx_dac_stats *s)
{
    printf("\"kept\": {");
    for (unsigned w = 1, n = 0; w < PTX_DAC_W_COUNT; w++)
        if (s->nkept[w])
            printf("%s\"%s\": %u", n++ ? ", " : "", ptx_dac_why_name(w), s->nkept[w]);
    printf("}, \"recv_mask\": %u, ", s->nmask);
    printf("\"insts\": %u, \"affine_stream\": %u, \"main_stream\": %u, \"both\": %u, "
           "\"removed\": %u, \"enq_data\": %u, \"enq_addr\": %u, \"enq_pred\": %u, "
           "\"loads_gl\": %u, \"loads_gl_decoupled\": %u, \"loads_gl_fraction\": %.4f, "
           "\"enq_data_after_write\": %u, \"mem\": %u, \"mem_decoupled\": %u, \"branches\": %u, \"branches_decoupled\": %u",
           s->ninsts, s->naff, s->nmain, s->nboth, s->nremoved, s->nenq_data, s->nenq_addr,
           s->nenq_pred, s->nload_gl, s->nload_gl_dec, frac(s->nload_gl_dec, s->nload_gl),
           s->nload_after_wr, s->nmem, s->nmem_dec, s->nbranch, s->nbranch_dec);
}

static void text_stats(const struct ptx_dac_stats *s)
{
    printf("insts %u: affine stream %u, main stream %u (both %u, removed %u); "
           "enq.data %u, enq.addr %u, enq.pred %u, recv.mask %u; global/local loads %u, "
           "decoupled %u (%.1f%%), %u after a global write", s->ninsts, s->naff, s->nmain,
           s->nboth, s->nremoved, s->nenq_data, s->nenq_addr, s->nenq_pred, s->nmask,
           s->nload_gl, s->nload_gl_dec, 100.0 * frac(s->nload_gl_dec, s->nload_gl),
           s->nload_after_wr);
    if (s->nload_gl == s->nload_gl_dec)
        return;
    printf("; kept in the main stream:");
    for (unsigned w = 1, n = 0; w < PTX_DAC_W_COUNT; w++)
        if (s->nkept[w])
            printf("%s %s %u", n++ ? "," : "", ptx_dac_why_name(w), s->nkept[w]);
}

/* The reason table of one function: every global/local load the main
 * stream keeps (not enq.data), with why. */
static void text_kept(const struct ptx_func *f, const struct ptx_dac_inst *r,
                      const struct ptx_dac_stats *st)
{
    if (st->nload_gl == st->nload_gl_dec)
        return;
    printf("  loads kept in the main stream:\n");
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        const struct ptx_inst *in = &f->insts[pc];
        bool gl = (in->op == PTX_OP_LD || in->op == PTX_OP_LDU) &&
                  (in->space == PTX_SP_GLOBAL || in->space == PTX_SP_LOCAL);
        if (!gl || r[pc].q == PTX_DAC_Q_DATA)
            continue;
        char dis[256];
        ptx_inst_format(dis, sizeof dis, f, in);
        printf("    %-12s %s\n", ptx_dac_why_name(r[pc].why), dis);
    }
}

static const char *streams_name(unsigned s)
{
    return s == (PTX_DAC_S_AFF | PTX_DAC_S_MAIN) ? "both" :
           s == PTX_DAC_S_AFF ? "affine" : "main";
}

/* One stream's listing (text). In the affine stream, each run of
 * instructions it skips (data control) is one line with where it goes on. */
static void text_stream(const struct ptx_func *f, const struct ptx_dac_inst *r, unsigned bit)
{
    printf("  %s stream:\n", bit == PTX_DAC_S_AFF ? "affine" : "main");
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        char dis[256];
        if (bit == PTX_DAC_S_AFF && r[pc].skip && r[pc].resume >= 0) {
            uint32_t last = pc;
            while (last + 1 < f->ninsts && r[last + 1].skip &&
                   r[last + 1].resume == r[pc].resume)
                last++;
            if ((uint32_t)r[pc].resume < f->ninsts)
                printf("    %-10s pc %u-%u: data control; goes on at pc %d\n", "skip", pc,
                       last, r[pc].resume);
            else
                printf("    %-10s pc %u-%u: data control; the affine stream ends\n", "skip",
                       pc, last);
            pc = last;
            continue;
        }
        if (!(r[pc].streams & bit))
            continue;
        ptx_inst_format(dis, sizeof dis, f, &f->insts[pc]);
        printf("    %-10s %s\n", bit == PTX_DAC_S_AFF ? ptx_dac_enq_name(r[pc].q)
                                                   : ptx_dac_deq_name(r[pc].q), dis);
    }
}

/* One function. Returns 0, or -1 after printing why the transform failed. */
static int report_func(const char *label, const struct ptx_module *m,
                       const struct ptx_func *f, const struct cli_pass_opts *o, bool first,
                       void *sump)
{
    struct ptx_dac_stats *sum = sump;
    (void)m;
    size_t n = f->ninsts ? f->ninsts : 1;
    struct ptx_affine_inst *a = malloc(n * sizeof *a);
    struct ptx_dac_inst *r = malloc(n * sizeof *r);
    struct ptx_dac_stats st;
    struct ptx_diag d;
    memset(&d, 0, sizeof d);
    if (!a || !r || ptx_affine_analyse(f, a, NULL, &d) != 0 ||
        ptx_dac_build(f, a, r, &st, &d) != 0 || ptx_dac_check(f, a, r, &d) != 0) {
        fprintf(stderr, "%s:%u: error: %s\n", label, d.line,
                a && r ? d.msg : "out of memory");
        free(a);
        free(r);
        return -1;
    }
    add_stats(sum, &st);
    if (o->json) {
        printf("%s\n        {", first ? "" : ",");
        json_name("name", f->name);
        printf(", \"entry\": %s, \"line\": %u, ", f->is_entry ? "true" : "false", f->line);
        json_stats(&st);
        printf(", \"list\": [");
        for (uint32_t pc = 0; pc < f->ninsts; pc++) {
            char dis[256];
            ptx_inst_format(dis, sizeof dis, f, &f->insts[pc]);
            const char *colon = strstr(dis, "): ");
            printf("%s\n          {\"pc\": %u, \"line\": %u, \"streams\": \"%s\", "
                   "\"enq\": \"%s\", \"deq\": \"%s\", \"qreg\": %d, \"skip\": %s, "
                   "\"resume\": %d, \"after_write\": %s, \"why\": \"%s\", ", pc ? "," : "", pc, f->insts[pc].line,
                   streams_name(r[pc].streams), ptx_dac_enq_name(r[pc].q),
                   ptx_dac_deq_name(r[pc].q), r[pc].qreg, r[pc].skip ? "true" : "false",
                   r[pc].resume, r[pc].after_wr ? "true" : "false",
                   ptx_dac_why_name(r[pc].why));
            json_name("inst", colon ? colon + 3 : dis);
            printf("}");
        }
        printf("%s]}", f->ninsts ? "\n        " : "");
    } else {
        printf("%s %s (line %u): ", f->is_entry ? "kernel" : "function", f->name, f->line);
        text_stats(&st);
        printf("\n");
        text_stream(f, r, PTX_DAC_S_AFF);
        text_stream(f, r, PTX_DAC_S_MAIN);
        text_kept(f, r, &st);
    }
    free(a);
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

int cli_dac(int argc, char **argv)
{
    static const struct cli_pass pass = { "dac", sizeof(struct ptx_dac_stats), report_func,
                                           pass_stats };
    return cli_pass_main(&pass, argc, argv);
}
