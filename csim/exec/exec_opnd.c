/* Operand access shared by every exec unit: exec_read / exec_write /
 * exec_guard_mask (exec.h) and the once-per-instruction source decoding
 * used by the ALU/SFU units (exec_lane.h). */
#include <stdio.h>
#include "exec/exec_lane.h"

static uint64_t sreg_value(const struct exec_warp *w, unsigned sr,
                           unsigned lane)
{
    const struct exec_grid *g = w->grid;
    uint64_t lt = ((uint64_t)1 << lane) - 1, le = ((uint64_t)2 << lane) - 1;
    switch (sr) {
    case PTX_SR_TID_X: case PTX_SR_TID_Y: case PTX_SR_TID_Z:
        return w->ids[lane].tid[sr - PTX_SR_TID_X];
    case PTX_SR_LANEID: return lane;
    case PTX_SR_LANEMASK_EQ: return (uint64_t)1 << lane;
    case PTX_SR_LANEMASK_LT: return lt;
    case PTX_SR_LANEMASK_LE: return le & 0xffffffffu;
    case PTX_SR_LANEMASK_GT: return ~le & 0xffffffffu;
    case PTX_SR_LANEMASK_GE: return ~lt & 0xffffffffu;
    default: break;
    }
    switch (sr) {
    case PTX_SR_CLOCK: return w->clock ? *w->clock & 0xffffffffu : 0;
    case PTX_SR_CLOCK64: return w->clock ? *w->clock : 0;
    case PTX_SR_GLOBALTIMER: case PTX_SR_GLOBALTIMER_LO:
    case PTX_SR_GLOBALTIMER_HI: {
        uint64_t clk = w->clock ? *w->clock : 0;
        uint64_t ns = g && g->timer_den ? clk * g->timer_num / g->timer_den : clk;
        return sr == PTX_SR_GLOBALTIMER ? ns
               : sr == PTX_SR_GLOBALTIMER_LO ? ns & 0xffffffffu : ns >> 32;
    }
    default: break;
    }
    if (!g) return 0;
    switch (sr) {
    case PTX_SR_DYNAMIC_SMEM_SIZE: return g->dyn_smem;
    case PTX_SR_TOTAL_SMEM_SIZE: return g->total_smem;
    case PTX_SR_NTID_X: case PTX_SR_NTID_Y: case PTX_SR_NTID_Z:
        return g->ntid[sr - PTX_SR_NTID_X];
    case PTX_SR_CTAID_X: case PTX_SR_CTAID_Y: case PTX_SR_CTAID_Z:
        return g->ctaid[sr - PTX_SR_CTAID_X];
    case PTX_SR_NCTAID_X: case PTX_SR_NCTAID_Y: case PTX_SR_NCTAID_Z:
        return g->nctaid[sr - PTX_SR_NCTAID_X];
    case PTX_SR_WARPID: return g->warpid;
    case PTX_SR_NWARPID: return g->nwarpid;
    case PTX_SR_SMID: return g->smid;
    case PTX_SR_NSMID: return g->nsmid;
    /* the driver's grid workspace: cooperative groups' grid.sync() reads
     * its address from %envreg1 (high half) and %envreg2 (low half) */
    case PTX_SR_ENVREG0 + 1: return g->grid_ws >> 32;
    case PTX_SR_ENVREG0 + 2: return g->grid_ws & 0xffffffffu;
    default: return 0;      /* %gridid, the other %envregs: 0 (no driver here) */
    }
}

static uint64_t sym_value(const struct exec_warp *w, const struct ptx_operand *o)
{
    int sc = o->sym.scope ? 1 : 0;
    const uint64_t *tab = w->sym_addr[sc];
    if (!tab || o->sym.index < 0) return (uint64_t)o->imm;
    return tab[o->sym.index] + (uint64_t)o->imm;
}

uint64_t exec_read(const struct exec_warp *w, const struct ptx_operand *o,
                   enum ptx_type t, unsigned lane)
{
    uint64_t v, k = exec_tmask(t);
    switch (o->kind) {
    case PTX_O_REG:
        if (o->reg < 0 || (uint32_t)o->reg >= w->nregs) return 0;
        v = w->regs[(size_t)o->reg * EXEC_WARP + lane];
        break;
    case PTX_O_IMM: v = (uint64_t)o->imm; break;
    case PTX_O_SREG: v = sreg_value(w, o->sreg, lane); break;
    case PTX_O_SYM: v = sym_value(w, o); break;
    case PTX_O_FUNC: v = PTX_FUNC_ADDR(o->func); break;
    default: return 0;
    }
    if (t == PTX_T_PRED) return ((v & 1) ^ (o->neg ? 1 : 0));
    return v & k;
}

void exec_write(struct exec_warp *w, const struct ptx_operand *o,
                enum ptx_type t, unsigned lane, uint64_t v)
{
    if (o->kind != PTX_O_REG || o->reg < 0 || (uint32_t)o->reg >= w->nregs)
        return;
    w->regs[(size_t)o->reg * EXEC_WARP + lane] =
        t == PTX_T_PRED ? (v != 0) : (v & exec_tmask(t));
}

uint32_t exec_guard_mask(const struct exec_warp *w, const struct ptx_inst *in,
                         uint32_t mask)
{
    if (in->guard < 0) return mask;
    if ((uint32_t)in->guard >= w->nregs) return 0;
    const uint64_t *p = w->regs + (size_t)in->guard * EXEC_WARP;
    uint32_t out = 0, want = in->guard_neg ? 0 : 1;
    EXEC_FOR_EACH_LANE(mask, lane, {
        if ((p[lane] & 1) == want) out |= 1u << lane;
    });
    return out;
}

static const char *const op_names[PTX_OP_COUNT + 1] = {
#define PTX_OP(id, name, unit, comment) name,
#include "ptx/ptx_ops.def"
#undef PTX_OP
    "?"
};

static const char *const type_names[PTX_T_COUNT + 1] = {
    "", "pred", "b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64",
    "s8", "s16", "s32", "s64", "f16", "f32", "f64", "f16x2", "bf16", "bf16x2", "?"
};

int exec_fail(struct exec_error *err, const struct ptx_inst *in,
              const char *what)
{
    if (err) {
        err->lane = -1;
        err->addr = 0;
        snprintf(err->msg, sizeof err->msg, "line %u:%u: %s.%s: %s",
                 (unsigned)in->line, (unsigned)in->col,
                 op_names[in->op < PTX_OP_COUNT ? in->op : PTX_OP_COUNT],
                 type_names[in->type < PTX_T_COUNT ? in->type : PTX_T_COUNT],
                 what);
    }
    return -1;
}

int exec_src_init_any(struct exec_src *s, const struct exec_warp *w,
                      const struct ptx_inst *in, const struct ptx_operand *o,
                      unsigned t, uint32_t mask, struct exec_error *err)
{
    s->k = exec_tmask(t);
    s->x = 0;
    s->m = 0;
    s->p = s->buf;
    switch (o->kind) {
    case PTX_O_REG:
        if (o->reg < 0 || (uint32_t)o->reg >= w->nregs)
            return exec_fail(err, in, "source register out of range");
        s->p = w->regs + (size_t)o->reg * EXEC_WARP;
        s->m = EXEC_WARP - 1;
        break;
    case PTX_O_IMM: s->buf[0] = (uint64_t)o->imm; break;
    case PTX_O_SYM: s->buf[0] = sym_value(w, o); break;
    case PTX_O_FUNC: s->buf[0] = PTX_FUNC_ADDR(o->func); break;
    case PTX_O_SREG:
        s->m = EXEC_WARP - 1;
        EXEC_FOR_EACH_LANE(mask, lane, {
            s->buf[lane] = sreg_value(w, o->sreg, lane);
        });
        break;
    case PTX_O_NONE: s->buf[0] = 0; break;
    default:
        return exec_fail(err, in, "unsupported source operand kind");
    }
    if (t == PTX_T_PRED && o->neg) s->x = 1;
    return 0;
}

uint64_t *exec_dst(struct exec_warp *w, const struct ptx_inst *in,
                   const struct ptx_operand *o, struct exec_error *err)
{
    if (o->kind != PTX_O_REG || o->reg < 0 || (uint32_t)o->reg >= w->nregs) {
        exec_fail(err, in, "destination is not a valid register");
        return NULL;
    }
    return w->regs + (size_t)o->reg * EXEC_WARP;
}
