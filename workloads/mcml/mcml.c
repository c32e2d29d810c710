/* mcml host driver: Monte Carlo photon migration in a seeded three-layer
 * slab (refractive index 1.37 inside, 1 outside; per layer mu_a in
 * [0.5, 1.5) /mm, mu_s in [6, 14) /mm, g in [0.7, 0.9), thickness in
 * [0.2, 0.8) mm). nt threads (64-thread CTAs) each trace ppt photons
 * (mcml.cu gives the exact hop-drop-spin step, Fresnel reflection at the
 * surfaces and roulette below weight 1e-4); every launch of mcml_walk runs
 * at most nsteps steps per thread and keeps the photon state in global
 * memory, and the host launches again until no thread has work left (at
 * most 10,000 launches). Tallies: absorption in 40 depth x 32 radial bins
 * of 0.05 mm, diffuse reflectance and transmittance in 32 radial bins,
 * all fixed point (weight * 2^32) summed with 64-bit integer atomics.
 * Thread seeds are seeded nonzero xorshift32 states.
 * Check: exact. The kernel uses __f*_rn arithmetic only, lg2.approx for
 * the logarithm and sin.approx/cos.approx for the azimuth; the CPU
 * reference replays every thread's photons with the same correctly
 * rounded operations and with the approximations as this model defines
 * them (the exact value computed in double with the C library and rounded
 * once to float: docs/exec-semantics.md, "SFU approximations"). Integer
 * tallies do not depend on the order of the atomics, so every absorption,
 * reflectance and transmittance bin (wl_check_u32 on the 64-bit words),
 * every thread's step count and the number of launches must match. The
 * reference itself must conserve energy: absorbed + reflected +
 * transmitted + specular weight within 1 % of the photons launched. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define MC_WTH 1e-4f
#define MC_CHANCE 0.1f
#define MC_LN2 0.693147182f
#define MC_2PI 6.28318548f
#define MC_NL 3
#define MC_NZ 40
#define MC_NR 32
#define MC_MAX_LAUNCHES 10000

struct mc_layer {
    float mua, mus, g, z0, z1, mut, ratio, pad;
};

struct mc_tallies {
    uint64_t a[MC_NZ * MC_NR], rd[MC_NR], tt[MC_NR];
};

static float mc_rnd(uint32_t *r)
{
    *r ^= *r << 13;
    *r ^= *r >> 17;
    *r ^= *r << 5;
    return (float)((*r >> 8) + 1u) * 5.96046448e-8f;
}

/* The SFU approximations as the model computes them (exec_sfu.c). */
static float mc_lg2(float x) { return (float)log2((double)x); }
static float mc_sin(float x) { return (float)sin((double)x); }
static float mc_cos(float x) { return (float)cos((double)x); }

static float mc_fresnel(float n, float r0, float ca1)
{
    if (ca1 > 0.999999f)
        return r0;
    float sa1 = sqrtf(1.0f - ca1 * ca1);
    float sa2 = n * sa1;
    if (sa2 >= 1.0f)
        return 1.0f;
    float ca2 = sqrtf(1.0f - sa2 * sa2);
    float nc1 = n * ca1, nc2 = n * ca2;
    float rs = (nc1 - ca2) / (nc1 + ca2);
    float rp = (nc2 - ca1) / (nc2 + ca1);
    return 0.5f * (rs * rs + rp * rp);
}

static int mc_min(int a, int b) { return a < b ? a : b; }

static void mc_tally(uint64_t *bin, float w)
{
    *bin += (uint64_t)(w * 4294967296.0f);
}

/* Every photon of one thread, as the kernel moves them; returns the
 * thread's step count. */
static int mc_thread(const struct mc_layer *lay, float n, float r0, float dz,
                     float dr, uint32_t r, int ppt, struct mc_tallies *tl)
{
    int nstep = 0;
    for (int p = 0; p < ppt; p++) {
        float x = 0.0f, y = 0.0f, z = 0.0f, ux = 0.0f, uy = 0.0f, uz = 1.0f;
        float w = 1.0f - r0, sleft = 0.0f;
        int l = 0;
        while (w != 0.0f) {
            nstep++;
            const struct mc_layer *L = lay + l;
            float s;
            if (sleft == 0.0f) {
                s = -(mc_lg2(mc_rnd(&r)) * MC_LN2) / L->mut;
            } else {
                s = sleft / L->mut;
                sleft = 0.0f;
            }
            float db = 3.0e38f;
            if (uz > 0.0f)
                db = (L->z1 - z) / uz;
            else if (uz < 0.0f)
                db = (L->z0 - z) / uz;
            if (s > db) {
                sleft = (s - db) * L->mut;
                x = x + db * ux;
                y = y + db * uy;
                z = uz > 0.0f ? L->z1 : L->z0;
                int nlay = uz > 0.0f ? l + 1 : l - 1;
                if (nlay >= 0 && nlay < MC_NL) {
                    l = nlay;
                } else if (mc_rnd(&r) <= mc_fresnel(n, r0, fabsf(uz))) {
                    uz = -uz;
                } else {
                    float rad = sqrtf(x * x + y * y);
                    int ir = mc_min((int)(rad / dr), MC_NR - 1);
                    mc_tally((uz < 0.0f ? tl->rd : tl->tt) + ir, w);
                    w = 0.0f;
                    sleft = 0.0f;
                }
            } else {
                x = x + s * ux;
                y = y + s * uy;
                z = z + s * uz;
                float dw = w * L->ratio;
                w = w - dw;
                float rad = sqrtf(x * x + y * y);
                int ir = mc_min((int)(rad / dr), MC_NR - 1);
                int iz = mc_min((int)(z / dz), MC_NZ - 1);
                if (iz < 0)
                    iz = 0;
                mc_tally(tl->a + iz * MC_NR + ir, dw);
                float g = L->g, cost;
                float xi = mc_rnd(&r);
                if (g == 0.0f) {
                    cost = 2.0f * xi - 1.0f;
                } else {
                    float g2 = g * g;
                    float tmp = (1.0f - g2) / ((1.0f - g) + (2.0f * g) * xi);
                    cost = ((1.0f + g2) - tmp * tmp) / (2.0f * g);
                    cost = fminf(fmaxf(cost, -1.0f), 1.0f);
                }
                float sint = sqrtf(1.0f - cost * cost);
                float psi = MC_2PI * mc_rnd(&r);
                float cosp = mc_cos(psi), sinp = mc_sin(psi);
                if (fabsf(uz) > 0.99999f) {
                    ux = sint * cosp;
                    uy = sint * sinp;
                    uz = uz >= 0.0f ? cost : -cost;
                } else {
                    float tmp = sqrtf(1.0f - uz * uz);
                    float a = (ux * uz) * cosp - uy * sinp;
                    float b = (uy * uz) * cosp + ux * sinp;
                    float nux = (sint * a) / tmp + ux * cost;
                    float nuy = (sint * b) / tmp + uy * cost;
                    uz = -((sint * cosp) * tmp) + uz * cost;
                    ux = nux;
                    uy = nuy;
                }
            }
            if (w > 0.0f && w < MC_WTH) {
                if (mc_rnd(&r) <= MC_CHANCE)
                    w = w / MC_CHANCE;
                else
                    w = 0.0f;
            }
        }
    }
    return nstep;
}

static int mcml_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                    uint64_t seed, struct wl_report *rep)
{
    int nt = (int)wl_pick(size, 128, 640, 1920);
    int ppt = (int)wl_pick(size, 1, 2, 3);
    int nsteps = (int)wl_pick(size, 48, 64, 64);
    float n = 1.37f, dz = 0.05f, dr = 0.05f;
    float r0 = ((n - 1.0f) / (n + 1.0f)) * ((n - 1.0f) / (n + 1.0f));
    int nl = MC_NL, nz = MC_NZ, nr = MC_NR;
    struct mc_layer lay[MC_NL];
    float *sf = calloc((size_t)nt * 8, sizeof(float));
    int *si = calloc((size_t)nt * 3, sizeof(int));
    int *gsteps = malloc((size_t)nt * sizeof(int)), *wsteps = malloc((size_t)nt * sizeof(int));
    struct mc_tallies *got = calloc(1, sizeof(*got)), *want = calloc(1, sizeof(*want));
    ls_dptr dlay = 0, dsf = 0, dsi = 0, da = 0, drd = 0, dtt = 0, dst = 0, dact = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!sf || !si || !gsteps || !wsteps || !got || !want) {
        wl_fail(rep, "mcml: host allocation failed (%d threads)", nt);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    float z = 0.0f;
    for (int l = 0; l < MC_NL; l++) {
        lay[l].mua = wl_rng_float(&rng, 0.5f, 1.5f);
        lay[l].mus = wl_rng_float(&rng, 6.0f, 14.0f);
        lay[l].g = wl_rng_float(&rng, 0.7f, 0.9f);
        lay[l].z0 = z;
        z = z + wl_rng_float(&rng, 0.2f, 0.8f);
        lay[l].z1 = z;
        lay[l].mut = lay[l].mua + lay[l].mus;
        lay[l].ratio = lay[l].mua / lay[l].mut;
        lay[l].pad = 0.0f;
    }
    for (int t = 0; t < nt; t++) {
        uint32_t s;
        do
            s = (uint32_t)wl_rng_next(&rng);
        while (s == 0);
        si[nt + t] = (int)s;
        si[2 * nt + t] = ppt;
    }
    if ((st = wl_upload(gpu, rep, "layers", &dlay, lay, sizeof(lay))) ||
        (st = wl_upload(gpu, rep, "state_f", &dsf, sf, (size_t)nt * 8 * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "state_i", &dsi, si, (size_t)nt * 3 * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "absorption", &da, NULL, sizeof(got->a))) ||
        (st = wl_upload(gpu, rep, "reflectance", &drd, NULL, sizeof(got->rd))) ||
        (st = wl_upload(gpu, rep, "transmittance", &dtt, NULL, sizeof(got->tt))) ||
        (st = wl_upload(gpu, rep, "steps", &dst, NULL, (size_t)nt * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "active", &dact, NULL, sizeof(int))))
        goto out;
    void *args[] = { &dlay, &nl, &n, &r0, &dz, &dr, &nz, &nr, &dsf, &dsi, &nt,
                     &nsteps, &da, &drd, &dtt, &dst, &dact };
    ls_dim3 grid = { (unsigned)(nt + 63) / 64, 1, 1 }, block = { 64, 1, 1 };
    int active = 1;
    unsigned launches = 0;
    while (active > 0) {
        if (launches == MC_MAX_LAUNCHES) {
            wl_fail(rep, "mcml: %d threads still active after %u launches",
                    active, launches);
            goto out;
        }
        if ((st = ls_memset(gpu, dact, 0, sizeof(int)))) {
            wl_fail(rep, "mcml: memset: %s", ls_status_name(st));
            goto out;
        }
        if ((st = wl_launch(gpu, mod, rep, "mcml_walk", grid, block, 0, args)) ||
            (st = wl_download(gpu, rep, "active", &active, dact, sizeof(int))))
            goto out;
        launches++;
    }
    if ((st = wl_download(gpu, rep, "absorption", got->a, da, sizeof(got->a))) ||
        (st = wl_download(gpu, rep, "reflectance", got->rd, drd, sizeof(got->rd))) ||
        (st = wl_download(gpu, rep, "transmittance", got->tt, dtt, sizeof(got->tt))) ||
        (st = wl_download(gpu, rep, "steps", gsteps, dst, (size_t)nt * sizeof(int))))
        goto out;
    int maxsteps = 0;
    for (int t = 0; t < nt; t++) {
        wsteps[t] = mc_thread(lay, n, r0, dz, dr, (uint32_t)si[nt + t], ppt, want);
        if (wsteps[t] > maxsteps)
            maxsteps = wsteps[t];
    }
    double sum = 0, photons = (double)nt * ppt;
    for (size_t i = 0; i < MC_NZ * MC_NR; i++)
        sum += (double)want->a[i];
    for (int i = 0; i < MC_NR; i++)
        sum += (double)want->rd[i] + (double)want->tt[i];
    sum = sum / 4294967296.0 + photons * r0;
    if (fabs(sum - photons) > 0.01 * photons) {
        wl_fail(rep, "mcml: the CPU reference accounts for %.3f of %.0f photons "
                "(reference bug)", sum, photons);
        goto out;
    }
    unsigned want_launches = maxsteps == 0 ? 1 : (unsigned)((maxsteps + nsteps - 1) / nsteps);
    if (wl_check_u32(rep, "absorption", (const uint32_t *)got->a,
                     (const uint32_t *)want->a, 2 * (size_t)MC_NZ * MC_NR) &&
        wl_check_u32(rep, "reflectance", (const uint32_t *)got->rd,
                     (const uint32_t *)want->rd, 2 * (size_t)MC_NR) &&
        wl_check_u32(rep, "transmittance", (const uint32_t *)got->tt,
                     (const uint32_t *)want->tt, 2 * (size_t)MC_NR) &&
        wl_check_i32(rep, "steps", gsteps, wsteps, (size_t)nt) &&
        launches != want_launches)
        wl_fail(rep, "mcml: %u launches, want %u (longest thread: %d steps)",
                launches, want_launches, maxsteps);
out:
    ls_free(gpu, dlay);
    ls_free(gpu, dsf);
    ls_free(gpu, dsi);
    ls_free(gpu, da);
    ls_free(gpu, drd);
    ls_free(gpu, dtt);
    ls_free(gpu, dst);
    ls_free(gpu, dact);
    free(sf);
    free(si);
    free(gsteps);
    free(wsteps);
    free(got);
    free(want);
    return (int)st;
}

const struct workload wl_def_mcml = { "mcml", "divergent",
    "MCML photon migration in a layered slab: per-thread walks, roulette, 64-bit atomic tallies",
    mcml_run };
