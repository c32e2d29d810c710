/* Parser pieces for indirect control flow and addresses as data:
 * `.callprototype` / `.calltargets` / `.branchtargets` label directives,
 * `brx.idx`, `call` (direct and indirect, with its prototype), and address
 * initialisers of module variables (function pointer tables, vtables,
 * `generic(sym)`), recorded as relocations the loader patches. */
#include <stdio.h>
#include <string.h>
#include "ptx/ptx_pstate.h"

static bool dir_is(const struct ptx_tok *t, const char *name)
{
    size_t n = strlen(name);
    return t->kind == PTX_TK_DIR && t->len == n && memcmp(t->s, name, n) == 0;
}

static bool word_is(const struct ptx_tok *t, const char *name)
{
    size_t n = strlen(name);
    return t->kind == PTX_TK_WORD && t->len == n && memcmp(t->s, name, n) == 0;
}

static int clip(uint32_t len)
{
    return (int)(len > 40 ? 40 : len);
}

/* `( .param ... , .param ... )`: number of entries; the '(' is current. */
static uint32_t count_params(struct ptx_parser *p)
{
    ptx_expect(p, '(', "opening a .callprototype parameter list");
    if (ptx_accept(p, ')'))
        return 0;
    uint32_t n = 1;
    unsigned depth = 0;
    for (;;) {
        struct ptx_tok t;
        ptx_advance(p, &t);
        if (t.kind == PTX_TK_EOF)
            ptx_perr(p, t.line, t.col, "expected ')' closing a .callprototype "
                     "parameter list (end of file)");
        if (t.kind != PTX_TK_PUNCT)
            continue;
        if (t.ch == '[')
            depth++;
        else if (t.ch == ']' && depth)
            depth--;
        else if (t.ch == ',' && !depth)
            n++;
        else if (t.ch == ')' && !depth)
            return n;
        else if (t.ch == ';')
            ptx_perr(p, t.line, t.col, "expected ')' closing a .callprototype "
                     "parameter list (;)");
    }
}

/* `L1, L2, ...;` into cur.tlist (labels resolved at the end of the
 * function) or, for .calltargets, checked as function names. */
static uint32_t parse_list(struct ptx_parser *p, bool labels, int32_t *first)
{
    uint32_t n = 0;
    *first = (int32_t)p->cur.ntlist;
    do {
        struct ptx_tok t;
        ptx_advance(p, &t);
        if (t.kind != PTX_TK_WORD)
            ptx_perr(p, t.line, t.col, "expected a %s in the list (%.*s)",
                     labels ? "label" : "function name", clip(t.len), t.s);
        if (labels) {
            p->cur.tlist = ptx_agrow(p, p->cur.tlist, p->cur.ntlist,
                                     &p->tlist_cap, sizeof *p->cur.tlist);
            p->cur.tlist[p->cur.ntlist] = -1;
            ptx_add_fixup(p, PTX_FIX_TLIST, p->cur.ntlist, &t);
            p->cur.ntlist++;
        } else {
            const struct ptx_nent *e = ptx_ntab_find(&p->mtab, t.s, t.len);
            if (!e || e->kind != PTX_NK_FUNC)
                ptx_perr(p, t.line, t.col, "expected a declared function in "
                         ".calltargets (%.*s)", clip(t.len), t.s);
        }
        n++;
    } while (ptx_accept(p, ','));
    ptx_expect(p, ';', "after the target list");
    return n;
}

bool ptx_parse_label_dir(struct ptx_parser *p, const struct ptx_tok *name,
                         uint8_t *kind, int32_t *idx, uint32_t *count)
{
    const struct ptx_tok *d = ptx_peek(p, 0);
    *count = 0;
    if (dir_is(d, ".callprototype")) {
        ptx_advance(p, NULL);
        struct ptx_proto pr = { 0, 0 };
        const struct ptx_tok *t = ptx_peek(p, 0);
        if (t->kind == PTX_TK_PUNCT && t->ch == '(')
            pr.nrets = count_params(p);
        struct ptx_tok u;
        ptx_advance(p, &u);
        if (!word_is(&u, "_"))
            ptx_perr(p, u.line, u.col, "expected '_' as the .callprototype "
                     "name (%.*s)", clip(u.len), u.s);
        t = ptx_peek(p, 0);
        if (t->kind == PTX_TK_PUNCT && t->ch == '(')
            pr.nparams = count_params(p);
        while (dir_is(ptx_peek(p, 0), ".noreturn"))
            ptx_advance(p, NULL);
        ptx_expect(p, ';', "after the .callprototype");
        if (pr.nrets > 1)
            ptx_perr(p, name->line, name->col, ".callprototype with %u return "
                     "values (at most 1) (%.*s)", pr.nrets, clip(name->len), name->s);
        p->protos = ptx_xgrow(p, p->protos, p->nprotos, &p->capprotos,
                              sizeof *p->protos);
        p->protos[p->nprotos] = pr;
        *kind = PTX_NK_PROTO;
        *idx = (int32_t)p->nprotos++;
        return true;
    }
    if (dir_is(d, ".branchtargets") || dir_is(d, ".calltargets")) {
        bool labels = dir_is(d, ".branchtargets");
        ptx_advance(p, NULL);
        *count = parse_list(p, labels, idx);
        *kind = labels ? PTX_NK_TLIST : PTX_NK_PROTO;
        if (!labels) {              /* a call-target list: counts unchecked */
            p->protos = ptx_xgrow(p, p->protos, p->nprotos, &p->capprotos,
                                  sizeof *p->protos);
            p->protos[p->nprotos] = (struct ptx_proto){ UINT32_MAX, UINT32_MAX };
            *idx = (int32_t)p->nprotos++;
            *count = 0;
        }
        return true;
    }
    return false;
}

void ptx_parse_brx(struct ptx_parser *p, struct ptx_inst *in,
                   const struct ptx_tok *opt)
{
    struct ptx_tok t;
    ptx_advance(p, &t);
    struct ptx_operand *ix = &in->o[0];
    int32_t reg = t.kind == PTX_TK_WORD ? ptx_find_reg(p, t.s, t.len) : -1;
    if (reg >= 0) {
        ix->kind = PTX_O_REG;
        ix->reg = reg;
        if (p->cur.regs[reg].type == PTX_T_PRED)
            ptx_perr(p, t.line, t.col, "expected a non-predicate index register "
                     "(%.*s)", clip(t.len), t.s);
    } else if (t.kind == PTX_TK_INT) {
        ix->kind = PTX_O_IMM;
        ix->imm = (int64_t)(uint32_t)t.u;
    } else {
        ptx_perr(p, t.line, t.col, "expected an index register (brx.idx) (%.*s)",
                 clip(t.len), t.s);
    }
    ptx_expect(p, ',', "after the index (brx.idx)");
    struct ptx_tok l;
    ptx_advance(p, &l);
    const struct ptx_nent *e = l.kind == PTX_TK_WORD
                                   ? ptx_ntab_find(&p->ltab, l.s, l.len) : NULL;
    if (!e || e->kind != PTX_NK_TLIST)
        ptx_perr(p, l.line, l.col, "expected a .branchtargets list declared "
                 "before this brx.idx (%.*s)", clip(l.len), l.s);
    in->o[1].kind = PTX_O_TLIST;
    in->o[1].label = e->idx;
    in->o[1].imm = e->count;
    in->nopnd = 2;
    (void)opt;
    ptx_expect(p, ';', "after brx.idx");
}

/* The `, prototype` (or `, calltargets`) tail of an indirect call with
 * nargs arguments and nret (0/1) return values; checks the counts. */
static void call_proto(struct ptx_parser *p, unsigned nargs, unsigned nret)
{
    ptx_expect(p, ',', "before the .callprototype of an indirect call");
    struct ptx_tok t;
    ptx_advance(p, &t);
    const struct ptx_nent *e = t.kind == PTX_TK_WORD
                                   ? ptx_ntab_find(&p->ltab, t.s, t.len) : NULL;
    if (!e || e->kind != PTX_NK_PROTO)
        ptx_perr(p, t.line, t.col, "expected a .callprototype or .calltargets "
                 "label declared before the call (%.*s)", clip(t.len), t.s);
    const struct ptx_proto *pr = &p->protos[e->idx];
    if (pr->nparams != UINT32_MAX && (pr->nparams != nargs || pr->nrets != nret))
        ptx_perr(p, t.line, t.col, "call with %u arguments and %u return values "
                 "does not match its .callprototype (%u, %u) (%.*s)", nargs, nret,
                 pr->nparams, pr->nrets, clip(t.len), t.s);
}

/* `call[.uni] [(ret),] func[, (args)];` */
void ptx_parse_call(struct ptx_parser *p, struct ptx_inst *in)
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
    if (ri >= 0)
        call_proto(p, ptx_call_nargs(in), in->o[1].kind != PTX_O_NONE);
    ptx_expect(p, ';', "after the call");
}

void ptx_parse_init_addr(struct ptx_parser *p, enum ptx_type et, uint64_t off)
{
    struct ptx_tok t;
    ptx_advance(p, &t);
    unsigned bytes = ptx_type_bits(et) / 8;
    bool generic = word_is(&t, "generic") && ptx_peek(p, 0)->kind == PTX_TK_PUNCT &&
                   ptx_peek(p, 0)->ch == '(';
    if (generic) {
        ptx_expect(p, '(', "after generic");
        ptx_advance(p, &t);
    }
    if (t.kind != PTX_TK_WORD)
        ptx_perr(p, t.line, t.col, "expected a symbol or function name in the "
                 "initialiser (%.*s)", clip(t.len), t.s);
    if (bytes != 4 && bytes != 8)
        ptx_perr(p, t.line, t.col, "an address initialiser needs a 32- or 64-bit "
                 "element type (%.*s)", clip(t.len), t.s);
    const struct ptx_nent *e = ptx_ntab_find(&p->mtab, t.s, t.len);
    if (!e || (e->kind != PTX_NK_FUNC && e->kind != PTX_NK_SYM))
        ptx_perr(p, t.line, t.col, "undefined symbol or function in the "
                 "initialiser (%.*s)", clip(t.len), t.s);
    if (e->kind == PTX_NK_SYM) {
        uint8_t sp = p->m->syms[e->idx].space;
        if (sp != PTX_SP_GLOBAL && sp != PTX_SP_CONST)
            ptx_perr(p, t.line, t.col, "only .global and .const addresses can "
                     "initialise a variable (%.*s)", clip(t.len), t.s);
    }
    if (generic)
        ptx_expect(p, ')', "closing generic(");
    int64_t add = 0;
    if (ptx_accept(p, '+')) {
        struct ptx_tok k;
        ptx_advance(p, &k);
        if (k.kind != PTX_TK_INT)
            ptx_perr(p, k.line, k.col, "expected an integer offset (%.*s)",
                     clip(k.len), k.s);
        add = (int64_t)k.u;
    }
    struct ptx_module *m = p->m;
    m->relocs = ptx_agrow(p, m->relocs, m->nrelocs, &p->relocs_cap,
                          sizeof *m->relocs);
    m->relocs[m->nrelocs++] = (struct ptx_reloc){
        .sym = m->nsyms, .offset = off, .bytes = (uint8_t)bytes,
        .is_func = e->kind == PTX_NK_FUNC, .target = e->idx, .addend = add };
}
