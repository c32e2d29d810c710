/* Unit tests of the MTA prefetcher (csim/mem/mem_mta.[ch], docs/dac.md
 * "Comparison points"): the per-warp stride detector predicts only after
 * the stride repeated mta.train times and forgets a broken stride; stride
 * promotion lets a fresh warp prefetch on its first access; the
 * inter-thread table predicts other warps' lines; the throttle lowers the
 * degree on early evictions, raises it back and probes from 0; and in the
 * memory system a strided warp hits on lines MTA brought (no hits without
 * it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_mem_drv.h"
#include "mem/mem_mta.h"

static void cfg_mta(struct cfg *c)
{
    cfg_defaults(c);
    char err[256] = "";
    assert_int_equal(cfg_load_file(c, "configs/gtx480.conf", err, sizeof err), 0);
    c->prefetch = CFG_PREFETCH_MTA;
}

static struct mem_mta make(struct cfg *c)
{
    struct mem_mta t;
    char err[256] = "";
    assert_int_equal(mem_mta_init(&t, c, 128, err, sizeof err), 0);
    return t;
}

/* warp 0 at pc 5 walks lines 256 bytes apart: silent until the stride
 * repeated mta.train (2) times, then the next mta.degree (2) strides */
static void test_pws_trains_then_predicts(void **st)
{
    (void)st;
    struct cfg c;
    cfg_mta(&c);
    c.mta_ip_entries = 0;
    c.mta_gs_entries = 0;
    struct mem_mta t = make(&c);
    struct mem_mta_cand o[16];
    assert_int_equal(mem_mta_train(&t, 5, 0, 0x10000, 1, 0, o, 16), 0);
    assert_int_equal(mem_mta_train(&t, 5, 0, 0x10100, 1, 0, o, 16), 0);  /* stride seen */
    assert_int_equal(mem_mta_train(&t, 5, 0, 0x10200, 1, 0, o, 16), 0);  /* conf 1 */
    unsigned n = mem_mta_train(&t, 5, 0, 0x10300, 1, 0, o, 16);          /* conf 2 */
    assert_int_equal(n, 2);
    assert_int_equal(o[0].line, 0x10400);
    assert_int_equal(o[1].line, 0x10500);
    assert_int_equal(o[0].src, MEM_MTA_PWS);
    /* another warp at the same pc has no history of its own */
    assert_int_equal(mem_mta_train(&t, 5, 1, 0x90000, 1, 0, o, 16), 0);
    /* a broken stride stops the predictions until it repeats again */
    assert_int_equal(mem_mta_train(&t, 5, 0, 0x20000, 1, 0, o, 16), 0);
    assert_int_equal(mem_mta_train(&t, 5, 0, 0x20080, 1, 0, o, 16), 0);
    /* a footprint of two lines moves whole, the instruction's own lines
     * excluded */
    assert_int_equal(mem_mta_train(&t, 5, 0, 0x20100, 2, 0, o, 16), 0);
    n = mem_mta_train(&t, 5, 0, 0x20180, 2, 0, o, 16);   /* own: 0x20180, 0x20200 */
    assert_int_equal(n, 2);
    assert_int_equal(o[0].line, 0x20280);
    assert_int_equal(o[1].line, 0x20300);
    assert_int_equal(t.st.trained, 9);
    mem_mta_free(&t);
}

/* three warps agreeing on a stride promote it: a fourth warp prefetches on
 * its very first access */
static void test_promotion(void **st)
{
    (void)st;
    struct cfg c;
    cfg_mta(&c);
    c.mta_ip_entries = 0;
    struct mem_mta t = make(&c);
    struct mem_mta_cand o[16];
    for (uint16_t w = 0; w < 3; w++)
        for (unsigned k = 0; k < 4; k++)
            mem_mta_train(&t, 9, w, 0x100000u * (w + 1) + k * 0x1000u, 1, 0, o, 16);
    unsigned n = mem_mta_train(&t, 9, 7, 0x800000, 1, 0, o, 16);
    assert_int_equal(n, 2);
    assert_int_equal(o[0].src, MEM_MTA_GS);
    assert_int_equal(o[0].line, 0x801000);
    /* with promotion needing more warps than trained, the fresh warp waits */
    mem_mta_free(&t);
    c.mta_promote = 4;
    t = make(&c);
    for (uint16_t w = 0; w < 3; w++)
        for (unsigned k = 0; k < 4; k++)
            mem_mta_train(&t, 9, w, 0x100000u * (w + 1) + k * 0x1000u, 1, 0, o, 16);
    assert_int_equal(mem_mta_train(&t, 9, 7, 0x800000, 1, 0, o, 16), 0);
    mem_mta_free(&t);
}

/* warps 0..3 each run pc 3 once at base + warp x 128: the inter-thread
 * table learns 128 bytes per warp and prefetches mta.ip_distance (4) and
 * 5 warps ahead */
static void test_inter_thread(void **st)
{
    (void)st;
    struct cfg c;
    cfg_mta(&c);
    struct mem_mta t = make(&c);
    struct mem_mta_cand o[16];
    unsigned n = 0;
    for (uint16_t w = 0; w < 4; w++)
        n = mem_mta_train(&t, 3, w, 0x40000 + 128u * w, 1, 0, o, 16);
    assert_int_equal(n, 2);
    assert_int_equal(o[0].src, MEM_MTA_IP);
    assert_int_equal(o[0].line, 0x40000 + 128u * (3 + 4));
    assert_int_equal(o[1].line, 0x40000 + 128u * (3 + 5));
    /* irregular addresses across warps train nothing */
    mem_mta_free(&t);
    t = make(&c);
    static const uint64_t irr[4] = {0x40000, 0x47080, 0x40100, 0x5a000};
    for (uint16_t w = 0; w < 4; w++)
        n = mem_mta_train(&t, 3, w, irr[w], 1, 0, o, 16);
    assert_int_equal(n, 0);
    mem_mta_free(&t);
}

/* early evictions lower the degree, a clean period raises it, a degree of
 * 0 probes 1 when it has no sample; throttle off never moves it */
static void test_throttle(void **st)
{
    (void)st;
    struct cfg c;
    cfg_mta(&c);
    struct mem_mta t = make(&c);
    assert_int_equal(t.degree, 2);
    for (int i = 0; i < 20; i++)
        mem_mta_issued(&t, MEM_MTA_PWS);
    mem_mta_unused(&t, 15);
    mem_mta_throttle(&t);
    assert_int_equal(t.degree, 1);
    for (int i = 0; i < 20; i++)
        mem_mta_issued(&t, MEM_MTA_PWS);
    mem_mta_unused(&t, 15);
    mem_mta_throttle(&t);
    assert_int_equal(t.degree, 0);
    /* degree 0: training goes on, nothing is predicted */
    struct mem_mta_cand o[16];
    unsigned n = 0;
    for (unsigned k = 0; k < 6; k++)
        n = mem_mta_train(&t, 1, 0, 0x1000u * k, 1, 0, o, 16);
    assert_int_equal(n, 0);
    mem_mta_throttle(&t);              /* no sample: probe */
    assert_int_equal(t.degree, 1);
    for (int i = 0; i < 20; i++) {
        mem_mta_issued(&t, MEM_MTA_PWS);
        mem_mta_useful(&t, false);
    }
    mem_mta_throttle(&t);              /* all useful: up to mta.degree */
    assert_int_equal(t.degree, 2);
    assert_int_equal(t.st.throttle_down, 2);
    assert_int_equal(t.st.throttle_up, 2);
    /* a late majority (merge ratio above mta.merge_hi_pct) lowers it too */
    for (int i = 0; i < 20; i++) {
        mem_mta_issued(&t, MEM_MTA_IP);
        mem_mta_useful(&t, true);
    }
    mem_mta_throttle(&t);
    assert_int_equal(t.degree, 1);
    mem_mta_free(&t);
    c.mta_throttle = CFG_MTA_THROTTLE_OFF;
    t = make(&c);
    for (int i = 0; i < 20; i++)
        mem_mta_issued(&t, MEM_MTA_PWS);
    mem_mta_unused(&t, 20);
    mem_mta_throttle(&t);
    assert_int_equal(t.degree, 2);
    mem_mta_free(&t);
}

static ls_cache_stats l1(const struct mem_sys *m)
{
    ls_cache_stats s;
    mem_stats(m, &s, NULL, NULL);
    return s;
}

/* one warp's load walks 16 lines 1 KB apart, one at a time: with MTA the
 * later ones find lines it prefetched (useful, accuracy and coverage > 0):
 * in its prefetch cache (L1D misses served there: no L1D hit) or, with
 * mta.cache_kb=0, in the L1D (hits); without it every access misses */
static void test_mem_sys_strided_hits(void **st)
{
    (void)st;
    for (int mode = 0; mode <= 2; mode++) {
        int on = mode > 0;
        struct cfg c;
        cfg_mta(&c);
        c.prefetch = on ? CFG_PREFETCH_MTA : CFG_PREFETCH_OFF;
        if (mode == 2)
            c.mta_cache_kb = 0;
        struct mem_sys *m = drv_make(&c, 1);
        assert_non_null(m);
        uint64_t now = 0;
        for (unsigned k = 0; k < 16; k++) {
            struct core_mem_req r = drv_req(0, 0x200000u + 1024u * k, 0xf, 0);
            r.pc = 42;
            r.first = 1;
            r.nlines = 1;
            assert_int_equal(drv_run(m, &r, 1, 1, &now), 1);
        }
        ls_mta_stats p;
        mem_mta_stats(m, &p);
        ls_cache_stats s = l1(m);
        if (!on) {
            assert_int_equal(s.hits, 0);
            assert_int_equal(p.issued, 0);
        } else {
            assert_true(p.useful >= 10);
            if (mode == 2)
                assert_true(s.hits >= 10);
            else
                assert_int_equal(s.hits, 0);
            assert_int_equal(p.late, 0);        /* each fill was back in time */
            assert_int_equal(p.issued_by[MEM_MTA_PWS], p.issued);
            assert_true(p.useful <= p.issued);
            /* two strides ahead: the last two prefetches are never used */
            mem_kernel_end(m);
            mem_mta_stats(m, &p);
            assert_int_equal(p.unused, p.issued - p.useful);
            assert_true(p.unused >= 1);
        }
        mem_sys_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pws_trains_then_predicts),
        cmocka_unit_test(test_promotion),
        cmocka_unit_test(test_inter_thread),
        cmocka_unit_test(test_throttle),
        cmocka_unit_test(test_mem_sys_strided_hits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
