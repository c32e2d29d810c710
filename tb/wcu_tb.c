/* WCU lockstep stimulus and directed cases (hooks of tb/README.md).
 * Random stimulus: episodes of CTA-wide masks drawn from patterns that
 * cover the corners (empty, full, one thread, aligned = not compactable,
 * diagonal = fully compactable, sparse/dense random, fewer warps than NW),
 * UMask all-wait / random / all-bypassed, loads offered back to back on
 * ready_o, while busy (dropped) and after idle gaps.
 * Directed: Fig 4.3 (path C), Fig 4.8/4.9 (UMask bypass), Fig 4.1 path B,
 * K cycles for K warps, back-to-back loads. */
#include <stdio.h>
#include <string.h>

#include "blocks/wcu.h"
#include "tb/lockstep.h"

int wcu_tb_param(struct wcu_cfg *cfg, const char *name, long value);
void wcu_tb_dims(const struct wcu_cfg *cfg, const char *name,
                 unsigned *bits, unsigned *count);
void wcu_tb_stim(struct tb_rng *r, const struct wcu_cfg *cfg,
                 const struct wcu_out *prev, struct wcu_in *in);
int wcu_tb_directed(struct ls_ctx *ls, const struct wcu_cfg *cfg);

int wcu_tb_param(struct wcu_cfg *cfg, const char *name, long value)
{
    if (!strcmp(name, "W"))
        cfg->W = (unsigned)value;
    else if (!strcmp(name, "NW"))
        cfg->NW = (unsigned)value;
    else
        return -1;
    return 0;
}

void wcu_tb_dims(const struct wcu_cfg *cfg, const char *name,
                 unsigned *bits, unsigned *count)
{
    if (!strcmp(name, "mask_i")) {
        *bits = cfg->W;
        *count = cfg->NW;
    } else if (!strcmp(name, "umask_i")) {
        *bits = cfg->NW;
    } else if (!strcmp(name, "out_lanes_o")) {
        *bits = cfg->W;
    } else if (!strcmp(name, "out_wid_o")) {
        *bits = wcu_wid_bits(cfg);
        *count = cfg->W;
    } else if (!strcmp(name, "nw_min_o") || !strcmp(name, "nw_nocomp_o")) {
        *bits = wcu_cnt_bits(cfg);
    }
}

static uint32_t ones(unsigned n)
{
    return n >= 32 ? 0xffffffffu : ((1u << n) - 1u);
}

/* Scratch in r->user: [0] pattern of the current episode, [1] loads left
 * in the episode, [2] idle cycles left, [3] umask mode. */
enum { PAT_RANDOM, PAT_SPARSE, PAT_DENSE, PAT_FULL, PAT_EMPTY, PAT_ONE,
       PAT_ALIGNED, PAT_DIAG, PAT_FEWWARPS, PAT_LANE0, PAT_N };

static void gen_mask(struct tb_rng *r, const struct wcu_cfg *c,
                     unsigned pat, uint32_t *m)
{
    uint32_t lm = ones(c->W);
    unsigned nw = c->NW;
    memset(m, 0, sizeof(uint32_t) * WCU_MAX_NW);
    switch (pat) {
    case PAT_RANDOM:
        for (unsigned w = 0; w < nw; w++)
            m[w] = (uint32_t)tb_rand(r) & lm;
        break;
    case PAT_SPARSE:
        for (unsigned w = 0; w < nw; w++)
            m[w] = (uint32_t)(tb_rand(r) & tb_rand(r) & tb_rand(r)) & lm;
        break;
    case PAT_DENSE:
        for (unsigned w = 0; w < nw; w++)
            m[w] = (uint32_t)(tb_rand(r) | tb_rand(r)) & lm;
        break;
    case PAT_FULL:
        for (unsigned w = 0; w < nw; w++)
            m[w] = lm;
        break;
    case PAT_EMPTY:
        break;
    case PAT_ONE:
        m[tb_below(r, nw)] = 1u << tb_below(r, c->W);
        break;
    case PAT_ALIGNED: { /* same lane subset in every warp: not adequate */
        uint32_t s = (uint32_t)tb_rand(r) & lm;
        for (unsigned w = 0; w < nw; w++)
            m[w] = tb_chance(r, 7, 8) ? s : 0;
        break;
    }
    case PAT_DIAG: { /* each warp a disjoint lane slice: compacts to 1 */
        for (unsigned w = 0; w < nw; w++)
            m[w] = (1u << (w % c->W)) & (tb_chance(r, 3, 4) ? lm : 0);
        break;
    }
    case PAT_FEWWARPS: { /* a CTA smaller than NW */
        unsigned n = 1 + (unsigned)tb_below(r, nw);
        for (unsigned w = 0; w < n; w++)
            m[w] = (uint32_t)tb_rand(r) & lm;
        break;
    }
    default: /* PAT_LANE0: lane 0 everywhere (max K = NW) + noise */
        for (unsigned w = 0; w < nw; w++)
            m[w] = (1u | ((uint32_t)(tb_rand(r) & tb_rand(r)))) & lm;
        break;
    }
}

void wcu_tb_stim(struct tb_rng *r, const struct wcu_cfg *cfg,
                 const struct wcu_out *prev, struct wcu_in *in)
{
    uint64_t *u = r->user;
    memset(in, 0, sizeof *in);
    if (u[1] == 0) {                       /* new episode */
        u[0] = tb_below(r, PAT_N);
        u[1] = 1 + tb_below(r, 16);
        u[3] = tb_below(r, 4);
        u[2] = tb_chance(r, 1, 4) ? tb_below(r, 40) : 0;
    }
    if (u[2]) {                            /* idle gap */
        u[2]--;
        return;
    }
    /* Offer a load on ready_o mostly; sometimes while busy (dropped) or
     * after a short random pause. */
    int offer = prev->ready_o[0] ? tb_chance(r, 7, 8) : tb_chance(r, 1, 8);
    if (!offer)
        return;
    uint32_t m[WCU_MAX_NW];
    gen_mask(r, cfg, (unsigned)u[0], m);
    if (tb_chance(r, 1, 16))
        gen_mask(r, cfg, (unsigned)tb_below(r, PAT_N), m);
    in->load_i[0] = 1;
    memcpy(in->mask_i, m, sizeof m);
    uint32_t nm = ones(cfg->NW);
    switch (u[3]) {
    case 0: in->umask_i[0] = nm; break;                         /* all wait */
    case 1: in->umask_i[0] = (uint32_t)tb_rand(r) & nm; break;
    case 2: in->umask_i[0] = (uint32_t)(tb_rand(r) | tb_rand(r)) & nm; break;
    default: in->umask_i[0] = tb_chance(r, 1, 2) ? 0 : nm; break;
    }
    if (prev->ready_o[0])
        u[1]--;
}

/* Loads mask/umask, checks the evaluator, then steps until busy_o falls
 * and checks every emitted warp against lanes[]/wid[][]. */
static void run_case(struct ls_ctx *ls, const struct wcu_cfg *cfg,
                     const char *name, const uint32_t *m, unsigned nwm,
                     uint32_t um, unsigned nw_min, unsigned nw_nocomp,
                     unsigned adequate, unsigned k, const uint32_t *lanes,
                     const unsigned (*wid)[4])
{
    struct wcu_in in;
    struct wcu_out o;
    ls_case(ls, name);
    ls_reset(ls);
    memset(&in, 0, sizeof in);
    in.load_i[0] = 1;
    memcpy(in.mask_i, m, nwm * sizeof *m);
    in.umask_i[0] = um & ones(cfg->NW);
    ls_step(ls, &in, &o);
    LS_EXPECT(ls, 1, o.eval_valid_o[0]);
    LS_EXPECT(ls, nw_min, o.nw_min_o[0]);
    LS_EXPECT(ls, nw_nocomp, o.nw_nocomp_o[0]);
    LS_EXPECT(ls, adequate, o.adequate_o[0]);
    memset(&in, 0, sizeof in);
    unsigned n = 0;
    while (o.busy_o[0] && n <= k) {
        ls_step(ls, &in, &o);
        LS_EXPECT(ls, 1, o.out_valid_o[0]);
        if (n < k) {
            LS_EXPECT(ls, lanes[n], o.out_lanes_o[0]);
            for (unsigned l = 0; l < 4; l++)
                LS_EXPECT(ls, wid[n][l], o.out_wid_o[l]);
        }
        n++;
    }
    LS_EXPECT(ls, k, n);
    LS_EXPECT(ls, 1, o.out_done_o[0]);
    ls_step(ls, &in, &o);
    LS_EXPECT(ls, 0, o.out_valid_o[0]);
    printf("directed %s: %s\n", name, ls->fails ? "FAILED" : "ok");
}

int wcu_tb_directed(struct ls_ctx *ls, const struct wcu_cfg *cfg)
{
    struct wcu_in in;
    struct wcu_out o;
    if (cfg->W < 4 || cfg->NW < 3)
        return 0;

    /* Fig 4.3 / Fig 4.1 path C: 0123 456- 89-B, 3 compacted warps. */
    {
        const uint32_t m[3] = { 0xF, 0x7, 0xB };
        const uint32_t lanes[3] = { 0xF, 0xF, 0x3 };
        const unsigned wid[3][4] = { { 0, 0, 0, 0 }, { 1, 1, 1, 2 },
                                     { 2, 2, 0, 0 } };
        run_case(ls, cfg, "fig4.3_path_c", m, 3, 0x7, 3, 3, 0, 3, lanes,
                 wid);
    }
    /* Fig 4.8(c)-(d), Fig 4.9: W0 bypassed (UMask 011); WCU emits
     * 49-7 and 8---; evaluator over all warps: 3 vs 3, not adequate. */
    {
        const uint32_t m[3] = { 0xF, 0x9, 0x3 };
        const uint32_t lanes[2] = { 0xB, 0x1 };
        const unsigned wid[2][4] = { { 1, 2, 0, 1 }, { 2, 0, 0, 0 } };
        run_case(ls, cfg, "fig4.9_umask_bypass", m, 3, 0x6, 3, 3, 0, 2,
                 lanes, wid);
    }
    /* Fig 4.1 path B: threads 7 and A compact into one warp: adequate. */
    {
        const uint32_t m[3] = { 0x0, 0x8, 0x4 };
        const uint32_t lanes[1] = { 0xC };
        const unsigned wid[1][4] = { { 0, 0, 2, 1 } };
        run_case(ls, cfg, "fig4.1_path_b", m, 3, 0x7, 1, 2, 1, 1, lanes,
                 wid);
    }
    /* K cycles for K warps: all NW warps active in lane 0. */
    {
        ls_case(ls, "k_cycles");
        ls_reset(ls);
        memset(&in, 0, sizeof in);
        in.load_i[0] = 1;
        for (unsigned w = 0; w < cfg->NW; w++)
            in.mask_i[w] = 1u | (w < cfg->W ? 1u << w : 0);
        in.umask_i[0] = ones(cfg->NW);
        ls_step(ls, &in, &o);
        LS_EXPECT(ls, cfg->NW, o.nw_min_o[0]);
        memset(&in, 0, sizeof in);
        unsigned n = 0;
        while (o.busy_o[0] && n <= cfg->NW) {
            ls_step(ls, &in, &o);
            LS_EXPECT(ls, n, o.out_wid_o[0]);
            n++;
        }
        LS_EXPECT(ls, cfg->NW, n);
        printf("directed k_cycles: %s\n", ls->fails ? "FAILED" : "ok");
    }
    /* Back to back: Fig 4.3 then path B; B is offered every edge and is
     * accepted on the edge that emits the last warp of Fig 4.3. */
    {
        ls_case(ls, "back_to_back");
        ls_reset(ls);
        struct wcu_in a, b;
        memset(&a, 0, sizeof a);
        a.load_i[0] = 1;
        a.mask_i[0] = 0xF;
        a.mask_i[1] = 0x7;
        a.mask_i[2] = 0xB;
        a.umask_i[0] = ones(cfg->NW);
        b = a;
        b.mask_i[0] = 0x0;
        b.mask_i[1] = 0x8;
        b.mask_i[2] = 0x4;
        ls_step(ls, &a, &o);
        unsigned evals = 0, warps = 0, cyc = 0;
        while (cyc < 8) {
            ls_step(ls, &b, &o);
            evals += o.eval_valid_o[0];
            warps += o.out_valid_o[0];
            cyc++;
            if (evals == 1)
                break;
        }
        LS_EXPECT(ls, 3, cyc);          /* accepted with the 3rd warp */
        LS_EXPECT(ls, 1, o.out_done_o[0]);
        LS_EXPECT(ls, 1, o.adequate_o[0]);
        memset(&in, 0, sizeof in);
        ls_step(ls, &in, &o);
        LS_EXPECT(ls, 0xC, o.out_lanes_o[0]);
        LS_EXPECT(ls, 4, warps + o.out_valid_o[0]);
        printf("directed back_to_back: %s\n", ls->fails ? "FAILED" : "ok");
    }
    return ls->fails;
}
