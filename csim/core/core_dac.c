/* Decoupled affine computation in the SM timing model (docs/dac.md "The
 * hardware"): the affine warp with its batch-wide SIMT stack, the Affine
 * Tuple Queue, the Address and Predicate Expansion Units, per-warp queues,
 * prefetch and line locking, and the golden checks of every record against
 * the functional model. Values are the functional model's: the affine
 * warp's tuples come from executing its instructions on four basis lanes
 * per CTA of the batch (tid 0, e_x, e_y, e_z of that CTA; core_dac_tuple.c),
 * which for the affine operations (ring homomorphisms modulo 2^n) is the
 * tuple arithmetic of the paper; widening operations are checked exact at
 * run time. */
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

static inline unsigned popc(uint32_t x) { return (unsigned)__builtin_popcount(x); }

/* Whether the kernel instruction at pc takes its address from a deq
 * (deq.data or deq.addr in the main stream): its address register is not
 * read (the energy model). d must be active and pc in range. */
static inline bool core_dac_deq_addr(const struct core_dac *d, int32_t pc)
{
    const struct ptx_dac_inst *t = &d->tr[pc];
    return (t->q == PTX_DAC_Q_DATA || t->q == PTX_DAC_Q_ADDR) &&
           (t->streams & PTX_DAC_S_MAIN);
}

static void q_free(struct core_dac_q *q, uint32_t n)
{
    for (uint32_t i = 0; q && i < n; i++)
        free(q[i].r);
    free(q);
}

static struct core_dac_q *q_alloc(uint32_t n, uint32_t cap)
{
    struct core_dac_q *q = calloc(n, sizeof *q);
    for (uint32_t i = 0; q && i < n; i++) {
        q[i].cap = cap;
        q[i].r = calloc(cap, sizeof *q[i].r);
        if (!q[i].r) {
            q_free(q, n);
            return NULL;
        }
    }
    return q;
}

/* Saves the loaded pass context into d->ps[d->cur]. */
void core_dac_pass_save(struct core_dac *d)
{
    struct core_dac_pass *p = &d->ps[d->cur];
    p->stk = d->stk;
    p->sp = d->sp;
    p->batch = d->batch;
    p->run = d->aw_run;
    p->rr = d->rr;
    p->pa = d->pa;
    p->ready = d->aw_ready;
    p->mask_since = d->aw_mask_since;
    p->atq_blocked = d->aw_atq_blocked;
    p->mask_blocked = d->aw_mask_blocked;
}

/* Loads pass context j into the fields (the loaded one must be saved). */
static void pass_load(struct core_dac *d, unsigned j)
{
    const struct core_dac_pass *p = &d->ps[j];
    d->cur = j;
    d->stk = p->stk;
    d->sp = p->sp;
    d->batch = p->batch;
    d->aw_run = p->run;
    d->rr = p->rr;
    d->pa = p->pa;
    d->aw_ready = p->ready;
    d->aw_mask_since = p->mask_since;
    d->aw_atq_blocked = p->atq_blocked;
    d->aw_mask_blocked = p->mask_blocked;
}

/* Pass context j as it stands (the loaded one from the fields). */
struct core_dac_pass core_dac_pass_view(const struct core_dac *d, unsigned j)
{
    if (j != d->cur)
        return d->ps[j];
    struct core_dac_pass p = d->ps[j];
    p.sp = d->sp;
    p.batch = d->batch;
    p.run = d->aw_run;
    p.ready = d->aw_ready;
    p.atq_blocked = d->aw_atq_blocked;
    p.mask_blocked = d->aw_mask_blocked;
    return p;
}

/* Whether some pass waits for fed-back masks. */
bool core_dac_mask_blocked(const struct core_dac *d)
{
    for (unsigned j = 0; j < d->npass; j++)
        if (core_dac_pass_view(d, j).mask_blocked)
            return true;
    return false;
}

/* Sets up d for config c, nslots warp slots, ncta CTA slots and stacks
 * of max_depth entries. Returns 0 or -1 (host memory). */
static int core_dac_init(struct core_dac *d, const struct cfg *c, unsigned nslots,
                  unsigned ncta, uint32_t max_depth)
{
    memset(d, 0, sizeof *d);
    d->skip_slot = -1;
    d->on = c->affine_mode == CFG_AFFINE_MODE_DAC;
    if (!d->on)
        return 0;
    d->atq_cap = (unsigned)c->dac_atq_entries;
    d->aq_cap = (unsigned)c->dac_addr_queue;
    d->pq_cap = (unsigned)c->dac_pred_queue;
    d->mq_cap = (unsigned)c->dac_mask_queue;
    d->aeu_cycles = (unsigned)c->dac_aeu_cycles;
    d->peu_cycles = (unsigned)c->dac_peu_cycles;
    if (c->dac_lock_lines)
        d->lock_lines = (unsigned)c->dac_lock_lines;
    else if (c->l1d_line > 0 && c->l1d_assoc > 0)
        d->lock_lines = (unsigned)(c->l1d_size / c->l1d_line * (c->l1d_assoc - 1) /
                                   c->l1d_assoc);
    if (c->l1d_size > 0 && c->l1d_line > 0 && c->l1d_assoc > 1) {
        d->slk_line = (unsigned)c->l1d_line;
        d->slk_index = c->l1d_set_index;
        d->slk_ways = (unsigned)c->l1d_assoc - 1;
        d->slk_sets = (unsigned)(c->l1d_size / c->l1d_line / c->l1d_assoc);
        d->slk_addr = calloc((size_t)d->slk_sets * d->slk_ways, sizeof *d->slk_addr);
        d->slk_refs = calloc((size_t)d->slk_sets * d->slk_ways, sizeof *d->slk_refs);
        if (d->slk_sets && (!d->slk_addr || !d->slk_refs))
            return -1;
    }
    d->fault = (unsigned)c->dac_fault_inject;
    d->batch_max = (unsigned)c->dac_batch_ctas;
    d->aeu_switch = c->dac_aeu_switch == CFG_DAC_AEU_SWITCH_ON;
    d->npass = (unsigned)c->dac_passes;
    d->atq_split = c->dac_atq_split == CFG_DAC_ATQ_SPLIT_ON && d->npass > 1;
    d->deq_issue = c->dac_deq_data == CFG_DAC_DEQ_DATA_ISSUE;
    if (d->deq_issue && !(d->orphan = calloc(CORE_DAC_MAXFETCH, sizeof *d->orphan)))
        return -1;
    d->pf_after_wr = c->dac_prefetch_after_write == CFG_DAC_PREFETCH_AFTER_WRITE_ON;
    d->bar_wait = c->dac_barrier_fetch == CFG_DAC_BARRIER_FETCH_WAIT;
    d->nslots = nslots;
    d->ncta = ncta;
    d->aq = q_alloc(nslots, d->aq_cap);
    d->pq = q_alloc(nslots, d->pq_cap);
    d->mq = calloc(nslots, sizeof *d->mq);
    for (unsigned i = 0; d->mq && i < nslots; i++) {
        d->mq[i].cap = d->mq_cap;
        d->mq[i].r = calloc(d->mq_cap, sizeof *d->mq[i].r);
        if (!d->mq[i].r)
            return -1;
    }
    d->atq = calloc(d->atq_cap, sizeof *d->atq);
    d->atq_v = calloc((size_t)d->atq_cap * ncta, sizeof *d->atq_v);
    d->atq_v2 = calloc((size_t)d->atq_cap * ncta, sizeof *d->atq_v2);
    d->pend_cap = ncta;
    d->pend = calloc(ncta, sizeof *d->pend);
    d->wslot = calloc(ncta, sizeof *d->wslot);
    d->cta_done = calloc(ncta, sizeof *d->cta_done);
    d->stk_cap = max_depth + 2;
    for (unsigned j = 0; j < d->npass; j++) {
        d->ps[j].stk = calloc(d->stk_cap, sizeof *d->ps[j].stk);
        if (!d->ps[j].stk)
            return -1;
    }
    d->stk = d->ps[0].stk;
    d->arrive = calloc(ncta, sizeof *d->arrive);
    /* pieces A, then B, then the scratch warp of vector instructions */
    d->bw = calloc(2 * (size_t)ncta + 1, sizeof *d->bw);
    if (!d->aq || !d->pq || !d->mq || !d->atq || !d->atq_v || !d->atq_v2 || !d->pend ||
        !d->wslot ||
        !d->cta_done || !d->stk || !d->bw || !d->arrive)
        return -1;
    for (unsigned i = 0; i < 2 * ncta + 1; i++)
        if (simt_warp_alloc(&d->bw[i], max_depth) != 0)
            return -1;
    return 0;
}

/* Frees what core_dac_init and core_dac_kernel allocated. */
static void core_dac_free(struct core_dac *d)
{
    if (!d->on)
        return;
    q_free(d->aq, d->nslots);
    q_free(d->pq, d->nslots);
    for (uint32_t i = 0; d->mq && i < d->nslots; i++)
        free(d->mq[i].r);
    free(d->mq);
    free(d->atq);
    free(d->atq_v);
    free(d->atq_v2);
    free(d->pend);
    free(d->wslot);
    free(d->cta_done);
    free(d->arrive);
    free(d->slk_addr);
    free(d->slk_refs);
    free(d->orphan);
    core_dac_pass_save(d);
    for (unsigned j = 0; j < CORE_DAC_MAXP; j++) {
        free(d->ps[j].stk);
        free(d->ps[j].rr);
        free(d->ps[j].pa);
    }
    free(d->pm);
    for (unsigned i = 0; d->bw && i < 2 * d->ncta + 1; i++)
        simt_warp_free(&d->bw[i]);
    free(d->vix);
    free(d->vr);
    free(d->vv);
    free(d->atq_vv);
    free(d->bw);
    memset(d, 0, sizeof *d);
}

/* The vector registers of kernel f (the destinations of tr's vector
 * instructions): their indices, lane storage and the ATQ's vector
 * addresses. Returns 0 or -1 (host memory). */
static int vec_setup(struct core_dac *d, const struct ptx_func *f,
                     const struct ptx_dac_inst *tr)
{
    d->nvreg = 0;
    d->vix_regs = 0;
    if (!tr)
        return 0;
    uint32_t nr = f->nregs;
    int32_t *vix = NULL;
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        const struct ptx_operand *o = &f->insts[pc].o[0];
        if (!tr[pc].vec || o->kind != PTX_O_REG || o->reg < 0 || (uint32_t)o->reg >= nr)
            continue;
        if (!vix) {
            free(d->vix);
            d->vix = vix = malloc((size_t)nr * sizeof *vix);
            if (!vix)
                return -1;
            for (uint32_t r = 0; r < nr; r++)
                vix[r] = -1;
        }
        if (vix[o->reg] < 0)
            vix[o->reg] = (int32_t)d->nvreg++;
    }
    if (!d->nvreg)
        return 0;
    if (d->nvreg > d->vv_cap) {
        free(d->vr);
        free(d->vv);
        d->vr = calloc(d->nvreg, sizeof *d->vr);
        d->vv = calloc((size_t)d->nvreg * CORE_DAC_MAXS * EXEC_WARP, sizeof *d->vv);
        if (!d->atq_vv)
            d->atq_vv = calloc((size_t)d->atq_cap * CORE_DAC_MAXS * EXEC_WARP,
                               sizeof *d->atq_vv);
        if (!d->vr || !d->vv || !d->atq_vv) {
            d->vv_cap = d->nvreg = 0;
            return -1;
        }
        d->vv_cap = d->nvreg;
    }
    memset(d->vr, 0, d->nvreg * sizeof *d->vr);
    d->vix_regs = nr;
    return 0;
}

/* Prepares d for kernel f with transform tr (NULL: not decoupled) at the
 * start of a launch. Returns 0 or -1 (host memory). */
static int core_dac_kernel(struct core_dac *d, const struct ptx_func *f,
                    const struct ptx_dac_inst *tr)
{
    if (!d->on)
        return 0;
    memset(&d->st, 0, sizeof d->st);
    d->st.launches = 1;
    d->st.not_decoupled = tr == NULL;
    d->tr = tr;
    d->f = f;
    d->active = tr != NULL;
    for (uint32_t i = 0; i < d->nslots; i++)
        d->aq[i].n = d->aq[i].head = d->pq[i].n = d->pq[i].head = d->mq[i].n =
            d->mq[i].head = 0;
    d->atq_head = d->atq_n = 0;
    d->pend_head = d->pend_n = 0;
    core_dac_pass_save(d);
    for (unsigned j = 0; j < d->npass; j++) {
        d->ps[j].run = false;
        d->ps[j].batch = 0;
        d->ps[j].sp = 0;
        d->ps[j].ready = 0;
        d->ps[j].atq_blocked = d->ps[j].mask_blocked = false;
    }
    pass_load(d, 0);
    d->nfetch = 0;
    memset(d->fetch, 0, sizeof d->fetch);
    d->locked = 0;
    if (d->slk_refs)
        memset(d->slk_refs, 0, (size_t)d->slk_sets * d->slk_ways * sizeof *d->slk_refs);
    d->aeu_free = 0;
    d->last_sample = 0;
    d->aw_ready = 0;
    d->aw_atq_blocked = d->aeu_blocked = d->aw_mask_blocked = false;
    d->next_ready = UINT64_MAX;
    d->why[0] = 0;
    d->why_line = 0;
    d->skip_err = 0;
    d->wait_empty = d->wait_data = d->wait_mask = d->passed = 0;
    d->nrec = 0;
    for (unsigned i = 0; i < CORE_DAC_MAXS; i++)
        d->scta[i] = -1;
    uint32_t nr = f->nregs ? f->nregs : 1;
    if (nr > d->pm_regs) {
        free(d->pm);
        d->pm = calloc((size_t)nr * CORE_DAC_MAXS, sizeof *d->pm);
        bool ok = d->pm != NULL;
        for (unsigned j = 0; j < d->npass; j++) {
            free(d->ps[j].rr);
            free(d->ps[j].pa);
            d->ps[j].rr = calloc(nr, sizeof *d->ps[j].rr);
            d->ps[j].pa = calloc(nr, sizeof *d->ps[j].pa);
            ok &= d->ps[j].rr && d->ps[j].pa;
        }
        pass_load(d, 0);
        if (!ok) {
            d->pm_regs = 0;
            return -1;
        }
        d->pm_regs = nr;
    }
    return vec_setup(d, f, tr);
}

/* Records a model error (the first one wins) at PTX line `line`. */
void core_dac_fail(struct core_dac *d, uint32_t line, const char *fmt, ...)
{
    if (d->why[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->why, sizeof d->why, fmt, ap);
    va_end(ap);
    d->why_line = line;
}

/* CTA slot ci with its warps in slots wslot[0..nwarps-1] became resident:
 * queued for the affine warp. */
static void core_dac_launch(struct core_dac *d, unsigned ci, const uint8_t *wslot,
                     unsigned nwarps, uint64_t now)
{
    if (!d->active)
        return;
    /* the CTA slot's previous CTA finished inside a running batch: its
     * warps left (core_dac_leave cleared their masks); the new one waits
     * for the next batch */
    core_dac_pass_save(d);
    for (unsigned j = 0; j < d->npass; j++)
        d->ps[j].batch &= ~(1ull << ci);
    pass_load(d, d->cur);
    d->arrive[ci] = now;
    memcpy(d->wslot[ci], wslot, nwarps);
    d->cmask[ci] = 0;
    for (unsigned i = 0; i < nwarps; i++) {
        d->cmask[ci] |= 1ull << wslot[i];
        d->scta[wslot[i]] = (int16_t)ci;
        d->swi[wslot[i]] = (uint8_t)i;
        d->passed &= ~(1ull << wslot[i]);
        d->sbar[wslot[i]] = 0;
        d->sbar_at[wslot[i]] = 0;
    }
    d->cta_done[ci] = false;
    d->st.ctas++;
    d->pend[(d->pend_head + d->pend_n) % d->pend_cap] = (int32_t)ci;
    d->pend_n++;
}

/* --------------------------------------------------------- affine warp */

/* Starts the affine warp on the CTAs waiting (at most dac.batch_ctas).
 * Returns 0 or -1. */
static int batch_start(struct core_dac *d, uint64_t now)
{
    const struct core_kernel *k = d->v->k;
    struct core_dac_ent *e = &d->stk[0];
    memset(e->m, 0, sizeof e->m);
    e->npc = 0;
    e->rpc = (int32_t)k->f->ninsts;
    d->batch = 0;
    unsigned n = 0;
    while (d->pend_n && (d->batch_max == 0 || n < d->batch_max)) {
        int32_t ci = d->pend[d->pend_head];
        d->pend_head = (d->pend_head + 1) % d->pend_cap;
        d->pend_n--;
        if (core_dac_basis_start(d, (uint32_t)ci) != 0 ||
            core_dac_basis_start(d, (uint32_t)ci + d->ncta) != 0)
            return -1;
        d->batch |= 1ull << ci;
        d->st.cta_wait += now - d->arrive[ci];
        for (unsigned w = 0; w < k->nwarps; w++) {
            unsigned t = k->nthreads - w * EXEC_WARP;
            e->m[d->wslot[ci][w]] = t >= 32 ? 0xffffffffu : (1u << t) - 1;
            d->abar[d->wslot[ci][w]] = 0;
            for (uint32_t r = 0; r < k->f->nregs; r++)   /* its warps' vectors */
                d->pm[(size_t)r * CORE_DAC_MAXS + d->wslot[ci][w]] = 0;
            for (uint32_t x = 0; x < d->nvreg; x++)
                d->vr[x] &= ~(1ull << d->wslot[ci][w]);
        }
        n++;
    }
    if (d->nvreg && core_dac_basis_start(d, 2 * d->ncta) != 0)
        return -1;          /* the scratch warp of vector instructions */
    d->aw_run = true;
    d->sp = 1;
    d->aw_ready = now;
    d->aw_atq_blocked = d->aw_mask_blocked = false;
    d->ps[d->cur].seq = ++d->pass_seq;
    memset(d->rr, 0, (size_t)k->f->nregs * sizeof *d->rr);
    memset(d->pa, 0, (size_t)k->f->nregs * sizeof *d->pa);
    d->st.batches++;
    d->st.batch_ctas += n;
    return 0;
}

static bool ent_empty(const struct core_dac_ent *e, unsigned ns)
{
    for (unsigned w = 0; w < ns; w++)
        if (e->m[w])
            return false;
    return true;
}

/* Moves the affine warp to its next affine-stream instruction without
 * issuing (pops reconverged/empty entries, passes instructions outside
 * its stream, jumps over skipped data-control regions). Returns the pc,
 * or -1 when the batch finished. */
static int32_t aw_advance(struct core_dac *d)
{
    unsigned ns = d->nslots;
    int32_t n = (int32_t)d->f->ninsts;
    for (;;) {
        while (d->sp > 0) {
            const struct core_dac_ent *t = &d->stk[d->sp - 1];
            if (!ent_empty(t, ns) && t->npc != t->rpc)
                break;
            d->sp--;
        }
        if (d->sp == 0) {
            d->aw_run = false;
            for (unsigned ci = 0; ci < d->ncta; ci++)
                if (d->batch >> ci & 1)
                    d->cta_done[ci] = true;
            d->batch = 0;
            core_dac_wake_done_ctas(d);
            return -1;
        }
        struct core_dac_ent *t = &d->stk[d->sp - 1];
        int32_t pc = t->npc;
        if (pc >= n) {              /* the end of the kernel: threads exit */
            uint32_t m[CORE_DAC_MAXS];
            memcpy(m, t->m, sizeof m);
            for (uint32_t i = 0; i < d->sp; i++)
                for (unsigned w = 0; w < ns; w++)
                    d->stk[i].m[w] &= ~m[w];
            continue;
        }
        const struct ptx_dac_inst *di = &d->tr[pc];
        if (di->skip) {
            int32_t r = di->resume < 0 ? n : di->resume;
            if (t->rpc > pc && r > t->rpc)
                r = t->rpc;
            t->npc = r;
            continue;
        }
        if (!(di->streams & PTX_DAC_S_AFF)) {
            t->npc = pc + 1;
            continue;
        }
        return pc;
    }
}

/* The decoded kernel instruction at pc (the affine stream's scoreboard
 * and energy read its registers). */
static const struct core_dinst *aw_dinst(const struct core_dac *d, int32_t pc)
{
    return &d->v->k->prog->di[d->v->k->f - d->v->k->mod->funcs][pc];
}

/* The first cycle an ALU/SFU pipeline of cd's unit is free (0 for other
 * units), and in *ix which one (when ix is not NULL). */
static uint64_t aw_unit(const struct core_dac *d, const struct core_dinst *cd, unsigned *ix)
{
    if (cd->unit != CORE_U_ALU && cd->unit != CORE_U_SFU)
        return 0;
    uint64_t best = CORE_INF;
    for (unsigned u = 0; u < d->v->units[cd->unit]; u++)
        if (d->v->unit_free[cd->unit][u] < best) {
            best = d->v->unit_free[cd->unit][u];
            if (ix)
                *ix = u;
        }
    return best == CORE_INF ? 0 : best;
}

/* Whether every warp the affine warp covers at recv.mask pc has sent its
 * mask for it (at the head of its mask queue). A record of another pc at
 * a head is a model error (d->why). */
static bool masks_in(struct core_dac *d, int32_t pc)
{
    const struct core_dac_ent *t = &d->stk[d->sp - 1];
    for (unsigned w = 0; w < d->nslots; w++) {
        if (!t->m[w])
            continue;
        const struct core_dac_mq *m = &d->mq[w];
        if (m->n == 0)
            return false;
        if (m->r[m->head].pc != pc) {
            char where[160];
            core_dac_warp_where(d, w, where, sizeof where);
            core_dac_fail(d, d->f->insts[pc].line, "DAC model error in %s: the affine warp at "
                     "pc %d (PTX line %u) finds the mask the warp sent at pc %d (masks out "
                     "of order)", where, pc, d->f->insts[pc].line, m->r[m->head].pc);
            return false;
        }
    }
    return true;
}

/* With dac.atq_split: whether the loaded pass holds its share of the ATQ
 * (dac.atq_entries / dac.passes entries, at least one). */
static bool atq_share_full(const struct core_dac *d)
{
    if (!d->atq_split)
        return false;
    unsigned share = d->atq_cap / d->npass ? d->atq_cap / d->npass : 1, n = 0;
    for (uint32_t i = 0; i < d->atq_n; i++)
        n += (d->atq[(d->atq_head + i) % d->atq_cap].ctas & d->batch) != 0;
    return n >= share;
}

/* Whether the loaded pass can issue at now (ATQ room, the masks of a
 * recv.mask, its scoreboard); a pass that reaches its end stops running. */
static bool pass_ready(struct core_dac *d, uint64_t now)
{
    d->aw_atq_blocked = false;
    if (!d->aw_run || d->aw_ready > now)
        return false;
    int32_t pc = aw_advance(d);
    if (pc < 0)
        return false;
    /* its scoreboard: a source tuple still in the ALU pipeline */
    const struct core_dinst *cd = aw_dinst(d, pc);
    uint64_t dep = 0;
    for (unsigned i = 0; i < cd->nsrc; i++)
        dep = d->rr[cd->src[i]] > dep ? d->rr[cd->src[i]] : dep;
    if (dep > now) {
        d->st.stall_aw_dep += dep - now;
        d->aw_ready = dep;
        return false;
    }
    /* it executes on the SIMT lanes (4.1): a free ALU/SFU pipeline */
    uint64_t free_at = aw_unit(d, cd, NULL);
    if (free_at > now) {
        d->st.stall_aw_pipe += free_at - now;
        d->aw_ready = free_at;
        return false;
    }
    if (d->tr[pc].q == PTX_DAC_Q_MASK) {
        if (!masks_in(d, pc)) {
            if (!d->aw_mask_blocked)
                d->aw_mask_since = now;
            d->aw_mask_blocked = true;   /* a main warp's send wakes it */
            return false;
        }
        if (d->aw_mask_blocked)
            d->st.stall_aw_mask += now - d->aw_mask_since;
        d->aw_mask_blocked = false;
        return true;
    }
    if (d->tr[pc].q != PTX_DAC_Q_NONE && (d->atq_n == d->atq_cap || atq_share_full(d))) {
        d->st.stall_enq_full++;
        d->aw_atq_blocked = true;
        return false;
    }
    return true;
}

/* Whether the affine warp can issue at now, and from which pass (loaded
 * on true): CTAs waiting start a pass in a free context (dac.passes), then
 * the running passes are tried oldest first. */
static bool core_dac_aw_ready(struct core_dac *d, uint64_t now)
{
    if (!d->active || d->why[0])
        return false;
    core_dac_pass_save(d);
    for (unsigned round = 0; round < 2; round++) {
        for (unsigned j = 0; j < d->npass && d->pend_n; j++)
            if (!d->ps[j].run) {
                pass_load(d, j);
                if (batch_start(d, now) != 0)
                    return false;
                core_dac_pass_save(d);
            }
        unsigned order[CORE_DAC_MAXP], n = 0;
        for (unsigned j = 0; j < d->npass; j++)
            if (d->ps[j].run) {
                unsigned k = n++;
                while (k > 0 && d->ps[order[k - 1]].seq > d->ps[j].seq) {
                    order[k] = order[k - 1];
                    k--;
                }
                order[k] = j;
            }
        if (n > d->st.passes_max)
            d->st.passes_max = n;
        bool ended = false;
        for (unsigned i = 0; i < n; i++) {
            pass_load(d, order[i]);
            bool ok = pass_ready(d, now);
            ended |= !d->aw_run;
            if (ok)
                return true;
            core_dac_pass_save(d);
        }
        if (!ended || !d->pend_n)
            break;
    }
    return false;
}


static struct core_dac_tuple *atq_push(struct core_dac *d)
{
    uint32_t ix = (d->atq_head + d->atq_n) % d->atq_cap;
    struct core_dac_tuple *t = &d->atq[ix];
    d->atq_n++;
    d->st.tuples++;
    memset(t, 0, sizeof *t);
    t->v = d->atq_v + (size_t)ix * d->ncta;
    t->v2 = d->atq_v2 + (size_t)ix * d->ncta;
    t->vv = d->atq_vv ? d->atq_vv + (size_t)ix * CORE_DAC_MAXS * EXEC_WARP : NULL;
    t->ctas = d->batch;
    return t;
}

/* The warp slots of t with lanes enqueued for: the records to expand. */
static void tuple_pend(const struct core_dac *d, struct core_dac_tuple *t)
{
    t->pend = 0;
    for (unsigned w = 0; w < d->nslots; w++)
        t->pend |= (uint64_t)(t->mask[w] != 0) << w;
}

/* The tuple of an enq.data/enq.addr: per CTA of the batch, the address
 * operand (base register or symbol, plus offset) at the basis lanes. */
static void enq_access(struct core_dac *d, int32_t pc, const struct ptx_inst *in,
                       const struct ptx_dac_inst *di, const uint32_t *am)
{
    const struct ptx_operand *o = ptx_dflow_mem_opnd(in);
    struct core_dac_tuple *t = atq_push(d);
    t->pc = pc;
    t->kind = di->q;
    t->data = di->q == PTX_DAC_Q_DATA && (!di->after_wr || d->pf_after_wr) &&
              (in->space == PTX_SP_GLOBAL || in->space == PTX_SP_GENERIC);
    memcpy(t->bar, d->abar, sizeof t->bar);
    unsigned eb = ptx_type_bits((enum ptx_type)in->type) / 8;
    t->abytes = (uint8_t)((eb ? eb : 1) * (in->vec ? in->vec : 1));
    t->sel = o && o->reg >= 0 && d->pa[o->reg];
    for (unsigned ci = 0; ci < d->ncta; ci++) {
        if (!(d->batch >> ci & 1))
            continue;
        for (unsigned pz = 0; pz <= t->sel; pz++) {
            const struct simt_warp *bw = &d->bw[pz * d->ncta + ci];
            uint64_t *tv = pz ? t->v2[ci] : t->v[ci];
            for (unsigned l = 0; l < 4; l++) {
                uint64_t base = 0;
                if (o && o->reg >= 0)
                    base = bw->ew.regs[(size_t)o->reg * EXEC_WARP + l];
                else if (o && o->sym.index >= 0)
                    base = bw->ew.sym_addr[o->sym.scope ? 1 : 0][o->sym.index];
                tv[l] = base + (o ? (uint64_t)o->imm : 0);
                if (d->fault == 1)
                    tv[l] += 4;     /* fault injection: the golden check must fail */
            }
        }
    }
    memcpy(t->mask, am, sizeof t->mask);
    tuple_pend(d, t);
    /* a vector address: the AEU takes each lane's address from the lanes
       the affine warp computed for that warp */
    for (unsigned w = 0; o && o->reg >= 0 && w < d->nslots; w++) {
        const uint64_t *vl = am[w] ? core_dac_vec_lanes(d, o->reg, w) : NULL;
        if (!vl)
            continue;
        uint64_t *tv = t->vv + (size_t)w * EXEC_WARP;
        EXEC_FOR_EACH_LANE(am[w], lane, {
            tv[lane] = vl[lane] + (uint64_t)o->imm + (d->fault == 1 ? 4 : 0);
        });
        t->vslots |= 1ull << w;
    }
    if (t->sel)
        memcpy(t->smask, &d->pm[(size_t)o->reg * CORE_DAC_MAXS], sizeof t->smask);
}

/* recv.mask at pc: takes every covered warp's mask from its queue, checks
 * its lanes against the affine warp's own (the golden check of the
 * feedback: both follow the same control), and gives the taken lanes in
 * am. Wakes main warps waiting for room. Returns 0 or -1 (d->why). */
static int recv_masks(struct core_dac *d, int32_t pc, const struct ptx_inst *in,
                      const struct core_dac_ent *top, uint32_t *am)
{
    for (unsigned w = 0; w < d->nslots; w++) {
        am[w] = 0;
        if (!top->m[w])
            continue;
        struct core_dac_mq *m = &d->mq[w];
        struct core_dac_mrec r = m->r[m->head];
        m->head = (m->head + 1) % m->cap;
        m->n--;
        if (d->fault == 3)
            r.taken ^= 1u;          /* fault injection: the check must fail */
        if (r.pc != pc || r.mask != top->m[w] || (r.taken & ~r.mask)) {
            char where[160];
            core_dac_warp_where(d, w, where, sizeof where);
            core_dac_fail(d, in->line, "DAC golden check failed in %s, pc %d (PTX line %u): "
                     "recv.mask: the warp sent lanes 0x%08x (taken 0x%08x) at pc %d, the "
                     "affine warp covers lanes 0x%08x", where, pc, in->line, r.mask,
                     r.taken, r.pc, top->m[w]);
            return -1;
        }
        am[w] = r.taken;
        d->st.checked_mask++;
        if (d->wait_mask >> w & 1)
            d->v->wake[w] = 0;      /* its send.mask has room now */
    }
    return 0;
}

/* Vector instruction pc of the affine stream under the lanes am, once per
 * covered warp, charged to the energy model as a main warp's instruction
 * per warp: its register operands read and its result written as vectors,
 * one lane operation per active lane in its execution-energy class, the
 * inactive lanes' charge (docs/energy.md). Returns 0 or -1. */
static int aw_vec(struct core_dac *d, int32_t pc, const struct ptx_inst *in,
                  const struct core_dinst *cd, const uint32_t *am)
{
    unsigned nw = 0;
    if (core_dac_vec_exec(d, pc, in, cd, am, &nw) != 0)
        return -1;
    ls_energy_stats *en = &d->v->st.energy;
    for (unsigned w = 0; w < d->nslots; w++) {
        uint32_t a = am[w] | am[w] >> 1;
        a |= a >> 2;                /* bit 4k: lanes 4k..4k+3 hold an active lane */
        en->rf_arrays_read += am[w] ? 8u * cd->rf_rd : 0;
        en->rf_arrays_written += (uint64_t)cd->rf_wr *
                                 (unsigned)__builtin_popcount(a & 0x11111111u);
        unsigned na = (unsigned)__builtin_popcount(am[w]);
        if (am[w] && cd->unit <= CORE_U_SFU) {
            en->lane_ops[cd->unit] += na;
            en->cls_ops[cd->ecls] += na;
            en->cls_idle[cd->ecls] += core_ecls_idle(cd->ecls, na);
        }
    }
    return 0;
}

/* Issues one affine-stream instruction of the affine warp at now.
 * Returns 0, or LS_ERR_COSIM with d->why on a model error. */
static int core_dac_aw_issue(struct core_dac *d, uint64_t now)
{
    unsigned ns = d->nslots;
    int32_t pc = d->stk[d->sp - 1].npc;
    struct core_dac_ent *top = &d->stk[d->sp - 1];
    const struct ptx_inst *in = &d->f->insts[pc];
    const struct ptx_dac_inst *di = &d->tr[pc];
    uint32_t g[CORE_DAC_MAXS], am[CORE_DAC_MAXS];
    core_dac_guard_masks(d, in, g);
    /* a vector instruction issues once per covered warp (docs/dac.md) */
    unsigned nv = 0;
    for (unsigned w = 0; w < CORE_DAC_MAXS; w++) {
        am[w] = w < ns ? top->m[w] & g[w] : 0;
        nv += di->vec && am[w];
    }
    nv = nv ? nv : 1;
    d->st.aff_insts += nv;
    d->v->st.issued += nv;
    d->aw_ready = now + nv;
    const struct core_dinst *cd = aw_dinst(d, pc);
    {   /* the results' tuples are ready after the pipeline's latency, the
         * per-opcode one under opcode_timing = class, as for a main warp
         * (the paper's affine warp executes on the SIMT lanes, 4.1); a
         * parameter load: the constant cache's */
        uint64_t ready = now;
        if (cd->unit == CORE_U_ALU || cd->unit == CORE_U_SFU) {
            unsigned lat = d->v->lat[cd->unit], ii = d->v->ii[cd->unit];
            if (d->v->c->opcode_timing != CFG_OPCODE_TIMING_UNIT) {
                unsigned ol, oi;
                core_opc_timing(d->v->c, cd->opc, &ol, &oi);
                lat = ol ? ol : lat;
                ii = oi ? oi : ii;
            }
            ready = now + (uint64_t)nv * ii - 1 + lat;
            unsigned ix = 0;
            aw_unit(d, cd, &ix);
            d->v->unit_free[cd->unit][ix] = now + (uint64_t)nv * ii;  /* the SIMT lanes' */
        } else if (cd->unit == CORE_U_MEM)
            ready = now + d->v->ii[CORE_U_MEM] - 1 + (uint64_t)d->v->c->l1d_latency;
        for (unsigned i = 0; i < cd->ndst; i++)
            d->rr[cd->dst[i]] = ready;
    }
    switch ((enum ptx_op)in->op) {
    case PTX_OP_BRA: {
        int32_t target = in->o[0].label;
        if (in->guard < 0) {
            top->npc = target;
            return 0;
        }
        if (di->q == PTX_DAC_Q_MASK && recv_masks(d, pc, in, top, am) != 0)
            return LS_ERR_COSIM;
        bool all = true, none = true;
        for (unsigned w = 0; w < ns; w++) {
            all &= am[w] == top->m[w];
            none &= am[w] == 0;
        }
        if (di->q == PTX_DAC_Q_PRED) {
            struct core_dac_tuple *t = atq_push(d);
            t->pc = pc;
            t->kind = PTX_DAC_Q_PRED;
            memcpy(t->mask, top->m, sizeof t->mask);
            memcpy(t->pred, am, sizeof t->pred);
            tuple_pend(d, t);
        }
        int32_t npc, rpc;
        if (!simt_branch_split(in, pc, d->f->ninsts, all, none, &npc, &rpc)) {
            top->npc = npc;
            return 0;
        }
        uint32_t m[CORE_DAC_MAXS];
        memcpy(m, top->m, sizeof m);
        top->npc = rpc;
        if (top->npc == top->rpc)
            d->sp--;
        if (d->sp + 2 > d->stk_cap) {
            core_dac_fail(d, in->line, "DAC: the affine warp's SIMT stack overflows at PTX "
                     "line %u", in->line);
            return LS_ERR_COSIM;
        }
        if (pc + 1 != rpc) {
            struct core_dac_ent *e = &d->stk[d->sp++];
            for (unsigned w = 0; w < CORE_DAC_MAXS; w++)
                e->m[w] = m[w] & ~am[w];
            e->npc = pc + 1;
            e->rpc = rpc;
        }
        if (target != rpc) {
            struct core_dac_ent *e = &d->stk[d->sp++];
            memcpy(e->m, am, sizeof e->m);
            e->npc = target;
            e->rpc = rpc;
        }
        return 0;
    }
    case PTX_OP_RET:
    case PTX_OP_EXIT:
        top->npc = pc + 1;
        for (uint32_t i = 0; i < d->sp; i++)
            for (unsigned w = 0; w < ns; w++)
                d->stk[i].m[w] &= ~am[w];
        return 0;
    case PTX_OP_BAR:
    case PTX_OP_BARRIER:
        /* the affine warp stands for every thread of its CTAs: a barrier
         * of the affine stream (outside data control) holds nothing back;
         * the AEU/PEU expand the records after it for the CTAs that
         * passed it (dac.barrier_fetch, core_dac_eu.c) */
        top->npc = pc + 1;
        if (in->sub != PTX_SUB_WARP_SYNC && in->sub != PTX_SUB_ARRIVE)
            for (unsigned w = 0; w < ns; w++)
                d->abar[w] += am[w] != 0;   /* per warp: a CTA's branch may
                                               hold a barrier another's skips */
        return 0;
    default:
        break;
    }
    top->npc = pc + 1;
    /* energy (docs/energy.md): per CTA of the batch, the tuple operands
     * (one array per word) and, for an ALU operation, one lane operation
     * per tuple word: the base and a stride per thread-index dimension */
    uint64_t nb = (uint64_t)__builtin_popcountll(d->batch);
    ls_energy_stats *en = &d->v->st.energy;
    if (di->q == PTX_DAC_Q_DATA || di->q == PTX_DAC_Q_ADDR) {
        en->tuple_accesses += nb * cd->rf_addr;
        enq_access(d, pc, in, di, am);
        return 0;
    }
    if (simt_is_control((enum ptx_op)in->op, in->sub)) {
        core_dac_fail(d, in->line, "DAC: control instruction %s at PTX line %u in the affine "
                 "stream is not modelled", ptx_op_name((enum ptx_op)in->op), in->line);
        return LS_ERR_COSIM;
    }
    if (di->vec)
        return aw_vec(d, pc, in, cd, am) != 0 ? LS_ERR_COSIM : 0;
    /* the per-CTA accumulators: every CTA of the batch, one issue slot */
    if (core_dac_basis_exec(d, pc, in, cd, am) != 0)
        return LS_ERR_COSIM;
    const uint32_t *nt = d->v->k->ntid;
    en->tuple_accesses += nb * ((unsigned)cd->rf_rd + cd->rf_wr);
    en->lane_ops[0] += nb * (1u + (nt[0] > 1) + (nt[1] > 1) + (nt[2] > 1));
    bool pdst = in->o[0].kind == PTX_O_REG && in->o[0].reg >= 0 &&
                d->f->regs[in->o[0].reg].type == PTX_T_PRED;
    if (pdst && core_dac_pred_def(d, in, am) != 0)
        return LS_ERR_COSIM;
    if (!pdst && core_dac_widen_check(d, in, am) != 0)
        return LS_ERR_COSIM;
    return 0;
}

/* ------------------------------------------- the SM mechanism (core_mech.h) */

static bool dac_on(const struct cfg *c)
{
    return c->affine_mode == CFG_AFFINE_MODE_DAC;
}

/* The decoupling transform of kernel f (ptx_dac.h) into *data (NULL when
 * it leaves the kernel whole: nothing removed, no queue operation; the
 * main warps then run it as with affine.mode=off). */
static int dac_prepare(const struct cfg *c, const struct ptx_func *f, void **data,
                       char *err, size_t n, uint32_t *line)
{
    *data = NULL;
    unsigned aopt = (c->dac_pred_combine == CFG_DAC_PRED_COMBINE_ON ? PTX_AFF_OPT_PRED : 0) |
                    (c->dac_feedback != CFG_DAC_FEEDBACK_OFF ? PTX_AFF_OPT_FEED : 0) |
                    (c->dac_vector == CFG_DAC_VECTOR_ON ? PTX_AFF_OPT_VEC : 0);
    unsigned dopt = c->dac_feedback == CFG_DAC_FEEDBACK_ON ? PTX_DAC_OPT_FEED :
                    c->dac_feedback == CFG_DAC_FEEDBACK_DATA ?
                    PTX_DAC_OPT_FEED | PTX_DAC_OPT_FEED_DATA : 0;
    size_t ni = f->ninsts ? f->ninsts : 1;
    struct ptx_affine_inst *a = malloc(ni * sizeof *a);
    struct ptx_dac_inst *r = malloc(ni * sizeof *r);
    struct ptx_diag dg;
    memset(&dg, 0, sizeof dg);
    if (!a || !r) {
        free(a);
        free(r);
        snprintf(err, n, "host memory exhausted (DAC transform)");
        return -1;
    }
    if (ptx_affine_analyse_opt(f, a, NULL, &dg, aopt) != 0 ||
        ptx_dac_build_opt(f, a, r, NULL, &dg, dopt) != 0 || ptx_dac_check(f, a, r, &dg) != 0) {
        free(a);
        free(r);
        snprintf(err, n, "affine.mode=dac: the DAC transform of kernel %s failed: %s",
                 f->name, dg.msg);
        *line = f->line;
        return -1;
    }
    free(a);
    bool dec = false;
    for (uint32_t i = 0; i < f->ninsts && !dec; i++)
        dec = r[i].q != PTX_DAC_Q_NONE || !(r[i].streams & PTX_DAC_S_MAIN);
    if (dec)
        *data = r;
    else
        free(r);
    return 0;
}

static int dac_init(void **self, struct core_view *v, const struct core_mech_env *e,
                    char *err, size_t n)
{
    struct core_dac *d = calloc(1, sizeof *d);
    *self = d;
    if (!d || core_dac_init(d, e->c, e->nslots, e->ncta, e->max_depth) != 0) {
        snprintf(err, n, "host memory exhausted (DAC) [%s:%d]", __FILE__, __LINE__);
        return -1;
    }
    d->v = v;
    return 0;
}

static void dac_free(void *self)
{
    if (self)
        core_dac_free(self);
    free(self);
}

static int dac_kernel(void *self, struct core_view *v, uint64_t now)
{
    (void)now;
    struct core_dac *d = self;
    if (core_dac_kernel(d, v->k->f, core_view_launch_data(v, CORE_MECH_DAC)) != 0)
        return -1;
    return d->active;
}

static void dac_cta_start(void *self, struct core_view *v, unsigned ci, const uint8_t *wslot,
                          unsigned nwarps, uint64_t now)
{
    (void)v;
    core_dac_launch(self, ci, wslot, nwarps, now);
}

/* A main warp passes the instructions removed from its stream, then the
 * deq rules (a record there, its data arrived); a passed check stands
 * until the warp issues. */
static int dac_gate(void *self, struct core_view *v, unsigned slot, uint64_t now,
                    uint64_t *when, bool *moved)
{
    (void)v;
    struct core_dac *d = self;
    if (d->passed >> slot & 1)
        return CORE_ST_NONE;
    uint64_t removed = d->st.removed;
    if (core_dac_skip(d, slot) != 0) {
        d->skip_err = 1;        /* a warp fault: the view's err_slot */
        *when = CORE_INF;
        return CORE_ST_MEM;
    }
    *moved = d->st.removed != removed;
    return core_dac_check(d, slot, now, when);
}

/* Main warps asleep on a deq stall: each visit counts the stall its
 * check would have counted (the statistics do not depend on the sleep). */
static void dac_asleep(void *self, uint64_t slots)
{
    struct core_dac *d = self;
    d->st.stall_deq_empty += (uint64_t)__builtin_popcountll(d->wait_empty & slots);
    d->st.stall_deq_data += (uint64_t)__builtin_popcountll(d->wait_data & slots);
    d->st.stall_mask_full += (uint64_t)__builtin_popcountll(d->wait_mask & slots);
}

/* A deq stall is the DAC unit's sleep, not the memory queue's. */
static bool dac_own_wait(const void *self, unsigned slot)
{
    const struct core_dac *d = self;
    return (d->wait_empty | d->wait_data | d->wait_mask) >> slot & 1;
}

/* The deq's pc and the masks its golden check compares, before the
 * instruction runs (a kernel-frame instruction only). */
static int dac_before(void *self, struct core_view *v, struct core_issue *is)
{
    struct core_dac *d = self;
    d->is_pc = -1;
    const struct ptx_func *f = v->k->f;
    if (!is->at.f || is->at.frame != 0 || (uint32_t)is->at.pc >= f->ninsts)
        return 0;
    d->is_pc = is->at.pc;
    d->is_mask = is->at.mask;
    d->is_gmask = exec_guard_mask(&v->w[is->slot].sw.ew, &f->insts[is->at.pc], is->at.mask);
    return 0;
}

/* The deq: the record against the functional address or branch; a load
 * served by its locked lines releases them. */
static int dac_retire(void *self, struct core_view *v, struct core_issue *is)
{
    (void)v;
    struct core_dac *d = self;
    int served = core_dac_deq(d, is->slot, d->is_pc, d->is_mask, d->is_gmask, is->now);
    if (served < 0)
        return LS_ERR_COSIM;
    is->served = served > 0;
    is->deq_addr = d->is_pc >= 0 && core_dac_deq_addr(d, d->is_pc);
    return 0;
}

/* The affine warp has priority on scheduler 0 (it feeds every main warp
 * of the SM) and takes its issue slot. */
static int dac_claim(void *self, struct core_view *v, unsigned sched, uint64_t now)
{
    (void)v;
    if (sched != 0 || !core_dac_aw_ready(self, now))
        return 0;
    int e = core_dac_aw_issue(self, now);
    return e ? -e : 1;
}

/* A removed instruction faulted, or a golden check failed. */
static int dac_error(const struct core_dac *d)
{
    return d->skip_err ? LS_ERR_MEMFAULT : d->why[0] ? LS_ERR_COSIM : 0;
}

static int dac_cycle(void *self, struct core_view *v, uint64_t now)
{
    (void)v;
    int e = dac_error(self);
    if (!e)
        core_dac_cycle(self, now);     /* AEU, PEU */
    return e;
}

static int dac_cycle_end(void *self, struct core_view *v, uint64_t now)
{
    (void)v;
    (void)now;
    return dac_error(self);
}

static uint64_t dac_next(const void *self, uint64_t now)
{
    return core_dac_next(self, now);
}

/* An enq.data prefetch's line is back. */
static bool dac_resp(void *self, struct core_view *v, const struct core_mem_resp *r,
                     uint64_t now)
{
    (void)v;
    if (((r->tag >> 8) & 0xffff) != CORE_DAC_TAG_SLOT)
        return false;
    core_dac_resp(self, r->tag & 0xff, now);
    return true;
}

static void dac_warp_leave(void *self, struct core_view *v, unsigned slot, uint64_t now)
{
    (void)v;
    (void)now;
    (void)core_dac_leave(self, slot);   /* queues empty, else why */
}

static int dac_describe(const void *self, const struct core_view *v, char *buf, size_t n)
{
    (void)v;
    return core_dac_describe(self, buf, n);
}

static void dac_stats(const void *self, bool first, ls_stats *s)
{
    const struct core_dac *d = self;
    core_dac_stats(d, first, s);
    if (d->on && d->st.ctas > s->dac.sm_ctas_max)
        s->dac.sm_ctas_max = d->st.ctas;     /* the SMs' balance */
}

/* A warp that left records behind. */
static int dac_finish(void *self, uint64_t end)
{
    (void)end;
    return ((const struct core_dac *)self)->why[0] ? LS_ERR_COSIM : 0;
}

static const char *dac_why(const void *self, int e, uint32_t *line)
{
    const struct core_dac *d = self;
    if (e != LS_ERR_COSIM || !d->why[0])
        return NULL;
    *line = d->why_line;
    return d->why;
}

const struct core_mech_ops core_dac_mech = {
    .name = "dac",
    .kind = CORE_MECH_AUGMENT,
    .on = dac_on,
    .init = dac_init,
    .free = dac_free,
    .prepare = dac_prepare,
    .unprepare = free,
    .kernel = dac_kernel,
    .stats = dac_stats,
    .finish = dac_finish,
    .why = dac_why,
    .describe = dac_describe,
    .cta_start = dac_cta_start,
    .warp_leave = dac_warp_leave,
    .cycle = dac_cycle,
    .claim = dac_claim,
    .cycle_end = dac_cycle_end,
    .next = dac_next,
    .resp = dac_resp,
    .gate = dac_gate,
    .asleep = dac_asleep,
    .own_wait = dac_own_wait,
    .before = dac_before,
    .retire = dac_retire,
};
