/* Warp collectives: shfl.sync, vote.sync, match.sync, activemask,
 * bar.warp.sync, nanosleep.
 * They read other lanes' registers, so they work on the whole warp at
 * once rather than lane by lane. */
#include <stdio.h>
#include <string.h>
#include "exec/exec_mem.h"

static inline uint64_t val_of(const struct exec_warp *w,
                              const struct ptx_operand *o, enum ptx_type t,
                              unsigned lane)
{
    if (o->kind == PTX_O_REG && !o->neg)
        return w->regs[(size_t)o->reg * EXEC_WARP + lane];
    return exec_read(w, o, t, lane);
}

static int bad(struct exec_error *err, const char *msg)
{
    err->lane = -1;
    err->addr = 0;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    return -1;
}

/* shfl.sync.mode.b32 d[|p], a, b, c, membermask (PTX ISA semantics). */
static int do_shfl(struct exec_warp *w, const struct ptx_inst *in,
                   uint32_t act, struct exec_error *err)
{
    const struct ptx_operand *d = &in->o[0], *p = &in->o[1];
    if (d->kind != PTX_O_REG)
        return bad(err, "shfl: destination is not a register");
    uint32_t src[EXEC_WARP];
    for (unsigned l = 0; l < EXEC_WARP; l++)   /* snapshot: d may alias a */
        src[l] = (uint32_t)val_of(w, &in->o[2], PTX_T_B32, l);
    uint32_t dv[EXEC_WARP];
    uint8_t pv[EXEC_WARP];
    EXEC_FOR_EACH_LANE(act, lane, {
        uint32_t bval = (uint32_t)val_of(w, &in->o[3], PTX_T_B32, lane) & 31u;
        uint32_t c = (uint32_t)val_of(w, &in->o[4], PTX_T_B32, lane);
        uint32_t cval = c & 31u;
        uint32_t seg = (c >> 8) & 31u;
        int maxl = (int)((lane & seg) | (cval & ~seg));
        int minl = (int)(lane & seg);
        int j;
        bool ok;
        switch (in->sub) {
        case PTX_SUB_UP:   j = (int)lane - (int)bval; ok = j >= maxl; break;
        case PTX_SUB_DOWN: j = (int)lane + (int)bval; ok = j <= maxl; break;
        case PTX_SUB_BFLY: j = (int)(lane ^ bval);    ok = j <= maxl; break;
        default:           j = minl | (int)(bval & ~seg); ok = j <= maxl; break;
        }
        if (!ok || j < 0 || j >= EXEC_WARP)
            j = (int)lane;
        dv[lane] = src[j];
        pv[lane] = ok;
    });
    EXEC_FOR_EACH_LANE(act, lane, {
        w->regs[(size_t)d->reg * EXEC_WARP + lane] = dv[lane];
        if (p->kind == PTX_O_REG)
            w->regs[(size_t)p->reg * EXEC_WARP + lane] = pv[lane];
    });
    return 0;
}

static int do_vote(struct exec_warp *w, const struct ptx_inst *in,
                   uint32_t act, struct exec_error *err)
{
    const struct ptx_operand *d = &in->o[0];
    if (d->kind != PTX_O_REG)
        return bad(err, "vote: destination is not a register");
    /* the vote is over the executing threads named in membermask */
    uint32_t voters = act;
    if (in->o[2].kind != PTX_O_NONE) {
        uint32_t mm = (uint32_t)val_of(w, &in->o[2], PTX_T_B32,
                                       (unsigned)__builtin_ctz(act));
        if (act & mm)
            voters &= mm;
    }
    uint32_t ballot = 0;
    EXEC_FOR_EACH_LANE(voters, lane, {
        if (exec_read(w, &in->o[1], PTX_T_PRED, lane) & 1)
            ballot |= 1u << lane;
    });
    uint64_t v;
    switch (in->sub) {
    case PTX_SUB_BALLOT: v = ballot; break;
    case PTX_SUB_ALL:    v = ballot == voters; break;
    case PTX_SUB_ANY:    v = ballot != 0; break;
    case PTX_SUB_UNI:    v = ballot == voters || ballot == 0; break;
    default:             return bad(err, "vote: unknown mode");
    }
    EXEC_FOR_EACH_LANE(act, lane, {
        w->regs[(size_t)d->reg * EXEC_WARP + lane] = v;
    });
    return 0;
}

/* match.{any,all}.sync.b32/.b64 d[|p], a, membermask (CUDA semantics):
 * the lanes that take part are the executing lanes named in membermask.
 * .any: d = those of them holding the same a as this lane; .all: d =
 * the participants and p = 1 when all hold the same a, else d = 0, p = 0. */
static int do_match(struct exec_warp *w, const struct ptx_inst *in,
                    uint32_t act, struct exec_error *err)
{
    const struct ptx_operand *d = &in->o[0], *p = &in->o[1];
    if (d->kind != PTX_O_REG)
        return bad(err, "match: destination is not a register");
    enum ptx_type t = (enum ptx_type)in->type;
    if (t != PTX_T_B32 && t != PTX_T_B64)
        return bad(err, "match: type must be .b32 or .b64");
    uint32_t part = act;
    uint32_t mm = (uint32_t)val_of(w, &in->o[3], PTX_T_B32,
                                   (unsigned)__builtin_ctz(act));
    if (act & mm)
        part &= mm;
    uint64_t v[EXEC_WARP];
    EXEC_FOR_EACH_LANE(part, lane, { v[lane] = exec_read(w, &in->o[2], t, lane); });
    uint32_t dv[EXEC_WARP];
    uint8_t pv = 0;
    if (in->sub == PTX_SUB_ALL) {
        unsigned l0 = (unsigned)__builtin_ctz(part);
        bool same = true;
        EXEC_FOR_EACH_LANE(part, lane, { same = same && v[lane] == v[l0]; });
        pv = same;
        EXEC_FOR_EACH_LANE(act, lane, { dv[lane] = same ? part : 0; });
    } else {
        EXEC_FOR_EACH_LANE(act, lane, {
            uint32_t eq = 0;
            for (unsigned o = 0; o < EXEC_WARP && (part & (1u << lane)); o++)
                if ((part & (1u << o)) && v[o] == v[lane])
                    eq |= 1u << o;
            dv[lane] = eq;
        });
    }
    EXEC_FOR_EACH_LANE(act, lane, {
        w->regs[(size_t)d->reg * EXEC_WARP + lane] = dv[lane];
        if (p->kind == PTX_O_REG)
            w->regs[(size_t)p->reg * EXEC_WARP + lane] = pv;
    });
    return 0;
}

int exec_warpops(struct exec_warp *w, const struct ptx_func *f,
                 const struct ptx_inst *in, uint32_t mask,
                 struct exec_result *res, struct exec_error *err)
{
    (void)f;
    uint32_t act = exec_guard_mask(w, in, mask);
    res->active = act;
    res->taken = 0;
    res->access_bytes = 0;
    res->is_store = false;
    switch ((enum ptx_op)in->op) {
    case PTX_OP_SHFL:
        return act ? do_shfl(w, in, act, err) : 0;
    case PTX_OP_VOTE:
        return act ? do_vote(w, in, act, err) : 0;
    case PTX_OP_ACTIVEMASK:
        if (in->o[0].kind != PTX_O_REG)
            return bad(err, "activemask: destination is not a register");
        EXEC_FOR_EACH_LANE(act, lane, {
            w->regs[(size_t)in->o[0].reg * EXEC_WARP + lane] = mask;
        });
        return 0;
    case PTX_OP_MATCH:
        return act ? do_match(w, in, act, err) : 0;
    case PTX_OP_NANOSLEEP:      /* may sleep 0..2t ns: this model sleeps 0 */
        if (in->o[0].kind != PTX_O_REG && in->o[0].kind != PTX_O_IMM)
            return bad(err, "nanosleep: operand is not a register or immediate");
        return 0;
    case PTX_OP_BAR:            /* bar.warp.sync: lanes of a warp run in
                                 * lockstep here, nothing to wait for */
        if (in->sub == PTX_SUB_WARP_SYNC)
            return 0;
        return bad(err, "bar: only bar.warp.sync is a warp collective");
    default:
        return bad(err, "not a warp collective");
    }
}
