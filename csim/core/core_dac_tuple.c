/* The affine warp's execution on the basis lanes (docs/dac.md "The
 * hardware"): per CTA of the batch, the instruction runs on four basis
 * threads (tid 0, e_x, e_y, e_z), whose values are the tuple of the paper;
 * the PEU expands predicate definitions into per-thread bit vectors, makes
 * the masks of selected values (4.6), and widening operations are checked
 * exact for every thread. Pass scheduling and the queues are in
 * core_dac.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "core/core_dac.h"
#include "core/core_dac_int.h"
#include "exec/exec_mem.h"

/* core_dac_tid of every lane of warp wi (its divisions once per warp: the
 * tid steps from lane to lane). */
static void warp_tids(const struct core_kernel *k, unsigned wi, uint32_t tid[EXEC_WARP][3])
{
    core_dac_tid(k, wi, 0, tid[0]);
    for (unsigned l = 1; l < EXEC_WARP; l++) {
        tid[l][0] = tid[l - 1][0] + 1;
        tid[l][1] = tid[l - 1][1];
        tid[l][2] = tid[l - 1][2];
        if (tid[l][0] == k->ntid[0]) {
            tid[l][0] = 0;
            if (++tid[l][1] == k->ntid[1]) {
                tid[l][1] = 0;
                tid[l][2]++;
            }
        }
    }
}

static void opnd_basis(const struct simt_warp *bw, const struct ptx_operand *o,
                       enum ptx_type t, uint64_t v[4])
{
    for (unsigned l = 0; l < 4; l++)
        v[l] = exec_read(&bw->ew, o, t, l);
}

static int64_t sext(uint64_t v, unsigned bits)
{
    return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}

static bool int_cmp(unsigned cmp, bool sgn, unsigned bits, uint64_t a, uint64_t b,
                    bool *ok)
{
    int64_t sa = sext(a, bits), sb = sext(b, bits);
    *ok = true;
    switch (cmp) {
    case PTX_CMP_EQ: return a == b;
    case PTX_CMP_NE: return a != b;
    case PTX_CMP_LT: return sgn ? sa < sb : a < b;
    case PTX_CMP_LE: return sgn ? sa <= sb : a <= b;
    case PTX_CMP_GT: return sgn ? sa > sb : a > b;
    case PTX_CMP_GE: return sgn ? sa >= sb : a >= b;
    case PTX_CMP_LO: return a < b;
    case PTX_CMP_LS: return a <= b;
    case PTX_CMP_HI: return a > b;
    case PTX_CMP_HS: return a >= b;
    default: *ok = false; return false;
    }
}

/* Per-slot mask of predicate operand o (a register's PEU masks, or an
 * immediate), '!' applied. */
static void pred_masks(const struct core_dac *d, const struct ptx_operand *o, uint32_t *m)
{
    for (unsigned w = 0; w < d->nslots; w++) {
        uint32_t v = o->kind == PTX_O_REG ? d->pm[(size_t)o->reg * CORE_DAC_MAXS + w]
                                          : (o->imm ? ~0u : 0u);
        m[w] = o->neg ? ~v : v;
    }
}

void core_dac_guard_masks(const struct core_dac *d, const struct ptx_inst *in, uint32_t *m)
{
    for (unsigned w = 0; w < d->nslots; w++) {
        uint32_t v = in->guard >= 0 ? d->pm[(size_t)in->guard * CORE_DAC_MAXS + w] : ~0u;
        m[w] = in->guard >= 0 && in->guard_neg ? ~v : v;
    }
}

/* The basis warp and CTA-relative warp index of slot in the batch, or
 * NULL when the slot holds no warp of the batch. */
static const struct simt_warp *slot_basis(const struct core_dac *d, unsigned slot,
                                          unsigned *wi)
{
    int32_t ci = d->scta[slot];     /* d->v->w[slot].cta */
    if (ci < 0 || !(d->batch >> ci & 1))
        return NULL;
    *wi = d->swi[slot];             /* d->v->w[slot].sw.gridv.warpid */
    return &d->bw[ci];
}

/* Operand o at the basis lanes of warp slot w's CTA (bw: its piece A
 * warp): piece A into v; when o is a selected value (pa[]), piece B into
 * v2 and the lanes taking A into *sel, else v2 = v and *sel all lanes. */
static void opnd_pieces(const struct core_dac *d, const struct simt_warp *bw, unsigned w,
                        const struct ptx_operand *o, enum ptx_type t, uint64_t v[4],
                        uint64_t v2[4], uint32_t *sel)
{
    opnd_basis(bw, o, t, v);
    int32_t r = o->kind == PTX_O_REG || o->kind == PTX_O_MEM ? o->reg : -1;
    if (r >= 0 && d->pa[r]) {
        opnd_basis(bw + d->ncta, o, t, v2);
        *sel = d->pm[(size_t)r * CORE_DAC_MAXS + w];
    } else {
        memcpy(v2, v, 4 * sizeof *v);
        *sel = ~0u;
    }
}

/* The register of operand o, or -1. */
static int32_t opnd_reg(const struct ptx_operand *o)
{
    return o->kind == PTX_O_REG ? o->reg : -1;
}

const uint64_t *core_dac_vec_lanes(const struct core_dac *d, int32_t reg, unsigned w)
{
    if (reg < 0 || (uint32_t)reg >= d->vix_regs || d->vix[reg] < 0 ||
        !(d->vr[d->vix[reg]] >> w & 1))
        return NULL;
    return d->vv + ((size_t)d->vix[reg] * CORE_DAC_MAXS + w) * EXEC_WARP;
}

/* The value of register reg at lane (thread tid) of warp slot w of CTA
 * slot ci: a predicate's bit of its PEU vector, a vector's lane, else the
 * tuple (piece B where a selected value's lane takes it) by function (1),
 * modulo the register's width. */
static uint64_t lane_value(const struct core_dac *d, unsigned ci, unsigned w, int32_t reg,
                           const uint32_t tid[3], unsigned lane)
{
    enum ptx_type t = (enum ptx_type)d->f->regs[reg].type;
    if (t == PTX_T_PRED)
        return d->pm[(size_t)reg * CORE_DAC_MAXS + w] >> lane & 1;
    const uint64_t *vl = core_dac_vec_lanes(d, reg, w);
    if (vl)
        return vl[lane];
    const struct simt_warp *bw = &d->bw[ci];
    if (d->pa[reg] && !(d->pm[(size_t)reg * CORE_DAC_MAXS + w] >> lane & 1))
        bw = &d->bw[d->ncta + ci];
    uint64_t v[4];
    for (unsigned l = 0; l < 4; l++)
        v[l] = bw->ew.regs[(size_t)reg * EXEC_WARP + l];
    unsigned bits = ptx_type_bits(t);
    return core_dac_tup_at(v, tid, bits ? bits : 64);
}

int core_dac_vec_exec(struct core_dac *d, int32_t pc, const struct ptx_inst *in,
                      const struct core_dinst *cd, const uint32_t *am, unsigned *nissue)
{
    struct simt_warp *s = &d->bw[2 * d->ncta];
    int32_t dst = cd->ndst == 1 ? cd->dst[0] : -1;
    int32_t x = dst >= 0 && (uint32_t)dst < d->vix_regs ? d->vix[dst] : -1;
    *nissue = 0;
    if (x < 0 || in->o[0].kind != PTX_O_REG || in->o[0].reg != dst) {
        core_dac_fail(d, in->line, "DAC: vector instruction at PTX line %u (pc %d) has no "
                 "vector register destination: not modelled", in->line, pc);
        return -1;
    }
    struct ptx_inst u = *in;
    u.guard = -1;               /* am holds the lanes its guard lets through */
    for (unsigned w = 0; w < d->nslots; w++) {
        unsigned wi;
        const struct simt_warp *bw = am[w] ? slot_basis(d, w, &wi) : NULL;
        if (!bw)
            continue;
        unsigned ci = (unsigned)d->scta[w];
        uint32_t tids[EXEC_WARP][3];
        warp_tids(d->v->k, wi, tids);
        memcpy(s->gridv.ctaid, bw->gridv.ctaid, sizeof s->gridv.ctaid);
        EXEC_FOR_EACH_LANE(am[w], lane, {
            memcpy(s->ew.ids[lane].tid, tids[lane], sizeof s->ew.ids[lane].tid);
            s->ew.ids[lane].laneid = lane;
            for (unsigned i = 0; i < cd->nsrc; i++)
                if (cd->src[i] >= 0)
                    s->ew.regs[(size_t)cd->src[i] * EXEC_WARP + lane] =
                        lane_value(d, ci, w, cd->src[i], tids[lane], lane);
        });
        if (exec_alu(&s->ew, &u, am[w], &s->res, &s->err) != 0) {
            core_dac_fail(d, in->line, "DAC: the affine warp failed at PTX line %u: %s",
                     in->line, s->err.msg);
            return -1;
        }
        uint64_t *vl = d->vv + ((size_t)x * CORE_DAC_MAXS + w) * EXEC_WARP;
        EXEC_FOR_EACH_LANE(am[w], lane, {
            vl[lane] = s->ew.regs[(size_t)dst * EXEC_WARP + lane];
        });
        if (d->fault == 4)
            vl[__builtin_ctz(am[w])] += 1;  /* fault injection: the golden check must fail */
        d->vr[x] |= 1ull << w;
        d->st.vec_lanes += (uint64_t)__builtin_popcount(am[w]);
        ++*nissue;
    }
    d->pa[dst] = 0;
    d->st.vec_issues += *nissue;
    return 0;
}

/* Writes v into the lanes am of warp slot w's vector of predicate
 * register reg; the other lanes keep theirs (a guarded or divergent
 * definition merges per thread: docs/dac.md, the PEU). */
static void pm_merge(struct core_dac *d, int32_t reg, unsigned w, uint32_t v, uint32_t am)
{
    uint32_t *p = &d->pm[(size_t)reg * CORE_DAC_MAXS + w];
    *p = (*p & ~am) | (v & am);
}

/* The PEU evaluation of a predicate-defining affine-stream instruction
 * (after the basis lanes ran it): per-thread masks of its destinations,
 * merged under the instruction's mask am. */
int core_dac_pred_def(struct core_dac *d, const struct ptx_inst *in, const uint32_t *am)
{
    const struct core_kernel *k = d->v->k;
    unsigned ns = d->nslots;
    uint32_t p[CORE_DAC_MAXS], c[CORE_DAC_MAXS];
    if (in->op == PTX_OP_SETP) {
        enum ptx_type t = (enum ptx_type)in->type2;
        unsigned bits = ptx_type_bits(t);
        bool fl = ptx_type_is_float(t), sgn = ptx_type_is_signed(t);
        for (unsigned w = 0; w < ns; w++) {
            p[w] = 0;
            unsigned wi;
            const struct simt_warp *bw = am[w] ? slot_basis(d, w, &wi) : NULL;
            if (!bw)
                continue;
            uint64_t a[4], b[4], a2[4], b2[4];
            uint32_t sa, sb;        /* lanes taking piece A of a selected operand */
            opnd_pieces(d, bw, w, &in->o[2], t, a, a2, &sa);
            opnd_pieces(d, bw, w, &in->o[3], t, b, b2, &sb);
            uint32_t pb = 0;        /* the basis lanes' own results */
            for (unsigned l = 0; l < 4; l++)
                pb |= (uint32_t)(exec_read(&bw->ew, &in->o[0], PTX_T_PRED, l) & 1) << l;
            if (fl && pb != 0 && pb != 0xf) {
                core_dac_fail(d, in->line, "DAC: setp on a float that differs between "
                         "threads in the affine stream at PTX line %u is not modelled",
                         in->line);
                return -1;
            }
            uint32_t tids[EXEC_WARP][3];
            if (!fl)
                warp_tids(k, wi, tids);
            /* a vector operand: the PEU compares its lanes */
            const uint64_t *va = core_dac_vec_lanes(d, opnd_reg(&in->o[2]), w);
            const uint64_t *vb = core_dac_vec_lanes(d, opnd_reg(&in->o[3]), w);
            uint64_t bm = bits >= 64 ? ~0ull : (1ull << bits) - 1;
            EXEC_FOR_EACH_LANE(am[w], lane, {
                bool r = pb != 0;
                if (!fl) {
                    const uint32_t *tid = tids[lane];
                    bool ok;
                    r = int_cmp(in->cmp, sgn, bits,
                                va ? va[lane] & bm
                                   : core_dac_tup_at(sa >> lane & 1 ? a : a2, tid, bits),
                                vb ? vb[lane] & bm
                                   : core_dac_tup_at(sb >> lane & 1 ? b : b2, tid, bits), &ok);
                    if (!ok) {
                        core_dac_fail(d, in->line, "DAC: integer setp compare %u at PTX line "
                                 "%u is not modelled by the PEU", in->cmp, in->line);
                        return -1;
                    }
                }
                p[w] |= (uint32_t)r << lane;
            });
        }
        bool bop = in->sub == PTX_SUB_AND || in->sub == PTX_SUB_OR || in->sub == PTX_SUB_XOR;
        if (bop)
            pred_masks(d, &in->o[4], c);
        for (unsigned w = 0; w < ns; w++) {
            uint32_t np = ~p[w];
            if (bop) {
                uint32_t cc = c[w];
                p[w] = in->sub == PTX_SUB_AND ? (p[w] & cc) : in->sub == PTX_SUB_OR
                                                ? (p[w] | cc) : (p[w] ^ cc);
                np = in->sub == PTX_SUB_AND ? (np & cc) : in->sub == PTX_SUB_OR
                                              ? (np | cc) : (np ^ cc);
                d->st.peu_ops += am[w] != 0;     /* the PEU combines vectors */
            }
            pm_merge(d, in->o[0].reg, w, p[w], am[w]);
            if (in->o[1].kind == PTX_O_REG)
                pm_merge(d, in->o[1].reg, w, np, am[w]);
        }
        return 0;
    }
    if (in->type == PTX_T_PRED &&
        (in->op == PTX_OP_AND || in->op == PTX_OP_OR || in->op == PTX_OP_XOR ||
         in->op == PTX_OP_NOT || in->op == PTX_OP_MOV)) {
        pred_masks(d, &in->o[1], p);
        if (in->op == PTX_OP_AND || in->op == PTX_OP_OR || in->op == PTX_OP_XOR)
            pred_masks(d, &in->o[2], c);
        for (unsigned w = 0; w < ns; w++) {
            uint32_t v = in->op == PTX_OP_AND ? (p[w] & c[w])
                       : in->op == PTX_OP_OR ? (p[w] | c[w])
                       : in->op == PTX_OP_XOR ? (p[w] ^ c[w])
                       : in->op == PTX_OP_NOT ? ~p[w] : p[w];
            d->st.peu_ops += in->op != PTX_OP_MOV && am[w] != 0;
            pm_merge(d, in->o[0].reg, w, v, am[w]);
        }
        return 0;
    }
    core_dac_fail(d, in->line, "DAC: predicate definition %s at PTX line %u in the affine "
             "stream is not modelled by the PEU", ptx_op_name((enum ptx_op)in->op),
             in->line);
    return -1;
}

/* Widening exactness (docs/dac.md "Exactness"): the destination tuple of
 * cvt to a wider integer, mul.wide or mad.wide must give every thread of
 * the batch the value its own narrow operands give. */
int core_dac_widen_check(struct core_dac *d, const struct ptx_inst *in, const uint32_t *am)
{
    const struct core_kernel *k = d->v->k;
    bool cvt = in->op == PTX_OP_CVT;
    bool wide = (in->op == PTX_OP_MUL || in->op == PTX_OP_MAD) && (in->flags & PTX_F_WIDE);
    enum ptx_type st = (enum ptx_type)(cvt ? in->type2 : in->type);
    if (!(cvt || wide) || ptx_type_is_float(st) ||
        (cvt && ptx_type_is_float((enum ptx_type)in->type)))
        return 0;
    unsigned sb = ptx_type_bits(st);
    unsigned db = cvt ? ptx_type_bits((enum ptx_type)in->type) : 2 * sb;
    if (db <= sb || in->o[0].kind != PTX_O_REG)
        return 0;
    enum ptx_type dt = db == 64 ? PTX_T_U64 : db == 32 ? PTX_T_U32 : PTX_T_U16;
    bool sgn = ptx_type_is_signed(st);
    uint64_t dm = db >= 64 ? ~0ull : (1ull << db) - 1;
    d->st.widen_checks++;
    for (unsigned w = 0; w < d->nslots; w++) {
        unsigned wi;
        const struct simt_warp *bw = am[w] ? slot_basis(d, w, &wi) : NULL;
        if (!bw)
            continue;
        /* piece A and B of each operand (equal unless it is selected) */
        uint64_t a[2][4], b[2][4], c[2][4], r[2][4];
        uint32_t sa, sbm = ~0u, sc = ~0u, sr;
        opnd_pieces(d, bw, w, &in->o[1], st, a[0], a[1], &sa);
        if (wide)
            opnd_pieces(d, bw, w, &in->o[2], st, b[0], b[1], &sbm);
        if (in->op == PTX_OP_MAD)
            opnd_pieces(d, bw, w, &in->o[3], dt, c[0], c[1], &sc);
        opnd_pieces(d, bw, w, &in->o[0], dt, r[0], r[1], &sr);
        uint32_t tids[EXEC_WARP][3];
        warp_tids(k, wi, tids);
        EXEC_FOR_EACH_LANE(am[w], lane, {
            const uint32_t *tid = tids[lane];
            uint64_t x = core_dac_tup_at(a[!(sa >> lane & 1)], tid, sb);
            uint64_t ex = sgn ? (uint64_t)sext(x, sb) : x;
            uint64_t v = ex;
            if (wide) {
                uint64_t y = core_dac_tup_at(b[!(sbm >> lane & 1)], tid, sb);
                v = ex * (sgn ? (uint64_t)sext(y, sb) : y);
                if (in->op == PTX_OP_MAD)
                    v += core_dac_tup_at(c[!(sc >> lane & 1)], tid, db);
            }
            v &= dm;
            uint64_t tv = core_dac_tup_at(r[!(sr >> lane & 1)], tid, db);
            if (v != tv) {
                core_dac_fail(d, in->line, "DAC: widening at PTX line %u is not exact for "
                         "thread (%u,%u,%u) of CTA (%u,%u,%u): its own value 0x%llx, "
                         "the tuple's 0x%llx (the %u-bit values wrap inside the batch; "
                         "docs/dac.md Exactness)", in->line, tid[0], tid[1], tid[2],
                         bw->gridv.ctaid[0], bw->gridv.ctaid[1], bw->gridv.ctaid[2],
                         (unsigned long long)v, (unsigned long long)tv, sb);
                return -1;
            }
        });
    }
    return 0;
}

/* Sets up basis warp ix (CTA slot ix % ncta; piece B of selected values
 * when ix >= ncta). Returns 0 or -1. */
int core_dac_basis_start(struct core_dac *d, uint32_t ix)
{
    const struct core_kernel *k = d->v->k;
    struct simt_warp *s = &d->bw[ix];
    uint32_t ci = ix % d->ncta;
    const struct core_cta *cta = &d->v->cta[ci];
    if (simt_warp_start(s, k->mod, k->f, 0xfu, k->sym1, k->frame0) != 0) {
        core_dac_fail(d, k->f->line, "host memory exhausted (affine warp)");
        return -1;
    }
    memcpy(s->gridv.ntid, k->ntid, sizeof s->gridv.ntid);
    memcpy(s->gridv.nctaid, k->nctaid, sizeof s->gridv.nctaid);
    memcpy(s->gridv.ctaid, cta->ctaid, sizeof s->gridv.ctaid);
    s->gridv.warpid = 0;
    s->gridv.nwarpid = k->nwarps;
    s->gridv.smid = d->v->id;
    s->gridv.nsmid = (uint32_t)d->v->c->num_sms;
    s->gridv.dyn_smem = k->dyn_smem;
    s->gridv.total_smem = (uint32_t)((k->shared_bytes + 255) / 256 * 256);
    s->ew.grid = &s->gridv;
    s->ew.clock = &d->v->clock_now;
    s->ew.sym_addr[0] = k->sym0;
    s->commit = NULL;           /* not a thread of the program */
    s->chkw.chk = NULL;
    s->ext = NULL;
    memset(s->ew.ids, 0, sizeof s->ew.ids);
    for (unsigned l = 1; l < 4; l++)
        s->ew.ids[l].tid[l - 1] = 1;
    s->mem.dmem = k->dmem;
    s->mem.last = NULL;
    s->mem.shared = cta->shared;
    s->mem.shared_bytes = k->shared_bytes;
    s->mem.local = d->v->local_slot[d->wslot[ci][0]];
    s->mem.local_stride = k->local_stride;
    s->mem.param = k->param;
    s->mem.param_bytes = k->param_bytes;
    s->mem.tex = k->tex;
    s->mem.ntex = k->ntex;
    return 0;
}

/* Runs in on basis warp bw with the lanes 0xf: unguarded when its guard
 * is false at a basis lane (an ALU/SFU instruction: the analysis keeps a
 * guarded definition affine only when no earlier one reaches it, so the
 * unguarded tuple is the value of every thread the guard lets through; a
 * predicate's per-thread vector is merged under the guard by pred_def;
 * anything else is refused, not modelled), with a selp's predicate forced
 * to sel (0 or 1) when sel >= 0 (a min/max: a mov of its first source
 * when sel is 1, of its second when 0). Returns 0 or -1 (d->why). */
static int basis_run(struct core_dac *d, struct simt_warp *bw, int32_t pc,
                     const struct ptx_inst *in, const struct core_dinst *cd, int sel)
{
    bool unguard = in->guard >= 0 && exec_guard_mask(&bw->ew, in, 0xfu) != 0xfu;
    if (unguard && cd->unit != CORE_U_ALU && cd->unit != CORE_U_SFU) {
        core_dac_fail(d, in->line, "DAC: affine-stream instruction at PTX line %u is guarded "
                 "by a predicate false at a basis thread of the tuple: not modelled",
                 in->line);
        return -1;
    }
    int rc;
    if (unguard || sel >= 0) {
        struct ptx_inst u = *in;
        u.guard = -1;
        if (sel >= 0 && (in->op == PTX_OP_MIN || in->op == PTX_OP_MAX)) {
            u.op = PTX_OP_MOV;   /* min/max d, a, b: piece A a, piece B b */
            u.o[1] = in->o[sel ? 1 : 2];
            u.o[2].kind = PTX_O_NONE;
            u.nopnd = 2;
        } else if (sel >= 0) {   /* selp d, a, b, c: c := sel */
            u.o[3].kind = PTX_O_IMM;
            u.o[3].imm = sel;
            u.o[3].neg = 0;
        }
        rc = exec_alu(&bw->ew, &u, 0xfu, &bw->res, &bw->err);
    } else {
        rc = simt_exec_at(bw, pc, 0xfu) != SIMT_RC_OK;
    }
    if (rc != 0) {
        core_dac_fail(d, in->line, "DAC: the affine warp failed at PTX line %u: %s", in->line,
                 bw->err.msg);
        return -1;
    }
    return 0;
}

/* The PEU's compare of a min/max select (4.6) whose sources are plain
 * tuples: per slot, the lanes of am whose first source is the min (max),
 * which take piece A, into m; one PEU operation per warp. */
static void minmax_masks(struct core_dac *d, const struct ptx_inst *in, const uint32_t *am,
                         uint32_t *m)
{
    enum ptx_type t = (enum ptx_type)in->type;
    unsigned bits = ptx_type_bits(t);
    bool sgn = ptx_type_is_signed(t), ok;
    unsigned cmp = in->op == PTX_OP_MIN ? PTX_CMP_LE : PTX_CMP_GE;
    for (unsigned w = 0; w < d->nslots; w++) {
        m[w] = 0;
        unsigned wi;
        const struct simt_warp *bw = am[w] ? slot_basis(d, w, &wi) : NULL;
        if (!bw)
            continue;
        uint64_t a[4], b[4];
        opnd_basis(bw, &in->o[1], t, a);
        opnd_basis(bw, &in->o[2], t, b);
        uint32_t tids[EXEC_WARP][3];
        warp_tids(d->v->k, wi, tids);
        EXEC_FOR_EACH_LANE(am[w], lane, {
            m[w] |= (uint32_t)int_cmp(cmp, sgn, bits, core_dac_tup_at(a, tids[lane], bits),
                                      core_dac_tup_at(b, tids[lane], bits), &ok) << lane;
        });
        d->st.peu_ops++;
    }
}

/* Runs affine-stream instruction pc on the basis lanes of every CTA of the
 * batch (the per-CTA accumulators, one issue slot). Selected values (pa[],
 * 4.6): a selp on a predicate the PEU expands makes one, piece A (the
 * operand taken where the predicate holds) on bw[ci], piece B on bw[ncta +
 * ci], the lanes taking A per warp in pm[] (merged under am); an
 * instruction reading one runs on both pieces (its other sources copied to
 * piece B) and its destination is selected by the same lanes; reading two
 * is an analysis error. Returns 0 or -1 (d->why). */
int core_dac_basis_exec(struct core_dac *d, int32_t pc, const struct ptx_inst *in,
                         const struct core_dinst *cd, const uint32_t *am)
{
    int32_t psrc = -1;
    for (unsigned i = 0; i < cd->nsrc; i++) {
        int32_t r = cd->src[i];
        if (r < 0 || !d->pa[r] || r == psrc)
            continue;
        if (psrc >= 0) {
            core_dac_fail(d, in->line, "DAC: two selected values combined at PTX line %u (the "
                     "affine analysis allows one): not modelled", in->line);
            return -1;
        }
        psrc = r;
    }
    /* a selp makes a select only on a predicate the analysis classed
       affine (tr[].sel); on a uniform one it is a plain value. A min/max
       of an affine and a uniform value the analysis classed a select
       makes one by the PEU's compare of its sources (before the basis
       lanes overwrite a source that is also the destination) */
    bool mm = (in->op == PTX_OP_MIN || in->op == PTX_OP_MAX) && psrc < 0 && d->tr[pc].sel;
    bool mk = mm || (in->op == PTX_OP_SELP && psrc < 0 && in->o[3].kind == PTX_O_REG &&
                     d->tr[pc].sel);
    uint32_t sm[CORE_DAC_MAXS];
    if (mm)
        minmax_masks(d, in, am, sm);
    for (unsigned ci = 0; ci < d->ncta; ci++) {
        if (!(d->batch >> ci & 1))
            continue;
        struct simt_warp *a = &d->bw[ci], *b = &d->bw[d->ncta + ci];
        if (psrc >= 0 || mk) /* piece B sees the other sources as piece A */
            for (unsigned i = 0; i < cd->nsrc; i++) {
                int32_t r = cd->src[i];
                if (r >= 0 && !d->pa[r])
                    memcpy(&b->ew.regs[(size_t)r * EXEC_WARP],
                           &a->ew.regs[(size_t)r * EXEC_WARP], 4 * sizeof *a->ew.regs);
            }
        if (basis_run(d, a, pc, in, cd, mk ? 1 : -1) != 0 ||
            ((psrc >= 0 || mk) && basis_run(d, b, pc, in, cd, mk ? 0 : -1) != 0))
            return -1;
    }
    if (mk && !mm)
        pred_masks(d, &in->o[3], sm);
    for (unsigned i = 0; i < cd->ndst; i++) {
        int32_t r = cd->dst[i];
        if (r < 0 || d->f->regs[r].type == PTX_T_PRED)
            continue;
        if ((uint32_t)r < d->vix_regs && d->vix[r] >= 0)   /* a tuple again */
            for (unsigned w = 0; w < d->nslots; w++)
                if (am[w])
                    d->vr[d->vix[r]] &= ~(1ull << w);
        d->pa[r] = psrc >= 0 || mk;
        for (unsigned w = 0; d->pa[r] && w < d->nslots; w++)
            pm_merge(d, r, w, mk ? sm[w] : d->pm[(size_t)psrc * CORE_DAC_MAXS + w], am[w]);
    }
    return 0;
}
