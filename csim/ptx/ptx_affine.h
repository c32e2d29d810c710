/* Affine classes for decoupled affine computation (DAC, Wang and Lin,
 * ISCA 2017; docs/dac.md): a static, flow-sensitive data-flow analysis
 * over the CFG of ptx_cfg.h that gives every register, at every point,
 * one value of the lattice
 *   undefined < uniform < affine(terms) < vector < non-affine
 * where uniform is one value for every thread of the launch (kernel
 * parameters, constants, launch sizes), affine is base + sum of stride x
 * index over the index terms named (tid.x/y/z: the paper's per-thread
 * offset and threadIdx.y adjustment; ctaid.x/y/z: its per-CTA base), with
 * base and strides uniform, vector is a value the affine warp can compute
 * per lane from affine ones (a div/rem by a uniform: PTX_AFF_OPT_VEC),
 * and non-affine is anything else. Join is the
 * union of terms; non-affine absorbs. Each instruction then gets the
 * class of what it computes, under the control rules of docs/dac.md
 * (thread-dependent branches whose predicate is affine keep their
 * region; data-dependent ones make it non-affine; values merged after
 * either are non-affine). */
#ifndef PTX_AFFINE_H
#define PTX_AFFINE_H

#include <stdint.h>
#include "ptx/ptx_ir.h"

/* Class of one instruction (ptx_affine_inst.cls). NONE: computes nothing
 * the affine stream could take over (an unguarded bra, ret, exit, bar,
 * membar). UNIFORM and AFFINE are "potentially affine" (the paper's Fig 6):
 * a value or guarded branch the affine warp could compute from scalars and
 * thread ids. NONAFFINE: a value from data, a load or store (the access
 * itself: its address class is in addr), or any instruction under
 * data-dependent control. */
enum ptx_acls { PTX_ACLS_NONE = 0, PTX_ACLS_UNIFORM, PTX_ACLS_AFFINE,
                PTX_ACLS_NONAFFINE };

/* Index terms of an affine value (ptx_affine_inst.terms). */
#define PTX_AFF_TID_X   0x01u
#define PTX_AFF_TID_Y   0x02u
#define PTX_AFF_TID_Z   0x04u
#define PTX_AFF_CTAID_X 0x08u
#define PTX_AFF_CTAID_Y 0x10u
#define PTX_AFF_CTAID_Z 0x20u
#define PTX_AFF_TERMS   0x3fu

/* Control of an instruction's block (ptx_affine_inst.ctl). */
enum ptx_actl {
    PTX_ACTL_UNIFORM = 0,  /* every thread of a CTA gets here together       */
    PTX_ACTL_AFFINE,       /* under a branch on an affine predicate: the
                              affine warp follows it with expanded masks   */
    PTX_ACTL_DATA          /* under a data-dependent branch                 */
};

/* What the analysis says of instruction pc (out[pc]). */
struct ptx_affine_inst {
    uint8_t cls;    /* enum ptx_acls                                         */
    uint8_t terms;  /* PTX_AFF_*: for AFFINE, the index terms of the value
                       (a branch: of its predicate); else 0                  */
    uint8_t addr;   /* ld, ldu, st, atom, red (not of a kernel parameter or
                       a fixed .const address): the class of the address
                       (UNIFORM/AFFINE: the access can be decoupled,
                       enq.data for a global or local load, enq.addr for
                       the others); NONE for other instructions            */
    uint8_t ctl;    /* enum ptx_actl                                        */
    uint8_t sel;    /* AFFINE value (or address, for an access) that is a
                       select p ? x : y of two uniform/affine values by an
                       affine predicate (selp, or min/max of an affine and
                       a uniform value; PTX_AFF_OPT_PRED): the
                       affine warp keeps both pieces and each thread's
                       choice, the AEU/PEU expand per thread             */
    uint8_t vec;    /* AFFINE value (or address, for an access) that is a
                       vector (PTX_AFF_OPT_VEC): an integer div/rem of an
                       affine or vector value by a uniform one, or an
                       affine operation with a vector operand; the affine
                       warp holds its concrete lanes per warp (paper
                       section 3's "concrete vector values")            */
};

/* Figures of one run (static: each instruction once). */
struct ptx_affine_stats {
    uint32_t ninsts;                   /* instructions of the function     */
    uint32_t nnone, nuniform, naffine, nnonaffine;   /* by class          */
    uint32_t nmem, nmem_affine;        /* memory accesses; with a UNIFORM or
                                          AFFINE address                   */
    uint32_t nload_gl, nload_gl_affine;/* global/local loads; decouplable
                                          (enq.data candidates)            */
    uint32_t nbranch, nbranch_affine;  /* conditional branches; on a
                                          UNIFORM or AFFINE predicate      */
    uint32_t passes;                   /* fixpoint passes over the blocks  */
};

/* Options of the analysis (the ablation of docs/results/dac.md turns them
 * off one by one; PTX_AFF_OPT_ALL is the paper's DAC, docs/dac.md).
 * PRED: predicates are the PEU's per-thread bit vectors (4.3): a boolean
 * combination (and/or/xor/not, setp with a predicate operand) of affine
 * or uniform predicates is an affine predicate, and so is one merged
 * under an affine guard or at the end of an affine region (the affine
 * warp merges the vectors under its masks); a selp on an affine
 * predicate between two uniform/affine integers is a select (sel), and so
 * is an integer min/max of an affine and a uniform value (the select by
 * their compare, 4.6), which
 * affine operations with uniform/affine operands keep, a compare with a
 * uniform turns into an affine predicate and an access can use as its
 * address (one select per operation). Without PRED, a combination of two
 * affine predicates, a selp on an affine one and a min/max of an affine
 * value are non-affine.
 * FEED: the masks of data-dependent branches are fed back from the main
 * warps (4.4), so the affine warp follows them: instructions under data
 * control keep the class their operands give (ctl still says DATA).
 * Without it, everything under data control is non-affine. */
#define PTX_AFF_OPT_PRED 0x1u
#define PTX_AFF_OPT_FEED 0x2u
/* VEC: an integer div/rem of an affine (or vector) value by a uniform one
 * is a vector (vec), and so is an affine operation (add/sub/neg, mul/mad
 * by a uniform, shl by a uniform, integer cvt, mov, selp on a uniform
 * predicate) with vector operands and otherwise uniform, affine or
 * select ones; a compare of a vector with a uniform is an affine
 * predicate; an access may use a vector as its address. Without VEC, a
 * div/rem of an affine value is non-affine. */
#define PTX_AFF_OPT_VEC  0x4u
#define PTX_AFF_OPT_ALL  (PTX_AFF_OPT_PRED | PTX_AFF_OPT_FEED | PTX_AFF_OPT_VEC)

/* Classifies every instruction of f (parsed, CFG built) into out[0..
 * ninsts-1] with options opts (PTX_AFF_OPT_*). Deterministic, no global
 * state; O(passes x (insts + blocks x registers)) time and 2 x blocks x
 * registers bytes. st may be NULL. Returns 0; or -1 with diag (naming the
 * function and its PTX line) when f has a body but no CFG, a register
 * index is out of range, or memory runs out. A function without a body
 * gives nothing (ninsts 0). */
int ptx_affine_analyse_opt(const struct ptx_func *f, struct ptx_affine_inst *out,
                           struct ptx_affine_stats *st, struct ptx_diag *diag,
                           unsigned opts);

/* ptx_affine_analyse_opt with every option (PTX_AFF_OPT_ALL). */
int ptx_affine_analyse(const struct ptx_func *f, struct ptx_affine_inst *out,
                       struct ptx_affine_stats *st, struct ptx_diag *diag);

/* "U", "A", "N" or "-" for a class. */
const char *ptx_acls_name(unsigned cls);

/* Writes terms as "tid.x+ctaid.x" ("" for none) into buf (n bytes, always
 * terminated); returns buf. */
char *ptx_affine_terms_str(char *buf, size_t n, unsigned terms);

#endif
