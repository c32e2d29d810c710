/* Tensor-core instructions: wmma.load, wmma.store, wmma.mma and
 * mma.sync.aligned, decoded into struct ptx_inst (layout in ptx_ir.h).
 * Every shape/type combination sm_75 executes is accepted; anything else
 * (bf16, tf32, f64, .and.popc, m8n8k4, other shapes) is a load-time error
 * that names the construct. Fragments have up to 8 registers and take two
 * VEC slots each. */
#include <stdio.h>
#include <string.h>
#include "ptx/ptx_mma.h"
#include "ptx/ptx_pstate.h"

static const struct { const char *s; uint8_t v; } shapes[] = {
    {"m16n16k16", PTX_MMA_M16N16K16}, {"m32n8k16", PTX_MMA_M32N8K16},
    {"m8n32k16", PTX_MMA_M8N32K16}, {"m8n8k32", PTX_MMA_M8N8K32},
    {"m8n8k128", PTX_MMA_M8N8K128}, {"m16n8k8", PTX_MMA_M16N8K8},
    {"m8n8k16", PTX_MMA_M8N8K16},
};

static const char *const mtype_names[] = {
    "", "f16", "f32", "s32", "s8", "u8", "s4", "u4", "b1"};

void ptx_mma_dims(unsigned shape, unsigned *m, unsigned *n, unsigned *k)
{
    static const uint8_t d[][3] = {
        {0, 0, 0}, {16, 16, 16}, {32, 8, 16}, {8, 32, 16}, {8, 8, 32},
        {8, 8, 128}, {16, 8, 8}, {8, 8, 16}};
    unsigned s = shape < sizeof d / sizeof d[0] ? shape : 0;
    *m = d[s][0];
    *n = d[s][1];
    *k = shape == PTX_MMA_M8N8K128 ? 128 : d[s][2];
}

unsigned ptx_mma_per_reg(unsigned mt)
{
    switch (mt) {
    case PTX_MT_F16: return 2;
    case PTX_MT_S8: case PTX_MT_U8: return 4;
    case PTX_MT_S4: case PTX_MT_U4: return 8;
    case PTX_MT_B1: return 32;
    default: return 1;
    }
}

unsigned ptx_mma_elem_bits(unsigned mt)
{
    return 32u / ptx_mma_per_reg(mt);
}

const char *ptx_mma_type_name(unsigned mt)
{
    return mt < sizeof mtype_names / sizeof mtype_names[0] ? mtype_names[mt] : "?";
}

unsigned ptx_mma_frag_regs(unsigned shape, unsigned frag, unsigned mt, bool sync)
{
    unsigned m, n, k;
    ptx_mma_dims(shape, &m, &n, &k);
    unsigned elems = frag == PTX_FRAG_A ? m * k : frag == PTX_FRAG_B ? k * n : m * n;
    unsigned per = ptx_mma_per_reg(mt);
    /* wmma f16 multiplicands: 8 .f16x2 registers in every shape (16
     * halves a lane: 512 slots for the 128..512 elements, see
     * docs/exec-semantics.md); everything else holds each element once */
    if (!sync && mt == PTX_MT_F16 && (frag == PTX_FRAG_A || frag == PTX_FRAG_B))
        return 8;
    return elems / (32u * per);
}

/* ------------------------------------------------------------ decoding */

static bool word_is(const char *s, size_t n, const char *w)
{
    return strlen(w) == n && memcmp(s, w, n) == 0;
}

static unsigned mtype_of(const char *s, size_t n)
{
    for (unsigned i = 1; i < sizeof mtype_names / sizeof mtype_names[0]; i++)
        if (word_is(s, n, mtype_names[i]))
            return i;
    return PTX_MT_NONE;
}

static bool is_int8(unsigned t) { return t == PTX_MT_S8 || t == PTX_MT_U8; }
static bool is_int4(unsigned t) { return t == PTX_MT_S4 || t == PTX_MT_U4; }
static bool is_facc(unsigned t) { return t == PTX_MT_F16 || t == PTX_MT_F32; }

/* What is wrong with the decoded modifiers (NULL: nothing). */
static const char *check(const struct ptx_inst *in, unsigned nt,
                         const uint8_t *ty, unsigned nlay, bool sync,
                         bool aligned, unsigned frag)
{
    enum ptx_op op = (enum ptx_op)in->op;
    unsigned sh = in->geom;
    bool wshape = sh >= PTX_MMA_M16N16K16 && sh <= PTX_MMA_M8N8K128;
    bool f16shape = sh >= PTX_MMA_M16N16K16 && sh <= PTX_MMA_M8N32K16;
    if (!sync || !aligned)
        return ".sync.aligned";
    if (!sh)
        return "a shape (.m16n16k16, .m32n8k16, .m8n32k16, .m8n8k32, .m8n8k128; "
               "mma: .m16n8k8, .m8n8k16)";
    if (op == PTX_OP_MMA) {
        if (sh != PTX_MMA_M16N8K8 && sh != PTX_MMA_M8N8K16)
            return "an sm_75 mma.sync shape (.m16n8k8 or .m8n8k16; .m8n8k4 is not modelled)";
        if (nlay != 2 || in->tq != PTX_MMA_BCOL)
            return ".row.col (the only layout of these shapes)";
        if (nt != 4)
            return "four types (.dtype.atype.btype.ctype)";
        if (sh == PTX_MMA_M16N8K8)
            return is_facc(ty[0]) && ty[1] == PTX_MT_F16 && ty[2] == PTX_MT_F16 &&
                           is_facc(ty[3]) && !(in->flags & PTX_F_SAT)
                       ? NULL : ".f16/.f32 .f16 .f16 .f16/.f32 (m16n8k8; bf16/tf32 are sm_80)";
        return ty[0] == PTX_MT_S32 && is_int8(ty[1]) && is_int8(ty[2]) &&
                       ty[3] == PTX_MT_S32
                   ? NULL : ".s32 .s8/.u8 .s8/.u8 .s32 (m8n8k16)";
    }
    if (!wshape)
        return "a wmma shape (.m16n16k16, .m32n8k16, .m8n32k16, .m8n8k32, .m8n8k128)";
    if (op == PTX_OP_WMMA_MMA) {
        if (nlay != 2)
            return "two layouts (.row/.col for a, then for b)";
        if (nt == 2) {          /* .dtype.ctype: f16 multiplicands */
            if (!f16shape || !is_facc(ty[0]) || !is_facc(ty[1]))
                return ".dtype.ctype in .f16/.f32 (f16 shapes)";
            if (in->flags & PTX_F_SAT)
                return "no .satfinite on floating-point wmma.mma (deprecated, not modelled)";
            if (in->sub)
                return "no .xor.popc here";
            return NULL;
        }
        if (nt != 4 || ty[0] != PTX_MT_S32 || ty[3] != PTX_MT_S32)
            return ".dtype.ctype (f16) or .s32.atype.btype.s32";
        if (f16shape)
            return is_int8(ty[1]) && is_int8(ty[2]) && !in->sub
                       ? NULL : ".s8/.u8 multiplicands for this shape";
        if (in->tq != PTX_MMA_BCOL)
            return ".row.col for sub-byte and single-bit wmma.mma";
        if (sh == PTX_MMA_M8N8K32)
            return is_int4(ty[1]) && is_int4(ty[2]) && !in->sub
                       ? NULL : ".s4/.u4 multiplicands for .m8n8k32";
        if (ty[1] != PTX_MT_B1 || ty[2] != PTX_MT_B1)
            return ".b1 multiplicands for .m8n8k128";
        if (in->sub != PTX_SUB_XOR)
            return ".xor.popc (sm_75 b1 wmma.mma; .and.popc is sm_80)";
        if (in->flags & PTX_F_SAT)
            return "no .satfinite on .b1 wmma.mma";
        return NULL;
    }
    /* wmma.load / wmma.store */
    if (nlay != 1)
        return "one layout (.row or .col)";
    if (nt != 1)
        return "one element type";
    if (in->sub || (in->flags & PTX_F_SAT))
        return "no .xor.popc/.satfinite on a load or store";
    if (in->space && in->space != PTX_SP_GLOBAL && in->space != PTX_SP_SHARED)
        return "a .global or .shared state space (or none: generic)";
    unsigned t = ty[0];
    if (frag == PTX_FRAG_C || frag == PTX_FRAG_D) {
        if (op == PTX_OP_WMMA_STORE ? frag != PTX_FRAG_D : frag != PTX_FRAG_C)
            return op == PTX_OP_WMMA_STORE ? ".d (wmma.store)" : ".a, .b or .c (wmma.load)";
        bool ok = f16shape ? (is_facc(t) || t == PTX_MT_S32) : t == PTX_MT_S32;
        return ok ? NULL : "an accumulator type (.f16 .f32 .s32; .s32 for sub-byte shapes)";
    }
    if (op == PTX_OP_WMMA_STORE)
        return ".d (wmma.store)";
    bool ok = f16shape ? (t == PTX_MT_F16 || is_int8(t))
              : sh == PTX_MMA_M8N8K32 ? is_int4(t) : t == PTX_MT_B1;
    if (!ok)
        return "a multiplicand type of this shape (.f16 .s8 .u8; .s4/.u4 m8n8k32; .b1 m8n8k128)";
    if (!f16shape && (frag == PTX_FRAG_A) != !(in->tq & PTX_MMA_ACOL))
        return ".row for a and .col for b (sub-byte and single-bit shapes)";
    return NULL;
}

static void decode(struct ptx_parser *p, struct ptx_inst *in, const struct ptx_tok *t)
{
    const char *s = t->s, *end = t->s + t->len;
    bool wmma = s[0] == 'w';
    const char *q = memchr(s, '.', t->len);
    uint8_t ty[4] = {0, 0, 0, 0};
    unsigned nt = 0, nlay = 0, frag = PTX_FRAG_D;
    bool sync = false, aligned = false, have_op = !wmma, have_frag = !wmma;
    bool xor_ = false, popc = false;
    in->op = PTX_OP_MMA;
    while (q && q < end) {
        const char *m = q + 1;
        const char *nx = memchr(m, '.', (size_t)(end - m));
        size_t ml = nx ? (size_t)(nx - m) : (size_t)(end - m);
        uint32_t col = t->col + (uint32_t)(q - s);
        unsigned mt;
        if (!have_op) {             /* wmma.load / .store / .mma */
            have_op = true;
            if (word_is(m, ml, "load")) in->op = PTX_OP_WMMA_LOAD;
            else if (word_is(m, ml, "store")) in->op = PTX_OP_WMMA_STORE;
            else if (word_is(m, ml, "mma")) in->op = PTX_OP_WMMA_MMA;
            else
                ptx_perr(p, t->line, col, "expected wmma.load, wmma.store or wmma.mma (%.*s)",
                         (int)t->len, t->s);
            have_frag = in->op == PTX_OP_WMMA_MMA;
        } else if (!have_frag) {   /* .a .b .c (load) .d (store) */
            have_frag = true;
            if (ml != 1 || m[0] < 'a' || m[0] > 'd')
                ptx_perr(p, t->line, col, "expected a fragment .a, .b, .c or .d (%.*s)",
                         (int)t->len, t->s);
            frag = (unsigned)(m[0] - 'a');
        } else if (word_is(m, ml, "sync")) {
            sync = true;
        } else if (word_is(m, ml, "aligned")) {
            aligned = true;
        } else if (word_is(m, ml, "row") || word_is(m, ml, "col")) {
            if (nlay >= 2)
                ptx_perr(p, t->line, col, "too many layouts (%.*s)", (int)t->len, t->s);
            if (m[0] == 'c')
                in->tq |= (uint8_t)(nlay ? PTX_MMA_BCOL : PTX_MMA_ACOL);
            nlay++;
        } else if (word_is(m, ml, "global") || word_is(m, ml, "shared")) {
            if (in->space)
                ptx_perr(p, t->line, col, "duplicate state space (%.*s)", (int)t->len, t->s);
            in->space = m[0] == 'g' ? PTX_SP_GLOBAL : PTX_SP_SHARED;
        } else if (word_is(m, ml, "satfinite")) {
            in->flags |= PTX_F_SAT;
        } else if (word_is(m, ml, "xor")) {
            xor_ = true;
        } else if (word_is(m, ml, "popc")) {
            popc = true;
        } else if ((mt = mtype_of(m, ml)) != PTX_MT_NONE) {
            if (nt >= 4)
                ptx_perr(p, t->line, col, "too many type suffixes (%.*s)", (int)t->len, t->s);
            ty[nt++] = (uint8_t)mt;
        } else {
            bool found = false;
            for (unsigned i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
                if (word_is(m, ml, shapes[i].s)) {
                    if (in->geom)
                        ptx_perr(p, t->line, col, "duplicate shape (%.*s)", (int)t->len, t->s);
                    in->geom = shapes[i].v;
                    found = true;
                }
            if (!found)
                ptx_perr(p, t->line, col, "modifier '.%.*s' not supported for %s "
                         "(sm_75 tensor-core forms only) (%.*s)", (int)ml, m,
                         wmma ? "wmma" : "mma", (int)t->len, t->s);
        }
        q = nx;
    }
    if (xor_ != popc || (xor_ && in->op != PTX_OP_WMMA_MMA))
        ptx_perr(p, t->line, t->col, "expected .xor.popc together, on wmma.mma only (%.*s)",
                 (int)t->len, t->s);
    if (xor_)
        in->sub = PTX_SUB_XOR;
    if (wmma && !have_frag)
        ptx_perr(p, t->line, t->col, "expected a fragment .a, .b, .c or .d (%.*s)",
                 (int)t->len, t->s);
    const char *need = check(in, nt, ty, nlay, sync, aligned, frag);
    if (need)
        ptx_perr(p, t->line, t->col, "expected %s (%.*s)", need, (int)t->len, t->s);
    in->flags |= PTX_F_ALIGNED;
    in->tmode = (uint8_t)frag;
    if (in->op == PTX_OP_WMMA_MMA && nt == 2) {     /* .dtype.ctype */
        in->type = ty[0];
        in->type2 = in->type3 = PTX_MT_F16;
        in->mtype = ty[1];
    } else if (nt == 4) {
        in->type = ty[0];
        in->type2 = ty[1];
        in->type3 = ty[2];
        in->mtype = ty[3];
    } else {
        in->type = in->type2 = in->type3 = in->mtype = ty[0];
    }
}

/* ------------------------------------------------------------ operands */

static int32_t reg32(struct ptx_parser *p, const struct ptx_tok *t, const char *what)
{
    int32_t r = t->kind == PTX_TK_WORD ? ptx_find_reg(p, t->s, t->len) : -1;
    if (r < 0)
        ptx_perr(p, t->line, t->col, "expected a register in the %s (%.*s)", what,
                 (int)(t->len > 40 ? 40 : t->len), t->s);
    if (ptx_type_bits((enum ptx_type)p->cur.regs[r].type) != 32 ||
        p->cur.regs[r].type == PTX_T_PRED)
        ptx_perr(p, t->line, t->col, "expected a 32-bit register in the %s (%.*s)",
                 what, (int)t->len, t->s);
    return r;
}

/* `{r0, ..., rN-1}` into slots o[slot] (0..3) and o[slot+1] (4..7). */
static void frag_opnd(struct ptx_parser *p, struct ptx_inst *in, unsigned slot,
                      unsigned want, const char *what)
{
    const struct ptx_tok *pk = ptx_peek(p, 0);
    uint32_t line = pk->line, col = pk->col;
    ptx_expect(p, '{', what);
    struct ptx_operand *o = &in->o[slot];
    unsigned n = 0;
    for (unsigned h = 0; h < 2; h++) {
        memset(&o[h], 0, sizeof o[h]);
        o[h].reg = -1;
        o[h].sym.index = -1;
    }
    do {
        struct ptx_tok t;
        ptx_advance(p, &t);
        if (n == 8)
            ptx_perr(p, t.line, t.col, "more than 8 fragment registers (%s)", what);
        int32_t r = reg32(p, &t, what);
        struct ptx_operand *h = &o[n / 4];
        h->kind = PTX_O_VEC;
        h->vec_regs[h->vec_n++] = r;
        n++;
    } while (ptx_accept(p, ','));
    ptx_expect(p, '}', what);
    if (n != want)
        ptx_perr(p, line, col, "expected %u registers in the %s, found %u (%s)", want,
                 what, n, ptx_op_name((enum ptx_op)in->op));
    if (slot + 2u > in->nopnd)
        in->nopnd = (uint8_t)(slot + 2);
}

static void addr_opnd(struct ptx_parser *p, struct ptx_inst *in, unsigned slot)
{
    struct ptx_operand *o = &in->o[slot];
    memset(o, 0, sizeof *o);
    o->kind = PTX_O_MEM;
    o->reg = -1;
    o->sym.index = -1;
    ptx_expect(p, '[', "opening the matrix address");
    struct ptx_tok t;
    ptx_advance(p, &t);
    if (t.kind == PTX_TK_WORD && (o->reg = ptx_find_reg(p, t.s, t.len)) >= 0) {
        unsigned b = ptx_type_bits((enum ptx_type)p->cur.regs[o->reg].type);
        if (b != 32 && b != 64)
            ptx_perr(p, t.line, t.col, "expected a 32- or 64-bit address register (%.*s)",
                     (int)t.len, t.s);
    } else if (t.kind != PTX_TK_WORD || !ptx_find_sym(p, t.s, t.len, &o->sym)) {
        ptx_perr(p, t.line, t.col, "expected a register or symbol in the address (%.*s)",
                 (int)(t.len > 40 ? 40 : t.len), t.s);
    }
    if (ptx_accept(p, '+')) {
        bool neg = ptx_accept(p, '-');
        struct ptx_tok k;
        ptx_advance(p, &k);
        if (k.kind != PTX_TK_INT)
            ptx_perr(p, k.line, k.col, "expected an integer offset (%.*s)",
                     (int)(k.len > 40 ? 40 : k.len), k.s);
        o->imm = neg ? -(int64_t)k.u : (int64_t)k.u;
    }
    ptx_expect(p, ']', "closing the matrix address");
    if (slot + 1u > in->nopnd)
        in->nopnd = (uint8_t)(slot + 1);
}

static void stride_opnd(struct ptx_parser *p, struct ptx_inst *in, unsigned slot)
{
    struct ptx_operand *o = &in->o[slot];
    memset(o, 0, sizeof *o);
    o->reg = -1;
    o->sym.index = -1;
    struct ptx_tok t;
    ptx_advance(p, &t);
    if (t.kind == PTX_TK_INT) {
        o->kind = PTX_O_IMM;
        o->imm = (int64_t)(t.u & 0xffffffffu);
    } else {
        o->kind = PTX_O_REG;
        o->reg = reg32(p, &t, "stride");
    }
    in->nopnd = (uint8_t)(slot + 1);
}

bool ptx_mma_is_opcode(const char *s, size_t base_len)
{
    return word_is(s, base_len, "wmma") || word_is(s, base_len, "mma");
}

void ptx_mma_parse(struct ptx_parser *p, struct ptx_inst *in, const struct ptx_tok *t)
{
    decode(p, in, t);
    enum ptx_op op = (enum ptx_op)in->op;
    bool sync = op == PTX_OP_MMA;
    unsigned sh = in->geom;
    if (op == PTX_OP_WMMA_LOAD || op == PTX_OP_WMMA_STORE) {
        unsigned nr = ptx_mma_frag_regs(sh, in->tmode, in->type, false);
        if (op == PTX_OP_WMMA_LOAD) {
            frag_opnd(p, in, 0, nr, "fragment");
            ptx_expect(p, ',', "after the fragment");
            addr_opnd(p, in, 2);
        } else {
            addr_opnd(p, in, 0);
            ptx_expect(p, ',', "after the address");
            frag_opnd(p, in, 1, nr, "fragment");
        }
        in->nopnd = 4;
        in->o[3].kind = PTX_O_NONE;
        in->o[3].reg = -1;
        in->o[3].sym.index = -1;
        if (ptx_accept(p, ','))
            stride_opnd(p, in, 3);
    } else {
        static const char *const what[4] = {"d fragment", "a fragment", "b fragment",
                                             "c fragment"};
        static const uint8_t fr[4] = {PTX_FRAG_D, PTX_FRAG_A, PTX_FRAG_B, PTX_FRAG_C};
        for (unsigned i = 0; i < 4; i++) {
            unsigned mt = i == 0 ? in->type : i == 1 ? in->type2 : i == 2 ? in->type3
                                                                         : in->mtype;
            if (i)
                ptx_expect(p, ',', "between the fragments");
            frag_opnd(p, in, 2 * i, ptx_mma_frag_regs(sh, fr[i], mt, sync), what[i]);
        }
    }
    ptx_expect(p, ';', "after the operands");
}

int ptx_mma_format(char *buf, size_t n, const struct ptx_inst *in)
{
    static const char *const frag[] = {"a", "b", "c", "d"};
    const char *sh = "?";
    for (unsigned i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (shapes[i].v == in->geom)
            sh = shapes[i].s;
    enum ptx_op op = (enum ptx_op)in->op;
    const char *l0 = in->tq & PTX_MMA_ACOL ? "col" : "row";
    const char *l1 = in->tq & PTX_MMA_BCOL ? "col" : "row";
    const char *sp = in->space == PTX_SP_GLOBAL ? ".global"
                     : in->space == PTX_SP_SHARED ? ".shared" : "";
    const char *sat = in->flags & PTX_F_SAT ? ".satfinite" : "";
    if (op == PTX_OP_WMMA_LOAD || op == PTX_OP_WMMA_STORE)
        return snprintf(buf, n, "%s.%s.sync.aligned.%s.%s%s.%s", ptx_op_name(op),
                        frag[in->tmode & 3], l0, sh, sp, ptx_mma_type_name(in->type));
    if (op == PTX_OP_MMA)
        return snprintf(buf, n, "mma.sync.aligned.%s.%s.%s.%s.%s.%s.%s%s", sh, l0, l1,
                        ptx_mma_type_name(in->type), ptx_mma_type_name(in->type2),
                        ptx_mma_type_name(in->type3), ptx_mma_type_name(in->mtype), sat);
    if (in->type2 == PTX_MT_F16)
        return snprintf(buf, n, "wmma.mma.sync.aligned.%s.%s.%s.%s.%s", l0, l1, sh,
                        ptx_mma_type_name(in->type), ptx_mma_type_name(in->mtype));
    return snprintf(buf, n, "wmma.mma%s.sync.aligned.%s.%s.%s.%s.%s.%s.%s%s",
                    in->sub == PTX_SUB_XOR ? ".xor.popc" : "", l0, l1, sh,
                    ptx_mma_type_name(in->type), ptx_mma_type_name(in->type2),
                    ptx_mma_type_name(in->type3), ptx_mma_type_name(in->mtype), sat);
}
