/* SFU semantics: sqrt rsqrt rcp ex2 lg2 sin cos tanh (f32, f64 where PTX
 * has it). .rn/.rz/.rm/.rp forms are exact (exec_fround.c); .approx forms
 * are computed in double with libm and rounded once to nearest, which is
 * at least as accurate as the hardware bounds (docs/exec-semantics.md). */
#include <math.h>
#include "exec/exec_fround.h"
#include "exec/exec_lane.h"

enum sop { S_SQRT, S_RSQRT, S_RCP, S_EX2, S_LG2, S_SIN, S_COS, S_TANH };

static double approx(enum sop op, double x)
{
    switch (op) {
    case S_SQRT: return sqrt(x);
    case S_RSQRT: return 1.0 / sqrt(x);
    case S_RCP: return 1.0 / x;
    case S_EX2: return exp2(x);
    case S_LG2: return log2(x);
    case S_SIN: return sin(x);
    case S_COS: return cos(x);
    case S_TANH: return tanh(x);
    }
    return NAN;
}

static uint32_t sfu32(enum sop op, uint32_t u, int exact, enum exec_fmode md)
{
    float a = exec_f32(u);
    if (exact) {
        if (op == S_SQRT) {
            if (md == EXEC_FR_RN) {
                float r = sqrtf(a);
                return r != r ? EXEC_NAN32 : exec_f32_bits(r);
            }
            return exec_fr_sqrt32(a, md);
        }
        if (md == EXEC_FR_RN) {
            float r = 1.0f / a;
            return r != r ? EXEC_NAN32 : exec_f32_bits(r);
        }
        return exec_fr_div32(1.0f, a, md);
    }
    if (op == S_RSQRT && a == 0) return (u & 0x80000000u) | 0x7f800000u;
    float r = (float)approx(op, (double)a);            /* one RN rounding */
    return r != r ? EXEC_NAN32 : exec_f32_bits(r);
}

static uint64_t sfu64(enum sop op, uint64_t u, int exact, enum exec_fmode md)
{
    double a = exec_f64(u), r;
    if (exact) {
        if (op == S_SQRT) return exec_fr_sqrt64(a, md);
        return exec_fr_div64(1.0, a, md);
    }
    if (op == S_RSQRT && a == 0)
        return (u & 0x8000000000000000ull) | 0x7ff0000000000000ull;
    r = approx(op, a);
    return r != r ? EXEC_NAN64 : exec_f64_bits(r);
}

/* ex2.approx / tanh.approx on .f16 and .f16x2 (each half independent):
 * libm in double on the exact f16 input, rounded once to nearest f16;
 * NaN gives the canonical 0x7fff. Other f16 SFU forms do not exist. */
static int sfu_half(struct exec_warp *w, const struct ptx_inst *in,
                    enum sop op, uint32_t m, struct exec_error *err)
{
    if ((op != S_EX2 && op != S_TANH) || !(in->flags & PTX_F_APPROX))
        return exec_fail(err, in, "only ex2.approx and tanh.approx have .f16/.f16x2 forms");
    if (in->flags & PTX_F_FTZ)
        return exec_fail(err, in, "no .ftz form for .f16/.f16x2 (bf16 only)");
    struct exec_src A;
    uint64_t *d = exec_dst(w, in, &in->o[0], err);
    if (!d || exec_src_init(&A, w, in, &in->o[1], in->type, m, err)) return -1;
    unsigned nh = in->type == PTX_T_F16X2 ? 2 : 1;
    EXEC_FOR_EACH_LANE(m, lane, {
        uint64_t r = 0;
        for (unsigned h = 0; h < nh; h++) {
            uint16_t u = (uint16_t)(EXEC_SRC(&A, lane) >> (16 * h));
            double x = approx(op, exec_f16_to_f64(u));
            r |= exec_fr_from_f64(&exec_ff16, x, 0, EXEC_FR_RN) << (16 * h);
        }
        d[lane] = r;
    });
    return 0;
}

int exec_sfu(struct exec_warp *w, const struct ptx_inst *in, uint32_t m,
             struct exec_error *err)
{
    static const enum sop ops[] = {
        [PTX_OP_SQRT] = S_SQRT, [PTX_OP_RSQRT] = S_RSQRT, [PTX_OP_RCP] = S_RCP,
        [PTX_OP_EX2] = S_EX2, [PTX_OP_LG2] = S_LG2, [PTX_OP_SIN] = S_SIN,
        [PTX_OP_COS] = S_COS, [PTX_OP_TANH] = S_TANH,
    };
    unsigned t = in->type;
    if (in->op < PTX_OP_SQRT || in->op > PTX_OP_TANH)
        return exec_fail(err, in, "not an SFU op");
    enum sop op = ops[in->op];
    /* sqrt and rcp are exact unless .approx; the others are approx only. */
    int exact = (op == S_SQRT || op == S_RCP) && !(in->flags & PTX_F_APPROX);
    if (t == PTX_T_F16 || t == PTX_T_F16X2)
        return sfu_half(w, in, op, m, err);
    if (t != PTX_T_F32 && t != PTX_T_F64)
        return exec_fail(err, in, "unsupported type (f32/f64 only)");
    if (t == PTX_T_F64 && !exact && op != S_RSQRT && op != S_RCP &&
        op != S_SQRT)
        return exec_fail(err, in, "no f64 form of this approximation in PTX");
    struct exec_src A;
    uint64_t *d = exec_dst(w, in, &in->o[0], err);
    if (!d || exec_src_init(&A, w, in, &in->o[1], t, m, err)) return -1;
    enum exec_fmode md = exec_fr_mode(in->rnd);
    int ftz = (in->flags & PTX_F_FTZ) != 0;
    if (t == PTX_T_F32) {
        EXEC_FOR_EACH_LANE(m, lane, {
            uint32_t u = (uint32_t)EXEC_SRC(&A, lane);
            if (ftz && !(u & 0x7f800000u)) u &= 0x80000000u;
            uint32_t r = sfu32(op, u, exact, md);
            if (ftz && !(r & 0x7f800000u)) r &= 0x80000000u;
            d[lane] = r;
        });
        return 0;
    }
    EXEC_FOR_EACH_LANE(m, lane, {
        uint64_t u = EXEC_SRC(&A, lane);
        if (ftz && !(u & 0x7ff0000000000000ull)) u &= 0x8000000000000000ull;
        uint64_t r = sfu64(op, u, exact, md);
        if (ftz && !(r & 0x7ff0000000000000ull)) r &= 0x8000000000000000ull;
        d[lane] = r;
    });
    return 0;
}
