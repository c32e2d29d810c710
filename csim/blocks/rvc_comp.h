/* RVC compressor: byte-wise register value compression of one vector
 * register write-back (G-Scalar sec. 3.1, 3.3, 4.2, 4.3, Fig 2, 3, 7;
 * spec shared spec blocks.md section 4). Cycle-exact model of
 * rtl/rvc_comp.v; docs/blocks/rvc.md has the cycle table.
 *
 * One call of rvc_comp_step() is one rising edge of clk_i with `in`
 * applied; `out` holds the output ports right after that edge. Outputs are
 * registers only (one cycle to compress), so `out` shows the transaction
 * of this edge. Payload registers load only when valid_i is 1. */
#ifndef RVC_COMP_H
#define RVC_COMP_H

#include <stdbool.h>
#include <stdint.h>

#define RVC_MAX_W 32             /* largest supported SIMD width          */

/* Verilog parameters of rtl/rvc_comp.v, same names and defaults. */
struct rvc_comp_cfg {
    unsigned W;                  /* lanes, even, 2..32 (default 32)       */
};

/* Port structs generated from rvc_comp_ports.def (element 0 in the LSBs
 * of the packed RTL vector). */
#define PORT_IN(name, bits, count)  uint32_t name[count];
#define PORT_OUT(name, bits, count)
struct rvc_comp_in {
#include "blocks/rvc_comp_ports.def"
};
#undef PORT_IN
#undef PORT_OUT
#define PORT_IN(name, bits, count)
#define PORT_OUT(name, bits, count) uint32_t name[count];
struct rvc_comp_out {
#include "blocks/rvc_comp_ports.def"
};
#undef PORT_IN
#undef PORT_OUT

/* Statistics of one compressor instance (C side only). */
struct rvc_comp_stats {
    uint64_t cycles;             /* edges stepped                          */
    uint64_t writes;             /* valid write-backs                      */
    uint64_t divergent;          /* writes with D = 1                      */
    uint64_t enc_hist[5];        /* non-divergent writes by equal bytes    */
    uint64_t arrays_written;     /* sum of set bits of we_o (half arrays)  */
};

/* Registers of rtl/rvc_comp.v plus statistics. */
struct rvc_comp_state {
    struct rvc_comp_cfg cfg;
    struct rvc_comp_out r;       /* every output is a register            */
    struct rvc_comp_stats st;
};

/* Result of the byte-wise comparison of one register write. */
struct rvc_enc {
    unsigned enc, encl, ench;    /* thermometer codes, 4 bits each        */
    bool d;                      /* mask not all ones over W lanes        */
    bool fs;                     /* half, D = 0 and enc == 1111           */
    unsigned we;                 /* {weH, weL} byte arrays written        */
    uint32_t bvr, bvrh;          /* base value registers                  */
};

/* Default parameters (W = 32). */
struct rvc_comp_cfg rvc_comp_cfg_default(void);

/* Checks cfg and resets s; returns 0, or -1 on a bad parameter. */
int rvc_comp_init(struct rvc_comp_state *s, const struct rvc_comp_cfg *cfg);

/* Synchronous reset (rst_ni low for one edge): registers and stats to 0. */
void rvc_comp_reset(struct rvc_comp_state *s);

/* One rising edge with `in` applied; fills `out` (see the file comment). */
void rvc_comp_step(struct rvc_comp_state *s, const struct rvc_comp_in *in,
                   struct rvc_comp_out *out);

/* n edges with valid_i low from any state: the same registers and
 * statistics as n rvc_comp_step calls (valid_o clears, the payload
 * registers hold). */
void rvc_comp_idle_edges(struct rvc_comp_state *s, uint64_t n);

/* Thermometer enc[3:0] of lanes lo..hi-1 of val under mask (inactive
 * lanes take the value of the highest-numbered active lane; no active
 * lane gives 1111). */
unsigned rvc_enc_lanes(const uint32_t *val, uint32_t mask, unsigned lo,
                       unsigned hi);

/* Number of equal leading bytes (0..4) that thermometer code enc means
 * (0 for a code that is not a thermometer): nibble enc of a constant,
 * 0000 -> 0, 1000 -> 1, 1100 -> 2, 1110 -> 3, 1111 -> 4. */
static inline unsigned rvc_enc_bytes(unsigned enc)
{
    return (unsigned)(0x4302000100000000ull >> 4 * (enc & 0xfu)) & 0xfu;
}

/* Combinational compressor function of W lanes (no state). */
struct rvc_enc rvc_compress(unsigned W, const uint32_t *val, uint32_t mask,
                            bool half);

/* Mask with the low W bits set (W <= 32). */
uint32_t rvc_lane_mask(unsigned W);

#endif
