/* The decoupling transform of decoupled affine computation (DAC, Wang and
 * Lin, ISCA 2017, Fig 7; docs/dac.md "The transform"): from the affine
 * classes of ptx_affine.h, split a kernel into an affine stream (the
 * uniform/affine instructions that compute the addresses and branch
 * predicates the main stream needs, with enq.data / enq.addr / enq.pred)
 * and a main stream (the rest, reading those operands with deq). Both
 * streams keep the CFG of the function; the record says, per
 * instruction, which stream(s) hold it and which queue operation it
 * carries. The transform is static: nothing here executes the streams. */
#ifndef PTX_DAC_H
#define PTX_DAC_H

#include <stdint.h>
#include "ptx/ptx_affine.h"
#include "ptx/ptx_ir.h"

/* Streams of an instruction (ptx_dac_inst.streams). */
#define PTX_DAC_S_AFF  0x1u   /* in the affine stream                       */
#define PTX_DAC_S_MAIN 0x2u   /* in the main stream                         */

/* Queue operation (ptx_dac_inst.q): the affine stream's copy enqueues,
 * the main stream's copy dequeues. DATA: a global/local load whose
 * address the affine stream computes and prefetches; the main stream's
 * load takes the value from the queue (deq.data). ADDR: another access
 * with an affine address; the main stream's access takes its address
 * from the queue (deq.addr). PRED: a conditional branch on a uniform or
 * affine predicate; the main stream branches on deq.pred. */
enum ptx_dac_q { PTX_DAC_Q_NONE = 0, PTX_DAC_Q_DATA, PTX_DAC_Q_ADDR, PTX_DAC_Q_PRED,
                 PTX_DAC_Q_MASK };
/* MASK (feedback of a data-dependent branch, 4.4; docs/dac.md): a
 * conditional branch on a non-affine predicate whose region holds part
 * of the affine stream. The main stream's copy branches as usual and
 * sends its warp's mask (send.mask); the affine stream's copy waits for
 * the masks of every warp it covers there and branches on them
 * (recv.mask). Opposite in direction to the other three. */

/* Why a memory access or conditional branch has no queue operation
 * (ptx_dac_inst.why; for an enq.addr load, why it is not enq.data). */
enum ptx_dac_why {
    PTX_DAC_W_NONE = 0,
    PTX_DAC_W_NONAFFINE,  /* its address or predicate is not U/A        */
    PTX_DAC_W_DATACTL,    /* under a data-dependent branch whose masks are
                             not fed back (feedback off, or a data brx)  */
    PTX_DAC_W_NOTKERNEL,  /* a .func body: the affine warp follows no call */
    PTX_DAC_W_EXIT,       /* the kernel has a ret/exit guarded by a
                             non-affine predicate outside data control:
                             nothing in it is decoupled                 */
    PTX_DAC_W_BARRIER,    /* (enq.addr load) reachable from a barrier
                             under data control or a call, which the
                             affine warp cannot see: no early fetch      */
    PTX_DAC_W_SPACE,      /* (enq.addr load) not a .global/.local load   */
    PTX_DAC_W_LOCALWR,    /* (enq.addr load) a .local load that a write to
                             local or generic memory reaches: an early
                             fetch could read the value before the write */
    PTX_DAC_W_UNSTRUCT,   /* the kernel's data-control regions have no
                             single place where the affine stream goes
                             on: nothing in it is decoupled              */
    PTX_DAC_W_COUNT
};

/* What the transform does with instruction pc (out[pc]). */
struct ptx_dac_inst {
    uint8_t streams;   /* PTX_DAC_S_*; never 0                               */
    uint8_t q;         /* enum ptx_dac_q                                     */
    uint8_t why;       /* enum ptx_dac_why                                   */
    uint8_t after_wr;  /* enq.data: a store/atom/red to global or generic
                          memory may run before it in the same thread: the
                          hardware must not hand the main stream a value
                          fetched before that write (docs/dac.md)         */
    uint8_t skip;      /* 1: the affine stream does not see it (under a
                          data branch that is not fed back, or that branch
                          itself: the affine stream goes on at resume)    */
    uint8_t sel;       /* a selp (or min/max) of the affine stream that
                          may make a select (the analysis's sel: its
                          predicate, or compare, is affine, 4.6): the
                          affine warp keeps both pieces
                          and each thread's choice. A selp on a uniform
                          predicate is a plain value (one side for every
                          thread) and has 0                               */
    uint8_t vec;       /* an instruction of the affine stream whose result
                          is a vector (the analysis's vec: a div/rem by a
                          uniform, or an affine operation on a vector):
                          the affine warp evaluates it per lane, once per
                          covered warp                                    */
    int32_t qreg;      /* the register the enq sends (the address base of
                          the access, the branch's predicate); -1: none
                          (an address that is a symbol + offset)          */
    int32_t resume;    /* skip in a decoupled kernel: where the affine
                          stream goes on, the reconvergence point of the
                          outermost data branch whose region holds it
                          (ninsts: the affine stream ends); else -1       */
};

/* Static counts of one function. */
struct ptx_dac_stats {
    uint32_t ninsts;
    uint32_t naff, nmain;           /* instructions in each stream          */
    uint32_t nboth;                 /* in both (queue ops, control, bar)    */
    uint32_t nremoved;              /* in the affine stream only: gone from
                                       the main stream                      */
    uint32_t nenq_data, nenq_addr, nenq_pred;
    uint32_t nmask;                 /* data branches fed back (MASK)        */
    uint32_t nload_gl, nload_gl_dec;/* global/local loads; enq.data         */
    uint32_t nload_after_wr;        /* enq.data with after_wr set           */
    uint32_t nmem, nmem_dec;        /* memory accesses; with a queue op     */
    uint32_t nbranch, nbranch_dec;  /* conditional branches; enq.pred       */
    uint32_t nkept[PTX_DAC_W_COUNT];/* global/local loads kept in the main
                                       stream (not enq.data), by why       */
};

/* Options of the transform. FEED: a data-dependent branch whose region
 * holds something the affine stream needs is fed back (MASK) instead of
 * skipped; aff must then come from ptx_affine_analyse_opt with
 * PTX_AFF_OPT_FEED (and without it when FEED is off). */
#define PTX_DAC_OPT_FEED 0x1u
/* With FEED: only a data-dependent branch whose region holds an enq.data
 * is fed back (the rest are skipped as without FEED). */
#define PTX_DAC_OPT_FEED_DATA 0x2u

/* Builds the transform of f (parsed, CFG built) from aff (ptx_affine_
 * analyse_opt of f) with options opts (PTX_DAC_OPT_*) into out[0..
 * ninsts-1]; st may be NULL. Deterministic, no global state. Returns 0;
 * or -1 with diag (naming the function and a PTX line) when f has a body
 * but no CFG, memory runs out, or the affine stream would need a value the
 * analysis did not class U/A (an analysis bug). A function without a body
 * gives nothing (ninsts 0). */
int ptx_dac_build_opt(const struct ptx_func *f, const struct ptx_affine_inst *aff,
                      struct ptx_dac_inst *out, struct ptx_dac_stats *st,
                      struct ptx_diag *diag, unsigned opts);

/* ptx_dac_build_opt with PTX_DAC_OPT_FEED (aff from ptx_affine_analyse). */
int ptx_dac_build(const struct ptx_func *f, const struct ptx_affine_inst *aff,
                  struct ptx_dac_inst *out, struct ptx_dac_stats *st,
                  struct ptx_diag *diag);

/* Checks the transform's invariants on out (docs/dac.md "Invariants"):
 * every queue op is on a decoupled access/branch outside data control or
 * inside the region of a fed-back data branch, every conditional branch
 * carries enq.pred or recv/send.mask or opens a region the affine stream
 * skips that holds no queue op (so both streams pass the same queue ops
 * in the same order: one enq per deq on every path), the
 * affine stream holds only U/A values, control and barriers, every
 * register an affine-stream instruction reads is defined in the affine
 * stream on every reaching definition, and every instruction gone from
 * the main stream has no remaining main-stream use. Returns 0, or -1 with
 * diag naming the first violation's PTX line. */
int ptx_dac_check(const struct ptx_func *f, const struct ptx_affine_inst *aff,
                  const struct ptx_dac_inst *out, struct ptx_diag *diag);

/* The affine stream's name of q: "enq.data", "enq.addr", "enq.pred",
 * "recv.mask" or "". */
const char *ptx_dac_enq_name(unsigned q);

/* The main stream's name of q: "deq.data", "deq.addr", "deq.pred",
 * "send.mask" or "". */
const char *ptx_dac_deq_name(unsigned q);

/* "", "nonaffine", "data-control", "not-kernel", "exit", "barrier",
 * "space", "local-write", "unstructured" for why. */
const char *ptx_dac_why_name(unsigned why);

#endif
