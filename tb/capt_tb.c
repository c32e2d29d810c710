/* CAPT stimulus hooks for the generic lockstep driver (tb/README.md):
 * constrained-random lookups/updates over a PC pool whose size moves around
 * ENTRIES (empty, full and thrashing table), near-miss PCs (one bit flipped)
 * for the tag comparators, idle stretches, back-to-back bursts, updates
 * that carry the (PC, index) of a recent lookup (whose entry may have been
 * replaced or flushed since), updates with a wrong index, same-cycle
 * lookup+update collisions and rare flushes; plus the Fig 4.8 CAPRI
 * sequence, the stale-update case and replacement-order/flush directed
 * cases for both replacement policies. */
#include <stdio.h>
#include <string.h>

#include "blocks/capt.h"
#include "lockstep.h"

/* Hook prototypes (called by tb/tb_main.c). */
int capt_tb_param(struct capt_cfg *cfg, const char *name, long value);
void capt_tb_dims(const struct capt_cfg *cfg, const char *name,
                  unsigned *bits, unsigned *count);
void capt_tb_stim(struct tb_rng *r, const struct capt_cfg *cfg,
                  const struct capt_out *prev, struct capt_in *in);
int capt_tb_directed(struct ls_ctx *ls, const struct capt_cfg *cfg);

int capt_tb_param(struct capt_cfg *cfg, const char *name, long value)
{
    if (!strcmp(name, "ENTRIES"))
        cfg->ENTRIES = (unsigned)value;
    else if (!strcmp(name, "TAG_W"))
        cfg->TAG_W = (unsigned)value;
    else if (!strcmp(name, "HIST"))
        cfg->HIST = (unsigned)value;
    else if (!strcmp(name, "LRU"))
        cfg->LRU = (unsigned)value;
    else
        return -1;
    return 0;
}

void capt_tb_dims(const struct capt_cfg *cfg, const char *name,
                  unsigned *bits, unsigned *count)
{
    (void)count;
    if (!strcmp(name, "lookup_pc_i") || !strcmp(name, "update_pc_i"))
        *bits = cfg->TAG_W;
    else if (!strcmp(name, "pred_idx_o") || !strcmp(name, "update_idx_i"))
        *bits = capt_idx_bits(cfg);
}

static uint32_t tmask(const struct capt_cfg *cfg)
{
    return cfg->TAG_W >= 32 ? 0xFFFFFFFFu : (1u << cfg->TAG_W) - 1;
}

/* PC number k of the pool of this phase (pseudo-random, full width). */
static uint32_t pool_pc(uint64_t salt, uint64_t k)
{
    uint64_t x = (k + 1) * 0x9E3779B97F4A7C15ull ^ salt;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return (uint32_t)x;
}

static uint32_t pick_pc(struct tb_rng *r, const struct capt_cfg *cfg)
{
    uint64_t n = r->user[1];
    uint32_t pc = pool_pc(r->user[3], tb_below(r, n));
    if (tb_chance(r, 1, 16)) /* near miss: one tag bit flipped */
        pc ^= 1u << tb_below(r, cfg->TAG_W);
    return pc & tmask(cfg);
}

/* One recorded lookup answer: PC in the low 32 bits, pred_idx_o above. */
static uint64_t rec(uint32_t pc, uint32_t idx)
{
    return (uint64_t)pc | (uint64_t)idx << 32;
}

/* user[0]: cycles left in the phase, user[1]: pool size, user[2]: activity
 * percent, user[3]: pool salt, user[4]: PC of the lookup applied in the
 * previous cycle (bit 63: there was one), user[5..7]: the last three
 * lookup answers as rec(pc, pred_idx_o), newest in user[5]. */
void capt_tb_stim(struct tb_rng *r, const struct capt_cfg *cfg,
                  const struct capt_out *prev, struct capt_in *in)
{
    const uint64_t looked = 1ull << 63;
    if ((r->user[4] & looked) && prev->pred_valid_o[0]) {
        r->user[7] = r->user[6];
        r->user[6] = r->user[5];
        r->user[5] = rec((uint32_t)r->user[4], prev->pred_idx_o[0]);
    }
    r->user[4] = 0;
    if (r->user[0] == 0) {
        static const unsigned act[] = {0, 5, 30, 60, 90, 100, 100};
        uint64_t e = cfg->ENTRIES;
        uint64_t pools[] = {1, e / 2 ? e / 2 : 1, e - 1, e, e + 1, 2 * e,
                            4 * e, 64 * e};
        r->user[0] = 50 + tb_below(r, 2000);
        r->user[1] = pools[tb_below(r, sizeof pools / sizeof pools[0])];
        r->user[2] = act[tb_below(r, sizeof act / sizeof act[0])];
        if (tb_chance(r, 1, 3))
            r->user[3] = tb_rand(r);
    }
    r->user[0]--;
    if (tb_chance(r, 1, 3000)) {
        in->flush_i[0] = 1;
        if (tb_chance(r, 1, 2))
            return;
    }
    if (tb_below(r, 100) < r->user[2]) {
        in->lookup_valid_i[0] = 1;
        in->lookup_pc_i[0] = pick_pc(r, cfg);
        r->user[4] = looked | in->lookup_pc_i[0];
    } else if (tb_chance(r, 1, 8)) {
        in->lookup_pc_i[0] = pick_pc(r, cfg); /* data without valid */
    }
    uint32_t imask = (1u << capt_idx_bits(cfg)) - 1;
    if (tb_below(r, 100) < r->user[2]) {
        in->update_valid_i[0] = 1;
        uint64_t k = tb_below(r, 8);
        if (k < 5) { /* the answer of a recent lookup, maybe stale now */
            uint64_t a = r->user[5 + tb_below(r, 3)];
            in->update_pc_i[0] = (uint32_t)a;
            in->update_idx_i[0] = (uint32_t)(a >> 32);
            if (tb_chance(r, 1, 16)) /* near miss: right index, PC off */
                in->update_pc_i[0] ^= 1u << tb_below(r, cfg->TAG_W);
        } else if (k == 5) { /* a recent PC with another index */
            in->update_pc_i[0] = (uint32_t)r->user[5 + tb_below(r, 3)];
            in->update_idx_i[0] = (uint32_t)tb_rand(r);
        } else { /* any pool PC, any index (beyond ENTRIES too) */
            in->update_pc_i[0] = pick_pc(r, cfg);
            in->update_idx_i[0] = (uint32_t)tb_rand(r);
        }
        in->update_pc_i[0] &= tmask(cfg);
        in->update_idx_i[0] &= imask;
        /* skewed so that 2-bit counters reach both saturation ends */
        uint64_t bias = (r->user[3] >> 7) % 4;
        in->update_adequate_i[0] = (uint32_t)(tb_below(r, 4) < bias + (bias == 0));
    } else if (tb_chance(r, 1, 8)) {
        in->update_idx_i[0] = (uint32_t)tb_rand(r) & imask; /* no valid */
    }
}

static void lookup(struct ls_ctx *ls, uint32_t pc, struct capt_out *o)
{
    struct capt_in in;
    memset(&in, 0, sizeof in);
    in.lookup_valid_i[0] = 1;
    in.lookup_pc_i[0] = pc;
    ls_step(ls, &in, o);
}

static void update(struct ls_ctx *ls, uint32_t pc, uint32_t idx, int adeq,
                   struct capt_out *o)
{
    struct capt_in in;
    memset(&in, 0, sizeof in);
    in.update_valid_i[0] = 1;
    in.update_idx_i[0] = idx;
    in.update_pc_i[0] = pc;
    in.update_adequate_i[0] = (uint32_t)adeq;
    ls_step(ls, &in, o);
}

static void idle(struct ls_ctx *ls, struct capt_out *o)
{
    struct capt_in in;
    memset(&in, 0, sizeof in);
    ls_step(ls, &in, o);
}

/* Fig 4.8: (a) W0 does not diverge at BR_B-C: no lookup, table unchanged;
 * (b) W2 diverges: miss, predict stall, entry allocated adequate;
 * (c) W1 diverges: hit, history adequate -> stall;
 * (d) the WCU evaluates BR_B-C compaction-ineffective (update with the
 * entry index the lookup returned): 1b-latest history reset; the next
 * divergent warp then bypasses. */
static void fig48(struct ls_ctx *ls, const struct capt_cfg *cfg)
{
    const struct capt_state *s = ls->m.cm;
    const uint32_t br_bc = 0x0000B0C0u & (cfg->TAG_W >= 32 ? ~0u : (1u << cfg->TAG_W) - 1);
    struct capt_out o;
    unsigned h = 0;
    ls_case(ls, "fig4.8");
    ls_reset(ls);
    idle(ls, &o); /* (a) */
    LS_EXPECT(ls, 0, o.pred_valid_o[0]);
    LS_EXPECT(ls, -1, capt_probe(s, br_bc, &h));
    lookup(ls, br_bc, &o); /* (b) */
    LS_EXPECT(ls, 1, o.pred_valid_o[0]);
    LS_EXPECT(ls, 0, o.pred_hit_o[0]);
    LS_EXPECT(ls, 1, o.pred_stall_o[0]);
    LS_EXPECT(ls, 0, o.pred_evict_o[0]);
    LS_EXPECT(ls, 0, o.pred_idx_o[0]);
    uint32_t idx = o.pred_idx_o[0];
    LS_EXPECT(ls, 0, capt_probe(s, br_bc, &h));
    LS_EXPECT(ls, cfg->HIST == CAPT_HIST_CTR2 ? 2 : 1, h);
    lookup(ls, br_bc, &o); /* (c) */
    LS_EXPECT(ls, 1, o.pred_hit_o[0]);
    LS_EXPECT(ls, 1, o.pred_stall_o[0]);
    LS_EXPECT(ls, idx, o.pred_idx_o[0]);
    update(ls, br_bc, idx, 0, &o); /* (d) */
    LS_EXPECT(ls, 1, o.upd_hit_o[0]);
    capt_probe(s, br_bc, &h);
    LS_EXPECT(ls, cfg->HIST == CAPT_HIST_STICKY ? 1 : (cfg->HIST == CAPT_HIST_CTR2 ? 1 : 0), h);
    lookup(ls, br_bc, &o); /* next iteration */
    LS_EXPECT(ls, 1, o.pred_hit_o[0]);
    LS_EXPECT(ls, cfg->HIST == CAPT_HIST_STICKY, o.pred_stall_o[0]);
    update(ls, br_bc, idx, 1, &o); /* compaction now effective */
    capt_probe(s, br_bc, &h);
    LS_EXPECT(ls, cfg->HIST == CAPT_HIST_CTR2 ? 2 : 1, h);
    lookup(ls, br_bc, &o);
    LS_EXPECT(ls, 1, o.pred_stall_o[0]);
    update(ls, 0x1234u & (cfg->TAG_W >= 32 ? ~0u : (1u << cfg->TAG_W) - 1), idx, 0, &o);
    LS_EXPECT(ls, 0, o.upd_hit_o[0]); /* another PC at that index: nothing */
    update(ls, br_bc, idx + 1, 0, &o);
    LS_EXPECT(ls, 0, o.upd_hit_o[0]); /* right PC, wrong (empty) entry */
    capt_probe(s, br_bc, &h);
    LS_EXPECT(ls, cfg->HIST == CAPT_HIST_CTR2 ? 2 : 1, h);
    printf("directed fig4.8 (HIST=%u): ok\n", cfg->HIST);
}

/* An update whose entry was replaced meanwhile does nothing: A's lookup
 * returned index 0; a flush empties the table (the update finds entry 0
 * invalid), B is then allocated in entry 0 (the update finds B's tag);
 * B keeps its history. Then the same in a full table: the miss of C
 * evicts an entry and the update of that entry's old PC misses, while an
 * update with C's own (PC, index) hits. */
static void stale_update(struct ls_ctx *ls, const struct capt_cfg *cfg)
{
    const struct capt_state *s = ls->m.cm;
    uint32_t m = cfg->TAG_W >= 32 ? ~0u : (1u << cfg->TAG_W) - 1;
    const uint32_t a = 0xA0u & m, b = 0xB0u & m, c = 0xC0u & m;
    unsigned adeq_h = cfg->HIST == CAPT_HIST_CTR2 ? 2 : 1, h = 9;
    struct capt_out o;
    ls_case(ls, "stale-update");
    ls_reset(ls);
    lookup(ls, a, &o);
    LS_EXPECT(ls, 0, o.pred_idx_o[0]);
    struct capt_in in;
    memset(&in, 0, sizeof in);
    in.flush_i[0] = 1;
    ls_step(ls, &in, &o);
    update(ls, a, 0, 0, &o);
    LS_EXPECT(ls, 1, o.upd_valid_o[0]);
    LS_EXPECT(ls, 0, o.upd_hit_o[0]); /* entry 0 invalid (flushed) */
    lookup(ls, b, &o);
    LS_EXPECT(ls, 0, o.pred_hit_o[0]);
    LS_EXPECT(ls, 0, o.pred_idx_o[0]);
    update(ls, a, 0, 0, &o);
    LS_EXPECT(ls, 0, o.upd_hit_o[0]); /* entry 0 now holds B */
    LS_EXPECT(ls, 0, capt_probe(s, b, &h));
    LS_EXPECT(ls, adeq_h, h);
    lookup(ls, b, &o);
    LS_EXPECT(ls, 1, o.pred_stall_o[0]);
    /* full table: after a flush, entry i holds PC 0x100+i */
    ls_step(ls, &in, &o);
    for (unsigned i = 0; i < cfg->ENTRIES; i++)
        lookup(ls, (0x100u + i) & m, &o);
    lookup(ls, c, &o); /* miss in a full table: evicts some entry v */
    LS_EXPECT(ls, 1, o.pred_evict_o[0]);
    uint32_t v = o.pred_idx_o[0];
    update(ls, (0x100u + v) & m, v, 0, &o);
    LS_EXPECT(ls, 0, o.upd_hit_o[0]); /* v's old PC: replaced */
    update(ls, c, v, 0, &o);
    LS_EXPECT(ls, 1, o.upd_hit_o[0]);
    capt_probe(s, c, &h);
    LS_EXPECT(ls, cfg->HIST == CAPT_HIST_LATEST ? 0 : 1, h); /* ctr2: 2 -> 1 */
    printf("directed stale-update (ENTRIES=%u): ok\n", cfg->ENTRIES);
}

/* Fill the table, then check the replacement order and that a hit
 * protects an entry; then a flush empties everything. Sequential fills
 * leave true LRU with ages n-1..0 and tree PLRU with every node bit 0;
 * touching entry 0 then makes the victim entry 1 (true LRU) or n/2 (tree:
 * the root points to the upper half, whose nodes all point low); the miss
 * that fills it moves the next victim to entry 2 (true LRU) or n/4 (tree,
 * the lower half's upper quarter), and to entry 0 for n = 2. */
static void lru_flush(struct ls_ctx *ls, const struct capt_cfg *cfg)
{
    const struct capt_state *s = ls->m.cm;
    struct capt_out o;
    unsigned n = cfg->ENTRIES;
    int tree = cfg->LRU == CAPT_LRU_TREE;
    uint32_t m = cfg->TAG_W >= 32 ? ~0u : (1u << cfg->TAG_W) - 1;
    unsigned v1 = tree ? n / 2 : 1;
    unsigned v2 = n == 2 ? 0 : tree ? n / 4 : 2;
    ls_case(ls, tree ? "plru" : "lru");
    ls_reset(ls);
    for (unsigned i = 0; i < n; i++) {
        lookup(ls, (100 + i) & m, &o);
        LS_EXPECT(ls, 0, o.pred_evict_o[0]);
        LS_EXPECT(ls, i, o.pred_idx_o[0]);
    }
    lookup(ls, 100 & m, &o); /* entry 0 becomes most recent */
    LS_EXPECT(ls, 1, o.pred_hit_o[0]);
    update(ls, (100 + v1) & m, v1, 0, &o); /* updates do not touch */
    LS_EXPECT(ls, 1, o.upd_hit_o[0]);
    lookup(ls, 500 & m, &o); /* evicts the victim v1 */
    LS_EXPECT(ls, 1, o.pred_evict_o[0]);
    LS_EXPECT(ls, v1, o.pred_idx_o[0]);
    LS_EXPECT(ls, -1, capt_probe(s, (100 + v1) & m, NULL));
    lookup(ls, 501 & m, &o); /* then v2 */
    LS_EXPECT(ls, v2, o.pred_idx_o[0]);
    struct capt_in in;
    memset(&in, 0, sizeof in);
    in.flush_i[0] = 1;
    in.lookup_valid_i[0] = 1; /* lookup in the flush cycle: sees old state */
    in.lookup_pc_i[0] = 500 & m;
    ls_step(ls, &in, &o);
    LS_EXPECT(ls, 1, o.pred_hit_o[0]);
    LS_EXPECT(ls, -1, capt_probe(s, 500 & m, NULL));
    lookup(ls, 500 & m, &o);
    LS_EXPECT(ls, 0, o.pred_hit_o[0]);
    LS_EXPECT(ls, 0, o.pred_idx_o[0]);
    printf("directed %s+flush (ENTRIES=%u): ok\n", tree ? "plru" : "lru", n);
}

int capt_tb_directed(struct ls_ctx *ls, const struct capt_cfg *cfg)
{
    fig48(ls, cfg);
    stale_update(ls, cfg);
    lru_flush(ls, cfg);
    return ls->fails;
}
