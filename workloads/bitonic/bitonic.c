/* bitonic host driver: nseg segments of 1024 (key, value) pairs, one block
 * of 512 threads per segment; even segments sort ascending, odd ones
 * descending. Keys are drawn from a small range so there are duplicates.
 * Check (exact): every segment's keys equal the qsort'ed input keys in the
 * segment's direction, and each value is a distinct original index of the
 * segment whose key it carries (the pairs were permuted, not corrupted). */
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define SEG 1024u

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Checks one segment; returns 1 when it holds. */
static int check_segment(struct wl_report *rep, unsigned s, const uint32_t *in,
                         const uint32_t *keys, const uint32_t *vals,
                         uint32_t *want, unsigned char *seen)
{
    unsigned base = s * SEG;
    memcpy(want, in + base, SEG * 4);
    qsort(want, SEG, 4, cmp_u32);
    if (s & 1)   /* descending */
        for (unsigned i = 0; i < SEG / 2; i++) {
            uint32_t t = want[i];
            want[i] = want[SEG - 1 - i];
            want[SEG - 1 - i] = t;
        }
    for (unsigned i = 0; i < SEG; i++)
        if (keys[base + i] != want[i])
            return wl_fail(rep, "segment %u (%s): key[%u] = %u, want %u", s,
                           (s & 1) ? "descending" : "ascending", i,
                           keys[base + i], want[i]);
    memset(seen, 0, SEG);
    for (unsigned i = 0; i < SEG; i++) {
        uint32_t v = vals[base + i];
        if (v < base || v >= base + SEG || seen[v - base] ||
            in[v] != keys[base + i])
            return wl_fail(rep, "segment %u: value[%u] = %u does not carry "
                           "key %u from a distinct input slot", s, i, v,
                           keys[base + i]);
        seen[v - base] = 1;
    }
    return 1;
}

static int bitonic_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                       uint64_t seed, struct wl_report *rep)
{
    unsigned nseg = wl_pick(size, 2, 24, 128);
    size_t n = (size_t)nseg * SEG, bytes = n * 4;
    uint32_t *in = malloc(bytes), *keys = malloc(bytes), *vals = malloc(bytes),
             *want = malloc(SEG * 4);
    unsigned char *seen = malloc(SEG);
    ls_dptr dk = 0, dv = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!in || !keys || !vals || !want || !seen) {
        wl_fail(rep, "bitonic: host allocation failed");
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++) {
        in[i] = wl_rng_below(&rng, 5000);
        vals[i] = (uint32_t)i;
    }
    if ((st = wl_upload(gpu, rep, "keys", &dk, in, bytes)) ||
        (st = wl_upload(gpu, rep, "vals", &dv, vals, bytes)))
        goto out;
    unsigned dir_base = 0;
    void *args[] = { &dk, &dv, &dir_base };
    ls_dim3 block = { SEG / 2, 1, 1 }, grid = { nseg, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "bitonic_sort", grid, block, 0, args)) ||
        (st = wl_download(gpu, rep, "keys", keys, dk, bytes)) ||
        (st = wl_download(gpu, rep, "vals", vals, dv, bytes)))
        goto out;
    for (unsigned s = 0; s < nseg; s++)
        if (!check_segment(rep, s, in, keys, vals, want, seen))
            break;
out:
    ls_free(gpu, dk);
    ls_free(gpu, dv);
    free(in);
    free(keys);
    free(vals);
    free(want);
    free(seen);
    return (int)st;
}

const struct workload wl_def_bitonic = { "bitonic", "divergent",
    "bitonic sort of 1024-pair segments in shared memory", bitonic_run };
