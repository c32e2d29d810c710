/* Unit tests of the DRAM and system power model (csim/mem/mem_power.c,
 * docs/lamar.md "DRAM and system power"): every component of a tiny
 * synthetic command trace against energies computed by hand (and the
 * checker failing on an injected fault); through the memory hierarchy,
 * more activates cost more energy, a sub-ranked 32-byte burst (the FG path)
 * costs half a 64-byte one and activates half the chips, and the sub-rank
 * a later command opens is charged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>

#include "test_mem_drv.h"

/* The hand-computed machine: 1 GHz core and DRAM (tCK = 1 ns), one
 * channel of 2 chips, 64-byte atoms over 32 bytes per clock (tBURST =
 * 2 ns), round currents. */
static void cfg_hand(struct cfg *c)
{
    cfg_defaults(c);
    c->core_clock_mhz = 1000;
    c->dram_clock_mhz = 1000;
    c->mem_partitions = 1;
    c->dram_chips = 2;
    c->dram_subranks = 1;
    c->dram_atom_bytes = 64;
    c->dram_bus_bytes = 32;
    c->dram_vdd = 1.5;
    c->dram_idd0 = 100;
    c->dram_idd2n = 20;
    c->dram_idd3n = 30;
    c->dram_idd2p = 5;
    c->dram_idd3p = 12;
    c->dram_idd4r = 200;
    c->dram_idd4w = 250;
    c->dram_idd5 = 300;
    c->dram_tRAS = 20;
    c->dram_tRP = 10;
    c->dram_tRFC_ns = 100;
    c->dram_tREFI_ns = 1000;
    c->dram_dq_pins = 32;
    c->dram_io_mw = 10;
    c->num_sms = 1;
    c->num_schedulers = 1;
}

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(b) + 1e-21;
}

/* 0 when every component of got equals want, else 1 (naming the first
 * that differs unless quiet). */
static int check_power(const ls_power_stats *want, const ls_power_stats *got, int quiet)
{
    const double *w = (const double *)want, *g = (const double *)got;
    for (size_t i = 0; i < sizeof *want / sizeof *w; i++)
        if (!near(g[i], w[i])) {
            if (!quiet)
                fprintf(stderr, "power member %zu: got %.12g, want %.12g\n", i, g[i], w[i]);
            return 1;
        }
    return 0;
}

/* 1000 cycles (1 us); a row open for 600 of the channel's 1000 clocks;
 * 3 chip activations ... as in the comments below. */
static void test_hand_trace(void **st)
{
    (void)st;
    struct cfg c;
    cfg_hand(&c);
    ls_dram_stats d;
    memset(&d, 0, sizeof d);
    d.act_stby_ticks = 500;      /* the rank (1 sub-rank): 1000 clocks     */
    d.act_pdn_ticks = 100;
    d.pre_stby_ticks = 300;
    d.pre_pdn_ticks = 100;
    d.act_subranks = 3;          /* 3 activates of the whole (2-chip) rank */
    d.read_bytes = 640;          /* 10 atoms = 20 chip-bursts of 32 B      */
    d.write_bytes = 128;         /* 2 atoms = 4 chip-bursts                */
    ls_power_stats got, want;
    mem_power(&c, &d, 1000, &got);
    memset(&want, 0, sizeof want);
    const double pj = 1e-12;
    want.seconds = 1e-6;
    want.dram_act_stby = 30 * 1.5 * 500 * 2 * pj;          /* IDD3N VDD t chips: 45000 pJ */
    want.dram_act_pdn = 12 * 1.5 * 100 * 2 * pj;           /* IDD3P: 3600 pJ              */
    want.dram_pre_stby = 20 * 1.5 * 300 * 2 * pj;          /* IDD2N: 18000 pJ             */
    want.dram_pre_pdn = 5 * 1.5 * 100 * 2 * pj;            /* IDD2P: 1500 pJ              */
    want.dram_ref = (300 - 30) * 1.5 * 1000 * 2 * 0.1 * pj; /* tRFC/tREFI = 0.1: 81000 pJ */
    /* per chip (IDD0 tRC - IDD3N tRAS - IDD2N (tRC - tRAS)) VDD =
     * (100*30 - 30*20 - 20*10) * 1.5 = 3300 pJ; 3 activates x 2 chips */
    want.dram_act_pre = 3300.0 * 6 * pj;
    want.dram_rd = (200 - 30) * 1.5 * 2 * 20 * pj;         /* 10200 pJ                    */
    want.dram_rd_io = 32 * 10e-3 * 2e-9 * 20;              /* 0.32 W x 2 ns x 20: 12800 pJ */
    want.dram_wr = (250 - 30) * 1.5 * 2 * 4 * pj;          /* 2640 pJ                     */
    want.dram_wr_io = 32 * 10e-3 * 2e-9 * 4;               /* 2560 pJ                     */
    /* the GPU members are the chip model's (test_energy.c): zero here */
    assert_int_equal(check_power(&want, &got, 0), 0);
    /* the checker can fail: one more activate changes act_pre */
    d.act_subranks = 4;
    mem_power(&c, &d, 1000, &got);
    assert_int_equal(check_power(&want, &got, 1), 1);
    /* with 2 sub-ranks a sub-rank is one chip: 3 of them cost half */
    d.act_subranks = 3;
    c.dram_subranks = 2;
    mem_power(&c, &d, 1000, &got);
    assert_true(near(got.dram_act_pre, want.dram_act_pre / 2));
    /* no cycles (functional mode): nothing */
    mem_power(&c, &d, 0, &got);
    assert_true(got.seconds == 0 && got.dram_rd == 0 && got.gpu_leak == 0);
}

/* Runs reads (one sector each, sm 0) of the lines in addrs through a fresh
 * gtx480 hierarchy without L1D/L2 (every read goes to DRAM), one after the
 * other; returns the DRAM statistics and the power of the run. */
static void run_reads(struct cfg *c, const uint64_t *addrs, size_t n, uint8_t mask,
                      ls_dram_stats *d, ls_power_stats *p)
{
    c->l1d_size = 0;
    c->l2_size = 0;
    struct mem_sys *m = drv_make(c, 1);
    assert_non_null(m);
    uint64_t now = 0;
    for (size_t i = 0; i < n; i++) {
        struct core_mem_req r = drv_req(0, addrs[i], mask, 0);
        assert_int_equal(drv_run(m, &r, 1, 1, &now), 1);
    }
    mem_stats(m, NULL, NULL, d);
    struct mem_dram_ticks z = {0};
    mem_dram_ticks_since(m, now, &z, d);
    mem_power(c, d, now, p);
    mem_sys_free(m);
}

static void cfg_gtx(struct cfg *c)
{
    cfg_defaults(c);
    char err[256] = "";
    assert_int_equal(cfg_load_file(c, "configs/gtx480.conf", err, sizeof err), 0);
    /* the hashed line map and atom-shared fills these tests were written
     * for; test_mem_part covers part_map = chunk and dram_sector_reads */
    c->part_map = CFG_PART_MAP_HASH;
    c->dram_sector_reads = 0;
}

/* The same number of reads in one row against reads that each open a new
 * row of the same bank: more activates, more activate energy. */
static void test_more_acts_more_energy(void **st)
{
    (void)st;
    struct cfg c;
    cfg_gtx(&c);
    /* lines of one channel: partition p(L) = (L ^ L>>6 ^ L>>12) mod 6; line
     * index L = 6k keeps p = 0 for small k (L < 64); the channel-local line
     * is L / 6 = k, 16 lines per 2 KB row */
    uint64_t same[4], other[4];
    for (int i = 0; i < 4; i++)
        same[i] = (uint64_t)(6 * i) * 128;                  /* local lines 0..3: one row */
    /* local lines 16 * 16 * j: row 16 j of bank 0 ... pick lines whose
     * global index has p = 0 by searching */
    int got = 0;
    for (uint64_t L = 0; got < 4 && L < (1u << 24); L++) {
        if ((L ^ (L >> 6) ^ (L >> 12)) % 6 != 0)
            continue;
        uint64_t loc = L / 6, rg = loc * 128 / 2048;
        if ((rg ^ (rg / 16)) % 16 != 0 || rg / 16 != (uint64_t)got * 7)
            continue;
        other[got++] = L * 128;
    }
    assert_int_equal(got, 4);
    ls_dram_stats da, db;
    ls_power_stats pa, pb;
    run_reads(&c, same, 4, 0x1, &da, &pa);
    cfg_gtx(&c);
    run_reads(&c, other, 4, 0x1, &db, &pb);
    assert_int_equal(da.reads, 4);
    assert_int_equal(db.reads, 4);
    assert_int_equal(da.activates, 1);
    assert_int_equal(db.activates, 4);
    assert_true(pb.dram_act_pre > pa.dram_act_pre);
    assert_true(near(pb.dram_act_pre, 4 * pa.dram_act_pre));
    assert_true(near(pb.dram_rd + pb.dram_rd_io, pa.dram_rd + pa.dram_rd_io));
}

/* A one-sector read: 64 B atom (both chips) without sub-ranks, a 32 B
 * burst of one chip with two: half the burst and I/O energy, half the
 * activate energy. A later read of the other sub-rank's sector of the open
 * row activates that sub-rank's chip (charged, not a free row hit). */
static void test_fg_burst_cheaper(void **st)
{
    (void)st;
    struct cfg c;
    uint64_t a[2] = { 0, 0 };
    ls_dram_stats d1, d2;
    ls_power_stats p1, p2;
    cfg_gtx(&c);
    c.dram_subranks = 1;
    run_reads(&c, a, 1, 0x1, &d1, &p1);
    cfg_gtx(&c);
    c.dram_subranks = 2;
    run_reads(&c, a, 1, 0x1, &d2, &p2);
    assert_int_equal(d1.reads, 1);
    assert_int_equal(d2.reads, 1);
    assert_int_equal(d1.read_bytes, 64);
    assert_int_equal(d2.read_bytes, 32);
    double b1 = p1.dram_rd + p1.dram_rd_io, b2 = p2.dram_rd + p2.dram_rd_io;
    assert_true(b2 > 0 && near(b2, b1 / 2));
    assert_int_equal(d1.act_subranks, 1);
    assert_int_equal(d2.act_subranks, 1);
    assert_true(p2.dram_act_pre > 0 && near(p2.dram_act_pre, p1.dram_act_pre / 2));
    /* sector 0 then sector 1 of line 0 (one row): sub-ranks 0 and 1 */
    cfg_gtx(&c);
    c.dram_subranks = 2;
    c.l1d_size = 0;
    c.l2_size = 0;
    struct mem_sys *m = drv_make(&c, 1);
    assert_non_null(m);
    uint64_t now = 0;
    struct core_mem_req r0 = drv_req(0, 0, 0x1, 0), r1 = drv_req(0, 0, 0x2, 0);
    assert_int_equal(drv_run(m, &r0, 1, 1, &now), 1);
    assert_int_equal(drv_run(m, &r1, 1, 1, &now), 1);
    ls_dram_stats d;
    mem_stats(m, NULL, NULL, &d);
    assert_int_equal(d.activates, 1);          /* timing: one row activate    */
    assert_int_equal(d.act_subranks, 2);       /* power: both chips opened it */
    struct mem_dram_ticks t;
    mem_dram_ticks(m, now, &t);
    assert_true(t.open > 0);
    mem_sys_free(m);
}

/* The sub-ranks' power states through the DRAM model: every sub-rank of
 * every channel is in exactly one state each DRAM clock; one FG read opens
 * its row in one sub-rank only (the other stays precharged); after its
 * burst the sub-rank powers down (idle) or stays in standby (off). */
static void test_bank_states(void **st)
{
    (void)st;
    for (int pd = 0; pd < 2; pd++) {
        struct cfg c;
        cfg_gtx(&c);
        c.dram_subranks = 2;
        c.dram_powerdown = pd ? CFG_DRAM_POWERDOWN_IDLE : CFG_DRAM_POWERDOWN_OFF;
        c.l1d_size = 0;
        c.l2_size = 0;
        struct mem_sys *m = drv_make(&c, 1);
        assert_non_null(m);
        uint64_t now = 0;
        struct core_mem_req r0 = drv_req(0, 0, 0x1, 0);
        assert_int_equal(drv_run(m, &r0, 1, 1, &now), 1);
        now += 10000;                              /* then idle */
        struct mem_dram_ticks t;
        mem_dram_ticks(m, now, &t);
        uint64_t clocks = now * (uint64_t)c.dram_clock_mhz / (uint64_t)c.core_clock_mhz;
        uint64_t all = t.act_stby + t.act_pdn + t.pre_stby + t.pre_pdn;
        assert_true(all == clocks * (uint64_t)c.mem_partitions * 2);
        /* one sub-rank of one channel holds the row from its activate on */
        assert_true(t.act_stby + t.act_pdn > 0);
        assert_true(t.act_stby + t.act_pdn < clocks);
        if (pd) {
            assert_true(t.act_pdn > t.act_stby);   /* powered down once idle */
            assert_true(t.pre_pdn > t.pre_stby);
        } else {
            assert_true(t.act_pdn == 0 && t.pre_pdn == 0);
        }
        ls_dram_stats d;
        ls_power_stats p;
        mem_stats(m, NULL, NULL, &d);
        struct mem_dram_ticks z = {0};
        mem_dram_ticks_since(m, now, &z, &d);
        mem_power(&c, &d, now, &p);
        assert_true(near(mem_power_dram_j(&p), p.dram_pre_stby + p.dram_act_stby + p.dram_pre_pdn +
                                                   p.dram_act_pdn + p.dram_ref + p.dram_act_pre +
                                                   p.dram_rd + p.dram_rd_io + p.dram_wr + p.dram_wr_io));
        mem_sys_free(m);
    }
}

/* Power-down exit (dram_tXP): a read for a powered-down sub-rank takes its
 * first command no sooner than tXP after it enters the queue. With
 * dram_latency 0 the exit is on the read's path (one exit, one delayed
 * request, later by at least tXP DRAM clocks than without it); without
 * power-down there is no exit and no delay; with dram_latency longer than
 * tXP the exit is hidden (counted, nothing delayed, same finish). */
static uint64_t pdx_run(int pd, unsigned txp, unsigned lat, ls_dram_stats *d)
{
    struct cfg c;
    cfg_gtx(&c);
    c.dram_powerdown = pd ? CFG_DRAM_POWERDOWN_IDLE : CFG_DRAM_POWERDOWN_OFF;
    c.dram_tXP = txp;
    c.dram_latency = lat;
    c.l1d_size = 0;
    c.l2_size = 0;
    struct mem_sys *m = drv_make(&c, 1);
    assert_non_null(m);
    uint64_t now = 0;
    struct core_mem_req r0 = drv_req(0, 0, 0xf, 0);
    assert_int_equal(drv_run(m, &r0, 1, 1, &now), 1);
    mem_stats(m, NULL, NULL, d);
    mem_sys_free(m);
    return now;
}

static void test_powerdown_exit(void **st)
{
    (void)st;
    ls_dram_stats d0, d1, doff, dh0, dh1;
    uint64_t t0 = pdx_run(1, 0, 0, &d0), t1 = pdx_run(1, 40, 0, &d1);
    uint64_t toff = pdx_run(0, 40, 0, &doff);
    assert_int_equal(d0.pdn_exits, 1);
    assert_int_equal(d0.xp_delayed, 0);
    assert_int_equal(d1.pdn_exits, 1);
    assert_int_equal(d1.xp_delayed, 1);
    assert_true(t1 >= t0 + 40 * 700 / 924);      /* 40 DRAM clocks in core cycles */
    assert_int_equal(doff.pdn_exits, 0);
    assert_int_equal(doff.xp_delayed, 0);
    assert_int_equal(toff, t0);
    uint64_t th0 = pdx_run(1, 0, 100, &dh0), th1 = pdx_run(1, 40, 100, &dh1);
    assert_int_equal(dh1.pdn_exits, 1);
    assert_int_equal(dh1.xp_delayed, 0);
    assert_int_equal(th1, th0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_trace),
        cmocka_unit_test(test_more_acts_more_energy),
        cmocka_unit_test(test_fg_burst_cheaper),
        cmocka_unit_test(test_bank_states),
        cmocka_unit_test(test_powerdown_exit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
