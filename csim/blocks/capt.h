/* CAPT: compaction-adequacy prediction table of CAPRI (dissertation 4.2.2,
 * Fig 4.8; spec shared spec blocks.md section 1). Cycle-exact model
 * of rtl/capt.v; docs/blocks/capt.md has the cycle table.
 *
 * Fully associative, ENTRIES entries of {valid, tag = branch PC (TAG_W
 * bits), history}, true LRU (per-entry age counters). One capt_step() is
 * one rising edge of clk_i with `in` applied; every output is registered,
 * so `out` reports the lookup/update of this edge as seen in the state
 * before the edge. */
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

/* Verilog parameters of rtl/capt.v, same names and defaults. */
struct capt_cfg {
    unsigned ENTRIES;       /* 2..64, default 32                         */
    unsigned TAG_W;         /* 1..32 branch PC bits, default 32          */
    unsigned HIST;          /* enum capt_hist, default 0                 */
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
    uint8_t age[CAPT_MAX_ENTRIES];   /* 0 = most recently used          */
    struct capt_out q;               /* output registers                */
    struct capt_stats st;
};

/* Default parameters (ENTRIES 32, TAG_W 32, HIST 1b-latest). */
struct capt_cfg capt_cfg_default(void);

/* Checks cfg and resets s; returns 0, or -1 on a bad parameter. */
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

/* Width of pred_idx_o for cfg: max(1, ceil(log2(ENTRIES))). */
unsigned capt_idx_bits(const struct capt_cfg *cfg);

/* Storage bits of the table (valid + tag + history per entry; the LRU
 * ages are reported separately by capt_lru_bits). */
unsigned capt_storage_bits(const struct capt_cfg *cfg);

/* LRU state bits (ENTRIES x idx bits). */
unsigned capt_lru_bits(const struct capt_cfg *cfg);

#endif
