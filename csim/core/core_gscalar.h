/* G-Scalar scalar execution (gscalar.scalar; G-Scalar sec. 4, Fig 9;
 * docs/gscalar.md): which issued instructions may run on one lane, from
 * the classes the register state gives their source operands (the RVC
 * decompressor's class with gscalar.compress = on, the same rule in C
 * otherwise), and the check that such an instruction's results really are
 * equal in the lanes it claims. Values never change: a scalar instruction
 * only occupies its pipeline for fewer cycles and spends fewer lane
 * operations (energy). */
#ifndef CORE_GSCALAR_H
#define CORE_GSCALAR_H

#include <stdbool.h>
#include <stdint.h>
#include "core/core_rvc.h"
#include "blocks/rvc_decomp.h"

/* Resets the source summary before an instruction's operand reads. */
static inline void core_gs_begin(struct core_rvc *u)
{
    u->src_full = u->src_div = true;
    u->src_halves = 3;
}

/* Adds one source vector register's class (enum rvc_class) and half-scalar
 * bits (bit 0 low half, bit 1 high half) to the summary. */
static inline void core_gs_source(struct core_rvc *u, unsigned cls, unsigned hsc)
{
    switch (cls) {
    case RVC_CLS_SCALAR:            /* every lane equal: fine for any mask */
        break;
    case RVC_CLS_DIV_SCALAR:
        u->src_full = false;
        u->src_halves = 0;
        break;
    case RVC_CLS_HALF_SCALAR:
        u->src_full = u->src_div = false;
        u->src_halves &= hsc;
        break;
    default:
        u->src_full = u->src_div = false;
        u->src_halves = 0;
        break;
    }
}

/* Class (enum rvc_class) and half-scalar bits of stored register v read
 * under mask: the rule of the RVC decompressor's cls_o/hsc_o
 * (csim/blocks/rvc_decomp.c) without rebuilding the lanes. */
unsigned core_gs_class_of(const struct core_rvc_vreg *v, uint32_t mask,
                          unsigned *hsc);
/* Whether instruction `in` of f may run as scalar when its sources are:
 * its op and operands (no atomics, local/generic memory, carry inputs,
 * predicate sources or lane-dependent special registers; pipeline unit
 * 0 ALU, 1 SFU, 2 MEM). */
bool core_gs_op_ok(const struct ptx_func *f, const struct ptx_inst *in,
                   unsigned unit);
/* The instruction's eligibility (enum ls_gs_elig) from the source summary
 * and its active mask (after the guard); *halves gets the scalar halves of
 * a half-scalar instruction. */
unsigned core_gs_classify(const struct core_rvc *u, const struct ptx_func *f,
                          const struct ptx_inst *in, unsigned unit,
                          uint32_t mask, unsigned *halves);
/* Whether gscalar.scalar = mode (a CFG_GSCALAR_SCALAR_* choice) runs class
 * cls as a scalar instruction. */
bool core_gs_runs_scalar(unsigned mode, unsigned cls);
/* Cycles a scalar instruction of class cls occupies a pipeline of `lanes`
 * lanes: 1 (one lane-cycle), or per half 1 if it is scalar, else
 * ceil(16 / lanes), for a half-scalar one. */
unsigned core_gs_ii(unsigned cls, unsigned halves, unsigned lanes);
/* After the instruction executed under mask `active`: counts it (insts,
 * elig, scalar_insts, lane-ops of pipeline unit and of ALU/SFU energy
 * class ecls, enum core_ecls) and checks that an
 * eligible instruction's destinations (a store's addresses) are equal in
 * its active lanes (per scalar half for half-scalar). *scalar: it ran as
 * scalar under u->scalar. Returns 0 or LS_ERR_COSIM with u->why (a model
 * error: the eligibility rule was wrong). */
int core_gs_retire(struct core_rvc *u, const struct simt_warp *w,
                   unsigned frame, const struct ptx_func *f, int32_t pc,
                   unsigned unit, unsigned ecls, unsigned cls, unsigned halves,
                   uint32_t active, uint64_t now, bool *scalar);

#endif
