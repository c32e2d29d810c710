/* qsort host driver: quicksort of nseg independent segments of 32-bit
 * keys, one thread per segment (32-thread CTAs, one launch), each sorting
 * its segment in place in global memory with an explicit (lo, hi) stack
 * in local memory (qsort.cu gives the exact algorithm: median of three,
 * Hoare partition, the smaller part first, insertion sort below 9 keys).
 * Segment lengths are seeded in [1, 160) at small size (which keeps the
 * timing run short) and [1, 300) otherwise; half of the segments draw keys
 * from [0, 64) (many duplicates, long equal runs for the partition), the
 * others from the full 32-bit range.
 * Check: exact. The sorted keys must equal the C library qsort of each
 * segment (wl_check_u32), and each thread's count of partitions must
 * equal that of a CPU replay of the same algorithm on the same segment
 * (so a kernel that sorted some other way, or skipped partitions and
 * left the work to insertion sort, fails too). */
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define QS_SMALL 8

/* The kernel's algorithm on one segment; returns its partition count. */
static uint32_t qs_cpu(uint32_t *a, int n)
{
    int stk[64];
    int sp = 0, np = 0, lo = 0, hi = n - 1;
    for (;;) {
        if (hi - lo < QS_SMALL) {
            for (int i = lo + 1; i <= hi; i++) {
                uint32_t v = a[i];
                int j = i - 1;
                while (j >= lo && a[j] > v) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
            if (sp == 0)
                break;
            hi = stk[--sp];
            lo = stk[--sp];
            continue;
        }
        np++;
        int mid = lo + (hi - lo) / 2;
        uint32_t t;
        if (a[mid] < a[lo]) { t = a[mid]; a[mid] = a[lo]; a[lo] = t; }
        if (a[hi] < a[lo]) { t = a[hi]; a[hi] = a[lo]; a[lo] = t; }
        if (a[hi] < a[mid]) { t = a[hi]; a[hi] = a[mid]; a[mid] = t; }
        uint32_t p = a[mid];
        int i = lo - 1, j = hi + 1;
        for (;;) {
            do
                i++;
            while (a[i] < p);
            do
                j--;
            while (a[j] > p);
            if (i >= j)
                break;
            t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        if (j - lo < hi - j) {
            stk[sp++] = j + 1;
            stk[sp++] = hi;
            hi = j;
        } else {
            stk[sp++] = lo;
            stk[sp++] = j;
            lo = j + 1;
        }
    }
    return (uint32_t)np;
}

static int qs_cmp(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

static int qsort_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                     uint64_t seed, struct wl_report *rep)
{
    unsigned nseg = wl_pick(size, 96, 1000, 5000);
    unsigned maxlen = wl_pick(size, 160, 300, 300);
    int *start = malloc((nseg + 1) * sizeof(int));
    uint32_t *keys = NULL, *want = NULL, *replay = NULL, *got = NULL;
    uint32_t *gparts = malloc(nseg * sizeof(uint32_t));
    uint32_t *wparts = malloc(nseg * sizeof(uint32_t));
    ls_dptr dkeys = 0, dstart = 0, dparts = 0;
    ls_status st = LS_ERR_NOMEM;
    size_t total = 0;
    rep->pass = 1;
    if (!start || !gparts || !wparts) {
        wl_fail(rep, "qsort: host allocation failed (%u segments)", nseg);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    start[0] = 0;
    for (unsigned s = 0; s < nseg; s++) {
        total += 1 + wl_rng_below(&rng, maxlen - 1);
        start[s + 1] = (int)total;
    }
    keys = malloc(total * sizeof(uint32_t));
    want = malloc(total * sizeof(uint32_t));
    replay = malloc(total * sizeof(uint32_t));
    got = malloc(total * sizeof(uint32_t));
    if (!keys || !want || !replay || !got) {
        wl_fail(rep, "qsort: host allocation of 4 x %zu keys failed", total);
        goto out;
    }
    for (unsigned s = 0; s < nseg; s++) {
        int dup = (int)wl_rng_below(&rng, 2);
        for (int i = start[s]; i < start[s + 1]; i++)
            keys[i] = dup ? wl_rng_below(&rng, 64) : (uint32_t)wl_rng_next(&rng);
    }
    int nsi = (int)nseg;
    if ((st = wl_upload(gpu, rep, "keys", &dkeys, keys, total * sizeof(uint32_t))) ||
        (st = wl_upload(gpu, rep, "start", &dstart, start,
                        (nseg + 1) * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "parts", &dparts, NULL,
                        nseg * sizeof(uint32_t))))
        goto out;
    void *args[] = { &dkeys, &dstart, &nsi, &dparts };
    ls_dim3 grid = { (nseg + 31) / 32, 1, 1 }, block = { 32, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "qs_segments", grid, block, 0, args)))
        goto out;
    if ((st = wl_download(gpu, rep, "keys", got, dkeys, total * sizeof(uint32_t))) ||
        (st = wl_download(gpu, rep, "parts", gparts, dparts,
                          nseg * sizeof(uint32_t))))
        goto out;
    memcpy(want, keys, total * sizeof(uint32_t));
    memcpy(replay, keys, total * sizeof(uint32_t));
    for (unsigned s = 0; s < nseg; s++) {
        size_t n = (size_t)(start[s + 1] - start[s]);
        qsort(want + start[s], n, sizeof(uint32_t), qs_cmp);
        wparts[s] = qs_cpu(replay + start[s], (int)n);
    }
    if (memcmp(want, replay, total * sizeof(uint32_t)) != 0) {
        wl_fail(rep, "qsort: the CPU replay does not sort (reference bug)");
        goto out;
    }
    if (wl_check_u32(rep, "keys", got, want, total))
        wl_check_u32(rep, "parts", gparts, wparts, nseg);
out:
    ls_free(gpu, dkeys);
    ls_free(gpu, dstart);
    ls_free(gpu, dparts);
    free(start);
    free(keys);
    free(want);
    free(replay);
    free(got);
    free(gparts);
    free(wparts);
    return (int)st;
}

const struct workload wl_def_qsort = { "qsort", "divergent",
    "quicksort of many segments, one thread each, explicit stack in local memory",
    qsort_run };
