/* bptree host driver: a static B+ tree of fanout 16 over nkeys seeded,
 * distinct, increasing keys (gaps of 1-128, below 2^30) with seeded 31-bit
 * values, bulk-loaded on the host: leaves take 8-16 keys each (seeded), an
 * internal node 8-16 children (seeded; the last group of a level takes what
 * is left), separators are the smallest key of each child but the first.
 * Nodes are stored leaves first, then each internal level, the root last
 * (bptree.cu gives the 128-byte node layout). nq queries, one per thread:
 * half are keys of the tree, half uniform over [0, max key + 64] (mostly
 * misses). Check, exact: every result equals a CPU binary search of the
 * sorted keys (the value, or -1), and at least one query hits and one
 * misses. */
#include <limits.h>
#include <stdlib.h>
#include "workloads/wl_common.h"

#define BPT_FAN 16                      /* as in bptree.cu */
#define BPT_INTS (2 * BPT_FAN)          /* ints per node */

/* Value of q among the sorted keys, or -1. */
static int bpt_lookup(const int *keys, const int *vals, unsigned n, int q)
{
    unsigned lo = 0, hi = n;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (keys[mid] < q)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && keys[lo] == q ? vals[lo] : -1;
}

/* Writes one level of internal nodes over the nchild nodes starting at
 * node index first (whose smallest keys are in lo[]); returns the number of
 * nodes written, their smallest keys replacing lo[0..]. */
static unsigned bpt_level(struct wl_rng *rng, int *nodes, unsigned first,
                          unsigned nchild, unsigned next, int *lo)
{
    unsigned made = 0;
    for (unsigned c = 0; c < nchild; made++) {
        unsigned take = 8 + wl_rng_below(rng, BPT_FAN - 7);
        if (take > nchild - c)
            take = nchild - c;
        int *nd = nodes + (size_t)(next + made) * BPT_INTS;
        for (unsigned j = 0; j < BPT_FAN; j++) {
            nd[j] = INT_MAX;
            nd[BPT_FAN + j] = 0;
        }
        for (unsigned j = 0; j < take; j++) {
            if (j > 0)
                nd[j - 1] = lo[c + j];
            nd[BPT_FAN + j] = (int)(first + c + j);
        }
        lo[made] = lo[c];
        c += take;
    }
    return made;
}

static int bpt_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                   uint64_t seed, struct wl_report *rep)
{
    unsigned nkeys = wl_pick(size, 16384, 262144, 1048576);
    unsigned nq = wl_pick(size, 5120, 40960, 196608);
    /* leaves hold >= 8 keys, internal nodes >= 8 children: a bound */
    unsigned maxnodes = nkeys / 8 + 2;
    for (unsigned m = nkeys / 8 + 1; m > 1; m = m / 8 + 1)
        maxnodes += m / 8 + 2;
    int *keys = malloc(nkeys * sizeof(int)), *vals = malloc(nkeys * sizeof(int));
    int *nodes = malloc((size_t)maxnodes * BPT_INTS * sizeof(int));
    int *lo = malloc((nkeys / 8 + 2) * sizeof(int));
    int *q = malloc(nq * sizeof(int)), *res = malloc(nq * sizeof(int));
    int *ref = malloc(nq * sizeof(int));
    ls_dptr dnodes = 0, dq = 0, dres = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    if (!keys || !vals || !nodes || !lo || !q || !res || !ref) {
        wl_fail(rep, "bptree: host allocation failed (nkeys = %u)", nkeys);
        goto out;
    }
    int k = 0;
    for (unsigned i = 0; i < nkeys; i++) {
        k += 1 + (int)wl_rng_below(&rng, 128);
        keys[i] = k;
        vals[i] = (int)(wl_rng_next(&rng) >> 33);
    }
    /* leaves */
    unsigned nleaves = 0;
    for (unsigned i = 0; i < nkeys; nleaves++) {
        unsigned take = 8 + wl_rng_below(&rng, BPT_FAN - 7);
        if (take > nkeys - i)
            take = nkeys - i;
        int *nd = nodes + (size_t)nleaves * BPT_INTS;
        for (unsigned j = 0; j < BPT_FAN; j++) {
            nd[j] = j < take ? keys[i + j] : INT_MAX;
            nd[BPT_FAN + j] = j < take ? vals[i + j] : 0;
        }
        lo[nleaves] = keys[i];
        i += take;
    }
    /* internal levels up to a single root */
    unsigned first = 0, count = nleaves, next = nleaves;
    int height = 0;
    while (count > 1 || height == 0) {
        unsigned made = bpt_level(&rng, nodes, first, count, next, lo);
        first = next;
        next += made;
        count = made;
        height++;
    }
    int root = (int)first;
    for (unsigned i = 0; i < nq; i++) {
        q[i] = wl_rng_below(&rng, 2) ? keys[wl_rng_below(&rng, nkeys)]
                                     : (int)wl_rng_below(&rng, (uint32_t)k + 65);
        ref[i] = bpt_lookup(keys, vals, nkeys, q[i]);
    }
    if ((st = wl_upload(gpu, rep, "nodes", &dnodes, nodes,
                        (size_t)next * BPT_INTS * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "queries", &dq, q, nq * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "result", &dres, NULL, nq * sizeof(int))))
        goto out;
    int nqi = (int)nq;
    void *args[] = { &dnodes, &root, &height, &dq, &dres, &nqi };
    ls_dim3 block = { 128, 1, 1 }, grid = { (nq + 127) / 128, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "bptree_search", grid, block, 0, args)) ||
        (st = wl_download(gpu, rep, "result", res, dres, nq * sizeof(int))))
        goto out;
    if (wl_check_u32(rep, "result", (const uint32_t *)res,
                     (const uint32_t *)ref, nq)) {
        unsigned hits = 0;
        for (unsigned i = 0; i < nq; i++)
            hits += ref[i] >= 0;
        if (hits == 0 || hits == nq)
            wl_fail(rep, "bptree: %u of %u queries hit; the inputs should "
                    "give both hits and misses", hits, nq);
    }
out:
    ls_free(gpu, dnodes);
    ls_free(gpu, dq);
    ls_free(gpu, dres);
    free(keys);
    free(vals);
    free(nodes);
    free(lo);
    free(q);
    free(res);
    free(ref);
    return (int)st;
}

const struct workload wl_def_bptree = { "bptree", "irregular",
    "B+ tree search (fanout 16), one query per thread walking root to leaf",
    bpt_run };
