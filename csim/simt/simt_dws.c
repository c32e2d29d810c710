/* Dynamic warp subdivision: PDOM stack plus warp-split table (simt_dws.h,
 * docs/dpe.md). */
#include <stdlib.h>
#include <string.h>
#include "simt/simt_dws.h"
#include "simt/simt.h"

void simt_dws_blocks(const struct ptx_func *f, uint32_t *len)
{
    uint32_t n = f->ninsts;
    /* len doubles as the leader mark first: 1 = a bra targets i */
    memset(len, 0, (size_t)(n + 1) * sizeof *len);
    for (uint32_t i = 0; i < n; i++) {
        const struct ptx_inst *in = &f->insts[i];
        if (in->op == PTX_OP_BRA && in->o[0].label >= 0 && (uint32_t)in->o[0].label < n)
            len[in->o[0].label] = 1;
    }
    uint32_t next = 0;          /* len[i + 1] */
    bool next_leader = true;    /* the end starts nothing: block ends there */
    for (uint32_t i = n; i-- > 0;) {
        bool leader = len[i] != 0;
        enum ptx_op op = (enum ptx_op)f->insts[i].op;
        bool ends = op == PTX_OP_BRA || op == PTX_OP_BRX || op == PTX_OP_CALL ||
                    op == PTX_OP_RET || op == PTX_OP_EXIT || op == PTX_OP_TRAP;
        len[i] = ends || next_leader ? 1 : 1 + next;
        next = len[i];
        next_leader = leader;
    }
    len[n] = 0;
}

int simt_dws_alloc(struct simt_dws *d, uint32_t cap)
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

void simt_dws_free(struct simt_dws *d)
{
    free(d->stack);
    memset(d, 0, sizeof *d);
}

/* Splits at the WST RPC arrive (their slot frees: the top entry keeps
 * their threads); splits at one pc merge into the lower slot. */
static void tidy(struct simt_dws *d)
{
    for (unsigned i = 0; i < SIMT_DWS_MAX; i++)
        if (d->split[i].mask && d->split[i].pc == d->rpc)
            d->split[i].mask = 0;
    for (unsigned i = 0; i < SIMT_DWS_MAX; i++) {
        if (!d->split[i].mask)
            continue;
        for (unsigned j = i + 1; j < SIMT_DWS_MAX; j++)
            if (d->split[j].mask && d->split[j].pc == d->split[i].pc) {
                d->split[i].mask |= d->split[j].mask;
                d->split[j].mask = 0;
                d->merges++;
            }
    }
}

/* Ends the WST when no split is left (the top entry reaches its RPC) or
 * one split holds every thread of the top entry (the top entry takes its
 * pc); pops entries with no thread or at their RPC. Returns pops. */
static unsigned settle(struct simt_dws *d)
{
    unsigned n = 0;
    while (d->sp) {
        struct simt_dws_entry *t = &d->stack[d->sp - 1];
        if (d->sub) {
            tidy(d);
            unsigned live = 0, one = 0;
            for (unsigned i = 0; i < SIMT_DWS_MAX; i++)
                if (d->split[i].mask) {
                    live++;
                    one = i;
                }
            if (!live) {
                d->sub = false;
                t->pc = d->rpc;
            } else if (live == 1 && d->split[one].mask == t->mask) {
                d->sub = false;
                t->pc = d->split[one].pc;
                d->split[one].mask = 0;
            } else {
                return n;
            }
        }
        if (t->mask && t->pc != t->rpc)
            break;
        d->sp--;
        n++;
    }
    if (!d->sp)
        d->sub = false;
    return n;
}

void simt_dws_start(struct simt_dws *d, uint32_t valid, uint32_t ninsts,
                    const uint32_t *bblen, uint32_t n)
{
    d->branches = d->divergent = d->subdivided = d->refused = d->nested = 0;
    d->created = d->merges = 0;
    d->sp = 0;
    d->max_depth = 0;
    d->sub = false;
    memset(d->split, 0, sizeof d->split);
    d->bblen = bblen;
    d->n = n;
    if (!valid)
        return;
    d->stack[0] = (struct simt_dws_entry){ valid, 0, (int32_t)ninsts };
    d->sp = 1;
    d->max_depth = 1;
    (void)settle(d);            /* an empty kernel */
}

bool simt_dws_path(const struct simt_dws *d, unsigned k, int32_t *pc, uint32_t *mask)
{
    if (!d->sp || k >= SIMT_DWS_MAX)
        return false;
    if (d->sub) {
        if (!d->split[k].mask)
            return false;
        *pc = d->split[k].pc;
        *mask = d->split[k].mask;
        return true;
    }
    if (k)
        return false;
    *pc = d->stack[d->sp - 1].pc;
    *mask = d->stack[d->sp - 1].mask;
    return true;
}

unsigned simt_dws_npaths(const struct simt_dws *d)
{
    if (!d->sp)
        return 0;
    if (!d->sub)
        return 1;
    unsigned n = 0;
    for (unsigned i = 0; i < SIMT_DWS_MAX; i++)
        n += d->split[i].mask != 0;
    return n;
}

unsigned simt_dws_advance(struct simt_dws *d, unsigned k, int32_t npc)
{
    int32_t pc;
    uint32_t mask;
    if (!simt_dws_path(d, k, &pc, &mask))
        return 0;
    if (d->sub)
        d->split[k].pc = npc;
    else
        d->stack[d->sp - 1].pc = npc;
    return settle(d);
}

static int push(struct simt_dws *d, uint32_t mask, int32_t pc, int32_t rpc)
{
    if (d->sp >= d->cap)
        return -1;
    d->stack[d->sp++] = (struct simt_dws_entry){ mask, pc, rpc };
    if (d->sp > d->max_depth)
        d->max_depth = d->sp;
    return 0;
}

enum simt_dws_rc simt_dws_branch(struct simt_dws *d, unsigned k,
                                 const struct ptx_inst *in, int32_t pc,
                                 uint32_t ninsts, uint32_t taken, unsigned *popped)
{
    int32_t cur;
    uint32_t mask;
    *popped = 0;
    if (!simt_dws_path(d, k, &cur, &mask))
        return SIMT_DWS_OVERFLOW;
    taken &= mask;
    d->branches++;
    int32_t npc, rpc;
    if (!simt_branch_split(in, pc, ninsts, taken == mask, taken == 0, &npc, &rpc)) {
        *popped = simt_dws_advance(d, k, npc);
        return SIMT_DWS_UNIFORM;
    }
    d->divergent++;
    int32_t target = in->o[0].label;
    if (d->sub) {
        /* the stack cannot track splits: a nested divergence splits
         * further, with the same WST RPC */
        unsigned f = 0;
        while (f < SIMT_DWS_MAX && (f == k || d->split[f].mask))
            f++;
        if (f == SIMT_DWS_MAX)      /* never: every split holds a lane */
            return SIMT_DWS_OVERFLOW;
        d->nested++;
        d->split[k] = (struct simt_dws_split){ taken, target };
        d->split[f] = (struct simt_dws_split){ mask & ~taken, pc + 1 };
        d->created++;
        *popped = settle(d);
        return SIMT_DWS_SPLIT;
    }
    struct simt_dws_entry *t = &d->stack[d->sp - 1];
    uint32_t len = (uint32_t)rpc < ninsts ? d->bblen[rpc] : 0;
    if (len <= d->n) {
        /* subdivide: the WST RPC is the top entry's, not this branch's
         * post-dominator (Fig 3.2(b)) */
        d->subdivided++;
        d->sub = true;
        d->rpc = t->rpc;
        memset(d->split, 0, sizeof d->split);
        d->split[0] = (struct simt_dws_split){ taken, target };
        d->split[1] = (struct simt_dws_split){ mask & ~taken, pc + 1 };
        d->created += 2;
        *popped = settle(d);
        return SIMT_DWS_SPLIT;
    }
    /* refused by the threshold: the per-warp stack serialises the sides
     * (simt.c do_branch: not taken pushed, then taken; taken runs first) */
    d->refused++;
    t->pc = rpc;
    if (t->pc == t->rpc)
        d->sp--;                /* it would pop at once: reuse its slot */
    if (pc + 1 != rpc && push(d, mask & ~taken, pc + 1, rpc) != 0)
        return SIMT_DWS_OVERFLOW;
    if (target != rpc && push(d, taken, target, rpc) != 0)
        return SIMT_DWS_OVERFLOW;
    *popped = settle(d);
    return SIMT_DWS_DIVERGED;
}

unsigned simt_dws_exit(struct simt_dws *d, uint32_t lanes)
{
    for (uint32_t i = 0; i < d->sp; i++)
        d->stack[i].mask &= ~lanes;
    for (unsigned i = 0; i < SIMT_DWS_MAX; i++)
        d->split[i].mask &= ~lanes;
    return settle(d);
}
