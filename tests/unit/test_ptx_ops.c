/* The sm_75 PTX operations added for real CUDA code (bfind, bmsk, fns,
 * prmt modes, lop3, shf, dp4a/dp2a, .f16/.f16x2 arithmetic, compares and
 * conversions, the video instructions, match, activemask, nanosleep,
 * bar.red, WARP_SZ and the special registers): each case is a PTX
 * snippet run through the public API in functional AND timing mode, and
 * every word it stores is compared with a value worked out by hand from
 * the PTX ISA (the comment next to each value says how). A deliberately
 * wrong expectation proves the checker can fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"

#define NOUT 32                 /* words stored per thread */

/* out[tid * NOUT + k] is stored with `st.global.u32 [%rd1+4k], %rX;`.
 * %r0 = %tid.x; scratch: %p<16> %h<16> (b16) %r<80> %rd<16> %f<8>. */
static const char *const PRE =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".global .align 4 .f16 gh[2] = {0f3F800000, 0x4000};\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .pred %p<16>;\n .reg .b16 %h<16>;\n .reg .b32 %r<80>;\n"
    " .reg .b64 %rd<16>;\n .reg .f32 %f<8>;\n"
    " .shared .align 4 .b8 sbuf[300];\n"
    " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd1, %rd1;\n"
    " mov.u32 %r0, %tid.x;\n mul.wide.u32 %rd2, %r0, 128;\n"
    " add.s64 %rd1, %rd1, %rd2;\n";

struct ocase {
    const char *name;
    const char *body;
    unsigned nthreads;          /* 0: 32 */
    unsigned nwant;             /* words checked per thread */
    uint32_t want[NOUT];        /* same for every thread ... */
    uint32_t (*want_fn)(unsigned tid, unsigned k);  /* ... or per thread */
};

/* Runs c in one mode; returns the number of words that differ from the
 * expectation (each printed), or fails the test when it does not run. */
static unsigned run_case(const struct ocase *c, ls_mode mode)
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
    unsigned nt = c->nthreads ? c->nthreads : 32;
    size_t bytes = (size_t)nt * NOUT * 4;
    ls_dptr out;
    assert_int_equal(ls_malloc(g, &out, bytes), LS_OK);
    assert_int_equal(ls_memset(g, out, 0xab, bytes), LS_OK);
    void *args[] = {&out};
    if (ls_launch(g, m, "k", (ls_dim3){1, 1, 1}, (ls_dim3){nt, 1, 1}, 100, args,
                  NULL) != LS_OK)
        fail_msg("%s (%s): %s", c->name, mode ? "timing" : "functional",
                 ls_gpu_error(g));
    uint32_t *h = malloc(bytes);
    assert_non_null(h);
    assert_int_equal(ls_memcpy_dtoh(g, h, out, bytes), LS_OK);
    unsigned bad = 0;
    for (unsigned t = 0; t < nt; t++)
        for (unsigned k = 0; k < c->nwant; k++) {
            uint32_t want = c->want_fn ? c->want_fn(t, k) : c->want[k];
            uint32_t got = h[t * NOUT + k];
            if (got != want && bad++ < 8)
                fprintf(stderr, "%s (%s): thread %u word %u: got 0x%08x, want 0x%08x\n",
                        c->name, mode ? "timing" : "functional", t, k, got, want);
        }
    free(h);
    ls_gpu_destroy(g);
    return bad;
}

static void run_both(const struct ocase *cs, size_t n)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++)
        for (int mode = 0; mode < 2; mode++)
            bad += run_case(&cs[i], mode ? LS_MODE_TIMING : LS_MODE_FUNCTIONAL);
    assert_int_equal(bad, 0);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------ bit ops */

static void test_bfind_bmsk_fns(void **state)
{
    (void)state;
    static const struct ocase cs[] = {
        {"bfind", " bfind.u32 %r1, 0;\n st.global.u32 [%rd1+0], %r1;\n"
                  " bfind.u32 %r1, 0x00010000;\n st.global.u32 [%rd1+4], %r1;\n"
                  " bfind.shiftamt.u32 %r1, 0x00010000;\n st.global.u32 [%rd1+8], %r1;\n"
                  " bfind.s32 %r1, -1;\n st.global.u32 [%rd1+12], %r1;\n"
                  " bfind.s32 %r1, -16;\n st.global.u32 [%rd1+16], %r1;\n"
                  " bfind.shiftamt.s32 %r1, -16;\n st.global.u32 [%rd1+20], %r1;\n"
                  " bfind.s32 %r1, 0x40000000;\n st.global.u32 [%rd1+24], %r1;\n"
                  " bfind.u64 %r1, 0x8000000000000000;\n st.global.u32 [%rd1+28], %r1;\n"
                  " bfind.shiftamt.u64 %r1, 1;\n st.global.u32 [%rd1+32], %r1;\n"
                  " bfind.s64 %r1, 0;\n st.global.u32 [%rd1+36], %r1;\n"
                  " bfind.shiftamt.u32 %r1, 0;\n st.global.u32 [%rd1+40], %r1;\n"
                  " bfind.shiftamt.s32 %r1, 0;\n st.global.u32 [%rd1+44], %r1;\n"
                  " bfind.s32 %r1, 5;\n st.global.u32 [%rd1+48], %r1;\n",
         0, 13,
         {0xffffffffu,  /* no bit set */
          16, 15,       /* 2^16: position 16, shift 31 - 16 */
          0xffffffffu,  /* -1: no bit differs from the sign */
          3, 28,        /* -16 = ...11110000: top non-sign bit is bit 3 */
          30, 63, 63,   /* 2^30; u64 msb; shiftamt of 1 in 64 bits */
          0xffffffffu, 0xffffffffu, 0xffffffffu, /* 0, with .shiftamt too */
          2}, NULL},    /* 5 = 101b */
        {"bmsk", " bmsk.wrap.b32 %r1, 1, 2;\n st.global.u32 [%rd1+0], %r1;\n"
                 " bmsk.clamp.b32 %r1, 0, 32;\n st.global.u32 [%rd1+4], %r1;\n"
                 " bmsk.wrap.b32 %r1, 0, 32;\n st.global.u32 [%rd1+8], %r1;\n"
                 " bmsk.clamp.b32 %r1, 32, 4;\n st.global.u32 [%rd1+12], %r1;\n"
                 " bmsk.wrap.b32 %r1, 33, 4;\n st.global.u32 [%rd1+16], %r1;\n"
                 " bmsk.clamp.b32 %r1, 28, 8;\n st.global.u32 [%rd1+20], %r1;\n"
                 " bmsk.wrap.b32 %r1, 28, 8;\n st.global.u32 [%rd1+24], %r1;\n"
                 " bmsk.clamp.b32 %r1, 4, 0;\n st.global.u32 [%rd1+28], %r1;\n",
         0, 8,
         {0x6,          /* ISA example: 2 bits from bit 1 */
          0xffffffffu,  /* clamp: width 32 runs to the msb */
          0,            /* wrap: width 32 mod 32 = 0 */
          0,            /* clamp: position >= 32 */
          0x1e,         /* wrap: position 33 -> 1, 4 bits */
          0xf0000000u, 0xf0000000u, /* field cut at bit 31 either way */
          0}, NULL},    /* width 0 */
        {"fns", " fns.b32 %r1, 0xaaaaaaaa, 3, 1;\n st.global.u32 [%rd1+0], %r1;\n"
                " fns.b32 %r1, 0xaaaaaaaa, 3, -1;\n st.global.u32 [%rd1+4], %r1;\n"
                " fns.b32 %r1, 0xaaaaaaaa, 2, 1;\n st.global.u32 [%rd1+8], %r1;\n"
                " fns.b32 %r1, 0xaaaaaaaa, 2, -1;\n st.global.u32 [%rd1+12], %r1;\n"
                " fns.b32 %r1, 0xaaaaaaaa, 0, 0;\n st.global.u32 [%rd1+16], %r1;\n"
                " fns.b32 %r1, 0xaaaaaaaa, 1, 0;\n st.global.u32 [%rd1+20], %r1;\n"
                " fns.b32 %r1, 0x80000001, 0, 2;\n st.global.u32 [%rd1+24], %r1;\n"
                " fns.b32 %r1, 0x80000001, 0, 3;\n st.global.u32 [%rd1+28], %r1;\n"
                " fns.b32 %r1, 0x80000001, 31, -2;\n st.global.u32 [%rd1+32], %r1;\n",
         0, 9,
         {3, 3, 3, 1,   /* the four ISA examples */
          0xffffffffu, 1, /* offset 0 tests bit base itself */
          31, 0xffffffffu, 0}, NULL}, /* 2nd set bit up; no 3rd; 2nd down */
    };
    run_both(cs, N(cs));
}

static void test_prmt_modes(void **state)
{
    (void)state;
    /* {b, a} bytes 0..7 = 00 11 22 33 44 55 66 77 */
#define PR(mode, c, off) \
    " prmt.b32" mode " %r1, %r2, %r3, " c ";\n st.global.u32 [%rd1+" off "], %r1;\n"
    static const struct ocase cs[] = {
        {"prmt", " mov.b32 %r2, 0x33221100;\n mov.b32 %r3, 0x77665544;\n"
                 PR("", "0x5140", "0") PR("", "0x3210", "4")
                 PR(".f4e", "0", "8") PR(".f4e", "1", "12") PR(".f4e", "2", "16")
                 PR(".f4e", "3", "20") PR(".f4e", "4", "24")
                 PR(".b4e", "0", "28") PR(".b4e", "1", "32") PR(".b4e", "2", "36")
                 PR(".b4e", "3", "40")
                 PR(".rc8", "1", "44") PR(".rc8", "2", "48")
                 PR(".ecl", "0", "52") PR(".ecl", "1", "56") PR(".ecl", "2", "60")
                 PR(".ecr", "1", "64") PR(".ecr", "2", "68") PR(".ecr", "3", "72")
                 PR(".rc16", "0", "76") PR(".rc16", "1", "80")
                 " prmt.b32 %r1, 0x00008000, 0, 0x9991;\n st.global.u32 [%rd1+84], %r1;\n",
         0, 22,
         {0x55114400u,  /* selectors 0,4,1,5 from the low byte up */
          0x33221100u,  /* identity */
          0x33221100u, 0x44332211u, 0x55443322u, 0x66554433u, /* f4e 3210..6543 */
          0x33221100u,  /* f4e uses c[1:0] only */
          0x55667700u, 0x66770011u, 0x77001122u, 0x00112233u, /* b4e 5670..0123 */
          0x11111111u, 0x22222222u,                         /* rc8 */
          0x33221100u, 0x33221111u, 0x33222222u,            /* ecl 3210 3211 3222 */
          0x11111100u, 0x22221100u, 0x33221100u,            /* ecr 1110 2210 3210 */
          0x11001100u, 0x33223322u,                         /* rc16 1010 3232 */
          0xffffff80u}, NULL},  /* sel 1 copies 0x80; sel 9 replicates its sign */
    };
#undef PR
    run_both(cs, N(cs));
}

static void test_lop3_shf_dp(void **state)
{
    (void)state;
    static const struct ocase cs[] = {
        {"lop3", " lop3.b32 %r1, 0xF0F0F0F0, 0xCCCCCCCC, 0xAAAAAAAA, 0x96;\n st.global.u32 [%rd1+0], %r1;\n"
                 " lop3.b32 %r1, 0xF0F0F0F0, 0xCCCCCCCC, 0xAAAAAAAA, 0xE8;\n st.global.u32 [%rd1+4], %r1;\n"
                 " lop3.b32 %r1, 0x12345678, 0xffffffff, 0x0000ffff, 0x80;\n st.global.u32 [%rd1+8], %r1;\n",
         0, 3, {0x96969696u,    /* a ^ b ^ c on the canonical inputs = the table */
                0xE8E8E8E8u,    /* majority */
                0x00005678u}, NULL},   /* a & b & c */
        {"shf", " mov.b32 %r2, 0x11223344;\n mov.b32 %r3, 0x55667788;\n"
                " shf.l.wrap.b32 %r1, %r2, %r3, 8;\n st.global.u32 [%rd1+0], %r1;\n"
                " shf.r.wrap.b32 %r1, %r2, %r3, 8;\n st.global.u32 [%rd1+4], %r1;\n"
                " shf.l.clamp.b32 %r1, %r2, %r3, 40;\n st.global.u32 [%rd1+8], %r1;\n"
                " shf.l.wrap.b32 %r1, %r2, %r3, 40;\n st.global.u32 [%rd1+12], %r1;\n"
                " shf.r.clamp.b32 %r1, %r2, %r3, 40;\n st.global.u32 [%rd1+16], %r1;\n",
         0, 5, {0x66778811u,    /* top 32 bits of {b,a} << 8 */
                0x88112233u,    /* low 32 bits of {b,a} >> 8 */
                0x11223344u,    /* clamp 40 -> 32: a */
                0x66778811u,    /* wrap 40 -> 8 */
                0x55667788u}, NULL},   /* clamp: b */
        {"dp4a", " mov.b32 %r2, 0xFF01FF02;\n mov.b32 %r3, 0x80FF0102;\n"
                 " dp4a.u32.u32 %r1, %r2, %r3, 0;\n st.global.u32 [%rd1+0], %r1;\n"
                 " dp4a.s32.s32 %r1, %r2, %r3, 0;\n st.global.u32 [%rd1+4], %r1;\n"
                 " dp4a.u32.s32 %r1, %r2, %r3, 0;\n st.global.u32 [%rd1+8], %r1;\n"
                 " dp4a.s32.u32 %r1, %r2, %r3, 7;\n st.global.u32 [%rd1+12], %r1;\n"
                 " dp4a.u32.u32 %r1, 0xffffffff, 0xffffffff, 0xffffffff;\n st.global.u32 [%rd1+16], %r1;\n",
         /* a bytes 02 FF 01 FF, b bytes 02 01 FF 80 (low first) */
         0, 5, {33154,          /* 2*2 + 255*1 + 1*255 + 255*128 */
                130,            /* 2*2 - 1*1 + 1*(-1) + (-1)(-128) */
                0xffff8182u,    /* 2*2 + 255*1 + 1*(-1) + 255*(-128) = -32382 */
                137,            /* 2*2 - 1*1 + 1*255 - 1*128 + 7 */
                0x0003f803u}, NULL},   /* 4*255*255 - 1, mod 2^32 */
        {"dp2a", " mov.b32 %r2, 0xFFFE0003;\n mov.b32 %r3, 0x04030201;\n"
                 " dp2a.lo.u32.u32 %r1, %r2, %r3, 100;\n st.global.u32 [%rd1+0], %r1;\n"
                 " dp2a.hi.s32.s32 %r1, %r2, %r3, 100;\n st.global.u32 [%rd1+4], %r1;\n"
                 " dp2a.lo.s32.u32 %r1, %r2, %r3, 100;\n st.global.u32 [%rd1+8], %r1;\n",
         0, 3, {131171,         /* 3*1 + 65534*2 + 100 */
                101,            /* 3*3 + (-2)*4 + 100 */
                99}, NULL},     /* 3*1 + (-2)*2 + 100 */
        {"brev-bfe-bfi", " brev.b32 %r1, 1;\n st.global.u32 [%rd1+0], %r1;\n"
                 " bfe.s32 %r1, 0x00000F00, 8, 4;\n st.global.u32 [%rd1+4], %r1;\n"
                 " bfe.u32 %r1, 0x00000F00, 8, 4;\n st.global.u32 [%rd1+8], %r1;\n"
                 " bfi.b32 %r1, 0xA, 0xFFFFFFFF, 4, 4;\n st.global.u32 [%rd1+12], %r1;\n"
                 " brev.b64 %rd3, 1;\n mov.b64 {%r4, %r5}, %rd3;\n st.global.u32 [%rd1+16], %r5;\n",
         0, 5, {0x80000000u, 0xffffffffu, 0xf, 0xffffffafu, 0x80000000u}, NULL},
    };
    run_both(cs, N(cs));
}

/* ------------------------------------------------------------ f16 */

static void test_f16x2(void **state)
{
    (void)state;
    static const struct ocase cs[] = {
        {"f16x2-arith",
         " add.rn.f16x2 %r1, 0x3C004000, 0x3C003C00;\n st.global.u32 [%rd1+0], %r1;\n"
         " add.f16x2 %r1, 0x7E003C00, 0x3C003C00;\n st.global.u32 [%rd1+4], %r1;\n"
         " mul.f16x2 %r1, 0x7BFF3800, 0x40004000;\n st.global.u32 [%rd1+8], %r1;\n"
         " fma.rn.f16x2 %r1, 0x00010003, 0x38003800, 0;\n st.global.u32 [%rd1+12], %r1;\n"
         " add.ftz.f16x2 %r1, 0x3C000001, 0;\n st.global.u32 [%rd1+16], %r1;\n"
         " add.f16x2 %r1, 0x3C000001, 0;\n st.global.u32 [%rd1+20], %r1;\n"
         " neg.f16x2 %r1, 0x3C00BC00;\n st.global.u32 [%rd1+24], %r1;\n"
         " abs.f16x2 %r1, 0xBC00BC00;\n st.global.u32 [%rd1+28], %r1;\n"
         " min.f16x2 %r1, 0x7E003C00, 0x40004000;\n st.global.u32 [%rd1+32], %r1;\n"
         " min.NaN.f16x2 %r1, 0x7E003C00, 0x40004000;\n st.global.u32 [%rd1+36], %r1;\n"
         " max.f16x2 %r1, 0x80000000, 0x00008000;\n st.global.u32 [%rd1+40], %r1;\n"
         " min.f16x2 %r1, 0x80000000, 0x00008000;\n st.global.u32 [%rd1+44], %r1;\n"
         " add.sat.f16x2 %r1, 0x4000BC00, 0;\n st.global.u32 [%rd1+48], %r1;\n"
         " sub.f16x2 %r1, 0x3C004200, 0x3C003C00;\n st.global.u32 [%rd1+52], %r1;\n",
         0, 14,
         {0x40004200u,  /* hi 1+1 = 2, lo 2+1 = 3 */
          0x7fff4000u,  /* NaN half -> canonical NaN; the other half unaffected */
          0x7c003c00u,  /* hi 65504*2 overflows to inf; lo 0.5*2 = 1 */
          0x00000002u,  /* 2^-24*0.5 ties to even 0; 3*2^-25 ties to even 2*2^-24 */
          0x3c000000u,  /* .ftz flushes the subnormal half only */
          0x3c000001u,  /* without .ftz the subnormal survives */
          0xbc003c00u, 0x3c003c00u,   /* neg, abs: sign bits per half */
          0x40003c00u,  /* min with a NaN half: the other operand */
          0x7fff3c00u,  /* .NaN: NaN half gives the canonical NaN */
          0x00000000u, 0x80008000u,   /* max/min of -0 and +0 per half */
          0x3c000000u,  /* .sat: 2 -> 1, -1 -> 0 */
          0x00004000u}, NULL},        /* hi 1-1 = 0, lo 3-1 = 2 */
        {"f16x2-cmp",
         " setp.lt.f16x2 %p1|%p2, 0x3C004000, 0x40003C00;\n"
         " selp.u32 %r1, 1, 0, %p1;\n st.global.u32 [%rd1+0], %r1;\n"
         " selp.u32 %r1, 1, 0, %p2;\n st.global.u32 [%rd1+4], %r1;\n"
         " set.gt.f16x2.f16x2 %r1, 0x3C004000, 0x40003C00;\n st.global.u32 [%rd1+8], %r1;\n"
         " set.gt.u32.f16x2 %r1, 0x3C004000, 0x40003C00;\n st.global.u32 [%rd1+12], %r1;\n"
         " setp.equ.f16x2 %p1|%p2, 0x7E003C00, 0x3C003C00;\n"
         " selp.u32 %r1, 1, 0, %p1;\n st.global.u32 [%rd1+16], %r1;\n"
         " selp.u32 %r1, 1, 0, %p2;\n st.global.u32 [%rd1+20], %r1;\n"
         " setp.eq.f16x2 %p1|%p2, 0x7E003C00, 0x3C003C00;\n"
         " selp.u32 %r1, 1, 0, %p1;\n st.global.u32 [%rd1+24], %r1;\n"
         " selp.u32 %r1, 1, 0, %p2;\n st.global.u32 [%rd1+28], %r1;\n"
         " setp.gt.ftz.f16 %p1, 0x0001, 0;\n selp.u32 %r1, 1, 0, %p1;\n st.global.u32 [%rd1+32], %r1;\n"
         " setp.gt.f16 %p1, 0x0001, 0;\n selp.u32 %r1, 1, 0, %p1;\n st.global.u32 [%rd1+36], %r1;\n"
         " set.lt.f16.f16 %h1, 0x3C00, 0x4000;\n cvt.u32.u16 %r1, %h1;\n st.global.u32 [%rd1+40], %r1;\n",
         0, 11,
         {0, 1,         /* p = low halves 2 < 1, q = high halves 1 < 2 */
          0x00003c00u,  /* set .f16x2: 1.0 per true half */
          0x0000ffffu,  /* set .u32: 0xffff per true half */
          1, 1,         /* equ: 1 == 1; NaN unordered -> true */
          1, 0,         /* eq: NaN -> false */
          0, 1,         /* .ftz flushes 2^-24 to 0 before comparing */
          0x3c00}, NULL},  /* set with an .f16 destination: 1.0 */
        {"f16-cvt-rounding",
         " cvt.rn.f16.f32 %h1, 0f3F801008;\n cvt.u32.u16 %r1, %h1;\n st.global.u32 [%rd1+0], %r1;\n"
         " cvt.rz.f16.f32 %h1, 0f3F801008;\n cvt.u32.u16 %r1, %h1;\n st.global.u32 [%rd1+4], %r1;\n"
         " cvt.rm.f16.f32 %h1, 0f3F801008;\n cvt.u32.u16 %r1, %h1;\n st.global.u32 [%rd1+8], %r1;\n"
         " cvt.rp.f16.f32 %h1, 0f3F801008;\n cvt.u32.u16 %r1, %h1;\n st.global.u32 [%rd1+12], %r1;\n"
         " cvt.rn.f16.f32 %h1, 0fBF801008;\n cvt.u32.u16 %r1, %h1;\n st.global.u32 [%rd1+16], %r1;\n"
         " cvt.rz.f16.f32 %h1, 0fBF801008;\n cvt.u32.u16 %r1, %h1;\n st.global.u32 [%rd1+20], %r1;\n"
         " cvt.rm.f16.f32 %h1, 0fBF801008;\n cvt.u32.u16 %r1, %h1;\n st.global.u32 [%rd1+24], %r1;\n"
         " cvt.rp.f16.f32 %h1, 0fBF801008;\n cvt.u32.u16 %r1, %h1;\n st.global.u32 [%rd1+28], %r1;\n"
         " cvt.rn.f16.f32 %h1, 0f3F801000;\n cvt.u32.u16 %r1, %h1;\n st.global.u32 [%rd1+32], %r1;\n"
         " cvt.rn.f16.f32 %h1, 0f3F803000;\n cvt.u32.u16 %r1, %h1;\n st.global.u32 [%rd1+36], %r1;\n"
         " cvt.rn.f16x2.f32 %r1, 0f3F800000, 0f40000000;\n st.global.u32 [%rd1+40], %r1;\n"
         " cvt.rn.f16.f32 %h1, 0f33000000;\n cvt.u32.u16 %r1, %h1;\n st.global.u32 [%rd1+44], %r1;\n"
         " cvt.rn.f16.f32 %h1, 0f7FC00000;\n cvt.u32.u16 %r1, %h1;\n st.global.u32 [%rd1+48], %r1;\n",
         0, 13,
         /* x = 1 + 2^-11 + 2^-20: above the midpoint of 1 and 1 + 2^-10 */
         {0x3c01, 0x3c00, 0x3c00, 0x3c01,    /* +x: rn up, rz/rm down, rp up */
          0xbc01, 0xbc00, 0xbc01, 0xbc00,    /* -x: rn, rz toward 0, rm away, rp toward 0 */
          0x3c00, 0x3c02,                    /* exact midpoints tie to even */
          0x3c004000u,                       /* d = {f16(a) high, f16(b) low} */
          0x0000,                            /* 2^-25: tie between 0 and 2^-24 -> 0 */
          0x7fff}, NULL},                    /* NaN -> canonical f16 NaN */
        {"f16-sfu-imm-init",
         " ex2.approx.f16x2 %r1, 0x3C00BC00;\n st.global.u32 [%rd1+0], %r1;\n"
         " tanh.approx.f16 %h1, 0x3C00;\n cvt.u32.u16 %r1, %h1;\n st.global.u32 [%rd1+4], %r1;\n"
         " mov.b16 %h2, 0x4000;\n add.f16 %h1, %h2, 0f3F800000;\n"
         " cvt.u32.u16 %r1, %h1;\n st.global.u32 [%rd1+8], %r1;\n"
         " mul.f16 %h1, %h2, 0.5;\n cvt.u32.u16 %r1, %h1;\n st.global.u32 [%rd1+12], %r1;\n"
         " ld.global.u32 %r1, [gh];\n st.global.u32 [%rd1+16], %r1;\n"
         " ex2.approx.f16 %h1, 0x7E00;\n cvt.u32.u16 %r1, %h1;\n st.global.u32 [%rd1+20], %r1;\n",
         0, 6,
         {0x40003800u,  /* 2^1 = 2 high, 2^-1 = 0.5 low */
          0x3a18,       /* tanh(1) = 0.76159: 1559.74 * 2^-11 -> 1560 */
          0x4200,       /* 2 + f32 literal 1.0 converted to f16 */
          0x3c00,       /* 2 * decimal literal 0.5 */
          0x40003c00u,  /* initialiser {f32 1.0 -> 0x3C00, raw 0x4000} */
          0x7fff}, NULL},  /* NaN in, canonical NaN out */
    };
    run_both(cs, N(cs));
}

/* ------------------------------------------------------------ video */

static void test_video(void **state)
{
    (void)state;
    static const struct ocase cs[] = {
        {"video-simd",
         " mov.b32 %r2, 0x10FF0080;\n mov.b32 %r3, 0x20010280;\n"
         " vabsdiff4.u32.u32.u32 %r1, %r2, %r3, 0;\n st.global.u32 [%rd1+0], %r1;\n"
         " vabsdiff4.u32.u32.u32.add %r1, %r2, %r3, 5;\n st.global.u32 [%rd1+4], %r1;\n"
         " vset4.u32.u32.gt %r1, %r2, %r3, 0;\n st.global.u32 [%rd1+8], %r1;\n"
         " mov.b32 %r4, 0x7F80FF01;\n mov.b32 %r5, 0x01FF0101;\n"
         " vadd4.s32.s32.s32.sat %r1, %r4, %r5, 0;\n st.global.u32 [%rd1+12], %r1;\n"
         " vadd4.s32.s32.s32 %r1, %r4, %r5, 0;\n st.global.u32 [%rd1+16], %r1;\n"
         " vmin4.s32.s32.s32 %r1, %r4, %r5, 0;\n st.global.u32 [%rd1+20], %r1;\n"
         " vmax4.u32.u32.u32 %r1, %r4, %r5, 0;\n st.global.u32 [%rd1+24], %r1;\n"
         " vadd4.u32.u32.u32.sat %r1, 0xFF0180FE, 0x01010180, 0;\n st.global.u32 [%rd1+28], %r1;\n"
         " vsub2.s32.s32.s32.sat %r1, 0x80000005, 0x0001000A, 0;\n st.global.u32 [%rd1+32], %r1;\n"
         " vavrg2.u32.u32.u32 %r1, 0x00030001, 0x00040002, 0;\n st.global.u32 [%rd1+36], %r1;\n"
         " vavrg2.s32.s32.s32 %r1, 0xFFFD0001, 0x00000002, 0;\n st.global.u32 [%rd1+40], %r1;\n"
         " vset2.s32.s32.lt.add %r1, 0xFFFF0001, 0x00000002, 10;\n st.global.u32 [%rd1+44], %r1;\n"
         " mov.b32 %r6, 0x01010101;\n mov.b32 %r7, 0x02020202;\n"
         " vadd4.u32.u32.u32 %r1.b20, %r6, %r7, 0xAABBCCDD;\n st.global.u32 [%rd1+48], %r1;\n"
         " mov.b32 %r8, 0x00020001;\n mov.b32 %r9, 0x00200010;\n"
         " vadd2.u32.u32.u32 %r1, %r8.h01, %r9, 0;\n st.global.u32 [%rd1+52], %r1;\n"
         " vadd2.u32.u32.u32 %r1, %r8, %r9.h10, 0;\n st.global.u32 [%rd1+56], %r1;\n"
         " vmax2.u32.u32.u32 %r1.h1, %r8, %r9, 0x12345678;\n st.global.u32 [%rd1+60], %r1;\n",
         0, 16,
         {0x10fe0200u,  /* |80-80| |00-02| |FF-01| |10-20| per byte */
          277,          /* 5 + 0 + 2 + 254 + 16 */
          0x00010000u,  /* only byte 2 (FF > 01) */
          0x7f800002u,  /* 1+1, -1+1, -128-1 -> -128, 127+1 -> 127 */
          0x807f0002u,  /* the same without .sat wraps per byte */
          0x0180ff01u,  /* signed byte minima */
          0x7fffff01u,  /* unsigned byte maxima */
          0xff0281ffu,  /* FE+80 -> FF, 80+01, 01+01, FF+01 -> FF */
          0x8000fffbu,  /* 5-10 = -5; -32768-1 saturates */
          0x00040002u,  /* (1+2+1)>>1, (3+4+1)>>1 */
          0xfffe0002u,  /* -3+0 < 0: (-3)>>1 = -2 (rounds toward -inf) */
          12,           /* 10 + (1 < 2) + (-1 < 0) */
          0xaa03cc03u,  /* mask .b20: lanes 2 and 0 computed, 3 and 1 from c */
          0x00210012u,  /* a.h01 swaps a's halves: 1+0x20, 2+0x10 */
          0x00040002u,  /* b.h10 selects a's halves from {b,a}: a + a */
          0x00205678u}, NULL},  /* mask .h1: max(2, 0x20) high, c low */
        {"video-scalar",
         " mov.b32 %r2, 0x000000FF;\n mov.b32 %r3, 0x0000FF00;\n"
         " vadd.s32.u32.s32.sat %r1, %r2.b0, %r3.h0;\n st.global.u32 [%rd1+0], %r1;\n"
         " vsub.u32.u32.u32.sat %r1, 1, 2;\n st.global.u32 [%rd1+4], %r1;\n"
         " vsub.u32.u32.u32 %r1, 1, 2;\n st.global.u32 [%rd1+8], %r1;\n"
         " vadd.s32.s32.s32.sat %r1, 0x7FFFFFFF, 1;\n st.global.u32 [%rd1+12], %r1;\n"
         " vadd.s32.s32.s32 %r1, 0x7FFFFFFF, 1;\n st.global.u32 [%rd1+16], %r1;\n"
         " vabsdiff.u32.s32.s32 %r1, -5, 7;\n st.global.u32 [%rd1+20], %r1;\n"
         " vmin.s32.s32.s32.max %r1, -3, 4, -10;\n st.global.u32 [%rd1+24], %r1;\n"
         " vmin.s32.s32.s32.max %r1, -3, 4, 5;\n st.global.u32 [%rd1+28], %r1;\n"
         " vadd.u32.u32.u32.add %r1, 3, 4, 10;\n st.global.u32 [%rd1+32], %r1;\n"
         " vadd.u32.u32.u32 %r1.h1, 0x1234, 1, 0xAAAABBBB;\n st.global.u32 [%rd1+36], %r1;\n"
         " vadd.u32.u32.u32.sat %r1.b2, 0xFF, 2, 0x11223344;\n st.global.u32 [%rd1+40], %r1;\n"
         " vshl.u32.u32.u32.clamp %r1, 1, 40;\n st.global.u32 [%rd1+44], %r1;\n"
         " vshl.u32.u32.u32.wrap %r1, 1, 40;\n st.global.u32 [%rd1+48], %r1;\n"
         " vshl.u32.u32.u32.clamp.sat %r1, 1, 40;\n st.global.u32 [%rd1+52], %r1;\n"
         " vshr.s32.s32.u32.wrap %r1, 0x80000000, 4;\n st.global.u32 [%rd1+56], %r1;\n"
         " vshr.u32.u32.u32.wrap %r1, 0x80000000, 4;\n st.global.u32 [%rd1+60], %r1;\n"
         " vset.s32.u32.lt %r1, 0xFFFFFFFF, 0;\n st.global.u32 [%rd1+64], %r1;\n"
         " vset.u32.u32.lt %r1, 0xFFFFFFFF, 0;\n st.global.u32 [%rd1+68], %r1;\n",
         0, 18,
         {0xffffffffu,  /* 255 (u32 byte) + (-256) (s32 half) = -1 */
          0,            /* 1 - 2 saturated to u32 */
          0xffffffffu,  /* without .sat: wraps */
          0x7fffffffu, 0x80000000u, /* s32 overflow with / without .sat */
          12,           /* |-5 - 7| */
          0xfffffffdu, 5,           /* max(min(-3,4), c) for c = -10, 5 */
          17,           /* 3 + 4, then + 10 */
          0x1235bbbbu,  /* merge into half 1 of c */
          0x11ff3344u,  /* 0x101 saturated to a byte, merged into byte 2 */
          0,            /* clamp: 1 << 32, low 32 bits */
          256,          /* wrap: 40 mod 32 = 8 */
          0xffffffffu,  /* clamp + .sat: 2^32 saturates */
          0xf8000000u, 0x08000000u, /* arithmetic / logical shift right */
          1, 0}, NULL}, /* -1 < 0 signed; 0xffffffff < 0 unsigned */
        {"vmad",
         " mov.b32 %r2, 3;\n mov.b32 %r3, 4;\n mov.b32 %r4, 5;\n"
         " vmad.u32.u32.u32 %r1, %r2, %r3, %r4;\n st.global.u32 [%rd1+0], %r1;\n"
         " vmad.s32.u32.u32 %r1, -%r2, %r3, %r4;\n st.global.u32 [%rd1+4], %r1;\n"
         " vmad.s32.u32.u32 %r1, %r2, %r3, -%r4;\n st.global.u32 [%rd1+8], %r1;\n"
         " vmad.u32.u32.u32.po %r1, %r2, %r3, %r4;\n st.global.u32 [%rd1+12], %r1;\n"
         " mov.b32 %r5, 0x100;\n mov.b32 %r6, 0;\n"
         " vmad.u32.u32.u32.shr7 %r1, %r5, %r5, %r6;\n st.global.u32 [%rd1+16], %r1;\n"
         " mov.b32 %r7, 0x7FFFFFFF;\n mov.b32 %r8, 2;\n"
         " vmad.s32.s32.s32.sat %r1, %r7, %r8, %r6;\n st.global.u32 [%rd1+20], %r1;\n"
         " mov.b32 %r9, 0x00050000;\n mov.b32 %r10, 0x07000000;\n"
         " vmad.u32.u32.u32 %r1, %r9.h1, %r10.b3, %r6;\n st.global.u32 [%rd1+24], %r1;\n"
         " vmad.s32.u32.u32 %r1, -%r2, -%r3, %r4;\n st.global.u32 [%rd1+28], %r1;\n",
         0, 8,
         {17,           /* 3*4 + 5 */
          0xfffffff9u,  /* -(3*4) + 5 = -7 */
          7,            /* 3*4 - 5 */
          18,           /* .po: 3*4 + 5 + 1 */
          512,          /* 0x100 * 0x100 >> 7 */
          0x7fffffffu,  /* 2^32 - 2 saturated to s32 */
          35,           /* half 1 (5) * byte 3 (7) */
          17}, NULL},   /* -a * -b: the two negations cancel */
    };
    run_both(cs, N(cs));
}

/* ------------------------------------------------------------ warp/CTA */

static uint32_t want_warp(unsigned tid, unsigned k)
{
    unsigned lane = tid % 32;
    switch (k) {
    case 0: return 0x11111111u << (lane & 3);         /* match.any on tid & 3 */
    case 1: return 0xffffffffu;                       /* match.all, all equal */
    case 2: return 1;                                 /*   ... p */
    case 3: return 0;                                 /* match.all, differ */
    case 4: return 0;                                 /*   ... p */
    case 5: return 0x55555555u << (lane & 1);         /* match.any.b64 */
    case 6: return tid < 8 ? 0xffu : 0;               /* activemask in a branch */
    case 7: return 22;                                /* bar.red.popc tid % 3 == 0 of 64 */
    case 8: return 1;                                 /* bar.red.and: all tid < 64 */
    case 9: return 0;                                 /* bar.red.and: tid != 40 fails once */
    case 10: return 1;                                /* bar.red.or: tid == 40 */
    case 11: return 32;                               /* barrier.red.popc with count 64: lanes < 32 */
    case 12: return 32;                               /* WARP_SZ */
    case 13: return tid + 32;                         /* WARP_SZ as an add operand */
    case 14: return tid / 32;                         /* %warpid */
    default: return 0;
    }
}

static void test_warp_cta(void **state)
{
    (void)state;
    static const struct ocase cs[] = {
        {"warp-cta",
         " and.b32 %r1, %r0, 3;\n"
         " match.any.sync.b32 %r2, %r1, 0xffffffff;\n st.global.u32 [%rd1+0], %r2;\n"
         " match.all.sync.b32 %r2|%p1, 7, 0xffffffff;\n st.global.u32 [%rd1+4], %r2;\n"
         " selp.u32 %r3, 1, 0, %p1;\n st.global.u32 [%rd1+8], %r3;\n"
         " match.all.sync.b32 %r2|%p1, %r0, 0xffffffff;\n st.global.u32 [%rd1+12], %r2;\n"
         " selp.u32 %r3, 1, 0, %p1;\n st.global.u32 [%rd1+16], %r3;\n"
         " and.b32 %r4, %r0, 1;\n cvt.u64.u32 %rd3, %r4;\n shl.b64 %rd3, %rd3, 40;\n"
         " match.any.sync.b64 %r2, %rd3, 0xffffffff;\n st.global.u32 [%rd1+20], %r2;\n"
         " mov.u32 %r5, 0;\n setp.lt.u32 %p2, %r0, 8;\n @!%p2 bra SKIP;\n"
         " activemask.b32 %r5;\nSKIP:\n st.global.u32 [%rd1+24], %r5;\n"
         " rem.u32 %r6, %r0, 3;\n setp.eq.u32 %p3, %r6, 0;\n"
         " bar.red.popc.u32 %r7, 0, %p3;\n st.global.u32 [%rd1+28], %r7;\n"
         " setp.lt.u32 %p4, %r0, 64;\n bar.red.and.pred %p5, 1, %p4;\n"
         " selp.u32 %r8, 1, 0, %p5;\n st.global.u32 [%rd1+32], %r8;\n"
         " setp.ne.u32 %p6, %r0, 40;\n barrier.red.and.pred %p5, 2, %p6;\n"
         " selp.u32 %r8, 1, 0, %p5;\n st.global.u32 [%rd1+36], %r8;\n"
         " bar.red.or.pred %p5, 3, !%p6;\n"
         " selp.u32 %r8, 1, 0, %p5;\n st.global.u32 [%rd1+40], %r8;\n"
         " setp.lt.u32 %p7, %r0, 32;\n barrier.red.popc.aligned.u32 %r9, 4, 64, %p7;\n"
         " st.global.u32 [%rd1+44], %r9;\n"
         " mov.u32 %r10, WARP_SZ;\n st.global.u32 [%rd1+48], %r10;\n"
         " add.u32 %r10, %r0, WARP_SZ;\n st.global.u32 [%rd1+52], %r10;\n"
         " mov.u32 %r11, %warpid;\n st.global.u32 [%rd1+56], %r11;\n",
         64, 15, {0}, want_warp},
    };
    run_both(cs, N(cs));
}

static uint32_t want_sreg(unsigned tid, unsigned k)
{
    switch (k) {
    case 0: return 100;          /* %dynamic_smem_size = the launch's 100 bytes */
    case 1: return 512;          /* %total_smem_size: 300 static, dynamic at 304,
                                  * 404 bytes rounded up to the 256-byte unit */
    case 2: return 0;            /* %envreg3 */
    case 3: return (1u << (tid % 32)) - 1;   /* %lanemask_lt */
    case 4: return 1;            /* %clock64 advanced over the instructions */
    case 5: return 1;            /* %globaltimer did not go backwards */
    case 6: return 1;            /* %clock low word = %clock64 low word (same source) */
    case 7: return 7;            /* the instruction after nanosleep ran */
    default: return 0;
    }
}

static void test_special_registers(void **state)
{
    (void)state;
    static const struct ocase cs[] = {
        {"sregs",
         " mov.u32 %r1, %dynamic_smem_size;\n st.global.u32 [%rd1+0], %r1;\n"
         " mov.u32 %r1, %total_smem_size;\n st.global.u32 [%rd1+4], %r1;\n"
         " mov.u32 %r1, %envreg3;\n st.global.u32 [%rd1+8], %r1;\n"
         " mov.u32 %r1, %lanemask_lt;\n st.global.u32 [%rd1+12], %r1;\n"
         " mov.u64 %rd3, %clock64;\n mov.u64 %rd5, %globaltimer;\n"
         " add.u32 %r2, %r0, 1;\n add.u32 %r2, %r2, 1;\n add.u32 %r2, %r2, 1;\n"
         " ld.global.u32 %r3, [gh];\n add.u32 %r2, %r2, %r3;\n"
         " mov.u64 %rd4, %clock64;\n mov.u64 %rd6, %globaltimer;\n"
         " setp.gt.u64 %p1, %rd4, %rd3;\n selp.u32 %r1, 1, 0, %p1;\n st.global.u32 [%rd1+16], %r1;\n"
         " setp.ge.u64 %p1, %rd6, %rd5;\n selp.u32 %r1, 1, 0, %p1;\n st.global.u32 [%rd1+20], %r1;\n"
         " mov.u32 %r4, %clock;\n mov.u64 %rd7, %clock64;\n cvt.u32.u64 %r5, %rd7;\n"
         " sub.u32 %r6, %r5, %r4;\n setp.le.u32 %p1, %r6, 64;\n selp.u32 %r1, 1, 0, %p1;\n"
         " st.global.u32 [%rd1+24], %r1;\n"
         " nanosleep.u32 100;\n mov.u32 %r1, 7;\n nanosleep.u32 %r1;\n st.global.u32 [%rd1+28], %r1;\n",
         0, 8, {0}, want_sreg},
    };
    run_both(cs, N(cs));
}

/* %clock/%globaltimer are deterministic: the same launch twice in the same
 * mode reads the same values (never the host clock). */
static void test_clock_deterministic(void **state)
{
    (void)state;
    static const char *body =
        " mov.u64 %rd3, %clock64;\n mov.u64 %rd4, %globaltimer;\n"
        " mov.b64 {%r1, %r2}, %rd3;\n mov.b64 {%r3, %r4}, %rd4;\n"
        " st.global.u32 [%rd1+0], %r1;\n st.global.u32 [%rd1+4], %r3;\n";
    char err[256], text[4096];
    snprintf(text, sizeof text, "%s%s ret;\n}\n", PRE, body);
    for (int mode = 0; mode < 2; mode++) {
        uint32_t h[2][32 * NOUT];
        for (int rep = 0; rep < 2; rep++) {
            ls_config cfg;
            ls_config_default(&cfg);
            cfg.mode = mode ? LS_MODE_TIMING : LS_MODE_FUNCTIONAL;
            ls_gpu *g = ls_gpu_create(&cfg, err, sizeof err);
            assert_non_null(g);
            ls_module *m;
            assert_int_equal(ls_module_load_text(g, "clk", text, strlen(text), &m), LS_OK);
            ls_dptr out;
            assert_int_equal(ls_malloc(g, &out, sizeof h[0]), LS_OK);
            void *args[] = {&out};
            assert_int_equal(ls_launch(g, m, "k", (ls_dim3){1, 1, 1}, (ls_dim3){32, 1, 1},
                                       0, args, NULL), LS_OK);
            assert_int_equal(ls_memcpy_dtoh(g, h[rep], out, sizeof h[0]), LS_OK);
            ls_gpu_destroy(g);
        }
        assert_memory_equal(h[0], h[1], sizeof h[0]);
        assert_true(h[0][0] > 0);          /* some instructions / cycles ran */
    }
}

/* The checker fails on a wrong value: a deliberately wrong expectation
 * (bfind of 0 claimed to be 0) must be reported in both modes. */
static void test_checker_can_fail(void **state)
{
    (void)state;
    static const struct ocase wrong = {
        "wrong", " bfind.u32 %r1, 0;\n st.global.u32 [%rd1+0], %r1;\n", 0, 1, {0}, NULL};
    assert_int_equal(run_case(&wrong, LS_MODE_FUNCTIONAL), 32);
    assert_int_equal(run_case(&wrong, LS_MODE_TIMING), 32);
}

/* What is not modelled, or malformed, is an error naming the place. */
static void test_rejected_forms(void **state)
{
    (void)state;
    static const struct { const char *body, *msg; } bad[] = {
        {" bmsk.b32 %r1, 1, 2;\n", "expected a mode (.clamp or .wrap)"},
        {" prmt.b32.clamp %r1, 1, 2, 3;\n", "prmt mode"},
        {" shf.wrap.b32 %r1, 1, 2, 3;\n", "direction"},
        {" match.any.b32 %r1, 1, 0xffffffff;\n", ".sync"},
        {" match.any.sync.b32 %r1|%p1, 1, 0xffffffff;\n", "only match.all"},
        {" bar.red.popc.pred %p1, 0, %p2;\n", ".u32 for .red.popc"},
        {" bar.red.u32 %r1, 0, %p2;\n", "reduction"},
        {" vadd4.u32.u32.u32.min %r1, 1, 2, 3;\n", ".add"},
        {" vadd.u32.u32.u32 %r1, 1, 2, 3;\n", "secondary operation"},
        {" vadd2.u32.u32.u32 %r1, %r2.b3210, 2, 3;\n", "invalid selector"},
        {" add.u32 %r1, %r2.b0, 1;\n", "only valid for video"},
        {" add.u32 %r1, -%r2, 1;\n", "only valid for vmad"},
        {" add.f16x2 %r1, %r2, 0f3F800000;\n", ".f16x2 immediate"},
        {" dp2a.u32.u32 %r1, 1, 2, 3;\n", ".lo or .hi"},
    };
    char err[256], text[4096];
    ls_config cfg;
    ls_config_default(&cfg);
    ls_gpu *g = ls_gpu_create(&cfg, err, sizeof err);
    assert_non_null(g);
    for (size_t i = 0; i < N(bad); i++) {
        snprintf(text, sizeof text, "%s%s ret;\n}\n", PRE, bad[i].body);
        ls_module *m;
        assert_int_not_equal(ls_module_load_text(g, "bad.ptx", text, strlen(text), &m), LS_OK);
        const char *e = ls_gpu_error(g);
        if (!strstr(e, bad[i].msg) || !strstr(e, "bad.ptx:"))
            fail_msg("case %zu: \"%s\" lacks \"%s\"", i, e, bad[i].msg);
    }
    /* run-time: fns base above 31 is undefined in PTX, so an error here */
    snprintf(text, sizeof text, "%s fns.b32 %%r1, 1, 32, 1;\n ret;\n}\n", PRE);
    ls_module *m;
    assert_int_equal(ls_module_load_text(g, "fns.ptx", text, strlen(text), &m), LS_OK);
    ls_dptr out;
    assert_int_equal(ls_malloc(g, &out, 32 * NOUT * 4), LS_OK);
    void *args[] = {&out};
    assert_int_not_equal(ls_launch(g, m, "k", (ls_dim3){1, 1, 1}, (ls_dim3){32, 1, 1},
                                   0, args, NULL), LS_OK);
    assert_non_null(strstr(ls_gpu_error(g), "fns: base above 31"));
    ls_gpu_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bfind_bmsk_fns),
        cmocka_unit_test(test_prmt_modes),
        cmocka_unit_test(test_lop3_shf_dp),
        cmocka_unit_test(test_f16x2),
        cmocka_unit_test(test_video),
        cmocka_unit_test(test_warp_cta),
        cmocka_unit_test(test_special_registers),
        cmocka_unit_test(test_clock_deterministic),
        cmocka_unit_test(test_checker_can_fail),
        cmocka_unit_test(test_rejected_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
