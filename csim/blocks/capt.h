/* CAPT: compaction-adequacy prediction table of CAPRI (dissertation 4.2.2,
 * Fig 4.8; spec shared spec blocks.md section 1). Cycle-exact model
 * of rtl/capt.v; docs/blocks/capt.md has the cycle table.
 *
 * Fully associative, ENTRIES entries of {valid, tag = branch PC (TAG_W
 * bits), history}; replacement by tree pseudo-LRU (default) or true LRU
 * (parameter LRU). One capt_step() is one rising edge of clk_i with `in`
 * applied; every output is registered, so `out` reports the lookup/update
 * of this edge as seen in the state before the edge.
 *
 * Update port: the caller passes back, with the branch PC, the entry index
 * the branch's lookup returned (pred_idx_o) in update_idx_i; the entry is
 * updated only if it is still valid and its tag still equals the PC (one
 * tag comparator), so an update whose entry was replaced in the meantime
 * does nothing (upd_hit_o = 0). */
#ifndef CAPT_H
#define CAPT_H

#include <stdint.h>

#define CAPT_MAX_ENTRIES 64

/* History modes (parameter HIST). */
enum capt_hist {
    CAPT_HIST_LATEST = 0,   /* 1b-latest: last adequacy result (default) */
    CAPT_HIST_STICKY = 1,   /* 1b-sticky: set on divergence, kept        */
    CAPT_HIST_CTR2 = 2      /* 2-bit saturating counter, adequate >= 2   */
};

/* Replacement policies (parameter LRU). */
enum capt_lru {
    CAPT_LRU_TREE = 0,      /* tree pseudo-LRU, ENTRIES a power of two (default) */
    CAPT_LRU_TRUE = 1       /* true LRU, per-entry age counters          */
};

/* Verilog parameters of rtl/capt.v, same names and defaults. */
struct capt_cfg {
    unsigned ENTRIES;       /* 2..64 (a power of two for tree PLRU), 32  */
    unsigned TAG_W;         /* 1..32 branch PC bits, default 32          */
    unsigned HIST;          /* enum capt_hist, default 0                 */
    unsigned LRU;           /* enum capt_lru, default 0 = tree PLRU      */
};

#define PORT_IN(name, bits, count) uint32_t name[count];
#define PORT_OUT(name, bits, count)
struct capt_in {
#include "blocks/capt_ports.def"
};
#undef PORT_IN
#undef PORT_OUT
#define PORT_IN(name, bits, count)
#define PORT_OUT(name, bits, count) uint32_t name[count];
struct capt_out {
#include "blocks/capt_ports.def"
};
#undef PORT_IN
#undef PORT_OUT

/* C-side statistics (not hardware outputs). */
struct capt_stats {
    uint64_t lookups, hits, misses, evictions, stalls, bypasses;
    uint64_t updates, update_hits, update_adequate, flushes;
};

/* Registers of rtl/capt.v plus statistics. */
struct capt_state {
    struct capt_cfg cfg;
    uint8_t valid[CAPT_MAX_ENTRIES];
    uint32_t tag[CAPT_MAX_ENTRIES];
    uint8_t hist[CAPT_MAX_ENTRIES];
    uint8_t age[CAPT_MAX_ENTRIES];   /* true LRU: 0 = most recently used */
    uint8_t plru[CAPT_MAX_ENTRIES];  /* tree PLRU: node k = 1..ENTRIES-1
                                      * (heap order, children 2k, 2k+1);
                                      * 1 = the victim is in the upper half */
    struct capt_out q;               /* output registers                */
    struct capt_stats st;
};

/* Default parameters (ENTRIES 32, TAG_W 32, HIST 1b-latest, tree PLRU). */
struct capt_cfg capt_cfg_default(void);

/* NULL if cfg is valid, else a message naming the bad parameter and its
 * range (static storage). */
const char *capt_cfg_error(const struct capt_cfg *cfg);

/* Checks cfg (capt_cfg_error) and resets s; returns 0, or -1 on a bad
 * parameter. */
int capt_init(struct capt_state *s, const struct capt_cfg *cfg);

/* Synchronous reset (rst_ni low for one edge): table empty, stats 0. */
void capt_reset(struct capt_state *s);

/* One rising edge with `in` applied; `out` = registered outputs after it. */
void capt_step(struct capt_state *s, const struct capt_in *in,
               struct capt_out *out);

/* Entry index holding branch pc (valid), or -1; *hist gets its history. */
int capt_probe(const struct capt_state *s, uint32_t pc, unsigned *hist);

/* Whether a history value predicts "adequate" (stall) under cfg. */
int capt_hist_adequate(const struct capt_cfg *cfg, unsigned hist);

/* Width of pred_idx_o and update_idx_i for cfg: max(1, ceil(log2(ENTRIES))). */
unsigned capt_idx_bits(const struct capt_cfg *cfg);

/* Storage bits of the table (valid + tag + history per entry; the LRU
 * ages are reported separately by capt_lru_bits). */
unsigned capt_storage_bits(const struct capt_cfg *cfg);

/* Replacement state bits: ENTRIES x idx bits (true LRU) or ENTRIES - 1
 * (tree PLRU). */
unsigned capt_lru_bits(const struct capt_cfg *cfg);

#endif
