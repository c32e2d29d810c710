/* lbm host driver: D3Q19 lattice-Boltzmann steps (lbm.cu) on an
 * nx x ny x nz channel, x periodic, nx not a multiple of the 32-wide CTA.
 * Flags: the y = 0, ny - 1 and z = 0, nz - 1 layers are walls (obstacle);
 * every other cell is a seeded solid obstacle with probability 1/10;
 * the remaining cells of the x = 0 plane are inflow cells (velocity
 * forced to (u0, 0, 0), u0 = 0.05); the rest are fluid. The initial state
 * of a non-obstacle cell is the equilibrium (worked out in double,
 * rounded to float) of a seeded density in [0.95, 1.05) and velocity in
 * [-0.03, 0.03)^3; obstacle cells hold zeros. omega = 1.6. Both device
 * buffers start with that state; each step is one launch (ping-pong).
 * Check: bit exact. The kernel's arithmetic is explicit: adds and subtracts
 * in source order, div.rn for the velocity, and fmaf for every multiply
 * that feeds an add (usq, the equilibrium polynomial, feq - f and the
 * relaxation), so its PTX has add/sub/neg/mul/fma.rn/div.rn and nothing
 * left for contraction. The CPU reference performs the same correctly
 * rounded operations in the same order, so every population of every cell
 * after the last step must be identical; the populations must also have
 * moved by more than 1e-3 somewhere (a step that only copied would
 * otherwise pass). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define LBM_Q 19
#define LBM_FLUID 0
#define LBM_OBST 1
#define LBM_INFLOW 2

static const int lbm_cx[LBM_Q] = { 0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0 };
static const int lbm_cy[LBM_Q] = { 0, 0, 0, 1, -1, 0, 0, 1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1 };
static const int lbm_cz[LBM_Q] = { 0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1 };
static const int lbm_opp[LBM_Q] = { 0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15 };
static const float lbm_w[LBM_Q] = { 1.0f / 3.0f,
    1.0f / 18.0f, 1.0f / 18.0f, 1.0f / 18.0f, 1.0f / 18.0f, 1.0f / 18.0f, 1.0f / 18.0f,
    1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f,
    1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f };

/* One CPU step, the same operations in the same order as lbm_step. */
static void lbm_cpu(const float *src, float *dst, const unsigned char *flag,
                    int nx, int ny, int nz, float omega, float u0)
{
    int n = nx * ny * nz;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                int i = (z * ny + y) * nx + x, fl = flag[i];
                if (fl == LBM_OBST)
                    continue;
                int xm = x == 0 ? nx - 1 : x - 1, xp = x == nx - 1 ? 0 : x + 1;
                float f[LBM_Q];
                for (int q = 0; q < LBM_Q; q++) {
                    int sx = lbm_cx[q] > 0 ? xm : lbm_cx[q] < 0 ? xp : x;
                    int s = ((z - lbm_cz[q]) * ny + (y - lbm_cy[q])) * nx + sx;
                    f[q] = flag[s] == LBM_OBST ? src[lbm_opp[q] * n + i] : src[q * n + s];
                }
                float rho = f[0];
                for (int q = 1; q < LBM_Q; q++)
                    rho += f[q];
                float ux, uy, uz;
                if (fl == LBM_INFLOW) {
                    ux = u0;
                    uy = 0.0f;
                    uz = 0.0f;
                } else {
                    float mx = f[1] - f[2] + f[7] - f[8] + f[9] - f[10] + f[11] - f[12] + f[13] - f[14];
                    float my = f[3] - f[4] + f[7] + f[8] - f[9] - f[10] + f[15] - f[16] + f[17] - f[18];
                    float mz = f[5] - f[6] + f[11] + f[12] - f[13] - f[14] + f[15] + f[16] - f[17] - f[18];
                    ux = mx / rho;
                    uy = my / rho;
                    uz = mz / rho;
                }
                float usq = fmaf(uz, uz, fmaf(uy, uy, ux * ux));
                float base = fmaf(-1.5f, usq, 1.0f);
                const float cu[LBM_Q] = { 0.0f, ux, -ux, uy, -uy, uz, -uz,
                                          ux + uy, uy - ux, ux - uy, -ux - uy,
                                          ux + uz, uz - ux, ux - uz, -ux - uz,
                                          uy + uz, uz - uy, uy - uz, -uy - uz };
                for (int q = 0; q < LBM_Q; q++) {
                    float poly = fmaf(4.5f * cu[q], cu[q], fmaf(3.0f, cu[q], base));
                    float d = fmaf(lbm_w[q] * rho, poly, -f[q]);
                    dst[q * n + i] = fmaf(omega, d, f[q]);
                }
            }
}

static int lbm_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                   uint64_t seed, struct wl_report *rep)
{
    int nx = (int)wl_pick(size, 30, 60, 92);
    int ny = (int)wl_pick(size, 10, 20, 28);
    int nz = (int)wl_pick(size, 6, 10, 16);
    unsigned steps = wl_pick(size, 3, 4, 5);
    const float omega = 1.6f, u0 = 0.05f;
    size_t n = (size_t)nx * ny * nz, bytes = n * LBM_Q * sizeof(float);
    unsigned char *flag = malloc(n);
    float *f0 = malloc(bytes), *ca = malloc(bytes), *cb = malloc(bytes),
          *out = malloc(bytes);
    ls_dptr df[2] = { 0, 0 }, dflag = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!flag || !f0 || !ca || !cb || !out) {
        wl_fail(rep, "lbm: host allocation of 4 x %zu bytes failed", bytes);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    memset(f0, 0, bytes);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                size_t i = ((size_t)z * ny + y) * nx + x;
                int wall = y == 0 || y == ny - 1 || z == 0 || z == nz - 1;
                int solid = wl_rng_below(&rng, 10) == 0;
                flag[i] = wall || solid ? LBM_OBST : x == 0 ? LBM_INFLOW : LBM_FLUID;
                if (flag[i] == LBM_OBST)
                    continue;
                double rho = wl_rng_float(&rng, 0.95f, 1.05f);
                double u[3];
                for (int k = 0; k < 3; k++)
                    u[k] = wl_rng_float(&rng, -0.03f, 0.03f);
                double usq = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
                for (int q = 0; q < LBM_Q; q++) {
                    double cu = lbm_cx[q] * u[0] + lbm_cy[q] * u[1] + lbm_cz[q] * u[2];
                    f0[q * n + i] = (float)((double)lbm_w[q] * rho *
                                            (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * usq));
                }
            }
    if ((st = wl_upload(gpu, rep, "flag", &dflag, flag, n)) ||
        (st = wl_upload(gpu, rep, "f0", &df[0], f0, bytes)) ||
        (st = wl_upload(gpu, rep, "f1", &df[1], f0, bytes)))
        goto out;
    ls_dim3 block = { 32, 4, 1 },
            grid = { (unsigned)(nx + 31) / 32, (unsigned)(ny + 3) / 4, (unsigned)nz };
    float om = omega, uin = u0;
    for (unsigned it = 0; it < steps; it++) {
        void *args[] = { &df[it & 1], &df[(it + 1) & 1], &dflag, &nx, &ny, &nz, &om, &uin };
        if ((st = wl_launch(gpu, mod, rep, "lbm_step", grid, block, 0, args)))
            goto out;
    }
    if ((st = wl_download(gpu, rep, "f", out, df[steps & 1], bytes)))
        goto out;
    memcpy(ca, f0, bytes);
    memcpy(cb, f0, bytes);
    const float *srcp = f0;
    for (unsigned it = 0; it < steps; it++) {
        float *dstp = (it & 1) ? cb : ca;
        lbm_cpu(srcp, dstp, flag, nx, ny, nz, omega, u0);
        srcp = dstp;
    }
    wl_check_f32_moved(rep, "f", out, srcp, f0, n * LBM_Q, 1e-3);
out:
    ls_free(gpu, df[0]);
    ls_free(gpu, df[1]);
    ls_free(gpu, dflag);
    free(flag);
    free(f0);
    free(ca);
    free(cb);
    free(out);
    return (int)st;
}

const struct workload wl_def_lbm = { "lbm", "stencil",
    "D3Q19 lattice-Boltzmann stream-collide, obstacle bounce-back, inflow plane, ping-pong",
    lbm_run };
