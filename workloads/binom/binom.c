/* binom host driver: European calls on a Cox-Ross-Rubinstein binomial
 * tree, one CTA of 128 threads per option. All options share the rate
 * (6%), volatility (30%) and expiry (1 year); spots are seeded in [5, 50)
 * and strikes within 25% of their spot. The host derives, in double and
 * then rounded to float, the discounted up/down weights pu, pd and the
 * leaf growth factors growth[i] = u^(2i - nsteps) (u = e^(vol sqrt(dt))).
 * Check: bit exact. The kernel's arithmetic is explicit (__fmaf_rn,
 * __fmul_rn: the PTX has fma.rn.f32, mul.rn.f32 and max.f32 only), and
 * the CPU reference performs the same correctly rounded operations in the
 * same order: leaf fmaxf(fmaf(S, growth[i], -X), 0), node
 * fmaf(pu, V[i + 1], pd * V[i]), so every price must be identical. */
#include <math.h>
#include <stdlib.h>
#include "workloads/wl_common.h"

#define BINOM_THREADS 128u

/* CPU price of one option, the same operations as binom_price; v has
 * nsteps + 1 floats of scratch. */
static float binom_cpu(float s, float x, const float *growth, unsigned nsteps,
                       float pu, float pd, float *v)
{
    for (unsigned i = 0; i <= nsteps; i++)
        v[i] = fmaxf(fmaf(s, growth[i], -x), 0.0f);
    for (unsigned n = nsteps; n > 0; n--)
        for (unsigned i = 0; i < n; i++)
            v[i] = fmaf(pu, v[i + 1], pd * v[i]);
    return v[0];
}

static int binom_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                     uint64_t seed, struct wl_report *rep)
{
    unsigned nopt = wl_pick(size, 10, 24, 44);
    unsigned nsteps = wl_pick(size, 96, 256, 512);
    const double rate = 0.06, vol = 0.30, expiry = 1.0;
    float *spot = malloc(nopt * sizeof(float));
    float *strike = malloc(nopt * sizeof(float));
    float *price = malloc(nopt * sizeof(float));
    float *want = malloc(nopt * sizeof(float));
    float *growth = malloc((nsteps + 1) * sizeof(float));
    float *scratch = malloc((nsteps + 1) * sizeof(float));
    ls_dptr dspot = 0, dstrike = 0, dgrowth = 0, dprice = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!spot || !strike || !price || !want || !growth || !scratch) {
        wl_fail(rep, "binom: host allocation failed (%u options)", nopt);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (unsigned o = 0; o < nopt; o++) {
        spot[o] = wl_rng_float(&rng, 5.0f, 50.0f);
        strike[o] = spot[o] * wl_rng_float(&rng, 0.75f, 1.25f);
    }
    double dt = expiry / nsteps, vsdt = vol * sqrt(dt);
    double up = exp(vsdt), down = 1.0 / up, df = exp(-rate * dt);
    double p = (exp(rate * dt) - down) / (up - down);
    float pu = (float)(p * df), pd = (float)((1.0 - p) * df);
    for (unsigned i = 0; i <= nsteps; i++)
        growth[i] = (float)exp(vsdt * (2.0 * i - (double)nsteps));
    if ((st = wl_upload(gpu, rep, "spot", &dspot, spot, nopt * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "strike", &dstrike, strike,
                        nopt * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "growth", &dgrowth, growth,
                        (nsteps + 1) * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "price", &dprice, NULL, nopt * sizeof(float))))
        goto out;
    int ns = (int)nsteps;
    void *args[] = { &dspot, &dstrike, &dgrowth, &dprice, &ns, &pu, &pd };
    ls_dim3 block = { BINOM_THREADS, 1, 1 }, grid = { nopt, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "binom_price", grid, block, 0, args)) ||
        (st = wl_download(gpu, rep, "price", price, dprice,
                          nopt * sizeof(float))))
        goto out;
    for (unsigned o = 0; o < nopt; o++)
        want[o] = binom_cpu(spot[o], strike[o], growth, nsteps, pu, pd, scratch);
    wl_check_f32(rep, "price", price, want, nopt, 0.0, 0.0);
out:
    ls_free(gpu, dspot);
    ls_free(gpu, dstrike);
    ls_free(gpu, dgrowth);
    ls_free(gpu, dprice);
    free(spot);
    free(strike);
    free(price);
    free(want);
    free(growth);
    free(scratch);
    return (int)st;
}

const struct workload wl_def_binom = { "binom", "divergent",
    "binomial option pricing, one CTA per option, shrinking tree levels",
    binom_run };
