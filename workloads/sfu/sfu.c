/* sfu host driver. sfu_eval: each of n threads sums 8 functions over
 * K = 8 points u_k = x + k/16 * 1.25 with x in [-2.5, 2.5), so u stays in
 * [-2.5, 3.05] (inside [-pi, pi]). Each sum is checked against a double
 * reference with the documented CUDA accuracy of each function (CUDA C
 * Programming Guide, "Mathematical Functions", max error):
 *   expf 2 ulp, logf 1 ulp, sinf 2 ulp, cosf 2 ulp,
 *   __expf 2 + floor(|1.173 u|) ulp,
 *   __logf 2^-21.41 absolute for arguments in [0.5, 2], else 3 ulp,
 *   __sinf, __cosf 2^-21.41 absolute for u in [-pi, pi],
 * summed over the K terms, plus the float summation bound K u sum|f|
 * (u = 2^-24), times 1.01. A wrong SFU op (wrong base, radians/turns,
 * missing range reduction) is off by far more.
 * sfu_fma_dir: __fmaf_rz and __fmaf_rd (fma.rz.f32 / fma.rm.f32) on seeded
 * a, b, c including exact cancellations, checked bit-exactly against the
 * exact a*b+c worked out with error-free transformations in double (no
 * fesetround): -0.0f for an exact zero under round-down is part of it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define SFU_NF 8
#define SFU_PTS 8
#define SFU_DX 0.078125f

static double sfu_ulp(double y)
{
    int e;
    if (y == 0.0)
        return ldexp(1.0, -149);
    frexp(fabs(y), &e);
    return ldexp(1.0, e - 24 < -149 ? -149 : e - 24);
}

/* Exact value of f_k(u) in double and its documented error bound. */
static double sfu_ref(int f, float u, double *bound)
{
    double l = fabs((double)u) + 0.5, y;
    const double abs_err = ldexp(1.0, -21) / pow(2.0, 0.41);
    switch (f) {
    case 0: y = exp(u); *bound = 2 * sfu_ulp(y); break;
    case 1: y = log(l); *bound = 1 * sfu_ulp(y); break;
    case 2: y = sin(u); *bound = 2 * sfu_ulp(y); break;
    case 3: y = cos(u); *bound = 2 * sfu_ulp(y); break;
    case 4:
        y = exp(u);
        *bound = (2 + floor(fabs(1.173 * u))) * sfu_ulp(y);
        break;
    case 5:
        y = log(l);
        *bound = (l >= 0.5 && l <= 2.0) ? abs_err : 3 * sfu_ulp(y);
        break;
    case 6: y = sin(u); *bound = abs_err; break;
    default: y = cos(u); *bound = abs_err; break;
    }
    return y;
}

/* a*b + c rounded toward zero (rz = 1) or toward -inf (rz = 0), exactly. */
static float sfu_fma_directed(float a, float b, float c, int rz)
{
    double p = (double)a * b;              /* exact: 24 x 24 bits */
    double s = p + c, bb = s - p;          /* TwoSum: p + c = s + e */
    double e = (p - (s - bb)) + (c - bb);
    float r = fmaf(a, b, c);               /* round to nearest */
    if (s == 0.0 && e == 0.0) {            /* exact zero */
        if (p == 0.0 && c == 0.0 && !signbit(p) == !signbit(c))
            return c;                      /* +0 + +0 or -0 + -0 */
        return rz ? 0.0f : -0.0f;          /* IEEE 754 6.3 */
    }
    double d = (s - (double)r) + e;        /* s - r exact (Sterbenz) */
    if (d == 0.0)
        return r;
    float dn = d > 0 ? r : nextafterf(r, -INFINITY);   /* below exact */
    float up = d > 0 ? nextafterf(r, INFINITY) : r;    /* above exact */
    if (!rz)
        return dn;
    return s > 0 ? dn : up;
}

static int sfu_check_eval(struct wl_report *rep, const float *x,
                          const float *out, unsigned n)
{
    static const char *const names[SFU_NF] = {
        "expf", "logf", "sinf", "cosf", "__expf", "__logf", "__sinf", "__cosf"
    };
    for (int f = 0; f < SFU_NF; f++)
        for (unsigned i = 0; i < n; i++) {
            double sum = 0.0, bound = 0.0, mag = 0.0;
            for (int k = 0; k < SFU_PTS; k++) {
                float u = x[i] + (float)k * SFU_DX;   /* exact product */
                double b, y = sfu_ref(f, u, &b);
                sum += y;
                bound += b;
                mag += fabs(y);
            }
            double tol = 1.01 * (bound + SFU_PTS * ldexp(1.0, -24) * mag);
            double got = out[(size_t)f * n + i];
            if (!(fabs(got - sum) <= tol))
                return wl_fail(rep, "sfu %s sum[%u] (x = %.9g) = %.9g, want "
                               "%.9g (tolerance %.3g)", names[f], i,
                               (double)x[i], got, sum, tol);
        }
    return 1;
}

static int sfu_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                   uint64_t seed, struct wl_report *rep)
{
    unsigned n = wl_pick(size, 1024, 8192, 65536);
    size_t fb = (size_t)n * sizeof(float);
    float *x = malloc(fb), *out = malloc(SFU_NF * fb);
    float *a = malloc(fb), *b = malloc(fb), *c = malloc(fb);
    ls_dptr dx = 0, dout = 0, da = 0, db = 0, dc = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!x || !out || !a || !b || !c) {
        wl_fail(rep, "sfu: host allocation failed (n = %u)", n);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (unsigned i = 0; i < n; i++) {
        x[i] = wl_rng_float(&rng, -2.5f, 2.5f);
        if (i % 8 == 7) {              /* small integers: exact cancellation */
            a[i] = (float)((int)wl_rng_below(&rng, 200) - 100);
            b[i] = (float)((int)wl_rng_below(&rng, 200) - 100);
            c[i] = -a[i] * b[i];
        } else {
            a[i] = wl_rng_float(&rng, -4.0f, 4.0f);
            b[i] = wl_rng_float(&rng, -4.0f, 4.0f);
            /* c of the product's size: cancellation of leading bits */
            c[i] = (i & 1) ? wl_rng_float(&rng, -16.0f, 16.0f)
                           : -a[i] * b[i] * wl_rng_float(&rng, 0.999f, 1.001f);
        }
    }
    int ni = (int)n, npts = SFU_PTS;
    float dxs = SFU_DX;
    if ((st = wl_upload(gpu, rep, "x", &dx, x, fb)) ||
        (st = wl_upload(gpu, rep, "out", &dout, NULL, SFU_NF * fb)))
        goto out;
    void *eargs[] = { &dx, &dout, &ni, &npts, &dxs };
    ls_dim3 block = { 128, 1, 1 }, grid = { (n + 127) / 128, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "sfu_eval", grid, block, 0, eargs)) ||
        (st = wl_download(gpu, rep, "out", out, dout, SFU_NF * fb)))
        goto out;
    sfu_check_eval(rep, x, out, n);
    if ((st = wl_upload(gpu, rep, "a", &da, a, fb)) ||
        (st = wl_upload(gpu, rep, "b", &db, b, fb)) ||
        (st = wl_upload(gpu, rep, "c", &dc, c, fb)))
        goto out;
    void *fargs[] = { &da, &db, &dc, &dout, &ni };
    if ((st = wl_launch(gpu, mod, rep, "sfu_fma_dir", grid, block, 0, fargs)) ||
        (st = wl_download(gpu, rep, "fma", out, dout, 2 * fb)))
        goto out;
    for (unsigned i = 0; i < 2 * n; i++) {
        unsigned j = i % n;
        float want = sfu_fma_directed(a[j], b[j], c[j], i < n);
        uint32_t gw, ww;
        memcpy(&gw, &out[i], 4);
        memcpy(&ww, &want, 4);
        if (gw != ww) {
            wl_fail(rep, "%s(%a, %a, %a) = %a, want %a", i < n ? "fma.rz.f32"
                    : "fma.rm.f32", (double)a[j], (double)b[j], (double)c[j],
                    (double)out[i], (double)want);
            break;
        }
    }
out:
    ls_free(gpu, dx);
    ls_free(gpu, dout);
    ls_free(gpu, da);
    ls_free(gpu, db);
    ls_free(gpu, dc);
    free(x);
    free(out);
    free(a);
    free(b);
    free(c);
    return (int)st;
}

const struct workload wl_def_sfu = { "sfu", "sfu",
    "expf/logf/sinf/cosf and SFU intrinsics; directed-rounding fma",
    sfu_run };
