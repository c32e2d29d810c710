/* The dual-path stack of dual-path execution (DPE; dissertation 3.2.1,
 * Fig 3.3; docs/dpe.md). An entry holds two paths {PC_L, mask_L},
 * {PC_R, mask_R} and their common RPC; both paths of the top entry are
 * schedulable. The branch rule is the per-warp stack's (simt_branch_split:
 * immediate post-dominator reconvergence); a divergent branch of one path
 * sets that path's PC to the branch's RPC and pushes ONE entry holding both
 * sides (taken left, not taken right), which suspends the sibling path
 * until the new entry pops. A path whose PC reaches the entry's RPC (or
 * whose threads all exited) is invalid; the entry pops when both are.
 *
 * Like simt_cta.h the stack knows no timing and computes no value: the
 * caller evaluates guards on the warp's registers (exec_guard_mask). */
#ifndef SIMT_DPE_H
#define SIMT_DPE_H

#include <stdbool.h>
#include <stdint.h>
#include "ptx/ptx_ir.h"

#define SIMT_DPE_L 0
#define SIMT_DPE_R 1

struct simt_dpe_path {
    uint32_t mask;              /* threads of the path                     */
    int32_t pc;                 /* next instruction (== rpc: arrived)      */
};

struct simt_dpe_entry {
    struct simt_dpe_path p[2];  /* [SIMT_DPE_L], [SIMT_DPE_R]              */
    int32_t rpc;                /* common reconvergence pc                 */
    uint8_t wait;               /* below the top: the side that pushed the
                                   entry above (its pc is that entry's RPC) */
};

struct simt_dpe {
    struct simt_dpe_entry *stack;
    uint32_t sp, cap;
    /* statistics: warp-level bra, those that split the path, of which
     * interleavable (both sides non-empty: neither starts at the RPC) */
    uint64_t branches, divergent, interleavable, max_depth;
};

/* What simt_dpe_branch did. */
enum simt_dpe_rc { SIMT_DPE_UNIFORM, SIMT_DPE_DIVERGED, SIMT_DPE_OVERFLOW };

/* Allocates a stack of cap entries. Returns 0 or -1 (host memory). */
int simt_dpe_alloc(struct simt_dpe *d, uint32_t cap);
/* Frees what simt_dpe_alloc allocated. */
void simt_dpe_free(struct simt_dpe *d);
/* Starts threads `valid` at pc 0 of a kernel of ninsts instructions: one
 * entry {L: valid at 0, R: none, rpc ninsts}; statistics reset. */
void simt_dpe_start(struct simt_dpe *d, uint32_t valid, uint32_t ninsts);
/* Whether path side of the top entry is schedulable (threads left, pc not
 * at the entry's rpc). Inline: the DPE issue check asks it per path per
 * cycle. */
static inline bool simt_dpe_valid(const struct simt_dpe *d, unsigned side)
{
    if (!d->sp || side > 1)
        return false;
    const struct simt_dpe_path *p = &d->stack[d->sp - 1].p[side];
    return p->mask != 0 && p->pc != d->stack[d->sp - 1].rpc;
}
/* Schedulable top-of-stack paths (0, 1 or 2). */
unsigned simt_dpe_npaths(const struct simt_dpe *d);
/* Path side of the top entry moves to npc (an ordinary instruction, a
 * taken uniform branch); finished entries pop. Returns the number of
 * entries popped (a pop is a reconvergence). */
unsigned simt_dpe_advance(struct simt_dpe *d, unsigned side, int32_t npc);
/* bra `in` at pc of a function of ninsts instructions, executed by path
 * side of the top entry, with `taken` of its threads taking it. Uniform:
 * the path moves on. Divergent: the path's pc becomes the branch's RPC
 * (the entry is reused when that leaves it with no schedulable path) and
 * an entry {L: taken at the target, R: not taken at pc + 1, RPC} is
 * pushed; a side that starts at the RPC is invalid at once (one-sided
 * branch). *popped = entries popped afterwards. */
enum simt_dpe_rc simt_dpe_branch(struct simt_dpe *d, unsigned side,
                                 const struct ptx_inst *in, int32_t pc,
                                 uint32_t ninsts, uint32_t taken,
                                 unsigned *popped);
/* Path side of entry ent (< sp; a forwarded path when below the top)
 * moves to npc; finished entries pop. Returns the number popped. */
unsigned simt_dpe_advance_at(struct simt_dpe *d, uint32_t ent, unsigned side,
                             int32_t npc);
/* Path forwarding (dissertation 3.4.1): searching down from the entry
 * below the top, the first schedulable path that is not the side waiting
 * for the entry above it (*ent, *side). Returns false when there is none. */
bool simt_dpe_forward(const struct simt_dpe *d, uint32_t *ent, unsigned *side);
/* Threads `lanes` exited: they leave every path of every entry; finished
 * entries pop. Returns the number popped. */
unsigned simt_dpe_exit(struct simt_dpe *d, uint32_t lanes);

#endif
