/* G-Scalar scalar execution: eligibility and its check (core_gscalar.h). */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "core/core_gscalar.h"
#include "core/core.h"
#include "core/core_mech.h"
#include "blocks/rvc_decomp.h"

#define FULL_MASK 0xffffffffu
#define LO_HALF 0x0000ffffu

static inline unsigned popc(uint32_t x) { return (unsigned)__builtin_popcount(x); }

unsigned core_gs_class_of(const struct core_rvc_vreg *v, uint32_t mask,
                          unsigned *hsc)
{
    *hsc = 0;
    if (v->flags & CORE_RVC_D)
        return v->enc == 0xf && v->bvr == mask ? RVC_CLS_DIV_SCALAR : RVC_CLS_NONE;
    if (v->flags & CORE_RVC_HALF) {
        *hsc = (unsigned)(v->ench == 0xf) << 1 | (unsigned)(v->encl == 0xf);
        if (v->flags & CORE_RVC_FS)
            return RVC_CLS_SCALAR;
        return *hsc ? RVC_CLS_HALF_SCALAR : RVC_CLS_NONE;
    }
    return v->enc == 0xf ? RVC_CLS_SCALAR : RVC_CLS_NONE;
}

/* Special registers whose value differs between the lanes of a warp. */
static bool sreg_per_lane(unsigned r)
{
    return r <= PTX_SR_TID_Z || r == PTX_SR_LANEID ||
           (r >= PTX_SR_LANEMASK_EQ && r <= PTX_SR_LANEMASK_GE);
}

bool core_gs_op_ok(const struct ptx_func *f, const struct ptx_inst *in,
                   unsigned unit)
{
    enum ptx_op op = (enum ptx_op)in->op;
    enum ptx_unit pu = ptx_op_unit(op);
    if (unit > 2 || (pu != PTX_UNIT_ALU && pu != PTX_UNIT_SFU && pu != PTX_UNIT_MEM))
        return false;
    /* carry inputs live per lane outside the register file */
    if (op == PTX_OP_ADDC || op == PTX_OP_SUBC || op == PTX_OP_MADC)
        return false;
    if (pu == PTX_UNIT_MEM) {
        /* ld/st only: atomics serialise per lane, textures and surfaces
         * are not modelled as scalar; per-thread spaces (local, a .func's
         * parameters) and generic addresses (local or not is known only
         * after the address) hold different data at one address */
        if (op != PTX_OP_LD && op != PTX_OP_LDU && op != PTX_OP_ST)
            return false;
        unsigned sp = in->space;
        if (!(sp == PTX_SP_GLOBAL || sp == PTX_SP_SHARED || sp == PTX_SP_CONST ||
              (sp == PTX_SP_PARAM && f->is_entry)))
            return false;
    }
    unsigned nd = ptx_inst_ndst(in);
    for (unsigned i = 0; i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
        const struct ptx_operand *o = &in->o[i];
        if (i < nd && o->kind != PTX_O_MEM)
            continue;                       /* a destination */
        if (o->kind == PTX_O_SREG && sreg_per_lane(o->sreg))
            return false;
        /* predicates are not in the vector register file: no encoding
         * says they are equal in every lane (the guard only masks) */
        if (o->kind == PTX_O_REG && o->reg >= 0 && (uint32_t)o->reg < f->nregs &&
            f->regs[o->reg].type == PTX_T_PRED)
            return false;
        if (o->kind == PTX_O_VEC)
            for (unsigned k = 0; k < o->vec_n && k < 4; k++) {
                int32_t r = o->vec_regs[k];
                if (r >= 0 && (uint32_t)r < f->nregs && f->regs[r].type == PTX_T_PRED)
                    return false;
            }
    }
    return true;
}

unsigned core_gs_classify(const struct core_rvc *u, const struct ptx_func *f,
                          const struct ptx_inst *in, unsigned unit,
                          uint32_t mask, unsigned *halves)
{
    *halves = 0;
    if (!mask)
        return LS_GS_NOT;
    /* what the sources allow first (cheap), the op's own rule only then */
    unsigned cls, hv = 0;
    if (mask == FULL_MASK) {
        if (u->src_full) {
            cls = LS_GS_ALU + unit;
        } else if (u->half && u->src_halves) {
            cls = LS_GS_HALF;
            hv = u->src_halves;
        } else {
            return LS_GS_NOT;
        }
    } else if (u->src_div) {
        cls = LS_GS_DIV;    /* divergent: every source equal over the
                               active lanes (sec. 4.2) */
    } else {
        return LS_GS_NOT;
    }
    if (!core_gs_op_ok(f, in, unit))
        return LS_GS_NOT;
    *halves = hv;
    return cls;
}

bool core_gs_runs_scalar(unsigned mode, unsigned cls)
{
    switch (mode) {
    case CFG_GSCALAR_SCALAR_ALU:
        return cls == LS_GS_ALU;
    case CFG_GSCALAR_SCALAR_NODIV:
        return cls == LS_GS_ALU || cls == LS_GS_SFU || cls == LS_GS_MEM;
    case CFG_GSCALAR_SCALAR_ALL:
        return cls != LS_GS_NOT;
    default:
        return false;
    }
}

unsigned core_gs_ii(unsigned cls, unsigned halves, unsigned lanes)
{
    if (cls != LS_GS_HALF)
        return 1;
    unsigned vec = (16 + lanes - 1) / lanes, n = 0;
    for (unsigned h = 0; h < 2; h++)
        n += halves >> h & 1 ? 1 : vec;
    return n;
}

/* A scalar claim that the values contradict: a model error. */
__attribute__((cold)) static int claim_error(struct core_rvc *u, const struct simt_warp *w,
                       const struct ptx_func *f, int32_t pc, unsigned cls,
                       const char *what, unsigned lane, uint64_t got,
                       unsigned lead, uint64_t exp, uint64_t now)
{
    static const char *const cn[LS_GS_NCLS] = { "not", "ALU", "SFU", "MEM",
                                                "half", "divergent" };
    char msg[768];
    snprintf(msg, sizeof msg, "G-SCALAR MODEL ERROR sm%u: kernel %s, GPU cycle "
             "%llu, warp %u of CTA (%u,%u,%u), %s line %u (pc %d): the "
             "instruction was eligible for scalar execution (%s scalar: its "
             "sources' encodings say so) but %s is 0x%llx in lane %u and 0x%llx "
             "in lane %u", u->sm, u->kernel ? u->kernel : "?",
             (unsigned long long)now, w->gridv.warpid, w->gridv.ctaid[0],
             w->gridv.ctaid[1], w->gridv.ctaid[2], f->name,
             (uint32_t)pc < f->ninsts ? f->insts[pc].line : f->line, pc,
             cn[cls < LS_GS_NCLS ? cls : 0], what, (unsigned long long)got, lane,
             (unsigned long long)exp, lead);
    if (!u->why)
        u->why = strdup(msg);
    return LS_ERR_COSIM;
}

/* Whether v[l] (bits of `mask`) is equal over the lanes of m; else the
 * first differing lane and the leading lane. */
static bool lanes_equal(const uint64_t *v, uint64_t bits, uint32_t m,
                        unsigned *bad, unsigned *lead)
{
    if (!m)
        return true;
    if (m == FULL_MASK) {               /* every lane: one pass, no branch */
        uint64_t d = 0, v0 = v[0];
        for (unsigned l = 0; l < 32; l++)
            d |= v[l] ^ v0;
        if (!(d & bits))
            return true;
    }
    unsigned l0 = (unsigned)__builtin_ctz(m);
    for (unsigned l = l0 + 1; l < 32; l++)
        if ((m >> l & 1) && ((v[l] ^ v[l0]) & bits)) {
            *bad = l;
            *lead = l0;
            return false;
        }
    return true;
}

int core_gs_retire(struct core_rvc *u, const struct simt_warp *w,
                   unsigned frame, const struct ptx_func *f, int32_t pc,
                   unsigned unit, unsigned ecls, unsigned cls, unsigned halves,
                   uint32_t active, uint64_t now, bool *scalar)
{
    ls_gscalar_stats *st = &u->st;
    *scalar = false;
    st->insts++;
    st->elig[cls < LS_GS_NCLS ? cls : 0]++;
    st->div_insts += active != 0xffffffffu;
    bool run = core_gs_runs_scalar(u->scalar, cls);
    if (unit <= 2) {
        unsigned ops = popc(active);
        st->base_lane_ops[unit] += ops;
        if (run) {
            if (cls == LS_GS_HALF) {
                ops = 0;
                for (unsigned h = 0; h < 2; h++) {
                    uint32_t hm = active & (h ? ~LO_HALF : LO_HALF);
                    ops += halves >> h & 1 ? (hm != 0) : popc(hm);
                }
            } else {
                ops = 1;
            }
        }
        st->lane_ops[unit] += ops;
        if (unit <= 1 && ecls < CORE_ECLS_N) {
            unsigned idle = core_ecls_idle(ecls, popc(active));
            st->base_cls_ops[ecls] += popc(active);
            st->cls_ops[ecls] += ops;
            st->base_cls_idle[ecls] += idle;
            st->cls_idle[ecls] += run ? 0 : idle;   /* scalar: the rest clock-gated */
        }
    }
    if (run)
        st->scalar_insts++;
    *scalar = run;
    if (cls == LS_GS_NOT || (uint32_t)pc >= f->ninsts)
        return 0;
    /* the claim: equal results in the lanes (halves) it covers */
    uint32_t part[2] = { active, 0 };
    if (cls == LS_GS_HALF) {
        part[0] = halves & 1 ? active & LO_HALF : 0;
        part[1] = halves & 2 ? active & ~LO_HALF : 0;
    }
    const struct ptx_inst *in = &f->insts[pc];
    const uint64_t *regs = w->frames[frame].regs;
    unsigned nd = ptx_inst_ndst(in), bad = 0, lead = 0;
    for (unsigned i = 0; i < nd && i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
        int32_t rr[4];
        unsigned nr = ptx_opnd_regs(&in->o[i], rr);
        for (unsigned k = 0; k < nr; k++) {
            int32_t r = rr[k];
            if (r < 0 || (uint32_t)r >= f->nregs)
                continue;
            enum ptx_type t = (enum ptx_type)f->regs[r].type;
            unsigned nb = t == PTX_T_PRED ? 1 : ptx_type_bits(t);
            uint64_t bits = nb >= 64 ? ~0ull : (1ull << nb) - 1;
            for (unsigned p = 0; p < 2; p++)
                if (!lanes_equal(regs + (size_t)r * 32, bits, part[p], &bad, &lead)) {
                    char what[96];
                    snprintf(what, sizeof what, "its result %s",
                             f->regs[r].name ? f->regs[r].name : "?");
                    return claim_error(u, w, f, pc, cls, what, bad,
                                       regs[(size_t)r * 32 + bad], lead,
                                       regs[(size_t)r * 32 + lead], now);
                }
        }
    }
    if (in->op == PTX_OP_ST)
        for (unsigned p = 0; p < 2; p++)
            if (!lanes_equal(w->res.addr, ~0ull, part[p] & w->res.active, &bad, &lead))
                return claim_error(u, w, f, pc, cls, "its address", bad,
                                   w->res.addr[bad], lead, w->res.addr[lead], now);
    return 0;
}

/* ------------------------------------------- the SM mechanism (core_mech.h) */

/* G-Scalar on an SM: the compressed register file (core_rvc) and the
 * eligibility of the instruction in issue. */
struct core_gs {
    struct core_rvc rvc;
    unsigned cls, halves;       /* the instruction in issue (before)       */
};

static bool gs_on(const struct cfg *c)
{
    return c->gscalar_compress != CFG_GSCALAR_COMPRESS_OFF ||
           c->gscalar_scalar != CFG_GSCALAR_SCALAR_OFF ||
           c->gscalar_stats != CFG_GSCALAR_STATS_OFF;
}

static int gs_init(void **self, struct core_view *v, const struct core_mech_env *e,
                   char *err, size_t n)
{
    const struct cfg *c = e->c;
    struct core_gs *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, n, "host memory exhausted (G-Scalar) [%s:%d]", __FILE__, __LINE__);
        return -1;
    }
    *self = g;
    bool half = c->gscalar_granularity == 1;
    int r;
    if (c->gscalar_compress) {
        if (!e->cosim) {
            snprintf(err, n, "gscalar.compress needs the RVC blocks through the seam "
                     "[%s:%d]", __FILE__, __LINE__);
            return -1;
        }
        unsigned units[3] = { (unsigned)c->alu_units, (unsigned)c->sfu_units,
                              (unsigned)c->mem_units };
        r = core_rvc_init(&g->rvc, e->cosim, true, e->sm, units,
                          (unsigned)c->operand_collectors, half, e->nslots,
                          c->gscalar_bvr_energy, err, n);
        if (!r && c->gscalar_stats != CFG_GSCALAR_STATS_OFF)
            r = core_rvc_count_toggles(&g->rvc, err, n);
        /* compress, decompress and the EBR read lengthen every result */
        v->wb_lat = (unsigned)c->gscalar_extra_latency;
    } else {
        r = core_rvc_init_track(&g->rvc, e->sm, half, e->nslots, err, n);
    }
    g->rvc.scalar = (unsigned)c->gscalar_scalar;
    return r;
}

static void gs_free(void *self)
{
    struct core_gs *g = self;
    if (g)
        core_rvc_free(&g->rvc);
    free(g);
}

static int gs_kernel(void *self, struct core_view *v, uint64_t now)
{
    core_rvc_kernel(&((struct core_gs *)self)->rvc, v->k->f->name, now);
    return 1;
}

static int gs_warp_start(void *self, struct core_view *v, unsigned slot, uint32_t valid,
                         uint64_t now)
{
    (void)valid;
    (void)now;
    return core_rvc_frame_start(&((struct core_gs *)self)->rvc, slot, 0, v->k->f);
}

/* The operand reads through the decompressors, before the instruction
 * executes (docs/gscalar.md): one read per register-file row; a warp's own
 * instruction is classified for scalar execution (Fig 9), a compacted
 * warp's is not (its home warps' classes are not merged). */
static int gs_before(void *self, struct core_view *v, struct core_issue *is)
{
    struct core_gs *g = self;
    const struct core_dinst *di = is->di;
    g->cls = g->halves = 0;
    for (unsigned i = 0; i < is->nrows; i++) {
        unsigned s = is->row[i].slot;
        int e = core_rvc_read(&g->rvc, &v->w[s].sw, s, is->at.frame, is->at.f, is->at.pc,
                              di->src, di->nsrc, is->row[i].mask, is->coll, is->now);
        if (e)
            return e;
    }
    if (is->nrows && !is->merged && (uint32_t)is->at.pc < is->at.f->ninsts)
        g->cls = core_gs_classify(&g->rvc, is->at.f, &is->at.f->insts[is->at.pc], di->unit,
                                  is->row[0].mask, &g->halves);
    return 0;
}

/* A compacted warp's write-back: one (possibly partial) write per home
 * row under the lanes it ran; a control instruction writes none. */
static int gs_retire_merged(struct core_gs *g, struct core_view *v, struct core_issue *is)
{
    const struct core_dinst *di = is->di;
    const struct ptx_func *f = is->at.f;
    is->ii = 0;
    if (!is->nrows || simt_is_control((enum ptx_op)f->insts[is->at.pc].op,
                                      f->insts[is->at.pc].sub) || !di->ndst)
        return 0;
    for (unsigned i = 0; i < is->nrows; i++) {
        unsigned s = is->row[i].slot, mv = 0;
        int e = core_rvc_write(&g->rvc, &v->w[s].sw, s, 0, f, is->at.pc, di->dst, di->ndst,
                               is->row[i].mask, di->unit, is->unit_ix, is->coll, is->now,
                               &mv);
        if (e)
            return e;
        is->moves += mv;
    }
    return 0;
}

/* The write-back through the compressor of the instruction's pipeline
 * (each inserted move takes an issue cycle first), then G-Scalar's retire:
 * a scalar instruction occupies its pipeline for one lane-cycle. */
static int gs_retire(void *self, struct core_view *v, struct core_issue *is)
{
    struct core_gs *g = self;
    if (is->merged)
        return gs_retire_merged(g, v, is);
    if (!is->nrows)
        return 0;
    const struct core_dinst *di = is->di;
    unsigned slot = is->slot;
    struct core_warp *w = &v->w[slot];
    if (w->sw.nframes > is->nframes) {  /* a call: the callee's zeroed frame */
        unsigned k = w->sw.nframes - 1;
        int e = core_rvc_frame_start(&g->rvc, slot, k, w->sw.frames[k].func);
        if (e)
            return e;
    }
    unsigned moves = 0;
    /* a bar.red result is written at the release (gs_bar_release) */
    unsigned nd = is->rc == SIMT_RC_BARRIER && w->sw.bar_red ? 0 : di->ndst;
    int e = core_rvc_write(&g->rvc, &w->sw, slot, is->at.frame, is->at.f, is->at.pc,
                           di->dst, nd, w->sw.res.active, di->unit, is->unit_ix, is->coll,
                           is->now, &moves);
    if (e)
        return e;
    is->moves += moves;
    bool run;
    e = core_gs_retire(&g->rvc, &w->sw, is->at.frame, is->at.f, is->at.pc, di->unit,
                       di->ecls, g->cls, g->halves, w->sw.res.active, is->now, &run);
    if (e)
        return e;
    is->ii = run ? core_gs_ii(g->cls, g->halves, v->lanes[di->unit]) : 0;
    return 0;
}

/* The next instruction's operands' stored state, on its way to the cache
 * before its reads and write (a warp's own registers). */
static void gs_next_inst(void *self, const struct core_view *v, const struct core_issue *is,
                         const struct core_dinst *nd)
{
    const struct simt_warp *sw = &v->w[is->slot].sw;
    if (is->merged || !sw->sp)
        return;
    core_rvc_prefetch(&((struct core_gs *)self)->rvc, is->slot,
                      sw->stack[sw->sp - 1].frame, nd->src, nd->nsrc, nd->dst, nd->ndst);
}

/* The write-back of a bar.red result (written at the barrier's release,
 * not at issue) through the compressor; a failure stays in rvc.why and
 * stops the SM's next cycle. */
static void gs_bar_release(void *self, struct core_view *v, unsigned slot, uint64_t now)
{
    struct core_gs *g = self;
    struct core_warp *w = &v->w[slot];
    const struct simt_entry *t = &w->sw.stack[w->sw.sp - 1];
    const struct ptx_func *f = w->sw.frames[t->frame].func;
    if (w->sw.bar_pc < 0 || (uint32_t)w->sw.bar_pc >= f->ninsts)
        return;
    const struct core_dinst *di = core_view_dinst(v, f, (uint32_t)w->sw.bar_pc);
    unsigned moves;
    (void)core_rvc_write(&g->rvc, &w->sw, slot, t->frame, f, w->sw.bar_pc, di->dst,
                         di->ndst, w->sw.bar_mask, CORE_U_NONE, -1, 0, now, &moves);
}

static int gs_cycle(void *self, struct core_view *v, uint64_t now)
{
    (void)v;
    (void)now;
    return ((struct core_gs *)self)->rvc.why ? LS_ERR_COSIM : 0;
}

static const char *gs_why(const void *self, int e, uint32_t *line)
{
    *line = 0;
    return e ? ((const struct core_gs *)self)->rvc.why : NULL;
}

static int gs_finish(void *self, uint64_t end)
{
    return core_rvc_finish(&((struct core_gs *)self)->rvc, end);
}

static void gs_stats(const void *self, bool first, ls_stats *s)
{
    (void)first;
    core_rvc_stats(&((const struct core_gs *)self)->rvc, s);
}

const struct core_mech_ops core_gscalar_mech = {
    .name = "gscalar",
    .kind = CORE_MECH_AUGMENT,
    .on = gs_on,
    .init = gs_init,
    .free = gs_free,
    .kernel = gs_kernel,
    .stats = gs_stats,
    .finish = gs_finish,
    .why = gs_why,
    .warp_start = gs_warp_start,
    .cycle = gs_cycle,
    .rows = true,
    .before = gs_before,
    .retire = gs_retire,
    .next_inst = gs_next_inst,
    .bar_release = gs_bar_release,
};
