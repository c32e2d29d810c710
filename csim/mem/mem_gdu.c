/* LAMAR granularity decision units (dissertation 5.2; docs/lamar.md): one
 * beside every L1D and every L2 slice. On a miss that allocates a line the
 * cache asks its GDU which sectors to fetch beyond the requested ones (all
 * of them: coarse-grained, CG; none: fine-grained, FG); on an eviction it
 * tells the GDU how many sectors the line used. The BGP scheme is the BGP
 * block (csim/blocks/bgp.c, rtl/bgp.v) clocked through the block seam, so
 * it runs as the C model, the Verilated RTL, or both in lockstep; the other
 * schemes are C only. A GDU only decides what is fetched: values never
 * pass through it, so no scheme can change an architectural result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/mem_int.h"
#include "cosim/cosim.h"
#include "blocks/bgp.h"
#include "blocks/bgp_ref.h"

void mem_bgp_cfg(const struct cfg *c, struct bgp_cfg *b)
{
    *b = bgp_cfg_default();
    b->M = (unsigned)c->lamar_bgp_bits;
    b->K = (unsigned)c->lamar_bgp_hashes;
    b->N = (unsigned)c->lamar_bgp_refresh;
    b->NUM_EVICT = (unsigned)c->lamar_bgp_num_evict;
    b->TH_FG = (unsigned)c->lamar_th_fg;
    b->SKEW_PCT = (unsigned)c->lamar_bgp_skew_pct;
}

static int gdu_one(struct mem_sys *m, struct mem_gdu *g, int kind, unsigned nsec,
                   const char *name, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    g->kind = (uint8_t)kind;
    g->idle1 = 1;                 /* bit-array 1 starts in its idle period */
    g->all = (uint8_t)((1u << nsec) - 1u);
    struct bgp_cfg bc;
    mem_bgp_cfg(&m->c, &bc);
    if (kind == CFG_LAMAR_GDU_BGP) {
        g->blk = calloc(1, sizeof *g->blk);
        if (!g->blk) {
            snprintf(err, errlen, "host memory exhausted (%s) [%s:%d]", name, __FILE__, __LINE__);
            return -1;
        }
        if (cosim_create(g->blk, m->own_env, cosim_desc_find("bgp"), &bc, name, err, errlen) != 0) {
            free(g->blk);
            g->blk = NULL;
            return -1;
        }
    } else if (kind == CFG_LAMAR_GDU_BGP_INF) {
        g->ref = calloc(1, sizeof *g->ref);
        if (!g->ref || bgp_ref_init(g->ref, BGP_REF_INF, &bc) != 0) {
            free(g->ref);
            g->ref = NULL;
            snprintf(err, errlen, "%s: bad BGP parameters or out of memory [%s:%d]", name,
                     __FILE__, __LINE__);
            return -1;
        }
    } else if (kind == CFG_LAMAR_GDU_SPP) {
        g->npht = (unsigned)m->c.lamar_spp_entries;
        g->pht = calloc(g->npht, sizeof *g->pht);
        if (!g->pht) {
            snprintf(err, errlen, "host memory exhausted (%s PHT) [%s:%d]", name, __FILE__, __LINE__);
            return -1;
        }
    }
    return 0;
}

int mem_gdu_init(struct mem_sys *m, struct cosim_env *env, char *err, size_t errlen)
{
    const struct cfg *c = &m->c;
    int kind = c->lamar_gdu;
    bool l1 = c->lamar_level != CFG_LAMAR_LEVEL_L2, l2 = c->lamar_level != CFG_LAMAR_LEVEL_L1;
    if ((kind == CFG_LAMAR_GDU_BGP && (l1 || l2)) && !env) {
        m->own_env = calloc(1, sizeof *m->own_env);    /* every backend c */
        if (!m->own_env) {
            snprintf(err, errlen, "host memory exhausted [%s:%d]", __FILE__, __LINE__);
            return -1;
        }
        env = m->own_env;
    }
    struct cosim_env *keep = m->own_env;
    m->own_env = env;                   /* gdu_one creates under it */
    char name[32];
    int rc = 0;
    for (unsigned i = 0; !rc && i < m->nsms; i++) {
        snprintf(name, sizeof name, "sm%u.bgp", i);
        rc = gdu_one(m, &m->sm[i].gdu, l1 ? kind : CFG_LAMAR_GDU_CG_ONLY,
                     (unsigned)(c->l1d_line / c->l1d_sector), name, err, errlen);
    }
    for (unsigned p = 0; !rc && p < m->nparts; p++) {
        snprintf(name, sizeof name, "l2s%u.bgp", p);
        rc = gdu_one(m, &m->part[p].gdu, l2 ? kind : CFG_LAMAR_GDU_CG_ONLY,
                     (unsigned)(c->l2_line / c->l2_sector), name, err, errlen);
    }
    m->own_env = keep;
    return rc;
}

static void gdu_free_one(struct mem_gdu *g)
{
    if (g->blk) {
        cosim_free(g->blk);
        free(g->blk);
    }
    if (g->ref) {
        bgp_ref_free(g->ref);
        free(g->ref);
    }
    free(g->pht);
    free(g->seen);
    memset(g, 0, sizeof *g);
}

void mem_gdu_free(struct mem_sys *m)
{
    for (unsigned i = 0; m->sm && i < m->nsms; i++)
        gdu_free_one(&m->sm[i].gdu);
    for (unsigned p = 0; m->part && p < m->nparts; p++)
        gdu_free_one(&m->part[p].gdu);
    free(m->own_env);
    m->own_env = NULL;
    free(m->gdu_why);
    m->gdu_why = NULL;
}

uint32_t mem_gdu_trig(const struct mem_gdu *g, uint32_t pc, uint8_t need)
{
    if (g->kind != CFG_LAMAR_GDU_SPP || !need)
        return 0;
    uint64_t x = ((uint64_t)pc << 3 | (unsigned)__builtin_ctz(need)) * 0x9e3779b97f4a7c15ull;
    return (uint32_t)((x >> 32) % g->npht) + 1u;      /* 0: no entry */
}

/* Records line address a in g's set of lines seen (queried or evicted).
 * Returns 1 when a is new, 0 when it was there, -1 when out of memory. */
static int gdu_seen_add(struct mem_gdu *g, uint64_t a)
{
    if (2 * (g->nseen + 1) > g->seen_cap) {            /* keep the load under 1/2 */
        size_t cap = g->seen_cap ? 2 * g->seen_cap : 1024;
        uint64_t *t = calloc(cap, sizeof *t);
        if (!t)
            return -1;
        for (size_t i = 0; i < g->seen_cap; i++) {
            uint64_t k = g->seen[i];
            if (!k)
                continue;
            size_t j = (size_t)((k * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
            while (t[j])
                j = (j + 1) & (cap - 1);
            t[j] = k;
        }
        free(g->seen);
        g->seen = t;
        g->seen_cap = cap;
    }
    uint64_t k = a + 1;
    size_t j = (size_t)((k * 0x9e3779b97f4a7c15ull) >> 20) & (g->seen_cap - 1);
    while (g->seen[j]) {
        if (g->seen[j] == k)
            return 0;
        j = (j + 1) & (g->seen_cap - 1);
    }
    g->seen[j] = k;
    g->nseen++;
    return 1;
}

/* Learning statistics after an eviction reached g: closed says whether it
 * closed a skew window. */
static void gdu_learn(struct mem_gdu *g, ls_cache_stats *st, bool closed)
{
    if (!g->active) {
        g->active = 1;
        st->gdu_units++;
    }
    if (closed) {
        st->gdu_windows++;
        if (++g->windows == 1)
            st->gdu_units_windowed++;
    }
}

/* The BGP block: clocked on the GPU's cycles since t0, one transaction per
 * edge; transactions of one cycle take consecutive edges (the block's edge
 * count runs ahead of the GPU cycle, and later idle gaps shrink by as much). */
static unsigned gdu_bgp(struct mem_sys *m, struct mem_gdu *g, ls_cache_stats *st, uint64_t now,
                        int q, uint64_t qaddr, const struct mem_line *ev, unsigned used)
{
    struct cosim_inst *b = g->blk;
    char where[160] = "";
    if (b->backend != COSIM_BE_C)
        snprintf(where, sizeof where, "kernel %s, GPU cycle %llu, %s%s%s",
                 m->kernel ? m->kernel : "?", (unsigned long long)now,
                 q ? "miss query" : "", q && ev ? " and " : "", ev ? "eviction" : "");
    uint64_t at = now >= g->t0 ? now - g->t0 : 0;
    int bad = 0;
    if (b->edge < at)
        bad = cosim_idle(b, at - b->edge, where);
    struct bgp_in in;
    struct bgp_out o;
    memset(&in, 0, sizeof in);
    in.q_valid_i[0] = (uint32_t)(q != 0);
    in.q_addr_i[0] = (uint32_t)qaddr;
    if (ev) {
        in.e_valid_i[0] = 1;
        in.e_addr_i[0] = (uint32_t)ev->addr;
        in.e_used_i[0] = used > 7 ? 7 : used;      /* a 3-bit port */
    }
    if (!bad)
        bad = cosim_step(b, &in, &o, where);
    if (bad) {
        if (!m->gdu_why)
            m->gdu_why = strdup(b->report ? b->report : "BGP mismatch");
        return 0;
    }
    if (ev) {
        st->gdu_insertions += o.e_ins_o[0];
        st->gdu_inversions += o.inv_o[0];
        /* a refresh: an insertion that brought an array's count back to 0
         * (an inversion clears both arrays: counted as the inversion) */
        if (o.e_ins_o[0] && !o.inv_o[0])
            st->gdu_refreshes += (o.cnt0_o[0] == 0) + (!g->idle1 && o.cnt1_o[0] == 0);
        gdu_learn(g, st, o.win_ev_o[0] == 0);
    }
    g->idle1 = (uint8_t)o.idle1_o[0];
    return o.q_fg_o[0];
}

uint8_t mem_gdu_step(struct mem_sys *m, struct mem_gdu *g, ls_cache_stats *st, uint64_t now,
                     int q, uint64_t qaddr, uint32_t qtrig, const struct mem_line *ev)
{
    unsigned used = ev ? mem_popcount8(ev->used) : 0;
    uint8_t extra = 0;
    unsigned fg = 0;
    switch (g->kind) {
    case CFG_LAMAR_GDU_CG_ONLY:
        extra = g->all;
        break;
    case CFG_LAMAR_GDU_FG_ONLY:
        fg = 1;
        break;
    case CFG_LAMAR_GDU_STATIC:
        fg = g->static_fg;
        extra = fg ? 0 : g->all;
        break;
    case CFG_LAMAR_GDU_SPP:
        if (q) {
            uint16_t e = qtrig ? g->pht[qtrig - 1] : 0;
            extra = e ? (uint8_t)(e & g->all) : g->all;   /* no history: CG */
            fg = extra != g->all;
        }
        if (ev && ev->trig)        /* lines a write allocated have no entry */
            g->pht[ev->trig - 1] = (uint16_t)(0x100u | ev->used);
        break;
    case CFG_LAMAR_GDU_BGP:
        fg = gdu_bgp(m, g, st, now, q, qaddr, ev, used);
        extra = fg ? 0 : g->all;
        break;
    default: {                                           /* CFG_LAMAR_GDU_BGP_INF */
        struct bgp_ref *r = g->ref;
        if (q)
            fg = bgp_ref_query(r, (uint32_t)qaddr);
        extra = fg ? 0 : g->all;
        if (ev) {
            unsigned d = r->dflt;
            st->gdu_insertions += (used < r->cfg.TH_FG) != d;
            if (bgp_ref_evict(r, (uint32_t)ev->addr, used) != 0)
                m->failed = true;
            st->gdu_inversions += r->dflt != d;
            gdu_learn(g, st, r->win_ev == 0);
        }
        break;
    }
    }
    int first = q ? gdu_seen_add(g, qaddr) : 0;
    if (ev && gdu_seen_add(g, ev->addr) < 0)
        first = -1;
    if (first < 0)
        m->failed = true;
    if (!q)
        return 0;
    st->gdu_queries++;
    st->gdu_fg += fg;
    if (first > 0) {
        st->gdu_first++;
        st->gdu_first_fg += fg;
    }
    unsigned b = g->windows ? 1u + (unsigned)(63 - __builtin_clzll(g->windows)) : 0;
    b = b > 8 ? 8 : b;
    st->gdu_q_win[b]++;
    st->gdu_fg_win[b] += fg;
    return extra;
}

/* Every GDU of m, L1Ds first. */
static struct mem_gdu *gdu_at(struct mem_sys *m, unsigned i)
{
    return i < m->nsms ? &m->sm[i].gdu : &m->part[i - m->nsms].gdu;
}

void mem_kernel_begin(struct mem_sys *m, const char *kernel, unsigned entry, uint64_t now)
{
    m->kernel = kernel;
    uint8_t fg = (uint8_t)(entry < 63 && (m->c.lamar_static_fg >> entry & 1));
    for (unsigned i = 0; i < m->nsms + m->nparts; i++) {
        struct mem_gdu *g = gdu_at(m, i);
        g->static_fg = fg;
        if (!g->started) {
            g->started = 1;
            g->t0 = now;
        }
        if (g->blk)
            g->base = g->blk->st;
    }
}

int mem_gdu_finish(struct mem_sys *m, uint64_t end)
{
    /* the kernel-end invalidation of the L1Ds ends the lives of their idle
     * lines: each goes to its GDU as an eviction (mem_kernel_end drops it) */
    uint64_t last = end ? end - 1 : 0;
    for (unsigned i = 0; i < m->nsms; i++) {
        struct mem_sm *s = &m->sm[i];
        if (s->gdu.kind == CFG_LAMAR_GDU_CG_ONLY || s->gdu.kind == CFG_LAMAR_GDU_FG_ONLY ||
            s->gdu.kind == CFG_LAMAR_GDU_STATIC)
            continue;                 /* constant answers: nothing to learn */
        if (m->c.l1d_kernel_flush == CFG_L1D_KERNEL_FLUSH_OFF)
            break;                    /* the lines live on into the next kernel */
        for (size_t j = 0; j < (size_t)s->l1.sets * s->l1.assoc && !m->gdu_why; j++) {
            const struct mem_line *l = &s->l1.lines[j];
            if (l->present && l->mshr == MEM_NONE)
                mem_gdu_step(m, &s->gdu, &s->l1.st, last, 0, 0, 0, l);
        }
    }
    for (unsigned i = 0; !m->gdu_why && i < m->nsms + m->nparts; i++) {
        struct mem_gdu *g = gdu_at(m, i);
        struct cosim_inst *b = g->blk;
        uint64_t at = end > g->t0 ? end - g->t0 : 0;
        if (!b || b->edge >= at)
            continue;
        char where[128] = "";
        if (b->backend != COSIM_BE_C)
            snprintf(where, sizeof where, "kernel %s, end of kernel (GPU cycle %llu), idle",
                     m->kernel ? m->kernel : "?", (unsigned long long)end);
        if (cosim_idle(b, at - b->edge, where))
            m->gdu_why = strdup(b->report ? b->report : "BGP mismatch");
    }
    return m->gdu_why ? -1 : 0;
}

const char *mem_gdu_error(const struct mem_sys *m)
{
    return m->gdu_why;
}

void mem_gdu_cosim(const struct mem_sys *m, ls_cosim_stats *c)
{
    for (unsigned i = 0; i < m->nsms + m->nparts; i++) {
        const struct mem_gdu *g = gdu_at((struct mem_sys *)m, i);
        if (!g->blk)
            continue;
        const ls_cosim_stats *b = &g->blk->st;
        c->instances++;
        c->cycles += b->cycles - g->base.cycles;
        c->idle_skipped += b->idle_skipped - g->base.idle_skipped;
        c->transactions += b->transactions - g->base.transactions;
        c->mismatches += b->mismatches - g->base.mismatches;
        c->backend = b->backend;
    }
}
