/* Float ALU semantics (f32, f64): add sub mul mad fma div abs neg min max
 * copysign testp; the .f16 and .f16x2 forms of add sub mul fma abs neg
 * min max (.f16x2: two independent f16 lanes in one 32-bit register). Round-to-nearest uses the host's native operations (the
 * host FPU stays in its default RN mode); .rz/.rm/.rp go through the exact
 * helpers of exec_fround.c. .ftz flushes subnormal f32 inputs and results
 * to sign-preserving zero; .sat clamps results to [0, 1] (NaN -> +0).
 * Arithmetic NaN results are the canonical NaN (0x7fffffff / 0x7ff..f). */
#include <math.h>
#include "exec/exec_fround.h"
#include "exec/exec_lane.h"

/* Flush a subnormal f32 pattern to signed zero. */
static inline uint32_t ftz32(uint32_t u)
{
    return (u & 0x7f800000u) ? u : (u & 0x80000000u);
}

static inline uint64_t ftz64(uint64_t u)
{
    return (u & 0x7ff0000000000000ull) ? u : (u & 0x8000000000000000ull);
}

static inline uint32_t canon32(float f)
{
    return f != f ? EXEC_NAN32 : exec_f32_bits(f);
}

static inline uint64_t canon64(double f)
{
    return f != f ? EXEC_NAN64 : exec_f64_bits(f);
}

/* f32 fma in round-to-nearest without libm: the product is exact in
 * double, TwoSum gives the exact error of the double sum, and only an
 * inexact sum needs the (rarer) careful single rounding. */
static inline float fma32_rn(float a, float b, float c)
{
    double p = (double)a * b, s = p + c;
    double bb = s - p, e = (p - (s - bb)) + (c - bb);
    if (e == 0 || s != s || s - s != 0) return (float)s;
    return exec_f32(exec_fr_from_f64(&exec_ff32, s, e > 0 ? 1 : -1, EXEC_FR_RN));
}

static uint32_t sat32f(uint32_t u)
{
    float f = exec_f32(u);
    if (!(f > 0)) return 0;                 /* NaN, -0, negatives -> +0 */
    return f >= 1.0f ? 0x3f800000u : u;
}

static uint64_t sat64f(uint64_t u)
{
    double f = exec_f64(u);
    if (!(f > 0)) return 0;
    return f >= 1.0 ? 0x3ff0000000000000ull : u;
}

/* Operation codes of the per-lane float kernels. */
enum fop { F_ADD, F_SUB, F_MUL, F_FMA, F_DIV, F_DIV_APPROX, F_ABS, F_NEG,
           F_MIN, F_MAX, F_COPYSIGN };

static uint32_t min_max32(uint32_t ua, uint32_t ub, int is_max)
{
    float a = exec_f32(ua), b = exec_f32(ub);
    if (a != a) return b != b ? EXEC_NAN32 : ub;
    if (b != b) return ua;
    if (a == b) {                           /* -0 < +0 */
        int an = (ua >> 31) != 0;
        return (an == is_max) ? ub : ua;
    }
    return ((a < b) != is_max) ? ua : ub;
}

static uint64_t min_max64(uint64_t ua, uint64_t ub, int is_max)
{
    double a = exec_f64(ua), b = exec_f64(ub);
    if (a != a) return b != b ? EXEC_NAN64 : ub;
    if (b != b) return ua;
    if (a == b) {
        int an = (ua >> 63) != 0;
        return (an == is_max) ? ub : ua;
    }
    return ((a < b) != is_max) ? ua : ub;
}

/* One f32 lane: op on pattern inputs in mode (inputs already flushed). */
static uint32_t f32_lane(enum fop op, uint32_t ua, uint32_t ub, uint32_t uc,
                         enum exec_fmode md)
{
    float a = exec_f32(ua), b = exec_f32(ub), c = exec_f32(uc);
    switch (op) {
    case F_ADD: return md ? exec_fr_add32(a, b, md) : canon32(a + b);
    case F_SUB: return md ? exec_fr_add32(a, -b, md) : canon32(a - b);
    case F_MUL: return md ? exec_fr_mul32(a, b, md) : canon32(a * b);
    case F_FMA: return md ? exec_fr_fma32(a, b, c, md) : canon32(fma32_rn(a, b, c));
    case F_DIV: return md ? exec_fr_div32(a, b, md) : canon32(a / b);
    case F_DIV_APPROX: return canon32(a / b);
    case F_ABS: return ua & 0x7fffffffu;
    case F_NEG: return ua ^ 0x80000000u;
    case F_MIN: return min_max32(ua, ub, 0);
    case F_MAX: return min_max32(ua, ub, 1);
    case F_COPYSIGN: return (ub & 0x7fffffffu) | (ua & 0x80000000u);
    }
    return EXEC_NAN32;
}

static uint64_t f64_lane(enum fop op, uint64_t ua, uint64_t ub, uint64_t uc,
                         enum exec_fmode md)
{
    double a = exec_f64(ua), b = exec_f64(ub), c = exec_f64(uc);
    switch (op) {
    case F_ADD: return md ? exec_fr_add64(a, b, md) : canon64(a + b);
    case F_SUB: return md ? exec_fr_add64(a, -b, md) : canon64(a - b);
    case F_MUL: return md ? exec_fr_mul64(a, b, md) : canon64(a * b);
    case F_FMA: return md ? exec_fr_fma64(a, b, c, md) : canon64(fma(a, b, c));
    case F_DIV: return md ? exec_fr_div64(a, b, md) : canon64(a / b);
    case F_DIV_APPROX: return canon64(a / b);
    case F_ABS: return ua & 0x7fffffffffffffffull;
    case F_NEG: return ua ^ 0x8000000000000000ull;
    case F_MIN: return min_max64(ua, ub, 0);
    case F_MAX: return min_max64(ua, ub, 1);
    case F_COPYSIGN:
        return (ub & 0x7fffffffffffffffull) | (ua & 0x8000000000000000ull);
    }
    return EXEC_NAN64;
}

/* f16 lane: inputs flushed already; NaN results are the canonical 0x7fff.
 * Only the ops PTX defines for .f16 reach here. */
static uint32_t f16_lane(enum fop op, uint32_t ua, uint32_t ub, uint32_t uc,
                         enum exec_fmode md)
{
    double a = exec_f16_to_f64((uint16_t)ua), b = exec_f16_to_f64((uint16_t)ub);
    switch (op) {
    case F_ADD: return exec_fr_add16((uint16_t)ua, (uint16_t)ub, md);
    case F_SUB: return exec_fr_add16((uint16_t)ua, (uint16_t)(ub ^ 0x8000u), md);
    case F_MUL: return exec_fr_mul16((uint16_t)ua, (uint16_t)ub, md);
    case F_FMA: return exec_fr_fma16((uint16_t)ua, (uint16_t)ub, (uint16_t)uc, md);
    case F_ABS: return ua & 0x7fffu;
    case F_NEG: return ua ^ 0x8000u;
    case F_MIN: case F_MAX: {
        int is_max = op == F_MAX;
        if (a != a) return b != b ? 0x7fffu : ub;
        if (b != b) return ua;
        if (a == b) return (((ua >> 15) & 1) == (unsigned)is_max) ? ub : ua;
        return ((a < b) != is_max) ? ua : ub;
    }
    default: return 0x7fffu;
    }
}

static inline uint32_t ftz16(uint32_t u)
{
    return (u & 0x7c00u) ? u : (u & 0x8000u);
}

static uint32_t sat16(uint32_t u)
{
    double f = exec_f16_to_f64((uint16_t)u);
    if (!(f > 0)) return 0;
    return f >= 1.0 ? 0x3c00u : u;
}

/* One f16 operation with .ftz (inputs and result), .sat and min/max
 * .NaN (a NaN input gives the canonical NaN 0x7fff). */
static uint32_t f16_full(enum fop op, uint32_t a, uint32_t b, uint32_t c,
                         enum exec_fmode md, int ftz, int sat, int nanp)
{
    if (ftz) { a = ftz16(a); b = ftz16(b); c = ftz16(c); }
    if (nanp && (((a & 0x7fffu) > 0x7c00u) || ((b & 0x7fffu) > 0x7c00u)))
        return 0x7fffu;
    uint32_t r = f16_lane(op, a, b, c, md);
    if (ftz) r = ftz16(r);
    if (sat) r = sat16(r);
    return r;
}

static int testp(uint64_t u, unsigned bits, unsigned cls)
{
    uint64_t emask = bits == 32 ? 0x7f800000ull : 0x7ff0000000000000ull;
    uint64_t fmask = bits == 32 ? 0x007fffffull : 0x000fffffffffffffull;
    uint64_t e = u & emask, f = u & fmask;
    int nan = e == emask && f, inf = e == emask && !f;
    switch (cls) {
    case PTX_SUB_FINITE: return e != emask;
    case PTX_SUB_INFINITE: return inf;
    case PTX_SUB_NUMBER: return !nan;
    case PTX_SUB_NOTANUMBER: return nan;
    case PTX_SUB_NORMAL: return e != 0 && e != emask;
    case PTX_SUB_SUBNORMAL: return e == 0 && f != 0;
    default: return 0;
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#define EXEC_HAVE_FMA_HW 1
/* Hardware fused multiply-add loops (FMA3), chosen at run time. */
__attribute__((target("fma")))
static void fma_loop_hw(unsigned t, uint32_t m, uint64_t *d,
                        const struct exec_src *A, const struct exec_src *B,
                        const struct exec_src *C)
{
    if (t == PTX_T_F32) {
        EXEC_FOR_EACH_LANE(m, lane, {
            float r = __builtin_fmaf(exec_f32(EXEC_SRC(A, lane)),
                                     exec_f32(EXEC_SRC(B, lane)),
                                     exec_f32(EXEC_SRC(C, lane)));
            d[lane] = r != r ? EXEC_NAN32 : exec_f32_bits(r);
        });
    } else {
        EXEC_FOR_EACH_LANE(m, lane, {
            double r = __builtin_fma(exec_f64(EXEC_SRC(A, lane)),
                                     exec_f64(EXEC_SRC(B, lane)),
                                     exec_f64(EXEC_SRC(C, lane)));
            d[lane] = r != r ? EXEC_NAN64 : exec_f64_bits(r);
        });
    }
}
#endif

/* Fast loops for the common unmodified round-to-nearest forms. */
static int fast_rn(unsigned t, enum fop op, uint32_t m, uint64_t *d,
                   const struct exec_src *A, const struct exec_src *B,
                   const struct exec_src *C)
{
#ifdef EXEC_HAVE_FMA_HW
    if (op == F_FMA && __builtin_cpu_supports("fma")) {
        fma_loop_hw(t, m, d, A, B, C);
        return 1;
    }
#endif
#define F32L(EXPR)                                                            \
    EXEC_FOR_EACH_LANE(m, lane, {                                             \
        float a = exec_f32(EXEC_SRC(A, lane)), b = exec_f32(EXEC_SRC(B, lane));\
        float r = (EXPR);                                                     \
        d[lane] = r != r ? EXEC_NAN32 : exec_f32_bits(r);                     \
    })
#define F64L(EXPR)                                                            \
    EXEC_FOR_EACH_LANE(m, lane, {                                             \
        double a = exec_f64(EXEC_SRC(A, lane)), b = exec_f64(EXEC_SRC(B, lane));\
        double r = (EXPR);                                                    \
        d[lane] = r != r ? EXEC_NAN64 : exec_f64_bits(r);                     \
    })
    if (t == PTX_T_F32) {
        switch (op) {
        case F_ADD: F32L(a + b); return 1;
        case F_SUB: F32L(a - b); return 1;
        case F_MUL: F32L(a * b); return 1;
        case F_FMA: F32L(fma32_rn(a, b, exec_f32(EXEC_SRC(C, lane)))); return 1;
        default: return 0;
        }
    }
    switch (op) {
    case F_ADD: F64L(a + b); return 1;
    case F_SUB: F64L(a - b); return 1;
    case F_MUL: F64L(a * b); return 1;
    case F_FMA: F64L(fma(a, b, exec_f64(EXEC_SRC(C, lane)))); return 1;
    default: return 0;
    }
#undef F32L
#undef F64L
}

int exec_float_arith(struct exec_warp *w, const struct ptx_inst *in,
                     uint32_t m, struct exec_error *err)
{
    unsigned t = in->type, fl = in->flags;
    static const struct ptx_operand none;
    struct exec_src A, B, C;
    enum fop op;
    int nsrc = 2;
    switch (in->op) {
    case PTX_OP_ADD: op = F_ADD; break;
    case PTX_OP_SUB: op = F_SUB; break;
    case PTX_OP_MUL: op = F_MUL; break;
    case PTX_OP_MAD: case PTX_OP_FMA: op = F_FMA; nsrc = 3; break;
    case PTX_OP_DIV: op = (fl & PTX_F_APPROX) ? F_DIV_APPROX : F_DIV; break;
    case PTX_OP_ABS: op = F_ABS; nsrc = 1; break;
    case PTX_OP_NEG: op = F_NEG; nsrc = 1; break;
    case PTX_OP_MIN: op = F_MIN; break;
    case PTX_OP_MAX: op = F_MAX; break;
    case PTX_OP_COPYSIGN: op = F_COPYSIGN; break;
    case PTX_OP_TESTP: op = F_ABS; nsrc = 1; break;
    default: return exec_fail(err, in, "not a float op");
    }
    int half = t == PTX_T_F16 || t == PTX_T_F16X2;
    if (half && (op == F_DIV || op == F_DIV_APPROX ||
                 op == F_COPYSIGN || in->op == PTX_OP_TESTP))
        return exec_fail(err, in, "no .f16/.f16x2 form of this instruction");
    if (t != PTX_T_F32 && t != PTX_T_F64 && !half)
        return exec_fail(err, in, "unsupported float type");
    if ((fl & PTX_F_NAN) && t == PTX_T_F64)
        return exec_fail(err, in, "no .NaN form for .f64");
    uint64_t *d = exec_dst(w, in, &in->o[0], err);
    if (!d) return -1;
    if (exec_src_init(&A, w, in, &in->o[1], t, m, err) ||
        exec_src_init(&B, w, in, nsrc >= 2 ? &in->o[2] : &none, t, m, err) ||
        exec_src_init(&C, w, in, nsrc >= 3 ? &in->o[3] : &none, t, m, err))
        return -1;
    if (in->op == PTX_OP_TESTP) {
        unsigned bits = exec_tbits(t);
        EXEC_FOR_EACH_LANE(m, lane, {
            d[lane] = (uint64_t)testp(EXEC_SRC(&A, lane), bits, in->sub);
        });
        return 0;
    }
    enum exec_fmode md = exec_fr_mode(in->rnd);
    int ftz = (fl & PTX_F_FTZ) != 0, sat = (fl & PTX_F_SAT) != 0;
    int nanp = (fl & PTX_F_NAN) != 0;
    if (half) {
        /* .f16x2: the two halves are independent f16 operations */
        unsigned nh = t == PTX_T_F16X2 ? 2 : 1;
        EXEC_FOR_EACH_LANE(m, lane, {
            uint64_t r2 = 0;
            for (unsigned h = 0; h < nh; h++) {
                unsigned sh = 16 * h;
                uint32_t a = (uint32_t)(EXEC_SRC(&A, lane) >> sh) & 0xffffu;
                uint32_t b = (uint32_t)(EXEC_SRC(&B, lane) >> sh) & 0xffffu;
                uint32_t c = (uint32_t)(EXEC_SRC(&C, lane) >> sh) & 0xffffu;
                r2 |= (uint64_t)f16_full(op, a, b, c, md, ftz, sat, nanp) << sh;
            }
            d[lane] = r2;
        });
        return 0;
    }
    if (nanp) {                         /* min/max.NaN.f32 */
        EXEC_FOR_EACH_LANE(m, lane, {
            uint32_t a = (uint32_t)EXEC_SRC(&A, lane);
            uint32_t b = (uint32_t)EXEC_SRC(&B, lane);
            if (ftz) { a = ftz32(a); b = ftz32(b); }
            float x = exec_f32(a), y = exec_f32(b);
            d[lane] = (x != x || y != y) ? EXEC_NAN32 : f32_lane(op, a, b, 0, md);
        });
        return 0;
    }
    if (t == PTX_T_F32) {
        if (!ftz && !sat && md == EXEC_FR_RN && fast_rn(t, op, m, d, &A, &B, &C))
            return 0;
        EXEC_FOR_EACH_LANE(m, lane, {
            uint32_t a = (uint32_t)EXEC_SRC(&A, lane);
            uint32_t b = (uint32_t)EXEC_SRC(&B, lane);
            uint32_t c = (uint32_t)EXEC_SRC(&C, lane);
            if (ftz) { a = ftz32(a); b = ftz32(b); c = ftz32(c); }
            uint32_t r = f32_lane(op, a, b, c, md);
            if (ftz) r = ftz32(r);
            if (sat) r = sat32f(r);
            d[lane] = r;
        });
        return 0;
    }
    if (!ftz && !sat && md == EXEC_FR_RN && fast_rn(t, op, m, d, &A, &B, &C))
        return 0;
    EXEC_FOR_EACH_LANE(m, lane, {
        uint64_t r = f64_lane(op, EXEC_SRC(&A, lane), EXEC_SRC(&B, lane),
                              EXEC_SRC(&C, lane), md);
        if (ftz) r = ftz64(r);
        if (sat) r = sat64f(r);
        d[lane] = r;
    });
    return 0;
}
