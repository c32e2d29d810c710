/* fwt host driver: fast Walsh-Hadamard transform of n = 2^log2n seeded
 * integers in [-512, 512): one fwt_shared launch (the ten stages of the
 * low index bits, 1024-word chunks in shared memory), then the remaining
 * log2n - 10 stages in global memory, two at a time (fwt_radix4) and a
 * last fwt_radix2 when their number is odd.
 *
 * Check: exact. Integer arithmetic on both sides (|result| <= 512 * n
 * <= 2^28, so no intermediate wraps): every word must equal the CPU
 * transform, a textbook in-place butterfly loop over all log2n stages. */
#include <stdlib.h>
#include "workloads/wl_common.h"

#define FWT_CHUNK 1024
#define FWT_THREADS 256

/* In-place unnormalised Walsh-Hadamard transform of n (a power of 2) words. */
static void fwt_ref(int32_t *x, size_t n)
{
    for (size_t h = 1; h < n; h <<= 1)
        for (size_t i = 0; i < n; i += 2 * h)
            for (size_t j = i; j < i + h; j++) {
                int32_t a = x[j], b = x[j + h];
                x[j] = a + b;
                x[j + h] = a - b;
            }
}

static int fwt_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                   uint64_t seed, struct wl_report *rep)
{
    unsigned log2n = wl_pick(size, 13, 17, 19);
    size_t n = (size_t)1 << log2n, bytes = n * sizeof(int32_t);
    int32_t *x = malloc(bytes), *ref = malloc(bytes), *out = malloc(bytes);
    ls_dptr dx = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!x || !ref || !out) {
        wl_fail(rep, "fwt: host allocation of 3 x %zu bytes failed", bytes);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++) {
        x[i] = (int32_t)wl_rng_below(&rng, 1024) - 512;
        ref[i] = x[i];
    }
    fwt_ref(ref, n);
    if ((st = wl_upload(gpu, rep, "data", &dx, x, bytes)))
        goto out;
    ls_dim3 block = { FWT_THREADS, 1, 1 };
    ls_dim3 grid = { (unsigned)(n / FWT_CHUNK), 1, 1 };
    void *a0[] = { &dx };
    if ((st = wl_launch(gpu, mod, rep, "fwt_shared", grid, block, 0, a0)))
        goto out;
    for (size_t s = FWT_CHUNK; s < n;) {
        int si = (int)s;
        void *args[] = { &dx, &si };
        if (4 * s <= n) {
            grid.x = (unsigned)(n / 4 / FWT_THREADS);
            st = wl_launch(gpu, mod, rep, "fwt_radix4", grid, block, 0, args);
            s *= 4;
        } else {
            grid.x = (unsigned)(n / 2 / FWT_THREADS);
            st = wl_launch(gpu, mod, rep, "fwt_radix2", grid, block, 0, args);
            s *= 2;
        }
        if (st)
            goto out;
    }
    if ((st = wl_download(gpu, rep, "data", out, dx, bytes)))
        goto out;
    wl_check_u32(rep, "data", (const uint32_t *)out, (const uint32_t *)ref, n);
out:
    ls_free(gpu, dx);
    free(x);
    free(ref);
    free(out);
    return (int)st;
}

const struct workload wl_def_fwt = { "fwt", "regular",
    "fast Walsh-Hadamard transform, shared-memory stages then global radix-4",
    fwt_run };
