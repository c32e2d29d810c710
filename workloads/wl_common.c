/* Workload infrastructure shared by every host driver: lookup by name, the
 * launch wrapper that accumulates statistics, and the seeded input RNG. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "workloads/wl_common.h"

const struct workload *wl_find(const char *name)
{
    if (!name)
        return NULL;
    for (const struct workload *const *w = wl_registry; *w; w++)
        if (strcmp((*w)->name, name) == 0)
            return *w;
    return NULL;
}

/* The warp width a launch ran with, recovered from its own figures
 * (simd_util = thread_insts / (warp_insts * warp_size)); 32 if unknown. */
static unsigned warp_size_of(const ls_stats *s)
{
    if (s->warp_insts == 0 || s->simd_util <= 0.0)
        return 32;
    double w = (double)s->thread_insts / ((double)s->warp_insts * s->simd_util);
    unsigned ws = (unsigned)(w + 0.5);
    return ws ? ws : 32;
}

ls_status wl_launch(ls_gpu *gpu, ls_module *mod, struct wl_report *rep,
                    const char *kernel, ls_dim3 grid, ls_dim3 block,
                    size_t dyn_shared, void **args)
{
    ls_stats s;
    memset(&s, 0, sizeof s);
    ls_status st = ls_launch(gpu, mod, kernel, grid, block, dyn_shared, args, &s);
    if (rep) {
        if (st == LS_OK) {
            ls_stats_add(&rep->total, &s, warp_size_of(&s));
            rep->nlaunches++;
        } else {
            rep->pass = 0;
            if (!rep->msg[0])
                snprintf(rep->msg, sizeof rep->msg, "launch %s: %s: %s",
                         kernel, ls_status_name(st), ls_gpu_error(gpu));
        }
        if (rep->on_launch)
            rep->on_launch(rep->user, kernel, st, &s);
    }
    return st;
}

void wl_rng_seed(struct wl_rng *r, uint64_t seed)
{
    r->s = seed;
}

uint64_t wl_rng_next(struct wl_rng *r)
{
    /* splitmix64 */
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

float wl_rng_float(struct wl_rng *r, float lo, float hi)
{
    /* 24 random bits: exactly representable, uniform in [0, 1) */
    float u = (float)(wl_rng_next(r) >> 40) * (1.0f / 16777216.0f);
    float v = lo + (hi - lo) * u;
    return v < hi ? v : lo;   /* rounding can reach hi; keep [lo, hi) */
}

uint32_t wl_rng_below(struct wl_rng *r, uint32_t n)
{
    if (n == 0)
        return 0;
    /* 64x32 multiply-high: bias below 2^-32, deterministic */
    return (uint32_t)(((wl_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

int wl_fail(struct wl_report *rep, const char *fmt, ...)
{
    rep->pass = 0;
    if (!rep->msg[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(rep->msg, sizeof rep->msg, fmt, ap);
        va_end(ap);
    }
    return 0;
}

ls_status wl_upload(ls_gpu *gpu, struct wl_report *rep, const char *what,
                    ls_dptr *d, const void *host, size_t bytes)
{
    ls_status st = ls_malloc(gpu, d, bytes);
    if (st != LS_OK) {
        *d = 0;
        wl_fail(rep, "allocating %s (%zu bytes): %s: %s", what, bytes,
                ls_status_name(st), ls_gpu_error(gpu));
        return st;
    }
    st = host ? ls_memcpy_htod(gpu, *d, host, bytes) : ls_memset(gpu, *d, 0, bytes);
    if (st != LS_OK)
        wl_fail(rep, "copying %s to the device: %s: %s", what,
                ls_status_name(st), ls_gpu_error(gpu));
    return st;
}

ls_status wl_download(ls_gpu *gpu, struct wl_report *rep, const char *what,
                      void *host, ls_dptr d, size_t bytes)
{
    ls_status st = ls_memcpy_dtoh(gpu, host, d, bytes);
    if (st != LS_OK)
        wl_fail(rep, "copying %s from the device: %s: %s", what,
                ls_status_name(st), ls_gpu_error(gpu));
    return st;
}

int wl_check_u32(struct wl_report *rep, const char *what, const uint32_t *got,
                 const uint32_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            return wl_fail(rep, "%s[%zu] = %u (0x%08x), want %u (0x%08x)", what,
                           i, got[i], got[i], want[i], want[i]);
    return 1;
}

int wl_check_i32(struct wl_report *rep, const char *what, const int *got,
                 const int *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            return wl_fail(rep, "%s[%zu] = %d, want %d", what, i, got[i], want[i]);
    return 1;
}

int wl_check_f32(struct wl_report *rep, const char *what, const float *got,
                 const float *want, size_t n, double rel_tol, double abs_tol)
{
    for (size_t i = 0; i < n; i++) {
        double g = got[i], w = want[i];
        double tol = abs_tol + rel_tol * fabs(w);
        if (!(fabs(g - w) <= tol))
            return wl_fail(rep, "%s[%zu] = %.9g, want %.9g (tolerance %.3g)",
                           what, i, g, w, tol);
    }
    return 1;
}

int wl_check_f32_bounds(struct wl_report *rep, const char *what, const float *got,
                        const double *want, const double *bound, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double g = got[i];
        if (!(fabs(g - want[i]) <= bound[i]))
            return wl_fail(rep, "%s[%zu] = %.9g, want %.9g (bound %.3g)", what, i,
                           g, want[i], bound[i]);
    }
    return 1;
}

int wl_check_f32_moved(struct wl_report *rep, const char *what, const float *got,
                       const float *want, const float *initial, size_t n,
                       double min_move)
{
    if (!wl_check_f32(rep, what, got, want, n, 0.0, 0.0))
        return 0;
    double moved = 0.0;
    for (size_t i = 0; i < n; i++)
        moved = fmax(moved, fabs((double)want[i] - initial[i]));
    if (!(moved > min_move))
        return wl_fail(rep, "%s moved only %.3g (a real run moves it more than %.3g): "
                       "the check would not see a missing iteration", what, moved,
                       min_move);
    return 1;
}

void wl_grid3d_faces(struct wl_rng *r, float *g, unsigned nx, unsigned ny,
                     unsigned nz, float face_hi, float inner_hi)
{
    for (unsigned k = 0; k < nz; k++)
        for (unsigned j = 0; j < ny; j++)
            for (unsigned i = 0; i < nx; i++) {
                int face = i == 0 || i == nx - 1 || j == 0 || j == ny - 1 ||
                           k == 0 || k == nz - 1;
                g[((size_t)k * ny + j) * nx + i] =
                    wl_rng_float(r, 0.0f, face ? face_hi : inner_hi);
            }
}

unsigned wl_pick(enum wl_size size, unsigned small, unsigned dflt,
                 unsigned large)
{
    return size == WL_SMALL ? small : size == WL_DEFAULT ? dflt : large;
}

unsigned wl_pick_xl(enum wl_size size, unsigned small, unsigned dflt,
                    unsigned large, unsigned xlarge)
{
    return size == WL_XLARGE ? xlarge : wl_pick(size, small, dflt, large);
}

int wl_has_xlarge(const char *name)
{
    for (const char *const *n = wl_xlarge_names; *n; n++)
        if (!strcmp(name, *n))
            return 1;
    return 0;
}
