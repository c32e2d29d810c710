/* histogram host driver: 256-bin byte histogram of n 32-bit words (4 bytes
 * each). The byte stream is skewed (a quarter of the bytes are 'A', an
 * eighth come from 16 "hot" values) so shared atomics within a warp
 * collide. Checks: every bin equals the CPU count exactly and the bins sum
 * to 4n. */
#include <stdlib.h>
#include "workloads/wl_common.h"

static uint32_t histogram_byte(struct wl_rng *rng)
{
    unsigned p = wl_rng_below(rng, 8);
    if (p < 2)
        return 'A';
    if (p < 3)
        return 0xf0u + wl_rng_below(rng, 16);
    return wl_rng_below(rng, 256);
}

static int histogram_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                         uint64_t seed, struct wl_report *rep)
{
    unsigned n = wl_pick(size, 32768, 262144, 1048576);
    unsigned ctas = wl_pick(size, 16, 64, 128);
    size_t bytes = (size_t)n * sizeof(uint32_t);
    uint32_t *data = malloc(bytes), hist[256], ref[256] = { 0 };
    ls_dptr ddata = 0, dhist = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!data) {
        wl_fail(rep, "histogram: host allocation of %zu bytes failed", bytes);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (unsigned i = 0; i < n; i++) {
        uint32_t w = 0;
        for (int b = 0; b < 4; b++) {
            uint32_t v = histogram_byte(&rng);
            ref[v]++;
            w |= v << (8 * b);
        }
        data[i] = w;
    }
    if ((st = wl_upload(gpu, rep, "data", &ddata, data, bytes)) ||
        (st = wl_upload(gpu, rep, "hist", &dhist, NULL, sizeof hist)))
        goto out;
    void *args[] = { &ddata, &n, &dhist };
    ls_dim3 block = { 256, 1, 1 }, grid = { ctas, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "histogram256", grid, block, 0, args)) ||
        (st = wl_download(gpu, rep, "hist", hist, dhist, sizeof hist)))
        goto out;
    uint64_t total = 0;
    for (int b = 0; b < 256; b++)
        total += hist[b];
    if (wl_check_u32(rep, "hist", hist, ref, 256) && total != 4ull * n)
        wl_fail(rep, "histogram: bins sum to %llu, want %llu",
                (unsigned long long)total, 4ull * n);
out:
    ls_free(gpu, ddata);
    ls_free(gpu, dhist);
    free(data);
    return (int)st;
}

const struct workload wl_def_histogram = { "histogram", "atomic",
    "256-bin histogram: shared-memory atomics per CTA, global atomic merge",
    histogram_run };
