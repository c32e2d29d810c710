/* backprop host driver: one forward pass (layerforward) and one weight
 * update (adjust_weights) of a Rodinia-style input -> hidden layer with
 * hid = 16 hidden units and in = 16 * nblocks inputs; grid (1, nblocks),
 * blocks of 16x16 threads.
 *
 * Check (bit exact, tolerance 0): the CPU reference replays the kernels'
 * float operations in the same order (the products, the 4-step shared-memory
 * tree, nvcc's fma.rn.f32 in the update), each correctly rounded on both
 * sides, so the results must agree to the last bit.
 * Checked: the reduced weight tiles and partial sums after layerforward,
 * and the weights and momentum terms after adjust_weights. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define HID 16
#define HEIGHT 16
#define ETA 0.3f
#define MOMENTUM 0.3f

/* layerforward on the CPU: w is reduced in place like the kernel does. */
static void forward_ref(const float *input, float *w, float *partial,
                        unsigned nblocks)
{
    const unsigned stride = HID + 1;
    float wm[HEIGHT][HID];
    for (unsigned by = 0; by < nblocks; by++) {
        for (unsigned ty = 0; ty < HEIGHT; ty++)
            for (unsigned tx = 0; tx < HID; tx++) {
                unsigned k = HEIGHT * by + ty + 1;
                wm[ty][tx] = w[k * stride + tx + 1] * input[k];
            }
        for (unsigned i = 1; i <= 4; i++) {
            unsigned p = 1u << i;
            for (unsigned ty = 0; ty < HEIGHT; ty += p)
                for (unsigned tx = 0; tx < HID; tx++)
                    wm[ty][tx] = wm[ty][tx] + wm[ty + p / 2][tx];
        }
        for (unsigned ty = 0; ty < HEIGHT; ty++)
            for (unsigned tx = 0; tx < HID; tx++)
                w[(HEIGHT * by + ty + 1) * stride + tx + 1] = wm[ty][tx];
        for (unsigned j = 0; j < HID; j++)
            partial[by * HID + j] = wm[0][j];
    }
}

static void adjust_ref(const float *delta, const float *ly, float *w,
                       float *oldw, unsigned nblocks)
{
    const unsigned stride = HID + 1;
    for (unsigned k = 1; k <= HEIGHT * nblocks; k++)
        for (unsigned j = 1; j <= HID; j++) {
            unsigned idx = k * stride + j;
            float dw = fmaf(ETA * delta[j], ly[k], MOMENTUM * oldw[idx]);
            w[idx] += dw;
            oldw[idx] = dw;
        }
    for (unsigned j = 1; j <= HID; j++) {
        float db = fmaf(delta[j], ETA, MOMENTUM * oldw[j]);
        w[j] += db;
        oldw[j] = db;
    }
}

static int backprop_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                        uint64_t seed, struct wl_report *rep)
{
    unsigned nblocks = wl_pick(size, 32, 512, 3072);
    unsigned in = HEIGHT * nblocks, hid = HID;
    size_t nw = (size_t)(in + 1) * (hid + 1), np = (size_t)nblocks * hid;
    float *input = malloc((in + 1) * sizeof(float));
    float *w = malloc(nw * 4), *oldw = malloc(nw * 4), *rw = malloc(nw * 4),
          *roldw = malloc(nw * 4), *part = malloc(np * 4), *rpart = malloc(np * 4);
    float delta[HID + 1];
    ls_dptr dinput = 0, dw = 0, doldw = 0, dpart = 0, ddelta = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!input || !w || !oldw || !rw || !roldw || !part || !rpart) {
        wl_fail(rep, "backprop: host allocation failed");
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (unsigned k = 0; k <= in; k++)
        input[k] = wl_rng_float(&rng, 0.0f, 1.0f);
    for (size_t i = 0; i < nw; i++) {
        rw[i] = wl_rng_float(&rng, -0.5f, 0.5f);
        roldw[i] = wl_rng_float(&rng, -0.05f, 0.05f);
    }
    for (unsigned j = 0; j <= hid; j++)
        delta[j] = wl_rng_float(&rng, -0.1f, 0.1f);
    if ((st = wl_upload(gpu, rep, "input", &dinput, input, (in + 1) * 4)) ||
        (st = wl_upload(gpu, rep, "weights", &dw, rw, nw * 4)) ||
        (st = wl_upload(gpu, rep, "oldw", &doldw, roldw, nw * 4)) ||
        (st = wl_upload(gpu, rep, "partial", &dpart, NULL, np * 4)) ||
        (st = wl_upload(gpu, rep, "delta", &ddelta, delta, sizeof delta)))
        goto out;

    int in_i = (int)in, hid_i = (int)hid;
    ls_dim3 block = { 16, 16, 1 }, grid = { 1, nblocks, 1 };
    void *args1[] = { &dinput, &dw, &dpart, &in_i, &hid_i };
    if ((st = wl_launch(gpu, mod, rep, "layerforward", grid, block, 0, args1)) ||
        (st = wl_download(gpu, rep, "partial", part, dpart, np * 4)) ||
        (st = wl_download(gpu, rep, "weights", w, dw, nw * 4)))
        goto out;
    forward_ref(input, rw, rpart, nblocks);
    if (!wl_check_f32(rep, "partial", part, rpart, np, 0.0, 0.0) ||
        !wl_check_f32(rep, "weights after layerforward", w, rw, nw, 0.0, 0.0))
        goto out;

    void *args2[] = { &ddelta, &hid_i, &dinput, &in_i, &dw, &doldw };
    if ((st = wl_launch(gpu, mod, rep, "adjust_weights", grid, block, 0, args2)) ||
        (st = wl_download(gpu, rep, "weights", w, dw, nw * 4)) ||
        (st = wl_download(gpu, rep, "oldw", oldw, doldw, nw * 4)))
        goto out;
    adjust_ref(delta, input, rw, roldw, nblocks);
    if (wl_check_f32(rep, "weights after adjust_weights", w, rw, nw, 0.0, 0.0))
        wl_check_f32(rep, "oldw after adjust_weights", oldw, roldw, nw, 0.0, 0.0);
out:
    ls_free(gpu, dinput);
    ls_free(gpu, dw);
    ls_free(gpu, doldw);
    ls_free(gpu, dpart);
    ls_free(gpu, ddelta);
    free(input);
    free(w);
    free(oldw);
    free(rw);
    free(roldw);
    free(part);
    free(rpart);
    return (int)st;
}

const struct workload wl_def_backprop = { "backprop", "divergent",
    "Rodinia-style layerforward tree reduction + weight adjust, 2 launches",
    backprop_run };
