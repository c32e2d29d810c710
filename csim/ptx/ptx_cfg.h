/* Control-flow graph and immediate post-dominators of a PTX function.
 * Built by ptx_parse for every function; also usable on hand-built
 * functions (tests). */
#ifndef PTX_CFG_H
#define PTX_CFG_H

#include <stdint.h>
#include "ptx/ptx_arena.h"
#include "ptx/ptx_ir.h"

/* Basic block: instructions [first, end). Successor and ipdom indices are
 * block indices; the value nblocks stands for the virtual exit node that
 * joins every ret/exit and the fall-off end of the function. */
struct ptx_block {
    uint32_t first, end;
    int32_t *succ;      /* nsucc entries (2 at most, except after a
                           brx.idx: one per distinct target)              */
    uint32_t nsucc;
    int32_t ipdom;      /* immediate post-dominator; nblocks = exit (also
                           for blocks that cannot reach the exit) */
};

struct ptx_cfg {
    uint32_t nblocks;
    struct ptx_block *blocks;
    uint32_t *block_of;  /* block index of each instruction */
    uint32_t iterations; /* post-dominator fixpoint passes (diagnostics) */
};

/* Builds f->cfg (allocated from a) and sets inst.reconv of every bra and
 * brx.idx to the first instruction of its block's immediate post-dominator
 * (ninsts when that is the exit); reconv of other instructions becomes -1.
 * Branch targets (and brx.idx target-list entries) must be valid
 * instruction indices in [0, ninsts]. Returns 0, or -1 when out of memory
 * or a branch target is out of range. */
int ptx_cfg_build(struct ptx_func *f, struct ptx_arena *a);

/* Reconvergence PC of instruction pc: inst.reconv for a bra, else -1. */
int32_t ptx_cfg_reconv(const struct ptx_func *f, uint32_t pc);

#endif
