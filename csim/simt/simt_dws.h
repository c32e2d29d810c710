/* Dynamic warp subdivision (DWS; Meng et al., as the dissertation 3.1.2
 * and Fig 3.2 describe it; docs/dpe.md). A warp runs on the per-warp PDOM
 * stack (entries {mask, pc, rpc}; the top entry is the one path) until a
 * divergent branch whose immediate post-dominator starts a basic block of
 * at most n instructions: then the warp-split table (WST) takes the two
 * sides as warp-splits {pc, mask}, with the WST RPC = the RPC of the top
 * stack entry (not the branch's post-dominator). Divergent branches of a
 * split always split it further (same RPC); splits whose PCs become equal
 * merge (masks OR); a split reaching the WST RPC is invalidated, and when
 * none is left the top entry reaches its RPC (it pops). A WST whose one
 * split holds every thread of the top entry is the undivided warp again:
 * the top entry takes the split's pc.
 *
 * Like simt_dpe.h the table knows no timing and computes no value: the
 * caller evaluates guards on the warp's registers (exec_guard_mask). */
#ifndef SIMT_DWS_H
#define SIMT_DWS_H

#include <stdbool.h>
#include <stdint.h>
#include "ptx/ptx_ir.h"

#define SIMT_DWS_MAX 32         /* splits: each holds at least one lane    */

struct simt_dws_entry {
    uint32_t mask;
    int32_t pc, rpc;
};

struct simt_dws_split {
    uint32_t mask;              /* 0: slot free (or the split arrived)     */
    int32_t pc;
};

struct simt_dws {
    struct simt_dws_entry *stack;
    uint32_t sp, cap;
    bool sub;                   /* subdivided: the WST holds the top's threads */
    int32_t rpc;                /* WST RPC (== the top entry's rpc)         */
    struct simt_dws_split split[SIMT_DWS_MAX];
    const uint32_t *bblen;      /* per pc: instructions to its block's end  */
    uint32_t n;                 /* subdivision threshold                    */
    /* statistics: warp-level bra, divergent ones, of which subdivided the
     * warp (at the stack) / refused by the threshold / split a split;
     * splits created (2 per subdivision, 1 per further split), merges */
    uint64_t branches, divergent, subdivided, refused, nested, created, merges;
    uint64_t max_depth;
};

/* What simt_dws_branch did. */
enum simt_dws_rc { SIMT_DWS_UNIFORM, SIMT_DWS_DIVERGED, SIMT_DWS_SPLIT, SIMT_DWS_OVERFLOW };

/* len[i] (i < ninsts) = instructions from i to the end of its basic block
 * (a bra, brx, call, ret, exit or trap ends one; a bra target starts one);
 * len[ninsts] = 0. len holds ninsts + 1 entries. */
void simt_dws_blocks(const struct ptx_func *f, uint32_t *len);
/* Allocates a stack of cap entries. Returns 0 or -1 (host memory). */
int simt_dws_alloc(struct simt_dws *d, uint32_t cap);
/* Frees what simt_dws_alloc allocated. */
void simt_dws_free(struct simt_dws *d);
/* Starts threads `valid` at pc 0 of a kernel of ninsts instructions with
 * block lengths bblen (simt_dws_blocks; kept, not copied) and threshold
 * n: one stack entry {valid, 0, ninsts}, no split; statistics reset. */
void simt_dws_start(struct simt_dws *d, uint32_t valid, uint32_t ninsts,
                    const uint32_t *bblen, uint32_t n);
/* Path k (a WST slot when subdivided, else 0 = the top entry): whether it
 * is schedulable, and its pc and mask. */
bool simt_dws_path(const struct simt_dws *d, unsigned k, int32_t *pc, uint32_t *mask);
/* Schedulable paths: valid splits when subdivided, else 1 (0: done). */
unsigned simt_dws_npaths(const struct simt_dws *d);
/* Path k moves to npc (an ordinary instruction, a taken uniform branch):
 * arrival at the WST RPC, merges and pops follow. Returns the entries
 * popped. */
unsigned simt_dws_advance(struct simt_dws *d, unsigned k, int32_t npc);
/* bra `in` at pc of a function of ninsts instructions executed by path k
 * with `taken` of its threads taking it. Uniform: the path moves on.
 * Divergent on the stack: subdivides (SIMT_DWS_SPLIT) when the block at
 * the branch's RPC has at most n instructions, else pushes not-taken then
 * taken as the per-warp stack does (SIMT_DWS_DIVERGED). Divergent in a
 * split: the split becomes the taken side and a new split the not-taken
 * side (SIMT_DWS_SPLIT). *popped = entries popped afterwards. */
enum simt_dws_rc simt_dws_branch(struct simt_dws *d, unsigned k,
                                 const struct ptx_inst *in, int32_t pc,
                                 uint32_t ninsts, uint32_t taken, unsigned *popped);
/* Threads `lanes` exited: they leave every split and entry. Returns the
 * entries popped. */
unsigned simt_dws_exit(struct simt_dws *d, uint32_t lanes);

#endif
