/* Commit logs on the command line (docs/golden.md): `lockstep diff
 * --commit-log A B` compares two logs warp by warp (each warp's records in
 * program order; the interleaving of warps may differ) and reports the
 * first differing record of each warp down to the lane. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

/* One record: its warp key (launch, CTA, warp), its order in the file. */
struct crec {
    const char *key;
    size_t keylen;
    const char *line;
    size_t seq;
};

struct clog {
    char *text;
    struct crec *r;
    size_t n;
    char kernels[64][96];      /* kernel of each launch (header lines)   */
    unsigned nlaunch;
};

static void clog_free(struct clog *c)
{
    free(c->text);
    free(c->r);
    memset(c, 0, sizeof *c);
}

/* Reads a log into c. Returns 0, or prints why and returns -1. */
static int clog_read(const char *path, struct clog *c)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "lockstep: diff: cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 20, len = 0;
    c->text = malloc(cap);
    while (c->text) {
        size_t k = fread(c->text + len, 1, cap - len - 1, f);
        len += k;
        if (len + 1 < cap)
            break;
        char *nt = realloc(c->text, cap * 2);
        if (!nt) {
            free(c->text);
            c->text = NULL;
        } else {
            c->text = nt;
            cap *= 2;
        }
    }
    fclose(f);
    if (!c->text) {
        fprintf(stderr, "lockstep: diff: %s: out of memory\n", path);
        return -1;
    }
    c->text[len] = 0;
    if (strncmp(c->text, "# lockstep commit log 1", 23)) {
        fprintf(stderr, "lockstep: diff: %s:1: not a lockstep commit log (expected "
                "'# lockstep commit log 1')\n", path);
        clog_free(c);
        return -1;
    }
    size_t rcap = 0, lno = 0;
    for (char *p = c->text; *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        lno++;
        if (!strncmp(p, "launch ", 7)) {
            unsigned li;
            char k[96];
            if (sscanf(p + 7, "%u %95s", &li, k) == 2 && li >= 1 && li <= 64) {
                snprintf(c->kernels[li - 1], sizeof c->kernels[0], "%s", k);
                if (li > c->nlaunch)
                    c->nlaunch = li;
            }
        } else if (*p && *p != '#') {
            const char *s = p;
            for (int sp = 0; sp < 3 && s; sp++) {
                s = strchr(s, ' ');
                if (s)
                    s++;
            }
            if (!s) {
                fprintf(stderr, "lockstep: diff: %s:%zu: expected 'launch cta warp pc "
                        "...'\n", path, lno);
                clog_free(c);
                return -1;
            }
            if (c->n == rcap) {
                rcap = rcap ? rcap * 2 : 4096;
                struct crec *nr = realloc(c->r, rcap * sizeof *nr);
                if (!nr) {
                    fprintf(stderr, "lockstep: diff: %s: out of memory\n", path);
                    clog_free(c);
                    return -1;
                }
                c->r = nr;
            }
            c->r[c->n] = (struct crec){ p, (size_t)(s - 1 - p), s, c->n };
            c->n++;
        }
        if (!nl)
            break;
        p = nl + 1;
    }
    return 0;
}

static int keycmp(const char *a, size_t al, const char *b, size_t bl)
{
    int c = memcmp(a, b, al < bl ? al : bl);
    return c ? c : (al > bl) - (al < bl);
}

static int rec_order(const void *x, const void *y)
{
    const struct crec *a = x, *b = y;
    int c = keycmp(a->key, a->keylen, b->key, b->keylen);
    return c ? c : (a->seq > b->seq) - (a->seq < b->seq);
}

/* Per-lane values of one "name=values" field over the lanes of act. */
static int expand(const char *vals, uint32_t act, unsigned long long *v)
{
    if (*vals == '-')
        return 0;
    if (*vals == '?')
        return -1;
    if (*vals == '*') {
        unsigned long long u = strtoull(vals + 1, NULL, 16);
        for (unsigned l = 0; l < 32; l++)
            v[l] = u;
        return 0;
    }
    const char *s = vals;
    for (uint32_t m = act; m && *s; m &= m - 1) {
        char *end;
        v[__builtin_ctz(m)] = strtoull(s, &end, 16);
        s = *end == ',' ? end + 1 : end;
    }
    return 0;
}

/* Prints the fields of records a and b that differ, lane by lane. */
static void explain(FILE *out, const char *a, const char *b)
{
    char fa[64][256], fb[64][256];
    int na = 0, nb = 0;
    for (const char *p = a; *p && na < 64; na++) {
        size_t l = strcspn(p, " ");
        snprintf(fa[na], sizeof fa[0], "%.*s", (int)l, p);
        p += l + (p[l] == ' ');
    }
    for (const char *p = b; *p && nb < 64; nb++) {
        size_t l = strcspn(p, " ");
        snprintf(fb[nb], sizeof fb[0], "%.*s", (int)l, p);
        p += l + (p[l] == ' ');
    }
    /* fields: pc line op mask act values... */
    if (na < 5 || nb < 5 || strcmp(fa[0], fb[0]) || strcmp(fa[2], fb[2])) {
        fprintf(out, "    different instruction: expected %s, actual %s\n", a, b);
        return;
    }
    uint32_t act = (uint32_t)strtoul(fa[4], NULL, 16), bact = (uint32_t)strtoul(fb[4], NULL, 16);
    if (strcmp(fa[3], fb[3]) || act != bact)
        fprintf(out, "    lanes issued/ran: expected %s/%s, actual %s/%s\n", fa[3], fa[4],
                fb[3], fb[4]);
    for (int i = 5; i < na || i < nb; i++) {
        const char *x = i < na ? fa[i] : "", *y = i < nb ? fb[i] : "";
        if (!strcmp(x, y))
            continue;
        const char *ex = strchr(x, '='), *ey = strchr(y, '=');
        if (!ex || !ey || (ex - x) != (ey - y) || strncmp(x, y, (size_t)(ex - x))) {
            fprintf(out, "    field %d: expected %s, actual %s\n", i, x, y);
            continue;
        }
        /* a vector's elements are separated by ':'; compare element k */
        const char *px = ex + 1, *py = ey + 1;
        for (int k = 0; *px || *py; k++) {
            char vx[4096], vy[4096];
            size_t lx = strcspn(px, ":"), ly = strcspn(py, ":");
            snprintf(vx, sizeof vx, "%.*s", (int)lx, px);
            snprintf(vy, sizeof vy, "%.*s", (int)ly, py);
            px += lx + (px[lx] == ':');
            py += ly + (py[ly] == ':');
            unsigned long long va[32] = {0}, vb[32] = {0};
            if (expand(vx, act, va) || expand(vy, bact, vb)) {
                fprintf(out, "    %.*s: expected %s, actual %s\n", (int)(ex - x), x, vx, vy);
                continue;
            }
            int shown = 0;
            for (unsigned l = 0; l < 32; l++)
                if (((act | bact) >> l & 1) && va[l] != vb[l] && shown++ < 4)
                    fprintf(out, "    %.*s%s lane %u: expected 0x%llx, actual 0x%llx\n",
                            (int)(ex - x), x, k ? "(element)" : "", l, va[l], vb[l]);
        }
    }
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* The per-thread views of record rec ("pc line op issued ran fields..."):
 * hv[l] hashes what thread l saw (the instruction, whether it was issued
 * to it and ran, and its own value of every field); returns the issued
 * lanes. */
static uint32_t lane_hashes(const char *rec, uint64_t hv[32])
{
    const char *t[64];
    size_t tl[64];
    unsigned nt = 0;
    for (const char *p = rec; *p && nt < 64; nt++) {
        size_t l = strcspn(p, " ");
        t[nt] = p;
        tl[nt] = l;
        p += l + (p[l] == ' ');
    }
    if (nt < 5)
        return 0;
    uint32_t iss = (uint32_t)strtoul(t[3], NULL, 16), act = (uint32_t)strtoul(t[4], NULL, 16);
    uint64_t h0 = fnv(1469598103934665603ull, rec, (size_t)(t[2] + tl[2] - rec));
    for (unsigned l = 0; l < 32; l++) {
        unsigned char b = (unsigned char)((iss >> l & 1) | (act >> l & 1) << 1);
        hv[l] = fnv(h0, &b, 1);
    }
    for (unsigned i = 5; i < nt; i++) {
        const char *eq = memchr(t[i], '=', tl[i]);
        size_t nl = eq ? (size_t)(eq - t[i]) : tl[i];
        for (unsigned l = 0; l < 32; l++)
            hv[l] = fnv(hv[l], t[i], nl);
        if (!eq)
            continue;
        char vals[4096];
        snprintf(vals, sizeof vals, "%.*s", (int)(tl[i] - nl - 1), eq + 1);
        if (nl == 5 && !strncmp(t[i], "taken", 5)) {    /* a mask: the lane's bit */
            uint32_t tk = (uint32_t)strtoul(vals, NULL, 16);
            for (unsigned l = 0; l < 32; l++) {
                unsigned char b = (unsigned char)(tk >> l & 1);
                hv[l] = fnv(hv[l], &b, 1);
            }
            continue;
        }
        for (char *e = vals; *e;) {     /* vector elements, ':' apart */
            size_t el = strcspn(e, ":");
            char sep = e[el];
            e[el] = 0;
            unsigned long long v[32] = {0};
            int un = expand(e, act, v) != 0 || *e == '-';   /* '?', '-': no lane value */
            for (unsigned l = 0; l < 32; l++) {
                if (un)
                    hv[l] = fnv(hv[l], e, 1);
                else if (act >> l & 1)
                    hv[l] = fnv(hv[l], &v[l], sizeof v[l]);
            }
            e += el + (sep == ':');
        }
    }
    return iss;
}

/* One thread's view of a record: its hash and the record. */
struct tview {
    uint64_t h;
    size_t rec;
};

/* The views of lane l of the warp's records r[0..n), in order, into v;
 * returns their number. */
static size_t thread_views(size_t n, const uint32_t *iss, const uint64_t (*hv)[32],
                           unsigned l, struct tview *v)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (iss[i] >> l & 1)
            v[k++] = (struct tview){ hv[i][l], i };
    return k;
}

/* Per-thread comparison of one warp's records a[0..na) and b[0..nb)
 * (--per-thread: dual-path and DWS interleave a warp's paths, so only
 * each thread's own sequence is fixed). Returns 1 when every thread saw
 * the same sequence; else 0 with the first differing thread's records in
 * *ia, *ib (SIZE_MAX: it ran out) and its lane in *lane; -1 out of memory. */
static int warp_threads_equal(const struct crec *a, size_t na, const struct crec *b,
                              size_t nb, size_t *ia, size_t *ib, unsigned *lane)
{
    uint32_t *ia_m = malloc((na + 1) * sizeof *ia_m), *ib_m = malloc((nb + 1) * sizeof *ib_m);
    uint64_t (*ha)[32] = malloc((na + 1) * sizeof *ha), (*hb)[32] = malloc((nb + 1) * sizeof *hb);
    struct tview *va = malloc((na + 1) * sizeof *va), *vb = malloc((nb + 1) * sizeof *vb);
    int eq = -1;
    if (!ia_m || !ib_m || !ha || !hb || !va || !vb)
        goto out;
    for (size_t i = 0; i < na; i++)
        ia_m[i] = lane_hashes(a[i].line, ha[i]);
    for (size_t i = 0; i < nb; i++)
        ib_m[i] = lane_hashes(b[i].line, hb[i]);
    eq = 1;
    for (unsigned l = 0; l < 32 && eq; l++) {
        size_t ka = thread_views(na, ia_m, (const uint64_t (*)[32])ha, l, va);
        size_t kb = thread_views(nb, ib_m, (const uint64_t (*)[32])hb, l, vb);
        size_t m = 0;
        while (m < ka && m < kb && va[m].h == vb[m].h)
            m++;
        if (m == ka && m == kb)
            continue;
        eq = 0;
        *lane = l;
        *ia = m < ka ? va[m].rec : SIZE_MAX;
        *ib = m < kb ? vb[m].rec : SIZE_MAX;
    }
out:
    free(ia_m);
    free(ib_m);
    free(ha);
    free(hb);
    free(va);
    free(vb);
    return eq;
}

int cli_commit_diff(const char *pa, const char *pb, const char *na, const char *nb,
                    FILE *out)
{
    return cli_commit_diff_opt(pa, pb, na, nb, false, out);
}

int cli_commit_diff_opt(const char *pa, const char *pb, const char *na, const char *nb,
                        bool per_thread, FILE *out)
{
    struct clog a, b;
    if (clog_read(pa, &a))
        return CLI_USAGE;
    if (clog_read(pb, &b)) {
        clog_free(&a);
        return CLI_USAGE;
    }
    qsort(a.r, a.n, sizeof *a.r, rec_order);
    qsort(b.r, b.n, sizeof *b.r, rec_order);
    size_t i = 0, j = 0, warps = 0, bad = 0, inter = 0;
    while (i < a.n || j < b.n) {
        int c = i == a.n ? 1 : j == b.n ? -1
              : keycmp(a.r[i].key, a.r[i].keylen, b.r[j].key, b.r[j].keylen);
        const struct crec *k = c <= 0 ? &a.r[i] : &b.r[j];
        size_t i0 = i, j0 = j;
        while (i < a.n && !keycmp(a.r[i].key, a.r[i].keylen, k->key, k->keylen))
            i++;
        while (j < b.n && !keycmp(b.r[j].key, b.r[j].keylen, k->key, k->keylen))
            j++;
        warps++;
        size_t ni = i - i0, nj = j - j0, m = 0;
        while (m < ni && m < nj && !strcmp(a.r[i0 + m].line, b.r[j0 + m].line))
            m++;
        if (m == ni && m == nj)
            continue;
        size_t ta = 0, tb = 0;
        unsigned tl = 0;
        int teq = 0;
        if (per_thread) {
            teq = warp_threads_equal(a.r + i0, ni, b.r + j0, nj, &ta, &tb, &tl);
            if (teq < 0) {
                fprintf(stderr, "lockstep: diff: out of memory\n");
                clog_free(&a);
                clog_free(&b);
                return CLI_FAIL;
            }
            if (teq) {
                inter++;
                continue;
            }
        }
        if (bad++ >= 10)
            continue;
        unsigned launch = 0, cx = 0, cy = 0, cz = 0, wp = 0;
        sscanf(k->key, "%u %u.%u.%u %u", &launch, &cx, &cy, &cz, &wp);
        const char *kern = launch >= 1 && launch <= 64 ? a.kernels[launch - 1] : "?";
        if (per_thread && ta != SIZE_MAX && tb != SIZE_MAX) {
            const char *ra = a.r[i0 + ta].line, *rb = b.r[j0 + tb].line;
            char pc[32] = "?", line[32] = "?", op[64] = "?";
            sscanf(ra, "%31s %31s %63s", pc, line, op);
            fprintf(out, "launch %u (%s) CTA (%u,%u,%u) warp %u, thread of lane %u: its "
                    "records differ: pc %s, PTX line %s, %s\n", launch, kern, cx, cy, cz,
                    wp, tl, pc, line[0] == 'L' ? line + 1 : line, op);
            explain(out, ra, rb);
        } else if (per_thread) {
            fprintf(out, "launch %u (%s) CTA (%u,%u,%u) warp %u, thread of lane %u: %s has "
                    "more records for it, from %s\n", launch, kern, cx, cy, cz, wp, tl,
                    ta != SIZE_MAX ? na : nb,
                    ta != SIZE_MAX ? a.r[i0 + ta].line : b.r[j0 + tb].line);
        } else if (m < ni && m < nj) {
            const char *ra = a.r[i0 + m].line, *rb = b.r[j0 + m].line;
            char pc[32] = "?", line[32] = "?", op[64] = "?";
            sscanf(ra, "%31s %31s %63s", pc, line, op);
            fprintf(out, "launch %u (%s) CTA (%u,%u,%u) warp %u: record %zu differs: pc %s, "
                    "PTX line %s, %s\n", launch, kern, cx, cy, cz, wp, m + 1, pc,
                    line[0] == 'L' ? line + 1 : line, op);
            explain(out, ra, rb);
        } else {
            fprintf(out, "launch %u (%s) CTA (%u,%u,%u) warp %u: %s has %zu records, %s has "
                    "%zu (the first %zu agree)\n", launch, kern, cx, cy, cz, wp, na, ni,
                    nb, nj, m);
        }
    }
    if (bad > 10)
        fprintf(out, "... and %zu more warps differ\n", bad - 10);
    if (bad)
        fprintf(out, "commit logs: %zu of %zu warps differ (expected = %s, %zu records; "
                "actual = %s, %zu records)\n", bad, warps, na, a.n, nb, b.n);
    else if (per_thread)
        fprintf(out, "commit logs: identical per thread: %zu warps (%zu of them with "
                "their paths interleaved differently), %zu records (%s and %s)\n",
                warps, inter, a.n, na, nb);
    else
        fprintf(out, "commit logs: identical: %zu warps, %zu records (%s and %s)\n",
                warps, a.n, na, nb);
    clog_free(&a);
    clog_free(&b);
    return bad ? CLI_FAIL : CLI_OK;
}
