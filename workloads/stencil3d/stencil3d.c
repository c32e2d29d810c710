/* stencil3d host driver: `iters` Jacobi sweeps of a 7-point stencil on an
 * nx x ny x nz grid, one stencil7 launch per sweep, ping-pong buffers. The
 * six faces hold seeded values in [0, 100) (written into both buffers,
 * never touched by the kernel), the interior starts at seeded values in
 * [0, 1); each sweep sets every interior cell to
 * c0 * centre + c1 * (((((w + e) + s) + n) + below) + above) with
 * c0 = 0.25, c1 = 0.125. nx is a multiple of the 32-wide CTA (each warp
 * row is whole lines; only the lanes on the i faces idle), ny is not a
 * multiple of its 4 rows, so the last CTA row is partial.
 *
 * Check: bit exact (tolerance 0). The kernel spells the sum with
 * __fadd_rn and the result as __fmaf_rn(c1, sum, __fmul_rn(c0, centre))
 * (add.rn, mul.rn, fma.rn in the PTX); the reference performs the same
 * five additions, the multiplication and fmaf in the same order, so every
 * cell of the final grid must match to the last bit. The interior must
 * also move by more than 1.0 from its start so that a kernel that copies
 * cannot pass. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

/* One reference sweep of the interior of in into out (faces untouched). */
static void stencil3d_cpu(const float *in, float *out, int nx, int ny, int nz,
                          float c0, float c1)
{
    size_t plane = (size_t)nx * ny;
    for (int k = 1; k < nz - 1; k++)
        for (int j = 1; j < ny - 1; j++)
            for (int i = 1; i < nx - 1; i++) {
                size_t p = (size_t)k * plane + (size_t)j * nx + i;
                float sum = in[p - 1] + in[p + 1];
                sum = sum + in[p + nx];
                sum = sum + in[p - nx];
                sum = sum + in[p - plane];
                sum = sum + in[p + plane];
                out[p] = fmaf(c1, sum, c0 * in[p]);
            }
}

static int stencil3d_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                         uint64_t seed, struct wl_report *rep)
{
    unsigned nx = wl_pick(size, 64, 96, 160);
    unsigned ny = wl_pick(size, 22, 62, 102);
    unsigned nz = wl_pick(size, 14, 32, 44);
    unsigned iters = wl_pick(size, 4, 4, 5);
    size_t cells = (size_t)nx * ny * nz, bytes = cells * sizeof(float);
    float *g0 = malloc(bytes), *ga = malloc(bytes), *gb = malloc(bytes);
    float *out = malloc(bytes);
    ls_dptr dg[2] = { 0, 0 };
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!g0 || !ga || !gb || !out) {
        wl_fail(rep, "stencil3d: host allocation of 4 x %zu bytes failed",
                bytes);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    wl_grid3d_faces(&rng, g0, nx, ny, nz, 100.0f, 1.0f);
    memcpy(ga, g0, bytes);
    memcpy(gb, g0, bytes);
    if ((st = wl_upload(gpu, rep, "grid0", &dg[0], g0, bytes)) ||
        (st = wl_upload(gpu, rep, "grid1", &dg[1], g0, bytes)))
        goto out;
    int xi = (int)nx, yi = (int)ny, zi = (int)nz;
    float c0 = 0.25f, c1 = 0.125f;
    ls_dim3 block = { 32, 4, 1 }, grid = { (nx + 31) / 32, (ny + 3) / 4, 1 };
    for (unsigned it = 0; it < iters; it++) {
        void *args[] = { &dg[it & 1], &dg[(it + 1) & 1], &xi, &yi, &zi, &c0,
                         &c1 };
        if ((st = wl_launch(gpu, mod, rep, "stencil7", grid, block, 0, args)))
            goto out;
    }
    if ((st = wl_download(gpu, rep, "grid", out, dg[iters & 1], bytes)))
        goto out;
    const float *src = ga;
    for (unsigned it = 0; it < iters; it++) {
        float *dst = (it & 1) ? ga : gb;
        stencil3d_cpu(src, dst, xi, yi, zi, c0, c1);
        src = dst;
    }
    wl_check_f32_moved(rep, "grid", out, src, g0, cells, 1.0);
out:
    ls_free(gpu, dg[0]);
    ls_free(gpu, dg[1]);
    free(g0);
    free(ga);
    free(gb);
    free(out);
    return (int)st;
}

const struct workload wl_def_stencil3d = { "stencil3d", "regular",
    "7-point 3-D Jacobi stencil, 32x4 CTAs marching in z with register queues",
    stencil3d_run };
