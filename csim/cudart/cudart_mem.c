/* CUDA memory calls over liblockstep: device allocations are ls_malloc
 * regions, host allocations plain malloc (nothing is paged here, so
 * "pinned" changes nothing), managed allocations and mapped pinned
 * memory (cudaHostAllocMapped) host pages mapped at the device address
 * itself that are also the device allocation's storage (gpu_mem_adopt),
 * so the program and its kernels share them; registered host memory
 * (cudaHostRegister) is the storage of a device allocation of its own
 * (docs/cuda-programs.md). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "cudart/cudart_int.h"
#include "api/api_int.h"

#define PITCH_ALIGN 256u
#define cudaHostAllocMapped 0x02u
#define cudaHostAllocFlags 0x07u        /* Portable, Mapped, WriteCombined */
#define cudaHostRegisterIoMemory 0x04u
#define cudaHostRegisterFlags 0x0fu     /* Portable, Mapped, IoMemory, ReadOnly */
#define cudaErrorHostMemoryAlreadyRegistered ((cudaError_t)712)
#define cudaErrorHostMemoryNotRegistered ((cudaError_t)713)

CUDART_API cudaError_t cudaMalloc(void **p, size_t n);
CUDART_API cudaError_t cudaFree(void *p);
CUDART_API cudaError_t cudaMallocHost(void **p, size_t n);
CUDART_API cudaError_t cudaHostAlloc(void **p, size_t n, unsigned flags);
CUDART_API cudaError_t cudaFreeHost(void *p);
CUDART_API cudaError_t cudaHostGetDevicePointer(void **pd, void *ph, unsigned flags);
CUDART_API cudaError_t cudaHostGetFlags(unsigned *flags, void *ph);
CUDART_API cudaError_t cudaHostRegister(void *ph, size_t n, unsigned flags);
CUDART_API cudaError_t cudaHostUnregister(void *ph);
CUDART_API cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t w, size_t h);
CUDART_API cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags);
CUDART_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind);
CUDART_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind,
                                       cudaStream_t s);
CUDART_API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
                                    size_t spitch, size_t w, size_t h, int kind);
CUDART_API cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                                         size_t spitch, size_t w, size_t h, int kind,
                                         cudaStream_t s);
CUDART_API cudaError_t cudaMemset(void *p, int v, size_t n);
CUDART_API cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s);
CUDART_API cudaError_t cudaMemset2D(void *p, size_t pitch, int v, size_t w, size_t h);
CUDART_API cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n,
                                          size_t off, int kind);
CUDART_API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n,
                                            size_t off, int kind);
CUDART_API cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src,
                                               size_t n, size_t off, int kind,
                                               cudaStream_t s);
CUDART_API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t n,
                                                 size_t off, int kind, cudaStream_t s);
CUDART_API cudaError_t cudaGetSymbolAddress(void **p, const void *sym);
CUDART_API cudaError_t cudaGetSymbolSize(size_t *n, const void *sym);
CUDART_API cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total_b);

/* The runtime for a call that touches the device: NULL (with *e) when
 * there is none or an earlier kernel fault made the context unusable. */
static struct cudart_rt *dev_enter(cudaError_t *e)
{
    struct cudart_rt *rt = cudart_get(e);
    if (rt && rt->sticky != cudaSuccess) {
        *e = rt->sticky;
        return NULL;
    }
    return rt;
}

static cudaError_t lib_fail(struct cudart_rt *rt, ls_status st, const char *fn)
{
    cudaError_t e = st == LS_ERR_NOMEM ? cudaErrorMemoryAllocation : cudaErrorInvalidValue;
    return cudart_fail(rt, e, fn, "%s: %s", ls_status_name(st), ls_gpu_error(rt->gpu));
}

cudaError_t cudaMalloc(void **p, size_t n)
{
    cudaError_t e;
    CUDART_ENTER(rt, dev_enter(&e));
    if (!rt)
        return e;
    if (!p)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaMalloc", "null pointer");
    ls_dptr d = 0;
    ls_status st = ls_malloc(rt->gpu, &d, n);
    if (st != LS_OK)
        return lib_fail(rt, st, "cudaMalloc");
    *p = (void *)(uintptr_t)d;
    return cudaSuccess;
}

cudaError_t cudaFree(void *p)
{
    cudaError_t e;
    CUDART_ENTER(rt, dev_enter(&e));
    if (!rt)
        return e;
    if (!p)
        return cudaSuccess;
    if (cudart_gmem_has(rt, p))
        return cudaSuccess;     /* a graph's memory stays the graph's */
    uint64_t d = (uint64_t)(uintptr_t)p;
    for (size_t i = 0; i < rt->nmgd; i++)
        if (rt->mgd[i].d == d && rt->mgd[i].map) {
            munmap(p, rt->mgd[i].map);
            for (int k = 0; k < 4; k++)
                ls_free(rt->gpu, rt->mgd[i].pad[k]);
            rt->mgd[i] = rt->mgd[--rt->nmgd];
            break;
        }
    ls_status st = ls_free(rt->gpu, d);
    return st == LS_OK ? cudaSuccess
                       : cudart_fail(rt, cudaErrorInvalidDevicePointer, "cudaFree", "%s",
                                     ls_gpu_error(rt->gpu));
}

cudaError_t cudaHostAlloc(void **p, size_t n, unsigned flags)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!p)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaHostAlloc", "null pointer");
    if (flags & ~cudaHostAllocFlags)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaHostAlloc", "flags 0x%x", flags);
    /* unified addressing: pinned memory is the kernels' too (zero-copy);
     * as managed memory, its pages sit at their device address, so the
     * host pointer is the device pointer. Without cudaHostAllocMapped and
     * beyond what the device's address space holds: plain host memory */
    struct api_device dv;
    api_device_info(rt->gpu, &dv);
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    if ((flags & cudaHostAllocMapped) ||
        (n < dv.mem_capacity && dv.mem_capacity - dv.mem_used > n + 5 * pg)) {
        cudaError_t r = cudaMallocManaged(p, n, 0);
        if (r == cudaSuccess)
            rt->mgd[rt->nmgd - 1].hflags = flags | CUDART_HOSTALLOC;
        return r;
    }
    *p = malloc(n ? n : 1);
    return *p ? cudaSuccess : cudart_fail(rt, cudaErrorMemoryAllocation, "cudaHostAlloc",
                                          "%zu host bytes", n);
}

/* The mapped pinned allocation (cudaHostAllocMapped) holding p, or NULL. */
static struct cudart_managed *host_mapped(struct cudart_rt *rt, const void *p)
{
    struct cudart_managed *m = cudart_managed_find(rt, (uint64_t)(uintptr_t)p, 1);
    return m && (m->hflags & CUDART_HOSTALLOC) ? m : NULL;
}

/* The registered host range holding [p, p+n), or NULL. */
static struct cudart_hostreg *host_reg(struct cudart_rt *rt, const void *p, size_t n)
{
    uintptr_t u = (uintptr_t)p;
    for (size_t i = 0; i < rt->nhreg; i++) {
        uintptr_t h = (uintptr_t)rt->hreg[i].host;
        if (u >= h && u - h < rt->hreg[i].size && n <= rt->hreg[i].size - (u - h))
            return &rt->hreg[i];
    }
    return NULL;
}

void *cudart_host_dev(struct cudart_rt *rt, const void *ph)
{
    struct cudart_hostreg *r;
    if (host_mapped(rt, ph))
        return (void *)(uintptr_t)ph;
    if ((r = host_reg(rt, ph, 1)) != NULL)
        return (void *)(uintptr_t)(r->d + ((uintptr_t)ph - (uintptr_t)r->host));
    return NULL;
}

cudaError_t cudaHostGetDevicePointer(void **pd, void *ph, unsigned flags)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!pd || flags)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaHostGetDevicePointer",
                           pd ? "flags must be 0" : "null pointer");
    if (!(*pd = cudart_host_dev(rt, ph)))
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaHostGetDevicePointer",
                           "%p is not mapped host memory (cudaHostAlloc with "
                           "cudaHostAllocMapped, or cudaHostRegister)", ph);
    return cudaSuccess;
}

cudaError_t cudaHostGetFlags(unsigned *flags, void *ph)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!flags)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaHostGetFlags", "null pointer");
    struct cudart_managed *m = host_mapped(rt, ph);
    struct cudart_hostreg *r = m ? NULL : host_reg(rt, ph, 1);
    if (!m && !r)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaHostGetFlags",
                           "%p is not memory of cudaHostAlloc (cudaHostAllocMapped) "
                           "or cudaHostRegister", ph);
    *flags = m ? m->hflags & ~CUDART_HOSTALLOC : r->flags;
    return cudaSuccess;
}

cudaError_t cudaHostRegister(void *ph, size_t n, unsigned flags)
{
    cudaError_t e;
    CUDART_ENTER(rt, dev_enter(&e));
    if (!rt)
        return e;
    if (!ph || !n || (flags & ~cudaHostRegisterFlags))
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaHostRegister",
                           !ph ? "null pointer" : !n ? "0 bytes" : "flags 0x%x", flags);
    if (flags & cudaHostRegisterIoMemory)
        return cudart_fail(rt, cudaErrorNotSupported, "cudaHostRegister",
                           "cudaHostRegisterIoMemory (I/O memory) is not modelled");
    uintptr_t u = (uintptr_t)ph;
    for (size_t i = 0; i < rt->nhreg; i++) {
        uintptr_t h = (uintptr_t)rt->hreg[i].host;
        if (u < h + rt->hreg[i].size && h < u + n)
            return cudart_fail(rt, cudaErrorHostMemoryAlreadyRegistered, "cudaHostRegister",
                               "%p (%zu bytes) overlaps a registered range", ph, n);
    }
    if (cudart_managed_find(rt, u, 1))
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaHostRegister",
                           "%p is managed or mapped memory already", ph);
    /* the device allocation's granule padding must be the program's
     * memory too: the host page holding the last byte ends it */
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    size_t avail = ((u + n + pg - 1) / pg * pg) - u;
    if (avail < (n + 255) / 256 * 256)
        return cudart_fail(rt, cudaErrorNotSupported, "cudaHostRegister",
                           "%p (%zu bytes): the range's 256-byte granule runs past its "
                           "last host page; register a page-aligned range", ph, n);
    if (rt->nhreg == rt->caphreg) {
        size_t nc = rt->caphreg ? rt->caphreg * 2 : 8;
        struct cudart_hostreg *nr = realloc(rt->hreg, nc * sizeof *nr);
        if (!nr)
            return cudart_fail(rt, cudaErrorMemoryAllocation, "cudaHostRegister",
                               "out of host memory");
        rt->hreg = nr;
        rt->caphreg = nc;
    }
    ls_dptr d = 0;
    ls_status st = ls_malloc(rt->gpu, &d, n);
    if (st == LS_OK && (st = api_mem_adopt(rt->gpu, d, ph, avail, 0)) != LS_OK)
        ls_free(rt->gpu, d);
    if (st != LS_OK)
        return lib_fail(rt, st, "cudaHostRegister");
    rt->hreg[rt->nhreg++] = (struct cudart_hostreg){ ph, n, d, flags };
    return cudaSuccess;
}

cudaError_t cudaHostUnregister(void *ph)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    for (size_t i = 0; i < rt->nhreg; i++) {
        if (rt->hreg[i].host != ph)
            continue;
        ls_free(rt->gpu, rt->hreg[i].d);     /* the bytes stay the program's */
        rt->hreg[i] = rt->hreg[--rt->nhreg];
        return cudaSuccess;
    }
    return cudart_fail(rt, cudaErrorHostMemoryNotRegistered, "cudaHostUnregister",
                       "%p is not the start of a registered range", ph);
}

cudaError_t cudaMallocHost(void **p, size_t n)
{
    return cudaHostAlloc(p, n, 0);
}

cudaError_t cudaFreeHost(void *p)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (rt && p && host_mapped(rt, p))
        return cudaFree(p);
    free(p);
    return cudaSuccess;
}

cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t w, size_t h)
{
    cudaError_t e;
    CUDART_ENTER(rt, dev_enter(&e));
    if (!rt)
        return e;
    if (!p || !pitch)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaMallocPitch", "null pointer");
    size_t pw = (w + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;
    if (pw < w || (h && pw > SIZE_MAX / h))
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaMallocPitch",
                           "%zu x %zu bytes overflow", w, h);
    cudaError_t r = cudaMalloc(p, pw * h);
    if (r == cudaSuccess)
        *pitch = pw;
    return r;
}

cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags)
{
    (void)flags;
    cudaError_t e;
    CUDART_ENTER(rt, dev_enter(&e));
    if (!rt)
        return e;
    if (!p)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaMallocManaged", "null pointer");
    struct cudart_managed *nm = rt->mgd;
    if (rt->nmgd == rt->capmgd) {
        size_t nc = rt->capmgd ? rt->capmgd * 2 : 16;
        nm = realloc(rt->mgd, nc * sizeof *nm);
        if (!nm)
            return cudart_fail(rt, cudaErrorMemoryAllocation, "cudaMallocManaged",
                               "out of host memory");
        rt->mgd = nm;
        rt->capmgd = nc;
    }
    /* the host pages sit at the device address, so it must be page-aligned:
     * small filler allocations push first fit up to a page boundary */
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    struct cudart_managed r = { 0, n, (n + pg - 1) / pg * pg, NULL, { 0 }, 0 };
    ls_status st = LS_OK;
    for (int k = 0; st == LS_OK; k++) {
        st = ls_malloc(rt->gpu, &r.d, n);
        if (st != LS_OK || r.d % pg == 0 || k == 4)
            break;
        ls_free(rt->gpu, r.d);
        st = ls_malloc(rt->gpu, &r.pad[k], pg - r.d % pg);
    }
    void *h = MAP_FAILED;
    if (st == LS_OK && r.d % pg == 0 && r.map)
        h = mmap((void *)(uintptr_t)r.d, r.map, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (h != (void *)(uintptr_t)r.d) {
        if (h != MAP_FAILED)
            munmap(h, r.map);
        if (st == LS_OK)
            ls_free(rt->gpu, r.d);
        for (int k = 0; k < 4; k++)
            ls_free(rt->gpu, r.pad[k]);
        if (st != LS_OK)
            return lib_fail(rt, st, "cudaMallocManaged");
        return cudart_fail(rt, cudaErrorMemoryAllocation, "cudaMallocManaged",
                           "cannot map host pages at device address 0x%llx (%zu "
                           "bytes): the host uses that range",
                           (unsigned long long)r.d, n);
    }
    /* the device allocation is these very pages: kernels and the program
     * share them, nothing is copied at launches */
    st = api_mem_adopt(rt->gpu, r.d, h, r.map, 1);
    if (st != LS_OK) {
        munmap(h, r.map);
        ls_free(rt->gpu, r.d);
        for (int k = 0; k < 4; k++)
            ls_free(rt->gpu, r.pad[k]);
        return lib_fail(rt, st, "cudaMallocManaged");
    }
    r.host = h;
    rt->mgd[rt->nmgd++] = r;
    *p = h;
    return cudaSuccess;
}

/* Where one side of a copy lives: a device range (ls_*), or host memory
 * (managed regions are host memory between launches). */
static int is_dev(struct cudart_rt *rt, const void *p, size_t n, int kind, int dst)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    if (cudart_managed_find(rt, a, n))
        return 0;
    if (kind == cudaMemcpyDefault)
        return api_mem_is_device(rt->gpu, a, n);
    if (dst)
        return kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    return kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
}

cudaError_t cudart_copy(struct cudart_rt *rt, void *dst, const void *src, size_t n,
                        int kind, const char *fn)
{
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
        return cudart_fail(rt, cudaErrorInvalidMemcpyDirection, fn, "kind %d", kind);
    if (n == 0)
        return cudaSuccess;
    if (!dst || !src)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "null pointer");
    int dd = is_dev(rt, dst, n, kind, 1), sd = is_dev(rt, src, n, kind, 0);
    ls_gpu *g = rt->gpu;
    uint64_t da = (uint64_t)(uintptr_t)dst, sa = (uint64_t)(uintptr_t)src;
    ls_status st = dd && n >= (1u << 20) ? api_mem_watch(g, n) : LS_OK;
    if (st != LS_OK)
        return cudart_fail(rt, cudaErrorMemoryAllocation, fn, "%s", ls_gpu_error(g));
    if (dd && sd) {
        st = api_memcpy_dtod(g, da, sa, n, fn);
    } else if (dd) {
        st = ls_memcpy_htod(g, da, src, n);
    } else if (sd) {
        st = ls_memcpy_dtoh(g, dst, sa, n);
    } else {
        memmove(dst, src, n);
    }
    if (st != LS_OK)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "%s: %s", ls_status_name(st),
                           ls_gpu_error(g));
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind)
{
    cudaError_t e;
    CUDART_ENTER(rt, dev_enter(&e));
    return rt ? cudart_copy(rt, dst, src, n, kind, "cudaMemcpy") : e;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind,
                            cudaStream_t s)
{
    cudaError_t e;
    CUDART_ENTER(rt, dev_enter(&e));
    if (rt && cudart_capturing(rt, s))
        return cudart_capture_copy(rt, s, dst, src, n, kind, NULL);
    return rt ? cudart_copy(rt, dst, src, n, kind, "cudaMemcpyAsync") : e;
}

static cudaError_t copy2d(void *dst, size_t dpitch, const void *src, size_t spitch,
                          size_t w, size_t h, int kind, const char *fn)
{
    cudaError_t e;
    CUDART_ENTER(rt, dev_enter(&e));
    if (!rt)
        return e;
    if (w > dpitch || w > spitch)
        return cudart_fail(rt, cudaErrorInvalidPitchValue, fn,
                           "width %zu is over a pitch (dst %zu, src %zu)", w, dpitch,
                           spitch);
    for (size_t y = 0; y < h; y++) {
        e = cudart_copy(rt, (char *)dst + y * dpitch, (const char *)src + y * spitch, w,
                 kind, fn);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                         size_t w, size_t h, int kind)
{
    return copy2d(dst, dpitch, src, spitch, w, h, kind, "cudaMemcpy2D");
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                              size_t spitch, size_t w, size_t h, int kind,
                              cudaStream_t s)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (rt && cudart_capturing(rt, s)) {
        struct cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = (struct cudaPitchedPtr){ (void *)(uintptr_t)src, spitch, w, h };
        p.dstPtr = (struct cudaPitchedPtr){ dst, dpitch, w, h };
        p.extent = (struct cudaExtent){ w, h, 1 };
        p.kind = kind;
        return cudart_capture_copy(rt, s, NULL, NULL, 0, kind, &p);
    }
    return copy2d(dst, dpitch, src, spitch, w, h, kind, "cudaMemcpy2DAsync");
}

static cudaError_t set(void *p, int v, size_t n, const char *fn)
{
    cudaError_t e;
    CUDART_ENTER(rt, dev_enter(&e));
    if (!rt)
        return e;
    return cudart_memset(rt, p, v, n, fn);
}

cudaError_t cudart_memset(struct cudart_rt *rt, void *p, int v, size_t n, const char *fn)
{
    if (n == 0)
        return cudaSuccess;
    uint64_t a = (uint64_t)(uintptr_t)p;
    if (cudart_managed_find(rt, a, n)) {
        memset(p, v, n);
        return cudaSuccess;
    }
    ls_status st = n >= (1u << 20) ? api_mem_watch(rt->gpu, n) : LS_OK;
    if (st != LS_OK)
        return cudart_fail(rt, cudaErrorMemoryAllocation, fn, "%s", ls_gpu_error(rt->gpu));
    st = ls_memset(rt->gpu, a, v, n);
    return st == LS_OK ? cudaSuccess
                       : cudart_fail(rt, cudaErrorInvalidValue, fn, "%s: %s",
                                     ls_status_name(st), ls_gpu_error(rt->gpu));
}

cudaError_t cudaMemset(void *p, int v, size_t n)
{
    return set(p, v, n, "cudaMemset");
}

cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (rt && cudart_capturing(rt, s))
        return cudart_capture_memset(rt, s, p, n, v, n, 1);
    return set(p, v, n, "cudaMemsetAsync");
}

cudaError_t cudaMemset2D(void *p, size_t pitch, int v, size_t w, size_t h)
{
    for (size_t y = 0; y < h; y++) {
        cudaError_t e = set((char *)p + y * pitch, v, w, "cudaMemset2D");
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

/* Device address and size of the variable whose host shadow is sym. */
static cudaError_t symbol(struct cudart_rt *rt, const void *sym, ls_dptr *d, size_t *n,
                          const char *fn)
{
    struct cudart_var *v = cudart_var_find(rt, sym);
    if (!v)
        return cudart_fail(rt, cudaErrorInvalidSymbol, fn, "%p is not a registered "
                           "__device__ or __constant__ variable", sym);
    if (!v->mod)
        return cudart_fail(rt, cudaErrorInvalidSymbol, fn, "%s has no module", v->name);
    cudaError_t e = cudart_mod_ready(rt, v->mod);
    if (e != cudaSuccess)
        return cudart_fail(rt, e, fn, "%s: %s", v->name, v->mod->msg);
    ls_status st = ls_module_symbol(rt->gpu, v->mod->lsmod, v->name, d, n);
    if (st != LS_OK)
        return cudart_fail(rt, cudaErrorInvalidSymbol, fn, "%s: %s", v->name,
                           ls_gpu_error(rt->gpu));
    return cudaSuccess;
}

static cudaError_t symcopy(void *dst, const void *src, const void *sym, size_t n,
                           size_t off, int kind, int to, const char *fn)
{
    cudaError_t e;
    CUDART_ENTER(rt, dev_enter(&e));
    if (!rt)
        return e;
    ls_dptr d;
    size_t sz;
    if ((e = symbol(rt, sym, &d, &sz, fn)) != cudaSuccess)
        return e;
    if (off > sz || n > sz - off)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "%zu bytes at offset %zu of "
                           "a %zu-byte symbol", n, off, sz);
    if (to && kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        return cudart_fail(rt, cudaErrorInvalidMemcpyDirection, fn, "kind %d", kind);
    if (!to && kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        return cudart_fail(rt, cudaErrorInvalidMemcpyDirection, fn, "kind %d", kind);
    void *sp = (void *)(uintptr_t)(d + off);
    /* the symbol side is device memory; the other side per kind */
    if (to)
        return cudart_copy(rt, sp, src, n, kind == cudaMemcpyDefault ? cudaMemcpyDefault
                    : kind, fn);
    return cudart_copy(rt, dst, sp, n, kind, fn);
}

cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t off,
                               int kind)
{
    return symcopy(NULL, src, sym, n, off, kind, 1, "cudaMemcpyToSymbol");
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t off,
                                 int kind)
{
    return symcopy(dst, NULL, sym, n, off, kind, 0, "cudaMemcpyFromSymbol");
}

cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t n,
                                    size_t off, int kind, cudaStream_t s)
{
    (void)s;
    return symcopy(NULL, src, sym, n, off, kind, 1, "cudaMemcpyToSymbolAsync");
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t n, size_t off,
                                      int kind, cudaStream_t s)
{
    (void)s;
    return symcopy(dst, NULL, sym, n, off, kind, 0, "cudaMemcpyFromSymbolAsync");
}

cudaError_t cudaGetSymbolAddress(void **p, const void *sym)
{
    cudaError_t e;
    CUDART_ENTER(rt, dev_enter(&e));
    if (!rt)
        return e;
    ls_dptr d;
    size_t n;
    if (!p)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGetSymbolAddress", "null pointer");
    if ((e = symbol(rt, sym, &d, &n, "cudaGetSymbolAddress")) != cudaSuccess)
        return e;
    *p = (void *)(uintptr_t)d;
    return cudaSuccess;
}

cudaError_t cudaGetSymbolSize(size_t *sz, const void *sym)
{
    cudaError_t e;
    CUDART_ENTER(rt, dev_enter(&e));
    if (!rt)
        return e;
    ls_dptr d;
    size_t n;
    if (!sz)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGetSymbolSize", "null pointer");
    if ((e = symbol(rt, sym, &d, &n, "cudaGetSymbolSize")) != cudaSuccess)
        return e;
    *sz = n;
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total_b)
{
    cudaError_t e;
    CUDART_ENTER(rt, dev_enter(&e));
    if (!rt)
        return e;
    struct api_device dv;
    api_device_info(rt->gpu, &dv);
    if (free_b)
        *free_b = (size_t)(dv.mem_capacity - dv.mem_used);
    if (total_b)
        *total_b = (size_t)dv.mem_capacity;
    return cudaSuccess;
}
