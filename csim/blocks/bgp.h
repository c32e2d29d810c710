/* BGP: bi-modal granularity predictor, the dual bit-array bloom filter
 * granularity decision unit (dissertation 5.2.3, Fig 5.5, 5.6, Table 5.2;
 * spec shared spec blocks.md section 5). Cycle-exact model of
 * rtl/bgp.v; docs/blocks/bgp.md defines the K hash functions and has the
 * cycle table.
 *
 * One call of bgp_step() is one rising edge of clk_i with `in` applied;
 * `out` holds the output ports right after that edge. A query and an
 * eviction in the same edge: the query sees the state before the edge.
 * State changes only on an edge with q_valid_i or e_valid_i. */
#ifndef BGP_H
#define BGP_H

#include <stdbool.h>
#include <stdint.h>

#define BGP_MAX_M 65536u         /* largest bit-array size                */
#define BGP_MAX_K 8u             /* largest number of hash functions      */

/* Verilog parameters of rtl/bgp.v, same names and defaults. */
struct bgp_cfg {
    unsigned M;                  /* bits per array, power of 2, 256..65536 */
    unsigned K;                  /* hash functions, 1..8 (default 6)       */
    unsigned N;                  /* refresh period, even, 2..32768 (512)   */
    unsigned NUM_EVICT;          /* skew window, 1..65535 (1000)           */
    unsigned TH_FG;              /* FG if used sectors < TH_FG (2)         */
    unsigned SKEW_PCT;           /* SKEW_THRES x 100, 0..100 (70)          */
};

#define PORT_IN(name, bits, count)  uint32_t name[count];
#define PORT_OUT(name, bits, count)
struct bgp_in {
#include "blocks/bgp_ports.def"
};
#undef PORT_IN
#undef PORT_OUT
#define PORT_IN(name, bits, count)
#define PORT_OUT(name, bits, count) uint32_t name[count];
struct bgp_out {
#include "blocks/bgp_ports.def"
};
#undef PORT_IN
#undef PORT_OUT

/* Statistics of one BGP instance (C side only). */
struct bgp_stats {
    uint64_t cycles;             /* edges stepped                          */
    uint64_t queries, pred_fg;   /* queries and FG predictions             */
    uint64_t hits;               /* queries positive in the filter         */
    uint64_t evictions, insertions;
    uint64_t inversions;         /* default prediction flips               */
    uint64_t clears[2];          /* refresh clears per array               */
};

/* Registers of rtl/bgp.v plus statistics. */
struct bgp_state {
    struct bgp_cfg cfg;
    uint64_t arr[2][BGP_MAX_M / 64];   /* the two bit-arrays             */
    unsigned dflt, idle1, cnt0, cnt1, win_ev, win_ins;
    uint32_t ev_total, ins_total;
    unsigned q_valid, q_hit, q_fg, e_valid, e_ins, inv;
    struct bgp_stats st;
};

/* Default parameters (Table 5.2: 2 x 2048 bits, K 6, N 512, 1000, 2, 0.7). */
struct bgp_cfg bgp_cfg_default(void);

/* Checks cfg and resets s; returns 0, or -1 on a bad parameter. */
int bgp_init(struct bgp_state *s, const struct bgp_cfg *cfg);

/* Synchronous reset (rst_ni low for one edge): registers and stats to 0. */
void bgp_reset(struct bgp_state *s);

/* One rising edge with `in` applied; fills `out` (see the file comment). */
void bgp_step(struct bgp_state *s, const struct bgp_in *in,
              struct bgp_out *out);

/* Output ports as the registers of s drive them now (no edge). */
void bgp_outputs(const struct bgp_state *s, struct bgp_out *out);

/* Rotation of hash function k: 9k mod 32 bits (k bytes plus k bits). */
unsigned bgp_rot(unsigned k);

/* Hash function k (0 <= k < K) of block address a for bit-array size M
 * (docs/blocks/bgp.md): a rotated left by bgp_rot(k), cut into L-bit
 * slices (L = log2(M)) that are XORed; bit p of a lands on index bit
 * ((p + bgp_rot(k)) mod 32) mod L. */
unsigned bgp_hash(unsigned M, unsigned k, uint32_t a);

/* 1 when every bit of array i (0/1) is set (saturated filter). */
bool bgp_saturated(const struct bgp_state *s, unsigned i);

/* Number of set bits in array i (0/1). */
unsigned bgp_popcount(const struct bgp_state *s, unsigned i);

/* Active array: the one with the longer insertion history. */
unsigned bgp_sel(const struct bgp_state *s);

#endif
