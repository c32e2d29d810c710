/* RVC compression-ratio statistics; see rvc_stats.h. */
#include "blocks/rvc_stats.h"

#include "blocks/rvc_comp.h"

unsigned rvc_gs_bytes(unsigned W, const uint32_t *val, uint32_t mask,
                      bool half)
{
    struct rvc_enc e = rvc_compress(W, val, mask, half);
    if (e.d)
        return W * 4;
    if (!half) {
        unsigned n = rvc_enc_bytes(e.enc);
        return W * (4 - n) + n;
    }
    unsigned nl = rvc_enc_bytes(e.encl), nh = rvc_enc_bytes(e.ench);
    return (W / 2) * (4 - nl) + nl + (W / 2) * (4 - nh) + nh;
}

static bool fits(int64_t d, unsigned bytes)
{
    int64_t lim = (int64_t)1 << (8 * bytes - 1);
    return d >= -lim && d < lim;
}

unsigned rvc_bdi_bytes(unsigned W, const uint32_t *val, uint32_t mask)
{
    if ((mask & rvc_lane_mask(W)) != rvc_lane_mask(W))
        return W * 4;
    bool same = true, d1 = true, d2 = true;
    for (unsigned l = 1; l < W; l++) {
        int64_t d = (int64_t)(int32_t)(val[l] - val[0]);
        same = same && d == 0;
        d1 = d1 && fits(d, 1);
        d2 = d2 && fits(d, 2);
    }
    if (same)
        return 4;
    if (d1)
        return 4 + W;
    if (d2)
        return 4 + 2 * W;
    return W * 4;
}

void rvc_ratio_add(struct rvc_ratio *r, unsigned W, const uint32_t *val,
                   uint32_t mask, bool half)
{
    r->writes++;
    r->raw_bytes += W * 4u;
    r->gs_bytes += rvc_gs_bytes(W, val, mask, half);
    r->bdi_bytes += rvc_bdi_bytes(W, val, mask);
}

double rvc_ratio_gs(const struct rvc_ratio *r)
{
    return r->gs_bytes ? (double)r->raw_bytes / (double)r->gs_bytes : 1.0;
}

double rvc_ratio_bdi(const struct rvc_ratio *r)
{
    return r->bdi_bytes ? (double)r->raw_bytes / (double)r->bdi_bytes : 1.0;
}
