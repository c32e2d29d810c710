/* The SM's SIMD lane permutation unit (dissertation 4.3; docs/blocks/slp.md)
 * in the running GPU, clocked through the block seam (csim/cosim).
 *
 * When a warp is launched into a slot, a launch request gives the block
 * the warp's id within its CTA and the permutation mode; the block returns
 * the thread -> lane map (key, rotate flag, permuted mask) and keeps it for
 * the warp's life. When the warp leaves its slot, a lookup reads the map
 * back and must return what the launch stored. One request per clock edge,
 * in order, through a FIFO; the block is clocked lazily but exactly: the
 * edges between requests are idle edges under the seam's clocking rule.
 * No stage of the SM reads the map without compaction, so it costs no
 * cycle and cannot change a result (compaction will read it). */
#ifndef CORE_SLP_H
#define CORE_SLP_H

#include <stdbool.h>
#include <stdint.h>
#include "lockstep.h"

struct cosim_inst;
struct cosim_env;

/* One queued request. */
struct core_slp_req {
    uint64_t at;               /* GPU cycle it was made                   */
    uint32_t mask;             /* the warp's threads (logical lanes)      */
    uint32_t ctaid[3];
    uint32_t warp;             /* warp id within the CTA                  */
    uint16_t slot;
    uint8_t launch;            /* 1 launch, 0 lookup at exit              */
};

struct core_slp {
    struct cosim_inst *blk;    /* NULL until core_slp_init                */
    unsigned mode;             /* RTL mode (config key slp.permutation)   */
    uint64_t t0;               /* GPU cycle of the block's edge 0         */
    const char *kernel;
    struct core_slp_req *q;
    uint32_t head, n, cap;
    bool oom;                  /* a request could not be queued           */
    /* the map each slot's launch returned */
    uint8_t key[64], rot[64];
    uint32_t pmask[64], vmask[64];
    uint64_t mapped;           /* bit per slot                            */
    char *why;                 /* failure report (malloc'd), NULL if none */
};

struct slp_cfg;
/* The SLP parameters of an SM with nslots warp slots: W 32, NWARPS nslots,
 * ROT_EN 1. */
void core_slp_cfg(unsigned nslots, struct slp_cfg *c);
/* Creates sm `id`'s SLP block (W 32, NWARPS = nslots, ROT_EN 1) under env.
 * Returns 0 or -1 with err. */
int core_slp_init(struct core_slp *u, struct cosim_env *env, unsigned id,
                  unsigned nslots, unsigned mode, char *err, size_t n);
/* Frees the unit. */
void core_slp_free(struct core_slp *u);
/* Resets the block for a kernel starting at GPU cycle now. */
void core_slp_kernel(struct core_slp *u, const char *kernel, uint64_t now);
/* Queues a launch (launch = 1) or exit lookup of slot at now. */
void core_slp_push(struct core_slp *u, int launch, unsigned slot,
                   uint32_t warp, const uint32_t ctaid[3], uint32_t mask,
                   uint64_t now);
/* Clocks the block through GPU cycle upto. Returns 0, or LS_ERR_COSIM /
 * LS_ERR_NOMEM with u->why set. */
int core_slp_advance(struct core_slp *u, uint64_t upto);
/* Kernel end at GPU cycle end: clocks through end - 1, then drains the
 * queue (extra edges). Returns as core_slp_advance. */
int core_slp_finish(struct core_slp *u, uint64_t end);
/* Adds the block's figures for this kernel into s (ls_stats.cosim). */
void core_slp_stats(const struct core_slp *u, ls_stats *s);

#endif
