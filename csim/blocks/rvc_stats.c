/* RVC compression-ratio statistics; see rvc_stats.h. */
#include "blocks/rvc_stats.h"

#include "blocks/rvc_comp.h"

#include <string.h>

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

/* The deltas val[l] - val[0] of n lanes: *any their OR; *o1, *o2 nonzero
 * iff some delta does not fit 1 or 2 signed bytes (d fits b bytes iff
 * d + 2^(8b-1) < 2^(8b) as an unsigned 32-bit sum). */
static inline void delta_scan(const uint32_t *val, unsigned n, uint32_t *any,
                              uint32_t *o1, uint32_t *o2)
{
    uint32_t a = 0, b = 0, c = 0, v0 = val[0];
    for (unsigned l = 0; l < n; l++) {
        uint32_t d = val[l] - v0;
        a |= d;
        b |= (d + 0x80u) & ~0xffu;
        c |= (d + 0x8000u) & ~0xffffu;
    }
    *any = a;
    *o1 = b;
    *o2 = c;
}

unsigned rvc_bdi_bytes(unsigned W, const uint32_t *val, uint32_t mask)
{
    uint32_t all = W >= 32 ? ~0u : (1u << W) - 1u;
    if ((mask & all) != all)
        return W * 4;
    /* all deltas 0, all 1-byte, all 2-byte (W = 32: a fixed-length loop) */
    uint32_t any, o1, o2;
    if (W == 32)
        delta_scan(val, 32, &any, &o1, &o2);
    else
        delta_scan(val, W, &any, &o1, &o2);
    if (!any)
        return 4;
    if (!o1)
        return 4 + W;
    if (!o2)
        return 4 + 2 * W;
    return W * 4;
}

/* Whether every element is a d-byte signed delta from 0 (an immediate) or
 * from the base, the first element that is not an immediate. Elements are
 * little-endian k-byte integers of the 4W bytes: n of them; e fits d bytes
 * iff (e + h) & m is 0, with h = 2^(8d-1) and m the bits of a k-byte
 * element above the low d bytes (the sum taken modulo 2^(8k)). The scans
 * stop at the first misfit. */
static bool fits8(const uint32_t *val, unsigned n, unsigned d)
{
    uint64_t h = 1ull << (8 * d - 1), m = ~((h << 1) - 1);
    unsigned i = 0;
    uint64_t base = 0;
    for (; i < n; i++) {
        uint64_t e = (uint64_t)val[2 * i + 1] << 32 | val[2 * i];
        if ((e + h) & m) {
            base = e;
            break;
        }
    }
    uint64_t bh = h - base;                 /* e - base + h = e + bh */
    for (i++; i < n; i++) {
        uint64_t e = (uint64_t)val[2 * i + 1] << 32 | val[2 * i];
        if (((e + h) & m) && ((e + bh) & m))
            return false;
    }
    return true;
}

static bool fits4(const uint32_t *val, unsigned n, unsigned d)
{
    uint32_t h = 1u << (8 * d - 1), m = ~((h << 1) - 1);
    unsigned i = 0;
    uint32_t base = 0;
    for (; i < n; i++)
        if ((val[i] + h) & m) {
            base = val[i];
            break;
        }
    uint32_t bh = h - base;                 /* e - base + h = e + bh */
    for (i++; i < n; i++)
        if (((val[i] + h) & m) && ((val[i] + bh) & m))
            return false;
    return true;
}

/* k = 2, d = 1 */
static bool fits2(const uint32_t *val, unsigned n)
{
    unsigned i = 0;
    uint32_t base = 0;
    for (; i < n; i++) {
        uint32_t e = val[i / 2] >> (16 * (i & 1)) & 0xffffu;
        if ((e + 0x80u) & 0xff00u) {
            base = e;
            break;
        }
    }
    for (i++; i < n; i++) {
        uint32_t e = val[i / 2] >> (16 * (i & 1)) & 0xffffu;
        if (((e + 0x80u) & 0xff00u) && ((e - base + 0x80u) & 0xff00u))
            return false;
    }
    return true;
}

/* Whether encoding j (k/d of rvc_bdi_all_bytes: 8/1, 8/2, 8/4, 4/1, 4/2,
 * 2/1) fits the W lanes of val. */
static bool bdi_fits(unsigned W, const uint32_t *val, unsigned j)
{
    switch (j) {
    case 0: return fits8(val, W / 2, 1);
    case 1: return fits8(val, W / 2, 2);
    case 2: return fits8(val, W / 2, 4);
    case 3: return fits4(val, W, 1);
    case 4: return fits4(val, W, 2);
    default: return fits2(val, 2 * W);
    }
}

unsigned rvc_bdi_all_bytes(unsigned W, const uint32_t *val, uint32_t mask,
                           unsigned *enc)
{
    /* enum ls_bdi_enc order: zeros, rep8, b8d1, b8d2, b8d4, b4d1, b4d2,
     * b2d1, raw */
    static const unsigned kk[6] = { 8, 8, 8, 4, 4, 2 };
    static const unsigned dd[6] = { 1, 2, 4, 1, 2, 1 };
    /* the encodings by size for W = 32 (24, 36, 40, 66, 68, 72 bytes) */
    static const unsigned by_size32[6] = { 0, 3, 1, 5, 4, 2 };
    unsigned raw = 4 * W, best = raw, be = 8;
    uint32_t all = W >= 32 ? ~0u : (1u << W) - 1u;
    if ((mask & all) == all) {
        /* every 8-byte element equal to the first (stops at the first
         * that is not); all zero: that, and the first is 0 */
        uint64_t e0;
        memcpy(&e0, val, sizeof e0);
        bool rep = true;
        for (unsigned i = 1; i < W / 2 && rep; i++) {
            uint64_t e;
            memcpy(&e, val + 2 * i, sizeof e);
            rep = e == e0;
        }
        bool z = rep && e0 == 0;
        if (z) {
            best = 1;
            be = 0;
        } else if (rep) {
            best = 8;
            be = 1;
        } else {
            /* the smallest size that fits, the first encoding (in enum
             * order) among equal sizes: the encodings tried smallest
             * first, stopping at the first that fits */
            static const unsigned sz32[6] = { 24, 40, 72, 36, 68, 66 };
            unsigned ord[6], szw[6];
            const unsigned *o = by_size32, *sz = sz32;
            if (W != 32) {
                for (unsigned j = 0; j < 6; j++) {
                    szw[j] = kk[j] + 4 * W / kk[j] * dd[j];
                    ord[j] = j;
                }
                for (unsigned x = 1; x < 6; x++)    /* stable insertion sort */
                    for (unsigned y = x; y > 0 && szw[ord[y]] < szw[ord[y - 1]]; y--) {
                        unsigned t = ord[y];
                        ord[y] = ord[y - 1];
                        ord[y - 1] = t;
                    }
                o = ord;
                sz = szw;
            }
            for (unsigned q = 0; q < 6; q++) {
                unsigned j = o[q];
                if (sz[j] < raw && bdi_fits(W, val, j)) {
                    best = sz[j];
                    be = 2 + j;
                    break;
                }
            }
        }
    }
    if (enc)
        *enc = be;
    return best;
}

void rvc_bdi_sizes(unsigned W, const uint32_t *val, uint32_t mask,
                   bool scalar, unsigned *bdi, unsigned *bdi_all,
                   unsigned *enc)
{
    if (!scalar) {
        *bdi = rvc_bdi_bytes(W, val, mask);
        *bdi_all = rvc_bdi_all_bytes(W, val, mask, enc);
        return;
    }
    /* every lane equal: every delta from lane 0 is 0 (one 4-byte base);
     * every 8-byte element is equal, all zero when lane 0 is */
    *bdi = 4;
    *bdi_all = val[0] ? 8 : 1;
    *enc = val[0] ? 1 : 0;                  /* rep8, zeros */
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
