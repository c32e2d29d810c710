/* sclst host driver: streamcluster's facility-location gain step
 * (sclst.cu gives the kernels). n seeded points in 8 dimensions around 6
 * random cluster centres (centres uniform in [0, 10) per feature, each
 * point its cluster's centre plus uniform noise in [-1, 1)), weights
 * uniform in [1, 2). Every point starts assigned to point 0, the only
 * centre, at cost dist^2 * w (computed by the host with the kernel's float
 * operations); the facility cost z is the sum of those costs (in double)
 * over 16, rounded to float. Then, for each of ncand seeded candidate
 * points x that are not centres already: sc_cost, sc_gain, and on the host
 * Rodinia's decision: low[s] = z + lower[s] for each open centre (in point
 * order), a centre with low > 0 would close; opening x costs
 * z + lower[k] - (the sum of those lows). If that is negative, x opens,
 * those centres close, and sc_apply moves the points.
 * Check: bit exact. A CPU replay keeps its own costs and assignments and
 * computes every candidate's lower[] with the same float operations in
 * the same order (the kernels use __fsub_rn/__fmaf_rn/__fmul_rn/
 * __fadd_rn, and sc_gain's strided sums and tree are replayed as such),
 * so lower[] must equal it after every candidate (wl_check_f32, no
 * tolerance) before the shared host decision is taken, and the final
 * costs and assignments must be identical. The replay must also have
 * opened at least two centres and lowered the total cost, so the gains
 * move the solution (the costs and assignments then differ from the
 * initial ones). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define SC_DIM 8u
#define SC_CLUSTERS 6u
#define SC_KMAX 64u
#define SC_TPB 128u
#define SC_GAIN_THREADS 256u

/* dist^2(i, x) * w[i] as sc_cost computes it. */
static float sc_xcost(const float *coord, const float *w, unsigned n,
                      unsigned i, unsigned x)
{
    float d = 0.0f;
    for (unsigned f = 0; f < SC_DIM; f++) {
        float diff = coord[(size_t)f * n + i] - coord[(size_t)f * n + x];
        d = fmaf(diff, diff, d);
    }
    return d * w[i];
}

/* The CPU replay of sc_cost + sc_gain for candidate x: lower[0..k]
 * (work: scratch of (k+1) x n floats; xc, sw: per point). */
static void sc_cpu_gain(const float *coord, const float *w, const float *cost,
                        const int *assign, const int *ctab, unsigned n,
                        unsigned k, unsigned x, float *work, float *xc,
                        uint8_t *sw, float *lower)
{
    memset(work, 0, (size_t)(k + 1) * n * sizeof(float));
    for (unsigned i = 0; i < n; i++) {
        xc[i] = sc_xcost(coord, w, n, i, x);
        sw[i] = xc[i] < cost[i];
        if (sw[i])
            work[(size_t)k * n + i] = xc[i] - cost[i];
        else
            work[(size_t)ctab[assign[i]] * n + i] = cost[i] - xc[i];
    }
    for (unsigned s = 0; s <= k; s++) {
        float sh[SC_GAIN_THREADS];
        for (unsigned t = 0; t < SC_GAIN_THREADS; t++) {
            float acc = 0.0f;
            for (unsigned i = t; i < n; i += SC_GAIN_THREADS)
                acc = acc + work[(size_t)s * n + i];
            sh[t] = acc;
        }
        for (unsigned h = SC_GAIN_THREADS / 2; h > 0; h >>= 1)
            for (unsigned t = 0; t < h; t++)
                sh[t] = sh[t] + sh[t + h];
        lower[s] = sh[0];
    }
}

struct sc_bufs {
    float *coord, *w, *cost, *ccost, *gcost, *work, *xc, *lower, *glower;
    int *assign, *cassign, *gassign, *ctab;
    uint8_t *isc, *sw, *close;
};

static void sc_free(struct sc_bufs *b)
{
    free(b->coord); free(b->w); free(b->cost); free(b->ccost); free(b->gcost);
    free(b->work); free(b->xc); free(b->lower); free(b->glower);
    free(b->assign); free(b->cassign); free(b->gassign); free(b->ctab);
    free(b->isc); free(b->sw); free(b->close);
}

static int sclst_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                     uint64_t seed, struct wl_report *rep)
{
    unsigned n = wl_pick(size, 400, 3600, 13000);
    unsigned ncand = wl_pick(size, 10, 20, 28);
    size_t fb = n * sizeof(float), ib = n * sizeof(int);
    struct sc_bufs b = {
        malloc(SC_DIM * fb), malloc(fb), malloc(fb), malloc(fb), malloc(fb),
        malloc((SC_KMAX + 1) * fb), malloc(fb), malloc((SC_KMAX + 1) * sizeof(float)),
        malloc((SC_KMAX + 1) * sizeof(float)),
        malloc(ib), malloc(ib), malloc(ib), malloc(ib),
        malloc(n), malloc(n), malloc(SC_KMAX + 1) };
    ls_dptr dcoord = 0, dw = 0, dcost = 0, dassign = 0, dctab = 0, dwork = 0,
            dxc = 0, dsw = 0, dlower = 0, dclose = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!b.coord || !b.w || !b.cost || !b.ccost || !b.gcost || !b.work ||
        !b.xc || !b.lower || !b.glower || !b.assign || !b.cassign ||
        !b.gassign || !b.ctab || !b.isc || !b.sw || !b.close) {
        wl_fail(rep, "sclst: host allocation failed (%u points)", n);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    float centre[SC_CLUSTERS][SC_DIM];
    for (unsigned c = 0; c < SC_CLUSTERS; c++)
        for (unsigned f = 0; f < SC_DIM; f++)
            centre[c][f] = wl_rng_float(&rng, 0.0f, 10.0f);
    for (unsigned i = 0; i < n; i++) {
        unsigned c = wl_rng_below(&rng, SC_CLUSTERS);
        for (unsigned f = 0; f < SC_DIM; f++)
            b.coord[(size_t)f * n + i] = centre[c][f] + wl_rng_float(&rng, -1.0f, 1.0f);
        b.w[i] = wl_rng_float(&rng, 1.0f, 2.0f);
    }
    double total0 = 0;
    for (unsigned i = 0; i < n; i++) {
        b.cost[i] = sc_xcost(b.coord, b.w, n, i, 0);
        b.assign[i] = 0;
        b.ctab[i] = -1;
        b.isc[i] = 0;
        total0 += b.cost[i];
    }
    b.isc[0] = 1;
    b.ctab[0] = 0;
    unsigned k = 1, opened = 0, closed = 0;
    float z = (float)(total0 / 16);
    memcpy(b.ccost, b.cost, fb);
    memcpy(b.cassign, b.assign, ib);
    if ((st = wl_upload(gpu, rep, "coord", &dcoord, b.coord, SC_DIM * fb)) ||
        (st = wl_upload(gpu, rep, "w", &dw, b.w, fb)) ||
        (st = wl_upload(gpu, rep, "cost", &dcost, b.cost, fb)) ||
        (st = wl_upload(gpu, rep, "assign", &dassign, b.assign, ib)) ||
        (st = wl_upload(gpu, rep, "ctab", &dctab, b.ctab, ib)) ||
        (st = wl_upload(gpu, rep, "work", &dwork, NULL, (SC_KMAX + 1) * fb)) ||
        (st = wl_upload(gpu, rep, "xcost", &dxc, NULL, fb)) ||
        (st = wl_upload(gpu, rep, "sw", &dsw, NULL, n)) ||
        (st = wl_upload(gpu, rep, "lower", &dlower, NULL,
                        (SC_KMAX + 1) * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "close", &dclose, NULL, SC_KMAX + 1)))
        goto out;
    int ni = (int)n, dimi = (int)SC_DIM, ki = 0, xi = 0;
    void *a_cost[] = { &dcoord, &dw, &dcost, &dassign, &dctab, &xi, &ni, &dimi,
                       &ki, &dwork, &dxc, &dsw };
    void *a_gain[] = { &dwork, &dlower, &ni };
    void *a_apply[] = { &dcost, &dassign, &dctab, &dclose, &dsw, &dxc, &xi, &ni };
    ls_dim3 blk = { SC_TPB, 1, 1 }, gp = { (n + SC_TPB - 1) / SC_TPB, 1, 1 },
            bg = { SC_GAIN_THREADS, 1, 1 };
    for (unsigned c = 0; c < ncand; c++) {
        unsigned x = wl_rng_below(&rng, n);
        if (b.isc[x] || k + 1 > SC_KMAX)
            continue;
        ki = (int)k;
        xi = (int)x;
        ls_dim3 gg = { k + 1, 1, 1 };
        if ((st = wl_launch(gpu, mod, rep, "sc_cost", gp, blk, 0, a_cost)) ||
            (st = wl_launch(gpu, mod, rep, "sc_gain", gg, bg, 0, a_gain)) ||
            (st = wl_download(gpu, rep, "lower", b.glower, dlower,
                              (k + 1) * sizeof(float))))
            goto out;
        sc_cpu_gain(b.coord, b.w, b.ccost, b.cassign, b.ctab, n, k, x, b.work,
                    b.xc, b.sw, b.lower);
        if (!wl_check_f32(rep, "lower", b.glower, b.lower, k + 1, 0, 0))
            goto out;
        /* Rodinia's host decision, on the (equal) gains */
        float open = z + b.lower[k];
        unsigned nclose = 0;
        memset(b.close, 0, SC_KMAX + 1);
        for (unsigned i = 0; i < n; i++) {
            if (!b.isc[i])
                continue;
            float low = z + b.lower[b.ctab[i]];
            if (low > 0.0f) {
                b.close[b.ctab[i]] = 1;
                open = open - low;
                nclose++;
            }
        }
        if (!(open < 0.0f))
            continue;
        if ((st = ls_memcpy_htod(gpu, dclose, b.close, SC_KMAX + 1)) != LS_OK) {
            wl_fail(rep, "sclst: close flags: %s", ls_gpu_error(gpu));
            goto out;
        }
        if ((st = wl_launch(gpu, mod, rep, "sc_apply", gp, blk, 0, a_apply)))
            goto out;
        for (unsigned i = 0; i < n; i++)
            if (b.sw[i] || b.close[b.ctab[b.cassign[i]]]) {
                b.ccost[i] = b.xc[i];
                b.cassign[i] = (int)x;
            }
        for (unsigned i = 0; i < n; i++)
            if (b.isc[i] && b.close[b.ctab[i]])
                b.isc[i] = 0;
        b.isc[x] = 1;
        opened++;
        closed += nclose;
        k = 0;
        for (unsigned i = 0; i < n; i++)
            b.ctab[i] = b.isc[i] ? (int)k++ : -1;
        if ((st = ls_memcpy_htod(gpu, dctab, b.ctab, ib)) != LS_OK) {
            wl_fail(rep, "sclst: centre table: %s", ls_gpu_error(gpu));
            goto out;
        }
    }
    double total = 0;
    for (unsigned i = 0; i < n; i++)
        total += b.ccost[i];
    if (opened < 2 || !(total < total0)) {
        wl_fail(rep, "sclst: %u centres opened, total cost %g from %g: the "
                "gains did not move the solution (input generator bug)",
                opened, total, total0);
        goto out;
    }
    if ((st = wl_download(gpu, rep, "cost", b.gcost, dcost, fb)) ||
        (st = wl_download(gpu, rep, "assign", b.gassign, dassign, ib)))
        goto out;
    if (wl_check_f32(rep, "cost", b.gcost, b.ccost, n, 0, 0))
        wl_check_i32(rep, "assign", b.gassign, b.cassign, n);
    (void)closed;
out:
    ls_free(gpu, dcoord);
    ls_free(gpu, dw);
    ls_free(gpu, dcost);
    ls_free(gpu, dassign);
    ls_free(gpu, dctab);
    ls_free(gpu, dwork);
    ls_free(gpu, dxc);
    ls_free(gpu, dsw);
    ls_free(gpu, dlower);
    ls_free(gpu, dclose);
    sc_free(&b);
    return (int)st;
}

const struct workload wl_def_sclst = { "sclst", "divergent",
    "streamcluster gain step: candidate-centre costs, per-centre gain sums",
    sclst_run };
