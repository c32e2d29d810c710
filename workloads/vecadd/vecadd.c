/* vecadd host driver: c = a + b over n floats, 256-thread blocks, n chosen
 * not to be a multiple of the block so the tail guard diverges. */
#include <stdlib.h>
#include "workloads/wl_common.h"

static int vecadd_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                      uint64_t seed, struct wl_report *rep)
{
    unsigned n = wl_pick(size, 16384 + 77, 262144 + 77, 2097152 + 77);
    size_t bytes = (size_t)n * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes),
          *ref = malloc(bytes);
    ls_dptr da = 0, db = 0, dc = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!a || !b || !c || !ref) {
        wl_fail(rep, "vecadd: host allocation of %zu bytes failed", bytes);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (unsigned i = 0; i < n; i++) {
        a[i] = wl_rng_float(&rng, -100.0f, 100.0f);
        b[i] = wl_rng_float(&rng, -100.0f, 100.0f);
        ref[i] = a[i] + b[i];
    }
    if ((st = wl_upload(gpu, rep, "a", &da, a, bytes)) ||
        (st = wl_upload(gpu, rep, "b", &db, b, bytes)) ||
        (st = wl_upload(gpu, rep, "c", &dc, NULL, bytes)))
        goto out;
    int ni = (int)n;
    void *args[] = { &da, &db, &dc, &ni };
    ls_dim3 block = { 256, 1, 1 }, grid = { (n + 255) / 256, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "vecadd", grid, block, 0, args)) ||
        (st = wl_download(gpu, rep, "c", c, dc, bytes)))
        goto out;
    /* one IEEE add per element is correctly rounded on both sides: exact */
    wl_check_f32(rep, "c", c, ref, n, 0.0, 0.0);
out:
    ls_free(gpu, da);
    ls_free(gpu, db);
    ls_free(gpu, dc);
    free(a);
    free(b);
    free(c);
    free(ref);
    return (int)st;
}

const struct workload wl_def_vecadd = { "vecadd", "regular",
    "c[i] = a[i] + b[i], one float per thread", vecadd_run };
