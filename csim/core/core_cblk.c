/* The SM's WCU and CAPT through the seam (core_cblk.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/core_cblk.h"
#include "cosim/cosim.h"
#include "blocks/wcu.h"
#include "blocks/capt.h"

void core_cblk_wcu_cfg(struct wcu_cfg *c)
{
    *c = wcu_cfg_default();
    c->W = 32;
    c->NW = WCU_MAX_NW;
}

void core_cblk_capt_cfg(unsigned entries, unsigned hist, unsigned lru,
                        struct capt_cfg *c)
{
    *c = capt_cfg_default();
    c->ENTRIES = entries;
    c->TAG_W = 32;
    c->HIST = hist;
    c->LRU = lru == 1 ? CAPT_LRU_TREE : lru == 2 ? CAPT_LRU_TRUE
           : entries & (entries - 1) ? CAPT_LRU_TRUE : CAPT_LRU_TREE;
}

static int fail(struct core_cblk *u, int st, const char *msg)
{
    if (!u->why)
        u->why = strdup(msg ? msg : "mismatch");
    return st;
}

static int make(struct cosim_inst **b, struct cosim_env *env, const char *blk,
                const void *cfg, unsigned id, char *err, size_t n)
{
    *b = calloc(1, sizeof **b);
    if (!*b) {
        snprintf(err, n, "host memory exhausted (%s) [%s:%d]", blk, __FILE__, __LINE__);
        return -1;
    }
    char name[32];
    snprintf(name, sizeof name, "sm%u.%s", id, blk);
    if (cosim_create(*b, env, cosim_desc_find(blk), cfg, name, err, n) != 0) {
        free(*b);
        *b = NULL;
        return -1;
    }
    return 0;
}

int core_cblk_init(struct core_cblk *u, struct cosim_env *env, unsigned id,
                   bool wcu, bool capt, unsigned entries, unsigned hist,
                   unsigned lru, char *err, size_t n)
{
    memset(u, 0, sizeof *u);
    struct wcu_cfg wc;
    struct capt_cfg cc;
    core_cblk_wcu_cfg(&wc);
    core_cblk_capt_cfg(entries, hist, lru, &cc);
    if (wcu && make(&u->wcu, env, "wcu", &wc, id, err, n) != 0)
        return -1;
    if (capt && make(&u->capt, env, "capt", &cc, id, err, n) != 0)
        return -1;
    return 0;
}

void core_cblk_free(struct core_cblk *u)
{
    struct cosim_inst *b[2] = { u->wcu, u->capt };
    for (unsigned i = 0; i < 2; i++)
        if (b[i]) {
            cosim_free(b[i]);
            free(b[i]);
        }
    free(u->uq);
    free(u->why);
    memset(u, 0, sizeof *u);
}

static void reset_one(struct cosim_inst *b)
{
    if (!b)
        return;
    cosim_reset(b);
    b->st.cycles = b->st.idle_skipped = 0;
    b->st.transactions = b->st.mismatches = 0;
}

void core_cblk_kernel(struct core_cblk *u, const char *kernel, uint64_t now)
{
    reset_one(u->wcu);
    reset_one(u->capt);
    u->t0 = now;
    u->kernel = kernel;
    u->uhead = u->un = 0;
}

/* Brings b to the edge of GPU cycle cyc (idle edges in between) unless it
 * is already there or past it. */
static int catch_up(struct core_cblk *u, struct cosim_inst *b, uint64_t cyc)
{
    if (cosim_idle_to(b, cyc > u->t0 ? cyc - u->t0 : 0, u->kernel, u->t0))
        return fail(u, LS_ERR_COSIM, b->report);
    return 0;
}

/* What one WCU or CAPT edge does, described only for a mismatch report
 * (the description is on every edge's path, a report is rare). */
struct edge_desc {
    const struct core_cblk *u;
    uint64_t cyc;                   /* GPU cycle of the edge                */
    int kind;                       /* EDGE_*                               */
    unsigned k;                     /* compacted warp number (EDGE_WARP)    */
    const struct cosim_where *of;   /* the compaction point or branch       */
    bool upd;                       /* a CAPT update rides on the edge      */
    struct core_cblk_upd q;         /* ... this one                         */
};
enum { EDGE_NONE, EDGE_LOAD, EDGE_WARP, EDGE_LOOKUP };

static void edge_text(const void *ctx, char *buf, size_t n)
{
    const struct edge_desc *d = ctx;
    const char *kn = d->u->kernel ? d->u->kernel : "?";
    char of[200] = "", w[320] = "";
    if (d->of && d->of->fn)
        d->of->fn(d->of->ctx, of, sizeof of);
    if (d->kind == EDGE_LOAD)
        snprintf(w, sizeof w, "kernel %s, GPU cycle %llu, load of %s", kn,
                 (unsigned long long)d->cyc, of);
    else if (d->kind == EDGE_WARP)
        snprintf(w, sizeof w, "kernel %s, GPU cycle %llu, compacted warp %u of %s",
                 kn, (unsigned long long)d->cyc, d->k, of);
    else if (d->kind == EDGE_LOOKUP)
        snprintf(w, sizeof w, "kernel %s, GPU cycle %llu, lookup of %s", kn,
                 (unsigned long long)d->cyc, of);
    if (d->upd) {
        size_t l = strlen(w);
        snprintf(w + l, sizeof w - l, "%skernel %s, GPU cycle %llu, adequacy update "
                 "of the branch at pc %u, entry %u (%s)", l ? "; " : "", kn,
                 (unsigned long long)d->cyc, d->q.pc, d->q.idx,
                 d->q.adequate ? "adequate" : "not adequate");
    }
    snprintf(buf, n, "%s", w);
}

int core_cblk_wcu_load(struct core_cblk *u, uint64_t now, const uint32_t *mask,
                       uint32_t umask, const struct cosim_where *where,
                       struct core_cblk_form *f)
{
    struct cosim_inst *b = u->wcu;
    memset(f, 0, sizeof *f);
    if (u->why)
        return LS_ERR_COSIM;
    if (catch_up(u, b, now))
        return LS_ERR_COSIM;
    struct wcu_in in;
    struct wcu_out o;
    memset(&in, 0, sizeof in);
    in.load_i[0] = 1;
    memcpy(in.mask_i, mask, sizeof in.mask_i);
    in.umask_i[0] = umask;
    f->load_at = u->t0 + b->edge;
    struct edge_desc d = { .u = u, .cyc = f->load_at, .kind = EDGE_LOAD, .of = where };
    struct cosim_where w = { edge_text, &d };
    if (cosim_step_lazy(b, &in, &o, &w))
        return fail(u, LS_ERR_COSIM, b->report);
    if (!o.eval_valid_o[0])
        return fail(u, LS_ERR_COSIM, "wcu: a load was not accepted (ready_o)");
    f->nw_min = o.nw_min_o[0];
    f->nw_nocomp = o.nw_nocomp_o[0];
    f->adequate = o.adequate_o[0] != 0;
    memset(&in, 0, sizeof in);
    d.kind = EDGE_WARP;
    while (o.busy_o[0] && f->k < 32) {
        uint64_t cyc = u->t0 + b->edge;
        d.cyc = cyc;
        d.k = f->k;
        if (cosim_step_lazy(b, &in, &o, &w))
            return fail(u, LS_ERR_COSIM, b->report);
        if (!o.out_valid_o[0])
            break;
        f->at[f->k] = cyc;
        f->lanes[f->k] = o.out_lanes_o[0];
        for (unsigned l = 0; l < 32; l++)
            f->wid[f->k][l] = (uint8_t)o.out_wid_o[l];
        f->k++;
        if (o.out_done_o[0])
            break;
    }
    return 0;
}

/* One CAPT edge at the block's next edge: the head update if it is due,
 * and a lookup when look (answer in *o). */
static int capt_edge(struct core_cblk *u, bool look, uint32_t pc,
                     const struct cosim_where *where, struct capt_out *o)
{
    struct cosim_inst *b = u->capt;
    uint64_t cyc = u->t0 + b->edge;
    struct capt_in in;
    memset(&in, 0, sizeof in);
    struct edge_desc d = { .u = u, .cyc = cyc, .kind = EDGE_NONE, .of = where };
    if (look) {
        in.lookup_valid_i[0] = 1;
        in.lookup_pc_i[0] = pc;
        d.kind = EDGE_LOOKUP;
    }
    if (u->un && u->uq[u->uhead].at <= cyc) {
        const struct core_cblk_upd *q = &u->uq[u->uhead];
        in.update_valid_i[0] = 1;
        in.update_pc_i[0] = q->pc;
        in.update_idx_i[0] = q->idx;
        in.update_adequate_i[0] = q->adequate;
        d.upd = true;
        d.q = *q;
        u->uhead = (u->uhead + 1) % u->ucap;
        u->un--;
    }
    struct cosim_where w = { edge_text, &d };
    if (cosim_step_lazy(b, &in, o, &w))
        return fail(u, LS_ERR_COSIM, b->report);
    return 0;
}

/* Applies the queued updates due by cycle upto (each on its edge). */
static int capt_drain(struct core_cblk *u, uint64_t upto)
{
    struct capt_out o;
    while (u->un && u->uq[u->uhead].at <= upto) {
        if (catch_up(u, u->capt, u->uq[u->uhead].at) || capt_edge(u, false, 0, NULL, &o))
            return LS_ERR_COSIM;
    }
    return 0;
}

int core_cblk_lookup(struct core_cblk *u, uint64_t now, uint32_t pc,
                     const struct cosim_where *where, bool *hit, bool *stall,
                     uint32_t *idx)
{
    *hit = false;
    *stall = true;
    *idx = 0;
    if (u->why)
        return LS_ERR_COSIM;
    if (now && capt_drain(u, now - 1))
        return LS_ERR_COSIM;
    if (catch_up(u, u->capt, now))
        return LS_ERR_COSIM;
    struct capt_out o;
    if (capt_edge(u, true, pc, where, &o))
        return LS_ERR_COSIM;
    if (!o.pred_valid_o[0])
        return fail(u, LS_ERR_COSIM, "capt: a lookup gave no prediction (pred_valid_o 0)");
    *hit = o.pred_hit_o[0] != 0;
    *stall = o.pred_stall_o[0] != 0;
    *idx = o.pred_idx_o[0];
    return 0;
}

int core_cblk_update(struct core_cblk *u, uint64_t at, uint32_t pc, uint32_t idx,
                     bool adequate)
{
    if (!u->capt)
        return 0;
    if (u->un == u->ucap) {
        uint32_t cap = u->ucap ? u->ucap * 2 : 64;
        struct core_cblk_upd *q = malloc(cap * sizeof *q);
        if (!q)
            return fail(u, LS_ERR_NOMEM, "host memory exhausted (CAPT update queue)");
        for (uint32_t i = 0; i < u->un; i++)
            q[i] = u->uq[(u->uhead + i) % u->ucap];
        free(u->uq);
        u->uq = q;
        u->uhead = 0;
        u->ucap = cap;
    }
    struct core_cblk_upd *r = &u->uq[(u->uhead + u->un++) % u->ucap];
    r->at = at;
    r->pc = pc;
    r->idx = idx;
    r->adequate = adequate;
    return 0;
}

int core_cblk_finish(struct core_cblk *u, uint64_t end)
{
    if (u->why)
        return LS_ERR_COSIM;
    if (u->capt) {
        if (end && capt_drain(u, end - 1))
            return LS_ERR_COSIM;
        if (catch_up(u, u->capt, end))
            return LS_ERR_COSIM;
        /* updates of the last cycles drain on extra edges */
        struct capt_out o;
        while (u->un)
            if (catch_up(u, u->capt, u->uq[u->uhead].at) ||
                capt_edge(u, false, 0, NULL, &o))
                return LS_ERR_COSIM;
    }
    if (u->wcu && catch_up(u, u->wcu, end))
        return LS_ERR_COSIM;
    return 0;
}

void core_cblk_stats(const struct core_cblk *u, ls_stats *s)
{
    const struct cosim_inst *b[2] = { u->wcu, u->capt };
    const int id[2] = { LS_BLK_WCU, LS_BLK_CAPT };
    for (unsigned i = 0; i < 2; i++) {
        if (!b[i])
            continue;
        ls_cosim_stats *c = &s->cosim[id[i]];
        c->instances += 1;
        c->cycles += b[i]->st.cycles;
        c->idle_skipped += b[i]->st.idle_skipped;
        c->transactions += b[i]->st.transactions;
        c->mismatches += b[i]->st.mismatches;
        c->backend = b[i]->st.backend;
    }
}
