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
    [PTX_T_F16X2] = {"f16x2", 32, 1, 1},
    [PTX_T_BF16] = {"bf16", 16, 1, 1}, [PTX_T_BF16X2] = {"bf16x2", 32, 1, 1},
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
    "%globaltimer", "%globaltimer_lo", "%globaltimer_hi",
    "%dynamic_smem_size", "%total_smem_size",
    "%envreg0", "%envreg1", "%envreg2", "%envreg3", "%envreg4", "%envreg5",
    "%envreg6", "%envreg7", "%envreg8", "%envreg9", "%envreg10", "%envreg11",
    "%envreg12", "%envreg13", "%envreg14", "%envreg15", "%envreg16",
    "%envreg17", "%envreg18", "%envreg19", "%envreg20", "%envreg21",
    "%envreg22", "%envreg23", "%envreg24", "%envreg25", "%envreg26",
    "%envreg27", "%envreg28", "%envreg29", "%envreg30", "%envreg31",
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

uint16_t ptx_f64_to_f16(double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    uint16_t sign = (uint16_t)((u >> 48) & 0x8000u);
    int e = (int)((u >> 52) & 0x7ff);
    uint64_t m = u & 0x000fffffffffffffull;
    if (e == 0x7ff)
        return m ? 0x7fffu : (uint16_t)(sign | 0x7c00u);    /* NaN, inf */
    if (e == 0)
        return sign;                    /* double subnormals underflow to 0 */
    /* value = (2^52 + m) * 2^(e - 1075); f16 unit in the last place is
     * 2^-24 (subnormal) or 2^(E - 25) for a normal f16 exponent E */
    uint64_t sig = m | (1ull << 52);
    int exp2 = e - 1075;                /* value = sig * 2^exp2 */
    int E = e - 1023;                   /* unbiased exponent */
    int q = E < -14 ? -24 : E - 10;     /* exponent of the f16 ulp */
    int sh = q - exp2;                  /* bits to drop (>= 42 here) */
    if (sh > 63)
        return sign;                    /* below half the least subnormal */
    uint64_t keep = sig >> sh, rem = sig & ((1ull << sh) - 1),
             half = 1ull << (sh - 1);
    if (rem > half || (rem == half && (keep & 1)))
        keep++;
    /* keep * 2^q: subnormal (q = -24) or normal with 11-bit keep (may
     * carry into 2^11, which the exponent field absorbs) */
    uint32_t bits;
    if (q == -24)
        bits = (uint32_t)keep;          /* 0x400 = smallest normal, fine */
    else
        bits = (uint32_t)((q + 25) << 10) + (uint32_t)(keep - 1024);
    if (bits >= 0x7c00u)
        bits = 0x7c00u;                 /* overflow -> inf (RN) */
    return (uint16_t)(sign | bits);
}

static uint64_t f2bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static uint64_t d2bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

uint64_t ptx_imm_bits(uint8_t lit, uint64_t u, double d, enum ptx_type t)
{
    if (t == PTX_T_F32) {
        switch (lit) {
        case PTX_TK_INT: return f2bits((float)(int64_t)u);
        case PTX_TK_F32: return u;
        case PTX_TK_F64: { double x; memcpy(&x, &u, 8); return f2bits((float)x); }
        default: return f2bits((float)d);
        }
    }
    if (t == PTX_T_F64) {
        switch (lit) {
        case PTX_TK_INT: return d2bits((double)(int64_t)u);
        case PTX_TK_F32: { float f; uint32_t b = (uint32_t)u; memcpy(&f, &b, 4); return d2bits(f); }
        case PTX_TK_F64: return u;
        default: return d2bits(d);
        }
    }
    if (t == PTX_T_F16) {
        /* an integer literal is the raw 16-bit pattern (nvcc's spelling,
         * e.g. 0x3C00); a float literal is rounded to nearest f16 */
        switch (lit) {
        case PTX_TK_INT: return u & 0xffffu;
        case PTX_TK_F32: { float f; uint32_t b = (uint32_t)u; memcpy(&f, &b, 4); return ptx_f64_to_f16(f); }
        case PTX_TK_F64: { double x; memcpy(&x, &u, 8); return ptx_f64_to_f16(x); }
        default: return ptx_f64_to_f16(d);
        }
    }
    if (t == PTX_T_F16X2)
        return u & 0xffffffffu;
    return u;
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

unsigned ptx_opnd_regs(const struct ptx_operand *o, int32_t rr[4])
{
    unsigned nr = 0;
    if (o->kind == PTX_O_REG)
        rr[nr++] = o->reg;
    else if (o->kind == PTX_O_VEC)
        for (unsigned k = 0; k < o->vec_n && k < 4; k++)
            rr[nr++] = o->vec_regs[k];
    return nr;
}

unsigned ptx_inst_ndst(const struct ptx_inst *in)
{
    switch ((enum ptx_op)in->op) {
    case PTX_OP_ST: case PTX_OP_RED: case PTX_OP_BRA: case PTX_OP_CALL:
    case PTX_OP_BRX:
    case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_TRAP:
    case PTX_OP_MEMBAR: case PTX_OP_FENCE: case PTX_OP_NANOSLEEP:
    case PTX_OP_SUST: case PTX_OP_WMMA_STORE:
        return 0;
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        return (in->sub == PTX_SUB_RED_POPC || in->sub == PTX_SUB_RED_AND ||
                in->sub == PTX_SUB_RED_OR) ? 1 : 0;
    case PTX_OP_SETP: case PTX_OP_SHFL: case PTX_OP_MATCH:
    case PTX_OP_WMMA_LOAD: case PTX_OP_WMMA_MMA: case PTX_OP_MMA:
        return 2;           /* wmma/mma: a fragment's two VEC slots */
    default:
        return 1;
    }
}
