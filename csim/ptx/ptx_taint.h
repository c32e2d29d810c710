/* Branch classes by taint analysis (dissertation 4.3.3 and Fig 4.20):
 * every conditional branch of a function is programmatic (P: its
 * predicate depends only on thread/block ids, launch sizes, kernel
 * parameters and constants) or data-dependent (D: it depends on a value
 * loaded from memory, an atomic, a warp collective, a clock, ...). A
 * static, flow-sensitive data-flow analysis over the CFG of ptx_cfg.h:
 * a register is D at a point when any definition reaching it is D.
 * docs/branch-classes.md gives the rules and the decisions behind them. */
#ifndef PTX_TAINT_H
#define PTX_TAINT_H

#include <stdint.h>
#include "ptx/ptx_ir.h"

/* Class of instruction pc (cls[pc]). NONE: not a conditional branch (an
 * unguarded bra, any other instruction). */
enum ptx_bcls { PTX_BCLS_NONE = 0, PTX_BCLS_P, PTX_BCLS_D };

/* Flags of ptx_taint_branches. Default (0): pure data flow, as the
 * dissertation's taint analysis (control dependence ignored).
 * PTX_TAINT_CONTROL: also control dependence: at the immediate
 * post-dominator of a D-branch, every register defined on a path between
 * the branch and that point becomes D (the merged value depends on which
 * way the data sent each thread). */
#define PTX_TAINT_CONTROL 1u

/* Figures of one run, for reports and tests. */
struct ptx_taint_stats {
    uint32_t nbranch;      /* conditional branches (bra with a guard, brx.idx) */
    uint32_t np, nd;       /* of them P and D                                  */
    uint32_t passes;       /* fixpoint passes over the blocks                  */
};

/* Classifies every instruction of f (parsed, CFG built) into cls[0..ninsts-1]
 * (enum ptx_bcls): a guarded bra by its guard predicate, a brx.idx by its
 * index (and guard). Deterministic, no global state; O(passes x (insts +
 * blocks x registers / 64)) time and blocks x registers / 8 bytes, counting
 * the registers instructions name.
 * st may be NULL. Returns 0; or -1 with diag (naming the function and its
 * PTX line) when f has a body but no CFG or memory runs out. A function
 * without a body gives all NONE. */
int ptx_taint_branches(const struct ptx_func *f, unsigned flags, uint8_t *cls,
                       struct ptx_taint_stats *st, struct ptx_diag *diag);

/* "P", "D" or "-" for a class. */
const char *ptx_bcls_name(unsigned cls);

#endif
