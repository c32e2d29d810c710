/* Opcode, type and special-register tables of the PTX IR. */
#include <string.h>
#include "ptx/ptx_ir.h"
#include "ptx/ptx_pstate.h"

static const char *const op_names[PTX_OP_COUNT] = {
#define PTX_OP(id, name, unit, comment) name,
#include "ptx/ptx_ops.def"
#undef PTX_OP
};

static const unsigned char op_units[PTX_OP_COUNT] = {
#define PTX_OP(id, name, unit, comment) PTX_UNIT_##unit,
#include "ptx/ptx_ops.def"
#undef PTX_OP
};

const char *ptx_op_name(enum ptx_op op)
{
    return (unsigned)op < PTX_OP_COUNT ? op_names[op] : "?";
}

enum ptx_unit ptx_op_unit(enum ptx_op op)
{
    return (unsigned)op < PTX_OP_COUNT ? (enum ptx_unit)op_units[op]
                                       : PTX_UNIT_ALU;
}

static const struct {
    const char *name;
    unsigned char bits, is_signed, is_float;
} type_tab[PTX_T_COUNT] = {
    [PTX_T_NONE] = {"", 0, 0, 0},
    [PTX_T_PRED] = {"pred", 1, 0, 0},
    [PTX_T_B8] = {"b8", 8, 0, 0},   [PTX_T_B16] = {"b16", 16, 0, 0},
    [PTX_T_B32] = {"b32", 32, 0, 0}, [PTX_T_B64] = {"b64", 64, 0, 0},
    [PTX_T_U8] = {"u8", 8, 0, 0},   [PTX_T_U16] = {"u16", 16, 0, 0},
    [PTX_T_U32] = {"u32", 32, 0, 0}, [PTX_T_U64] = {"u64", 64, 0, 0},
    [PTX_T_S8] = {"s8", 8, 1, 0},   [PTX_T_S16] = {"s16", 16, 1, 0},
    [PTX_T_S32] = {"s32", 32, 1, 0}, [PTX_T_S64] = {"s64", 64, 1, 0},
    [PTX_T_F16] = {"f16", 16, 1, 1}, [PTX_T_F32] = {"f32", 32, 1, 1},
    [PTX_T_F64] = {"f64", 64, 1, 1},
};

unsigned ptx_type_bits(enum ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT ? type_tab[t].bits : 0;
}

bool ptx_type_is_signed(enum ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT && type_tab[t].is_signed;
}

bool ptx_type_is_float(enum ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT && type_tab[t].is_float;
}

const char *ptx_type_name(enum ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT ? type_tab[t].name : "?";
}

enum ptx_type ptx_type_from_name(const char *s, size_t n)
{
    for (unsigned t = PTX_T_PRED; t < PTX_T_COUNT; t++)
        if (strlen(type_tab[t].name) == n && memcmp(type_tab[t].name, s, n) == 0)
            return (enum ptx_type)t;
    return PTX_T_NONE;
}

static const char *const sreg_names[PTX_SR_COUNT] = {
    "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z",
    "%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z",
    "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid",
    "%lanemask_eq", "%lanemask_lt", "%lanemask_le", "%lanemask_gt",
    "%lanemask_ge", "%clock", "%clock64", "%gridid",
};

const char *ptx_sreg_name(enum ptx_sreg r)
{
    return (unsigned)r < PTX_SR_COUNT ? sreg_names[r] : "%?";
}

int ptx_sreg_from_name(const char *s, size_t n)
{
    for (unsigned r = 0; r < PTX_SR_COUNT; r++)
        if (strlen(sreg_names[r]) == n && memcmp(sreg_names[r], s, n) == 0)
            return (int)r;
    return -1;
}

unsigned ptx_call_nargs(const struct ptx_inst *in)
{
    if (in->o[2].kind == PTX_O_ARGS)
        return (unsigned)in->o[2].imm;
    return in->nopnd > 2 ? in->nopnd - 2u : 0;
}

const struct ptx_operand *ptx_call_arg(const struct ptx_func *f,
                                       const struct ptx_inst *in, unsigned i)
{
    if (i >= ptx_call_nargs(in))
        return NULL;
    if (in->o[2].kind == PTX_O_ARGS) {
        uint64_t k = (uint64_t)in->o[2].label + i;
        return f && k < f->ncargs ? &f->cargs[k] : NULL;
    }
    return 2 + i < PTX_MAX_OPNDS ? &in->o[2 + i] : NULL;
}

int32_t ptx_func_of_addr(const struct ptx_module *m, uint64_t a)
{
    uint64_t k = a - PTX_FUNC_ADDR_TAG;
    if (!m || a < PTX_FUNC_ADDR_TAG || (k & 15) || k / 16 >= m->nfuncs)
        return -1;
    return (int32_t)(k / 16);
}

const struct ptx_func *ptx_find_func(const struct ptx_module *m, const char *name)
{
    if (!m || !name)
        return NULL;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].name && strcmp(m->funcs[i].name, name) == 0)
            return &m->funcs[i];
    return NULL;
}

unsigned ptx_inst_ndst(const struct ptx_inst *in)
{
    switch ((enum ptx_op)in->op) {
    case PTX_OP_ST: case PTX_OP_RED: case PTX_OP_BRA: case PTX_OP_CALL:
    case PTX_OP_BRX:
    case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_BAR: case PTX_OP_BARRIER:
    case PTX_OP_MEMBAR: case PTX_OP_FENCE:
        return 0;
    case PTX_OP_SETP: case PTX_OP_SHFL:
        return 2;
    default:
        return 1;
    }
}
