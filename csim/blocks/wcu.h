/* WCU: warp compaction unit with per-lane priority encoders and the
 * compaction-adequacy evaluator (dissertation 4.1.3, 4.2.2, Fig 4.3, 4.9;
 * spec shared spec blocks.md section 2). Cycle-exact model of
 * rtl/wcu.v; docs/blocks/wcu.md has the cycle table.
 *
 * One call of wcu_step() is one rising edge of clk_i with `in` applied;
 * `out` holds the output ports right after that edge. Every output is a
 * function of the registers only (Moore), so `out` does not depend on the
 * `in` of the same call except through the edge. */
#ifndef WCU_H
#define WCU_H

#include <stdbool.h>
#include <stdint.h>

#define WCU_MAX_W  32            /* largest supported SIMD width        */
#define WCU_MAX_NW 32            /* largest supported warps per CTA     */

/* Verilog parameters of rtl/wcu.v, same names and defaults. */
struct wcu_cfg {
    unsigned W;                  /* lanes per warp, 1..32 (default 32)  */
    unsigned NW;                 /* warps per CTA,  2..32 (default 32)  */
};

/* The port structs are generated from wcu_ports.def (one field per RTL
 * port except clk_i; multi-element ports are C arrays, element 0 in the
 * LSBs of the packed RTL vector). */
#define PORT_IN(name, bits, count)  uint32_t name[count];
#define PORT_OUT(name, bits, count)
struct wcu_in {
#include "blocks/wcu_ports.def"
};
#undef PORT_IN
#undef PORT_OUT
#define PORT_IN(name, bits, count)
#define PORT_OUT(name, bits, count) uint32_t name[count];
struct wcu_out {
#include "blocks/wcu_ports.def"
};
#undef PORT_IN
#undef PORT_OUT

/* Statistics of one WCU instance (C side only, not hardware outputs). */
struct wcu_stats {
    uint64_t cycles;             /* edges stepped (reset excluded)       */
    uint64_t loads;              /* accepted CTA-wide masks              */
    uint64_t loads_dropped;      /* load_i while not ready (ignored)     */
    uint64_t warps_out;          /* compacted warps emitted (NW_TBC sum) */
    uint64_t threads_out;        /* active lanes in emitted warps        */
    uint64_t sum_nw_ideal;       /* sum of NW_ideal over loads           */
    uint64_t sum_nw_min;         /* sum of NW_min over loads             */
    uint64_t sum_nw_nocomp;      /* sum of NW_nocomp over loads          */
    uint64_t adequate;           /* loads evaluated adequate             */
    unsigned last_nw_ideal;      /* NW_ideal of the latest load          */
    unsigned last_nw_tbc;        /* compacted warps the latest load makes */
};

/* Registers of rtl/wcu.v plus statistics. */
struct wcu_state {
    struct wcu_cfg cfg;
    uint32_t rem[WCU_MAX_NW];    /* remaining non-bypassed active bits   */
    uint32_t out_valid, out_done, out_lanes;
    uint32_t out_wid[WCU_MAX_W];
    uint32_t eval_valid, nw_min, nw_nocomp, adequate;
    struct wcu_stats st;
};

/* Default parameters (W = 32, NW = 32). */
struct wcu_cfg wcu_cfg_default(void);

/* Checks cfg and resets s; returns 0, or -1 on a bad parameter. */
int wcu_init(struct wcu_state *s, const struct wcu_cfg *cfg);

/* Synchronous reset (rst_ni low for one edge): registers and stats to 0. */
void wcu_reset(struct wcu_state *s);

/* One rising edge with `in` applied; fills `out` (see the file comment). */
void wcu_step(struct wcu_state *s, const struct wcu_in *in,
              struct wcu_out *out);

/* True when an edge with idle inputs (load_i 0) changes no register of s:
 * nothing remains and every pulse and out_lanes are low. */
bool wcu_idle_fixed(const struct wcu_state *s);

/* n edges with idle inputs from a state where wcu_idle_fixed holds: the
 * same registers and statistics as n wcu_step calls. */
void wcu_idle_edges(struct wcu_state *s, uint64_t n);

/* Output ports as the registers of s drive them now (no edge). */
void wcu_outputs(const struct wcu_state *s, struct wcu_out *out);

/* Adequacy figures of one CTA-wide mask (mask[w] bit l = warp w lane l). */
struct wcu_eval {
    unsigned nw_min;             /* largest per-lane thread count        */
    unsigned nw_nocomp;          /* warps with any active thread         */
    unsigned nw_ideal;           /* ceil(active threads / W), eq. 4.1    */
    unsigned nw_tbc;             /* compacted warps over non-bypassed    */
    bool adequate;               /* nw_min < nw_nocomp                   */
};

/* Evaluates mask/umask under cfg without touching any state. */
struct wcu_eval wcu_evaluate(const struct wcu_cfg *cfg, const uint32_t *mask,
                             uint32_t umask);

/* Width in bits of one warp-id element of out_wid_o for cfg (>= 1). */
unsigned wcu_wid_bits(const struct wcu_cfg *cfg);

/* Width in bits of the NW counters (nw_min_o, nw_nocomp_o) for cfg. */
unsigned wcu_cnt_bits(const struct wcu_cfg *cfg);

#endif
