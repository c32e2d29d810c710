/* RVC compressor C model; see rvc_comp.h and docs/blocks/rvc.md. */
#include "blocks/rvc_comp.h"

#include <string.h>

uint32_t rvc_lane_mask(unsigned W)
{
    return W >= 32 ? 0xffffffffu : ((1u << W) - 1u);
}

/* The bits in which some active lane of lo..hi-1 differs from the
 * reference, the value of the highest-numbered active lane (*ref; 0 when
 * none is active). */
static uint32_t lanes_diff(const uint32_t *val, uint32_t mask, unsigned lo,
                           unsigned hi, uint32_t *ref)
{
    uint32_t m = mask & (hi >= 32 ? ~0u : (1u << hi) - 1u) & ~((1u << lo) - 1u);
    uint32_t r = m ? val[31 - __builtin_clz(m)] : 0, diff = 0;
    for (unsigned l = lo; l < hi; l++)     /* branch-free: inactive lanes add 0 */
        diff |= (val[l] ^ r) & (0u - (mask >> l & 1u));
    *ref = r;
    return diff;
}

/* The thermometer code of diff (enc_lanes). */
static unsigned enc_of_diff(uint32_t diff)
{
    unsigned eq = 0;
    for (unsigned b = 0; b < 4; b++)
        if (!(diff >> (8 * b) & 0xffu))
            eq |= 1u << b;
    /* Thermometer from the most significant byte. */
    unsigned enc = 0;
    if (eq & 8u) {
        enc = 8u;
        if (eq & 4u) {
            enc = 0xcu;
            if (eq & 2u) {
                enc = 0xeu;
                if (eq & 1u)
                    enc = 0xfu;
            }
        }
    }
    return enc;
}

unsigned rvc_enc_lanes(const uint32_t *val, uint32_t mask, unsigned lo,
                       unsigned hi)
{
    uint32_t ref;
    return enc_of_diff(lanes_diff(val, mask, lo, hi, &ref));
}

unsigned rvc_enc_bytes(unsigned enc)
{
    switch (enc & 0xfu) {
    case 0x8: return 1;
    case 0xc: return 2;
    case 0xe: return 3;
    case 0xf: return 4;
    default:  return 0;
    }
}

struct rvc_enc rvc_compress(unsigned W, const uint32_t *val, uint32_t mask,
                            bool half)
{
    struct rvc_enc e;
    uint32_t all = rvc_lane_mask(W);
    mask &= all;
    /* the halves' differences, and the whole register's from them: a bit
     * differs over all active lanes iff it differs within a half or
     * between the halves' references (rvc_enc_lanes of 0..W, in one pass) */
    uint32_t rl, rh, lom = rvc_lane_mask(W / 2);
    uint32_t dl = lanes_diff(val, mask, 0, W / 2, &rl);
    uint32_t dh = lanes_diff(val, mask, W / 2, W, &rh);
    uint32_t df = (mask & lom) && (mask & ~lom) ? dl | dh | (rl ^ rh)
                                                 : (mask & ~lom) ? dh : dl;
    e.enc = enc_of_diff(df);
    e.encl = enc_of_diff(dl);
    e.ench = enc_of_diff(dh);
    e.d = mask != all;
    e.fs = half && !e.d && e.enc == 0xfu;
    if (e.d) {
        e.we = 0xffu;
        e.bvr = mask;
        e.bvrh = 0;
    } else if (half) {
        e.we = ((~e.ench & 0xfu) << 4) | (~e.encl & 0xfu);
        e.bvr = val[0];
        e.bvrh = val[W / 2];
    } else {
        e.we = ((~e.enc & 0xfu) << 4) | (~e.enc & 0xfu);
        e.bvr = val[0];
        e.bvrh = 0;
    }
    return e;
}

struct rvc_comp_cfg rvc_comp_cfg_default(void)
{
    struct rvc_comp_cfg c = { .W = 32 };
    return c;
}

int rvc_comp_init(struct rvc_comp_state *s, const struct rvc_comp_cfg *cfg)
{
    if (!s || !cfg || cfg->W < 2 || cfg->W > RVC_MAX_W || (cfg->W & 1u))
        return -1;
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    return 0;
}

void rvc_comp_reset(struct rvc_comp_state *s)
{
    memset(&s->r, 0, sizeof s->r);
    memset(&s->st, 0, sizeof s->st);
}

void rvc_comp_step(struct rvc_comp_state *s, const struct rvc_comp_in *in,
                   struct rvc_comp_out *out)
{
    unsigned W = s->cfg.W;
    s->st.cycles++;
    s->r.valid_o[0] = in->valid_i[0] & 1u;
    if (in->valid_i[0] & 1u) {
        bool half = in->half_i[0] & 1u;
        struct rvc_enc e = rvc_compress(W, in->data_i, in->mask_i[0], half);
        s->r.d_o[0] = e.d;
        s->r.half_o[0] = half;
        s->r.enc_o[0] = e.enc;
        s->r.encl_o[0] = e.encl;
        s->r.ench_o[0] = e.ench;
        s->r.fs_o[0] = e.fs;
        s->r.we_o[0] = e.we;
        s->r.bvr_o[0] = e.bvr;
        s->r.bvrh_o[0] = e.bvrh;
        s->r.mask_o[0] = in->mask_i[0] & rvc_lane_mask(W);
        for (unsigned l = 0; l < W; l++)
            s->r.data_o[l] = in->data_i[l];
        s->st.writes++;
        if (e.d)
            s->st.divergent++;
        else
            s->st.enc_hist[rvc_enc_bytes(e.enc)]++;
        s->st.arrays_written += (uint64_t)__builtin_popcount(e.we);
    }
    *out = s->r;
}
