/* cmocka tests of the PTX front end: real nvcc -arch=sm_75 output
 * (tests/ptx/nv_*.ptx), every opcode string of the census
 * (tests/ptx/all_opcodes.ptx) with decoded fields checked for a sample,
 * immediates, scopes and symbols, the check printer, malformed inputs
 * (right line:col, never a crash), and parse speed on ~1 MB of PTX. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "ptx/ptx_cfg.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_print.h"
#include "workloads/wl_ptx.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    b[n] = '\0';
    *len = (size_t)n;
    return b;
}

static struct ptx_module *parse_file(const char *path, char **text)
{
    size_t n;
    *text = slurp(path, &n);
    struct ptx_module *m = NULL;
    struct ptx_diag d;
    int rc = ptx_parse(path, *text, n, &m, &d);
    if (rc)
        fprintf(stderr, "%s\n", d.msg);
    assert_int_equal(rc, 0);
    assert_non_null(m);
    return m;
}

static struct ptx_module *parse_str(const char *src)
{
    struct ptx_module *m = NULL;
    struct ptx_diag d;
    int rc = ptx_parse("t.ptx", src, strlen(src), &m, &d);
    if (rc)
        fprintf(stderr, "%s\n", d.msg);
    assert_int_equal(rc, 0);
    return m;
}

static const struct ptx_func *func(const struct ptx_module *m, const char *name)
{
    const struct ptx_func *f = ptx_find_func(m, name);
    assert_non_null(f);
    return f;
}

/* First instruction of f whose opcode is op. */
static const struct ptx_inst *first_op(const struct ptx_func *f, enum ptx_op op)
{
    for (uint32_t i = 0; i < f->ninsts; i++)
        if (f->insts[i].op == op)
            return &f->insts[i];
    fail_msg("no %s in %s", ptx_op_name(op), f->name);
    return NULL;
}

static uint32_t count_op(const struct ptx_func *f, enum ptx_op op)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < f->ninsts; i++)
        n += f->insts[i].op == op;
    return n;
}

/* ------------------------------------------------------------ nvcc input */

static void nvcc_vecadd(void **state)
{
    (void)state;
    char *text;
    struct ptx_module *m = parse_file("tests/ptx/nv_vecadd.ptx", &text);
    assert_int_equal(m->version_major, 9);
    assert_int_equal(m->version_minor, 0);
    assert_string_equal(m->target, "sm_75");
    assert_int_equal(m->address_size, 64);
    assert_int_equal(m->nfuncs, 1);
    const struct ptx_func *f = func(m, "_Z6vecAddPKfS0_Pfi");
    assert_true(f->is_entry);
    assert_int_equal(f->nparams, 4);
    assert_int_equal(f->params[3].type, PTX_T_U32);
    assert_int_equal(f->params[2].offset, 16);
    assert_int_equal(f->params[3].offset, 24);
    assert_int_equal(f->param_bytes, 28);
    /* ld.param.u64 %rd1, [param_0]: MEM on function symbol 0 (the param) */
    const struct ptx_inst *ld = &f->insts[0];
    assert_int_equal(ld->op, PTX_OP_LD);
    assert_int_equal(ld->space, PTX_SP_PARAM);
    assert_int_equal(ld->type, PTX_T_U64);
    assert_int_equal(ld->o[1].kind, PTX_O_MEM);
    assert_int_equal(ld->o[1].sym.scope, 1);
    assert_int_equal(ld->o[1].sym.index, 0);
    assert_int_equal(ld->o[1].reg, -1);
    assert_string_equal(f->syms[0].name, "_Z6vecAddPKfS0_Pfi_param_0");
    assert_int_equal(f->syms[3].offset, 24);
    assert_int_equal(ld->line, 28);
    assert_int_equal(ld->col, 2);
    /* guarded early exit: @%p1 bra $L__BB0_2 reconverges at its target */
    const struct ptx_inst *bra = first_op(f, PTX_OP_BRA);
    assert_true(bra->guard >= 0);
    assert_int_equal(f->regs[bra->guard].type, PTX_T_PRED);
    assert_int_equal(bra->reconv, bra->o[0].label);
    assert_int_equal(f->insts[bra->o[0].label].op, PTX_OP_RET);
    /* special registers and cvta */
    const struct ptx_inst *cv = first_op(f, PTX_OP_CVTA);
    assert_int_equal(cv->space, PTX_SP_GLOBAL);
    assert_true(cv->flags & PTX_F_TO);
    uint32_t nsreg = 0;
    for (uint32_t i = 0; i < f->ninsts; i++)
        nsreg += f->insts[i].op == PTX_OP_MOV && f->insts[i].o[1].kind == PTX_O_SREG;
    assert_int_equal(nsreg, 3);
    ptx_module_free(m);
    free(text);
    /* the -G build (generic ld/st, .loc/.file, debug sections) */
    m = parse_file("tests/ptx/nv_vecadd_debug.ptx", &text);
    assert_int_equal(m->nfuncs, 1);
    assert_true(m->funcs[0].ninsts > 10);
    ptx_module_free(m);
    free(text);
}

static void nvcc_reduce(void **state)
{
    (void)state;
    char *text;
    struct ptx_module *m = parse_file("tests/ptx/nv_reduce.ptx", &text);
    const struct ptx_func *f = func(m, "_Z12reduceSharedPKfPfi");
    assert_int_equal(f->shared_bytes, 1024);
    assert_int_equal(count_op(f, PTX_OP_BAR) + count_op(f, PTX_OP_BARRIER), 2);
    const struct ptx_inst *bar = first_op(f, count_op(f, PTX_OP_BAR) ? PTX_OP_BAR : PTX_OP_BARRIER);
    assert_int_equal(bar->sub, PTX_SUB_SYNC);
    assert_int_equal(bar->o[0].kind, PTX_O_IMM);
    assert_int_equal(bar->o[0].imm, 0);
    /* the loop's back edge reconverges after the loop */
    uint32_t back = 0;
    for (uint32_t i = 0; i < f->ninsts; i++) {
        const struct ptx_inst *in = &f->insts[i];
        if (in->op == PTX_OP_BRA && in->o[0].label < (int32_t)i) {
            back++;
            assert_true(in->reconv > (int32_t)i);
        }
    }
    assert_int_equal(back, 1);

    f = func(m, "_Z10reduceWarpPKiPii");
    const struct ptx_inst *sh = first_op(f, PTX_OP_SHFL);
    assert_int_equal(sh->sub, PTX_SUB_DOWN);
    assert_true(sh->flags & PTX_F_SHFL_P);
    assert_int_equal(sh->o[1].kind, PTX_O_REG);
    assert_int_equal(f->regs[sh->o[1].reg].type, PTX_T_PRED);
    assert_int_equal(sh->o[5].kind, PTX_O_REG);
    const struct ptx_inst *v = first_op(f, PTX_OP_VOTE);
    assert_int_equal(v->sub, PTX_SUB_BALLOT);
    const struct ptx_inst *at = first_op(f, PTX_OP_ATOM);
    assert_int_equal(at->space, PTX_SP_GLOBAL);
    assert_int_equal(at->o[1].kind, PTX_O_MEM);

    f = func(m, "_Z9reduceDynPKdPd");
    uint32_t ext = 0;
    for (uint32_t i = 0; i < f->nsyms; i++)
        if (f->syms[i].is_extern) {
            ext++;
            assert_string_equal(f->syms[i].name, "dyn");
            assert_int_equal(f->syms[i].space, PTX_SP_SHARED);
            assert_int_equal(f->syms[i].offset % 16, 0);
        }
    assert_int_equal(ext, 1);
    assert_int_equal(f->shared_bytes, 0);
    ptx_module_free(m);
    free(text);
    m = parse_file("tests/ptx/nv_reduce_lineinfo.ptx", &text);
    assert_int_equal(m->nfuncs, 3);
    ptx_module_free(m);
    free(text);
}

static void nvcc_math_calls(void **state)
{
    (void)state;
    char *text;
    struct ptx_module *m = parse_file("tests/ptx/nv_math.ptx", &text);
    /* module data with initialisers */
    int coef = -1, table = -1;
    for (uint32_t i = 0; i < m->nsyms; i++) {
        if (!strcmp(m->syms[i].name, "coef"))
            coef = (int)i;
        if (!strcmp(m->syms[i].name, "table"))
            table = (int)i;
    }
    assert_true(coef >= 0 && table >= 0);
    assert_int_equal(m->syms[coef].space, PTX_SP_CONST);
    assert_int_equal(m->syms[coef].size, 32);
    float c1;
    memcpy(&c1, m->syms[coef].init + 4, 4);
    assert_true(c1 == 0.5f);
    int32_t t1;
    memcpy(&t1, m->syms[table].init + 4, 4);
    assert_int_equal(t1, -2);
    assert_int_equal(m->syms[table].space, PTX_SP_GLOBAL);
    assert_true(m->global_bytes >= 16 + 128);
    assert_int_equal(m->const_bytes, 32);
    /* .func with a 16-byte struct return, called through callseq blocks */
    const struct ptx_func *tr = func(m, "__internal_trig_reduction_slowpathd");
    assert_false(tr->is_entry);
    assert_int_equal(tr->nrets, 1);
    assert_int_equal(tr->rets[0].size, 16);
    assert_int_equal(tr->local_bytes, 40);
    const struct ptx_func *k = func(m, "_Z10mathKernelPKdPdPfPii");
    assert_int_equal(count_op(k, PTX_OP_CALL), 2);
    const struct ptx_inst *call = first_op(k, PTX_OP_CALL);
    assert_true(call->flags & PTX_F_UNI);
    assert_int_equal(call->o[0].kind, PTX_O_FUNC);
    const struct ptx_func *callee = &m->funcs[call->o[0].func];
    assert_true(callee == tr || callee == func(m, "__internal_accurate_pow"));
    assert_int_equal(call->o[1].kind, PTX_O_SYM);
    assert_int_equal(call->o[1].sym.scope, 1);
    assert_string_equal(k->syms[call->o[1].sym.index].name, "retval0");
    assert_int_equal(k->syms[call->o[1].sym.index].space, PTX_SP_PARAM);
    assert_true(call->nopnd >= 3);
    assert_int_equal(call->o[2].kind, PTX_O_SYM);
    /* ld.param [retval0+8] on the second callseq's 16-byte retval0 */
    bool found = false;
    for (uint32_t i = 0; i < k->ninsts; i++) {
        const struct ptx_inst *in = &k->insts[i];
        if (in->op == PTX_OP_LD && in->space == PTX_SP_PARAM &&
            in->o[1].sym.scope == 1 && in->o[1].imm == 8 &&
            !strcmp(k->syms[in->o[1].sym.index].name, "retval0")) {
            found = true;
            assert_int_equal(k->syms[in->o[1].sym.index].size, 16);
        }
    }
    assert_true(found);
    /* mov.u64 %rd, coef: address of a module symbol */
    found = false;
    for (uint32_t i = 0; i < k->ninsts; i++) {
        const struct ptx_inst *in = &k->insts[i];
        if (in->op == PTX_OP_MOV && in->o[1].kind == PTX_O_SYM &&
            in->o[1].sym.scope == 0 && in->o[1].sym.index == coef)
            found = true;
    }
    assert_true(found);
    /* carry chain kernel: mul.hi.u64 */
    const struct ptx_func *cy = func(m, "_Z5carryPyPKy");
    const struct ptx_inst *mul = first_op(cy, PTX_OP_MUL);
    (void)mul;
    ptx_module_free(m);
    free(text);
    m = parse_file("tests/ptx/nv_math_fast.ptx", &text);
    k = func(m, "_Z10mathKernelPKdPdPfPii");
    assert_true(k->ninsts > 20);
    ptx_module_free(m);
    free(text);
}

static void nvcc_tex_struct(void **state)
{
    (void)state;
    char *text;
    struct ptx_module *m = parse_file("tests/ptx/nv_tex.ptx", &text);
    const struct ptx_func *f = func(m, "_Z8texFetchyP6float4i");
    const struct ptx_inst *t = first_op(f, PTX_OP_TEX);
    assert_int_equal(t->geom, PTX_GEOM_1D);
    assert_int_equal(t->vec, 4);
    assert_int_equal(t->type, PTX_T_F32);
    assert_int_equal(t->type2, PTX_T_S32);
    assert_int_equal(t->o[0].kind, PTX_O_VEC);
    assert_int_equal(t->o[0].vec_n, 4);
    assert_int_equal(t->o[1].kind, PTX_O_MEM);
    assert_true(t->o[1].reg >= 0);
    assert_int_equal(t->o[2].kind, PTX_O_VEC);
    assert_int_equal(t->o[2].vec_n, 1);
    f = func(m, "_Z7byValue1PPfi");
    assert_int_equal(f->maxntid[0], 128);
    assert_int_equal(f->maxntid[1], 1);
    assert_int_equal(f->params[0].size, 16);
    assert_int_equal(f->params[0].align, 8);
    assert_int_equal(f->params[0].type, PTX_T_B8);
    assert_int_equal(f->params[1].offset, 16);
    ptx_module_free(m);
    free(text);
}

/* The SIMT notes' example kernel as nvcc compiles it: the if/else branch
 * reconverges at the a[6] = 99 block. */
static void nvcc_simt_notes(void **state)
{
    (void)state;
    char *text;
    struct ptx_module *m = parse_file("tests/ptx/nv_simt_notes.ptx", &text);
    const struct ptx_func *f = func(m, "_Z4kernv");
    int32_t join = -1;
    for (uint32_t i = 0; i < f->ninsts; i++)
        if (f->insts[i].op == PTX_OP_MOV && f->insts[i].o[1].kind == PTX_O_IMM &&
            f->insts[i].o[1].imm == 99)
            join = (int32_t)i - 2;
    assert_true(join > 0);
    assert_int_equal(f->insts[join].op, PTX_OP_LD);
    assert_int_equal(count_op(f, PTX_OP_BRA), 3);
    /* the divergent branch reconverges at the join; an unconditional
     * branch's block is post-dominated by its target */
    uint32_t guarded = 0;
    for (uint32_t i = 0; i < f->ninsts; i++) {
        const struct ptx_inst *in = &f->insts[i];
        if (in->op != PTX_OP_BRA)
            continue;
        if (in->guard >= 0) {
            guarded++;
            assert_int_equal(in->reconv, join);
        } else {
            assert_int_equal(in->reconv, in->o[0].label);
        }
    }
    assert_int_equal(guarded, 1);
    /* module .global pointer variables a, b, c read with ld.global [a] */
    assert_int_equal(m->nsyms, 3);
    assert_int_equal(m->global_bytes, 24);
    const struct ptx_inst *ld = first_op(f, PTX_OP_LD);
    assert_int_equal(ld->o[1].sym.scope, 0);
    assert_string_equal(m->syms[ld->o[1].sym.index].name, "a");
    ptx_module_free(m);
    free(text);
}

/* Module-scope .shared is per kernel: imported into each function that
 * uses it, after the function's own statics. */
static void module_shared(void **state)
{
    (void)state;
    struct ptx_module *m = parse_str(HDR
        ".shared .align 8 .b8 ms[12];\n"
        ".entry k1()\n{\n .reg .b32 %r<2>;\n .shared .align 4 .b8 own[6];\n"
        " ld.shared.u32 %r1, [ms+4];\n ld.shared.u32 %r1, [ms];\n ret;\n}\n"
        ".entry k2()\n{\n .reg .b32 %r<2>;\n ret;\n}\n"
        ".func f()\n{\n ret;\n}\n"
        ".func g()\n{\n}\n");
    const struct ptx_func *k1 = func(m, "k1");
    assert_int_equal(k1->insts[0].o[1].sym.scope, 1);
    assert_int_equal(k1->insts[0].o[1].sym.index, k1->insts[1].o[1].sym.index);
    const struct ptx_symbol *ms = &k1->syms[k1->insts[0].o[1].sym.index];
    assert_string_equal(ms->name, "ms");
    assert_int_equal(ms->offset, 8);
    assert_int_equal(k1->shared_bytes, 20);
    assert_int_equal(func(m, "k2")->shared_bytes, 0);
    assert_false(func(m, "f")->is_entry);
    assert_int_equal(func(m, "g")->ninsts, 0);
    char *out = NULL;
    size_t n = 0;
    FILE *fo = open_memstream(&out, &n);
    assert_int_equal(ptx_check_print(fo, m), 0);
    fclose(fo);
    assert_non_null(strstr(out, "2 kernels, 2 functions"));
    assert_null(strstr(out, "declaration only"));
    free(out);
    ptx_module_free(m);
}

/* Every workload PTX embedded in the build parses, and every kernel's
 * branches got a reconvergence PC inside the function. */
static void workload_ptx(void **state)
{
    (void)state;
    unsigned files = 0, kernels = 0;
    for (const struct wl_ptx_blob *b = wl_ptx_blobs; b->name; b++) {
        struct ptx_module *m = NULL;
        struct ptx_diag d;
        int rc = ptx_parse(b->path, b->text, b->len, &m, &d);
        if (rc)
            fail_msg("%s", d.msg);
        files++;
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            const struct ptx_func *f = &m->funcs[i];
            kernels += f->is_entry;
            for (uint32_t k = 0; k < f->ninsts; k++)
                if (f->insts[k].op == PTX_OP_BRA)
                    assert_true(f->insts[k].reconv >= 0 &&
                                (uint32_t)f->insts[k].reconv <= f->ninsts);
        }
        ptx_module_free(m);
    }
    printf("parsed %u workload PTX files, %u kernels\n", files, kernels);
    assert_true(files == 0 || kernels >= files);
}

/* ------------------------------------------------------- all opcodes */

static const struct ptx_inst *by_text(const struct ptx_func *f, const char *text,
                                      const char *opstr)
{
    /* find the source line whose instruction starts with opstr + blank */
    size_t n = strlen(opstr);
    uint32_t line = 1;
    for (const char *s = text; *s; s++) {
        const char *q = s;
        while (*q == '\t' || *q == ' ')
            q++;
        if (*q == '@') {
            while (*q && *q != ' ')
                q++;
            q++;
        }
        if (!strncmp(q, opstr, n) && (q[n] == ' ' || q[n] == ';'))
            for (uint32_t i = 0; i < f->ninsts; i++)
                if (f->insts[i].line == line)
                    return &f->insts[i];
        while (*s && *s != '\n')
            s++;
        if (!*s)
            break;
        line++;
    }
    fail_msg("no instruction %s", opstr);
    return NULL;
}

static void all_opcodes(void **state)
{
    (void)state;
    char *text;
    struct ptx_module *m = parse_file("tests/ptx/all_opcodes.ptx", &text);
    const struct ptx_func *f = func(m, "_Z3allPfS_i");
    /* one instruction per census string plus the call sequence's st/ld and
     * the final ret */
    assert_int_equal(f->ninsts, 254 + 2 + 1);
    const struct ptx_inst *in;
    in = by_text(f, text, "setp.gtu.f64");
    assert_int_equal(in->op, PTX_OP_SETP);
    assert_int_equal(in->cmp, PTX_CMP_GTU);
    assert_int_equal(in->type, PTX_T_F64);
    assert_int_equal(in->o[1].kind, PTX_O_NONE);
    assert_int_equal(in->o[2].kind, PTX_O_REG);
    in = by_text(f, text, "cvt.rn.f32.f64");
    assert_int_equal(in->rnd, PTX_RND_RN);
    assert_int_equal(in->type, PTX_T_F32);
    assert_int_equal(in->type2, PTX_T_F64);
    in = by_text(f, text, "cvt.rzi.s32.f32");
    assert_int_equal(in->rnd, PTX_RND_RZI);
    in = by_text(f, text, "cvt.sat.f32.f32");
    assert_true(in->flags & PTX_F_SAT);
    in = by_text(f, text, "ld.global.nc.v2.f64");
    assert_int_equal(in->space, PTX_SP_GLOBAL);
    assert_true(in->flags & PTX_F_NC);
    assert_int_equal(in->vec, 2);
    assert_int_equal(in->o[0].vec_n, 2);
    in = by_text(f, text, "ld.acquire.cta.u32");
    assert_int_equal(in->space, PTX_SP_GENERIC);
    in = by_text(f, text, "ld.volatile.shared.u32");
    assert_true(in->flags & PTX_F_VOLATILE);
    assert_int_equal(in->space, PTX_SP_SHARED);
    in = by_text(f, text, "st.global.v4.u8");
    assert_int_equal(in->o[0].kind, PTX_O_MEM);
    assert_int_equal(in->o[1].kind, PTX_O_VEC);
    assert_int_equal(in->type, PTX_T_U8);
    in = by_text(f, text, "atom.or.acq_rel.cta.b32");
    assert_int_equal(in->sub, PTX_SUB_OR);
    assert_int_equal(in->space, PTX_SP_GENERIC);
    in = by_text(f, text, "atom.shared.add.u32");
    assert_int_equal(in->sub, PTX_SUB_ADD);
    assert_int_equal(in->space, PTX_SP_SHARED);
    in = by_text(f, text, "red.and.release.cta.b32");
    assert_int_equal(in->sub, PTX_SUB_AND);
    assert_int_equal(in->o[0].kind, PTX_O_MEM);
    in = by_text(f, text, "mad.lo.cc.u32");
    assert_int_equal(in->flags & (PTX_F_LO | PTX_F_CC), PTX_F_LO | PTX_F_CC);
    in = by_text(f, text, "madc.hi.cc.u32");
    assert_int_equal(in->op, PTX_OP_MADC);
    assert_int_equal(in->flags & (PTX_F_HI | PTX_F_CC), PTX_F_HI | PTX_F_CC);
    in = by_text(f, text, "mul.wide.u16");
    assert_true(in->flags & PTX_F_WIDE);
    assert_int_equal(in->type, PTX_T_U16);
    in = by_text(f, text, "bar.warp.sync");
    assert_int_equal(in->sub, PTX_SUB_WARP_SYNC);
    assert_int_equal(in->o[0].imm, -1);
    in = by_text(f, text, "tex.2d.v4.u32.f32");
    assert_int_equal(in->geom, PTX_GEOM_2D);
    assert_int_equal(in->o[2].vec_n, 2);
    in = by_text(f, text, "tex.1d.v4.f32.s32");
    assert_int_equal(in->o[1].sym.scope, 0);
    assert_int_equal(m->syms[in->o[1].sym.index].space, PTX_SP_TEX);
    in = by_text(f, text, "shfl.sync.idx.b32");
    assert_int_equal(in->sub, PTX_SUB_IDX);
    assert_int_equal(in->o[5].kind, PTX_O_IMM);
    assert_int_equal(in->o[5].imm, -1);
    in = by_text(f, text, "rcp.approx.ftz.f64");
    assert_int_equal(in->flags & (PTX_F_APPROX | PTX_F_FTZ), PTX_F_APPROX | PTX_F_FTZ);
    in = by_text(f, text, "div.rn.f64");
    assert_int_equal(in->rnd, PTX_RND_RN);
    in = by_text(f, text, "bra.uni");
    assert_true(in->flags & PTX_F_UNI);
    /* a guarded ret lies between the branch and its target: the paths
     * only meet at the exit */
    assert_int_equal(in->o[0].label, f->ninsts - 1);
    assert_int_equal(in->reconv, f->ninsts);
    in = by_text(f, text, "cvta.shared.u64");
    assert_int_equal(in->space, PTX_SP_SHARED);
    assert_false(in->flags & PTX_F_TO);
    in = by_text(f, text, "shl.b16");
    assert_int_equal(in->type, PTX_T_B16);
    in = by_text(f, text, "call.uni");
    assert_int_equal(in->o[0].kind, PTX_O_FUNC);
    assert_string_equal(m->funcs[in->o[0].func].name, "helper");
    in = by_text(f, text, "copysign.f32");
    assert_int_equal(in->op, PTX_OP_COPYSIGN);
    in = by_text(f, text, "clz.b64");
    assert_int_equal(in->type, PTX_T_B64);
    ptx_module_free(m);
    free(text);
}

/* ------------------------------------------------- immediates, operands */

static void immediates(void **state)
{
    (void)state;
    struct ptx_module *m = parse_str(HDR
        ".entry k()\n{\n"
        " .reg .pred %p<3>;\n .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n"
        " .reg .f32 %f<4>;\n .reg .f64 %fd<4>;\n"
        " mov.f32 %f1, 0f3F800000;\n"                  /* 0 */
        " add.f32 %f2, %f1, 1;\n"                      /* 1 int -> float */
        " mov.f64 %fd1, 0d4000000000000000;\n"         /* 2 */
        " add.f64 %fd2, %fd1, 2;\n"                    /* 3 */
        " mov.f64 %fd3, 0f3F800000;\n"                 /* 4 f32 lit, f64 op */
        " mov.u64 %rd1, -9223372036854775808;\n"       /* 5 */
        " mov.u32 %r1, 0xFFFFFFFF;\n"                  /* 6 */
        " mul.f32 %f3, %f2, -0f40000000;\n"            /* 7 negated pattern */
        " ld.global.u32 %r2, [%rd1+-4];\n"             /* 8 */
        " ld.global.u32 %r2, [%rd1-8];\n"              /* 9 */
        " ld.global.u32 %r2, [%rd1+16];\n"             /* 10 */
        " mov.u32 %r3, %tid.y;\n"                      /* 11 */
        " setp.lt.and.s32 %p1|%p2, %r1, 7, !%p0;\n"    /* 12 */
        " selp.f32 %f1, 0f00000000, %f2, %p1;\n"       /* 13 */
        " mov.b64 {%r1, %r2}, %rd1;\n"                 /* 14 */
        " mov.b64 %rd2, {%r1, %r2};\n"                 /* 15 */
        " mov.f32 %f1, 1.5;\n"                         /* 16 decimal float */
        " shl.b64 %rd3, %rd2, 3;\n"                    /* 17 */
        " mov.u32 %r1, 017;\n"                         /* 18 octal */
        " ret;\n}\n");
    const struct ptx_func *f = &m->funcs[0];
    const struct ptx_inst *in = f->insts;
    assert_int_equal(in[0].o[1].imm, 0x3F800000);
    assert_int_equal(in[1].o[2].imm, 0x3F800000);
    assert_int_equal((uint64_t)in[2].o[1].imm, 0x4000000000000000ull);
    assert_int_equal((uint64_t)in[3].o[2].imm, 0x4000000000000000ull);
    assert_int_equal((uint64_t)in[4].o[1].imm, 0x3FF0000000000000ull);
    assert_int_equal(in[5].o[1].imm, INT64_MIN);
    assert_int_equal(in[6].o[1].imm, 0xFFFFFFFF);
    assert_int_equal((uint32_t)in[7].o[2].imm, 0xC0000000u);
    assert_int_equal(in[8].o[1].imm, -4);
    assert_int_equal(in[9].o[1].imm, -8);
    assert_int_equal(in[10].o[1].imm, 16);
    assert_int_equal(in[11].o[1].kind, PTX_O_SREG);
    assert_int_equal(in[11].o[1].sreg, PTX_SR_TID_Y);
    assert_int_equal(in[12].sub, PTX_SUB_AND);
    assert_int_equal(in[12].cmp, PTX_CMP_LT);
    assert_int_equal(in[12].o[1].kind, PTX_O_REG);
    assert_int_equal(in[12].o[3].imm, 7);
    assert_true(in[12].o[4].neg);
    assert_int_equal(in[12].nopnd, 5);
    assert_int_equal(in[13].o[1].imm, 0);
    assert_int_equal(in[13].o[3].kind, PTX_O_REG);
    assert_int_equal(in[14].o[0].kind, PTX_O_VEC);
    assert_int_equal(in[14].o[0].vec_n, 2);
    assert_int_equal(in[15].o[1].kind, PTX_O_VEC);
    assert_int_equal(in[16].o[1].imm, 0x3FC00000);
    assert_int_equal(in[17].o[2].imm, 3);
    assert_int_equal(in[18].o[1].imm, 15);
    char buf[160];
    ptx_inst_format(buf, sizeof buf, f, &in[12]);
    assert_non_null(strstr(buf, "setp.and.lt.s32 %p1|%p2, %r1, 0x7, !%p0"));
    assert_non_null(strstr(buf, "pc 12"));
    ptx_inst_format(buf, 12, f, &in[12]); /* truncation is safe */
    assert_int_equal(strlen(buf), 11);
    ptx_module_free(m);
}

static void scopes_and_symbols(void **state)
{
    (void)state;
    struct ptx_module *m = parse_str(HDR
        ".extern .shared .align 16 .b8 dynA[];\n"
        ".extern .shared .align 8 .b8 dynB[];\n"
        ".global .align 8 .u64 gtab[3] = {1, 2, 3};\n"
        ".global .f32 gf[2] = {0f3F800000, 2.5};\n"
        ".global .align 4 .b8 g2[2][3] = {{1, 2, 3}, {4, 5, 6}};\n"
        ".visible .entry k(.param .u32 n, .param .u64 .ptr .global .align 1 q)\n"
        ".maxntid 64, 2\n{\n"
        " .reg .b32 x;\n .reg .b32 %r<3>;\n .reg .b64 %SP;\n .reg .b64 %SPL;\n"
        " .shared .align 4 .b8 sa[5];\n"
        " .shared .align 8 .b8 sb[8];\n"
        " .local .align 8 .b8 __local_depot0[24];\n"
        " mov.u64 %SPL, __local_depot0;\n"
        " mov.b32 x, 1;\n"
        " {\n  .reg .b32 x;\n  mov.b32 x, 2;\n  {\n   .reg .pred x;\n  }\n }\n"
        " mov.b32 x, 3;\n"
        " mov.u32 %r1, sb;\n"
        " ld.shared.u32 %r2, [dynA+4];\n"
        " ld.shared.u32 %r2, [dynB];\n"
        " ld.shared.u32 %r2, [sa];\n"
        " ld.param.u32 %r2, [n];\n"
        " ret;\n}\n");
    assert_int_equal(m->nsyms, 5);
    assert_int_equal(m->syms[2].size, 24);
    uint64_t v;
    memcpy(&v, m->syms[2].init + 16, 8);
    assert_int_equal(v, 3);
    uint32_t b;
    memcpy(&b, m->syms[3].init + 4, 4);
    assert_int_equal(b, 0x40200000u); /* 2.5f */
    assert_int_equal(m->syms[4].size, 6);
    assert_int_equal(m->syms[4].init[4], 5);
    assert_int_equal(m->syms[3].offset, 24);
    const struct ptx_func *f = &m->funcs[0];
    assert_int_equal(f->params[1].offset, 8); /* .ptr .align 1: pointee's */
    assert_int_equal(f->params[1].align, 8);
    assert_int_equal(f->maxntid[0], 64);
    assert_int_equal(f->maxntid[1], 2);
    assert_int_equal(f->insts[1].o[0].reg, 0);          /* outer x */
    assert_int_not_equal(f->insts[2].o[0].reg, 0);      /* inner x */
    assert_int_equal(f->insts[3].o[0].reg, 0);          /* outer again */
    assert_int_equal(f->shared_bytes, 16);              /* sa 0..5, sb 8..16 */
    assert_int_equal(f->local_bytes, 24);
    assert_int_equal(f->insts[0].o[1].kind, PTX_O_SYM);
    const struct ptx_symbol *sb = &f->syms[f->insts[4].o[1].sym.index];
    assert_string_equal(sb->name, "sb");
    assert_int_equal(sb->offset, 8);
    const struct ptx_symbol *da = &f->syms[f->insts[5].o[1].sym.index];
    const struct ptx_symbol *db = &f->syms[f->insts[6].o[1].sym.index];
    assert_true(da->is_extern && db->is_extern);
    assert_int_equal(da->offset, db->offset);            /* aliases */
    assert_int_equal(da->offset, 16);
    assert_int_equal(f->insts[5].o[1].imm, 4);
    assert_int_equal(f->insts[7].o[1].sym.scope, 1);
    assert_string_equal(f->syms[f->insts[8].o[1].sym.index].name, "n");
    /* the check report names the kernel, its param and the shared bytes */
    char *out = NULL;
    size_t n = 0;
    FILE *fo = open_memstream(&out, &n);
    assert_non_null(fo);
    assert_int_equal(ptx_check_print(fo, m), 0);
    fclose(fo);
    assert_non_null(strstr(out, "kernel k"));
    assert_non_null(strstr(out, "param n: .u32, 4 bytes"));
    assert_non_null(strstr(out, "static shared 16 bytes, local 24 bytes"));
    free(out);
    ptx_module_free(m);
}

static void check_report_branches(void **state)
{
    (void)state;
    struct ptx_module *m = parse_str(HDR
        ".entry k()\n{\n .reg .pred %p<2>;\n .reg .b32 %r<3>;\n"
        " mov.u32 %r1, %tid.x;\n"
        " setp.lt.u32 %p1, %r1, 5;\n"
        " @!%p1 bra ELSE;\n"
        " add.s32 %r2, %r1, 1;\n"
        " bra.uni JOIN;\n"
        "ELSE:\n add.s32 %r2, %r1, 2;\n"
        "JOIN:\n ret;\n}\n");
    const struct ptx_func *f = &m->funcs[0];
    assert_true(f->insts[2].guard_neg);
    assert_int_equal(f->insts[2].reconv, 6);
    assert_int_equal(f->insts[4].reconv, 6);
    char *out = NULL;
    size_t n = 0;
    FILE *fo = open_memstream(&out, &n);
    assert_int_equal(ptx_check_print(fo, m), 0);
    fclose(fo);
    assert_non_null(strstr(out, "branch pc 2 (line 10) conditional -> pc 5 (line 14), reconverges at pc 6 (line 16)"));
    free(out);
    ptx_module_free(m);
}

/* ------------------------------------------------------------ malformed */

struct bad {
    const char *body;     /* inside .entry k() { .reg ... <body> } */
    unsigned line, col;   /* relative: line 1 = first body line */
    const char *what;
};

#define PRE HDR ".entry k()\n{\n .reg .pred %p<2>;\n .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n .reg .f32 %f<2>;\n"
#define PRE_LINES 9

static const struct bad bads[] = {
    {" foo.s32 %r1, %r2;\n", 1, 2, "unknown opcode 'foo'"},
    {" add.xyz.s32 %r1, %r2, %r3;\n", 1, 5, "unknown modifier '.xyz'"},
    {" add.wide.s32 %r1, %r2, %r3;\n", 1, 5, "not valid for add"},
    {" add.s32 %r1, %r2, %r9;\n", 1, 20, "undefined register (%r9)"},
    {" add.s32 %r1, %r2;\n", 1, 2, "wrong operand count"},
    {" add.s32 %r1, %r2, %r3, %r3;\n", 1, 2, "wrong operand count"},
    {" add %r1, %r2, %r3;\n", 1, 2, "expected a type suffix"},
    {" cvt.f32 %f1, %r2;\n", 1, 2, "two type suffixes"},
    {" setp.s32 %p1, %r1, %r2;\n", 1, 2, "comparison"},
    {" setp.eq.s32 %r1, %r1, %r2;\n", 1, 14, "expected a .pred register as operand 0 of setp"},
    {" selp.b32 %r1, %r2, %r3, %r1;\n", 1, 26, "expected a .pred register as operand 3 of selp"},
    {" add.s32 %r1, %p1, %r3;\n", 1, 15, "expected a non-predicate register as operand 1 of add"},
    {" @%r1 bra L;\nL: ret;\n", 1, 3, "expected a .pred register as guard"},
    {" bra NOWHERE;\n", 1, 6, "undefined label (NOWHERE)"},
    {"L: ret;\nL: ret;\n", 2, 1, "redefinition of label (L)"},
    {" .reg .b32 %r<2>;\n", 1, 12, "redefinition of '%r'"},
    {" ld.global.u32 %r1, [nosuch];\n", 1, 22, "undefined register or symbol (nosuch)"},
    {" ld.global.u32 %r1, %rd1;\n", 1, 21, "expected an address"},
    {" st.global.u32 %r1, %r2;\n", 1, 16, "expected an address"},
    {" ld.global.v4.u32 {%r1, %r2}, [%rd1];\n", 1, 19, "expected 4 vector elements"},
    {" mov.u32 %r1, 0f3F80;\n", 1, 15, "8 hex digits"},
    {" mov.u32 %r1, 99999999999999999999;\n", 1, 15, "out of 64-bit range"},
    {" mov.u32 %r1, 1.5;\n", 1, 15, "expected an integer immediate"},
    {" mov.u32 %r1, %r2\n ret;\n", 2, 2, "expected ';'"},
    {" mov.u32 %r1, #;\n", 1, 15, "unexpected character"},
    {" /* open comment\n", 1, 2, "unterminated block comment"},
    {" mov.u32 %r1, %tid.w;\n", 1, 15, "unknown special register"},
    {" .foo .b32 x;\n", 1, 2, "unknown directive"},
    {" .global .u32 g;\n", 1, 2, "expected .reg, .shared, .local or .param"},
    {" call.uni nothere, ();\n", 1, 11, "call to undeclared function (nothere)"},
    {" bar.sync 0;\n bar 0;\n", 2, 2, ".sync or .arrive"},
    {" tex.1d.v4.f32.s32 {%f1, %f1, %f1, %f1}, [%rd1];\n", 1, 2, "wrong operand count"},
    {" shfl.sync.down.b32 %r1|%p1, %r2;\n", 1, 2, "wrong operand count"},
    {" and.b32 %r1, !%r2, %r3;\n", 1, 15, "'!' needs a predicate register"},
    {" add.s32 %r1|%p1, %r2, %r3;\n", 1, 10, "unexpected '|'"},
    {" shfl.sync.up.b32 %r1|%r2, %r2, 1, 0, -1;\n", 1, 23, "expected a .pred register after '|'"},
    {" mov.u32 %r1, {%r1, %r2, %r3, %r1, %r2};\n", 1, 36, "more than 4 vector elements"},
    {" shf.wrap.b32 %r1, %r2, %r3, 4;\n", 1, 2, "a direction (.l or .r)"},
    {" shf.l.b32 %r1, %r2, %r3, 4;\n", 1, 2, "a mode (.clamp or .wrap)"},
    {" shf.r.clamp.u64 %rd1, %rd2, %rd3, 4;\n", 1, 2, "expected .b32"},
    {" shf.l.r.wrap.b32 %r1, %r2, %r3, 4;\n", 1, 7, "duplicate modifier '.r'"},
    {" shf.l.wrap.b32 %r1, %r2, %r3;\n", 1, 2, "wrong operand count"},
    {" ret;\n", 2, 1, "expected '}' closing the function body (end of file)"},
};

static void malformed(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
        const struct bad *b = &bads[i];
        char src[1024];
        bool noclose = strstr(b->what, "end of file") || strstr(b->what, "comment");
        snprintf(src, sizeof src, "%s%s%s", PRE, b->body, noclose ? "" : "}\n");
        struct ptx_module *m = (struct ptx_module *)1;
        struct ptx_diag d;
        int rc = ptx_parse("bad.ptx", src, strlen(src), &m, &d);
        char want[64];
        snprintf(want, sizeof want, "bad.ptx:%u:%u: error: ", b->line + PRE_LINES, b->col);
        if (rc != -1 || d.line != b->line + PRE_LINES || d.col != b->col ||
            strncmp(d.msg, want, strlen(want)) != 0 || !strstr(d.msg, b->what))
            fail_msg("case %zu: rc %d, got \"%s\", want \"%s...%s\"", i, rc,
                     d.msg, want, b->what);
        assert_null(m);
    }
}

static void malformed_module(void **state)
{
    (void)state;
    static const struct { const char *src; unsigned line, col; const char *what; } cases[] = {
        {HDR ".global .u32 a[2] = {1, 2, 3};\n", 4, 14, "too many initialisers"},
        {HDR ".global .u32 a;\n.global .u32 a;\n", 5, 14, "redefinition of 'a'"},
        {HDR ".entry k() { ret; }\n.entry k() { ret; }\n", 5, 8, "redefinition of function body (k)"},
        {HDR ".bogus 1;\n", 4, 1, "unknown or unsupported directive (.bogus)"},
        {HDR "add.s32 %r1, %r2, %r3;\n", 4, 1, "expected a directive at module scope"},
        {HDR ".address_size 48\n", 4, 15, "expected 32 or 64"},
        {HDR ".shared .align 3 .b8 s[4];\n", 4, 16, "power-of-two alignment"},
        {HDR ".entry k() { .reg .b64 %rd<2>; .param .b64 a; call %rd1, (a), proto; ret; }\n", 4, 63,
         "expected a .callprototype or .calltargets label declared before the call (proto)"},
        {HDR ".entry k() { .reg .b64 %rd<2>; .param .b64 a; p: .callprototype _ (.param .b64 _, .param .b32 _); call %rd1, (a), p; ret; }\n", 4, 115,
         "call with 1 arguments and 0 return values does not match its .callprototype (2, 0) (p)"},
        {HDR ".entry k() { .reg .b32 %r<2>; brx.idx %r1, ts; ts: .branchtargets L0; L0: ret; }\n", 4, 44,
         "expected a .branchtargets list declared before this brx.idx (ts)"},
        {HDR ".entry k() { .reg .b32 %r<2>; ts: .branchtargets L0, L9; brx.idx %r1, ts; L0: ret; }\n", 4, 54, "undefined label (L9)"},
        {HDR ".entry k() { .reg .b32 %r<1>; mov.u32 %r0, %r0 }\n", 4, 48, "expected ';'"},
        {HDR ".entry k(.param .u32 p", 4, 23, "expected ')'"},
        {".version 9.0\n.target sm_75\n.address_size 64\n.entry k() {\n\"unterminated\n}\n", 5, 1, "unterminated string"},
        {"", 0, 0, NULL},
    };
    for (size_t i = 0; cases[i].what; i++) {
        struct ptx_module *m = NULL;
        struct ptx_diag d;
        int rc = ptx_parse("m.ptx", cases[i].src, strlen(cases[i].src), &m, &d);
        if (rc != -1 || d.line != cases[i].line || d.col != cases[i].col ||
            !strstr(d.msg, cases[i].what))
            fail_msg("module case %zu: rc %d, got \"%s\", want %u:%u %s", i, rc,
                     d.msg, cases[i].line, cases[i].col, cases[i].what);
        assert_null(m);
    }
    /* empty and NUL-containing inputs never crash */
    struct ptx_module *m = NULL;
    struct ptx_diag d;
    assert_int_equal(ptx_parse("e.ptx", "", 0, &m, &d), 0);
    assert_int_equal(m->nfuncs, 0);
    ptx_module_free(m);
    const char bom[] = "\xEF\xBB\xBF.version 9.0\r\n.target sm_75\r\n.address_size 64\r\n";
    assert_int_equal(ptx_parse("b.ptx", bom, sizeof bom - 1, &m, &d), 0);
    assert_string_equal(m->target, "sm_75");
    ptx_module_free(m);
    const char nul[] = ".version 9.0\n\0\n";
    assert_int_equal(ptx_parse("n.ptx", nul, sizeof nul - 1, &m, &d), -1);
    assert_int_equal(d.line, 2);
    ptx_module_free(NULL);
}

/* Every prefix of a real file is either valid or a clean error. */
static void truncated_inputs(void **state)
{
    (void)state;
    size_t n;
    char *text = slurp("tests/ptx/nv_reduce.ptx", &n);
    unsigned errors = 0;
    for (size_t cut = 0; cut < n; cut += 7) {
        struct ptx_module *m = NULL;
        struct ptx_diag d;
        if (ptx_parse("cut.ptx", text, cut, &m, &d) == 0) {
            ptx_module_free(m);
        } else {
            errors++;
            assert_true(strncmp(d.msg, "cut.ptx:", 8) == 0);
            assert_true(d.line >= 1);
        }
    }
    assert_true(errors > n / 14);
    free(text);
}

/* ------------------------------------------------------------ speed */

static void large_input_speed(void **state)
{
    (void)state;
    /* ~1 MB: 10 kernels of 600 diamonds + a loop each, plus a 100 KB
     * initialised table */
    size_t cap = 4u << 20, k = 0;
    char *src = malloc(cap);
    assert_non_null(src);
    k += (size_t)snprintf(src + k, cap - k, HDR ".const .align 4 .b8 tab[25000] = {");
    for (int i = 0; i < 25000; i++)
        k += (size_t)snprintf(src + k, cap - k, "%s%d", i ? ", " : "", i & 255);
    k += (size_t)snprintf(src + k, cap - k, "};\n");
    for (int kn = 0; kn < 10; kn++) {
        k += (size_t)snprintf(src + k, cap - k,
                              ".visible .entry k%d(.param .u64 p)\n{\n"
                              " .reg .pred %%p<3>;\n .reg .b32 %%r<8>;\n .reg .b64 %%rd<4>;\n"
                              " ld.param.u64 %%rd1, [p];\n mov.u32 %%r1, %%tid.x;\n", kn);
        for (int d = 0; d < 600; d++)
            k += (size_t)snprintf(src + k, cap - k,
                                  " setp.lt.s32 %%p1, %%r1, %d;\n"
                                  " @%%p1 bra $L_%d_a;\n"
                                  " add.s32 %%r2, %%r2, 1;\n"
                                  " bra.uni $L_%d_b;\n"
                                  "$L_%d_a:\n ld.global.u32 %%r3, [%%rd1+%d];\n"
                                  "$L_%d_b:\n", d, d, d, d, d * 4, d);
        k += (size_t)snprintf(src + k, cap - k, "$L_loop:\n add.s32 %%r4, %%r4, 1;\n"
                              " setp.lt.u32 %%p2, %%r4, 10;\n @%%p2 bra $L_loop;\n ret;\n}\n");
    }
    assert_true(k > 900000 && k < 1200000);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct ptx_module *m = NULL;
    struct ptx_diag d;
    int rc = ptx_parse("big.ptx", src, k, &m, &d);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    if (rc)
        fprintf(stderr, "%s\n", d.msg);
    assert_int_equal(rc, 0);
    printf("ptx_parse + CFG of %zu bytes (%u kernels, %u instructions): %.1f ms\n",
           k, m->nfuncs, m->nfuncs * m->funcs[0].ninsts, ms);
    assert_int_equal(m->nfuncs, 10);
    assert_int_equal(m->funcs[0].ninsts, 2 + 600 * 5 + 4);
    const struct ptx_inst *in = &m->funcs[7].insts[3];
    assert_int_equal(in->op, PTX_OP_BRA);
    assert_int_equal(in->reconv, 7); /* the $L_0_b join */
    /* generous bound: the budget is "well under a second" unsanitised */
    assert_true(ms < 3000.0);
    ptx_module_free(m);
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nvcc_vecadd),
        cmocka_unit_test(nvcc_reduce),
        cmocka_unit_test(nvcc_math_calls),
        cmocka_unit_test(nvcc_tex_struct),
        cmocka_unit_test(nvcc_simt_notes),
        cmocka_unit_test(module_shared),
        cmocka_unit_test(workload_ptx),
        cmocka_unit_test(all_opcodes),
        cmocka_unit_test(immediates),
        cmocka_unit_test(scopes_and_symbols),
        cmocka_unit_test(check_report_branches),
        cmocka_unit_test(malformed),
        cmocka_unit_test(malformed_module),
        cmocka_unit_test(truncated_inputs),
        cmocka_unit_test(large_input_speed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
