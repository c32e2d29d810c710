/* cvt and mov. cvt covers int<->int (sign/zero extension, truncation,
 * .sat clamping), int->float (.rn/.rz/.rm/.rp, exact), float->int
 * (.rni/.rzi/.rmi/.rpi; always saturating as PTX: NaN -> 0, out-of-range
 * clamps), float->float (f16/f32/f64 with rounding, .rni.. to integral,
 * .ftz, .sat). mov covers registers, immediates, special registers, symbol
 * addresses, and vector pack/unpack ({lo,hi}). */
#include <math.h>
#include "exec/exec_fround.h"
#include "exec/exec_lane.h"

static const struct exec_ffmt *ffmt(unsigned t)
{
    return t == PTX_T_F16 ? &exec_ff16 : t == PTX_T_F32 ? &exec_ff32 : &exec_ff64;
}

/* Exact value of a float pattern of type t (f32 .ftz flushes subnormals). */
static double fval(uint64_t u, unsigned t, int ftz)
{
    if (t == PTX_T_F16) return exec_f16_to_f64((uint16_t)u);
    if (t == PTX_T_F32) {
        uint32_t x = (uint32_t)u;
        if (ftz && !(x & 0x7f800000u)) x &= 0x80000000u;
        return (double)exec_f32(x);
    }
    return exec_f64(u);
}

/* Round to an integral value in the direction of an .rni/.rzi/.rmi/.rpi,
 * without libm: |x| >= 2^52, inf and NaN are already integral; otherwise
 * the int64 truncation is exact and is stepped by one as the mode needs.
 * The sign of a zero result is the sign of x (-0.4 .rni -> -0.0). */
static double to_integral(double x, unsigned rnd)
{
    if (!(__builtin_fabs(x) < 0x1p52)) return x;
    double t = (double)(int64_t)x, r = t, diff = x - t;   /* both exact */
    switch (rnd) {
    case PTX_RND_RZI: break;
    case PTX_RND_RMI: if (diff < 0) r = t - 1; break;
    case PTX_RND_RPI: if (diff > 0) r = t + 1; break;
    default: {                                  /* nearest, ties to even */
        double ad = __builtin_fabs(diff);
        int odd = ((int64_t)t & 1) != 0;
        if (ad > 0.5 || (ad == 0.5 && odd)) r = diff > 0 ? t + 1 : t - 1;
        break;
    }
    }
    return __builtin_copysign(r, x);
}

static int is_int_rnd(unsigned rnd)
{
    return rnd >= PTX_RND_RNI && rnd <= PTX_RND_RPI;
}

/* Float value (already integral or not) -> saturated integer of type dt. */
static uint64_t f2i(double x, unsigned dt, unsigned rnd)
{
    unsigned bits = exec_tbits(dt);
    if (x != x) return 0;
    x = to_integral(x, is_int_rnd(rnd) ? rnd : PTX_RND_RZI);
    if (exec_tsigned(dt)) {
        double hi = (double)((uint64_t)1 << (bits - 1)), lo = -hi;
        if (x <= lo)
            return dt == PTX_T_S8 ? 0xff80 : ((uint64_t)1 << (bits - 1)) & exec_tmask(dt);
        if (x >= hi) return exec_tmask(dt) >> 1;
        if (dt == PTX_T_S8) return (uint64_t)(int64_t)x & 0xffff;
        return (uint64_t)(int64_t)x & exec_tmask(dt);
    }
    if (x <= 0) return 0;
    if (x >= 2.0 * (double)((uint64_t)1 << (bits - 1))) return exec_tmask(dt);
    return (uint64_t)x;
}

/* Integer (already extended to 64 bits) -> integer of type dt. */
static uint64_t i2i(uint64_t v, int ssrc, unsigned dt, int sat)
{
    uint64_t k = exec_tmask(dt);
    unsigned bits = exec_tbits(dt);
    if (sat) {
        if (exec_tsigned(dt)) {
            int64_t lo = bits >= 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
            int64_t hi = bits >= 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
            if (ssrc && (int64_t)v < lo) v = (uint64_t)lo;
            else if (ssrc ? (int64_t)v > hi : v > (uint64_t)hi) v = (uint64_t)hi;
        } else {
            if (ssrc && (int64_t)v < 0) v = 0;
            else if (v > k) v = k;
        }
    }
    /* An .s8 result sign-extends into its (at least 16-bit) register. */
    if (dt == PTX_T_S8) return (uint64_t)exec_sext(v, 8) & 0xffff;
    return v & k;
}

static uint64_t satf(uint64_t u, unsigned t)
{
    double x = fval(u, t, 0);
    if (!(x > 0)) return 0;
    if (x < 1) return u;
    return t == PTX_T_F16 ? 0x3c00 : t == PTX_T_F32 ? 0x3f800000u
                                                    : 0x3ff0000000000000ull;
}

/* Float result pattern of type dt from the exact value x (finite or not). */
static uint64_t to_float(double x, unsigned dt, unsigned rnd, int ftz, int sat)
{
    uint64_t r;
    enum exec_fmode md = exec_fr_mode(rnd);
    if (dt == PTX_T_F64) r = x != x ? EXEC_NAN64 : exec_f64_bits(x);
    else if (dt == PTX_T_F32 && md == EXEC_FR_RN)     /* native RN */
        r = x != x ? EXEC_NAN32 : exec_f32_bits((float)x);
    else r = exec_fr_from_f64(ffmt(dt), x, 0, md);
    if (ftz && dt == PTX_T_F32 && !(r & 0x7f800000u)) r &= 0x80000000u;
    if (sat) r = satf(r, dt);
    return r;
}

static uint64_t cvt_lane(uint64_t a, unsigned dt, unsigned st, unsigned rnd,
                         int ftz, int sat)
{
    int dfl = exec_tfloat(dt), sfl = exec_tfloat(st);
    if (!sfl) {
        int ss = exec_tsigned(st);
        uint64_t v = ss ? (uint64_t)exec_sext(a, exec_tbits(st)) : a;
        if (!dfl) return i2i(v, ss, dt, sat);
        int neg = ss && (int64_t)v < 0;
        enum exec_fmode md = exec_fr_mode(rnd);
        uint64_t r;
        if (md == EXEC_FR_RN && dt == PTX_T_F32)          /* native RN */
            r = exec_f32_bits(ss ? (float)(int64_t)v : (float)v);
        else if (md == EXEC_FR_RN && dt == PTX_T_F64)
            r = exec_f64_bits(ss ? (double)(int64_t)v : (double)v);
        else
            r = exec_fr_from_int(ffmt(dt), neg, neg ? 0 - v : v, md);
        if (sat) r = satf(r, dt);
        return r;
    }
    double x = fval(a, st, ftz);
    if (!dfl) return f2i(x, dt, rnd);
    if (is_int_rnd(rnd)) {
        x = to_integral(x, rnd);
        rnd = PTX_RND_RN;
    }
    return to_float(x, dt, rnd, ftz, sat);
}

int exec_cvt(struct exec_warp *w, const struct ptx_inst *in, uint32_t m,
             struct exec_error *err)
{
    unsigned dt = in->type, st = in->type2 ? in->type2 : in->type;
    if (dt == PTX_T_PRED || st == PTX_T_PRED || dt == PTX_T_NONE)
        return exec_fail(err, in, "unsupported cvt type pair");
    struct exec_src A;
    uint64_t *d = exec_dst(w, in, &in->o[0], err);
    if (!d || exec_src_init(&A, w, in, &in->o[1], st, m, err)) return -1;
    int ftz = (in->flags & PTX_F_FTZ) != 0, sat = (in->flags & PTX_F_SAT) != 0;
    unsigned rnd = in->rnd;
    if (dt == PTX_T_F16X2 || st == PTX_T_F16X2) {
        /* cvt.rn/.rz.f16x2.f32 d, a, b: d = {f16(a) high, f16(b) low} */
        struct exec_src B;
        if (dt != PTX_T_F16X2 || st != PTX_T_F32 || ftz ||
            (rnd != PTX_RND_RN && rnd != PTX_RND_RZ))
            return exec_fail(err, in, "only cvt.rn/.rz.f16x2.f32 d, a, b converts to .f16x2");
        if (exec_src_init(&B, w, in, &in->o[2], st, m, err)) return -1;
        EXEC_FOR_EACH_LANE(m, lane, {
            uint64_t hi = cvt_lane(EXEC_SRC(&A, lane), PTX_T_F16, st, rnd, 0, sat);
            uint64_t lo = cvt_lane(EXEC_SRC(&B, lane), PTX_T_F16, st, rnd, 0, sat);
            d[lane] = (hi << 16) | lo;
        });
        return 0;
    }
    /* Fast paths for the common extension/truncation forms. */
    if (!exec_tfloat(dt) && !exec_tfloat(st) && !sat && dt != PTX_T_S8) {
        uint64_t k = exec_tmask(dt);
        unsigned sb = exec_tbits(st);
        if (exec_tsigned(st))
            EXEC_FOR_EACH_LANE(m, lane, {
                d[lane] = (uint64_t)exec_sext(EXEC_SRC(&A, lane), sb) & k;
            });
        else
            EXEC_FOR_EACH_LANE(m, lane, { d[lane] = EXEC_SRC(&A, lane) & k; });
        return 0;
    }
    EXEC_FOR_EACH_LANE(m, lane, {
        d[lane] = cvt_lane(EXEC_SRC(&A, lane), dt, st, rnd, ftz, sat);
    });
    return 0;
}

/* ---- mov ---- */

int exec_mov(struct exec_warp *w, const struct ptx_inst *in, uint32_t m,
             struct exec_error *err)
{
    unsigned t = in->type;
    const struct ptx_operand *od = &in->o[0], *oa = &in->o[1];
    if (od->kind == PTX_O_VEC || oa->kind == PTX_O_VEC) {
        const struct ptx_operand *ov = od->kind == PTX_O_VEC ? od : oa;
        unsigned n = ov->vec_n, bits = exec_tbits(t);
        if (n < 2 || n > 4 || bits % n || (od->kind == PTX_O_VEC) ==
                                             (oa->kind == PTX_O_VEC))
            return exec_fail(err, in, "bad vector mov");
        unsigned ew = bits / n;
        uint64_t ek = ew >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << ew) - 1);
        for (unsigned i = 0; i < n; i++)
            if (ov->vec_regs[i] >= (int32_t)w->nregs ||
                (ov->vec_regs[i] == -1 && ov == oa) ||
                (ov->vec_regs[i] == PTX_VEC_ZERO && ov == od))
                return exec_fail(err, in, ov == od ? "a literal in a destination vector"
                                                   : "vector register out of range");
        if (ov == od) {                              /* unpack */
            struct exec_src A;
            if (exec_src_init(&A, w, in, oa, t, m, err)) return -1;
            for (unsigned i = 0; i < n; i++) {
                if (ov->vec_regs[i] < 0) continue;   /* '_' sink */
                uint64_t *d = w->regs + (size_t)ov->vec_regs[i] * EXEC_WARP;
                EXEC_FOR_EACH_LANE(m, lane, {
                    d[lane] = (EXEC_SRC(&A, lane) >> (i * ew)) & ek;
                });
            }
            return 0;
        }
        uint64_t *d = exec_dst(w, in, od, err);      /* pack */
        if (!d) return -1;
        EXEC_FOR_EACH_LANE(m, lane, {
            uint64_t v = 0;
            for (unsigned i = 0; i < n; i++)
                if (ov->vec_regs[i] >= 0)       /* PTX_VEC_ZERO adds nothing */
                    v |= (w->regs[(size_t)ov->vec_regs[i] * EXEC_WARP + lane] & ek)
                         << (i * ew);
            d[lane] = v;
        });
        return 0;
    }
    struct exec_src A;
    uint64_t *d = exec_dst(w, in, od, err);
    if (!d || exec_src_init(&A, w, in, oa, t, m, err)) return -1;
    if (A.m == 0) {
        uint64_t v = EXEC_SRC(&A, 0);
        EXEC_FOR_EACH_LANE(m, lane, { d[lane] = v; });
    } else {
        EXEC_FOR_EACH_LANE(m, lane, { d[lane] = EXEC_SRC(&A, lane); });
    }
    return 0;
}
