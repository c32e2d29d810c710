/* Functional mode's spin detector (csim/gpu/gpu_launch.c, struct spin):
 * the CTAs of a non-cooperative launch run one at a time, so a grid-wide
 * software barrier (each CTA counts itself in with an atomic, then spins
 * on the count) never ends; the launch stops within a few million warp
 * instructions with LS_ERR_DEADLOCK naming the kernel, the CTA, the PTX
 * line of the spin and why, instead of running to the instruction budget.
 * A single CTA passes the same barrier, timing mode (every CTA resident)
 * and a cooperative launch pass it with three; a cooperative launch
 * whose CTAs all wait forever stops early too; a loop whose registers
 * repeat while it writes global memory on every trip is not flagged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lockstep.h"
#include "api/api_int.h"        /* api_set_cooperative */

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

/* A grid barrier: each thread adds 1 to *q and spins until *q reaches
 * the grid's thread count plus `extra` (lines 22-24: the spin), then
 * stores what it saw to out[ctaid]. */
static const char *GBAR = HDR
    ".visible .entry gbar(\n .param .u64 q,\n .param .u64 out,\n .param .u32 extra\n)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<7>;\n .reg .b64 %rd<7>;\n"
    " ld.param.u64 %rd1, [q];\n"
    " cvta.to.global.u64 %rd2, %rd1;\n"
    " mov.u32 %r1, %nctaid.x;\n"
    " mov.u32 %r5, %ntid.x;\n"
    " mul.lo.u32 %r1, %r1, %r5;\n"
    " ld.param.u32 %r6, [extra];\n"
    " add.u32 %r1, %r1, %r6;\n"
    " atom.global.add.u32 %r2, [%rd2], 1;\n"
    "WAIT:\n"
    " ld.volatile.global.u32 %r3, [%rd2];\n"
    " setp.lt.u32 %p1, %r3, %r1;\n"
    " @%p1 bra WAIT;\n"
    " ld.param.u64 %rd3, [out];\n"
    " cvta.to.global.u64 %rd4, %rd3;\n"
    " mov.u32 %r4, %ctaid.x;\n"
    " mul.wide.u32 %rd5, %r4, 4;\n"
    " add.s64 %rd6, %rd4, %rd5;\n"
    " st.global.u32 [%rd6], %r3;\n"
    " ret;\n}\n";
#define GBAR_SPIN_FIRST 22
#define GBAR_SPIN_LAST 24

/* Adds 32 to *q per trip until it reaches n: eight instructions a trip,
 * the count loaded into a register and zeroed before the branch, so at
 * each of the detector's check points (every 2^18 instructions past a
 * three-instruction prologue: the trip's sixth instruction) the registers
 * are the same while memory is not. */
static const char *COUNT = HDR
    ".visible .entry count(\n .param .u64 q,\n .param .u32 n\n)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<4>;\n .reg .b64 %rd<3>;\n"
    " ld.param.u64 %rd1, [q];\n"
    " cvta.to.global.u64 %rd2, %rd1;\n"
    " ld.param.u32 %r1, [n];\n"
    "LOOP:\n"
    " red.global.add.u32 [%rd2], 1;\n"
    " ld.volatile.global.u32 %r2, [%rd2];\n"
    " setp.ge.u32 %p1, %r2, %r1;\n"
    " mov.u32 %r2, 0;\n"
    " @%p1 bra OUT;\n"
    " mov.u32 %r3, 0;\n"
    " mov.u32 %r3, 0;\n"
    " bra.uni LOOP;\n"
    "OUT:\n ret;\n}\n";

static ls_gpu *gpu_new(ls_mode mode)
{
    char err[256];
    ls_config c;
    ls_config_default(&c);
    c.mode = mode;
    ls_gpu *g = ls_gpu_create(&c, err, sizeof err);
    if (!g)
        fail_msg("%s", err);
    return g;
}

static ls_module *load(ls_gpu *g, const char *name, const char *text)
{
    ls_module *m;
    if (ls_module_load_text(g, name, text, strlen(text), &m) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    return m;
}

/* Runs gbar over `ctas` CTAs of 32 threads, waiting for `extra` arrivals
 * more than there are threads; returns the launch status and the
 * counter, and the warp instructions run in *insts. */
static ls_status run_gbar(ls_gpu *g, unsigned ctas, uint32_t extra, uint32_t *count,
                          uint64_t *insts)
{
    ls_module *m = load(g, "gbar.ptx", GBAR);
    ls_dptr q, out;
    assert_int_equal(ls_malloc(g, &q, 4), LS_OK);
    assert_int_equal(ls_malloc(g, &out, 4 * ctas), LS_OK);
    uint32_t zero = 0;
    assert_int_equal(ls_memcpy_htod(g, q, &zero, 4), LS_OK);
    void *args[] = { &q, &out, &extra };
    ls_stats s;
    memset(&s, 0, sizeof s);
    ls_status st = ls_launch(g, m, "gbar", (ls_dim3){ctas, 1, 1}, (ls_dim3){32, 1, 1},
                             0, args, &s);
    assert_int_equal(ls_memcpy_dtoh(g, count, q, 4), LS_OK);
    *insts = s.warp_insts;
    return st;
}

static void test_grid_barrier_stops_early(void **state)
{
    (void)state;
    ls_gpu *g = gpu_new(LS_MODE_FUNCTIONAL);
    uint32_t count;
    uint64_t insts;
    assert_int_equal(run_gbar(g, 3, 0, &count, &insts), LS_ERR_DEADLOCK);
    const char *e = ls_gpu_error(g);
    const char *at = strstr(e, "gbar.ptx:");
    int line = at ? atoi(at + strlen("gbar.ptx:")) : 0;
    if (line < GBAR_SPIN_FIRST || line > GBAR_SPIN_LAST || !strstr(e, "kernel gbar") || !strstr(e, "CTA (0,0,0)") ||
        !strstr(e, "spins forever") || !strstr(e, "one at a time") ||
        !strstr(e, "timing mode") || !strstr(e, "warp 0: at pc"))
        fail_msg("spin report lacks detail: %s", e);
    assert_int_equal(count, 32);            /* only CTA 0 ever ran */
    /* far below the 2^34 budget: a few checks past the first 2^20 */
    if (insts > (4u << 20))
        fail_msg("stopped after %llu warp instructions", (unsigned long long)insts);
    ls_gpu_destroy(g);
}

static void test_grid_barrier_passes(void **state)
{
    (void)state;
    uint32_t count;
    uint64_t insts;
    ls_gpu *g = gpu_new(LS_MODE_FUNCTIONAL);
    if (run_gbar(g, 1, 0, &count, &insts) != LS_OK)  /* one CTA: its own barrier */
        fail_msg("%s", ls_gpu_error(g));
    assert_int_equal(count, 32);
    ls_gpu_destroy(g);
    g = gpu_new(LS_MODE_TIMING);                      /* all three resident */
    if (run_gbar(g, 3, 0, &count, &insts) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    assert_int_equal(count, 96);
    ls_gpu_destroy(g);
    g = gpu_new(LS_MODE_FUNCTIONAL);                  /* cooperative: side by side */
    api_set_cooperative(g, 1);
    if (run_gbar(g, 3, 0, &count, &insts) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    assert_int_equal(count, 96);
    ls_gpu_destroy(g);
}

/* A cooperative launch whose CTAs all wait for an arrival that never
 * comes: the detector watches the whole grid. */
static void test_cooperative_spin_stops_early(void **state)
{
    (void)state;
    ls_gpu *g = gpu_new(LS_MODE_FUNCTIONAL);
    api_set_cooperative(g, 1);
    uint32_t count;
    uint64_t insts;
    assert_int_equal(run_gbar(g, 3, 1, &count, &insts), LS_ERR_DEADLOCK);
    const char *e = ls_gpu_error(g);
    if (!strstr(e, "gbar.ptx:") || !strstr(e, "the 3 CTAs of this cooperative launch "
                                              "spin forever") || !strstr(e, "warp 0: at pc"))
        fail_msg("cooperative spin report lacks detail: %s", e);
    assert_int_equal(count, 96);
    if (insts > (4u << 20))
        fail_msg("stopped after %llu warp instructions", (unsigned long long)insts);
    ls_gpu_destroy(g);
}

static void test_writing_loop_not_flagged(void **state)
{
    (void)state;
    ls_gpu *g = gpu_new(LS_MODE_FUNCTIONAL);
    ls_module *m = load(g, "count.ptx", COUNT);
    ls_dptr q;
    assert_int_equal(ls_malloc(g, &q, 4), LS_OK);
    uint32_t v = 0, n = 32 * 500000;    /* 4 million warp instructions */
    assert_int_equal(ls_memcpy_htod(g, q, &v, 4), LS_OK);
    void *args[] = { &q, &n };
    ls_stats s;
    if (ls_launch(g, m, "count", (ls_dim3){1, 1, 1}, (ls_dim3){32, 1, 1}, 0, args,
                  &s) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    assert_int_equal(ls_memcpy_dtoh(g, &v, q, 4), LS_OK);
    assert_int_equal(v, n);
    assert_true(s.warp_insts > (3u << 20));     /* well past the first checks */
    ls_gpu_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_barrier_stops_early),
        cmocka_unit_test(test_grid_barrier_passes),
        cmocka_unit_test(test_cooperative_spin_stops_early),
        cmocka_unit_test(test_writing_loop_not_flagged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
