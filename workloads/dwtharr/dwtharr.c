/* dwtharr host driver: complete Haar wavelet decomposition of a seeded
 * signal (samples in [-1, 1)), cut into segments of 512 samples, one
 * 256-thread CTA per segment (one launch). Level by level, pair i of the
 * current approximation (x, y) gives the approximation (x + y) * c and
 * the detail (x - y) * c, c = 1/sqrt(2) rounded to float; a segment's
 * output holds the final approximation at 0 and the details of the level
 * with n pairs at [n, 2n).
 * Check: bit exact. The kernel uses __fadd_rn/__fsub_rn/__fmul_rn (add.rn,
 * sub.rn, mul.rn in the PTX: no fma contraction), and the CPU reference
 * performs the same correctly rounded float operations on the same
 * operands, so every output float must be identical (wl_check_f32 with no
 * tolerance). The output buffer starts zeroed and the signal has no zero
 * sample, so a level the kernel skipped would show. */
#include <stdlib.h>
#include "workloads/wl_common.h"

#define DWT_SEG 512u               /* 2 x the CTA size of dwt_haar */

/* One segment, the same operations as dwt_haar. */
static void dwt_cpu(const float *in, float *out)
{
    const float c = 0.70710678118654752f;
    float s[DWT_SEG];
    for (unsigned i = 0; i < DWT_SEG; i++)
        s[i] = in[i];
    for (unsigned n = DWT_SEG / 2; n >= 1; n >>= 1) {
        float a[DWT_SEG / 2];
        for (unsigned t = 0; t < n; t++) {
            float x = s[2 * t], y = s[2 * t + 1];
            a[t] = (x + y) * c;
            out[n + t] = (x - y) * c;
        }
        for (unsigned t = 0; t < n; t++)
            s[t] = a[t];
    }
    out[0] = s[0];
}

static int dwtharr_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                       uint64_t seed, struct wl_report *rep)
{
    unsigned nseg = wl_pick(size, 40, 400, 2000);
    size_t n = (size_t)nseg * DWT_SEG, bytes = n * sizeof(float);
    float *sig = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes);
    ls_dptr din = 0, dout = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!sig || !want || !got) {
        wl_fail(rep, "dwtharr: host allocation of 3 x %zu bytes failed", bytes);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++) {
        float v = wl_rng_float(&rng, -1.0f, 1.0f);
        sig[i] = v == 0.0f ? 0.5f : v;
    }
    if ((st = wl_upload(gpu, rep, "signal", &din, sig, bytes)) ||
        (st = wl_upload(gpu, rep, "coeffs", &dout, NULL, bytes)))
        goto out;
    void *args[] = { &din, &dout };
    ls_dim3 grid = { nseg, 1, 1 }, block = { DWT_SEG / 2, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "dwt_haar", grid, block, 0, args)))
        goto out;
    if ((st = wl_download(gpu, rep, "coeffs", got, dout, bytes)))
        goto out;
    for (unsigned s = 0; s < nseg; s++)
        dwt_cpu(sig + (size_t)s * DWT_SEG, want + (size_t)s * DWT_SEG);
    wl_check_f32(rep, "coeffs", got, want, n, 0.0, 0.0);
out:
    ls_free(gpu, din);
    ls_free(gpu, dout);
    free(sig);
    free(want);
    free(got);
    return (int)st;
}

const struct workload wl_def_dwtharr = { "dwtharr", "divergent",
    "Haar wavelet decomposition, shared memory, active threads halve per level",
    dwtharr_run };
