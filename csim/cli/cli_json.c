/* A small JSON reader (RFC 8259) for the CLI: a recursive-descent parser
 * bounded in depth, input size and value count, with line:column errors. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli_json.h"

#define DEF_MAX_BYTES  ((size_t)64 << 20)
#define DEF_MAX_DEPTH  64u
#define DEF_MAX_VALUES ((size_t)4 << 20)

struct parser {
    const char *base, *p, *end;
    const char *line_start;
    unsigned line;
    unsigned depth, max_depth;
    size_t values, max_values;
    struct cli_json_error *err;
};

/* Records the first error at the current position; returns -1. */
static int fail(struct parser *P, const char *fmt, ...)
{
    struct cli_json_error *e = P->err;
    e->offset = (size_t)(P->p - P->base);
    e->line = P->line;
    e->col = (unsigned)(P->p - P->line_start) + 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return -1;
}

/* "'x'" for a printable byte, "byte 0xNN" otherwise, "end of input" at the
 * end. */
static const char *found(const struct parser *P, char buf[16])
{
    if (P->p >= P->end)
        return "end of input";
    unsigned char c = (unsigned char)*P->p;
    if (c >= 0x20 && c < 0x7f)
        snprintf(buf, 16, "'%c'", c);
    else
        snprintf(buf, 16, "byte 0x%02x", c);
    return buf;
}

static void skip_ws(struct parser *P)
{
    while (P->p < P->end) {
        char c = *P->p;
        if (c == '\n') {
            P->line++;
            P->line_start = P->p + 1;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            return;
        }
        P->p++;
    }
}

static void free_contents(struct cli_json *v)
{
    free(v->str);
    for (size_t i = 0; i < v->n; i++) {
        free_contents(&v->item[i]);
        if (v->key)
            free(v->key[i].s);
    }
    free(v->item);
    free(v->key);
    v->str = NULL;
    v->item = NULL;
    v->key = NULL;
    v->n = 0;
}

void cli_json_free(struct cli_json *v)
{
    if (!v)
        return;
    free_contents(v);
    free(v);
}

static int hex4(const char *s, unsigned *out)
{
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
        char c = s[k];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return -1;
    }
    *out = v;
    return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* A \uXXXX escape at P->p (just after the backslash and 'u' were seen at
 * P->p - 2); a surrogate pair is joined, a lone surrogate becomes U+FFFD. */
static int unicode_escape(struct parser *P, char *o, size_t *olen)
{
    unsigned cp;
    if (P->end - P->p < 4 || hex4(P->p, &cp))
        return fail(P, "invalid \\u escape (want 4 hex digits)");
    P->p += 4;
    if (cp >= 0xd800 && cp < 0xdc00 && P->end - P->p >= 6 && P->p[0] == '\\'
        && P->p[1] == 'u') {
        unsigned lo;
        if (!hex4(P->p + 2, &lo) && lo >= 0xdc00 && lo < 0xe000) {
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            P->p += 6;
        }
    }
    if (cp >= 0xd800 && cp < 0xe000)
        cp = 0xfffd;
    *olen += put_utf8(o + *olen, cp);
    return 0;
}

/* A string literal at P->p (on the opening quote) into a new buffer. The
 * decoded text is never longer than the literal, so one allocation of the
 * literal's length suffices. */
static int parse_string(struct parser *P, char **out, size_t *outlen)
{
    P->p++;
    const char *q = P->p;
    while (q < P->end && *q != '"')
        q += (*q == '\\' && P->end - q > 1) ? 2 : 1;
    char *o = malloc((size_t)(q - P->p) + 1);
    if (!o)
        return fail(P, "out of memory");
    size_t n = 0;
    for (;;) {
        if (P->p >= P->end) {
            free(o);
            return fail(P, "unterminated string");
        }
        unsigned char c = (unsigned char)*P->p;
        if (c == '"') {
            P->p++;
            break;
        }
        if (c < 0x20) {
            free(o);
            return fail(P, "control character (byte 0x%02x) in a string", c);
        }
        if (c != '\\') {
            o[n++] = (char)c;
            P->p++;
            continue;
        }
        P->p++;
        if (P->p >= P->end) {
            free(o);
            return fail(P, "unterminated string");
        }
        char e = *P->p++;
        switch (e) {
        case '"': o[n++] = '"'; break;
        case '\\': o[n++] = '\\'; break;
        case '/': o[n++] = '/'; break;
        case 'b': o[n++] = '\b'; break;
        case 'f': o[n++] = '\f'; break;
        case 'n': o[n++] = '\n'; break;
        case 'r': o[n++] = '\r'; break;
        case 't': o[n++] = '\t'; break;
        case 'u':
            if (unicode_escape(P, o, &n)) {
                free(o);
                return -1;
            }
            break;
        default:
            P->p--;
            free(o);
            if ((unsigned char)e >= 0x20 && (unsigned char)e < 0x7f)
                return fail(P, "invalid escape '\\%c' in a string", e);
            return fail(P, "invalid escape (byte 0x%02x) in a string", (unsigned char)e);
        }
    }
    o[n] = '\0';
    *out = o;
    *outlen = n;
    return 0;
}

static int is_digit(const struct parser *P, const char *s)
{
    return s < P->end && *s >= '0' && *s <= '9';
}

/* A number literal: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int parse_number(struct parser *P, struct cli_json *v)
{
    const char *s = P->p, *q = s;
    int neg = 0, integer = 1;
    if (q < P->end && *q == '-') {
        neg = 1;
        q++;
    }
    if (!is_digit(P, q)) {
        P->p = q;
        return fail(P, "invalid number (a digit must follow '-')");
    }
    if (*q == '0') {
        q++;
        if (is_digit(P, q)) {
            P->p = q;
            return fail(P, "invalid number (leading zero)");
        }
    } else {
        while (is_digit(P, q))
            q++;
    }
    if (q < P->end && *q == '.') {
        integer = 0;
        q++;
        if (!is_digit(P, q)) {
            P->p = q;
            return fail(P, "invalid number (a digit must follow '.')");
        }
        while (is_digit(P, q))
            q++;
    }
    if (q < P->end && (*q == 'e' || *q == 'E')) {
        integer = 0;
        q++;
        if (q < P->end && (*q == '+' || *q == '-'))
            q++;
        if (!is_digit(P, q)) {
            P->p = q;
            return fail(P, "invalid number (a digit must follow the exponent)");
        }
        while (is_digit(P, q))
            q++;
    }
    size_t len = (size_t)(q - s);
    if (len > 400)
        return fail(P, "number literal longer than 400 characters");
    v->str = malloc(len + 1);
    if (!v->str)
        return fail(P, "out of memory");
    memcpy(v->str, s, len);
    v->str[len] = '\0';
    v->len = len;
    v->type = CLI_JSON_NUMBER;
    errno = 0;
    v->d = strtod(v->str, NULL);
    if (!isfinite(v->d))
        return fail(P, "number out of range");
    if (integer) {
        /* exact magnitude; overflow past uint64 leaves only the double */
        uint64_t mag = 0;
        int over = 0;
        for (const char *c = s + neg; c < q; c++) {
            unsigned dg = (unsigned)(*c - '0');
            if (mag > (UINT64_MAX - dg) / 10)
                over = 1;
            mag = mag * 10 + dg;
        }
        if (!over) {
            if (!neg || mag == 0) {
                v->is_uint = 1;
                v->u = mag;
                if (mag <= (uint64_t)INT64_MAX) {
                    v->is_int = 1;
                    v->i = (int64_t)mag;
                }
            } else if (mag <= (uint64_t)INT64_MAX + 1) {
                v->is_int = 1;
                v->i = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
            }
        }
    }
    P->p = q;
    return 0;
}

static int literal(struct parser *P, const char *word, enum cli_json_type t,
                   struct cli_json *v)
{
    size_t n = strlen(word);
    if ((size_t)(P->end - P->p) < n || memcmp(P->p, word, n)) {
        char b[16];
        return fail(P, "expected a value, found %s", found(P, b));
    }
    P->p += n;
    v->type = t;
    return 0;
}

static int parse_value(struct parser *P, struct cli_json *v);

/* Appends the value *x (and member name k for an object) to container v,
 * taking ownership of both. */
static int push(struct parser *P, struct cli_json *v, size_t *cap,
                struct cli_json *x, struct cli_json_key *k)
{
    if (v->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 4;
        struct cli_json *ni = realloc(v->item, nc * sizeof *ni);
        if (!ni)
            return fail(P, "out of memory");
        v->item = ni;
        if (k) {
            struct cli_json_key *nk = realloc(v->key, nc * sizeof *nk);
            if (!nk)
                return fail(P, "out of memory");
            v->key = nk;
        }
        *cap = nc;
    }
    v->item[v->n] = *x;
    if (k)
        v->key[v->n] = *k;
    v->n++;
    return 0;
}

static int parse_array(struct parser *P, struct cli_json *v)
{
    size_t cap = 0;
    v->type = CLI_JSON_ARRAY;
    P->p++;
    skip_ws(P);
    if (P->p < P->end && *P->p == ']') {
        P->p++;
        return 0;
    }
    for (;;) {
        struct cli_json x;
        if (parse_value(P, &x))
            return -1;
        if (push(P, v, &cap, &x, NULL)) {
            free_contents(&x);
            return -1;
        }
        skip_ws(P);
        if (P->p < P->end && *P->p == ',') {
            P->p++;
            continue;
        }
        if (P->p < P->end && *P->p == ']') {
            P->p++;
            return 0;
        }
        char b[16];
        return fail(P, "expected ',' or ']' in an array, found %s", found(P, b));
    }
}

static int parse_object(struct parser *P, struct cli_json *v)
{
    size_t cap = 0;
    v->type = CLI_JSON_OBJECT;
    P->p++;
    skip_ws(P);
    if (P->p < P->end && *P->p == '}') {
        P->p++;
        return 0;
    }
    for (;;) {
        char b[16];
        skip_ws(P);
        if (P->p >= P->end || *P->p != '"')
            return fail(P, "expected a member name (a string), found %s", found(P, b));
        struct cli_json_key k;
        if (parse_string(P, &k.s, &k.len))
            return -1;
        skip_ws(P);
        if (P->p >= P->end || *P->p != ':') {
            free(k.s);
            return fail(P, "expected ':' after a member name, found %s", found(P, b));
        }
        P->p++;
        struct cli_json x;
        if (parse_value(P, &x)) {
            free(k.s);
            return -1;
        }
        if (push(P, v, &cap, &x, &k)) {
            free(k.s);
            free_contents(&x);
            return -1;
        }
        skip_ws(P);
        if (P->p < P->end && *P->p == ',') {
            P->p++;
            continue;
        }
        if (P->p < P->end && *P->p == '}') {
            P->p++;
            return 0;
        }
        return fail(P, "expected ',' or '}' in an object, found %s", found(P, b));
    }
}

/* One value into *v (zeroed here); on failure *v holds nothing to free. */
static int parse_value(struct parser *P, struct cli_json *v)
{
    memset(v, 0, sizeof *v);
    skip_ws(P);
    v->line = P->line;
    v->col = (unsigned)(P->p - P->line_start) + 1;
    v->offset = (size_t)(P->p - P->base);
    if (++P->values > P->max_values)
        return fail(P, "more than %zu values", P->max_values);
    char b[16];
    if (P->p >= P->end)
        return fail(P, "unexpected end of input, expected a value");
    int rc;
    switch (*P->p) {
    case '{':
    case '[':
        if (P->depth >= P->max_depth)
            return fail(P, "nested deeper than %u arrays/objects", P->max_depth);
        P->depth++;
        rc = *P->p == '{' ? parse_object(P, v) : parse_array(P, v);
        P->depth--;
        break;
    case '"':
        v->type = CLI_JSON_STRING;
        rc = parse_string(P, &v->str, &v->len);
        break;
    case 't':
        return literal(P, "true", CLI_JSON_TRUE, v);
    case 'f':
        return literal(P, "false", CLI_JSON_FALSE, v);
    case 'n':
        return literal(P, "null", CLI_JSON_NULL, v);
    default:
        if (*P->p == '-' || (*P->p >= '0' && *P->p <= '9'))
            rc = parse_number(P, v);
        else
            return fail(P, "expected a value, found %s", found(P, b));
    }
    if (rc)
        free_contents(v);
    return rc;
}

static void set_limits(const struct cli_json_limits *lim, size_t *bytes,
                       unsigned *depth, size_t *values)
{
    *bytes = lim && lim->max_bytes ? lim->max_bytes : DEF_MAX_BYTES;
    *depth = lim && lim->max_depth ? lim->max_depth : DEF_MAX_DEPTH;
    *values = lim && lim->max_values ? lim->max_values : DEF_MAX_VALUES;
}

int cli_json_parse(const char *buf, size_t len, const struct cli_json_limits *lim,
                   struct cli_json **out, struct cli_json_error *err)
{
    struct parser P;
    size_t max_bytes;
    memset(&P, 0, sizeof P);
    memset(err, 0, sizeof *err);
    *out = NULL;
    set_limits(lim, &max_bytes, &P.max_depth, &P.max_values);
    P.base = P.p = P.line_start = buf;
    P.end = buf + len;
    P.line = 1;
    P.err = err;
    if (len > max_bytes) {
        fail(&P, "input larger than %zu bytes", max_bytes);
        err->line = err->col = 0;
        return CLI_JSON_ESYNTAX;
    }
    if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
        P.p = P.line_start = buf + 3;
    struct cli_json *v = malloc(sizeof *v);
    if (!v) {
        fail(&P, "out of memory");
        return CLI_JSON_ESYNTAX;
    }
    if (parse_value(&P, v)) {
        free(v);
        return CLI_JSON_ESYNTAX;
    }
    skip_ws(&P);
    if (P.p < P.end) {
        char b[16];
        fail(&P, "unexpected %s after the JSON value", found(&P, b));
        cli_json_free(v);
        return CLI_JSON_ESYNTAX;
    }
    *out = v;
    return CLI_JSON_OK;
}

int cli_json_parse_file(const char *path, const struct cli_json_limits *lim,
                        struct cli_json **out, struct cli_json_error *err)
{
    size_t max_bytes, values;
    unsigned depth;
    set_limits(lim, &max_bytes, &depth, &values);
    memset(err, 0, sizeof *err);
    *out = NULL;
    int is_stdin = !strcmp(path, "-");
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "cannot open: %s", strerror(errno));
        return CLI_JSON_EIO;
    }
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int rc = CLI_JSON_OK;
    for (;;) {
        if (n == cap) {
            if (cap > max_bytes) {
                snprintf(err->msg, sizeof err->msg, "larger than %zu bytes", max_bytes);
                rc = CLI_JSON_EIO;
                break;
            }
            size_t nc = cap ? cap * 2 : 65536;
            char *nb = realloc(buf, nc);
            if (!nb) {
                snprintf(err->msg, sizeof err->msg, "out of memory");
                rc = CLI_JSON_EIO;
                break;
            }
            buf = nb;
            cap = nc;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                snprintf(err->msg, sizeof err->msg, "cannot read: %s", strerror(errno));
                rc = CLI_JSON_EIO;
            }
            break;
        }
    }
    if (!is_stdin)
        fclose(f);
    if (rc == CLI_JSON_OK && n > max_bytes) {
        snprintf(err->msg, sizeof err->msg, "larger than %zu bytes", max_bytes);
        rc = CLI_JSON_EIO;
    }
    if (rc == CLI_JSON_OK)
        rc = cli_json_parse(buf ? buf : "", n, lim, out, err);
    free(buf);
    return rc;
}

const struct cli_json *cli_json_get(const struct cli_json *v, const char *key)
{
    if (!v || v->type != CLI_JSON_OBJECT)
        return NULL;
    size_t len = strlen(key);
    for (size_t i = 0; i < v->n; i++)
        if (v->key[i].len == len && !memcmp(v->key[i].s, key, len))
            return &v->item[i];
    return NULL;
}

const char *cli_json_type_name(enum cli_json_type t)
{
    static const char *const names[] = { "null", "false", "true", "number",
                                         "string", "array", "object" };
    return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}
