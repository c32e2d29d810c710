/* `lockstep check` report and instruction disassembly. */
#include "ptx/ptx_print.h"
#include "ptx/ptx_mma.h"
#include "ptx/ptx_cfg.h"

#include <inttypes.h>
#include <string.h>

static const char *const cmp_names[] = {
    "", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ",
    "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
static const char *const rnd_names[] = {"", "rn", "rz", "rm", "rp", "rni",
                                        "rzi", "rmi", "rpi"};
static const char *const sub_names[] = {
    "", "and", "or", "xor", "add", "min", "max", "inc", "dec", "exch", "cas",
    "up", "down", "bfly", "idx", "all", "any", "uni", "ballot", "sync",
    "arrive", "red.popc", "warp.sync", "1d", "2d", "3d", "finite", "infinite",
    "number", "notanumber", "normal", "subnormal", "red.and", "red.or", "l",
    "r"};
static const char *const mode_names[] = {
    "", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16", "clamp", "wrap", "shr7",
    "shr15"};
static const char *const space_names[] = {"", "reg", "global", "shared",
                                          "local", "param", "const", "tex"};

#define NAME(tab, i) ((unsigned)(i) < sizeof tab / sizeof tab[0] ? tab[i] : "?")

struct sbuf {
    char *p;
    size_t n, len;
};

static void put(struct sbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#include <stdarg.h>
static void put(struct sbuf *b, const char *fmt, ...)
{
    if (b->len + 1 >= b->n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->p + b->len, b->n - b->len, fmt, ap);
    va_end(ap);
    if (k > 0)
        b->len = b->len + (size_t)k >= b->n ? b->n - 1 : b->len + (size_t)k;
}

static const char *reg_name(const struct ptx_func *f, int32_t r)
{
    if (r == PTX_VEC_ZERO)
        return "0";
    if (r < 0)
        return "_";
    if (f && (uint32_t)r < f->nregs && f->regs[r].name)
        return f->regs[r].name;
    return "%?";
}

static void put_opnd(struct sbuf *b, const struct ptx_func *f,
                     const struct ptx_operand *o)
{
    switch (o->kind) {
    case PTX_O_NONE: put(b, "_"); break;
    case PTX_O_REG:
        /* neg on a non-predicate register is vmad's '-' */
        put(b, "%s%s", !o->neg ? ""
                       : (f && o->reg >= 0 && (uint32_t)o->reg < f->nregs &&
                          f->regs[o->reg].type != PTX_T_PRED) ? "-" : "!",
            reg_name(f, o->reg));
        if (o->sel) {
            put(b, ".%c", (o->sel & PTX_SEL_B) ? 'b' : 'h');
            for (unsigned i = PTX_SEL_N(o->sel); i-- > 0;)
                put(b, "%u", PTX_SEL_DIGIT(o->sel, i));
        }
        break;
    case PTX_O_IMM: put(b, "0x%" PRIx64, (uint64_t)o->imm); break;
    case PTX_O_SREG: put(b, "%s", ptx_sreg_name((enum ptx_sreg)o->sreg)); break;
    case PTX_O_SYM:
    case PTX_O_MEM: {
        const char *nm = "?";
        if (o->sym.index >= 0 && o->sym.scope == 1 && f &&
            (uint32_t)o->sym.index < f->nsyms)
            nm = f->syms[o->sym.index].name;
        else if (o->sym.index >= 0 && o->sym.scope == 0)
            nm = "<module sym>";
        if (o->kind == PTX_O_MEM)
            put(b, "[");
        if (o->reg >= 0)
            put(b, "%s", reg_name(f, o->reg));
        else if (o->sym.index >= 0)
            put(b, "%s#%d", nm, (int)o->sym.index);
        if (o->imm || (o->reg < 0 && o->sym.index < 0))
            put(b, "%s%" PRId64, o->imm >= 0 && (o->reg >= 0 || o->sym.index >= 0) ? "+" : "",
                o->imm);
        if (o->kind == PTX_O_MEM)
            put(b, "]");
        break;
    }
    case PTX_O_VEC:
        put(b, "{");
        for (unsigned i = 0; i < o->vec_n && i < 4; i++)
            put(b, "%s%s", i ? ", " : "", reg_name(f, o->vec_regs[i]));
        put(b, "}");
        break;
    case PTX_O_LABEL: put(b, "pc %d", (int)o->label); break;
    case PTX_O_FUNC: put(b, "func#%d", (int)o->func); break;
    case PTX_O_TLIST: put(b, "targets[%lld]", (long long)o->imm); break;
    case PTX_O_ARGS: put(b, "(%lld arguments)", (long long)o->imm); break;
    default: put(b, "?"); break;
    }
}

void ptx_inst_format(char *buf, size_t n, const struct ptx_func *f,
                     const struct ptx_inst *in)
{
    if (!n)
        return;
    struct sbuf b = {buf, n, 0};
    buf[0] = '\0';
    long pc = f && in >= f->insts && in < f->insts + f->ninsts ? (long)(in - f->insts) : -1;
    put(&b, "pc %ld (line %u): ", pc, in->line);
    if (in->guard >= 0)
        put(&b, "@%s%s ", in->guard_neg ? "!" : "", reg_name(f, in->guard));
    if (in->op == PTX_OP_WMMA_LOAD || in->op == PTX_OP_WMMA_STORE ||
        in->op == PTX_OP_WMMA_MMA || in->op == PTX_OP_MMA) {
        char mm[128];
        ptx_mma_format(mm, sizeof mm, in);
        put(&b, "%s", mm);
        goto operands;
    }
    put(&b, "%s", ptx_op_name((enum ptx_op)in->op));
    if (in->sub)
        put(&b, ".%s", NAME(sub_names, in->sub));
    if (in->geom) {
        static const char *const geom_names[] = {
            "", "1d", "2d", "3d", "a1d", "a2d", "cube", "acube", "2dms", "a2dms"};
        put(&b, ".%s", NAME(geom_names, in->geom));
    }
    if (in->cmp)
        put(&b, ".%s", NAME(cmp_names, in->cmp));
    if (in->mode)
        put(&b, ".%s", NAME(mode_names, in->mode));
    if (in->flags & PTX_F_TO)
        put(&b, ".to");
    if (in->space)
        put(&b, ".%s", NAME(space_names, in->space));
    static const struct { uint16_t bit; const char *s; } fl[] = {
        {PTX_F_UNI, "uni"}, {PTX_F_NC, "nc"}, {PTX_F_VOLATILE, "volatile"},
        {PTX_F_HI, "hi"}, {PTX_F_LO, "lo"}, {PTX_F_WIDE, "wide"},
        {PTX_F_APPROX, "approx"}, {PTX_F_CC, "cc"}, {PTX_F_ALIGNED, "aligned"},
        {PTX_F_PO, "po"}, {PTX_F_SHIFTAMT, "shiftamt"}, {PTX_F_NAN, "NaN"}};
    for (unsigned i = 0; i < sizeof fl / sizeof fl[0]; i++)
        if (in->flags & fl[i].bit)
            put(&b, ".%s", fl[i].s);
    if (in->rnd)
        put(&b, ".%s", NAME(rnd_names, in->rnd));
    if (in->flags & PTX_F_FTZ)
        put(&b, ".ftz");
    if (in->flags & PTX_F_SAT)
        put(&b, ".sat");
    if (in->vec > 1)
        put(&b, ".v%u", in->vec);
    if (in->type) {
        put(&b, ".%s", ptx_type_name((enum ptx_type)in->type));
        if (in->type2 != in->type && in->type2)
            put(&b, ".%s", ptx_type_name((enum ptx_type)in->type2));
        if (in->type3 != in->type2 && in->type3)
            put(&b, ".%s", ptx_type_name((enum ptx_type)in->type3));
    }
operands:
    for (unsigned i = 0; i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
        if (in->op == PTX_OP_SHFL && i == 1) {
            if (in->o[1].kind == PTX_O_REG)
                put(&b, "|%s", reg_name(f, in->o[1].reg));
            continue;
        }
        if ((in->op == PTX_OP_SETP || in->op == PTX_OP_MATCH) && i == 1) {
            if (in->o[1].kind == PTX_O_REG)
                put(&b, "|%s", reg_name(f, in->o[1].reg));
            continue;
        }
        if (in->o[i].kind == PTX_O_NONE)
            continue;
        put(&b, "%s", i ? ", " : " ");
        put_opnd(&b, f, &in->o[i]);
    }
}

static int print_params(FILE *out, const char *what, const struct ptx_param *ps,
                        uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (fprintf(out, "    %s %s: .%s, %u bytes, offset %u, align %u\n", what,
                    ps[i].name, ptx_type_name((enum ptx_type)ps[i].type),
                    ps[i].size, ps[i].offset, ps[i].align) < 0)
            return -1;
    return 0;
}

int ptx_func_falls_off(const struct ptx_func *f)
{
    if (f->ninsts == 0)
        return 1;
    const struct ptx_inst *last = &f->insts[f->ninsts - 1];
    if (last->guard >= 0 || (last->op != PTX_OP_RET && last->op != PTX_OP_EXIT &&
                             last->op != PTX_OP_TRAP && last->op != PTX_OP_BRA))
        return 1;
    for (uint32_t k = 0; k < f->ninsts; k++)
        if (f->insts[k].op == PTX_OP_BRA && f->insts[k].o[0].label == (int32_t)f->ninsts)
            return 1;
    return 0;
}

int ptx_check_print(FILE *out, const struct ptx_module *m)
{
    uint32_t nk = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        nk += m->funcs[i].is_entry;
    if (fprintf(out, "%s: PTX %u.%u, target %s, address size %u, %u kernels, %u functions, "
                "%" PRIu64 " global bytes, %" PRIu64 " const bytes\n",
                m->file ? m->file : "?", m->version_major, m->version_minor,
                m->target, m->address_size, nk, m->nfuncs - nk, m->global_bytes,
                m->const_bytes) < 0)
        return -1;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const struct ptx_func *f = &m->funcs[i];
        if (fprintf(out, "%s %s (line %u)%s\n", f->is_entry ? "kernel" : "func",
                    f->name, f->line, f->cfg ? "" : " [declaration only]") < 0)
            return -1;
        if (print_params(out, "param", f->params, f->nparams) ||
            print_params(out, "return", f->rets, f->nrets))
            return -1;
        if (fprintf(out, "    registers %u, static shared %" PRIu64 " bytes, local %"
                    PRIu64 " bytes, param %u bytes, %u instructions, %u blocks\n",
                    f->nregs, f->shared_bytes, f->local_bytes, f->param_bytes,
                    f->ninsts, f->cfg ? f->cfg->nblocks : 0) < 0)
            return -1;
        if (f->maxntid[0] &&
            fprintf(out, "    maxntid %u,%u,%u\n", f->maxntid[0],
                    f->maxntid[1] ? f->maxntid[1] : 1,
                    f->maxntid[2] ? f->maxntid[2] : 1) < 0)
            return -1;
        for (uint32_t s = 0; s < f->nsyms; s++) {
            const struct ptx_symbol *sy = &f->syms[s];
            if (sy->space == PTX_SP_SHARED &&
                fprintf(out, "    shared %s: %" PRIu64 " bytes at offset %" PRIu64 "%s\n",
                        sy->name, sy->size, sy->offset,
                        sy->is_extern ? " (extern, dynamic)" : "") < 0)
                return -1;
        }
        if (f->cfg && ptx_func_falls_off(f) &&
            fprintf(out, "    note: control can reach the end of %s without ret or exit; "
                    "it returns there as ret would\n", f->name) < 0)
            return -1;
        for (uint32_t k = 0; k < f->ninsts; k++) {
            const struct ptx_inst *in = &f->insts[k];
            if (in->op == PTX_OP_BRX) {
                int32_t r = in->reconv;
                if (fprintf(out, "    brx.idx pc %u (line %u)%s -> %lld targets (pc",
                            k, in->line, in->guard >= 0 ? " conditional" : "",
                            (long long)in->o[1].imm) < 0)
                    return -1;
                for (int64_t j = 0; j < in->o[1].imm; j++)
                    if (fprintf(out, " %d", f->tlist[in->o[1].label + j]) < 0)
                        return -1;
                char rl[32];
                if (r >= 0 && (uint32_t)r < f->ninsts)
                    snprintf(rl, sizeof rl, "line %u", f->insts[r].line);
                else
                    snprintf(rl, sizeof rl, "exit");
                if (fprintf(out, "), reconverges at pc %d (%s)\n", (int)r, rl) < 0)
                    return -1;
                continue;
            }
            if (in->op != PTX_OP_BRA)
                continue;
            int32_t t = in->o[0].label, r = in->reconv;
            char tl[32], rl[32];
            if (t >= 0 && (uint32_t)t < f->ninsts)
                snprintf(tl, sizeof tl, "line %u", f->insts[t].line);
            else
                snprintf(tl, sizeof tl, "end");
            if (r >= 0 && (uint32_t)r < f->ninsts)
                snprintf(rl, sizeof rl, "line %u", f->insts[r].line);
            else
                snprintf(rl, sizeof rl, "exit");
            if (fprintf(out, "    branch pc %u (line %u)%s%s -> pc %d (%s), reconverges at pc %d (%s)\n",
                        k, in->line, in->guard >= 0 ? " conditional" : "",
                        (in->flags & PTX_F_UNI) ? " uni" : "", (int)t, tl, (int)r, rl) < 0)
                return -1;
        }
    }
    return 0;
}
