/* Statistics: ls_stats_add and the --stats-json writer, generated from the
 * rows of csim/api/stats.def, and the run and launch objects around them
 * (docs/stats.md). The structs of include/lockstep.h are checked against
 * the rows at compile time. */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "api/api_int.h"
#include "cfg/cfg.h"
#include "cosim/cosim.h"
#include "mem/mem.h"

/* ------------------------------------------------ the layout, checked */

/* The structs as stats.def describes them ... */
#include "api/stats_rows.h"
#include "api/stats_members.h"
#define LS_STATS_GROUP(T, when, doc) struct def_##T {
#define LS_STATS_END(T) };
#define LS_STAT_U64(T, name, ...) uint64_t name;
#define LS_STAT_ARR(T, name, n, ...) uint64_t name[n];
#define LS_STAT_MAP(T, name, n, ...) uint64_t name[n];
#define LS_STAT_DBL(T, name, ...) double name;
#define LS_STAT_INT(T, name, ...) int name;
#define LS_STAT_TEXT(T, name, n, ...) char name[n];
#define LS_STAT_SUB(T, ST, name, ...) ST name;
#define LS_STAT_SUBS(T, ST, name, n, ...) ST name[n];
#include "api/stats.def"

/* ... and the public ones member by member: same offset, size and type */
#define STATS_SAME(T, name, type)                                               \
    _Static_assert(offsetof(T, name) == offsetof(struct def_##T, name) &&        \
                   sizeof(((T *)0)->name) == sizeof(((struct def_##T *)0)->name) && \
                   _Generic(&((T *)0)->name, type: 1, default: 0),               \
                   "include/lockstep.h: " #T "." #name " differs from "         \
                   "csim/api/stats.def: run make gen-stats");
#include "api/stats_rows.h"
#include "api/stats_members.h"
#define LS_STATS_END(...)
#define LS_STATS_GROUP(T, when, doc)                                            \
    _Static_assert(sizeof(T) == sizeof(struct def_##T), "include/lockstep.h: "  \
                   #T " differs from csim/api/stats.def: run make gen-stats");
#define LS_STAT_U64(T, name, ...) STATS_SAME(T, name, uint64_t *)
#define LS_STAT_ARR(T, name, n, ...) STATS_SAME(T, name, uint64_t (*)[n])
#define LS_STAT_MAP(T, name, n, ...) STATS_SAME(T, name, uint64_t (*)[n])
#define LS_STAT_DBL(T, name, ...) STATS_SAME(T, name, double *)
#define LS_STAT_INT(T, name, ...) STATS_SAME(T, name, int *)
#define LS_STAT_TEXT(T, name, n, ...) STATS_SAME(T, name, char (*)[n])
#define LS_STAT_SUB(T, ST, name, ...) STATS_SAME(T, name, ST *)
#define LS_STAT_SUBS(T, ST, name, n, ...) STATS_SAME(T, name, ST (*)[n])
#include "api/stats.def"

/* ------------------------------------------------------- combining */

#define COMBINE_SUM(a, b) ((a) += (b))
#define COMBINE_MAX(a, b) ((a) = (b) > (a) ? (b) : (a))
#define COMBINE_KEEP(a, b) ((a) = (b) ? (b) : (a))
#define COMBINE_NONE(a, b) ((void)(a), (void)(b))
/* the backend of the later run when it clocked the block, else the
 * earlier one's; -1 when neither did (instances, combined first, is max) */
#define COMBINE_BACKEND(a, b) ((a) = acc->instances ? (x->instances ? (b) : (a)) : -1)
#define COMBINE_FIRST(a, b) \
    ((void)(!(a)[0] && (b)[0] ? memcpy((a), (b), sizeof(a)) : NULL))

#include "api/stats_rows.h"
#include "api/stats_members.h"
#define LS_STATS_GROUP(T, when, doc) \
    static void add_##T(T *acc, const T *x) {
#define LS_STATS_END(T) }
#define LS_STAT_U64(T, name, key, how, doc) COMBINE_##how(acc->name, x->name);
#define LS_STAT_ARR(T, name, n, key, how, doc) \
    for (size_t i_ = 0; i_ < (n); i_++) COMBINE_##how(acc->name[i_], x->name[i_]);
#define LS_STAT_MAP(T, name, n, names, key, how, doc) \
    for (size_t i_ = 0; i_ < (n); i_++) COMBINE_##how(acc->name[i_], x->name[i_]);
#define LS_STAT_DBL(T, name, key, how, doc) COMBINE_##how(acc->name, x->name);
#define LS_STAT_INT(T, name, how, doc) COMBINE_##how(acc->name, x->name);
#define LS_STAT_TEXT(T, name, n, how, doc) COMBINE_##how(acc->name, x->name);
#define LS_STAT_SUB(T, ST, name, key, doc) add_##ST(&acc->name, &x->name);
#define LS_STAT_SUBS(T, ST, name, n, names, key, doc) \
    for (size_t i_ = 0; i_ < (n); i_++) add_##ST(&acc->name[i_], &x->name[i_]);
#include "api/stats.def"

void ls_stats_add(ls_stats *acc, const ls_stats *s, unsigned warp_size)
{
    if (!acc || !s)
        return;
    add_ls_stats(acc, s);
    acc->ipc = acc->cycles ? (double)acc->warp_insts / (double)acc->cycles : 0.0;
    unsigned ws = warp_size ? warp_size : 32;
    acc->simd_util = acc->warp_insts
        ? (double)acc->thread_insts / ((double)acc->warp_insts * ws) : 0.0;
}

/* ----------------------------------------------------- JSON output */

/* The writer: one member per line at depth 0 (the statistics members of a
 * run or launch object, each line ending with a comma), members separated
 * by ", " inside objects. */
struct jw {
    FILE *f;
    int in;                    /* indent of the depth-0 lines             */
    int depth;
    int first[8];              /* no member written yet at this depth     */
};

static void jw_key(struct jw *w, const char *key, size_t len)
{
    if (w->depth == 0)
        fprintf(w->f, "%*s", w->in, "");
    else if (!w->first[w->depth])
        fputs(", ", w->f);
    w->first[w->depth] = 0;
    fprintf(w->f, "\"%.*s\": ", (int)len, key);
}

static void jw_done(struct jw *w)
{
    if (w->depth == 0)
        fputs(",\n", w->f);
}

static void jw_open(struct jw *w, const char *key, size_t len)
{
    jw_key(w, key, len);
    fputc('{', w->f);
    w->first[++w->depth] = 1;
}

static void jw_close(struct jw *w)
{
    fputc('}', w->f);
    w->depth--;
    jw_done(w);
}

/* The characters of a JSON string literal for len bytes of s. */
static void json_chars(FILE *f, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
}

void api_json_str(FILE *f, const char *s, size_t len)
{
    fputc('"', f);
    json_chars(f, s, len);
    fputc('"', f);
}

/* JSON has no NaN/Inf: written as null. */
static void jw_NUM(struct jw *w, double v)
{
    if (isfinite(v))
        fprintf(w->f, "%.6g", v);
    else
        fputs("null", w->f);
}

static void jw_U64(struct jw *w, uint64_t v)
{
    fprintf(w->f, "%llu", (unsigned long long)v);
}

static void jw_list(struct jw *w, const uint64_t *v, size_t n)
{
    fputc('[', w->f);
    for (size_t i = 0; i < n; i++)
        fprintf(w->f, "%s%llu", i ? ", " : "", (unsigned long long)v[i]);
    fputc(']', w->f);
}

/* Name i of "a|b|c" into *len; "?" when there is none. */
static const char *name_of(const char *names, size_t i, size_t *len)
{
    const char *p = names;
    for (; i && *p; i--)
        p += strcspn(p, "|") + (p[strcspn(p, "|")] == '|');
    *len = strcspn(p, "|");
    if (!*len) {
        *len = 1;
        return "?";
    }
    return p;
}

/* A string value: prefix + text, or null when null_if_empty and text is "". */
struct jtext {
    const char *pre, *s;
    size_t n;
    int null_if_empty;
};

static struct jtext text(const char *s)
{
    return (struct jtext){ "", s, strlen(s), 0 };
}

static struct jtext nth(const char *names, int i)
{
    struct jtext t = { "", NULL, 0, 0 };
    t.s = name_of(names, i < 0 ? 1000 : (size_t)i, &t.n);
    return t;
}

static struct jtext note(const char *pre, const char *s)
{
    return (struct jtext){ pre, s, strlen(s), 1 };
}

static void jw_STR(struct jw *w, struct jtext t)
{
    if (t.null_if_empty && !t.n) {
        fputs("null", w->f);
        return;
    }
    fputc('"', w->f);
    json_chars(w->f, t.pre, strlen(t.pre));
    json_chars(w->f, t.s, t.n);
    fputc('"', w->f);
}
#define jw_NOTE jw_STR

/* ---- what the JSON-only rows compute with (stats.def) ---- */

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

/* millionths of E_v -> E_v */
static double e_v(uint64_t v)
{
    return (double)v * 1e-6;
}

/* picojoules -> joules */
static double pj(uint64_t v)
{
    return (double)v * 1e-12;
}

static double avg_sec(const ls_cache_stats *a, const ls_cache_stats *b)
{
    double lines = 0, sectors = 0;
    for (unsigned i = 0; i <= LS_MAX_SECTORS; i++) {
        double n = (double)a->used_sectors_hist[i] + (b ? (double)b->used_sectors_hist[i] : 0.0);
        lines += n;
        sectors += n * i;
    }
    return lines ? sectors / lines : 0.0;
}

/* hits per line over the lines whose life ended (PCA, Fig 6.6) */
static double block_reuse(const ls_cache_stats *a)
{
    double lines = 0;
    for (unsigned i = 0; i <= LS_MAX_SECTORS; i++)
        lines += (double)a->used_sectors_hist[i];
    return lines ? (double)a->reuse_hits / lines : 0.0;
}

static double dram_j(const ls_power_stats *p)
{
    return mem_power_dram_j(p);
}

static double gpu_j(const ls_power_stats *p)
{
    return p->gpu_leak + p->gpu_const + p->gpu_dyn;
}

/* the names of the blocks, by LS_BLK_* (the cosim object's keys) */
static const char block_names[] =
#define LS_BLOCK(id, name, group, title, when) #name "|"
#include "lockstep_blocks.def"
#undef LS_BLOCK
    "";

/* ---- the writer of each group: when it is written, and its members ---- */

#include "api/stats_rows.h"
#undef LS_STATS_GROUP
#define LS_STATS_GROUP(T, when, doc)                                          \
    static inline int when_##T(const T *x, const ls_stats *s)                \
    {                                                                         \
        (void)x;                                                              \
        (void)s;                                                              \
        return (when) != 0;                                                   \
    }
#include "api/stats.def"

#define KEY(k) k, sizeof(k) - 1
#include "api/stats_rows.h"
#undef LS_STATS_GROUP
#undef LS_STATS_END
#undef LS_STAT_U64
#undef LS_STAT_ARR
#undef LS_STAT_MAP
#undef LS_STAT_DBL
#undef LS_STAT_SUB
#undef LS_STAT_SUBS
#undef LS_STAT_JSON
#undef LS_STAT_JSON_MAP
#undef LS_STAT_OBJ
#undef LS_STAT_OBJ_END
#undef LS_STAT_IF
#undef LS_STAT_ELSE
#undef LS_STAT_ENDIF
#define LS_STATS_GROUP(T, when, doc)                                          \
    static void json_##T(struct jw *w, const T *x, const ls_stats *s)        \
    {                                                                         \
        (void)x;                                                              \
        (void)s;
#define LS_STATS_END(T) }
#define LS_STAT_U64(T, name, key, how, doc) \
    if (key[0]) { jw_key(w, KEY(key)); jw_U64(w, x->name); jw_done(w); }
#define LS_STAT_ARR(T, name, n, key, how, doc) \
    if (key[0]) { jw_key(w, KEY(key)); jw_list(w, x->name, n); jw_done(w); }
#define LS_STAT_MAP(T, name, n, names, key, how, doc)                        \
    if (key[0]) {                                                             \
        jw_open(w, KEY(key));                                                 \
        for (size_t i_ = 0; i_ < (n); i_++) {                                 \
            size_t l_;                                                        \
            const char *k_ = name_of(names, i_, &l_);                         \
            jw_key(w, k_, l_);                                                \
            jw_U64(w, x->name[i_]);                                           \
        }                                                                     \
        jw_close(w);                                                          \
    }
#define LS_STAT_DBL(T, name, key, how, doc) \
    if (key[0]) { jw_key(w, KEY(key)); jw_NUM(w, x->name); jw_done(w); }
#define LS_STAT_SUB(T, ST, name, key, doc)                                   \
    if (when_##ST(&x->name, s)) {                                             \
        jw_open(w, KEY(key));                                                 \
        json_##ST(w, &x->name, s);                                            \
        jw_close(w);                                                          \
    }
#define LS_STAT_SUBS(T, ST, name, n, names, key, doc)                        \
    if (key[0])                                                               \
        jw_open(w, KEY(key));                                                 \
    for (size_t i_ = 0; i_ < (n); i_++) {                                     \
        if (!when_##ST(&x->name[i_], s))                                      \
            continue;                                                         \
        size_t l_;                                                            \
        const char *k_ = name_of(names, i_, &l_);                             \
        jw_open(w, k_, l_);                                                   \
        json_##ST(w, &x->name[i_], s);                                        \
        jw_close(w);                                                          \
    }                                                                         \
    if (key[0])                                                               \
        jw_close(w);
#define LS_STAT_JSON(T, key, kind, expr, doc) \
    { jw_key(w, KEY(key)); jw_##kind(w, expr); jw_done(w); }
#define LS_STAT_JSON_MAP(T, key, n, names, expr, doc)                        \
    jw_open(w, KEY(key));                                                     \
    for (size_t i = 0; i < (n); i++) {                                        \
        size_t l_;                                                            \
        const char *k_ = name_of(names, i, &l_);                              \
        jw_key(w, k_, l_);                                                    \
        jw_NUM(w, expr);                                                      \
    }                                                                         \
    jw_close(w);
#define LS_STAT_OBJ(T, key, when, doc) if (when) { jw_open(w, KEY(key));
#define LS_STAT_OBJ_END(T) jw_close(w); }
#define LS_STAT_IF(T, cond, doc) if (cond) {
#define LS_STAT_ELSE(T, doc) } else {
#define LS_STAT_ENDIF(T) }
#include "api/stats.def"

/* "coverage": the bins of cosim_cover.def of every block the run clocked,
 * by block and bin name (a bin not reached: 0). */
static void json_cover(struct jw *w, const ls_stats *s)
{
    int any = 0;
    for (unsigned i = 0; i < LS_COVER_BINS && !any; i++)
        any = s->cosim[cosim_cover_block(i)].instances != 0;
    if (!any)
        return;
    jw_open(w, KEY("coverage"));
    for (int b = 0; b < LS_BLK_COUNT; b++) {
        if (!s->cosim[b].instances)
            continue;
        int open = 0;
        for (unsigned i = 0; i < LS_COVER_BINS; i++) {
            if (cosim_cover_block(i) != b)
                continue;
            if (!open) {
                const char *n = ls_block_name(b);
                jw_open(w, n, strlen(n));
                open = 1;
            }
            const char *n = cosim_cover_name(i);
            jw_key(w, n, strlen(n));
            jw_U64(w, s->cover[i]);
        }
        if (open)
            jw_close(w);
    }
    jw_close(w);
}

void api_json_stats(FILE *f, int in, const ls_stats *s)
{
    struct jw w = { f, in, 0, { 1 } };
    json_ls_stats(&w, s, s);
    json_cover(&w, s);
}

/* ---------------------------------------- run and launch objects */

static void json_string(FILE *f, const char *s)
{
    api_json_str(f, s ? s : "", s ? strlen(s) : 0);
}

static void json_num(FILE *f, double v)
{
    struct jw w = { f, 0, 1, { 0 } };
    jw_NUM(&w, v);
}

static double rate(uint64_t n, double wall_s)
{
    return wall_s > 0 ? (double)n / wall_s : 0.0;
}

static void json_digest(FILE *f, int have, uint64_t d)
{
    if (have)
        fprintf(f, "\"%016llx\"", (unsigned long long)d);
    else
        fputs("null", f);
}

static void json_sim(FILE *f, const ls_stats *s, double wall_s)
{
    fprintf(f, "{\"wall_s\": ");
    json_num(f, wall_s);
    fprintf(f, ", \"thread_insts_per_s\": ");
    json_num(f, rate(s->thread_insts, wall_s));
    fprintf(f, ", \"warp_insts_per_s\": ");
    json_num(f, rate(s->warp_insts, wall_s));
    fprintf(f, ", \"cycles_per_s\": ");
    json_num(f, rate(s->cycles, wall_s));
    fprintf(f, "}");
}

static void json_access(FILE *f, const ls_check_access *a)
{
    fprintf(f, "{\"cta\": [%u, %u, %u], \"tid\": [%u, %u, %u], \"pc\": %d, "
            "\"line\": %u, \"func\": ", a->cta[0], a->cta[1], a->cta[2],
            a->tid[0], a->tid[1], a->tid[2], a->pc, a->line);
    json_string(f, a->func);
    fprintf(f, ", \"src\": ");
    json_string(f, a->src);
    fprintf(f, ", \"write\": %s}", a->write ? "true" : "false");
}

/* "checks": the checks that were on and every finding (docs/stats.md);
 * written only when racecheck, synccheck or initcheck was on. */
static void json_checks(FILE *f, int in, const struct api_run *r)
{
    if (!(r->checks_on & ~(unsigned)CFG_CHECK_MEMCHECK))
        return;
    fprintf(f, "%*s\"checks\": {\"enabled\": [", in, "");
    for (unsigned b = 0, k = 0; r->checks_on >> b; b++) {
        size_t n;
        const char *nm = name_of(CFG_CHECK_CHOICES, b, &n);
        int plus = *nm == '+';      /* an opt-in check */
        nm += plus;
        n -= (size_t)plus;
        if (r->checks_on >> b & 1)
            fprintf(f, "%s\"%.*s\"", k++ ? ", " : "", (int)n, nm);
    }
    fprintf(f, "], \"findings\": %zu, \"list\": [", r->nchk);
    for (size_t i = 0; i < r->nchk; i++) {
        const ls_check_finding *x = &r->chk[i];
        fprintf(f, "%s\n%*s{\"check\": ", i ? "," : "", in + 2, "");
        json_string(f, x->check);
        fprintf(f, ", \"kind\": ");
        json_string(f, x->kind);
        fprintf(f, ", \"kernel\": ");
        json_string(f, x->kernel);
        fprintf(f, ", \"launch\": %u, \"cta\": [%u, %u, %u], \"space\": ", x->launch,
                x->cta[0], x->cta[1], x->cta[2]);
        json_string(f, x->space);
        fprintf(f, ", \"addr\": %llu, \"lanes\": %u, \"count\": %llu, \"accesses\": [",
                (unsigned long long)x->addr, (unsigned)x->lanes,
                (unsigned long long)x->count);
        json_access(f, &x->a);
        if (x->naccess > 1) {
            fprintf(f, ", ");
            json_access(f, &x->b);
        }
        fprintf(f, "]}");
    }
    if (r->nchk)
        fprintf(f, "\n%*s", in, "");
    fprintf(f, "]},\n");
}

void api_json_run(FILE *f, const struct api_run *r, int indent)
{
    const ls_stats *s = r->total;
    int in = indent + 2;
    fprintf(f, "%*s{\n", indent, "");
    fprintf(f, "%*s\"schema\": %d,\n", in, "", API_STATS_SCHEMA);
    fprintf(f, "%*s\"workload\": ", in, "");
    json_string(f, r->workload);
    fprintf(f, ",\n%*s\"category\": ", in, "");
    json_string(f, r->category);
    fprintf(f, ",\n%*s\"size\": ", in, "");
    json_string(f, r->size);
    fprintf(f, ",\n%*s\"seed\": %llu,\n", in, "", (unsigned long long)r->seed);
    fprintf(f, "%*s\"mode\": ", in, "");
    json_string(f, r->mode ? r->mode : "functional");
    fprintf(f, ",\n%*s\"config\": ", in, "");
    json_string(f, r->config ? r->config : "builtin");
    fprintf(f, ",\n%*s\"pass\": %s,\n", in, "", r->pass ? "true" : "false");
    fprintf(f, "%*s\"msg\": ", in, "");
    json_string(f, r->msg);
    fprintf(f, ",\n%*s\"nlaunches\": %u,\n", in, "", r->nlaunches);
    api_json_stats(f, in, s);
    fprintf(f, "%*s\"mem_digest\": ", in, "");
    json_digest(f, r->have_digest, r->mem_digest);
    fprintf(f, ",\n%*s\"launches\": [", in, "");
    for (unsigned i = 0; i < r->nlaunch_rec; i++) {
        const struct api_launch *l = &r->launch[i];
        int in2 = in + 4;
        fprintf(f, "%s\n%*s{\n", i ? "," : "", in + 2, "");
        fprintf(f, "%*s\"index\": %u,\n%*s\"kernel\": ", in2, "", i + 1, in2, "");
        json_string(f, l->kernel);
        fprintf(f, ",\n%*s\"status\": ", in2, "");
        json_string(f, ls_status_name(l->status));
        fprintf(f, ",\n");
        api_json_stats(f, in2, &l->s);
        fprintf(f, "%*s\"mem_digest\": ", in2, "");
        json_digest(f, l->have_digest, l->mem_digest);
        fprintf(f, ",\n%*s\"sim\": ", in2, "");
        json_sim(f, &l->s, l->s.wall_s);
        fprintf(f, "\n%*s}", in + 2, "");
    }
    if (r->nlaunch_rec)
        fprintf(f, "\n%*s", in, "");
    fprintf(f, "],\n");
    json_checks(f, in, r);
    fprintf(f, "%*s\"sim\": ", in, "");
    json_sim(f, s, r->wall_s);
    fprintf(f, "\n%*s}", indent, "");
}

void api_print_cosim(FILE *f, const ls_stats *s)
{
    for (int b = 0; b < LS_BLK_COUNT; b++) {
        const ls_cosim_stats *a = &s->cosim[b];
        if (!a->instances)
            continue;
        fprintf(f, "cosim %-10s %-8s %3llu instances, %12llu cycles %s, %12llu idle "
                "skipped, %9llu transactions, %llu mismatches\n", ls_block_name(b),
                cosim_backend_name(a->backend), (unsigned long long)a->instances,
                (unsigned long long)a->cycles,
                a->backend >= COSIM_BE_LOCKSTEP ? "compared" : "stepped ",
                (unsigned long long)a->idle_skipped,
                (unsigned long long)a->transactions,
                (unsigned long long)a->mismatches);
    }
}
