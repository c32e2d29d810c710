/* bfs host driver: level-synchronous BFS from node 0 over a seeded random
 * directed graph in CSR form (1-8 out-edges per node, 1 in 64 nodes a hub
 * with up to 64). The host relaunches bfs_expand + bfs_update until a level
 * adds nothing. Checks: every node's level (cost, -1 = unreachable) equals
 * a CPU BFS, and the number of levels the GPU ran equals the CPU depth. */
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

/* Random CSR graph: row_ptr[n + 1], col[row_ptr[n]] (caller frees *col). */
static int bfs_make_graph(struct wl_rng *rng, unsigned n, int *row_ptr,
                          int **col)
{
    row_ptr[0] = 0;
    for (unsigned v = 0; v < n; v++) {
        unsigned deg = wl_rng_below(rng, 64) == 0 ? 1 + wl_rng_below(rng, 64)
                                                  : 1 + wl_rng_below(rng, 8);
        row_ptr[v + 1] = row_ptr[v] + (int)deg;
    }
    *col = malloc((size_t)row_ptr[n] * sizeof(int));
    if (!*col)
        return -1;
    for (int e = 0; e < row_ptr[n]; e++)
        (*col)[e] = (int)wl_rng_below(rng, n);
    return 0;
}

/* CPU BFS from node 0; returns the deepest level reached. */
static int bfs_cpu(unsigned n, const int *row_ptr, const int *col, int *cost,
                   int *queue)
{
    for (unsigned v = 0; v < n; v++)
        cost[v] = -1;
    int head = 0, tail = 0, depth = 0;
    cost[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int v = queue[head++];
        for (int e = row_ptr[v]; e < row_ptr[v + 1]; e++)
            if (cost[col[e]] < 0) {
                cost[col[e]] = cost[v] + 1;
                if (cost[v] + 1 > depth)
                    depth = cost[v] + 1;
                queue[tail++] = col[e];
            }
    }
    return depth;
}

static int bfs_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                   uint64_t seed, struct wl_report *rep)
{
    unsigned n = wl_pick(size, 2048, 16384, 65536);
    int *row_ptr = malloc((n + 1) * sizeof(int)), *col = NULL;
    int *cost = malloc(n * sizeof(int)), *ref = malloc(n * sizeof(int));
    int *queue = malloc(n * sizeof(int));
    unsigned char *mask = calloc(n, 1);
    ls_dptr drow = 0, dcol = 0, dmask = 0, dupd = 0, dvis = 0, dcost = 0,
            dover = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    if (!row_ptr || !cost || !ref || !queue || !mask ||
        bfs_make_graph(&rng, n, row_ptr, &col)) {
        wl_fail(rep, "bfs: host allocation failed (n = %u)", n);
        goto out;
    }
    int depth = bfs_cpu(n, row_ptr, col, ref, queue);
    for (unsigned v = 0; v < n; v++)
        cost[v] = -1;
    cost[0] = 0;
    mask[0] = 1;                       /* frontier = visited = {0} */
    size_t nedges = (size_t)row_ptr[n];
    if ((st = wl_upload(gpu, rep, "row_ptr", &drow, row_ptr,
                        (n + 1) * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "col", &dcol, col, nedges * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "mask", &dmask, mask, n)) ||
        (st = wl_upload(gpu, rep, "updating", &dupd, NULL, n)) ||
        (st = wl_upload(gpu, rep, "visited", &dvis, mask, n)) ||
        (st = wl_upload(gpu, rep, "cost", &dcost, cost, n * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "over", &dover, NULL, sizeof(int))))
        goto out;
    int ni = (int)n, over = 1, levels = 0;
    void *xargs[] = { &drow, &dcol, &dmask, &dupd, &dvis, &dcost, &ni };
    void *uargs[] = { &dmask, &dupd, &dvis, &dover, &ni };
    ls_dim3 block = { 256, 1, 1 }, grid = { (n + 255) / 256, 1, 1 };
    while (over) {
        if (levels > (int)n) {
            wl_fail(rep, "bfs: still changing after %d levels", levels);
            goto out;
        }
        if ((st = ls_memset(gpu, dover, 0, sizeof(int)))) {
            wl_fail(rep, "bfs: clearing over: %s: %s", ls_status_name(st),
                    ls_gpu_error(gpu));
            goto out;
        }
        if ((st = wl_launch(gpu, mod, rep, "bfs_expand", grid, block, 0,
                            xargs)) ||
            (st = wl_launch(gpu, mod, rep, "bfs_update", grid, block, 0,
                            uargs)) ||
            (st = wl_download(gpu, rep, "over", &over, dover, sizeof(int))))
            goto out;
        levels++;
    }
    if ((st = wl_download(gpu, rep, "cost", cost, dcost, n * sizeof(int))))
        goto out;
    /* levels = one pass per level 1..depth plus the pass that adds none */
    if (wl_check_i32(rep, "cost", cost, ref, n) &&
        levels != depth + 1)
        wl_fail(rep, "bfs: ran %d level passes, CPU depth %d needs %d",
                levels, depth, depth + 1);
out:
    ls_free(gpu, drow);
    ls_free(gpu, dcol);
    ls_free(gpu, dmask);
    ls_free(gpu, dupd);
    ls_free(gpu, dvis);
    ls_free(gpu, dcost);
    ls_free(gpu, dover);
    free(row_ptr);
    free(col);
    free(cost);
    free(ref);
    free(queue);
    free(mask);
    return (int)st;
}

const struct workload wl_def_bfs = { "bfs", "irregular",
    "level-synchronous BFS on a random CSR graph, relaunched per level",
    bfs_run };
