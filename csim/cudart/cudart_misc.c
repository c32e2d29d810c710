/* The CUDA calls programs make around their work that have little to do
 * on one in-order simulated device: limits (printf FIFO and device heap
 * sizes are the config keys printf_fifo_size and malloc_heap_size),
 * cache and shared-memory configurations (the split is a config key),
 * stream priorities and flags, stream callbacks, pointer attributes,
 * managed-memory hints (the pages are shared already), stream-ordered
 * allocation (immediate), pitched 3-D allocation and memsets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/cudart_int.h"
#include "api/api_int.h"

enum { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2,
       cudaLimitDevRuntimeSyncDepth = 3, cudaLimitDevRuntimePendingLaunchCount = 4,
       cudaLimitMaxL2FetchGranularity = 5, cudaLimitPersistingL2CacheSize = 6 };
enum { cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2,
       cudaMemoryTypeManaged = 3 };

struct cudaPointerAttributes {
    int type;                   /* enum cudaMemoryType */
    int device;
    void *devicePointer, *hostPointer;
    long reserved[8];
};
struct cudaMemLocation { int type, id; };
typedef void (*cudaStreamCallback_t)(cudaStream_t s, cudaError_t status, void *user);

CUDART_API cudaError_t cudaDeviceSetLimit(int limit, size_t value);
CUDART_API cudaError_t cudaDeviceGetLimit(size_t *value, int limit);
CUDART_API cudaError_t cudaDeviceSetCacheConfig(int cfg);
CUDART_API cudaError_t cudaDeviceGetCacheConfig(int *cfg);
CUDART_API cudaError_t cudaDeviceSetSharedMemConfig(int cfg);
CUDART_API cudaError_t cudaDeviceGetSharedMemConfig(int *cfg);
CUDART_API cudaError_t cudaFuncSetSharedMemConfig(const void *fn, int cfg);
CUDART_API cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest);
CUDART_API cudaError_t cudaChooseDevice(int *dev, const struct cudaDeviceProp *p);
CUDART_API cudaError_t cudaDeviceCanAccessPeer(int *can, int dev, int peer);
CUDART_API cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags);
CUDART_API cudaError_t cudaStreamGetPriority(cudaStream_t s, int *prio);
CUDART_API cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb,
                                             void *user, unsigned flags);
CUDART_API cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a,
                                                const void *p);
CUDART_API cudaError_t cudaMemPrefetchAsync(const void *p, size_t n,
                                            struct cudaMemLocation loc, unsigned flags,
                                            cudaStream_t s);
CUDART_API cudaError_t cudaMemAdvise(const void *p, size_t n, int advice,
                                     struct cudaMemLocation loc);
CUDART_API cudaError_t cudaStreamAttachMemAsync(cudaStream_t s, void *p, size_t n,
                                                unsigned flags);
CUDART_API cudaError_t cudaMalloc3D(struct cudaPitchedPtr *p, struct cudaExtent e);
CUDART_API cudaError_t cudaMemset3D(struct cudaPitchedPtr p, int v, struct cudaExtent e);
CUDART_API cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr p, int v,
                                         struct cudaExtent e, cudaStream_t s);
CUDART_API cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int v, size_t w, size_t h,
                                         cudaStream_t s);
/* the calls of cudart_mem.c these build on */
CUDART_API cudaError_t cudaMalloc(void **p, size_t n);
CUDART_API cudaError_t cudaFree(void *p);
CUDART_API cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t w, size_t h);
CUDART_API cudaError_t cudaMemset2D(void *p, size_t pitch, int v, size_t w, size_t h);

cudaError_t cudaDeviceSetLimit(int limit, size_t value)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    switch (limit) {
    case cudaLimitPrintfFifoSize:
        api_set_dev_limits(rt->gpu, (int64_t)value, -1);
        return cudaSuccess;
    case cudaLimitMallocHeapSize:
        api_set_dev_limits(rt->gpu, -1, (int64_t)value);
        return cudaSuccess;
    case cudaLimitStackSize:    /* each thread's stack is sized from the PTX */
    case cudaLimitDevRuntimeSyncDepth:
    case cudaLimitDevRuntimePendingLaunchCount:
    case cudaLimitMaxL2FetchGranularity:
    case cudaLimitPersistingL2CacheSize:
        rt->limits[limit] = value;
        return cudaSuccess;
    default:
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaDeviceSetLimit", "limit %d",
                           limit);
    }
}

cudaError_t cudaDeviceGetLimit(size_t *value, int limit)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!value || limit < cudaLimitStackSize || limit > cudaLimitPersistingL2CacheSize)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaDeviceGetLimit", "limit %d",
                           limit);
    struct api_device dv;
    api_device_info(rt->gpu, &dv);
    const struct api_device *c = &dv;
    static const size_t dflt[7] = { 1024, 0, 0, 2, 2048, 32, 0 };  /* CUDA's defaults */
    *value = limit == cudaLimitPrintfFifoSize ? (size_t)c->printf_fifo_size
             : limit == cudaLimitMallocHeapSize ? (size_t)c->malloc_heap_size
             : rt->limits[limit] ? rt->limits[limit] : dflt[limit];
    return cudaSuccess;
}

/* A configuration the model takes from its config keys: accepted. */
static cudaError_t accept(int v, int lo, int hi, const char *fn)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (v < lo || v > hi)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "value %d", v);
    return cudaSuccess;
}

static cudaError_t answer(int *out, int v, const char *fn)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!out)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "null pointer");
    *out = v;
    return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(int cfg)
{
    return accept(cfg, 0, 3, "cudaDeviceSetCacheConfig");   /* the split: l1d_size */
}

cudaError_t cudaDeviceGetCacheConfig(int *cfg)
{
    return answer(cfg, 0, "cudaDeviceGetCacheConfig");      /* cudaFuncCachePreferNone */
}

cudaError_t cudaDeviceSetSharedMemConfig(int cfg)
{
    return accept(cfg, 0, 2, "cudaDeviceSetSharedMemConfig");
}

cudaError_t cudaDeviceGetSharedMemConfig(int *cfg)
{
    return answer(cfg, 1, "cudaDeviceGetSharedMemConfig");  /* four-byte banks */
}

cudaError_t cudaFuncSetSharedMemConfig(const void *fn, int cfg)
{
    (void)fn;
    return accept(cfg, 0, 2, "cudaFuncSetSharedMemConfig");
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (least)                  /* no priorities: CUDA answers 0, 0 */
        *least = 0;
    if (greatest)
        *greatest = 0;
    return cudaSuccess;
}

cudaError_t cudaChooseDevice(int *dev, const struct cudaDeviceProp *p)
{
    (void)p;
    return answer(dev, 0, "cudaChooseDevice");
}

cudaError_t cudaDeviceCanAccessPeer(int *can, int dev, int peer)
{
    (void)dev; (void)peer;      /* one device: no peer */
    return answer(can, 0, "cudaDeviceCanAccessPeer");
}

cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!cudart_stream_of(rt, s, "cudaStreamGetFlags"))
        return cudaErrorInvalidResourceHandle;
    if (!flags)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaStreamGetFlags", "null pointer");
    *flags = 0;
    return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t s, int *prio)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!cudart_stream_of(rt, s, "cudaStreamGetPriority"))
        return cudaErrorInvalidResourceHandle;
    return answer(prio, 0, "cudaStreamGetPriority");
}

/* The callback runs now, after everything issued before it (in order). */
cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void *user,
                                  unsigned flags)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!cb || flags)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaStreamAddCallback",
                           cb ? "flags must be 0" : "null callback");
    if (!cudart_stream_of(rt, s, "cudaStreamAddCallback"))
        return cudaErrorInvalidResourceHandle;
    if (cudart_capturing(rt, s))
        return cudart_fail(rt, cudaErrorStreamCaptureUnsupported, "cudaStreamAddCallback",
                           "not allowed while capturing (CUDA's rule; use "
                           "cudaLaunchHostFunc)");
    cb(s, rt->sticky, user);
    return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *p)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!a)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaPointerGetAttributes",
                           "null pointer");
    memset(a, 0, sizeof *a);
    uint64_t u = (uint64_t)(uintptr_t)p;
    void *hd = cudart_host_dev(rt, p);
    if (hd) {                   /* mapped pinned or registered host memory */
        a->type = cudaMemoryTypeHost;
        a->hostPointer = (void *)(uintptr_t)p;
        a->devicePointer = hd;
    } else if (cudart_managed_find(rt, u, 1)) {
        a->type = cudaMemoryTypeManaged;
        a->devicePointer = a->hostPointer = (void *)(uintptr_t)p;
    } else if (api_mem_is_device(rt->gpu, u, 1)) {
        a->type = cudaMemoryTypeDevice;
        a->devicePointer = (void *)(uintptr_t)p;
    } else {
        a->type = cudaMemoryTypeUnregistered;   /* plain host memory */
        a->device = -2;
    }
    return cudaSuccess;
}

/* Hints about managed memory: its pages are the device's already. */
cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, struct cudaMemLocation loc,
                                 unsigned flags, cudaStream_t s)
{
    (void)loc; (void)flags; (void)s;
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (n && !cudart_managed_find(rt, (uint64_t)(uintptr_t)p, n))
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaMemPrefetchAsync", "%p (%zu "
                           "bytes) is not managed memory", p, n);
    return cudaSuccess;
}

/* Which streams may touch managed memory: every launch runs alone, so
 * any attachment holds. */
cudaError_t cudaStreamAttachMemAsync(cudaStream_t s, void *p, size_t n, unsigned flags)
{
    (void)s;
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (flags != 0x01 && flags != 0x02 && flags != 0x04)    /* Global, Host, Single */
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaStreamAttachMemAsync",
                           "flags 0x%x", flags);
    if (!cudart_managed_find(rt, (uint64_t)(uintptr_t)p, n ? n : 1))
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaStreamAttachMemAsync", "%p "
                           "(%zu bytes) is not managed memory", p, n);
    return cudaSuccess;
}

cudaError_t cudaMemAdvise(const void *p, size_t n, int advice, struct cudaMemLocation loc)
{
    (void)advice; (void)loc;
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (n && !cudart_managed_find(rt, (uint64_t)(uintptr_t)p, n))
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaMemAdvise", "%p (%zu bytes) "
                           "is not managed memory", p, n);
    return cudaSuccess;
}

/* Stream-ordered allocation: the stream's earlier work is done, so the
 * allocation is immediate. */
cudaError_t cudaMalloc3D(struct cudaPitchedPtr *p, struct cudaExtent e3)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!p)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaMalloc3D", "null pointer");
    size_t pitch = 0, rows = (e3.height ? e3.height : 1) * (e3.depth ? e3.depth : 1);
    void *d = NULL;
    if ((e = cudaMallocPitch(&d, &pitch, e3.width, rows)) != cudaSuccess)
        return e;
    *p = (struct cudaPitchedPtr){ d, pitch, e3.width, e3.height };
    return cudaSuccess;
}

cudaError_t cudaMemset3D(struct cudaPitchedPtr p, int v, struct cudaExtent e3)
{
    size_t slices = e3.depth ? e3.depth : 1, rows = e3.height ? e3.height : 1;
    for (size_t z = 0; z < slices; z++) {
        cudaError_t e = cudaMemset2D((char *)p.ptr + z * p.pitch * p.ysize, p.pitch, v,
                                     e3.width, rows);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr p, int v, struct cudaExtent e3,
                              cudaStream_t s)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (rt && cudart_capturing(rt, s) && e3.depth <= 1)
        return cudart_capture_memset(rt, s, p.ptr, p.pitch, v, e3.width,
                                     e3.height ? e3.height : 1);
    if (rt && cudart_capturing(rt, s))
        return cudart_fail(rt, cudaErrorStreamCaptureUnsupported, "cudaMemset3DAsync",
                           "a captured memset of several slices is not modelled");
    return cudaMemset3D(p, v, e3);
}

cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int v, size_t w, size_t h,
                              cudaStream_t s)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (rt && cudart_capturing(rt, s))
        return cudart_capture_memset(rt, s, p, pitch, v, w, h);
    return cudaMemset2D(p, pitch, v, w, h);
}
