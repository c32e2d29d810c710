/* Output formats of `lockstep run`: JSON objects (csim/api/api_stats.c
 * writes them) and the aligned table. */
#include <string.h>
#include "cli/cli.h"
#include "api/api_int.h"

double cli_rate(uint64_t insts, double wall_s)
{
    return wall_s > 0 ? (double)insts / wall_s : 0.0;
}

double cli_miss_rate(const ls_cache_stats *c)
{
    return c->accesses ? (double)c->misses / (double)c->accesses : 0.0;
}

void cli_json_result(FILE *f, const struct cli_result *r, int indent)
{
    const struct api_run run = {
        .workload = r->workload, .category = r->category, .size = r->size,
        .seed = r->seed, .mode = r->mode, .config = r->config, .pass = r->pass,
        .msg = r->msg, .nlaunches = r->nlaunches, .total = &r->total,
        .launch = r->launch, .nlaunch_rec = r->nlaunch_rec,
        .have_digest = r->have_digest, .mem_digest = r->mem_digest,
        .wall_s = r->wall_s, .checks_on = r->checks_on, .chk = r->chk,
        .nchk = r->nchk,
    };
    api_json_run(f, &run, indent);
}

/* The timing-mode table: cycles, IPC, utilization, miss rates, traffic
 * and simulation speed. */
static void print_timing_table(FILE *f, const struct cli_result *r, size_t n)
{
    const char *hdr = "%-12s %-4s %11s %7s %6s %7s %7s %12s %8s %11s %10s\n";
    const char *row = "%-12s %-4s %11llu %7.3f %6.3f %7.3f %7.3f %12llu %8.3f %11.2f %10.0f\n";
    fprintf(f, hdr, "workload", "res", "cycles", "IPC", "simd", "L1miss",
            "L2miss", "DRAM_bytes", "wall_s", "Mthr-ins/s", "cycles/s");
    ls_stats sum;
    memset(&sum, 0, sizeof sum);
    double wall = 0;
    size_t passed = 0;
    for (size_t i = 0; i < n; i++) {
        const ls_stats *s = &r[i].total;
        fprintf(f, row, r[i].workload, r[i].pass ? "PASS" : "FAIL",
                (unsigned long long)s->cycles,
                s->cycles ? (double)s->warp_insts / (double)s->cycles : 0.0,
                s->simd_util, cli_miss_rate(&s->l1d), cli_miss_rate(&s->l2),
                (unsigned long long)s->dram.bytes, r[i].wall_s,
                cli_rate(s->thread_insts, r[i].wall_s) / 1e6,
                cli_rate(s->cycles, r[i].wall_s));
        ls_stats_add(&sum, s, 32);
        wall += r[i].wall_s;
        passed += r[i].pass != 0;
    }
    if (n > 1)
        fprintf(f, row, "total", passed == n ? "PASS" : "FAIL",
                (unsigned long long)sum.cycles, sum.ipc, sum.simd_util,
                cli_miss_rate(&sum.l1d), cli_miss_rate(&sum.l2),
                (unsigned long long)sum.dram.bytes, wall,
                cli_rate(sum.thread_insts, wall) / 1e6,
                cli_rate(sum.cycles, wall));
}

void cli_print_table(FILE *f, const struct cli_result *r, size_t n)
{
    if (n && r[0].mode && !strcmp(r[0].mode, "timing")) {
        print_timing_table(f, r, n);
        return;
    }
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

int cli_close_out(FILE *f, const char *path)
{
    int bad = ferror(f);
    if (f != stdout)
        bad |= fclose(f) != 0;
    else
        fflush(f);
    if (bad) {
        fprintf(stderr, "lockstep: error writing %s\n", path);
        return -1;
    }
    return 0;
}

void cli_print_cosim(FILE *f, const struct cli_result *r, size_t n)
{
    ls_stats sum;
    memset(&sum, 0, sizeof sum);
    for (size_t i = 0; i < n; i++)
        ls_stats_add(&sum, &r[i].total, 32);
    api_print_cosim(f, &sum);
}
