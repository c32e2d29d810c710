/* tests/ptx/nv_ops.ptx (nvcc -ptx -arch=sm_75 -O3 of nv_ops.cu, our own
 * kernels using __ffs, __byte_perm, __dp4a/__dp2a, SIMD video intrinsics,
 * __fns, funnel shifts, warpSize, __match_*_sync, cooperative-groups
 * match_any, __syncthreads_count/and/or, __activemask and half2 dot
 * products) runs in functional and timing mode and every output word is
 * compared with a CPU reference written from the CUDA/PTX definitions
 * (independent of csim/exec). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"

#define NOPS 24
#define BLOCK 64
#define NBLK 2
#define NT (BLOCK * NBLK)
#define K 4                     /* half2 pairs per dot product */

/* ------------------------------------------------ CPU reference: ints */

static unsigned ffs64(uint64_t v) { return v ? (unsigned)__builtin_ctzll(v) + 1 : 0; }

static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
    uint64_t src = ((uint64_t)y << 32) | x;
    uint32_t r = 0;
    for (unsigned n = 0; n < 4; n++)
        r |= (uint32_t)((src >> (8 * ((s >> (4 * n)) & 7))) & 0xff) << (8 * n);
    return r;
}

static int64_t part(uint32_t v, unsigned bits, unsigned i, int sgn)
{
    uint32_t f = (v >> (bits * i)) & ((1u << bits) - 1);
    if (sgn && (f >> (bits - 1)))
        return (int64_t)f - ((int64_t)1 << bits);
    return f;
}

static uint32_t dp4a(uint32_t a, uint32_t b, uint32_t c, int sgn)
{
    int64_t r = c;
    for (unsigned i = 0; i < 4; i++)
        r += part(a, 8, i, sgn) * part(b, 8, i, sgn);
    return (uint32_t)r;
}

static uint32_t dp2a(uint32_t a, uint32_t b, uint32_t c, int sgn, unsigned hi)
{
    int64_t r = c;
    for (unsigned i = 0; i < 2; i++)
        r += part(a, 16, i, sgn) * part(b, 8, 2 * hi + i, sgn);
    return (uint32_t)r;
}

/* Per-lane SIMD helper: op on each bits-wide lane of a and b. */
static uint32_t simd(uint32_t a, uint32_t b, unsigned bits, int sgn, int op)
{
    uint32_t r = 0, lm = (1u << bits) - 1;
    for (unsigned i = 0; i < 32 / bits; i++) {
        int64_t x = part(a, bits, i, sgn), y = part(b, bits, i, sgn), t;
        switch (op) {
        case 0: t = x + y; break;                         /* add (wraps) */
        case 1: t = x - y; break;                         /* sub */
        case 2: t = x > y ? x - y : y - x; break;         /* absdiff */
        case 3: t = x > y ? x : y; break;                 /* max */
        case 4: t = (x + y) >= 0 ? (x + y + 1) >> 1 : (x + y) >> 1; break; /* avg */
        case 5: t = x > y ? lm : 0; break;                /* cmpgt: all ones */
        default: t = x > y; break;                        /* setgt: 1 */
        }
        r |= ((uint32_t)t & lm) << (bits * i);
    }
    return r;
}

static uint32_t fns(uint32_t mask, uint32_t base, int32_t offset)
{
    if (offset == 0)
        return ((mask >> base) & 1) ? base : 0xffffffffu;
    int inc = offset > 0 ? 1 : -1;
    int count = (offset > 0 ? offset : -offset) - 1;
    for (int pos = (int)base; pos >= 0 && pos < 32; pos += inc)
        if ((mask >> pos) & 1) {
            if (count == 0)
                return (uint32_t)pos;
            count--;
        }
    return 0xffffffffu;
}

static uint32_t brev32(uint32_t v)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < 32; i++)
        r |= ((v >> i) & 1) << (31 - i);
    return r;
}

static void ref_int(const uint32_t *a, const uint32_t *b, uint32_t *o)
{
    for (unsigned i = 0; i < NT; i++) {
        uint32_t x = a[i], y = b[i], *r = o + i * NOPS;
        unsigned w0 = i / 32 * 32, blk = i / BLOCK * BLOCK;
        r[0] = ffs64(x);
        r[1] = ffs64((uint64_t)x << 20);
        r[2] = x ? (uint32_t)__builtin_clz(x) : 32;
        r[3] = byte_perm(x, y, 0x5140);
        r[4] = byte_perm(x, y, y & 0x7777);
        r[5] = dp4a(x, y, 7, 1);
        r[6] = dp4a(x, y, 9, 0);
        r[7] = dp2a(x, y, 3, 1, 0);
        r[8] = dp2a(x, y, 5, 0, 1);
        r[9] = simd(x, y, 8, 0, 2);
        r[10] = simd(x, y, 8, 0, 0) ^ simd(x, y, 16, 0, 1);
        r[11] = simd(x, y, 8, 0, 3) ^ simd(x, y, 16, 1, 4);
        r[12] = simd(x, y, 8, 0, 5);
        r[13] = fns(x, i & 31, (int32_t)(y & 7) - 3);
        {
            uint64_t v = ((uint64_t)y << 32) | x;
            unsigned s = y & 63;
            r[14] = (uint32_t)((v << (s & 31)) >> 32) ^ (uint32_t)(v >> (s > 32 ? 32 : s));
        }
        r[15] = brev32(x) + (uint32_t)__builtin_popcount(y);
        r[16] = 32 + (i % BLOCK % 32);
        uint32_t any3 = 0, any7 = 0, odd = 0;
        int same = 1;
        for (unsigned l = 0; l < 32; l++) {
            any3 |= (uint32_t)((a[w0 + l] & 3) == (x & 3)) << l;
            any7 |= (uint32_t)((b[w0 + l] & 7) == (y & 7)) << l;
            odd |= (a[w0 + l] & 1) << l;
            same &= (b[w0 + l] >> 28) == (b[w0] >> 28);
        }
        r[17] = any3;
        r[18] = same ? 0xffffffffu + 1000u : 0;
        r[19] = any7;
        uint32_t cnt = 0, all = 1, anyv = 0;
        for (unsigned t = blk; t < blk + BLOCK; t++) {
            cnt += (a[t] & 5) == 1;
            all &= a[t] != 0;
            anyv |= a[t] == 12345;
        }
        r[20] = cnt;
        r[21] = all + 2 * anyv;
        r[22] = (x & 1) ? odd : 0;
        r[23] = simd(x, y, 16, 1, 6);
    }
}

/* ------------------------------------------------ CPU reference: half */

static double f16v(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
    return (h & 0x8000) ? -v : v;
}

/* v (exact, finite, |v| < 65504) rounded to nearest-even f16. */
static uint16_t f16r(double v)
{
    uint16_t s = signbit(v) ? 0x8000 : 0;
    v = fabs(v);
    if (v == 0)
        return s;
    int e;
    frexp(v, &e);                               /* v in [2^(e-1), 2^e) */
    int q = e - 11 < -24 ? -24 : e - 11;        /* exponent of the ulp */
    double r = ldexp(nearbyint(ldexp(v, -q)), q);
    if (r < ldexp(1, -14))
        return (uint16_t)(s | (uint16_t)ldexp(r, 24));
    frexp(r, &e);
    return (uint16_t)(s | ((e - 1 + 15) << 10) | ((uint16_t)ldexp(r, 11 - e) - 1024));
}

static uint32_t h2(uint16_t lo, uint16_t hi) { return lo | ((uint32_t)hi << 16); }

static void ref_half(const uint32_t *x, const uint32_t *y, float *out, uint32_t *hout)
{
    for (unsigned i = 0; i < NT; i++) {
        uint16_t acc[2] = {0, 0}, s[2], mx[2];
        float c[2];
        for (unsigned h = 0; h < 2; h++) {
            for (unsigned j = 0; j < K; j++) {
                uint16_t p = (uint16_t)(x[i * K + j] >> (16 * h));
                uint16_t q = (uint16_t)(y[i * K + j] >> (16 * h));
                acc[h] = f16r(f16v(p) * f16v(q) + f16v(acc[h]));  /* one rounding */
            }
            uint16_t p = (uint16_t)(x[i * K] >> (16 * h)), q = (uint16_t)(y[i * K] >> (16 * h));
            uint16_t t = f16r(f16v(p) * fabs(f16v(q)));
            s[h] = f16r(f16v(t) - f16v(acc[h]));
            mx[h] = f16v(p) >= f16v(q) ? p : q;
            c[h] = f16v(p) > f16v(q) ? 1.0f : 0.0f;
        }
        hout[i * 3] = h2(acc[0], acc[1]);
        hout[i * 3 + 1] = h2(s[0], s[1]);
        hout[i * 3 + 2] = h2(mx[0], mx[1]);
        out[i * 3] = (float)f16v(acc[0]) + (float)f16v(acc[1]);
        out[i * 3 + 1] = c[0] - c[1];
        out[i * 3 + 2] = (float)ldexp(1, (int)(i & 7)) + (float)ldexp(1, -(int)(i & 3));
    }
}

/* ------------------------------------------------ inputs and runs */

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s;
}

/* A random f16 in +-[2^-5, 2^4) (products and sums stay exact in double). */
static uint16_t rnd_f16(uint32_t *s)
{
    uint32_t r = lcg(s);
    return (uint16_t)(((r >> 31) << 15) | ((10 + (r >> 8) % 9) << 10) | (r & 0x3ff));
}

static void make_inputs(uint32_t *a, uint32_t *b, uint32_t *hx, uint32_t *hy)
{
    uint32_t s = 12345;
    for (unsigned i = 0; i < NT; i++) {
        a[i] = lcg(&s);
        b[i] = lcg(&s);
        if (i % 7 == 0)
            a[i] &= 0x000fff00u;          /* small values, ffs/clz variety */
        if (i < 32)
            b[i] = (b[i] & 0x0fffffffu) | 0xa0000000u;   /* warp 0: match.all */
    }
    a[5] = 0;                             /* block 0: __syncthreads_and false */
    a[9] = 12345;                         /* block 0: __syncthreads_or true  */
    for (unsigned i = 0; i < NT * K; i++) {
        hx[i] = h2(rnd_f16(&s), rnd_f16(&s));
        hy[i] = h2(rnd_f16(&s), rnd_f16(&s));
    }
}

static unsigned compare(const char *what, const char *mode, const uint32_t *got,
                        const uint32_t *want, size_t n, unsigned per)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i] && bad++ < 6)
            fprintf(stderr, "%s (%s): thread %zu word %zu: got 0x%08x, want 0x%08x\n",
                    what, mode, i / per, i % per, got[i], want[i]);
    return bad;
}

static void test_nv_ops_both_modes(void **state)
{
    (void)state;
    static uint32_t a[NT], b[NT], hx[NT * K], hy[NT * K];
    static uint32_t want_i[NT * NOPS], got_i[NT * NOPS], want_h[NT * 3], got_h[NT * 3];
    static float want_f[NT * 3], got_f[NT * 3];
    make_inputs(a, b, hx, hy);
    ref_int(a, b, want_i);
    ref_half(hx, hy, want_f, want_h);
    unsigned bad = 0;
    for (int mode = 0; mode < 2; mode++) {
        const char *mn = mode ? "timing" : "functional";
        char err[256];
        ls_config cfg;
        ls_config_default(&cfg);
        cfg.mode = mode ? LS_MODE_TIMING : LS_MODE_FUNCTIONAL;
        ls_gpu *g = ls_gpu_create(&cfg, err, sizeof err);
        assert_non_null(g);
        ls_module *m;
        if (ls_module_load_file(g, "tests/ptx/nv_ops.ptx", &m) != LS_OK)
            fail_msg("load: %s", ls_gpu_error(g));
        ls_dptr da, db, dout, dx, dy, df, dh;
        assert_int_equal(ls_malloc(g, &da, sizeof a), LS_OK);
        assert_int_equal(ls_malloc(g, &db, sizeof b), LS_OK);
        assert_int_equal(ls_malloc(g, &dout, sizeof got_i), LS_OK);
        assert_int_equal(ls_malloc(g, &dx, sizeof hx), LS_OK);
        assert_int_equal(ls_malloc(g, &dy, sizeof hy), LS_OK);
        assert_int_equal(ls_malloc(g, &df, sizeof got_f), LS_OK);
        assert_int_equal(ls_malloc(g, &dh, sizeof got_h), LS_OK);
        assert_int_equal(ls_memcpy_htod(g, da, a, sizeof a), LS_OK);
        assert_int_equal(ls_memcpy_htod(g, db, b, sizeof b), LS_OK);
        assert_int_equal(ls_memcpy_htod(g, dx, hx, sizeof hx), LS_OK);
        assert_int_equal(ls_memcpy_htod(g, dy, hy, sizeof hy), LS_OK);
        int n = NT, k = K;
        void *ai[] = {&da, &db, &dout, &n};
        void *ah[] = {&dx, &dy, &df, &dh, &k};
        if (ls_launch(g, m, "ops_int", (ls_dim3){NBLK, 1, 1}, (ls_dim3){BLOCK, 1, 1}, 0,
                      ai, NULL) != LS_OK ||
            ls_launch(g, m, "ops_half", (ls_dim3){NBLK, 1, 1}, (ls_dim3){BLOCK, 1, 1}, 0,
                      ah, NULL) != LS_OK)
            fail_msg("%s: %s", mn, ls_gpu_error(g));
        assert_int_equal(ls_memcpy_dtoh(g, got_i, dout, sizeof got_i), LS_OK);
        assert_int_equal(ls_memcpy_dtoh(g, got_f, df, sizeof got_f), LS_OK);
        assert_int_equal(ls_memcpy_dtoh(g, got_h, dh, sizeof got_h), LS_OK);
        bad += compare("ops_int", mn, got_i, want_i, NT * NOPS, NOPS);
        bad += compare("ops_half half2", mn, got_h, want_h, NT * 3, 3);
        bad += compare("ops_half float", mn, (const uint32_t *)got_f,
                       (const uint32_t *)want_f, NT * 3, 3);
        ls_gpu_destroy(g);
    }
    assert_int_equal(bad, 0);
}

/* The reference is not vacuous: inputs exercise both outcomes of the
 * data-dependent intrinsics. */
static void test_reference_covers_cases(void **state)
{
    (void)state;
    static uint32_t a[NT], b[NT], hx[NT * K], hy[NT * K], o[NT * NOPS];
    make_inputs(a, b, hx, hy);
    ref_int(a, b, o);
    unsigned all_same = 0, none_same = 0, and_true = 0, and_false = 0, fns_miss = 0,
             fns_hit = 0;
    for (unsigned i = 0; i < NT; i++) {
        all_same += o[i * NOPS + 18] != 0;
        none_same += o[i * NOPS + 18] == 0;
        and_true += (o[i * NOPS + 21] & 1) == 1;
        and_false += (o[i * NOPS + 21] & 1) == 0;
        fns_miss += o[i * NOPS + 13] == 0xffffffffu;
        fns_hit += o[i * NOPS + 13] != 0xffffffffu;
    }
    assert_true(all_same && none_same && and_true && and_false && fns_miss && fns_hit);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_covers_cases),
        cmocka_unit_test(test_nv_ops_both_modes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
