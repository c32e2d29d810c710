/* G-Scalar's compressed register file in the running SM (G-Scalar sec.
 * 3-4; docs/gscalar.md), with the RVC compressor and decompressor blocks
 * (docs/blocks/rvc.md) clocked through the block seam (csim/cosim).
 *
 * With gscalar.compress = on, every vector-register write-back of an issued
 * instruction goes through a compressor instance with the real lane values
 * and the active mask, and the SM keeps what the hardware keeps per vector
 * register: enc/encL/encH (EBR), BVR/BVRH, the D, FS and half bits, and the
 * four byte-sliced arrays (only the bytes the write enables stored; the
 * rest keep older contents). Every operand read goes through a
 * decompressor instance fed from that state; the rebuilt register must
 * equal the functional model's value in all 32 lanes, or the run stops
 * with LS_ERR_COSIM (a model error, reported like a lockstep mismatch).
 *
 * Instances as the paper places them: one compressor per execution
 * pipeline (ALU units, then SFU, then MEM), one decompressor per operand
 * collector. Each is stepped at the GPU cycle of its transaction (the
 * instruction's issue cycle, when the model knows the values); two
 * transactions of one instance in one cycle take consecutive edges. The
 * values never feed timing: the cost of compression is the
 * gscalar.extra_latency added to result latencies, and one cycle per move
 * inserted before a divergent write to a compressed register (sec. 3.3).
 * A PTX register of 64 bits is two vector registers (low, high word);
 * predicates are not in the vector register file. */
#ifndef CORE_RVC_H
#define CORE_RVC_H

#include <stdbool.h>
#include <stdint.h>
#include "lockstep.h"
#include "simt/simt.h"

struct cosim_inst;
struct cosim_env;

/* Flags of a stored vector register. */
#define CORE_RVC_D    1u           /* written by a divergent write         */
#define CORE_RVC_FS   2u           /* half mode: both halves scalar, equal */
#define CORE_RVC_HALF 4u           /* compressed per half                  */
#define CORE_RVC_FULL 8u           /* the arrays hold every byte           */

/* One 32-bit vector register as the compressed register file holds it:
 * the encodings and flags; its arrays are in core_rvc_frame.arr. */
struct core_rvc_vreg {
    uint32_t bvr, bvrh;            /* BVR (D = 1: the compared mask), BVRH  */
    uint8_t enc, encl, ench;       /* EBR                                  */
    uint8_t flags;                 /* CORE_RVC_*                           */
    uint8_t wc;                    /* Warped-Compression: arrays the register
                                      holds (1..8; statistics only)        */
};

/* The vector registers of one call frame of one warp slot, dense: a
 * predicate has none, a 32-bit register one, a 64-bit register two (low,
 * high word) in consecutive entries, in PTX register order (ix). The
 * arrays are kept apart from the encodings (a read or write that needs no
 * array byte, a scalar, touches only the dense encodings) in 64-byte-
 * aligned rows. */
struct core_rvc_frame {
    struct core_rvc_vreg *v;       /* cap entries                          */
    uint32_t (*arr)[32];           /* arr[i][l]: byte b of lane l of vector
                                      register i is in array b (of the
                                      lane's half), shown lane by lane     */
    uint32_t cap;                  /* entries allocated                    */
    uint32_t nregs;                /* PTX registers of the frame's function */
    const uint32_t *ix;            /* ix[r]: entry of PTX register r's low
                                      word (core_rvc.maps)                 */
};

/* The entries of one function's PTX registers in a frame (ix of
 * core_rvc_frame), made at a frame's start, kept for the kernel. */
struct core_rvc_map {
    const struct ptx_func *f;
    uint32_t *ix;                  /* f->nregs entries                     */
};

struct core_rvc {
    bool on;                       /* register state kept: gscalar.compress,
                                      gscalar.scalar != off or gscalar.stats */
    bool blocks;                   /* gscalar.compress: the RVC instances;
                                      else the encodings in C (no arrays)  */
    unsigned scalar;               /* gscalar.scalar: CFG_GSCALAR_SCALAR_* */
    bool half;                     /* gscalar.granularity = 16             */
    /* the sources of the instruction in issue (core_gscalar.c) */
    bool src_full, src_div;        /* every source scalar; scalar or
                                      divergent-scalar for the mask        */
    unsigned src_halves;           /* halves scalar in every source        */
    unsigned sm;
    unsigned ncomp, ndecomp;
    unsigned comp_base[3];         /* first compressor of ALU, SFU, MEM    */
    struct cosim_inst *comp;       /* ncomp instances                      */
    struct cosim_inst *decomp;     /* ndecomp instances                    */
    /* the ports' values at each instance's last transaction (NULL unless
     * core_rvc_count_toggles): the switching activity at the seam */
    struct rvc_comp_in *cin;
    struct rvc_comp_out *cout;
    struct rvc_decomp_in *din;
    struct rvc_decomp_out *dout;
    uint64_t t0;                   /* GPU cycle of the instances' edge 0   */
    const char *kernel;
    unsigned nslots;
    /* [frame * nslots + slot]: the slots' first frames, which nearly
     * every access uses, side by side in a few pages */
    struct core_rvc_frame *fr;
    uint32_t bvr_e;                /* BVR access energy, millionths of a
                                      vector-register access               */
    struct core_rvc_map *maps;     /* the functions of this kernel's frames */
    unsigned nmaps, maps_cap;
    ls_gscalar_stats st;           /* this kernel's figures                */
    char *why;                     /* failure report (malloc'd) or NULL    */
};

/* Call frame `frame` of warp slot `slot` (the layout of core_rvc.fr). */
static inline struct core_rvc_frame *core_rvc_frame_of(const struct core_rvc *u,
                                                       unsigned slot, unsigned frame)
{
    return &u->fr[(size_t)frame * u->nslots + slot];
}

/* Creates the unit of SM sm: ncomp compressors (alu, sfu, mem pipelines
 * in that order, comp_units[u] of each), ndecomp decompressors, W = 32,
 * per-register state for nslots warp slots; half: 16-lane granularity;
 * bvr_energy: a BVR access relative to a vector-register access.
 * Off (on = false): no instance, every call is a no-op. Returns 0 or -1
 * with err. */
int core_rvc_init(struct core_rvc *u, struct cosim_env *env, bool on,
                  unsigned sm, const unsigned comp_units[3], unsigned ndecomp,
                  bool half, unsigned nslots, double bvr_energy, char *err,
                  size_t n);
/* Counts, from now on, the port bits that change between consecutive
 * transactions of each block instance (rvc_*_toggles, rvc_*_txns of the
 * statistics; gscalar.stats). A unit without instances counts nothing.
 * Returns 0 or -1 with err. */
int core_rvc_count_toggles(struct core_rvc *u, char *err, size_t n);
/* Creates the unit of SM sm without block instances (gscalar.compress =
 * off with gscalar.scalar or gscalar.stats on): the encodings a compressor
 * would give each write, computed in C, for scalar eligibility and the
 * statistics; the register file itself is the uncompressed baseline.
 * Returns 0 or -1 with err. */
int core_rvc_init_track(struct core_rvc *u, unsigned sm, bool half,
                        unsigned nslots, char *err, size_t n);
/* Frees the unit. */
void core_rvc_free(struct core_rvc *u);
/* Resets the instances and statistics for a kernel starting at now. */
void core_rvc_kernel(struct core_rvc *u, const char *kernel, uint64_t now);
/* Frame `frame` of slot starts with the zeroed PTX registers of function
 * f (a warp's launch, a call): each is a compressed scalar zero. Returns
 * 0 or LS_ERR_NOMEM with u->why set. */
int core_rvc_frame_start(struct core_rvc *u, unsigned slot, unsigned frame,
                         const struct ptx_func *f);
/* Before the instruction at pc of f (call frame `frame` of slot)
 * executes with active mask `mask` (its lanes after the guard) at GPU
 * cycle now: each vector register of its sources src[0..nsrc-1] is read
 * through decompressor `coll` and must rebuild w's values in all lanes.
 * Returns 0, or LS_ERR_COSIM with u->why (a mismatch or a model error). */
int core_rvc_read(struct core_rvc *u, const struct simt_warp *w,
                  unsigned slot, unsigned frame, const struct ptx_func *f,
                  int32_t pc, const int32_t *src, unsigned nsrc, uint32_t mask,
                  unsigned coll, uint64_t now);
/* After that instruction wrote dst[0..ndst-1] under mask `active`: each
 * vector register's write-back through the compressor of pipeline `unit`
 * (0 ALU, 1 SFU, 2 MEM; index unit_ix; any other unit uses the first ALU
 * compressor). A divergent write to a compressed register first inserts a
 * move (a read through decompressor `coll`, a raw store); *moves counts
 * them. Returns 0, or LS_ERR_COSIM / LS_ERR_INTERNAL with u->why. */
int core_rvc_write(struct core_rvc *u, const struct simt_warp *w,
                   unsigned slot, unsigned frame, const struct ptx_func *f,
                   int32_t pc, const int32_t *dst, unsigned ndst,
                   uint32_t active, int unit, int unit_ix, unsigned coll,
                   uint64_t now, unsigned *moves);
/* Starts loading the stored state (encodings, arrays) of PTX registers
 * src[0..nsrc-1] and dst[0..ndst-1] of call frame `frame` of slot into the
 * host's caches, for the reads and write that come later; changes
 * nothing. */
void core_rvc_prefetch(const struct core_rvc *u, unsigned slot, unsigned frame,
                       const int32_t *src, unsigned nsrc, const int32_t *dst,
                       unsigned ndst);
/* Kernel end at GPU cycle end: every instance is clocked through the edge
 * of cycle end - 1. */
int core_rvc_finish(struct core_rvc *u, uint64_t end);
/* Adds this kernel's figures into s (ls_stats.cosim and .gscalar). */
void core_rvc_stats(const struct core_rvc *u, ls_stats *s);

#endif
