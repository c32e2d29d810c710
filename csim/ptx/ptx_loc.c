/* Source positions from nvcc's line info (-lineinfo or -G): the module's
 * `.file N "name"` table and each instruction's last `.loc file line col`
 * before it, so reports can name the .cu line beside the PTX line. The
 * rest of a directive's line (timestamps, `, function_name ...,
 * inlined_at ...`) is skipped; a malformed .file/.loc is ignored, never
 * an error: line info is advisory. */
#include <string.h>
#include "ptx/ptx_pstate.h"

#define MAX_SRCFILES 65535u

static void rest_of_line(struct ptx_parser *p, uint32_t line)
{
    for (;;) {
        const struct ptx_tok *t = ptx_peek(p, 0);
        if (t->kind == PTX_TK_EOF || t->line != line)
            return;
        ptx_advance(p, NULL);
    }
}

/* An integer on the directive's line, or -1. */
static int64_t int_on(struct ptx_parser *p, uint32_t line)
{
    const struct ptx_tok *t = ptx_peek(p, 0);
    if (t->kind != PTX_TK_INT || t->line != line)
        return -1;
    int64_t v = t->u > 0x7fffffffu ? -1 : (int64_t)t->u;
    ptx_advance(p, NULL);
    return v;
}

void ptx_loc_file(struct ptx_parser *p, uint32_t line)
{
    int64_t n = int_on(p, line);
    const struct ptx_tok *t = ptx_peek(p, 0);
    if (n > 0 && n <= (int64_t)MAX_SRCFILES && t->kind == PTX_TK_STR && t->line == line &&
        t->len >= 2) {
        struct ptx_module *m = p->m;
        uint32_t need = (uint32_t)n + 1;
        if (need > p->srcfiles_cap) {
            uint32_t nc = p->srcfiles_cap ? p->srcfiles_cap : 8;
            while (nc < need)
                nc *= 2;
            const char **f = ptx_palloc(p, nc * sizeof *f);
            memset(f, 0, nc * sizeof *f);
            if (m->nsrcfiles)
                memcpy(f, m->srcfiles, m->nsrcfiles * sizeof *f);
            m->srcfiles = f;
            p->srcfiles_cap = nc;
        }
        char *name = ptx_palloc(p, t->len - 1);
        memcpy(name, t->s + 1, t->len - 2);
        name[t->len - 2] = 0;
        m->srcfiles[n] = name;
        if (need > m->nsrcfiles)
            m->nsrcfiles = need;
    }
    rest_of_line(p, line);
}

void ptx_loc_loc(struct ptx_parser *p, uint32_t line)
{
    int64_t f = int_on(p, line), l = f >= 0 ? int_on(p, line) : -1;
    int64_t c = l >= 0 ? int_on(p, line) : -1;
    rest_of_line(p, line);
    if (f <= 0 || f > (int64_t)MAX_SRCFILES || l < 0)
        return;
    p->loc.file = (uint16_t)f;
    p->loc.line = (uint32_t)l;
    p->loc.col = (uint16_t)(c > 0xffff || c < 0 ? 0 : c);
    if (!p->cur.srcloc) {      /* first .loc of the function: earlier
                                * instructions have no position */
        uint32_t nc = 16;
        while (nc < p->cur.ninsts + 1)
            nc *= 2;
        p->cur.srcloc = ptx_palloc(p, nc * sizeof *p->cur.srcloc);
        memset(p->cur.srcloc, 0, nc * sizeof *p->cur.srcloc);
        p->srcloc_cap = nc;
    }
}

void ptx_loc_inst(struct ptx_parser *p, uint32_t idx)
{
    if (!p->cur.srcloc)
        return;
    if (idx >= p->srcloc_cap) {
        uint32_t nc = p->srcloc_cap * 2;
        while (nc <= idx)
            nc *= 2;
        struct ptx_srcloc *s = ptx_palloc(p, nc * sizeof *s);
        memcpy(s, p->cur.srcloc, p->srcloc_cap * sizeof *s);
        memset(s + p->srcloc_cap, 0, (nc - p->srcloc_cap) * sizeof *s);
        p->cur.srcloc = s;
        p->srcloc_cap = nc;
    }
    p->cur.srcloc[idx] = p->loc;
}

const char *ptx_srcloc_of(const struct ptx_module *m, const struct ptx_func *f,
                          int32_t pc, uint32_t *line)
{
    *line = 0;
    if (!m || !f || !f->srcloc || pc < 0 || (uint32_t)pc >= f->ninsts)
        return NULL;
    const struct ptx_srcloc *s = &f->srcloc[pc];
    if (!s->file || s->file >= m->nsrcfiles || !m->srcfiles[s->file])
        return NULL;
    *line = s->line;
    return m->srcfiles[s->file];
}
