/* Unit tests of CAE, compact affine execution (csim/core/core_cae.[ch],
 * docs/dac.md "Comparison points"): the lane detector (uniform, affine
 * with any stride modulo the register width, a partial write, a
 * predicate), the result rule of each affine-keeping op and of ops that
 * are not, and a warp's sequence of hand-built instructions through
 * core_cae_retire: %tid.x makes an affine register, an add of it runs
 * compactly, an affine x affine product does not and its result is a
 * vector, a divergent write expands a register, a widening cvt that wraps
 * falls back to every lane, a load at an affine address is compact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/core_cae.h"
#include "simt/simt.h"

#define ALL 0xffffffffu

static void test_detect(void **st)
{
    (void)st;
    uint64_t v[32];
    for (unsigned l = 0; l < 32; l++)
        v[l] = 77;
    assert_int_equal(core_cae_detect(v, 32, ALL), CORE_CAE_UNI);
    assert_int_equal(core_cae_detect(v, 32, 0xffff), CORE_CAE_VEC);   /* partial write */
    for (unsigned l = 0; l < 32; l++)
        v[l] = 1000 - 8ull * l;                                       /* negative stride */
    assert_int_equal(core_cae_detect(v, 64, ALL), CORE_CAE_AFF);
    for (unsigned l = 0; l < 32; l++)
        v[l] = (0xfffffff0ull + l) & 0xffffffffull;                   /* wraps at 2^32 */
    assert_int_equal(core_cae_detect(v, 32, ALL), CORE_CAE_AFF);
    assert_int_equal(core_cae_detect(v, 64, ALL), CORE_CAE_VEC);
    v[31] ^= 1;
    assert_int_equal(core_cae_detect(v, 32, ALL), CORE_CAE_VEC);      /* one lane off */
    for (unsigned l = 0; l < 32; l++)
        v[l] = l < 16;                                                /* a predicate */
    assert_int_equal(core_cae_detect(v, 1, ALL), CORE_CAE_VEC);
    for (unsigned l = 0; l < 32; l++)
        v[l] = 1 | (l << 1);                                          /* bit 0 equal */
    assert_int_equal(core_cae_detect(v, 1, ALL), CORE_CAE_UNI);
}

static struct ptx_inst mk(enum ptx_op op, enum ptx_type t)
{
    struct ptx_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint8_t)op;
    in.type = (uint8_t)t;
    in.guard = -1;
    return in;
}

static void test_result_rule(void **st)
{
    (void)st;
    const uint8_t U = CORE_CAE_UNI, A = CORE_CAE_AFF, V = CORE_CAE_VEC;
    struct ptx_inst in = mk(PTX_OP_ADD, PTX_T_U32);
    assert_int_equal(core_cae_result(&in, (uint8_t[]){A, U}, 2), A);
    assert_int_equal(core_cae_result(&in, (uint8_t[]){A, A}, 2), A);
    assert_int_equal(core_cae_result(&in, (uint8_t[]){A, V}, 2), V);
    in.flags = PTX_F_SAT;
    assert_int_equal(core_cae_result(&in, (uint8_t[]){A, U}, 2), V);
    in = mk(PTX_OP_ADD, PTX_T_F32);                   /* float: not exact */
    assert_int_equal(core_cae_result(&in, (uint8_t[]){A, U}, 2), V);
    assert_int_equal(core_cae_result(&in, (uint8_t[]){U, U}, 2), U);
    in = mk(PTX_OP_MUL, PTX_T_S32);
    assert_int_equal(core_cae_result(&in, (uint8_t[]){A, U}, 2), A);
    assert_int_equal(core_cae_result(&in, (uint8_t[]){A, A}, 2), V);
    in.flags = PTX_F_HI;
    assert_int_equal(core_cae_result(&in, (uint8_t[]){A, U}, 2), V);
    in = mk(PTX_OP_MAD, PTX_T_S32);
    assert_int_equal(core_cae_result(&in, (uint8_t[]){U, A, A}, 3), A);
    assert_int_equal(core_cae_result(&in, (uint8_t[]){U, U, A}, 3), A);
    assert_int_equal(core_cae_result(&in, (uint8_t[]){A, A, U}, 3), V);
    in = mk(PTX_OP_SHL, PTX_T_B32);
    assert_int_equal(core_cae_result(&in, (uint8_t[]){A, U}, 2), A);
    assert_int_equal(core_cae_result(&in, (uint8_t[]){U, A}, 2), V);
    in = mk(PTX_OP_AND, PTX_T_B32);
    assert_int_equal(core_cae_result(&in, (uint8_t[]){A, U}, 2), V);
    assert_int_equal(core_cae_result(&in, (uint8_t[]){U, U}, 2), U);
    in = mk(PTX_OP_SETP, PTX_T_PRED);
    in.type2 = PTX_T_S32;
    assert_int_equal(core_cae_result(&in, (uint8_t[]){A, U}, 2), V);
    in = mk(PTX_OP_CVT, PTX_T_U64);
    in.type2 = PTX_T_U32;
    assert_int_equal(core_cae_result(&in, (uint8_t[]){A}, 1), A);
    in.type2 = PTX_T_F32;
    assert_int_equal(core_cae_result(&in, (uint8_t[]){A}, 1), V);
}

/* one warp, %r0 %r1 %r2 .u32 and %rd3 .u64 */
struct fx {
    struct core_cae u;
    struct simt_warp w;
    struct ptx_func f;
    struct ptx_reg regs[4];
    struct ptx_inst insts[1];
    uint64_t rv[4 * 32];
};

static struct fx *fx_new(void)
{
    struct fx *x = calloc(1, sizeof *x);
    assert_non_null(x);
    static const char *const nm[4] = { "%r0", "%r1", "%r2", "%rd3" };
    static const uint8_t ty[4] = { PTX_T_U32, PTX_T_U32, PTX_T_U32, PTX_T_U64 };
    for (unsigned i = 0; i < 4; i++) {
        x->regs[i].name = nm[i];
        x->regs[i].type = ty[i];
    }
    x->f.name = "k";
    x->f.regs = x->regs;
    x->f.nregs = 4;
    x->f.insts = x->insts;
    x->f.ninsts = 1;
    x->f.is_entry = true;
    x->w.frames[0].regs = x->rv;
    x->w.frames[0].func = &x->f;
    x->w.nframes = 1;
    char err[128];
    assert_int_equal(core_cae_init(&x->u, 2, 4, err, sizeof err), 0);
    core_cae_warp_start(&x->u, 1);
    return x;
}

static struct ptx_operand reg(int32_t r)
{
    struct ptx_operand o;
    memset(&o, 0, sizeof o);
    o.kind = PTX_O_REG;
    o.reg = r;
    return o;
}

/* Runs in (already "executed": the lanes of its destination set by the
 * caller) in slot 1, unit, mask; returns whether it was compact. */
static bool run(struct fx *x, struct ptx_inst in, unsigned unit, uint32_t mask)
{
    x->insts[0] = in;
    return core_cae_retire(&x->u, 1, &x->w, 0, &x->f, 0, unit, mask);
}

static void set(struct fx *x, unsigned r, uint64_t base, uint64_t stride, uint64_t wrap)
{
    for (unsigned l = 0; l < 32; l++)
        x->rv[r * 32 + l] = (base + stride * l) & wrap;
}

static void test_retire_sequence(void **st)
{
    (void)st;
    struct fx *x = fx_new();
    const uint8_t *cls = x->u.cls + 1 * 4;
    /* mov.u32 %r0, %tid.x: lanes 0..31 */
    struct ptx_inst in = mk(PTX_OP_MOV, PTX_T_U32);
    in.nopnd = 2;
    in.o[0] = reg(0);
    in.o[1].kind = PTX_O_SREG;
    in.o[1].sreg = PTX_SR_TID_X;
    set(x, 0, 0, 1, ~0ull);
    assert_true(run(x, in, 0, ALL));
    assert_int_equal(cls[0], CORE_CAE_AFF);
    /* add.u32 %r1, %r0, 5 */
    in = mk(PTX_OP_ADD, PTX_T_U32);
    in.nopnd = 3;
    in.o[0] = reg(1);
    in.o[1] = reg(0);
    in.o[2].kind = PTX_O_IMM;
    in.o[2].imm = 5;
    set(x, 1, 5, 1, ~0ull);
    assert_true(run(x, in, 0, ALL));
    assert_int_equal(cls[1], CORE_CAE_AFF);
    /* mul.lo.u32 %r2, %r0, %r1: affine x affine runs on every lane */
    in = mk(PTX_OP_MUL, PTX_T_U32);
    in.nopnd = 3;
    in.o[0] = reg(2);
    in.o[1] = reg(0);
    in.o[2] = reg(1);
    for (unsigned l = 0; l < 32; l++)
        x->rv[2 * 32 + l] = l * (l + 5);
    assert_false(run(x, in, 0, ALL));
    assert_int_equal(cls[2], CORE_CAE_VEC);
    /* add.u32 %r1, %r2, %r0: a vector source */
    in = mk(PTX_OP_ADD, PTX_T_U32);
    in.nopnd = 3;
    in.o[0] = reg(1);
    in.o[1] = reg(2);
    in.o[2] = reg(0);
    for (unsigned l = 0; l < 32; l++)
        x->rv[1 * 32 + l] = l * (l + 5) + l;
    assert_false(run(x, in, 0, ALL));
    assert_int_equal(cls[1], CORE_CAE_VEC);
    /* mov.u32 %r1, 7 under half the warp: not compact, expanded */
    in = mk(PTX_OP_MOV, PTX_T_U32);
    in.nopnd = 2;
    in.o[0] = reg(1);
    in.o[1].kind = PTX_O_IMM;
    in.o[1].imm = 7;
    assert_false(run(x, in, 0, 0xffff));
    assert_int_equal(cls[1], CORE_CAE_VEC);
    /* ... and under the full warp: uniform */
    set(x, 1, 7, 0, ~0ull);
    assert_true(run(x, in, 0, ALL));
    assert_int_equal(cls[1], CORE_CAE_UNI);
    /* cvt.u64.u32 %rd3, %r0 where %r0 wraps at 2^32: falls back */
    set(x, 0, 0xfffffff0ull, 1, 0xffffffffull);
    in = mk(PTX_OP_ADD, PTX_T_U32);             /* %r0 = %r0 + uniform: affine */
    in.nopnd = 3;
    in.o[0] = reg(0);
    in.o[1] = reg(0);
    in.o[2] = reg(1);
    assert_true(run(x, in, 0, ALL));
    assert_int_equal(cls[0], CORE_CAE_AFF);
    in = mk(PTX_OP_CVT, PTX_T_U64);
    in.type2 = PTX_T_U32;
    in.nopnd = 2;
    in.o[0] = reg(3);
    in.o[1] = reg(0);
    set(x, 3, 0xfffffff0ull, 1, 0xffffffffull);
    uint64_t fb = x->u.st.fallback;
    assert_false(run(x, in, 0, ALL));
    assert_int_equal(x->u.st.fallback, fb + 1);
    assert_int_equal(cls[3], CORE_CAE_VEC);
    /* without the wrap the same cvt is compact */
    set(x, 0, 0x1000, 4, 0xffffffffull);
    set(x, 3, 0x1000, 4, ~0ull);
    in = mk(PTX_OP_CVT, PTX_T_U64);
    in.type2 = PTX_T_U32;
    in.nopnd = 2;
    in.o[0] = reg(3);
    in.o[1] = reg(0);
    assert_true(run(x, in, 0, ALL));
    assert_int_equal(cls[3], CORE_CAE_AFF);
    /* ld.global.u32 %r2, [%rd3]: affine address, compact address
     * generation; the loaded lanes are a vector */
    in = mk(PTX_OP_LD, PTX_T_U32);
    in.space = PTX_SP_GLOBAL;
    in.nopnd = 2;
    in.o[0] = reg(2);
    in.o[1].kind = PTX_O_MEM;
    in.o[1].reg = 3;
    in.o[1].sym.index = -1;
    for (unsigned l = 0; l < 32; l++)
        x->rv[2 * 32 + l] = l * l;
    assert_true(run(x, in, 2, ALL));
    assert_int_equal(cls[2], CORE_CAE_VEC);
    /* the same load through a vector address is not */
    in.o[1].reg = 2;
    assert_false(run(x, in, 2, ALL));
    assert_int_equal(x->u.st.compact[0], 5);
    assert_int_equal(x->u.st.compact[2], 1);
    assert_int_equal(x->u.st.insts, 11);
    assert_int_equal(x->u.st.writes_affine, 4);   /* tid, add, add, cvt */
    /* a call (another frame count) forgets every class */
    x->w.nframes = 2;
    x->w.frames[1] = x->w.frames[0];
    in = mk(PTX_OP_MOV, PTX_T_U32);
    in.nopnd = 2;
    in.o[0] = reg(1);
    in.o[1] = reg(0);
    set(x, 1, 0x1000, 4, ~0ull);
    assert_false(run(x, in, 0, ALL));          /* %r0 unknown now */
    assert_int_equal(cls[3], CORE_CAE_VEC);
    core_cae_free(&x->u);
    free(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_detect),
        cmocka_unit_test(test_result_rule),
        cmocka_unit_test(test_retire_sequence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
