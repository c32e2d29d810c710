/* gaussian host driver: Gaussian elimination without pivoting of a seeded
 * n x n row diagonally dominant system A x = b (off-diagonal entries in
 * [-1, 1), a_ii = 2 sum_j |a_ij| + 1, x_true in [-1, 1), b = A x_true in
 * double rounded to float), stored as the augmented matrix [A | b] with row
 * stride ld = n + 1 rounded up to 32 words. For each pivot k = 0 .. n-2 two
 * launches: gauss_mult (multipliers) and gauss_update (trailing
 * submatrix and b, and the multipliers stored as L below the diagonal).
 * Back substitution runs on the host, in double, on the device's factors.
 *
 * Check 1, bit exact (tolerance 0): the kernels do m_i = a_ik / a_kk with
 * div.rn.f32 and a_ij = fma(-m_i, a_kj, a_ij) with neg.f32 and fma.rn.f32;
 * the reference performs the same divisions and fmaf calls in the same
 * order, so the whole augmented matrix after the last pivot (L, U and the
 * reduced b) must match to the last bit.
 * Check 2, residual bound: for the computed factors Higham (Accuracy and
 * Stability of Numerical Algorithms, 2nd ed., Thm 9.3) gives
 * L U = A + dA, |dA| <= g_n |L||U|, and the same for the b column, with
 * g_n = n u / (1 - n u), u = 2^-24 (an fma rounds once, which only
 * tightens the bound). The host's double back substitution adds
 * |dU| <= g_n(double) |U| <= g_n |U|, so the residual of the solution x
 * obeys |b - A x| <= 2 g_n |L| (|U||x| + |b'|) componentwise; the driver
 * computes the residual in double and allows 2^-40 (|A||x| + |b|) more for
 * that computation. Check 3, the solution: A is strictly row diagonally
 * dominant with margin a_ii - sum_j |a_ij| >= 0.99 (off-diagonal sum + 1,
 * less the rounding of a_ii), so ||A^-1||inf <= 1/0.99 (Varah) and
 * |x - x_true| <= 1.02 (max_i |r_i| + 2^-23 max_i |b_i|): the computed
 * residual (plus its 2^-40 computation allowance) and the rounding of b to
 * float (u |b|, with slack for the double sum). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

/* Reference elimination of the n x (n + 1) augmented matrix a (stride ld),
 * the same operations in the same order as gauss_mult + gauss_update. */
static void gaussian_ref(float *a, float *m, unsigned n, unsigned ld)
{
    for (unsigned k = 0; k + 1 < n; k++) {
        for (unsigned i = k + 1; i < n; i++)
            m[i] = a[(size_t)i * ld + k] / a[(size_t)k * ld + k];
        for (unsigned i = k + 1; i < n; i++) {
            for (unsigned j = k + 1; j <= n; j++)
                a[(size_t)i * ld + j] = fmaf(-m[i], a[(size_t)k * ld + j],
                                             a[(size_t)i * ld + j]);
            a[(size_t)i * ld + k] = m[i];
        }
    }
}

/* Residual check of x against A, b (float inputs) and the factors f;
 * returns max_i |r_i| plus its computation allowance (-1 on failure). */
static double gaussian_residual(struct wl_report *rep, const float *A,
                                const float *f, const double *x, unsigned n,
                                unsigned ld)
{
    double u = ldexp(1.0, -24), gn = n * u / (1.0 - n * u);
    double *ux = malloc(n * sizeof(double));
    if (!ux) {
        wl_fail(rep, "gaussian: host allocation failed");
        return -1.0;
    }
    double rmax = 0.0;
    for (unsigned k = 0; k < n; k++) {       /* (|U||x| + |b'|)_k */
        double s = fabs((double)f[(size_t)k * ld + n]);
        for (unsigned j = k; j < n; j++)
            s += fabs((double)f[(size_t)k * ld + j]) * fabs(x[j]);
        ux[k] = s;
    }
    for (unsigned i = 0; i < n; i++) {
        double r = A[(size_t)i * ld + n], ax = fabs(r), lu = ux[i];
        for (unsigned j = 0; j < n; j++) {
            r -= (double)A[(size_t)i * ld + j] * x[j];
            ax += fabs((double)A[(size_t)i * ld + j] * x[j]);
        }
        for (unsigned k = 0; k < i; k++)
            lu += fabs((double)f[(size_t)i * ld + k]) * ux[k];
        double tol = 2.0 * gn * lu + ldexp(ax, -40);
        if (!(fabs(r) <= tol)) {
            wl_fail(rep, "gaussian: residual of row %u = %.6g exceeds the "
                    "bound %.6g", i, fabs(r), tol);
            rmax = -1.0;
            break;
        }
        rmax = fmax(rmax, fabs(r) + ldexp(ax, -40));
    }
    free(ux);
    return rmax;
}

static int gaussian_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                        uint64_t seed, struct wl_report *rep)
{
    unsigned n = wl_pick_xl(size, 42, 96, 168, 512);
    unsigned ld = (n + 1 + 31) / 32 * 32;
    size_t words = (size_t)n * ld, bytes = words * sizeof(float);
    float *A = calloc(words, sizeof(float)), *ref = malloc(bytes);
    float *out = malloc(bytes), *m = calloc(n, sizeof(float));
    float *xt = malloc(n * sizeof(float));
    double *x = malloc(n * sizeof(double));
    ls_dptr da = 0, dm = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!A || !ref || !out || !m || !xt || !x) {
        wl_fail(rep, "gaussian: host allocation of 3 x %zu bytes failed",
                bytes);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (unsigned i = 0; i < n; i++)
        xt[i] = wl_rng_float(&rng, -1.0f, 1.0f);
    for (unsigned i = 0; i < n; i++) {
        double off = 0.0, b = 0.0;
        for (unsigned j = 0; j < n; j++)
            if (j != i) {
                A[(size_t)i * ld + j] = wl_rng_float(&rng, -1.0f, 1.0f);
                off += fabs((double)A[(size_t)i * ld + j]);
            }
        A[(size_t)i * ld + i] = (float)(2.0 * off + 1.0);
        for (unsigned j = 0; j < n; j++)
            b += (double)A[(size_t)i * ld + j] * xt[j];
        A[(size_t)i * ld + n] = (float)b;
    }
    memcpy(ref, A, bytes);
    gaussian_ref(ref, m, n, ld);
    if ((st = wl_upload(gpu, rep, "ab", &da, A, bytes)) ||
        (st = wl_upload(gpu, rep, "m", &dm, NULL, n * sizeof(float))))
        goto out;
    int ni = (int)n, ldi = (int)ld;
    ls_dim3 b1 = { 128, 1, 1 }, b2 = { 32, 8, 1 };
    for (unsigned k = 0; k + 1 < n; k++) {
        int ki = (int)k;
        void *args[] = { &da, &dm, &ni, &ldi, &ki };
        ls_dim3 g1 = { (n - 1 - k + 127) / 128, 1, 1 };
        ls_dim3 g2 = { (n + 1 - k + 31) / 32, (n - 1 - k + 7) / 8, 1 };
        if ((st = wl_launch(gpu, mod, rep, "gauss_mult", g1, b1, 0, args)) ||
            (st = wl_launch(gpu, mod, rep, "gauss_update", g2, b2, 0, args)))
            goto out;
    }
    if ((st = wl_download(gpu, rep, "ab", out, da, bytes)))
        goto out;
    if (!wl_check_f32(rep, "ab", out, ref, words, 0.0, 0.0))
        goto out;
    for (unsigned i = n; i-- > 0;) {          /* back substitution */
        double s = out[(size_t)i * ld + n];
        for (unsigned j = i + 1; j < n; j++)
            s -= (double)out[(size_t)i * ld + j] * x[j];
        x[i] = s / out[(size_t)i * ld + i];
    }
    double rmax = gaussian_residual(rep, A, out, x, n, ld), bmax = 0.0;
    for (unsigned i = 0; i < n; i++)
        bmax = fmax(bmax, fabs((double)A[(size_t)i * ld + n]));
    double xtol = 1.02 * (rmax + ldexp(bmax, -23));
    for (unsigned i = 0; i < n && rmax >= 0.0; i++)
        if (!(fabs(x[i] - xt[i]) <= xtol)) {
            wl_fail(rep, "gaussian: x[%u] = %.9g, want %.9g (tolerance %.3g)",
                    i, x[i], (double)xt[i], xtol);
            break;
        }
out:
    ls_free(gpu, da);
    ls_free(gpu, dm);
    free(A);
    free(ref);
    free(out);
    free(m);
    free(xt);
    free(x);
    return (int)st;
}

const struct workload wl_def_gaussian = { "gaussian", "regular",
    "Gaussian elimination, multiplier and trailing-update kernels per pivot",
    gaussian_run };
