/* pathfinder host driver: minimum-cost paths from the top row to every
 * cell of the bottom row of a rows x cols grid of seeded weights 0..9,
 * each step going down-left, down or down-right (the dynamic program of
 * Rodinia's pathfinder; this is our own kernel). Row 0's costs are its
 * weights; each launch of pf_rows advances PF_HEIGHT rows (the last one
 * fewer) in 256-thread CTAs that keep 256 - 2 * height columns each, the
 * cost row ping-ponging between two device buffers.
 * Check: exact. After every launch the host downloads the cost row it
 * wrote and compares it with the CPU dynamic program at that row (integer
 * arithmetic on both sides), so a wrong cell in any launch is seen even if
 * no minimum path of the final row passes through it. */
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define PF_BS 256u
#define PF_HEIGHT 20u

/* One CPU row: cur[c] = wall[c] + min of prev[c-1..c+1] inside the grid. */
static void pf_cpu_row(const int *wall, const int *prev, int *cur,
                       unsigned cols)
{
    for (unsigned c = 0; c < cols; c++) {
        int best = prev[c];
        if (c > 0 && prev[c - 1] < best)
            best = prev[c - 1];
        if (c + 1 < cols && prev[c + 1] < best)
            best = prev[c + 1];
        cur[c] = wall[c] + best;
    }
}

static int pf_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                  uint64_t seed, struct wl_report *rep)
{
    unsigned cols = wl_pick(size, 760, 4000, 12000);
    unsigned rows = wl_pick(size, 51, 98, 175);
    size_t cells = (size_t)rows * cols, rowb = cols * sizeof(int);
    int *wall = malloc(cells * sizeof(int)), *want = malloc(2 * rowb);
    int *got = malloc(rowb);
    ls_dptr dwall = 0, drow[2] = { 0, 0 };
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!wall || !want || !got) {
        wl_fail(rep, "pathfinder: host allocation failed (%u x %u)", rows, cols);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (size_t i = 0; i < cells; i++)
        wall[i] = (int)wl_rng_below(&rng, 10);
    if ((st = wl_upload(gpu, rep, "wall", &dwall, wall, cells * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "cost0", &drow[0], wall, rowb)) ||
        (st = wl_upload(gpu, rep, "cost1", &drow[1], NULL, rowb)))
        goto out;
    int *cpu[2] = { want, want + cols };
    memcpy(cpu[0], wall, rowb);
    int colsi = (int)cols;
    unsigned cur = 0;
    for (unsigned row0 = 1; row0 < rows; row0 += PF_HEIGHT, cur ^= 1) {
        unsigned height = rows - row0 < PF_HEIGHT ? rows - row0 : PF_HEIGHT;
        unsigned keep = PF_BS - 2 * height;
        int r0 = (int)row0, hi = (int)height;
        void *args[] = { &dwall, &drow[cur], &drow[cur ^ 1], &colsi, &r0, &hi };
        ls_dim3 block = { PF_BS, 1, 1 }, grid = { (cols + keep - 1) / keep, 1, 1 };
        if ((st = wl_launch(gpu, mod, rep, "pf_rows", grid, block, 0, args)) ||
            (st = wl_download(gpu, rep, "cost", got, drow[cur ^ 1], rowb)))
            goto out;
        for (unsigned r = row0; r < row0 + height; r++) {
            pf_cpu_row(wall + (size_t)r * cols, cpu[0], cpu[1], cols);
            int *t = cpu[0];
            cpu[0] = cpu[1];
            cpu[1] = t;
        }
        for (unsigned c = 0; c < cols; c++)
            if (got[c] != cpu[0][c]) {
                wl_fail(rep, "cost[row %u][%u] = %d, want %d (launch at row "
                        "%u)", row0 + height - 1, c, got[c], cpu[0][c], row0);
                goto out;
            }
    }
out:
    ls_free(gpu, dwall);
    ls_free(gpu, drow[0]);
    ls_free(gpu, drow[1]);
    free(wall);
    free(want);
    free(got);
    return (int)st;
}

const struct workload wl_def_pathfinder = { "pathfinder", "divergent",
    "grid min-path dynamic program, shared-memory pyramid of rows", pf_run };
