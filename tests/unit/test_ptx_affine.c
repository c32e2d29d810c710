/* cmocka tests of the affine analysis (csim/ptx/ptx_affine.h, docs/dac.md):
 * hand-written PTX for every seed (parameters, constants, special
 * registers), every transfer rule (add/sub, mul and mad by a uniform, shl,
 * cvt, setp, predicate logic, selp), loops with uniform and affine steps,
 * branches on uniform, affine and data predicates (regions and merges),
 * guarded writes, and the kernel of the paper's Fig 4; a mutant of each
 * case (a uniform replaced by an affine or loaded value, a uniform
 * predicate by an affine one) flips the class, so each assertion can fail.
 * Then every committed workload PTX: the analysis runs, the counts add
 * up, and two runs agree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ptx/ptx_affine.h"
#include "ptx/ptx_ir.h"
#include "workloads/wl_ptx.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

/* A kernel k(p0, n) around body, with registers %p<16> %r<32> %rd<16>
 * %f<8> and a module .const array cv[4]. */
static char *kernel(const char *body)
{
    static const char pre[] =
        HDR ".const .align 4 .u32 cv[4];\n"
        ".visible .entry k(.param .u64 k_p0, .param .u32 k_n)\n{\n"
        " .reg .pred %p<16>;\n .reg .b32 %r<32>;\n .reg .b64 %rd<16>;\n"
        " .reg .f32 %f<8>;\n";
    size_t n = sizeof pre + strlen(body) + 8;
    char *s = malloc(n);
    assert_non_null(s);
    snprintf(s, n, "%s%s\n}\n", pre, body);
    return s;
}

static struct ptx_module *parse(const char *src)
{
    struct ptx_module *m = NULL;
    struct ptx_diag d;
    int rc = ptx_parse("t.ptx", src, strlen(src), &m, &d);
    if (rc)
        fprintf(stderr, "%s\n", d.msg);
    assert_int_equal(rc, 0);
    return m;
}

/* Checks st against out (the counts the analysis reports are those of
 * its per-instruction classes). */
static void check_counts(const struct ptx_func *f, const struct ptx_affine_inst *out,
                         const struct ptx_affine_stats *st)
{
    uint32_t c[4] = { 0 };
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        assert_true(out[pc].cls <= PTX_ACLS_NONAFFINE);
        c[out[pc].cls]++;
        assert_int_equal(out[pc].terms != 0, out[pc].cls == PTX_ACLS_AFFINE);
    }
    assert_int_equal(st->ninsts, f->ninsts);
    assert_int_equal(st->nnone, c[PTX_ACLS_NONE]);
    assert_int_equal(st->nuniform, c[PTX_ACLS_UNIFORM]);
    assert_int_equal(st->naffine, c[PTX_ACLS_AFFINE]);
    assert_int_equal(st->nnonaffine, c[PTX_ACLS_NONAFFINE]);
    assert_true(st->nmem_affine <= st->nmem);
    assert_true(st->nload_gl_affine <= st->nload_gl && st->nload_gl <= st->nmem);
    assert_true(st->nbranch_affine <= st->nbranch);
    assert_true(st->passes >= 1);
}

/* The classes of kernel k with body under options opts (PTX_AFF_OPT_*),
 * one letter per instruction ("UAN-"), into got; the address classes of
 * its memory accesses into addr (one letter per access) and the control
 * marks ('.', 'a', 'd') into ctl when not NULL. */
static void classes_opt(const char *body, char *got, size_t n, char *addr, char *ctl,
                        unsigned opts)
{
    char *src = kernel(body);
    struct ptx_module *m = parse(src);
    const struct ptx_func *f = ptx_find_func(m, "k");
    assert_non_null(f);
    struct ptx_affine_inst *out = calloc(f->ninsts + 1, sizeof *out);
    assert_non_null(out);
    struct ptx_affine_stats st;
    struct ptx_diag d;
    int rc = ptx_affine_analyse_opt(f, out, &st, &d, opts);
    if (rc)
        fprintf(stderr, "%s\n", d.msg);
    assert_int_equal(rc, 0);
    check_counts(f, out, &st);
    assert_true(f->ninsts < n);
    size_t na = 0;
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        got[pc] = ptx_acls_name(out[pc].cls)[0];
        if (ctl)
            ctl[pc] = out[pc].ctl == PTX_ACTL_DATA ? 'd' :
                      out[pc].ctl == PTX_ACTL_AFFINE ? 'a' : '.';
        if (addr && out[pc].addr != PTX_ACLS_NONE)
            addr[na++] = ptx_acls_name(out[pc].addr)[0];
    }
    got[f->ninsts] = 0;
    if (ctl)
        ctl[f->ninsts] = 0;
    if (addr)
        addr[na] = 0;
    free(out);
    ptx_module_free(m);
    free(src);
}

/* classes_opt with every option (the paper's DAC). */
static void classes(const char *body, char *got, size_t n, char *addr, char *ctl)
{
    classes_opt(body, got, n, addr, ctl, PTX_AFF_OPT_ALL);
}

static void expect_opt(const char *body, const char *want, unsigned opts)
{
    char got[128];
    classes_opt(body, got, sizeof got, NULL, NULL, opts);
    if (strcmp(got, want))
        fprintf(stderr, "classes %s, want %s (options 0x%x), of:\n%s\n", got, want,
                opts, body);
    assert_string_equal(got, want);
}

static void expect(const char *body, const char *want)
{
    expect_opt(body, want, PTX_AFF_OPT_ALL);
}

/* body with its first `from` replaced by `to`. */
static char *mutate(const char *body, const char *from, const char *to)
{
    const char *at = strstr(body, from);
    assert_non_null(at);
    size_t n = strlen(body) - strlen(from) + strlen(to) + 1;
    char *s = malloc(n);
    assert_non_null(s);
    snprintf(s, n, "%.*s%s%s", (int)(at - body), body, to, at + strlen(from));
    return s;
}

static void expect_mutant_opt(const char *body, const char *from, const char *to,
                              const char *want, unsigned opts)
{
    char *s = mutate(body, from, to);
    expect_opt(s, want, opts);
    free(s);
}

static void expect_mutant(const char *body, const char *from, const char *to,
                          const char *want)
{
    expect_mutant_opt(body, from, to, want, PTX_AFF_OPT_ALL);
}

/* The terms of instruction pc of kernel k with body, as text. */
static void expect_terms(const char *body, uint32_t pc, const char *want)
{
    char *src = kernel(body);
    struct ptx_module *m = parse(src);
    const struct ptx_func *f = ptx_find_func(m, "k");
    struct ptx_affine_inst *out = calloc(f->ninsts + 1, sizeof *out);
    assert_non_null(out);
    assert_int_equal(ptx_affine_analyse(f, out, NULL, NULL), 0);
    assert_true(pc < f->ninsts);
    char t[64];
    assert_string_equal(ptx_affine_terms_str(t, sizeof t, out[pc].terms), want);
    free(out);
    ptx_module_free(m);
    free(src);
}

static const char seeds[] =
    " ld.param.u64 %rd1, [k_p0];\n"     /* U: a kernel parameter          */
    " ld.const.u32 %r1, [cv+4];\n"      /* U: a constant, fixed address   */
    " mov.u32 %r2, %ntid.x;\n"          /* U: a launch size               */
    " mov.u32 %r3, 7;\n"                /* U: an immediate                */
    " mov.u32 %r4, %tid.x;\n"           /* A                              */
    " mov.u32 %r5, %ctaid.y;\n"         /* A: the per-CTA base            */
    " mov.u32 %r6, %laneid;\n"          /* N: not linear in tid.x         */
    " mov.u32 %r7, %clock;\n"           /* N                              */
    " ld.global.u32 %r8, [%rd1];\n"     /* N: data (address U)            */
    " ret;";

static void seed_values(void **state)
{
    (void)state;
    char got[32], addr[8];
    classes(seeds, got, sizeof got, addr, NULL);
    assert_string_equal(got, "UUUUAANNN-");
    assert_string_equal(addr, "U");
    expect_terms(seeds, 4, "tid.x");
    expect_terms(seeds, 5, "ctaid.y");
    expect_mutant(seeds, "%ntid.x", "%tid.y", "UUAUAANNN-");
    expect_mutant(seeds, "[cv+4]", "[%rd1]", "UNUUAANNN-");
}

/* r1 = ctaid.x * ntid.x + tid.x, then each transfer rule on it */
#define GTID " mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %ntid.x;\n" \
             " mov.u32 %r3, %tid.x;\n mad.lo.s32 %r4, %r1, %r2, %r3;\n" \
             " ld.param.u32 %r5, [k_n];\n"

static const char arith[] =
    GTID
    " add.s32 %r6, %r4, %r5;\n"         /* A + U                          */
    " sub.s32 %r7, %r6, %r4;\n"         /* A - A: A                       */
    " mul.lo.s32 %r8, %r4, %r5;\n"      /* A * U                          */
    " shl.b32 %r9, %r4, 2;\n"           /* A << imm                       */
    " shl.b32 %r10, %r4, %r5;\n"        /* A << U                         */
    " mul.wide.s32 %rd1, %r4, 4;\n"     /* A * imm, wide                  */
    " cvt.u64.u32 %rd2, %r4;\n"         /* integer cvt                    */
    " neg.s32 %r11, %r4;\n"             /* -A                             */
    " and.b32 %r12, %r4, 31;\n"         /* N: and of A                    */
    " cvt.rn.f32.s32 %f1, %r4;\n"       /* N: to float                    */
    " mul.hi.s32 %r13, %r4, %r5;\n"     /* N: high half                   */
    " add.s32 %r14, %r5, %r5;\n"        /* U + U                          */
    " rem.u32 %r15, %r5, 3;\n"          /* U: any op on uniforms          */
    " ret;";

static void transfer_rules(void **state)
{
    (void)state;
    expect(arith, "AUAAU" "AAAAAAAANNNUU-");
    expect_terms(arith, 5, "tid.x+ctaid.x");
    /* the uniform factor made affine: the product is not affine */
    expect_mutant(arith, "mul.lo.s32 %r8, %r4, %r5", "mul.lo.s32 %r8, %r4, %r4",
                  "AUAAU" "AANAAAAANNNUU-");
    /* shift by an affine amount */
    expect_mutant(arith, "shl.b32 %r10, %r4, %r5", "shl.b32 %r10, %r5, %r4",
                  "AUAAU" "AAAANAAANNNUU-");
    /* a saturating add is not exact modulo 2^n */
    expect_mutant(arith, "add.s32 %r6, %r4, %r5", "add.sat.s32 %r6, %r4, %r5",
                  "AUAAU" "NNAAAAAANNNUU-");
    /* a uniform made of data: everything using it stops being affine */
    expect_mutant(arith, "ld.param.u32 %r5, [k_n]", "ld.global.u32 %r5, [%rd9]",
                  "AUAAN" "NNNANAAANNNNN-");
    /* mad with the uniform factor replaced by an affine one */
    expect_mutant(arith, "mad.lo.s32 %r4, %r1, %r2, %r3", "mad.lo.s32 %r4, %r1, %r3, %r3",
                  "AUAN" "U" "NNNNNNNNNNNUU-");
}

static const char preds[] =
    GTID
    " setp.lt.s32 %p1, %r4, %r5;\n"     /* A < U: affine predicate        */
    " setp.lt.s32 %p2, %r5, 9;\n"       /* U < U                          */
    " and.pred %p3, %p1, %p2;\n"        /* A and U                        */
    " setp.lt.s32 %p4, %r4, %r3;\n"     /* A < A: N (paper: one scalar)   */
    " not.pred %p5, %p1;\n"             /* not A                          */
    " selp.b32 %r6, %r4, %r5, %p2;\n"   /* U predicate: A                 */
    " selp.b32 %r7, %r4, %r5, %p1;\n"   /* A predicate: A, a select       */
    " setp.lt.f32 %p6, %f1, 0f3F800000;\n" /* float U (f1 undefined)      */
    " ret;";

static void predicates(void **state)
{
    (void)state;
    expect(preds, "AUAAU" "AUANAAAU-");
    /* two affine predicates combined: the PEU combines the bit vectors */
    expect_mutant(preds, "setp.lt.s32 %p2, %r5, 9", "setp.lt.s32 %p2, %r3, 9",
                  "AUAAU" "AAANAAAU-");
    expect_opt(preds, "AUAAU" "AUANAANU-", PTX_AFF_OPT_FEED);
    /* without PTX_AFF_OPT_PRED at most one operand may be affine */
    expect_mutant_opt(preds, "setp.lt.s32 %p2, %r5, 9", "setp.lt.s32 %p2, %r3, 9",
                      "AUAAU" "AANNANNU-", PTX_AFF_OPT_FEED);
}

/* the bounds check nvcc emits for if (row < M && col < N): boolean
 * combinations of affine compares (4.3: the PEU combines the expanded bit
 * vectors), and one with a predicate from data */
static const char bool_preds[] =
    GTID
    " setp.ge.s32 %p1, %r4, %r5;\n"     /* A: gtid >= n                   */
    " setp.ge.s32 %p2, %r3, %r5;\n"     /* A: tid >= n                    */
    " or.pred %p3, %p1, %p2;\n"         /* A or A                         */
    " and.pred %p4, %p1, %p2;\n"        /* A and A                        */
    " xor.pred %p5, %p1, %p2;\n"        /* A xor A                        */
    " not.pred %p6, %p3;\n"             /* not (A or A)                   */
    " setp.lt.and.s32 %p7, %r4, 7, %p2;\n" /* A compare and A predicate   */
    " ld.param.u64 %rd1, [k_p0];\n"
    " ld.global.u32 %r6, [%rd1];\n"
    " setp.eq.s32 %p8, %r6, 0;\n"       /* N: data                        */
    " or.pred %p9, %p8, %p1;\n"         /* N or A: N                      */
    " ret;";

static void predicate_combinations(void **state)
{
    (void)state;
    expect(bool_preds, "AUAAU" "AAAAAAA" "UNNN-");
    expect_opt(bool_preds, "AUAAU" "AANNNNN" "UNNN-", PTX_AFF_OPT_FEED);
    expect_terms(bool_preds, 7, "tid.x+ctaid.x");
    /* an operand made non-affine (A >= A): every combination with it is too */
    expect_mutant(bool_preds, "setp.ge.s32 %p2, %r3, %r5", "setp.ge.s32 %p2, %r3, %r4",
                  "AUAAU" "ANNNNNN" "UNNN-");
}

/* predicates merged under masks: a guarded redefinition under an affine
 * guard, and a definition in the region of an affine branch, keep an
 * affine predicate (the affine warp merges the vectors per thread, 4.3);
 * without PTX_AFF_OPT_PRED both merges make it non-affine */
static const char pred_merges[] =
    GTID
    " setp.ge.s32 %p1, %r3, 4;\n"       /* A                              */
    " setp.lt.s32 %p2, %r4, %r5;\n"     /* A                              */
    " @%p2 setp.lt.s32 %p1, %r4, 9;\n"  /* A under an affine guard        */
    " and.pred %p3, %p1, %p1;\n"        /* A: the merged vector           */
    " setp.ge.s32 %p4, %r3, 8;\n"       /* A                              */
    " @%p2 bra $JOIN;\n"                /* A                              */
    " setp.lt.s32 %p4, %r4, 3;\n"       /* A, in the region               */
    "$JOIN:\n"
    " not.pred %p5, %p4;\n"             /* A: merged at the join          */
    " ret;";

static void predicate_merges(void **state)
{
    (void)state;
    expect(pred_merges, "AUAAU" "AAAAAAAA-");
    expect_opt(pred_merges, "AUAAU" "AAANAAAN-", PTX_AFF_OPT_FEED);
    /* a value register under the same guard still mixes threads */
    expect_mutant(pred_merges, "and.pred %p3, %p1, %p1", "add.s32 %r6, %r4, %r4",
                  "AUAAU" "AAAAAAAA-");
}

/* selp on an affine predicate: a select p ? x : y of two tuples (4.6),
 * which affine operations with uniform operands keep, a compare with a
 * uniform turns into an affine predicate, and an access uses as its
 * address; one select per operation */
static const char selects[] =
    GTID
    " setp.lt.s32 %p1, %r4, %r5;\n"     /* 5  A                          */
    " selp.b32 %r6, %r4, 7, %p1;\n"     /* 6  A sel                      */
    " add.s32 %r7, %r6, 4;\n"           /* 7  A sel                      */
    " mul.wide.s32 %rd1, %r7, 4;\n"     /* 8  A sel                      */
    " setp.lt.s32 %p2, %r7, 9;\n"       /* 9  A: select vs uniform       */
    " setp.lt.s32 %p3, %r7, %r4;\n"     /* 10 N: select vs affine        */
    " add.s32 %r8, %r6, %r7;\n"         /* 11 N: two selects             */
    " selp.b32 %r9, %r6, 1, %p1;\n"     /* 12 N: a select of a select    */
    " ld.param.u64 %rd2, [k_p0];\n"     /* 13 U                          */
    " add.s64 %rd3, %rd2, %rd1;\n"      /* 14 A sel                      */
    " ld.global.u32 %r10, [%rd3];\n"    /* 15 N, address A sel           */
    " ret;";

static void select_values(void **state)
{
    (void)state;
    char got[64], addr[8];
    classes(selects, got, sizeof got, addr, NULL);
    assert_string_equal(got, "AUAAU" "AAAAANNNUAN-");
    assert_string_equal(addr, "A");
    char *src = kernel(selects);
    struct ptx_module *m = parse(src);
    const struct ptx_func *f = ptx_find_func(m, "k");
    struct ptx_affine_inst out[32];
    assert_int_equal(ptx_affine_analyse(f, out, NULL, NULL), 0);
    char sel[32];
    for (uint32_t pc = 0; pc < f->ninsts; pc++)
        sel[pc] = out[pc].sel ? 's' : '.';
    sel[f->ninsts] = 0;
    assert_string_equal(sel, "....." "." "sss" "....." "ss.");
    ptx_module_free(m);
    free(src);
    /* a uniform predicate picks one side for every thread: no select */
    expect_mutant(selects, "setp.lt.s32 %p1, %r4, %r5", "setp.lt.s32 %p1, %r5, 3",
                  "AUAAU" "UAAAANAAUAN-");
    /* without PTX_AFF_OPT_PRED a selp on an affine predicate is not affine */
    expect_opt(selects, "AUAAU" "ANNNNNNNUNN-", PTX_AFF_OPT_FEED);
    /* a min/max of an affine and a uniform value is the same kind of
       select (4.6); of two affine values it is not affine */
    expect_mutant(selects, "selp.b32 %r6, %r4, 7, %p1", "min.s32 %r6, %r4, 7",
                  "AUAAU" "AAAAANNNUAN-");
    expect_mutant(selects, "selp.b32 %r6, %r4, 7, %p1", "max.u32 %r6, 7, %r4",
                  "AUAAU" "AAAAANNNUAN-");
    expect_mutant(selects, "selp.b32 %r6, %r4, 7, %p1", "min.s32 %r6, %r4, %r4",
                  "AUAAU" "ANNNNNNNUNN-");
}

/* Vectors (PTX_AFF_OPT_VEC; docs/dac.md "vector"): a div/rem of an affine
 * value by a uniform one is a vector, and so is an affine operation with
 * vector operands (two vectors included: lanes add lane by lane); a
 * compare of a vector with a uniform is an affine predicate; an access
 * may use a vector address; a division by an affine value, a vector
 * times an affine value, a min/max of a vector and a compare of a vector
 * with an affine value are not affine */
static const char vectors[] =
    GTID
    " div.s32 %r6, %r4, %r5;\n"         /* 5  A vec: A / U               */
    " rem.u32 %r7, %r4, 17;\n"          /* 6  A vec: A % imm             */
    " mul.lo.s32 %r8, %r6, %r5;\n"      /* 7  A vec: V * U               */
    " sub.s32 %r9, %r4, %r8;\n"         /* 8  A vec: A - V               */
    " add.s32 %r10, %r9, %r7;\n"        /* 9  A vec: V + V               */
    " setp.lt.u32 %p1, %r7, 3;\n"       /* 10 A: V vs U                  */
    " mul.wide.s32 %rd1, %r10, 4;\n"    /* 11 A vec                      */
    " ld.param.u64 %rd2, [k_p0];\n"     /* 12 U                          */
    " add.s64 %rd3, %rd2, %rd1;\n"      /* 13 A vec                      */
    " ld.global.u32 %r11, [%rd3];\n"    /* 14 N, address A vec           */
    " div.s32 %r12, %r5, %r4;\n"        /* 15 N: U / A                   */
    " mul.lo.s32 %r13, %r6, %r4;\n"     /* 16 N: V * A                   */
    " min.s32 %r14, %r6, 5;\n"          /* 17 N: min of a vector         */
    " setp.lt.s32 %p2, %r6, %r4;\n"     /* 18 N: V vs A                  */
    " div.u32 %r15, %r5, 3;\n"          /* 19 U: U / imm                 */
    " ret;";

static void vector_values(void **state)
{
    (void)state;
    char got[64], addr[8];
    classes(vectors, got, sizeof got, addr, NULL);
    assert_string_equal(got, "AUAAU" "AAAAAAAUAN" "NNNNU-");
    assert_string_equal(addr, "A");
    char *src = kernel(vectors);
    struct ptx_module *m = parse(src);
    const struct ptx_func *f = ptx_find_func(m, "k");
    struct ptx_affine_inst out[32];
    assert_int_equal(ptx_affine_analyse(f, out, NULL, NULL), 0);
    char vec[32];
    for (uint32_t pc = 0; pc < f->ninsts; pc++)
        vec[pc] = out[pc].vec ? 'v' : '.';
    vec[f->ninsts] = 0;
    assert_string_equal(vec, "....." "vvvvv.v.vv" "......");
    ptx_module_free(m);
    free(src);
    /* without PTX_AFF_OPT_VEC a div/rem of an affine value is not affine */
    expect_opt(vectors, "AUAAU" "NNNNNNNUNN" "NNNNU-", PTX_AFF_OPT_PRED | PTX_AFF_OPT_FEED);
    /* a division by an affine value is not affine, nor what uses it */
    expect_mutant(vectors, "div.s32 %r6, %r4, %r5", "div.s32 %r6, %r4, %r4",
                  "AUAAU" "NANNNANUNN" "NNNNU-");
}

/* Fig 4 of the paper: for (i = 0; i < dim; i++) B[i*num+tid] = A[i*num+tid] + 1
 * (params A, B as k_p0 and the same pointer + 4096, dim = num = k_n) */
static const char fig4[] =
    GTID
    " mul.wide.s32 %rd1, %r4, 4;\n"     /* r1 = tid * 4                   */
    " ld.param.u64 %rd2, [k_p0];\n"
    " add.s64 %rd3, %rd2, %rd1;\n"      /* addrA                          */
    " add.s64 %rd4, %rd3, 4096;\n"      /* addrB                          */
    " mov.u32 %r6, 0;\n"                /* i                              */
    "$LOOP:\n"
    " ld.global.u32 %r7, [%rd3];\n"     /* enq.data addrA                 */
    " add.s32 %r8, %r7, 1;\n"
    " st.global.u32 [%rd4], %r8;\n"     /* enq.addr addrB                 */
    " add.s32 %r6, %r6, 1;\n"
    " mul.wide.s32 %rd5, %r5, 4;\n"     /* r3 = num * 4                   */
    " add.s64 %rd3, %rd5, %rd3;\n"
    " add.s64 %rd4, %rd5, %rd4;\n"
    " setp.ne.s32 %p1, %r5, %r6;\n"     /* enq.pred p0: uniform           */
    " @%p1 bra $LOOP;\n"
    " ret;";

static void paper_fig4(void **state)
{
    (void)state;
    char got[64], addr[8], ctl[64];
    classes(fig4, got, sizeof got, addr, ctl);
    assert_string_equal(got, "AUAAU" "AUAAU" "NNNUUAAUU-");
    assert_string_equal(addr, "AA");
    assert_string_equal(ctl, "....................");
    /* a loop step made of data: the addresses stop being affine */
    expect_mutant(fig4, "mul.wide.s32 %rd5, %r5, 4", "mul.wide.s32 %rd5, %r7, 4",
                  "AUAAU" "AUAAU" "NNNUNNNUU-");
    /* an affine step keeps them affine (the affine warp recomputes the tuple) */
    expect_mutant(fig4, "mul.wide.s32 %rd5, %r5, 4", "mul.wide.s32 %rd5, %r3, 4",
                  "AUAAU" "AUAAU" "NNNUAAAUU-");
    /* a loop bound from data: the loop branch and its region are data-
     * controlled; with the masks fed back (4.4) the addresses stay affine */
    expect_mutant(fig4, "setp.ne.s32 %p1, %r5, %r6", "setp.ne.s32 %p1, %r7, %r6",
                  "AUAAU" "AUAAU" "NNNUUAANN-");
    char *m = mutate(fig4, "setp.ne.s32 %p1, %r5, %r6", "setp.ne.s32 %p1, %r7, %r6");
    classes(m, got, sizeof got, addr, ctl);
    assert_string_equal(addr, "AA");
    assert_string_equal(ctl, ".........." "ddddddddd.");
    free(m);
    expect_mutant_opt(fig4, "setp.ne.s32 %p1, %r5, %r6", "setp.ne.s32 %p1, %r7, %r6",
                      "AUAAU" "AUAAU" "NNNNNNNNN-", PTX_AFF_OPT_PRED);
}

/* if (gtid < n) { x = gtid * 4; } y = x: the merge makes x non-affine */
static const char diamond[] =
    GTID
    " mov.u32 %r6, 0;\n"
    " setp.ge.s32 %p1, %r4, %r5;\n"
    " @%p1 bra $JOIN;\n"
    " shl.b32 %r6, %r4, 2;\n"           /* under an affine branch: A     */
    "$JOIN:\n"
    " add.s32 %r7, %r6, %r5;\n"         /* after the merge: N            */
    " ret;";

static void control_dependence(void **state)
{
    (void)state;
    char got[64], ctl[64];
    classes(diamond, got, sizeof got, NULL, ctl);
    assert_string_equal(got, "AUAAU" "UAAAN-");
    assert_string_equal(ctl, "........" "a..");
    /* on a uniform predicate, no thread is left behind: the merge is affine */
    expect_mutant(diamond, "setp.ge.s32 %p1, %r4, %r5", "setp.ge.s32 %p1, %r2, %r5",
                  "AUAAU" "UUUAA-");
    /* on data: the region is non-affine too */
    static const char from[] = "mov.u32 %r6, 0;\n setp.ge.s32 %p1, %r4, %r5";
    static const char to[] = "ld.global.u32 %r6, [%rd9];\n setp.ge.s32 %p1, %r4, %r6";
    expect_mutant(diamond, from, to, "AUAAU" "NNNAN-");
    expect_mutant_opt(diamond, from, to, "AUAAU" "NNNNN-", PTX_AFF_OPT_PRED);
    char *m = mutate(diamond, from, to);
    classes(m, got, sizeof got, NULL, ctl);
    assert_string_equal(ctl, "........" "d..");
    free(m);
}

/* an early exit on data: everything after it is data-controlled */
static const char early_exit[] =
    GTID
    " ld.param.u64 %rd1, [k_p0];\n"
    " ld.global.u32 %r6, [%rd1];\n"
    " setp.eq.s32 %p1, %r6, 0;\n"
    " @%p1 bra $DONE;\n"
    " mul.wide.s32 %rd2, %r4, 4;\n"
    " add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r4;\n"
    "$DONE:\n ret;";

static void data_exit(void **state)
{
    (void)state;
    char got[64], addr[8];
    classes(early_exit, got, sizeof got, addr, NULL);
    assert_string_equal(got, "AUAAU" "UNNNAAN-");
    assert_string_equal(addr, "UA");
    /* without the feedback of data-dependent masks, nothing after it */
    classes_opt(early_exit, got, sizeof got, addr, NULL, PTX_AFF_OPT_PRED);
    assert_string_equal(got, "AUAAU" "UNNNNNN-");
    assert_string_equal(addr, "UN");
    /* the same exit on an affine predicate keeps the address affine */
    char *m = mutate(early_exit, "setp.eq.s32 %p1, %r6, 0", "setp.eq.s32 %p1, %r4, 0");
    classes(m, got, sizeof got, addr, NULL);
    assert_string_equal(got, "AUAAU" "UNAAAAN-");
    assert_string_equal(addr, "UA");
    free(m);
}

/* guarded writes: a uniform guard joins, an affine one mixes threads */
static const char guarded[] =
    GTID
    " mov.u32 %r6, 0;\n"
    " setp.lt.s32 %p1, %r5, 9;\n"
    " @%p1 add.s32 %r6, %r4, 1;\n"      /* uniform guard: A              */
    " add.s32 %r7, %r6, 1;\n"           /* A                             */
    " ret;";

static void guarded_writes(void **state)
{
    (void)state;
    expect(guarded, "AUAAU" "UUAA-");
    expect_mutant(guarded, "setp.lt.s32 %p1, %r5, 9", "setp.lt.s32 %p1, %r4, 9",
                  "AUAAU" "UAAN-");
    expect_mutant(guarded, "mov.u32 %r6, 0;\n setp.lt.s32 %p1, %r5, 9",
                  "ld.global.u32 %r6, [%rd9];\n setp.lt.s32 %p1, %r6, 9",
                  "AUAAU" "NNNN-");
}

/* a grid-stride loop: i starts affine, steps by a uniform; the loop exit
 * is affine, so values defined in the loop are non-affine after it */
static const char stride_loop[] =
    GTID
    " mov.u32 %r6, %nctaid.x;\n"
    " mul.lo.s32 %r7, %r6, %r2;\n"      /* U stride                      */
    " mov.u32 %r8, 0;\n"
    "$LOOP:\n"
    " add.s32 %r8, %r4, 1;\n"           /* A in the loop                 */
    " add.s32 %r4, %r4, %r7;\n"         /* A, loop-carried               */
    " setp.lt.s32 %p1, %r4, %r5;\n"
    " @%p1 bra $LOOP;\n"
    " add.s32 %r9, %r8, 1;\n"           /* N: merged after the loop      */
    " ret;";

static void loops(void **state)
{
    (void)state;
    expect(stride_loop, "AUAAU" "UUU" "AAAA" "N-");
    /* the step made affine in tid: still affine (terms unite) */
    expect_mutant(stride_loop, "add.s32 %r4, %r4, %r7", "add.s32 %r4, %r4, %r3",
                  "AUAAU" "UUU" "AAAA" "N-");
    /* the step made data: i and the branch are not affine */
    expect_mutant(stride_loop, "mul.lo.s32 %r7, %r6, %r2", "ld.global.u32 %r7, [%rd9]",
                  "AUAAU" "UNU" "NNNN" "N-");
}

/* a data branch in a loop whose two sides both go on looping while one
 * may also leave it (mcml's photon loop): the SIMT stack runs one side to
 * the loop exit, its iterations included, before the other, so the loop
 * counter differs across threads in the whole loop, not only after it */
static const char split_loop[] =
    GTID
    " mov.u32 %r6, 0;\n"
    "$LOOP:\n"
    " ld.global.u32 %r7, [%rd9];\n"
    " setp.eq.s32 %p1, %r7, 0;\n"
    " @%p1 bra $NEXT;\n"               /* data: both sides loop          */
    " setp.eq.s32 %p2, %r7, 1;\n"
    " @%p2 bra $OUT;\n"                /* data: break                    */
    "$NEXT:\n"
    " add.s32 %r6, %r6, 1;\n"          /* N: threads at other iterations */
    " setp.lt.s32 %p3, %r6, %r5;\n"
    " @%p3 bra $LOOP;\n"
    "$OUT:\n"
    " ret;";

static void split_loops(void **state)
{
    (void)state;
    expect(split_loop, "AUAAU" "U" "NNN" "NN" "NNN" "-");
    /* without the break the first branch joins inside the loop: the
     * counter stays uniform */
    expect_mutant(split_loop, "@%p2 bra $OUT", "@%p2 bra $NEXT",
                  "AUAAU" "U" "NNN" "NN" "UUU" "-");
    /* a break alone (its side goes straight to the exit): the threads
     * still in the loop share the counter */
    expect_mutant(split_loop, "@%p1 bra $NEXT", "@%p1 bra $OUT",
                  "AUAAU" "U" "NNN" "NN" "UUU" "-");
}

/* Every committed workload: the analysis runs, the counts add up, two
 * runs agree. */
static void workload_ptx(void **state)
{
    (void)state;
    unsigned nmod = 0;
    uint64_t tot = 0, pot = 0;
    for (const struct wl_ptx_blob *b = wl_ptx_blobs; b->name; b++) {
        struct ptx_module *m = NULL;
        struct ptx_diag d;
        assert_int_equal(ptx_parse(b->path, b->text, b->len, &m, &d), 0);
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            const struct ptx_func *f = &m->funcs[i];
            if (!f->has_body)
                continue;
            struct ptx_affine_inst *o1 = calloc(f->ninsts + 1, sizeof *o1);
            struct ptx_affine_inst *o2 = calloc(f->ninsts + 1, sizeof *o2);
            assert_true(o1 && o2);
            struct ptx_affine_stats s1, s2;
            assert_int_equal(ptx_affine_analyse(f, o1, &s1, &d), 0);
            check_counts(f, o1, &s1);
            assert_int_equal(ptx_affine_analyse(f, o2, &s2, &d), 0);
            assert_memory_equal(o1, o2, f->ninsts * sizeof *o1);
            tot += s1.ninsts;
            pot += s1.nuniform + s1.naffine;
            free(o1);
            free(o2);
        }
        ptx_module_free(m);
        nmod++;
    }
    assert_true(nmod > 0);
    assert_true(pot > 0 && pot < tot);
    printf("affine: %u modules, %llu instructions, %llu potentially affine\n", nmod,
           (unsigned long long)tot, (unsigned long long)pot);
}

static void no_cfg(void **state)
{
    (void)state;
    char *src = kernel(" ret;");
    struct ptx_module *m = parse(src);
    struct ptx_func f = *ptx_find_func(m, "k");
    f.cfg = NULL;
    struct ptx_affine_inst out[4];
    struct ptx_diag d;
    assert_int_equal(ptx_affine_analyse(&f, out, NULL, &d), -1);
    assert_non_null(strstr(d.msg, "function k"));
    assert_non_null(strstr(d.msg, "no control-flow graph"));
    ptx_module_free(m);
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_values),
        cmocka_unit_test(transfer_rules),
        cmocka_unit_test(predicates),
        cmocka_unit_test(predicate_combinations),
        cmocka_unit_test(predicate_merges),
        cmocka_unit_test(select_values),
        cmocka_unit_test(vector_values),
        cmocka_unit_test(paper_fig4),
        cmocka_unit_test(control_dependence),
        cmocka_unit_test(data_exit),
        cmocka_unit_test(guarded_writes),
        cmocka_unit_test(loops),
        cmocka_unit_test(split_loops),
        cmocka_unit_test(workload_ptx),
        cmocka_unit_test(no_cfg),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
