/* Exact directed rounding (see exec_fround.h). Every operation finds the
 * exact result as an integer significand (plus a sticky bit) or as a
 * native round-to-nearest result plus the sign of its error (TwoSum, fma
 * residual), then rounds once with exec_fr_round. */
#include <math.h>
#include <string.h>
#include "exec/exec_fround.h"
#include "ptx/ptx_ir.h"

typedef unsigned __int128 u128;

const struct exec_ffmt exec_ff16 = { 11, -14, 15, 16 };
const struct exec_ffmt exec_ffbf16 = { 8, -126, 127, 16 };
const struct exec_ffmt exec_ff32 = { 24, -126, 127, 32 };
const struct exec_ffmt exec_ff64 = { 53, -1022, 1023, 64 };

enum exec_fmode exec_fr_mode(unsigned r)
{
    switch (r) {
    case PTX_RND_RZ: case PTX_RND_RZI: return EXEC_FR_RZ;
    case PTX_RND_RM: case PTX_RND_RMI: return EXEC_FR_RM;
    case PTX_RND_RP: case PTX_RND_RPI: return EXEC_FR_RP;
    default: return EXEC_FR_RN;
    }
}

static uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }


static int clz128(u128 x)
{
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? __builtin_clzll(hi) : 64 + __builtin_clzll((uint64_t)x);
}

/* Does mode round magnitudes away from zero for this sign? */
static int fr_away(enum exec_fmode mode, int sign)
{
    return (mode == EXEC_FR_RP && !sign) || (mode == EXEC_FR_RM && sign);
}

static uint64_t fr_inf(const struct exec_ffmt *f, int sign)
{
    uint64_t e = (uint64_t)(2 * f->emax + 1) << (f->p - 1);
    return ((uint64_t)sign << (f->bits - 1)) | e;
}

static uint64_t fr_nan(const struct exec_ffmt *f)
{
    return f->bits == 64 ? 0x7fffffffffffffffull
                         : (((uint64_t)1 << (f->bits - 1)) - 1);
}

uint64_t exec_fr_round(const struct exec_ffmt *f, int sign, u128 mant,
                       int exp, int sticky, enum exec_fmode mode)
{
    uint64_t sbit = (uint64_t)(sign ? 1 : 0) << (f->bits - 1);
    if (mant == 0) return sbit;
    int msb = 127 - clz128(mant);
    int e = msb + exp;
    int lsb = (e < f->emin ? f->emin : e) - (f->p - 1);
    int sh = lsb - exp;
    u128 q;
    int rbit = 0;
    if (sh > 0) {
        if (sh > 128) {
            q = 0;
            sticky = 1;
        } else if (sh == 128) {
            q = 0;
            rbit = (int)(mant >> 127);
            sticky |= (mant << 1) != 0;
        } else {
            q = mant >> sh;
            rbit = (int)((mant >> (sh - 1)) & 1);
            if (sh > 1 && (mant & (((u128)1 << (sh - 1)) - 1)) != 0)
                sticky = 1;
        }
    } else {
        q = mant << -sh;
    }
    int up;
    if (mode == EXEC_FR_RN) up = rbit && (sticky || (q & 1));
    else up = fr_away(mode, sign) && (rbit || sticky);
    q += (unsigned)up;
    if (q >> f->p) { q >>= 1; lsb++; }
    if ((q >> (f->p - 1)) == 0) return sbit | (uint64_t)q;   /* subnormal */
    int biased = lsb + (f->p - 1) + f->emax;
    if (biased >= 2 * f->emax + 1) {                        /* overflow */
        if (mode == EXEC_FR_RN || fr_away(mode, sign)) return fr_inf(f, sign);
        return fr_inf(f, sign) - 1;                         /* max finite */
    }
    uint64_t frac = (uint64_t)q & (((uint64_t)1 << (f->p - 1)) - 1);
    return sbit | ((uint64_t)biased << (f->p - 1)) | frac;
}

/* Finite nonzero double -> integer significand and exponent. */
static void fr_split(double v, uint64_t *m, int *e)
{
    uint64_t b = d2u(v);
    int be = (int)((b >> 52) & 0x7ff);
    *m = b & 0xfffffffffffffull;
    if (be) { *m |= 1ull << 52; *e = be - 1075; }
    else *e = -1074;
}

uint64_t exec_fr_from_f64(const struct exec_ffmt *f, double v, int tail,
                          enum exec_fmode mode)
{
    int sign = signbit(v) ? 1 : 0;
    if (isnan(v)) return fr_nan(f);
    if (isinf(v)) return fr_inf(f, sign);
    if (v == 0) return (uint64_t)sign << (f->bits - 1);
    uint64_t m;
    int e;
    fr_split(v, &m, &e);
    u128 mant = (u128)m << 2;
    if (tail) {
        int smaller = sign ? tail > 0 : tail < 0;
        if (smaller) mant -= 1;
    }
    return exec_fr_round(f, sign, mant, e - 2, tail != 0, mode);
}

static int sgn(double x) { return (x > 0) - (x < 0); }

/* Sign of an exact zero sum in mode: x + (-x) is +0 except in RM. */
static double zero_sum(double a, double b, enum exec_fmode mode)
{
    if (mode == EXEC_FR_RM)
        return (a == 0 && b == 0 && !signbit(a) && !signbit(b)) ? 0.0 : -0.0;
    return (a == 0 && b == 0 && signbit(a) && signbit(b)) ? -0.0 : 0.0;
}

/* TwoSum: s + *e == a + b exactly (s = RN(a + b), finite). */
static double two_sum(double a, double b, double *e)
{
    double s = a + b, bb = s - a;
    *e = (a - (s - bb)) + (b - bb);
    return s;
}

/* a + b rounded to f (a, b exact in double, e.g. f16/f32 values). */
static uint64_t add_to(const struct exec_ffmt *f, double a, double b,
                       enum exec_fmode mode)
{
    double e, s = two_sum(a, b, &e);
    if (s == 0 && e == 0) {
        double z = zero_sum(a, b, mode);
        return (uint64_t)(signbit(z) ? 1 : 0) << (f->bits - 1);
    }
    if (!isfinite(s)) return exec_fr_from_f64(f, s, 0, mode);
    return exec_fr_from_f64(f, s, sgn(e), mode);
}

/* a * b + c rounded once to f, where a * b is exact in double (f16/f32). */
static uint64_t fma_to(const struct exec_ffmt *f, double a, double b,
                       double c, enum exec_fmode mode)
{
    double p = a * b;
    if (!isfinite(p) || !isfinite(c)) return exec_fr_from_f64(f, p + c, 0, mode);
    return add_to(f, p, c, mode);
}

uint32_t exec_fr_add32(float a, float b, enum exec_fmode mode)
{
    return (uint32_t)add_to(&exec_ff32, a, b, mode);
}

uint32_t exec_fr_mul32(float a, float b, enum exec_fmode mode)
{
    return (uint32_t)exec_fr_from_f64(&exec_ff32, (double)a * b, 0, mode);
}

uint32_t exec_fr_fma32(float a, float b, float c, enum exec_fmode mode)
{
    return (uint32_t)fma_to(&exec_ff32, a, b, c, mode);   /* 24x24 exact */
}

uint16_t exec_fr_add16(uint16_t a, uint16_t b, enum exec_fmode mode)
{
    return (uint16_t)add_to(&exec_ff16, exec_f16_to_f64(a),
                            exec_f16_to_f64(b), mode);
}

/* The exact value of a bfloat16 pattern: the f32 with these upper bits. */
static double bf16_to_f64(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

uint16_t exec_fr_add_bf16(uint16_t a, uint16_t b, enum exec_fmode mode)
{
    return (uint16_t)add_to(&exec_ffbf16, bf16_to_f64(a), bf16_to_f64(b), mode);
}

uint16_t exec_fr_mul16(uint16_t a, uint16_t b, enum exec_fmode mode)
{
    return (uint16_t)exec_fr_from_f64(&exec_ff16, exec_f16_to_f64(a) *
                                      exec_f16_to_f64(b), 0, mode);
}

uint16_t exec_fr_fma16(uint16_t a, uint16_t b, uint16_t c,
                       enum exec_fmode mode)
{
    return (uint16_t)fma_to(&exec_ff16, exec_f16_to_f64(a),
                            exec_f16_to_f64(b), exec_f16_to_f64(c), mode);
}

uint32_t exec_fr_div32(float a, float b, enum exec_fmode mode)
{
    double q = (double)a / b;
    int tail = 0;
    if (isfinite(q) && q != 0 && isfinite(a) && b != 0)
        tail = sgn(fma(-q, (double)b, (double)a)) * sgn(b);
    return (uint32_t)exec_fr_from_f64(&exec_ff32, q, tail, mode);
}

uint32_t exec_fr_sqrt32(float a, enum exec_fmode mode)
{
    double s = sqrt((double)a);
    int tail = 0;
    if (a > 0 && isfinite(s)) tail = sgn(fma(-s, s, (double)a));
    return (uint32_t)exec_fr_from_f64(&exec_ff32, s, tail, mode);
}

/* ---- f64 ---- */

uint64_t exec_fr_add64(double a, double b, enum exec_fmode mode)
{
    double e, s;
    if (mode == EXEC_FR_RN || !isfinite(a) || !isfinite(b)) {
        s = a + b;
        return isnan(s) ? fr_nan(&exec_ff64) : d2u(s);
    }
    s = two_sum(a, b, &e);
    if (isinf(s)) {                         /* overflow of finite inputs */
        int sign = s < 0;
        return fr_away(mode, sign) ? d2u(s) : fr_inf(&exec_ff64, sign) - 1;
    }
    if (s == 0 && e == 0) return d2u(zero_sum(a, b, mode));
    uint64_t bits = d2u(s);
    if (e != 0) {
        int sign = s < 0;
        int larger = (e > 0) == (s > 0);
        if (larger && fr_away(mode, sign)) bits++;
        else if (!larger && !fr_away(mode, sign)) bits--;
    }
    return bits;
}

uint64_t exec_fr_mul64(double a, double b, enum exec_fmode mode)
{
    double p = a * b;
    if (mode == EXEC_FR_RN || !isfinite(a) || !isfinite(b) || a == 0 || b == 0)
        return isnan(p) ? fr_nan(&exec_ff64) : d2u(p);
    uint64_t ma, mb;
    int ea, eb;
    fr_split(a, &ma, &ea);
    fr_split(b, &mb, &eb);
    return exec_fr_round(&exec_ff64, signbit(a) != signbit(b),
                         (u128)ma * mb, ea + eb, 0, mode);
}

uint64_t exec_fr_fma64(double a, double b, double c, enum exec_fmode mode)
{
    if (mode == EXEC_FR_RN || !isfinite(a) || !isfinite(b) || !isfinite(c)) {
        double r = fma(a, b, c);
        return isnan(r) ? fr_nan(&exec_ff64) : d2u(r);
    }
    int sp = signbit(a) != signbit(b), sc = signbit(c) ? 1 : 0;
    if (a == 0 || b == 0) {
        if (c != 0) return d2u(c);
        return d2u(zero_sum(sp ? -0.0 : 0.0, c, mode));
    }
    uint64_t ma, mb, mc;
    int ea, eb, ec;
    fr_split(a, &ma, &ea);
    fr_split(b, &mb, &eb);
    u128 P = (u128)ma * mb;
    int ep = ea + eb;
    if (c == 0) return exec_fr_round(&exec_ff64, sp, P, ep, 0, mode);
    fr_split(c, &mc, &ec);
    u128 C = mc;
    /* X = operand with the higher leading bit, normalised to bit 125. */
    int pp = 127 - clz128(P), pc = 127 - clz128(C);
    u128 X = P, Y = C;
    int ex = ep, ey = ec, px = pp, sx = sp, sy = sc;
    if (pc + ec > pp + ep) {
        X = C; Y = P; ex = ec; ey = ep; px = pc; sx = sc; sy = sp;
    }
    X <<= 125 - px;
    ex -= 125 - px;
    int sh = ex - ey;
    if (sh <= 0) {
        Y <<= -sh;
    } else if (sh >= 128) {
        Y = 1;                                  /* sticky only */
    } else {
        int lost = (Y & (((u128)1 << sh) - 1)) != 0;
        Y = (Y >> sh) | (u128)lost;
    }
    u128 M;
    int sign = sx;
    if (sx == sy) {
        M = X + Y;
    } else if (X >= Y) {
        M = X - Y;
    } else {
        M = Y - X;
        sign = sy;
    }
    if (M == 0) return d2u(mode == EXEC_FR_RM ? -0.0 : 0.0);
    return exec_fr_round(&exec_ff64, sign, M, ex, 0, mode);
}

/* Normalised significand (bit 52 set) of a finite nonzero double. */
static void fr_split_norm(double v, uint64_t *m, int *e)
{
    fr_split(v, m, e);
    int s = __builtin_clzll(*m) - 11;
    *m <<= s;
    *e -= s;
}

uint64_t exec_fr_div64(double a, double b, enum exec_fmode mode)
{
    double q = a / b;
    if (mode == EXEC_FR_RN || !isfinite(a) || !isfinite(b) || a == 0 || b == 0)
        return isnan(q) ? fr_nan(&exec_ff64) : d2u(q);
    uint64_t ma, mb;
    int ea, eb;
    fr_split_norm(a, &ma, &ea);
    fr_split_norm(b, &mb, &eb);
    u128 n = (u128)ma << 74;
    u128 Q = n / mb;
    int sticky = (n % mb) != 0;
    return exec_fr_round(&exec_ff64, signbit(a) != signbit(b), Q,
                         ea - eb - 74, sticky, mode);
}

uint64_t exec_fr_sqrt64(double a, enum exec_fmode mode)
{
    if (isnan(a) || a < 0) return fr_nan(&exec_ff64);
    if (mode == EXEC_FR_RN || a == 0 || isinf(a)) return d2u(sqrt(a));
    uint64_t m;
    int e;
    fr_split_norm(a, &m, &e);
    int k = 64;
    if ((e - k) & 1) k++;
    u128 n = (u128)m << k;                      /* < 2^118 */
    double nd = (double)(uint64_t)(n >> 64) * 18446744073709551616.0 +
                (double)(uint64_t)n;
    u128 r = (u128)(uint64_t)sqrt(nd);
    if (r == 0) r = 1;
    r = (r + n / r) >> 1;                       /* one Newton step */
    while (r * r > n) r--;
    while ((r + 1) * (r + 1) <= n) r++;
    return exec_fr_round(&exec_ff64, 0, r, (e - k) / 2, r * r != n, mode);
}

uint64_t exec_fr_from_int(const struct exec_ffmt *f, int sign, uint64_t mag,
                          enum exec_fmode mode)
{
    return exec_fr_round(f, sign, mag, 0, 0, mode);
}

double exec_f16_to_f64(uint16_t h)
{
    int s = h >> 15, e = (h >> 10) & 0x1f;
    unsigned m = h & 0x3ff;
    double v;
    if (e == 0x1f) v = m ? NAN : INFINITY;
    else if (e == 0) v = (double)m * 0x1p-24;                 /* exact */
    else v = (double)(m | 0x400) * u2d((uint64_t)(e - 25 + 1023) << 52);
    return s ? -v : v;
}
