/* pflt host driver: a particle filter tracking a disk through nf seeded
 * frames of fw x fh 8-bit pixels (pflt.cu gives the five kernels per
 * frame). The frames show a disk of radius 5 (value 228) on a background
 * of 100, both with seeded noise uniform in [-12, 12]; the disk moves by
 * (1, -2) per frame from (fw / 4, 3 fh / 4) (a quarter in, a quarter up).
 * The likelihood samples the npts offsets of a radius-3 disk. n particles
 * start at the first frame's centre with weight 1 / n and their own
 * nonzero xorshift32 states; frames 1 .. nf - 1 run likelihood, block scan
 * (512-particle blocks), scan of the block sums (one 256-thread CTA),
 * normalisation and resampling with an offset u0 drawn per frame in
 * [0, 1).
 * Check: exact. The kernels use __f*_rn arithmetic, lg2.approx,
 * cos.approx, sin.approx and ex2.approx (after a mul.f32 by log2(e));
 * the CPU reference replays every particle with the same correctly
 * rounded operations, the approximations as this model defines them
 * (the exact value in double from the C library, rounded once to float:
 * docs/exec-semantics.md), the same Hillis-Steele scan trees and the same
 * search. So every frame's resampled indices must match (idx, downloaded
 * after each frame, wl_check_i32), and the final CDF and particle
 * positions must be identical (wl_check_f32 with no tolerance). The
 * reference must also track: the final particles' mean lies within 4
 * pixels of the disk's last centre. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define PF_B 512
#define PF_S 256
#define PF_LN2 0.693147182f
#define PF_2PI 6.28318548f
#define PF_LOG2E 1.44269502f

static float pf_rnd(uint32_t *r)
{
    *r ^= *r << 13;
    *r ^= *r >> 17;
    *r ^= *r << 5;
    return (float)((*r >> 8) + 1u) * 5.96046448e-8f;
}

/* The SFU approximations as the model computes them (exec_sfu.c). */
static float pf_lg2(float x) { return (float)log2((double)x); }
static float pf_ex2(float x) { return (float)exp2((double)x); }
static float pf_sin(float x) { return (float)sin((double)x); }
static float pf_cos(float x) { return (float)cos((double)x); }

static int pf_clamp(int v, int hi)
{
    return v < 0 ? 0 : v >= hi ? hi - 1 : v;
}

/* pf_likelihood for particle i. */
static void pf_cpu_like(float *px, float *py, float *w, uint32_t *rng, int i,
                        const uint8_t *frame, int fw, int fh, const int *off,
                        int npts)
{
    uint32_t r = rng[i];
    float u1 = pf_rnd(&r), u2 = pf_rnd(&r);
    float rad = sqrtf(-2.0f * (pf_lg2(u1) * PF_LN2));
    float ang = PF_2PI * u2;
    float x = (px[i] + 1.0f) + 5.0f * (rad * pf_cos(ang));
    float y = (py[i] - 2.0f) + 2.0f * (rad * pf_sin(ang));
    int cx = (int)nearbyintf(x), cy = (int)nearbyintf(y);
    int s = 0;
    for (int k = 0; k < npts; k++) {
        int ix = pf_clamp(cx + off[2 * k], fw), iy = pf_clamp(cy + off[2 * k + 1], fh);
        int v = frame[iy * fw + ix];
        s += (v - 100) * (v - 100) - (v - 228) * (v - 228);
    }
    float like = (float)s / (float)(400 * npts);
    w[i] = w[i] * pf_ex2(like * PF_LOG2E);
    px[i] = x;
    py[i] = y;
    rng[i] = r;
}

/* Hillis-Steele inclusive scan of v[0..m) in place (m a power of two),
 * the kernels' tree: at distance d every t >= d adds element t - d of the
 * previous step. tmp holds m floats. */
static void pf_cpu_scan(float *v, float *tmp, int m)
{
    for (int d = 1; d < m; d <<= 1) {
        for (int t = 0; t < m; t++)
            tmp[t] = t >= d ? v[t - d] + v[t] : v[t];
        memcpy(v, tmp, (size_t)m * sizeof(float));
    }
}

/* One frame's scan, normalisation and resampling on the CPU. */
static void pf_cpu_resample(const float *w, float *cdf, const float *px,
                            const float *py, float *nx, float *ny, int *idx,
                            float u0, int n, float *blk, float *tmp)
{
    int nb = (n + PF_B - 1) / PF_B;
    float sums[PF_S];
    for (int b = 0; b < nb; b++) {
        for (int t = 0; t < PF_B; t++) {
            int i = b * PF_B + t;
            blk[t] = i < n ? w[i] : 0.0f;
        }
        pf_cpu_scan(blk, tmp, PF_B);
        for (int t = 0; t < PF_B && b * PF_B + t < n; t++)
            cdf[b * PF_B + t] = blk[t];
        sums[b] = blk[PF_B - 1];
    }
    for (int b = nb; b < PF_S; b++)
        sums[b] = 0.0f;
    pf_cpu_scan(sums, tmp, PF_S);
    float total = sums[nb - 1];
    for (int i = 0; i < n; i++) {
        int b = i / PF_B;
        float c = cdf[i];
        if (b > 0)
            c = c + sums[b - 1];
        cdf[i] = c / total;
    }
    for (int i = 0; i < n; i++) {
        float u = (u0 + (float)i) / (float)n;
        int j = i;
        while (j > 0 && cdf[j - 1] >= u)
            j--;
        while (j < n - 1 && cdf[j] < u)
            j++;
        nx[i] = px[j];
        ny[i] = py[j];
        idx[i] = j;
    }
}

static int pflt_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                    uint64_t seed, struct wl_report *rep)
{
    int n = (int)wl_pick(size, 640, 3072, 10240);
    int nf = (int)wl_pick(size, 3, 5, 6);
    int fw = (int)wl_pick(size, 64, 128, 192), fh = fw;
    int nb = (n + PF_B - 1) / PF_B, npts = 0;
    int off[2 * 64];
    size_t fsz = (size_t)fw * fh, nbytes = (size_t)n * sizeof(float);
    uint8_t *frames = malloc(fsz * (size_t)nf);
    float *hx = malloc(nbytes), *hy = malloc(nbytes), *hw = malloc(nbytes),
          *nx = malloc(nbytes), *ny = malloc(nbytes), *cdf = malloc(nbytes),
          *gx = malloc(nbytes), *gy = malloc(nbytes), *gcdf = malloc(nbytes);
    uint32_t *rng = malloc((size_t)n * sizeof(uint32_t));
    int *idx = malloc((size_t)n * sizeof(int)), *gidx = malloc((size_t)n * sizeof(int));
    float blk[PF_B], tmp[PF_B];
    ls_dptr dx[2] = { 0, 0 }, dy[2] = { 0, 0 }, dw = 0, drng = 0, dframes = 0,
            doff = 0, dcdf = 0, dbsum = 0, didx = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!frames || !hx || !hy || !hw || !nx || !ny || !cdf || !gx || !gy ||
        !gcdf || !rng || !idx || !gidx) {
        wl_fail(rep, "pflt: host allocation failed (%d particles)", n);
        goto out;
    }
    struct wl_rng g;
    wl_rng_seed(&g, seed);
    int ox = fw / 4, oy = 3 * fh / 4;
    for (int f = 0; f < nf; f++) {
        int cx = ox + f, cy = oy - 2 * f;
        for (int y = 0; y < fh; y++)
            for (int x = 0; x < fw; x++) {
                int in = (x - cx) * (x - cx) + (y - cy) * (y - cy) <= 25;
                int v = (in ? 228 : 100) - 12 + (int)wl_rng_below(&g, 25);
                frames[(size_t)f * fsz + (size_t)y * fw + x] = (uint8_t)v;
            }
    }
    for (int dyo = -3; dyo <= 3; dyo++)
        for (int dxo = -3; dxo <= 3; dxo++)
            if (dxo * dxo + dyo * dyo <= 9) {
                off[2 * npts] = dxo;
                off[2 * npts + 1] = dyo;
                npts++;
            }
    for (int i = 0; i < n; i++) {
        hx[i] = (float)ox;
        hy[i] = (float)oy;
        hw[i] = 1.0f / (float)n;
        do
            rng[i] = (uint32_t)wl_rng_next(&g);
        while (rng[i] == 0);
    }
    if ((st = wl_upload(gpu, rep, "x0", &dx[0], hx, nbytes)) ||
        (st = wl_upload(gpu, rep, "y0", &dy[0], hy, nbytes)) ||
        (st = wl_upload(gpu, rep, "x1", &dx[1], NULL, nbytes)) ||
        (st = wl_upload(gpu, rep, "y1", &dy[1], NULL, nbytes)) ||
        (st = wl_upload(gpu, rep, "w", &dw, hw, nbytes)) ||
        (st = wl_upload(gpu, rep, "rng", &drng, rng, (size_t)n * sizeof(uint32_t))) ||
        (st = wl_upload(gpu, rep, "frames", &dframes, frames, fsz * (size_t)nf)) ||
        (st = wl_upload(gpu, rep, "offsets", &doff, off, (size_t)npts * 2 * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "cdf", &dcdf, NULL, nbytes)) ||
        (st = wl_upload(gpu, rep, "bsum", &dbsum, NULL, PF_S * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "idx", &didx, NULL, (size_t)n * sizeof(int))))
        goto out;
    ls_dim3 g256 = { (unsigned)(n + 255) / 256, 1, 1 }, b256 = { 256, 1, 1 };
    ls_dim3 gblk = { (unsigned)nb, 1, 1 }, bblk = { PF_B, 1, 1 };
    ls_dim3 one = { 1, 1, 1 }, bsum = { PF_S, 1, 1 };
    int cur = 0;
    for (int f = 1; f < nf; f++) {
        ls_dptr dframe = dframes + (ls_dptr)((size_t)f * fsz);
        float u0 = wl_rng_float(&g, 0.0f, 1.0f);
        void *a1[] = { &dx[cur], &dy[cur], &dw, &drng, &n, &dframe, &fw, &fh, &doff, &npts };
        void *a2[] = { &dw, &dcdf, &dbsum, &n };
        void *a3[] = { &dbsum, &nb };
        void *a4[] = { &dcdf, &dbsum, &nb, &n };
        void *a5[] = { &dcdf, &dx[cur], &dy[cur], &dx[1 - cur], &dy[1 - cur], &dw,
                       &didx, &u0, &n };
        if ((st = wl_launch(gpu, mod, rep, "pf_likelihood", g256, b256, 0, a1)) ||
            (st = wl_launch(gpu, mod, rep, "pf_scan_blocks", gblk, bblk, 0, a2)) ||
            (st = wl_launch(gpu, mod, rep, "pf_scan_sums", one, bsum, 0, a3)) ||
            (st = wl_launch(gpu, mod, rep, "pf_normalise", g256, b256, 0, a4)) ||
            (st = wl_launch(gpu, mod, rep, "pf_resample", g256, b256, 0, a5)) ||
            (st = wl_download(gpu, rep, "idx", gidx, didx, (size_t)n * sizeof(int))))
            goto out;
        cur = 1 - cur;
        const uint8_t *frame = frames + (size_t)f * fsz;
        for (int i = 0; i < n; i++)
            pf_cpu_like(hx, hy, hw, rng, i, frame, fw, fh, off, npts);
        pf_cpu_resample(hw, cdf, hx, hy, nx, ny, idx, u0, n, blk, tmp);
        float *t = hx; hx = nx; nx = t;
        t = hy; hy = ny; ny = t;
        for (int i = 0; i < n; i++)
            hw[i] = 1.0f / (float)n;
        char what[32];
        snprintf(what, sizeof what, "frame %d idx", f);
        if (!wl_check_i32(rep, what, gidx, idx, (size_t)n))
            goto out;
    }
    if ((st = wl_download(gpu, rep, "x", gx, dx[cur], nbytes)) ||
        (st = wl_download(gpu, rep, "y", gy, dy[cur], nbytes)) ||
        (st = wl_download(gpu, rep, "cdf", gcdf, dcdf, nbytes)))
        goto out;
    double mx = 0, my = 0;
    for (int i = 0; i < n; i++) {
        mx += hx[i];
        my += hy[i];
    }
    mx /= n;
    my /= n;
    double ex = ox + (nf - 1), ey = oy - 2 * (nf - 1);
    if (fabs(mx - ex) > 4 || fabs(my - ey) > 4) {
        wl_fail(rep, "pflt: the CPU reference estimates (%.2f, %.2f), the disk is "
                "at (%.0f, %.0f) (reference bug)", mx, my, ex, ey);
        goto out;
    }
    if (wl_check_f32(rep, "cdf", gcdf, cdf, (size_t)n, 0, 0) &&
        wl_check_f32(rep, "x", gx, hx, (size_t)n, 0, 0))
        wl_check_f32(rep, "y", gy, hy, (size_t)n, 0, 0);
out:
    for (int k = 0; k < 2; k++) {
        ls_free(gpu, dx[k]);
        ls_free(gpu, dy[k]);
    }
    ls_free(gpu, dw);
    ls_free(gpu, drng);
    ls_free(gpu, dframes);
    ls_free(gpu, doff);
    ls_free(gpu, dcdf);
    ls_free(gpu, dbsum);
    ls_free(gpu, didx);
    free(frames);
    free(hx);
    free(hy);
    free(hw);
    free(nx);
    free(ny);
    free(cdf);
    free(gx);
    free(gy);
    free(gcdf);
    free(rng);
    free(idx);
    free(gidx);
    return (int)st;
}

const struct workload wl_def_pflt = { "pflt", "divergent",
    "particle filter: likelihood, prefix-sum normalisation, resampling by search",
    pflt_run };
