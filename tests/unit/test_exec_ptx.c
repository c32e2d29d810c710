/* ALU/SFU semantics end to end from PTX text: snippets in nvcc's spelling
 * (hex/float/double immediates, negative immediates, predicates with '!',
 * setp p|q, vector mov, special registers, symbols) are parsed by
 * ptx_parse, executed instruction by instruction with exec_alu on one warp,
 * and the registers compared with hand-computed values. This checks that
 * the parser's operand layout and modifier decoding and exec agree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "ptx/ptx_ir.h"

#define HEADER ".version 9.0\n.target sm_75\n.address_size 64\n"

struct run {
    struct ptx_module *m;
    const struct ptx_func *f;
    uint64_t *regs;
    struct exec_warp w;
    struct exec_grid g;
    uint64_t sym0[8], sym1[16];
};

/* Parses body as the kernel "k" and executes every ALU/SFU instruction on
 * the lanes of mask, in order (the snippets are straight-line). */
static void run_body(struct run *r, const char *decls, const char *body,
                     uint32_t mask)
{
    char text[8192];
    snprintf(text, sizeof text,
             HEADER ".global .align 4 .b8 gtab[64];\n"
             ".visible .entry k(.param .u64 k_p0)\n{\n%s\n%s\nret;\n}\n",
             decls, body);
    struct ptx_diag diag;
    memset(r, 0, sizeof *r);
    int rc = ptx_parse("snippet.ptx", text, strlen(text), &r->m, &diag);
    if (rc) printf("%s\n", diag.msg);
    assert_int_equal(rc, 0);
    r->f = ptx_find_func(r->m, "k");
    assert_non_null(r->f);
    r->regs = calloc((size_t)r->f->nregs * EXEC_WARP + 1, sizeof *r->regs);
    assert_non_null(r->regs);
    r->w.regs = r->regs;
    r->w.nregs = r->f->nregs;
    r->w.grid = &r->g;
    r->g.ntid[0] = 32; r->g.ntid[1] = 1; r->g.ntid[2] = 1;
    r->g.nctaid[0] = 4; r->g.ctaid[0] = 2;
    for (unsigned l = 0; l < EXEC_WARP; l++) {
        r->w.ids[l].tid[0] = l;
        r->w.ids[l].laneid = l;
    }
    for (unsigned i = 0; i < 8; i++) r->sym0[i] = 0x1000 + 0x100 * i;
    for (unsigned i = 0; i < 16; i++) r->sym1[i] = 0x10 * i;
    r->w.sym_addr[0] = r->sym0;
    r->w.sym_addr[1] = r->sym1;
    for (uint32_t i = 0; i < r->f->ninsts; i++) {
        const struct ptx_inst *in = &r->f->insts[i];
        enum ptx_unit u = ptx_op_unit((enum ptx_op)in->op);
        if (u != PTX_UNIT_ALU && u != PTX_UNIT_SFU) continue;
        struct exec_result res;
        struct exec_error err;
        rc = exec_alu(&r->w, in, mask, &res, &err);
        if (rc) printf("inst %u: %s\n", i, err.msg);
        assert_int_equal(rc, 0);
    }
}

static uint64_t R(const struct run *r, const char *name, unsigned lane)
{
    for (uint32_t i = 0; i < r->f->nregs; i++)
        if (r->f->regs[i].name && strcmp(r->f->regs[i].name, name) == 0)
            return r->regs[(size_t)i * EXEC_WARP + lane];
    fail_msg("no register %s", name);
    return 0;
}

static void done(struct run *r)
{
    free(r->regs);
    ptx_module_free(r->m);
}

#define DECLS                                                                 \
    ".reg .pred %p<8>;\n.reg .b16 %rs<8>;\n.reg .b32 %r<40>;\n"                \
    ".reg .f32 %f<20>;\n.reg .b64 %rd<12>;\n.reg .f64 %fd<12>;\n"

static void test_int_snippet(void **st)
{
    (void)st;
    struct run r;
    run_body(&r, DECLS,
             "mov.u32 %r1, %tid.x;\n"
             "add.s32 %r2, %r1, -3;\n"
             "mul.wide.s32 %rd1, %r2, 4;\n"
             "mul.lo.s32 %r3, %r2, %r2;\n"
             "mad.lo.s32 %r4, %r2, 3, 0x10;\n"
             "mul.hi.u32 %r5, %r1, -1;\n"
             "shl.b32 %r6, %r1, 28;\n"
             "shr.s32 %r7, %r6, 31;\n"
             "shr.u32 %r8, %r6, 40;\n"
             "and.b32 %r9, %r1, 6;\n"
             "or.b32 %r10, %r9, 0x100;\n"
             "xor.b32 %r11, %r10, -1;\n"
             "not.b32 %r12, %r11;\n"
             "div.s32 %r13, %r2, 2;\n"
             "rem.s32 %r14, %r2, 2;\n"
             "div.u32 %r15, %r1, 0;\n"
             "neg.s32 %r16, %r1;\n"
             "abs.s32 %r17, %r2;\n"
             "max.s32 %r18, %r2, 0;\n"
             "min.u32 %r19, %r2, 5;\n"
             "cvt.s64.s32 %rd2, %r2;\n"
             "cvt.u64.u32 %rd3, %r2;\n"
             "cvt.u16.u32 %rs1, %r16;\n"
             "cvt.u32.u16 %r20, %rs1;\n"
             "add.s16 %rs2, %rs1, 1;\n"
             "setp.lt.s32 %p1, %r2, 0;\n"
             "setp.gt.u32 %p2, %r2, 0;\n"
             "selp.b32 %r21, 111, 222, %p1;\n"
             "selp.u32 %r22, 1, 2, !%p1;\n"
             "and.pred %p3, %p1, %p2;\n"
             "or.pred %p4, %p1, %p2;\n"
             "xor.pred %p5, %p1, %p2;\n"
             "not.pred %p6, %p1;\n"
             "add.s64 %rd4, %rd1, %rd2;\n"
             "shl.b64 %rd5, %rd3, 32;\n"
             "mov.b64 {%r23, %r24}, %rd5;\n"
             "mov.b64 %rd6, {%r24, %r1};\n"
             "prmt.b32 %r25, %r1, 0x44332211, 0x4321;\n"
             "clz.b64 %r26, %rd3;\n"
             "bfi.b32 %r27, %r1, 0, 4, 8;\n"
             "mov.u32 %r28, %laneid;\n"
             "mov.u32 %r29, %ctaid.x;\n"
             "mad.lo.s32 %r30, %r29, %r1, %r28;\n"
             "mov.u64 %rd7, gtab;\n"
             "mov.u32 %r31, 0;\n"
             "sub.s32 %r32, %r31, %r1;\n"
             "setp.eq.s32 %p7, %r1, 5;\n"
             "shf.l.wrap.b32 %r33, %r1, 0x01234567, %r1;\n"
             "shf.r.clamp.b32 %r34, 0x89abcdef, %r1, %r28;\n",
             0xffffffffu);
    for (unsigned l = 0; l < EXEC_WARP; l++) {
        int32_t x = (int32_t)l - 3;
        uint32_t ux = (uint32_t)x;
        assert_int_equal(R(&r, "%r2", l), ux);
        assert_int_equal(R(&r, "%rd1", l), (uint64_t)((int64_t)x * 4));
        assert_int_equal(R(&r, "%r3", l), (uint32_t)(x * x));
        assert_int_equal(R(&r, "%r4", l), (uint32_t)(x * 3 + 16));
        assert_int_equal(R(&r, "%r5", l), l ? l - 1 : 0);   /* hi(l * (2^32-1)) */
        assert_int_equal(R(&r, "%r6", l), (uint32_t)(l << 28));
        assert_int_equal(R(&r, "%r7", l), (l & 8) ? 0xffffffffu : 0);
        assert_int_equal(R(&r, "%r8", l), 0);
        assert_int_equal(R(&r, "%r10", l), (l & 6) | 0x100);
        assert_int_equal(R(&r, "%r11", l), ~((l & 6) | 0x100u));
        assert_int_equal(R(&r, "%r12", l), (l & 6) | 0x100);
        assert_int_equal(R(&r, "%r13", l), (uint32_t)(x / 2));
        assert_int_equal(R(&r, "%r14", l), (uint32_t)(x % 2));
        assert_int_equal(R(&r, "%r15", l), 0xffffffffu);
        assert_int_equal(R(&r, "%r16", l), (uint32_t)-(int32_t)l);
        assert_int_equal(R(&r, "%r17", l), (uint32_t)(x < 0 ? -x : x));
        assert_int_equal(R(&r, "%r18", l), (uint32_t)(x > 0 ? x : 0));
        assert_int_equal(R(&r, "%r19", l), ux < 5 ? ux : 5);
        assert_int_equal(R(&r, "%rd2", l), (uint64_t)(int64_t)x);
        assert_int_equal(R(&r, "%rd3", l), (uint64_t)ux);
        assert_int_equal(R(&r, "%rs1", l), (uint16_t)-(int32_t)l);
        assert_int_equal(R(&r, "%r20", l), (uint16_t)-(int32_t)l);
        assert_int_equal(R(&r, "%rs2", l), (uint16_t)(1 - (int32_t)l));
        assert_int_equal(R(&r, "%p1", l), x < 0);
        assert_int_equal(R(&r, "%p2", l), ux > 0);
        assert_int_equal(R(&r, "%r21", l), x < 0 ? 111 : 222);
        assert_int_equal(R(&r, "%r22", l), x < 0 ? 2 : 1);
        assert_int_equal(R(&r, "%p3", l), (x < 0) & (ux > 0));
        assert_int_equal(R(&r, "%p4", l), (x < 0) | (ux > 0));
        assert_int_equal(R(&r, "%p5", l), (x < 0) ^ (ux > 0));
        assert_int_equal(R(&r, "%p6", l), !(x < 0));
        assert_int_equal(R(&r, "%rd4", l), (uint64_t)((int64_t)x * 5));
        assert_int_equal(R(&r, "%r23", l), 0);
        assert_int_equal(R(&r, "%r24", l), ux);
        assert_int_equal(R(&r, "%rd6", l), ((uint64_t)l << 32) | ux);
        /* bytes {b=0x44332211, a=l}: selectors 1,2,3,4 */
        assert_int_equal(R(&r, "%r25", l), 0x11000000u);
        assert_int_equal(R(&r, "%r26", l), ux ? 32 + (unsigned)__builtin_clz(ux) : 64);
        assert_int_equal(R(&r, "%r27", l), (l & 0xff) << 4);
        assert_int_equal(R(&r, "%r28", l), l);
        assert_int_equal(R(&r, "%r29", l), 2);
        assert_int_equal(R(&r, "%r30", l), 2 * l + l);
        assert_int_equal(R(&r, "%rd7", l), r.sym0[0]);
        assert_int_equal(R(&r, "%r32", l), (uint32_t)-(int32_t)l);
        assert_int_equal(R(&r, "%p7", l), l == 5);
        /* funnel shifts of {b:a} by the lane number (0..31) */
        uint64_t v33 = (0x01234567ull << 32) | l, v34 = ((uint64_t)l << 32) | 0x89abcdefu;
        assert_int_equal(R(&r, "%r33", l), (uint32_t)((v33 << l) >> 32));
        assert_int_equal(R(&r, "%r34", l), (uint32_t)(v34 >> l));
    }
    done(&r);
}

static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t db(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static void test_float_snippet(void **st)
{
    (void)st;
    struct run r;
    run_body(&r, DECLS,
             "mov.f32 %f1, 0f3F800000;\n"                 /* 1.0 */
             "mov.f32 %f2, 0f33800000;\n"                 /* 2^-24 */
             "add.f32 %f3, %f1, %f2;\n"                   /* tie -> 1 */
             "add.rn.f32 %f4, %f1, 0f34000000;\n"         /* 1 + 2^-23 */
             "fma.rm.f32 %f5, %f1, %f1, 0fB0800000;\n"    /* 1 - 2^-30 -> 1 - 2^-24 */
             "fma.rz.f32 %f6, %f4, %f4, 0f00000000;\n"
             "fma.rn.f32 %f7, %f4, %f4, 0f00000000;\n"
             "div.rn.f32 %f8, %f1, 0f40400000;\n"
             "div.approx.f32 %f9, %f1, 0f40800000;\n"
             "sqrt.rn.f32 %f10, 0f40000000;\n"
             "rcp.approx.ftz.f32 %f11, 0f40800000;\n"
             "ex2.approx.ftz.f32 %f12, 0f40400000;\n"
             "lg2.approx.f32 %f13, 0f41000000;\n"
             "max.f32 %f14, %f1, 0f7FFFFFFF;\n"
             "abs.f32 %f15, 0fBF800000;\n"
             "neg.f32 %f16, %f15;\n"
             "copysign.f32 %f17, %f16, 0f40000000;\n"
             "cvt.rzi.s32.f32 %r1, 0fC0300000;\n"          /* -2.75 -> -2 */
             "cvt.rni.f32.f32 %f18, 0f40200000;\n"         /* 2.5 -> 2 */
             "cvt.sat.f32.f32 %f19, 0f3FC00000;\n"
             "cvt.rn.f32.s32 %f0, %r1;\n"
             "setp.geu.f32 %p1, %f14, 0f7FC00000;\n"
             "setp.lt.f32 %p2, %f16, %f1;\n"
             "selp.f32 %f13, %f13, %f1, %p2;\n"
             "mov.f64 %fd1, 0d3FF0000000000000;\n"
             "add.rn.f64 %fd2, %fd1, 0d3CA0000000000000;\n" /* 1 + 2^-53 -> 1 */
             "div.rn.f64 %fd3, %fd1, 0d4008000000000000;\n"
             "rcp.rn.f64 %fd4, 0d4008000000000000;\n"
             "sqrt.rn.f64 %fd5, 0d4000000000000000;\n"
             "fma.rn.f64 %fd6, %fd3, 0d4008000000000000, 0dBFF0000000000000;\n"
             "cvt.f64.f32 %fd7, %f8;\n"
             "cvt.rn.f32.f64 %f2, %fd3;\n"
             "cvt.rzi.f64.f64 %fd8, 0dC004000000000000;\n"  /* -2.5 -> -2 */
             "cvt.rpi.f64.f64 %fd9, 0d4004000000000000;\n"  /* 2.5 -> 3 */
             "setp.neu.f64 %p3, %fd6, 0d0000000000000000;\n"
             "neg.f64 %fd10, %fd1;\n"
             "mov.u16 %rs3, 65535;\n"
             "mul.wide.u16 %r2, %rs3, %rs3;\n"
             "mov.b32 %r3, %f1;\n",
             0x1u);
    assert_int_equal(R(&r, "%f3", 0), 0x3f800000);
    assert_int_equal(R(&r, "%f4", 0), 0x3f800001);
    assert_int_equal(R(&r, "%f5", 0), 0x3f7fffff);
    assert_int_equal(R(&r, "%f6", 0), 0x3f800002);
    assert_int_equal(R(&r, "%f7", 0), 0x3f800002);
    assert_int_equal(R(&r, "%f8", 0), 0x3eaaaaab);
    assert_int_equal(R(&r, "%f9", 0), fb(0.25f));
    assert_int_equal(R(&r, "%f10", 0), 0x3fb504f3);
    assert_int_equal(R(&r, "%f11", 0), fb(0.25f));
    assert_int_equal(R(&r, "%f12", 0), fb(8.0f));
    assert_int_equal(R(&r, "%f13", 0), fb(3.0f));   /* lg2(8), %p2 true */
    assert_int_equal(R(&r, "%f14", 0), fb(1.0f));
    assert_int_equal(R(&r, "%f15", 0), fb(1.0f));
    assert_int_equal(R(&r, "%f16", 0), fb(-1.0f));
    assert_int_equal(R(&r, "%f17", 0), fb(-2.0f));
    assert_int_equal(R(&r, "%r1", 0), 0xfffffffeu);
    assert_int_equal(R(&r, "%f18", 0), fb(2.0f));
    assert_int_equal(R(&r, "%f19", 0), fb(1.0f));
    assert_int_equal(R(&r, "%f0", 0), fb(-2.0f));
    assert_int_equal(R(&r, "%p1", 0), 1);
    assert_int_equal(R(&r, "%p2", 0), 1);
    assert_int_equal(R(&r, "%fd2", 0), db(1.0));
    assert_int_equal(R(&r, "%fd3", 0), 0x3fd5555555555555ull);
    assert_int_equal(R(&r, "%fd4", 0), 0x3fd5555555555555ull);
    assert_int_equal(R(&r, "%fd5", 0), 0x3ff6a09e667f3bcdull);
    assert_int_equal(R(&r, "%fd6", 0), db(-0x1p-54));  /* fma residual of 1/3 */
    assert_int_equal(R(&r, "%fd7", 0), db((double)(1.0f / 3.0f)));
    assert_int_equal(R(&r, "%f2", 0), 0x3eaaaaab);
    assert_int_equal(R(&r, "%fd8", 0), db(-2.0));
    assert_int_equal(R(&r, "%fd9", 0), db(3.0));
    assert_int_equal(R(&r, "%p3", 0), 1);
    assert_int_equal(R(&r, "%fd10", 0), db(-1.0));
    assert_int_equal(R(&r, "%r2", 0), 0xfffe0001u);
    assert_int_equal(R(&r, "%r3", 0), 0x3f800000);
    done(&r);
}

/* Carry chain as nvcc emits it for 64-bit arithmetic in 32-bit halves. */
static void test_carry_snippet(void **st)
{
    (void)st;
    struct run r;
    run_body(&r, DECLS,
             "mov.u32 %r1, -1;\n"
             "mov.u32 %r2, 7;\n"
             "add.cc.u32 %r3, %r1, 1;\n"
             "addc.cc.u32 %r4, %r2, 0;\n"
             "addc.u32 %r5, 0, 0;\n"
             "sub.cc.u32 %r6, 0, 1;\n"
             "subc.cc.u32 %r7, %r2, 0;\n"
             "subc.u32 %r8, 0, 0;\n"
             "mad.lo.cc.u32 %r9, %r1, %r1, %r1;\n"
             "madc.hi.cc.u32 %r10, %r1, %r1, 0;\n"
             "madc.lo.cc.u32 %r11, %r2, %r2, 0;\n"
             "madc.hi.u32 %r12, %r2, %r2, 0;\n",
             0x80000001u);
    unsigned lanes[2] = { 0, 31 };
    for (int i = 0; i < 2; i++) {
        unsigned l = lanes[i];
        assert_int_equal(R(&r, "%r3", l), 0);
        assert_int_equal(R(&r, "%r4", l), 8);
        assert_int_equal(R(&r, "%r5", l), 0);
        assert_int_equal(R(&r, "%r6", l), 0xffffffffu);
        assert_int_equal(R(&r, "%r7", l), 6);
        assert_int_equal(R(&r, "%r8", l), 0);
        /* (2^32-1)^2 + (2^32-1) = 0xffffffff_00000000: lo 0, carry 1 */
        assert_int_equal(R(&r, "%r9", l), 0);
        assert_int_equal(R(&r, "%r10", l), 0xffffffffu);
        assert_int_equal(R(&r, "%r11", l), 49);
        assert_int_equal(R(&r, "%r12", l), 0);
    }
    assert_int_equal(R(&r, "%r4", 1), 0);            /* lane 1 inactive */
    done(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int_snippet),
        cmocka_unit_test(test_float_snippet),
        cmocka_unit_test(test_carry_snippet),
    };
    return cmocka_run_group_tests_name("exec_ptx", tests, NULL, NULL);
}
