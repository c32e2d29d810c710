/* racecheck, synccheck and initcheck (exec_check.h, docs/checks.md).
 *
 * Order independence: every shadow record keeps, per barrier interval,
 * what does not depend on the interleaving of warps: for each shared byte
 * the two lowest threads that wrote it and the two lowest that read it
 * (each with its smallest site and program position), for each barrier
 * generation the smallest and largest barrier site and thread count. A
 * record is judged when its interval is over (a later interval touches it,
 * or the CTA finishes), so both modes judge the same sets. */
#include <stdlib.h>
#include <string.h>
#include "exec/exec_check.h"

#define NBAR 16
#define NO_TID 0xffffu

/* One access in a shadow record: thread, site (function base + pc), its
 * position in the thread's barrier interval, its bar.warp.sync count. */
struct chk_acc {
    uint32_t site, ord;
    uint16_t tid, ws;
};

/* racecheck shadow of one shared byte: interval (epoch + 1; 0 = unused),
 * lowest two writer threads, lowest two reader threads. */
struct chk_byte {
    uint32_t epoch;
    struct chk_acc w[2], r[2];
};

/* synccheck record of one barrier id in the current generation. */
struct chk_bar {
    bool used;
    uint32_t gen;
    uint32_t smin, smax;        /* sites */
    uint16_t tmin, tmax;        /* a thread at smin / smax */
    uint32_t cmin, cmax;        /* thread counts (0: all) */
    uint16_t tcmin, tcmax;
};

struct exec_chk_cta {
    struct exec_chk_cta *next;
    uint64_t id;
    uint32_t warps_done;
    uint32_t *ep;               /* per thread: barriers passed            */
    uint16_t *ws;               /* per thread: bar.warp.sync passed       */
    uint64_t *base;             /* per thread: warp seq at interval start */
    struct chk_byte *sh;        /* racecheck: shared_bytes records        */
    uint8_t *split;             /* racecheck: per 4-byte granule, 1 when
                                   its bytes have records of their own    */
    uint8_t *shinit;            /* initcheck: shared bytes written (bits) */
    uint8_t **linit;            /* initcheck: per warp, local bits        */
    struct chk_bar bar[NBAR];
};

/* ------------------------------------------------------------ names */

const char *exec_chk_kind_name(unsigned kind)
{
    static const char *const n[EXEC_CHK_NKINDS] = {
        "write-after-write", "read-after-write", "write-after-read",
        "shfl-source-lane", "mask-excludes-self", "member-lanes-inactive",
        "divergent-barrier", "barrier-mismatch", "barrier-count-mismatch",
        "uninitialized-load", "write-after-write", "out-of-bounds",
    };
    return kind < EXEC_CHK_NKINDS ? n[kind] : "?";
}

const char *exec_chk_check_name(unsigned kind)
{
    if (kind <= EXEC_CHK_K_WAR)
        return "racecheck";
    if (kind < EXEC_CHK_K_INIT)
        return "synccheck";
    return kind == EXEC_CHK_K_INIT ? "initcheck" : kind == EXEC_CHK_K_GWAW ? "globalrace"
           : kind == EXEC_CHK_K_OOB ? "memcheck" : "?";
}

/* ------------------------------------------------------------ bitmaps */

static inline bool bits_all(const uint8_t *b, uint64_t off, uint64_t n, uint64_t *first)
{
    for (uint64_t i = off; i < off + n; i++)
        if (!(b[i >> 3] >> (i & 7) & 1)) {
            *first = i;
            return false;
        }
    return true;
}

static inline void bits_set(uint8_t *b, uint64_t off, uint64_t n)
{
    for (uint64_t i = off; i < off + n; i++)
        b[i >> 3] |= (uint8_t)(1u << (i & 7));
}

void exec_chk_init_mark(const struct exec_alloc *a, uint64_t off, uint64_t n)
{
    if (!a || !a->init || off >= a->size)
        return;
    if (n > a->size - off)
        n = a->size - off;
    uint64_t i = off, e = off + n;
    for (; i < e && (i & 7); i++)
        a->init[i >> 3] |= (uint8_t)(1u << (i & 7));
    if (e - i >= 8) {
        memset(a->init + (i >> 3), 0xff, (size_t)((e - i) >> 3));
        i += (e - i) & ~7ull;
    }
    for (; i < e; i++)
        a->init[i >> 3] |= (uint8_t)(1u << (i & 7));
}

/* ------------------------------------------------------------ findings */

static inline uint32_t site_of(const struct exec_chk *c, const struct ptx_func *f, int32_t pc)
{
    return c->fbase[f - c->mod->funcs] + (uint32_t)pc;
}

static void site_split(const struct exec_chk *c, uint32_t site,
                       const struct ptx_func **f, int32_t *pc)
{
    uint32_t i = 0;
    while (i + 1 < c->mod->nfuncs && c->fbase[i + 1] <= site)
        i++;
    *f = &c->mod->funcs[i];
    *pc = (int32_t)(site - c->fbase[i]);
}

static inline uint64_t key_hash(unsigned kind, unsigned space, uint32_t s0, uint32_t s1)
{
    uint64_t h = ((uint64_t)s0 << 32 | s1) * 0x9e3779b97f4a7c15ull;
    h ^= (uint64_t)(kind * 16 + space) * 0xc2b2ae3d27d4eb4full;
    return h ^ (h >> 29);
}

static bool same_key(const struct exec_chk *c, const struct exec_chk_finding *x,
                     unsigned kind, unsigned space, uint32_t s0, uint32_t s1)
{
    return x->kind == kind && x->space == space &&
           site_of(c, x->f[0], x->pc[0]) == s0 &&
           (x->nsites < 2 || site_of(c, x->f[1], x->pc[1]) == s1);
}

static int grow_hash(struct exec_chk *c)
{
    uint32_t nc = c->hcap ? c->hcap * 2 : 64;
    uint32_t *h = calloc(nc, sizeof *h);
    if (!h)
        return -1;
    for (uint32_t i = 0; i < c->nfd; i++) {
        const struct exec_chk_finding *x = &c->fd[i];
        uint32_t s1 = x->nsites > 1 ? site_of(c, x->f[1], x->pc[1]) : 0;
        uint64_t k = key_hash(x->kind, x->space, site_of(c, x->f[0], x->pc[0]), s1);
        uint32_t j = (uint32_t)k & (nc - 1);
        while (h[j])
            j = (j + 1) & (nc - 1);
        h[j] = i + 1;
    }
    free(c->hash);
    c->hash = h;
    c->hcap = nc;
    return 0;
}

/* Whether instance (cta, addr, t0, t1) comes before finding x's. */
static inline bool inst_less(uint64_t cta, uint64_t addr, uint32_t t0, uint32_t t1,
                             const struct exec_chk_finding *x)
{
    if (cta != x->cta) return cta < x->cta;
    if (addr != x->addr) return addr < x->addr;
    if (t0 != x->tid[0]) return t0 < x->tid[0];
    return t1 < x->tid[1];
}

/* One instance of a finding: counted under its key (kind, space, sites);
 * the smallest instance is the one reported. */
static void report_n(struct exec_chk *c, unsigned kind, unsigned space, uint64_t cta,
                     uint32_t t0, uint32_t s0, bool w0, uint32_t t1, uint32_t s1,
                     bool w1, unsigned nsites, uint32_t lanes, uint64_t addr,
                     uint64_t weight, uint64_t cta2)
{
    if (c->oom)
        return;
    if (nsites < 2)
        s1 = 0, t1 = 0;
    if ((c->nfd + 1) * 2 > c->hcap && grow_hash(c) != 0) {
        c->oom = true;
        return;
    }
    uint32_t j = (uint32_t)key_hash(kind, space, s0, s1) & (c->hcap - 1);
    while (c->hash[j]) {
        struct exec_chk_finding *x = &c->fd[c->hash[j] - 1];
        if (same_key(c, x, kind, space, s0, s1)) {
            x->count += weight;
            if (inst_less(cta, addr, t0, t1, x)) {
                x->cta = cta;
                x->cta2 = cta2;
                x->addr = addr;
                x->tid[0] = t0;
                x->tid[1] = t1;
                x->lanes = lanes;
            }
            return;
        }
        j = (j + 1) & (c->hcap - 1);
    }
    if (c->nfd == c->capfd) {
        uint32_t nc = c->capfd ? c->capfd * 2 : 16;
        struct exec_chk_finding *nf = realloc(c->fd, nc * sizeof *nf);
        if (!nf) {
            c->oom = true;
            return;
        }
        c->fd = nf;
        c->capfd = nc;
    }
    struct exec_chk_finding *x = &c->fd[c->nfd];
    memset(x, 0, sizeof *x);
    x->kind = (uint8_t)kind;
    x->space = (uint8_t)space;
    x->nsites = (uint8_t)nsites;
    x->cta = cta;
    x->cta2 = cta2;
    x->tid[0] = t0;
    x->tid[1] = t1;
    site_split(c, s0, &x->f[0], &x->pc[0]);
    if (nsites > 1)
        site_split(c, s1, &x->f[1], &x->pc[1]);
    x->write[0] = w0;
    x->write[1] = w1;
    x->lanes = lanes;
    x->addr = addr;
    x->count = weight;
    c->hash[j] = ++c->nfd;
}

static void report(struct exec_chk *c, unsigned kind, unsigned space, uint64_t cta,
                   uint32_t t0, uint32_t s0, bool w0, uint32_t t1, uint32_t s1,
                   bool w1, unsigned nsites, uint32_t lanes, uint64_t addr)
{
    report_n(c, kind, space, cta, t0, s0, w0, t1, s1, w1, nsites, lanes, addr, 1, cta);
}

/* ------------------------------------------------------------ racecheck */

static inline bool acc_less(const struct chk_acc *x, const struct chk_acc *y)
{
    return x->site != y->site ? x->site < y->site : x->ord < y->ord;
}

/* Keeps the two lowest distinct threads, each with its smallest access. */
static inline void top2(struct chk_acc a[2], const struct chk_acc *x)
{
    if (x->tid == a[0].tid) {
        if (acc_less(x, &a[0]))
            a[0] = *x;
    } else if (x->tid < a[0].tid) {
        a[1] = a[0];
        a[0] = *x;
    } else if (x->tid == a[1].tid) {
        if (acc_less(x, &a[1]))
            a[1] = *x;
    } else if (x->tid < a[1].tid) {
        a[1] = *x;
    }
}

/* Unordered: different threads in one CTA barrier interval, and (same
 * warp) no bar.warp.sync between them. */
static inline bool conflict(const struct chk_acc *x, const struct chk_acc *y)
{
    if (x->tid == NO_TID || y->tid == NO_TID || x->tid == y->tid)
        return false;
    return (x->tid >> 5) != (y->tid >> 5) || x->ws == y->ws;
}

static void race_pair(struct exec_chk *c, uint64_t cta, uint64_t addr, unsigned kind,
                      const struct chk_acc *a, bool wa, const struct chk_acc *b, bool wb,
                      unsigned nbytes)
{
    /* write-after-write: the pair in site order, one key per site pair */
    if (kind == EXEC_CHK_K_WAW && (b->site < a->site ||
                                   (b->site == a->site && b->tid < a->tid))) {
        const struct chk_acc *t = a;
        a = b;
        b = t;
    }
    report_n(c, kind, PTX_SP_SHARED, cta, a->tid, a->site, wa, b->tid, b->site, wb,
             2, 0, addr, nbytes, cta);
}

/* Judges the record of shared byte addr of CTA cta (nbytes: 4 for the
 * record of a whole granule): its interval is over. */
static void race_judge(struct exec_chk *c, uint64_t cta, uint64_t addr,
                       const struct chk_byte *r, unsigned nbytes)
{
    if (r->w[0].tid == NO_TID)
        return;                 /* read only: no hazard */
    if (conflict(&r->w[0], &r->w[1]))
        race_pair(c, cta, addr, EXEC_CHK_K_WAW, &r->w[0], true, &r->w[1], true, nbytes);
    for (unsigned i = 0; i < 2; i++)
        for (unsigned j = 0; j < 2; j++)
            if (conflict(&r->w[i], &r->r[j])) {
                /* the one later in its thread's interval is the "after" */
                unsigned k = r->w[i].ord <= r->r[j].ord ? EXEC_CHK_K_RAW : EXEC_CHK_K_WAR;
                race_pair(c, cta, addr, k, &r->w[i], true, &r->r[j], false, nbytes);
                return;
            }
}

static inline void race_reset(struct chk_byte *r, uint32_t epoch)
{
    r->epoch = epoch;
    r->w[0].tid = r->w[1].tid = r->r[0].tid = r->r[1].tid = NO_TID;
}

/* Adds access x to record r (one byte, or a whole granule). */
static inline void race_rec(struct exec_chk *c, struct exec_chk_cta *k, uint64_t addr,
                            struct chk_byte *r, bool write, const struct chk_acc *x,
                            uint32_t e, unsigned nbytes)
{
    if (r->epoch != e) {
        if (r->epoch > e)
            return;             /* a late access of an older interval
                                 * (partial barriers): not judged */
        if (r->epoch)
            race_judge(c, k->id, addr, r, nbytes);
        race_reset(r, e);
    }
    top2(write ? r->w : r->r, x);
}

/* Records are per byte, but a 4-byte granule that only whole-granule
 * accesses touched keeps one record (in its first byte's slot) for all
 * four bytes; the first narrower access splits it into four equal
 * records. The same accesses give the same records either way. */
static void race_access(struct exec_chk *c, struct exec_chk_cta *k, uint64_t off,
                        unsigned n, bool write, const struct chk_acc *x, uint32_t ep)
{
    uint32_t e = ep + 1;
    if (off >= c->shared_bytes)
        return;
    if (n > c->shared_bytes - off)
        n = (unsigned)(c->shared_bytes - off);
    for (unsigned i = 0; i < n;) {
        uint64_t a = off + i, g = a >> 2;
        if (!k->split[g]) {
            if (!(a & 3) && n - i >= 4) {
                race_rec(c, k, a, &k->sh[a], write, x, e, 4);
                i += 4;
                continue;
            }
            for (unsigned b = 1; b < 4 && g * 4 + b < c->shared_bytes; b++)
                k->sh[g * 4 + b] = k->sh[g * 4];
            k->split[g] = 1;
        }
        race_rec(c, k, a, &k->sh[a], write, x, e, 1);
        i++;
    }
}

/* ------------------------------------------------------------ globalrace */

/* Plain (non-atomic) stores of two different CTAs of one launch to the
 * same global byte. Shadow per byte of an allocation, in pages allocated
 * on the first store: the lowest CTA (+1; 0 = not stored to in this
 * launch) that stored to the byte, with its smallest (site, thread). A
 * byte a second CTA stores to gets a conflict entry keeping the
 * second-lowest CTA the same way. Both are minima over the launch's
 * stores, so the report does not depend on the order CTAs ran in. */
#define GPAGE 4096u

struct chk_gbyte {
    uint32_t cta1, site, tid;
};

struct chk_galloc {
    uint64_t base, size;
    struct chk_gbyte **pg;      /* size / GPAGE pages, NULL until stored to */
};

struct chk_gconf {
    uint64_t addr;              /* 0: empty slot (global addresses are not 0) */
    struct chk_gbyte *lo;       /* the byte's shadow (lowest CTA)           */
    struct chk_gbyte second;    /* second-lowest CTA                        */
};

static inline bool g_less(uint32_t site, uint32_t tid, const struct chk_gbyte *x)
{
    return site != x->site ? site < x->site : tid < x->tid;
}

static struct chk_galloc *g_alloc(struct exec_chk *c, const struct exec_alloc *a)
{
    for (uint32_t i = c->nga; i-- > 0;)     /* size too: a device-heap block
                                            * freed and reallocated in the
                                            * launch may reuse a base */
        if (c->ga[i].base == a->base && c->ga[i].size == a->size)
            return &c->ga[i];
    if (c->nga == c->capga) {
        uint32_t nc = c->capga ? c->capga * 2 : 8;
        struct chk_galloc *n = realloc(c->ga, nc * sizeof *n);
        if (!n)
            return NULL;
        c->ga = n;
        c->capga = nc;
    }
    struct chk_galloc *g = &c->ga[c->nga];
    g->base = a->base;
    g->size = a->size;
    g->pg = calloc((size_t)((a->size + GPAGE - 1) / GPAGE), sizeof *g->pg);
    if (!g->pg)
        return NULL;
    c->nga++;
    return g;
}

static struct chk_gconf *g_conf(struct exec_chk *c, uint64_t addr)
{
    if ((c->ngc + 1) * 2 > c->gccap) {
        uint32_t nc = c->gccap ? c->gccap * 2 : 64;
        struct chk_gconf *n = calloc(nc, sizeof *n);
        if (!n)
            return NULL;
        for (uint32_t i = 0; i < c->gccap; i++)
            if (c->gc[i].addr) {
                uint32_t j = (uint32_t)(c->gc[i].addr * 0x9e3779b97f4a7c15ull >> 32) & (nc - 1);
                while (n[j].addr)
                    j = (j + 1) & (nc - 1);
                n[j] = c->gc[i];
            }
        free(c->gc);
        c->gc = n;
        c->gccap = nc;
    }
    uint32_t j = (uint32_t)(addr * 0x9e3779b97f4a7c15ull >> 32) & (c->gccap - 1);
    while (c->gc[j].addr && c->gc[j].addr != addr)
        j = (j + 1) & (c->gccap - 1);
    if (!c->gc[j].addr) {
        c->gc[j].addr = addr;
        c->ngc++;
    }
    return &c->gc[j];
}

/* A plain store of n bytes at global address addr by thread tid of CTA cta. */
static void g_store(struct exec_chk *c, const struct exec_memctx *m, uint64_t addr,
                    unsigned n, uint64_t cta, uint32_t site, uint32_t tid)
{
    const struct exec_alloc *a = m->dmem ? exec_dmem_find(m->dmem, addr, n) : NULL;
    if (!a)
        return;
    struct chk_galloc *g = g_alloc(c, a);
    if (!g) {
        c->oom = true;
        return;
    }
    struct chk_gbyte x = { (uint32_t)cta + 1, site, tid };
    for (unsigned i = 0; i < n && addr + i - a->base < a->size; i++) {
        uint64_t off = addr + i - a->base, p = off / GPAGE;
        if (!g->pg[p] && !(g->pg[p] = calloc(GPAGE, sizeof **g->pg))) {
            c->oom = true;
            return;
        }
        struct chk_gbyte *r = &g->pg[p][off % GPAGE];
        if (!r->cta1 || (r->cta1 == x.cta1 && g_less(site, tid, r))) {
            *r = x;
            continue;
        }
        if (r->cta1 == x.cta1)
            continue;
        struct chk_gconf *q = g_conf(c, addr + i);
        if (!q) {
            c->oom = true;
            return;
        }
        struct chk_gbyte cand = x;
        if (x.cta1 < r->cta1) {
            cand = *r;
            *r = x;
        }
        q->lo = r;
        if (!q->second.cta1 || cand.cta1 < q->second.cta1 ||
            (cand.cta1 == q->second.cta1 && g_less(cand.site, cand.tid, &q->second)))
            q->second = cand;
    }
}

/* Reports every byte two CTAs stored to (the pair in site order, one key
 * per site pair), then frees the shadow. */
static void g_finish(struct exec_chk *c)
{
    for (uint32_t i = 0; i < c->gccap; i++) {
        const struct chk_gconf *q = &c->gc[i];
        if (!q->addr)
            continue;
        const struct chk_gbyte *a = q->lo, *b = &q->second;
        if (b->site < a->site) {
            const struct chk_gbyte *t = a;
            a = b;
            b = t;
        }
        report_n(c, EXEC_CHK_K_GWAW, PTX_SP_GLOBAL, a->cta1 - 1, a->tid, a->site, true,
                 b->tid, b->site, true, 2, 0, q->addr, 1, b->cta1 - 1);
    }
    free(c->gc);
    c->gc = NULL;
    c->ngc = c->gccap = 0;
    for (uint32_t i = 0; i < c->nga; i++) {
        size_t np = (size_t)((c->ga[i].size + GPAGE - 1) / GPAGE);
        for (size_t p = 0; p < np; p++)
            free(c->ga[i].pg[p]);
        free(c->ga[i].pg);
    }
    free(c->ga);
    c->ga = NULL;
    c->nga = c->capga = 0;
}

/* ------------------------------------------------------------ CTAs */

static void cta_free(struct exec_chk *c, struct exec_chk_cta *k)
{
    if (!k)
        return;
    free(k->ep);
    free(k->ws);
    free(k->base);
    free(k->sh);
    free(k->split);
    free(k->shinit);
    if (k->linit)
        for (uint32_t i = 0; i < c->nwarps; i++)
            free(k->linit[i]);
    free(k->linit);
    free(k);
}

static void bar_judge(struct exec_chk *c, struct exec_chk_cta *k, struct chk_bar *b)
{
    if (!b->used)
        return;
    if (b->smin != b->smax)
        report(c, EXEC_CHK_K_BAR_PC, 0, k->id, b->tmin, b->smin, false, b->tmax,
               b->smax, false, 2, 0, 0);
    if (b->cmin != b->cmax)
        report(c, EXEC_CHK_K_BAR_COUNT, 0, k->id, b->tcmin, b->smin, false, b->tcmax,
               b->smax, false, 2, 0, b->cmin);
    b->used = false;
}

/* The CTA's last warp finished: judges what is open, then frees it. */
static void cta_finish(struct exec_chk *c, struct exec_chk_cta *k)
{
    if (k->sh)
        for (uint64_t a = 0; a < c->shared_bytes; a++)
            if (k->sh[a].epoch && (k->split[a >> 2] || !(a & 3)))
                race_judge(c, k->id, a, &k->sh[a], k->split[a >> 2] ? 1 : 4);
    for (unsigned b = 0; b < NBAR; b++)
        bar_judge(c, k, &k->bar[b]);
    for (struct exec_chk_cta **p = &c->ctas; *p; p = &(*p)->next)
        if (*p == k) {
            *p = k->next;
            break;
        }
    cta_free(c, k);
}

static struct exec_chk_cta *cta_get(struct exec_chk *c, uint64_t id)
{
    for (struct exec_chk_cta *k = c->ctas; k; k = k->next)
        if (k->id == id)
            return k;
    struct exec_chk_cta *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->id = id;
    size_t nt = c->nwarps * (size_t)EXEC_WARP;
    k->ep = calloc(nt, sizeof *k->ep);
    k->ws = calloc(nt, sizeof *k->ws);
    k->base = calloc(nt, sizeof *k->base);
    if ((c->mask & EXEC_CHK_RACE) && c->shared_bytes) {
        k->sh = malloc((size_t)c->shared_bytes * sizeof *k->sh);
        if (k->sh)
            memset(k->sh, 0, (size_t)c->shared_bytes * sizeof *k->sh);
        k->split = calloc((size_t)c->shared_bytes / 4 + 1, 1);
    }
    if (c->mask & EXEC_CHK_INIT) {
        k->shinit = calloc((size_t)(c->shared_bytes + 7) / 8 + 1, 1);
        k->linit = calloc(c->nwarps, sizeof *k->linit);
    }
    if (!k->ep || !k->ws || !k->base ||
        ((c->mask & EXEC_CHK_RACE) && c->shared_bytes && (!k->sh || !k->split)) ||
        ((c->mask & EXEC_CHK_INIT) && (!k->shinit || !k->linit))) {
        cta_free(c, k);
        return NULL;
    }
    k->next = c->ctas;
    c->ctas = k;
    return k;
}

/* ------------------------------------------------------------ init/free */

void exec_chk_oob(struct exec_chk *c, uint64_t cta, uint32_t tid,
                  const struct ptx_func *f, int32_t pc, bool store, uint64_t addr)
{
    if (c && c->fbase)
        report(c, EXEC_CHK_K_OOB, PTX_SP_GLOBAL, cta, tid, site_of(c, f, pc), store,
               0, 0, false, 1, 0, addr);
}

int exec_chk_init(struct exec_chk *c, unsigned mask, const struct ptx_module *mod,
                  const uint32_t ntid[3], const uint32_t nctaid[3],
                  uint64_t shared_bytes, uint64_t local_stride)
{
    memset(c, 0, sizeof *c);
    c->mask = mask;
    c->mod = mod;
    memcpy(c->ntid, ntid, sizeof c->ntid);
    memcpy(c->nctaid, nctaid, sizeof c->nctaid);
    c->nthreads = ntid[0] * ntid[1] * ntid[2];
    c->nwarps = (c->nthreads + EXEC_WARP - 1) / EXEC_WARP;
    c->shared_bytes = shared_bytes;
    c->local_stride = local_stride;
    c->fbase = calloc(mod->nfuncs ? mod->nfuncs : 1, sizeof *c->fbase);
    if (!c->fbase) {
        c->oom = true;
        c->mask = 0;
        return 0;
    }
    uint32_t s = 0;
    for (uint32_t i = 0; i < mod->nfuncs; i++) {
        c->fbase[i] = s;
        s += mod->funcs[i].ninsts + 1;
    }
    return 0;
}

static int fd_cmp(const void *pa, const void *pb)
{
    const struct exec_chk_finding *a = pa, *b = pb;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    for (unsigned i = 0; i < 2; i++) {
        if (a->f[i] != b->f[i]) return a->f[i] < b->f[i] ? -1 : 1;
        if (a->pc[i] != b->pc[i]) return a->pc[i] < b->pc[i] ? -1 : 1;
    }
    if (a->space != b->space) return a->space < b->space ? -1 : 1;
    if (a->cta != b->cta) return a->cta < b->cta ? -1 : 1;
    if (a->tid[0] != b->tid[0]) return a->tid[0] < b->tid[0] ? -1 : 1;
    return 0;
}

void exec_chk_finish(struct exec_chk *c)
{
    while (c->ctas)
        cta_finish(c, c->ctas);
    g_finish(c);
    if (c->nfd > 1)
        qsort(c->fd, c->nfd, sizeof *c->fd, fd_cmp);
    free(c->hash);          /* indices no longer match after the sort */
    c->hash = NULL;
    c->hcap = 0;
}

void exec_chk_free(struct exec_chk *c)
{
    while (c->ctas) {
        struct exec_chk_cta *k = c->ctas;
        c->ctas = k->next;
        cta_free(c, k);
    }
    g_finish(c);
    free(c->fd);
    free(c->hash);
    free(c->fbase);
    memset(c, 0, sizeof *c);
}

/* ------------------------------------------------------------ initcheck */

static void init_access(struct exec_chk *c, struct exec_chk_warp *cw,
                        const struct exec_memctx *m, unsigned sp, unsigned lane,
                        uint64_t addr, unsigned n, bool rd, bool wr, uint32_t site)
{
    struct exec_chk_cta *k = cw->cta;
    uint8_t *bits = NULL;
    uint64_t off = addr;
    if (sp == PTX_SP_SHARED) {
        if (addr >= c->shared_bytes || n > c->shared_bytes - addr)
            return;
        bits = k->shinit;
    } else if (sp == PTX_SP_LOCAL) {
        if (addr >= c->local_stride || n > c->local_stride - addr)
            return;
        uint32_t wi = cw->first / EXEC_WARP;
        if (!k->linit[wi]) {
            k->linit[wi] = calloc((size_t)(EXEC_WARP * c->local_stride + 7) / 8, 1);
            if (!k->linit[wi]) {
                c->oom = true;
                return;
            }
        }
        bits = k->linit[wi];
        off = lane * c->local_stride + addr;
    } else if (sp == PTX_SP_GLOBAL || sp == PTX_SP_CONST) {
        const struct exec_alloc *a = m->dmem ? exec_dmem_find(m->dmem, addr, n) : NULL;
        if (!a || !a->init)
            return;
        bits = a->init;
        off = addr - a->base;
    } else {
        return;
    }
    uint64_t first;
    if (rd && !bits_all(bits, off, n, &first))
        report(c, EXEC_CHK_K_INIT, sp, k->id, cw->first + lane, site, false, 0, 0,
               false, 1, 0, addr + (first - off));
    if (wr)
        bits_set(bits, off, n);
}

/* ------------------------------------------------------------ synccheck */

/* Member mask of a warp collective (its last operand), or false. */
static bool member_mask(const struct exec_warp *w, const struct ptx_inst *in,
                        unsigned lane, uint32_t *mm)
{
    int last = -1;
    for (int i = 0; i < PTX_MAX_OPNDS; i++)
        if (in->o[i].kind != PTX_O_NONE)
            last = i;
    const char *nm = ptx_op_name((enum ptx_op)in->op);
    bool coll = in->op == PTX_OP_SHFL ? last >= 4
              : in->op == PTX_OP_VOTE ? last >= 2
              : (in->op == PTX_OP_BAR && in->sub == PTX_SUB_WARP_SYNC) ? last >= 0
              : (!strcmp(nm, "match") || !strcmp(nm, "redux")) ? last >= 2 : false;
    if (!coll)
        return false;
    *mm = (uint32_t)exec_read(w, &in->o[last], PTX_T_B32, lane);
    return true;
}

static void sync_warpop(struct exec_chk *c, struct exec_chk_warp *cw,
                        const struct exec_warp *w, const struct ptx_inst *in,
                        uint32_t act, uint32_t live, uint32_t site)
{
    uint32_t mm;
    unsigned l0 = (unsigned)__builtin_ctz(act);
    if (!member_mask(w, in, l0, &mm))
        return;
    uint64_t cta = cw->cta->id;
    uint32_t self = act & ~mm;
    if (self)
        report(c, EXEC_CHK_K_MASK_SELF, 0, cta, cw->first + (unsigned)__builtin_ctz(self),
               site, false, 0, 0, false, 1, self, mm);
    uint32_t inact = mm & live & ~act;
    if (inact)
        report(c, EXEC_CHK_K_MASK_INACT, 0, cta, cw->first + l0, site, false,
               cw->first + (unsigned)__builtin_ctz(inact), 0, false, 1, inact, mm);
    if (in->op != PTX_OP_SHFL)
        return;
    uint32_t badsrc = 0;
    EXEC_FOR_EACH_LANE(act, lane, {
        uint32_t bval = (uint32_t)exec_read(w, &in->o[3], PTX_T_B32, lane) & 31u;
        uint32_t cc = (uint32_t)exec_read(w, &in->o[4], PTX_T_B32, lane);
        uint32_t cval = cc & 31u, seg = (cc >> 8) & 31u;
        int maxl = (int)((lane & seg) | (cval & ~seg)), minl = (int)(lane & seg);
        int j;
        bool ok;
        switch (in->sub) {
        case PTX_SUB_UP:   j = (int)lane - (int)bval; ok = j >= maxl; break;
        case PTX_SUB_DOWN: j = (int)lane + (int)bval; ok = j <= maxl; break;
        case PTX_SUB_BFLY: j = (int)(lane ^ bval);    ok = j <= maxl; break;
        default:           j = minl | (int)(bval & ~seg); ok = j <= maxl; break;
        }
        if (ok && j >= 0 && j < EXEC_WARP && (unsigned)j != lane &&
            (!(act >> j & 1) || !(mm >> j & 1)))
            badsrc |= 1u << lane;
    });
    if (badsrc)
        report(c, EXEC_CHK_K_SHFL_SRC, 0, cta, cw->first + (unsigned)__builtin_ctz(badsrc),
               site, false, 0, 0, false, 1, badsrc, mm);
}

static void sync_barrier(struct exec_chk *c, struct exec_chk_warp *cw,
                         const struct exec_warp *w, const struct ptx_inst *in,
                         uint32_t arrive, uint32_t live, uint32_t site)
{
    struct exec_chk_cta *k = cw->cta;
    unsigned l0 = (unsigned)__builtin_ctz(arrive);
    uint32_t t0 = cw->first + l0;
    bool aligned = in->op == PTX_OP_BAR || (in->flags & PTX_F_ALIGNED);
    if (aligned && arrive != live)
        report(c, EXEC_CHK_K_DIV_BAR, 0, k->id, t0, site, false,
               cw->first + (unsigned)__builtin_ctz(live & ~arrive), 0, false, 1,
               live & ~arrive, 0);
    uint32_t id = in->o[0].kind != PTX_O_NONE
                      ? (uint32_t)exec_read(w, &in->o[0], PTX_T_U32, l0) : 0;
    uint32_t cnt = in->o[1].kind != PTX_O_NONE
                       ? (uint32_t)exec_read(w, &in->o[1], PTX_T_U32, l0) : 0;
    if (id >= NBAR)
        return;
    struct chk_bar *b = &k->bar[id];
    uint32_t gen = k->ep[t0];
    if (b->used && b->gen != gen) {
        if (b->gen > gen)
            return;             /* a late arrival (partial barriers) */
        bar_judge(c, k, b);
    }
    if (!b->used) {
        *b = (struct chk_bar){ true, gen, site, site, (uint16_t)t0, (uint16_t)t0,
                               cnt, cnt, (uint16_t)t0, (uint16_t)t0 };
        return;
    }
    if (site < b->smin || (site == b->smin && t0 < b->tmin)) { b->smin = site; b->tmin = (uint16_t)t0; }
    if (site > b->smax || (site == b->smax && t0 < b->tmax)) { b->smax = site; b->tmax = (uint16_t)t0; }
    if (cnt < b->cmin || (cnt == b->cmin && t0 < b->tcmin)) { b->cmin = cnt; b->tcmin = (uint16_t)t0; }
    if (cnt > b->cmax || (cnt == b->cmax && t0 < b->tcmax)) { b->cmax = cnt; b->tcmax = (uint16_t)t0; }
}

/* ------------------------------------------------------------ the hook */

void exec_chk_warp_done(struct exec_chk_warp *cw)
{
    struct exec_chk_cta *k = cw->cta;
    if (!k)
        return;
    cw->cta = NULL;
    if (++k->warps_done == cw->chk->nwarps)
        cta_finish(cw->chk, k);
}

static bool attach(struct exec_chk_warp *cw, const struct exec_warp *w)
{
    struct exec_chk *c = cw->chk;
    const struct exec_grid *g = w->grid;
    uint64_t id = ((uint64_t)g->ctaid[2] * c->nctaid[1] + g->ctaid[1]) * c->nctaid[0] +
                  g->ctaid[0];
    cw->cta = cta_get(c, id);
    if (!cw->cta) {
        c->oom = true;
        return false;
    }
    cw->first = g->warpid * EXEC_WARP;
    return true;
}

void exec_chk_step(struct exec_chk_warp *cw, const struct exec_warp *w,
                   const struct exec_memctx *m, const struct ptx_func *f,
                   int32_t pc, uint32_t mask, const struct exec_result *res,
                   uint32_t arrive, uint32_t live, uint64_t seq)
{
    struct exec_chk *c = cw->chk;
    if (!cw->cta && !attach(cw, w))
        return;
    const struct ptx_inst *in = &f->insts[pc];
    unsigned op = in->op;
    (void)mask;
    if (arrive) {               /* CTA barrier: sync checks, next interval */
        uint32_t site = site_of(c, f, pc);
        if (c->mask & EXEC_CHK_SYNC)
            sync_barrier(c, cw, w, in, arrive, live, site);
        struct exec_chk_cta *k = cw->cta;
        EXEC_FOR_EACH_LANE(arrive, lane, {
            k->ep[cw->first + lane]++;
            k->base[cw->first + lane] = seq;
        });
        return;
    }
    uint32_t act = res->active;
    if (!act)
        return;
    if (ptx_op_unit((enum ptx_op)op) == PTX_UNIT_SYNC) {
        if (c->mask & EXEC_CHK_SYNC)
            sync_warpop(c, cw, w, in, act, live, site_of(c, f, pc));
        if (op == PTX_OP_BAR && in->sub == PTX_SUB_WARP_SYNC) {
            struct exec_chk_cta *k = cw->cta;
            EXEC_FOR_EACH_LANE(act, lane, { k->ws[cw->first + lane]++; });
        }
        return;
    }
    bool wmma = op == PTX_OP_WMMA_LOAD || op == PTX_OP_WMMA_STORE;
    if (op != PTX_OP_LD && op != PTX_OP_LDU && op != PTX_OP_ST &&
        op != PTX_OP_ATOM && op != PTX_OP_RED && !wmma)
        return;
    bool atomic = op == PTX_OP_ATOM || op == PTX_OP_RED;
    bool st = op == PTX_OP_ST || op == PTX_OP_WMMA_STORE;
    bool wr = st || atomic, rd = !st;
    unsigned n = res->access_bytes;
    uint32_t site = site_of(c, f, pc);
    struct exec_chk_cta *k = cw->cta;
    /* wmma.load/store: a lane's further element addresses follow in
     * m->texaddr, the same number for every lane (exec_mma.c) */
    unsigned per = wmma && act == 0xffffffffu ? res->nxaddr / EXEC_WARP : 0;
    EXEC_FOR_EACH_LANE(act, lane, {
        unsigned sp = res->space;
        if (sp == PTX_SP_GENERIC)
            sp = (res->gen_shared >> lane & 1) ? PTX_SP_SHARED
               : (res->gen_local >> lane & 1) ? PTX_SP_LOCAL : PTX_SP_GLOBAL;
        uint32_t t = cw->first + lane;
        for (unsigned x = 0; x <= per; x++) {
            uint64_t addr = x ? m->texaddr[lane * per + x - 1] : res->addr[lane];
            if ((c->mask & EXEC_CHK_RACE) && sp == PTX_SP_SHARED && !atomic && k->sh) {
                struct chk_acc xa = { site, (uint32_t)(seq - k->base[t]), (uint16_t)t,
                                      k->ws[t] };
                race_access(c, k, addr, n, wr, &xa, k->ep[t]);
            }
            if (c->mask & EXEC_CHK_INIT)
                init_access(c, cw, m, sp, lane, addr, n, rd, wr, site);
            if ((c->mask & EXEC_CHK_GRACE) && sp == PTX_SP_GLOBAL && wr && !atomic)
                g_store(c, m, addr, n, k->id, site, t);
        }
    });
}
