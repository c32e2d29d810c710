/* Non-hardware comparison points for the BGP (dissertation 5.3: CG-only,
 * FG-only, SPP, BGP_inf), driven by the same miss/eviction stream as the
 * BGP C model. C side only; see docs/blocks/bgp.md. */
#ifndef BGP_REF_H
#define BGP_REF_H

#include <stdint.h>

#include "blocks/bgp.h"

enum bgp_ref_kind {
    BGP_REF_CG_ONLY,             /* always coarse-grained                 */
    BGP_REF_FG_ONLY,             /* always fine-grained                   */
    BGP_REF_INF,                 /* exact unbounded set, same policy      */
    BGP_REF_SPP                  /* spatial-pattern table of used counts  */
};

#define BGP_REF_SPP_ENTRIES 1024u /* tagless PHT entries (SPP)            */

struct bgp_ref {
    enum bgp_ref_kind kind;
    struct bgp_cfg cfg;          /* TH_FG, NUM_EVICT, SKEW_PCT are used   */
    unsigned dflt;               /* BGP_INF: default prediction (1 FG)    */
    unsigned win_ev, win_ins;    /* BGP_INF: skew window                  */
    uint32_t *set;               /* BGP_INF: open-addressing set (+1)     */
    uint64_t set_cap, set_len;
    uint8_t pht[BGP_REF_SPP_ENTRIES]; /* SPP: 0 invalid, else used + 1    */
    uint64_t queries, pred_fg;
};

/* Sets up predictor kind with cfg's thresholds; 0, or -1 on a bad cfg or
 * out of memory. */
int bgp_ref_init(struct bgp_ref *r, enum bgp_ref_kind kind,
                 const struct bgp_cfg *cfg);

/* Prediction for a miss to block addr: 1 FG, 0 CG. */
unsigned bgp_ref_query(struct bgp_ref *r, uint32_t addr);

/* Eviction of block addr that used `used` sectors; 0, or -1 when the
 * exact set cannot grow (out of memory). */
int bgp_ref_evict(struct bgp_ref *r, uint32_t addr, unsigned used);

/* Releases the exact set. */
void bgp_ref_free(struct bgp_ref *r);

#endif
