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
#include "core/core.h"
#include "cfg/cfg.h"

/* simt.compaction's choices (csim/cfg/cfg_keys.def) */
enum core_tbc_scheme {
    CORE_TBC_NONE = CFG_SIMT_COMPACTION_NONE, CORE_TBC_TBC = CFG_SIMT_COMPACTION_TBC,
    CORE_TBC_PLUS = CFG_SIMT_COMPACTION_TBC_PLUS, CORE_TBC_CAPRI = CFG_SIMT_COMPACTION_CAPRI,
    CORE_TBC_IDEAL = CFG_SIMT_COMPACTION_IDEAL
};

/* The compacted warp held by a slot: position p (physical lane, or the
 * p-th thread under ideal) runs thread lane[p] of home warp wid[p]. */
struct core_tbc_warp {
    uint8_t on;                 /* the slot holds a compacted warp         */
    uint8_t at_bar;             /* waiting at a CTA barrier                */
    uint8_t bar_id;
    int32_t pc;
    uint64_t ready;             /* cycle the WCU handed it to the slot     */
    uint64_t fetched;           /* its first fetch block's arrival (place) */
    uint32_t pos;               /* positions in use                        */
    uint8_t wid[32], lane[32];
    /* capri: a bypassed warp runs ahead of its path's entry (at most one
     * basic block: it waits before its next control instruction, at
     * ahead_rpc or past the end until that entry is formed) */
    uint8_t ahead;
    uint8_t waiting;
    int32_t ahead_rpc;          /* reconvergence pc of the branch bypassed */
    uint64_t wait_since;        /* cycle it stopped to wait               */
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
    uint32_t rows;              /* home warps it draws threads from       */
    uint32_t pos;               /* slot < 0: the warp to place            */
    uint32_t spare;             /* positions of pos whose home warp had
                                   threads outside the warp (a spare WCU
                                   row each, at most, when formed)        */
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
    uint32_t pred_nodiv;                /* capri: warps at the top entry's
                                           branch that did not diverge and
                                           bypassed without a lookup        */
    uint32_t pred_stall, pred_bypass;   /* capri predictions at the top
                                           entry's branch, judged when it
                                           is formed                       */
    uint32_t capt_idx;                  /* CAPT entry its last lookup gave */
    uint32_t nthr;                      /* threads of the CTA              */
};

/* Statistics of one SM over a kernel (summed into ls_stats.compaction). */
struct core_tbc_stats {
    uint64_t issued, issued_active, thread_insts; /* compacted warps issued */
    uint64_t points, divergent, warps_formed;
    uint64_t warp_uniform;      /* divergent points that split no warp       */
    uint64_t loop_exit;         /* ... with two non-empty paths whose RPC
                                   lies past their loop's end               */
    uint64_t nw_nocomp, nw_tbc, nw_ideal;         /* sums over points      */
    uint64_t stall_slot_cycles; /* slot-cycles of CTA warps waiting at a
                                   compaction point (slot empty, CTA live) */
    /* capri (docs/compaction.md) */
    uint64_t lookups, hits, pred_stall, pred_bypass;
    uint64_t nodiv_bypass;      /* non-divergent warps bypassing, no lookup */
    uint64_t bypass_denied;     /* bypass predicted, but the warp cannot
                                   (capri.umask = row and it shares a home
                                   warp with another warp; the WCU's spare
                                   rows could run out; or its parts are at
                                   the entry's RPC): it stalls            */
    uint64_t nodiv_denied;      /* non-divergent warps that could not
                                   bypass (the same reasons): they stall  */
    uint64_t split_rows;        /* spare WCU rows loaded: the bypassed
                                   threads of home warps split between
                                   bypassed and compacted threads         */
    uint64_t bypassed;          /* warps that bypassed (both kinds)         */
    uint64_t q[4];              /* Fig 4.21: prediction/outcome B/B, S/S,
                                   B/S, S/B                                */
    uint64_t qn[2];             /* non-divergent warps' bypasses: B/B, B/S */
    /* per branch class (ptx_taint: 0 P, 1 D): compaction points after the
     * class's branches and their NW_noTBC / NW_TBC sums (Fig 4.26) */
    uint64_t cls_points[2], cls_nocomp[2], cls_tbc[2];
    /* the CTA-wide paths of divergent branches per class, those TBC (NW_TBC
     * < NW_noTBC) and ideal compaction (NW_ideal < NW_noTBC) can compact
     * (Fig 4.15, 4.26), and the same by quarter of the CTA's threads on
     * the path (Fig 4.27, 4.28) */
    uint64_t paths[2], paths_tbc[2], paths_ideal[2];
    uint64_t paths_one[2];      /* ... in one warp (NW_noTBC 1)            */
    uint64_t paths_dense[2];    /* ... over more warps that they fill
                                   (ceil(threads / 32) = NW_noTBC)        */
    uint64_t frac_tbc[2][4], frac_ideal[2][4];
    uint64_t wcu_wait;          /* cycles WCU loads waited for the previous
                                   mask's warps                           */
    uint64_t ahead_waits, ahead_wait_cycles; /* capri: warps ahead of their
                                   entry that stopped to wait, and the
                                   cycles until it was formed             */
};

struct core_dinst;
struct core_view;
struct core_mech_ops;

/* The threads of one instruction by home warp: home warp ids (a bit
 * each) and each one's lanes. */
struct core_tbc_rows {
    uint32_t hs;
    uint32_t hl[32];
};

struct core_tbc {
    unsigned scheme;            /* enum core_tbc_scheme (config)           */
    bool active;                /* this kernel is compacted                */
    char reason[160];           /* why not ("" when active or none)        */
    struct core_tbc_warp w[64];
    struct core_tbc_rows last[64];  /* threads of each slot's last issue  */
    struct {                    /* ... by position, when it was a local-   */
        uint8_t wid[32], lane[32];  /* memory access (home_of)            */
    } lpos[64];
    struct core_tbc_rows (*pmap)[CORE_MAX_PEND]; /* [slot][pend]: the
                                   threads each outstanding load writes  */
    uint64_t *lrdy;             /* scoreboard: [slot][reg][lane] write-back
                                   cycle (reg_ready of the slot: the latest
                                   of its lanes; docs/compaction.md)       */
    uint32_t lnregs;            /* registers per slot in lrdy               */
    bool ahead_bra;             /* capri: a warp running ahead follows an
                                   unguarded bra (capri.ahead = block);
                                   off: it waits before it (ablation)     */
    bool umask_thread;          /* capri: any warp can bypass, its threads
                                   left out of the WCU's compaction
                                   (capri.umask = thread); off: only a
                                   warp holding whole home-warp rows
                                   (ablation)                             */
    bool skip_ahead;            /* capri: a warp that does not diverge and
                                   whose path starts at the branch's RPC
                                   runs ahead there (capri.skip = ahead);
                                   off: it waits for the CTA (ablation)   */
    uint64_t placed;            /* slots given a compacted warp during the
                                   issue being made                       */
    bool home_sb;               /* ablation (tbc.scoreboard = home): one
                                   entry per home warp and register       */
    struct core_tbc_cta *cta;   /* ncta entries                            */
    unsigned ncta;
    struct core_cblk blk;       /* WCU and CAPT through the block seam     */
    uint8_t *cls;               /* branch class per pc (ptx_taint), or NULL */
    int32_t *lend;              /* per pc: the back edge ending the innermost
                                   loop around it (INT32_MAX: none), or NULL */
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

/* The compaction mechanism of the SM (core_mech.h; its hooks are in
 * core_tbc_mech.c, the engine they call in core_tbc.c). */
extern const struct core_mech_ops core_tbc_mech;

/* For each set bit v of mask, lowest first (a distinct counter per v, so
 * loops nest without shadowing). */
#define TBC_EACH(mask, v)                                                  \
    for (uint32_t v##_m = (mask), v = 0;                                   \
         v##_m && ((v = (uint32_t)__builtin_ctz(v##_m)), v##_m &= v##_m - 1, 1);)

struct ptx_func;

/* The engine (core_tbc.c), called by the hooks of core_tbc_mech.c. */
/* Sets the scheme of an SM with ncta CTA slots (stacks of max_depth):
 * 0 or -1 (host memory). */
int core_tbc_init(struct core_tbc *t, unsigned scheme, unsigned ncta, uint32_t max_depth);
/* Frees what core_tbc_init and the kernels allocated. */
void core_tbc_free(struct core_tbc *t);
/* Kernel f (nwarps per CTA) starts at now: whether it is compacted
 * (t->active) or why not (t->reason); statistics reset. */
void core_tbc_kernel(struct core_tbc *t, const struct ptx_func *f, uint32_t nwarps,
                     bool gscalar, uint64_t now);
/* CTA slot ci became resident at now: its stack starts, its warps run. */
void core_tbc_launch(struct core_tbc *t, unsigned ci, uint64_t now);
/* Whether slot cannot issue at now for a reason of the engine; *when:
 * the cycle that may change it (CORE_INF: an event). */
bool core_tbc_blocked(const struct core_tbc *t, unsigned slot, uint64_t now,
                      uint64_t *when);
/* Decoded instruction at slot's compacted warp's pc. */
const struct core_dinst *core_tbc_peek(const struct core_tbc *t, unsigned slot);
/* Executes slot's compacted warp's instruction at now; finished slots into
 * *done. 0, or -1 with the failure in the view or t->blk. */
int core_tbc_step(struct core_tbc *t, unsigned slot, uint64_t now, uint64_t *done);
/* Releases CTA slot ci's barriers whose threads all arrived. */
void core_tbc_try_release(struct core_tbc *t, int32_t ci, uint64_t now);
/* Slot's compacted warp with its home-warp cache (hs, hl, hp, hslots) up
 * to date. */
const struct core_tbc_warp *core_tbc_cache(struct core_tbc *t, unsigned slot);
/* Home warps (bit per warp id) of a compacted warp. */
uint32_t core_tbc_homes_of(const struct core_tbc_warp *cw);
/* Lanes of home warp wi that a compacted warp runs. */
uint32_t core_tbc_home_mask(const struct core_tbc_warp *cw, uint32_t wi);

#endif
