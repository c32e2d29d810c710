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
    /* the deltas' range decides: all 0, all 1-byte, all 2-byte */
    int32_t lo = 0, hi = 0;
    for (unsigned l = 1; l < W; l++) {
        int32_t d = (int32_t)(val[l] - val[0]);
        lo = d < lo ? d : lo;
        hi = d > hi ? d : hi;
    }
    if (lo == 0 && hi == 0)
        return 4;
    if (fits(lo, 1) && fits(hi, 1))
        return 4 + W;
    if (fits(lo, 2) && fits(hi, 2))
        return 4 + 2 * W;
    return W * 4;
}

/* Element i of k bytes (little-endian) of the W lanes of val. */
static uint64_t elem(const uint32_t *val, unsigned k, unsigned i)
{
    if (k == 8)
        return (uint64_t)val[2 * i + 1] << 32 | val[2 * i];
    if (k == 4)
        return val[i];
    return val[i / 2] >> (16 * (i & 1)) & 0xffffu;     /* k == 2 */
}

/* x as a signed k-byte integer. */
static int64_t sext(uint64_t x, unsigned k)
{
    if (k == 8)
        return (int64_t)x;
    unsigned sh = 64 - 8 * k;
    return (int64_t)(x << sh) >> sh;
}

/* Whether every k-byte element is a d-byte delta from 0 or from the base
 * (the first element that is not a delta from 0); elements are read as
 * the test goes, so a misfit stops it early. */
static bool bdi_fits(unsigned W, const uint32_t *val, unsigned k, unsigned d)
{
    unsigned n = 4 * W / k;
    bool have = false;
    uint64_t base = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t e = elem(val, k, i);
        if (fits(sext(e, k), d))
            continue;                       /* immediate: delta from zero */
        if (!have) {
            have = true;
            base = e;
            continue;
        }
        if (!fits(sext(e - base, k), d))
            return false;
    }
    return true;
}

unsigned rvc_bdi_all_bytes(unsigned W, const uint32_t *val, uint32_t mask,
                           unsigned *enc)
{
    /* enum ls_bdi_enc order: zeros, rep8, b8d1, b8d2, b8d4, b4d1, b4d2,
     * b2d1, raw */
    static const unsigned kk[6] = { 8, 8, 8, 4, 4, 2 };
    static const unsigned dd[6] = { 1, 2, 4, 1, 2, 1 };
    unsigned raw = 4 * W, best = raw, be = 8;
    if ((mask & rvc_lane_mask(W)) == rvc_lane_mask(W)) {
        bool zero = true, rep = true;
        uint64_t e0 = elem(val, 8, 0);
        for (unsigned i = 0; i < W / 2; i++) {
            uint64_t e = elem(val, 8, i);
            zero = zero && e == 0;
            rep = rep && e == e0;
        }
        if (zero) {
            best = 1;
            be = 0;
        } else if (rep) {
            best = 8;
            be = 1;
        } else {
            for (unsigned j = 0; j < 6; j++) {
                unsigned sz = kk[j] + 4 * W / kk[j] * dd[j];
                if (sz < best && bdi_fits(W, val, kk[j], dd[j])) {
                    best = sz;
                    be = 2 + j;
                }
            }
        }
    }
    if (enc)
        *enc = be;
    return best;
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
