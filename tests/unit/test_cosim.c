/* cmocka tests of the block seam (csim/cosim, docs/cosim.md) with the C
 * backend: the clocking rule each block in the loop declares (after
 * `settle` idle edges an idle edge changes neither state nor outputs, and
 * settle is tight), the seam's counters under cosim_idle, the port table,
 * the SLP traffic of a real kernel (a launch and an exit lookup per warp,
 * on every SM), config keys and the errors of a backend that cannot run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lockstep.h"
#include "cosim/cosim.h"
#include "blocks/slp.h"
#include "blocks/bgp.h"
#include "blocks/rvc_comp.h"
#include "blocks/rvc_decomp.h"
#include "blocks/wcu.h"
#include "blocks/capt.h"
#include "workloads/workload.h"
#include "workloads/wl_ptx.h"
#include "wl_run.h"

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A random non-idle SLP request. */
static void slp_rand_in(uint64_t *s, const struct slp_cfg *c, struct slp_in *in)
{
    memset(in, 0, sizeof *in);
    in->valid_i[0] = 1;
    in->launch_i[0] = (uint32_t)(rnd(s) & 1);
    in->slot_i[0] = (uint32_t)(rnd(s) % c->NWARPS);
    in->wid_i[0] = (uint32_t)(rnd(s) % c->W);
    in->mode_i[0] = (uint32_t)(rnd(s) % 8);
    in->mask_i[0] = (uint32_t)rnd(s);
}

/* The registers of an SLP state (statistics excluded). */
static int slp_regs_equal(const struct slp_state *a, const struct slp_state *b)
{
    return !memcmp(a->key, b->key, sizeof a->key) && !memcmp(a->rot, b->rot, sizeof a->rot) &&
           !memcmp(&a->q, &b->q, sizeof a->q);
}

static void test_slp_clocking_rule(void **state)
{
    (void)state;
    const struct cosim_desc *d = cosim_desc_find("slp");
    assert_non_null(d);
    uint64_t seed = 0x1234567;
    struct slp_cfg cfgs[3] = { { 32, 48, 1 }, { 8, 8, 1 }, { 16, 12, 0 } };
    unsigned tight = 0;
    for (unsigned trial = 0; trial < 3000; trial++) {
        struct slp_cfg *c = &cfgs[trial % 3];
        struct slp_state s;
        assert_int_equal(slp_init(&s, c), 0);
        struct slp_in in, idle;
        struct slp_out o, o2;
        memset(&idle, 0, sizeof idle);
        unsigned n = 1 + (unsigned)(rnd(&seed) % 40);
        for (unsigned i = 0; i < n; i++) {
            slp_rand_in(&seed, c, &in);
            slp_step(&s, &in, &o);
        }
        /* settle - 1 idle edges are not always enough ... */
        for (unsigned i = 0; i + 1 < d->settle; i++)
            slp_step(&s, &idle, &o);
        struct slp_state mid = s;
        slp_step(&s, &idle, &o);
        tight += !slp_regs_equal(&mid, &s);
        /* ... settle are: every further idle edge is a no-op */
        for (unsigned k = 0; k < 5; k++) {
            struct slp_state prev = s;
            slp_step(&s, &idle, &o2);
            assert_true(slp_regs_equal(&prev, &s));
            assert_memory_equal(&o, &o2, sizeof o);
        }
    }
    /* an active edge leaves registered outputs that the first idle edge clears */
    assert_true(tight > 1000);
}

/* The BGP (LAMAR's GDU, sm<i>.bgp and l2s<i>.bgp): settle = 1 is enough
 * and tight on random query/eviction histories under three parameter sets. */
static void test_bgp_clocking_rule(void **state)
{
    (void)state;
    const struct cosim_desc *d = cosim_desc_find("bgp");
    assert_non_null(d);
    assert_int_equal(d->id, LS_BLK_BGP);
    uint64_t seed = 0x7654321;
    struct bgp_cfg cfgs[3] = { bgp_cfg_default(), bgp_cfg_default(), bgp_cfg_default() };
    cfgs[1].M = 256; cfgs[1].K = 4; cfgs[1].N = 8; cfgs[1].NUM_EVICT = 5;
    cfgs[2].TH_FG = 3; cfgs[2].N = 4; cfgs[2].NUM_EVICT = 2; cfgs[2].SKEW_PCT = 40;
    size_t regs = offsetof(struct bgp_state, st);
    unsigned tight = 0;
    static struct bgp_state s, mid, prev;
    for (unsigned trial = 0; trial < 1500; trial++) {
        const struct bgp_cfg *c = &cfgs[trial % 3];
        assert_int_equal(bgp_init(&s, c), 0);
        struct bgp_in in, idle;
        struct bgp_out o, o2;
        memset(&idle, 0, sizeof idle);
        unsigned n = 1 + (unsigned)(rnd(&seed) % 40);
        for (unsigned i = 0; i < n; i++) {
            memset(&in, 0, sizeof in);
            in.q_valid_i[0] = (uint32_t)(rnd(&seed) & 1);
            in.q_addr_i[0] = (uint32_t)(rnd(&seed) % 64) << 7;
            in.e_valid_i[0] = (uint32_t)(!in.q_valid_i[0] || (rnd(&seed) & 1));
            in.e_addr_i[0] = (uint32_t)(rnd(&seed) % 64) << 7;
            in.e_used_i[0] = (uint32_t)(rnd(&seed) % 5);
            bgp_step(&s, &in, &o);
        }
        for (unsigned i = 0; i + 1 < d->settle; i++)
            bgp_step(&s, &idle, &o);
        mid = s;
        bgp_step(&s, &idle, &o);
        tight += memcmp(&mid, &s, regs) != 0;
        for (unsigned k = 0; k < 5; k++) {
            prev = s;
            bgp_step(&s, &idle, &o2);
            assert_memory_equal(&prev, &s, regs);
            assert_memory_equal(&o, &o2, sizeof o);
        }
    }
    /* every trial ends on an active edge: its valid outputs need one idle edge */
    assert_int_equal(tight, 1500);
}

static struct cosim_env *c_env(void)
{
    struct cosim_env *env = calloc(1, sizeof *env);
    assert_non_null(env);
    const struct cosim_cfg lc = { NULL, NULL, NULL };
    int be[LS_BLK_COUNT] = { 0 };
    char err[512];
    assert_int_equal(cosim_env_init(env, &lc, be, 0, err, sizeof err), 0);
    return env;
}

static void test_seam_counters(void **state)
{
    (void)state;
    struct cosim_env *env = c_env();
    struct cosim_inst *ci = calloc(1, sizeof *ci);
    assert_non_null(ci);
    struct slp_cfg c = { 32, 48, 1 };
    char err[512];
    assert_int_equal(cosim_create(ci, env, cosim_desc_find("slp"), &c, "sm7.slp",
                                  err, sizeof err), 0);
    assert_string_equal(ci->name, "sm7.slp");
    assert_int_equal(ci->backend, COSIM_BE_C);
    struct slp_in in;
    struct slp_out o;
    memset(&in, 0, sizeof in);
    in.valid_i[0] = 1;
    in.launch_i[0] = 1;
    in.slot_i[0] = 47;
    in.wid_i[0] = 3;
    in.mode_i[0] = SLP_BALANCED;
    in.mask_i[0] = 0xffffffffu;
    assert_int_equal(cosim_step(ci, &in, &o, "test"), 0);
    assert_int_equal(o.valid_o[0], 1);
    assert_int_equal(o.key_o[0], slp_key(32, SLP_BALANCED, 3, 1, &(unsigned){ 0 }));
    assert_int_equal(cosim_idle(ci, 100, "test"), 0);
    assert_int_equal(ci->st.cycles, 2);          /* the request + 1 settle edge */
    assert_int_equal(ci->st.idle_skipped, 99);
    assert_int_equal(ci->st.transactions, 1);
    assert_int_equal(ci->edge, 101);
    assert_int_equal(cosim_idle(ci, 50, "test"), 0);   /* already settled */
    assert_int_equal(ci->st.cycles, 2);
    assert_int_equal(ci->st.idle_skipped, 149);
    /* an idle cosim_step still steps (and settles) */
    memset(&in, 0, sizeof in);
    assert_int_equal(cosim_step(ci, &in, &o, "test"), 0);
    assert_int_equal(ci->st.cycles, 3);
    assert_int_equal(ci->st.transactions, 1);
    /* the lookup reads back what the launch stored */
    in.valid_i[0] = 1;
    in.slot_i[0] = 47;
    in.mask_i[0] = 1;
    assert_int_equal(cosim_step(ci, &in, &o, "test"), 0);
    assert_int_equal(o.key_o[0], slp_key(32, SLP_BALANCED, 3, 1, &(unsigned){ 0 }));
    assert_int_equal(o.mask_o[0], 1u << o.phys_o[0]);
    /* the port table with this cfg's sizes */
    int found = 0;
    for (int i = 0; i < ci->nports; i++) {
        if (!strcmp(ci->port[i].name, "slot_i")) {
            assert_int_equal(ci->port[i].bits, 6);
            found++;
        }
        if (!strcmp(ci->port[i].name, "phys_o")) {
            assert_int_equal(ci->port[i].bits, 5);
            assert_int_equal(ci->port[i].count, 32);
            found++;
        }
    }
    assert_int_equal(found, 2);
    cosim_free(ci);
    free(ci);
    cosim_env_fini(env);
    free(env);
}

static void test_seam_bad_params(void **state)
{
    (void)state;
    struct cosim_env *env = c_env();
    struct cosim_inst ci;
    struct slp_cfg c = { 32, 65, 1 };      /* more slots than the block holds */
    char err[512];
    assert_int_equal(cosim_create(&ci, env, cosim_desc_find("slp"), &c, "sm0.slp",
                                  err, sizeof err), -1);
    assert_non_null(strstr(err, "bad parameters: W=32 NWARPS=65 ROT_EN=1"));
    assert_null(cosim_desc_find("xyz"));
    for (int b = 0; b < LS_BLK_COUNT; b++)  /* every block is in the loop */
        assert_int_equal(ls_block_in_loop(b), 1);
    cosim_env_fini(env);
    free(env);
}

static void test_gpu_slp_traffic(void **state)
{
    (void)state;
    ls_stats t;
    wl_run_timing("matmul", NULL, &t);
    const ls_cosim_stats *s = &t.cosim[LS_BLK_SLP];
    uint64_t warps = 0;
    /* matmul's CTAs are whole warps: one launch and one exit lookup each */
    assert_int_equal(t.threads % 32, 0);
    warps = t.threads / 32;
    assert_int_equal(s->transactions, 2 * warps);
    assert_int_equal(s->instances, 15);
    assert_int_equal(s->backend, 0);
    assert_int_equal(s->mismatches, 0);
    /* every SM's block is clocked over the whole kernel (plus the drain) */
    assert_true(s->cycles + s->idle_skipped >= 15 * t.cycles);
    assert_true(s->cycles + s->idle_skipped <= 15 * t.cycles + s->transactions);
    assert_true(s->cycles >= s->transactions);
    /* a permutation changes no cycle and no result without compaction */
    const char *const bal[] = { "slp.permutation=balanced", NULL };
    ls_stats u;
    wl_run_timing("matmul", bal, &u);
    assert_int_equal(u.cycles, t.cycles);
    assert_int_equal(u.thread_insts, t.thread_insts);
    assert_int_equal(u.cosim[LS_BLK_SLP].transactions, s->transactions);
}

/* The RVC clocking rule (settle 1, tight) on random transactions of both
 * blocks: after one idle edge a further idle edge changes no register. */
static void test_rvc_clocking_rule(void **state)
{
    (void)state;
    const struct cosim_desc *dc = cosim_desc_find("rvc_comp");
    const struct cosim_desc *dd = cosim_desc_find("rvc_decomp");
    assert_non_null(dc);
    assert_non_null(dd);
    assert_int_equal(dc->settle, 1);
    assert_int_equal(dd->settle, 1);
    uint64_t seed = 0xabcdef12345ull;
    unsigned tight = 0;
    for (unsigned trial = 0; trial < 2000; trial++) {
        struct rvc_comp_cfg cc = { trial % 3 ? 32 : 16 };
        struct rvc_comp_state cs;
        struct rvc_decomp_state ds;
        assert_int_equal(rvc_comp_init(&cs, &cc), 0);
        assert_int_equal(rvc_decomp_init(&ds, (const struct rvc_decomp_cfg *)&cc), 0);
        struct rvc_comp_in ci, cidle;
        struct rvc_comp_out co, co2;
        struct rvc_decomp_in di, didle;
        struct rvc_decomp_out dout, dout2;
        memset(&cidle, 0, sizeof cidle);
        memset(&didle, 0, sizeof didle);
        unsigned n = 1 + (unsigned)(rnd(&seed) % 8);
        for (unsigned i = 0; i < n; i++) {
            memset(&ci, 0, sizeof ci);
            memset(&di, 0, sizeof di);
            ci.valid_i[0] = di.valid_i[0] = 1;
            uint32_t base = (uint32_t)rnd(&seed);
            for (unsigned l = 0; l < 32; l++) {
                ci.data_i[l] = base ^ (uint32_t)(rnd(&seed) & 0xff);
                di.arr_i[l] = (uint32_t)rnd(&seed);
            }
            ci.mask_i[0] = rnd(&seed) & 1 ? 0xffffffffu : (uint32_t)rnd(&seed);
            ci.half_i[0] = (uint32_t)(rnd(&seed) & 1);
            di.d_i[0] = (uint32_t)(rnd(&seed) & 1);
            di.half_i[0] = (uint32_t)(rnd(&seed) & 1);
            di.fs_i[0] = (uint32_t)(rnd(&seed) & 1);
            di.enc_i[0] = (uint32_t)(rnd(&seed) & 0xf);
            di.encl_i[0] = (uint32_t)(rnd(&seed) & 0xf);
            di.ench_i[0] = (uint32_t)(rnd(&seed) & 0xf);
            di.bvr_i[0] = (uint32_t)rnd(&seed);
            di.bvrh_i[0] = (uint32_t)rnd(&seed);
            di.mask_i[0] = (uint32_t)rnd(&seed);
            rvc_comp_step(&cs, &ci, &co);
            rvc_decomp_step(&ds, &di, &dout);
        }
        /* settle - 1 = 0 idle edges are not always enough ... */
        struct rvc_comp_out cmid = cs.r;
        struct rvc_decomp_out dmid = ds.r;
        rvc_comp_step(&cs, &cidle, &co);
        rvc_decomp_step(&ds, &didle, &dout);
        tight += memcmp(&cmid, &cs.r, sizeof cmid) != 0 && memcmp(&dmid, &ds.r, sizeof dmid) != 0;
        /* ... 1 is: every further idle edge is a no-op */
        for (unsigned k = 0; k < 4; k++) {
            struct rvc_comp_out cp = cs.r;
            struct rvc_decomp_out dp = ds.r;
            rvc_comp_step(&cs, &cidle, &co2);
            rvc_decomp_step(&ds, &didle, &dout2);
            assert_memory_equal(&cp, &cs.r, sizeof cp);
            assert_memory_equal(&dp, &ds.r, sizeof dp);
            assert_memory_equal(&co, &co2, sizeof co);
            assert_memory_equal(&dout, &dout2, sizeof dout);
        }
    }
    assert_int_equal(tight, 2000);  /* valid_o drops on the first idle edge */
}

static void test_config_errors(void **state)
{
    (void)state;
    ls_config c;
    ls_config_default(&c);
    char err[512];
    const char *const func[] = { "slp.backend=lockstep", NULL };
    c.mode = LS_MODE_FUNCTIONAL;
    c.sets = func;
    assert_null(ls_gpu_create(&c, err, sizeof err));
    assert_non_null(strstr(err, "slp.backend=lockstep needs timing mode"));
    const char *const bad[] = { "slp.permutation=sideways", NULL };
    c.mode = LS_MODE_TIMING;
    c.sets = bad;
    assert_null(ls_gpu_create(&c, err, sizeof err));
    assert_non_null(strstr(err, "slp_permutation"));
    const char *const rtl[] = { "slp=/nonexistent/slp.v", NULL };
    c.sets = NULL;
    c.rtl = rtl;
    assert_null(ls_gpu_create(&c, err, sizeof err));
    assert_non_null(strstr(err, "cannot read /nonexistent/slp.v"));
    const char *const nob[] = { "xyz=x.v", NULL };
    c.rtl = nob;
    assert_null(ls_gpu_create(&c, err, sizeof err));
    assert_non_null(strstr(err, "'xyz' is not a block in the GPU loop"));
}

/* The WCU (sm<i>.wcu, thread-block compaction): settle = NW + 1 at the
 * largest NW is enough after any history of loads, and tight: a mask with
 * lane 0 in all 32 warps still emits its last warp on idle edge 32, and
 * edge 33 clears the out_valid pulse. */
static void test_wcu_clocking_rule(void **state)
{
    (void)state;
    const struct cosim_desc *d = cosim_desc_find("wcu");
    assert_non_null(d);
    assert_int_equal(d->id, LS_BLK_WCU);
    assert_int_equal(d->settle, WCU_MAX_NW + 1);
    uint64_t seed = 0x5eed;
    size_t regs = offsetof(struct wcu_state, st);
    unsigned tight = 0;
    static struct wcu_state s, mid, prev;
    struct wcu_cfg c = wcu_cfg_default();
    for (unsigned trial = 0; trial < 600; trial++) {
        assert_int_equal(wcu_init(&s, &c), 0);
        struct wcu_in in, idle;
        struct wcu_out o, o2;
        memset(&idle, 0, sizeof idle);
        unsigned n = 1 + (unsigned)(rnd(&seed) % 20);
        for (unsigned i = 0; i < n; i++) {
            memset(&in, 0, sizeof in);
            bool lane0 = i + 1 == n && trial % 4 == 0;
            in.load_i[0] = (uint32_t)(rnd(&seed) & 1) || lane0;
            for (unsigned w = 0; w < 32; w++)
                in.mask_i[w] = lane0 ? 1u : (uint32_t)(rnd(&seed) & rnd(&seed));
            in.umask_i[0] = lane0 ? 0xffffffffu : (uint32_t)(rnd(&seed) | rnd(&seed));
            if (lane0)      /* wait until the load is taken */
                while (wcu_step(&s, &idle, &o), !o.ready_o[0])
                    ;
            wcu_step(&s, &in, &o);
        }
        for (unsigned i = 0; i + 1 < d->settle; i++)
            wcu_step(&s, &idle, &o);
        mid = s;
        wcu_step(&s, &idle, &o);
        tight += memcmp(&mid, &s, regs) != 0;
        for (unsigned k = 0; k < 5; k++) {
            prev = s;
            wcu_step(&s, &idle, &o2);
            assert_memory_equal(&prev, &s, regs);
            assert_memory_equal(&o, &o2, sizeof o);
        }
    }
    assert_int_equal(tight, 150);   /* exactly the lane-0 trials need all */
}

/* The CAPT (sm<i>.capt, capri): settle = 1 after random lookups, updates
 * and flushes under the three history modes, and tight (a lookup's
 * registered outputs need one idle edge). */
static void test_capt_clocking_rule(void **state)
{
    (void)state;
    const struct cosim_desc *d = cosim_desc_find("capt");
    assert_non_null(d);
    assert_int_equal(d->id, LS_BLK_CAPT);
    assert_int_equal(d->settle, 1);
    uint64_t seed = 0xca97;
    size_t regs = offsetof(struct capt_state, st);
    unsigned tight = 0;
    static struct capt_state s, mid, prev;
    for (unsigned trial = 0; trial < 900; trial++) {
        struct capt_cfg c = capt_cfg_default();
        c.ENTRIES = trial % 3 == 0 ? 4 : 32;
        c.HIST = trial % 3;
        c.LRU = trial % 2 ? CAPT_LRU_TRUE : CAPT_LRU_TREE;
        assert_int_equal(capt_init(&s, &c), 0);
        struct capt_in in, idle;
        struct capt_out o, o2;
        memset(&idle, 0, sizeof idle);
        unsigned n = 1 + (unsigned)(rnd(&seed) % 30);
        for (unsigned i = 0; i < n; i++) {
            memset(&in, 0, sizeof in);
            in.lookup_valid_i[0] = (uint32_t)(rnd(&seed) & 1) || i + 1 == n;
            in.lookup_pc_i[0] = (uint32_t)(rnd(&seed) % 12);
            in.update_valid_i[0] = (uint32_t)(rnd(&seed) & 1);
            in.update_pc_i[0] = (uint32_t)(rnd(&seed) % 12);
            in.update_idx_i[0] = (uint32_t)(rnd(&seed) % c.ENTRIES);
            in.update_adequate_i[0] = (uint32_t)(rnd(&seed) & 1);
            in.flush_i[0] = rnd(&seed) % 40 == 0 && i + 1 < n;
            capt_step(&s, &in, &o);
        }
        mid = s;
        capt_step(&s, &idle, &o);
        tight += memcmp(&mid, &s, regs) != 0;
        for (unsigned k = 0; k < 5; k++) {
            prev = s;
            capt_step(&s, &idle, &o2);
            assert_memory_equal(&prev, &s, regs);
            assert_memory_equal(&o, &o2, sizeof o);
        }
    }
    assert_int_equal(tight, 900);   /* every trial ends on a lookup */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slp_clocking_rule),
        cmocka_unit_test(test_bgp_clocking_rule),
        cmocka_unit_test(test_seam_counters),
        cmocka_unit_test(test_seam_bad_params),
        cmocka_unit_test(test_gpu_slp_traffic),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_rvc_clocking_rule),
        cmocka_unit_test(test_wcu_clocking_rule),
        cmocka_unit_test(test_capt_clocking_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
