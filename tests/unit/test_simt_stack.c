/* cmocka tests of the per-warp reconvergence stack (csim/simt): for small
 * PTX kernels written here, the exact sequence of (PC, active mask, stack
 * depth) a warp goes through: the if/else example of the SIMT-stack notes,
 * nested ifs, a loop with divergent exits, an early return, stack
 * overflow, and a .func call through the public API. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lockstep.h"
#include "simt/simt.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

struct step { int32_t pc; uint32_t mask; uint32_t depth; };
struct trace { struct step s[256]; unsigned n; };

static void on_step(void *user, const struct simt_warp *w, int32_t pc,
                    uint32_t mask)
{
    struct trace *t = user;
    if (t->n < 256)
        t->s[t->n++] = (struct step){ pc, mask, w->sp };
}

struct run {
    struct ptx_module *m;
    struct simt_warp w;
    struct exec_grid g;
    uint64_t sym0[4], sym1[16];
    struct trace t;
    enum simt_rc rc;
};

/* Runs the first function of ptx as one warp with threads `valid`. */
static void run_warp(struct run *r, const char *ptx, uint32_t valid,
                     uint32_t cap)
{
    struct ptx_diag d;
    memset(r, 0, sizeof *r);
    int pr = ptx_parse("stack.ptx", ptx, strlen(ptx), &r->m, &d);
    if (pr != 0)
        fail_msg("parse: %s", d.msg);
    assert_int_equal(simt_warp_alloc(&r->w, cap), 0);
    r->g.ntid[0] = 32; r->g.ntid[1] = r->g.ntid[2] = 1;
    r->g.nctaid[0] = r->g.nctaid[1] = r->g.nctaid[2] = 1;
    r->w.ew.grid = &r->g;
    r->w.ew.sym_addr[0] = r->sym0;
    for (unsigned l = 0; l < EXEC_WARP; l++) {
        r->w.ew.ids[l].tid[0] = l;
        r->w.ew.ids[l].laneid = l;
    }
    const struct ptx_func *f = &r->m->funcs[0];
    assert_true(f->nsyms <= 16);
    assert_int_equal(simt_warp_start(&r->w, r->m, f, valid, r->sym1, 0), 0);
    r->w.trace = on_step;
    r->w.trace_user = &r->t;
    uint64_t budget = 10000;
    r->rc = simt_run(&r->w, &budget);
}

/* Value of register `name` of lane after the run. */
static uint64_t reg(const struct run *r, const char *name, unsigned lane)
{
    const struct ptx_func *f = &r->m->funcs[0];
    for (uint32_t i = 0; i < f->nregs; i++)
        if (f->regs[i].name && strcmp(f->regs[i].name, name) == 0)
            return r->w.frames[0].regs[(size_t)i * EXEC_WARP + lane];
    fail_msg("no register %s", name);
    return 0;
}

static void done(struct run *r)
{
    simt_warp_free(&r->w);
    ptx_module_free(r->m);
}

static void expect_trace(const struct trace *t, const struct step *want,
                         unsigned n)
{
    for (unsigned i = 0; i < n && i < t->n; i++)
        if (t->s[i].pc != want[i].pc || t->s[i].mask != want[i].mask ||
            t->s[i].depth != want[i].depth)
            fail_msg("step %u: got pc %d mask 0x%x depth %u, want pc %d "
                     "mask 0x%x depth %u", i, t->s[i].pc, t->s[i].mask,
                     t->s[i].depth, want[i].pc, want[i].mask, want[i].depth);
    assert_int_equal(t->n, n);
}

/* The notes' example: if (t < 5) {a;b;c} else {a';b';c'}; a[6] = 99. */
static const char *IF_ELSE = HDR
    ".visible .entry k()\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<6>;\n"
    " mov.u32 %r1, %tid.x;\n"              /* 0 */
    " setp.lt.u32 %p1, %r1, 5;\n"          /* 1 */
    " @!%p1 bra ELSE;\n"                   /* 2 */
    " add.u32 %r2, %r1, 1;\n"              /* 3 */
    " add.u32 %r3, %r1, 2;\n"              /* 4 */
    " bra.uni JOIN;\n"                     /* 5 */
    "ELSE:\n add.u32 %r2, %r1, 7;\n"       /* 6 */
    " add.u32 %r3, %r1, 9;\n"              /* 7 */
    "JOIN:\n mov.u32 %r4, 99;\n"           /* 8 */
    " ret;\n}\n";                          /* 9 */

static void test_if_else(void **state)
{
    (void)state;
    struct run r;
    run_warp(&r, IF_ELSE, 0xffffffffu, 8);
    const struct step want[] = {
        {0, 0xffffffff, 1}, {1, 0xffffffff, 1}, {2, 0xffffffff, 1},
        /* taken path (t >= 5) first, then the fall-through path */
        {6, 0xffffffe0, 3}, {7, 0xffffffe0, 3},
        {3, 0x0000001f, 2}, {4, 0x0000001f, 2}, {5, 0x0000001f, 2},
        /* reconverged at the immediate post-dominator */
        {8, 0xffffffff, 1}, {9, 0xffffffff, 1},
    };
    expect_trace(&r.t, want, sizeof want / sizeof want[0]);
    assert_int_equal(r.rc, SIMT_RC_DONE);
    assert_int_equal(r.w.branches, 2);
    assert_int_equal(r.w.divergent, 1);
    assert_int_equal(r.w.max_depth, 3);
    assert_int_equal(r.w.warp_insts, 10);
    assert_int_equal(r.w.thread_insts, 5 * 32 + 2 * 27 + 3 * 5);
    /* both sides wrote their registers */
    assert_int_equal(reg(&r, "%r2", 0), 1);
    assert_int_equal(reg(&r, "%r2", 9), 16);
    done(&r);
}

static const char *NESTED = HDR
    ".visible .entry k()\n{\n"
    " .reg .pred %p<3>;\n .reg .b32 %r<6>;\n"
    " mov.u32 %r1, %tid.x;\n"              /* 0 */
    " setp.ge.u32 %p1, %r1, 2;\n"          /* 1 */
    " @%p1 bra LEND;\n"                    /* 2: if (t < 2) {     */
    " setp.eq.u32 %p2, %r1, 0;\n"          /* 3 */
    " @%p2 bra LIN;\n"                     /* 4:   if (t != 0) { */
    " add.u32 %r2, %r1, 1;\n"              /* 5:     body        */
    "LIN:\n add.u32 %r3, %r1, 2;\n"        /* 6:   }             */
    "LEND:\n ret;\n}\n";                   /* 7: }               */

static void test_nested(void **state)
{
    (void)state;
    struct run r;
    run_warp(&r, NESTED, 0xf, 8);
    const struct step want[] = {
        {0, 0xf, 1}, {1, 0xf, 1}, {2, 0xf, 1},
        {3, 0x3, 2}, {4, 0x3, 2},
        {5, 0x2, 3},
        {6, 0x3, 2},
        {7, 0xf, 1},
    };
    expect_trace(&r.t, want, sizeof want / sizeof want[0]);
    assert_int_equal(r.rc, SIMT_RC_DONE);
    assert_int_equal(r.w.divergent, 2);
    assert_int_equal(r.w.max_depth, 3);
    done(&r);
}

static const char *LOOP = HDR
    ".visible .entry k()\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<4>;\n"
    " mov.u32 %r1, %tid.x;\n"              /* 0 */
    " mov.u32 %r2, 0;\n"                   /* 1 */
    "LOOP:\n add.u32 %r2, %r2, 1;\n"       /* 2 */
    " setp.lt.u32 %p1, %r2, %r1;\n"        /* 3 */
    " @%p1 bra LOOP;\n"                    /* 4 */
    " ret;\n}\n";                          /* 5 */

static void test_loop_divergent_exit(void **state)
{
    (void)state;
    struct run r;
    run_warp(&r, LOOP, 0xf, 8);          /* lane l iterates max(l,1) times */
    const struct step want[] = {
        {0, 0xf, 1}, {1, 0xf, 1}, {2, 0xf, 1}, {3, 0xf, 1}, {4, 0xf, 1},
        {2, 0xc, 2}, {3, 0xc, 2}, {4, 0xc, 2},
        /* the entry of the previous iteration is reused, not stacked */
        {2, 0x8, 2}, {3, 0x8, 2}, {4, 0x8, 2},
        {5, 0xf, 1},
    };
    expect_trace(&r.t, want, sizeof want / sizeof want[0]);
    assert_int_equal(r.w.branches, 3);
    assert_int_equal(r.w.divergent, 2);
    assert_int_equal(r.w.max_depth, 2);
    for (unsigned l = 0; l < 4; l++)
        assert_int_equal(reg(&r, "%r2", l), l > 1 ? l : 1);
    done(&r);
}

static const char *EARLY_RET = HDR
    ".visible .entry k()\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<4>;\n"
    " mov.u32 %r1, %tid.x;\n"              /* 0 */
    " setp.lt.u32 %p1, %r1, 2;\n"          /* 1 */
    " @%p1 bra LA;\n"                      /* 2 */
    " add.u32 %r2, %r1, 1;\n"              /* 3 */
    " ret;\n"                              /* 4: t >= 2 leave here */
    "LA:\n add.u32 %r2, %r1, 5;\n"         /* 5 */
    " ret;\n}\n";                          /* 6 */

static void test_early_return(void **state)
{
    (void)state;
    struct run r;
    run_warp(&r, EARLY_RET, 0xf, 8);
    const struct step want[] = {
        {0, 0xf, 1}, {1, 0xf, 1}, {2, 0xf, 1},
        {5, 0x3, 2}, {6, 0x3, 2},
        {3, 0xc, 1}, {4, 0xc, 1},
    };
    expect_trace(&r.t, want, sizeof want / sizeof want[0]);
    assert_int_equal(r.rc, SIMT_RC_DONE);
    assert_int_equal(r.w.live, 0);
    assert_int_equal(r.w.sp, 0);
    done(&r);
}

static const char *GUARDED_EXIT = HDR
    ".visible .entry k()\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<4>;\n"
    " mov.u32 %r1, %tid.x;\n"              /* 0 */
    " setp.eq.u32 %p1, %r1, 1;\n"          /* 1 */
    " @%p1 exit;\n"                        /* 2 */
    " add.u32 %r2, %r1, 1;\n"              /* 3 */
    " ret;\n}\n";                          /* 4 */

static void test_guarded_exit(void **state)
{
    (void)state;
    struct run r;
    run_warp(&r, GUARDED_EXIT, 0x7, 8);
    const struct step want[] = {
        {0, 0x7, 1}, {1, 0x7, 1}, {2, 0x7, 1}, {3, 0x5, 1}, {4, 0x5, 1},
    };
    expect_trace(&r.t, want, sizeof want / sizeof want[0]);
    assert_int_equal(reg(&r, "%r2", 1), 0);
    assert_int_equal(reg(&r, "%r2", 2), 3);
    done(&r);
}

static void test_overflow(void **state)
{
    (void)state;
    struct run r;
    run_warp(&r, NESTED, 0xf, 2);        /* needs 3 entries */
    assert_int_equal(r.rc, SIMT_RC_ERROR);
    assert_non_null(strstr(r.w.err.msg, "overflow"));
    assert_int_equal(r.w.err_pc, 4);
    done(&r);
}

/* A .func call through the public API: per-thread param frame, retval,
 * local depot, a divergent early return inside the callee. */
static const char *CALL = HDR
    ".func (.param .b32 func_retval0) sq(\n .param .b32 sq_param_0\n)\n{\n"
    " .local .align 4 .b8 __local_depot0[8];\n"
    " .reg .b64 %SPL;\n .reg .pred %p<2>;\n .reg .b32 %r<4>;\n"
    " mov.u64 %SPL, __local_depot0;\n"
    " ld.param.u32 %r1, [sq_param_0];\n"
    " st.local.u32 [%SPL+4], %r1;\n"
    " setp.gt.u32 %p1, %r1, 7;\n"
    " @%p1 bra BIG;\n"
    " ld.local.u32 %r2, [%SPL+4];\n"
    " mul.lo.u32 %r3, %r2, %r2;\n"
    " st.param.b32 [func_retval0], %r3;\n"
    " ret;\n"
    "BIG:\n mov.u32 %r3, 1000;\n"
    " st.param.b32 [func_retval0], %r3;\n"
    " ret;\n}\n"
    ".visible .entry k(\n .param .u64 k_param_0\n)\n{\n"
    " .reg .b32 %r<4>;\n .reg .b64 %rd<5>;\n"
    " ld.param.u64 %rd1, [k_param_0];\n"
    " cvta.to.global.u64 %rd2, %rd1;\n"
    " mov.u32 %r1, %tid.x;\n"
    " {\n .reg .b32 temp_param_reg;\n .param .b32 param0;\n"
    " st.param.b32 [param0], %r1;\n"
    " .param .b32 retval0;\n"
    " call.uni (retval0), sq, (param0);\n"
    " ld.param.b32 %r2, [retval0];\n }\n"
    " mul.wide.u32 %rd3, %r1, 4;\n"
    " add.s64 %rd4, %rd2, %rd3;\n"
    " st.global.u32 [%rd4], %r2;\n"
    " ret;\n}\n";

static void test_call(void **state)
{
    (void)state;
    char err[256];
    ls_gpu *g = ls_gpu_create(NULL, err, sizeof err);
    assert_non_null(g);
    ls_module *m;
    if (ls_module_load_text(g, "call.ptx", CALL, strlen(CALL), &m) != LS_OK)
        fail_msg("load: %s", ls_gpu_error(g));
    ls_dptr out;
    assert_int_equal(ls_malloc(g, &out, 64 * 4), LS_OK);
    void *args[] = { &out };
    ls_stats s;
    ls_status st = ls_launch(g, m, "k", (ls_dim3){1, 1, 1}, (ls_dim3){64, 1, 1},
                             0, args, &s);
    if (st != LS_OK)
        fail_msg("launch: %s", ls_gpu_error(g));
    uint32_t h[64];
    assert_int_equal(ls_memcpy_dtoh(g, h, out, sizeof h), LS_OK);
    for (uint32_t i = 0; i < 64; i++)
        assert_int_equal(h[i], i > 7 ? 1000 : i * i);
    assert_int_equal(s.divergent_branches, 1);   /* only warp 0 diverges */
    assert_true(s.max_stack_depth >= 3);
    ls_gpu_destroy(g);
}

/* Recursion with lanes of one warp at different depths: the call sits on
 * the not-taken side of a divergent branch inside the callee. */
static const char *FACT = HDR
    ".func (.param .b32 func_retval0) fact(\n .param .b32 fact_param_0\n)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<6>;\n"
    " ld.param.u32 %r1, [fact_param_0];\n"
    " mov.u32 %r5, 1;\n"
    " setp.le.u32 %p1, %r1, 1;\n"
    " @%p1 bra BASE;\n"
    " sub.u32 %r2, %r1, 1;\n"
    " {\n .param .b32 param0;\n st.param.b32 [param0], %r2;\n"
    " .param .b32 retval0;\n"
    " call.uni (retval0), fact, (param0);\n"
    " ld.param.b32 %r3, [retval0];\n }\n"
    " mul.lo.u32 %r5, %r3, %r1;\n"
    "BASE:\n st.param.b32 [func_retval0], %r5;\n"
    " ret;\n}\n"
    ".visible .entry fk(\n .param .u64 fk_param_0,\n .param .u32 fk_param_1\n)\n{\n"
    " .reg .b32 %r<5>;\n .reg .b64 %rd<5>;\n"
    " ld.param.u64 %rd1, [fk_param_0];\n"
    " ld.param.u32 %r4, [fk_param_1];\n"
    " cvta.to.global.u64 %rd2, %rd1;\n"
    " mov.u32 %r1, %tid.x;\n"
    " rem.u32 %r2, %r1, %r4;\n"
    " add.u32 %r2, %r2, 1;\n"
    " {\n .param .b32 param0;\n st.param.b32 [param0], %r2;\n"
    " .param .b32 retval0;\n"
    " call.uni (retval0), fact, (param0);\n"
    " ld.param.b32 %r3, [retval0];\n }\n"
    " mul.wide.u32 %rd3, %r1, 4;\n"
    " add.s64 %rd4, %rd2, %rd3;\n"
    " st.global.u32 [%rd4], %r3;\n"
    " ret;\n}\n";

static void test_recursion(void **state)
{
    (void)state;
    char err[256];
    ls_gpu *g = ls_gpu_create(NULL, err, sizeof err);
    assert_non_null(g);
    ls_module *m;
    if (ls_module_load_text(g, "fact.ptx", FACT, strlen(FACT), &m) != LS_OK)
        fail_msg("load: %s", ls_gpu_error(g));
    ls_dptr out;
    assert_int_equal(ls_malloc(g, &out, 40 * 4), LS_OK);
    uint32_t mod = 6;
    void *args[] = { &out, &mod };
    ls_stats s;
    if (ls_launch(g, m, "fk", (ls_dim3){1, 1, 1}, (ls_dim3){40, 1, 1}, 0, args, &s)
        != LS_OK)
        fail_msg("launch: %s", ls_gpu_error(g));
    uint32_t h[40];
    assert_int_equal(ls_memcpy_dtoh(g, h, out, sizeof h), LS_OK);
    for (uint32_t t = 0; t < 40; t++) {
        uint32_t f = 1;
        for (uint32_t k = 2; k <= t % 6 + 1; k++)
            f *= k;
        assert_int_equal(h[t], f);
    }
    assert_true(s.divergent_branches >= 5);
    /* deeper than the frame limit: a clean launch error, no crash */
    mod = 40;
    assert_int_equal(ls_launch(g, m, "fk", (ls_dim3){1, 1, 1}, (ls_dim3){40, 1, 1},
                               0, args, NULL), LS_ERR_LAUNCH);
    assert_non_null(strstr(ls_gpu_error(g), "fact.ptx:"));
    assert_non_null(strstr(ls_gpu_error(g), "SIMT_MAX_FRAMES"));
    ls_gpu_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_if_else),
        cmocka_unit_test(test_nested),
        cmocka_unit_test(test_loop_divergent_exit),
        cmocka_unit_test(test_early_return),
        cmocka_unit_test(test_guarded_exit),
        cmocka_unit_test(test_overflow),
        cmocka_unit_test(test_call),
        cmocka_unit_test(test_recursion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
