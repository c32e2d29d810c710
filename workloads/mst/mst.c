/* mst host driver: minimum spanning forest of a seeded random undirected
 * graph by Boruvka's algorithm (mst.cu gives the kernels). Each vertex v
 * adds 1-3 edges to uniformly random other vertices (parallel edges
 * allowed, no self loops), weights uniform in [1, 1000]: many equal
 * weights, so the tie-break by edge index in the 64-bit key matters. The
 * host runs rounds of mst_minedge, mst_link, mst_jump until a round links
 * no component (limit: 64 rounds; Boruvka at least halves the number of
 * non-isolated components per round).
 * Check: exact. The forest is unique (the keys are distinct), so the set
 * of edges marked in_mst must equal Kruskal's on the CPU (keys sorted,
 * union-find) and the total weight must match. The rounds do not depend on
 * the order of the atomics (atomicMin of distinct keys; each root writes
 * only its own parent), so a CPU replay of the same rounds gives the
 * number of rounds, the cumulative link count after every round and the
 * final component label of every vertex, all compared exactly. The driver
 * also checks the replay against Kruskal (a check of the reference). */
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define MST_ROUNDS 64
#define MST_NONE UINT64_MAX

static int mst_cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static int mst_find(int *uf, int v)
{
    while (uf[v] != v) {
        uf[v] = uf[uf[v]];
        v = uf[v];
    }
    return v;
}

/* Kruskal: marks in_mst, returns the total weight (uf, key: scratch of n
 * ints and m keys). */
static uint64_t mst_kruskal(const int *eu, const int *ev, const int *ew,
                            unsigned n, unsigned m, uint8_t *in_mst, int *uf,
                            uint64_t *key)
{
    uint64_t total = 0;
    for (unsigned v = 0; v < n; v++)
        uf[v] = (int)v;
    for (unsigned e = 0; e < m; e++)
        key[e] = (uint64_t)(uint32_t)ew[e] << 32 | e;
    qsort(key, m, sizeof *key, mst_cmp_u64);
    memset(in_mst, 0, m);
    for (unsigned k = 0; k < m; k++) {
        unsigned e = (unsigned)(key[k] & 0xffffffffu);
        int a = mst_find(uf, eu[e]), b = mst_find(uf, ev[e]);
        if (a != b) {
            uf[a] = b;
            in_mst[e] = 1;
            total += (uint64_t)ew[e];
        }
    }
    return total;
}

/* One Boruvka round as the three kernels do it; returns links made. */
static unsigned mst_cpu_round(const int *eu, const int *ev, const int *ew,
                              unsigned n, unsigned m, int *comp, int *parent,
                              uint64_t *best, uint8_t *in_mst, uint64_t *total)
{
    unsigned links = 0;
    for (unsigned e = 0; e < m; e++) {
        int cu = comp[eu[e]], cv = comp[ev[e]];
        uint64_t key = (uint64_t)(uint32_t)ew[e] << 32 | e;
        if (cu != cv) {
            if (key < best[cu])
                best[cu] = key;
            if (key < best[cv])
                best[cv] = key;
        }
    }
    for (unsigned c = 0; c < n; c++) {
        if (comp[c] != (int)c || best[c] == MST_NONE)
            continue;
        unsigned e = (unsigned)(best[c] & 0xffffffffu);
        int cu = comp[eu[e]], cv = comp[ev[e]];
        int o = cu == (int)c ? cv : cu;
        if (best[o] == best[c] && o > (int)c)
            continue;
        parent[c] = o;
        in_mst[e] = 1;
        *total += (uint64_t)ew[e];
        links++;
    }
    for (unsigned v = 0; v < n; v++) {
        int r = comp[v];
        while (parent[r] != r)
            r = parent[r];
        comp[v] = r;
        best[v] = MST_NONE;
    }
    return links;
}

static int mst_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                   uint64_t seed, struct wl_report *rep)
{
    unsigned n = wl_pick(size, 1500, 16000, 80000);
    unsigned cap = 3 * n;
    int *eu = malloc(cap * sizeof(int)), *ev = malloc(cap * sizeof(int)),
        *ew = malloc(cap * sizeof(int));
    int *comp = malloc(n * sizeof(int)), *parent = malloc(n * sizeof(int)),
        *gcomp = malloc(n * sizeof(int)), *uf = malloc(n * sizeof(int));
    uint64_t *best = malloc(n * sizeof(uint64_t)), *key = malloc(cap * sizeof(uint64_t));
    uint8_t *kr = malloc(cap), *rp = malloc(cap), *gin = malloc(cap);
    uint32_t *gin32 = malloc(cap * sizeof(uint32_t)), *kr32 = malloc(cap * sizeof(uint32_t));
    ls_dptr deu = 0, dev = 0, dew = 0, dcomp = 0, dparent = 0, dbest = 0,
            din = 0, dtotal = 0, dlinks = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!eu || !ev || !ew || !comp || !parent || !gcomp || !uf || !best ||
        !key || !kr || !rp || !gin || !gin32 || !kr32) {
        wl_fail(rep, "mst: host allocation failed (%u vertices)", n);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    unsigned m = 0;
    for (unsigned v = 0; v < n; v++) {
        unsigned deg = 1 + wl_rng_below(&rng, 3);
        for (unsigned k = 0; k < deg; k++) {
            unsigned u = wl_rng_below(&rng, n - 1);
            eu[m] = (int)v;
            ev[m] = (int)(u >= v ? u + 1 : u);
            ew[m] = 1 + (int)wl_rng_below(&rng, 1000);
            m++;
        }
    }
    for (unsigned v = 0; v < n; v++) {
        comp[v] = parent[v] = (int)v;
        best[v] = MST_NONE;
    }
    uint64_t zero = 0;
    if ((st = wl_upload(gpu, rep, "eu", &deu, eu, m * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "ev", &dev, ev, m * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "ew", &dew, ew, m * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "comp", &dcomp, comp, n * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "parent", &dparent, parent, n * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "best", &dbest, best, n * sizeof(uint64_t))) ||
        (st = wl_upload(gpu, rep, "in_mst", &din, NULL, m)) ||
        (st = wl_upload(gpu, rep, "total", &dtotal, &zero, sizeof zero)) ||
        (st = wl_upload(gpu, rep, "links", &dlinks, NULL, sizeof(int))))
        goto out;
    int ni = (int)n, mi = (int)m;
    void *a_min[] = { &deu, &dev, &dew, &dcomp, &dbest, &mi };
    void *a_link[] = { &deu, &dev, &dew, &dcomp, &dbest, &dparent, &din,
                       &dtotal, &dlinks, &ni };
    void *a_jump[] = { &dcomp, &dparent, &dbest, &ni };
    ls_dim3 blk = { 256, 1, 1 }, ge = { (m + 255) / 256, 1, 1 },
            gv = { (n + 255) / 256, 1, 1 };
    /* the CPU replay runs alongside, round for round */
    uint64_t rtotal = 0;
    unsigned rlinks = 0, round = 0;
    memset(rp, 0, m);
    int glinks = 0, prev = 0;
    for (;;) {
        if (round == MST_ROUNDS) {
            wl_fail(rep, "mst: still linking after %u rounds", round);
            goto out;
        }
        if ((st = wl_launch(gpu, mod, rep, "mst_minedge", ge, blk, 0, a_min)) ||
            (st = wl_launch(gpu, mod, rep, "mst_link", gv, blk, 0, a_link)) ||
            (st = wl_launch(gpu, mod, rep, "mst_jump", gv, blk, 0, a_jump)) ||
            (st = wl_download(gpu, rep, "links", &glinks, dlinks, sizeof(int))))
            goto out;
        round++;
        unsigned made = mst_cpu_round(eu, ev, ew, n, m, comp, parent, best, rp,
                                      &rtotal);
        rlinks += made;
        if ((unsigned)glinks != rlinks) {
            wl_fail(rep, "mst: %d links after round %u, want %u", glinks,
                    round, rlinks);
            goto out;
        }
        if (glinks == prev)
            break;
        prev = glinks;
    }
    uint64_t gtotal = 0;
    if ((st = wl_download(gpu, rep, "comp", gcomp, dcomp, n * sizeof(int))) ||
        (st = wl_download(gpu, rep, "in_mst", gin, din, m)) ||
        (st = wl_download(gpu, rep, "total", &gtotal, dtotal, sizeof gtotal)))
        goto out;
    uint64_t ktotal = mst_kruskal(eu, ev, ew, n, m, kr, uf, key);
    if (ktotal != rtotal || memcmp(kr, rp, m) != 0 || round < 3) {
        wl_fail(rep, "mst: the Boruvka replay (weight %llu, %u rounds) disagrees "
                "with Kruskal (weight %llu) (reference bug)",
                (unsigned long long)rtotal, round, (unsigned long long)ktotal);
        goto out;
    }
    for (unsigned e = 0; e < m; e++) {
        gin32[e] = gin[e];
        kr32[e] = kr[e];
    }
    if (!wl_check_u32(rep, "in_mst", gin32, kr32, m) ||
        !wl_check_i32(rep, "comp", gcomp, comp, n))
        goto out;
    if (gtotal != ktotal)
        wl_fail(rep, "mst: total weight %llu, want %llu",
                (unsigned long long)gtotal, (unsigned long long)ktotal);
out:
    ls_free(gpu, deu);
    ls_free(gpu, dev);
    ls_free(gpu, dew);
    ls_free(gpu, dcomp);
    ls_free(gpu, dparent);
    ls_free(gpu, dbest);
    ls_free(gpu, din);
    ls_free(gpu, dtotal);
    ls_free(gpu, dlinks);
    free(eu);
    free(ev);
    free(ew);
    free(comp);
    free(parent);
    free(gcomp);
    free(uf);
    free(best);
    free(key);
    free(kr);
    free(rp);
    free(gin);
    free(gin32);
    free(kr32);
    return (int)st;
}

const struct workload wl_def_mst = { "mst", "irregular",
    "Boruvka minimum spanning forest: atomicMin edge choice, pointer jumping",
    mst_run };
