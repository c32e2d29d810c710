/* The SM's SLP unit through the seam (core_slp.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/core_slp.h"
#include "core/core.h"
#include "core/core_mech.h"
#include "cosim/cosim.h"
#include "blocks/slp.h"

void core_slp_cfg(unsigned nslots, struct slp_cfg *c)
{
    *c = slp_cfg_default();
    c->W = 32;
    c->NWARPS = nslots;
    c->ROT_EN = 1;
}

int core_slp_init(struct core_slp *u, struct cosim_env *env, unsigned id,
                  unsigned nslots, unsigned mode, char *err, size_t n)
{
    memset(u, 0, sizeof *u);
    u->mode = mode;
    u->blk = calloc(1, sizeof *u->blk);
    if (!u->blk) {
        snprintf(err, n, "host memory exhausted (SLP) [%s:%d]", __FILE__, __LINE__);
        return -1;
    }
    struct slp_cfg c;
    core_slp_cfg(nslots, &c);
    char name[32];
    snprintf(name, sizeof name, "sm%u.slp", id);
    if (cosim_create(u->blk, env, cosim_desc_find("slp"), &c, name, err, n) != 0) {
        free(u->blk);
        u->blk = NULL;
        return -1;
    }
    return 0;
}

void core_slp_free(struct core_slp *u)
{
    if (u->blk) {
        cosim_free(u->blk);
        free(u->blk);
    }
    free(u->q);
    free(u->why);
    memset(u, 0, sizeof *u);
}

void core_slp_kernel(struct core_slp *u, const char *kernel, uint64_t now)
{
    if (!u->blk)
        return;
    cosim_reset(u->blk);
    u->blk->st.cycles = u->blk->st.idle_skipped = 0;
    u->blk->st.transactions = u->blk->st.mismatches = 0;
    u->t0 = now;
    u->kernel = kernel;
    u->head = u->n = 0;
    u->mapped = 0;
}

void core_slp_push(struct core_slp *u, int launch, unsigned slot,
                   uint32_t warp, const uint32_t ctaid[3], uint32_t mask,
                   uint64_t now)
{
    if (!u->blk)
        return;
    if (u->n == u->cap) {
        uint32_t cap = u->cap ? u->cap * 2 : 64;
        struct core_slp_req *q = malloc(cap * sizeof *q);
        if (!q) {
            u->oom = true;
            return;
        }
        for (uint32_t i = 0; i < u->n; i++)
            q[i] = u->q[(u->head + i) % u->cap];
        free(u->q);
        u->q = q;
        u->head = 0;
        u->cap = cap;
    }
    if (launch)
        u->vmask[slot] = mask;     /* the exit lookup asks with the same mask */
    struct core_slp_req *r = &u->q[(u->head + u->n++) % u->cap];
    r->at = now;
    r->mask = mask;
    memcpy(r->ctaid, ctaid, sizeof r->ctaid);
    r->warp = warp;
    r->slot = (uint16_t)slot;
    r->launch = (uint8_t)launch;
}

/* One request at one GPU cycle, for a report. */
struct slp_desc {
    const struct core_slp *u;
    const struct core_slp_req *r;
    uint64_t cycle;
};

/* The request's description (a cosim_where: formatted only when a report
 * is written, not on every transaction). */
static void describe(const void *ctx, char *buf, size_t n)
{
    const struct slp_desc *d = ctx;
    const struct core_slp_req *r = d->r;
    snprintf(buf, n, "kernel %s, GPU cycle %llu, %s of warp %u of CTA (%u,%u,%u) "
             "in slot %u", d->u->kernel ? d->u->kernel : "?",
             (unsigned long long)d->cycle, r->launch ? "launch" : "exit lookup",
             r->warp, r->ctaid[0], r->ctaid[1], r->ctaid[2], r->slot);
}

static int fail(struct core_slp *u, int st, const char *msg)
{
    free(u->why);
    u->why = strdup(msg);
    return st;
}

/* The block's answer to request r: a launch keeps the map, a lookup must
 * return the map its launch stored. */
static int consume(struct core_slp *u, const struct core_slp_req *r,
                   const struct slp_out *o, const struct slp_desc *d)
{
    unsigned s = r->slot;
    if (r->launch) {
        u->key[s] = (uint8_t)o->key_o[0];
        u->rot[s] = (uint8_t)o->rot_o[0];
        u->pmask[s] = o->mask_o[0];
        u->mapped |= 1ull << s;
        return 0;
    }
    bool ok = (u->mapped >> s & 1) && o->valid_o[0] == 1 &&
              o->key_o[0] == u->key[s] && o->rot_o[0] == u->rot[s] &&
              o->mask_o[0] == u->pmask[s];
    u->mapped &= ~(1ull << s);
    if (ok)
        return 0;
    char where[256], msg[512];
    describe(d, where, sizeof where);
    snprintf(msg, sizeof msg, "%s: %s: the lookup returned key 0x%x rot %u mask "
             "0x%08x, the warp's launch stored key 0x%x rot %u mask 0x%08x (%s "
             "backend)", u->blk->name, where, o->key_o[0], o->rot_o[0],
             o->mask_o[0], u->key[s], u->rot[s], u->pmask[s],
             cosim_backend_name(u->blk->backend));
    return fail(u, LS_ERR_COSIM, msg);
}

int core_slp_advance(struct core_slp *u, uint64_t upto)
{
    if (!u->blk)
        return 0;
    if (u->why)
        return LS_ERR_COSIM;
    if (u->oom)
        return fail(u, LS_ERR_NOMEM, "host memory exhausted (SLP request queue)");
    struct cosim_inst *b = u->blk;
    while (u->t0 + b->edge <= upto) {
        uint64_t cyc = u->t0 + b->edge;
        if (u->n && u->q[u->head].at <= cyc) {
            const struct core_slp_req *r = &u->q[u->head];
            struct slp_in in;
            struct slp_out o;
            memset(&in, 0, sizeof in);
            in.valid_i[0] = 1;
            in.launch_i[0] = r->launch;
            in.slot_i[0] = r->slot;
            in.wid_i[0] = r->warp & 31;
            in.mode_i[0] = r->launch ? u->mode : 0;
            in.mask_i[0] = r->mask;
            struct slp_desc d = { u, r, cyc };
            struct cosim_where w = { describe, &d };
            if (cosim_step_lazy(b, &in, &o, &w))
                return fail(u, LS_ERR_COSIM, b->report ? b->report : "mismatch");
            int e = consume(u, r, &o, &d);
            if (e)
                return e;
            u->head = (u->head + 1) % u->cap;
            u->n--;
            continue;
        }
        uint64_t until = u->n && u->q[u->head].at <= upto ? u->q[u->head].at : upto + 1;
        /* a settled block skips the run without stepping, and the C
         * model alone compares nothing: nothing to describe (this runs
         * on every SM cycle) */
        char where[256];
        where[0] = '\0';
        if (b->backend != COSIM_BE_C && b->quiet < b->d->settle)
            snprintf(where, sizeof where, "kernel %s, GPU cycle %llu, idle",
                     u->kernel ? u->kernel : "?", (unsigned long long)cyc);
        if (cosim_idle(b, until - cyc, where))
            return fail(u, LS_ERR_COSIM, b->report ? b->report : "mismatch");
    }
    return 0;
}

int core_slp_finish(struct core_slp *u, uint64_t end)
{
    if (!u->blk)
        return 0;
    int e = end ? core_slp_advance(u, end - 1) : 0;
    /* requests of the last cycles drain on extra edges */
    while (!e && u->n)
        e = core_slp_advance(u, u->t0 + u->blk->edge);
    return e;
}

void core_slp_stats(const struct core_slp *u, ls_stats *s)
{
    if (!u->blk)
        return;
    ls_cosim_stats *c = &s->cosim[LS_BLK_SLP];
    const ls_cosim_stats *b = &u->blk->st;
    c->instances += 1;
    c->cycles += b->cycles;
    c->idle_skipped += b->idle_skipped;
    c->transactions += b->transactions;
    c->mismatches += b->mismatches;
    c->backend = b->backend;
}

/* ------------------------------------------- the SM mechanism (core_mech.h) */

/* The lane map service (core_view_lane_map): slot's key and rotation, once
 * its launch request has been answered (clocked up to now if not yet). */
static void unit_lane_map(void *self, unsigned slot, uint64_t now, unsigned *key,
                         unsigned *rot)
{
    struct core_slp *u = self;
    if (!u->blk || !u->mode)
        return;
    if (!(u->mapped >> slot & 1))
        (void)core_slp_advance(u, now);     /* a failure stays in why */
    if (u->mapped >> slot & 1) {
        *key = u->key[slot];
        *rot = u->rot[slot];
    }
}

static bool unit_on(const struct cfg *c)
{
    (void)c;
    return true;                /* every SM has the unit (mode none: identity) */
}

static int unit_init(void **self, struct core_view *v, const struct core_mech_env *e,
                    char *err, size_t n)
{
    struct core_slp *u = calloc(1, sizeof *u);
    if (!u) {
        snprintf(err, n, "host memory exhausted (SLP) [%s:%d]", __FILE__, __LINE__);
        return -1;
    }
    *self = u;
    if (e->cosim && core_slp_init(u, e->cosim, e->sm, e->nslots,
                                  (unsigned)e->c->slp_permutation, err, n) != 0)
        return -1;
    v->lane_map = unit_lane_map;
    v->lane_self = u;
    return 0;
}

static void unit_free(void *self)
{
    if (self)
        core_slp_free(self);
    free(self);
}

static int unit_kernel(void *self, struct core_view *v, uint64_t now)
{
    core_slp_kernel(self, v->k->f->name, now);
    return 1;
}

static int unit_warp_start(void *self, struct core_view *v, unsigned slot, uint32_t valid,
                          uint64_t now)
{
    const struct simt_warp *w = &v->w[slot].sw;
    core_slp_push(self, 1, slot, w->gridv.warpid, w->gridv.ctaid, valid, now);
    return 0;
}

static void unit_warp_leave(void *self, struct core_view *v, unsigned slot, uint64_t now)
{
    struct core_slp *u = self;
    const struct simt_warp *w = &v->w[slot].sw;
    core_slp_push(u, 0, slot, w->gridv.warpid, w->gridv.ctaid, u->vmask[slot], now);
}

static int unit_cycle(void *self, struct core_view *v, uint64_t now)
{
    (void)v;
    return now ? core_slp_advance(self, now - 1) : 0;
}

static const char *unit_why(const void *self, int e, uint32_t *line)
{
    const struct core_slp *u = self;
    *line = 0;
    return e ? u->why : NULL;
}

static void unit_stats(const void *self, bool first, ls_stats *s)
{
    (void)first;
    core_slp_stats(self, s);
}

static int unit_finish(void *self, uint64_t end)
{
    return core_slp_finish(self, end);
}

const struct core_mech_ops core_slp_mech = {
    .name = "slp",
    .kind = CORE_MECH_AUGMENT,
    .on = unit_on,
    .init = unit_init,
    .free = unit_free,
    .kernel = unit_kernel,
    .stats = unit_stats,
    .finish = unit_finish,
    .why = unit_why,
    .warp_start = unit_warp_start,
    .warp_leave = unit_warp_leave,
    .cycle = unit_cycle,
};
