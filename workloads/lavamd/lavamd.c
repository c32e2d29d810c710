/* lavamd host driver: pair interactions of particles in neighbouring boxes
 * (lavamd.cu). Space is bx x by x bz unit boxes (not periodic), each with
 * LAVA_P particles at seeded positions inside the box and seeded charges
 * in [0.1, 1); a2 = 0.5. The host lists, per box, the boxes within one
 * step in each direction (itself included, 8 to 27 of them) in (z, y, x)
 * order. Each particle's potential and force sum every pair with the
 * particles of those boxes (its own self-pair adds q to the potential and
 * nothing to the force).
 * Check: a documented error bound per value. expf is not correctly
 * rounded (CUDA C Programming Guide, "Mathematical Functions": max 2 ulp),
 * so the reference is the same sums in double and each value must lie
 * within an a-priori bound of the float kernel's rounding. Per pair term
 * t = q v (potential) or q (2 v) d (a force component), with u = 2^-24:
 * d = ra - rb is one rounding (u); r2 (a mul and two fma of positive
 * terms, on the rounded d) is within 5u relative; u2 = a2 r2 one more
 * rounding, so the argument of expf is off by at most 6u * u2 absolute,
 * which moves exp by 6u * u2 relative; expf adds 2 ulp (4u); 2v is exact,
 * (2v) d and the charge product add 2u more. So |t - t_exact| <=
 * (6 u2 + 8) u |t|. The kernel sums the n terms of a value one after the
 * other (fma into the running sum), which adds at most n u / (1 - n u)
 * times the sum of |t|. The bound is the sum over the terms of both,
 * times 1.01; a wrong sign, a lost neighbour box or a wrong exponent is
 * off by orders of magnitude more. The output starts as NaN, so a particle
 * the kernel never wrote fails. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define LAVA_P 50u
#define LAVA_NT 64u
#define LAVA_MAXNEI 27u

/* Neighbour list of every box: nnei[b] boxes in nei[b * 27 ...]. */
static void lava_neighbours(unsigned bx, unsigned by, unsigned bz, int *nnei,
                            int *nei)
{
    for (unsigned z = 0; z < bz; z++)
        for (unsigned y = 0; y < by; y++)
            for (unsigned x = 0; x < bx; x++) {
                unsigned b = (z * by + y) * bx + x, n = 0;
                for (int dz = -1; dz <= 1; dz++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++) {
                            int nx = (int)x + dx, ny = (int)y + dy, nz = (int)z + dz;
                            if (nx < 0 || ny < 0 || nz < 0 || nx >= (int)bx ||
                                ny >= (int)by || nz >= (int)bz)
                                continue;
                            nei[b * LAVA_MAXNEI + n++] =
                                (nz * (int)by + ny) * (int)bx + nx;
                        }
                nnei[b] = (int)n;
                while (n < LAVA_MAXNEI)     /* unused slots: defined, not read */
                    nei[b * LAVA_MAXNEI + n++] = -1;
            }
}

/* Double reference of one particle: want[4] (x, y, z, potential) and the
 * bound of each (see the opening comment). */
static void lava_cpu(const float *pos, const float *q, const int *nnei,
                     const int *nei, unsigned box, unsigned i, float a2,
                     double *want, double *bound)
{
    const float *a = pos + 4 * ((size_t)box * LAVA_P + i);
    double sum[4] = { 0, 0, 0, 0 }, mag[4] = { 0, 0, 0, 0 },
           err[4] = { 0, 0, 0, 0 };
    unsigned nterms = 0;
    for (int k = 0; k < nnei[box]; k++) {
        size_t other = (size_t)nei[box * LAVA_MAXNEI + k] * LAVA_P;
        for (unsigned j = 0; j < LAVA_P; j++) {
            const float *b = pos + 4 * (other + j);
            double d[3] = { (double)a[0] - b[0], (double)a[1] - b[1],
                            (double)a[2] - b[2] };
            double u2 = (double)a2 * (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            double v = exp(-u2), qj = q[other + j];
            double t[4] = { qj * 2 * v * d[0], qj * 2 * v * d[1], qj * 2 * v * d[2],
                            qj * v };
            for (int c = 0; c < 4; c++) {
                sum[c] += t[c];
                mag[c] += fabs(t[c]);
                err[c] += (6.0 * u2 + 8.0) * fabs(t[c]);
            }
            nterms++;
        }
    }
    const double u = ldexp(1.0, -24);
    double gamma = nterms * u / (1.0 - nterms * u);
    for (int c = 0; c < 4; c++) {
        want[c] = sum[c];
        bound[c] = 1.01 * (err[c] * u + gamma * mag[c]);
    }
}

static int lava_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                    uint64_t seed, struct wl_report *rep)
{
    unsigned bx = wl_pick(size, 2, 3, 5);
    unsigned by = wl_pick(size, 2, 3, 4);
    unsigned bz = wl_pick(size, 1, 2, 3);
    unsigned nbox = bx * by * bz;
    size_t npar = (size_t)nbox * LAVA_P;
    float a2 = 0.5f;
    float *pos = malloc(npar * 4 * sizeof(float));
    float *q = malloc(npar * sizeof(float));
    float *force = malloc(npar * 4 * sizeof(float));
    double *want = malloc(npar * 4 * sizeof(double));
    double *bound = malloc(npar * 4 * sizeof(double));
    int *nnei = malloc(nbox * sizeof(int));
    int *nei = malloc((size_t)nbox * LAVA_MAXNEI * sizeof(int));
    ls_dptr dpos = 0, dq = 0, dnnei = 0, dnei = 0, dforce = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!pos || !q || !force || !want || !bound || !nnei || !nei) {
        wl_fail(rep, "lavamd: host allocation failed (%zu particles)", npar);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (unsigned z = 0; z < bz; z++)
        for (unsigned y = 0; y < by; y++)
            for (unsigned x = 0; x < bx; x++) {
                size_t first = ((size_t)(z * by + y) * bx + x) * LAVA_P;
                for (unsigned i = 0; i < LAVA_P; i++) {
                    float *p = pos + 4 * (first + i);
                    p[0] = (float)x + wl_rng_float(&rng, 0.0f, 1.0f);
                    p[1] = (float)y + wl_rng_float(&rng, 0.0f, 1.0f);
                    p[2] = (float)z + wl_rng_float(&rng, 0.0f, 1.0f);
                    p[3] = 0.0f;
                    q[first + i] = wl_rng_float(&rng, 0.1f, 1.0f);
                }
            }
    lava_neighbours(bx, by, bz, nnei, nei);
    memset(force, 0xff, npar * 4 * sizeof(float));   /* NaN until written */
    if ((st = wl_upload(gpu, rep, "pos", &dpos, pos, npar * 4 * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "charge", &dq, q, npar * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "nnei", &dnnei, nnei, nbox * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "nei", &dnei, nei,
                        (size_t)nbox * LAVA_MAXNEI * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "force", &dforce, force,
                        npar * 4 * sizeof(float))))
        goto out;
    void *args[] = { &dpos, &dq, &dnnei, &dnei, &dforce, &a2 };
    ls_dim3 grid = { nbox, 1, 1 }, block = { LAVA_NT, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "lava_forces", grid, block, 0, args)) ||
        (st = wl_download(gpu, rep, "force", force, dforce,
                          npar * 4 * sizeof(float))))
        goto out;
    for (unsigned b = 0; b < nbox; b++)
        for (unsigned i = 0; i < LAVA_P; i++) {
            size_t at = 4 * ((size_t)b * LAVA_P + i);
            lava_cpu(pos, q, nnei, nei, b, i, a2, want + at, bound + at);
        }
    wl_check_f32_bounds(rep, "force", force, want, bound, npar * 4);
out:
    ls_free(gpu, dpos);
    ls_free(gpu, dq);
    ls_free(gpu, dnnei);
    ls_free(gpu, dnei);
    ls_free(gpu, dforce);
    free(pos);
    free(q);
    free(force);
    free(want);
    free(bound);
    free(nnei);
    free(nei);
    return (int)st;
}

const struct workload wl_def_lavamd = { "lavamd", "regular",
    "particle pair forces within neighbouring boxes, shared-memory tiles, exp per pair",
    lava_run };
