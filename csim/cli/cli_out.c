/* Output formats of `lockstep run`: JSON objects and the aligned table. */
#include <math.h>
#include <string.h>
#include "cli/cli.h"

double cli_rate(uint64_t insts, double wall_s)
{
    return wall_s > 0 ? (double)insts / wall_s : 0.0;
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* JSON has no NaN/Inf: write those as null. */
static void json_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.6g", v);
    else
        fputs("null", f);
}

void cli_json_result(FILE *f, const struct cli_result *r, int indent)
{
    const ls_stats *s = &r->total;
    int in = indent + 2;
    fprintf(f, "%*s{\n", indent, "");
    fprintf(f, "%*s\"workload\": ", in, "");
    json_str(f, r->workload);
    fprintf(f, ",\n%*s\"category\": ", in, "");
    json_str(f, r->category);
    fprintf(f, ",\n%*s\"size\": ", in, "");
    json_str(f, r->size);
    fprintf(f, ",\n%*s\"seed\": %llu,\n", in, "", (unsigned long long)r->seed);
    fprintf(f, "%*s\"pass\": %s,\n", in, "", r->pass ? "true" : "false");
    fprintf(f, "%*s\"msg\": ", in, "");
    json_str(f, r->msg);
    fprintf(f, ",\n%*s\"launches\": %u,\n", in, "", r->nlaunches);
    fprintf(f, "%*s\"warp_insts\": %llu,\n", in, "",
            (unsigned long long)s->warp_insts);
    fprintf(f, "%*s\"thread_insts\": %llu,\n", in, "",
            (unsigned long long)s->thread_insts);
    fprintf(f, "%*s\"simd_util\": ", in, "");
    json_num(f, s->simd_util);
    fprintf(f, ",\n%*s\"branches\": %llu,\n", in, "",
            (unsigned long long)s->branches);
    fprintf(f, "%*s\"divergent_branches\": %llu,\n", in, "",
            (unsigned long long)s->divergent_branches);
    fprintf(f, "%*s\"max_stack_depth\": %llu,\n", in, "",
            (unsigned long long)s->max_stack_depth);
    fprintf(f, "%*s\"ctas\": %llu,\n", in, "", (unsigned long long)s->ctas);
    fprintf(f, "%*s\"threads\": %llu,\n", in, "", (unsigned long long)s->threads);
    fprintf(f, "%*s\"cycles\": %llu,\n", in, "", (unsigned long long)s->cycles);
    fprintf(f, "%*s\"sim\": {\"wall_s\": ", in, "");
    json_num(f, r->wall_s);
    fprintf(f, ", \"thread_insts_per_s\": ");
    json_num(f, cli_rate(s->thread_insts, r->wall_s));
    fprintf(f, ", \"warp_insts_per_s\": ");
    json_num(f, cli_rate(s->warp_insts, r->wall_s));
    fprintf(f, "}\n%*s}", indent, "");
}

void cli_print_table(FILE *f, const struct cli_result *r, size_t n)
{
    const char *hdr = "%-12s %-8s %-4s %4s %12s %13s %6s %10s %5s %8s %10s\n";
    const char *row = "%-12s %-8s %-4s %4u %12llu %13llu %6.3f %10llu %5llu %8.3f %10.2f\n";
    fprintf(f, hdr, "workload", "size", "res", "lnch", "warp_insts",
            "thread_insts", "simd", "div_br", "stack", "wall_s", "Mthr-ins/s");
    ls_stats sum;
    memset(&sum, 0, sizeof sum);
    double wall = 0;
    unsigned launches = 0;
    size_t passed = 0;
    for (size_t i = 0; i < n; i++) {
        const ls_stats *s = &r[i].total;
        fprintf(f, row, r[i].workload, r[i].size, r[i].pass ? "PASS" : "FAIL",
                r[i].nlaunches, (unsigned long long)s->warp_insts,
                (unsigned long long)s->thread_insts, s->simd_util,
                (unsigned long long)s->divergent_branches,
                (unsigned long long)s->max_stack_depth, r[i].wall_s,
                cli_rate(s->thread_insts, r[i].wall_s) / 1e6);
        sum.warp_insts += s->warp_insts;
        sum.thread_insts += s->thread_insts;
        sum.divergent_branches += s->divergent_branches;
        if (s->max_stack_depth > sum.max_stack_depth)
            sum.max_stack_depth = s->max_stack_depth;
        wall += r[i].wall_s;
        launches += r[i].nlaunches;
        passed += r[i].pass != 0;
    }
    if (n > 1) {
        /* utilization of the whole suite, assuming the 32-wide default warp */
        double util = sum.warp_insts
            ? (double)sum.thread_insts / ((double)sum.warp_insts * 32.0) : 0.0;
        fprintf(f, row, "total", r[0].size, passed == n ? "PASS" : "FAIL",
                launches, (unsigned long long)sum.warp_insts,
                (unsigned long long)sum.thread_insts, util,
                (unsigned long long)sum.divergent_branches,
                (unsigned long long)sum.max_stack_depth, wall,
                cli_rate(sum.thread_insts, wall) / 1e6);
    }
}
