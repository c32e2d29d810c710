/* CUDA arrays over device memory: cudaMallocArray, cudaMalloc3DArray and
 * cudaMallocMipmappedArray allocate the texels densely (docs/textures.md:
 * x fastest, then y, then z or layer; mip levels one after another), the
 * array copies move rows between that layout and pitched host or device
 * memory, and texture and surface objects over arrays are the model's
 * LS_RES_ARRAY / LS_RES_MIPMAPPED resources (ls_texture_create,
 * ls_surface_create). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/cudart_int.h"
#include "api/api_int.h"

#define ARRAY_MAGIC 0x41525259u
#define MIPMAP_MAGIC 0x4d49504du
#define cudaArrayLayered 0x01u
#define cudaArraySurfaceLoadStore 0x02u
#define cudaArrayCubemap 0x04u
#define cudaArrayTextureGather 0x08u
#define MAX_LEVELS 16u

/* One CUDA array: its texels at base, dense. A level of a mipmapped
 * array is one too (owner = the mipmapped array, not freed alone). */
struct cudart_array {
    unsigned magic;
    ls_dptr base;
    struct cudaChannelFormatDesc desc;
    size_t elem;                /* bytes per texel                        */
    struct cudaExtent ext;      /* as CUDA gives it: height 0 = 1-D,
                                   depth 0 = 2-D, depth = layers when
                                   layered or a cubemap                   */
    unsigned flags;             /* cudaArray* flags                       */
    struct cudart_mipmap *owner;
};

struct cudart_mipmap {
    unsigned magic;
    ls_dptr base;
    struct cudaChannelFormatDesc desc;
    size_t elem;
    struct cudaExtent ext;      /* level 0 */
    unsigned flags, levels;
    size_t off[MAX_LEVELS];     /* byte offset of each level              */
    struct cudart_array lvl[MAX_LEVELS];
};

CUDART_API cudaError_t cudaMallocArray(cudaArray_t *a, const struct cudaChannelFormatDesc *d,
                                       size_t w, size_t h, unsigned flags);
CUDART_API cudaError_t cudaMalloc3DArray(cudaArray_t *a, const struct cudaChannelFormatDesc *d,
                                         struct cudaExtent ext, unsigned flags);
CUDART_API cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *m,
    const struct cudaChannelFormatDesc *d, struct cudaExtent ext, unsigned levels,
    unsigned flags);
CUDART_API cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *a, cudaMipmappedArray_t m,
                                                  unsigned level);
CUDART_API cudaError_t cudaFreeArray(cudaArray_t a);
CUDART_API cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t m);
CUDART_API cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *d,
                                        struct cudaExtent *ext, unsigned *flags,
                                        cudaArray_t a);
CUDART_API cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *d, cudaArray_t a);
CUDART_API cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
CUDART_API cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t s);
CUDART_API cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wo, size_t ho,
    const void *src, size_t spitch, size_t w, size_t h, int kind);
CUDART_API cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wo, size_t ho,
    const void *src, size_t spitch, size_t w, size_t h, int kind, cudaStream_t s);
CUDART_API cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_t src,
    size_t wo, size_t ho, size_t w, size_t h, int kind);
CUDART_API cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_t src,
    size_t wo, size_t ho, size_t w, size_t h, int kind, cudaStream_t s);
CUDART_API cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wod, size_t hod,
    cudaArray_t src, size_t wos, size_t hos, size_t w, size_t h, int kind);
CUDART_API cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wo, size_t ho,
                                         const void *src, size_t n, int kind);
CUDART_API cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wo, size_t ho,
                                              const void *src, size_t n, int kind,
                                              cudaStream_t s);
CUDART_API cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_t src, size_t wo,
                                           size_t ho, size_t n, int kind);
CUDART_API cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_t src, size_t wo,
                                                size_t ho, size_t n, int kind,
                                                cudaStream_t s);
CUDART_API cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *s,
                                               const struct cudaResourceDesc *r);
CUDART_API cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t s);

static size_t maxz(size_t v) { return v ? v : 1; }

/* Bytes of one level of extent e (rows, slices or layers of w texels). */
static size_t level_bytes(struct cudaExtent e, size_t elem)
{
    return e.width * maxz(e.height) * maxz(e.depth) * elem;
}

/* Checks a channel format and flags for an array; elem = texel bytes. */
static cudaError_t check_format(struct cudart_rt *rt, const struct cudaChannelFormatDesc *d,
                                unsigned flags, size_t *elem, const char *fn)
{
    if (!d)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "null channel descriptor");
    int c[4] = { d->x, d->y, d->z, d->w }, n = 0, bits = c[0];
    for (int i = 0; i < 4; i++)
        if (c[i]) {
            if (c[i] != bits || i != n)
                bits = -1;
            n++;
        }
    if (d->f < cudaChannelFormatKindSigned || d->f > cudaChannelFormatKindFloat ||
        bits <= 0 || (n != 1 && n != 2 && n != 4) ||
        (bits != 8 && bits != 16 && bits != 32) ||
        (d->f == cudaChannelFormatKindFloat && bits == 8))
        return cudart_fail(rt, cudaErrorInvalidChannelDescriptor, fn, "channel format "
                           "(%d, %d, %d, %d, kind %d): arrays hold 1, 2 or 4 channels of "
                           "8, 16 or 32 bits (float: 16 or 32), as CUDA's", d->x, d->y,
                           d->z, d->w, d->f);
    if (flags & ~(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap |
                  cudaArrayTextureGather))
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "array flags 0x%x (layered, "
                           "surface load/store, cubemap, texture gather are modelled)",
                           flags);
    *elem = (size_t)(n * bits / 8);
    return cudaSuccess;
}

/* Checks extent e against flags as cudaMalloc3DArray does. */
static cudaError_t check_extent(struct cudart_rt *rt, struct cudaExtent e, unsigned flags,
                                const char *fn)
{
    const char *why = NULL;
    if (!e.width || (e.depth && !e.height && !(flags & cudaArrayLayered)))
        why = "width, then height, then depth";
    else if ((flags & cudaArrayCubemap) &&
             (e.width != e.height || !e.depth || e.depth % 6 ||
              (!(flags & cudaArrayLayered) && e.depth != 6)))
        why = "a cubemap has square faces and depth 6 (layered: a multiple of 6)";
    else if ((flags & cudaArrayLayered) && !e.depth)
        why = "a layered array's depth is its layer count (at least 1)";
    if (why)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "extent %zu x %zu x %zu, flags "
                           "0x%x: %s", e.width, e.height, e.depth, flags, why);
    return cudaSuccess;
}

static cudaError_t alloc_bytes(struct cudart_rt *rt, size_t n, ls_dptr *d, const char *fn)
{
    ls_status st = ls_malloc(rt->gpu, d, n);
    if (st != LS_OK)
        return cudart_fail(rt, st == LS_ERR_NOMEM ? cudaErrorMemoryAllocation
                                                  : cudaErrorInvalidValue, fn, "%s: %s",
                           ls_status_name(st), ls_gpu_error(rt->gpu));
    ls_memset(rt->gpu, *d, 0, n);       /* array storage starts defined */
    return cudaSuccess;
}

cudaError_t cudaMalloc3DArray(cudaArray_t *a, const struct cudaChannelFormatDesc *d,
                              struct cudaExtent ext, unsigned flags)
{
    static const char fn[] = "cudaMalloc3DArray";
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (rt->sticky != cudaSuccess)
        return rt->sticky;
    size_t elem;
    if (!a)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "null pointer");
    if ((e = check_format(rt, d, flags, &elem, fn)) != cudaSuccess ||
        (e = check_extent(rt, ext, flags, fn)) != cudaSuccess)
        return e;
    struct cudart_array *x = calloc(1, sizeof *x);
    if (!x)
        return cudart_fail(rt, cudaErrorMemoryAllocation, fn, "out of host memory");
    if ((e = alloc_bytes(rt, level_bytes(ext, elem), &x->base, fn)) != cudaSuccess) {
        free(x);
        return e;
    }
    x->magic = ARRAY_MAGIC;
    x->desc = *d;
    x->elem = elem;
    x->ext = ext;
    x->flags = flags;
    *a = x;
    return cudaSuccess;
}

cudaError_t cudaMallocArray(cudaArray_t *a, const struct cudaChannelFormatDesc *d,
                            size_t w, size_t h, unsigned flags)
{
    return cudaMalloc3DArray(a, d, (struct cudaExtent){ w, h, 0 }, flags);
}

cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *m,
                                     const struct cudaChannelFormatDesc *d,
                                     struct cudaExtent ext, unsigned levels, unsigned flags)
{
    static const char fn[] = "cudaMallocMipmappedArray";
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (rt->sticky != cudaSuccess)
        return rt->sticky;
    size_t elem;
    if (!m)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "null pointer");
    if ((e = check_format(rt, d, flags, &elem, fn)) != cudaSuccess ||
        (e = check_extent(rt, ext, flags, fn)) != cudaSuccess)
        return e;
    size_t big = ext.width > ext.height ? ext.width : ext.height;
    bool slices = ext.depth && !(flags & (cudaArrayLayered | cudaArrayCubemap));
    if (slices && ext.depth > big)
        big = ext.depth;
    unsigned most = 1;
    while ((big >> most) > 0 && most < MAX_LEVELS)
        most++;
    if (levels == 0 || levels > most)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "%u levels for a %zu x %zu x "
                           "%zu array (1 to %u)", levels, ext.width, ext.height,
                           ext.depth, most);
    struct cudart_mipmap *x = calloc(1, sizeof *x);
    if (!x)
        return cudart_fail(rt, cudaErrorMemoryAllocation, fn, "out of host memory");
    size_t total = 0;
    for (unsigned k = 0; k < levels; k++) {
        struct cudaExtent le = { maxz(ext.width >> k), ext.height ? maxz(ext.height >> k) : 0,
                                 slices ? maxz(ext.depth >> k) : ext.depth };
        x->off[k] = total;
        x->lvl[k] = (struct cudart_array){ ARRAY_MAGIC, 0, *d, elem, le, flags, x };
        total += level_bytes(le, elem);
    }
    if ((e = alloc_bytes(rt, total, &x->base, fn)) != cudaSuccess) {
        free(x);
        return e;
    }
    for (unsigned k = 0; k < levels; k++)
        x->lvl[k].base = x->base + x->off[k];
    x->magic = MIPMAP_MAGIC;
    x->desc = *d;
    x->elem = elem;
    x->ext = ext;
    x->flags = flags;
    x->levels = levels;
    *m = x;
    return cudaSuccess;
}

static bool array_ok(cudaArray_t a)
{
    return a && a->magic == ARRAY_MAGIC;
}

cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *a, cudaMipmappedArray_t m,
                                       unsigned level)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!a || !m || m->magic != MIPMAP_MAGIC || level >= m->levels)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGetMipmappedArrayLevel",
                           "level %u of %p (%u levels)", level, (void *)m,
                           m && m->magic == MIPMAP_MAGIC ? m->levels : 0);
    *a = &m->lvl[level];
    return cudaSuccess;
}

cudaError_t cudaFreeArray(cudaArray_t a)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!a)
        return cudaSuccess;
    if (!array_ok(a) || a->owner)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaFreeArray", "%p is not an "
                           "array from cudaMallocArray/cudaMalloc3DArray", (void *)a);
    ls_free(rt->gpu, a->base);
    a->magic = 0;
    free(a);
    return cudaSuccess;
}

cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t m)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!m)
        return cudaSuccess;
    if (m->magic != MIPMAP_MAGIC)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaFreeMipmappedArray", "%p is "
                           "not a mipmapped array", (void *)m);
    ls_free(rt->gpu, m->base);
    m->magic = 0;
    free(m);
    return cudaSuccess;
}

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *d, struct cudaExtent *ext,
                             unsigned *flags, cudaArray_t a)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!array_ok(a))
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaArrayGetInfo", "%p is not "
                           "an array", (void *)a);
    if (d)
        *d = a->desc;
    if (ext)
        *ext = a->ext;
    if (flags)
        *flags = a->flags;
    return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *d, cudaArray_t a)
{
    return cudaArrayGetInfo(d, NULL, NULL, a);
}

/* ---- copies: rows between an array's dense layout and pitched memory ---- */

/* One side of a 3-D copy: an array (element positions) or pitched memory
 * (byte x, rows of `pitch`, slices of ysize rows). */
struct side {
    cudaArray_t arr;
    char *p;                    /* pitched memory                          */
    size_t pitch, ysize;
    size_t x, y, z;             /* start: bytes (array: x in elements)    */
    int dev;                    /* lives in device memory                  */
};

/* Address of row (y, z) of s at its start column. */
static char *row_of(const struct side *s, size_t y, size_t z)
{
    if (s->arr) {
        const struct cudart_array *a = s->arr;
        size_t rowb = a->ext.width * a->elem, rows = maxz(a->ext.height);
        return (char *)(uintptr_t)(a->base + ((s->z + z) * rows + s->y + y) * rowb +
                                   s->x * a->elem);
    }
    return s->p + ((s->z + z) * s->ysize + s->y + y) * s->pitch + s->x;
}

/* Whether a pointer side of a copy of kind lives on the device. */
static int ptr_dev(struct cudart_rt *rt, const void *p, int kind, bool src)
{
    if (kind == cudaMemcpyDefault)
        return api_mem_is_device(rt->gpu, (uint64_t)(uintptr_t)p, 1);
    if (src)
        return kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    return kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
}

/* Copies a width-bytes x h x d box from s to t, checking the arrays'
 * bounds. */
static cudaError_t copy_box(struct cudart_rt *rt, struct side *t, struct side *s,
                            size_t wb, size_t h, size_t d, const char *fn)
{
    const struct side *sd[2] = { t, s };
    for (int i = 0; i < 2; i++) {
        const struct cudart_array *a = sd[i]->arr;
        if (!a)
            continue;
        size_t rowb = a->ext.width * a->elem;
        if (sd[i]->x * a->elem + wb > rowb || sd[i]->y + h > maxz(a->ext.height) ||
            sd[i]->z + d > maxz(a->ext.depth) || wb % a->elem)
            return cudart_fail(rt, cudaErrorInvalidValue, fn, "%zu bytes x %zu x %zu at "
                               "(%zu, %zu, %zu) do not fit the %s array of %zu x %zu x %zu "
                               "texels of %zu bytes", wb, h, d, sd[i]->x, sd[i]->y,
                               sd[i]->z, i ? "source" : "destination", a->ext.width,
                               a->ext.height, a->ext.depth, a->elem);
    }
    if ((!t->arr && t->pitch < wb && h > 1) || (!s->arr && s->pitch < wb && h > 1))
        return cudart_fail(rt, cudaErrorInvalidPitchValue, fn, "width %zu bytes is over "
                           "a pitch", wb);
    int kind = (s->dev ? 2 : 0) | (t->dev ? 1 : 0);    /* H2H, H2D, D2H, D2D */
    for (size_t z = 0; z < d; z++)
        for (size_t y = 0; y < h; y++) {
            cudaError_t e = cudart_copy(rt, row_of(t, y, z), row_of(s, y, z), wb, kind, fn);
            if (e != cudaSuccess)
                return e;
        }
    return cudaSuccess;
}

static cudaError_t memcpy3d(const struct cudaMemcpy3DParms *p, const char *fn)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (rt->sticky != cudaSuccess)
        return rt->sticky;
    return cudart_memcpy3d(rt, p, fn);
}

cudaError_t cudart_memcpy3d(struct cudart_rt *rt, const struct cudaMemcpy3DParms *p,
                            const char *fn)
{
    if (!p)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "null parameters");
    if ((p->srcArray && !array_ok(p->srcArray)) || (p->dstArray && !array_ok(p->dstArray)) ||
        (!p->srcArray && !p->srcPtr.ptr) || (!p->dstArray && !p->dstPtr.ptr) ||
        p->kind < cudaMemcpyHostToHost || p->kind > cudaMemcpyDefault)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "a source and a destination "
                           "(array or pitched pointer) and a copy kind are needed");
    struct side s = { p->srcArray, p->srcPtr.ptr, p->srcPtr.pitch, p->srcPtr.ysize,
                      p->srcPos.x, p->srcPos.y, p->srcPos.z, 1 };
    struct side t = { p->dstArray, p->dstPtr.ptr, p->dstPtr.pitch, p->dstPtr.ysize,
                      p->dstPos.x, p->dstPos.y, p->dstPos.z, 1 };
    if (!s.arr)
        s.dev = ptr_dev(rt, s.p, p->kind, true);
    if (!t.arr)
        t.dev = ptr_dev(rt, t.p, p->kind, false);
    /* the extent's width is in elements when an array takes part, else bytes */
    const struct cudart_array *a = s.arr ? s.arr : t.arr;
    size_t wb = a ? p->extent.width * a->elem : p->extent.width;
    if (s.arr && t.arr && s.arr->elem != t.arr->elem)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "arrays of %zu- and %zu-byte "
                           "texels", s.arr->elem, t.arr->elem);
    return copy_box(rt, &t, &s, wb, maxz(p->extent.height), maxz(p->extent.depth), fn);
}

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    return memcpy3d(p, "cudaMemcpy3D");
}

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t s)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (rt && p && cudart_capturing(rt, s))
        return cudart_capture_copy(rt, s, NULL, NULL, 0, p->kind, p);
    return memcpy3d(p, "cudaMemcpy3DAsync");
}

/* A 2-D copy with at least one array side (x offsets in bytes). */
static cudaError_t copy2d_array(cudaArray_t da, size_t dx, size_t dy, void *dp,
                                size_t dpitch, cudaArray_t sa, size_t sx, size_t sy,
                                const void *sp, size_t spitch, size_t wb, size_t h,
                                int kind, const char *fn)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (rt->sticky != cudaSuccess)
        return rt->sticky;
    if ((da && !array_ok(da)) || (sa && !array_ok(sa)) || (!da && !dp) || (!sa && !sp))
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "a bad array or null pointer");
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
        return cudart_fail(rt, cudaErrorInvalidMemcpyDirection, fn, "kind %d", kind);
    if ((da && dx % da->elem) || (sa && sx % sa->elem))
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "an array offset of %zu bytes "
                           "is not a whole texel", da ? dx : sx);
    struct side t = { da, dp, dpitch, 1, da ? dx / da->elem : dx, dy, 0, 1 };
    struct side s = { sa, (char *)(uintptr_t)sp, spitch, 1, sa ? sx / sa->elem : sx, sy,
                      0, 1 };
    if (!s.arr)
        s.dev = ptr_dev(rt, sp, kind, true);
    if (!t.arr)
        t.dev = ptr_dev(rt, dp, kind, false);
    return copy_box(rt, &t, &s, wb, h, 1, fn);
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wo, size_t ho, const void *src,
                                size_t spitch, size_t w, size_t h, int kind)
{
    return copy2d_array(dst, wo, ho, NULL, 0, NULL, 0, 0, src, spitch, w, h, kind,
                        "cudaMemcpy2DToArray");
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wo, size_t ho,
                                     const void *src, size_t spitch, size_t w, size_t h,
                                     int kind, cudaStream_t s)
{
    (void)s;
    return copy2d_array(dst, wo, ho, NULL, 0, NULL, 0, 0, src, spitch, w, h, kind,
                        "cudaMemcpy2DToArrayAsync");
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_t src, size_t wo,
                                  size_t ho, size_t w, size_t h, int kind)
{
    return copy2d_array(NULL, 0, 0, dst, dpitch, src, wo, ho, NULL, 0, w, h, kind,
                        "cudaMemcpy2DFromArray");
}

cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_t src,
                                       size_t wo, size_t ho, size_t w, size_t h, int kind,
                                       cudaStream_t s)
{
    (void)s;
    return copy2d_array(NULL, 0, 0, dst, dpitch, src, wo, ho, NULL, 0, w, h, kind,
                        "cudaMemcpy2DFromArrayAsync");
}

cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wod, size_t hod,
                                     cudaArray_t src, size_t wos, size_t hos, size_t w,
                                     size_t h, int kind)
{
    return copy2d_array(dst, wod, hod, NULL, 0, src, wos, hos, NULL, 0, w, h, kind,
                        "cudaMemcpy2DArrayToArray");
}

/* The deprecated linear copies: n bytes from row ho, byte wo, running on
 * into the next rows of the array's dense storage. */
static cudaError_t copy_linear(cudaArray_t a, size_t wo, size_t ho, void *host,
                               size_t n, int kind, bool to, const char *fn)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (rt->sticky != cudaSuccess)
        return rt->sticky;
    if (!array_ok(a) || (!host && n))
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "a bad array or null pointer");
    size_t rowb = a->ext.width * a->elem;
    size_t total = level_bytes(a->ext, a->elem), off = ho * rowb + wo;
    if (wo > rowb || off > total || n > total - off)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "%zu bytes at row %zu byte %zu "
                           "pass the end of a %zu-byte array", n, ho, wo, total);
    char *ap = (char *)(uintptr_t)(a->base + off);
    int dev = ptr_dev(rt, host, kind, to);   /* the pointer is the source of a copy to the array */
    return to ? cudart_copy(rt, ap, host, n, dev ? 3 : 1, fn)
              : cudart_copy(rt, host, ap, n, dev ? 3 : 2, fn);
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wo, size_t ho, const void *src,
                              size_t n, int kind)
{
    return copy_linear(dst, wo, ho, (void *)(uintptr_t)src, n, kind, true,
                       "cudaMemcpyToArray");
}

cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wo, size_t ho, const void *src,
                                   size_t n, int kind, cudaStream_t s)
{
    (void)s;
    return copy_linear(dst, wo, ho, (void *)(uintptr_t)src, n, kind, true,
                       "cudaMemcpyToArrayAsync");
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_t src, size_t wo, size_t ho, size_t n,
                                int kind)
{
    return copy_linear(src, wo, ho, dst, n, kind, false, "cudaMemcpyFromArray");
}

cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_t src, size_t wo, size_t ho,
                                     size_t n, int kind, cudaStream_t s)
{
    (void)s;
    return copy_linear(src, wo, ho, dst, n, kind, false, "cudaMemcpyFromArrayAsync");
}

/* ---- resources over arrays (texture and surface objects) ---- */

static void array_res(const struct cudart_array *a, ls_resource_desc *r)
{
    r->type = LS_RES_ARRAY;
    r->base = a->base;
    r->format = (ls_channel_desc){ a->desc.x, a->desc.y, a->desc.z, a->desc.w,
                                   (ls_channel_kind)a->desc.f };
    r->width = a->ext.width;
    r->height = a->ext.height;
    bool layers = a->flags & (cudaArrayLayered | cudaArrayCubemap);
    r->depth = layers ? 0 : a->ext.depth;
    r->layers = layers ? a->ext.depth : 0;
    r->flags = (a->flags & cudaArrayLayered ? LS_ARRAY_LAYERED : 0) |
               (a->flags & cudaArrayCubemap ? LS_ARRAY_CUBEMAP : 0) |
               (a->flags & cudaArraySurfaceLoadStore ? LS_ARRAY_SURFACE : 0);
}

cudaError_t cudart_array_resource(struct cudart_rt *rt, const struct cudaResourceDesc *r,
                                  ls_resource_desc *res, const char *fn)
{
    if (r->resType == cudaResourceTypeArray) {
        cudaArray_t a = r->res.array.array;
        if (!array_ok(a))
            return cudart_fail(rt, cudaErrorInvalidValue, fn, "%p is not a CUDA array",
                               (void *)a);
        array_res(a, res);
        return cudaSuccess;
    }
    cudaMipmappedArray_t m = r->res.mipmap.mipmap;
    if (!m || m->magic != MIPMAP_MAGIC)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "%p is not a mipmapped array",
                           (void *)m);
    struct cudart_array l0 = m->lvl[0];
    l0.ext = m->ext;
    array_res(&l0, res);
    res->type = LS_RES_MIPMAPPED;
    res->levels = m->levels;
    return cudaSuccess;
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *s, const struct cudaResourceDesc *r)
{
    static const char fn[] = "cudaCreateSurfaceObject";
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!s || !r)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "null pointer");
    if (r->resType != cudaResourceTypeArray)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "resource type %d: surfaces "
                           "are over CUDA arrays (cudaResourceTypeArray)", r->resType);
    ls_resource_desc res;
    memset(&res, 0, sizeof res);
    if ((e = cudart_array_resource(rt, r, &res, fn)) != cudaSuccess)
        return e;
    if (!(r->res.array.array->flags & cudaArraySurfaceLoadStore))
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "the array was not allocated "
                           "with cudaArraySurfaceLoadStore");
    uint64_t h = 0;
    ls_status st = ls_surface_create(rt->gpu, &res, &h);
    if (st != LS_OK)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "%s: %s", ls_status_name(st),
                           ls_gpu_error(rt->gpu));
    *s = h;
    return cudaSuccess;
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t s)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    ls_status st = ls_texture_destroy(rt->gpu, s);
    return st == LS_OK ? cudaSuccess
                       : cudart_fail(rt, cudaErrorInvalidValue, "cudaDestroySurfaceObject",
                                     "%s", ls_gpu_error(rt->gpu));
}
