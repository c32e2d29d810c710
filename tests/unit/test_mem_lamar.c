/* Unit tests of LAMAR in the memory hierarchy (csim/mem/mem_gdu.c,
 * docs/lamar.md): what each GDU scheme fetches on a line miss at the L1D
 * and the L2, the sector categories (demand, pred_ref, pred_nref,
 * npred_ref) and their identity with sector_fills, the BGP learning that a
 * streaming region uses one sector and switching it to FG, BGP_inf, the
 * SPP's per-PC pattern, the static scheme per kernel, lamar.level, and a
 * checker of the category identity proven able to fail. Synthetic request
 * streams; no SM is involved. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_mem_drv.h"
#include "mem/mem_int.h"
#include "cosim/cosim.h"
#include "blocks/bgp.h"

enum { G_CG = CFG_LAMAR_GDU_CG_ONLY, G_FG = CFG_LAMAR_GDU_FG_ONLY,
       G_STATIC = CFG_LAMAR_GDU_STATIC, G_SPP = CFG_LAMAR_GDU_SPP, G_BGP = CFG_LAMAR_GDU_BGP,
       G_INF = CFG_LAMAR_GDU_BGP_INF };

static void cfg_gdu(struct cfg *c, int gdu, int level)
{
    cfg_defaults(c);
    char err[256] = "";
    assert_int_equal(cfg_load_file(c, "configs/gtx480.conf", err, sizeof err), 0);
    c->l1d_set_index = CFG_L1D_SET_INDEX_LINEAR;  /* lines placed by line number */
    c->lamar_gdu = gdu;
    c->lamar_level = level;          /* CFG_LAMAR_LEVEL_L1, _L2, _BOTH */
}

/* The category identity at one level: every sector filled from below is
 * in exactly one category once its line is gone (pred_nref is counted at
 * eviction), so the sum is sector_fills less the live predicted sectors.
 * Returns 0 when it holds with `live` live sectors, else 1 (and says why). */
static int check_identity(const char *what, const ls_cache_stats *s, uint64_t live)
{
    uint64_t sum = s->demand + s->pred_ref + s->pred_nref + s->npred_ref;
    if (sum + live == s->sector_fills)
        return 0;
    if (!what)
        return 1;                  /* quiet: an expected failure */
    fprintf(stderr, "%s: demand %llu + pred_ref %llu + pred_nref %llu + npred_ref %llu + "
            "live %llu != sector_fills %llu\n", what, (unsigned long long)s->demand,
            (unsigned long long)s->pred_ref, (unsigned long long)s->pred_nref,
            (unsigned long long)s->npred_ref, (unsigned long long)live,
            (unsigned long long)s->sector_fills);
    return 1;
}

static void run1(struct mem_sys *m, struct core_mem_req r, uint64_t *now)
{
    assert_int_equal(drv_run(m, &r, 1, 1, now), 1);
}

/* One sector of a line: CG fetches the line's 4 sectors into the L1D and
 * the L2 (pred_ref/pred_nref for the 3 others), FG only the sector. */
static void test_cg_fg_fetch(void **st)
{
    (void)st;
    for (int g = G_CG; g <= G_FG; g++) {
        struct cfg c;
        cfg_gdu(&c, g, CFG_LAMAR_LEVEL_BOTH);
        struct mem_sys *m = drv_make(&c, 1);
        assert_non_null(m);
        uint64_t now = 0;
        run1(m, drv_req(0, 0x10000, 0x1, 0), &now);
        run1(m, drv_req(0, 0x10000, 0x2, 0), &now);       /* a second sector */
        mem_gdu_finish(m, now + 1);
        mem_kernel_end(m);
        ls_cache_stats l1, l2;
        mem_stats(m, &l1, &l2, NULL);
        assert_int_equal(l1.gdu_queries, 1);               /* one line allocated */
        assert_int_equal(l1.gdu_fg, g == G_FG);
        assert_int_equal(l1.demand, 1);
        if (g == G_CG) {
            assert_int_equal(l1.sector_fills, 4);
            assert_int_equal(l1.hits, 1);                  /* sector 1 came along */
            assert_int_equal(l1.pred_ref, 1);
            assert_int_equal(l1.pred_nref, 2);             /* swept unreferenced */
            assert_int_equal(l1.npred_ref, 0);
            assert_int_equal(l2.sector_fills, 4);
            assert_int_equal(l2.demand, 4);                /* the L1 asked for all 4 */
        } else {
            assert_int_equal(l1.sector_fills, 2);
            assert_int_equal(l1.hits, 0);
            assert_int_equal(l1.npred_ref, 1);             /* FG, then the other sector */
            assert_int_equal(l1.pred_ref + l1.pred_nref, 0);
            assert_int_equal(l2.sector_fills, 2);
            assert_int_equal(l2.demand, 1);
            assert_int_equal(l2.npred_ref, 1);
        }
        assert_int_equal(check_identity("l1", &l1, 0), 0);
        assert_int_equal(check_identity("l2", &l2, 0), 0);
        /* block reuse (Fig 6.6): the swept line's hits, CG's one only */
        uint64_t lines = 0;
        for (unsigned i = 0; i <= LS_MAX_SECTORS; i++)
            lines += l1.used_sectors_hist[i];
        assert_int_equal(lines, 1);
        assert_int_equal(l1.reuse_hits, g == G_CG ? 1 : 0);
        /* the answer judged at the line's end: it used 2 sectors (TH_FG 2),
         * so FG was wrong and CG right; the L2's line is still resident */
        assert_int_equal(l1.gdu_fg_ended, g == G_FG);
        assert_int_equal(l1.gdu_fg_wrong, g == G_FG);
        assert_int_equal(l1.gdu_cg_ended, g == G_CG);
        assert_int_equal(l1.gdu_cg_wrong, 0);
        assert_int_equal(l1.gdu_cg_right_nref, g == G_CG ? 2 : 0);  /* sectors 2, 3 */
        assert_int_equal(l2.gdu_fg_ended + l2.gdu_cg_ended, 0);
        mem_sys_free(m);
    }
}

/* lamar.level: the cache without a GDU fetches whole lines (cg_only). */
static void test_level(void **st)
{
    (void)st;
    for (int lv = CFG_LAMAR_LEVEL_L1; lv <= CFG_LAMAR_LEVEL_L2; lv++) {
        struct cfg c;
        cfg_gdu(&c, G_FG, lv);
        struct mem_sys *m = drv_make(&c, 1);
        uint64_t now = 0;
        run1(m, drv_req(0, 0x20000, 0x4, 0), &now);
        ls_cache_stats l1, l2;
        mem_stats(m, &l1, &l2, NULL);
        assert_int_equal(l1.sector_fills, lv == CFG_LAMAR_LEVEL_L1 ? 1 : 4);
        assert_int_equal(l1.gdu_fg, lv == CFG_LAMAR_LEVEL_L1);
        assert_int_equal(l2.gdu_fg, lv == CFG_LAMAR_LEVEL_L2);
        assert_int_equal(l2.sector_fills, 4);  /* L2 CG, or FG of the L1's 4 */
        mem_sys_free(m);
    }
}

/* A streaming region touching one sector per line through a small L1D: the
 * evictions (1 used sector < TH_FG) are inserted while D = CG, the window
 * skews past 0.7 and D flips to FG, so most later misses fetch FG; BGP and
 * BGP_inf agree on the inversion. A hot region re-read whole keeps its
 * lines CG afterwards only under the exact set (no false positives). */
static void test_bgp_learns_streaming(void **st)
{
    (void)st;
    for (int g = G_BGP; g <= G_INF; g++) {
        struct cfg c;
        cfg_gdu(&c, g, CFG_LAMAR_LEVEL_L1);
        c.lamar_bgp_num_evict = 100;
        struct mem_sys *m = drv_make(&c, 1);
        assert_non_null(m);
        mem_kernel_begin(m, "stream", 0, 0);
        enum { N = 3000 };
        static struct core_mem_req rs[N];
        for (unsigned i = 0; i < N; i++)
            rs[i] = drv_req(0, 0x100000 + (uint64_t)i * 128, 0x1, 0);
        uint64_t now = 0;
        assert_int_equal(drv_run(m, rs, N, 1, &now), N);
        ls_cache_stats l1;
        mem_stats(m, &l1, NULL, NULL);
        assert_int_equal(l1.gdu_queries, N);
        assert_true(l1.evictions >= N - 128);
        assert_true(l1.gdu_inversions >= 1);               /* D flipped to FG */
        assert_true(l1.gdu_fg > N / 2);                    /* most misses FG */
        assert_true(l1.sector_fills < 2 * N);              /* CG-only: 4 N */
        assert_int_equal(mem_gdu_finish(m, now + 1), 0);
        mem_kernel_end(m);
        mem_stats(m, &l1, NULL, NULL);
        assert_int_equal(check_identity("l1", &l1, 0), 0);
        /* every L1D line has ended: each answer judged once; one sector
         * used per line, so every CG answer was wrong and no FG one */
        assert_int_equal(l1.gdu_fg_ended, l1.gdu_fg);
        assert_int_equal(l1.gdu_cg_ended, N - l1.gdu_fg);
        assert_int_equal(l1.gdu_cg_wrong, l1.gdu_cg_ended);
        assert_int_equal(l1.gdu_fg_wrong, 0);
        assert_int_equal(l1.gdu_cg_right_nref, 0);         /* every CG line was wrong */
        mem_sys_free(m);
    }
}

/* The learning statistics read from the block's ports agree with the C
 * model's own counters: refreshes (an inversion that falls on a refresh's
 * edge clears both arrays and counts as the inversion), closed skew
 * windows, and the units that learned. */
static void test_bgp_learning_counts(void **st)
{
    (void)st;
    struct cfg c;
    cfg_gdu(&c, G_BGP, CFG_LAMAR_LEVEL_L1);
    c.lamar_bgp_num_evict = 100;
    c.lamar_bgp_refresh = 64;
    struct mem_sys *m = drv_make(&c, 1);
    assert_non_null(m);
    mem_kernel_begin(m, "stream", 0, 0);
    enum { N = 3000 };
    static struct core_mem_req rs[N];
    for (unsigned i = 0; i < N; i++)   /* half the lines one sector, then all */
        rs[i] = drv_req(0, 0x100000 + (uint64_t)i * 128, i % 2 && i < 2 * N / 3 ? 0xf : 0x1, 0);
    uint64_t now = 0;
    assert_int_equal(drv_run(m, rs, N, 1, &now), N);
    assert_int_equal(mem_gdu_finish(m, now + 1), 0);
    ls_cache_stats l1;
    mem_stats(m, &l1, NULL, NULL);
    const struct bgp_state *b = m->sm[0].gdu.blk->cm;
    uint64_t clears = b->st.clears[0] + b->st.clears[1];
    assert_true(clears > 10 && l1.gdu_inversions >= 1);
    assert_true(l1.gdu_refreshes <= clears);
    assert_true(l1.gdu_refreshes + l1.gdu_inversions >= clears);
    assert_int_equal(l1.gdu_windows, b->st.evictions / 100);
    assert_int_equal(l1.gdu_units, 1);
    assert_int_equal(l1.gdu_units_windowed, 1);
    mem_sys_free(m);
}

/* Sums of q_by_windows (fg_by_windows with fg) from bucket 1: the queries
 * made after the GDU closed its first skew window. */
static uint64_t warm(const ls_cache_stats *s, int fg)
{
    uint64_t n = 0;
    for (unsigned b = 1; b < 9; b++)
        n += fg ? s->gdu_fg_win[b] : s->gdu_q_win[b];
    return n;
}

/* First fetches and warm queries: a line's first query counts in `first`,
 * its query after an eviction does not; under BGP the queries made after
 * the GDU's first skew window closed count from q_by_windows[1] on, and
 * each bucket's FG answers are among its queries. */
static void test_first_and_warm(void **st)
{
    (void)st;
    enum { N = 600, AGAIN = 100 };
    static struct core_mem_req rs[N + AGAIN];
    for (unsigned i = 0; i < N + AGAIN; i++)   /* 600 lines, then the first 100 again */
        rs[i] = drv_req(0, 0x200000 + (uint64_t)(i % N) * 128, 0x1, 0);
    for (int k = 0; k < 2; k++) {
        struct cfg c;
        cfg_gdu(&c, k ? G_BGP : G_CG, CFG_LAMAR_LEVEL_BOTH);
        c.lamar_bgp_num_evict = 100;
        struct mem_sys *m = drv_make(&c, 1);
        assert_non_null(m);
        mem_kernel_begin(m, "first", 0, 0);
        uint64_t now = 0;
        assert_int_equal(drv_run(m, rs, N + AGAIN, 1, &now), N + AGAIN);
        assert_int_equal(mem_gdu_finish(m, now + 1), 0);
        ls_cache_stats l1, l2;
        mem_stats(m, &l1, &l2, NULL);
        /* the L1D (128 lines) evicted the first 100 before they came again */
        assert_int_equal(l1.gdu_queries, N + AGAIN);
        assert_int_equal(l1.gdu_first, N);
        assert_true(l1.gdu_first_fg <= l1.gdu_fg);
        /* the L2 holds all 600: the second pass hits there, no query */
        assert_int_equal(l2.gdu_queries, N);
        assert_int_equal(l2.gdu_first, N);
        if (!k) {
            assert_int_equal(l1.gdu_fg + warm(&l1, 0) + warm(&l1, 1), 0);
            assert_int_equal(l1.gdu_q_win[0], N + AGAIN);
        } else {
            /* the first window closes at the L1D's 100th eviction, after
             * its 128 lines filled: 228 queries at most are cold */
            assert_true(l1.gdu_windows >= 4);
            assert_true(warm(&l1, 0) >= N + AGAIN - 228 && warm(&l1, 0) < N + AGAIN - 128);
            assert_int_equal(warm(&l1, 0) + l1.gdu_q_win[0], l1.gdu_queries);
            assert_int_equal(warm(&l1, 1) + l1.gdu_fg_win[0], l1.gdu_fg);
            for (unsigned b = 0; b < 9; b++)
                assert_true(l1.gdu_fg_win[b] <= l1.gdu_q_win[b]);
            /* 4+ windows: queries after the 2nd, 4th fall in buckets 2, 3 */
            assert_true(l1.gdu_q_win[2] > 0 && l1.gdu_q_win[3] > 0);
            assert_int_equal(warm(&l2, 0), 0);               /* no L2 eviction */
        }
        mem_sys_free(m);
    }
}

/* Under BGP the block is clocked through the seam: its edges cover the GPU
 * cycles since the first kernel began (stepped + skipped), with one
 * transaction per miss or eviction. */
static void test_bgp_seam_figures(void **st)
{
    (void)st;
    struct cfg c;
    cfg_gdu(&c, G_BGP, CFG_LAMAR_LEVEL_L1);
    struct mem_sys *m = drv_make(&c, 1);
    mem_kernel_begin(m, "k", 0, 10);
    uint64_t now = 10;
    run1(m, drv_req(0, 0x30000, 0x1, 0), &now);
    run1(m, drv_req(0, 0x30080, 0x1, 0), &now);
    assert_int_equal(mem_gdu_finish(m, now + 1), 0);
    ls_cosim_stats cs;
    memset(&cs, 0, sizeof cs);
    mem_gdu_cosim(m, &cs);
    assert_int_equal(cs.instances, 1);             /* lamar.level=l1: the SM's GDU */
    /* two queries, then two sweep evictions at the end */
    assert_int_equal(cs.transactions, 4);
    assert_int_equal(cs.cycles + cs.idle_skipped, now + 1 - 10 + 1);
    assert_int_equal(cs.mismatches, 0);
    mem_sys_free(m);
}

/* SPP: the pattern a PC's lines used is what its next miss fetches. */
static void test_spp_per_pc(void **st)
{
    (void)st;
    struct cfg c;
    cfg_gdu(&c, G_SPP, CFG_LAMAR_LEVEL_L1);
    c.l1d_size = c.l1d_assoc * c.l1d_line;     /* one set: every miss evicts */
    struct mem_sys *m = drv_make(&c, 1);
    uint64_t now = 0;
    enum { N = 40 };
    struct core_mem_req rs[N];
    for (unsigned i = 0; i < N; i++) {
        rs[i] = drv_req(0, 0x40000 + (uint64_t)i * 128, 0x3, 0);  /* sectors 0,1 */
        rs[i].pc = 77;
    }
    assert_int_equal(drv_run(m, rs, N, 1, &now), N);
    ls_cache_stats l1;
    mem_stats(m, &l1, NULL, NULL);
    /* no history: CG (4 sectors) until the first eviction teaches {0,1} */
    assert_true(l1.gdu_fg >= N - 8);
    assert_true(l1.sector_fills <= 2 * N + 2 * 8);
    assert_true(l1.sector_fills >= 2 * N);
    mem_sys_free(m);
}

/* static: the kernels named by lamar.static_fg fetch FG, the others CG. */
static void test_static_per_kernel(void **st)
{
    (void)st;
    struct cfg c;
    cfg_gdu(&c, G_STATIC, CFG_LAMAR_LEVEL_BOTH);
    c.lamar_static_fg = 2;                     /* the second .entry */
    struct mem_sys *m = drv_make(&c, 1);
    uint64_t now = 0;
    ls_cache_stats l1;
    mem_kernel_begin(m, "first", 0, now);
    run1(m, drv_req(0, 0x50000, 0x1, 0), &now);
    mem_stats(m, &l1, NULL, NULL);
    assert_int_equal(l1.sector_fills, 4);
    mem_kernel_end(m);
    mem_kernel_begin(m, "second", 1, now);
    run1(m, drv_req(0, 0x58000, 0x1, 0), &now);
    mem_stats(m, &l1, NULL, NULL);
    assert_int_equal(l1.sector_fills, 5);
    assert_int_equal(l1.gdu_fg, 1);
    mem_sys_free(m);
}

/* A random mixed stream under every scheme and level: the identity holds at
 * the L1D after the kernel-end sweep exactly, at the L2 with the live
 * predicted sectors; the hierarchy drains. And the identity checker fails
 * on stats with one sector moved between categories' total (fault). */
static void test_identity_random(void **st)
{
    (void)st;
    for (int g = G_CG; g <= G_INF; g++)
        for (int lv = CFG_LAMAR_LEVEL_L1; lv <= CFG_LAMAR_LEVEL_BOTH; lv++) {
            struct cfg c;
            cfg_gdu(&c, g, lv);
            c.l1d_size = 2048;
            c.l2_size = (int64_t)c.mem_partitions * c.l2_assoc * c.l2_line * 2;
            c.lamar_bgp_num_evict = 20;
            c.lamar_bgp_refresh = 16;
            struct mem_sys *m = drv_make(&c, 2);
            assert_non_null(m);
            mem_kernel_begin(m, "rnd", 0, 0);
            enum { N = 4000 };
            static struct core_mem_req rs[N];
            uint64_t x = 0x9e3779b97f4a7c15ull ^ (uint64_t)(g * 3 + lv);
            for (unsigned i = 0; i < N; i++) {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                uint8_t mask = (uint8_t)((x >> 8) & 0xF);
                rs[i] = drv_req((unsigned)(x & 1), 0x200000 + ((x >> 16) % 512) * 128,
                                mask ? mask : 1, (x >> 40) % 5 == 0);
                rs[i].pc = (uint32_t)((x >> 44) % 7);
            }
            uint64_t now = 0;
            assert_int_equal(drv_run(m, rs, N, 2, &now), N);
            assert_int_equal(mem_gdu_finish(m, now + 1), 0);
            mem_kernel_end(m);
            assert_true(mem_idle(m));
            ls_cache_stats l1, l2;
            mem_stats(m, &l1, &l2, NULL);
            assert_int_equal(check_identity("l1", &l1, 0), 0);
            uint64_t sum2 = l2.demand + l2.pred_ref + l2.pred_nref + l2.npred_ref;
            assert_true(sum2 <= l2.sector_fills);
            assert_true(l1.gdu_fg <= l1.gdu_queries);
            if (g == G_CG && lv == CFG_LAMAR_LEVEL_BOTH)
                assert_int_equal(l1.npred_ref, 0);     /* CG never leaves a sector */
            if (g == G_FG && lv == CFG_LAMAR_LEVEL_BOTH)
                assert_int_equal(l1.pred_ref + l1.pred_nref, 0);
            /* the checker can fail: one sector too many in a category */
            l1.npred_ref++;
            assert_int_equal(check_identity(NULL, &l1, 0), 1);
            mem_sys_free(m);
        }
}

/* Sub-ranked DRAM (5.2.1): an FG one-sector miss is one 32-byte burst, a
 * CG line four; the per-size classes add up to the channel's counters. */
static void test_subranked_dram_classes(void **st)
{
    (void)st;
    for (int g = G_CG; g <= G_FG; g++) {
        struct cfg c;
        cfg_gdu(&c, g, CFG_LAMAR_LEVEL_BOTH);
        c.dram_subranks = 2;
        struct mem_sys *m = drv_make(&c, 1);
        uint64_t now = 0;
        run1(m, drv_req(0, 0x60000, 0x1, 0), &now);
        ls_dram_stats d;
        mem_stats(m, NULL, NULL, &d);
        const ls_dram_class *k = &d.by_size[g == G_CG];
        assert_int_equal(k->requests, 1);
        assert_int_equal(d.by_size[g != G_CG].requests, 0);
        assert_int_equal(d.reads, g == G_CG ? 4 : 1);
        assert_int_equal(d.read_bytes, g == G_CG ? 128 : 32);
        assert_int_equal(k->reads, d.reads);
        assert_int_equal(k->row_hits + k->activates, k->reads + k->writes);
        assert_int_equal(d.bytes, d.read_bytes + d.write_bytes);
        mem_sys_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cg_fg_fetch),
        cmocka_unit_test(test_level),
        cmocka_unit_test(test_bgp_learns_streaming),
        cmocka_unit_test(test_bgp_seam_figures),
        cmocka_unit_test(test_bgp_learning_counts),
        cmocka_unit_test(test_first_and_warm),
        cmocka_unit_test(test_spp_per_pc),
        cmocka_unit_test(test_static_per_kernel),
        cmocka_unit_test(test_identity_random),
        cmocka_unit_test(test_subranked_dram_classes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
