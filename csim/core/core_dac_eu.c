/* The DAC engine's Address and Predicate Expansion Units (docs/dac.md "The
 * hardware"): records expanded from the Affine Tuple Queue into per-warp
 * addresses and masks, prefetch and line locking; the per-cycle step, the
 * next event, responses, the one-line state and the statistics. */
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

/* ---------------------------------------------------- expansion units */

/* The addresses of the lanes of mask of warp wi of a CTA whose tuple is
 * v (a lane whose bit in sel is clear: v2, piece B of a selected
 * address): addr[lane] = core_dac_tup_at(v, core_dac_tid(lane), 64), and the same
 * values packed in lane order into a[]. Returns their count. (core_dac_tid's
 * divisions once per record: the tid steps from lane to lane.) */
static unsigned rec_addrs(const struct core_kernel *k, unsigned wi, uint32_t mask,
                          const uint64_t v[4], const uint64_t v2[4], uint32_t sel,
                          uint64_t *addr, uint64_t *a)
{
    uint32_t tid[3];
    core_dac_tid(k, wi, 0, tid);
    uint64_t s0 = v[1] - v[0], s1 = v[2] - v[0], s2 = v[3] - v[0];
    uint64_t t0 = v2[1] - v2[0], t1 = v2[2] - v2[0], t2 = v2[3] - v2[0];
    unsigned na = 0, end = mask ? 32u - (unsigned)__builtin_clz(mask) : 0;
    for (unsigned lane = 0; lane < end; lane++) {
        if (mask >> lane & 1) {
            addr[lane] = sel >> lane & 1
                         ? v[0] + s0 * tid[0] + s1 * tid[1] + s2 * tid[2]
                         : v2[0] + t0 * tid[0] + t1 * tid[1] + t2 * tid[2];
            a[na++] = addr[lane];
        }
        if (++tid[0] == k->ntid[0]) {
            tid[0] = 0;
            if (++tid[1] == k->ntid[1]) {
                tid[1] = 0;
                tid[2]++;
            }
        }
    }
    return na;
}

/* core_coalesce of na accesses of sz bytes at a[] (lane order) into out:
 * the same lines in the same order (line addresses are unique in the
 * list, so core_coalesce_more's search finds the same entry). Accesses
 * that follow each other without a gap (a unit-stride tuple) cover one
 * range: each line of it gets its part, what the per-lane loop sums. */
static unsigned rec_lines(const uint64_t *a, unsigned na, unsigned sz, unsigned line,
                          unsigned sector, struct core_line *out)
{
    bool run = na > 0;
    for (unsigned i = 1; i < na && run; i++)
        run = a[i] == a[i - 1] + sz;
    uint64_t lmask = ~(uint64_t)(line - 1);
    uint64_t lo = run ? a[0] : 0, hi = run ? a[na - 1] + sz - 1 : 0;
    if (!run || hi < lo || ((hi & lmask) - (lo & lmask)) / line >= 32)
        return core_coalesce_more(out, 0, 32, a, na, sz, line, sector);
    unsigned n = 0;
    for (uint64_t la = lo & lmask; la <= (hi & lmask); la += line) {
        uint64_t l = lo > la ? lo : la, h = hi < la + line - 1 ? hi : la + line - 1;
        uint8_t d = 0;
        for (uint64_t s = (l - la) / sector; s <= (h - la) / sector; s++)
            d |= (uint8_t)(1u << (s & 7));
        out[n].line_addr = la;
        out[n].sector_mask = d;
        out[n].bytes = (uint16_t)(h - l + 1);
        n++;
    }
    return n;
}

/* The per-set lock bound (4.2: the AEU locks at most N-1 ways of an
 * N-way set, so a non-affine access always finds a way): takes a lock
 * reference on each of the n lines for a record, or none when one of
 * them would be the N-th locked line of its set. Returns true when
 * taken. Without an L1D there is no bound. */
static bool slk_take(struct core_dac *d, const struct core_line *l, unsigned n)
{
    if (!d->slk_sets)
        return true;
    unsigned i;
    for (i = 0; i < n; i++) {
        uint64_t la = l[i].line_addr;
        size_t b = (size_t)cfg_l1d_set(d->slk_index, d->slk_sets, d->slk_line, la) * d->slk_ways;
        size_t fr = SIZE_MAX, hit = SIZE_MAX;
        for (size_t j = b; j < b + d->slk_ways; j++) {
            if (d->slk_refs[j] && d->slk_addr[j] == la)
                hit = j;
            else if (!d->slk_refs[j] && fr == SIZE_MAX)
                fr = j;
        }
        if (hit == SIZE_MAX && fr == SIZE_MAX)
            break;
        if (hit == SIZE_MAX) {
            hit = fr;
            d->slk_addr[hit] = la;
        }
        d->slk_refs[hit]++;
    }
    if (i == n)
        return true;
    while (i--)
        core_dac_slk_drop(d, l[i].line_addr);
    return false;
}

/* Drops one lock reference of line la (slk_take). */
void core_dac_slk_drop(struct core_dac *d, uint64_t la)
{
    if (!d->slk_sets)
        return;
    size_t b = (size_t)cfg_l1d_set(d->slk_index, d->slk_sets, d->slk_line, la) * d->slk_ways;
    for (size_t j = b; j < b + d->slk_ways; j++)
        if (d->slk_refs[j] && d->slk_addr[j] == la) {
            d->slk_refs[j]--;
            return;
        }
}

/* PEU case of one record (4.3): one value for every lane; a contiguous
 * run of true lanes (a first/last-thread check: two compares); else the
 * 32-lane fallback. */
static void peu_case(struct core_dac *d, uint32_t mask, uint32_t pred)
{
    uint32_t p = pred & mask;
    if (p == 0 || p == mask) {
        d->st.peu_uniform++;
        return;
    }
    unsigned lo = (unsigned)__builtin_ctz(p), hi = 31u - (unsigned)__builtin_clz(p);
    uint32_t run = (hi == 31 ? ~0u : (1u << (hi + 1)) - 1) & ~((1u << lo) - 1);
    if ((run & mask) == p)
        d->st.peu_two++;
    else
        d->st.peu_full++;
}

/* Expands the next warp of the ATQ head. Returns false when it must wait. */
/* Pops the expanded tuples at the ATQ head. */
static void atq_pop_done(struct core_dac *d)
{
    bool any = false;
    while (d->atq_n && d->atq[d->atq_head].pend == 0) {
        d->atq_head = (d->atq_head + 1) % d->atq_cap;
        d->atq_n--;
        any = true;
    }
    if (any)
        core_dac_wake_done_ctas(d);
}

/* The barriers of the affine stream the warp in slot s has passed: those
 * it issued an instruction after, and the one it waits at once the CTA's
 * release has let it go (its next instruction may be a deq waiting for
 * the very record a barrier holds). */
static uint32_t bars_passed(const struct core_dac *d, unsigned s)
{
    return d->sbar[s] + (d->sbar_at[s] && d->v->w[s].sw.state != SIMT_AT_BARRIER);
}

/* The next record the AEU/PEU expands: ATQ entry *ti, warp slot *slot;
 * false when every candidate's queue is full or held (*held set: with
 * dac.barrier_fetch=wait, a record after a barrier of the affine stream
 * that its warp has not passed; 4.2: "the AEU disables expansion for the
 * target non-affine blocks; the AEU only issues memory requests for
 * non-affine blocks that pass the barrier"; the CTA's later records wait
 * behind it). Without dac.aeu_switch, the
 * head entry's warps in slot order. With it (4.2: one accumulated address
 * register per concurrent CTA, so the AEU switches among CTAs when one
 * stalls), the oldest pending record of each CTA is a candidate, oldest
 * entry first: a CTA whose next record's queue is full waits, the others
 * go on; each warp still gets its records in ATQ order. */
static bool aeu_pick(const struct core_dac *d, uint32_t *ti, unsigned *slot, bool *held)
{
    uint64_t seen = 0;           /* warp slots of the CTAs whose oldest
                                    record was seen                        */
    for (uint32_t i = 0; i < d->atq_n; i++) {
        uint32_t x = (d->atq_head + i) % d->atq_cap;
        const struct core_dac_tuple *t = &d->atq[x];
        for (uint64_t m = t->pend & ~seen; m; m &= ~seen) {
            unsigned s = (unsigned)__builtin_ctzll(m);
            int32_t ci = d->scta[s];
            seen |= ci >= 0 ? d->cmask[ci] : 1ull << s;
            if (d->bar_wait && t->bar[s] > bars_passed(d, s)) {
                *held = true;
                if (!d->aeu_switch)
                    return false;
                continue;
            }
            const struct core_dac_q *q = t->kind == PTX_DAC_Q_PRED ? &d->pq[s] : &d->aq[s];
            if (q->n < q->cap) {
                *ti = x;
                *slot = s;
                return true;
            }
            if (!d->aeu_switch)
                return false;
        }
        if (!d->aeu_switch && t->pend)
            return false;
    }
    return false;
}

static bool expand_one(struct core_dac *d, uint64_t now)
{
    const struct core_kernel *k = d->v->k;
    atq_pop_done(d);
    if (!d->atq_n)
        return true;
    uint32_t ti;
    unsigned slot;
    bool held = false;
    if (!aeu_pick(d, &ti, &slot, &held)) {
        if (held)
            d->st.stall_aeu_bar++;
        else
            d->st.stall_aeu_full++;
        return false;
    }
    struct core_dac_tuple *t = &d->atq[ti];
    int32_t ci = d->scta[slot];     /* d->v->w[slot].cta */
    if (ci < 0 || !(t->ctas >> ci & 1)) {
        core_dac_fail(d, d->f->insts[t->pc].line, "DAC model error: an enq of pc %d (PTX line "
                 "%u) for warp slot %u, which holds no warp of its batch", t->pc,
                 d->f->insts[t->pc].line, slot);
        return false;
    }
    unsigned wi = d->swi[slot];     /* d->v->w[slot].sw.gridv.warpid */
    struct core_dac_q *q = t->kind == PTX_DAC_Q_PRED ? &d->pq[slot] : &d->aq[slot];
    struct core_dac_rec *r = &q->r[(q->head + q->n) % q->cap];
    memset(r, 0, offsetof(struct core_dac_rec, addr));
    r->pc = t->pc;
    r->kind = t->kind;
    r->mask = t->mask[slot];
    r->slot = slot;
    if (d->wait_empty >> slot & 1)
        d->v->wake[slot] = 0;     /* its check sees the record */
    if (t->kind == PTX_DAC_Q_PRED) {
        r->pred = t->pred[slot];
        if (d->fault == 2)
            r->pred ^= 1u;      /* fault injection: the golden check must fail */
        peu_case(d, r->mask, r->pred);
        r->ready = now + d->peu_cycles;
        d->aeu_free = now + d->peu_cycles;
        d->st.rec_pred++;
    } else {
        uint64_t a[EXEC_WARP];      /* the addresses of r's lanes, in order */
        unsigned na = 0;
        if (t->vslots >> slot & 1) {    /* a vector address: the lanes' own */
            const uint64_t *tv = t->vv + (size_t)slot * EXEC_WARP;
            EXEC_FOR_EACH_LANE(r->mask, lane, {
                r->addr[lane] = tv[lane];
                a[na++] = tv[lane];
            });
        } else {
            na = rec_addrs(k, wi, r->mask, t->v[ci], t->sel ? t->v2[ci] : t->v[ci],
                           t->sel ? t->smask[slot] : ~0u, r->addr, a);
        }
        if (t->data) {
            bool global = true;
            for (unsigned i = 0; i < na; i++)
                global &= a[i] >= EXEC_GLOBAL_BASE;
            struct core_line lines[32];
            unsigned n = global ? rec_lines(a, na, t->abytes, (unsigned)d->v->c->l1d_line,
                                            (unsigned)d->v->c->l1d_sector, lines) : 0;
            bool over = global && d->locked + n > d->lock_lines;
            if (global && n && !over && (d->nfetch == CORE_DAC_MAXFETCH || d->v->qn + n > 32))
                return false;       /* memory queue busy: try next cycle */
            if (over || (global && n && !slk_take(d, lines, n))) {
                d->st.lock_refused++;
            } else if (global && n) {
                unsigned fi = 0;
                while (d->fetch[fi])
                    fi++;
                d->fetch[fi] = r;
                d->nfetch++;
                r->locked = 1;
                r->nlines = (uint16_t)n;
                r->left = n;
                d->locked += n;
                d->st.prefetch_lines += n;
                for (unsigned i = 0; i < n; i++)
                    r->lines[i] = lines[i].line_addr;
                for (unsigned i = 0; i < n; i++) {
                    struct core_mem_req m;
                    memset(&m, 0, sizeof m);
                    m.line_addr = lines[i].line_addr;
                    m.tag = (CORE_DAC_TAG_SLOT << 8) | fi;
                    m.sm = (uint16_t)d->v->id;
                    m.warp = (uint16_t)slot;
                    m.sector_mask = lines[i].sector_mask;
                    m.space = PTX_SP_GLOBAL;
                    m.bytes = lines[i].bytes;
                    m.pc = d->v->k->f->insts[t->pc].line;
                    m.prio = core_view_prio(d->v, slot);
                    m.lock = 1;     /* held in the L1D until the deq */
                    core_view_push_req(d->v, &m);
                }
            }
        }
        r->ready = now + d->aeu_cycles;
        d->aeu_free = now + d->aeu_cycles;
        if (t->kind == PTX_DAC_Q_DATA)
            d->st.rec_data++;
        else
            d->st.rec_addr++;
    }
    q->n++;
    d->nrec++;
    t->pend &= ~(1ull << slot);
    atq_pop_done(d);
    if (r->ready < d->next_ready)
        d->next_ready = r->ready;
    return true;
}

/* One SM cycle of the expansion units and occupancy accounting. */
void core_dac_cycle(struct core_dac *d, uint64_t now)
{
    if (!d->active)
        return;
    d->next_ready = UINT64_MAX;
    if (now > d->last_sample) {
        uint64_t dt = now - d->last_sample, occ = d->nrec;
        if (d->last_sample) {
            d->st.occ_sum += occ * dt;
            d->st.atq_sum += d->atq_n * dt;
            d->st.locked_sum += d->locked * dt;
            d->st.cycles += dt;
        }
        if (occ > d->st.occ_max)
            d->st.occ_max = occ;
        if (d->locked > d->st.locked_max)
            d->st.locked_max = d->locked;
        d->last_sample = now;
    }
    d->aeu_blocked = false;
    while (d->atq_n && d->aeu_free <= now)
        if (!expand_one(d, now)) {
            d->aeu_blocked = true;
            break;
        }
}

/* After the SM cycle at now: the next cycle at which the DAC unit can
 * make progress by itself (the AEU/PEU, the affine warp, a record
 * becoming ready), or CORE_INF (it waits for a deq, a memory response or
 * a queue pop, which wake the SM). */
uint64_t core_dac_next(const struct core_dac *d, uint64_t now)
{
    if (!d->active || d->why[0])
        return UINT64_MAX;
    uint64_t nx = d->next_ready > now ? d->next_ready : now + 1;
    if (d->atq_n && !d->aeu_blocked) {
        uint64_t t = d->aeu_free > now ? d->aeu_free : now + 1;
        nx = t < nx ? t : nx;
    }
    for (unsigned j = 0; j < d->npass; j++) {
        struct core_dac_pass p = core_dac_pass_view(d, j);
        if (!p.run) {
            if (d->pend_n)          /* a free context takes the waiting CTAs */
                nx = now + 1 < nx ? now + 1 : nx;
            continue;
        }
        if ((p.atq_blocked && d->atq_n == d->atq_cap) || p.mask_blocked)
            continue;
        uint64_t t = p.ready > now ? p.ready : now + 1;
        nx = t < nx ? t : nx;
    }
    return nx;
}

/* A prefetch line response with tag index ix arrived at now. */
void core_dac_resp(struct core_dac *d, unsigned ix, uint64_t now)
{
    if (ix >= CORE_DAC_MAXFETCH || !d->fetch[ix])
        return;
    struct core_dac_rec *r = d->fetch[ix];
    if (r->left && --r->left == 0) {
        if (r->ready < now + 1)
            r->ready = now + 1;     /* readable the next cycle, as a load's
                                       destination register (core_sm_resp) */
        if (d->wait_data >> r->slot & 1)
            d->v->wake[r->slot] = 0;  /* its check sees the data */
        d->fetch[ix] = NULL;
        d->nfetch--;
    }
}

/* Writes the DAC unit's state (affine warp pc and batch, ATQ, queued
 * records) to buf for the deadlock report. Returns the characters written. */
int core_dac_describe(const struct core_dac *d, char *buf, size_t n)
{
    if (!d->active || n == 0)
        return 0;
    unsigned nrec = 0, nmask = 0;
    for (uint32_t i = 0; i < d->nslots; i++) {
        nrec += d->aq[i].n + d->pq[i].n;
        nmask += d->mq[i].n;
    }
    int k = snprintf(buf, n, " SM %u DAC:", d->v->id);
    for (unsigned j = 0; j < d->npass && k >= 0 && (size_t)k < n; j++) {
        struct core_dac_pass p = core_dac_pass_view(d, j);
        k += snprintf(buf + k, n - (size_t)k, " pass %u %s pc %d (batch 0x%llx%s),", j,
                      p.run ? "at" : "idle", p.run && p.sp ? p.stk[p.sp - 1].npc : -1,
                      (unsigned long long)p.batch, p.mask_blocked ? ", waiting for masks" : "");
    }
    if (k >= 0 && (size_t)k < n)
        k += snprintf(buf + k, n - (size_t)k, " %u CTAs waiting, ATQ %u/%u, %u records "
                      "queued, %u masks sent, %u lines locked, %u prefetches out;",
                      d->pend_n, d->atq_n, d->atq_cap, nrec, nmask, d->locked, d->nfetch);
    return k < 0 ? 0 : (size_t)k < n ? k : (int)n - 1;
}

/* Adds the SM's DAC counters to s (first SM: counts the launch). */
void core_dac_stats(const struct core_dac *d, bool first, ls_stats *s)
{
    if (!d->on)
        return;
    ls_dac_stats *x = &s->dac;
    const struct core_dac_stats *t = &d->st;
    if (first) {
        x->launches += t->launches;
        x->not_decoupled += t->not_decoupled;
    }
    x->batches += t->batches;
    x->batch_ctas += t->batch_ctas;
    x->aff_insts += t->aff_insts;
    x->main_insts += t->main_insts;
    x->removed += t->removed;
    x->tuples += t->tuples;
    x->rec_addr += t->rec_addr;
    x->rec_data += t->rec_data;
    x->rec_pred += t->rec_pred;
    x->gl_loads += t->gl_loads;
    x->gl_served += t->gl_served;
    _Static_assert(CORE_DAC_KEPT_N == sizeof x->gl_kept / sizeof x->gl_kept[0],
                   "stats.def gl_kept: one name per reason of enum ptx_dac_why, then two");
    for (unsigned i = 0; i < CORE_DAC_KEPT_N; i++)
        x->gl_kept[i] += t->gl_kept[i];
    x->peu_uniform += t->peu_uniform;
    x->peu_two += t->peu_two;
    x->peu_full += t->peu_full;
    x->stall_enq_full += t->stall_enq_full;
    x->stall_aw_dep += t->stall_aw_dep;
    x->stall_aeu_full += t->stall_aeu_full;
    x->stall_aeu_bar += t->stall_aeu_bar;
    x->stall_deq_empty += t->stall_deq_empty;
    x->stall_deq_data += t->stall_deq_data;
    x->occ_sum += t->occ_sum;
    if (t->occ_max > x->occ_max)
        x->occ_max = t->occ_max;
    x->atq_sum += t->atq_sum;
    x->locked_sum += t->locked_sum;
    if (t->locked_max > x->locked_max)
        x->locked_max = t->locked_max;
    x->lock_refused += t->lock_refused;
    x->prefetch_lines += t->prefetch_lines;
    x->cycles += t->cycles;
    x->checked_addr += t->checked_addr;
    x->checked_pred += t->checked_pred;
    x->widen_checks += t->widen_checks;
    x->rec_mask += t->rec_mask;
    x->checked_mask += t->checked_mask;
    x->mask_dropped += t->mask_dropped;
    x->stall_aw_mask += t->stall_aw_mask;
    x->stall_mask_full += t->stall_mask_full;
    x->peu_ops += t->peu_ops;
    x->stall_aw_pipe += t->stall_aw_pipe;
    x->cta_wait += t->cta_wait;
    x->wr_hazards += t->wr_hazards;
    x->vec_issues += t->vec_issues;
    x->vec_lanes += t->vec_lanes;
    if (t->passes_max > x->passes_max)
        x->passes_max = t->passes_max;
}

