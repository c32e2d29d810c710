/* One SM of the timing model: CTA residency, schedulers, scoreboard,
 * pipelines, operand collectors, memory issue and barriers. The issuing
 * instruction executes functionally at issue (simt_step); timing only
 * decides WHEN each warp may issue. See docs/timing-core.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "core/core_pca.h"
#include "core/core_gscalar.h"
#include "exec/exec_mem.h"

static inline unsigned popc(uint32_t x) { return (unsigned)__builtin_popcount(x); }
static inline uint64_t umin(uint64_t a, uint64_t b) { return a < b ? a : b; }

unsigned core_sm_slots(const struct cfg *c)
{
    unsigned n = (unsigned)(c->max_threads_per_sm / 32);
    return n > CORE_MAX_SLOTS ? CORE_MAX_SLOTS : n;
}

int core_sm_init(struct core_sm *sm, const struct cfg *c, unsigned id,
                 uint32_t max_stack_depth)
{
    memset(sm, 0, sizeof *sm);
    sm->c = c;
    sm->id = id;
    sm->nslots = core_sm_slots(c);
    for (unsigned i = 0; i < CORE_MAX_SLOTS; i++)
        sm->wake[i] = CORE_INF;
    sm->ncta_slots = (unsigned)c->max_ctas_per_sm;
    sm->nsched = (unsigned)c->num_schedulers;
    sm->units[CORE_U_ALU] = (unsigned)c->alu_units;
    sm->units[CORE_U_SFU] = (unsigned)c->sfu_units;
    sm->units[CORE_U_MEM] = (unsigned)c->mem_units;
    sm->lanes[CORE_U_ALU] = (unsigned)c->alu_lanes;
    sm->lanes[CORE_U_SFU] = (unsigned)c->sfu_lanes;
    sm->lanes[CORE_U_MEM] = (unsigned)c->mem_lanes;
    sm->lat[CORE_U_ALU] = (unsigned)c->alu_latency;
    sm->lat[CORE_U_SFU] = (unsigned)c->sfu_latency;
    sm->lat[CORE_U_MEM] = (unsigned)c->l1d_latency;
    for (unsigned u = 0; u < 3; u++)
        sm->ii[u] = (EXEC_WARP + sm->lanes[u] - 1) / sm->lanes[u];
    /* tensor pipes: a warp instruction at a time, busy tensor_ii cycles
     * per 16x16x16 f16 step (issue scales it per shape and type) */
    sm->units[CORE_U_TENSOR] = (unsigned)c->tensor_units;
    sm->lanes[CORE_U_TENSOR] = EXEC_WARP;
    sm->ii[CORE_U_TENSOR] = (unsigned)c->tensor_ii;
    sm->lat[CORE_U_TENSOR] = (unsigned)c->tensor_latency;
    sm->gs_lat = c->gscalar_compress ? (unsigned)c->gscalar_extra_latency : 0;
    sm->w = calloc(sm->nslots, sizeof *sm->w);
    sm->cta = calloc(sm->ncta_slots, sizeof *sm->cta);
    sm->coll_free = calloc((size_t)c->operand_collectors, sizeof *sm->coll_free);
    /* 64 entries as ever, plus room for the texel requests of one
     * filtered texture fetch (CORE_TEX_LINES) */
    sm->qcap = 64 + CORE_TEX_LINES;
    sm->q = calloc(sm->qcap, sizeof *sm->q);
    if (!sm->w || !sm->cta || !sm->coll_free || !sm->q)
        return -1;
    for (unsigned i = 0; i < sm->nslots; i++) {
        sm->w[i].cta = -1;
        if (simt_warp_alloc(&sm->w[i].sw, max_stack_depth) != 0)
            return -1;
    }
    sm->next_try = CORE_INF;
    sm->err_slot = -1;
    /* TBC: the compaction engine (core_tbc.c) */
    if (core_tbc_init(&sm->tbc, (unsigned)c->simt_compaction, sm->ncta_slots,
                      max_stack_depth) != 0)
        return -1;
    /* DPE: the dual-path engine (core_dpe.c) */
    if (core_dpe_init(&sm->dpe, (unsigned)c->simt_paths, (unsigned)c->dpe_scoreboard,
                      (unsigned)c->dpe_scheduler, c->dpe_path_forwarding != 0,
                      (uint32_t)c->dws_n, sm->nslots, max_stack_depth) != 0)
        return -1;
    /* DAC: the affine warp, its queues and expansion units (core_dac.c) */
    if (core_dac_init(&sm->dac, c, sm->nslots, sm->ncta_slots, max_stack_depth) != 0)
        return -1;
    return 0;
}

void core_sm_free(struct core_sm *sm)
{
    if (!sm)
        return;
    for (unsigned i = 0; sm->w && i < sm->nslots; i++) {
        simt_warp_free(&sm->w[i].sw);
        free(sm->w[i].reg_ready);
    }
    free(sm->w);
    free(sm->cta);
    free(sm->coll_free);
    free(sm->q);
    for (unsigned i = 0; i < CORE_MAX_SLOTS; i++)
        free(sm->local_slot[i]);
    free(sm->shared);
    core_slp_free(&sm->slp);
    core_rvc_free(&sm->rvc);
    core_tbc_free(&sm->tbc);
    core_dpe_free(&sm->dpe);
    core_cae_free(&sm->cae);
    core_dac_free(&sm->dac);
    memset(sm, 0, sizeof *sm);
}

int core_sm_kernel(struct core_sm *sm, const struct core_kernel *k, uint64_t now)
{
    sm->k = k;
    /* local stacks are zeroed lazily, per slot, on first use in a kernel */
    sm->local_bytes = (uint64_t)EXEC_WARP * k->local_stride;
    memset(sm->local_clean, 0, sizeof sm->local_clean);
    uint64_t sbytes = (uint64_t)sm->ncta_slots * (k->shared_bytes + 16);
    if (sbytes > sm->shared_cap) {
        free(sm->shared);
        sm->shared = malloc((size_t)sbytes);
        if (!sm->shared)
            return -1;
        sm->shared_cap = sbytes;
    }
    for (unsigned i = 0; i < sm->ncta_slots; i++)
        sm->cta[i].shared = sm->shared + (size_t)i * (k->shared_bytes + 16);
    uint32_t nr = k->prog->max_regs ? k->prog->max_regs : 1;
    for (unsigned i = 0; i < sm->nslots; i++) {
        free(sm->w[i].reg_ready);
        sm->w[i].reg_ready = calloc(nr, sizeof *sm->w[i].reg_ready);
        if (!sm->w[i].reg_ready)
            return -1;
    }
    /* CAE (affine.mode = cae): register classes per slot, statistics per
     * launch */
    if (sm->c->affine_mode == 2) {
        char cerr[128];
        if (core_cae_init(&sm->cae, sm->nslots, nr, cerr, sizeof cerr) != 0)
            return -1;
    }
    memset(sm->unit_free, 0, sizeof sm->unit_free);
    sm->mem_sleep = 0;
    memset(sm->coll_free, 0, (size_t)sm->c->operand_collectors * sizeof *sm->coll_free);
    memset(&sm->st, 0, sizeof sm->st);
    sm->issue_cap = CORE_INF;
    for (unsigned i = 0; i < 8; i++) {
        sm->last[i] = sm->nslots - 1;   /* round robin starts at slot 0 */
        sm->active_cta[i] = 0;
        sm->gto_last[i] = 0;
    }
    sm->age_next = 0;
    memset(sm->nage, 0, sizeof sm->nage);
    sm->last_eval = now;
    sm->next_try = CORE_INF;
    sm->has_work_at_last = false;
    sm->err_slot = -1;
    core_slp_kernel(&sm->slp, k->f->name, now);
    core_rvc_kernel(&sm->rvc, k->f->name, now);
    core_tbc_kernel(&sm->tbc, k->f, k->nwarps,       /* TBC */
                    sm->c->gscalar_scalar != 0 || sm->c->gscalar_stats != 0, now);
    if (core_dac_kernel(&sm->dac, k->f, k->dac) != 0)  /* DAC */
        return -1;
    return core_dpe_kernel(&sm->dpe, k->f, nr,      /* DPE */
                           k->prog->di[k->f - k->mod->funcs]);
}

bool core_sm_fits(const struct core_sm *sm)
{
    const struct core_kernel *k = sm->k;
    uint32_t wthreads = k->nwarps * EXEC_WARP;
    unsigned free_slots = sm->nslots - sm->live_warps;
    return sm->used_ctas < sm->ncta_slots &&
           free_slots >= k->nwarps &&
           sm->used_threads + wthreads <= (uint64_t)sm->c->max_threads_per_sm &&
           sm->used_regs + (uint64_t)wthreads * k->regs_per_thread <=
               (uint64_t)sm->c->regs_per_sm &&
           sm->used_shared + k->shared_bytes <= (uint64_t)sm->c->shared_per_sm;
}

/* Decoded instruction at the top of w's stack (its next to issue). */
static const struct core_dinst *peek_di(const struct core_sm *sm,
                                        const struct core_warp *w)
{
    if (sm->tbc.active)         /* TBC: the compacted warp's pc */
        return core_tbc_peek(sm, (unsigned)(w - sm->w));
    if (w->sw.sp == 0)
        return NULL;
    const struct simt_entry *t = &w->sw.stack[w->sw.sp - 1];
    const struct ptx_func *f = w->sw.frames[t->frame].func;
    uint32_t fi = (uint32_t)(f - sm->k->mod->funcs);
    uint32_t pc = (uint32_t)t->npc < f->ninsts ? (uint32_t)t->npc : f->ninsts;
    return &sm->k->prog->di[fi][pc];
}

int core_sm_launch_cta(struct core_sm *sm, const uint32_t ctaid[3], uint64_t now)
{
    const struct core_kernel *k = sm->k;
    unsigned ci = 0;
    while (ci < sm->ncta_slots && sm->cta[ci].used)
        ci++;
    if (ci == sm->ncta_slots)
        return -1;
    struct core_cta *cta = &sm->cta[ci];
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
        while (sm->w[slot].cta >= 0)
            slot++;
        wslots[wi] = (uint8_t)slot;
        struct core_warp *w = &sm->w[slot];
        struct simt_warp *s = &w->sw;
        unsigned first = wi * EXEC_WARP;
        unsigned n = k->nthreads - first < EXEC_WARP ? k->nthreads - first : EXEC_WARP;
        uint32_t valid = n == 32 ? 0xffffffffu : (1u << n) - 1;
        s->gridv.ntid[0] = k->ntid[0]; s->gridv.ntid[1] = k->ntid[1];
        s->gridv.ntid[2] = k->ntid[2];
        memcpy(s->gridv.nctaid, k->nctaid, sizeof s->gridv.nctaid);
        memcpy(s->gridv.ctaid, ctaid, sizeof s->gridv.ctaid);
        s->gridv.warpid = wi;
        s->gridv.nwarpid = k->nwarps;
        s->gridv.smid = sm->id;
        s->gridv.nsmid = (uint32_t)sm->c->num_sms;
        s->gridv.dyn_smem = k->dyn_smem;
        s->gridv.total_smem = (uint32_t)((k->shared_bytes + 255) / 256 * 256);
        s->gridv.grid_ws = k->grid_ws;
        s->gridv.timer_num = 1000;                 /* ns = cycles * 1000 / MHz */
        s->gridv.timer_den = (uint32_t)sm->c->core_clock_mhz;
        s->ew.grid = &s->gridv;
        s->ew.clock = &sm->clock_now;
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
        s->mem.shared = cta->shared;
        s->mem.shared_bytes = k->shared_bytes;
        if (sm->local_cap[slot] < sm->local_bytes) {
            free(sm->local_slot[slot]);
            sm->local_slot[slot] = malloc((size_t)sm->local_bytes);
            if (!sm->local_slot[slot]) {
                sm->local_cap[slot] = 0;
                return -1;
            }
            sm->local_cap[slot] = sm->local_bytes;
            sm->local_clean[slot] = false;
        }
        if (!sm->local_clean[slot]) {
            memset(sm->local_slot[slot], 0, (size_t)sm->local_bytes);
            sm->local_clean[slot] = true;
        }
        s->mem.local = sm->local_slot[slot];
        s->mem.local_stride = k->local_stride;
        s->mem.param = k->param;
        s->mem.param_bytes = k->param_bytes;
        s->mem.tex = k->tex;
        s->mem.ntex = k->ntex;
        s->warp_insts = s->thread_insts = s->branches = s->divergent = 0;
        s->max_depth = 0;
        if (simt_warp_start(s, k->mod, k->f, valid, k->sym1, k->frame0) != 0 ||
            core_rvc_frame_start(&sm->rvc, slot, 0, k->f) != 0)
            return -1;
        core_cae_warp_start(&sm->cae, slot);
        w->cta = (int32_t)ci;
        w->next_di = peek_di(sm, w);
        w->age = sm->age_next++;
        /* the newest warp: appended to its scheduler's age list */
        unsigned sc = slot % sm->nsched;
        sm->age_order[sc][sm->nage[sc]++] = (uint8_t)slot;
        w->ibuf_ready = now + (uint64_t)sm->c->fetch_latency;
        w->ibuf_block = w->ibuf_ready;
        w->ibuf_n = (uint32_t)sm->c->ibuffer_entries;
        if (sm->dpe.active)         /* DPE: the dual-path stack and scoreboard */
            core_dpe_launch(sm, slot, valid, now);
        w->npend = 0;
        w->pend_used = 0;
        sm->wake[slot] = 0;
        memset(w->reg_ready, 0, (size_t)(k->prog->max_regs ? k->prog->max_regs : 1) *
                                    sizeof *w->reg_ready);
        sm->live_warps++;
        core_slp_push(&sm->slp, 1, slot, wi, ctaid, valid, now);
        if (s->state == SIMT_DONE)
            cta->nwarps_left--;     /* no valid thread (cannot happen) */
    }
    sm->used_ctas++;
    sm->used_threads += k->nwarps * EXEC_WARP;
    sm->used_regs += k->nwarps * EXEC_WARP * k->regs_per_thread;
    sm->used_shared += k->shared_bytes;
    sm->next_try = umin(sm->next_try, now);
    core_tbc_launch(sm, ci, now);   /* TBC: the CTA stack and its first warps */
    core_dac_launch(sm, ci, wslots, k->nwarps);     /* DAC: a batch */
    return 0;
}

bool core_sm_busy(const struct core_sm *sm)
{
    return sm->live_warps > 0 || sm->qn > 0;
}

/* ------------------------------------------------------------ accounting */

static void add_stall(struct core_sm *sm, int reason, uint64_t n)
{
    if (!n)
        return;
    sm->st.idle_cycles += n;
    switch (reason) {
    case CORE_ST_BARRIER: sm->st.stall.barrier += n; break;
    case CORE_ST_IBUFFER: sm->st.stall.ibuffer += n; break;
    case CORE_ST_SCOREBOARD: sm->st.stall.scoreboard += n; break;
    case CORE_ST_MEM: sm->st.stall.mem_wait += n; break;
    case CORE_ST_PIPE: sm->st.stall.pipe_busy += n; break;
    default: sm->st.stall.no_warps += n; break;
    }
}

void core_sm_account(struct core_sm *sm, uint64_t end)
{
    /* cycles (last_eval, end) were not evaluated: nothing could issue */
    if (end > sm->last_eval + 1 && sm->has_work_at_last) {
        uint64_t n = end - sm->last_eval - 1;
        sm->st.busy_cycles += n;
        add_stall(sm, sm->last_reason, n);
    }
    if (end > sm->last_eval + 1)
        sm->last_eval = end - 1;
}

/* ------------------------------------------------------------- barriers */

static uint32_t cta_live_threads(const struct core_sm *sm, int32_t ci)
{
    uint32_t live = 0;
    for (unsigned i = 0; i < sm->nslots; i++)
        if (sm->w[i].cta == ci)
            live += popc(sm->w[i].sw.live);
    return live;
}

/* The write-back of a bar.red result (written at the barrier's release,
 * not at issue) through the compressor; a failure stays in sm->rvc.why
 * and stops the SM's next cycle. */
static void rvc_bar_red(struct core_sm *sm, unsigned slot, uint64_t now)
{
    struct core_warp *w = &sm->w[slot];
    const struct simt_entry *t = &w->sw.stack[w->sw.sp - 1];
    const struct ptx_func *f = w->sw.frames[t->frame].func;
    if (w->sw.bar_pc < 0 || (uint32_t)w->sw.bar_pc >= f->ninsts)
        return;
    uint32_t fi = (uint32_t)(f - sm->k->mod->funcs);
    const struct core_dinst *di = &sm->k->prog->di[fi][w->sw.bar_pc];
    unsigned moves;
    (void)core_rvc_write(&sm->rvc, &w->sw, slot, t->frame, f, w->sw.bar_pc,
                         di->dst, di->ndst, w->sw.bar_mask, CORE_U_NONE, -1, 0,
                         now, &moves);
}

static void try_release(struct core_sm *sm, int32_t ci, uint64_t now)
{
    if (sm->tbc.active) {       /* TBC: compacted warps wait, not home warps */
        core_tbc_try_release(sm, ci, now);
        return;
    }
    struct core_cta *cta = &sm->cta[ci];
    uint32_t waiting = 0;
    for (unsigned i = 0; i < sm->nslots; i++)
        if (sm->w[i].cta == ci && sm->w[i].sw.state == SIMT_AT_BARRIER)
            waiting |= 1u << sm->w[i].sw.bar_id;
    if (!waiting)
        return;
    uint32_t live = cta_live_threads(sm, ci);
    for (unsigned b = 0; b < CORE_NBAR; b++) {
        if (!(waiting & (1u << b)))
            continue;
        uint32_t need = cta->expect[b] ? cta->expect[b] : live;
        if (cta->arrived[b] < need)
            continue;
        for (unsigned i = 0; i < sm->nslots; i++) {
            struct core_warp *w = &sm->w[i];
            if (w->cta == ci && w->sw.state == SIMT_AT_BARRIER && w->sw.bar_id == b) {
                simt_bar_red_result(&w->sw, cta->ntrue[b], cta->nfalse[b]);
                if (sm->rvc.on && w->sw.bar_red)
                    rvc_bar_red(sm, i, now);
                simt_release(&w->sw);
                sm->wake[i] = 0;
                if (w->ibuf_ready < now + 1)
                    w->ibuf_ready = now + 1;
            }
        }
        cta->arrived[b] = cta->expect[b] = cta->ntrue[b] = cta->nfalse[b] = 0;
    }
}

/* Wakes the warps asleep on a memory stall (sm->mem_sleep): the memory
 * queue fell to 32 requests or a memory instruction issued. */
static void mem_wake(struct core_sm *sm)
{
    for (uint64_t m = sm->mem_sleep; m; m &= m - 1)
        sm->wake[__builtin_ctzll(m)] = 0;
    sm->mem_sleep = 0;
}

/* A finished warp with no outstanding loads leaves its slot. */
static void warp_leave(struct core_sm *sm, unsigned slot, uint64_t now)
{
    struct core_warp *w = &sm->w[slot];
    int32_t ci = w->cta;
    core_slp_push(&sm->slp, 0, slot, w->sw.gridv.warpid, w->sw.gridv.ctaid,
                  sm->slp.vmask[slot], now);
    if (!sm->tbc.active)        /* TBC: counted per compacted warp issued */
        sm->st.warp_insts += w->sw.warp_insts;
    sm->st.thread_insts += w->sw.thread_insts;
    sm->st.branches += w->sw.branches;
    sm->st.divergent += w->sw.divergent;
    if (w->sw.max_depth > sm->st.max_depth)
        sm->st.max_depth = w->sw.max_depth;
    w->cta = -1;
    unsigned sc = slot % sm->nsched;
    for (unsigned j = 0; j < sm->nage[sc]; j++)
        if (sm->age_order[sc][j] == slot) {
            memmove(&sm->age_order[sc][j], &sm->age_order[sc][j + 1],
                    sm->nage[sc] - j - 1);
            sm->nage[sc]--;
            break;
        }
    sm->wake[slot] = CORE_INF;
    sm->wake_reason[slot] = CORE_ST_NONE;
    sm->mem_sleep &= ~(1ull << slot);   /* a free slot stays asleep */
    sm->live_warps--;
    (void)core_dac_leave(sm, slot);     /* DAC: queues empty, else dac.why */
    struct core_cta *cta = &sm->cta[ci];
    if (--cta->nwarps_left == 0) {
        const struct core_kernel *k = sm->k;
        cta->used = false;
        sm->used_ctas--;
        sm->used_threads -= k->nwarps * EXEC_WARP;
        sm->used_regs -= k->nwarps * EXEC_WARP * k->regs_per_thread;
        sm->used_shared -= k->shared_bytes;
        sm->cta_finished = true;
    }
}

/* ---------------------------------------------------------------- issue */

static inline bool warp_finished(const struct core_warp *w)
{
    return w->sw.state == SIMT_DONE;
}

/* Why warp w cannot issue at now (CORE_ST_NONE: it can) and the cycle at
 * which that may change (*when). *di gets the decoded instruction. */
static int check_warp(struct core_sm *sm, struct core_warp *w, uint64_t now,
                      uint64_t *when, const struct core_dinst **dip, int *unit_ix)
{
    if (w->sw.state == SIMT_AT_BARRIER ||
        (sm->tbc.active &&      /* TBC: no warp in the slot, or waiting */
         core_tbc_blocked(sm, (unsigned)(w - sm->w), now, when))) {
        if (!sm->tbc.active)
            *when = CORE_INF;
        return CORE_ST_BARRIER;
    }
    if (sm->dpe.active) {       /* DPE: a path whose buffer, scoreboard and
                                   pipeline are ready (DPE runs without TBC
                                   and DAC: configuration errors) */
        int why = core_dpe_check(sm, (unsigned)(w - sm->w), now, when, unit_ix);
        *dip = w->next_di;
        return why;
    } else if (w->ibuf_ready > now) {
        *when = w->ibuf_ready;
        return CORE_ST_IBUFFER;
    }
    if (sm->dac.active &&       /* DAC: removed instructions, then the deq rules */
        !(sm->dac.passed >> (unsigned)(w - sm->w) & 1)) {   /* (passed: they stand) */
        unsigned slot = (unsigned)(w - sm->w);
        uint64_t removed = sm->dac.st.removed;
        if (core_dac_skip(sm, slot) != 0) {
            sm->dac.skip_err = 1;   /* a warp fault: sm->err_slot */
            *when = CORE_INF;
            return CORE_ST_MEM;
        }
        if (sm->dac.st.removed != removed)  /* moved on: else next_di stands */
            w->next_di = peek_di(sm, w);
        int why = core_dac_check(sm, slot, now, when);
        if (why != CORE_ST_NONE)
            return why;
    }
    const struct core_dinst *di = w->next_di;
    *dip = di;
    uint64_t rdy = 0;
    if (sm->tbc.active)         /* TBC: ready in every home warp */
        rdy = core_tbc_reg_ready(sm, (unsigned)(w - sm->w), di);
    bool own = !sm->tbc.active && !sm->dpe.active;  /* TBC, DPE: their scoreboards */
    for (unsigned i = 0; i < di->nsrc && own; i++)
        if (w->reg_ready[di->src[i]] > rdy)
            rdy = w->reg_ready[di->src[i]];
    for (unsigned i = 0; i < di->ndst && own; i++)
        if (w->reg_ready[di->dst[i]] > rdy)
            rdy = w->reg_ready[di->dst[i]];
    if (rdy > now) {
        *when = rdy;
        return CORE_ST_SCOREBOARD;
    }
    return core_sm_unit_wait(sm, w, di, now, when, unit_ix);
}

void core_sm_push_req(struct core_sm *sm, const struct core_mem_req *r)
{
    uint32_t i = (sm->qhead + sm->qn) % sm->qcap;
    sm->q[i] = *r;
    sm->qn++;
}

/* Timing of a memory instruction just executed by w; returns the cycles
 * the MEM unit stays busy and sets *ready (destination readiness, CORE_INF
 * while loads are outstanding). unlock: a DAC deq.data whose record locked
 * its lines: each line access releases one lock in the L1D. */
static unsigned mem_issue(struct core_sm *sm, unsigned slot, const struct core_dinst *di,
                          uint64_t at, uint64_t *ready, bool unlock)
{
    struct core_warp *w = &sm->w[slot];
    struct exec_result *r = &w->sw.res;
    unsigned ii = sm->gs_ii ? sm->gs_ii : sm->ii[CORE_U_MEM];  /* G-Scalar */
    *ready = at + ii - 1 + (uint64_t)sm->c->l1d_latency;
    if (!r->active || r->access_bytes == 0)
        return ii;
    unsigned space = r->space;
    if (space == PTX_SP_GENERIC)
        space = r->addr[__builtin_ctz(r->active)] >= EXEC_GLOBAL_BASE
                    ? PTX_SP_GLOBAL : PTX_SP_SHARED;
    if (space == PTX_SP_PARAM)
        return ii;                  /* constant-cache hit, no traffic */
    if (space == PTX_SP_SHARED) {
        unsigned d = core_shmem_degree(r, (unsigned)sm->c->shmem_banks);
        sm->st.shmem_conflict_cycles += (uint64_t)(d - 1) * ii;
        *ready = at + (uint64_t)d * ii - 1 + (uint64_t)sm->c->shmem_latency;
        return d * ii;
    }
    struct exec_result tmp;
    const struct exec_result *src = r;
    if (space == PTX_SP_LOCAL) {
        /* local memory is interleaved per thread word across the warp */
        tmp = *r;
        uint64_t id = ((uint64_t)sm->id * sm->nslots + slot) * sm->k->local_stride;
        EXEC_FOR_EACH_LANE(r->active, lane, {
            uint64_t off = r->addr[lane];
            tmp.addr[lane] = EXEC_LOCAL_WINDOW + (id + (off & ~3ull)) * EXEC_WARP +
                             lane * 4u + (off & 3u);
        });
        src = &tmp;
    }
    struct core_line lines[CORE_TEX_LINES];
    unsigned n = core_coalesce(src, (unsigned)sm->c->l1d_line,
                               (unsigned)sm->c->l1d_sector, lines);
    if (r->nxaddr)  /* the other texels of filtered fetches (docs/textures.md) */
        n = core_coalesce_more(lines, n, CORE_TEX_LINES, w->sw.mem.texaddr,
                               r->nxaddr, r->access_bytes ? r->access_bytes : 4,
                               (unsigned)sm->c->l1d_line, (unsigned)sm->c->l1d_sector);
    bool atomic = di->is_atomic;
    bool wait = di->ndst > 0;
    uint32_t tag = CORE_TAG_NOWAIT | (slot << 8);
    if (wait) {
        unsigned pi = (unsigned)__builtin_ctz(~w->pend_used);
        struct core_pend *p = &w->pend[pi];
        p->left = n;
        p->ndst = di->ndst;
        memcpy(p->dst, di->dst, sizeof p->dst);
        p->hslots = sm->tbc.active ? core_tbc_homes(sm, slot) : 0;   /* TBC */
        p->dside = sm->dpe.active ? (uint8_t)(sm->dpe.w[slot].last + 1) : 0;  /* DPE */
        p->dmask = r->active;
        w->pend_used |= 1u << pi;
        w->npend++;
        tag = (slot << 8) | pi;
        *ready = CORE_INF;
    }
    for (unsigned i = 0; i < n; i++) {
        struct core_mem_req q;
        q.line_addr = lines[i].line_addr;
        q.tag = tag;
        q.sm = (uint16_t)sm->id;
        q.warp = (uint16_t)slot;
        q.sector_mask = lines[i].sector_mask;
        q.is_write = (uint8_t)(r->is_store && !atomic);
        q.is_atomic = (uint8_t)atomic;
        q.space = (uint8_t)space;
        q.bytes = lines[i].bytes;
        q.pc = sm->mem_pc;
        q.prio = core_pca_token(sm, slot);
        q.nlines = (uint8_t)(n < 255 ? n : 255);
        q.first = i == 0;
        q.lock = 0;
        q.unlock = unlock;
        core_sm_push_req(sm, &q);
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
}

/* Issues w's next instruction at now. Returns 0 or an ls_status. */
static int issue(struct core_sm *sm, unsigned slot, const struct core_dinst *di,
                 int unit_ix, uint64_t now)
{
    struct core_warp *w = &sm->w[slot];
    unsigned depth = w->sw.sp;
    uint64_t before = w->sw.warp_insts;
    /* operand collector: bank conflicts among the sources and with the
     * operands other schedulers read this cycle */
    unsigned banks = (unsigned)sm->c->rf_banks, extra = 0;
    if (sm->bank_cycle != now) {
        sm->bank_cycle = now;
        sm->bank_used = 0;
    }
    if (di->nsrc) {
        unsigned mx = 0;
        uint8_t bank[CORE_MAX_SRC];
        uint64_t prior = sm->bank_used;   /* banks other instructions read */
        for (unsigned i = 0; i < di->nsrc; i++) {
            unsigned b = (unsigned)di->src[i] % banks;
            unsigned c = 1 + ((prior >> b) & 1);    /* reads of bank b so far */
            for (unsigned j = 0; j < i; j++)
                c += bank[j] == b;
            bank[i] = (uint8_t)b;
            mx = c > mx ? c : mx;
            sm->bank_used |= 1ull << b;
        }
        extra = mx ? mx - 1 : 0;
    }
    /* the collector stays busy while it reads the conflicting banks */
    sm->coll_free[sm->last_coll] = now + 1 + extra;
    uint64_t at = now + extra;
#ifdef LS_FAULT_STALE_STORE
    /* Test builds only (docs/golden.md): a broken timing path. A global
     * store reads lane 5 of its data register as if before the producer's
     * write-back (the value with bit 0 flipped); the commit-log comparison
     * must find it at this store's pc, lane 5. */
    if (w->sw.sp) {
        const struct simt_entry *t = &w->sw.stack[w->sw.sp - 1];
        const struct ptx_func *ff = w->sw.frames[t->frame].func;
        const struct ptx_inst *fi = (uint32_t)t->npc < ff->ninsts ? &ff->insts[t->npc] : NULL;
        if (fi && fi->op == PTX_OP_ST && fi->space == PTX_SP_GLOBAL &&
            fi->o[1].kind == PTX_O_REG && (t->mask >> 5 & 1))
            w->sw.ew.regs[(size_t)fi->o[1].reg * EXEC_WARP + 5] ^= 1;
    }
#endif
    if (di->unit == CORE_U_MEM && sm->tbc.active) {    /* TBC: the compacted pc */
        int32_t tpc = sm->tbc.w[slot].pc;
        sm->mem_pc = (uint32_t)tpc < sm->k->f->ninsts ? sm->k->f->insts[tpc].line : 0;
    } else if (di->unit == CORE_U_MEM && w->sw.sp) {  /* its PTX line: the LAMAR SPP's PC */
        const struct simt_entry *t = &w->sw.stack[w->sw.sp - 1];
        const struct ptx_func *ff = w->sw.frames[t->frame].func;
        sm->mem_pc = (uint32_t)t->npc < ff->ninsts ? ff->insts[t->npc].line : 0;
    }
    /* G-Scalar: the operand reads through the decompressors, before the
     * instruction executes (docs/gscalar.md) */
    unsigned rframe = 0, rnframes = w->sw.nframes, gs_cls = 0, gs_halves = 0;
    const struct ptx_func *rf = NULL;
    int32_t rpc = 0;
    struct core_tbc_rvc tr;     /* TBC: per home warp (core_tbc_rvc_read) */
    if (sm->rvc.on && sm->tbc.active) {
        int e = core_tbc_rvc_read(sm, slot, di, now, &tr);
        if (e)
            return e;
    } else if (sm->rvc.on && w->sw.sp) {
        const struct simt_entry *t = &w->sw.stack[w->sw.sp - 1];
        rframe = t->frame;
        rf = w->sw.frames[rframe].func;
        rpc = t->npc;
        uint32_t m = (uint32_t)rpc < rf->ninsts
                         ? exec_guard_mask(&w->sw.ew, &rf->insts[rpc], t->mask) : t->mask;
        int e = core_rvc_read(&sm->rvc, &w->sw, slot, rframe, rf, rpc, di->src,
                              di->nsrc, m, sm->last_coll, now);
        if (e)
            return e;
        if ((uint32_t)rpc < rf->ninsts)     /* scalar eligibility (Fig 9) */
            gs_cls = core_gs_classify(&sm->rvc, rf, &rf->insts[rpc], di->unit, m,
                                      &gs_halves);
    }
    /* CAE: the instruction about to run (docs/dac.md "Comparison points") */
    const struct ptx_func *cf = NULL;
    unsigned cframe = 0;
    int32_t cpc = 0;
    if (sm->cae.on && w->sw.sp) {
        const struct simt_entry *t = &w->sw.stack[w->sw.sp - 1];
        cframe = t->frame;
        cf = w->sw.frames[cframe].func;
        cpc = t->npc;
    }
    /* DAC: the deq's pc and the masks its golden check compares */
    int32_t dac_pc = -1;
    uint32_t dac_mask = 0, dac_gmask = 0;
    if (sm->dac.active && w->sw.sp && w->sw.stack[w->sw.sp - 1].frame == 0) {
        const struct simt_entry *t = &w->sw.stack[w->sw.sp - 1];
        if ((uint32_t)t->npc < sm->k->f->ninsts) {
            dac_pc = t->npc;
            dac_mask = t->mask;
            dac_gmask = exec_guard_mask(&w->sw.ew, &sm->k->f->insts[dac_pc], t->mask);
        }
    }
    enum simt_rc rc = SIMT_RC_OK;
    uint64_t tbc_done = 0;      /* TBC: home slots whose CTA finished */
    if (sm->tbc.active) {
        if (core_tbc_step(sm, slot, now, &tbc_done) != 0)
            return sm->tbc.blk.why ? LS_ERR_COSIM : LS_ERR_MEMFAULT;
    } else if (sm->dpe.active) {    /* DPE: the chosen path */
        rc = core_dpe_step(sm, slot, now);
    } else {
        rc = simt_step(&w->sw);
    }
    if (rc == SIMT_RC_ERROR) {
        sm->err_slot = (int)slot;
        return LS_ERR_MEMFAULT;
    }
    int dac_served = 0;         /* DAC: 1 = a load served by a locked line */
    if (sm->dac.active) {
        dac_served = core_dac_deq(sm, slot, dac_pc, dac_mask, dac_gmask);
        if (dac_served < 0)
            return LS_ERR_COSIM;
    }
    if (sm->rvc.on && sm->tbc.active) {     /* TBC: one write per home warp */
        unsigned moves = 0;
        int e = core_tbc_rvc_write(sm, &tr, di, unit_ix, now, &moves);
        if (e)
            return e;
        at += moves;
        sm->gs_ii = 0;
    }
    if (rf) {
        if (w->sw.nframes > rnframes) {     /* a call: the callee's zeroed frame */
            unsigned k = w->sw.nframes - 1;
            int e = core_rvc_frame_start(&sm->rvc, slot, k, w->sw.frames[k].func);
            if (e)
                return e;
        }
        unsigned moves = 0;
        /* a bar.red result is written at the release (rvc_bar_red) */
        unsigned nd = rc == SIMT_RC_BARRIER && w->sw.bar_red ? 0 : di->ndst;
        int e = core_rvc_write(&sm->rvc, &w->sw, slot, rframe, rf, rpc, di->dst, nd,
                               w->sw.res.active, di->unit, unit_ix, sm->last_coll,
                               now, &moves);
        if (e)
            return e;
        at += moves;    /* each inserted move takes an issue cycle first */
        bool gs_run;    /* G-Scalar: one lane-cycle when it runs as scalar */
        e = core_gs_retire(&sm->rvc, &w->sw, rframe, rf, rpc, di->unit, gs_cls,
                           gs_halves, w->sw.res.active, now, &gs_run);
        if (e)
            return e;
        sm->gs_ii = gs_run ? core_gs_ii(gs_cls, gs_halves, sm->lanes[di->unit]) : 0;
    }
    bool compact = false;
    if (cf) {   /* CAE: a compact instruction takes one lane-cycle (G-Scalar's) */
        compact = core_cae_retire(&sm->cae, slot, &w->sw, cframe, cf, cpc, di->unit,
                                  w->sw.res.active);
        sm->gs_ii = compact ? core_gs_ii(LS_GS_ALU + di->unit, 0, sm->lanes[di->unit]) : 0;
    }
    energy_count(&sm->st.energy, di, w->sw.res.active, compact,
                 dac_pc >= 0 && core_dac_deq_addr(&sm->dac, dac_pc));
    sm->st.issued++;
    w->next_di = peek_di(sm, w);
    if (sm->rvc.on && w->next_di && w->sw.sp && !sm->tbc.active) {
        /* G-Scalar: the next instruction's operands' stored state, on its
         * way to the cache before its reads and write */
        const struct core_dinst *nd = w->next_di;
        unsigned nf = w->sw.stack[w->sw.sp - 1].frame;
        core_rvc_prefetch(&sm->rvc, slot, nf, nd->src, nd->nsrc, nd->dst, nd->ndst);
    }
    if (w->sw.warp_insts != before)
        sm->st.stack_hist[depth < LS_STACK_HIST ? depth : LS_STACK_HIST - 1]++;
    uint64_t ready = at;
    if (di->unit <= CORE_U_TENSOR) {
        unsigned busy;
        if (di->unit == CORE_U_MEM) {
            /* DAC: a deq.data reads the lines its enq.data prefetched and
             * locked in the L1D (hits unless a lock was broken) and
             * releases them */
            busy = mem_issue(sm, slot, di, at, &ready, dac_served > 0);
        } else if (di->unit == CORE_U_TENSOR) {
            uint64_t b = ((uint64_t)sm->ii[CORE_U_TENSOR] * di->tsteps + 255) / 256;
            busy = b ? (unsigned)b : 1;
            ready = at + busy - 1 + sm->lat[CORE_U_TENSOR];
            sm->st.tensor_insts++;
            sm->st.tensor_busy += busy;
        } else {
            busy = sm->gs_ii ? sm->gs_ii : sm->ii[di->unit];
            ready = at + busy - 1 + sm->lat[di->unit];
        }
        sm->unit_free[di->unit][unit_ix] = at + busy;
        if (di->unit == CORE_U_MEM)     /* a MEM stall would now be PIPE */
            mem_wake(sm);
        if (ready != CORE_INF)
            ready += sm->gs_lat;    /* G-Scalar: compress, decompress, EBR */
    }
    if (sm->tbc.active)         /* TBC: written in every home warp */
        core_tbc_set_ready(sm, slot, di, ready);
    for (unsigned i = 0; i < di->ndst && !sm->tbc.active && !sm->dpe.active; i++)
        w->reg_ready[di->dst[i]] = ready;
    {
        /* instruction buffer: a control instruction flushes it and a new
         * block of ibuffer_entries arrives fetch_latency later; otherwise
         * the next block is fetched when the current one arrived, so a
         * warp sustains at most ibuffer_entries / fetch_latency per cycle */
        uint64_t lat = (uint64_t)sm->c->fetch_latency;
        if (di->unit == CORE_U_CTRL) {
            w->ibuf_ready = now + 1 + lat;
            w->ibuf_block = w->ibuf_ready;
            w->ibuf_n = (uint32_t)sm->c->ibuffer_entries;
        } else if (--w->ibuf_n == 0) {
            w->ibuf_block += lat;
            if (w->ibuf_ready < w->ibuf_block)
                w->ibuf_ready = w->ibuf_block;
            w->ibuf_n = (uint32_t)sm->c->ibuffer_entries;
        }
    }
    if (sm->dpe.active)         /* DPE: the issuing path's scoreboard and buffer */
        core_dpe_issued(sm, slot, di, ready);
    if (rc == SIMT_RC_BARRIER) {
        struct core_cta *cta = &sm->cta[w->cta];
        cta->arrived[w->sw.bar_id] += popc(w->sw.bar_mask);
        cta->ntrue[w->sw.bar_id] += w->sw.bar_ntrue;
        cta->nfalse[w->sw.bar_id] += w->sw.bar_nfalse;
        if (w->sw.bar_count)
            cta->expect[w->sw.bar_id] = w->sw.bar_count;
        try_release(sm, w->cta, now);
    } else if (rc == SIMT_RC_DONE) {
        tbc_done |= 1ull << slot;
    }
    while (tbc_done) {
        unsigned ds = (unsigned)__builtin_ctzll(tbc_done);
        tbc_done &= tbc_done - 1;
        struct core_warp *dw = &sm->w[ds];
        int32_t ci = dw->cta;
        sm->wake[ds] = CORE_INF;
        /* an exited warp whose loads are still out drains memory */
        sm->wake_reason[ds] = dw->npend ? CORE_ST_MEM : CORE_ST_NONE;
        if (dw->npend == 0)
            warp_leave(sm, ds, now);
        if (sm->cta[ci].used)
            try_release(sm, ci, now);
    }
    return 0;
}

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

int core_sm_cycle(struct core_sm *sm, uint64_t now)
{
    if (sm->rvc.why)
        return LS_ERR_COSIM;        /* a bar.red write-back failed */
    if (sm->dac.skip_err)
        return LS_ERR_MEMFAULT;     /* DAC: a removed instruction faulted */
    if (sm->dac.why[0])
        return LS_ERR_COSIM;        /* DAC: a golden check failed */
    core_dac_cycle(sm, now);    /* DAC: AEU, PEU */
    if (now) {
        int e = core_slp_advance(&sm->slp, now - 1);
        if (e)
            return e;
    }
    core_sm_account(sm, now);
    core_tbc_account(sm, now);  /* TBC: slots waiting at compaction points */
    sm->last_eval = now;
    sm->clock_now = now;
    bool had_work = sm->live_warps > 0;
    unsigned issued = 0;
    int reason = CORE_ST_NONE;
    uint64_t next = CORE_INF;
    unsigned nsched = sm->nsched, nslots = sm->nslots;
    int policy = (int)sm->c->sched_policy;
    for (unsigned s = 0; s < nsched && sm->live_warps &&
                         sm->st.issued < sm->issue_cap; s++) {
        if (s == 0 && sm->dac.active && core_dac_aw_ready(sm, now)) {
            /* DAC: the affine warp has priority on scheduler 0 (it feeds
             * every main warp of the SM) and takes its issue slot */
            int e = core_dac_aw_issue(sm, now);
            if (e)
                return e;
            issued++;
            continue;
        }
        int pick = -1, pick_unit = -1;
        const struct core_dinst *pick_di = NULL;
        /* candidate order per policy */
        unsigned nc = 0;
        uint32_t cand[64];
        if (policy == 0) {              /* lrr: after the last issued */
            unsigned i = sm->last[s] % nslots, r = i % nsched;
            for (unsigned k = 1; k <= nslots; k++) {
                next_slot(&i, &r, nslots, nsched);
                if (r == s)             /* free slots have wake = INF */
                    cand[nc++] = i;
            }
        } else if (policy == 2) {       /* two_level: active CTA group first */
            uint8_t bucket[64][64];
            unsigned nb[64], ncs = sm->ncta_slots;
            memset(nb, 0, ncs * sizeof nb[0]);
            unsigned i = sm->last[s] % nslots, r = i % nsched;
            for (unsigned k = 1; k <= nslots; k++) {
                next_slot(&i, &r, nslots, nsched);
                if (r != s || sm->w[i].cta < 0)
                    continue;
                unsigned g = (unsigned)sm->w[i].cta + ncs - sm->active_cta[s] % ncs;
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
                if (sm->w[i].cta >= 0)
                    cand[nc++] = i;
            }
            unsigned base = nc;
            for (unsigned j = 0; j < sm->nage[s]; j++) {
                unsigned i = sm->age_order[s][j];
                if (!(base && cand[0] == i))
                    cand[nc++] = i;
            }
        }
        for (unsigned k = 0; k < nc && pick < 0; k++) {
            unsigned ws = cand[k];
            if (sm->wake[ws] > now) {   /* known blocked: skip the check */
                if (sm->wake_reason[ws] > reason)
                    reason = sm->wake_reason[ws];
                next = umin(next, sm->wake[ws]);
                /* DAC: asleep on a deq stall: the stall its check counts */
                sm->dac.st.stall_deq_empty += sm->dac.wait_empty >> ws & 1;
                sm->dac.st.stall_deq_data += sm->dac.wait_data >> ws & 1;
                continue;
            }
            struct core_warp *w = &sm->w[ws];
            uint64_t when = CORE_INF;
            const struct core_dinst *di = NULL;
            int ux = -1;
            int why = check_warp(sm, w, now, &when, &di, &ux);
            /* a busy pipeline sleeps too: a unit's free cycle only moves
             * later (one is set at an issue, to a cycle after it), so
             * the warp cannot go before `when`; so does a warp blocked
             * by the memory queue or its own loads, until an event that
             * changes that (mem_sleep). Not under TBC: another compacted
             * warp drawing on the same home warps can move this one's
             * scoreboard time while it sleeps,
             * which moves cycles between the scoreboard and pipeline
             * stalls (bfs capri: 40 of 755,972 idle SM-cycles) */
            if (why == CORE_ST_BARRIER || why == CORE_ST_IBUFFER ||
                why == CORE_ST_SCOREBOARD ||
                ((why == CORE_ST_PIPE || why == CORE_ST_MEM) && !sm->tbc.active)) {
                sm->wake[ws] = when;    /* only a response/release changes it */
                sm->wake_reason[ws] = (uint8_t)why;
                /* blocked by the memory queue or its loads: also woken
                 * by the events that change that (mem_sleep; a DAC deq
                 * stall is the DAC unit's sleep) */
                if (sm->dpe.active ? sm->dpe.mem_wait
                                   : why == CORE_ST_MEM &&
                                     !((sm->dac.wait_empty | sm->dac.wait_data) >> ws & 1))
                    sm->mem_sleep |= 1ull << ws;
            }
            if (why == CORE_ST_NONE) {
                /* a free operand collector */
                unsigned nco = (unsigned)sm->c->operand_collectors, ci = nco;
                uint64_t cbest = CORE_INF;
                for (unsigned c = 0; c < nco; c++) {
                    if (sm->coll_free[c] <= now) { ci = c; break; }
                    cbest = umin(cbest, sm->coll_free[c]);
                }
                if (ci == nco) {
                    why = CORE_ST_PIPE;
                    when = cbest;
                } else {
                    sm->coll_free[ci] = now + 1;
                    sm->last_coll = ci;
                    pick = (int)cand[k];
                    pick_di = di;
                    pick_unit = ux;
                    break;
                }
            }
            if (why > reason)
                reason = why;
            next = umin(next, when);
        }
        if (pick < 0)
            continue;
        int st = issue(sm, (unsigned)pick, pick_di, pick_unit, now);
        if (st)
            return st;
        issued++;
        sm->last[s] = (uint32_t)pick;
        sm->gto_last[s] = pick + 1;
        if (sm->w[pick].cta >= 0)
            sm->active_cta[s] = (uint32_t)sm->w[pick].cta;
    }
    if (had_work) {
        sm->st.busy_cycles++;
        if (!issued)
            add_stall(sm, reason, 1);
    }
    if (sm->dac.skip_err)
        return LS_ERR_MEMFAULT;
    if (sm->dac.why[0])
        return LS_ERR_COSIM;
    sm->last_reason = reason;
    sm->has_work_at_last = sm->live_warps > 0;
    sm->next_try = issued ? now + 1 : umin(next, core_dac_next(sm, now));  /* DAC */
    if (sm->next_try <= now)
        sm->next_try = now + 1;
    return 0;
}

void core_sm_resp(struct core_sm *sm, const struct core_mem_resp *r, uint64_t now)
{
    if (r->tag & CORE_TAG_NOWAIT)
        return;
    unsigned slot = (r->tag >> 8) & 0xffff, pi = r->tag & 0xff;
    if (slot == CORE_DAC_TAG_SLOT) {    /* DAC: an enq.data prefetch */
        core_dac_resp(sm, pi, now);
        sm->next_try = umin(sm->next_try, now + 1);
        return;
    }
    if (slot >= sm->nslots || pi >= CORE_MAX_PEND)
        return;
    struct core_warp *w = &sm->w[slot];
    if (!(w->pend_used & (1u << pi)) || w->cta < 0)
        return;
    struct core_pend *p = &w->pend[pi];
    if (p->left && --p->left)
        return;
    uint64_t hs = p->hslots ? p->hslots : 1ull << slot;   /* TBC: home warps */
    if (p->dside) {             /* DPE: the scoreboard of the issuing path */
        core_dpe_resp(sm, slot, p->dside - 1u, p->dmask, p->dst, p->ndst,
                      now + 1 + sm->gs_lat);
        hs = 0;
    }
    while (hs) {
        unsigned s = (unsigned)__builtin_ctzll(hs);
        hs &= hs - 1;
        for (unsigned i = 0; i < p->ndst; i++)
            sm->w[s].reg_ready[p->dst[i]] = now + 1 + sm->gs_lat;
    }
    w->pend_used &= ~(1u << pi);
    w->npend--;
    if (sm->tbc.active) {       /* TBC: any compacted warp of the CTA may wait */
        for (unsigned i = 0; i < sm->nslots; i++)
            if (sm->w[i].cta == w->cta && sm->tbc.w[i].on)
                sm->wake[i] = 0;
    } else if (!warp_finished(w)) {
        sm->wake[slot] = 0;
    }
    if (w->npend == 0 && warp_finished(w))
        warp_leave(sm, slot, now);
    sm->next_try = umin(sm->next_try, now + 1);
}

const struct core_mem_req *core_sm_req_peek(const struct core_sm *sm)
{
    return sm->qn ? &sm->q[sm->qhead] : NULL;
}

void core_sm_req_pop(struct core_sm *sm, uint64_t now)
{
    if (!sm->qn)
        return;
    sm->qhead = (sm->qhead + 1) % sm->qcap;
    sm->qn--;
    if (sm->qn == 32)           /* memory instructions may go again */
        mem_wake(sm);
    sm->next_try = umin(sm->next_try, now + 1);
}

int core_sm_describe(const struct core_sm *sm, uint64_t now, char *buf, size_t n)
{
    size_t o = 0;
    if (!n)
        return 0;
    buf[0] = 0;
    for (unsigned i = 0; i < sm->nslots && o + 1 < n; i++) {
        const struct core_warp *w = &sm->w[i];
        if (w->cta < 0)
            continue;
        char d[512];
        simt_describe(&w->sw, d, sizeof d);
        unsigned busy = 0;
        uint32_t nr = sm->k->prog->max_regs;
        for (uint32_t r = 0; r < nr; r++)
            busy += w->reg_ready[r] > now;
        int k = snprintf(buf + o, n - o,
                         " SM %u slot %u: CTA (%u,%u,%u) warp %u: %s; scoreboard: %u "
                         "registers pending, %u loads outstanding, fetch %s;",
                         sm->id, i, sm->cta[w->cta].ctaid[0], sm->cta[w->cta].ctaid[1],
                         sm->cta[w->cta].ctaid[2], w->sw.gridv.warpid, d, busy,
                         w->npend, w->ibuf_ready > now ? "waiting" : "ready");
        if (k < 0)
            break;
        o += (size_t)k < n - o ? (size_t)k : n - o - 1;
    }
    for (unsigned ci = 0; ci < sm->ncta_slots && o + 1 < n; ci++) {
        const struct core_cta *cta = &sm->cta[ci];
        if (!cta->used)
            continue;
        uint32_t live = cta_live_threads(sm, (int32_t)ci);
        for (unsigned b = 0; b < CORE_NBAR && o + 1 < n; b++) {
            if (!cta->arrived[b])
                continue;
            int k = snprintf(buf + o, n - o, " CTA (%u,%u,%u): barrier %u reached "
                             "by %u of %u threads it waits for;", cta->ctaid[0],
                             cta->ctaid[1], cta->ctaid[2], b, cta->arrived[b],
                             cta->expect[b] ? cta->expect[b] : live);
            if (k > 0)
                o += (size_t)k < n - o ? (size_t)k : n - o - 1;
        }
    }
    if (o + 1 < n)              /* DAC: the affine warp and its queues */
        o += (size_t)core_dac_describe(sm, buf + o, n - o);
    if (sm->qn && o + 1 < n) {
        int k = snprintf(buf + o, n - o, " SM %u: %u requests queued;", sm->id, sm->qn);
        if (k > 0)
            o += (size_t)k < n - o ? (size_t)k : n - o - 1;
    }
    return (int)o;
}
