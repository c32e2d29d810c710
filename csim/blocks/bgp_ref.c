/* Comparison predictors for the BGP; see bgp_ref.h. */
#include "blocks/bgp_ref.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint32_t a)
{
    uint64_t x = (uint64_t)a * 0x9e3779b97f4a7c15ull;
    return x ^ (x >> 29);
}

int bgp_ref_init(struct bgp_ref *r, enum bgp_ref_kind kind,
                 const struct bgp_cfg *cfg)
{
    struct bgp_state probe;
    if (!r || !cfg || bgp_init(&probe, cfg) != 0)
        return -1;
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->cfg = *cfg;
    if (kind == BGP_REF_INF) {
        r->set_cap = 1024;
        r->set = calloc(r->set_cap, sizeof *r->set);
        if (!r->set)
            return -1;
    }
    return 0;
}

/* Slots hold addr + 1 (0 = empty). Address 0xffffffff would alias the
 * empty key, so it is folded onto 0xfffffffe (documented alias). */
static uint32_t set_key(uint32_t addr)
{
    return addr == 0xffffffffu ? 0xffffffffu : addr + 1u;
}

static uint64_t find_slot(const struct bgp_ref *r, uint32_t key)
{
    uint64_t i = mix(key) & (r->set_cap - 1);
    while (r->set[i] && r->set[i] != key)
        i = (i + 1) & (r->set_cap - 1);
    return i;
}

static int set_insert(struct bgp_ref *r, uint32_t addr);

static int set_grow(struct bgp_ref *r)
{
    uint32_t *old = r->set;
    uint64_t oldcap = r->set_cap;
    uint32_t *n = calloc(oldcap * 2, sizeof *n);
    if (!n)
        return -1;
    r->set = n;
    r->set_cap = oldcap * 2;
    r->set_len = 0;
    for (uint64_t i = 0; i < oldcap; i++)
        if (old[i])
            (void)set_insert(r, old[i] - 1u); /* key - 1 = addr */
    free(old);
    return 0;
}

static int set_insert(struct bgp_ref *r, uint32_t addr)
{
    if ((r->set_len + 1) * 2 > r->set_cap && set_grow(r) != 0)
        return -1;
    uint32_t key = set_key(addr);
    uint64_t i = find_slot(r, key);
    if (!r->set[i]) {
        r->set[i] = key;
        r->set_len++;
    }
    return 0;
}

static int set_has(const struct bgp_ref *r, uint32_t addr)
{
    return r->set[find_slot(r, set_key(addr))] != 0;
}

unsigned bgp_ref_query(struct bgp_ref *r, uint32_t addr)
{
    unsigned fg = 0;
    switch (r->kind) {
    case BGP_REF_CG_ONLY: fg = 0; break;
    case BGP_REF_FG_ONLY: fg = 1; break;
    case BGP_REF_INF:
        fg = r->dflt ^ (unsigned)set_has(r, addr);
        break;
    case BGP_REF_SPP: {
        uint8_t e = r->pht[mix(addr) % BGP_REF_SPP_ENTRIES];
        fg = e != 0 && (unsigned)(e - 1) < r->cfg.TH_FG;
        break;
    }
    }
    r->queries++;
    r->pred_fg += fg;
    return fg;
}

int bgp_ref_evict(struct bgp_ref *r, uint32_t addr, unsigned used)
{
    unsigned fg = used < r->cfg.TH_FG;
    if (r->kind == BGP_REF_SPP) {
        r->pht[mix(addr) % BGP_REF_SPP_ENTRIES] = (uint8_t)(used + 1u);
        return 0;
    }
    if (r->kind != BGP_REF_INF)
        return 0;
    unsigned ins = fg != r->dflt;
    if (ins && set_insert(r, addr) != 0)
        return -1;
    r->win_ev++;
    r->win_ins += ins;
    if (r->win_ev == r->cfg.NUM_EVICT) {
        if ((uint64_t)r->win_ins * 100u >
            (uint64_t)r->cfg.SKEW_PCT * r->cfg.NUM_EVICT) {
            r->dflt ^= 1u;
            memset(r->set, 0, r->set_cap * sizeof *r->set);
            r->set_len = 0;
        }
        r->win_ev = r->win_ins = 0;
    }
    return 0;
}

void bgp_ref_free(struct bgp_ref *r)
{
    free(r->set);
    r->set = NULL;
}
