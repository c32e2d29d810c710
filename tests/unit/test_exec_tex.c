/* Textures and surfaces against hand-computed texels (docs/textures.md),
 * every case in functional and in timing mode: address modes x filter x
 * normalised coordinates, the 8-bit weights of linear filtering,
 * normalised-float reads of 8/16-bit texels, border colour, absent
 * channels, layered, cube face selection, mip levels (.level, .grad, the
 * mip filter), tld4 gather order, txq/suq, surfaces with each
 * out-of-bounds mode, sust.p conversions, the errors the descriptor call
 * and the instructions give, and the texel accesses the timing model
 * counts. Expected values are worked out in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lockstep.h"

#define HDR ".version 7.0\n.target sm_75\n.address_size 64\n"

/* Kernel k(h, in, out): thread i reads 4 words of in[i] into %f1..%f4
 * (and %r2..%r5), runs BODY, stores %f5..%f8 (fout) or %r6..%r9. */
static void kernel_text(char *buf, size_t n, const char *body, int fout)
{
    snprintf(buf, n, HDR
             ".visible .entry k(.param .u64 p0, .param .u64 p1, .param .u64 p2)\n{\n"
             " .reg .b32 %%r<12>;\n .reg .f32 %%f<12>;\n .reg .b64 %%rd<8>;\n"
             " .reg .pred %%p<2>;\n"
             " ld.param.u64 %%rd1, [p0];\n ld.param.u64 %%rd2, [p1];\n"
             " ld.param.u64 %%rd3, [p2];\n mov.u32 %%r1, %%tid.x;\n"
             " mul.wide.u32 %%rd4, %%r1, 16;\n add.s64 %%rd5, %%rd2, %%rd4;\n"
             " add.s64 %%rd6, %%rd3, %%rd4;\n"
             " ld.global.v4.f32 {%%f1, %%f2, %%f3, %%f4}, [%%rd5];\n"
             " ld.global.v4.b32 {%%r2, %%r3, %%r4, %%r5}, [%%rd5];\n"
             " mov.f32 %%f5, 0f00000000;\n mov.f32 %%f6, 0f00000000;\n"
             " mov.f32 %%f7, 0f00000000;\n mov.f32 %%f8, 0f00000000;\n"
             " mov.u32 %%r6, 0;\n mov.u32 %%r7, 0;\n mov.u32 %%r8, 0;\n mov.u32 %%r9, 0;\n"
             "%s\n"
             " %s [%%rd6], %s;\n ret;\n}\n",
             body, fout ? "st.global.v4.f32" : "st.global.v4.b32",
             fout ? "{%f5, %f6, %f7, %f8}" : "{%r6, %r7, %r8, %r9}");
}

static const ls_mode MODES[2] = {LS_MODE_FUNCTIONAL, LS_MODE_TIMING};

static ls_gpu *gpu_new(ls_mode mode)
{
    ls_config c;
    ls_config_default(&c);
    c.mode = mode;
    char err[256];
    ls_gpu *g = ls_gpu_create(&c, err, sizeof err);
    if (!g)
        fail_msg("ls_gpu_create: %s", err);
    return g;
}

static ls_dptr upload(ls_gpu *g, const void *data, size_t n)
{
    ls_dptr p;
    assert_int_equal(ls_malloc(g, &p, n), LS_OK);
    assert_int_equal(ls_memcpy_htod(g, p, data, n), LS_OK);
    return p;
}

/* Runs BODY for n threads with inputs in[4n] (raw words); out[4n]
 * receives the results. Returns the launch status; stats if wanted. */
static ls_status run(ls_gpu *g, const char *body, int fout, uint64_t h,
                     const uint32_t *in, unsigned n, uint32_t *out, ls_stats *st)
{
    char text[8192];
    kernel_text(text, sizeof text, body, fout);
    ls_module *m;
    if (ls_module_load_text(g, "tex.ptx", text, strlen(text), &m) != LS_OK)
        fail_msg("load: %s", ls_gpu_error(g));
    ls_dptr din = upload(g, in, 16u * n), dout;
    assert_int_equal(ls_malloc(g, &dout, 16u * n), LS_OK);
    assert_int_equal(ls_memset(g, dout, 0, 16u * n), LS_OK);
    void *args[] = {&h, &din, &dout};
    ls_status s = ls_launch(g, m, "k", (ls_dim3){1, 1, 1}, (ls_dim3){n, 1, 1}, 0,
                            args, st);
    if (s == LS_OK)
        assert_int_equal(ls_memcpy_dtoh(g, out, dout, 16u * n), LS_OK);
    ls_free(g, din);
    ls_free(g, dout);
    return s;
}

static uint32_t fb(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Checks component c of each thread's result against want[i] (floats,
 * compared bit for bit). */
static void expect_f(const uint32_t *out, unsigned n, unsigned c, const float *want,
                     const char *what, ls_mode mode)
{
    for (unsigned i = 0; i < n; i++)
        if (out[4 * i + c] != fb(want[i]))
            fail_msg("%s (%s mode), thread %u component %u: got %.9g, want %.9g", what,
                     mode == LS_MODE_TIMING ? "timing" : "functional", i, c,
                     (double)bf(out[4 * i + c]), (double)want[i]);
}

static ls_texture_desc tdesc(ls_address_mode am, ls_filter_mode f, int norm)
{
    ls_texture_desc t;
    memset(&t, 0, sizeof t);
    t.address_mode[0] = t.address_mode[1] = t.address_mode[2] = am;
    t.filter_mode = f;
    t.normalized_coords = norm;
    t.max_mipmap_level_clamp = 15.0f;
    return t;
}

static ls_resource_desc rarray(ls_dptr base, int bits, ls_channel_kind kind, int nch,
                               size_t w, size_t h, size_t d)
{
    ls_resource_desc r;
    memset(&r, 0, sizeof r);
    r.type = LS_RES_ARRAY;
    r.base = base;
    r.format.x = bits;
    r.format.y = nch > 1 ? bits : 0;
    r.format.z = r.format.w = nch > 2 ? bits : 0;
    r.format.kind = kind;
    r.width = w;
    r.height = h;
    r.depth = d;
    return r;
}

static uint64_t mktex(ls_gpu *g, const ls_resource_desc *r, const ls_texture_desc *t)
{
    uint64_t h;
    if (ls_texture_create(g, r, t, &h) != LS_OK)
        fail_msg("ls_texture_create: %s", ls_gpu_error(g));
    return h;
}

#define TEX1D " tex.1d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1}];"
#define TEX2D " tex.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2}];"

/* 1-D float texture [10, 20, 30, 40]: every address mode x filter x
 * normalisation, worked out by hand. */
static void test_modes_1d(void **state)
{
    (void)state;
    static const float T[4] = {10, 20, 30, 40};
    struct tcase {
        ls_address_mode am; ls_filter_mode f; int norm;
        unsigned n; float x[6]; float want[6];
        const char *what;
    };
    static const struct tcase cases[] = {
        /* linear, unnormalised, clamp: xB = x - 0.5, X = round(256 xB),
         * i = X >> 8, a = X & 255, T[i] + a/256 (T[i+1] - T[i]).
         * 1.7f = 1.70000005: X = floor(307.2 + .5) = 307, a = 51:
         * 20 + 10 * 51/256 = 21.9921875 (8-bit weight, not 22.0);
         * 1.7021484375: 256 xB = 307.75 rounds to 308, a = 52: 22.03125 */
        {LS_ADDRESS_CLAMP, LS_FILTER_LINEAR, 0, 6,
         {1.5f, 1.75f, 0.0f, 1.7f, 9.0f, 1.7021484375f},
         {20, 22.5f, 10, 21.9921875f, 40, 22.03125f}, "linear clamp unnormalised"},
        /* normalised wrap: x 0 -> texels -1 (=3: 40) and 0 (10), a = .5;
         * x 1.25 -> u 5, xB 4.5 -> texels 4 (=0) and 5 (=1): 15 */
        {LS_ADDRESS_WRAP, LS_FILTER_LINEAR, 1, 2, {0.0f, 1.25f}, {25, 15},
         "linear wrap normalised"},
        /* mirror: index i mod 8, 4..7 reflected to 3..0: x 0 -> -1 (=0)
         * and 0: 10; x 1.25 -> 4 (=3: 40), 5 (=2: 30): 35 */
        {LS_ADDRESS_MIRROR, LS_FILTER_LINEAR, 1, 2, {0.0f, 1.25f}, {10, 35},
         "linear mirror normalised"},
        /* border colour 7: x 0 -> border and 10: 8.5; x 1.25 -> 7 */
        {LS_ADDRESS_BORDER, LS_FILTER_LINEAR, 1, 2, {0.0f, 1.25f}, {8.5f, 7},
         "linear border normalised"},
        {LS_ADDRESS_CLAMP, LS_FILTER_LINEAR, 1, 2, {1.25f, 0.5f}, {40, 25},
         "linear clamp normalised"},
        /* point: floor, then the mode */
        {LS_ADDRESS_CLAMP, LS_FILTER_POINT, 0, 4, {2.9f, -3.0f, 7.0f, 0.99f},
         {30, 10, 40, 10}, "point clamp unnormalised"},
        {LS_ADDRESS_BORDER, LS_FILTER_POINT, 0, 3, {-0.5f, 4.0f, 3.99f},
         {7, 7, 40}, "point border unnormalised"},
        /* normalised point: u = 4x; wrap 1.6 -> 6 -> 2 (30); mirror 6 -> 1 */
        {LS_ADDRESS_WRAP, LS_FILTER_POINT, 1, 2, {1.6f, -0.1f}, {30, 40},
         "point wrap normalised"},
        {LS_ADDRESS_MIRROR, LS_FILTER_POINT, 1, 2, {1.6f, -0.1f}, {20, 10},
         "point mirror normalised"},
    };
    for (unsigned mi = 0; mi < 2; mi++) {
        ls_gpu *g = gpu_new(MODES[mi]);
        ls_dptr base = upload(g, T, sizeof T);
        for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            const struct tcase *c = &cases[k];
            ls_resource_desc r = rarray(base, 32, LS_CHANNEL_FLOAT, 1, 4, 0, 0);
            ls_texture_desc td = tdesc(c->am, c->f, c->norm);
            td.border_color[0] = 7.0f;
            uint64_t h = mktex(g, &r, &td);
            uint32_t in[4 * 6] = {0}, out[4 * 6];
            for (unsigned i = 0; i < c->n; i++)
                in[4 * i] = fb(c->x[i]);
            if (run(g, TEX1D, 1, h, in, c->n, out, NULL) != LS_OK)
                fail_msg("%s: %s", c->what, ls_gpu_error(g));
            expect_f(out, c->n, 0, c->want, c->what, MODES[mi]);
            /* absent channels: y = z = 0, w = 1 (border: border colour) */
            float zero[6] = {0}, one[6] = {1, 1, 1, 1, 1, 1};
            expect_f(out, c->n, 1, zero, "absent channel y", MODES[mi]);
            if (c->am != LS_ADDRESS_BORDER)
                expect_f(out, c->n, 3, one, "absent channel w", MODES[mi]);
        }
        ls_gpu_destroy(g);
    }
}

/* 2-D u8 texture read as normalised float: texels (x, y) 0, 255 / 51,
 * 102 are 0, 1, 0.2f, 0.4f. Linear at (1, 1): a = b = 1/2 on all four:
 * (0 + 1 + 0.2f + 0.4f) / 4 rounds to 0.4f. Point at (1.2, 0.3): 1.
 * Signed 16-bit: -32768 reads -1 (clamped), 16384 reads 16384/32767. */
static void test_normalized_read(void **state)
{
    (void)state;
    for (unsigned mi = 0; mi < 2; mi++) {
        ls_gpu *g = gpu_new(MODES[mi]);
        static const uint8_t T[4] = {0, 255, 51, 102};
        ls_dptr base = upload(g, T, sizeof T);
        ls_resource_desc r = rarray(base, 8, LS_CHANNEL_UNSIGNED, 1, 2, 2, 0);
        ls_texture_desc td = tdesc(LS_ADDRESS_CLAMP, LS_FILTER_LINEAR, 0);
        td.read_mode = LS_READ_NORMALIZED_FLOAT;
        uint64_t h = mktex(g, &r, &td);
        uint32_t in[8] = {fb(1.0f), fb(1.0f), 0, 0, fb(0.5f), fb(1.5f), 0, 0}, out[8];
        assert_int_equal(run(g, TEX2D, 1, h, in, 2, out, NULL), LS_OK);
        /* (0.5, 1.5): row 1 only, x texels 0,0 (clamped) -> 0.2f */
        float want[2] = {0.4f, 0.2f};
        expect_f(out, 2, 0, want, "u8 normalised linear", MODES[mi]);
        td.filter_mode = LS_FILTER_POINT;
        h = mktex(g, &r, &td);
        uint32_t in2[4] = {fb(1.2f), fb(0.3f), 0, 0};
        assert_int_equal(run(g, TEX2D, 1, h, in2, 1, out, NULL), LS_OK);
        float w1[1] = {1.0f};
        expect_f(out, 1, 0, w1, "u8 normalised point", MODES[mi]);
        static const int16_t S[2] = {-32768, 16384};
        ls_dptr sb = upload(g, S, sizeof S);
        ls_resource_desc rs = rarray(sb, 16, LS_CHANNEL_SIGNED, 1, 2, 0, 0);
        uint64_t hs = mktex(g, &rs, &td);
        uint32_t in3[8] = {fb(0.5f), 0, 0, 0, fb(1.5f), 0, 0, 0};
        assert_int_equal(run(g, TEX1D, 1, hs, in3, 2, out, NULL), LS_OK);
        float w3[2] = {-1.0f, (float)(16384.0 / 32767.0)};
        expect_f(out, 2, 0, w3, "s16 normalised", MODES[mi]);
        ls_gpu_destroy(g);
    }
}

/* Integer element-type reads: tex.1d.s32 on a linear int16x2 resource
 * (tex1Dfetch): sign-extended channels, zeros outside. */
static void test_integer_fetch(void **state)
{
    (void)state;
    for (unsigned mi = 0; mi < 2; mi++) {
        ls_gpu *g = gpu_new(MODES[mi]);
        static const int16_t T[6] = {-5, 7, 300, -300, 1, 2};
        ls_dptr base = upload(g, T, sizeof T);
        ls_resource_desc r;
        memset(&r, 0, sizeof r);
        r.type = LS_RES_LINEAR;
        r.base = base;
        r.size_bytes = sizeof T;
        r.format = (ls_channel_desc){16, 16, 0, 0, LS_CHANNEL_SIGNED};
        ls_texture_desc td = tdesc(LS_ADDRESS_CLAMP, LS_FILTER_POINT, 0);
        uint64_t h = mktex(g, &r, &td);
        uint32_t in[12] = {0, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0}, out[12];
        assert_int_equal(run(g, " tex.1d.v4.s32.s32 {%r6, %r7, %r8, %r9}, [%rd1, {%r2}];",
                             0, h, in, 3, out, NULL), LS_OK);
        assert_int_equal(out[0], (uint32_t)-5);
        assert_int_equal(out[1], 7);
        assert_int_equal(out[3], 1);           /* absent alpha: 1 */
        assert_int_equal(out[4], 300);
        assert_int_equal(out[5], (uint32_t)-300);
        for (unsigned c = 0; c < 4; c++)       /* x = 3: outside, zeros */
            assert_int_equal(out[8 + c], 0);
        ls_gpu_destroy(g);
    }
}

/* Layered: a 2-D array of 2 x 1 texels, 3 layers, texel = 100 l + x.
 * a2d {layer, x, y}: layer 2, x 1.5 -> 201; layer 7 clamps to 2.
 * a1d of 2 texels x 2 layers, linear at x = 1: (100 + 101) / 2. */
static void test_layered(void **state)
{
    (void)state;
    for (unsigned mi = 0; mi < 2; mi++) {
        ls_gpu *g = gpu_new(MODES[mi]);
        static const float T[6] = {0, 1, 100, 101, 200, 201};
        ls_dptr base = upload(g, T, sizeof T);
        ls_resource_desc r = rarray(base, 32, LS_CHANNEL_FLOAT, 1, 2, 1, 0);
        r.flags = LS_ARRAY_LAYERED;
        r.layers = 3;
        ls_texture_desc td = tdesc(LS_ADDRESS_CLAMP, LS_FILTER_POINT, 0);
        uint64_t h = mktex(g, &r, &td);
        uint32_t in[12] = {2, fb(1.5f), fb(0.5f), 0, 7, fb(0.2f), fb(0.5f), 0,
                           1, fb(0.9f), fb(0.1f), 0}, out[12];
        assert_int_equal(run(g, " tex.a2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, "
                             "[%rd1, {%r2, %f2, %f3, %f3}];", 1, h, in, 3, out, NULL), LS_OK);
        float want[3] = {201, 200, 100};
        expect_f(out, 3, 0, want, "a2d point", MODES[mi]);
        /* tex.2d on a layered texture is an error naming both */
        assert_int_equal(run(g, TEX2D, 1, h, in, 1, out, NULL), LS_ERR_MEMFAULT);
        assert_non_null(strstr(ls_gpu_error(g), "not bound to a 2-D texture"));
        ls_resource_desc r1 = rarray(base + 8, 32, LS_CHANNEL_FLOAT, 1, 2, 0, 0);
        r1.flags = LS_ARRAY_LAYERED;
        r1.layers = 2;
        ls_texture_desc tl = tdesc(LS_ADDRESS_CLAMP, LS_FILTER_LINEAR, 0);
        uint64_t h1 = mktex(g, &r1, &tl);
        uint32_t in1[4] = {1, fb(1.0f), 0, 0};
        assert_int_equal(run(g, " tex.a1d.v4.f32.f32 {%f5, %f6, %f7, %f8}, "
                             "[%rd1, {%r2, %f2}];", 1, h1, in1, 1, out, NULL), LS_OK);
        float w1[1] = {200.5f};   /* layers of r1 start at texel 2: 200, 201 */
        expect_f(out, 1, 0, w1, "a1d linear", MODES[mi]);
        ls_gpu_destroy(g);
    }
}

/* Cube: 2 x 2 faces, texel = 10 face + 2y + x, point sampling. The major
 * axis picks the face; (sc, tc) / |ma| -> s, t in [0, 1] (CUDA guide's
 * cubemap table) -> texel floor(2s), floor(2t). */
static void test_cube(void **state)
{
    (void)state;
    float T[24];
    for (unsigned f = 0; f < 6; f++)
        for (unsigned k = 0; k < 4; k++)
            T[4 * f + k] = (float)(10 * f + k);
    static const float dir[7][3] = {
        {1, 0, 0},          /* +x, sc -z 0, tc -y 0: s t .5 -> (1,1): 3  */
        {-1, 0.5f, -0.5f},  /* -x, sc z -.5, tc -y -.5: .25 .25 -> 10   */
        {0.2f, -1, 0.9f},   /* -y, sc x .2 -> .6, tc -z -.9 -> .05: 31   */
        {0.3f, 0.1f, -2},   /* -z, sc -x -.15 -> .425, tc -y -> .475: 50 */
        {0, 3, 0},          /* +y: 23 */
        {0, 0, 1},          /* +z: 43 */
        {0.5f, -0.25f, 0.5f}, /* tie |x| = |z|: x wins, +x: sc -1 -> 0,
                                 tc .5 -> .75: (0, 1) -> 2 */
    };
    static const float want[7] = {3, 10, 31, 50, 23, 43, 2};
    for (unsigned mi = 0; mi < 2; mi++) {
        ls_gpu *g = gpu_new(MODES[mi]);
        ls_dptr base = upload(g, T, sizeof T);
        ls_resource_desc r = rarray(base, 32, LS_CHANNEL_FLOAT, 1, 2, 2, 0);
        r.flags = LS_ARRAY_CUBEMAP;
        ls_texture_desc td = tdesc(LS_ADDRESS_CLAMP, LS_FILTER_POINT, 1);
        uint64_t h = mktex(g, &r, &td);
        uint32_t in[28], out[28];
        for (unsigned i = 0; i < 7; i++) {
            in[4 * i] = fb(dir[i][0]);
            in[4 * i + 1] = fb(dir[i][1]);
            in[4 * i + 2] = fb(dir[i][2]);
            in[4 * i + 3] = 0;
        }
        assert_int_equal(run(g, " tex.cube.v4.f32.f32 {%f5, %f6, %f7, %f8}, "
                             "[%rd1, {%f1, %f2, %f3, %f4}];", 1, h, in, 7, out, NULL), LS_OK);
        expect_f(out, 7, 0, want, "cube face selection", MODES[mi]);
        ls_gpu_destroy(g);
    }
}

/* tld4 on a 3 x 3 float2 texture, x = 10y + x, y = x + 100: at (1, 1)
 * xB = yB = .5 -> i0 = j0 = 0; order lower-left counter-clockwise:
 * (0,1) (1,1) (1,0) (0,0). */
static void test_tld4(void **state)
{
    (void)state;
    float T[18];
    for (unsigned y = 0; y < 3; y++)
        for (unsigned x = 0; x < 3; x++) {
            T[2 * (3 * y + x)] = (float)(10 * y + x);
            T[2 * (3 * y + x) + 1] = (float)(10 * y + x + 100);
        }
    for (unsigned mi = 0; mi < 2; mi++) {
        ls_gpu *g = gpu_new(MODES[mi]);
        ls_dptr base = upload(g, T, sizeof T);
        ls_resource_desc r = rarray(base, 32, LS_CHANNEL_FLOAT, 2, 3, 3, 0);
        ls_texture_desc td = tdesc(LS_ADDRESS_CLAMP, LS_FILTER_POINT, 0);
        uint64_t h = mktex(g, &r, &td);
        uint32_t in[4] = {fb(1.0f), fb(1.0f), 0, 0}, out[4];
        static const struct { const char *body; float want[4]; } c[3] = {
            {" tld4.r.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2}];",
             {10, 11, 1, 0}},
            {" tld4.g.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2}];",
             {110, 111, 101, 100}},
            {" tld4.a.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2}];",
             {1, 1, 1, 1}},            /* absent alpha */
        };
        for (unsigned k = 0; k < 3; k++) {
            assert_int_equal(run(g, c[k].body, 1, h, in, 1, out, NULL), LS_OK);
            for (unsigned q = 0; q < 4; q++)
                if (out[q] != fb(c[k].want[q]))
                    fail_msg("tld4 case %u texel %u: got %g want %g", k, q,
                             (double)bf(out[q]), (double)c[k].want[q]);
        }
        ls_gpu_destroy(g);
    }
}

/* Mip levels: 4x4, 2x2, 1x1 levels of constant 1, 2, 4. .level picks
 * the level; point mip filter rounds (ties down, .5 -> 0, 1.5 -> 1),
 * linear blends with an 8-bit fraction; bias and clamps apply; .grad
 * lambda = log2(max |gradient| x size). */
static void test_mipmap(void **state)
{
    (void)state;
    float T[16 + 4 + 1];
    for (unsigned i = 0; i < 21; i++)
        T[i] = i < 16 ? 1.0f : i < 20 ? 2.0f : 4.0f;
    for (unsigned mi = 0; mi < 2; mi++) {
        ls_gpu *g = gpu_new(MODES[mi]);
        ls_dptr base = upload(g, T, sizeof T);
        ls_resource_desc r = rarray(base, 32, LS_CHANNEL_FLOAT, 1, 4, 4, 0);
        r.type = LS_RES_MIPMAPPED;
        r.levels = 3;
        ls_texture_desc td = tdesc(LS_ADDRESS_CLAMP, LS_FILTER_LINEAR, 1);
        uint64_t hp = mktex(g, &r, &td);
        td.mipmap_filter_mode = LS_FILTER_LINEAR;
        uint64_t hl = mktex(g, &r, &td);
        td.mipmap_level_bias = 1.0f;
        uint64_t hb = mktex(g, &r, &td);
        const char *lvl = " tex.level.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, "
                          "[%rd1, {%f1, %f2}], %f3;";
        float lods[6] = {0, 0.4f, 0.5f, 0.6f, 1.5f, 5};
        uint32_t in[24], out[24];
        for (unsigned i = 0; i < 6; i++) {
            in[4 * i] = fb(0.5f);
            in[4 * i + 1] = fb(0.5f);
            in[4 * i + 2] = fb(lods[i]);
            in[4 * i + 3] = 0;
        }
        assert_int_equal(run(g, lvl, 1, hp, in, 6, out, NULL), LS_OK);
        float wp[6] = {1, 1, 1, 2, 2, 4};
        expect_f(out, 6, 0, wp, "tex.level point mip filter", MODES[mi]);
        lods[0] = 0.25f; lods[1] = 1.5f; lods[2] = 1.0f; lods[3] = -3; lods[4] = 2;
        lods[5] = 0.1f;  /* 25.6 -> 26/256: 1 + 26/256 */
        for (unsigned i = 0; i < 6; i++)
            in[4 * i + 2] = fb(lods[i]);
        assert_int_equal(run(g, lvl, 1, hl, in, 6, out, NULL), LS_OK);
        float wl[6] = {1.25f, 3, 2, 1, 4, 1.1015625f};
        expect_f(out, 6, 0, wl, "tex.level linear mip filter", MODES[mi]);
        assert_int_equal(run(g, lvl, 1, hb, in, 1, out, NULL), LS_OK);
        float wb[1] = {2.5f};   /* 0.25 + bias 1 = 1.25: 2 * .75 + 4 * .25 */
        expect_f(out, 1, 0, wb, "tex.level with bias", MODES[mi]);
        /* grad: g (x) and g (y) of a 4-texel axis: lambda = log2(4g) */
        const char *grad = " mov.f32 %f9, 0f00000000;\n"
                           " tex.grad.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, "
                           "[%rd1, {%f1, %f2}], {%f3, %f9}, {%f9, %f3};";
        float gs[3] = {0.25f, 0.5f, 0.125f};
        for (unsigned i = 0; i < 3; i++)
            in[4 * i + 2] = fb(gs[i]);
        assert_int_equal(run(g, grad, 1, hl, in, 3, out, NULL), LS_OK);
        float wg[3] = {1, 2, 1};
        expect_f(out, 3, 0, wg, "tex.grad", MODES[mi]);
        /* txq */
        const char *q = " txq.width.b32 %r6, [%rd1];\n txq.num_mipmap_levels.b32 %r7, [%rd1];\n"
                        " txq.level.width.b32 %r8, [%rd1], 1;\n"
                        " txq.normalized_coords.b32 %r9, [%rd1];";
        assert_int_equal(run(g, q, 0, hl, in, 1, out, NULL), LS_OK);
        assert_int_equal(out[0], 4);
        assert_int_equal(out[1], 3);
        assert_int_equal(out[2], 2);
        assert_int_equal(out[3], 1);
        const char *q2 = " txq.filter_mode.b32 %r6, [%rd1];\n txq.addr_mode_0.b32 %r7, [%rd1];\n"
                         " txq.channel_order.b32 %r8, [%rd1];\n"
                         " txq.channel_data_type.b32 %r9, [%rd1];";
        assert_int_equal(run(g, q2, 0, hl, in, 1, out, NULL), LS_OK);
        assert_int_equal(out[0], 1);             /* linear */
        assert_int_equal(out[1], LS_ADDRESS_CLAMP);
        assert_int_equal(out[2], 1);             /* channels */
        assert_int_equal(out[3], LS_CHANNEL_FLOAT);
        ls_gpu_destroy(g);
    }
}

/* Surfaces: 4 x 2 u32 texels, x in bytes. Out-of-bounds loads: .trap
 * faults, .zero reads 0, .clamp reads the nearest texel; stores: .zero
 * drops, .clamp writes the nearest. sust.p converts (saturating u8,
 * f16 rounding). */
static void test_surfaces(void **state)
{
    (void)state;
    for (unsigned mi = 0; mi < 2; mi++) {
        ls_gpu *g = gpu_new(MODES[mi]);
        uint32_t T[8];
        for (unsigned i = 0; i < 8; i++)
            T[i] = 100 + i;
        ls_dptr base = upload(g, T, sizeof T);
        ls_resource_desc r = rarray(base, 32, LS_CHANNEL_UNSIGNED, 1, 4, 2, 0);
        uint64_t h;
        assert_int_equal(ls_surface_create(g, &r, &h), LS_OK);
        /* threads: (x bytes, y) = (4,1) in range, (16,0) and (-4,1) out */
        uint32_t in[12] = {4, 1, 0, 0, 16, 0, 0, 0, (uint32_t)-4, 1, 0, 0}, out[12];
        assert_int_equal(run(g, " suld.b.2d.b32.zero %r6, [%rd1, {%r2, %r3}];", 0, h, in,
                             3, out, NULL), LS_OK);
        assert_int_equal(out[0], 105);
        assert_int_equal(out[4], 0);
        assert_int_equal(out[8], 0);
        assert_int_equal(run(g, " suld.b.2d.b32.clamp %r6, [%rd1, {%r2, %r3}];", 0, h, in,
                             3, out, NULL), LS_OK);
        assert_int_equal(out[0], 105);
        assert_int_equal(out[4], 103);          /* x 16 -> 12: texel (3, 0) */
        assert_int_equal(out[8], 104);          /* x -4 -> 0: texel (0, 1) */
        assert_int_equal(run(g, " suld.b.2d.b32.trap %r6, [%rd1, {%r2, %r3}];", 0, h, in,
                             3, out, NULL), LS_ERR_MEMFAULT);
        assert_non_null(strstr(ls_gpu_error(g), "out-of-bounds surface access"));
        assert_int_equal(run(g, " suld.b.2d.v2.b32.trap {%r6, %r7}, [%rd1, {%r2, %r3}];",
                             0, h, in, 1, out, NULL), LS_ERR_MEMFAULT);
        assert_non_null(strstr(ls_gpu_error(g), "not a multiple of the 8-byte access"));
        /* stores: value 7 + thread */
        const char *stz = " add.u32 %r10, %r1, 7;\n sust.b.2d.b32.zero [%rd1, {%r2, %r3}], %r10;";
        assert_int_equal(run(g, stz, 0, h, in, 3, out, NULL), LS_OK);
        uint32_t m[8];
        assert_int_equal(ls_memcpy_dtoh(g, m, base, sizeof m), LS_OK);
        for (unsigned i = 0; i < 8; i++)
            assert_int_equal(m[i], i == 5 ? 7u : 100 + i);
        const char *stc = " add.u32 %r10, %r1, 7;\n sust.b.2d.b32.clamp [%rd1, {%r2, %r3}], %r10;";
        assert_int_equal(run(g, stc, 0, h, in, 3, out, NULL), LS_OK);
        assert_int_equal(ls_memcpy_dtoh(g, m, base, sizeof m), LS_OK);
        assert_int_equal(m[3], 8);              /* thread 1: (16,0) -> (12,0) */
        assert_int_equal(m[4], 9);              /* thread 2: (-4,1) -> (0,1) */
        /* suq */
        assert_int_equal(run(g, " suq.width.b32 %r6, [%rd1];\n suq.height.b32 %r7, [%rd1];",
                             0, h, in, 1, out, NULL), LS_OK);
        assert_int_equal(out[0], 4);
        assert_int_equal(out[1], 2);
        /* sust.p on uchar4: 300 saturates to 255; on a half surface 1.5 */
        uint8_t z4[8] = {0};
        ls_dptr b4 = upload(g, z4, sizeof z4);
        ls_resource_desc r4 = rarray(b4, 8, LS_CHANNEL_UNSIGNED, 4, 2, 0, 0);
        uint64_t h4;
        assert_int_equal(ls_surface_create(g, &r4, &h4), LS_OK);
        uint32_t in4[4] = {1, 300, 7, 255};
        assert_int_equal(run(g, " mov.u32 %r10, 0;\n"
                             " sust.p.1d.v4.b32.trap [%rd1, {%r2}], {%r3, %r4, %r5, %r10};",
                             0, h4, in4, 1, out, NULL), LS_OK);
        uint8_t got4[8];
        assert_int_equal(ls_memcpy_dtoh(g, got4, b4, 8), LS_OK);
        static const uint8_t w4[8] = {0, 0, 0, 0, 255, 7, 255, 0};
        assert_memory_equal(got4, w4, 8);
        uint16_t zh[2] = {0, 0};
        ls_dptr bh = upload(g, zh, sizeof zh);
        ls_resource_desc rh = rarray(bh, 16, LS_CHANNEL_FLOAT, 1, 2, 0, 0);
        uint64_t hh;
        assert_int_equal(ls_surface_create(g, &rh, &hh), LS_OK);
        uint32_t inh[4] = {1, fb(1.5f), 0, 0};
        assert_int_equal(run(g, " sust.p.1d.b32.trap [%rd1, {%r2}], %r3;", 0, hh, inh, 1,
                             out, NULL), LS_OK);
        assert_int_equal(ls_memcpy_dtoh(g, zh, bh, 4), LS_OK);
        assert_int_equal(zh[0], 0);
        assert_int_equal(zh[1], 0x3e00);
        /* layered 1-D surface: a1d {layer, x bytes} */
        ls_resource_desc ra = rarray(base, 32, LS_CHANNEL_UNSIGNED, 1, 4, 0, 0);
        ra.flags = LS_ARRAY_LAYERED;
        ra.layers = 2;
        uint64_t ha;
        assert_int_equal(ls_surface_create(g, &ra, &ha), LS_OK);
        uint32_t ina[4] = {1, 8, 0, 0};
        assert_int_equal(run(g, " suld.b.a1d.b32.trap %r6, [%rd1, {%r2, %r3}];", 0, ha,
                             ina, 1, out, NULL), LS_OK);
        assert_int_equal(out[0], 106);          /* layer 1 starts at texel 4 */
        ls_gpu_destroy(g);
    }
}

/* Independent mode: [tex, sampler, {x}] takes the texels of the first
 * handle and the sampler state of the second. Texels [10, 20, 30, 40],
 * a point/clamp texture sampled with a linear/border(5) sampler at x = 0:
 * texels -1 (border 5) and 0 (10) at 1/2 each: 7.5; point alone: 10. */
static void test_independent_sampler(void **state)
{
    (void)state;
    static const float T[4] = {10, 20, 30, 40};
    for (unsigned mi = 0; mi < 2; mi++) {
        ls_gpu *g = gpu_new(MODES[mi]);
        ls_dptr base = upload(g, T, sizeof T);
        ls_resource_desc r = rarray(base, 32, LS_CHANNEL_FLOAT, 1, 4, 0, 0);
        ls_texture_desc tp = tdesc(LS_ADDRESS_CLAMP, LS_FILTER_POINT, 0);
        ls_texture_desc tl = tdesc(LS_ADDRESS_BORDER, LS_FILTER_LINEAR, 0);
        tl.border_color[0] = 5.0f;
        uint64_t hp = mktex(g, &r, &tp), hl = mktex(g, &r, &tl);
        uint32_t in[8] = {fb(0.0f), 0, (uint32_t)hl, (uint32_t)(hl >> 32),
                          fb(0.0f), 0, (uint32_t)hp, (uint32_t)(hp >> 32)}, out[8];
        assert_int_equal(run(g, " mov.b64 %rd7, {%r4, %r5};\n"
                             " tex.1d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, %rd7, {%f1}];",
                             1, hp, in, 2, out, NULL), LS_OK);
        float want[2] = {7.5f, 10.0f};
        expect_f(out, 2, 0, want, "independent sampler", MODES[mi]);
        ls_gpu_destroy(g);
    }
}

/* What the model does not implement, or CUDA forbids, is refused by name. */
static void test_descriptor_errors(void **state)
{
    (void)state;
    ls_gpu *g = gpu_new(LS_MODE_FUNCTIONAL);
    uint32_t T[16] = {0};
    ls_dptr base = upload(g, T, sizeof T);
    uint64_t h;
    ls_resource_desc r = rarray(base, 32, LS_CHANNEL_UNSIGNED, 1, 4, 0, 0);
    ls_texture_desc td = tdesc(LS_ADDRESS_CLAMP, LS_FILTER_LINEAR, 0);
    struct { const char *msg; } e[] = {{"linear filtering needs float texels"},
                                       {"needs normalized coordinates"},
                                       {"sRGB"}, {"anisotropic"},
                                       {"normalized-float read mode applies"},
                                       {"3 channels"}, {"seamless"}};
    for (unsigned k = 0; k < sizeof e / sizeof e[0]; k++) {
        ls_resource_desc rr = r;
        ls_texture_desc tt = td;
        tt.filter_mode = k ? LS_FILTER_POINT : LS_FILTER_LINEAR;
        if (k == 1)
            tt.address_mode[0] = LS_ADDRESS_WRAP;
        if (k == 2)
            tt.srgb = 1;
        if (k == 3)
            tt.max_anisotropy = 4;
        if (k == 4) {
            tt.read_mode = LS_READ_NORMALIZED_FLOAT;   /* 32-bit channels */
        }
        if (k == 5)
            rr.format = (ls_channel_desc){8, 8, 8, 0, LS_CHANNEL_UNSIGNED};
        if (k == 6)
            tt.seamless_cubemap = 1;
        assert_int_equal(ls_texture_create(g, &rr, &tt, &h), LS_ERR_INVALID);
        if (!strstr(ls_gpu_error(g), e[k].msg))
            fail_msg("case %u: '%s' lacks '%s'", k, ls_gpu_error(g), e[k].msg);
    }
    /* an element-type integer texture fetched into .f32 is an error */
    td.filter_mode = LS_FILTER_POINT;
    assert_int_equal(ls_texture_create(g, &r, &td, &h), LS_OK);
    uint32_t in[4] = {0}, out[4];
    assert_int_equal(run(g, TEX1D, 1, h, in, 1, out, NULL), LS_ERR_MEMFAULT);
    assert_non_null(strstr(ls_gpu_error(g), "needs a .s32/.u32 destination"));
    /* a destroyed object is refused */
    assert_int_equal(ls_texture_destroy(g, h), LS_OK);
    assert_int_equal(run(g, " tex.1d.v4.u32.f32 {%r6, %r7, %r8, %r9}, [%rd1, {%f1}];", 0,
                         h, in, 1, out, NULL), LS_ERR_MEMFAULT);
    assert_non_null(strstr(ls_gpu_error(g), "not bound"));
    assert_int_equal(ls_texture_destroy(g, h), LS_ERR_INVALID);
    /* a surface is not a texture */
    assert_int_equal(ls_surface_create(g, &r, &h), LS_OK);
    assert_int_equal(run(g, " tex.1d.v4.u32.f32 {%r6, %r7, %r8, %r9}, [%rd1, {%f1}];", 0,
                         h, in, 1, out, NULL), LS_ERR_MEMFAULT);
    assert_non_null(strstr(ls_gpu_error(g), "surface object"));
    /* offsets and depth compare are parse errors naming the operand */
    char text[8192];
    kernel_text(text, sizeof text, " tex.1d.v4.f32.f32 {%f5, %f6, %f7, %f8}, "
                "[%rd1, {%f1}], {%r2};", 1);
    ls_module *m;
    assert_int_equal(ls_module_load_text(g, "off.ptx", text, strlen(text), &m), LS_ERR_PARSE);
    assert_non_null(strstr(ls_gpu_error(g), "offsets and depth compare are not supported"));
    ls_gpu_destroy(g);
}

/* Timing: every texel a filtered fetch reads is an access of the L1D
 * path. A 64 x 64 float texture, rows 256 bytes (two 128-byte lines):
 * lanes x = i + .5 at y = 1, point sampled, read one texel each, all in
 * the first line of row 1; linear reads rows 0 and 1 (x weights are 0,
 * y weights 1/2): one line more. */
static void test_timing_texels(void **state)
{
    (void)state;
    ls_gpu *g = gpu_new(LS_MODE_TIMING);
    static float T[64 * 64];
    ls_dptr base = upload(g, T, sizeof T);
    ls_resource_desc r = rarray(base, 32, LS_CHANNEL_FLOAT, 1, 64, 64, 0);
    ls_texture_desc td = tdesc(LS_ADDRESS_CLAMP, LS_FILTER_POINT, 0);
    uint64_t hp = mktex(g, &r, &td);
    td.filter_mode = LS_FILTER_LINEAR;
    uint64_t hl = mktex(g, &r, &td);
    uint32_t in[128], out[128];
    for (unsigned i = 0; i < 32; i++) {
        in[4 * i] = fb((float)i + 0.5f);
        in[4 * i + 1] = fb(1.0f);
        in[4 * i + 2] = in[4 * i + 3] = 0;
    }
    ls_stats sp, sl;
    assert_int_equal(run(g, TEX2D, 1, hp, in, 32, out, &sp), LS_OK);
    assert_int_equal(run(g, TEX2D, 1, hl, in, 32, out, &sl), LS_OK);
    assert_int_equal(sl.l1d.accesses, sp.l1d.accesses + 1);
    ls_gpu_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modes_1d),
        cmocka_unit_test(test_normalized_read),
        cmocka_unit_test(test_integer_fetch),
        cmocka_unit_test(test_layered),
        cmocka_unit_test(test_cube),
        cmocka_unit_test(test_tld4),
        cmocka_unit_test(test_mipmap),
        cmocka_unit_test(test_surfaces),
        cmocka_unit_test(test_independent_sampler),
        cmocka_unit_test(test_descriptor_errors),
        cmocka_unit_test(test_timing_texels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
