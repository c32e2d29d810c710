/* cmocka tests of the branch taint analysis (csim/ptx/ptx_taint.h,
 * docs/branch-classes.md): hand-written PTX for P (tid compare, loop over
 * ntid), D (loaded value, loaded loop bound), mixed operands, loop-carried
 * redefinitions, predicates combined by and/or/not/xor and setp's bool-op,
 * selp, guarded definitions, the carry flag, every source kind, brx.idx,
 * .func arguments and call results, control dependence, the pseudo PTX of
 * dissertation Fig 4.20; mutants of the cases (a load replaced by a
 * register, tid by the clock) flip the class, so each assertion can fail.
 * Then every committed workload PTX, the -lineinfo compiles of bfs, sortnet
 * and mandelbrot with branches found by their .cu line, and the cost on
 * the largest committed PTX and a generated 20,000-instruction kernel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "ptx/ptx_cfg.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_taint.h"
#include "workloads/wl_ptx.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

/* A kernel k(p0, n) around body, with registers %p<16> %rs<8> %r<32>
 * %rd<16> and a module .const array cv[4]. */
static char *kernel(const char *body)
{
    static const char pre[] =
        HDR ".const .align 4 .u32 cv[4];\n"
        ".visible .entry k(.param .u64 k_p0, .param .u32 k_n)\n{\n"
        " .reg .pred %p<16>;\n .reg .b16 %rs<8>;\n .reg .b32 %r<32>;\n"
        " .reg .b64 %rd<16>;\n";
    size_t n = sizeof pre + strlen(body) + 8;
    char *s = malloc(n);
    assert_non_null(s);
    snprintf(s, n, "%s%s\n}\n", pre, body);
    return s;
}

static struct ptx_module *parse(const char *src)
{
    struct ptx_module *m = NULL;
    struct ptx_diag d;
    int rc = ptx_parse("t.ptx", src, strlen(src), &m, &d);
    if (rc)
        fprintf(stderr, "%s\n", d.msg);
    assert_int_equal(rc, 0);
    return m;
}

/* The classes of f's conditional branches in PC order ("PDP") into out;
 * checks the stats against them. */
static void classes_of(const struct ptx_func *f, unsigned flags, char *out, size_t n)
{
    uint8_t *cls = malloc(f->ninsts + 1);
    assert_non_null(cls);
    struct ptx_taint_stats st;
    struct ptx_diag d;
    int rc = ptx_taint_branches(f, flags, cls, &st, &d);
    if (rc)
        fprintf(stderr, "%s\n", d.msg);
    assert_int_equal(rc, 0);
    size_t k = 0;
    unsigned np = 0, nd = 0;
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        const struct ptx_inst *in = &f->insts[pc];
        bool cond = (in->op == PTX_OP_BRA && in->guard >= 0) || in->op == PTX_OP_BRX;
        assert_int_equal(cls[pc] != PTX_BCLS_NONE, cond);
        if (!cond)
            continue;
        np += cls[pc] == PTX_BCLS_P;
        nd += cls[pc] == PTX_BCLS_D;
        assert_true(k + 1 < n);
        out[k++] = ptx_bcls_name(cls[pc])[0];
    }
    out[k] = 0;
    assert_int_equal(st.nbranch, k);
    assert_int_equal(st.np, np);
    assert_int_equal(st.nd, nd);
    assert_true(st.passes >= 1);
    free(cls);
}

/* Classes of the conditional branches of kernel k with body (flags 0, and
 * PTX_TAINT_CONTROL into ctl when ctl is not NULL). */
static void run_body(const char *body, char *out, size_t n, char *ctl)
{
    char *src = kernel(body);
    struct ptx_module *m = parse(src);
    const struct ptx_func *f = ptx_find_func(m, "k");
    assert_non_null(f);
    classes_of(f, 0, out, n);
    if (ctl)
        classes_of(f, PTX_TAINT_CONTROL, ctl, n);
    ptx_module_free(m);
    free(src);
}

static void expect(const char *body, const char *want)
{
    char got[64];
    run_body(body, got, sizeof got, NULL);
    if (strcmp(got, want))
        fprintf(stderr, "classes %s, want %s, of:\n%s\n", got, want, body);
    assert_string_equal(got, want);
}

/* body with its first `from` replaced by `to`. */
static char *mutate(const char *body, const char *from, const char *to)
{
    const char *at = strstr(body, from);
    assert_non_null(at);
    size_t n = strlen(body) - strlen(from) + strlen(to) + 1;
    char *s = malloc(n);
    assert_non_null(s);
    snprintf(s, n, "%.*s%s%s", (int)(at - body), body, to, at + strlen(from));
    return s;
}

static void expect_mutant(const char *body, const char *from, const char *to,
                          const char *want)
{
    char *s = mutate(body, from, to);
    expect(s, want);
    free(s);
}

#define LOAD_TID_ELEM                                   \
    " ld.param.u64 %rd1, [k_p0];\n"                     \
    " cvta.to.global.u64 %rd2, %rd1;\n"                 \
    " mov.u32 %r1, %tid.x;\n"                           \
    " mul.wide.u32 %rd3, %r1, 4;\n"                     \
    " add.s64 %rd4, %rd2, %rd3;\n"

static const char p_tid[] =
    " mov.u32 %r1, %tid.x;\n"
    " ld.param.u32 %r2, [k_n];\n"
    " setp.ge.u32 %p1, %r1, %r2;\n"
    " @%p1 bra $DONE;\n"
    " mov.u32 %r3, 1;\n"
    "$DONE:\n ret;";

static void p_tid_compare(void **state)
{
    (void)state;
    expect(p_tid, "P");
    expect_mutant(p_tid, "%tid.x", "%clock", "D");        /* fault: a clock */
    expect_mutant(p_tid, "ld.param.u32 %r2, [k_n]", "mov.u32 %r2, %smid", "D");
}

static const char p_loop[] =
    LOAD_TID_ELEM
    " mov.u32 %r2, %ntid.x;\n"
    " ld.param.u32 %r3, [k_n];\n"
    "$LOOP:\n"
    " mul.wide.u32 %rd3, %r1, 4;\n"
    " add.s64 %rd4, %rd2, %rd3;\n"
    " ld.global.u32 %r4, [%rd4];\n"
    " add.u32 %r4, %r4, 1;\n"
    " st.global.u32 [%rd4], %r4;\n"
    " add.u32 %r1, %r1, %r2;\n"
    " setp.lt.u32 %p1, %r1, %r3;\n"
    " @%p1 bra $LOOP;\n"
    " ret;";

/* for (i = tid; i < n; i += ntid) a[i]++: the loaded values never reach
 * the loop branch */
static void p_loop_over_ntid(void **state)
{
    (void)state;
    char got[16], ctl[16];
    run_body(p_loop, got, sizeof got, ctl);
    assert_string_equal(got, "P");
    assert_string_equal(ctl, "P");
    expect_mutant(p_loop, "add.u32 %r1, %r1, %r2", "add.u32 %r1, %r1, %r4", "D");
}

static const char d_load[] =
    LOAD_TID_ELEM
    " ld.global.u32 %r2, [%rd4];\n"
    " setp.eq.u32 %p1, %r2, 0;\n"
    " @%p1 bra $DONE;\n"
    " st.global.u32 [%rd4], %r1;\n"
    "$DONE:\n ret;";

static void d_loaded_compare(void **state)
{
    (void)state;
    expect(d_load, "D");
    expect_mutant(d_load, "ld.global.u32 %r2, [%rd4]", "mov.u32 %r2, %r1", "P");
    /* every load that is not a kernel parameter or a fixed constant */
    expect_mutant(d_load, "ld.global.u32", "ld.global.nc.u32", "D");
    expect_mutant(d_load, "ld.global.u32", "ld.u32", "D");
    expect_mutant(d_load, "ld.global.u32", "ldu.global.u32", "D");
    expect_mutant(d_load, "ld.global.u32", "ld.const.u32", "D");
    expect_mutant(d_load, "ld.global.u32 %r2, [%rd4]", "ld.const.u32 %r2, [cv+4]", "P");
}

static const char d_bound[] =
    LOAD_TID_ELEM
    " ld.global.u32 %r3, [%rd2];\n"          /* n = *p0 */
    " mov.u32 %r5, 0;\n"
    "$LOOP:\n"
    " add.u32 %r5, %r5, %r1;\n"
    " add.u32 %r1, %r1, 1;\n"
    " setp.lt.u32 %p1, %r1, %r3;\n"
    " @%p1 bra $LOOP;\n"
    " st.global.u32 [%rd4], %r5;\n"
    " ret;";

static void d_loop_bound_loaded(void **state)
{
    (void)state;
    expect(d_bound, "D");
    expect_mutant(d_bound, "ld.global.u32 %r3, [%rd2]", "ld.param.u32 %r3, [k_n]", "P");
}

static const char mixed[] =
    LOAD_TID_ELEM
    " ld.global.u32 %r2, [%rd4];\n"
    " mov.u32 %r6, %ctaid.x;\n"
    " add.u32 %r3, %r1, %r6;\n"              /* P + P      */
    " setp.lt.u32 %p1, %r3, 100;\n"
    " @%p1 bra $A;\n"
    "$A:\n"
    " add.u32 %r4, %r1, %r2;\n"              /* tid + data */
    " setp.lt.u32 %p2, %r4, 100;\n"
    " @%p2 bra $B;\n"
    "$B:\n"
    " mad.lo.u32 %r5, %r1, 3, %r2;\n"        /* data as the addend */
    " setp.lt.u32 %p3, %r5, 100;\n"
    " @%p3 bra $C;\n"
    "$C:\n ret;";

static void mixed_is_d(void **state)
{
    (void)state;
    expect(mixed, "PDD");
}

static const char carried[] =
    LOAD_TID_ELEM
    "$LOOP:\n"
    " setp.eq.u32 %p1, %r1, 0;\n"            /* %r1: tid, then loaded */
    " @%p1 bra $DONE;\n"
    " mul.wide.u32 %rd3, %r1, 4;\n"
    " add.s64 %rd4, %rd2, %rd3;\n"
    " ld.global.u32 %r1, [%rd4];\n"
    " bra.uni $LOOP;\n"
    "$DONE:\n ret;";

static void loop_carried_redefinition(void **state)
{
    (void)state;
    expect(carried, "D");
    expect_mutant(carried, "ld.global.u32 %r1, [%rd4]", "add.u32 %r1, %r1, 7", "P");
    /* the reaching definition from the back edge needs a second pass */
    char *src = kernel(carried);
    struct ptx_module *m = parse(src);
    uint8_t cls[64];
    struct ptx_taint_stats st;
    assert_int_equal(ptx_taint_branches(ptx_find_func(m, "k"), 0, cls, &st, NULL), 0);
    assert_true(st.passes >= 2);
    ptx_module_free(m);
    free(src);
}

/* Fig 4.20: "Taint is cleared by an immediate value" */
static const char cleared[] =
    LOAD_TID_ELEM
    " ld.global.u32 %r2, [%rd4];\n"
    " mov.u32 %r2, 100;\n"
    " setp.gt.u32 %p1, %r2, %r1;\n"
    " @%p1 bra $DONE;\n"
    "$DONE:\n ret;";

static void immediate_clears(void **state)
{
    (void)state;
    expect(cleared, "P");
    expect_mutant(cleared, "mov.u32 %r2, 100", "add.u32 %r2, %r2, 100", "D");
}

static const char preds[] =
    LOAD_TID_ELEM
    " ld.param.u32 %r2, [k_n];\n"
    " ld.global.u32 %r3, [%rd4];\n"
    " setp.lt.u32 %p1, %r1, %r2;\n"          /* P */
    " setp.eq.u32 %p2, %r3, 0;\n"            /* D */
    " setp.eq.u32 %p9, %r1, 0;\n"            /* P */
    " and.pred %p3, %p1, %p2;\n @%p3 bra $L1;\n$L1:\n"
    " or.pred %p4, %p1, %p9;\n @%p4 bra $L2;\n$L2:\n"
    " not.pred %p5, %p2;\n @%p5 bra $L3;\n$L3:\n"
    " setp.lt.and.u32 %p6, %r1, 7, %p2;\n @%p6 bra $L4;\n$L4:\n"
    " setp.lt.or.u32 %p7, %r1, 7, !%p1;\n @%p7 bra $L5;\n$L5:\n"
    " @!%p1 bra $L6;\n$L6:\n"
    " xor.pred %p8, %p1, %p2;\n @!%p8 bra $L7;\n$L7:\n"
    " setp.lt.u32 %p10|%p11, %r3, %r1;\n @%p11 bra $L8;\n$L8:\n"
    " ret;";

static void predicates_combined(void **state)
{
    (void)state;
    expect(preds, "DPDDPPDD");
    expect_mutant(preds, "setp.eq.u32 %p2, %r3, 0", "setp.eq.u32 %p2, %r2, 0", "PPPPPPPD");
}

static const char selps[] =
    LOAD_TID_ELEM
    " ld.param.u32 %r2, [k_n];\n"
    " ld.global.u32 %r3, [%rd4];\n"
    " setp.lt.u32 %p1, %r1, %r2;\n"          /* P */
    " setp.eq.u32 %p2, %r3, 0;\n"            /* D */
    " selp.u32 %r4, 1, 0, %p2;\n setp.ne.u32 %p3, %r4, 0;\n @%p3 bra $L1;\n$L1:\n"
    " selp.u32 %r5, %r1, %r2, %p1;\n setp.ne.u32 %p4, %r5, 0;\n @%p4 bra $L2;\n$L2:\n"
    " selp.u32 %r6, %r1, %r3, %p1;\n setp.ne.u32 %p5, %r6, 0;\n @%p5 bra $L3;\n$L3:\n"
    " slct.u32.s32 %r7, %r1, %r2, %r3;\n setp.ne.u32 %p6, %r7, 0;\n @%p6 bra $L4;\n$L4:\n"
    " mov.u32 %r8, 0;\n @%p2 mov.u32 %r8, 1;\n setp.ne.u32 %p7, %r8, 0;\n @%p7 bra $L5;\n$L5:\n"
    " mov.u32 %r9, 0;\n @%p1 mov.u32 %r9, 1;\n setp.ne.u32 %p8, %r9, 0;\n @%p8 bra $L6;\n$L6:\n"
    " ret;";

/* selp by a D predicate, a D operand; a guarded (if-converted) definition */
static void selp_and_guards(void **state)
{
    (void)state;
    expect(selps, "DPDDDP");
}

static const char carry[] =
    LOAD_TID_ELEM
    " ld.global.u32 %r3, [%rd4];\n"
    " add.cc.u32 %r7, %r3, 1;\n addc.u32 %r8, 0, 0;\n"
    " setp.ne.u32 %p1, %r8, 0;\n @%p1 bra $L1;\n$L1:\n"
    " add.cc.u32 %r7, %r1, 1;\n addc.u32 %r9, 0, 0;\n"
    " setp.ne.u32 %p2, %r9, 0;\n @%p2 bra $L2;\n$L2:\n"
    " ret;";

static void carry_flag(void **state)
{
    (void)state;
    expect(carry, "DP");
}

/* Every source kind, one branch each. */
static const char sources[] =
    LOAD_TID_ELEM
    " mov.u32 %r2, %laneid;\n setp.eq.u32 %p1, %r2, 0;\n @%p1 bra $S1;\n$S1:\n"
    " mov.u32 %r2, %warpid;\n setp.eq.u32 %p1, %r2, 0;\n @%p1 bra $S2;\n$S2:\n"
    " mov.u32 %r2, %nctaid.y;\n setp.eq.u32 %p1, %r2, 0;\n @%p1 bra $S3;\n$S3:\n"
    " mov.u32 %r2, %lanemask_lt;\n setp.eq.u32 %p1, %r2, 0;\n @%p1 bra $S4;\n$S4:\n"
    " ld.const.u32 %r2, [cv];\n setp.eq.u32 %p1, %r2, 0;\n @%p1 bra $S5;\n$S5:\n"
    " mov.u64 %rd5, cv;\n setp.eq.u64 %p1, %rd5, 0;\n @%p1 bra $S6;\n$S6:\n"
    /* D from here */
    " mov.u32 %r2, %smid;\n setp.eq.u32 %p1, %r2, 0;\n @%p1 bra $D1;\n$D1:\n"
    " mov.u64 %rd5, %clock64;\n setp.eq.u64 %p1, %rd5, 0;\n @%p1 bra $D2;\n$D2:\n"
    " mov.u64 %rd5, %globaltimer;\n setp.eq.u64 %p1, %rd5, 0;\n @%p1 bra $D3;\n$D3:\n"
    " mov.u64 %rd5, cv;\n ld.const.u32 %r2, [%rd5];\n setp.eq.u32 %p1, %r2, 0;\n"
    " @%p1 bra $D4;\n$D4:\n"
    " ld.shared.u32 %r2, [%rd4];\n setp.eq.u32 %p1, %r2, 0;\n @%p1 bra $D5;\n$D5:\n"
    " ld.local.u32 %r2, [%rd4];\n setp.eq.u32 %p1, %r2, 0;\n @%p1 bra $D6;\n$D6:\n"
    " atom.global.add.u32 %r2, [%rd4], 1;\n setp.eq.u32 %p1, %r2, 0;\n @%p1 bra $D7;\n$D7:\n"
    " shfl.sync.idx.b32 %r2, %r1, 0, 31, -1;\n setp.eq.u32 %p1, %r2, 0;\n @%p1 bra $D8;\n$D8:\n"
    " setp.eq.u32 %p2, %r1, 0;\n vote.sync.all.pred %p1, %p2, -1;\n @%p1 bra $D9;\n$D9:\n"
    " activemask.b32 %r2;\n setp.eq.u32 %p1, %r2, 0;\n @%p1 bra $D10;\n$D10:\n"
    " match.any.sync.b32 %r2, %r1, -1;\n setp.eq.u32 %p1, %r2, 0;\n @%p1 bra $D11;\n$D11:\n"
    " bar.red.popc.u32 %r2, 0, %p2;\n setp.eq.u32 %p1, %r2, 0;\n @%p1 bra $D12;\n$D12:\n"
    " ret;";

static void source_kinds(void **state)
{
    (void)state;
    expect(sources, "PPPPPPDDDDDDDDDDDD");
}

static const char brx[] =
    LOAD_TID_ELEM
    " and.b32 %r2, %r1, 1;\n"
    " $ts: .branchtargets $A, $B;\n"
    " brx.idx %r2, $ts;\n"
    "$A:\n"
    " ld.global.u32 %r3, [%rd4];\n"
    " and.b32 %r4, %r3, 1;\n"
    " brx.idx %r4, $ts;\n"
    "$B:\n"
    " setp.eq.u32 %p1, %r3, 0;\n"
    " @%p1 brx.idx %r2, $ts;\n"
    " ret;";

/* brx.idx by its index, and by its guard */
static void brx_index(void **state)
{
    (void)state;
    expect(brx, "PDD");
}

/* A .func's arguments are unknown (no interprocedural analysis) and so is
 * what a call returns. */
static void func_args_and_calls(void **state)
{
    (void)state;
    const char *src =
        HDR
        ".func (.param .b32 f_ret) f(.param .b32 f_a)\n{\n"
        " .reg .pred %p<2>;\n .reg .b32 %r<4>;\n"
        " ld.param.b32 %r1, [f_a];\n setp.eq.u32 %p1, %r1, 0;\n @%p1 bra $L;\n"
        " mov.u32 %r2, %tid.x;\n setp.eq.u32 %p1, %r2, 0;\n @%p1 bra $L;\n"
        "$L:\n st.param.b32 [f_ret], %r1;\n ret;\n}\n"
        ".visible .entry k(.param .u32 k_n)\n{\n"
        " .reg .pred %p<2>;\n .reg .b32 %r<4>;\n"
        " ld.param.u32 %r1, [k_n];\n"
        " {\n .param .b32 param0;\n st.param.b32 [param0], %r1;\n"
        " .param .b32 retval0;\n call.uni (retval0), f, (param0);\n"
        " ld.param.b32 %r2, [retval0];\n }\n"
        " setp.eq.u32 %p1, %r2, 0;\n @%p1 bra $E;\n"
        "$E:\n ret;\n}\n";
    struct ptx_module *m = parse(src);
    char got[16];
    classes_of(ptx_find_func(m, "f"), 0, got, sizeof got);
    assert_string_equal(got, "DP");
    classes_of(ptx_find_func(m, "k"), 0, got, sizeof got);
    assert_string_equal(got, "D");
    ptx_module_free(m);
}

static const char ctrl[] =
    LOAD_TID_ELEM
    " ld.global.u32 %r3, [%rd4];\n"
    " setp.eq.u32 %p2, %r3, 0;\n"
    " @%p2 bra $ELSE;\n"                     /* D                         */
    " mov.u32 %r5, 1;\n"
    " setp.lt.u32 %p3, %r1, 5;\n"
    " @%p3 bra $JOIN;\n"                     /* P: tid, inside the region */
    " mov.u32 %r6, 2;\n"
    " bra.uni $JOIN;\n"
    "$ELSE:\n mov.u32 %r5, 2;\n"
    "$JOIN:\n"
    " setp.eq.u32 %p4, %r5, 1;\n"            /* which way the data sent it */
    " @%p4 bra $NEXT;\n"
    "$NEXT:\n"
    " mov.u32 %r7, 0;\n"
    "$LOOP:\n"                               /* while (a[i++]) k++;        */
    " add.u32 %r7, %r7, 1;\n"
    " setp.eq.u32 %p5, %r7, 3;\n"
    " @%p5 bra $SKIP;\n"                     /* P: k in the loop           */
    " add.u32 %r8, %r8, 1;\n"
    "$SKIP:\n"
    " ld.global.u32 %r3, [%rd4+4];\n"
    " add.s64 %rd4, %rd4, 4;\n"
    " setp.ne.u32 %p6, %r3, 0;\n"
    " @%p6 bra $LOOP;\n"                     /* D                          */
    " setp.gt.u32 %p7, %r7, 10;\n"
    " @%p7 bra $END;\n"                      /* the trip count: data        */
    "$END:\n ret;";

static void control_dependence(void **state)
{
    (void)state;
    char got[16], ctl[16];
    run_body(ctrl, got, sizeof got, ctl);
    assert_string_equal(got, "DPPPDP");      /* the paper's data flow */
    assert_string_equal(ctl, "DPDPDD");      /* with control dependence */
    /* without the D-branches nothing is control-tainted */
    char *s = mutate(ctrl, "ld.global.u32 %r3, [%rd4];", "mov.u32 %r3, %r1;");
    char *s2 = mutate(s, "ld.global.u32 %r3, [%rd4+4];", "add.u32 %r3, %r3, -1;");
    run_body(s2, got, sizeof got, ctl);
    assert_string_equal(got, "PPPPPP");
    assert_string_equal(ctl, "PPPPPP");
    free(s);
    free(s2);
}

/* The pseudo PTX program of dissertation Fig 4.20, line by line. */
static void fig_4_20(void **state)
{
    (void)state;
    expect(" mov.u32 %r2, %tid.x;\n"          /* 1: programmatic        */
           " setp.eq.u32 %p1, %r2, 0;\n"      /* 2                      */
           " @%p1 bra $JUMP_1;\n"             /* 3: P                   */
           " ld.param.u64 %rd3, [k_p0];\n"    /* 4: pointer to an array */
           " cvt.u64.u32 %rd2, %r2;\n"
           " add.s64 %rd4, %rd2, %rd3;\n"     /* 5: the address         */
           " ld.global.u32 %r5, [%rd4];\n"    /* 6: data array value    */
           " setp.gt.u32 %p6, %r5, 1;\n"      /* 7                      */
           " @%p6 bra $JUMP_2;\n"             /* 8: D                   */
           " mov.u32 %r2, 100;\n"             /* 9: cleared             */
           " setp.eq.u32 %p1, %r2, 0;\n"
           " @%p1 bra $JUMP_2;\n"
           "$JUMP_1:\n$JUMP_2:\n ret;", "PDP");
}

/* No body: nothing to classify; no CFG: an error naming the function. */
static void edge_cases(void **state)
{
    (void)state;
    const char *src = HDR ".extern .func (.param .b32 r) vprintf(.param .b64 a, "
                      ".param .b64 b);\n"
                      ".visible .entry e()\n{\n ret;\n}\n";
    struct ptx_module *m = parse(src);
    uint8_t cls[4] = { 9, 9, 9, 9 };
    struct ptx_taint_stats st;
    assert_int_equal(ptx_taint_branches(ptx_find_func(m, "vprintf"), 0, cls, &st, NULL), 0);
    assert_int_equal(st.nbranch, 0);
    assert_int_equal(ptx_taint_branches(ptx_find_func(m, "e"), 0, cls, &st, NULL), 0);
    assert_int_equal(cls[0], PTX_BCLS_NONE);
    struct ptx_func f = *ptx_find_func(m, "e");
    f.cfg = NULL;
    struct ptx_diag d;
    memset(&d, 0, sizeof d);
    assert_int_equal(ptx_taint_branches(&f, 0, cls, &st, &d), -1);
    assert_non_null(strstr(d.msg, "function e (line 5)"));
    assert_non_null(strstr(d.msg, "no control-flow graph"));
    assert_int_equal(d.line, 5);
    ptx_module_free(m);
    /* a hand-built instruction naming a register the function lacks */
    char *ksrc = kernel(p_tid);
    m = parse(ksrc);
    f = *ptx_find_func(m, "k");
    struct ptx_inst *ins = malloc(f.ninsts * sizeof *ins);
    assert_non_null(ins);
    memcpy(ins, f.insts, f.ninsts * sizeof *ins);
    f.insts = ins;
    uint8_t kcls[16];
    assert_int_equal(ptx_taint_branches(&f, 0, kcls, &st, &d), 0);
    ins[2].o[2].reg = (int32_t)f.nregs + 3;          /* setp's a */
    assert_int_equal(ins[2].op, PTX_OP_SETP);
    memset(&d, 0, sizeof d);
    assert_int_equal(ptx_taint_branches(&f, 0, kcls, &st, &d), -1);
    assert_non_null(strstr(d.msg, "function k (line 5): branch taint analysis: a "
                                  "register index out of range"));
    free(ins);
    ptx_module_free(m);
    free(ksrc);
    assert_string_equal(ptx_bcls_name(PTX_BCLS_P), "P");
    assert_string_equal(ptx_bcls_name(PTX_BCLS_D), "D");
    assert_string_equal(ptx_bcls_name(PTX_BCLS_NONE), "-");
}

/* ---- committed PTX ---- */

struct wl_sum {
    unsigned modules, nbranch, np, nd, mixed;
};

/* Every function of m: both modes run, classify exactly the conditional
 * branches, give the same answer twice, and control dependence only adds
 * D-branches. */
static void check_module(const char *name, const struct ptx_module *m, struct wl_sum *s)
{
    unsigned np = 0, nd = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const struct ptx_func *f = &m->funcs[i];
        if (!f->has_body)
            continue;
        uint8_t *a = malloc(f->ninsts + 1), *b = malloc(f->ninsts + 1),
                *c = malloc(f->ninsts + 1);
        assert_true(a && b && c);
        struct ptx_taint_stats sa, sb, sc;
        assert_int_equal(ptx_taint_branches(f, 0, a, &sa, NULL), 0);
        assert_int_equal(ptx_taint_branches(f, 0, b, &sb, NULL), 0);
        assert_int_equal(ptx_taint_branches(f, PTX_TAINT_CONTROL, c, &sc, NULL), 0);
        assert_memory_equal(a, b, f->ninsts);
        for (uint32_t pc = 0; pc < f->ninsts; pc++) {
            const struct ptx_inst *in = &f->insts[pc];
            bool cond = (in->op == PTX_OP_BRA && in->guard >= 0) || in->op == PTX_OP_BRX;
            assert_int_equal(a[pc] != PTX_BCLS_NONE, cond);
            assert_int_equal(c[pc] != PTX_BCLS_NONE, cond);
            if (a[pc] == PTX_BCLS_D)
                assert_int_equal(c[pc], PTX_BCLS_D);
        }
        assert_int_equal(sa.np + sa.nd, sa.nbranch);
        assert_true(sc.nd >= sa.nd);
        np += sa.np;
        nd += sa.nd;
        free(a);
        free(b);
        free(c);
    }
    (void)name;
    s->modules++;
    s->nbranch += np + nd;
    s->np += np;
    s->nd += nd;
    s->mixed += np > 0 && nd > 0;
}

static void workload_ptx(void **state)
{
    (void)state;
    struct wl_sum s = { 0 };
    for (const struct wl_ptx_blob *b = wl_ptx_blobs; b->name; b++) {
        struct ptx_module *m = NULL;
        struct ptx_diag d;
        assert_int_equal(ptx_parse(b->path, b->text, b->len, &m, &d), 0);
        check_module(b->name, m, &s);
        ptx_module_free(m);
    }
    printf("workload PTX: %u modules, %u conditional branches: %u P, %u D; "
           "%u modules have both\n", s.modules, s.nbranch, s.np, s.nd, s.mixed);
    assert_true(s.modules >= 2);
    assert_true(s.np > 0 && s.nd > 0);
    assert_true(s.mixed > 0);
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    rewind(f);
    char *s = malloc((size_t)sz + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)sz, f), (size_t)sz);
    s[sz] = 0;
    fclose(f);
    *n = (size_t)sz;
    return s;
}

/* Classes of func's branches whose .cu line is cu_line, in PC order. */
static void at_line(const struct ptx_module *m, const char *func, uint32_t cu_line,
                    unsigned flags, char *out)
{
    const struct ptx_func *f = ptx_find_func(m, func);
    assert_non_null(f);
    uint8_t *cls = malloc(f->ninsts);
    assert_non_null(cls);
    assert_int_equal(ptx_taint_branches(f, flags, cls, NULL, NULL), 0);
    size_t k = 0;
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        uint32_t l;
        if (cls[pc] != PTX_BCLS_NONE && ptx_srcloc_of(m, f, (int32_t)pc, &l) && l == cu_line)
            out[k++] = ptx_bcls_name(cls[pc])[0];
    }
    out[k] = 0;
    free(cls);
}

/* The -lineinfo compile of a workload: same classes, PC by PC, as the
 * committed PTX (which has no line info), so what its .cu lines show holds
 * for the workload. */
static struct ptx_module *lineinfo(const char *wl, char **text)
{
    char path[128];
    snprintf(path, sizeof path, "tests/ptx/taint_%s_lineinfo.ptx", wl);
    size_t n;
    *text = slurp(path, &n);
    struct ptx_module *li = NULL, *cm = NULL;
    struct ptx_diag d;
    assert_int_equal(ptx_parse(path, *text, n, &li, &d), 0);
    const struct wl_ptx_blob *b = wl_ptx_find(wl);
    assert_non_null(b);
    assert_int_equal(ptx_parse(b->path, b->text, b->len, &cm, &d), 0);
    assert_int_equal(li->nfuncs, cm->nfuncs);
    for (uint32_t i = 0; i < li->nfuncs; i++) {
        const struct ptx_func *f = &li->funcs[i], *g = ptx_find_func(cm, f->name);
        assert_non_null(g);
        assert_int_equal(f->ninsts, g->ninsts);
        assert_non_null(f->srcloc);
        uint8_t *a = malloc(f->ninsts + 1), *c = malloc(f->ninsts + 1);
        assert_true(a && c);
        assert_int_equal(ptx_taint_branches(f, 0, a, NULL, NULL), 0);
        assert_int_equal(ptx_taint_branches(g, 0, c, NULL, NULL), 0);
        assert_memory_equal(a, c, f->ninsts);
        free(a);
        free(c);
    }
    ptx_module_free(cm);
    return li;
}

static void bfs_by_source_line(void **state)
{
    (void)state;
    char *text, got[32];
    struct ptx_module *m = lineinfo("bfs", &text);
    at_line(m, "bfs_expand", 17, 0, got);    /* if (tid < n && mask[tid])   */
    assert_string_equal(got, "PD");
    at_line(m, "bfs_expand", 22, 0, got);    /* if (!visited[id])           */
    assert_string_equal(got, "D");
    at_line(m, "bfs_expand", 20, 0, got);    /* i < row_ptr[tid + 1]        */
    assert_true(strlen(got) >= 1 && strspn(got, "D") == strlen(got));
    at_line(m, "bfs_update", 36, 0, got);    /* if (tid < n && updating[tid]) */
    assert_string_equal(got, "PD");
    ptx_module_free(m);
    free(text);
}

/* Fig 4.11(b): the comparator of a sorting network, a P direction combined
 * with data; the network's own loops and index tests are P. */
static void sortnet_by_source_line(void **state)
{
    (void)state;
    char *text, got[32];
    struct ptx_module *m = lineinfo("sortnet", &text);
    at_line(m, "oem_sort_tile", 17, 0, got);     /* if ((ka > kb) == dir)   */
    assert_true(strlen(got) >= 1 && strspn(got, "D") == strlen(got));
    at_line(m, "oem_sort_tile", 45, 0, got);     /* if (offset >= stride)   */
    assert_string_equal(got, "P");
    at_line(m, "oem_sort_tile", 42, PTX_TAINT_CONTROL, got);   /* stride loop */
    assert_true(strlen(got) >= 1 && strspn(got, "P") == strlen(got));
    at_line(m, "oem_merge_global", 62, 0, got);  /* if (c >= n / 2)         */
    assert_string_equal(got, "P");
    at_line(m, "oem_merge_global", 77, 0, got);  /* if (ka > kb)            */
    assert_string_equal(got, "D");
    ptx_module_free(m);
    free(text);
}

/* Fig 4.12(b): the bounds test against scalar parameters is P. The escape
 * test is P too: nothing from memory feeds z (docs/branch-classes.md). */
static void mandelbrot_by_source_line(void **state)
{
    (void)state;
    char *text, got[32];
    struct ptx_module *m = lineinfo("mandelbrot", &text);
    at_line(m, "mandelbrot", 11, 0, got);        /* px >= width || ...      */
    assert_true(strlen(got) >= 1 && strspn(got, "P") == strlen(got));
    at_line(m, "mandelbrot", 19, PTX_TAINT_CONTROL, got);
    assert_string_equal(got, "P");
    ptx_module_free(m);
    free(text);
}

static double ms_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) * 1e3 +
           (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/* Cost: the largest committed PTX, and a generated kernel with 4,000
 * diamonds (fresh registers each, so the sets are 8,000 bits wide) in a
 * loop whose exit is data-dependent. Diamond i tests what diamond i-1
 * defined: its loaded arm when i is odd (a D-branch), its P arm when i is
 * even (P in the data flow; D with control dependence, the odd diamond
 * before it chose which value it holds). */
static void speed(void **state)
{
    (void)state;
    const struct wl_ptx_blob *big = NULL;
    for (const struct wl_ptx_blob *b = wl_ptx_blobs; b->name; b++)
        if (!big || b->len > big->len)
            big = b;
    struct ptx_module *m = NULL;
    struct ptx_diag d;
    assert_int_equal(ptx_parse(big->path, big->text, big->len, &m, &d), 0);
    uint32_t ninsts = 0, nbr = 0;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const struct ptx_func *f = &m->funcs[i];
        uint8_t *cls = malloc(f->ninsts + 1);
        struct ptx_taint_stats st;
        assert_int_equal(ptx_taint_branches(f, PTX_TAINT_CONTROL, cls, &st, NULL), 0);
        ninsts += f->ninsts;
        nbr += st.nbranch;
        free(cls);
    }
    double ms = ms_since(&t0);
    printf("taint (data+control) of %s (%zu bytes, %u functions, %u instructions, "
           "%u branches): %.2f ms\n", big->path, big->len, m->nfuncs, ninsts, nbr, ms);
    ptx_module_free(m);

    enum { ND = 4000 };
    size_t cap = 2u << 20, k = 0;
    char *src = malloc(cap);
    assert_non_null(src);
    k += (size_t)snprintf(src + k, cap - k,
                          HDR ".visible .entry big(.param .u64 p)\n{\n"
                          " .reg .pred %%p<3>;\n .reg .b32 %%r<%d>;\n .reg .b64 %%rd<4>;\n"
                          " ld.param.u64 %%rd1, [p];\n mov.u32 %%r1, %%tid.x;\n"
                          "$L_loop:\n", 2 * ND + 8);
    for (int i = 0; i < ND; i++)
        k += (size_t)snprintf(src + k, cap - k,
                              " setp.lt.s32 %%p1, %%r%d, %d;\n"
                              " @%%p1 bra $L_%d_a;\n"
                              " add.s32 %%r%d, %%r1, %d;\n"
                              " bra.uni $L_%d_b;\n"
                              "$L_%d_a:\n ld.global.u32 %%r%d, [%%rd1+%d];\n"
                              "$L_%d_b:\n", i == 0 ? 1 : (i & 1) ? 2 * i + 1 : 2 * i,
                              i, i, 2 * i + 2, i, i, i, 2 * i + 3, 4 * i, i);
    k += (size_t)snprintf(src + k, cap - k,
                          " setp.ne.u32 %%p2, %%r%d, 0;\n @%%p2 bra $L_loop;\n ret;\n}\n",
                          2 * ND + 1);
    assert_true(k < cap);
    m = parse(src);
    const struct ptx_func *f = ptx_find_func(m, "big");
    uint8_t *cls = malloc(f->ninsts);
    assert_non_null(cls);
    for (unsigned mode = 0; mode < 2; mode++) {
        struct ptx_taint_stats st;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        assert_int_equal(ptx_taint_branches(f, mode ? PTX_TAINT_CONTROL : 0, cls, &st, NULL), 0);
        ms = ms_since(&t0);
        printf("taint (%s) of a generated kernel (%u instructions, %u blocks, %u "
               "registers, %u branches: %u P, %u D): %u passes, %.1f ms\n",
               mode ? "data+control" : "data", f->ninsts, f->cfg->nblocks, f->nregs,
               st.nbranch, st.np, st.nd, st.passes, ms);
        assert_int_equal(st.nbranch, ND + 1);
        /* data: the odd diamonds and the loop exit; control: all but the
         * first diamond (tid) */
        assert_int_equal(st.nd, mode ? ND : ND / 2 + 1);
        assert_true(ms < 3000.0);     /* generous: the shared machine is slow */
    }
    free(cls);
    ptx_module_free(m);
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(p_tid_compare),
        cmocka_unit_test(p_loop_over_ntid),
        cmocka_unit_test(d_loaded_compare),
        cmocka_unit_test(d_loop_bound_loaded),
        cmocka_unit_test(mixed_is_d),
        cmocka_unit_test(loop_carried_redefinition),
        cmocka_unit_test(immediate_clears),
        cmocka_unit_test(predicates_combined),
        cmocka_unit_test(selp_and_guards),
        cmocka_unit_test(carry_flag),
        cmocka_unit_test(source_kinds),
        cmocka_unit_test(brx_index),
        cmocka_unit_test(func_args_and_calls),
        cmocka_unit_test(control_dependence),
        cmocka_unit_test(fig_4_20),
        cmocka_unit_test(edge_cases),
        cmocka_unit_test(workload_ptx),
        cmocka_unit_test(bfs_by_source_line),
        cmocka_unit_test(sortnet_by_source_line),
        cmocka_unit_test(mandelbrot_by_source_line),
        cmocka_unit_test(speed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
