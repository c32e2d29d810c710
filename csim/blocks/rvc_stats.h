/* RVC compression-ratio statistics (C side only, not hardware): bytes a
 * vector register write needs under G-Scalar's byte-wise compression and
 * under base-delta-immediate (BDI) as used for registers by
 * Warped-Compression, accumulated over many writes (G-Scalar sec. 5.3
 * reports 2.17 vs 2.13). Definitions in docs/blocks/rvc.md. */
#ifndef RVC_STATS_H
#define RVC_STATS_H

#include <stdbool.h>
#include <stdint.h>

/* Accumulated sizes over a stream of register writes. */
struct rvc_ratio {
    uint64_t writes;             /* writes added                          */
    uint64_t raw_bytes;          /* W x 4 per write                       */
    uint64_t gs_bytes;           /* G-Scalar: stored array bytes + base   */
    uint64_t bdi_bytes;          /* BDI: base + W deltas, or raw          */
};

/* Bytes G-Scalar stores for one write of W lanes (D = 1: uncompressed;
 * half: each half compressed with its own base). */
unsigned rvc_gs_bytes(unsigned W, const uint32_t *val, uint32_t mask,
                      bool half);

/* Bytes BDI stores for one write: 4 if all lanes equal, else 4 + W x d for
 * the smallest d in {1, 2} with every val[l] - val[0] fitting d signed
 * bytes, else W x 4; divergent writes are stored raw. */
unsigned rvc_bdi_bytes(unsigned W, const uint32_t *val, uint32_t mask);

/* Bytes the best encoding of the BDI paper (Pekhimenko et al., PACT 2012,
 * Table 2) needs for the 4W bytes of one write, taken as little-endian
 * elements of k = 8, 4 or 2 bytes: 1 if all zero, 8 if every 8-byte
 * element is equal, else k + (4W / k) x d for the smallest such size where
 * every element is a d-byte signed delta from zero (immediate) or from the
 * base, the first element that is not (k/d: 8/1, 8/2, 8/4, 4/1, 4/2, 2/1),
 * else 4W (raw; divergent writes are raw, as for G-Scalar). *enc (may be
 * NULL) receives the encoding as enum ls_bdi_enc (include/lockstep.h). */
unsigned rvc_bdi_all_bytes(unsigned W, const uint32_t *val, uint32_t mask,
                           unsigned *enc);

/* rvc_bdi_bytes (*bdi) and rvc_bdi_all_bytes (*bdi_all, *enc) of one
 * write. scalar: the caller knows every one of the W lanes is active and
 * holds the same value (a non-divergent write the compressor encoded
 * 1111), which decides both without a scan; false: both are computed. */
void rvc_bdi_sizes(unsigned W, const uint32_t *val, uint32_t mask,
                   bool scalar, unsigned *bdi, unsigned *bdi_all,
                   unsigned *enc);

/* Adds one write to r. */
void rvc_ratio_add(struct rvc_ratio *r, unsigned W, const uint32_t *val,
                   uint32_t mask, bool half);

/* raw / compressed for G-Scalar (1.0 when r is empty). */
double rvc_ratio_gs(const struct rvc_ratio *r);

/* raw / compressed for BDI (1.0 when r is empty). */
double rvc_ratio_bdi(const struct rvc_ratio *r);

#endif
