/* Memory partitions: a sectored L2 slice (write-back, write-allocate at
 * sector granularity, per-sector dirty bits, MSHRs with merging) in front of
 * a GDDR5-like DRAM channel (banks with open rows, tRCD/tRP/tRAS/tCL/tWL/
 * tCCD, a shared data bus, FR-FCFS or FCFS over a bounded queue, optional
 * sub-ranks). All DRAM times are in DRAM command clocks; events are in core
 * cycles, converted exactly (mem_core_of_dram / mem_dram_floor). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/mem_int.h"

static void dram_try(struct mem_sys *m, unsigned p, uint64_t t);
static void wait_retry(struct mem_sys *m, unsigned p, uint64_t t);

int mem_l2_init(struct mem_sys *m, char *err, size_t errlen)
{
    const struct cfg *c = &m->c;
    m->part = calloc(m->nparts, sizeof *m->part);
    if (!m->part) {
        snprintf(err, errlen, "out of memory [%s:%d]", __FILE__, __LINE__);
        return -1;
    }
    for (unsigned p = 0; p < m->nparts; p++) {
        struct mem_part *pt = &m->part[p];
        pt->wait_head = pt->wait_tail = MEM_NONE;
        pt->wake_at = UINT64_MAX;
        pt->first_act = UINT64_MAX;
        if (mem_cache_init(&pt->l2, (uint64_t)c->l2_size / m->nparts, (unsigned)c->l2_assoc,
                           (unsigned)c->l2_line, (unsigned)c->l2_sector, err, errlen))
            return -1;
        pt->l2.th_fg = (unsigned)c->lamar_th_fg;
        pt->nmshr = (unsigned)c->l2_mshrs;
        pt->mshr = calloc(pt->nmshr, sizeof *pt->mshr);
        pt->mshr_free = calloc(pt->nmshr, sizeof *pt->mshr_free);
        pt->bank = calloc((size_t)c->dram_banks, sizeof *pt->bank);
        pt->q = calloc((size_t)c->dram_queue, sizeof *pt->q);
        pt->req_port = calloc((size_t)c->icnt_part_ports, sizeof *pt->req_port);
        pt->rep_port = calloc((size_t)c->icnt_part_ports, sizeof *pt->rep_port);
        pt->l2_free = calloc((size_t)c->icnt_part_ports, sizeof *pt->l2_free);
        if (!pt->mshr || !pt->mshr_free || !pt->bank || !pt->q || !pt->req_port || !pt->rep_port ||
            !pt->l2_free) {
            snprintf(err, errlen, "out of memory for partition %u [%s:%d]",
                     p, __FILE__, __LINE__);
            return -1;
        }
        for (unsigned i = 0; i < pt->nmshr; i++)
            pt->mshr_free[pt->nmshr_free++] = (int32_t)(pt->nmshr - 1 - i);
        for (unsigned b = 0; b < (unsigned)c->dram_banks; b++)
            pt->bank[b].open_row = MEM_NONE;
    }
    return 0;
}

void mem_l2_free(struct mem_sys *m)
{
    for (unsigned p = 0; m->part && p < m->nparts; p++) {
        struct mem_part *pt = &m->part[p];
        mem_cache_free(&pt->l2);
        free(pt->mshr);
        free(pt->mshr_free);
        free(pt->bank);
        free(pt->q);
        free(pt->req_port);
        free(pt->rep_port);
        free(pt->l2_free);
    }
    free(m->part);
    m->part = NULL;
}

bool mem_part_idle(const struct mem_part *p)
{
    return p->nq == 0 && p->nwait == 0 && p->nmshr_free == p->nmshr;
}

/* ---- address mapping inside a partition ---- */

static unsigned l2_set(const struct mem_sys *m, const struct mem_part *pt, uint64_t addr)
{
    return (unsigned)(mem_local_line(m, addr) % pt->l2.sets);
}

/* ---- DRAM channel ---- */

static unsigned atoms_of(const struct mem_sys *m, uint8_t mask, bool is_write)
{
    if (m->c.dram_sector_reads && !is_write)
        return mem_popcount8(mask);
    unsigned sec = (unsigned)m->c.l2_sector, n = 0;
    long last = -1;
    for (unsigned i = 0; i < 8; i++) {
        if (!(mask >> i & 1))
            continue;
        long lo = (long)(i * sec / m->atom), hi = (long)(((i + 1) * sec - 1) / m->atom);
        for (long a = lo; a <= hi; a++)
            if (a > last) { n++; last = a; }
    }
    return n;
}

/* The sub-ranks the atoms of sector mask touch: atom a (of the line) is on
 * sub-rank a mod dram_subranks (power: which chips a command activates). */
static uint8_t subranks_of(const struct mem_sys *m, uint8_t mask)
{
    unsigned sec = (unsigned)m->c.l2_sector, ns = (unsigned)m->c.dram_subranks;
    uint8_t sr = 0;
    for (unsigned i = 0; i < 8; i++) {
        if (!(mask >> i & 1))
            continue;
        unsigned lo = i * sec / m->atom, hi = ((i + 1) * sec - 1) / m->atom;
        for (unsigned a = lo; a <= hi; a++)
            sr |= (uint8_t)(1u << (a % ns));
    }
    return sr;
}

static bool q_room(const struct mem_sys *m, const struct mem_part *pt, unsigned need)
{
    return pt->nq + need <= (unsigned)m->c.dram_queue;
}

static void dram_wake_at(struct mem_sys *m, unsigned p, uint64_t tick)
{
    struct mem_part *pt = &m->part[p];
    if (pt->wake_at <= tick)
        return;
    pt->wake_at = tick;
    mem_event(m, mem_core_of_dram(m, tick), MEM_EV_DRAM_WAKE, p, 0, 0);
}

static void dram_enqueue(struct mem_sys *m, unsigned p, uint64_t addr, uint8_t mask, bool is_write,
                         int32_t mshr, uint64_t t)
{
    struct mem_part *pt = &m->part[p];
    unsigned i = 0;
    while (pt->q[i].used)
        i++;
    uint64_t rg = mem_local_line(m, addr) * (uint64_t)m->c.l2_line / (uint64_t)m->c.dram_row_bytes;
    uint64_t nb = (uint64_t)m->c.dram_banks;
    struct mem_dram_req *q = &pt->q[i];
    q->seq = ++m->seq;
    q->bank = (uint32_t)((m->c.dram_bank_index == CFG_DRAM_BANK_INDEX_LINEAR ? rg : rg ^ (rg / nb)) % nb);
    q->row = rg / nb;
    q->mshr = mshr;
    q->atoms = (uint16_t)atoms_of(m, mask, is_write);
    q->bytes = (uint16_t)(q->atoms * m->atom);
    q->is_write = is_write;
    q->mask = mask;
    q->big = mem_popcount8(mask) > 1;
    q->sr = subranks_of(m, mask);
    q->used = 1;
    q->opened = 0;
    uint64_t now = mem_dram_floor(m, t);
    mem_pw_account(m, pt, now);
    /* dram_latency (GPGPU-Sim's fixed delay before the DRAM scheduler):
     * the entry holds its queue slot but the scheduler sees it only then */
    q->ready = m->c.dram_latency ? mem_dram_ceil(m, t + (uint64_t)m->c.dram_latency) : now;
    /* power-down exit: a sub-rank powered down (nothing queued for it, its
     * last burst done) starts its exit now and takes a command dram_tXP
     * clocks later; a request queued during the exit waits for it too */
    bool pdn = m->c.dram_powerdown == CFG_DRAM_POWERDOWN_IDLE, late = false;
    for (unsigned s = 0; s < MEM_MAX_SR; s++) {
        if (!(q->sr >> s & 1))
            continue;
        if (pdn && !pt->pw_nq[s] && pt->pw_busy[s] <= now) {
            pt->st.pdn_exits++;
            pt->pw_wake[s] = now + (uint64_t)m->c.dram_tXP;
        }
        if (pt->pw_wake[s] > q->ready) {
            q->ready = pt->pw_wake[s];
            late = true;
        }
        pt->pw_nq[s]++;
    }
    pt->st.xp_delayed += late;
    pt->nq++;
    dram_wake_at(m, p, q->ready);   /* never recurse into the scheduler */
}

/* The DRAM command bus issues one command per clock: an ACTIVATE (with the
 * precharge of the open row folded in) that opens a request's row, or a
 * column READ/WRITE for a request whose row is open. A column command is
 * eligible when its bank takes commands and its data would not wait for
 * the data bus (so requests stay in the queue, where the scheduler can
 * reorder them, while the bus is booked). An activate is eligible when
 * its bank takes commands and the open row has no queued hits. */
enum { DRAM_NONE, DRAM_COL, DRAM_ACT };

static int dram_kind(const struct mem_sys *m, const struct mem_part *pt, const struct mem_dram_req *q,
                     uint64_t T, uint64_t hitbanks, uint64_t *when)
{
    const struct mem_dram_bank *b = &pt->bank[q->bank];
    *when = UINT64_MAX;
    if (b->ready > T) {
        *when = b->ready;
        return DRAM_NONE;
    }
    if (b->open_row == (int64_t)q->row) {
        uint64_t turn = q->is_write ? pt->wr_ready : pt->rd_ready;   /* tRTW, tWTR */
        if (turn > T) {
            *when = turn;
            return DRAM_NONE;
        }
        uint64_t ds = T + (uint64_t)(q->is_write ? m->c.dram_tWL : m->c.dram_tCL);
        if (pt->bus_free > ds) {
            *when = T + (pt->bus_free - ds);
            return DRAM_NONE;
        }
        return DRAM_COL;
    }
    if (b->open_row != MEM_NONE && q->bank < 64 && (hitbanks >> q->bank & 1))
        return DRAM_NONE;                    /* retried when the hits issue */
    return DRAM_ACT;
}

/* The queue entry to command at tick T (*kind says which command), or -1
 * with *next = the earliest tick at which one might be issuable. FR-FCFS:
 * the oldest row hit, else the oldest request needing an activate. FCFS:
 * each bank serves its requests in arrival order (no row-hit priority);
 * the oldest bank head that can take a command goes first. */
static int dram_choose(const struct mem_sys *m, const struct mem_part *pt, uint64_t T, int *kind,
                       uint64_t *next)
{
    unsigned nq = (unsigned)m->c.dram_queue, nb = (unsigned)m->c.dram_banks;
    uint64_t hitbanks = 0, soonest = UINT64_MAX, when;
    int head[64], hit = -1, other = -1;
    bool fcfs = m->c.dram_sched == CFG_DRAM_SCHED_FCFS;
    for (unsigned b = 0; b < nb && b < 64; b++)
        head[b] = -1;
    for (unsigned i = 0; i < nq; i++) {
        const struct mem_dram_req *q = &pt->q[i];
        if (!q->used)
            continue;
        if (q->ready > T) {             /* still in the dram_latency delay */
            if (q->ready < soonest)
                soonest = q->ready;
            continue;
        }
        if (q->bank < 64 && (head[q->bank] < 0 || q->seq < pt->q[head[q->bank]].seq))
            head[q->bank] = (int)i;
        if ((int64_t)q->row == pt->bank[q->bank].open_row && q->bank < 64)
            hitbanks |= 1ull << q->bank;
    }
    for (unsigned i = 0; i < nq; i++) {
        const struct mem_dram_req *q = &pt->q[i];
        if (!q->used || q->ready > T || (fcfs && q->bank < 64 && head[q->bank] != (int)i))
            continue;
        int k = dram_kind(m, pt, q, T, fcfs ? 0 : hitbanks, &when);
        if (k == DRAM_NONE) {
            if (when < soonest)
                soonest = when;
        } else if (k == DRAM_COL && !fcfs) {
            if (hit < 0 || q->seq < pt->q[hit].seq)
                hit = (int)i;
        } else if (other < 0 || q->seq < pt->q[other].seq) {
            other = (int)i;
        }
    }
    if (hit >= 0) {
        *kind = DRAM_COL;
        return hit;
    }
    if (other >= 0) {
        const struct mem_dram_req *q = &pt->q[other];
        *kind = (int64_t)q->row == pt->bank[q->bank].open_row ? DRAM_COL : DRAM_ACT;
        return other;
    }
    *next = soonest > T && soonest != UINT64_MAX ? soonest : T + 1;
    return -1;
}

/* ACTIVATE for entry i at tick T: precharge the open row (tRAS after its
 * activate, after its last data), tRP, activate; columns tRCD later. */
static void dram_activate(struct mem_sys *m, struct mem_part *pt, unsigned i, uint64_t T)
{
    const struct cfg *c = &m->c;
    struct mem_dram_req *q = &pt->q[i];
    struct mem_dram_bank *b = &pt->bank[q->bank];
    uint64_t act = T;
    ls_dram_class *k = &pt->st.by_size[q->big];
    if (b->open_row != MEM_NONE) {
        uint64_t pre = T > b->pre_ready ? T : b->pre_ready;
        pt->st.precharges++;
        k->precharges++;
        act = pre + (uint64_t)c->dram_tRP;
    }
    if (act < b->act_ready)             /* tRC: activates of one bank */
        act = b->act_ready;
    if (act < pt->act_next)             /* tRRD: activates of the channel */
        act = pt->act_next;
    b->act_ready = act + (uint64_t)c->dram_tRC;
    pt->act_next = act + (uint64_t)c->dram_tRRD;
    pt->st.activates++;
    k->activates++;
    pt->st.act_subranks += mem_popcount8(q->sr);
    mem_pw_account(m, pt, T);           /* power: the bank's row moves */
    for (unsigned s = 0; s < MEM_MAX_SR; s++)
        pt->pw_open[s] = (uint16_t)(pt->pw_open[s] - (b->sr_open >> s & 1) + (q->sr >> s & 1));
    b->sr_open = q->sr;
    if (pt->first_act == UINT64_MAX)
        pt->first_act = act;
    q->opened = 1;
    b->open_row = (int64_t)q->row;
    b->ready = act + (uint64_t)c->dram_tRCD;
    b->pre_ready = act + (uint64_t)c->dram_tRAS;
}

/* Column commands (one per atom, tCCD apart) for entry i at tick T; the
 * data follows tCL/tWL later on the shared bus; the entry leaves the queue. */
static void dram_column(struct mem_sys *m, unsigned p, unsigned i, uint64_t T)
{
    const struct cfg *c = &m->c;
    struct mem_part *pt = &m->part[p];
    struct mem_dram_req *q = &pt->q[i];
    struct mem_dram_bank *b = &pt->bank[q->bank];
    /* row_hits counts column commands to an open row: all of them, but the
     * first of the request whose activate opened the row (so row_hits +
     * activates = reads + writes) */
    ls_dram_class *k = &pt->st.by_size[q->big];
    pt->st.row_hits += q->atoms - (q->opened ? 1u : 0u);
    k->row_hits += q->atoms - (q->opened ? 1u : 0u);
    k->requests++;
    /* power: a sub-rank the row's activate left closed is activated now
     * (its chips open the row; the timing model has one row per bank) */
    pt->st.act_subranks += mem_popcount8((uint8_t)(q->sr & ~b->sr_open));
    mem_pw_account(m, pt, T);
    for (unsigned s = 0; s < MEM_MAX_SR; s++)
        pt->pw_open[s] += (uint16_t)((q->sr & ~b->sr_open) >> s & 1);
    b->sr_open |= q->sr;
    uint64_t col = T > b->ready ? T : b->ready;
    if (col < pt->col_ready)
        col = pt->col_ready;
    uint64_t cmds = (uint64_t)q->atoms * (uint64_t)c->dram_tCCD;
    pt->col_ready = col + cmds;
    b->ready = col + cmds;
    uint64_t ds = col + (uint64_t)(q->is_write ? c->dram_tWL : c->dram_tCL);
    if (ds < pt->bus_free)
        ds = pt->bus_free;
    uint64_t de = ds + (q->bytes + (uint64_t)c->dram_bus_bytes - 1) / (uint64_t)c->dram_bus_bytes;
    pt->bus_free = de;
    for (unsigned s = 0; s < MEM_MAX_SR; s++)       /* power: standby until the data ends */
        if (q->sr >> s & 1) {
            pt->pw_nq[s]--;
            if (pt->pw_busy[s] < de)
                pt->pw_busy[s] = de;
        }
    /* write recovery before a precharge; read/write turnaround (the
     * command bus may not switch direction sooner) */
    uint64_t pr = de + (q->is_write ? (uint64_t)c->dram_tWR : 0);
    if (b->pre_ready < pr)
        b->pre_ready = pr;
    if (q->is_write) {
        if (pt->rd_ready < de + (uint64_t)c->dram_tWTR)
            pt->rd_ready = de + (uint64_t)c->dram_tWTR;
    } else if (pt->wr_ready < col + (uint64_t)c->dram_tRTW) {
        pt->wr_ready = col + (uint64_t)c->dram_tRTW;
    }
    if (q->is_write) {
        pt->st.writes += q->atoms;
        pt->st.write_bytes += q->bytes;
        k->writes += q->atoms;
    } else {
        pt->st.reads += q->atoms;
        pt->st.read_bytes += q->bytes;
        k->reads += q->atoms;
    }
    pt->st.bytes += q->bytes;
    if (!q->is_write)
        mem_event(m, mem_core_of_dram(m, de), MEM_EV_DRAM_DONE, p, (uint32_t)q->mshr, q->mask);
    q->used = 0;
    pt->nq--;
}

static void dram_try(struct mem_sys *m, unsigned p, uint64_t t)
{
    struct mem_part *pt = &m->part[p];
    if (!pt->nq)
        return;
    uint64_t T = mem_dram_floor(m, t), next = 0;
    if (T < pt->last_issue) {          /* one issue per DRAM clock */
        dram_wake_at(m, p, pt->last_issue);
        return;
    }
    int kind = DRAM_NONE;
    int i = dram_choose(m, pt, T, &kind, &next);
    if (i < 0) {
        dram_wake_at(m, p, next);
        return;
    }
    pt->last_issue = T + 1;
    if (kind == DRAM_ACT) {
        dram_activate(m, pt, (unsigned)i, T);
    } else {
        dram_column(m, p, (unsigned)i, T);
        wait_retry(m, p, t);           /* a queue slot is free again */
    }
    if (pt->nq)
        dram_wake_at(m, p, T + 1);
}

void mem_dram_wake(struct mem_sys *m, unsigned p, uint64_t t)
{
    struct mem_part *pt = &m->part[p];
    if (pt->wake_at <= mem_dram_floor(m, t))
        pt->wake_at = UINT64_MAX;
    dram_try(m, p, t);
}

/* ---- L2 slice ---- */

/* The lookup of packet k (its sectors mask) starting at t or when its
 * pipeline is free; returns when a hit's reply leaves. Without
 * l2_port_bytes a slice takes one lookup per core cycle; with it, each
 * sub-partition (icnt port) has its own pipeline, which a request holds
 * for ceil(bytes / l2_port_bytes) cycles (GPGPU-Sim's sectored L2 takes
 * one 32-byte sector request per cycle per sub-partition). */
static uint64_t l2_pipe(struct mem_sys *m, struct mem_part *pt, int32_t k, uint8_t mask, uint64_t t)
{
    uint64_t *f = &pt->l2_free[0], busy = 1;
    if (m->c.l2_port_bytes) {
        uint64_t bytes = (uint64_t)mem_popcount8(mask) * (uint64_t)m->c.l2_sector;
        uint64_t w = (uint64_t)m->c.l2_port_bytes;
        f = &pt->l2_free[mem_part_port(m, m->pkt[k].l2_addr)];
        busy = bytes > w ? (bytes + w - 1) / w : 1;
    }
    uint64_t start = t > *f ? t : *f;
    *f = start + busy;
    return start + (uint64_t)m->c.l2_latency;
}

static void mshr_append(struct mem_sys *m, struct mem_l2_mshr *ms, int32_t k)
{
    m->pkt[k].next = MEM_NONE;
    ms->n++;
    if (ms->tail == MEM_NONE)
        ms->head = k;
    else
        m->pkt[ms->tail].next = k;
    ms->tail = k;
}

static int32_t mshr_new(struct mem_part *pt, int32_t line)
{
    int32_t msi = pt->mshr_free[--pt->nmshr_free];
    pt->mshr[msi] = (struct mem_l2_mshr){.line = line, .head = MEM_NONE, .tail = MEM_NONE};
    return msi;
}

static void read_below(struct mem_sys *m, unsigned p, int32_t msi, uint64_t addr, uint8_t mask, uint64_t t)
{
    struct mem_l2_mshr *ms = &m->part[p].mshr[msi];
    ms->pending |= mask;
    ms->out++;
    dram_enqueue(m, p, addr, mask, false, msi, t);
}

/* L2 without storage (l2_size = 0): reads and writes go to DRAM. */
static bool l2_none(struct mem_sys *m, unsigned p, int32_t k, uint64_t t)
{
    struct mem_part *pt = &m->part[p];
    struct mem_pkt *pk = &m->pkt[k];
    if (!q_room(m, pt, 1) || (pk->kind != MEM_PK_WRITE && !pt->nmshr_free))
        return false;
    if (pk->kind == MEM_PK_WRITE) {
        dram_enqueue(m, p, pk->l2_addr, pk->l2_mask, true, MEM_NONE, t);
        mem_reply(m, p, k, t + 1);
        return true;
    }
    int32_t msi = mshr_new(pt, MEM_NONE);
    mshr_append(m, &pt->mshr[msi], k);
    read_below(m, p, msi, pk->l2_addr, pk->l2_mask, t);
    return true;
}

static void write_back(struct mem_sys *m, unsigned p, struct mem_line *v, uint64_t t)
{
    if (v->present && v->dirty)
        dram_enqueue(m, p, v->addr, v->dirty, true, MEM_NONE, t);
}

/* Tries to serve packet k at partition p at core cycle t; false when a
 * resource (MSHR, replaceable way, DRAM queue slot) is missing. */
static bool l2_try(struct mem_sys *m, unsigned p, int32_t k, uint64_t t)
{
    struct mem_part *pt = &m->part[p];
    if (!pt->l2.sets)
        return l2_none(m, p, k, t);
    struct mem_pkt *pk = &m->pkt[k];
    ls_cache_stats *st = &pt->l2.st;
    uint8_t mask = pk->l2_mask;
    unsigned set = l2_set(m, pt, pk->l2_addr);
    struct mem_line *l = mem_cache_find(&pt->l2, set, pk->l2_addr), *v = l;
    unsigned slots = 0;
    if (pk->kind == MEM_PK_WRITE && !l && m->c.l2_write_alloc == CFG_L2_WRITE_ALLOC_NONE) {
        /* no write-allocate: the miss goes on to DRAM (GPGPU-Sim's
         * wr_miss_no_wa) */
        if (!q_room(m, pt, 1))
            return false;
        uint64_t done = l2_pipe(m, pt, k, mask, t);
        st->accesses++;
        st->wr_accesses++;
        st->misses++;
        st->sector_misses += mem_popcount8(mask);
        dram_enqueue(m, p, pk->l2_addr, mask, true, MEM_NONE, t);
        mem_reply(m, p, k, done);
        return true;
    }
    if (pk->kind == MEM_PK_WRITE) {      /* write-back, write-allocate per sector */
        if (!v) {
            if (!(v = mem_cache_victim(&pt->l2, set)))
                return false;
            slots = v->present && v->dirty;
        }
        if (!q_room(m, pt, slots))
            return false;
        uint64_t done = l2_pipe(m, pt, k, mask, t);
        st->accesses++;
        st->wr_accesses++;
        if (l && (l->valid & mask) == mask) {
            st->hits++;
            st->wr_hits++;
            l->reuse++;
        } else {
            st->misses++;
            st->sector_misses += mem_popcount8((uint8_t)(mask & ~(l ? l->valid : 0)));
        }
        if (!l) {
            write_back(m, p, v, t);
            if (v->present)       /* nothing is fetched: no query, an eviction */
                mem_gdu_step(m, &pt->gdu, st, t, 0, 0, 0, v);
            mem_cache_fill_line(&pt->l2, v, pk->l2_addr);
        }
        v->valid |= mask;
        v->dirty |= mask;
        mem_cache_ref(&pt->l2, v, mask);
        mem_cache_touch(&pt->l2, v);
        mem_reply(m, p, k, done);
        return true;
    }
    if (l && (l->valid & mask) == mask) {           /* read or atomic hit */
        uint64_t done = l2_pipe(m, pt, k, mask, t);
        st->accesses++;
        st->hits++;
        l->reuse++;
        mem_cache_ref(&pt->l2, l, mask);
        if (pk->kind == MEM_PK_ATOMIC)
            l->dirty |= mask;
        mem_cache_touch(&pt->l2, l);
        mem_reply(m, p, k, done);
        return true;
    }
    uint8_t missing = (uint8_t)(mask & ~(l ? l->valid : 0));
    if (l && l->mshr != MEM_NONE) {                 /* merge */
        struct mem_l2_mshr *ms = &pt->mshr[l->mshr];
        uint8_t extra = (uint8_t)(missing & ~ms->pending);
        /* GPGPU-Sim's bounds (gpu-cache.cc): an entry merges at most
         * l2_mshr_merge requests (mshr_table::full), and with l2_merge_room
         * a merge also waits while nothing could be queued below
         * (rd_miss_base checks the miss queue before the MSHRs) */
        if (m->c.l2_mshr_merge && ms->n >= (unsigned)m->c.l2_mshr_merge)
            return false;
        if ((extra || m->c.l2_merge_room) && !q_room(m, pt, 1))
            return false;
        l2_pipe(m, pt, k, mask, t);
        st->accesses++;
        st->misses++;
        st->mshr_merges++;
        st->sector_misses += mem_popcount8(missing);
        mem_cache_ref(&pt->l2, l, mask);
        l->fnpr |= extra;                    /* the allocating fetch left them out */
        mem_cache_touch(&pt->l2, l);
        mshr_append(m, ms, k);
        if (extra)
            read_below(m, p, l->mshr, pk->l2_addr, extra, t);
        return true;
    }
    slots = 1;
    if (!v) {
        if (!(v = mem_cache_victim(&pt->l2, set)))
            return false;
        slots += v->present && v->dirty;
    }
    if (!pt->nmshr_free || !q_room(m, pt, slots)) {
        /* a dirty victim needs a write-back and a read slot: when only one
         * is free, write the victim back now and retry (a one-entry DRAM
         * queue would otherwise never fit both) */
        if (pt->nmshr_free && slots == 2 && q_room(m, pt, 1)) {
            write_back(m, p, v, t);
            mem_gdu_step(m, &pt->gdu, st, t, 0, 0, 0, v);
            mem_cache_evict(&pt->l2, v);
        }
        return false;
    }
    l2_pipe(m, pt, k, mask, t);
    uint8_t fetch = missing;
    if (!l) {           /* a line miss: the GDU says how much of it to fetch */
        write_back(m, p, v, t);
        uint32_t trig = mem_gdu_trig(&pt->gdu, pk->pc, mask);
        uint8_t extra = mem_gdu_step(m, &pt->gdu, st, t, 1, pk->l2_addr, trig,
                                     v->present ? v : NULL);
        mem_cache_fill_line(&pt->l2, v, pk->l2_addr);
        v->trig = trig;
        mem_cache_gdu_answer(v, extra, pt->gdu.all);
        fetch = (uint8_t)(mask | (extra & pt->gdu.all));
        v->fdem = mask;
        v->fprd = (uint8_t)(fetch & ~mask);
    } else {            /* a sector miss: the earlier fetch left them out */
        v->fnpr |= missing;
    }
    st->accesses++;
    st->misses++;
    st->sector_misses += mem_popcount8(missing);
    mem_cache_ref(&pt->l2, v, mask);
    mem_cache_touch(&pt->l2, v);
    int32_t msi = mshr_new(pt, (int32_t)(v - pt->l2.lines));
    v->mshr = msi;
    mshr_append(m, &pt->mshr[msi], k);
    read_below(m, p, msi, pk->l2_addr, fetch, t);
    return true;
}

static void wait_push(struct mem_sys *m, struct mem_part *pt, int32_t k)
{
    struct mem_pkt *pk = &m->pkt[k];
    if (!pk->counted) {
        pk->counted = 1;
        pt->l2.st.reservation_fails++;
    }
    pk->next = MEM_NONE;
    if (pt->wait_tail == MEM_NONE)
        pt->wait_head = k;
    else
        m->pkt[pt->wait_tail].next = k;
    pt->wait_tail = k;
    pt->nwait++;
}

static void wait_retry(struct mem_sys *m, unsigned p, uint64_t t)
{
    struct mem_part *pt = &m->part[p];
    while (pt->wait_head != MEM_NONE) {
        int32_t k = pt->wait_head;
        int32_t nx = m->pkt[k].next;
        pt->wait_head = nx;
        if (nx == MEM_NONE)
            pt->wait_tail = MEM_NONE;
        pt->nwait--;
        if (l2_try(m, p, k, t))
            continue;
        /* put it back at the head, in order */
        m->pkt[k].next = pt->wait_head;
        pt->wait_head = k;
        if (pt->wait_tail == MEM_NONE)
            pt->wait_tail = k;
        pt->nwait++;
        break;
    }
}

void mem_l2_arrive(struct mem_sys *m, unsigned p, int32_t k, uint64_t t)
{
    struct mem_part *pt = &m->part[p];
    if (pt->nwait == 0 && l2_try(m, p, k, t))
        return;
    wait_push(m, pt, k);
}

void mem_dram_done(struct mem_sys *m, unsigned p, uint32_t msi, uint8_t mask, uint64_t t)
{
    struct mem_part *pt = &m->part[p];
    struct mem_l2_mshr *ms = &pt->mshr[msi];
    struct mem_line *l = ms->line != MEM_NONE ? &pt->l2.lines[ms->line] : NULL;
    if (l)
        mem_cache_fill_sectors(&pt->l2, l, mask);
    if (--ms->out)
        return;
    for (int32_t k = ms->head; k != MEM_NONE;) {
        int32_t nx = m->pkt[k].next;
        if (l && m->pkt[k].kind == MEM_PK_ATOMIC)
            l->dirty |= m->pkt[k].l2_mask;
        mem_reply(m, p, k, t);
        k = nx;
    }
    if (l)
        l->mshr = MEM_NONE;
    pt->mshr_free[pt->nmshr_free++] = (int32_t)msi;
    wait_retry(m, p, t);
}
