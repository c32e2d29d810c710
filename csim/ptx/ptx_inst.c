/* PTX instruction parser: opcode + modifiers into struct ptx_inst fields,
 * operands into the per-opcode slot layout documented in ptx_ir.h. */
#include <stdio.h>
#include <string.h>
#include "ptx/ptx_mma.h"
#include "ptx/ptx_pstate.h"

/* ------------------------------------------------------------- operands */

struct raw {
    struct ptx_operand o;
    uint32_t line, col;
    uint8_t lit;               /* token kind of an immediate */
    double d;                  /* PTX_TK_DEC value */
    bool has_pipe;
    struct ptx_operand pipe;
    bool has_coords;
    struct ptx_operand coords;
    bool has_sampler;          /* [tex, sampler, {coords}] */
    struct ptx_operand sampler;
    struct ptx_tok label;      /* PTX_O_LABEL before resolution */
    bool minus;                /* '-' before a register (vmad only) */
};

static void init_opnd(struct ptx_operand *o)
{
    memset(o, 0, sizeof *o);
    o->reg = -1;
    o->sym.index = -1;
}

static int32_t need_reg(struct ptx_parser *p, const struct ptx_tok *t)
{
    if (t->kind != PTX_TK_WORD) {
        char d[64];
        snprintf(d, sizeof d, "%.*s", (int)(t->len > 40 ? 40 : t->len), t->s);
        ptx_perr(p, t->line, t->col, "expected a register (%s)",
                 t->kind == PTX_TK_EOF ? "end of file" : d);
    }
    int32_t r = ptx_find_reg(p, t->s, t->len);
    if (r < 0)
        ptx_perr(p, t->line, t->col, "undefined register (%.*s)", (int)t->len, t->s);
    return r;
}

/* Optional `+ imm`, `+ -imm` or `- imm` offset. */
static int64_t parse_offset(struct ptx_parser *p)
{
    bool neg = false;
    if (ptx_accept(p, '+'))
        neg = ptx_accept(p, '-');
    else if (ptx_accept(p, '-'))
        neg = true;
    else
        return 0;
    struct ptx_tok t;
    ptx_advance(p, &t);
    if (t.kind != PTX_TK_INT)
        ptx_perr(p, t.line, t.col, "expected an integer offset (%.*s)",
                 (int)(t.len > 40 ? 40 : t.len), t.s);
    return neg ? -(int64_t)t.u : (int64_t)t.u;
}

static void parse_vec(struct ptx_parser *p, struct ptx_operand *o)
{
    init_opnd(o);
    o->kind = PTX_O_VEC;
    do {
        struct ptx_tok t;
        ptx_advance(p, &t);
        if (o->vec_n == 4)
            ptx_perr(p, t.line, t.col, "more than 4 vector elements (%.*s)",
                     (int)t.len, t.s);
        if (t.kind == PTX_TK_WORD && t.len == 1 && t.s[0] == '_')
            o->vec_regs[o->vec_n++] = -1;
        else if (t.kind == PTX_TK_INT && t.u == 0)
            o->vec_regs[o->vec_n++] = PTX_VEC_ZERO;
        else
            o->vec_regs[o->vec_n++] = need_reg(p, &t);
    } while (ptx_accept(p, ','));
    ptx_expect(p, '}', "closing the vector operand");
}

/* `reg.sel` (video selectors `.b0`, `.h1`, `.h10`, `.b3210`): fills o
 * and returns true when t is a register followed by a selector. */
static bool parse_selected_reg(struct ptx_parser *p, const struct ptx_tok *t,
                               struct ptx_operand *o)
{
    const char *dot = NULL;
    for (size_t i = t->len; i-- > 1;)
        if (t->s[i] == '.') {
            dot = t->s + i;
            break;
        }
    if (!dot)
        return false;
    size_t rl = (size_t)(dot - t->s), sl = t->len - rl - 1;
    int32_t reg = ptx_find_reg(p, t->s, rl);
    if (reg < 0)
        return false;
    const char *q = dot + 1;
    if (sl < 2 || sl > 5 || (q[0] != 'b' && q[0] != 'h'))
        ptx_perr(p, t->line, t->col, "unknown register selector (%.*s)",
                 (int)t->len, t->s);
    unsigned maxd = q[0] == 'b' ? 7 : 3, sel = q[0] == 'b' ? PTX_SEL_B : PTX_SEL_H;
    unsigned n = (unsigned)sl - 1;
    for (unsigned i = 0; i < n; i++) {
        unsigned dg = (unsigned)(q[1 + i] - '0');
        if (q[1 + i] < '0' || dg > maxd)
            ptx_perr(p, t->line, t->col, "unknown register selector (%.*s)",
                     (int)t->len, t->s);
        sel |= dg << (3 * (n - 1 - i));
    }
    o->kind = PTX_O_REG;
    o->reg = reg;
    o->sel = (uint16_t)(sel | ((n - 1) << 12));
    return true;
}

/* `[base{+off}]`, `[imm]`, or a texture/surface address
 * `[tex{, sampler}, {coordinates}]`; the '[' is consumed. */
static void parse_address(struct ptx_parser *p, struct raw *r)
{
    r->o.kind = PTX_O_MEM;
    const struct ptx_tok *b = ptx_peek(p, 0);
    if (b->kind == PTX_TK_WORD) {
        struct ptx_tok t;
        ptx_advance(p, &t);
        int32_t reg = ptx_find_reg(p, t.s, t.len);
        if (reg >= 0) {
            r->o.reg = reg;
        } else if (!ptx_find_sym(p, t.s, t.len, &r->o.sym)) {
            ptx_perr(p, t.line, t.col, "undefined register or symbol (%.*s)",
                     (int)t.len, t.s);
        }
        r->o.imm = parse_offset(p);
    } else if (b->kind == PTX_TK_INT) {
        struct ptx_tok t;
        ptx_advance(p, &t);
        r->o.imm = (int64_t)t.u;
    } else {
        ptx_perr(p, b->line, b->col, "expected a register or symbol in the address (%.*s)",
                 (int)(b->len > 40 ? 40 : b->len), b->s);
    }
    if (ptx_accept(p, ',')) {
        const struct ptx_tok *sp = ptx_peek(p, 0);
        if (sp->kind == PTX_TK_WORD) {      /* independent-mode sampler */
            struct ptx_tok t;
            ptx_advance(p, &t);
            init_opnd(&r->sampler);
            r->sampler.kind = PTX_O_MEM;
            int32_t reg = ptx_find_reg(p, t.s, t.len);
            if (reg >= 0)
                r->sampler.reg = reg;
            else if (!ptx_find_sym(p, t.s, t.len, &r->sampler.sym))
                ptx_perr(p, t.line, t.col, "undefined sampler (%.*s)",
                         (int)t.len, t.s);
            r->has_sampler = true;
            ptx_expect(p, ',', "after the sampler");
        }
        ptx_expect(p, '{', "opening the texture coordinates");
        parse_vec(p, &r->coords);
        r->has_coords = true;
    }
    ptx_expect(p, ']', "closing the address");
}

/* A word operand t: WARP_SZ, a special register, a register (with an
 * optional `|p` predicate), a symbol{+off}, a register with a video
 * selector, or a function address; anything else is an error. */
static void parse_word(struct ptx_parser *p, struct raw *r, const struct ptx_tok *t)
{
    if (t->len == 7 && memcmp(t->s, "WARP_SZ", 7) == 0) {
        r->o.kind = PTX_O_IMM;       /* the predefined constant */
        r->lit = PTX_TK_INT;
        r->o.imm = 32;
        return;
    }
    if (t->s[0] == '%') {
        int sr = ptx_sreg_from_name(t->s, t->len);
        if (sr >= 0) {
            r->o.kind = PTX_O_SREG;
            r->o.sreg = (uint8_t)sr;
            return;
        }
    }
    int32_t reg = ptx_find_reg(p, t->s, t->len);
    if (reg >= 0) {
        r->o.kind = PTX_O_REG;
        r->o.reg = reg;
        if (ptx_accept(p, '|')) {
            struct ptx_tok t2;
            ptx_advance(p, &t2);
            init_opnd(&r->pipe);
            r->pipe.kind = PTX_O_REG;
            r->pipe.reg = need_reg(p, &t2);
            r->has_pipe = true;
            if (p->cur.regs[r->pipe.reg].type != PTX_T_PRED)
                ptx_perr(p, t2.line, t2.col,
                         "expected a .pred register after '|' (%.*s)",
                         (int)t2.len, t2.s);
        }
        return;
    }
    if (ptx_find_sym(p, t->s, t->len, &r->o.sym)) {
        r->o.kind = PTX_O_SYM;
        r->o.imm = parse_offset(p);
        return;
    }
    if (parse_selected_reg(p, t, &r->o))
        return;
    const struct ptx_nent *fe = ptx_ntab_find(&p->mtab, t->s, t->len);
    if (fe && fe->kind == PTX_NK_FUNC) {    /* mov r, fn: its address */
        r->o.kind = PTX_O_FUNC;
        r->o.func = fe->idx;
        return;
    }
    if (t->s[0] == '%' && memchr(t->s, '.', t->len))
        ptx_perr(p, t->line, t->col, "unknown special register (%.*s)",
                 (int)t->len, t->s);
    if (t->s[0] == '%')
        ptx_perr(p, t->line, t->col, "undefined register (%.*s)",
                 (int)t->len, t->s);
    ptx_perr(p, t->line, t->col, "undefined identifier (%.*s)", (int)t->len, t->s);
}

/* One operand into r (a label when want_label: bra's target). */
static void parse_operand(struct ptx_parser *p, struct raw *r, bool want_label)
{
    const struct ptx_tok *pk = ptx_peek(p, 0);
    memset(r, 0, sizeof *r);
    init_opnd(&r->o);
    r->line = pk->line;
    r->col = pk->col;
    if (want_label) {
        struct ptx_tok t;
        ptx_advance(p, &t);
        if (t.kind != PTX_TK_WORD)
            ptx_perr(p, t.line, t.col, "expected a label (%.*s)",
                     (int)(t.len > 40 ? 40 : t.len), t.s);
        r->o.kind = PTX_O_LABEL;
        r->label = t;
        return;
    }
    if (ptx_accept(p, '[')) {
        parse_address(p, r);
        return;
    }
    if (ptx_accept(p, '{')) {
        parse_vec(p, &r->o);
        return;
    }
    if (ptx_accept(p, '!')) {
        struct ptx_tok t;
        ptx_advance(p, &t);
        r->o.kind = PTX_O_REG;
        r->o.reg = need_reg(p, &t);
        r->o.neg = true;
        return;
    }
    bool neg = ptx_accept(p, '-');
    struct ptx_tok t;
    ptx_advance(p, &t);
    switch (t.kind) {
    case PTX_TK_INT:
        r->o.kind = PTX_O_IMM;
        r->lit = PTX_TK_INT;
        r->o.imm = (int64_t)(neg ? (uint64_t)0 - t.u : t.u);
        return;
    case PTX_TK_F32:
        r->o.kind = PTX_O_IMM;
        r->lit = PTX_TK_F32;
        r->o.imm = (int64_t)(t.u ^ (neg ? 0x80000000u : 0));
        return;
    case PTX_TK_F64:
        r->o.kind = PTX_O_IMM;
        r->lit = PTX_TK_F64;
        r->o.imm = (int64_t)(t.u ^ (neg ? 0x8000000000000000ull : 0));
        return;
    case PTX_TK_DEC:
        r->o.kind = PTX_O_IMM;
        r->lit = PTX_TK_DEC;
        r->d = neg ? -t.d : t.d;
        return;
    case PTX_TK_WORD:
        if (neg) {
            int32_t reg = ptx_find_reg(p, t.s, t.len);
            if (reg < 0)
                break;
            r->o.kind = PTX_O_REG;
            r->o.reg = reg;
            r->minus = true;
            return;
        }
        parse_word(p, r, &t);
        return;
    default:
        break;
    }
    ptx_perr(p, t.line, t.col, "expected an operand (%.*s)",
             t.kind == PTX_TK_EOF ? 11 : (int)(t.len > 40 ? 40 : t.len),
             t.kind == PTX_TK_EOF ? "end of file" : t.s);
}

/* ------------------------------------------------------- slot placement */

enum role {
    RL_DST,      /* register destination */
    RL_DSTV,     /* register or vector destination */
    RL_VEC,      /* vector only */
    RL_SRC,      /* reg / imm / sreg */
    RL_SRCSYM,   /* + symbol address */
    RL_SRCV,     /* + vector (st value) */
    RL_MOVSRC,   /* reg / imm / sreg / sym / vec */
    RL_MEM       /* [address] */
};

/* Converts an immediate to the raw bits of slot type t. */
static void type_imm(struct ptx_parser *p, struct raw *r, enum ptx_type t)
{
    bool fl = t == PTX_T_F32 || t == PTX_T_F64 || t == PTX_T_F16 || t == PTX_T_F16X2;
    if (t == PTX_T_F16X2 && r->lit != PTX_TK_INT)
        ptx_perr(p, r->line, r->col,
                 "expected a 32-bit integer pattern for an .f16x2 immediate");
    if (!fl && r->lit == PTX_TK_DEC)
        ptx_perr(p, r->line, r->col, "expected an integer immediate (%g)", r->d);
    r->o.imm = (int64_t)ptx_imm_bits(r->lit, (uint64_t)r->o.imm, r->d, t);
}

static const char *role_what(enum role rl)
{
    switch (rl) {
    case RL_DST: return "a destination register";
    case RL_DSTV: return "a destination register or vector";
    case RL_VEC: return "a vector {..}";
    case RL_MEM: return "an address [..]";
    case RL_SRCSYM: return "a register, immediate or symbol";
    case RL_MOVSRC: return "a register, immediate, symbol, function or vector";
    case RL_SRCV: return "a register, immediate or vector";
    default: return "a register or immediate";
    }
}

static const char *kind_name(uint8_t k)
{
    static const char *const n[] = {"nothing", "register", "immediate",
                                    "special register", "symbol", "address",
                                    "vector", "label", "function",
                                    "target list", "argument list"};
    return k < sizeof n / sizeof n[0] ? n[k] : "?";
}

static void place(struct ptx_parser *p, struct ptx_inst *in, struct raw *r,
                  unsigned slot, enum role rl, enum ptx_type immt)
{
    uint8_t k = r->o.kind;
    bool ok;
    switch (rl) {
    case RL_DST: ok = k == PTX_O_REG && !r->o.neg; break;
    case RL_DSTV: ok = (k == PTX_O_REG && !r->o.neg) || k == PTX_O_VEC; break;
    case RL_VEC: ok = k == PTX_O_VEC; break;
    case RL_MEM: ok = k == PTX_O_MEM; break;
    case RL_SRC: ok = k == PTX_O_REG || k == PTX_O_IMM || k == PTX_O_SREG; break;
    case RL_SRCSYM:
        ok = k == PTX_O_REG || k == PTX_O_IMM || k == PTX_O_SREG || k == PTX_O_SYM;
        break;
    case RL_SRCV:
        ok = k == PTX_O_REG || k == PTX_O_IMM || k == PTX_O_VEC;
        break;
    default:
        ok = k == PTX_O_REG || k == PTX_O_IMM || k == PTX_O_SREG ||
             k == PTX_O_SYM || k == PTX_O_VEC || k == PTX_O_FUNC;
        break;
    }
    if (!ok)
        ptx_perr(p, r->line, r->col, "expected %s as operand %u of %s (%s)",
                 role_what(rl), slot, ptx_op_name((enum ptx_op)in->op),
                 kind_name(k));
    if (r->o.neg && p->cur.regs[r->o.reg].type != PTX_T_PRED)
        ptx_perr(p, r->line, r->col, "'!' needs a predicate register (%s)",
                 p->cur.regs[r->o.reg].name);
    if (r->minus && in->op != PTX_OP_VMAD)
        ptx_perr(p, r->line, r->col, "'-' before a register is only valid for vmad (%s)",
                 ptx_op_name((enum ptx_op)in->op));
    if (r->o.sel && !ptx_is_video((enum ptx_op)in->op))
        ptx_perr(p, r->line, r->col, "register selectors are only valid for video instructions (%s)",
                 ptx_op_name((enum ptx_op)in->op));
    if (r->has_pipe && !((in->op == PTX_OP_SHFL || in->op == PTX_OP_SETP ||
                          in->op == PTX_OP_MATCH) && slot == 0))
        ptx_perr(p, r->line, r->col, "unexpected '|' operand (%s)",
                 ptx_op_name((enum ptx_op)in->op));
    if (r->has_sampler && in->op != PTX_OP_TEX && in->op != PTX_OP_TLD4)
        ptx_perr(p, r->line, r->col, "unexpected sampler in address (%s)",
                 ptx_op_name((enum ptx_op)in->op));
    if (r->has_coords && in->op != PTX_OP_TEX && in->op != PTX_OP_TLD4 &&
        in->op != PTX_OP_SULD && in->op != PTX_OP_SUST)
        ptx_perr(p, r->line, r->col, "unexpected coordinate vector in address (%s)",
                 ptx_op_name((enum ptx_op)in->op));
    if (k == PTX_O_REG && (immt == PTX_T_PRED) !=
                              (p->cur.regs[r->o.reg].type == PTX_T_PRED))
        ptx_perr(p, r->line, r->col, "expected a %s as operand %u of %s (%s)",
                 immt == PTX_T_PRED ? ".pred register" : "non-predicate register",
                 slot, ptx_op_name((enum ptx_op)in->op),
                 p->cur.regs[r->o.reg].name);
    if (k == PTX_O_IMM)
        type_imm(p, r, immt);
    in->o[slot] = r->o;
    if (slot + 1 > in->nopnd)
        in->nopnd = (uint8_t)(slot + 1);
}

static void count_err(struct ptx_parser *p, const struct ptx_tok *opt,
                      const char *want, unsigned got)
{
    ptx_perr(p, opt->line, opt->col, "wrong operand count: expected %s, found %u (%.*s)",
             want, got, (int)opt->len, opt->s);
}

#define MAXRAW 8

/* Whether selector sel (PTX_SEL_*) is valid for slot (0 = d, 1/2 = a/b)
 * of video op o with the given number of lanes (1 scalar, 2, 4). */
static bool video_sel_ok(unsigned sel, unsigned lanes, unsigned slot)
{
    if (!sel)
        return true;
    unsigned n = PTX_SEL_N(sel), used = 0;
    bool byte = (sel & PTX_SEL_B) != 0;
    if (lanes == 1)                     /* .b0-.b3, .h0-.h1 */
        return n == 1 && PTX_SEL_DIGIT(sel, 0) <= (byte ? 3u : 1u);
    if (slot == 0) {                    /* d mask: distinct lanes */
        if (byte != (lanes == 4))
            return false;
        for (unsigned i = 0; i < n; i++) {
            unsigned dg = PTX_SEL_DIGIT(sel, i);
            if (dg >= lanes || (used & (1u << dg)))
                return false;
            used |= 1u << dg;
        }
        return true;
    }
    return byte == (lanes == 4) && n == lanes;   /* .hxy / .bxyzw */
}

/* Operands of the video instructions (layout in ptx_ir.h). */
static void parse_video(struct ptx_parser *p, struct ptx_inst *in,
                        struct raw *r, unsigned n, const struct ptx_tok *opt)
{
    enum ptx_op op = (enum ptx_op)in->op;
    unsigned lanes = ptx_is_video_simd(op) ? (op >= PTX_OP_VADD4 ? 4 : 2) : 1;
    bool scalar = lanes == 1;
    if (scalar && n != 3 && n != 4)
        count_err(p, opt, "3 or 4 operands", n);
    if (!scalar && n != 4)
        count_err(p, opt, "4 operands (d, a, b, c)", n);
    if (scalar && n == 3 && in->sub)
        count_err(p, opt, "4 operands with a secondary operation", n);
    if (op == PTX_OP_VMAD && n != 4)
        count_err(p, opt, "4 operands (d, a, b, c)", n);
    for (unsigned i = 0; i < n; i++) {
        place(p, in, &r[i], i, i ? RL_SRC : RL_DST, PTX_T_U32);
        in->o[i].neg = r[i].minus;
        if (i == 3 && r[i].o.sel)
            ptx_perr(p, r[i].line, r[i].col, "unexpected selector on c (%s)",
                     ptx_op_name(op));
        if (!video_sel_ok(r[i].o.sel, lanes, i) ||
            (i == 0 && scalar && r[i].o.sel && (n != 4 || in->sub ||
                                                 op == PTX_OP_VMAD)))
            ptx_perr(p, r[i].line, r[i].col, "invalid selector for operand %u of %s",
                     i, ptx_op_name(op));
    }
    if (scalar && n == 4 && !in->sub && !in->o[0].sel && op != PTX_OP_VMAD)
        ptx_perr(p, r[0].line, r[0].col,
                 "expected a secondary operation (.add .min .max) or a d selector (%s)",
                 ptx_op_name(op));
}

/* Operands of the instruction up to its ';' into r[] (MAXRAW at most);
 * returns how many. */
static unsigned parse_operand_list(struct ptx_parser *p, const struct ptx_tok *opt,
                                   enum ptx_op op, struct raw *r)
{
    unsigned n = 0;
    const struct ptx_tok *pk = ptx_peek(p, 0);
    if (!(pk->kind == PTX_TK_PUNCT && pk->ch == ';')) {
        do {
            if (n == MAXRAW) {
                const struct ptx_tok *t = ptx_peek(p, 0);
                ptx_perr(p, t->line, t->col, "too many operands (%.*s)",
                         (int)opt->len, opt->s);
            }
            parse_operand(p, &r[n], op == PTX_OP_BRA);
            n++;
        } while (ptx_accept(p, ','));
    }
    const struct ptx_tok *t = ptx_peek(p, 0);
    if (!(t->kind == PTX_TK_PUNCT && t->ch == ';')) {
        char d[64];
        snprintf(d, sizeof d, "%.*s", (int)(t->len > 40 ? 40 : t->len), t->s);
        ptx_perr(p, t->line, t->col, "expected ';' after the operands of %.*s (%s)",
                 (int)opt->len, opt->s, t->kind == PTX_TK_EOF ? "end of file" : d);
    }
    ptx_advance(p, NULL);
    return n;
}

/* Slot placement of the integer, float, logic, conversion, move and
 * comparison instructions; false when op is none of them. */
static bool place_arith(struct ptx_parser *p, struct ptx_inst *in, struct raw *r,
                        unsigned n, const struct ptx_tok *opt)
{
    enum ptx_op op = (enum ptx_op)in->op;
    enum ptx_type ty = (enum ptx_type)in->type, t2 = (enum ptx_type)in->type2;
    switch (op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MUL24:
    case PTX_OP_DIV: case PTX_OP_REM: case PTX_OP_MIN: case PTX_OP_MAX:
    case PTX_OP_COPYSIGN: case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR:
    case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_ADDC: case PTX_OP_SUBC:
        if (n != 3)
            count_err(p, opt, "3 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, ty);
        place(p, in, &r[2], 2, RL_SRC,
              (op == PTX_OP_SHL || op == PTX_OP_SHR) ? PTX_T_U32 : ty);
        return true;
    case PTX_OP_MAD: case PTX_OP_MAD24: case PTX_OP_MADC: case PTX_OP_FMA:
    case PTX_OP_SAD: case PTX_OP_BFE: case PTX_OP_PRMT: case PTX_OP_SELP:
    case PTX_OP_SLCT:
        if (n != 4)
            count_err(p, opt, "4 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, op == PTX_OP_BFE ? ty : ty);
        place(p, in, &r[2], 2, RL_SRC, op == PTX_OP_BFE ? PTX_T_U32 : ty);
        place(p, in, &r[3], 3, RL_SRC,
              op == PTX_OP_BFE ? PTX_T_U32 : op == PTX_OP_SELP ? PTX_T_PRED
              : op == PTX_OP_SLCT ? t2 : ty);
        return true;
    case PTX_OP_BFI:
        if (n != 5)
            count_err(p, opt, "5 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, ty);
        place(p, in, &r[2], 2, RL_SRC, ty);
        place(p, in, &r[3], 3, RL_SRC, PTX_T_U32);
        place(p, in, &r[4], 4, RL_SRC, PTX_T_U32);
        return true;
    case PTX_OP_CVT:
        if (ty == PTX_T_F16X2) {        /* cvt.rn.f16x2.f32 d, a, b */
            if (n != 3)
                count_err(p, opt, "3 operands (d, a, b)", n);
            place(p, in, &r[0], 0, RL_DST, ty);
            place(p, in, &r[1], 1, RL_SRC, t2);
            place(p, in, &r[2], 2, RL_SRC, t2);
            return true;
        }
        /* fall through */
    case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_NOT: case PTX_OP_CNOT:
    case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BREV: case PTX_OP_SQRT:
    case PTX_OP_RSQRT: case PTX_OP_RCP: case PTX_OP_EX2: case PTX_OP_LG2:
    case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_TANH: case PTX_OP_TESTP:
    case PTX_OP_BFIND:
        if (n != 2)
            count_err(p, opt, "2 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, op == PTX_OP_CVT ? t2 : ty);
        return true;
    case PTX_OP_CVTA:
        if (n != 2)
            count_err(p, opt, "2 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRCSYM, ty);
        return true;
    case PTX_OP_MOV:
        if (n != 2)
            count_err(p, opt, "2 operands", n);
        place(p, in, &r[0], 0, RL_DSTV, ty);
        place(p, in, &r[1], 1, RL_MOVSRC, ty);
        if (in->o[0].kind == PTX_O_VEC && in->o[1].kind == PTX_O_VEC)
            ptx_perr(p, r[1].line, r[1].col, "expected a scalar source for a vector destination (mov)");
        return true;
    case PTX_OP_SETP:
        if (n != 3 && n != 4)
            count_err(p, opt, "3 or 4 operands", n);
        if ((n == 4) != (in->sub != PTX_SUB_NONE))
            count_err(p, opt, in->sub ? "4 operands with a boolean operation"
                                      : "3 operands without a boolean operation", n);
        place(p, in, &r[0], 0, RL_DST, PTX_T_PRED);
        if (r[0].has_pipe) {
            in->o[1] = r[0].pipe;
            r[0].has_pipe = false;
        }
        place(p, in, &r[1], 2, RL_SRC, t2);
        place(p, in, &r[2], 3, RL_SRC, t2);
        if (n == 4)
            place(p, in, &r[3], 4, RL_SRC, PTX_T_PRED);
        return true;
    case PTX_OP_SET:
        if ((n == 4) != (in->sub != PTX_SUB_NONE) || (n != 3 && n != 4))
            count_err(p, opt, in->sub ? "4 operands" : "3 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, t2);
        place(p, in, &r[2], 2, RL_SRC, t2);
        if (n == 4)
            place(p, in, &r[3], 3, RL_SRC, PTX_T_PRED);
        return true;
    case PTX_OP_BMSK:
        if (n != 3)
            count_err(p, opt, "3 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, PTX_T_U32);
        place(p, in, &r[2], 2, RL_SRC, PTX_T_U32);
        return true;
    case PTX_OP_FNS:
        if (n != 4)
            count_err(p, opt, "4 operands (d, mask, base, offset)", n);
        place(p, in, &r[0], 0, RL_DST, PTX_T_U32);
        place(p, in, &r[1], 1, RL_SRC, ty);
        place(p, in, &r[2], 2, RL_SRC, PTX_T_U32);
        place(p, in, &r[3], 3, RL_SRC, PTX_T_S32);
        return true;
    case PTX_OP_LOP3:
        if (n != 5)
            count_err(p, opt, "5 operands (d, a, b, c, immLut)", n);
        for (unsigned i = 0; i < 4; i++)
            place(p, in, &r[i], i, i ? RL_SRC : RL_DST, ty);
        if (r[4].o.kind != PTX_O_IMM)
            ptx_perr(p, r[4].line, r[4].col, "expected an immediate truth table (lop3)");
        place(p, in, &r[4], 4, RL_SRC, PTX_T_U32);
        return true;
    case PTX_OP_SHF: case PTX_OP_DP4A: case PTX_OP_DP2A:
        if (n != 4)
            count_err(p, opt, "4 operands", n);
        place(p, in, &r[0], 0, RL_DST, op == PTX_OP_SHF ? ty : PTX_T_U32);
        place(p, in, &r[1], 1, RL_SRC, ty);
        place(p, in, &r[2], 2, RL_SRC, t2);
        place(p, in, &r[3], 3, RL_SRC, PTX_T_U32);
        if (op == PTX_OP_DP2A && !(in->flags & (PTX_F_LO | PTX_F_HI)))
            ptx_perr(p, opt->line, opt->col, "expected .lo or .hi (%.*s)",
                     (int)opt->len, opt->s);
        return true;
    default:
        return false;
    }
}

/* Slot placement of loads, stores, atomics and reductions; false when op
 * is none of them. */
static bool place_mem(struct ptx_parser *p, struct ptx_inst *in, struct raw *r,
                      unsigned n, const struct ptx_tok *opt)
{
    enum ptx_type ty = (enum ptx_type)in->type;
    switch ((enum ptx_op)in->op) {
    case PTX_OP_LD: case PTX_OP_LDU:
        if (n != 2)
            count_err(p, opt, "2 operands", n);
        place(p, in, &r[0], 0, in->vec > 1 ? RL_VEC : RL_DST, ty);
        place(p, in, &r[1], 1, RL_MEM, ty);
        return true;
    case PTX_OP_ST:
        if (n != 2)
            count_err(p, opt, "2 operands", n);
        place(p, in, &r[0], 0, RL_MEM, ty);
        place(p, in, &r[1], 1, in->vec > 1 ? RL_VEC : RL_SRC, ty);
        return true;
    case PTX_OP_ATOM:
        if (n != (in->sub == PTX_SUB_CAS ? 4u : 3u))
            count_err(p, opt, in->sub == PTX_SUB_CAS ? "4 operands" : "3 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_MEM, ty);
        place(p, in, &r[2], 2, RL_SRC, ty);
        if (n == 4)
            place(p, in, &r[3], 3, RL_SRC, ty);
        return true;
    case PTX_OP_RED:
        if (n != 2)
            count_err(p, opt, "2 operands", n);
        if (in->sub == PTX_SUB_CAS || in->sub == PTX_SUB_EXCH)
            ptx_perr(p, opt->line, opt->col, "expected a reduction operation (%.*s)",
                     (int)opt->len, opt->s);
        place(p, in, &r[0], 0, RL_MEM, ty);
        place(p, in, &r[1], 1, RL_SRC, ty);
        return true;
    default:
        return false;
    }
}

/* tex/tld4: d, [texture{, sampler}, {coordinates}]{, lod | , dPdx, dPdy}. */
static void place_tex_fetch(struct ptx_parser *p, struct ptx_inst *in, struct raw *r,
                            unsigned n, const struct ptx_tok *opt)
{
    enum ptx_op op = (enum ptx_op)in->op;
    enum ptx_type ty = (enum ptx_type)in->type;
    unsigned want = in->tmode == PTX_TM_LEVEL ? 3u : in->tmode == PTX_TM_GRAD ? 4u : 2u;
    if (n < 2 || !r[1].has_coords)
        count_err(p, opt, "a vector and [texture, {coordinates}]", n);
    if (n > want)
        ptx_perr(p, r[want].line, r[want].col,
                 "texture coordinate offsets and depth compare are not supported "
                 "(operand %u of %.*s)", want, (int)opt->len, opt->s);
    if (n != want)
        count_err(p, opt, want == 2 ? "2 operands (d, [a, c])"
                  : want == 3 ? "3 operands (d, [a, c], lod)"
                  : "4 operands (d, [a, c], dPdx, dPdy)", n);
    place(p, in, &r[0], 0, RL_VEC, ty);
    if (in->o[0].vec_n != 4)
        ptx_perr(p, r[0].line, r[0].col, "expected 4 destination registers (%s)",
                 ptx_op_name(op));
    in->o[2] = r[1].coords;
    r[1].has_coords = false;
    if (r[1].has_sampler) {
        in->o[5] = r[1].sampler;
        r[1].has_sampler = false;
    }
    place(p, in, &r[1], 1, RL_MEM, ty);
    in->nopnd = 3;
    if (in->tmode == PTX_TM_LEVEL)
        place(p, in, &r[2], 3, RL_SRC, PTX_T_F32);
    if (in->tmode == PTX_TM_GRAD) {
        place(p, in, &r[2], 3, RL_VEC, PTX_T_F32);
        place(p, in, &r[3], 4, RL_VEC, PTX_T_F32);
    }
    if (in->o[5].kind == PTX_O_MEM)
        in->nopnd = 6;
}

/* suld: d, [surface, {coordinates}]; sust: [surface, {coordinates}], value. */
static void place_surface(struct ptx_parser *p, struct ptx_inst *in, struct raw *r,
                          unsigned n, const struct ptx_tok *opt)
{
    enum ptx_type ty = (enum ptx_type)in->type;
    bool ld = in->op == PTX_OP_SULD;
    unsigned ai = ld ? 1 : 0, vi = ld ? 0 : 1;
    if (n != 2 || !r[ai].has_coords)
        count_err(p, opt, ld ? "d, [surface, {coordinates}]"
                             : "[surface, {coordinates}], value", n);
    struct ptx_operand co = r[ai].coords;
    r[ai].has_coords = false;
    /* nvcc writes a scalar as a 1-element vector: suld.b.2d.b32 {%r1} */
    if (in->vec <= 1 && r[vi].o.kind == PTX_O_VEC && r[vi].o.vec_n == 1 &&
        r[vi].o.vec_regs[0] >= 0) {
        r[vi].o.kind = PTX_O_REG;
        r[vi].o.reg = r[vi].o.vec_regs[0];
    }
    if (ld)
        place(p, in, &r[0], 0, in->vec > 1 ? RL_VEC : RL_DST, ty);
    place(p, in, &r[ai], ai, RL_MEM, ty);
    if (!ld)
        place(p, in, &r[1], 1, in->vec > 1 ? RL_VEC : RL_SRC, ty);
    if (in->vec > 1 && in->o[vi].vec_n != in->vec)
        ptx_perr(p, r[vi].line, r[vi].col, "expected %u vector elements (%u)",
                 in->vec, in->o[vi].vec_n);
    in->o[2] = co;
    in->nopnd = 3;
}

/* Slot placement of the texture and surface instructions; false when op
 * is none of them. */
static bool place_tex(struct ptx_parser *p, struct ptx_inst *in, struct raw *r,
                      unsigned n, const struct ptx_tok *opt)
{
    switch ((enum ptx_op)in->op) {
    case PTX_OP_TEX: case PTX_OP_TLD4:
        place_tex_fetch(p, in, r, n, opt);
        return true;
    case PTX_OP_TXQ: case PTX_OP_SUQ: {
        unsigned want = in->tmode == PTX_TM_LEVEL ? 3u : 2u;
        if (n != want)
            count_err(p, opt, want == 3 ? "3 operands (d, [a], lod)" : "2 operands (d, [a])", n);
        place(p, in, &r[0], 0, RL_DST, (enum ptx_type)in->type);
        place(p, in, &r[1], 1, RL_MEM, (enum ptx_type)in->type);
        if (want == 3)
            place(p, in, &r[2], 2, RL_SRC, PTX_T_S32);
        return true;
    }
    case PTX_OP_SULD: case PTX_OP_SUST:
        place_surface(p, in, r, n, opt);
        return true;
    default:
        return false;
    }
}

/* bar/barrier: {a{, b}} or, with .red, d, a{, b}, {!}c. */
static void place_bar(struct ptx_parser *p, struct ptx_inst *in, struct raw *r,
                      unsigned n, const struct ptx_tok *opt)
{
    if (in->sub == PTX_SUB_RED_POPC || in->sub == PTX_SUB_RED_AND ||
        in->sub == PTX_SUB_RED_OR) {      /* d, a{, b}, {!}c */
        if (n != 3 && n != 4)
            count_err(p, opt, "3 or 4 operands (d, a, [b,] c)", n);
        place(p, in, &r[0], 0, RL_DST, (enum ptx_type)in->type);
        place(p, in, &r[1], 1, RL_SRC, PTX_T_U32);
        if (n == 4)
            place(p, in, &r[2], 2, RL_SRC, PTX_T_U32);
        place(p, in, &r[n - 1], 3, RL_SRC, PTX_T_PRED);
        in->nopnd = 4;
        return;
    }
    if (in->sub == PTX_SUB_WARP_SYNC) {
        if (n != 1)
            count_err(p, opt, "1 operand (membermask)", n);
    } else if (n != 1 && n != 2) {
        count_err(p, opt, "1 or 2 operands", n);
    }
    for (unsigned i = 0; i < n; i++)
        place(p, in, &r[i], i, RL_SRC, PTX_T_U32);
}

/* Slot placement of control flow, barriers and warp collectives; false
 * when op is none of them. idx: the instruction's index (branch fixups). */
static bool place_control(struct ptx_parser *p, struct ptx_inst *in, uint32_t idx,
                          struct raw *r, unsigned n, const struct ptx_tok *opt)
{
    enum ptx_type ty = (enum ptx_type)in->type;
    switch ((enum ptx_op)in->op) {
    case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_MEMBAR: case PTX_OP_FENCE:
    case PTX_OP_TRAP:
        if (n != 0)
            count_err(p, opt, "no operands", n);
        return true;
    case PTX_OP_BRA:
        if (n != 1)
            count_err(p, opt, "1 label", n);
        in->o[0] = r[0].o;
        in->nopnd = 1;
        ptx_add_fixup(p, idx, 0, &r[0].label);
        return true;
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        place_bar(p, in, r, n, opt);
        return true;
    case PTX_OP_SHFL:
        if (n != 4 && n != 5)
            count_err(p, opt, "5 operands (d[|p], a, b, c, membermask)", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        if (r[0].has_pipe) {
            in->o[1] = r[0].pipe;
            in->flags |= PTX_F_SHFL_P;
        }
        place(p, in, &r[1], 2, RL_SRC, ty);
        place(p, in, &r[2], 3, RL_SRC, PTX_T_U32);
        place(p, in, &r[3], 4, RL_SRC, PTX_T_U32);
        if (n == 5)
            place(p, in, &r[4], 5, RL_SRC, PTX_T_B32);
        in->nopnd = 6;
        return true;
    case PTX_OP_VOTE:
        if (n != 3 && n != 2)
            count_err(p, opt, "3 operands (d, a, membermask)", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, PTX_T_PRED);
        if (n == 3)
            place(p, in, &r[2], 2, RL_SRC, PTX_T_B32);
        in->nopnd = 3;
        return true;
    case PTX_OP_ACTIVEMASK:
        if (n != 1)
            count_err(p, opt, "1 operand", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        return true;
    case PTX_OP_NANOSLEEP:
        if (n != 1)
            count_err(p, opt, "1 operand (t)", n);
        place(p, in, &r[0], 0, RL_SRC, PTX_T_U32);
        return true;
    case PTX_OP_MATCH:
        if (n != 3)
            count_err(p, opt, "3 operands (d[|p], a, membermask)", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        if (r[0].has_pipe) {
            if (in->sub != PTX_SUB_ALL)
                ptx_perr(p, r[0].line, r[0].col, "only match.all writes a predicate (d|p)");
            in->o[1] = r[0].pipe;
        }
        place(p, in, &r[1], 2, RL_SRC, ty);
        place(p, in, &r[2], 3, RL_SRC, PTX_T_B32);
        in->nopnd = 4;
        return true;
    default:
        return false;
    }
}

void ptx_parse_inst(struct ptx_parser *p, int32_t guard, bool guard_neg,
                    uint32_t gline, uint32_t gcol)
{
    struct ptx_tok opt;
    ptx_advance(p, &opt);
    uint32_t idx = p->cur.ninsts;
    struct ptx_inst *in = ptx_new_inst(p);
    in->guard = guard;
    in->guard_neg = guard_neg;
    in->line = opt.line;
    in->col = opt.col;
    (void)gline;
    (void)gcol;
    {
        const char *dot = memchr(opt.s, '.', opt.len);
        if (ptx_mma_is_opcode(opt.s, dot ? (size_t)(dot - opt.s) : opt.len)) {
            ptx_mma_parse(p, in, &opt);     /* wmma.*, mma: ptx_mma.c */
            return;
        }
    }
    ptx_decode_opcode(p, in, &opt);
    enum ptx_op op = (enum ptx_op)in->op;
    if (op == PTX_OP_CALL) {
        ptx_parse_call(p, in);
        return;
    }
    if (op == PTX_OP_BRX) {
        ptx_parse_brx(p, in, &opt);
        return;
    }
    struct raw r[MAXRAW];
    unsigned n = parse_operand_list(p, &opt, op, r);
    bool placed = place_control(p, in, idx, r, n, &opt) ||
                  place_arith(p, in, r, n, &opt) || place_mem(p, in, r, n, &opt) ||
                  place_tex(p, in, r, n, &opt);
    if (!placed && ptx_is_video(op))
        parse_video(p, in, r, n, &opt);
    else if (!placed)
        ptx_perr(p, opt.line, opt.col, "unsupported instruction (%.*s)",
                 (int)opt.len, opt.s);
    if (op == PTX_OP_SETP && p->cur.regs[in->o[0].reg].type != PTX_T_PRED)
        ptx_perr(p, r[0].line, r[0].col, "expected a .pred destination (%s)",
                 p->cur.regs[in->o[0].reg].name);
    if ((op == PTX_OP_LD || op == PTX_OP_LDU || op == PTX_OP_ST) && in->vec > 1) {
        unsigned s = op == PTX_OP_ST ? 1 : 0;
        if (in->o[s].vec_n != in->vec)
            ptx_perr(p, r[s].line, r[s].col, "expected %u vector elements (%u)",
                     in->vec, in->o[s].vec_n);
    }
}
