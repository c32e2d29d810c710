/* sobflt host driver: Sobel edge magnitude min(|Gx| + |Gy|, 255) of a
 * seeded w x h 8-bit image (w, h not multiples of the 16x16 tile, so the
 * right and bottom CTAs are partial); the one-pixel image border is 0.
 * The image is a smooth gradient with seeded rectangles and discs of
 * random grey levels painted over it, plus +-8 of seeded noise, so the
 * output has flat regions, strong edges and saturated pixels.
 * Check: every output byte exactly equals the CPU filter (integer
 * arithmetic on both sides). */
#include <stdlib.h>
#include "workloads/wl_common.h"

/* Paints the seeded test image into img (w x h bytes). */
static void sobflt_image(unsigned char *img, unsigned w, unsigned h,
                         struct wl_rng *rng)
{
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++)
            img[(size_t)y * w + x] =
                (unsigned char)(48 + x * 96 / w + y * 64 / h);
    unsigned nshapes = 4 + w * h / 1500;
    for (unsigned s = 0; s < nshapes; s++) {
        unsigned cx = wl_rng_below(rng, w), cy = wl_rng_below(rng, h);
        unsigned rad = 2 + wl_rng_below(rng, 20);
        unsigned char grey = (unsigned char)wl_rng_below(rng, 256);
        int disc = wl_rng_below(rng, 2);
        for (unsigned y = cy > rad ? cy - rad : 0; y <= cy + rad && y < h; y++)
            for (unsigned x = cx > rad ? cx - rad : 0; x <= cx + rad && x < w;
                 x++) {
                int dx = (int)x - (int)cx, dy = (int)y - (int)cy;
                if (!disc || dx * dx + dy * dy <= (int)(rad * rad))
                    img[(size_t)y * w + x] = grey;
            }
    }
    for (size_t i = 0; i < (size_t)w * h; i++) {
        int v = img[i] + (int)wl_rng_below(rng, 17) - 8;
        img[i] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

/* CPU Sobel filter, the same formula as sobel_u8. */
static void sobflt_cpu(const unsigned char *img, unsigned char *out,
                       unsigned w, unsigned h)
{
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            const unsigned char *p = img + (size_t)y * w + x;
            int r = 0;
            if (x > 0 && y > 0 && x < w - 1 && y < h - 1) {
                int sx = (p[-(long)w + 1] + 2 * p[1] + p[w + 1]) -
                         (p[-(long)w - 1] + 2 * p[-1] + p[w - 1]);
                int sy = (p[w - 1] + 2 * p[w] + p[w + 1]) -
                         (p[-(long)w - 1] + 2 * p[-(long)w] + p[-(long)w + 1]);
                r = abs(sx) + abs(sy);
                r = r > 255 ? 255 : r;
            }
            out[(size_t)y * w + x] = (unsigned char)r;
        }
}

static int sobflt_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                      uint64_t seed, struct wl_report *rep)
{
    unsigned w = wl_pick_xl(size, 150, 500, 1000, 2000);
    unsigned h = wl_pick_xl(size, 110, 350, 900, 1800);
    size_t n = (size_t)w * h;
    unsigned char *img = malloc(n), *out = malloc(n), *want = malloc(n);
    ls_dptr dimg = 0, dout = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!img || !out || !want) {
        wl_fail(rep, "sobflt: host allocation of 3 x %zu bytes failed", n);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    sobflt_image(img, w, h, &rng);
    if ((st = wl_upload(gpu, rep, "image", &dimg, img, n)) ||
        (st = wl_upload(gpu, rep, "edges", &dout, NULL, n)))
        goto out;
    int wi = (int)w, hi = (int)h;
    void *args[] = { &dimg, &dout, &wi, &hi };
    ls_dim3 block = { 16, 16, 1 }, grid = { (w + 15) / 16, (h + 15) / 16, 1 };
    if ((st = wl_launch(gpu, mod, rep, "sobel_u8", grid, block, 0, args)) ||
        (st = wl_download(gpu, rep, "edges", out, dout, n)))
        goto out;
    sobflt_cpu(img, want, w, h);
    for (size_t i = 0; i < n; i++)
        if (out[i] != want[i]) {
            wl_fail(rep, "edges[%zu] (x %zu, y %zu) = %u, want %u", i, i % w,
                    i / w, out[i], want[i]);
            break;
        }
out:
    ls_free(gpu, dimg);
    ls_free(gpu, dout);
    free(img);
    free(out);
    free(want);
    return (int)st;
}

const struct workload wl_def_sobflt = { "sobflt", "divergent",
    "Sobel edge filter on an 8-bit image, shared tiles, border pixels diverge",
    sobflt_run };
