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

/* Every bra target and brx.idx list entry in [0, n]; resets reconv. */
static int check_targets(struct ptx_func *f)
{
    uint32_t n = f->ninsts;
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
    return 0;
}

/* leader[i] = 1 where instruction i starts a block (n + 1 entries);
 * returns the number of blocks. */
static uint32_t mark_leaders(const struct ptx_func *f, uint8_t *leader)
{
    uint32_t n = f->ninsts;
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
    return nb;
}

/* Block bounds and block_of from the leaders. */
static void form_blocks(struct ptx_cfg *cfg, const uint8_t *leader, uint32_t n)
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

/* Successors of every block (nblocks = the exit); -1 when out of memory. */
static int link_blocks(const struct ptx_func *f, struct ptx_cfg *cfg,
                       struct ptx_arena *a)
{
    uint32_t n = f->ninsts, nb = cfg->nblocks;
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
            return -1;
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
    return 0;
}

/* Scratch arrays of the post-dominator pass, nblocks + 1 nodes each
 * (preds: one per edge; seen: at least nblocks + 1 bytes). */
struct pdom_work {
    uint32_t *po;       /* postorder number of each node */
    uint32_t *pstart;   /* CSR start of each node's predecessors */
    int32_t *preds;
    int32_t *order;     /* nodes by postorder number */
    uint32_t *stack, *spos;
    int32_t *ipdom;
    uint8_t *seen;
};

/* Postorder of the reverse graph by an iterative DFS from the exit;
 * returns how many nodes it reached. */
static uint32_t reverse_postorder(const struct ptx_cfg *cfg, struct pdom_work *w)
{
    uint32_t nb = cfg->nblocks;
    size_t nn = (size_t)nb + 1;
    int32_t X = (int32_t)nb;
    /* reverse-graph neighbours of v = forward predecessors of v (CSR) */
    for (uint32_t b = 0; b < nb; b++)
        for (unsigned k = 0; k < cfg->blocks[b].nsucc; k++)
            w->pstart[cfg->blocks[b].succ[k] + 1]++;
    for (size_t v = 0; v < nn; v++)
        w->pstart[v + 1] += w->pstart[v];
    {
        uint32_t *fill = w->spos; /* reuse as cursor */
        for (size_t v = 0; v < nn; v++)
            fill[v] = w->pstart[v];
        for (uint32_t b = 0; b < nb; b++)
            for (unsigned k = 0; k < cfg->blocks[b].nsucc; k++)
                w->preds[fill[cfg->blocks[b].succ[k]]++] = (int32_t)b;
    }
    for (size_t v = 0; v < nn; v++) {
        w->po[v] = UINT32_MAX;
        w->ipdom[v] = -1;
    }
    uint32_t npo = 0, sp = 0;
    memset(w->seen, 0, nn);
    w->stack[sp] = (uint32_t)X;
    w->spos[sp++] = w->pstart[X];
    w->seen[X] = 1;
    while (sp) {
        uint32_t v = w->stack[sp - 1];
        if (w->spos[sp - 1] < w->pstart[v + 1]) {
            int32_t s = w->preds[w->spos[sp - 1]++];
            if (!w->seen[s]) {
                w->seen[s] = 1;
                w->stack[sp] = (uint32_t)s;
                w->spos[sp++] = w->pstart[s];
            }
        } else {
            w->po[v] = npo;
            w->order[npo++] = (int32_t)v;
            sp--;
        }
    }
    return npo;
}

/* Immediate post-dominators: the fixpoint in reverse postorder (exit
 * first) into cfg->blocks[].ipdom (the exit where none is found). */
static void postdominators(struct ptx_cfg *cfg, struct pdom_work *w, uint32_t npo)
{
    uint32_t nb = cfg->nblocks;
    int32_t X = (int32_t)nb, *ipdom = w->ipdom;
    ipdom[X] = X;
    bool changed = true;
    cfg->iterations = 0;
    while (changed) {
        changed = false;
        cfg->iterations++;
        for (uint32_t k = npo - 1; k-- > 0;) {
            int32_t b = w->order[k];
            const struct ptx_block *bl = &cfg->blocks[b];
            int32_t nd = -1;
            for (unsigned s = 0; s < bl->nsucc; s++) {
                int32_t sc = bl->succ[s];
                if (ipdom[sc] < 0)
                    continue;
                nd = nd < 0 ? sc : intersect(ipdom, w->po, sc, nd);
            }
            if (nd >= 0 && ipdom[b] != nd) {
                ipdom[b] = nd;
                changed = true;
            }
        }
    }
    for (uint32_t b = 0; b < nb; b++)
        cfg->blocks[b].ipdom = ipdom[b] < 0 ? X : ipdom[b];
}

int ptx_cfg_build(struct ptx_func *f, struct ptx_arena *a)
{
    uint32_t n = f->ninsts;
    struct ptx_cfg *cfg = ptx_arena_alloc(a, sizeof *cfg);
    if (!cfg)
        return -1;
    f->cfg = cfg;
    if (check_targets(f))
        return -1;
    if (n == 0)
        return 0;
    uint8_t *leader = calloc(n + 1, 1);
    if (!leader)
        return -1;
    uint32_t nb = mark_leaders(f, leader);
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
    struct pdom_work w = {
        .po = malloc(nn * sizeof *w.po),
        .pstart = calloc(nn + 1, sizeof *w.pstart),
        .preds = malloc(nedges * sizeof *w.preds),
        .order = malloc(nn * sizeof *w.order),
        .stack = malloc(nn * sizeof *w.stack),
        .spos = malloc(nn * sizeof *w.spos),
        .ipdom = malloc(nn * sizeof *w.ipdom),
        .seen = leader,             /* reuse: size n+1 >= nb+1 */
    };
    int rc = -1;
    if (!cfg->blocks || !cfg->block_of || !w.po || !w.pstart || !w.preds ||
        !w.order || !w.stack || !w.spos || !w.ipdom)
        goto out;
    form_blocks(cfg, leader, n);
    if (link_blocks(f, cfg, a))
        goto out;
    postdominators(cfg, &w, reverse_postorder(cfg, &w));
    int32_t X = (int32_t)nb;
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
    free(w.po);
    free(w.pstart);
    free(w.preds);
    free(w.order);
    free(w.stack);
    free(w.spos);
    free(w.ipdom);
    return rc;
}

int32_t ptx_cfg_reconv(const struct ptx_func *f, uint32_t pc)
{
    return pc < f->ninsts ? f->insts[pc].reconv : -1;
}
