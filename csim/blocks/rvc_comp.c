/* RVC compressor C model; see rvc_comp.h and docs/blocks/rvc.md. */
#include "blocks/rvc_comp.h"

#include <string.h>

#include "blocks/blk_port.h"

uint32_t rvc_lane_mask(unsigned W)
{
    return W >= 32 ? 0xffffffffu : ((1u << W) - 1u);
}

/* OR and AND of a set of lanes: a bit differs between them iff it is set
 * in o and clear in a (o & ~a; 0 for one lane or none). */
struct lanes_acc {
    uint32_t o, a;
};

/* The lanes of m (any of val[0..31]), one set bit at a time. */
static struct lanes_acc acc_bits(const uint32_t *val, uint32_t m)
{
    struct lanes_acc r = { 0, ~0u };
    for (; m; m &= m - 1) {
        uint32_t v = val[__builtin_ctz(m)];
        r.o |= v;
        r.a &= v;
    }
    return r;
}

/* All 16 lanes of val[0..15] (a loop of fixed length the compiler turns
 * into vector operations). */
static struct lanes_acc acc16(const uint32_t *val)
{
    uint32_t o = 0, a = ~0u;
    for (unsigned l = 0; l < 16; l++) {
        o |= val[l];
        a &= val[l];
    }
    struct lanes_acc r = { o, a };
    return r;
}

/* The active lanes (mask) of lo..hi-1. Every active lane is compared with
 * the highest-numbered one in the hardware (docs/blocks/rvc.md): a bit
 * differs from that reference in some active lane iff it is not the same
 * in all of them, which is what o & ~a of these lanes says. */
static struct lanes_acc acc_lanes(const uint32_t *val, uint32_t mask,
                                  unsigned lo, unsigned hi)
{
    uint32_t range = (hi >= 32 ? ~0u : (1u << hi) - 1u) & ~((1u << lo) - 1u);
    if (hi - lo == 16 && (mask & range) == range)
        return acc16(val + lo);
    return acc_bits(val, mask & range);
}

/* The thermometer code of diff (enc_lanes): one bit per equal byte from
 * the most significant one down, 0000 / 1000 / 1100 / 1110 / 1111. */
static unsigned enc_of_diff(uint32_t diff)
{
    unsigned n = diff ? (unsigned)__builtin_clz(diff) / 8 : 4;
    return (0xf0u >> n) & 0xfu;
}

unsigned rvc_enc_lanes(const uint32_t *val, uint32_t mask, unsigned lo,
                       unsigned hi)
{
    struct lanes_acc r = acc_lanes(val, mask, lo, hi);
    return enc_of_diff(r.o & ~r.a);
}

/* rvc_compress, inlined into the step (every write-back of the SM comes
 * there; a call would return the struct through memory) */
static inline __attribute__((always_inline)) struct rvc_enc
compress(unsigned W, const uint32_t *val, uint32_t mask, bool half)
{
    struct rvc_enc e;
    uint32_t all = rvc_lane_mask(W);
    mask &= all;
    /* the halves' differing bits, and the whole register's from them: a
     * bit differs over all active lanes iff it is not the same in all of
     * them (an empty half adds o = 0, a = ~0) */
    struct lanes_acc l, h;
    if (W == 32 && mask == all) {       /* the common case, inlined */
        l = acc16(val);
        h = acc16(val + 16);
    } else {
        l = acc_lanes(val, mask, 0, W / 2);
        h = acc_lanes(val, mask, W / 2, W);
    }
    uint32_t dl = l.o & ~l.a, dh = h.o & ~h.a;
    uint32_t df = (l.o | h.o) & ~(l.a & h.a);
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

struct rvc_enc rvc_compress(unsigned W, const uint32_t *val, uint32_t mask,
                            bool half)
{
    return compress(W, val, mask, half);
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
        struct rvc_enc e = compress(W, in->data_i, in->mask_i[0], half);
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
        if (W == RVC_MAX_W)     /* a constant size: copied inline */
            memcpy(s->r.data_o, in->data_i, sizeof s->r.data_o);
        else
            memcpy(s->r.data_o, in->data_i, W * sizeof *in->data_i);
        s->st.writes++;
        if (e.d)
            s->st.divergent++;
        else
            s->st.enc_hist[rvc_enc_bytes(e.enc)]++;
        s->st.arrays_written += (uint64_t)__builtin_popcount(e.we);
    }
#define PORT_IN(name, bits, count)
#define PORT_OUT BLK_PORT_COPY_OUT      /* blk_port.h: why port by port */
#include "blocks/rvc_comp_ports.def"
#undef PORT_IN
#undef PORT_OUT
}

void rvc_comp_idle_edges(struct rvc_comp_state *s, uint64_t n)
{
    s->st.cycles += n;
    if (n)
        s->r.valid_o[0] = 0;
}
