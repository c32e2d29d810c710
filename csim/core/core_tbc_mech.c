/* Thread-block compaction as a mechanism of the SM (core_mech.h,
 * docs/compaction.md): the scoreboard of compacted warps, the stall
 * accounting and statistics, and the hooks through which the SM reaches
 * the engine of core_tbc.c. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "core/core_tbc.h"
#include "core/core_mech.h"

/* Why instruction i of f cannot be compacted exactly, or NULL
 * (docs/compaction.md: warp-level instructions need their original warps;
 * core_mech_refusal walks the kernel with it). */
static const char *tbc_refuse(const struct cfg *c, const struct ptx_func *f, uint32_t i)
{
    (void)c;
    const struct ptx_inst *in = &f->insts[i];
    switch ((enum ptx_op)in->op) {
    case PTX_OP_SHFL: return "shfl";
    case PTX_OP_VOTE: return "vote";
    case PTX_OP_ACTIVEMASK: return "activemask";
    case PTX_OP_MATCH: return "match";
    case PTX_OP_NANOSLEEP: return "nanosleep";
    case PTX_OP_WMMA_LOAD: case PTX_OP_WMMA_STORE: case PTX_OP_WMMA_MMA:
    case PTX_OP_MMA: return "wmma/mma";
    case PTX_OP_CALL: return "call";
    case PTX_OP_BRX: return "brx.idx";
    case PTX_OP_TEX: case PTX_OP_TLD4: return "texture fetch";
    /* the lanes of one warp apply an atomic in lane order; compaction
     * regroups them, so a returned value (or a non-commutative or
     * floating-point reduction) could differ from functional mode; an
     * integer add/min/max/and/or/xor whose returned value nobody reads
     * leaves the same memory in any order (a red) */
    case PTX_OP_ATOM:
    case PTX_OP_RED: {
        bool atom = in->op == PTX_OP_ATOM;
        if (atom && (in->o[0].kind != PTX_O_REG || simt_reg_read(f, in->o[0].reg, i)))
            return "atom";
        if (in->sub != PTX_SUB_ADD && in->sub != PTX_SUB_MIN &&
            in->sub != PTX_SUB_MAX && in->sub != PTX_SUB_AND &&
            in->sub != PTX_SUB_OR && in->sub != PTX_SUB_XOR)
            return atom ? "atom (not commutative)" : "red (not commutative)";
        if (ptx_type_is_float((enum ptx_type)in->type))
            return atom ? "atom (floating point)" : "red (floating point)";
        return NULL;
    }
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        if (in->sub == PTX_SUB_WARP_SYNC)
            return "bar.warp.sync";
        if (in->sub != PTX_SUB_SYNC && in->sub != PTX_SUB_ARRIVE && in->sub != PTX_SUB_NONE)
            return "bar.red";
        return NULL;
    default:
        return NULL;
    }
}

/* Sizes the per-lane scoreboard for nregs registers per warp slot (the
 * rows are initialised on their first write, lanes_set). Returns 0 or -1
 * (host memory). */
static int sb_size(struct core_tbc *t, uint32_t nregs)
{
    unsigned ns = t->v->nslots;
    if (!t->pmap) {
        t->pmap = calloc(ns, sizeof *t->pmap);
        if (!t->pmap)
            return -1;
    }
    if (nregs <= t->lnregs)
        return 0;
    free(t->lrdy);
    t->lrdy = malloc((size_t)ns * nregs * 32 * sizeof *t->lrdy);
    t->lnregs = t->lrdy ? nregs : 0;
    return t->lrdy ? 0 : -1;
}

/* The scoreboard of compacted warps (docs/compaction.md "Scoreboard"): a
 * pending write is kept per home warp, register and lane (the lane mask
 * of the write), so a compacted warp waits only for writes to the threads
 * it runs, never for another compacted warp's disjoint lanes. The time a
 * lane's register is readable is its pending entry (CORE_INF: a load not
 * yet answered); the home slot's reg_ready[r] is the latest over its 32
 * lanes (0: none written since the CTA started, the row is stale), so a
 * register ready in every lane is decided without the lanes. */
static inline uint64_t *lane_row(const struct core_tbc *t, unsigned s, int32_t r)
{
    return &t->lrdy[((size_t)s * t->lnregs + (uint32_t)r) * 32];
}

/* The latest time among lanes `lanes` of register r of home slot s. */
static inline uint64_t lanes_ready(const struct core_tbc *t, unsigned s, int32_t r,
                                   uint32_t lanes, uint64_t now)
{
    uint64_t all = t->v->w[s].reg_ready[r];
    if (all <= now)
        return all;
    if (t->home_sb)             /* ablation: one entry per home warp */
        return all;
    const uint64_t *row = lane_row(t, s, r);
    uint64_t rdy = 0;
    TBC_EACH(lanes, l) {
        if (row[l] > rdy)
            rdy = row[l];
    }
    return rdy;
}

/* Lanes `lanes` of register r of home slot s are written at `at`. */
static inline void lanes_set(struct core_tbc *t, unsigned s, int32_t r, uint32_t lanes,
                             uint64_t at)
{
    uint64_t *all = &t->v->w[s].reg_ready[r];
    uint64_t *row = lane_row(t, s, r);
    if (*all == 0)
        memset(row, 0, 32 * sizeof *row);
    TBC_EACH(lanes, l) { row[l] = at; }
    if (at > *all || t->home_sb)
        *all = at;
}

/* Cycle at which the sources and destinations of di are ready in the
 * threads slot's compacted warp runs. */
static uint64_t core_tbc_reg_ready(struct core_tbc *t, unsigned slot,
                            const struct core_dinst *di)
{
    const struct core_tbc_warp *cw = core_tbc_cache(t, slot);
    const struct core_tbc_cta *tc = &t->cta[t->v->w[slot].cta];
    uint64_t now = t->v->clock_now, rdy = 0;
    TBC_EACH(cw->hs, wi) {
        unsigned s = tc->home[wi];
        uint32_t hl = cw->hl[wi];
        for (unsigned i = 0; i < di->nsrc; i++) {
            uint64_t x = lanes_ready(t, s, di->src[i], hl, now);
            rdy = x > rdy ? x : rdy;
        }
        for (unsigned i = 0; i < di->ndst; i++) {
            uint64_t x = lanes_ready(t, s, di->dst[i], hl, now);
            rdy = x > rdy ? x : rdy;
        }
    }
    return rdy;
}

/* Destinations of di become ready at `ready` in the threads of the
 * instruction slot issued last. */
static void core_tbc_set_ready(struct core_tbc *t, unsigned slot,
                        const struct core_dinst *di, uint64_t ready)
{
    const struct core_tbc_rows *h = &t->last[slot];
    const struct core_tbc_cta *tc = &t->cta[t->v->w[slot].cta];
    TBC_EACH(h->hs, wi) {
        for (unsigned i = 0; i < di->ndst; i++)
            lanes_set(t, tc->home[wi], di->dst[i], h->hl[wi], ready);
    }
}

/* Counts compaction-induced stall slot-cycles up to now (exclusive). */
static void core_tbc_account(struct core_tbc *t, uint64_t now)
{
    if (!t->active || now <= t->last_acct)
        return;
    uint64_t n = now - t->last_acct, waiting = 0;
    /* warps of the top entry that reached its compaction point while
     * others still run, and warps the WCU has not handed over yet (a
     * CTA's figure changes only in its launch and its warps' issues) */
    uint64_t dirty = t->ncta > 64 ? ~0ull : t->acct_dirty;
    for (uint64_t m = dirty; m; m &= m - 1) {
        unsigned ci = (unsigned)__builtin_ctzll(m);
        if (ci >= t->ncta)
            break;
        struct core_tbc_cta *tc = &t->cta[ci];
        const struct simt_cta_entry *e = t->v->cta[ci].used ? simt_cta_top(&tc->st) : NULL;
        uint32_t wt = e && tc->formed > e->wcnt ? tc->formed - e->wcnt : 0;
        t->acct_sum = t->acct_sum - tc->acct_wait + wt;
        tc->acct_wait = wt;
    }
    t->acct_dirty = 0;
    waiting = t->acct_sum;
    for (unsigned ci = 64; ci < t->ncta; ci++) {   /* past the dirty mask */
        const struct simt_cta_entry *e =
            t->v->cta[ci].used ? simt_cta_top(&t->cta[ci].st) : NULL;
        if (e && t->cta[ci].formed > e->wcnt)
            waiting += t->cta[ci].formed - e->wcnt;
    }
    /* a slot is marked when its ready time is set; once ready <= now it
     * cannot count again until it is set again */
    for (uint64_t m = t->acct_pend; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        if (t->v->w[i].cta >= 0 && t->w[i].on && t->w[i].ready > t->last_acct)
            waiting++;
        if (t->w[i].ready <= now)
            t->acct_pend &= ~(1ull << i);
    }
    t->st.stall_slot_cycles += n * waiting;
    t->last_acct = now;
}

/* Adds the unit's figures for this kernel into s (first = the SM that
 * also reports the launch: scheme, reason, launch count). */
static void core_tbc_stats(const struct core_tbc *t, bool first, ls_stats *s)
{
    if (t->scheme == CORE_TBC_NONE)
        return;
    ls_compaction_stats *c = &s->compaction;
    if (first) {
        s->compaction_scheme = (int)t->scheme;
        c->launches++;
        if (!t->active) {
            c->uncompacted++;
            snprintf(s->uncompacted, sizeof s->uncompacted, "%s", t->reason);
        }
    }
    c->issued += t->st.issued;
    c->issued_active += t->st.issued_active;
    c->thread_insts += t->st.thread_insts;
    c->points += t->st.points;
    c->divergent_points += t->st.divergent;
    c->warp_uniform_points += t->st.warp_uniform;
    c->loop_exit_points += t->st.loop_exit;
    c->warps_formed += t->st.warps_formed;
    c->nw_nocomp += t->st.nw_nocomp;
    c->nw_tbc += t->st.nw_tbc;
    c->nw_ideal += t->st.nw_ideal;
    c->stall_slot_cycles += t->st.stall_slot_cycles;
    c->capri_lookups += t->st.lookups;
    c->capri_hits += t->st.hits;
    c->capri_pred_stall += t->st.pred_stall;
    c->capri_pred_bypass += t->st.pred_bypass;
    c->capri_nodiv_bypass += t->st.nodiv_bypass;
    c->capri_bypass_denied += t->st.bypass_denied;
    c->capri_nodiv_denied += t->st.nodiv_denied;
    c->capri_split_rows += t->st.split_rows;
    c->capri_bypassed += t->st.bypassed;
    for (unsigned i = 0; i < 4; i++)
        c->capri_quality[i] += t->st.q[i];
    for (unsigned i = 0; i < 2; i++)
        c->capri_nodiv_quality[i] += t->st.qn[i];
    for (unsigned i = 0; i < 2; i++) {
        c->class_points[i] += t->st.cls_points[i];
        c->class_nw_nocomp[i] += t->st.cls_nocomp[i];
        c->class_nw_tbc[i] += t->st.cls_tbc[i];
        c->class_paths[i] += t->st.paths[i];
        c->class_paths_tbc[i] += t->st.paths_tbc[i];
        c->class_paths_ideal[i] += t->st.paths_ideal[i];
        c->class_paths_one[i] += t->st.paths_one[i];
        c->class_paths_dense[i] += t->st.paths_dense[i];
    }
    for (unsigned q = 0; q < 4; q++) {
        c->p_frac_tbc[q] += t->st.frac_tbc[0][q];
        c->p_frac_ideal[q] += t->st.frac_ideal[0][q];
        c->d_frac_tbc[q] += t->st.frac_tbc[1][q];
        c->d_frac_ideal[q] += t->st.frac_ideal[1][q];
    }
    c->wcu_wait_cycles += t->st.wcu_wait;
    c->capri_ahead_waits += t->st.ahead_waits;
    c->capri_ahead_wait_cycles += t->st.ahead_wait_cycles;
    core_cblk_stats(&t->blk, s);
}

/* ------------------------------------------- the SM mechanism (core_mech.h) */

static bool tbc_on(const struct cfg *c)
{
    return c->simt_compaction != CORE_TBC_NONE;
}

static int tbc_init(void **self, struct core_view *v, const struct core_mech_env *e,
                    char *err, size_t n)
{
    const struct cfg *c = e->c;
    struct core_tbc *t = calloc(1, sizeof *t);
    *self = t;
    if (!t || core_tbc_init(t, (unsigned)c->simt_compaction, e->ncta, e->max_depth) != 0) {
        snprintf(err, n, "host memory exhausted (compaction engine) [%s:%d]", __FILE__,
                 __LINE__);
        return -1;
    }
    t->v = v;
    /* the WCU under tbc, tbc_plus and capri; the CAPT under capri
     * (docs/compaction.md); ideal forms warps without hardware */
    bool capri = c->simt_compaction == CORE_TBC_CAPRI;
    bool wcu = c->simt_compaction != CORE_TBC_IDEAL;
    if (e->cosim && core_cblk_init(&t->blk, e->cosim, e->sm, wcu, capri,
                                   (unsigned)c->capri_entries, (unsigned)c->capri_history,
                                   (unsigned)c->capri_lru, err, n) != 0)
        return -1;
    return 0;
}

static void tbc_free(void *self)
{
    if (self)
        core_tbc_free(self);
    free(self);
}

static int tbc_kernel(void *self, struct core_view *v, uint64_t now)
{
    struct core_tbc *t = self;
    const struct cfg *c = v->c;
    core_tbc_kernel(t, v->k->f, v->k->nwarps, c->gscalar_scalar != CFG_GSCALAR_SCALAR_OFF || c->gscalar_stats != CFG_GSCALAR_STATS_OFF,
                    now);
    t->home_sb = c->tbc_scoreboard == CFG_TBC_SCOREBOARD_HOME;
    t->ahead_bra = c->capri_ahead == CFG_CAPRI_AHEAD_BLOCK;
    t->skip_ahead = c->capri_skip == CFG_CAPRI_SKIP_AHEAD;
    t->umask_thread = c->capri_umask == CFG_CAPRI_UMASK_THREAD;
    if (t->active && sb_size(t, v->k->prog->max_regs ? v->k->prog->max_regs : 1) != 0)
        return -1;
    return t->active;
}

static void tbc_cta_start(void *self, struct core_view *v, unsigned ci, const uint8_t *wslot,
                          unsigned nwarps, uint64_t now)
{
    (void)v;
    (void)wslot;
    (void)nwarps;
    core_tbc_launch(self, ci, now);
}

static const struct core_dinst *tbc_peek(const void *self, const struct core_view *v,
                                         unsigned slot)
{
    (void)v;
    return core_tbc_peek(self, slot);
}

/* A compacted warp's instruction: the kernel's, at the warp's pc. */
static void tbc_where(const void *self, const struct core_view *v, unsigned slot,
                      struct core_where *at)
{
    const struct core_tbc_warp *cw = &((const struct core_tbc *)self)->w[slot];
    at->f = v->k->f;
    at->frame = 0;
    at->pc = cw->pc;
    at->mask = cw->pos;
}

/* Its register-file rows: each home warp it draws threads from, with
 * those threads' lanes after the guard (none past the end). */
static void tbc_fill_rows(const void *self, const struct core_view *v, struct core_issue *is)
{
    const struct core_tbc *t = self;
    const struct core_tbc_warp *cw = &t->w[is->slot];
    const struct core_tbc_cta *tc = &t->cta[v->w[is->slot].cta];
    const struct ptx_func *f = v->k->f;
    is->merged = true;
    is->nrows = 0;
    if ((uint32_t)cw->pc >= f->ninsts)
        return;
    uint32_t hs = core_tbc_homes_of(cw);
    TBC_EACH(hs, wi) {
        unsigned s = tc->home[wi];
        uint32_t m = exec_guard_mask(&v->w[s].sw.ew, &f->insts[cw->pc], core_tbc_home_mask(cw, wi));
        is->row[is->nrows++] = (struct core_row){ (uint8_t)s, m };
    }
}

/* Barrier and fetch: no warp in the slot, at a barrier, not yet handed
 * over, or its instruction buffer empty. */
static int tbc_fetch(void *self, struct core_view *v, unsigned slot, uint64_t now,
                     uint64_t *when, const struct core_dinst **di, int *unit_ix, bool *final)
{
    (void)di;
    (void)unit_ix;
    (void)final;
    const struct core_warp *w = &v->w[slot];
    if (w->sw.state == SIMT_AT_BARRIER || core_tbc_blocked(self, slot, now, when))
        return CORE_ST_BARRIER;
    if (w->ibuf_ready > now) {
        *when = w->ibuf_ready;
        return CORE_ST_IBUFFER;
    }
    return CORE_ST_NONE;
}

static uint64_t tbc_sb_ready(const void *self, const struct core_view *v, unsigned slot,
                             const struct core_dinst *di)
{
    (void)v;
    return core_tbc_reg_ready((struct core_tbc *)self, slot, di);
}

static int tbc_step(void *self, struct core_view *v, struct core_issue *is)
{
    (void)v;
    struct core_tbc *t = self;
    if (core_tbc_step(t, is->slot, is->now, &is->done) != 0)
        return t->blk.why ? LS_ERR_COSIM : LS_ERR_MEMFAULT;
    return 0;
}

static void tbc_issued(void *self, struct core_view *v, const struct core_issue *is,
                       uint64_t ready)
{
    struct core_tbc *t = self;
    core_tbc_set_ready(t, is->slot, is->di, ready);
    /* a compacted warp placed into the issuing slot by this instruction
     * (its branch ended the entry) fetches from its hand-over like every
     * compacted warp (place), not from the branch's refill */
    const struct core_tbc_warp *cw = &t->w[is->slot];
    if ((t->placed >> is->slot & 1) && cw->on) {
        struct core_warp *w = &v->w[is->slot];
        w->ibuf_ready = cw->fetched;
        w->ibuf_block = w->ibuf_ready;
        w->ibuf_n = (uint32_t)v->c->ibuffer_entries;
    }
    t->placed = 0;
}

/* A load writes the threads of the compacted warp that issued it: their
 * home warps and lanes are kept with it (the warp may leave its slot
 * before the response). */
static void tbc_pend(const void *self, const struct core_view *v, unsigned slot,
                     struct core_pend *p)
{
    struct core_tbc *t = (struct core_tbc *)self;
    unsigned pi = (unsigned)(p - v->w[slot].pend);
    const struct core_tbc_rows *h = &t->last[slot];
    struct core_tbc_rows *m = &t->pmap[slot][pi];
    m->hs = h->hs;
    TBC_EACH(h->hs, wi) { m->hl[wi] = h->hl[wi]; }
    p->own = 1;
}

/* Its destinations ready in those threads at `at`; any compacted warp of
 * the CTA may run them now. */
static void tbc_resp_pend(void *self, struct core_view *v, unsigned slot,
                          const struct core_pend *p, uint64_t at)
{
    struct core_tbc *t = self;
    int32_t ci = v->w[slot].cta;
    const struct core_tbc_rows *m = &t->pmap[slot][p - v->w[slot].pend];
    const struct core_tbc_cta *tc = &t->cta[ci];
    TBC_EACH(m->hs, wi) {
        unsigned s = tc->home[wi];
        for (unsigned i = 0; i < p->ndst; i++) {
            int32_t r = p->dst[i];
            uint64_t *row = lane_row(t, s, r), mx = 0;
            if (t->home_sb) {
                v->w[s].reg_ready[r] = at;
                continue;
            }
            TBC_EACH(m->hl[wi], l) {
                if (row[l] == CORE_INF)
                    row[l] = at;
            }
            for (unsigned l = 0; l < 32; l++)
                mx = row[l] > mx ? row[l] : mx;
            v->w[s].reg_ready[r] = mx;
        }
    }
    for (unsigned i = 0; i < v->nslots; i++)
        if (v->w[i].cta == ci && t->w[i].on)
            core_view_wake(v, i);
}

/* The home warp slot and lane of position pos of slot's last local
 * access. */
static void tbc_home_of(const void *self, const struct core_view *v, unsigned slot,
                        unsigned pos, unsigned *hslot, unsigned *hlane)
{
    const struct core_tbc *t = self;
    const struct core_tbc_cta *tc = &t->cta[v->w[slot].cta];
    *hslot = tc->home[t->lpos[slot].wid[pos]];
    *hlane = t->lpos[slot].lane[pos];
}

static void tbc_release(void *self, struct core_view *v, int32_t ci, uint64_t now)
{
    (void)v;
    core_tbc_try_release(self, ci, now);
}

static void tbc_account(void *self, struct core_view *v, uint64_t now)
{
    (void)v;
    core_tbc_account(self, now);
}

static void tbc_stats(const void *self, bool first, ls_stats *s)
{
    core_tbc_stats(self, first, s);
}

static int tbc_finish(void *self, uint64_t end)
{
    return core_cblk_finish(&((struct core_tbc *)self)->blk, end);
}

static const char *tbc_why(const void *self, int e, uint32_t *line)
{
    *line = 0;
    return e ? ((const struct core_tbc *)self)->blk.why : NULL;
}

const struct core_mech_ops core_tbc_mech = {
    .name = "tbc",
    .kind = CORE_MECH_STEPPER,
    .merges = true,
    .on = tbc_on,
    .refuse = tbc_refuse,
    .init = tbc_init,
    .free = tbc_free,
    .kernel = tbc_kernel,
    .stats = tbc_stats,
    .finish = tbc_finish,
    .why = tbc_why,
    .cta_start = tbc_cta_start,
    .peek = tbc_peek,
    .where = tbc_where,
    .fill_rows = tbc_fill_rows,
    .fetch = tbc_fetch,
    .sb_ready = tbc_sb_ready,
    .step = tbc_step,
    .issued = tbc_issued,
    .pend = tbc_pend,
    .resp_pend = tbc_resp_pend,
    .home_of = tbc_home_of,
    .release = tbc_release,
    .account = tbc_account,
};

