/* CUDA device queries (filled from the simulated GPU's configuration),
 * errors, versions, streams and events (executed in order: every call
 * completes before it returns), and texture objects (ls_texture_create). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/cudart_int.h"
#include "api/api_int.h"

#define CUDART_VERSION_NUM 13000
#define STREAM_MAGIC 0x5354524du
#define EVENT_MAGIC 0x45564e54u
#define cudaEventDisableTiming 0x02u

struct cudart_stream { unsigned magic; };
struct cudart_event { unsigned magic, flags; int recorded; double ms; };

CUDART_API cudaError_t cudaGetDeviceCount(int *n);
CUDART_API cudaError_t cudaSetDevice(int dev);
CUDART_API cudaError_t cudaGetDevice(int *dev);
CUDART_API cudaError_t cudaSetDeviceFlags(unsigned flags);
CUDART_API cudaError_t cudaGetDeviceFlags(unsigned *flags);
CUDART_API cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int dev);
CUDART_API cudaError_t cudaDeviceGetAttribute(int *v, int attr, int dev);
CUDART_API cudaError_t cudaDeviceSynchronize(void);
CUDART_API cudaError_t cudaDeviceReset(void);
CUDART_API cudaError_t cudaGetLastError(void);
CUDART_API cudaError_t cudaPeekAtLastError(void);
CUDART_API const char *cudaGetErrorString(cudaError_t e);
CUDART_API const char *cudaGetErrorName(cudaError_t e);
CUDART_API cudaError_t cudaDriverGetVersion(int *v);
CUDART_API cudaError_t cudaRuntimeGetVersion(int *v);
CUDART_API cudaError_t cudaProfilerStart(void);
CUDART_API cudaError_t cudaProfilerStop(void);
CUDART_API cudaError_t cudaStreamCreate(cudaStream_t *s);
CUDART_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
CUDART_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags,
                                                    int prio);
CUDART_API cudaError_t cudaStreamDestroy(cudaStream_t s);
CUDART_API cudaError_t cudaStreamSynchronize(cudaStream_t s);
CUDART_API cudaError_t cudaStreamQuery(cudaStream_t s);
CUDART_API cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags);
CUDART_API cudaError_t cudaEventCreate(cudaEvent_t *e);
CUDART_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
CUDART_API cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
CUDART_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s,
                                                unsigned flags);
CUDART_API cudaError_t cudaEventSynchronize(cudaEvent_t e);
CUDART_API cudaError_t cudaEventQuery(cudaEvent_t e);
CUDART_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
CUDART_API cudaError_t cudaEventDestroy(cudaEvent_t e);
CUDART_API struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                              int f);
CUDART_API cudaError_t cudaCreateTextureObject(cudaTextureObject_t *t,
    const struct cudaResourceDesc *r, const struct cudaTextureDesc *td,
    const void *view);
CUDART_API cudaError_t cudaDestroyTextureObject(cudaTextureObject_t t);

/* ---- device ---- */

cudaError_t cudaGetDeviceCount(int *n)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    if (!n)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGetDeviceCount", "null pointer");
    *n = 1;
    return cudaSuccess;
}

static cudaError_t check_dev(struct cudart_rt *rt, int dev, const char *fn)
{
    return dev == 0 ? cudaSuccess
                    : cudart_fail(rt, cudaErrorInvalidDevice, fn, "device %d: the "
                                  "simulator is one device, 0", dev);
}

cudaError_t cudaSetDevice(int dev)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    return rt ? check_dev(rt, dev, "cudaSetDevice") : e;
}

cudaError_t cudaGetDevice(int *dev)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    if (!dev)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGetDevice", "null pointer");
    *dev = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDeviceFlags(unsigned flags)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    (void)flags;                /* scheduling hints: nothing to schedule */
    return rt ? cudaSuccess : e;
}

cudaError_t cudaGetDeviceFlags(unsigned *flags)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    if (flags)
        *flags = 0;
    return cudaSuccess;
}

/* The value of attribute attr of the simulated GPU, or -1 if not known. */
static long long attr_value(struct cudart_rt *rt, int attr)
{
    struct api_device dv;
    api_device_info(rt->gpu, &dv);
    const struct api_device *c = &dv;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: return c->max_cta_threads;
    case cudaDevAttrMaxBlockDimX: case cudaDevAttrMaxBlockDimY: return 1024;
    case cudaDevAttrMaxBlockDimZ: return 64;
    case cudaDevAttrMaxGridDimX: return 2147483647;
    case cudaDevAttrMaxGridDimY: case cudaDevAttrMaxGridDimZ: return 65535;
    case cudaDevAttrMaxSharedMemoryPerBlock: return c->max_shared;
    case cudaDevAttrTotalConstantMemory: return 65536;
    case cudaDevAttrWarpSize: return 32;
    case cudaDevAttrMaxRegistersPerBlock: return c->regs_per_sm;
    case cudaDevAttrClockRate: return c->core_clock_mhz * 1000;
    case cudaDevAttrMultiProcessorCount: return c->num_sms;
    case cudaDevAttrMemoryClockRate: return c->dram_clock_mhz * 1000;
    case cudaDevAttrGlobalMemoryBusWidth: return c->dram_bus_bytes * 8;
    case cudaDevAttrL2CacheSize: return -1;
    case cudaDevAttrMaxThreadsPerMultiProcessor: return c->max_threads_per_sm;
    case cudaDevAttrComputeCapabilityMajor: return 7;
    case cudaDevAttrComputeCapabilityMinor: return 5;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: return c->shared_per_sm;
    case cudaDevAttrMaxRegistersPerMultiprocessor: return c->regs_per_sm;
    case cudaDevAttrManagedMemory: return 1;
    case cudaDevAttrMaxBlocksPerMultiprocessor: return c->max_ctas_per_sm;
    /* what the simulated device is not: the answers CUDA gives for a
     * discrete GPU without those features (samples query them through
     * findCudaDevice / gpuGetMaxGflopsDeviceId) */
    case cudaDevAttrMaxPitch: return 2147483647;
    case cudaDevAttrComputeMode: return 0;          /* cudaComputeModeDefault */
    case cudaDevAttrUnifiedAddressing: return 1;
    case cudaDevAttrGpuOverlap: case cudaDevAttrKernelExecTimeout:
    case cudaDevAttrIntegrated: case cudaDevAttrCanMapHostMemory:
    case cudaDevAttrConcurrentKernels:     /* kernels run one at a time */
    case cudaDevAttrEccEnabled: case cudaDevAttrPciBusId: case cudaDevAttrPciDeviceId:
    case cudaDevAttrTccDriver: case cudaDevAttrAsyncEngineCount:
    case cudaDevAttrPciDomainId: case cudaDevAttrConcurrentManagedAccess:
    case cudaDevAttrCooperativeLaunch:     /* no cudaLaunchCooperativeKernel */
        return 0;
    default: return -1;
    }
}

cudaError_t cudaDeviceGetAttribute(int *v, int attr, int dev)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    if ((e = check_dev(rt, dev, "cudaDeviceGetAttribute")) != cudaSuccess)
        return e;
    long long x = attr_value(rt, attr);
    if (!v || x < 0)
        return cudart_fail(rt, v ? cudaErrorNotSupported : cudaErrorInvalidValue,
                           "cudaDeviceGetAttribute", v ? "attribute %d is not "
                           "modelled (docs/cuda-programs.md lists those that are)"
                           : "null pointer%.0d", attr);
    *v = (int)x;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int dev)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    if ((e = check_dev(rt, dev, "cudaGetDeviceProperties")) != cudaSuccess)
        return e;
    if (!p)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGetDeviceProperties",
                           "null pointer");
    struct api_device dv;
    api_device_info(rt->gpu, &dv);
    const struct api_device *c = &dv;
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "Lockstep simulated GPU (%s, %s mode)",
             rt->cfg.config ? rt->cfg.config : "builtin",
             rt->cfg.mode == LS_MODE_TIMING ? "timing" : "functional");
    p->totalGlobalMem = (size_t)c->mem_capacity;
    p->sharedMemPerBlock = c->max_shared;
    p->regsPerBlock = (int)c->regs_per_sm;
    p->warpSize = 32;
    p->memPitch = (size_t)2147483647;
    p->maxThreadsPerBlock = (int)c->max_cta_threads;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->totalConstMem = 65536;
    p->major = 7;
    p->minor = 5;
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = (int)c->num_sms;
    p->memoryBusWidth = (int)(c->dram_bus_bytes * 8);
    p->maxThreadsPerMultiProcessor = (int)c->max_threads_per_sm;
    p->globalL1CacheSupported = p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = (size_t)c->shared_per_sm;
    p->regsPerMultiprocessor = (int)c->regs_per_sm;
    p->managedMemory = 1;
    p->sharedMemPerBlockOptin = c->max_shared;
    p->maxBlocksPerMultiProcessor = (int)c->max_ctas_per_sm;
    p->unifiedAddressing = 1;
    p->hostNumaId = -1;
    p->deviceNumaId = -1;
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    return rt->sticky;          /* every launch has completed already */
}

cudaError_t cudaDeviceReset(void)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    cudart_report(rt);
    cudart_gpu_reset(rt);       /* the next call creates a fresh GPU */
    return cudaSuccess;
}

cudaError_t cudaGetLastError(void)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    e = rt->sticky != cudaSuccess ? rt->sticky : rt->last;
    rt->last = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    return rt->sticky != cudaSuccess ? rt->sticky : rt->last;
}

static const struct { cudaError_t e; const char *name, *text; } errs[] = {
    { cudaSuccess, "cudaSuccess", "no error" },
    { cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument" },
    { cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory" },
    { cudaErrorInitializationError, "cudaErrorInitializationError",
      "initialization error" },
    { cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
      "invalid configuration argument" },
    { cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument" },
    { cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol" },
    { cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer",
      "invalid device pointer" },
    { cudaErrorInvalidTexture, "cudaErrorInvalidTexture", "invalid texture reference" },
    { cudaErrorInvalidChannelDescriptor, "cudaErrorInvalidChannelDescriptor",
      "invalid channel descriptor" },
    { cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
      "invalid copy direction for memcpy" },
    { cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction",
      "invalid device function" },
    { cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected" },
    { cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal" },
    { cudaErrorInvalidKernelImage, "cudaErrorInvalidKernelImage",
      "device kernel image is invalid" },
    { cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
      "no kernel image is available for execution on the device" },
    { cudaErrorInvalidPtx, "cudaErrorInvalidPtx",
      "a PTX JIT compilation failed" },
    { cudaErrorFileNotFound, "cudaErrorFileNotFound", "file not found" },
    { cudaErrorSharedObjectSymbolNotFound, "cudaErrorSharedObjectSymbolNotFound",
      "shared object symbol not found" },
    { cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle",
      "invalid resource handle" },
    { cudaErrorSymbolNotFound, "cudaErrorSymbolNotFound", "named symbol not found" },
    { cudaErrorNotReady, "cudaErrorNotReady", "device not ready" },
    { cudaErrorIllegalAddress, "cudaErrorIllegalAddress",
      "an illegal memory access was encountered" },
    { cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources",
      "too many resources requested for launch" },
    { cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout",
      "the launch timed out and was terminated" },
    { cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered" },
    { cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure" },
    { cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported" },
    { cudaErrorUnknown, "cudaErrorUnknown", "unknown error" },
};

const char *cudaGetErrorString(cudaError_t e)
{
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++)
        if (errs[i].e == e)
            return errs[i].text;
    return "unrecognized error code";
}

const char *cudaGetErrorName(cudaError_t e)
{
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++)
        if (errs[i].e == e)
            return errs[i].name;
    return "cudaErrorUnknown";
}

cudaError_t cudaDriverGetVersion(int *v)
{
    if (!v)
        return cudaErrorInvalidValue;
    *v = CUDART_VERSION_NUM;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *v)
{
    if (!v)
        return cudaErrorInvalidValue;
    *v = CUDART_VERSION_NUM;
    return cudaSuccess;
}

cudaError_t cudaProfilerStart(void)
{
    return cudaSuccess;         /* every launch is measured anyway */
}

cudaError_t cudaProfilerStop(void)
{
    return cudaSuccess;
}

/* ---- streams: all in order on one queue ---- */

/* 0 (legacy default), cudaStreamLegacy (1), cudaStreamPerThread (2) or a
 * stream this library created. */
static int stream_ok(cudaStream_t s)
{
    return (uintptr_t)s <= 2 || s->magic == STREAM_MAGIC;
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int prio)
{
    (void)flags; (void)prio;
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    if (!s)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaStreamCreate", "null pointer");
    *s = malloc(sizeof **s);
    if (!*s)
        return cudart_fail(rt, cudaErrorMemoryAllocation, "cudaStreamCreate",
                           "out of host memory");
    (*s)->magic = STREAM_MAGIC;
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *s)
{
    return cudaStreamCreateWithPriority(s, 0, 0);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags)
{
    return cudaStreamCreateWithPriority(s, flags, 0);
}

cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    if ((uintptr_t)s <= 2 || s->magic != STREAM_MAGIC)
        return cudart_fail(rt, cudaErrorInvalidResourceHandle, "cudaStreamDestroy",
                           "%p is not a stream created by cudaStreamCreate", (void *)s);
    s->magic = 0;
    free(s);
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    if (!stream_ok(s))
        return cudart_fail(rt, cudaErrorInvalidResourceHandle, "cudaStreamSynchronize",
                           "%p is not a stream", (void *)s);
    return rt->sticky;
}

cudaError_t cudaStreamQuery(cudaStream_t s)
{
    return cudaStreamSynchronize(s);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t ev, unsigned flags)
{
    (void)flags;
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    if (!stream_ok(s) || !ev || ev->magic != EVENT_MAGIC)
        return cudart_fail(rt, cudaErrorInvalidResourceHandle, "cudaStreamWaitEvent",
                           "bad stream or event");
    return cudaSuccess;
}

/* ---- events: simulated time of the launches before them ---- */

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *ev, unsigned flags)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    if (!ev)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaEventCreate", "null pointer");
    *ev = calloc(1, sizeof **ev);
    if (!*ev)
        return cudart_fail(rt, cudaErrorMemoryAllocation, "cudaEventCreate",
                           "out of host memory");
    (*ev)->magic = EVENT_MAGIC;
    (*ev)->flags = flags;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *ev)
{
    return cudaEventCreateWithFlags(ev, 0);
}

static cudaError_t check_event(struct cudart_rt *rt, cudaEvent_t ev, const char *fn)
{
    if (!ev || ev->magic != EVENT_MAGIC)
        return cudart_fail(rt, cudaErrorInvalidResourceHandle, fn,
                           "%p is not an event created by cudaEventCreate", (void *)ev);
    return cudaSuccess;
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t ev, cudaStream_t s, unsigned flags)
{
    (void)flags;
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    if ((e = check_event(rt, ev, "cudaEventRecord")) != cudaSuccess)
        return e;
    if (!stream_ok(s))
        return cudart_fail(rt, cudaErrorInvalidResourceHandle, "cudaEventRecord",
                           "%p is not a stream", (void *)s);
    ev->recorded = 1;
    ev->ms = rt->now_ms;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t s)
{
    return cudaEventRecordWithFlags(ev, s, 0);
}

cudaError_t cudaEventSynchronize(cudaEvent_t ev)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    if ((e = check_event(rt, ev, "cudaEventSynchronize")) != cudaSuccess)
        return e;
    return rt->sticky;
}

cudaError_t cudaEventQuery(cudaEvent_t ev)
{
    return cudaEventSynchronize(ev);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    if ((e = check_event(rt, a, "cudaEventElapsedTime")) != cudaSuccess ||
        (e = check_event(rt, b, "cudaEventElapsedTime")) != cudaSuccess)
        return e;
    if (!ms)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaEventElapsedTime",
                           "null pointer");
    if ((a->flags | b->flags) & cudaEventDisableTiming)
        return cudart_fail(rt, cudaErrorInvalidResourceHandle, "cudaEventElapsedTime",
                           "an event was created with cudaEventDisableTiming");
    if (!a->recorded || !b->recorded)
        return cudart_fail(rt, cudaErrorInvalidResourceHandle, "cudaEventElapsedTime",
                           "an event was never recorded");
    if (rt->cfg.mode != LS_MODE_TIMING && !rt->functional_time_noted) {
        rt->functional_time_noted = 1;
        fprintf(stderr, "lockstep cudart: cudaEventElapsedTime: functional mode has "
                "no clock; events measure 0 ms (LOCKSTEP_MODE=timing measures "
                "simulated time)\n");
    }
    *ms = (float)(b->ms - a->ms);
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t ev)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    if ((e = check_event(rt, ev, "cudaEventDestroy")) != cudaSuccess)
        return e;
    ev->magic = 0;
    free(ev);
    return cudaSuccess;
}

/* ---- textures ---- */

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f)
{
    struct cudaChannelFormatDesc d = { x, y, z, w, f };
    return d;
}

static cudaError_t channel(struct cudart_rt *rt, const struct cudaChannelFormatDesc *c,
                           ls_channel_desc *o)
{
    if (c->f < cudaChannelFormatKindSigned || c->f > cudaChannelFormatKindFloat)
        return cudart_fail(rt, cudaErrorInvalidChannelDescriptor,
                           "cudaCreateTextureObject", "channel format kind %d is not "
                           "modelled (signed, unsigned or float)", c->f);
    *o = (ls_channel_desc){ c->x, c->y, c->z, c->w, (ls_channel_kind)c->f };
    return cudaSuccess;
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *t,
                                    const struct cudaResourceDesc *r,
                                    const struct cudaTextureDesc *td, const void *view)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    const char *fn = "cudaCreateTextureObject";
    if (!t || !r || !td)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "null pointer");
    if (view)
        return cudart_fail(rt, cudaErrorNotSupported, fn, "resource views are not "
                           "modelled (pass NULL)");
    ls_resource_desc res;
    memset(&res, 0, sizeof res);
    if (r->resType == cudaResourceTypeLinear) {
        res.type = LS_RES_LINEAR;
        res.base = (ls_dptr)(uintptr_t)r->res.linear.devPtr;
        res.size_bytes = r->res.linear.sizeInBytes;
        e = channel(rt, &r->res.linear.desc, &res.format);
    } else if (r->resType == cudaResourceTypePitch2D) {
        res.type = LS_RES_PITCH2D;
        res.base = (ls_dptr)(uintptr_t)r->res.pitch2D.devPtr;
        res.width = r->res.pitch2D.width;
        res.height = r->res.pitch2D.height;
        res.pitch = r->res.pitch2D.pitchInBytes;
        e = channel(rt, &r->res.pitch2D.desc, &res.format);
    } else {
        return cudart_fail(rt, cudaErrorNotSupported, fn, "resource type %d: CUDA "
                           "arrays (cudaMallocArray) are not supported; use a linear "
                           "or pitch2D resource", r->resType);
    }
    if (e != cudaSuccess)
        return e;
    if (cudart_managed_find(rt, res.base, 1))
        return cudart_fail(rt, cudaErrorNotSupported, fn, "textures over managed "
                           "memory are not supported; use cudaMalloc'd memory");
    ls_texture_desc tx;
    memset(&tx, 0, sizeof tx);
    for (int i = 0; i < 3; i++)
        tx.address_mode[i] = (ls_address_mode)td->addressMode[i];
    tx.filter_mode = (ls_filter_mode)td->filterMode;
    tx.read_mode = (ls_read_mode)td->readMode;
    tx.srgb = td->sRGB;
    memcpy(tx.border_color, td->borderColor, sizeof tx.border_color);
    tx.normalized_coords = td->normalizedCoords;
    tx.max_anisotropy = td->maxAnisotropy;
    tx.mipmap_filter_mode = (ls_filter_mode)td->mipmapFilterMode;
    tx.mipmap_level_bias = td->mipmapLevelBias;
    tx.min_mipmap_level_clamp = td->minMipmapLevelClamp;
    tx.max_mipmap_level_clamp = td->maxMipmapLevelClamp;
    tx.seamless_cubemap = td->seamlessCubemap;
    if (res.type == LS_RES_LINEAR) {
        /* CUDA ignores addressMode for linear resources: tex1Dfetch reads 0
         * outside, which is border mode with a zero border */
        for (int i = 0; i < 3; i++)
            tx.address_mode[i] = LS_ADDRESS_BORDER;
        memset(tx.border_color, 0, sizeof tx.border_color);
    }
    uint64_t h = 0;
    ls_status st = ls_texture_create(rt->gpu, &res, &tx, &h);
    if (st != LS_OK)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "%s: %s", ls_status_name(st),
                           ls_gpu_error(rt->gpu));
    *t = h;
    return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t t)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    ls_status st = ls_texture_destroy(rt->gpu, t);
    return st == LS_OK ? cudaSuccess
                       : cudart_fail(rt, cudaErrorInvalidValue, "cudaDestroyTextureObject",
                                     "%s", ls_gpu_error(rt->gpu));
}
