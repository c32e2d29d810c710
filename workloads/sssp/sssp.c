/* sssp host driver: single-source shortest paths from node 0 over a seeded
 * random directed graph in CSR form (1-8 out-edges per node, 1 in 64 nodes
 * a hub with up to 64; weights 1..100). Bellman-Ford rounds: the host
 * relaunches sssp_relax + sssp_update until a round lowers no distance
 * (round limit n). Each round relaxes from the previous round's distances
 * only (Jacobi style), so every intermediate state, and the number of
 * rounds, is independent of the order of the atomics.
 * Checks, exact: every distance equals a CPU Dijkstra (INT_MAX =
 * unreachable), and the number of rounds equals that of a CPU replay of
 * the same frontier rounds. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

/* Random CSR graph with weights: row_ptr[n + 1]; *col and *w get
 * row_ptr[n] entries (caller frees). */
static int sssp_make_graph(struct wl_rng *rng, unsigned n, int *row_ptr,
                           int **col, int **w)
{
    row_ptr[0] = 0;
    for (unsigned v = 0; v < n; v++) {
        unsigned deg = wl_rng_below(rng, 64) == 0 ? 1 + wl_rng_below(rng, 64)
                                                  : 1 + wl_rng_below(rng, 8);
        row_ptr[v + 1] = row_ptr[v] + (int)deg;
    }
    size_t m = (size_t)row_ptr[n];
    *col = malloc(m * sizeof(int));
    *w = malloc(m * sizeof(int));
    if (!*col || !*w)
        return -1;
    for (size_t e = 0; e < m; e++) {
        (*col)[e] = (int)wl_rng_below(rng, n);
        (*w)[e] = 1 + (int)wl_rng_below(rng, 100);
    }
    return 0;
}

/* Binary min-heap of (distance, node) keyed on distance (lazy deletion:
 * a node may be in it more than once; stale entries are skipped). */
struct sssp_heap { int64_t *e; size_t n; };

static void sssp_push(struct sssp_heap *h, int d, unsigned v)
{
    int64_t x = ((int64_t)d << 32) | v;
    size_t i = h->n++;
    while (i > 0 && h->e[(i - 1) / 2] > x) {
        h->e[i] = h->e[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->e[i] = x;
}

static int64_t sssp_pop(struct sssp_heap *h)
{
    int64_t top = h->e[0], x = h->e[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->e[c + 1] < h->e[c])
            c++;
        if (h->e[c] >= x)
            break;
        h->e[i] = h->e[c];
        i = c;
    }
    if (h->n)
        h->e[i] = x;
    return top;
}

/* CPU Dijkstra from node 0 (heap holds at most one entry per edge + 1). */
static int sssp_dijkstra(unsigned n, const int *row_ptr, const int *col,
                         const int *w, int *dist)
{
    struct sssp_heap h = { malloc(((size_t)row_ptr[n] + 1) * sizeof(int64_t)),
                           0 };
    if (!h.e)
        return -1;
    for (unsigned v = 0; v < n; v++)
        dist[v] = INT_MAX;
    dist[0] = 0;
    sssp_push(&h, 0, 0);
    while (h.n) {
        int64_t x = sssp_pop(&h);
        int d = (int)(x >> 32);
        unsigned v = (unsigned)(x & 0xffffffff);
        if (d != dist[v])
            continue;                       /* stale entry */
        for (int e = row_ptr[v]; e < row_ptr[v + 1]; e++)
            if (d + w[e] < dist[col[e]]) {
                dist[col[e]] = d + w[e];
                sssp_push(&h, d + w[e], (unsigned)col[e]);
            }
    }
    free(h.e);
    return 0;
}

/* CPU replay of the GPU's frontier rounds; returns the number of rounds
 * (including the last one, which lowers nothing). */
static int sssp_rounds(unsigned n, const int *row_ptr, const int *col,
                       const int *w, int *dist, int *nd, unsigned char *fr)
{
    for (unsigned v = 0; v < n; v++) {
        dist[v] = nd[v] = INT_MAX;
        fr[v] = 0;
    }
    dist[0] = nd[0] = 0;
    fr[0] = 1;
    int rounds = 0, changed = 1;
    while (changed) {
        changed = 0;
        for (unsigned v = 0; v < n; v++)
            if (fr[v])
                for (int e = row_ptr[v]; e < row_ptr[v + 1]; e++)
                    if (dist[v] + w[e] < nd[col[e]])
                        nd[col[e]] = dist[v] + w[e];
        for (unsigned v = 0; v < n; v++) {
            fr[v] = nd[v] < dist[v];
            if (fr[v]) {
                dist[v] = nd[v];
                changed = 1;
            }
        }
        rounds++;
    }
    return rounds;
}

static int sssp_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                    uint64_t seed, struct wl_report *rep)
{
    unsigned n = wl_pick(size, 1536, 13312, 53248);
    int *row_ptr = malloc((n + 1) * sizeof(int)), *col = NULL, *w = NULL;
    int *dist = malloc(n * sizeof(int)), *ref = malloc(n * sizeof(int));
    int *tmp = malloc(n * sizeof(int));
    unsigned char *fr = calloc(n, 1);
    ls_dptr drow = 0, dcol = 0, dw = 0, ddist = 0, dnew = 0, dfr = 0,
            dchg = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    if (!row_ptr || !dist || !ref || !tmp || !fr ||
        sssp_make_graph(&rng, n, row_ptr, &col, &w)) {
        wl_fail(rep, "sssp: host allocation failed (n = %u)", n);
        goto out;
    }
    int want_rounds = sssp_rounds(n, row_ptr, col, w, dist, tmp, fr);
    if (sssp_dijkstra(n, row_ptr, col, w, ref)) {
        wl_fail(rep, "sssp: host allocation failed (Dijkstra heap)");
        goto out;
    }
    for (unsigned v = 0; v < n; v++) {
        dist[v] = INT_MAX;
        fr[v] = 0;
    }
    dist[0] = 0;
    fr[0] = 1;                          /* the first frontier: the source */
    size_t m = (size_t)row_ptr[n];
    if ((st = wl_upload(gpu, rep, "row_ptr", &drow, row_ptr,
                        (n + 1) * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "col", &dcol, col, m * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "weight", &dw, w, m * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "dist", &ddist, dist, n * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "dist_new", &dnew, dist,
                        n * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "frontier", &dfr, fr, n)) ||
        (st = wl_upload(gpu, rep, "changed", &dchg, NULL, sizeof(int))))
        goto out;
    int ni = (int)n, changed = 1, rounds = 0;
    void *rargs[] = { &drow, &dcol, &dw, &ddist, &dnew, &dfr, &ni };
    void *uargs[] = { &ddist, &dnew, &dfr, &dchg, &ni };
    ls_dim3 block = { 256, 1, 1 }, grid = { (n + 255) / 256, 1, 1 };
    while (changed) {
        if (rounds >= (int)n) {
            wl_fail(rep, "sssp: distances still falling after %d rounds",
                    rounds);
            goto out;
        }
        if ((st = ls_memset(gpu, dchg, 0, sizeof(int)))) {
            wl_fail(rep, "sssp: clearing changed: %s: %s",
                    ls_status_name(st), ls_gpu_error(gpu));
            goto out;
        }
        if ((st = wl_launch(gpu, mod, rep, "sssp_relax", grid, block, 0,
                            rargs)) ||
            (st = wl_launch(gpu, mod, rep, "sssp_update", grid, block, 0,
                            uargs)) ||
            (st = wl_download(gpu, rep, "changed", &changed, dchg,
                              sizeof(int))))
            goto out;
        rounds++;
    }
    if ((st = wl_download(gpu, rep, "dist", dist, ddist, n * sizeof(int))))
        goto out;
    if (wl_check_i32(rep, "dist", dist, ref, n) && rounds != want_rounds)
        wl_fail(rep, "sssp: ran %d rounds, the CPU replay needs %d", rounds,
                want_rounds);
out:
    ls_free(gpu, drow);
    ls_free(gpu, dcol);
    ls_free(gpu, dw);
    ls_free(gpu, ddist);
    ls_free(gpu, dnew);
    ls_free(gpu, dfr);
    ls_free(gpu, dchg);
    free(row_ptr);
    free(col);
    free(w);
    free(dist);
    free(ref);
    free(tmp);
    free(fr);
    return (int)st;
}

const struct workload wl_def_sssp = { "sssp", "irregular",
    "Bellman-Ford shortest paths (atomicMin relaxation rounds) on a random "
    "weighted CSR graph", sssp_run };
