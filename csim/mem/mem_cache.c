/* The sectored tag array used by the L1D and the L2 slices (LRU, per-sector
 * valid/used/dirty bits, used-sector histogram at eviction) and the event
 * heap of the memory hierarchy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/mem_int.h"

unsigned mem_popcount8(uint8_t m)
{
    unsigned n = 0;
    for (; m; m &= (uint8_t)(m - 1))
        n++;
    return n;
}

int mem_cache_init(struct mem_cache *c, uint64_t size, unsigned assoc, unsigned line,
                   unsigned sector, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->assoc = assoc;
    c->line = line;
    c->sector = sector;
    c->nsec = sector ? line / sector : 0;
    if (c->nsec == 0 || c->nsec > LS_MAX_SECTORS) {
        snprintf(err, errlen, "%u-byte lines of %u-byte sectors: 1..%d sectors per line supported [%s:%d]",
                 line, sector, LS_MAX_SECTORS, __FILE__, __LINE__);
        return -1;
    }
    if (size == 0)
        return 0;
    if (assoc == 0 || size % ((uint64_t)assoc * line) != 0) {
        snprintf(err, errlen, "cache size %llu is not a multiple of ways * line [%s:%d]",
                 (unsigned long long)size, __FILE__, __LINE__);
        return -1;
    }
    c->sets = (unsigned)(size / ((uint64_t)assoc * line));
    c->lines = calloc((size_t)c->sets * assoc, sizeof *c->lines);
    if (!c->lines) {
        snprintf(err, errlen, "out of memory for the tag array [%s:%d]",
                 __FILE__, __LINE__);
        return -1;
    }
    for (size_t i = 0; i < (size_t)c->sets * assoc; i++)
        c->lines[i].mshr = MEM_NONE;
    return 0;
}

void mem_cache_free(struct mem_cache *c)
{
    free(c->lines);
    c->lines = NULL;
}

struct mem_line *mem_cache_find(struct mem_cache *c, unsigned set, uint64_t addr)
{
    struct mem_line *w = c->lines + (size_t)set * c->assoc;
    for (unsigned i = 0; i < c->assoc; i++)
        if (w[i].present && w[i].addr == addr)
            return &w[i];
    return NULL;
}

/* The LRU line of set that is allocated, not pending and (deprio) was
 * allocated without a PCA token; an unlocked one before any locked one
 * (DAC: a locked line goes only when every candidate is locked, and its
 * eviction counts as a broken lock, mem_cache_evict; never with
 * keep_locked). A free way first. */
static struct mem_line *victim(struct mem_cache *c, unsigned set, bool deprio)
{
    struct mem_line *w = c->lines + (size_t)set * c->assoc, *best = NULL, *locked = NULL;
    for (unsigned i = 0; i < c->assoc; i++) {
        if (!w[i].present)
            return &w[i];
        if (w[i].mshr != MEM_NONE || (deprio && !w[i].deprio))
            continue;
        if (w[i].locks) {
            if (!locked || w[i].lru < locked->lru)
                locked = &w[i];
        } else if (!best || w[i].lru < best->lru) {
            best = &w[i];
        }
    }
    return best ? best : c->keep_locked ? NULL : locked;
}

struct mem_line *mem_cache_victim(struct mem_cache *c, unsigned set)
{
    return victim(c, set, false);
}

struct mem_line *mem_cache_victim_deprio(struct mem_cache *c, unsigned set)
{
    return victim(c, set, true);
}

bool mem_cache_lock_blocked(const struct mem_cache *c, unsigned set)
{
    const struct mem_line *w = c->lines + (size_t)set * c->assoc;
    for (unsigned i = 0; i < c->assoc; i++)
        if (!w[i].present || w[i].mshr != MEM_NONE || !w[i].locks)
            return false;
    return c->keep_locked;
}

void mem_cache_touch(struct mem_cache *c, struct mem_line *l)
{
    l->lru = ++c->clock;
}

void mem_cache_gdu_answer(struct mem_line *l, uint8_t extra, uint8_t all)
{
    l->gans = (uint8_t)((extra & all) == all ? MEM_GANS_CG : MEM_GANS_FG);
}

/* The end of l's life: the statistics that judge its GDU answer. */
static void line_end(struct mem_cache *c, const struct mem_line *l)
{
    bool multi = mem_popcount8(l->used) >= c->th_fg;
    if (l->gans == MEM_GANS_FG) {
        c->st.gdu_fg_ended++;
        c->st.gdu_fg_wrong += multi;
    } else if (l->gans == MEM_GANS_CG) {
        c->st.gdu_cg_ended++;
        c->st.gdu_cg_wrong += !multi;
        if (multi)
            c->st.gdu_cg_right_nref += mem_popcount8(l->pnr);
    }
}

void mem_cache_evict(struct mem_cache *c, struct mem_line *l)
{
    if (!l->present)
        return;
    c->st.evictions++;
    c->st.locks_broken += l->locks != 0;
    l->locks = 0;
    c->st.used_sectors_hist[mem_popcount8(l->used)]++;
    line_end(c, l);
    c->st.reuse_hits += l->reuse;
    c->st.pred_nref += mem_popcount8(l->pnr);
    c->pf_unused += l->pf;
    l->pf = 0;
    l->present = 0;
    l->valid = l->used = l->dirty = 0;
    l->fdem = l->fnpr = l->fprd = l->pnr = 0;
}

void mem_cache_fill_line(struct mem_cache *c, struct mem_line *l, uint64_t addr)
{
    mem_cache_evict(c, l);
    l->present = 1;
    l->reuse = 0;
    l->addr = addr;
    l->valid = l->used = l->dirty = 0;
    l->fdem = l->fnpr = l->fprd = l->pnr = 0;
    l->gans = MEM_GANS_NONE;
    l->deprio = 0;
    l->pf = 0;
    l->trig = 0;
    l->mshr = MEM_NONE;
    mem_cache_touch(c, l);
}

void mem_cache_fill_sectors(struct mem_cache *c, struct mem_line *l, uint8_t mask)
{
    uint8_t fresh = (uint8_t)(mask & ~l->valid);
    uint8_t p = (uint8_t)(fresh & l->fprd);
    c->st.sector_fills += mem_popcount8(fresh);
    c->st.demand += mem_popcount8((uint8_t)(fresh & l->fdem));
    c->st.npred_ref += mem_popcount8((uint8_t)(fresh & l->fnpr));
    c->st.pred_ref += mem_popcount8((uint8_t)(p & l->used));
    l->pnr |= (uint8_t)(p & ~l->used);
    l->fdem &= (uint8_t)~mask;
    l->fnpr &= (uint8_t)~mask;
    l->fprd &= (uint8_t)~mask;
    l->valid |= mask;
}

void mem_cache_ref(struct mem_cache *c, struct mem_line *l, uint8_t need)
{
    c->st.pred_ref += mem_popcount8((uint8_t)(l->pnr & need));
    l->pnr &= (uint8_t)~need;
    l->used |= need;
}

void mem_cache_sweep(struct mem_cache *c)
{
    for (size_t i = 0; i < (size_t)c->sets * c->assoc; i++) {
        struct mem_line *l = &c->lines[i];
        if (!l->present || l->mshr != MEM_NONE)
            continue;
        c->st.used_sectors_hist[mem_popcount8(l->used)]++;
        line_end(c, l);
        c->st.reuse_hits += l->reuse;
        c->st.pred_nref += mem_popcount8(l->pnr);
        c->pf_unused += l->pf;
        l->pf = 0;
        l->locks = 0;   /* a kernel ends with every record dequeued */
        l->present = 0;
        l->valid = l->used = l->dirty = 0;
        l->fdem = l->fnpr = l->fprd = l->pnr = 0;
    }
}

void mem_cache_unlock(struct mem_cache *c)
{
    for (size_t i = 0; i < (size_t)c->sets * c->assoc; i++)
        c->lines[i].locks = 0;  /* a kernel ends with every record dequeued */
}

static bool ev_before(const struct mem_ev *x, const struct mem_ev *y)
{
    return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

bool mem_heap_push(struct mem_heap *h, const struct mem_ev *e)
{
    if (h->n == h->cap) {
        size_t nc = h->cap ? h->cap * 2 : 256;
        struct mem_ev *nv = realloc(h->v, nc * sizeof *nv);
        if (!nv)
            return false;
        h->v = nv;
        h->cap = nc;
    }
    size_t i = h->n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!ev_before(e, &h->v[p]))
            break;
        h->v[i] = h->v[p];
        i = p;
    }
    h->v[i] = *e;
    return true;
}

bool mem_heap_pop(struct mem_heap *h, struct mem_ev *e)
{
    if (h->n == 0)
        return false;
    *e = h->v[0];
    struct mem_ev last = h->v[--h->n];
    size_t i = 0, n = h->n;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, s = i;
        const struct mem_ev *sv = &last;
        if (l < n && ev_before(&h->v[l], sv)) { s = l; sv = &h->v[l]; }
        if (r < n && ev_before(&h->v[r], sv)) { s = r; }
        if (s == i)
            break;
        h->v[i] = h->v[s];
        i = s;
    }
    if (n)
        h->v[i] = last;
    return true;
}
