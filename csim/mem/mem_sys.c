/* The memory-hierarchy API (mem.h): per-SM sectored L1D with MSHRs and
 * merging, the interconnect (request and reply networks with per-port
 * bandwidth and latency in the icnt clock), the event loop and statistics.
 * The L2 slices and DRAM channels are in mem_l2.c. Write policy of the L1D:
 * write-through, no write-allocate; atomics bypass it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/mem_int.h"
#include "api/stats_ops.h"
#include "ptx/ptx_ir.h"

/* "message [src:line]" into err */
#define MEM_ERR(err, n, ...) \
    do { int o_ = snprintf((err), (n), __VA_ARGS__); \
         if (o_ >= 0 && (size_t)o_ < (n)) \
             snprintf((err) + o_, (n) - (size_t)o_, " [%s:%d]", __FILE__, __LINE__); } while (0)

/* ---- clock domains: exact integer ratios, no accumulated drift ---- */

static uint64_t div_ceil(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

uint64_t mem_icnt_ceil(const struct mem_sys *m, uint64_t core) { return div_ceil(core * m->fi, m->fc); }
uint64_t mem_core_of_icnt(const struct mem_sys *m, uint64_t tick) { return div_ceil(tick * m->fc, m->fi); }
uint64_t mem_dram_floor(const struct mem_sys *m, uint64_t core) { return core * m->fd / m->fc; }
uint64_t mem_dram_ceil(const struct mem_sys *m, uint64_t core) { return div_ceil(core * m->fd, m->fc); }
uint64_t mem_core_of_dram(const struct mem_sys *m, uint64_t tick) { return div_ceil(tick * m->fc, m->fd); }

void mem_event(struct mem_sys *m, uint64_t time, uint8_t type, uint32_t a, uint32_t b, uint8_t mask)
{
    struct mem_ev e = {.time = time, .seq = ++m->seq, .a = a, .b = b, .type = type, .mask = mask};
    if (!mem_heap_push(&m->ev, &e))
        m->failed = true;
}

unsigned mem_partition_of(const struct mem_sys *m, uint64_t l2_addr)
{
    if (m->c.part_map == CFG_PART_MAP_CHUNK)
        return (unsigned)(l2_addr / (uint64_t)m->c.part_chunk_bytes % m->nparts);
    uint64_t l = l2_addr / (uint64_t)m->c.l2_line;
    return (unsigned)((l ^ (l >> 6) ^ (l >> 12)) % m->nparts);
}

unsigned mem_part_port(const struct mem_sys *m, uint64_t l2_addr)
{
    /* chunk: GPGPU-Sim's sub-partition, the low bank bit of the address
     * with the channel digit taken out (addrdec.cc, gap or not) */
    uint64_t unit = m->c.part_map == CFG_PART_MAP_CHUNK ? (uint64_t)m->c.part_chunk_bytes
                                                         : (uint64_t)m->c.l2_line;
    uint64_t l = l2_addr / unit / m->nparts;
    return (unsigned)(l % (uint64_t)m->c.icnt_part_ports);
}

uint64_t mem_local_line(const struct mem_sys *m, uint64_t l2_addr)
{
    if (m->c.part_map != CFG_PART_MAP_CHUNK)
        return l2_addr / (uint64_t)m->c.l2_line / m->nparts;
    uint64_t ch = (uint64_t)m->c.part_chunk_bytes;
    uint64_t rest = l2_addr / ch / m->nparts * ch + l2_addr % ch;
    return rest / (uint64_t)m->c.l2_line;
}

/* ---- packet pool ---- */

static int32_t pkt_alloc(struct mem_sys *m)
{
    if (m->npkt_free == 0) {
        size_t nc = m->pktcap ? m->pktcap * 2 : 1024;
        struct mem_pkt *np = realloc(m->pkt, nc * sizeof *np);
        if (!np) { m->failed = true; return MEM_NONE; }
        m->pkt = np;
        int32_t *nf = realloc(m->pkt_free, nc * sizeof *nf);
        if (!nf) { m->failed = true; return MEM_NONE; }
        m->pkt_free = nf;
        for (size_t i = nc; i > m->pktcap; i--)
            m->pkt_free[m->npkt_free++] = (int32_t)(i - 1);
        m->pktcap = nc;
    }
    int32_t k = m->pkt_free[--m->npkt_free];
    memset(&m->pkt[k], 0, sizeof m->pkt[k]);
    m->pkt[k].l1_mshr = MEM_NONE;
    m->pkt[k].next = MEM_NONE;
    return k;
}

void mem_pkt_release(struct mem_sys *m, int32_t k)
{
    m->pkt_free[m->npkt_free++] = k;
}

/* ---- interconnect: source port serialisation, latency, destination port
 * serialisation; a packet of B bytes takes ceil(B / icnt_bytes_per_cycle)
 * icnt cycles at each port. Returns the core cycle of delivery. ---- */
static uint64_t icnt_xfer(struct mem_sys *m, uint64_t *src, uint64_t *dst, uint64_t t, unsigned bytes)
{
    uint64_t flits = div_ceil(bytes, (uint64_t)m->c.icnt_bytes_per_cycle);
    m->noc_flits += flits;
    uint64_t start = mem_icnt_ceil(m, t);
    if (*src > start)
        start = *src;
    *src = start + flits;
    uint64_t head = start + (uint64_t)m->c.icnt_latency;   /* first flit at dst */
    if (*dst > head)
        head = *dst;
    *dst = head + flits;
    return mem_core_of_icnt(m, head + flits);
}

/* A request crosses the request network, then (texture fetches excepted)
 * waits l2_rop_latency in the partition's ROP queue before its L2 lookup
 * (GPGPU-Sim's memory_sub_partition::push: a fixed delay, in order). */
/* The interconnect port of SM sm: icnt_sm_share SMs share one, SM s on
 * port s mod nports (GPGPU-Sim's cluster: its cores share a node). */
static struct mem_sm *sm_port(struct mem_sys *m, unsigned sm)
{
    return &m->sm[sm % m->nports];
}

static void send_req(struct mem_sys *m, int32_t k, uint64_t t)
{
    struct mem_pkt *pk = &m->pkt[k];
    unsigned p = mem_partition_of(m, pk->l2_addr);
    uint64_t at = icnt_xfer(m, &sm_port(m, pk->sm)->req_port, &m->part[p].req_port[mem_part_port(m, pk->l2_addr)],
                            t, pk->bytes);
    if (!pk->tex)
        at += (uint64_t)m->c.l2_rop_latency;
    mem_event(m, at, MEM_EV_L2_ARRIVE, (uint32_t)k, p, 0);
}

void mem_reply(struct mem_sys *m, unsigned p, int32_t k, uint64_t t)
{
    struct mem_pkt *pk = &m->pkt[k];
    unsigned bytes;
    if (pk->kind == MEM_PK_WRITE)
        bytes = MEM_PKT_HDR;
    else if (pk->kind == MEM_PK_ATOMIC)
        bytes = pk->bytes;
    else        /* the sectors returned and the reply's header */
        bytes = mem_popcount8(pk->l2_mask) * (unsigned)m->c.l2_sector + (unsigned)m->c.icnt_reply_hdr;
    uint64_t at = icnt_xfer(m, &m->part[p].rep_port[mem_part_port(m, pk->l2_addr)], &sm_port(m, pk->sm)->rep_port,
                            t, bytes);
    mem_event(m, at, MEM_EV_SM_ARRIVE, (uint32_t)k, p, 0);
}

/* ---- per-SM response heap (by due cycle, then insertion) ---- */

static bool resp_before(const struct mem_resp_ev *x, const struct mem_resp_ev *y)
{
    return x->due < y->due || (x->due == y->due && x->seq < y->seq);
}

static void resp_push(struct mem_sys *m, struct mem_sm *s, uint64_t due, uint32_t tag, uint16_t warp)
{
    if (s->nresp == s->capresp) {
        size_t nc = s->capresp ? s->capresp * 2 : 64;
        struct mem_resp_ev *nv = realloc(s->resp, nc * sizeof *nv);
        if (!nv) { m->failed = true; return; }
        s->resp = nv;
        s->capresp = nc;
    }
    struct mem_resp_ev e = {.due = due, .seq = ++m->seq, .tag = tag, .warp = warp};
    size_t i = s->nresp++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!resp_before(&e, &s->resp[p]))
            break;
        s->resp[i] = s->resp[p];
        i = p;
    }
    s->resp[i] = e;
}

static void resp_pop(struct mem_sm *s)
{
    struct mem_resp_ev last = s->resp[--s->nresp];
    size_t i = 0, n = s->nresp;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, b = i;
        const struct mem_resp_ev *bv = &last;
        if (l < n && resp_before(&s->resp[l], bv)) { b = l; bv = &s->resp[l]; }
        if (r < n && resp_before(&s->resp[r], bv)) { b = r; }
        if (b == i)
            break;
        s->resp[i] = s->resp[b];
        i = b;
    }
    if (n)
        s->resp[i] = last;
}

/* ---- create / free ---- */

static int sm_init(struct mem_sys *m, struct mem_sm *s, char *err, size_t errlen)
{
    const struct cfg *c = &m->c;
    if (mem_cache_init(&s->l1, (uint64_t)c->l1d_size, (unsigned)c->l1d_assoc, (unsigned)c->l1d_line,
                       (unsigned)c->l1d_sector, err, errlen))
        return -1;
    s->l1.th_fg = (unsigned)c->lamar_th_fg;
    s->l1.keep_locked = c->dac_lock_break == CFG_DAC_LOCK_BREAK_OFF;
    unsigned nm = (unsigned)c->l1d_mshrs, nw = nm * MEM_L1_MERGE;
    s->mshr = calloc(nm, sizeof *s->mshr);
    s->mshr_free = calloc(nm, sizeof *s->mshr_free);
    s->wt = calloc(nw, sizeof *s->wt);
    s->wt_free = calloc(nw, sizeof *s->wt_free);
    if (!s->mshr || !s->mshr_free || !s->wt || !s->wt_free) {
        MEM_ERR(err, errlen, "out of memory for L1D MSHRs");
        return -1;
    }
    for (unsigned i = 0; i < nm; i++)
        s->mshr_free[s->nmshr_free++] = (int32_t)(nm - 1 - i);
    for (unsigned i = 0; i < nw; i++)
        s->wt_free[s->nwt_free++] = (int32_t)(nw - 1 - i);
    if (c->prefetch == CFG_PREFETCH_MTA && s->l1.sets &&
        mem_mta_init(&s->mta, c, (unsigned)c->l1d_line, err, errlen))
        return -1;
    return 0;
}

static bool clocks_ok(const struct cfg *c)
{
    return c->core_clock_mhz > 0 && c->icnt_clock_mhz > 0 && c->dram_clock_mhz > 0;
}

struct mem_sys *mem_sys_create(const struct cfg *c, unsigned nsms, char *err, size_t errlen)
{
    return mem_sys_create_env(c, nsms, NULL, err, errlen);
}

struct mem_sys *mem_sys_create_env(const struct cfg *c, unsigned nsms, struct cosim_env *env,
                                   char *err, size_t errlen)
{
    if (nsms == 0 || nsms > 65535 || !clocks_ok(c)) {
        MEM_ERR(err, errlen, "bad SM count %u or clock", nsms);
        return NULL;
    }
    if (c->l2_line < c->l1d_line) {
        MEM_ERR(err, errlen, "l2_line (%lld) must be at least l1d_line (%lld)",
                (long long)c->l2_line, (long long)c->l1d_line);
        return NULL;
    }
    if (c->part_map == CFG_PART_MAP_CHUNK && c->part_chunk_bytes % c->l2_line != 0) {
        MEM_ERR(err, errlen, "part_chunk_bytes (%lld) must be a multiple of l2_line (%lld)",
                (long long)c->part_chunk_bytes, (long long)c->l2_line);
        return NULL;
    }
    if (c->mem_partitions < 1 || c->icnt_part_ports < 1 || c->dram_atom_bytes % c->dram_subranks != 0) {
        MEM_ERR(err, errlen, "mem_partitions must be >= 1 and dram_subranks must divide dram_atom_bytes");
        return NULL;
    }
    long long l1sets = c->l1d_size / (c->l1d_assoc * c->l1d_line);
    if (c->l1d_set_index == CFG_L1D_SET_INDEX_FERMI && c->l1d_size &&
        ((l1sets != 32 && l1sets != 64) || c->l1d_line != 128)) {
        MEM_ERR(err, errlen, "l1d_set_index = fermi needs 32 or 64 sets of 128-byte lines (l1d: %lld sets of %lld bytes)",
                l1sets, (long long)c->l1d_line);
        return NULL;
    }
    struct mem_sys *m = calloc(1, sizeof *m);
    if (!m) {
        MEM_ERR(err, errlen, "out of memory");
        return NULL;
    }
    m->c = *c;
    m->nsms = nsms;
    m->nports = (nsms + (unsigned)c->icnt_sm_share - 1) / (unsigned)c->icnt_sm_share;
    m->nparts = (unsigned)c->mem_partitions;
    m->fc = (uint64_t)c->core_clock_mhz;
    m->fi = (uint64_t)c->icnt_clock_mhz;
    m->fd = (uint64_t)c->dram_clock_mhz;
    m->atom = (unsigned)(c->dram_atom_bytes / c->dram_subranks);
    m->sm = calloc(nsms, sizeof *m->sm);
    if (!m->sm) {
        MEM_ERR(err, errlen, "out of memory");
        free(m);
        return NULL;
    }
    for (unsigned i = 0; i < nsms; i++)
        if (sm_init(m, &m->sm[i], err, errlen)) {
            mem_sys_free(m);
            return NULL;
        }
    if (mem_l2_init(m, err, errlen) || mem_gdu_init(m, env, err, errlen)) {
        mem_sys_free(m);
        return NULL;
    }
    return m;
}

void mem_sys_free(struct mem_sys *m)
{
    if (!m)
        return;
    mem_gdu_free(m);
    for (unsigned i = 0; m->sm && i < m->nsms; i++) {
        struct mem_sm *s = &m->sm[i];
        mem_cache_free(&s->l1);
        mem_mta_free(&s->mta);
        free(s->mshr);
        free(s->mshr_free);
        free(s->wt);
        free(s->wt_free);
        free(s->resp);
    }
    free(m->sm);
    mem_l2_free(m);
    free(m->ev.v);
    free(m->pkt);
    free(m->pkt_free);
    free(m);
}

/* ---- L1D ---- */

/* The L2 line holding L1 line addr and the L2 sectors covering L1 mask. */
static uint8_t l2_mask_of(const struct mem_sys *m, uint64_t line_addr, uint8_t l1mask)
{
    uint64_t off = line_addr & (uint64_t)(m->c.l2_line - 1);
    uint64_t s1 = (uint64_t)m->c.l1d_sector, s2 = (uint64_t)m->c.l2_sector;
    uint8_t out = 0;
    for (unsigned i = 0; i < 8; i++) {
        if (!(l1mask >> i & 1))
            continue;
        uint64_t lo = (off + i * s1) / s2, hi = (off + (i + 1) * s1 - 1) / s2;
        for (uint64_t j = lo; j <= hi && j < 8; j++)
            out |= (uint8_t)(1u << j);
    }
    return out;
}

/* Room at the SM's request port for a packet it injects at core cycle t
 * (an L1D miss or a store leaves l1d_latency after its access): the
 * port's backlog at t is at most MEM_ICNT_QUEUE_TICKS. */
static bool port_ok(const struct mem_sys *m, const struct mem_sm *s, uint64_t t)
{
    const struct mem_sm *pt = &m->sm[(unsigned)(s - m->sm) % m->nports];
    return pt->req_port <= mem_icnt_ceil(m, t) + MEM_ICNT_QUEUE_TICKS;
}

static int32_t new_pkt(struct mem_sys *m, const struct core_mem_req *r, uint8_t l1mask, uint8_t kind)
{
    int32_t k = pkt_alloc(m);
    if (k == MEM_NONE)
        return k;
    struct mem_pkt *pk = &m->pkt[k];
    pk->l2_addr = r->line_addr & ~(uint64_t)(m->c.l2_line - 1);
    pk->l2_mask = l2_mask_of(m, r->line_addr, l1mask);
    pk->l1_mask = l1mask;
    pk->tag = r->tag;
    pk->sm = r->sm;
    pk->warp = r->warp;
    pk->kind = kind;
    pk->pc = r->pc;
    pk->tex = r->space == PTX_SP_TEX;
    pk->bytes = (uint16_t)(kind == MEM_PK_READ ? MEM_PKT_HDR : MEM_PKT_HDR + r->bytes);
    return k;
}

static void add_waiter(struct mem_sm *s, struct mem_l1_mshr *ms, const struct core_mem_req *r)
{
    int32_t w = s->wt_free[--s->nwt_free];
    s->wt[w] = (struct mem_waiter){.tag = r->tag, .warp = r->warp, .next = MEM_NONE};
    if (ms->tail == MEM_NONE)
        ms->head = w;
    else
        s->wt[ms->tail].next = w;
    ms->tail = w;
}

static bool l1_fail(struct mem_sm *s)
{
    s->l1.st.reservation_fails++;
    return false;
}

static bool send_read(struct mem_sys *m, struct mem_sm *s, int32_t msi, const struct core_mem_req *r,
                      uint8_t mask, uint64_t t)
{
    int32_t k = new_pkt(m, r, mask, MEM_PK_READ);
    if (k == MEM_NONE)
        return false;
    m->pkt[k].l1_mshr = msi;
    s->mshr[msi].out++;
    s->mshr[msi].pending |= mask;
    send_req(m, k, t);
    return true;
}

/* PCA: a load of a token holder (prio) or another warp, and its hit. */
static void pca_count(const struct mem_sys *m, struct mem_sm *s, const struct core_mem_req *r, bool hit)
{
    if (m->c.pca_tokens <= 0)
        return;
    if (r->prio) {
        s->pca.prio_accesses++;
        s->pca.prio_hits += hit;
    } else {
        s->pca.deprio_accesses++;
        s->pca.deprio_hits += hit;
    }
}

/* The L1D set of the line at byte address la (cfg_l1d_set: linear or
 * GPGPU-Sim's Fermi hash; the geometry is the cache's own). */
static unsigned l1_set(const struct mem_sys *m, const struct mem_sm *s, uint64_t la)
{
    return cfg_l1d_set(m->c.l1d_set_index, s->l1.sets, s->l1.line, la);
}

/* MTA (docs/dac.md "Comparison points"): a prefetch of line la for the
 * warp and pc of r, at now: allocates an L1D line (whole line, marked pf)
 * and an MSHR without waiters when one beyond mta.mshr_reserve is free and
 * the request port takes it; a line already present or pending is
 * redundant. The victim's eviction goes to the GDU as a demand miss's
 * would; the fetch itself does not ask the GDU (the prefetcher chose it). */
static void mta_prefetch(struct mem_sys *m, struct mem_sm *s, const struct core_mem_req *r,
                         uint64_t la, unsigned src, uint64_t now)
{
    unsigned set = l1_set(m, s, la);
    if (mem_cache_find(&s->l1, set, la) || (s->mta.pfc_ways && mem_mta_pfc_find(&s->mta, la))) {
        s->mta.st.redundant++;
        return;
    }
    uint8_t all = (uint8_t)((1u << s->l1.nsec) - 1u);
    struct core_mem_req q = *r;
    q.line_addr = la;
    q.tag = 0;
    if (s->mta.pfc_ways) {   /* into the prefetch cache (mem_mta.h) */
        struct mem_mta_pfl *pl;
        if (s->nmshr_free <= (unsigned)m->c.mta_mshr_reserve ||
            !port_ok(m, s, now + (uint64_t)m->c.l1d_latency) ||
            !(pl = mem_mta_pfc_alloc(&s->mta, la, s->mshr_free[s->nmshr_free - 1]))) {
            s->mta.st.dropped++;
            return;
        }
        int32_t msi = s->mshr_free[--s->nmshr_free];
        s->mshr[msi] = (struct mem_l1_mshr){.line = MEM_NONE, .head = MEM_NONE,
                                            .tail = MEM_NONE, .pfc = 1};
        if (!send_read(m, s, msi, &q, all, now + (uint64_t)m->c.l1d_latency)) {
            m->failed = true;
            return;
        }
        mem_mta_issued(&s->mta, src);
        return;
    }
    struct mem_line *v;
    if (s->nmshr_free <= (unsigned)m->c.mta_mshr_reserve ||
        !port_ok(m, s, now + (uint64_t)m->c.l1d_latency) ||
        !(v = mem_cache_victim(&s->l1, set))) {
        s->mta.st.dropped++;
        return;
    }
    if (v->present)
        mem_gdu_step(m, &s->gdu, &s->l1.st, now, 0, 0, 0, v);
    mem_cache_fill_line(&s->l1, v, la);
    v->pf = 1;
    int32_t msi = s->mshr_free[--s->nmshr_free];
    s->mshr[msi] = (struct mem_l1_mshr){.line = (int32_t)(v - s->l1.lines), .head = MEM_NONE, .tail = MEM_NONE};
    v->mshr = msi;
    if (!send_read(m, s, msi, &q, all, now + (uint64_t)m->c.l1d_latency)) {
        m->failed = true;
        return;
    }
    mem_mta_issued(&s->mta, src);
}

/* MTA: trains the tables on load r (its first line, accepted) and issues
 * their candidates. */
static void mta_train(struct mem_sys *m, struct mem_sm *s, const struct core_mem_req *r, uint64_t now)
{
    mem_mta_unused(&s->mta, s->l1.pf_unused - s->pf_seen);
    s->pf_seen = s->l1.pf_unused;
    struct mem_mta_cand c[64];
    unsigned n = mem_mta_train(&s->mta, r->pc, r->warp, r->line_addr, r->nlines, now, c, 64);
    for (unsigned i = 0; i < n; i++)
        mta_prefetch(m, s, r, c[i].line, c[i].src, now);
}

static bool l1_demand(struct mem_sys *m, struct mem_sm *s, const struct core_mem_req *r, uint64_t now)
{
    uint8_t need = r->sector_mask;
    uint64_t t = now + (uint64_t)m->c.l1d_latency;
    if (s->l1.sets == 0) {   /* no L1D: every read goes below through an MSHR */
        if (!s->nmshr_free || !s->nwt_free || !port_ok(m, s, now + 1))
            return false;
        int32_t msi = s->mshr_free[--s->nmshr_free];
        s->mshr[msi] = (struct mem_l1_mshr){.line = MEM_NONE, .head = MEM_NONE, .tail = MEM_NONE};
        add_waiter(s, &s->mshr[msi], r);
        return send_read(m, s, msi, r, need, now + 1);
    }
    unsigned set = l1_set(m, s, r->line_addr);
    struct mem_line *l = mem_cache_find(&s->l1, set, r->line_addr);
    if (l && (l->valid & need) == need) {
        s->l1.st.accesses++;
        s->l1.st.hits++;
        l->reuse++;
        if (l->pf) {
            mem_mta_useful(&s->mta, false);
            l->pf = 0;
        }
        pca_count(m, s, r, true);
        mem_cache_ref(&s->l1, l, need);
        mem_cache_touch(&s->l1, l);
        resp_push(m, s, t, r->tag, r->warp);
        s->l1_hit = 1;
        return true;
    }
    uint8_t missing = (uint8_t)(need & ~(l ? l->valid : 0));
    if (l && l->mshr != MEM_NONE) {          /* merge into the pending miss */
        struct mem_l1_mshr *ms = &s->mshr[l->mshr];
        uint8_t extra = (uint8_t)(missing & ~ms->pending);
        if (!s->nwt_free || (extra && !port_ok(m, s, t)))
            return l1_fail(s);
        s->l1.st.accesses++;
        s->l1.st.misses++;
        s->l1.st.mshr_merges++;
        if (l->pf) {
            mem_mta_useful(&s->mta, true);
            l->pf = 0;
        } else if (s->mta.npws) {
            s->mta.st.uncovered++;
        }
        s->l1.st.sector_misses += mem_popcount8(missing);
        pca_count(m, s, r, false);
        mem_cache_ref(&s->l1, l, need);
        l->fnpr |= extra;                    /* the allocating fetch left them out */
        mem_cache_touch(&s->l1, l);
        add_waiter(s, ms, r);
        if (extra)
            send_read(m, s, l->mshr, r, extra, t);
        return true;
    }
    struct mem_mta_pfl *pl = !l && s->mta.pfc_ways ? mem_mta_pfc_find(&s->mta, r->line_addr)
                                                     : NULL;
    if (pl) {   /* MTA's prefetch cache holds it: a hit there, or wait for its fetch */
        if (pl->msi >= 0 && !s->nwt_free)
            return l1_fail(s);
        s->l1.st.accesses++;
        s->l1.st.misses++;
        pca_count(m, s, r, false);
        mem_mta_pfc_use(&s->mta, pl);
        if (pl->msi >= 0)
            add_waiter(s, &s->mshr[pl->msi], r);
        else
            resp_push(m, s, t, r->tag, r->warp);
        s->l1_hit = pl->msi < 0;
        return true;
    }
    struct mem_line *v = l;
    if (!s->nmshr_free || !s->nwt_free || !port_ok(m, s, t))
        return l1_fail(s);
    /* PCA (docs/pca.md): a warp without a token replaces only a line that
     * such a warp allocated; with none, its fill bypasses the L1D (still
     * through an MSHR, without a line) */
    bool deprio = m->c.pca_tokens > 0 && !r->prio;
    if (!v && !(v = deprio ? mem_cache_victim_deprio(&s->l1, set) : mem_cache_victim(&s->l1, set))) {
        /* DAC's kept locks: a miss whose set holds only locked lines goes
         * around the L1D like PCA's, since waiting for an unlock can wait
         * for this very warp (docs/dac.md, "Locks") */
        if (!deprio && !mem_cache_lock_blocked(&s->l1, set))
            return l1_fail(s);
        s->l1.st.accesses++;
        s->l1.st.misses++;
        s->l1.st.sector_misses += mem_popcount8(need);
        pca_count(m, s, r, false);
        s->pca.bypassed += deprio;
        s->l1.st.lock_bypasses += !deprio;
        if (s->mta.npws)
            s->mta.st.uncovered++;
        int32_t msi = s->mshr_free[--s->nmshr_free];
        s->mshr[msi] = (struct mem_l1_mshr){.line = MEM_NONE, .head = MEM_NONE, .tail = MEM_NONE};
        add_waiter(s, &s->mshr[msi], r);
        return send_read(m, s, msi, r, need, t);
    }
    uint8_t fetch = missing;
    if (!l) {           /* a line miss: the GDU says how much of it to fetch */
        uint32_t trig = mem_gdu_trig(&s->gdu, r->pc, need);
        uint8_t extra = mem_gdu_step(m, &s->gdu, &s->l1.st, now, 1, r->line_addr, trig,
                                     v->present ? v : NULL);
        mem_cache_fill_line(&s->l1, v, r->line_addr);
        v->trig = trig;
        mem_cache_gdu_answer(v, extra, s->gdu.all);
        fetch = (uint8_t)(need | (extra & s->gdu.all));
        v->fdem = need;
        v->fprd = (uint8_t)(fetch & ~need);
        v->deprio = deprio;
    } else {            /* a sector miss: the earlier fetch left them out */
        v->fnpr |= missing;
    }
    if (s->mta.npws)
        s->mta.st.uncovered++;
    s->l1.st.accesses++;
    s->l1.st.misses++;
    s->l1.st.sector_misses += mem_popcount8(missing);
    pca_count(m, s, r, false);
    mem_cache_ref(&s->l1, v, need);
    mem_cache_touch(&s->l1, v);
    int32_t msi = s->mshr_free[--s->nmshr_free];
    s->mshr[msi] = (struct mem_l1_mshr){.line = (int32_t)(v - s->l1.lines), .head = MEM_NONE, .tail = MEM_NONE};
    v->mshr = msi;
    add_waiter(s, &s->mshr[msi], r);
    return send_read(m, s, msi, r, fetch, t);
}

/* DAC (docs/dac.md "The units"): an accepted enq.data prefetch locks its
 * line (hit, merged or allocated; a fill that bypassed the L1D has none),
 * the deq.data access releases one lock of its line if the line is still
 * there (a lock broken by an eviction left nothing to release). */
static void l1_lock(const struct mem_sys *m, struct mem_sm *s, const struct core_mem_req *r)
{
    if (!s->l1.sets)
        return;
    unsigned set = l1_set(m, s, r->line_addr);
    struct mem_line *l = mem_cache_find(&s->l1, set, r->line_addr);
    if (!l)
        return;
    if (r->lock)
        l->locks++;
    else if (l->locks)
        l->locks--;
}

/* A load: the demand access, then (accepted, MTA on, the instruction's
 * first line) the prefetcher's training and prefetches. */
static bool l1_read(struct mem_sys *m, struct mem_sm *s, const struct core_mem_req *r, uint64_t now)
{
    if (!l1_demand(m, s, r, now))
        return false;
    if (r->lock || r->unlock)
        l1_lock(m, s, r);
    if (s->mta.npws && r->first)
        mta_train(m, s, r, now);
    return true;
}

bool mem_l1_hit(const struct mem_sys *m, unsigned sm)
{
    return sm < m->nsms && m->sm[sm].l1_hit;
}

bool mem_access(struct mem_sys *m, const struct core_mem_req *r, uint64_t now)
{
    if (r->sm >= m->nsms || m->failed)
        return false;
    struct mem_sm *s = &m->sm[r->sm];
    s->l1_hit = r->space == PTX_SP_SHARED;
    if (r->space == PTX_SP_SHARED) {        /* not ours: answer at once */
        resp_push(m, s, now + 1, r->tag, r->warp);
        return true;
    }
    if (!r->is_write && !r->is_atomic)
        return l1_read(m, s, r, now);
    uint64_t t = now + (!r->is_atomic && s->l1.sets ? (uint64_t)m->c.l1d_latency : 1);
    if (!port_ok(m, s, t))
        return r->is_atomic ? false : l1_fail(s);
    if (!r->is_atomic && s->l1.sets) {      /* write-through, no allocate */
        unsigned set = l1_set(m, s, r->line_addr);
        struct mem_line *l = mem_cache_find(&s->l1, set, r->line_addr);
        s->l1.st.accesses++;
        s->l1.st.wr_accesses++;
        if (l && (l->valid & r->sector_mask) == r->sector_mask) {
            s->l1.st.hits++;
            s->l1.st.wr_hits++;
            l->reuse++;
            mem_cache_ref(&s->l1, l, r->sector_mask);
            mem_cache_touch(&s->l1, l);
            /* write-evict: a global store's hit invalidates the line (not
             * one a miss is filling or a DAC record holds) */
            if (m->c.l1d_store_hit == CFG_L1D_STORE_HIT_EVICT && r->space != PTX_SP_LOCAL &&
                l->mshr == MEM_NONE && !l->locks)
                mem_cache_evict(&s->l1, l);
        } else {
            s->l1.st.misses++;
        }
    }
    int32_t k = new_pkt(m, r, r->sector_mask, r->is_atomic ? MEM_PK_ATOMIC : MEM_PK_WRITE);
    if (k == MEM_NONE)
        return false;
    send_req(m, k, t);
    return true;
}

/* A reply reached SM s at t: fill the L1D and answer the waiters. */
static void sm_arrive(struct mem_sys *m, int32_t k, uint64_t t)
{
    struct mem_pkt *pk = &m->pkt[k];
    struct mem_sm *s = &m->sm[pk->sm];
    if (pk->kind != MEM_PK_READ || pk->l1_mshr == MEM_NONE) {
        resp_push(m, s, t, pk->tag, pk->warp);
        mem_pkt_release(m, k);
        return;
    }
    int32_t msi = pk->l1_mshr;
    struct mem_l1_mshr *ms = &s->mshr[msi];
    if (ms->line != MEM_NONE) {
        mem_cache_fill_sectors(&s->l1, &s->l1.lines[ms->line], pk->l1_mask);
    }
    mem_pkt_release(m, k);
    if (--ms->out)
        return;
    for (int32_t w = ms->head; w != MEM_NONE;) {
        int32_t nx = s->wt[w].next;
        resp_push(m, s, t, s->wt[w].tag, s->wt[w].warp);
        s->wt_free[s->nwt_free++] = w;
        w = nx;
    }
    if (ms->line != MEM_NONE)
        s->l1.lines[ms->line].mshr = MEM_NONE;
    if (ms->pfc)
        mem_mta_pfc_arrived(&s->mta, msi);
    s->mshr_free[s->nmshr_free++] = msi;
}

void mem_cycle(struct mem_sys *m, uint64_t now)
{
    struct mem_ev e;
    while (m->ev.n && m->ev.v[0].time <= now) {
        mem_heap_pop(&m->ev, &e);
        switch (e.type) {
        case MEM_EV_L2_ARRIVE: mem_l2_arrive(m, e.b, (int32_t)e.a, e.time); break;
        case MEM_EV_SM_ARRIVE: sm_arrive(m, (int32_t)e.a, e.time); break;
        case MEM_EV_DRAM_WAKE: mem_dram_wake(m, e.a, e.time); break;
        default: mem_dram_done(m, e.a, e.b, e.mask, e.time); break;
        }
    }
}

bool mem_pop_resp(struct mem_sys *m, unsigned sm, uint64_t now, struct core_mem_resp *out)
{
    if (sm >= m->nsms)
        return false;
    struct mem_sm *s = &m->sm[sm];
    if (!s->nresp || s->resp[0].due > now)
        return false;
    out->tag = s->resp[0].tag;
    out->sm = (uint16_t)sm;
    out->warp = s->resp[0].warp;
    resp_pop(s);
    return true;
}

uint64_t mem_next_event(const struct mem_sys *m, uint64_t now)
{
    uint64_t t = m->ev.n ? m->ev.v[0].time : UINT64_MAX;
    for (unsigned i = 0; i < m->nsms; i++)
        if (m->sm[i].nresp && m->sm[i].resp[0].due < t)
            t = m->sm[i].resp[0].due;
    return t <= now ? now + 1 : t;
}

void mem_kernel_end(struct mem_sys *m)
{
    for (unsigned i = 0; i < m->nsms; i++) {
        if (m->sm[i].l1.sets && m->c.l1d_kernel_flush == CFG_L1D_KERNEL_FLUSH_ON)
            mem_cache_sweep(&m->sm[i].l1);
        else if (m->sm[i].l1.sets)
            mem_cache_unlock(&m->sm[i].l1);
        if (m->sm[i].mta.pfc_ways)
            mem_mta_pfc_flush(&m->sm[i].mta);
    }
}

uint64_t mem_noc_flits(const struct mem_sys *m)
{
    return m->noc_flits;
}

void mem_stats(const struct mem_sys *m, ls_cache_stats *l1d, ls_cache_stats *l2, ls_dram_stats *dram)
{
    ls_cache_stats a, b;
    ls_dram_stats d;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&d, 0, sizeof d);
    for (unsigned i = 0; i < m->nsms; i++)
        ls_cache_stats_acc(&a, &m->sm[i].l1.st, 1);
    for (unsigned p = 0; p < m->nparts; p++) {
        const struct mem_part *pt = &m->part[p];
        ls_cache_stats_acc(&b, &pt->l2.st, 1);
        ls_dram_stats_acc(&d, &pt->st, 1);
    }
    if (l1d) *l1d = a;
    if (l2) *l2 = b;
    if (dram) *dram = d;
}

void mem_pca_stats(const struct mem_sys *m, ls_pca_stats *out)
{
    memset(out, 0, sizeof *out);
    for (unsigned i = 0; i < m->nsms; i++)
        ls_pca_stats_acc(out, &m->sm[i].pca, 1);
}

void mem_mta_stats(const struct mem_sys *m, ls_mta_stats *out)
{
    memset(out, 0, sizeof *out);
    for (unsigned i = 0; i < m->nsms; i++) {
        const struct mem_sm *s = &m->sm[i];
        ls_mta_stats_acc(out, &s->mta.st, 1);
        if (s->mta.npws)   /* drops not yet handed to the tables */
            out->unused += s->l1.pf_unused - s->pf_seen;
    }
}

uint64_t mem_activity(const struct mem_sys *m)
{
    uint64_t a = 0;
    for (unsigned i = 0; i < m->nsms; i++)
        a += m->sm[i].l1.st.accesses;
    for (unsigned p = 0; p < m->nparts; p++) {
        const struct mem_part *pt = &m->part[p];
        a += pt->l2.st.accesses + pt->l2.st.sector_fills + pt->st.reads + pt->st.writes +
             pt->st.activates + pt->st.precharges;
    }
    return a;
}

bool mem_idle(const struct mem_sys *m)
{
    if (m->ev.n)
        return false;
    for (unsigned i = 0; i < m->nsms; i++)
        if (m->sm[i].nresp || m->sm[i].nmshr_free != (unsigned)m->c.l1d_mshrs)
            return false;
    for (unsigned p = 0; p < m->nparts; p++)
        if (!mem_part_idle(&m->part[p]))
            return false;
    return true;
}

int mem_describe(const struct mem_sys *m, char *buf, size_t n)
{
    size_t o = 0;
    int w;
#define MEM_PUT(...) do { w = snprintf(buf ? buf + (o < n ? o : n) : NULL, o < n ? n - o : 0, __VA_ARGS__); \
                          if (w > 0) o += (size_t)w; } while (0)
    MEM_PUT("memory: %zu events pending%s\n", m->ev.n, m->failed ? " (ALLOCATION FAILED)" : "");
    for (unsigned i = 0; i < m->nsms; i++) {
        const struct mem_sm *s = &m->sm[i];
        unsigned busy = (unsigned)m->c.l1d_mshrs - s->nmshr_free;
        if (!busy && !s->nresp)
            continue;
        MEM_PUT("  sm %u: L1D MSHRs %u/%lld busy, %zu responses queued", i, busy,
                (long long)m->c.l1d_mshrs, s->nresp);
        for (unsigned j = 0, shown = 0; j < (unsigned)m->c.l1d_mshrs && shown < 4; j++) {
            bool is_free = false;
            for (unsigned f = 0; f < s->nmshr_free; f++)
                if (s->mshr_free[f] == (int32_t)j) { is_free = true; break; }
            if (is_free)
                continue;
            const struct mem_l1_mshr *ms = &s->mshr[j];
            MEM_PUT(" [line 0x%llx pending 0x%x out %u]",
                    ms->line != MEM_NONE ? (unsigned long long)s->l1.lines[ms->line].addr : 0ull,
                    ms->pending, ms->out);
            shown++;
        }
        MEM_PUT("\n");
    }
    for (unsigned p = 0; p < m->nparts; p++) {
        const struct mem_part *pt = &m->part[p];
        if (mem_part_idle(pt))
            continue;
        MEM_PUT("  partition %u: L2 MSHRs %u/%u busy, %u waiting for L2, DRAM queue %u/%lld\n", p,
                pt->nmshr - pt->nmshr_free, pt->nmshr, pt->nwait, pt->nq, (long long)m->c.dram_queue);
    }
#undef MEM_PUT
    return (int)o;
}
