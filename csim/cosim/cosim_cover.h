/* Functional coverage of the blocks at the seam (docs/blocks/coverage.md).
 *
 * Each stepped edge of an instance is classified into the bins of
 * cosim_cover.def from the block's input and output port structs alone
 * (plus a few registers of the observer: the compacted warps of the WCU's
 * job so far, the BGP's last counts), so the C model, the RTL and the
 * netlist count the same bins: the observer never looks inside a model.
 * The GPU's instances add into their environment's totals when coverage
 * is on (cosim_cover_enable); the standalone random testbenches use the
 * same observer (tests/coverage/cover_tb.c). */
#ifndef COSIM_COVER_H
#define COSIM_COVER_H

#include <stdint.h>
#include "lockstep.h"

enum cosim_cover_bin {
#define COVER_BIN(blk, name, what) COV_##blk##_##name,
#include "cosim/cosim_cover.def"
#undef COVER_BIN
    COV_COUNT
};

/* The observer of one block instance. */
struct cosim_cover {
    int blk;                       /* LS_BLK_*                              */
    const void *cfg;               /* the block's cfg struct (its params)   */
    uint64_t *count;               /* COV_COUNT counters it adds into       */
    unsigned warps;                /* WCU: compacted warps of the job       */
    int have_prev;                 /* BGP: prev_* hold the last outputs     */
    uint32_t prev_cnt0, prev_cnt1, prev_idle1;
};

/* Observes block blk (LS_BLK_*) with cfg, adding into count[COV_COUNT]
 * (which it does not clear). */
void cosim_cover_init(struct cosim_cover *cv, int blk, const void *cfg,
                      uint64_t *count);
/* The block was reset: the observer's registers too. */
void cosim_cover_reset(struct cosim_cover *cv);
/* One stepped edge: in = the inputs applied, out = the outputs after it. */
void cosim_cover_edge(struct cosim_cover *cv, const void *in, const void *out);

/* The LS_BLK_* of a block with bins, by its name ("rvc_comp"), or -1. */
int cosim_cover_block_id(const char *name);
/* Bin b's block (LS_BLK_*), name ("hit_stall") and meaning. */
int cosim_cover_block(unsigned b);
const char *cosim_cover_name(unsigned b);
const char *cosim_cover_what(unsigned b);

#endif
