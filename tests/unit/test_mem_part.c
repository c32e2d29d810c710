/* Unit tests of the memory partition's timing keys that follow GPGPU-Sim's
 * model (docs/memory-hierarchy.md): the ROP delay before the L2 lookup
 * (l2_rop_latency, texture fetches excepted), the fixed delay before the
 * DRAM scheduler (dram_latency), the reply header (icnt_reply_hdr), the L2
 * MSHR count (l2_mshrs), the L2 sub-partitions' data width (l2_port_bytes)
 * and the DRAM timings tRRD, tRC, tWTR, tRTW, tWR.
 * Each key is compared with the same stream without it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "test_mem_drv.h"
#include "mem/mem_int.h"

enum { NSM = 15 };

/* gtx480 with the keys under test at their neutral values */
static void base_cfg(struct cfg *c)
{
    cfg_defaults(c);
    char err[256] = "";
    assert_int_equal(cfg_load_file(c, "configs/gtx480.conf", err, sizeof err), 0);
    /* the hashed line map and atom-shared fills these tests were written
     * for; test_mem_part covers part_map = chunk and dram_sector_reads */
    c->part_map = CFG_PART_MAP_HASH;
    c->dram_sector_reads = 0;
    c->l2_rop_latency = 0;
    c->dram_latency = 0;
    c->icnt_reply_hdr = 0;
    c->dram_tRRD = c->dram_tRC = c->dram_tWTR = c->dram_tRTW = c->dram_tWR = 0;
}

/* Cycles one request takes from cycle 1000 through an idle hierarchy. */
static uint64_t one_trip(const struct cfg *c, struct core_mem_req r)
{
    struct mem_sys *m = drv_make(c, 1);
    assert_non_null(m);
    uint64_t now = 1000;
    assert_int_equal(drv_run(m, &r, 1, 1, &now), 1);
    mem_sys_free(m);
    return now - 1000;
}

/* Cycles an L2 hit takes: the line is fetched once, the L1D invalidated,
 * then read again. */
static uint64_t l2_hit_trip(const struct cfg *c, uint8_t space)
{
    struct mem_sys *m = drv_make(c, 1);
    assert_non_null(m);
    struct core_mem_req r = drv_req(0, 0x40000, 0xF, 0);
    r.space = space;
    uint64_t now = 0;
    assert_int_equal(drv_run(m, &r, 1, 1, &now), 1);
    mem_kernel_end(m);
    now += 1000;
    uint64_t t0 = now;
    assert_int_equal(drv_run(m, &r, 1, 1, &now), 1);
    ls_cache_stats l2;
    mem_stats(m, NULL, &l2, NULL);
    assert_int_equal(l2.hits, 1);
    mem_sys_free(m);
    return now - t0;
}

static void test_rop_latency_delays_every_lookup_but_textures(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    uint64_t hit0 = l2_hit_trip(&c, PTX_SP_GLOBAL);
    uint64_t miss0 = one_trip(&c, drv_req(0, 0x80000, 0xF, 0));
    uint64_t tex0 = l2_hit_trip(&c, PTX_SP_TEX);
    c.l2_rop_latency = 120;
    uint64_t hit = l2_hit_trip(&c, PTX_SP_GLOBAL);
    uint64_t miss = one_trip(&c, drv_req(0, 0x80000, 0xF, 0));
    uint64_t tex = l2_hit_trip(&c, PTX_SP_TEX);
    printf("L2 hit %llu -> %llu cycles, miss %llu -> %llu, texture hit %llu -> %llu\n",
           (unsigned long long)hit0, (unsigned long long)hit, (unsigned long long)miss0,
           (unsigned long long)miss, (unsigned long long)tex0, (unsigned long long)tex);
    assert_int_equal(hit, hit0 + 120);
    /* the DRAM clock's ticks may round the miss by a cycle */
    assert_true(miss >= miss0 + 119 && miss <= miss0 + 121);
    assert_int_equal(tex, tex0);
}

static void test_dram_latency_delays_misses_only(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    c.dram_tXP = 0;    /* dram_latency alone (test_mem_power checks tXP) */
    uint64_t hit0 = l2_hit_trip(&c, PTX_SP_GLOBAL);
    uint64_t miss0 = one_trip(&c, drv_req(0, 0x80000, 0xF, 0));
    c.dram_latency = 100;
    uint64_t hit = l2_hit_trip(&c, PTX_SP_GLOBAL);
    uint64_t miss = one_trip(&c, drv_req(0, 0x80000, 0xF, 0));
    printf("DRAM miss %llu -> %llu cycles\n", (unsigned long long)miss0, (unsigned long long)miss);
    assert_int_equal(hit, hit0);
    /* two clock-domain crossings may round by a cycle each */
    assert_true(miss >= miss0 + 99 && miss <= miss0 + 102);
}

/* Cycles 128 line reads (every partition, alternating SMs a and b of four)
 * take under icnt_sm_share = share. */
static uint64_t two_sm_reads(struct cfg c, int share, unsigned a, unsigned b)
{
    c.icnt_sm_share = share;
    struct core_mem_req rs[128];
    for (unsigned i = 0; i < 128; i++)
        rs[i] = drv_req(i % 2 ? b : a, 0x100000 + (uint64_t)i * 128u, 0xF, 0);
    struct mem_sys *m = drv_make(&c, 4);
    assert_non_null(m);
    uint64_t now = 0;
    assert_int_equal(drv_run(m, rs, 128, 4, &now), 128);
    mem_sys_free(m);
    return now;
}

/* icnt_sm_share: SMs s and s + SMs / share share one port (GPGPU-Sim's
 * cluster); their replies (4 flits each) queue at it */
static void test_sm_share_one_port(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    c.icnt_bytes_per_cycle = 32;
    uint64_t apart = two_sm_reads(c, 1, 0, 2);
    uint64_t neighbours = two_sm_reads(c, 2, 0, 1);   /* ports 0 and 1 */
    uint64_t shared = two_sm_reads(c, 2, 0, 2);       /* both on port 0 */
    printf("128 line reads from two SMs: %llu cycles on two ports, %llu on "
           "neighbouring SMs sharing by two, %llu on one port\n",
           (unsigned long long)apart, (unsigned long long)neighbours,
           (unsigned long long)shared);
    assert_int_equal(neighbours, apart);
    /* one port takes every reply's 4 flits: 512 icnt cycles at least */
    assert_true(shared > apart + apart / 4);
}

/* Precharges of two reads to row groups 0 and dram_banks of one channel
 * under dram_bank_index = idx. */
static uint64_t two_rows_precharges(struct cfg c, int idx)
{
    c.dram_bank_index = idx;
    c.mem_partitions = 1;
    c.icnt_part_ports = 1;
    struct core_mem_req rs[2] = {
        drv_req(0, 0, 0xF, 0),
        drv_req(0, (uint64_t)c.dram_banks * (uint64_t)c.dram_row_bytes, 0xF, 0),
    };
    struct mem_sys *m = drv_make(&c, 1);
    assert_non_null(m);
    uint64_t now = 0;
    assert_int_equal(drv_run(m, rs, 2, 1, &now), 2);
    ls_dram_stats d;
    mem_stats(m, NULL, NULL, &d);
    mem_sys_free(m);
    assert_int_equal(d.activates, 2);
    return d.precharges;
}

/* dram_bank_index: linear puts row groups g and g + banks in one bank
 * (the second read closes the first's row, GPGPU-Sim's LINEAR_BK_INDEX);
 * xor puts them in two */
static void test_dram_bank_index(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    assert_int_equal(two_rows_precharges(c, CFG_DRAM_BANK_INDEX_XOR), 0);
    assert_int_equal(two_rows_precharges(c, CFG_DRAM_BANK_INDEX_LINEAR), 1);
}

static void test_reply_header_costs_flits(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    c.icnt_bytes_per_cycle = 32;
    c.icnt_clock_mhz = c.core_clock_mhz;
    uint64_t line0 = l2_hit_trip(&c, PTX_SP_GLOBAL);
    c.icnt_reply_hdr = 8;              /* 128 + 8 bytes: 5 flits, not 4 */
    uint64_t line = l2_hit_trip(&c, PTX_SP_GLOBAL);
    /* one more flit: the head crosses while the tail leaves (cut-through),
     * the SM's port takes the extra flit */
    assert_int_equal(line, line0 + 1);
    c.icnt_bytes_per_cycle = 40;       /* 136 bytes in 4 flits of 40 */
    uint64_t wide = l2_hit_trip(&c, PTX_SP_GLOBAL);
    assert_int_equal(wide, line0);
}

/* n misses to distinct lines of one partition (the XOR hash of the
 * partition map is undone by stepping lines of equal partition) */
static size_t same_partition_lines(const struct cfg *c, struct core_mem_req *rs, size_t n)
{
    struct mem_sys *m = drv_make(c, 1);
    assert_non_null(m);
    unsigned want = mem_partition_of(m, 0x100000);
    size_t k = 0;
    for (uint64_t a = 0x100000; k < n; a += 128)
        if (mem_partition_of(m, a) == want)
            rs[k] = drv_req((unsigned)(k % NSM), a, 0xF, 0), k++;
    mem_sys_free(m);
    return k;
}

static uint64_t run_all(const struct cfg *c, struct core_mem_req *rs, size_t n, ls_dram_stats *d)
{
    struct mem_sys *m = drv_make(c, NSM);
    assert_non_null(m);
    uint64_t now = 0;
    assert_int_equal(drv_run(m, rs, n, NSM, &now), n);
    assert_true(mem_idle(m));
    mem_stats(m, NULL, NULL, d);
    mem_sys_free(m);
    return now;
}

static void test_l2_mshrs_bound_misses_in_flight(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    enum { N = 256 };
    struct core_mem_req rs[N];
    assert_int_equal(same_partition_lines(&c, rs, N), N);
    ls_dram_stats d;
    uint64_t many = run_all(&c, rs, N, &d);
    c.l2_mshrs = 1;
    uint64_t one = run_all(&c, rs, N, &d);
    c.l2_mshrs = 2;
    uint64_t two = run_all(&c, rs, N, &d);
    printf("%d misses to one partition: %llu cycles with 64 L2 MSHRs, %llu with 2, %llu with 1\n",
           N, (unsigned long long)many, (unsigned long long)two, (unsigned long long)one);
    assert_true(one > two && two > many);
    assert_true(one > 3 * many);
}

/* Cycles n L2 hits take (the lines fetched once, the L1D invalidated). */
static uint64_t l2_hits(const struct cfg *c, struct core_mem_req *rs, size_t n)
{
    struct mem_sys *m = drv_make(c, NSM);
    assert_non_null(m);
    uint64_t now = 0;
    assert_int_equal(drv_run(m, rs, n, NSM, &now), n);
    mem_kernel_end(m);
    ls_cache_stats l2a, l2b;
    mem_stats(m, NULL, &l2a, NULL);
    uint64_t t0 = now;
    assert_int_equal(drv_run(m, rs, n, NSM, &now), n);
    mem_stats(m, NULL, &l2b, NULL);
    assert_int_equal(l2b.hits - l2a.hits, n);
    mem_sys_free(m);
    return now - t0;
}

static void test_l2_port_bytes_pace_hits(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    enum { N = 256 };
    struct core_mem_req rs[N];
    assert_int_equal(same_partition_lines(&c, rs, N), N);
    uint64_t t0 = l2_hits(&c, rs, N);
    c.l2_port_bytes = 32;              /* a 128-byte line: 4 cycles of its port */
    uint64_t t1 = l2_hits(&c, rs, N);
    for (size_t i = 0; i < N; i++)
        rs[i].sector_mask = 0x1;       /* one sector: one cycle of its port */
    c.lamar_gdu = CFG_LAMAR_GDU_FG_ONLY;                   /* fg_only: the L1D asks for that sector */
    uint64_t s1 = l2_hits(&c, rs, N);
    c.l2_port_bytes = 0;
    uint64_t s0 = l2_hits(&c, rs, N);
    printf("%d L2 hits in one partition: lines %llu -> %llu cycles with 32-byte ports, "
           "sectors %llu -> %llu\n", N, (unsigned long long)t0, (unsigned long long)t1,
           (unsigned long long)s0, (unsigned long long)s1);
    /* a slice's two sub-partitions take one sector a cycle each: twice the
     * lookups of one slice pipeline for single sectors; whole lines take 4
     * cycles of their port, which their 4-flit replies take anyway */
    assert_true(s1 * 3 < s0 * 2);
    assert_true(t1 >= t0);
}

/* Lines one row apart in every bank in turn: each request needs an
 * activate, so activate spacing (tRRD, tRC) and, after writes, the write
 * recovery before the precharge (tWR) decide the pace. */
static void test_activate_spacing(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    enum { N = 512 };
    struct core_mem_req rs[N];
    uint64_t span = (uint64_t)c.mem_partitions * (uint64_t)c.dram_row_bytes;
    for (size_t i = 0; i < N; i++)
        rs[i] = drv_req((unsigned)(i % NSM), 0x1000000 + i * span, 0x1, 0);
    ls_dram_stats d0, d1, d2;
    uint64_t t0 = run_all(&c, rs, N, &d0);
    c.dram_tRRD = 40;
    uint64_t t1 = run_all(&c, rs, N, &d1);
    c.dram_tRRD = 0;
    c.dram_tRC = 400;
    uint64_t t2 = run_all(&c, rs, N, &d2);
    c.dram_tRC = 0;
    for (size_t i = 0; i < N; i++)     /* writes: the next row waits tWR */
        rs[i].is_write = 1;
    uint64_t w0 = run_all(&c, rs, N, &d2);
    c.dram_tWR = 300;
    uint64_t w1 = run_all(&c, rs, N, &d2);
    printf("row misses: %llu cycles, %llu with tRRD 40, %llu with tRC 400; writes %llu, "
           "%llu with tWR 300\n", (unsigned long long)t0, (unsigned long long)t1,
           (unsigned long long)t2, (unsigned long long)w0, (unsigned long long)w1);
    assert_true(w1 > w0);
    assert_int_equal(d0.activates, d1.activates);
    assert_true(d0.activates >= N / 2);
    assert_true(t1 > t0);
    assert_true(t2 > t0);
}

/* Alternating reads and writes of one open row: the bus turnarounds. */
static void test_read_write_turnaround(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    c.l1d_size = 0;                    /* every request reaches the DRAM */
    c.l2_size = 0;
    enum { N = 600 };
    struct core_mem_req rs[N];
    for (size_t i = 0; i < N; i++)     /* the lines of a few rows, over and over */
        rs[i] = drv_req((unsigned)(i % NSM), 0x2000000 + (i % 64) * 128, 0x1, i % 3 == 0);
    ls_dram_stats d0, d1, d2;
    uint64_t t0 = run_all(&c, rs, N, &d0);
    c.dram_tWTR = 20;
    c.dram_tRTW = 20;
    uint64_t t1 = run_all(&c, rs, N, &d1);
    c.dram_sched = CFG_DRAM_SCHED_FCFS;                  /* fcfs: no batching of reads and writes */
    c.dram_tWTR = c.dram_tRTW = 0;
    uint64_t t2 = run_all(&c, rs, N, &d2);
    c.dram_tWTR = c.dram_tRTW = 20;
    uint64_t t3 = run_all(&c, rs, N, &d2);
    printf("read/write mix: FR-FCFS %llu cycles, %llu with tWTR = tRTW = 20; "
           "FCFS %llu, %llu\n", (unsigned long long)t0, (unsigned long long)t1,
           (unsigned long long)t2, (unsigned long long)t3);
    assert_int_equal(d0.reads + d0.writes, d1.reads + d1.writes);
    assert_true(d0.writes > 0 && d0.reads > 0);
    assert_true(t1 > t0);
    assert_true(t3 > t2 + (t1 - t0));  /* FR-FCFS batches reads and writes */
}

/* l2_write_alloc: 64 one-sector writes to distinct lines, then reads of
 * them. sector: each write allocates its sector (no DRAM write before an
 * eviction) and the reads hit; none (GPGPU-Sim's `N`): each write goes on
 * to DRAM, nothing is allocated, and the reads miss. */
static void write_then_read(const struct cfg *c, ls_cache_stats *l2, ls_dram_stats *d)
{
    enum { N = 64 };
    struct core_mem_req w[N], r[N];
    for (unsigned i = 0; i < N; i++) {
        w[i] = drv_req(i % NSM, 0x400000 + (uint64_t)i * 4096, 0x1, 1);
        r[i] = drv_req(i % NSM, 0x400000 + (uint64_t)i * 4096, 0x1, 0);
    }
    struct mem_sys *m = drv_make(c, NSM);
    assert_non_null(m);
    uint64_t now = 0;
    assert_int_equal(drv_run(m, w, N, NSM, &now), N);
    assert_int_equal(drv_run(m, r, N, NSM, &now), N);
    assert_true(mem_idle(m));
    mem_stats(m, NULL, l2, d);
    mem_sys_free(m);
}

static void test_l2_write_alloc(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    c.l1d_size = 0;                    /* the reads reach the L2 */
    ls_cache_stats l2;
    ls_dram_stats d;
    write_then_read(&c, &l2, &d);
    assert_int_equal(l2.wr_accesses, 64);
    assert_int_equal(l2.wr_hits, 0);
    assert_int_equal(d.writes, 0);
    assert_int_equal(l2.hits, 64);     /* the reads */
    c.l2_write_alloc = CFG_L2_WRITE_ALLOC_NONE;
    write_then_read(&c, &l2, &d);
    assert_int_equal(l2.wr_accesses, 64);
    assert_int_equal(d.writes, 64);
    assert_int_equal(l2.hits, 0);
    assert_int_equal(l2.misses, 128);
}

/* A config that does not name the keys keeps the model without them. */
/* part_map = chunk (GPGPU-Sim's linear decode, dramid@8): 256-byte chunks
 * go round-robin over the six partitions, the next digit picks the port,
 * and inside a partition the chunks follow each other. */
static void test_chunk_map(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    c.part_map = CFG_PART_MAP_CHUNK;
    c.part_chunk_bytes = 256;
    struct mem_sys *m = drv_make(&c, 1);
    assert_non_null(m);
    assert_int_equal(mem_partition_of(m, 0), mem_partition_of(m, 128));
    for (unsigned k = 0; k < 12; k++) {
        assert_int_equal(mem_partition_of(m, k * 256u), k % 6);
        assert_int_equal(mem_part_port(m, k * 256u), k / 6 % 2);
    }
    assert_int_equal(mem_local_line(m, 6 * 256), 2);    /* chunk 1 of partition 0 */
    assert_int_equal(mem_local_line(m, 6 * 256 + 128), 3);
    mem_sys_free(m);
    c.part_chunk_bytes = 192;                            /* not a multiple of a line */
    char err[256] = "";
    assert_null(mem_sys_create(&c, 1, err, sizeof err));
    assert_non_null(strstr(err, "part_chunk_bytes"));
}

/* dram_sector_reads: a whole-line fill reads DRAM once per sector (four
 * 64-byte atoms for a 128-byte line), not once per atom it covers (two). */
static void test_sector_reads(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    struct core_mem_req r = drv_req(0, 0x100000, 0xF, 0);
    ls_dram_stats d;
    run_all(&c, &r, 1, &d);
    assert_int_equal(d.reads, 2);
    c.dram_sector_reads = 1;
    run_all(&c, &r, 1, &d);
    assert_int_equal(d.reads, 4);
    assert_int_equal(d.read_bytes, 4 * 64);
}

/* l2_mshr_merge bounds the requests one L2 MSHR entry holds (the rest
 * wait: reservation fails), l2_merge_room makes a merge wait for room in
 * the DRAM queue; unbounded, eight reads of one line from eight SMs merge
 * into one fetch without a failure. */
static void test_l2_merge_bounds(void **st)
{
    (void)st;
    struct cfg c;
    base_cfg(&c);
    struct core_mem_req rs[8];
    for (unsigned i = 0; i < 8; i++)
        rs[i] = drv_req(i, 0x200000, 0x1, 0);
    ls_cache_stats l2[3];
    for (int v = 0; v < 3; v++) {
        c.l2_mshr_merge = v == 1 ? 4 : 0;
        c.l2_merge_room = v == 2;
        c.dram_queue = v == 2 ? 1 : 64;
        struct mem_sys *m = drv_make(&c, NSM);
        assert_non_null(m);
        uint64_t now = 0;
        assert_int_equal(drv_run(m, rs, 8, NSM, &now), 8);
        mem_stats(m, NULL, &l2[v], NULL);
        mem_sys_free(m);
    }
    assert_int_equal(l2[0].reservation_fails, 0);
    assert_int_equal(l2[0].mshr_merges, 7);
    assert_true(l2[1].reservation_fails > 0);           /* the fifth waits */
    assert_true(l2[1].mshr_merges < 7);
    assert_true(l2[2].reservation_fails > 0);           /* the queue holds the fetch */
}

static void test_defaults_are_neutral(void **st)
{
    (void)st;
    struct cfg d;
    cfg_defaults(&d);
    assert_int_equal(d.l2_rop_latency, 0);
    assert_int_equal(d.dram_latency, 0);
    assert_int_equal(d.icnt_reply_hdr, 0);
    assert_int_equal(d.l2_mshrs, 64);
    assert_int_equal(d.l2_port_bytes, 0);
    assert_int_equal(d.part_map, CFG_PART_MAP_HASH);
    assert_int_equal(d.dram_sector_reads, 0);
    assert_int_equal(d.l2_mshr_merge, 0);
    assert_int_equal(d.l2_merge_room, 0);
    assert_int_equal(d.l2_write_alloc, CFG_L2_WRITE_ALLOC_SECTOR);
    assert_int_equal(d.dram_tRRD + d.dram_tRC + d.dram_tWTR + d.dram_tRTW + d.dram_tWR, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rop_latency_delays_every_lookup_but_textures),
        cmocka_unit_test(test_dram_latency_delays_misses_only),
        cmocka_unit_test(test_reply_header_costs_flits),
        cmocka_unit_test(test_l2_mshrs_bound_misses_in_flight),
        cmocka_unit_test(test_l2_port_bytes_pace_hits),
        cmocka_unit_test(test_sm_share_one_port),
        cmocka_unit_test(test_dram_bank_index),
        cmocka_unit_test(test_activate_spacing),
        cmocka_unit_test(test_read_write_turnaround),
        cmocka_unit_test(test_chunk_map),
        cmocka_unit_test(test_sector_reads),
        cmocka_unit_test(test_l2_merge_bounds),
        cmocka_unit_test(test_l2_write_alloc),
        cmocka_unit_test(test_defaults_are_neutral),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
