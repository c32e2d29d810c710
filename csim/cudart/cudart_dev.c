/* CUDA device queries (filled from the simulated GPU's configuration),
 * errors, versions, and texture objects (ls_texture_create); streams,
 * events and graphs are cudart_graph.c. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/cudart_int.h"
#include "api/api_int.h"

#define CUDART_VERSION_NUM 13000


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
    CUDART_ENTER(rt, cudart_get(&e));
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
    CUDART_ENTER(rt, cudart_get(&e));
    return rt ? check_dev(rt, dev, "cudaSetDevice") : e;
}

cudaError_t cudaGetDevice(int *dev)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
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
    CUDART_ENTER(rt, cudart_get(&e));
    (void)flags;                /* scheduling hints: nothing to schedule */
    return rt ? cudaSuccess : e;
}

cudaError_t cudaGetDeviceFlags(unsigned *flags)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (flags)
        *flags = 0;
    return cudaSuccess;
}

/* What the attribute table (cudart_attrs.def) reads. */
#define cudart_devinfo api_device

/* A cudaDeviceProp and a sink for the attributes without a field. */
struct props_out {
    struct cudaDeviceProp p;
    long long none;
};

static void devinfo(struct cudart_rt *rt, struct cudart_devinfo *d)
{
    api_device_info(rt->gpu, d);
}

/* The value of attribute attr of the simulated GPU into *v; false when
 * the table has no such attribute. */
static bool attr_value(const struct cudart_devinfo *d, int attr, long long *v)
{
    switch (attr) {
#define CUDART_ATTR(name, value, field, expr, src) \
    case value: *v = (long long)(expr); return true;
#include "cudart/cudart_attrs.def"
#undef CUDART_ATTR
    default:
        return false;
    }
}

cudaError_t cudaDeviceGetAttribute(int *v, int attr, int dev)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if ((e = check_dev(rt, dev, "cudaDeviceGetAttribute")) != cudaSuccess)
        return e;
    if (!v)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaDeviceGetAttribute",
                           "null pointer");
    struct cudart_devinfo d;
    devinfo(rt, &d);
    long long x = 0;
    if (!attr_value(&d, attr, &x))
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaDeviceGetAttribute",
                           "attribute %d is not a device attribute of CUDA 13.0 "
                           "(docs/cuda-programs.md lists them)", attr);
    *v = (int)x;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int dev)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if ((e = check_dev(rt, dev, "cudaGetDeviceProperties")) != cudaSuccess)
        return e;
    if (!p)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGetDeviceProperties",
                           "null pointer");
    struct cudart_devinfo dv;
    const struct cudart_devinfo *d = &dv;
    devinfo(rt, &dv);
    struct props_out o;
    memset(&o, 0, sizeof o);
#define CUDART_ATTR(name, value, field, expr, src) o.field = (expr);
#include "cudart/cudart_attrs.def"
#undef CUDART_ATTR
    *p = o.p;
    snprintf(p->name, sizeof p->name, "Lockstep simulated GPU (%s, %s mode)",
             rt->cfg.config ? rt->cfg.config : "builtin",
             rt->cfg.mode == LS_MODE_TIMING ? "timing" : "functional");
    p->totalGlobalMem = (size_t)d->mem_capacity;
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    return rt->sticky;          /* every launch has completed already */
}

cudaError_t cudaDeviceReset(void)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    cudart_report(rt);
    cudart_gpu_reset(rt);       /* the next call creates a fresh GPU */
    return cudaSuccess;
}

cudaError_t cudaGetLastError(void)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    e = rt->sticky != cudaSuccess ? rt->sticky : rt->last;
    rt->last = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
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
    { cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge",
      "too many blocks in cooperative launch" },
    { cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure" },
    { cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported" },
    { cudaErrorIllegalState, "cudaErrorIllegalState",
      "the operation cannot be performed in the present state" },
    { cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported",
      "operation not permitted when stream is capturing" },
    { cudaErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated",
      "operation failed due to a previous error during capture" },
    { cudaErrorStreamCaptureUnmatched, "cudaErrorStreamCaptureUnmatched",
      "operation would make the legacy stream depend on a capturing blocking stream" },
    { cudaErrorStreamCaptureUnjoined, "cudaErrorStreamCaptureUnjoined",
      "capturing stream has unjoined work" },
    { cudaErrorGraphExecUpdateFailure, "cudaErrorGraphExecUpdateFailure",
      "the graph update was not performed because it included changes which violated "
      "constraints specific to instantiated graph update" },
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
    CUDART_ENTER(rt, cudart_get(&e));
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
    } else if (r->resType == cudaResourceTypeArray ||
               r->resType == cudaResourceTypeMipmappedArray) {
        e = cudart_array_resource(rt, r, &res, fn);
    } else {
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "resource type %d", r->resType);
    }
    if (e != cudaSuccess)
        return e;
    ls_texture_desc tx;
    memset(&tx, 0, sizeof tx);
    for (int i = 0; i < 3; i++) {
        tx.address_mode[i] = (ls_address_mode)td->addressMode[i];
        /* wrap and mirror exist only for normalized coordinates (CUDA
         * programming guide); a descriptor zeroed with memset asks for
         * wrap (0) with unnormalized ones, which samples as clamp */
        if (!td->normalizedCoords && (tx.address_mode[i] == LS_ADDRESS_WRAP ||
                                      tx.address_mode[i] == LS_ADDRESS_MIRROR))
            tx.address_mode[i] = LS_ADDRESS_CLAMP;
    }
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
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    ls_status st = ls_texture_destroy(rt->gpu, t);
    return st == LS_OK ? cudaSuccess
                       : cudart_fail(rt, cudaErrorInvalidValue, "cudaDestroyTextureObject",
                                     "%s", ls_gpu_error(rt->gpu));
}
