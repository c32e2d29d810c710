/* WCU cycle model; see wcu.h and docs/blocks/wcu.md. Mirrors rtl/wcu.v
 * register for register. */
#include "blocks/wcu.h"

#include <string.h>

static uint32_t lane_mask(unsigned w)
{
    return w >= 32 ? 0xffffffffu : ((1u << w) - 1u);
}

static unsigned clog2(unsigned v)
{
    unsigned b = 0;
    while ((1u << b) < v)
        b++;
    return b;
}

static unsigned popcount32(uint32_t v)
{
    unsigned n = 0;
    for (; v; v &= v - 1u)
        n++;
    return n;
}

struct wcu_cfg wcu_cfg_default(void)
{
    struct wcu_cfg c = { .W = 32, .NW = 32 };
    return c;
}

unsigned wcu_wid_bits(const struct wcu_cfg *cfg)
{
    unsigned b = clog2(cfg->NW);
    return b ? b : 1;
}

unsigned wcu_cnt_bits(const struct wcu_cfg *cfg)
{
    return clog2(cfg->NW + 1u);
}

int wcu_init(struct wcu_state *s, const struct wcu_cfg *cfg)
{
    if (!s || !cfg || cfg->W < 1 || cfg->W > WCU_MAX_W || cfg->NW < 2 ||
        cfg->NW > WCU_MAX_NW)
        return -1;
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    return 0;
}

void wcu_reset(struct wcu_state *s)
{
    struct wcu_cfg c = s->cfg;
    memset(s, 0, sizeof *s);
    s->cfg = c;
}

/* Adds the lanes of v (one bit per lane) into the bit-sliced per-lane
 * counters plane[0..5] (plane[b] bit l = bit b of lane l's count). */
static void vcount_add(uint32_t *plane, uint32_t v)
{
    for (unsigned b = 0; b < 6 && v; b++) {
        uint32_t carry = plane[b] & v;
        plane[b] ^= v;
        v = carry;
    }
}

/* The largest count over lanes 0..w-1: bit by bit from the top, keeping
 * the lanes whose count has every bit found so far. */
static unsigned vcount_max(const uint32_t *plane, unsigned w)
{
    unsigned mx = 0;
    uint32_t cand = lane_mask(w);
    for (unsigned b = 6; b-- > 0;)
        if (cand & plane[b]) {
            mx |= 1u << b;
            cand &= plane[b];
        }
    return mx;
}

struct wcu_eval wcu_evaluate(const struct wcu_cfg *cfg, const uint32_t *mask,
                             uint32_t umask)
{
    struct wcu_eval e = { 0, 0, 0, 0, false };
    uint32_t lm = lane_mask(cfg->W);
    uint32_t all[6] = { 0 }, part[6] = { 0 };
    unsigned total = 0;
    for (unsigned w = 0; w < cfg->NW; w++) {
        uint32_t m = mask[w] & lm;
        vcount_add(all, m);
        if ((umask >> w) & 1u)
            vcount_add(part, m);
        e.nw_nocomp += m != 0;
        total += popcount32(m);
    }
    e.nw_min = vcount_max(all, cfg->W);
    e.nw_tbc = vcount_max(part, cfg->W);
    e.nw_ideal = (total + cfg->W - 1u) / cfg->W;
    e.adequate = e.nw_min < e.nw_nocomp;
    return e;
}

/* The output ports from the registers; any / multi: the OR of rem and
 * the lanes that more than one warp still holds. */
static void fill_outputs(const struct wcu_state *s, struct wcu_out *out,
                         uint32_t any, uint32_t multi)
{
    /* every field is written (no memset on each edge's path) */
    _Static_assert(sizeof(struct wcu_out) == (9 + WCU_MAX_W) * sizeof(uint32_t),
                   "wcu_out has a port fill_outputs does not write");
    out->ready_o[0] = multi == 0;
    out->busy_o[0] = any != 0;
    out->out_valid_o[0] = s->out_valid;
    out->out_done_o[0] = s->out_done;
    out->out_lanes_o[0] = s->out_lanes;
    memcpy(out->out_wid_o, s->out_wid, sizeof out->out_wid_o);
    out->eval_valid_o[0] = s->eval_valid;
    out->nw_min_o[0] = s->nw_min;
    out->nw_nocomp_o[0] = s->nw_nocomp;
    out->adequate_o[0] = s->adequate;
}

void wcu_outputs(const struct wcu_state *s, struct wcu_out *out)
{
    uint32_t any = 0, multi = 0;
    for (unsigned w = 0; w < s->cfg.NW; w++) {
        multi |= any & s->rem[w];
        any |= s->rem[w];
    }
    fill_outputs(s, out, any, multi);
}

bool wcu_idle_fixed(const struct wcu_state *s)
{
    uint32_t any = 0;
    for (unsigned w = 0; w < s->cfg.NW; w++)
        any |= s->rem[w];
    /* out_lanes 0 means out_wid is all 0 (wcu_step writes 0 to every lane
     * not taken), which an idle edge writes again */
    return !any && !s->out_valid && !s->out_done && !s->out_lanes && !s->eval_valid;
}

void wcu_idle_edges(struct wcu_state *s, uint64_t n)
{
    s->st.cycles += n;
}

void wcu_step(struct wcu_state *s, const struct wcu_in *in,
              struct wcu_out *out)
{
    const struct wcu_cfg *c = &s->cfg;
    uint32_t lm = lane_mask(c->W);
    uint32_t taken = 0, left = 0, any = 0, multi = 0;

    /* Per-lane priority encoders: lowest remaining warp wins each lane
     * (out_wid holds 0 in every lane not taken, so an edge with nothing
     * remaining leaves it as it is once it is clear). */
    for (unsigned w = 0; w < c->NW; w++)
        any |= s->rem[w];
    if (any || s->out_lanes) {
        uint32_t wid[WCU_MAX_W] = { 0 };
        for (unsigned w = 0; w < c->NW; w++) {
            uint32_t p = s->rem[w] & ~taken;
            taken |= p;
            for (uint32_t b = p; b; b &= b - 1u)
                wid[__builtin_ctz(b)] = w;
            s->rem[w] &= ~p;
            multi |= left & s->rem[w];
            left |= s->rem[w];
        }
        memcpy(s->out_wid, wid, sizeof s->out_wid);
    }
    bool emit = taken != 0;
    bool accept = (in->load_i[0] & 1u) && left == 0;

    s->st.cycles++;
    s->out_valid = emit;
    s->out_done = emit && left == 0;
    s->out_lanes = taken;
    if (emit) {
        s->st.warps_out++;
        s->st.threads_out += popcount32(taken);
    }
    s->eval_valid = accept;
    if (accept) {
        uint32_t um = in->umask_i[0] & lane_mask(c->NW);
        uint32_t mask[WCU_MAX_NW];
        for (unsigned w = 0; w < c->NW; w++) {
            mask[w] = in->mask_i[w] & lm;
            s->rem[w] = (um >> w) & 1u ? mask[w] : 0;
            multi |= left & s->rem[w];
            left |= s->rem[w];
        }
        struct wcu_eval e = wcu_evaluate(c, mask, um);
        s->nw_min = e.nw_min;
        s->nw_nocomp = e.nw_nocomp;
        s->adequate = e.adequate;
        s->st.loads++;
        s->st.sum_nw_ideal += e.nw_ideal;
        s->st.sum_nw_min += e.nw_min;
        s->st.sum_nw_nocomp += e.nw_nocomp;
        s->st.adequate += e.adequate;
        s->st.last_nw_ideal = e.nw_ideal;
        s->st.last_nw_tbc = e.nw_tbc;
    } else if (in->load_i[0] & 1u) {
        s->st.loads_dropped++;
    }
    if (out)
        fill_outputs(s, out, left, multi);
}
