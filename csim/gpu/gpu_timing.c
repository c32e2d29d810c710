/* Timing-mode launch: the cycle loop over the SMs (csim/core) and the
 * memory hierarchy (csim/mem). Each evaluated cycle: the memory system
 * advances, due completions go back to their SMs, CTAs are dispatched
 * round-robin to SMs with room, every SM that may issue runs one cycle,
 * and each SM's head memory request is offered to the hierarchy. Cycles in
 * which no SM can issue and nothing in memory changes are skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "gpu/gpu.h"
#include "gpu/gpu_energy.h"
#include "core/core.h"
#include "core/core_mech.h"
#include "core/core_slp.h"
#include "core/core_cblk.h"
#include "core/core_tbc.h"
#include "mem/mem.h"
#include "api/stats_ops.h"
#include "cosim/cosim.h"
#include "blocks/slp.h"
#include "blocks/bgp.h"
#include "blocks/rvc_comp.h"
#include "blocks/wcu.h"
#include "blocks/capt.h"
#include "exec/exec_check.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void gpu_timing_free(ls_gpu *gpu)
{
    if (gpu->sms)
        for (int64_t i = 0; i < gpu->tcfg.num_sms; i++)
            core_sm_free(&gpu->sms[i]);
    free(gpu->sms);
    gpu->sms = NULL;
    mem_sys_free(gpu->mem);
    gpu->mem = NULL;
}

/* Whether simt.compaction clocks a WCU (tbc, tbc_plus, capri). */
static bool tbc_wcu(const struct cfg *c)
{
    return c->simt_compaction == CORE_TBC_TBC || c->simt_compaction == CORE_TBC_PLUS ||
           c->simt_compaction == CORE_TBC_CAPRI;
}

ls_status gpu_cosim_init(ls_gpu *gpu, const ls_config *lc)
{
    gpu->cosim = calloc(1, sizeof *gpu->cosim);
    if (!gpu->cosim)
        return GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted (cosim)");
    int be[LS_BLK_COUNT] = { 0 };
    be[LS_BLK_SLP] = (int)gpu->tcfg.slp_backend;
    be[LS_BLK_BGP] = (int)gpu->tcfg.bgp_backend;
    be[LS_BLK_RVC_COMP] = (int)gpu->tcfg.rvc_comp_backend;
    be[LS_BLK_RVC_DECOMP] = (int)gpu->tcfg.rvc_decomp_backend;
    be[LS_BLK_WCU] = (int)gpu->tcfg.wcu_backend;
    be[LS_BLK_CAPT] = (int)gpu->tcfg.capt_backend;
    for (int b = 0; b < LS_BLK_COUNT; b++)      /* cosim = all */
        if (gpu->tcfg.cosim == 1 && cosim_desc_by_id(b) && be[b] == COSIM_BE_C)
            be[b] = COSIM_BE_LOCKSTEP;
    char e[4096];
    if (cosim_env_init(gpu->cosim, &(struct cosim_cfg){ lc->rtl, lc->fail_dir, lc->run_name },
                       be, (int)gpu->tcfg.cosim_continue, e, sizeof e) != 0)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "%s", e);
    cosim_cover_enable(gpu->cosim);   /* the launches' ls_stats.cover */
    if (lc->mode != LS_MODE_TIMING) {
        for (int b = 0; b < LS_BLK_COUNT; b++)
            if (gpu->cosim->backend[b] != COSIM_BE_C)
                return GPU_FAIL(gpu, LS_ERR_INVALID, "%s.backend=%s needs timing "
                                "mode: functional mode clocks no block",
                                blk_name(b),
                                cosim_backend_name(gpu->cosim->backend[b]));
        return LS_OK;
    }
    /* combinations of mechanisms that are not modelled are errors, never
     * a silent baseline run (the rules of csim/core/core_mech.def) */
    if (core_mech_check(&gpu->tcfg, e, sizeof e) != 0)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "%s", e);
    /* build and load now what the SMs will need: errors belong to creation */
    for (int b = 0; b < LS_BLK_COUNT; b++) {
        const struct cosim_desc *d = cosim_desc_by_id(b);
        if (!d || gpu->cosim->backend[b] == COSIM_BE_C)
            continue;
        /* the BGP has instances only under lamar.gdu=bgp (docs/lamar.md) */
        if (b == LS_BLK_BGP && gpu->tcfg.lamar_gdu != 4)
            continue;
        if ((b == LS_BLK_RVC_COMP || b == LS_BLK_RVC_DECOMP) &&
            !gpu->tcfg.gscalar_compress)
            continue;       /* RVC has traffic only with compression on */
        if (b == LS_BLK_WCU && !tbc_wcu(&gpu->tcfg))
            continue;       /* the WCU: tbc, tbc_plus, capri (docs/compaction.md) */
        if (b == LS_BLK_CAPT && gpu->tcfg.simt_compaction != CORE_TBC_CAPRI)
            continue;
        struct cosim_inst *ci = calloc(1, sizeof *ci);
        if (!ci)
            return GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted (cosim)");
        struct slp_cfg c;
        core_slp_cfg(core_sm_slots(&gpu->tcfg), &c);
        struct bgp_cfg bc;
        mem_bgp_cfg(&gpu->tcfg, &bc);
        struct rvc_comp_cfg rc = rvc_comp_cfg_default();   /* both RVC kinds */
        struct wcu_cfg wc;
        core_cblk_wcu_cfg(&wc);
        struct capt_cfg cc;
        core_cblk_capt_cfg((unsigned)gpu->tcfg.capri_entries,
                           (unsigned)gpu->tcfg.capri_history,
                           (unsigned)gpu->tcfg.capri_lru, &cc);
        const void *pc = b == LS_BLK_BGP ? (const void *)&bc
                       : b == LS_BLK_RVC_COMP || b == LS_BLK_RVC_DECOMP ? (const void *)&rc
                       : b == LS_BLK_WCU ? (const void *)&wc
                       : b == LS_BLK_CAPT ? (const void *)&cc
                       : (const void *)&c;
        int r = cosim_create(ci, gpu->cosim, d, pc, "probe", e, sizeof e);
        if (r == 0)
            cosim_free(ci);
        free(ci);
        if (r != 0)
            return GPU_FAIL(gpu, LS_ERR_INVALID, "%s", e);
    }
    return LS_OK;
}

static ls_status ensure_machine(ls_gpu *gpu)
{
    unsigned n = (unsigned)gpu->tcfg.num_sms;
    if (!gpu->mem) {
        char e[512];
        gpu->mem = mem_sys_create_env(&gpu->tcfg, n, gpu->cosim, e, sizeof e);
        if (!gpu->mem)
            return GPU_FAIL(gpu, LS_ERR_INVALID, "memory system: %s", e);
    }
    if (!gpu->sms) {
        gpu->sms = calloc(n, sizeof *gpu->sms);
        if (!gpu->sms)
            return GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted (SMs)");
        for (unsigned i = 0; i < n; i++) {
            char e[4096];
            if (core_sm_init(&gpu->sms[i], &gpu->tcfg, i, gpu->cfg.max_stack_depth,
                             gpu->cosim, e, sizeof e) != 0) {
                gpu_timing_free(gpu);
                return GPU_FAIL(gpu, LS_ERR_INVALID, "%s", e);
            }
        }
    }
    return LS_OK;
}

static uint32_t inst_line(const struct ptx_func *f, int32_t pc)
{
    return (uint32_t)pc < f->ninsts ? f->insts[pc].line : f->line;
}

static ls_status warp_fail(ls_gpu *gpu, const char *file, const struct ptx_func *kf,
                           const struct core_sm *sm)
{
    const struct core_warp *cw = &sm->v.w[sm->v.err_slot];
    const struct simt_warp *w = &cw->sw;
    if (w->err_kind != SIMT_ERR_PLAIN)      /* assert, extern call */
        return gpu_warp_error(gpu, file, kf, w);
    const struct ptx_func *f = w->err_func ? w->err_func : kf;
    int line = (int)inst_line(f, w->err_pc);
    ls_status st = w->err_simt ? LS_ERR_LAUNCH
                 : w->err.lane >= 0 ? LS_ERR_MEMFAULT : LS_ERR_PARSE;
    const char *what = st == LS_ERR_MEMFAULT ? "memory fault" : "error";
    if (w->err.lane >= 0) {
        const struct exec_thread_ids *t = &w->ew.ids[w->err.lane];
        return gpu_fail(gpu, st, file, line,
                        "%s in kernel %s, CTA (%u,%u,%u), thread (%u,%u,%u) "
                        "(warp %u lane %d), pc %d (%s): %s", what, kf->name,
                        w->gridv.ctaid[0], w->gridv.ctaid[1], w->gridv.ctaid[2],
                        t->tid[0], t->tid[1], t->tid[2], w->gridv.warpid,
                        w->err.lane, w->err_pc, f->name, w->err.msg);
    }
    return gpu_fail(gpu, st, file, line,
                    "%s in kernel %s, CTA (%u,%u,%u), warp %u, pc %d (%s): %s",
                    what, kf->name, w->gridv.ctaid[0], w->gridv.ctaid[1],
                    w->gridv.ctaid[2], w->gridv.warpid, w->err_pc, f->name,
                    w->err.msg);
}

/* Watchdog/deadlock report: every warp's PC, stack and scoreboard, then
 * the memory system's MSHRs and queues. */
static ls_status deadlock(ls_gpu *gpu, const char *file, const struct ptx_func *kf,
                          uint64_t now, const char *why)
{
    char *buf = gpu->err;
    size_t cap = sizeof gpu->err;
    gpu_fail(gpu, LS_ERR_DEADLOCK, file, (int)kf->line,
             "deadlock in kernel %s at cycle %llu: %s;", kf->name,
             (unsigned long long)now, why);
    size_t o = strlen(buf);
    for (int64_t i = 0; i < gpu->tcfg.num_sms && o + 1 < cap; i++) {
        core_sm_describe(&gpu->sms[i], now, buf + o, cap - o);
        o = strlen(buf);
    }
    if (o + 16 < cap) {
        int k = snprintf(buf + o, cap - o, " ");
        if (k > 0 && (size_t)k < cap - o) {
            o += (size_t)k;
            mem_describe(gpu->mem, buf + o, cap - o);
        }
    }
    return LS_ERR_DEADLOCK;
}

/* Round-robin dispatch of the next CTAs to SMs with room. */
static int dispatch(ls_gpu *gpu, ls_dim3 grid, uint64_t *next_cta, uint64_t total,
                    unsigned *rr, uint64_t now)
{
    unsigned n = (unsigned)gpu->tcfg.num_sms;
    while (*next_cta < total) {
        unsigned k = 0;
        while (k < n && !core_sm_fits(&gpu->sms[(*rr + k) % n]))
            k++;
        if (k == n)
            break;
        unsigned s = (*rr + k) % n;
        uint64_t c = *next_cta;
        uint32_t id[3] = { (uint32_t)(c % grid.x), (uint32_t)(c / grid.x % grid.y),
                           (uint32_t)(c / ((uint64_t)grid.x * grid.y)) };
        if (core_sm_launch_cta(&gpu->sms[s], id, now) != 0)
            return -1;
        (*next_cta)++;
        *rr = (s + 1) % n;
    }
    return 0;
}

/* What one timing launch carries from setup to its end. */
struct launch {
    const char *file;
    const struct ptx_func *f;
    struct gpu_layout lay;
    struct core_prog prog;
    struct core_kernel k;
    struct exec_chk chk;
    uint64_t start, end;
    uint64_t total;             /* CTAs of the grid                        */
    /* memory statistics at the start (a kernel's are the difference) */
    ls_cache_stats l1a, l2a;
    ls_dram_stats dra;
    struct mem_dram_ticks ticks_a;
    uint64_t flits_a;               /* interconnect flits at the start      */
    ls_pca_stats pca_a;
    ls_mta_stats mta_a;
    uint64_t cover_a[LS_COVER_BINS];  /* coverage bins at the start        */
    /* GPUWattch's pipeline duty cycle (duty_step) */
    uint64_t duty_win, duty_base, duty_last, duty_insts;
};

/* GPUWattch samples the pipeline duty cycle every 500 cycles (GPGPU-Sim
 * 3.2.2's -gpgpu_runtime_stat default, the power model's sample) and caps
 * each sample's at 0.8 (power_interface.cc line 83): at cycle t of the
 * launch, with `before` warp instructions issued before it, closes the
 * samples t has left, adding each one's issued warp instructions, at most
 * cap, to energy.pipe_duty_insts (docs/energy.md). */
#define GPU_DUTY_SAMPLE 500
static void duty_step(struct launch *L, uint64_t t, uint64_t before, uint64_t cap)
{
    uint64_t w = t / GPU_DUTY_SAMPLE;
    if (w == L->duty_win)
        return;
    uint64_t n = before - L->duty_base;
    L->duty_insts += n < cap ? n : cap;
    L->duty_base = before;
    L->duty_win = w;
}

/* Lays kernel f out, decodes it, builds each mechanism's launch data and
 * prepares every SM: L->k. */
static ls_status launch_setup(ls_gpu *gpu, struct ls_module *m, ls_dim3 grid,
                              ls_dim3 block, size_t dyn_shared, void **args,
                              struct launch *L)
{
    const struct ptx_func *f = L->f;
    const struct cfg *c = &gpu->tcfg;
    struct core_kernel *k = &L->k;
    ls_status st = gpu_layout_prepare(gpu, m, f, dyn_shared, args, &L->lay);
    if (st == LS_OK && core_prog_build(&L->prog, m->ptx) != 0)
        st = GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted (decode)");
    if (st == LS_OK)
        core_prog_timing(&L->prog, c);
    char e[512];
    uint32_t eline = 0;
    if (st == LS_OK && core_mech_prepare(c, f, k->mech, e, sizeof e, &eline) != 0)
        st = gpu_fail(gpu, LS_ERR_INVALID, L->file, (int)(eline ? eline : f->line), "%s", e);
    k->mod = m->ptx;
    k->f = f;
    k->prog = &L->prog;
    k->sym0 = L->lay.sym0;
    k->sym1 = L->lay.sym1;
    k->frame0 = L->lay.frame0;
    k->local_stride = L->lay.local_stride;
    k->param = L->lay.param;
    k->param_bytes = L->lay.param_bytes;
    k->shared_bytes = L->lay.shared_bytes;
    k->dyn_smem = (uint32_t)dyn_shared;
    if (st == LS_OK && gpu->coop_launch && gpu_coop_workspace(gpu, &k->grid_ws) != LS_OK)
        st = LS_ERR_NOMEM;      /* cudaLaunchCooperativeKernel's grid-sync word */
    k->ntid[0] = block.x; k->ntid[1] = block.y; k->ntid[2] = block.z;
    k->nctaid[0] = grid.x; k->nctaid[1] = grid.y; k->nctaid[2] = grid.z;
    k->nthreads = block.x * block.y * block.z;
    k->nwarps = (k->nthreads + EXEC_WARP - 1) / EXEC_WARP;
    k->regs_per_thread = core_regs_per_thread(f);
    /* like nvcc under a register limit: a CTA that would not fit on an
     * SM by registers alone gets fewer registers per thread (spills) */
    uint64_t wthreads = (uint64_t)k->nwarps * EXEC_WARP;
    if (wthreads * k->regs_per_thread > (uint64_t)c->regs_per_sm)
        k->regs_per_thread = (uint32_t)((uint64_t)c->regs_per_sm / wthreads);
    k->dmem = &gpu->dmem;
    if (st == LS_OK && c->icache_size > 0) {    /* the code's L2 state */
        k->code_lines = L->prog.code_bytes / (uint32_t)c->icache_line + 1;
        k->code_l2 = calloc(k->code_lines, sizeof *k->code_l2);
        if (!k->code_l2)
            st = GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted (icache)");
    }
    k->tex = gpu->tex;
    k->ntex = gpu->ntex;
    k->max_stack_depth = gpu->cfg.max_stack_depth;
    if (gpu->clog.f) {
        k->commit = gpu_commit_record;
        k->commit_user = &gpu->clog;
    }
    if (st == LS_OK) {
        gpu_check_begin(gpu, &L->chk, m, f, grid, block, L->lay.shared_bytes,
                        L->lay.local_stride);
        k->chk = L->chk.mask ? &L->chk : NULL;
    }
    k->ext = gpu_devrt_call;
    k->ext_user = gpu;
    unsigned nsm = (unsigned)c->num_sms;
    if (st == LS_OK && gpu->mem) {
        unsigned entry = 0;          /* f is the entry-th .entry (lamar.gdu=static) */
        for (uint32_t i = 0; i < m->ptx->nfuncs && &m->ptx->funcs[i] != f; i++)
            entry += m->ptx->funcs[i].is_entry;
        mem_kernel_begin(gpu->mem, f->name, entry, L->start);
    }
    for (unsigned i = 0; st == LS_OK && i < nsm; i++)
        if (core_sm_kernel(&gpu->sms[i], k, L->start) != 0)
            st = GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted (SM state)");
    if (st == LS_OK && !core_sm_fits(&gpu->sms[0]))
        st = GPU_FAIL(gpu, LS_ERR_LAUNCH,
                      "kernel %s: one CTA (%u threads, ~%u registers/thread, "
                      "%llu bytes shared) does not fit an SM (%lld threads, "
                      "%lld registers, %lld bytes shared, %lld warp slots)",
                      f->name, k->nthreads, k->regs_per_thread,
                      (unsigned long long)k->shared_bytes,
                      (long long)c->max_threads_per_sm, (long long)c->regs_per_sm,
                      (long long)c->shared_per_sm, (long long)(c->max_threads_per_sm / 32));
    if (gpu->mem) {
        mem_stats(gpu->mem, &L->l1a, &L->l2a, &L->dra);
        mem_pca_stats(gpu->mem, &L->pca_a);
        mem_mta_stats(gpu->mem, &L->mta_a);
        mem_dram_ticks(gpu->mem, L->start, &L->ticks_a);
        L->flits_a = mem_noc_flits(gpu->mem);
    }
    if (gpu->cosim)
        memcpy(L->cover_a, gpu->cosim->cover, sizeof L->cover_a);
    return st;
}

/* One evaluated cycle of SM i at now: the SM's cycle when it may issue
 * (within the launch's warp-instruction budget), then its head memory
 * request offered to the hierarchy. *issued_now counts this cycle's
 * issues so far. */
static ls_status sm_step(ls_gpu *gpu, const struct launch *L, unsigned i, uint64_t now,
                         uint64_t budget, uint64_t issued_last, uint64_t *issued_now)
{
    struct core_sm *sm = &gpu->sms[i];
    if (sm->live_warps && sm->v.next_try <= now) {
        /* the budget left after the SMs before this one */
        uint64_t left = budget > issued_last + *issued_now
                            ? budget - issued_last - *issued_now : 0;
        sm->issue_cap = sm->v.st.issued + left;
        uint64_t before = sm->v.st.issued;
        int e = core_sm_cycle(sm, now);
        *issued_now += sm->v.st.issued - before;
        if (e) {
            uint32_t line;
            const char *why = core_sm_why(sm, e, &line);
            if (why)    /* a mechanism's block disagreed or its model failed */
                return gpu_fail(gpu, (ls_status)e, L->file,
                                (int)(line ? line : L->f->line), "%s", why);
            return warp_fail(gpu, L->file, L->f, sm);
        }
    }
    const struct core_mem_req *q = core_sm_req_peek(sm);
    if (q && mem_access(gpu->mem, q, now))
        core_sm_req_pop(sm, now, !mem_l1_hit(gpu->mem, i));
    if (mem_gdu_error(gpu->mem))    /* a BGP block disagreed (lockstep) */
        return gpu_fail(gpu, LS_ERR_COSIM, L->file, (int)L->f->line, "%s",
                        mem_gdu_error(gpu->mem));
    return LS_OK;
}

/* The launch's cycle loop from L->start: dispatch, memory, SMs, until the
 * grid finished and memory drained (or a failure). L->end = the cycle
 * after the last. */
static ls_status run_cycles(ls_gpu *gpu, struct launch *L, ls_dim3 grid)
{
    const struct ptx_func *f = L->f;
    const struct cfg *c = &gpu->tcfg;
    unsigned nsm = (unsigned)c->num_sms;
    uint64_t now = L->start, next_cta = 0;
    unsigned rr = 0;
    uint64_t issued_last = 0, progress_at = now, budget = gpu->cfg.max_warp_insts;
    /* a sample's cap: duty 0.8 of result_buses (EX_WB) warp instructions
     * per SM-cycle */
    uint64_t duty_cap = (uint64_t)(0.8 * GPU_DUTY_SAMPLE * nsm * (unsigned)c->result_buses);
    L->duty_win = L->duty_base = L->duty_last = L->duty_insts = 0;
    uint64_t mem_at_progress = gpu->mem ? mem_activity(gpu->mem) : 0;
    bool need_dispatch = true;
    const volatile int *cancel = gpu->cfg.cancel;
    ls_status st = LS_OK;
    struct gpu_tick tk;
    gpu_tick_begin(gpu, &tk);
    while (st == LS_OK) {
        if (cancel && *cancel) {
            st = GPU_FAIL(gpu, LS_ERR_INTERRUPTED, "kernel %s interrupted at cycle %llu "
                          "(cancel flag set)", f->name, (unsigned long long)(now - L->start));
            break;
        }
        if (need_dispatch) {
            need_dispatch = false;
            if (dispatch(gpu, grid, &next_cta, L->total, &rr, now) != 0) {
                st = GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted (CTA)");
                break;
            }
        }
        mem_cycle(gpu->mem, now);
        struct core_mem_resp r;
        for (unsigned i = 0; i < nsm; i++)
            while (mem_pop_resp(gpu->mem, i, now, &r))
                core_sm_resp(&gpu->sms[i], &r, now);
        bool busy = false, queued = false;
        uint64_t next = UINT64_MAX, issued = 0, issued_now = 0;
        for (unsigned i = 0; i < nsm && st == LS_OK; i++) {
            st = sm_step(gpu, L, i, now, budget, issued_last, &issued_now);
            struct core_sm *sm = &gpu->sms[i];
            if (sm->cta_finished) {
                sm->cta_finished = false;
                need_dispatch = next_cta < L->total;
            }
            busy |= core_sm_busy(sm);
            queued |= sm->v.qn > 0;
            if (sm->live_warps && sm->v.next_try < next)
                next = sm->v.next_try;
            issued += sm->v.st.issued;
        }
        duty_step(L, now - L->start, issued_last, duty_cap);
        L->duty_last = issued;
        if (st != LS_OK)
            break;
        if (mem_gdu_error(gpu->mem)) {       /* from the L2 GDUs in mem_cycle */
            st = gpu_fail(gpu, LS_ERR_COSIM, L->file, (int)f->line, "%s",
                          mem_gdu_error(gpu->mem));
            break;
        }
        if (!busy && next_cta >= L->total && mem_idle(gpu->mem))
            break;
        if (issued != issued_last) {
            issued_last = issued;
            progress_at = now;
            if (issued >= budget) {
                char why[160];
                snprintf(why, sizeof why, "instruction budget of %llu warp "
                         "instructions exhausted (ls_config.max_warp_insts)",
                         (unsigned long long)budget);
                st = deadlock(gpu, L->file, f, now, why);
                break;
            }
        } else if (now - progress_at > (uint64_t)c->watchdog_cycles) {
            /* no instruction issued for a while: a livelock only if the
             * memory system did nothing either (a pathological but valid
             * machine, e.g. 2-byte DRAM accesses, can starve a load for
             * longer than watchdog_cycles while data still moves) */
            uint64_t act = mem_activity(gpu->mem);
            if (act != mem_at_progress) {
                mem_at_progress = act;
                progress_at = now;
            } else {
                st = deadlock(gpu, L->file, f, now, "watchdog: no instruction issued "
                              "and no memory request served for watchdog_cycles "
                              "cycles (livelock?)");
                break;
            }
        }
        if (queued || need_dispatch)
            next = now + 1;
        uint64_t me = mem_next_event(gpu->mem, now);
        if (me < next)
            next = me;
        if (next == UINT64_MAX) {
            st = deadlock(gpu, L->file, f, now, "no warp can issue and no memory "
                          "request is in flight (barrier never completed?)");
            break;
        }
        st = gpu_tick(gpu, &tk, f->name, next_cta, L->total, issued, now - L->start);
        now = next > now ? next : now + 1;
    }
    st = gpu_tick_end(gpu, &tk, st);
    L->end = now + 1;
    uint64_t n = L->duty_last - L->duty_base;       /* the last sample */
    L->duty_insts += n < duty_cap ? n : duty_cap;
    return st;
}

/* Kernel end: every SM's mechanisms clock their blocks to the end and
 * drain them, then the memory system's GDUs. */
static ls_status finish_blocks(ls_gpu *gpu, const struct launch *L, ls_status st)
{
    unsigned nsm = (unsigned)gpu->tcfg.num_sms;
    for (unsigned i = 0; gpu->sms && i < nsm; i++) {
        const char *why;
        uint32_t line;
        int e = core_sm_finish(&gpu->sms[i], L->end, &why, &line);
        if (e && st == LS_OK)
            st = gpu_fail(gpu, (ls_status)e, L->file, (int)(line ? line : L->f->line),
                          "%s", why);
    }
    if (gpu->mem && mem_gdu_finish(gpu->mem, L->end) != 0 && st == LS_OK)
        st = gpu_fail(gpu, LS_ERR_COSIM, L->file, (int)L->f->line, "%s",
                      mem_gdu_error(gpu->mem));
    return st;
}

/* Adds SM sm's core figures for the launch (cycles long) into stats. */
static void sm_stats(struct core_sm *sm, uint64_t cycles, ls_stats *stats)
{
    const struct core_stats *s = &sm->v.st;
    /* warps still resident (a failed launch) count too */
    for (unsigned w = 0; w < sm->v.nslots; w++)
        if (sm->v.w[w].cta >= 0) {
            stats->warp_insts += sm->v.w[w].sw.warp_insts;
            stats->thread_insts += sm->v.w[w].sw.thread_insts;
        }
    stats->warp_insts += s->warp_insts;
    stats->thread_insts += s->thread_insts;
    stats->branches += s->branches;
    stats->divergent_branches += s->divergent;
    if (s->max_depth > stats->max_stack_depth)
        stats->max_stack_depth = s->max_depth;
    for (unsigned h = 0; h < LS_STACK_HIST; h++)
        stats->stack_depth_hist[h] += s->stack_hist[h];
    stats->sm_cycles += s->busy_cycles;
    uint64_t empty = cycles > s->busy_cycles ? cycles - s->busy_cycles : 0;
    stats->idle_cycles += s->idle_cycles + empty;
    stats->stall.no_warps += s->stall.no_warps + empty;
    stats->stall.ibuffer += s->stall.ibuffer;
    stats->stall.scoreboard += s->stall.scoreboard;
    stats->stall.barrier += s->stall.barrier;
    stats->stall.pipe_busy += s->stall.pipe_busy;
    stats->stall.mem_wait += s->stall.mem_wait;
    stats->tensor_insts += s->tensor_insts;
    stats->tensor_busy_cycles += s->tensor_busy;
    stats->icache_accesses += s->icache_accesses;
    stats->icache_misses += s->icache_misses;
    uint64_t *ea = (uint64_t *)&stats->energy;    /* all uint64_t */
    const uint64_t *es = (const uint64_t *)&s->energy;
    for (size_t j = 0; j < sizeof stats->energy / sizeof *ea; j++)
        ea[j] += es[j];
}

/* The memory system's figures for the launch: the difference against its
 * start (L), and the power model. */
static void mem_launch_stats(ls_gpu *gpu, const struct launch *L, ls_stats *stats)
{
    const struct cfg *c = &gpu->tcfg;
    ls_cache_stats l1b, l2b;
    mem_stats(gpu->mem, &l1b, &l2b, NULL);
    /* the kernel-end sweep adds the resident lines' used sectors */
    memcpy(stats->l1d.used_sectors_hist, l1b.used_sectors_hist,
           sizeof l1b.used_sectors_hist);
    stats->l1d.evictions = l1b.evictions;
    stats->l1d.reuse_hits = l1b.reuse_hits;
    stats->l1d.pred_nref = l1b.pred_nref;
    stats->l1d.gdu_fg_ended = l1b.gdu_fg_ended;
    stats->l1d.gdu_fg_wrong = l1b.gdu_fg_wrong;
    stats->l1d.gdu_cg_ended = l1b.gdu_cg_ended;
    stats->l1d.gdu_cg_wrong = l1b.gdu_cg_wrong;
    stats->l1d.gdu_cg_right_nref = l1b.gdu_cg_right_nref;
    ls_cache_stats_acc(&stats->l1d, &L->l1a, -1);
    ls_cache_stats_acc(&stats->l2, &L->l2a, -1);
    ls_dram_stats_acc(&stats->dram, &L->dra, -1);
    mem_dram_ticks_since(gpu->mem, L->end, &L->ticks_a, &stats->dram);
    mem_power(c, &stats->dram, stats->cycles, &stats->power);
    stats->energy.noc_flits = mem_noc_flits(gpu->mem) - L->flits_a;
    stats->energy.pipe_duty_insts = L->duty_insts;
    mem_pca_stats(gpu->mem, &stats->pca);
    ls_pca_stats_acc(&stats->pca, &L->pca_a, -1);
    /* the sweep at kernel end counted the resident unused prefetches */
    mem_mta_stats(gpu->mem, &stats->mta);
    ls_mta_stats_acc(&stats->mta, &L->mta_a, -1);
    stats->mta.launches = c->prefetch == 1;
    stats->ipc = stats->cycles ? (double)stats->warp_insts / (double)stats->cycles : 0;
    stats->simd_util = stats->warp_insts
        ? (double)stats->thread_insts / ((double)stats->warp_insts * EXEC_WARP) : 0.0;
}

/* The launch's statistics (SMs, mechanisms, energy, blocks), before the
 * memory system's kernel end. */
static void launch_stats(ls_gpu *gpu, const struct launch *L, ls_stats *stats)
{
    unsigned nsm = (unsigned)gpu->tcfg.num_sms;
    memset(stats, 0, sizeof *stats);
    stats->launches = 1;
    stats->cycles = L->end - L->start;
    for (unsigned i = 0; gpu->sms && i < nsm; i++) {
        struct core_sm *sm = &gpu->sms[i];
        core_sm_account(sm, L->end);
        sm_stats(sm, stats->cycles, stats);
        core_sm_mech_stats(sm, i == 0, stats);
    }
    if (gpu->mem)
        mem_gdu_cosim(gpu->mem, &stats->cosim[LS_BLK_BGP]);
    for (int b = 0; b < LS_BLK_COUNT; b++)
        if (!stats->cosim[b].instances)
            stats->cosim[b].backend = -1;
    for (unsigned i = 0; gpu->cosim && i < LS_COVER_BINS; i++)
        stats->cover[i] = gpu->cosim->cover[i] - L->cover_a[i];
    stats->ctas = L->total;
    stats->threads = L->total * L->k.nthreads;
    if (gpu->mem)
        mem_stats(gpu->mem, &stats->l1d, &stats->l2, &stats->dram);
}

ls_status gpu_timing_launch(ls_gpu *gpu, struct ls_module *m,
                            const struct ptx_func *f, ls_dim3 grid,
                            ls_dim3 block, size_t dyn_shared, void **args,
                            ls_stats *stats)
{
    double t0 = now_s();
    struct launch L;
    memset(&L, 0, sizeof L);
    L.file = m->ptx->file ? m->ptx->file : m->name;
    L.f = f;
    ls_status st = gpu_check_geometry(gpu, f, grid, block);
    if (st != LS_OK)
        return st;
    st = ensure_machine(gpu);
    if (st != LS_OK)
        return st;
    L.start = gpu->now;
    L.total = (uint64_t)grid.x * grid.y * grid.z;
    st = launch_setup(gpu, m, grid, block, dyn_shared, args, &L);
    L.end = L.start + 1;
    if (st == LS_OK)
        st = run_cycles(gpu, &L, grid);
    st = finish_blocks(gpu, &L, st);
    if (stats)
        launch_stats(gpu, &L, stats);
    if (gpu->mem)
        mem_kernel_end(gpu->mem);
    if (stats && gpu->mem)
        mem_launch_stats(gpu, &L, stats);
    if (stats) {                /* after the memory system's figures */
        gpu_energy_run(&gpu->tcfg, stats);
        gpu_energy_gscalar(&gpu->tcfg, stats);
    }
    /* a failed launch leaves warps resident: drop them */
    if (st != LS_OK && gpu->sms)
        gpu_timing_free(gpu);
    gpu->now = L.end;
    st = gpu_check_end(gpu, &L.chk, m, f, st);
    core_prog_free(&L.prog);
    free(L.k.code_l2);
    core_mech_unprepare(&gpu->tcfg, L.k.mech);
    gpu_layout_free(&L.lay);
    if (L.k.grid_ws)
        gpu_mem_free(gpu, L.k.grid_ws);
    if (stats)
        stats->wall_s = now_s() - t0;
    return st;
}
