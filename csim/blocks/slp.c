/* SLP cycle model (see slp.h); mirrors rtl/slp.v. */
#include "blocks/slp.h"

#include <string.h>

struct slp_cfg slp_cfg_default(void)
{
    struct slp_cfg c = {32, 32, 1};
    return c;
}

unsigned slp_lane_bits(const struct slp_cfg *cfg)
{
    unsigned b = 0;
    while ((1u << b) < cfg->W)
        b++;
    return b;
}

unsigned slp_slot_bits(const struct slp_cfg *cfg)
{
    unsigned b = 0;
    while ((1u << b) < cfg->NWARPS)
        b++;
    return b ? b : 1;
}

unsigned slp_storage_bits(const struct slp_cfg *cfg)
{
    return cfg->NWARPS * (slp_lane_bits(cfg) + (cfg->ROT_EN ? 1 : 0));
}

int slp_set_param(struct slp_cfg *cfg, const char *name, long v)
{
    if (!strcmp(name, "W"))
        cfg->W = (unsigned)v;
    else if (!strcmp(name, "NWARPS"))
        cfg->NWARPS = (unsigned)v;
    else if (!strcmp(name, "ROT_EN"))
        cfg->ROT_EN = (unsigned)v;
    else
        return -1;
    return 0;
}

void slp_port_dims(const struct slp_cfg *cfg, const char *name,
                   unsigned *bits, unsigned *count)
{
    unsigned m = slp_lane_bits(cfg);
    if (!strcmp(name, "slot_i"))
        *bits = slp_slot_bits(cfg);
    else if (!strcmp(name, "wid_i") || !strcmp(name, "key_o"))
        *bits = m;
    else if (!strcmp(name, "mask_i") || !strcmp(name, "mask_o"))
        *bits = cfg->W;
    else if (!strcmp(name, "phys_o")) {
        *bits = m;
        *count = cfg->W;
    }
}

void slp_reset(struct slp_state *s)
{
    struct slp_cfg cfg = s->cfg;
    memset(s, 0, sizeof *s);
    s->cfg = cfg;
}

int slp_init(struct slp_state *s, const struct slp_cfg *cfg)
{
    if (cfg->W < 4 || cfg->W > SLP_MAX_W || (cfg->W & (cfg->W - 1)) ||
        cfg->NWARPS < 2 || cfg->NWARPS > SLP_MAX_NWARPS || cfg->ROT_EN > 1)
        return -1;
    s->cfg = *cfg;
    slp_reset(s);
    return 0;
}

static unsigned bitrev(unsigned v, unsigned m)
{
    unsigned r = 0;
    for (unsigned i = 0; i < m; i++)
        if (v >> i & 1)
            r |= 1u << (m - 1 - i);
    return r;
}

unsigned slp_key(unsigned W, unsigned mode, unsigned wid, int rot_en,
                 unsigned *rot)
{
    unsigned m = 0, odd = wid & 1;
    while ((1u << m) < W)
        m++;
    *rot = 0;
    switch (mode) {
    case SLP_BALANCED:
        return ((wid >> 1) & (W / 2 - 1)) ^ (odd ? W - 1 : 0);
    case SLP_ODD_EVEN:
        return odd;
    case SLP_REV_WID:
        return bitrev(wid & (W - 1), m);
    case SLP_WID:
        return wid & (W - 1);
    case SLP_FLIP_ODD:
        return odd ? W - 1 : 0;
    case SLP_XOR_HALF_ODD:
        return odd ? W / 2 : 0;
    case SLP_ROTATE_ODD_1:
        if (!rot_en)
            return 0;
        *rot = 1;
        return odd;
    default:
        return 0;
    }
}

unsigned slp_phys(unsigned W, unsigned key, unsigned rot, unsigned l)
{
    return rot ? (l + key) & (W - 1) : (l ^ key) & (W - 1);
}

int slp_map(unsigned W, unsigned mode, unsigned wid, uint64_t seed,
            unsigned phys[SLP_MAX_W])
{
    if (W < 2 || W > SLP_MAX_W || mode > SLP_RANDOM)
        return -1;
    if (mode == SLP_RANDOM) {
        uint64_t x = seed ^ (0x9E3779B97F4A7C15ull * (wid + 1));
        for (unsigned l = 0; l < W; l++)
            phys[l] = l;
        for (unsigned i = W - 1; i > 0; i--) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            unsigned j = (unsigned)(x % (i + 1));
            unsigned t = phys[i];
            phys[i] = phys[j];
            phys[j] = t;
        }
        return 0;
    }
    unsigned rot;
    unsigned key = slp_key(W, mode, wid, 1, &rot);
    for (unsigned l = 0; l < W; l++)
        phys[l] = slp_phys(W, key, rot, l);
    return 0;
}

uint32_t slp_apply(unsigned W, const unsigned phys[SLP_MAX_W], uint32_t mask)
{
    uint32_t r = 0;
    for (unsigned l = 0; l < W; l++)
        if (mask >> l & 1)
            r |= 1u << phys[l];
    return r;
}

void slp_step(struct slp_state *s, const struct slp_in *in,
              struct slp_out *out)
{
    const struct slp_cfg *c = &s->cfg;
    unsigned W = c->W;
    uint32_t lanes = W >= 32 ? 0xFFFFFFFFu : (1u << W) - 1;
    unsigned slot = in->slot_i[0] & ((1u << slp_slot_bits(c)) - 1);
    unsigned wid = in->wid_i[0] & (W - 1);
    unsigned mode = in->mode_i[0] & 7;
    struct slp_out q;
    memset(&q, 0, sizeof q);
    if (in->valid_i[0] & 1) {
        unsigned key, rot;
        if (in->launch_i[0] & 1) {
            key = slp_key(W, mode, wid, (int)c->ROT_EN, &rot);
            s->st.launches++;
            s->st.launches_by_mode[mode]++;
        } else if (slot < c->NWARPS) {
            key = s->key[slot];
            rot = s->rot[slot];
            s->st.lookups++;
        } else { /* slot beyond the table: identity */
            key = 0;
            rot = 0;
            s->st.lookups++;
        }
        q.valid_o[0] = 1;
        q.key_o[0] = key;
        q.rot_o[0] = rot;
        for (unsigned l = 0; l < W; l++)
            q.phys_o[l] = slp_phys(W, key, rot, l);
        uint32_t m = in->mask_i[0] & lanes, pm = 0;
        for (unsigned l = 0; l < W; l++)
            if (m >> l & 1)
                pm |= 1u << q.phys_o[l];
        q.mask_o[0] = pm;
        if ((in->launch_i[0] & 1) && slot < c->NWARPS) {
            s->key[slot] = (uint8_t)key;
            s->rot[slot] = (uint8_t)rot;
        }
    }
    s->q = q;
    *out = q;
}
