/* Video instructions (PTX ISA "scalar video" and "SIMD video"): vadd vsub
 * vabsdiff vmin vmax vshl vshr vmad vset on a selected byte/half/word of
 * each source, and vadd2..vset2 / vadd4..vset4 on 16-bit / 8-bit lanes,
 * with the ISA's pseudo-code followed step by step: sources extended by
 * their own type, the operation on exact (128-bit) intermediates,
 * optional saturation to the destination range, then a secondary
 * operation (.add/.min/.max), a merge into c (d.dsel, d.mask) or the
 * SIMD .add accumulate. Operand layout and selector encoding: ptx_ir.h. */
#include "exec/exec_lane.h"

typedef __int128 s128;

/* partSelectSignExtend: byte/half sel of v (none: the 32-bit word),
 * sign-extended when sgn. */
static int64_t vsel(uint64_t v, unsigned sel, int sgn)
{
    unsigned bits = 32, idx = 0;
    if (sel) {
        bits = (sel & PTX_SEL_B) ? 8 : 16;
        idx = PTX_SEL_DIGIT(sel, 0);
    }
    uint64_t x = (v >> (bits * idx)) & ((1ull << bits) - 1);
    return sgn ? exec_sext(x, bits) : (int64_t)x;
}

static s128 clamp128(s128 v, s128 lo, s128 hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Saturation to a bits-wide signed or unsigned range. */
static s128 sat_bits(s128 v, unsigned bits, int sgn)
{
    if (sgn)
        return clamp128(v, -((s128)1 << (bits - 1)), ((s128)1 << (bits - 1)) - 1);
    return clamp128(v, 0, ((s128)1 << bits) - 1);
}

static int vcmp(unsigned cmp, s128 a, s128 b)
{
    switch (cmp) {
    case PTX_CMP_EQ: return a == b;
    case PTX_CMP_NE: return a != b;
    case PTX_CMP_LT: return a < b;
    case PTX_CMP_LE: return a <= b;
    case PTX_CMP_GT: return a > b;
    default: return a >= b;             /* PTX_CMP_GE (checked at parse) */
    }
}

/* One scalar video lane (everything but vmad). */
static uint64_t video_scalar(const struct ptx_inst *in, uint64_t a, uint64_t b,
                             uint64_t c, int dsg, int asg, int bsg)
{
    unsigned dsel = in->o[0].sel;
    s128 ta = vsel(a, in->o[1].sel, asg), tb, tmp;
    int shift = in->op == PTX_OP_VSHL || in->op == PTX_OP_VSHR;
    tb = vsel(b, in->o[2].sel, shift ? 0 : bsg);
    if (shift) {
        if (in->mode == PTX_MODE_CLAMP && tb > 32) tb = 32;
        if (in->mode == PTX_MODE_WRAP) tb &= 0x1f;
    }
    switch (in->op) {
    case PTX_OP_VADD: tmp = ta + tb; break;
    case PTX_OP_VSUB: tmp = ta - tb; break;
    case PTX_OP_VABSDIFF: tmp = ta > tb ? ta - tb : tb - ta; break;
    case PTX_OP_VMIN: tmp = ta < tb ? ta : tb; break;
    case PTX_OP_VMAX: tmp = ta > tb ? ta : tb; break;
    case PTX_OP_VSHL: tmp = (s128)((unsigned __int128)ta << (unsigned)tb); break;
    case PTX_OP_VSHR: tmp = ta >> (unsigned)tb; break;
    default: tmp = vcmp(in->cmp, ta, tb); break;           /* vset */
    }
    if ((in->flags & PTX_F_SAT) && in->op != PTX_OP_VSET)
        tmp = sat_bits(tmp, dsel ? ((dsel & PTX_SEL_B) ? 8 : 16) : 32, dsg);
    s128 tc = dsg ? (s128)exec_sext(c, 32) : (s128)(c & 0xffffffffu);
    switch (in->sub) {                  /* optSecondaryOp */
    case PTX_SUB_ADD: return (uint64_t)(tmp + tc) & 0xffffffffu;
    case PTX_SUB_MIN: return (uint64_t)(tmp < tc ? tmp : tc) & 0xffffffffu;
    case PTX_SUB_MAX: return (uint64_t)(tmp > tc ? tmp : tc) & 0xffffffffu;
    default: break;
    }
    if (dsel) {                         /* optMerge into c */
        unsigned bits = (dsel & PTX_SEL_B) ? 8 : 16;
        unsigned sh = bits * PTX_SEL_DIGIT(dsel, 0);
        uint64_t k = ((1ull << bits) - 1) << sh;
        return ((c & ~k) | (((uint64_t)tmp << sh) & k)) & 0xffffffffu;
    }
    return (uint64_t)tmp & 0xffffffffu;
}

/* vmad (ISA pseudo-code): (+/-)(a*b) + (+/-)c (+1 for .po), scaled,
 * saturated to the final 32-bit range. */
static uint64_t video_mad(const struct ptx_inst *in, uint64_t a, uint64_t b,
                          uint64_t c, int asg, int bsg)
{
    int na = in->o[1].neg, nb = in->o[2].neg, nc = in->o[3].neg;
    s128 ta = vsel(a, in->o[1].sel, asg), tb = vsel(b, in->o[2].sel, bsg);
    int sfinal = asg || bsg || (na ^ nb) || nc;
    s128 tmp = ta * tb, lsb = 0;
    s128 tc = (s128)(c & 0xffffffffu);
    if (in->flags & PTX_F_PO) {
        lsb = 1;
    } else if (na ^ nb) {
        tmp = ~tmp;
        lsb = 1;
    } else if (nc) {
        tc = (s128)(~c & 0xffffffffu);
        lsb = 1;
    }
    if (sfinal)
        tc = exec_sext((uint64_t)tc, 32);
    tmp = tmp + tc + lsb;
    if (in->mode == PTX_MODE_SHR7) tmp >>= 7;
    else if (in->mode == PTX_MODE_SHR15) tmp >>= 15;
    if (in->flags & PTX_F_SAT)
        tmp = sat_bits(tmp, 32, sfinal);
    return (uint64_t)tmp & 0xffffffffu;
}

/* One SIMD lane op on extended values. */
static s128 simd_op(const struct ptx_inst *in, s128 a, s128 b)
{
    switch (in->op) {
    case PTX_OP_VADD2: case PTX_OP_VADD4: return a + b;
    case PTX_OP_VSUB2: case PTX_OP_VSUB4: return a - b;
    case PTX_OP_VAVRG2: case PTX_OP_VAVRG4:
        return (a + b) >= 0 ? (a + b + 1) >> 1 : (a + b) >> 1;
    case PTX_OP_VABSDIFF2: case PTX_OP_VABSDIFF4: return a > b ? a - b : b - a;
    case PTX_OP_VMIN2: case PTX_OP_VMIN4: return a < b ? a : b;
    case PTX_OP_VMAX2: case PTX_OP_VMAX4: return a > b ? a : b;
    default: return vcmp(in->cmp, a, b);                   /* vset2/4 */
    }
}

/* Lane j of a SIMD source: element PTX_SEL_DIGIT(sel, j) of the 64-bit
 * {b, a} (a in the low half), extended by its own type; dflt is the
 * selector that applies when none is written. */
static s128 simd_src(uint64_t ab, unsigned sel, unsigned dflt, unsigned j,
                     unsigned bits, int sgn)
{
    unsigned e = PTX_SEL_DIGIT(sel ? sel : dflt, j);
    uint64_t x = (ab >> (bits * e)) & ((1ull << bits) - 1);
    return sgn ? exec_sext(x, bits) : (s128)x;
}

static uint64_t video_simd(const struct ptx_inst *in, uint64_t a, uint64_t b,
                           uint64_t c, int dsg, int asg, int bsg)
{
    int four = in->op >= PTX_OP_VADD4;
    unsigned n = four ? 4 : 2, bits = four ? 8 : 16;
    /* defaults: asel .h10 / .b3210, bsel .h32 / .b7654 */
    unsigned da = four ? (PTX_SEL_B | 0x3000u | (3u << 9) | (2u << 6) | (1u << 3))
                       : (PTX_SEL_H | 0x1000u | (1u << 3));
    unsigned db = four ? (PTX_SEL_B | 0x3000u | (7u << 9) | (6u << 6) | (5u << 3) | 4u)
                       : (PTX_SEL_H | 0x1000u | (3u << 3) | 2u);
    unsigned msel = in->o[0].sel, mask = 0;
    if (!msel) {
        mask = (1u << n) - 1;
    } else {
        for (unsigned i = 0; i < PTX_SEL_N(msel); i++)
            mask |= 1u << PTX_SEL_DIGIT(msel, i);
    }
    uint64_t ab = (a & 0xffffffffu) | ((b & 0xffffffffu) << 32);
    int set = in->op == PTX_OP_VSET2 || in->op == PTX_OP_VSET4;
    s128 acc = (s128)(c & 0xffffffffu);
    uint64_t d = 0, lk = (1ull << bits) - 1;
    for (unsigned j = 0; j < n; j++) {
        s128 va = simd_src(ab, in->o[1].sel, da, j, bits, asg);
        s128 vb = simd_src(ab, in->o[2].sel, db, j, bits, bsg);
        s128 t = simd_op(in, va, vb);
        if ((in->flags & PTX_F_SAT) && !set)
            t = sat_bits(t, bits, dsg);
        if (in->sub == PTX_SUB_ADD) {
            if (mask & (1u << j))
                acc += t;
        } else {
            uint64_t lane = (mask & (1u << j)) ? (uint64_t)t : c >> (bits * j);
            d |= (lane & lk) << (bits * j);
        }
    }
    return in->sub == PTX_SUB_ADD ? (uint64_t)acc & 0xffffffffu : d;
}

int exec_video(struct exec_warp *w, const struct ptx_inst *in, uint32_t m,
               struct exec_error *err)
{
    enum ptx_op op = (enum ptx_op)in->op;
    int set = op == PTX_OP_VSET || op == PTX_OP_VSET2 || op == PTX_OP_VSET4;
    /* vset* name a/b types only (d is .u32); the others d.a.b */
    unsigned dt = set ? PTX_T_U32 : in->type;
    unsigned at = set ? in->type : in->type2, bt = set ? in->type2 : in->type3;
    if ((dt != PTX_T_U32 && dt != PTX_T_S32) || (at != PTX_T_U32 && at != PTX_T_S32) ||
        (bt != PTX_T_U32 && bt != PTX_T_S32))
        return exec_fail(err, in, "video instructions need .u32/.s32 types");
    if (op == PTX_OP_VMAD) {
        int nab = in->o[1].neg ^ in->o[2].neg;
        if ((in->flags & PTX_F_PO) && (in->o[1].neg || in->o[2].neg || in->o[3].neg))
            return exec_fail(err, in, "vmad: no operand negation with .po");
        if (nab && in->o[3].neg)
            return exec_fail(err, in, "vmad: negate either a*b or c, not both");
    }
    static const struct ptx_operand none;
    struct exec_src A, B, C;
    uint64_t *d = exec_dst(w, in, &in->o[0], err);
    if (!d) return -1;
    if (exec_src_init(&A, w, in, &in->o[1], PTX_T_U32, m, err) ||
        exec_src_init(&B, w, in, &in->o[2], PTX_T_U32, m, err) ||
        exec_src_init(&C, w, in, in->nopnd > 3 ? &in->o[3] : &none, PTX_T_U32, m, err))
        return -1;
    int dsg = exec_tsigned(dt), asg = exec_tsigned(at), bsg = exec_tsigned(bt);
    int simd = op >= PTX_OP_VADD2;
    EXEC_FOR_EACH_LANE(m, lane, {
        uint64_t a = EXEC_SRC(&A, lane), b = EXEC_SRC(&B, lane), c = EXEC_SRC(&C, lane);
        d[lane] = simd ? video_simd(in, a, b, c, dsg, asg, bsg)
                  : op == PTX_OP_VMAD ? video_mad(in, a, b, c, asg, bsg)
                                      : video_scalar(in, a, b, c, dsg, asg, bsg);
    });
    return 0;
}
