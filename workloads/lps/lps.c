/* lps host driver: Jacobi relaxation of the 3-D Laplace equation on an
 * nx x ny x nz grid (nx, ny not multiples of the 32x4 tile, so edge CTAs
 * are partial). The six faces hold seeded boundary values in [0, 100) and
 * stay fixed; the interior starts at seeded values in [0, 1) and every
 * sweep (one launch, ping-pong buffers) replaces each interior cell by
 * (((((w + e) + s) + n) + below) + above) * (1/6).
 * Check: bit exact. The CPU reference performs the same five correctly
 * rounded float additions in the same order and the same multiplication
 * by the float constant 1/6 (the kernel's PTX has add.f32 and mul.f32
 * only, no fma to contract), so every cell of the final grid must be
 * identical. The interior must also move (a sweep that only copied would
 * otherwise pass on a zero grid). */
#include <math.h>
#include <stdlib.h>
#include "workloads/wl_common.h"

/* One CPU sweep, the same formula and order as lps_sweep. */
static void lps_cpu(const float *u, float *v, unsigned nx, unsigned ny,
                    unsigned nz)
{
    size_t plane = (size_t)nx * ny;
    for (unsigned k = 0; k < nz; k++)
        for (unsigned j = 0; j < ny; j++)
            for (unsigned i = 0; i < nx; i++) {
                size_t at = k * plane + (size_t)j * nx + i;
                if (i == 0 || i == nx - 1 || j == 0 || j == ny - 1 ||
                    k == 0 || k == nz - 1) {
                    v[at] = u[at];
                    continue;
                }
                float sum = u[at - 1] + u[at + 1];
                sum = sum + u[at - nx];
                sum = sum + u[at + nx];
                sum = sum + u[at - plane];
                sum = sum + u[at + plane];
                v[at] = sum * (1.0f / 6.0f);
            }
}

static int lps_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                   uint64_t seed, struct wl_report *rep)
{
    unsigned nx = wl_pick(size, 44, 90, 150);
    unsigned ny = wl_pick(size, 14, 42, 78);
    unsigned nz = wl_pick(size, 16, 20, 24);
    unsigned iters = wl_pick(size, 3, 4, 5);
    size_t cells = (size_t)nx * ny * nz, bytes = cells * sizeof(float);
    float *u0 = malloc(bytes), *ca = malloc(bytes), *cb = malloc(bytes),
          *out = malloc(bytes);
    ls_dptr du[2] = { 0, 0 };
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!u0 || !ca || !cb || !out) {
        wl_fail(rep, "lps: host allocation of 4 x %zu bytes failed", bytes);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    wl_grid3d_faces(&rng, u0, nx, ny, nz, 100.0f, 1.0f);
    if ((st = wl_upload(gpu, rep, "grid0", &du[0], u0, bytes)) ||
        (st = wl_upload(gpu, rep, "grid1", &du[1], NULL, bytes)))
        goto out;
    int nxi = (int)nx, nyi = (int)ny, nzi = (int)nz;
    ls_dim3 block = { 32, 4, 1 }, grid = { (nx + 31) / 32, (ny + 3) / 4, 1 };
    for (unsigned it = 0; it < iters; it++) {
        void *args[] = { &du[it & 1], &du[(it + 1) & 1], &nxi, &nyi, &nzi };
        if ((st = wl_launch(gpu, mod, rep, "lps_sweep", grid, block, 0, args)))
            goto out;
    }
    if ((st = wl_download(gpu, rep, "grid", out, du[iters & 1], bytes)))
        goto out;
    const float *src = u0;
    for (unsigned it = 0; it < iters; it++) {
        float *dst = (it & 1) ? cb : ca;
        lps_cpu(src, dst, nx, ny, nz);
        src = dst;
    }
    wl_check_f32_moved(rep, "grid", out, src, u0, cells, 1.0);
out:
    ls_free(gpu, du[0]);
    ls_free(gpu, du[1]);
    free(u0);
    free(ca);
    free(cb);
    free(out);
    return (int)st;
}

const struct workload wl_def_lps = { "lps", "divergent",
    "3-D Laplace Jacobi sweeps, shared-memory planes, fixed boundary faces",
    lps_run };
