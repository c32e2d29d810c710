/* One SM of the timing model: CTA residency, schedulers, scoreboard,
 * pipelines, operand collectors, memory issue and barriers. The issuing
 * instruction executes functionally at issue (simt_step); timing only
 * decides WHEN each warp may issue. See docs/timing-core.md. Mechanisms
 * (thread-block compaction, dual paths, G-Scalar, DAC, ...) hook in
 * through core_mech.h only; this file holds the base per-warp stack and
 * calls their hooks (core_smmech.c builds the lists). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "core/core_mech.h"
#include "exec/exec_mem.h"

static inline unsigned popc(uint32_t x) { return (unsigned)__builtin_popcount(x); }
static inline uint64_t umin(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Each hook of list `h` of sm's kernel hooks: `inst` names the instance
 * (struct core_mech_inst *) in the body. */
#define SM_EACH(sm, h, inst)                                                        \
    for (unsigned inst##_i = 0; inst##_i < (sm)->hk.n##h; inst##_i++)               \
        for (const struct core_mech_inst *inst = (sm)->hk.h[inst##_i]; inst; inst = NULL)

unsigned core_sm_slots(const struct cfg *c)
{
    unsigned n = (unsigned)(c->max_threads_per_sm / 32);
    return n > CORE_MAX_SLOTS ? CORE_MAX_SLOTS : n;
}

/* Pipelines, collectors and the memory queue of config c. */
static int sm_units(struct core_sm *sm, const struct cfg *c)
{
    struct core_view *v = &sm->v;
    v->units[CORE_U_ALU] = (unsigned)c->alu_units;
    v->units[CORE_U_SFU] = (unsigned)c->sfu_units;
    v->units[CORE_U_MEM] = (unsigned)c->mem_units;
    v->lanes[CORE_U_ALU] = (unsigned)c->alu_lanes;
    v->lanes[CORE_U_SFU] = (unsigned)c->sfu_lanes;
    v->lanes[CORE_U_MEM] = (unsigned)c->mem_lanes;
    v->lat[CORE_U_ALU] = (unsigned)c->alu_latency;
    v->lat[CORE_U_SFU] = (unsigned)c->sfu_latency;
    v->lat[CORE_U_MEM] = (unsigned)c->l1d_latency;
    for (unsigned u = 0; u < 3; u++)
        v->ii[u] = (EXEC_WARP + v->lanes[u] - 1) / v->lanes[u];
    /* tensor pipes: a warp instruction at a time, busy tensor_ii cycles
     * per 16x16x16 f16 step (issue scales it per shape and type) */
    v->units[CORE_U_TENSOR] = (unsigned)c->tensor_units;
    v->lanes[CORE_U_TENSOR] = EXEC_WARP;
    v->ii[CORE_U_TENSOR] = (unsigned)c->tensor_ii;
    v->lat[CORE_U_TENSOR] = (unsigned)c->tensor_latency;
    sm->coll_free = calloc((size_t)c->operand_collectors, sizeof *sm->coll_free);
    /* collector units per unit class (GPGPU-Sim's specialized sets: SP,
     * SFU, MEM), or one pool */
    unsigned per[3] = { (unsigned)c->oc_units_alu, (unsigned)c->oc_units_sfu,
                        (unsigned)c->oc_units_mem };
    bool classes = c->pipe_collect == CFG_PIPE_COLLECT_STAGED && per[0];
    for (unsigned u = 0, lo = 0; u < 3; u++) {
        sm->coll_lo[u] = classes ? lo : 0;
        sm->coll_n[u] = classes ? per[u] : (unsigned)c->operand_collectors;
        lo += per[u];
    }
    sm->front = c->pipe_collect == CFG_PIPE_COLLECT_STAGED ? CORE_OC_FRONT : 0;
    sm->wb_staged = c->pipe_writeback == CFG_PIPE_WRITEBACK_STAGED;
    sm->fetch_one = c->fetch_port == CFG_FETCH_PORT_ONE;
    sm->opc_on = c->opcode_timing != CFG_OPCODE_TIMING_UNIT;
    for (unsigned o = 0; o < CORE_OPC_N; o++) {
        unsigned lat, ii;
        core_opc_timing(c, o, &lat, &ii);
        sm->opc_lat[o] = (uint16_t)lat;
        sm->opc_ii[o] = (uint16_t)ii;
    }
    /* 64 entries as ever, plus room for the texel requests of one
     * filtered texture fetch (CORE_TEX_LINES) */
    v->qcap = 64 + CORE_TEX_LINES;
    v->q = calloc(v->qcap, sizeof *v->q);
    return sm->coll_free && v->q ? 0 : -1;
}

static uint64_t ifetch_at(struct core_sm *sm, const struct core_dinst *next, uint64_t t);
static uint64_t fport_at(struct core_sm *sm, uint64_t t);

/* The instruction cache of config c (icache_size > 0): its arrays and the
 * fill time of a miss (icache_miss_latency, or the unloaded L2-hit round
 * trip: request header and reply line across the interconnect, each
 * icnt_latency plus its flits in icnt cycles, then l2_rop_latency and
 * l2_latency). Returns 0 or -1 (memory). */
static int icache_init(struct core_sm *sm, const struct cfg *c)
{
    if (c->icache_size <= 0)
        return 0;
    unsigned line = (unsigned)c->icache_line, ways = (unsigned)c->icache_assoc;
    unsigned lines = (unsigned)c->icache_size / line;
    sm->ic_line = line;
    sm->ic_ways = ways < lines ? ways : (lines ? lines : 1);
    sm->ic_sets = lines / sm->ic_ways ? lines / sm->ic_ways : 1;
    size_t nl = (size_t)sm->ic_sets * sm->ic_ways;
    sm->ic_tag = calloc(nl, sizeof *sm->ic_tag);
    sm->ic_lru = calloc(nl, sizeof *sm->ic_lru);
    sm->ic_ready = calloc(nl, sizeof *sm->ic_ready);
    if (!sm->ic_tag || !sm->ic_lru || !sm->ic_ready)
        return -1;
    if (c->icache_miss_latency > 0) {
        sm->ic_miss_lat = (uint64_t)c->icache_miss_latency;
    } else {
        uint64_t bpc = (uint64_t)c->icnt_bytes_per_cycle;
        uint64_t req = (8 + bpc - 1) / bpc, rep = ((uint64_t)line + (uint64_t)c->icnt_reply_hdr + bpc - 1) / bpc;
        uint64_t icnt = 2 * (uint64_t)c->icnt_latency + req + rep;
        uint64_t fc = (uint64_t)c->core_clock_mhz, fi = (uint64_t)c->icnt_clock_mhz;
        sm->ic_miss_lat = (icnt * fc + fi - 1) / fi + (uint64_t)c->l2_rop_latency + (uint64_t)c->l2_latency;
    }
    /* a line's first fetch of the launch also reads DRAM: dram_latency,
     * then activate, read and the line's bursts at the DRAM clock */
    uint64_t fd = (uint64_t)c->dram_clock_mhz, fc = (uint64_t)c->core_clock_mhz;
    uint64_t dck = (uint64_t)(c->dram_tRCD + c->dram_tCL) +
                   ((uint64_t)line + (uint64_t)c->dram_bus_bytes - 1) / (uint64_t)c->dram_bus_bytes;
    sm->ic_dram_lat = (uint64_t)c->dram_latency + (dck * fc + fd - 1) / fd;
    return 0;
}

int core_sm_init(struct core_sm *sm, const struct cfg *c, unsigned id,
                 uint32_t max_stack_depth, struct cosim_env *env, char *err, size_t n)
{
    memset(sm, 0, sizeof *sm);
    struct core_view *v = &sm->v;
    v->c = c;
    v->id = id;
    v->nslots = core_sm_slots(c);
    for (unsigned i = 0; i < CORE_MAX_SLOTS; i++)
        v->wake[i] = CORE_INF;
    v->ncta_slots = (unsigned)c->max_ctas_per_sm;
    sm->nsched = (unsigned)c->num_schedulers;
    v->w = calloc(v->nslots, sizeof *v->w);
    v->cta = calloc(v->ncta_slots, sizeof *v->cta);
    if (!v->w || !v->cta || sm_units(sm, c) != 0) {
        snprintf(err, n, "host memory exhausted (SM %u) [%s:%d]", id, __FILE__, __LINE__);
        return -1;
    }
    for (unsigned i = 0; i < v->nslots; i++) {
        v->w[i].cta = -1;
        if (simt_warp_alloc(&v->w[i].sw, max_stack_depth) != 0) {
            snprintf(err, n, "host memory exhausted (SM %u) [%s:%d]", id, __FILE__,
                     __LINE__);
            return -1;
        }
    }
    v->next_try = CORE_INF;
    v->err_slot = -1;
    if (icache_init(sm, c) != 0) {
        snprintf(err, n, "host memory exhausted (SM %u) [%s:%d]", id, __FILE__, __LINE__);
        return -1;
    }
    struct core_mech_env e = { c, id, v->nslots, v->ncta_slots, max_stack_depth, env };
    return core_sm_mech_init(sm, &e, err, n);
}

void core_sm_free(struct core_sm *sm)
{
    if (!sm)
        return;
    struct core_view *v = &sm->v;
    core_sm_mech_free(sm);
    for (unsigned i = 0; v->w && i < v->nslots; i++) {
        simt_warp_free(&v->w[i].sw);
        free(v->w[i].reg_ready);
    }
    free(v->w);
    free(v->cta);
    free(sm->coll_free);
    free(sm->ic_tag);
    free(sm->ic_lru);
    free(sm->ic_ready);
    free(v->q);
    for (unsigned i = 0; i < CORE_MAX_SLOTS; i++)
        free(v->local_slot[i]);
    free(sm->shared);
    memset(sm, 0, sizeof *sm);
}

int core_sm_kernel(struct core_sm *sm, const struct core_kernel *k, uint64_t now)
{
    struct core_view *v = &sm->v;
    v->k = k;
    /* local stacks are zeroed lazily, per slot, on first use in a kernel */
    sm->local_bytes = (uint64_t)EXEC_WARP * k->local_stride;
    memset(sm->local_clean, 0, sizeof sm->local_clean);
    uint64_t sbytes = (uint64_t)v->ncta_slots * (k->shared_bytes + 16);
    if (sbytes > sm->shared_cap) {
        free(sm->shared);
        sm->shared = malloc((size_t)sbytes);
        if (!sm->shared)
            return -1;
        sm->shared_cap = sbytes;
    }
    for (unsigned i = 0; i < v->ncta_slots; i++)
        v->cta[i].shared = sm->shared + (size_t)i * (k->shared_bytes + 16);
    uint32_t nr = k->prog->max_regs ? k->prog->max_regs : 1;
    for (unsigned i = 0; i < v->nslots; i++) {
        free(v->w[i].reg_ready);
        v->w[i].reg_ready = calloc(nr, sizeof *v->w[i].reg_ready);
        if (!v->w[i].reg_ready)
            return -1;
    }
    memset(v->unit_free, 0, sizeof v->unit_free);
    sm->mem_sleep = 0;
    memset(sm->coll_free, 0, (size_t)v->c->operand_collectors * sizeof *sm->coll_free);
    memset(sm->rbus_n, 0, sizeof sm->rbus_n);
    memset(sm->rbus_at, 0, sizeof sm->rbus_at);
    memset(sm->fport_at, 0, sizeof sm->fport_at);
    memset(&v->st, 0, sizeof v->st);
    sm->issue_cap = CORE_INF;
    for (unsigned i = 0; i < 8; i++) {
        sm->last[i] = v->nslots - 1;    /* round robin starts at slot 0 */
        sm->active_cta[i] = 0;
        sm->gto_last[i] = 0;
    }
    sm->age_next = 0;
    memset(sm->nage, 0, sizeof sm->nage);
    sm->last_eval = now;
    v->next_try = CORE_INF;
    sm->has_work_at_last = false;
    v->err_slot = -1;
    return core_sm_mech_kernel(sm, now);
}

bool core_sm_fits(const struct core_sm *sm)
{
    const struct core_view *v = &sm->v;
    const struct core_kernel *k = v->k;
    uint32_t wthreads = k->nwarps * EXEC_WARP;
    unsigned free_slots = v->nslots - sm->live_warps;
    return sm->used_ctas < v->ncta_slots &&
           free_slots >= k->nwarps &&
           sm->used_threads + wthreads <= (uint64_t)v->c->max_threads_per_sm &&
           sm->used_regs + (uint64_t)wthreads * k->regs_per_thread <=
               (uint64_t)v->c->regs_per_sm &&
           sm->used_shared + k->shared_bytes <= (uint64_t)v->c->shared_per_sm;
}

/* ----------------------------------------------------- the base stack */

/* Decoded instruction at the top of w's stack (its next to issue). */
static inline const struct core_dinst *base_peek(const struct core_view *v,
                                                 const struct core_warp *w)
{
    if (w->sw.sp == 0)
        return NULL;
    const struct simt_entry *t = &w->sw.stack[w->sw.sp - 1];
    return core_view_dinst(v, w->sw.frames[t->frame].func, (uint32_t)t->npc);
}

/* The next instruction of slot's warp (the stepper's, or the base stack's). */
static const struct core_dinst *peek_di(const struct core_sm *sm, unsigned slot)
{
    if (sm->step && sm->step->ops->peek)
        return sm->step->ops->peek(sm->step->self, &sm->v, slot);
    return base_peek(&sm->v, &sm->v.w[slot]);
}

/* Where slot's next instruction sits (the top of its stack). */
static void base_where(const struct core_warp *w, struct core_where *at)
{
    if (!w->sw.sp) {
        at->f = NULL;
        return;
    }
    const struct simt_entry *t = &w->sw.stack[w->sw.sp - 1];
    at->frame = t->frame;
    at->f = w->sw.frames[t->frame].func;
    at->pc = t->npc;
    at->mask = t->mask;
}

/* Sets up the warp in slot as warp wi of CTA slot ci (ctaid) with threads
 * valid. Returns 0 or -1 (host memory). */
static int warp_setup(struct core_sm *sm, unsigned slot, unsigned ci, uint32_t wi,
                      const uint32_t ctaid[3], uint32_t valid)
{
    struct core_view *v = &sm->v;
    const struct core_kernel *k = v->k;
    struct simt_warp *s = &v->w[slot].sw;
    unsigned first = wi * EXEC_WARP;
    s->gridv.ntid[0] = k->ntid[0]; s->gridv.ntid[1] = k->ntid[1];
    s->gridv.ntid[2] = k->ntid[2];
    memcpy(s->gridv.nctaid, k->nctaid, sizeof s->gridv.nctaid);
    memcpy(s->gridv.ctaid, ctaid, sizeof s->gridv.ctaid);
    s->gridv.warpid = wi;
    s->gridv.nwarpid = k->nwarps;
    s->gridv.smid = v->id;
    s->gridv.nsmid = (uint32_t)v->c->num_sms;
    s->gridv.dyn_smem = k->dyn_smem;
    s->gridv.total_smem = (uint32_t)((k->shared_bytes + 255) / 256 * 256);
    s->gridv.grid_ws = k->grid_ws;
    s->gridv.timer_num = 1000;                 /* ns = cycles * 1000 / MHz */
    s->gridv.timer_den = (uint32_t)v->c->core_clock_mhz;
    s->ew.grid = &s->gridv;
    s->ew.clock = &v->clock_now;
    s->ew.sym_addr[0] = k->sym0;
    s->commit = k->commit;
    s->commit_user = k->commit_user;
    s->chkw.chk = k->chk;
    s->ext = k->ext;
    s->ext_user = k->ext_user;
    for (unsigned l = 0; l < EXEC_WARP; l++) {
        unsigned t = first + l;
        s->ew.ids[l].tid[0] = t % k->ntid[0];
        s->ew.ids[l].tid[1] = (t / k->ntid[0]) % k->ntid[1];
        s->ew.ids[l].tid[2] = t / (k->ntid[0] * k->ntid[1]);
        s->ew.ids[l].laneid = l;
    }
    s->mem.dmem = k->dmem;
    s->mem.last = NULL;
    s->mem.shared = v->cta[ci].shared;
    s->mem.shared_bytes = k->shared_bytes;
    if (sm->local_cap[slot] < sm->local_bytes) {
        free(v->local_slot[slot]);
        v->local_slot[slot] = malloc((size_t)sm->local_bytes);
        if (!v->local_slot[slot]) {
            sm->local_cap[slot] = 0;
            return -1;
        }
        sm->local_cap[slot] = sm->local_bytes;
        sm->local_clean[slot] = false;
    }
    if (!sm->local_clean[slot]) {
        memset(v->local_slot[slot], 0, (size_t)sm->local_bytes);
        sm->local_clean[slot] = true;
    }
    s->mem.local = v->local_slot[slot];
    s->mem.local_stride = k->local_stride;
    s->mem.param = k->param;
    s->mem.param_bytes = k->param_bytes;
    s->mem.tex = k->tex;
    s->mem.ntex = k->ntex;
    s->warp_insts = s->thread_insts = s->branches = s->divergent = 0;
    s->max_depth = 0;
    return simt_warp_start(s, k->mod, k->f, valid, k->sym1, k->frame0);
}

int core_sm_launch_cta(struct core_sm *sm, const uint32_t ctaid[3], uint64_t now)
{
    struct core_view *v = &sm->v;
    const struct core_kernel *k = v->k;
    unsigned ci = 0;
    while (ci < v->ncta_slots && v->cta[ci].used)
        ci++;
    if (ci == v->ncta_slots)
        return -1;
    struct core_cta *cta = &v->cta[ci];
    memset(cta->arrived, 0, sizeof cta->arrived);
    memset(cta->expect, 0, sizeof cta->expect);
    memset(cta->ntrue, 0, sizeof cta->ntrue);
    memset(cta->nfalse, 0, sizeof cta->nfalse);
    cta->used = true;
    memcpy(cta->ctaid, ctaid, sizeof cta->ctaid);
    cta->nwarps_left = k->nwarps;
    memset(cta->shared, 0, (size_t)k->shared_bytes);
    unsigned slot = 0;
    uint8_t wslots[CORE_MAX_SLOTS];
    for (uint32_t wi = 0; wi < k->nwarps; wi++) {
        while (v->w[slot].cta >= 0)
            slot++;
        wslots[wi] = (uint8_t)slot;
        struct core_warp *w = &v->w[slot];
        unsigned first = wi * EXEC_WARP;
        unsigned nt = k->nthreads - first < EXEC_WARP ? k->nthreads - first : EXEC_WARP;
        uint32_t valid = nt == 32 ? 0xffffffffu : (1u << nt) - 1;
        if (warp_setup(sm, slot, ci, wi, ctaid, valid) != 0)
            return -1;
        w->cta = (int32_t)ci;
        w->next_di = peek_di(sm, slot);
        w->age = sm->age_next++;
        /* the newest warp: appended to its scheduler's age list */
        unsigned sc = slot % sm->nsched;
        sm->age_order[sc][sm->nage[sc]++] = (uint8_t)slot;
        w->ibuf_ready = ifetch_at(sm, w->next_di, now);
        w->ibuf_block = w->ibuf_ready;
        w->ibuf_n = (uint32_t)v->c->ibuffer_entries;
        if (sm->step && sm->step->ops->warp_start &&
            sm->step->ops->warp_start(sm->step->self, v, slot, valid, now) != 0)
            return -1;
        w->npend = 0;
        w->pend_used = 0;
        w->natom = 0;
        w->atom_ready = 0;
        v->wake[slot] = 0;
        memset(w->reg_ready, 0, (size_t)(k->prog->max_regs ? k->prog->max_regs : 1) *
                                    sizeof *w->reg_ready);
        sm->live_warps++;
        SM_EACH(sm, warp_start, m)
            if (m->ops->warp_start(m->self, v, slot, valid, now) != 0)
                return -1;
        if (w->sw.state == SIMT_DONE)
            cta->nwarps_left--;     /* no valid thread (cannot happen) */
    }
    sm->used_ctas++;
    sm->used_threads += k->nwarps * EXEC_WARP;
    sm->used_regs += k->nwarps * EXEC_WARP * k->regs_per_thread;
    sm->used_shared += k->shared_bytes;
    v->next_try = umin(v->next_try, now);
    if (sm->step && sm->step->ops->cta_start)
        sm->step->ops->cta_start(sm->step->self, v, ci, wslots, k->nwarps, now);
    SM_EACH(sm, cta_start, m)
        m->ops->cta_start(m->self, v, ci, wslots, k->nwarps, now);
    return 0;
}

bool core_sm_busy(const struct core_sm *sm)
{
    return sm->live_warps > 0 || sm->v.qn > 0;
}

/* ------------------------------------------------------------ accounting */

static void add_stall(struct core_sm *sm, int reason, uint64_t n)
{
    if (!n)
        return;
    struct core_stats *st = &sm->v.st;
    st->idle_cycles += n;
    switch (reason) {
    case CORE_ST_BARRIER: st->stall.barrier += n; break;
    case CORE_ST_IBUFFER: st->stall.ibuffer += n; break;
    case CORE_ST_SCOREBOARD: st->stall.scoreboard += n; break;
    case CORE_ST_MEM: st->stall.mem_wait += n; break;
    case CORE_ST_PIPE: st->stall.pipe_busy += n; break;
    default: st->stall.no_warps += n; break;
    }
}

void core_sm_account(struct core_sm *sm, uint64_t end)
{
    /* cycles (last_eval, end) were not evaluated: nothing could issue */
    if (end > sm->last_eval + 1 && sm->has_work_at_last) {
        uint64_t n = end - sm->last_eval - 1;
        sm->v.st.busy_cycles += n;
        add_stall(sm, sm->last_reason, n);
    }
    if (end > sm->last_eval + 1)
        sm->last_eval = end - 1;
}

/* ------------------------------------------------------------- barriers */

static uint32_t cta_live_threads(const struct core_sm *sm, int32_t ci)
{
    uint32_t live = 0;
    for (unsigned i = 0; i < sm->v.nslots; i++)
        if (sm->v.w[i].cta == ci)
            live += popc(sm->v.w[i].sw.live);
    return live;
}

/* The base stack's barrier release: CTA slot ci's barriers whose threads
 * all arrived. */
static void base_release(struct core_sm *sm, int32_t ci, uint64_t now)
{
    struct core_view *v = &sm->v;
    struct core_cta *cta = &v->cta[ci];
    uint32_t waiting = 0;
    for (unsigned i = 0; i < v->nslots; i++)
        if (v->w[i].cta == ci && v->w[i].sw.state == SIMT_AT_BARRIER)
            waiting |= 1u << v->w[i].sw.bar_id;
    if (!waiting)
        return;
    uint32_t live = cta_live_threads(sm, ci);
    for (unsigned b = 0; b < CORE_NBAR; b++) {
        if (!(waiting & (1u << b)))
            continue;
        uint32_t need = cta->expect[b] ? cta->expect[b] : live;
        if (cta->arrived[b] < need)
            continue;
        for (unsigned i = 0; i < v->nslots; i++) {
            struct core_warp *w = &v->w[i];
            if (w->cta == ci && w->sw.state == SIMT_AT_BARRIER && w->sw.bar_id == b) {
                simt_bar_red_result(&w->sw, cta->ntrue[b], cta->nfalse[b]);
                if (w->sw.bar_red)
                    SM_EACH(sm, bar_release, m)
                        m->ops->bar_release(m->self, v, i, now);
                simt_release(&w->sw);
                v->wake[i] = 0;
                if (w->ibuf_ready < now + 1)
                    w->ibuf_ready = now + 1;
            }
        }
        cta->arrived[b] = cta->expect[b] = cta->ntrue[b] = cta->nfalse[b] = 0;
    }
}

static void try_release(struct core_sm *sm, int32_t ci, uint64_t now)
{
    if (sm->step && sm->step->ops->release)
        sm->step->ops->release(sm->step->self, &sm->v, ci, now);
    else
        base_release(sm, ci, now);
}

/* Wakes the warps asleep on a memory stall (sm->mem_sleep): the memory
 * queue fell to 32 requests or a memory instruction issued. */
static void mem_wake(struct core_sm *sm)
{
    for (uint64_t m = sm->mem_sleep; m; m &= m - 1)
        sm->v.wake[__builtin_ctzll(m)] = 0;
    sm->mem_sleep = 0;
}

/* A finished warp with no outstanding loads leaves its slot. */
static void warp_leave(struct core_sm *sm, unsigned slot, uint64_t now)
{
    struct core_view *v = &sm->v;
    struct core_warp *w = &v->w[slot];
    int32_t ci = w->cta;
    if (!sm->merged)            /* compacted warps are counted at issue */
        v->st.warp_insts += w->sw.warp_insts;
    v->st.thread_insts += w->sw.thread_insts;
    v->st.branches += w->sw.branches;
    v->st.divergent += w->sw.divergent;
    if (w->sw.max_depth > v->st.max_depth)
        v->st.max_depth = w->sw.max_depth;
    SM_EACH(sm, warp_leave, m)
        m->ops->warp_leave(m->self, v, slot, now);
    w->cta = -1;
    unsigned sc = slot % sm->nsched;
    for (unsigned j = 0; j < sm->nage[sc]; j++)
        if (sm->age_order[sc][j] == slot) {
            memmove(&sm->age_order[sc][j], &sm->age_order[sc][j + 1],
                    sm->nage[sc] - j - 1);
            sm->nage[sc]--;
            break;
        }
    v->wake[slot] = CORE_INF;
    v->wake_reason[slot] = CORE_ST_NONE;
    sm->mem_sleep &= ~(1ull << slot);   /* a free slot stays asleep */
    sm->live_warps--;
    struct core_cta *cta = &v->cta[ci];
    if (--cta->nwarps_left == 0) {
        const struct core_kernel *k = v->k;
        cta->used = false;
        sm->used_ctas--;
        sm->used_threads -= k->nwarps * EXEC_WARP;
        sm->used_regs -= k->nwarps * EXEC_WARP * k->regs_per_thread;
        sm->used_shared -= k->shared_bytes;
        sm->cta_finished = true;
    }
}

/* ---------------------------------------------------------- issue check */

static inline bool warp_finished(const struct core_warp *w)
{
    return w->sw.state == SIMT_DONE;
}

/* The base stack's scoreboard: the cycle w's sources and destinations
 * of di are ready. */
static inline uint64_t base_sb_ready(const struct core_warp *w, const struct core_dinst *di)
{
    uint64_t rdy = 0;
    for (unsigned i = 0; i < di->nsrc; i++)
        if (w->reg_ready[di->src[i]] > rdy)
            rdy = w->reg_ready[di->src[i]];
    for (unsigned i = 0; i < di->ndst; i++)
        if (w->reg_ready[di->dst[i]] > rdy)
            rdy = w->reg_ready[di->dst[i]];
    return rdy;
}

/* Why warp w cannot issue at now (CORE_ST_NONE: it can) and the cycle at
 * which that may change (*when). *di gets the decoded instruction. Order:
 * the stepper's barrier and fetch (the base: at a barrier, instruction
 * buffer empty), the augmenters' gates, the scoreboard, the pipeline. */
static int check_warp(struct core_sm *sm, struct core_warp *w, uint64_t now,
                      uint64_t *when, const struct core_dinst **dip, int *unit_ix)
{
    struct core_view *v = &sm->v;
    unsigned slot = (unsigned)(w - v->w);
    if (sm->step && sm->step->ops->fetch) {
        bool final = false;
        int why = sm->step->ops->fetch(sm->step->self, v, slot, now, when, dip, unit_ix,
                                       &final);
        if (final || why != CORE_ST_NONE)
            return why;
    } else if (w->sw.state == SIMT_AT_BARRIER) {
        *when = CORE_INF;
        return CORE_ST_BARRIER;
    } else if (w->ibuf_ready > now) {
        *when = w->ibuf_ready;
        return CORE_ST_IBUFFER;
    }
    if (w->natom || w->atom_ready > now) {  /* atom_issue = wait */
        *when = w->natom ? CORE_INF : w->atom_ready;
        return w->natom ? CORE_ST_MEM : CORE_ST_SCOREBOARD;
    }
    SM_EACH(sm, gate, m) {
        bool moved = false;
        int why = m->ops->gate(m->self, v, slot, now, when, &moved);
        if (moved)
            w->next_di = peek_di(sm, slot);
        if (why != CORE_ST_NONE)
            return why;
    }
    const struct core_dinst *di = w->next_di;
    *dip = di;
    uint64_t rdy = sm->step && sm->step->ops->sb_ready
                       ? sm->step->ops->sb_ready(sm->step->self, v, slot, di)
                       : base_sb_ready(w, di);
    if (rdy > now) {
        *when = rdy;
        return CORE_ST_SCOREBOARD;
    }
    return core_view_unit_wait(v, w, di, now, when, unit_ix);
}

/* ----------------------------------------------------------------- issue */

/* The line requests of src's lanes in space (coalesce: per warp and line,
 * or compute capability 1.3's half-warp segments); an atomic under
 * atom_conflicts = serialize makes one round of requests per repeat of a
 * word among its lanes (round k: each word's k-th lane), as a warp's
 * atomics to one location are serialized (CUDA C Programming Guide,
 * "Atomic Functions"; GPGPU-Sim's memory_coalescing_arch_atomic). */
static unsigned coalesce_lines(const struct cfg *c, const struct exec_result *src,
                               unsigned space, bool atomic, struct core_line *lines)
{
    bool cc13 = c->coalesce == CFG_COALESCE_CC13 &&
                (space == PTX_SP_GLOBAL || space == PTX_SP_LOCAL);
    unsigned line = (unsigned)c->l1d_line, sector = (unsigned)c->l1d_sector;
    uint32_t left = src->active, round[32];
    unsigned nr = 1;
    round[0] = left;
    if (atomic && c->atom_conflicts == CFG_ATOM_CONFLICTS_SERIALIZE) {
        nr = 0;
        while (left) {          /* each word's first remaining lane */
            uint32_t take = 0;
            EXEC_FOR_EACH_LANE(left, lane, {
                bool dup = false;
                for (uint32_t t = take; t && !dup; t &= t - 1)
                    dup = src->addr[__builtin_ctz(t)] == src->addr[lane];
                if (!dup)
                    take |= 1u << lane;
            });
            round[nr++] = take;
            left &= ~take;
        }
    }
    struct exec_result rr;
    const struct exec_result *one = src;
    if (nr > 1) {
        rr = *src;
        one = &rr;
    }
    unsigned n = 0;
    for (unsigned k = 0; k < nr; k++) {
        if (nr > 1)
            rr.active = round[k];
        n += cc13 ? core_coalesce_cc13(one, line, sector, lines + n, CORE_TEX_LINES - n)
                  : core_coalesce(one, line, sector, lines + n);
    }
    return n;
}

/* Timing of a memory instruction just executed (is): returns the cycles
 * the MEM unit stays busy and sets *ready (destination readiness,
 * CORE_INF while loads are outstanding). */
static unsigned mem_issue(struct core_sm *sm, const struct core_issue *is, uint64_t at,
                          uint64_t *ready)
{
    struct core_view *v = &sm->v;
    unsigned slot = is->slot;
    const struct core_dinst *di = is->di;
    struct core_warp *w = &v->w[slot];
    struct exec_result *r = &w->sw.res;
    unsigned ii = is->ii ? is->ii : v->ii[CORE_U_MEM];
    *ready = at + ii - 1 + (uint64_t)v->c->l1d_latency;
    if (!r->active || r->access_bytes == 0)
        return ii;
    unsigned space = r->space;
    if (space == PTX_SP_GENERIC)
        space = r->addr[__builtin_ctz(r->active)] >= EXEC_GLOBAL_BASE
                    ? PTX_SP_GLOBAL : PTX_SP_SHARED;
    if (space == PTX_SP_PARAM)
        return ii;                  /* constant-cache hit, no traffic */
    if (space == PTX_SP_SHARED) {
        unsigned d = core_shmem_degree(r, (unsigned)v->c->shmem_banks);
        v->st.shmem_conflict_cycles += (uint64_t)(d - 1) * ii;
        v->st.energy.shmem_accesses += d;      /* bank passes (energy model) */
        *ready = at + (uint64_t)d * ii - 1 + (uint64_t)v->c->shmem_latency;
        return d * ii;
    }
    struct exec_result tmp;
    const struct exec_result *src = r;
    if (space == PTX_SP_LOCAL) {
        /* local memory is interleaved per thread word across the warp of
         * the thread (a compacted warp's threads: their home warps and
         * lanes, the stepper's home_of) */
        tmp = *r;
        const struct core_mech_inst *st = sm->step && sm->step->ops->home_of ? sm->step : NULL;
        EXEC_FOR_EACH_LANE(r->active, lane, {
            uint64_t off = r->addr[lane];
            unsigned hs = slot, hl = lane;
            if (st)
                st->ops->home_of(st->self, v, slot, lane, &hs, &hl);
            uint64_t id = ((uint64_t)v->id * v->nslots + hs) * v->k->local_stride;
            tmp.addr[lane] = EXEC_LOCAL_WINDOW + (id + (off & ~3ull)) * EXEC_WARP +
                             hl * 4u + (off & 3u);
        });
        src = &tmp;
    }
    struct core_line lines[CORE_TEX_LINES];
    unsigned n = coalesce_lines(v->c, src, space, di->is_atomic, lines);
    if (r->nxaddr)  /* the other texels of filtered fetches (docs/textures.md) */
        n = core_coalesce_more(lines, n, CORE_TEX_LINES, w->sw.mem.texaddr,
                               r->nxaddr, r->access_bytes ? r->access_bytes : 4,
                               (unsigned)v->c->l1d_line, (unsigned)v->c->l1d_sector);
    bool atomic = di->is_atomic;
    bool atom_wait = atomic && v->c->atom_issue == CFG_ATOM_ISSUE_WAIT;
    bool wait = di->ndst > 0 || atom_wait;
    uint32_t tag = CORE_TAG_NOWAIT | (slot << 8);
    if (wait) {
        unsigned pi = (unsigned)__builtin_ctz(~w->pend_used);
        struct core_pend *p = &w->pend[pi];
        p->left = n;
        p->ndst = di->ndst;
        memcpy(p->dst, di->dst, sizeof p->dst);
        p->own = 0;
        p->mask = r->active;
        p->atom = atom_wait;
        w->natom += atom_wait;
        p->missed = 0;
        if (sm->step && sm->step->ops->pend)
            sm->step->ops->pend(sm->step->self, v, slot, p);
        w->pend_used |= 1u << pi;
        w->npend++;
        tag = (slot << 8) | pi;
        *ready = CORE_INF;
    }
    for (unsigned i = 0; i < n; i++) {
        struct core_mem_req q;
        q.line_addr = lines[i].line_addr;
        q.tag = tag;
        q.sm = (uint16_t)v->id;
        q.warp = (uint16_t)slot;
        q.sector_mask = lines[i].sector_mask;
        q.is_write = (uint8_t)(r->is_store && !atomic);
        q.is_atomic = (uint8_t)atomic;
        q.space = (uint8_t)space;
        q.bytes = lines[i].bytes;
        q.pc = sm->mem_pc;
        q.prio = core_view_prio(v, slot);
        q.nlines = (uint8_t)(n < 255 ? n : 255);
        q.first = i == 0;
        q.lock = 0;
        q.unlock = is->served;
        core_view_push_req(v, &q);
    }
    return n > ii ? n : ii;
}

/* The energy-model events of one issued instruction (docs/energy.md):
 * the register-file arrays its operands activate (a read: the eight
 * 128-bit arrays of each 32-bit word; a write: the arrays holding an
 * active lane) and one lane operation per active lane of its pipeline.
 * A CAE compact instruction works on affine tuples (one array per word
 * operand) with two lane operations (base and stride); a compact memory
 * instruction only for its address, its data still per lane. deq: DAC
 * gave the address from a queue, the address register is not read. */
static void energy_count(ls_energy_stats *e, const struct core_dinst *di,
                         uint32_t active, bool compact, bool deq)
{
    unsigned rd = di->rf_rd, wr = di->rf_wr;
    if (deq || (compact && di->unit == CORE_U_MEM)) {
        rd -= di->rf_addr;
        e->tuple_accesses += compact ? di->rf_addr : 0;
    } else if (compact) {
        e->tuple_accesses += rd + wr;
        rd = wr = 0;
    }
    uint32_t a = active | active >> 1;
    a |= a >> 2;                /* bit 4k: lanes 4k..4k+3 hold an active lane */
    e->rf_arrays_read += 8u * rd;
    e->rf_arrays_written += (uint64_t)wr * popc(a & 0x11111111u);
    if (di->unit <= CORE_U_MEM)
        e->lane_ops[di->unit] += compact ? 2 : popc(active);
    if (di->unit <= CORE_U_SFU) {
        e->cls_ops[di->ecls] += compact ? 2 : popc(active);
        e->cls_idle[di->ecls] += compact ? 0 : core_ecls_idle(di->ecls, popc(active));
    }
    e->ctrl_insts += di->unit >= CORE_U_CTRL;   /* GPGPU-Sim's UN_OP: no FP_INT */
}

/* Bank conflicts of di's sources among themselves and with the operands
 * other schedulers read this cycle: the extra cycles the collector reads.
 * Register r of the warp in slot is in bank r mod rf_banks, or, staged,
 * (r + slot) mod rf_banks (GPGPU-Sim's register_bank adds the warp id). */
static unsigned bank_extra(struct core_sm *sm, const struct core_dinst *di, unsigned slot,
                           uint64_t now)
{
    unsigned banks = (unsigned)sm->v.c->rf_banks;
    unsigned skew = sm->front ? slot : 0;
    if (sm->bank_cycle != now) {
        sm->bank_cycle = now;
        sm->bank_used = 0;
    }
    if (!di->nsrc)
        return 0;
    unsigned mx = 0;
    uint8_t bank[CORE_MAX_SRC];
    uint64_t prior = sm->bank_used;     /* banks other instructions read */
    for (unsigned i = 0; i < di->nsrc; i++) {
        unsigned b = ((unsigned)di->src[i] + skew) % banks;
        unsigned c = 1 + ((prior >> b) & 1);    /* reads of bank b so far */
        for (unsigned j = 0; j < i; j++)
            c += bank[j] == b;
        bank[i] = (uint8_t)b;
        mx = c > mx ? c : mx;
        sm->bank_used |= 1ull << b;
    }
    return mx ? mx - 1 : 0;
}

/* The register-file rows of the base stack's instruction: the warp's own,
 * with its lanes after the guard. */
static void base_rows(const struct core_view *v, struct core_issue *is)
{
    is->merged = false;
    is->nrows = 0;
    if (!is->at.f)
        return;
    const struct core_warp *w = &v->w[is->slot];
    const struct ptx_func *f = is->at.f;
    uint32_t m = (uint32_t)is->at.pc < f->ninsts
                     ? exec_guard_mask(&w->sw.ew, &f->insts[is->at.pc], is->at.mask)
                     : is->at.mask;
    is->row[0] = (struct core_row){ (uint8_t)is->slot, m };
    is->nrows = 1;
}

/* Executes the instruction of is: the stepper's, or the base stack's.
 * Returns 0 or an ls_status. */
static int step(struct core_sm *sm, struct core_issue *is)
{
    if (sm->step)
        return sm->step->ops->step(sm->step->self, &sm->v, is);
    is->rc = simt_step(&sm->v.w[is->slot].sw);
    if (is->rc == SIMT_RC_ERROR) {
        sm->v.err_slot = (int)is->slot;
        return LS_ERR_MEMFAULT;
    }
    return 0;
}

/* The first cycle f >= at at which a result bus is free lat cycles after f
 * (shader_core_ctx::test_res_bus); reserves it. */
static uint64_t rbus_reserve(struct core_sm *sm, uint64_t at, unsigned lat)
{
    unsigned nbus = (unsigned)sm->v.c->result_buses;
    for (uint64_t f = at;; f++) {
        uint64_t t = f + lat;
        unsigned i = (unsigned)(t % CORE_RBUS);
        if (sm->rbus_at[i] != t) {
            sm->rbus_at[i] = t;
            sm->rbus_n[i] = 0;
        }
        if (sm->rbus_n[i] < nbus) {
            sm->rbus_n[i]++;
            return f;
        }
    }
}

/* The pipeline timing of is issued at `at` (after the collector and any
 * inserted moves): the unit's busy time, and the cycle its destinations
 * are ready (CORE_INF while loads are out). */
static uint64_t pipe_timing(struct core_sm *sm, const struct core_issue *is, uint64_t at)
{
    struct core_view *v = &sm->v;
    const struct core_dinst *di = is->di;
    uint64_t ready = at, at0 = at;
    unsigned p = core_dinst_pipe(di);
    if (p >= CORE_NPIPE)
        return ready;
    unsigned busy;
    if (di->unit == CORE_U_MEM) {
        busy = mem_issue(sm, is, at, &ready);
    } else if (di->unit == CORE_U_TENSOR) {
        uint64_t b = ((uint64_t)v->ii[CORE_U_TENSOR] * di->tsteps + 255) / 256;
        busy = b ? (unsigned)b : 1;
        ready = at + busy - 1 + v->lat[CORE_U_TENSOR];
        v->st.tensor_insts++;
        v->st.tensor_busy += busy;
    } else {
        /* ALU, SFU, or a control instruction or barrier in an ALU slot */
        unsigned lat = v->lat[p], ii = v->ii[p];
        if (sm->opc_on) {       /* GPGPU-Sim's per-class latency (core_opc.def) */
            lat = sm->opc_lat[di->opc] ? sm->opc_lat[di->opc] : lat;
            ii = sm->opc_ii[di->opc] ? sm->opc_ii[di->opc] : ii;
        }
        busy = is->ii ? is->ii : ii;
        if (sm->wb_staged) {
            /* the instruction waits in OC_EX until a result bus is free
             * latency cycles after it enters the unit (test_res_bus) */
            at = rbus_reserve(sm, at + sm->front, lat) - sm->front;
            ready = at + (lat ? lat - 1 : 0) + CORE_WB_STAGES;
        } else {
            ready = at + busy - 1 + lat;
        }
    }
    v->unit_free[p][is->unit_ix] = at + busy;
    if (di->unit == CORE_U_MEM)     /* a MEM stall would now be PIPE */
        mem_wake(sm);
    if (p != di->unit)              /* no destination to make ready */
        return at0;
    if (ready != CORE_INF)
        ready += v->wb_lat + sm->front;
    return ready;
}

/* When a block fetched at t for the instruction next is in the buffer:
 * fetch_latency after t, or, with an instruction cache, after its line's
 * fill: a line being filled is waited for, an absent one takes the set's
 * LRU way and its fill starts at t (GPGPU-Sim's L1I miss): the unloaded
 * L2-hit round trip, plus DRAM's for the launch's first fetch of the line
 * (code stays in the L2; no contention is modelled). */
/* The cycle a block lookup wanted at t gets the SM's fetch port: t, or
 * with fetch_port = one the first cycle from t no other lookup took
 * (reserved). */
static uint64_t fport_at(struct core_sm *sm, uint64_t t)
{
    if (sm->fetch_one) {
        while (sm->fport_at[t % CORE_RBUS] == t + 1)
            t++;
        sm->fport_at[t % CORE_RBUS] = t + 1;
    }
    return t;
}

static uint64_t icache_at(struct core_sm *sm, const struct core_dinst *next, uint64_t t);

/* A block lookup wanted at t through the fetch port and the cache. */
static uint64_t ifetch_at(struct core_sm *sm, const struct core_dinst *next, uint64_t t)
{
    return icache_at(sm, next, fport_at(sm, t));
}

/* The cache side of a lookup at t (the port already taken). */
static uint64_t icache_at(struct core_sm *sm, const struct core_dinst *next, uint64_t t)
{
    uint64_t lat = (uint64_t)sm->v.c->fetch_latency;
    if (!sm->ic_sets || !next)
        return t + lat;
    uint64_t ln = next->iaddr / sm->ic_line;
    size_t base = (size_t)(ln % sm->ic_sets) * sm->ic_ways, vic = base;
    sm->ic_stamp++;
    sm->v.st.icache_accesses++;
    for (size_t i = base; i < base + sm->ic_ways; i++) {
        if (sm->ic_tag[i] == ln + 1) {
            sm->ic_lru[i] = sm->ic_stamp;
            return (sm->ic_ready[i] > t ? sm->ic_ready[i] : t) + lat;
        }
        if (sm->ic_lru[i] < sm->ic_lru[vic])
            vic = i;
    }
    sm->v.st.icache_misses++;
    sm->ic_tag[vic] = ln + 1;
    sm->ic_lru[vic] = sm->ic_stamp;
    uint64_t fill = t + sm->ic_miss_lat;
    const struct core_kernel *k = sm->v.k;
    if (k && k->code_l2 && ln < k->code_lines) {
        /* the L2 (every SM's): a line's first fetch reads DRAM; a fetch
         * while that fill is under way waits for it */
        uint64_t *l2 = &k->code_l2[ln];
        if (*l2 == 0)
            *l2 = 1 + fill + sm->ic_dram_lat;
        if (*l2 - 1 > fill)
            fill = *l2 - 1;
    }
    sm->ic_ready[vic] = fill;
    return fill + lat;
}

/* The cycle a block fetch started at t for instruction next reaches a warp's
 * instruction buffer, through v's instruction cache (ifetch_at): for the
 * stepping mechanisms that fill a warp's buffer themselves (TBC's warp
 * formation, DPE's paths), as GPGPU-Sim's fetch looks every warp's next PC
 * up in the L1I (shader.cc shader_core_ctx::fetch). */
uint64_t core_view_ifetch(struct core_view *v, const struct core_dinst *next, uint64_t t)
{
    struct core_sm *sm = (struct core_sm *)(void *)((char *)v - offsetof(struct core_sm, v));
    return ifetch_at(sm, next, t);
}

uint64_t core_view_icache(struct core_view *v, const struct core_dinst *next, uint64_t t)
{
    struct core_sm *sm = (struct core_sm *)(void *)((char *)v - offsetof(struct core_sm, v));
    return icache_at(sm, next, t);
}

/* Instruction buffer: a control instruction flushes it and a new block of
 * ibuffer_entries arrives fetch_latency later; otherwise the next block is
 * fetched when the current one arrived, so a warp sustains at most
 * ibuffer_entries / fetch_latency per cycle. An instruction cache miss
 * delays the block to its line's fill (ifetch_at). */
static void fetch_timing(struct core_sm *sm, struct core_warp *w,
                         const struct core_dinst *di, uint64_t now)
{
    const struct cfg *c = sm->v.c;
    bool own = sm->step && sm->step->ops->fetches;   /* (DPE's paths) */
    if (di->unit == CORE_U_CTRL) {
        w->ibuf_ready = own ? fport_at(sm, now + 1) + (uint64_t)c->fetch_latency
                            : ifetch_at(sm, w->next_di, now + 1);
        w->ibuf_block = w->ibuf_ready;
        w->ibuf_n = (uint32_t)c->ibuffer_entries;
    } else if (--w->ibuf_n == 0) {
        /* fetch_port = one: the next block is fetched once the buffer is
         * empty, in the cycle its last instruction issued (GPGPU-Sim's
         * fetch runs after issue and looks for an empty ibuffer) */
        uint64_t from = sm->fetch_one ? now : w->ibuf_block;
        w->ibuf_block = own ? fport_at(sm, from) + (uint64_t)c->fetch_latency
                            : ifetch_at(sm, w->next_di, from);
        if (w->ibuf_ready < w->ibuf_block)
            w->ibuf_ready = w->ibuf_block;
        w->ibuf_n = (uint32_t)c->ibuffer_entries;
    }
}

/* A barrier arrival or finished warps after an issue. */
static void after_step(struct core_sm *sm, struct core_warp *w, const struct core_issue *is,
                       uint64_t now)
{
    struct core_view *v = &sm->v;
    uint64_t done = is->done;
    if (is->rc == SIMT_RC_BARRIER) {
        struct core_cta *cta = &v->cta[w->cta];
        cta->arrived[w->sw.bar_id] += popc(w->sw.bar_mask);
        cta->ntrue[w->sw.bar_id] += w->sw.bar_ntrue;
        cta->nfalse[w->sw.bar_id] += w->sw.bar_nfalse;
        if (w->sw.bar_count)
            cta->expect[w->sw.bar_id] = w->sw.bar_count;
        try_release(sm, w->cta, now);
    } else if (is->rc == SIMT_RC_DONE) {
        done |= 1ull << is->slot;
    }
    while (done) {
        unsigned ds = (unsigned)__builtin_ctzll(done);
        done &= done - 1;
        struct core_warp *dw = &v->w[ds];
        int32_t ci = dw->cta;
        v->wake[ds] = CORE_INF;
        /* an exited warp whose loads are still out drains memory */
        v->wake_reason[ds] = dw->npend ? CORE_ST_MEM : CORE_ST_NONE;
        if (dw->npend == 0)
            warp_leave(sm, ds, now);
        if (v->cta[ci].used)
            try_release(sm, ci, now);
    }
}

/* Issues w's next instruction at now: the operand hooks, the stepper, the
 * retire hooks, then the pipeline timing the retire record says. Returns
 * 0 or an ls_status. */
static int issue(struct core_sm *sm, unsigned slot, const struct core_dinst *di,
                 int unit_ix, uint64_t now)
{
    struct core_view *v = &sm->v;
    struct core_warp *w = &v->w[slot];
    unsigned depth = w->sw.sp;
    uint64_t before = w->sw.warp_insts;
    unsigned extra = bank_extra(sm, di, slot, now);
    /* the collector stays busy while it reads the conflicting banks (staged:
     * from its allocation at now+1 to its dispatch at now+3+extra, when
     * allocate_cu may take it again) */
    sm->coll_free[sm->last_coll] = now + 1 + extra + (sm->front ? 2 : 0);
    struct core_issue is;
    is.slot = slot;
    is.di = di;
    is.unit_ix = unit_ix;
    is.coll = sm->last_coll;
    is.now = now;
    is.nframes = w->sw.nframes;
    is.rc = SIMT_RC_OK;
    is.done = 0;
    is.moves = is.ii = 0;
    is.compact = is.deq_addr = is.served = false;
    bool hooks = sm->hk.nbefore || sm->hk.nretire;
    if (di->unit == CORE_U_MEM || hooks) {
        if (sm->step && sm->step->ops->where)
            sm->step->ops->where(sm->step->self, v, slot, &is.at);
        else
            base_where(w, &is.at);
        /* a memory instruction's PTX line: the LAMAR SPP's PC */
        if (di->unit == CORE_U_MEM && is.at.f)
            sm->mem_pc = (uint32_t)is.at.pc < is.at.f->ninsts
                             ? is.at.f->insts[is.at.pc].line : 0;
    }
    if (sm->hk.rows) {
        if (sm->step && sm->step->ops->fill_rows)
            sm->step->ops->fill_rows(sm->step->self, v, &is);
        else
            base_rows(v, &is);
    }
    SM_EACH(sm, before, m) {
        int e = m->ops->before(m->self, v, &is);
        if (e)
            return e;
    }
    int e = step(sm, &is);
    if (e)
        return e;
    SM_EACH(sm, retire, m) {
        e = m->ops->retire(m->self, v, &is);
        if (e)
            return e;
    }
    energy_count(&v->st.energy, di, w->sw.res.active, is.compact, is.deq_addr);
    v->st.issued++;
    w->next_di = peek_di(sm, slot);
    if (w->next_di)
        SM_EACH(sm, next_inst, m)
            m->ops->next_inst(m->self, v, &is, w->next_di);
    if (w->sw.warp_insts != before)
        v->st.stack_hist[depth < LS_STACK_HIST ? depth : LS_STACK_HIST - 1]++;
    /* each inserted move takes an issue cycle first */
    uint64_t ready = pipe_timing(sm, &is, now + extra + is.moves);
    fetch_timing(sm, w, di, now);
    if (sm->step && sm->step->ops->issued)
        sm->step->ops->issued(sm->step->self, v, &is, ready);
    else
        for (unsigned i = 0; i < di->ndst; i++)
            w->reg_ready[di->dst[i]] = ready;
    after_step(sm, w, &is, now);
    return 0;
}

/* ------------------------------------------------------------ schedulers */

/* The slot after *i (wrapping at nslots) with *r = its index mod nsched
 * kept alongside: the schedulers' candidate loops run per slot per cycle,
 * where a division each is most of an SM cycle under compaction. */
static inline void next_slot(unsigned *i, unsigned *r, unsigned nslots, unsigned nsched)
{
    if (++*i == nslots) {
        *i = 0;
        *r = 0;
    } else if (++*r == nsched) {
        *r = 0;
    }
}

/* Scheduler s's candidates in the order of the policy; returns the count. */
static inline __attribute__((always_inline)) unsigned
candidates(const struct core_sm *sm, unsigned s, uint32_t *cand)
{
    const struct core_view *v = &sm->v;
    unsigned nc = 0, nsched = sm->nsched, nslots = v->nslots;
    int policy = (int)v->c->sched_policy;
    if (policy == 0) {              /* lrr: after the last issued */
        unsigned i = sm->last[s] % nslots, r = i % nsched;
        for (unsigned k = 1; k <= nslots; k++) {
            next_slot(&i, &r, nslots, nsched);
            if (r == s)             /* free slots have wake = INF */
                cand[nc++] = i;
        }
    } else if (policy == 2) {       /* two_level: active CTA group first */
        uint8_t bucket[64][64];
        unsigned nb[64], ncs = v->ncta_slots;
        memset(nb, 0, ncs * sizeof nb[0]);
        unsigned i = sm->last[s] % nslots, r = i % nsched;
        for (unsigned k = 1; k <= nslots; k++) {
            next_slot(&i, &r, nslots, nsched);
            if (r != s || v->w[i].cta < 0)
                continue;
            unsigned g = (unsigned)v->w[i].cta + ncs - sm->active_cta[s] % ncs;
            while (g >= ncs)
                g -= ncs;
            bucket[g][nb[g]++] = (uint8_t)i;
        }
        for (unsigned g = 0; g < ncs; g++)
            for (unsigned j = 0; j < nb[g]; j++)
                cand[nc++] = bucket[g][j];
    } else {                        /* gto / oldest: by age */
        if (policy == 1 && sm->gto_last[s] > 0) {
            unsigned i = (unsigned)sm->gto_last[s] - 1;
            if (v->w[i].cta >= 0)
                cand[nc++] = i;
        }
        unsigned base = nc;
        for (unsigned j = 0; j < sm->nage[s]; j++) {
            unsigned i = sm->age_order[s][j];
            if (!(base && cand[0] == i))
                cand[nc++] = i;
        }
    }
    return nc;
}

/* The warps of the other schedulers than s that hold more than one split
 * (the stepper's split hook), in slot order after scheduler s's last
 * issue: a stepper whose splits every scheduler may issue (DWS's perfect
 * scheduler, docs/dpe.md). Returns the count. */
static unsigned lent_splits(const struct core_sm *sm, unsigned s, uint32_t *cand)
{
    const struct core_view *v = &sm->v;
    const struct core_mech_inst *m = sm->step;
    unsigned nc = 0, nsched = sm->nsched, nslots = v->nslots;
    unsigned i = sm->last[s] % nslots, r = i % nsched;
    for (unsigned k = 1; k <= nslots; k++) {
        next_slot(&i, &r, nslots, nsched);
        if (r != s && v->w[i].cta >= 0 && m->ops->split(m->self, i))
            cand[nc++] = i;
    }
    return nc;
}

/* A warp found blocked (why) until `when` sleeps in the scheduler: a busy
 * pipeline only frees later, a warp blocked by the memory queue or its own
 * loads waits for an event that changes that (mem_sleep). Under a stepper
 * that merges warps another compacted warp drawing on the same home warps
 * can move this one's scoreboard time while it sleeps: pipeline and memory
 * stalls are checked again each cycle there. */
static void sleep_warp(struct core_sm *sm, unsigned ws, int why, uint64_t when)
{
    if (!(why == CORE_ST_BARRIER || why == CORE_ST_IBUFFER || why == CORE_ST_SCOREBOARD ||
          ((why == CORE_ST_PIPE || why == CORE_ST_MEM) && !sm->merged)))
        return;
    sm->v.wake[ws] = when;      /* only a response/release changes it */
    sm->v.wake_reason[ws] = (uint8_t)why;
    bool mem;
    if (sm->step && sm->step->ops->mem_wait) {
        mem = sm->step->ops->mem_wait(sm->step->self);
    } else {
        mem = why == CORE_ST_MEM;   /* not a mechanism's own wait */
        SM_EACH(sm, own_wait, m)
            mem &= !m->ops->own_wait(m->self, ws);
    }
    if (mem)
        sm->mem_sleep |= 1ull << ws;
}

/* A scheduler picks its first candidate cand[0..nc) that can issue at now (-1: none),
 * folding the others' stalls into *reason and their wake cycles into *next.
 * (Always inline, with the candidate order: the scheduler scan is most of
 * an SM cycle, and locals keep its state out of memory.) */
static inline __attribute__((always_inline)) int
pick(struct core_sm *sm, const uint32_t *cand, unsigned nc, uint64_t now, int *reason_io,
     uint64_t *next_io, const struct core_dinst **pick_di, int *pick_unit)
{
    struct core_view *v = &sm->v;
    int reason = *reason_io;
    uint64_t next = *next_io;
    uint64_t slept = 0;         /* candidates visited asleep (each at most once) */
    int picked = -1;
    for (unsigned k = 0; k < nc; k++) {
        unsigned ws = cand[k];
        if (v->wake[ws] > now) {    /* known blocked: skip the check */
            if (v->wake_reason[ws] > reason)
                reason = v->wake_reason[ws];
            next = umin(next, v->wake[ws]);
            slept |= 1ull << ws;
            continue;
        }
        struct core_warp *w = &v->w[ws];
        uint64_t when = CORE_INF;
        const struct core_dinst *di = NULL;
        int ux = -1;
        int why = check_warp(sm, w, now, &when, &di, &ux);
        sleep_warp(sm, ws, why, when);
        if (why == CORE_ST_NONE) {
            /* a free operand collector of the unit's class (staged: one
             * free for allocate_cu the next cycle) */
            unsigned cls = di->unit == CORE_U_SFU || di->unit == CORE_U_MEM ? di->unit
                                                                           : CORE_U_ALU;
            unsigned lo = sm->coll_lo[cls], nco = lo + sm->coll_n[cls], ci = nco;
            uint64_t at = now + (sm->front ? 1 : 0);
            uint64_t cbest = CORE_INF;
            for (unsigned c = lo; c < nco; c++) {
                if (sm->coll_free[c] <= at) { ci = c; break; }
                cbest = umin(cbest, sm->coll_free[c] - (at - now));
            }
            if (ci != nco) {
                sm->coll_free[ci] = at + 1;
                sm->last_coll = ci;
                *pick_di = di;
                *pick_unit = ux;
                picked = (int)ws;
                break;
            }
            why = CORE_ST_PIPE;
            when = cbest;
        }
        if (why > reason)
            reason = why;
        next = umin(next, when);
    }
    if (slept)
        SM_EACH(sm, asleep, m)
            m->ops->asleep(m->self, slept);
    *reason_io = reason;
    *next_io = next;
    return picked;
}

int core_sm_cycle(struct core_sm *sm, uint64_t now)
{
    struct core_view *v = &sm->v;
    SM_EACH(sm, cycle, m) {
        int e = m->ops->cycle(m->self, v, now);
        if (e)
            return e;
    }
    if (sm->step && sm->step->ops->cycle) {
        int e = sm->step->ops->cycle(sm->step->self, v, now);
        if (e)
            return e;
    }
    core_sm_account(sm, now);
    if (sm->step && sm->step->ops->account)
        sm->step->ops->account(sm->step->self, v, now);
    sm->last_eval = now;
    v->clock_now = now;
    bool had_work = sm->live_warps > 0;
    unsigned issued = 0;
    int reason = CORE_ST_NONE;
    uint64_t next = CORE_INF;
    for (unsigned s = 0; s < sm->nsched && sm->live_warps && v->st.issued < sm->issue_cap;
         s++) {
        int claimed = 0;
        SM_EACH(sm, claim, m)
            if (!claimed && (claimed = m->ops->claim(m->self, v, s, now)) < 0)
                return -claimed;
        if (claimed) {
            issued++;
            continue;
        }
        const struct core_dinst *pick_di = NULL;
        int pick_unit = -1;
        uint32_t cand[64];
        unsigned nc = candidates(sm, s, cand);
        int p = pick(sm, cand, nc, now, &reason, &next, &pick_di, &pick_unit);
        bool lent = false;
        if (p < 0 && sm->step && sm->step->ops->split) {
            /* none of its own: a split of another scheduler's warp */
            nc = lent_splits(sm, s, cand);
            p = pick(sm, cand, nc, now, &reason, &next, &pick_di, &pick_unit);
            lent = true;
        }
        if (p < 0)
            continue;
        int st = issue(sm, (unsigned)p, pick_di, pick_unit, now);
        if (st)
            return st;
        issued++;
        if (lent)
            continue;
        sm->last[s] = (uint32_t)p;
        sm->gto_last[s] = p + 1;
        if (v->w[p].cta >= 0)
            sm->active_cta[s] = (uint32_t)v->w[p].cta;
    }
    if (had_work) {
        v->st.busy_cycles++;
        if (!issued)
            add_stall(sm, reason, 1);
    }
    SM_EACH(sm, cycle_end, m) {
        int e = m->ops->cycle_end(m->self, v, now);
        if (e)
            return e;
    }
    sm->last_reason = reason;
    sm->has_work_at_last = sm->live_warps > 0;
    if (!issued)
        SM_EACH(sm, next, m)
            next = umin(next, m->ops->next(m->self, now));
    v->next_try = issued ? now + 1 : next;
    if (v->next_try <= now)
        v->next_try = now + 1;
    return 0;
}

void core_sm_resp(struct core_sm *sm, const struct core_mem_resp *r, uint64_t now)
{
    struct core_view *v = &sm->v;
    if (r->tag & CORE_TAG_NOWAIT)
        return;
    SM_EACH(sm, resp, m)
        if (m->ops->resp(m->self, v, r, now)) {
            v->next_try = umin(v->next_try, now + 1);
            return;
        }
    unsigned slot = (r->tag >> 8) & 0xffff, pi = r->tag & 0xff;
    if (slot >= v->nslots || pi >= CORE_MAX_PEND)
        return;
    struct core_warp *w = &v->w[slot];
    if (!(w->pend_used & (1u << pi)) || w->cta < 0)
        return;
    struct core_pend *p = &w->pend[pi];
    if (p->left && --p->left)
        return;
    /* staged collection: the request left the collector sm->front cycles
     * after issue (the response is moved instead of the request) */
    uint64_t at = now + 1 + v->wb_lat + sm->front;
    if (sm->step && sm->step->ops->resp_pend) {
        sm->step->ops->resp_pend(sm->step->self, v, slot, p, at);
    } else {
        for (unsigned i = 0; i < p->ndst; i++)
            w->reg_ready[p->dst[i]] = at;
        if (!warp_finished(w))
            v->wake[slot] = 0;
    }
    if (p->atom) {              /* atom_issue = wait: issue resumes at write-back */
        w->natom--;
        if (at > w->atom_ready)
            w->atom_ready = at;
        v->wake[slot] = 0;
    }
    w->pend_used &= ~(1u << pi);
    w->npend--;
    if (w->npend == 0 && warp_finished(w))
        warp_leave(sm, slot, now);
    v->next_try = umin(v->next_try, now + 1);
}

const struct core_mem_req *core_sm_req_peek(const struct core_sm *sm)
{
    return sm->v.qn ? &sm->v.q[sm->v.qhead] : NULL;
}

void core_sm_req_pop(struct core_sm *sm, uint64_t now, bool missed)
{
    struct core_view *v = &sm->v;
    if (!v->qn)
        return;
    /* a waiting load's line missed (a stepper that acts on a miss reads
     * core_pend.missed) */
    uint32_t tag = v->q[v->qhead].tag;
    unsigned slot = (tag >> 8) & 0xffff, pi = tag & 0xff;
    if (missed && !(tag & CORE_TAG_NOWAIT) && slot < v->nslots && pi < CORE_MAX_PEND &&
        (v->w[slot].pend_used & (1u << pi)) && !v->w[slot].pend[pi].missed)
        v->w[slot].pend[pi].missed = now + 1;
    v->qhead = (v->qhead + 1) % v->qcap;
    v->qn--;
    if (v->qn == 32)            /* memory instructions may go again */
        mem_wake(sm);
    v->next_try = umin(v->next_try, now + 1);
}

/* Appends snprintf's output at buf + *o (capacity n), keeping *o < n. */
#define SM_APPEND(buf, n, o, ...)                                                     \
    do {                                                                              \
        int k_ = snprintf((buf) + *(o), (n) - *(o), __VA_ARGS__);                     \
        if (k_ > 0)                                                                   \
            *(o) += (size_t)k_ < (n) - *(o) ? (size_t)k_ : (n) - *(o) - 1;            \
    } while (0)

int core_sm_describe(const struct core_sm *sm, uint64_t now, char *buf, size_t n)
{
    const struct core_view *v = &sm->v;
    size_t o = 0;
    if (!n)
        return 0;
    buf[0] = 0;
    for (unsigned i = 0; i < v->nslots && o + 1 < n; i++) {
        const struct core_warp *w = &v->w[i];
        if (w->cta < 0)
            continue;
        char d[512];
        simt_describe(&w->sw, d, sizeof d);
        unsigned busy = 0;
        uint32_t nr = v->k->prog->max_regs;
        for (uint32_t r = 0; r < nr; r++)
            busy += w->reg_ready[r] > now;
        SM_APPEND(buf, n, &o, " SM %u slot %u: CTA (%u,%u,%u) warp %u: %s; scoreboard: %u "
                  "registers pending, %u loads outstanding, fetch %s;", v->id, i,
                  v->cta[w->cta].ctaid[0], v->cta[w->cta].ctaid[1],
                  v->cta[w->cta].ctaid[2], w->sw.gridv.warpid, d, busy, w->npend,
                  w->ibuf_ready > now ? "waiting" : "ready");
    }
    for (unsigned ci = 0; ci < v->ncta_slots && o + 1 < n; ci++) {
        const struct core_cta *cta = &v->cta[ci];
        if (!cta->used)
            continue;
        uint32_t live = cta_live_threads(sm, (int32_t)ci);
        for (unsigned b = 0; b < CORE_NBAR && o + 1 < n; b++)
            if (cta->arrived[b])
                SM_APPEND(buf, n, &o, " CTA (%u,%u,%u): barrier %u reached by %u of %u "
                          "threads it waits for;", cta->ctaid[0], cta->ctaid[1],
                          cta->ctaid[2], b, cta->arrived[b],
                          cta->expect[b] ? cta->expect[b] : live);
    }
    for (unsigned i = 0; i < sm->nmech && o + 1 < n; i++) {
        const struct core_mech_inst *m = &sm->mech[i];
        if (m->ops && m->ops->describe)
            o += (size_t)m->ops->describe(m->self, v, buf + o, n - o);
    }
    if (v->qn && o + 1 < n)
        SM_APPEND(buf, n, &o, " SM %u: %u requests queued;", v->id, v->qn);
    return (int)o;
}
