/* Functional launch loop: CTAs one after another; the warps of a CTA run
 * round-robin, each until it reaches a barrier or finishes (config key
 * schedule = block; interleave: one instruction per turn); barriers are
 * released when every live thread (exited threads count as arrived) or
 * the named thread count has arrived; otherwise the launch deadlocks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "gpu/gpu.h"
#include "core/core.h"
#include "simt/simt.h"
#include "exec/exec_check.h"

#define NBAR 16
/* Warp instructions a warp runs before the next warp gets a turn, so
 * warps that wait on each other through memory (spin flags) progress. */
#define GPU_SLICE 4096u
/* The spin detector (struct spin): a CTA is watched once it has run
 * SPIN_AFTER warp instructions, its state compared every SPIN_EVERY
 * (at the first round boundary past them); local memory larger than
 * SPIN_LOCAL_MAX bytes is left out of the state (then a store to it
 * counts as a write). Powers of two chosen for nothing but the
 * detector's cost (a copy of the CTA's state per SPIN_EVERY
 * instructions, only in CTAs past SPIN_AFTER) and delay (a few
 * SPIN_EVERY past SPIN_AFTER for a loop whose period fits in one); a
 * result never depends on them. */
#define SPIN_AFTER (1ull << 20)
#define SPIN_EVERY (1ull << 18)
#define SPIN_LOCAL_MAX (4ull << 20)

/* One CTA in flight: its warps, shared and local memory, ids, and the
 * arrivals at its barriers. */
struct cta {
    struct simt_warp *warps;
    uint8_t *shared, *local;
    struct exec_grid eg;
    uint32_t arrived[NBAR], expect[NBAR];
    uint32_t ntrue[NBAR], nfalse[NBAR];     /* bar.red */
    bool done;
};

/* A growable byte string: one snapshot of a CTA's state. */
struct snap {
    uint8_t *b;
    size_t n, cap;
};

/* Functional mode's spin detector over the CTAs in flight (the one CTA
 * of a non-cooperative launch, which run one at a time; every CTA of a
 * cooperative one): Brent's cycle finding over their state at check
 * points (round boundaries, every SPIN_EVERY warp instructions). The
 * state is everything their next instructions depend on but memory
 * outside it: every warp's stack, frames and registers, barrier counts,
 * shared (and local) memory. Two equal snapshots with no write outside
 * them in between (simt_warp.writes) prove an infinite loop: memory is
 * the same too, nothing else runs, so the CTAs repeat the stretch
 * between them forever. Off in a module that
 * reads %clock or %globaltimer (the clock is state that never repeats)
 * and while device memory holds host pages (a host thread may write them
 * during the launch). */
struct spin {
    int off;                    /* -1: not decided yet; 1: the module
                                   reads a clock or device memory holds
                                   pages a host thread may write          */
    bool with_local;            /* local memory is in the state           */
    uint64_t budget0;           /* L->budget at the watch's start         */
    uint64_t next;              /* instructions run at the next check     */
    struct snap ref, cur;       /* Brent's tortoise and the hare          */
    bool have_ref;
    uint64_t ref_writes, ref_at;    /* writes, CTA instructions at ref    */
    uint64_t power, lam;
};

struct launch {
    ls_gpu *gpu;
    const struct ls_module *m;
    const struct ptx_func *f;
    ls_dim3 grid, block;
    struct exec_grid eg;        /* the launch's; each CTA's copy has its ids */
    struct cta *cta, *cur;      /* one (CTAs one after another), or every
                                   CTA of a cooperative launch at once;
                                   cur: the one running                   */
    unsigned nctas;
    struct simt_warp *warps;    /* nctas x nwarps                         */
    unsigned nwarps, nthreads;
    uint8_t *param;  uint64_t param_bytes;
    uint8_t *shared; uint64_t shared_bytes;     /* nctas segments          */
    uint8_t *local;  uint64_t local_stride;
    uint64_t *sym0, *sym1;
    uint64_t frame0;
    uint64_t budget;
    uint64_t slice;             /* warp instructions per turn (schedule)  */
    const char *file;
    struct gpu_tick tk;         /* progress and host-memory watch         */
    uint64_t ctas_done, ctas;
    struct spin spin;
};

static inline uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

const struct ptx_func *gpu_find_kernel(const struct ptx_module *mod,
                                       const char *name, int *ambiguous)
{
    *ambiguous = 0;
    const struct ptx_func *hit = NULL;
    for (uint32_t i = 0; i < mod->nfuncs; i++) {
        const struct ptx_func *f = &mod->funcs[i];
        if (f->is_entry && f->name && strcmp(f->name, name) == 0)
            return f;
    }
    size_t n = strlen(name);
    char pre[64];
    snprintf(pre, sizeof pre, "_Z%zu", n);
    size_t pl = strlen(pre);
    for (uint32_t i = 0; i < mod->nfuncs; i++) {
        const struct ptx_func *f = &mod->funcs[i];
        if (!f->is_entry || !f->name)
            continue;
        if (strncmp(f->name, pre, pl) == 0 && strncmp(f->name + pl, name, n) == 0) {
            if (hit)
                *ambiguous = 1;
            else
                hit = f;
        }
    }
    return hit;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Thread (x,y,z) of linear index t in the block. */
static void tid_of(const struct launch *L, unsigned t, uint32_t xyz[3])
{
    xyz[0] = t % L->block.x;
    xyz[1] = (t / L->block.x) % L->block.y;
    xyz[2] = t / (L->block.x * L->block.y);
}

static uint32_t ptx_line(const struct ptx_func *f, int32_t pc)
{
    return (uint32_t)pc < f->ninsts ? f->insts[pc].line : f->line;
}

static ls_status warp_error(struct launch *L, unsigned wi)
{
    struct simt_warp *w = &L->cur->warps[wi];
    const struct exec_grid *eg = &L->cur->eg;
    if (w->err_kind != SIMT_ERR_PLAIN)      /* assert, extern call */
        return gpu_warp_error(L->gpu, L->file, L->f, w);
    const struct ptx_func *f = w->err_func ? w->err_func : L->f;
    uint32_t line = ptx_line(f, w->err_pc);
    ls_status st = w->err_simt ? LS_ERR_LAUNCH
                 : w->err.lane >= 0 ? LS_ERR_MEMFAULT : LS_ERR_PARSE;
    const char *what = st == LS_ERR_MEMFAULT ? "memory fault" : "error";
    if (w->err.lane >= 0) {
        uint32_t t[3];
        tid_of(L, wi * EXEC_WARP + (unsigned)w->err.lane, t);
        return gpu_fail(L->gpu, st, L->file, (int)line,
                        "%s in kernel %s, CTA (%u,%u,%u), thread (%u,%u,%u) "
                        "(warp %u lane %d), pc %d (%s): %s", what, L->f->name,
                        eg->ctaid[0], eg->ctaid[1], eg->ctaid[2],
                        t[0], t[1], t[2], wi, w->err.lane, w->err_pc,
                        f->name, w->err.msg);
    }
    return gpu_fail(L->gpu, st, L->file, (int)line,
                    "%s in kernel %s, CTA (%u,%u,%u), warp %u, pc %d (%s): %s",
                    what, L->f->name, eg->ctaid[0], eg->ctaid[1],
                    eg->ctaid[2], wi, w->err_pc, f->name, w->err.msg);
}

static ls_status deadlock(struct launch *L, int line, const char *why)
{
    char *buf = L->gpu->err;
    size_t cap = sizeof L->gpu->err;
    const struct exec_grid *eg = &L->cur->eg;
    gpu_fail(L->gpu, LS_ERR_DEADLOCK, L->file, line,
             "deadlock in kernel %s, CTA (%u,%u,%u): %s;", L->f->name,
             eg->ctaid[0], eg->ctaid[1], eg->ctaid[2], why);
    size_t o = strlen(buf);
    for (unsigned i = 0; i < L->nwarps && o + 1 < cap; i++) {
        char d[512];
        simt_describe(&L->cur->warps[i], d, sizeof d);
        int k = snprintf(buf + o, cap - o, " warp %u: %s;", i, d);
        if (k < 0)
            break;
        o += (size_t)k < cap - o ? (size_t)k : cap - o - 1;
    }
    return LS_ERR_DEADLOCK;
}

/* Starts CTA C at ctaid (x, y, z): zeroed shared memory, every warp at
 * the kernel's first instruction. */
static ls_status cta_start(struct launch *L, struct cta *C, uint32_t x, uint32_t y,
                           uint32_t z)
{
    memset(C->shared, 0, (size_t)L->shared_bytes);
    memset(C->arrived, 0, sizeof C->arrived);
    memset(C->expect, 0, sizeof C->expect);
    memset(C->ntrue, 0, sizeof C->ntrue);
    memset(C->nfalse, 0, sizeof C->nfalse);
    C->eg = L->eg;
    C->eg.ctaid[0] = x; C->eg.ctaid[1] = y; C->eg.ctaid[2] = z;
    C->done = false;
    /* local memory is zero at launch and not cleared between CTAs (as on
     * hardware it is undefined; the CTA order is fixed, so runs repeat) */
    for (unsigned wi = 0; wi < L->nwarps; wi++) {
        unsigned first = wi * EXEC_WARP;
        unsigned n = L->nthreads - first < EXEC_WARP ? L->nthreads - first : EXEC_WARP;
        uint32_t valid = n == 32 ? 0xffffffffu : (1u << n) - 1;
        if (simt_warp_start(&C->warps[wi], L->m->ptx, L->f, valid, L->sym1,
                            L->frame0) != 0)
            return GPU_FAIL(L->gpu, LS_ERR_NOMEM, "host memory exhausted");
        C->warps[wi].mem.last = NULL;
        C->warps[wi].gridv = C->eg;
        C->warps[wi].gridv.warpid = wi;
    }
    return LS_OK;
}

/* One round of CTA C: each ready warp runs until it waits at a barrier,
 * finishes or has used its turn (schedule); then the barriers its warps
 * completed are released. C->done when every warp finished; a barrier
 * that can never complete is a deadlock. */
static ls_status cta_round(struct launch *L, struct cta *C)
{
    L->cur = C;
    bool sliced = false;
    for (unsigned wi = 0; wi < L->nwarps; wi++) {
        struct simt_warp *w = &C->warps[wi];
        while (w->state == SIMT_READY) {
            if (L->gpu->cfg.cancel && *L->gpu->cfg.cancel)
                return GPU_FAIL(L->gpu, LS_ERR_INTERRUPTED,
                                "kernel %s interrupted (cancel flag set)", L->f->name);
            uint64_t sl = L->budget < L->slice ? L->budget : L->slice;
            uint64_t given = sl;
            enum simt_rc rc = simt_run(w, &sl);
            L->budget -= given - sl;
            ls_status ts = gpu_tick(L->gpu, &L->tk, L->f->name, L->ctas_done, L->ctas,
                                    L->gpu->cfg.max_warp_insts - L->budget, 0);
            if (ts != LS_OK)
                return ts;
            if (rc == SIMT_RC_ERROR)
                return warp_error(L, wi);
            if (rc == SIMT_RC_BARRIER) {
                C->arrived[w->bar_id] += (uint32_t)__builtin_popcount(w->bar_mask);
                C->ntrue[w->bar_id] += w->bar_ntrue;
                C->nfalse[w->bar_id] += w->bar_nfalse;
                if (w->bar_count)
                    C->expect[w->bar_id] = w->bar_count;
                continue;       /* bar.arrive keeps it READY */
            }
            if (rc == SIMT_RC_OK && L->budget == 0) {
                char why[160];
                snprintf(why, sizeof why,
                         "instruction budget of %llu warp instructions "
                         "exhausted (ls_config.max_warp_insts)",
                         (unsigned long long)L->gpu->cfg.max_warp_insts);
                const struct simt_entry *t = &w->stack[w->sp - 1];
                return deadlock(L, (int)ptx_line(w->frames[t->frame].func, t->npc), why);
            }
            if (rc == SIMT_RC_OK && sl == 0) {
                sliced = true;      /* turn over: next warp */
                break;
            }
        }
    }
    if (sliced)
        return LS_OK;
    uint32_t live = 0, waiting = 0;
    for (unsigned wi = 0; wi < L->nwarps; wi++) {
        live += (uint32_t)__builtin_popcount(C->warps[wi].live);
        waiting |= C->warps[wi].state == SIMT_AT_BARRIER ? 1u << C->warps[wi].bar_id : 0;
    }
    if (!waiting) {
        C->done = true;         /* every warp finished */
        return LS_OK;
    }
    bool released = false;
    for (unsigned b = 0; b < NBAR; b++) {
        if (!(waiting & (1u << b)))
            continue;
        uint32_t need = C->expect[b] ? C->expect[b] : live;
        if (C->arrived[b] < need)
            continue;
        for (unsigned wi = 0; wi < L->nwarps; wi++)
            if (C->warps[wi].state == SIMT_AT_BARRIER && C->warps[wi].bar_id == b) {
                simt_bar_red_result(&C->warps[wi], C->ntrue[b], C->nfalse[b]);
                simt_release(&C->warps[wi]);
            }
        C->arrived[b] = C->expect[b] = C->ntrue[b] = C->nfalse[b] = 0;
        released = true;
    }
    if (released)
        return LS_OK;
    unsigned b = (unsigned)__builtin_ctz(waiting);
    int line = 0;
    for (unsigned wi = 0; wi < L->nwarps; wi++)
        if (C->warps[wi].state == SIMT_AT_BARRIER && C->warps[wi].bar_id == b) {
            line = (int)ptx_line(L->f, C->warps[wi].bar_pc);
            break;
        }
    char why[160];
    snprintf(why, sizeof why, "barrier %u reached by %u of %u threads it waits for "
             "(a barrier in divergent code?)", b, C->arrived[b],
             C->expect[b] ? C->expect[b] : live);
    return deadlock(L, line, why);
}

/* Whether any function of module p reads %clock, %clock64 or
 * %globaltimer. */
static bool reads_clock(const struct ptx_module *p)
{
    for (uint32_t i = 0; i < p->nfuncs; i++)
        for (uint32_t k = 0; k < p->funcs[i].ninsts; k++) {
            const struct ptx_inst *in = &p->funcs[i].insts[k];
            for (unsigned j = 0; j < in->nopnd && j < PTX_MAX_OPNDS; j++) {
                const struct ptx_operand *o = &in->o[j];
                if (o->kind == PTX_O_SREG &&
                    (o->sreg == PTX_SR_CLOCK || o->sreg == PTX_SR_CLOCK64 ||
                     o->sreg == PTX_SR_GLOBALTIMER || o->sreg == PTX_SR_GLOBALTIMER_LO ||
                     o->sreg == PTX_SR_GLOBALTIMER_HI))
                    return true;
            }
        }
    return false;
}

/* Whether device memory holds pages the program shares with the device
 * (mapped pinned, managed or registered host memory): a host thread may
 * write them while a launch runs. */
static bool host_shared(const struct exec_dmem *d)
{
    for (uint32_t i = 0; i < d->n; i++)
        if (d->a[i].ext)
            return true;
    return false;
}

/* Appends n bytes at p to s; false when the host is out of memory. */
static bool snap_put(struct snap *s, const void *p, size_t n)
{
    if (s->n + n > s->cap) {
        size_t cap = s->cap ? s->cap : 4096;
        while (cap < s->n + n)
            cap *= 2;
        uint8_t *b = realloc(s->b, cap);
        if (!b)
            return false;
        s->b = b;
        s->cap = cap;
    }
    memcpy(s->b + s->n, p, n);
    s->n += n;
    return true;
}

/* Appends the state of CTA C that its next instructions depend on, but
 * memory outside it, to s (struct spin). */
static bool snap_cta(const struct launch *L, const struct cta *C, bool with_local,
                     struct snap *s)
{
    bool ok = true;
    ok &= snap_put(s, C->arrived, sizeof C->arrived);
    ok &= snap_put(s, C->expect, sizeof C->expect);
    ok &= snap_put(s, C->ntrue, sizeof C->ntrue);
    ok &= snap_put(s, C->nfalse, sizeof C->nfalse);
    for (unsigned wi = 0; wi < L->nwarps; wi++) {
        const struct simt_warp *w = &C->warps[wi];
        uint32_t v[12] = { w->state, w->sp, w->nframes, w->live, w->bar_id,
                           w->bar_count, w->bar_mask, (uint32_t)w->bar_pc, w->bar_red,
                           w->bar_ntrue, w->bar_nfalse, w->bar_wait };
        ok &= snap_put(s, v, sizeof v);
        for (uint32_t i = 0; i < w->sp; i++) {
            const struct simt_entry *e = &w->stack[i];
            uint32_t ev[5] = { e->mask, (uint32_t)e->npc, (uint32_t)e->rpc, e->frame,
                               e->wait };
            ok &= snap_put(s, ev, sizeof ev);
        }
        ok &= snap_put(s, w->ew.carry, sizeof w->ew.carry);
        for (uint32_t k = 0; k < w->nframes && k < SIMT_MAX_FRAMES; k++) {
            const struct simt_frame *fr = &w->frames[k];
            uint64_t fv[3] = { (uint64_t)(uintptr_t)fr->func, fr->local_base,
                               fr->local_top };
            ok &= snap_put(s, fv, sizeof fv);
            ok &= snap_put(s, fr->regs, (size_t)fr->func->nregs * EXEC_WARP *
                                        sizeof *fr->regs);
            ok &= snap_put(s, fr->sym1, (size_t)fr->func->nsyms * sizeof *fr->sym1);
        }
    }
    ok &= snap_put(s, C->shared, (size_t)L->shared_bytes);
    if (with_local)
        ok &= snap_put(s, C->local, (size_t)L->nwarps * EXEC_WARP * L->local_stride);
    return ok;
}

/* Writes outside the snapshot by CTA C's warps so far. */
static uint64_t cta_writes(const struct launch *L, const struct cta *C, bool with_local)
{
    uint64_t n = 0;
    for (unsigned wi = 0; wi < L->nwarps; wi++)
        n += C->warps[wi].writes + (with_local ? 0 : C->warps[wi].local_writes);
    return n;
}

/* Arms the spin detector for CTAs that start now. */
static void spin_start(struct launch *L)
{
    struct spin *S = &L->spin;
    S->budget0 = L->budget;
    S->next = SPIN_AFTER;
    S->have_ref = false;
    S->with_local = (uint64_t)L->nctas * L->nwarps * EXEC_WARP * L->local_stride <=
                    SPIN_LOCAL_MAX;
}

/* The spin detector's step after a round of each of the n CTAs in flight
 * from C (struct spin): LS_OK, or LS_ERR_DEADLOCK naming the kernel, a
 * spinning CTA and its warps. */
static ls_status spin_check(struct launch *L, struct cta *C, unsigned n)
{
    struct spin *S = &L->spin;
    uint64_t ran = S->budget0 - L->budget;
    if (ran < S->next)
        return LS_OK;
    S->next = ran + SPIN_EVERY;
    if (S->off < 0)
        S->off = reads_clock(L->m->ptx) || host_shared(&L->gpu->dmem);
    if (S->off)
        return LS_OK;
    uint64_t wr = 0;
    S->cur.n = 0;
    for (unsigned c = 0; c < n; c++) {
        if (!snap_cta(L, &C[c], S->with_local, &S->cur))
            return GPU_FAIL(L->gpu, LS_ERR_NOMEM, "host memory exhausted");
        wr += cta_writes(L, &C[c], S->with_local);
    }
    S->lam++;
    if (S->have_ref && wr == S->ref_writes && S->cur.n == S->ref.n &&
        memcmp(S->cur.b, S->ref.b, S->cur.n) == 0) {
        const struct simt_warp *w = NULL;
        for (unsigned c = 0; c < n && !w; c++)
            for (unsigned wi = 0; wi < L->nwarps && !w; wi++)
                if (C[c].warps[wi].state == SIMT_READY) {
                    w = &C[c].warps[wi];
                    L->cur = &C[c];
                }
        const struct simt_entry *t = w ? &w->stack[w->sp - 1] : NULL;
        int line = t ? (int)ptx_line(w->frames[t->frame].func, t->npc) : 0;
        char why[512];
        if (n == 1)
            snprintf(why, sizeof why,
                     "it spins forever: its state after %llu warp instructions "
                     "repeats the state after %llu with no store outside shared "
                     "memory in between, so only another CTA or the host could end "
                     "the wait, and in functional mode the CTAs of a non-cooperative "
                     "launch run one at a time, each launch to its end (a grid-wide "
                     "barrier, or a flag a later CTA sets?); run it in timing mode "
                     "(--mode timing) or launch it cooperatively",
                     (unsigned long long)ran, (unsigned long long)S->ref_at);
        else
            snprintf(why, sizeof why,
                     "the %u CTAs of this cooperative launch spin forever: their "
                     "state after %llu warp instructions repeats the state after "
                     "%llu with no store outside shared memory in between, so none "
                     "of them can end the wait (only the host could, and a launch "
                     "runs to its end first)", n, (unsigned long long)ran,
                     (unsigned long long)S->ref_at);
        return deadlock(L, line, why);
    }
    if (!S->have_ref || wr != S->ref_writes || S->lam == S->power) {
        struct snap t = S->ref;
        S->ref = S->cur;
        S->cur = t;
        S->power = S->have_ref && wr == S->ref_writes ? S->power * 2 : 1;
        S->lam = 0;
        S->have_ref = true;
        S->ref_writes = wr;
        S->ref_at = ran;
    }
    return LS_OK;
}

/* Whether the front end imported module-scope shared variable name into
 * f's own symbols (then f->shared_bytes already counts it). */
static bool func_has_shared(const struct ptx_func *f, const char *name)
{
    for (uint32_t i = f->nparams; name && i < f->nsyms; i++)
        if (f->syms[i].space == PTX_SP_SHARED && f->syms[i].name &&
            strcmp(f->syms[i].name, name) == 0)
            return true;
    return false;
}

ls_status gpu_layout_prepare(ls_gpu *gpu, const struct ls_module *m,
                             const struct ptx_func *f, size_t dyn_shared,
                             void **args, struct gpu_layout *lay)
{
    const struct ptx_module *p = m->ptx;
    memset(lay, 0, sizeof *lay);
    /* parameters */
    lay->param_bytes = f->param_bytes;
    for (uint32_t i = 0; i < f->nparams; i++) {
        uint64_t end = (uint64_t)f->params[i].offset + f->params[i].size;
        if (end > lay->param_bytes)
            lay->param_bytes = end;
    }
    lay->param = calloc(1, (size_t)lay->param_bytes + 8);
    if (!lay->param)
        return GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted");
    if (f->nparams && !args)
        return GPU_FAIL(gpu, LS_ERR_LAUNCH,
                        "kernel %s takes %u parameters but args is NULL",
                        f->name, f->nparams);
    for (uint32_t i = 0; i < f->nparams; i++) {
        if (!args[i])
            return GPU_FAIL(gpu, LS_ERR_LAUNCH,
                            "kernel %s: args[%u] (%s, %u bytes) is NULL",
                            f->name, i, f->params[i].name, f->params[i].size);
        memcpy(lay->param + f->params[i].offset, args[i], f->params[i].size);
    }
    /* shared: kernel statics, module-scope statics, then dynamic */
    lay->sym0 = calloc(p->nsyms ? p->nsyms : 1, sizeof *lay->sym0);
    lay->sym1 = calloc(f->nsyms ? f->nsyms : 1, sizeof *lay->sym1);
    if (!lay->sym0 || !lay->sym1)
        return GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted");
    if (p->nsyms)
        memcpy(lay->sym0, m->sym_addr, p->nsyms * sizeof *lay->sym0);
    uint64_t stat = f->shared_bytes;
    for (uint32_t i = 0; i < p->nsyms; i++) {
        const struct ptx_symbol *s = &p->syms[i];
        if (s->space != PTX_SP_SHARED || s->is_extern ||
            func_has_shared(f, s->name))
            continue;
        stat = align_up(stat, s->align ? s->align : 1);
        lay->sym0[i] = stat;
        stat += s->size;
    }
    uint64_t dyn_base = align_up(stat, 16);
    for (uint32_t i = 0; i < p->nsyms; i++)
        if (p->syms[i].space == PTX_SP_SHARED && p->syms[i].is_extern)
            lay->sym0[i] = dyn_base;
    lay->shared_bytes = dyn_base + dyn_shared;
    struct gpu_cta_limits lim;
    gpu_cta_limits(gpu, &lim);
    if (dyn_shared > lim.shared_optin || lay->shared_bytes > lim.shared_optin)
        return GPU_FAIL(gpu, LS_ERR_LAUNCH,
                        "kernel %s needs %llu bytes of shared memory per CTA "
                        "(%llu static + %zu dynamic), more than the configured GPU's "
                        "%llu (max_shared_per_cta_optin, shared_per_sm)",
                        f->name, (unsigned long long)lay->shared_bytes,
                        (unsigned long long)stat, dyn_shared,
                        (unsigned long long)lim.shared_optin);
    /* function symbols of the kernel frame */
    for (uint32_t i = 0; i < f->nsyms; i++) {
        const struct ptx_symbol *s = &f->syms[i];
        if (i < f->nparams)
            lay->sym1[i] = f->params[i].offset;
        else if (s->space == PTX_SP_SHARED)
            lay->sym1[i] = s->is_extern ? dyn_base : s->offset;
    }
    lay->frame0 = simt_frame_layout(f, 0, lay->sym1);
    /* room for SIMT_MAX_FRAMES - 1 nested (or recursive) calls of the
     * largest .func of the module */
    uint64_t stack = lay->frame0, big = 0;
    bool calls = false;
    for (uint32_t i = 0; i < p->nfuncs; i++)
        if (!p->funcs[i].is_entry) {
            uint64_t fb = simt_frame_layout(&p->funcs[i], 0, NULL) + 16;
            big = fb > big ? fb : big;
            calls = true;
        }
    if (calls)
        stack += big * (SIMT_MAX_FRAMES - 1);
    lay->local_stride = align_up(stack ? stack : 16, 16);
    return LS_OK;
}

void gpu_layout_free(struct gpu_layout *lay)
{
    free(lay->param);
    free(lay->sym0);
    free(lay->sym1);
    memset(lay, 0, sizeof *lay);
}

/* Sets up param buffer, symbol addresses and memory segments. */
static ls_status prepare(struct launch *L, size_t dyn_shared, void **args)
{
    ls_gpu *gpu = L->gpu;
    struct gpu_layout lay;
    ls_status st = gpu_layout_prepare(gpu, L->m, L->f, dyn_shared, args, &lay);
    L->param = lay.param;  L->param_bytes = lay.param_bytes;
    L->sym0 = lay.sym0;    L->sym1 = lay.sym1;
    L->shared_bytes = lay.shared_bytes;
    L->eg.dyn_smem = (uint32_t)dyn_shared;
    L->eg.total_smem = (uint32_t)((lay.shared_bytes + 255) / 256 * 256);
    L->frame0 = lay.frame0;
    L->local_stride = lay.local_stride;
    if (st != LS_OK)
        return st;
    size_t shseg = (size_t)(L->shared_bytes + 16 + 15) / 16 * 16;
    L->shared = calloc(L->nctas, shseg);
    L->local = calloc((size_t)L->nctas * L->nwarps * EXEC_WARP, (size_t)L->local_stride);
    L->warps = calloc((size_t)L->nctas * L->nwarps, sizeof *L->warps);
    L->cta = calloc(L->nctas, sizeof *L->cta);
    if (!L->shared || !L->local || !L->warps || !L->cta)
        return GPU_FAIL(gpu, LS_ERR_NOMEM,
                        "host memory exhausted (shared/local/warp state)");
    for (unsigned c = 0; c < L->nctas; c++) {
        L->cta[c].warps = L->warps + (size_t)c * L->nwarps;
        L->cta[c].shared = L->shared + (size_t)c * shseg;
        L->cta[c].local = L->local + (size_t)c * L->nwarps * EXEC_WARP * L->local_stride;
    }
    L->cur = &L->cta[0];
    for (unsigned k = 0; k < L->nctas * L->nwarps; k++) {
        unsigned wi = k % L->nwarps;
        struct cta *C = &L->cta[k / L->nwarps];
        struct simt_warp *w = &L->warps[k];
        if (simt_warp_alloc(w, gpu->cfg.max_stack_depth) != 0)
            return GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted");
        w->ew.grid = &w->gridv;
        w->ew.sym_addr[0] = L->sym0;
        w->ew.clock = &w->warp_insts;   /* functional: instructions so far */
        if (gpu->clog.f) {
            w->commit = gpu_commit_record;
            w->commit_user = &gpu->clog;
        }
        w->ext = gpu_devrt_call;
        w->ext_user = gpu;
        for (unsigned l = 0; l < EXEC_WARP; l++) {
            tid_of(L, wi * EXEC_WARP + l, w->ew.ids[l].tid);
            w->ew.ids[l].laneid = l;
        }
        w->mem.dmem = &gpu->dmem;
        w->mem.shared = C->shared;
        w->mem.shared_bytes = L->shared_bytes;
        w->mem.local = C->local + (size_t)wi * EXEC_WARP * L->local_stride;
        w->mem.local_stride = L->local_stride;
        w->mem.param = L->param;
        w->mem.param_bytes = L->param_bytes;
        w->mem.tex = gpu->tex;
        w->mem.ntex = gpu->ntex;
    }
    return LS_OK;
}

static void cleanup(struct launch *L)
{
    if (L->warps)
        for (unsigned k = 0; k < L->nctas * L->nwarps; k++)
            simt_warp_free(&L->warps[k]);
    free(L->warps);
    free(L->cta);
    free(L->param);
    free(L->shared);
    free(L->local);
    free(L->sym0);
    free(L->sym1);
    free(L->spin.ref.b);
    free(L->spin.cur.b);
}

void gpu_cta_limits(const ls_gpu *gpu, struct gpu_cta_limits *l)
{
    const struct cfg *c = &gpu->tcfg;
    uint64_t t = (uint64_t)c->max_threads_per_cta, sm = (uint64_t)c->shared_per_sm;
    if (t > (uint64_t)c->max_threads_per_sm)
        t = (uint64_t)c->max_threads_per_sm;
    l->threads = (uint32_t)t;
    l->shared = (uint64_t)c->max_shared_per_cta < sm ? (uint64_t)c->max_shared_per_cta : sm;
    uint64_t o = c->max_shared_per_cta_optin ? (uint64_t)c->max_shared_per_cta_optin
                                             : (uint64_t)c->max_shared_per_cta;
    o = o < sm ? o : sm;
    l->shared_optin = o > l->shared ? o : l->shared;
    uint64_t r = c->max_regs_per_cta ? (uint64_t)c->max_regs_per_cta
                                     : (uint64_t)c->regs_per_sm;
    l->regs = r < (uint64_t)c->regs_per_sm ? r : (uint64_t)c->regs_per_sm;
}

ls_status gpu_check_geometry(ls_gpu *gpu, const struct ptx_func *f,
                             ls_dim3 grid, ls_dim3 block)
{
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
        return GPU_FAIL(gpu, LS_ERR_LAUNCH,
                        "kernel %s: zero grid (%u,%u,%u) or block (%u,%u,%u) "
                        "dimension", f->name, grid.x, grid.y, grid.z,
                        block.x, block.y, block.z);
    if (grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535)
        return GPU_FAIL(gpu, LS_ERR_LAUNCH,
                        "kernel %s: grid (%u,%u,%u) exceeds (2^31-1, 65535, 65535)",
                        f->name, grid.x, grid.y, grid.z);
    uint64_t nt = (uint64_t)block.x * block.y * block.z;
    struct gpu_cta_limits lim;
    gpu_cta_limits(gpu, &lim);
    if (block.x > 1024 || block.y > 1024 || block.z > 64 || nt > lim.threads)
        return GPU_FAIL(gpu, LS_ERR_LAUNCH,
                        "kernel %s: block (%u,%u,%u) = %llu threads; the configured "
                        "GPU allows at most %u threads per CTA (max_threads_per_cta, "
                        "max_threads_per_sm), (1024,1024,64) per dimension", f->name,
                        block.x, block.y, block.z, (unsigned long long)nt, lim.threads);
    if (f->maxntid[0] && nt > (uint64_t)f->maxntid[0] *
                                  (f->maxntid[1] ? f->maxntid[1] : 1) *
                                  (f->maxntid[2] ? f->maxntid[2] : 1))
        return GPU_FAIL(gpu, LS_ERR_LAUNCH,
                        "kernel %s: block of %llu threads exceeds .maxntid",
                        f->name, (unsigned long long)nt);
    return LS_OK;
}

void gpu_tick_begin(ls_gpu *gpu, struct gpu_tick *t)
{
    memset(t, 0, sizeof *t);
    t->last_watch = now_s();
    if (gpu->prog_t0 == 0) {
        gpu->prog_t0 = t->last_watch;
        if (gpu->cfg.progress == 1 && !isatty(STDERR_FILENO))
            gpu->cfg.progress = 0;      /* 1: on a terminal only; 2: always */
    }
}

/* The progress line: kernel, launch, CTAs done, instructions (and timing
 * mode's cycle and IPC), over itself on the terminal. */
static void show_progress(ls_gpu *gpu, const char *kernel, uint64_t done, uint64_t ctas,
                          uint64_t insts, uint64_t cycles)
{
    if (gpu->sms && gpu->cfg.mode == LS_MODE_TIMING) {
        for (unsigned i = 0; i < (unsigned)gpu->tcfg.num_sms; i++)
            done -= done >= gpu->sms[i].used_ctas ? gpu->sms[i].used_ctas : done;
    }
    char k[48];
    size_t kl = strlen(kernel);
    snprintf(k, sizeof k, "%s%s", kl > 40 ? "..." : "", kl > 40 ? kernel + kl - 37 : kernel);
    fprintf(stderr, "\r[lockstep] %s, launch %u: CTAs %llu/%llu, %.3f M warp insts", k,
            gpu->nlaunch, (unsigned long long)done, (unsigned long long)ctas,
            (double)insts / 1e6);
    if (gpu->cfg.mode == LS_MODE_TIMING)
        fprintf(stderr, ", cycle %llu, IPC %.2f", (unsigned long long)cycles,
                cycles ? (double)insts / (double)cycles : 0.0);
    fprintf(stderr, "\033[K");
    fflush(stderr);
    gpu->prog_shown = true;
}

ls_status gpu_tick(ls_gpu *gpu, struct gpu_tick *t, const char *kernel,
                   uint64_t ctas_done, uint64_t ctas, uint64_t insts, uint64_t cycles)
{
    if (++t->n & 63)            /* the clock is read every 64th call */
        return LS_OK;
    double now = now_s();
    double after = gpu->cfg.progress == 3 ? 0.0 : 2.0;
    if (gpu->cfg.progress && now - gpu->prog_t0 >= after && now - gpu->prog_last >= 0.5) {
        gpu->prog_last = now;
        show_progress(gpu, kernel, ctas_done, ctas, insts, cycles);
    }
    if (now - t->last_watch >= 0.5) {
        t->last_watch = now;
        return gpu_mem_watch(gpu, 0);
    }
    return LS_OK;
}

ls_status gpu_tick_end(ls_gpu *gpu, struct gpu_tick *t, ls_status st)
{
    (void)t;
    if (gpu->prog_shown) {      /* the program's own output starts clean */
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
        gpu->prog_shown = false;
    }
    /* an explicit host_mem_limit is checked at every launch's end, so a
     * short kernel over it fails too */
    if (st == LS_OK && gpu->tcfg.host_mem_limit)
        st = gpu_mem_watch(gpu, 0);
    return st;
}

ls_status gpu_launch(ls_gpu *gpu, struct ls_module *m,
                     const struct ptx_func *f, ls_dim3 grid, ls_dim3 block,
                     size_t dyn_shared, void **args, ls_stats *stats)
{
    double t0 = now_s();
    ls_status st = gpu_check_geometry(gpu, f, grid, block);
    if (st != LS_OK)
        return st;
    struct launch L;
    memset(&L, 0, sizeof L);
    L.gpu = gpu;
    L.m = m;
    L.f = f;
    L.grid = grid;
    L.block = block;
    L.file = m->ptx->file ? m->ptx->file : m->name;
    L.nthreads = block.x * block.y * block.z;
    L.nwarps = (L.nthreads + EXEC_WARP - 1) / EXEC_WARP;
    L.budget = gpu->cfg.max_warp_insts;
    L.spin.off = -1;
    /* schedule = interleave: one instruction per warp per turn */
    L.slice = gpu->tcfg.schedule == CFG_SCHEDULE_INTERLEAVE ? 1 : GPU_SLICE;
    L.eg.ntid[0] = block.x; L.eg.ntid[1] = block.y; L.eg.ntid[2] = block.z;
    L.eg.nctaid[0] = grid.x; L.eg.nctaid[1] = grid.y; L.eg.nctaid[2] = grid.z;
    L.eg.nwarpid = L.nwarps;
    L.eg.smid = 0;
    L.eg.nsmid = 1;
    /* a cooperative launch runs every CTA at once (grid-wide sync needs
     * them all resident), others one CTA after another */
    uint64_t total = (uint64_t)grid.x * grid.y * grid.z;
    L.nctas = gpu->coop_launch ? (unsigned)total : 1;
    ls_dptr ws = 0;
    if (gpu->coop_launch && gpu_coop_workspace(gpu, &ws) != LS_OK)
        return LS_ERR_NOMEM;
    L.eg.grid_ws = ws;
    struct exec_chk chk;
    memset(&chk, 0, sizeof chk);
    st = prepare(&L, dyn_shared, args);
    if (st == LS_OK) {
        gpu_check_begin(gpu, &chk, m, f, grid, block, L.shared_bytes, L.local_stride);
        if (chk.mask)
            for (unsigned k = 0; k < L.nctas * L.nwarps; k++)
                L.warps[k].chkw.chk = &chk;
    }
    gpu_tick_begin(gpu, &L.tk);
    L.ctas = total;
    if (L.nctas == 1) {
        struct cta *C = &L.cta[0];
        for (uint32_t z = 0; st == LS_OK && z < grid.z; z++)
            for (uint32_t y = 0; st == LS_OK && y < grid.y; y++)
                for (uint32_t x = 0; st == LS_OK && x < grid.x; x++) {
                    st = cta_start(&L, C, x, y, z);
                    spin_start(&L);
                    while (st == LS_OK && !C->done) {
                        st = cta_round(&L, C);
                        if (st == LS_OK && !C->done)
                            st = spin_check(&L, C, 1);
                    }
                    L.ctas_done++;
                }
    } else if (st == LS_OK) {
        for (uint64_t c = 0; st == LS_OK && c < total; c++)
            st = cta_start(&L, &L.cta[c], (uint32_t)(c % grid.x),
                           (uint32_t)(c / grid.x % grid.y),
                           (uint32_t)(c / ((uint64_t)grid.x * grid.y)));
        spin_start(&L);
        while (st == LS_OK && L.ctas_done < total) { /* a round of each, in turn */
            for (uint64_t c = 0; st == LS_OK && c < total; c++) {
                if (L.cta[c].done)
                    continue;
                st = cta_round(&L, &L.cta[c]);
                L.ctas_done += L.cta[c].done;
            }
            if (st == LS_OK && L.ctas_done < total)
                st = spin_check(&L, L.cta, L.nctas);
        }
    }
    st = gpu_tick_end(gpu, &L.tk, st);
    if (stats) {
        memset(stats, 0, sizeof *stats);
        stats->launches = 1;
        for (unsigned k = 0; L.warps && k < L.nctas * L.nwarps; k++) {
            const struct simt_warp *w = &L.warps[k];
            stats->warp_insts += w->warp_insts;
            stats->thread_insts += w->thread_insts;
            stats->branches += w->branches;
            stats->divergent_branches += w->divergent;
            if (w->max_depth > stats->max_stack_depth)
                stats->max_stack_depth = w->max_depth;
        }
        stats->ctas = (uint64_t)grid.x * grid.y * grid.z;
        stats->threads = stats->ctas * L.nthreads;
        stats->simd_util = stats->warp_insts
            ? (double)stats->thread_insts / ((double)stats->warp_insts * EXEC_WARP)
            : 0.0;
        stats->wall_s = now_s() - t0;
    }
    st = gpu_check_end(gpu, &chk, m, f, st);
    cleanup(&L);
    if (ws)
        gpu_mem_free(gpu, ws);
    return st;
}

ls_status gpu_coop_workspace(ls_gpu *gpu, ls_dptr *ws)
{
    ls_status st = gpu_mem_alloc(gpu, 256, "cooperative launch workspace", ws);
    if (st == LS_OK)
        gpu_mem_written(gpu, *ws, 256);     /* zero: the barrier's start */
    return st;
}
