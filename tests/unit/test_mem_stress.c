/* Stress tests of the timing memory hierarchy (csim/mem): random mixed
 * load/store/atomic streams from several SMs under deliberately cramped and
 * unusual geometries (tiny caches, few MSHRs, a one-entry DRAM queue, no
 * L1D, no L2, sub-ranks, FCFS, odd clock ratios). Every request must get
 * exactly one completion, the hierarchy must drain to idle, and the
 * counters must obey their identities. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_mem_drv.h"

enum { NSM = 4, N = 5000 };

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* A stream with locality: a hot 16-line region and a cold 4 MB region. */
static void make_stream(struct core_mem_req *rs, unsigned line, uint64_t seed)
{
    for (size_t i = 0; i < N; i++) {
        uint64_t r = lcg(&seed);
        uint64_t l = (r & 1) ? (r >> 1) % 16 : (r >> 1) % (4u << 20) / line;
        uint8_t mask = (uint8_t)((lcg(&seed) % ((1u << (line / 32)) - 1)) + 1);
        rs[i] = drv_req((unsigned)(i % NSM), 0x100000 + l * line, mask, lcg(&seed) % 4 == 0);
        if (lcg(&seed) % 16 == 0) {
            rs[i].is_write = 0;
            rs[i].is_atomic = 1;
        }
    }
}

static void check_run(const struct cfg *c, const char *what)
{
    static struct core_mem_req rs[N];
    make_stream(rs, (unsigned)c->l1d_line, 99);
    char err[256] = "";
    struct mem_sys *m = mem_sys_create(c, NSM, err, sizeof err);
    if (!m)
        fprintf(stderr, "%s: %s\n", what, err);
    assert_non_null(m);
    uint64_t now = 0;
    size_t got = drv_run(m, rs, N, NSM, &now);
    if (got != N || !mem_idle(m)) {
        char buf[4096];
        mem_describe(m, buf, sizeof buf);
        fprintf(stderr, "%s: %zu of %d completions\n%s", what, got, N, buf);
    }
    assert_int_equal(got, N);
    assert_true(mem_idle(m));
    assert_int_equal(mem_next_event(m, now), UINT64_MAX);
    ls_cache_stats l1, l2;
    ls_dram_stats d;
    mem_stats(m, &l1, &l2, &d);
    assert_int_equal(l1.hits + l1.misses, l1.accesses);
    assert_int_equal(l2.hits + l2.misses, l2.accesses);
    /* fg_only fetches only missing requested sectors; cg_only (the shipped
     * configs) and the predicting GDUs add the rest of the line */
    if (c->lamar_gdu == CFG_LAMAR_GDU_FG_ONLY) {
        assert_true(l1.sector_fills <= l1.sector_misses);
        assert_true(l2.sector_fills <= l2.sector_misses);
    }
    assert_true(l1.sector_fills <= l1.misses * (uint64_t)(c->l1d_line / c->l1d_sector));
    assert_true(l2.sector_fills <= l2.misses * (uint64_t)(c->l2_line / c->l2_sector));
    assert_true(l1.mshr_merges <= l1.misses);
    assert_int_equal(d.row_hits + d.activates, d.reads + d.writes);
    assert_true(d.precharges <= d.activates);
    unsigned atom = (unsigned)(c->dram_atom_bytes / c->dram_subranks);
    assert_int_equal(d.bytes, (d.reads + d.writes) * atom);
    uint64_t hist = 0;
    for (unsigned i = 0; i <= LS_MAX_SECTORS; i++)
        hist += l2.used_sectors_hist[i];
    assert_int_equal(hist, l2.evictions);
    mem_kernel_end(m);
    mem_stats(m, &l1, NULL, NULL);
    hist = 0;
    for (unsigned i = 0; i <= LS_MAX_SECTORS; i++)
        hist += l1.used_sectors_hist[i];
    assert_true(hist >= l1.evictions);               /* evictions + swept lines */
    mem_sys_free(m);
}

static void gtx(struct cfg *c)
{
    cfg_defaults(c);
    char err[256] = "";
    assert_int_equal(cfg_load_file(c, "configs/gtx480.conf", err, sizeof err), 0);
}

static void test_shipped_geometry(void **st)
{
    (void)st;
    struct cfg c;
    gtx(&c);
    check_run(&c, "gtx480");
    c.lamar_gdu = CFG_LAMAR_GDU_FG_ONLY;          /* fg_only: the sector-exact identities */
    check_run(&c, "gtx480 fg_only");
    c.l1d_mshrs = 2;          /* cramped MSHRs at both levels */
    c.l2_mshrs = 1;
    check_run(&c, "gtx480 fg_only, 2 L1D and 1 L2 MSHRs");
    cfg_defaults(&c);
    char err[256] = "";
    assert_int_equal(cfg_load_file(&c, "configs/fx5800.conf", err, sizeof err), 0);
    check_run(&c, "fx5800");
}

static void test_cramped(void **st)
{
    (void)st;
    struct cfg c;
    gtx(&c);
    c.l1d_size = 1024;        /* 2 sets of 4 ways */
    c.l1d_set_index = CFG_L1D_SET_INDEX_LINEAR;   /* the hash needs 32 or 64 sets */
    c.l1d_mshrs = 2;
    c.l2_size = c.mem_partitions * c.l2_assoc * c.l2_line;  /* 1 set per slice */
    c.dram_queue = 1;
    c.dram_banks = 1;
    check_run(&c, "cramped");
    c.l2_assoc = 1;
    c.l2_size = c.mem_partitions * c.l2_line;               /* one line per slice */
    c.l1d_assoc = 1;
    c.l1d_size = 128;
    check_run(&c, "one-line caches");
}

static void test_no_caches(void **st)
{
    (void)st;
    struct cfg c;
    gtx(&c);
    c.l1d_size = 0;
    c.l2_size = 0;
    check_run(&c, "no caches");
    c.l1d_size = 16384;
    check_run(&c, "no L2");
}

static void test_options_and_clocks(void **st)
{
    (void)st;
    struct cfg c;
    gtx(&c);
    c.dram_subranks = 2;
    c.dram_sched = CFG_DRAM_SCHED_FCFS;
    check_run(&c, "subranks fcfs");
    gtx(&c);
    c.core_clock_mhz = 700;   /* DRAM and icnt faster than the core */
    c.icnt_clock_mhz = 1999;
    c.dram_clock_mhz = 1777;
    c.mem_partitions = 5;
    c.l2_size = 5 * 8 * 128 * 16;
    c.l2_assoc = 8;
    check_run(&c, "odd clocks");
    gtx(&c);
    c.l2_line = 256;          /* an L2 line holds two L1 lines */
    c.l2_sector = 64;
    c.l2_size = c.mem_partitions * c.l2_assoc * 256 * 4;
    check_run(&c, "wide L2 lines");
}

/* Plays rs through a fresh hierarchy, either visiting every cycle or
 * jumping to mem_next_event when nothing is offered (as the GPU loop does);
 * records each request's completion cycle. */
static void timed_run(const struct cfg *c, struct core_mem_req *rs, size_t n, bool skip, uint64_t *done,
                      ls_cache_stats *l1, ls_cache_stats *l2, ls_dram_stats *d)
{
    struct mem_sys *m = drv_make(c, NSM);
    assert_non_null(m);
    size_t next = 0, got = 0;
    uint64_t t = 0;
    for (;;) {
        mem_cycle(m, t);
        struct core_mem_resp r;
        for (unsigned s = 0; s < NSM; s++)
            while (mem_pop_resp(m, s, t, &r)) {
                assert_true(r.tag < n);
                assert_int_equal(done[r.tag], UINT64_MAX);   /* exactly once */
                done[r.tag] = t;
                got++;
            }
        while (next < n) {
            rs[next].tag = (uint32_t)next;
            if (!mem_access(m, &rs[next], t))
                break;
            next++;
        }
        if (next == n && got == n && mem_idle(m))
            break;
        uint64_t nx = mem_next_event(m, t);
        assert_true(nx > t);
        t = (!skip || next < n) ? t + 1 : nx;
        assert_true(t < 100000000u);
    }
    mem_stats(m, l1, l2, d);
    mem_sys_free(m);
}

static void test_skipping_idle_cycles_changes_nothing(void **st)
{
    (void)st;
    struct cfg c;
    gtx(&c);
    static struct core_mem_req rs[N];
    static uint64_t a[N], b[N];
    make_stream(rs, (unsigned)c.l1d_line, 7);
    for (size_t i = 0; i < N; i++)
        a[i] = b[i] = UINT64_MAX;
    ls_cache_stats l1a, l2a, l1b, l2b;
    ls_dram_stats da, db;
    timed_run(&c, rs, N, false, a, &l1a, &l2a, &da);
    timed_run(&c, rs, N, true, b, &l1b, &l2b, &db);
    for (size_t i = 0; i < N; i++)
        assert_int_equal(a[i], b[i]);
    assert_memory_equal(&l1a, &l1b, sizeof l1a);
    assert_memory_equal(&l2a, &l2b, sizeof l2a);
    assert_memory_equal(&da, &db, sizeof da);
    /* a short burst: the skipping run jumps over most of the miss latency */
    struct core_mem_req one[64];
    uint64_t t1[64], t2[64];
    for (size_t i = 0; i < 64; i++) {
        one[i] = rs[i];
        t1[i] = t2[i] = UINT64_MAX;
    }
    timed_run(&c, one, 64, false, t1, &l1a, &l2a, &da);
    timed_run(&c, one, 64, true, t2, &l1b, &l2b, &db);
    assert_memory_equal(t1, t2, sizeof t1);
    assert_memory_equal(&da, &db, sizeof da);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_geometry),
        cmocka_unit_test(test_cramped),
        cmocka_unit_test(test_no_caches),
        cmocka_unit_test(test_options_and_clocks),
        cmocka_unit_test(test_skipping_idle_cycles_changes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
