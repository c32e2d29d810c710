/* RVC decompressor: rebuilds a W x 32-bit vector register from its
 * encoding bits, D/FS flags, base value registers and the byte-sliced
 * arrays, and classifies the operand's scalar eligibility for the reading
 * instruction's active mask M' (G-Scalar sec. 3.2, 4.1-4.3, Fig 5, 7;
 * spec shared spec blocks.md section 4). Cycle-exact model of
 * rtl/rvc_decomp.v (one registered cycle); docs/blocks/rvc.md.
 *
 * One call of rvc_decomp_step() is one rising edge of clk_i with `in`
 * applied; `out` holds the registered outputs right after that edge.
 * Payload registers load only when valid_i is 1. */
#ifndef RVC_DECOMP_H
#define RVC_DECOMP_H

#include <stdbool.h>
#include <stdint.h>

#include "blocks/rvc_comp.h"

/* Scalar-eligibility classes on cls_o. */
enum rvc_class {
    RVC_CLS_NONE = 0,            /* operand needs all lanes               */
    RVC_CLS_SCALAR = 1,          /* D = 0, enc 1111 (or half mode FS)     */
    RVC_CLS_DIV_SCALAR = 2,      /* D = 1, enc 1111, BVR == M'            */
    RVC_CLS_HALF_SCALAR = 3      /* half mode, D = 0, one half 1111       */
};

/* Verilog parameters of rtl/rvc_decomp.v, same names and defaults. */
struct rvc_decomp_cfg {
    unsigned W;                  /* lanes, even, 2..32 (default 32)       */
};

#define PORT_IN(name, bits, count)  uint32_t name[count];
#define PORT_OUT(name, bits, count)
struct rvc_decomp_in {
#include "blocks/rvc_decomp_ports.def"
};
#undef PORT_IN
#undef PORT_OUT
#define PORT_IN(name, bits, count)
#define PORT_OUT(name, bits, count) uint32_t name[count];
struct rvc_decomp_out {
#include "blocks/rvc_decomp_ports.def"
};
#undef PORT_IN
#undef PORT_OUT

/* Statistics of one decompressor instance (C side only). */
struct rvc_decomp_stats {
    uint64_t cycles;             /* edges stepped                          */
    uint64_t reads;              /* valid reads                            */
    uint64_t cls[4];             /* reads per enum rvc_class               */
    uint64_t arrays_read;        /* sum of set bits of re_o (half arrays)  */
};

struct rvc_decomp_state {
    struct rvc_decomp_cfg cfg;
    struct rvc_decomp_out r;     /* every output is a register            */
    struct rvc_decomp_stats st;
};

/* Default parameters (W = 32). */
struct rvc_decomp_cfg rvc_decomp_cfg_default(void);

/* Checks cfg and resets s; returns 0, or -1 on a bad parameter. */
int rvc_decomp_init(struct rvc_decomp_state *s,
                    const struct rvc_decomp_cfg *cfg);

/* Synchronous reset (rst_ni low for one edge): registers and stats to 0. */
void rvc_decomp_reset(struct rvc_decomp_state *s);

/* One rising edge with `in` applied; fills `out` (see the file comment). */
void rvc_decomp_step(struct rvc_decomp_state *s,
                     const struct rvc_decomp_in *in,
                     struct rvc_decomp_out *out);

/* n edges with valid_i low from any state: the same registers and
 * statistics as n rvc_decomp_step calls (valid_o clears, the payload
 * registers hold). */
void rvc_decomp_idle_edges(struct rvc_decomp_state *s, uint64_t n);

#endif
