/* Branch classes by taint analysis (ptx_taint.h; docs/branch-classes.md).
 *
 * State: one bit per register (plus one for the carry flag of .cc ops),
 * set when the register may hold a D value at that point. Bottom is "no
 * bit": a register no definition reaches holds nothing data-dependent.
 * Transfer, per instruction: the value it writes is D when its op is a
 * data source (loads other than kernel parameters and fixed constant
 * addresses, atomics, textures, surfaces, warp collectives: every op
 * outside the ALU and SFU units), or when any source operand (a clock,
 * %smid) or its guard predicate is D. An unguarded write
 * replaces the register's bit (an immediate clears the taint, Fig 4.20
 * line 9); a guarded one (and a video op's byte-merge into d) joins it.
 * Join at block entry: OR over predecessors. The passes walk the blocks in
 * reverse postorder until no entry set changes (loop-carried definitions
 * need one pass per loop level, plus one to see nothing changes).
 * Control (PTX_TAINT_CONTROL): when a block's branch is D, every register
 * defined in the blocks reachable from it before its immediate
 * post-dominator is OR-ed into that post-dominator's entry set; monotone,
 * so the same passes reach the fixpoint. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/ptx_cfg.h"
#include "ptx/ptx_dflow.h"
#include "ptx/ptx_taint.h"

#define TAINT_MAX_BYTES (1ull << 30)   /* register sets of one function */

struct taint {
    const struct ptx_func *f;
    const struct ptx_cfg *g;
    size_t words;        /* uint64_t per register set                       */
    uint32_t cc;         /* register index standing for the carry flag
                            (= nregs)                                       */
    uint32_t *map;       /* register index (0..nregs) -> its bit: only the
                            registers some instruction names get one       */
    uint64_t *in;        /* per block: D registers at entry                 */
    uint64_t *gen;       /* control: per block, D at entry from D-branches  */
    uint64_t *cur;       /* the set being carried through a block           */
    uint32_t *order;     /* blocks: reverse postorder, then unreachable ones */
    uint32_t *stack;     /* DFS / region work list (nblocks + 1 entries)    */
    uint32_t *mark;      /* per block: DFS state or region stamp            */
    uint32_t *region;    /* control: the blocks of one branch's region      */
    uint8_t *applied;    /* control: per block, its D-branch's region merged */
    uint32_t stamp;
};

static bool tbit(const struct taint *t, const uint64_t *s, uint32_t r)
{
    uint32_t b = t->map[r];
    return (s[b >> 6] >> (b & 63)) & 1u;
}

static void tset(const struct taint *t, uint64_t *s, uint32_t r, bool v, bool join)
{
    uint32_t b = t->map[r];
    uint64_t m = 1ull << (b & 63);
    if (v)
        s[b >> 6] |= m;
    else if (!join)
        s[b >> 6] &= ~m;
}

static uint64_t *set_of(const struct taint *t, uint64_t *base, uint32_t b)
{
    return base + (size_t)b * t->words;
}

/* Whether operand o reads a D value in state s (a MEM operand: its base
 * register, the address). */
static bool opnd_is_d(const struct taint *t, const uint64_t *s,
                      const struct ptx_operand *o)
{
    switch (o->kind) {
    case PTX_O_REG: case PTX_O_MEM:
        return o->reg >= 0 && tbit(t, s, (uint32_t)o->reg);
    case PTX_O_VEC:
        for (unsigned k = 0; k < o->vec_n && k < 4; k++)
            if (o->vec_regs[k] >= 0 && tbit(t, s, (uint32_t)o->vec_regs[k]))
                return true;
        return false;
    case PTX_O_SREG:
        return ptx_dflow_sreg_is_data(o->sreg);
    default:
        return false;        /* immediates, symbol/function addresses, labels,
                                call arguments (.param symbols) */
    }
}

/* The class the branch in would get in state s (in is a bra or brx). */
static uint8_t branch_class(const struct taint *t, const uint64_t *s,
                            const struct ptx_inst *in)
{
    bool d = in->guard >= 0 && tbit(t, s, (uint32_t)in->guard);
    if (in->op == PTX_OP_BRX)
        d = d || opnd_is_d(t, s, &in->o[0]);
    else if (in->guard < 0)
        return PTX_BCLS_NONE;
    return d ? PTX_BCLS_D : PTX_BCLS_P;
}

/* Applies in to s (its D registers before in, after it on return). */
static void transfer(const struct taint *t, uint64_t *s, const struct ptx_inst *in)
{
    unsigned ndst = ptx_inst_ndst(in);
    bool guarded = in->guard >= 0;
    bool d;
    switch (ptx_dflow_src(t->f, in)) {
    case PTX_DFLOW_DATA:
        d = true;
        break;
    case PTX_DFLOW_UNIFORM:
        d = false;
        break;
    default:
        d = ptx_dflow_reads_cc(in) && tbit(t, s, t->cc);
        for (unsigned i = ndst; i < in->nopnd && i < PTX_MAX_OPNDS && !d; i++)
            d = opnd_is_d(t, s, &in->o[i]);
        break;
    }
    if (guarded && tbit(t, s, (uint32_t)in->guard))
        d = true;
    for (unsigned i = 0; i < ndst && i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
        const struct ptx_operand *o = &in->o[i];
        if (o->kind == PTX_O_REG && o->reg >= 0)
            tset(t, s, (uint32_t)o->reg, d, guarded || o->sel != 0);
        else if (o->kind == PTX_O_VEC)
            for (unsigned k = 0; k < o->vec_n && k < 4; k++)
                if (o->vec_regs[k] >= 0)
                    tset(t, s, (uint32_t)o->vec_regs[k], d, guarded);
    }
    if (in->flags & PTX_F_CC)
        tset(t, s, t->cc, d, guarded);
}

/* ORs into s every register an instruction of block b writes. */
static void defs_of_block(const struct taint *t, uint64_t *s, uint32_t b)
{
    const struct ptx_block *bl = &t->g->blocks[b];
    for (uint32_t pc = bl->first; pc < bl->end; pc++) {
        const struct ptx_inst *in = &t->f->insts[pc];
        unsigned ndst = ptx_inst_ndst(in);
        for (unsigned i = 0; i < ndst && i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
            const struct ptx_operand *o = &in->o[i];
            if (o->kind == PTX_O_REG && o->reg >= 0)
                tset(t, s, (uint32_t)o->reg, true, true);
            else if (o->kind == PTX_O_VEC)
                for (unsigned k = 0; k < o->vec_n && k < 4; k++)
                    if (o->vec_regs[k] >= 0)
                        tset(t, s, (uint32_t)o->vec_regs[k], true, true);
        }
        if (in->flags & PTX_F_CC)
            tset(t, s, t->cc, true, true);
    }
}

/* Control dependence of block b's D-branch: ORs the registers defined in
 * the blocks reachable from b before its immediate post-dominator j into
 * gen[j]. Returns true when gen[j] gained a register. */
static bool merge_region(struct taint *t, uint32_t b, uint64_t *scratch)
{
    const struct ptx_cfg *g = t->g;
    int32_t j = g->blocks[b].ipdom;
    if (j < 0 || (uint32_t)j >= g->nblocks)
        return false;                 /* no merge: the paths end the thread */
    memset(scratch, 0, t->words * sizeof *scratch);
    uint32_t n = ptx_dflow_region(g, b, t->mark, ++t->stamp, t->stack, t->region);
    for (uint32_t k = 0; k < n; k++)
        defs_of_block(t, scratch, t->region[k]);
    uint64_t *gj = set_of(t, t->gen, (uint32_t)j);
    bool grew = false;
    for (size_t w = 0; w < t->words; w++) {
        uint64_t nv = gj[w] | scratch[w];
        grew |= nv != gj[w];
        gj[w] = nv;
    }
    return grew;
}

static int map_reg(struct taint *t, int32_t r, uint32_t *n)
{
    if (r < 0)
        return 0;
    if ((uint32_t)r >= t->f->nregs)
        return -1;
    if (t->map[r] == UINT32_MAX)
        t->map[r] = (*n)++;
    return 0;
}

/* Gives every register an instruction names (operand, address base,
 * vector element, guard) a bit, and the carry flag the next one. Returns
 * the number of bits, or -1 for a register index out of range. */
static int64_t make_map(struct taint *t)
{
    const struct ptx_func *f = t->f;
    uint32_t n = 0;
    for (uint32_t r = 0; r <= f->nregs; r++)
        t->map[r] = UINT32_MAX;
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        const struct ptx_inst *in = &f->insts[pc];
        if (map_reg(t, in->guard, &n))
            return -1;
        for (unsigned i = 0; i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
            const struct ptx_operand *o = &in->o[i];
            if ((o->kind == PTX_O_REG || o->kind == PTX_O_MEM) && map_reg(t, o->reg, &n))
                return -1;
            if (o->kind == PTX_O_VEC)
                for (unsigned k = 0; k < o->vec_n && k < 4; k++)
                    if (map_reg(t, o->vec_regs[k], &n))
                        return -1;
        }
    }
    t->map[t->cc] = n++;
    return n;
}

static int fail(struct ptx_diag *diag, const struct ptx_func *f, const char *why)
{
    if (diag) {
        snprintf(diag->msg, sizeof diag->msg, "function %s (line %u): branch taint "
                 "analysis: %s", f->name ? f->name : "?", f->line, why);
        diag->line = f->line;
        diag->col = 0;
    }
    return -1;
}

static void taint_free(struct taint *t)
{
    free(t->in);
    free(t->gen);
    free(t->cur);
    free(t->order);
    free(t->stack);
    free(t->mark);
    free(t->region);
    free(t->applied);
    free(t->map);
}

int ptx_taint_branches(const struct ptx_func *f, unsigned flags, uint8_t *cls,
                       struct ptx_taint_stats *st, struct ptx_diag *diag)
{
    struct ptx_taint_stats dummy;
    if (!st)
        st = &dummy;
    memset(st, 0, sizeof *st);
    if (f->ninsts)
        memset(cls, PTX_BCLS_NONE, f->ninsts);
    if (!f->has_body || !f->ninsts)
        return 0;
    if (!f->cfg || !f->cfg->nblocks)
        return fail(diag, f, "no control-flow graph (ptx_cfg_build not run)");
    struct taint t;
    memset(&t, 0, sizeof t);
    t.f = f;
    t.g = f->cfg;
    t.cc = f->nregs;
    t.map = malloc(((size_t)f->nregs + 1) * sizeof *t.map);
    if (!t.map)
        return fail(diag, f, "out of memory");
    int64_t nbits = make_map(&t);
    if (nbits < 0) {
        taint_free(&t);
        return fail(diag, f, "a register index out of range");
    }
    t.words = ((size_t)nbits + 63) / 64;
    uint32_t nb = t.g->nblocks;
    bool control = (flags & PTX_TAINT_CONTROL) != 0;
    uint64_t bytes = (uint64_t)nb * t.words * 8u * (control ? 2u : 1u);
    if (bytes > TAINT_MAX_BYTES) {
        char why[160];
        taint_free(&t);
        snprintf(why, sizeof why, "%u blocks x %lld registers need %llu MiB of "
                 "register sets (limit %llu MiB)", nb, (long long)nbits - 1,
                 (unsigned long long)(bytes >> 20),
                 (unsigned long long)(TAINT_MAX_BYTES >> 20));
        return fail(diag, f, why);
    }
    t.in = calloc((size_t)nb * t.words, sizeof *t.in);
    t.cur = calloc(t.words * 2, sizeof *t.cur);      /* cur, then scratch */
    t.order = malloc((size_t)nb * sizeof *t.order);
    t.stack = malloc(((size_t)nb + 1) * sizeof *t.stack);
    t.mark = calloc(nb, sizeof *t.mark);
    if (control) {
        t.gen = calloc((size_t)nb * t.words, sizeof *t.gen);
        t.applied = calloc(nb, 1);
        t.region = malloc((size_t)nb * sizeof *t.region);
    }
    if (!t.in || !t.cur || !t.order || !t.stack || !t.mark ||
        (control && (!t.gen || !t.applied || !t.region))) {
        taint_free(&t);
        return fail(diag, f, "out of memory");
    }
    ptx_dflow_rpo(t.g, t.order, t.mark, t.stack);
    uint64_t *scratch = t.cur + t.words;
    bool changed = true;
    while (changed) {
        changed = false;
        st->passes++;
        for (uint32_t k = 0; k < nb; k++) {
            uint32_t b = t.order[k];
            const struct ptx_block *bl = &t.g->blocks[b];
            memcpy(t.cur, set_of(&t, t.in, b), t.words * sizeof *t.cur);
            if (control) {
                const uint64_t *gb = set_of(&t, t.gen, b);
                for (size_t w = 0; w < t.words; w++)
                    t.cur[w] |= gb[w];
            }
            for (uint32_t pc = bl->first; pc < bl->end; pc++) {
                const struct ptx_inst *in = &f->insts[pc];
                if (in->op == PTX_OP_BRA || in->op == PTX_OP_BRX) {
                    cls[pc] = branch_class(&t, t.cur, in);
                    if (control && cls[pc] == PTX_BCLS_D && !t.applied[b]) {
                        t.applied[b] = 1;
                        changed |= merge_region(&t, b, scratch);
                    }
                }
                transfer(&t, t.cur, in);
            }
            for (uint32_t s = 0; s < bl->nsucc; s++) {
                int32_t x = bl->succ[s];
                if (x < 0 || (uint32_t)x >= nb)
                    continue;
                uint64_t *ix = set_of(&t, t.in, (uint32_t)x);
                for (size_t w = 0; w < t.words; w++) {
                    uint64_t nv = ix[w] | t.cur[w];
                    changed |= nv != ix[w];
                    ix[w] = nv;
                }
            }
        }
    }
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        if (cls[pc] == PTX_BCLS_NONE)
            continue;
        st->nbranch++;
        if (cls[pc] == PTX_BCLS_P)
            st->np++;
        else
            st->nd++;
    }
    taint_free(&t);
    return 0;
}

const char *ptx_bcls_name(unsigned cls)
{
    return cls == PTX_BCLS_P ? "P" : cls == PTX_BCLS_D ? "D" : "-";
}
