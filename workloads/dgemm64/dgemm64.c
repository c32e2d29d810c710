/* dgemm64 host driver: C = alpha A B + beta C in double (M, N, K not
 * multiples of the 16x16 tile), then each column of C normalised to unit
 * length. Both stages are checked against long double references with
 * a-priori rounding-error bounds (u = 2^-53):
 *   gemm:      |C - Cref| <= 1.01 (K + 3) u (|alpha| sum_k |a b| + |beta c|)
 *              (K fma roundings of the dot product, then alpha*acc + beta*c)
 *   norms:     |nrm - nref| <= 1.01 (M + 2) u nref  (M fma + sqrt), computed from
 *              the C the GPU produced, so stage errors do not mix
 *   normalise: |C/nrm - C/nref| <= 1.01 (M + 4) u |C/nref|
 * A plausible bug (wrong tile index, f32 arithmetic, a missing fma term) is
 * orders of magnitude outside these bounds. */
#include <math.h>
#include <stdlib.h>
#include "workloads/wl_common.h"

#define DG_T 16

static double dg_rand(struct wl_rng *rng)
{
    /* 53 random bits in [-1, 1) */
    return ldexp((double)(wl_rng_next(rng) >> 11), -52) - 1.0;
}

static int dg_check_gemm(struct wl_report *rep, const double *A,
                         const double *B, const double *C0, const double *C,
                         int M, int N, int K, double alpha, double beta)
{
    const double u = ldexp(1.0, -53);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            long double acc = 0, mag = 0;
            for (int k = 0; k < K; k++) {
                long double p = (long double)A[i * K + k] * B[k * N + j];
                acc += p;
                mag += fabsl(p);
            }
            long double want = alpha * acc + beta * (long double)C0[i * N + j];
            double tol = 1.01 * (K + 3) * u *
                         (double)(fabs(alpha) * mag + fabs(beta * C0[i * N + j]));
            double got = C[i * N + j];
            if (!(fabsl(got - want) <= tol))
                return wl_fail(rep, "dgemm C[%d][%d] = %.17g, want %.17g "
                               "(bound %.3g)", i, j, got, (double)want, tol);
        }
    return 1;
}

static int dg_check_norm(struct wl_report *rep, const double *C,
                         const double *Cn, const double *norms, int M, int N)
{
    const double u = ldexp(1.0, -53);
    for (int j = 0; j < N; j++) {
        long double s = 0;
        for (int i = 0; i < M; i++)
            s += (long double)C[i * N + j] * C[i * N + j];
        long double nrm = sqrtl(s);
        if (!(fabsl(norms[j] - nrm) <= 1.01L * (M + 2) * u * nrm))
            return wl_fail(rep, "dgemm norms[%d] = %.17g, want %.17g", j,
                           norms[j], (double)nrm);
        for (int i = 0; i < M; i++) {
            long double want = C[i * N + j] / nrm;
            double got = Cn[i * N + j];
            if (!(fabsl(got - want) <= 1.01L * (M + 4) * u * fabsl(want)))
                return wl_fail(rep, "dgemm normalised C[%d][%d] = %.17g, want "
                               "%.17g", i, j, got, (double)want);
        }
    }
    return 1;
}

static int dgemm64_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                       uint64_t seed, struct wl_report *rep)
{
    int M = (int)wl_pick(size, 48, 120, 232);
    int N = (int)wl_pick(size, 40, 136, 248);
    int K = (int)wl_pick(size, 52, 100, 200);
    double alpha = 0.75, beta = -1.25;
    size_t ab = (size_t)M * K * sizeof(double), bb = (size_t)K * N * sizeof(double);
    size_t cb = (size_t)M * N * sizeof(double);
    double *A = malloc(ab), *B = malloc(bb), *C0 = malloc(cb), *C = malloc(cb);
    double *Cn = malloc(cb), *norms = malloc((size_t)N * sizeof(double));
    ls_dptr dA = 0, dB = 0, dC = 0, dN = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!A || !B || !C0 || !C || !Cn || !norms) {
        wl_fail(rep, "dgemm64: host allocation failed (%dx%dx%d)", M, N, K);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (size_t i = 0; i < (size_t)M * K; i++)
        A[i] = dg_rand(&rng);
    for (size_t i = 0; i < (size_t)K * N; i++)
        B[i] = dg_rand(&rng);
    for (size_t i = 0; i < (size_t)M * N; i++)
        C0[i] = dg_rand(&rng);
    if ((st = wl_upload(gpu, rep, "A", &dA, A, ab)) ||
        (st = wl_upload(gpu, rep, "B", &dB, B, bb)) ||
        (st = wl_upload(gpu, rep, "C", &dC, C0, cb)) ||
        (st = wl_upload(gpu, rep, "norms", &dN, NULL, (size_t)N * sizeof(double))))
        goto out;
    void *gargs[] = { &dA, &dB, &dC, &M, &N, &K, &alpha, &beta };
    ls_dim3 block = { DG_T, DG_T, 1 };
    ls_dim3 grid = { (unsigned)(N + DG_T - 1) / DG_T,
                     (unsigned)(M + DG_T - 1) / DG_T, 1 };
    if ((st = wl_launch(gpu, mod, rep, "dgemm_tiled", grid, block, 0, gargs)) ||
        (st = wl_download(gpu, rep, "C", C, dC, cb)))
        goto out;
    if (!dg_check_gemm(rep, A, B, C0, C, M, N, K, alpha, beta))
        goto out;
    void *nargs[] = { &dC, &dN, &M, &N };
    ls_dim3 nblock = { 64, 1, 1 }, ngrid = { (unsigned)(N + 63) / 64, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "dcol_normalize", ngrid, nblock, 0,
                        nargs)) ||
        (st = wl_download(gpu, rep, "C", Cn, dC, cb)) ||
        (st = wl_download(gpu, rep, "norms", norms, dN,
                          (size_t)N * sizeof(double))))
        goto out;
    dg_check_norm(rep, C, Cn, norms, M, N);
out:
    ls_free(gpu, dA);
    ls_free(gpu, dB);
    ls_free(gpu, dC);
    ls_free(gpu, dN);
    free(A);
    free(B);
    free(C0);
    free(C);
    free(Cn);
    free(norms);
    return (int)st;
}

const struct workload wl_def_dgemm64 = { "dgemm64", "f64",
    "double-precision tiled GEMM (fma.rn.f64) then column normalisation "
    "(sqrt.rn.f64, div.rn.f64)", dgemm64_run };
