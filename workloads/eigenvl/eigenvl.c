/* eigenvl host driver: all eigenvalues of a batch of seeded n x n
 * symmetric tridiagonal matrices (diagonal in [-4, 4), off-diagonal in
 * [-1, 1), passed as the floats d[i] and e2[i] = e[i] * e[i]) by bisection
 * on Sturm counts, one launch (grid.y = matrix, 32-thread CTAs; n is not a
 * multiple of 32, so the last CTA of each matrix is partial). For each
 * matrix the host widens the Gershgorin interval by 1% (in double, then
 * rounds to float) and cuts it into nint = n intervals of width w; thread
 * k owns [glo + w k, glo + w (k + 1)) (each end computed
 * as one float multiply and one float add) and bisects each eigenvalue
 * inside it until the bracket is at most tol = 2^-16 wide or its midpoint
 * equals an end. The Sturm count is the number of negative pivots
 * q_0 = d_0 - x, q_i = (d_i - x) - e2_{i-1} / q_{i-1}, a pivot with
 * |q| < 1e-20 replaced by -1e-20.
 * Check: bit exact. The kernel uses __fsub_rn, __fdiv_rn, __fadd_rn and
 * __fmul_rn (sub.rn, div.rn, add.rn, mul.rn: no contraction), the CPU
 * reference performs the same correctly rounded float operations in the
 * same order, so every Sturm count, every bisection decision and so every
 * eigenvalue (wl_check_f32 with no tolerance) and every thread's count
 * of bisection steps (wl_check_u32) must be identical. The host also
 * checks on the reference that the counts at the two ends of the whole
 * range are 0 and n (so that every eigenvalue was found once) and that
 * the trace equals the sum of the eigenvalues to within 1e-3 * n (a
 * sanity check of the reference itself, not of the kernel). lambda starts
 * as NaN, so an eigenvalue the kernel never wrote fails the check. */
#include <math.h>
#include <stdlib.h>
#include "workloads/wl_common.h"

#define EIG_TOL 1.52587890625e-5f  /* 2^-16 */
#define EIG_PIVMIN 1e-20f

/* The kernel's Sturm count, the same operations in the same order. */
static int eig_sturm(const float *d, const float *e2, int n, float x)
{
    int c = 0;
    float q = d[0] - x;
    for (int i = 0;;) {
        if (fabsf(q) < EIG_PIVMIN)
            q = -EIG_PIVMIN;
        if (q < 0.0f)
            c++;
        if (++i == n)
            break;
        q = (d[i] - x) - e2[i - 1] / q;
    }
    return c;
}

/* The kernel's interval k: eigenvalues into lambda, returns its steps. */
static uint32_t eig_cpu(const float *d, const float *e2, int n, float glo,
                        float width, int k, float *lambda)
{
    float lo = glo + width * (float)k, hi = glo + width * (float)(k + 1);
    int clo = eig_sturm(d, e2, n, lo), chi = eig_sturm(d, e2, n, hi);
    uint32_t steps = 0;
    for (int j = clo; j < chi; j++) {
        float a = lo, b = hi;
        for (;;) {
            if (b - a <= EIG_TOL)
                break;
            float m = (a + b) * 0.5f;
            if (m == a || m == b)
                break;
            steps++;
            if (eig_sturm(d, e2, n, m) > j)
                b = m;
            else
                a = m;
        }
        lambda[j] = (a + b) * 0.5f;
    }
    return steps;
}

static int eigenvl_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                       uint64_t seed, struct wl_report *rep)
{
    unsigned n = wl_pick(size, 40, 128, 264), nmat = wl_pick(size, 4, 5, 6);
    unsigned nint = n, tot = n * nmat;
    float *d = malloc(tot * sizeof(float)), *e2 = malloc(tot * sizeof(float));
    float *got = malloc(tot * sizeof(float)), *want = malloc(tot * sizeof(float));
    float *glo = malloc(nmat * sizeof(float)), *wid = malloc(nmat * sizeof(float));
    uint32_t *gsteps = malloc(nint * nmat * sizeof(uint32_t));
    uint32_t *wsteps = malloc(nint * nmat * sizeof(uint32_t));
    ls_dptr dd = 0, de2 = 0, dglo = 0, dwid = 0, dl = 0, ds = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!d || !e2 || !got || !want || !glo || !wid || !gsteps || !wsteps) {
        wl_fail(rep, "eigenvl: host allocation failed (n = %u)", n);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    int ni = (int)n, ki = (int)nint;
    for (unsigned m = 0; m < nmat; m++) {
        float *dm = d + m * n, *em = e2 + m * n;
        double gmin = 1e30, gmax = -1e30;
        float eprev = 0.0f;
        for (unsigned i = 0; i < n; i++) {
            dm[i] = wl_rng_float(&rng, -4.0f, 4.0f);
            float e = i + 1 < n ? wl_rng_float(&rng, -1.0f, 1.0f) : 0.0f;
            em[i] = e * e;
            double r = fabs((double)eprev) + fabs((double)e);
            gmin = fmin(gmin, (double)dm[i] - r);
            gmax = fmax(gmax, (double)dm[i] + r);
            eprev = e;
        }
        double span = gmax - gmin;
        glo[m] = (float)(gmin - 0.01 * span);
        wid[m] = (float)(1.02 * span / nint);
    }
    for (unsigned i = 0; i < tot; i++)
        got[i] = want[i] = NAN;
    if ((st = wl_upload(gpu, rep, "d", &dd, d, tot * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "e2", &de2, e2, tot * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "glo", &dglo, glo, nmat * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "width", &dwid, wid, nmat * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "lambda", &dl, got, tot * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "steps", &ds, NULL,
                        nint * nmat * sizeof(uint32_t))))
        goto out;
    float tol = EIG_TOL, pivmin = EIG_PIVMIN;
    void *args[] = { &dd, &de2, &ni, &dglo, &dwid, &ki, &tol, &pivmin, &dl,
                     &ds };
    ls_dim3 grid = { (nint + 31) / 32, nmat, 1 }, block = { 32, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "eig_bisect", grid, block, 0, args)))
        goto out;
    if ((st = wl_download(gpu, rep, "lambda", got, dl, tot * sizeof(float))) ||
        (st = wl_download(gpu, rep, "steps", gsteps, ds,
                          nint * nmat * sizeof(uint32_t))))
        goto out;
    for (unsigned m = 0; m < nmat; m++) {
        const float *dm = d + m * n, *em = e2 + m * n;
        for (int k = 0; k < ki; k++)
            wsteps[m * nint + (unsigned)k] =
                eig_cpu(dm, em, ni, glo[m], wid[m], k, want + m * n);
        float top = glo[m] + wid[m] * (float)ki;
        if (eig_sturm(dm, em, ni, glo[m]) != 0 ||
            eig_sturm(dm, em, ni, top) != ni) {
            wl_fail(rep, "eigenvl: matrix %u: reference range [%g, %g) "
                    "misses eigenvalues", m, (double)glo[m], (double)top);
            goto out;
        }
        double sum = 0.0, trace = 0.0;
        for (unsigned i = 0; i < n; i++) {
            sum += want[m * n + i];
            trace += dm[i];
        }
        if (!(fabs(sum - trace) <= 1e-3 * n)) {
            wl_fail(rep, "eigenvl: matrix %u: reference eigenvalues sum to "
                    "%g, trace %g", m, sum, trace);
            goto out;
        }
    }
    if (wl_check_f32(rep, "lambda", got, want, tot, 0.0, 0.0))
        wl_check_u32(rep, "steps", gsteps, wsteps, nint * nmat);
out:
    ls_free(gpu, dd);
    ls_free(gpu, de2);
    ls_free(gpu, dglo);
    ls_free(gpu, dwid);
    ls_free(gpu, dl);
    ls_free(gpu, ds);
    free(d);
    free(e2);
    free(got);
    free(want);
    free(glo);
    free(wid);
    free(gsteps);
    free(wsteps);
    return (int)st;
}

const struct workload wl_def_eigenvl = { "eigenvl", "divergent",
    "tridiagonal eigenvalues by Sturm-count bisection, one thread per interval",
    eigenvl_run };
