/* CAE, compact affine execution (Kim, Torng, Srinath, Lockhart, Batten,
 * "Microarchitectural mechanisms to exploit value structure in SIMT
 * architectures", ISCA 2013; the DAC paper's compute-bound comparison
 * point; docs/dac.md "Comparison points"), affine.mode = cae. Per warp,
 * each register's class: vector, uniform (one value in every lane) or
 * affine (lane l holds base + l x stride), detected at write-back from
 * the values the functional model wrote (never recomputed). An ALU, SFU
 * or MEM instruction whose sources are all uniform or affine, under a
 * full warp, with an op that keeps affine values affine, runs compactly:
 * one lane-cycle in its pipeline (the G-Scalar scalar-execution occupancy,
 * core_gs_ii). Values never change: timing only. */
#ifndef CORE_CAE_H
#define CORE_CAE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep.h"
#include "ptx/ptx_ir.h"

enum core_cae_cls { CORE_CAE_VEC = 0, CORE_CAE_UNI = 1, CORE_CAE_AFF = 2 };

struct simt_warp;

struct core_cae {
    bool on;
    uint8_t *cls;             /* nslots x nregs register classes            */
    uint32_t *frames;         /* per slot: the frame count cls describes    */
    unsigned nslots, nregs;
    ls_cae_stats st;
};

/* Sets up u for nslots warps of up to nregs registers (on = false when
 * nslots is 0). Returns 0, or -1 with "message [file:line]" in err. */
int core_cae_init(struct core_cae *u, unsigned nslots, unsigned nregs, char *err, size_t errlen);
/* Frees u's tables (u zeroed; a zeroed u is fine). */
void core_cae_free(struct core_cae *u);
/* A warp starts in slot: every register of it is vector (unknown). */
void core_cae_warp_start(struct core_cae *u, unsigned slot);
/* The class (enum core_cae_cls) of one register's 32 lane values v, of
 * `bits` bits (1 for a predicate), written under mask: uniform when every
 * lane is equal, affine when lane l is v[0] + l x (v[1] - v[0]) modulo
 * 2^bits; a write under a partial mask is vector (a compact register is
 * expanded on a divergent write). */
unsigned core_cae_detect(const uint64_t *v, unsigned bits, uint32_t mask);
/* The class of instruction in's result from its sources' classes src[0..n)
 * (the operands after the destinations, in order): uniform when every
 * source is uniform; affine for mov, cvta, integer add/sub/neg, mul.lo/
 * .wide and mad.lo/.wide with one uniform factor, shl by a uniform amount
 * and integer-to-integer cvt without saturation; vector otherwise (the
 * instruction runs on every lane). */
unsigned core_cae_result(const struct ptx_inst *in, const uint8_t *src, unsigned n);
/* After warp slot executed instruction pc of f (in frame `frame`; the warp
 * has w's frames) under mask active in pipeline unit (0 ALU, 1 SFU, 2 MEM,
 * other: not compactable): decides from the sources' classes whether it
 * ran compactly, then classifies its destinations from the values written,
 * and counts both. Returns true when it ran compactly. */
bool core_cae_retire(struct core_cae *u, unsigned slot, const struct simt_warp *w,
                     unsigned frame, const struct ptx_func *f, int32_t pc, unsigned unit,
                     uint32_t active);

#endif
