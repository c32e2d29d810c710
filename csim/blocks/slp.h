/* SLP: SIMD lane permutation unit (dissertation 4.3.4-4.3.6, Fig 4.16,
 * 4.19; shared spec blocks.md section 3). Cycle-exact model of
 * rtl/slp.v; docs/blocks/slp.md has the cycle table.
 *
 * A launch (valid_i & launch_i) computes the permutation of warp wid_i
 * under mode_i, stores it for hardware warp slot slot_i (fixed for the
 * warp's life) and returns it; a lookup (valid_i & !launch_i) returns the
 * stored permutation of slot_i applied to mask_i. One register stage: the
 * result of the request at an edge is on the outputs right after it. */
#ifndef SLP_H
#define SLP_H

#include <stdint.h>

#define SLP_MAX_W 32
#define SLP_MAX_NWARPS 64   /* warp slots of the largest SM (2048 threads) */

/* Permutation modes (mode_i). SLP_RANDOM is C-side only (not in RTL). */
enum slp_mode {
    SLP_NONE = 0,          /* identity                                    */
    SLP_BALANCED = 1,      /* even: (WID/2) mod (W/2); odd: ~mask(WID-1)  */
    SLP_ODD_EVEN = 2,      /* odd warps XOR 1                             */
    SLP_REV_WID = 3,       /* XOR bit-reverse_m(WID mod W)                */
    SLP_WID = 4,           /* XOR (WID mod W)                             */
    SLP_FLIP_ODD = 5,      /* odd warps XOR (W-1)                         */
    SLP_XOR_HALF_ODD = 6,  /* odd warps XOR W/2                           */
    SLP_ROTATE_ODD_1 = 7,  /* odd warps (lane+1) mod W                    */
    SLP_RANDOM = 8         /* seeded pseudo-random permutation (C only)   */
};

/* Verilog parameters of rtl/slp.v, same names and defaults. */
struct slp_cfg {
    unsigned W;            /* lanes, power of two 4..32, default 32       */
    unsigned NWARPS;       /* warp slots in the table, 2..64, default 32  */
    unsigned ROT_EN;       /* 1: store a rotate flag per slot (mode 7);
                              0: masks only, mode 7 acts as none          */
};

#define PORT_IN(name, bits, count) uint32_t name[count];
#define PORT_OUT(name, bits, count)
struct slp_in {
#include "blocks/slp_ports.def"
};
#undef PORT_IN
#undef PORT_OUT
#define PORT_IN(name, bits, count)
#define PORT_OUT(name, bits, count) uint32_t name[count];
struct slp_out {
#include "blocks/slp_ports.def"
};
#undef PORT_IN
#undef PORT_OUT

/* C-side statistics. */
struct slp_stats {
    uint64_t launches, lookups;
    uint64_t launches_by_mode[8];
};

/* Registers of rtl/slp.v plus statistics. */
struct slp_state {
    struct slp_cfg cfg;
    uint8_t key[SLP_MAX_NWARPS];
    uint8_t rot[SLP_MAX_NWARPS];
    struct slp_out q;
    struct slp_stats st;
};

/* Default parameters (W 32, NWARPS 32, ROT_EN 1). */
struct slp_cfg slp_cfg_default(void);

/* Checks cfg and resets s; returns 0, or -1 on a bad parameter. */
int slp_init(struct slp_state *s, const struct slp_cfg *cfg);

/* Synchronous reset: every slot identity, outputs 0, stats 0. */
void slp_reset(struct slp_state *s);

/* One rising edge with `in` applied; `out` = registered outputs after it. */
void slp_step(struct slp_state *s, const struct slp_in *in,
              struct slp_out *out);

/* log2(W). */
unsigned slp_lane_bits(const struct slp_cfg *cfg);

/* Slot index bits: max(1, ceil(log2(NWARPS))). */
unsigned slp_slot_bits(const struct slp_cfg *cfg);

/* The XOR key (or rotate amount, *rot = 1) of warp wid under an RTL mode
 * (0..7) for W lanes; mode 7 with rot_en = 0 acts as SLP_NONE. */
unsigned slp_key(unsigned W, unsigned mode, unsigned wid, int rot_en,
                 unsigned *rot);

/* Physical lane of logical lane l under (key, rot) for W lanes. */
unsigned slp_phys(unsigned W, unsigned key, unsigned rot, unsigned l);

/* Full map phys[l] of warp wid under any mode, SLP_RANDOM included
 * (seeded Fisher-Yates per (seed, wid)); returns 0, -1 on a bad mode. */
int slp_map(unsigned W, unsigned mode, unsigned wid, uint64_t seed,
            unsigned phys[SLP_MAX_W]);

/* Applies phys to a logical mask: bit phys[l] of the result = bit l. */
uint32_t slp_apply(unsigned W, const unsigned phys[SLP_MAX_W], uint32_t mask);

/* Sets Verilog parameter `name` of cfg to v; -1 if the name is unknown. */
int slp_set_param(struct slp_cfg *cfg, const char *name, long v);

/* Actual RTL size of port `name` under cfg: bits and count come in as the
 * .def maxima and are narrowed where the RTL is narrower. */
void slp_port_dims(const struct slp_cfg *cfg, const char *name,
                   unsigned *bits, unsigned *count);

/* Mask storage bits of the table: NWARPS x log2(W) (+ NWARPS if ROT_EN). */
unsigned slp_storage_bits(const struct slp_cfg *cfg);

#endif
