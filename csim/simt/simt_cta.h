/* A CTA-wide reconvergence stack (thread-block compaction, dissertation
 * 4.1.3, Fig 4.2; docs/compaction.md). The rules are those of the per-warp
 * stack of simt.c (immediate post-dominator reconvergence, taken path on
 * top, not-taken below, the old top becomes the reconvergence entry), but
 * an entry holds one lane mask per warp of the CTA and a branch is decided
 * only when every warp executing the entry has reached it (WCnt = 0).
 *
 * The stack knows nothing of warp slots or timing: the caller tells it
 * which lanes reached the entry's branch (simt_cta_branch), which exited
 * (simt_cta_exit) and when the entry's last warp left (simt_cta_resolve).
 * Values are not computed here: the caller evaluates the branch guard on
 * the home warps' registers (exec_guard_mask). */
#ifndef SIMT_CTA_H
#define SIMT_CTA_H

#include <stdbool.h>
#include <stdint.h>
#include "ptx/ptx_ir.h"

#define SIMT_CTA_MAX_W 32           /* warps per CTA (1024 threads)         */

/* One entry: the threads that follow a path, per home warp. */
struct simt_cta_entry {
    uint32_t mask[SIMT_CTA_MAX_W];  /* [w] bit l: warp w, logical lane l    */
    int32_t npc, rpc;               /* next / reconvergence instruction     */
    uint32_t wcnt;                  /* compacted warps still executing it   */
    int32_t from_pc;                /* a path of the divergent branch at this
                                       pc (-1: the start, a reconvergence
                                       point or a non-divergent branch's
                                       target)                              */
    /* the compaction point the entry's warps reached (one per entry: they
     * all run the same straight-line code from npc) */
    int32_t br_pc;                  /* branch reached, -1: none (rpc/exit)  */
    uint32_t arrived[SIMT_CTA_MAX_W]; /* lanes that reached br_pc          */
    uint32_t taken[SIMT_CTA_MAX_W]; /* ... and take it                      */
};

struct simt_cta {
    const struct ptx_func *f;       /* the kernel (no .func frames)         */
    uint32_t nwarps;
    uint32_t live[SIMT_CTA_MAX_W];  /* threads not exited, per warp         */
    struct simt_cta_entry *stack;
    uint32_t sp, cap;
    uint64_t branches, divergent, max_depth; /* CTA-wide decisions          */
    bool warp_uniform;              /* the last divergent decision split no
                                       warp: each warp's threads went one way */
    bool both_paths;                /* ... pushed both paths: neither starts
                                       at the reconvergence point          */
};

/* What simt_cta_resolve decided. */
enum simt_cta_rc { SIMT_CTA_RUN, SIMT_CTA_DONE, SIMT_CTA_OVERFLOW };

/* Allocates a stack of cap entries. Returns 0 or -1 (host memory). */
int simt_cta_alloc(struct simt_cta *c, uint32_t cap);
/* Frees what simt_cta_alloc allocated. */
void simt_cta_free(struct simt_cta *c);
/* Starts kernel f for nwarps warps whose threads are valid[w]: one entry
 * {valid, 0, ninsts} (the caller then forms warps from it). */
void simt_cta_start(struct simt_cta *c, const struct ptx_func *f,
                    uint32_t nwarps, const uint32_t *valid);
/* The top entry, or NULL once every thread exited (inline: the compaction
 * engine asks for it on every cycle). */
static inline struct simt_cta_entry *simt_cta_top(struct simt_cta *c)
{
    return c->sp ? &c->stack[c->sp - 1] : NULL;
}
/* Lanes `lanes` of warp w reached the branch at pc of the top entry and
 * `taken` of them take it. Returns false if the entry's warps reached
 * different compaction points (not modelled: the caller fails the run). */
bool simt_cta_branch(struct simt_cta *c, uint32_t w, int32_t pc,
                     uint32_t lanes, uint32_t taken);
/* Lanes of warp w exited (exit, ret or the end of the kernel): they leave
 * every entry. */
void simt_cta_exit(struct simt_cta *c, uint32_t w, uint32_t lanes);
/* The top entry's last warp left (wcnt 0): decides its branch like
 * simt.c's do_branch on the CTA-wide masks, pops finished entries and
 * returns SIMT_CTA_RUN (the new top is ready to be compacted), DONE (no
 * thread left) or OVERFLOW (stack full). *divergent is set when the
 * branch split the CTA. */
enum simt_cta_rc simt_cta_resolve(struct simt_cta *c, bool *divergent);
/* Whether register r of f is read anywhere but as operand 0 of
 * instruction `at` (conservative: any other mention counts as a read):
 * false means the value `at` writes there is never used (an atom whose
 * result nobody reads acts as a red). */
bool simt_reg_read(const struct ptx_func *f, int32_t r, uint32_t at);
/* Threads of the top entry (all warps). */
uint32_t simt_cta_threads(const struct simt_cta_entry *e, uint32_t nwarps);

#endif
