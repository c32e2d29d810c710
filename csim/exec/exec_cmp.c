/* Comparisons and selects: setp (two destinations p|q, optional
 * .and/.or/.xor with predicate c), set (1.0f / all-ones / 0 result), selp,
 * slct. Float compares: ordered ops are false when either input is NaN,
 * the u-suffixed ops true; num/nan test both inputs. .ftz flushes f32
 * subnormal inputs before comparing. */
#include "exec/exec_lane.h"

/* Comparison classes decided once per instruction. */
enum ckind { C_SIGNED, C_UNSIGNED, C_F32, C_F64 };

static int cmp_int(unsigned cmp, int lt, int eq)
{
    switch (cmp) {
    case PTX_CMP_EQ: return eq;
    case PTX_CMP_NE: return !eq;
    case PTX_CMP_LT: case PTX_CMP_LO: return lt;
    case PTX_CMP_LE: case PTX_CMP_LS: return lt || eq;
    case PTX_CMP_GT: case PTX_CMP_HI: return !lt && !eq;
    case PTX_CMP_GE: case PTX_CMP_HS: return !lt;
    default: return 0;
    }
}

static int cmp_float(unsigned cmp, double a, double b)
{
    int un = (a != a) || (b != b);
    switch (cmp) {
    case PTX_CMP_EQ: return a == b;
    case PTX_CMP_NE: return !un && a != b;
    case PTX_CMP_LT: return a < b;
    case PTX_CMP_LE: return a <= b;
    case PTX_CMP_GT: return a > b;
    case PTX_CMP_GE: return a >= b;
    case PTX_CMP_EQU: return un || a == b;
    case PTX_CMP_NEU: return a != b;
    case PTX_CMP_LTU: return un || a < b;
    case PTX_CMP_LEU: return un || a <= b;
    case PTX_CMP_GTU: return un || a > b;
    case PTX_CMP_GEU: return un || a >= b;
    case PTX_CMP_NUM: return !un;
    case PTX_CMP_NAN: return un;
    default: return 0;
    }
}

static double f32_val(uint64_t u, int ftz)
{
    uint32_t x = (uint32_t)u;
    if (ftz && !(x & 0x7f800000u)) x &= 0x80000000u;
    return (double)exec_f32(x);
}

static int compare(enum ckind k, unsigned cmp, uint64_t a, uint64_t b,
                   unsigned bits, int ftz)
{
    switch (k) {
    case C_SIGNED: {
        int64_t x = exec_sext(a, bits), y = exec_sext(b, bits);
        return cmp_int(cmp, x < y, x == y);
    }
    case C_UNSIGNED: return cmp_int(cmp, a < b, a == b);
    case C_F32: return cmp_float(cmp, f32_val(a, ftz), f32_val(b, ftz));
    case C_F64: return cmp_float(cmp, exec_f64(a), exec_f64(b));
    }
    return 0;
}

static int bool_op(unsigned sub, int x, int c)
{
    switch (sub) {
    case PTX_SUB_AND: return x & c;
    case PTX_SUB_OR: return x | c;
    case PTX_SUB_XOR: return x ^ c;
    default: return x;
    }
}

static enum ckind kind_of(unsigned t, unsigned cmp)
{
    if (t == PTX_T_F32) return C_F32;
    if (t == PTX_T_F64) return C_F64;
    if (cmp == PTX_CMP_LO || cmp == PTX_CMP_LS || cmp == PTX_CMP_HI ||
        cmp == PTX_CMP_HS)
        return C_UNSIGNED;
    return exec_tsigned(t) ? C_SIGNED : C_UNSIGNED;
}

static int setp_set(struct exec_warp *w, const struct ptx_inst *in,
                    uint32_t m, struct exec_error *err)
{
    int is_setp = in->op == PTX_OP_SETP;
    unsigned ot = is_setp ? in->type : (in->type2 ? in->type2 : in->type);
    unsigned bits = exec_tbits(ot), cmp = in->cmp, sub = in->sub;
    int ftz = (in->flags & PTX_F_FTZ) != 0;
    if (ot == PTX_T_F16 || ot == PTX_T_PRED || ot == PTX_T_NONE)
        return exec_fail(err, in, "unsupported comparison type");
    if (cmp == PTX_CMP_NONE) return exec_fail(err, in, "missing comparison");
    enum ckind k = kind_of(ot, cmp);
    if (k != C_F32 && k != C_F64 && cmp >= PTX_CMP_EQU)
        return exec_fail(err, in, "unordered comparison on an integer type");
    int ia = is_setp ? 2 : 1;
    static const struct ptx_operand none;
    const struct ptx_operand *oc = sub != PTX_SUB_NONE ? &in->o[ia + 2] : &none;
    struct exec_src A, B, C;
    uint64_t *p = exec_dst(w, in, &in->o[0], err), *q = NULL;
    if (!p) return -1;
    if (is_setp && in->o[1].kind == PTX_O_REG &&
        !(q = exec_dst(w, in, &in->o[1], err)))
        return -1;
    if (exec_src_init(&A, w, in, &in->o[ia], ot, m, err) ||
        exec_src_init(&B, w, in, &in->o[ia + 1], ot, m, err) ||
        exec_src_init(&C, w, in, oc, PTX_T_PRED, m, err))
        return -1;
    if (is_setp) {
        EXEC_FOR_EACH_LANE(m, lane, {
            int x = compare(k, cmp, EXEC_SRC(&A, lane), EXEC_SRC(&B, lane),
                            bits, ftz);
            int c = (int)EXEC_SRC(&C, lane);
            p[lane] = (uint64_t)bool_op(sub, x, c);
            if (q) q[lane] = (uint64_t)bool_op(sub, !x, c);
        });
        return 0;
    }
    uint64_t one = in->type == PTX_T_F32 ? 0x3f800000u : exec_tmask(in->type);
    EXEC_FOR_EACH_LANE(m, lane, {
        int x = compare(k, cmp, EXEC_SRC(&A, lane), EXEC_SRC(&B, lane), bits,
                        ftz);
        p[lane] = bool_op(sub, x, (int)EXEC_SRC(&C, lane)) ? one : 0;
    });
    return 0;
}

int exec_cmp(struct exec_warp *w, const struct ptx_inst *in, uint32_t m,
             struct exec_error *err)
{
    if (in->op == PTX_OP_SETP || in->op == PTX_OP_SET)
        return setp_set(w, in, m, err);
    if (in->op != PTX_OP_SELP && in->op != PTX_OP_SLCT)
        return exec_fail(err, in, "not a compare/select op");
    unsigned t = in->type;
    struct exec_src A, B, C;
    uint64_t *d = exec_dst(w, in, &in->o[0], err);
    if (!d) return -1;
    unsigned ct = in->op == PTX_OP_SELP ? PTX_T_PRED
                                        : (in->type2 ? in->type2 : PTX_T_S32);
    if (exec_src_init(&A, w, in, &in->o[1], t, m, err) ||
        exec_src_init(&B, w, in, &in->o[2], t, m, err) ||
        exec_src_init(&C, w, in, &in->o[3], ct, m, err))
        return -1;
    if (in->op == PTX_OP_SELP) {
        EXEC_FOR_EACH_LANE(m, lane, {
            d[lane] = EXEC_SRC(&C, lane) ? EXEC_SRC(&A, lane)
                                         : EXEC_SRC(&B, lane);
        });
        return 0;
    }
    int ftz = (in->flags & PTX_F_FTZ) != 0;
    if (ct != PTX_T_F32 && ct != PTX_T_S32)
        return exec_fail(err, in, "slct selector must be .s32 or .f32");
    EXEC_FOR_EACH_LANE(m, lane, {
        uint64_t c = EXEC_SRC(&C, lane);
        int ge = ct == PTX_T_F32 ? f32_val(c, ftz) >= 0.0
                                 : exec_sext(c, 32) >= 0;
        d[lane] = ge ? EXEC_SRC(&A, lane) : EXEC_SRC(&B, lane);
    });
    return 0;
}
