/* PTX parser: module directives, declarations, functions, scopes.
 * Instructions are parsed by ptx_inst.c; the CFG pass by ptx_cfg.c.
 * Errors unwind with longjmp to ptx_parse(), which frees the arena. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/ptx_cfg.h"
#include "ptx/ptx_pstate.h"

#define PTX_MAX_REGS (1u << 20)          /* per function */
#define PTX_MAX_MODULE_REGS (1u << 22)   /* per module */
#define PTX_MAX_INIT ((uint64_t)64 << 20) /* initialiser bytes per module */
#define PTX_MAX_BYTES ((uint64_t)1 << 32)

/* ---------------------------------------------------------------- errors */

_Noreturn void ptx_perr(struct ptx_parser *p, uint32_t line, uint32_t col,
                        const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(p->diag->msg, sizeof p->diag->msg, "%s:%u:%u: error: %s",
             p->file, line, col, what);
    p->diag->line = line;
    p->diag->col = col;
    longjmp(p->jb, 1);
}

void *ptx_palloc(struct ptx_parser *p, size_t n)
{
    void *r = ptx_arena_alloc(p->a, n ? n : 1);
    if (!r) {
        const struct ptx_tok *t = &p->tk[p->tk_head];
        ptx_perr(p, t->line, t->col, "out of memory (%zu bytes)", n);
    }
    return r;
}

/* malloc'd growth for parser-private vectors (freed by ptx_parse). */
static void *xgrow(struct ptx_parser *p, void *v, uint32_t n, uint32_t *cap,
                   size_t elem)
{
    if (n < *cap)
        return v;
    uint32_t nc = *cap ? *cap * 2 : 16;
    void *r = realloc(v, (size_t)nc * elem);
    if (!r)
        ptx_perr(p, p->lx.line, 1, "out of memory (parser tables)");
    memset((char *)r + (size_t)*cap * elem, 0, (size_t)(nc - *cap) * elem);
    *cap = nc;
    return r;
}

/* Arena growth for IR arrays so that `need` elements fit (the old block
 * is abandoned; total waste < 2x). */
static void *agrow_to(struct ptx_parser *p, void *v, uint32_t n, uint32_t need,
                      uint32_t *cap, size_t elem)
{
    if (need <= *cap)
        return v;
    uint64_t nc = *cap ? *cap : (elem >= 256 ? 2 : 16);   /* instructions are 480 B */
    while (nc < need)
        nc *= 2;
    void *r = ptx_palloc(p, (size_t)nc * elem);
    if (n)
        memcpy(r, v, (size_t)n * elem);
    *cap = (uint32_t)nc;
    return r;
}

/* Room for one more element after n. */
static void *agrow(struct ptx_parser *p, void *v, uint32_t n, uint32_t *cap,
                   size_t elem)
{
    return agrow_to(p, v, n, n + 1, cap, elem);
}

void *ptx_xgrow(struct ptx_parser *p, void *v, uint32_t n, uint32_t *cap,
                size_t elem)
{
    return xgrow(p, v, n, cap, elem);
}

void *ptx_agrow(struct ptx_parser *p, void *v, uint32_t n, uint32_t *cap,
                size_t elem)
{
    return agrow(p, v, n, cap, elem);
}

/* ---------------------------------------------------------------- tokens */

const struct ptx_tok *ptx_peek(struct ptx_parser *p, unsigned k)
{
    while (p->tk_n <= k) {
        struct ptx_tok *t = &p->tk[(p->tk_head + p->tk_n) % PTX_LOOKAHEAD];
        ptx_lex_next(&p->lx, t);
        p->tk_n++;
        if (t->kind == PTX_TK_ERR) {
            /* show what was there, non-printing bytes as \xNN (a binary
             * file printed nothing: "unexpected character ()") */
            char shown[168];
            size_t o = 0;
            for (uint32_t i = 0; i < t->len && i < 40 && o + 5 < sizeof shown; i++) {
                unsigned char ch = (unsigned char)t->s[i];
                if (ch >= 0x20 && ch < 0x7f)
                    shown[o++] = (char)ch;
                else
                    o += (size_t)snprintf(shown + o, sizeof shown - o, "\\x%02x", ch);
            }
            shown[o] = 0;
            ptx_perr(p, t->line, t->col, "%s (%s)", t->err, shown);
        }
    }
    return &p->tk[(p->tk_head + k) % PTX_LOOKAHEAD];
}

void ptx_advance(struct ptx_parser *p, struct ptx_tok *out)
{
    const struct ptx_tok *t = ptx_peek(p, 0);
    if (out)
        *out = *t;
    if (t->kind == PTX_TK_EOF)
        return;
    p->tk_head = (p->tk_head + 1) % PTX_LOOKAHEAD;
    p->tk_n--;
}

bool ptx_accept(struct ptx_parser *p, char c)
{
    const struct ptx_tok *t = ptx_peek(p, 0);
    if (t->kind == PTX_TK_PUNCT && t->ch == c) {
        ptx_advance(p, NULL);
        return true;
    }
    return false;
}

static void describe(const struct ptx_tok *t, char *buf, size_t n)
{
    if (t->kind == PTX_TK_EOF)
        snprintf(buf, n, "end of file");
    else
        snprintf(buf, n, "found '%.*s'", (int)(t->len > 40 ? 40 : t->len), t->s);
}

void ptx_expect(struct ptx_parser *p, char c, const char *what)
{
    if (ptx_accept(p, c))
        return;
    const struct ptx_tok *t = ptx_peek(p, 0);
    char d[64];
    describe(t, d, sizeof d);
    ptx_perr(p, t->line, t->col, "expected '%c' %s (%s)", c, what, d);
}

static bool is_dir(const struct ptx_tok *t, const char *name)
{
    size_t n = strlen(name);
    return t->kind == PTX_TK_DIR && t->len == n && memcmp(t->s, name, n) == 0;
}

static bool tok_is(const struct ptx_tok *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->s, s, n) == 0;
}

static struct ptx_tok expect_word(struct ptx_parser *p, const char *what)
{
    struct ptx_tok t;
    ptx_advance(p, &t);
    if (t.kind != PTX_TK_WORD) {
        char d[64];
        describe(&t, d, sizeof d);
        ptx_perr(p, t.line, t.col, "expected %s (%s)", what, d);
    }
    return t;
}

static uint64_t expect_uint(struct ptx_parser *p, const char *what, uint64_t max)
{
    struct ptx_tok t;
    ptx_advance(p, &t);
    if (t.kind != PTX_TK_INT || t.u > max) {
        char d[64];
        describe(&t, d, sizeof d);
        ptx_perr(p, t.line, t.col, "expected %s (%s)", what, d);
    }
    return t.u;
}

/* Skips the rest of the source line of token line `line`. */
static void skip_line(struct ptx_parser *p, uint32_t line)
{
    for (;;) {
        const struct ptx_tok *t = ptx_peek(p, 0);
        if (t->kind == PTX_TK_EOF || t->line != line)
            return;
        ptx_advance(p, NULL);
    }
}

/* ----------------------------------------------------------- name tables */

static uint32_t hash_name(const char *s, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static int32_t ntab_slot(const struct ptx_ntab *t, const char *s, uint32_t n,
                         uint32_t h)
{
    if (!t->cap)
        return -1;
    uint32_t i = h & (t->cap - 1);
    for (;;) {
        const struct ptx_nslot *sl = &t->slots[i];
        if (!sl->s)
            return -(int32_t)i - 2;
        if (sl->hash == h && sl->len == n && memcmp(sl->s, s, n) == 0)
            return (int32_t)i;
        i = (i + 1) & (t->cap - 1);
    }
}

const struct ptx_nent *ptx_ntab_find(const struct ptx_ntab *t, const char *s,
                                     uint32_t len)
{
    int32_t i = ntab_slot(t, s, len, hash_name(s, len));
    if (i < 0 || t->slots[i].ent < 0)
        return NULL;
    return &t->ents[t->slots[i].ent];
}

static void ntab_rehash(struct ptx_parser *p, struct ptx_ntab *t)
{
    /* small first: every function has its own scope tables */
    uint32_t nc = t->cap ? t->cap * 2 : 16;
    struct ptx_nslot *ns = calloc(nc, sizeof *ns);
    if (!ns)
        ptx_perr(p, p->lx.line, 1, "out of memory (name table)");
    for (uint32_t i = 0; i < t->cap; i++) {
        struct ptx_nslot *o = &t->slots[i];
        if (!o->s)
            continue;
        uint32_t j = o->hash & (nc - 1);
        while (ns[j].s)
            j = (j + 1) & (nc - 1);
        ns[j] = *o;
        for (int32_t e = o->ent; e >= 0; e = t->ents[e].prev)
            t->ents[e].slot = (int32_t)j;
    }
    free(t->slots);
    t->slots = ns;
    t->cap = nc;
}

/* Binds a name at depth; returns the shadowed/existing binding at the same
 * depth (a redefinition) through *same, or NULL. */
static struct ptx_nent *ntab_bind(struct ptx_parser *p, struct ptx_ntab *t,
                                  const char *s, uint32_t n, uint8_t kind,
                                  int32_t idx, uint32_t count, uint32_t depth,
                                  const struct ptx_nent **same)
{
    if ((t->used + 1) * 2 > t->cap)
        ntab_rehash(p, t);
    uint32_t h = hash_name(s, n);
    int32_t i = ntab_slot(t, s, n, h);
    *same = NULL;
    if (i < 0) {
        i = -i - 2;
        t->slots[i].s = s;
        t->slots[i].len = n;
        t->slots[i].hash = h;
        t->slots[i].ent = -1;
        t->used++;
    } else if (t->slots[i].ent >= 0 && t->ents[t->slots[i].ent].depth == depth) {
        *same = &t->ents[t->slots[i].ent];
        return NULL;
    }
    t->ents = xgrow(p, t->ents, t->nents, &t->capents, sizeof *t->ents);
    struct ptx_nent *e = &t->ents[t->nents];
    e->s = s;
    e->len = n;
    e->kind = kind;
    e->idx = idx;
    e->count = count;
    e->depth = depth;
    e->prev = t->slots[i].ent;
    e->slot = i;
    t->slots[i].ent = (int32_t)t->nents++;
    return e;
}

/* Drops every binding deeper than depth (closing a `{ }` scope). */
static void ntab_pop(struct ptx_ntab *t, uint32_t depth)
{
    while (t->nents && t->ents[t->nents - 1].depth > depth) {
        struct ptx_nent *e = &t->ents[--t->nents];
        t->slots[e->slot].ent = e->prev;
    }
}

static void ntab_clear(struct ptx_ntab *t)
{
    if (t->cap)
        memset(t->slots, 0, t->cap * sizeof *t->slots);
    t->used = 0;
    t->nents = 0;
}

static void ntab_free(struct ptx_ntab *t)
{
    free(t->slots);
    free(t->ents);
}

/* Binds or reports a redefinition at tok. */
static void bind_or_fail(struct ptx_parser *p, struct ptx_ntab *t,
                         const struct ptx_tok *tok, uint8_t kind, int32_t idx,
                         uint32_t count, uint32_t depth)
{
    const struct ptx_nent *same;
    if (!ntab_bind(p, t, tok->s, tok->len, kind, idx, count, depth, &same))
        ptx_perr(p, tok->line, tok->col, "redefinition of '%.*s' (declaration)",
                 (int)tok->len, tok->s);
}

/* -------------------------------------------------------------- lookups */

int32_t ptx_find_reg(struct ptx_parser *p, const char *s, uint32_t len)
{
    const struct ptx_nent *e = ptx_ntab_find(&p->ftab, s, len);
    if (e)
        return (e->kind == PTX_NK_REG && e->count == 0) ? e->idx : -1;
    uint32_t k = len;
    while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
        k--;
    if (k == len || k == 0 || len - k > 9 || (s[k] == '0' && len - k > 1))
        return -1;
    uint32_t num = 0;
    for (uint32_t i = k; i < len; i++)
        num = num * 10 + (uint32_t)(s[i] - '0');
    e = ptx_ntab_find(&p->ftab, s, k);
    if (!e || e->kind != PTX_NK_REG || e->count == 0 || num >= e->count)
        return -1;
    return e->idx + (int32_t)num;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a > 1 ? (v + a - 1) / a * a : v;
}

static uint32_t add_func_sym(struct ptx_parser *p, const struct ptx_symbol *s)
{
    p->cur.syms = agrow(p, p->cur.syms, p->cur.nsyms, &p->syms_cap,
                        sizeof *p->cur.syms);
    p->cur.syms[p->cur.nsyms] = *s;
    return p->cur.nsyms++;
}

/* Places a function-scope symbol in its segment. */
static void place_func_sym(struct ptx_parser *p, struct ptx_symbol *s,
                           uint32_t line, uint32_t col)
{
    if (s->space == PTX_SP_SHARED && s->is_extern) {
        if (s->align > p->extern_align)
            p->extern_align = s->align;
        s->offset = 0; /* fixed at the end of the function */
    } else if (s->space == PTX_SP_SHARED) {
        s->offset = align_up(p->cur.shared_bytes, s->align);
        p->cur.shared_bytes = s->offset + s->size;
    } else { /* local, body .param: the thread's local segment */
        s->offset = align_up(p->local_end, s->align);
        p->local_end = s->offset + s->size;
    }
    if (p->cur.shared_bytes > PTX_MAX_BYTES || p->local_end > PTX_MAX_BYTES)
        ptx_perr(p, line, col, "segment larger than 4 GiB (%s)", s->name);
}

bool ptx_find_sym(struct ptx_parser *p, const char *s, uint32_t len,
                  struct ptx_symref *ref)
{
    const struct ptx_nent *e = ptx_ntab_find(&p->ftab, s, len);
    if (e) {
        if (e->kind != PTX_NK_SYM)
            return false;
        ref->scope = 1;
        ref->index = e->idx;
        return true;
    }
    e = ptx_ntab_find(&p->mtab, s, len);
    if (!e || e->kind != PTX_NK_SYM)
        return false;
    const struct ptx_symbol *ms = &p->m->syms[e->idx];
    if (ms->space != PTX_SP_SHARED && ms->space != PTX_SP_LOCAL) {
        ref->scope = 0;
        ref->index = e->idx;
        return true;
    }
    /* module .shared/.local: per-kernel storage, import into the function */
    if (p->imp_gen[e->idx] != p->gen) {
        struct ptx_symbol fs = *ms;
        const struct ptx_tok *t = ptx_peek(p, 0);
        place_func_sym(p, &fs, t->line, t->col);
        p->imp[e->idx] = (int32_t)add_func_sym(p, &fs);
        p->imp_gen[e->idx] = p->gen;
    }
    ref->scope = 1;
    ref->index = p->imp[e->idx];
    return true;
}

const struct ptx_symbol *ptx_ref_sym(const struct ptx_parser *p,
                                     struct ptx_symref r)
{
    return r.scope ? &p->cur.syms[r.index] : &p->m->syms[r.index];
}

static int32_t new_func(struct ptx_parser *p, const struct ptx_tok *name,
                        uint32_t line)
{
    struct ptx_module *m = p->m;
    if (m->nfuncs >= PTX_MAX_FUNCS)
        ptx_perr(p, name->line, name->col, "more than %u functions and kernels in "
                 "one module (the model's limit)", PTX_MAX_FUNCS);
    uint32_t oldcap = p->funcs_cap;
    m->funcs = agrow(p, m->funcs, m->nfuncs, &p->funcs_cap, sizeof *m->funcs);
    if (p->funcs_cap != oldcap) {
        uint32_t c1 = oldcap, c2 = oldcap;
        p->func_has_body = xgrow(p, p->func_has_body, m->nfuncs, &c1,
                                 sizeof *p->func_has_body);
        p->func_decl_line = xgrow(p, p->func_decl_line, m->nfuncs, &c2,
                                  sizeof *p->func_decl_line);
    }
    int32_t idx = (int32_t)m->nfuncs++;
    struct ptx_func *f = &m->funcs[idx];
    memset(f, 0, sizeof *f);
    f->name = ptx_arena_strdup(p->a, name->s, name->len);
    if (!f->name)
        ptx_perr(p, name->line, name->col, "out of memory");
    f->line = line;
    p->func_has_body[idx] = false;
    p->func_decl_line[idx] = line;
    bind_or_fail(p, &p->mtab, name, PTX_NK_FUNC, idx, 0, 0);
    return idx;
}

int32_t ptx_find_funcref(struct ptx_parser *p, const char *s, uint32_t len,
                         uint32_t line, uint32_t col)
{
    const struct ptx_nent *e = ptx_ntab_find(&p->mtab, s, len);
    int32_t idx;
    if (e) {
        if (e->kind != PTX_NK_FUNC)
            return -1;
        idx = e->idx;
    } else {
        struct ptx_tok t = {0};
        t.s = s;
        t.len = len;
        t.line = line;
        t.col = col;
        idx = new_func(p, &t, 0);
        p->func_decl_line[idx] = 0; /* placeholder: never declared */
    }
    p->calls = xgrow(p, p->calls, p->ncalls, &p->capcalls, sizeof *p->calls);
    p->calls[p->ncalls].func = idx;
    p->calls[p->ncalls].line = line;
    p->calls[p->ncalls].col = col;
    p->ncalls++;
    return idx;
}

struct ptx_inst *ptx_new_inst(struct ptx_parser *p)
{
    if (p->cur.ninsts >= (1u << 30))
        ptx_perr(p, p->lx.line, 1, "too many instructions");
    p->cur.insts = agrow(p, p->cur.insts, p->cur.ninsts, &p->insts_cap,
                         sizeof *p->cur.insts);
    ptx_loc_inst(p, p->cur.ninsts);
    struct ptx_inst *in = &p->cur.insts[p->cur.ninsts++];
    memset(in, 0, sizeof *in);
    in->guard = -1;
    in->reconv = -1;
    in->vec = 1;
    for (unsigned i = 0; i < PTX_MAX_OPNDS; i++) {
        in->o[i].reg = -1;
        in->o[i].sym.index = -1;
    }
    return in;
}

void ptx_add_fixup(struct ptx_parser *p, uint32_t inst, uint32_t slot,
                   const struct ptx_tok *t)
{
    p->fix = xgrow(p, p->fix, p->nfix, &p->capfix, sizeof *p->fix);
    struct ptx_fixup *f = &p->fix[p->nfix++];
    f->inst = inst;
    f->slot = slot;
    f->s = t->s;
    f->len = t->len;
    f->line = t->line;
    f->col = t->col;
}

/* --------------------------------------------------------- declarations */

struct ptx_lit {             /* one initialiser value */
    uint8_t kind;            /* PTX_TK_INT/F32/F64/DEC */
    bool neg;
    uint64_t u;
    double d;
};

static double lit_double(const struct ptx_lit *l)
{
    double v;
    if (l->kind == PTX_TK_F32) {
        float f;
        uint32_t b = (uint32_t)l->u;
        memcpy(&f, &b, 4);
        v = f;
    } else if (l->kind == PTX_TK_F64) {
        memcpy(&v, &l->u, 8);
    } else if (l->kind == PTX_TK_DEC) {
        v = l->d;
    } else {
        v = (double)l->u;
    }
    return l->neg ? -v : v;
}

/* Stores literal l as an element of type t at dst (little endian). */
static void store_lit(struct ptx_parser *p, uint8_t *dst, enum ptx_type t,
                      const struct ptx_lit *l, uint32_t line, uint32_t col)
{
    unsigned bytes = ptx_type_bits(t) / 8;
    uint64_t bits;
    if (t == PTX_T_F32) {
        float f = (float)lit_double(l);
        uint32_t b;
        if (l->kind == PTX_TK_F32) {
            b = (uint32_t)l->u ^ (l->neg ? 0x80000000u : 0);
        } else {
            memcpy(&b, &f, 4);
        }
        bits = b;
    } else if (t == PTX_T_F64) {
        double d = lit_double(l);
        if (l->kind == PTX_TK_F64)
            bits = l->u ^ (l->neg ? 0x8000000000000000ull : 0);
        else
            memcpy(&bits, &d, 8);
    } else if (t == PTX_T_F16) {
        if (l->kind == PTX_TK_INT)     /* raw pattern, as for immediates */
            bits = (l->neg ? (uint64_t)0 - l->u : l->u) & 0xffffu;
        else
            bits = ptx_f64_to_f16(lit_double(l));
    } else if (t == PTX_T_F16X2) {
        if (l->kind != PTX_TK_INT)
            ptx_perr(p, line, col,
                     "expected a 32-bit integer pattern for an .f16x2 initialiser");
        bits = (l->neg ? (uint64_t)0 - l->u : l->u) & 0xffffffffu;
    } else {
        if (l->kind == PTX_TK_DEC)
            ptx_perr(p, line, col,
                     "expected an integer initialiser (decimal float in .%s)",
                     ptx_type_name(t));
        bits = l->neg ? (uint64_t)0 - l->u : l->u;
    }
    for (unsigned i = 0; i < bytes; i++)
        dst[i] = (uint8_t)(bits >> (8 * i));
}

/* Parses `{ v, {v, v}, ... }` or a single value, appending elements. */
static void parse_init(struct ptx_parser *p, enum ptx_type et, uint8_t **buf,
                       uint64_t *n, uint32_t *cap, unsigned nest)
{
    unsigned eb = ptx_type_bits(et) / 8;
    if (nest > 8) {
        const struct ptx_tok *t = ptx_peek(p, 0);
        ptx_perr(p, t->line, t->col, "initialiser nested too deeply ({)");
    }
    if (ptx_accept(p, '{')) {
        if (ptx_accept(p, '}'))
            return;
        do {
            parse_init(p, et, buf, n, cap, nest + 1);
        } while (ptx_accept(p, ','));
        ptx_expect(p, '}', "closing the initialiser");
        return;
    }
    struct ptx_lit l = {0};
    struct ptx_tok t;
    const struct ptx_tok *pk = ptx_peek(p, 0);
    uint32_t line = pk->line, col = pk->col;
    if (pk->kind == PTX_TK_WORD) {      /* fn / sym / generic(sym): relocation */
        uint32_t nbytes = (uint32_t)(*n * eb);
        if (nbytes + eb > *cap) {
            uint32_t nc = *cap ? *cap * 2 : 256;
            while (nc < nbytes + eb)
                nc *= 2;
            uint8_t *nb = ptx_palloc(p, nc);
            if (nbytes)
                memcpy(nb, *buf, nbytes);
            *buf = nb;
            *cap = nc;
        }
        memset(*buf + nbytes, 0, eb);
        ptx_parse_init_addr(p, et, nbytes);
        (*n)++;
        return;
    }
    if (ptx_accept(p, '-'))
        l.neg = true;
    ptx_advance(p, &t);
    if (t.kind != PTX_TK_INT && t.kind != PTX_TK_F32 && t.kind != PTX_TK_F64 &&
        t.kind != PTX_TK_DEC) {
        char d[64];
        describe(&t, d, sizeof d);
        ptx_perr(p, t.line, t.col, "expected a numeric initialiser (%s)", d);
    }
    l.kind = t.kind;
    l.u = t.u;
    l.d = t.d;
    if (*n >= (100u << 20) / (eb ? eb : 1))
        ptx_perr(p, line, col, "initialiser larger than 100 MiB");
    uint32_t nbytes = (uint32_t)(*n * eb);
    if (nbytes + eb > *cap) {
        uint32_t nc = *cap ? *cap * 2 : 256;
        while (nc < nbytes + eb)
            nc *= 2;
        uint8_t *nb = ptx_palloc(p, nc);
        if (nbytes)
            memcpy(nb, *buf, nbytes);
        *buf = nb;
        *cap = nc;
    }
    store_lit(p, *buf + nbytes, et, &l, line, col);
    (*n)++;
}

/* Parses `[.align N] [.vN] .type` prefixes of a declaration. */
static void parse_decl_prefix(struct ptx_parser *p, uint32_t *align,
                              unsigned *vec, enum ptx_type *type, bool *texref)
{
    *align = 0;
    *vec = 1;
    *type = PTX_T_NONE;
    *texref = false;
    bool ptr = false;
    for (;;) {
        const struct ptx_tok *t = ptx_peek(p, 0);
        if (t->kind != PTX_TK_DIR)
            break;
        if (is_dir(t, ".align")) {
            ptx_advance(p, NULL);
            const struct ptx_tok *v = ptx_peek(p, 0);
            uint32_t l = v->line, c = v->col;
            uint64_t a = expect_uint(p, "an alignment after .align", 1u << 16);
            if (a == 0 || (a & (a - 1)))
                ptx_perr(p, l, c, "expected a power-of-two alignment (.align %llu)",
                         (unsigned long long)a);
            if (!ptr) /* after .ptr it is the pointee's alignment */
                *align = (uint32_t)a;
        } else if (is_dir(t, ".v2") || is_dir(t, ".v4")) {
            *vec = t->s[2] - '0';
            ptx_advance(p, NULL);
        } else if (is_dir(t, ".ptr")) {
            ptr = true;
            ptx_advance(p, NULL);
        } else if (is_dir(t, ".global") ||
                   is_dir(t, ".shared") || is_dir(t, ".const") ||
                   is_dir(t, ".local")) {
            /* kernel param pointer attributes: .ptr .global .align N */
            ptx_advance(p, NULL);
        } else if (is_dir(t, ".texref") || is_dir(t, ".surfref") ||
                   is_dir(t, ".samplerref")) {
            /* an 8-byte handle the host sets (docs/textures.md) */
            *texref = true;
            *type = PTX_T_B64;
            ptx_advance(p, NULL);
        } else {
            enum ptx_type ty = ptx_type_from_name(t->s + 1, t->len - 1);
            if (ty == PTX_T_NONE)
                ptx_perr(p, t->line, t->col,
                         "unsupported declaration attribute (%.*s)",
                         (int)t->len, t->s);
            if (*type != PTX_T_NONE)
                ptx_perr(p, t->line, t->col, "second type in declaration (%.*s)",
                         (int)t->len, t->s);
            *type = ty;
            ptx_advance(p, NULL);
        }
    }
    if (*type == PTX_T_NONE) {
        const struct ptx_tok *t = ptx_peek(p, 0);
        char d[64];
        describe(t, d, sizeof d);
        ptx_perr(p, t->line, t->col, "expected a type in declaration (%s)", d);
    }
}

/* Parses `[N][M]...` array dimensions; returns element count, or 0 for
 * `[]` (size from initialiser / extern). *unsized set for `[]`. */
static uint64_t parse_dims(struct ptx_parser *p, bool *unsized, bool *is_array)
{
    uint64_t count = 1;
    *unsized = false;
    *is_array = false;
    while (ptx_accept(p, '[')) {
        *is_array = true;
        if (ptx_accept(p, ']')) {
            *unsized = true;
            continue;
        }
        const struct ptx_tok *t = ptx_peek(p, 0);
        uint32_t l = t->line, c = t->col;
        uint64_t n = expect_uint(p, "an array size", PTX_MAX_BYTES);
        count *= n;
        if (count > PTX_MAX_BYTES)
            ptx_perr(p, l, c, "array larger than 4 GiB ([%llu])",
                     (unsigned long long)n);
        ptx_expect(p, ']', "after the array size");
    }
    return count;
}

/* Variable declaration after its state space (module or function scope). */
static void parse_var_decl(struct ptx_parser *p, enum ptx_space space,
                           bool is_extern, bool in_func, uint32_t dline,
                           uint32_t dcol)
{
    uint32_t align;
    unsigned vec;
    enum ptx_type type;
    bool texref;
    parse_decl_prefix(p, &align, &vec, &type, &texref);
    if (texref && space != PTX_SP_GLOBAL)
        ptx_perr(p, dline, dcol, "expected .global before .texref (.texref)");
    do {
        struct ptx_tok name = expect_word(p, "a variable name");
        bool unsized, is_array;
        uint64_t count = parse_dims(p, &unsized, &is_array);
        unsigned eb = ptx_type_bits(type) / 8;
        if (eb == 0)
            ptx_perr(p, name.line, name.col, "variable of type .pred (%.*s)",
                     (int)name.len, name.s);
        struct ptx_symbol s = {0};
        s.name = ptx_arena_strdup(p->a, name.s, name.len);
        if (!s.name)
            ptx_perr(p, name.line, name.col, "out of memory");
        s.space = (uint8_t)(texref ? PTX_SP_TEX : space);
        s.type = (uint8_t)type;
        s.align = align ? align : eb * vec;
        s.line = name.line;
        s.is_extern = is_extern;
        uint64_t elems = count * vec;
        if (ptx_accept(p, '=')) {
            if (texref)
                ptx_perr(p, name.line, name.col,
                         "texture/surface/sampler initialisers are not supported: "
                         "set the handle from the host with ls_module_symbol "
                         "(%.*s = {...})", (int)name.len, name.s);
            if (in_func || space == PTX_SP_SHARED || space == PTX_SP_LOCAL ||
                is_extern || texref)
                ptx_perr(p, name.line, name.col,
                         "initialiser not allowed here (%.*s)", (int)name.len,
                         name.s);
            uint8_t *buf = NULL;
            uint64_t n = 0;
            uint32_t cap = 0;
            parse_init(p, type, &buf, &n, &cap, 0);
            if (unsized)
                elems = n;
            else if (n > elems)
                ptx_perr(p, name.line, name.col,
                         "too many initialisers (%llu for %llu elements of %.*s)",
                         (unsigned long long)n, (unsigned long long)elems,
                         (int)name.len, name.s);
            s.size = elems * eb;
            p->total_init += s.size;
            if (p->total_init > PTX_MAX_INIT)
                ptx_perr(p, name.line, name.col,
                         "initialised data larger than 64 MiB (%.*s)",
                         (int)name.len, name.s);
            s.init = ptx_palloc(p, s.size);
            if (n)
                memcpy(s.init, buf, n * eb);
        } else {
            if (unsized && !is_extern)
                ptx_perr(p, name.line, name.col,
                         "expected an array size or initialiser (%.*s[])",
                         (int)name.len, name.s);
            s.size = unsized ? 0 : elems * eb;
        }
        if (is_extern && space == PTX_SP_SHARED && !unsized && is_array)
            s.is_extern = false; /* sized extern shared: a plain variable */
        if (in_func) {
            if (space != PTX_SP_SHARED && space != PTX_SP_LOCAL &&
                space != PTX_SP_PARAM)
                ptx_perr(p, dline, dcol,
                         "expected .reg, .shared, .local or .param in a function body (%s)",
                         space == PTX_SP_GLOBAL ? ".global" : ".const");
            place_func_sym(p, &s, name.line, name.col);
            uint32_t idx = add_func_sym(p, &s);
            bind_or_fail(p, &p->ftab, &name, PTX_NK_SYM, (int32_t)idx, 0,
                         p->depth);
        } else {
            struct ptx_module *m = p->m;
            if (space == PTX_SP_GLOBAL && !texref) {
                s.offset = align_up(m->global_bytes, s.align);
                m->global_bytes = s.offset + s.size;
            } else if (space == PTX_SP_CONST) {
                s.offset = align_up(m->const_bytes, s.align);
                m->const_bytes = s.offset + s.size;
            }
            if (m->global_bytes > PTX_MAX_BYTES || m->const_bytes > PTX_MAX_BYTES)
                ptx_perr(p, name.line, name.col, "segment larger than 4 GiB (%.*s)",
                         (int)name.len, name.s);
            uint32_t oc = p->msyms_cap;
            m->syms = agrow(p, m->syms, m->nsyms, &p->msyms_cap, sizeof *m->syms);
            if (oc != p->msyms_cap) {
                uint32_t c1 = oc, c2 = oc;
                p->imp = xgrow(p, p->imp, m->nsyms, &c1, sizeof *p->imp);
                p->imp_gen = xgrow(p, p->imp_gen, m->nsyms, &c2,
                                   sizeof *p->imp_gen);
            }
            m->syms[m->nsyms] = s;
            p->imp_gen[m->nsyms] = 0;
            bind_or_fail(p, &p->mtab, &name, PTX_NK_SYM, (int32_t)m->nsyms, 0, 0);
            m->nsyms++;
        }
    } while (ptx_accept(p, ','));
    ptx_expect(p, ';', "after the declaration");
}

/* `.reg .type name[<N>], ...;` inside a function body. */
static void parse_reg_decl(struct ptx_parser *p)
{
    const struct ptx_tok *t = ptx_peek(p, 0);
    if (is_dir(t, ".v2") || is_dir(t, ".v4"))
        ptx_perr(p, t->line, t->col, "vector registers are not supported (%.*s)",
                 (int)t->len, t->s);
    enum ptx_type type = PTX_T_NONE;
    if (t->kind == PTX_TK_DIR)
        type = ptx_type_from_name(t->s + 1, t->len - 1);
    if (type == PTX_T_NONE) {
        char d[64];
        describe(t, d, sizeof d);
        ptx_perr(p, t->line, t->col, "expected a register type after .reg (%s)", d);
    }
    ptx_advance(p, NULL);
    do {
        struct ptx_tok name = expect_word(p, "a register name");
        uint32_t count = 0;
        if (ptx_accept(p, '<')) {
            const struct ptx_tok *v = ptx_peek(p, 0);
            uint32_t l = v->line, c = v->col;
            count = (uint32_t)expect_uint(p, "a register count", PTX_MAX_REGS);
            if (count == 0)
                ptx_perr(p, l, c, "expected a positive register count (<0>)");
            ptx_expect(p, '>', "after the register count");
        }
        uint32_t n = count ? count : 1;
        p->total_regs += n;
        if (p->cur.nregs + n > PTX_MAX_REGS || p->total_regs > PTX_MAX_MODULE_REGS)
            ptx_perr(p, name.line, name.col, "too many registers (%.*s)",
                     (int)name.len, name.s);
        int32_t base = (int32_t)p->cur.nregs;
        bind_or_fail(p, &p->ftab, &name, PTX_NK_REG, base, count, p->depth);
        p->cur.regs = agrow_to(p, p->cur.regs, p->cur.nregs, p->cur.nregs + n,
                               &p->regs_cap, sizeof *p->cur.regs);
        if (!count) {
            struct ptx_reg *r = &p->cur.regs[p->cur.nregs++];
            r->name = ptx_arena_strdup(p->a, name.s, name.len);
            r->type = (uint8_t)type;
            if (!r->name)
                ptx_perr(p, name.line, name.col, "out of memory");
        } else {
            size_t w = name.len + 11;
            char *names = ptx_palloc(p, w * n);
            for (uint32_t i = 0; i < n; i++) {
                char *s = names + w * i;
                snprintf(s, w, "%.*s%u", (int)name.len, name.s, i);
                struct ptx_reg *r = &p->cur.regs[p->cur.nregs++];
                r->name = s;
                r->type = (uint8_t)type;
            }
        }
    } while (ptx_accept(p, ','));
    ptx_expect(p, ';', "after the register declaration");
}

/* `( .param ... , ... )` of a function header. */
static void parse_param_list(struct ptx_parser *p, struct ptx_param **out,
                             uint32_t *nout, uint32_t *bytes)
{
    struct ptx_param *ps = NULL;
    uint32_t n = 0, cap = 0;
    uint64_t off = 0;
    if (!ptx_accept(p, ')')) {
        do {
            const struct ptx_tok *t = ptx_peek(p, 0);
            if (!is_dir(t, ".param")) {
                char d[64];
                describe(t, d, sizeof d);
                ptx_perr(p, t->line, t->col, "expected .param in parameter list (%s)", d);
            }
            ptx_advance(p, NULL);
            uint32_t align;
            unsigned vec;
            enum ptx_type type;
            bool texref;
            parse_decl_prefix(p, &align, &vec, &type, &texref);
            struct ptx_tok name = expect_word(p, "a parameter name");
            bool unsized, is_array;
            uint64_t count = parse_dims(p, &unsized, &is_array);
            unsigned eb = ptx_type_bits(type) / 8;
            if (unsized || eb == 0 || texref)
                ptx_perr(p, name.line, name.col,
                         "unsupported parameter declaration (%.*s)",
                         (int)name.len, name.s);
            ps = agrow(p, ps, n, &cap, sizeof *ps);
            struct ptx_param *pr = &ps[n++];
            pr->name = ptx_arena_strdup(p->a, name.s, name.len);
            if (!pr->name)
                ptx_perr(p, name.line, name.col, "out of memory");
            pr->type = (uint8_t)type;
            pr->size = (uint32_t)(count * vec * eb);
            pr->align = align ? align : eb * vec;
            off = align_up(off, pr->align);
            pr->offset = (uint32_t)off;
            off += pr->size;
            if (off > (1u << 24))
                ptx_perr(p, name.line, name.col, "parameters larger than 16 MiB (%.*s)",
                         (int)name.len, name.s);
        } while (ptx_accept(p, ','));
        ptx_expect(p, ')', "closing the parameter list");
    }
    *out = ps;
    *nout = n;
    if (bytes)
        *bytes = (uint32_t)off;
}

/* ------------------------------------------------------------ functions */

static void skip_pragma(struct ptx_parser *p)
{
    for (;;) {
        struct ptx_tok t;
        ptx_advance(p, &t);
        if (t.kind == PTX_TK_EOF)
            ptx_perr(p, t.line, t.col, "expected ';' after .pragma (end of file)");
        if (t.kind == PTX_TK_PUNCT && t.ch == ';')
            return;
    }
}

static void end_function(struct ptx_parser *p)
{
    struct ptx_func *f = &p->cur;
    for (uint32_t i = 0; i < p->nfix; i++) {
        const struct ptx_fixup *fx = &p->fix[i];
        const struct ptx_nent *e = ptx_ntab_find(&p->ltab, fx->s, fx->len);
        if (!e || e->kind != PTX_NK_LABEL)
            ptx_perr(p, fx->line, fx->col, "undefined label (%.*s)",
                     (int)fx->len, fx->s);
        if (fx->inst == PTX_FIX_TLIST)
            f->tlist[fx->slot] = e->idx;
        else
            f->insts[fx->inst].o[fx->slot].label = e->idx;
    }
    uint64_t ext = align_up(f->shared_bytes, p->extern_align > 16 ? p->extern_align : 16);
    for (uint32_t i = 0; i < f->nsyms; i++)
        if (f->syms[i].space == PTX_SP_SHARED && f->syms[i].is_extern)
            f->syms[i].offset = ext;
    f->local_bytes = p->local_end;
    if (ptx_cfg_build(f, p->a) != 0)
        ptx_perr(p, f->line, 1, "out of memory (CFG of %s)", f->name);
}

static void parse_body(struct ptx_parser *p)
{
    uint32_t base_depth = p->depth;
    for (;;) {
        const struct ptx_tok *t = ptx_peek(p, 0);
        if (t->kind == PTX_TK_EOF)
            ptx_perr(p, t->line, t->col, "expected '}' closing the function body (end of file)");
        if (t->kind == PTX_TK_PUNCT) {
            if (t->ch == '}') {
                ptx_advance(p, NULL);
                ntab_pop(&p->ftab, p->depth - 1);
                p->depth--;
                if (p->depth < base_depth)
                    return;
                continue;
            }
            if (t->ch == '{') {
                ptx_advance(p, NULL);
                if (p->depth > 1000)
                    ptx_perr(p, t->line, t->col, "scopes nested too deeply ({)");
                p->depth++;
                continue;
            }
            if (t->ch == ';') {
                ptx_advance(p, NULL);
                continue;
            }
            if (t->ch == '@') {
                uint32_t gl = t->line, gc = t->col;
                ptx_advance(p, NULL);
                bool neg = ptx_accept(p, '!');
                struct ptx_tok g = expect_word(p, "a predicate register after '@'");
                int32_t r = ptx_find_reg(p, g.s, g.len);
                if (r < 0)
                    ptx_perr(p, g.line, g.col, "undefined register (%.*s)",
                             (int)g.len, g.s);
                if (p->cur.regs[r].type != PTX_T_PRED)
                    ptx_perr(p, g.line, g.col, "expected a .pred register as guard (%.*s)",
                             (int)g.len, g.s);
                const struct ptx_tok *op = ptx_peek(p, 0);
                if (op->kind != PTX_TK_WORD) {
                    char d[64];
                    describe(op, d, sizeof d);
                    ptx_perr(p, op->line, op->col, "expected an instruction after the guard (%s)", d);
                }
                ptx_parse_inst(p, r, neg, gl, gc);
                continue;
            }
            char d[64];
            describe(t, d, sizeof d);
            ptx_perr(p, t->line, t->col, "expected a statement (%s)", d);
        }
        if (t->kind == PTX_TK_DIR) {
            struct ptx_tok d;
            ptx_advance(p, &d);
            if (tok_is(&d, ".reg")) {
                parse_reg_decl(p);
            } else if (tok_is(&d, ".shared")) {
                parse_var_decl(p, PTX_SP_SHARED, false, true, d.line, d.col);
            } else if (tok_is(&d, ".local")) {
                parse_var_decl(p, PTX_SP_LOCAL, false, true, d.line, d.col);
            } else if (tok_is(&d, ".param")) {
                parse_var_decl(p, PTX_SP_PARAM, false, true, d.line, d.col);
            } else if (tok_is(&d, ".extern")) {
                const struct ptx_tok *s = ptx_peek(p, 0);
                if (!is_dir(s, ".shared"))
                    ptx_perr(p, s->line, s->col, "expected .shared after .extern in a function (%.*s)",
                             (int)s->len, s->s);
                ptx_advance(p, NULL);
                parse_var_decl(p, PTX_SP_SHARED, true, true, d.line, d.col);
            } else if (tok_is(&d, ".pragma")) {
                skip_pragma(p);
            } else if (tok_is(&d, ".loc")) {
                ptx_loc_loc(p, d.line);
            } else if (tok_is(&d, ".file")) {
                skip_line(p, d.line);
            } else if (tok_is(&d, ".global") || tok_is(&d, ".const")) {
                ptx_perr(p, d.line, d.col,
                         "expected .reg, .shared, .local or .param in a function body (%.*s)",
                         (int)d.len, d.s);
            } else {
                ptx_perr(p, d.line, d.col, "unknown directive in function body (%.*s)",
                         (int)d.len, d.s);
            }
            continue;
        }
        if (t->kind == PTX_TK_WORD) {
            const struct ptx_tok *n = ptx_peek(p, 1);
            if (n->kind == PTX_TK_PUNCT && n->ch == ':') {
                struct ptx_tok l;
                ptx_advance(p, &l);
                ptx_advance(p, NULL);
                const struct ptx_nent *same;
                uint8_t kind = PTX_NK_LABEL;
                int32_t li = (int32_t)p->cur.ninsts;
                uint32_t cnt = 0;
                if (ptx_peek(p, 0)->kind == PTX_TK_DIR &&
                    !ptx_parse_label_dir(p, &l, &kind, &li, &cnt)) {
                    kind = PTX_NK_LABEL;    /* a plain label before .pragma ... */
                    li = (int32_t)p->cur.ninsts;
                }
                if (!ntab_bind(p, &p->ltab, l.s, l.len, kind, li, cnt, 0, &same))
                    ptx_perr(p, l.line, l.col, "redefinition of label (%.*s)",
                             (int)l.len, l.s);
                continue;
            }
            ptx_parse_inst(p, -1, false, t->line, t->col);
            continue;
        }
        char d[64];
        describe(t, d, sizeof d);
        ptx_perr(p, t->line, t->col, "expected a statement (%s)", d);
    }
}

/* .entry / .func after linkage directives. */
static void parse_function(struct ptx_parser *p, bool is_entry, uint32_t line)
{
    struct ptx_param *rets = NULL;
    uint32_t nrets = 0;
    if (!is_entry && ptx_accept(p, '('))
        parse_param_list(p, &rets, &nrets, NULL);
    struct ptx_tok name = expect_word(p, "a function name");
    struct ptx_param *params = NULL;
    uint32_t nparams = 0, pbytes = 0;
    if (ptx_accept(p, '('))
        parse_param_list(p, &params, &nparams, &pbytes);
    uint32_t maxntid[3] = {0, 0, 0};
    for (;;) {
        const struct ptx_tok *t = ptx_peek(p, 0);
        if (is_dir(t, ".maxntid") || is_dir(t, ".reqntid")) {
            ptx_advance(p, NULL);
            unsigned k = 0;
            do {
                if (k == 3)
                    ptx_perr(p, t->line, t->col, "more than 3 dimensions (.maxntid)");
                maxntid[k++] = (uint32_t)expect_uint(p, "a thread count", 1u << 20);
            } while (ptx_accept(p, ','));
        } else if (is_dir(t, ".minnctapersm") || is_dir(t, ".maxnreg") ||
                   is_dir(t, ".maxnctapersm")) {
            ptx_advance(p, NULL);
            expect_uint(p, "a number", UINT32_MAX);
        } else if (is_dir(t, ".noreturn")) {
            ptx_advance(p, NULL);
        } else if (is_dir(t, ".pragma")) {
            ptx_advance(p, NULL);
            skip_pragma(p);
        } else {
            break;
        }
    }
    const struct ptx_nent *e = ptx_ntab_find(&p->mtab, name.s, name.len);
    int32_t idx;
    if (e) {
        if (e->kind != PTX_NK_FUNC)
            ptx_perr(p, name.line, name.col, "redefinition of '%.*s' (function)",
                     (int)name.len, name.s);
        idx = e->idx;
    } else {
        idx = new_func(p, &name, line);
    }
    bool body = ptx_accept(p, '{');
    if (!body) {
        ptx_expect(p, ';', "or '{' after the function header");
        struct ptx_func *f = &p->m->funcs[idx];
        if (!p->func_has_body[idx]) {
            f->is_entry = is_entry;
            f->params = params;
            f->nparams = nparams;
            f->param_bytes = pbytes;
            f->rets = rets;
            f->nrets = nrets;
            f->line = line;
            p->func_decl_line[idx] = line;
        }
        return;
    }
    if (p->func_has_body[idx])
        ptx_perr(p, name.line, name.col, "redefinition of function body (%.*s)",
                 (int)name.len, name.s);
    p->func_has_body[idx] = true;
    p->func_decl_line[idx] = line;
    /* fresh function state */
    memset(&p->cur, 0, sizeof p->cur);
    p->cur.name = p->m->funcs[idx].name;
    p->cur.is_entry = is_entry;
    p->cur.params = params;
    p->cur.nparams = nparams;
    p->cur.param_bytes = pbytes;
    p->cur.rets = rets;
    p->cur.nrets = nrets;
    p->cur.line = line;
    p->cur.has_body = true;
    p->nprotos = 0;
    p->tlist_cap = 0;
    p->cargs_cap = 0;
    memcpy(p->cur.maxntid, maxntid, sizeof maxntid);
    p->cur_idx = idx;
    p->insts_cap = p->regs_cap = p->syms_cap = 0;
    p->loc = (struct ptx_srcloc){ 0, 0, 0 };
    p->srcloc_cap = 0;
    p->nfix = 0;
    p->extern_align = 0;
    p->local_end = 0;
    p->gen++;
    ntab_clear(&p->ftab);
    ntab_clear(&p->ltab);
    p->depth = 1;
    uint64_t roff = 0;
    for (uint32_t i = 0; i < nparams + nrets; i++) {
        const struct ptx_param *pr = i < nparams ? &params[i] : &rets[i - nparams];
        struct ptx_symbol s = {0};
        s.name = pr->name;
        s.space = PTX_SP_PARAM;
        s.type = pr->type;
        s.align = pr->align;
        s.size = pr->size;
        if (i < nparams) {
            s.offset = pr->offset;
        } else {
            roff = align_up(roff, pr->align);
            s.offset = roff;
            roff += pr->size;
        }
        s.line = line;
        uint32_t si = add_func_sym(p, &s);
        struct ptx_tok nt = name;
        nt.s = pr->name;
        nt.len = (uint32_t)strlen(pr->name);
        bind_or_fail(p, &p->ftab, &nt, PTX_NK_SYM, (int32_t)si, 0, 0);
    }
    parse_body(p);
    end_function(p);
    p->m->funcs[idx] = p->cur;
    p->cur_idx = -1;
}

/* ---------------------------------------------------------------- module */

static void skip_section(struct ptx_parser *p, uint32_t line)
{
    /* .section .debug_xxx { ... } */
    while (ptx_peek(p, 0)->kind == PTX_TK_DIR || ptx_peek(p, 0)->kind == PTX_TK_WORD) {
        if (ptx_peek(p, 0)->line != line)
            break;
        ptx_advance(p, NULL);
    }
    ptx_expect(p, '{', "opening the section");
    unsigned depth = 1;
    while (depth) {
        struct ptx_tok t;
        ptx_advance(p, &t);
        if (t.kind == PTX_TK_EOF)
            ptx_perr(p, t.line, t.col, "expected '}' closing .section (end of file)");
        if (t.kind == PTX_TK_PUNCT && t.ch == '{')
            depth++;
        if (t.kind == PTX_TK_PUNCT && t.ch == '}')
            depth--;
    }
}

static void parse_version(struct ptx_parser *p)
{
    struct ptx_tok t;
    ptx_advance(p, &t);
    if (t.kind == PTX_TK_INT) {
        p->m->version_major = (uint32_t)t.u;
        return;
    }
    unsigned a = 0, b = 0;
    char buf[32];
    if (t.kind == PTX_TK_DEC && t.len < sizeof buf) {
        memcpy(buf, t.s, t.len);
        buf[t.len] = '\0';
        if (sscanf(buf, "%u.%u", &a, &b) == 2) {
            p->m->version_major = a;
            p->m->version_minor = b;
            return;
        }
    }
    char d[64];
    describe(&t, d, sizeof d);
    ptx_perr(p, t.line, t.col, "expected a version number after .version (%s)", d);
}

static void parse_module(struct ptx_parser *p)
{
    for (;;) {
        struct ptx_tok t;
        ptx_advance(p, &t);
        if (t.kind == PTX_TK_EOF)
            break;
        if (t.kind != PTX_TK_DIR) {
            char d[64];
            describe(&t, d, sizeof d);
            ptx_perr(p, t.line, t.col, "expected a directive at module scope (%s)", d);
        }
        if (tok_is(&t, ".version")) {
            parse_version(p);
        } else if (tok_is(&t, ".target")) {
            size_t n = 0;
            do {
                struct ptx_tok w = expect_word(p, "a target name");
                if (n + w.len + 2 < sizeof p->m->target) {
                    if (n)
                        p->m->target[n++] = ',';
                    memcpy(p->m->target + n, w.s, w.len);
                    n += w.len;
                    p->m->target[n] = '\0';
                }
            } while (ptx_accept(p, ','));
        } else if (tok_is(&t, ".address_size")) {
            const struct ptx_tok *v = ptx_peek(p, 0);
            uint32_t l = v->line, c = v->col;
            uint64_t a = expect_uint(p, "32 or 64 after .address_size", 64);
            if (a != 64 && a != 32)
                ptx_perr(p, l, c, "expected 32 or 64 after .address_size (%llu)",
                         (unsigned long long)a);
            p->m->address_size = (unsigned)a;
        } else if (tok_is(&t, ".file")) {
            ptx_loc_file(p, t.line);
        } else if (tok_is(&t, ".loc")) {
            skip_line(p, t.line);
        } else if (tok_is(&t, ".section")) {
            skip_section(p, t.line);
        } else if (tok_is(&t, ".pragma")) {
            skip_pragma(p);
        } else {
            /* linkage, then .entry/.func/variable */
            bool is_extern = false;
            struct ptx_tok d = t;
            uint32_t line = t.line;
            for (;;) {
                if (tok_is(&d, ".visible") || tok_is(&d, ".weak") ||
                    tok_is(&d, ".common")) {
                } else if (tok_is(&d, ".extern")) {
                    is_extern = true;
                } else {
                    break;
                }
                ptx_advance(p, &d);
                if (d.kind != PTX_TK_DIR) {
                    char ds[64];
                    describe(&d, ds, sizeof ds);
                    ptx_perr(p, d.line, d.col, "expected a declaration after linkage (%s)", ds);
                }
            }
            if (tok_is(&d, ".entry"))
                parse_function(p, true, line);
            else if (tok_is(&d, ".func"))
                parse_function(p, false, line);
            else if (tok_is(&d, ".global"))
                parse_var_decl(p, PTX_SP_GLOBAL, is_extern, false, d.line, d.col);
            else if (tok_is(&d, ".const"))
                parse_var_decl(p, PTX_SP_CONST, is_extern, false, d.line, d.col);
            else if (tok_is(&d, ".shared"))
                parse_var_decl(p, PTX_SP_SHARED, is_extern, false, d.line, d.col);
            else if (tok_is(&d, ".local"))
                parse_var_decl(p, PTX_SP_LOCAL, is_extern, false, d.line, d.col);
            else
                ptx_perr(p, d.line, d.col, "unknown or unsupported directive (%.*s)",
                         (int)d.len, d.s);
        }
    }
    /* a call to a function without a body (vprintf, malloc, a device
     * launch) loads: the device runtime runs it or fails the kernel that
     * reaches it, naming the function (docs/device-runtime.md) */
    for (uint32_t i = 0; i < p->ncalls; i++) {
        const struct ptx_callref *c = &p->calls[i];
        const struct ptx_func *f = &p->m->funcs[c->func];
        if (p->func_decl_line[c->func] == 0)
            ptx_perr(p, c->line, c->col, "call to undeclared function (%s)", f->name);
    }
}

/* Parses with the error trap set; 0 or -1. */
static int run_parser(struct ptx_parser *p)
{
    if (setjmp(p->jb) != 0)
        return -1;
    p->m->file = ptx_arena_strdup(p->a, p->file, strlen(p->file));
    if (!p->m->file)
        ptx_perr(p, 1, 1, "out of memory (file name)");
    parse_module(p);
    return 0;
}

int ptx_parse(const char *file, const char *text, size_t len,
              struct ptx_module **out, struct ptx_diag *diag)
{
    struct ptx_diag dummy;
    if (!diag)
        diag = &dummy;
    memset(diag, 0, sizeof *diag);
    *out = NULL;
    if (!file)
        file = "<ptx>";
    if (!text && len) {
        snprintf(diag->msg, sizeof diag->msg, "%s:1:1: error: no input text (NULL)", file);
        return -1;
    }
    struct ptx_parser *p = calloc(1, sizeof *p);
    struct ptx_arena *a = ptx_arena_new();
    struct ptx_module *m = a ? ptx_arena_alloc(a, sizeof *m) : NULL;
    if (!p || !m) {
        free(p);
        ptx_arena_free(a);
        snprintf(diag->msg, sizeof diag->msg, "%s:1:1: error: out of memory (parser)", file);
        return -1;
    }
    p->diag = diag;
    p->file = file;
    p->a = a;
    p->m = m;
    p->cur_idx = -1;
    m->arena = a;
    m->address_size = 64;
    ptx_lex_init(&p->lx, text ? text : "", len);
    int rc = run_parser(p);
    ntab_free(&p->mtab);
    ntab_free(&p->ftab);
    ntab_free(&p->ltab);
    free(p->fix);
    free(p->calls);
    free(p->protos);
    free(p->imp);
    free(p->imp_gen);
    free(p->func_has_body);
    free(p->func_decl_line);
    free(p);
    if (rc) {
        ptx_arena_free(a);
        return -1;
    }
    *out = m;
    return 0;
}

void ptx_module_free(struct ptx_module *m)
{
    if (m)
        ptx_arena_free(m->arena);
}
