/* Generic lockstep checker for the RTL blocks: runs the C model and the
 * Verilated RTL on the same inputs, compares every output port every edge,
 * keeps the inputs of the last 32 cycles, and on a mismatch prints the
 * report described in tb/README.md, writes an FST window and exits 1.
 * Block-agnostic: ports are described by a table built from <blk>_ports.def. */
#ifndef TB_LOCKSTEP_H
#define TB_LOCKSTEP_H

#include <stddef.h>
#include <stdint.h>

#include "blocks/blk_port.h"   /* struct ls_port, LS_MAX_PORTS */

#ifdef __cplusplus
extern "C" {
#endif

#define LS_HIST 32                /* input cycles kept for the report     */

/* Stimulus RNG (xorshift64*), plus scratch the stimulus hook may keep. */
struct tb_rng {
    uint64_t s;
    uint64_t cycle;               /* cycle number of the call             */
    uint64_t user[8];             /* hook scratch, zero at start          */
};

/* Seeds r (seed must be non-zero) and clears cycle/user. */
void tb_rng_init(struct tb_rng *r, uint64_t seed);
/* Next 64 random bits. */
uint64_t tb_rand(struct tb_rng *r);
/* Uniform value in [0, n) (n > 0). */
uint64_t tb_below(struct tb_rng *r, uint64_t n);
/* 1 with probability num/den. */
int tb_chance(struct tb_rng *r, unsigned num, unsigned den);

/* The two models behind one checker (set up by tb/tb_main.c). */
struct ls_models {
    void *cm, *vl;
    void (*cm_reset)(void *cm);
    void (*cm_step)(void *cm, const void *in, void *out);
    void (*vl_reset)(void *vl);
    void (*vl_step)(void *vl, const void *in, void *out);
    void (*vl_trace)(void *vl, const char *fst_path); /* NULL path: close */
};

struct ls_ctx {
    const char *blk, *set;
    uint64_t seed;
    int rand_reset;
    uint64_t cycles;              /* random run length (for the replay)   */
    int directed;
    const struct ls_port *ports;
    int nports;
    size_t in_size, out_size;
    struct ls_models m;
    uint64_t cycle;               /* edges stepped since start            */
    const char *casename;
    unsigned char hist[LS_HIST][1024]; /* last inputs (in_size <= 1024)   */
    unsigned char vl_out[1024];
    int fails;                    /* failed LS_EXPECTs                    */
    /* FST window (child re-run) */
    const char *fst;
    uint64_t win_a, win_b;
    int tracing;
    int quiet;
    char replay[512];             /* the replay command line              */
    char *const *argv;            /* own argv, for the FST re-run         */
};

/* rst_ni low for one edge on both models (not counted as a cycle). */
void ls_reset(struct ls_ctx *ls);
/* One edge on both models with `in`; compares every output; `out` receives
 * the C model outputs. Does not return on a mismatch. */
void ls_step(struct ls_ctx *ls, const void *in, void *out);
/* Labels the following steps (directed case name) for messages. */
void ls_case(struct ls_ctx *ls, const char *name);
/* Records one directed expectation; prints and counts a failure. */
void ls_expect(struct ls_ctx *ls, const char *file, int line,
               const char *what, uint64_t expected, uint64_t actual);
#define LS_EXPECT(ls, exp, act) \
    ls_expect((ls), __FILE__, __LINE__, #act, (uint64_t)(exp), (uint64_t)(act))
/* Called by the driver once the run is over (closes an open FST). */
void ls_finish(struct ls_ctx *ls);

/* Prints the inputs of one in-struct as "name=0x.. name=[..]". */
void ls_print_in(const struct ls_ctx *ls, const void *in);

#ifdef __cplusplus
}
#endif
#endif
