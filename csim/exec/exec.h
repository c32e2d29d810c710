/* Functional semantics: one PTX instruction for one warp under an active
 * mask. Values only; no timing. The SIMT layer (csim/simt) owns control
 * flow: exec evaluates branch conditions but never moves a PC. */
#ifndef EXEC_H
#define EXEC_H

#include <stdbool.h>
#include <stdint.h>
#include "ptx/ptx_ir.h"

#define EXEC_WARP 32            /* lanes per warp (fixed, = mask width) */

/* Per-thread geometry a special register can read. */
struct exec_thread_ids {
    uint32_t tid[3];            /* %tid.{x,y,z}      */
    uint32_t laneid;            /* %laneid           */
};

/* Launch-wide geometry. */
struct exec_grid {
    uint32_t ntid[3], nctaid[3], ctaid[3];
    uint32_t warpid, nwarpid, smid, nsmid;
    uint32_t dyn_smem;          /* %dynamic_smem_size: bytes at launch     */
    uint32_t total_smem;        /* %total_smem_size: static + dynamic,
                                 * rounded up to 256 (sm_7x unit)          */
    /* %globaltimer in ns = *clock * timer_num / timer_den (0/0: = *clock) */
    uint32_t timer_num, timer_den;
    uint64_t grid_ws;           /* a cooperative launch's grid-sync word
                                   (%envreg1:%envreg2, what the driver
                                   gives cooperative groups), else 0     */
};

/* Register file of one warp: regs[r * EXEC_WARP + lane] holds register r
 * of lane, zero-extended to 64 bits (predicates: 0 or 1). carry[lane] is
 * the CC.CF flag of .cc instructions. */
struct exec_warp {
    uint64_t *regs;
    uint32_t nregs;
    uint8_t carry[EXEC_WARP];
    struct exec_thread_ids ids[EXEC_WARP];
    const struct exec_grid *grid;
    uint32_t valid;             /* lanes that hold a thread of the CTA */
    /* Address of each symbol, as `mov r, sym` yields it: module symbols
     * (scope 0) get device addresses, function symbols (scope 1) their
     * offset in shared/local/param space. Set up by the launch code. */
    const uint64_t *sym_addr[2];
    /* %clock/%clock64 source, never the host clock: the SM cycle in
     * timing mode, this warp's executed-instruction count in functional
     * mode; NULL reads 0. */
    const uint64_t *clock;
};

/* Result of one instruction (a retire record the timing model can move). */
struct exec_result {
    uint32_t active;            /* lanes that executed (mask & guard)      */
    uint32_t taken;             /* bra: lanes whose branch is taken        */
    uint8_t  space;             /* memory ops: resolved state space        */
    uint8_t  access_bytes;      /* memory ops: bytes per lane (vec * size) */
    bool     is_store;
    uint32_t gen_shared, gen_local; /* generic memory ops: lanes whose
                                   address fell in the shared/local window */
    uint16_t nxaddr;            /* tex/tld4: further texel addresses (each
                                   access_bytes) in the warp's
                                   exec_memctx.texaddr; 0 for other ops   */
    uint64_t addr[EXEC_WARP];   /* memory ops: per-lane effective address  */
};

/* Error detail for a failed instruction (memory fault, bad operand). */
struct exec_error {
    int lane;                   /* -1 when not lane-specific */
    uint64_t addr;
    char msg[256];
};

/* Operand access helpers shared by every exec unit. */
/* Value of source operand o for lane as raw bits of type t (imm, reg,
 * sreg, symbol address); predicates come back as 0/1 (with '!' applied). */
uint64_t exec_read(const struct exec_warp *w, const struct ptx_operand *o,
                   enum ptx_type t, unsigned lane);
/* Writes v (truncated to the width of t) to register operand o of lane. */
void exec_write(struct exec_warp *w, const struct ptx_operand *o,
                enum ptx_type t, unsigned lane, uint64_t v);
/* Lanes of mask whose guard predicate holds (all of mask if unguarded). */
uint32_t exec_guard_mask(const struct exec_warp *w, const struct ptx_inst *in,
                         uint32_t mask);

/* The one "for each active lane" helper: runs BODY with `lane` bound to
 * every set bit of MASK, lowest first. BODY is variadic so that it may
 * contain unparenthesised commas (declarations such as `int a = 1, b;`). */
#define EXEC_FOR_EACH_LANE(mask, lane, ...)                                   \
    do {                                                                      \
        uint32_t exec_m_ = (mask);                                            \
        while (exec_m_) {                                                     \
            unsigned lane = (unsigned)__builtin_ctz(exec_m_);                 \
            exec_m_ &= exec_m_ - 1;                                           \
            __VA_ARGS__;                                                      \
        }                                                                     \
    } while (0)

/* Executes an ALU or SFU instruction (unit class ALU/SFU in ptx_ops.def;
 * cvta is the memory layer's, mov of a symbol uses w->sym_addr)
 * for the lanes of mask that pass the guard. Returns 0, or -1 with err. */
int exec_alu(struct exec_warp *w, const struct ptx_inst *in, uint32_t mask,
             struct exec_result *res, struct exec_error *err);

#endif
