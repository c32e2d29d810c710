/* sortnet host driver: Batcher odd-even merge sort of n = 2^m (key, value)
 * pairs, keys with many duplicates, value = original index. oem_sort_tile
 * sorts 512-pair slices in shared memory, then every (size, stride) stage
 * of the larger merges is one oem_merge_global launch. Checks (exact): the
 * keys equal the qsort of the input keys, the values are a permutation of
 * 0..n-1, and each value still names the key it came with. */
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define SORTNET_TILE 256u              /* threads per CTA, as in sortnet.cu */

static int sortnet_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Values must be a permutation of 0..n-1 that still pairs with its key. */
static int sortnet_check_vals(struct wl_report *rep, const uint32_t *in,
                              const uint32_t *keys, const uint32_t *vals,
                              unsigned n, unsigned char *seen)
{
    memset(seen, 0, n);
    for (unsigned i = 0; i < n; i++) {
        if (vals[i] >= n || seen[vals[i]])
            return wl_fail(rep, "sortnet: vals[%u] = %u is out of range or "
                           "repeated", i, vals[i]);
        seen[vals[i]] = 1;
        if (in[vals[i]] != keys[i])
            return wl_fail(rep, "sortnet: pair %u is (%u, %u) but key %u was "
                           "%u", i, keys[i], vals[i], vals[i], in[vals[i]]);
    }
    return 1;
}

static int sortnet_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                       uint64_t seed, struct wl_report *rep)
{
    unsigned n = wl_pick(size, 2048, 8192, 32768);
    size_t bytes = (size_t)n * sizeof(uint32_t);
    uint32_t *in = malloc(bytes), *keys = malloc(bytes), *vals = malloc(bytes);
    uint32_t *ref = malloc(bytes);
    unsigned char *seen = malloc(n);
    ls_dptr dkeys = 0, dvals = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!in || !keys || !vals || !ref || !seen) {
        wl_fail(rep, "sortnet: host allocation of 4 x %zu bytes failed", bytes);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (unsigned i = 0; i < n; i++) {
        /* half the keys from a small range (duplicates), half full-width */
        in[i] = (i & 1) ? wl_rng_below(&rng, n / 4)
                        : (uint32_t)(wl_rng_next(&rng) >> 32);
        ref[i] = in[i];
        vals[i] = i;
    }
    qsort(ref, n, sizeof *ref, sortnet_cmp);
    if ((st = wl_upload(gpu, rep, "keys", &dkeys, in, bytes)) ||
        (st = wl_upload(gpu, rep, "vals", &dvals, vals, bytes)))
        goto out;
    unsigned span = 2 * SORTNET_TILE;
    ls_dim3 block = { SORTNET_TILE, 1, 1 }, tiles = { n / span, 1, 1 };
    ls_dim3 cmps = { (n / 2 + SORTNET_TILE - 1) / SORTNET_TILE, 1, 1 };
    void *targs[] = { &dkeys, &dvals };
    if ((st = wl_launch(gpu, mod, rep, "oem_sort_tile", tiles, block, 0,
                        targs)))
        goto out;
    for (unsigned sz = 2 * span; sz <= n; sz <<= 1)
        for (unsigned stride = sz / 2; stride > 0; stride >>= 1) {
            void *gargs[] = { &dkeys, &dvals, &n, &sz, &stride };
            if ((st = wl_launch(gpu, mod, rep, "oem_merge_global", cmps, block,
                                0, gargs)))
                goto out;
        }
    if ((st = wl_download(gpu, rep, "keys", keys, dkeys, bytes)) ||
        (st = wl_download(gpu, rep, "vals", vals, dvals, bytes)))
        goto out;
    if (wl_check_u32(rep, "keys", keys, ref, n))
        sortnet_check_vals(rep, in, keys, vals, n, seen);
out:
    ls_free(gpu, dkeys);
    ls_free(gpu, dvals);
    free(in);
    free(keys);
    free(vals);
    free(ref);
    free(seen);
    return (int)st;
}

const struct workload wl_def_sortnet = { "sortnet", "divergent",
    "odd-even merge sorting network on (key, value) pairs, multi-launch",
    sortnet_run };
