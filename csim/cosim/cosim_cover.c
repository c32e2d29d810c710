/* The coverage observer of the seam (cosim_cover.h): the bins of
 * cosim_cover.def decided from one edge's port structs. */
#include <stddef.h>
#include <strings.h>
#include "cosim/cosim_cover.h"
#include "blocks/bgp.h"
#include "blocks/capt.h"
#include "blocks/rvc_comp.h"
#include "blocks/rvc_decomp.h"
#include "blocks/slp.h"
#include "blocks/wcu.h"

static const struct {
    int blk;
    const char *blk_name, *name, *what;
} bins[COV_COUNT] = {
#define COVER_BIN(blk, name, what) { LS_BLK_##blk, #blk, #name, what },
#include "cosim/cosim_cover.def"
#undef COVER_BIN
};

_Static_assert(COV_COUNT == LS_COVER_BINS, "LS_COVER_BINS (include/lockstep.h) is the "
               "number of bins of cosim_cover.def");

int cosim_cover_block(unsigned b)
{
    return b < COV_COUNT ? bins[b].blk : -1;
}

int cosim_cover_block_id(const char *name)
{
    for (unsigned b = 0; b < COV_COUNT; b++)
        if (!strcasecmp(bins[b].blk_name, name))
            return bins[b].blk;
    return -1;
}

const char *cosim_cover_name(unsigned b)
{
    return b < COV_COUNT ? bins[b].name : "?";
}

const char *cosim_cover_what(unsigned b)
{
    return b < COV_COUNT ? bins[b].what : "?";
}

void cosim_cover_init(struct cosim_cover *cv, int blk, const void *cfg, uint64_t *count)
{
    cv->blk = blk;
    cv->cfg = cfg;
    cv->count = count;
    cosim_cover_reset(cv);
}

void cosim_cover_reset(struct cosim_cover *cv)
{
    cv->warps = 0;
    cv->have_prev = 0;
    cv->prev_cnt0 = cv->prev_cnt1 = cv->prev_idle1 = 0;
}

static uint32_t ones(unsigned n)
{
    return n >= 32 ? 0xffffffffu : (1u << n) - 1u;
}

static void capt(struct cosim_cover *cv, const struct capt_in *in,
                 const struct capt_out *o)
{
    uint64_t *c = cv->count;
    const struct capt_cfg *cfg = cv->cfg;
    if (o->pred_valid_o[0]) {
        if (o->pred_hit_o[0])
            c[o->pred_stall_o[0] ? COV_CAPT_hit_stall : COV_CAPT_hit_bypass]++;
        else
            c[o->pred_evict_o[0] ? COV_CAPT_miss_evict : COV_CAPT_miss_free]++;
    }
    if (o->upd_valid_o[0]) {
        if (!o->upd_hit_o[0]) {
            c[COV_CAPT_upd_stale]++;
        } else {
            unsigned adq = in->update_adequate_i[0] & 1u;
            static const unsigned mode[3][2] = {
                { COV_CAPT_upd_latest_inadq, COV_CAPT_upd_latest_adq },
                { COV_CAPT_upd_sticky_inadq, COV_CAPT_upd_sticky_adq },
                { COV_CAPT_upd_ctr2_inadq, COV_CAPT_upd_ctr2_adq } };
            if (cfg->HIST < 3)
                c[mode[cfg->HIST][adq]]++;
        }
    }
    if ((in->lookup_valid_i[0] & 1u) && (in->update_valid_i[0] & 1u))
        c[COV_CAPT_lookup_and_update]++;
    if (in->flush_i[0] & 1u)
        c[COV_CAPT_flush]++;
}

static void wcu(struct cosim_cover *cv, const struct wcu_in *in, const struct wcu_out *o)
{
    uint64_t *c = cv->count;
    const struct wcu_cfg *cfg = cv->cfg;
    uint32_t lm = ones(cfg->W);
    if (o->out_valid_o[0]) {          /* the job's compacted warps, in order */
        cv->warps++;
        if ((o->out_lanes_o[0] & lm) == lm)
            c[COV_WCU_all_lanes]++;
        if (o->out_done_o[0]) {
            unsigned k = cv->warps;
            c[k == 1 ? COV_WCU_warps_1 : k == 2 ? COV_WCU_warps_2
              : k == 3 ? COV_WCU_warps_3 : k == 4 ? COV_WCU_warps_4
              : k <= 8 ? COV_WCU_warps_5_8 : k <= 16 ? COV_WCU_warps_9_16
              : COV_WCU_warps_17_32]++;
            cv->warps = 0;
        }
    }
    if (!(in->load_i[0] & 1u))
        return;
    if (!o->eval_valid_o[0]) {
        c[COV_WCU_load_refused]++;
        return;
    }
    /* the mask this edge loaded */
    uint32_t um = in->umask_i[0] & ones(cfg->NW);
    unsigned active = 0, bypassed = 0, waiting = 0;
    for (unsigned w = 0; w < cfg->NW && w < WCU_MAX_NW; w++) {
        if (!(in->mask_i[w] & lm))
            continue;
        active++;
        if ((um >> w) & 1u)
            waiting++;
        else
            bypassed++;
    }
    if (!active)
        c[COV_WCU_empty_mask]++;
    if (bypassed)
        c[bypassed == active ? COV_WCU_all_bypass : COV_WCU_bypass_mask]++;
    if (!waiting)
        c[COV_WCU_warps_0]++;
    c[o->adequate_o[0] ? COV_WCU_adequate : COV_WCU_inadequate]++;
}

static void slp(struct cosim_cover *cv, const struct slp_in *in, const struct slp_out *o)
{
    uint64_t *c = cv->count;
    const struct slp_cfg *cfg = cv->cfg;
    if (!(in->valid_i[0] & 1u))
        return;
    uint32_t m = in->mask_i[0] & ones(cfg->W);
    if (m && m != ones(cfg->W))
        c[COV_SLP_partial_mask]++;
    if (in->launch_i[0] & 1u)
        c[COV_SLP_launch_none + (in->mode_i[0] & 7u)]++;
    else
        c[!o->key_o[0] ? COV_SLP_lookup_identity
          : o->rot_o[0] ? COV_SLP_lookup_rotate : COV_SLP_lookup_xor]++;
}

/* Bin of a thermometer enc (0000, 1000, 1100, 1110, 1111) from base. */
static unsigned enc_bin(unsigned base, uint32_t enc)
{
    switch (enc & 0xfu) {
    case 0x8: return base + 1;
    case 0xc: return base + 2;
    case 0xe: return base + 3;
    case 0xf: return base + 4;
    default: return base;
    }
}

static void rvc_comp(struct cosim_cover *cv, const struct rvc_comp_out *o)
{
    uint64_t *c = cv->count;
    if (!o->valid_o[0])
        return;
    if (o->d_o[0]) {
        c[COV_RVC_COMP_divergent]++;
        if ((o->enc_o[0] & 0xfu) == 0xf)
            c[COV_RVC_COMP_div_scalar]++;
    } else if (o->half_o[0]) {
        c[COV_RVC_COMP_half]++;
        if (o->fs_o[0])
            c[COV_RVC_COMP_half_fs]++;
        else if (((o->encl_o[0] & 0xfu) == 0xf) != ((o->ench_o[0] & 0xfu) == 0xf))
            c[COV_RVC_COMP_half_one]++;
    } else {
        c[enc_bin(COV_RVC_COMP_enc_none, o->enc_o[0])]++;
    }
}

static void rvc_decomp(struct cosim_cover *cv, const struct rvc_decomp_in *in,
                       const struct rvc_decomp_out *o)
{
    uint64_t *c = cv->count;
    if (!(in->valid_i[0] & 1u))
        return;
    if (in->d_i[0] & 1u)
        c[COV_RVC_DECOMP_rd_divergent]++;
    else if (in->half_i[0] & 1u)
        c[COV_RVC_DECOMP_rd_half]++;
    else
        c[enc_bin(COV_RVC_DECOMP_rd_none, in->enc_i[0])]++;
    switch (o->cls_o[0] & 3u) {
    case 1: c[COV_RVC_DECOMP_cls_scalar]++; break;
    case 2: c[COV_RVC_DECOMP_cls_divscalar]++; break;
    case 3: c[COV_RVC_DECOMP_cls_half]++; break;
    default: break;
    }
}

static void bgp(struct cosim_cover *cv, const struct bgp_out *o)
{
    uint64_t *c = cv->count;
    if (o->q_valid_o[0]) {
        c[o->q_hit_o[0] ? COV_BGP_query_hit : COV_BGP_query_miss]++;
        c[o->q_fg_o[0] ? COV_BGP_predict_fg : COV_BGP_predict_cg]++;
    }
    if (o->e_valid_o[0]) {
        c[o->e_ins_o[0] ? COV_BGP_insert : COV_BGP_evict_no_insert]++;
        if (o->inv_o[0]) {
            c[o->dflt_o[0] ? COV_BGP_invert_to_fg : COV_BGP_invert_to_cg]++;
        } else {
            if (!o->win_ev_o[0])
                c[COV_BGP_window_keep]++;
            if (cv->have_prev) {
                if (cv->prev_idle1 && !o->idle1_o[0])
                    c[COV_BGP_array1_start]++;
                if (cv->prev_cnt0 && !o->cnt0_o[0])
                    c[COV_BGP_refresh0]++;
                if (cv->prev_cnt1 && !o->cnt1_o[0])
                    c[COV_BGP_refresh1]++;
            }
        }
    }
    cv->have_prev = 1;
    cv->prev_cnt0 = o->cnt0_o[0];
    cv->prev_cnt1 = o->cnt1_o[0];
    cv->prev_idle1 = o->idle1_o[0];
}

void cosim_cover_edge(struct cosim_cover *cv, const void *in, const void *out)
{
    switch (cv->blk) {
    case LS_BLK_CAPT: capt(cv, in, out); break;
    case LS_BLK_WCU: wcu(cv, in, out); break;
    case LS_BLK_SLP: slp(cv, in, out); break;
    case LS_BLK_RVC_COMP: rvc_comp(cv, out); break;
    case LS_BLK_RVC_DECOMP: rvc_decomp(cv, in, out); break;
    case LS_BLK_BGP: bgp(cv, out); break;
    default: break;
    }
}
