/* CTA-wide reconvergence stack of thread-block compaction (simt_cta.h). */
#include <stdlib.h>
#include <string.h>
#include "simt/simt_cta.h"
#include "simt/simt.h"

int simt_cta_alloc(struct simt_cta *c, uint32_t cap)
{
    memset(c, 0, sizeof *c);
    if (cap == 0)
        cap = 1;
    c->stack = calloc(cap, sizeof *c->stack);
    if (!c->stack)
        return -1;
    c->cap = cap;
    return 0;
}

void simt_cta_free(struct simt_cta *c)
{
    free(c->stack);
    memset(c, 0, sizeof *c);
}

static bool entry_empty(const struct simt_cta_entry *e, uint32_t nwarps)
{
    for (uint32_t w = 0; w < nwarps; w++)
        if (e->mask[w])
            return false;
    return true;
}

static bool push(struct simt_cta *c, const uint32_t *mask, int32_t npc,
                 int32_t rpc, int32_t from)
{
    if (c->sp >= c->cap)
        return false;
    struct simt_cta_entry *e = &c->stack[c->sp++];
    memset(e, 0, sizeof *e);
    memcpy(e->mask, mask, c->nwarps * sizeof *mask);
    e->npc = npc;
    e->rpc = rpc;
    e->br_pc = -1;
    e->from_pc = from;
    if (c->sp > c->max_depth)
        c->max_depth = c->sp;
    return true;
}

void simt_cta_start(struct simt_cta *c, const struct ptx_func *f,
                    uint32_t nwarps, const uint32_t *valid)
{
    c->f = f;
    c->nwarps = nwarps > SIMT_CTA_MAX_W ? SIMT_CTA_MAX_W : nwarps;
    c->sp = 0;
    c->branches = c->divergent = c->max_depth = 0;
    c->warp_uniform = c->both_paths = false;
    memset(c->live, 0, sizeof c->live);
    memcpy(c->live, valid, c->nwarps * sizeof *valid);
    (void)push(c, valid, 0, (int32_t)f->ninsts, -1);   /* cap >= 1 */
    if (entry_empty(&c->stack[0], c->nwarps))
        c->sp = 0;
}

bool simt_cta_branch(struct simt_cta *c, uint32_t w, int32_t pc,
                     uint32_t lanes, uint32_t taken)
{
    struct simt_cta_entry *e = simt_cta_top(c);
    if (!e || w >= c->nwarps)
        return false;
    if (e->br_pc >= 0 && e->br_pc != pc)
        return false;
    e->br_pc = pc;
    e->arrived[w] |= lanes;
    e->taken[w] |= taken & lanes;
    return true;
}

void simt_cta_exit(struct simt_cta *c, uint32_t w, uint32_t lanes)
{
    if (w >= c->nwarps)
        return;
    for (uint32_t i = 0; i < c->sp; i++) {
        c->stack[i].mask[w] &= ~lanes;
        c->stack[i].arrived[w] &= ~lanes;
        c->stack[i].taken[w] &= ~lanes;
    }
    c->live[w] &= ~lanes;
}

/* Pops entries with no thread or that reached their reconvergence PC. */
static void settle(struct simt_cta *c)
{
    while (c->sp) {
        const struct simt_cta_entry *t = &c->stack[c->sp - 1];
        if (!entry_empty(t, c->nwarps) && t->npc != t->rpc)
            break;
        c->sp--;
    }
}

enum simt_cta_rc simt_cta_resolve(struct simt_cta *c, bool *divergent)
{
    *divergent = false;
    struct simt_cta_entry *e = simt_cta_top(c);
    if (!e)
        return SIMT_CTA_DONE;
    int32_t pc = e->br_pc;
    if (pc < 0) {               /* every warp reached rpc or exited */
        e->npc = e->rpc;
        settle(c);
        return c->sp ? SIMT_CTA_RUN : SIMT_CTA_DONE;
    }
    const struct ptx_inst *in = &c->f->insts[pc];
    int32_t target = in->o[0].label;
    uint32_t taken[SIMT_CTA_MAX_W], nt[SIMT_CTA_MAX_W];
    bool all = true, none = true, split = false;
    for (uint32_t w = 0; w < c->nwarps; w++) {
        /* the entry's lanes are exactly those that arrived (the others
         * exited on the way) */
        e->mask[w] &= e->arrived[w];
        taken[w] = e->taken[w] & e->mask[w];
        nt[w] = e->mask[w] & ~taken[w];
        all = all && nt[w] == 0;
        none = none && taken[w] == 0;
        split = split || (taken[w] && nt[w]);
    }
    c->branches++;
    e->br_pc = -1;
    memset(e->arrived, 0, sizeof e->arrived);
    memset(e->taken, 0, sizeof e->taken);
    int32_t npc, rpc;
    e->from_pc = -1;
    if (!simt_branch_split(in, pc, c->f->ninsts, all, none, &npc, &rpc)) {
        e->npc = npc;
        settle(c);
        return c->sp ? SIMT_CTA_RUN : SIMT_CTA_DONE;
    }
    /* divergence: the entry waits at the reconvergence point; the
     * not-taken and then the taken path are pushed (taken runs first) */
    c->divergent++;
    *divergent = true;
    c->warp_uniform = !split;
    c->both_paths = pc + 1 != rpc && target != rpc;
    e->npc = rpc;
    if (e->npc == e->rpc)
        c->sp--;                /* it would pop at once: reuse its slot */
    if (pc + 1 != rpc && !push(c, nt, pc + 1, rpc, pc))
        return SIMT_CTA_OVERFLOW;
    if (target != rpc && !push(c, taken, target, rpc, pc))
        return SIMT_CTA_OVERFLOW;
    settle(c);
    return c->sp ? SIMT_CTA_RUN : SIMT_CTA_DONE;
}

uint32_t simt_cta_threads(const struct simt_cta_entry *e, uint32_t nwarps)
{
    uint32_t n = 0;
    for (uint32_t w = 0; w < nwarps; w++)
        n += (uint32_t)__builtin_popcount(e->mask[w]);
    return n;
}

bool simt_reg_read(const struct ptx_func *f, int32_t r, uint32_t at)
{
    for (uint32_t i = 0; i < f->ninsts; i++) {
        const struct ptx_inst *in = &f->insts[i];
        if (in->guard == r)
            return true;
        for (unsigned k = i == at ? 1 : 0; k < in->nopnd && k < PTX_MAX_OPNDS; k++) {
            const struct ptx_operand *o = &in->o[k];
            if ((o->kind == PTX_O_REG || o->kind == PTX_O_MEM) && o->reg == r)
                return true;
            for (unsigned v = 0; o->kind == PTX_O_VEC && v < o->vec_n && v < 4; v++)
                if (o->vec_regs[v] == r)
                    return true;
        }
    }
    return false;
}
