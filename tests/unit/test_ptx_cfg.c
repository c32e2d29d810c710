/* cmocka tests of the PTX CFG pass: basic blocks and immediate
 * post-dominators on hand-built instruction lists (if/else, nested
 * if/else, loops, loop with break, early return, several returns,
 * unreachable code, infinite loops, branch to the end, brx.idx), the example
 * kernel of the SIMT stack notes, and a large straight-line + diamond
 * chain that must converge in few passes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ptx/ptx_cfg.h"
#include "ptx/ptx_ir.h"

/* Program spec: one token per instruction:
 *   "n"    plain ALU instruction
 *   "bK"   unconditional bra to K      "?K"  guarded (@p) bra to K
 *   "r"    ret                          "?r"  guarded ret
 *   "x"    exit
 *   "jA,B,C"  brx.idx to the list A, B, C  "?j..." guarded */
struct prog {
    struct ptx_arena *a;
    struct ptx_func f;
};

static void build(struct prog *p, const char *spec)
{
    memset(p, 0, sizeof *p);
    p->a = ptx_arena_new();
    assert_non_null(p->a);
    uint32_t n = 0;
    for (const char *s = spec; *s;) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        n++;
        while (*s && *s != ' ')
            s++;
    }
    p->f.insts = ptx_arena_alloc(p->a, n * sizeof *p->f.insts);
    p->f.ninsts = n;
    p->f.tlist = ptx_arena_alloc(p->a, 64 * sizeof *p->f.tlist);
    p->f.name = "hand";
    uint32_t i = 0;
    for (const char *s = spec; *s;) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        struct ptx_inst *in = &p->f.insts[i++];
        in->guard = -1;
        in->line = i;
        bool guarded = *s == '?';
        if (guarded) {
            in->guard = 0;
            s++;
        }
        if (*s == 'n') {
            in->op = PTX_OP_ADD;
            s++;
        } else if (*s == 'r') {
            in->op = PTX_OP_RET;
            s++;
        } else if (*s == 'x') {
            in->op = PTX_OP_EXIT;
            s++;
        } else if (*s == 'j') {
            in->op = PTX_OP_BRX;
            in->o[1].kind = PTX_O_TLIST;
            in->o[1].label = (int32_t)p->f.ntlist;
            in->nopnd = 2;
            do {
                s++;
                p->f.tlist[p->f.ntlist++] = (int32_t)strtol(s, (char **)&s, 10);
                in->o[1].imm++;
            } while (*s == ',' && p->f.ntlist < 64);
        } else {
            if (*s == 'b')
                s++;
            in->op = PTX_OP_BRA;
            in->o[0].kind = PTX_O_LABEL;
            in->o[0].label = (int32_t)strtol(s, (char **)&s, 10);
            in->nopnd = 1;
        }
        while (*s && *s != ' ')
            s++;
    }
    assert_int_equal(ptx_cfg_build(&p->f, p->a), 0);
    assert_non_null(p->f.cfg);
}

static void done(struct prog *p)
{
    ptx_arena_free(p->a);
}

static int32_t rc(const struct prog *p, uint32_t pc)
{
    assert_true(p->f.insts[pc].op == PTX_OP_BRA || p->f.insts[pc].op == PTX_OP_BRX);
    return p->f.insts[pc].reconv;
}

static void if_else(void **state)
{
    (void)state;
    struct prog p;
    /* 0: @p bra 3 | 1: n | 2: bra 4 | 3: n | 4: n | 5: r */
    build(&p, "?3 n b4 n n r");
    assert_int_equal(p.f.cfg->nblocks, 4);
    assert_int_equal(rc(&p, 0), 4);
    assert_int_equal(rc(&p, 2), 4);
    assert_int_equal(p.f.insts[1].reconv, -1); /* not a branch */
    assert_int_equal(ptx_cfg_reconv(&p.f, 0), 4);
    done(&p);
}

static void if_then(void **state)
{
    (void)state;
    struct prog p;
    build(&p, "n ?3 n n r");
    assert_int_equal(rc(&p, 1), 3);
    done(&p);
}

static void nested_if_else(void **state)
{
    (void)state;
    struct prog p;
    /* 0: @p bra 7          outer if
     * 1: @q bra 4          inner if
     * 2: n
     * 3: bra 5
     * 4: n
     * 5: n                 inner join
     * 6: bra 8
     * 7: n                 outer else
     * 8: n                 outer join
     * 9: r */
    build(&p, "?7 ?4 n b5 n n b8 n n r");
    assert_int_equal(rc(&p, 0), 8);
    assert_int_equal(rc(&p, 1), 5);
    assert_int_equal(rc(&p, 3), 5);
    assert_int_equal(rc(&p, 6), 8);
    done(&p);
}

static void loop(void **state)
{
    (void)state;
    struct prog p;
    /* do-while: 0: n | 1: n | 2: @p bra 1 | 3: r */
    build(&p, "n n ?1 r");
    assert_int_equal(rc(&p, 2), 3);
    done(&p);
    /* while with test at top: 0: @p bra 4 | 1: n | 2: @q bra 1 | 3: n | 4: r */
    build(&p, "?4 n ?1 n r");
    assert_int_equal(rc(&p, 0), 4);
    assert_int_equal(rc(&p, 2), 3);
    done(&p);
}

static void loop_with_break(void **state)
{
    (void)state;
    struct prog p;
    /* 0: n | 1: @p bra 5 (break) | 2: n | 3: @q bra 1 | 4: n | 5: r */
    build(&p, "n ?5 n ?1 n r");
    assert_int_equal(rc(&p, 1), 5);
    /* the back edge's block reaches ret both through the loop exit (4) and
     * through the break, so it reconverges at 5, not at the loop exit */
    assert_int_equal(rc(&p, 3), 5);
    done(&p);
    /* break and continue both leave through the same exit block */
    build(&p, "n ?4 n ?1 r");
    assert_int_equal(rc(&p, 1), 4);
    assert_int_equal(rc(&p, 3), 4);
    done(&p);
}

static void early_return(void **state)
{
    (void)state;
    struct prog p;
    /* 0: @p bra 3 | 1: n | 2: r | 3: n | 4: r : the paths only meet at exit */
    build(&p, "?3 n r n r");
    assert_int_equal(rc(&p, 0), 5);
    done(&p);
    /* guarded ret: 0: @p bra 3 | 1: @q ret | 2: n | 3: n | 4: r */
    build(&p, "?3 ?r n n r");
    assert_int_equal(rc(&p, 0), 5);
    done(&p);
}

static void several_returns(void **state)
{
    (void)state;
    struct prog p;
    /* 0: @p bra 4 | 1: @q bra 3 | 2: r | 3: x | 4: n | 5: r */
    build(&p, "?4 ?3 r x n r");
    assert_int_equal(rc(&p, 0), 6);
    assert_int_equal(rc(&p, 1), 6);
    done(&p);
    /* returns inside a diamond arm that rejoins: 0: @p bra 4 | 1: @q bra 3
     * | 2: r | 3: bra 5 | 4: n | 5: n | 6: r */
    build(&p, "?4 ?3 r b5 n n r");
    assert_int_equal(rc(&p, 0), 7);
    assert_int_equal(rc(&p, 1), 7);
    assert_int_equal(rc(&p, 3), 5);
    done(&p);
}

static void unreachable_and_end_label(void **state)
{
    (void)state;
    struct prog p;
    /* 0: bra 2 | 1: n (unreachable) | 2: @p bra 4 | 3: n | (4 = end) */
    build(&p, "b2 n ?4 n");
    assert_int_equal(rc(&p, 0), 2);
    assert_int_equal(rc(&p, 2), 4); /* falls off the end = exit */
    assert_int_equal(p.f.cfg->blocks[p.f.cfg->block_of[1]].ipdom,
                     (int32_t)p.f.cfg->block_of[2]);
    done(&p);
}

static void infinite_loop(void **state)
{
    (void)state;
    struct prog p;
    /* 0: @p bra 2 | 1: r | 2: n | 3: bra 2 : block 2-3 never reaches exit */
    build(&p, "?2 r n b2");
    assert_int_equal(rc(&p, 3), 4);
    assert_int_equal(rc(&p, 0), 1);
    done(&p);
    /* nothing reaches exit */
    build(&p, "n ?0 b0");
    assert_int_equal(rc(&p, 1), 3);
    assert_int_equal(rc(&p, 2), 3);
    done(&p);
}

/* The kernel of simt-stack-reconvergence-notes.txt:
 *   if (t < 5) { a[t]=1; b[t]=2; c[t]=3; } else { a[t+6]=5; ... } a[6]=99;
 * 0: setp  1: @!p bra 6  2-4: stores  5: bra 9  6-8: stores  9: st 99
 * 10: ret. The reconvergence point is the a[6] = 99 store. */
static void simt_notes_example(void **state)
{
    (void)state;
    struct prog p;
    build(&p, "n ?6 n n n b9 n n n n r");
    assert_int_equal(rc(&p, 1), 9);
    assert_int_equal(rc(&p, 5), 9);
    assert_int_equal(p.f.cfg->nblocks, 4);
    done(&p);
}

/* brx.idx: one edge per distinct target, reconvergence at the ipdom of all
 * of them (the fall-through too when guarded), the exit when a target
 * returns, an entry outside the function rejected. */
static void brx_idx(void **state)
{
    (void)state;
    struct prog p;
    /* 0: n | 1: brx {2,4,6} | 2: n | 3: bra 7 | 4: n | 5: bra 7 | 6: n | 7: n | 8: r */
    build(&p, "n j2,4,6 n b7 n b7 n n r");
    assert_int_equal(rc(&p, 1), 7);
    assert_int_equal(p.f.cfg->blocks[p.f.cfg->block_of[1]].nsucc, 3);
    assert_int_equal(rc(&p, 3), 7);
    done(&p);
    /* duplicates count once; a target equal to the join */
    build(&p, "j1,1,3,4 n b4 n n r");
    assert_int_equal(p.f.cfg->blocks[0].nsucc, 3);
    assert_int_equal(rc(&p, 0), 4);
    done(&p);
    /* guarded: the fall-through path joins too */
    build(&p, "?j3,5 n b6 n b6 n n r");
    assert_int_equal(p.f.cfg->blocks[0].nsucc, 3);
    assert_int_equal(rc(&p, 0), 6);
    done(&p);
    /* one target returns: reconvergence only at the exit */
    build(&p, "j1,3 n b5 r n n r");
    assert_int_equal(rc(&p, 0), 7);
    done(&p);
    /* a list entry beyond the end is rejected */
    struct ptx_arena *a = ptx_arena_new();
    struct ptx_func f;
    memset(&f, 0, sizeof f);
    struct ptx_inst in[2];
    memset(in, 0, sizeof in);
    int32_t tl[2] = { 1, 9 };
    in[0].op = PTX_OP_BRX;
    in[0].guard = -1;
    in[0].o[1].kind = PTX_O_TLIST;
    in[0].o[1].imm = 2;
    in[1].op = PTX_OP_RET;
    in[1].guard = -1;
    f.insts = in;
    f.ninsts = 2;
    f.tlist = tl;
    f.ntlist = 2;
    assert_int_equal(ptx_cfg_build(&f, a), -1);
    ptx_arena_free(a);
}

static void bad_target(void **state)
{
    (void)state;
    struct ptx_arena *a = ptx_arena_new();
    struct ptx_func f;
    memset(&f, 0, sizeof f);
    struct ptx_inst in[2];
    memset(in, 0, sizeof in);
    in[0].op = PTX_OP_BRA;
    in[0].guard = -1;
    in[0].o[0].label = 7;
    in[1].op = PTX_OP_RET;
    in[1].guard = -1;
    f.insts = in;
    f.ninsts = 2;
    assert_int_equal(ptx_cfg_build(&f, a), -1);
    ptx_arena_free(a);
}

/* 20000 sequential diamonds followed by a loop: ipdoms all correct and the
 * fixpoint needs only a few passes. */
static void large_chain(void **state)
{
    (void)state;
    enum { D = 20000 };
    size_t cap = (size_t)D * 24 + 64;
    char *spec = malloc(cap);
    assert_non_null(spec);
    size_t k = 0;
    for (int d = 0; d < D; d++) {
        int b = d * 4; /* ?b+3 n b(b+4) n */
        k += (size_t)snprintf(spec + k, cap - k, "?%d n b%d n ", b + 3, b + 4);
    }
    k += (size_t)snprintf(spec + k, cap - k, "n ?%d r", D * 4);
    struct prog p;
    build(&p, spec);
    for (int d = 0; d < D; d++) {
        assert_int_equal(rc(&p, (uint32_t)d * 4), d * 4 + 4);
        assert_int_equal(rc(&p, (uint32_t)d * 4 + 2), d * 4 + 4);
    }
    assert_int_equal(rc(&p, D * 4 + 1), D * 4 + 2);
    assert_true(p.f.cfg->iterations <= 3);
    done(&p);
    free(spec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(if_else),
        cmocka_unit_test(if_then),
        cmocka_unit_test(nested_if_else),
        cmocka_unit_test(loop),
        cmocka_unit_test(loop_with_break),
        cmocka_unit_test(early_return),
        cmocka_unit_test(several_returns),
        cmocka_unit_test(unreachable_and_end_label),
        cmocka_unit_test(infinite_loop),
        cmocka_unit_test(simt_notes_example),
        cmocka_unit_test(brx_idx),
        cmocka_unit_test(bad_target),
        cmocka_unit_test(large_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
