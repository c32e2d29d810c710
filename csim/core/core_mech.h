/* The SM's mechanism interface (docs/architecture.md "How to add a
 * mechanism"). A mechanism is a table of hooks (struct core_mech_ops) the
 * SM calls at fixed points of a cycle; it sees the SM only through a
 * struct core_view (the warps, the CTAs, the kernel, the pipelines, the
 * memory queue and the schedulers' wake state), never through struct
 * core_sm, and never another mechanism's state.
 *
 * Two kinds stack on the SM:
 *  - a stepper decides how threads are grouped into warps and how a warp
 *    moves (the base per-warp stack when none is on; thread-block
 *    compaction, dual-path execution, warp subdivision): at most one per
 *    kernel, and a kernel it cannot run exactly falls back to the base
 *    stack (its kernel hook says why);
 *  - augmenters add work around the base issue (G-Scalar's compressed
 *    register file, CAE, DAC's affine warp, PCA's request priority, the
 *    SLP unit): any number, called in table order (core_mech.def).
 *
 * issue() reads: operand hooks (before), the stepper (step), retire hooks
 * (retire), then the pipeline timing the record (struct core_issue) says.
 * Every hook may be NULL: the SM's base behaviour stands. */
#ifndef CORE_MECH_H
#define CORE_MECH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/core.h"

struct cosim_env;

enum core_mech_kind { CORE_MECH_AUGMENT, CORE_MECH_STEPPER };


/* What a mechanism's init gets. */
struct core_mech_env {
    const struct cfg *c;
    unsigned sm;                /* SM id                                  */
    unsigned nslots, ncta;      /* warp slots, CTA slots                  */
    uint32_t max_depth;         /* reconvergence stack depth              */
    struct cosim_env *cosim;    /* the block seam; NULL: no block instances
                                   (unit tests of a bare SM)              */
};

/* Where an instruction sits before it runs: function, call frame, pc and
 * the threads of the warp at it (f NULL: the warp has none). */
struct core_where {
    const struct ptx_func *f;
    unsigned frame;
    int32_t pc;
    uint32_t mask;
};

/* One register-file row an instruction reads and writes: the warp slot
 * whose registers hold its threads and their lanes (after the guard).
 * The base stack has one row per instruction; a compacted warp one per
 * home warp it draws threads from. */
struct core_row {
    uint8_t slot;
    uint32_t mask;
};

#define CORE_MAX_ROWS 32

/* The retire record of one issue: the core fills the instruction and its
 * place, the stepper its outcome, the augmenters their effect on timing
 * and energy; the core's pipeline timing and energy count read it. */
struct core_issue {
    unsigned slot;
    const struct core_dinst *di;
    int unit_ix;                /* pipeline it issues to (-1: none)       */
    unsigned coll;              /* its operand collector                  */
    uint64_t now;
    struct core_where at;       /* before it runs (valid when needed:
                                   a memory instruction or a hook asks)  */
    uint32_t nframes;           /* the warp's call frames before it ran   */
    /* register-file rows (core_sm fills them for augmenters that asked:
     * ops.rows) and whether they are a compacted warp's (merged: the rows
     * are its home warps, read and written with the lanes before it ran) */
    unsigned nrows;
    bool merged;
    struct core_row row[CORE_MAX_ROWS];
    /* the stepper's outcome */
    int rc;                     /* enum simt_rc of the step               */
    uint64_t done;              /* slots whose warp finished (bit each)   */
    /* the augmenters' effect */
    unsigned moves;             /* issue cycles inserted ahead of it      */
    unsigned ii;                /* pipeline occupancy (0: the unit's)     */
    bool compact;               /* CAE: operands as affine tuples         */
    bool deq_addr;              /* DAC: its address came from a queue     */
    bool served;                /* DAC: its lines were prefetched and
                                   locked: each access releases a lock    */
};

/* A mechanism: its hooks (any may be NULL). self is what init made. */
struct core_mech_ops {
    const char *name;
    enum core_mech_kind kind;
    /* whether config c turns it on (an SM then creates it) */
    bool (*on)(const struct cfg *c);
    /* the opcodes a stepper cannot run exactly: why instruction pc of f
     * cannot, or NULL (core_mech_refusal walks a kernel with it) */
    const char *(*refuse)(const struct cfg *c, const struct ptx_func *f, uint32_t pc);

    /* ---- lifetime */
    /* creates it on the SM whose view is v (it may offer a service there:
     * v->prio, v->lane_map, v->wb_lat) */
    int (*init)(void **self, struct core_view *v, const struct core_mech_env *e,
                char *err, size_t n);
    void (*free)(void *self);
    /* once per launch, before any SM: launch-wide data of kernel f (into
     * *data, NULL: none), freed by unprepare; an error names a PTX line */
    int (*prepare)(const struct cfg *c, const struct ptx_func *f, void **data,
                   char *err, size_t n, uint32_t *line);
    void (*unprepare)(void *data);
    /* a kernel starts on the SM at now: 1 it runs this kernel, 0 it stands
     * by (a stepper: the base stack runs it; reason in its statistics),
     * -1 host memory */
    int (*kernel)(void *self, struct core_view *v, uint64_t now);
    /* its figures for the launch into s (first: the SM that reports the
     * launch-wide fields) */
    void (*stats)(const void *self, bool first, ls_stats *s);
    /* kernel end at GPU cycle end (blocks clocked through and drained):
     * 0 or an ls_status */
    int (*finish)(void *self, uint64_t end);
    /* the failure behind status e, or NULL; *line: its PTX line (0: the
     * kernel's) */
    const char *(*why)(const void *self, int e, uint32_t *line);
    /* its state for a deadlock report: characters written */
    int (*describe)(const void *self, const struct core_view *v, char *buf, size_t n);

    /* ---- residency */
    /* warp slot starts (threads valid) at now; 0 or an ls_status */
    int (*warp_start)(void *self, struct core_view *v, unsigned slot, uint32_t valid,
                      uint64_t now);
    /* CTA slot ci is resident, its warps in slots wslot[0..nwarps) */
    void (*cta_start)(void *self, struct core_view *v, unsigned ci, const uint8_t *wslot,
                      unsigned nwarps, uint64_t now);
    /* a finished warp leaves slot at now */
    void (*warp_leave)(void *self, struct core_view *v, unsigned slot, uint64_t now);

    /* ---- the cycle */
    /* before the schedulers at now: 0 or an ls_status that stops the SM */
    int (*cycle)(void *self, struct core_view *v, uint64_t now);
    /* scheduler sched's issue slot at now: 1 the mechanism issued in it,
     * 0 not, < 0 an ls_status negated */
    int (*claim)(void *self, struct core_view *v, unsigned sched, uint64_t now);
    /* after the schedulers: 0 or an ls_status */
    int (*cycle_end)(void *self, struct core_view *v, uint64_t now);
    /* the next cycle after now at which it has work (UINT64_MAX: none) */
    uint64_t (*next)(const void *self, uint64_t now);
    /* a memory response: true when it is the mechanism's (consumed) */
    bool (*resp)(void *self, struct core_view *v, const struct core_mem_resp *r,
                 uint64_t now);
    /* the priority of slot's memory requests (docs/pca.md) */
    uint8_t (*prio)(const void *self, const struct core_view *v, unsigned slot);

    /* ---- the issue check */
    /* may slot go on at now (after its fetch): CORE_ST_NONE or a stall
     * with *when; *moved: its next instruction changed (the SM re-peeks) */
    int (*gate)(void *self, struct core_view *v, unsigned slot, uint64_t now,
                uint64_t *when, bool *moved);
    /* a scheduler visited these slots (bit each) asleep (wake in the
     * future), each once */
    void (*asleep)(void *self, uint64_t slots);
    /* slot sleeps on the mechanism's own event, not on the memory queue */
    bool (*own_wait)(const void *self, unsigned slot);

    /* ---- the issue */
    bool rows;                  /* wants is->row filled before `before`   */
    int (*before)(void *self, struct core_view *v, struct core_issue *is);
    int (*retire)(void *self, struct core_view *v, struct core_issue *is);
    /* after is, its warp's next instruction is nd (its operands may be
     * fetched early) */
    void (*next_inst)(void *self, const struct core_view *v, const struct core_issue *is,
                      const struct core_dinst *nd);
    /* the base stack released slot from a bar.red barrier at now */
    void (*bar_release)(void *self, struct core_view *v, unsigned slot, uint64_t now);

    /* ---- stepper (kind CORE_MECH_STEPPER) */
    bool merges;                /* slots hold compacted warps: a slot's
                                   instructions are counted at issue, its
                                   pipeline and memory stalls do not sleep */
    bool fetches;               /* it looks its paths' fetches up in the
                                   instruction cache itself (issued,
                                   core_view_icache); the SM takes the fetch
                                   port (fetch_port) and looks no line up */
    const struct core_dinst *(*peek)(const void *self, const struct core_view *v,
                                     unsigned slot);
    void (*where)(const void *self, const struct core_view *v, unsigned slot,
                  struct core_where *at);
    /* the rows of slot's next instruction (is->row, is->nrows, merged) */
    void (*fill_rows)(const void *self, const struct core_view *v, struct core_issue *is);
    /* barrier and fetch: CORE_ST_NONE or a stall with *when; *final: the
     * answer is the whole check (*di, *unit_ix filled) */
    int (*fetch)(void *self, struct core_view *v, unsigned slot, uint64_t now,
                 uint64_t *when, const struct core_dinst **di, int *unit_ix, bool *final);
    /* cycle at which di's operands are ready for slot */
    uint64_t (*sb_ready)(const void *self, const struct core_view *v, unsigned slot,
                         const struct core_dinst *di);
    /* the warp asleep on a check slept on a memory-queue or load stall */
    bool (*mem_wait)(const void *self);
    /* slot holds more than one independently scheduled split: a scheduler
     * none of whose own warps can issue may issue one of its splits
     * (docs/dpe.md, DWS's perfect scheduler; NULL: a warp is its
     * scheduler's only) */
    bool (*split)(const void *self, unsigned slot);
    /* executes slot's instruction: 0 or an ls_status (is->rc, is->done) */
    int (*step)(void *self, struct core_view *v, struct core_issue *is);
    /* after the pipeline timing: its destinations ready at `ready` */
    void (*issued)(void *self, struct core_view *v, const struct core_issue *is,
                   uint64_t ready);
    /* a load of slot waits: its owner tag in p (core_sm_resp hands it back) */
    void (*pend)(const void *self, const struct core_view *v, unsigned slot,
                 struct core_pend *p);
    /* the thread at position pos of slot's last issued instruction: its
     * home warp slot and lane (local memory is interleaved per thread) */
    void (*home_of)(const void *self, const struct core_view *v, unsigned slot,
                    unsigned pos, unsigned *hslot, unsigned *hlane);
    /* load p of slot completed: its destinations ready at `at`; wakes */
    void (*resp_pend)(void *self, struct core_view *v, unsigned slot,
                      const struct core_pend *p, uint64_t at);
    /* CTA slot ci's barriers whose threads all arrived are released */
    void (*release)(void *self, struct core_view *v, int32_t ci, uint64_t now);
    /* cycles before now: its own stall accounting */
    void (*account)(void *self, struct core_view *v, uint64_t now);
};

/* The ops of mechanism id (its row of core_mech.def). */
const struct core_mech_ops *core_mech_ops_of(enum core_mech_id id);
/* The documentation page of mechanism id ("docs/compaction.md"). */
const char *core_mech_doc(enum core_mech_id id);
/* Refuses config c when it combines mechanisms that do not combine (the
 * rules of core_mech.def): 0, or -1 with the rule's text in err. */
int core_mech_check(const struct cfg *c, char *err, size_t n);
/* Writes the combination rules as a markdown table (docs). */
void core_mech_rules_md(char *buf, size_t n);
/* Why kernel f cannot run under ops (its refuse hook over every
 * instruction), as "what at line N" in buf; false when it can. */
bool core_mech_refusal(const struct core_mech_ops *ops, const struct cfg *c,
                       const struct ptx_func *f, char *buf, size_t n);

/* ------------------------------------------------ the view's actions */

/* Slot cannot issue before cycle at (CORE_INF: until an event wakes it),
 * for stall reason why (enum core_stall). */
static inline void core_view_sleep(struct core_view *v, unsigned slot, uint64_t at, int why)
{
    v->wake[slot] = at;
    v->wake_reason[slot] = (uint8_t)why;
}

/* The cycle a warp's instruction-buffer fetch started at t for instruction
 * next arrives: fetch_latency after t, or after its line's instruction
 * cache fill (core_sm.c; the SM's own fetches use the same lookup). */
uint64_t core_view_ifetch(struct core_view *v, const struct core_dinst *next, uint64_t t);
/* The same lookup at t without taking the SM's fetch port (fetch_port =
 * one): for a mechanism whose block fetch the SM already gave the port. */
uint64_t core_view_icache(struct core_view *v, const struct core_dinst *next, uint64_t t);

/* Slot may issue again: the scheduler checks it at its next visit. */
static inline void core_view_wake(struct core_view *v, unsigned slot)
{
    v->wake[slot] = 0;
}

/* The SM has work at cycle at (it is evaluated then at the latest). */
static inline void core_view_retry(struct core_view *v, uint64_t at)
{
    if (v->next_try > at)
        v->next_try = at;
}

/* Warp slot failed: its simt_warp's err says how (the GPU reports it). */
static inline void core_view_fail(struct core_view *v, unsigned slot)
{
    v->err_slot = (int)slot;
}

/* Appends r to the SM's memory request queue (the caller checked room). */
static inline void core_view_push_req(struct core_view *v, const struct core_mem_req *r)
{
    uint32_t i = (v->qhead + v->qn) % v->qcap;
    v->q[i] = *r;
    v->qn++;
}

/* The decoded instruction at pc of the kernel's function f. */
static inline const struct core_dinst *core_view_dinst(const struct core_view *v,
                                                       const struct ptx_func *f,
                                                       uint32_t pc)
{
    uint32_t fi = (uint32_t)(f - v->k->mod->funcs);
    return &v->k->prog->di[fi][pc < f->ninsts ? pc : f->ninsts];
}

/* Launch-wide data of mechanism id for this kernel (its prepare's). */
static inline const void *core_view_launch_data(const struct core_view *v,
                                                enum core_mech_id id)
{
    return v->k->mech[id];
}

/* The priority of slot's memory requests (the augmenter that gives one,
 * PCA; 0 without). */
static inline uint8_t core_view_prio(const struct core_view *v, unsigned slot)
{
    return v->prio ? v->prio(v->prio_self, v, slot) : 0;
}

/* Physical lane of logical lane l of slot's warp, from the lane
 * permutation unit's map (identity without one): *key, *rot. The unit is
 * clocked up to now first when the slot's map is not known yet. */
static inline void core_view_lane_map(struct core_view *v, unsigned slot, uint64_t now,
                                      unsigned *key, unsigned *rot)
{
    *key = *rot = 0;
    if (v->lane_map)
        v->lane_map(v->lane_self, slot, now, key, rot);
}

#endif
