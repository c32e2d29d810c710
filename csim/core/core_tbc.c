/* Thread-block compaction engine of the SM (core_tbc.h,
 * docs/compaction.md): the CTA stacks, compaction points and the WCU's
 * warps, CAPRI's bypasses, and the execution of compacted warps. Its
 * scoreboard, statistics and SM hooks are in core_tbc_mech.c. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "core/core_tbc.h"
#include "core/core_mech.h"
#include "blocks/slp.h"
#include "ptx/ptx_taint.h"
#include "cosim/cosim.h"

static inline unsigned popc(uint32_t x) { return (unsigned)__builtin_popcount(x); }

/* Sets the scheme (simt.compaction) of an SM with ncta CTA slots; returns
 * 0 or -1 (host memory). The blocks (t->blk) are created separately
 * (core_cblk_init: they need the GPU's cosim environment). */
int core_tbc_init(struct core_tbc *t, unsigned scheme, unsigned ncta,
                  uint32_t max_depth)
{
    memset(t, 0, sizeof *t);
    t->scheme = scheme;
    if (scheme == CORE_TBC_NONE)
        return 0;
    t->cta = calloc(ncta, sizeof *t->cta);
    if (!t->cta)
        return -1;
    t->ncta = ncta;
    for (unsigned i = 0; i < ncta; i++)
        if (simt_cta_alloc(&t->cta[i].st, max_depth) != 0)
            return -1;
    return 0;
}

/* Frees the unit. */
void core_tbc_free(struct core_tbc *t)
{
    for (unsigned i = 0; t->cta && i < t->ncta; i++)
        simt_cta_free(&t->cta[i].st);
    free(t->cta);
    free(t->cls);
    free(t->lend);
    free(t->lrdy);
    free(t->pmap);
    core_cblk_free(&t->blk);
    memset(t, 0, sizeof *t);
}


/* At cycle now, decides whether kernel f is compacted (t->active) or why not
 * (t->reason: a warp-level instruction, a call, brx, textures, bar.red,
 * more than 32 warps per CTA, gscalar: G-Scalar's scalar execution or
 * statistics) and resets statistics. */
void core_tbc_kernel(struct core_tbc *t, const struct ptx_func *f,
                     uint32_t nwarps, bool gscalar, uint64_t now)
{
    memset(&t->st, 0, sizeof t->st);
    memset(t->w, 0, sizeof t->w);
    t->reason[0] = 0;
    t->active = false;
    t->last_acct = now;
    if (t->scheme == CORE_TBC_NONE)
        return;
    core_cblk_kernel(&t->blk, f->name, now);
    t->acct_dirty = t->acct_sum = 0;
    for (unsigned i = 0; i < t->ncta; i++) {
        t->cta[i].acct_wait = 0;
        t->cta[i].nbyp = 0;
        t->cta[i].pred_stall = t->cta[i].pred_bypass = t->cta[i].pred_nodiv = 0;
    }
    /* branch classes for the per-class statistics (NULL: not counted) */
    free(t->cls);
    t->cls = malloc(f->ninsts ? f->ninsts : 1);
    struct ptx_diag d;
    memset(&d, 0, sizeof d);
    if (t->cls && ptx_taint_branches(f, 0, t->cls, NULL, &d) != 0) {
        free(t->cls);
        t->cls = NULL;
    }
    /* the end of the innermost loop around each pc (the statistic
     * loop_exit_points) */
    free(t->lend);
    t->lend = malloc((f->ninsts ? f->ninsts : 1) * sizeof *t->lend);
    for (uint32_t i = 0; t->lend && i < f->ninsts; i++)
        t->lend[i] = INT32_MAX;
    for (uint32_t i = 0; t->lend && i < f->ninsts; i++) {
        const struct ptx_inst *in = &f->insts[i];
        int32_t to = in->op == PTX_OP_BRA ? in->o[0].label : -1;
        for (int32_t p = to; p >= 0 && (uint32_t)p < i; p++)
            if (t->lend[p] > (int32_t)i)
                t->lend[p] = (int32_t)i;
    }
    if (core_mech_refusal(&core_tbc_mech, t->v->c, f, t->reason, sizeof t->reason))
        return;
    if (nwarps > SIMT_CTA_MAX_W)
        snprintf(t->reason, sizeof t->reason, "%u warps per CTA (at most %u)",
                 nwarps, SIMT_CTA_MAX_W);
    else if (gscalar)       /* its per-warp classes are not merged */
        snprintf(t->reason, sizeof t->reason, "gscalar.scalar or gscalar.stats on");
    else
        t->active = true;
}


/* Puts a compacted warp into slot at pc, handed over at cycle ready. */
static void place(struct core_tbc *t, unsigned slot, int32_t pc, uint32_t pos,
                  const uint8_t *wid, const uint8_t *lane, uint64_t ready, bool fetch)
{
    struct core_tbc_warp *cw = &t->w[slot];
    struct core_warp *w = &t->v->w[slot];
    cw->on = 1;
    cw->at_bar = 0;
    cw->ahead = cw->waiting = 0;
    cw->pc = pc;
    cw->pos = pos;
    cw->hvalid = 0;
    cw->ready = ready;
    t->acct_pend |= 1ull << slot;
    t->placed |= 1ull << slot;
    memcpy(cw->wid, wid, sizeof cw->wid);
    memcpy(cw->lane, lane, sizeof cw->lane);
    w->next_di = core_tbc_peek(t, slot);
    /* its first fetch block: through the instruction cache at its pc
     * (an original warp keeps the one its warp start looked up) */
    if (fetch) {
        w->ibuf_ready = core_view_ifetch(t->v, w->next_di, ready);
        w->ibuf_block = w->ibuf_ready;
        w->ibuf_n = (uint32_t)t->v->c->ibuffer_entries;
    }
    cw->fetched = w->ibuf_ready;
    t->v->wake[slot] = 0;
    t->v->wake_reason[slot] = CORE_ST_NONE;
    if (t->v->next_try > ready)
        t->v->next_try = ready;
}

/* CTA slot ci's stack or formed count may change: the accounting looks
 * at it again. */
static void acct_touch(struct core_tbc *t, unsigned ci)
{
    if (ci < 64)
        t->acct_dirty |= 1ull << ci;
}

/* After the SM made CTA slot ci resident at now: its stack
 * starts and its original warps are placed in their home slots. */
void core_tbc_launch(struct core_tbc *t, unsigned ci, uint64_t now)
{
    if (!t->active)
        return;
    acct_touch(t, ci);
    struct core_tbc_cta *tc = &t->cta[ci];
    uint32_t valid[SIMT_CTA_MAX_W] = { 0 };
    uint32_t nw = t->v->k->nwarps;
    for (unsigned i = 0; i < t->v->nslots; i++)
        if (t->v->w[i].cta == (int32_t)ci) {
            uint32_t wi = t->v->w[i].sw.gridv.warpid;
            tc->home[wi] = (uint8_t)i;
            valid[wi] = t->v->w[i].sw.ew.valid;
        }
    simt_cta_start(&tc->st, t->v->k->f, nw, valid);
    tc->nthr = 0;
    for (uint32_t wi = 0; wi < nw; wi++)
        tc->nthr += popc(valid[wi]);
    struct simt_cta_entry *e = simt_cta_top(&tc->st);
    if (!e)
        return;
    /* the original warps run until the first compaction point */
    for (uint32_t wi = 0; wi < nw; wi++) {
        uint8_t wid[32], lane[32];
        for (unsigned l = 0; l < 32; l++) {
            wid[l] = (uint8_t)wi;
            lane[l] = (uint8_t)l;
        }
        if (!valid[wi])
            continue;
        place(t, tc->home[wi], 0, valid[wi], wid, lane, now, false);
        t->w[tc->home[wi]].ready = now;   /* (place() marked it) */
        e->wcnt++;
    }
    tc->formed = e->wcnt;
}

/* Whether slot's compacted warp cannot issue at now for a reason of the
 * engine (no warp in the slot, at a barrier, not yet handed over);
 * *when = the cycle that may change it (CORE_INF: an event). */
bool core_tbc_blocked(const struct core_tbc *t, unsigned slot, uint64_t now,
                      uint64_t *when)
{
    const struct core_tbc_warp *cw = &t->w[slot];
    if (!cw->on || cw->at_bar || cw->waiting) {
        *when = CORE_INF;
        return true;
    }
    if (cw->ready > now) {
        *when = cw->ready;
        return true;
    }
    return false;
}

uint32_t core_tbc_homes_of(const struct core_tbc_warp *cw)
{
    uint32_t h = 0;
    TBC_EACH(cw->pos, p) { h |= 1u << cw->wid[p]; }
    return h;
}

/* Warp slots (bit per slot) of the home warps h of CTA tc. */
static uint64_t home_slots(const struct core_tbc_cta *tc, uint32_t h)
{
    uint64_t s = 0;
    TBC_EACH(h, wi) { s |= 1ull << tc->home[wi]; }
    return s;
}

/* Brings the home-warp cache of slot's compacted warp up to date (one
 * pass over its positions) and returns it. */
const struct core_tbc_warp *core_tbc_cache(struct core_tbc *t, unsigned slot)
{
    struct core_tbc_warp *cw = &t->w[slot];
    int32_t ci = t->v->w[slot].cta;
    if (!cw->hvalid || cw->hpos != cw->pos || cw->hcta != ci) {
        uint32_t hs = 0;
        TBC_EACH(cw->pos, p) {
            uint32_t wi = cw->wid[p];
            if (!(hs >> wi & 1))
                cw->hl[wi] = cw->hp[wi] = 0;
            hs |= 1u << wi;
            cw->hl[wi] |= 1u << cw->lane[p];
            cw->hp[wi] |= 1u << p;
        }
        cw->hs = hs;
        cw->hslots = home_slots(&t->cta[ci], hs);
        cw->hpos = cw->pos;
        cw->hcta = ci;
        cw->hvalid = 1;
    }
    return cw;
}


/* Decoded instruction at slot's compacted warp's pc, or NULL. */
const struct core_dinst *core_tbc_peek(const struct core_tbc *t, unsigned slot)
{
    const struct core_tbc_warp *cw = &t->w[slot];
    const struct ptx_func *f = t->v->k->f;
    uint32_t fi = (uint32_t)(f - t->v->k->mod->funcs);
    uint32_t pc = (uint32_t)cw->pc < f->ninsts ? (uint32_t)cw->pc : f->ninsts;
    return &t->v->k->prog->di[fi][pc];
}

/* A failure of the engine itself, reported through home warp slot's err. */
static int tbc_fail(struct core_tbc *t, unsigned slot, int32_t pc, const char *msg)
{
    struct simt_warp *sw = &t->v->w[slot].sw;
    sw->err_kind = SIMT_ERR_PLAIN;
    sw->err.lane = -1;
    sw->err.addr = 0;
    snprintf(sw->err.msg, sizeof sw->err.msg, "%s", msg);
    sw->err_pc = pc;
    sw->err_simt = true;
    sw->err_func = t->v->k->f;
    t->v->err_slot = (int)slot;
    return -1;
}

/* Physical lane map of home warp wi (the SLP unit's map of its slot). */
static void slp_map_of(struct core_tbc *t, struct core_tbc_cta *tc, uint32_t wi,
                       uint64_t now)
{
    unsigned key, rot;
    core_view_lane_map(t->v, tc->home[wi], now, &key, &rot);
    for (unsigned l = 0; l < 32; l++)
        tc->l2p[wi][l] = (uint8_t)slp_phys(32, key, rot, l);
}

/* Lanes of home warp wi that the compacted warp runs. */
uint32_t core_tbc_home_mask(const struct core_tbc_warp *cw, uint32_t wi)
{
    uint32_t m = 0;
    TBC_EACH(cw->pos, p) {
        if (cw->wid[p] == wi)
            m |= 1u << cw->lane[p];
    }
    return m;
}

/* Home warps of positions pos of a compacted warp. */
static uint32_t rows_of(const uint8_t *wid, uint32_t pos)
{
    uint32_t h = 0;
    TBC_EACH(pos, p) { h |= 1u << wid[p]; }
    return h;
}

/* A slot of CTA ci that holds no compacted warp, or -1. */
static int free_slot(const struct core_tbc *t, const struct core_tbc_cta *tc)
{
    for (uint32_t wi = 0; wi < tc->st.nwarps; wi++)
        if (!t->w[tc->home[wi]].on)
            return tc->home[wi];
    return -1;
}

/* "CTA (x,y,z) ... at pc N (line L)" for block reports. */
static void where_of(const struct core_tbc *t, unsigned ci, const char *what,
                     int32_t pc, char *buf, size_t n)
{
    const struct core_cta *cta = &t->v->cta[ci];
    const struct ptx_func *f = t->v->k->f;
    snprintf(buf, n, "%s of CTA (%u,%u,%u) at pc %d (line %u) on SM %u", what,
             cta->ctaid[0], cta->ctaid[1], cta->ctaid[2], pc,
             (uint32_t)pc < f->ninsts ? f->insts[pc].line : f->line, t->v->id);
}

/* A block report's "CTA (x,y,z) ... at pc N" of where_of, formatted only
 * when a report is written (cosim_where). */
struct where_ctx {
    const struct core_tbc *t;
    unsigned ci;
    const char *what;
    int32_t pc;
};

static void where_text(const void *ctx, char *buf, size_t n)
{
    const struct where_ctx *x = ctx;
    where_of(x->t, x->ci, x->what, x->pc, buf, n);
}

/* The WCU's compacted warps must hold every thread of the rows it
 * compacts exactly once, each in its physical lane (a check of whatever
 * backend answered: a wrong warp would silently change the run). */
static bool wcu_partition_ok(const struct core_cblk_form *f, const uint32_t *mask,
                             uint32_t umask, uint32_t nw)
{
    uint32_t seen[SIMT_CTA_MAX_W] = { 0 };
    for (unsigned j = 0; j < f->k; j++)
        TBC_EACH(f->lanes[j], p) {
            unsigned w = f->wid[j][p];
            if (w >= nw || !(umask >> w & 1) || !(mask[w] >> p & 1) ||
                (seen[w] >> p & 1))
                return false;
            seen[w] |= 1u << p;
        }
    for (uint32_t w = 0; w < nw; w++)
        if ((umask >> w & 1) && seen[w] != mask[w])
            return false;
    return true;
}

/* The warps of the new top entry at stack index idx that bypassed its
 * branch join it: a warp running ahead is counted, one waiting to be
 * placed goes into a free slot. Returns the warps that run the entry, or
 * -1 (no slot: an engine failure). */
static int attach(struct core_tbc *t, unsigned ci, int idx, uint64_t now)
{
    struct core_tbc_cta *tc = &t->cta[ci];
    const struct simt_cta_entry *e = &tc->st.stack[idx];
    int n = 0;
    for (unsigned i = 0; i < tc->nbyp;) {
        struct core_tbc_byp *r = &tc->byp[i];
        if (r->ent != idx) {
            i++;
            continue;
        }
        if (r->slot >= 0) {
            struct core_tbc_warp *cw = &t->w[r->slot];
            if (cw->waiting)
                t->st.ahead_wait_cycles += now - cw->wait_since;
            cw->ahead = cw->waiting = 0;
            if (cw->pc == e->rpc) {         /* its path ended ahead of it */
                cw->on = 0;
                t->v->wake[r->slot] = CORE_INF;
                t->v->wake_reason[r->slot] = CORE_ST_BARRIER;
            } else {
                n++;
                t->v->wake[r->slot] = 0;
                if (t->v->w[r->slot].ibuf_ready < now + 1)
                    t->v->w[r->slot].ibuf_ready = now + 1;
                if (t->v->next_try > now + 1)
                    t->v->next_try = now + 1;
            }
        } else {
            int s = free_slot(t, tc);
            if (s < 0)
                return -1;
            place(t, (unsigned)s, r->pc, r->pos, r->wid, r->lane, now + 1, true);
            n++;
        }
        tc->byp[i] = tc->byp[--tc->nbyp];
    }
    return n;
}

/* The branch class of the branch at pc (ptx_taint: P or D), as an index
 * 0 (P) or 1 (D), or -1 (neither, or not known). */
static int class_of(const struct core_tbc *t, int32_t pc)
{
    unsigned cl = t->cls ? t->cls[pc] : PTX_BCLS_NONE;
    return cl == PTX_BCLS_P ? 0 : cl == PTX_BCLS_D ? 1 : -1;
}

/* The compaction point right after the branch at bpc was decided (its
 * class's points and warp sums). */
static void class_points(struct core_tbc *t, int32_t bpc, uint32_t nocomp, unsigned k)
{
    int i = bpc >= 0 ? class_of(t, bpc) : -1;
    if (i < 0)
        return;
    t->st.cls_points[i]++;
    t->st.cls_nocomp[i] += nocomp;
    t->st.cls_tbc[i] += k;
}

/* A CTA-wide path of the divergent branch at from (thr threads; nocomp
 * warps without compaction, nw_min with TBC's lane rule) is formed: the
 * compaction rate of Fig 4.15/4.26 counts it, compactable by TBC when
 * nw_min < nocomp and ideally when ceil(thr / 32) < nocomp, and Fig
 * 4.27/4.28 by its quarter of the CTA's threads. */
static void path_stats(struct core_tbc *t, const struct core_tbc_cta *tc, int32_t from,
                       uint32_t thr, uint32_t nocomp, uint32_t nw_min)
{
    int i = class_of(t, from);
    if (i < 0)
        return;
    unsigned q = tc->nthr ? 4 * thr / tc->nthr : 0;
    q = q > 3 ? 3 : q;
    t->st.paths[i]++;
    t->st.paths_one[i] += nocomp <= 1;
    t->st.paths_dense[i] += nocomp > 1 && (thr + 31) / 32 >= nocomp;
    if (nw_min < nocomp) {
        t->st.paths_tbc[i]++;
        t->st.frac_tbc[i][q]++;
    }
    if ((thr + 31) / 32 < nocomp) {
        t->st.paths_ideal[i]++;
        t->st.frac_ideal[i][q]++;
    }
}

/* The WCU's formation at a compaction point checked against the engine's
 * own view of the CTA mask (nw_min: most threads in one lane; nrows_used:
 * rows with a thread): 0, or -1 with the block's why set. */
static int wcu_form_check(struct core_tbc *t, unsigned ci, int32_t npc,
                          const struct core_cblk_form *f, const uint32_t *mask,
                          uint32_t umask, uint32_t nrows, uint32_t nw_min,
                          uint32_t nrows_used)
{
    if (wcu_partition_ok(f, mask, umask, nrows) && f->nw_min == nw_min &&
        f->nw_nocomp == nrows_used)
        return 0;
    char m[400], where[200];
    where_of(t, ci, "compaction point", npc, where, sizeof where);
    const char *be = cosim_backend_name(t->blk.wcu->backend);
    if (f->nw_min != nw_min)
        snprintf(m, sizeof m, "WCU MODEL ERROR: %s: the evaluator counts %u warps "
                 "for the CTA mask, its most threads in one lane are %u (%s backend)",
                 where, f->nw_min, nw_min, be);
    else if (f->nw_nocomp != nrows_used)
        snprintf(m, sizeof m, "WCU MODEL ERROR: %s: the evaluator counts %u warps "
                 "with a thread, the mask has %u rows with one (%s backend)",
                 where, f->nw_nocomp, nrows_used, be);
    else
        snprintf(m, sizeof m, "WCU MODEL ERROR: %s: the compacted warps do not hold "
                 "each thread of the compacted warps' rows exactly once (%s backend)",
                 where, be);
    free(t->blk.why);
    t->blk.why = strdup(m);
    return -1;
}

/* The top entry of CTA ci is ready (its mask known): forms its compacted
 * warps (the WCU, or NW_ideal warps under ideal) into free slots of the
 * CTA; bpc >= 0: the entry is the first after the branch at bpc was
 * decided (its compaction point: CAPT update, statistics by class).
 * Returns 0, or -1 with the failure in t (block report or engine). */
static int form(struct core_tbc *t, unsigned ci, unsigned slot, uint64_t now,
                int32_t bpc)
{
    struct core_tbc_cta *tc = &t->cta[ci];
    struct simt_cta *c = &tc->st;
    struct simt_cta_entry *e = simt_cta_top(c);
    int idx = (int)c->sp - 1;
    uint32_t nw = c->nwarps, thr = simt_cta_threads(e, nw), nocomp = 0;
    for (uint32_t wi = 0; wi < nw; wi++)
        nocomp += e->mask[wi] != 0;
    t->st.points++;
    t->st.nw_nocomp += nocomp;
    t->st.nw_ideal += (thr + 31) / 32;
    /* the CTA mask by physical lane (the SLP map): the WCU's rows, and the
     * warps TBC needs for it (the most threads in one lane, Fig 4.9) */
    uint32_t mask[SIMT_CTA_MAX_W] = { 0 };
    uint8_t p2l[SIMT_CTA_MAX_W][32], inlane[32] = { 0 }, nw_min = 0;
    for (uint32_t wi = 0; wi < nw; wi++) {
        slp_map_of(t, tc, wi, now);
        TBC_EACH(e->mask[wi], l) {
            unsigned p = tc->l2p[wi][l];
            mask[wi] |= 1u << p;
            p2l[wi][p] = (uint8_t)l;
            if (++inlane[p] > nw_min)
                nw_min = inlane[p];
        }
    }
    if (e->from_pc >= 0)
        path_stats(t, tc, e->from_pc, thr, nocomp, nw_min);
    unsigned k = 0;
    if (t->scheme == CORE_TBC_IDEAL) {
        uint8_t wid[32] = { 0 }, lane[32] = { 0 };
        unsigned p = 0;
        for (uint32_t wi = 0; wi < nw; wi++)
            TBC_EACH(e->mask[wi], l) {
                wid[p] = (uint8_t)wi;
                lane[p] = (uint8_t)l;
                if (++p == 32) {
                    place(t, tc->home[k++], e->npc, 0xffffffffu, wid, lane, now + 1, true);
                    p = 0;
                }
            }
        if (p)
            place(t, tc->home[k++], e->npc, (uint32_t)((1ull << p) - 1), wid,
                  lane, now + 1, true);
        e->wcnt = k;
        tc->formed = k;
        t->st.warps_formed += k;
        t->st.nw_tbc += k;
        class_points(t, bpc, nocomp, k);
        return 0;
    }
    /* the threads that bypassed the branch into this entry keep their
     * warps: the WCU leaves them out (UMask 0) and its evaluator counts
     * them. A home warp all of whose threads here bypassed is a UMask-0
     * row; one only part of whose threads did is split: the rest stays
     * in its row, the bypassed part goes to the spare rows (UMask 0, past
     * the CTA's warps), a thread to the first whose lane is free, so the
     * evaluator's lane counts are unchanged and NW_noTBC counts the home
     * warp once (nspare rows more in the block's count). bypass() lets a
     * warp go only when these rows cannot run out. */
    uint32_t blog[SIMT_CTA_MAX_W] = { 0 };
    for (unsigned i = 0; i < tc->nbyp; i++)
        if (tc->byp[i].ent == idx)
            TBC_EACH(tc->byp[i].pos, p) {
                blog[tc->byp[i].wid[p]] |= 1u << tc->byp[i].lane[p];
            }
    uint32_t umask = 0, nspare = 0;
    uint8_t fill[32] = { 0 };
    for (uint32_t wi = 0; wi < nw; wi++) {
        uint32_t b = blog[wi] & e->mask[wi], bp = 0;
        if (b == e->mask[wi] && b)
            continue;
        umask |= 1u << wi;
        if (!b)
            continue;
        TBC_EACH(b, l) { bp |= 1u << tc->l2p[wi][l]; }
        mask[wi] &= ~bp;
        TBC_EACH(bp, p) {
            uint32_t r = nw + fill[p]++;
            if (r >= SIMT_CTA_MAX_W)
                return tbc_fail(t, slot, e->npc, "capri: no spare WCU row for a "
                                "thread that bypassed (engine error)");
            mask[r] |= 1u << p;
            if (fill[p] > nspare)
                nspare = fill[p];
        }
    }
    uint32_t nrows = nw + nspare;
    t->st.split_rows += nspare;
    struct where_ctx wx = { t, ci, "compaction point", e->npc };
    struct cosim_where wh = { where_text, &wx };
    struct core_cblk_form f;
    if (core_cblk_wcu_load(&t->blk, now, mask, umask, &wh, &f) != 0)
        return -1;
    if (f.load_at > now)
        t->st.wcu_wait += f.load_at - now;
    if (wcu_form_check(t, ci, e->npc, &f, mask, umask, nrows, nw_min,
                       nocomp + nspare) != 0)
        return -1;
    for (unsigned j = 0; j < f.k; j++) {
        uint8_t wid[32] = { 0 }, lane[32] = { 0 };
        TBC_EACH(f.lanes[j], p) {
            wid[p] = f.wid[j][p];
            lane[p] = p2l[wid[p]][p];
        }
        int s = free_slot(t, tc);
        if (s < 0)
            return tbc_fail(t, slot, e->npc, "thread-block compaction: no free warp "
                            "slot for a compacted warp (engine error)");
        place(t, (unsigned)s, e->npc, f.lanes[j], wid, lane, f.at[j] + 1, true);
        k++;
    }
    t->st.warps_formed += k;
    int a = attach(t, ci, idx, now);
    if (a < 0)
        return tbc_fail(t, slot, e->npc, "thread-block compaction: no free warp slot "
                        "for a bypassed warp (engine error)");
    k += (unsigned)a;
    e->wcnt = k;
    tc->formed = k;
    t->st.nw_tbc += k;
    if (bpc < 0)
        return 0;
    /* the compaction point of the branch at bpc */
    class_points(t, bpc, nocomp, k);
    if (t->scheme == CORE_TBC_CAPRI) {
        /* the evaluator judged the CTA mask: reduced the warp count? (its
         * NW_noTBC less the split rows: the warps the CTA mask spans;
         * without a split row, the block's own adequate_o) */
        bool adequate = nspare ? f.nw_min < nocomp : f.adequate;
        t->st.q[adequate ? 2 : 0] += tc->pred_bypass;   /* B/S, B/B */
        t->st.q[adequate ? 1 : 3] += tc->pred_stall;    /* S/S, S/B */
        /* warps that did not diverge bypassed without a lookup: Fig 4.21
         * judges their decisions too */
        t->st.qn[adequate ? 1 : 0] += tc->pred_nodiv;   /* B/S, B/B */
        tc->pred_nodiv = 0;
        /* the update names the entry the branch's lookup returned; a
         * branch no warp looked up (none diverged) has none: no update */
        bool looked = tc->pred_bypass + tc->pred_stall > 0;
        tc->pred_bypass = tc->pred_stall = 0;
        if (looked && core_cblk_update(&t->blk, f.load_at + 1, (uint32_t)bpc,
                                       tc->capt_idx, adequate) != 0)
            return -1;
    }
    return 0;
}

/* The CTA's home warps finished: every home slot goes into *done. */
static void cta_done(struct core_tbc *t, unsigned ci, uint64_t *done)
{
    struct core_tbc_cta *tc = &t->cta[ci];
    t->v->st.branches += tc->st.branches;
    t->v->st.divergent += tc->st.divergent;
    if (tc->st.max_depth > t->v->st.max_depth)
        t->v->st.max_depth = tc->st.max_depth;
    for (uint32_t wi = 0; wi < tc->st.nwarps; wi++) {
        struct simt_warp *sw = &t->v->w[tc->home[wi]].sw;
        sw->state = SIMT_DONE;
        sw->live = 0;
        sw->sp = 0;
        t->w[tc->home[wi]].on = 0;
        *done |= 1ull << tc->home[wi];
    }
}

static int check_deadlock(struct core_tbc *t, unsigned slot, unsigned ci, int32_t pc);

/* The top entry of CTA ci has no warp left: decides it and forms the next
 * entries until one has warps to run (or the CTA ends). */
static int next_point(struct core_tbc *t, unsigned slot, unsigned ci, uint64_t now,
                      uint64_t *done)
{
    struct core_tbc_cta *tc = &t->cta[ci];
    for (;;) {
        struct simt_cta_entry *e = simt_cta_top(&tc->st);
        if (!e) {
            cta_done(t, ci, done);
            return 0;
        }
        int level = (int)tc->st.sp - 1;
        int32_t bpc = e->br_pc;
        bool div;
        switch (simt_cta_resolve(&tc->st, &div)) {
        case SIMT_CTA_DONE:
            cta_done(t, ci, done);
            return 0;
        case SIMT_CTA_OVERFLOW:
            return tbc_fail(t, slot, t->w[slot].pc,
                            "thread-block compaction: CTA reconvergence stack overflow "
                            "(max_stack_depth)");
        default:
            break;
        }
        t->st.divergent += div;
        t->st.warp_uniform += div && tc->st.warp_uniform;
        /* a loop exit costs a serialised trip only when both paths hold
         * code: a plain break (its path the RPC itself) waits there as
         * it would on a per-warp stack */
        if (div && tc->st.both_paths && bpc >= 0 && t->lend &&
            simt_cta_top(&tc->st) && simt_cta_top(&tc->st)->rpc > t->lend[bpc])
            t->st.loop_exit++;
        /* bypasses of the decided branch find their path's entry */
        for (unsigned i = 0; i < tc->nbyp; i++) {
            struct core_tbc_byp *r = &tc->byp[i];
            if (r->ent >= 0 || r->level != level)
                continue;
            for (uint32_t j = (uint32_t)level; j < tc->st.sp && r->ent < 0; j++)
                if (tc->st.stack[j].npc == r->pc)
                    r->ent = (int16_t)j;
            if (r->ent < 0)
                return tbc_fail(t, slot, bpc, "capri: a bypassed warp's path has no "
                                "stack entry (engine error)");
        }
        if (form(t, ci, slot, now, bpc) != 0)
            return -1;
        if (simt_cta_top(&tc->st)->wcnt)
            return 0;
    }
}

/* A warp of CTA ci's top entry stops executing it (it left its slot, or
 * it bypassed the branch and runs ahead); the last one decides it. */
static int leave_entry(struct core_tbc *t, unsigned slot, unsigned ci, uint64_t now,
                       uint64_t *done)
{
    struct core_tbc_cta *tc = &t->cta[ci];
    struct simt_cta_entry *e = simt_cta_top(&tc->st);
    if (!e)
        return 0;
    if (--e->wcnt) {
        core_tbc_try_release(t, (int32_t)ci, now);   /* exits lower the count */
        for (unsigned i = 0; i < t->v->nslots; i++)
            if (t->v->w[i].cta == (int32_t)ci && t->w[i].on && t->w[i].at_bar)
                return check_deadlock(t, i, ci, t->w[i].pc - 1);
        return 0;
    }
    return next_point(t, slot, ci, now, done);
}

/* slot's compacted warp leaves its slot (branch, reconvergence point,
 * every thread exited); the last one of the entry decides it. */
static int leave(struct core_tbc *t, unsigned slot, uint64_t now, uint64_t *done)
{
    t->w[slot].on = 0;
    t->v->wake[slot] = CORE_INF;
    t->v->wake_reason[slot] = CORE_ST_BARRIER;
    return leave_entry(t, slot, (unsigned)t->v->w[slot].cta, now, done);
}

/* Whether a warp must wait before instruction in while it runs ahead of
 * its path's entry (capri): before a compaction point (a guarded bra) and
 * a barrier or trap; not before a branch that is no compaction point here
 * (an unguarded bra moves the warp within its entry's path, 4.1.3), nor
 * before exit or ret (its threads leave every entry). capri.ahead =
 * control (an ablation): before every control instruction. */
static bool ahead_stop(const struct core_tbc *t, const struct ptx_inst *in)
{
    if (!simt_is_control((enum ptx_op)in->op, in->sub))
        return false;
    if (!t->ahead_bra)
        return true;
    switch ((enum ptx_op)in->op) {
    case PTX_OP_BRA: return in->guard >= 0;
    case PTX_OP_EXIT: case PTX_OP_RET: return false;
    default: return true;
    }
}

/* A warp running ahead lost its last thread (exit): it no longer joins
 * its path's entry. */
static void drop_ahead(struct core_tbc *t, unsigned slot)
{
    struct core_tbc_cta *tc = &t->cta[t->v->w[slot].cta];
    for (unsigned i = 0; i < tc->nbyp; i++)
        if (tc->byp[i].slot == (int16_t)slot) {
            tc->byp[i] = tc->byp[--tc->nbyp];
            break;
        }
    t->w[slot].on = 0;
    t->w[slot].ahead = t->w[slot].waiting = 0;
    t->v->wake[slot] = CORE_INF;
    t->v->wake_reason[slot] = CORE_ST_BARRIER;
}

/* Moves slot's warp to pc: at its entry's reconvergence point it leaves.
 * A warp running ahead (capri) waits instead before a compaction point or
 * another control instruction (ahead_stop), at the reconvergence point of
 * the branch it bypassed, or past the end. */
static int advance(struct core_tbc *t, unsigned slot, int32_t pc, uint64_t now,
                   uint64_t *done)
{
    struct core_tbc_warp *cw = &t->w[slot];
    struct core_tbc_cta *tc = &t->cta[t->v->w[slot].cta];
    const struct simt_cta_entry *e = simt_cta_top(&tc->st);
    const struct ptx_func *f = t->v->k->f;
    cw->pc = pc;
    if (cw->ahead) {
        if (!cw->pos) {
            drop_ahead(t, slot);
            return 0;
        }
        if (pc == cw->ahead_rpc || (uint32_t)pc >= f->ninsts ||
            ahead_stop(t, &f->insts[pc])) {
            cw->waiting = 1;
            cw->wait_since = now;
            t->st.ahead_waits++;
        }
        if ((uint32_t)pc < f->ninsts)
            t->v->w[slot].next_di = core_tbc_peek(t, slot);
        return 0;
    }
    if (!cw->pos || (e && pc == e->rpc))
        return leave(t, slot, now, done);
    if ((uint32_t)pc >= f->ninsts) {  /* fell off the end: exit */
        TBC_EACH(cw->pos, p) {
            simt_cta_exit(&tc->st, cw->wid[p], 1u << cw->lane[p]);
            t->v->w[tc->home[cw->wid[p]]].sw.live &= ~(1u << cw->lane[p]);
        }
        cw->pos = 0;
        return leave(t, slot, now, done);
    }
    t->v->w[slot].next_di = core_tbc_peek(t, slot);
    return 0;
}

/* capri: whether the WCU's spare rows (those past the CTA's warps) can
 * hold, at any entry's load, the threads of every pending bypass that may
 * need one (`spare`: their home warp had threads outside the bypassing
 * warp) and a warp's such threads at positions pos: a thread needs a
 * spare row whose lane is free, so the rows suffice when no lane has more
 * such threads than there are spare rows. Always so in a CTA of at most half the rows (a
 * lane holds at most one thread per warp); in a larger CTA the WCU's 32
 * rows (shared spec blocks.md section 2) can run out. */
static bool spare_rows_suffice(const struct core_tbc_cta *tc, uint32_t pos)
{
    uint32_t spare = SIMT_CTA_MAX_W - tc->st.nwarps;
    if (tc->st.nwarps <= spare)
        return true;
    uint8_t n[32] = { 0 };
    for (unsigned i = 0; i <= tc->nbyp; i++) {
        uint32_t m = i < tc->nbyp ? tc->byp[i].spare : pos;
        TBC_EACH(m, p) {
            if (++n[p] > spare)
                return false;
        }
    }
    return true;
}

/* capri: slot's warp bypasses compaction at the branch at pc of the top
 * entry (its threads taking it: positions tpos). It keeps its warp: the
 * part on the path that runs first goes on ahead in the slot, the other
 * part is placed as it is when its path's entry is formed; its home warps
 * get UMask 0 there. Only a warp that holds every thread of the entry of
 * each home warp it draws from can (UMask is one bit per home warp);
 * *ok = false: it cannot, and stalls. */
static int bypass(struct core_tbc *t, unsigned slot, unsigned ci, int32_t pc,
                  uint32_t tpos, uint64_t now, uint64_t *done, bool *ok)
{
    struct core_tbc_warp *cw = &t->w[slot];
    struct core_tbc_cta *tc = &t->cta[ci];
    struct simt_cta_entry *e = simt_cta_top(&tc->st);
    const struct ptx_func *f = t->v->k->f;
    const struct ptx_inst *in = &f->insts[pc];
    *ok = false;
    /* a warp holding only part of a home warp's threads in the entry
     * puts its threads on the WCU's spare rows when its path's entry is
     * formed (capri.umask = row: it stalls instead) */
    uint32_t hs = core_tbc_homes_of(cw), part_homes = 0, spare = 0;
    TBC_EACH(hs, wi) {
        if (core_tbc_home_mask(cw, wi) != e->mask[wi])
            part_homes |= 1u << wi;
    }
    TBC_EACH(cw->pos, p) {
        if (part_homes >> cw->wid[p] & 1)
            spare |= 1u << p;
    }
    if (spare && (!t->umask_thread || !spare_rows_suffice(tc, spare)))
        return 0;
    int32_t rpc = in->reconv;
    if (rpc < 0 || (uint32_t)rpc > f->ninsts)
        rpc = (int32_t)f->ninsts;
    /* the parts in the order the stack runs them: taken, then not taken.
     * A warp that does not diverge goes on past the branch (4.2.2), its
     * path starting at the branch's reconvergence point included: it runs
     * ahead in the block there (the entry the branch leaves at the RPC)
     * up to that entry's own end. A divergent warp's part at the RPC waits
     * there for the warp's other part; so does any part at the RPC of the
     * branching entry (no block of this entry is left to it). */
    uint32_t part[2] = { tpos, cw->pos & ~tpos };
    int32_t ppc[2] = { in->o[0].label, pc + 1 };
    bool whole = !part[0] || !part[1];
    int np = 0, which[2];
    for (int i = 0; i < 2; i++)
        if (part[i] && ppc[i] != e->rpc &&
            (ppc[i] != rpc || (whole && t->skip_ahead)))
            which[np++] = i;
    if (!np || tc->nbyp + (unsigned)np > CORE_TBC_MAX_BYP)
        return 0;
    *ok = true;
    int level = (int)tc->st.sp - 1;
    for (int j = np - 1; j >= 0; j--) {
        int i = which[j];
        struct core_tbc_byp *r = &tc->byp[tc->nbyp++];
        r->slot = j == 0 ? (int16_t)slot : -1;
        r->level = (int16_t)level;
        r->ent = -1;
        r->pc = ppc[i];
        r->rows = rows_of(cw->wid, part[i]);
        r->pos = part[i];
        r->spare = part[i] & spare;
        memcpy(r->wid, cw->wid, sizeof r->wid);
        memcpy(r->lane, cw->lane, sizeof r->lane);
    }
    t->st.bypassed++;
    cw->pos = part[which[0]];
    cw->ahead = 1;
    cw->waiting = 0;
    cw->ahead_rpc = ppc[which[0]] == rpc ? e->rpc : rpc;
    int rc = advance(t, slot, ppc[which[0]], now, done);
    if (rc)
        return rc;
    return leave_entry(t, slot, ci, now, done);
}

/* Counts and commits a control instruction on each home warp. */
static void count_control(struct core_tbc *t, struct core_tbc_cta *tc,
                          const struct core_tbc_warp *cw, int32_t pc)
{
    uint32_t hs = core_tbc_homes_of(cw);
    TBC_EACH(hs, wi) {
        struct simt_warp *sw = &t->v->w[tc->home[wi]].sw;
        uint32_t m = core_tbc_home_mask(cw, wi);
        sw->warp_insts++;
        sw->thread_insts += popc(m);
        if (sw->commit)
            sw->commit(sw->commit_user, sw, t->v->k->f, pc, m);
    }
}

/* A barrier with every running warp of the CTA waiting and threads of the
 * CTA elsewhere in its stack can never complete: a clear error. */
static int check_deadlock(struct core_tbc *t, unsigned slot, unsigned ci, int32_t pc)
{
    for (unsigned i = 0; i < t->v->nslots; i++)
        if (t->v->w[i].cta == (int32_t)ci && t->w[i].on && !t->w[i].at_bar &&
            !t->w[i].waiting)
            return 0;
    const struct core_cta *cta = &t->v->cta[ci];
    char m[256];
    snprintf(m, sizeof m, "thread-block compaction deadlock: every running warp of "
             "CTA (%u,%u,%u) waits at the barrier at pc %d (line %u) while other "
             "threads of the CTA wait in its reconvergence stack (bar.sync in "
             "divergent code)", cta->ctaid[0], cta->ctaid[1], cta->ctaid[2], pc,
             t->v->k->f->insts[pc].line);
    return tbc_fail(t, slot, pc, m);
}

/* capri at a conditional branch (dissertation 4.2.2): a warp that does
 * not diverge bypasses without a lookup; one that diverges looks the
 * branch up in the CAPT (a miss allocates it and stalls) and bypasses
 * when the history says so. A stalled warp leaves its slot as under tbc. */
static int capri_branch(struct core_tbc *t, unsigned slot, unsigned ci, int32_t pc,
                        uint32_t tpos, uint64_t now, uint64_t *done)
{
    struct core_tbc_cta *tc = &t->cta[ci];
    uint32_t pos = t->w[slot].pos;
    bool div = tpos && tpos != pos, want = !div;
    if (div) {
        bool hit, stall;
        struct where_ctx wx = { t, ci, "branch", pc };
        struct cosim_where wh = { where_text, &wx };
        if (core_cblk_lookup(&t->blk, now, (uint32_t)pc, &wh, &hit, &stall,
                             &tc->capt_idx) != 0)
            return -1;
        t->st.lookups++;
        t->st.hits += hit;
        t->st.pred_stall += stall;
        t->st.pred_bypass += !stall;
        tc->pred_stall += stall;
        tc->pred_bypass += !stall;
        want = !stall;
    } else {
        t->st.nodiv_bypass++;
        tc->pred_nodiv++;
    }
    if (want) {
        bool ok;
        int rc = bypass(t, slot, ci, pc, tpos, now, done, &ok);
        if (rc || ok)
            return rc;
        t->st.bypass_denied += div;
        t->st.nodiv_denied += !div;
    }
    return leave(t, slot, now, done);
}

/* A compacted warp's non-control instruction at pc: each home warp runs
 * it under its own lanes (values, checks, commit log exact), and the
 * merged retire record (m, by position) goes into the slot's res.
 * Returns 0, or -1 with the faulting home warp's slot in the view. */
static int exec_homes(struct core_tbc *t, unsigned slot, const struct core_tbc_cta *tc,
                      int32_t pc, struct exec_result *m)
{
    const struct core_tbc_warp *cw = &t->w[slot];
    const uint32_t hs = cw->hs, *hl = cw->hl, *hp = cw->hp;
    TBC_EACH(hs, wi) {
        unsigned s = tc->home[wi];
        struct simt_warp *sw = &t->v->w[s].sw;
        if (simt_exec_at(sw, pc, hl[wi]) != SIMT_RC_OK) {
            t->v->err_slot = (int)s;
            return -1;
        }
        const struct exec_result *r = &sw->res;
        m->space = r->space;
        m->access_bytes = r->access_bytes;
        m->is_store = r->is_store;
    }
    /* each position from its home warp's result; without a memory
     * access (access_bytes 0) no address is read, so only the masks
     * are gathered, a home warp at a time where all its lanes ran */
    m->active = 0;
    uint32_t slow = cw->pos;
    if (!m->access_bytes) {
        slow = 0;
        TBC_EACH(hs, wi) {
            const struct exec_result *r = &t->v->w[tc->home[wi]].sw.res;
            if ((r->active & hl[wi]) == hl[wi] && !(r->gen_shared & hl[wi]) &&
                !(r->gen_local & hl[wi]))
                m->active |= hp[wi];
            else
                slow |= hp[wi];
        }
    }
    EXEC_FOR_EACH_LANE(slow, p, {
        const struct exec_result *r = &t->v->w[tc->home[cw->wid[p]]].sw.res;
        unsigned l = cw->lane[p];
        if (!(r->active >> l & 1))
            continue;
        m->active |= 1u << p;
        m->addr[p] = r->addr[l];
        m->gen_shared |= (r->gen_shared >> l & 1u) << p;
        m->gen_local |= (r->gen_local >> l & 1u) << p;
    });
    /* a local access is addressed per thread (home warp and lane) */
    if (m->space == PTX_SP_LOCAL) {
        memcpy(t->lpos[slot].wid, cw->wid, sizeof cw->wid);
        memcpy(t->lpos[slot].lane, cw->lane, sizeof cw->lane);
    }
    /* the fields and the active positions' addresses: the rest of m
     * is unset, as it is for any warp's inactive lanes */
    struct exec_result *res = &t->v->w[slot].sw.res;
    memcpy(res, m, offsetof(struct exec_result, addr));
    if (m->access_bytes)
        EXEC_FOR_EACH_LANE(m->active, p, { res->addr[p] = m->addr[p]; });
    return 0;
}

/* Executes slot's compacted warp's instruction at now (functional values
 * on the home warps, the merged retire record in sm->w[slot].sw.res) and
 * moves it on: a branch or reconvergence point makes it leave the slot, a
 * barrier makes it wait, the last warp of the CTA stack's top entry
 * starts the next compaction. Slots whose home warps finished (the CTA
 * ended) are OR-ed into *done. Returns 0, or -1 with sm->err_slot and
 * that warp's err filled (exec fault, deadlock, stack overflow). */
int core_tbc_step(struct core_tbc *t, unsigned slot, uint64_t now, uint64_t *done)
{
    struct core_tbc_warp *cw = &t->w[slot];
    unsigned ci = (unsigned)t->v->w[slot].cta;
    struct core_tbc_cta *tc = &t->cta[ci];
    const struct ptx_func *f = t->v->k->f;
    int32_t pc = cw->pc;
    acct_touch(t, ci);
    t->placed = 0;
    const struct ptx_inst *in = &f->insts[pc];
    /* the lanes and positions of each home warp (cached per pos) */
    (void)core_tbc_cache(t, slot);
    const uint32_t hs = cw->hs, *hl = cw->hl;
    t->last[slot].hs = hs;
    TBC_EACH(hs, wi) { t->last[slot].hl[wi] = hl[wi]; }
    t->st.issued++;
    t->st.issued_active += cw->pos != 0;
    t->st.thread_insts += popc(cw->pos);
    t->v->st.warp_insts++;
    struct exec_result m;
    memset(&m, 0, offsetof(struct exec_result, addr));
    m.active = cw->pos;
    if (!simt_is_control((enum ptx_op)in->op, in->sub)) {
        if (exec_homes(t, slot, tc, pc, &m) != 0)
            return -1;
        return advance(t, slot, pc + 1, now, done);
    }
    count_control(t, tc, cw, pc);
    memcpy(&t->v->w[slot].sw.res, &m, offsetof(struct exec_result, addr));
    switch ((enum ptx_op)in->op) {
    case PTX_OP_BRA: {
        int32_t target = in->o[0].label;
        if ((t->scheme == CORE_TBC_PLUS || t->scheme == CORE_TBC_CAPRI) &&
            in->guard < 0)      /* no compaction point */
            return advance(t, slot, target, now, done);
        bool uni = (t->scheme == CORE_TBC_PLUS || t->scheme == CORE_TBC_CAPRI) &&
                   (in->flags & PTX_F_UNI) && !cw->ahead;
        uint32_t tpos = 0, tk[SIMT_CTA_MAX_W];  /* positions, home lanes taking it */
        TBC_EACH(hs, wi) {
            struct simt_warp *sw = &t->v->w[tc->home[wi]].sw;
            tk[wi] = exec_guard_mask(&sw->ew, in, hl[wi]);
            EXEC_FOR_EACH_LANE(cw->pos, p, {
                if (cw->wid[p] == wi && (tk[wi] >> cw->lane[p] & 1))
                    tpos |= 1u << p;
            });
        }
        /* a guarded bra.uni (the compiler's promise that it does not
         * diverge) is no compaction point under tbc_plus and capri: the
         * warp jumps or falls through (one that does diverge is a
         * compaction point like any branch) */
        if (uni && (tpos == 0 || tpos == cw->pos))
            return advance(t, slot, tpos ? target : pc + 1, now, done);
        TBC_EACH(hs, wi) {
            if (!simt_cta_branch(&tc->st, wi, pc, hl[wi], tk[wi]))
                return tbc_fail(t, slot, pc, "thread-block compaction: warps of one "
                                "stack entry reached different branches (not modelled)");
        }
        if (t->scheme == CORE_TBC_CAPRI)
            return capri_branch(t, slot, ci, pc, tpos, now, done);
        return leave(t, slot, now, done);
    }
    case PTX_OP_RET:
    case PTX_OP_EXIT: {
        uint32_t keep = cw->pos;
        TBC_EACH(hs, wi) {
            struct simt_warp *sw = &t->v->w[tc->home[wi]].sw;
            uint32_t ex = exec_guard_mask(&sw->ew, in, hl[wi]);
            simt_cta_exit(&tc->st, wi, ex);
            sw->live &= ~ex;
            EXEC_FOR_EACH_LANE(cw->pos, p, {
                if (cw->wid[p] == wi && (ex >> cw->lane[p] & 1))
                    keep &= ~(1u << p);
            });
        }
        cw->pos = keep;
        int e = advance(t, slot, pc + 1, now, done);
        if (!e && t->v->cta[ci].used)
            core_tbc_try_release(t, (int32_t)ci, now);
        return e;
    }
    case PTX_OP_TRAP: {
        uint32_t any = 0;
        TBC_EACH(hs, wi) {
            struct simt_warp *sw = &t->v->w[tc->home[wi]].sw;
            any |= exec_guard_mask(&sw->ew, in, hl[wi]);
        }
        if (any)
            return tbc_fail(t, tc->home[cw->wid[__builtin_ctz(cw->pos)]], pc,
                            "trap executed (__trap(), or a runtime check compiled "
                            "into the kernel): the kernel aborts (CUDA reports "
                            "cudaErrorIllegalInstruction)");
        return advance(t, slot, pc + 1, now, done);
    }
    case PTX_OP_BAR:
    case PTX_OP_BARRIER: {
        const struct ptx_operand *oa = &in->o[0], *ob = &in->o[1];
        uint32_t arrived = 0, id = 0, count = 0;
        bool first = true;
        TBC_EACH(hs, wi) {
            struct simt_warp *sw = &t->v->w[tc->home[wi]].sw;
            uint32_t hm = hl[wi];
            uint32_t a = exec_guard_mask(&sw->ew, in, hm);
            if (a && first) {
                unsigned l0 = (unsigned)__builtin_ctz(a);
                id = oa->kind != PTX_O_NONE ? (uint32_t)exec_read(&sw->ew, oa, PTX_T_U32, l0) : 0;
                count = ob->kind != PTX_O_NONE ? (uint32_t)exec_read(&sw->ew, ob, PTX_T_U32, l0) : 0;
                first = false;
            }
            if (a && sw->chkw.chk)
                exec_chk_step(&sw->chkw, &sw->ew, &sw->mem, f, pc, hm, &sw->res, a,
                              sw->live, sw->warp_insts);
            arrived += popc(a);
        }
        int e = advance(t, slot, pc + 1, now, done);
        if (e || !arrived || !cw->on)
            return e;
        if (id >= CORE_NBAR)
            return tbc_fail(t, slot, pc, "bar: barrier id must be 0..15");
        struct core_cta *cta = &t->v->cta[ci];
        cta->arrived[id] += arrived;
        if (count)
            cta->expect[id] = count;
        if (in->sub == PTX_SUB_ARRIVE)
            return 0;
        cw->at_bar = 1;
        cw->bar_id = (uint8_t)id;
        core_tbc_try_release(t, (int32_t)ci, now);
        return cw->at_bar ? check_deadlock(t, slot, ci, pc) : 0;
    }
    default:
        return tbc_fail(t, slot, pc, "thread-block compaction: control instruction "
                        "not modelled");
    }
}

/* Releases CTA ci's barriers whose threads all arrived (replaces
 * core_sm.c's try_release while compacting). */
void core_tbc_try_release(struct core_tbc *t, int32_t ci, uint64_t now)
{
    struct core_cta *cta = &t->v->cta[ci];
    uint32_t live = 0;
    struct core_tbc_cta *tc = &t->cta[ci];
    for (uint32_t wi = 0; wi < tc->st.nwarps; wi++)
        live += popc(tc->st.live[wi]);
    uint32_t waiting = 0;
    for (unsigned i = 0; i < t->v->nslots; i++)
        if (t->v->w[i].cta == ci && t->w[i].on && t->w[i].at_bar)
            waiting |= 1u << t->w[i].bar_id;
    for (unsigned b = 0; b < CORE_NBAR; b++) {
        if (!(waiting >> b & 1))
            continue;
        uint32_t need = cta->expect[b] ? cta->expect[b] : live;
        if (cta->arrived[b] < need)
            continue;
        for (unsigned i = 0; i < t->v->nslots; i++) {
            struct core_tbc_warp *cw = &t->w[i];
            if (t->v->w[i].cta == ci && cw->on && cw->at_bar && cw->bar_id == b) {
                cw->at_bar = 0;
                t->v->wake[i] = 0;
                if (t->v->w[i].ibuf_ready < now + 1)
                    t->v->w[i].ibuf_ready = now + 1;
            }
        }
        cta->arrived[b] = cta->expect[b] = cta->ntrue[b] = cta->nfalse[b] = 0;
    }
}

