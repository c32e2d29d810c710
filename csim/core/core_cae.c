/* CAE, compact affine execution: register classes and the compact
 * decision (core_cae.h; docs/dac.md "Comparison points"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core_cae.h"
#include "core/core_gscalar.h"
#include "simt/simt.h"
#include "core/core.h"
#include "core/core_mech.h"

#define FULL_MASK 0xffffffffu

int core_cae_init(struct core_cae *u, unsigned nslots, unsigned nregs, char *err, size_t errlen)
{
    core_cae_free(u);
    if (!nslots)
        return 0;
    if (!nregs)
        nregs = 1;
    u->cls = calloc((size_t)nslots * nregs, 1);
    u->frames = calloc(nslots, sizeof *u->frames);
    if (!u->cls || !u->frames) {
        core_cae_free(u);
        snprintf(err, errlen, "out of memory for the CAE register classes [%s:%d]",
                 __FILE__, __LINE__);
        return -1;
    }
    u->nslots = nslots;
    u->nregs = nregs;
    u->on = true;
    return 0;
}

void core_cae_free(struct core_cae *u)
{
    free(u->cls);
    free(u->frames);
    memset(u, 0, sizeof *u);
}

void core_cae_warp_start(struct core_cae *u, unsigned slot)
{
    if (!u->on || slot >= u->nslots)
        return;
    memset(u->cls + (size_t)slot * u->nregs, CORE_CAE_VEC, u->nregs);
    u->frames[slot] = 1;
}

unsigned core_cae_detect(const uint64_t *v, unsigned bits, uint32_t mask)
{
    if (mask != FULL_MASK)
        return CORE_CAE_VEC;
    uint64_t m = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    uint64_t stride = (v[1] - v[0]) & m;
    for (unsigned l = 2; l < 32; l++)
        if (((v[0] + (uint64_t)l * stride) & m) != (v[l] & m))
            return CORE_CAE_VEC;
    return stride ? CORE_CAE_AFF : CORE_CAE_UNI;
}

static bool int_type(unsigned t)
{
    return t != PTX_T_NONE && t != PTX_T_PRED && !ptx_type_is_float((enum ptx_type)t) &&
           t != PTX_T_F16X2;
}

/* a x b with one factor uniform */
static unsigned product(unsigned a, unsigned b)
{
    return a == CORE_CAE_AFF && b == CORE_CAE_AFF ? CORE_CAE_VEC : (a > b ? a : b);
}

unsigned core_cae_result(const struct ptx_inst *in, const uint8_t *src, unsigned n)
{
    unsigned j = CORE_CAE_UNI;
    for (unsigned i = 0; i < n; i++) {
        if (src[i] == CORE_CAE_VEC)
            return CORE_CAE_VEC;
        if (src[i] == CORE_CAE_AFF)
            j = CORE_CAE_AFF;
    }
    if (j == CORE_CAE_UNI)
        return CORE_CAE_UNI;
    bool integer = int_type(in->type), sat = (in->flags & PTX_F_SAT) != 0;
    switch ((enum ptx_op)in->op) {
    case PTX_OP_MOV: case PTX_OP_CVTA:
        return j;
    case PTX_OP_ADD: case PTX_OP_SUB:
        return integer && !sat ? j : CORE_CAE_VEC;
    case PTX_OP_NEG:
        return integer ? j : CORE_CAE_VEC;
    case PTX_OP_MUL:
        if (!integer || (in->flags & PTX_F_HI) || n < 2)
            return CORE_CAE_VEC;
        return product(src[0], src[1]);
    case PTX_OP_MAD:
        if (!integer || sat || (in->flags & PTX_F_HI) || n < 3)
            return CORE_CAE_VEC;
        return product(src[0], src[1]) == CORE_CAE_VEC ? CORE_CAE_VEC : CORE_CAE_AFF;
    case PTX_OP_SHL:
        return integer && n >= 2 && src[1] == CORE_CAE_UNI ? src[0] : CORE_CAE_VEC;
    case PTX_OP_CVT:
        return integer && int_type(in->type2) && !sat && in->rnd == PTX_RND_NONE
               ? j : CORE_CAE_VEC;
    default:
        return CORE_CAE_VEC;
    }
}

/* The class of a source operand o of warp slot (cls: its registers). */
static unsigned opnd_class(const struct core_cae *u, const uint8_t *cls, const struct ptx_operand *o)
{
    switch (o->kind) {
    case PTX_O_REG:
    case PTX_O_MEM:
        if (o->reg < 0)
            return CORE_CAE_UNI;
        return (uint32_t)o->reg < u->nregs ? cls[o->reg] : CORE_CAE_VEC;
    case PTX_O_VEC: {
        unsigned j = CORE_CAE_UNI;
        for (unsigned k = 0; k < o->vec_n && k < 4; k++) {
            int32_t r = o->vec_regs[k];
            unsigned c = r >= 0 && (uint32_t)r < u->nregs ? cls[r] : CORE_CAE_VEC;
            if (c == CORE_CAE_VEC)
                return c;
            if (c == CORE_CAE_AFF)
                j = c;
        }
        /* a pack of several affine values is not one affine value */
        return j == CORE_CAE_AFF && o->vec_n > 1 ? CORE_CAE_VEC : j;
    }
    case PTX_O_SREG:
        /* thread and lane ids are affine in the hardware that makes them
         * (their users' results are checked, see core_cae_retire); lane
         * masks are per lane; every other special register is uniform */
        if (o->sreg <= PTX_SR_TID_Z || o->sreg == PTX_SR_LANEID)
            return CORE_CAE_AFF;
        if (o->sreg >= PTX_SR_LANEMASK_EQ && o->sreg <= PTX_SR_LANEMASK_GE)
            return CORE_CAE_VEC;
        return CORE_CAE_UNI;
    default:
        return CORE_CAE_UNI;    /* immediates, symbols, labels */
    }
}

static unsigned reg_bits(const struct ptx_func *f, int32_t r)
{
    enum ptx_type t = (enum ptx_type)f->regs[r].type;
    return t == PTX_T_PRED ? 1 : ptx_type_bits(t);
}

bool core_cae_retire(struct core_cae *u, unsigned slot, const struct simt_warp *w,
                     unsigned frame, const struct ptx_func *f, int32_t pc, unsigned unit,
                     uint32_t active)
{
    if (!u->on || slot >= u->nslots || (uint32_t)pc >= f->ninsts)
        return false;
    uint8_t *cls = u->cls + (size_t)slot * u->nregs;
    if (u->frames[slot] != w->nframes) {   /* a call or return: start over */
        memset(cls, CORE_CAE_VEC, u->nregs);
        u->frames[slot] = w->nframes;
        if (frame >= w->nframes)
            return false;
    }
    u->st.insts++;
    const struct ptx_inst *in = &f->insts[pc];
    enum ptx_op op = (enum ptx_op)in->op;
    enum ptx_unit pu = ptx_op_unit(op);
    unsigned nd = ptx_inst_ndst(in);
    bool full = active == FULL_MASK, comp = false, aff = false;
    uint8_t src[PTX_MAX_OPNDS];
    unsigned ns = 0;
    if (unit == 2 && pu == PTX_UNIT_MEM) {
        /* address generation: ld/st of a space one address serves (the
         * G-Scalar MEM rule) with a uniform or affine address; the data
         * still moves per lane */
        if (full && core_gs_op_ok(f, in, unit)) {
            unsigned a = CORE_CAE_VEC;
            for (unsigned i = 0; i < in->nopnd && i < PTX_MAX_OPNDS; i++)
                if (in->o[i].kind == PTX_O_MEM)
                    a = opnd_class(u, cls, &in->o[i]);
            comp = a != CORE_CAE_VEC;
            aff = a == CORE_CAE_AFF;
        }
    } else if (unit <= 1 && (pu == PTX_UNIT_ALU || pu == PTX_UNIT_SFU) && full &&
               op != PTX_OP_ADDC && op != PTX_OP_SUBC && op != PTX_OP_MADC) {
        for (unsigned i = nd; i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
            if (in->o[i].kind == PTX_O_NONE)
                continue;
            src[ns] = (uint8_t)opnd_class(u, cls, &in->o[i]);
            aff |= src[ns] == CORE_CAE_AFF;
            ns++;
        }
        comp = core_cae_result(in, src, ns) != CORE_CAE_VEC;
    }
    /* the destinations' classes from the values written */
    const uint64_t *regs = frame < w->nframes ? w->frames[frame].regs : NULL;
    bool det = regs && unit <= 2;
    bool vec_result = false;
    for (unsigned i = 0; i < nd && i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
        int32_t rr[4];
        unsigned nr = ptx_opnd_regs(&in->o[i], rr);
        for (unsigned k = 0; k < nr; k++) {
            int32_t r = rr[k];
            if (r < 0 || (uint32_t)r >= u->nregs || (uint32_t)r >= f->nregs)
                continue;
            unsigned c = det ? core_cae_detect(regs + (size_t)r * 32, reg_bits(f, r), active)
                             : CORE_CAE_VEC;
            cls[r] = (uint8_t)c;
            if (det && full) {
                u->st.writes++;
                u->st.writes_uniform += c == CORE_CAE_UNI;
                u->st.writes_affine += c == CORE_CAE_AFF;
            }
            vec_result |= c == CORE_CAE_VEC;
        }
    }
    /* a compact ALU/SFU result is uniform or affine by construction except
     * where a widening op (cvt, mul.wide, mad.wide) or a thread id of a
     * block narrower than a warp breaks the lane progression: the hardware's
     * range check sends it to every lane */
    if (comp && unit <= 1 && vec_result) {
        u->st.fallback++;
        comp = false;
    }
    if (comp) {
        u->st.compact[unit]++;
        u->st.compact_affine += aff;
    }
    return comp;
}

/* ------------------------------------------- the SM mechanism (core_mech.h) */

static bool cae_on(const struct cfg *c)
{
    return c->affine_mode == CFG_AFFINE_MODE_CAE;
}

static int cae_init(void **self, struct core_view *v, const struct core_mech_env *e,
                    char *err, size_t n)
{
    (void)v;
    (void)e;
    *self = calloc(1, sizeof(struct core_cae));
    if (!*self) {
        snprintf(err, n, "host memory exhausted (CAE) [%s:%d]", __FILE__, __LINE__);
        return -1;
    }
    return 0;
}

static void cae_free(void *self)
{
    if (self)
        core_cae_free(self);
    free(self);
}

/* Register classes per slot for the kernel's registers, statistics per
 * launch. */
static int cae_kernel(void *self, struct core_view *v, uint64_t now)
{
    (void)now;
    char err[128];
    uint32_t nr = v->k->prog->max_regs ? v->k->prog->max_regs : 1;
    return core_cae_init(self, v->nslots, nr, err, sizeof err) != 0 ? -1 : 1;
}

static int cae_warp_start(void *self, struct core_view *v, unsigned slot, uint32_t valid,
                          uint64_t now)
{
    (void)v;
    (void)valid;
    (void)now;
    core_cae_warp_start(self, slot);
    return 0;
}

/* A compact instruction takes one lane-cycle (G-Scalar's occupancy of a
 * scalar instruction) and reads its operands as affine tuples. */
static int cae_retire(void *self, struct core_view *v, struct core_issue *is)
{
    if (!is->at.f)
        return 0;
    const struct core_dinst *di = is->di;
    const struct simt_warp *w = &v->w[is->slot].sw;
    bool compact = core_cae_retire(self, is->slot, w, is->at.frame, is->at.f, is->at.pc,
                                   di->unit, w->res.active);
    is->compact = compact;
    is->ii = compact ? core_gs_ii(LS_GS_ALU + di->unit, 0, v->lanes[di->unit]) : 0;
    return 0;
}

static void cae_stats(const void *self, bool first, ls_stats *s)
{
    (void)first;
    const struct core_cae *u = self;
    if (!u->on)
        return;
    uint64_t *xa = (uint64_t *)&s->cae;     /* every member is a uint64_t */
    const uint64_t *xs = (const uint64_t *)&u->st;
    for (size_t j = 0; j < sizeof s->cae / sizeof *xa; j++)
        xa[j] += xs[j];
    s->cae.launches = 1;
}

const struct core_mech_ops core_cae_mech = {
    .name = "cae",
    .kind = CORE_MECH_AUGMENT,
    .on = cae_on,
    .init = cae_init,
    .free = cae_free,
    .kernel = cae_kernel,
    .stats = cae_stats,
    .warp_start = cae_warp_start,
    .retire = cae_retire,
};
