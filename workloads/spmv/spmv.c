/* spmv host driver: y = A*x for a seeded square CSR matrix whose row
 * lengths vary a lot (2% empty rows, most 1-8, a quarter 8-40, 1 in 32 up
 * to 160), one thread per row. Check: each y[r] is within the a-priori
 * bound of recursive float summation, |y - y_exact| <= gamma_len * sum|a x|
 * with gamma_len = len u / (1 - len u), u = 2^-24, against a double
 * reference; the bound holds for any order and with or without fma. */
#include <math.h>
#include <stdlib.h>
#include "workloads/wl_common.h"

static unsigned spmv_row_len(struct wl_rng *rng)
{
    unsigned p = wl_rng_below(rng, 100);
    if (p < 2)
        return 0;
    if (p < 72)
        return 1 + wl_rng_below(rng, 8);
    if (p < 97)
        return 8 + wl_rng_below(rng, 33);
    return 40 + wl_rng_below(rng, 121);
}

static int spmv_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                    uint64_t seed, struct wl_report *rep)
{
    unsigned n = wl_pick(size, 4096, 32768, 131072);
    int *row_ptr = malloc((n + 1) * sizeof(int)), *col = NULL;
    float *val = NULL, *x = malloc(n * sizeof(float));
    float *y = malloc(n * sizeof(float));
    ls_dptr drow = 0, dcol = 0, dval = 0, dx = 0, dy = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    if (!row_ptr || !x || !y)
        goto nomem;
    row_ptr[0] = 0;
    for (unsigned r = 0; r < n; r++)
        row_ptr[r + 1] = row_ptr[r] + (int)spmv_row_len(&rng);
    size_t nnz = (size_t)row_ptr[n];
    col = malloc(nnz * sizeof(int));
    val = malloc(nnz * sizeof(float));
    if (!col || !val)
        goto nomem;
    for (size_t e = 0; e < nnz; e++) {
        col[e] = (int)wl_rng_below(&rng, n);
        val[e] = wl_rng_float(&rng, -1.0f, 1.0f);
    }
    for (unsigned i = 0; i < n; i++)
        x[i] = wl_rng_float(&rng, -2.0f, 2.0f);
    if ((st = wl_upload(gpu, rep, "row_ptr", &drow, row_ptr,
                        (n + 1) * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "col", &dcol, col, nnz * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "val", &dval, val, nnz * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "x", &dx, x, n * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "y", &dy, NULL, n * sizeof(float))))
        goto out;
    int ni = (int)n;
    void *args[] = { &drow, &dcol, &dval, &dx, &dy, &ni };
    ls_dim3 block = { 128, 1, 1 }, grid = { (n + 127) / 128, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "spmv_csr", grid, block, 0, args)) ||
        (st = wl_download(gpu, rep, "y", y, dy, n * sizeof(float))))
        goto out;
    const double u = ldexp(1.0, -24);
    for (unsigned r = 0; r < n; r++) {
        double sum = 0.0, mag = 0.0;   /* products of floats: exact */
        int len = row_ptr[r + 1] - row_ptr[r];
        for (int e = row_ptr[r]; e < row_ptr[r + 1]; e++) {
            double p = (double)val[e] * (double)x[col[e]];
            sum += p;
            mag += fabs(p);
        }
        /* 1e-12 * mag covers the double reference's own rounding */
        double tol = len * u / (1.0 - len * u) * mag + 1e-12 * mag;
        if (!(fabs((double)y[r] - sum) <= tol)) {
            wl_fail(rep, "y[%u] = %.9g, want %.9g (row length %d, bound %.3g)",
                    r, (double)y[r], sum, len, tol);
            break;
        }
    }
    goto out;
nomem:
    wl_fail(rep, "spmv: host allocation failed (n = %u)", n);
out:
    ls_free(gpu, drow);
    ls_free(gpu, dcol);
    ls_free(gpu, dval);
    ls_free(gpu, dx);
    ls_free(gpu, dy);
    free(row_ptr);
    free(col);
    free(val);
    free(x);
    free(y);
    return (int)st;
}

const struct workload wl_def_spmv = { "spmv", "irregular",
    "CSR sparse matrix-vector product, one thread per row", spmv_run };
