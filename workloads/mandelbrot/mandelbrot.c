/* mandelbrot host driver: escape-time counts over a view of the set with
 * 16x8 blocks; width and height are not multiples of the block, so edge
 * threads return early. Trip counts range from 1 to max_iter within a warp.
 * Check (exact): the kernel uses only separately rounded IEEE mul/add/sub
 * (__fmul_rn etc.), so the reference below, in float with the same
 * operation order, must reproduce every count bit for bit. */
#include <stdlib.h>
#include "workloads/wl_common.h"

static uint32_t mandel_ref(unsigned px, unsigned py, float x0, float y0,
                           float step, int max_iter)
{
    volatile float cr = x0 + (float)px * step;   /* volatile: no contraction */
    volatile float ci = y0 + (float)py * step;
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (it < max_iter) {
        volatile float zr2 = zr * zr, zi2 = zi * zi;
        volatile float mag = zr2 + zi2;
        if (mag > 4.0f)
            break;
        volatile float t = 2.0f * zr;
        volatile float t2 = t * zi;
        float nzi = t2 + ci;
        volatile float d = zr2 - zi2;
        zr = d + cr;
        zi = nzi;
        it++;
    }
    return (uint32_t)it;
}

static int mandelbrot_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                          uint64_t seed, struct wl_report *rep)
{
    unsigned w = wl_pick(size, 40, 132, 316), h = wl_pick(size, 30, 100, 236);
    int max_iter = 256;
    size_t bytes = (size_t)w * h * 4;
    uint32_t *out = malloc(bytes), *want = malloc(bytes);
    ls_dptr dout = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!out || !want) {
        wl_fail(rep, "mandelbrot: host allocation failed");
        goto out;
    }
    /* the seed jitters the view a little: same shape, different pixels */
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    float x0 = -2.1f + wl_rng_float(&rng, 0.0f, 0.05f);
    float y0 = -1.2f + wl_rng_float(&rng, 0.0f, 0.05f);
    float step = 2.6f / (float)w;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++)
            want[y * w + x] = mandel_ref(x, y, x0, y0, step, max_iter);
    if ((st = wl_upload(gpu, rep, "out", &dout, NULL, bytes)))
        goto out;
    int wi = (int)w, hi = (int)h;
    void *args[] = { &dout, &wi, &hi, &x0, &y0, &step, &max_iter };
    ls_dim3 block = { 16, 8, 1 }, grid = { (w + 15) / 16, (h + 7) / 8, 1 };
    if ((st = wl_launch(gpu, mod, rep, "mandelbrot", grid, block, 0, args)) ||
        (st = wl_download(gpu, rep, "out", out, dout, bytes)))
        goto out;
    wl_check_u32(rep, "iterations", out, want, (size_t)w * h);
out:
    ls_free(gpu, dout);
    free(out);
    free(want);
    return (int)st;
}

const struct workload wl_def_mandelbrot = { "mandelbrot", "divergent",
    "escape-time iteration counts: data-dependent loop trip counts",
    mandelbrot_run };
