/* mcarlo host driver: Monte Carlo prices of nopt European calls
 * (mcarlo.cu). Seeded options: spot S0 in [10, 50), strike within 25% of
 * it, expiry T in [0.25, 2) years, rate r in [0.01, 0.06), volatility
 * sigma in [0.1, 0.5); the host rounds drift = (r - sigma^2/2) T,
 * vol = sigma sqrt(T) and disc = exp(-r T) to float. Each option gets
 * `blocks` CTAs of 128 threads, each thread `pairs` Box-Muller pairs, so
 * n = blocks * 128 * pairs * 2 paths per option; the PCG32 seed comes from
 * the workload seed.
 * Check: documented error bounds, value by value. The CPU replays every
 * thread's PCG32 stream exactly (integer arithmetic), so it has the very
 * same uniforms, and evaluates each path in double. logf (1 ulp),
 * sincospif (1 ulp) and expf (2 ulp) are not correctly rounded (CUDA C
 * Programming Guide, "Mathematical Functions"), so each value must lie
 * within an a-priori bound of the float kernel's error, u = 2^-24:
 *  - z = sqrt(-2 log u1) * cos(2 pi u2): log 2u relative (halved by the
 *    square root), sqrt u, cospi 2u, the product u: |dz| <= 5.1 u |z|;
 *  - x = fma(vol, z, drift): |dx| <= vol |dz| + u |x|; exp(x) then moves by
 *    1.02 |dx| relative, expf adds 4u and the product with S0 u:
 *    |dS| <= S eta, eta = 1.02 (|dx| + 5u);
 *  - p = max(S - K, 0): e_p = S eta + u p; p^2: (2p + e_p) e_p + u (p + e_p)^2;
 *  - the block sums (each thread adds its 2 pairs terms in order, then a
 *    7-level tree): sum of e plus gamma(2 pairs + 7) times the sum of
 *    (term + e), gamma(k) = k u / (1 - k u); mc_finish adds the blocks in
 *    order: gamma(blocks) more;
 *  - mean, price, variance and confidence: each correctly rounded step adds
 *    u (|value| + error) to the propagated error; |sqrt(a) - sqrt(b)| <=
 *    min(sqrt|a - b|, |a - b| / sqrt(b)).
 * Checked: every block's two sums, every price and every confidence
 * half-width (all start as NaN). The reference itself is checked against
 * the closed form (Black-Scholes with the same float drift and vol):
 * within 6 standard errors plus 1e-4 S0. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define MC_NT 128u
#define MC_U 0x1p-24
#define MC_PI 3.14159265358979323846

/* The kernel's PCG32 step (mc_pcg in mcarlo.cu). */
static uint32_t mc_pcg(uint64_t *s, uint64_t inc)
{
    uint64_t old = *s;
    *s = old * 6364136223846793005ull + inc;
    uint32_t x = (uint32_t)(((old >> 18) ^ old) >> 27);
    uint32_t rot = (uint32_t)(old >> 59);
    return (x >> rot) | (x << ((32u - rot) & 31u));
}

/* Error after one correctly rounded float operation whose exact result is
 * y, on operands carrying the propagated error e. */
static double mc_round(double y, double e)
{
    return e + MC_U * (fabs(y) + e);
}

static double mc_gamma(unsigned k)
{
    return k * MC_U / (1.0 - k * MC_U);
}

/* Standard normal distribution function. */
static double mc_phi(double x)
{
    return 0.5 * erfc(-x / sqrt(2.0));
}

struct mc_opt { float s0, k, drift, vol, disc; };

/* One block's exact sums of p and p^2 (out[0], out[1]) and their bounds
 * (err[0], err[1]); id0 is the grid index of its thread 0. */
static void mc_block_cpu(const struct mc_opt *o, uint64_t seed, uint64_t id0,
                         unsigned pairs, double *out, double *err)
{
    double s1 = 0, s2 = 0, e1 = 0, e2 = 0, m1 = 0, m2 = 0;
    for (unsigned t = 0; t < MC_NT; t++) {
        uint64_t id = id0 + t, inc = 2 * id + 1;
        uint64_t st = seed + id * 0x9E3779B97F4A7C15ull;
        mc_pcg(&st, inc);
        for (unsigned i = 0; i < pairs; i++) {
            double u1 = (double)((mc_pcg(&st, inc) >> 8) + 1u) * MC_U;
            double u2 = (double)(mc_pcg(&st, inc) >> 8) * MC_U;
            double r = sqrt(-2.0 * log(u1));
            double z[2] = { r * cos(2.0 * MC_PI * u2), r * sin(2.0 * MC_PI * u2) };
            for (int k = 0; k < 2; k++) {
                double x = (double)o->vol * z[k] + o->drift;
                double dz = 5.1 * MC_U * fabs(z[k]) + 0x1p-60;
                double dx = o->vol * dz + MC_U * fabs(x);
                double eta = 1.02 * (dx + 5 * MC_U);
                double end = o->s0 * exp(x);
                double p = fmax(end - o->k, 0.0);
                double ep = end * eta + MC_U * p;
                double ep2 = (2 * p + ep) * ep + MC_U * (p + ep) * (p + ep);
                s1 += p;
                s2 += p * p;
                e1 += ep;
                e2 += ep2;
                m1 += p + ep;
                m2 += p * p + ep2;
            }
        }
    }
    double g = mc_gamma(2 * pairs + 7);
    out[0] = s1;
    out[1] = s2;
    err[0] = e1 + g * m1;
    err[1] = e2 + g * m2;
}

/* Price and confidence half-width of one option from its blocks' exact
 * sums and bounds; also the reference's own standard error. */
static void mc_finish_cpu(const struct mc_opt *o, const double *bs,
                          const double *be, unsigned blocks, unsigned n,
                          double want[2], double bound[2], double *se)
{
    double s1 = 0, s2 = 0, e1 = 0, e2 = 0, m1 = 0, m2 = 0;
    for (unsigned b = 0; b < blocks; b++) {
        s1 += bs[2 * b];
        s2 += bs[2 * b + 1];
        e1 += be[2 * b];
        e2 += be[2 * b + 1];
        m1 += fabs(bs[2 * b]) + be[2 * b];
        m2 += fabs(bs[2 * b + 1]) + be[2 * b + 1];
    }
    e1 += mc_gamma(blocks) * m1;
    e2 += mc_gamma(blocks) * m2;
    double d = o->disc, mean = s1 / n;
    double em = mc_round(mean, e1 / n);
    want[0] = d * mean;
    bound[0] = 1.01 * mc_round(want[0], d * em);
    double a = s1 * mean;
    double ea = mc_round(a, (fabs(s1) + e1) * (fabs(mean) + em) - fabs(a));
    double b = s2 - a;
    double eb = mc_round(b, e2 + ea);
    double var = b / (n - 1.0);
    double ev = mc_round(var, eb / (n - 1.0));
    double w = var / n;
    double ew = mc_round(w, ev / n);
    double sq = sqrt(w);
    double esq = sqrt(ew);
    if (sq > 0 && ew / sq < esq)
        esq = ew / sq;
    esq = mc_round(sq, esq);
    float ck = 1.96f * o->disc;
    want[1] = ck * sq;
    bound[1] = 1.01 * mc_round(want[1], ck * esq);
    *se = d * sqrt(var / n);
}

static int mc_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                  uint64_t seed, struct wl_report *rep)
{
    unsigned nopt = wl_pick(size, 5, 24, 40);
    unsigned blocks = wl_pick(size, 2, 4, 8);
    unsigned pairs = wl_pick(size, 6, 8, 12);
    unsigned npaths = blocks * MC_NT * pairs * 2;
    size_t nblk = (size_t)nopt * blocks;
    struct mc_opt *opt = malloc(nopt * sizeof *opt);
    float *hin = malloc(5 * (size_t)nopt * sizeof(float));
    float *part = malloc(2 * nblk * sizeof(float));
    float *res = malloc(2 * (size_t)nopt * sizeof(float));
    double *want_part = malloc(2 * nblk * sizeof(double));
    double *bound_part = malloc(2 * nblk * sizeof(double));
    double *want_res = malloc(2 * (size_t)nopt * sizeof(double));
    double *bound_res = malloc(2 * (size_t)nopt * sizeof(double));
    ls_dptr din[5] = { 0, 0, 0, 0, 0 }, dpart = 0, dprice = 0, dconf = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!opt || !hin || !part || !res || !want_part || !bound_part || !want_res ||
        !bound_res) {
        wl_fail(rep, "mcarlo: host allocation failed (%u options)", nopt);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    uint64_t pcg_seed = wl_rng_next(&rng);
    for (unsigned i = 0; i < nopt; i++) {
        double s0 = wl_rng_float(&rng, 10.0f, 50.0f);
        double k = s0 * wl_rng_float(&rng, 0.75f, 1.25f);
        double t = wl_rng_float(&rng, 0.25f, 2.0f);
        double r = wl_rng_float(&rng, 0.01f, 0.06f);
        double sig = wl_rng_float(&rng, 0.1f, 0.5f);
        opt[i].s0 = (float)s0;
        opt[i].k = (float)k;
        opt[i].drift = (float)((r - 0.5 * sig * sig) * t);
        opt[i].vol = (float)(sig * sqrt(t));
        opt[i].disc = (float)exp(-r * t);
        hin[i] = opt[i].s0;
        hin[nopt + i] = opt[i].k;
        hin[2 * nopt + i] = opt[i].drift;
        hin[3 * nopt + i] = opt[i].vol;
        hin[4 * nopt + i] = opt[i].disc;
    }
    static const char *const names[5] = { "s0", "strike", "drift", "vol", "disc" };
    for (unsigned a = 0; a < 5; a++)
        if ((st = wl_upload(gpu, rep, names[a], &din[a], hin + (size_t)a * nopt,
                            nopt * sizeof(float))))
            goto out;
    memset(part, 0xff, 2 * nblk * sizeof(float));   /* NaN until written */
    memset(res, 0xff, 2 * (size_t)nopt * sizeof(float));
    if ((st = wl_upload(gpu, rep, "partial", &dpart, part, 2 * nblk * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "price", &dprice, res, nopt * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "conf", &dconf, res, nopt * sizeof(float))))
        goto out;
    int pairs_i = (int)pairs, nopt_i = (int)nopt, blocks_i = (int)blocks,
        npaths_i = (int)npaths;
    void *a1[] = { &din[0], &din[1], &din[2], &din[3], &dpart, &pcg_seed, &pairs_i };
    ls_dim3 g1 = { blocks, nopt, 1 }, b1 = { MC_NT, 1, 1 };
    void *a2[] = { &dpart, &din[4], &dprice, &dconf, &nopt_i, &blocks_i, &npaths_i };
    ls_dim3 g2 = { (nopt + 31) / 32, 1, 1 }, b2 = { 32, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "mc_paths", g1, b1, 0, a1)) ||
        (st = wl_launch(gpu, mod, rep, "mc_finish", g2, b2, 0, a2)) ||
        (st = wl_download(gpu, rep, "partial", part, dpart, 2 * nblk * sizeof(float))) ||
        (st = wl_download(gpu, rep, "price", res, dprice, nopt * sizeof(float))) ||
        (st = wl_download(gpu, rep, "conf", res + nopt, dconf, nopt * sizeof(float))))
        goto out;
    for (unsigned i = 0; i < nopt; i++) {
        for (unsigned b = 0; b < blocks; b++) {
            size_t at = (size_t)i * blocks + b;
            mc_block_cpu(&opt[i], pcg_seed, at * MC_NT, pairs, want_part + 2 * at,
                         bound_part + 2 * at);
        }
        double w[2], e[2], se;
        mc_finish_cpu(&opt[i], want_part + 2 * (size_t)i * blocks,
                      bound_part + 2 * (size_t)i * blocks, blocks, npaths, w, e, &se);
        want_res[i] = w[0];
        bound_res[i] = e[0];
        want_res[nopt + i] = w[1];
        bound_res[nopt + i] = e[1];
        /* the reference against the closed form: E[max(S0 e^(drift + vol z)
         * - K, 0)] = S0 e^(drift + vol^2/2) N(d2 + vol) - K N(d2) */
        double d2 = (log((double)opt[i].s0 / opt[i].k) + opt[i].drift) / opt[i].vol;
        double bs = opt[i].disc *
                    (opt[i].s0 * exp(opt[i].drift + 0.5 * (double)opt[i].vol * opt[i].vol) *
                         mc_phi(d2 + opt[i].vol) - opt[i].k * mc_phi(d2));
        if (!(fabs(w[0] - bs) <= 6 * se + 1e-4 * opt[i].s0)) {
            wl_fail(rep, "mcarlo reference: option %u priced %.6g, closed form %.6g "
                    "(standard error %.3g)", i, w[0], bs, se);
            goto out;
        }
    }
    if (wl_check_f32_bounds(rep, "partial", part, want_part, bound_part, 2 * nblk) &&
        wl_check_f32_bounds(rep, "price", res, want_res, bound_res, nopt))
        wl_check_f32_bounds(rep, "conf", res + nopt, want_res + nopt, bound_res + nopt,
                            nopt);
out:
    for (unsigned a = 0; a < 5; a++)
        ls_free(gpu, din[a]);
    ls_free(gpu, dpart);
    ls_free(gpu, dprice);
    ls_free(gpu, dconf);
    free(opt);
    free(hin);
    free(part);
    free(res);
    free(want_part);
    free(bound_part);
    free(want_res);
    free(bound_res);
    return (int)st;
}

const struct workload wl_def_mcarlo = { "mcarlo", "regular",
    "Monte Carlo European option prices: per-thread PCG32 paths, Box-Muller, block tree sums",
    mc_run };
