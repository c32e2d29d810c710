/* cmocka tests of the blocks' functional coverage at the seam
 * (csim/cosim/cosim_cover.c, docs/blocks/coverage.md): each block's bins
 * decided on edges of its C model with known outcomes, the seam counting
 * them into its environment only when coverage is on, and the bin table. */
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
#include "cosim/cosim_cover.h"
#include "blocks/bgp.h"
#include "blocks/capt.h"
#include "blocks/rvc_comp.h"
#include "blocks/rvc_decomp.h"
#include "blocks/slp.h"
#include "blocks/wcu.h"

/* Every bin belongs to a block of the loop, has a name and a meaning, and
 * the bins of one block are consecutive. */
static void test_bin_table(void **state)
{
    (void)state;
    int seen[LS_BLK_COUNT] = { 0 };
    int last = -1;
    for (unsigned b = 0; b < COV_COUNT; b++) {
        int blk = cosim_cover_block(b);
        assert_true(blk >= 0 && blk < LS_BLK_COUNT);
        assert_true(cosim_cover_name(b)[0] && cosim_cover_what(b)[0]);
        if (blk != last) {
            assert_int_equal(seen[blk], 0);     /* one run of bins per block */
            seen[blk] = 1;
            last = blk;
        }
    }
    for (int blk = 0; blk < LS_BLK_COUNT; blk++) {
        assert_true(seen[blk]);
        assert_int_equal(cosim_cover_block_id(ls_block_name(blk)), blk);
    }
    assert_int_equal(cosim_cover_block_id("nope"), -1);
}

/* CAPT 2 entries, latest history: miss into a free entry, a second miss
 * into the other, a third evicting, a hit, updates hit and stale. */
static void test_capt_bins(void **state)
{
    (void)state;
    struct capt_cfg c = capt_cfg_default();
    c.ENTRIES = 2;
    struct capt_state s;
    assert_int_equal(capt_init(&s, &c), 0);
    uint64_t n[COV_COUNT] = { 0 };
    struct cosim_cover cv;
    cosim_cover_init(&cv, LS_BLK_CAPT, &c, n);
    struct capt_in in;
    struct capt_out out;
    const uint32_t pc[4] = { 0x100, 0x200, 0x300, 0x300 };
    for (int i = 0; i < 4; i++) {
        memset(&in, 0, sizeof in);
        in.lookup_valid_i[0] = 1;
        in.lookup_pc_i[0] = pc[i];
        capt_step(&s, &in, &out);
        cosim_cover_edge(&cv, &in, &out);
    }
    assert_int_equal(n[COV_CAPT_miss_free], 2);
    assert_int_equal(n[COV_CAPT_miss_evict], 1);
    assert_int_equal(n[COV_CAPT_hit_stall], 1);   /* allocated adequate */
    /* update of 0x300's entry (not adequate), then one of the evicted 0x100 */
    memset(&in, 0, sizeof in);
    in.update_valid_i[0] = 1;
    in.update_idx_i[0] = out.pred_idx_o[0];
    in.update_pc_i[0] = 0x300;
    capt_step(&s, &in, &out);
    cosim_cover_edge(&cv, &in, &out);
    assert_int_equal(n[COV_CAPT_upd_latest_inadq], 1);
    in.update_idx_i[0] ^= 1;
    in.update_pc_i[0] = 0x100;
    in.lookup_valid_i[0] = 1;
    in.lookup_pc_i[0] = 0x300;
    capt_step(&s, &in, &out);
    cosim_cover_edge(&cv, &in, &out);
    assert_int_equal(n[COV_CAPT_upd_stale], 1);
    assert_int_equal(n[COV_CAPT_hit_bypass], 1);  /* history now 0 */
    assert_int_equal(n[COV_CAPT_lookup_and_update], 1);
    assert_int_equal(n[COV_CAPT_flush], 0);
    assert_int_equal(n[COV_CAPT_upd_ctr2_adq] + n[COV_CAPT_upd_sticky_adq], 0);
}

/* WCU W = 8, NW = 4: a mask whose lane 0 three warps share forms three
 * compacted warps (the first with all lanes), counted when the job ends;
 * an empty and a bypassed load form none. */
static void test_wcu_bins(void **state)
{
    (void)state;
    struct wcu_cfg c = { .W = 8, .NW = 4 };
    struct wcu_state s;
    assert_int_equal(wcu_init(&s, &c), 0);
    uint64_t n[COV_COUNT] = { 0 };
    struct cosim_cover cv;
    cosim_cover_init(&cv, LS_BLK_WCU, &c, n);
    struct wcu_in in;
    struct wcu_out out;
    memset(&in, 0, sizeof in);
    in.load_i[0] = 1;
    in.mask_i[0] = 0xff;
    in.mask_i[1] = 0x01;
    in.mask_i[2] = 0x01;
    in.umask_i[0] = 0x7;
    wcu_step(&s, &in, &out);
    cosim_cover_edge(&cv, &in, &out);
    memset(&in, 0, sizeof in);
    for (int i = 0; i < 6; i++) {
        wcu_step(&s, &in, &out);
        cosim_cover_edge(&cv, &in, &out);
    }
    assert_int_equal(n[COV_WCU_warps_3], 1);
    assert_int_equal(n[COV_WCU_all_lanes], 1);
    assert_int_equal(n[COV_WCU_adequate] + n[COV_WCU_inadequate], 1);
    in.load_i[0] = 1;                       /* empty mask */
    wcu_step(&s, &in, &out);
    cosim_cover_edge(&cv, &in, &out);
    in.mask_i[3] = 0x10;                    /* warp 3 active, bypassed */
    wcu_step(&s, &in, &out);
    cosim_cover_edge(&cv, &in, &out);
    assert_int_equal(n[COV_WCU_empty_mask], 1);
    assert_int_equal(n[COV_WCU_all_bypass], 1);
    assert_int_equal(n[COV_WCU_warps_0], 2);
}

/* SLP W = 8: a launch per mode, lookups of an XOR and a rotated map. */
static void test_slp_bins(void **state)
{
    (void)state;
    struct slp_cfg c = { .W = 8, .NWARPS = 8, .ROT_EN = 1 };
    struct slp_state s;
    assert_int_equal(slp_init(&s, &c), 0);
    uint64_t n[COV_COUNT] = { 0 };
    struct cosim_cover cv;
    cosim_cover_init(&cv, LS_BLK_SLP, &c, n);
    struct slp_in in;
    struct slp_out out;
    for (unsigned m = 0; m < 8; m++) {
        memset(&in, 0, sizeof in);
        in.valid_i[0] = in.launch_i[0] = 1;
        in.slot_i[0] = m;
        in.wid_i[0] = 1;                    /* odd: every mode permutes */
        in.mode_i[0] = m;
        in.mask_i[0] = 0xff;
        slp_step(&s, &in, &out);
        cosim_cover_edge(&cv, &in, &out);
        assert_int_equal(n[COV_SLP_launch_none + m], 1);
    }
    in.launch_i[0] = 0;
    in.mask_i[0] = 0x0f;
    in.slot_i[0] = 7;
    slp_step(&s, &in, &out);
    cosim_cover_edge(&cv, &in, &out);
    in.slot_i[0] = 2;
    slp_step(&s, &in, &out);
    cosim_cover_edge(&cv, &in, &out);
    in.slot_i[0] = 0;
    slp_step(&s, &in, &out);
    cosim_cover_edge(&cv, &in, &out);
    assert_int_equal(n[COV_SLP_lookup_rotate], 1);
    assert_int_equal(n[COV_SLP_lookup_xor], 1);
    assert_int_equal(n[COV_SLP_lookup_identity], 1);
    assert_int_equal(n[COV_SLP_partial_mask], 3);
}

/* RVC: a write whose lanes differ in byte 0 only (enc 1110, as G-Scalar's
 * worked example), a scalar and a divergent write, then reads. */
static void test_rvc_bins(void **state)
{
    (void)state;
    struct rvc_comp_cfg c = rvc_comp_cfg_default();
    struct rvc_comp_state s;
    assert_int_equal(rvc_comp_init(&s, &c), 0);
    uint64_t n[COV_COUNT] = { 0 };
    struct cosim_cover cv;
    cosim_cover_init(&cv, LS_BLK_RVC_COMP, &c, n);
    struct rvc_comp_in in;
    struct rvc_comp_out out;
    memset(&in, 0, sizeof in);
    in.valid_i[0] = 1;
    in.mask_i[0] = 0xffffffffu;
    for (unsigned l = 0; l < 32; l++)
        in.data_i[l] = 0xC04039C0u + l;
    rvc_comp_step(&s, &in, &out);
    cosim_cover_edge(&cv, &in, &out);
    assert_int_equal(n[COV_RVC_COMP_enc_3], 1);
    for (unsigned l = 0; l < 32; l++)
        in.data_i[l] = 7;
    rvc_comp_step(&s, &in, &out);
    cosim_cover_edge(&cv, &in, &out);
    assert_int_equal(n[COV_RVC_COMP_scalar], 1);
    in.mask_i[0] = 0x0000ffffu;
    rvc_comp_step(&s, &in, &out);
    cosim_cover_edge(&cv, &in, &out);
    assert_int_equal(n[COV_RVC_COMP_divergent], 1);
    assert_int_equal(n[COV_RVC_COMP_div_scalar], 1);

    struct rvc_decomp_cfg dc = rvc_decomp_cfg_default();
    struct rvc_decomp_state ds;
    assert_int_equal(rvc_decomp_init(&ds, &dc), 0);
    cosim_cover_init(&cv, LS_BLK_RVC_DECOMP, &dc, n);
    struct rvc_decomp_in di;
    struct rvc_decomp_out dout;
    memset(&di, 0, sizeof di);
    di.valid_i[0] = 1;
    di.enc_i[0] = 0xf;
    di.bvr_i[0] = 7;
    di.mask_i[0] = 0xffffffffu;
    rvc_decomp_step(&ds, &di, &dout);
    cosim_cover_edge(&cv, &di, &dout);
    assert_int_equal(n[COV_RVC_DECOMP_rd_scalar], 1);
    assert_int_equal(n[COV_RVC_DECOMP_cls_scalar], 1);
    di.d_i[0] = 1;
    di.bvr_i[0] = 0x0000ffffu;
    di.mask_i[0] = 0x0000ffffu;
    rvc_decomp_step(&ds, &di, &dout);
    cosim_cover_edge(&cv, &di, &dout);
    assert_int_equal(n[COV_RVC_DECOMP_rd_divergent], 1);
    assert_int_equal(n[COV_RVC_DECOMP_cls_divscalar], 1);
}

/* BGP with a short refresh period and window: queries, insertions, the
 * second array's start and a refresh of each, and an inversion. */
static void test_bgp_bins(void **state)
{
    (void)state;
    struct bgp_cfg c = bgp_cfg_default();
    c.M = 256;
    c.N = 4;
    c.NUM_EVICT = 8;
    struct bgp_state s;
    assert_int_equal(bgp_init(&s, &c), 0);
    uint64_t n[COV_COUNT] = { 0 };
    struct cosim_cover cv;
    cosim_cover_init(&cv, LS_BLK_BGP, &c, n);
    struct bgp_in in;
    struct bgp_out out;
    for (uint32_t i = 0; i < 8; i++) {    /* every eviction low locality: FG */
        memset(&in, 0, sizeof in);
        in.e_valid_i[0] = 1;
        in.e_addr_i[0] = 0x1000u + 0x80u * i;
        in.e_used_i[0] = 1;
        in.q_valid_i[0] = 1;
        in.q_addr_i[0] = 0x1000u;
        bgp_step(&s, &in, &out);
        cosim_cover_edge(&cv, &in, &out);
    }
    assert_int_equal(n[COV_BGP_insert], 8);
    assert_true(n[COV_BGP_query_hit] >= 1 && n[COV_BGP_query_miss] >= 1);
    assert_int_equal(n[COV_BGP_array1_start], 1);
    assert_true(n[COV_BGP_refresh0] >= 1);
    assert_true(n[COV_BGP_refresh1] >= 1);
    assert_int_equal(n[COV_BGP_invert_to_fg], 1);  /* 8 of 8 inserted > 70 % */
    assert_int_equal(n[COV_BGP_window_keep], 0);
}

/* The seam counts bins into its environment only when coverage is on, and
 * the same under every backend that steps (here c). */
static void test_seam_counts(void **state)
{
    (void)state;
    const struct cosim_cfg lc = { NULL, NULL, NULL };
    int be[LS_BLK_COUNT] = { 0 };
    struct cosim_env *env = calloc(1, sizeof *env);
    assert_non_null(env);
    char err[512];
    assert_int_equal(cosim_env_init(env, &lc, be, 0, err, sizeof err), 0);
    const struct cosim_desc *d = cosim_desc_find("slp");
    struct slp_cfg c = { .W = 32, .NWARPS = 48, .ROT_EN = 1 };
    struct cosim_inst *off = calloc(1, sizeof *off), *on = calloc(1, sizeof *on);
    assert_int_equal(cosim_create(off, env, d, &c, "sm0.slp", err, sizeof err), 0);
    cosim_cover_enable(env);
    assert_int_equal(cosim_create(on, env, d, &c, "sm1.slp", err, sizeof err), 0);
    struct slp_in in;
    struct slp_out out;
    memset(&in, 0, sizeof in);
    in.valid_i[0] = in.launch_i[0] = 1;
    in.mode_i[0] = SLP_BALANCED;
    in.wid_i[0] = 1;
    in.mask_i[0] = 0xffffffffu;
    assert_int_equal(cosim_step(off, &in, &out, "t"), 0);
    assert_int_equal(env->cover[COV_SLP_launch_balanced], 0);
    assert_int_equal(cosim_step(on, &in, &out, "t"), 0);
    struct cosim_where w = { NULL, NULL };
    assert_int_equal(cosim_step_active(on, &in, &out, &w), 0);
    assert_int_equal(env->cover[COV_SLP_launch_balanced], 2);
    assert_int_equal(cosim_idle(on, 10, "t"), 0);
    assert_int_equal(env->cover[COV_SLP_launch_balanced], 2);
    cosim_free(off);
    cosim_free(on);
    free(off);
    free(on);
    cosim_env_fini(env);
    free(env);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bin_table),
        cmocka_unit_test(test_capt_bins),
        cmocka_unit_test(test_wcu_bins),
        cmocka_unit_test(test_slp_bins),
        cmocka_unit_test(test_rvc_bins),
        cmocka_unit_test(test_bgp_bins),
        cmocka_unit_test(test_seam_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
