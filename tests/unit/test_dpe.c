/* cmocka tests of dual-path execution (docs/dpe.md): the dual-path stack
 * (csim/simt/simt_dpe.c, dissertation 3.2.1, Fig 3.3) driven by the
 * branches of small PTX kernels, and the dual-path scoreboard
 * (csim/core/core_dpe.c, 3.2.2) in the four scenarios of Fig 3.5. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lockstep.h"
#include "simt/simt_dpe.h"
#include "core/core.h"
#include "core/core_dpe.h"
#include "core/core_mech.h"
#include "cfg/cfg.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"
#define L SIMT_DPE_L
#define R SIMT_DPE_R

static struct ptx_module *parse(const char *ptx)
{
    struct ptx_module *m = NULL;
    struct ptx_diag d;
    if (ptx_parse("dpe.ptx", ptx, strlen(ptx), &m, &d) != 0)
        fail_msg("parse: %s", d.msg);
    return m;
}

static const struct simt_dpe_path *top(const struct simt_dpe *d, unsigned s)
{
    assert_true(d->sp > 0);
    return &d->stack[d->sp - 1].p[s];
}

/* Fig 2.6 / 3.3: A; if (t < 16) B else { C; if (t < 24) D else E; F }; G */
static const char *FIG26 = HDR
    ".visible .entry k()\n{\n"
    " .reg .pred %p<3>;\n .reg .b32 %r<6>;\n"
    " mov.u32 %r1, %tid.x;\n"              /* 0  A */
    " setp.lt.u32 %p1, %r1, 16;\n"         /* 1 */
    " @%p1 bra B;\n"                       /* 2  BR_B-C */
    " setp.lt.u32 %p2, %r1, 24;\n"         /* 3  C */
    " @%p2 bra D;\n"                       /* 4  BR_D-E */
    " add.u32 %r2, %r1, 1;\n"              /* 5  E */
    " bra.uni F;\n"                        /* 6 */
    "D:\n add.u32 %r2, %r1, 2;\n"          /* 7  D */
    "F:\n add.u32 %r3, %r2, 3;\n"          /* 8  F */
    " bra.uni G;\n"                        /* 9 */
    "B:\n add.u32 %r3, %r1, 4;\n"          /* 10 B */
    "G:\n ret;\n}\n";                      /* 11 G */

static void test_fig33(void **state)
{
    (void)state;
    struct ptx_module *m = parse(FIG26);
    const struct ptx_func *f = &m->funcs[0];
    assert_int_equal(f->ninsts, 12);
    struct simt_dpe d;
    assert_int_equal(simt_dpe_alloc(&d, 8), 0);
    simt_dpe_start(&d, 0xffffffffu, f->ninsts);
    assert_int_equal(simt_dpe_npaths(&d), 1);
    assert_int_equal(simt_dpe_advance(&d, L, 1), 0);
    assert_int_equal(simt_dpe_advance(&d, L, 2), 0);
    unsigned popped;
    /* BR_B-C: one entry with both sides; the diverged slot waits at G */
    assert_int_equal(simt_dpe_branch(&d, L, &f->insts[2], 2, f->ninsts, 0x0000ffffu,
                                     &popped), SIMT_DPE_DIVERGED);
    assert_int_equal(d.sp, 2);
    assert_int_equal(d.stack[0].p[L].pc, 11);
    assert_int_equal(d.stack[1].rpc, 11);
    assert_int_equal(top(&d, L)->pc, 10);
    assert_int_equal(top(&d, L)->mask, 0x0000ffffu);
    assert_int_equal(top(&d, R)->pc, 3);
    assert_int_equal(top(&d, R)->mask, 0xffff0000u);
    assert_int_equal(simt_dpe_npaths(&d), 2);   /* B and C interleave */
    /* C diverges at BR_D-E (lanes 16..23 take D): B is suspended */
    assert_int_equal(simt_dpe_advance(&d, R, 4), 0);
    assert_int_equal(simt_dpe_branch(&d, R, &f->insts[4], 4, f->ninsts, 0x00ff0000u,
                                     &popped), SIMT_DPE_DIVERGED);
    assert_int_equal(d.sp, 3);
    assert_int_equal(d.stack[1].p[R].pc, 8);    /* C's slot waits at F */
    assert_int_equal(top(&d, L)->pc, 7);
    assert_int_equal(top(&d, R)->pc, 5);
    assert_int_equal(top(&d, R)->mask, 0xff000000u);
    assert_int_equal(d.stack[1].p[L].pc, 10);   /* B not on the top entry */
    /* D reaches the RPC F first: invalid, the entry stays for E */
    assert_int_equal(simt_dpe_advance(&d, L, 8), 0);
    assert_int_equal(d.sp, 3);
    assert_false(simt_dpe_valid(&d, L));
    assert_true(simt_dpe_valid(&d, R));
    assert_int_equal(simt_dpe_npaths(&d), 1);
    /* path forwarding (3.4.1, Fig 3.3(d)): B, the independent side of the
     * entry below, is found; C's slot, waiting at F for the top, is not */
    uint32_t fe;
    unsigned fs;
    assert_true(simt_dpe_forward(&d, &fe, &fs));
    assert_int_equal(fe, 1);
    assert_int_equal(fs, L);
    assert_int_equal(d.stack[fe].p[fs].pc, 10);
    assert_int_equal(simt_dpe_advance_at(&d, 1, L, 10), 0);    /* B moves below */
    assert_int_equal(d.sp, 3);
    assert_int_equal(simt_dpe_advance(&d, R, 6), 0);
    assert_int_equal(simt_dpe_branch(&d, R, &f->insts[6], 6, f->ninsts, 0xff000000u,
                                     &popped), SIMT_DPE_UNIFORM);
    /* both at F: the entry pops; B and F are schedulable again, F with the
     * mask C had (the returned-to slot keeps its threads) */
    assert_int_equal(popped, 1);
    assert_int_equal(d.sp, 2);
    assert_int_equal(simt_dpe_npaths(&d), 2);
    assert_int_equal(top(&d, R)->pc, 8);
    assert_int_equal(top(&d, R)->mask, 0xffff0000u);
    assert_int_equal(simt_dpe_advance(&d, L, 11), 0);   /* B reaches G */
    assert_int_equal(simt_dpe_advance(&d, R, 9), 0);
    assert_int_equal(simt_dpe_branch(&d, R, &f->insts[9], 9, f->ninsts, 0xffff0000u,
                                     &popped), SIMT_DPE_UNIFORM);
    assert_int_equal(popped, 1);
    assert_int_equal(d.sp, 1);
    assert_false(simt_dpe_forward(&d, &fe, &fs));   /* nothing below */
    assert_int_equal(top(&d, L)->pc, 11);
    assert_int_equal(top(&d, L)->mask, 0xffffffffu);
    assert_int_equal(d.max_depth, 3);
    assert_int_equal(d.branches, 4);
    assert_int_equal(d.divergent, 2);
    assert_int_equal(d.interleavable, 2);
    assert_int_equal(simt_dpe_exit(&d, 0xffffffffu), 1);
    assert_int_equal(d.sp, 0);
    simt_dpe_free(&d);
    ptx_module_free(m);
}

/* if (t < 2) { if (t != 0) {x} y }: both branches are one-sided (an if
 * without an else): an entry is pushed with the empty side invalid. */
static const char *ONESIDED = HDR
    ".visible .entry k()\n{\n"
    " .reg .pred %p<3>;\n .reg .b32 %r<6>;\n"
    " mov.u32 %r1, %tid.x;\n"              /* 0 */
    " setp.ge.u32 %p1, %r1, 2;\n"          /* 1 */
    " @%p1 bra LEND;\n"                    /* 2 */
    " setp.eq.u32 %p2, %r1, 0;\n"          /* 3 */
    " @%p2 bra LIN;\n"                     /* 4 */
    " add.u32 %r2, %r1, 1;\n"              /* 5 */
    "LIN:\n add.u32 %r3, %r1, 2;\n"        /* 6 */
    "LEND:\n ret;\n}\n";                   /* 7 */

static void test_one_sided(void **state)
{
    (void)state;
    struct ptx_module *m = parse(ONESIDED);
    const struct ptx_func *f = &m->funcs[0];
    struct simt_dpe d;
    unsigned popped;
    assert_int_equal(simt_dpe_alloc(&d, 8), 0);
    simt_dpe_start(&d, 0xfu, f->ninsts);
    simt_dpe_advance(&d, L, 2);
    assert_int_equal(simt_dpe_branch(&d, L, &f->insts[2], 2, f->ninsts, 0xcu, &popped),
                     SIMT_DPE_DIVERGED);
    assert_int_equal(d.sp, 2);                  /* pushed, as SPE's depth */
    assert_false(simt_dpe_valid(&d, L));        /* taken side starts at the RPC */
    assert_true(simt_dpe_valid(&d, R));
    assert_int_equal(top(&d, L)->mask, 0xcu);   /* its threads are kept */
    simt_dpe_advance(&d, R, 4);
    assert_int_equal(simt_dpe_branch(&d, R, &f->insts[4], 4, f->ninsts, 0x1u, &popped),
                     SIMT_DPE_DIVERGED);
    assert_int_equal(d.sp, 3);
    assert_int_equal(simt_dpe_npaths(&d), 1);
    assert_int_equal(top(&d, R)->pc, 5);
    assert_int_equal(top(&d, R)->mask, 0x2u);
    assert_int_equal(simt_dpe_advance(&d, R, 6), 1);
    assert_int_equal(top(&d, R)->pc, 6);
    assert_int_equal(top(&d, R)->mask, 0x3u);
    assert_int_equal(simt_dpe_advance(&d, R, 7), 1);
    assert_int_equal(top(&d, L)->pc, 7);
    assert_int_equal(top(&d, L)->mask, 0xfu);
    assert_int_equal(d.divergent, 2);
    assert_int_equal(d.interleavable, 0);      /* non-interleavable, both */
    simt_dpe_free(&d);
    ptx_module_free(m);
}

/* do { i++; } while (i < t): the exit diverges every iteration; the
 * entry left with no schedulable path is reused, the depth stays 2. */
static const char *LOOP = HDR
    ".visible .entry k()\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<4>;\n"
    " mov.u32 %r1, %tid.x;\n"              /* 0 */
    " mov.u32 %r2, 0;\n"                   /* 1 */
    "LOOP:\n add.u32 %r2, %r2, 1;\n"       /* 2 */
    " setp.lt.u32 %p1, %r2, %r1;\n"        /* 3 */
    " @%p1 bra LOOP;\n"                    /* 4 */
    " ret;\n}\n";                          /* 5 */

static void test_loop_and_exit(void **state)
{
    (void)state;
    struct ptx_module *m = parse(LOOP);
    const struct ptx_func *f = &m->funcs[0];
    struct simt_dpe d;
    unsigned popped;
    assert_int_equal(simt_dpe_alloc(&d, 2), 0);
    simt_dpe_start(&d, 0xfu, f->ninsts);
    uint32_t live = 0xfu;
    unsigned side = L;
    for (unsigned it = 1; it < 4; it++) {
        uint32_t stay = 0;
        for (unsigned l = 0; l < 4; l++)
            if ((live >> l & 1) && it < l)
                stay |= 1u << l;
        simt_dpe_advance(&d, side, 4);
        enum simt_dpe_rc rc = simt_dpe_branch(&d, side, &f->insts[4], 4, f->ninsts,
                                              stay, &popped);
        assert_int_not_equal(rc, SIMT_DPE_OVERFLOW);
        assert_true(d.sp <= 2);
        if (!stay)
            break;
        side = L;
        assert_int_equal(top(&d, L)->pc, 2);
        live = stay;
    }
    assert_int_equal(d.max_depth, 2);
    /* every thread left the loop: back at the bottom entry, at the ret;
     * the exiting threads leave it and it pops */
    assert_int_equal(d.sp, 1);
    assert_int_equal(top(&d, L)->pc, 5);
    assert_int_equal(top(&d, L)->mask, 0xfu);
    assert_int_equal(simt_dpe_exit(&d, 0xfu), 1);
    assert_int_equal(d.sp, 0);
    /* a third nesting level does not fit a 2-entry stack */
    simt_dpe_start(&d, 0xffffffffu, 12);
    struct ptx_module *m2 = parse(FIG26);
    const struct ptx_func *g = &m2->funcs[0];
    assert_int_equal(simt_dpe_branch(&d, L, &g->insts[2], 2, g->ninsts, 0xffffu,
                                     &popped), SIMT_DPE_DIVERGED);
    assert_int_equal(simt_dpe_branch(&d, R, &g->insts[4], 4, g->ninsts, 0x00ff0000u,
                                     &popped), SIMT_DPE_OVERFLOW);
    ptx_module_free(m2);
    simt_dpe_free(&d);
    ptx_module_free(m);
}

/* ------------------------------------------------- scoreboard, Fig 3.5 */

static const int32_t R0[] = { 0 }, R1[] = { 1 }, R4[] = { 4 }, R7[] = { 7 };
#define INF UINT64_MAX
#define BL 0x0000ffffu      /* path B (left)  */
#define CR 0xffff0000u      /* path C (right) */

/* 1: a load of A pending at the divergence is seen by both paths, and
 *    its write-back frees both. */
static void test_sb_pending_before_divergence(void **state)
{
    (void)state;
    struct core_dpe_sb sb;
    assert_int_equal(core_dpe_sb_alloc(&sb, 8, false), 0);
    core_dpe_sb_issue(&sb, L, 0xffffffffu, R0, 1, INF);     /* A: load r0 */
    core_dpe_sb_shadow(&sb, L);                             /* BR_B-C */
    core_dpe_sb_shadow(&sb, R);
    assert_true(core_dpe_sb_ready(&sb, R, CR, R0, 1) == INF);   /* C: add r5, r0 */
    assert_true(core_dpe_sb_ready(&sb, L, BL, R0, 1) == INF);
    core_dpe_sb_wb(&sb, L, 0xffffffffu, R0, 1, 100);
    assert_int_equal(core_dpe_sb_ready(&sb, R, CR, R0, 1), 100);
    assert_int_equal(core_dpe_sb_ready(&sb, L, BL, R0, 1), 100);
    /* without the shadow copy C would not wait: the copy is what works */
    struct core_dpe_sb nos;
    assert_int_equal(core_dpe_sb_alloc(&nos, 8, false), 0);
    core_dpe_sb_issue(&nos, L, 0xffffffffu, R0, 1, INF);
    assert_int_equal(core_dpe_sb_ready(&nos, R, CR, R0, 1), 0);
    core_dpe_sb_free(&nos);
    core_dpe_sb_free(&sb);
}

/* 2: a load of F (right) pending at the reconvergence is seen by G, which
 *    runs on the left side after the pop. */
static void test_sb_pending_before_reconvergence(void **state)
{
    (void)state;
    struct core_dpe_sb sb;
    assert_int_equal(core_dpe_sb_alloc(&sb, 8, false), 0);
    core_dpe_sb_issue(&sb, R, 0xff000000u, R7, 1, INF);     /* F: load r7 */
    core_dpe_sb_shadow(&sb, L);                             /* the pop */
    core_dpe_sb_shadow(&sb, R);
    assert_true(core_dpe_sb_ready(&sb, L, 0xffffffffu, R7, 1) == INF);  /* G */
    core_dpe_sb_wb(&sb, R, 0xff000000u, R7, 1, 250);
    assert_int_equal(core_dpe_sb_ready(&sb, L, 0xffffffffu, R7, 1), 250);
    core_dpe_sb_free(&sb);
}

/* 3: r1 written on B (left) is a different register on D/E: the
 *    conservative scoreboard waits (false dependency, the shadow copied at
 *    BR_D-E), the optimistic one does not; G waits in both. */
static void test_sb_false_dependency(void **state)
{
    (void)state;
    for (int opt = 0; opt < 2; opt++) {
        struct core_dpe_sb sb;
        assert_int_equal(core_dpe_sb_alloc(&sb, 8, opt), 0);
        core_dpe_sb_issue(&sb, L, BL, R1, 1, INF);          /* B: load r1 */
        core_dpe_sb_shadow(&sb, L);                         /* BR_D-E */
        core_dpe_sb_shadow(&sb, R);
        uint64_t d = core_dpe_sb_ready(&sb, L, 0x00ff0000u, R1, 1);  /* D */
        uint64_t e = core_dpe_sb_ready(&sb, R, 0xff000000u, R1, 1);  /* E */
        if (opt) {
            assert_int_equal(d, 0);
            assert_int_equal(e, 0);
        } else {
            assert_true(d == INF);
            assert_true(e == INF);
        }
        assert_true(core_dpe_sb_ready(&sb, L, 0xffffffffu, R1, 1) == INF);  /* G */
        core_dpe_sb_wb(&sb, L, BL, R1, 1, 300);
        assert_int_equal(core_dpe_sb_ready(&sb, L, 0xffffffffu, R1, 1), 300);
        assert_int_equal(core_dpe_sb_ready(&sb, R, 0xff000000u, R1, 1), opt ? 0 : 300);
        core_dpe_sb_free(&sb);
    }
}

/* 4: r4 written on both D (left) and E (right) after BR_D-E: tracked
 *    apart, neither path waits for the other's write. */
static void test_sb_concurrent_writes(void **state)
{
    (void)state;
    for (int opt = 0; opt < 2; opt++) {
        struct core_dpe_sb sb;
        assert_int_equal(core_dpe_sb_alloc(&sb, 8, opt), 0);
        core_dpe_sb_shadow(&sb, L);                         /* BR_D-E */
        core_dpe_sb_shadow(&sb, R);
        core_dpe_sb_issue(&sb, L, 0x00ff0000u, R4, 1, 40);  /* D: add r4 */
        assert_int_equal(core_dpe_sb_ready(&sb, R, 0xff000000u, R4, 1), 0);  /* E */
        core_dpe_sb_issue(&sb, R, 0xff000000u, R4, 1, 45);
        assert_int_equal(core_dpe_sb_ready(&sb, L, 0x00ff0000u, R4, 1), 40);
        assert_int_equal(core_dpe_sb_ready(&sb, R, 0xff000000u, R4, 1), 45);
        /* after the reconvergence at F the merged path waits for both */
        core_dpe_sb_shadow(&sb, L);
        core_dpe_sb_shadow(&sb, R);
        assert_int_equal(core_dpe_sb_ready(&sb, R, 0xffff0000u, R4, 1), 45);
        assert_int_equal(core_dpe_sb_ready(&sb, L, 0xffff0000u, R4, 1), 45);
        core_dpe_sb_free(&sb);
    }
}

/* 3.2.3: the constrained scheduler's single entry moves to the other path
 * "whenever the current schedulable path encounters a cache miss or
 * executes another long latency operation": not at a load's issue, at its
 * miss (core_pend.missed, set when the L1D took a line that missed), not
 * at a hit, not at a miss of the path it does not hold; at an SFU
 * instruction's issue. */
static void test_constrained_rotates_on_miss(void **state)
{
    (void)state;
    struct ptx_module *m = parse(FIG26);
    const struct ptx_func *f = &m->funcs[0];
    static struct cfg c;
    cfg_defaults(&c);
    c.l1d_latency = 35;
    static struct core_warp w[1];
    static struct core_view v;
    v.c = &c;
    v.w = w;
    v.nslots = 1;
    static struct core_dpe_warp dw;
    static struct core_dpe d;
    d.paths = CORE_DPE_DUAL;
    d.sched = CORE_DPE_CONSTRAINED;
    d.active = true;
    d.nslots = 1;
    d.w = &dw;
    d.v = &v;
    assert_int_equal(simt_dpe_alloc(&dw.st, 8), 0);
    assert_int_equal(core_dpe_sb_alloc(&dw.sb, 8, false), 0);
    simt_dpe_start(&dw.st, 0xffffffffu, f->ninsts);
    unsigned popped;
    assert_int_equal(simt_dpe_advance(&dw.st, L, 2), 0);
    assert_int_equal(simt_dpe_branch(&dw.st, L, &f->insts[2], 2, f->ninsts, 0x0000ffffu,
                                     &popped), SIMT_DPE_DIVERGED);
    assert_int_equal(simt_dpe_npaths(&dw.st), 2);
    dw.inherit = -1;
    const struct core_mech_ops *o = &core_dpe_mech;
    /* the held path L issues a load: the entry stays */
    struct core_dinst ld = { .unit = CORE_U_MEM, .ndst = 1 };
    struct core_issue is = { .slot = 0, .di = &ld };
    dw.sched = L;
    dw.last = L;
    o->issued(&d, &v, &is, UINT64_MAX);
    assert_int_equal(dw.sched, L);
    /* its line taken at 100 and hit: the entry stays */
    w[0].pend_used = 1;
    w[0].pend[0].own = L + 1;
    v.wake[0] = UINT64_MAX;
    assert_int_equal(o->cycle(&d, &v, 101), 0);
    assert_int_equal(dw.sched, L);
    /* another load of L whose line missed at 110: the entry moves */
    w[0].pend_used = 3;
    w[0].pend[1].own = L + 1;
    w[0].pend[1].missed = 111;
    assert_int_equal(o->cycle(&d, &v, 111), 0);
    assert_int_equal(dw.sched, R);
    assert_int_equal(d.st.switches, 1);
    assert_int_equal(v.wake[0], 0);
    assert_int_equal(o->cycle(&d, &v, 112), 0);     /* seen once */
    assert_int_equal(dw.sched, R);
    /* a miss of L's load while R holds the entry moves nothing */
    w[0].pend_used = 4;
    w[0].pend[2].own = L + 1;
    w[0].pend[2].missed = 301;
    assert_int_equal(o->cycle(&d, &v, 301), 0);
    assert_int_equal(dw.sched, R);
    assert_int_equal(d.st.switches, 1);
    /* an SFU instruction of the held path moves it at issue */
    struct core_dinst sfu = { .unit = CORE_U_SFU, .ndst = 1 };
    is.di = &sfu;
    dw.last = R;
    o->issued(&d, &v, &is, 500);
    assert_int_equal(dw.sched, L);
    assert_int_equal(d.st.switches, 2);
    core_dpe_sb_free(&dw.sb);
    simt_dpe_free(&dw.st);
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fig33),
        cmocka_unit_test(test_one_sided),
        cmocka_unit_test(test_loop_and_exit),
        cmocka_unit_test(test_sb_pending_before_divergence),
        cmocka_unit_test(test_sb_pending_before_reconvergence),
        cmocka_unit_test(test_sb_false_dependency),
        cmocka_unit_test(test_sb_concurrent_writes),
        cmocka_unit_test(test_constrained_rotates_on_miss),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
