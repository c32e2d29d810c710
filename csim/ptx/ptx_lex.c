/* PTX tokenizer. No allocation: tokens point into the source text. */
#include "ptx/ptx_lex.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void ptx_lex_init(struct ptx_lexer *lx, const char *text, size_t len)
{
    lx->p = text;
    lx->end = text + len;
    lx->line = 1;
    lx->line_start = text;
    if (len >= 3 && (unsigned char)text[0] == 0xEF &&
        (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF) {
        lx->p += 3; /* UTF-8 byte order mark */
        lx->line_start = lx->p;
    }
}

static bool is_id0(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == '$' || c == '%';
}

static bool is_id(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '$';
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Skips blanks and comments; returns an error text for an unterminated
 * block comment (start, line, col = where it opened), else NULL. */
static const char *skip_space(struct ptx_lexer *lx, const char **start,
                              uint32_t *line, uint32_t *col)
{
    while (lx->p < lx->end) {
        char c = *lx->p;
        if (c == '\n') {
            lx->p++;
            lx->line++;
            lx->line_start = lx->p;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
                   c == '\v') {
            lx->p++;
        } else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '/') {
            while (lx->p < lx->end && *lx->p != '\n')
                lx->p++;
        } else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '*') {
            *start = lx->p;
            *line = lx->line;
            *col = (uint32_t)(lx->p - lx->line_start) + 1;
            lx->p += 2;
            for (;;) {
                if (lx->p + 1 >= lx->end) {
                    lx->p = lx->end;
                    return "unterminated block comment";
                }
                if (lx->p[0] == '*' && lx->p[1] == '/') {
                    lx->p += 2;
                    break;
                }
                if (*lx->p == '\n') {
                    lx->line++;
                    lx->line_start = lx->p + 1;
                }
                lx->p++;
            }
        } else {
            break;
        }
    }
    return NULL;
}

/* Fixed-width hex float literal (0f: 8 digits, 0d: 16 digits). */
static void lex_hexfloat(struct ptx_lexer *lx, struct ptx_tok *t, int digits)
{
    const char *q = lx->p + 2;
    uint64_t v = 0;
    int n = 0;
    while (q < lx->end && hexval(*q) >= 0) {
        v = (v << 4) | (uint64_t)hexval(*q);
        q++;
        n++;
    }
    if (n != digits || (q < lx->end && is_id(*q))) {
        t->kind = PTX_TK_ERR;
        t->err = digits == 8 ? "expected 8 hex digits after 0f (float literal)"
                             : "expected 16 hex digits after 0d (double literal)";
    } else {
        t->kind = digits == 8 ? PTX_TK_F32 : PTX_TK_F64;
        t->u = v;
    }
    lx->p = q;
}

static void lex_number(struct ptx_lexer *lx, struct ptx_tok *t)
{
    const char *q = lx->p;
    if (q[0] == '0' && q + 1 < lx->end && (q[1] == 'f' || q[1] == 'F')) {
        lex_hexfloat(lx, t, 8);
        return;
    }
    if (q[0] == '0' && q + 1 < lx->end && (q[1] == 'd' || q[1] == 'D')) {
        lex_hexfloat(lx, t, 16);
        return;
    }
    unsigned base = 10;
    if (q[0] == '0' && q + 1 < lx->end && (q[1] == 'x' || q[1] == 'X')) {
        base = 16;
        q += 2;
    } else if (q[0] == '0' && q + 1 < lx->end && (q[1] == 'b' || q[1] == 'B')) {
        base = 2;
        q += 2;
    } else {
        /* decimal float? digits '.' or exponent */
        const char *r = q;
        while (r < lx->end && *r >= '0' && *r <= '9')
            r++;
        if (r < lx->end && (*r == '.' || *r == 'e' || *r == 'E')) {
            char buf[64];
            const char *s = q;
            size_t n = 0;
            while (s < lx->end && n < sizeof buf - 1 &&
                   ((*s >= '0' && *s <= '9') || *s == '.' || *s == 'e' ||
                    *s == 'E' ||
                    ((*s == '+' || *s == '-') && n > 0 &&
                     (buf[n - 1] == 'e' || buf[n - 1] == 'E'))))
                buf[n++] = *s++;
            buf[n] = '\0';
            char *endp;
            double d = strtod(buf, &endp);
            lx->p = q + (endp - buf);
            if (endp == buf || (lx->p < lx->end && is_id(*lx->p))) {
                t->kind = PTX_TK_ERR;
                t->err = "malformed number";
                while (lx->p < lx->end && is_id(*lx->p))
                    lx->p++;
                return;
            }
            t->kind = PTX_TK_DEC;
            t->d = d;
            return;
        }
        if (q[0] == '0' && r - q > 1)
            base = 8;
    }
    uint64_t v = 0;
    bool any = false, ovf = false, bad = false;
    while (q < lx->end) {
        int h = hexval(*q);
        if (h < 0 || (unsigned)h >= base) {
            if (is_id(*q) && !((*q == 'U' || *q == 'u') &&
                               !(q + 1 < lx->end && is_id(q[1]))))
                bad = true;
            break;
        }
        if (v > (UINT64_MAX - (uint64_t)h) / base)
            ovf = true;
        v = v * base + (uint64_t)h;
        any = true;
        q++;
    }
    if (q < lx->end && (*q == 'U' || *q == 'u') && !bad)
        q++;
    lx->p = q;
    if (!any || bad || ovf) {
        while (lx->p < lx->end && is_id(*lx->p))
            lx->p++;
        t->kind = PTX_TK_ERR;
        t->err = ovf ? "integer literal out of 64-bit range" : "malformed number";
        return;
    }
    t->kind = PTX_TK_INT;
    t->u = v;
}

void ptx_lex_next(struct ptx_lexer *lx, struct ptx_tok *t)
{
    const char *cstart = NULL;
    uint32_t cline = 0, ccol = 0;
    const char *cerr = skip_space(lx, &cstart, &cline, &ccol);
    memset(t, 0, sizeof *t);
    t->s = lx->p;
    t->line = lx->line;
    t->col = (uint32_t)(lx->p - lx->line_start) + 1;
    if (cerr) {
        t->kind = PTX_TK_ERR;
        t->err = cerr;
        t->s = cstart;
        t->len = 2;
        t->line = cline;
        t->col = ccol;
        return;
    }
    if (lx->p >= lx->end) {
        t->kind = PTX_TK_EOF;
        return;
    }
    char c = *lx->p;
    if (is_id0(c)) {
        const char *q = lx->p + 1;
        while (q < lx->end && is_id(*q))
            q++;
        while (q + 1 < lx->end && *q == '.' && is_id(q[1])) {
            q++;
            while (q < lx->end && is_id(*q))
                q++;
        }
        t->kind = PTX_TK_WORD;
        lx->p = q;
    } else if (c == '.' && lx->p + 1 < lx->end && is_id(lx->p[1])) {
        const char *q = lx->p + 1;
        while (q < lx->end && is_id(*q))
            q++;
        t->kind = PTX_TK_DIR;
        lx->p = q;
    } else if (c >= '0' && c <= '9') {
        lex_number(lx, t);
    } else if (c == '"') {
        const char *q = lx->p + 1;
        while (q < lx->end && *q != '"' && *q != '\n') {
            if (*q == '\\' && q + 1 < lx->end && q[1] != '\n')
                q++;
            q++;
        }
        if (q >= lx->end || *q != '"') {
            t->kind = PTX_TK_ERR;
            t->err = "unterminated string";
            lx->p = q;
        } else {
            t->kind = PTX_TK_STR;
            lx->p = q + 1;
        }
    } else if (c != 0 && strchr(",;:[]{}()+-!@|<>=", c)) {
        t->kind = PTX_TK_PUNCT;
        t->ch = c;
        lx->p++;
    } else {
        t->kind = PTX_TK_ERR;
        t->err = "unexpected character";
        lx->p++;
    }
    t->len = (uint32_t)(lx->p - t->s);
}
