/* cmocka tests of the DAC decoupling transform (csim/ptx/ptx_dac.h,
 * docs/dac.md "The transform"): hand-written kernels, each with the
 * stream of every instruction ('a' affine only, 'm' main only, 'b' both)
 * and its queue op ('D' enq/deq.data, 'A' .addr, 'P' .pred): a vecadd-like
 * kernel, a load under a data-dependent branch, the loop of the paper's
 * Fig 4, barriers, and a value with both decoupled and main-stream uses;
 * each with a mutant that must change the answer. Faults injected into a
 * transform's record must make ptx_dac_check fail. Then every committed
 * workload: the transform passes its invariants, its counts add up, two
 * runs agree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ptx/ptx_affine.h"
#include "ptx/ptx_dac.h"
#include "ptx/ptx_ir.h"
#include "workloads/wl_ptx.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

/* A kernel k(p0, n) around body, registers %p<16> %r<32> %rd<16> %f<8>. */
static char *kernel(const char *body)
{
    static const char pre[] =
        HDR ".visible .entry k(.param .u64 k_p0, .param .u32 k_n)\n{\n"
        " .reg .pred %p<16>;\n .reg .b32 %r<32>;\n .reg .b64 %rd<16>;\n"
        " .reg .f32 %f<8>;\n";
    size_t n = sizeof pre + strlen(body) + 8;
    char *s = malloc(n);
    assert_non_null(s);
    snprintf(s, n, "%s%s\n}\n", pre, body);
    return s;
}

/* One transformed kernel. */
struct xf {
    char *src;
    struct ptx_module *m;
    const struct ptx_func *f;
    struct ptx_affine_inst *aff;
    struct ptx_dac_inst *out;
    struct ptx_dac_stats st;
};

/* The transform of body with analysis options aopt (PTX_AFF_OPT_*) and
 * transform options dopt (PTX_DAC_OPT_*). */
static void xf_build_flags(struct xf *x, const char *body, unsigned aopt, unsigned dopt)
{
    struct ptx_diag d;
    x->src = kernel(body);
    x->m = NULL;
    int rc = ptx_parse("t.ptx", x->src, strlen(x->src), &x->m, &d);
    if (rc)
        fprintf(stderr, "%s\n", d.msg);
    assert_int_equal(rc, 0);
    x->f = ptx_find_func(x->m, "k");
    assert_non_null(x->f);
    x->aff = calloc(x->f->ninsts + 1, sizeof *x->aff);
    x->out = calloc(x->f->ninsts + 1, sizeof *x->out);
    assert_true(x->aff && x->out);
    assert_int_equal(ptx_affine_analyse_opt(x->f, x->aff, NULL, &d, aopt), 0);
    rc = ptx_dac_build_opt(x->f, x->aff, x->out, &x->st, &d, dopt);
    if (rc)
        fprintf(stderr, "%s\n", d.msg);
    assert_int_equal(rc, 0);
    rc = ptx_dac_check(x->f, x->aff, x->out, &d);
    if (rc)
        fprintf(stderr, "%s\n", d.msg);
    assert_int_equal(rc, 0);
}

/* The transform of body with the masks of data-dependent branches fed
 * back (feed: PTX_DAC_OPT_FEED, the analysis with every option) or not
 * (the analysis without PTX_AFF_OPT_FEED). */
static void xf_build_opt(struct xf *x, const char *body, bool feed)
{
    xf_build_flags(x, body, feed ? PTX_AFF_OPT_ALL : PTX_AFF_OPT_PRED,
                   feed ? PTX_DAC_OPT_FEED : 0);
}

static void xf_build(struct xf *x, const char *body)
{
    xf_build_opt(x, body, true);
}

static void xf_free(struct xf *x)
{
    free(x->aff);
    free(x->out);
    ptx_module_free(x->m);
    free(x->src);
}

static void xf_strings(const struct xf *x, char *streams, char *q, size_t n)
{
    assert_true(x->f->ninsts < n);
    for (uint32_t pc = 0; pc < x->f->ninsts; pc++) {
        unsigned s = x->out[pc].streams;
        streams[pc] = s == (PTX_DAC_S_AFF | PTX_DAC_S_MAIN) ? 'b' :
                      s == PTX_DAC_S_AFF ? 'a' : s == PTX_DAC_S_MAIN ? 'm' : '?';
        q[pc] = ".DAPM"[x->out[pc].q <= PTX_DAC_Q_MASK ? x->out[pc].q : 0];
    }
    streams[x->f->ninsts] = q[x->f->ninsts] = 0;
}

static void expect_opt(const char *body, const char *want_s, const char *want_q, bool feed)
{
    struct xf x;
    char s[128], q[128];
    xf_build_opt(&x, body, feed);
    xf_strings(&x, s, q, sizeof s);
    if (strcmp(s, want_s) || strcmp(q, want_q))
        fprintf(stderr, "streams %s queues %s, want %s %s, of:\n%s\n", s, q, want_s,
                want_q, body);
    assert_string_equal(s, want_s);
    assert_string_equal(q, want_q);
    xf_free(&x);
}

static void expect(const char *body, const char *want_s, const char *want_q)
{
    expect_opt(body, want_s, want_q, true);
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

static void expect_mutant_opt(const char *body, const char *from, const char *to,
                              const char *want_s, const char *want_q, bool feed)
{
    char *s = mutate(body, from, to);
    expect_opt(s, want_s, want_q, feed);
    free(s);
}

static void expect_mutant(const char *body, const char *from, const char *to,
                          const char *want_s, const char *want_q)
{
    expect_mutant_opt(body, from, to, want_s, want_q, true);
}

static const char vecadd[] =
    " ld.param.u64 %rd1, [k_p0];\n"           /* 0 */
    " ld.param.u32 %r1, [k_n];\n"             /* 1 */
    " mov.u32 %r2, %ctaid.x;\n"               /* 2 */
    " mov.u32 %r3, %ntid.x;\n"                /* 3 */
    " mov.u32 %r4, %tid.x;\n"                 /* 4 */
    " mad.lo.s32 %r5, %r2, %r3, %r4;\n"       /* 5 */
    " setp.ge.s32 %p1, %r5, %r1;\n"           /* 6 */
    " @%p1 bra DONE;\n"                       /* 7  enq.pred */
    " cvta.to.global.u64 %rd2, %rd1;\n"       /* 8 */
    " mul.wide.s32 %rd3, %r5, 4;\n"           /* 9 */
    " add.s64 %rd4, %rd2, %rd3;\n"            /* 10 */
    " ld.global.f32 %f1, [%rd4];\n"           /* 11 enq.data */
    " ld.global.f32 %f2, [%rd4+4096];\n"      /* 12 enq.data */
    " add.f32 %f3, %f1, %f2;\n"               /* 13 main */
    " st.global.f32 [%rd4+8192], %f3;\n"      /* 14 enq.addr */
    "DONE:\n"
    " ret;";                                  /* 15 */

/* Both loads enq.data, the store enq.addr, the bound check enq.pred; the
 * index math leaves the main stream. */
static void vecadd_like(void **state)
{
    (void)state;
    expect(vecadd, "aaaaaaab" "aaabbmbb", ".......P" "...DD.A.");
    struct xf x;
    xf_build(&x, vecadd);
    assert_int_equal(x.st.nenq_data, 2);
    assert_int_equal(x.st.nenq_addr, 1);
    assert_int_equal(x.st.nenq_pred, 1);
    assert_int_equal(x.st.nload_gl, 2);
    assert_int_equal(x.st.nload_gl_dec, 2);
    assert_int_equal(x.st.nmain, 6);
    assert_int_equal(x.st.nremoved, 10);
    assert_int_equal(x.out[11].qreg, x.f->insts[11].o[1].reg);
    /* the store comes after both loads, on no path before them */
    assert_int_equal(x.st.nload_after_wr, 0);
    xf_free(&x);
    /* the value stored read back through a generic pointer: enq.addr */
    expect_mutant(vecadd, "ld.global.f32 %f2", "ld.f32 %f2",
                  "aaaaaaab" "aaabbmbb", ".......P" "...DA.A.");
    /* a pointer chase: the address loaded, so that load stays whole in
       the main stream (the load of the pointer itself decouples) */
    expect_mutant(vecadd, "ld.global.f32 %f1, [%rd4];",
                  "ld.global.u64 %rd5, [%rd4];\n ld.global.f32 %f1, [%rd5];",
                  "aaaaaaab" "aaabmbmbb", ".......P" "...D.D.A.");
}

static bool all_walks_agree(const struct ptx_func *f, const struct ptx_dac_inst *out,
                            unsigned n, uint64_t *ndeq);

static const char bounds[] =
    " ld.param.u64 %rd1, [k_p0];\n"           /* 0 */
    " ld.param.u32 %r1, [k_n];\n"             /* 1 */
    " mov.u32 %r2, %tid.x;\n"                 /* 2 */
    " mov.u32 %r3, %ctaid.x;\n"               /* 3 */
    " setp.ge.s32 %p1, %r2, %r1;\n"           /* 4 */
    " setp.ge.s32 %p2, %r3, %r1;\n"           /* 5 */
    " or.pred %p3, %p2, %p1;\n"               /* 6 two affine compares */
    " @%p3 bra DONE;\n"                       /* 7 enq.pred */
    " mul.wide.s32 %rd2, %r2, 4;\n"           /* 8 */
    " add.s64 %rd3, %rd1, %rd2;\n"            /* 9 */
    " ld.global.f32 %f1, [%rd3];\n"           /* 10 enq.data */
    " setp.lt.s32 %p4, %r2, 16;\n"            /* 11 */
    " add.s64 %rd4, %rd3, 4096;\n"            /* 12 */
    " selp.b64 %rd5, %rd3, %rd4, %p4;\n"      /* 13 a select */
    " ld.global.f32 %f2, [%rd5];\n"           /* 14 enq.data */
    " add.f32 %f3, %f1, %f2;\n"               /* 15 main */
    " st.global.f32 [%rd3+8192], %f3;\n"      /* 16 enq.addr */
    "DONE:\n"
    " ret;";                                  /* 17 */

/* The bounds check nvcc emits for if (row < M && col < N) (matmul's): a
 * boolean combination of two affine compares is an affine predicate the
 * PEU combines (4.3), so the loads under it decouple, and so does a load
 * at an address selected by an affine predicate (selp). Without the
 * combination (dac.pred_combine=off) the or.pred is data: with feedback
 * the branch's masks are fed back instead, without it nothing under the
 * branch decouples. */
static void bounds_check(void **state)
{
    (void)state;
    expect(bounds, "aaaaaaab" "aabaaabmbb", ".......P" "..D...D.A.");
    struct xf x;
    xf_build(&x, bounds);
    assert_int_equal(x.st.nload_gl_dec, 2);
    assert_int_equal(x.aff[13].sel, 1);
    assert_int_equal(x.aff[14].sel, 1);
    /* the selp makes a select in the affine warp; nothing else does */
    for (uint32_t pc = 0; pc < x.f->ninsts; pc++)
        assert_int_equal(x.out[pc].sel, pc == 13);
    struct ptx_diag d;
    x.out[14].sel = 1;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), -1);
    assert_non_null(strstr(d.msg, "select"));
    xf_free(&x);
    /* on a uniform predicate the selp is a plain value, not a select */
    char *m = mutate(bounds, "setp.lt.s32 %p4, %r2, 16", "setp.lt.s32 %p4, %r1, 16");
    xf_build(&x, m);
    assert_int_equal(x.aff[13].sel, 0);
    assert_int_equal(x.out[13].sel, 0);
    assert_true(x.out[13].streams & PTX_DAC_S_AFF);
    xf_free(&x);
    free(m);
    /* no combinations, feedback on: the branch is fed back; the select's
       load stays main (its address is not affine without PRED) */
    xf_build_flags(&x, bounds, PTX_AFF_OPT_FEED, PTX_DAC_OPT_FEED);
    assert_int_equal(x.out[7].q, PTX_DAC_Q_MASK);
    assert_int_equal(x.out[10].q, PTX_DAC_Q_DATA);
    assert_int_equal(x.out[14].q, PTX_DAC_Q_NONE);
    assert_int_equal(x.out[14].why, PTX_DAC_W_NONAFFINE);
    xf_free(&x);
    /* neither: today's matmul of the issue, no load decoupled */
    xf_build_flags(&x, bounds, 0, 0);
    assert_int_equal(x.st.nload_gl_dec, 0);
    assert_int_equal(x.out[10].why, PTX_DAC_W_DATACTL);
    assert_true(all_walks_agree(x.f, x.out, 64, NULL));
    xf_free(&x);
}

static const char data_branch[] =
    " ld.param.u64 %rd1, [k_p0];\n"           /* 0 */
    " mov.u32 %r4, %tid.x;\n"                 /* 1 */
    " mul.wide.u32 %rd3, %r4, 4;\n"           /* 2 */
    " add.s64 %rd4, %rd1, %rd3;\n"            /* 3 */
    " ld.global.u32 %r6, [%rd4];\n"           /* 4 enq.data */
    " setp.eq.s32 %p1, %r6, 0;\n"             /* 5 data */
    " @%p1 bra SKIP;\n"                       /* 6 main only */
    " ld.global.u32 %r7, [%rd4+4];\n"         /* 7 under data control */
    " st.global.u32 [%rd4+8], %r7;\n"         /* 8 */
    "SKIP:\n"
    " ret;";                                  /* 9 */

/* A load with an affine address under a data-dependent branch: the main
 * warps send the branch's masks (send.mask), the affine warp follows them
 * (recv.mask, 4.4) and decouples the accesses under it; the index math
 * leaves the main stream. Without feedback it is not decoupled (the
 * affine warp does not know which threads get there), so the main stream
 * keeps the index math it reads; the branch opens a region the affine
 * stream skips. */
static void load_under_data_branch(void **state)
{
    (void)state;
    expect(data_branch, "aaaabmbbbb", "....D.MDA.");
    struct xf x;
    xf_build(&x, data_branch);
    assert_int_equal(x.st.nmask, 1);
    assert_int_equal(x.st.nload_gl_dec, 2);
    assert_int_equal(x.out[6].qreg, x.f->insts[6].guard);
    assert_true(!x.out[6].skip && !x.out[7].skip && x.out[7].why == PTX_DAC_W_NONE);
    xf_free(&x);
    /* a region with nothing the affine warp needs is not fed back (the
       affine warp would wait for nothing): only arithmetic under it */
    expect_mutant(data_branch, " ld.global.u32 %r7, [%rd4+4];\n st.global.u32 [%rd4+8], %r7;",
                  " add.s32 %r7, %r6, 1;", "aaaabmmmb", "....D....");
    expect_opt(data_branch, "bbbbbmmmmb", "....D.....", false);
    xf_build_opt(&x, data_branch, false);
    assert_int_equal(x.out[7].why, PTX_DAC_W_DATACTL);
    assert_int_equal(x.out[6].why, PTX_DAC_W_NONAFFINE);
    assert_true(x.out[6].skip && x.out[7].skip && !x.out[9].skip);
    /* the affine stream goes on at the branch's reconvergence point */
    assert_int_equal(x.out[6].resume, 9);
    assert_int_equal(x.out[8].resume, 9);
    assert_int_equal(x.out[9].resume, -1);
    /* a skipped instruction without a place to go on */
    x.out[8].resume = -1;
    struct ptx_diag d;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), -1);
    /* or a place that is itself skipped */
    x.out[8].resume = 7;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), -1);
    x.out[8].resume = 9;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), 0);
    assert_int_equal(x.st.nload_gl, 2);
    assert_int_equal(x.st.nload_gl_dec, 1);
    xf_free(&x);
    /* the branch made affine: everything decouples and the index math
       leaves the main stream */
    expect_mutant(data_branch, "setp.eq.s32 %p1, %r6, 0", "setp.eq.s32 %p1, %r4, 0",
                  "aaaababbbb", "....D.PDA.");
}

/* dac.feedback=data (PTX_DAC_OPT_FEED_DATA): a data branch is fed back
 * only when its region holds an enq.data. The load under it keeps its
 * feedback; a region holding only a store (an enq.addr record) is skipped
 * as without feedback, the store and its index math in the main stream. */
static void feed_data_only(void **state)
{
    (void)state;
    struct xf x;
    xf_build_flags(&x, data_branch, PTX_AFF_OPT_ALL, PTX_DAC_OPT_FEED | PTX_DAC_OPT_FEED_DATA);
    char s[128], q[128];
    xf_strings(&x, s, q, sizeof s);
    assert_string_equal(s, "aaaabmbbbb");
    assert_string_equal(q, "....D.MDA.");
    xf_free(&x);
    char *st = mutate(data_branch, " ld.global.u32 %r7, [%rd4+4];\n", " add.s32 %r7, %r6, 1;\n");
    xf_build_flags(&x, st, PTX_AFF_OPT_ALL, PTX_DAC_OPT_FEED);
    xf_strings(&x, s, q, sizeof s);
    assert_string_equal(q, "....D.M.A.");   /* on: the store's address is fed */
    assert_int_equal(x.st.nmask, 1);
    xf_free(&x);
    xf_build_flags(&x, st, PTX_AFF_OPT_ALL, PTX_DAC_OPT_FEED | PTX_DAC_OPT_FEED_DATA);
    xf_strings(&x, s, q, sizeof s);
    assert_string_equal(q, "....D.....");
    assert_int_equal(x.st.nmask, 0);
    assert_true(x.out[6].skip && x.out[8].skip && !x.out[9].skip);
    assert_int_equal(x.out[8].resume, 9);
    xf_free(&x);
    free(st);
}

/* Two data-dependent branches in a row, the second alone in its block
 * (its predicate computed before the first): the shape of ISPASS LPS's
 * GPU_laplace3d and Parboil stencil's block2D_hybrid_coarsen_x. The first
 * region reconverges at the second branch, which the affine stream skips
 * too, so the affine stream goes on where the second one reconverges
 * (the affine warp follows the threads' control in lock-step, 4.4: it
 * may go on only at a place every thread of the skipped regions reaches
 * and it executes). */
static const char chained[] =
    " ld.param.u64 %rd1, [k_p0];\n"           /* 0 */
    " mov.u32 %r4, %tid.x;\n"                 /* 1 */
    " mul.wide.u32 %rd3, %r4, 4;\n"           /* 2 */
    " add.s64 %rd4, %rd1, %rd3;\n"            /* 3 */
    " ld.global.u32 %r6, [%rd4];\n"           /* 4 enq.data */
    " setp.eq.s32 %p1, %r6, 0;\n"             /* 5 data */
    " setp.eq.s32 %p2, %r6, 1;\n"             /* 6 data */
    " mov.u32 %r7, 0;\n"                      /* 7 */
    " @%p1 bra A;\n"                          /* 8 skipped */
    " add.s32 %r7, %r6, 1;\n"                 /* 9 */
    "A:\n"
    " @%p2 bra B;\n"                          /* 10 skipped, alone in its block */
    " add.s32 %r7, %r7, 2;\n"                 /* 11 */
    "B:\n"
    " st.global.u32 [%rd4+8], %r7;\n"         /* 12 enq.addr */
    " ret;";                                  /* 13 */

static void chained_data_branches(void **state)
{
    (void)state;
    for (int feed = 0; feed < 2; feed++) {
        struct xf x;
        /* with feedback too: the regions hold nothing the affine warp
           needs, so neither branch is fed back */
        xf_build_opt(&x, chained, feed);
        assert_int_equal(x.st.nmask, 0);
        assert_true(x.out[8].skip && x.out[9].skip && x.out[10].skip && x.out[11].skip);
        assert_false(x.out[12].skip);
        assert_int_equal(x.out[12].q, PTX_DAC_Q_ADDR);
        for (uint32_t pc = 8; pc <= 11; pc++)
            assert_int_equal(x.out[pc].resume, 12);
        assert_true(all_walks_agree(x.f, x.out, 64, NULL));
        /* going on at the second branch (which the affine stream skips)
           is what ptx_dac_check rejects */
        struct ptx_diag d;
        x.out[8].resume = 10;
        assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), -1);
        assert_non_null(strstr(d.msg, "goes on at a skipped"));
        xf_free(&x);
    }
    /* an instruction before the second branch: the first region goes on
       there (the affine stream passes it, main-only, and skips on) */
    char *m = mutate(chained, "A:\n", "A:\n add.s32 %r8, %r6, 3;\n");
    struct xf x;
    xf_build_opt(&x, m, false);
    assert_int_equal(x.out[8].resume, 10);
    assert_false(x.out[10].skip);
    assert_true(x.out[11].skip);
    assert_int_equal(x.out[11].resume, 13);
    assert_true(all_walks_agree(x.f, x.out, 64, NULL));
    xf_free(&x);
    free(m);
}

static const char fig4[] =
    " ld.param.u64 %rd1, [k_p0];\n"           /* 0 */
    " ld.param.u32 %r1, [k_n];\n"             /* 1 */
    " mov.u32 %r2, %ctaid.x;\n"               /* 2 */
    " mov.u32 %r3, %ntid.x;\n"                /* 3 */
    " mov.u32 %r4, %tid.x;\n"                 /* 4 */
    " mad.lo.s32 %r5, %r2, %r3, %r4;\n"       /* 5 tid */
    " mul.wide.s32 %rd2, %r5, 4;\n"           /* 6 */
    " add.s64 %rd3, %rd1, %rd2;\n"            /* 7 addrA */
    " add.s64 %rd4, %rd3, 65536;\n"           /* 8 addrB */
    " mov.u32 %r6, 0;\n"                      /* 9 i */
    " mul.wide.u32 %rd5, %r1, 4;\n"           /* 10 num * 4 */
    "LOOP:\n"
    " ld.global.u32 %r7, [%rd3];\n"           /* 11 enq.data */
    " add.s32 %r8, %r7, 1;\n"                 /* 12 main */
    " st.global.u32 [%rd4], %r8;\n"           /* 13 enq.addr */
    " add.s32 %r6, %r6, 1;\n"                 /* 14 */
    " add.s64 %rd3, %rd3, %rd5;\n"            /* 15 */
    " add.s64 %rd4, %rd4, %rd5;\n"            /* 16 */
    " setp.ne.s32 %p1, %r6, %r1;\n"           /* 17 */
    " @%p1 bra LOOP;\n"                       /* 18 enq.pred */
    " ret;";                                  /* 19 */

/* The paper's Fig 4/7: a loop with affine induction variables runs in the
 * affine stream; the main stream keeps the load (deq.data), the add, the
 * store (deq.addr) and the branch (deq.pred): 4 + ret, as in Fig 7b. */
static void affine_loop(void **state)
{
    (void)state;
    expect(fig4, "aaaaaaaaaaa" "bmbaaaabb", "..........." "D.A....P.");
    struct xf x;
    xf_build(&x, fig4);
    assert_int_equal(x.st.nmain, 5);
    /* the store of one iteration runs before the load of the next: the
       load is marked for the hardware to order */
    assert_int_equal(x.out[11].after_wr, 1);
    assert_int_equal(x.st.nload_after_wr, 1);
    xf_free(&x);
    /* the trip count from data: the loop is data control; with its masks
       fed back the addresses still decouple (the affine warp follows the
       loop branch on the main warps' masks), and the counter stays main */
    expect_mutant(fig4, "setp.ne.s32 %p1, %r6, %r1", "setp.ne.s32 %p1, %r6, %r7",
                  "aaaaaaaaama" "bmbmaambb", "..........." "D.A....M.");
    /* without feedback nothing in it decouples, everything is main */
    expect_mutant_opt(fig4, "setp.ne.s32 %p1, %r6, %r1", "setp.ne.s32 %p1, %r6, %r7",
                      "mmmmmmmmmmm" "mmmmmmmmb", "..........." ".........", false);
}

static const char barrier[] =
    " mov.u32 %r4, %tid.x;\n"                 /* 0 */
    " mul.wide.u32 %rd3, %r4, 4;\n"           /* 1 */
    " ld.param.u64 %rd1, [k_p0];\n"           /* 2 */
    " add.s64 %rd4, %rd1, %rd3;\n"            /* 3 */
    " ld.global.u32 %r6, [%rd4];\n"           /* 4 enq.data */
    " bar.sync 0;\n"                          /* 5 both */
    " ld.global.u32 %r7, [%rd4+4];\n"         /* 6 enq.data */
    " add.s32 %r8, %r6, %r7;\n"               /* 7 */
    " st.global.u32 [%rd4], %r8;\n"           /* 8 enq.addr */
    " ret;";                                  /* 9 */

/* Barriers are in both streams (Fig 7; the AEU fetches for a CTA only
 * past the barrier). A barrier under data control is in the main stream
 * only, so the affine warp cannot honour it: the global loads it reaches
 * keep enq.addr (no early fetch). */
static void barriers(void **state)
{
    (void)state;
    expect(barrier, "aaaabbbmbb", "....D.D.A.");
    /* bar.red on a data predicate: the affine warp's copy only waits, so
       the predicate stays in the main stream alone */
    expect_mutant(barrier, " bar.sync 0;",
                  " setp.ne.s32 %p3, %r6, 0;\n bar.red.popc.u32 %r9, 0, %p3;",
                  "aaaabmbbmbb", "....D..D.A.");
    /* nor does it read a barrier's other operands: a bar.warp.sync member
       mask from %laneid (cooperative groups' tiled_partition, CUDA
       samples dxtc) and a thread count stay in the main stream; before,
       the affine stream asked for them and the transform failed */
    expect_mutant(barrier, " bar.sync 0;",
                  " mov.u32 %r9, %laneid;\n and.b32 %r10, %r9, -16;\n"
                  " mov.u32 %r11, 65535;\n shl.b32 %r12, %r11, %r10;\n"
                  " bar.warp.sync %r12;",
                  "aaaabmmmmbbmbb", "....D.....D.A.");
    expect_mutant(barrier, " bar.sync 0;", " ld.param.u32 %r9, [k_n];\n bar.sync 0, %r9;",
                  "aaaabmbbmbb", "....D..D.A.");
    char *s = mutate(barrier, " bar.sync 0;\n",
                     " setp.eq.s32 %p1, %r6, 0;\n @%p1 bra SKIP;\n bar.sync 0;\nSKIP:\n");
    /* 0-3, 4 D, 5 setp, 6 data bra, 7 bar (data), 8 ld -> enq.addr */
    expect(s, "aaaabmmmbmbb", "....D...A.A.");
    struct xf x;
    xf_build(&x, s);
    assert_int_equal(x.out[8].why, PTX_DAC_W_BARRIER);
    assert_int_equal(x.st.nload_gl_dec, 1);
    xf_free(&x);
    free(s);
}

static const char local_rw[] =
    " .local .align 4 .b8 buf[16];\n"
    " mov.u64 %rd1, buf;\n"                  /* 0 */
    " mov.u32 %r4, %tid.x;\n"                /* 1 */
    " st.local.u32 [%rd1], %r4;\n"           /* 2 enq.addr */
    " ld.local.u32 %r5, [%rd1+4];\n"         /* 3 enq.addr: a local write reaches */
    " ld.param.u64 %rd2, [k_p0];\n"          /* 4 */
    " st.global.u32 [%rd2], %r5;\n"          /* 5 enq.addr */
    " ret;";                                  /* 6 */

/* A .local load that a local (or generic) write may precede is not
 * fetched early: the affine warp could read the value before the main
 * stream writes it. Without the write it is enq.data. */
static void local_writes(void **state)
{
    (void)state;
    expect(local_rw, "ambbabb", "..AA.A.");
    struct xf x;
    xf_build(&x, local_rw);
    assert_int_equal(x.out[3].why, PTX_DAC_W_LOCALWR);
    xf_free(&x);
    expect_mutant(local_rw, "st.local.u32 [%rd1], %r4;", "mov.u32 %r6, %r4;",
                  "ammbabb", "...D.A.");
    /* a generic store may hit local memory too */
    expect_mutant(local_rw, "st.local.u32 [%rd1], %r4;", "st.u32 [%rd2], %r4;",
                  "ambbabb", "..AA.A.");
}

static const char two_uses[] =
    " mov.u32 %r4, %tid.x;\n"                 /* 0 both: address and data */
    " ld.param.u64 %rd1, [k_p0];\n"           /* 1 */
    " mul.wide.u32 %rd3, %r4, 4;\n"           /* 2 */
    " add.s64 %rd4, %rd1, %rd3;\n"            /* 3 */
    " ld.global.f32 %f1, [%rd4];\n"           /* 4 enq.data */
    " cvt.rn.f32.u32 %f2, %r4;\n"             /* 5 main: reads %r4 */
    " add.f32 %f3, %f1, %f2;\n"               /* 6 */
    " st.global.f32 [%rd4], %f3;\n"           /* 7 enq.addr */
    " ret;";                                  /* 8 */

/* An instruction the affine stream needs stays in the main stream when a
 * main-stream instruction also reads it. */
static void both_uses(void **state)
{
    (void)state;
    expect(two_uses, "baaabmmbb", "....D..A.");
    expect_mutant(two_uses, "cvt.rn.f32.u32 %f2, %r4", "mov.f32 %f2, 0f3F800000",
                  "aaaabmmbb", "....D..A.");
    /* a guarded (partial) redefinition after the use does not hide it */
    expect_mutant(two_uses, " ret;", " @%p2 mov.u32 %r4, 7;\n ret;",
                  "baaabmmbmb", "....D..A..");
}

/* ---- path walks: one enq per deq on every path ------------------------- */

#define WALK_STEPS 20000u
#define WALK_MAXQ  4096u

struct walk {
    uint32_t deq[WALK_MAXQ], enq[WALK_MAXQ], dir[WALK_MAXQ];
    uint32_t ndeq, nenq, ndir;
    bool done;                   /* the main walk reached the end          */
};

static uint32_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

/* One thread's path through the main stream, branch directions drawn from
 * seed: the deq (and send.mask) pcs in order and the directions taken at
 * enq.pred branches (which the affine stream computes too) and at
 * send.mask branches (which it receives). Then the affine stream
 * along the same directions, going on at resume where it skips: the enq
 * pcs in order. */
static void walk(const struct ptx_func *f, const struct ptx_dac_inst *out, uint64_t seed,
                 struct walk *w)
{
    memset(w, 0, sizeof *w);
    uint32_t pc = 0, steps = 0;
    while (pc < f->ninsts && steps++ < WALK_STEPS && w->ndeq < WALK_MAXQ &&
           w->ndir < WALK_MAXQ) {
        const struct ptx_inst *in = &f->insts[pc];
        if (out[pc].q != PTX_DAC_Q_NONE)
            w->deq[w->ndeq++] = pc;
        if (in->op == PTX_OP_RET || in->op == PTX_OP_EXIT) {
            pc = f->ninsts;
        } else if (in->op == PTX_OP_BRA) {
            bool taken = in->guard < 0 || (lcg(&seed) & 1);
            if (out[pc].q == PTX_DAC_Q_PRED || out[pc].q == PTX_DAC_Q_MASK)
                w->dir[w->ndir++] = taken;   /* the PEU's, or the fed-back mask */
            pc = taken ? (uint32_t)in->o[0].label : pc + 1;
        } else {
            pc++;
        }
    }
    w->done = pc >= f->ninsts;
    uint32_t k = 0;
    pc = 0;
    steps = 0;
    while (pc < f->ninsts && steps++ < 4 * WALK_STEPS && w->nenq < WALK_MAXQ) {
        const struct ptx_inst *in = &f->insts[pc];
        const struct ptx_dac_inst *r = &out[pc];
        if (r->skip) {
            assert_true(r->resume >= 0);
            pc = (uint32_t)r->resume;
            continue;
        }
        if (!(r->streams & PTX_DAC_S_AFF)) {
            pc++;
            continue;
        }
        if (r->q != PTX_DAC_Q_NONE)
            w->enq[w->nenq++] = pc;
        if (in->op == PTX_OP_RET || in->op == PTX_OP_EXIT) {
            pc = f->ninsts;
        } else if (in->op == PTX_OP_BRA) {
            bool taken = true;
            if (in->guard >= 0) {
                if (k >= w->ndir)
                    break;       /* past what the main walk decided */
                taken = w->dir[k++];
            }
            pc = taken ? (uint32_t)in->o[0].label : pc + 1;
        } else {
            pc++;
        }
    }
}

/* Whether the walks of seed agree: every deq met by the enq of the same
 * instruction, in order; the same number when the main walk ended. */
static bool walks_agree(const struct ptx_func *f, const struct ptx_dac_inst *out,
                        uint64_t seed)
{
    struct walk *w = malloc(sizeof *w);
    assert_non_null(w);
    walk(f, out, seed, w);
    bool ok = !(w->done && w->ndeq < WALK_MAXQ && w->nenq != w->ndeq) &&
              !(w->nenq < w->ndeq && w->nenq < WALK_MAXQ);
    for (uint32_t i = 0; ok && i < w->ndeq && i < w->nenq; i++)
        ok = w->deq[i] == w->enq[i];
    free(w);
    return ok;
}

/* walks_agree for seeds 1..n; adds the deqs the walks met to *ndeq when
 * not NULL. */
static bool all_walks_agree(const struct ptx_func *f, const struct ptx_dac_inst *out,
                            unsigned n, uint64_t *ndeq)
{
    for (unsigned i = 1; i <= n; i++) {
        if (!walks_agree(f, out, i))
            return false;
        if (ndeq) {
            struct walk *w = malloc(sizeof *w);
            assert_non_null(w);
            walk(f, out, i, w);
            *ndeq += w->ndeq;
            free(w);
        }
    }
    return true;
}

/* Path walks on the hand-written kernels, and faults they catch. */
static void path_walks(void **state)
{
    (void)state;
    const char *const bodies[] = { vecadd, data_branch, fig4, barrier, local_rw, two_uses };
    for (unsigned i = 0; i < sizeof bodies / sizeof bodies[0]; i++)
        for (int feed = 0; feed < 2; feed++) {
            struct xf x;
            xf_build_opt(&x, bodies[i], feed);
            assert_true(all_walks_agree(x.f, x.out, 64, NULL));
            xf_free(&x);
        }
    struct xf x;
    xf_build(&x, data_branch);
    /* the fed-back branch made main-only: the affine stream falls into its
       region and enqueues for threads that branched around it */
    x.out[6].streams = PTX_DAC_S_MAIN;
    x.out[6].q = PTX_DAC_Q_NONE;
    assert_false(all_walks_agree(x.f, x.out, 64, NULL));
    xf_free(&x);
    xf_build(&x, vecadd);
    /* the bound check made main-only without a skipped region: the affine
       stream falls through and enqueues for threads that left */
    x.out[7].streams = PTX_DAC_S_MAIN;
    x.out[7].q = PTX_DAC_Q_NONE;
    assert_false(all_walks_agree(x.f, x.out, 64, NULL));
    xf_free(&x);
    xf_build_opt(&x, data_branch, false);
    /* the load under the data branch decoupled: the affine stream skips it */
    x.out[7].q = PTX_DAC_Q_DATA;
    assert_false(all_walks_agree(x.f, x.out, 64, NULL));
    xf_free(&x);
    xf_build(&x, fig4);
    /* the loop's exit branch without enq.pred in the main stream */
    x.out[18].q = PTX_DAC_Q_NONE;
    x.out[18].streams = PTX_DAC_S_MAIN;
    assert_false(all_walks_agree(x.f, x.out, 64, NULL));
    xf_free(&x);
}

/* Faults injected into a correct record: ptx_dac_check must name them. */
static void check_catches_faults(void **state)
{
    (void)state;
    struct ptx_diag d;
    struct xf x;
    xf_build(&x, two_uses);
    /* pc 0 dropped from the main stream although pc 5 reads it */
    x.out[0].streams = PTX_DAC_S_AFF;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), -1);
    assert_non_null(strstr(d.msg, "main stream"));
    x.out[0].streams = PTX_DAC_S_AFF | PTX_DAC_S_MAIN;
    /* pc 3 dropped from the affine stream: the enq at pc 4 reads it */
    x.out[3].streams = PTX_DAC_S_MAIN;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), -1);
    assert_non_null(strstr(d.msg, "affine stream"));
    x.out[3].streams = PTX_DAC_S_AFF;
    /* the float add moved into the affine stream */
    x.out[6].streams |= PTX_DAC_S_AFF;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), -1);
    x.out[6].streams = PTX_DAC_S_MAIN;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), 0);
    xf_free(&x);

    xf_build_opt(&x, data_branch, false);
    /* the load under data control decoupled (a mutant rule that ignores
       control): the streams would disagree on how many records */
    x.out[7].q = PTX_DAC_Q_DATA;
    x.out[7].streams = PTX_DAC_S_AFF | PTX_DAC_S_MAIN;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), -1);
    assert_non_null(strstr(d.msg, "line"));
    /* the same with the analysis wrong too (pc 7 not marked data control):
       the region check of the main-only branch still sees it */
    x.out[7].skip = 0;
    x.out[7].resume = -1;
    x.aff[7].ctl = PTX_ACTL_UNIFORM;
    x.aff[7].addr = PTX_ACLS_AFFINE;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), -1);
    assert_non_null(strstr(d.msg, "main-only branch"));
    xf_free(&x);

    xf_build(&x, data_branch);
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), 0);
    /* the fed-back branch without its queue op: the streams could part */
    x.out[6].q = PTX_DAC_Q_NONE;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), -1);
    assert_non_null(strstr(d.msg, "recv.mask"));
    /* ... or main-only: its region holds queue ops */
    x.out[6].streams = PTX_DAC_S_MAIN;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), -1);
    x.out[6].streams = PTX_DAC_S_AFF | PTX_DAC_S_MAIN;
    x.out[6].q = PTX_DAC_Q_MASK;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), 0);
    /* recv.mask on a branch whose predicate the PEU computes */
    x.aff[6].cls = PTX_ACLS_AFFINE;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), -1);
    x.aff[6].cls = PTX_ACLS_NONAFFINE;
    /* an access under data control with no fed-back branch over it */
    x.out[6].q = PTX_DAC_Q_NONE;
    x.out[6].streams = PTX_DAC_S_MAIN;
    x.out[6].skip = 1;
    x.out[6].resume = 9;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), -1);
    assert_non_null(strstr(d.msg, "not fed back"));
    xf_free(&x);

    xf_build(&x, vecadd);
    /* the branch kept in the affine stream without enq.pred */
    x.out[7].q = PTX_DAC_Q_NONE;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), -1);
    x.out[7].q = PTX_DAC_Q_PRED;
    /* the barrier-free ret dropped from the affine stream */
    x.out[15].streams = PTX_DAC_S_MAIN;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), -1);
    x.out[15].streams = PTX_DAC_S_AFF | PTX_DAC_S_MAIN;
    /* enq.data on the main-only float add */
    x.out[13].q = PTX_DAC_Q_DATA;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), -1);
    x.out[13].q = PTX_DAC_Q_NONE;
    assert_int_equal(ptx_dac_check(x.f, x.aff, x.out, &d), 0);
    xf_free(&x);
}

/* A call is a barrier the affine warp does not see (the callee may
 * synchronise or write): a global load after it is enq.addr. */
static void calls(void **state)
{
    (void)state;
    static const char src[] = HDR
        ".visible .func h()\n{\n ret;\n}\n"
        ".visible .entry k(.param .u64 k_p0)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n"
        " ld.param.u64 %rd1, [k_p0];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n"
        " add.s64 %rd3, %rd1, %rd2;\n ld.global.u32 %r2, [%rd3];\n call.uni h;\n"
        " ld.global.u32 %r3, [%rd3+4];\n ret;\n}\n";
    struct ptx_module *m = NULL;
    struct ptx_diag d;
    int rc = ptx_parse("t.ptx", src, strlen(src), &m, &d);
    if (rc)
        fprintf(stderr, "%s\n", d.msg);
    assert_int_equal(rc, 0);
    const struct ptx_func *f = ptx_find_func(m, "k");
    assert_true(f && f->ninsts == 8);
    struct ptx_affine_inst aff[8];
    struct ptx_dac_inst out[8];
    assert_int_equal(ptx_affine_analyse(f, aff, NULL, &d), 0);
    assert_int_equal(ptx_dac_build(f, aff, out, NULL, &d), 0);
    assert_int_equal(ptx_dac_check(f, aff, out, &d), 0);
    assert_int_equal(out[4].q, PTX_DAC_Q_DATA);
    assert_int_equal(out[5].streams, PTX_DAC_S_MAIN);
    assert_int_equal(out[6].q, PTX_DAC_Q_ADDR);
    assert_int_equal(out[6].why, PTX_DAC_W_BARRIER);
    ptx_module_free(m);
}

/* A .func body is not decoupled: the affine warp follows no call. */
static void not_kernel(void **state)
{
    (void)state;
    static const char src[] = HDR
        ".visible .func g(.param .u64 g_p)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n"
        " ld.param.u64 %rd1, [g_p];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n"
        " add.s64 %rd3, %rd1, %rd2;\n ld.global.u32 %r2, [%rd3];\n ret;\n}\n";
    struct ptx_module *m = NULL;
    struct ptx_diag d;
    assert_int_equal(ptx_parse("t.ptx", src, strlen(src), &m, &d), 0);
    const struct ptx_func *f = ptx_find_func(m, "g");
    struct ptx_affine_inst aff[8];
    struct ptx_dac_inst out[8];
    struct ptx_dac_stats st;
    assert_int_equal(ptx_affine_analyse(f, aff, NULL, &d), 0);
    assert_int_equal(ptx_dac_build(f, aff, out, &st, &d), 0);
    assert_int_equal(ptx_dac_check(f, aff, out, &d), 0);
    assert_int_equal(st.naff, 0);
    assert_int_equal(st.nmain, f->ninsts);
    assert_int_equal(out[4].why, PTX_DAC_W_NOTKERNEL);
    ptx_module_free(m);
}

/* Every committed workload, with and without the feedback of data-
 * dependent masks: the transform builds and passes its invariants, the
 * counts add up, two runs agree, the path walks agree, and every enq.data
 * load is one the affine analysis calls decouplable. */
static void workload_ptx_opt(bool feed)
{
    unsigned nmod = 0;
    uint64_t loads = 0, dec = 0, walked = 0;
    for (const struct wl_ptx_blob *b = wl_ptx_blobs; b->name; b++) {
        struct ptx_module *m = NULL;
        struct ptx_diag d;
        assert_int_equal(ptx_parse(b->path, b->text, b->len, &m, &d), 0);
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            const struct ptx_func *f = &m->funcs[i];
            if (!f->has_body)
                continue;
            struct ptx_affine_inst *a = calloc(f->ninsts + 1, sizeof *a);
            struct ptx_dac_inst *o1 = calloc(f->ninsts + 1, sizeof *o1);
            struct ptx_dac_inst *o2 = calloc(f->ninsts + 1, sizeof *o2);
            assert_true(a && o1 && o2);
            struct ptx_affine_stats as;
            struct ptx_dac_stats s1, s2;
            unsigned aopt = feed ? PTX_AFF_OPT_ALL : PTX_AFF_OPT_PRED;
            unsigned dopt = feed ? PTX_DAC_OPT_FEED : 0;
            assert_int_equal(ptx_affine_analyse_opt(f, a, &as, &d, aopt), 0);
            int rc = ptx_dac_build_opt(f, a, o1, &s1, &d, dopt);
            if (rc == 0)
                rc = ptx_dac_check(f, a, o1, &d);
            if (rc)
                fprintf(stderr, "%s: %s\n", b->path, d.msg);
            assert_int_equal(rc, 0);
            assert_int_equal(ptx_dac_build_opt(f, a, o2, &s2, &d, dopt), 0);
            if (!feed)
                assert_int_equal(s1.nmask, 0);
            assert_memory_equal(o1, o2, f->ninsts * sizeof *o1);
            assert_int_equal(s1.ninsts, f->ninsts);
            assert_int_equal(s1.naff + s1.nmain - s1.nboth, f->ninsts);
            assert_int_equal(s1.nremoved, s1.naff - s1.nboth);
            assert_true(s1.nload_gl_dec <= s1.nload_gl && s1.nload_gl_dec == s1.nenq_data);
            assert_true(s1.nenq_data + s1.nenq_addr == s1.nmem_dec && s1.nmem_dec <= s1.nmem);
            assert_true(s1.nenq_pred == s1.nbranch_dec && s1.nbranch_dec <= s1.nbranch);
            bool agree = all_walks_agree(f, o1, 32, &walked);
            if (!agree)
                fprintf(stderr, "%s: %s: the walks disagree\n", b->path, f->name);
            assert_true(agree);
            for (uint32_t pc = 0; pc < f->ninsts; pc++)
                if (o1[pc].q == PTX_DAC_Q_DATA)
                    assert_true(a[pc].addr == PTX_ACLS_UNIFORM ||
                                a[pc].addr == PTX_ACLS_AFFINE);
            loads += s1.nload_gl;
            dec += s1.nload_gl_dec;
            free(a);
            free(o1);
            free(o2);
        }
        ptx_module_free(m);
        nmod++;
    }
    assert_true(nmod > 0);
    assert_true(dec > 0 && dec < loads);
    assert_true(walked > 0);
    printf("dac (feedback %s): %u modules, %llu global/local loads, %llu enq.data; path "
           "walks met %llu deqs, each with its enq\n", feed ? "on" : "off", nmod,
           (unsigned long long)loads, (unsigned long long)dec, (unsigned long long)walked);
}

static void workload_ptx(void **state)
{
    (void)state;
    workload_ptx_opt(true);
    workload_ptx_opt(false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vecadd_like),
        cmocka_unit_test(bounds_check),
        cmocka_unit_test(load_under_data_branch),
        cmocka_unit_test(feed_data_only),
        cmocka_unit_test(chained_data_branches),
        cmocka_unit_test(affine_loop),
        cmocka_unit_test(barriers),
        cmocka_unit_test(local_writes),
        cmocka_unit_test(both_uses),
        cmocka_unit_test(check_catches_faults),
        cmocka_unit_test(path_walks),
        cmocka_unit_test(calls),
        cmocka_unit_test(not_kernel),
        cmocka_unit_test(workload_ptx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
