/* ray host driver: Whitted-style ray tracing of a seeded sphere scene,
 * one thread per pixel (16 x 8 CTAs; w and h are not multiples of the
 * tile, so edge CTAs are partial). ray.cu gives the exact shading rules:
 * nearest hit over every sphere, a shadow ray that stops at the first
 * occluder, up to 6 segments with mirror reflection while the throughput
 * stays >= 0.02. Scene: sphere 0 is a ground sphere (radius 1000, top at
 * y = -1, reflectivity 0.25); the others are seeded in front of the
 * camera (x in [-4, 4), y in [-0.6, 2.4), z in [-13, -3), radius in
 * [0.3, 1.3)), two in five matte, the rest with reflectivity in
 * [0.3, 0.9); the light is seeded above and behind the camera.
 * Check: bit exact. The kernel uses only __fadd_rn/__fsub_rn/__fmul_rn/
 * __fdiv_rn/__fsqrt_rn (add.rn, sub.rn, mul.rn, div.rn, sqrt.rn: nothing
 * for nvcc to contract), and the CPU reference performs the same
 * correctly rounded operations in the same order, so every pixel's colour
 * (wl_check_f32 with no tolerance) and segment count (wl_check_i32) must
 * be identical. The output starts as NaN, and the driver also requires
 * that the scene has shadowed pixels, pixels with several segments and
 * sky pixels, so that each part of the shading is exercised. */
#include <math.h>
#include <stdlib.h>
#include "workloads/wl_common.h"

#define RAY_BOUNCES 6
#define RAY_EPS 1e-3f
#define RAY_MIN_TP 0.02f
#define RAY_AMBIENT 0.1f

static float ray_dot(float ax, float ay, float az, float bx, float by, float bz)
{
    return ((ax * bx) + (ay * by)) + (az * bz);
}

static float ray_hit(const float *s, float ox, float oy, float oz, float dx,
                     float dy, float dz)
{
    float px = ox - s[0], py = oy - s[1], pz = oz - s[2];
    float b = ray_dot(px, py, pz, dx, dy, dz);
    float c = ray_dot(px, py, pz, px, py, pz) - s[3] * s[3];
    float disc = b * b - c;
    if (disc <= 0.0f)
        return -1.0f;
    float q = sqrtf(disc);
    float t = -b - q;
    if (t <= RAY_EPS)
        t = -b + q;
    return t > RAY_EPS ? t : -1.0f;
}

/* The kernel's shading of pixel (x, y); returns the segment count and
 * sets bit 0 of *seen when a surface point facing the light was occluded,
 * bit 1 when the path ended in the sky. */
static int ray_cpu(const float *sph, int ns, const float *lp, int w, int h,
                   int x, int y, float *rgb, int *seen)
{
    float aspect = (float)w / (float)h;
    float u = ((2.0f * ((float)x + 0.5f)) / (float)w - 1.0f) * aspect;
    float v = 1.0f - (2.0f * ((float)y + 0.5f)) / (float)h;
    float inv = 1.0f / sqrtf(ray_dot(u, v, -1.0f, u, v, -1.0f));
    float dx = u * inv, dy = v * inv, dz = -inv;
    float ox = 0.0f, oy = 0.0f, oz = 0.0f;
    float cr = 0.0f, cg = 0.0f, cb = 0.0f, tp = 1.0f;
    int seg = 0;
    while (seg < RAY_BOUNCES) {
        seg++;
        float tbest = 3.0e38f;
        int hit = -1;
        for (int s = 0; s < ns; s++) {
            float t = ray_hit(sph + 8 * s, ox, oy, oz, dx, dy, dz);
            if (t > 0.0f && t < tbest) {
                tbest = t;
                hit = s;
            }
        }
        if (hit < 0) {
            float k = 0.5f * (dy + 1.0f);
            cr = cr + tp * (0.5f + 0.2f * k);
            cg = cg + tp * (0.6f + 0.2f * k);
            cb = cb + tp * (0.8f + 0.2f * k);
            *seen |= 2;
            break;
        }
        const float *s = sph + 8 * hit;
        float px = ox + tbest * dx, py = oy + tbest * dy, pz = oz + tbest * dz;
        float nx = (px - s[0]) / s[3], ny = (py - s[1]) / s[3],
              nz = (pz - s[2]) / s[3];
        float ax = lp[0] - px, ay = lp[1] - py, az = lp[2] - pz;
        float dist = sqrtf(ray_dot(ax, ay, az, ax, ay, az));
        ax = ax / dist;
        ay = ay / dist;
        az = az / dist;
        float lit = ray_dot(nx, ny, nz, ax, ay, az);
        if (lit > 0.0f) {
            for (int o = 0; o < ns; o++) {
                float t = ray_hit(sph + 8 * o, px, py, pz, ax, ay, az);
                if (t > 0.0f && t < dist) {
                    lit = 0.0f;
                    *seen |= 1;
                    break;
                }
            }
        } else {
            lit = 0.0f;
        }
        float refl = s[7];
        float k = (tp * (1.0f - refl)) * (RAY_AMBIENT + lit);
        cr = cr + k * s[4];
        cg = cg + k * s[5];
        cb = cb + k * s[6];
        tp = tp * refl;
        if (tp < RAY_MIN_TP)
            break;
        float dn2 = 2.0f * ray_dot(dx, dy, dz, nx, ny, nz);
        dx = dx - dn2 * nx;
        dy = dy - dn2 * ny;
        dz = dz - dn2 * nz;
        ox = px;
        oy = py;
        oz = pz;
    }
    rgb[0] = cr;
    rgb[1] = cg;
    rgb[2] = cb;
    return seg;
}

static int ray_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                   uint64_t seed, struct wl_report *rep)
{
    int w = (int)wl_pick(size, 44, 150, 300);
    int h = (int)wl_pick(size, 30, 100, 190);
    int ns = (int)wl_pick(size, 9, 12, 16);
    size_t npix = (size_t)w * h;
    float *sph = malloc((size_t)ns * 8 * sizeof(float));
    float *got = malloc(npix * 3 * sizeof(float)), *want = malloc(npix * 3 * sizeof(float));
    int *gseg = malloc(npix * sizeof(int)), *wseg = malloc(npix * sizeof(int));
    ls_dptr dsph = 0, dout = 0, dseg = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!sph || !got || !want || !gseg || !wseg) {
        wl_fail(rep, "ray: host allocation failed (%d x %d pixels)", w, h);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    float g[8] = { 0.0f, -1001.0f, -8.0f, 1000.0f, 0.55f, 0.55f, 0.5f, 0.25f };
    for (int k = 0; k < 8; k++)
        sph[k] = g[k];
    for (int s = 1; s < ns; s++) {
        float *p = sph + 8 * s;
        p[0] = wl_rng_float(&rng, -4.0f, 4.0f);
        p[1] = wl_rng_float(&rng, -0.6f, 2.4f);
        p[2] = wl_rng_float(&rng, -13.0f, -3.0f);
        p[3] = wl_rng_float(&rng, 0.3f, 1.3f);
        for (int c = 4; c < 7; c++)
            p[c] = wl_rng_float(&rng, 0.2f, 1.0f);
        p[7] = wl_rng_below(&rng, 5) < 2 ? 0.0f : wl_rng_float(&rng, 0.3f, 0.9f);
    }
    float lp[3] = { wl_rng_float(&rng, -6.0f, 6.0f), wl_rng_float(&rng, 6.0f, 10.0f),
                    wl_rng_float(&rng, 0.0f, 4.0f) };
    for (size_t i = 0; i < npix * 3; i++)
        got[i] = NAN;
    if ((st = wl_upload(gpu, rep, "spheres", &dsph, sph, (size_t)ns * 8 * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "out", &dout, got, npix * 3 * sizeof(float))) ||
        (st = wl_upload(gpu, rep, "nseg", &dseg, NULL, npix * sizeof(int))))
        goto out;
    void *args[] = { &dsph, &ns, &lp[0], &lp[1], &lp[2], &w, &h, &dout, &dseg };
    ls_dim3 grid = { (unsigned)(w + 15) / 16, (unsigned)(h + 7) / 8, 1 },
            block = { 16, 8, 1 };
    if ((st = wl_launch(gpu, mod, rep, "ray_trace", grid, block, 0, args)))
        goto out;
    if ((st = wl_download(gpu, rep, "out", got, dout, npix * 3 * sizeof(float))) ||
        (st = wl_download(gpu, rep, "nseg", gseg, dseg, npix * sizeof(int))))
        goto out;
    int shadowed = 0, multi = 0, sky = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t i = (size_t)y * w + x;
            int seen = 0;
            wseg[i] = ray_cpu(sph, ns, lp, w, h, x, y, want + 3 * i, &seen);
            shadowed += seen & 1;
            sky += (seen >> 1) & 1;
            multi += wseg[i] > 2;
        }
    if (!shadowed || !multi || !sky) {
        wl_fail(rep, "ray: the scene has %d shadowed, %d multi-bounce and %d sky "
                "pixels; each must occur (generator bug)", shadowed, multi, sky);
        goto out;
    }
    if (wl_check_f32(rep, "rgb", got, want, npix * 3, 0, 0))
        wl_check_i32(rep, "nseg", gseg, wseg, npix);
out:
    ls_free(gpu, dsph);
    ls_free(gpu, dout);
    ls_free(gpu, dseg);
    free(sph);
    free(got);
    free(want);
    free(gseg);
    free(wseg);
    return (int)st;
}

const struct workload wl_def_ray = { "ray", "divergent",
    "Whitted ray tracing of seeded spheres: shadows, reflections, one thread per pixel",
    ray_run };
