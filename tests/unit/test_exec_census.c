/* Completeness check of exec_alu() over the opcode strings of the PTX
 * census (shared spec ptx-coverage.md: the 175 ALU/SFU strings of
 * the 254) and over further forms (fast-math .ftz, directed rounding, ops
 * the census lacks). Each string is decoded here into a struct ptx_inst with
 * the operand layout of ptx_ir.h and run on a warp: it must succeed, write
 * its destination(s) in every active lane and leave inactive lanes alone.
 * The values themselves are checked in test_exec_ops.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "exec/exec.h"

#include "test_exec_census.inc"

#define NREGS 8
#define GARBAGE 0xdeadbeefdeadbeefull

static const char *const op_names[] = {
#define PTX_OP(id, name, unit, comment) name,
#include "ptx/ptx_ops.def"
#undef PTX_OP
};

static const char *const type_names[PTX_T_COUNT] = {
    "", "pred", "b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64",
    "s8", "s16", "s32", "s64", "f16", "f32", "f64",
};

static const char *const cmp_names[] = {
    "", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
    "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
};

static const char *const rnd_names[] = {
    "", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi",
};

static int find(const char *const *tab, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (tab[i] && tab[i][0] && strcmp(tab[i], s) == 0) return i;
    return -1;
}

#define N(tab) ((int)(sizeof tab / sizeof tab[0]))

static struct ptx_operand reg_op(int r)
{
    struct ptx_operand o;
    memset(&o, 0, sizeof o);
    o.kind = PTX_O_REG;
    o.reg = r;
    o.sym.index = -1;
    return o;
}

/* Decodes "op.mod.mod.type[.type]" into in; returns 0 or -1. */
static int decode(const char *str, struct ptx_inst *in)
{
    char buf[64], *save = NULL;
    snprintf(buf, sizeof buf, "%s", str);
    memset(in, 0, sizeof *in);
    in->guard = -1;
    in->vec = 1;
    char *tok = strtok_r(buf, ".", &save);
    int op = find(op_names, N(op_names), tok);
    if (op < 0) return -1;
    in->op = (uint8_t)op;
    int ntypes = 0, is_cmp = op == PTX_OP_SETP || op == PTX_OP_SET;
    while ((tok = strtok_r(NULL, ".", &save))) {
        int k;
        if ((k = find(type_names, PTX_T_COUNT, tok)) >= 0) {
            if (ntypes++ == 0) in->type = in->type2 = (uint8_t)k;
            else in->type2 = (uint8_t)k;
        } else if (is_cmp && (k = find(cmp_names, N(cmp_names), tok)) >= 0) {
            in->cmp = (uint8_t)k;
        } else if ((k = find(rnd_names, N(rnd_names), tok)) >= 0) {
            in->rnd = (uint8_t)k;
        } else if (!strcmp(tok, "hi")) in->flags |= PTX_F_HI;
        else if (!strcmp(tok, "lo")) in->flags |= PTX_F_LO;
        else if (!strcmp(tok, "wide")) in->flags |= PTX_F_WIDE;
        else if (!strcmp(tok, "sat")) in->flags |= PTX_F_SAT;
        else if (!strcmp(tok, "ftz")) in->flags |= PTX_F_FTZ;
        else if (!strcmp(tok, "approx") || !strcmp(tok, "full")) in->flags |= PTX_F_APPROX;
        else if (!strcmp(tok, "cc")) in->flags |= PTX_F_CC;
        else if (!strcmp(tok, "and")) in->sub = PTX_SUB_AND;
        else if (!strcmp(tok, "or")) in->sub = PTX_SUB_OR;
        else if (!strcmp(tok, "xor")) in->sub = PTX_SUB_XOR;
        else if (!strcmp(tok, "finite")) in->sub = PTX_SUB_FINITE;
        else if (!strcmp(tok, "infinite")) in->sub = PTX_SUB_INFINITE;
        else if (!strcmp(tok, "number")) in->sub = PTX_SUB_NUMBER;
        else if (!strcmp(tok, "notanumber")) in->sub = PTX_SUB_NOTANUMBER;
        else if (!strcmp(tok, "normal")) in->sub = PTX_SUB_NORMAL;
        else if (!strcmp(tok, "subnormal")) in->sub = PTX_SUB_SUBNORMAL;
        else return -1;
    }
    if (ntypes == 0) return -1;
    /* operand layout of ptx_ir.h */
    int nsrc;
    switch (op) {
    case PTX_OP_MAD: case PTX_OP_MAD24: case PTX_OP_MADC: case PTX_OP_FMA:
    case PTX_OP_SAD: case PTX_OP_BFE: case PTX_OP_PRMT: case PTX_OP_SELP:
    case PTX_OP_SLCT:
        nsrc = 3; break;
    case PTX_OP_BFI: nsrc = 4; break;
    case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_NOT: case PTX_OP_CNOT:
    case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BREV: case PTX_OP_SQRT:
    case PTX_OP_RSQRT: case PTX_OP_RCP: case PTX_OP_EX2: case PTX_OP_LG2:
    case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_TANH: case PTX_OP_TESTP:
    case PTX_OP_CVT: case PTX_OP_MOV:
        nsrc = 1; break;
    case PTX_OP_SET: nsrc = in->sub ? 3 : 2; break;
    default: nsrc = 2; break;
    }
    in->o[0] = reg_op(0);
    if (op == PTX_OP_SETP) {
        in->o[1] = reg_op(6);                      /* q */
        in->o[2] = reg_op(1);
        in->o[3] = reg_op(2);
        if (in->sub) in->o[4] = reg_op(7);
        in->nopnd = in->sub ? 5 : 4;
        return 0;
    }
    for (int i = 0; i < nsrc; i++) in->o[i + 1] = reg_op(i + 1);
    if (op == PTX_OP_SELP || (op == PTX_OP_SET && in->sub)) in->o[3] = reg_op(7);
    in->nopnd = (uint8_t)(nsrc + 1);
    return 0;
}

static int run_one(const char *s, int verbose)
{
    struct ptx_inst in;
    if (decode(s, &in)) {
        printf("%s: test decoder cannot decode it\n", s);
        return 1;
    }
    uint64_t regs[NREGS * EXEC_WARP];
    struct exec_grid g;
    struct exec_warp w;
    memset(&g, 0, sizeof g);
    memset(&w, 0, sizeof w);
    w.regs = regs;
    w.nregs = NREGS;
    w.grid = &g;
    for (int r = 0; r < NREGS; r++)
        for (unsigned l = 0; l < EXEC_WARP; l++) {
            uint64_t v = in.type2 == PTX_T_F64 || in.type == PTX_T_F64
                             ? 0x3ff8000000000000ull + l : 0x3fc00000u + l;
            regs[r * EXEC_WARP + l] = r == 0 || r == 6 ? GARBAGE
                                      : r == 7 ? (l & 1) : v;
        }
    struct exec_result res;
    struct exec_error err;
    memset(&err, 0, sizeof err);
    const uint32_t mask = 0x7ffffffeu;
    if (exec_alu(&w, &in, mask, &res, &err) != 0) {
        if (verbose) printf("%s: %s\n", s, err.msg);
        return 1;
    }
    int bad = res.active != mask;
    for (unsigned l = 0; l < EXEC_WARP; l++) {
        int on = (mask >> l) & 1;
        if ((regs[l] != GARBAGE) != on) bad = 1;
        if (in.op == PTX_OP_SETP && (regs[6 * EXEC_WARP + l] != GARBAGE) != on)
            bad = 1;
    }
    if (bad) printf("%s: destination lanes written wrongly\n", s);
    return bad;
}

static void test_census_strings(void **st)
{
    (void)st;
    int bad = 0;
    for (size_t i = 0; i < sizeof census / sizeof census[0]; i++)
        bad += run_one(census[i], 1);
    assert_int_equal(sizeof census / sizeof census[0], 175);
    assert_int_equal(bad, 0);
}

static void test_extra_strings(void **st)
{
    (void)st;
    int bad = 0;
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
        bad += run_one(extra[i], 1);
    assert_int_equal(bad, 0);
}

/* Forms that must be rejected with an error, never executed silently. */
static void test_rejected_strings(void **st)
{
    (void)st;
    static const char *const bad_forms[] = {
        "div.rn.f16", "testp.finite.f16", "ex2.approx.f64", "sin.approx.f64", "setp.ltu.s32",
        "add.cc.u16", "mul.wide.s64", "cvta.u64", "ld.u32", "popc.f32",
    };
    for (size_t i = 0; i < sizeof bad_forms / sizeof bad_forms[0]; i++)
        assert_int_not_equal(run_one(bad_forms[i], 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_census_strings),
        cmocka_unit_test(test_extra_strings),
        cmocka_unit_test(test_rejected_strings),
    };
    return cmocka_run_group_tests_name("exec_census", tests, NULL, NULL);
}
