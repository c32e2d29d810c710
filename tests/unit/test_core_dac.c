/* cmocka tests of the DAC hardware in the SM timing model (csim/core/
 * core_dac.c, docs/dac.md "The hardware"), driven directly without a
 * memory system (shared-memory kernels): the affine warp runs the affine
 * stream once per batch of waiting CTAs (or per CTA with dac.batch_ctas=1),
 * its enqs become one record per warp with a non-empty
 * mask, the main warps skip the removed instructions (main + removed =
 * the functional instruction count), every record is checked; the PEU
 * cases (uniform, a contiguous run, the 32-lane fallback); queue-full
 * stalls with one-entry queues; and faults (a corrupted address tuple, a
 * flipped predicate lane, a widening that wraps, a wrong lane of a
 * vector) stop the run with a model error naming the PTX line. */
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
#include "ptx/ptx_affine.h"
#include "ptx/ptx_dac.h"
#include "core/core_dac.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"
/* %r5 = the shared address of word %tid.x of buf (%r2 = tid, %r3 = 4 tid) */
#define TID_SLOT " mov.u32 %r2, %tid.x;\n shl.b32 %r3, %r2, 2;\n" \
                 " mov.u32 %r4, buf;\n add.u32 %r5, %r4, %r3;\n"

struct harness {
    struct cfg c;
    struct ptx_module *mod;
    struct core_prog prog;
    struct core_kernel k;
    struct core_sm sm;
    struct exec_dmem dmem;
    struct ptx_dac_inst *tr;
    uint64_t sym[4];
    uint8_t param[8];
    uint64_t now;
    char err[256];
};

/* The SM's DAC unit. */
static struct core_dac *DAC(struct harness *h)
{
    return core_sm_mech(&h->sm, CORE_MECH_DAC);
}

/* Parses ptx (kernel "k", one u32 parameter n), builds its DAC transform
 * and an SM under affine.mode=dac plus the overrides (NULL-ended). */
static void h_init(struct harness *h, const char *ptx, unsigned block, uint32_t n,
                   const char *const *sets)
{
    memset(h, 0, sizeof *h);
    cfg_defaults(&h->c);
    char err[256];
    assert_int_equal(cfg_set(&h->c, "affine.mode=dac", "test", err, sizeof err), 0);
    for (const char *const *s = sets; s && *s; s++)
        assert_int_equal(cfg_set(&h->c, *s, "test", err, sizeof err), 0);
    struct ptx_diag d;
    memset(&d, 0, sizeof d);
    assert_int_equal(ptx_parse("t.ptx", ptx, strlen(ptx), &h->mod, &d), 0);
    assert_int_equal(core_prog_build(&h->prog, h->mod), 0);
    const struct ptx_func *f = ptx_find_func(h->mod, "k");
    assert_non_null(f);
    struct ptx_affine_inst *a = calloc(f->ninsts, sizeof *a);
    h->tr = calloc(f->ninsts, sizeof *h->tr);
    /* the transform as dac_prepare builds it for this config */
    unsigned aopt = (h->c.dac_pred_combine ? PTX_AFF_OPT_PRED : 0) |
                    (h->c.dac_feedback ? PTX_AFF_OPT_FEED : 0) |
                    (h->c.dac_vector ? PTX_AFF_OPT_VEC : 0);
    assert_int_equal(ptx_affine_analyse_opt(f, a, NULL, &d, aopt), 0);
    assert_int_equal(ptx_dac_build_opt(f, a, h->tr, NULL, &d,
                                       h->c.dac_feedback ? PTX_DAC_OPT_FEED : 0), 0);
    assert_int_equal(ptx_dac_check(f, a, h->tr, &d), 0);
    free(a);
    memcpy(h->param, &n, sizeof n);
    h->k.mod = h->mod;
    h->k.f = f;
    h->k.prog = &h->prog;
    h->k.sym0 = h->sym;
    h->k.sym1 = h->sym;
    h->k.frame0 = simt_frame_layout(f, 0, h->sym);
    h->k.local_stride = 64;
    h->k.param = h->param;
    h->k.param_bytes = sizeof h->param;
    h->k.shared_bytes = 4096;
    h->k.ntid[0] = block; h->k.ntid[1] = 1; h->k.ntid[2] = 1;
    h->k.nctaid[0] = 2; h->k.nctaid[1] = 1; h->k.nctaid[2] = 1;
    h->k.nthreads = block;
    h->k.nwarps = (block + 31) / 32;
    h->k.regs_per_thread = 8;
    h->k.dmem = &h->dmem;
    h->k.max_stack_depth = 16;
    h->k.mech[CORE_MECH_DAC] = h->tr;
    assert_int_equal(core_sm_init(&h->sm, &h->c, 0, 16, NULL, h->err, sizeof h->err), 0);
    assert_int_equal(core_sm_kernel(&h->sm, &h->k, 0), 0);
    assert_true(DAC(h)->active);
}

/* Runs CTAs 0 and 1 (CTA 1 from cycle `late` on) until every warp
 * finished or a cycle fails; returns the first non-zero status of
 * core_sm_cycle (0: finished). */
static int h_run_late(struct harness *h, uint64_t late)
{
    for (uint32_t x = 0; x < 2; x++) {
        if (x == 1 && late)
            break;
        uint32_t id[3] = { x, 0, 0 };
        assert_true(core_sm_fits(&h->sm));
        assert_int_equal(core_sm_launch_cta(&h->sm, id, h->now), 0);
    }
    bool second = !late;
    while (h->sm.live_warps || !second) {
        if (!second && h->now >= late) {
            uint32_t id[3] = { 1, 0, 0 };
            assert_int_equal(core_sm_launch_cta(&h->sm, id, h->now), 0);
            second = true;
            if (h->sm.v.next_try > h->now)
                h->sm.v.next_try = h->now;
        }
        if (h->sm.v.next_try <= h->now) {
            int e = core_sm_cycle(&h->sm, h->now);
            if (e)
                return e;
        }
        assert_true(h->now < 1000000);
        h->now = h->sm.v.next_try > h->now && h->sm.v.next_try != CORE_INF &&
                         (second || h->sm.v.next_try <= late)
                     ? h->sm.v.next_try : h->now + 1;
    }
    return 0;
}

static int h_run(struct harness *h)
{
    return h_run_late(h, 0);
}

static void h_free(struct harness *h)
{
    core_sm_free(&h->sm);
    core_prog_free(&h->prog);
    ptx_module_free(h->mod);
    free(h->tr);
}

/* A new harness of ptx (as h_init) run with its loads late by late cycles
 * (h_run_late); the run must pass, the DAC check's reason printed if not. */
static struct harness *h_pass(const char *ptx, unsigned block, uint32_t n,
                              const char *const *sets, uint64_t late)
{
    struct harness *h = calloc(1, sizeof *h);
    h_init(h, ptx, block, n, sets);
    int e = h_run_late(h, late);
    if (e)
        fprintf(stderr, "%s\n", DAC(h)->why);
    assert_int_equal(e, 0);
    return h;
}

/* if (tid.x < n) sm[tid.x] = tid.x + 1: the bound compare is an enq.pred,
 * the store an enq.addr; the index math leaves the main stream. */
static const char *bound_ptx = HDR
    ".visible .entry k(.param .u32 n)\n{\n"
    " .reg .b32 %r<8>;\n .reg .pred %p<2>;\n .shared .align 4 .b8 buf[1024];\n"
    " ld.param.u32 %r1, [n];\n"
    " mov.u32 %r2, %tid.x;\n"
    " setp.ge.u32 %p1, %r2, %r1;\n"
    " @%p1 bra DONE;\n"
    " shl.b32 %r3, %r2, 2;\n"
    " mov.u32 %r4, buf;\n"
    " add.u32 %r5, %r4, %r3;\n"
    " add.u32 %r6, %r2, 1;\n"
    " st.shared.u32 [%r5], %r6;\n"
    "DONE:\n"
    " ret;\n}\n";

static void test_streams_records_checks(void **state)
{
    (void)state;
    for (unsigned one = 0; one < 2; one++) {
    const char *b1[] = { "dac.batch_ctas=1", NULL };
    /* warp 1: lanes 0..7 store */
    struct harness *h = h_pass(bound_ptx, 64, 40, one ? b1 : NULL, 0);
    const struct core_dac_stats *s = &DAC(h)->st;
    /* one affine-warp pass for both waiting CTAs, or one per CTA */
    assert_int_equal(s->batches, one ? 2 : 1);
    assert_int_equal(s->batch_ctas, 2);
    assert_int_equal(s->rec_pred, 4);       /* 2 warps x 2 CTAs */
    assert_int_equal(s->rec_addr, 4);
    assert_int_equal(s->checked_pred, 4);   /* every record checked */
    assert_int_equal(s->checked_addr, 4);
    /* warp 0: every lane below 40 (uniform); warp 1: lanes 8..31 exit, a
     * contiguous run (first/last-thread check) */
    assert_int_equal(s->peu_uniform, 2);
    assert_int_equal(s->peu_two, 2);
    assert_int_equal(s->peu_full, 0);
    /* removed instructions still run functionally, without issue slots */
    assert_true(s->removed > 0);
    assert_int_equal(s->main_insts + s->removed, h->sm.v.st.warp_insts);
    /* the affine stream once per CTA, not once per warp */
    assert_true(s->aff_insts < h->sm.v.st.warp_insts / 2);
    /* the stores happened: buf[i] = i + 1 for i < 40 in both CTAs */
    for (unsigned c = 0; c < 2; c++) {
        uint32_t v[64];
        memcpy(v, h->sm.v.cta[c].shared, sizeof v);
        for (unsigned i = 0; i < 64; i++)
            assert_int_equal(v[i], i < 40 ? i + 1 : 0);
    }
    h_free(h);
    free(h);
    }
}

/* A predicate over a value that wraps every 16 threads (tid << 28): true
 * for tid % 16 < 4, two runs per warp: the PEU's 32-lane fallback. */
static void test_peu_full(void **state)
{
    (void)state;
    const char *ptx = HDR
        ".visible .entry k(.param .u32 n)\n{\n"
        " .reg .b32 %r<8>;\n .reg .pred %p<2>;\n .shared .align 4 .b8 buf[1024];\n"
        " ld.param.u32 %r1, [n];\n"
        " mov.u32 %r2, %tid.x;\n"
        " shl.b32 %r7, %r2, 28;\n"
        " setp.ge.u32 %p1, %r7, %r1;\n"
        " @%p1 bra DONE;\n"
        " shl.b32 %r3, %r2, 2;\n"
        " mov.u32 %r4, buf;\n"
        " add.u32 %r5, %r4, %r3;\n"
        " st.shared.u32 [%r5], %r2;\n"
        "DONE:\n"
        " ret;\n}\n";
    struct harness *h = calloc(1, sizeof *h);
    h_init(h, ptx, 32, 0x40000000u, NULL);
    assert_int_equal(h_run(h), 0);
    assert_int_equal(DAC(h)->st.peu_full, 2);
    assert_int_equal(DAC(h)->st.checked_pred, 2);
    assert_int_equal(DAC(h)->st.checked_addr, 2);
    h_free(h);
    free(h);
}

/* One-entry queues: the enq and the expansion stall, the results do not
 * change (four stores per warp, eight warps per CTA). */
static void test_queue_full_stalls(void **state)
{
    (void)state;
    const char *ptx = HDR
        ".visible .entry k(.param .u32 n)\n{\n"
        " .reg .b32 %r<8>;\n .shared .align 4 .b8 buf[4096];\n"
        TID_SLOT
        " st.shared.u32 [%r5], %r2;\n"
        " st.shared.u32 [%r5+1024], %r2;\n"
        " st.shared.u32 [%r5+2048], %r2;\n"
        " st.shared.u32 [%r5+3072], %r2;\n"
        " ret;\n}\n";
    const char *small[] = { "dac.atq_entries=1", "dac.addr_queue=1",
                            NULL };
    struct harness *h = calloc(1, sizeof *h);
    h_init(h, ptx, 256, 0, small);
    assert_int_equal(h_run(h), 0);
    const struct core_dac_stats *s = &DAC(h)->st;
    assert_true(s->stall_enq_full > 0);     /* ATQ full: the affine warp waits */
    assert_true(s->stall_aeu_full > 0);     /* a warp's one-record queue full */
    assert_true(s->stall_deq_empty > 0);    /* main warps wait for records */
    assert_int_equal(s->rec_addr, 2 * 8 * 4);
    assert_int_equal(s->checked_addr, 2 * 8 * 4);
    assert_true(s->occ_max <= 16);          /* one record per warp slot */
    for (unsigned c = 0; c < 2; c++)
        for (unsigned i = 0; i < 256; i++) {
            uint32_t v;
            memcpy(&v, h->sm.v.cta[c].shared + 4 * i + 3072, 4);
            assert_int_equal(v, i);
        }
    h_free(h);
    free(h);
}

/* dac.barrier_fetch (4.2: "the AEU disables expansion for the target
 * non-affine blocks; the AEU only issues memory requests for non-affine
 * blocks that pass the barrier"): the affine warp runs past the barrier,
 * but the records after it wait in the ATQ until their CTA has passed it
 * (stall_aeu_bar), with and without switching among CTAs; with `early`
 * nothing waits. Every record is still checked, results unchanged. */
static void test_barrier_hold(void **state)
{
    (void)state;
    const char *ptx = HDR
        ".visible .entry k(.param .u32 n)\n{\n"
        " .reg .b32 %r<8>;\n .shared .align 4 .b8 buf[4096];\n"
        TID_SLOT
        " st.shared.u32 [%r5], %r2;\n"
        " bar.sync 0;\n"
        " ld.shared.u32 %r6, [%r5+4];\n"
        " st.shared.u32 [%r5+2048], %r6;\n"
        " ret;\n}\n";
    const char *early[] = { "dac.barrier_fetch=early", NULL };
    const char *noswitch[] = { "dac.aeu_switch=off", NULL };
    const char *const *sets[] = { NULL, noswitch, early };
    for (unsigned v = 0; v < 3; v++) {
        struct harness *h = h_pass(ptx, 256, 0, sets[v], 0);
        const struct core_dac_stats *s = &DAC(h)->st;
        if (v < 2)
            assert_true(s->stall_aeu_bar > 0);
        else
            assert_int_equal(s->stall_aeu_bar, 0);
        assert_int_equal(s->rec_addr, 2 * 8 * 3);
        assert_int_equal(s->checked_addr, 2 * 8 * 3);
        for (unsigned c = 0; c < 2; c++)
            for (unsigned i = 0; i < 256; i++) {
                uint32_t x;
                memcpy(&x, h->sm.v.cta[c].shared + 2048 + 4 * i, 4);
                assert_int_equal(x, i < 255 ? i + 1 : 0);
            }
        h_free(h);
        free(h);
    }
}

/* dac.fault_inject: a wrong tuple or PEU mask is a model error naming the
 * PTX line of the access or branch, never a silent result. */
static void test_fault_injection(void **state)
{
    (void)state;
    const char *f1[] = { "dac.fault_inject=1", NULL };
    const char *f2[] = { "dac.fault_inject=2", NULL };
    struct harness *h = calloc(1, sizeof *h);
    h_init(h, bound_ptx, 64, 40, f1);
    assert_int_equal(h_run(h), LS_ERR_COSIM);
    assert_non_null(strstr(DAC(h)->why, "golden check failed"));
    assert_non_null(strstr(DAC(h)->why, "AEU address"));
    assert_int_equal(DAC(h)->why_line, 17);     /* the st.shared */
    h_free(h);
    h_init(h, bound_ptx, 64, 40, f2);
    assert_int_equal(h_run(h), LS_ERR_COSIM);
    assert_non_null(strstr(DAC(h)->why, "deq.pred"));
    assert_int_equal(DAC(h)->why_line, 12);     /* the bra */
    h_free(h);
    free(h);
}

/* Widening exactness (docs/dac.md): mul.wide of a 32-bit tuple whose
 * per-thread values wrap (tid << 30) is not the widened tuple: stop. */
static void test_widening_wraps(void **state)
{
    (void)state;
    const char *ptx = HDR
        ".visible .entry k(.param .u32 n)\n{\n"
        " .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n .shared .align 4 .b8 buf[64];\n"
        " mov.u32 %r2, %tid.x;\n"
        " shl.b32 %r3, %r2, %SH;\n"
        " mul.wide.u32 %rd1, %r3, 4;\n"
        " mov.u64 %rd2, buf;\n"
        " add.u64 %rd3, %rd2, %rd1;\n"
        " st.shared.u32 [%rd3], %r2;\n"
        " ret;\n}\n";
    for (unsigned wraps = 0; wraps < 2; wraps++) {
        char text[1024];
        const char *at = strstr(ptx, "%SH");
        snprintf(text, sizeof text, "%.*s%u%s", (int)(at - ptx), ptx, wraps ? 30u : 0u,
                 at + 3);
        struct harness *h = calloc(1, sizeof *h);
        h_init(h, text, 8, 0, NULL);
        int e = h_run(h);
        if (wraps) {
            assert_int_equal(e, LS_ERR_COSIM);
            assert_non_null(strstr(DAC(h)->why, "widening"));
            assert_int_equal(DAC(h)->why_line, 11);   /* the mul.wide */
        } else {
            assert_int_equal(e, 0);
            assert_true(DAC(h)->st.widen_checks >= 1);
        }
        h_free(h);
        free(h);
    }
}

/* Boolean combinations of affine predicates (4.3), the bounds-check shape
 * of real CUDA code, and a select by an affine predicate (selp): each
 * guards a store to its own array. Every enq.pred/enq.addr record is
 * checked against the functional branch and address at its deq, and the
 * stored values are those of the kernel (block 64, n = 40):
 *   A[t]: !(t >= n || t < 8)        or.pred, a branch
 *   B[t]: t >= 8 && t < 50          and.pred, a guard
 *   C[t]: (t < 8) ^ (t < 30)        xor.pred, a branch
 *   D[t]: !((t < 8) ^ (t < 30))     not.pred, a guard
 *   E[t]: t < 56 && t >= n          setp.and with a predicate operand
 *   F[sel]: (t < 30 ? t : 64) < 20  selp on an affine predicate: the
 *           compare of a select (per lane on its piece) and a selected
 *           address (F[t] for t < 8, else F[t + 64]);
 *   G[t]: g = t >= 40; if t < 30 (a guard) g = t >= 24: merged per lane;
 *   H[t]: h = t < 16; in A's region h = t < 36: merged at the join. */
static const char *bool_ptx = HDR
    ".visible .entry k(.param .u32 n)\n{\n"
    " .reg .b32 %r<16>;\n .reg .pred %p<16>;\n .shared .align 4 .b8 buf[4096];\n"
    " ld.param.u32 %r1, [n];\n"
    TID_SLOT
    " setp.ge.u32 %p1, %r2, %r1;\n"
    " setp.lt.u32 %p2, %r2, 8;\n"
    " setp.lt.u32 %p13, %r2, 16;\n"
    " or.pred %p3, %p1, %p2;\n"
    " @%p3 bra LB;\n"
    " st.shared.u32 [%r5], 1;\n"
    " setp.lt.u32 %p13, %r2, 36;\n"
    "LB:\n"
    " @%p13 st.shared.u32 [%r5+2304], 8;\n"
    " setp.lt.u32 %p9, %r2, 50;\n"
    " not.pred %p10, %p2;\n"
    " and.pred %p4, %p10, %p9;\n"
    " @%p4 st.shared.u32 [%r5+256], 2;\n"
    " setp.lt.u32 %p11, %r2, 30;\n"
    " xor.pred %p5, %p2, %p11;\n"
    " @!%p5 bra LD;\n"
    " st.shared.u32 [%r5+512], 3;\n"
    "LD:\n"
    " not.pred %p6, %p5;\n"
    " @%p6 st.shared.u32 [%r5+768], 4;\n"
    " setp.lt.and.u32 %p7, %r2, 56, %p1;\n"
    " @!%p7 bra LF;\n"
    " st.shared.u32 [%r5+1024], 5;\n"
    "LF:\n"
    " selp.u32 %r7, %r2, 64, %p11;\n"
    " setp.lt.u32 %p8, %r7, 20;\n"
    " add.u32 %r9, %r5, 256;\n"
    " selp.b32 %r8, %r5, %r9, %p2;\n"
    " @!%p8 bra LG;\n"
    " st.shared.u32 [%r8+1280], 6;\n"
    "LG:\n"
    " setp.ge.u32 %p12, %r2, 40;\n"
    " @%p11 setp.ge.u32 %p12, %r2, 24;\n"
    " @%p12 st.shared.u32 [%r5+2048], 7;\n"
    " ret;\n}\n";

static void test_predicate_combinations(void **state)
{
    (void)state;
    for (unsigned comb = 0; comb < 2; comb++) {
        const char *off[] = { "dac.pred_combine=off", NULL };
        struct harness *h = h_pass(bool_ptx, 64, 40, comb ? NULL : off, 0);
        const struct core_dac_stats *s = &DAC(h)->st;
        assert_int_equal(s->checked_pred, s->rec_pred);
        assert_int_equal(s->checked_addr, s->rec_addr + s->rec_data);
        if (comb) {
            /* four branches on combinations, 2 warps x 2 CTAs each; the
               six stores all decoupled, a record per warp with lanes
               there (per CTA: A 2, B 2, C 1, D 2, E 1, F 1); the PEU
               combined vectors */
            assert_int_equal(s->rec_pred, 4 * 4);
            assert_int_equal(s->checked_addr, 2 * (9 + 2 + 2));
            assert_true(s->peu_ops > 0);
        } else {
            /* without combinations only what needs no two affine
               predicates decouples: fewer records, no PEU operations */
            assert_true(s->rec_pred < 4 * 4);
            assert_int_equal(s->peu_ops, 0);
        }
        assert_int_equal(s->main_insts + s->removed, h->sm.v.st.warp_insts);
        for (unsigned c = 0; c < 2; c++) {
            uint32_t v[1024];
            memcpy(v, h->sm.v.cta[c].shared, sizeof v);
            for (unsigned t = 0; t < 64; t++) {
                bool lo = t < 8, ge = t >= 40, x = lo != (t < 30);
                assert_int_equal(v[t], !(ge || lo) ? 1u : 0u);
                assert_int_equal(v[64 + t], t >= 8 && t < 50 ? 2u : 0u);
                assert_int_equal(v[128 + t], x ? 3u : 0u);
                assert_int_equal(v[192 + t], !x ? 4u : 0u);
                assert_int_equal(v[256 + t], t < 56 && ge ? 5u : 0u);
                /* F: lanes t < 8 store to F[t], t in [8, 20) to F[t + 64] */
                assert_int_equal(v[320 + t], t < 8 ? 6u : 0u);
                assert_int_equal(v[384 + t], t >= 8 && t < 20 ? 6u : 0u);
                assert_int_equal(v[512 + t], (t >= 24 && t < 30) || t >= 40 ? 7u : 0u);
                assert_int_equal(v[576 + t], t < 36 ? 8u : 0u);
            }
        }
        h_free(h);
        free(h);
    }
}

/* Data-dependent control fed back (4.4): a branch on a non-affine
 * predicate (t & 6 == 2) and a loop whose trip count is t & 3; the main
 * warps send their masks, the affine warp follows them and decouples the
 * stores under them. Every mask is checked against the affine warp's
 * lanes, every record against the functional address; the values are
 * the kernel's; feedback off gives the same memory with the stores in the
 * main stream; a corrupted mask (dac.fault_inject=3) is caught by the
 * golden check of the first record it reaches. */
static const char *feed_ptx = HDR
    ".visible .entry k(.param .u32 n)\n{\n"
    " .reg .b32 %r<16>;\n .reg .pred %p<4>;\n .shared .align 4 .b8 buf[4096];\n"
    TID_SLOT
    " and.b32 %r6, %r2, 6;\n"
    " setp.eq.u32 %p1, %r6, 2;\n"
    " @%p1 bra LOOPS;\n"
    " st.shared.u32 [%r5], %r2;\n"
    "LOOPS:\n"
    " and.b32 %r7, %r2, 3;\n"
    " mov.u32 %r8, 0;\n"
    "LOOP:\n"
    " setp.ge.u32 %p2, %r8, %r7;\n"
    " @%p2 bra DONE;\n"
    " shl.b32 %r10, %r8, 8;\n"
    " add.u32 %r11, %r5, %r10;\n"
    " st.shared.u32 [%r11+1024], %r8;\n"
    " add.u32 %r8, %r8, 1;\n"
    " bra.uni LOOP;\n"
    "DONE:\n"
    " ret;\n}\n";

static void test_mask_feedback(void **state)
{
    (void)state;
    for (unsigned feed = 0; feed < 2; feed++) {
        const char *off[] = { "dac.feedback=off", NULL };
        struct harness *h = h_pass(feed_ptx, 64, 0, feed ? NULL : off, 0);
        const struct core_dac_stats *s = &DAC(h)->st;
        if (feed) {
            /* per warp: the branch, then the loop test 4 times (trip
               counts 0..3 in every warp) */
            assert_int_equal(s->rec_mask, 4 * (1 + 4));
            assert_int_equal(s->checked_mask + s->mask_dropped, s->rec_mask);
            assert_true(s->checked_mask > 0);
            /* the stores decoupled: 1 + 3 per warp */
            assert_int_equal(s->checked_addr, 4 * (1 + 3));
        } else {
            assert_int_equal(s->rec_mask, 0);
            assert_int_equal(s->checked_addr, 0);
        }
        assert_int_equal(s->checked_addr, s->rec_addr + s->rec_data);
        assert_int_equal(s->main_insts + s->removed, h->sm.v.st.warp_insts);
        for (unsigned c = 0; c < 2; c++) {
            uint32_t v[1024];
            memcpy(v, h->sm.v.cta[c].shared, sizeof v);
            for (unsigned t = 0; t < 64; t++) {
                assert_int_equal(v[t], (t & 6) != 2 ? t : 0u);
                for (unsigned i = 0; i < 3; i++)
                    assert_int_equal(v[256 + 64 * i + t], i < (t & 3) ? i : 0u);
            }
        }
        h_free(h);
        free(h);
    }
    const char *f3[] = { "dac.fault_inject=3", NULL };
    struct harness *h = calloc(1, sizeof *h);
    h_init(h, feed_ptx, 64, 0, f3);
    assert_int_equal(h_run(h), LS_ERR_COSIM);
    /* the wrong lane reaches the store's record: its check fails there */
    assert_non_null(strstr(DAC(h)->why, "golden check failed"));
    h_free(h);
    free(h);
}

/* Both CTAs of bound_ptx (40 of 64 threads in bounds) stored i + 1 in
 * shared word i of their own and left the rest 0. */
static void assert_bound_stores(struct harness *h)
{
    for (unsigned c = 0; c < 2; c++) {
        uint32_t v[64];
        memcpy(v, h->sm.v.cta[c].shared, sizeof v);
        for (unsigned i = 0; i < 64; i++)
            assert_int_equal(v[i], i < 40 ? i + 1 : 0);
    }
}

/* A CTA that arrives while a pass runs: with one pass context it waits
 * for the pass to end (cta_wait); with dac.passes=2 it starts a pass of
 * its own at once, the two passes sharing the affine warp's issue slot.
 * Every record checked, the stores right either way. */
static void test_pass_contexts(void **state)
{
    (void)state;
    for (unsigned two = 0; two < 2; two++) {
        const char *p2[] = { "dac.passes=2", NULL };
        struct harness *h = h_pass(bound_ptx, 64, 40, two ? p2 : NULL, 3);
        const struct core_dac_stats *s = &DAC(h)->st;
        assert_int_equal(s->batches, 2);
        assert_int_equal(s->batch_ctas, 2);
        assert_int_equal(s->passes_max, two ? 2 : 1);
        if (two)
            assert_int_equal(s->cta_wait, 0);
        else
            assert_true(s->cta_wait > 0);
        assert_int_equal(s->checked_pred, 4);
        assert_int_equal(s->checked_addr, 4);
        assert_bound_stores(h);
        h_free(h);
        free(h);
    }
}

/* The most ATQ entries one pass held (entries of a pass carry its batch's
 * CTA mask) in d at this cycle. */
static unsigned atq_per_pass(const struct core_dac *d)
{
    unsigned most = 0;
    for (uint32_t i = 0; i < d->atq_n; i++) {
        uint64_t c = d->atq[(d->atq_head + i) % d->atq_cap].ctas;
        unsigned n = 0;
        for (uint32_t j = 0; j < d->atq_n; j++)
            n += d->atq[(d->atq_head + j) % d->atq_cap].ctas == c;
        most = n > most ? n : most;
    }
    return most;
}

/* dac.atq_split=on: with two pass contexts and a 2-entry ATQ each pass
 * holds at most one entry, where the shared ATQ lets the older pass hold
 * both (the PEU slowed so that entries stay; CTA 1 arrives at cycle 20,
 * mid-pass). Both runs check every record and store the same values. */
static void test_atq_split(void **state)
{
    (void)state;
    unsigned most[2] = { 0, 0 };
    for (unsigned split = 0; split < 2; split++) {
        const char *sets[] = { "dac.passes=2", "dac.atq_entries=2", "dac.peu_cycles=64",
                               split ? "dac.atq_split=on" : NULL, NULL };
        struct harness *h = calloc(1, sizeof *h);
        h_init(h, bound_ptx, 64, 40, sets);
        uint32_t id0[3] = { 0, 0, 0 }, id1[3] = { 1, 0, 0 };
        assert_int_equal(core_sm_launch_cta(&h->sm, id0, 0), 0);
        for (h->now = 0; h->sm.live_warps || h->now <= 20; h->now++) {
            if (h->now == 20)
                assert_int_equal(core_sm_launch_cta(&h->sm, id1, h->now), 0);
            assert_int_equal(core_sm_cycle(&h->sm, h->now), 0);
            unsigned m = atq_per_pass(DAC(h));
            most[split] = m > most[split] ? m : most[split];
            assert_true(h->now < 100000);
        }
        const struct core_dac_stats *s = &DAC(h)->st;
        assert_int_equal(s->passes_max, 2);
        assert_int_equal(s->checked_pred, 4);
        assert_int_equal(s->checked_addr, 4);
        assert_bound_stores(h);
        h_free(h);
        free(h);
    }
    assert_int_equal(most[0], 2);
    assert_int_equal(most[1], 1);
}

/* Two data-dependent branches in a row, the second alone in its block
 * (ISPASS LPS, Parboil stencil): neither region holds anything the affine
 * warp needs, so the affine stream skips both and goes on at the second
 * one's reconvergence point (the transform follows the chain of skipped
 * regions). Every value right, the store decoupled after them, with
 * feedback on and off; a bar.warp.sync on a mask from %laneid (CUDA
 * samples dxtc) stays out of the affine warp's needs. */
static const char *chain_ptx = HDR
    ".visible .entry k(.param .u32 n)\n{\n"
    " .reg .b32 %r<16>;\n .reg .pred %p<4>;\n .shared .align 4 .b8 buf[1024];\n"
    TID_SLOT
    " and.b32 %r6, %r2, 3;\n"
    " setp.eq.u32 %p1, %r6, 0;\n"
    " setp.eq.u32 %p2, %r6, 1;\n"
    " mov.u32 %r7, 10;\n"
    " @%p1 bra A;\n"
    " add.u32 %r7, %r7, 1;\n"
    "A:\n"
    " @%p2 bra B;\n"
    " add.u32 %r7, %r7, 2;\n"
    "B:\n"
    " mov.u32 %r8, %laneid;\n"
    " and.b32 %r9, %r8, -16;\n"
    " mov.u32 %r10, 65535;\n"
    " shl.b32 %r11, %r10, %r9;\n"
    " bar.warp.sync %r11;\n"
    " st.shared.u32 [%r5], %r7;\n"
    " ret;\n}\n";

static void test_chained_skips(void **state)
{
    (void)state;
    for (unsigned feed = 0; feed < 2; feed++) {
        const char *off[] = { "dac.feedback=off", NULL };
        struct harness *h = h_pass(chain_ptx, 64, 0, feed ? NULL : off, 0);
        const struct core_dac_stats *s = &DAC(h)->st;
        assert_int_equal(s->rec_mask, 0);
        assert_int_equal(s->checked_addr, 4);      /* the store, per warp */
        assert_int_equal(s->main_insts + s->removed, h->sm.v.st.warp_insts);
        for (unsigned c = 0; c < 2; c++) {
            uint32_t v[64];
            memcpy(v, h->sm.v.cta[c].shared, sizeof v);
            for (unsigned t = 0; t < 64; t++)
                assert_int_equal(v[t], 10u + ((t & 3) != 0) + 2u * ((t & 3) != 1));
        }
        h_free(h);
        free(h);
    }
}

/* A selp on a uniform predicate is a plain value, not a select (the
 * analysis's join): Parboil cutcp's tile loop, whose count is
 * min(32, n - done) by a selp on a uniform compare, carried round the
 * loop and added to the running total. Made a select, its second
 * iteration combined two of them and the affine warp stopped ("two
 * selected values combined"). Every record checked, the stores right. */
static const char *uselp_ptx = HDR
    ".visible .entry k(.param .u32 n)\n{\n"
    " .reg .b32 %r<16>;\n .reg .pred %p<4>;\n .shared .align 4 .b8 buf[1024];\n"
    " ld.param.u32 %r1, [n];\n"
    TID_SLOT
    " mov.u32 %r6, 32;\n"
    " mov.u32 %r7, 0;\n"
    "LOOP:\n"
    " add.u32 %r8, %r7, 32;\n"
    " setp.gt.u32 %p1, %r8, %r1;\n"
    " sub.u32 %r9, %r1, %r7;\n"
    " selp.b32 %r6, %r9, %r6, %p1;\n"
    " shl.b32 %r10, %r7, 3;\n"
    " add.u32 %r11, %r5, %r10;\n"
    " st.shared.u32 [%r11], %r6;\n"
    " add.u32 %r7, %r7, %r6;\n"
    " setp.lt.u32 %p2, %r7, %r1;\n"
    " @%p2 bra LOOP;\n"
    " ret;\n}\n";

static void test_uniform_selp(void **state)
{
    (void)state;
    struct harness *h = h_pass(uselp_ptx, 64, 80, NULL, 0);
    const struct core_dac_stats *s = &DAC(h)->st;
    assert_int_equal(s->checked_addr, 4 * 3);      /* three stores per warp */
    assert_int_equal(s->checked_addr, s->rec_addr + s->rec_data);
    assert_int_equal(s->main_insts + s->removed, h->sm.v.st.warp_insts);
    for (unsigned c = 0; c < 2; c++) {
        uint32_t v[256];
        memcpy(v, h->sm.v.cta[c].shared, sizeof v);
        for (unsigned t = 0; t < 64; t++) {
            assert_int_equal(v[t], 32u);
            assert_int_equal(v[64 + t], 32u);
            assert_int_equal(v[128 + t], 16u);
        }
    }
    h_free(h);
    free(h);
}

/* min/max of an affine and a uniform value (4.6: the clamped index of
 * a stencil's border, Rodinia srad): a select by the PEU's compare of the
 * two, each thread taking its own piece; stores at the clamped indices
 * (block 64, n = 40), the third a min whose destination is its own
 * source. Every record checked against the functional address, the
 * values the kernel's; without predicate combinations a min/max of an
 * affine value is non-affine and the stores stay in the main stream. */
static const char *minmax_ptx = HDR
    ".visible .entry k(.param .u32 n)\n{\n"
    " .reg .b32 %r<16>;\n .shared .align 4 .b8 buf[4096];\n"
    " ld.param.u32 %r1, [n];\n"
    " mov.u32 %r2, %tid.x;\n"
    " mov.u32 %r4, buf;\n"
    " min.u32 %r6, %r2, %r1;\n"
    " shl.b32 %r7, %r6, 2;\n"
    " add.u32 %r8, %r4, %r7;\n"
    " st.shared.u32 [%r8], 1;\n"
    " add.s32 %r9, %r2, -20;\n"
    " max.s32 %r10, %r9, 0;\n"
    " shl.b32 %r11, %r10, 2;\n"
    " add.u32 %r12, %r4, %r11;\n"
    " st.shared.u32 [%r12+1024], 2;\n"
    " mov.u32 %r13, %r2;\n"
    " min.s32 %r13, 30, %r13;\n"
    " shl.b32 %r14, %r13, 2;\n"
    " add.u32 %r15, %r4, %r14;\n"
    " st.shared.u32 [%r15+2048], 3;\n"
    " ret;\n}\n";

static void test_minmax_selects(void **state)
{
    (void)state;
    for (unsigned comb = 0; comb < 2; comb++) {
        const char *off[] = { "dac.pred_combine=off", NULL };
        struct harness *h = h_pass(minmax_ptx, 64, 40, comb ? NULL : off, 0);
        const struct core_dac_stats *s = &DAC(h)->st;
        assert_int_equal(s->checked_addr, s->rec_addr + s->rec_data);
        if (comb) {
            /* three stores, a record per warp (2 warps x 2 CTAs) each;
               the PEU compared for every min/max */
            assert_int_equal(s->checked_addr, 3 * 4);
            assert_true(s->peu_ops > 0);
        } else {
            assert_int_equal(s->checked_addr, 0);
            assert_int_equal(s->peu_ops, 0);
        }
        assert_int_equal(s->main_insts + s->removed, h->sm.v.st.warp_insts);
        for (unsigned c = 0; c < 2; c++) {
            uint32_t v[1024];
            memcpy(v, h->sm.v.cta[c].shared, sizeof v);
            for (unsigned i = 0; i < 64; i++) {
                assert_int_equal(v[i], i <= 40 ? 1u : 0u);
                assert_int_equal(v[256 + i], i <= 43 ? 2u : 0u);
                assert_int_equal(v[512 + i], i <= 30 ? 3u : 0u);
            }
        }
        h_free(h);
        free(h);
    }
}

/* if (tid.x < n) sm[tid.x * n / 4 ...]: the affine stream's address is a
 * mul.lo of tid by the uniform n, so the store's enq waits for the mul's
 * result in the affine warp's scoreboard. */
static const char *mul_ptx = HDR
    ".visible .entry k(.param .u32 n)\n{\n"
    " .reg .b32 %r<8>;\n .reg .pred %p<2>;\n .shared .align 4 .b8 buf[4096];\n"
    " ld.param.u32 %r1, [n];\n"
    " mov.u32 %r2, %tid.x;\n"
    " setp.ge.u32 %p1, %r2, %r1;\n"
    " @%p1 bra DONE;\n"
    " mul.lo.u32 %r3, %r2, 4;\n"
    " mov.u32 %r4, buf;\n"
    " add.u32 %r5, %r4, %r3;\n"
    " add.u32 %r6, %r2, 1;\n"
    " st.shared.u32 [%r5], %r6;\n"
    "DONE:\n"
    " ret;\n}\n";

/* stall_aw_dep of mul_ptx under the overrides. */
static uint64_t aw_dep(const char *const *sets)
{
    struct harness *h = calloc(1, sizeof *h);
    h_init(h, mul_ptx, 64, 40, sets);
    assert_int_equal(h_run(h), 0);
    uint64_t dep = DAC(h)->st.stall_aw_dep;
    assert_int_equal(DAC(h)->st.checked_addr, 4);
    h_free(h);
    free(h);
    return dep;
}

/* The affine warp's results are ready after the per-opcode latency under
 * opcode_timing = class (GPGPU-Sim's table, as for a main warp): a longer
 * int MUL latency lengthens its wait by the difference; under unit the
 * op_lat_* keys do not apply. */
static void test_opcode_latency(void **state)
{
    (void)state;
    const char *c4[] = { "opcode_timing=class", "op_lat_int_mul=4", NULL };
    const char *c304[] = { "opcode_timing=class", "op_lat_int_mul=304", NULL };
    const char *u4[] = { "opcode_timing=unit", "op_lat_int_mul=4", NULL };
    const char *u304[] = { "opcode_timing=unit", "op_lat_int_mul=304", NULL };
    uint64_t a = aw_dep(c4), b = aw_dep(c304);
    assert_true(b >= a + 300);          /* one pass: the mul waited on once */
    assert_int_equal(aw_dep(u4), aw_dep(u304));
}

/* Three independent affine MULs, one per store address. */
static const char *mul3_ptx = HDR
    ".visible .entry k(.param .u32 n)\n{\n"
    " .reg .b32 %r<12>;\n .reg .pred %p<2>;\n .shared .align 4 .b8 buf[4096];\n"
    " ld.param.u32 %r1, [n];\n"
    " mov.u32 %r2, %tid.x;\n"
    " setp.ge.u32 %p1, %r2, %r1;\n"
    " @%p1 bra DONE;\n"
    " mov.u32 %r4, buf;\n"
    " mul.lo.u32 %r3, %r2, 4;\n"
    " mul.lo.u32 %r6, %r2, 4;\n"
    " mul.lo.u32 %r7, %r2, 4;\n"
    " add.u32 %r5, %r4, %r3;\n"
    " add.u32 %r8, %r4, %r6;\n"
    " add.u32 %r9, %r4, %r7;\n"
    " st.shared.u32 [%r5], %r2;\n"
    " st.shared.u32 [%r8+1024], %r2;\n"
    " st.shared.u32 [%r9+2048], %r2;\n"
    "DONE:\n"
    " ret;\n}\n";

/* The affine warp executes on the SIMT lanes (4.1): with more independent
 * MULs than ALU pipelines and a long MUL interval it waits for a free
 * pipeline (stall_aw_pipe); results unchanged. */
static void test_aw_pipeline(void **state)
{
    (void)state;
    const char *ii50[] = { "opcode_timing=class", "op_ii_int_mul=50", NULL };
    struct harness *h = calloc(1, sizeof *h);
    h_init(h, mul3_ptx, 64, 40, ii50);
    assert_true(h->sm.v.units[CORE_U_ALU] < 3);
    assert_int_equal(h_run(h), 0);
    assert_true(DAC(h)->st.stall_aw_pipe >= 40);
    assert_int_equal(DAC(h)->st.checked_addr, 3 * 4);
    for (unsigned c = 0; c < 2; c++) {
        uint32_t v[1024];
        memcpy(v, h->sm.v.cta[c].shared, sizeof v);
        for (unsigned t = 0; t < 64; t++)
            for (unsigned k = 0; k < 3; k++)
                assert_int_equal(v[256 * k + t], t < 40 ? t : 0);
    }
    h_free(h);
    free(h);
}

/* Vectors (docs/dac.md, "What the engine adds"): q = i / w and r = i % w
 * of the global index i = ctaid.x * ntid.x + tid.x + off by the uniform
 * w (.u32, or .s32 with off = -40: negative dividends, truncated
 * quotients), the affine warp evaluating them per lane once per covered
 * warp; a store at the vector address buf + 4 (64 q + r + base), the
 * PEU's compare of the vector r with a uniform guarding a marker store,
 * and q and r stored as data at affine addresses. With w = 32 each warp
 * lies in one quotient interval, with w = 17 it spans two or three. */
static char *vec_ptx(bool sgn)
{
    const char *t = sgn ? "s32" : "u32";
    char *p = malloc(2048);
    snprintf(p, 2048, HDR
        ".visible .entry k(.param .u32 n)\n{\n"
        " .reg .b32 %%r<24>;\n .reg .pred %%p<2>;\n .shared .align 4 .b8 buf[4096];\n"
        " ld.param.u32 %%r1, [n];\n"
        " mov.u32 %%r2, %%tid.x;\n"
        " mov.u32 %%r3, %%ctaid.x;\n"
        " mov.u32 %%r4, %%ntid.x;\n"
        " mad.lo.s32 %%r5, %%r3, %%r4, %%r2;\n"
        " add.s32 %%r5, %%r5, %d;\n"
        " div.%s %%r6, %%r5, %%r1;\n"
        " rem.%s %%r7, %%r5, %%r1;\n"
        " shl.b32 %%r8, %%r6, 6;\n"
        " add.s32 %%r9, %%r8, %%r7;\n"
        " add.s32 %%r9, %%r9, %d;\n"
        " shl.b32 %%r10, %%r9, 2;\n"
        " mov.u32 %%r11, buf;\n"
        " add.u32 %%r12, %%r11, %%r10;\n"
        " st.shared.u32 [%%r12], %%r5;\n"
        " shl.b32 %%r13, %%r2, 2;\n"
        " add.u32 %%r14, %%r11, %%r13;\n"
        " st.shared.u32 [%%r14+2560], %%r6;\n"
        " st.shared.u32 [%%r14+2816], %%r7;\n"
        " setp.lt.%s %%p1, %%r7, 3;\n"
        " @%%p1 bra SKIP;\n"
        " st.shared.u32 [%%r14+2304], 7;\n"
        "SKIP:\n"
        " ret;\n}\n", sgn ? -40 : 0, t, t, sgn ? 224 : 0, t);
    return p;
}

/* The PTX line of the first line of ptx holding s. */
static uint32_t line_of(const char *ptx, const char *s)
{
    const char *e = strstr(ptx, s);
    assert_non_null(e);
    uint32_t n = 1;
    for (const char *c = ptx; c < e; c++)
        n += *c == '\n';
    return n;
}

static void test_vectors(void **state)
{
    (void)state;
    static const uint32_t ws[] = { 32, 17 };
    for (unsigned sgn = 0; sgn < 2; sgn++)
    for (unsigned wk = 0; wk < 2; wk++)
    for (unsigned on = 0; on < 2; on++) {
        const char *off[] = { "dac.vector=off", NULL };
        uint32_t w = ws[wk];
        char *ptx = vec_ptx(sgn);
        struct harness *h = h_pass(ptx, 64, w, on ? NULL : off, 0);
        const struct core_dac_stats *s = &DAC(h)->st;
        /* every record checked against the functional model's address or
           branch outcome */
        assert_int_equal(s->checked_addr, s->rec_addr + s->rec_data);
        assert_int_equal(s->checked_pred, s->rec_pred);
        assert_int_equal(s->main_insts + s->removed, h->sm.v.st.warp_insts);
        /* the store at the vector address: enq.addr (decoupled) with
           vectors, in the main stream only without */
        uint32_t vline = line_of(ptx, "st.shared.u32 [%r12]"), vpc = 0;
        while (h->k.f->insts[vpc].line != vline)
            vpc++;
        assert_int_equal(h->tr[vpc].q, on ? PTX_DAC_Q_ADDR : PTX_DAC_Q_NONE);
        if (on) {
            /* div, rem, shl, add, add, shl, add: vectors, once per warp
               (2 warps x 2 CTAs), every lane */
            assert_int_equal(s->vec_issues, 7 * 4);
            assert_int_equal(s->vec_lanes, 7 * 128);
            /* the vector-address store, q, r: a record per warp each; the
               compare of r: a predicate record per warp */
            assert_true(s->rec_addr >= 3 * 4);
            assert_int_equal(s->rec_pred, 4);
        } else {
            assert_int_equal(s->vec_issues, 0);
        }
        for (unsigned c = 0; c < 2; c++) {
            uint32_t v[1024];
            memcpy(v, h->sm.v.cta[c].shared, sizeof v);
            for (unsigned t = 0; t < 64; t++) {
                int32_t i = (int32_t)(c * 64 + t) - (sgn ? 40 : 0);
                uint32_t q = sgn ? (uint32_t)(i / (int32_t)w) : (uint32_t)i / w;
                uint32_t r = sgn ? (uint32_t)(i % (int32_t)w) : (uint32_t)i % w;
                int32_t slot = 64 * (int32_t)q + (int32_t)r + (sgn ? 224 : 0);
                assert_true(slot >= 0 && slot < 576);
                assert_int_equal(v[slot], (uint32_t)i);
                assert_int_equal(v[640 + t], q);
                assert_int_equal(v[704 + t], r);
                bool lt = sgn ? (int32_t)r < 3 : r < 3;
                assert_int_equal(v[576 + t], lt ? 0u : 7u);
            }
        }
        h_free(h);
        free(h);
        free(ptx);
    }
}

/* A wrong lane in a vector (dac.fault_inject=4: the lowest active lane of
 * every vector the affine warp computes is off by one) reaches the AEU's
 * record of the vector-address store: the golden check stops the run
 * there. */
static void test_vector_fault(void **state)
{
    (void)state;
    const char *f4[] = { "dac.fault_inject=4", NULL };
    for (unsigned sgn = 0; sgn < 2; sgn++) {
        char *ptx = vec_ptx(sgn);
        struct harness *h = calloc(1, sizeof *h);
        h_init(h, ptx, 64, 17, f4);
        assert_int_equal(h_run(h), LS_ERR_COSIM);
        assert_non_null(strstr(DAC(h)->why, "golden check failed"));
        assert_non_null(strstr(DAC(h)->why, "AEU address"));
        assert_int_equal(DAC(h)->why_line, line_of(ptx, "st.shared.u32 [%r12]"));
        h_free(h);
        free(h);
        free(ptx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_streams_records_checks),
        cmocka_unit_test(test_peu_full),
        cmocka_unit_test(test_queue_full_stalls),
        cmocka_unit_test(test_barrier_hold),
        cmocka_unit_test(test_fault_injection),
        cmocka_unit_test(test_widening_wraps),
        cmocka_unit_test(test_predicate_combinations),
        cmocka_unit_test(test_mask_feedback),
        cmocka_unit_test(test_pass_contexts),
        cmocka_unit_test(test_atq_split),
        cmocka_unit_test(test_chained_skips),
        cmocka_unit_test(test_uniform_selp),
        cmocka_unit_test(test_minmax_selects),
        cmocka_unit_test(test_opcode_latency),
        cmocka_unit_test(test_aw_pipeline),
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_vector_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
