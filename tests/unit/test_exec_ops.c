/* Unit tests of the ALU/SFU semantics behind exec_alu() (csim/exec): every
 * opcode string of the PTX census (docs/exec-semantics.md) against
 * hand-computed results, with the rounding, NaN, overflow, division by
 * zero, shift-clamp and carry-chain corner cases. Instructions are built by
 * hand as struct ptx_inst with the operand layout of ptx_ir.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "exec/exec.h"

#define NREGS 12

struct fx {
    uint64_t regs[NREGS * EXEC_WARP];
    uint64_t syms0[4], syms1[4];
    struct exec_grid g;
    struct exec_warp w;
};

static void fx_init(struct fx *f)
{
    memset(f, 0, sizeof *f);
    for (size_t i = 0; i < NREGS * EXEC_WARP; i++)
        f->regs[i] = 0xdeadbeefdeadbeefull;
    f->w.regs = f->regs;
    f->w.nregs = NREGS;
    f->w.grid = &f->g;
    f->w.valid = ~0u;
    for (unsigned l = 0; l < EXEC_WARP; l++) {
        f->w.ids[l].tid[0] = 64 + l;
        f->w.ids[l].tid[1] = 3;
        f->w.ids[l].laneid = l;
    }
    f->g.ntid[0] = 128; f->g.ntid[1] = 4; f->g.ntid[2] = 1;
    f->g.ctaid[0] = 7; f->g.nctaid[0] = 9;
    f->g.warpid = 2;
    f->syms0[1] = 0x10000000ull;
    f->syms1[2] = 0x40;
    f->w.sym_addr[0] = f->syms0;
    f->w.sym_addr[1] = f->syms1;
}

static void set_reg(struct fx *f, int r, uint64_t v)
{
    for (unsigned l = 0; l < EXEC_WARP; l++) f->regs[r * EXEC_WARP + l] = v;
}

static uint64_t reg(const struct fx *f, int r, unsigned lane)
{
    return f->regs[r * EXEC_WARP + lane];
}

static struct ptx_operand R(int r)
{
    struct ptx_operand o;
    memset(&o, 0, sizeof o);
    o.kind = PTX_O_REG;
    o.reg = r;
    o.sym.index = -1;
    return o;
}

static struct ptx_operand IMM(int64_t v)
{
    struct ptx_operand o = R(-1);
    o.kind = PTX_O_IMM;
    o.imm = v;
    return o;
}

static struct ptx_inst inst(unsigned op, unsigned type)
{
    struct ptx_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint8_t)op;
    in.type = (uint8_t)type;
    in.type2 = (uint8_t)type;
    in.guard = -1;
    in.vec = 1;
    in.line = 1;
    return in;
}

static uint64_t tmask(unsigned t)
{
    switch (t) {
    case PTX_T_B16: case PTX_T_U16: return 0xffff;
    case PTX_T_B32: case PTX_T_U32: case PTX_T_F32: return 0xffffffff;
    default: return ~0ull;
    }
}

static uint64_t F(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t D(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* One table row: d = op(s0..s3) with the sources in r1..r4. */
struct tc {
    int line;
    uint8_t op, type, type2;
    uint16_t flags;
    uint8_t rnd, nsrc;
    uint64_t s[4];
    uint64_t want;
};

#define T(op, ty, fl, rnd, n, a, b, c, want)                                   \
    { __LINE__, PTX_OP_##op, PTX_T_##ty, PTX_T_##ty, fl, PTX_RND_##rnd, n,     \
      { a, b, c, 0 }, want }
#define CV(dt, st, fl, rnd, a, want)                                           \
    { __LINE__, PTX_OP_CVT, PTX_T_##dt, PTX_T_##st, fl, PTX_RND_##rnd, 1,      \
      { a, 0, 0, 0 }, want }

static void run_table(const struct tc *t, size_t n)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        struct fx f;
        fx_init(&f);
        struct ptx_inst in = inst(t[i].op, t[i].type);
        in.type2 = t[i].type2;
        in.flags = t[i].flags;
        in.rnd = t[i].rnd;
        in.nopnd = (uint8_t)(t[i].nsrc + 1);
        in.o[0] = R(0);
        for (int k = 0; k < t[i].nsrc; k++) {
            in.o[k + 1] = R(k + 1);
            set_reg(&f, k + 1, t[i].s[k]);
        }
        struct exec_result res;
        struct exec_error err;
        int rc = exec_alu(&f.w, &in, 0xffffffffu, &res, &err);
        if (rc != 0) {
            printf("line %d: exec_alu failed: %s\n", t[i].line, err.msg);
            bad++;
            continue;
        }
        for (unsigned l = 0; l < EXEC_WARP; l++) {
            if (reg(&f, 0, l) != t[i].want) {
                printf("line %d lane %u: got 0x%llx want 0x%llx\n", t[i].line, l,
                       (unsigned long long)reg(&f, 0, l),
                       (unsigned long long)t[i].want);
                bad++;
                break;
            }
        }
        assert_int_equal(res.active, 0xffffffffu);
    }
    assert_int_equal(bad, 0);
}

#define RUN(tab) run_table(tab, sizeof tab / sizeof tab[0])
#define HI PTX_F_HI
#define LO PTX_F_LO
#define WIDE PTX_F_WIDE
#define SAT PTX_F_SAT
#define FTZ PTX_F_FTZ
#define APX PTX_F_APPROX

static void test_int_arith(void **st)
{
    (void)st;
    const struct tc t[] = {
        T(ADD, S32, 0, NONE, 2, 0x7fffffff, 1, 0, 0x80000000),
        T(ADD, S32, 0, NONE, 2, 0xffffffffffffffffull, 2, 0, 1), /* reads 32 bits */
        T(ADD, S32, SAT, NONE, 2, 0x7fffffff, 1, 0, 0x7fffffff),
        T(ADD, S32, SAT, NONE, 2, 0x80000000, 0xffffffff, 0, 0x80000000),
        T(ADD, S64, 0, NONE, 2, 0xffffffffffffffffull, 2, 0, 1),
        T(ADD, U64, 0, NONE, 2, 0x100000000ull, 0xffffffffull, 0, 0x1ffffffffull),
        T(ADD, S16, 0, NONE, 2, 0x7fff, 1, 0, 0x8000),
        T(SUB, S32, 0, NONE, 2, 0, 1, 0, 0xffffffff),
        T(SUB, S32, SAT, NONE, 2, 0x80000000, 1, 0, 0x80000000),
        T(SUB, S64, 0, NONE, 2, 0, 1, 0, 0xffffffffffffffffull),
        T(MUL, S32, LO, NONE, 2, 0x10000, 0x10000, 0, 0),
        T(MUL, U32, LO, NONE, 2, 0xffffffff, 0xffffffff, 0, 1),
        T(MUL, S32, HI, NONE, 2, 0x10000, 0x10000, 0, 1),
        T(MUL, S32, HI, NONE, 2, 0xffffffff, 1, 0, 0xffffffff),
        T(MUL, U32, HI, NONE, 2, 0xffffffff, 0xffffffff, 0, 0xfffffffe),
        T(MUL, S32, WIDE, NONE, 2, 0xfffffffe, 3, 0, 0xfffffffffffffffaull),
        T(MUL, U32, WIDE, NONE, 2, 0xffffffff, 2, 0, 0x1fffffffeull),
        T(MUL, U16, WIDE, NONE, 2, 0xffff, 0xffff, 0, 0xfffe0001),
        T(MUL, S16, LO, NONE, 2, 300, 300, 0, 0x5f90),
        T(MUL, S64, LO, NONE, 2, 0x100000001ull, 0x100000001ull, 0, 0x200000001ull),
        T(MUL, U64, HI, NONE, 2, 0x8000000000000000ull, 4, 0, 2),
        T(MUL, S64, HI, NONE, 2, 0xc000000000000000ull, 2, 0, 0xffffffffffffffffull),
        T(MAD, S32, LO, NONE, 3, 3, 4, 5, 17),
        T(MAD, S32, LO, NONE, 3, 0xfffffffd, 4, 5, 0xfffffff9),
        T(MAD, S32, WIDE, NONE, 3, 0xffffffff, 1, 10, 9),
        T(MAD, U32, HI, NONE, 3, 0x80000000, 4, 1, 3),
        T(MAD, S32, HI | SAT, NONE, 3, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff),
        T(MUL24, S32, LO, NONE, 2, 0xffffff, 2, 0, 0xfffffffe),
        T(MUL24, U32, LO, NONE, 2, 0x1000001, 2, 0, 2),
        T(MUL24, U32, HI, NONE, 2, 0xffffff, 0xffffff, 0, 0xfffffe00),
        T(MAD24, U32, LO, NONE, 3, 2, 3, 4, 10),
        T(SAD, U32, 0, NONE, 3, 3, 10, 100, 107),
        T(SAD, S32, 0, NONE, 3, 0xfffffffd, 4, 0, 7),
        T(DIV, S32, 0, NONE, 2, 0xfffffff9, 2, 0, 0xfffffffd),
        T(DIV, U32, 0, NONE, 2, 7, 0, 0, 0xffffffff),
        T(DIV, S32, 0, NONE, 2, 5, 0, 0, 0xffffffff),
        T(DIV, S32, 0, NONE, 2, 0x80000000, 0xffffffff, 0, 0x80000000),
        T(DIV, U16, 0, NONE, 2, 0xffff, 2, 0, 0x7fff),
        T(DIV, U32, 0, NONE, 2, 100, 7, 0, 14),
        T(REM, S32, 0, NONE, 2, 0xfffffff9, 2, 0, 0xffffffff),
        T(REM, U32, 0, NONE, 2, 7, 0, 0, 7),
        T(REM, U32, 0, NONE, 2, 100, 7, 0, 2),
        T(REM, S32, 0, NONE, 2, 0x80000000, 0xffffffff, 0, 0),
        T(ABS, S32, 0, NONE, 1, 0xfffffffb, 0, 0, 5),
        T(ABS, S32, 0, NONE, 1, 0x80000000, 0, 0, 0x80000000),
        T(NEG, S32, 0, NONE, 1, 5, 0, 0, 0xfffffffb),
        T(NEG, S64, 0, NONE, 1, 1, 0, 0, 0xffffffffffffffffull),
        T(MIN, S32, 0, NONE, 2, 0xffffffff, 1, 0, 0xffffffff),
        T(MIN, U32, 0, NONE, 2, 0xffffffff, 1, 0, 1),
        T(MIN, U16, 0, NONE, 2, 0x8000, 0x7fff, 0, 0x7fff),
        T(MAX, S32, 0, NONE, 2, 0xffffffff, 1, 0, 1),
        T(MAX, U32, 0, NONE, 2, 0xffffffff, 1, 0, 0xffffffff),
        T(MAX, U16, 0, NONE, 2, 0x8000, 0x7fff, 0, 0x8000),
    };
    RUN(t);
}

static void test_bits(void **st)
{
    (void)st;
    const struct tc t[] = {
        T(AND, B32, 0, NONE, 2, 0xff00ff00, 0x0ff00ff0, 0, 0x0f000f00),
        T(AND, B16, 0, NONE, 2, 0x1ffff, 0xff, 0, 0xff),
        T(AND, B64, 0, NONE, 2, ~0ull, 0x8000000000000001ull, 0, 0x8000000000000001ull),
        T(AND, PRED, 0, NONE, 2, 1, 1, 0, 1),
        T(OR, B32, 0, NONE, 2, 0xf0, 0x0f, 0, 0xff),
        T(OR, B16, 0, NONE, 2, 0x8000, 1, 0, 0x8001),
        T(OR, B64, 0, NONE, 2, 1ull << 40, 1, 0, (1ull << 40) | 1),
        T(OR, PRED, 0, NONE, 2, 0, 1, 0, 1),
        T(XOR, B32, 0, NONE, 2, 0xff, 0x0f, 0, 0xf0),
        T(XOR, PRED, 0, NONE, 2, 1, 1, 0, 0),
        T(NOT, B32, 0, NONE, 1, 0xf0f0f0f0, 0, 0, 0x0f0f0f0f),
        T(NOT, PRED, 0, NONE, 1, 0, 0, 0, 1),
        T(CNOT, B32, 0, NONE, 1, 0, 0, 0, 1),
        T(CNOT, B32, 0, NONE, 1, 5, 0, 0, 0),
        T(SHL, B32, 0, NONE, 2, 1, 31, 0, 0x80000000),
        T(SHL, B32, 0, NONE, 2, 1, 32, 0, 0),
        T(SHL, B32, 0, NONE, 2, 1, 100, 0, 0),
        T(SHL, B16, 0, NONE, 2, 1, 16, 0, 0),
        T(SHL, B16, 0, NONE, 2, 3, 15, 0, 0x8000),
        T(SHL, B64, 0, NONE, 2, 1, 63, 0, 0x8000000000000000ull),
        T(SHL, B64, 0, NONE, 2, 1, 64, 0, 0),
        T(SHR, S32, 0, NONE, 2, 0x80000000, 40, 0, 0xffffffff),
        T(SHR, S32, 0, NONE, 2, 0x40000000, 40, 0, 0),
        T(SHR, U32, 0, NONE, 2, 0x80000000, 40, 0, 0),
        T(SHR, U32, 0, NONE, 2, 0x80000000, 31, 0, 1),
        T(SHR, S32, 0, NONE, 2, 0xfffffff8, 1, 0, 0xfffffffc),
        T(SHR, U64, 0, NONE, 2, 0x8000000000000000ull, 63, 0, 1),
        T(SHR, S64, 0, NONE, 2, 0x8000000000000000ull, 70, 0, ~0ull),
        T(POPC, B32, 0, NONE, 1, 0xf0f0, 0, 0, 8),
        T(POPC, B64, 0, NONE, 1, ~0ull, 0, 0, 64),
        T(CLZ, B32, 0, NONE, 1, 0, 0, 0, 32),
        T(CLZ, B32, 0, NONE, 1, 1, 0, 0, 31),
        T(CLZ, B64, 0, NONE, 1, 1, 0, 0, 63),
        T(CLZ, B64, 0, NONE, 1, 0, 0, 0, 64),
        T(BREV, B32, 0, NONE, 1, 1, 0, 0, 0x80000000),
        T(BREV, B32, 0, NONE, 1, 0x12345678, 0, 0, 0x1e6a2c48),
        T(BREV, B64, 0, NONE, 1, 1, 0, 0, 0x8000000000000000ull),
        T(BFE, U32, 0, NONE, 3, 0xabcd1234, 8, 8, 0x12),
        T(BFE, S32, 0, NONE, 3, 0x0000f000, 12, 4, 0xffffffff),
        T(BFE, S32, 0, NONE, 3, 0x0000f000, 12, 5, 0xf),
        T(BFE, U32, 0, NONE, 3, 0xffffffff, 4, 0, 0),
        T(BFE, S32, 0, NONE, 3, 0x80000000, 40, 4, 0xffffffff),
        T(BFE, U32, 0, NONE, 3, 0x80000000, 28, 8, 0x8),
        T(BFE, U64, 0, NONE, 3, 0xff00000000000000ull, 56, 8, 0xff),
        T(PRMT, B32, 0, NONE, 3, 0x33221100, 0x77665544, 0x3210, 0x33221100),
        T(PRMT, B32, 0, NONE, 3, 0x33221100, 0x77665544, 0x4567, 0x44556677),
        T(PRMT, B32, 0, NONE, 3, 0x000080ff, 0, 0x0119, 0xff8080ff),
        T(PRMT, B32, 0, NONE, 3, 0x000080ff, 0, 0x1119, 0x808080ff),
    };
    RUN(t);
    /* bfi has four sources: f = b with a[0..len) at pos. */
    struct fx f;
    fx_init(&f);
    struct ptx_inst in = inst(PTX_OP_BFI, PTX_T_B32);
    in.nopnd = 5;
    in.o[0] = R(0); in.o[1] = R(1); in.o[2] = R(2); in.o[3] = IMM(8); in.o[4] = IMM(8);
    set_reg(&f, 1, 0xff);
    set_reg(&f, 2, 0x12345678);
    struct exec_error err;
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, &err), 0);
    assert_int_equal(reg(&f, 0, 0), 0x1234ff78);
    in.o[3] = IMM(28); in.o[4] = IMM(16);         /* clipped at bit 31 */
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, &err), 0);
    assert_int_equal(reg(&f, 0, 0), 0xf2345678);
    assert_int_equal(reg(&f, 0, 1), 0xdeadbeefdeadbeefull);   /* lane 1 off */
}

/* shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: the 64-bit {b:a} shifted by c,
 * high word (l) or low word (r); mode .wrap takes c mod 32, .clamp min(c, 32).
 * Each lane gets its own amount (lane & 31, or 33 + lane for clamping). */
static void test_shf(void **st)
{
    (void)st;
    const uint32_t a = 0x89abcdefu, b = 0x01234567u;
    const uint64_t v = ((uint64_t)b << 32) | a;
    static const struct { uint8_t sub; uint8_t md; uint32_t amt[4]; uint32_t want[4]; } t[] = {
        /* amounts 0, 4, 31, 32: hand-computed words of {0x01234567:0x89abcdef} */
        { PTX_SUB_SHF_L, PTX_MODE_WRAP, { 0, 4, 31, 32 },
          { 0x01234567u, 0x12345678u, 0xc4d5e6f7u, 0x01234567u } },
        { PTX_SUB_SHF_L, PTX_MODE_CLAMP, { 0, 4, 31, 32 },
          { 0x01234567u, 0x12345678u, 0xc4d5e6f7u, 0x89abcdefu } },
        { PTX_SUB_SHF_R, PTX_MODE_WRAP, { 0, 4, 31, 32 },
          { 0x89abcdefu, 0x789abcdeu, 0x02468acfu, 0x89abcdefu } },
        { PTX_SUB_SHF_R, PTX_MODE_CLAMP, { 0, 4, 31, 32 },
          { 0x89abcdefu, 0x789abcdeu, 0x02468acfu, 0x01234567u } },
        /* 36 wraps to 4; clamps to 32 */
        { PTX_SUB_SHF_L, PTX_MODE_WRAP, { 36, 36, 36, 36 },
          { 0x12345678u, 0x12345678u, 0x12345678u, 0x12345678u } },
        { PTX_SUB_SHF_R, PTX_MODE_CLAMP, { 36, 0xffffffffu, 33, 100 },
          { 0x01234567u, 0x01234567u, 0x01234567u, 0x01234567u } },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        for (unsigned k = 0; k < 4; k++) {
            struct fx f;
            fx_init(&f);
            struct ptx_inst in = inst(PTX_OP_SHF, PTX_T_B32);
            in.sub = t[i].sub;
            in.mode = t[i].md;
            in.nopnd = 4;
            in.o[0] = R(0); in.o[1] = R(1); in.o[2] = R(2); in.o[3] = R(3);
            set_reg(&f, 1, a | 0xffffffff00000000ull);   /* high bits ignored */
            set_reg(&f, 2, b);
            set_reg(&f, 3, t[i].amt[k]);
            struct exec_error err;
            assert_int_equal(exec_alu(&f.w, &in, 0x5u, NULL, &err), 0);
            assert_int_equal(reg(&f, 0, 0), t[i].want[k]);
            assert_int_equal(reg(&f, 0, 2), t[i].want[k]);
            assert_int_equal(reg(&f, 0, 1), 0xdeadbeefdeadbeefull);   /* lane 1 off */
        }
    }
    /* the same from the 64-bit definition, every amount 0..40 */
    for (uint32_t c = 0; c <= 40; c++)
        for (int left = 0; left < 2; left++)
            for (int clamp = 0; clamp < 2; clamp++) {
                unsigned n = clamp ? (c > 32 ? 32 : c) : c % 32;
                uint32_t want = left ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n);
                struct fx f;
                fx_init(&f);
                struct ptx_inst in = inst(PTX_OP_SHF, PTX_T_B32);
                in.sub = left ? PTX_SUB_SHF_L : PTX_SUB_SHF_R;
                in.mode = clamp ? PTX_MODE_CLAMP : PTX_MODE_WRAP;
                in.nopnd = 4;
                in.o[0] = R(0); in.o[1] = R(1); in.o[2] = R(2); in.o[3] = IMM(c);
                set_reg(&f, 1, a);
                set_reg(&f, 2, b);
                struct exec_error err;
                assert_int_equal(exec_alu(&f.w, &in, 1, NULL, &err), 0);
                assert_int_equal(reg(&f, 0, 0), want);
            }
    /* only .b32 is defined */
    struct fx f;
    fx_init(&f);
    struct ptx_inst in = inst(PTX_OP_SHF, PTX_T_B64);
    in.sub = PTX_SUB_SHF_L;
    in.mode = PTX_MODE_WRAP;
    in.nopnd = 4;
    in.o[0] = R(0); in.o[1] = R(1); in.o[2] = R(2); in.o[3] = IMM(1);
    struct exec_error err;
    assert_int_not_equal(exec_alu(&f.w, &in, 1, NULL, &err), 0);
    assert_non_null(strstr(err.msg, "unsupported type"));
}

/* setp.lt.f16 / setp.nan.f16 on raw f16 patterns. */
static void setp_f16_check(void)
{
    struct fx f;
    fx_init(&f);
    struct ptx_inst in = inst(PTX_OP_SETP, PTX_T_F16);
    in.cmp = PTX_CMP_LT;
    in.o[0] = R(0); in.o[2] = R(1); in.o[3] = R(2); in.nopnd = 4;
    set_reg(&f, 1, 0x3c00);
    set_reg(&f, 2, 0x4000);
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 0, 0), 1);
    set_reg(&f, 1, 0xc000);                          /* -2 < -1 */
    set_reg(&f, 2, 0xbc00);
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 0, 0), 1);
    in.cmp = PTX_CMP_NAN;
    set_reg(&f, 2, 0x7e00);
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 0, 0), 1);
}

static void test_float_rounding(void **st)
{
    (void)st;
    const double e23 = 0x1p-23, e24 = 0x1p-24;
    const struct tc t[] = {
        /* ties and directed rounding of 1 + 2^-24, 1 + 2^-30 (f32) */
        T(ADD, F32, 0, RN, 2, F(1), F(e24), 0, F(1)),
        T(ADD, F32, 0, NONE, 2, F(1 + e23), F(e24), 0, F(1 + 2 * e23)),
        T(ADD, F32, 0, RP, 2, F(1), F(0x1p-30), 0, F(1 + e23)),
        T(ADD, F32, 0, RM, 2, F(1), F(0x1p-30), 0, F(1)),
        T(ADD, F32, 0, RZ, 2, F(1), F(0x1p-30), 0, F(1)),
        T(ADD, F32, 0, RN, 2, F(1), F(3 * 0x1p-25), 0, F(1 + e23)),
        T(ADD, F32, 0, RM, 2, F(-1), F(-0x1p-30), 0, F(-(1 + e23))),
        T(ADD, F32, 0, RP, 2, F(-1), F(-0x1p-30), 0, F(-1)),
        T(ADD, F32, 0, RZ, 2, F(-1), F(-0x1p-30), 0, F(-1)),
        T(ADD, F32, 0, RZ, 2, F(1), F(-0x1p-30), 0, F(1 - e24)),
        T(ADD, F32, 0, RM, 2, F(1), F(-1), 0, F(-0.0)),
        T(ADD, F32, 0, RN, 2, F(1), F(-1), 0, F(0.0)),
        T(ADD, F32, 0, RZ, 2, F(0x1.fffffep127), F(0x1.fffffep127), 0, 0x7f7fffff),
        T(ADD, F32, 0, RN, 2, F(0x1.fffffep127), F(0x1.fffffep127), 0, 0x7f800000),
        T(ADD, F32, 0, NONE, 2, F(INFINITY), F(-INFINITY), 0, 0x7fffffff),
        T(ADD, F32, 0, NONE, 2, 0x7fc00001, F(1), 0, 0x7fffffff),
        T(SUB, F32, 0, NONE, 2, F(1), F(0.25), 0, F(0.75)),
        T(SUB, F32, 0, RP, 2, F(1), F(-0x1p-30), 0, F(1 + e23)),
        T(MUL, F32, 0, NONE, 2, F(1.5), F(-2), 0, F(-3)),
        T(MUL, F32, 0, RZ, 2, F(1 + e23), F(1 + e23), 0, F(1 + 2 * e23)),
        T(MUL, F32, 0, RP, 2, F(1 + e23), F(1 + e23), 0, F(1 + 3 * e23)),
        T(MUL, F32, 0, RN, 2, F(1 + e23), F(1 + e23), 0, F(1 + 2 * e23)),
        T(MUL, F32, 0, RM, 2, F(-(1 + e23)), F(1 + e23), 0, F(-(1 + 3 * e23))),
        T(MUL, F32, 0, NONE, 2, F(0x1p-64), F(0x1p-64), 0, 0x00200000),
        T(MUL, F32, FTZ, NONE, 2, F(0x1p-64), F(0x1p-64), 0, 0),
        T(MUL, F32, FTZ, NONE, 2, F(-0x1p-64), F(0x1p-64), 0, 0x80000000),
        T(MUL, F32, 0, RN, 2, F(0x1p-149), F(0.5), 0, 0),          /* tie -> even 0 */
        T(MUL, F32, 0, RP, 2, F(0x1p-149), F(0.5), 0, 1),
        T(ADD, F32, FTZ, NONE, 2, 0x00000001, F(0), 0, 0),
        T(ADD, F32, FTZ, NONE, 2, 0x80000001, F(-0.0), 0, 0x80000000),
        T(ADD, F32, SAT, NONE, 2, F(0.5), F(0.75), 0, F(1)),
        T(ADD, F32, SAT, NONE, 2, F(-0.5), F(-1.5), 0, F(0)),
        T(ADD, F32, SAT, NONE, 2, 0x7fffffff, F(1), 0, F(0)),
        T(ADD, F32, SAT, NONE, 2, F(0.25), F(0.25), 0, F(0.5)),
        T(FMA, F32, 0, RN, 3, F(1 + e23), F(1 - e23), F(-1), F(-0x1p-46)),
        T(FMA, F32, 0, RM, 3, F(1), F(1), F(-1), F(-0.0)),
        T(FMA, F32, 0, RZ, 3, F(1 + e23), F(1 + e23), F(0), F(1 + 2 * e23)),
        T(FMA, F32, 0, RP, 3, F(1 + e23), F(1 + e23), F(0), F(1 + 3 * e23)),
        T(FMA, F32, 0, RM, 3, F(1), F(1), F(0x1p-40), F(1)),
        T(FMA, F32, 0, RP, 3, F(1), F(1), F(0x1p-40), F(1 + e23)),
        T(FMA, F32, FTZ, RN, 3, 0x00400000, F(4), F(1), F(1)),
        /* exact = 2^7 + 2^-16 + 2^-17 - 2^-63: the double sum is a float
         * midpoint, so rounding through double would give 2^7 + 2^-15 */
        T(FMA, F32, 0, RN, 3, F(0x1.000002p-17f), F(0x1.fffffcp-1f), F(0x1.000002p7f),
          F(0x1.000002p7f)),
        T(FMA, F32, FTZ, RN, 3, F(0x1.000002p-17f), F(0x1.fffffcp-1f), F(0x1.000002p7f),
          F(0x1.000002p7f)),
        T(FMA, F32, 0, RP, 3, F(0x1.000002p-17f), F(0x1.fffffcp-1f), F(0x1.000002p7f),
          F(0x1.000004p7f)),
        T(FMA, F32, SAT, RN, 3, F(2), F(3), F(-1), F(1)),
        T(MAD, F32, 0, RN, 3, F(1 + e23), F(1 - e23), F(-1), F(-0x1p-46)),
        T(DIV, F32, 0, RN, 2, F(1), F(3), 0, 0x3eaaaaab),
        T(DIV, F32, 0, RZ, 2, F(1), F(3), 0, 0x3eaaaaaa),
        T(DIV, F32, 0, RM, 2, F(1), F(3), 0, 0x3eaaaaaa),
        T(DIV, F32, 0, RP, 2, F(1), F(3), 0, 0x3eaaaaab),
        T(DIV, F32, 0, RM, 2, F(-1), F(3), 0, 0xbeaaaaab),
        T(DIV, F32, 0, RN, 2, F(1), F(0), 0, 0x7f800000),
        T(DIV, F32, 0, RN, 2, F(0), F(0), 0, 0x7fffffff),
        T(DIV, F32, APX, NONE, 2, F(1), F(4), 0, F(0.25)),
        T(DIV, F32, APX | FTZ, NONE, 2, F(6), F(3), 0, F(2)),
        T(DIV, F64, 0, RN, 2, D(1), D(3), 0, 0x3fd5555555555555ull),
        T(DIV, F64, 0, RP, 2, D(1), D(3), 0, 0x3fd5555555555556ull),
        T(DIV, F64, 0, RZ, 2, D(2), D(3), 0, 0x3fe5555555555555ull),
        T(DIV, F64, 0, RN, 2, D(2), D(3), 0, 0x3fe5555555555555ull),
        T(ADD, F64, 0, RN, 2, D(1), D(0x1p-53), 0, D(1)),
        T(ADD, F64, 0, RP, 2, D(1), D(0x1p-60), 0, D(1 + 0x1p-52)),
        T(ADD, F64, 0, RM, 2, D(1), D(-0x1p-60), 0, D(1 - 0x1p-53)),
        T(ADD, F64, 0, RZ, 2, D(-1), D(-0x1p-60), 0, D(-1)),
        T(ADD, F64, 0, RM, 2, D(-1), D(-0x1p-60), 0, D(-(1 + 0x1p-52))),
        T(ADD, F64, 0, RZ, 2, D(0x1.fffffffffffffp1023), D(0x1.fffffffffffffp1023), 0,
          0x7fefffffffffffffull),
        T(ADD, F64, 0, RM, 2, D(3), D(-3), 0, D(-0.0)),
        T(SUB, F64, 0, NONE, 2, D(1), D(0.5), 0, D(0.5)),
        T(MUL, F64, 0, NONE, 2, D(3), D(-0.5), 0, D(-1.5)),
        T(MUL, F64, 0, RP, 2, D(1 + 0x1p-52), D(1 + 0x1p-52), 0, D(1 + 3 * 0x1p-52)),
        T(MUL, F64, 0, RZ, 2, D(1 + 0x1p-52), D(1 + 0x1p-52), 0, D(1 + 2 * 0x1p-52)),
        T(MUL, F64, 0, RN, 2, D(0x1p-1074), D(0.5), 0, D(0)),
        T(MUL, F64, 0, RP, 2, D(0x1p-1074), D(0.5), 0, 1),
        T(FMA, F64, 0, RN, 3, D(1 + 0x1p-52), D(1 - 0x1p-52), D(-1), D(-0x1p-104)),
        T(FMA, F64, 0, RP, 3, D(1), D(1), D(0x1p-80), D(1 + 0x1p-52)),
        T(FMA, F64, 0, RM, 3, D(1), D(1), D(0x1p-80), D(1)),
        T(FMA, F64, 0, RM, 3, D(1), D(-1), D(1), D(-0.0)),
        T(FMA, F64, 0, RZ, 3, D(-1), D(1), D(-0x1p-80), D(-1)),
        /* scalar f16: 1 + 2^-11 is a tie at 1.0 */
        T(ADD, F16, 0, NONE, 2, 0x3c00, 0x1000, 0, 0x3c00),
        T(ADD, F16, 0, RP, 2, 0x3c00, 0x1000, 0, 0x3c01),
        T(ADD, F16, 0, RZ, 2, 0x3c00, 0x1000, 0, 0x3c00),
        T(ADD, F16, 0, RM, 2, 0xbc00, 0x9000, 0, 0xbc01),
        T(ADD, F16, 0, RN, 2, 0x3c01, 0x1000, 0, 0x3c02),
        T(ADD, F16, FTZ, NONE, 2, 0x0001, 0x0000, 0, 0x0000),
        T(ADD, F16, 0, NONE, 2, 0x0001, 0x0000, 0, 0x0001),
        T(ADD, F16, SAT, NONE, 2, 0x3c00, 0x3c00, 0, 0x3c00),
        T(ADD, F16, 0, RM, 2, 0x3c00, 0xbc00, 0, 0x8000),
        T(SUB, F16, 0, NONE, 2, 0x3c00, 0x3800, 0, 0x3800),
        T(MUL, F16, 0, NONE, 2, 0x5cb0, 0x5cb0, 0, 0x7c00),  /* 300 * 300 */
        T(MUL, F16, 0, RZ, 2, 0x5cb0, 0x5cb0, 0, 0x7bff),
        T(MUL, F16, 0, NONE, 2, 0x7c00, 0x0000, 0, 0x7fff),  /* inf * 0 */
        T(FMA, F16, 0, RN, 3, 0x3c01, 0x3bff, 0xbc00, 0x0ffe),
        T(MAD, F16, 0, RN, 3, 0x3c01, 0x3bff, 0xbc00, 0x0ffe),
        T(MIN, F16, 0, NONE, 2, 0x7e00, 0x3c00, 0, 0x3c00),
        T(MIN, F16, 0, NONE, 2, 0x0000, 0x8000, 0, 0x8000),
        T(MAX, F16, 0, NONE, 2, 0x8000, 0x0000, 0, 0x0000),
        T(MAX, F16, 0, NONE, 2, 0x3c00, 0x4000, 0, 0x4000),
        T(ABS, F16, 0, NONE, 1, 0xbc00, 0, 0, 0x3c00),
        T(NEG, F16, 0, NONE, 1, 0x3c00, 0, 0, 0xbc00),
    };
    RUN(t);
    setp_f16_check();
}

static void test_float_misc(void **st)
{
    (void)st;
    const struct tc t[] = {
        T(ABS, F32, 0, NONE, 1, F(-2.5f), 0, 0, F(2.5f)),
        T(ABS, F32, FTZ, NONE, 1, 0x80000001, 0, 0, 0),
        T(ABS, F64, 0, NONE, 1, D(-2.5), 0, 0, D(2.5)),
        T(NEG, F32, 0, NONE, 1, F(2.5f), 0, 0, F(-2.5f)),
        T(NEG, F32, 0, NONE, 1, F(0), 0, 0, 0x80000000),
        T(NEG, F64, 0, NONE, 1, D(1), 0, 0, D(-1)),
        T(MIN, F32, 0, NONE, 2, F(NAN), F(1), 0, F(1)),
        T(MIN, F32, 0, NONE, 2, F(1), 0x7fc00000, 0, F(1)),
        T(MIN, F32, 0, NONE, 2, 0x7fc00000, 0xffc00000, 0, 0x7fffffff),
        T(MIN, F32, 0, NONE, 2, F(0.0), F(-0.0), 0, 0x80000000),
        T(MIN, F32, 0, NONE, 2, F(-3), F(2), 0, F(-3)),
        T(MIN, F32, FTZ, NONE, 2, 0x80000001, F(0), 0, 0x80000000),
        T(MAX, F32, 0, NONE, 2, F(-0.0), F(0.0), 0, 0),
        T(MAX, F32, 0, NONE, 2, F(-3), F(2), 0, F(2)),
        T(MAX, F32, 0, NONE, 2, F(NAN), F(-7), 0, F(-7)),
        T(MIN, F64, 0, NONE, 2, D(NAN), D(1), 0, D(1)),
        T(MAX, F64, 0, NONE, 2, D(1), D(2), 0, D(2)),
        T(COPYSIGN, F32, 0, NONE, 2, F(-1), F(2), 0, F(-2)),
        T(COPYSIGN, F32, 0, NONE, 2, F(1), F(-2), 0, F(2)),
        T(COPYSIGN, F64, 0, NONE, 2, D(-0.0), D(3), 0, D(-3)),
        T(SQRT, F32, 0, RN, 1, F(2), 0, 0, 0x3fb504f3),
        T(SQRT, F32, 0, RP, 1, F(2), 0, 0, 0x3fb504f4),
        T(SQRT, F32, 0, RZ, 1, F(2), 0, 0, 0x3fb504f3),
        T(SQRT, F32, 0, RN, 1, F(-1), 0, 0, 0x7fffffff),
        T(SQRT, F32, 0, RN, 1, F(-0.0), 0, 0, 0x80000000),
        T(SQRT, F32, APX, NONE, 1, F(16), 0, 0, F(4)),
        T(SQRT, F32, APX | FTZ, NONE, 1, 0x00000010, 0, 0, 0),
        T(SQRT, F64, 0, RN, 1, D(2), 0, 0, 0x3ff6a09e667f3bcdull),
        T(SQRT, F64, 0, RZ, 1, D(2), 0, 0, 0x3ff6a09e667f3bccull),
        T(SQRT, F64, 0, RP, 1, D(2), 0, 0, 0x3ff6a09e667f3bcdull),
        T(SQRT, F64, 0, RM, 1, D(4), 0, 0, D(2)),
        T(RCP, F32, 0, RN, 1, F(3), 0, 0, 0x3eaaaaab),
        T(RCP, F32, 0, RZ, 1, F(3), 0, 0, 0x3eaaaaaa),
        T(RCP, F32, APX | FTZ, NONE, 1, F(4), 0, 0, F(0.25)),
        T(RCP, F32, APX | FTZ, NONE, 1, 0x00000100, 0, 0, 0x7f800000),
        T(RCP, F64, 0, RN, 1, D(3), 0, 0, 0x3fd5555555555555ull),
        T(RCP, F64, 0, RP, 1, D(3), 0, 0, 0x3fd5555555555556ull),
        T(RCP, F64, APX | FTZ, NONE, 1, D(0.5), 0, 0, D(2)),
        T(RSQRT, F32, APX, NONE, 1, F(4), 0, 0, F(0.5)),
        T(RSQRT, F32, APX, NONE, 1, F(0), 0, 0, 0x7f800000),
        T(RSQRT, F32, APX, NONE, 1, F(-0.0), 0, 0, 0xff800000),
        T(RSQRT, F64, APX, NONE, 1, D(0.25), 0, 0, D(2)),
        T(EX2, F32, APX, NONE, 1, F(3), 0, 0, F(8)),
        T(EX2, F32, APX | FTZ, NONE, 1, F(-1), 0, 0, F(0.5)),
        T(EX2, F32, APX | FTZ, NONE, 1, F(-140), 0, 0, 0),
        T(EX2, F32, APX, NONE, 1, F(-140), 0, 0, 0x00000200),
        T(EX2, F32, APX, NONE, 1, F(-INFINITY), 0, 0, 0),
        T(LG2, F32, APX, NONE, 1, F(8), 0, 0, F(3)),
        T(LG2, F32, APX, NONE, 1, F(0), 0, 0, 0xff800000),
        T(LG2, F32, APX, NONE, 1, F(-1), 0, 0, 0x7fffffff),
        T(SIN, F32, APX, NONE, 1, F(0), 0, 0, F(0)),
        T(COS, F32, APX, NONE, 1, F(0), 0, 0, F(1)),
        T(TANH, F32, APX, NONE, 1, F(0), 0, 0, F(0)),
        T(TANH, F32, APX, NONE, 1, F(100), 0, 0, F(1)),
    };
    RUN(t);
    /* sin/cos: within the hardware's 2^-20.9 absolute error of libm. */
    for (float x = -3.0f; x <= 3.0f; x += 0.37f) {
        struct fx f;
        fx_init(&f);
        struct ptx_inst in = inst(PTX_OP_SIN, PTX_T_F32);
        in.flags = APX;
        in.o[0] = R(0); in.o[1] = R(1); in.nopnd = 2;
        set_reg(&f, 1, F(x));
        assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
        float got;
        uint32_t u = (uint32_t)reg(&f, 0, 0);
        memcpy(&got, &u, 4);
        assert_true(fabs(got - sin((double)x)) < 0x1p-21);
        in.op = PTX_OP_COS;
        assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
        u = (uint32_t)reg(&f, 0, 0);
        memcpy(&got, &u, 4);
        assert_true(fabs(got - cos((double)x)) < 0x1p-21);
    }
}

/* fma.rn.ftz.f32 (the libm-free exact software path) against libm fmaf on
 * random normal operands, including near-cancelling addends. */
static void test_fma32_software_path(void **st)
{
    (void)st;
    uint64_t s = 0x1234567887654321ull;
    int bad = 0;
    for (int it = 0; it < 20000; it++) {
        float v[3];
        for (int k = 0; k < 3; k++) {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            uint32_t u = ((uint32_t)s & 0x807fffffu) | ((uint32_t)(100 + (s >> 40) % 56) << 23);
            memcpy(&v[k], &u, 4);
        }
        if (it & 1) v[2] = -(float)((double)v[0] * v[1]);
        float want = fmaf(v[0], v[1], v[2]);
        uint32_t wu;
        memcpy(&wu, &want, 4);
        if (!(wu & 0x7f800000u)) wu &= 0x80000000u;          /* ftz result */
        struct fx f;
        fx_init(&f);
        struct ptx_inst in = inst(PTX_OP_FMA, PTX_T_F32);
        in.rnd = PTX_RND_RN;
        in.flags = FTZ;
        in.o[0] = R(0); in.o[1] = R(1); in.o[2] = R(2); in.o[3] = R(3); in.nopnd = 4;
        for (int k = 0; k < 3; k++) set_reg(&f, k + 1, F(v[k]));
        assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
        if (reg(&f, 0, 0) != wu) bad++;
    }
    assert_int_equal(bad, 0);
}

static void test_testp(void **st)
{
    (void)st;
    static const uint8_t cls[6] = { PTX_SUB_FINITE, PTX_SUB_INFINITE,
        PTX_SUB_NUMBER, PTX_SUB_NOTANUMBER, PTX_SUB_NORMAL, PTX_SUB_SUBNORMAL };
    /* value; expected bit per class in the order above */
    static const struct { uint32_t v; uint8_t want[6]; } c32[] = {
        { 0x3f800000, {1, 0, 1, 0, 1, 0} },
        { 0x00000001, {1, 0, 1, 0, 0, 1} },
        { 0x80000000, {1, 0, 1, 0, 0, 0} },
        { 0x7f800000, {0, 1, 1, 0, 0, 0} },
        { 0xffc00000, {0, 0, 0, 1, 0, 0} },
    };
    for (size_t i = 0; i < 5; i++)
        for (int k = 0; k < 6; k++) {
            struct fx f;
            fx_init(&f);
            struct ptx_inst in = inst(PTX_OP_TESTP, PTX_T_F32);
            in.sub = cls[k];
            in.o[0] = R(0); in.o[1] = R(1); in.nopnd = 2;
            set_reg(&f, 1, c32[i].v);
            assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
            assert_int_equal(reg(&f, 0, 0), c32[i].want[k]);
        }
    struct fx f;
    fx_init(&f);
    struct ptx_inst in = inst(PTX_OP_TESTP, PTX_T_F64);
    in.sub = PTX_SUB_SUBNORMAL;
    in.o[0] = R(0); in.o[1] = R(1); in.nopnd = 2;
    set_reg(&f, 1, 1);
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 0, 0), 1);
}

static void test_cvt(void **st)
{
    (void)st;
    const struct tc t[] = {
        CV(S32, F32, 0, RZI, F(-2.7f), 0xfffffffe),
        CV(S32, F32, 0, RNI, F(2.5f), 2),
        CV(S32, F32, 0, RNI, F(3.5f), 4),
        CV(S32, F32, 0, RMI, F(-2.5f), 0xfffffffd),
        CV(S32, F32, 0, RPI, F(2.1f), 3),
        CV(S32, F32, 0, RZI, F(NAN), 0),
        CV(S32, F32, 0, RZI, F(3e9f), 0x7fffffff),
        CV(S32, F32, 0, RZI, F(-3e9f), 0x80000000),
        CV(S32, F32, FTZ, RPI, 0x00000001, 0),
        CV(S32, F32, 0, RPI, 0x00000001, 1),
        CV(U32, F32, 0, RZI, F(-1), 0),
        CV(U32, F32, 0, RZI, F(5e9f), 0xffffffff),
        CV(U32, F32, 0, RZI, F(7.9f), 7),
        CV(S32, F64, 0, RZI, D(-7.9), 0xfffffff9),
        CV(S32, F64, 0, RNI, D(-2.5), 0xfffffffe),
        CV(S64, F64, 0, RZI, D(-1e30), 0x8000000000000000ull),
        CV(U64, F64, 0, RZI, D(1e30), ~0ull),
        CV(U64, F32, 0, RZI, F(0x1p40f), 1ull << 40),
        CV(U16, F32, 0, RNI, F(70000), 0xffff),
        CV(S16, F32, 0, RNI, F(-70000), 0x8000),
        CV(S8, F32, 0, RZI, F(-3.5f), 0xfffd),           /* s8 sign-extends to 16 */
        CV(S8, F32, 0, RZI, F(-300), 0xff80),
        CV(S8, F32, 0, RZI, F(300), 0x7f),
        CV(U8, F32, 0, RZI, F(300), 0xff),
        CV(S8, S32, 0, NONE, 0x1ff, 0xffff),
        CV(S8, S32, SAT, NONE, 0xfffffe00, 0xff80),
        CV(F32, S32, 0, RN, 16777217, F(16777216)),
        CV(F32, S32, 0, RP, 16777217, F(16777218)),
        CV(F32, S32, 0, RN, 0xffffffff, F(-1)),
        CV(F32, U32, 0, RN, 0xffffffff, 0x4f800000),
        CV(F32, U32, 0, RZ, 0xffffffff, 0x4f7fffff),
        CV(F32, U16, 0, RN, 0xffff, F(65535)),
        CV(F64, S32, 0, RN, 0x80000000, D(-2147483648.0)),
        CV(F64, U64, 0, RZ, ~0ull, 0x43efffffffffffffull),
        CV(F64, U64, 0, RN, ~0ull, D(0x1p64)),
        CV(F32, F64, 0, RN, D(1 + 0x1p-24), F(1)),
        CV(F32, F64, 0, RN, D(1 + 0x1p-24 + 0x1p-40), F(1 + 0x1p-23)),
        CV(F32, F64, 0, RZ, D(1e300), 0x7f7fffff),
        CV(F32, F64, 0, RN, D(1e300), 0x7f800000),
        CV(F32, F64, 0, RM, D(-0.1), 0xbdcccccd),
        CV(F32, F64, 0, RP, D(-0.1), 0xbdcccccc),
        CV(F32, F64, 0, RN, D(0x1p-140), 0x00000200),
        CV(F32, F64, FTZ, RN, D(0x1p-140), 0),
        CV(F64, F32, 0, NONE, F(0.1f), D((double)0.1f)),
        CV(F64, F32, 0, NONE, F(NAN), 0x7fffffffffffffffull),
        CV(F32, F32, SAT, NONE, F(1.5f), F(1)),
        CV(F32, F32, SAT, NONE, F(-0.5f), F(0)),
        CV(F32, F32, SAT, NONE, F(0.5f), F(0.5f)),
        CV(F32, F32, 0, RNI, F(2.5f), F(2)),
        CV(F32, F32, 0, RNI, F(-0.5f), 0x80000000),
        CV(F32, F32, 0, RZI, F(-2.7f), F(-2)),
        CV(F64, F64, 0, RZI, D(-2.5), D(-2)),
        CV(F64, F64, 0, RPI, D(2.0000001), D(3)),
        CV(F64, F64, 0, RMI, D(-2.0000001), D(-3)),
        CV(U16, U32, 0, NONE, 0x12345, 0x2345),
        CV(U32, U16, 0, NONE, 0xfffff, 0xffff),
        CV(S64, S32, 0, NONE, 0xffffffff, ~0ull),
        CV(U64, U32, 0, NONE, 0xffffffff, 0xffffffff),
        CV(S32, S8, 0, NONE, 0x80, 0xffffff80),
        CV(U32, U64, 0, NONE, 0x100000002ull, 2),
        CV(U8, S32, SAT, NONE, 0xfffffffb, 0),
        CV(U8, S32, SAT, NONE, 300, 255),
        CV(S16, S32, SAT, NONE, 40000, 0x7fff),
        CV(S16, S32, SAT, NONE, 0xffff0000, 0x8000),
        CV(U32, S32, SAT, NONE, 0xffffffff, 0),
        CV(S32, U32, SAT, NONE, 0xffffffff, 0x7fffffff),
        CV(F16, F32, 0, RN, F(1), 0x3c00),
        CV(F16, F32, 0, RN, F(65520), 0x7c00),
        CV(F16, F32, 0, RZ, F(65520), 0x7bff),
        CV(F16, F32, 0, RN, F(0x1p-24), 0x0001),
        CV(F32, F16, 0, NONE, 0x3555, 0x3eaaa000),
        CV(F32, F16, 0, NONE, 0xfc00, 0xff800000),
        CV(F64, F16, 0, NONE, 0x0001, D(0x1p-24)),
    };
    RUN(t);
}

/* cvt.rXi.f64.f64 (integral rounding without libm) against libm trunc/
 * floor/ceil/nearbyint on random doubles around the interesting range. */
static void test_cvt_integral_random(void **st)
{
    (void)st;
    static const uint8_t rnd[4] = { PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI,
                                    PTX_RND_RPI };
    uint64_t s = 0x0123456789abcdefull;
    int bad = 0;
    for (int it = 0; it < 20000; it++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        double x = (double)(int64_t)(s >> 8) * 0x1p-40;     /* |x| < 2^16 */
        if (it % 4 == 0) x = (double)(int64_t)(s % 64) * 0.25 - 8;  /* ties */
        if (it % 7 == 0) x = ldexp(x, (int)(s % 80));         /* big values */
        double want[4] = { nearbyint(x), trunc(x), floor(x), ceil(x) };
        for (int k = 0; k < 4; k++) {
            struct fx f;
            fx_init(&f);
            struct ptx_inst in = inst(PTX_OP_CVT, PTX_T_F64);
            in.rnd = rnd[k];
            in.o[0] = R(0); in.o[1] = R(1); in.nopnd = 2;
            set_reg(&f, 1, D(x));
            assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
            if (reg(&f, 0, 0) != D(want[k])) bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* setp p|q, a, b[, c] for one lane. */
static void setp1(unsigned type, unsigned cmp, unsigned sub, uint64_t a,
                  uint64_t b, int c, int cneg, int want_p, int want_q)
{
    struct fx f;
    fx_init(&f);
    struct ptx_inst in = inst(PTX_OP_SETP, type);
    in.cmp = (uint8_t)cmp;
    in.sub = (uint8_t)sub;
    in.o[0] = R(0); in.o[1] = R(5); in.o[2] = R(1); in.o[3] = R(2);
    in.nopnd = 4;
    if (sub) { in.o[4] = R(3); in.o[4].neg = cneg != 0; in.nopnd = 5; }
    set_reg(&f, 1, a);
    set_reg(&f, 2, b);
    set_reg(&f, 3, (uint64_t)c);
    struct exec_error err;
    assert_int_equal(exec_alu(&f.w, &in, 0x3, NULL, &err), 0);
    assert_int_equal(reg(&f, 0, 0), want_p);
    assert_int_equal(reg(&f, 5, 1), want_q);
    assert_int_equal(reg(&f, 0, 2), 0xdeadbeefdeadbeefull);
}

static void test_setp(void **st)
{
    (void)st;
    setp1(PTX_T_S32, PTX_CMP_LT, 0, 0xffffffff, 1, 0, 0, 1, 0);
    setp1(PTX_T_U32, PTX_CMP_LT, 0, 0xffffffff, 1, 0, 0, 0, 1);
    setp1(PTX_T_S32, PTX_CMP_LO, 0, 0xffffffff, 1, 0, 0, 0, 1);
    setp1(PTX_T_S32, PTX_CMP_HI, 0, 0xffffffff, 1, 0, 0, 1, 0);
    setp1(PTX_T_S32, PTX_CMP_EQ, 0, 5, 5, 0, 0, 1, 0);
    setp1(PTX_T_S32, PTX_CMP_NE, 0, 5, 5, 0, 0, 0, 1);
    setp1(PTX_T_S32, PTX_CMP_LE, 0, 5, 5, 0, 0, 1, 0);
    setp1(PTX_T_S32, PTX_CMP_GT, 0, 6, 5, 0, 0, 1, 0);
    setp1(PTX_T_S32, PTX_CMP_GE, 0, 4, 5, 0, 0, 0, 1);
    setp1(PTX_T_U32, PTX_CMP_GE, 0, 0x80000000, 5, 0, 0, 1, 0);
    setp1(PTX_T_U32, PTX_CMP_GT, 0, 0x80000000, 5, 0, 0, 1, 0);
    setp1(PTX_T_U32, PTX_CMP_LE, 0, 4, 5, 0, 0, 1, 0);
    setp1(PTX_T_S16, PTX_CMP_EQ, 0, 0xffff, 0x1ffff, 0, 0, 1, 0);
    setp1(PTX_T_S16, PTX_CMP_GT, 0, 0x8000, 1, 0, 0, 0, 1);
    setp1(PTX_T_S16, PTX_CMP_NE, 0, 1, 2, 0, 0, 1, 0);
    setp1(PTX_T_U16, PTX_CMP_LT, 0, 1, 0x8000, 0, 0, 1, 0);
    setp1(PTX_T_U16, PTX_CMP_LE, 0, 1, 1, 0, 0, 1, 0);
    setp1(PTX_T_B32, PTX_CMP_EQ, 0, 7, 7, 0, 0, 1, 0);
    setp1(PTX_T_S64, PTX_CMP_LT, 0, ~0ull, 0, 0, 0, 1, 0);
    setp1(PTX_T_S64, PTX_CMP_GE, 0, ~0ull, 0, 0, 0, 0, 1);
    setp1(PTX_T_S64, PTX_CMP_GT, 0, 1, 0, 0, 0, 1, 0);
    setp1(PTX_T_S64, PTX_CMP_EQ, 0, 1, 1, 0, 0, 1, 0);
    setp1(PTX_T_S64, PTX_CMP_NE, 0, 1, 1, 0, 0, 0, 1);
    setp1(PTX_T_S64, PTX_CMP_LE, 0, 1, 1, 0, 0, 1, 0);
    setp1(PTX_T_U64, PTX_CMP_GE, 0, ~0ull, 0, 0, 0, 1, 0);
    setp1(PTX_T_U64, PTX_CMP_GT, 0, ~0ull, 0, 0, 0, 1, 0);
    setp1(PTX_T_U64, PTX_CMP_LT, 0, ~0ull, 0, 0, 0, 0, 1);
    setp1(PTX_T_F32, PTX_CMP_EQ, 0, F(NAN), F(NAN), 0, 0, 0, 1);
    setp1(PTX_T_F32, PTX_CMP_NE, 0, F(NAN), F(1), 0, 0, 0, 1);
    setp1(PTX_T_F32, PTX_CMP_NEU, 0, F(NAN), F(1), 0, 0, 1, 0);
    setp1(PTX_T_F32, PTX_CMP_EQ, 0, F(0.0f), F(-0.0f), 0, 0, 1, 0);
    setp1(PTX_T_F32, PTX_CMP_LT, 0, F(-1), F(1), 0, 0, 1, 0);
    setp1(PTX_T_F32, PTX_CMP_LT, 0, F(NAN), F(1), 0, 0, 0, 1);
    setp1(PTX_T_F32, PTX_CMP_LTU, 0, F(NAN), F(1), 0, 0, 1, 0);
    setp1(PTX_T_F32, PTX_CMP_LTU, 0, F(2), F(1), 0, 0, 0, 1);
    setp1(PTX_T_F32, PTX_CMP_GT, 0, F(2), F(1), 0, 0, 1, 0);
    setp1(PTX_T_F32, PTX_CMP_GE, 0, F(1), F(1), 0, 0, 1, 0);
    setp1(PTX_T_F32, PTX_CMP_LE, 0, F(1), F(1), 0, 0, 1, 0);
    setp1(PTX_T_F32, PTX_CMP_GEU, 0, F(0), F(NAN), 0, 0, 1, 0);
    setp1(PTX_T_F32, PTX_CMP_GEU, 0, F(0), F(1), 0, 0, 0, 1);
    setp1(PTX_T_F32, PTX_CMP_GTU, 0, F(1), F(1), 0, 0, 0, 1);
    setp1(PTX_T_F32, PTX_CMP_LEU, 0, F(2), F(NAN), 0, 0, 1, 0);
    setp1(PTX_T_F32, PTX_CMP_NUM, 0, F(2), F(1), 0, 0, 1, 0);
    setp1(PTX_T_F32, PTX_CMP_NAN, 0, F(2), F(NAN), 0, 0, 1, 0);
    setp1(PTX_T_F64, PTX_CMP_EQ, 0, D(1), D(1), 0, 0, 1, 0);
    setp1(PTX_T_F64, PTX_CMP_LT, 0, D(1), D(2), 0, 0, 1, 0);
    setp1(PTX_T_F64, PTX_CMP_GT, 0, D(1), D(2), 0, 0, 0, 1);
    setp1(PTX_T_F64, PTX_CMP_GE, 0, D(2), D(2), 0, 0, 1, 0);
    setp1(PTX_T_F64, PTX_CMP_GTU, 0, D(NAN), D(2), 0, 0, 1, 0);
    setp1(PTX_T_F64, PTX_CMP_NEU, 0, D(NAN), D(NAN), 0, 0, 1, 0);
    setp1(PTX_T_F64, PTX_CMP_LTU, 0, D(3), D(2), 0, 0, 0, 1);
    /* bool-op with c (and its negation): p = cmp OP c, q = !cmp OP c */
    setp1(PTX_T_S32, PTX_CMP_LT, PTX_SUB_AND, 1, 2, 1, 0, 1, 0);
    setp1(PTX_T_S32, PTX_CMP_LT, PTX_SUB_AND, 1, 2, 1, 1, 0, 0);
    setp1(PTX_T_S32, PTX_CMP_LT, PTX_SUB_OR, 3, 2, 1, 0, 1, 1);
    setp1(PTX_T_S32, PTX_CMP_LT, PTX_SUB_XOR, 1, 2, 1, 0, 0, 1);
    /* .ftz: a subnormal compares equal to zero */
    {
        struct fx f;
        fx_init(&f);
        struct ptx_inst in = inst(PTX_OP_SETP, PTX_T_F32);
        in.cmp = PTX_CMP_EQ;
        in.flags = FTZ;
        in.o[0] = R(0); in.o[2] = R(1); in.o[3] = IMM(0); in.nopnd = 4;
        set_reg(&f, 1, 1);
        assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
        assert_int_equal(reg(&f, 0, 0), 1);
        in.flags = 0;
        assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
        assert_int_equal(reg(&f, 0, 0), 0);
    }
}

static void test_set_selp_slct(void **st)
{
    (void)st;
    struct fx f;
    fx_init(&f);
    struct ptx_inst in = inst(PTX_OP_SET, PTX_T_U32);
    in.type2 = PTX_T_F32;
    in.cmp = PTX_CMP_LT;
    in.o[0] = R(0); in.o[1] = R(1); in.o[2] = R(2); in.nopnd = 3;
    set_reg(&f, 1, F(1));
    set_reg(&f, 2, F(2));
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 0, 0), 0xffffffff);
    in.type = PTX_T_F32;
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 0, 0), 0x3f800000);
    in.cmp = PTX_CMP_GT;
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 0, 0), 0);

    const unsigned selp_types[] = { PTX_T_B32, PTX_T_F32, PTX_T_F64, PTX_T_U32,
        PTX_T_B64, PTX_T_B16, PTX_T_U16, PTX_T_U64 };
    for (size_t i = 0; i < 8; i++) {
        fx_init(&f);
        in = inst(PTX_OP_SELP, selp_types[i]);
        in.o[0] = R(0); in.o[1] = R(1); in.o[2] = IMM(-2); in.o[3] = R(3);
        in.nopnd = 4;
        set_reg(&f, 1, 0x1111222233334444ull);
        f.regs[3 * EXEC_WARP + 0] = 1;
        f.regs[3 * EXEC_WARP + 1] = 0;
        assert_int_equal(exec_alu(&f.w, &in, 3, NULL, NULL), 0);
        uint64_t k = tmask(selp_types[i]);
        assert_int_equal(reg(&f, 0, 0), 0x1111222233334444ull & k);
        assert_int_equal(reg(&f, 0, 1), 0xfffffffffffffffeull & k);
        in.o[3].neg = true;
        assert_int_equal(exec_alu(&f.w, &in, 3, NULL, NULL), 0);
        assert_int_equal(reg(&f, 0, 1), 0x1111222233334444ull & k);
    }

    fx_init(&f);
    in = inst(PTX_OP_SLCT, PTX_T_S32);
    in.type2 = PTX_T_S32;
    in.o[0] = R(0); in.o[1] = IMM(10); in.o[2] = IMM(20); in.o[3] = R(3);
    in.nopnd = 4;
    f.regs[3 * EXEC_WARP + 0] = 0;
    f.regs[3 * EXEC_WARP + 1] = 0xffffffff;
    assert_int_equal(exec_alu(&f.w, &in, 3, NULL, NULL), 0);
    assert_int_equal(reg(&f, 0, 0), 10);
    assert_int_equal(reg(&f, 0, 1), 20);
    in.type2 = PTX_T_F32;
    f.regs[3 * EXEC_WARP + 0] = F(-0.0f);
    f.regs[3 * EXEC_WARP + 1] = F(NAN);
    assert_int_equal(exec_alu(&f.w, &in, 3, NULL, NULL), 0);
    assert_int_equal(reg(&f, 0, 0), 10);
    assert_int_equal(reg(&f, 0, 1), 20);
}

/* 96-bit add/sub and a 64x32 multiply-accumulate through the carry flag. */
static void test_carry_chains(void **st)
{
    (void)st;
    struct fx f;
    fx_init(&f);
    /* x = 0x00000001_ffffffff_ffffffff + 0x00000002_00000000_00000001 */
    uint32_t x[3] = { 0xffffffff, 0xffffffff, 1 }, y[3] = { 1, 0, 2 };
    const unsigned ops[3] = { PTX_OP_ADD, PTX_OP_ADDC, PTX_OP_ADDC };
    for (int i = 0; i < 3; i++) {
        struct ptx_inst in = inst(ops[i], PTX_T_U32);
        in.flags = i < 2 ? PTX_F_CC : 0;
        in.o[0] = R(i); in.o[1] = R(4); in.o[2] = R(5); in.nopnd = 3;
        set_reg(&f, 4, x[i]);
        set_reg(&f, 5, y[i]);
        assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    }
    assert_int_equal(reg(&f, 0, 0), 0);
    assert_int_equal(reg(&f, 1, 0), 0);
    assert_int_equal(reg(&f, 2, 0), 4);
    /* 0x1_00000000_00000000 - 1 = 0x0_ffffffff_ffffffff via sub.cc/subc */
    uint32_t a[3] = { 0, 0, 1 }, b[3] = { 1, 0, 0 };
    const unsigned sops[3] = { PTX_OP_SUB, PTX_OP_SUBC, PTX_OP_SUBC };
    for (int i = 0; i < 3; i++) {
        struct ptx_inst in = inst(sops[i], PTX_T_U32);
        in.flags = i < 2 ? PTX_F_CC : 0;
        in.o[0] = R(i); in.o[1] = R(4); in.o[2] = R(5); in.nopnd = 3;
        set_reg(&f, 4, a[i]);
        set_reg(&f, 5, b[i]);
        assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    }
    assert_int_equal(reg(&f, 0, 0), 0xffffffff);
    assert_int_equal(reg(&f, 1, 0), 0xffffffff);
    assert_int_equal(reg(&f, 2, 0), 0);
    /* {hi,lo} = 0xffffffff * 0xffffffff + {0, 0xffffffff} = {0xffffffff, 0}:
     * mad.lo.cc lo = lo(a*b) + c_lo; madc.hi hi = hi(a*b) + c_hi + carry */
    struct ptx_inst in = inst(PTX_OP_MAD, PTX_T_U32);
    in.flags = PTX_F_LO | PTX_F_CC;
    in.o[0] = R(0); in.o[1] = R(4); in.o[2] = R(4); in.o[3] = R(5); in.nopnd = 4;
    set_reg(&f, 4, 0xffffffff);
    set_reg(&f, 5, 0xffffffff);
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 0, 0), 0);              /* 1 + 0xffffffff */
    assert_int_equal(f.w.carry[0], 1);
    in = inst(PTX_OP_MADC, PTX_T_U32);
    in.flags = PTX_F_HI | PTX_F_CC;
    in.o[0] = R(1); in.o[1] = R(4); in.o[2] = R(4); in.o[3] = IMM(0); in.nopnd = 4;
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 1, 0), 0xffffffff);     /* 0xfffffffe + 0 + 1 */
    assert_int_equal(f.w.carry[0], 0);
    in.flags = PTX_F_LO | PTX_F_CC;                  /* madc.lo.cc */
    f.w.carry[0] = 1;
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 1, 0), 2);              /* 1 + 0 + 1 */
    assert_int_equal(f.w.carry[0], 0);
    in.o[3] = IMM(0xffffffff);                       /* 1 + 0xffffffff + 1 */
    f.w.carry[0] = 1;
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 1, 0), 1);
    assert_int_equal(f.w.carry[0], 1);
    in.o[3] = IMM(0);
    in.flags = PTX_F_HI;                             /* madc.hi, no .cc */
    f.w.carry[0] = 1;
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 1, 0), 0xffffffff);
    assert_int_equal(f.w.carry[0], 1);               /* unchanged */
    /* 64-bit add.cc carries out of bit 63 */
    in = inst(PTX_OP_ADD, PTX_T_U64);
    in.flags = PTX_F_CC;
    in.o[0] = R(0); in.o[1] = R(4); in.o[2] = IMM(1); in.nopnd = 3;
    set_reg(&f, 4, ~0ull);
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 0, 0), 0);
    assert_int_equal(f.w.carry[0], 1);
}

static void test_mov_and_sregs(void **st)
{
    (void)st;
    struct fx f;
    fx_init(&f);
    struct ptx_inst in = inst(PTX_OP_MOV, PTX_T_U32);
    in.o[0] = R(0); in.nopnd = 2;
    in.o[1] = R(-1);
    in.o[1].kind = PTX_O_SREG;
    in.o[1].sreg = PTX_SR_TID_X;
    assert_int_equal(exec_alu(&f.w, &in, ~0u, NULL, NULL), 0);
    for (unsigned l = 0; l < EXEC_WARP; l++) assert_int_equal(reg(&f, 0, l), 64 + l);
    static const struct { uint8_t sr; unsigned lane; uint64_t want; } sr[] = {
        { PTX_SR_TID_Y, 5, 3 }, { PTX_SR_NTID_X, 5, 128 }, { PTX_SR_NTID_Y, 0, 4 },
        { PTX_SR_CTAID_X, 9, 7 }, { PTX_SR_NCTAID_X, 9, 9 }, { PTX_SR_LANEID, 17, 17 },
        { PTX_SR_WARPID, 3, 2 }, { PTX_SR_LANEMASK_EQ, 4, 0x10 },
        { PTX_SR_LANEMASK_LT, 4, 0xf }, { PTX_SR_LANEMASK_LE, 4, 0x1f },
        { PTX_SR_LANEMASK_GT, 4, 0xffffffe0 }, { PTX_SR_LANEMASK_GE, 4, 0xfffffff0 },
        { PTX_SR_LANEMASK_LE, 31, 0xffffffff }, { PTX_SR_LANEMASK_GT, 31, 0 },
    };
    for (size_t i = 0; i < sizeof sr / sizeof sr[0]; i++) {
        in.o[1].sreg = sr[i].sr;
        assert_int_equal(exec_alu(&f.w, &in, ~0u, NULL, NULL), 0);
        assert_int_equal(reg(&f, 0, sr[i].lane), sr[i].want);
    }
    /* immediates of every census type, predicate, symbol addresses */
    static const struct { uint8_t t; int64_t imm; uint64_t want; } im[] = {
        { PTX_T_U32, -1, 0xffffffff }, { PTX_T_B64, -1, ~0ull },
        { PTX_T_F64, 0x3ff0000000000000ll, 0x3ff0000000000000ull },
        { PTX_T_F32, 0x3f800000, 0x3f800000 }, { PTX_T_B32, 7, 7 },
        { PTX_T_U16, 0x12345, 0x2345 }, { PTX_T_PRED, 1, 1 }, { PTX_T_U64, 5, 5 },
    };
    for (size_t i = 0; i < sizeof im / sizeof im[0]; i++) {
        in = inst(PTX_OP_MOV, im[i].t);
        in.o[0] = R(0); in.o[1] = IMM(im[i].imm); in.nopnd = 2;
        assert_int_equal(exec_alu(&f.w, &in, ~0u, NULL, NULL), 0);
        assert_int_equal(reg(&f, 0, 13), im[i].want);
    }
    in = inst(PTX_OP_MOV, PTX_T_U64);
    in.o[0] = R(0); in.nopnd = 2;
    in.o[1] = R(-1);
    in.o[1].kind = PTX_O_SYM;
    in.o[1].sym.scope = 0; in.o[1].sym.index = 1; in.o[1].imm = 8;
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 0, 0), 0x10000008);
    in.type = PTX_T_U32;
    in.o[1].sym.scope = 1; in.o[1].sym.index = 2; in.o[1].imm = 0;
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 0, 0), 0x40);
    /* mov.pred p, q and a register move that truncates to 32 bits */
    in = inst(PTX_OP_MOV, PTX_T_PRED);
    in.o[0] = R(0); in.o[1] = R(1); in.nopnd = 2;
    set_reg(&f, 1, 1);
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 0, 0), 1);
    in.type = PTX_T_F32;
    set_reg(&f, 1, 0xabcdef0012345678ull);
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 0, 0), 0x12345678);
    /* mov.b64 {lo, hi}, %rd and mov.b64 %rd, {lo, hi}; b32 from two b16 */
    in = inst(PTX_OP_MOV, PTX_T_B64);
    in.o[0] = R(-1);
    in.o[0].kind = PTX_O_VEC; in.o[0].vec_n = 2;
    in.o[0].vec_regs[0] = 2; in.o[0].vec_regs[1] = 3;
    in.o[1] = R(1); in.nopnd = 2;
    set_reg(&f, 1, 0x1122334455667788ull);
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 2, 0), 0x55667788);
    assert_int_equal(reg(&f, 3, 0), 0x11223344);
    struct ptx_operand v = in.o[0];
    in.o[0] = R(4);
    v.vec_regs[0] = 3; v.vec_regs[1] = 2;
    in.o[1] = v;
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 4, 0), 0x5566778811223344ull);
    in.type = PTX_T_B32;
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 4, 0), 0x77883344);
    in.o[0] = v;
    in.o[0].vec_regs[0] = -1;                        /* '_' sink */
    in.o[1] = R(4);
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, NULL), 0);
    assert_int_equal(reg(&f, 2, 0), 0x7788);
}

static void test_guard_lanes_and_widths(void **st)
{
    (void)st;
    struct fx f;
    fx_init(&f);
    for (unsigned l = 0; l < EXEC_WARP; l++) {
        f.regs[1 * EXEC_WARP + l] = l | 0xffffffff00000000ull;  /* high junk */
        f.regs[6 * EXEC_WARP + l] = l & 1;                      /* guard */
    }
    struct ptx_inst in = inst(PTX_OP_ADD, PTX_T_U32);
    in.o[0] = R(0); in.o[1] = R(1); in.o[2] = IMM(100); in.nopnd = 3;
    in.guard = 6;
    struct exec_result res;
    assert_int_equal(exec_alu(&f.w, &in, 0x0000ffffu, &res, NULL), 0);
    assert_int_equal(res.active, 0x0000aaaau);
    for (unsigned l = 0; l < EXEC_WARP; l++) {
        uint64_t want = (l & 1) && l < 16 ? 100 + l : 0xdeadbeefdeadbeefull;
        assert_int_equal(reg(&f, 0, l), want);       /* 32-bit result zero-extended */
    }
    in.guard_neg = true;
    assert_int_equal(exec_alu(&f.w, &in, ~0u, &res, NULL), 0);
    assert_int_equal(res.active, 0x55555555u);
    assert_int_equal(reg(&f, 0, 2), 102);
    /* exec_read / exec_write / exec_guard_mask directly */
    struct ptx_operand p = R(6);
    p.neg = true;
    assert_int_equal(exec_read(&f.w, &p, PTX_T_PRED, 3), 0);
    assert_int_equal(exec_read(&f.w, &p, PTX_T_PRED, 4), 1);
    struct ptx_operand r1 = R(1);
    assert_int_equal(exec_read(&f.w, &r1, PTX_T_U16, 5), 5);
    assert_int_equal(exec_read(&f.w, &r1, PTX_T_B64, 5), 0xffffffff00000005ull);
    exec_write(&f.w, &r1, PTX_T_U32, 7, 0x123456789ull);
    assert_int_equal(reg(&f, 1, 7), 0x23456789);
    exec_write(&f.w, &r1, PTX_T_PRED, 7, 4);
    assert_int_equal(reg(&f, 1, 7), 1);
    in.guard_neg = false;
    assert_int_equal(exec_guard_mask(&f.w, &in, 0xf0f0f0f0u), 0xa0a0a0a0u);
}

static void test_errors(void **st)
{
    (void)st;
    struct fx f;
    fx_init(&f);
    struct exec_error err;
    struct ptx_inst in = inst(PTX_OP_DIV, PTX_T_F16);
    in.rnd = PTX_RND_RN;
    in.line = 42;
    in.col = 5;
    in.o[0] = R(0); in.o[1] = R(1); in.o[2] = R(2); in.nopnd = 3;
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "line 42:5"));
    assert_non_null(strstr(err.msg, "div.f16"));
    in = inst(PTX_OP_ADD, PTX_T_U32);
    in.o[0] = R(NREGS); in.o[1] = R(1); in.o[2] = R(2); in.nopnd = 3;
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "destination"));
    in.o[0] = R(0); in.o[2] = R(99);
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, &err), -1);
    in = inst(PTX_OP_LD, PTX_T_U32);
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "ld"));
    in = inst(PTX_OP_EX2, PTX_T_F64);
    in.flags = APX;
    in.o[0] = R(0); in.o[1] = R(1); in.nopnd = 2;
    assert_int_equal(exec_alu(&f.w, &in, 1, NULL, &err), -1);
    /* an empty mask executes nothing and succeeds */
    in = inst(PTX_OP_ADD, PTX_T_F16);
    assert_int_equal(exec_alu(&f.w, &in, 0, NULL, &err), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int_arith),
        cmocka_unit_test(test_bits),
        cmocka_unit_test(test_shf),
        cmocka_unit_test(test_float_rounding),
        cmocka_unit_test(test_float_misc),
        cmocka_unit_test(test_fma32_software_path),
        cmocka_unit_test(test_testp),
        cmocka_unit_test(test_cvt),
        cmocka_unit_test(test_cvt_integral_random),
        cmocka_unit_test(test_setp),
        cmocka_unit_test(test_set_selp_slct),
        cmocka_unit_test(test_carry_chains),
        cmocka_unit_test(test_mov_and_sregs),
        cmocka_unit_test(test_guard_lanes_and_widths),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests_name("exec_ops", tests, NULL, NULL);
}
