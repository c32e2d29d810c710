/* matmul host driver: C = A * B with 16x16 shared-memory tiles. Sizes are
 * deliberately not multiples of 16 in every dimension so the guarded tile
 * loads and the guarded store diverge at the edges.
 *
 * Check (bit exact, tolerance 0): the kernel accumulates one fma.rn.f32 per
 * k in increasing k (nvcc contracts `sum += a*b`; out-of-range tile entries
 * add fma(0, 0, sum) = sum), so the reference uses fmaf in the same order
 * and every element must match to the last bit. Even one fma rounded
 * toward zero instead of to nearest fails this check. */
#include <math.h>
#include <stdlib.h>
#include "workloads/wl_common.h"

static void matmul_ref(const float *A, const float *B, float *C, unsigned M,
                       unsigned N, unsigned K)
{
    for (unsigned r = 0; r < M; r++)
        for (unsigned c = 0; c < N; c++) {
            float sum = 0.0f;
            for (unsigned k = 0; k < K; k++)
                sum = fmaf(A[r * K + k], B[k * N + c], sum);
            C[r * N + c] = sum;
        }
}

static int matmul_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                      uint64_t seed, struct wl_report *rep)
{
    unsigned M = wl_pick(size, 48, 128, 240);
    unsigned N = wl_pick(size, 56, 144, 256);
    unsigned K = wl_pick(size, 72, 152, 264);
    size_t ba = (size_t)M * K * 4, bb = (size_t)K * N * 4, bc = (size_t)M * N * 4;
    float *A = malloc(ba), *B = malloc(bb), *C = malloc(bc), *ref = malloc(bc);
    ls_dptr dA = 0, dB = 0, dC = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!A || !B || !C || !ref) {
        wl_fail(rep, "matmul: host allocation failed");
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (size_t i = 0; i < (size_t)M * K; i++)
        A[i] = wl_rng_float(&rng, -1.0f, 1.0f);
    for (size_t i = 0; i < (size_t)K * N; i++)
        B[i] = wl_rng_float(&rng, -1.0f, 1.0f);
    matmul_ref(A, B, ref, M, N, K);
    if ((st = wl_upload(gpu, rep, "A", &dA, A, ba)) ||
        (st = wl_upload(gpu, rep, "B", &dB, B, bb)) ||
        (st = wl_upload(gpu, rep, "C", &dC, NULL, bc)))
        goto out;
    int m = (int)M, n = (int)N, k = (int)K;
    void *args[] = { &dA, &dB, &dC, &m, &n, &k };
    ls_dim3 block = { 16, 16, 1 }, grid = { (N + 15) / 16, (M + 15) / 16, 1 };
    if ((st = wl_launch(gpu, mod, rep, "matmul", grid, block, 0, args)) ||
        (st = wl_download(gpu, rep, "C", C, dC, bc)))
        goto out;
    wl_check_f32(rep, "C", C, ref, (size_t)M * N, 0.0, 0.0);
out:
    ls_free(gpu, dA);
    ls_free(gpu, dB);
    ls_free(gpu, dC);
    free(A);
    free(B);
    free(C);
    free(ref);
    return (int)st;
}

const struct workload wl_def_matmul = { "matmul", "regular",
    "C = A * B, 16x16 tiles in shared memory", matmul_run };
