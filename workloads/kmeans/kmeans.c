/* kmeans host driver: k-means over npoints seeded points in nfeat
 * dimensions (8; at xlarge 34, the feature count of Rodinia's kdd_cup
 * input), stored column-major (feat[f * npoints + p]): k true centres
 * uniform in [0, 10)^nfeat, each point a random centre plus uniform noise
 * in [-2, 2) per feature, so clusters overlap a little and points move
 * between clusters for a few iterations. The initial centroids are the
 * first k points. Each iteration launches kmeans_assign (one thread per
 * point) and then updates the centroids on the host (per cluster, the
 * double sum of its members' features in point order divided by the
 * member count, rounded to float; an empty cluster keeps its centroid).
 * The loop stops when no point changes cluster or after ITERS iterations.
 * Check, exact: after every iteration the membership of every point
 * equals a CPU replay (distances as in kmeans.cu: diff = x - c in float,
 * d = fmaf(diff, diff, d) feature by feature, first smallest wins: the
 * same correctly rounded operations in the same order), and the number of
 * iterations run equals the CPU's. The centroids are computed by one host
 * function from the memberships, so equal memberships give bit-identical
 * centroids on both sides. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define KM_ITERS 4

/* Nearest centroid of point p (kmeans.cu's order of operations). */
static int km_nearest(const float *feat, const float *cent, unsigned np,
                      unsigned nf, unsigned k, unsigned p)
{
    int best = 0;
    float bestd = 0.0f;
    for (unsigned c = 0; c < k; c++) {
        float d = 0.0f;
        for (unsigned f = 0; f < nf; f++) {
            float diff = feat[(size_t)f * np + p] - cent[c * nf + f];
            d = fmaf(diff, diff, d);
        }
        if (c == 0 || d < bestd) {
            bestd = d;
            best = (int)c;
        }
    }
    return best;
}

/* Host update step: centroids from memberships (sum is k * nf doubles,
 * cnt k counters, both scratch). */
static void km_update(const float *feat, const int *member, unsigned np,
                      unsigned nf, unsigned k, float *cent, double *sum,
                      unsigned *cnt)
{
    memset(sum, 0, (size_t)k * nf * sizeof(double));
    memset(cnt, 0, k * sizeof(unsigned));
    for (unsigned p = 0; p < np; p++) {
        unsigned c = (unsigned)member[p];
        cnt[c]++;
        for (unsigned f = 0; f < nf; f++)
            sum[c * nf + f] += feat[(size_t)f * np + p];
    }
    for (unsigned c = 0; c < k; c++)
        if (cnt[c])
            for (unsigned f = 0; f < nf; f++)
                cent[c * nf + f] = (float)(sum[c * nf + f] / cnt[c]);
}

static int km_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                  uint64_t seed, struct wl_report *rep)
{
    unsigned np = wl_pick_xl(size, 640, 7168, 36864, 10240);
    unsigned nf = wl_pick_xl(size, 8, 8, 8, 34), k = 8;
    float *feat = malloc((size_t)np * nf * sizeof(float));
    float *cent = malloc(k * nf * sizeof(float)), *rcent = malloc(k * nf * sizeof(float));
    float *truec = malloc(k * nf * sizeof(float));
    int *member = malloc(np * sizeof(int)), *rmember = malloc(np * sizeof(int));
    double *sum = malloc(k * nf * sizeof(double));
    unsigned *cnt = malloc(k * sizeof(unsigned));
    ls_dptr dfeat = 0, dcent = 0, dmember = 0, dchg = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    if (!feat || !cent || !rcent || !truec || !member || !rmember || !sum ||
        !cnt) {
        wl_fail(rep, "kmeans: host allocation failed (npoints = %u)", np);
        goto out;
    }
    for (unsigned i = 0; i < k * nf; i++)
        truec[i] = wl_rng_float(&rng, 0.0f, 10.0f);
    for (unsigned p = 0; p < np; p++) {
        unsigned c = wl_rng_below(&rng, k);
        for (unsigned f = 0; f < nf; f++)
            feat[(size_t)f * np + p] = truec[c * nf + f] +
                                       wl_rng_float(&rng, -2.0f, 2.0f);
    }
    for (unsigned c = 0; c < k; c++)
        for (unsigned f = 0; f < nf; f++)
            cent[c * nf + f] = feat[(size_t)f * np + c];
    memcpy(rcent, cent, k * nf * sizeof(float));
    for (unsigned p = 0; p < np; p++)
        member[p] = rmember[p] = -1;
    if ((st = wl_upload(gpu, rep, "feat", &dfeat, feat,
                        (size_t)np * nf * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "cent", &dcent, cent,
                        k * nf * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "member", &dmember, member,
                        np * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "changed", &dchg, NULL, sizeof(int))))
        goto out;
    int npi = (int)np, nfi = (int)nf, ki = (int)k;
    void *args[] = { &dfeat, &dcent, &dmember, &dchg, &npi, &nfi, &ki };
    ls_dim3 block = { 128, 1, 1 }, grid = { (np + 127) / 128, 1, 1 };
    int rdone = 0;
    for (int it = 0; it < KM_ITERS; it++) {
        int changed = 0, rchanged = 0;
        if ((st = ls_memset(gpu, dchg, 0, sizeof(int)))) {
            wl_fail(rep, "kmeans: clearing changed: %s: %s",
                    ls_status_name(st), ls_gpu_error(gpu));
            goto out;
        }
        if ((st = wl_launch(gpu, mod, rep, "kmeans_assign", grid, block, 0,
                            args)) ||
            (st = wl_download(gpu, rep, "member", member, dmember,
                              np * sizeof(int))) ||
            (st = wl_download(gpu, rep, "changed", &changed, dchg,
                              sizeof(int))))
            goto out;
        if (!rdone) {                         /* CPU replay of iteration it */
            for (unsigned p = 0; p < np; p++) {
                int b = km_nearest(feat, rcent, np, nf, k, p);
                if (b != rmember[p]) {
                    rmember[p] = b;
                    rchanged = 1;
                }
            }
        }
        for (unsigned p = 0; p < np; p++)
            if (member[p] != rmember[p]) {
                wl_fail(rep, "kmeans: iteration %d: member[%u] = %d, want %d",
                        it + 1, p, member[p], rmember[p]);
                goto out;
            }
        if (changed != rchanged || rdone) {
            wl_fail(rep, "kmeans: iteration %d: changed = %d, want %d", it + 1,
                    changed, rdone ? 0 : rchanged);
            goto out;
        }
        if (!changed)
            break;
        km_update(feat, member, np, nf, k, cent, sum, cnt);
        km_update(feat, rmember, np, nf, k, rcent, sum, cnt);
        if ((st = ls_memcpy_htod(gpu, dcent, cent, k * nf * sizeof(float)))) {
            wl_fail(rep, "kmeans: copying centroids: %s: %s",
                    ls_status_name(st), ls_gpu_error(gpu));
            goto out;
        }
    }
out:
    ls_free(gpu, dfeat);
    ls_free(gpu, dcent);
    ls_free(gpu, dmember);
    ls_free(gpu, dchg);
    free(feat);
    free(cent);
    free(rcent);
    free(truec);
    free(member);
    free(rmember);
    free(sum);
    free(cnt);
    return (int)st;
}

const struct workload wl_def_kmeans = { "kmeans", "irregular",
    "k-means: nearest-centroid assignment per point (column-major features), "
    "host centroid update, a few iterations", km_run };
