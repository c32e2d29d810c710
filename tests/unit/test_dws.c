/* cmocka tests of dynamic warp subdivision (docs/dpe.md): the PDOM stack
 * plus warp-split table of csim/simt/simt_dws.c (dissertation 3.1.2,
 * Fig 3.2) driven by the branches of small PTX kernels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lockstep.h"
#include "simt/simt_dws.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

static struct ptx_module *parse(const char *ptx)
{
    struct ptx_module *m = NULL;
    struct ptx_diag d;
    if (ptx_parse("dws.ptx", ptx, strlen(ptx), &m, &d) != 0)
        fail_msg("parse: %s", d.msg);
    return m;
}

/* Fig 3.2's CFG (Fig 2.6): A; if (t < 16) B else { C; if (t < 24) D else
 * E; F }; G, with G three instructions long and F one. */
static const char *FIG32 = HDR
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
    "F:\n bra.uni G;\n"                    /* 8  F (one instruction) */
    "B:\n add.u32 %r3, %r1, 4;\n"          /* 9  B */
    "G:\n add.u32 %r3, %r3, 1;\n"          /* 10 G (three instructions) */
    " add.u32 %r4, %r3, 1;\n"              /* 11 */
    " ret;\n}\n";                          /* 12 */

struct fix {
    struct ptx_module *m;
    const struct ptx_func *f;
    uint32_t *len;
    struct simt_dws d;
};

static void setup(struct fix *x, const char *ptx, uint32_t n)
{
    x->m = parse(ptx);
    x->f = &x->m->funcs[0];
    x->len = calloc(x->f->ninsts + 1, sizeof *x->len);
    assert_non_null(x->len);
    simt_dws_blocks(x->f, x->len);
    assert_int_equal(simt_dws_alloc(&x->d, 8), 0);
    simt_dws_start(&x->d, 0xffffffffu, x->f->ninsts, x->len, n);
}

static void teardown(struct fix *x)
{
    simt_dws_free(&x->d);
    free(x->len);
    ptx_module_free(x->m);
}

static void expect_path(const struct simt_dws *d, unsigned k, int32_t pc, uint32_t mask)
{
    int32_t p;
    uint32_t m;
    assert_true(simt_dws_path(d, k, &p, &m));
    assert_int_equal(p, pc);
    assert_int_equal(m, mask);
}

static enum simt_dws_rc bra(struct fix *x, unsigned k, int32_t pc, uint32_t taken)
{
    unsigned popped;
    return simt_dws_branch(&x->d, k, &x->f->insts[pc], pc, x->f->ninsts, taken, &popped);
}

/* Run path k from its pc to `to` by ordinary instructions. */
static void walk(struct fix *x, unsigned k, int32_t to)
{
    int32_t pc;
    uint32_t m;
    assert_true(simt_dws_path(&x->d, k, &pc, &m));
    while (pc + 1 <= to) {
        (void)simt_dws_advance(&x->d, k, pc + 1);
        pc++;
    }
}

/* Threshold 2: BR_B-C (G: 3 instructions) stays on the stack; BR_D-E (F:
 * 1 instruction) subdivides with the WST RPC = the top entry's (G), not F;
 * both splits run F (it runs twice) and are invalidated at G; the stack
 * then continues with G and every thread. */
static void test_fig32(void **state)
{
    (void)state;
    struct fix x;
    setup(&x, FIG32, 2);
    assert_int_equal(x.f->ninsts, 13);
    assert_int_equal(x.len[10], 3);     /* G */
    assert_int_equal(x.len[8], 1);      /* F */
    assert_int_equal(x.len[0], 3);      /* A ends at BR_B-C */
    assert_int_equal(x.len[13], 0);
    walk(&x, 0, 2);
    assert_int_equal(bra(&x, 0, 2, 0x0000ffffu), SIMT_DWS_DIVERGED);
    assert_int_equal(x.d.refused, 1);
    assert_false(x.d.sub);
    assert_int_equal(x.d.sp, 3);        /* waiting at G, C, B (top) */
    expect_path(&x.d, 0, 9, 0x0000ffffu);
    assert_int_equal(simt_dws_npaths(&x.d), 1);
    assert_int_equal(simt_dws_advance(&x.d, 0, 10), 1);     /* B reaches G */
    expect_path(&x.d, 0, 3, 0xffff0000u);                   /* C */
    walk(&x, 0, 4);
    assert_int_equal(bra(&x, 0, 4, 0x00ff0000u), SIMT_DWS_SPLIT);
    assert_true(x.d.sub);
    assert_int_equal(x.d.subdivided, 1);
    assert_int_equal(x.d.rpc, 10);      /* G, the top entry's RPC, not F */
    assert_int_equal(x.d.created, 2);
    assert_int_equal(simt_dws_npaths(&x.d), 2);
    expect_path(&x.d, 0, 7, 0x00ff0000u);                   /* D */
    expect_path(&x.d, 1, 5, 0xff000000u);                   /* E */
    /* D runs F and on past it: F is not the WST's RPC */
    walk(&x, 0, 8);
    assert_int_equal(bra(&x, 0, 8, 0x00ff0000u), SIMT_DWS_UNIFORM);
    int32_t pc;
    uint32_t m;
    assert_false(simt_dws_path(&x.d, 0, &pc, &m));          /* arrived at G */
    assert_int_equal(simt_dws_npaths(&x.d), 1);
    assert_true(x.d.sub);
    /* E runs F later (F twice, Fig 3.2(c-d)); at G the WST empties and
     * the stack's top entry (C's) pops: G runs with every thread */
    assert_int_equal(bra(&x, 1, 6, 0xff000000u), SIMT_DWS_UNIFORM);
    expect_path(&x.d, 1, 8, 0xff000000u);
    unsigned popped;
    assert_int_equal(simt_dws_branch(&x.d, 1, &x.f->insts[8], 8, x.f->ninsts,
                                     0xff000000u, &popped), SIMT_DWS_UNIFORM);
    assert_int_equal(popped, 1);
    assert_false(x.d.sub);
    assert_int_equal(x.d.sp, 1);
    expect_path(&x.d, 0, 10, 0xffffffffu);
    assert_int_equal(x.d.merges, 0);
    assert_int_equal(simt_dws_exit(&x.d, 0xffffffffu), 1);
    assert_int_equal(x.d.sp, 0);
    assert_int_equal(simt_dws_npaths(&x.d), 0);
    teardown(&x);
}

/* Threshold 2: D and E meet at F: they merge (masks OR, one merge) and
 * the warp is whole again. Threshold 3: BR_B-C subdivides too (WST RPC =
 * the kernel's end), C's branch splits further, exit removes threads from
 * splits, and D meets B at G. */
static void test_merge(void **state)
{
    (void)state;
    struct fix x;
    setup(&x, FIG32, 2);
    walk(&x, 0, 2);
    assert_int_equal(bra(&x, 0, 2, 0x0000ffffu), SIMT_DWS_DIVERGED);
    (void)simt_dws_advance(&x.d, 0, 10);
    walk(&x, 0, 4);
    assert_int_equal(bra(&x, 0, 4, 0x00ff0000u), SIMT_DWS_SPLIT);
    walk(&x, 0, 8);                                         /* D at F */
    assert_int_equal(bra(&x, 1, 6, 0xff000000u), SIMT_DWS_UNIFORM);  /* E at F */
    assert_int_equal(x.d.merges, 1);
    /* one split holding every thread of the top entry: the warp is
     * whole again, on the stack at F */
    assert_false(x.d.sub);
    expect_path(&x.d, 0, 8, 0xffff0000u);
    assert_int_equal(simt_dws_npaths(&x.d), 1);
    teardown(&x);

    /* threshold 3: BR_B-C subdivides (G has 3 instructions), WST RPC =
     * the end of the kernel; B reaches G first and waits for nothing */
    setup(&x, FIG32, 3);
    walk(&x, 0, 2);
    assert_int_equal(bra(&x, 0, 2, 0x0000ffffu), SIMT_DWS_SPLIT);
    assert_int_equal(x.d.rpc, 13);
    expect_path(&x.d, 0, 9, 0x0000ffffu);
    expect_path(&x.d, 1, 3, 0xffff0000u);
    (void)simt_dws_advance(&x.d, 0, 10);                    /* B runs G on */
    expect_path(&x.d, 0, 10, 0x0000ffffu);
    /* C: a nested divergence splits further, same RPC */
    walk(&x, 1, 4);
    assert_int_equal(bra(&x, 1, 4, 0x00ff0000u), SIMT_DWS_SPLIT);
    assert_int_equal(x.d.nested, 1);
    assert_int_equal(x.d.created, 3);
    assert_int_equal(x.d.rpc, 13);
    assert_int_equal(simt_dws_npaths(&x.d), 3);
    expect_path(&x.d, 1, 7, 0x00ff0000u);                   /* D */
    expect_path(&x.d, 2, 5, 0xff000000u);                   /* E */
    /* exit removes threads from splits: E's go */
    assert_int_equal(simt_dws_exit(&x.d, 0xff000000u), 0);
    assert_int_equal(simt_dws_npaths(&x.d), 2);
    /* D reaches G where B waits: they merge into one split of every live
     * thread, and the warp is whole again at G */
    walk(&x, 1, 8);
    assert_int_equal(bra(&x, 1, 8, 0x00ff0000u), SIMT_DWS_UNIFORM);
    assert_int_equal(x.d.merges, 1);
    assert_false(x.d.sub);
    expect_path(&x.d, 0, 10, 0x00ffffffu);
    teardown(&x);
}

/* A loop whose branch peels one lane per iteration off a split: every
 * divergence inside a split splits further (lane 0 first subdivides the
 * warp), each peeled lane merges at X with the ones there before; the
 * table never needs more slots than it has; exit ends it all. */
static const char *LADDER = HDR
    ".visible .entry k()\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<4>;\n"
    " mov.u32 %r1, %tid.x;\n"              /* 0 */
    " setp.lt.u32 %p1, %r1, 1;\n"          /* 1 */
    " @%p1 bra X;\n"                       /* 2 */
    " add.u32 %r1, %r1, 1;\n"              /* 3 */
    "X:\n ret;\n}\n";                      /* 4 */

static void test_lanes_bound(void **state)
{
    (void)state;
    struct fix x;
    setup(&x, LADDER, 50);
    walk(&x, 0, 2);
    /* lane 0 takes X; the others split off at pc 3 */
    assert_int_equal(bra(&x, 0, 2, 0x1u), SIMT_DWS_SPLIT);
    assert_int_equal(simt_dws_npaths(&x.d), 2);
    /* the branch in a split with one lane taking it: always a new split */
    for (unsigned l = 1; l < 32; l++) {
        /* re-run the branch from the not-taken split (at pc 3): move it
         * back to pc 2 as a loop would */
        unsigned k = 1;
        int32_t pc;
        uint32_t m;
        while (!simt_dws_path(&x.d, k, &pc, &m) || pc != 3)
            k++;
        (void)simt_dws_advance(&x.d, k, 2);
        if (m == (1u << l))     /* one lane left: it takes X */
            break;
        assert_int_equal(bra(&x, k, 2, 1u << l), SIMT_DWS_SPLIT);
        /* the taken lane arrived at X where lane 0 waits: merged */
    }
    assert_true(x.d.merges >= 30);
    assert_true(x.d.created <= 33);
    assert_int_equal(simt_dws_exit(&x.d, 0xffffffffu), 1);
    assert_int_equal(x.d.sp, 0);
    teardown(&x);
}

/* ------------------------------------------- CTA barriers in timing mode */

/* Both sides of a divergent branch reach one bar.sync: the splits merge
 * there (equal pcs), the warp is whole and the barrier runs; each thread
 * then reads what the thread tid ^ 32 (the other warp) stored before it. */
static const char *BARK = HDR
    ".visible .entry bark(.param .u64 out)\n{\n"
    " .reg .pred %p<3>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n"
    " .shared .align 4 .b8 sh[256];\n"
    " mov.u32 %r1, %tid.x;\n"
    " setp.lt.u32 %p1, %r1, 16;\n"
    " @%p1 bra A;\n"
    " add.u32 %r2, %r1, 100;\n"
    " bra.uni J;\n"
    "A:\n add.u32 %r2, %r1, 200;\n"
    "J:\n shl.b32 %r3, %r1, 2;\n"
    " mov.u32 %r4, sh;\n"
    " add.u32 %r5, %r4, %r3;\n"
    " st.shared.u32 [%r5], %r2;\n"
    " bar.sync 0;\n"
    " xor.b32 %r6, %r1, 32;\n"
    " shl.b32 %r6, %r6, 2;\n"
    " add.u32 %r6, %r4, %r6;\n"
    " ld.shared.u32 %r7, [%r6];\n"
    " ld.param.u64 %rd1, [out];\n"
    " mul.wide.u32 %rd2, %r1, 4;\n"
    " add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r7;\n"
    " ret;\n}\n";

/* The two sides wait at two different bar.sync: the splits never merge. */
static const char *TWOBAR = HDR
    ".visible .entry twobar()\n{\n"
    " .reg .pred %p<3>;\n .reg .b32 %r<4>;\n"
    " mov.u32 %r1, %tid.x;\n"
    " setp.lt.u32 %p1, %r1, 16;\n"
    " @%p1 bra A;\n"
    " bar.sync 0;\n"
    " bra.uni J;\n"
    "A:\n bar.sync 0;\n"
    "J:\n ret;\n}\n";

static ls_gpu *mk(const char *const *sets)
{
    ls_config c;
    ls_config_default(&c);
    c.mode = LS_MODE_TIMING;
    c.sets = sets;
    c.max_warp_insts = 100000;
    char err[256];
    ls_gpu *g = ls_gpu_create(&c, err, sizeof err);
    if (!g)
        fail_msg("%s", err);
    return g;
}

static void test_barrier(void **state)
{
    (void)state;
    static const char *const DWS[] = { "simt.paths=dws", NULL };
    ls_gpu *g = mk(DWS);
    ls_module *m;
    assert_int_equal(ls_module_load_text(g, "bark.ptx", BARK, strlen(BARK), &m), LS_OK);
    ls_dptr q;
    uint32_t h[64];
    assert_int_equal(ls_malloc(g, &q, sizeof h), LS_OK);
    void *args[] = { &q };
    ls_stats s;
    if (ls_launch(g, m, "bark", (ls_dim3){1, 1, 1}, (ls_dim3){64, 1, 1}, 0, args,
                  &s) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    assert_int_equal(ls_memcpy_dtoh(g, h, q, sizeof h), LS_OK);
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t j = i ^ 32;
        assert_int_equal(h[i], j + (j < 16 ? 200 : 100));
    }
    assert_int_equal(s.dpe_paths, 2);
    assert_int_equal(s.dpe.single, 0);
    assert_int_equal(s.dpe.subdivided, 1);      /* warp 0 (warp 1: uniform) */
    assert_int_equal(s.dpe.created, 2);
    assert_int_equal(s.dpe.merges, 1);          /* at J */
    assert_true(s.dpe.path_sum > s.dpe.issued); /* two splits a while */
    /* two barriers: a clear error naming the cause, not a silent hang */
    assert_int_equal(ls_module_load_text(g, "tb.ptx", TWOBAR, strlen(TWOBAR), &m), LS_OK);
    assert_int_not_equal(ls_launch(g, m, "twobar", (ls_dim3){1, 1, 1}, (ls_dim3){32, 1, 1},
                                   0, NULL, &s), LS_OK);
    const char *e = ls_gpu_error(g);
    if (!strstr(e, "dynamic warp subdivision: CTA barrier inside divergent code"))
        fail_msg("%s", e);
    ls_gpu_destroy(g);
    /* the threshold: dws.n=0 refuses the split (J's block is longer):
     * the stack serialises, nothing is subdivided */
    static const char *const DWS0[] = { "simt.paths=dws", "dws.n=0", NULL };
    g = mk(DWS0);
    assert_int_equal(ls_module_load_text(g, "bark.ptx", BARK, strlen(BARK), &m), LS_OK);
    assert_int_equal(ls_malloc(g, &q, sizeof h), LS_OK);
    if (ls_launch(g, m, "bark", (ls_dim3){1, 1, 1}, (ls_dim3){64, 1, 1}, 0, args,
                  &s) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    assert_int_equal(s.dpe.subdivided, 0);
    assert_int_equal(s.dpe.refused, 1);
    assert_int_equal(s.dpe.path_sum, s.dpe.issued);
    ls_gpu_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fig32),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_lanes_bound),
        cmocka_unit_test(test_barrier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
