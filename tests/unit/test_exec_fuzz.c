/* Random-instruction check of exec_alu() invariants: for random opcodes,
 * types, modifiers, operand kinds, register contents and masks, exec_alu
 * either succeeds or fails with a "line L:C: ..." message, reports exactly
 * the guard-passing lanes as active, and never changes a register or carry
 * flag of a lane outside them (on failure: of any lane). Run it under
 * `make test-asan` for the memory/UB side. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "exec/exec.h"

#define NREGS 8
#define ITERS 200000

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void random_operand(uint64_t *s, struct ptx_operand *o)
{
    memset(o, 0, sizeof *o);
    o->sym.index = -1;
    switch (next(s) % 8) {
    case 0: case 1: case 2: case 3:
        o->kind = PTX_O_REG;
        o->reg = (int32_t)(next(s) % (NREGS + 1)) - (next(s) % 16 == 0);
        break;
    case 4:
        o->kind = PTX_O_IMM;
        o->imm = (int64_t)next(s);
        break;
    case 5:
        o->kind = PTX_O_SREG;
        o->sreg = (uint8_t)(next(s) % PTX_SR_COUNT);
        break;
    case 6:
        o->kind = PTX_O_SYM;
        o->sym.scope = (int16_t)(next(s) & 1);
        o->sym.index = (int32_t)(next(s) % 4);
        o->imm = (int64_t)(next(s) % 64);
        break;
    default:
        o->kind = PTX_O_VEC;
        o->vec_n = (uint8_t)(next(s) % 5);
        for (int j = 0; j < 4; j++)
            o->vec_regs[j] = (int32_t)(next(s) % (NREGS + 1)) - 1;
        break;
    }
    o->neg = next(s) & 1;
}

static void test_random_instructions(void **st)
{
    (void)st;
    uint64_t s = 0x243f6a8885a308d3ull;
    uint64_t regs[NREGS * EXEC_WARP], before[NREGS * EXEC_WARP];
    uint64_t syms[4] = { 0x1000, 0x2000, 0x3000, 0x4000 };
    struct exec_grid g;
    struct exec_warp w;
    memset(&g, 0, sizeof g);
    memset(&w, 0, sizeof w);
    w.regs = regs;
    w.nregs = NREGS;
    w.grid = &g;
    w.sym_addr[0] = syms;
    w.sym_addr[1] = syms;
    long ok = 0, failed = 0, bad = 0;
    for (long it = 0; it < ITERS; it++) {
        for (int i = 0; i < NREGS * EXEC_WARP; i++)
            regs[i] = next(&s) >> (next(&s) % 64);
        for (int l = 0; l < EXEC_WARP; l++) w.carry[l] = next(&s) & 1;
        struct ptx_inst in;
        memset(&in, 0, sizeof in);
        in.op = (uint8_t)(next(&s) % PTX_OP_COUNT);
        in.type = (uint8_t)(next(&s) % PTX_T_COUNT);
        in.type2 = (uint8_t)(next(&s) % PTX_T_COUNT);
        in.flags = (uint16_t)(next(&s) & 0x7f);
        in.rnd = (uint8_t)(next(&s) % 9);
        in.cmp = (uint8_t)(next(&s) % 19);
        in.sub = (uint8_t)(next(&s) % 35);
        in.guard = next(&s) % 4 == 0 ? (int32_t)(next(&s) % NREGS) : -1;
        in.guard_neg = next(&s) & 1;
        in.nopnd = (uint8_t)(1 + next(&s) % 5);
        in.line = 7;
        for (int k = 0; k < 6; k++) random_operand(&s, &in.o[k]);
        uint32_t mask = (uint32_t)next(&s);
        memcpy(before, regs, sizeof regs);
        uint8_t carry0[EXEC_WARP];
        memcpy(carry0, w.carry, sizeof carry0);
        uint32_t want = exec_guard_mask(&w, &in, mask);
        struct exec_result res;
        struct exec_error err;
        err.msg[0] = 0;
        int rc = exec_alu(&w, &in, mask, &res, &err);
        uint32_t may = rc == 0 ? want : 0;
        if (rc == 0) {
            ok++;
            if (res.active != want) bad++;
        } else {
            failed++;
            if (strncmp(err.msg, "line 7:", 7) != 0) bad++;
        }
        for (int l = 0; l < EXEC_WARP; l++) {
            if ((may >> l) & 1) continue;
            if (w.carry[l] != carry0[l]) bad++;
            for (int r = 0; r < NREGS; r++)
                if (regs[r * EXEC_WARP + l] != before[r * EXEC_WARP + l]) bad++;
        }
        if (bad && bad < 3)
            printf("iteration %ld: op %u type %u rc %d: invariant broken\n",
                   it, in.op, in.type, rc);
    }
    printf("fuzz: %ld executed, %ld rejected\n", ok, failed);
    assert_true(ok > ITERS / 20);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_instructions),
    };
    return cmocka_run_group_tests_name("exec_fuzz", tests, NULL, NULL);
}
