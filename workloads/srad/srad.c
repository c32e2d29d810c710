/* srad host driver: speckle-reducing anisotropic diffusion of a seeded
 * rows x cols image over 32x8 CTAs (cols a multiple of 32, so each warp
 * reads and writes whole 128-byte lines; rows not a multiple of 8, so the
 * last CTA row is partial), `iters` iterations of two launches
 * each (srad_coef, srad_update), lambda = 0.5. The image is exp(I/255) of a
 * seeded scene of grey rectangles and discs under multiplicative speckle
 * noise, so every value lies in [1, e).
 *
 * q0^2 = var / mean^2 of the current image is computed on the host in
 * double from the reference image (the device image is identical to it
 * when the kernels are right) and passed, rounded to float, to srad_coef.
 *
 * Check: bit exact (tolerance 0). The kernels spell every operation as a
 * correctly rounded __fsub_rn/__fmul_rn/__fadd_rn/__fdiv_rn (the PTX has
 * sub.rn, mul.rn, add.rn, div.rn.f32 and no fma) and clamp the coefficient
 * with cvt.sat.f32.f32 (NaN -> 0); the reference performs the same float
 * operations in the same order and the same clamp, so the final image must
 * match to the last bit. The image must also move by more than 0.01 at
 * some pixel so that a kernel that leaves it alone cannot pass. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

/* The same clamp as cvt.sat.f32.f32: NaN and negatives to 0, above 1 to 1. */
static float srad_sat(float x)
{
    if (!(x > 0.0f))
        return 0.0f;
    return x > 1.0f ? 1.0f : x;
}

/* One reference iteration of srad_coef + srad_update on J (in place);
 * d holds 5 * rows * cols floats of scratch (dN, dS, dW, dE, c). */
static void srad_cpu(float *J, float *d, int rows, int cols, float q0sqr,
                     float lambda4)
{
    size_t cells = (size_t)rows * cols;
    float *dn = d, *ds = d + cells, *dw = d + 2 * cells, *de = d + 3 * cells;
    float *cc = d + 4 * cells;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            size_t k = (size_t)r * cols + c;
            float jc = J[k];
            float n = J[(size_t)(r > 0 ? r - 1 : 0) * cols + c] - jc;
            float s = J[(size_t)(r < rows - 1 ? r + 1 : r) * cols + c] - jc;
            float w = J[(size_t)r * cols + (c > 0 ? c - 1 : 0)] - jc;
            float e = J[(size_t)r * cols + (c < cols - 1 ? c + 1 : c)] - jc;
            float g2 = n * n;
            g2 = g2 + s * s;
            g2 = g2 + w * w;
            g2 = g2 + e * e;
            float jj = jc * jc;
            g2 = g2 / jj;
            float l = n + s;
            l = l + w;
            l = l + e;
            l = l / jc;
            float h = 0.5f * g2, ll = l * l;
            float num = h - 0.0625f * ll;
            float den = 1.0f + 0.25f * l;
            float dd = den * den;
            float qsqr = num / dd;
            float qq = q0sqr * (1.0f + q0sqr);
            den = (qsqr - q0sqr) / qq;
            float coef = 1.0f / (1.0f + den);
            dn[k] = n;
            ds[k] = s;
            dw[k] = w;
            de[k] = e;
            cc[k] = srad_sat(coef);
        }
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            size_t k = (size_t)r * cols + c;
            float cn = cc[k], cw = cn;
            float cs = cc[(size_t)(r < rows - 1 ? r + 1 : r) * cols + c];
            float ce = cc[(size_t)r * cols + (c < cols - 1 ? c + 1 : c)];
            float t = cn * dn[k];
            t = t + cs * ds[k];
            t = t + cw * dw[k];
            t = t + ce * de[k];
            J[k] = J[k] + lambda4 * t;
        }
}

/* q0^2 = var / mean^2 of the n values of J, in double, rounded to float. */
static float srad_q0sqr(const float *J, size_t n)
{
    double sum = 0.0, sum2 = 0.0;
    for (size_t i = 0; i < n; i++) {
        sum += J[i];
        sum2 += (double)J[i] * J[i];
    }
    double mean = sum / (double)n, var = sum2 / (double)n - mean * mean;
    return (float)(var / (mean * mean));
}

/* Seeded scene in [0, 255): a gradient, rectangles and discs, speckle. */
static void srad_image(float *J, int rows, int cols, struct wl_rng *rng)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            J[(size_t)r * cols + c] = 60.0f + 40.0f * (float)(r + c) /
                                      (float)(rows + cols);
    int shapes = 3 + (rows * cols) / 600;
    for (int q = 0; q < shapes; q++) {
        int r0 = (int)wl_rng_below(rng, (uint32_t)rows);
        int c0 = (int)wl_rng_below(rng, (uint32_t)cols);
        int h = 3 + (int)wl_rng_below(rng, (uint32_t)rows / 3 + 1);
        int w = 3 + (int)wl_rng_below(rng, (uint32_t)cols / 3 + 1);
        float v = wl_rng_float(rng, 20.0f, 220.0f);
        int disc = (int)wl_rng_below(rng, 2);
        for (int r = r0; r < r0 + h && r < rows; r++)
            for (int c = c0; c < c0 + w && c < cols; c++) {
                float y = (float)(r - r0) / (float)h - 0.5f;
                float x = (float)(c - c0) / (float)w - 0.5f;
                if (!disc || x * x + y * y < 0.25f)
                    J[(size_t)r * cols + c] = v;
            }
    }
    for (size_t k = 0; k < (size_t)rows * cols; k++) {
        float v = J[k] * wl_rng_float(rng, 0.7f, 1.3f);
        v = v < 0.0f ? 0.0f : (v > 254.0f ? 254.0f : v);
        J[k] = expf(v / 255.0f);
    }
}

static int srad_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                    uint64_t seed, struct wl_report *rep)
{
    unsigned rows = wl_pick(size, 50, 126, 262);
    unsigned cols = wl_pick(size, 64, 192, 384);
    unsigned iters = wl_pick(size, 3, 4, 5);
    size_t cells = (size_t)rows * cols, bytes = cells * sizeof(float);
    float *J0 = malloc(bytes), *J = malloc(bytes), *out = malloc(bytes);
    float *scratch = malloc(5 * bytes);
    ls_dptr dJ = 0, dd[5] = { 0, 0, 0, 0, 0 };
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!J0 || !J || !out || !scratch) {
        wl_fail(rep, "srad: host allocation of 8 x %zu bytes failed", bytes);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    int ri = (int)rows, ci = (int)cols;
    srad_image(J0, ri, ci, &rng);
    memcpy(J, J0, bytes);
    static const char *const names[5] = { "dN", "dS", "dW", "dE", "c" };
    if ((st = wl_upload(gpu, rep, "J", &dJ, J0, bytes)))
        goto out;
    for (int q = 0; q < 5; q++)
        if ((st = wl_upload(gpu, rep, names[q], &dd[q], NULL, bytes)))
            goto out;
    float lambda4 = 0.5f * 0.25f;
    ls_dim3 block = { 32, 8, 1 }, grid = { (cols + 31) / 32, (rows + 7) / 8, 1 };
    for (unsigned it = 0; it < iters; it++) {
        float q0sqr = srad_q0sqr(J, cells);
        void *a1[] = { &dJ, &dd[0], &dd[1], &dd[2], &dd[3], &dd[4], &ri, &ci,
                       &q0sqr };
        void *a2[] = { &dJ, &dd[0], &dd[1], &dd[2], &dd[3], &dd[4], &ri, &ci,
                       &lambda4 };
        if ((st = wl_launch(gpu, mod, rep, "srad_coef", grid, block, 0, a1)) ||
            (st = wl_launch(gpu, mod, rep, "srad_update", grid, block, 0, a2)))
            goto out;
        srad_cpu(J, scratch, ri, ci, q0sqr, lambda4);
    }
    if ((st = wl_download(gpu, rep, "J", out, dJ, bytes)))
        goto out;
    wl_check_f32_moved(rep, "J", out, J, J0, cells, 0.01);
out:
    ls_free(gpu, dJ);
    for (int q = 0; q < 5; q++)
        ls_free(gpu, dd[q]);
    free(J0);
    free(J);
    free(out);
    free(scratch);
    return (int)st;
}

const struct workload wl_def_srad = { "srad", "regular",
    "speckle-reducing anisotropic diffusion, two 32x8-CTA kernels per iteration",
    srad_run };
