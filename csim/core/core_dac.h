/* Decoupled affine computation in the SM timing model (affine.mode = dac;
 * Wang and Lin, ISCA 2017; docs/dac.md "The hardware"): one affine warp
 * per SM runs the affine stream of ptx_dac.h once per batch of waiting
 * CTAs, its enq operations push tuples into the Affine Tuple Queue, the
 * Address and
 * Predicate Expansion Units turn each tuple into per-warp records in
 * per-warp queues (enq.data also prefetches the lines and locks them), and
 * the main warps skip the instructions removed from their stream and take
 * each decoupled operand from their queue (deq), stalling while it is
 * empty or its data has not arrived. Every record is checked against the
 * address / branch outcome the functional model used: a difference is a
 * model error, never ignored. Architectural values are always the
 * functional model's (simt_step); this layer only decides timing. */
#ifndef CORE_DAC_H
#define CORE_DAC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lockstep.h"
#include "cfg/cfg.h"
#include "ptx/ptx_dac.h"
#include "simt/simt.h"

#define CORE_DAC_MAXS 64            /* warp slots per SM (= CORE_MAX_SLOTS) */
#define CORE_DAC_TAG_SLOT 0xffffu   /* memory tag slot field of a prefetch */
#define CORE_DAC_MAXFETCH 256       /* prefetch records in flight (tag byte) */
#define CORE_DAC_MAXP 8             /* affine-warp pass contexts (dac.passes) */
/* Main-warp global/local loads not served by a prefetch (gl_kept[]): the
 * transform's reasons (enum ptx_dac_why) first, then the enq.data loads
 * whose lines are fetched at their deq: after a possible same-thread
 * store (dac.prefetch_after_write off), or otherwise not prefetched (a
 * lock refused, a .local window). The JSON names: stats.def gl_kept. */
#define CORE_DAC_KEPT_AFTER_WR PTX_DAC_W_COUNT
#define CORE_DAC_KEPT_UNSERVED (PTX_DAC_W_COUNT + 1)
#define CORE_DAC_KEPT_N (PTX_DAC_W_COUNT + 2)

/* One per-warp queue record (the AEU/PEU output for one warp). */
struct core_dac_rec {
    int32_t pc;                 /* the instruction whose deq consumes it   */
    uint8_t kind;               /* enum ptx_dac_q                          */
    uint8_t locked;             /* DATA: lines prefetched and locked       */
    uint16_t nlines;            /* DATA: lines locked                      */
    uint32_t mask;              /* lanes the affine warp enqueued for      */
    uint32_t pred;              /* PRED: lanes whose predicate holds       */
    uint32_t left;              /* DATA: prefetch responses outstanding    */
    uint32_t slot;              /* the warp slot whose queue holds it      */
    uint64_t ready;             /* cycle the record is in the queue        */
    uint64_t addr[32];          /* DATA/ADDR: per-lane address             */
    uint64_t lines[32];         /* DATA, locked: the nlines line addresses */
};

/* A ring of records (one per warp and kind). */
struct core_dac_q {
    struct core_dac_rec *r;
    uint32_t head, n, cap;
};

/* One record of a per-warp mask queue: what a main warp sends at a
 * data-dependent branch the affine warp follows (send.mask, paper 4.4). */
struct core_dac_mrec {
    int32_t pc;                 /* the branch                              */
    uint32_t mask;              /* lanes of the warp at the branch         */
    uint32_t taken;             /* of those, the lanes that branch         */
};

/* A ring of mask records (one per warp slot). */
struct core_dac_mq {
    struct core_dac_mrec *r;
    uint32_t head, n, cap;
};

/* One Affine Tuple Queue entry: what one enq sends to the expansion
 * units. For an access, per CTA of the batch, the address at the four
 * basis threads (tid 0, e_x, e_y, e_z): base = v[0], stride_i = v[i] -
 * v[0] (the per-CTA accumulators of 4.2 hold these); for a predicate the
 * PEU input is the compare, which the affine warp's PEU evaluated into
 * per-thread masks at the setp (pred[]). */
struct core_dac_tuple {
    int32_t pc;
    uint8_t kind;               /* enum ptx_dac_q                          */
    uint8_t data;               /* DATA that prefetches (not after_wr)     */
    uint8_t abytes;             /* bytes per lane of the access            */
    uint64_t pend;              /* warp slots whose records are still to
                                   be expanded (bit per slot)              */
    uint64_t ctas;              /* CTA slots of the batch (bit per slot)   */
    uint64_t (*v)[4];           /* per CTA slot: the address at the basis  */
    uint64_t (*v2)[4];          /* sel: piece B of the address             */
    uint8_t sel;                /* the address is a selected value: a lane
                                   whose bit in smask is clear takes v2   */
    uint32_t mask[CORE_DAC_MAXS];   /* per warp slot: lanes enqueued for   */
    uint32_t smask[CORE_DAC_MAXS];  /* sel: per warp slot, lanes taking v  */
    uint32_t pred[CORE_DAC_MAXS];   /* PRED: lanes whose predicate holds   */
    uint64_t vslots;            /* warp slots whose lanes take their address
                                   from vv (a vector address, docs/dac.md) */
    uint64_t *vv;               /* per warp slot, 32 lane addresses        */
    uint32_t bar[CORE_DAC_MAXS];    /* per warp slot: barriers of the affine
                                   stream the affine warp passed for it
                                   before this enq (dac.barrier_fetch)    */
};

/* One entry of the affine warp's batch-wide SIMT stack (4.4): a mask per
 * warp slot of the SM. */
struct core_dac_ent {
    uint32_t m[CORE_DAC_MAXS];
    int32_t npc, rpc;
};

/* One pass context of the affine warp: the affine stream run once for a
 * batch of CTAs (its SIMT stack, its scoreboard, its selected registers).
 * The loaded one lives in the core_dac fields of the same names. */
struct core_dac_pass {
    struct core_dac_ent *stk;
    uint32_t sp;
    uint64_t batch;             /* its CTA slots                           */
    bool run;
    uint64_t *rr;
    uint8_t *pa;
    uint64_t ready, mask_since;
    bool atq_blocked, mask_blocked;
    uint64_t seq;               /* start order                             */
};

struct core_dac_stats {
    uint64_t launches, not_decoupled;
    uint64_t batches;           /* affine-warp passes (batches of CTAs)    */
    uint64_t batch_ctas;        /* CTAs run by the affine warp             */
    uint64_t aff_insts;         /* affine-warp instructions issued         */
    uint64_t main_insts;        /* main-warp instructions issued (decoupled
                                   kernels)                                */
    uint64_t removed;           /* main-warp instructions skipped (not in
                                   the main stream)                        */
    uint64_t tuples;            /* ATQ pushes                              */
    uint64_t rec_addr, rec_data, rec_pred; /* per-warp records expanded    */
    uint64_t gl_loads;          /* global/local load warp instructions of
                                   main warps (decoupled kernels)          */
    uint64_t gl_served;         /* of those, served by enq.data            */
    uint64_t gl_kept[CORE_DAC_KEPT_N]; /* of those, not served: by the
                                   transform's reason (enum ptx_dac_why,
                                   PTX_DAC_W_NONE: none given), then
                                   enq.data loads fetched at their deq    */
    uint64_t peu_uniform, peu_two, peu_full; /* PEU records by case        */
    uint64_t stall_enq_full;    /* affine-warp cycles: ATQ full            */
    uint64_t stall_aw_dep;      /* affine-warp cycles waiting on a source
                                   tuple still in the ALU pipeline         */
    uint64_t stall_aeu_full;    /* AEU/PEU cycles: target warp queue full  */
    uint64_t stall_aeu_bar;     /* AEU/PEU cycles: every candidate held for
                                   a barrier (dac.barrier_fetch)           */
    uint64_t stall_deq_empty;   /* main-warp checks refused: queue empty   */
    uint64_t stall_deq_data;    /* ... record there, data not arrived      */
    uint64_t occ_sum;           /* records in per-warp queues x cycles     */
    uint64_t occ_max;
    uint64_t atq_sum;           /* ATQ entries x cycles                    */
    uint64_t locked_sum;        /* locked L1 lines x cycles                */
    uint64_t locked_max;
    uint64_t lock_refused;      /* enq.data records over dac.lock_lines:
                                   not prefetched, the main load fetches   */
    uint64_t prefetch_lines;    /* line requests sent by the AEU           */
    uint64_t cycles;            /* cycles the occupancy sums cover         */
    uint64_t checked_addr, checked_pred; /* golden checks passed           */
    uint64_t widen_checks;      /* widening instructions checked exact     */
    uint64_t rec_mask;          /* masks the main warps sent (send.mask)   */
    uint64_t checked_mask;      /* of those, received by the affine warp
                                   and checked against its own lanes      */
    uint64_t mask_dropped;      /* ... left by a warp that finished first
                                   (the affine warp no longer needed them) */
    uint64_t stall_aw_mask;     /* affine-warp cycles waiting for masks    */
    uint64_t stall_mask_full;   /* main-warp checks refused: mask queue
                                   full                                    */
    uint64_t peu_ops;           /* PEU bit-vector operations combining
                                   predicates, one per warp               */
    uint64_t stall_aw_pipe;     /* affine-warp cycles waiting for a free
                                   ALU/SFU pipeline (the SIMT lanes')     */
    uint64_t cta_wait;          /* CTA-cycles from a CTA's arrival to the
                                   start of the pass that takes it        */
    uint64_t passes_max;        /* most passes in flight at once           */
    uint64_t ctas;              /* CTAs this SM ran in the launch          */
    uint64_t wr_hazards;        /* prefetched records whose lines a store of
                                   the same warp wrote before their deq    */
    uint64_t vec_issues;        /* vector instructions the affine warp
                                   issued, one per covered warp           */
    uint64_t vec_lanes;         /* ... lanes they computed                 */
};

struct core_view;
struct core_mech_ops;

/* The DAC unit of one SM. */
struct core_dac {
    bool on;                    /* affine.mode = dac                       */
    bool active;                /* the current kernel is decoupled         */
    unsigned atq_cap, aq_cap, pq_cap, mq_cap, aeu_cycles, peu_cycles, lock_lines;
    /* the per-set bound (4.2, N-1 of an N-way set): per L1D set, the
       lines this SM's records hold locked and how many records hold each
       (slk_ways = assoc - 1 entries per set; none without an L1D) */
    unsigned slk_sets, slk_ways, slk_line;
    int slk_index;              /* l1d_set_index: the L1D's set function   */
    uint64_t *slk_addr;
    uint32_t *slk_refs;
    unsigned batch_max;         /* dac.batch_ctas (0: every pending CTA)   */
    unsigned npass;             /* dac.passes: pass contexts               */
    unsigned cur;               /* the pass loaded in the fields below     */
    uint64_t pass_seq;
    struct core_dac_pass ps[CORE_DAC_MAXP];
    uint64_t *arrive;           /* per CTA slot: the cycle it arrived      */
    uint64_t cmask[CORE_DAC_MAXS];  /* per CTA slot: its warp slots (bits) */
    bool aeu_switch;            /* dac.aeu_switch: per-CTA accumulators    */
    bool atq_split;             /* dac.atq_split: an ATQ share per pass    */
    bool deq_issue;             /* dac.deq_data=issue: no wait for lines   */
    struct core_dac_rec *orphan; /* deq_issue: per fetch slot, the lines of
                                    a record dequeued before they arrived */
    bool pf_after_wr;           /* dac.prefetch_after_write                */
    bool bar_wait;              /* dac.barrier_fetch=wait                  */
    uint32_t sbar[CORE_DAC_MAXS];   /* per warp slot: barriers of the
                                   affine stream its warp passed          */
    uint32_t abar[CORE_DAC_MAXS];   /* per warp slot: those the affine warp
                                   passed with lanes of it active         */
    uint8_t sbar_at[CORE_DAC_MAXS]; /* per warp slot: waiting at one       */
    unsigned fault;             /* dac.fault_inject: corrupt tuples (tests) */
    const struct ptx_dac_inst *tr;  /* transform of the kernel (kernel pcs) */
    const struct ptx_func *f;
    /* per-warp queues, by warp slot */
    struct core_dac_q *aq, *pq;
    struct core_dac_mq *mq;     /* mask queues (main -> affine warp)       */
    uint32_t nslots;
    /* ATQ */
    struct core_dac_tuple *atq;
    uint64_t (*atq_v)[4];       /* atq_cap x ncta basis addresses          */
    uint64_t (*atq_v2)[4];      /* ... of piece B of a selected address    */
    uint32_t atq_head, atq_n;
    uint64_t aeu_free;          /* cycle the AEU/PEU takes the next warp   */
    /* batches: CTA slots in launch order, and each CTA's warp slots */
    int32_t *pend; uint32_t pend_head, pend_n, pend_cap;
    uint32_t ncta;
    uint8_t (*wslot)[32];       /* per CTA slot: its warps' slots          */
    int16_t scta[CORE_DAC_MAXS];    /* per warp slot: its CTA slot (-1: none;
                                       = sm->w[].cta, kept here for the AEU) */
    uint8_t swi[CORE_DAC_MAXS];     /* per warp slot: its warp in the CTA   */
    bool *cta_done;             /* affine warp finished that CTA slot      */
    /* the affine warp */
    bool aw_run;                /* a batch in progress                     */
    uint64_t batch;             /* its CTA slots (bit per slot)            */
    struct simt_warp *bw;       /* per CTA slot: basis lanes tid 0, e_x,
                                   e_y, e_z of that CTA; then, per CTA
                                   slot again (bw[ncta + ci]), the same
                                   lanes holding piece B of every selected
                                   value (a register of pa[])             */
    uint8_t *pa;                /* per register: holds a selected value
                                   p ? x : y of two tuples (selp on an
                                   affine predicate, 4.6): piece A (x) in
                                   bw[ci], piece B (y) in bw[ncta + ci],
                                   per warp the lanes taking A in pm[]    */
    struct core_dac_ent *stk; uint32_t sp, stk_cap;
    uint32_t *pm;               /* per predicate register, per warp: mask  */
    uint64_t *rr;               /* affine warp's scoreboard: per register,
                                   the cycle its tuple is ready            */
    uint32_t pm_regs;
    /* vectors (docs/dac.md "vector"): per register, its index among the
     * registers a vector instruction of the kernel writes (-1: none); per
     * index, the warp slots whose lanes it holds (vr) and, per warp slot,
     * the 32 lanes (vv); the ATQ's vector addresses (atq_vv, per entry
     * CORE_DAC_MAXS x 32); bw[2 ncta] is the scratch warp that runs a
     * vector instruction on a covered warp's lanes */
    int32_t *vix;
    uint32_t vix_regs, nvreg, vv_cap;
    uint64_t *vr, *vv, *atq_vv;
    uint64_t aw_ready;
    bool aw_atq_blocked;        /* the affine warp's enq found the ATQ full */
    bool aw_mask_blocked;       /* the affine warp waits for fed-back masks */
    uint64_t aw_mask_since;     /* ... since this cycle                    */
    bool aeu_blocked;           /* the AEU/PEU waits for a queue, not time  */
    uint64_t next_ready;        /* earliest ready cycle of the records
                                   expanded this cycle                     */
    /* prefetches in flight */
    struct core_dac_rec *fetch[CORE_DAC_MAXFETCH];
    uint32_t nfetch;
    uint32_t locked;            /* L1 lines locked now                     */
    uint64_t last_sample;
    struct core_dac_stats st;
    char why[512];              /* a model error (golden check failed)     */
    uint32_t why_line;          /* its PTX line                            */
    uint8_t skip_err;           /* a removed instruction faulted (err_slot) */
    int32_t skip_slot, skip_pc; /* core_dac_skip's last slot and the pc it
                                   left it at, for the core_dac_check that
                                   follows (-1: none)                      */
    /* main warps asleep on a deq stall (bit per warp slot; sm->wake holds
     * the cycle the check's answer can change): the scheduler counts each
     * visit of a sleeping warp as the stall its check would have counted,
     * so the statistics do not depend on the sleep ("Speed") */
    uint64_t wait_empty;        /* queue empty: woken by a push to it      */
    uint64_t wait_data;         /* head record's data not there: woken at
                                   its ready cycle or by its last response */
    uint64_t wait_mask;         /* at a fed-back branch, its mask queue
                                   full: woken when the affine warp pops  */
    uint64_t passed;            /* per warp slot: core_dac_check passed it
                                   and it has not issued since (the answer
                                   stands: only its own issue moves it)    */
    uint32_t nrec;              /* records in all per-warp queues          */
    /* the instruction in issue (dac_before): its kernel pc (-1: none), its
     * stack mask and guard mask before it ran */
    int32_t is_pc;
    uint32_t is_mask, is_gmask;
    struct core_view *v;        /* its SM                                  */
};

/* The DAC mechanism of the SM (core_mech.h; its hooks and unit functions
 * are in core_dac.c). */
extern const struct core_mech_ops core_dac_mech;

#endif
