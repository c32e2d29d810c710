/* cmocka tests of the WCU C model (csim/blocks/wcu.c): the dissertation's
 * Fig 4.3 and Fig 4.8/4.9 compaction examples, the adequacy figures,
 * UMask bypass, K cycles for K compacted warps, back-to-back loads and a
 * seeded random comparison against an independent column-rank reference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "blocks/wcu.h"

static struct wcu_state *mk(struct wcu_state *s, unsigned W, unsigned NW)
{
    struct wcu_cfg c = { .W = W, .NW = NW };
    assert_int_equal(wcu_init(s, &c), 0);
    return s;
}

static struct wcu_in load_in(const uint32_t *mask, unsigned nw, uint32_t um)
{
    struct wcu_in in;
    memset(&in, 0, sizeof in);
    in.load_i[0] = 1;
    for (unsigned w = 0; w < nw; w++)
        in.mask_i[w] = mask[w];
    in.umask_i[0] = um;
    return in;
}

static const struct wcu_in idle_in;

/* Fig 4.1 path C / Fig 4.3: CTA of 3 warps x 4 lanes, mask
 * 0123 456- 89-B; threads 0, 4, 8 share lane 0, so NW_TBC = 3. */
static void test_fig43(void **st)
{
    (void)st;
    struct wcu_state s_st, *s = mk(&s_st, 4, 3);
    const uint32_t m[3] = { 0xF, 0x7, 0xB };
    struct wcu_in in = load_in(m, 3, 0x7);
    struct wcu_out o;

    wcu_step(s, &in, &o);
    assert_int_equal(o.eval_valid_o[0], 1);
    assert_int_equal(o.nw_min_o[0], 3);
    assert_int_equal(o.nw_nocomp_o[0], 3);
    assert_int_equal(o.adequate_o[0], 0);
    assert_int_equal(o.out_valid_o[0], 0);
    assert_int_equal(o.busy_o[0], 1);
    assert_int_equal(o.ready_o[0], 0);
    assert_int_equal(s->st.last_nw_ideal, 3);
    assert_int_equal(s->st.last_nw_tbc, 3);

    const uint32_t lanes[3] = { 0xF, 0xF, 0x3 };
    const uint32_t wid[3][4] = { { 0, 0, 0, 0 }, { 1, 1, 1, 2 },
                                 { 2, 2, 0, 0 } };
    for (unsigned k = 0; k < 3; k++) {
        wcu_step(s, &idle_in, &o);
        assert_int_equal(o.out_valid_o[0], 1);
        assert_int_equal(o.eval_valid_o[0], 0);
        assert_int_equal(o.out_lanes_o[0], lanes[k]);
        for (unsigned l = 0; l < 4; l++)
            assert_int_equal(o.out_wid_o[l], wid[k][l]);
        assert_int_equal(o.out_done_o[0], k == 2);
        assert_int_equal(o.busy_o[0], k < 2);
        assert_int_equal(o.ready_o[0], k >= 1);
    }
    wcu_step(s, &idle_in, &o);
    assert_int_equal(o.out_valid_o[0], 0);
    assert_int_equal(o.busy_o[0], 0);
    /* evaluator results hold until the next load */
    assert_int_equal(o.nw_min_o[0], 3);
    assert_int_equal(s->st.warps_out, 3);
    assert_int_equal(s->st.threads_out, 10);
    assert_int_equal(s->st.cycles, 5);
    assert_int_equal(s->st.loads, 1);
    assert_int_equal(s->st.sum_nw_ideal, 3);
    assert_int_equal(s->st.sum_nw_min, 3);
    assert_int_equal(s->st.sum_nw_nocomp, 3);
    assert_int_equal(s->st.adequate, 0);
}

/* Fig 4.8(c)-(d) / Fig 4.9: W0 bypassed (UMask 011 = warps 1, 2 wait);
 * W1 = 4--7, W2 = 89--. The WCU emits 49-7 then 8---, while the
 * evaluator over all warps (W0 = 0123 included) finds NW_min 3 =
 * NW_nocomp 3: not adequate (the 1b-Latest history bit is reset). */
static void test_fig49_bypass(void **st)
{
    (void)st;
    struct wcu_state s_st, *s = mk(&s_st, 4, 3);
    const uint32_t m[3] = { 0xF, 0x9, 0x3 };
    struct wcu_in in = load_in(m, 3, 0x6);
    struct wcu_out o;

    wcu_step(s, &in, &o);
    assert_int_equal(o.nw_min_o[0], 3);
    assert_int_equal(o.nw_nocomp_o[0], 3);
    assert_int_equal(o.adequate_o[0], 0);
    assert_int_equal(s->st.last_nw_ideal, 2);
    assert_int_equal(s->st.last_nw_tbc, 2);

    wcu_step(s, &idle_in, &o);
    assert_int_equal(o.out_lanes_o[0], 0xB);      /* 4 9 - 7 */
    assert_int_equal(o.out_wid_o[0], 1);
    assert_int_equal(o.out_wid_o[1], 2);
    assert_int_equal(o.out_wid_o[2], 0);
    assert_int_equal(o.out_wid_o[3], 1);
    assert_int_equal(o.out_done_o[0], 0);
    wcu_step(s, &idle_in, &o);
    assert_int_equal(o.out_lanes_o[0], 0x1);      /* 8 - - - */
    assert_int_equal(o.out_wid_o[0], 2);
    assert_int_equal(o.out_done_o[0], 1);
    assert_int_equal(o.busy_o[0], 0);
    assert_int_equal(s->st.warps_out, 2);

    /* The same mask with nobody bypassed: W0 now takes a warp itself. */
    struct wcu_state t_st, *t = mk(&t_st, 4, 3);
    in = load_in(m, 3, 0x7);
    wcu_step(t, &in, &o);
    assert_int_equal(t->st.last_nw_tbc, 3);
    assert_int_equal(o.adequate_o[0], 0);
}

/* Fig 4.1 path B: threads 7 (W1 lane 3) and A (W2 lane 2) compact into a
 * single warp: NW_min 1 < NW_nocomp 2, adequate. */
static void test_fig41_path_b(void **st)
{
    (void)st;
    struct wcu_state s_st, *s = mk(&s_st, 4, 3);
    const uint32_t m[3] = { 0x0, 0x8, 0x4 };
    struct wcu_in in = load_in(m, 3, 0x7);
    struct wcu_out o;
    wcu_step(s, &in, &o);
    assert_int_equal(o.nw_min_o[0], 1);
    assert_int_equal(o.nw_nocomp_o[0], 2);
    assert_int_equal(o.adequate_o[0], 1);
    assert_int_equal(o.ready_o[0], 1);            /* one warp left */
    wcu_step(s, &idle_in, &o);
    assert_int_equal(o.out_lanes_o[0], 0xC);
    assert_int_equal(o.out_wid_o[2], 2);
    assert_int_equal(o.out_wid_o[3], 1);
    assert_int_equal(o.out_done_o[0], 1);
}

/* NW_ideal = ceil(threads / W) differs from NW_min when lanes are uneven. */
static void test_nw_ideal(void **st)
{
    (void)st;
    struct wcu_cfg c = { .W = 8, .NW = 4 };
    /* lane 0 in all 4 warps, lanes 1..3 in warp 0: 7 threads */
    const uint32_t m[4] = { 0xF, 0x1, 0x1, 0x1 };
    struct wcu_eval e = wcu_evaluate(&c, m, 0xF);
    assert_int_equal(e.nw_ideal, 1);
    assert_int_equal(e.nw_min, 4);
    assert_int_equal(e.nw_nocomp, 4);
    assert_false(e.adequate);
    const uint32_t f[4] = { 0xFF, 0xFF, 0x01, 0 };
    e = wcu_evaluate(&c, f, 0x0);                 /* all bypassed */
    assert_int_equal(e.nw_ideal, 3);              /* 17 threads / 8 */
    assert_int_equal(e.nw_min, 3);
    assert_int_equal(e.nw_nocomp, 3);
    assert_int_equal(e.nw_tbc, 0);
}

/* Every warp bypassed: the evaluator still runs, nothing is emitted. */
static void test_all_bypassed(void **st)
{
    (void)st;
    struct wcu_state s_st, *s = mk(&s_st, 8, 4);
    const uint32_t m[4] = { 0x01, 0x02, 0x04, 0x08 };
    struct wcu_in in = load_in(m, 4, 0x0);
    struct wcu_out o;
    wcu_step(s, &in, &o);
    assert_int_equal(o.eval_valid_o[0], 1);
    assert_int_equal(o.adequate_o[0], 1);         /* 1 < 4 */
    assert_int_equal(o.busy_o[0], 0);
    assert_int_equal(o.ready_o[0], 1);
    wcu_step(s, &idle_in, &o);
    assert_int_equal(o.out_valid_o[0], 0);
    assert_int_equal(o.out_done_o[0], 0);
}

/* Diagonal mask of K warps in W = 32 lanes aligned on lane 0: K cycles. */
static void test_k_cycles(void **st)
{
    (void)st;
    for (unsigned K = 1; K <= 32; K++) {
        struct wcu_state s_st, *s = mk(&s_st, 32, 32);
        uint32_t m[32] = { 0 };
        for (unsigned w = 0; w < K; w++)
            m[w] = 1u | (0xFFFFFFFEu >> (w % 31));
        struct wcu_in in = load_in(m, 32, 0xFFFFFFFFu);
        struct wcu_out o;
        wcu_step(s, &in, &o);
        unsigned n = 0, cyc = 0;
        while (o.busy_o[0] && cyc < 100) {
            wcu_step(s, &idle_in, &o);
            cyc++;
            assert_int_equal(o.out_valid_o[0], 1);
            assert_int_equal(o.out_wid_o[0], n);  /* lane 0 in order */
            n++;
        }
        assert_int_equal(n, K);
        assert_int_equal(cyc, K);
        assert_int_equal(o.out_done_o[0], 1);
    }
}

/* wcu_idle_fixed holds only once nothing remains and the pulses are low,
 * and wcu_idle_edges(n) then leaves the state n idle steps leave. */
static void test_idle_fixed(void **st)
{
    (void)st;
    struct wcu_state s_st, *s = mk(&s_st, 32, 32);
    assert_true(wcu_idle_fixed(s));
    uint32_t m[32] = { 0x5u, 0x3u, 0x1u };
    struct wcu_in in = load_in(m, 3, 0x7u);
    struct wcu_out o;
    wcu_step(s, &in, &o);
    unsigned edges = 0;
    while (!wcu_idle_fixed(s) && edges < 40) {
        assert_true(edges < 4);     /* 3 warps out, one edge to clear */
        wcu_step(s, &idle_in, &o);
        edges++;
    }
    assert_int_equal(edges, 4);
    struct wcu_state stepped = *s;
    for (unsigned i = 0; i < 40; i++)
        wcu_step(&stepped, &idle_in, &o);
    wcu_idle_edges(s, 40);
    assert_memory_equal(s, &stepped, sizeof *s);
}

/* A load offered on the edge that emits the last warp is accepted (back
 * to back); a load while more than one warp remains is dropped. */
static void test_back_to_back(void **st)
{
    (void)st;
    struct wcu_state s_st, *s = mk(&s_st, 4, 3);
    const uint32_t a[3] = { 0xF, 0x7, 0xB };
    const uint32_t b[3] = { 0x0, 0x8, 0x4 };
    struct wcu_in la = load_in(a, 3, 0x7), lb = load_in(b, 3, 0x7);
    struct wcu_out o;
    wcu_step(s, &la, &o);
    wcu_step(s, &idle_in, &o);            /* warp 1 of a; 2 remain */
    assert_int_equal(o.ready_o[0], 0);
    wcu_step(s, &lb, &o);                 /* warp 2 of a; b dropped */
    assert_int_equal(o.eval_valid_o[0], 0);
    assert_int_equal(o.out_lanes_o[0], 0xF);
    assert_int_equal(o.out_wid_o[3], 2);
    assert_int_equal(s->st.loads_dropped, 1);
    assert_int_equal(o.ready_o[0], 1);
    wcu_step(s, &lb, &o);                 /* last warp of a + load b */
    assert_int_equal(o.out_lanes_o[0], 0x3);
    assert_int_equal(o.out_done_o[0], 1);
    assert_int_equal(o.eval_valid_o[0], 1);
    assert_int_equal(o.adequate_o[0], 1);
    assert_int_equal(o.busy_o[0], 1);
    assert_int_equal(s->st.loads, 2);
    assert_int_equal(s->st.adequate, 1);
    assert_int_equal(s->st.sum_nw_min, 4);          /* 3 + 1 */
    assert_int_equal(s->st.sum_nw_nocomp, 5);       /* 3 + 2 */
    assert_int_equal(s->st.sum_nw_ideal, 4);        /* 3 + 1 */
    wcu_step(s, &idle_in, &o);
    assert_int_equal(o.out_lanes_o[0], 0xC);
    assert_int_equal(o.out_done_o[0], 1);
    assert_int_equal(o.eval_valid_o[0], 0);
}

static void test_reset_and_params(void **st)
{
    (void)st;
    struct wcu_state s;
    struct wcu_cfg bad = { .W = 0, .NW = 32 };
    assert_int_not_equal(wcu_init(&s, &bad), 0);
    bad.W = 33;
    assert_int_not_equal(wcu_init(&s, &bad), 0);
    bad.W = 32;
    bad.NW = 33;
    assert_int_not_equal(wcu_init(&s, &bad), 0);
    struct wcu_cfg d = wcu_cfg_default();
    assert_int_equal(d.W, 32);
    assert_int_equal(d.NW, 32);
    assert_int_equal(wcu_wid_bits(&d), 5);
    assert_int_equal(wcu_cnt_bits(&d), 6);
    struct wcu_cfg two = { .W = 4, .NW = 2 };
    assert_int_equal(wcu_wid_bits(&two), 1);
    assert_int_equal(wcu_cnt_bits(&two), 2);
    bad.NW = 1;
    assert_int_not_equal(wcu_init(&s, &bad), 0);

    struct wcu_state p_st, *p = mk(&p_st, 4, 3);
    const uint32_t m[3] = { 0xF, 0x7, 0xB };
    struct wcu_in in = load_in(m, 3, 0x7);
    struct wcu_out o;
    wcu_step(p, &in, &o);
    wcu_reset(p);
    wcu_outputs(p, &o);
    assert_int_equal(o.busy_o[0], 0);
    assert_int_equal(o.ready_o[0], 1);
    assert_int_equal(o.nw_min_o[0], 0);
    assert_int_equal(p->st.loads, 0);
    assert_int_equal(p->cfg.W, 4);
}

/* Bits beyond W lanes / NW warps are ignored. */
static void test_ignores_out_of_range(void **st)
{
    (void)st;
    struct wcu_state s_st, *s = mk(&s_st, 8, 2);
    uint32_t m[32] = { 0 };
    m[0] = 0xFF01;
    m[1] = 0x100;
    m[5] = 0xFF;
    struct wcu_in in = load_in(m, 32, 0xFFFFFFFFu);
    struct wcu_out o;
    wcu_step(s, &in, &o);
    assert_int_equal(o.nw_nocomp_o[0], 1);
    assert_int_equal(o.nw_min_o[0], 1);
    wcu_step(s, &idle_in, &o);
    assert_int_equal(o.out_lanes_o[0], 0x01);
    assert_int_equal(o.out_done_o[0], 1);
}

static uint64_t rng_next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Independent reference: compacted warp k holds, in lane l, the k-th
 * (0-based) non-bypassed warp active in lane l. */
static void test_random_vs_rank(void **st)
{
    (void)st;
    uint64_t x = 0x5eed1234u;
    static const unsigned Ws[3] = { 8, 16, 32 };
    for (unsigned it = 0; it < 3000; it++) {
        unsigned W = Ws[it % 3], NW = 2 + (unsigned)(rng_next(&x) % 31);
        struct wcu_state s_st, *s = mk(&s_st, W, NW);
        uint32_t m[32] = { 0 };
        unsigned dens = (unsigned)(rng_next(&x) % 4);
        for (unsigned w = 0; w < NW; w++) {
            uint32_t v = (uint32_t)rng_next(&x);
            for (unsigned d = 0; d < dens; d++)
                v &= (uint32_t)rng_next(&x);
            m[w] = v & (W == 32 ? 0xFFFFFFFFu : ((1u << W) - 1u));
        }
        uint32_t um = (uint32_t)rng_next(&x) | (uint32_t)rng_next(&x);
        if (NW < 32)
            um &= (1u << NW) - 1u;
        struct wcu_in in = load_in(m, NW, um);
        struct wcu_out o;
        wcu_step(s, &in, &o);
        struct wcu_eval e = wcu_evaluate(&s->cfg, m, um);
        unsigned k = 0;
        while (o.busy_o[0]) {
            wcu_step(s, &idle_in, &o);
            for (unsigned l = 0; l < W; l++) {
                unsigned r = 0, src = 0;
                int found = 0;
                for (unsigned w = 0; w < NW && !found; w++)
                    if ((um >> w & 1u) && (m[w] >> l & 1u) && r++ == k) {
                        src = w;
                        found = 1;
                    }
                assert_int_equal((o.out_lanes_o[0] >> l) & 1u, found);
                assert_int_equal(o.out_wid_o[l], src);
            }
            k++;
            assert_true(k <= NW);
        }
        assert_int_equal(k, e.nw_tbc);
        /* evaluator against a plain per-lane count over all warps */
        unsigned mx = 0, nocomp = 0, tot = 0;
        for (unsigned l = 0; l < W; l++) {
            unsigned cnt = 0;
            for (unsigned w = 0; w < NW; w++)
                cnt += (m[w] >> l) & 1u;
            mx = cnt > mx ? cnt : mx;
            tot += cnt;
        }
        for (unsigned w = 0; w < NW; w++)
            nocomp += m[w] != 0;
        assert_int_equal(e.nw_min, mx);
        assert_int_equal(e.nw_nocomp, nocomp);
        assert_int_equal(e.nw_ideal, (tot + W - 1) / W);
        assert_int_equal(e.adequate, mx < nocomp);
        assert_int_equal(s->nw_min, mx);
        assert_int_equal(s->adequate, mx < nocomp);
        assert_true(e.nw_ideal <= e.nw_min);
        assert_true(e.nw_min <= e.nw_nocomp);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fig43),
        cmocka_unit_test(test_fig49_bypass),
        cmocka_unit_test(test_fig41_path_b),
        cmocka_unit_test(test_nw_ideal),
        cmocka_unit_test(test_all_bypassed),
        cmocka_unit_test(test_k_cycles),
        cmocka_unit_test(test_back_to_back),
        cmocka_unit_test(test_idle_fixed),
        cmocka_unit_test(test_reset_and_params),
        cmocka_unit_test(test_ignores_out_of_range),
        cmocka_unit_test(test_random_vs_rank),
    };
    return cmocka_run_group_tests_name("blk_wcu", tests, NULL, NULL);
}
