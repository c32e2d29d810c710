/* The SM's compaction blocks through the block seam (csim/cosim): the warp
 * compaction unit (WCU, docs/blocks/wcu.md) under simt.compaction = tbc,
 * tbc_plus or capri, and the compaction-adequacy prediction table (CAPT,
 * docs/blocks/capt.md) under capri. One instance of each per SM
 * (sm<i>.wcu, sm<i>.capt); docs/compaction.md.
 *
 * Clocking (exact, as core_slp/core_rvc): instance edge e is GPU cycle
 * t0 + e; the gaps between transactions are idle edges under the seam's
 * clocking rule. A WCU load is applied at the first edge at or after the
 * request's cycle (after the previous mask's last warp: the producer waits
 * for ready_o), and the compacted warps are read off the following edges,
 * one per edge, so the block may run ahead of the GPU cycle by the warps
 * of one mask. A CAPT lookup is applied at the first free edge at or after
 * its cycle and answered from that edge's outputs; the adequacy update of
 * a WCU load is queued for the edge after the load (when adequate_o is
 * valid) and applied when the block reaches that edge (with a lookup on
 * the same edge, both ports see the table before it). */
#ifndef CORE_CBLK_H
#define CORE_CBLK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lockstep.h"

struct cosim_where;

struct cosim_inst;
struct cosim_env;
struct wcu_cfg;
struct capt_cfg;

/* A queued CAPT update. */
struct core_cblk_upd {
    uint64_t at;                /* GPU cycle of its edge (earliest)        */
    uint32_t pc;
    uint32_t idx;               /* entry its branch's lookup returned      */
    uint8_t adequate;
};

struct core_cblk {
    struct cosim_inst *wcu;     /* NULL: no WCU traffic (none, ideal)      */
    struct cosim_inst *capt;    /* NULL unless capri                       */
    uint64_t t0;                /* GPU cycle of both instances' edge 0     */
    const char *kernel;
    struct core_cblk_upd *uq;   /* CAPT update FIFO                        */
    uint32_t uhead, un, ucap;
    char *why;                  /* failure report (malloc'd) or NULL       */
};

/* What one WCU load gave. */
struct core_cblk_form {
    uint64_t load_at;           /* GPU cycle of the load edge              */
    unsigned nw_min, nw_nocomp; /* evaluator (eval_valid_o after the load) */
    bool adequate;
    unsigned k;                 /* compacted warps                         */
    uint64_t at[32];            /* GPU cycle of warp j's edge              */
    uint32_t lanes[32];         /* out_lanes_o of warp j                   */
    uint8_t wid[32][32];        /* out_wid_o[l] of warp j                  */
};

/* The WCU parameters of the GPU (W 32, NW 32 = warps per CTA compacted). */
void core_cblk_wcu_cfg(struct wcu_cfg *c);
/* The CAPT parameters for capri.entries / .history / .lru (TAG_W 32; lru
 * 0 auto: tree PLRU when entries is a power of two, else true LRU; 1 tree
 * PLRU; 2 true LRU). */
void core_cblk_capt_cfg(unsigned entries, unsigned hist, unsigned lru,
                        struct capt_cfg *c);
/* Creates SM id's instances: the WCU when wcu, the CAPT when capt.
 * Returns 0 or -1 with err. */
int core_cblk_init(struct core_cblk *u, struct cosim_env *env, unsigned id,
                   bool wcu, bool capt, unsigned entries, unsigned hist,
                   unsigned lru, char *err, size_t n);
/* Frees the unit. */
void core_cblk_free(struct core_cblk *u);
/* Resets both instances for a kernel starting at GPU cycle now. */
void core_cblk_kernel(struct core_cblk *u, const char *kernel, uint64_t now);
/* Loads CTA-wide mask (mask[w] bit l: warp w, physical lane l) with UMask
 * umask at the first WCU edge at or after cycle now and steps the edges
 * of its compacted warps into *f. where names the compaction point for a
 * report (formatted only when one is written). Returns 0, or LS_ERR_COSIM
 * with u->why. */
int core_cblk_wcu_load(struct core_cblk *u, uint64_t now, const uint32_t *mask,
                       uint32_t umask, const struct cosim_where *where,
                       struct core_cblk_form *f);
/* Looks branch pc up in the CAPT at the first edge at or after now;
 * *hit / *stall / *idx are pred_hit_o / pred_stall_o / pred_idx_o; where
 * names the branch for a report (formatted only then). Returns 0, or
 * LS_ERR_COSIM with u->why. */
int core_cblk_lookup(struct core_cblk *u, uint64_t now, uint32_t pc,
                     const struct cosim_where *where, bool *hit, bool *stall,
                     uint32_t *idx);
/* Queues the CAPT update of branch pc in entry idx (the one its lookup
 * returned) for the edge of cycle at (or the first free one after it).
 * Returns 0 or LS_ERR_NOMEM with u->why. */
int core_cblk_update(struct core_cblk *u, uint64_t at, uint32_t pc, uint32_t idx,
                     bool adequate);
/* Kernel end at GPU cycle end: both instances are clocked through the edge
 * of cycle end - 1; queued updates drain on extra edges. Returns 0 or
 * LS_ERR_COSIM with u->why. */
int core_cblk_finish(struct core_cblk *u, uint64_t end);
/* Adds both instances' figures into s (ls_stats.cosim). */
void core_cblk_stats(const struct core_cblk *u, ls_stats *s);

#endif
