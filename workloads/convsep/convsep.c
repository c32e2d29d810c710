/* convsep host driver: separable convolution of a seeded w x h float image
 * (pixels in [0, 1)) with a seeded 9-tap filter (weights in [0.02, 0.2),
 * written to the module's __constant__ c_w): conv_rows (in -> tmp) then
 * conv_cols (tmp -> out), one launch each; pixels outside the image are
 * zero. w and h are not multiples of the 32 x 4 / 32 x 16 output tiles,
 * so the right and bottom CTAs are partial.
 * Check: bit exact, both passes. Each output is
 * sum = fma(pixel[i - 4 + k], c_w[k], sum), k = 0..8, from sum = 0; the
 * kernel uses __fmaf_rn (fma.rn.f32) and the CPU reference fmaf in the
 * same order, each a single correctly rounded operation, so tmp and out
 * must equal the reference float for float (wl_check_f32 with no
 * tolerance). Both device buffers start zeroed and the expected values
 * are positive, so an output the kernels skipped shows. */
#include <math.h>
#include <stdlib.h>
#include "workloads/wl_common.h"

#define CS_R 4
#define CS_TAPS (2 * CS_R + 1)

/* One pass of the reference: along x (dx = 1) or along y (dx = 0). */
static void conv_cpu(const float *in, float *out, const float *wt, int w,
                     int h, int dx)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float sum = 0.0f;
            for (int k = 0; k < CS_TAPS; k++) {
                int xx = dx ? x - CS_R + k : x, yy = dx ? y : y - CS_R + k;
                float p = (xx >= 0 && xx < w && yy >= 0 && yy < h)
                              ? in[(size_t)yy * w + xx] : 0.0f;
                sum = fmaf(p, wt[k], sum);
            }
            out[(size_t)y * w + x] = sum;
        }
}

static int convsep_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                       uint64_t seed, struct wl_report *rep)
{
    unsigned w = wl_pick(size, 124, 420, 900), h = wl_pick(size, 78, 250, 600);
    size_t n = (size_t)w * h, bytes = n * sizeof(float);
    float *img = malloc(bytes), *tmp = malloc(bytes), *want = malloc(bytes),
          *got = malloc(bytes);
    float wt[CS_TAPS];
    ls_dptr din = 0, dtmp = 0, dout = 0, dw = 0;
    size_t wbytes = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!img || !tmp || !want || !got) {
        wl_fail(rep, "convsep: host allocation of 4 x %zu bytes failed", bytes);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (int k = 0; k < CS_TAPS; k++)
        wt[k] = wl_rng_float(&rng, 0.02f, 0.2f);
    for (size_t i = 0; i < n; i++)
        img[i] = wl_rng_float(&rng, 0.0f, 1.0f);
    st = ls_module_symbol(gpu, mod, "c_w", &dw, &wbytes);
    if (st != LS_OK) {
        wl_fail(rep, "symbol c_w: %s: %s", ls_status_name(st), ls_gpu_error(gpu));
        goto out;
    }
    if (wbytes != sizeof wt) {
        st = LS_ERR_INVALID;
        wl_fail(rep, "symbol c_w has %zu bytes, want %zu", wbytes, sizeof wt);
        goto out;
    }
    if ((st = ls_memcpy_htod(gpu, dw, wt, sizeof wt)) != LS_OK) {
        wl_fail(rep, "writing c_w: %s: %s", ls_status_name(st), ls_gpu_error(gpu));
        goto out;
    }
    if ((st = wl_upload(gpu, rep, "image", &din, img, bytes)) ||
        (st = wl_upload(gpu, rep, "tmp", &dtmp, NULL, bytes)) ||
        (st = wl_upload(gpu, rep, "out", &dout, NULL, bytes)))
        goto out;
    int wi = (int)w, hi = (int)h;
    void *ra[] = { &din, &dtmp, &wi, &hi }, *ca[] = { &dtmp, &dout, &wi, &hi };
    ls_dim3 rgrid = { (w + 31) / 32, (h + 3) / 4, 1 }, rblock = { 40, 4, 1 };
    ls_dim3 cgrid = { (w + 31) / 32, (h + 15) / 16, 1 }, cblock = { 32, 24, 1 };
    if ((st = wl_launch(gpu, mod, rep, "conv_rows", rgrid, rblock, 0, ra)) ||
        (st = wl_launch(gpu, mod, rep, "conv_cols", cgrid, cblock, 0, ca)))
        goto out;
    conv_cpu(img, tmp, wt, wi, hi, 1);
    conv_cpu(tmp, want, wt, wi, hi, 0);
    if ((st = wl_download(gpu, rep, "tmp", got, dtmp, bytes)))
        goto out;
    if (!wl_check_f32(rep, "tmp", got, tmp, n, 0.0, 0.0))
        goto out;
    if ((st = wl_download(gpu, rep, "out", got, dout, bytes)))
        goto out;
    wl_check_f32(rep, "out", got, want, n, 0.0, 0.0);
out:
    ls_free(gpu, din);
    ls_free(gpu, dtmp);
    ls_free(gpu, dout);
    free(img);
    free(tmp);
    free(want);
    free(got);
    return (int)st;
}

const struct workload wl_def_convsep = { "convsep", "divergent",
    "separable 9-tap convolution, row and column passes with apron threads",
    convsep_run };
