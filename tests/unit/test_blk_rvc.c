/* cmocka tests of the RVC C models (csim/blocks/rvc_comp.c, rvc_decomp.c,
 * rvc_stats.c): the G-Scalar sec. 3.1 example (C04039C0..C04039F8 -> enc
 * 1110), the Fig 6 and Fig 7 divergent examples, the leading-one broadcast,
 * half-register mode, the thermometer rule, a seeded round trip through a
 * byte-sliced register-file model, and the BDI comparison. Masks in the
 * figures are written MSB (highest lane) first, as in Fig 7(a). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "blocks/rvc_comp.h"
#include "blocks/rvc_decomp.h"
#include "blocks/rvc_stats.h"

static void comp(unsigned W, const uint32_t *val, uint32_t mask, int half,
                 struct rvc_comp_out *o)
{
    struct rvc_comp_state s;
    struct rvc_comp_cfg c = { .W = W };
    struct rvc_comp_in in;
    assert_int_equal(rvc_comp_init(&s, &c), 0);
    rvc_comp_reset(&s);
    memset(&in, 0, sizeof in);
    in.valid_i[0] = 1;
    memcpy(in.data_i, val, W * sizeof *val);
    in.mask_i[0] = mask;
    in.half_i[0] = (uint32_t)half;
    rvc_comp_step(&s, &in, o);
    assert_int_equal(o->valid_o[0], 1);
}

/* Decompressor input from a compressor output and the stored arrays. */
static struct rvc_decomp_in dec_in(const struct rvc_comp_out *o,
                                   const uint32_t *arr, unsigned W,
                                   uint32_t mprime)
{
    struct rvc_decomp_in in;
    memset(&in, 0, sizeof in);
    in.valid_i[0] = 1;
    in.d_i[0] = o->d_o[0];
    in.half_i[0] = o->half_o[0];
    in.enc_i[0] = o->enc_o[0];
    in.encl_i[0] = o->encl_o[0];
    in.ench_i[0] = o->ench_o[0];
    in.fs_i[0] = o->fs_o[0];
    in.bvr_i[0] = o->bvr_o[0];
    in.bvrh_i[0] = o->bvrh_o[0];
    memcpy(in.arr_i, arr, W * sizeof *arr);
    in.mask_i[0] = mprime;
    return in;
}

static enum rvc_class decomp(unsigned W, const struct rvc_decomp_in *in,
                             struct rvc_decomp_out *o)
{
    struct rvc_decomp_state s;
    struct rvc_decomp_cfg c = { .W = W };
    assert_int_equal(rvc_decomp_init(&s, &c), 0);
    rvc_decomp_step(&s, in, o);
    assert_int_equal(o->valid_o[0], 1);
    return (enum rvc_class)o->cls_o[0];
}

/* G-Scalar sec. 3.1 / Fig 2: eight lanes C04039C0, C04039C8, ..., F8. */
static void test_sec31_example(void **st)
{
    (void)st;
    uint32_t v[8], arr[8];
    struct rvc_comp_out o;
    struct rvc_decomp_out d;
    for (unsigned l = 0; l < 8; l++)
        v[l] = 0xC04039C0u + 8u * l;
    comp(8, v, 0xff, 0, &o);
    assert_int_equal(o.enc_o[0], 0xE);          /* 1110                 */
    assert_int_equal(o.d_o[0], 0);
    /* base bytes C0 40 39 = bytes 3..1 of op[0] */
    assert_int_equal(o.bvr_o[0] >> 8, 0xC04039);
    /* only array 0 (byte 0 of every lane) is written: one byte per lane */
    assert_int_equal(o.we_o[0], 0x11);
    assert_int_equal(rvc_gs_bytes(8, v, 0xff, 0), 8 * 1 + 3);
    /* decompression from array 0 plus the base; other arrays hold junk */
    for (unsigned l = 0; l < 8; l++)
        arr[l] = 0xdeadbe00u | (v[l] & 0xffu);
    struct rvc_decomp_in di = dec_in(&o, arr, 8, 0xff);
    assert_int_equal(decomp(8, &di, &d), RVC_CLS_NONE);
    assert_int_equal(d.re_o[0], 0x11);
    for (unsigned l = 0; l < 8; l++)
        assert_int_equal(d.data_o[l], v[l]);
    /* W = 32 register holding the same eight values four times */
    uint32_t w32[32];
    for (unsigned l = 0; l < 32; l++)
        w32[l] = v[l % 8];
    comp(32, w32, 0xffffffffu, 0, &o);
    assert_int_equal(o.enc_o[0], 0xE);
    assert_int_equal(o.bvr_o[0], 0xC04039C0u);
}

/* Thermometer: a lower byte equal under an unequal higher byte does not
 * count; every prefix length gives its code. */
static void test_thermometer(void **st)
{
    (void)st;
    uint32_t v[4] = { 0x01AABBCC, 0x02AABBCC, 0x01AABBCC, 0x01AABBCC };
    assert_int_equal(rvc_enc_lanes(v, 0xf, 0, 4), 0x0);
    const uint32_t diff[5] = { 0x01000000, 0x00010000, 0x00000100,
                               0x00000001, 0 };
    const unsigned code[5] = { 0x0, 0x8, 0xC, 0xE, 0xF };
    for (unsigned i = 0; i < 5; i++) {
        uint32_t w[4] = { 0x11223344, 0x11223344, 0x11223344 ^ diff[i],
                          0x11223344 };
        assert_int_equal(rvc_enc_lanes(w, 0xf, 0, 4), code[i]);
        assert_int_equal(rvc_enc_bytes(code[i]), i == 4 ? 4 : i);
    }
    /* any other code is no thermometer: no equal byte */
    for (unsigned c = 0; c < 16; c++)
        if (c != 0x8 && c != 0xc && c != 0xe && c != 0xf)
            assert_int_equal(rvc_enc_bytes(c), 0);
}

/* Fig 6: AAABAABC (highest lane first) with M = 10101100 (A-A-AA--) is a
 * divergent scalar for the same mask, not for another. */
static void test_fig6_divergent_scalar(void **st)
{
    (void)st;
    const uint32_t A = 0x12345678, B = 0x12345679, C = 0x22345678;
    /* lane 7 .. lane 0 = A A A B A A B C */
    uint32_t v[8] = { C, B, A, A, B, A, A, A };
    uint32_t M = 0xAC;               /* 10101100: lanes 7, 5, 3, 2      */
    struct rvc_comp_out o;
    struct rvc_decomp_out d;

    comp(8, v, 0xff, 0, &o);         /* non-divergent: not scalar        */
    assert_int_equal(o.enc_o[0], 0x0);
    assert_int_equal(o.d_o[0], 0);

    comp(8, v, M, 0, &o);            /* divergent write under M          */
    assert_int_equal(o.d_o[0], 1);
    assert_int_equal(o.enc_o[0], 0xF);
    assert_int_equal(o.bvr_o[0], M); /* BVR stores the mask              */
    assert_int_equal(o.we_o[0], 0xff);
    struct rvc_decomp_in di = dec_in(&o, v, 8, M);
    assert_int_equal(decomp(8, &di, &d), RVC_CLS_DIV_SCALAR);
    for (unsigned l = 0; l < 8; l++)
        assert_int_equal(d.data_o[l], v[l]);
    di.mask_i[0] = 0xAD;             /* one more lane (lane 0 = C)       */
    assert_int_equal(decomp(8, &di, &d), RVC_CLS_NONE);
}

/* Fig 7(b): r2 = r2 * 2 under M = 10001111 stores a divergent scalar; the
 * other path (M' = 01110000) reads -2, 0, 1 and must not go scalar. */
static void test_fig7b_mask_check(void **st)
{
    (void)st;
    uint32_t r2[8] = { 8, 8, 8, 8, 1, 0, (uint32_t)-2, 8 };
    const uint32_t M = 0x8F, Mp = 0x70;
    struct rvc_comp_out o;
    struct rvc_decomp_out d;
    comp(8, r2, M, 0, &o);
    assert_int_equal(o.enc_o[0], 0xF);
    assert_int_equal(o.d_o[0], 1);
    assert_int_equal(o.bvr_o[0], M);
    struct rvc_decomp_in di = dec_in(&o, r2, 8, Mp);
    assert_int_equal(decomp(8, &di, &d), RVC_CLS_NONE);
    di.mask_i[0] = M;
    assert_int_equal(decomp(8, &di, &d), RVC_CLS_DIV_SCALAR);
    /* the values under M' really differ */
    assert_int_equal(rvc_enc_lanes(r2, Mp, 0, 8), 0x0);
}

/* Fig 7(a): M = 0100000011111010 -> leading one lane 14; inactive lanes
 * take lane 14's value, so junk there cannot break the compare. */
static void test_fig7a_leading_one(void **st)
{
    (void)st;
    uint32_t v[16];
    const uint32_t M = 0x40FA;
    for (unsigned l = 0; l < 16; l++)
        v[l] = (M >> l & 1u) ? 0xCAFE0042u : 0x1000u * l + 7u;
    struct rvc_comp_out o;
    comp(16, v, M, 0, &o);
    assert_int_equal(o.enc_o[0], 0xF);
    assert_int_equal(o.d_o[0], 1);
    v[14] = 0xCAFE0043u;             /* the leading one itself differs  */
    comp(16, v, M, 0, &o);
    assert_int_equal(o.enc_o[0], 0xE);
    /* no active lane at all: vacuously scalar, D = 1, BVR = 0 */
    comp(16, v, 0, 0, &o);
    assert_int_equal(o.enc_o[0], 0xF);
    assert_int_equal(o.bvr_o[0], 0);
}

/* Half mode (sec. 4.3, Fig 7(c)): encL/encH, two bases, FS. */
static void test_half_mode(void **st)
{
    (void)st;
    uint32_t v[32], arr[32];
    struct rvc_comp_out o;
    struct rvc_decomp_out d;
    for (unsigned l = 0; l < 16; l++) {
        v[l] = 0x11111111u;
        v[16 + l] = 0xABCD0000u | (l * 0x0101u);
    }
    comp(32, v, 0xffffffffu, 1, &o);
    assert_int_equal(o.encl_o[0], 0xF);
    assert_int_equal(o.ench_o[0], 0xC);
    assert_int_equal(o.enc_o[0], 0x0);
    assert_int_equal(o.fs_o[0], 0);
    assert_int_equal(o.we_o[0], 0x30);   /* high half arrays 0, 1 only  */
    assert_int_equal(o.bvr_o[0], 0x11111111u);
    assert_int_equal(o.bvrh_o[0], 0xABCD0000u);
    for (unsigned l = 0; l < 32; l++)
        arr[l] = (l < 16) ? 0x5a5a5a5au : (0x5a5a0000u | (v[l] & 0xffffu));
    struct rvc_decomp_in di = dec_in(&o, arr, 32, 0xffffffffu);
    assert_int_equal(decomp(32, &di, &d), RVC_CLS_HALF_SCALAR);
    assert_int_equal(d.hsc_o[0], 0x1);
    for (unsigned l = 0; l < 32; l++)
        assert_int_equal(d.data_o[l], v[l]);
    /* both halves scalar, different values: half-scalar on both halves */
    for (unsigned l = 16; l < 32; l++)
        v[l] = 0x22222222u;
    comp(32, v, 0xffffffffu, 1, &o);
    assert_int_equal(o.fs_o[0], 0);
    di = dec_in(&o, v, 32, 0xffffffffu);
    assert_int_equal(decomp(32, &di, &d), RVC_CLS_HALF_SCALAR);
    assert_int_equal(d.hsc_o[0], 0x3);
    /* both equal: FS, a full-warp scalar */
    for (unsigned l = 16; l < 32; l++)
        v[l] = 0x11111111u;
    comp(32, v, 0xffffffffu, 1, &o);
    assert_int_equal(o.fs_o[0], 1);
    assert_int_equal(o.we_o[0], 0x00);
    di = dec_in(&o, v, 32, 0xffffffffu);
    assert_int_equal(decomp(32, &di, &d), RVC_CLS_SCALAR);
    /* the same register without half mode: FS is never set */
    comp(32, v, 0xffffffffu, 0, &o);
    assert_int_equal(o.fs_o[0], 0);
    assert_int_equal(o.enc_o[0], 0xF);
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

/* Round trip: compress, write a byte-sliced register file (only the
 * enabled arrays for D = 0; active lanes for D = 1), decompress. */
static void test_round_trip(void **st)
{
    (void)st;
    uint64_t seed = 0x5eed0001u;
    unsigned cls_seen[4] = { 0 };
    for (unsigned it = 0; it < 20000; it++) {
        unsigned W = 2u << (rng(&seed) % 5);           /* 2..32 */
        int half = (int)(rng(&seed) & 1u);
        uint32_t all = rvc_lane_mask(W);
        uint32_t mask = (rng(&seed) & 3u) ? all : ((uint32_t)rng(&seed) & all);
        uint32_t base = (uint32_t)rng(&seed), v[32], arr[32];
        unsigned keep = (unsigned)(rng(&seed) % 5);    /* equal bytes */
        for (unsigned l = 0; l < W; l++) {
            uint32_t r = (uint32_t)rng(&seed);
            uint32_t hi = keep ? (0xffffffffu << (32 - 8 * keep)) : 0;
            v[l] = (base & hi) | (r & ~hi);
            arr[l] = (uint32_t)rng(&seed);             /* old contents */
        }
        struct rvc_comp_out o;
        comp(W, v, mask, half, &o);
        for (unsigned l = 0; l < W; l++) {
            unsigned we = o.we_o[0] >> (l < W / 2 ? 0 : 4) & 0xfu;
            for (unsigned b = 0; b < 4; b++) {
                int wr = o.d_o[0] ? (int)(mask >> l & 1u) : (int)(we >> b & 1u);
                if (wr)
                    arr[l] = (arr[l] & ~(0xffu << 8 * b)) |
                             (v[l] & (0xffu << 8 * b));
            }
        }
        uint32_t mprime = (rng(&seed) & 1u) ? mask : (uint32_t)rng(&seed) & all;
        struct rvc_decomp_in di = dec_in(&o, arr, W, mprime);
        struct rvc_decomp_out d;
        enum rvc_class c = decomp(W, &di, &d);
        cls_seen[c]++;
        for (unsigned l = 0; l < W; l++)
            if (!o.d_o[0] || (mask >> l & 1u))
                assert_int_equal(d.data_o[l], v[l]);
        /* class agrees with a direct look at the values */
        int allsame = 1, lsame = 1, hsame = 1;
        for (unsigned l = 1; l < W; l++)
            allsame &= v[l] == v[0];
        for (unsigned l = 1; l < W / 2; l++)
            lsame &= v[l] == v[0];
        for (unsigned l = W / 2 + 1; l < W; l++)
            hsame &= v[l] == v[W / 2];
        if (mask == all && !half)
            assert_int_equal(c, allsame ? RVC_CLS_SCALAR : RVC_CLS_NONE);
        if (mask == all && half)
            assert_int_equal(c, allsame ? RVC_CLS_SCALAR
                                : (lsame || hsame) ? RVC_CLS_HALF_SCALAR
                                                   : RVC_CLS_NONE);
        if (mask != all) {
            int act_same = 1, first = -1;
            for (unsigned l = 0; l < W; l++)
                if (mask >> l & 1u) {
                    if (first < 0)
                        first = (int)l;
                    else
                        act_same &= v[l] == v[first];
                }
            assert_int_equal(c, (act_same && mprime == mask)
                                    ? RVC_CLS_DIV_SCALAR : RVC_CLS_NONE);
        }
    }
    for (unsigned c = 0; c < 4; c++)
        assert_true(cls_seen[c] > 100);
}

/* Parameter checks and idle cycles (payload registers hold). */
static void test_params_and_idle(void **st)
{
    (void)st;
    struct rvc_comp_state s;
    struct rvc_comp_cfg bad[3] = { { 0 }, { 3 }, { 34 } };
    for (unsigned i = 0; i < 3; i++)
        assert_int_not_equal(rvc_comp_init(&s, &bad[i]), 0);
    struct rvc_decomp_state ds;
    struct rvc_decomp_cfg dbad = { 7 };
    assert_int_not_equal(rvc_decomp_init(&ds, &dbad), 0);
    struct rvc_comp_cfg c = rvc_comp_cfg_default();
    assert_int_equal(c.W, 32);
    assert_int_equal(rvc_comp_init(&s, &c), 0);
    struct rvc_comp_in in;
    struct rvc_comp_out o;
    memset(&in, 0, sizeof in);
    in.valid_i[0] = 1;
    in.mask_i[0] = 0xffffffffu;
    for (unsigned l = 0; l < 32; l++)
        in.data_i[l] = 0x77;
    rvc_comp_step(&s, &in, &o);
    assert_int_equal(o.enc_o[0], 0xF);
    in.valid_i[0] = 0;
    in.data_i[3] = 0x1234;
    rvc_comp_step(&s, &in, &o);
    assert_int_equal(o.valid_o[0], 0);
    assert_int_equal(o.enc_o[0], 0xF);
    assert_int_equal(o.data_o[3], 0x77);
    assert_int_equal(s.st.writes, 1);
    assert_int_equal(s.st.cycles, 2);
}

/* *_idle_edges(n) leaves the state that n idle steps leave, after a
 * transaction (valid_o set) and after idle edges: the C backend counts the
 * settling edge with it instead of stepping it. */
static void test_idle_edges(void **st)
{
    (void)st;
    for (unsigned n = 0; n < 4; n++)
        for (unsigned pre = 0; pre < 3; pre++) {
            struct rvc_comp_cfg cc = rvc_comp_cfg_default();
            struct rvc_comp_state a, b;
            assert_int_equal(rvc_comp_init(&a, &cc), 0);
            struct rvc_comp_in in, idle;
            struct rvc_comp_out o;
            memset(&in, 0, sizeof in);
            memset(&idle, 0, sizeof idle);
            in.valid_i[0] = 1;
            in.mask_i[0] = 0xfffff0ffu;
            for (unsigned l = 0; l < 32; l++)
                in.data_i[l] = 0x1000u + l * 3;
            rvc_comp_step(&a, &in, &o);
            for (unsigned k = 0; k < pre; k++)
                rvc_comp_step(&a, &idle, &o);
            b = a;
            for (unsigned k = 0; k < n; k++)
                rvc_comp_step(&a, &idle, &o);
            rvc_comp_idle_edges(&b, n);
            assert_memory_equal(&a, &b, sizeof a);

            struct rvc_decomp_cfg dc = rvc_decomp_cfg_default();
            struct rvc_decomp_state da, db;
            assert_int_equal(rvc_decomp_init(&da, &dc), 0);
            struct rvc_decomp_in din = dec_in(&o, in.data_i, 32, 0xffffffffu), didle;
            struct rvc_decomp_out dout;
            memset(&didle, 0, sizeof didle);
            rvc_decomp_step(&da, &din, &dout);
            for (unsigned k = 0; k < pre; k++)
                rvc_decomp_step(&da, &didle, &dout);
            db = da;
            for (unsigned k = 0; k < n; k++)
                rvc_decomp_step(&da, &didle, &dout);
            rvc_decomp_idle_edges(&db, n);
            assert_memory_equal(&da, &db, sizeof da);
        }
}

/* Compression ratio vs BDI on a small stream with known sizes. */
static void test_bdi_compare(void **st)
{
    (void)st;
    uint32_t v[8];
    struct rvc_ratio r;
    memset(&r, 0, sizeof r);
    for (unsigned l = 0; l < 8; l++)
        v[l] = 0xC04039C0u + 8u * l;
    assert_int_equal(rvc_bdi_bytes(8, v, 0xff), 4 + 8);
    rvc_ratio_add(&r, 8, v, 0xff, 0);             /* GS 11, BDI 12      */
    /* 0x00FF -> 0x0100: BDI delta of 1 fits, bytes differ in 2 places  */
    for (unsigned l = 0; l < 8; l++)
        v[l] = 0x100u + l - 4u;
    assert_int_equal(rvc_bdi_bytes(8, v, 0xff), 4 + 8);
    assert_int_equal(rvc_gs_bytes(8, v, 0xff, 0), 8 * 2 + 2);
    rvc_ratio_add(&r, 8, v, 0xff, 0);             /* GS 18, BDI 12      */
    for (unsigned l = 0; l < 8; l++)
        v[l] = 42;
    assert_int_equal(rvc_bdi_bytes(8, v, 0xff), 4);
    assert_int_equal(rvc_gs_bytes(8, v, 0xff, 0), 4);
    rvc_ratio_add(&r, 8, v, 0xff, 0);
    assert_int_equal(rvc_bdi_bytes(8, v, 0x0f), 32);  /* divergent: raw  */
    assert_int_equal(r.raw_bytes, 96);
    assert_int_equal(r.gs_bytes, 11 + 18 + 4);
    assert_int_equal(r.bdi_bytes, 12 + 12 + 4);
    assert_true(rvc_ratio_gs(&r) > 2.9 && rvc_ratio_gs(&r) < 2.91);
    assert_true(rvc_ratio_bdi(&r) > 3.42 && rvc_ratio_bdi(&r) < 3.43);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sec31_example),
        cmocka_unit_test(test_thermometer),
        cmocka_unit_test(test_fig6_divergent_scalar),
        cmocka_unit_test(test_fig7b_mask_check),
        cmocka_unit_test(test_fig7a_leading_one),
        cmocka_unit_test(test_half_mode),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_params_and_idle),
        cmocka_unit_test(test_idle_edges),
        cmocka_unit_test(test_bdi_compare),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
