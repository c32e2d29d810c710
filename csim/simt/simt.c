/* Per-warp SIMT execution with an immediate-post-dominator reconvergence
 * stack (see docs/simt-stack.md for the rules and a worked example). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "simt/simt.h"

/* Population count without relying on the POPCNT instruction. */
static inline unsigned popc32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
}

static inline uint64_t align_up(uint64_t v, uint64_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

int simt_warp_alloc(struct simt_warp *w, uint32_t cap)
{
    if (cap == 0)
        cap = 1;
    w->stack = calloc(cap, sizeof *w->stack);
    if (!w->stack)
        return -1;
    w->cap = cap;
    w->sp = 0;
    w->state = SIMT_DONE;
    return 0;
}

void simt_warp_free(struct simt_warp *w)
{
    if (!w)
        return;
    free(w->stack);
    w->stack = NULL;
    free(w->mem.texaddr);
    w->mem.texaddr = NULL;
    w->mem.ntexaddr = 0;
    for (unsigned i = 0; i < SIMT_MAX_FRAMES; i++) {
        free(w->frames[i].regs);
        free(w->frames[i].sym1);
        w->frames[i].regs = NULL;
        w->frames[i].sym1 = NULL;
        w->frames[i].regs_cap = w->frames[i].sym1_cap = 0;
    }
}

uint64_t simt_frame_layout(const struct ptx_func *f, uint64_t local_base,
                           uint64_t *sym1)
{
    uint64_t off = align_up(f->local_bytes, 16);
    uint32_t first = f->nparams + (f->is_entry ? 0 : f->nrets);
    for (uint32_t i = first; i < f->nsyms; i++) {
        const struct ptx_symbol *s = &f->syms[i];
        if (s->space == PTX_SP_LOCAL) {
            if (sym1)
                sym1[i] = local_base + s->offset;
        } else if (s->space == PTX_SP_PARAM) {
            uint64_t al = s->align > 8 ? s->align : 8;
            off = align_up(off, al);
            if (sym1)
                sym1[i] = EXEC_PARAM_THREAD | (local_base + off);
            off += s->size ? s->size : 8;
        }
    }
    return align_up(off, 16);
}

/* Makes frames[k] able to hold f; returns 0 or -1. */
static int frame_reserve(struct simt_frame *fr, const struct ptx_func *f)
{
    size_t nr = (size_t)(f->nregs ? f->nregs : 1) * EXEC_WARP;
    if (fr->regs_cap < nr) {
        uint64_t *r = realloc(fr->regs, nr * sizeof *r);
        if (!r)
            return -1;
        fr->regs = r;
        fr->regs_cap = nr;
    }
    size_t ns = f->nsyms ? f->nsyms : 1;
    if (fr->sym1_cap < ns) {
        uint64_t *s = realloc(fr->sym1, ns * sizeof *s);
        if (!s)
            return -1;
        fr->sym1 = s;
        fr->sym1_cap = ns;
    }
    fr->func = f;
    return 0;
}

/* Points the exec views at frame k. */
static inline void frame_enter(struct simt_warp *w, unsigned k)
{
    struct simt_frame *fr = &w->frames[k];
    w->ew.regs = fr->regs;
    w->ew.nregs = fr->func->nregs;
    w->ew.sym_addr[1] = fr->sym1;
    w->mem.func = fr->func;
}

int simt_warp_start(struct simt_warp *w, const struct ptx_module *mod,
                    const struct ptx_func *f, uint32_t valid,
                    const uint64_t *sym1, uint64_t local_frame)
{
    struct simt_frame *fr = &w->frames[0];
    if (frame_reserve(fr, f) != 0)
        return -1;
    memset(fr->regs, 0, (size_t)f->nregs * EXEC_WARP * sizeof *fr->regs);
    if (f->nsyms)
        memcpy(fr->sym1, sym1, f->nsyms * sizeof *sym1);
    fr->local_base = 0;
    fr->local_top = local_frame;
    w->mod = mod;
    w->nframes = 1;
    w->ew.valid = valid;
    w->live = valid;
    w->sp = 0;
    w->state = valid ? SIMT_READY : SIMT_DONE;
    w->bar_wait = 0;
    if (valid) {
        w->stack[0] = (struct simt_entry){ valid, 0, (int32_t)f->ninsts, 0, 0 };
        w->sp = 1;
    }
    if (w->max_depth < w->sp)
        w->max_depth = w->sp;
    memset(w->ew.carry, 0, sizeof w->ew.carry);
    w->chkw.cta = NULL;
    frame_enter(w, 0);
    return 0;
}

static enum simt_rc fail(struct simt_warp *w, int32_t pc, const char *msg)
{
    w->err_kind = SIMT_ERR_PLAIN;
    w->err.lane = -1;
    w->err.addr = 0;
    snprintf(w->err.msg, sizeof w->err.msg, "%s", msg);
    w->err_pc = pc;
    w->err_simt = true;
    w->err_func = w->sp ? w->frames[w->stack[w->sp - 1].frame].func
                        : w->frames[0].func;
    return SIMT_RC_ERROR;
}

static inline int push(struct simt_warp *w, uint32_t mask, int32_t npc,
                       int32_t rpc, uint16_t frame)
{
    if (w->sp >= w->cap)
        return -1;
    w->stack[w->sp++] = (struct simt_entry){ mask, npc, rpc, frame, 0 };
    if (w->sp > w->max_depth)
        w->max_depth = w->sp;
    return 0;
}

/* Pops finished entries: empty masks and paths that reached their
 * reconvergence PC. Switches frames when a callee's entries are gone. */
static inline void settle(struct simt_warp *w, uint16_t cur_frame)
{
    while (w->sp > 0) {
        const struct simt_entry *t = &w->stack[w->sp - 1];
        if (t->mask != 0 && t->npc != t->rpc)
            break;
        w->sp--;
    }
    if (w->sp == 0) {
        w->state = SIMT_DONE;
        w->live = 0;
        return;
    }
    uint16_t f = w->stack[w->sp - 1].frame;
    if (f != cur_frame) {
        w->nframes = (uint32_t)f + 1;
        frame_enter(w, f);
    }
}

/* Lanes leave: exit (every frame) or ret from a .func (its frame only). */
static void retire(struct simt_warp *w, uint32_t lanes, bool all_frames,
                   uint16_t frame)
{
    for (uint32_t i = w->sp; i-- > 0;) {
        if (!all_frames && w->stack[i].frame != frame)
            break;
        w->stack[i].mask &= ~lanes;
    }
    if (all_frames)
        w->live &= ~lanes;
}

static enum simt_rc do_branch(struct simt_warp *w, const struct ptx_inst *in,
                              int32_t pc, uint32_t mask)
{
    struct simt_entry *top = &w->stack[w->sp - 1];
    uint32_t taken = exec_guard_mask(&w->ew, in, mask);
    int32_t target = in->o[0].label;
    w->branches++;
    w->res.taken = taken;
    int32_t npc, rpc;
    if (!simt_branch_split(in, pc, w->frames[top->frame].func->ninsts,
                           taken == mask, taken == 0, &npc, &rpc)) {
        top->npc = npc;
        return SIMT_RC_OK;
    }
    /* divergence: TOS waits at the reconvergence point; the not-taken
     * and then the taken path are pushed (taken runs first). */
    w->divergent++;
    uint16_t frame = top->frame;
    top->npc = rpc;
    if (top->npc == top->rpc)
        w->sp--;                /* it would pop at once: reuse its slot */
    if (pc + 1 != rpc && push(w, mask & ~taken, pc + 1, rpc, frame) != 0)
        return fail(w, pc, "reconvergence stack overflow");
    if (target != rpc && push(w, taken, target, rpc, frame) != 0)
        return fail(w, pc, "reconvergence stack overflow");
    return SIMT_RC_OK;
}

bool simt_branch_split(const struct ptx_inst *in, int32_t pc, uint32_t ninsts,
                       bool all, bool none, int32_t *npc, int32_t *rpc)
{
    int32_t target = in->o[0].label;
    if (all) {
        *npc = target;
        return false;
    }
    if (none || target == pc + 1) {
        *npc = pc + 1;
        return false;
    }
    *rpc = in->reconv;
    if (*rpc < 0 || (uint32_t)*rpc > ninsts)
        *rpc = (int32_t)ninsts;
    return true;
}

/* brx.idx: each lane branches to entry index of the .branchtargets list;
 * lanes that go different ways diverge as for bra, one stack entry per
 * distinct target (lowest lane's first), all reconverging at the
 * immediate post-dominator of the brx block. */
static enum simt_rc do_brx(struct simt_warp *w, const struct ptx_inst *in,
                           int32_t pc, uint32_t mask)
{
    struct simt_entry *top = &w->stack[w->sp - 1];
    const struct ptx_func *f = w->frames[top->frame].func;
    uint32_t lanes = exec_guard_mask(&w->ew, in, mask);
    uint32_t first = (uint32_t)in->o[1].label, count = (uint32_t)in->o[1].imm;
    int32_t tgt[EXEC_WARP];
    w->branches++;
    w->res.taken = lanes;
    if (in->o[1].kind != PTX_O_TLIST || (uint64_t)first + count > f->ntlist)
        return fail(w, pc, "brx.idx: bad target list");
    EXEC_FOR_EACH_LANE(lanes, lane, {
        uint64_t ix = exec_read(&w->ew, &in->o[0], PTX_T_U32, lane);
        if (ix >= count) {
            char m[160];
            snprintf(m, sizeof m, "brx.idx: index %llu out of range of the "
                     "%u-entry .branchtargets list (lane %u)",
                     (unsigned long long)ix, count, lane);
            return fail(w, pc, m);
        }
        tgt[lane] = f->tlist[first + ix];
    });
    /* groups of lanes by target; the guarded-off lanes fall through */
    uint32_t gm[EXEC_WARP + 1];
    int32_t gt[EXEC_WARP + 1];
    unsigned ng = 0;
    uint32_t left = lanes;
    while (left) {
        unsigned l0 = (unsigned)__builtin_ctz(left);
        uint32_t g = 0;
        EXEC_FOR_EACH_LANE(left, lane, {
            if (tgt[lane] == tgt[l0])
                g |= 1u << lane;
        });
        gm[ng] = g;
        gt[ng++] = tgt[l0];
        left &= ~g;
    }
    if (mask & ~lanes) {
        gm[ng] = mask & ~lanes;
        gt[ng++] = pc + 1;
    }
    if (ng == 1) {
        top->npc = gt[0];
        return SIMT_RC_OK;
    }
    w->divergent++;
    int32_t rpc = in->reconv;
    if (rpc < 0 || (uint32_t)rpc > f->ninsts)
        rpc = (int32_t)f->ninsts;
    uint16_t frame = top->frame;
    top->npc = rpc;
    if (top->npc == top->rpc)
        w->sp--;                /* it would pop at once: reuse its slot */
    for (unsigned g = ng; g-- > 0;)     /* the lowest lane's group runs first */
        if (gt[g] != rpc && push(w, gm[g], gt[g], rpc, frame) != 0)
            return fail(w, pc, "reconvergence stack overflow");
    return SIMT_RC_OK;
}

/* The function an indirect call of the lanes in *lanes goes to: the
 * target of the lowest lane; lanes with other targets are left in *rest
 * (they run the call again afterwards: one call per distinct target). */
static const struct ptx_func *indirect_target(struct simt_warp *w,
                                              const struct ptx_inst *in,
                                              int32_t pc, uint32_t *lanes,
                                              uint32_t *rest)
{
    unsigned l0 = (unsigned)__builtin_ctz(*lanes);
    uint64_t a = exec_read(&w->ew, &in->o[0], PTX_T_U64, l0);
    uint32_t g = 0;
    EXEC_FOR_EACH_LANE(*lanes, lane, {
        if (exec_read(&w->ew, &in->o[0], PTX_T_U64, lane) == a)
            g |= 1u << lane;
    });
    *rest = *lanes & ~g;
    *lanes = g;
    int32_t fi = ptx_func_of_addr(w->mod, a);
    if (fi < 0 || w->mod->funcs[fi].is_entry) {
        char m[160];
        snprintf(m, sizeof m, "call: indirect call through 0x%llx, which is not "
                 "the address of a .func of this module (lane %u)",
                 (unsigned long long)a, l0);
        fail(w, pc, m);
        w->err.lane = (int)l0;
        w->err.addr = a;
        w->err_simt = false;
        return NULL;
    }
    return &w->mod->funcs[fi];
}

static enum simt_rc do_call(struct simt_warp *w, const struct ptx_inst *in,
                            int32_t pc, uint32_t mask)
{
    struct simt_entry *top = &w->stack[w->sp - 1];
    uint32_t lanes = exec_guard_mask(&w->ew, in, mask), rest = 0;
    top->npc = pc + 1;          /* the caller resumes after the call */
    if (lanes == 0)
        return SIMT_RC_OK;
    const struct ptx_func *callee;
    if (in->o[0].kind == PTX_O_REG) {
        callee = indirect_target(w, in, pc, &lanes, &rest);
        if (!callee)
            return SIMT_RC_ERROR;
        unsigned nargs = ptx_call_nargs(in);
        if (nargs != callee->nparams ||
            (in->o[1].kind != PTX_O_NONE) != (callee->nrets > 0)) {
            char m[200];
            snprintf(m, sizeof m, "call: indirect call of %s with %u arguments "
                     "and %u return values; it takes %u and %u", callee->name,
                     nargs, in->o[1].kind != PTX_O_NONE, callee->nparams,
                     callee->nrets);
            return fail(w, pc, m);
        }
    } else if (in->o[0].kind != PTX_O_FUNC || in->o[0].func < 0 ||
               (uint32_t)in->o[0].func >= w->mod->nfuncs) {
        return fail(w, pc, "call: bad call target");
    } else {
        callee = &w->mod->funcs[in->o[0].func];
    }
    uint16_t cf = top->frame;
    uint32_t k = (uint32_t)cf + 1;
    if (rest) {                 /* the other targets: the call again, later */
        w->divergent++;
        if (push(w, rest, pc, pc + 1, cf) != 0)
            return fail(w, pc, "reconvergence stack overflow");
    }
    if (!callee->has_body) {    /* vprintf, malloc, ...: the device runtime */
        w->writes++;            /* it may change device state */
        if (w->ext) {
            if (w->ext(w->ext_user, w, callee, in, lanes) == 0)
                return SIMT_RC_OK;
            w->err_pc = pc;
            w->err_func = w->frames[cf].func;
            return SIMT_RC_ERROR;
        }
        char m[200];
        snprintf(m, sizeof m, "call of extern function %s, which this model "
                 "does not implement", callee->name);
        enum simt_rc r = fail(w, pc, m);
        w->err_kind = SIMT_ERR_EXTERN;
        return r;
    }
    if (callee->ninsts == 0)
        return SIMT_RC_OK;      /* an empty body returns at once */
    if (k >= SIMT_MAX_FRAMES)
        return fail(w, pc, "call: nesting deeper than SIMT_MAX_FRAMES");
    struct simt_frame *caller = &w->frames[cf], *fr = &w->frames[k];
    if (frame_reserve(fr, callee) != 0)
        return fail(w, pc, "call: out of host memory");
    fr->local_base = align_up(caller->local_top, 16);
    fr->local_top = fr->local_base +
                    simt_frame_layout(callee, fr->local_base, fr->sym1);
    if (fr->local_top > w->mem.local_stride)
        return fail(w, pc, "call: per-thread local stack overflow");
    /* .func params and return values alias the caller's .param symbols */
    for (uint32_t i = 0; i < callee->nparams + callee->nrets; i++) {
        const struct ptx_operand *o =
            i < callee->nparams ? ptx_call_arg(w->frames[cf].func, in, i)
                                : (i == callee->nparams ? &in->o[1] : NULL);
        if (!o || o->kind != PTX_O_SYM || o->sym.index < 0)
            return fail(w, pc, "call: argument/return count does not match "
                               "the .func declaration");
        fr->sym1[i] = w->frames[cf].sym1[o->sym.index] + (uint64_t)o->imm;
        if (o->sym.scope == 0)
            fr->sym1[i] = w->ew.sym_addr[0][o->sym.index];
    }
    for (uint32_t i = callee->nparams + callee->nrets; i < callee->nsyms; i++)
        if (callee->syms[i].space == PTX_SP_SHARED)
            fr->sym1[i] = callee->syms[i].offset;
    memset(fr->regs, 0, (size_t)callee->nregs * EXEC_WARP * sizeof *fr->regs);
    if (push(w, lanes, 0, (int32_t)callee->ninsts, (uint16_t)k) != 0)
        return fail(w, pc, "reconvergence stack overflow");
    w->nframes = k + 1;
    frame_enter(w, k);
    return SIMT_RC_OK;
}

/* Counts a memory instruction's store (w->writes, w->local_writes); a
 * generic store counts as a write outside local memory whatever window
 * its lanes hit. */
static inline void count_store(struct simt_warp *w, const struct exec_result *res)
{
    if (!res->is_store)
        return;
    if (res->space == PTX_SP_LOCAL)
        w->local_writes++;
    else if (res->space != PTX_SP_SHARED)
        w->writes++;
}

/* The non-control part of an instruction: executes in (instruction pc of
 * f, the current frame) for mask through csim/exec and the checks; no
 * stack change. Shared by step_one and simt_exec_at. */
static enum simt_rc exec_plain(struct simt_warp *w, const struct ptx_func *f,
                               const struct ptx_inst *in, int32_t pc,
                               uint32_t mask)
{
    struct exec_result *res = &w->res;
    int rc = 0;
    switch ((enum ptx_op)in->op) {
    case PTX_OP_MEMBAR:
    case PTX_OP_FENCE:
        break;
    case PTX_OP_BAR:            /* only bar.warp.sync comes here */
    case PTX_OP_BARRIER:
    case PTX_OP_SHFL:
    case PTX_OP_VOTE:
    case PTX_OP_ACTIVEMASK:
    case PTX_OP_MATCH:
    case PTX_OP_NANOSLEEP:
        rc = exec_warpops(&w->ew, f, in, mask, res, &w->err);
        break;
    case PTX_OP_CVTA:
        rc = exec_mem(&w->ew, &w->mem, in, mask, res, &w->err);
        break;
    case PTX_OP_WMMA_LOAD:
    case PTX_OP_WMMA_STORE:
    case PTX_OP_WMMA_MMA:
    case PTX_OP_MMA:
        rc = exec_mma(&w->ew, &w->mem, in, mask, res, &w->err);
        count_store(w, res);
        break;
    default:
        if (ptx_op_unit((enum ptx_op)in->op) == PTX_UNIT_MEM) {
            rc = exec_mem(&w->ew, &w->mem, in, mask, res, &w->err);
            count_store(w, res);
        } else {
            rc = exec_alu(&w->ew, in, mask, res, &w->err);
        }
        break;
    }
    if (rc != 0) {
        w->mem.oob = 0;
        w->err_simt = false;
        w->err_kind = SIMT_ERR_PLAIN;
        w->err_pc = pc;
        w->err_func = f;
        return SIMT_RC_ERROR;
    }
    if (w->mem.oob) {           /* memcheck warn/off: in mapped memory */
        if (w->mem.dmem && w->mem.dmem->oob_chk) {
            const struct exec_grid *g = &w->gridv;
            uint64_t cta = g->ctaid[0] + (uint64_t)g->nctaid[0] *
                           (g->ctaid[1] + (uint64_t)g->nctaid[1] * g->ctaid[2]);
            exec_chk_oob(w->mem.dmem->oob_chk, cta,
                         g->warpid * EXEC_WARP + w->mem.oob_lane, f, pc,
                         w->mem.oob_store, w->mem.oob_addr);
        }
        w->mem.oob = 0;
    }
    if (w->chkw.chk)
        exec_chk_step(&w->chkw, &w->ew, &w->mem, f, pc, mask, res, 0, w->live,
                      w->warp_insts);
    return SIMT_RC_OK;
}

/* One barrier instruction's arrival, read before it is recorded. */
struct bar_arrival {
    uint32_t id, count;
    uint8_t red;
    uint32_t ntrue, nfalse;
};

/* Splits w's stack for a barrier that `arrive` reached while the lanes
 * `run` of the warp are elsewhere (docs/simt-stack.md, Barriers): the
 * entries restricted to the waiting lanes `keep` stay below, the top-most
 * one holding `arrive` marked waiting, and the entries restricted to
 * `run` go on top, so those lanes run on (to their exit or a barrier).
 * Returns false, changing nothing, when the warp is inside a call or the
 * stack would overflow. */
static bool bar_split(struct simt_warp *w, uint32_t arrive, uint32_t keep, uint32_t run)
{
    uint32_t n = w->sp, need = 0;
    int32_t top_a = -1;
    if (w->nframes != 1)
        return false;
    for (uint32_t i = 0; i < n; i++) {
        const struct simt_entry *e = &w->stack[i];
        if (e->frame)
            return false;
        need += ((e->mask & keep) != 0) + ((e->mask & run) != 0);
        if (e->mask & arrive)
            top_a = (int32_t)i;
    }
    struct simt_entry *old = malloc(n * sizeof *old);
    if (need > w->cap || top_a < 0 || !old) {
        free(old);
        return false;
    }
    memcpy(old, w->stack, n * sizeof *old);
    w->sp = 0;
    for (uint32_t i = 0; i < n; i++)
        if (old[i].mask & keep) {
            struct simt_entry e = old[i];
            e.mask &= keep;
            e.wait |= (int32_t)i == top_a;
            w->stack[w->sp++] = e;
        }
    for (uint32_t i = 0; i < n; i++)
        if (old[i].mask & run) {
            struct simt_entry e = old[i];
            e.mask &= run;
            e.wait = 0;
            w->stack[w->sp++] = e;
        }
    free(old);
    if (w->sp > w->max_depth)
        w->max_depth = w->sp;
    return true;
}

/* The lanes `arrive` of w reached barrier a at pc (after settle). The PTX
 * ISA: "barrier{.cta} instruction causes executing thread to wait for all
 * non-exited threads from its warp and marks warps' arrival at barrier":
 * the warp arrives (SIMT_RC_BARRIER, bar_mask = every waiting lane) once
 * each of its live lanes waits at the barrier; until then the waiting
 * lanes are parked (bar_split) and the others run. bar.arrive is counted
 * at once and never blocks. */
static enum simt_rc bar_arrive(struct simt_warp *w, int32_t pc, uint32_t arrive,
                               const struct bar_arrival *a, bool arrive_only)
{
    if (w->bar_wait) {
        if (arrive_only || a->id != w->bar_id || a->count != w->bar_count ||
            a->red != w->bar_red || (a->red && pc != w->bar_pc)) {
            char m[240];
            snprintf(m, sizeof m, "bar: lanes 0x%08x of this warp reach barrier %u "
                     "(%s) while lanes 0x%08x wait at barrier %u: one warp arrives at "
                     "one barrier at a time (PTX ISA, barrier)", arrive, a->id,
                     arrive_only ? "bar.arrive" : a->red ? "bar.red" : "bar.sync",
                     w->bar_wait, w->bar_id);
            return fail(w, pc, m);
        }
    } else {
        w->bar_id = a->id;
        w->bar_count = a->count;
        w->bar_red = a->red;
        w->bar_pc = pc;
        w->bar_ntrue = w->bar_nfalse = 0;
    }
    w->bar_ntrue += a->ntrue;
    w->bar_nfalse += a->nfalse;
    if (arrive_only) {          /* counted by the CTA, never blocks */
        w->bar_mask = arrive;
        return SIMT_RC_BARRIER;
    }
    uint32_t keep = arrive | w->bar_wait, run = w->live & ~keep;
    if (run && bar_split(w, arrive, keep, run)) {
        w->bar_wait = keep;
        return SIMT_RC_OK;
    }
    /* every live lane waits (or the stack cannot be split: the others
     * are then stuck below, and the CTA reports the deadlock) */
    w->bar_mask = keep;
    w->state = SIMT_AT_BARRIER;
    return SIMT_RC_BARRIER;
}

static enum simt_rc step_one(struct simt_warp *w)
{
    if (w->sp == 0) {
        w->state = SIMT_DONE;
        return SIMT_RC_DONE;
    }
    struct simt_entry *top = &w->stack[w->sp - 1];
    uint16_t frame = top->frame;
    const struct ptx_func *f = w->frames[frame].func;
    int32_t pc = top->npc;
    uint32_t mask = top->mask;
    if (w->trace)
        w->trace(w->trace_user, w, pc, mask);
    if ((uint32_t)pc >= f->ninsts) {    /* fell off the end: return */
        retire(w, mask, frame == 0, frame);
        settle(w, frame);
        return w->state == SIMT_DONE ? SIMT_RC_DONE : SIMT_RC_OK;
    }
    const struct ptx_inst *in = &f->insts[pc];
    w->warp_insts++;
    w->thread_insts += popc32(mask);
    struct exec_result *res = &w->res;
    res->active = mask;
    switch ((enum ptx_op)in->op) {
    case PTX_OP_BRA: {
        enum simt_rc r = do_branch(w, in, pc, mask);
        if (r != SIMT_RC_OK)
            return r;
        settle(w, frame);
        return SIMT_RC_OK;
    }
    case PTX_OP_BRX: {
        enum simt_rc r = do_brx(w, in, pc, mask);
        if (r != SIMT_RC_OK)
            return r;
        settle(w, frame);
        return SIMT_RC_OK;
    }
    case PTX_OP_CALL: {
        enum simt_rc r = do_call(w, in, pc, mask);
        if (r != SIMT_RC_OK)
            return r;
        settle(w, frame);
        return SIMT_RC_OK;
    }
    case PTX_OP_RET:
    case PTX_OP_EXIT: {
        uint32_t lanes = exec_guard_mask(&w->ew, in, mask);
        top->npc = pc + 1;
        retire(w, lanes, in->op == PTX_OP_EXIT || frame == 0, frame);
        settle(w, frame);
        return w->state == SIMT_DONE ? SIMT_RC_DONE : SIMT_RC_OK;
    }
    case PTX_OP_TRAP: {         /* the launch fails, naming the first lane */
        uint32_t lanes = exec_guard_mask(&w->ew, in, mask);
        if (lanes) {
            enum simt_rc r = fail(w, pc, "trap executed (__trap(), or a runtime check "
                                  "compiled into the kernel): the kernel aborts (CUDA "
                                  "reports cudaErrorIllegalInstruction)");
            w->err.lane = (int)__builtin_ctz(lanes);
            return r;
        }
        top->npc = pc + 1;
        settle(w, frame);
        return SIMT_RC_OK;
    }
    case PTX_OP_BAR:
    case PTX_OP_BARRIER:
        if (in->sub == PTX_SUB_WARP_SYNC)
            break;              /* a warp operation: exec_plain */
        {
            bool red = in->sub == PTX_SUB_RED_POPC || in->sub == PTX_SUB_RED_AND ||
                       in->sub == PTX_SUB_RED_OR;
            if (!red && in->sub != PTX_SUB_SYNC && in->sub != PTX_SUB_ARRIVE &&
                in->sub != PTX_SUB_NONE)
                return fail(w, pc, "bar: unknown barrier operation");
            /* bar.red: d, a, b, c; bar.sync/arrive: a, b */
            const struct ptx_operand *oa = &in->o[red ? 1 : 0], *ob = &in->o[red ? 2 : 1];
            uint32_t arrive = exec_guard_mask(&w->ew, in, mask);
            unsigned l0 = arrive ? (unsigned)__builtin_ctz(arrive) : 0;
            struct bar_arrival a = { 0, 0, red ? in->sub : 0, 0, 0 };
            a.id = oa->kind != PTX_O_NONE
                       ? (uint32_t)exec_read(&w->ew, oa, PTX_T_U32, l0) : 0;
            a.count = ob->kind != PTX_O_NONE
                          ? (uint32_t)exec_read(&w->ew, ob, PTX_T_U32, l0) : 0;
            if (red)
                EXEC_FOR_EACH_LANE(arrive, lane, {
                    if (exec_read(&w->ew, &in->o[3], PTX_T_PRED, lane))
                        a.ntrue++;
                    else
                        a.nfalse++;
                });
            if (w->chkw.chk && arrive)
                exec_chk_step(&w->chkw, &w->ew, &w->mem, f, pc, mask, res,
                              arrive, w->live, w->warp_insts);
            top->npc = pc + 1;
            settle(w, frame);
            if (w->state == SIMT_DONE)
                return SIMT_RC_DONE;
            if (arrive == 0)
                return SIMT_RC_OK;
            if (a.id >= 16)
                return fail(w, pc, "bar: barrier id must be 0..15");
            return bar_arrive(w, pc, arrive, &a, in->sub == PTX_SUB_ARRIVE);
        }
    default:
        break;
    }
    enum simt_rc r = exec_plain(w, f, in, pc, mask);
    if (r != SIMT_RC_OK)
        return r;
    top->npc = pc + 1;
    if (top->npc == top->rpc)
        settle(w, frame);
    return SIMT_RC_OK;
}

bool simt_is_control(enum ptx_op op, uint8_t sub)
{
    switch (op) {
    case PTX_OP_BRA: case PTX_OP_BRX: case PTX_OP_CALL: case PTX_OP_RET:
    case PTX_OP_EXIT: case PTX_OP_TRAP:
        return true;
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        return sub != PTX_SUB_WARP_SYNC;
    default:
        return false;
    }
}

enum simt_rc simt_exec_at(struct simt_warp *w, int32_t pc, uint32_t mask)
{
    const struct ptx_func *f = w->mem.func;
    if (!f || pc < 0 || (uint32_t)pc >= f->ninsts)
        return fail(w, pc, "simt_exec_at: no instruction at this pc");
    const struct ptx_inst *in = &f->insts[pc];
    if (simt_is_control((enum ptx_op)in->op, in->sub))
        return fail(w, pc, "simt_exec_at: a control instruction");
    if (w->trace)
        w->trace(w->trace_user, w, pc, mask);
    w->warp_insts++;
    w->thread_insts += popc32(mask);
    w->res.active = mask;
    enum simt_rc r = exec_plain(w, f, in, pc, mask);
    if (r == SIMT_RC_OK && w->commit)
        w->commit(w->commit_user, w, f, pc, mask);
    return r;
}

enum simt_rc simt_step(struct simt_warp *w)
{
    enum simt_rc rc;
    if (!w->commit || w->sp == 0) {
        rc = step_one(w);
    } else {
        const struct simt_entry *top = &w->stack[w->sp - 1];
        const struct ptx_func *f = w->frames[top->frame].func;
        int32_t pc = top->npc;
        uint32_t mask = top->mask;
        rc = step_one(w);
        if (rc != SIMT_RC_ERROR && (uint32_t)pc < f->ninsts)
            w->commit(w->commit_user, w, f, pc, mask);
    }
    /* Whatever the instruction (the last one reaching the end of the
     * entry, a bra to the end label, a call returning into the end), a warp
     * whose stack emptied has finished: say so now, not at the next step,
     * so no caller looks for a next instruction that does not exist. */
    if (rc == SIMT_RC_OK && w->state == SIMT_DONE)
        rc = SIMT_RC_DONE;
    /* the lanes that ran while others waited at a barrier exited: the
     * waiting lanes are all the warp has left, so it arrives */
    if (rc == SIMT_RC_OK && w->bar_wait && w->stack[w->sp - 1].wait) {
        w->bar_mask = w->bar_wait;
        w->state = SIMT_AT_BARRIER;
        rc = SIMT_RC_BARRIER;
    }
    if (rc == SIMT_RC_DONE && w->chkw.chk)
        exec_chk_warp_done(&w->chkw);
    return rc;
}

enum simt_rc simt_run(struct simt_warp *w, uint64_t *budget)
{
    uint64_t n = *budget;
    enum simt_rc rc = SIMT_RC_OK;
    uint64_t start = w->warp_insts;
    while (w->warp_insts - start < n) {
        rc = simt_step(w);
        if (rc != SIMT_RC_OK)
            break;
    }
    uint64_t used = w->warp_insts - start;
    *budget = used >= n ? 0 : n - used;
    return rc;
}

void simt_bar_red_result(struct simt_warp *w, uint32_t ntrue, uint32_t nfalse)
{
    if (w->state != SIMT_AT_BARRIER || !w->bar_red || w->sp == 0)
        return;
    const struct ptx_func *f = w->frames[w->stack[w->sp - 1].frame].func;
    if (w->bar_pc < 0 || (uint32_t)w->bar_pc >= f->ninsts)
        return;
    const struct ptx_inst *in = &f->insts[w->bar_pc];
    uint64_t v = w->bar_red == PTX_SUB_RED_POPC ? ntrue
                 : w->bar_red == PTX_SUB_RED_AND ? nfalse == 0 : ntrue != 0;
    enum ptx_type t = w->bar_red == PTX_SUB_RED_POPC ? PTX_T_U32 : PTX_T_PRED;
    EXEC_FOR_EACH_LANE(w->bar_mask, lane, { exec_write(&w->ew, &in->o[0], t, lane, v); });
}

void simt_release(struct simt_warp *w)
{
    if (w->state == SIMT_AT_BARRIER)
        w->state = w->sp ? SIMT_READY : SIMT_DONE;
    if (w->bar_wait)
        for (uint32_t i = 0; i < w->sp; i++)
            w->stack[i].wait = 0;
    w->bar_mask = 0;
    w->bar_wait = 0;
}

void simt_describe(const struct simt_warp *w, char *buf, size_t len)
{
    size_t o = 0;
    if (len == 0)
        return;
    buf[0] = 0;
    if (w->sp == 0) {
        snprintf(buf, len, "finished");
        return;
    }
    const struct simt_entry *t = &w->stack[w->sp - 1];
    const struct ptx_func *f = w->frames[t->frame].func;
    uint32_t line = (uint32_t)t->npc < f->ninsts ? f->insts[t->npc].line : 0;
    int k = snprintf(buf, len, "%s pc %d (line %u) in %s, stack",
                     w->state == SIMT_AT_BARRIER ? "waiting at barrier, next" : "at",
                     t->npc, line, f->name ? f->name : "?");
    if (k < 0)
        return;
    o = (size_t)k < len ? (size_t)k : len - 1;
    for (uint32_t i = w->sp; i-- > 0 && o + 1 < len;) {
        const struct simt_entry *e = &w->stack[i];
        k = snprintf(buf + o, len - o, " [mask 0x%08x npc %d rpc %d%s]",
                     e->mask, e->npc, e->rpc, e->wait ? " waiting" : "");
        if (k < 0)
            break;
        o += (size_t)k < len - o ? (size_t)k : len - o - 1;
    }
}
