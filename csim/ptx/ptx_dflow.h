/* Helpers shared by the data-flow analyses over the CFG of ptx_cfg.h
 * (ptx_taint.c: branch classes; ptx_affine.c: affine classes): block
 * orders, the region of a branch, what kind of source an instruction's
 * result is, and its destination registers. */
#ifndef PTX_DFLOW_H
#define PTX_DFLOW_H

#include <stdbool.h>
#include <stdint.h>
#include "ptx/ptx_cfg.h"
#include "ptx/ptx_ir.h"

/* Fills order[0..nblocks-1] with g's blocks in reverse postorder from block
 * 0, then every block block 0 does not reach, in index order (index order
 * alone when memory runs out). mark and stack are caller scratch of
 * nblocks and nblocks + 1 entries; mark comes back all zero. */
void ptx_dflow_rpo(const struct ptx_cfg *g, uint32_t *order, uint32_t *mark,
                   uint32_t *stack);

/* The blocks reachable from block b's successors without passing b's
 * immediate post-dominator (the blocks a branch at the end of b controls)
 * into out (at most nblocks), b itself only when a path comes back to it;
 * when that post-dominator is the exit (the paths end the thread), every
 * block reachable from b's successors. mark: per block scratch, stamped
 * with stamp (give a fresh one per call); stack: nblocks + 1 entries.
 * Returns the count. */
uint32_t ptx_dflow_region(const struct ptx_cfg *g, uint32_t b, uint32_t *mark,
                          uint32_t stamp, uint32_t *stack, uint32_t *out);

/* Where the value in writes comes from. FLOW: the ALU and SFU rows of
 * ptx_ops.def, a per-lane function of its operands. UNIFORM: the same for
 * every thread of the launch (a kernel parameter, a .const at a fixed
 * address). DATA: every other load, atomics, textures, surfaces, warp and
 * CTA collectives, tensor ops, calls; any op a future row adds to those
 * units. */
enum ptx_dflow_src { PTX_DFLOW_FLOW, PTX_DFLOW_DATA, PTX_DFLOW_UNIFORM };
enum ptx_dflow_src ptx_dflow_src(const struct ptx_func *f, const struct ptx_inst *in);

/* Whether special register sr varies with where or when a thread runs
 * rather than with the launch (%smid, clocks, timers, %envreg*): no
 * analysis may treat it as a function of thread ids and launch sizes. */
bool ptx_dflow_sreg_is_data(unsigned sr);

/* Whether in reads the carry flag (addc, subc, madc). */
bool ptx_dflow_reads_cc(const struct ptx_inst *in);
/* The instruction's memory operand ([addr]), or NULL. */
const struct ptx_operand *ptx_dflow_mem_opnd(const struct ptx_inst *in);

/* Calls fn(ctx, reg) for every register in writes (REG destinations and
 * VEC elements of its ptx_inst_ndst leading operands); not the carry flag
 * (PTX_F_CC in in->flags says that). */
void ptx_dflow_defs(const struct ptx_inst *in, void (*fn)(void *ctx, uint32_t reg),
                    void *ctx);

#endif
