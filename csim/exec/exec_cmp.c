/* Comparisons and selects: setp (two destinations p|q, optional
 * .and/.or/.xor with predicate c), set (1.0f / all-ones / 0 result), selp,
 * slct. Float compares: ordered ops are false when either input is NaN,
 * the u-suffixed ops true; num/nan test both inputs. .ftz flushes f32
 * subnormal inputs before comparing. */
#include "exec/exec_fround.h"
#include "exec/exec_lane.h"

/* Comparison classes decided once per instruction. */
enum ckind { C_SIGNED, C_UNSIGNED, C_F16, C_F32, C_F64 };

/* A comparison as the results for a < b, a == b, a > b and unordered,
 * decided once per instruction. */
struct rel { int lt, eq, gt, un; };

static int rel_of(unsigned cmp, struct rel *r)
{
    static const struct rel tab[] = {
        [PTX_CMP_EQ] = {0, 1, 0, 0}, [PTX_CMP_NE] = {1, 0, 1, 0},
        [PTX_CMP_LT] = {1, 0, 0, 0}, [PTX_CMP_LE] = {1, 1, 0, 0},
        [PTX_CMP_GT] = {0, 0, 1, 0}, [PTX_CMP_GE] = {0, 1, 1, 0},
        [PTX_CMP_LO] = {1, 0, 0, 0}, [PTX_CMP_LS] = {1, 1, 0, 0},
        [PTX_CMP_HI] = {0, 0, 1, 0}, [PTX_CMP_HS] = {0, 1, 1, 0},
        [PTX_CMP_EQU] = {0, 1, 0, 1}, [PTX_CMP_NEU] = {1, 0, 1, 1},
        [PTX_CMP_LTU] = {1, 0, 0, 1}, [PTX_CMP_LEU] = {1, 1, 0, 1},
        [PTX_CMP_GTU] = {0, 0, 1, 1}, [PTX_CMP_GEU] = {0, 1, 1, 1},
        [PTX_CMP_NUM] = {1, 1, 1, 0}, [PTX_CMP_NAN] = {0, 0, 0, 1},
    };
    if (cmp == PTX_CMP_NONE || cmp > PTX_CMP_NAN) return -1;
    *r = tab[cmp];
    return 0;
}

static inline uint32_t f32_ftz(uint64_t u, int ftz)
{
    uint32_t x = (uint32_t)u;
    if (ftz && !(x & 0x7f800000u)) x &= 0x80000000u;
    return x;
}

static double f32_val(uint64_t u, int ftz)
{
    return (double)exec_f32(f32_ftz(u, ftz));
}

/* a REL b for lane values of kind k (ints: sign bit flipped for signed
 * so that one unsigned comparison orders both). */
static inline int compare(enum ckind k, const struct rel *r, uint64_t a,
                          uint64_t b, uint64_t flip, int ftz)
{
    if (k == C_F32) {
        float x = exec_f32(f32_ftz(a, ftz)), y = exec_f32(f32_ftz(b, ftz));
        if (x != x || y != y) return r->un;
        return x < y ? r->lt : x == y ? r->eq : r->gt;
    }
    if (k == C_F16 && ftz) {            /* .ftz flushes f16 subnormals */
        if (!(a & 0x7c00u)) a &= 0x8000u;
        if (!(b & 0x7c00u)) b &= 0x8000u;
    }
    if (k == C_F64 || k == C_F16) {
        double x = k == C_F64 ? exec_f64(a) : exec_f16_to_f64((uint16_t)a);
        double y = k == C_F64 ? exec_f64(b) : exec_f16_to_f64((uint16_t)b);
        if (x != x || y != y) return r->un;
        return x < y ? r->lt : x == y ? r->eq : r->gt;
    }
    a ^= flip;
    b ^= flip;
    return a < b ? r->lt : a == b ? r->eq : r->gt;
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
    if (t == PTX_T_F16 || t == PTX_T_F16X2) return C_F16;
    if (cmp == PTX_CMP_LO || cmp == PTX_CMP_LS || cmp == PTX_CMP_HI ||
        cmp == PTX_CMP_HS)
        return C_UNSIGNED;
    return exec_tsigned(t) ? C_SIGNED : C_UNSIGNED;
}

/* setp/set on .f16x2: each half compared on its own. setp writes the
 * low half's result (bool-op c) to p and the high half's to q; set writes
 * per half 1.0 (.f16x2 destination) or 0xffff (.u32/.s32), else 0. */
static int cmp_f16x2(const struct ptx_inst *in, uint32_t m, const struct rel *r,
                     int ftz, uint64_t *p, uint64_t *q, const struct exec_src *A,
                     const struct exec_src *B, const struct exec_src *C,
                     struct exec_error *err)
{
    unsigned sub = in->sub;
    if (in->op == PTX_OP_SETP) {
        if (!q)
            return exec_fail(err, in, "setp.f16x2 needs two destinations p|q");
        EXEC_FOR_EACH_LANE(m, lane, {
            uint64_t a = EXEC_SRC(A, lane), b = EXEC_SRC(B, lane);
            int c = (int)EXEC_SRC(C, lane);
            p[lane] = (uint64_t)bool_op(sub, compare(C_F16, r, a & 0xffffu, b & 0xffffu, 0, ftz), c);
            q[lane] = (uint64_t)bool_op(sub, compare(C_F16, r, a >> 16, b >> 16, 0, ftz), c);
        });
        return 0;
    }
    unsigned dt = in->type;
    if (dt != PTX_T_F16X2 && dt != PTX_T_U32 && dt != PTX_T_S32)
        return exec_fail(err, in, "set.f16x2 writes .f16x2, .u32 or .s32");
    uint64_t one = dt == PTX_T_F16X2 ? 0x3c00u : 0xffffu;
    EXEC_FOR_EACH_LANE(m, lane, {
        uint64_t a = EXEC_SRC(A, lane), b = EXEC_SRC(B, lane), v = 0;
        int c = (int)EXEC_SRC(C, lane);
        for (unsigned h = 0; h < 2; h++) {
            int x = compare(C_F16, r, (a >> (16 * h)) & 0xffffu,
                            (b >> (16 * h)) & 0xffffu, 0, ftz);
            if (bool_op(sub, x, c))
                v |= one << (16 * h);
        }
        p[lane] = v;
    });
    return 0;
}

static int setp_set(struct exec_warp *w, const struct ptx_inst *in,
                    uint32_t m, struct exec_error *err)
{
    int is_setp = in->op == PTX_OP_SETP;
    unsigned ot = is_setp ? in->type : (in->type2 ? in->type2 : in->type);
    unsigned cmp = in->cmp, sub = in->sub;
    struct rel r;
    int ftz = (in->flags & PTX_F_FTZ) != 0;
    if (ot == PTX_T_PRED || ot == PTX_T_NONE)
        return exec_fail(err, in, "unsupported comparison type");
    if (rel_of(cmp, &r)) return exec_fail(err, in, "missing comparison");
    enum ckind k = kind_of(ot, cmp);
    uint64_t flip = k == C_SIGNED ? (uint64_t)1 << (exec_tbits(ot) - 1) : 0;
    if ((k == C_SIGNED || k == C_UNSIGNED) && cmp >= PTX_CMP_EQU)
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
    if (ot == PTX_T_F16X2)
        return cmp_f16x2(in, m, &r, ftz, p, q, &A, &B, &C, err);
    if (is_setp && sub == PTX_SUB_NONE && !q) {
        if (k == C_SIGNED || k == C_UNSIGNED)
            EXEC_FOR_EACH_LANE(m, lane, {
                uint64_t a = EXEC_SRC(&A, lane) ^ flip;
                uint64_t b = EXEC_SRC(&B, lane) ^ flip;
                p[lane] = (uint64_t)(a < b ? r.lt : a == b ? r.eq : r.gt);
            });
        else
            EXEC_FOR_EACH_LANE(m, lane, {
                p[lane] = (uint64_t)compare(k, &r, EXEC_SRC(&A, lane),
                                            EXEC_SRC(&B, lane), 0, ftz);
            });
        return 0;
    }
    if (is_setp) {
        EXEC_FOR_EACH_LANE(m, lane, {
            int x = compare(k, &r, EXEC_SRC(&A, lane), EXEC_SRC(&B, lane),
                            flip, ftz);
            int c = (int)EXEC_SRC(&C, lane);
            p[lane] = (uint64_t)bool_op(sub, x, c);
            if (q) q[lane] = (uint64_t)bool_op(sub, !x, c);
        });
        return 0;
    }
    uint64_t one = in->type == PTX_T_F32 ? 0x3f800000u
                   : in->type == PTX_T_F16 ? 0x3c00u : exec_tmask(in->type);
    EXEC_FOR_EACH_LANE(m, lane, {
        int x = compare(k, &r, EXEC_SRC(&A, lane), EXEC_SRC(&B, lane), flip,
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
