/* The decoupling transform (ptx_dac.h; docs/dac.md "The transform").
 *
 * Roles, per instruction, from the affine classes:
 *  - a conditional branch on a non-affine predicate is fed back (MASK:
 *    both streams, the main warps send their masks, the affine warp waits
 *    for them and follows) when feedback is on and its region holds
 *    something the affine stream needs (found by iterating: every such
 *    branch starts fed; one whose region the closures leave without an
 *    affine-stream instruction is unfed and the roles built again);
 *  - in the region of a branch that is not fed (feedback off, a data brx,
 *    a region with a guarded ret/exit): main stream only, skipped by the
 *    affine stream, and so is that branch; each records where the affine
 *    stream goes on (set_resume: up the post-dominator chain to a block
 *    outside such regions);
 *  - a load/store/atom/red with a U/A address: both streams, enq.data for
 *    a .global/.local ld/ldu (enq.addr when a barrier under data control
 *    reaches it, or, for .local, a write that may hit local memory; a
 *    .global one that a global write may precede is marked after_wr),
 *    enq.addr for the rest;
 *  - a conditional bra on a U/A predicate: both, enq.pred;
 *  - unconditional bra, ret, exit, bar/barrier, brx on a U/A index: both
 *    (the same control in each stream; barriers in both, Fig 7);
 *  - everything else: main, unless the affine stream needs it.
 * The affine stream is the backward slice, over reaching definitions,
 * of the enq operands and of the operands of the control it holds; every
 * definition in it must be a U/A instruction outside data control. An
 * instruction of the slice stays in the main stream when a main-stream
 * instruction reads it through any reaching definition (fixpoint), with
 * the operands replaced by deq not counted as reads.
 * Non-entry functions keep everything in the main stream; so does a
 * kernel with a guarded ret/exit outside data control (the affine warp
 * could not tell which threads left), or one whose data-control regions
 * have no single place for the affine stream to go on. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/ptx_cfg.h"
#include "ptx/ptx_dac.h"
#include "ptx/ptx_dflow.h"

struct need { uint32_t reg, pc, blk; };  /* reg's value just before pc, in blk */

struct dac {
    const struct ptx_func *f;
    const struct ptx_cfg *g;
    const struct ptx_affine_inst *aff;
    struct ptx_dac_inst *out;
    uint32_t nregs;                  /* + 1: the carry flag is nregs        */
    uint32_t *npred, **pred;         /* predecessor lists per block         */
    uint32_t *predbuf;
    uint8_t *seen;                   /* (reg, block) searched, one closure  */
    struct need *work;
    size_t nwork, capwork;
    int err;                         /* 1: out of memory; 2: bad definition */
    uint32_t badpc;
    const uint8_t *skipb;            /* per block: the affine stream skips it
                                        (under a data branch not fed back) */
    const uint8_t *fed;              /* per pc: a data branch fed back     */
    bool feed;                       /* PTX_DAC_OPT_FEED                    */
    bool feed_data;                  /* PTX_DAC_OPT_FEED_DATA               */
};

static bool is_access(const struct ptx_inst *in)
{
    switch ((enum ptx_op)in->op) {
    case PTX_OP_LD: case PTX_OP_LDU: case PTX_OP_ST: case PTX_OP_ATOM: case PTX_OP_RED:
        return true;
    default:
        return false;
    }
}

static bool is_ua(uint8_t cls)
{
    return cls == PTX_ACLS_UNIFORM || cls == PTX_ACLS_AFFINE;
}

static bool is_cond_bra(const struct ptx_inst *in)
{
    return in->op == PTX_OP_BRA && in->guard >= 0;
}

static bool is_gl_load(const struct ptx_inst *in)
{
    return (in->op == PTX_OP_LD || in->op == PTX_OP_LDU) &&
           (in->space == PTX_SP_GLOBAL || in->space == PTX_SP_LOCAL);
}

/* Control and barriers both streams keep as they are. */
static bool is_shared_ctl(const struct ptx_inst *in)
{
    switch ((enum ptx_op)in->op) {
    case PTX_OP_BRA: return in->guard < 0;
    case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_BAR: case PTX_OP_BARRIER:
    case PTX_OP_BRX:
        return true;
    default:
        return false;
    }
}

/* ---- reaching definitions ------------------------------------------------ */

struct def_probe { uint32_t reg; bool hit; };

static void probe(void *ctx, uint32_t r)
{
    struct def_probe *p = ctx;
    p->hit |= r == p->reg;
}

static bool defines(const struct dac *d, const struct ptx_inst *in, uint32_t reg)
{
    if (reg == d->nregs)
        return (in->flags & PTX_F_CC) != 0;
    struct def_probe p = { reg, false };
    ptx_dflow_defs(in, probe, &p);
    return p.hit;
}

static void push_at(struct dac *d, uint32_t reg, uint32_t pc, uint32_t blk)
{
    if (d->err)
        return;
    if (d->nwork == d->capwork) {
        size_t cap = d->capwork ? 2 * d->capwork : 64;
        struct need *w = realloc(d->work, cap * sizeof *w);
        if (!w) {
            d->err = 1;
            return;
        }
        d->work = w;
        d->capwork = cap;
    }
    d->work[d->nwork].reg = reg;
    d->work[d->nwork].pc = pc;
    d->work[d->nwork++].blk = blk;
}

/* reg's value just before instruction pc. */
static void push(struct dac *d, uint32_t reg, uint32_t pc)
{
    push_at(d, reg, pc, d->g->block_of[pc]);
}

/* Calls fn(d, def) for every definition of reg reaching pc, once per
 * closure at most per (reg, block) tail. */
static void reach(struct dac *d, uint32_t reg, uint32_t pc, uint32_t b,
                  void (*fn)(struct dac *d, uint32_t def))
{
    const struct ptx_cfg *g = d->g;
    uint32_t first = g->blocks[b].first;
    for (uint32_t k = pc; k > first; k--) {
        const struct ptx_inst *in = &d->f->insts[k - 1];
        if (!defines(d, in, reg))
            continue;
        fn(d, k - 1);
        if (in->guard < 0)
            return;                  /* an unguarded definition kills        */
    }
    for (uint32_t i = 0; i < d->npred[b]; i++) {
        uint32_t p = d->pred[b][i];
        size_t bit = (size_t)reg * g->nblocks + p;
        if (d->seen[bit >> 3] & (1u << (bit & 7)))
            continue;
        d->seen[bit >> 3] |= (uint8_t)(1u << (bit & 7));
        push_at(d, reg, g->blocks[p].end, p);
    }
}

/* ---- what each stream reads ---------------------------------------------- */

/* Pushes the registers in reads in stream bit (PTX_DAC_S_*) before pc. */
static void push_reads(struct dac *d, uint32_t pc, uint8_t bit)
{
    const struct ptx_inst *in = &d->f->insts[pc];
    const struct ptx_dac_inst *r = &d->out[pc];
    bool deq_mem = bit == PTX_DAC_S_MAIN && (r->q == PTX_DAC_Q_DATA || r->q == PTX_DAC_Q_ADDR);
    bool deq_pred = bit == PTX_DAC_S_MAIN && r->q == PTX_DAC_Q_PRED;
    bool enq_only = bit == PTX_DAC_S_AFF && r->q != PTX_DAC_Q_NONE;
    if (bit == PTX_DAC_S_AFF && r->q == PTX_DAC_Q_MASK)
        return;                      /* recv.mask: the masks come from the
                                        main warps                         */
    if (in->guard >= 0 && !deq_pred)
        push(d, (uint32_t)in->guard, pc);
    if (enq_only) {                  /* the enq reads the address (or the
                                        predicate: the guard, above)       */
        const struct ptx_operand *m = ptx_dflow_mem_opnd(in);
        if (r->q != PTX_DAC_Q_PRED && m && m->reg >= 0)
            push(d, (uint32_t)m->reg, pc);
        return;
    }
    /* the affine warp's copy of a barrier marks a place in the stream and
       holds nothing back (core_dac.c): it reads none of its operands (a
       barrier id or thread count, bar.red's predicate, bar.warp.sync's
       member mask); the affine stream computes only what the decoupled
       addresses and predicates need (the DAC paper, section 4.1) */
    if (bit == PTX_DAC_S_AFF && (in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER))
        return;
    unsigned ndst = ptx_inst_ndst(in);
    for (unsigned i = 0; i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
        const struct ptx_operand *o = &in->o[i];
        if (i < ndst && !(o->kind == PTX_O_REG && o->sel != 0))
            continue;                /* a destination (a video merge reads it) */
        if (o->kind == PTX_O_REG && o->reg >= 0)
            push(d, (uint32_t)o->reg, pc);
        else if (o->kind == PTX_O_MEM && o->reg >= 0 && !deq_mem)
            push(d, (uint32_t)o->reg, pc);
        else if (o->kind == PTX_O_VEC)
            for (unsigned k = 0; k < o->vec_n && k < 4; k++)
                if (o->vec_regs[k] >= 0)
                    push(d, (uint32_t)o->vec_regs[k], pc);
    }
    if (ptx_dflow_reads_cc(in))
        push(d, d->nregs, pc);
}

/* A definition the affine stream needs: it joins the stream. */
static void take_aff(struct dac *d, uint32_t def)
{
    struct ptx_dac_inst *r = &d->out[def];
    if (r->streams & PTX_DAC_S_AFF)
        return;
    const struct ptx_affine_inst *a = &d->aff[def];
    if (!is_ua(a->cls) || d->skipb[d->g->block_of[def]] || r->q != PTX_DAC_Q_NONE) {
        if (!d->err) {
            d->err = 2;
            d->badpc = def;
        }
        return;
    }
    r->streams |= PTX_DAC_S_AFF;
    push_reads(d, def, PTX_DAC_S_AFF);
}

/* A definition the main stream reads: it stays in (or rejoins) it. */
static void take_main(struct dac *d, uint32_t def)
{
    struct ptx_dac_inst *r = &d->out[def];
    if (r->streams & PTX_DAC_S_MAIN)
        return;
    r->streams |= PTX_DAC_S_MAIN;
    push_reads(d, def, PTX_DAC_S_MAIN);
}

/* Closes stream bit: every instruction in it gets the definitions of what
 * it reads (take: how a definition joins). */
static void close_stream(struct dac *d, uint8_t bit, void (*take)(struct dac *d, uint32_t def))
{
    size_t bytes = ((size_t)(d->nregs + 1) * d->g->nblocks + 7) / 8;
    memset(d->seen, 0, bytes);
    d->nwork = 0;
    for (uint32_t pc = 0; pc < d->f->ninsts; pc++)
        if (d->out[pc].streams & bit)
            push_reads(d, pc, bit);
    while (d->nwork && !d->err) {
        struct need n = d->work[--d->nwork];
        reach(d, n.reg, n.pc, n.blk, take);
    }
}

/* ---- set-up --------------------------------------------------------------- */

static int fail(struct ptx_diag *diag, const struct ptx_func *f, uint32_t line,
                const char *why)
{
    if (diag) {
        snprintf(diag->msg, sizeof diag->msg, "function %s (line %u): DAC transform: %s",
                 f->name ? f->name : "?", f->line, why);
        diag->line = line ? line : f->line;
        diag->col = 0;
    }
    return -1;
}

static void dac_free(struct dac *d)
{
    free(d->npred);
    free(d->pred);
    free(d->predbuf);
    free(d->seen);
    free(d->work);
}

static int dac_init(struct dac *d, const struct ptx_func *f, const struct ptx_affine_inst *aff,
                    struct ptx_dac_inst *out)
{
    memset(d, 0, sizeof *d);
    d->f = f;
    d->g = f->cfg;
    d->aff = aff;
    d->out = out;
    d->nregs = f->nregs;
    uint32_t nb = d->g->nblocks;
    size_t nedge = 0;
    for (uint32_t b = 0; b < nb; b++)
        nedge += d->g->blocks[b].nsucc;
    d->npred = calloc(nb, sizeof *d->npred);
    d->pred = calloc(nb, sizeof *d->pred);
    d->predbuf = malloc((nedge ? nedge : 1) * sizeof *d->predbuf);
    d->seen = calloc(((size_t)(d->nregs + 1) * nb + 7) / 8 + 1, 1);
    if (!d->npred || !d->pred || !d->predbuf || !d->seen)
        return -1;
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t s = 0; s < d->g->blocks[b].nsucc; s++) {
            int32_t x = d->g->blocks[b].succ[s];
            if (x >= 0 && (uint32_t)x < nb)
                d->npred[x]++;
        }
    size_t at = 0;
    for (uint32_t b = 0; b < nb; b++) {
        d->pred[b] = d->predbuf + at;
        at += d->npred[b];
        d->npred[b] = 0;
    }
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t s = 0; s < d->g->blocks[b].nsucc; s++) {
            int32_t x = d->g->blocks[b].succ[s];
            if (x >= 0 && (uint32_t)x < nb)
                d->pred[x][d->npred[x]++] = b;
        }
    return 0;
}

/* Whether in may write local memory (st/atom/red to .local or generic). */
static bool writes_local(const struct ptx_inst *in)
{
    return (in->op == PTX_OP_ST || in->op == PTX_OP_ATOM || in->op == PTX_OP_RED) &&
           (in->space == PTX_SP_LOCAL || in->space == PTX_SP_GENERIC);
}

#define R_BARRIER 0x1u   /* reachable from a barrier under data control or a
                            call                                           */
#define R_LOCALWR 0x2u   /* reachable from a write that may hit local memory */
#define R_GLOBWR  0x4u   /* reachable from a write that may hit global memory */

/* Sets bit in mark[] of every block reachable from the end of a block
 * holding an instruction seed() accepts (that block itself only when a
 * path comes back to it; seed_before covers the rest of it). */
static int reach_from(const struct dac *d, uint8_t *mark, uint8_t bit,
                      bool (*seed)(const struct dac *d, uint32_t pc))
{
    const struct ptx_cfg *g = d->g;
    uint32_t *stack = malloc(((size_t)g->nblocks + 1) * sizeof *stack);
    if (!stack)
        return -1;
    uint32_t sp = 0;
    for (uint32_t pc = 0; pc < d->f->ninsts; pc++) {
        const struct ptx_block *bl = &g->blocks[g->block_of[pc]];
        if (!seed(d, pc))
            continue;
        for (uint32_t s = 0; s < bl->nsucc; s++) {
            int32_t x = bl->succ[s];
            if (x >= 0 && (uint32_t)x < g->nblocks && !(mark[x] & bit)) {
                mark[x] |= bit;
                stack[sp++] = (uint32_t)x;
            }
        }
    }
    while (sp) {
        uint32_t b = stack[--sp];
        for (uint32_t s = 0; s < g->blocks[b].nsucc; s++) {
            int32_t x = g->blocks[b].succ[s];
            if (x >= 0 && (uint32_t)x < g->nblocks && !(mark[x] & bit)) {
                mark[x] |= bit;
                stack[sp++] = (uint32_t)x;
            }
        }
    }
    free(stack);
    return 0;
}

/* Whether pc is reached from a seed: its block marked, or a seed earlier
 * in its block. */
static bool reached(const struct dac *d, const uint8_t *mark, uint8_t bit, uint32_t pc,
                    bool (*seed)(const struct dac *d, uint32_t pc))
{
    uint32_t b = d->g->block_of[pc];
    if (mark[b] & bit)
        return true;
    for (uint32_t x = d->g->blocks[b].first; x < pc; x++)
        if (seed(d, x))
            return true;
    return false;
}

/* A barrier the affine warp does not see: one in a region it skips, or
 * a call (the callee may synchronise; the affine warp follows no call). */
static bool seed_barrier(const struct dac *d, uint32_t pc)
{
    const struct ptx_inst *in = &d->f->insts[pc];
    return ((in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER) &&
            d->skipb[d->g->block_of[pc]]) || in->op == PTX_OP_CALL;
}

static bool seed_local_write(const struct dac *d, uint32_t pc)
{
    return writes_local(&d->f->insts[pc]) || d->f->insts[pc].op == PTX_OP_CALL;
}

static bool seed_global_write(const struct dac *d, uint32_t pc)
{
    const struct ptx_inst *in = &d->f->insts[pc];
    return ((in->op == PTX_OP_ST || in->op == PTX_OP_ATOM || in->op == PTX_OP_RED) &&
            (in->space == PTX_SP_GLOBAL || in->space == PTX_SP_GENERIC)) ||
           in->op == PTX_OP_CALL;
}

static bool guarded_exit(const struct ptx_inst *in)
{
    return (in->op == PTX_OP_RET || in->op == PTX_OP_EXIT) && in->guard >= 0;
}

/* Whether f has a guarded ret/exit outside the regions the affine stream
 * skips. The affine analysis gives ret/exit no class, so the guard's
 * class is unknown here: conservatively, the affine warp cannot follow it
 * (no committed workload has one; nvcc branches to a ret instead). */
static bool data_exit(const struct dac *d)
{
    for (uint32_t pc = 0; pc < d->f->ninsts; pc++)
        if (guarded_exit(&d->f->insts[pc]) && !d->skipb[d->g->block_of[pc]])
            return true;
    return false;
}

/* Whether the affine stream skips the whole of block b: a block under
 * data control, or one that holds nothing but a data branch it skips (the
 * branch's predicate computed in an earlier block). The affine warp
 * follows the threads' control in lock-step (the DAC paper, section 4.4),
 * so it can go on only at an instruction it executes: never at one of
 * these. */
static bool block_dctl(const struct dac *d, uint32_t b)
{
    if (d->skipb[b])
        return true;
    const struct ptx_block *bl = &d->g->blocks[b];
    if (bl->first >= bl->end)
        return false;
    for (uint32_t pc = bl->first; pc < bl->end; pc++)
        if (!d->out[pc].skip)
            return false;
    return true;
}

/* Sets out[].resume of every skip instruction: from its block's immediate
 * post-dominator, up the post-dominator chain to the first block the
 * affine stream does not skip whole (block_dctl; every path from the
 * instruction passes it); the exit gives ninsts. Then checks that every
 * block a path reaches from there before that block is skipped whole
 * (nothing the affine stream holds is jumped over). Returns 0; 1 when
 * that fails (unstructured regions); -1 when out of memory. */
static int set_resume(struct dac *d)
{
    const struct ptx_func *f = d->f;
    const struct ptx_cfg *g = d->g;
    uint32_t nb = g->nblocks;
    uint32_t *mark = calloc(nb, sizeof *mark);
    uint32_t *stack = malloc(((size_t)nb + 1) * sizeof *stack);
    if (!mark || !stack) {
        free(mark);
        free(stack);
        return -1;
    }
    int rc = 0;
    uint32_t stamp = 0;
    for (uint32_t x = 0; x < nb && !rc; x++) {
        const struct ptx_block *bl = &g->blocks[x];
        bool any = false;
        for (uint32_t pc = bl->first; pc < bl->end; pc++)
            any |= d->out[pc].skip != 0;
        if (!any)
            continue;
        int32_t y = bl->ipdom;
        uint32_t hops = 0;
        while (y >= 0 && (uint32_t)y < nb && block_dctl(d, (uint32_t)y) && hops++ < nb)
            y = g->blocks[y].ipdom;
        bool exit_ = y < 0 || (uint32_t)y >= nb;
        if (!exit_ && block_dctl(d, (uint32_t)y)) {
            rc = 1;
            break;
        }
        int32_t to = exit_ ? (int32_t)f->ninsts : (int32_t)g->blocks[y].first;
        for (uint32_t pc = bl->first; pc < bl->end; pc++)
            if (d->out[pc].skip)
                d->out[pc].resume = to;
        /* the blocks after x before y: all under data control */
        uint32_t sp = 0;
        ++stamp;
        for (uint32_t s = 0; s < bl->nsucc; s++) {
            int32_t z = bl->succ[s];
            if (z >= 0 && (uint32_t)z < nb && z != y && mark[z] != stamp) {
                mark[z] = stamp;
                stack[sp++] = (uint32_t)z;
            }
        }
        while (sp && !rc) {
            uint32_t z = stack[--sp];
            if (!block_dctl(d, z)) {
                rc = 1;
                break;
            }
            for (uint32_t s = 0; s < g->blocks[z].nsucc; s++) {
                int32_t w = g->blocks[z].succ[s];
                if (w >= 0 && (uint32_t)w < nb && w != y && mark[w] != stamp) {
                    mark[w] = stamp;
                    stack[sp++] = (uint32_t)w;
                }
            }
        }
    }
    free(mark);
    free(stack);
    return rc;
}

/* The roles before the closures (see the file comment). */
static void assign_roles(const struct dac *d, const uint8_t *breach, bool all_main,
                         uint8_t all_why)
{
    const struct ptx_func *f = d->f;
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        const struct ptx_inst *in = &f->insts[pc];
        const struct ptx_affine_inst *a = &d->aff[pc];
        struct ptx_dac_inst *r = &d->out[pc];
        memset(r, 0, sizeof *r);
        r->qreg = -1;
        r->resume = -1;
        r->streams = PTX_DAC_S_MAIN;
        bool access = is_access(in) && a->addr != PTX_ACLS_NONE;
        bool cbra = is_cond_bra(in);
        if (d->skipb[d->g->block_of[pc]]) {
            r->skip = 1;
            /* with feedback, a region is skipped only when nothing in it
               is decouplable (or a guarded exit or a brx is in the way):
               the analysis's own class says why */
            bool ua = access ? is_ua(a->addr) : is_ua(a->cls);
            if (access || cbra)
                r->why = !d->feed || ua ? PTX_DAC_W_DATACTL : PTX_DAC_W_NONAFFINE;
            continue;
        }
        if (all_main) {
            if (access || cbra)
                r->why = all_why;
            continue;
        }
        if (access) {
            if (!is_ua(a->addr)) {
                r->why = PTX_DAC_W_NONAFFINE;
                continue;
            }
            const struct ptx_operand *m = ptx_dflow_mem_opnd(in);
            r->streams = PTX_DAC_S_AFF | PTX_DAC_S_MAIN;
            r->qreg = m ? m->reg : -1;
            bool bar = reached(d, breach, R_BARRIER, pc, seed_barrier);
            bool local_wr = in->space == PTX_SP_LOCAL &&
                            reached(d, breach, R_LOCALWR, pc, seed_local_write);
            if (is_gl_load(in) && !bar && !local_wr) {
                r->q = PTX_DAC_Q_DATA;
                r->after_wr = in->space == PTX_SP_GLOBAL &&
                              reached(d, breach, R_GLOBWR, pc, seed_global_write);
            } else {
                r->q = PTX_DAC_Q_ADDR;
                if (in->op == PTX_OP_LD || in->op == PTX_OP_LDU)
                    r->why = !is_gl_load(in) ? PTX_DAC_W_SPACE :
                             bar ? PTX_DAC_W_BARRIER : PTX_DAC_W_LOCALWR;
            }
        } else if (cbra) {
            if (is_ua(a->cls)) {
                r->streams = PTX_DAC_S_AFF | PTX_DAC_S_MAIN;
                r->q = PTX_DAC_Q_PRED;
                r->qreg = in->guard;
            } else if (d->fed[pc]) {
                r->streams = PTX_DAC_S_AFF | PTX_DAC_S_MAIN;
                r->q = PTX_DAC_Q_MASK;
                r->qreg = in->guard;
            } else {
                r->why = PTX_DAC_W_NONAFFINE;
                r->skip = 1;
            }
        } else if (is_shared_ctl(in)) {
            if (in->op == PTX_OP_BRX && !is_ua(a->cls))
                r->skip = 1;          /* a data brx: the analysis made its
                                         region data control             */
            else
                r->streams = PTX_DAC_S_AFF | PTX_DAC_S_MAIN;
        }
    }
}

static void count(const struct ptx_func *f, const struct ptx_dac_inst *out,
                  const struct ptx_affine_inst *aff, struct ptx_dac_stats *st)
{
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        const struct ptx_inst *in = &f->insts[pc];
        const struct ptx_dac_inst *r = &out[pc];
        st->ninsts++;
        st->naff += (r->streams & PTX_DAC_S_AFF) != 0;
        st->nmain += (r->streams & PTX_DAC_S_MAIN) != 0;
        st->nboth += r->streams == (PTX_DAC_S_AFF | PTX_DAC_S_MAIN);
        st->nremoved += r->streams == PTX_DAC_S_AFF;
        st->nenq_data += r->q == PTX_DAC_Q_DATA;
        st->nenq_addr += r->q == PTX_DAC_Q_ADDR;
        st->nenq_pred += r->q == PTX_DAC_Q_PRED;
        st->nmask += r->q == PTX_DAC_Q_MASK;
        if (is_access(in) && aff[pc].addr != PTX_ACLS_NONE) {
            st->nmem++;
            st->nmem_dec += r->q != PTX_DAC_Q_NONE;
            if (is_gl_load(in)) {
                st->nload_gl++;
                st->nload_gl_dec += r->q == PTX_DAC_Q_DATA;
                st->nload_after_wr += r->q == PTX_DAC_Q_DATA && r->after_wr;
                if (r->q != PTX_DAC_Q_DATA && r->why < PTX_DAC_W_COUNT)
                    st->nkept[r->why]++;
            }
        }
        if (is_cond_bra(in)) {
            st->nbranch++;
            st->nbranch_dec += r->q == PTX_DAC_Q_PRED;
        }
    }
}

/* Marks in skipb every block of the region of each data branch that is
 * not fed back (and of each brx on data), from the affine classes. */
static void mark_skipped(const struct dac *d, uint8_t *skipb, uint32_t *mark,
                         uint32_t *stack, uint32_t *reg)
{
    const struct ptx_cfg *g = d->g;
    uint32_t stamp = 0;
    memset(skipb, 0, g->nblocks);
    memset(mark, 0, g->nblocks * sizeof *mark);
    for (uint32_t pc = 0; pc < d->f->ninsts; pc++) {
        const struct ptx_inst *in = &d->f->insts[pc];
        bool data_bra = (is_cond_bra(in) || in->op == PTX_OP_BRX) &&
                        d->aff[pc].cls == PTX_ACLS_NONAFFINE;
        if (!data_bra || d->fed[pc])
            continue;
        uint32_t n = ptx_dflow_region(g, g->block_of[pc], mark, ++stamp, stack, reg);
        for (uint32_t k = 0; k < n; k++)
            skipb[reg[k]] = 1;
    }
}

/* Whether the region of data branch pc holds a guarded ret/exit (the
 * affine warp could not follow it: such a branch is not fed back). */
static bool region_exits(const struct dac *d, uint32_t pc, uint32_t *mark, uint32_t stamp,
                         uint32_t *stack, uint32_t *reg)
{
    uint32_t n = ptx_dflow_region(d->g, d->g->block_of[pc], mark, stamp, stack, reg);
    for (uint32_t k = 0; k < n; k++) {
        const struct ptx_block *bl = &d->g->blocks[reg[k]];
        for (uint32_t x = bl->first; x < bl->end; x++)
            if (guarded_exit(&d->f->insts[x]))
                return true;
    }
    return false;
}

/* After the closures: unfeeds every fed data branch whose region holds no
 * affine-stream instruction other than shared control and fed branches
 * (nothing there needs the masks), or with PTX_DAC_OPT_FEED_DATA no
 * enq.data. Returns true when one was unfed. */
static bool unfeed(struct dac *d, uint8_t *fed, uint32_t *mark, uint32_t *stack,
                   uint32_t *reg)
{
    const struct ptx_cfg *g = d->g;
    bool any = false;
    uint32_t stamp = 0;
    memset(mark, 0, g->nblocks * sizeof *mark);
    for (uint32_t pc = 0; pc < d->f->ninsts; pc++) {
        if (!fed[pc])
            continue;
        uint32_t n = ptx_dflow_region(g, g->block_of[pc], mark, ++stamp, stack, reg);
        bool need = false;
        for (uint32_t k = 0; k < n && !need; k++) {
            const struct ptx_block *bl = &g->blocks[reg[k]];
            for (uint32_t x = bl->first; x < bl->end && !need; x++) {
                const struct ptx_dac_inst *r = &d->out[x];
                /* a fed branch inside needs the masks only for what its
                 * own region holds, which this region holds too */
                need = d->feed_data ? r->q == PTX_DAC_Q_DATA :
                       (r->streams & PTX_DAC_S_AFF) && r->q != PTX_DAC_Q_MASK &&
                       (r->q != PTX_DAC_Q_NONE || !is_shared_ctl(&d->f->insts[x]));
            }
        }
        if (!need) {
            fed[pc] = 0;
            any = true;
        }
    }
    return any;
}

/* One round of the transform with the fed branches in fed[] and the
 * skipped blocks they give: roles, resume points, the two closures.
 * Returns 0, 1 out of memory, 2 a bad definition (d->badpc). */
static int build_round(struct dac *d, uint8_t *breach, bool entry)
{
    const struct ptx_func *f = d->f;
    memset(breach, 0, d->g->nblocks);
    if (reach_from(d, breach, R_BARRIER, seed_barrier) != 0 ||
        reach_from(d, breach, R_LOCALWR, seed_local_write) != 0 ||
        reach_from(d, breach, R_GLOBWR, seed_global_write) != 0)
        return 1;
    bool all_main = !entry || data_exit(d);
    uint8_t all_why = !entry ? PTX_DAC_W_NOTKERNEL : PTX_DAC_W_EXIT;
    assign_roles(d, breach, all_main, all_why);
    if (!all_main) {
        int u = set_resume(d);
        if (u < 0)
            return 1;
        if (u > 0)
            assign_roles(d, breach, true, PTX_DAC_W_UNSTRUCT);
    }
    d->err = 0;
    /* the affine stream: the slice of the enq operands and of its control */
    close_stream(d, PTX_DAC_S_AFF, take_aff);
    if (!d->err) {
        /* the slice leaves the main stream unless the main stream reads it */
        for (uint32_t pc = 0; pc < f->ninsts; pc++)
            if (d->out[pc].streams & PTX_DAC_S_AFF && d->out[pc].q == PTX_DAC_Q_NONE &&
                !is_shared_ctl(&f->insts[pc]))
                d->out[pc].streams = PTX_DAC_S_AFF;
        close_stream(d, PTX_DAC_S_MAIN, take_main);
    }
    return d->err;
}

int ptx_dac_build(const struct ptx_func *f, const struct ptx_affine_inst *aff,
                  struct ptx_dac_inst *out, struct ptx_dac_stats *st,
                  struct ptx_diag *diag)
{
    return ptx_dac_build_opt(f, aff, out, st, diag, PTX_DAC_OPT_FEED);
}

int ptx_dac_build_opt(const struct ptx_func *f, const struct ptx_affine_inst *aff,
                      struct ptx_dac_inst *out, struct ptx_dac_stats *st,
                      struct ptx_diag *diag, unsigned opts)
{
    struct ptx_dac_stats dummy;
    if (!st)
        st = &dummy;
    memset(st, 0, sizeof *st);
    if (!f->has_body || !f->ninsts)
        return 0;
    if (!f->cfg || !f->cfg->nblocks)
        return fail(diag, f, 0, "no control-flow graph (ptx_cfg_build not run)");
    uint32_t nb = f->cfg->nblocks;
    struct dac d;
    memset(&d, 0, sizeof d);
    uint8_t *breach = calloc(nb, 1), *skipb = calloc(nb, 1), *fed = calloc(f->ninsts, 1);
    uint32_t *mark = calloc(nb, sizeof *mark);
    uint32_t *stack = malloc(((size_t)nb + 1) * sizeof *stack);
    uint32_t *reg = malloc((size_t)nb * sizeof *reg);
    int err = 1;
    if (!breach || !skipb || !fed || !mark || !stack || !reg ||
        dac_init(&d, f, aff, out) != 0)
        goto done;
    d.skipb = skipb;
    d.fed = fed;
    d.feed = (opts & PTX_DAC_OPT_FEED) != 0;
    d.feed_data = (opts & PTX_DAC_OPT_FEED_DATA) != 0;
    if ((opts & PTX_DAC_OPT_FEED) && f->is_entry) {
        uint32_t stamp = 0;
        for (uint32_t pc = 0; pc < f->ninsts; pc++)
            fed[pc] = is_cond_bra(&f->insts[pc]) && aff[pc].cls == PTX_ACLS_NONAFFINE &&
                      !region_exits(&d, pc, mark, ++stamp, stack, reg);
    }
    /* every round unfeeds at least one branch or ends */
    for (;;) {
        mark_skipped(&d, skipb, mark, stack, reg);
        err = build_round(&d, breach, f->is_entry);
        if (err || !unfeed(&d, fed, mark, stack, reg))
            break;
    }
    for (uint32_t pc = 0; !err && pc < f->ninsts; pc++)
        out[pc].sel = (out[pc].streams & PTX_DAC_S_AFF) && aff[pc].sel &&
                      (f->insts[pc].op == PTX_OP_SELP || f->insts[pc].op == PTX_OP_MIN ||
                       f->insts[pc].op == PTX_OP_MAX);
    for (uint32_t pc = 0; !err && pc < f->ninsts; pc++)
        out[pc].vec = (out[pc].streams & PTX_DAC_S_AFF) && aff[pc].vec &&
                      aff[pc].addr == PTX_ACLS_NONE;
done:;
    uint32_t badpc = err == 2 ? d.badpc : 0;
    dac_free(&d);
    free(breach);
    free(skipb);
    free(fed);
    free(mark);
    free(stack);
    free(reg);
    if (err == 1)
        return fail(diag, f, 0, "out of memory");
    if (err == 2) {
        char why[160];
        snprintf(why, sizeof why, "the affine stream needs pc %u (line %u), which the "
                 "affine analysis did not class uniform or affine", badpc,
                 f->insts[badpc].line);
        return fail(diag, f, f->insts[badpc].line, why);
    }
    count(f, out, aff, st);
    return 0;
}

const char *ptx_dac_enq_name(unsigned q)
{
    switch (q) {
    case PTX_DAC_Q_DATA: return "enq.data";
    case PTX_DAC_Q_ADDR: return "enq.addr";
    case PTX_DAC_Q_PRED: return "enq.pred";
    case PTX_DAC_Q_MASK: return "recv.mask";
    default: return "";
    }
}

const char *ptx_dac_deq_name(unsigned q)
{
    switch (q) {
    case PTX_DAC_Q_DATA: return "deq.data";
    case PTX_DAC_Q_ADDR: return "deq.addr";
    case PTX_DAC_Q_PRED: return "deq.pred";
    case PTX_DAC_Q_MASK: return "send.mask";
    default: return "";
    }
}

const char *ptx_dac_why_name(unsigned why)
{
    switch (why) {
    case PTX_DAC_W_NONAFFINE: return "nonaffine";
    case PTX_DAC_W_DATACTL: return "data-control";
    case PTX_DAC_W_NOTKERNEL: return "not-kernel";
    case PTX_DAC_W_EXIT: return "exit";
    case PTX_DAC_W_BARRIER: return "barrier";
    case PTX_DAC_W_SPACE: return "space";
    case PTX_DAC_W_LOCALWR: return "local-write";
    case PTX_DAC_W_UNSTRUCT: return "unstructured";
    default: return "";
    }
}

/* ---- invariants ------------------------------------------------------------ */

struct chk {
    struct dac d;
    uint8_t want;                    /* the stream every definition must be in */
    bool bad;
    uint32_t badpc, usepc;
};

static struct chk *chk_of(struct dac *d)
{
    return (struct chk *)(void *)d;  /* d is the first member */
}

static void need_in(struct dac *d, uint32_t def)
{
    struct chk *c = chk_of(d);
    if (!(d->out[def].streams & c->want) && !c->bad) {
        c->bad = true;
        c->badpc = def;
    }
}

static int check_fail(struct ptx_diag *diag, const struct ptx_func *f, uint32_t pc,
                      const char *what)
{
    char why[200];
    snprintf(why, sizeof why, "invariant: pc %u (line %u): %s", pc, f->insts[pc].line, what);
    return fail(diag, f, f->insts[pc].line, why);
}

/* Every definition reaching a read of stream bit is in stream bit. */
static int check_closure(struct chk *c, uint8_t bit, struct ptx_diag *diag)
{
    struct dac *d = &c->d;
    const struct ptx_func *f = d->f;
    size_t bytes = ((size_t)(d->nregs + 1) * d->g->nblocks + 7) / 8;
    c->want = bit;
    for (uint32_t pc = 0; pc < f->ninsts && !c->bad; pc++) {
        if (!(d->out[pc].streams & bit))
            continue;
        memset(d->seen, 0, bytes);
        d->nwork = 0;
        push_reads(d, pc, bit);
        while (d->nwork && !d->err && !c->bad) {
            struct need n = d->work[--d->nwork];
            reach(d, n.reg, n.pc, n.blk, need_in);
        }
        if (d->err)
            return fail(diag, f, 0, "out of memory");
        if (c->bad)
            c->usepc = pc;
    }
    if (!c->bad)
        return 0;
    char what[160];
    snprintf(what, sizeof what, "read by pc %u in the %s stream but not in it", c->usepc,
             bit == PTX_DAC_S_AFF ? "affine" : "main");
    return check_fail(diag, f, c->badpc, what);
}

/* The blocks a main-only conditional branch controls hold no queue op and
 * nothing of the affine stream. */
static int check_regions(const struct dac *d, struct ptx_diag *diag)
{
    const struct ptx_func *f = d->f;
    const struct ptx_cfg *g = d->g;
    uint32_t *mark = calloc(g->nblocks, sizeof *mark);
    uint32_t *stack = malloc(((size_t)g->nblocks + 1) * sizeof *stack);
    uint32_t *reg = malloc((size_t)g->nblocks * sizeof *reg);
    int rc = 0;
    uint32_t stamp = 0;
    if (!mark || !stack || !reg)
        rc = fail(diag, f, 0, "out of memory");
    for (uint32_t pc = 0; pc < f->ninsts && !rc; pc++) {
        const struct ptx_inst *in = &f->insts[pc];
        bool cond = is_cond_bra(in) || in->op == PTX_OP_BRX;
        if (!cond || (d->out[pc].streams & PTX_DAC_S_AFF))
            continue;
        uint32_t n = ptx_dflow_region(g, g->block_of[pc], mark, ++stamp, stack, reg);
        for (uint32_t k = 0; k < n && !rc; k++) {
            const struct ptx_block *bl = &g->blocks[reg[k]];
            for (uint32_t x = bl->first; x < bl->end && !rc; x++)
                if (d->out[x].q != PTX_DAC_Q_NONE || (d->out[x].streams & PTX_DAC_S_AFF)) {
                    char what[160];
                    snprintf(what, sizeof what, "in the region of the main-only branch at "
                             "pc %u, yet in the affine stream", pc);
                    rc = check_fail(diag, f, x, what);
                }
        }
    }
    free(mark);
    free(stack);
    free(reg);
    return rc;
}

/* Marks in covered every block of the region of a fed-back data branch
 * (recv.mask). Returns 0 or -1 (memory). */
static int fed_regions(const struct dac *d, uint8_t *covered)
{
    const struct ptx_cfg *g = d->g;
    uint32_t *mark = calloc(g->nblocks, sizeof *mark);
    uint32_t *stack = malloc(((size_t)g->nblocks + 1) * sizeof *stack);
    uint32_t *reg = malloc((size_t)g->nblocks * sizeof *reg);
    uint32_t stamp = 0;
    if (!mark || !stack || !reg) {
        free(mark);
        free(stack);
        free(reg);
        return -1;
    }
    for (uint32_t pc = 0; pc < d->f->ninsts; pc++) {
        if (d->out[pc].q != PTX_DAC_Q_MASK)
            continue;
        uint32_t n = ptx_dflow_region(g, g->block_of[pc], mark, ++stamp, stack, reg);
        for (uint32_t k = 0; k < n; k++)
            covered[reg[k]] = 1;
    }
    free(mark);
    free(stack);
    free(reg);
    return 0;
}

/* The per-instruction rules. */
static int check_insts(const struct dac *d, const uint8_t *covered, struct ptx_diag *diag)
{
    const struct ptx_func *f = d->f;
    bool any_aff = false;
    for (uint32_t pc = 0; pc < f->ninsts; pc++)
        any_aff |= (d->out[pc].streams & PTX_DAC_S_AFF) != 0;
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        const struct ptx_inst *in = &f->insts[pc];
        const struct ptx_affine_inst *a = &d->aff[pc];
        const struct ptx_dac_inst *r = &d->out[pc];
        bool both = r->streams == (PTX_DAC_S_AFF | PTX_DAC_S_MAIN);
        if (!r->streams || r->streams > (PTX_DAC_S_AFF | PTX_DAC_S_MAIN))
            return check_fail(diag, f, pc, "in no stream");
        if ((r->streams & PTX_DAC_S_AFF) &&
            (r->skip || (a->ctl == PTX_ACTL_DATA && !covered[d->g->block_of[pc]])))
            return check_fail(diag, f, pc, "under data control that is not fed back, yet "
                              "in the affine stream");
        if (any_aff && r->skip != (r->resume >= 0))
            return check_fail(diag, f, pc, "skipped by the affine stream without a place "
                              "to go on, or a place without a skip");
        if (any_aff && r->skip && ((uint32_t)r->resume > f->ninsts ||
                                   ((uint32_t)r->resume < f->ninsts &&
                                    d->out[r->resume].skip)))
            return check_fail(diag, f, pc, "the affine stream goes on at a skipped "
                              "instruction or out of range");
        if (r->sel && ((in->op != PTX_OP_SELP && in->op != PTX_OP_MIN &&
                        in->op != PTX_OP_MAX) || !a->sel || !(r->streams & PTX_DAC_S_AFF)))
            return check_fail(diag, f, pc, "a select made by other than an affine-stream "
                              "selp, min or max the analysis classed a select");
        if (r->q != PTX_DAC_Q_NONE && !f->is_entry)
            return check_fail(diag, f, pc, "a queue op outside a kernel");
        switch (r->q) {
        case PTX_DAC_Q_DATA:
            if (!is_gl_load(in) || !is_ua(a->addr) || !both)
                return check_fail(diag, f, pc, "enq.data on other than a global/local "
                                  "load with a U/A address in both streams");
            break;
        case PTX_DAC_Q_ADDR:
            if (!is_access(in) || !is_ua(a->addr) || !both)
                return check_fail(diag, f, pc, "enq.addr on other than an access with a "
                                  "U/A address in both streams");
            break;
        case PTX_DAC_Q_PRED:
            if (!is_cond_bra(in) || !is_ua(a->cls) || !both || r->qreg != in->guard)
                return check_fail(diag, f, pc, "enq.pred on other than a branch on a U/A "
                                  "predicate in both streams");
            break;
        case PTX_DAC_Q_MASK:
            if (!is_cond_bra(in) || is_ua(a->cls) || !both || r->qreg != in->guard)
                return check_fail(diag, f, pc, "recv.mask on other than a branch on a "
                                  "non-affine predicate in both streams");
            break;
        default:
            if (is_cond_bra(in) && (r->streams & PTX_DAC_S_AFF))
                return check_fail(diag, f, pc, "a conditional branch in the affine stream "
                                  "without enq.pred or recv.mask (the streams could part)");
            if ((r->streams & PTX_DAC_S_AFF) && !is_shared_ctl(in) && !is_ua(a->cls))
                return check_fail(diag, f, pc, "a non-affine value in the affine stream");
            if (is_shared_ctl(in) && !r->skip && any_aff && !both)
                return check_fail(diag, f, pc, "control or a barrier outside data control "
                                  "missing from a stream");
            break;
        }
    }
    return 0;
}

int ptx_dac_check(const struct ptx_func *f, const struct ptx_affine_inst *aff,
                  const struct ptx_dac_inst *out, struct ptx_diag *diag)
{
    if (!f->has_body || !f->ninsts)
        return 0;
    if (!f->cfg || !f->cfg->nblocks)
        return fail(diag, f, 0, "no control-flow graph (ptx_cfg_build not run)");
    struct chk c;
    memset(&c, 0, sizeof c);
    if (dac_init(&c.d, f, aff, (struct ptx_dac_inst *)(uintptr_t)out) != 0) {
        dac_free(&c.d);
        return fail(diag, f, 0, "out of memory");
    }
    uint8_t *covered = calloc(f->cfg->nblocks, 1);
    int rc = !covered || fed_regions(&c.d, covered) != 0
             ? fail(diag, f, 0, "out of memory") : check_insts(&c.d, covered, diag);
    free(covered);
    if (!rc)
        rc = check_regions(&c.d, diag);
    if (!rc)
        rc = check_closure(&c, PTX_DAC_S_AFF, diag);
    if (!rc)
        rc = check_closure(&c, PTX_DAC_S_MAIN, diag);
    dac_free(&c.d);
    return rc;
}
