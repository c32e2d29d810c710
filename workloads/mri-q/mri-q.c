/* mri-q host driver: the Q matrix of non-Cartesian MRI reconstruction
 * (mri-q.cu). Seeded voxel coordinates x, y, z in [-0.5, 0.5), k-space
 * sample coordinates kx, ky, kz in [-8, 8) and phi = (re, im) in [-1, 1)^2.
 * mriq_phimag computes |phi|^2 = fmaf(re, re, im * im) per sample; the
 * host then copies the samples (kx, ky, kz, |phi|^2) into the constant
 * array c_k in chunks of MRIQ_CHUNK (the last one partial) and launches
 * mriq_q once per chunk, each launch adding its chunk to the voxels'
 * running sums Qr, Qi (which start at zero).
 * Check, |phi|^2: bit exact (the reference performs the same fmaf and
 * product).
 * Check, Qr and Qi: a documented error bound per voxel. sincosf is not
 * correctly rounded (CUDA C Programming Guide, "Mathematical Functions":
 * sinf and cosf 2 ulp over the whole range), so the reference sums in
 * double and each value must lie within an a-priori bound of the float
 * kernel's error, u = 2^-24: the dot product k . x (a mul and two fma)
 * is off by at most 3.03 u S, S = |kx x| + |ky y| + |kz z|; the argument
 * arg = 6.2831855f * dot (the float constant of the kernel, used by the
 * reference too) adds u |arg|; sin and cos move by at most that much,
 * and add 2 ulp, at most 2^-23 for values in [-1, 1]. Each term
 * |phi|^2 sin/cos is fused into the running sum (fma), and the sum of the
 * numk terms in order adds at most gamma(numk) = numk u / (1 - numk u)
 * times the sum of their magnitudes. The bound is the sum of both, times
 * 1.01; a swapped sin/cos, a wrong sign, a lost chunk or a wrong scale of
 * the argument is off by far more. Qr and Qi start at zero on the device
 * and a lost chunk moves them by O(1), so a skipped launch fails too. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define MRIQ_CHUNK 128u
#define MRIQ_THREADS 64u
#define MRIQ_U 0x1p-24

/* Qr, Qi of one voxel in double and their bounds (see the opening comment). */
static void mriq_cpu(float x, float y, float z, const float *kx,
                     const float *ky, const float *kz, const float *phimag,
                     unsigned numk, double *want, double *bound)
{
    const double twopi = 6.2831853071795864769f;   /* the kernel's float */
    double qr = 0, qi = 0, er = 0, ei = 0, mr = 0, mi = 0;
    for (unsigned k = 0; k < numk; k++) {
        double dot = (double)kx[k] * x + (double)ky[k] * y + (double)kz[k] * z;
        double s_abs = fabs((double)kx[k] * x) + fabs((double)ky[k] * y) +
                       fabs((double)kz[k] * z);
        double arg = twopi * dot;
        double darg = twopi * 3.03 * MRIQ_U * s_abs + MRIQ_U * fabs(arg);
        double p = phimag[k], c = cos(arg), s = sin(arg);
        double e = fabs(p) * (darg + 0x1p-23);
        qr += p * c;
        qi += p * s;
        er += e;
        ei += e;
        mr += fabs(p * c) + e;
        mi += fabs(p * s) + e;
    }
    double g = numk * MRIQ_U / (1.0 - numk * MRIQ_U);
    want[0] = qr;
    want[1] = qi;
    bound[0] = 1.01 * (er + g * mr);
    bound[1] = 1.01 * (ei + g * mi);
}

static int mriq_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                    uint64_t seed, struct wl_report *rep)
{
    unsigned numx = wl_pick(size, 136, 900, 3000);
    unsigned numk = wl_pick(size, 200, 320, 480);
    size_t xb = numx * sizeof(float), kb = numk * sizeof(float);
    float *vx = malloc(3 * xb), *ks = malloc(5 * kb), *phimag = malloc(kb),
          *q = malloc(2 * xb);
    float (*chunk)[4] = malloc(MRIQ_CHUNK * sizeof *chunk);
    double *want = malloc(2 * numx * sizeof(double)),
           *bound = malloc(2 * numx * sizeof(double));
    ls_dptr dv[3] = { 0, 0, 0 }, dre = 0, dim = 0, dphi = 0, dqr = 0, dqi = 0,
            dck = 0;
    size_t ck_bytes = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!vx || !ks || !phimag || !q || !chunk || !want || !bound) {
        wl_fail(rep, "mri-q: host allocation failed (%u voxels, %u samples)", numx,
                numk);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (unsigned i = 0; i < 3 * numx; i++)
        vx[i] = wl_rng_float(&rng, -0.5f, 0.5f);
    for (unsigned i = 0; i < 3 * numk; i++)
        ks[i] = wl_rng_float(&rng, -8.0f, 8.0f);
    for (unsigned i = 3 * numk; i < 5 * numk; i++)
        ks[i] = wl_rng_float(&rng, -1.0f, 1.0f);
    const float *kx = ks, *ky = ks + numk, *kz = ks + 2 * numk,
                *re = ks + 3 * numk, *im = ks + 4 * numk;
    st = ls_module_symbol(gpu, mod, "c_k", &dck, &ck_bytes);
    if (st != LS_OK) {
        wl_fail(rep, "symbol c_k: %s: %s", ls_status_name(st), ls_gpu_error(gpu));
        goto out;
    }
    if (ck_bytes != MRIQ_CHUNK * sizeof *chunk) {
        st = LS_ERR_INVALID;
        wl_fail(rep, "symbol c_k has %zu bytes, want %zu", ck_bytes,
                MRIQ_CHUNK * sizeof *chunk);
        goto out;
    }
    if ((st = wl_upload(gpu, rep, "x", &dv[0], vx, xb)) ||
        (st = wl_upload(gpu, rep, "y", &dv[1], vx + numx, xb)) ||
        (st = wl_upload(gpu, rep, "z", &dv[2], vx + 2 * numx, xb)) ||
        (st = wl_upload(gpu, rep, "phi_re", &dre, re, kb)) ||
        (st = wl_upload(gpu, rep, "phi_im", &dim, im, kb)) ||
        (st = wl_upload(gpu, rep, "phimag", &dphi, NULL, kb)) ||
        (st = wl_upload(gpu, rep, "qr", &dqr, NULL, xb)) ||
        (st = wl_upload(gpu, rep, "qi", &dqi, NULL, xb)))
        goto out;
    int numk_i = (int)numk, numx_i = (int)numx;
    void *a1[] = { &dre, &dim, &dphi, &numk_i };
    ls_dim3 g1 = { (numk + MRIQ_THREADS - 1) / MRIQ_THREADS, 1, 1 },
            blk = { MRIQ_THREADS, 1, 1 },
            g2 = { (numx + MRIQ_THREADS - 1) / MRIQ_THREADS, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "mriq_phimag", g1, blk, 0, a1)) ||
        (st = wl_download(gpu, rep, "phimag", phimag, dphi, kb)))
        goto out;
    for (unsigned k0 = 0; k0 < numk; k0 += MRIQ_CHUNK) {
        unsigned n = numk - k0 < MRIQ_CHUNK ? numk - k0 : MRIQ_CHUNK;
        for (unsigned k = 0; k < n; k++) {
            chunk[k][0] = kx[k0 + k];
            chunk[k][1] = ky[k0 + k];
            chunk[k][2] = kz[k0 + k];
            chunk[k][3] = phimag[k0 + k];
        }
        if ((st = ls_memcpy_htod(gpu, dck, chunk, n * sizeof *chunk)) != LS_OK) {
            wl_fail(rep, "writing c_k: %s: %s", ls_status_name(st), ls_gpu_error(gpu));
            goto out;
        }
        int n_i = (int)n;
        void *a2[] = { &dv[0], &dv[1], &dv[2], &dqr, &dqi, &numx_i, &n_i };
        if ((st = wl_launch(gpu, mod, rep, "mriq_q", g2, blk, 0, a2)))
            goto out;
    }
    if ((st = wl_download(gpu, rep, "qr", q, dqr, xb)) ||
        (st = wl_download(gpu, rep, "qi", q + numx, dqi, xb)))
        goto out;
    /* |phi|^2 exactly; the device values (equal to these) fed the sums */
    float *pm_want = chunk[0];   /* reuse: checked MRIQ_CHUNK at a time */
    for (unsigned k0 = 0; k0 < numk; k0 += MRIQ_CHUNK) {
        unsigned n = numk - k0 < MRIQ_CHUNK ? numk - k0 : MRIQ_CHUNK;
        for (unsigned k = 0; k < n; k++)
            pm_want[k] = fmaf(re[k0 + k], re[k0 + k], im[k0 + k] * im[k0 + k]);
        if (!wl_check_f32(rep, "phimag", phimag + k0, pm_want, n, 0.0, 0.0))
            goto out;
    }
    for (unsigned v = 0; v < numx; v++) {
        double w[2], b[2];
        mriq_cpu(vx[v], vx[numx + v], vx[2 * numx + v], kx, ky, kz, phimag, numk,
                 w, b);
        want[v] = w[0];
        bound[v] = b[0];
        want[numx + v] = w[1];
        bound[numx + v] = b[1];
    }
    if (wl_check_f32_bounds(rep, "qr", q, want, bound, numx))
        wl_check_f32_bounds(rep, "qi", q + numx, want + numx, bound + numx, numx);
out:
    for (unsigned i = 0; i < 3; i++)
        ls_free(gpu, dv[i]);
    ls_free(gpu, dre);
    ls_free(gpu, dim);
    ls_free(gpu, dphi);
    ls_free(gpu, dqr);
    ls_free(gpu, dqi);
    free(vx);
    free(ks);
    free(phimag);
    free(q);
    free(chunk);
    free(want);
    free(bound);
    return (int)st;
}

const struct workload wl_def_mri_q = { "mri-q", "regular",
    "MRI Q matrix: per-voxel sums of sin/cos over k-space, samples in constant-memory chunks",
    mriq_run };
