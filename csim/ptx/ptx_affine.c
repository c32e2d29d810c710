/* Affine classes (ptx_affine.h; docs/dac.md).
 *
 * State: two bytes per register (plus one state for the carry flag of .cc
 * ops): bits 0..5 the index terms (PTX_AFF_*), V_DEF set once a
 * definition reaches, V_NA for non-affine, V_SEL a select, V_VEC a
 * vector. Undefined is 0, uniform V_DEF, affine
 * V_DEF | terms. Join is bitwise OR (non-affine absorbs; terms unite), so
 * the lattice has finite height and the passes (blocks in reverse
 * postorder until no entry state changes) reach the fixpoint whatever the
 * loops carry.
 * Transfer (FLOW ops, ptx_dflow_src): all sources uniform gives uniform,
 * whatever the op (every thread computes the same function of the same
 * values). With an affine source: mov, cvta; add, sub, neg (integer,
 * no .sat: exact modulo 2^n); mul.lo/.wide, mad.lo/.wide with one factor
 * uniform; shl by a uniform amount; cvt between integer types without
 * .sat; setp on integers with one side uniform (an affine predicate the
 * predicate expansion unit expands); and/or/xor/not of predicates and
 * setp with a predicate operand (PRED: any number of affine operands,
 * the PEU combines the bit vectors; without it at most one); selp on a
 * uniform predicate. VEC: an integer div/rem of an affine value by a
 * uniform one is a vector (V_VEC), which those operations keep (with any
 * number of vector operands) and a compare with a uniform turns into an
 * affine predicate. Anything else on an affine source is non-affine, and
 * so is anything on a non-affine one.
 * ld.param of a kernel parameter and ld.const at a fixed address are
 * uniform; other DATA sources non-affine.
 * Guards: a non-affine guard makes the result non-affine; an affine guard
 * keeps the instruction affine (it runs under the expanded mask) but the
 * register then mixes old and new values across threads: non-affine
 * unless nothing reached it before, or (PRED) it is a predicate, whose
 * per-thread vector the affine warp merges under the mask; a uniform
 * guard joins old and new.
 * Control: a conditional branch on an affine predicate lets its region
 * stay affine (the paper's affine SIMT stack follows it); one on a
 * non-affine predicate makes every instruction of its region non-affine,
 * unless (FEED) the main warps feed its masks back to the affine warp,
 * which then follows it as an affine one (docs/dac.md). At the immediate
 * post-dominator of either, every register defined in the region becomes
 * non-affine (threads merge with different values); with PRED,
 * predicates keep their class (their vectors merge per thread). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/ptx_affine.h"
#include "ptx/ptx_cfg.h"
#include "ptx/ptx_dflow.h"

#define AFF_MAX_BYTES (1ull << 30)   /* register states of one function */

#define V_DEF 0x40u
#define V_NA  0x80u
#define V_SEL 0x100u     /* a select: p ? x : y with p an affine predicate
                            and x, y uniform or affine (4.6); one operand
                            of an affine operation at a time            */
#define V_VEC 0x200u     /* a vector: an integer div/rem of an affine value
                            by a uniform one, or what the affine
                            operations make of one (section 3's "concrete
                            vector values"): the affine warp holds its
                            lanes per warp                              */

typedef uint16_t aval;   /* a register's state                           */

struct aff {
    const struct ptx_func *f;
    const struct ptx_cfg *g;
    size_t width;        /* registers per state: nregs + 1 (the carry flag) */
    uint32_t cc;
    aval *in;         /* per block: state at entry                      */
    aval *gen;        /* per block: non-affine at entry from merges     */
    aval *cur;        /* the state carried through a block              */
    aval *defs;       /* scratch: the registers a looping region defines */
    uint8_t *dctl;       /* per block: under a data-dependent branch       */
    uint8_t *actl;       /* per block: under an affine branch              */
    uint8_t *applied;    /* per block: its branch's region applied (1 affine,
                            2 data)                                        */
    uint32_t *order, *stack, *mark, *region;
    uint32_t stamp;
    unsigned opts;       /* PTX_AFF_OPT_*                                  */
};

static bool is_na(aval v) { return (v & V_NA) != 0; }

static bool is_pred_reg(const struct aff *a, uint32_t r)
{
    return r < a->f->nregs && a->f->regs[r].type == PTX_T_PRED;
}
static bool is_aff(aval v) { return !is_na(v) && (v & (PTX_AFF_TERMS | V_SEL | V_VEC)); }
static bool is_sel(aval v) { return !is_na(v) && (v & V_SEL); }
static bool is_vec(aval v) { return !is_na(v) && (v & V_VEC); }

static aval sreg_value(unsigned sr)
{
    switch (sr) {
    case PTX_SR_TID_X: return V_DEF | PTX_AFF_TID_X;
    case PTX_SR_TID_Y: return V_DEF | PTX_AFF_TID_Y;
    case PTX_SR_TID_Z: return V_DEF | PTX_AFF_TID_Z;
    case PTX_SR_CTAID_X: return V_DEF | PTX_AFF_CTAID_X;
    case PTX_SR_CTAID_Y: return V_DEF | PTX_AFF_CTAID_Y;
    case PTX_SR_CTAID_Z: return V_DEF | PTX_AFF_CTAID_Z;
    case PTX_SR_NTID_X: case PTX_SR_NTID_Y: case PTX_SR_NTID_Z:
    case PTX_SR_NCTAID_X: case PTX_SR_NCTAID_Y: case PTX_SR_NCTAID_Z:
    case PTX_SR_NWARPID: case PTX_SR_NSMID: case PTX_SR_GRIDID:
    case PTX_SR_DYNAMIC_SMEM_SIZE: case PTX_SR_TOTAL_SMEM_SIZE:
        return V_DEF;
    default:             /* laneid, warpid (not linear in the ids), lane
                            masks, smid, clocks, timers, envregs */
        return V_NA;
    }
}

static aval opnd_value(const struct aff *a, const aval *s,
                          const struct ptx_operand *o)
{
    switch (o->kind) {
    case PTX_O_REG:
        return o->reg >= 0 ? s[o->reg] : V_DEF;
    case PTX_O_MEM:
        return o->reg >= 0 ? s[o->reg] : V_DEF;
    case PTX_O_VEC: {
        aval v = V_DEF;
        for (unsigned k = 0; k < o->vec_n && k < 4; k++)
            if (o->vec_regs[k] >= 0)
                v |= s[o->vec_regs[k]];
        /* a pack of several affine values is not one affine value */
        return is_aff(v) && o->vec_n > 1 ? V_NA : v;
    }
    case PTX_O_SREG:
        return sreg_value(o->sreg);
    default:
        (void)a;
        return V_DEF;    /* immediates, symbol/function addresses, labels */
    }
}

static bool int_type(unsigned t)
{
    return t != PTX_T_NONE && t != PTX_T_PRED && !ptx_type_is_float((enum ptx_type)t) &&
           t != PTX_T_F16X2;
}

/* Value of a*b when one factor is uniform. */
static aval product(aval x, aval y)
{
    if (is_aff(x) && is_aff(y))
        return V_NA;
    return x | y;
}

/* The value a FLOW instruction with a vector source writes (VEC; v: the
 * sources' join, src[]: each): the affine operations and a div/rem by a
 * uniform keep a vector (the affine warp computes it per lane from the
 * lanes of its sources, vectors, tuples or selects alike); a compare
 * with a uniform is an affine predicate (the PEU compares each lane);
 * anything else (a min/max, a selp on an affine predicate, a compare
 * with an affine value) is non-affine. */
static aval vector_op(const struct ptx_inst *in, const aval *src, unsigned nsrc, aval v,
                      bool pred)
{
    bool integer = int_type(in->type);
    bool sat = (in->flags & PTX_F_SAT) != 0;
    aval vec = (aval)((v & ~V_SEL) | V_VEC);
    switch ((enum ptx_op)in->op) {
    case PTX_OP_MOV:
        return vec;
    case PTX_OP_ADD: case PTX_OP_SUB:
        return integer && !sat ? vec : V_NA;
    case PTX_OP_NEG:
        return integer ? vec : V_NA;
    case PTX_OP_MUL:
        if (!integer || (in->flags & PTX_F_HI) || nsrc < 2 || is_na(product(src[0], src[1])))
            return V_NA;
        return vec;
    case PTX_OP_MAD:
        if (!integer || sat || (in->flags & PTX_F_HI) || nsrc < 3 ||
            is_na(product(src[0], src[1])))
            return V_NA;
        return vec;
    case PTX_OP_SHL:
        return nsrc >= 2 && !is_aff(src[1]) ? vec : V_NA;
    case PTX_OP_CVT:
        return integer && int_type(in->type2) && !sat && in->rnd == PTX_RND_NONE ? vec : V_NA;
    case PTX_OP_DIV: case PTX_OP_REM:
        return integer && nsrc >= 2 && !is_aff(src[1]) ? vec : V_NA;
    case PTX_OP_SELP:
        return nsrc >= 3 && !is_aff(src[2]) && integer ? vec : V_NA;
    case PTX_OP_SETP:
        if (!int_type(in->type2) || nsrc < 2 || (is_aff(src[0]) && is_aff(src[1])) ||
            (nsrc >= 3 && is_aff(src[2]) && !pred))
            return V_NA;
        return (aval)(v & ~(V_SEL | V_VEC));
    default:
        return V_NA;
    }
}

/* The value a FLOW instruction writes, given that some source is affine
 * and none non-affine (v: the sources' join, src[]: each). */
static aval affine_op(const struct aff *a, const struct ptx_inst *in, const aval *src,
                         unsigned nsrc, aval v)
{
    bool pred = (a->opts & PTX_AFF_OPT_PRED) != 0;
    bool integer = int_type(in->type);
    bool sat = (in->flags & PTX_F_SAT) != 0;
    unsigned nsel = 0;
    bool vec = false;
    for (unsigned i = 0; i < nsrc; i++) {
        nsel += is_sel(src[i]);
        vec |= is_vec(src[i]);
    }
    if (vec)
        return (a->opts & PTX_AFF_OPT_VEC) ? vector_op(in, src, nsrc, v, pred) : V_NA;
    if (nsel > 1)
        return V_NA;             /* two selects combined: four pieces */
    switch ((enum ptx_op)in->op) {
    case PTX_OP_MOV: case PTX_OP_CVTA:
        return v;
    case PTX_OP_ADD: case PTX_OP_SUB:
        return integer && !sat ? v : V_NA;
    case PTX_OP_NEG:
        return integer ? v : V_NA;
    case PTX_OP_MUL:
        if (!integer || (in->flags & PTX_F_HI) || nsrc < 2)
            return V_NA;
        return product(src[0], src[1]);
    case PTX_OP_MAD:
        if (!integer || sat || (in->flags & PTX_F_HI) || nsrc < 3)
            return V_NA;
        return product(src[0], src[1]) | src[2];
    case PTX_OP_SHL:
        return nsrc >= 2 && !is_aff(src[1]) ? src[0] : V_NA;
    case PTX_OP_CVT:
        return integer && int_type(in->type2) && !sat && in->rnd == PTX_RND_NONE
               ? v : V_NA;
    case PTX_OP_SETP: {           /* src: q hole skipped by caller: a, b, c */
        if (!int_type(in->type2) || nsrc < 2 || (is_aff(src[0]) && is_aff(src[1])))
            return V_NA;
        aval c = src[0] | src[1];
        if (nsrc >= 3 && is_aff(src[2]) && is_aff(c) && !pred)
            return V_NA;          /* two affine compares combined */
        /* a compare of a select: the PEU compares the piece of each lane */
        return (aval)((nsrc >= 3 ? c | src[2] : c) & ~V_SEL);
    }
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT: {
        if (in->type != PTX_T_PRED)
            return V_NA;
        unsigned naff = 0;
        for (unsigned i = 0; i < nsrc; i++)
            naff += is_aff(src[i]);
        return naff <= 1 || pred ? v : V_NA;
    }
    case PTX_OP_SELP:
        if (nsrc < 3)
            return V_NA;
        if (!is_aff(src[2]))
            return v;             /* a uniform predicate: one side for all */
        /* an affine predicate selects between two tuples per thread (4.6):
           a select, whose pieces the affine warp keeps apart */
        return pred && !nsel && integer ? (aval)(v | V_SEL) : V_NA;
    case PTX_OP_MIN: case PTX_OP_MAX: {
        /* min/max of an affine and a uniform value (4.6 names them): a
           select by their compare, which the PEU expands per thread */
        unsigned naff = 0;
        for (unsigned i = 0; i < nsrc; i++)
            naff += is_aff(src[i]);
        return pred && !nsel && integer && naff == 1 ? (aval)(v | V_SEL) : V_NA;
    }
    case PTX_OP_DIV: case PTX_OP_REM:
        /* of an affine value by a uniform one: no tuple is exact (the
           quotient steps where the thread index crosses a multiple of the
           divisor), so a vector the affine warp evaluates per lane
           (section 3) */
        return (a->opts & PTX_AFF_OPT_VEC) && integer && nsrc >= 2 && !is_aff(src[1])
               ? (aval)((v & ~V_SEL) | V_VEC) : V_NA;
    default:
        return V_NA;
    }
}

/* The value in (a FLOW/UNIFORM/DATA instruction) computes in state s. */
static aval value_of(const struct aff *a, const aval *s, const struct ptx_inst *in)
{
    switch (ptx_dflow_src(a->f, in)) {
    case PTX_DFLOW_DATA:
        return V_NA;
    case PTX_DFLOW_UNIFORM:
        return V_DEF;
    default:
        break;
    }
    unsigned ndst = ptx_inst_ndst(in);
    aval src[PTX_MAX_OPNDS], v = V_DEF;
    unsigned n = 0;
    for (unsigned i = ndst; i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
        if (in->o[i].kind == PTX_O_NONE)
            continue;
        src[n] = opnd_value(a, s, &in->o[i]);
        v |= src[n++];
    }
    if (ptx_dflow_reads_cc(in))
        v |= s[a->cc] | V_DEF;
    if (is_na(v))
        return V_NA;
    if (!is_aff(v))
        return V_DEF;
    return affine_op(a, in, src, n, v);
}

static bool is_mem_access(const struct ptx_inst *in)
{
    switch ((enum ptx_op)in->op) {
    case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_ST: case PTX_OP_ATOM: case PTX_OP_RED:
        return true;
    default:
        return false;
    }
}

static aval cls_of(aval v)
{
    if (is_na(v))
        return PTX_ACLS_NONAFFINE;
    return is_aff(v) ? PTX_ACLS_AFFINE : PTX_ACLS_UNIFORM;
}

struct def_ctx {
    const struct aff *a;
    aval *s;
    aval v;
    int mode;            /* 0 replace, 1 join, 2 mixed under an affine guard */
};

static void write_def(void *ctx, uint32_t r)
{
    struct def_ctx *d = ctx;
    aval old = d->s[r];
    if (d->mode == 0)
        d->s[r] = d->v;
    else if (d->mode == 1 || (d->a && (d->a->opts & PTX_AFF_OPT_PRED) && is_pred_reg(d->a, r)))
        d->s[r] = old | d->v;      /* a predicate's vector merges per thread */
    else
        d->s[r] = old ? (aval)(old | d->v | V_NA) : d->v;
}

/* Applies in to s; fills *res (the class record) when res is not NULL.
 * dctl: in's block is under a data-dependent branch. */
static void transfer(const struct aff *a, aval *s, const struct ptx_inst *in,
                     bool dctl_mark, struct ptx_affine_inst *res)
{
    /* under data control without feedback, nothing is affine */
    bool dctl = dctl_mark && !(a->opts & PTX_AFF_OPT_FEED);
    aval g = in->guard >= 0 ? s[in->guard] : V_DEF;
    enum ptx_op op = (enum ptx_op)in->op;
    struct ptx_affine_inst r = { PTX_ACLS_NONE, 0, PTX_ACLS_NONE, 0, 0, 0 };
    if (op == PTX_OP_BRA || op == PTX_OP_BRX) {
        aval v = g;
        if (op == PTX_OP_BRX)
            v |= opnd_value(a, s, &in->o[0]);
        if (dctl)
            v = V_NA;
        if (in->guard >= 0 || op == PTX_OP_BRX) {
            r.cls = cls_of(v);
            r.terms = r.cls == PTX_ACLS_AFFINE ? (v & PTX_AFF_TERMS) : 0;
        }
    } else {
        aval v = value_of(a, s, in);
        if (is_na(g) || dctl)
            v = V_NA;
        if (is_mem_access(in) && ptx_dflow_src(a->f, in) == PTX_DFLOW_DATA) {
            const struct ptx_operand *m = ptx_dflow_mem_opnd(in);
            aval av = m ? opnd_value(a, s, m) : V_NA;
            r.addr = (uint8_t)(dctl || is_na(g) ? PTX_ACLS_NONAFFINE : cls_of(av));
        }
        unsigned ndst = ptx_inst_ndst(in);
        bool writes = ndst > 0 || (in->flags & PTX_F_CC);
        if (is_mem_access(in) && ptx_dflow_src(a->f, in) == PTX_DFLOW_DATA) {
            const struct ptx_operand *m = ptx_dflow_mem_opnd(in);
            r.sel = m && !dctl && !is_na(g) && is_sel(opnd_value(a, s, m));
            r.vec = m && !dctl && !is_na(g) && is_vec(opnd_value(a, s, m));
        }
        if (writes || op == PTX_OP_CALL || is_mem_access(in)) {
            r.cls = cls_of(v);
            r.terms = r.cls == PTX_ACLS_AFFINE ? (v & PTX_AFF_TERMS) : 0;
            if (!is_mem_access(in)) {
                r.sel = is_sel(v);
                r.vec = is_vec(v);
            }
            if (is_mem_access(in) && ptx_dflow_src(a->f, in) == PTX_DFLOW_DATA)
                r.cls = PTX_ACLS_NONAFFINE, r.terms = 0;
        }
        struct def_ctx d = { a, s, v, 0 };
        if (in->guard >= 0)
            d.mode = is_aff(g) ? 2 : 1;
        for (unsigned i = 0; i < ndst && i < in->nopnd && i < PTX_MAX_OPNDS; i++)
            if (in->o[i].kind == PTX_O_REG && in->o[i].sel != 0)
                d.v |= V_NA;      /* a video op's byte-merge into d */
        ptx_dflow_defs(in, write_def, &d);
        if (in->flags & PTX_F_CC) {
            /* the carry out of an affine sum differs across threads */
            d.v = is_aff(v) ? V_NA : v;
            write_def(&d, a->cc);
        }
    }
    r.ctl = (uint8_t)(dctl_mark ? PTX_ACTL_DATA : PTX_ACTL_UNIFORM);
    if (res)
        *res = r;
}

struct mark_ctx {
    aval *s;
    bool changed;
    const struct aff *keep_pred;   /* predicates keep their class (PRED) */
};

static void mark_defs(void *ctx, uint32_t r)
{
    struct mark_ctx *m = ctx;
    if (m->keep_pred && is_pred_reg(m->keep_pred, r))
        return;
    m->changed |= m->s[r] != V_NA;
    m->s[r] = V_NA;
}

/* Whether the region of block b's branch (the n blocks of a->region) holds
 * b itself while b has two successors before its immediate post-dominator:
 * the two sides of the branch can then run different iterations of the
 * loop around it (the SIMT stack runs one side to the post-dominator, its
 * iterations included, before the other), so a register of the region
 * differs across threads anywhere in it. */
static bool region_loops(const struct aff *a, uint32_t b, uint32_t n)
{
    const struct ptx_block *bl = &a->g->blocks[b];
    unsigned sides = 0;
    for (uint32_t k = 0; k < bl->nsucc; k++)
        if (bl->succ[k] != bl->ipdom && (k == 0 || bl->succ[k] != bl->succ[0]))
            sides++;
    if (sides < 2)
        return false;
    for (uint32_t k = 0; k < n; k++)
        if (a->region[k] == b)
            return true;
    return false;
}

/* The registers defined in the n region blocks (a->defs) become non-affine
 * at the entry of each of them; predicates kept when keep is not NULL. */
static bool region_defs_na(struct aff *a, uint32_t n, const struct aff *keep)
{
    const struct ptx_cfg *g = a->g;
    bool changed = false;
    for (size_t w = 0; w < a->width; w++)
        a->defs[w] = 0;
    for (uint32_t k = 0; k < n; k++) {
        const struct ptx_block *bl = &g->blocks[a->region[k]];
        for (uint32_t pc = bl->first; pc < bl->end; pc++) {
            const struct ptx_inst *in = &a->f->insts[pc];
            struct mark_ctx m = { a->defs, false, keep };
            ptx_dflow_defs(in, mark_defs, &m);
            if (in->flags & PTX_F_CC)
                mark_defs(&m, a->cc);
        }
    }
    for (uint32_t k = 0; k < n; k++) {
        aval *gx = a->gen + (size_t)a->region[k] * a->width;
        for (size_t w = 0; w < a->width; w++)
            if (a->defs[w] && gx[w] != V_NA) {
                gx[w] = V_NA;
                changed = true;
            }
    }
    return changed;
}

/* Block b ends in a branch of level lvl (1: affine, 2: non-affine): marks
 * its region (control) and makes the registers defined in it non-affine
 * at its immediate post-dominator, and everywhere in the region when the
 * region loops back to b (region_loops). Returns true when anything
 * changed. */
static bool apply_region(struct aff *a, uint32_t b, uint8_t lvl)
{
    const struct ptx_cfg *g = a->g;
    uint32_t n = ptx_dflow_region(g, b, a->mark, ++a->stamp, a->stack, a->region);
    int32_t j = g->blocks[b].ipdom;
    bool merge = j >= 0 && (uint32_t)j < g->nblocks;
    aval *gj = merge ? a->gen + (size_t)j * a->width : NULL;
    bool changed = false;
    /* the affine warp runs the region (affine, or data with the masks fed
     * back): per-thread predicate vectors merge exactly at the join */
    bool runs = lvl == 1 || (a->opts & PTX_AFF_OPT_FEED);
    const struct aff *keep = runs && (a->opts & PTX_AFF_OPT_PRED) ? a : NULL;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t x = a->region[k];
        uint8_t *flag = lvl == 2 ? &a->dctl[x] : &a->actl[x];
        changed |= !*flag;
        *flag = 1;
        if (!merge)
            continue;
        const struct ptx_block *bl = &g->blocks[x];
        for (uint32_t pc = bl->first; pc < bl->end; pc++) {
            const struct ptx_inst *in = &a->f->insts[pc];
            struct mark_ctx m = { gj, false, keep };
            ptx_dflow_defs(in, mark_defs, &m);
            if (in->flags & PTX_F_CC)
                mark_defs(&m, a->cc);
            changed |= m.changed;
        }
    }
    if (runs && region_loops(a, b, n))
        changed |= region_defs_na(a, n, keep);
    return changed;
}

static int fail(struct ptx_diag *diag, const struct ptx_func *f, const char *why)
{
    if (diag) {
        snprintf(diag->msg, sizeof diag->msg, "function %s (line %u): affine "
                 "analysis: %s", f->name ? f->name : "?", f->line, why);
        diag->line = f->line;
        diag->col = 0;
    }
    return -1;
}

static void aff_free(struct aff *a)
{
    free(a->in);
    free(a->gen);
    free(a->cur);
    free(a->defs);
    free(a->dctl);
    free(a->actl);
    free(a->applied);
    free(a->order);
    free(a->stack);
    free(a->mark);
    free(a->region);
}

static bool regs_in_range(const struct ptx_func *f)
{
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        const struct ptx_inst *in = &f->insts[pc];
        if (in->guard >= (int32_t)f->nregs)
            return false;
        for (unsigned i = 0; i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
            const struct ptx_operand *o = &in->o[i];
            if ((o->kind == PTX_O_REG || o->kind == PTX_O_MEM) && o->reg >= (int32_t)f->nregs)
                return false;
            if (o->kind == PTX_O_VEC)
                for (unsigned k = 0; k < o->vec_n && k < 4; k++)
                    if (o->vec_regs[k] >= (int32_t)f->nregs)
                        return false;
        }
    }
    return true;
}

static void count(const struct ptx_func *f, const struct ptx_affine_inst *out,
                  struct ptx_affine_stats *st)
{
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        const struct ptx_inst *in = &f->insts[pc];
        const struct ptx_affine_inst *r = &out[pc];
        st->ninsts++;
        st->nnone += r->cls == PTX_ACLS_NONE;
        st->nuniform += r->cls == PTX_ACLS_UNIFORM;
        st->naffine += r->cls == PTX_ACLS_AFFINE;
        st->nnonaffine += r->cls == PTX_ACLS_NONAFFINE;
        bool dec = r->addr == PTX_ACLS_UNIFORM || r->addr == PTX_ACLS_AFFINE;
        if (r->addr != PTX_ACLS_NONE) {
            st->nmem++;
            st->nmem_affine += dec;
            if (in->op == PTX_OP_LD && (in->space == PTX_SP_GLOBAL ||
                                        in->space == PTX_SP_LOCAL)) {
                st->nload_gl++;
                st->nload_gl_affine += dec;
            }
        }
        if ((in->op == PTX_OP_BRA && in->guard >= 0) || in->op == PTX_OP_BRX) {
            st->nbranch++;
            st->nbranch_affine += r->cls == PTX_ACLS_UNIFORM || r->cls == PTX_ACLS_AFFINE;
        }
    }
}

int ptx_affine_analyse(const struct ptx_func *f, struct ptx_affine_inst *out,
                       struct ptx_affine_stats *st, struct ptx_diag *diag)
{
    return ptx_affine_analyse_opt(f, out, st, diag, PTX_AFF_OPT_ALL);
}

int ptx_affine_analyse_opt(const struct ptx_func *f, struct ptx_affine_inst *out,
                           struct ptx_affine_stats *st, struct ptx_diag *diag,
                           unsigned opts)
{
    struct ptx_affine_stats dummy;
    if (!st)
        st = &dummy;
    memset(st, 0, sizeof *st);
    if (!f->has_body || !f->ninsts)
        return 0;
    memset(out, 0, (size_t)f->ninsts * sizeof *out);
    if (!f->cfg || !f->cfg->nblocks)
        return fail(diag, f, "no control-flow graph (ptx_cfg_build not run)");
    if (!regs_in_range(f))
        return fail(diag, f, "a register index out of range");
    struct aff a;
    memset(&a, 0, sizeof a);
    a.f = f;
    a.g = f->cfg;
    a.opts = opts;
    a.cc = f->nregs;
    a.width = (size_t)f->nregs + 1;
    uint32_t nb = a.g->nblocks;
    uint64_t bytes = 2ull * nb * a.width * sizeof(aval);
    if (bytes > AFF_MAX_BYTES) {
        char why[160];
        snprintf(why, sizeof why, "%u blocks x %u registers need %llu MiB of register "
                 "states (limit %llu MiB)", nb, f->nregs,
                 (unsigned long long)(bytes >> 20),
                 (unsigned long long)(AFF_MAX_BYTES >> 20));
        return fail(diag, f, why);
    }
    a.in = calloc((size_t)nb * a.width, sizeof(aval));
    a.gen = calloc((size_t)nb * a.width, sizeof(aval));
    a.cur = malloc(a.width * sizeof(aval));
    a.defs = malloc(a.width * sizeof(aval));
    a.dctl = calloc(nb, 1);
    a.actl = calloc(nb, 1);
    a.applied = calloc(nb, 1);
    a.order = malloc((size_t)nb * sizeof *a.order);
    a.stack = malloc(((size_t)nb + 1) * sizeof *a.stack);
    a.mark = calloc(nb, sizeof *a.mark);
    a.region = malloc((size_t)nb * sizeof *a.region);
    if (!a.in || !a.gen || !a.cur || !a.defs || !a.dctl || !a.actl || !a.applied || !a.order ||
        !a.stack || !a.mark || !a.region) {
        aff_free(&a);
        return fail(diag, f, "out of memory");
    }
    ptx_dflow_rpo(a.g, a.order, a.mark, a.stack);
    bool changed = true;
    while (changed) {
        changed = false;
        st->passes++;
        for (uint32_t k = 0; k < nb; k++) {
            uint32_t b = a.order[k];
            const struct ptx_block *bl = &a.g->blocks[b];
            const aval *ib = a.in + (size_t)b * a.width;
            const aval *gb = a.gen + (size_t)b * a.width;
            for (size_t w = 0; w < a.width; w++)
                a.cur[w] = ib[w] | gb[w];
            for (uint32_t pc = bl->first; pc < bl->end; pc++) {
                const struct ptx_inst *in = &f->insts[pc];
                transfer(&a, a.cur, in, a.dctl[b] != 0, &out[pc]);
                if (in->op != PTX_OP_BRA && in->op != PTX_OP_BRX)
                    continue;
                uint8_t c = out[pc].cls;
                uint8_t lvl = c == PTX_ACLS_NONAFFINE ? 2 : c == PTX_ACLS_AFFINE ? 1 : 0;
                if (lvl > a.applied[b]) {
                    a.applied[b] = lvl;
                    changed |= apply_region(&a, b, lvl);
                }
            }
            for (uint32_t s = 0; s < bl->nsucc; s++) {
                int32_t x = bl->succ[s];
                if (x < 0 || (uint32_t)x >= nb)
                    continue;
                aval *ix = a.in + (size_t)x * a.width;
                for (size_t w = 0; w < a.width; w++) {
                    aval nv = ix[w] | a.cur[w];
                    changed |= nv != ix[w];
                    ix[w] = nv;
                }
            }
        }
    }
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        uint32_t b = a.g->block_of[pc];
        if (out[pc].ctl == PTX_ACTL_UNIFORM && a.actl[b])
            out[pc].ctl = PTX_ACTL_AFFINE;
    }
    count(f, out, st);
    aff_free(&a);
    return 0;
}

const char *ptx_acls_name(unsigned cls)
{
    switch (cls) {
    case PTX_ACLS_UNIFORM: return "U";
    case PTX_ACLS_AFFINE: return "A";
    case PTX_ACLS_NONAFFINE: return "N";
    default: return "-";
    }
}

char *ptx_affine_terms_str(char *buf, size_t n, unsigned terms)
{
    static const char *const name[6] = { "tid.x", "tid.y", "tid.z",
                                         "ctaid.x", "ctaid.y", "ctaid.z" };
    size_t k = 0;
    if (!n)
        return buf;
    buf[0] = 0;
    for (unsigned i = 0; i < 6; i++) {
        if (!(terms & (1u << i)))
            continue;
        int w = snprintf(buf + k, n - k, "%s%s", k ? "+" : "", name[i]);
        if (w < 0 || (size_t)w >= n - k)
            break;
        k += (size_t)w;
    }
    return buf;
}
