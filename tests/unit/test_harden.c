/* cmocka tests of hardening cases (issue: no input may crash the model):
 * control reaching the end of a kernel or function without ret/exit, in
 * every form (the last instruction falls through, an empty body, a label
 * at the very end, a uniform or divergent bra to the end label, a .func
 * without ret). Both modes must run each like ret and leave the same
 * memory; `lockstep check` notes it (ptx_func_falls_off). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lockstep.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_print.h"
#include "workloads/workload.h"
#include "workloads/wl_ptx.h"

#define HDR ".version 7.5\n.target sm_75\n.address_size 64\n"

/* out[i] = tid for every thread (64 threads, 2 CTAs of 32), unless the
 * kernel skips some; the prologue every case shares. */
#define PRO ".visible .entry k(.param .u64 p)\n{ .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n" \
    "  ld.param.u64 %rd1, [p]; mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x;\n" \
    "  mad.lo.u32 %r3, %r2, 32, %r1; mul.wide.u32 %rd2, %r3, 4; add.s64 %rd3, %rd1, %rd2;\n"

static const struct { const char *name; const char *ptx; uint32_t want_odd; } cases[] = {
    { "falls off the end", HDR PRO "  st.global.u32 [%rd3], %r3; }\n", 1 },
    { "empty body", HDR ".visible .entry k(.param .u64 p) { }\n", 0 },
    { "label at the end", HDR PRO "  st.global.u32 [%rd3], %r3;\n$L_end: }\n", 1 },
    { "uniform bra to the end", HDR PRO "  st.global.u32 [%rd3], %r3; bra.uni $L_end;\n$L_end: }\n", 1 },
    { "divergent bra to the end", HDR PRO "  and.b32 %r1, %r1, 1; setp.eq.u32 %p1, %r1, 0;\n"
      "  @%p1 bra $L_end;\n  st.global.u32 [%rd3], %r3;\n$L_end: }\n", 1 },
    { "func without ret", HDR ".func f(.param .u64 a, .param .u32 v)\n{ .reg .b32 %s<2>; .reg .b64 %sd<2>;\n"
      "  ld.param.u64 %sd1, [a]; ld.param.u32 %s1, [v]; st.global.u32 [%sd1], %s1; }\n"
      PRO "  { .param .u64 pa; .param .u32 pv; st.param.u64 [pa], %rd3; st.param.u32 [pv], %r3;\n"
      "    call f, (pa, pv); }\n  ret; }\n", 1 },
};

/* Runs case c in mode; out receives the 64 words. */
static void run_case(unsigned c, ls_mode mode, uint32_t out[64])
{
    ls_config cfg;
    ls_config_default(&cfg);
    cfg.mode = mode;
    char err[512];
    ls_gpu *g = ls_gpu_create(&cfg, err, sizeof err);
    assert_non_null(g);
    ls_module *m = NULL;
    ls_status st = ls_module_load_text(g, cases[c].name, cases[c].ptx,
                                       strlen(cases[c].ptx), &m);
    if (st != LS_OK)
        fprintf(stderr, "%s: %s\n", cases[c].name, ls_gpu_error(g));
    assert_int_equal(st, LS_OK);
    ls_dptr d;
    assert_int_equal(ls_malloc(g, &d, 256), LS_OK);
    assert_int_equal(ls_memset(g, d, 0xee, 256), LS_OK);
    void *args[] = { &d };
    st = ls_launch(g, m, "k", (ls_dim3){ 2, 1, 1 }, (ls_dim3){ 32, 1, 1 }, 0, args, NULL);
    if (st != LS_OK)
        fprintf(stderr, "%s (%s): %s\n", cases[c].name, mode ? "timing" : "functional",
                ls_gpu_error(g));
    assert_int_equal(st, LS_OK);
    assert_int_equal(ls_memcpy_dtoh(g, out, d, 256), LS_OK);
    ls_gpu_destroy(g);
}

static void test_end_of_body(void **state)
{
    (void)state;
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint32_t f[64], t[64];
        run_case(c, LS_MODE_FUNCTIONAL, f);
        run_case(c, LS_MODE_TIMING, t);
        assert_memory_equal(f, t, sizeof f);
        for (unsigned i = 0; i < 64; i++) {
            int written = !strstr(cases[c].name, "empty") &&
                          (!strstr(cases[c].name, "divergent") || (i & 1));
            assert_int_equal(f[i], written ? i : 0xeeeeeeeeu);
        }
        (void)cases[c].want_odd;
    }
}

static void test_check_notes_it(void **state)
{
    (void)state;
    ls_config cfg;
    ls_config_default(&cfg);
    char err[512];
    ls_gpu *g = ls_gpu_create(&cfg, err, sizeof err);
    assert_non_null(g);
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        ls_module *m = NULL;
        assert_int_equal(ls_module_load_text(g, cases[c].name, cases[c].ptx,
                                             strlen(cases[c].ptx), &m), LS_OK);
    }
    ls_gpu_destroy(g);
    /* the predicate on parsed functions: through the PTX front end */
    struct ptx_func f;
    memset(&f, 0, sizeof f);
    struct ptx_inst in[2];
    memset(in, 0, sizeof in);
    f.insts = in;
    f.ninsts = 0;
    assert_int_equal(ptx_func_falls_off(&f), 1);          /* empty body */
    in[0].op = PTX_OP_RET;
    in[0].guard = -1;
    f.ninsts = 1;
    assert_int_equal(ptx_func_falls_off(&f), 0);          /* ends in ret */
    in[0].guard = 0;
    assert_int_equal(ptx_func_falls_off(&f), 1);          /* @p ret */
    in[0].op = PTX_OP_BRA;
    in[0].guard = -1;
    in[0].o[0].label = 1;
    assert_int_equal(ptx_func_falls_off(&f), 1);          /* bra to the end */
    in[0].o[0].label = 0;
    assert_int_equal(ptx_func_falls_off(&f), 0);          /* a loop */
}

/* A valid machine whose DRAM moves 2 bytes per 100 DRAM cycles (16-byte
 * atoms over 8 sub-ranks, tCCD 100) and whose L2 is one line: a load waits
 * longer than watchdog_cycles behind the line fills ahead of it. The
 * watchdog must see the memory system working and let it finish (it
 * reported a livelock before; found by the differential config test,
 * seed 1015). */
static void test_slow_memory_is_not_a_livelock(void **state)
{
    (void)state;
    static const char *const sets[] = {
        "dram_atom_bytes=16", "dram_subranks=8", "dram_tCCD=100", "l1d_line=64",
        "l2_assoc=1", "l2_line=256", "l2_size=256", "mem_partitions=1",
        "watchdog_cycles=100000", NULL };
    ls_config cfg;
    ls_config_default(&cfg);
    cfg.sets = sets;
    char err[512];
    ls_gpu *g = ls_gpu_create(&cfg, err, sizeof err);
    assert_non_null(g);
    const struct wl_ptx_blob *b = NULL;
    for (const struct wl_ptx_blob *x = wl_ptx_blobs; x->name; x++)
        if (!strcmp(x->name, "vecadd"))
            b = x;
    assert_non_null(b);
    ls_module *m = NULL;
    assert_int_equal(ls_module_load_text(g, b->path, b->text, b->len, &m), LS_OK);
    struct wl_report rep;
    memset(&rep, 0, sizeof rep);
    int rc = wl_find("vecadd")->run(g, m, WL_SMALL, 1, &rep);
    if (rc)
        fprintf(stderr, "%.300s\n", ls_gpu_error(g));
    assert_int_equal(rc, 0);
    assert_true(rep.pass);
    /* far slower than the watchdog: millions of cycles for ~1,500 usual */
    assert_true(rep.total.cycles > 1000000);
    ls_gpu_destroy(g);
}

/* trap (what __trap() and cooperative groups' failed checks compile to):
 * a guarded trap that no lane takes is a no-op; one taken by thread 37
 * (CTA 1, lane 5) fails the launch with LS_ERR_LAUNCH naming that thread
 * and the PTX line, in both modes. */
static void test_trap(void **state)
{
    (void)state;
    static const char ptx[] = HDR PRO
        "  st.global.u32 [%rd3], %r3;\n"
        "  setp.eq.u32 %p1, %r3, 99; @%p1 trap;\n"          /* line 9: nobody */
        "  setp.eq.u32 %p1, %r3, 37;\n"
        "  @%p1 trap;\n"                                    /* line 11 */
        "  ret; }\n";
    for (int mode = 0; mode < 2; mode++) {
        ls_config cfg;
        ls_config_default(&cfg);
        cfg.mode = mode ? LS_MODE_TIMING : LS_MODE_FUNCTIONAL;
        char err[512];
        ls_gpu *g = ls_gpu_create(&cfg, err, sizeof err);
        assert_non_null(g);
        ls_module *m = NULL;
        assert_int_equal(ls_module_load_text(g, "trap.ptx", ptx, strlen(ptx), &m), LS_OK);
        ls_dptr d;
        assert_int_equal(ls_malloc(g, &d, 256), LS_OK);
        void *args[] = { &d };
        ls_dim3 grid = { 2, 1, 1 }, block = { 32, 1, 1 };
        assert_int_equal(ls_launch(g, m, "k", grid, block, 0, args, NULL), LS_ERR_LAUNCH);
        const char *e = ls_gpu_error(g);
        assert_non_null(strstr(e, "trap executed"));
        assert_non_null(strstr(e, "CTA (1,0,0), thread (5,0,0)"));
        if (!strstr(e, "trap.ptx:11")) fprintf(stderr, "%s\n", e);
        assert_non_null(strstr(e, "trap.ptx:11"));
        ls_gpu_destroy(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trap),
        cmocka_unit_test(test_end_of_body),
        cmocka_unit_test(test_check_notes_it),
        cmocka_unit_test(test_slow_memory_is_not_a_livelock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
