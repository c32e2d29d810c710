/* cmocka tests of the BGP C model (csim/blocks/bgp.c) and its comparison
 * predictors (bgp_ref.c): hash properties, the dual bit-array fill/swap
 * schedule (Fig 5.5(c)), prediction and insertion rules (Fig 5.6(a)(b)), a
 * default inversion after a skewed window (Fig 5.6(c)), a saturated
 * filter, same-edge query/eviction ordering, idle cycles, and BGP against
 * CG-only/FG-only/BGP_inf/SPP on a synthetic two-region trace. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "blocks/bgp.h"
#include "blocks/bgp_ref.h"

static struct bgp_state S;           /* 16 KiB: keep off the stack */

static void mk(unsigned M, unsigned K, unsigned N, unsigned NE, unsigned pct)
{
    struct bgp_cfg c = bgp_cfg_default();
    c.M = M;
    c.K = K;
    c.N = N;
    c.NUM_EVICT = NE;
    c.SKEW_PCT = pct;
    assert_int_equal(bgp_init(&S, &c), 0);
}

static struct bgp_out evict(uint32_t a, unsigned used)
{
    struct bgp_in in;
    struct bgp_out o;
    memset(&in, 0, sizeof in);
    in.e_valid_i[0] = 1;
    in.e_addr_i[0] = a;
    in.e_used_i[0] = used;
    bgp_step(&S, &in, &o);
    return o;
}

static struct bgp_out query(uint32_t a)
{
    struct bgp_in in;
    struct bgp_out o;
    memset(&in, 0, sizeof in);
    in.q_valid_i[0] = 1;
    in.q_addr_i[0] = a;
    bgp_step(&S, &in, &o);
    return o;
}

/* Hashes are in range, GF(2)-linear (pure XOR of shifted/rotated bytes),
 * depend on every address byte, and differ between functions. */
static void test_hash(void **st)
{
    (void)st;
    const unsigned Ms[3] = { 256, 2048, 65536 };
    uint32_t a = 0x12345678u, b = 0x9abcdef0u;
    for (unsigned m = 0; m < 3; m++)
        for (unsigned k = 0; k < 8; k++) {
            unsigned M = Ms[m];
            assert_true(bgp_hash(M, k, a) < M);
            assert_int_equal(bgp_hash(M, k, a ^ b),
                             bgp_hash(M, k, a) ^ bgp_hash(M, k, b));
            assert_int_equal(bgp_hash(M, k, 0), 0);
            for (unsigned i = 0; i < 4; i++)
                assert_int_not_equal(bgp_hash(M, k, 0x5au << (8 * i)), 0);
        }
    /* the K functions differ from each other for every array size */
    for (unsigned m = 0; m < 3; m++)
        for (unsigned k1 = 0; k1 < 8; k1++)
            for (unsigned k2 = k1 + 1; k2 < 8; k2++) {
                unsigned differ = 0;
                for (unsigned p = 0; p < 32; p++)
                    differ += bgp_hash(Ms[m], k1, 1u << p) !=
                              bgp_hash(Ms[m], k2, 1u << p);
                assert_true(differ > 0);
            }
    unsigned distinct = 0;
    for (unsigned k = 1; k < 6; k++)
        distinct += bgp_hash(2048, k, a) != bgp_hash(2048, 0, a);
    assert_int_equal(distinct, 5);
    /* the default configuration spreads 1000 sequential blocks widely */
    unsigned seen[2048] = { 0 }, used = 0;
    for (uint32_t x = 0; x < 1000; x++)
        seen[bgp_hash(2048, 3, 0x40000u + x)]++;
    for (unsigned j = 0; j < 2048; j++)
        used += seen[j] != 0;
    assert_true(used > 600);
}

/* Fig 5.5(c) with N = 8: array 1 idles for the first N/2 insertions; each
 * array clears after N insertions; SEL follows the longer history. */
static void test_fill_swap_schedule(void **st)
{
    (void)st;
    mk(256, 2, 8, 1000, 100);                /* never inverts */
    struct bgp_out o;
    const unsigned exp_c0[13] = { 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4 };
    const unsigned exp_c1[13] = { 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 0 };
    const unsigned exp_sel[13] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0 };
    for (unsigned i = 1; i <= 12; i++) {
        o = evict(0x1000u * i + 7u, 0);      /* FG locality, D = CG: ins */
        assert_int_equal(o.e_ins_o[0], 1);
        assert_int_equal(o.cnt0_o[0], exp_c0[i]);
        assert_int_equal(o.cnt1_o[0], exp_c1[i]);
        assert_int_equal(o.sel_o[0], exp_sel[i]);
        assert_int_equal(o.idle1_o[0], i < 4);
        if (i < 5)
            assert_int_equal(bgp_popcount(&S, 1), 0);
        if (i == 8)
            assert_int_equal(bgp_popcount(&S, 0), 0);   /* array 0 clear */
        if (i == 12)
            assert_int_equal(bgp_popcount(&S, 1), 0);   /* array 1 clear */
    }
    assert_int_equal(S.st.clears[0], 1);
    assert_int_equal(S.st.clears[1], 1);
    /* after 12 insertions SEL = 0 holds insertions 9..12 only */
    for (unsigned i = 9; i <= 12; i++) {
        o = query(0x1000u * i + 7u);
        assert_int_equal(o.q_hit_o[0], 1);
        assert_int_equal(o.q_fg_o[0], 1);         /* opposite of CG */
    }
    /* an address inserted before the last clear of array 0 is gone */
    unsigned gone = 0;
    for (unsigned i = 1; i <= 8; i++)
        gone += !query(0x1000u * i + 7u).q_hit_o[0];
    assert_true(gone >= 7);                   /* one false positive at most */
}

/* Fig 5.6(a)(b): insertion iff locality differs from D; predictions. */
static void test_predict_insert(void **st)
{
    (void)st;
    mk(2048, 6, 512, 1000, 70);
    struct bgp_out o = query(0xabc);
    assert_int_equal(o.q_valid_o[0], 1);
    assert_int_equal(o.q_hit_o[0], 0);
    assert_int_equal(o.q_fg_o[0], 0);         /* default CG */
    for (unsigned used = 0; used <= 4; used++) {
        o = evict(0x100u + used, used);
        assert_int_equal(o.e_ins_o[0], used < 2);  /* TH_FG = 2 */
    }
    assert_int_equal(o.ev_total_o[0], 5);
    assert_int_equal(o.ins_total_o[0], 2);
    assert_int_equal(o.win_ev_o[0], 5);
    assert_int_equal(o.win_ins_o[0], 2);
    assert_int_equal(query(0x100).q_fg_o[0], 1);
    assert_int_equal(query(0x101).q_fg_o[0], 1);
    assert_int_equal(query(0x104).q_fg_o[0], 0);
}

/* Fig 5.6(c): a skewed window inverts D and clears both arrays; exactly
 * at the threshold (7 of 10 = 0.7) it does not. */
static void test_default_inversion(void **st)
{
    (void)st;
    mk(256, 4, 64, 10, 70);
    struct bgp_out o;
    for (unsigned i = 0; i < 10; i++)
        o = evict(0x77u + i, i < 7 ? 0 : 3);  /* 7 inserted */
    assert_int_equal(o.inv_o[0], 0);
    assert_int_equal(o.dflt_o[0], 0);
    assert_int_equal(o.win_ev_o[0], 0);
    assert_int_equal(bgp_popcount(&S, 0) > 0, 1);
    for (unsigned i = 0; i < 10; i++) {
        o = evict(0x99u + i, i < 8 ? 1 : 4);  /* 8 inserted: skewed */
        if (i < 9)
            assert_int_equal(o.inv_o[0], 0);
    }
    assert_int_equal(o.inv_o[0], 1);
    assert_int_equal(o.dflt_o[0], 1);         /* now FG by default */
    assert_int_equal(o.cnt0_o[0], 0);
    assert_int_equal(o.idle1_o[0], 1);
    assert_int_equal(bgp_popcount(&S, 0), 0);
    assert_int_equal(bgp_popcount(&S, 1), 0);
    assert_int_equal(S.st.inversions, 1);
    /* D = FG: a miss predicts FG; a high-locality eviction is inserted and
     * then predicts CG */
    assert_int_equal(query(0x5000).q_fg_o[0], 1);
    o = evict(0x5000, 4);
    assert_int_equal(o.e_ins_o[0], 1);
    assert_int_equal(evict(0x5001, 0).e_ins_o[0], 0);
    assert_int_equal(query(0x5000).q_fg_o[0], 0);
}

/* A saturated filter answers positive for everything. */
static void test_saturated(void **st)
{
    (void)st;
    mk(256, 6, 32768, 65535, 100);
    uint32_t a = 1;
    for (unsigned i = 0; i < 4000 && !bgp_saturated(&S, 0); i++)
        evict(a += 0x9e3779b9u, 0);
    assert_true(bgp_saturated(&S, 0));
    assert_int_equal(bgp_sel(&S), 0);
    for (unsigned i = 0; i < 100; i++) {
        struct bgp_out o = query(0xf00d0000u + i * 977u);
        assert_int_equal(o.q_hit_o[0], 1);
        assert_int_equal(o.q_fg_o[0], 1);
    }
}

/* A query and an eviction on the same edge: the query sees the state
 * before the edge. Idle edges change nothing but the valid bits. */
static void test_same_edge_and_idle(void **st)
{
    (void)st;
    mk(2048, 6, 512, 1000, 70);
    struct bgp_in in;
    struct bgp_out o, o2;
    memset(&in, 0, sizeof in);
    in.q_valid_i[0] = in.e_valid_i[0] = 1;
    in.q_addr_i[0] = in.e_addr_i[0] = 0x4242;
    in.e_used_i[0] = 1;
    bgp_step(&S, &in, &o);
    assert_int_equal(o.q_hit_o[0], 0);
    assert_int_equal(o.e_ins_o[0], 1);
    bgp_step(&S, &in, &o);
    assert_int_equal(o.q_hit_o[0], 1);
    memset(&in, 0, sizeof in);
    in.q_addr_i[0] = 0x1;                     /* ignored: not valid */
    bgp_step(&S, &in, &o2);
    assert_int_equal(o2.q_valid_o[0], 0);
    assert_int_equal(o2.e_valid_o[0], 0);
    assert_int_equal(o2.q_hit_o[0], 1);       /* held */
    assert_int_equal(o2.cnt0_o[0], o.cnt0_o[0]);
    assert_int_equal(o2.ev_total_o[0], 2);
    struct bgp_cfg bad = bgp_cfg_default();
    bad.M = 3000;
    assert_int_not_equal(bgp_init(&S, &bad), 0);
    bad = bgp_cfg_default();
    bad.N = 7;
    assert_int_not_equal(bgp_init(&S, &bad), 0);
}

/* Two regions: streaming blocks that use one sector and are never
 * reused, and a hot set that uses all four. Counts correct granularity
 * decisions (FG for streaming, CG for hot) of each predictor. */
static void test_compare_predictors(void **st)
{
    (void)st;
    struct bgp_cfg c = bgp_cfg_default();
    struct bgp_ref ref[4];
    unsigned correct[5] = { 0 }, total = 0;
    assert_int_equal(bgp_init(&S, &c), 0);
    for (unsigned k = 0; k < 4; k++)
        assert_int_equal(bgp_ref_init(&ref[k], (enum bgp_ref_kind)k, &c), 0);
    uint64_t x = 0x1234567u;
    for (unsigned i = 0; i < 20000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int hot = (x >> 40) % 4 == 0;
        /* streaming blocks come back after a long reuse distance */
        uint32_t a = hot ? 0x100000u + (uint32_t)(x >> 50) % 256u
                         : 0x800000u + (uint32_t)(x >> 33) % 3000u;
        unsigned used = hot ? 4 : 1;
        unsigned want_fg = !hot;
        unsigned p = query(a).q_fg_o[0];
        correct[4] += p == want_fg;
        for (unsigned k = 0; k < 4; k++)
            correct[k] += bgp_ref_query(&ref[k], a) == want_fg;
        total++;
        evict(a, used);
        for (unsigned k = 0; k < 4; k++)
            assert_int_equal(bgp_ref_evict(&ref[k], a, used), 0);
    }
    /* CG-only is right on hot blocks only, FG-only on streaming only */
    assert_true(correct[BGP_REF_CG_ONLY] < total / 3);
    assert_true(correct[BGP_REF_FG_ONLY] > total * 2 / 3);
    /* BGP_inf is exact: it beats the bounded BGP; BGP beats CG-only */
    assert_true(correct[BGP_REF_INF] >= correct[4]);
    assert_true(correct[4] > correct[BGP_REF_CG_ONLY] + total / 4);
    assert_true(correct[BGP_REF_SPP] > total / 2);
    for (unsigned k = 0; k < 4; k++)
        bgp_ref_free(&ref[k]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash),
        cmocka_unit_test(test_fill_swap_schedule),
        cmocka_unit_test(test_predict_insert),
        cmocka_unit_test(test_default_inversion),
        cmocka_unit_test(test_saturated),
        cmocka_unit_test(test_same_edge_and_idle),
        cmocka_unit_test(test_compare_predictors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
