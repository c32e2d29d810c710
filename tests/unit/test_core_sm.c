/* cmocka tests of the SM timing core (csim/core), driven directly without
 * a memory system (ALU-only kernels): scheduler orders (lrr, gto, oldest,
 * two_level), the scoreboard, the pipeline initiation interval, CTA
 * dispatch limits, barriers, the coalescer and shared-memory bank
 * conflicts. Issue order and cycles are observed through the simt trace
 * hook, which runs at issue. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"
#include "exec/exec_mem.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

struct rec {
    const struct core_sm *sm;
    const uint64_t *now;
    unsigned n;
    unsigned slot[4096];
    int32_t pc[4096];
    uint64_t cyc[4096];
};

static void on_issue(void *user, const struct simt_warp *w, int32_t pc, uint32_t mask)
{
    (void)mask;
    struct rec *r = user;
    if (r->n >= 4096)
        return;
    unsigned s = 0;
    while (&r->sm->v.w[s].sw != w)
        s++;
    r->slot[r->n] = s;
    r->pc[r->n] = pc;
    r->cyc[r->n] = *r->now;
    r->n++;
}

struct harness {
    struct cfg c;
    struct ptx_module *mod;
    struct core_prog prog;
    struct core_kernel k;
    struct core_sm sm;
    struct exec_dmem dmem;
    uint64_t sym[4];
    uint64_t now;
    struct rec rec;
    char err[256];
};

/* Parses ptx, builds an SM under the "key=value" overrides (NULL-ended)
 * and prepares kernel "k" with block threads per CTA. */
static void h_init(struct harness *h, const char *ptx, unsigned block,
                   const char *const *sets)
{
    memset(h, 0, sizeof *h);
    cfg_defaults(&h->c);
    char err[256];
    for (const char *const *s = sets; s && *s; s++)
        assert_int_equal(cfg_set(&h->c, *s, "test", err, sizeof err), 0);
    struct ptx_diag d;
    memset(&d, 0, sizeof d);
    assert_int_equal(ptx_parse("t.ptx", ptx, strlen(ptx), &h->mod, &d), 0);
    assert_int_equal(core_prog_build(&h->prog, h->mod), 0);
    core_prog_timing(&h->prog, &h->c);
    const struct ptx_func *f = ptx_find_func(h->mod, "k");
    assert_non_null(f);
    h->k.mod = h->mod;
    h->k.f = f;
    h->k.prog = &h->prog;
    h->k.sym0 = h->sym;
    h->k.sym1 = h->sym;
    h->k.frame0 = simt_frame_layout(f, 0, NULL);
    h->k.local_stride = 64;
    h->k.ntid[0] = block; h->k.ntid[1] = 1; h->k.ntid[2] = 1;
    h->k.nctaid[0] = 8; h->k.nctaid[1] = 1; h->k.nctaid[2] = 1;
    h->k.nthreads = block;
    h->k.nwarps = (block + 31) / 32;
    h->k.regs_per_thread = 8;
    h->k.dmem = &h->dmem;
    h->k.max_stack_depth = 16;
    assert_int_equal(core_sm_init(&h->sm, &h->c, 0, 16, NULL, h->err, sizeof h->err), 0);
    assert_int_equal(core_sm_kernel(&h->sm, &h->k, 0), 0);
    h->rec.sm = &h->sm;
    h->rec.now = &h->now;
    for (unsigned i = 0; i < h->sm.v.nslots; i++) {
        h->sm.v.w[i].sw.trace = on_issue;
        h->sm.v.w[i].sw.trace_user = &h->rec;
    }
}

static void h_launch(struct harness *h, uint32_t x)
{
    uint32_t id[3] = { x, 0, 0 };
    assert_true(core_sm_fits(&h->sm));
    assert_int_equal(core_sm_launch_cta(&h->sm, id, h->now), 0);
}

/* Runs until every warp finished; returns the cycles taken. */
static uint64_t h_run(struct harness *h)
{
    uint64_t start = h->now;
    while (h->sm.live_warps) {
        if (h->sm.v.next_try <= h->now)
            assert_int_equal(core_sm_cycle(&h->sm, h->now), 0);
        assert_true(h->now - start < 1000000);
        h->now = h->sm.v.next_try > h->now && h->sm.v.next_try != CORE_INF
                     ? h->sm.v.next_try : h->now + 1;
    }
    return h->now - start;
}

/* One CTA of PTX text ptx with block threads under settings sets, run to
 * the end; returns the cycles taken. */
static uint64_t h_one(struct harness *h, const char *ptx, unsigned block,
                      const char *const *sets)
{
    h_init(h, ptx, block, sets);
    h_launch(h, 0);
    return h_run(h);
}

static void h_free(struct harness *h)
{
    core_sm_free(&h->sm);
    core_prog_free(&h->prog);
    ptx_module_free(h->mod);
}

/* n independent movs (%r1..%rn), then ret */
static char *indep_kernel(unsigned n)
{
    size_t cap = 256 + 40 * n;
    char *s = malloc(cap);
    int o = snprintf(s, cap, HDR ".visible .entry k()\n{\n .reg .b32 %%r<%u>;\n", n + 2);
    for (unsigned i = 1; i <= n; i++)
        o += snprintf(s + o, cap - (size_t)o, " mov.u32 %%r%u, %u;\n", i, i);
    snprintf(s + o, cap - (size_t)o, " ret;\n}\n");
    return s;
}

/* a chain of n dependent adds */
static char *dep_kernel(unsigned n)
{
    size_t cap = 256 + 48 * n;
    char *s = malloc(cap);
    int o = snprintf(s, cap, HDR ".visible .entry k()\n{\n .reg .b32 %%r<%u>;\n"
                     " mov.u32 %%r1, 1;\n", n + 3);
    for (unsigned i = 2; i <= n + 1; i++)
        o += snprintf(s + o, cap - (size_t)o, " add.u32 %%r%u, %%r%u, 1;\n", i, i - 1);
    snprintf(s + o, cap - (size_t)o, " ret;\n}\n");
    return s;
}

static void test_initiation_interval(void **state)
{
    (void)state;
    char *ptx = indep_kernel(32);
    const char *lanes16[] = { "num_schedulers=1", "alu_units=1", "alu_lanes=16", NULL };
    const char *lanes32[] = { "num_schedulers=1", "alu_units=1", "alu_lanes=32", NULL };
    const char *const *cases[2] = { lanes16, lanes32 };
    for (unsigned c = 0; c < 2; c++) {
        struct harness *h = calloc(1, sizeof *h);
        h_one(h, ptx, 32, cases[c]);
        assert_int_equal(h->rec.n, 33);          /* 32 movs + ret */
        unsigned want = c == 0 ? 2 : 1;          /* ceil(32 / lanes) */
        for (unsigned i = 1; i < 32; i++)
            assert_int_equal(h->rec.cyc[i] - h->rec.cyc[i - 1], want);
        h_free(h);
        free(h);
    }
    free(ptx);
}


static void test_ibuffer_fetch(void **state)
{
    (void)state;
    char *ptx = indep_kernel(16);
    /* 2-entry buffer, 4-cycle fetch: 2 instructions per 4 cycles */
    const char *slow[] = { "num_schedulers=1", "alu_lanes=32", "ibuffer_entries=2",
                           "fetch_latency=4", NULL };
    /* 4-entry buffer hides the 4-cycle fetch: one per cycle */
    const char *fast[] = { "num_schedulers=1", "alu_lanes=32", "ibuffer_entries=4",
                           "fetch_latency=4", NULL };
    struct harness *h = calloc(1, sizeof *h);
    h_one(h, ptx, 32, slow);
    assert_int_equal(h->rec.cyc[0], 4);      /* first block after the fetch */
    for (unsigned i = 1; i < 16; i++)
        assert_int_equal(h->rec.cyc[i] - h->rec.cyc[i - 1], (i % 2) ? 1 : 3);
    h_free(h);
    h_one(h, ptx, 32, fast);
    for (unsigned i = 1; i < 16; i++)
        assert_int_equal(h->rec.cyc[i] - h->rec.cyc[i - 1], 1);
    h_free(h);
    free(h);
    free(ptx);
    /* a taken branch flushes the buffer: the target issues 1 + fetch later */
    const char *br = HDR ".visible .entry k()\n{\n .reg .b32 %r<4>;\n"
        " mov.u32 %r1, 1;\n bra.uni L;\n mov.u32 %r2, 2;\nL:\n mov.u32 %r3, 3;\n"
        " ret;\n}\n";
    const char *sets[] = { "num_schedulers=1", "alu_lanes=32", "fetch_latency=6", NULL };
    h = calloc(1, sizeof *h);
    h_one(h, br, 32, sets);
    assert_int_equal(h->rec.pc[2], 3);
    assert_int_equal(h->rec.cyc[2] - h->rec.cyc[1], 7);
    h_free(h);
    free(h);
}

/* The SFU (1 unit of 4 lanes) takes 8 cycles per warp instruction; a
 * second SFU halves the gap; ALU work issues in between. */
static void test_sfu_interval(void **state)
{
    (void)state;
    const char *ptx = HDR ".visible .entry k()\n{\n .reg .f32 %f<20>;\n"
        " sqrt.approx.f32 %f1, %f10;\n sqrt.approx.f32 %f2, %f11;\n"
        " sqrt.approx.f32 %f3, %f12;\n sqrt.approx.f32 %f4, %f13;\n ret;\n}\n";
    const char *one[] = { "num_schedulers=1", "sfu_units=1", "sfu_lanes=4", NULL };
    const char *two[] = { "num_schedulers=1", "sfu_units=2", "sfu_lanes=4", NULL };
    struct harness *h = calloc(1, sizeof *h);
    h_one(h, ptx, 32, one);
    for (unsigned i = 1; i < 4; i++)
        assert_int_equal(h->rec.cyc[i] - h->rec.cyc[i - 1], 8);
    h_free(h);
    h_one(h, ptx, 32, two);
    assert_int_equal(h->rec.cyc[1] - h->rec.cyc[0], 1);
    assert_int_equal(h->rec.cyc[2] - h->rec.cyc[0], 8);
    h_free(h);
    free(h);
}

static void test_scoreboard_latency(void **state)
{
    (void)state;
    char *dep = dep_kernel(16), *ind = indep_kernel(17);
    for (unsigned lat = 4; lat <= 24; lat += 20) {
        char s1[32];
        snprintf(s1, sizeof s1, "alu_latency=%u", lat);
        const char *sets[] = { "num_schedulers=1", "alu_lanes=32", s1, NULL };
        struct harness *h = calloc(1, sizeof *h);
        h_one(h, dep, 32, sets);
        /* each dependent add waits exactly the producer's latency */
        for (unsigned i = 1; i <= 16; i++)
            assert_int_equal(h->rec.cyc[i] - h->rec.cyc[i - 1], lat);
        h_free(h);
        h_one(h, ind, 32, sets);
        for (unsigned i = 1; i < 17; i++)
            assert_int_equal(h->rec.cyc[i] - h->rec.cyc[i - 1], 1);
        h_free(h);
        free(h);
    }
    free(dep);
    free(ind);
}

/* Runs 4 single-warp... warps under policy; returns the recorder copy. */
static void run_policy(const char *ptx, const char *policy, unsigned block,
                       unsigned nctas, struct rec *out)
{
    char p[64];
    snprintf(p, sizeof p, "sched_policy=%s", policy);
    const char *sets[] = { "num_schedulers=1", "alu_lanes=32", "alu_latency=4", p, NULL };
    struct harness *h = calloc(1, sizeof *h);
    h_init(h, ptx, block, sets);
    for (unsigned c = 0; c < nctas; c++)
        h_launch(h, c);
    h_run(h);
    memcpy(out, &h->rec, sizeof *out);
    h_free(h);
    free(h);
}

static void test_sched_lrr_gto_oldest(void **state)
{
    (void)state;
    /* 6 independent movs, one add that waits for the last, 6 more movs */
    const char *ptx = HDR ".visible .entry k()\n{\n .reg .b32 %r<20>;\n"
        " mov.u32 %r1, 1;\n mov.u32 %r2, 2;\n mov.u32 %r3, 3;\n"
        " mov.u32 %r4, 4;\n mov.u32 %r5, 5;\n mov.u32 %r6, 6;\n"
        " add.u32 %r7, %r6, 1;\n"
        " mov.u32 %r8, 1;\n mov.u32 %r9, 2;\n mov.u32 %r10, 3;\n"
        " mov.u32 %r11, 4;\n mov.u32 %r12, 5;\n mov.u32 %r13, 6;\n"
        " ret;\n}\n";
    struct rec *r = calloc(1, sizeof *r);
    /* lrr: round robin over the 4 warps from the first instruction */
    run_policy(ptx, "lrr", 128, 1, r);
    for (unsigned i = 0; i < 8; i++)
        assert_int_equal(r->slot[i], i % 4);
    /* gto: warp 0 greedily until its stall, then warp 1 greedily */
    run_policy(ptx, "gto", 128, 1, r);
    for (unsigned i = 0; i < 6; i++)
        assert_int_equal(r->slot[i], 0);
    for (unsigned i = 6; i < 12; i++)
        assert_int_equal(r->slot[i], 1);
    assert_int_equal(r->pc[6], 0);
    /* gto stayed on warp 1 (6 issues) although warp 0 was ready again
     * after 4 cycles; only warp 1's own stall hands back to warp 0 */
    assert_int_equal(r->slot[12], 0);
    assert_int_equal(r->pc[12], 6);
    assert_true(r->cyc[11] > r->cyc[5] + 4);
    run_policy(ptx, "oldest", 128, 1, r);
    for (unsigned i = 0; i < 6; i++)
        assert_int_equal(r->slot[i], 0);
    assert_int_equal(r->slot[6], 1);
    unsigned back = 0;
    for (unsigned i = 6; i < 12 && !back; i++)
        if (r->slot[i] == 0)
            back = i;
    assert_true(back > 6 && back < 12);        /* warp 0 resumes first */
    assert_int_equal(r->pc[back], 6);
    free(r);
}

static void test_sched_two_level(void **state)
{
    (void)state;
    char *ptx = indep_kernel(8);
    struct rec *r = calloc(1, sizeof *r);
    /* two CTAs of two warps: slots 0,1 = CTA 0; slots 2,3 = CTA 1 */
    run_policy(ptx, "two_level", 64, 2, r);
    /* the active group (CTA 0) runs its warps round-robin to the end */
    for (unsigned i = 0; i < 18; i++)
        assert_true(r->slot[i] <= 1);
    assert_int_equal(r->slot[0], 1 - r->slot[1]);
    for (unsigned i = 18; i < 36; i++)
        assert_true(r->slot[i] >= 2);
    run_policy(ptx, "lrr", 64, 2, r);
    for (unsigned i = 0; i < 8; i++)
        assert_int_equal(r->slot[i], i % 4);
    free(r);
    free(ptx);
}

static void test_cta_limits(void **state)
{
    (void)state;
    char *ptx = indep_kernel(2);
    struct harness *h = calloc(1, sizeof *h);
    const char *sets[] = { "shared_per_sm=49152", "max_ctas_per_sm=8", NULL };
    /* shared memory: 20 KiB per CTA -> 2 CTAs per SM */
    h_init(h, ptx, 64, sets);
    h->k.shared_bytes = 20480;
    assert_int_equal(core_sm_kernel(&h->sm, &h->k, 0), 0);
    unsigned n = 0;
    while (core_sm_fits(&h->sm))
        h_launch(h, n++);
    assert_int_equal(n, 2);
    h_free(h);
    /* no shared memory: the CTA slots bind (8) */
    h_init(h, ptx, 64, sets);
    n = 0;
    while (core_sm_fits(&h->sm))
        h_launch(h, n++);
    assert_int_equal(n, 8);
    h_free(h);
    /* registers: 32 regs x 256 threads = 8192 -> 4 CTAs in 32768 */
    h_init(h, ptx, 256, sets);
    h->k.regs_per_thread = 32;
    n = 0;
    while (core_sm_fits(&h->sm))
        h_launch(h, n++);
    assert_int_equal(n, 4);
    h_free(h);
    /* threads: 512-thread CTAs, 1536 threads per SM -> 3 */
    h_init(h, ptx, 512, sets);
    h->k.regs_per_thread = 4;
    n = 0;
    while (core_sm_fits(&h->sm))
        h_launch(h, n++);
    assert_int_equal(n, 3);
    /* a finished CTA frees its resources */
    h_run(h);
    assert_true(core_sm_fits(&h->sm));
    h_free(h);
    free(h);
    free(ptx);
}

static void test_barrier(void **state)
{
    (void)state;
    /* warp 1 (tid >= 32) skips a long dependent chain before bar.sync */
    const char *ptx = HDR ".visible .entry k()\n{\n .reg .pred %p<2>;\n"
        " .reg .b32 %r<20>;\n"
        " mov.u32 %r1, %tid.x;\n setp.ge.u32 %p1, %r1, 32;\n"
        " @%p1 bra SKIP;\n"
        " add.u32 %r2, %r1, 1;\n add.u32 %r3, %r2, 1;\n add.u32 %r4, %r3, 1;\n"
        " add.u32 %r5, %r4, 1;\n add.u32 %r6, %r5, 1;\n add.u32 %r7, %r6, 1;\n"
        "SKIP:\n bar.sync 0;\n mov.u32 %r8, 7;\n ret;\n}\n";
    const char *sets[] = { "num_schedulers=1", "alu_latency=10", NULL };
    struct harness *h = calloc(1, sizeof *h);
    h_one(h, ptx, 64, sets);
    uint64_t bar0 = 0, after1 = 0, bar1 = 0;
    for (unsigned i = 0; i < h->rec.n; i++) {
        if (h->rec.pc[i] == 9 && h->rec.slot[i] == 0) bar0 = h->rec.cyc[i];
        if (h->rec.pc[i] == 9 && h->rec.slot[i] == 1) bar1 = h->rec.cyc[i];
        if (h->rec.pc[i] == 10 && h->rec.slot[i] == 1) after1 = h->rec.cyc[i];
    }
    assert_true(bar1 > 0 && bar0 > 0 && after1 > 0);
    assert_true(bar1 + 50 < bar0);       /* warp 1 arrived long before   */
    assert_true(after1 > bar0);          /* and waited for warp 0        */
    h_free(h);
    free(h);
}


/* 8 independent shared loads at word stride `stride` per lane: the MEM
 * pipe (16 lanes: ii 2) is held ii x conflict-degree cycles per load. */
static void shared_gaps(unsigned stride, uint64_t *gap)
{
    char ptx[2048];
    int o = snprintf(ptx, sizeof ptx, HDR ".visible .entry k()\n{\n"
                     " .shared .align 4 .b8 sh[4096];\n .reg .b32 %%r<20>;\n"
                     " mov.u32 %%r1, %%tid.x;\n mul.lo.u32 %%r2, %%r1, %u;\n", stride * 4);
    for (unsigned i = 0; i < 8; i++)
        o += snprintf(ptx + o, sizeof ptx - (size_t)o,
                      " ld.shared.u32 %%r%u, [%%r2+%u];\n", 3 + i, 128 * stride * i);
    snprintf(ptx + o, sizeof ptx - (size_t)o, " ret;\n}\n");
    const char *sets[] = { "num_schedulers=1", "mem_lanes=16", "shmem_banks=32", NULL };
    struct harness *h = calloc(1, sizeof *h);
    h_init(h, ptx, 32, sets);
    h->k.shared_bytes = 4096 * 8;
    assert_int_equal(core_sm_kernel(&h->sm, &h->k, 0), 0);
    h_launch(h, 0);
    h_run(h);
    assert_int_equal(h->rec.pc[2], 2);
    *gap = h->rec.cyc[3] - h->rec.cyc[2];
    for (unsigned i = 3; i < 10; i++)
        assert_int_equal(h->rec.cyc[i] - h->rec.cyc[i - 1], *gap);
    h_free(h);
    free(h);
}

static void test_shared_conflict_timing(void **state)
{
    (void)state;
    uint64_t g1, g2, g4;
    shared_gaps(1, &g1);
    shared_gaps(2, &g2);
    shared_gaps(4, &g4);
    assert_int_equal(g1, 2);        /* conflict-free: the initiation interval */
    assert_int_equal(g2, 4);        /* 2-way */
    assert_int_equal(g4, 8);        /* 4-way */
}


/* Two sources in one register-file bank cost the operand collector an
 * extra cycle: the dependent instruction sees latency + 1. */
static uint64_t collector_gap(const char *src2)
{
    char ptx[1024];
    snprintf(ptx, sizeof ptx, HDR ".visible .entry k()\n{\n .reg .b32 %%r<20>;\n"
             " mov.u32 %%r1, 1;\n mov.u32 %%r2, 2;\n mov.u32 %%r17, 3;\n"
             " add.u32 %%r3, %%r1, %s;\n add.u32 %%r4, %%r3, 1;\n ret;\n}\n", src2);
    const char *sets[] = { "num_schedulers=1", "alu_lanes=32", "alu_latency=6",
                           "rf_banks=16", NULL };
    struct harness *h = calloc(1, sizeof *h);
    h_one(h, ptx, 32, sets);
    assert_int_equal(h->rec.pc[4], 4);
    uint64_t g = h->rec.cyc[4] - h->rec.cyc[3];
    h_free(h);
    free(h);
    return g;
}

static void test_operand_collector_banks(void **state)
{
    (void)state;
    assert_int_equal(collector_gap("%r2"), 6);      /* banks 1 and 2 */
    assert_int_equal(collector_gap("%r17"), 7);     /* both bank 1 */
    /* one collector, held 2 cycles by each same-bank pair: issue every 2 */
    const char *ptx = HDR ".visible .entry k()\n{\n .reg .b32 %r<40>;\n"
        " add.u32 %r20, %r1, %r17;\n add.u32 %r21, %r2, %r18;\n"
        " add.u32 %r22, %r3, %r19;\n add.u32 %r23, %r4, %r20;\n ret;\n}\n";
    const char *one[] = { "num_schedulers=1", "alu_lanes=32", "rf_banks=16",
                          "operand_collectors=1", NULL };
    struct harness *h = calloc(1, sizeof *h);
    h_one(h, ptx, 32, one);
    for (unsigned i = 1; i < 3; i++)
        assert_int_equal(h->rec.cyc[i] - h->rec.cyc[i - 1], 2);
    h_free(h);
    free(h);
}


/* The gap between a dependent pair of adds (latency 5) under GPGPU-Sim's
 * stages: collection 4 cycles (issue, collector unit, bank read, dispatch),
 * write-back latency - ii + 3 cycles after the unit takes it. */
static uint64_t staged_gap(const char *collect, const char *writeback)
{
    char *dep = dep_kernel(4);
    const char *sets[] = { "num_schedulers=1", "alu_lanes=32", "alu_latency=5",
                           collect, writeback, NULL };
    struct harness *h = calloc(1, sizeof *h);
    h_one(h, dep, 32, sets);
    uint64_t g = h->rec.cyc[3] - h->rec.cyc[2];
    assert_int_equal(h->rec.cyc[4] - h->rec.cyc[3], g);
    h_free(h);
    free(h);
    free(dep);
    return g;
}

/* sqrt (SFU: 4 lanes, ii 8, latency 8), three independent movs, an add
 * whose result falls in the sqrt's write-back cycle, and its dependent:
 * the issue gap of the last two. */
static uint64_t result_bus_gap(const char *buses)
{
    const char *ptx = HDR ".visible .entry k()\n{\n .reg .b32 %r<20>;\n .reg .f32 %f<4>;\n"
        " sqrt.approx.f32 %f1, %f2;\n mov.u32 %r1, 1;\n mov.u32 %r2, 2;\n"
        " mov.u32 %r3, 3;\n add.u32 %r4, %r10, 1;\n add.u32 %r5, %r4, 1;\n ret;\n}\n";
    const char *sets[] = { "num_schedulers=1", "alu_units=2", "alu_lanes=32",
                           "alu_latency=4", "sfu_lanes=4", "sfu_latency=8",
                           "pipe_collect=staged", "pipe_writeback=staged", buses, NULL };
    struct harness *h = calloc(1, sizeof *h);
    h_one(h, ptx, 32, sets);
    for (unsigned i = 1; i < 5; i++)
        assert_int_equal(h->rec.cyc[i] - h->rec.cyc[i - 1], 1);
    uint64_t g = h->rec.cyc[5] - h->rec.cyc[4];
    h_free(h);
    free(h);
    return g;
}

static void test_staged_pipeline(void **state)
{
    (void)state;
    assert_int_equal(staged_gap("pipe_collect=lumped", "pipe_writeback=lumped"), 5);
    assert_int_equal(staged_gap("pipe_collect=staged", "pipe_writeback=lumped"), 9);
    assert_int_equal(staged_gap("pipe_collect=lumped", "pipe_writeback=staged"), 7);
    assert_int_equal(staged_gap("pipe_collect=staged", "pipe_writeback=staged"), 11);
    /* the add waits a cycle in OC_EX for the one result bus */
    assert_int_equal(result_bus_gap("result_buses=2"), 10);
    assert_int_equal(result_bus_gap("result_buses=1"), 11);
}

/* A branch, a barrier and ret take an ALU issue slot (GPGPU-Sim issues
 * BRANCH_OP, BARRIER_OP and RET_OPS to the SP pipeline, core_dinst_pipe):
 * behind a mov on an 8-lane ALU (initiation interval 4) each waits the
 * interval, as the next mov waits for each of them. */
static void test_ctrl_alu_slot(void **state)
{
    (void)state;
    const char *ptx = HDR ".visible .entry k()\n{\n .reg .b32 %r<4>;\n"
        " mov.u32 %r1, 1;\n bra.uni L;\nL:\n mov.u32 %r2, 2;\n bar.sync 0;\n"
        " mov.u32 %r3, 3;\n ret;\n}\n";
    const char *sets[] = { "num_schedulers=1", "alu_units=1", "alu_lanes=8",
                           "fetch_latency=1", NULL };
    struct harness *h = calloc(1, sizeof *h);
    h_one(h, ptx, 32, sets);
    assert_int_equal(h->rec.n, 6);
    for (unsigned i = 1; i < 6; i++) {
        assert_int_equal(h->rec.pc[i], (int32_t)i);
        assert_int_equal(h->rec.cyc[i] - h->rec.cyc[i - 1], 4);
    }
    h_free(h);
    free(h);
}

/* Three dependent `op` instructions on registers of type ty (%x1..%x4), GPGPU-Sim's stages, opcode_timing as `timing`: the issue gap
 * of a dependent pair, and in *unit the unit the first one went to. */
static uint64_t opc_gap(const char *ty, const char *op, const char *timing, unsigned *unit)
{
    char ptx[1024];
    const char *c = strncmp(op, "mad", 3) == 0 || strncmp(op, "fma", 3) == 0
                    ? ", %x1" : "";                                     /* a third source */
    snprintf(ptx, sizeof ptx, HDR ".visible .entry k()\n{\n .reg .%s %%x<8>;\n"
             " %s %%x2, %%x1, %%x1%s;\n %s %%x3, %%x2, %%x1%s;\n %s %%x4, %%x3, %%x1%s;\n"
             " ret;\n}\n", ty, op, c, op, c, op, c);
    const char *sets[] = { "num_schedulers=1", "alu_lanes=32", "alu_latency=4",
                           "sfu_lanes=4", "sfu_latency=8", "pipe_collect=staged",
                           "pipe_writeback=staged", timing, NULL };
    struct harness *h = calloc(1, sizeof *h);
    h_one(h, ptx, 32, sets);
    uint64_t g = h->rec.cyc[1] - h->rec.cyc[0];
    assert_int_equal(h->rec.cyc[2] - h->rec.cyc[1], g);
    *unit = h->prog.di[0][0].unit;
    h_free(h);
    free(h);
    return g;
}

/* opcode_timing = class is GPGPU-Sim's set_opcode_and_latency: the
 * dependent gap is 4 (collection) + latency - 1 + 3 (write-back; the
 * initiation interval is spent in the dispatch register, inside the
 * latency) with
 * SM2_GTX480's per-class values (the keys' defaults); unit gives every
 * ALU opcode alu_latency (4 + 4 - 1 + 3 = 10). */
static void test_opcode_latency(void **state)
{
    (void)state;
    const char *cls = "opcode_timing=class", *unit = "opcode_timing=unit";
    unsigned u;
    assert_int_equal(opc_gap("b32", "add.u32", cls, &u), 4 + 4 - 1 + 3);
    assert_int_equal(u, CORE_U_ALU);
    assert_int_equal(opc_gap("b32", "mul.lo.u32", cls, &u), 4 + 4 - 1 + 3);
    assert_int_equal(opc_gap("b32", "mad.lo.u32", cls, &u), 4 + 5 - 1 + 3);
    assert_int_equal(opc_gap("b32", "max.u32", cls, &u), 4 + 13 - 1 + 3);
    assert_int_equal(opc_gap("f32", "max.f32", cls, &u), 4 + 13 - 1 + 3);
    assert_int_equal(opc_gap("b32", "and.b32", cls, &u), 4 + 1 - 1 + 3);
    assert_int_equal(opc_gap("b32", "div.u32", cls, &u), 4 + 145 - 1 + 3);
    assert_int_equal(u, CORE_U_SFU);
    assert_int_equal(opc_gap("f32", "div.rn.f32", cls, &u), 4 + 39 - 1 + 3);
    assert_int_equal(u, CORE_U_SFU);
    /* f64 on the SFU: 8 cycles in the dispatch register (its initiation
     * interval) are part of its latency 8 */
    assert_int_equal(opc_gap("f64", "add.f64", cls, &u), 4 + 8 - 1 + 3);
    assert_int_equal(u, CORE_U_SFU);
    /* a key moves its class only */
    assert_int_equal(opc_gap("b32", "mul.lo.u32", "op_lat_int_mul=19", &u), 10);
    /* unit: one latency, division and f64 on the ALU */
    assert_int_equal(opc_gap("b32", "and.b32", unit, &u), 10);
    assert_int_equal(opc_gap("b32", "max.u32", unit, &u), 10);
    assert_int_equal(opc_gap("b32", "div.u32", unit, &u), 10);
    assert_int_equal(u, CORE_U_ALU);
    assert_int_equal(opc_gap("f64", "add.f64", unit, &u), 10);
    assert_int_equal(u, CORE_U_ALU);
}

/* opcode_timing = class3 is GPGPU-Sim 3.2.2's set_opcode_and_latency: the
 * same per-class latencies on other units (integer MUL/MAD on the SFU, f64
 * on the ALUs), and fma, madc, rem, mul24, mad24 at its 1-cycle default. */
static void test_opcode_latency_322(void **state)
{
    (void)state;
    const char *v3 = "opcode_timing=class3", *cls = "opcode_timing=class";
    unsigned u;
    assert_int_equal(opc_gap("b32", "add.u32", v3, &u), 4 + 4 - 1 + 3);
    assert_int_equal(u, CORE_U_ALU);
    assert_int_equal(opc_gap("b32", "mul.lo.u32", v3, &u), 4 + 4 - 1 + 3);
    assert_int_equal(u, CORE_U_SFU);
    assert_int_equal(opc_gap("b32", "mad.lo.u32", v3, &u), 4 + 5 - 1 + 3);
    assert_int_equal(u, CORE_U_SFU);
    assert_int_equal(opc_gap("b32", "mad.lo.u32", cls, &u), 4 + 5 - 1 + 3);
    assert_int_equal(u, CORE_U_ALU);
    assert_int_equal(opc_gap("f32", "mul.f32", v3, &u), 4 + 4 - 1 + 3);
    assert_int_equal(u, CORE_U_ALU);
    /* fma: the MAD row under class, one cycle under class3 */
    assert_int_equal(opc_gap("f32", "fma.rn.f32", cls, &u), 4 + 5 - 1 + 3);
    assert_int_equal(opc_gap("f32", "fma.rn.f32", v3, &u), 4 + 1 - 1 + 3);
    assert_int_equal(u, CORE_U_ALU);
    assert_int_equal(opc_gap("b32", "rem.u32", v3, &u), 4 + 1 - 1 + 3);
    assert_int_equal(u, CORE_U_ALU);
    assert_int_equal(opc_gap("b32", "div.u32", v3, &u), 4 + 145 - 1 + 3);
    assert_int_equal(u, CORE_U_SFU);
    /* f64 on the ALUs: 8 cycles in the dispatch register (its initiation
     * interval, 3.2.2's shader.h pipelined_simd_unit as 4.x's) are part
     * of its latency 8 */
    assert_int_equal(opc_gap("f64", "add.f64", v3, &u), 4 + 8 - 1 + 3);
    assert_int_equal(u, CORE_U_ALU);
}

/* A fixed-latency stand-in for the memory system (this test file only):
 * takes one request per cycle from the SM queue and answers it LAT
 * cycles later. Records the requests it saw. */
#define STANDIN_LAT 50
struct standin {
    struct core_mem_req req[256];
    uint64_t due[256];
    unsigned n, delivered;
};

static uint64_t run_with_standin(struct harness *h, struct standin *m)
{
    uint64_t start = h->now;
    while (h->sm.live_warps || m->delivered < m->n || h->sm.v.qn) {
        for (unsigned i = m->delivered; i < m->n; i++)
            if (m->due[i] == h->now) {
                struct core_mem_resp r = { m->req[i].tag, m->req[i].sm, m->req[i].warp };
                core_sm_resp(&h->sm, &r, h->now);
                m->delivered++;
            }
        if (h->sm.live_warps && h->sm.v.next_try <= h->now)
            assert_int_equal(core_sm_cycle(&h->sm, h->now), 0);
        const struct core_mem_req *q = core_sm_req_peek(&h->sm);
        if (q && m->n < 256) {
            m->req[m->n] = *q;
            m->due[m->n] = h->now + STANDIN_LAT;
            m->n++;
            core_sm_req_pop(&h->sm, h->now, false);
        }
        assert_true(h->now - start < 100000);
        h->now++;
    }
    return h->now - start;
}

/* Give h one global allocation, `host` of `size` bytes at
 * EXEC_GLOBAL_BASE, described by *a (which must outlive the run). */
static void h_attach_global(struct harness *h, struct exec_alloc *a,
                            uint8_t *host, size_t size)
{
    *a = (struct exec_alloc){ .base = EXEC_GLOBAL_BASE, .size = size, .host = host,
                              .what = "test", .span = size };
    h->dmem.a = a;
    h->dmem.n = 1;
    h->dmem.capacity = 1ull << 30;
}

/* Undo h_attach_global, then free the harness and h itself. */
static void h_detach_free(struct harness *h)
{
    h->dmem.a = NULL;
    h->dmem.n = 0;
    h_free(h);
    free(h);
}

/* Run `ptx` on one warp (num_schedulers=1 and `set`, or nothing more
 * when NULL) over a zeroed `store` as its global memory, its requests
 * answered by *m; the caller reads h->rec, then calls h_detach_free. */
static struct harness *h_run_global(const char *ptx, const char *set,
                                    uint8_t *store, size_t size,
                                    struct exec_alloc *a, struct standin *m)
{
    const char *sets[] = { "num_schedulers=1", set, NULL };
    struct harness *h = calloc(1, sizeof *h);
    h_init(h, ptx, 32, sets);
    memset(store, 0, size);
    h_attach_global(h, a, store, size);
    h_launch(h, 0);
    memset(m, 0, sizeof *m);
    run_with_standin(h, m);
    return h;
}

/* ld.global at tid * stride bytes, then an add that uses the value */
static void global_case(unsigned stride, struct standin *m, uint64_t *ld_cyc,
                        uint64_t *use_cyc)
{
    char ptx[1024];
    snprintf(ptx, sizeof ptx, HDR ".visible .entry k()\n{\n .reg .b32 %%r<8>;\n"
             " .reg .b64 %%rd<8>;\n mov.u32 %%r1, %%tid.x;\n"
             " mul.wide.u32 %%rd1, %%r1, %u;\n add.s64 %%rd2, %%rd1, 268435456;\n"
             " ld.global.u32 %%r2, [%%rd2];\n add.u32 %%r3, %%r2, 1;\n"
             " st.global.u32 [%%rd2], %%r3;\n ret;\n}\n", stride);
    static uint8_t store[32 * 128];
    struct exec_alloc a;
    struct harness *h = h_run_global(ptx, NULL, store, sizeof store, &a, m);
    *ld_cyc = h->rec.cyc[3];
    *use_cyc = h->rec.cyc[4];
    assert_int_equal(h->rec.pc[3], 3);
    assert_int_equal(h->rec.pc[4], 4);
    /* the store wrote value + 1 = 1 everywhere (values at issue) */
    for (unsigned t = 0; t < 32; t++) {
        uint32_t v;
        memcpy(&v, store + t * stride, 4);
        assert_int_equal(v, 1);
    }
    h_detach_free(h);
}

static void test_global_loads_through_port(void **state)
{
    (void)state;
    struct standin *m = calloc(1, sizeof *m);
    uint64_t ld, use;
    /* 32 consecutive words: one line request, 4 sectors, then the store */
    global_case(4, m, &ld, &use);
    assert_int_equal(m->n, 2);
    assert_int_equal(m->req[0].sector_mask, 0xf);
    assert_false(m->req[0].is_write);
    assert_true((m->req[0].tag & CORE_TAG_NOWAIT) == 0);
    assert_true(m->req[1].is_write);
    assert_true((m->req[1].tag & CORE_TAG_NOWAIT) != 0);
    /* the dependent add waits for the response */
    assert_true(use - ld >= STANDIN_LAT);
    assert_true(use - ld <= STANDIN_LAT + 4);
    uint64_t first = use - ld;
    /* stride 128 bytes: 32 line requests, one per cycle into the port;
     * the add waits for the last response */
    global_case(128, m, &ld, &use);
    assert_int_equal(m->n, 64);
    for (unsigned i = 0; i < 32; i++)
        assert_int_equal(m->req[i].sector_mask, 0x1);
    assert_int_equal(use - ld, first + 31);
    free(m);
}

/* red.global.add of 32 lanes onto words tid % nwords of one line: the
 * atomic requests the SM makes under atom_conflicts = `mode`. */
static unsigned atom_requests(unsigned nwords, const char *mode)
{
    char ptx[1024];
    snprintf(ptx, sizeof ptx, HDR ".visible .entry k()\n{\n .reg .b32 %%r<8>;\n"
             " .reg .b64 %%rd<8>;\n mov.u32 %%r1, %%tid.x;\n rem.u32 %%r2, %%r1, %u;\n"
             " mul.wide.u32 %%rd1, %%r2, 4;\n add.s64 %%rd2, %%rd1, 268435456;\n"
             " red.global.add.u32 [%%rd2], 1;\n ret;\n}\n", nwords);
    static uint8_t store[128];
    struct exec_alloc a;
    struct standin *m = calloc(1, sizeof *m);
    struct harness *h = h_run_global(ptx, mode, store, sizeof store, &a, m);
    unsigned n = m->n;
    for (unsigned i = 0; i < n; i++)
        assert_true(m->req[i].is_atomic);
    uint32_t v;
    memcpy(&v, store, 4);
    assert_int_equal(v, 32 / nwords);           /* every lane's add */
    free(m);
    h_detach_free(h);
    return n;
}

/* atom_conflicts: serialize makes a round of requests per repeat of a
 * word (each word's k-th lane in round k); merge one per line. */
static void test_atomic_conflicts(void **state)
{
    (void)state;
    assert_int_equal(atom_requests(32, "atom_conflicts=merge"), 1);
    assert_int_equal(atom_requests(32, "atom_conflicts=serialize"), 1);
    assert_int_equal(atom_requests(8, "atom_conflicts=merge"), 1);
    assert_int_equal(atom_requests(8, "atom_conflicts=serialize"), 4);
    assert_int_equal(atom_requests(1, "atom_conflicts=serialize"), 32);
}

/* red.global.add by one warp, then an add that does not use it: the
 * cycles from the atomic's issue to the add's under atom_issue = `mode`. */
static uint64_t atom_issue_gap(const char *mode)
{
    const char *ptx = HDR ".visible .entry k()\n{\n .reg .b32 %r<8>;\n"
        " .reg .b64 %rd<8>;\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd1, %r1, 4;\n"
        " add.s64 %rd2, %rd1, 268435456;\n red.global.add.u32 [%rd2], 1;\n"
        " add.u32 %r3, %r1, 1;\n ret;\n}\n";
    static uint8_t store[128];
    struct exec_alloc a;
    struct standin *m = calloc(1, sizeof *m);
    struct harness *h = h_run_global(ptx, mode, store, sizeof store, &a, m);
    assert_int_equal(h->rec.pc[3], 3);
    assert_int_equal(h->rec.pc[4], 4);
    uint64_t gap = h->rec.cyc[4] - h->rec.cyc[3];
    uint32_t v;
    memcpy(&v, store + 4, 4);
    assert_int_equal(v, 1);                     /* the atomic's result */
    free(m);
    h_detach_free(h);
    return gap;
}

/* atom_issue: overlap issues the independent add at once; wait holds the
 * warp until the atomic's response (GPGPU-Sim's shd_warp_t::waiting). */
static void test_atomic_issue_wait(void **state)
{
    (void)state;
    assert_true(atom_issue_gap("atom_issue=overlap") < STANDIN_LAT);
    assert_true(atom_issue_gap("atom_issue=wait") >= STANDIN_LAT);
}

static void test_coalescer(void **state)
{
    (void)state;
    struct exec_result r;
    memset(&r, 0, sizeof r);
    r.active = 0xffffffffu;
    r.access_bytes = 4;
    struct core_line out[32];
    for (unsigned l = 0; l < 32; l++)
        r.addr[l] = 0x10000000ull + 4 * l;
    assert_int_equal(core_coalesce(&r, 128, 32, out), 1);
    assert_int_equal(out[0].sector_mask, 0xf);
    assert_int_equal(out[0].bytes, 128);
    assert_int_equal(out[0].line_addr, 0x10000000ull);
    /* 16 lanes: two sectors only */
    r.active = 0xffffu;
    assert_int_equal(core_coalesce(&r, 128, 32, out), 1);
    assert_int_equal(out[0].sector_mask, 0x3);
    /* stride 128 bytes: one line per lane, one sector each */
    r.active = 0xffffffffu;
    for (unsigned l = 0; l < 32; l++)
        r.addr[l] = 0x10000000ull + 128 * l + 36;
    assert_int_equal(core_coalesce(&r, 128, 32, out), 32);
    for (unsigned l = 0; l < 32; l++) {
        assert_int_equal(out[l].sector_mask, 0x2);
        assert_int_equal(out[l].line_addr, 0x10000000ull + 128 * l);
    }
    /* misaligned start: 32 floats from byte 64 span two lines */
    for (unsigned l = 0; l < 32; l++)
        r.addr[l] = 0x10000040ull + 4 * l;
    assert_int_equal(core_coalesce(&r, 128, 32, out), 2);
    assert_int_equal(out[0].sector_mask, 0xc);
    assert_int_equal(out[1].sector_mask, 0x3);
}

/* Compute capability 1.2/1.3 coalescing (coalesce = cc13) into 64-byte
 * lines of 32-byte sectors, the CUDA C Programming Guide's examples. */
static void test_coalescer_cc13(void **state)
{
    (void)state;
    struct exec_result r;
    memset(&r, 0, sizeof r);
    r.active = 0xffffffffu;
    r.access_bytes = 4;
    struct core_line out[CORE_TEX_LINES];
    /* 32 consecutive floats: a 64-byte transaction per half-warp */
    for (unsigned l = 0; l < 32; l++)
        r.addr[l] = 0x10000000ull + 4 * l;
    assert_int_equal(core_coalesce_cc13(&r, 64, 32, out, CORE_TEX_LINES), 2);
    assert_int_equal(out[0].line_addr, 0x10000000ull);
    assert_int_equal(out[0].sector_mask, 0x3);
    assert_int_equal(out[0].bytes, 64);
    assert_int_equal(out[1].line_addr, 0x10000040ull);
    /* every lane the same word: one 32-byte transaction per half-warp,
     * the one line twice */
    for (unsigned l = 0; l < 32; l++)
        r.addr[l] = 0x10000024ull;
    assert_int_equal(core_coalesce_cc13(&r, 64, 32, out, CORE_TEX_LINES), 2);
    assert_int_equal(out[0].line_addr, 0x10000000ull);
    assert_int_equal(out[0].sector_mask, 0x2);
    assert_int_equal(out[1].line_addr, 0x10000000ull);
    /* a half-warp using chunks 0 and 3 of a 128-byte segment keeps the
     * whole 128 bytes: both lines, both sectors each */
    r.active = 0x3u;
    r.addr[0] = 0x10000000ull;
    r.addr[1] = 0x10000070ull;
    assert_int_equal(core_coalesce_cc13(&r, 64, 32, out, CORE_TEX_LINES), 2);
    assert_int_equal(out[0].sector_mask, 0x3);
    assert_int_equal(out[0].bytes, 4);
    assert_int_equal(out[1].line_addr, 0x10000040ull);
    assert_int_equal(out[1].sector_mask, 0x3);
    /* upper quarter only: reduced to 32 bytes at 0x60 */
    r.active = 0x1u;
    assert_int_equal(core_coalesce_cc13(&r, 64, 32, out, CORE_TEX_LINES), 1);
    r.addr[0] = 0x10000064ull;
    assert_int_equal(core_coalesce_cc13(&r, 64, 32, out, CORE_TEX_LINES), 1);
    assert_int_equal(out[0].line_addr, 0x10000040ull);
    assert_int_equal(out[0].sector_mask, 0x2);
    /* bytes: 32-byte segments; 32 consecutive bytes, one per half-warp */
    r.active = 0xffffffffu;
    r.access_bytes = 1;
    for (unsigned l = 0; l < 32; l++)
        r.addr[l] = 0x10000000ull + l;
    assert_int_equal(core_coalesce_cc13(&r, 64, 32, out, CORE_TEX_LINES), 2);
    assert_int_equal(out[0].sector_mask, 0x1);
    assert_int_equal(out[0].bytes, 16);
    assert_int_equal(out[1].sector_mask, 0x1);
    /* 8-byte words: a 128-byte transaction per half-warp, 4 lines in all */
    r.access_bytes = 8;
    for (unsigned l = 0; l < 32; l++)
        r.addr[l] = 0x10000000ull + 8 * l;
    assert_int_equal(core_coalesce_cc13(&r, 64, 32, out, CORE_TEX_LINES), 4);
    assert_int_equal(out[3].line_addr, 0x100000c0ull);
    /* stride 128 bytes: one 32-byte transaction per lane */
    r.access_bytes = 4;
    for (unsigned l = 0; l < 32; l++)
        r.addr[l] = 0x10000000ull + 128 * l + 36;
    assert_int_equal(core_coalesce_cc13(&r, 64, 32, out, CORE_TEX_LINES), 32);
    assert_int_equal(out[5].line_addr, 0x10000000ull + 128 * 5);
    assert_int_equal(out[5].sector_mask, 0x2);
}

static void test_shmem_banks(void **state)
{
    (void)state;
    struct exec_result r;
    memset(&r, 0, sizeof r);
    r.active = 0xffffffffu;
    r.access_bytes = 4;
    for (unsigned l = 0; l < 32; l++)
        r.addr[l] = 4 * l;                       /* stride 1 word */
    assert_int_equal(core_shmem_degree(&r, 32), 1);
    for (unsigned l = 0; l < 32; l++)
        r.addr[l] = 8 * l;                       /* stride 2 words */
    assert_int_equal(core_shmem_degree(&r, 32), 2);
    for (unsigned l = 0; l < 32; l++)
        r.addr[l] = 128 * l;                     /* stride 32 words */
    assert_int_equal(core_shmem_degree(&r, 32), 32);
    for (unsigned l = 0; l < 32; l++)
        r.addr[l] = 64;                          /* broadcast */
    assert_int_equal(core_shmem_degree(&r, 32), 1);
    r.active = 0;
    assert_int_equal(core_shmem_degree(&r, 32), 0);
}


/* Register estimate: temporaries that die within a loop iteration do not
 * stay live around the loop; values read before written (carried) do. */
static uint32_t est_of(const char *body)
{
    char ptx[4096];
    snprintf(ptx, sizeof ptx, HDR ".visible .entry k()\n{\n .reg .pred %%p<2>;\n"
             " .reg .b32 %%r<40>;\n mov.u32 %%r1, 0;\n mov.u32 %%r2, 0;\n"
             "L:\n%s add.u32 %%r2, %%r2, 1;\n setp.lt.u32 %%p1, %%r2, 9;\n"
             " @%%p1 bra L;\n ret;\n}\n", body);
    struct ptx_module *mod = NULL;
    struct ptx_diag d;
    memset(&d, 0, sizeof d);
    assert_int_equal(ptx_parse("t.ptx", ptx, strlen(ptx), &mod, &d), 0);
    uint32_t e = core_regs_per_thread(&mod->funcs[0]);
    ptx_module_free(mod);
    return e;
}

static void test_register_estimate(void **state)
{
    (void)state;
    char seq[2048] = "", wide[2048] = "";
    size_t o = 0, q = 0;
    /* 12 temporaries, each written and consumed at once */
    for (unsigned i = 0; i < 12; i++)
        o += (size_t)snprintf(seq + o, sizeof seq - o,
                              " add.u32 %%r%u, %%r2, %u;\n add.u32 %%r1, %%r1, %%r%u;\n",
                              10 + i, i, 10 + i);
    /* the same 12 values all written first, then all consumed */
    for (unsigned i = 0; i < 12; i++)
        q += (size_t)snprintf(wide + q, sizeof wide - q, " add.u32 %%r%u, %%r2, %u;\n",
                              10 + i, i);
    for (unsigned i = 0; i < 12; i++)
        q += (size_t)snprintf(wide + q, sizeof wide - q,
                              " add.u32 %%r1, %%r1, %%r%u;\n", 10 + i);
    uint32_t a = est_of(seq), b = est_of(wide);
    assert_true(a <= 6);            /* r1, r2 carried + one temporary + 2 */
    assert_true(b >= 14);           /* 12 live at once + carried */
}

static void test_decode(void **state)
{
    (void)state;
    const char *ptx = HDR ".visible .entry k(.param .u64 p)\n{\n .reg .pred %p<3>;\n"
        " .reg .b32 %r<9>;\n .reg .b64 %rd<4>;\n"
        " ld.param.u64 %rd1, [p];\n"
        " setp.lt.u32 %p1|%p2, %r1, %r2;\n"
        " @%p1 st.global.v2.u32 [%rd1+8], {%r3, %r4};\n"
        " add.u32 %r5, %r3, %r4;\n"
        " sqrt.approx.f32 %r6, %r5;\n"
        " ret;\n}\n";
    struct ptx_module *mod = NULL;
    struct ptx_diag d;
    memset(&d, 0, sizeof d);
    assert_int_equal(ptx_parse("t.ptx", ptx, strlen(ptx), &mod, &d), 0);
    struct core_prog p;
    assert_int_equal(core_prog_build(&p, mod), 0);
    const struct core_dinst *di = p.di[0];
    assert_int_equal(di[0].unit, CORE_U_MEM);
    assert_int_equal(di[0].ndst, 1);
    assert_int_equal(di[1].ndst, 2);                /* both predicates */
    assert_int_equal(di[1].nsrc, 2);
    assert_int_equal(di[2].unit, CORE_U_MEM);
    assert_int_equal(di[2].ndst, 0);                /* a store writes none */
    assert_int_equal(di[2].nsrc, 4);                /* rd1, r3, r4, guard */
    assert_int_equal(di[4].unit, CORE_U_SFU);
    assert_int_equal(di[5].unit, CORE_U_CTRL);
    assert_true(core_regs_per_thread(&mod->funcs[0]) >= 4);
    core_prog_free(&p);
    ptx_module_free(mod);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_initiation_interval),
        cmocka_unit_test(test_sfu_interval),
        cmocka_unit_test(test_scoreboard_latency),
        cmocka_unit_test(test_ibuffer_fetch),
        cmocka_unit_test(test_sched_lrr_gto_oldest),
        cmocka_unit_test(test_sched_two_level),
        cmocka_unit_test(test_cta_limits),
        cmocka_unit_test(test_barrier),
        cmocka_unit_test(test_shared_conflict_timing),
        cmocka_unit_test(test_operand_collector_banks),
        cmocka_unit_test(test_staged_pipeline),
        cmocka_unit_test(test_ctrl_alu_slot),
        cmocka_unit_test(test_opcode_latency),
        cmocka_unit_test(test_opcode_latency_322),
        cmocka_unit_test(test_global_loads_through_port),
        cmocka_unit_test(test_atomic_conflicts),
        cmocka_unit_test(test_atomic_issue_wait),
        cmocka_unit_test(test_coalescer),
        cmocka_unit_test(test_coalescer_cc13),
        cmocka_unit_test(test_shmem_banks),
        cmocka_unit_test(test_register_estimate),
        cmocka_unit_test(test_decode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
