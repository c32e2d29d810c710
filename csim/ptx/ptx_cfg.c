/* Basic blocks and immediate post-dominators (Cooper, Harvey & Kennedy,
 * "A Simple, Fast Dominance Algorithm", run on the reverse CFG with a
 * virtual exit node). Every pass is O(blocks + edges). */
#include "ptx/ptx_cfg.h"

#include <stdlib.h>
#include <string.h>

static bool ends_block(const struct ptx_inst *in)
{
    return in->op == PTX_OP_BRA || in->op == PTX_OP_BRX ||
           in->op == PTX_OP_RET || in->op == PTX_OP_EXIT || in->op == PTX_OP_TRAP;
}

/* The .branchtargets entries of a brx.idx: tlist[first .. first+count). */
static bool brx_list(const struct ptx_func *f, const struct ptx_inst *in,
                     uint32_t *first, uint32_t *count)
{
    if (in->o[1].kind != PTX_O_TLIST || in->o[1].label < 0 || in->o[1].imm < 1 ||
        (uint64_t)in->o[1].label + (uint64_t)in->o[1].imm > f->ntlist)
        return false;
    *first = (uint32_t)in->o[1].label;
    *count = (uint32_t)in->o[1].imm;
    return true;
}

static void add_succ(struct ptx_block *b, int32_t s)
{
    for (unsigned i = 0; i < b->nsucc; i++)
        if (b->succ[i] == s)
            return;
    b->succ[b->nsucc++] = s;
}

static int32_t intersect(const int32_t *ipdom, const uint32_t *po, int32_t a,
                         int32_t b)
{
    while (a != b) {
        while (po[a] < po[b])
            a = ipdom[a];
        while (po[b] < po[a])
            b = ipdom[b];
    }
    return a;
}

int ptx_cfg_build(struct ptx_func *f, struct ptx_arena *a)
{
    uint32_t n = f->ninsts;
    struct ptx_cfg *cfg = ptx_arena_alloc(a, sizeof *cfg);
    if (!cfg)
        return -1;
    f->cfg = cfg;
    for (uint32_t i = 0; i < n; i++) {
        f->insts[i].reconv = -1;
        if (f->insts[i].op == PTX_OP_BRA &&
            (f->insts[i].o[0].label < 0 || (uint32_t)f->insts[i].o[0].label > n))
            return -1;
        uint32_t t0, tn;
        if (f->insts[i].op == PTX_OP_BRX) {
            if (!brx_list(f, &f->insts[i], &t0, &tn))
                return -1;
            for (uint32_t k = t0; k < t0 + tn; k++)
                if (f->tlist[k] < 0 || (uint32_t)f->tlist[k] > n)
                    return -1;
        }
    }
    if (n == 0)
        return 0;
    uint8_t *leader = calloc(n + 1, 1);
    if (!leader)
        return -1;
    leader[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        const struct ptx_inst *in = &f->insts[i];
        if (in->op == PTX_OP_BRA)
            leader[in->o[0].label] = 1;
        uint32_t t0, tn;
        if (in->op == PTX_OP_BRX && brx_list(f, in, &t0, &tn))
            for (uint32_t k = t0; k < t0 + tn; k++)
                leader[f->tlist[k]] = 1;
        if (ends_block(in))
            leader[i + 1] = 1;
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++)
        nb += leader[i];
    cfg->nblocks = nb;
    cfg->blocks = ptx_arena_alloc(a, (size_t)nb * sizeof *cfg->blocks);
    cfg->block_of = ptx_arena_alloc(a, (size_t)n * sizeof *cfg->block_of);
    /* scratch: per block postorder, pred CSR, dfs stack */
    size_t nn = (size_t)nb + 1, nedges = 2 * (size_t)nb + 1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t0, tn;
        if (f->insts[i].op == PTX_OP_BRX && brx_list(f, &f->insts[i], &t0, &tn))
            nedges += tn;
    }
    uint32_t *po = malloc(nn * sizeof *po);
    uint32_t *pstart = calloc(nn + 1, sizeof *pstart);
    int32_t *preds = malloc(nedges * sizeof *preds);
    int32_t *order = malloc(nn * sizeof *order);
    uint32_t *stack = malloc(nn * sizeof *stack);
    uint32_t *spos = malloc(nn * sizeof *spos);
    int32_t *ipdom = malloc(nn * sizeof *ipdom);
    int rc = -1;
    if (!cfg->blocks || !cfg->block_of || !po || !pstart || !preds || !order ||
        !stack || !spos || !ipdom)
        goto out;
    {
        uint32_t b = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (leader[i] && i) {
                cfg->blocks[b].end = i;
                b++;
            }
            if (leader[i])
                cfg->blocks[b].first = i;
            cfg->block_of[i] = b;
        }
        cfg->blocks[b].end = n;
    }
    int32_t X = (int32_t)nb;
    for (uint32_t b = 0; b < nb; b++) {
        struct ptx_block *bl = &cfg->blocks[b];
        const struct ptx_inst *last = &f->insts[bl->end - 1];
        int32_t fall = bl->end < n ? (int32_t)cfg->block_of[bl->end] : X;
        bl->nsucc = 0;
        uint32_t t0 = 0, tn = 0;
        if (last->op == PTX_OP_BRX)
            brx_list(f, last, &t0, &tn);
        bl->succ = ptx_arena_alloc(a, (tn + 2) * sizeof *bl->succ);
        if (!bl->succ)
            goto out;
        if (last->op == PTX_OP_BRX) {
            for (uint32_t k = t0; k < t0 + tn; k++) {
                uint32_t t = (uint32_t)f->tlist[k];
                add_succ(bl, t < n ? (int32_t)cfg->block_of[t] : X);
            }
            if (last->guard >= 0)
                add_succ(bl, fall);
        } else if (last->op == PTX_OP_BRA) {
            uint32_t t = (uint32_t)last->o[0].label;
            add_succ(bl, t < n ? (int32_t)cfg->block_of[t] : X);
            if (last->guard >= 0)
                add_succ(bl, fall);
        } else if (last->op == PTX_OP_RET || last->op == PTX_OP_EXIT ||
                   last->op == PTX_OP_TRAP) {      /* trap: the thread leaves */
            add_succ(bl, X);
            if (last->guard >= 0)
                add_succ(bl, fall);
        } else {
            add_succ(bl, fall);
        }
    }
    /* reverse-graph neighbours of v = forward predecessors of v (CSR) */
    for (uint32_t b = 0; b < nb; b++)
        for (unsigned k = 0; k < cfg->blocks[b].nsucc; k++)
            pstart[cfg->blocks[b].succ[k] + 1]++;
    for (size_t v = 0; v < nn; v++)
        pstart[v + 1] += pstart[v];
    {
        uint32_t *fill = spos; /* reuse as cursor */
        for (size_t v = 0; v < nn; v++)
            fill[v] = pstart[v];
        for (uint32_t b = 0; b < nb; b++)
            for (unsigned k = 0; k < cfg->blocks[b].nsucc; k++)
                preds[fill[cfg->blocks[b].succ[k]]++] = (int32_t)b;
    }
    /* iterative DFS from the exit over reverse edges: postorder numbers */
    for (size_t v = 0; v < nn; v++) {
        po[v] = UINT32_MAX;
        ipdom[v] = -1;
    }
    uint32_t npo = 0, sp = 0;
    uint8_t *seen = leader; /* reuse: size n+1 >= nb+1 */
    memset(seen, 0, nn);
    stack[sp] = (uint32_t)X;
    spos[sp++] = pstart[X];
    seen[X] = 1;
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (spos[sp - 1] < pstart[v + 1]) {
            int32_t w = preds[spos[sp - 1]++];
            if (!seen[w]) {
                seen[w] = 1;
                stack[sp] = (uint32_t)w;
                spos[sp++] = pstart[w];
            }
        } else {
            po[v] = npo;
            order[npo++] = (int32_t)v;
            sp--;
        }
    }
    /* fixpoint in reverse postorder (exit first) */
    ipdom[X] = X;
    bool changed = true;
    cfg->iterations = 0;
    while (changed) {
        changed = false;
        cfg->iterations++;
        for (uint32_t k = npo - 1; k-- > 0;) {
            int32_t b = order[k];
            const struct ptx_block *bl = &cfg->blocks[b];
            int32_t nd = -1;
            for (unsigned s = 0; s < bl->nsucc; s++) {
                int32_t sc = bl->succ[s];
                if (ipdom[sc] < 0)
                    continue;
                nd = nd < 0 ? sc : intersect(ipdom, po, sc, nd);
            }
            if (nd >= 0 && ipdom[b] != nd) {
                ipdom[b] = nd;
                changed = true;
            }
        }
    }
    for (uint32_t b = 0; b < nb; b++)
        cfg->blocks[b].ipdom = ipdom[b] < 0 ? X : ipdom[b];
    for (uint32_t i = 0; i < n; i++) {
        struct ptx_inst *in = &f->insts[i];
        if (in->op != PTX_OP_BRA && in->op != PTX_OP_BRX)
            continue;
        int32_t d = cfg->blocks[cfg->block_of[i]].ipdom;
        in->reconv = d == X ? (int32_t)n : (int32_t)cfg->blocks[d].first;
    }
    rc = 0;
out:
    free(leader);
    free(po);
    free(pstart);
    free(preds);
    free(order);
    free(stack);
    free(spos);
    free(ipdom);
    return rc;
}

int32_t ptx_cfg_reconv(const struct ptx_func *f, uint32_t pc)
{
    return pc < f->ninsts ? f->insts[pc].reconv : -1;
}
