/* Helpers shared by the CFG data-flow analyses (ptx_dflow.h). */
#include <stdlib.h>
#include <string.h>
#include "ptx/ptx_dflow.h"

void ptx_dflow_rpo(const struct ptx_cfg *g, uint32_t *order, uint32_t *mark,
                   uint32_t *stack)
{
    uint32_t nb = g->nblocks, npost = 0, sp = 0;
    uint32_t *edge = order;               /* reused: next successor to try */
    memset(mark, 0, nb * sizeof *mark);
    uint32_t *post = malloc((size_t)nb * sizeof *post);
    if (!post) {                          /* fall back to index order      */
        for (uint32_t b = 0; b < nb; b++)
            order[b] = b;
        return;
    }
    memset(edge, 0, nb * sizeof *edge);
    mark[0] = 1;
    stack[sp++] = 0;
    while (sp) {
        uint32_t b = stack[sp - 1];
        if (edge[b] < g->blocks[b].nsucc) {
            int32_t s = g->blocks[b].succ[edge[b]++];
            if (s >= 0 && (uint32_t)s < nb && !mark[s]) {
                mark[s] = 1;
                stack[sp++] = (uint32_t)s;
            }
        } else {
            post[npost++] = b;
            sp--;
        }
    }
    uint32_t k = 0;
    for (uint32_t i = npost; i-- > 0;)
        order[k++] = post[i];
    for (uint32_t b = 0; b < nb; b++)
        if (!mark[b])
            order[k++] = b;
    free(post);
    memset(mark, 0, nb * sizeof *mark);
}

uint32_t ptx_dflow_region(const struct ptx_cfg *g, uint32_t b, uint32_t *mark,
                          uint32_t stamp, uint32_t *stack, uint32_t *out)
{
    int32_t j = g->blocks[b].ipdom;  /* nblocks (the exit): no block stops */
    uint32_t n = 0, nout = 0;
    for (uint32_t k = 0; k < g->blocks[b].nsucc; k++) {
        int32_t s = g->blocks[b].succ[k];
        if (s >= 0 && (uint32_t)s < g->nblocks && s != j && mark[s] != stamp) {
            mark[s] = stamp;
            stack[n++] = (uint32_t)s;
        }
    }
    while (n) {
        uint32_t x = stack[--n];
        out[nout++] = x;
        for (uint32_t k = 0; k < g->blocks[x].nsucc; k++) {
            int32_t s = g->blocks[x].succ[k];
            if (s >= 0 && (uint32_t)s < g->nblocks && s != j && mark[s] != stamp) {
                mark[s] = stamp;
                stack[n++] = (uint32_t)s;
            }
        }
    }
    return nout;
}

bool ptx_dflow_sreg_is_data(unsigned sr)
{
    switch (sr) {
    case PTX_SR_SMID: case PTX_SR_CLOCK: case PTX_SR_CLOCK64:
    case PTX_SR_GLOBALTIMER: case PTX_SR_GLOBALTIMER_LO: case PTX_SR_GLOBALTIMER_HI:
        return true;
    default:
        return sr >= PTX_SR_ENVREG0;
    }
}

enum ptx_dflow_src ptx_dflow_src(const struct ptx_func *f, const struct ptx_inst *in)
{
    enum ptx_unit u = ptx_op_unit((enum ptx_op)in->op);
    if (u == PTX_UNIT_ALU || u == PTX_UNIT_SFU)
        return PTX_DFLOW_FLOW;
    if (in->op == PTX_OP_LD || in->op == PTX_OP_LDU) {
        const struct ptx_operand *a = &in->o[1];
        bool fixed = a->kind == PTX_O_MEM && a->reg < 0 && a->sym.index >= 0;
        if (fixed && in->space == PTX_SP_PARAM && f->is_entry && a->sym.scope == 1 &&
            (uint32_t)a->sym.index < f->nparams)
            return PTX_DFLOW_UNIFORM;
        if (fixed && in->space == PTX_SP_CONST)
            return PTX_DFLOW_UNIFORM;
    }
    return PTX_DFLOW_DATA;
}

bool ptx_dflow_reads_cc(const struct ptx_inst *in)
{
    return in->op == PTX_OP_ADDC || in->op == PTX_OP_SUBC || in->op == PTX_OP_MADC;
}

void ptx_dflow_defs(const struct ptx_inst *in, void (*fn)(void *ctx, uint32_t reg),
                    void *ctx)
{
    unsigned ndst = ptx_inst_ndst(in);
    for (unsigned i = 0; i < ndst && i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
        const struct ptx_operand *o = &in->o[i];
        if (o->kind == PTX_O_REG && o->reg >= 0)
            fn(ctx, (uint32_t)o->reg);
        else if (o->kind == PTX_O_VEC)
            for (unsigned k = 0; k < o->vec_n && k < 4; k++)
                if (o->vec_regs[k] >= 0)
                    fn(ctx, (uint32_t)o->vec_regs[k]);
    }
}

const struct ptx_operand *ptx_dflow_mem_opnd(const struct ptx_inst *in)
{
    for (unsigned i = 0; i < in->nopnd && i < PTX_MAX_OPNDS; i++)
        if (in->o[i].kind == PTX_O_MEM)
            return &in->o[i];
    return NULL;
}
