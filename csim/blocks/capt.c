/* CAPT cycle model (see capt.h). Mirrors rtl/capt.v statement by statement:
 * combinational hit/victim search on the state before the edge, then the
 * next state and the output registers. */
#include "blocks/capt.h"

#include <string.h>

struct capt_cfg capt_cfg_default(void)
{
    struct capt_cfg c = {32, 32, CAPT_HIST_LATEST, CAPT_LRU_TREE};
    return c;
}

unsigned capt_idx_bits(const struct capt_cfg *cfg)
{
    unsigned b = 0;
    while ((1u << b) < cfg->ENTRIES)
        b++;
    return b ? b : 1;
}

unsigned capt_storage_bits(const struct capt_cfg *cfg)
{
    unsigned hw = cfg->HIST == CAPT_HIST_CTR2 ? 2 : 1;
    return cfg->ENTRIES * (1 + cfg->TAG_W + hw);
}

unsigned capt_lru_bits(const struct capt_cfg *cfg)
{
    if (cfg->LRU == CAPT_LRU_TREE)
        return cfg->ENTRIES - 1;
    return cfg->ENTRIES * capt_idx_bits(cfg);
}

int capt_hist_adequate(const struct capt_cfg *cfg, unsigned hist)
{
    return cfg->HIST == CAPT_HIST_CTR2 ? hist >= 2 : hist != 0;
}

static uint32_t tag_mask(const struct capt_cfg *cfg)
{
    return cfg->TAG_W >= 32 ? 0xFFFFFFFFu : (1u << cfg->TAG_W) - 1;
}

void capt_reset(struct capt_state *s)
{
    struct capt_cfg cfg = s->cfg;
    memset(s, 0, sizeof *s);
    s->cfg = cfg;
    for (unsigned i = 0; i < cfg.ENTRIES; i++)
        s->age[i] = (uint8_t)i;
}

const char *capt_cfg_error(const struct capt_cfg *cfg)
{
    if (cfg->ENTRIES < 2 || cfg->ENTRIES > CAPT_MAX_ENTRIES)
        return "CAPT: ENTRIES must be 2..64";
    if (cfg->LRU > CAPT_LRU_TRUE)
        return "CAPT: LRU must be 0 (tree_plru) or 1 (true_lru)";
    if (cfg->LRU == CAPT_LRU_TREE && (cfg->ENTRIES & (cfg->ENTRIES - 1)))
        return "CAPT: tree pseudo-LRU (LRU=0) needs ENTRIES a power of two "
               "(2, 4, 8, 16, 32, 64); use LRU=1 (true_lru) otherwise";
    if (cfg->TAG_W < 1 || cfg->TAG_W > 32)
        return "CAPT: TAG_W must be 1..32";
    if (cfg->HIST > CAPT_HIST_CTR2)
        return "CAPT: HIST must be 0 (latest), 1 (sticky) or 2 (counter2)";
    return NULL;
}

int capt_init(struct capt_state *s, const struct capt_cfg *cfg)
{
    if (capt_cfg_error(cfg))
        return -1;
    s->cfg = *cfg;
    capt_reset(s);
    return 0;
}

static int find(const struct capt_state *s, uint32_t pc)
{
    for (unsigned i = 0; i < s->cfg.ENTRIES; i++)
        if (s->valid[i] && s->tag[i] == pc)
            return (int)i;
    return -1;
}

int capt_probe(const struct capt_state *s, uint32_t pc, unsigned *hist)
{
    int i = find(s, pc & tag_mask(&s->cfg));
    if (i >= 0 && hist)
        *hist = s->hist[i];
    return i;
}

/* First invalid entry, else the replacement policy's victim: the entry of
 * age ENTRIES-1 (true LRU) or the leaf the tree bits point to (PLRU). */
static unsigned victim(const struct capt_state *s)
{
    for (unsigned i = 0; i < s->cfg.ENTRIES; i++)
        if (!s->valid[i])
            return i;
    if (s->cfg.LRU == CAPT_LRU_TREE) {
        unsigned k = 1;
        while (k < s->cfg.ENTRIES)
            k = 2 * k + s->plru[k];
        return k - s->cfg.ENTRIES;
    }
    for (unsigned i = 0; i < s->cfg.ENTRIES; i++)
        if (s->age[i] == s->cfg.ENTRIES - 1)
            return i;
    return 0; /* unreachable: the ages are a permutation */
}

static uint8_t hist_update(const struct capt_cfg *cfg, uint8_t h, int adeq)
{
    switch (cfg->HIST) {
    case CAPT_HIST_STICKY:
        return (uint8_t)(h | (adeq != 0));
    case CAPT_HIST_CTR2:
        if (adeq)
            return h < 3 ? (uint8_t)(h + 1) : 3;
        return h > 0 ? (uint8_t)(h - 1) : 0;
    default:
        return (uint8_t)(adeq != 0);
    }
}

/* Entry e becomes the most recently used: true LRU ages the younger
 * entries by one; tree PLRU points every node on e's path away from e. */
static void touch(struct capt_state *s, unsigned e)
{
    if (s->cfg.LRU == CAPT_LRU_TREE) {
        for (unsigned k = e + s->cfg.ENTRIES; k > 1; k /= 2)
            s->plru[k / 2] = (uint8_t)!(k & 1);
        return;
    }
    uint8_t a = s->age[e];
    for (unsigned i = 0; i < s->cfg.ENTRIES; i++)
        if (s->age[i] < a)
            s->age[i]++;
    s->age[e] = 0;
}

void capt_step(struct capt_state *s, const struct capt_in *in,
               struct capt_out *out)
{
    const struct capt_cfg *c = &s->cfg;
    uint32_t lpc = in->lookup_pc_i[0] & tag_mask(c);
    uint32_t upc = in->update_pc_i[0] & tag_mask(c);
    uint32_t uidx = in->update_idx_i[0] & ((1u << capt_idx_bits(c)) - 1);
    int lv = in->lookup_valid_i[0] & 1, uv = in->update_valid_i[0] & 1;
    int adeq = in->update_adequate_i[0] & 1, flush = in->flush_i[0] & 1;

    /* combinational, on the state before the edge; the update reads one
     * entry (update_idx_i) and compares its tag: no associative search */
    int hit = find(s, lpc);
    int uhit = uidx < c->ENTRIES && s->valid[uidx] && s->tag[uidx] == upc
                   ? (int)uidx : -1;
    unsigned vic = victim(s);
    struct capt_out q;
    memset(&q, 0, sizeof q);
    if (lv) {
        q.pred_valid_o[0] = 1;
        q.pred_hit_o[0] = hit >= 0;
        q.pred_stall_o[0] =
            hit >= 0 ? (uint32_t)capt_hist_adequate(c, s->hist[hit]) : 1u;
        q.pred_evict_o[0] = hit < 0 && s->valid[vic];
        q.pred_idx_o[0] = hit >= 0 ? (uint32_t)hit : vic;
        s->st.lookups++;
        if (hit >= 0)
            s->st.hits++;
        else
            s->st.misses++;
        s->st.evictions += q.pred_evict_o[0];
        if (q.pred_stall_o[0])
            s->st.stalls++;
        else
            s->st.bypasses++;
    }
    if (uv) {
        q.upd_valid_o[0] = 1;
        q.upd_hit_o[0] = uhit >= 0;
        s->st.updates++;
        s->st.update_hits += uhit >= 0;
        s->st.update_adequate += (unsigned)adeq;
    }

    /* next state */
    if (flush) {
        s->st.flushes++;
        for (unsigned i = 0; i < c->ENTRIES; i++) {
            s->valid[i] = 0;
            s->age[i] = (uint8_t)i;
            s->plru[i] = 0;
        }
    } else {
        if (uv && uhit >= 0)
            s->hist[uhit] = hist_update(c, s->hist[uhit], adeq);
        if (lv && hit >= 0) {
            if (c->HIST == CAPT_HIST_STICKY)
                s->hist[hit] = 1;
            touch(s, (unsigned)hit);
        } else if (lv) {
            s->valid[vic] = 1;
            s->tag[vic] = lpc;
            s->hist[vic] = c->HIST == CAPT_HIST_CTR2 ? 2 : 1;
            touch(s, vic);
        }
    }
    s->q = q;
    *out = q;
}
