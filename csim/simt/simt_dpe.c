/* Dual-path stack of dual-path execution (simt_dpe.h, docs/dpe.md). */
#include <stdlib.h>
#include <string.h>
#include "simt/simt_dpe.h"
#include "simt/simt.h"

int simt_dpe_alloc(struct simt_dpe *d, uint32_t cap)
{
    memset(d, 0, sizeof *d);
    if (cap == 0)
        cap = 1;
    d->stack = calloc(cap, sizeof *d->stack);
    if (!d->stack)
        return -1;
    d->cap = cap;
    return 0;
}

void simt_dpe_free(struct simt_dpe *d)
{
    free(d->stack);
    memset(d, 0, sizeof *d);
}

static inline bool path_live(const struct simt_dpe_entry *e, unsigned s)
{
    return e->p[s].mask != 0 && e->p[s].pc != e->rpc;
}

/* Pops entries with no schedulable path; returns how many. */
static unsigned settle(struct simt_dpe *d)
{
    unsigned n = 0;
    while (d->sp) {
        const struct simt_dpe_entry *t = &d->stack[d->sp - 1];
        if (path_live(t, SIMT_DPE_L) || path_live(t, SIMT_DPE_R))
            break;
        d->sp--;
        n++;
    }
    return n;
}

void simt_dpe_start(struct simt_dpe *d, uint32_t valid, uint32_t ninsts)
{
    d->branches = d->divergent = d->interleavable = 0;
    d->sp = 0;
    d->max_depth = 0;
    if (!valid)
        return;
    d->stack[0] = (struct simt_dpe_entry){
        { { valid, 0 }, { 0, (int32_t)ninsts } }, (int32_t)ninsts, 0 };
    d->sp = 1;
    d->max_depth = 1;
    (void)settle(d);            /* an empty kernel */
}

unsigned simt_dpe_npaths(const struct simt_dpe *d)
{
    return (unsigned)simt_dpe_valid(d, SIMT_DPE_L) +
           (unsigned)simt_dpe_valid(d, SIMT_DPE_R);
}

unsigned simt_dpe_advance(struct simt_dpe *d, unsigned side, int32_t npc)
{
    if (!d->sp || side > 1)
        return 0;
    d->stack[d->sp - 1].p[side].pc = npc;
    return settle(d);
}

unsigned simt_dpe_advance_at(struct simt_dpe *d, uint32_t ent, unsigned side,
                             int32_t npc)
{
    if (ent >= d->sp || side > 1)
        return 0;
    d->stack[ent].p[side].pc = npc;
    return settle(d);
}

bool simt_dpe_forward(const struct simt_dpe *d, uint32_t *ent, unsigned *side)
{
    for (uint32_t i = d->sp > 1 ? d->sp - 1 : 0; i-- > 0;) {
        unsigned s = d->stack[i].wait ^ 1u;
        if (path_live(&d->stack[i], s)) {
            *ent = i;
            *side = s;
            return true;
        }
    }
    return false;
}

enum simt_dpe_rc simt_dpe_branch(struct simt_dpe *d, unsigned side,
                                 const struct ptx_inst *in, int32_t pc,
                                 uint32_t ninsts, uint32_t taken,
                                 unsigned *popped)
{
    *popped = 0;
    if (!d->sp || side > 1)
        return SIMT_DPE_OVERFLOW;
    struct simt_dpe_entry *e = &d->stack[d->sp - 1];
    uint32_t mask = e->p[side].mask;
    taken &= mask;
    int32_t npc, rpc;
    d->branches++;
    if (!simt_branch_split(in, pc, ninsts, taken == mask, taken == 0, &npc, &rpc)) {
        *popped = simt_dpe_advance(d, side, npc);
        return SIMT_DPE_UNIFORM;
    }
    d->divergent++;
    int32_t target = in->o[0].label;
    if (target != rpc && pc + 1 != rpc)
        d->interleavable++;
    /* the diverging path waits at the RPC with its threads (they return
     * there when the new entry pops); an entry left without a schedulable
     * path would pop at once: its slot is reused (a loop whose exit
     * diverges every iteration stays at constant depth, as in simt.c) */
    e->p[side].pc = rpc;
    e->wait = (uint8_t)side;
    if (!path_live(e, SIMT_DPE_L) && !path_live(e, SIMT_DPE_R))
        d->sp--;
    if (d->sp >= d->cap)
        return SIMT_DPE_OVERFLOW;
    d->stack[d->sp++] = (struct simt_dpe_entry){
        { { taken, target }, { mask & ~taken, pc + 1 } }, rpc, 0 };
    if (d->sp > d->max_depth)
        d->max_depth = d->sp;
    *popped = settle(d);        /* never: one side is non-empty, not at rpc */
    return SIMT_DPE_DIVERGED;
}

unsigned simt_dpe_exit(struct simt_dpe *d, uint32_t lanes)
{
    for (uint32_t i = 0; i < d->sp; i++) {
        d->stack[i].p[0].mask &= ~lanes;
        d->stack[i].p[1].mask &= ~lanes;
    }
    return settle(d);
}
