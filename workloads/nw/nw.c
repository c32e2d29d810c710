/* nw host driver: Needleman-Wunsch score matrix of two seeded sequences of
 * length n (multiple of 16) over a 24-letter alphabet with a seeded
 * symmetric substitution matrix (+4..+11 on the diagonal, -4..+3 off it),
 * gap penalty 10. The host launches nw_diag once per anti-diagonal of
 * 16x16 tiles (2 n/16 - 1 launches). Check: the whole (n+1)^2 integer
 * matrix equals the CPU dynamic program exactly. */
#include <stdlib.h>
#include "workloads/wl_common.h"

/* Exact comparison of the score matrix; records the first mismatching
 * cell as score[row][col]. */
static int nw_check_i32(struct wl_report *rep, const int *got,
                        const int *want, size_t n, size_t cols)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            return wl_fail(rep, "score[%zu][%zu] = %d, want %d", i / cols,
                           i % cols, got[i], want[i]);
    return 1;
}

#define NW_BS 16
#define NW_ALPHA 24

static int nw_max3(int a, int b, int c)
{
    int k = a > b ? a : b;
    return k > c ? k : c;
}

static int nw_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                  uint64_t seed, struct wl_report *rep)
{
    unsigned n = wl_pick(size, 128, 384, 1024);
    int cols = (int)n + 1, penalty = 10;
    size_t cells = (size_t)cols * cols, bytes = cells * sizeof(int);
    int *ref = calloc(cells, sizeof(int)), *score = calloc(cells, sizeof(int));
    int *want = calloc(cells, sizeof(int));
    int *sa = malloc(n * sizeof(int)), *sb = malloc(n * sizeof(int));
    int sub[NW_ALPHA][NW_ALPHA];
    ls_dptr dref = 0, dscore = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!ref || !score || !want || !sa || !sb) {
        wl_fail(rep, "nw: host allocation of 3 x %zu bytes failed", bytes);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (int a = 0; a < NW_ALPHA; a++)
        for (int b = 0; b <= a; b++)
            sub[a][b] = sub[b][a] = a == b ? 4 + (int)wl_rng_below(&rng, 8)
                                           : -4 + (int)wl_rng_below(&rng, 8);
    for (unsigned i = 0; i < n; i++) {
        sa[i] = (int)wl_rng_below(&rng, NW_ALPHA);
        /* sb is a mutated copy of sa, so the alignment is non-trivial */
        sb[i] = wl_rng_below(&rng, 4) ? sa[i] : (int)wl_rng_below(&rng, NW_ALPHA);
    }
    for (int i = 1; i < cols; i++)
        for (int j = 1; j < cols; j++)
            ref[i * cols + j] = sub[sa[i - 1]][sb[j - 1]];
    for (int i = 0; i < cols; i++) {
        score[i * cols] = want[i * cols] = -penalty * i;
        score[i] = want[i] = -penalty * i;
    }
    for (int i = 1; i < cols; i++)
        for (int j = 1; j < cols; j++)
            want[i * cols + j] = nw_max3(
                want[(i - 1) * cols + j - 1] + ref[i * cols + j],
                want[i * cols + j - 1] - penalty,
                want[(i - 1) * cols + j] - penalty);
    if ((st = wl_upload(gpu, rep, "ref", &dref, ref, bytes)) ||
        (st = wl_upload(gpu, rep, "score", &dscore, score, bytes)))
        goto out;
    int nb = (int)n / NW_BS;
    ls_dim3 block = { NW_BS, 1, 1 };
    for (int diag = 0; diag < 2 * nb - 1; diag++) {
        int tx0 = diag < nb ? 0 : diag - nb + 1;
        int tx1 = diag < nb ? diag : nb - 1;
        ls_dim3 grid = { (unsigned)(tx1 - tx0 + 1), 1, 1 };
        void *args[] = { &dref, &dscore, &cols, &penalty, &diag, &tx0 };
        if ((st = wl_launch(gpu, mod, rep, "nw_diag", grid, block, 0, args)))
            goto out;
    }
    if ((st = wl_download(gpu, rep, "score", score, dscore, bytes)))
        goto out;
    nw_check_i32(rep, score, want, cells, (size_t)cols);
out:
    ls_free(gpu, dref);
    ls_free(gpu, dscore);
    free(ref);
    free(score);
    free(want);
    free(sa);
    free(sb);
    return (int)st;
}

const struct workload wl_def_nw = { "nw", "wavefront",
    "Needleman-Wunsch, tile anti-diagonal wavefront in shared memory",
    nw_run };
