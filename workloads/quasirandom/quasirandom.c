/* quasirandom host driver: n points of a 3-dimensional Sobol sequence
 * (base-2 Niederreiter-style digital net) starting at index `seed`. The
 * direction-vector table is computed here from the primitive polynomials
 * of the first three Sobol dimensions and written into the kernel's
 * __constant__ c_dir through ls_module_symbol. Blocks are 64x3 threads
 * (threadIdx.y = dimension) over a grid-stride loop.
 * Check (exact): the raw 32-bit integers, and the floats, since
 * (float)(r + 1) * 2^-32 is one correctly rounded conversion and an exact
 * power-of-two scaling on both sides. */
#include <stdlib.h>
#include "workloads/wl_common.h"

#define DIMS 3
#define BITS 32

/* Sobol direction numbers, 32-bit, for dimension 0 (van der Corput),
 * 1 (x + 1) and 2 (x^2 + x + 1, m = 1, 3). */
static void sobol_table(uint32_t t[DIMS][BITS])
{
    for (unsigned b = 0; b < BITS; b++)
        t[0][b] = 1u << (31 - b);
    t[1][0] = 1u << 31;
    for (unsigned b = 1; b < BITS; b++)
        t[1][b] = t[1][b - 1] ^ (t[1][b - 1] >> 1);
    t[2][0] = 1u << 31;
    t[2][1] = 3u << 30;
    for (unsigned b = 2; b < BITS; b++)
        t[2][b] = t[2][b - 1] ^ t[2][b - 2] ^ (t[2][b - 2] >> 2);
}

static int quasirandom_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                           uint64_t seed, struct wl_report *rep)
{
    unsigned n = wl_pick(size, 3001, 30011, 130003);
    unsigned nblocks = wl_pick(size, 8, 32, 64);
    size_t total = (size_t)DIMS * n, bytes = total * 4;
    uint32_t table[DIMS][BITS];
    uint32_t *raw = malloc(bytes), *rraw = malloc(bytes);
    float *out = malloc(bytes), *rout = malloc(bytes);
    ls_dptr dout = 0, draw = 0, dtab = 0;
    size_t tab_bytes = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!raw || !rraw || !out || !rout) {
        wl_fail(rep, "quasirandom: host allocation failed");
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    uint32_t start = wl_rng_below(&rng, 1000);
    sobol_table(table);
    for (unsigned d = 0; d < DIMS; d++)
        for (unsigned p = 0; p < n; p++) {
            uint32_t r = 0, data = start + p;
            for (unsigned b = 0; data; b++, data >>= 1)
                if (data & 1)
                    r ^= table[d][b];
            rraw[d * n + p] = r;
            rout[d * n + p] = (float)(r + 1u) * (1.0f / 4294967296.0f);
        }
    st = ls_module_symbol(gpu, mod, "c_dir", &dtab, &tab_bytes);
    if (st != LS_OK) {
        wl_fail(rep, "symbol c_dir: %s: %s", ls_status_name(st), ls_gpu_error(gpu));
        goto out;
    }
    if (tab_bytes != sizeof table) {
        st = LS_ERR_INVALID;
        wl_fail(rep, "symbol c_dir has %zu bytes, want %zu", tab_bytes, sizeof table);
        goto out;
    }
    if ((st = ls_memcpy_htod(gpu, dtab, table, sizeof table)) != LS_OK) {
        wl_fail(rep, "writing c_dir: %s: %s", ls_status_name(st), ls_gpu_error(gpu));
        goto out;
    }
    if ((st = wl_upload(gpu, rep, "out", &dout, NULL, bytes)) ||
        (st = wl_upload(gpu, rep, "raw", &draw, NULL, bytes)))
        goto out;
    void *args[] = { &dout, &draw, &start, &n };
    ls_dim3 block = { 64, DIMS, 1 }, grid = { nblocks, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "quasirandom", grid, block, 0, args)) ||
        (st = wl_download(gpu, rep, "raw", raw, draw, bytes)) ||
        (st = wl_download(gpu, rep, "out", out, dout, bytes)))
        goto out;
    if (wl_check_u32(rep, "raw", raw, rraw, total))
        wl_check_f32(rep, "points", out, rout, total, 0.0, 0.0);
out:
    ls_free(gpu, dout);
    ls_free(gpu, draw);
    free(raw);
    free(rraw);
    free(out);
    free(rout);
    return (int)st;
}

const struct workload wl_def_quasirandom = { "quasirandom", "divergent",
    "Sobol points from a __constant__ direction table, divergent bit loops",
    quasirandom_run };
