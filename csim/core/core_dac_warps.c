/* The DAC engine's main warps (docs/dac.md "The hardware"): instructions
 * removed from the main stream executed functionally, the per-warp queue
 * checks that gate issue, dequeues checked against the functional retire
 * record, and a warp's leaving with its queues empty. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "core/core_dac.h"
#include "core/core_dac_int.h"
#include "core/core_mech.h"
#include "ptx/ptx_affine.h"
#include "exec/exec_mem.h"
#include "ptx/ptx_dflow.h"

/* ------------------------------------------------------------ main warps */

/* Kernel pc of slot's next instruction, or -1 (not in the kernel frame,
 * finished, at a barrier). */
static int32_t main_pc(const struct core_dac *d, unsigned slot)
{
    const struct simt_warp *w = &d->v->w[slot].sw;
    if (w->state != SIMT_READY || w->sp == 0)
        return -1;
    const struct simt_entry *t = &w->stack[w->sp - 1];
    if (t->frame != 0 || (uint32_t)t->npc >= d->f->ninsts)
        return -1;
    return t->npc;
}

/* Main warp slot: executes functionally (no issue slot, no timing) the
 * instructions removed from the main stream at its next pc. Returns 0 or
 * an ls_status (the view's err_slot set). */
int core_dac_skip(struct core_dac *d, unsigned slot)
{
    d->skip_slot = -1;
    for (;;) {
        int32_t pc = main_pc(d, slot);
        const struct ptx_inst *in = pc < 0 ? NULL : &d->f->insts[pc];
        if (pc < 0 || (d->tr[pc].streams & PTX_DAC_S_MAIN) ||
            simt_is_control((enum ptx_op)in->op, in->sub)) {
            d->skip_slot = (int32_t)slot;   /* control issues in the main stream */
            d->skip_pc = pc;
            return 0;
        }
        if (simt_step(&d->v->w[slot].sw) == SIMT_RC_ERROR) {
            d->v->err_slot = (int)slot;
            return LS_ERR_MEMFAULT;
        }
        d->st.removed++;
    }
}

/* Whether a tuple of CTA slot ci is still in the ATQ. */
static bool atq_has_cta(const struct core_dac *d, int32_t ci)
{
    uint64_t cm = 0;
    for (unsigned s = 0; s < d->nslots; s++)
        cm |= (uint64_t)(d->scta[s] == ci) << s;
    for (uint32_t i = 0; i < d->atq_n; i++)
        if (d->atq[(d->atq_head + i) % d->atq_cap].pend & cm)
            return true;
    return false;
}

/* Where warp slot is, for messages: kernel, CTA, warp, pc. */
void core_dac_warp_where(const struct core_dac *d, unsigned slot, char *buf, size_t n)
{
    const struct core_warp *w = &d->v->w[slot];
    snprintf(buf, n, "kernel %s, CTA (%u,%u,%u), warp %u (slot %u)", d->f->name,
             w->sw.gridv.ctaid[0], w->sw.gridv.ctaid[1], w->sw.gridv.ctaid[2],
             w->sw.gridv.warpid, slot);
}

/* core_dac_warp_where formatted only when a failure is reported (buf returned): the
 * deq of every record must not pay for a string it almost never prints. */
static const char *dac_where(const struct core_dac *d, unsigned slot, char *buf, size_t n)
{
    core_dac_warp_where(d, slot, buf, n);
    return buf;
}

/* Main warp slot sleeps in the scheduler until `until` (or a wake-up of
 * wait): the check that stalled it would give the same answer until then,
 * so core_sm_cycle counts the stall per visit without calling it. */
static void dac_sleep(struct core_dac *d, unsigned slot, uint64_t *wait, uint64_t until)
{
    *wait |= 1ull << slot;
    d->v->wake[slot] = until;
    d->v->wake_reason[slot] = CORE_ST_MEM;
}

/* Wakes the warps asleep on an empty queue whose CTA the affine warp
 * finished: their check reports a missing record (a model error) once no
 * tuple of that CTA is left in the ATQ. */
void core_dac_wake_done_ctas(struct core_dac *d)
{
    for (uint64_t m = d->wait_empty; m; m &= m - 1) {
        unsigned s = (unsigned)__builtin_ctzll(m);
        int32_t ci = d->v->w[s].cta;
        if (ci >= 0 && d->cta_done[ci])
            d->v->wake[s] = 0;
    }
}

/* Whether main warp slot may issue its next instruction (a deq needs its
 * record at the queue head, data arrived): CORE_ST_NONE, or a stall with
 * *when. A model error sets d->why. Called right after core_dac_skip of
 * the same slot (it reuses the pc that found). CORE_ST_NONE sets the
 * slot's bit in d->passed: until the warp issues, the caller need not
 * call core_dac_skip and core_dac_check again. */
int core_dac_check(struct core_dac *d, unsigned slot, uint64_t now, uint64_t *when)
{
    if (!d->active)
        return CORE_ST_NONE;
    /* as core_dac_is_deq; the pc core_dac_skip just found when it was for slot */
    int32_t pc = d->skip_slot == (int32_t)slot ? d->skip_pc : main_pc(d, slot);
    d->skip_slot = -1;
    uint64_t bit = 1ull << slot;
    d->wait_empty &= ~bit;
    d->wait_data &= ~bit;
    d->wait_mask &= ~bit;
    if (pc < 0 || d->tr[pc].q == PTX_DAC_Q_NONE || !(d->tr[pc].streams & PTX_DAC_S_MAIN)) {
        d->passed |= bit;
        return CORE_ST_NONE;
    }
    const struct ptx_dac_inst *t = &d->tr[pc];
    if (t->q == PTX_DAC_Q_MASK) {   /* send.mask: room in its mask queue */
        if (d->mq[slot].n < d->mq[slot].cap) {
            d->passed |= bit;
            return CORE_ST_NONE;
        }
        d->st.stall_mask_full++;
        *when = CORE_INF;           /* the affine warp's receive wakes it */
        dac_sleep(d, slot, &d->wait_mask, CORE_INF);
        return CORE_ST_MEM;
    }
    struct core_dac_q *q = t->q == PTX_DAC_Q_PRED ? &d->pq[slot] : &d->aq[slot];
    char where[160];
    if (q->n == 0) {
        int32_t ci = d->v->w[slot].cta;
        if (d->cta_done[ci] && !atq_has_cta(d, ci)) {
            core_dac_warp_where(d, slot, where, sizeof where);
            core_dac_fail(d, d->f->insts[pc].line, "DAC model error in %s, pc %d (PTX line %u): "
                     "%s has no record: the affine warp finished the CTA without an "
                     "enq for this warp", where, pc, d->f->insts[pc].line,
                     ptx_dac_deq_name(t->q));
        }
        d->st.stall_deq_empty++;
        *when = CORE_INF;       /* the AEU/PEU's next record wakes the SM */
        dac_sleep(d, slot, &d->wait_empty, CORE_INF);
        return CORE_ST_MEM;
    }
    const struct core_dac_rec *r = &q->r[q->head];
    if (r->pc != pc) {
        core_dac_warp_where(d, slot, where, sizeof where);
        core_dac_fail(d, d->f->insts[pc].line, "DAC model error in %s, pc %d (PTX line %u): "
                 "%s finds the record of pc %d at its queue head (enq and deq out of "
                 "order)", where, pc, d->f->insts[pc].line, ptx_dac_deq_name(t->q), r->pc);
        *when = now + 1;
        return CORE_ST_MEM;
    }
    if (r->ready > now || (r->left && !d->deq_issue)) {
        d->st.stall_deq_data++;
        *when = r->left ? CORE_INF : r->ready;  /* a response wakes the SM */
        dac_sleep(d, slot, &d->wait_data, *when);
        return CORE_ST_MEM;
    }
    d->passed |= bit;           /* the record stays ready until its deq */
    return CORE_ST_NONE;
}

#define WHERE dac_where(d, slot, where, sizeof where)

/* A global store (atom, red) of main warp slot that writes a line an
 * enq.data record still queued for the warp prefetched: the record's
 * lines were fetched before the store, which a machine would have to
 * update or refetch (dac.prefetch_after_write; docs/dac.md). Counted. */
static void after_write_hazards(struct core_dac *d, unsigned slot, const struct exec_result *res)
{
    uint64_t lsz = (uint64_t)d->v->c->l1d_line;
    const struct core_dac_q *q = &d->aq[slot];
    for (uint32_t i = 0; i < q->n; i++) {
        const struct core_dac_rec *r = &q->r[(q->head + i) % q->cap];
        if (!r->locked)
            continue;
        bool hit = false;
        for (uint32_t ma = r->mask; ma && !hit; ma &= ma - 1) {
            uint64_t la = r->addr[__builtin_ctz(ma)] / lsz;
            for (uint32_t mb = res->active; mb && !hit; mb &= mb - 1)
                hit = la == res->addr[__builtin_ctz(mb)] / lsz;
        }
        d->st.wr_hazards += hit;
    }
}

/* dac.deq_data=issue: record r leaves its queue before its prefetched
 * lines arrived; the fetch slots that point at it point at a copy of its
 * header instead, which the responses still count down (core_dac_resp
 * frees the slot at the last). */
static void orphan_fetches(struct core_dac *d, const struct core_dac_rec *r)
{
    for (unsigned ix = 0; ix < CORE_DAC_MAXFETCH; ix++)
        if (d->fetch[ix] == r) {
            d->orphan[ix] = *r;
            d->fetch[ix] = &d->orphan[ix];
        }
}

/* After simt_step of main warp slot at kernel pc `pc` (stack mask `mask`,
 * guard mask `gmask` taken before the step): pops the record its deq
 * consumes and checks it against the functional retire record. Returns
 * 1 when a load was served from a locked line (no memory request), 0
 * otherwise, -1 on a model error (d->why). Counts main instructions. */
int core_dac_deq(struct core_dac *d, unsigned slot, int32_t pc, uint32_t mask,
                uint32_t gmask, uint64_t now)
{
    d->st.main_insts++;
    d->passed &= ~(1ull << slot);   /* it moved: check it again */
    if (d->sbar_at[slot]) {         /* it issues again: past its barrier */
        d->sbar_at[slot] = 0;
        d->sbar[slot]++;
        if (d->bar_wait && d->atq_n)
            core_view_retry(d->v, now + 1);     /* a held record may go */
    }
    if (pc < 0)
        return 0;
    const struct ptx_inst *in = &d->f->insts[pc];
    const struct exec_result *res = &d->v->w[slot].sw.res;
    bool ld = in->op == PTX_OP_LD || in->op == PTX_OP_LDU;
    unsigned space = res->space;
    if (space == PTX_SP_GENERIC && res->active)     /* as mem_issue resolves it */
        space = res->addr[__builtin_ctz(res->active)] >= EXEC_GLOBAL_BASE
                    ? PTX_SP_GLOBAL : PTX_SP_SHARED;
    ld = ld && res->active && (space == PTX_SP_GLOBAL || space == PTX_SP_LOCAL);
    const struct ptx_dac_inst *t = &d->tr[pc];
    if ((in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER) && in->sub != PTX_SUB_WARP_SYNC &&
        in->sub != PTX_SUB_ARRIVE && (t->streams & PTX_DAC_S_AFF))
        d->sbar_at[slot] = 1;       /* a barrier the affine warp counts too */
    if (ld) {
        d->st.gl_loads++;
        if (t->q != PTX_DAC_Q_DATA)     /* kept: the transform's reason */
            d->st.gl_kept[t->why < PTX_DAC_W_COUNT ? t->why : PTX_DAC_W_NONE]++;
    }
    bool wr = (in->op == PTX_OP_ST || in->op == PTX_OP_ATOM || in->op == PTX_OP_RED) &&
              res->active && space == PTX_SP_GLOBAL;
    if (wr && d->pf_after_wr && d->aq[slot].n)
        after_write_hazards(d, slot, res);
    if (t->q == PTX_DAC_Q_NONE || !(t->streams & PTX_DAC_S_MAIN))
        return 0;
    char where[160];
    if (t->q == PTX_DAC_Q_MASK) {   /* send.mask: the affine warp's input */
        struct core_dac_mq *m = &d->mq[slot];
        if (m->n == m->cap) {
            core_dac_fail(d, in->line, "DAC model error in %s, pc %d (PTX line %u): send.mask "
                     "issued with its mask queue full", WHERE, pc, in->line);
            return -1;
        }
        struct core_dac_mrec *r = &m->r[(m->head + m->n++) % m->cap];
        r->pc = pc;
        r->mask = mask;
        r->taken = gmask;
        d->st.rec_mask++;
        if (core_dac_mask_blocked(d))
            core_view_retry(d->v, now + 1);   /* the affine warp may go on */
        return 0;
    }
    struct core_dac_q *q = t->q == PTX_DAC_Q_PRED ? &d->pq[slot] : &d->aq[slot];
    if (q->n == 0 || q->r[q->head].pc != pc) {
        core_dac_fail(d, in->line, "DAC model error in %s, pc %d (PTX line %u): %s issued "
                 "without its record", WHERE, pc, in->line, ptx_dac_deq_name(t->q));
        return -1;
    }
    struct core_dac_rec *r = &q->r[q->head];
    q->head = (q->head + 1) % q->cap;
    q->n--;
    d->nrec--;
    if (t->q == PTX_DAC_Q_PRED) {
        if (r->mask != mask || ((r->pred & mask) != gmask)) {
            core_dac_fail(d, in->line, "DAC golden check failed in %s, pc %d (PTX line %u): "
                     "deq.pred: PEU mask 0x%08x of lanes 0x%08x, the functional "
                     "branch: 0x%08x of lanes 0x%08x", WHERE, pc, in->line,
                     r->pred & r->mask, r->mask, gmask, mask);
            return -1;
        }
        d->st.checked_pred++;
        return 0;
    }
    if (r->mask != res->active) {
        core_dac_fail(d, in->line, "DAC golden check failed in %s, pc %d (PTX line %u): %s: "
                 "the AEU record covers lanes 0x%08x, the functional access lanes "
                 "0x%08x", WHERE, pc, in->line, ptx_dac_deq_name(t->q), r->mask,
                 res->active);
        return -1;
    }
    bool shared = res->space == PTX_SP_SHARED;
    EXEC_FOR_EACH_LANE(res->active, lane, {
        uint64_t a = shared ? r->addr[lane] & 0xffffffffull : r->addr[lane];
        if (a != res->addr[lane]) {
            core_dac_fail(d, in->line, "DAC golden check failed in %s, pc %d (PTX line "
                     "%u): %s lane %u: AEU address 0x%llx, the functional model's "
                     "0x%llx", WHERE, pc, in->line, ptx_dac_deq_name(t->q), lane,
                     (unsigned long long)a, (unsigned long long)res->addr[lane]);
            return -1;
        }
    });
    d->st.checked_addr++;
    if (r->locked && r->left)
        orphan_fetches(d, r);
    if (r->locked) {
        d->locked -= r->nlines;
        for (unsigned i = 0; i < r->nlines; i++)
            core_dac_slk_drop(d, r->lines[i]);
        if (ld)
            d->st.gl_served++;
        return 1;
    }
    /* enq.data, its line not prefetched: after-write when the affine warp
     * did not fetch it for a possible same-thread store before it; with
     * dac.prefetch_after_write=on it did, and its lock was refused */
    if (ld && t->q == PTX_DAC_Q_DATA)
        d->st.gl_kept[t->after_wr && !d->pf_after_wr ? CORE_DAC_KEPT_AFTER_WR
                                                      : CORE_DAC_KEPT_UNSERVED]++;
    return 0;
}

/* Main warp slot leaves: its queues must be empty (else d->why). */
int core_dac_leave(struct core_dac *d, unsigned slot)
{
    if (!d->active)
        return 0;
    d->wait_empty &= ~(1ull << slot);
    d->wait_data &= ~(1ull << slot);
    d->wait_mask &= ~(1ull << slot);
    d->passed &= ~(1ull << slot);
    if (d->scta[slot] >= 0)
        d->cmask[d->scta[slot]] &= ~(1ull << slot);
    d->scta[slot] = -1;
    /* masks the affine warp has not received: it no longer covers the
     * warp (its lanes leave the masks below), so it never will */
    d->st.mask_dropped += d->mq[slot].n;
    d->mq[slot].n = d->mq[slot].head = 0;
    /* the affine warp may lag behind the warp's last instructions (no
     * enq left for it): its lanes leave the batch's masks */
    core_dac_pass_save(d);
    for (unsigned j = 0; j < d->npass; j++)
        for (uint32_t i = 0; i < d->ps[j].sp; i++)
            d->ps[j].stk[i].m[slot] = 0;
    char where[160];
    for (uint32_t i = 0; i < d->atq_n; i++) {
        const struct core_dac_tuple *t = &d->atq[(d->atq_head + i) % d->atq_cap];
        if (t->pend >> slot & 1) {
            core_dac_fail(d, d->f->insts[t->pc].line, "DAC model error in %s: the warp "
                     "finished with an enq of pc %d (PTX line %u) for it in the ATQ: an "
                     "enq without its deq", WHERE, t->pc, d->f->insts[t->pc].line);
            return LS_ERR_COSIM;
        }
    }
    if (d->aq[slot].n == 0 && d->pq[slot].n == 0)
        return 0;
    const struct core_dac_q *q = d->aq[slot].n ? &d->aq[slot] : &d->pq[slot];
    int32_t pc = q->r[q->head].pc;
    core_dac_fail(d, d->f->insts[pc].line, "DAC model error in %s: the warp finished with %u "
             "records left in its queues (first: pc %d, PTX line %u): an enq without "
             "its deq", WHERE, d->aq[slot].n + d->pq[slot].n, pc,
             d->f->insts[pc].line);
    return LS_ERR_COSIM;
}

#undef WHERE
