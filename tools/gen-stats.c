/* gen-stats: the statistics structs of include/lockstep.h and the tables of
 * docs/stats.md, generated from csim/api/stats.def (make gen-stats; make
 * test-gen checks the committed files are current).
 *   gen-stats header|doc IN OUT
 * copies IN to OUT with the text between its two markers replaced. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { R_GROUP, R_END, R_U64, R_ARR, R_MAP, R_DBL, R_INT, R_TEXT, R_SUB, R_SUBS,
            R_JSON, R_JMAP, R_OBJ, R_OBJEND, R_IF, R_ELSE, R_ENDIF };

/* One row of stats.def, its arguments as written. */
struct row {
    enum kind kind;
    const char *grp;    /* the group (struct type) it belongs to */
    const char *type;   /* C type of a member; kind of a JSON row */
    const char *name;   /* member name */
    const char *dim;    /* array size */
    const char *key;    /* JSON key */
    const char *how;    /* how two runs combine */
    const char *expr;   /* JSON rows: the value; groups, objects, ifs: when */
    const char *names;  /* element names "a|b|c" */
    const char *doc;
};

static const char block_names[] =
#define LS_BLOCK(id, name, group, title, when) #name "|"
#include "lockstep_blocks.def"
#undef LS_BLOCK
    "";

static const struct row rows[] = {
#define LS_STATS_GROUP(T, when, d) { .kind = R_GROUP, .grp = #T, .expr = #when, .doc = d },
#define LS_STATS_END(T) { .kind = R_END, .grp = #T },
#define LS_STAT_U64(T, nm, k, h, d) \
    { .kind = R_U64, .grp = #T, .type = "uint64_t", .name = #nm, .key = k, .how = #h, .doc = d },
#define LS_STAT_ARR(T, nm, n, k, h, d) { .kind = R_ARR, .grp = #T, .type = "uint64_t", \
    .name = #nm, .dim = #n, .key = k, .how = #h, .doc = d },
#define LS_STAT_MAP(T, nm, n, nms, k, h, d) { .kind = R_MAP, .grp = #T, .type = "uint64_t", \
    .name = #nm, .dim = #n, .names = nms, .key = k, .how = #h, .doc = d },
#define LS_STAT_DBL(T, nm, k, h, d) \
    { .kind = R_DBL, .grp = #T, .type = "double", .name = #nm, .key = k, .how = #h, .doc = d },
#define LS_STAT_INT(T, nm, h, d) \
    { .kind = R_INT, .grp = #T, .type = "int", .name = #nm, .key = "", .how = #h, .doc = d },
#define LS_STAT_TEXT(T, nm, n, h, d) { .kind = R_TEXT, .grp = #T, .type = "char", \
    .name = #nm, .dim = #n, .key = "", .how = #h, .doc = d },
#define LS_STAT_SUB(T, ST, nm, k, d) \
    { .kind = R_SUB, .grp = #T, .type = #ST, .name = #nm, .key = k, .doc = d },
#define LS_STAT_SUBS(T, ST, nm, n, nms, k, d) { .kind = R_SUBS, .grp = #T, .type = #ST, \
    .name = #nm, .dim = #n, .names = nms, .key = k, .doc = d },
#define LS_STAT_JSON(T, k, kd, e, d) \
    { .kind = R_JSON, .grp = #T, .type = #kd, .key = k, .expr = #e, .doc = d },
#define LS_STAT_JSON_MAP(T, k, n, nms, e, d) { .kind = R_JMAP, .grp = #T, .dim = #n, \
    .names = nms, .key = k, .expr = #e, .doc = d },
#define LS_STAT_OBJ(T, k, when, d) \
    { .kind = R_OBJ, .grp = #T, .key = k, .expr = #when, .doc = d },
#define LS_STAT_OBJ_END(T) { .kind = R_OBJEND, .grp = #T },
#define LS_STAT_IF(T, cond, d) { .kind = R_IF, .grp = #T, .expr = #cond, .doc = d },
#define LS_STAT_ELSE(T, d) { .kind = R_ELSE, .grp = #T, .doc = d },
#define LS_STAT_ENDIF(T) { .kind = R_ENDIF, .grp = #T },
#include "api/stats.def"
};
#define NROWS (sizeof rows / sizeof rows[0])

/* ------------------------------------------------------------ header */

/* Writes doc as a comment that starts at column col (the cursor is there)
 * and continues on lines that start with lead; wrapped at column 78. */
static void comment(FILE *o, const char *doc, int col, const char *lead)
{
    const int width = 78;
    int c = col + 3, first = 1;
    fputs("/* ", o);
    for (const char *p = doc; *p;) {
        int w = (int)strcspn(p, " ");
        if (!first && c + 1 + w > width - 3) {
            fprintf(o, "\n%s", lead);
            c = (int)strlen(lead);
            first = 1;
        }
        if (!first) {
            fputc(' ', o);
            c++;
        }
        fprintf(o, "%.*s", w, p);
        c += w;
        first = 0;
        p += w;
        while (*p == ' ')
            p++;
    }
    fputs(" */\n", o);
}

static void gen_header(FILE *o)
{
    const char *cond = NULL;       /* the label of the IF branch we are in */
    for (size_t i = 0; i < NROWS; i++) {
        const struct row *r = &rows[i];
        char decl[160];
        switch (r->kind) {
        case R_IF:
        case R_ELSE:
            cond = r->doc;
            continue;
        case R_ENDIF:
            cond = NULL;
            continue;
        case R_GROUP:
            comment(o, r->doc, 0, " * ");
            fprintf(o, "typedef struct %s {\n", r->grp);
            continue;
        case R_END:
            fprintf(o, "} %s;\n\n", r->grp);
            continue;
        case R_U64: case R_DBL: case R_INT: case R_SUB:
            snprintf(decl, sizeof decl, "    %s %s;", r->type, r->name);
            break;
        case R_ARR: case R_MAP: case R_TEXT: case R_SUBS:
            snprintf(decl, sizeof decl, "    %s %s[%s];", r->type, r->name, r->dim);
            break;
        default:
            continue;   /* JSON only */
        }
        /* comments at column 33, continued at 36 */
        int len = (int)strlen(decl), col = len < 33 ? 33 : len + 1;
        fprintf(o, "%s%*s", decl, col - len, "");
        char doc[1024];
        snprintf(doc, sizeof doc, "%s%s%s", cond ? cond : "", cond ? ": " : "", r->doc);
        comment(o, doc, col, "                                    ");
    }
}

/* ------------------------------------------------------------ docs */

/* Writes s with '|' escaped (a markdown table cell). */
static void cell(FILE *o, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', o);
        fputc(*s, o);
    }
}

/* Writes the names of "a|b|c" as `a`, `b`, `c`. */
static void name_list(FILE *o, const char *names)
{
    int first = 1;
    for (const char *p = names; *p;) {
        size_t n = strcspn(p, "|");
        if (n)
            fprintf(o, "%s`%.*s`", first ? "" : ", ", (int)n, p);
        first = first && !n;
        p += n + (p[n] == '|');
    }
}

static const char *how_text(const char *how)
{
    static const char *const t[][2] = {
        { "SUM", "sum" }, { "MAX", "max" }, { "KEEP", "the later nonzero" },
        { "FIRST", "the first non-empty" }, { "NONE", "recomputed" },
        { "BACKEND", "the latest clocked run's" } };
    for (size_t i = 0; how && i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(how, t[i][0]))
            return t[i][1];
    return "";
}

/* The JSON keys through which group grp is reached ("l1d, l2"). */
static void keys_of(FILE *o, const char *grp)
{
    int n = 0;
    for (size_t i = 0; i < NROWS; i++) {
        const struct row *r = &rows[i];
        if ((r->kind == R_SUB || r->kind == R_SUBS) && !strcmp(r->type, grp)) {
            if (r->kind == R_SUBS && !r->key[0]) {
                fputs(n++ ? ", " : "", o);
                name_list(o, r->names);
            } else {
                fprintf(o, "%s`%s`%s", n++ ? ", " : "", r->key,
                        r->kind == R_SUBS ? " (an object per element, by name)" : "");
            }
        }
    }
}

static void gen_doc(FILE *o)
{
    /* ls_stats (the statistics members) first, then the groups it holds */
    for (int pass = 0; pass < 2; pass++) {
        char path[256] = "";
        size_t plen[8] = { 0 };
        int depth = 0;
        const char *cond = NULL;
        int skip = 1;
        for (size_t i = 0; i < NROWS; i++) {
            const struct row *r = &rows[i];
            if (r->kind == R_GROUP) {
                skip = (pass == 0) != !strcmp(r->grp, "ls_stats");
                if (skip)
                    continue;
                if (pass == 0) {
                    fprintf(o, "### Statistics members (`ls_stats`)\n\n");
                } else {
                    fprintf(o, "### `%s`: ", r->grp);
                    keys_of(o, r->grp);
                    fprintf(o, "\n\n");
                }
                fprintf(o, "%s", r->doc);
                if (strcmp(r->expr, "1"))
                    fprintf(o, " In the JSON when `%s`.", r->expr);
                fprintf(o, "\n\n| key | C member | runs combine | definition |\n"
                        "|---|---|---|---|\n");
                continue;
            }
            if (skip)
                continue;
            char key[300];
            snprintf(key, sizeof key, "%s%s", path, r->key ? r->key : "");
            switch (r->kind) {
            case R_END:
                fputc('\n', o);
                break;
            case R_OBJ:
                plen[depth++] = strlen(path);
                snprintf(path + strlen(path), sizeof path - strlen(path), "%s.", r->key);
                fprintf(o, "| `%s` | | | object: ", key);
                cell(o, r->doc);
                if (strcmp(r->expr, "1")) {
                    fprintf(o, "; when `");
                    cell(o, r->expr);
                    fputc('`', o);
                }
                fprintf(o, " |\n");
                break;
            case R_OBJEND:
                path[plen[--depth]] = 0;
                break;
            case R_IF:
            case R_ELSE:
                cond = r->doc;
                break;
            case R_ENDIF:
                cond = NULL;
                break;
            default: {
                if (r->key[0])
                    fprintf(o, "| `%s` | ", key);
                else if (r->kind == R_SUBS)
                    fputs("| ", o), name_list(o, r->names), fputs(" | ", o);
                else
                    fputs("| | ", o);
                if (r->kind == R_JSON || r->kind == R_JMAP) {
                    fputs("= `", o);
                    cell(o, r->expr);
                    fputs("` | | ", o);
                } else {
                    fprintf(o, "`%s%s%s%s` | %s | ", r->name, r->dim ? "[" : "",
                            r->dim ? r->dim : "", r->dim ? "]" : "",
                            r->kind == R_SUB || r->kind == R_SUBS ? "by its rows"
                                                                   : how_text(r->how));
                }
                if (cond)
                    fprintf(o, "%s: ", cond);
                if (r->kind == R_MAP || r->kind == R_JMAP) {
                    fputs("object of ", o);
                    name_list(o, r->names);
                    fputs(": ", o);
                } else if (r->kind == R_ARR && r->key[0]) {
                    fprintf(o, "list of %s: ", r->dim);
                } else if (r->kind == R_SUB || r->kind == R_SUBS) {
                    fprintf(o, "`%s` object: ", r->type);
                } else if (r->kind == R_JSON && !strcmp(r->type, "NOTE")) {
                    fputs("string or null: ", o);
                }
                cell(o, r->doc);
                if (!r->key[0] && r->kind != R_SUBS)
                    fputs(" (not in the JSON by itself)", o);
                fputs(" |\n", o);
            }
            }
        }
    }
}

/* ------------------------------------------------------------ splice */

static const char *const markers[2][2] = {
    { "/* ---- generated from csim/api/stats.def by make gen-stats: do not edit ---- */\n",
      "/* ---- end of the generated statistics structs ---- */\n" },
    { "<!-- generated from csim/api/stats.def by make gen-stats: do not edit -->\n",
      "<!-- end of the generated tables -->\n" } };

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, k;
    char *b = malloc(cap + 1);
    while (b && (k = fread(b + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            char *nb = realloc(b, 2 * cap + 1);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (b)
        b[n] = 0;
    return b;
}

int main(int argc, char **argv)
{
    int doc = argc == 4 && !strcmp(argv[1], "doc");
    if (argc != 4 || (!doc && strcmp(argv[1], "header"))) {
        fprintf(stderr, "usage: gen-stats header|doc IN OUT\n");
        return 2;
    }
    char *in = slurp(argv[2]);
    if (!in) {
        fprintf(stderr, "gen-stats: cannot read %s\n", argv[2]);
        return 1;
    }
    char *a = strstr(in, markers[doc][0]);
    char *b = a ? strstr(a, markers[doc][1]) : NULL;
    if (!b) {
        fprintf(stderr, "gen-stats: %s: no \"%.*s\" ... \"%.*s\" markers\n", argv[2],
                (int)strlen(markers[doc][0]) - 1, markers[doc][0],
                (int)strlen(markers[doc][1]) - 1, markers[doc][1]);
        return 1;
    }
    FILE *o = fopen(argv[3], "w");
    if (!o) {
        fprintf(stderr, "gen-stats: cannot write %s\n", argv[3]);
        return 1;
    }
    a += strlen(markers[doc][0]);
    fwrite(in, 1, (size_t)(a - in), o);
    if (doc)
        gen_doc(o);
    else
        gen_header(o);
    fputs(b, o);
    int bad = ferror(o);
    bad |= fclose(o) != 0;
    free(in);
    if (bad) {
        fprintf(stderr, "gen-stats: error writing %s\n", argv[3]);
        return 1;
    }
    return 0;
}
