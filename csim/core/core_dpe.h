/* Dual-path execution in the SM (simt.paths = dual; dissertation 3.2,
 * docs/dpe.md), and dynamic warp subdivision (simt.paths = dws, 3.1.2) on
 * the same plumbing: a warp has paths (two top-of-stack paths, or one per
 * warp-split), each checked, issued and stepped alike. Each warp slot keeps a dual-path stack (simt/simt_dpe.h)
 * beside its simt_warp: both top-of-stack paths are schedulable, every
 * instruction of a path executes on the warp's own registers under the
 * path's mask (simt_exec_at), so values are those of functional mode; the
 * dual-path scoreboard (left/right pending bits plus shadow bits, or the
 * optimistic one with no false dependency) decides when a path may issue.
 * core_sm.c calls the functions below from hooks marked "DPE". */
#ifndef CORE_DPE_H
#define CORE_DPE_H

#include <stdbool.h>
#include <stdint.h>
#include "lockstep.h"
#include "cfg/cfg.h"
#include "simt/simt.h"
#include "simt/simt_dpe.h"
#include "simt/simt_dws.h"

/* simt.paths; dws = dynamic warp subdivision (simt/simt_dws.h): the same
 * engine with one path per warp-split, the per-lane (optimistic)
 * scoreboard and every split a scheduler candidate (dissertation 3.3.1:
 * perfect DWS scoreboard and scheduler). */
/* simt.paths, dpe.scoreboard and dpe.scheduler's choices (csim/cfg/cfg_keys.def) */
enum core_dpe_paths { CORE_DPE_SINGLE = CFG_SIMT_PATHS_SINGLE, CORE_DPE_DUAL = CFG_SIMT_PATHS_DUAL,
                      CORE_DPE_DWS = CFG_SIMT_PATHS_DWS };
#define CORE_DPE_MAXP SIMT_DWS_MAX  /* paths of a warp: 2 (dual), 32 (dws) */
enum core_dpe_sbkind { CORE_DPE_SB_CONSERVATIVE = CFG_DPE_SCOREBOARD_CONSERVATIVE,
                      CORE_DPE_SB_OPTIMISTIC = CFG_DPE_SCOREBOARD_OPTIMISTIC };
enum core_dpe_sched { CORE_DPE_FULL = CFG_DPE_SCHEDULER_FULL,
                      CORE_DPE_CONSTRAINED = CFG_DPE_SCHEDULER_CONSTRAINED };

/* The dual-path scoreboard of one warp (3.2.2, Fig 3.4(b)). Conservative:
 * per side s and register r the cycle its pending write is written back,
 * pend[s][r] (> now: pending; CORE_INF: a load not yet answered), and the
 * shadow copy shadow[s][r]; a path on side s waits for pend[s][r] and
 * shadow[1-s][r]. A time stands for a bit: copying a time is copying the
 * bit, and the write-back clears both where the time says. Optimistic:
 * one time per register and lane (lane[r * 32 + l]): a path waits only for
 * writes to the threads it runs (no false dependency). */
/* One register of the conservative scoreboard: the cycle its pending
 * write lands, per path side, the shadow copies, and what a check reads:
 * per side, the later of its pending and the other side's shadow time
 * (one record, so a check and an update touch one cache line). */
struct core_dpe_sbreg {
    uint64_t rdy[2], pend[2], shadow[2];
};

struct core_dpe_sb {
    unsigned nregs;
    bool optimistic;
    struct core_dpe_sbreg *r;   /* conservative: nregs records            */
    uint64_t *dirty;            /* conservative: per side (nwords words
                                   each), the registers whose pending time
                                   may exceed the shadow's (a superset:
                                   the shadow copy visits only these) */
    unsigned nwords;
    uint64_t *lane;             /* optimistic: nregs x 32 lane times       */
};

/* Allocates a scoreboard for nregs registers. Returns 0 or -1. */
int core_dpe_sb_alloc(struct core_dpe_sb *sb, unsigned nregs, bool optimistic);
/* Frees it. */
void core_dpe_sb_free(struct core_dpe_sb *sb);
/* Every register ready (a warp starts). */
void core_dpe_sb_reset(struct core_dpe_sb *sb);
/* The cycle at which the n registers regs are free of pending writes for
 * a path on side `side` running threads `mask` (0: ready now). */
uint64_t core_dpe_sb_ready(const struct core_dpe_sb *sb, unsigned side,
                           uint32_t mask, const int32_t *regs, unsigned n);
/* An instruction of that path issued: its n destinations are pending
 * until `ready` (CORE_INF: until core_dpe_sb_wb). */
void core_dpe_sb_issue(struct core_dpe_sb *sb, unsigned side, uint32_t mask,
                       const int32_t *regs, unsigned n, uint64_t ready);
/* A load of side `side` (threads mask) is written back at cycle `at`: its
 * registers' pending and shadow entries of that side that wait for it
 * become `at`. */
void core_dpe_sb_wb(struct core_dpe_sb *sb, unsigned side, uint32_t mask,
                    const int32_t *regs, unsigned n, uint64_t at);
/* The pending bits of side `side` are copied into its shadow bits (OR);
 * the engine does it for both sides at every divergence and every
 * reconvergence (docs/dpe.md). No-op when optimistic. */
void core_dpe_sb_shadow(struct core_dpe_sb *sb, unsigned side);

/* Per warp slot. A path is k < 2 (dual: the top entry's side k, or with
 * path forwarding the path of a lower entry in the free slot k) or k < 32
 * (dws: WST slot k when subdivided, else 0 = the top stack entry). */
/* (the issue check's fields first, the large DWS state last: the check
 * runs per warp per cycle and should touch few cache lines) */
struct core_dpe_warp {
    struct simt_dpe st;         /* dual                                     */
    struct core_dpe_sb sb;
    uint8_t cur;                /* path chosen by the last check            */
    uint8_t last;               /* path issued last                         */
    uint8_t sched;              /* constrained: the path the entry holds    */
    int8_t inherit;             /* dual: the side that returned to the top
                                   entry's RPC when the last issue popped
                                   entries (it goes on from the popping
                                   path's instruction buffer), -1: none    */
    uint8_t at_bar;             /* its last issue was a CTA barrier wait   */
    uint8_t keep;               /* dual: the issue being made may leave the
                                   other top path as it was (keep_sp,
                                   keep_path: that path before it)       */
    uint32_t keep_sp;
    struct simt_dpe_path keep_path;
    uint8_t shadow_due;         /* the issue being made diverged or popped:
                                   the shadow copy follows its own
                                   destinations' pending bits              */
    uint64_t ibuf_ready[CORE_DPE_MAXP], ibuf_block[CORE_DPE_MAXP];
    uint32_t ibuf_n[CORE_DPE_MAXP];
    struct simt_dws ws;         /* dws                                      */
    uint64_t issued_at;         /* cycle of its last issue + 1 (0: none)    */
    /* constrained: core_pend.missed of each load slot whose miss was
     * already seen (core_dpe.c dpe_cycle) */
    uint64_t miss_seen[16];
};

/* Statistics of one SM over a kernel (summed into ls_stats.dpe). */
struct core_dpe_stats {
    uint64_t issued, path_sum, switches, forwarded;
    uint64_t coissued;          /* dws: issues of a split in a cycle in
                                   which another split of its warp issued */
};

struct core_dinst;
struct core_view;
struct core_mech_ops;

struct core_dpe {
    unsigned paths, sbkind, sched;  /* config                              */
    bool fwd;                       /* dpe.path_forwarding (dual)          */
    bool refill_all;                /* dpe.refill = all (ablation): every
                                       control instruction refills both
                                       paths' instruction buffers          */
    bool simple;                    /* dual, full scheduler, no forwarding:
                                       the paths are the top entry's sides */
    uint32_t dws_n;                 /* dws.n                               */
    uint32_t *bblen;                /* dws: block lengths of the kernel    */
    bool active;                    /* this kernel runs dual-path          */
    bool mem_wait;                  /* the last core_dpe_check met a path
                                       blocked by the memory queue (the
                                       scheduler adds it to mem_sleep)     */
    const struct core_dinst *di;    /* the kernel's decoded instructions
                                       (di[ninsts]: the end)               */
    uint32_t ninsts;
    char reason[160];               /* why not ("" when active or single)   */
    struct core_dpe_warp *w;        /* nslots                              */
    unsigned nslots, nregs;
    struct core_dpe_stats st;
    struct core_view *v;            /* its SM                              */
    uint64_t branches, divergent, interleavable; /* of warps that finished */
    uint64_t subdivided, refused, nested, created, merges; /* dws           */
    bool rotate_load;               /* dpe.rotate = load (ablation)        */
    bool coissue;                   /* dws.issue = any                     */

};

/* The dual-path mechanism of the SM (core_mech.h; its hooks and unit
 * functions are in core_dpe.c). */
extern const struct core_mech_ops core_dpe_mech;

#endif
