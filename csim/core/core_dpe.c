/* Dual-path execution in the SM (core_dpe.h, docs/dpe.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "core/core_dpe.h"
#include "core/core_mech.h"
#include "simt/simt_cta.h"

static inline unsigned popc(uint32_t x) { return (unsigned)__builtin_popcount(x); }

/* ------------------------------------------------------------ scoreboard */

int core_dpe_sb_alloc(struct core_dpe_sb *sb, unsigned nregs, bool optimistic)
{
    memset(sb, 0, sizeof *sb);
    sb->nregs = nregs ? nregs : 1;
    sb->optimistic = optimistic;
    if (optimistic) {
        sb->lane = calloc((size_t)sb->nregs * 32, sizeof *sb->lane);
        return sb->lane ? 0 : -1;
    }
    sb->r = calloc(sb->nregs, sizeof *sb->r);
    sb->nwords = (sb->nregs + 63) / 64;
    sb->dirty = calloc(2 * (size_t)sb->nwords, sizeof *sb->dirty);
    return sb->r && sb->dirty ? 0 : -1;
}

void core_dpe_sb_free(struct core_dpe_sb *sb)
{
    free(sb->r);
    free(sb->dirty);
    free(sb->lane);
    memset(sb, 0, sizeof *sb);
}

void core_dpe_sb_reset(struct core_dpe_sb *sb)
{
    if (sb->optimistic) {
        memset(sb->lane, 0, (size_t)sb->nregs * 32 * sizeof *sb->lane);
        return;
    }
    memset(sb->r, 0, sb->nregs * sizeof *sb->r);
    memset(sb->dirty, 0, 2 * (size_t)sb->nwords * sizeof *sb->dirty);
}

/* Register r of side `side` may now have a pending time above its shadow. */
static inline void sb_mark(struct core_dpe_sb *sb, unsigned side, unsigned r)
{
    sb->dirty[side * sb->nwords + r / 64] |= 1ull << (r % 64);
}

/* Register r's stall time per side after its pending or shadow time moved:
 * a path stalls on its own pending bit or the other side's shadow bit. */
static inline void sb_derive(struct core_dpe_sb *sb, unsigned r)
{
    struct core_dpe_sbreg *e = &sb->r[r];
    e->rdy[0] = e->pend[0] > e->shadow[1] ? e->pend[0] : e->shadow[1];
    e->rdy[1] = e->pend[1] > e->shadow[0] ? e->pend[1] : e->shadow[0];
}

uint64_t core_dpe_sb_ready(const struct core_dpe_sb *sb, unsigned side,
                           uint32_t mask, const int32_t *regs, unsigned n)
{
    uint64_t t = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned r = (unsigned)regs[i];
        if (r >= sb->nregs)
            continue;
        if (sb->optimistic) {
            const uint64_t *l = &sb->lane[(size_t)r * 32];
            for (uint32_t m = mask; m; m &= m - 1) {
                uint64_t v = l[__builtin_ctz(m)];
                t = v > t ? v : t;
            }
            continue;
        }
        uint64_t a = sb->r[r].rdy[side];
        t = a > t ? a : t;
    }
    return t;
}

/* core_dpe_sb_ready of di's sources and destinations, the conservative
 * scoreboard inline (the issue check's hot path). */
static inline uint64_t sb_ready_di(const struct core_dpe_sb *sb, unsigned side,
                                   uint32_t mask, const struct core_dinst *di)
{
    if (sb->optimistic) {
        uint64_t a = core_dpe_sb_ready(sb, side, mask, di->src, di->nsrc);
        uint64_t b = core_dpe_sb_ready(sb, side, mask, di->dst, di->ndst);
        return a > b ? a : b;
    }
    uint64_t t = 0;
    for (unsigned i = 0; i < di->nsrc; i++)
        if ((unsigned)di->src[i] < sb->nregs && sb->r[di->src[i]].rdy[side] > t)
            t = sb->r[di->src[i]].rdy[side];
    for (unsigned i = 0; i < di->ndst; i++)
        if ((unsigned)di->dst[i] < sb->nregs && sb->r[di->dst[i]].rdy[side] > t)
            t = sb->r[di->dst[i]].rdy[side];
    return t;
}

static inline void sb_issue(struct core_dpe_sb *sb, unsigned side, uint32_t mask,
                            const int32_t *regs, unsigned n, uint64_t ready)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned r = (unsigned)regs[i];
        if (r >= sb->nregs)
            continue;
        if (sb->optimistic) {
            for (uint32_t m = mask; m; m &= m - 1)
                sb->lane[(size_t)r * 32 + (unsigned)__builtin_ctz(m)] = ready;
        } else {
            sb->r[r].pend[side] = ready;
            sb_mark(sb, side, r);
            sb_derive(sb, r);
        }
    }
}

void core_dpe_sb_issue(struct core_dpe_sb *sb, unsigned side, uint32_t mask,
                       const int32_t *regs, unsigned n, uint64_t ready)
{
    sb_issue(sb, side, mask, regs, n, ready);
}

void core_dpe_sb_wb(struct core_dpe_sb *sb, unsigned side, uint32_t mask,
                    const int32_t *regs, unsigned n, uint64_t at)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned r = (unsigned)regs[i];
        if (r >= sb->nregs)
            continue;
        if (sb->optimistic) {
            for (uint32_t m = mask; m; m &= m - 1) {
                uint64_t *v = &sb->lane[(size_t)r * 32 + (unsigned)__builtin_ctz(m)];
                if (*v == UINT64_MAX)
                    *v = at;
            }
            continue;
        }
        /* the path bit that travelled with the load names the scoreboard:
         * its pending bit and the shadow copy of it clear */
        struct core_dpe_sbreg *e = &sb->r[r];
        if (e->pend[side] == UINT64_MAX)
            e->pend[side] = at;
        if (e->shadow[side] == UINT64_MAX)
            e->shadow[side] = at;
        sb_mark(sb, side, r);
        sb_derive(sb, r);
    }
}

void core_dpe_sb_shadow(struct core_dpe_sb *sb, unsigned side)
{
    if (sb->optimistic)
        return;
    uint64_t *d = &sb->dirty[side * sb->nwords];
    for (unsigned wi = 0; wi < sb->nwords; wi++) {
        for (uint64_t m = d[wi]; m; m &= m - 1) {
            unsigned r = wi * 64 + (unsigned)__builtin_ctzll(m);
            if (sb->r[r].pend[side] > sb->r[r].shadow[side]) {
                sb->r[r].shadow[side] = sb->r[r].pend[side];
                sb_derive(sb, r);
            }
        }
        d[wi] = 0;
    }
}

/* ---------------------------------------------------------------- unit */

static int core_dpe_init(struct core_dpe *d, unsigned paths, unsigned sbkind,
                  unsigned sched, bool fwd, uint32_t dws_n, unsigned nslots,
                  uint32_t cap)
{
    memset(d, 0, sizeof *d);
    d->paths = paths;
    d->sbkind = sbkind;
    d->sched = sched;
    d->fwd = fwd && paths == CORE_DPE_DUAL;
    d->simple = paths == CORE_DPE_DUAL && sched == CORE_DPE_FULL && !d->fwd;
    d->dws_n = dws_n;
    d->nslots = nslots;
    if (paths == CORE_DPE_SINGLE)
        return 0;
    d->w = calloc(nslots, sizeof *d->w);
    if (!d->w)
        return -1;
    for (unsigned i = 0; i < nslots; i++) {
        int rc = paths == CORE_DPE_DWS ? simt_dws_alloc(&d->w[i].ws, cap)
                                       : simt_dpe_alloc(&d->w[i].st, cap);
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* Frees the unit. */
static void core_dpe_free(struct core_dpe *d)
{
    for (unsigned i = 0; d->w && i < d->nslots; i++) {
        simt_dpe_free(&d->w[i].st);
        simt_dws_free(&d->w[i].ws);
        core_dpe_sb_free(&d->w[i].sb);
    }
    free(d->w);
    free(d->bblen);
    memset(d, 0, sizeof *d);
}

/* Why instruction i of f cannot run dual-path (dws: subdivided) exactly,
 * or NULL (core_mech_refusal walks the kernel with it). */
static const char *dpe_refuse(const struct cfg *c, const struct ptx_func *f, uint32_t i)
{
    const struct ptx_inst *in = &f->insts[i];
    bool dws = c->simt_paths == CORE_DPE_DWS;
    switch ((enum ptx_op)in->op) {
    /* dws: the splits of a warp run an atom for their lanes at different
     * times, in an order lockstep never gives them: a kernel that reads
     * the returned values could end with other (valid) memory than
     * functional mode (docs/dpe.md) */
    case PTX_OP_ATOM:
        if (dws && in->o[0].kind == PTX_O_REG && simt_reg_read(f, in->o[0].reg, i))
            return "atom (its value read; dws)";
        return NULL;
    /* the lanes of the other path would see this path's order of
     * execution (they read or wait for lanes that are not yet there) */
    case PTX_OP_SHFL: return "shfl";
    case PTX_OP_VOTE: return "vote";
    case PTX_OP_ACTIVEMASK: return "activemask";
    case PTX_OP_MATCH: return "match";
    case PTX_OP_WMMA_LOAD: case PTX_OP_WMMA_STORE: case PTX_OP_WMMA_MMA:
    case PTX_OP_MMA: return "wmma/mma";
    /* frames are per warp: the dual-path stack has no frame field */
    case PTX_OP_CALL: return "call";
    case PTX_OP_BRX: return "brx.idx";
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        return in->sub == PTX_SUB_WARP_SYNC ? "bar.warp.sync" : NULL;
    default:
        return NULL;
    }
}

/* Decides whether kernel f (decoded: di[0..ninsts]) runs dual-path or DWS (d->active) or why not
 * (d->reason: a call, brx.idx, a warp-level instruction; dws also an atom
 * whose value is read); sizes the scoreboards for nregs registers and
 * (dws) finds the block lengths; resets statistics. Returns 0 or -1. */
static int core_dpe_kernel(struct core_dpe *d, const struct ptx_func *f, unsigned nregs,
                    const struct core_dinst *di)
{
    d->di = di;
    d->ninsts = f->ninsts;
    memset(&d->st, 0, sizeof d->st);
    d->branches = d->divergent = d->interleavable = 0;
    d->subdivided = d->refused = d->nested = d->created = d->merges = 0;
    d->reason[0] = 0;
    d->active = false;
    if (d->paths == CORE_DPE_SINGLE)
        return 0;
    if (core_mech_refusal(&core_dpe_mech, d->v->c, f, d->reason, sizeof d->reason))
        return 0;
    /* dws: the per-lane scoreboard of a perfect DWS (dissertation 3.3.1) */
    bool opt = d->paths == CORE_DPE_DWS || d->sbkind == CORE_DPE_SB_OPTIMISTIC;
    if (nregs != d->nregs || !d->w[0].sb.nregs || d->w[0].sb.optimistic != opt) {
        for (unsigned i = 0; i < d->nslots; i++) {
            core_dpe_sb_free(&d->w[i].sb);
            if (core_dpe_sb_alloc(&d->w[i].sb, nregs, opt) != 0)
                return -1;
        }
        d->nregs = nregs;
    }
    if (d->paths == CORE_DPE_DWS) {
        free(d->bblen);
        d->bblen = malloc(((size_t)f->ninsts + 1) * sizeof *d->bblen);
        if (!d->bblen)
            return -1;
        simt_dws_blocks(f, d->bblen);
    }
    d->active = true;
    return 0;
}

/* ------------------------------------------------- the paths of a warp */

/* One path of a warp: dual (the top entry's side, or a forwarded path of
 * entry ent) or dws (a WST split, or the top stack entry). */
struct path {
    int32_t pc, rpc;
    uint32_t mask;
    uint32_t ent;               /* dual: the entry that holds it           */
    unsigned side;              /* dual: its side in that entry            */
    bool fwd;                   /* dual: forwarded from below the top      */
};

static unsigned npaths_max(const struct core_dpe *d)
{
    return d->paths == CORE_DPE_DWS ? CORE_DPE_MAXP : 2;
}

static bool is_ctrl(const struct core_dpe *d, int32_t pc)
{
    const struct ptx_func *f = d->v->k->f;
    if ((uint32_t)pc >= f->ninsts)
        return true;            /* the end: an exit */
    return simt_is_control((enum ptx_op)f->insts[pc].op, f->insts[pc].sub);
}

/* path_get's cases other than a valid top-entry side of dual. */
static bool path_get_slow(const struct core_dpe *d, const struct core_dpe_warp *dw,
                          unsigned k, struct path *p);

/* Path k of slot's warp: whether it is schedulable, and what it is. A
 * forwarded path (dual, dpe.path_forwarding) fills the free top slot k
 * while the other top path is schedulable; it stops before a control
 * instruction (a divergent branch could only push at the top). The
 * common case, a valid side of dual's top entry, is inline: the issue
 * check asks for both paths of every awake warp every cycle. */
static inline bool path_get(const struct core_dpe *d, const struct core_dpe_warp *dw,
                            unsigned k, struct path *p)
{
    const struct simt_dpe *st = &dw->st;
    if (d->paths != CORE_DPE_DWS) {
        if (k > 1 || !st->sp)
            return false;
        const struct simt_dpe_entry *e = &st->stack[st->sp - 1];
        if (e->p[k].mask && e->p[k].pc != e->rpc) {     /* simt_dpe_valid */
            *p = (struct path){ e->p[k].pc, e->rpc, e->p[k].mask, st->sp - 1, k, false };
            return true;
        }
        if (!d->fwd)
            return false;
    }
    return path_get_slow(d, dw, k, p);
}

static bool path_get_slow(const struct core_dpe *d, const struct core_dpe_warp *dw,
                          unsigned k, struct path *p)
{
    if (d->paths == CORE_DPE_DWS) {
        if (!simt_dws_path(&dw->ws, k, &p->pc, &p->mask))
            return false;
        p->rpc = dw->ws.sub ? dw->ws.rpc : dw->ws.stack[dw->ws.sp - 1].rpc;
        p->ent = dw->ws.sp - 1;
        p->side = k;
        p->fwd = false;
        return true;
    }
    const struct simt_dpe *st = &dw->st;
    if (k > 1 || !st->sp)
        return false;
    const struct simt_dpe_entry *e = &st->stack[st->sp - 1];
    if (simt_dpe_valid(st, k)) {
        *p = (struct path){ e->p[k].pc, e->rpc, e->p[k].mask, st->sp - 1, k, false };
        return true;
    }
    uint32_t ent;
    unsigned side;
    if (!d->fwd || !simt_dpe_valid(st, k ^ 1u) || !simt_dpe_forward(st, &ent, &side))
        return false;
    e = &st->stack[ent];
    *p = (struct path){ e->p[side].pc, e->rpc, e->p[side].mask, ent, side, true };
    return !is_ctrl(d, p->pc);
}

/* Whether side k of dual entry e is schedulable (simt_dpe_valid). */
static inline bool side_valid(const struct simt_dpe_entry *e, unsigned k)
{
    return e->p[k].mask && e->p[k].pc != e->rpc;
}

/* Schedulable paths of the warp (Avg_Path counts them at each issue). */
static inline unsigned path_count(const struct core_dpe *d, const struct core_dpe_warp *dw)
{
    if (d->paths == CORE_DPE_DUAL && !d->fwd) {
        if (!dw->st.sp)
            return 0;
        const struct simt_dpe_entry *e = &dw->st.stack[dw->st.sp - 1];
        return (unsigned)side_valid(e, 0) + (unsigned)side_valid(e, 1);
    }
    if (d->paths == CORE_DPE_DWS)
        return simt_dws_npaths(&dw->ws);
    struct path p;
    return (unsigned)path_get(d, dw, 0, &p) + (unsigned)path_get(d, dw, 1, &p);
}

/* Path p moves to npc. Returns the entries popped. */
static unsigned path_advance(struct core_dpe *d, struct core_dpe_warp *dw,
                             const struct path *p, int32_t npc)
{
    if (d->paths == CORE_DPE_DWS)
        return simt_dws_advance(&dw->ws, p->side, npc);
    return simt_dpe_advance_at(&dw->st, p->ent, p->side, npc);
}

static unsigned path_exit(struct core_dpe *d, struct core_dpe_warp *dw, uint32_t lanes)
{
    return d->paths == CORE_DPE_DWS ? simt_dws_exit(&dw->ws, lanes)
                                    : simt_dpe_exit(&dw->st, lanes);
}

static uint32_t path_depth(const struct core_dpe *d, const struct core_dpe_warp *dw)
{
    return d->paths == CORE_DPE_DWS ? dw->ws.sp : dw->st.sp;
}

/* The warp is one path on a one-entry stack (a CTA barrier may run). */
static bool path_whole(const struct core_dpe *d, const struct core_dpe_warp *dw)
{
    if (d->paths == CORE_DPE_DWS)
        return dw->ws.sp == 1 && !dw->ws.sub;
    return dw->st.sp == 1 && simt_dpe_npaths(&dw->st) == 1;
}

/* Mirrors path k into the warp's own stack (depth = the engine's stack
 * depth, the top entry = that path), so the code that reads the top of
 * sw.stack (memory pc, G-Scalar, statistics) sees it. Dual mirrors the
 * top entry's side k as it is; dws a schedulable path (k, else the first). */
static void mirror(struct core_dpe *d, unsigned slot, unsigned k)
{
    struct core_dpe_warp *dw = &d->w[slot];
    struct simt_warp *sw = &d->v->w[slot].sw;
    uint32_t depth = path_depth(d, dw);
    if (!depth) {
        sw->sp = 0;
        return;
    }
    struct path p;
    if (d->paths == CORE_DPE_DUAL && !d->fwd) {  /* no forwarded path */
        const struct simt_dpe_entry *e = &dw->st.stack[dw->st.sp - 1];
        sw->sp = depth;
        sw->stack[depth - 1] = (struct simt_entry){ e->p[k].mask, e->p[k].pc, e->rpc, 0, 0 };
        return;
    }
    if (d->paths == CORE_DPE_DWS) {
        for (unsigned j = 0; !path_get(d, dw, k, &p); j++) {
            if (j == CORE_DPE_MAXP)
                return;
            k = j;
        }
    } else if (!path_get(d, dw, k, &p) || !p.fwd) {
        const struct simt_dpe_entry *e = &dw->st.stack[dw->st.sp - 1];
        p = (struct path){ e->p[k].pc, e->rpc, e->p[k].mask, 0, k, false };
    }
    sw->sp = depth;
    sw->stack[sw->sp - 1] = (struct simt_entry){ p.mask, p.pc, p.rpc, 0, 0 };
}

/* Slot's warp started with threads `valid` (dpe_warp_start). */
static void core_dpe_launch(struct core_dpe *d, unsigned slot, uint32_t valid, uint64_t now)
{
    struct core_dpe_warp *dw = &d->w[slot];
    struct core_warp *w = &d->v->w[slot];
    (void)now;
    if (d->paths == CORE_DPE_DWS)
        simt_dws_start(&dw->ws, valid, d->v->k->f->ninsts, d->bblen, d->dws_n);
    else
        simt_dpe_start(&dw->st, valid, d->v->k->f->ninsts);
    core_dpe_sb_reset(&dw->sb);
    dw->cur = dw->sched = 0;
    dw->issued_at = 0;
    memset(dw->miss_seen, 0, sizeof dw->miss_seen);
    dw->inherit = -1;
    dw->at_bar = 0;
    dw->shadow_due = 0;
    dw->last = (uint8_t)(npaths_max(d) - 1);
    for (unsigned s = 0; s < CORE_DPE_MAXP; s++) {
        dw->ibuf_ready[s] = w->ibuf_ready;
        dw->ibuf_block[s] = w->ibuf_block;
        dw->ibuf_n[s] = w->ibuf_n;
    }
    mirror(d, slot, 0);
}

static inline const struct core_dinst *path_di(const struct core_dpe *d, int32_t pc)
{
    uint32_t n = d->ninsts;
    return &d->di[(uint32_t)pc < n ? (uint32_t)pc : n];
}

/* (the decoded flag: the PTX instruction array is cold in the issue loop;
 * pc == ninsts, the end, decodes to no barrier) */
static bool at_cta_barrier(const struct core_dpe *d, int32_t pc)
{
    return path_di(d, pc)->is_cta_bar;
}

/* Path s of slot's warp (threads mask, instruction di) at now: CORE_ST_NONE
 * (it may issue; *unit_ix = its pipeline), else its stall, with *t = the
 * cycle that may change it: the path's instruction buffer, its side of
 * the scoreboard, then the pipeline or memory queue (core_sm_unit_wait).
 * Always inline: the issue check's hot path (a call costs it 3%). */
static inline __attribute__((always_inline)) int path_stall(const struct core_dpe *d, unsigned slot, unsigned s,
                             uint32_t mask, const struct core_dinst *di, uint64_t now,
                             uint64_t *t, int *unit_ix)
{
    const struct core_dpe_warp *dw = &d->w[slot];
    if (dw->ibuf_ready[s] > now) {
        *t = dw->ibuf_ready[s];
        return CORE_ST_IBUFFER;
    }
    *t = sb_ready_di(&dw->sb, s & 1u, mask, di);
    if (*t > now)
        return CORE_ST_SCOREBOARD;
    return core_view_unit_wait(d->v, &d->v->w[slot], di, now, t, unit_ix);
}

/* Path s (pc, threads mask, reconvergence rpc; instruction di) issues next:
 * the warp takes its instruction buffer and mirrors the path (as mirror()). */
static inline void path_take(struct core_dpe *d, unsigned slot, unsigned s,
                             const struct core_dinst *di, int32_t pc, uint32_t mask,
                             int32_t rpc)
{
    struct core_dpe_warp *dw = &d->w[slot];
    struct core_warp *w = &d->v->w[slot];
    dw->cur = (uint8_t)s;
    w->next_di = di;
    w->ibuf_ready = dw->ibuf_ready[s];
    w->ibuf_block = dw->ibuf_block[s];
    w->ibuf_n = dw->ibuf_n[s];
    w->sw.sp = path_depth(d, dw);
    w->sw.stack[w->sw.sp - 1] = (struct simt_entry){ mask, pc, rpc, 0, 0 };
}

static int check_paths(struct core_dpe *d, unsigned slot, uint64_t now, uint64_t *when,
                       int *unit_ix);

/* Chooses the path of slot to issue at now (full scheduler: every path,
 * from the one after the path issued last, round robin; constrained: the
 * held path only): the first whose instruction buffer, scoreboard and
 * pipeline (core_view_unit_wait) are ready. Readies w->next_di and the
 * instruction buffer fields for it. Returns CORE_ST_NONE, or the stall
 * (CORE_ST_IBUFFER, CORE_ST_SCOREBOARD, CORE_ST_BARRIER, CORE_ST_PIPE,
 * CORE_ST_MEM) with *when = the cycle that may change it; with NONE,
 * *unit_ix = the free pipeline (core_view_unit_wait). */
static int core_dpe_check(struct core_dpe *d, unsigned slot, uint64_t now, uint64_t *when,
                   int *unit_ix)
{
    const struct simt_dpe *st = &d->w[slot].st;
    if (d->simple && st->sp) {
        /* the common case, one schedulable path (the warp is not split):
         * check_paths' loop with that path only (a CTA barrier waits for
         * no other path) */
        const struct simt_dpe_entry *e = &st->stack[st->sp - 1];
        bool v0 = side_valid(e, 0), v1 = side_valid(e, 1);
        if (v0 != v1) {
            unsigned k = v1;
            const struct core_dinst *di = path_di(d, e->p[k].pc);
            uint64_t t;
            int why = path_stall(d, slot, k, e->p[k].mask, di, now, &t, unit_ix);
            d->mem_wait = why == CORE_ST_MEM;
            if (why == CORE_ST_NONE) {
                *when = CORE_INF;
                path_take(d, slot, k, di, e->p[k].pc, e->p[k].mask, e->rpc);
            } else {
                *when = t;
            }
            return why;
        }
    }
    return check_paths(d, slot, now, when, unit_ix);
}

/* core_dpe_check, every case. */
static int check_paths(struct core_dpe *d, unsigned slot, uint64_t now, uint64_t *when,
                       int *unit_ix)
{
    struct core_dpe_warp *dw = &d->w[slot];
    *when = CORE_INF;
    if (!path_depth(d, dw))
        return CORE_ST_BARRIER;
    unsigned np = npaths_max(d);
    /* constrained: one scheduler entry per warp, holding dw->sched (it
     * moves to the other path when the held one is gone) */
    bool constrained = d->sched == CORE_DPE_CONSTRAINED;
    struct path p;
    if (constrained && !path_get(d, dw, dw->sched, &p) && path_get(d, dw, dw->sched ^ 1u, &p)) {
        dw->sched ^= 1;
        d->st.switches++;
    }
    int reason = CORE_ST_BARRIER;
    unsigned first = constrained ? dw->sched : dw->last + 1u;
    unsigned nside = constrained ? 1 : np;
    int nfree = -1;             /* valid paths not at a CTA barrier (-1: not counted yet) */
    int structural = CORE_ST_NONE;  /* a path blocked by a pipeline or the
                                       memory queue */
    d->mem_wait = false;       /* a path blocked by the memory queue:
                                       the warp also wakes on memory events */
    for (unsigned j = 0, s = first; j < nside; j++, s++) {
        if (s >= np)
            s -= np;
        if (!path_get(d, dw, s, &p))
            continue;
        /* a path at a CTA barrier waits for the warp's other paths to
         * finish or merge (the barrier counts the warp's threads once it
         * is one path); with all at barriers it goes (core_dpe_step fails
         * it if the warp is still divergent). Counted only when a path is
         * at a barrier: the check runs per warp per cycle. */
        const struct core_dinst *di = path_di(d, p.pc);
        if (di->is_cta_bar) {
            if (nfree < 0) {
                struct path q;
                nfree = 0;
                for (unsigned k = 0; k < np; k++)
                    nfree += path_get(d, dw, k, &q) && !at_cta_barrier(d, q.pc);
            }
            if (nfree)
                continue;
        }
        uint64_t t;
        int why = path_stall(d, slot, s, p.mask, di, now, &t, unit_ix);
        if (why == CORE_ST_NONE) {
            path_take(d, slot, s, di, p.pc, p.mask, p.rpc);
            return CORE_ST_NONE;
        }
        /* each path is its own scheduler entry: one whose pipeline (or
         * the memory queue) is busy leaves the choice to the other */
        if (reason == CORE_ST_BARRIER || t < *when)
            reason = why;
        if (why == CORE_ST_PIPE || why == CORE_ST_MEM)
            structural = why;
        d->mem_wait |= why == CORE_ST_MEM;
        *when = t < *when ? t : *when;
    }
    /* *when: the earliest of its paths (the caller sleeps the warp until
     * then, or with mem_wait also until a memory event); a structurally
     * blocked path names the stall */
    if (structural != CORE_ST_NONE &&
        (reason == CORE_ST_BARRIER || reason == CORE_ST_IBUFFER ||
         reason == CORE_ST_SCOREBOARD))
        reason = structural;
    return reason;
}

/* Counts and commits a control instruction of the path on the warp. */
static void count_ctrl(struct simt_warp *sw, int32_t pc, uint32_t mask,
                       const struct ptx_func *f, uint32_t taken)
{
    sw->warp_insts++;
    sw->thread_insts += popc(mask);
    sw->res.active = mask;
    sw->res.taken = taken;
    if (sw->commit)
        sw->commit(sw->commit_user, sw, f, pc, mask);
}

static enum simt_rc dpe_fail(struct simt_warp *sw, const struct ptx_func *f,
                             int32_t pc, const char *msg)
{
    sw->err_kind = SIMT_ERR_PLAIN;
    sw->err.lane = -1;
    sw->err.addr = 0;
    snprintf(sw->err.msg, sizeof sw->err.msg, "%s", msg);
    sw->err_pc = pc;
    sw->err_simt = true;
    sw->err_func = f;
    return SIMT_RC_ERROR;
}

/* The warp's stack changed depth (a push or pops): reconvergence copies
 * the pending bits of both sides into their shadows (docs/dpe.md), and the
 * new top paths start from the fetch the control instruction caused. */
static void after_pops(struct core_dpe_warp *dw, unsigned popped)
{
    if (popped) {
        dw->shadow_due = 1;
        /* the returned-to path fetches on from where the popping path
         * reached the RPC (dws: no sides; its stack keeps one path) */
        if (dw->st.sp)
            dw->inherit = (int8_t)dw->st.stack[dw->st.sp - 1].wait;
    }
}

static enum simt_rc finish(struct core_dpe *d, unsigned slot)
{
    struct core_dpe_warp *dw = &d->w[slot];
    struct simt_warp *sw = &d->v->w[slot].sw;
    uint64_t md = d->paths == CORE_DPE_DWS ? dw->ws.max_depth : dw->st.max_depth;
    if (sw->max_depth < md)
        sw->max_depth = md;
    mirror(d, slot, dw->cur);
    if (path_depth(d, dw))
        return SIMT_RC_OK;
    sw->state = SIMT_DONE;
    sw->live = 0;
    if (sw->chkw.chk)
        exec_chk_warp_done(&sw->chkw);
    return SIMT_RC_DONE;
}

/* bra of path p (threads mask, `taken` of them taking it). */
static enum simt_rc do_bra(struct core_dpe *d, unsigned slot, const struct path *p,
                           const struct ptx_inst *in, uint32_t taken)
{
    struct core_dpe_warp *dw = &d->w[slot];
    struct simt_warp *sw = &d->v->w[slot].sw;
    const struct ptx_func *f = d->v->k->f;
    unsigned popped = 0;
    d->branches++;
    if (d->paths == CORE_DPE_DWS) {
        struct simt_dws *ws = &dw->ws;
        uint64_t sub0 = ws->subdivided, ref0 = ws->refused, nest0 = ws->nested;
        uint64_t cr0 = ws->created, mg0 = ws->merges;
        enum simt_dws_rc r = simt_dws_branch(ws, p->side, in, p->pc, f->ninsts,
                                             taken, &popped);
        if (r == SIMT_DWS_OVERFLOW)
            return dpe_fail(sw, f, p->pc, "reconvergence stack overflow");
        if (r != SIMT_DWS_UNIFORM) {
            sw->divergent++;
            d->divergent++;
        }
        d->subdivided += ws->subdivided - sub0;
        d->refused += ws->refused - ref0;
        d->nested += ws->nested - nest0;
        d->created += ws->created - cr0;
        d->merges += ws->merges - mg0;
        return finish(d, slot);
    }
    /* a divergence copies the pending bits into the shadow bits before
     * the new entry's paths issue (both sides, as Fig 3.6 shows: the
     * left shadow of r1 is set at BR_D-E of the right path) */
    uint64_t div0 = dw->st.divergent, il0 = dw->st.interleavable;
    enum simt_dpe_rc r = simt_dpe_branch(&dw->st, p->side, in, p->pc, f->ninsts,
                                         taken, &popped);
    if (r == SIMT_DPE_OVERFLOW)
        return dpe_fail(sw, f, p->pc, "reconvergence stack overflow");
    if (dw->st.divergent != div0) {
        sw->divergent++;
        d->divergent++;
        d->interleavable += dw->st.interleavable - il0;
        dw->shadow_due = 1;                 /* both sides: docs/dpe.md */
    }
    after_pops(dw, popped);
    return finish(d, slot);
}

/* Splits whose pcs met merged, splits arrived: counted after each step. */
static void count_merges(struct core_dpe *d, const struct core_dpe_warp *dw, uint64_t mg0)
{
    if (d->paths == CORE_DPE_DWS)
        d->merges += dw->ws.merges - mg0;
}

/* Executes the chosen path's instruction (values on the warp's registers
 * under the path mask; bra, exit, ret by the dual-path stack or the DWS
 * stack and warp-split table; CTA barriers through simt_step when the warp
 * is one path). Returns SIMT_RC_OK,
 * SIMT_RC_BARRIER, SIMT_RC_DONE or SIMT_RC_ERROR (w->sw.err filled). */
static enum simt_rc core_dpe_step(struct core_dpe *d, unsigned slot, uint64_t now)
{
    struct core_dpe_warp *dw = &d->w[slot];
    struct simt_warp *sw = &d->v->w[slot].sw;
    const struct ptx_func *f = d->v->k->f;
    unsigned s = dw->cur;
    struct path p;
    if (!path_get(d, dw, s, &p))
        return dpe_fail(sw, f, -1, "dual-path execution: no schedulable path");
    int32_t pc = p.pc;
    uint32_t mask = p.mask;
    uint64_t mg0 = dw->ws.merges;
    d->st.issued++;
    d->st.coissued += dw->issued_at == now + 1;
    dw->issued_at = now + 1;
    d->st.path_sum += path_count(d, dw);
    d->st.forwarded += p.fwd;
    dw->last = (uint8_t)s;
    dw->inherit = -1;
    /* the other top path before this issue: a control instruction that
     * leaves it as it was refills only the issuing path's buffer (with
     * path forwarding too: a forwarded path stops before a control
     * instruction, so the issuing path is a top one) */
    dw->keep = d->paths == CORE_DPE_DUAL && !d->refill_all &&
               simt_dpe_valid(&dw->st, s ^ 1u);
    if (dw->keep) {
        dw->keep_sp = dw->st.sp;
        dw->keep_path = dw->st.stack[dw->st.sp - 1].p[s ^ 1u];
    }
    if ((uint32_t)pc >= f->ninsts) {        /* fell off the end: exit */
        after_pops(dw, path_exit(d, dw, mask));
        sw->live &= ~mask;
        count_merges(d, dw, mg0);
        return finish(d, slot);
    }
    const struct ptx_inst *in = &f->insts[pc];
    switch ((enum ptx_op)in->op) {
    case PTX_OP_BRA: {
        uint32_t taken = exec_guard_mask(&sw->ew, in, mask);
        count_ctrl(sw, pc, mask, f, taken);
        sw->branches++;
        return do_bra(d, slot, &p, in, taken);
    }
    case PTX_OP_RET:
    case PTX_OP_EXIT: {
        uint32_t lanes = exec_guard_mask(&sw->ew, in, mask);
        count_ctrl(sw, pc, mask, f, sw->res.taken);
        sw->live &= ~lanes;
        /* the path's other threads go on; the exiting ones leave every
         * entry (both may pop entries) */
        unsigned popped = path_advance(d, dw, &p, pc + 1);
        popped += path_exit(d, dw, lanes);
        after_pops(dw, popped);
        count_merges(d, dw, mg0);
        return finish(d, slot);
    }
    case PTX_OP_TRAP: {
        uint32_t lanes = exec_guard_mask(&sw->ew, in, mask);
        if (lanes) {
            enum simt_rc r = dpe_fail(sw, f, pc, "trap executed (__trap(), or a runtime "
                                      "check compiled into the kernel): the kernel aborts "
                                      "(CUDA reports cudaErrorIllegalInstruction)");
            sw->err.lane = (int)__builtin_ctz(lanes);
            return r;
        }
        count_ctrl(sw, pc, mask, f, sw->res.taken);
        after_pops(dw, path_advance(d, dw, &p, pc + 1));
        count_merges(d, dw, mg0);
        return finish(d, slot);
    }
    case PTX_OP_BAR:
    case PTX_OP_BARRIER:
        if (in->sub == PTX_SUB_WARP_SYNC)
            break;
        if (!path_whole(d, dw)) {
            char m[240];
            snprintf(m, sizeof m, "%s: CTA barrier inside divergent code (stack depth "
                     "%u, %u paths): not modelled by this mode (the single-path "
                     "stack runs the other lanes on: docs/simt-stack.md)",
                     d->paths == CORE_DPE_DWS ? "dynamic warp subdivision"
                                              : "dual-path execution",
                     path_depth(d, dw), path_count(d, dw));
            return dpe_fail(sw, f, pc, m);
        }
        {
            /* the warp is one path: the per-warp stack runs the barrier
             * (arrival, bar.red operands, synccheck) on the mirror */
            mirror(d, slot, s);
            enum simt_rc r = simt_step(sw);
            if (r == SIMT_RC_ERROR)
                return r;
            int32_t npc = sw->sp ? sw->stack[sw->sp - 1].npc : p.rpc;
            after_pops(dw, path_advance(d, dw, &p, npc));
            mirror(d, slot, s);
            if (!path_depth(d, dw)) {
                sw->state = SIMT_DONE;
                sw->live = 0;
                return SIMT_RC_DONE;
            }
            return r;
        }
    default:
        break;
    }
    enum simt_rc r = simt_exec_at(sw, pc, mask);
    if (r != SIMT_RC_OK)
        return r;
    after_pops(dw, path_advance(d, dw, &p, pc + 1));
    count_merges(d, dw, mg0);
    return finish(d, slot);
}

/* After issue: destinations of di pending until ready on the issuing
 * side; the instruction buffer state goes back to the path(s). */
static void core_dpe_issued(struct core_dpe *d, unsigned slot, const struct core_dinst *di,
                     uint64_t ready)
{
    struct core_dpe_warp *dw = &d->w[slot];
    struct core_warp *w = &d->v->w[slot];
    unsigned s = dw->last;
    sb_issue(&dw->sb, s & 1u, w->sw.res.active, di->dst, di->ndst, ready);
    /* a divergence or reconvergence made by this instruction copies the
     * pending bits, its own destinations' included (they were marked at
     * its issue, before the stack moved) */
    if (dw->shadow_due) {
        dw->shadow_due = 0;
        core_dpe_sb_shadow(&dw->sb, 0);
        core_dpe_sb_shadow(&dw->sb, 1);
    }
    /* the instruction buffer: a control instruction refills the fetch of
     * every path (the new entry's, the one returned to, new splits) unless
     * it left the other top path as it was (same entry, pc and threads:
     * that path keeps its own buffer, 3.3.3.5); else the issuing path's
     * own buffer moves on */
    bool ctrl = di->unit == CORE_U_CTRL, own = false;
    if (ctrl && dw->keep && dw->st.sp == dw->keep_sp && simt_dpe_valid(&dw->st, s ^ 1u)) {
        const struct simt_dpe_path *o = &dw->st.stack[dw->st.sp - 1].p[s ^ 1u];
        own = o->pc == dw->keep_path.pc && o->mask == dw->keep_path.mask;
    }
    unsigned from = ctrl && !own ? 0 : s, to = ctrl && !own ? npaths_max(d) : s + 1;
    uint64_t lat = (uint64_t)d->v->c->fetch_latency;
    struct path p;
    if (!ctrl && w->ibuf_n == (uint32_t)d->v->c->ibuffer_entries &&
        (path_get(d, dw, s, &p) ||
         (dw->inherit >= 0 && path_get(d, dw, (unsigned)dw->inherit, &p)))) {
        /* the SM started the next block at the last one's arrival without
         * a lookup (ops.fetches): the path that goes on fetches its line */
        uint64_t b = core_view_icache(d->v, path_di(d, p.pc), w->ibuf_block - lat);
        w->ibuf_block = b;
        if (w->ibuf_ready < b)
            w->ibuf_ready = b;
    }
    for (unsigned k = from; k < to; k++) {
        /* a refilled path fetches at its own pc through the instruction
         * cache (ops.fetches: the SM took the fetch port for the warp at
         * w->ibuf_ready - lat and looked no line up) */
        if (ctrl && path_get(d, dw, k, &p)) {
            const struct core_dinst *pd = path_di(d, p.pc);
            dw->ibuf_ready[k] = dw->ibuf_block[k] = core_view_icache(d->v, pd, w->ibuf_ready - lat);
            dw->ibuf_n[k] = (uint32_t)d->v->c->ibuffer_entries;
            continue;
        }
        dw->ibuf_ready[k] = w->ibuf_ready;
        dw->ibuf_block[k] = w->ibuf_block;
        dw->ibuf_n[k] = w->ibuf_n;
    }
    /* dual: a path that reached the RPC by an ordinary instruction popped
     * its entry; the path returned to goes on with its instruction buffer
     * (the instructions after the RPC are the ones it fetched), as the
     * single-path stack's one buffer does */
    if (!ctrl && d->paths == CORE_DPE_DUAL && dw->inherit >= 0 &&
        (unsigned)dw->inherit != s) {
        unsigned k = (unsigned)dw->inherit;
        dw->ibuf_ready[k] = w->ibuf_ready;
        dw->ibuf_block[k] = w->ibuf_block;
        dw->ibuf_n[k] = w->ibuf_n;
    }
    /* constrained: a long-latency operation (an SFU instruction; a load's
     * cache miss: dpe_cycle) hands the scheduler entry to the other path
     * if it has one (3.2.3) */
    if (d->sched == CORE_DPE_CONSTRAINED &&
        (di->unit == CORE_U_SFU || (d->rotate_load && di->unit == CORE_U_MEM && di->ndst)) &&
        simt_dpe_valid(&dw->st, dw->sched ^ 1)) {
        dw->sched ^= 1;
        d->st.switches++;
    }
}

/* A load answered at `at` (dpe_resp_pend). */
static void core_dpe_resp(struct core_dpe *d, unsigned slot, unsigned side, uint32_t mask,
                   const int32_t *dst, unsigned ndst, uint64_t at)
{
    core_dpe_sb_wb(&d->w[slot].sb, side & 1u, mask, dst, ndst, at);
}

/* Adds the unit's figures for this kernel into s (first = the SM that
 * also reports the launch). */
static void core_dpe_stats(const struct core_dpe *d, bool first, ls_stats *s)
{
    if (d->paths == CORE_DPE_SINGLE)
        return;
    ls_dpe_stats *x = &s->dpe;
    if (first) {
        x->launches++;
        if (!d->active) {
            x->single++;
            if (!s->dpe_single[0])
                snprintf(s->dpe_single, sizeof s->dpe_single, "%s", d->reason);
        }
        s->dpe_paths = (int)d->paths;
    }
    x->issued += d->st.issued;
    x->path_sum += d->st.path_sum;
    x->switches += d->st.switches;
    x->forwarded += d->st.forwarded;
    x->coissued += d->st.coissued;
    x->branches += d->branches;
    x->divergent += d->divergent;
    x->interleavable += d->interleavable;
    x->subdivided += d->subdivided;
    x->refused += d->refused;
    x->nested += d->nested;
    x->created += d->created;
    x->merges += d->merges;
}

/* ------------------------------------------- the SM mechanism (core_mech.h) */

static bool dpe_on(const struct cfg *c)
{
    return c->simt_paths != CORE_DPE_SINGLE;
}

static int dpe_init(void **self, struct core_view *v, const struct core_mech_env *e,
                    char *err, size_t n)
{
    const struct cfg *c = e->c;
    struct core_dpe *d = calloc(1, sizeof *d);
    *self = d;
    if (!d || core_dpe_init(d, (unsigned)c->simt_paths, (unsigned)c->dpe_scoreboard,
                            (unsigned)c->dpe_scheduler, c->dpe_path_forwarding != CFG_DPE_PATH_FORWARDING_OFF,
                            (uint32_t)c->dws_n, e->nslots, e->max_depth) != 0) {
        snprintf(err, n, "host memory exhausted (dual-path engine) [%s:%d]", __FILE__,
                 __LINE__);
        return -1;
    }
    d->v = v;
    d->refill_all = c->dpe_refill == CFG_DPE_REFILL_ALL;
    d->rotate_load = c->dpe_rotate == CFG_DPE_ROTATE_LOAD;
    d->coissue = c->dws_issue == CFG_DWS_ISSUE_ANY;
    return 0;
}

static void dpe_free(void *self)
{
    if (self)
        core_dpe_free(self);
    free(self);
}

static int dpe_kernel(void *self, struct core_view *v, uint64_t now)
{
    (void)now;
    struct core_dpe *d = self;
    const struct core_kernel *k = v->k;
    if (core_dpe_kernel(d, k->f, k->prog->max_regs ? k->prog->max_regs : 1,
                        k->prog->di[k->f - k->mod->funcs]) != 0)
        return -1;
    return d->active;
}

static int dpe_warp_start(void *self, struct core_view *v, unsigned slot, uint32_t valid,
                          uint64_t now)
{
    (void)v;
    core_dpe_launch(self, slot, valid, now);
    return 0;
}

/* A warp at a CTA barrier waits; otherwise one of its paths whose buffer,
 * scoreboard and pipeline are ready: the whole check. */
static int dpe_fetch(void *self, struct core_view *v, unsigned slot, uint64_t now,
                     uint64_t *when, const struct core_dinst **di, int *unit_ix, bool *final)
{
    struct core_dpe *d = self;
    struct core_dpe_warp *dw = &d->w[slot];
    const struct core_warp *w = &v->w[slot];
    if (w->sw.state == SIMT_AT_BARRIER) {
        *when = CORE_INF;
        return CORE_ST_BARRIER;
    }
    if (dw->at_bar) {
        /* released from a CTA barrier: the release set the warp's
         * instruction buffer (it issues the cycle after at the earliest,
         * as under the single-path stack); the warp is one path there */
        dw->at_bar = 0;
        for (unsigned k = 0; k < CORE_DPE_MAXP; k++) {
            dw->ibuf_ready[k] = w->ibuf_ready;
            dw->ibuf_block[k] = w->ibuf_block;
            dw->ibuf_n[k] = w->ibuf_n;
        }
    }
    int why = core_dpe_check(self, slot, now, when, unit_ix);
    *di = v->w[slot].next_di;
    *final = true;
    return why;
}

static bool dpe_mem_wait(const void *self)
{
    return ((const struct core_dpe *)self)->mem_wait;
}

static int dpe_step(void *self, struct core_view *v, struct core_issue *is)
{
    struct core_dpe *d = self;
    is->rc = core_dpe_step(d, is->slot, is->now);
    d->w[is->slot].at_bar = is->rc == SIMT_RC_BARRIER;
    if (is->rc == SIMT_RC_ERROR) {
        core_view_fail(v, is->slot);
        return LS_ERR_MEMFAULT;
    }
    return 0;
}

static void dpe_issued(void *self, struct core_view *v, const struct core_issue *is,
                       uint64_t ready)
{
    (void)v;
    core_dpe_issued(self, is->slot, is->di, ready);
}

/* A load of the path that issued last: its side of the scoreboard. */
static void dpe_pend(const void *self, const struct core_view *v, unsigned slot,
                     struct core_pend *p)
{
    (void)v;
    p->own = (uint64_t)((const struct core_dpe *)self)->w[slot].last + 1;
}

static void dpe_resp_pend(void *self, struct core_view *v, unsigned slot,
                          const struct core_pend *p, uint64_t at)
{
    core_dpe_resp(self, slot, (unsigned)(p->own - 1), p->mask, p->dst, p->ndst, at);
    if (v->w[slot].sw.state != SIMT_DONE)
        core_view_wake(v, slot);
}

/* constrained (3.2.3: the entry moves "whenever the current schedulable
 * path encounters a cache miss"): the L1D took a line of a load of the
 * held path and missed (core_pend.missed, set when the memory system
 * accepted the line; the SM then runs its next cycle): the entry moves
 * to the other path. A miss of the other path's load moves nothing. */
_Static_assert(sizeof ((struct core_dpe_warp *)0)->miss_seen ==
               CORE_MAX_PEND * sizeof(uint64_t), "a miss_seen entry per load slot");

static int dpe_cycle(void *self, struct core_view *v, uint64_t now)
{
    struct core_dpe *d = self;
    (void)now;
    if (d->sched != CORE_DPE_CONSTRAINED || d->paths != CORE_DPE_DUAL || d->rotate_load)
        return 0;
    for (unsigned slot = 0; slot < d->nslots; slot++) {
        const struct core_warp *w = &v->w[slot];
        struct core_dpe_warp *dw = &d->w[slot];
        bool miss = false;
        for (uint32_t u = w->pend_used; u; u &= u - 1) {
            unsigned pi = (unsigned)__builtin_ctz(u);
            const struct core_pend *p = &w->pend[pi];
            if (!p->missed || dw->miss_seen[pi] == p->missed)
                continue;
            dw->miss_seen[pi] = p->missed;
            miss |= p->own == (uint64_t)dw->sched + 1;
        }
        if (miss && simt_dpe_valid(&dw->st, dw->sched ^ 1u)) {
            dw->sched ^= 1;
            d->st.switches++;
            core_view_wake(v, slot);
        }
    }
    return 0;
}

/* dws: a warp of more than one split lends them to every scheduler
 * (3.3.1: any number of warp splits scheduled together) */
static bool dpe_split(const void *self, unsigned slot)
{
    const struct core_dpe *d = self;
    return d->paths == CORE_DPE_DWS && d->coissue && d->active &&
           simt_dws_npaths(&d->w[slot].ws) > 1;
}

static void dpe_stats(const void *self, bool first, ls_stats *s)
{
    core_dpe_stats(self, first, s);
}

const struct core_mech_ops core_dpe_mech = {
    .name = "dpe",
    .kind = CORE_MECH_STEPPER,
    .on = dpe_on,
    .refuse = dpe_refuse,
    .init = dpe_init,
    .free = dpe_free,
    .kernel = dpe_kernel,
    .stats = dpe_stats,
    .warp_start = dpe_warp_start,
    .fetch = dpe_fetch,
    .mem_wait = dpe_mem_wait,
    .split = dpe_split,
    .cycle = dpe_cycle,
    .step = dpe_step,
    .issued = dpe_issued,
    .fetches = true,
    .pend = dpe_pend,
    .resp_pend = dpe_resp_pend,
};
