/* sprod host driver: npairs scalar products of seeded vectors of length n
 * in [-1, 1), one 256-thread CTA per pair (sprod). n is a multiple of 32
 * (every pair starts on a 128-byte line) but not of 256, so the last pass
 * of each thread's loop covers only part of the CTA.
 *
 * Check: bit exact (tolerance 0). Thread t accumulates with one fma.rn.f32
 * per element in increasing i (nvcc unrolls the loop by four but keeps the
 * chain in order), and the tree adds part[t] + part[t + stride] with
 * add.rn.f32 for stride 128, 64, ..., 1; the reference does the same fmaf
 * chain per thread and the same tree, so every product must match to the
 * last bit. */
#include <math.h>
#include <stdlib.h>
#include "workloads/wl_common.h"

#define SP_THREADS 256

/* The kernel's result for one pair: per-thread fma chains, then the tree. */
static float sprod_ref(const float *a, const float *b, unsigned n)
{
    float part[SP_THREADS];
    for (unsigned t = 0; t < SP_THREADS; t++) {
        float sum = 0.0f;
        for (unsigned i = t; i < n; i += SP_THREADS)
            sum = fmaf(a[i], b[i], sum);
        part[t] = sum;
    }
    for (unsigned stride = SP_THREADS / 2; stride > 0; stride >>= 1)
        for (unsigned t = 0; t < stride; t++)
            part[t] = part[t] + part[t + stride];
    return part[0];
}

static int sprod_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                     uint64_t seed, struct wl_report *rep)
{
    unsigned npairs = wl_pick(size, 40, 120, 300);
    unsigned n = wl_pick(size, 6080, 24032, 40000);
    size_t elems = (size_t)npairs * n, bytes = elems * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes);
    float *out = malloc(npairs * sizeof(float));
    float *ref = malloc(npairs * sizeof(float));
    ls_dptr da = 0, db = 0, dout = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!a || !b || !out || !ref) {
        wl_fail(rep, "sprod: host allocation of 2 x %zu bytes failed", bytes);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (size_t i = 0; i < elems; i++) {
        a[i] = wl_rng_float(&rng, -1.0f, 1.0f);
        b[i] = wl_rng_float(&rng, -1.0f, 1.0f);
    }
    for (unsigned p = 0; p < npairs; p++)
        ref[p] = sprod_ref(a + (size_t)p * n, b + (size_t)p * n, n);
    if ((st = wl_upload(gpu, rep, "a", &da, a, bytes)) ||
        (st = wl_upload(gpu, rep, "b", &db, b, bytes)) ||
        (st = wl_upload(gpu, rep, "out", &dout, NULL, npairs * sizeof(float))))
        goto out;
    int ni = (int)n;
    void *args[] = { &da, &db, &dout, &ni };
    ls_dim3 block = { SP_THREADS, 1, 1 }, grid = { npairs, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "sprod", grid, block, 0, args)) ||
        (st = wl_download(gpu, rep, "out", out, dout, npairs * sizeof(float))))
        goto out;
    wl_check_f32(rep, "product", out, ref, npairs, 0.0, 0.0);
out:
    ls_free(gpu, da);
    ls_free(gpu, db);
    ls_free(gpu, dout);
    free(a);
    free(b);
    free(out);
    free(ref);
    return (int)st;
}

const struct workload wl_def_sprod = { "sprod", "regular",
    "scalar products of vector pairs, one CTA per pair, shared-memory tree",
    sprod_run };
