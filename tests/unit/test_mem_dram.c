/* Unit tests of the DRAM channels and partitions of the timing memory
 * hierarchy (csim/mem): row hits vs activates for sequential and random
 * streams, streaming bandwidth against the configured peak, sub-ranks,
 * FR-FCFS vs FCFS, clock-domain independence of results, determinism. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_mem_drv.h"

enum { NSM = 15 };

static void base_cfg(struct cfg *c)
{
    cfg_defaults(c);
    char err[256] = "";
    assert_int_equal(cfg_load_file(c, "configs/gtx480.conf", err, sizeof err), 0);
    /* the hashed line map and atom-shared fills these tests were written
     * for; test_mem_part covers part_map = chunk and dram_sector_reads */
    c->part_map = CFG_PART_MAP_HASH;
    c->dram_sector_reads = 0;
}

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* n line reads spread round-robin over the SMs: sequential lines from base,
 * or random lines in a span of `span` bytes. */
static struct core_mem_req *stream(size_t n, uint64_t base, uint64_t span, uint8_t mask, int random)
{
    struct core_mem_req *rs = calloc(n, sizeof *rs);
    uint64_t seed = 12345;
    for (size_t i = 0; i < n; i++) {
        uint64_t line = random ? lcg(&seed) % (span / 128) : i;
        rs[i] = drv_req((unsigned)(i % NSM), base + line * 128, mask, 0);
    }
    return rs;
}

struct run_out { ls_cache_stats l1, l2; ls_dram_stats d; uint64_t cycles; };

static struct run_out run_stream(const struct cfg *c, struct core_mem_req *rs, size_t n)
{
    struct run_out o;
    struct mem_sys *m = drv_make(c, NSM);
    assert_non_null(m);
    uint64_t now = 0;
    assert_int_equal(drv_run(m, rs, n, NSM, &now), n);
    assert_true(mem_idle(m));
    o.cycles = now;
    mem_stats(m, &o.l1, &o.l2, &o.d);
    mem_sys_free(m);
    return o;
}

static double row_hit_rate(const ls_dram_stats *d)
{
    assert_int_equal(d->row_hits + d->activates, d->reads + d->writes);
    return (double)d->row_hits / (double)(d->reads + d->writes);
}

static void test_sequential_vs_random_rows(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    enum { N = 6000 };
    struct core_mem_req *seq = stream(N, 0, 0, 0xF, 0), *rnd = stream(N, 0, 256u << 20, 0xF, 1);
    struct run_out a = run_stream(&c, seq, N), b = run_stream(&c, rnd, N);
    assert_int_equal(a.d.bytes, (uint64_t)N * 128);
    printf("row hit rate: sequential %.3f random %.3f\n", row_hit_rate(&a.d), row_hit_rate(&b.d));
    assert_true(row_hit_rate(&a.d) > 0.8);
    assert_true(row_hit_rate(&b.d) < 0.6);     /* 128 B = 2 column commands: <= 1/2 + chance */
    assert_true(a.d.activates < b.d.activates);
    assert_true(a.cycles < b.cycles);
    free(seq);
    free(rnd);
}

static void test_streaming_bandwidth_below_peak_above_half(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    enum { N = 24000 };                                /* 3 MB: 4x the L2 */
    struct core_mem_req *rs = stream(N, 1u << 24, 0, 0xF, 0);
    struct run_out o = run_stream(&c, rs, N);
    double secs = (double)o.cycles / ((double)c.core_clock_mhz * 1e6);
    double bw = (double)o.d.bytes / secs;
    double peak = (double)c.mem_partitions * (double)c.dram_bus_bytes * (double)c.dram_clock_mhz * 1e6;
    printf("streaming: %.1f GB/s of %.1f GB/s peak (%llu cycles)\n", bw / 1e9, peak / 1e9,
           (unsigned long long)o.cycles);
    assert_true(bw < peak);
    assert_true(bw > 0.5 * peak);
    free(rs);
}

static void test_subranks_halve_random_sector_bytes(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    c.lamar_gdu = CFG_LAMAR_GDU_FG_ONLY;            /* fg_only: one-sector requests stay one sector */
    enum { N = 3000 };
    struct core_mem_req *rs = stream(N, 0, 64u << 20, 0x4, 1);   /* one 32 B sector */
    c.dram_subranks = 1;
    struct run_out one = run_stream(&c, rs, N);
    c.dram_subranks = 2;
    struct run_out two = run_stream(&c, rs, N);
    assert_int_equal(one.l2.misses, two.l2.misses);
    assert_int_equal(one.d.bytes, one.l2.sector_fills * (uint64_t)c.dram_atom_bytes);
    assert_int_equal(two.d.bytes * 2, one.d.bytes);
    assert_int_equal(two.d.bytes, two.l2.sector_fills * 32);
    free(rs);
}

static void test_frfcfs_raises_row_hits(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    enum { N = 6000 };
    /* two banks, random lines over 4 rows per bank: about eight queued
     * requests per bank, some to the open row, which FR-FCFS serves first */
    c.dram_banks = 2;
    uint64_t span = (uint64_t)c.mem_partitions * (uint64_t)c.dram_banks * (uint64_t)c.dram_row_bytes * 4;
    struct core_mem_req *rs = stream(N, 0, span, 0xF, 1);
    c.dram_sched = CFG_DRAM_SCHED_FCFS;
    struct run_out f = run_stream(&c, rs, N);
    c.dram_sched = CFG_DRAM_SCHED_FRFCFS;
    struct run_out fr = run_stream(&c, rs, N);
    printf("row hit rate: fcfs %.3f frfcfs %.3f; cycles %llu vs %llu\n", row_hit_rate(&f.d),
           row_hit_rate(&fr.d), (unsigned long long)f.cycles, (unsigned long long)fr.cycles);
    assert_int_equal(f.d.bytes, fr.d.bytes);
    assert_true(fr.d.row_hits > f.d.row_hits);
    assert_true(fr.d.activates < f.d.activates);
    assert_true(fr.cycles <= f.cycles);
    free(rs);
}

static void test_deterministic(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    enum { N = 4000 };
    struct core_mem_req *rs = stream(N, 0, 8u << 20, 0x9, 1);
    for (size_t i = 0; i < N; i += 3)
        rs[i].is_write = 1;
    for (size_t i = 1; i < N; i += 17)
        rs[i].is_atomic = 1;
    struct run_out a = run_stream(&c, rs, N), b = run_stream(&c, rs, N);
    assert_int_equal(a.cycles, b.cycles);
    assert_memory_equal(&a.l1, &b.l1, sizeof a.l1);
    assert_memory_equal(&a.l2, &b.l2, sizeof a.l2);
    assert_memory_equal(&a.d, &b.d, sizeof a.d);
    assert_true(a.d.reads > 0);
    free(rs);
}

static void test_slower_dram_clock_takes_longer(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    enum { N = 6000 };
    struct core_mem_req *rs = stream(N, 0, 0, 0xF, 0);
    struct run_out fast = run_stream(&c, rs, N);
    c.dram_clock_mhz /= 2;
    struct run_out slow = run_stream(&c, rs, N);
    assert_int_equal(fast.d.bytes, slow.d.bytes);     /* traffic is clock-independent */
    assert_true(slow.cycles > fast.cycles);
    free(rs);
}

static void test_fx5800_and_gscalar_configs_run(void **st)
{
    (void)st;
    const char *files[] = {"configs/fx5800.conf", "configs/gtx480-gscalar.conf"};
    for (size_t f = 0; f < 2; f++) {
        struct cfg c;
        cfg_defaults(&c);
        char err[256] = "";
        assert_int_equal(cfg_load_file(&c, files[f], err, sizeof err), 0);
        enum { N = 2000 };
        struct core_mem_req *rs = stream(N, 0, 4u << 20, 0x1, 1);
        for (size_t i = 0; i < N; i++)
            rs[i].line_addr &= ~(uint64_t)(c.l1d_line - 1);
        struct run_out o = run_stream(&c, rs, N);
        assert_int_equal(o.l1.accesses, N);
        assert_true(o.d.reads > 0);
        free(rs);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sequential_vs_random_rows),
        cmocka_unit_test(test_streaming_bandwidth_below_peak_above_half),
        cmocka_unit_test(test_subranks_halve_random_sector_bytes),
        cmocka_unit_test(test_frfcfs_raises_row_hits),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_slower_dram_clock_takes_longer),
        cmocka_unit_test(test_fx5800_and_gscalar_configs_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
