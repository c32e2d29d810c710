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
 * element above the low d bytes (the sum taken modulo 2^(8k)). Every call
 * passes h and m as constants, which the compiler folds into the inlined
 * scan. The scans stop at the first misfit. */
static inline bool fits8(const uint32_t *val, unsigned n, uint64_t h, uint64_t m)
{
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

/* k = 4, 8 elements at a time without a branch inside a group (the
 * compiler turns a group into vector operations): the base's group is the
 * first with an element that is no immediate; from it on, a group fails
 * when an element fits neither way, and the scan stops there. The
 * elements of the base's group before the base are immediates and pass. */
static inline bool fits4(const uint32_t *val, unsigned n, uint32_t h, uint32_t m)
{
    unsigned c = 0;
    for (; c + 8 <= n; c += 8) {
        uint32_t big = 0;
        for (unsigned j = 0; j < 8; j++)
            big |= (val[c + j] + h) & m;
        if (big)
            break;
    }
    unsigned i = c;
    while (i < n && !((val[i] + h) & m))
        i++;
    if (i == n)
        return true;
    uint32_t bh = h - val[i];               /* e - base + h = e + bh */
    for (; c + 8 <= n; c += 8) {
        uint32_t bad = 0;
        for (unsigned j = 0; j < 8; j++) {
            uint32_t e = val[c + j];
            bad |= (uint32_t)(((e + h) & m) != 0) & (uint32_t)(((e + bh) & m) != 0);
        }
        if (bad)
            return false;
    }
    for (; c < n; c++)
        if (((val[c] + h) & m) && ((val[c] + bh) & m))
            return false;
    return true;
}

/* k = 2, d = 1 */
static inline bool fits2(const uint32_t *val, unsigned n)
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

/* h and m of d bytes in a k-byte element (see fits8) */
#define BDI_H(d) (1ull << (8 * (d) - 1))
#define BDI_M(k, d) ((~0ull << (8 * (d))) & (~0ull >> (64 - 8 * (k))))

/* Whether encoding j (k/d of rvc_bdi_all_bytes: 8/1, 8/2, 8/4, 4/1, 4/2,
 * 2/1) fits the W lanes of val. */
static bool bdi_fits(unsigned W, const uint32_t *val, unsigned j)
{
    switch (j) {
    case 0: return fits8(val, W / 2, BDI_H(1), BDI_M(8, 1));
    case 1: return fits8(val, W / 2, BDI_H(2), BDI_M(8, 2));
    case 2: return fits8(val, W / 2, BDI_H(4), BDI_M(8, 4));
    case 3: return fits4(val, W, BDI_H(1), BDI_M(4, 1));
    case 4: return fits4(val, W, BDI_H(2), BDI_M(4, 2));
    default: return fits2(val, 2 * W);
    }
}

/* The first encoding (rvc_bdi_all_bytes' j) that fits 32 lanes, in order
 * of size (b8d1 24, b4d1 36, b8d2 40, b2d1 66, b4d2 68, b8d4 72 bytes), or
 * 6: one scan after another with their constants, no dispatch (every
 * write of the SM comes here). For one element size, d bytes fitting
 * implies any wider d' fitting: an element that is no d'-byte immediate
 * is no d-byte one, so it and the d'-base lie within 2^(8d-1) of the
 * d-base, within 2^(8d) < 2^(8d'-1) of each other. So the widest delta of
 * a size is scanned first, and where it does not fit neither do the
 * narrower ones: a register no encoding fits (most writes of dense
 * floating-point kernels) takes three scans, not six. */
static unsigned bdi_first_fit32(const uint32_t *val)
{
    bool f84 = fits8(val, 16, BDI_H(4), BDI_M(8, 4));
    if (f84 && fits8(val, 16, BDI_H(1), BDI_M(8, 1)))
        return 0;
    bool f42 = fits4(val, 32, BDI_H(2), BDI_M(4, 2));
    if (f42 && fits4(val, 32, BDI_H(1), BDI_M(4, 1)))
        return 3;
    if (f84 && fits8(val, 16, BDI_H(2), BDI_M(8, 2)))
        return 1;
    if (fits2(val, 64))
        return 5;
    if (f42)
        return 4;
    return f84 ? 2 : 6;
}

/* k and d of encoding j (enum ls_bdi_enc order from b8d1: b8d1, b8d2,
 * b8d4, b4d1, b4d2, b2d1) */
static const unsigned kk[6] = { 8, 8, 8, 4, 4, 2 };
static const unsigned dd[6] = { 1, 2, 4, 1, 2, 1 };

/* The same for any other W (tests and tools; the SM's registers are 32
 * lanes, hence cold: out of the hot path's code): the smallest size that
 * fits, the first encoding (in enum order) among equal sizes, the
 * encodings tried smallest first. */
__attribute__((cold)) static unsigned bdi_first_fit(unsigned W, const uint32_t *val)
{
    unsigned ord[6], szw[6];
    for (unsigned j = 0; j < 6; j++) {
        szw[j] = kk[j] + 4 * W / kk[j] * dd[j];
        ord[j] = j;
    }
    for (unsigned x = 1; x < 6; x++)        /* stable insertion sort */
        for (unsigned y = x; y > 0 && szw[ord[y]] < szw[ord[y - 1]]; y--) {
            unsigned t = ord[y];
            ord[y] = ord[y - 1];
            ord[y - 1] = t;
        }
    for (unsigned q = 0; q < 6; q++) {
        unsigned j = ord[q];
        if (szw[j] < 4 * W && bdi_fits(W, val, j))
            return j;
    }
    return 6;
}

unsigned rvc_bdi_all_bytes(unsigned W, const uint32_t *val, uint32_t mask,
                           unsigned *enc)
{
    /* enum ls_bdi_enc order: zeros, rep8, b8d1, b8d2, b8d4, b4d1, b4d2,
     * b2d1, raw */
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
            unsigned j = W == 32 ? bdi_first_fit32(val) : bdi_first_fit(W, val);
            if (j < 6) {
                best = kk[j] + 4 * W / kk[j] * dd[j];
                be = 2 + j;
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
