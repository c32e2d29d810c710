/* hashjoin host driver: equi-join of S (2 nr tuples) with R (nr tuples,
 * unique 32-bit keys, 31-bit payloads) through an open-addressing table of
 * the next power of two >= 2 nr 64-bit slots (load factor <= 1/2), in
 * regions of 256 slots (hashjoin.cu). Keys are a seeded bijection of the
 * tuple index, so R's keys are distinct; half of S's keys are keys of
 * random R tuples, the other half keys that R does not have. The host
 * groups R by the region of each key's home slot (a stable counting sort:
 * the partitioning pass of a radix-partitioned join) and hj_build inserts
 * region by region, one warp each; hj_probe answers every S tuple.
 * Checks, exact: every S tuple's output equals the CPU join (R's payload
 * or -1); and the downloaded table holds exactly nr entries and every R
 * tuple is found with its payload by walking its probe sequence on the
 * host (so the build is checked even for R tuples no S tuple asks for). */
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define HJ_REGION 256u                       /* as in hashjoin.cu */
#define HJ_EMPTY 0xffffffffffffffffull

/* The kernel's slot hash (hashjoin.cu, hj_hash). */
static uint32_t hj_hash_host(uint32_t key)
{
    key ^= key >> 16;
    key *= 0x7feb352du;
    key ^= key >> 15;
    key *= 0x846ca68bu;
    key ^= key >> 16;
    return key;
}

/* A bijection of 32-bit words (odd multipliers, xor-shifts): distinct
 * tuple indices give distinct keys. */
static uint32_t hj_key(uint32_t i, uint32_t m1, uint32_t m2)
{
    i ^= i >> 15;
    i *= m1;
    i ^= i >> 13;
    i *= m2;
    i ^= i >> 16;
    return i;
}

static uint32_t hj_next_host(uint32_t s)
{
    return (s & ~(HJ_REGION - 1)) | ((s + 1) & (HJ_REGION - 1));
}

struct hj_tuple { uint32_t key; int32_t pay; };

static int hj_cmp_key(const void *a, const void *b)
{
    uint32_t x = ((const struct hj_tuple *)a)->key;
    uint32_t y = ((const struct hj_tuple *)b)->key;
    return (x > y) - (x < y);
}

/* Payload of key in the key-sorted R, or -1. */
static int32_t hj_lookup(const struct hj_tuple *sorted, unsigned n, uint32_t k)
{
    unsigned lo = 0, hi = n;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (sorted[mid].key < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && sorted[lo].key == k ? sorted[lo].pay : -1;
}

/* Checks the built table: nr entries, every R tuple on its probe path. */
static void hj_check_table(struct wl_report *rep, const uint64_t *table,
                           unsigned tsize, const struct hj_tuple *r,
                           unsigned nr)
{
    unsigned used = 0;
    for (unsigned s = 0; s < tsize; s++)
        used += table[s] != HJ_EMPTY;
    if (used != nr) {
        wl_fail(rep, "hashjoin: table holds %u entries, want %u", used, nr);
        return;
    }
    for (unsigned i = 0; i < nr; i++) {
        uint32_t s = hj_hash_host(r[i].key) & (tsize - 1);
        unsigned steps = 0;
        while (table[s] != HJ_EMPTY && (uint32_t)(table[s] >> 32) != r[i].key &&
               steps++ < HJ_REGION)
            s = hj_next_host(s);
        if (table[s] == HJ_EMPTY || (uint32_t)(table[s] >> 32) != r[i].key ||
            (int32_t)(uint32_t)table[s] != r[i].pay) {
            wl_fail(rep, "hashjoin: R key 0x%08x (payload %d) not on its "
                    "probe path (stopped at slot %u)", r[i].key, r[i].pay, s);
            return;
        }
    }
}

static int hj_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                  uint64_t seed, struct wl_report *rep)
{
    unsigned nr = wl_pick(size, 8192, 98304, 524288), ns = 2 * nr;
    unsigned tsize = HJ_REGION;
    while (tsize < 2 * nr)
        tsize *= 2;
    unsigned nregions = tsize / HJ_REGION, mask = tsize - 1;
    struct hj_tuple *r = malloc(nr * sizeof *r), *sorted = malloc(nr * sizeof *r);
    uint32_t *rkey = malloc(nr * sizeof(uint32_t)), *skey = malloc(ns * sizeof(uint32_t));
    int32_t *rpay = malloc(nr * sizeof(int32_t)), *out = malloc(ns * sizeof(int32_t));
    int32_t *ref = malloc(ns * sizeof(int32_t));
    int *rbeg = calloc(nregions + 1, sizeof(int));
    uint64_t *table = malloc((size_t)tsize * sizeof(uint64_t));
    ls_dptr drkey = 0, drpay = 0, drbeg = 0, dtable = 0, dskey = 0, dout = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    if (!r || !sorted || !rkey || !skey || !rpay || !out || !ref || !rbeg ||
        !table) {
        wl_fail(rep, "hashjoin: host allocation failed (nr = %u)", nr);
        goto out;
    }
    uint32_t m1 = (uint32_t)wl_rng_next(&rng) | 1u, m2 = (uint32_t)wl_rng_next(&rng) | 1u;
    uint32_t salt = (uint32_t)wl_rng_next(&rng);
    for (unsigned i = 0; i < nr; i++) {       /* R in a random order */
        r[i].key = hj_key(i ^ salt, m1, m2);
        r[i].pay = (int32_t)(wl_rng_next(&rng) >> 33);
    }
    for (unsigned i = nr - 1; i > 0; i--) {
        unsigned j = wl_rng_below(&rng, i + 1);
        struct hj_tuple t = r[i];
        r[i] = r[j];
        r[j] = t;
    }
    for (unsigned i = 0; i < ns; i++)         /* half hits, half misses */
        skey[i] = wl_rng_below(&rng, 2)
                      ? r[wl_rng_below(&rng, nr)].key
                      : hj_key((nr + wl_rng_below(&rng, 0x7fffffffu - nr)) ^ salt,
                               m1, m2);
    /* partition R by region, keeping its order (stable counting sort) */
    for (unsigned i = 0; i < nr; i++)
        rbeg[((hj_hash_host(r[i].key) & mask) / HJ_REGION) + 1]++;
    for (unsigned g = 0; g < nregions; g++) {
        if (rbeg[g + 1] >= (int)HJ_REGION) {
            wl_fail(rep, "hashjoin: region %u gets %d keys (at most %u fit)",
                    g, rbeg[g + 1], HJ_REGION - 1);
            goto out;
        }
        rbeg[g + 1] += rbeg[g];
    }
    memcpy(sorted, r, nr * sizeof *r);
    {
        int *pos = malloc(nregions * sizeof(int));
        if (!pos) {
            wl_fail(rep, "hashjoin: host allocation failed (nr = %u)", nr);
            goto out;
        }
        memcpy(pos, rbeg, nregions * sizeof(int));
        for (unsigned i = 0; i < nr; i++) {
            unsigned g = (hj_hash_host(sorted[i].key) & mask) / HJ_REGION;
            rkey[pos[g]] = sorted[i].key;
            rpay[pos[g]++] = sorted[i].pay;
        }
        free(pos);
    }
    qsort(sorted, nr, sizeof *sorted, hj_cmp_key);
    for (unsigned i = 0; i < ns; i++)
        ref[i] = hj_lookup(sorted, nr, skey[i]);
    memset(table, 0xff, (size_t)tsize * sizeof(uint64_t));
    if ((st = wl_upload(gpu, rep, "rkey", &drkey, rkey, nr * sizeof(uint32_t))) ||
        (st = wl_upload(gpu, rep, "rpay", &drpay, rpay, nr * sizeof(int32_t))) ||
        (st = wl_upload(gpu, rep, "rbeg", &drbeg, rbeg,
                        (nregions + 1) * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "table", &dtable, table,
                        (size_t)tsize * sizeof(uint64_t))) ||
        (st = wl_upload(gpu, rep, "skey", &dskey, skey, ns * sizeof(uint32_t))) ||
        (st = wl_upload(gpu, rep, "out", &dout, NULL, ns * sizeof(int32_t))))
        goto out;
    int ng = (int)nregions, nsi = (int)ns;
    void *bargs[] = { &drkey, &drpay, &drbeg, &dtable, &mask, &ng };
    void *pargs[] = { &dskey, &dtable, &mask, &dout, &nsi };
    ls_dim3 block = { 128, 1, 1 };
    ls_dim3 bgrid = { (nregions * 32 + 127) / 128, 1, 1 };
    ls_dim3 pgrid = { (ns + 127) / 128, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "hj_build", bgrid, block, 0, bargs)) ||
        (st = wl_launch(gpu, mod, rep, "hj_probe", pgrid, block, 0, pargs)) ||
        (st = wl_download(gpu, rep, "out", out, dout, ns * sizeof(int32_t))) ||
        (st = wl_download(gpu, rep, "table", table, dtable,
                          (size_t)tsize * sizeof(uint64_t))))
        goto out;
    if (wl_check_u32(rep, "out", (const uint32_t *)out, (const uint32_t *)ref,
                     ns))
        hj_check_table(rep, table, tsize, r, nr);
out:
    ls_free(gpu, drkey);
    ls_free(gpu, drpay);
    ls_free(gpu, drbeg);
    ls_free(gpu, dtable);
    ls_free(gpu, dskey);
    ls_free(gpu, dout);
    free(r);
    free(sorted);
    free(rkey);
    free(skey);
    free(rpay);
    free(out);
    free(ref);
    free(rbeg);
    free(table);
    return (int)st;
}

const struct workload wl_def_hashjoin = { "hashjoin", "irregular",
    "hash join: partitioned open-addressing build with atomicCAS, one "
    "thread per probe tuple", hj_run };
