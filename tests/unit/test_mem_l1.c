/* Unit tests of the timing memory hierarchy's caches (csim/mem): sectored
 * L1D hits/misses/fills, MSHR merging and reservation failures, LRU order
 * and the used-sector histogram, DAC's line locks, the write-through L1D and the write-back
 * L2, atomics at L2, and the L1 invalidation at kernel end. Synthetic
 * request streams; no SM is involved. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_mem_drv.h"

static void base_cfg(struct cfg *c)
{
    cfg_defaults(c);
    char err[256] = "";
    assert_int_equal(cfg_load_file(c, "configs/gtx480.conf", err, sizeof err), 0);
    /* the hashed line map and atom-shared fills these tests were written
     * for; test_mem_part covers part_map = chunk and dram_sector_reads */
    c->part_map = CFG_PART_MAP_HASH;
    c->dram_sector_reads = 0;
    /* lines placed in sets by line number (gtx480 ships the Fermi hash) */
    c->l1d_set_index = CFG_L1D_SET_INDEX_LINEAR;
}

/* gtx480 fetching only the requested sectors (lamar.gdu = fg_only; the
 * shipped config fetches whole lines): the sector machinery under test */
static void base_cfg_fg(struct cfg *c)
{
    base_cfg(c);
    c->lamar_gdu = CFG_LAMAR_GDU_FG_ONLY;
}

static void run1(struct mem_sys *m, struct core_mem_req r, uint64_t *now)
{
    assert_int_equal(drv_run(m, &r, 1, 1, now), 1);
}

static void test_reread_small_array_hits(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    struct mem_sys *m = drv_make(&c, 1);
    assert_non_null(m);
    enum { LINES = 32, PASSES = 10 };      /* 4 KB: a quarter of the L1D */
    struct core_mem_req rs[LINES * PASSES];
    for (unsigned p = 0; p < PASSES; p++)
        for (unsigned i = 0; i < LINES; i++)
            rs[p * LINES + i] = drv_req(0, 0x10000 + (uint64_t)i * 128, 0xF, 0);
    uint64_t now = 0;
    assert_int_equal(drv_run(m, rs, LINES, 1, &now), LINES);           /* first touch */
    ls_cache_stats l1;
    mem_stats(m, &l1, NULL, NULL);
    assert_int_equal(l1.misses, LINES);
    assert_int_equal(l1.sector_fills, 4 * LINES);
    assert_int_equal(drv_run(m, rs + LINES, LINES * (PASSES - 1), 1, &now), LINES * (PASSES - 1));
    mem_stats(m, &l1, NULL, NULL);
    assert_int_equal(l1.accesses, LINES * PASSES);
    assert_int_equal(l1.hits, LINES * (PASSES - 1));                    /* every re-read hits */
    assert_true((double)l1.hits / (double)l1.accesses >= 0.89);
    assert_int_equal(l1.sector_fills, 4 * LINES);                       /* nothing refetched */
    mem_sys_free(m);
}

static void test_sector_fills_only_requested(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg_fg(&c);
    struct mem_sys *m = drv_make(&c, 1);
    uint64_t now = 0;
    ls_cache_stats l1, l2;
    ls_dram_stats d;
    run1(m, drv_req(0, 0x4000, 0x1, 0), &now);          /* sector 0 only */
    mem_stats(m, &l1, &l2, &d);
    assert_int_equal(l1.misses, 1);
    assert_int_equal(l1.sector_misses, 1);
    assert_int_equal(l1.sector_fills, 1);
    assert_int_equal(l2.sector_fills, 1);
    assert_int_equal(d.bytes, (uint64_t)c.dram_atom_bytes);   /* one atom, not the line */
    run1(m, drv_req(0, 0x4000, 0x3, 0), &now);          /* sector 1 is missing */
    mem_stats(m, &l1, &l2, &d);
    assert_int_equal(l1.misses, 2);
    assert_int_equal(l1.sector_misses, 2);
    assert_int_equal(l1.sector_fills, 2);
    assert_int_equal(l1.evictions, 0);                  /* the line stayed allocated */
    run1(m, drv_req(0, 0x4000, 0x3, 0), &now);
    mem_stats(m, &l1, NULL, NULL);
    assert_int_equal(l1.hits, 1);
    assert_int_equal(l1.sector_fills, 2);
    mem_sys_free(m);
}

static void test_mshr_merging(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg_fg(&c);
    struct mem_sys *m = drv_make(&c, 1);
    struct core_mem_req rs[3] = {drv_req(0, 0x8000, 0x1, 0), drv_req(0, 0x8000, 0x1, 0),
                                 drv_req(0, 0x8000, 0x3, 0)};
    uint64_t now = 0;
    assert_int_equal(drv_run(m, rs, 3, 1, &now), 3);
    ls_cache_stats l1, l2;
    mem_stats(m, &l1, &l2, NULL);
    assert_int_equal(l1.accesses, 3);
    assert_int_equal(l1.misses, 3);
    assert_int_equal(l1.mshr_merges, 2);
    assert_int_equal(l1.sector_fills, 2);
    assert_int_equal(l2.accesses, 2);                   /* sector 0 once, then sector 1 */
    mem_sys_free(m);
}

static void test_reservation_fail_when_mshrs_full(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    c.l1d_mshrs = 2;
    struct mem_sys *m = drv_make(&c, 1);
    struct core_mem_req a = drv_req(0, 0x0, 0xF, 0), b = drv_req(0, 0x80, 0xF, 0),
                        x = drv_req(0, 0x100, 0xF, 0);
    assert_true(mem_access(m, &a, 0));
    assert_true(mem_access(m, &b, 0));
    assert_false(mem_access(m, &x, 0));
    ls_cache_stats l1;
    mem_stats(m, &l1, NULL, NULL);
    assert_int_equal(l1.reservation_fails, 1);
    assert_int_equal(l1.accesses, 2);                   /* a refusal is not an access */
    char buf[512];
    assert_true(mem_describe(m, buf, sizeof buf) > 0);
    assert_non_null(strstr(buf, "MSHRs 2/2"));
    uint64_t now = 0;
    /* x is retried until accepted; a's and b's responses arrive meanwhile */
    assert_int_equal(drv_run(m, &x, 1, 1, &now), 3);
    assert_true(mem_idle(m));
    assert_int_equal(mem_next_event(m, now), UINT64_MAX);
    mem_sys_free(m);
}

/* gtx480's memory for one SM; *way: the distance between two lines of
 * one L1D set (the same set, the next tag). */
static struct mem_sys *one_set(struct cfg *c, uint64_t *way)
{
    base_cfg(c);
    *way = (uint64_t)(c->l1d_size / c->l1d_assoc);
    struct mem_sys *m = drv_make(c, 1);
    assert_non_null(m);
    return m;
}

static void test_lru_order_and_used_histogram(void **st)
{
    (void)st;
    struct cfg c;
    uint64_t way, now = 0;
    struct mem_sys *m = one_set(&c, &way);
    ls_cache_stats l1;
    run1(m, drv_req(0, 0 * way, 0x1, 0), &now);          /* A: 1 sector used */
    run1(m, drv_req(0, 1 * way, 0x3, 0), &now);          /* B: 2 */
    run1(m, drv_req(0, 2 * way, 0x7, 0), &now);          /* C: 3 */
    run1(m, drv_req(0, 3 * way, 0xF, 0), &now);          /* D: 4 */
    run1(m, drv_req(0, 0 * way, 0x1, 0), &now);          /* A hit: now B is LRU */
    mem_stats(m, &l1, NULL, NULL);
    assert_int_equal(l1.hits, 1);
    assert_int_equal(l1.evictions, 0);
    run1(m, drv_req(0, 4 * way, 0x1, 0), &now);          /* E evicts B */
    mem_stats(m, &l1, NULL, NULL);
    assert_int_equal(l1.evictions, 1);
    assert_int_equal(l1.used_sectors_hist[2], 1);
    run1(m, drv_req(0, 0 * way, 0x1, 0), &now);          /* A still resident */
    mem_stats(m, &l1, NULL, NULL);
    assert_int_equal(l1.hits, 2);
    run1(m, drv_req(0, 1 * way, 0x1, 0), &now);          /* B misses, evicts C */
    mem_stats(m, &l1, NULL, NULL);
    assert_int_equal(l1.evictions, 2);
    assert_int_equal(l1.used_sectors_hist[3], 1);
    assert_int_equal(l1.used_sectors_hist[2], 1);
    mem_kernel_end(m);                                   /* sweep A, D, E, B */
    mem_stats(m, &l1, NULL, NULL);
    assert_int_equal(l1.evictions, 2);                   /* the sweep is not an eviction */
    assert_int_equal(l1.used_sectors_hist[1], 3);        /* A, E, B */
    assert_int_equal(l1.used_sectors_hist[4], 1);        /* D */
    mem_sys_free(m);
}

/* DAC locks (docs/dac.md "The units"): a locked line is not a victim
 * while an unlocked way is; with every way locked the LRU locked line
 * goes and counts as a broken lock; an unlock (the deq's access) makes a
 * line a victim again. */
static void test_dac_locks(void **st)
{
    (void)st;
    struct cfg c;
    uint64_t now = 0;
    base_cfg(&c);
    c.dac_lock_break = CFG_DAC_LOCK_BREAK_ON;   /* every way locked: one breaks */
    uint64_t way = (uint64_t)(c.l1d_size / c.l1d_assoc);
    struct mem_sys *m = drv_make(&c, 1);
    assert_non_null(m);
    ls_cache_stats l1;
    assert_int_equal(c.l1d_assoc, 4);
    struct core_mem_req a = drv_req(0, 0 * way, 0x1, 0);
    a.lock = 1;
    run1(m, a, &now);                                    /* A locked, LRU */
    for (uint64_t k = 1; k <= 3; k++)
        run1(m, drv_req(0, k * way, 0x1, 0), &now);      /* B C D */
    run1(m, drv_req(0, 4 * way, 0x1, 0), &now);          /* E evicts B, not A */
    run1(m, drv_req(0, 0 * way, 0x1, 0), &now);
    mem_stats(m, &l1, NULL, NULL);
    assert_int_equal(l1.hits, 1);                        /* A still there */
    assert_int_equal(l1.locks_broken, 0);
    for (uint64_t k = 2; k <= 4; k++) {                  /* lock C D E as well */
        struct core_mem_req r = drv_req(0, k * way, 0x1, 0);
        r.lock = 1;
        run1(m, r, &now);
    }
    run1(m, drv_req(0, 5 * way, 0x1, 0), &now);          /* F: every way locked */
    mem_stats(m, &l1, NULL, NULL);
    assert_int_equal(l1.locks_broken, 1);                /* the LRU locked one: A */
    struct core_mem_req u = drv_req(0, 3 * way, 0x1, 0); /* the deq of D unlocks it */
    u.unlock = 1;
    run1(m, u, &now);
    run1(m, drv_req(0, 6 * way, 0x1, 0), &now);          /* G evicts F, then ... */
    run1(m, drv_req(0, 7 * way, 0x1, 0), &now);          /* ... H evicts D, unlocked */
    mem_stats(m, &l1, NULL, NULL);
    assert_int_equal(l1.locks_broken, 1);
    uint64_t hits = l1.hits;
    run1(m, drv_req(0, 2 * way, 0x1, 0), &now);          /* C, E still locked there */
    run1(m, drv_req(0, 4 * way, 0x1, 0), &now);
    mem_stats(m, &l1, NULL, NULL);
    assert_int_equal(l1.hits, hits + 2);
    mem_sys_free(m);
}

/* Three ways of a set locked (the AEU's per-set bound), D missing in the
 * fourth, E arriving while D is pending: with dac.lock_break=off (the
 * paper's 4.2) E waits (a reservation failure) and then replaces D, every
 * locked line stays; with on, E evicts the LRU locked line at once. */
static void locks_pending(unsigned brk, uint64_t *broken, uint64_t *rf, uint64_t *hits)
{
    struct cfg c;
    uint64_t now = 0;
    base_cfg(&c);
    c.dac_lock_break = brk;
    uint64_t way = (uint64_t)(c.l1d_size / c.l1d_assoc);
    struct mem_sys *m = drv_make(&c, 1);
    assert_non_null(m);
    for (uint64_t k = 0; k < 3; k++) {                   /* A B C locked */
        struct core_mem_req r = drv_req(0, k * way, 0x1, 0);
        r.lock = 1;
        run1(m, r, &now);
    }
    struct core_mem_req de[2] = { drv_req(0, 3 * way, 0x1, 0), drv_req(0, 4 * way, 0x1, 0) };
    assert_int_equal(drv_run(m, de, 2, 1, &now), 2);     /* D, E behind it */
    ls_cache_stats l1;
    mem_stats(m, &l1, NULL, NULL);
    *broken = l1.locks_broken;
    *rf = l1.reservation_fails;
    uint64_t h0 = l1.hits;
    for (uint64_t k = 0; k < 3; k++)
        run1(m, drv_req(0, k * way, 0x1, 0), &now);
    mem_stats(m, &l1, NULL, NULL);
    *hits = l1.hits - h0;
    mem_sys_free(m);
}

static void test_dac_locks_kept(void **st)
{
    (void)st;
    uint64_t broken, rf, hits;
    locks_pending(CFG_DAC_LOCK_BREAK_OFF, &broken, &rf, &hits);
    assert_int_equal(broken, 0);
    assert_true(rf > 0);                                 /* E waited for D */
    assert_int_equal(hits, 3);                           /* A B C still there */
    locks_pending(CFG_DAC_LOCK_BREAK_ON, &broken, &rf, &hits);
    assert_int_equal(broken, 1);                         /* E took A */
    assert_int_equal(hits, 2);
}

static void test_write_through_no_allocate(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg_fg(&c);
    struct mem_sys *m = drv_make(&c, 1);
    uint64_t now = 0;
    ls_cache_stats l1, l2;
    ls_dram_stats d;
    run1(m, drv_req(0, 0x2000, 0x1, 1), &now);           /* store to an absent line */
    mem_stats(m, &l1, &l2, &d);
    assert_int_equal(l1.accesses, 1);
    assert_int_equal(l1.misses, 1);
    assert_int_equal(l1.sector_fills, 0);
    assert_int_equal(l2.accesses, 1);                    /* passed through */
    assert_int_equal(d.reads, 0);                        /* L2 allocates without a fetch */
    run1(m, drv_req(0, 0x2000, 0x1, 0), &now);           /* not allocated in L1, hits L2 */
    mem_stats(m, &l1, &l2, &d);
    assert_int_equal(l1.misses, 2);
    assert_int_equal(l2.hits, 1);
    assert_int_equal(d.reads, 0);
    run1(m, drv_req(0, 0x2000, 0x1, 1), &now);           /* store hit: still written through */
    mem_stats(m, &l1, &l2, &d);
    assert_int_equal(l1.hits, 1);
    assert_int_equal(l2.accesses, 3);
    assert_int_equal(d.writes, 0);                       /* L2 is write-back */
    mem_sys_free(m);
}

/* l1d_store_hit: a global store that hits invalidates the line under
 * evict (GPGPU-Sim's write-evict), keeps it under update; a local store's
 * hit keeps it under both. Returns the L1D hits of load, store, load. */
static uint64_t store_hit_then_load(int policy, unsigned space)
{
    struct cfg c;
    base_cfg(&c);
    c.l1d_store_hit = policy;
    struct mem_sys *m = drv_make(&c, 1);
    uint64_t now = 0;
    struct core_mem_req ld = drv_req(0, 0x4000, 0xF, 0), sto = drv_req(0, 0x4000, 0x1, 1);
    ld.space = sto.space = (uint8_t)space;
    run1(m, ld, &now);                                   /* miss, fills the line */
    run1(m, sto, &now);                                  /* store hit */
    run1(m, ld, &now);
    ls_cache_stats l1;
    mem_stats(m, &l1, NULL, NULL);
    assert_int_equal(l1.accesses, 3);
    mem_sys_free(m);
    return l1.hits;
}

static void test_store_hit_policy(void **st)
{
    (void)st;
    assert_int_equal(store_hit_then_load(CFG_L1D_STORE_HIT_UPDATE, PTX_SP_GLOBAL), 2);
    assert_int_equal(store_hit_then_load(CFG_L1D_STORE_HIT_EVICT, PTX_SP_GLOBAL), 1);
    assert_int_equal(store_hit_then_load(CFG_L1D_STORE_HIT_EVICT, PTX_SP_LOCAL), 2);
}

static void test_l2_writeback_on_eviction(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    c.l2_size = c.mem_partitions * c.l2_assoc * c.l2_line;   /* one set per slice */
    struct mem_sys *m = drv_make(&c, 1);
    enum { N = 2000 };
    static struct core_mem_req rs[N];
    for (unsigned i = 0; i < N; i++)
        rs[i] = drv_req(0, (uint64_t)i * 128, 0x3, 1);
    uint64_t now = 0;
    assert_int_equal(drv_run(m, rs, N, 1, &now), N);
    ls_cache_stats l2;
    ls_dram_stats d;
    mem_stats(m, NULL, &l2, &d);
    assert_true(l2.evictions > 0);
    assert_int_equal(d.writes, l2.evictions);            /* each dirty victim: one atom */
    assert_int_equal(l2.used_sectors_hist[2], l2.evictions);
    mem_sys_free(m);
}

static void test_l2_hit_after_kernel_end(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    struct mem_sys *m = drv_make(&c, 1);
    uint64_t now = 0;
    ls_cache_stats l1, l2;
    ls_dram_stats d;
    run1(m, drv_req(0, 0x6000, 0xF, 0), &now);
    mem_kernel_end(m);
    run1(m, drv_req(0, 0x6000, 0xF, 0), &now);
    mem_stats(m, &l1, &l2, &d);
    assert_int_equal(l1.hits, 0);                        /* L1 invalidated */
    assert_int_equal(l1.misses, 2);
    assert_int_equal(l2.hits, 1);                        /* L2 kept */
    assert_int_equal(l2.misses, 1);
    assert_int_equal(d.reads, 2);                        /* 128 B = 2 atoms, once */
    mem_sys_free(m);
}

static void test_atomics_bypass_l1(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    struct mem_sys *m = drv_make(&c, 1);
    uint64_t now = 0;
    struct core_mem_req r = drv_req(0, 0x3000, 0x1, 0);
    r.is_atomic = 1;
    run1(m, r, &now);
    run1(m, r, &now);
    ls_cache_stats l1, l2;
    mem_stats(m, &l1, &l2, NULL);
    assert_int_equal(l1.accesses, 0);
    assert_int_equal(l2.accesses, 2);
    assert_int_equal(l2.hits, 1);
    mem_sys_free(m);
}

static void test_hit_latency_and_miss_slower(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    struct mem_sys *m = drv_make(&c, 1);
    uint64_t t0 = 100, now = t0;
    run1(m, drv_req(0, 0x9000, 0xF, 0), &now);
    uint64_t miss = now - t0;
    t0 = now;
    run1(m, drv_req(0, 0x9000, 0xF, 0), &now);
    uint64_t hit = now - t0;
    assert_int_equal(hit, (uint64_t)c.l1d_latency);
    /* a miss goes through the icnt twice, the L2 and DRAM (tRCD + tCL) */
    uint64_t dram_min = (uint64_t)((c.dram_tRCD + c.dram_tCL) * c.core_clock_mhz / c.dram_clock_mhz);
    assert_true(miss > hit + 2 * (uint64_t)c.icnt_latency + (uint64_t)c.l2_latency + dram_min);
    mem_sys_free(m);
}

static void test_no_l1_config(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    c.l1d_size = 0;
    struct mem_sys *m = drv_make(&c, 2);
    assert_non_null(m);
    struct core_mem_req rs[4] = {drv_req(0, 0x0, 0xF, 0), drv_req(1, 0x0, 0xF, 0),
                                 drv_req(0, 0x0, 0xF, 0), drv_req(1, 0x80, 0x1, 1)};
    uint64_t now = 0;
    assert_int_equal(drv_run(m, rs, 4, 2, &now), 4);
    ls_cache_stats l1, l2;
    mem_stats(m, &l1, &l2, NULL);
    assert_int_equal(l1.accesses, 0);
    assert_int_equal(l2.accesses, 4);
    mem_sys_free(m);
}

static void test_create_rejects_bad_geometry(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    c.l2_line = 64;                                      /* smaller than l1d_line */
    c.l2_size = c.mem_partitions * c.l2_assoc * 64 * 8;
    char err[256] = "";
    assert_null(mem_sys_create(&c, 1, err, sizeof err));
    assert_non_null(strstr(err, "l2_line"));
    assert_non_null(strstr(err, "mem_sys.c:"));
}

/* L1D set index: eight lines 147456 bytes apart (kmeans' feature columns
 * at large input: a multiple of 32 sets x 128 bytes) share one set of the
 * 4-way L1D under linear indexing, so a second pass misses every line;
 * under the Fermi hash (l1d_set_index = fermi) they spread over sets and
 * the second pass hits every line. A geometry the hash does not cover is
 * refused. */
static unsigned set_index_second_pass_misses(int fermi)
{
    struct cfg c;
    base_cfg(&c);
    c.l1d_set_index = fermi ? CFG_L1D_SET_INDEX_FERMI : CFG_L1D_SET_INDEX_LINEAR;
    struct mem_sys *m = drv_make(&c, 1);
    assert_non_null(m);
    enum { LINES = 8 };
    struct core_mem_req rs[LINES];
    for (unsigned i = 0; i < LINES; i++)
        rs[i] = drv_req(0, 0x100000 + (uint64_t)i * 147456, 0xF, 0);
    uint64_t now = 0;
    assert_int_equal(drv_run(m, rs, LINES, 1, &now), LINES);
    ls_cache_stats a, b;
    mem_stats(m, &a, NULL, NULL);
    for (unsigned i = 0; i < LINES; i++)
        rs[i] = drv_req(0, 0x100000 + (uint64_t)i * 147456, 0xF, 0);
    assert_int_equal(drv_run(m, rs, LINES, 1, &now), LINES);
    mem_stats(m, &b, NULL, NULL);
    mem_sys_free(m);
    return (unsigned)(b.misses - a.misses);
}

static void test_set_index_fermi(void **st)
{
    (void)st;
    assert_int_equal(set_index_second_pass_misses(0), 8);
    assert_int_equal(set_index_second_pass_misses(1), 0);
    struct cfg c;
    base_cfg(&c);
    c.l1d_set_index = CFG_L1D_SET_INDEX_FERMI;
    c.l1d_size = 8192;                                   /* 16 sets */
    char err[256] = "";
    assert_null(mem_sys_create(&c, 1, err, sizeof err));
    assert_non_null(strstr(err, "l1d_set_index"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reread_small_array_hits),
        cmocka_unit_test(test_sector_fills_only_requested),
        cmocka_unit_test(test_mshr_merging),
        cmocka_unit_test(test_reservation_fail_when_mshrs_full),
        cmocka_unit_test(test_lru_order_and_used_histogram),
        cmocka_unit_test(test_dac_locks),
        cmocka_unit_test(test_dac_locks_kept),
        cmocka_unit_test(test_write_through_no_allocate),
        cmocka_unit_test(test_store_hit_policy),
        cmocka_unit_test(test_l2_writeback_on_eviction),
        cmocka_unit_test(test_l2_hit_after_kernel_end),
        cmocka_unit_test(test_atomics_bypass_l1),
        cmocka_unit_test(test_hit_latency_and_miss_slower),
        cmocka_unit_test(test_no_l1_config),
        cmocka_unit_test(test_set_index_fermi),
        cmocka_unit_test(test_create_rejects_bad_geometry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
