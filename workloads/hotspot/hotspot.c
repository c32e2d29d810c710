/* hotspot host driver: explicit thermal simulation of a 16 mm x 16 mm chip
 * on a rows x cols grid (not multiples of the 16x16 tile, so edge CTAs are
 * partial), constants as in Rodinia hotspot, `iters` steps ping-ponging two
 * temperature buffers. Check against a CPU float run of the same formula:
 * both sides round the final t + delta (<= 1/2 ulp each) and the stencil
 * weights are non-negative and sum to <= 1, so a difference grows by at
 * most ~1 ulp(max T) per step; the tolerance is 2 ulp(max T) per step.
 * The temperatures must also move by more than 10x that tolerance. */
#include <math.h>
#include <stdlib.h>
#include "workloads/wl_common.h"

struct hotspot_coef { float sdc, rx_1, ry_1, rz_1, amb; };

static void hotspot_coefs(unsigned rows, unsigned cols, struct hotspot_coef *k)
{
    const double t_chip = 0.0005, chip_h = 0.016, chip_w = 0.016;
    const double factor_chip = 0.5, spec_heat_si = 1.75e6, k_si = 100.0;
    const double max_pd = 3.0e6, precision = 0.001;
    double gh = chip_h / rows, gw = chip_w / cols;
    double cap = factor_chip * spec_heat_si * t_chip * gw * gh;
    double rx = gw / (2.0 * k_si * t_chip * gh);
    double ry = gh / (2.0 * k_si * t_chip * gw);
    double rz = t_chip / (k_si * gh * gw);
    double max_slope = max_pd / (factor_chip * t_chip * spec_heat_si);
    double step = precision / max_slope;
    k->sdc = (float)(step / cap);
    k->rx_1 = (float)(1.0 / rx);
    k->ry_1 = (float)(1.0 / ry);
    k->rz_1 = (float)(1.0 / rz);
    k->amb = 80.0f;
}

/* One CPU step, same formula and clamping as hotspot_step. */
static void hotspot_cpu(const float *p, const float *tin, float *tout,
                        int rows, int cols, const struct hotspot_coef *k)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            float t = tin[r * cols + c];
            float tn = r > 0 ? tin[(r - 1) * cols + c] : t;
            float ts = r < rows - 1 ? tin[(r + 1) * cols + c] : t;
            float tw = c > 0 ? tin[r * cols + c - 1] : t;
            float te = c < cols - 1 ? tin[r * cols + c + 1] : t;
            float delta = k->sdc * (p[r * cols + c] +
                                    (ts + tn - 2.0f * t) * k->ry_1 +
                                    (te + tw - 2.0f * t) * k->rx_1 +
                                    (k->amb - t) * k->rz_1);
            tout[r * cols + c] = t + delta;
        }
}

static int hotspot_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                       uint64_t seed, struct wl_report *rep)
{
    unsigned rows = wl_pick(size, 56, 136, 296);
    unsigned cols = wl_pick(size, 72, 200, 360);
    unsigned iters = wl_pick(size, 4, 6, 10);
    size_t cells = (size_t)rows * cols, bytes = cells * sizeof(float);
    float *pw = malloc(bytes), *t0 = malloc(bytes), *ta = malloc(bytes),
          *tb = malloc(bytes), *out = malloc(bytes);
    ls_dptr dp = 0, dt[2] = { 0, 0 };
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!pw || !t0 || !ta || !tb || !out) {
        wl_fail(rep, "hotspot: host allocation of 5 x %zu bytes failed", bytes);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (size_t i = 0; i < cells; i++) {
        t0[i] = wl_rng_float(&rng, 320.0f, 340.0f);
        pw[i] = wl_rng_float(&rng, 0.0f, 0.005f);
    }
    struct hotspot_coef k;
    hotspot_coefs(rows, cols, &k);
    if ((st = wl_upload(gpu, rep, "power", &dp, pw, bytes)) ||
        (st = wl_upload(gpu, rep, "temp0", &dt[0], t0, bytes)) ||
        (st = wl_upload(gpu, rep, "temp1", &dt[1], NULL, bytes)))
        goto out;
    int ri = (int)rows, ci = (int)cols;
    ls_dim3 block = { 16, 16, 1 }, grid = { (cols + 15) / 16, (rows + 15) / 16, 1 };
    for (unsigned it = 0; it < iters; it++) {
        void *args[] = { &dp, &dt[it & 1], &dt[(it + 1) & 1], &ri, &ci,
                         &k.sdc, &k.rx_1, &k.ry_1, &k.rz_1, &k.amb };
        if ((st = wl_launch(gpu, mod, rep, "hotspot_step", grid, block, 0,
                            args)))
            goto out;
    }
    if ((st = wl_download(gpu, rep, "temp", out, dt[iters & 1], bytes)))
        goto out;
    const float *src = t0;
    for (unsigned it = 0; it < iters; it++) {
        float *dst = (it & 1) ? tb : ta;
        hotspot_cpu(pw, src, dst, ri, ci, &k);
        src = dst;
    }
    float tmax = 0.0f;
    double moved = 0.0;
    for (size_t i = 0; i < cells; i++) {
        tmax = fmaxf(tmax, fabsf(src[i]));
        moved = fmax(moved, fabs((double)src[i] - t0[i]));
    }
    double ulp = (double)nextafterf(tmax, INFINITY) - tmax;
    double tol = 2.0 * iters * ulp;
    if (wl_check_f32(rep, "temp", out, src, cells, 0.0, tol) &&
        !(moved > 10.0 * tol))
        wl_fail(rep, "hotspot: temperatures moved only %.3g K (tolerance "
                "%.3g K): the check would not see a missing step", moved, tol);
out:
    ls_free(gpu, dp);
    ls_free(gpu, dt[0]);
    ls_free(gpu, dt[1]);
    free(pw);
    free(t0);
    free(ta);
    free(tb);
    free(out);
    return (int)st;
}

const struct workload wl_def_hotspot = { "hotspot", "stencil",
    "2-D thermal stencil, shared-memory tiles with halo, ping-pong steps",
    hotspot_run };
