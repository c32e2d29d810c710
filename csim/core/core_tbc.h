/* Thread-block compaction in the SM (simt.compaction = tbc | tbc_plus |
 * ideal; docs/compaction.md). One CTA-wide reconvergence stack per CTA
 * (csim/simt/simt_cta.h); compacted warps live in the CTA's home warp
 * slots; every instruction of a compacted warp executes on the home warps'
 * simt_warp state, each under its own lanes (simt_exec_at), so registers,
 * special registers, local memory and the checks stay exact; the timing
 * layer gets one merged retire record. The WCU forms compacted warps (one
 * per cycle) from the CTA-wide mask, by physical lane (the SLP map).
 * The SM reaches it through its mechanism hooks (core_mech.h). */
#ifndef CORE_TBC_H
#define CORE_TBC_H

#include <stdbool.h>
#include <stdint.h>
#include "simt/simt_cta.h"
#include "lockstep.h"
#include "core/core_cblk.h"

enum core_tbc_scheme { CORE_TBC_NONE = 0, CORE_TBC_TBC = 1, CORE_TBC_PLUS = 2,
                       CORE_TBC_CAPRI = 3, CORE_TBC_IDEAL = 4 };

/* The compacted warp held by a slot: position p (physical lane, or the
 * p-th thread under ideal) runs thread lane[p] of home warp wid[p]. */
struct core_tbc_warp {
    uint8_t on;                 /* the slot holds a compacted warp         */
    uint8_t at_bar;             /* waiting at a CTA barrier                */
    uint8_t bar_id;
    int32_t pc;
    uint64_t ready;             /* cycle the WCU handed it to the slot     */
    uint32_t pos;               /* positions in use                        */
    uint8_t wid[32], lane[32];
    /* capri: a bypassed warp runs ahead of its path's entry (at most one
     * basic block: it waits before its next control instruction, at
     * ahead_rpc or past the end until that entry is formed) */
    uint8_t ahead;
    uint8_t waiting;
    int32_t ahead_rpc;          /* reconvergence pc of the branch bypassed */
    /* cache of the home warps of (pos, wid, lane) in CTA slot hcta (the
     * scoreboard check asks it per cycle, each issue walks them); place()
     * invalidates it */
    uint8_t hvalid;
    int32_t hcta;
    uint32_t hpos;
    uint64_t hslots;            /* their warp slots, a bit per slot        */
    uint32_t hs;                /* their warp ids in the CTA, a bit per id */
    uint32_t hl[32], hp[32];    /* [wi in hs]: its lanes, its positions    */
};

/* capri: threads that bypassed compaction at a branch and keep their warp
 * (UMask 0 for their home warps when their path's entry is formed). */
struct core_tbc_byp {
    int16_t slot;               /* the warp running ahead, -1: placed when
                                   the path's entry is formed            */
    int16_t level;              /* stack index of the branching entry     */
    int16_t ent;                /* stack index of the path entry, -1 until
                                   the branch is decided                  */
    int32_t pc;                 /* first pc of the path                   */
    uint32_t rows;              /* home warps (every thread of each)      */
    uint32_t pos;               /* slot < 0: the warp to place            */
    uint8_t wid[32], lane[32];
};

#define CORE_TBC_MAX_BYP 64

/* Per CTA slot. */
struct core_tbc_cta {
    struct simt_cta st;
    uint8_t home[SIMT_CTA_MAX_W];       /* slot of home warp w             */
    uint8_t l2p[SIMT_CTA_MAX_W][32];    /* logical -> physical lane (SLP)  */
    uint32_t formed;                    /* warps formed for the top entry  */
    uint32_t acct_wait;                 /* formed - top wcnt when accounted */
    struct core_tbc_byp byp[CORE_TBC_MAX_BYP];  /* capri bypasses         */
    unsigned nbyp;
    uint32_t pred_stall, pred_bypass;   /* capri predictions at the top
                                           entry's branch, judged when it
                                           is formed                       */
    uint32_t capt_idx;                  /* CAPT entry its last lookup gave */
};

/* Statistics of one SM over a kernel (summed into ls_stats.compaction). */
struct core_tbc_stats {
    uint64_t issued, issued_active, thread_insts; /* compacted warps issued */
    uint64_t points, divergent, warps_formed;
    uint64_t nw_nocomp, nw_tbc, nw_ideal;         /* sums over points      */
    uint64_t stall_slot_cycles; /* slot-cycles of CTA warps waiting at a
                                   compaction point (slot empty, CTA live) */
    /* capri (docs/compaction.md) */
    uint64_t lookups, hits, pred_stall, pred_bypass;
    uint64_t nodiv_bypass;      /* non-divergent warps bypassing, no lookup */
    uint64_t bypass_denied;     /* bypass predicted, but the warp shares a
                                   home warp with another warp: it stalls  */
    uint64_t bypassed;          /* warps that bypassed (both kinds)         */
    uint64_t q[4];              /* Fig 4.21: prediction/outcome B/B, S/S,
                                   B/S, S/B                                */
    /* per branch class (ptx_taint: 0 P, 1 D): compaction points after the
     * class's branches and their NW_noTBC / NW_TBC sums (Fig 4.26) */
    uint64_t cls_points[2], cls_nocomp[2], cls_tbc[2];
};

struct core_dinst;
struct core_view;
struct core_mech_ops;

struct core_tbc {
    unsigned scheme;            /* enum core_tbc_scheme (config)           */
    bool active;                /* this kernel is compacted                */
    char reason[160];           /* why not ("" when active or none)        */
    struct core_tbc_warp w[64];
    uint64_t last_homes[64];    /* home slots of each slot's last issue    */
    struct core_tbc_cta *cta;   /* ncta entries                            */
    unsigned ncta;
    struct core_cblk blk;       /* WCU and CAPT through the block seam     */
    uint8_t *cls;               /* branch class per pc (ptx_taint), or NULL */
    uint64_t last_acct;         /* stall accounting: cycles counted up to  */
    uint64_t acct_pend;         /* slots whose ready may be > last_acct:
                                   the only ones the accounting visits    */
    /* warps formed for CTA tops but not running them, per CTA slot
     * (cta[].acct_wait) and summed; only the CTAs a launch or an issue
     * touched since the last accounting (acct_dirty; all of them when
     * ncta > 64) are looked at again */
    uint64_t acct_dirty;
    uint64_t acct_sum;
    struct core_tbc_stats st;
    struct core_view *v;        /* its SM                                  */
};

/* The compaction mechanism of the SM (core_mech.h; its hooks and engine
 * functions are in core_tbc.c). */
extern const struct core_mech_ops core_tbc_mech;

#endif
