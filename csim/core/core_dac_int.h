/* Internal interface of the DAC engine between csim/core/core_dac.c (the
 * affine warp, the pass contexts, the SM mechanism), core_dac_tuple.c (the
 * affine warp's execution on the basis lanes), core_dac_warps.c (the
 * main warps) and core_dac_eu.c (the Address and Predicate Expansion Units
 * and the per-cycle step). */
#ifndef CORE_DAC_INT_H
#define CORE_DAC_INT_H

#include <stdbool.h>
#include <stdint.h>
#include "core/core.h"
#include "core/core_dac.h"

/* The tid of lane of warp wi of a CTA of the kernel. */
static inline void core_dac_tid(const struct core_kernel *k, unsigned wi, unsigned lane,
                       uint32_t tid[3])
{
    unsigned t = wi * EXEC_WARP + lane;
    tid[0] = t % k->ntid[0];
    tid[1] = (t / k->ntid[0]) % k->ntid[1];
    tid[2] = t / (k->ntid[0] * k->ntid[1]);
}

/* Value at tid of the tuple given by its values v[0..3] at the basis
 * lanes (tid 0, e_x, e_y, e_z), modulo 2^bits. */
static inline uint64_t core_dac_tup_at(const uint64_t v[4], const uint32_t tid[3], unsigned bits)
{
    uint64_t r = v[0] + (v[1] - v[0]) * tid[0] + (v[2] - v[0]) * tid[1] +
                 (v[3] - v[0]) * tid[2];
    return bits < 64 ? r & ((1ull << bits) - 1) : r;
}

/* Records d's first failure (a golden-check or invariant message at PTX
 * line), printf-style; later ones are dropped. */
void core_dac_fail(struct core_dac *d, uint32_t line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The pass context j of d as it stands (the live one or its saved copy). */
struct core_dac_pass core_dac_pass_view(const struct core_dac *d, unsigned j);
/* Wakes the main warps that waited for their CTA's records to drain. */
void core_dac_wake_done_ctas(struct core_dac *d);
/* Drops one of this SM's lock references of L1D line la (the per-set
 * bound of 4.2; core_dac_eu.c). */
void core_dac_slk_drop(struct core_dac *d, uint64_t la);
/* Saves the loaded pass context into d->ps[d->cur]. */
void core_dac_pass_save(struct core_dac *d);
/* Whether some pass waits for fed-back masks. */
bool core_dac_mask_blocked(const struct core_dac *d);
/* Main warp slot: executes functionally the instructions removed from the
 * main stream at its next pc. Returns 0 or an ls_status. */
int core_dac_skip(struct core_dac *d, unsigned slot);
/* Where warp slot is, for messages, into buf (n bytes). */
void core_dac_warp_where(const struct core_dac *d, unsigned slot, char *buf, size_t n);
/* Whether main warp slot may issue at now (CORE_ST_* why not, *when: the
 * cycle to try again). */
int core_dac_check(struct core_dac *d, unsigned slot, uint64_t now, uint64_t *when);
/* Main warp slot retires the instruction at pc: dequeues and checks its
 * records (1: a load served from a locked line, 0, -1: model error). */
int core_dac_deq(struct core_dac *d, unsigned slot, int32_t pc, uint32_t mask,
                 uint32_t gmask, uint64_t now);
/* Main warp slot leaves: its queues must be empty (else d->why). */
int core_dac_leave(struct core_dac *d, unsigned slot);
/* One cycle of the expansion units at now. */
void core_dac_cycle(struct core_dac *d, uint64_t now);
/* The next cycle after now at which the units have work (UINT64_MAX: none). */
uint64_t core_dac_next(const struct core_dac *d, uint64_t now);
/* A prefetch response for request ix arrived at now. */
void core_dac_resp(struct core_dac *d, unsigned ix, uint64_t now);
/* d's state in one line into buf (n bytes); returns its length. */
int core_dac_describe(const struct core_dac *d, char *buf, size_t n);
/* Sets up basis warp ix of the affine warp (CTA slot ix % ncta; piece B
 * of selected values when ix >= ncta). Returns 0 or -1 (d->why). */
int core_dac_basis_start(struct core_dac *d, uint32_t ix);
/* Per warp slot, the lanes where instruction in's guard holds (the PEU
 * vectors of its guard register) into m. */
void core_dac_guard_masks(const struct core_dac *d, const struct ptx_inst *in, uint32_t *m);
/* Runs affine-stream instruction pc on the basis lanes of every CTA of the
 * batch under the lanes am (selected values: 4.6). Returns 0 or -1. */
int core_dac_basis_exec(struct core_dac *d, int32_t pc, const struct ptx_inst *in,
                        const struct core_dinst *cd, const uint32_t *am);
/* The PEU's per-thread vectors of the predicates in defines, merged under
 * am. Returns 0 or -1 (d->why: not modelled). */
int core_dac_pred_def(struct core_dac *d, const struct ptx_inst *in, const uint32_t *am);
/* The exactness check of a widening cvt/mul.wide/mad.wide under am for
 * every thread of the batch. Returns 0 or -1 (d->why). */
int core_dac_widen_check(struct core_dac *d, const struct ptx_inst *in, const uint32_t *am);
/* Runs vector instruction pc (tr[pc].vec) of the affine stream on the
 * lanes am of every covered warp: its sources' lanes (vectors, tuples
 * expanded by function (1), selects by their masks) into the scratch
 * warp, the operation per lane, the result into the destination's vector.
 * *nissue: the warps it covered. Returns 0 or -1 (d->why). */
int core_dac_vec_exec(struct core_dac *d, int32_t pc, const struct ptx_inst *in,
                      const struct core_dinst *cd, const uint32_t *am, unsigned *nissue);
/* The lanes of vector register reg of warp slot w, or NULL when that
 * warp's value of reg is not a vector. */
const uint64_t *core_dac_vec_lanes(const struct core_dac *d, int32_t reg, unsigned w);
/* Adds d's statistics to s (first: the first SM of the launch). */
void core_dac_stats(const struct core_dac *d, bool first, ls_stats *s);

#endif
