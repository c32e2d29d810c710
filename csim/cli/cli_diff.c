/* `lockstep diff OLD.json NEW.json`: two --stats-json files compared figure
 * by figure (docs/golden.md). Workloads are matched by name, launches by
 * position; every numeric leaf is a figure named by its flattened path
 * (`l1d.used_sectors_hist[3]`); the wall-clock `sim` objects and `wall_s`
 * keys are ignored. Integers are compared exactly, other numbers as
 * doubles. A change of `pass` or `mem_digest` always fails; other figures
 * fail outside --tol; added or removed keys, launches and workloads are
 * listed and do not fail. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cli_diff.h"
#include "cli/cli_json.h"

/* Areas a figure belongs to, by the first component of its path, in the
 * order they are reported. */
enum group {
    G_RESULT, G_CYCLES, G_STALLS, G_L1D, G_L2, G_DRAM, G_DIV, G_COSIM,
    G_LAUNCH, G_OTHER, G_COUNT
};

static const char *const group_name[G_COUNT] = {
    "result", "cycles/IPC", "stalls", "L1D", "L2", "DRAM", "divergence",
    "cosim", "launch", "other"
};

static const struct { const char *key; enum group g; } group_keys[] = {
    { "pass", G_RESULT }, { "mem_digest", G_RESULT },
    { "cycles", G_CYCLES }, { "sm_cycles", G_CYCLES }, { "ipc", G_CYCLES },
    { "warp_insts", G_CYCLES }, { "thread_insts", G_CYCLES },
    { "simd_util", G_CYCLES }, { "nlaunches", G_CYCLES },
    { "idle_cycles", G_STALLS }, { "stall", G_STALLS }, { "tensor", G_CYCLES },
    { "l1d", G_L1D }, { "l2", G_L2 }, { "dram", G_DRAM },
    { "branches", G_DIV }, { "divergent_branches", G_DIV },
    { "max_stack_depth", G_DIV }, { "stack_depth_hist", G_DIV },
    { "cosim", G_COSIM }, { "ctas", G_LAUNCH }, { "threads", G_LAUNCH },
};

/* What an item reports; a changed figure's section is its group. */
enum kind { K_CHANGE, K_LABEL, K_ADDED, K_REMOVED };
enum { SEC_LABEL = G_COUNT, SEC_ADDED, SEC_REMOVED, SEC_COUNT };

static const char *const extra_section[] = {
    "labels (not figures, do not fail)", "added", "removed"
};

enum format { FMT_TEXT, FMT_MARKDOWN, FMT_JSON };

/* new - old of two numbers. */
struct delta {
    int exact;                 /* both integers: neg/mag hold new - old    */
    int neg;
    uint64_t mag;
    double d;                  /* new - old as doubles (when not exact)    */
    double pct;                /* (new - old) / |old| * 100                */
    int from_zero;             /* old 0, new not: "new", infinite change   */
    int na;                    /* not two numbers: no delta                */
};

struct item {
    enum kind kind;
    int section;               /* group, or SEC_LABEL/ADDED/REMOVED        */
    size_t seq;                /* discovery order, the tie-break           */
    const char *wl;            /* workload display name                    */
    long launch;               /* 0: the workload object; else 1-based     */
    const char *kernel;        /* the launch's kernel name, or NULL        */
    char *path;                /* flattened path; "" for a whole workload
                                  or launch                                 */
    const struct cli_json *a, *b;   /* old and new value, NULL if absent   */
    struct delta dl;
    int outside;               /* a figure outside the tolerance           */
};

struct opts {
    double tol;
    const char **only;         /* --only keys (into onlybuf)               */
    size_t nonly;
    unsigned char *only_used;
    enum format format;
    const char *old_path, *new_path;
};

/* The workloads of one file. */
struct wlset {
    struct cli_json *root;
    const struct cli_json **w;
    struct cli_json_key *name; /* into the tree                            */
    char **disp;               /* name, or "name#k" for its k-th repeat    */
    size_t n;
};

struct diff {
    const struct opts *o;
    struct item *it;
    size_t n, cap;
    int oom;
    char *path;                /* the path being walked                    */
    size_t plen, pcap;
    const char *wl;            /* where the walk is                        */
    long launch;
    const char *kernel;
    /* summary */
    size_t wl_both, wl_changed, wl_added, wl_removed;
    size_t results, figures, outside, labels, added, removed;
    double log_sum;
    size_t nratio;
    int cycles_changed;
    const char *worst_wl;
    double worst_pct;
};

/* ---- names and paths ------------------------------------------------ */

static int key_is(const struct cli_json_key *k, const char *s)
{
    return k->len == strlen(s) && !memcmp(k->s, s, k->len);
}

static enum group group_of(const char *path)
{
    size_t n = strcspn(path, ".[");
    for (size_t i = 0; i < sizeof group_keys / sizeof group_keys[0]; i++)
        if (strlen(group_keys[i].key) == n && !strncmp(path, group_keys[i].key, n))
            return group_keys[i].g;
    return G_OTHER;
}

/* Appends len bytes (after sep when the path is not empty); returns the
 * previous length for path_pop. */
static size_t path_push(struct diff *D, const char *sep, const char *s, size_t len)
{
    size_t old = D->plen, sl = D->plen ? strlen(sep) : 0;
    size_t need = D->plen + sl + len + 1;
    if (need > D->pcap) {
        size_t nc = D->pcap ? D->pcap : 128;
        while (nc < need)
            nc *= 2;
        char *np = realloc(D->path, nc);
        if (!np) {
            D->oom = 1;
            return old;
        }
        D->path = np;
        D->pcap = nc;
    }
    memcpy(D->path + D->plen, sep, sl);
    memcpy(D->path + D->plen + sl, s, len);
    D->plen += sl + len;
    D->path[D->plen] = '\0';
    return old;
}

static size_t path_key(struct diff *D, const struct cli_json_key *k)
{
    return path_push(D, ".", k->s, k->len);
}

static size_t path_index(struct diff *D, size_t i)
{
    char b[32];
    int n = snprintf(b, sizeof b, "[%zu]", i);
    /* an index joins its array's name without a separator */
    size_t old = D->plen;
    path_push(D, "", b, (size_t)n);
    return old;
}

static void path_pop(struct diff *D, size_t len)
{
    D->plen = len;
    if (D->path)
        D->path[len] = '\0';
}

/* Whether path passes --only (marking the keys it matches). A key matches
 * the path equal to it or under it; with subtree (a whole added or removed
 * object), also a key under the path. */
static int only_match(const struct diff *D, const char *path, int subtree)
{
    const struct opts *o = D->o;
    if (!o->nonly)
        return 1;
    int hit = 0;
    size_t m = strlen(path);
    for (size_t i = 0; i < o->nonly; i++) {
        const char *f = o->only[i];
        size_t n = strlen(f);
        if (!strncmp(path, f, n) && (path[n] == '\0' || path[n] == '.' || path[n] == '[')) {
            hit = 1;
            o->only_used[i] = 1;
        } else if (subtree && (m == 0 || (!strncmp(f, path, m) && (f[m] == '.' || f[m] == '[')))) {
            hit = 1;
            if (m)
                o->only_used[i] = 1;
        }
    }
    return hit;
}

/* ---- matching names ------------------------------------------------- */

struct ref {
    const char *s;
    size_t len, idx, occ;
};

static int name_cmp(const struct ref *a, const struct ref *b)
{
    size_t m = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->s, b->s, m);
    if (c)
        return c;
    return a->len < b->len ? -1 : a->len > b->len;
}

static int ref_cmp(const void *x, const void *y)
{
    const struct ref *a = x, *b = y;
    int c = name_cmp(a, b);
    if (c)
        return c;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The n names sorted by (name, position), each with its occurrence number
 * (0 for the first of its name). NULL when out of memory. */
static struct ref *sorted_refs(const struct cli_json_key *k, size_t n)
{
    struct ref *r = malloc((n ? n : 1) * sizeof *r);
    if (!r)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        r[i].s = k[i].s;
        r[i].len = k[i].len;
        r[i].idx = i;
    }
    qsort(r, n, sizeof *r, ref_cmp);
    for (size_t i = 0; i < n; i++)
        r[i].occ = i && !name_cmp(&r[i - 1], &r[i]) ? r[i - 1].occ + 1 : 0;
    return r;
}

/* b2a[j]: the index in a of the name equal to b[j] with the same
 * occurrence number (the k-th "x" in b matches the k-th "x" in a), or
 * SIZE_MAX. Returns 0, or -1 when out of memory. O((na + nb) log). */
static int match_names(const struct cli_json_key *a, size_t na,
                       const struct cli_json_key *b, size_t nb, size_t *b2a)
{
    struct ref *ra = sorted_refs(a, na), *rb = sorted_refs(b, nb);
    if (!ra || !rb) {
        free(ra);
        free(rb);
        return -1;
    }
    for (size_t j = 0; j < nb; j++)
        b2a[j] = SIZE_MAX;
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        int c = name_cmp(&ra[i], &rb[j]);
        if (!c)
            c = ra[i].occ < rb[j].occ ? -1 : ra[i].occ > rb[j].occ;
        if (!c)
            b2a[rb[j++].idx] = ra[i++].idx;
        else if (c < 0)
            i++;
        else
            j++;
    }
    free(ra);
    free(rb);
    return 0;
}

/* ---- numbers -------------------------------------------------------- */

struct ival {
    int neg;
    uint64_t mag;
};

static int as_int(const struct cli_json *v, struct ival *o)
{
    if (v->is_uint) {
        o->neg = 0;
        o->mag = v->u;
        return 1;
    }
    if (v->is_int) {
        o->neg = v->i < 0;
        o->mag = v->i < 0 ? (uint64_t)(-(v->i + 1)) + 1 : (uint64_t)v->i;
        return 1;
    }
    return 0;
}

/* Integers (64-bit) compare exactly; anything else as doubles. */
static int num_equal(const struct cli_json *a, const struct cli_json *b)
{
    struct ival x, y;
    if (as_int(a, &x) && as_int(b, &y))
        return x.neg == y.neg && x.mag == y.mag;
    return a->d == b->d;
}

/* new - old and the change in percent of |old|. */
static void num_delta(const struct cli_json *a, const struct cli_json *b, struct delta *d)
{
    memset(d, 0, sizeof *d);
    if (!a || !b || a->type != CLI_JSON_NUMBER || b->type != CLI_JSON_NUMBER) {
        d->na = 1;
        return;
    }
    struct ival x = { 0, 0 }, y = { 0, 0 };
    if (as_int(a, &x) && as_int(b, &y)) {
        d->exact = 1;
        if (x.neg == y.neg) {
            /* same sign: new - old = sign * (|new| - |old|) */
            int up = y.mag >= x.mag;
            d->mag = up ? y.mag - x.mag : x.mag - y.mag;
            d->neg = x.neg ? up : !up;
        } else {
            d->mag = x.mag + y.mag;
            d->neg = y.neg;
            if (d->mag < x.mag)
                d->exact = 0;          /* past 64 bits: as doubles */
        }
        if (d->mag == 0)
            d->neg = 0;
    }
    if (d->exact) {
        d->d = (d->neg ? -1.0 : 1.0) * (double)d->mag;
        if (x.mag == 0)
            d->from_zero = d->mag != 0;
        else
            d->pct = d->d / (double)x.mag * 100.0;
    } else {
        d->d = b->d - a->d;
        if (a->d == 0)
            d->from_zero = d->d != 0;
        else
            d->pct = d->d / fabs(a->d) * 100.0;
    }
}

/* Equal leaves: same type and value (numbers numerically). */
static int leaf_equal(const struct cli_json *a, const struct cli_json *b)
{
    if (a->type == CLI_JSON_NUMBER && b->type == CLI_JSON_NUMBER)
        return num_equal(a, b);
    if (a->type != b->type)
        return 0;
    if (a->type == CLI_JSON_STRING)
        return a->len == b->len && !memcmp(a->str, b->str, a->len);
    return a->type != CLI_JSON_ARRAY && a->type != CLI_JSON_OBJECT;
}

/* ---- collecting items ----------------------------------------------- */

static struct item *add_item(struct diff *D, enum kind k, const struct cli_json *a,
                             const struct cli_json *b)
{
    if (D->n == D->cap) {
        size_t nc = D->cap ? D->cap * 2 : 64;
        struct item *ni = realloc(D->it, nc * sizeof *ni);
        if (!ni) {
            D->oom = 1;
            return NULL;
        }
        D->it = ni;
        D->cap = nc;
    }
    struct item *it = &D->it[D->n];
    memset(it, 0, sizeof *it);
    it->path = strdup(D->path ? D->path : "");
    if (!it->path) {
        D->oom = 1;
        return NULL;
    }
    D->n++;
    it->kind = k;
    it->seq = D->n;
    it->wl = D->wl;
    it->launch = D->launch;
    it->kernel = D->kernel;
    it->a = a;
    it->b = b;
    switch (k) {
    case K_CHANGE:
        it->section = group_of(it->path);
        break;
    case K_LABEL:
        it->section = SEC_LABEL;
        D->labels++;
        break;
    case K_ADDED:
        it->section = SEC_ADDED;
        D->added++;
        break;
    case K_REMOVED:
        it->section = SEC_REMOVED;
        D->removed++;
        break;
    }
    return it;
}

/* A value present on one side only (a is old, b new). */
static void one_side(struct diff *D, const struct cli_json *a, const struct cli_json *b)
{
    const struct cli_json *v = a ? a : b;
    int subtree = v->type == CLI_JSON_OBJECT || v->type == CLI_JSON_ARRAY;
    if (only_match(D, D->path ? D->path : "", subtree))
        add_item(D, a ? K_REMOVED : K_ADDED, a, b);
}

/* Two leaves (or a leaf and a container) at the current path. */
static void cmp_leaf(struct diff *D, const struct cli_json *a, const struct cli_json *b)
{
    const char *path = D->path ? D->path : "";
    int pass = only_match(D, path, 0);
    if (leaf_equal(a, b))
        return;
    enum group g = group_of(path);
    if (g == G_RESULT) {
        if (add_item(D, K_CHANGE, a, b))
            D->results++;
        return;
    }
    if (!pass)
        return;
    if (a->type != CLI_JSON_NUMBER && b->type != CLI_JSON_NUMBER) {
        add_item(D, K_LABEL, a, b);
        return;
    }
    struct item *it = add_item(D, K_CHANGE, a, b);
    if (!it)
        return;
    num_delta(a, b, &it->dl);
    it->outside = it->dl.na || it->dl.from_zero || !isfinite(it->dl.pct)
                  || fabs(it->dl.pct) > D->o->tol;
    D->figures++;
    D->outside += it->outside != 0;
}

enum root { R_NONE, R_WORKLOAD, R_LAUNCH };

static void cmp_value(struct diff *D, const struct cli_json *a, const struct cli_json *b);

/* Keys that are no figures: the wall clock anywhere, and what identifies a
 * workload or launch. */
static int skip_key(const struct cli_json_key *k, enum root r)
{
    if (key_is(k, "sim") || key_is(k, "wall_s"))
        return 1;
    if (r == R_WORKLOAD)
        return key_is(k, "schema") || key_is(k, "workload") || key_is(k, "launches");
    if (r == R_LAUNCH)
        return key_is(k, "index");
    return 0;
}

static void cmp_object(struct diff *D, const struct cli_json *a, const struct cli_json *b,
                       enum root r)
{
    size_t *b2a = malloc((b->n ? b->n : 1) * sizeof *b2a);
    unsigned char *used = calloc(a->n ? a->n : 1, 1);
    if (!b2a || !used || match_names(a->key, a->n, b->key, b->n, b2a)) {
        D->oom = 1;
        free(b2a);
        free(used);
        return;
    }
    for (size_t j = 0; j < b->n && !D->oom; j++) {
        if (b2a[j] != SIZE_MAX)
            used[b2a[j]] = 1;
        if (skip_key(&b->key[j], r))
            continue;
        size_t mark = path_key(D, &b->key[j]);
        if (b2a[j] != SIZE_MAX)
            cmp_value(D, &a->item[b2a[j]], &b->item[j]);
        else
            one_side(D, NULL, &b->item[j]);
        path_pop(D, mark);
    }
    for (size_t i = 0; i < a->n && !D->oom; i++) {
        if (used[i] || skip_key(&a->key[i], r))
            continue;
        size_t mark = path_key(D, &a->key[i]);
        one_side(D, &a->item[i], NULL);
        path_pop(D, mark);
    }
    free(b2a);
    free(used);
}

static void cmp_value(struct diff *D, const struct cli_json *a, const struct cli_json *b)
{
    if (a->type == CLI_JSON_OBJECT && b->type == CLI_JSON_OBJECT) {
        cmp_object(D, a, b, R_NONE);
        return;
    }
    if (a->type != CLI_JSON_ARRAY || b->type != CLI_JSON_ARRAY) {
        cmp_leaf(D, a, b);
        return;
    }
    size_t n = a->n > b->n ? a->n : b->n;
    for (size_t i = 0; i < n && !D->oom; i++) {
        size_t mark = path_index(D, i);
        if (i < a->n && i < b->n)
            cmp_value(D, &a->item[i], &b->item[i]);
        else
            one_side(D, i < a->n ? &a->item[i] : NULL, i < b->n ? &b->item[i] : NULL);
        path_pop(D, mark);
    }
}

static const char *kernel_of(const struct cli_json *launch)
{
    const struct cli_json *k = cli_json_get(launch, "kernel");
    return k && k->type == CLI_JSON_STRING ? k->str : NULL;
}

/* The launches of two matched workloads, by position. */
static void cmp_launches(struct diff *D, const struct cli_json *wa, const struct cli_json *wb)
{
    const struct cli_json *la = cli_json_get(wa, "launches");
    const struct cli_json *lb = cli_json_get(wb, "launches");
    if (!la && !lb)
        return;
    struct cli_json_key k = { "launches", 8 };
    size_t mark = path_key(D, &k);
    if (!la || !lb)
        one_side(D, la, lb);
    else if (la->type != CLI_JSON_ARRAY || lb->type != CLI_JSON_ARRAY)
        cmp_value(D, la, lb);
    path_pop(D, mark);
    if (!la || !lb || la->type != CLI_JSON_ARRAY || lb->type != CLI_JSON_ARRAY)
        return;
    size_t n = la->n > lb->n ? la->n : lb->n;
    for (size_t i = 0; i < n && !D->oom; i++) {
        const struct cli_json *a = i < la->n ? &la->item[i] : NULL;
        const struct cli_json *b = i < lb->n ? &lb->item[i] : NULL;
        D->launch = (long)i + 1;
        D->kernel = kernel_of(b ? b : a);
        if (!a || !b) {
            if (only_match(D, "", 1))
                add_item(D, a ? K_REMOVED : K_ADDED, a, b);
        } else if (a->type == CLI_JSON_OBJECT && b->type == CLI_JSON_OBJECT) {
            cmp_object(D, a, b, R_LAUNCH);
        } else {
            cmp_value(D, a, b);
        }
    }
    D->launch = 0;
    D->kernel = NULL;
}

/* Cycles of two matched workloads into the geomean and the worst change. */
static void cycles_summary(struct diff *D, const struct cli_json *wa,
                           const struct cli_json *wb, const char *name)
{
    const struct cli_json *a = cli_json_get(wa, "cycles");
    const struct cli_json *b = cli_json_get(wb, "cycles");
    if (!a || !b || a->type != CLI_JSON_NUMBER || b->type != CLI_JSON_NUMBER
        || !(a->d > 0) || !(b->d > 0))
        return;
    D->log_sum += log(b->d / a->d);
    D->nratio++;
    if (num_equal(a, b))
        return;
    double pct = (b->d / a->d - 1.0) * 100.0;
    if (!D->cycles_changed || fabs(pct) > fabs(D->worst_pct)) {
        D->worst_pct = pct;
        D->worst_wl = name;
    }
    D->cycles_changed = 1;
}

static void compare(struct diff *D, const struct wlset *A, const struct wlset *B)
{
    size_t *b2a = malloc((B->n ? B->n : 1) * sizeof *b2a);
    unsigned char *used = calloc(A->n ? A->n : 1, 1);
    if (!b2a || !used || match_names(A->name, A->n, B->name, B->n, b2a)) {
        D->oom = 1;
        free(b2a);
        free(used);
        return;
    }
    for (size_t j = 0; j < B->n && !D->oom; j++) {
        D->wl = B->disp[j];
        D->launch = 0;
        D->kernel = NULL;
        path_pop(D, 0);
        if (b2a[j] == SIZE_MAX) {
            add_item(D, K_ADDED, NULL, B->w[j]);
            D->wl_added++;
            continue;
        }
        used[b2a[j]] = 1;
        D->wl_both++;
        size_t before = D->results + D->figures;
        const struct cli_json *wa = A->w[b2a[j]], *wb = B->w[j];
        cmp_object(D, wa, wb, R_WORKLOAD);
        cmp_launches(D, wa, wb);
        cycles_summary(D, wa, wb, B->disp[j]);
        if (D->results + D->figures > before)
            D->wl_changed++;
    }
    for (size_t i = 0; i < A->n && !D->oom; i++) {
        if (used[i])
            continue;
        D->wl = A->disp[i];
        D->launch = 0;
        D->kernel = NULL;
        path_pop(D, 0);
        add_item(D, K_REMOVED, A->w[i], NULL);
        D->wl_removed++;
    }
    free(b2a);
    free(used);
}

/* Sections in report order; a group's figures by |delta %| descending
 * (no delta, then from zero, first), ties in discovery order. */
static int item_cmp(const void *x, const void *y)
{
    const struct item *a = x, *b = y;
    if (a->section != b->section)
        return a->section < b->section ? -1 : 1;
    if (a->kind == K_CHANGE && a->section != G_RESULT) {
        int ra = a->dl.na ? 2 : a->dl.from_zero || !isfinite(a->dl.pct);
        int rb = b->dl.na ? 2 : b->dl.from_zero || !isfinite(b->dl.pct);
        if (ra != rb)
            return ra > rb ? -1 : 1;
        double pa = fabs(a->dl.pct), pb = fabs(b->dl.pct);
        if (!ra && pa != pb)
            return pa > pb ? -1 : 1;
    }
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* ---- loading -------------------------------------------------------- */

static void free_wlset(struct wlset *S)
{
    if (S->disp)
        for (size_t i = 0; i < S->n; i++)
            free(S->disp[i]);
    free(S->disp);
    free(S->w);
    free(S->name);
    cli_json_free(S->root);
    memset(S, 0, sizeof *S);
}

/* Display names: the k-th repeat (k >= 1) of a name gets "#k+1". */
static int display_names(struct wlset *S)
{
    struct ref *r = sorted_refs(S->name, S->n);
    S->disp = calloc(S->n ? S->n : 1, sizeof *S->disp);
    if (!r || !S->disp) {
        free(r);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < S->n && !rc; i++) {
        size_t len = strlen(r[i].s) + 24;
        char *s = malloc(len);
        if (!s) {
            rc = -1;
            break;
        }
        if (r[i].occ)
            snprintf(s, len, "%s#%zu", r[i].s, r[i].occ + 1);
        else
            snprintf(s, len, "%s", r[i].s);
        S->disp[r[i].idx] = s;
    }
    free(r);
    return rc;
}

/* Checks one workload object (element k, 1-based, of path). */
static int check_workload(const char *path, const struct cli_json *w, size_t k,
                          struct cli_json_key *name)
{
    if (w->type != CLI_JSON_OBJECT) {
        enum cli_json_type t = w->type;
        fprintf(stderr, "lockstep: diff: %s:%u:%u: element %zu is not a workload "
                "object (it is %s%s): not a --stats-json file\n", path, w->line, w->col,
                k, t == CLI_JSON_ARRAY ? "an " : t == CLI_JSON_NUMBER
                || t == CLI_JSON_STRING ? "a " : "", cli_json_type_name(t));
        return -1;
    }
    const struct cli_json *s = cli_json_get(w, "schema");
    if (!s) {
        fprintf(stderr, "lockstep: diff: %s:%u:%u: workload object %zu has no "
                "\"schema\" key: not a --stats-json file\n", path, w->line, w->col, k);
        return -1;
    }
    const struct cli_json *n = cli_json_get(w, "workload");
    if (s->type != CLI_JSON_NUMBER || !s->is_int || s->i != CLI_STATS_SCHEMA) {
        fprintf(stderr, "lockstep: diff: %s:%u:%u: workload %s%.64s%s has schema %s; "
                "this lockstep reads --stats-json schema %d\n", path, s->line, s->col,
                n && n->type == CLI_JSON_STRING ? "'" : "", n && n->type == CLI_JSON_STRING
                ? n->str : "", n && n->type == CLI_JSON_STRING ? "'" : "",
                s->type == CLI_JSON_NUMBER ? s->str : cli_json_type_name(s->type),
                CLI_STATS_SCHEMA);
        return -1;
    }
    if (!n || n->type != CLI_JSON_STRING) {
        fprintf(stderr, "lockstep: diff: %s:%u:%u: workload object %zu has no "
                "\"workload\" name\n", path, w->line, w->col, k);
        return -1;
    }
    name->s = n->str;
    name->len = n->len;
    return 0;
}

/* Reads and checks one --stats-json file (one workload object or a list
 * of them). Returns 0, or -1 after printing why. */
static int load(const char *path, struct wlset *S)
{
    struct cli_json_error e;
    memset(S, 0, sizeof *S);
    int rc = cli_json_parse_file(path, NULL, &S->root, &e);
    if (rc == CLI_JSON_EIO) {
        fprintf(stderr, "lockstep: diff: %s: %s\n", path, e.msg);
        return -1;
    }
    if (rc) {
        if (e.line)
            fprintf(stderr, "lockstep: diff: %s:%u:%u: not JSON: %s (byte %zu)\n",
                    path, e.line, e.col, e.msg, e.offset);
        else
            fprintf(stderr, "lockstep: diff: %s: not JSON: %s\n", path, e.msg);
        return -1;
    }
    const struct cli_json *r = S->root;
    if (r->type != CLI_JSON_OBJECT && r->type != CLI_JSON_ARRAY) {
        fprintf(stderr, "lockstep: diff: %s: the top level is a %s, not a workload "
                "object or a list of them: not a --stats-json file\n", path,
                cli_json_type_name(r->type));
        free_wlset(S);
        return -1;
    }
    size_t n = r->type == CLI_JSON_OBJECT ? 1 : r->n;
    S->w = malloc((n ? n : 1) * sizeof *S->w);
    S->name = malloc((n ? n : 1) * sizeof *S->name);
    if (!S->w || !S->name) {
        fprintf(stderr, "lockstep: diff: %s: out of memory\n", path);
        free_wlset(S);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        S->w[i] = r->type == CLI_JSON_OBJECT ? r : &r->item[i];
        if (check_workload(path, S->w[i], i + 1, &S->name[i])) {
            free_wlset(S);
            return -1;
        }
    }
    S->n = n;
    if (display_names(S)) {
        fprintf(stderr, "lockstep: diff: %s: out of memory\n", path);
        free_wlset(S);
        return -1;
    }
    return 0;
}

/* ---- cells ---------------------------------------------------------- */

enum col { C_WL, C_LAUNCH, C_KEY, C_OLD, C_NEW, C_DELTA, C_PCT, C_TOL, NCOL };

static const char *const col_name[NCOL] = {
    "workload", "launch", "figure", "old", "new", "delta", "delta %", "tol"
};

#define CELL_MAX 200

/* Copies s into a cell: control characters as '?', cut at max bytes. */
static void clip(char *buf, size_t n, const char *s, size_t max)
{
    size_t k = 0, len = strlen(s);
    if (max > n - 1)
        max = n - 1;
    for (; k < len && k < max; k++)
        buf[k] = (unsigned char)s[k] < 0x20 || s[k] == 0x7f ? '?' : s[k];
    if (k < len && k >= 3)
        memcpy(buf + k - 3, "...", 3);
    buf[k] = '\0';
}

static void value_text(const struct cli_json *v, char *buf, size_t n)
{
    if (!v) {
        buf[0] = '\0';
        return;
    }
    switch (v->type) {
    case CLI_JSON_NUMBER:
        clip(buf, n, v->str, CELL_MAX);
        break;
    case CLI_JSON_STRING:
        clip(buf, n, v->len ? v->str : "\"\"", 48);
        break;
    case CLI_JSON_ARRAY:
        snprintf(buf, n, "[%zu item%s]", v->n, v->n == 1 ? "" : "s");
        break;
    case CLI_JSON_OBJECT:
        snprintf(buf, n, "{%zu key%s}", v->n, v->n == 1 ? "" : "s");
        break;
    default:
        snprintf(buf, n, "%s", cli_json_type_name(v->type));
    }
}

static void delta_text(const struct delta *d, char *buf, size_t n)
{
    if (d->na)
        snprintf(buf, n, "n/a");
    else if (d->exact)
        snprintf(buf, n, "%c%llu", d->neg ? '-' : '+', (unsigned long long)d->mag);
    else
        snprintf(buf, n, "%+.6g", d->d);
}

static void pct_text(const struct delta *d, char *buf, size_t n)
{
    if (d->na)
        snprintf(buf, n, "n/a");
    else if (d->from_zero)
        snprintf(buf, n, "new");
    else if (fabs(d->pct) >= 0.01 || d->pct == 0 || !isfinite(d->pct))
        snprintf(buf, n, "%+.2f%%", d->pct);
    else
        snprintf(buf, n, "%+.1e%%", d->pct);
}

static int is_figure(const struct item *it)
{
    return it->kind == K_CHANGE && it->section != G_RESULT;
}

static void cell(const struct item *it, enum col c, char *buf, size_t n)
{
    buf[0] = '\0';
    switch (c) {
    case C_WL:
        clip(buf, n, it->wl, CELL_MAX);
        break;
    case C_LAUNCH:
        if (!it->launch)
            snprintf(buf, n, "-");
        else {
            char k[CELL_MAX + 1];
            clip(k, sizeof k, it->kernel ? it->kernel : "", 64);
            snprintf(buf, n, "#%ld%s%s", it->launch, *k ? " " : "", k);
        }
        break;
    case C_KEY:
        if (it->path[0])
            clip(buf, n, it->path, CELL_MAX);
        else
            snprintf(buf, n, it->launch ? "(launch)" : "(workload)");
        break;
    case C_OLD:
        if (it->path[0] || it->kind == K_CHANGE || it->kind == K_LABEL)
            value_text(it->a, buf, n);
        break;
    case C_NEW:
        if (it->path[0] || it->kind == K_CHANGE || it->kind == K_LABEL)
            value_text(it->b, buf, n);
        break;
    case C_DELTA:
        if (is_figure(it))
            delta_text(&it->dl, buf, n);
        break;
    case C_PCT:
        if (is_figure(it))
            pct_text(&it->dl, buf, n);
        break;
    default:
        if (is_figure(it) && it->outside)
            snprintf(buf, n, "over");
    }
}

static const char *section_name(int s)
{
    return s < G_COUNT ? group_name[s] : extra_section[s - G_COUNT];
}

/* ---- summary -------------------------------------------------------- */

/* "%+.1f" with more digits for a change that would print as 0.0. */
static void fmt_pct(char *buf, size_t n, double p)
{
    if (p != 0 && fabs(p) < 0.05)
        snprintf(buf, n, "%+.2g%%", p);
    else
        snprintf(buf, n, "%+.1f%%", p);
}

static double geomean_pct(const struct diff *D)
{
    return (exp(D->log_sum / (double)D->nratio) - 1.0) * 100.0;
}

static void summary_line(const struct diff *D, char *buf, size_t n)
{
    size_t k = (size_t)snprintf(buf, n, "%zu workload%s, %zu changed", D->wl_both,
                                D->wl_both == 1 ? "" : "s", D->wl_changed);
    if (D->wl_added && k < n)
        k += (size_t)snprintf(buf + k, n - k, ", %zu added", D->wl_added);
    if (D->wl_removed && k < n)
        k += (size_t)snprintf(buf + k, n - k, ", %zu removed", D->wl_removed);
    if (!D->nratio || k >= n)
        return;
    if (!D->cycles_changed) {
        snprintf(buf + k, n - k, ", cycles unchanged");
        return;
    }
    char g[32], w[32];
    fmt_pct(g, sizeof g, geomean_pct(D));
    fmt_pct(w, sizeof w, D->worst_pct);
    snprintf(buf + k, n - k, ", cycles %s geomean, worst %.64s %s", g, D->worst_wl, w);
}

static int status_of(const struct diff *D)
{
    return D->results || D->outside ? CLI_FAIL : CLI_OK;
}

static void verdict_line(const struct diff *D, char *buf, size_t n)
{
    char tol[64];
    snprintf(tol, sizeof tol, "tolerance %g%%", D->o->tol);
    size_t k = 0;
    if (status_of(D)) {
        k = (size_t)snprintf(buf, n, "FAIL:");
        if (D->results && k < n)
            k += (size_t)snprintf(buf + k, n - k, " %zu result change%s (pass/mem_digest)%s",
                                  D->results, D->results == 1 ? "" : "s",
                                  D->outside ? "," : "");
        if (D->outside && k < n)
            snprintf(buf + k, n - k, " %zu of %zu changed figure%s outside %s", D->outside,
                     D->figures, D->figures == 1 ? "" : "s", tol);
    } else if (D->figures) {
        snprintf(buf, n, "ok: %zu changed figure%s, all within %s", D->figures,
                 D->figures == 1 ? "" : "s", tol);
    } else {
        snprintf(buf, n, "ok: no figure changed");
    }
}

/* ---- text and markdown ---------------------------------------------- */

static size_t section_count(const struct diff *D, int s)
{
    size_t c = 0;
    for (size_t i = 0; i < D->n; i++)
        c += D->it[i].section == s;
    return c;
}

static int right_aligned(enum col c)
{
    return c >= C_OLD && c <= C_PCT;
}

/* One aligned line (the header when it is NULL), trailing blanks trimmed. */
static void text_row(FILE *f, const struct item *it, const size_t *w, int ncol)
{
    char line[NCOL * (CELL_MAX + 84)], buf[CELL_MAX + 80];
    size_t k = 0;
    for (int c = 0; c < ncol && k < sizeof line; c++) {
        if (it)
            cell(it, (enum col)c, buf, sizeof buf);
        else
            snprintf(buf, sizeof buf, "%s", col_name[c]);
        k += (size_t)snprintf(line + k, sizeof line - k,
                              right_aligned((enum col)c) ? "  %*s" : "  %-*s",
                              (int)w[c], buf);
    }
    if (k >= sizeof line)
        k = sizeof line - 1;
    while (k && line[k - 1] == ' ')
        line[--k] = '\0';
    fprintf(f, "%s\n", line);
}

static void print_text(FILE *f, const struct diff *D, const char *summary,
                       const char *verdict)
{
    int ncol = D->o->tol > 0 ? NCOL : C_TOL;
    size_t w[NCOL];
    char buf[CELL_MAX + 80];
    for (int c = 0; c < ncol; c++)
        w[c] = strlen(col_name[c]);
    for (size_t i = 0; i < D->n; i++)
        for (int c = 0; c < ncol; c++) {
            cell(&D->it[i], (enum col)c, buf, sizeof buf);
            if (strlen(buf) > w[c])
                w[c] = strlen(buf);
        }
    fprintf(f, "%s\n%s\n", summary, verdict);
    size_t i = 0;
    for (int s = 0; s < SEC_COUNT; s++) {
        size_t cnt = section_count(D, s);
        if (!cnt)
            continue;
        fprintf(f, "\n%s: %zu\n", section_name(s), cnt);
        text_row(f, NULL, w, ncol);
        for (size_t r = 0; r < cnt; r++)
            text_row(f, &D->it[i++], w, ncol);
    }
}

/* A markdown table cell: '|' escaped. */
static void md_cell(FILE *f, const char *s)
{
    fputs("| ", f);
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputc(' ', f);
}

static void print_markdown(FILE *f, const struct diff *D, const char *summary,
                           const char *verdict)
{
    int ncol = D->o->tol > 0 ? NCOL : C_TOL;
    char buf[CELL_MAX + 80];
    fprintf(f, "**lockstep diff:** %s\n\n%s\n", summary, verdict);
    size_t i = 0;
    for (int s = 0; s < SEC_COUNT; s++) {
        size_t cnt = section_count(D, s);
        if (!cnt)
            continue;
        fprintf(f, "\n#### %s (%zu)\n\n", section_name(s), cnt);
        for (int c = 0; c < ncol; c++)
            md_cell(f, col_name[c]);
        fputs("|\n", f);
        for (int c = 0; c < ncol; c++)
            fputs(right_aligned((enum col)c) ? "|--:" : "|---", f);
        fputs("|\n", f);
        for (size_t r = 0; r < cnt; r++, i++) {
            for (int c = 0; c < ncol; c++) {
                cell(&D->it[i], (enum col)c, buf, sizeof buf);
                md_cell(f, buf);
            }
            fputs("|\n", f);
        }
    }
}

/* ---- json ----------------------------------------------------------- */

static void json_cstr(FILE *f, const char *s)
{
    api_json_str(f, s, strlen(s));
}

static void json_double(FILE *f, double d)
{
    if (isfinite(d))
        fprintf(f, "%.10g", d);
    else
        fputs("null", f);
}

/* A value from an input, compact (numbers as written). */
static void json_value(FILE *f, const struct cli_json *v)
{
    switch (v->type) {
    case CLI_JSON_NUMBER:
        fputs(v->str, f);
        break;
    case CLI_JSON_STRING:
        api_json_str(f, v->str, v->len);
        break;
    case CLI_JSON_ARRAY:
    case CLI_JSON_OBJECT:
        fputc(v->type == CLI_JSON_ARRAY ? '[' : '{', f);
        for (size_t i = 0; i < v->n; i++) {
            if (i)
                fputs(", ", f);
            if (v->type == CLI_JSON_OBJECT) {
                api_json_str(f, v->key[i].s, v->key[i].len);
                fputs(": ", f);
            }
            json_value(f, &v->item[i]);
        }
        fputc(v->type == CLI_JSON_ARRAY ? ']' : '}', f);
        break;
    default:
        fputs(cli_json_type_name(v->type), f);
    }
}

static void json_item(FILE *f, const struct item *it)
{
    fputs("    {", f);
    if (it->kind == K_CHANGE) {
        fputs("\"group\": ", f);
        json_cstr(f, group_name[it->section]);
        fputs(", ", f);
    }
    fputs("\"workload\": ", f);
    json_cstr(f, it->wl);
    fputs(", \"launch\": ", f);
    if (it->launch) {
        fprintf(f, "{\"index\": %ld, \"kernel\": ", it->launch);
        if (it->kernel)
            json_cstr(f, it->kernel);
        else
            fputs("null", f);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fputs(", \"key\": ", f);
    if (it->path[0])
        json_cstr(f, it->path);
    else
        fputs("null", f);
    if (it->a && (it->path[0] || it->kind == K_CHANGE || it->kind == K_LABEL)) {
        fputs(", \"old\": ", f);
        json_value(f, it->a);
    }
    if (it->b && (it->path[0] || it->kind == K_CHANGE || it->kind == K_LABEL)) {
        fputs(", \"new\": ", f);
        json_value(f, it->b);
    }
    if (is_figure(it)) {
        const struct delta *d = &it->dl;
        fputs(", \"delta\": ", f);
        if (d->na)
            fputs("null", f);
        else if (d->exact)
            fprintf(f, "%s%llu", d->neg ? "-" : "", (unsigned long long)d->mag);
        else
            json_double(f, d->d);
        fputs(", \"delta_pct\": ", f);
        if (d->na || d->from_zero)
            fputs("null", f);
        else
            json_double(f, d->pct);
        fprintf(f, ", \"from_zero\": %s, \"outside_tolerance\": %s",
                d->from_zero ? "true" : "false", it->outside ? "true" : "false");
    }
    fputc('}', f);
}

static void json_list(FILE *f, const struct diff *D, const char *name, int lo, int hi)
{
    fprintf(f, ",\n  \"%s\": [", name);
    int first = 1;
    for (size_t i = 0; i < D->n; i++) {
        if (D->it[i].section < lo || D->it[i].section > hi)
            continue;
        fputs(first ? "\n" : ",\n", f);
        json_item(f, &D->it[i]);
        first = 0;
    }
    fputs(first ? "]" : "\n  ]", f);
}

static void print_json(FILE *f, const struct diff *D, const char *summary,
                       const char *verdict)
{
    const struct opts *o = D->o;
    fputs("{\n  \"schema\": 1,\n  \"old\": ", f);
    json_cstr(f, o->old_path);
    fputs(",\n  \"new\": ", f);
    json_cstr(f, o->new_path);
    fputs(",\n  \"tol_pct\": ", f);
    json_double(f, o->tol);
    fputs(",\n  \"only\": ", f);
    if (o->nonly) {
        fputc('[', f);
        for (size_t i = 0; i < o->nonly; i++) {
            fputs(i ? ", " : "", f);
            json_cstr(f, o->only[i]);
        }
        fputc(']', f);
    } else {
        fputs("null", f);
    }
    fputs(",\n  \"summary\": {\"line\": ", f);
    json_cstr(f, summary);
    fputs(", \"verdict\": ", f);
    json_cstr(f, verdict);
    fprintf(f, ", \"status\": %d, \"workloads\": %zu, \"changed\": %zu, "
            "\"added_workloads\": %zu, \"removed_workloads\": %zu, "
            "\"cycles_geomean_pct\": ", status_of(D), D->wl_both, D->wl_changed,
            D->wl_added, D->wl_removed);
    if (D->nratio)
        json_double(f, D->cycles_changed ? geomean_pct(D) : 0.0);
    else
        fputs("null", f);
    fputs(", \"worst\": ", f);
    if (D->cycles_changed) {
        fputs("{\"workload\": ", f);
        json_cstr(f, D->worst_wl);
        fputs(", \"cycles_pct\": ", f);
        json_double(f, D->worst_pct);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fprintf(f, ", \"result_changes\": %zu, \"figure_changes\": %zu, "
            "\"outside_tolerance\": %zu, \"labels\": %zu, \"added\": %zu, "
            "\"removed\": %zu}", D->results, D->figures, D->outside, D->labels,
            D->added, D->removed);
    json_list(f, D, "changes", 0, G_COUNT - 1);
    json_list(f, D, "labels", SEC_LABEL, SEC_LABEL);
    json_list(f, D, "added", SEC_ADDED, SEC_ADDED);
    json_list(f, D, "removed", SEC_REMOVED, SEC_REMOVED);
    fputs("\n}\n", f);
}

/* ---- command line --------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
"usage: lockstep diff [--tol PCT] [--only KEY,...] [--format text|markdown|json]\n"
"                     OLD.json NEW.json\n"
"compares two --stats-json files figure by figure, per workload and launch\n"
"  --tol PCT         a figure may change by PCT percent (default 0: any change\n"
"                    fails); a pass/mem_digest change always fails\n"
"  --only KEY,...    only these figures; a key also selects what is under it\n"
"                    (--only cycles,l1d,stall.scoreboard)\n"
"  --format F        text (default), markdown (a pull-request table) or json\n"
"exit status: 0 all within tolerance, 1 a result changed or a figure is\n"
"outside the tolerance, 2 bad input or usage (docs/golden.md)\n");
}

/* The value of option argv[*i] (--opt VALUE or --opt=VALUE), or NULL after
 * printing why it is missing. */
static const char *opt_value(int argc, char **argv, int *i, const char *opt)
{
    size_t n = strlen(opt);
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (*i + 1 >= argc) {
        fprintf(stderr, "lockstep: diff: %s wants a value\n", opt);
        return NULL;
    }
    return argv[++*i];
}

static int is_opt(const char *arg, const char *opt)
{
    size_t n = strlen(opt);
    return !strncmp(arg, opt, n) && (arg[n] == '\0' || arg[n] == '=');
}

/* Splits a --only list on commas into o->only (keys point into copies kept
 * in *bufs). Returns 0 or -1. */
static int add_only(struct opts *o, const char *list, char ***bufs, size_t *nbufs)
{
    char **nb = realloc(*bufs, (*nbufs + 1) * sizeof *nb);
    if (!nb)
        return -1;
    *bufs = nb;
    char *copy = strdup(list);
    if (!copy)
        return -1;
    nb[(*nbufs)++] = copy;
    size_t extra = 1;
    for (const char *p = list; *p; p++)
        extra += *p == ',';
    const char **no = realloc(o->only, (o->nonly + extra) * sizeof *no);
    if (!no)
        return -1;
    o->only = no;
    for (char *tok = copy, *next; tok; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        if (*tok)
            o->only[o->nonly++] = tok;
    }
    return 0;
}

/* Parses argv into o. Returns 0, CLI_OK + 100 for --help, or CLI_USAGE. */
static int parse_args(int argc, char **argv, struct opts *o, char ***bufs, size_t *nbufs)
{
    const char *pos[2];
    int npos = 0, dashdash = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v;
        if (dashdash || a[0] != '-' || !strcmp(a, "-")) {
            if (npos == 2) {
                fprintf(stderr, "lockstep: diff: one OLD and one NEW file, not '%s' too\n", a);
                return CLI_USAGE;
            }
            pos[npos++] = a;
        } else if (!strcmp(a, "--")) {
            dashdash = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return CLI_OK + 100;
        } else if (is_opt(a, "--tol")) {
            if (!(v = opt_value(argc, argv, &i, "--tol")))
                return CLI_USAGE;
            char *end;
            o->tol = strtod(v, &end);
            if (end != v && *end == '%')
                end++;
            if (end == v || *end || !isfinite(o->tol) || o->tol < 0) {
                fprintf(stderr, "lockstep: diff: --tol wants a percentage >= 0, not '%s'\n", v);
                return CLI_USAGE;
            }
        } else if (is_opt(a, "--only")) {
            if (!(v = opt_value(argc, argv, &i, "--only")))
                return CLI_USAGE;
            size_t before = o->nonly;
            if (add_only(o, v, bufs, nbufs)) {
                fprintf(stderr, "lockstep: diff: out of memory\n");
                return CLI_USAGE;
            }
            if (o->nonly == before) {
                fprintf(stderr, "lockstep: diff: --only wants KEY[,KEY...], not '%s'\n", v);
                return CLI_USAGE;
            }
        } else if (is_opt(a, "--format")) {
            if (!(v = opt_value(argc, argv, &i, "--format")))
                return CLI_USAGE;
            if (!strcmp(v, "text"))
                o->format = FMT_TEXT;
            else if (!strcmp(v, "markdown") || !strcmp(v, "md"))
                o->format = FMT_MARKDOWN;
            else if (!strcmp(v, "json"))
                o->format = FMT_JSON;
            else {
                fprintf(stderr, "lockstep: diff: --format text|markdown|json, not '%s'\n", v);
                return CLI_USAGE;
            }
        } else {
            fprintf(stderr, "lockstep: diff: unknown option '%s' (try lockstep diff --help)\n", a);
            return CLI_USAGE;
        }
    }
    if (npos != 2) {
        fprintf(stderr, "lockstep: diff: want OLD.json NEW.json (try lockstep diff --help)\n");
        return CLI_USAGE;
    }
    o->old_path = pos[0];
    o->new_path = pos[1];
    return 0;
}

static int run_diff(struct opts *o)
{
    struct wlset A, B;
    if (load(o->old_path, &A))
        return CLI_USAGE;
    if (load(o->new_path, &B)) {
        free_wlset(&A);
        return CLI_USAGE;
    }
    struct diff D;
    memset(&D, 0, sizeof D);
    D.o = o;
    compare(&D, &A, &B);
    int rc;
    if (D.oom) {
        fprintf(stderr, "lockstep: diff: out of memory\n");
        rc = CLI_USAGE;
    } else {
        if (D.n)
            qsort(D.it, D.n, sizeof *D.it, item_cmp);
        for (size_t i = 0; i < o->nonly; i++)
            if (!o->only_used[i])
                fprintf(stderr, "lockstep: diff: warning: --only %s matches no figure "
                        "in either file\n", o->only[i]);
        char summary[512], verdict[512];
        summary_line(&D, summary, sizeof summary);
        verdict_line(&D, verdict, sizeof verdict);
        if (o->format == FMT_JSON)
            print_json(stdout, &D, summary, verdict);
        else if (o->format == FMT_MARKDOWN)
            print_markdown(stdout, &D, summary, verdict);
        else
            print_text(stdout, &D, summary, verdict);
        rc = cli_close_out(stdout, "stdout") ? CLI_USAGE : status_of(&D);
    }
    for (size_t i = 0; i < D.n; i++)
        free(D.it[i].path);
    free(D.it);
    free(D.path);
    free_wlset(&A);
    free_wlset(&B);
    return rc;
}

int cli_diff(int argc, char **argv)
{
    struct opts o;
    char **bufs = NULL;
    size_t nbufs = 0;
    memset(&o, 0, sizeof o);
    int rc = parse_args(argc, argv, &o, &bufs, &nbufs);
    if (rc == CLI_OK + 100)
        rc = CLI_OK;
    else if (!rc) {
        o.only_used = calloc(o.nonly ? o.nonly : 1, 1);
        rc = o.only_used ? run_diff(&o) : CLI_USAGE;
    }
    free(o.only_used);
    free(o.only);
    for (size_t i = 0; i < nbufs; i++)
        free(bufs[i]);
    free(bufs);
    return rc;
}
