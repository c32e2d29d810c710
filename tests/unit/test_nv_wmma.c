/* tests/ptx/nv_wmma.ptx (nvcc -ptx -arch=sm_75 -O3 of nv_wmma.cu: a
 * nvcuda::wmma half GEMM with float accumulate, an int8 GEMM, u8 with
 * saturation, the m32n8k16/m8n32k16 shapes with half accumulate, s4 and
 * b1 tiles, mma.sync m16n8k8 and m8n8k16 from inline PTX) runs in
 * functional and timing mode against a CPU reference written here from
 * the CUDA/PTX definitions (independent of csim/exec).
 *
 * The half GEMM is checked twice: against a double-precision product
 * within the bound any f32 accumulation order meets (|err| <= K * 2^-24 *
 * sum |a*b| + one rounding of the alpha/C step), and bit for bit against
 * the order the model documents (fmaf, k = 0..K-1, from C = 0), so a
 * change of the accumulation order is seen. Every other kernel has exact
 * integer or exactly representable results. Timing mode must also count
 * the tensor instructions and their pipe cycles. */
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

#define GM 32
#define GN 48
#define GK 64
#define SM 32
#define SN 32
#define SK 48

/* ----------------------------------------------------------- halves */

static float h2f(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0 ? ldexpf((float)m, -24)
              : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 1024), e - 25);
    return (h & 0x8000) ? -v : v;
}

/* f32 -> f16, round to nearest even (finite inputs). */
static uint16_t f2h(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
    if (ax >= 0x477ff000u)              /* >= 65520: rounds to infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (ax < 0x33000000u)               /* <= 2^-25: rounds to zero */
        return (uint16_t)sign;
    int e = (int)(ax >> 23) - 127;
    uint32_t m = (ax & 0x7fffffu) | 0x800000u;
    unsigned sh = e < -14 ? (unsigned)(-e - 1) : 13u;
    uint32_t q = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    if (e < -14)
        return (uint16_t)(sign | q);
    return (uint16_t)(sign | (((uint32_t)(e + 15) << 10) + q - 0x400u));
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* A random half in (-2, 2) with a full significand. */
static uint16_t rnd_half(void)
{
    return f2h(((float)(next() % 4000000u) / 1000000.0f - 2.0f));
}

/* ------------------------------------------------------------ run */

struct buf { const void *host; size_t bytes; ls_dptr d; };

static ls_gpu *gpu_for(int mode)
{
    char err[256];
    ls_config cfg;
    ls_config_default(&cfg);
    cfg.mode = mode ? LS_MODE_TIMING : LS_MODE_FUNCTIONAL;
    ls_gpu *g = ls_gpu_create(&cfg, err, sizeof err);
    assert_non_null(g);
    return g;
}

static ls_dptr up(ls_gpu *g, const void *h, size_t n)
{
    ls_dptr d;
    assert_int_equal(ls_malloc(g, &d, n), LS_OK);
    if (h)
        assert_int_equal(ls_memcpy_htod(g, d, h, n), LS_OK);
    return d;
}

static void launch(ls_gpu *g, ls_module *m, const char *k, ls_dim3 grid, void **args,
                   ls_stats *st)
{
    if (ls_launch(g, m, k, grid, (ls_dim3){32, 1, 1}, 0, args, st) != LS_OK)
        fail_msg("%s: %s", k, ls_gpu_error(g));
}

static unsigned cmp32(const char *what, int mode, const void *got, const void *want,
                      size_t n)
{
    unsigned bad = 0;
    const uint32_t *g = got, *w = want;
    for (size_t i = 0; i < n; i++)
        if (g[i] != w[i] && bad++ < 4)
            fprintf(stderr, "%s (%s): element %zu: got 0x%08x, want 0x%08x\n", what,
                    mode ? "timing" : "functional", i, g[i], w[i]);
    return bad;
}

static unsigned cmp16(const char *what, int mode, const uint16_t *g, const uint16_t *w,
                      size_t n)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++)
        if (g[i] != w[i] && bad++ < 4)
            fprintf(stderr, "%s (%s): element %zu: got 0x%04x, want 0x%04x\n", what,
                    mode ? "timing" : "functional", i, g[i], w[i]);
    return bad;
}

/* ------------------------------------------------------ the GEMMs */

static void test_gemm_f16(void **state)
{
    (void)state;
    static uint16_t a[GM * GK], b[GN * GK];      /* b column-major: b[n * K + k] */
    static float c[GM * GN], d[GM * GN], want[GM * GN];
    static double exact[GM * GN], bound[GM * GN];
    const float alpha = 0.75f;
    for (unsigned i = 0; i < GM * GK; i++) a[i] = rnd_half();
    for (unsigned i = 0; i < GN * GK; i++) b[i] = rnd_half();
    for (unsigned i = 0; i < GM * GN; i++) c[i] = (float)((int)(next() % 200) - 100) / 8.0f;
    for (unsigned i = 0; i < GM; i++)
        for (unsigned j = 0; j < GN; j++) {
            float acc = 0.0f;
            double ex = 0.0, mag = 0.0;
            for (unsigned k = 0; k < GK; k++) {
                float x = h2f(a[i * GK + k]), y = h2f(b[j * GK + k]);
                acc = fmaf(x, y, acc);
                ex += (double)x * y;
                mag += fabs((double)x * y);
            }
            want[i * GN + j] = fmaf(alpha, acc, c[i * GN + j]);
            exact[i * GN + j] = alpha * ex + c[i * GN + j];
            bound[i * GN + j] = alpha * GK * ldexp(mag, -24) +
                                ldexp(fabs(exact[i * GN + j]) + alpha * mag, -24);
        }
    unsigned bad = 0, outside = 0, rounded = 0;
    for (int mode = 0; mode < 2; mode++) {
        ls_gpu *g = gpu_for(mode);
        ls_module *m;
        if (ls_module_load_file(g, "tests/ptx/nv_wmma.ptx", &m) != LS_OK)
            fail_msg("load: %s", ls_gpu_error(g));
        ls_dptr da = up(g, a, sizeof a), db = up(g, b, sizeof b), dc = up(g, c, sizeof c),
                dd = up(g, NULL, sizeof d);
        int M = GM, N = GN, K = GK;
        float al = alpha;
        void *args[] = {&da, &db, &dc, &dd, &M, &N, &K, &al};
        ls_stats st;
        memset(&st, 0, sizeof st);
        launch(g, m, "wmma_gemm_f16", (ls_dim3){GN / 16, GM / 16, 1}, args, &st);
        assert_int_equal(ls_memcpy_dtoh(g, d, dd, sizeof d), LS_OK);
        bad += cmp32("wmma_gemm_f16 (model order)", mode, d, want, GM * GN);
        for (unsigned i = 0; i < GM * GN; i++) {
            outside += fabs(d[i] - exact[i]) > bound[i];
            rounded += mode == 0 && (double)d[i] != exact[i];
        }
        /* one warp per tile, K / 16 mma each; the pipe is busy tensor_ii
         * (default 32) cycles per 16x16x16 f16 step */
        uint64_t n = (GM / 16) * (GN / 16) * (GK / 16);
        assert_int_equal(st.tensor_insts, mode ? n : 0);
        assert_int_equal(st.tensor_busy_cycles, mode ? n * 32 : 0);
        ls_gpu_destroy(g);
    }
    assert_int_equal(bad, 0);
    assert_int_equal(outside, 0);
    assert_true(rounded > GM * GN / 2);   /* the inputs make rounding matter */
}

static void test_gemm_s8(void **state)
{
    (void)state;
    static int8_t a[SM * SK], b[SK * SN];
    static int32_t d[SM * SN], want[SM * SN];     /* want/d column-major */
    for (unsigned i = 0; i < SM * SK; i++) a[i] = (int8_t)(next() & 0xff);
    for (unsigned i = 0; i < SK * SN; i++) b[i] = (int8_t)(next() & 0xff);
    for (unsigned i = 0; i < SM; i++)
        for (unsigned j = 0; j < SN; j++) {
            int32_t s = 0;
            for (unsigned k = 0; k < SK; k++)
                s += a[i * SK + k] * b[k * SN + j];
            want[j * SM + i] = s;
        }
    unsigned bad = 0;
    for (int mode = 0; mode < 2; mode++) {
        ls_gpu *g = gpu_for(mode);
        ls_module *m;
        if (ls_module_load_file(g, "tests/ptx/nv_wmma.ptx", &m) != LS_OK)
            fail_msg("load: %s", ls_gpu_error(g));
        ls_dptr da = up(g, a, sizeof a), db = up(g, b, sizeof b), dd = up(g, NULL, sizeof d);
        int M = SM, N = SN, K = SK;
        void *args[] = {&da, &db, &dd, &M, &N, &K};
        launch(g, m, "wmma_gemm_s8", (ls_dim3){SN / 16, SM / 16, 1}, args, NULL);
        assert_int_equal(ls_memcpy_dtoh(g, d, dd, sizeof d), LS_OK);
        bad += cmp32("wmma_gemm_s8", mode, d, want, SM * SN);
        ls_gpu_destroy(g);
    }
    assert_int_equal(bad, 0);
}

/* u8 col x u8 col + c with .satfinite; c pushes some sums past INT32_MAX. */
static void test_u8_sat(void **state)
{
    (void)state;
    static uint8_t a[256], b[256];
    static int32_t c[256], d[256], want[256];
    unsigned sat = 0;
    for (unsigned i = 0; i < 256; i++) {
        a[i] = (uint8_t)next();
        b[i] = (uint8_t)next();
        c[i] = (i % 3 == 0) ? INT32_MAX - (int32_t)(next() % 300000u)
             : (i % 3 == 1) ? INT32_MIN + (int32_t)(next() % 1000u) : (int32_t)next();
    }
    for (unsigned i = 0; i < 16; i++)
        for (unsigned j = 0; j < 16; j++) {
            int64_t s = c[i * 16 + j];
            for (unsigned k = 0; k < 16; k++)
                s += (int64_t)a[k * 16 + i] * b[j * 16 + k];   /* both col-major */
            sat += s > INT32_MAX;
            want[i * 16 + j] = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
        }
    assert_true(sat > 10 && sat < 200);
    unsigned bad = 0;
    for (int mode = 0; mode < 2; mode++) {
        ls_gpu *g = gpu_for(mode);
        ls_module *m;
        assert_int_equal(ls_module_load_file(g, "tests/ptx/nv_wmma.ptx", &m), LS_OK);
        ls_dptr da = up(g, a, sizeof a), db = up(g, b, sizeof b), dc = up(g, c, sizeof c),
                dd = up(g, NULL, sizeof d);
        void *args[] = {&da, &db, &dc, &dd};
        launch(g, m, "wmma_u8_sat", (ls_dim3){1, 1, 1}, args, NULL);
        assert_int_equal(ls_memcpy_dtoh(g, d, dd, sizeof d), LS_OK);
        bad += cmp32("wmma_u8_sat", mode, d, want, 256);
        ls_gpu_destroy(g);
    }
    assert_int_equal(bad, 0);
}

/* m32n8k16 (row, row, c/d row) and m8n32k16 (col, col, c/d col) with a
 * half accumulator: small multiples of 1/8, so every sum is exact. */
static void test_shapes_f16(void **state)
{
    (void)state;
    static uint16_t a[512], b[128], c[256], d[256], want[256];
    static uint16_t a2[128], b2[512], c2[256], d2[256], want2[256];
    for (unsigned i = 0; i < 512; i++) {
        a[i] = f2h((float)((int)(next() % 33) - 16) / 8.0f);
        b2[i] = f2h((float)((int)(next() % 33) - 16) / 8.0f);
    }
    for (unsigned i = 0; i < 128; i++) {
        b[i] = f2h((float)((int)(next() % 33) - 16) / 8.0f);
        a2[i] = f2h((float)((int)(next() % 33) - 16) / 8.0f);
    }
    for (unsigned i = 0; i < 256; i++) {
        c[i] = f2h((float)((int)(next() % 65) - 32));
        c2[i] = f2h((float)((int)(next() % 65) - 32));
    }
    for (unsigned i = 0; i < 32; i++)
        for (unsigned j = 0; j < 8; j++) {
            float s = h2f(c[i * 8 + j]);
            for (unsigned k = 0; k < 16; k++)
                s += h2f(a[i * 16 + k]) * h2f(b[k * 8 + j]);
            want[i * 8 + j] = f2h(s);
        }
    for (unsigned i = 0; i < 8; i++)         /* a2: 8x16 col, b2: 16x32 col, c2/d2 col */
        for (unsigned j = 0; j < 32; j++) {
            float s = h2f(c2[j * 8 + i]);
            for (unsigned k = 0; k < 16; k++)
                s += h2f(a2[k * 8 + i]) * h2f(b2[j * 16 + k]);
            want2[j * 8 + i] = f2h(s);
        }
    unsigned bad = 0;
    for (int mode = 0; mode < 2; mode++) {
        ls_gpu *g = gpu_for(mode);
        ls_module *m;
        assert_int_equal(ls_module_load_file(g, "tests/ptx/nv_wmma.ptx", &m), LS_OK);
        ls_dptr da = up(g, a, sizeof a), db = up(g, b, sizeof b), dc = up(g, c, sizeof c),
                dd = up(g, NULL, sizeof d), da2 = up(g, a2, sizeof a2),
                db2 = up(g, b2, sizeof b2), dc2 = up(g, c2, sizeof c2),
                dd2 = up(g, NULL, sizeof d2);
        void *args[] = {&da, &db, &dc, &dd, &da2, &db2, &dc2, &dd2};
        launch(g, m, "wmma_shapes_f16", (ls_dim3){1, 1, 1}, args, NULL);
        assert_int_equal(ls_memcpy_dtoh(g, d, dd, sizeof d), LS_OK);
        assert_int_equal(ls_memcpy_dtoh(g, d2, dd2, sizeof d2), LS_OK);
        bad += cmp16("m32n8k16 f16", mode, d, want, 256);
        bad += cmp16("m8n32k16 f16", mode, d2, want2, 256);
        ls_gpu_destroy(g);
    }
    assert_int_equal(bad, 0);
}

/* s4 (m8n8k32, nibbles low first, row x col, c = 100) and b1 (m8n8k128,
 * bits LSB first, d = popc(a_row XOR b_col)). */
static void test_subbyte(void **state)
{
    (void)state;
    static uint8_t a4[128], b4[128], a1[128], b1[128];
    static int32_t d4[64], want4[64], d1[64], want1[64];
    for (unsigned i = 0; i < 128; i++) {
        a4[i] = (uint8_t)next(); b4[i] = (uint8_t)next();
        a1[i] = (uint8_t)next(); b1[i] = (uint8_t)next();
    }
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 8; j++) {
            int32_t s = 100, p = 0;
            for (unsigned k = 0; k < 32; k++) {
                unsigned ia = i * 32 + k, ib = j * 32 + k;
                int x = (a4[ia / 2] >> (4 * (ia & 1))) & 15, y = (b4[ib / 2] >> (4 * (ib & 1))) & 15;
                s += (x >= 8 ? x - 16 : x) * (y >= 8 ? y - 16 : y);
            }
            for (unsigned k = 0; k < 128; k++) {
                unsigned ia = i * 128 + k, ib = j * 128 + k;
                p += ((a1[ia / 8] >> (ia % 8)) ^ (b1[ib / 8] >> (ib % 8))) & 1;
            }
            want4[i * 8 + j] = s;
            want1[i * 8 + j] = p;
        }
    unsigned bad = 0;
    for (int mode = 0; mode < 2; mode++) {
        ls_gpu *g = gpu_for(mode);
        ls_module *m;
        assert_int_equal(ls_module_load_file(g, "tests/ptx/nv_wmma.ptx", &m), LS_OK);
        ls_dptr pa4 = up(g, a4, 128), pb4 = up(g, b4, 128), pd4 = up(g, NULL, sizeof d4),
                pa1 = up(g, a1, 128), pb1 = up(g, b1, 128), pd1 = up(g, NULL, sizeof d1);
        void *args[] = {&pa4, &pb4, &pd4, &pa1, &pb1, &pd1};
        launch(g, m, "wmma_subbyte", (ls_dim3){1, 1, 1}, args, NULL);
        assert_int_equal(ls_memcpy_dtoh(g, d4, pd4, sizeof d4), LS_OK);
        assert_int_equal(ls_memcpy_dtoh(g, d1, pd1, sizeof d1), LS_OK);
        bad += cmp32("m8n8k32 s4", mode, d4, want4, 64);
        bad += cmp32("m8n8k128 b1", mode, d1, want1, 64);
        ls_gpu_destroy(g);
    }
    assert_int_equal(bad, 0);
}

/* mma.sync with the PTX ISA's per-lane fragments. Random halves: the f32
 * form is compared bit for bit with the documented order (fmaf over
 * k = 0..7 from c), the f16 form with that sum rounded to half. */
static void test_mma_sync(void **state)
{
    (void)state;
    static uint16_t a[128], b[64], dh[128], wanth[128];
    static float c[128], d[128], want[128];
    static int8_t a8[128], b8[128];
    static int32_t c8[64], d8[64], want8[64];
    for (unsigned i = 0; i < 128; i++) {
        a[i] = rnd_half();
        c[i] = (float)((int)(next() % 64) - 32) / 4.0f;
        a8[i] = (int8_t)next();
        b8[i] = (int8_t)next();
    }
    for (unsigned i = 0; i < 64; i++) {
        b[i] = rnd_half();
        c8[i] = (int32_t)next();
    }
    for (unsigned i = 0; i < 16; i++)
        for (unsigned j = 0; j < 8; j++) {
            float s = c[i * 8 + j], sh = h2f(f2h(c[i * 8 + j]));
            for (unsigned k = 0; k < 8; k++) {
                s = fmaf(h2f(a[i * 8 + k]), h2f(b[k * 8 + j]), s);
                sh = fmaf(h2f(a[i * 8 + k]), h2f(b[k * 8 + j]), sh);
            }
            want[i * 8 + j] = s;
            wanth[i * 8 + j] = f2h(sh);
        }
    for (unsigned i = 0; i < 8; i++)
        for (unsigned j = 0; j < 8; j++) {
            uint32_t s = (uint32_t)c8[i * 8 + j];
            for (unsigned k = 0; k < 16; k++)
                s += (uint32_t)(a8[i * 16 + k] * b8[k * 8 + j]);
            want8[i * 8 + j] = (int32_t)s;
        }
    unsigned bad = 0;
    for (int mode = 0; mode < 2; mode++) {
        ls_gpu *g = gpu_for(mode);
        ls_module *m;
        assert_int_equal(ls_module_load_file(g, "tests/ptx/nv_wmma.ptx", &m), LS_OK);
        ls_dptr pa = up(g, a, sizeof a), pb = up(g, b, sizeof b), pc = up(g, c, sizeof c),
                pd = up(g, NULL, sizeof d), pdh = up(g, NULL, sizeof dh);
        void *args[] = {&pa, &pb, &pc, &pd, &pdh};
        launch(g, m, "mma_sync_f16", (ls_dim3){1, 1, 1}, args, NULL);
        ls_dptr qa = up(g, a8, sizeof a8), qb = up(g, b8, sizeof b8), qc = up(g, c8, sizeof c8),
                qd = up(g, NULL, sizeof d8);
        void *args8[] = {&qa, &qb, &qc, &qd};
        launch(g, m, "mma_sync_s8", (ls_dim3){1, 1, 1}, args8, NULL);
        assert_int_equal(ls_memcpy_dtoh(g, d, pd, sizeof d), LS_OK);
        assert_int_equal(ls_memcpy_dtoh(g, dh, pdh, sizeof dh), LS_OK);
        assert_int_equal(ls_memcpy_dtoh(g, d8, qd, sizeof d8), LS_OK);
        bad += cmp32("mma m16n8k8 f32", mode, d, want, 128);
        bad += cmp16("mma m16n8k8 f16", mode, dh, wanth, 128);
        bad += cmp32("mma m8n8k16 s8", mode, d8, want8, 64);
        ls_gpu_destroy(g);
    }
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm_f16),
        cmocka_unit_test(test_gemm_s8),
        cmocka_unit_test(test_u8_sat),
        cmocka_unit_test(test_shapes_f16),
        cmocka_unit_test(test_subbyte),
        cmocka_unit_test(test_mma_sync),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
