/* CUDA kernel launches, function attributes and occupancy, over
 * ls_launch. Launches run to completion before the call returns (every
 * stream is the default stream); the simulated time they took (timing
 * mode: cycles / core clock) is what events measure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/cudart_int.h"
#include "api/api_int.h"

CUDART_API unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared,
                                                void *stream);
CUDART_API cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block,
                                                  size_t *shared, void *stream);
CUDART_API cudaError_t __cudaGetKernel(cudaKernel_t *k, const void *fn);
CUDART_API cudaError_t __cudaLaunchKernel(cudaKernel_t k, dim3 grid, dim3 block,
                                          void **args, size_t shared, cudaStream_t s);
CUDART_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t k, dim3 grid, dim3 block,
                                               void **args, size_t shared,
                                               cudaStream_t s);
CUDART_API cudaError_t cudaLaunchKernel(const void *fn, dim3 grid, dim3 block,
                                        void **args, size_t shared, cudaStream_t s);
CUDART_API cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *fn);
CUDART_API cudaError_t cudaFuncSetCacheConfig(const void *fn, int cfg);
CUDART_API cudaError_t cudaFuncSetAttribute(const void *fn, int attr, int value);
CUDART_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n,
    const void *fn, int block, size_t dyn_shared);
CUDART_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n,
    const void *fn, int block, size_t dyn_shared, unsigned flags);

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, void *stream)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return 1;
    if (rt->ncc == CUDART_MAX_CALLCFG) {
        cudart_fail(rt, cudaErrorInvalidConfiguration, "__cudaPushCallConfiguration",
                    "more than %d nested <<<>>> configurations", CUDART_MAX_CALLCFG);
        return 1;
    }
    rt->cc[rt->ncc++] = (struct cudart_callcfg){ grid, block, shared, stream };
    return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared,
                                       void *stream)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    if (rt->ncc == 0)
        return cudart_fail(rt, cudaErrorInvalidConfiguration,
                           "__cudaPopCallConfiguration", "no <<<>>> configuration "
                           "was pushed");
    const struct cudart_callcfg *c = &rt->cc[--rt->ncc];
    *grid = c->grid;
    *block = c->block;
    *shared = c->shared;
    if (stream)
        *(void **)stream = c->stream;
    return cudaSuccess;
}

static struct cudart_fn *find_fn(struct cudart_rt *rt, const void *fn)
{
    for (size_t i = 0; i < rt->nfns; i++)
        if (rt->fns[i].host == fn)
            return &rt->fns[i];
    return NULL;
}

cudaError_t __cudaGetKernel(cudaKernel_t *k, const void *fn)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    *k = (cudaKernel_t)fn;      /* the launch looks the stub up again */
    return find_fn(rt, fn) ? cudaSuccess : cudaErrorInvalidDeviceFunction;
}

/* The kernel of host stub fn with its module loaded, or NULL after
 * reporting why (fn: the calling API's name). */
static struct cudart_fn *ready_fn(struct cudart_rt *rt, const void *fn, const char *api,
                                  cudaError_t *e)
{
    struct cudart_fn *f = find_fn(rt, fn);
    if (!f) {
        *e = cudart_fail(rt, cudaErrorInvalidDeviceFunction, api, "%p is not a "
                         "registered kernel (no __global__ function of this program's "
                         "fat binaries has that host stub)", fn);
        return NULL;
    }
    if (!f->mod) {
        *e = cudart_fail(rt, cudaErrorInvalidDeviceFunction, api, "%s: no module", f->name);
        return NULL;
    }
    if ((*e = cudart_mod_ready(rt, f->mod)) != cudaSuccess) {
        cudart_fail(rt, *e, api, "kernel %s: %s", f->name, f->mod->msg);
        return NULL;
    }
    return f;
}

static int is_sticky(ls_status st)
{
    return st != LS_ERR_INVALID && st != LS_ERR_LAUNCH && st != LS_ERR_PARSE &&
           st != LS_ERR_NOMEM;
}

static cudaError_t launch(const void *fn, dim3 grid, dim3 block, void **args,
                          size_t shared, const char *api)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    if (rt->sticky != cudaSuccess)
        return rt->sticky;
    struct cudart_fn *f = ready_fn(rt, fn, api, &e);
    if (!f)
        return e;
    struct cudart_launch *nl = rt->launches;
    if (rt->nlaunches == rt->caplaunches) {
        size_t nc = rt->caplaunches ? rt->caplaunches * 2 : 64;
        nl = realloc(rt->launches, nc * sizeof *nl);
        if (!nl)
            return cudart_fail(rt, cudaErrorMemoryAllocation, api, "out of host memory");
        rt->launches = nl;
        rt->caplaunches = nc;
    }
    if ((e = cudart_managed_push(rt)) != cudaSuccess)
        return cudart_fail(rt, e, api, "copying managed memory to the device: %s",
                           ls_gpu_error(rt->gpu));
    struct cudart_launch *l = &rt->launches[rt->nlaunches];
    memset(l, 0, sizeof *l);
    snprintf(l->kernel, sizeof l->kernel, "%s", f->name);
    ls_dim3 g = { grid.x, grid.y, grid.z }, b = { block.x, block.y, block.z };
    l->st = ls_launch(rt->gpu, f->mod->lsmod, f->name, g, b, shared, args, &l->s);
    rt->nlaunches++;
    if (rt->stats_path && ls_mem_digest(rt->gpu, &l->digest) == LS_OK)
        l->have_digest = 1;
    struct api_device dv;
    api_device_info(rt->gpu, &dv);
    rt->now_ms += (double)l->s.cycles / ((double)dv.core_clock_mhz * 1e3);
    cudaError_t pe = cudart_managed_pull(rt);
    if (l->st != LS_OK) {
        e = cudart_from_status(l->st);
        cudart_fail(rt, e, api, "kernel %s (launch %zu, grid %ux%ux%u, block "
                    "%ux%ux%u): %s: %s", f->name, rt->nlaunches, grid.x, grid.y, grid.z,
                    block.x, block.y, block.z, ls_status_name(l->st),
                    ls_gpu_error(rt->gpu));
        if (is_sticky(l->st))
            rt->sticky = e;
        return e;
    }
    if (pe != cudaSuccess)
        return cudart_fail(rt, pe, api, "copying managed memory back: %s",
                           ls_gpu_error(rt->gpu));
    return cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t k, dim3 grid, dim3 block, void **args,
                               size_t shared, cudaStream_t s)
{
    (void)s;
    return launch(k, grid, block, args, shared, "<<<>>> launch");
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t k, dim3 grid, dim3 block, void **args,
                                    size_t shared, cudaStream_t s)
{
    (void)s;
    return launch(k, grid, block, args, shared, "<<<>>> launch");
}

cudaError_t cudaLaunchKernel(const void *fn, dim3 grid, dim3 block, void **args,
                             size_t shared, cudaStream_t s)
{
    (void)s;
    return launch(fn, grid, block, args, shared, "cudaLaunchKernel");
}

/* f's kernel in its loaded module into *k; NULL when it is not there. */
static const struct api_kernel *kernel_of(struct cudart_fn *f, struct api_kernel *k)
{
    return api_kernel_info(f->mod->lsmod, f->name, k) ? NULL : k;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *fn)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    struct cudart_fn *f = ready_fn(rt, fn, "cudaFuncGetAttributes", &e);
    if (!f)
        return e;
    struct api_kernel kk;
    const struct api_kernel *pf = kernel_of(f, &kk);
    if (!a || !pf)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaFuncGetAttributes",
                           a ? "kernel %s not in its PTX" : "null pointer%s",
                           a ? f->name : "");
    struct api_device dv;
    api_device_info(rt->gpu, &dv);
    memset(a, 0, sizeof *a);
    a->sharedSizeBytes = (size_t)pf->shared_bytes;
    a->constSizeBytes = (size_t)pf->const_bytes;
    a->localSizeBytes = (size_t)pf->local_bytes;
    unsigned maxt = dv.max_cta_threads;
    if (pf->maxntid[0])
        maxt = pf->maxntid[0] * (pf->maxntid[1] ? pf->maxntid[1] : 1) *
               (pf->maxntid[2] ? pf->maxntid[2] : 1);
    a->maxThreadsPerBlock = (int)maxt;
    a->numRegs = (int)pf->regs;
    a->ptxVersion = (int)pf->ptx_version;
    a->binaryVersion = 75;
    a->maxDynamicSharedSizeBytes = (int)(dv.max_shared - pf->shared_bytes);
    a->preferredShmemCarveout = -1;
    return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void *fn, int cfg)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    (void)cfg;                  /* the L1/shared split is a config key */
    return ready_fn(rt, fn, "cudaFuncSetCacheConfig", &e) ? cudaSuccess : e;
}

#define cudaFuncAttributeMaxDynamicSharedMemorySize 8
#define cudaFuncAttributePreferredSharedMemoryCarveout 9

cudaError_t cudaFuncSetAttribute(const void *fn, int attr, int value)
{
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    struct cudart_fn *f = ready_fn(rt, fn, "cudaFuncSetAttribute", &e);
    if (!f)
        return e;
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout)
        return cudaSuccess;
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        struct api_kernel kk;
        const struct api_kernel *pf = kernel_of(f, &kk);
        struct api_device dv;
        api_device_info(rt->gpu, &dv);
        if (value < 0 || !pf || (uint64_t)value + pf->shared_bytes > dv.max_shared)
            return cudart_fail(rt, cudaErrorInvalidValue, "cudaFuncSetAttribute",
                               "%s: %d dynamic shared bytes (the model allows %u per "
                               "CTA in all)", f->name, value, dv.max_shared);
        return cudaSuccess;
    }
    return cudart_fail(rt, cudaErrorNotSupported, "cudaFuncSetAttribute",
                       "attribute %d is not modelled", attr);
}

/* CTAs of block threads that fit one SM at once: the limits of
 * core_sm_fits (CTA slots, warp slots, threads, registers, shared). */
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n,
    const void *fn, int block, size_t dyn_shared, unsigned flags)
{
    (void)flags;
    cudaError_t e;
    struct cudart_rt *rt = cudart_get(&e);
    if (!rt)
        return e;
    struct cudart_fn *f = ready_fn(rt, fn, "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
                                   &e);
    if (!f)
        return e;
    struct api_kernel kk;
    const struct api_kernel *pf = kernel_of(f, &kk);
    if (!n || !pf || block <= 0)
        return cudart_fail(rt, cudaErrorInvalidValue,
                           "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
                           "null pointer or block size %d", block);
    struct api_device dv;
    api_device_info(rt->gpu, &dv);
    const struct api_device *c = &dv;
    uint64_t warps = ((uint64_t)block + 31) / 32, wthreads = warps * 32;
    uint64_t regs = pf->regs;
    if (wthreads * regs > (uint64_t)c->regs_per_sm)
        regs = (uint64_t)c->regs_per_sm / wthreads;
    uint64_t shm = pf->shared_bytes + dyn_shared;
    uint64_t k = (uint64_t)c->max_ctas_per_sm;
    uint64_t lim[4] = { (uint64_t)c->max_threads_per_sm / wthreads,
                        c->warp_slots / warps,
                        regs ? (uint64_t)c->regs_per_sm / (wthreads * regs) : k,
                        shm ? (uint64_t)c->shared_per_sm / shm : k };
    for (int i = 0; i < 4; i++)
        if (lim[i] < k)
            k = lim[i];
    *n = (int)k;
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *fn,
                                                          int block, size_t dyn_shared)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, fn, block,
                                                                  dyn_shared, 0);
}
