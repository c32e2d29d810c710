/* lud host driver: LU decomposition without pivoting, in place, of a
 * seeded diagonally dominant n x n matrix (off-diagonal entries in
 * [-1, 1), diagonal in [n, n + 1), so every pivot is far from zero), n a
 * multiple of 16. Step s = 0 .. n/16 - 1 launches lud_diag (one CTA),
 * then, unless it is the last step, lud_perim (n/16 - s - 1 tiles right
 * of and below the diagonal tile) and lud_internal ((n/16 - s - 1)^2
 * trailing tiles): 3 n/16 - 2 launches.
 * Check: bit exact. Blocking changes where each operation runs, not which
 * operations an element receives: every element gets a -= l * u for
 * k = 0, 1, ... in increasing k and, below the diagonal, a divide by the
 * pivot after its last update, exactly as in the textbook unblocked
 * elimination. The kernels use __fmul_rn/__fsub_rn/__fdiv_rn (mul.rn,
 * sub.rn, div.rn: no fma contraction), and the CPU reference is the
 * unblocked elimination with the same correctly rounded float operations,
 * so the factored matrix must be identical float for float
 * (wl_check_f32_moved: exact, and the factors must differ from the input
 * by more than 0.01 somewhere, or a kernel that did nothing would pass on
 * the parts left unchanged). */
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define LB 16u

/* Unblocked right-looking elimination, the kernels' operations. */
static void lud_cpu(float *a, unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        for (unsigned r = k + 1; r < n; r++) {
            float l = a[(size_t)r * n + k] / a[(size_t)k * n + k];
            a[(size_t)r * n + k] = l;
            for (unsigned c = k + 1; c < n; c++)
                a[(size_t)r * n + c] = a[(size_t)r * n + c] -
                                       l * a[(size_t)k * n + c];
        }
}

static int lud_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                   uint64_t seed, struct wl_report *rep)
{
    unsigned n = wl_pick(size, 64, 160, 320), nb = n / LB;
    size_t cells = (size_t)n * n, bytes = cells * sizeof(float);
    float *a0 = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes);
    ls_dptr da = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!a0 || !want || !got) {
        wl_fail(rep, "lud: host allocation of 3 x %zu bytes failed", bytes);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (unsigned r = 0; r < n; r++)
        for (unsigned c = 0; c < n; c++)
            a0[(size_t)r * n + c] =
                r == c ? wl_rng_float(&rng, (float)n, (float)n + 1.0f)
                       : wl_rng_float(&rng, -1.0f, 1.0f);
    if ((st = wl_upload(gpu, rep, "matrix", &da, a0, bytes)))
        goto out;
    int ni = (int)n;
    ls_dim3 block = { LB, LB, 1 };
    for (unsigned s = 0; s < nb; s++) {
        int o = (int)(s * LB);
        unsigned rest = nb - s - 1;
        void *args[] = { &da, &ni, &o };
        ls_dim3 g1 = { 1, 1, 1 }, gp = { rest, 2, 1 }, gi = { rest, rest, 1 };
        if ((st = wl_launch(gpu, mod, rep, "lud_diag", g1, block, 0, args)))
            goto out;
        if (rest == 0)
            break;
        if ((st = wl_launch(gpu, mod, rep, "lud_perim", gp, block, 0, args)) ||
            (st = wl_launch(gpu, mod, rep, "lud_internal", gi, block, 0, args)))
            goto out;
    }
    if ((st = wl_download(gpu, rep, "lu", got, da, bytes)))
        goto out;
    memcpy(want, a0, bytes);
    lud_cpu(want, n);
    wl_check_f32_moved(rep, "lu", got, want, a0, cells, 0.01);
out:
    ls_free(gpu, da);
    free(a0);
    free(want);
    free(got);
    return (int)st;
}

const struct workload wl_def_lud = { "lud", "divergent",
    "blocked LU without pivoting: diagonal, perimeter and internal kernels per step",
    lud_run };
