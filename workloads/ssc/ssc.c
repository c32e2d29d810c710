/* ssc host driver: cosine similarity of nd seeded sparse documents, the
 * first nq of which are also the queries (ssc.cu gives the kernels). Each
 * document has 4-39 draws of term ids from a vocabulary of 2048, skewed
 * towards low ids (the product of two uniform draws over 2048), sorted and
 * made unique, with weights uniform in [0.05, 1): common low ids make most
 * pairs share a few terms, so the merges take every branch. Three launches:
 * ssc_norms, ssc_scores (grid ceil(nd / 128) x nq), ssc_best (nq CTAs).
 * Check: bit exact. The CPU reference performs the same correctly rounded
 * operations in the same order (fmaf over the common terms in increasing
 * term order, sqrtf, one float multiply and one float divide), so every
 * norm and every score must be identical (wl_check_f32 with no tolerance),
 * and so must each query's best document (the highest score over d != q,
 * ties to the lower index) and its score. The score buffer starts as NaN
 * (0xffffffff), so a score the kernel did not write fails; the driver also
 * checks that the reference's scores are not all zero (overlapping
 * documents exist). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define SSC_VOCAB 2048u
#define SSC_TPB 128u
#define SSC_BEST_THREADS 128u

static int ssc_cmp_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

/* Score of documents a and b as ssc_scores computes it. */
static float ssc_cpu_score(const int *start, const int *term, const float *w,
                           const float *norm, unsigned a, unsigned b)
{
    int ia = start[a], ea = start[a + 1], ib = start[b], eb = start[b + 1];
    float dot = 0.0f;
    while (ia < ea && ib < eb) {
        if (term[ia] == term[ib]) {
            dot = fmaf(w[ia], w[ib], dot);
            ia++;
            ib++;
        } else if (term[ia] < term[ib]) {
            ia++;
        } else {
            ib++;
        }
    }
    float den = norm[a] * norm[b];
    return den > 0.0f ? dot / den : 0.0f;
}

static int ssc_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                   uint64_t seed, struct wl_report *rep)
{
    unsigned nd = wl_pick_xl(size, 200, 1200, 2600, 65536);
    unsigned nq = wl_pick_xl(size, 6, 12, 32, 32);
    size_t npair = (size_t)nq * nd;
    int *start = malloc((nd + 1) * sizeof(int)), *term = NULL;
    float *w = NULL;
    float *norm = malloc(nd * sizeof(float)), *gnorm = malloc(nd * sizeof(float));
    float *score = malloc(npair * sizeof(float)), *gscore = malloc(npair * sizeof(float));
    int *best = malloc(nq * sizeof(int)), *gbest = malloc(nq * sizeof(int));
    float *bscore = malloc(nq * sizeof(float)), *gbscore = malloc(nq * sizeof(float));
    ls_dptr dstart = 0, dterm = 0, dw = 0, dnorm = 0, dscore = 0, dbest = 0,
            dbscore = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!start || !norm || !gnorm || !score || !gscore || !best || !gbest ||
        !bscore || !gbscore) {
        wl_fail(rep, "ssc: host allocation failed (%u documents)", nd);
        goto out;
    }
    term = malloc((size_t)nd * 40 * sizeof(int));
    w = malloc((size_t)nd * 40 * sizeof(float));
    if (!term || !w) {
        wl_fail(rep, "ssc: host allocation of %u term lists failed", nd);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    start[0] = 0;
    for (unsigned d = 0; d < nd; d++) {
        int *t = term + start[d];
        unsigned draws = 4 + wl_rng_below(&rng, 36), n = 0;
        for (unsigned k = 0; k < draws; k++)
            t[k] = (int)(wl_rng_below(&rng, SSC_VOCAB) *
                         wl_rng_below(&rng, SSC_VOCAB) / SSC_VOCAB);
        qsort(t, draws, sizeof(int), ssc_cmp_int);
        for (unsigned k = 0; k < draws; k++)
            if (n == 0 || t[k] != t[n - 1])
                t[n++] = t[k];
        for (unsigned k = 0; k < n; k++)
            w[start[d] + (int)k] = wl_rng_float(&rng, 0.05f, 1.0f);
        start[d + 1] = start[d] + (int)n;
    }
    size_t nnz = (size_t)start[nd];
    memset(gscore, 0xff, npair * sizeof(float));
    if ((st = wl_upload(gpu, rep, "start", &dstart, start, (nd + 1) * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "term", &dterm, term, nnz * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "weight", &dw, w, nnz * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "norm", &dnorm, NULL, nd * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "score", &dscore, gscore, npair * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "best", &dbest, NULL, nq * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "best_score", &dbscore, NULL, nq * sizeof(float))))
        goto out;
    int ndi = (int)nd;
    void *a_norm[] = { &dstart, &dw, &dnorm, &ndi };
    void *a_score[] = { &dstart, &dterm, &dw, &dnorm, &dscore, &ndi };
    void *a_best[] = { &dscore, &dbest, &dbscore, &ndi };
    ls_dim3 blk = { SSC_TPB, 1, 1 };
    ls_dim3 g_norm = { (nd + SSC_TPB - 1) / SSC_TPB, 1, 1 };
    ls_dim3 g_score = { (nd + SSC_TPB - 1) / SSC_TPB, nq, 1 };
    ls_dim3 g_best = { nq, 1, 1 }, b_best = { SSC_BEST_THREADS, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "ssc_norms", g_norm, blk, 0, a_norm)) ||
        (st = wl_launch(gpu, mod, rep, "ssc_scores", g_score, blk, 0, a_score)) ||
        (st = wl_launch(gpu, mod, rep, "ssc_best", g_best, b_best, 0, a_best)))
        goto out;
    if ((st = wl_download(gpu, rep, "norm", gnorm, dnorm, nd * sizeof(float))) ||
        (st = wl_download(gpu, rep, "score", gscore, dscore, npair * sizeof(float))) ||
        (st = wl_download(gpu, rep, "best", gbest, dbest, nq * sizeof(int))) ||
        (st = wl_download(gpu, rep, "best_score", gbscore, dbscore, nq * sizeof(float))))
        goto out;
    for (unsigned d = 0; d < nd; d++) {
        float s = 0.0f;
        for (int k = start[d]; k < start[d + 1]; k++)
            s = fmaf(w[k], w[k], s);
        norm[d] = sqrtf(s);
    }
    size_t nonzero = 0;
    for (unsigned q = 0; q < nq; q++) {
        best[q] = -1;
        bscore[q] = -1.0f;
        for (unsigned d = 0; d < nd; d++) {
            float s = ssc_cpu_score(start, term, w, norm, q, d);
            score[(size_t)q * nd + d] = s;
            nonzero += s != 0.0f;
            if (d != q && s > bscore[q]) {
                bscore[q] = s;
                best[q] = (int)d;
            }
        }
    }
    if (nonzero <= npair / 10) {
        wl_fail(rep, "ssc: only %zu of %zu reference scores are non-zero "
                "(input generator bug)", nonzero, npair);
        goto out;
    }
    if (wl_check_f32(rep, "norm", gnorm, norm, nd, 0, 0) &&
        wl_check_f32(rep, "score", gscore, score, npair, 0, 0) &&
        wl_check_i32(rep, "best", gbest, best, nq))
        wl_check_f32(rep, "best_score", gbscore, bscore, nq, 0, 0);
out:
    ls_free(gpu, dstart);
    ls_free(gpu, dterm);
    ls_free(gpu, dw);
    ls_free(gpu, dnorm);
    ls_free(gpu, dscore);
    ls_free(gpu, dbest);
    ls_free(gpu, dbscore);
    free(start);
    free(term);
    free(w);
    free(norm);
    free(gnorm);
    free(score);
    free(gscore);
    free(best);
    free(gbest);
    free(bscore);
    free(gbscore);
    return (int)st;
}

const struct workload wl_def_ssc = { "ssc", "irregular",
    "cosine similarity of sparse documents: per-pair sorted-list merges",
    ssc_run };
