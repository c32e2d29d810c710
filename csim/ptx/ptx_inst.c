/* PTX instruction parser: opcode + modifiers into struct ptx_inst fields,
 * operands into the per-opcode slot layout documented in ptx_ir.h. */
#include <stdio.h>
#include <string.h>
#include "ptx/ptx_pstate.h"

/* ------------------------------------------------------ modifier table */

enum {
    M_TYPE = 1u << 0, M_SPACE = 1u << 1, M_VEC = 1u << 2, M_CMP = 1u << 3,
    M_RND = 1u << 4, M_HILO = 1u << 5, M_WIDE = 1u << 6, M_SAT = 1u << 7,
    M_FTZ = 1u << 8, M_APPROX = 1u << 9, M_CC = 1u << 10, M_UNI = 1u << 11,
    M_NC = 1u << 12, M_VOL = 1u << 13, M_TO = 1u << 14, M_ALIGNED = 1u << 15,
    M_BOOL = 1u << 16, M_ATOMOP = 1u << 17, M_SHFL = 1u << 18,
    M_VOTE = 1u << 19, M_SYNC = 1u << 20, M_ARRIVE = 1u << 21,
    M_WARP = 1u << 22, M_GEOM = 1u << 23, M_CLASS = 1u << 24,
    M_ORDER = 1u << 25, M_SCOPE = 1u << 26, M_CACHE = 1u << 27
};

struct mod_ent {
    const char *name;
    uint32_t cls;
    uint16_t val;
};

static const struct mod_ent mods[] = {
    {"b8", M_TYPE, PTX_T_B8}, {"b16", M_TYPE, PTX_T_B16},
    {"b32", M_TYPE, PTX_T_B32}, {"b64", M_TYPE, PTX_T_B64},
    {"u8", M_TYPE, PTX_T_U8}, {"u16", M_TYPE, PTX_T_U16},
    {"u32", M_TYPE, PTX_T_U32}, {"u64", M_TYPE, PTX_T_U64},
    {"s8", M_TYPE, PTX_T_S8}, {"s16", M_TYPE, PTX_T_S16},
    {"s32", M_TYPE, PTX_T_S32}, {"s64", M_TYPE, PTX_T_S64},
    {"f16", M_TYPE, PTX_T_F16}, {"f32", M_TYPE, PTX_T_F32},
    {"f64", M_TYPE, PTX_T_F64}, {"pred", M_TYPE, PTX_T_PRED},
    {"global", M_SPACE, PTX_SP_GLOBAL}, {"shared", M_SPACE, PTX_SP_SHARED},
    {"local", M_SPACE, PTX_SP_LOCAL}, {"param", M_SPACE, PTX_SP_PARAM},
    {"const", M_SPACE, PTX_SP_CONST},
    {"v2", M_VEC, 2}, {"v4", M_VEC, 4},
    {"eq", M_CMP, PTX_CMP_EQ}, {"ne", M_CMP, PTX_CMP_NE},
    {"lt", M_CMP, PTX_CMP_LT}, {"le", M_CMP, PTX_CMP_LE},
    {"gt", M_CMP, PTX_CMP_GT}, {"ge", M_CMP, PTX_CMP_GE},
    {"lo", M_CMP | M_HILO, PTX_CMP_LO}, {"ls", M_CMP, PTX_CMP_LS},
    {"hi", M_CMP | M_HILO, PTX_CMP_HI}, {"hs", M_CMP, PTX_CMP_HS},
    {"equ", M_CMP, PTX_CMP_EQU}, {"neu", M_CMP, PTX_CMP_NEU},
    {"ltu", M_CMP, PTX_CMP_LTU}, {"leu", M_CMP, PTX_CMP_LEU},
    {"gtu", M_CMP, PTX_CMP_GTU}, {"geu", M_CMP, PTX_CMP_GEU},
    {"num", M_CMP, PTX_CMP_NUM}, {"nan", M_CMP, PTX_CMP_NAN},
    {"rn", M_RND, PTX_RND_RN}, {"rz", M_RND, PTX_RND_RZ},
    {"rm", M_RND, PTX_RND_RM}, {"rp", M_RND, PTX_RND_RP},
    {"rni", M_RND, PTX_RND_RNI}, {"rzi", M_RND, PTX_RND_RZI},
    {"rmi", M_RND, PTX_RND_RMI}, {"rpi", M_RND, PTX_RND_RPI},
    {"wide", M_WIDE, PTX_F_WIDE}, {"sat", M_SAT, PTX_F_SAT},
    {"ftz", M_FTZ, PTX_F_FTZ}, {"approx", M_APPROX, PTX_F_APPROX},
    {"full", M_APPROX, PTX_F_APPROX}, {"cc", M_CC, PTX_F_CC},
    {"uni", M_UNI, PTX_F_UNI}, {"nc", M_NC, PTX_F_NC},
    {"volatile", M_VOL, PTX_F_VOLATILE}, {"to", M_TO, PTX_F_TO},
    {"aligned", M_ALIGNED, PTX_F_ALIGNED},
    {"and", M_BOOL, PTX_SUB_AND}, {"or", M_BOOL, PTX_SUB_OR},
    {"xor", M_BOOL, PTX_SUB_XOR},
    {"add", M_ATOMOP, PTX_SUB_ADD}, {"min", M_ATOMOP, PTX_SUB_MIN},
    {"max", M_ATOMOP, PTX_SUB_MAX}, {"inc", M_ATOMOP, PTX_SUB_INC},
    {"dec", M_ATOMOP, PTX_SUB_DEC}, {"exch", M_ATOMOP, PTX_SUB_EXCH},
    {"cas", M_ATOMOP, PTX_SUB_CAS},
    {"up", M_SHFL, PTX_SUB_UP}, {"down", M_SHFL, PTX_SUB_DOWN},
    {"bfly", M_SHFL, PTX_SUB_BFLY}, {"idx", M_SHFL, PTX_SUB_IDX},
    {"all", M_VOTE, PTX_SUB_ALL}, {"any", M_VOTE, PTX_SUB_ANY},
    {"ballot", M_VOTE, PTX_SUB_BALLOT},
    {"sync", M_SYNC, PTX_SUB_SYNC}, {"arrive", M_ARRIVE, PTX_SUB_ARRIVE},
    {"warp", M_WARP, PTX_SUB_WARP_SYNC},
    {"1d", M_GEOM, PTX_SUB_1D}, {"2d", M_GEOM, PTX_SUB_2D},
    {"3d", M_GEOM, PTX_SUB_3D},
    {"finite", M_CLASS, PTX_SUB_FINITE}, {"infinite", M_CLASS, PTX_SUB_INFINITE},
    {"number", M_CLASS, PTX_SUB_NUMBER},
    {"notanumber", M_CLASS, PTX_SUB_NOTANUMBER},
    {"normal", M_CLASS, PTX_SUB_NORMAL}, {"subnormal", M_CLASS, PTX_SUB_SUBNORMAL},
    {"relaxed", M_ORDER, 0}, {"acquire", M_ORDER, 0}, {"release", M_ORDER, 0},
    {"acq_rel", M_ORDER, 0}, {"sc", M_ORDER, 0}, {"weak", M_ORDER, 0},
    {"cta", M_SCOPE, 0}, {"gpu", M_SCOPE, 0}, {"sys", M_SCOPE, 0},
    {"gl", M_SCOPE, 0},
    {"ca", M_CACHE, 0}, {"cg", M_CACHE, 0}, {"cs", M_CACHE, 0},
    {"lu", M_CACHE, 0}, {"cv", M_CACHE, 0}, {"wb", M_CACHE, 0},
    {"wt", M_CACHE, 0},
};

#define FLOAT_MODS (M_FTZ | M_SAT)

/* Modifier classes an opcode accepts. */
static uint32_t allowed(enum ptx_op op)
{
    switch (op) {
    case PTX_OP_ADD: case PTX_OP_SUB:
        return M_TYPE | M_RND | M_SAT | M_FTZ | M_CC;
    case PTX_OP_ADDC: case PTX_OP_SUBC:
        return M_TYPE | M_CC;
    case PTX_OP_MUL:
        return M_TYPE | M_RND | M_SAT | M_FTZ | M_HILO | M_WIDE;
    case PTX_OP_MUL24: return M_TYPE | M_HILO;
    case PTX_OP_MAD:
        return M_TYPE | M_RND | M_SAT | M_FTZ | M_HILO | M_WIDE | M_CC;
    case PTX_OP_MAD24: return M_TYPE | M_HILO | M_SAT;
    case PTX_OP_MADC: return M_TYPE | M_HILO | M_CC;
    case PTX_OP_FMA: return M_TYPE | M_RND | M_SAT | M_FTZ;
    case PTX_OP_DIV: return M_TYPE | M_RND | M_FTZ | M_APPROX;
    case PTX_OP_SQRT: case PTX_OP_RCP:
        return M_TYPE | M_RND | M_FTZ | M_APPROX;
    case PTX_OP_RSQRT: case PTX_OP_EX2: case PTX_OP_LG2: case PTX_OP_SIN:
    case PTX_OP_COS: case PTX_OP_TANH:
        return M_TYPE | M_FTZ | M_APPROX;
    case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_MIN: case PTX_OP_MAX:
    case PTX_OP_TESTP:
        return M_TYPE | M_FTZ | (op == PTX_OP_TESTP ? M_CLASS : 0);
    case PTX_OP_SETP: return M_TYPE | M_CMP | M_BOOL | M_FTZ;
    case PTX_OP_SET: return M_TYPE | M_CMP | M_BOOL | M_FTZ;
    case PTX_OP_SLCT: return M_TYPE | M_FTZ;
    case PTX_OP_CVT: return M_TYPE | M_RND | M_SAT | M_FTZ;
    case PTX_OP_CVTA: return M_TYPE | M_SPACE | M_TO;
    case PTX_OP_LD:
        return M_TYPE | M_SPACE | M_VEC | M_NC | M_VOL | M_ORDER | M_SCOPE |
               M_CACHE;
    case PTX_OP_LDU: return M_TYPE | M_SPACE | M_VEC;
    case PTX_OP_ST:
        return M_TYPE | M_SPACE | M_VEC | M_VOL | M_ORDER | M_SCOPE | M_CACHE;
    case PTX_OP_ATOM: case PTX_OP_RED:
        return M_TYPE | M_SPACE | M_BOOL | M_ATOMOP | M_ORDER | M_SCOPE;
    case PTX_OP_TEX: return M_TYPE | M_VEC | M_GEOM;
    case PTX_OP_MEMBAR: return M_SCOPE;
    case PTX_OP_FENCE: return M_ORDER | M_SCOPE;
    case PTX_OP_BRA: case PTX_OP_CALL: return M_UNI;
    case PTX_OP_BRX: return M_UNI | M_SHFL;     /* brx[.uni].idx */
    case PTX_OP_RET: case PTX_OP_EXIT: return M_UNI;
    case PTX_OP_BAR: return M_SYNC | M_ARRIVE | M_WARP | M_ALIGNED;
    case PTX_OP_BARRIER: return M_SYNC | M_ARRIVE | M_ALIGNED;
    case PTX_OP_SHFL: return M_TYPE | M_SYNC | M_SHFL;
    case PTX_OP_VOTE: return M_TYPE | M_SYNC | M_VOTE | M_UNI;
    case PTX_OP_ACTIVEMASK: return M_TYPE;
    default: return M_TYPE;
    }
}

/* Number of type suffixes an opcode takes. */
static unsigned ntypes(enum ptx_op op)
{
    switch (op) {
    case PTX_OP_BRA: case PTX_OP_CALL: case PTX_OP_RET: case PTX_OP_EXIT:
    case PTX_OP_BRX:
    case PTX_OP_BAR: case PTX_OP_BARRIER: case PTX_OP_MEMBAR:
    case PTX_OP_FENCE:
        return 0;
    case PTX_OP_CVT: case PTX_OP_SET: case PTX_OP_SLCT: case PTX_OP_TEX:
        return 2;
    default:
        return 1;
    }
}

static int find_op(const char *s, size_t n)
{
    for (int i = 0; i < PTX_OP_COUNT; i++) {
        const char *nm = ptx_op_name((enum ptx_op)i);
        if (nm[0] == s[0] && strlen(nm) == n && memcmp(nm, s, n) == 0)
            return i;
    }
    return -1;
}

static const struct mod_ent *find_mod(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++)
        if (mods[i].name[0] == s[0] && strlen(mods[i].name) == n &&
            memcmp(mods[i].name, s, n) == 0)
            return &mods[i];
    return NULL;
}

/* Decodes "ld.global.nc.f32" into in's modifier fields. */
static void decode_opcode(struct ptx_parser *p, struct ptx_inst *in,
                          const struct ptx_tok *t)
{
    const char *s = t->s, *end = t->s + t->len;
    const char *dot = memchr(s, '.', t->len);
    size_t bl = dot ? (size_t)(dot - s) : t->len;
    int op = find_op(s, bl);
    if (op < 0)
        ptx_perr(p, t->line, t->col, "unknown opcode '%.*s' (%.*s)", (int)bl, s,
                 (int)t->len, t->s);
    in->op = (uint8_t)op;
    uint32_t ok = allowed((enum ptx_op)op), seen = 0;
    uint8_t types[2] = {0, 0};
    unsigned nt = 0;
    bool sync = false, warp = false;
    const char *q = dot;
    while (q && q < end) {
        const char *m = q + 1;
        const char *nx = memchr(m, '.', (size_t)(end - m));
        size_t ml = nx ? (size_t)(nx - m) : (size_t)(end - m);
        uint32_t col = t->col + (uint32_t)(q - s);
        const struct mod_ent *e = find_mod(m, ml);
        uint32_t cls = e ? (e->cls & ok) : 0;
        if (!e)
            ptx_perr(p, t->line, col, "unknown modifier '.%.*s' (%.*s)", (int)ml,
                     m, (int)t->len, t->s);
        if (!cls)
            ptx_perr(p, t->line, col, "modifier '.%.*s' not valid for %s (%.*s)",
                     (int)ml, m, ptx_op_name((enum ptx_op)op), (int)t->len, t->s);
        if (cls != M_TYPE && (seen & cls))
            ptx_perr(p, t->line, col, "duplicate modifier '.%.*s' (%.*s)", (int)ml,
                     m, (int)t->len, t->s);
        seen |= cls;
        switch (cls) {
        case M_TYPE:
            if (nt >= 2 || nt >= ntypes((enum ptx_op)op))
                ptx_perr(p, t->line, col, "too many type suffixes (%.*s)",
                         (int)t->len, t->s);
            types[nt++] = (uint8_t)e->val;
            break;
        case M_SPACE: in->space = (uint8_t)e->val; break;
        case M_VEC: in->vec = (uint8_t)e->val; break;
        case M_CMP: in->cmp = (uint8_t)e->val; break;
        case M_HILO:
            in->flags |= e->val == PTX_CMP_HI ? PTX_F_HI : PTX_F_LO;
            break;
        case M_RND: in->rnd = (uint8_t)e->val; break;
        case M_BOOL: case M_ATOMOP: case M_SHFL: case M_VOTE: case M_GEOM:
        case M_CLASS: case M_ARRIVE:
            if (in->sub != PTX_SUB_NONE)
                ptx_perr(p, t->line, col, "conflicting modifier '.%.*s' (%.*s)",
                         (int)ml, m, (int)t->len, t->s);
            in->sub = (uint8_t)e->val;
            break;
        case M_UNI:
            if (op == PTX_OP_VOTE) {
                if (in->sub != PTX_SUB_NONE)
                    ptx_perr(p, t->line, col, "conflicting modifier '.uni' (%.*s)",
                             (int)t->len, t->s);
                in->sub = PTX_SUB_UNI;
            } else {
                in->flags |= PTX_F_UNI;
            }
            break;
        case M_SYNC: sync = true; break;
        case M_WARP:
            if (sync)
                ptx_perr(p, t->line, col, "expected .warp before .sync (%.*s)",
                         (int)t->len, t->s);
            warp = true;
            break;
        case M_ORDER: case M_SCOPE: case M_CACHE: break;
        default: in->flags |= e->val; break;
        }
        q = nx;
    }
    /* required modifiers */
    enum ptx_op o = (enum ptx_op)op;
    const char *need = NULL;
    if (nt != ntypes(o))
        need = ntypes(o) == 2 ? "two type suffixes" : "a type suffix";
    else if ((o == PTX_OP_SETP || o == PTX_OP_SET) && !in->cmp)
        need = "a comparison (.eq, .lt, ...)";
    else if ((o == PTX_OP_ATOM || o == PTX_OP_RED) && !in->sub)
        need = "an atomic operation (.add, .or, ...)";
    else if (o == PTX_OP_SHFL && !in->sub)
        need = "a shuffle mode (.up, .down, .bfly, .idx)";
    else if (o == PTX_OP_VOTE && !in->sub)
        need = "a vote mode (.all, .any, .uni, .ballot)";
    else if (o == PTX_OP_TEX && !in->sub)
        need = "a texture geometry (.1d, .2d, .3d)";
    else if (o == PTX_OP_TESTP && !in->sub)
        need = "a class (.finite, .notanumber, ...)";
    else if (o == PTX_OP_CVTA && !in->space)
        need = "a state space";
    else if (o == PTX_OP_BRX && in->sub != PTX_SUB_IDX)
        need = ".idx";
    else if ((o == PTX_OP_SETP || o == PTX_OP_SET) && in->sub &&
             in->sub != PTX_SUB_AND && in->sub != PTX_SUB_OR &&
             in->sub != PTX_SUB_XOR)
        need = "a boolean operation";
    if (o == PTX_OP_BAR || o == PTX_OP_BARRIER) {
        if (warp) {
            if (!sync)
                need = ".sync after .warp";
            in->sub = PTX_SUB_WARP_SYNC;
        } else if (sync) {
            if (in->sub)
                need = "one of .sync or .arrive";
            in->sub = PTX_SUB_SYNC;
        } else if (in->sub != PTX_SUB_ARRIVE) {
            need = ".sync or .arrive";
        }
    }
    if ((o == PTX_OP_TEX && in->vec != 4))
        need = ".v4";
    if (need)
        ptx_perr(p, t->line, t->col, "expected %s (%.*s)", need, (int)t->len, t->s);
    in->type = types[0];
    in->type2 = nt == 2 ? types[1] : types[0];
}

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
    struct ptx_tok label;      /* PTX_O_LABEL before resolution */
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
        else
            o->vec_regs[o->vec_n++] = need_reg(p, &t);
    } while (ptx_accept(p, ','));
    ptx_expect(p, '}', "closing the vector operand");
}

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
            ptx_expect(p, '{', "opening the texture coordinates");
            parse_vec(p, &r->coords);
            r->has_coords = true;
        }
        ptx_expect(p, ']', "closing the address");
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
        if (neg)
            break;
        if (t.s[0] == '%') {
            int sr = ptx_sreg_from_name(t.s, t.len);
            if (sr >= 0) {
                r->o.kind = PTX_O_SREG;
                r->o.sreg = (uint8_t)sr;
                return;
            }
        }
        {
            int32_t reg = ptx_find_reg(p, t.s, t.len);
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
            if (ptx_find_sym(p, t.s, t.len, &r->o.sym)) {
                r->o.kind = PTX_O_SYM;
                r->o.imm = parse_offset(p);
                return;
            }
            const struct ptx_nent *fe = ptx_ntab_find(&p->mtab, t.s, t.len);
            if (fe && fe->kind == PTX_NK_FUNC) {    /* mov r, fn: its address */
                r->o.kind = PTX_O_FUNC;
                r->o.func = fe->idx;
                return;
            }
            if (t.s[0] == '%' && memchr(t.s, '.', t.len))
                ptx_perr(p, t.line, t.col, "unknown special register (%.*s)",
                         (int)t.len, t.s);
            if (t.s[0] == '%')
                ptx_perr(p, t.line, t.col, "undefined register (%.*s)",
                         (int)t.len, t.s);
            ptx_perr(p, t.line, t.col, "undefined identifier (%.*s)", (int)t.len, t.s);
        }
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

static uint64_t f2bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static uint64_t d2bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

/* Converts an immediate to the raw bits of slot type t. */
static void type_imm(struct ptx_parser *p, struct raw *r, enum ptx_type t)
{
    uint64_t u = (uint64_t)r->o.imm;
    if (t == PTX_T_F32) {
        switch (r->lit) {
        case PTX_TK_INT: u = f2bits((float)(int64_t)u); break;
        case PTX_TK_F32: break;
        case PTX_TK_F64: { double d; memcpy(&d, &u, 8); u = f2bits((float)d); break; }
        default: u = f2bits((float)r->d); break;
        }
    } else if (t == PTX_T_F64) {
        switch (r->lit) {
        case PTX_TK_INT: u = d2bits((double)(int64_t)u); break;
        case PTX_TK_F32: { float f; uint32_t b = (uint32_t)u; memcpy(&f, &b, 4); u = d2bits(f); break; }
        case PTX_TK_F64: break;
        default: u = d2bits(r->d); break;
        }
    } else if (t == PTX_T_F16) {
        if (r->lit != PTX_TK_INT)
            ptx_perr(p, r->line, r->col, "f16 float immediates are not supported (.f16)");
    } else if (r->lit == PTX_TK_DEC) {
        ptx_perr(p, r->line, r->col, "expected an integer immediate (%g)", r->d);
    }
    r->o.imm = (int64_t)u;
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
    if (r->has_pipe && !((in->op == PTX_OP_SHFL || in->op == PTX_OP_SETP) && slot == 0))
        ptx_perr(p, r->line, r->col, "unexpected '|' operand (%s)",
                 ptx_op_name((enum ptx_op)in->op));
    if (r->has_coords && in->op != PTX_OP_TEX)
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

/* `call[.uni] [(ret),] func[, (args)];` */
static void parse_call(struct ptx_parser *p, struct ptx_inst *in,
                       const struct ptx_tok *opt)
{
    in->o[1].kind = PTX_O_NONE;
    in->nopnd = 2;
    if (ptx_accept(p, '(')) {
        struct ptx_tok t;
        ptx_advance(p, &t);
        if (t.kind != PTX_TK_WORD || !ptx_find_sym(p, t.s, t.len, &in->o[1].sym) ||
            ptx_ref_sym(p, in->o[1].sym)->space != PTX_SP_PARAM)
            ptx_perr(p, t.line, t.col, "expected a .param return variable (%.*s)",
                     (int)(t.len > 40 ? 40 : t.len), t.s);
        in->o[1].kind = PTX_O_SYM;
        ptx_expect(p, ')', "after the return parameter (call)");
        ptx_expect(p, ',', "after the return parameter (call)");
    }
    struct ptx_tok fn;
    ptx_advance(p, &fn);
    int32_t fi = -1, ri = -1;
    if (fn.kind == PTX_TK_WORD)
        ri = ptx_find_reg(p, fn.s, fn.len);
    if (ri >= 0) {                      /* indirect: call (r), %rd, (a), proto */
        if (p->cur.regs[ri].type == PTX_T_PRED)
            ptx_perr(p, fn.line, fn.col, "expected a function address register "
                     "(%.*s)", (int)fn.len, fn.s);
        in->o[0].kind = PTX_O_REG;
        in->o[0].reg = ri;
    } else {
        if (fn.kind == PTX_TK_WORD)
            fi = ptx_find_funcref(p, fn.s, fn.len, fn.line, fn.col);
        if (fi < 0)
            ptx_perr(p, fn.line, fn.col, "expected a function name or address "
                     "register (%.*s)", (int)(fn.len > 40 ? 40 : fn.len), fn.s);
        in->o[0].kind = PTX_O_FUNC;
        in->o[0].func = fi;
    }
    if (ptx_accept(p, ',')) {
        ptx_expect(p, '(', "opening the argument list (call)");
        /* arguments go to cur.cargs; up to 6 move into o[2..7] */
        uint32_t first = p->cur.ncargs, nargs = 0;
        if (!ptx_accept(p, ')')) {
            do {
                struct ptx_tok t;
                ptx_advance(p, &t);
                if (nargs >= 4096)
                    ptx_perr(p, t.line, t.col, "more than 4096 call arguments (%.*s)",
                             (int)t.len, t.s);
                p->cur.cargs = ptx_agrow(p, p->cur.cargs, p->cur.ncargs,
                                         &p->cargs_cap, sizeof *p->cur.cargs);
                struct ptx_operand *o = &p->cur.cargs[p->cur.ncargs];
                memset(o, 0, sizeof *o);
                o->reg = -1;
                if (t.kind != PTX_TK_WORD || !ptx_find_sym(p, t.s, t.len, &o->sym) ||
                    ptx_ref_sym(p, o->sym)->space != PTX_SP_PARAM)
                    ptx_perr(p, t.line, t.col, "expected a .param argument (%.*s)",
                             (int)(t.len > 40 ? 40 : t.len), t.s);
                o->kind = PTX_O_SYM;
                p->cur.ncargs++;
                nargs++;
            } while (ptx_accept(p, ','));
            ptx_expect(p, ')', "closing the argument list (call)");
        }
        if (nargs <= PTX_MAX_OPNDS - 2) {
            for (uint32_t i = 0; i < nargs; i++)
                in->o[2 + i] = p->cur.cargs[first + i];
            in->nopnd = (uint8_t)(2 + nargs);
            p->cur.ncargs = first;
        } else {
            in->o[2].kind = PTX_O_ARGS;
            in->o[2].label = (int32_t)first;
            in->o[2].imm = nargs;
            in->nopnd = 3;
        }
    }
    (void)opt;
    if (ri >= 0)
        ptx_parse_call_proto(p, ptx_call_nargs(in), in->o[1].kind != PTX_O_NONE);
    ptx_expect(p, ';', "after the call");
}

static void count_err(struct ptx_parser *p, const struct ptx_tok *opt,
                      const char *want, unsigned got)
{
    ptx_perr(p, opt->line, opt->col, "wrong operand count: expected %s, found %u (%.*s)",
             want, got, (int)opt->len, opt->s);
}

#define MAXRAW 8

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
    decode_opcode(p, in, &opt);
    enum ptx_op op = (enum ptx_op)in->op;
    if (op == PTX_OP_CALL) {
        parse_call(p, in, &opt);
        return;
    }
    if (op == PTX_OP_BRX) {
        ptx_parse_brx(p, in, &opt);
        return;
    }
    struct raw r[MAXRAW];
    unsigned n = 0;
    const struct ptx_tok *pk = ptx_peek(p, 0);
    if (!(pk->kind == PTX_TK_PUNCT && pk->ch == ';')) {
        do {
            if (n == MAXRAW) {
                const struct ptx_tok *t = ptx_peek(p, 0);
                ptx_perr(p, t->line, t->col, "too many operands (%.*s)",
                         (int)opt.len, opt.s);
            }
            parse_operand(p, &r[n], op == PTX_OP_BRA);
            n++;
        } while (ptx_accept(p, ','));
    }
    {
        const struct ptx_tok *t = ptx_peek(p, 0);
        if (!(t->kind == PTX_TK_PUNCT && t->ch == ';')) {
            char d[64];
            snprintf(d, sizeof d, "%.*s", (int)(t->len > 40 ? 40 : t->len), t->s);
            ptx_perr(p, t->line, t->col, "expected ';' after the operands of %.*s (%s)",
                     (int)opt.len, opt.s, t->kind == PTX_TK_EOF ? "end of file" : d);
        }
        ptx_advance(p, NULL);
    }
    enum ptx_type ty = (enum ptx_type)in->type, t2 = (enum ptx_type)in->type2;
    switch (op) {
    case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_MEMBAR: case PTX_OP_FENCE:
        if (n != 0)
            count_err(p, &opt, "no operands", n);
        break;
    case PTX_OP_BRA:
        if (n != 1)
            count_err(p, &opt, "1 label", n);
        in->o[0] = r[0].o;
        in->nopnd = 1;
        ptx_add_fixup(p, idx, 0, &r[0].label);
        break;
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MUL24:
    case PTX_OP_DIV: case PTX_OP_REM: case PTX_OP_MIN: case PTX_OP_MAX:
    case PTX_OP_COPYSIGN: case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR:
    case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_ADDC: case PTX_OP_SUBC:
        if (n != 3)
            count_err(p, &opt, "3 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, ty);
        place(p, in, &r[2], 2, RL_SRC,
              (op == PTX_OP_SHL || op == PTX_OP_SHR) ? PTX_T_U32 : ty);
        break;
    case PTX_OP_MAD: case PTX_OP_MAD24: case PTX_OP_MADC: case PTX_OP_FMA:
    case PTX_OP_SAD: case PTX_OP_BFE: case PTX_OP_PRMT: case PTX_OP_SELP:
    case PTX_OP_SLCT:
        if (n != 4)
            count_err(p, &opt, "4 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, op == PTX_OP_BFE ? ty : ty);
        place(p, in, &r[2], 2, RL_SRC, op == PTX_OP_BFE ? PTX_T_U32 : ty);
        place(p, in, &r[3], 3, RL_SRC,
              op == PTX_OP_BFE ? PTX_T_U32 : op == PTX_OP_SELP ? PTX_T_PRED
              : op == PTX_OP_SLCT ? t2 : ty);
        break;
    case PTX_OP_BFI:
        if (n != 5)
            count_err(p, &opt, "5 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, ty);
        place(p, in, &r[2], 2, RL_SRC, ty);
        place(p, in, &r[3], 3, RL_SRC, PTX_T_U32);
        place(p, in, &r[4], 4, RL_SRC, PTX_T_U32);
        break;
    case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_NOT: case PTX_OP_CNOT:
    case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BREV: case PTX_OP_SQRT:
    case PTX_OP_RSQRT: case PTX_OP_RCP: case PTX_OP_EX2: case PTX_OP_LG2:
    case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_TANH: case PTX_OP_TESTP:
    case PTX_OP_CVT:
        if (n != 2)
            count_err(p, &opt, "2 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, op == PTX_OP_CVT ? t2 : ty);
        break;
    case PTX_OP_CVTA:
        if (n != 2)
            count_err(p, &opt, "2 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRCSYM, ty);
        break;
    case PTX_OP_MOV:
        if (n != 2)
            count_err(p, &opt, "2 operands", n);
        place(p, in, &r[0], 0, RL_DSTV, ty);
        place(p, in, &r[1], 1, RL_MOVSRC, ty);
        if (in->o[0].kind == PTX_O_VEC && in->o[1].kind == PTX_O_VEC)
            ptx_perr(p, r[1].line, r[1].col, "expected a scalar source for a vector destination (mov)");
        break;
    case PTX_OP_SETP:
        if (n != 3 && n != 4)
            count_err(p, &opt, "3 or 4 operands", n);
        if ((n == 4) != (in->sub != PTX_SUB_NONE))
            count_err(p, &opt, in->sub ? "4 operands with a boolean operation"
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
        break;
    case PTX_OP_SET:
        if ((n == 4) != (in->sub != PTX_SUB_NONE) || (n != 3 && n != 4))
            count_err(p, &opt, in->sub ? "4 operands" : "3 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, t2);
        place(p, in, &r[2], 2, RL_SRC, t2);
        if (n == 4)
            place(p, in, &r[3], 3, RL_SRC, PTX_T_PRED);
        break;
    case PTX_OP_LD: case PTX_OP_LDU:
        if (n != 2)
            count_err(p, &opt, "2 operands", n);
        place(p, in, &r[0], 0, in->vec > 1 ? RL_VEC : RL_DST, ty);
        place(p, in, &r[1], 1, RL_MEM, ty);
        break;
    case PTX_OP_ST:
        if (n != 2)
            count_err(p, &opt, "2 operands", n);
        place(p, in, &r[0], 0, RL_MEM, ty);
        place(p, in, &r[1], 1, in->vec > 1 ? RL_VEC : RL_SRC, ty);
        break;
    case PTX_OP_ATOM:
        if (n != (in->sub == PTX_SUB_CAS ? 4u : 3u))
            count_err(p, &opt, in->sub == PTX_SUB_CAS ? "4 operands" : "3 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_MEM, ty);
        place(p, in, &r[2], 2, RL_SRC, ty);
        if (n == 4)
            place(p, in, &r[3], 3, RL_SRC, ty);
        break;
    case PTX_OP_RED:
        if (n != 2)
            count_err(p, &opt, "2 operands", n);
        if (in->sub == PTX_SUB_CAS || in->sub == PTX_SUB_EXCH)
            ptx_perr(p, opt.line, opt.col, "expected a reduction operation (%.*s)",
                     (int)opt.len, opt.s);
        place(p, in, &r[0], 0, RL_MEM, ty);
        place(p, in, &r[1], 1, RL_SRC, ty);
        break;
    case PTX_OP_TEX:
        if (n != 2 || !r[1].has_coords)
            count_err(p, &opt, "a vector and [texture, {coordinates}]", n);
        place(p, in, &r[0], 0, RL_VEC, ty);
        if (in->o[0].vec_n != 4)
            ptx_perr(p, r[0].line, r[0].col, "expected 4 destination registers (tex)");
        in->o[2] = r[1].coords;
        r[1].has_coords = false;
        place(p, in, &r[1], 1, RL_MEM, ty);
        in->nopnd = 3;
        break;
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        if (in->sub == PTX_SUB_WARP_SYNC) {
            if (n != 1)
                count_err(p, &opt, "1 operand (membermask)", n);
        } else if (n != 1 && n != 2) {
            count_err(p, &opt, "1 or 2 operands", n);
        }
        for (unsigned i = 0; i < n; i++)
            place(p, in, &r[i], i, RL_SRC, PTX_T_U32);
        break;
    case PTX_OP_SHFL:
        if (n != 4 && n != 5)
            count_err(p, &opt, "5 operands (d[|p], a, b, c, membermask)", n);
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
        break;
    case PTX_OP_VOTE:
        if (n != 3 && n != 2)
            count_err(p, &opt, "3 operands (d, a, membermask)", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, PTX_T_PRED);
        if (n == 3)
            place(p, in, &r[2], 2, RL_SRC, PTX_T_B32);
        in->nopnd = 3;
        break;
    case PTX_OP_ACTIVEMASK:
        if (n != 1)
            count_err(p, &opt, "1 operand", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        break;
    default:
        ptx_perr(p, opt.line, opt.col, "unsupported instruction (%.*s)",
                 (int)opt.len, opt.s);
    }
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
