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
#include "mem/mem.h"
#include "cosim/cosim.h"
#include "blocks/slp.h"
#include "blocks/bgp.h"
#include "blocks/rvc_comp.h"
#include "blocks/wcu.h"
#include "blocks/capt.h"
#include "exec/exec_check.h"
#include "ptx/ptx_affine.h"
#include "ptx/ptx_dac.h"

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
    if (cosim_env_init(gpu->cosim, lc, be, (int)gpu->tcfg.cosim_continue, e,
                       sizeof e) != 0)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "%s", e);
    if (lc->mode != LS_MODE_TIMING) {
        for (int b = 0; b < LS_BLK_COUNT; b++)
            if (gpu->cosim->backend[b] != COSIM_BE_C)
                return GPU_FAIL(gpu, LS_ERR_INVALID, "%s.backend=%s needs timing "
                                "mode: functional mode clocks no block",
                                ls_block_name(b),
                                cosim_backend_name(gpu->cosim->backend[b]));
        return LS_OK;
    }
    const char *paths = gpu->tcfg.simt_paths == CORE_DPE_DWS ? "dws" : "dual";
    if (gpu->tcfg.simt_paths != CORE_DPE_SINGLE &&
        gpu->tcfg.simt_compaction != CORE_TBC_NONE)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "simt.paths=%s with simt.compaction "
                        "other than none is not modelled (docs/dpe.md): choose one",
                        paths);
    if (gpu->tcfg.simt_paths == CORE_DPE_DWS &&
        gpu->tcfg.dpe_scheduler != CORE_DPE_FULL)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "simt.paths=dws with dpe.scheduler=constrained "
                        "is not modelled: DWS schedules every warp-split (docs/dpe.md)");
    if (gpu->tcfg.simt_paths != CORE_DPE_DUAL && gpu->tcfg.dpe_path_forwarding)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "dpe.path_forwarding=on needs simt.paths=dual: "
                        "it forwards paths of the dual-path stack (docs/dpe.md)");
    /* affine.mode (docs/dac.md): combinations not modelled are errors,
     * never a silent baseline run */
    /* CAE keeps register classes per warp and shortens the pipeline
     * occupancy G-Scalar's scalar execution shortens */
    if (gpu->tcfg.affine_mode == 2 && (gpu->tcfg.gscalar_scalar || gpu->tcfg.gscalar_compress))
        return GPU_FAIL(gpu, LS_ERR_INVALID, "affine.mode=cae with gscalar.scalar or "
                        "gscalar.compress is not modelled: both decide one-lane execution "
                        "(docs/dac.md): choose one");
    if (gpu->tcfg.affine_mode == 2 && (gpu->tcfg.simt_compaction || gpu->tcfg.simt_paths))
        return GPU_FAIL(gpu, LS_ERR_INVALID, "affine.mode=cae with simt.compaction or "
                        "simt.paths is not modelled: its register classes are per warp "
                        "of one stack (docs/dac.md)");
    if (gpu->tcfg.affine_mode == 1 &&
        (gpu->tcfg.simt_compaction != CORE_TBC_NONE ||
         gpu->tcfg.simt_paths != CORE_DPE_SINGLE || gpu->tcfg.gscalar_compress ||
         gpu->tcfg.gscalar_scalar || gpu->tcfg.gscalar_stats))
        return GPU_FAIL(gpu, LS_ERR_INVALID, "affine.mode=dac with simt.compaction, "
                        "simt.paths or gscalar.* (compress, scalar, stats) is not "
                        "modelled (docs/dac.md): the main warps' queues are per warp "
                        "slot and single-path, and the removed instructions write no "
                        "register through the G-Scalar register file");
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
        for (unsigned i = 0; i < n; i++)
            if (core_sm_init(&gpu->sms[i], &gpu->tcfg, i,
                             gpu->cfg.max_stack_depth) != 0) {
                gpu_timing_free(gpu);
                return GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted (SM %u)", i);
            }
        for (unsigned i = 0; i < n; i++) {
            char e[4096];
            struct core_sm *sm = &gpu->sms[i];
            if (core_slp_init(&sm->slp, gpu->cosim, i, sm->nslots,
                              (unsigned)gpu->tcfg.slp_permutation, e, sizeof e) != 0) {
                gpu_timing_free(gpu);
                return GPU_FAIL(gpu, LS_ERR_INVALID, "%s", e);
            }
            const struct cfg *tc = &gpu->tcfg;
            unsigned units[3] = { (unsigned)tc->alu_units, (unsigned)tc->sfu_units,
                                  (unsigned)tc->mem_units };
            int r = tc->gscalar_compress || (!tc->gscalar_scalar && !tc->gscalar_stats)
                ? core_rvc_init(&sm->rvc, gpu->cosim, tc->gscalar_compress != 0, i,
                                units, (unsigned)tc->operand_collectors,
                                tc->gscalar_granularity == 1, sm->nslots,
                                tc->gscalar_bvr_energy, e, sizeof e)
                : core_rvc_init_track(&sm->rvc, i, tc->gscalar_granularity == 1,
                                      sm->nslots, e, sizeof e);
            sm->rvc.scalar = (unsigned)tc->gscalar_scalar;
            if (r == 0)     /* TBC: the WCU and CAPT (docs/compaction.md) */
                r = core_cblk_init(&sm->tbc.blk, gpu->cosim, i, tbc_wcu(tc),
                                   tc->simt_compaction == CORE_TBC_CAPRI,
                                   (unsigned)tc->capri_entries,
                                   (unsigned)tc->capri_history,
                                   (unsigned)tc->capri_lru, e, sizeof e);
            if (r != 0) {
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

/* affine.mode=dac: the decoupling transform of kernel f (ptx_dac.h) into
 * *out (NULL when the transform leaves it whole: nothing removed, no queue
 * operation; the main warps then run it as with affine.mode=off). */
static ls_status dac_transform(ls_gpu *gpu, const char *file, const struct ptx_func *f,
                               struct ptx_dac_inst **out)
{
    *out = NULL;
    size_t n = f->ninsts ? f->ninsts : 1;
    struct ptx_affine_inst *a = malloc(n * sizeof *a);
    struct ptx_dac_inst *r = malloc(n * sizeof *r);
    struct ptx_diag d;
    memset(&d, 0, sizeof d);
    if (!a || !r) {
        free(a);
        free(r);
        return GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted (DAC transform)");
    }
    if (ptx_affine_analyse(f, a, NULL, &d) != 0 || ptx_dac_build(f, a, r, NULL, &d) != 0 ||
        ptx_dac_check(f, a, r, &d) != 0) {
        free(a);
        free(r);
        return gpu_fail(gpu, LS_ERR_INVALID, file, (int)f->line,
                        "affine.mode=dac: the DAC transform of kernel %s failed: %s",
                        f->name, d.msg);
    }
    free(a);
    bool dec = false;
    for (uint32_t i = 0; i < f->ninsts && !dec; i++)
        dec = r[i].q != PTX_DAC_Q_NONE || !(r[i].streams & PTX_DAC_S_MAIN);
    if (dec)
        *out = r;
    else
        free(r);
    return LS_OK;
}

static ls_status warp_fail(ls_gpu *gpu, const char *file, const struct ptx_func *kf,
                           const struct core_sm *sm)
{
    const struct core_warp *cw = &sm->w[sm->err_slot];
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

static void hist_diff(ls_cache_stats *a, const ls_cache_stats *b)
{
    a->accesses -= b->accesses; a->hits -= b->hits; a->misses -= b->misses;
    a->sector_misses -= b->sector_misses; a->sector_fills -= b->sector_fills;
    a->evictions -= b->evictions; a->mshr_merges -= b->mshr_merges;
    a->reservation_fails -= b->reservation_fails;
    for (unsigned i = 0; i <= LS_MAX_SECTORS; i++)
        a->used_sectors_hist[i] -= b->used_sectors_hist[i];
    a->demand -= b->demand; a->pred_ref -= b->pred_ref; a->pred_nref -= b->pred_nref;
    a->npred_ref -= b->npred_ref; a->gdu_queries -= b->gdu_queries; a->gdu_fg -= b->gdu_fg;
    a->gdu_insertions -= b->gdu_insertions; a->gdu_inversions -= b->gdu_inversions;
}

static void dram_diff(ls_dram_stats *a, const ls_dram_stats *b)
{
    a->reads -= b->reads; a->writes -= b->writes; a->bytes -= b->bytes;
    a->row_hits -= b->row_hits; a->activates -= b->activates;
    a->precharges -= b->precharges;
    a->read_bytes -= b->read_bytes; a->write_bytes -= b->write_bytes;
    a->act_subranks -= b->act_subranks;
    for (unsigned k = 0; k < 2; k++) {
        ls_dram_class *x = &a->by_size[k];
        const ls_dram_class *y = &b->by_size[k];
        x->requests -= y->requests; x->reads -= y->reads; x->writes -= y->writes;
        x->row_hits -= y->row_hits; x->activates -= y->activates;
        x->precharges -= y->precharges;
    }
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

ls_status gpu_timing_launch(ls_gpu *gpu, struct ls_module *m,
                            const struct ptx_func *f, ls_dim3 grid,
                            ls_dim3 block, size_t dyn_shared, void **args,
                            ls_stats *stats)
{
    double t0 = now_s();
    const char *file = m->ptx->file ? m->ptx->file : m->name;
    ls_status st = gpu_check_geometry(gpu, f, grid, block);
    if (st != LS_OK)
        return st;
    st = ensure_machine(gpu);
    if (st != LS_OK)
        return st;
    struct gpu_layout lay;
    struct core_prog prog;
    memset(&prog, 0, sizeof prog);
    st = gpu_layout_prepare(gpu, m, f, dyn_shared, args, &lay);
    if (st == LS_OK && core_prog_build(&prog, m->ptx) != 0)
        st = GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted (decode)");
    const struct cfg *c = &gpu->tcfg;
    struct ptx_dac_inst *dac_tr = NULL;     /* affine.mode=dac: the transform */
    if (st == LS_OK && c->affine_mode == 1)
        st = dac_transform(gpu, file, f, &dac_tr);
    struct core_kernel k;
    memset(&k, 0, sizeof k);
    k.mod = m->ptx;
    k.f = f;
    k.prog = &prog;
    k.sym0 = lay.sym0;
    k.sym1 = lay.sym1;
    k.frame0 = lay.frame0;
    k.local_stride = lay.local_stride;
    k.param = lay.param;
    k.param_bytes = lay.param_bytes;
    k.shared_bytes = lay.shared_bytes;
    k.dyn_smem = (uint32_t)dyn_shared;
    if (st == LS_OK && gpu->coop_launch && gpu_coop_workspace(gpu, &k.grid_ws) != LS_OK)
        st = LS_ERR_NOMEM;      /* cudaLaunchCooperativeKernel's grid-sync word */
    k.ntid[0] = block.x; k.ntid[1] = block.y; k.ntid[2] = block.z;
    k.nctaid[0] = grid.x; k.nctaid[1] = grid.y; k.nctaid[2] = grid.z;
    k.nthreads = block.x * block.y * block.z;
    k.nwarps = (k.nthreads + EXEC_WARP - 1) / EXEC_WARP;
    k.regs_per_thread = core_regs_per_thread(f);
    /* like nvcc under a register limit: a CTA that would not fit on an
     * SM by registers alone gets fewer registers per thread (spills) */
    uint64_t wthreads = (uint64_t)k.nwarps * EXEC_WARP;
    if (wthreads * k.regs_per_thread > (uint64_t)c->regs_per_sm)
        k.regs_per_thread = (uint32_t)((uint64_t)c->regs_per_sm / wthreads);
    k.dmem = &gpu->dmem;
    k.tex = gpu->tex;
    k.ntex = gpu->ntex;
    k.max_stack_depth = gpu->cfg.max_stack_depth;
    if (gpu->clog.f) {
        k.commit = gpu_commit_record;
        k.commit_user = &gpu->clog;
    }
    struct exec_chk chk;
    memset(&chk, 0, sizeof chk);
    if (st == LS_OK) {
        gpu_check_begin(gpu, &chk, m, f, grid, block, lay.shared_bytes, lay.local_stride);
        k.chk = chk.mask ? &chk : NULL;
    }
    k.ext = gpu_devrt_call;
    k.ext_user = gpu;
    k.dac = dac_tr;
    unsigned nsm = (unsigned)c->num_sms;
    uint64_t now = gpu->now, start = now;
    if (st == LS_OK && gpu->mem) {
        unsigned entry = 0;          /* f is the entry-th .entry (lamar.gdu=static) */
        for (uint32_t i = 0; i < m->ptx->nfuncs && &m->ptx->funcs[i] != f; i++)
            entry += m->ptx->funcs[i].is_entry;
        mem_kernel_begin(gpu->mem, f->name, entry, now);
    }
    for (unsigned i = 0; st == LS_OK && i < nsm; i++)
        if (core_sm_kernel(&gpu->sms[i], &k, now) != 0)
            st = GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted (SM state)");
    if (st == LS_OK && !core_sm_fits(&gpu->sms[0]))
        st = GPU_FAIL(gpu, LS_ERR_LAUNCH,
                      "kernel %s: one CTA (%u threads, ~%u registers/thread, "
                      "%llu bytes shared) does not fit an SM (%lld threads, "
                      "%lld registers, %lld bytes shared, %lld warp slots)",
                      f->name, k.nthreads, k.regs_per_thread,
                      (unsigned long long)k.shared_bytes,
                      (long long)c->max_threads_per_sm, (long long)c->regs_per_sm,
                      (long long)c->shared_per_sm, (long long)(c->max_threads_per_sm / 32));
    ls_cache_stats l1a, l2a;
    ls_dram_stats dra;
    uint64_t open_a = 0;
    ls_pca_stats pca_a;
    ls_mta_stats mta_a;
    memset(&pca_a, 0, sizeof pca_a);
    memset(&mta_a, 0, sizeof mta_a);
    if (gpu->mem) {
        mem_stats(gpu->mem, &l1a, &l2a, &dra);
        mem_pca_stats(gpu->mem, &pca_a);
        mem_mta_stats(gpu->mem, &mta_a);
        open_a = mem_dram_open_ticks(gpu->mem, now);
    }
    uint64_t total = (uint64_t)grid.x * grid.y * grid.z, next_cta = 0;
    unsigned rr = 0;
    uint64_t issued_last = 0, progress_at = now, budget = gpu->cfg.max_warp_insts;
    uint64_t mem_at_progress = gpu->mem ? mem_activity(gpu->mem) : 0;
    bool need_dispatch = true;
    const volatile int *cancel = gpu->cfg.cancel;
    struct gpu_tick tk;
    gpu_tick_begin(gpu, &tk);
    while (st == LS_OK) {
        if (cancel && *cancel) {
            st = GPU_FAIL(gpu, LS_ERR_INTERRUPTED, "kernel %s interrupted at cycle %llu "
                          "(cancel flag set)", f->name, (unsigned long long)(now - start));
            break;
        }
        if (need_dispatch) {
            need_dispatch = false;
            if (dispatch(gpu, grid, &next_cta, total, &rr, now) != 0) {
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
        for (unsigned i = 0; i < nsm; i++) {
            struct core_sm *sm = &gpu->sms[i];
            if (sm->live_warps && sm->next_try <= now) {
                /* the budget left after the SMs before this one */
                uint64_t left = budget > issued_last + issued_now
                                    ? budget - issued_last - issued_now : 0;
                sm->issue_cap = sm->st.issued + left;
                uint64_t before = sm->st.issued;
                int e = core_sm_cycle(sm, now);
                issued_now += sm->st.issued - before;
                if (e && sm->slp.why) {
                    st = gpu_fail(gpu, (ls_status)e, file, (int)f->line, "%s", sm->slp.why);
                    break;
                }
                if (e && sm->rvc.why) {
                    st = gpu_fail(gpu, (ls_status)e, file, (int)f->line, "%s", sm->rvc.why);
                    break;
                }
                if (e == LS_ERR_COSIM && sm->dac.why[0]) {      /* DAC */
                    st = gpu_fail(gpu, LS_ERR_COSIM, file, (int)sm->dac.why_line, "%s",
                                  sm->dac.why);
                    break;
                }
                if (e && sm->tbc.blk.why) {
                    st = gpu_fail(gpu, (ls_status)e, file, (int)f->line, "%s",
                                  sm->tbc.blk.why);
                    break;
                }
                if (e) {
                    st = warp_fail(gpu, file, f, sm);
                    break;
                }
            }
            const struct core_mem_req *q = core_sm_req_peek(sm);
            if (q && mem_access(gpu->mem, q, now))
                core_sm_req_pop(sm, now);
            if (mem_gdu_error(gpu->mem)) {   /* a BGP block disagreed (lockstep) */
                st = gpu_fail(gpu, LS_ERR_COSIM, file, (int)f->line, "%s",
                              mem_gdu_error(gpu->mem));
                break;
            }
            if (sm->cta_finished) {
                sm->cta_finished = false;
                need_dispatch = next_cta < total;
            }
            busy |= core_sm_busy(sm);
            queued |= sm->qn > 0;
            if (sm->live_warps && sm->next_try < next)
                next = sm->next_try;
            issued += sm->st.issued;
        }
        if (st != LS_OK)
            break;
        if (mem_gdu_error(gpu->mem)) {       /* from the L2 GDUs in mem_cycle */
            st = gpu_fail(gpu, LS_ERR_COSIM, file, (int)f->line, "%s",
                          mem_gdu_error(gpu->mem));
            break;
        }
        if (!busy && next_cta >= total && mem_idle(gpu->mem))
            break;
        if (issued != issued_last) {
            issued_last = issued;
            progress_at = now;
            if (issued >= budget) {
                char why[160];
                snprintf(why, sizeof why, "instruction budget of %llu warp "
                         "instructions exhausted (ls_config.max_warp_insts)",
                         (unsigned long long)budget);
                st = deadlock(gpu, file, f, now, why);
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
                st = deadlock(gpu, file, f, now, "watchdog: no instruction issued "
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
            st = deadlock(gpu, file, f, now, "no warp can issue and no memory "
                          "request is in flight (barrier never completed?)");
            break;
        }
        st = gpu_tick(gpu, &tk, f->name, next_cta, total, issued, now - start);
        now = next > now ? next : now + 1;
    }
    st = gpu_tick_end(gpu, &tk, st);
    uint64_t end = now + 1;
    /* the blocks are clocked to the kernel's end and drained */
    for (unsigned i = 0; gpu->sms && i < nsm; i++) {
        int e = core_slp_finish(&gpu->sms[i].slp, end);
        if (e && st == LS_OK)
            st = gpu_fail(gpu, (ls_status)e, file, (int)f->line, "%s",
                          gpu->sms[i].slp.why ? gpu->sms[i].slp.why : "SLP failure");
        e = core_rvc_finish(&gpu->sms[i].rvc, end);
        if (e && st == LS_OK)
            st = gpu_fail(gpu, (ls_status)e, file, (int)f->line, "%s",
                          gpu->sms[i].rvc.why ? gpu->sms[i].rvc.why : "RVC failure");
        e = core_cblk_finish(&gpu->sms[i].tbc.blk, end);
        if (e && st == LS_OK)
            st = gpu_fail(gpu, (ls_status)e, file, (int)f->line, "%s",
                          gpu->sms[i].tbc.blk.why ? gpu->sms[i].tbc.blk.why
                                                  : "WCU/CAPT failure");
    }
    for (unsigned i = 0; gpu->sms && i < nsm && st == LS_OK; i++)
        if (gpu->sms[i].dac.why[0])     /* DAC: a warp left records behind */
            st = gpu_fail(gpu, LS_ERR_COSIM, file, (int)gpu->sms[i].dac.why_line, "%s",
                          gpu->sms[i].dac.why);
    if (gpu->mem && mem_gdu_finish(gpu->mem, end) != 0 && st == LS_OK)
        st = gpu_fail(gpu, LS_ERR_COSIM, file, (int)f->line, "%s", mem_gdu_error(gpu->mem));
    if (stats) {
        memset(stats, 0, sizeof *stats);
        stats->launches = 1;
        stats->cycles = end - start;
        for (unsigned i = 0; gpu->sms && i < nsm; i++) {
            struct core_sm *sm = &gpu->sms[i];
            core_sm_account(sm, end);
            const struct core_stats *s = &sm->st;
            /* warps still resident (a failed launch) count too */
            for (unsigned w = 0; w < sm->nslots; w++)
                if (sm->w[w].cta >= 0) {
                    stats->warp_insts += sm->w[w].sw.warp_insts;
                    stats->thread_insts += sm->w[w].sw.thread_insts;
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
            uint64_t empty = stats->cycles > s->busy_cycles
                                 ? stats->cycles - s->busy_cycles : 0;
            stats->idle_cycles += s->idle_cycles + empty;
            stats->stall.no_warps += s->stall.no_warps + empty;
            stats->stall.ibuffer += s->stall.ibuffer;
            stats->stall.scoreboard += s->stall.scoreboard;
            stats->stall.barrier += s->stall.barrier;
            stats->stall.pipe_busy += s->stall.pipe_busy;
            stats->stall.mem_wait += s->stall.mem_wait;
            stats->tensor_insts += s->tensor_insts;
            stats->tensor_busy_cycles += s->tensor_busy;
            core_slp_stats(&sm->slp, stats);
            core_rvc_stats(&sm->rvc, stats);
            core_tbc_stats(&sm->tbc, i == 0, stats);
            core_dpe_stats(&sm->dpe, i == 0, stats);
            if (sm->cae.on) {   /* every member of ls_cae_stats is a uint64_t */
                uint64_t *xa = (uint64_t *)&stats->cae;
                const uint64_t *xs = (const uint64_t *)&sm->cae.st;
                for (size_t j = 0; j < sizeof stats->cae / sizeof *xa; j++)
                    xa[j] += xs[j];
                stats->cae.launches = 1;
            }
            core_dac_stats(&sm->dac, i == 0, stats);
            uint64_t *ea = (uint64_t *)&stats->energy;    /* all uint64_t */
            const uint64_t *es = (const uint64_t *)&s->energy;
            for (size_t j = 0; j < sizeof stats->energy / sizeof *ea; j++)
                ea[j] += es[j];
        }
        gpu_energy_gscalar(&gpu->tcfg, stats);
        gpu_energy_run(&gpu->tcfg, stats);
        if (gpu->mem)
            mem_gdu_cosim(gpu->mem, &stats->cosim[LS_BLK_BGP]);
        for (int b = 0; b < LS_BLK_COUNT; b++)
            if (!stats->cosim[b].instances)
                stats->cosim[b].backend = -1;
        stats->ctas = total;
        stats->threads = total * k.nthreads;
        if (gpu->mem) {
            mem_stats(gpu->mem, &stats->l1d, &stats->l2, &stats->dram);
        }
    }
    if (gpu->mem)
        mem_kernel_end(gpu->mem);
    if (stats && gpu->mem) {
        ls_cache_stats l1b, l2b;
        mem_stats(gpu->mem, &l1b, &l2b, NULL);
        /* the kernel-end sweep adds the resident lines' used sectors */
        memcpy(stats->l1d.used_sectors_hist, l1b.used_sectors_hist,
               sizeof l1b.used_sectors_hist);
        stats->l1d.evictions = l1b.evictions;
        stats->l1d.pred_nref = l1b.pred_nref;
        hist_diff(&stats->l1d, &l1a);
        hist_diff(&stats->l2, &l2a);
        dram_diff(&stats->dram, &dra);
        stats->dram.open_ticks = mem_dram_open_ticks(gpu->mem, end) - open_a;
        mem_power(c, &stats->dram, stats->cycles, stats->warp_insts, &stats->power);
        mem_pca_stats(gpu->mem, &stats->pca);
        stats->pca.prio_accesses -= pca_a.prio_accesses;
        stats->pca.prio_hits -= pca_a.prio_hits;
        stats->pca.deprio_accesses -= pca_a.deprio_accesses;
        stats->pca.deprio_hits -= pca_a.deprio_hits;
        stats->pca.bypassed -= pca_a.bypassed;
        /* every member of ls_mta_stats is a uint64_t counter; the sweep at
         * kernel end counted the resident unused prefetches */
        mem_mta_stats(gpu->mem, &stats->mta);
        uint64_t *mo = (uint64_t *)&stats->mta;
        const uint64_t *ma = (const uint64_t *)&mta_a;
        for (size_t i = 0; i < sizeof stats->mta / sizeof *mo; i++)
            mo[i] -= ma[i];
        stats->mta.launches = c->prefetch == 1;
        stats->ipc = stats->cycles ? (double)stats->warp_insts / (double)stats->cycles : 0;
        stats->simd_util = stats->warp_insts
            ? (double)stats->thread_insts / ((double)stats->warp_insts * EXEC_WARP) : 0.0;
    }
    /* a failed launch leaves warps resident: drop them */
    if (st != LS_OK && gpu->sms) {
        for (unsigned i = 0; i < nsm; i++)
            core_sm_free(&gpu->sms[i]);
        free(gpu->sms);
        gpu->sms = NULL;
        mem_sys_free(gpu->mem);
        gpu->mem = NULL;
    }
    gpu->now = end;
    st = gpu_check_end(gpu, &chk, m, f, st);
    core_prog_free(&prog);
    free(dac_tr);
    gpu_layout_free(&lay);
    if (k.grid_ws)
        gpu_mem_free(gpu, k.grid_ws);
    if (stats)
        stats->wall_s = now_s() - t0;
    return st;
}
