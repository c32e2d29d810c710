/* Tensor-core instructions, hand-checked: each case is a PTX snippet run
 * through the public API in functional AND timing mode on small matrices
 * whose products are worked out by hand (the comment by each expectation
 * says how; every value is exactly representable). One family per case:
 * wmma f16 with f32 and f16 accumulate, s8/u8 (with and without
 * .satfinite), s4, b1 .xor.popc, strides and .col layouts, and mma.sync
 * m16n8k8 / m8n8k16 with fragments built lane by lane in the layout the
 * PTX ISA defines. Then the errors: divergence, a partial warp, lanes that
 * disagree on the address, misalignment, fragment copies edited lane by
 * lane, and the forms sm_75 lacks (load-time errors). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"

#define INB 8192                /* bytes of the input buffer */
#define OUTW 1024               /* words of the output buffer */

/* Kernel k(in, out): %rd1 = in, %rd2 = out (global), %r0 = %tid.x,
 * %r1 = %laneid; scratch %p<8> %h<8> %r<64> %rd<16> %f<32>. */
static const char *const PRE =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
    " .reg .pred %p<8>;\n .reg .b16 %h<8>;\n .reg .b32 %r<64>;\n"
    " .reg .b64 %rd<16>;\n .reg .f32 %f<32>;\n"
    " ld.param.u64 %rd1, [in];\n cvta.to.global.u64 %rd1, %rd1;\n"
    " ld.param.u64 %rd2, [out];\n cvta.to.global.u64 %rd2, %rd2;\n"
    " mov.u32 %r0, %tid.x;\n mov.u32 %r1, %laneid;\n";

struct mcase {
    const char *name;
    const char *body;
    void (*fill)(uint8_t *in);            /* input bytes (NULL: zeros) */
    unsigned nwant;                       /* output words checked */
    uint32_t (*want)(unsigned i);         /* expected word i */
    unsigned nthreads;                    /* 0: 32 */
    const char *err;                      /* expected launch error text */
};

static void put16(uint8_t *p, unsigned i, uint16_t v) { memcpy(p + 2 * i, &v, 2); }
static void put32(uint8_t *p, unsigned i, uint32_t v) { memcpy(p + 4 * i, &v, 4); }
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
/* f16 bits of a small integer n (|n| < 2048): exact. */
static uint16_t hint(int n)
{
    if (n == 0) return 0;
    unsigned a = (unsigned)(n < 0 ? -n : n), e = 31u - (unsigned)__builtin_clz(a);
    uint16_t h = (uint16_t)(((e + 15) << 10) | ((a << (10 - e)) & 0x3ff));
    return (uint16_t)(n < 0 ? h | 0x8000 : h);
}

static unsigned run(const struct mcase *c, ls_mode mode)
{
    char err[256], text[16384];
    snprintf(text, sizeof text, "%s%s ret;\n}\n", PRE, c->body);
    ls_config cfg;
    ls_config_default(&cfg);
    cfg.mode = mode;
    ls_gpu *g = ls_gpu_create(&cfg, err, sizeof err);
    assert_non_null(g);
    ls_module *m;
    if (ls_module_load_text(g, c->name, text, strlen(text), &m) != LS_OK)
        fail_msg("%s: load: %s", c->name, ls_gpu_error(g));
    static uint8_t in[INB];
    static uint32_t out[OUTW];
    memset(in, 0, sizeof in);
    if (c->fill)
        c->fill(in);
    ls_dptr din, dout;
    assert_int_equal(ls_malloc(g, &din, sizeof in), LS_OK);
    assert_int_equal(ls_malloc(g, &dout, sizeof out), LS_OK);
    assert_int_equal(ls_memcpy_htod(g, din, in, sizeof in), LS_OK);
    assert_int_equal(ls_memset(g, dout, 0xab, sizeof out), LS_OK);
    void *args[] = {&din, &dout};
    unsigned nt = c->nthreads ? c->nthreads : 32, bad = 0;
    ls_status st = ls_launch(g, m, "k", (ls_dim3){1, 1, 1}, (ls_dim3){nt, 1, 1}, 0, args, NULL);
    const char *mn = mode ? "timing" : "functional";
    if (c->err) {
        if (st == LS_OK || !strstr(ls_gpu_error(g), c->err)) {
            fprintf(stderr, "%s (%s): want an error with '%s', got %d: %s\n", c->name, mn,
                    c->err, (int)st, st == LS_OK ? "" : ls_gpu_error(g));
            bad++;
        }
    } else {
        if (st != LS_OK)
            fail_msg("%s (%s): %s", c->name, mn, ls_gpu_error(g));
        assert_int_equal(ls_memcpy_dtoh(g, out, dout, sizeof out), LS_OK);
        for (unsigned i = 0; i < c->nwant; i++)
            if (out[i] != c->want(i) && bad++ < 6)
                fprintf(stderr, "%s (%s): word %u: got 0x%08x, want 0x%08x\n", c->name, mn,
                        i, out[i], c->want(i));
    }
    ls_gpu_destroy(g);
    return bad;
}

static unsigned run_both(const struct mcase *cs, size_t n)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++)
        for (int mode = 0; mode < 2; mode++)
            bad += run(&cs[i], mode ? LS_MODE_TIMING : LS_MODE_FUNCTIONAL);
    return bad;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------- wmma f16 */

/* in: A 16x16 f16 row-major at 0 (all 1), B 16x16 f16 col-major at 512
 * (B[k][n] = k - 4: b[n * 16 + k]), C 16x16 f32 row-major at 1024
 * (C[i][n] = n), C as f16 at 2048. */
static void fill_f16(uint8_t *in)
{
    for (unsigned i = 0; i < 256; i++) {
        put16(in, i, hint(1));
        put16(in + 512, i, hint((int)(i % 16) - 4));
        put32(in + 1024, i, fbits((float)(i % 16)));
        put16(in + 2048, i, hint((int)(i % 16)));
    }
}
/* D[i][n] = sum_k 1 * (k - 4) + n = (120 - 64) + n = 56 + n */
static uint32_t want_f16_f32(unsigned i) { return fbits(56.0f + (float)(i % 16)); }
/* the same in f16, two per word (row-major d) */
static uint32_t want_f16_f16(unsigned i)
{
    return hint(56 + (int)((2 * i) % 16)) | (uint32_t)hint(56 + (int)((2 * i + 1) % 16)) << 16;
}
/* f32 D stored .col with stride 24: word n * 24 + i holds D[i][n] = 56 + n;
 * the 8 words of padding per column stay 0xabababab */
static uint32_t want_f16_col(unsigned w)
{
    unsigned n = w / 24, i = w % 24;
    return i < 16 ? fbits(56.0f + (float)n) : 0xababababu;
}

#define LD_F16                                                                       \
    " wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, [%rd1];\n" \
    " add.s64 %rd3, %rd1, 512;\n"                                                      \
    " wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17}, [%rd3], 16;\n"

static void test_wmma_f16(void **state)
{
    (void)state;
    static const struct mcase cs[] = {
        {"f16.f32", LD_F16
         " add.s64 %rd4, %rd1, 1024;\n"
         " wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7}, [%rd4], 16;\n"
         " wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f8,%f9,%f10,%f11,%f12,%f13,%f14,%f15},"
         " {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17},"
         " {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7};\n"
         " wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd2], {%f8,%f9,%f10,%f11,%f12,%f13,%f14,%f15}, 16;\n",
         fill_f16, 256, want_f16_f32, 0, NULL},
        {"f16.f16 (c f16, generic address)", LD_F16
         " add.s64 %rd4, %rd1, 2048;\n cvta.global.u64 %rd4, %rd4;\n"
         " wmma.load.c.sync.aligned.row.m16n16k16.f16 {%r20,%r21,%r22,%r23}, [%rd4];\n"
         " wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16 {%r24,%r25,%r26,%r27},"
         " {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17},"
         " {%r20,%r21,%r22,%r23};\n"
         " wmma.store.d.sync.aligned.row.m16n16k16.global.f16 [%rd2], {%r24,%r25,%r26,%r27}, 16;\n",
         fill_f16, 128, want_f16_f16, 0, NULL},
        {"f16 c as f32 via .f32.f16, stored .col stride 24", LD_F16
         " add.s64 %rd4, %rd1, 2048;\n"
         " wmma.load.c.sync.aligned.row.m16n16k16.global.f16 {%r20,%r21,%r22,%r23}, [%rd4];\n"
         " wmma.mma.sync.aligned.row.col.m16n16k16.f32.f16 {%f8,%f9,%f10,%f11,%f12,%f13,%f14,%f15},"
         " {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17},"
         " {%r20,%r21,%r22,%r23};\n"
         " wmma.store.d.sync.aligned.col.m16n16k16.global.f32 [%rd2], {%f8,%f9,%f10,%f11,%f12,%f13,%f14,%f15}, 24;\n",
         fill_f16, 16 * 24, want_f16_col, 0, NULL},
    };
    assert_int_equal(run_both(cs, N(cs)), 0);
}

/* ---------------------------------------------------- wmma integer */

/* m32n8k16 s8: A 32x16 row-major at 0 stored with stride 32 (A[i][k] = 2
 * for even k, -1 for odd k; columns 16..31 hold 99, never read), B 16x8
 * col-major at 1024 (B[k][n] = n + 1), C 32x8 s32 row-major at 2048
 * (C[i][n] = i). */
static void fill_s8(uint8_t *in)
{
    for (unsigned i = 0; i < 32; i++)
        for (unsigned k = 0; k < 32; k++)
            in[i * 32 + k] = k >= 16 ? 99 : (k % 2 ? 0xff : 2);
    for (unsigned n = 0; n < 8; n++)
        for (unsigned k = 0; k < 16; k++)
            in[1024 + n * 16 + k] = (uint8_t)(n + 1);
    for (unsigned i = 0; i < 256; i++)
        put32(in + 2048, i, i / 8);
    /* u8: A 8x16 at 4096 and B 16x32 at 4608 all 200 */
    memset(in + 4096, 200, 128 + 512);
    /* saturation: C = INT32_MAX - 10 at 6144, A = B = 1 at 5632/5888 */
    for (unsigned i = 0; i < 256; i++) {
        put32(in + 6144, i, 0x7ffffff5u);
        in[5632 + i] = 1;
    }
}
/* D[i][n] = sum_k A[i][k] (n + 1) + i = (8 * 2 - 8)(n + 1) + i */
static uint32_t want_s8(unsigned w) { return 8 * (w % 8 + 1) + w / 8; }
/* u8 m8n32k16: D = 16 * 200 * 200 = 640000 */
static uint32_t want_u8(unsigned w) { (void)w; return 640000; }
/* INT32_MAX - 10 + 16: .satfinite gives INT32_MAX (first 256 words); the
 * same without .satfinite wraps to INT32_MIN + 5 (next 256) */
static uint32_t want_sat(unsigned w) { return w < 256 ? 0x7fffffffu : 0x80000005u; }

static void test_wmma_int(void **state)
{
    (void)state;
    static const struct mcase cs[] = {
        {"s8 m32n8k16 (stride 32 > 16)",
         " wmma.load.a.sync.aligned.row.m32n8k16.global.s8 {%r2,%r3,%r4,%r5}, [%rd1], 32;\n"
         " add.s64 %rd3, %rd1, 1024;\n"
         " wmma.load.b.sync.aligned.col.m32n8k16.global.s8 {%r6}, [%rd3];\n"
         " add.s64 %rd4, %rd1, 2048;\n"
         " wmma.load.c.sync.aligned.row.m32n8k16.global.s32 {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17}, [%rd4], 8;\n"
         " wmma.mma.sync.aligned.row.col.m32n8k16.s32.s8.s8.s32 {%r20,%r21,%r22,%r23,%r24,%r25,%r26,%r27},"
         " {%r2,%r3,%r4,%r5}, {%r6}, {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17};\n"
         " wmma.store.d.sync.aligned.row.m32n8k16.global.s32 [%rd2], {%r20,%r21,%r22,%r23,%r24,%r25,%r26,%r27}, 8;\n",
         fill_s8, 256, want_s8, 0, NULL},
        {"u8 m8n32k16 (shared, stride immediate)",
         " .shared .align 32 .b8 sm[640];\n"
         " mov.u32 %r30, %r0;\n"
         "LOOP:\n cvt.u64.u32 %rd5, %r30;\n add.s64 %rd6, %rd1, %rd5;\n"
         " ld.global.u8 %r31, [%rd6+4096];\n mov.u64 %rd7, sm;\n add.s64 %rd7, %rd7, %rd5;\n"
         " st.shared.u8 [%rd7], %r31;\n add.u32 %r30, %r30, 32;\n"
         " setp.lt.u32 %p1, %r30, 640;\n @%p1 bra LOOP;\n bar.warp.sync -1;\n"
         " mov.u64 %rd8, sm;\n"
         " wmma.load.a.sync.aligned.row.m8n32k16.shared.u8 {%r2}, [%rd8], 16;\n"
         " wmma.load.b.sync.aligned.row.m8n32k16.shared.u8 {%r3,%r4,%r5,%r6}, [%rd8+128], 32;\n"
         " mov.b32 %r7, 0;\n"
         " wmma.mma.sync.aligned.row.row.m8n32k16.s32.u8.u8.s32 {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17},"
         " {%r2}, {%r3,%r4,%r5,%r6}, {%r7,%r7,%r7,%r7,%r7,%r7,%r7,%r7};\n"
         " wmma.store.d.sync.aligned.col.m8n32k16.global.s32 [%rd2], {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17}, 8;\n",
         fill_s8, 256, want_u8, 0, NULL},
        {"u8 m8n32k16 A 4-byte aligned (its fragment is one register)",
         " add.s64 %rd3, %rd1, 4100;\n"
         " wmma.load.a.sync.aligned.row.m8n32k16.global.u8 {%r2}, [%rd3], 20;\n"
         " add.s64 %rd4, %rd1, 4224;\n"
         " wmma.load.b.sync.aligned.row.m8n32k16.global.u8 {%r3,%r4,%r5,%r6}, [%rd4];\n"
         " mov.b32 %r7, 0;\n"
         " wmma.mma.sync.aligned.row.row.m8n32k16.s32.u8.u8.s32 {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17},"
         " {%r2}, {%r3,%r4,%r5,%r6}, {%r7,%r7,%r7,%r7,%r7,%r7,%r7,%r7};\n"
         " wmma.store.d.sync.aligned.col.m8n32k16.global.s32 [%rd2], {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17}, 8;\n",
         fill_s8, 256, want_u8, 0, NULL},
        {"s8 .satfinite vs wrap",
         " add.s64 %rd3, %rd1, 5632;\n add.s64 %rd4, %rd1, 6144;\n add.s64 %rd5, %rd2, 1024;\n"
         " wmma.load.a.sync.aligned.row.m16n16k16.global.s8 {%r2,%r3}, [%rd3];\n"
         " wmma.load.b.sync.aligned.col.m16n16k16.global.s8 {%r4,%r5}, [%rd3];\n"
         " wmma.load.c.sync.aligned.row.m16n16k16.global.s32 {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17}, [%rd4];\n"
         " wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32.satfinite {%r20,%r21,%r22,%r23,%r24,%r25,%r26,%r27},"
         " {%r2,%r3}, {%r4,%r5}, {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17};\n"
         " wmma.store.d.sync.aligned.row.m16n16k16.global.s32 [%rd2], {%r20,%r21,%r22,%r23,%r24,%r25,%r26,%r27};\n"
         " wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32 {%r20,%r21,%r22,%r23,%r24,%r25,%r26,%r27},"
         " {%r2,%r3}, {%r4,%r5}, {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17};\n"
         " wmma.store.d.sync.aligned.row.m16n16k16.global.s32 [%rd5], {%r20,%r21,%r22,%r23,%r24,%r25,%r26,%r27};\n",
         fill_s8, 512, want_sat, 0, NULL},
    };
    assert_int_equal(run_both(cs, N(cs)), 0);
}

/* s4 m8n8k32: A 8x32 all -8 (nibbles 0x8) at 0, B (col) all 7 at 128, c
 * = 10; b1 m8n8k128: A rows all ones at 256, B column n has its first
 * 16 n bits set (LSB first) at 512. */
static void fill_sub(uint8_t *in)
{
    memset(in, 0x88, 128);
    memset(in + 128, 0x77, 128);
    memset(in + 256, 0xff, 128);
    for (unsigned n = 0; n < 8; n++)
        for (unsigned b = 0; b < 16 * n; b++)
            in[512 + n * 16 + b / 8] |= (uint8_t)(1u << (b % 8));
}
/* s4: 32 * (-8 * 7) + 10 = -1782 (words 0..63); b1: popc(ones XOR col n)
 * = 128 - 16 n (words 64..127) */
static uint32_t want_sub(unsigned w)
{
    return w < 64 ? (uint32_t)-1782 : 128u - 16u * ((w - 64) % 8);
}

static void test_wmma_subbyte(void **state)
{
    (void)state;
    static const struct mcase cs[] = {
        {"s4 and b1",
         " wmma.load.a.sync.aligned.row.m8n8k32.global.s4 {%r2}, [%rd1], 32;\n"
         " add.s64 %rd3, %rd1, 128;\n"
         " wmma.load.b.sync.aligned.col.m8n8k32.global.s4 {%r3}, [%rd3], 32;\n"
         " mov.b32 %r4, 10;\n"
         " wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.s4.s32 {%r5,%r6}, {%r2}, {%r3}, {%r4,%r4};\n"
         " wmma.store.d.sync.aligned.row.m8n8k32.global.s32 [%rd2], {%r5,%r6}, 8;\n"
         " add.s64 %rd3, %rd1, 256;\n add.s64 %rd4, %rd1, 512;\n add.s64 %rd5, %rd2, 256;\n"
         " wmma.load.a.sync.aligned.row.m8n8k128.global.b1 {%r7}, [%rd3], 128;\n"
         " wmma.load.b.sync.aligned.col.m8n8k128.global.b1 {%r8}, [%rd4], 128;\n"
         " mov.b32 %r9, 0;\n"
         " wmma.mma.xor.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r10,%r11}, {%r7}, {%r8}, {%r9,%r9};\n"
         " wmma.store.d.sync.aligned.row.m8n8k128.global.s32 [%rd5], {%r10,%r11}, 8;\n",
         fill_sub, 128, want_sub, 0, NULL},
    };
    assert_int_equal(run_both(cs, N(cs)), 0);
}

/* ------------------------------------------------------- mma.sync */

/* m16n8k8 f32: lane L (g = L >> 2, t = L & 3) puts L + 1 in a0, a1 (A[g][2t],
 * A[g][2t+1]) and 101 + L in a2, a3 (rows g + 8); b0 = 1, b1 = 0
 * (B[2t][g] = 1, B[2t+1][g] = 0); c = 0.5. So A[r][k] = 4r + k/2 + 1 and
 * D[r][n] = 0.5 + sum over even k = 0.5 + sum_t (4r + t + 1) = 16r + 10.5;
 * rows r + 8: 0.5 + sum_t (101 + 4r + t) = 16r + 410.5. Lane L stores d0..d3
 * = D[g][2t], D[g][2t+1], D[g+8][2t], D[g+8][2t+1] at out[4L..4L+3]. */
static uint32_t want_m16n8k8(unsigned w)
{
    unsigned g = (w / 4) >> 2;
    return fbits(w % 4 < 2 ? 16.0f * g + 10.5f : 16.0f * g + 410.5f);
}
/* the f16-accumulate form: c = 0.5 in f16, d0d1 and d2d3 packed */
static uint32_t want_m16n8k8h(unsigned w)
{
    unsigned g = (w / 2) >> 2;
    float v = w % 2 ? 16.0f * g + 410.5f : 16.0f * g + 10.5f;
    /* v has at most 10 significant bits after the point: exact in f16 */
    uint32_t f = fbits(v);
    unsigned e = ((f >> 23) & 255) - 127;
    uint16_t h = (uint16_t)(((e + 15) << 10) | ((f >> 13) & 0x3ff));
    return h | (uint32_t)h << 16;
}
/* m8n8k16 s8: a = bytes -(L+1) (A[g][4t+i] = -(4g+t+1)), b = bytes 1,2,3,4
 * (B[4t+i][g] = i + 1), c = -7: D[g][n] = -sum_t 10 (4g + t + 1) - 7
 * = -160g - 107 for both of lane L's words; u8 a: bytes 255 - L read
 * unsigned: sum_t 10 (255 - 4g - t) - 7 = 10133 - 160g (second 64 words). */
static uint32_t want_m8n8k16(unsigned w)
{
    unsigned g = ((w % 64) / 2) >> 2;
    return w < 64 ? (uint32_t)(-160 * (int)g - 107) : (uint32_t)(10133 - 160 * (int)g);
}

static void test_mma_sync(void **state)
{
    (void)state;
    static const struct mcase cs[] = {
        {"m16n8k8 f32",
         " add.u32 %r2, %r1, 1;\n cvt.rn.f16.u32 %h1, %r2;\n mov.b32 %r3, {%h1, %h1};\n"
         " add.u32 %r2, %r1, 101;\n cvt.rn.f16.u32 %h2, %r2;\n mov.b32 %r4, {%h2, %h2};\n"
         " mov.b32 %r5, 0x00003c00;\n mov.f32 %f0, 0f3F000000;\n"
         " mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r3,%r4}, {%r5},"
         " {%f0,%f0,%f0,%f0};\n"
         " mul.wide.u32 %rd3, %r1, 16;\n add.s64 %rd3, %rd2, %rd3;\n"
         " st.global.v4.f32 [%rd3], {%f1,%f2,%f3,%f4};\n",
         NULL, 128, want_m16n8k8, 0, NULL},
        {"m16n8k8 f16",
         " add.u32 %r2, %r1, 1;\n cvt.rn.f16.u32 %h1, %r2;\n mov.b32 %r3, {%h1, %h1};\n"
         " add.u32 %r2, %r1, 101;\n cvt.rn.f16.u32 %h2, %r2;\n mov.b32 %r4, {%h2, %h2};\n"
         " mov.b32 %r5, 0x00003c00;\n mov.b32 %r6, 0x38003800;\n"
         " mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%r7,%r8}, {%r3,%r4}, {%r5}, {%r6,%r6};\n"
         " mul.wide.u32 %rd3, %r1, 8;\n add.s64 %rd3, %rd2, %rd3;\n"
         " st.global.v2.b32 [%rd3], {%r7,%r8};\n",
         NULL, 64, want_m16n8k8h, 0, NULL},
        {"m8n8k16 s8 and u8",
         " sub.s32 %r2, -1, %r1;\n and.b32 %r2, %r2, 255;\n mul.lo.u32 %r3, %r2, 0x01010101;\n"
         " mov.b32 %r4, 0x04030201;\n mov.b32 %r5, -7;\n"
         " mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%r6,%r7}, {%r3}, {%r4}, {%r5,%r5};\n"
         " mul.wide.u32 %rd3, %r1, 8;\n add.s64 %rd3, %rd2, %rd3;\n"
         " st.global.v2.b32 [%rd3], {%r6,%r7};\n"
         " sub.u32 %r2, 255, %r1;\n mul.lo.u32 %r3, %r2, 0x01010101;\n"
         " mma.sync.aligned.m8n8k16.row.col.satfinite.s32.u8.s8.s32 {%r6,%r7}, {%r3}, {%r4}, {%r5,%r5};\n"
         " st.global.v2.b32 [%rd3+256], {%r6,%r7};\n",
         NULL, 128, want_m8n8k16, 0, NULL},
    };
    assert_int_equal(run_both(cs, N(cs)), 0);
}

/* ----------------------------------------------------------- errors */

static uint32_t want_none(unsigned w) { (void)w; return 0; }

#define MMA_F16                                                                       \
    " wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f8,%f9,%f10,%f11,%f12,%f13,%f14,%f15}," \
    " {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17},"   \
    " {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7};\n"

static void test_errors(void **state)
{
    (void)state;
    static const struct mcase cs[] = {
        {"divergent mma", " setp.lt.u32 %p1, %r0, 16;\n @%p1 bra SKIP;\n" MMA_F16 "SKIP:\n",
         NULL, 0, want_none, 0, "needs all 32 lanes; lanes 0xffff0000"},
        {"guarded load", " setp.ne.u32 %p1, %r0, 3;\n"
         " @%p1 wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, [%rd1];\n",
         NULL, 0, want_none, 0, "needs all 32 lanes; lanes 0xfffffff7"},
        {"partial warp", MMA_F16, NULL, 0, want_none, 20, "needs all 32 lanes"},
        {"lanes disagree on the address",
         " mul.wide.u32 %rd3, %r0, 32;\n add.s64 %rd3, %rd1, %rd3;\n"
         " wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, [%rd3];\n",
         NULL, 0, want_none, 0, "lanes disagree on the matrix address"},
        {"misaligned matrix",
         " wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, [%rd1+16];\n",
         NULL, 0, want_none, 0, "not aligned to the fragment's size, 32 bytes"},
        {"misaligned u8 B (fragment of 16 bytes)",
         " wmma.load.b.sync.aligned.row.m8n32k16.global.u8 {%r3,%r4,%r5,%r6}, [%rd1+8], 32;\n",
         NULL, 0, want_none, 0, "not aligned to the fragment's size, 16 bytes"},
        {"stride not the fragment's 32 bytes",
         " wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, [%rd1], 24;\n",
         NULL, 0, want_none, 0, "not a multiple of 32 bytes"},
        {"stride not the packed row's 16 bytes (m32n8k16 .row B)",
         " wmma.load.b.sync.aligned.row.m32n8k16.global.f16 {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, [%rd1], 12;\n",
         NULL, 0, want_none, 0, "not a multiple of 16 bytes"},
        {"out of bounds",
         " wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, [%rd1], 512;\n",
         NULL, 0, want_none, 0, "out-of-bounds"},
        {"copies edited lane by lane",
         " wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, [%rd1];\n"
         " wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17}, [%rd1];\n"
         " setp.eq.u32 %p1, %r0, 17;\n @%p1 add.u32 %r2, %r2, 1;\n" MMA_F16,
         NULL, 0, want_none, 0, "copies of a element"},
    };
    assert_int_equal(run_both(cs, N(cs)), 0);
}

/* Forms sm_75 lacks or the model refuses are load-time errors naming the
 * construct, with the source position. */
static void test_load_errors(void **state)
{
    (void)state;
    static const struct { const char *inst, *want; } cs[] = {
        {"wmma.mma.and.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r1,%r2}, {%r3}, {%r4}, {%r5,%r6};",
         "not supported for wmma"},
        {"wmma.mma.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r1,%r2}, {%r3}, {%r4}, {%r5,%r6};",
         ".xor.popc"},
        {"mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, {%r1,%r2}, {%r3,%r4}, {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};",
         "not supported for mma"},
        {"mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r3}, {%f1,%f2,%f3,%f4};",
         "not supported for mma"},
        {"wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};",
         "no .satfinite on floating-point"},
        {"wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1,%r2,%r3,%r4}, [%rd1];",
         "expected 8 registers in the fragment, found 4"},
        {"wmma.load.a.sync.aligned.col.m8n8k32.global.s4 {%r1}, [%rd1];",
         ".row for a and .col for b"},
        {"wmma.load.a.sync.row.m16n16k16.global.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1];",
         ".sync.aligned"},
        {"mma.sync.aligned.m16n8k8.col.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r3}, {%f1,%f2,%f3,%f4};",
         ".row.col"},
        {"wmma.store.d.sync.aligned.row.m16n16k16.local.f32 [%rd1], {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};",
         "not supported for wmma"},
        {"wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%rd1}, [%rd1];",
         "32-bit register"},
    };
    unsigned bad = 0;
    for (size_t i = 0; i < N(cs); i++) {
        char err[256], text[4096];
        snprintf(text, sizeof text,
                 ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n"
                 " .reg .b32 %%r<16>;\n .reg .f32 %%f<16>;\n .reg .b64 %%rd<4>;\n %s\n ret;\n}\n",
                 cs[i].inst);
        ls_config cfg;
        ls_config_default(&cfg);
        ls_gpu *g = ls_gpu_create(&cfg, err, sizeof err);
        assert_non_null(g);
        ls_module *m;
        ls_status st = ls_module_load_text(g, "bad.ptx", text, strlen(text), &m);
        const char *e = st == LS_OK ? "" : ls_gpu_error(g);
        if (st == LS_OK || !strstr(e, cs[i].want) || !strstr(e, "bad.ptx:9:")) {
            fprintf(stderr, "case %zu: want a load error with '%s' at bad.ptx:9, got: %s\n",
                    i, cs[i].want, e);
            bad++;
        }
        ls_gpu_destroy(g);
    }
    assert_int_equal(bad, 0);
}

/* racecheck and initcheck see the elements wmma.load/wmma.store touch:
 * a fragment loaded from never-written global memory is an
 * uninitialized load at the wmma.load; memory wmma.store wrote is
 * initialised for a later ld (no finding); a warp's wmma.store to shared
 * memory that another warp reads without a barrier is a read-after-write
 * race with the store as its write. Both modes. */
static void test_checks_see_wmma(void **state)
{
    (void)state;
    static const char *const body =
        " setp.eq.u32 %p2, %r10, 1;\n @%p2 bra UNINIT;\n"
        " mov.f32 %f0, 0f3F800000;\n"
        " setp.ge.u32 %p1, %r0, 32;\n @%p1 bra READER;\n"
        " mov.u64 %rd5, sm;\n"
        " wmma.store.d.sync.aligned.row.m16n16k16.shared.f32 [%rd5], {%f0,%f0,%f0,%f0,%f0,%f0,%f0,%f0};\n"
        " wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd2], {%f0,%f0,%f0,%f0,%f0,%f0,%f0,%f0};\n"
        " mul.wide.u32 %rd6, %r0, 4;\n add.s64 %rd6, %rd2, %rd6;\n ld.global.f32 %f1, [%rd6];\n"
        " bra DONE;\n"
        "READER:\n mov.u64 %rd5, sm;\n mul.wide.u32 %rd6, %r1, 4;\n add.s64 %rd5, %rd5, %rd6;\n"
        " ld.shared.f32 %f1, [%rd5];\n bra DONE;\n"
        "UNINIT:\n"
        " wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, [%rd1];\n"
        "DONE:\n";
    for (int mode = 0; mode < 2; mode++)
        for (int which = 0; which < 2; which++) {
            char err[256], text[8192];
            snprintf(text, sizeof text,
                     ".version 9.0\n.target sm_75\n.address_size 64\n"
                     ".visible .entry k(.param .u64 in, .param .u64 out, .param .u32 which)\n{\n"
                     " .reg .pred %%p<8>;\n .reg .b32 %%r<16>;\n .reg .b64 %%rd<16>;\n"
                     " .reg .f32 %%f<4>;\n .shared .align 32 .b8 sm[1024];\n"
                     " ld.param.u64 %%rd1, [in];\n cvta.to.global.u64 %%rd1, %%rd1;\n"
                     " ld.param.u64 %%rd2, [out];\n cvta.to.global.u64 %%rd2, %%rd2;\n"
                     " ld.param.u32 %%r10, [which];\n"
                     " mov.u32 %%r0, %%tid.x;\n mov.u32 %%r1, %%laneid;\n%s ret;\n}\n", body);
            ls_config cfg;
            ls_config_default(&cfg);
            cfg.mode = mode ? LS_MODE_TIMING : LS_MODE_FUNCTIONAL;
            const char *sets[2] = {"check=racecheck,initcheck", NULL};
            cfg.sets = sets;
            ls_gpu *g = ls_gpu_create(&cfg, err, sizeof err);
            assert_non_null(g);
            ls_module *m;
            if (ls_module_load_text(g, "chk.ptx", text, strlen(text), &m) != LS_OK)
                fail_msg("load: %s", ls_gpu_error(g));
            ls_dptr din, dout;
            assert_int_equal(ls_malloc(g, &din, 4096), LS_OK);    /* never written */
            assert_int_equal(ls_malloc(g, &dout, 4096), LS_OK);   /* never written */
            unsigned w = (unsigned)which;
            void *args[] = {&din, &dout, &w};
            if (ls_launch(g, m, "k", (ls_dim3){1, 1, 1}, (ls_dim3){which ? 32 : 64, 1, 1},
                          0, args, NULL) != LS_OK)
                fail_msg("checks (%d): %s", mode, ls_gpu_error(g));
            const ls_check_finding *l;
            size_t n = ls_check_findings(g, &l);
            unsigned race = 0, uninit = 0;
            for (size_t i = 0; i < n; i++) {
                race += !strcmp(l[i].kind, "read-after-write") && !strcmp(l[i].space, "shared") &&
                        l[i].a.write == 1;
                uninit += !strcmp(l[i].check, "initcheck") && !strcmp(l[i].space, "global");
            }
            if (which == 0) {      /* race, and no initcheck finding at the ld */
                assert_int_equal(race, 1);
                assert_int_equal(uninit, 0);
            } else {               /* the fragment load reads unwritten memory */
                assert_int_equal(race, 0);
                assert_int_equal(uninit, 1);
            }
            ls_gpu_destroy(g);
        }
}

/* The checker can fail: a wrong expectation is reported. */
static uint32_t want_wrong(unsigned w) { return want_f16_f32(w) + (w == 37); }

static void test_checker_fails(void **state)
{
    (void)state;
    struct mcase c = {"deliberately wrong", LD_F16
         " add.s64 %rd4, %rd1, 1024;\n"
         " wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7}, [%rd4];\n"
         MMA_F16
         " wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd2], {%f8,%f9,%f10,%f11,%f12,%f13,%f14,%f15};\n",
         fill_f16, 256, want_wrong, 0, NULL};
    assert_int_equal(run(&c, LS_MODE_FUNCTIONAL), 1);
    struct mcase e = {"error expected but none", LD_F16, fill_f16, 0, want_none, 0, "needs all 32"};
    assert_int_equal(run(&e, LS_MODE_FUNCTIONAL), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wmma_f16),
        cmocka_unit_test(test_wmma_int),
        cmocka_unit_test(test_wmma_subbyte),
        cmocka_unit_test(test_mma_sync),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_checks_see_wmma),
        cmocka_unit_test(test_checker_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
