/* lib host driver: LIBOR market model Monte Carlo (lib.cu gives the model
 * and the kernels). npath paths of LIB_N = 32 forward rates over
 * LIB_NMAT = 16 steps; the volatilities c_lambda[i] are seeded in
 * [0.15, 0.25), and the 15 receiver swaptions pair maturities
 * {2, 4, 8, 12, 16} steps with seeded strikes in [0.045, 0.055) (about the
 * par rate of 0.05, so roughly half of the paths pay on each option). The
 * driver writes the three tables through ls_module_symbol. The normal
 * draws are Irwin-Hall sums of 12 float uniforms minus 6 (no libm, so the
 * inputs are the same on every host), stored z[n * npath + p]. Launches:
 * lib_path, then lib_sum (one CTA per 256 paths).
 * Checks (against a double-precision CPU evaluation of the same model;
 * the kernel computes in float, nvcc contracts multiply-adds, and expf is
 * within 2 ulp, CUDA's documented bound, the other operations within
 * 0.5 ulp):
 *  - v[p]: |got - want| <= 4e-3 + 1e-5 |want|. B[m] and S[m] are products
 *    and sums of at most 16 factors 1 / (1 + delta L) with delta L near
 *    0.0125, so the rates' own errors (a few ulp per step, 16 steps) hardly
 *    reach them: each carries under 32 ulp (2e-6) relative, a swap value
 *    B + K S - 1 (B + K S <= 1.5) under 3e-6 absolute, so each of the 15
 *    options' -100 x value under 3e-4, and their sum under 4.5e-3 before
 *    the (relative, 16-division) discount. Measured: at most 4e-4 over
 *    seeds 1, 2, 3, 7, 23, 99 and all sizes.
 *  - g[p]: |got - want| <= 1e-3 + 1e-5 |want|. Every term of the sum is
 *    positive (B + K (S[m] - S[k-1]) > 0), so there is no cancellation and
 *    the relative error stays that of ~50 roundings (3e-6). Measured: at
 *    most 1.2e-6 relative.
 *  - itm[p], the number of options that paid, exactly.
 *  A path where some swap value is within 1e-4 of zero in the CPU
 *  evaluation (30 times the swap-value bound) may fall on either side in
 *  float, and a flip moves g by a whole option's sensitivities, so its itm
 *  and g are not compared (v is continuous there and still is).
 *  - lib_sum's block sums bit exact against the same float tree replayed
 *    on the host over the kernel's own v (the tree's order is fixed).
 *  - the CPU evaluation itself: some options pay and some do not, so the
 *    payoff branch diverges. v and g start as NaN, so a path the kernel
 *    skipped fails. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define LIB_N 32
#define LIB_NMAT 16
#define LIB_NOPT 15
#define LIB_SUM_THREADS 256u
#define LIB_TPB 64u

struct lib_tables {
    float lambda[LIB_N];
    int mat[LIB_NOPT];
    float rate[LIB_NOPT];
};

/* One path in double: returns the discounted payoff; *grad the
 * discounted sensitivity sum, *paid the paying options, *near the
 * smallest |swap value|. */
static double lib_cpu_path(const struct lib_tables *tb, const float *z,
                           unsigned npath, unsigned p, double *grad,
                           int *paid, double *near)
{
    const double delta = 0.25;
    double L[LIB_N], B[LIB_N - LIB_NMAT], S[LIB_N - LIB_NMAT];
    for (int i = 0; i < LIB_N; i++)
        L[i] = 0.05f;
    for (int n = 0; n < LIB_NMAT; n++) {
        double sqez = sqrt(delta) * z[(size_t)n * npath + p];
        double vs = 0.0;
        for (int i = n + 1; i < LIB_N; i++) {
            double lam = tb->lambda[i - n - 1];
            double con1 = delta * lam;
            vs += con1 * L[i] / (1.0 + delta * L[i]);
            L[i] = L[i] * exp(con1 * vs + lam * (sqez - 0.5 * con1));
        }
    }
    double b = 1.0, s = 0.0;
    for (int n = LIB_NMAT; n < LIB_N; n++) {
        b = b / (1.0 + delta * L[n]);
        s = s + delta * b;
        B[n - LIB_NMAT] = b;
        S[n - LIB_NMAT] = s;
    }
    double pay = 0.0, gr = 0.0;
    *paid = 0;
    *near = INFINITY;
    for (int j = 0; j < LIB_NOPT; j++) {
        int m = tb->mat[j] - 1;
        double swapval = B[m] + (double)tb->rate[j] * S[m] - 1.0;
        if (fabs(swapval) < *near)
            *near = fabs(swapval);
        if (swapval < 0.0) {
            pay += -100.0 * swapval;
            (*paid)++;
            for (int k = 0; k <= m; k++) {
                double sk = k > 0 ? S[k - 1] : 0.0;
                gr += 100.0 * delta / (1.0 + delta * L[LIB_NMAT + k]) *
                      (B[m] + (double)tb->rate[j] * (S[m] - sk));
            }
        }
    }
    for (int n = 0; n < LIB_NMAT; n++) {
        pay = pay / (1.0 + delta * L[n]);
        gr = gr / (1.0 + delta * L[n]);
    }
    *grad = gr;
    return pay;
}

static int lib_symbol(ls_gpu *gpu, ls_module *mod, struct wl_report *rep,
                      const char *name, const void *host, size_t bytes,
                      ls_status *st)
{
    ls_dptr d = 0;
    size_t have = 0;
    *st = ls_module_symbol(gpu, mod, name, &d, &have);
    if (*st == LS_OK && have != bytes)
        *st = LS_ERR_INVALID;
    if (*st == LS_OK)
        *st = ls_memcpy_htod(gpu, d, host, bytes);
    if (*st != LS_OK)
        wl_fail(rep, "lib: symbol %s (%zu bytes, want %zu): %s: %s", name,
                have, bytes, ls_status_name(*st), ls_gpu_error(gpu));
    return *st == LS_OK;
}

static int lib_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                   uint64_t seed, struct wl_report *rep)
{
    unsigned npath = wl_pick(size, 160, 1500, 8000);
    unsigned nblk = (npath + LIB_SUM_THREADS - 1) / LIB_SUM_THREADS;
    float *z = malloc((size_t)LIB_NMAT * npath * sizeof(float));
    float *gv = malloc(npath * sizeof(float)), *want = malloc(npath * sizeof(float));
    float *gg = malloc(npath * sizeof(float)), *wg = malloc(npath * sizeof(float));
    int *gitm = malloc(npath * sizeof(int)), *witm = malloc(npath * sizeof(int));
    float *gsum = malloc(nblk * sizeof(float)), *wsum = malloc(nblk * sizeof(float));
    ls_dptr dz = 0, dv = 0, dg = 0, ditm = 0, dsum = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!z || !gv || !want || !gg || !wg || !gitm || !witm || !gsum || !wsum) {
        wl_fail(rep, "lib: host allocation failed (%u paths)", npath);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    struct lib_tables tb;
    static const int mats[5] = { 2, 4, 8, 12, 16 };
    for (int i = 0; i < LIB_N; i++)
        tb.lambda[i] = wl_rng_float(&rng, 0.15f, 0.25f);
    for (int j = 0; j < LIB_NOPT; j++) {
        tb.mat[j] = mats[j % 5];
        tb.rate[j] = wl_rng_float(&rng, 0.045f, 0.055f);
    }
    for (size_t k = 0; k < (size_t)LIB_NMAT * npath; k++) {
        float s = 0.0f;
        for (int u = 0; u < 12; u++)
            s += wl_rng_float(&rng, 0.0f, 1.0f);
        z[k] = s - 6.0f;
    }
    if (!lib_symbol(gpu, mod, rep, "c_lambda", tb.lambda, sizeof tb.lambda, &st) ||
        !lib_symbol(gpu, mod, rep, "c_mat", tb.mat, sizeof tb.mat, &st) ||
        !lib_symbol(gpu, mod, rep, "c_rate", tb.rate, sizeof tb.rate, &st))
        goto out;
    memset(gv, 0xff, npath * sizeof(float));
    if ((st = wl_upload(gpu, rep, "z", &dz, z, (size_t)LIB_NMAT * npath * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "v", &dv, gv, npath * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "g", &dg, gv, npath * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "itm", &ditm, NULL, npath * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "block_sum", &dsum, NULL, nblk * sizeof(float))))
        goto out;
    int npi = (int)npath;
    void *a_path[] = { &dz, &dv, &dg, &ditm, &npi };
    void *a_sum[] = { &dv, &dsum, &npi };
    ls_dim3 gp = { (npath + LIB_TPB - 1) / LIB_TPB, 1, 1 }, bp = { LIB_TPB, 1, 1 };
    ls_dim3 gs = { nblk, 1, 1 }, bs = { LIB_SUM_THREADS, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "lib_path", gp, bp, 0, a_path)) ||
        (st = wl_launch(gpu, mod, rep, "lib_sum", gs, bs, 0, a_sum)))
        goto out;
    if ((st = wl_download(gpu, rep, "v", gv, dv, npath * sizeof(float))) ||
        (st = wl_download(gpu, rep, "g", gg, dg, npath * sizeof(float))) ||
        (st = wl_download(gpu, rep, "itm", gitm, ditm, npath * sizeof(int))) ||
        (st = wl_download(gpu, rep, "block_sum", gsum, dsum, nblk * sizeof(float))))
        goto out;
    size_t paid = 0;
    for (unsigned p = 0; p < npath; p++) {
        double near, grad;
        want[p] = (float)lib_cpu_path(&tb, z, npath, p, &grad, &witm[p], &near);
        wg[p] = (float)grad;
        paid += (size_t)witm[p];
        if (near < 1e-4) {                 /* on the edge: either side */
            witm[p] = gitm[p];
            wg[p] = gg[p];
        }
    }
    if (paid == 0 || paid == (size_t)npath * LIB_NOPT) {
        wl_fail(rep, "lib: %zu of %u option payoffs paid: the payoff branch "
                "does not diverge (input generator bug)", paid,
                npath * LIB_NOPT);
        goto out;
    }
    for (unsigned blk = 0; blk < nblk; blk++) {
        float sh[LIB_SUM_THREADS];
        for (unsigned t = 0; t < LIB_SUM_THREADS; t++) {
            unsigned p = blk * LIB_SUM_THREADS + t;
            sh[t] = p < npath ? gv[p] : 0.0f;
        }
        for (unsigned h = LIB_SUM_THREADS / 2; h > 0; h >>= 1)
            for (unsigned t = 0; t < h; t++)
                sh[t] = sh[t] + sh[t + h];
        wsum[blk] = sh[0];
    }
    if (wl_check_f32(rep, "v", gv, want, npath, 1e-5, 4e-3) &&
        wl_check_f32(rep, "g", gg, wg, npath, 1e-5, 1e-3) &&
        wl_check_i32(rep, "itm", gitm, witm, npath))
        wl_check_f32(rep, "block_sum", gsum, wsum, nblk, 0, 0);
out:
    ls_free(gpu, dz);
    ls_free(gpu, dv);
    ls_free(gpu, dg);
    ls_free(gpu, ditm);
    ls_free(gpu, dsum);
    free(z);
    free(gv);
    free(want);
    free(gg);
    free(wg);
    free(gitm);
    free(witm);
    free(gsum);
    free(wsum);
    return (int)st;
}

const struct workload wl_def_lib = { "lib", "divergent",
    "LIBOR market model Monte Carlo: per-path rate evolution, swaption payoffs",
    lib_run };
