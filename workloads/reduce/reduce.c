/* reduce host driver: sum of n unsigned integers mod 2^32 in two launches
 * (grid -> per-block partials -> one block). n is not a multiple of the
 * grid, so threads run different trip counts; the second launch uses a
 * block whose size is not a multiple of 32, so its last warp is partial.
 * Check: the partials and the final sum exactly (integer arithmetic). */
#include <stdlib.h>
#include "workloads/wl_common.h"

static int reduce_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                      uint64_t seed, struct wl_report *rep)
{
    unsigned n = wl_pick(size, 100003, 1000003, 6000011);
    unsigned nblocks = wl_pick(size, 24, 96, 200);
    unsigned threads = 256;
    unsigned *in = malloc((size_t)n * 4), *part = malloc((size_t)nblocks * 4),
             *want = calloc(nblocks, 4);
    ls_dptr din = 0, dpart = 0, dsum = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!in || !part || !want) {
        wl_fail(rep, "reduce: host allocation failed");
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    /* values up to 2^31: the sum wraps, which the check must see too */
    for (unsigned i = 0; i < n; i++)
        in[i] = (uint32_t)(wl_rng_next(&rng) >> 33);
    /* each block's grid-stride slice, in any order (integer sums commute) */
    for (unsigned i = 0; i < n; i++)
        want[(i / threads) % nblocks] += in[i];
    uint32_t total = 0;
    for (unsigned b = 0; b < nblocks; b++)
        total += want[b];
    if ((st = wl_upload(gpu, rep, "in", &din, in, (size_t)n * 4)) ||
        (st = wl_upload(gpu, rep, "partials", &dpart, NULL, (size_t)nblocks * 4)) ||
        (st = wl_upload(gpu, rep, "sum", &dsum, NULL, 4)))
        goto out;
    void *args1[] = { &din, &dpart, &n };
    ls_dim3 block1 = { threads, 1, 1 }, grid1 = { nblocks, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "reduce_sum", grid1, block1, 0, args1)))
        goto out;
    /* second pass: one block of 7 warps minus 3 lanes (partial last warp) */
    void *args2[] = { &dpart, &dsum, &nblocks };
    ls_dim3 block2 = { 7 * 32 - 3, 1, 1 }, grid2 = { 1, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "reduce_sum", grid2, block2, 0, args2)) ||
        (st = wl_download(gpu, rep, "partials", part, dpart, (size_t)nblocks * 4)))
        goto out;
    uint32_t got = 0;
    if ((st = wl_download(gpu, rep, "sum", &got, dsum, 4)))
        goto out;
    if (wl_check_u32(rep, "partials", part, want, nblocks))
        wl_check_u32(rep, "sum", &got, &total, 1);
out:
    ls_free(gpu, din);
    ls_free(gpu, dpart);
    ls_free(gpu, dsum);
    free(in);
    free(part);
    free(want);
    return (int)st;
}

const struct workload wl_def_reduce = { "reduce", "regular",
    "integer sum: shfl.sync.down warp reduction + shared memory, 2 launches",
    reduce_run };
