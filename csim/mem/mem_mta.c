/* MTA prefetcher tables (mem_mta.h; docs/dac.md "Comparison points"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/mem_mta.h"

#define MTA_CONF_MAX 3u

int mem_mta_init(struct mem_mta *t, const struct cfg *c, unsigned line, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->npws = (unsigned)c->mta_pws_entries;
    t->ngs = (unsigned)c->mta_gs_entries;
    t->nip = (unsigned)c->mta_ip_entries;
    t->pws = calloc(t->npws, sizeof *t->pws);
    t->gs = calloc(t->ngs, sizeof *t->gs);
    t->ip = calloc(t->nip, sizeof *t->ip);
    if (!t->pws || !t->gs || !t->ip) {
        mem_mta_free(t);
        snprintf(err, errlen, "out of memory for the MTA tables [%s:%d]", __FILE__, __LINE__);
        return -1;
    }
    t->line = line;
    t->train = (unsigned)c->mta_train;
    t->promote = (unsigned)c->mta_promote;
    t->distance = (unsigned)c->mta_distance;
    t->ip_distance = (unsigned)c->mta_ip_distance;
    t->max_lines = (unsigned)c->mta_max_lines;
    t->degree = t->max_degree = (unsigned)c->mta_degree;
    t->throttle = c->mta_throttle == CFG_MTA_THROTTLE_ON;
    t->evict_hi = (unsigned)c->mta_evict_hi_pct;
    t->evict_lo = (unsigned)c->mta_evict_lo_pct;
    t->merge_hi = (unsigned)c->mta_merge_hi_pct;
    t->min_sample = (unsigned)c->mta_min_sample;
    t->period = (uint64_t)c->mta_period;
    t->next_period = t->period;
    if (c->mta_cache_kb > 0 && line > 0) {
        t->pfc_ways = (unsigned)c->mta_cache_ways;
        t->pfc_sets = (unsigned)((uint64_t)c->mta_cache_kb * 1024 / line / t->pfc_ways);
        if (t->pfc_sets == 0)
            t->pfc_sets = 1;
        t->pfc = calloc((size_t)t->pfc_sets * t->pfc_ways, sizeof *t->pfc);
        if (!t->pfc) {
            mem_mta_free(t);
            snprintf(err, errlen, "out of memory for the MTA prefetch cache [%s:%d]",
                     __FILE__, __LINE__);
            return -1;
        }
    }
    return 0;
}

void mem_mta_free(struct mem_mta *t)
{
    free(t->pws);
    free(t->gs);
    free(t->ip);
    free(t->pfc);
    memset(t, 0, sizeof *t);
}

/* ---- the prefetch cache ------------------------------------------------- */

static struct mem_mta_pfl *pfc_set(struct mem_mta *t, uint64_t line_addr)
{
    uint64_t set = line_addr / t->line % t->pfc_sets;
    return &t->pfc[set * t->pfc_ways];
}

struct mem_mta_pfl *mem_mta_pfc_find(struct mem_mta *t, uint64_t line_addr)
{
    struct mem_mta_pfl *w = pfc_set(t, line_addr);
    for (unsigned i = 0; i < t->pfc_ways; i++)
        if (w[i].valid && w[i].addr == line_addr) {
            w[i].lru = ++t->clock;
            return &w[i];
        }
    return NULL;
}

struct mem_mta_pfl *mem_mta_pfc_alloc(struct mem_mta *t, uint64_t line_addr, int32_t msi)
{
    struct mem_mta_pfl *w = pfc_set(t, line_addr), *v = NULL;
    for (unsigned i = 0; i < t->pfc_ways; i++) {
        if (w[i].valid && w[i].msi >= 0)
            continue;                     /* in flight: not a victim */
        if (!v || (v->valid && (!w[i].valid || w[i].lru < v->lru)))
            v = &w[i];
    }
    if (!v)
        return NULL;
    if (v->valid && !v->used)
        mem_mta_unused(t, 1);
    *v = (struct mem_mta_pfl){.addr = line_addr, .lru = ++t->clock, .msi = msi, .valid = 1};
    return v;
}

void mem_mta_pfc_use(struct mem_mta *t, struct mem_mta_pfl *l)
{
    if (!l->used)
        mem_mta_useful(t, l->msi >= 0);
    l->used = 1;
}

void mem_mta_pfc_arrived(struct mem_mta *t, int32_t msi)
{
    for (size_t i = 0; i < (size_t)t->pfc_sets * t->pfc_ways; i++)
        if (t->pfc[i].valid && t->pfc[i].msi == msi) {
            t->pfc[i].msi = -1;
            return;
        }
}

void mem_mta_pfc_flush(struct mem_mta *t)
{
    for (size_t i = 0; i < (size_t)t->pfc_sets * t->pfc_ways; i++) {
        if (t->pfc[i].valid && !t->pfc[i].used)
            mem_mta_unused(t, 1);
        t->pfc[i].valid = 0;
    }
}

/* The PWS entry of (pc, warp), or a victim (invalid first, else LRU)
 * re-tagged for it with no history; *hit says which. */
static struct mem_mta_pws *pws_get(struct mem_mta *t, uint32_t pc, uint16_t warp, bool *hit)
{
    struct mem_mta_pws *v = NULL;
    for (unsigned i = 0; i < t->npws; i++) {
        struct mem_mta_pws *e = &t->pws[i];
        if (e->valid && e->pc == pc && e->warp == warp) {
            *hit = true;
            return e;
        }
        if (!v || (v->valid && (!e->valid || e->lru < v->lru)))
            v = e;
    }
    *hit = false;
    *v = (struct mem_mta_pws){.pc = pc, .warp = warp, .valid = 1};
    return v;
}

static struct mem_mta_gs *gs_find(struct mem_mta *t, uint32_t pc)
{
    for (unsigned i = 0; i < t->ngs; i++)
        if (t->gs[i].valid && t->gs[i].pc == pc)
            return &t->gs[i];
    return NULL;
}

static struct mem_mta_gs *gs_victim(struct mem_mta *t)
{
    struct mem_mta_gs *v = &t->gs[0];
    for (unsigned i = 0; i < t->ngs; i++) {
        if (!t->gs[i].valid)
            return &t->gs[i];
        if (t->gs[i].lru < v->lru)
            v = &t->gs[i];
    }
    return v;
}

static struct mem_mta_ip *ip_get(struct mem_mta *t, uint32_t pc, bool *hit)
{
    struct mem_mta_ip *v = NULL;
    for (unsigned i = 0; i < t->nip; i++) {
        struct mem_mta_ip *e = &t->ip[i];
        if (e->valid && e->pc == pc) {
            *hit = true;
            return e;
        }
        if (!v || (v->valid && (!e->valid || e->lru < v->lru)))
            v = e;
    }
    *hit = false;
    *v = (struct mem_mta_ip){.pc = pc, .valid = 1};
    return v;
}

/* Stride promotion: when promote trained PWS entries of pc agree on
 * stride, it goes to the GS table; a trained warp that disagrees with a
 * promoted stride demotes it. */
static void promote(struct mem_mta *t, uint32_t pc, int64_t stride)
{
    struct mem_mta_gs *g = gs_find(t, pc);
    if (g) {
        if (g->stride != stride)
            g->valid = 0;
        return;
    }
    unsigned agree = 0;
    for (unsigned i = 0; i < t->npws; i++) {
        const struct mem_mta_pws *e = &t->pws[i];
        agree += e->valid && e->pc == pc && e->conf >= t->train && e->stride == stride;
    }
    if (agree < t->promote || !t->ngs)
        return;
    g = gs_victim(t);
    *g = (struct mem_mta_gs){.pc = pc, .stride = stride, .valid = 1, .lru = ++t->clock};
}

/* Appends the nlines lines from base (one instruction's footprint moved by
 * a predicted stride) to out, skipping lines of the instruction itself
 * [self, self + span) and ones already in out. */
static unsigned add_lines(const struct mem_mta *t, uint64_t base, unsigned nlines, uint64_t self,
                          uint64_t span, uint8_t src, struct mem_mta_cand *out, unsigned n,
                          unsigned cap)
{
    for (unsigned k = 0; k < nlines && n < cap; k++) {
        uint64_t l = base + (uint64_t)k * t->line;
        if (l >= self && l < self + span)
            continue;
        bool dup = false;
        for (unsigned j = 0; j < n && !dup; j++)
            dup = out[j].line == l;
        if (!dup)
            out[n++] = (struct mem_mta_cand){.line = l, .src = src};
    }
    return n;
}

unsigned mem_mta_train(struct mem_mta *t, uint32_t pc, uint16_t warp, uint64_t line_addr,
                       unsigned nlines, uint64_t now, struct mem_mta_cand *out, unsigned cap)
{
    if (!t->npws)
        return 0;
    if (t->period && now >= t->next_period) {   /* an idle stretch is one period */
        mem_mta_throttle(t);
        t->next_period = now - now % t->period + t->period;
    }
    t->st.trained++;
    if (nlines > t->max_lines)
        nlines = t->max_lines;
    if (!nlines)
        nlines = 1;
    /* per-warp stride */
    bool hit;
    struct mem_mta_pws *p = pws_get(t, pc, warp, &hit);
    p->lru = ++t->clock;
    if (hit) {
        int64_t d = (int64_t)(line_addr - p->last);
        if (d != 0 && d == p->stride) {
            if (p->conf < MTA_CONF_MAX)
                p->conf++;
        } else if (d != 0) {
            p->stride = d;
            p->conf = 0;
        }
        if (d != 0 && p->conf >= t->train)
            promote(t, pc, p->stride);
    }
    p->last = line_addr;
    /* inter-thread: stride across warps of this pc */
    struct mem_mta_ip *ip = t->nip ? ip_get(t, pc, &hit) : NULL;
    if (ip) {
        ip->lru = ++t->clock;
        if (hit && ip->warp != warp) {
            int64_t dw = (int64_t)warp - (int64_t)ip->warp;
            int64_t da = (int64_t)(line_addr - ip->last);
            int64_t s = da % dw == 0 ? da / dw : 0;
            if (s != 0 && s == ip->stride) {
                if (ip->conf < MTA_CONF_MAX)
                    ip->conf++;
            } else {
                ip->stride = s;
                ip->conf = 0;
            }
        }
        ip->last = line_addr;
        ip->warp = warp;
    }
    if (!t->degree)
        return 0;
    /* prediction: promoted stride, else the warp's own, else inter-warp */
    int64_t stride = 0;
    unsigned dist = t->distance;
    uint8_t src;
    struct mem_mta_gs *g = gs_find(t, pc);
    if (g) {
        g->lru = ++t->clock;
        stride = g->stride;
        src = MEM_MTA_GS;
    } else if (p->conf >= t->train && p->stride) {
        stride = p->stride;
        src = MEM_MTA_PWS;
    } else if (ip && ip->conf >= t->train && ip->stride) {
        stride = ip->stride;
        dist = t->ip_distance;
        src = MEM_MTA_IP;
    } else {
        return 0;
    }
    unsigned n = 0;
    uint64_t span = (uint64_t)nlines * t->line;
    for (unsigned j = 0; j < t->degree; j++) {
        uint64_t base = line_addr + (uint64_t)(stride * (int64_t)(dist + j));
        n = add_lines(t, base, nlines, line_addr, span, src, out, n, cap);
    }
    t->st.candidates += n;
    return n;
}

void mem_mta_issued(struct mem_mta *t, unsigned src)
{
    t->st.issued++;
    if (src < MEM_MTA_NSRC)
        t->st.issued_by[src]++;
    t->p_issued++;
}

void mem_mta_useful(struct mem_mta *t, bool late)
{
    t->st.useful++;
    if (late) {
        t->st.late++;
        t->p_late++;
    }
}

void mem_mta_unused(struct mem_mta *t, uint64_t n)
{
    t->st.unused += n;
    t->p_unused += n;
}

void mem_mta_throttle(struct mem_mta *t)
{
    unsigned before = t->degree;
    if (t->throttle) {
        if (t->p_issued < t->min_sample) {
            if (t->degree == 0)   /* off: probe again at degree 1 */
                t->degree = 1;
        } else {
            uint64_t ev = t->p_unused * 100, mg = t->p_late * 100;
            if (ev > (uint64_t)t->evict_hi * t->p_issued || mg > (uint64_t)t->merge_hi * t->p_issued) {
                if (t->degree > 0)
                    t->degree--;
            } else if (ev < (uint64_t)t->evict_lo * t->p_issued && t->degree < t->max_degree) {
                t->degree++;
            }
        }
    }
    t->st.throttle_down += t->degree < before;
    t->st.throttle_up += t->degree > before;
    t->st.periods++;
    t->st.degree_sum += t->degree;
    t->p_issued = t->p_unused = t->p_late = 0;
}
