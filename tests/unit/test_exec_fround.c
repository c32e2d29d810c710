/* Randomised cross-check of the exact rounding helpers (csim/exec/
 * exec_fround.c) against the host FPU. The model never changes the FPU
 * rounding mode; this test does, ONLY as an independent oracle: each
 * operation is evaluated natively under fesetround(mode) with volatile
 * operands and results, and must match the integer/error-free
 * implementation bit for bit (NaNs compared as the canonical NaN). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "exec/exec_fround.h"
#include "ptx/ptx_ir.h"

#define ITERS 150000

static const int host_mode[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD,
                                  FE_UPWARD };

struct rng { uint64_t s; };

static uint64_t next(struct rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return r->s;
}

/* Doubles from every region: subnormal, huge, near 1, random. */
static double rand_d(struct rng *r)
{
    uint64_t u = next(r);
    switch (next(r) % 6) {
    case 0: u &= 0x800fffffffffffffull; break;
    case 1: u = (u & 0x800fffffffffffffull) | (0x7feull << 52); break;
    case 2: u = (u & 0x800fffffffffffffull) | ((0x3f0ull + next(r) % 32) << 52); break;
    default: break;
    }
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static float rand_f(struct rng *r)
{
    uint32_t u = (uint32_t)next(r);
    switch (next(r) % 6) {
    case 0: u &= 0x807fffffu; break;
    case 1: u = (u & 0x807fffffu) | (0xfeu << 23); break;
    case 2: u = (u & 0x807fffffu) | ((0x70u + (uint32_t)(next(r) % 32)) << 23); break;
    default: break;
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint64_t bd(double d)
{
    uint64_t u;
    if (d != d) return 0x7fffffffffffffffull;
    memcpy(&u, &d, 8);
    return u;
}

static uint64_t bf(float f)
{
    uint32_t u;
    if (f != f) return 0x7fffffffu;
    memcpy(&u, &f, 4);
    return u;
}

struct host { volatile double d[8]; volatile float f[8]; };

/* Native results of every operation under host mode m (the oracle). */
static void oracle(struct host *h, int m, double a, double b, double c,
                   float x, float y, float z, int64_t iv)
{
    volatile double va = a, vb = b, vc = c;
    volatile float vx = x, vy = y, vz = z;
    volatile int64_t vi = iv;
    fesetround(host_mode[m]);
    h->d[0] = va + vb;
    h->d[1] = va * vb;
    h->d[2] = fma(va, vb, vc);
    h->d[3] = va / vb;
    h->d[4] = sqrt(fabs(va));
    h->d[5] = (double)vi;
    h->f[0] = vx + vy;
    h->f[1] = vx * vy;
    h->f[2] = fmaf(vx, vy, vz);
    h->f[3] = vx / vy;
    h->f[4] = sqrtf(fabsf(vx));
    h->f[5] = (float)va;
    h->f[6] = (float)vi;
    fesetround(FE_TONEAREST);
}

static void test_random_vs_host(void **st)
{
    (void)st;
    struct rng r = { 0x9e3779b97f4a7c15ull };
    long bad = 0;
    for (int it = 0; it < ITERS; it++) {
        int m = it & 3;
        enum exec_fmode md = (enum exec_fmode)m;
        double a = rand_d(&r), b = rand_d(&r), c = rand_d(&r);
        float x = rand_f(&r), y = rand_f(&r), z = rand_f(&r);
        if (next(&r) % 4 == 0) { c = -a * b; z = -x * y; }   /* cancellation */
        if (next(&r) % 8 == 0) { b = -a; y = -x; }           /* exact zero */
        int64_t iv = (int64_t)next(&r) >> (next(&r) % 63);
        struct host h;
        oracle(&h, m, a, b, c, x, y, z, iv);
        uint64_t mag = iv < 0 ? 0 - (uint64_t)iv : (uint64_t)iv;
        uint64_t got[13] = {
            exec_fr_add64(a, b, md), exec_fr_mul64(a, b, md),
            exec_fr_fma64(a, b, c, md), exec_fr_div64(a, b, md),
            exec_fr_sqrt64(fabs(a), md),
            exec_fr_from_int(&exec_ff64, iv < 0, mag, md),
            exec_fr_add32(x, y, md), exec_fr_mul32(x, y, md),
            exec_fr_fma32(x, y, z, md), exec_fr_div32(x, y, md),
            exec_fr_sqrt32(fabsf(x), md),
            exec_fr_from_f64(&exec_ff32, a, 0, md),
            exec_fr_from_int(&exec_ff32, iv < 0, mag, md),
        };
        uint64_t want[13] = {
            bd(h.d[0]), bd(h.d[1]), bd(h.d[2]), bd(h.d[3]), bd(h.d[4]),
            bd(h.d[5]), bf(h.f[0]), bf(h.f[1]), bf(h.f[2]), bf(h.f[3]),
            bf(h.f[4]), bf(h.f[5]), bf(h.f[6]),
        };
        for (int k = 0; k < 13; k++) {
            if (got[k] != want[k]) {
                if (bad < 10)
                    printf("op %d mode %d: got %llx want %llx (a=%a b=%a c=%a "
                           "x=%a y=%a z=%a)\n", k, m,
                           (unsigned long long)got[k],
                           (unsigned long long)want[k], a, b, c, x, y, z);
                bad++;
            }
        }
    }
    assert_int_equal(bad, 0);
}

/* ---- f16: an independent exact oracle (integers in units of 2^-48) ---- */

typedef unsigned __int128 u128;

/* |value| of a finite f16 pattern in units of 2^-48. */
static u128 h_units(uint16_t h)
{
    unsigned e = (h >> 10) & 0x1f, m = h & 0x3ff;
    if (e == 0) return (u128)m << 24;
    if (e == 0x1f) return (u128)1 << 64;             /* inf: 2^16 */
    return (u128)(m | 0x400) << (e + 23);
}

/* Magnitude n (units of 2^-48) with sign rounded to f16 in mode, by
 * binary search over the ordered positive patterns. */
static uint16_t h_round(int sign, u128 n, int mode)
{
    unsigned lo = 0, hi = 0x7c00;                    /* value(lo) <= n */
    while (hi - lo > 1) {
        unsigned mid = (lo + hi) / 2;
        if (h_units((uint16_t)mid) <= n) lo = mid;
        else hi = mid;
    }
    if (h_units((uint16_t)hi) <= n) lo = hi;         /* n >= 2^16 */
    unsigned r = lo;
    if (h_units((uint16_t)lo) != n && lo < 0x7c00) {
        unsigned up = lo + 1;
        int away = (mode == 3 && !sign) || (mode == 2 && sign);
        if (mode == 0) {
            u128 two = 2 * n, mid = h_units((uint16_t)lo) + h_units((uint16_t)up);
            if (two > mid || (two == mid && (lo & 1))) r = up;
        } else if (away) {
            r = up;
        }
    }
    if (r >= 0x7c00 && mode != 0 && !((mode == 3 && !sign) || (mode == 2 && sign)))
        r = 0x7bff;                                  /* toward zero: max */
    return (uint16_t)(r | (sign ? 0x8000u : 0));
}

/* Signed exact value in units of 2^-48 as (sign, magnitude). */
struct sval { int neg; u128 mag; };

static struct sval sv_add(struct sval a, struct sval b)
{
    struct sval r;
    if (a.neg == b.neg) { r.neg = a.neg; r.mag = a.mag + b.mag; }
    else if (a.mag >= b.mag) { r.neg = a.neg; r.mag = a.mag - b.mag; }
    else { r.neg = b.neg; r.mag = b.mag - a.mag; }
    return r;
}

static void test_f16_vs_exact(void **st)
{
    (void)st;
    struct rng r = { 0x5851f42d4c957f2dull };
    long bad = 0, n = 0;
    for (int it = 0; it < 40000; it++) {
        uint64_t x = next(&r);
        uint16_t a = (uint16_t)x, b = (uint16_t)(x >> 16), c = (uint16_t)(x >> 32);
        int mode = (int)((x >> 48) & 3);
        if ((x >> 50) & 1) {           /* tiny product, large addend: the */
            a &= 0x80ffu;              /* double sum is inexact and only  */
            b &= 0x80ffu;              /* the tail decides the rounding   */
            c |= 0x5000u;
        }
        if (((a >> 10) & 0x1f) == 0x1f || ((b >> 10) & 0x1f) == 0x1f ||
            ((c >> 10) & 0x1f) == 0x1f)
            continue;
        n++;
        struct sval va = { a >> 15, h_units(a) }, vb = { b >> 15, h_units(b) };
        struct sval vc = { c >> 15, h_units(c) };
        /* a*b in units of 2^-48: (ma 2^-48)(mb 2^-48) = ma*mb*2^-96 */
        u128 pm = va.mag * vb.mag;                   /* < 2^128: exact */
        int pneg = va.neg ^ vb.neg;
        /* the product is a multiple of 2^-48 because every f16 is a
         * multiple of 2^-24 */
        struct sval p = { pneg, pm >> 48 };
        struct sval s1 = sv_add(va, vb), s2 = sv_add(p, vc);
        uint16_t want_add = s1.mag ? h_round(s1.neg, s1.mag, mode)
            : (uint16_t)(((va.neg && vb.neg) || (mode == 2 && !(va.mag == 0 && vb.mag == 0 && !va.neg && !vb.neg))) ? 0x8000 : 0);
        uint16_t want_mul = p.mag ? h_round(pneg, p.mag, mode) : (uint16_t)(pneg ? 0x8000 : 0);
        uint16_t want_fma = s2.mag ? h_round(s2.neg, s2.mag, mode)
            : (uint16_t)(((p.neg && vc.neg) || (mode == 2 && !(p.mag == 0 && vc.mag == 0 && !p.neg && !vc.neg))) ? 0x8000 : 0);
        uint16_t got[3] = { exec_fr_add16(a, b, (enum exec_fmode)mode),
                            exec_fr_mul16(a, b, (enum exec_fmode)mode),
                            exec_fr_fma16(a, b, c, (enum exec_fmode)mode) };
        uint16_t want[3] = { want_add, want_mul, want_fma };
        for (int k = 0; k < 3; k++)
            if (got[k] != want[k]) {
                if (bad < 5)
                    printf("f16 op %d mode %d a=%04x b=%04x c=%04x: got %04x "
                           "want %04x\n", k, mode, a, b, c, got[k], want[k]);
                bad++;
            }
    }
    assert_true(n > 30000);
    assert_int_equal(bad, 0);
}

/* Hand-checked values of the rounding core itself. */
static void test_round_core(void **st)
{
    (void)st;
    /* 3 * 2^-1 = 1.5 exactly */
    assert_int_equal(exec_fr_round(&exec_ff32, 0, 3, -1, 0, EXEC_FR_RN), 0x3fc00000);
    /* 2^24 + 1 in f32: tie -> even (2^24); RP -> 2^24 + 2 */
    assert_int_equal(exec_fr_round(&exec_ff32, 0, (1u << 24) + 1, 0, 0, EXEC_FR_RN),
                     0x4b800000);
    assert_int_equal(exec_fr_round(&exec_ff32, 0, (1u << 24) + 1, 0, 0, EXEC_FR_RP),
                     0x4b800001);
    /* the same with a sticky bit below: no longer a tie -> up */
    assert_int_equal(exec_fr_round(&exec_ff32, 0, (1u << 24) + 1, 0, 1, EXEC_FR_RN),
                     0x4b800001);
    /* negative, RM rounds the magnitude up, RP down */
    assert_int_equal(exec_fr_round(&exec_ff32, 1, (1u << 24) + 1, 0, 0, EXEC_FR_RM),
                     0xcb800001);
    assert_int_equal(exec_fr_round(&exec_ff32, 1, (1u << 24) + 1, 0, 0, EXEC_FR_RP),
                     0xcb800000);
    /* smallest subnormal and underflow to zero / to min subnormal */
    assert_int_equal(exec_fr_round(&exec_ff32, 0, 1, -149, 0, EXEC_FR_RN), 1);
    assert_int_equal(exec_fr_round(&exec_ff32, 0, 1, -151, 0, EXEC_FR_RN), 0);
    assert_int_equal(exec_fr_round(&exec_ff32, 0, 1, -151, 0, EXEC_FR_RP), 1);
    assert_int_equal(exec_fr_round(&exec_ff32, 1, 1, -200, 0, EXEC_FR_RZ), 0x80000000);
    /* overflow: RN -> inf, RZ -> max finite */
    assert_int_equal(exec_fr_round(&exec_ff32, 0, 1, 128, 0, EXEC_FR_RN), 0x7f800000);
    assert_int_equal(exec_fr_round(&exec_ff32, 0, 1, 128, 0, EXEC_FR_RZ), 0x7f7fffff);
    assert_int_equal(exec_fr_round(&exec_ff16, 0, 65520, 0, 0, EXEC_FR_RN), 0x7c00);
    assert_int_equal(exec_fr_round(&exec_ff16, 0, 65519, 0, 0, EXEC_FR_RN), 0x7bff);
    assert_int_equal(exec_fr_round(&exec_ff64, 0, 1, -1074, 0, EXEC_FR_RN), 1);
    /* value just below 1 by a tail: RZ steps down, RN stays at 1 */
    assert_int_equal(exec_fr_from_f64(&exec_ff32, 1.0, -1, EXEC_FR_RZ), 0x3f7fffff);
    assert_int_equal(exec_fr_from_f64(&exec_ff32, 1.0, -1, EXEC_FR_RN), 0x3f800000);
    assert_int_equal(exec_fr_from_f64(&exec_ff32, 1.0, +1, EXEC_FR_RP), 0x3f800001);
    assert_int_equal(exec_fr_mode(PTX_RND_RMI), EXEC_FR_RM);
    assert_int_equal(exec_fr_mode(PTX_RND_NONE), EXEC_FR_RN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_core),
        cmocka_unit_test(test_random_vs_host),
        cmocka_unit_test(test_f16_vs_exact),
    };
    return cmocka_run_group_tests_name("exec_fround", tests, NULL, NULL);
}
