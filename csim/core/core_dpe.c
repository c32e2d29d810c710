/* Dual-path execution in the SM (core_dpe.h, docs/dpe.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "core/core_dpe.h"

static inline unsigned popc(uint32_t x) { return (unsigned)__builtin_popcount(x); }

/* ------------------------------------------------------------ scoreboard */

int core_dpe_sb_alloc(struct core_dpe_sb *sb, unsigned nregs, bool optimistic)
{
    memset(sb, 0, sizeof *sb);
    sb->nregs = nregs ? nregs : 1;
    sb->optimistic = optimistic;
    if (optimistic) {
        sb->lane = calloc((size_t)sb->nregs * 32, sizeof *sb->lane);
        return sb->lane ? 0 : -1;
    }
    for (unsigned s = 0; s < 2; s++) {
        sb->pend[s] = calloc(sb->nregs, sizeof *sb->pend[s]);
        sb->shadow[s] = calloc(sb->nregs, sizeof *sb->shadow[s]);
        if (!sb->pend[s] || !sb->shadow[s])
            return -1;
    }
    return 0;
}

void core_dpe_sb_free(struct core_dpe_sb *sb)
{
    for (unsigned s = 0; s < 2; s++) {
        free(sb->pend[s]);
        free(sb->shadow[s]);
    }
    free(sb->lane);
    memset(sb, 0, sizeof *sb);
}

void core_dpe_sb_reset(struct core_dpe_sb *sb)
{
    if (sb->optimistic) {
        memset(sb->lane, 0, (size_t)sb->nregs * 32 * sizeof *sb->lane);
        return;
    }
    for (unsigned s = 0; s < 2; s++) {
        memset(sb->pend[s], 0, sb->nregs * sizeof *sb->pend[s]);
        memset(sb->shadow[s], 0, sb->nregs * sizeof *sb->shadow[s]);
    }
}

uint64_t core_dpe_sb_ready(const struct core_dpe_sb *sb, unsigned side,
                           uint32_t mask, const int32_t *regs, unsigned n)
{
    uint64_t t = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned r = (unsigned)regs[i];
        if (r >= sb->nregs)
            continue;
        if (sb->optimistic) {
            const uint64_t *l = &sb->lane[(size_t)r * 32];
            for (uint32_t m = mask; m; m &= m - 1) {
                uint64_t v = l[__builtin_ctz(m)];
                t = v > t ? v : t;
            }
            continue;
        }
        uint64_t a = sb->pend[side][r], b = sb->shadow[side ^ 1][r];
        t = a > t ? a : t;
        t = b > t ? b : t;
    }
    return t;
}

void core_dpe_sb_issue(struct core_dpe_sb *sb, unsigned side, uint32_t mask,
                       const int32_t *regs, unsigned n, uint64_t ready)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned r = (unsigned)regs[i];
        if (r >= sb->nregs)
            continue;
        if (sb->optimistic) {
            for (uint32_t m = mask; m; m &= m - 1)
                sb->lane[(size_t)r * 32 + (unsigned)__builtin_ctz(m)] = ready;
        } else {
            sb->pend[side][r] = ready;
        }
    }
}

void core_dpe_sb_wb(struct core_dpe_sb *sb, unsigned side, uint32_t mask,
                    const int32_t *regs, unsigned n, uint64_t at)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned r = (unsigned)regs[i];
        if (r >= sb->nregs)
            continue;
        if (sb->optimistic) {
            for (uint32_t m = mask; m; m &= m - 1) {
                uint64_t *v = &sb->lane[(size_t)r * 32 + (unsigned)__builtin_ctz(m)];
                if (*v == UINT64_MAX)
                    *v = at;
            }
            continue;
        }
        /* the path bit that travelled with the load names the scoreboard:
         * its pending bit and the shadow copy of it clear */
        if (sb->pend[side][r] == UINT64_MAX)
            sb->pend[side][r] = at;
        if (sb->shadow[side][r] == UINT64_MAX)
            sb->shadow[side][r] = at;
    }
}

void core_dpe_sb_shadow(struct core_dpe_sb *sb, unsigned side)
{
    if (sb->optimistic)
        return;
    for (unsigned r = 0; r < sb->nregs; r++)
        if (sb->pend[side][r] > sb->shadow[side][r])
            sb->shadow[side][r] = sb->pend[side][r];
}

/* ---------------------------------------------------------------- unit */

int core_dpe_init(struct core_dpe *d, unsigned paths, unsigned sbkind,
                  unsigned sched, unsigned nslots, uint32_t cap)
{
    memset(d, 0, sizeof *d);
    d->paths = paths;
    d->sbkind = sbkind;
    d->sched = sched;
    d->nslots = nslots;
    if (paths == CORE_DPE_SINGLE)
        return 0;
    d->w = calloc(nslots, sizeof *d->w);
    if (!d->w)
        return -1;
    for (unsigned i = 0; i < nslots; i++)
        if (simt_dpe_alloc(&d->w[i].st, cap) != 0)
            return -1;
    return 0;
}

void core_dpe_free(struct core_dpe *d)
{
    for (unsigned i = 0; d->w && i < d->nslots; i++) {
        simt_dpe_free(&d->w[i].st);
        core_dpe_sb_free(&d->w[i].sb);
    }
    free(d->w);
    memset(d, 0, sizeof *d);
}

/* Why kernel f cannot run dual-path exactly, or NULL; *pc = where. */
static const char *single_only(const struct ptx_func *f, int32_t *pc)
{
    for (uint32_t i = 0; i < f->ninsts; i++) {
        const struct ptx_inst *in = &f->insts[i];
        const char *why = NULL;
        switch ((enum ptx_op)in->op) {
        /* the lanes of the other path would see this path's order of
         * execution (they read or wait for lanes that are not yet there) */
        case PTX_OP_SHFL: why = "shfl"; break;
        case PTX_OP_VOTE: why = "vote"; break;
        case PTX_OP_ACTIVEMASK: why = "activemask"; break;
        case PTX_OP_MATCH: why = "match"; break;
        case PTX_OP_WMMA_LOAD: case PTX_OP_WMMA_STORE: case PTX_OP_WMMA_MMA:
        case PTX_OP_MMA: why = "wmma/mma"; break;
        /* frames are per warp: the dual-path stack has no frame field */
        case PTX_OP_CALL: why = "call"; break;
        case PTX_OP_BRX: why = "brx.idx"; break;
        case PTX_OP_BAR: case PTX_OP_BARRIER:
            if (in->sub == PTX_SUB_WARP_SYNC)
                why = "bar.warp.sync";
            break;
        default: break;
        }
        if (why) {
            *pc = (int32_t)i;
            return why;
        }
    }
    return NULL;
}

int core_dpe_kernel(struct core_dpe *d, const struct ptx_func *f, unsigned nregs)
{
    memset(&d->st, 0, sizeof d->st);
    d->branches = d->divergent = d->interleavable = 0;
    d->reason[0] = 0;
    d->active = false;
    if (d->paths == CORE_DPE_SINGLE)
        return 0;
    int32_t pc = -1;
    const char *why = single_only(f, &pc);
    if (why) {
        snprintf(d->reason, sizeof d->reason, "%s at line %u", why, f->insts[pc].line);
        return 0;
    }
    if (nregs != d->nregs || !d->w[0].sb.nregs) {
        for (unsigned i = 0; i < d->nslots; i++) {
            core_dpe_sb_free(&d->w[i].sb);
            if (core_dpe_sb_alloc(&d->w[i].sb, nregs,
                                  d->sbkind == CORE_DPE_SB_OPTIMISTIC) != 0)
                return -1;
        }
        d->nregs = nregs;
    }
    d->active = true;
    return 0;
}

/* Mirrors path side of slot's top entry into the warp's own stack (depth
 * = the dual-path depth, the top entry = that path), so the code that
 * reads the top of sw.stack (memory pc, G-Scalar, statistics) sees it. */
static void mirror(struct core_sm *sm, unsigned slot, unsigned side)
{
    struct core_dpe_warp *dw = &sm->dpe.w[slot];
    struct simt_warp *sw = &sm->w[slot].sw;
    if (!dw->st.sp) {
        sw->sp = 0;
        return;
    }
    const struct simt_dpe_entry *e = &dw->st.stack[dw->st.sp - 1];
    sw->sp = dw->st.sp;
    sw->stack[sw->sp - 1] = (struct simt_entry){ e->p[side].mask, e->p[side].pc,
                                                 e->rpc, 0 };
}

void core_dpe_launch(struct core_sm *sm, unsigned slot, uint32_t valid, uint64_t now)
{
    struct core_dpe_warp *dw = &sm->dpe.w[slot];
    struct core_warp *w = &sm->w[slot];
    (void)now;
    simt_dpe_start(&dw->st, valid, sm->k->f->ninsts);
    core_dpe_sb_reset(&dw->sb);
    dw->cur = dw->sched = SIMT_DPE_L;
    dw->last = SIMT_DPE_R;
    for (unsigned s = 0; s < 2; s++) {
        dw->ibuf_ready[s] = w->ibuf_ready;
        dw->ibuf_block[s] = w->ibuf_block;
        dw->ibuf_n[s] = w->ibuf_n;
    }
    mirror(sm, slot, SIMT_DPE_L);
}

static const struct core_dinst *path_di(const struct core_sm *sm, int32_t pc)
{
    uint32_t fi = (uint32_t)(sm->k->f - sm->k->mod->funcs);
    uint32_t n = sm->k->f->ninsts;
    return &sm->k->prog->di[fi][(uint32_t)pc < n ? (uint32_t)pc : n];
}

static bool at_cta_barrier(const struct core_sm *sm, int32_t pc)
{
    const struct ptx_func *f = sm->k->f;
    if ((uint32_t)pc >= f->ninsts)
        return false;
    const struct ptx_inst *in = &f->insts[pc];
    return (in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER) &&
           in->sub != PTX_SUB_WARP_SYNC;
}

int core_dpe_check(struct core_sm *sm, unsigned slot, uint64_t now, uint64_t *when)
{
    struct core_dpe_warp *dw = &sm->dpe.w[slot];
    struct core_warp *w = &sm->w[slot];
    const struct simt_dpe *st = &dw->st;
    *when = CORE_INF;
    if (!st->sp)
        return CORE_ST_BARRIER;
    const struct simt_dpe_entry *e = &st->stack[st->sp - 1];
    bool v[2] = { simt_dpe_valid(st, 0), simt_dpe_valid(st, 1) };
    bool bar[2] = { v[0] && at_cta_barrier(sm, e->p[0].pc),
                    v[1] && at_cta_barrier(sm, e->p[1].pc) };
    /* constrained: one scheduler entry per warp, holding dw->sched (it
     * moves to the other path when the held one is gone) */
    if (sm->dpe.sched == CORE_DPE_CONSTRAINED && !v[dw->sched] && v[dw->sched ^ 1]) {
        dw->sched ^= 1;
        sm->dpe.st.switches++;
    }
    int reason = CORE_ST_BARRIER;
    unsigned first = sm->dpe.sched == CORE_DPE_CONSTRAINED ? dw->sched : dw->last ^ 1;
    unsigned nside = sm->dpe.sched == CORE_DPE_CONSTRAINED ? 1 : 2;
    for (unsigned k = 0; k < nside; k++) {
        unsigned s = first ^ k;
        if (!v[s])
            continue;
        /* a path at a CTA barrier waits for its sibling to finish (the
         * barrier counts the warp's threads once it is one path); with
         * both at barriers, or none to wait for, it goes (core_dpe_step
         * fails it if the warp is still divergent) */
        if (bar[s] && v[s ^ 1] && !bar[s ^ 1])
            continue;
        uint64_t t;
        if (dw->ibuf_ready[s] > now) {
            t = dw->ibuf_ready[s];
            if (t < *when || reason == CORE_ST_BARRIER) {
                reason = reason == CORE_ST_BARRIER || t < *when ? CORE_ST_IBUFFER : reason;
            }
            *when = t < *when ? t : *when;
            continue;
        }
        const struct core_dinst *di = path_di(sm, e->p[s].pc);
        uint64_t r1 = core_dpe_sb_ready(&dw->sb, s, e->p[s].mask, di->src, di->nsrc);
        uint64_t r2 = core_dpe_sb_ready(&dw->sb, s, e->p[s].mask, di->dst, di->ndst);
        t = r1 > r2 ? r1 : r2;
        if (t > now) {
            if (reason == CORE_ST_BARRIER || t < *when)
                reason = CORE_ST_SCOREBOARD;
            *when = t < *when ? t : *when;
            continue;
        }
        dw->cur = (uint8_t)s;
        w->next_di = di;
        w->ibuf_ready = dw->ibuf_ready[s];
        w->ibuf_block = dw->ibuf_block[s];
        w->ibuf_n = dw->ibuf_n[s];
        mirror(sm, slot, s);
        return CORE_ST_NONE;
    }
    return reason;
}

/* Counts and commits a control instruction of the path on the warp. */
static void count_ctrl(struct simt_warp *sw, int32_t pc, uint32_t mask,
                       const struct ptx_func *f, uint32_t taken)
{
    sw->warp_insts++;
    sw->thread_insts += popc(mask);
    sw->res.active = mask;
    sw->res.taken = taken;
    if (sw->commit)
        sw->commit(sw->commit_user, sw, f, pc, mask);
}

static enum simt_rc dpe_fail(struct simt_warp *sw, const struct ptx_func *f,
                             int32_t pc, const char *msg)
{
    sw->err_kind = SIMT_ERR_PLAIN;
    sw->err.lane = -1;
    sw->err.addr = 0;
    snprintf(sw->err.msg, sizeof sw->err.msg, "%s", msg);
    sw->err_pc = pc;
    sw->err_simt = true;
    sw->err_func = f;
    return SIMT_RC_ERROR;
}

/* The warp's stack changed depth (a push or pops): reconvergence copies
 * the pending bits of both sides into their shadows (docs/dpe.md), and the
 * new top paths start from the fetch the control instruction caused. */
static void after_pops(struct core_dpe_warp *dw, unsigned popped)
{
    if (popped) {
        core_dpe_sb_shadow(&dw->sb, 0);
        core_dpe_sb_shadow(&dw->sb, 1);
    }
}

static enum simt_rc finish(struct core_sm *sm, unsigned slot)
{
    struct core_dpe_warp *dw = &sm->dpe.w[slot];
    struct simt_warp *sw = &sm->w[slot].sw;
    if (sw->max_depth < dw->st.max_depth)
        sw->max_depth = dw->st.max_depth;
    mirror(sm, slot, dw->cur);
    if (dw->st.sp)
        return SIMT_RC_OK;
    sw->state = SIMT_DONE;
    sw->live = 0;
    if (sw->chkw.chk)
        exec_chk_warp_done(&sw->chkw);
    return SIMT_RC_DONE;
}

enum simt_rc core_dpe_step(struct core_sm *sm, unsigned slot, uint64_t now)
{
    struct core_dpe *d = &sm->dpe;
    struct core_dpe_warp *dw = &d->w[slot];
    struct simt_warp *sw = &sm->w[slot].sw;
    const struct ptx_func *f = sm->k->f;
    unsigned s = dw->cur;
    (void)now;
    if (!simt_dpe_valid(&dw->st, s))
        return dpe_fail(sw, f, -1, "dual-path execution: no schedulable path");
    struct simt_dpe_entry *e = &dw->st.stack[dw->st.sp - 1];
    int32_t pc = e->p[s].pc;
    uint32_t mask = e->p[s].mask;
    d->st.issued++;
    d->st.path_sum += simt_dpe_npaths(&dw->st);
    dw->last = (uint8_t)s;
    if ((uint32_t)pc >= f->ninsts) {        /* fell off the end: exit */
        after_pops(dw, simt_dpe_exit(&dw->st, mask));
        sw->live &= ~mask;
        return finish(sm, slot);
    }
    const struct ptx_inst *in = &f->insts[pc];
    switch ((enum ptx_op)in->op) {
    case PTX_OP_BRA: {
        uint32_t taken = exec_guard_mask(&sw->ew, in, mask);
        count_ctrl(sw, pc, mask, f, taken);
        sw->branches++;
        d->branches++;
        unsigned popped = 0;
        /* a divergence copies the pending bits into the shadow bits before
         * the new entry's paths issue (both sides, as Fig 3.6 shows: the
         * left shadow of r1 is set at BR_D-E of the right path) */
        uint64_t div0 = dw->st.divergent, il0 = dw->st.interleavable;
        enum simt_dpe_rc r = simt_dpe_branch(&dw->st, s, in, pc, f->ninsts,
                                             taken, &popped);
        if (r == SIMT_DPE_OVERFLOW)
            return dpe_fail(sw, f, pc, "reconvergence stack overflow");
        if (dw->st.divergent != div0) {
            sw->divergent++;
            d->divergent++;
            d->interleavable += dw->st.interleavable - il0;
            core_dpe_sb_shadow(&dw->sb, 0);     /* both sides: docs/dpe.md */
            core_dpe_sb_shadow(&dw->sb, 1);
        }
        after_pops(dw, popped);
        return finish(sm, slot);
    }
    case PTX_OP_RET:
    case PTX_OP_EXIT: {
        uint32_t lanes = exec_guard_mask(&sw->ew, in, mask);
        count_ctrl(sw, pc, mask, f, sw->res.taken);
        sw->live &= ~lanes;
        /* the path's other threads go on; the exiting ones leave every
         * entry (both may pop entries) */
        unsigned popped = simt_dpe_advance(&dw->st, s, pc + 1);
        popped += simt_dpe_exit(&dw->st, lanes);
        after_pops(dw, popped);
        return finish(sm, slot);
    }
    case PTX_OP_TRAP: {
        uint32_t lanes = exec_guard_mask(&sw->ew, in, mask);
        if (lanes) {
            enum simt_rc r = dpe_fail(sw, f, pc, "trap executed (__trap(), or a runtime "
                                      "check compiled into the kernel): the kernel aborts "
                                      "(CUDA reports cudaErrorIllegalInstruction)");
            sw->err.lane = (int)__builtin_ctz(lanes);
            return r;
        }
        count_ctrl(sw, pc, mask, f, sw->res.taken);
        after_pops(dw, simt_dpe_advance(&dw->st, s, pc + 1));
        return finish(sm, slot);
    }
    case PTX_OP_BAR:
    case PTX_OP_BARRIER:
        if (in->sub == PTX_SUB_WARP_SYNC)
            break;
        if (dw->st.sp != 1 || simt_dpe_npaths(&dw->st) != 1) {
            char m[200];
            snprintf(m, sizeof m, "dual-path execution: CTA barrier inside divergent "
                     "code (stack depth %u, %u paths): it would deadlock under the "
                     "single-path stack too", dw->st.sp, simt_dpe_npaths(&dw->st));
            return dpe_fail(sw, f, pc, m);
        }
        {
            /* the warp is one path: the per-warp stack runs the barrier
             * (arrival, bar.red operands, synccheck) on the mirror */
            mirror(sm, slot, s);
            enum simt_rc r = simt_step(sw);
            if (r == SIMT_RC_ERROR)
                return r;
            int32_t npc = sw->sp ? sw->stack[sw->sp - 1].npc : e->rpc;
            after_pops(dw, simt_dpe_advance(&dw->st, s, npc));
            mirror(sm, slot, s);
            if (!dw->st.sp) {
                sw->state = SIMT_DONE;
                sw->live = 0;
                return SIMT_RC_DONE;
            }
            return r;
        }
    default:
        break;
    }
    enum simt_rc r = simt_exec_at(sw, pc, mask);
    if (r != SIMT_RC_OK)
        return r;
    after_pops(dw, simt_dpe_advance(&dw->st, s, pc + 1));
    return finish(sm, slot);
}

void core_dpe_issued(struct core_sm *sm, unsigned slot, const struct core_dinst *di,
                     uint64_t ready)
{
    struct core_dpe_warp *dw = &sm->dpe.w[slot];
    struct core_warp *w = &sm->w[slot];
    unsigned s = dw->last;
    core_dpe_sb_issue(&dw->sb, s, w->sw.res.active, di->dst, di->ndst, ready);
    /* the instruction buffer: a control instruction refills the fetch of
     * both top paths (the new entry's, or the one returned to), else the
     * issuing path's own buffer moves on */
    unsigned from = di->unit == CORE_U_CTRL ? 0 : s, to = di->unit == CORE_U_CTRL ? 2 : s + 1;
    for (unsigned k = from; k < to; k++) {
        dw->ibuf_ready[k] = w->ibuf_ready;
        dw->ibuf_block[k] = w->ibuf_block;
        dw->ibuf_n[k] = w->ibuf_n;
    }
    /* constrained: a long-latency operation (a load, an SFU instruction)
     * hands the scheduler entry to the other path if it has one */
    if (sm->dpe.sched == CORE_DPE_CONSTRAINED &&
        ((di->unit == CORE_U_MEM && di->ndst) || di->unit == CORE_U_SFU) &&
        simt_dpe_valid(&dw->st, dw->sched ^ 1)) {
        dw->sched ^= 1;
        sm->dpe.st.switches++;
    }
}

void core_dpe_resp(struct core_sm *sm, unsigned slot, unsigned side, uint32_t mask,
                   const int32_t *dst, unsigned ndst, uint64_t at)
{
    core_dpe_sb_wb(&sm->dpe.w[slot].sb, side, mask, dst, ndst, at);
}

void core_dpe_stats(const struct core_dpe *d, bool first, ls_stats *s)
{
    if (d->paths == CORE_DPE_SINGLE)
        return;
    ls_dpe_stats *x = &s->dpe;
    if (first) {
        x->launches++;
        if (!d->active) {
            x->single++;
            if (!s->dpe_single[0])
                snprintf(s->dpe_single, sizeof s->dpe_single, "%s", d->reason);
        }
        s->dpe_paths = (int)d->paths;
    }
    x->issued += d->st.issued;
    x->path_sum += d->st.path_sum;
    x->switches += d->st.switches;
    x->branches += d->branches;
    x->divergent += d->divergent;
    x->interleavable += d->interleavable;
}
