/* A CUDA kernel of our own (tests/ptx/nv_texfilter.cu, nvcc -arch=sm_75
 * PTX committed) using a bilinear wrap texture on normalised coordinates,
 * a layered uchar4 texture read as normalised float with linear
 * filtering, and surfaces, against a CPU reference that implements the
 * texture fetching formula with 8-bit fixed-point weights
 * (docs/textures.md), in functional and timing mode. Run from the
 * repository root. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lockstep.h"

#define W 24
#define H 20
#define TW 13                   /* texture of warpLinear: TW x TH floats */
#define TH 7
#define LW 9                    /* layered texture: LW x LH x LAYERS uchar4 */
#define LH 5
#define LAYERS 4

/* ---- CPU reference of the texture unit ---- */

/* Fixed-point texel coordinate: i (lower texel) and a (weight of the
 * upper one, /256) of texel-space coordinate x for linear filtering. */
static void fixed(double x, int64_t *i, unsigned *a)
{
    int64_t X = (int64_t)floor((x - 0.5) * 256.0 + 0.5);
    *i = X >> 8;
    *a = (unsigned)(X & 255);
}

static int64_t wrap(int64_t i, int64_t n)
{
    int64_t r = i % n;
    return r < 0 ? r + n : r;
}

static int64_t clampi(int64_t i, int64_t n)
{
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* tex2D<float>(t, u, v): normalised, wrap, linear, 1-channel float. */
static float ref_warp(const float *T, float u, float v)
{
    int64_t i, j;
    unsigned a, b;
    fixed((double)u * TW, &i, &a);
    fixed((double)v * TH, &j, &b);
    double acc = 0;
    for (unsigned dy = 0; dy < 2; dy++)
        for (unsigned dx = 0; dx < 2; dx++) {
            double wgt = (double)((dx ? a : 256 - a) * (dy ? b : 256 - b));
            acc += wgt * T[wrap(j + dy, TH) * TW + wrap(i + dx, TW)];
        }
    return (float)(acc / 65536.0);
}

/* tex2DLayered<float4>(t, x, y, l): unnormalised, clamp, linear, uchar4
 * read as normalised float (texel / 255 rounded to float). */
static void ref_layered(const uint8_t *T, float x, float y, int l, float out[4])
{
    int64_t i, j;
    unsigned a, b;
    fixed(x, &i, &a);
    fixed(y, &j, &b);
    for (unsigned c = 0; c < 4; c++) {
        double acc = 0;
        for (unsigned dy = 0; dy < 2; dy++)
            for (unsigned dx = 0; dx < 2; dx++) {
                double wgt = (double)((dx ? a : 256 - a) * (dy ? b : 256 - b));
                size_t k = (((size_t)l * LH + (size_t)clampi(j + dy, LH)) * LW +
                            (size_t)clampi(i + dx, LW)) * 4 + c;
                acc += wgt * (double)(float)(T[k] / 255.0);
            }
        out[c] = (float)(acc / 65536.0);
    }
}

static char *read_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b)
        b[n] = 0;
    *len = (size_t)n;
    return b;
}

static void run_mode(ls_mode mode, const char *text, size_t len)
{
    ls_config c;
    ls_config_default(&c);
    c.mode = mode;
    char err[256];
    ls_gpu *g = ls_gpu_create(&c, err, sizeof err);
    assert_non_null(g);
    ls_module *m;
    if (ls_module_load_text(g, "nv_texfilter.ptx", text, len, &m) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    const char *mname = mode == LS_MODE_TIMING ? "timing" : "functional";

    /* warpLinear: a seeded float image, rotated by 30 degrees, scaled 1.5 */
    static float T[TW * TH];
    uint32_t seed = 12345;
    for (unsigned k = 0; k < TW * TH; k++) {
        seed = seed * 1103515245u + 12345u;
        T[k] = (float)((seed >> 8) & 0xffff) / 256.0f;
    }
    ls_dptr dt, dout;
    assert_int_equal(ls_malloc(g, &dt, sizeof T), LS_OK);
    assert_int_equal(ls_memcpy_htod(g, dt, T, sizeof T), LS_OK);
    assert_int_equal(ls_malloc(g, &dout, W * H * 16), LS_OK);
    ls_resource_desc r;
    memset(&r, 0, sizeof r);
    r.type = LS_RES_ARRAY;
    r.base = dt;
    r.format = (ls_channel_desc){32, 0, 0, 0, LS_CHANNEL_FLOAT};
    r.width = TW;
    r.height = TH;
    ls_texture_desc td;
    memset(&td, 0, sizeof td);
    td.address_mode[0] = td.address_mode[1] = LS_ADDRESS_WRAP;
    td.filter_mode = LS_FILTER_LINEAR;
    td.normalized_coords = 1;
    uint64_t ht;
    if (ls_texture_create(g, &r, &td, &ht) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    int w = W, h = H;
    float cs = 0.866025403f, sn = 0.5f;
    void *a1[] = {&ht, &dout, &w, &h, &cs, &sn};
    if (ls_launch(g, m, "warpLinear", (ls_dim3){(W + 7) / 8, (H + 7) / 8, 1},
                  (ls_dim3){8, 8, 1}, 0, a1, NULL) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    static float out[W * H * 4];
    assert_int_equal(ls_memcpy_dtoh(g, out, dout, W * H * 4), LS_OK);
    unsigned blended = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            /* the coordinate arithmetic as nvcc compiled it */
            float u = (float)x / (float)W - 0.5f, v = (float)y / (float)H - 0.5f;
            float tu = (u * cs - v * sn) + 0.5f;
            float tv = fmaf(u, sn, v * cs) + 0.5f;
            float want = ref_warp(T, tu * 1.5f, tv * 1.5f);
            if (memcmp(&want, &out[y * W + x], 4) != 0)
                fail_msg("warpLinear (%s) (%d, %d): got %.9g want %.9g", mname, x, y,
                         (double)out[y * W + x], (double)want);
            blended += fmodf(want, 1.0f / 256.0f) != 0.0f;
        }
    assert_true(blended > W * H / 2);   /* the weights really blend */

    /* layeredSum: LAYERS layers of uchar4 */
    static uint8_t L[LAYERS * LH * LW * 4];
    for (unsigned k = 0; k < sizeof L; k++) {
        seed = seed * 1103515245u + 12345u;
        L[k] = (uint8_t)(seed >> 16);
    }
    ls_dptr dl;
    assert_int_equal(ls_malloc(g, &dl, sizeof L), LS_OK);
    assert_int_equal(ls_memcpy_htod(g, dl, L, sizeof L), LS_OK);
    memset(&r, 0, sizeof r);
    r.type = LS_RES_ARRAY;
    r.base = dl;
    r.format = (ls_channel_desc){8, 8, 8, 8, LS_CHANNEL_UNSIGNED};
    r.width = LW;
    r.height = LH;
    r.flags = LS_ARRAY_LAYERED;
    r.layers = LAYERS;
    memset(&td, 0, sizeof td);
    td.address_mode[0] = td.address_mode[1] = LS_ADDRESS_CLAMP;
    td.filter_mode = LS_FILTER_LINEAR;
    td.read_mode = LS_READ_NORMALIZED_FLOAT;
    uint64_t hl;
    if (ls_texture_create(g, &r, &td, &hl) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    int lw = LW, lh = LH, nl = LAYERS;
    void *a2[] = {&hl, &dout, &lw, &lh, &nl};
    if (ls_launch(g, m, "layeredSum", (ls_dim3){2, 1, 1}, (ls_dim3){8, 8, 1}, 0, a2,
                  NULL) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    assert_int_equal(ls_memcpy_dtoh(g, out, dout, LW * LH * 16), LS_OK);
    for (int y = 0; y < LH; y++)
        for (int x = 0; x < LW; x++) {
            float s[4] = {0, 0, 0, 0}, v[4];
            for (int l = 0; l < LAYERS; l++) {
                ref_layered(L, (float)x + 0.25f * (float)l, (float)y + 0.5f, l, v);
                for (unsigned k = 0; k < 4; k++)
                    s[k] += v[k];
            }
            if (memcmp(s, &out[(y * LW + x) * 4], 16) != 0)
                fail_msg("layeredSum (%s) (%d, %d): got %.9g want %.9g", mname, x, y,
                         (double)out[(y * LW + x) * 4], (double)s[0]);
        }

    /* surfScale: out(x, y) = 2 in(x, y) + x over int surfaces */
    static int32_t S[W * H], O[W * H];
    for (unsigned k = 0; k < W * H; k++)
        S[k] = (int32_t)(k * 7 % 1000) - 300;
    ls_dptr ds, dso;
    assert_int_equal(ls_malloc(g, &ds, sizeof S), LS_OK);
    assert_int_equal(ls_memcpy_htod(g, ds, S, sizeof S), LS_OK);
    assert_int_equal(ls_malloc(g, &dso, sizeof S), LS_OK);
    memset(&r, 0, sizeof r);
    r.type = LS_RES_ARRAY;
    r.base = ds;
    r.format = (ls_channel_desc){32, 0, 0, 0, LS_CHANNEL_SIGNED};
    r.width = W;
    r.height = H;
    r.flags = LS_ARRAY_SURFACE;
    uint64_t hs, hso;
    assert_int_equal(ls_surface_create(g, &r, &hs), LS_OK);
    r.base = dso;
    assert_int_equal(ls_surface_create(g, &r, &hso), LS_OK);
    void *a3[] = {&hs, &hso, &w, &h};
    if (ls_launch(g, m, "surfScale", (ls_dim3){(W + 7) / 8, (H + 7) / 8, 1},
                  (ls_dim3){8, 8, 1}, 0, a3, NULL) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    assert_int_equal(ls_memcpy_dtoh(g, O, dso, sizeof O), LS_OK);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(O[y * W + x], 2 * S[y * W + x] + x);
    ls_gpu_destroy(g);
}

static void test_nv_texfilter(void **state)
{
    (void)state;
    size_t len = 0;
    char *text = read_text("tests/ptx/nv_texfilter.ptx", &len);
    if (!text)
        fail_msg("tests/ptx/nv_texfilter.ptx: run from the repository root");
    run_mode(LS_MODE_FUNCTIONAL, text, len);
    run_mode(LS_MODE_TIMING, text, len);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nv_texfilter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
