/* CUDA kernel launches, function attributes and occupancy, over
 * ls_launch. Launches run to completion before the call returns (every
 * stream is the default stream); the simulated time they took (timing
 * mode: cycles / core clock) is what events measure. */
#include <math.h>
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
CUDART_API cudaError_t cudaLaunchCooperativeKernel(const void *fn, dim3 grid, dim3 block,
                                                   void **args, size_t shared,
                                                   cudaStream_t s);
CUDART_API cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *fn, dim3 grid,
                                                        dim3 block, void **args,
                                                        size_t shared, cudaStream_t s);
CUDART_API cudaError_t cudaLaunchKernelExC(const struct cudaLaunchConfig *c, const void *fn,
                                           void **args);
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
    CUDART_ENTER(rt, cudart_get(&e));
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
    CUDART_ENTER(rt, cudart_get(&e));
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
    CUDART_ENTER(rt, cudart_get(&e));
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

static cudaError_t check_dyn_shared(struct cudart_rt *rt, struct cudart_fn *f,
                                    size_t shared, const char *api);
static const struct api_kernel *kernel_of(struct cudart_fn *f, struct api_kernel *k);

double cudart_launch_ms(const struct cudart_rt *rt, const ls_stats *s)
{
    struct api_device dv;
    api_device_info(rt->gpu, &dv);
    const struct api_device *c = &dv;
    double khz = (double)c->core_clock_mhz * 1e3, cycles = (double)s->cycles;
    if (rt->cfg.mode != LS_MODE_TIMING) {
        /* no clock: every SM the grid occupies issuing one warp
         * instruction per scheduler per cycle, the machine's peak */
        uint64_t sms = s->ctas < (uint64_t)c->num_sms ? s->ctas : (uint64_t)c->num_sms;
        double per_cycle = (double)(sms ? sms : 1) * (double)c->num_schedulers;
        cycles = ceil((double)s->warp_insts / per_cycle);
    }
    return cycles / khz;
}

/* memcheck = warn: names each out-of-bounds site (kernel, pc) once per
 * program, on stderr, from the findings of the launch just run (those
 * after index nf0). */
static void report_oob(struct cudart_rt *rt, size_t nf0)
{
    const ls_check_finding *fl = NULL;
    size_t nf = ls_check_findings(rt->gpu, &fl);
    for (size_t i = nf0; i < nf; i++) {
        if (strcmp(fl[i].check, "memcheck"))
            continue;
        uint64_t h = 0xcbf29ce484222325ull ^ (uint64_t)(uint32_t)fl[i].a.pc;
        for (const char *p = fl[i].kernel; *p; p++)
            h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
        size_t k = 0;
        while (k < rt->noob_seen && rt->oob_seen[k] != h)
            k++;
        if (k < rt->noob_seen)
            continue;
        if (rt->noob_seen == rt->capoob_seen) {
            size_t nc = rt->capoob_seen ? rt->capoob_seen * 2 : 16;
            uint64_t *ns = realloc(rt->oob_seen, nc * sizeof *ns);
            if (!ns)
                return;
            rt->oob_seen = ns;
            rt->capoob_seen = nc;
        }
        rt->oob_seen[rt->noob_seen++] = h;
        char line[1024];
        fprintf(stderr, "lockstep cudart: %s (memcheck = warn: going on as a GPU does "
                "in the memory it maps)\n", ls_check_format(&fl[i], line,
                                                                       sizeof line));
    }
}

/* The first argument of launch args of f holding an address of host memory
 * mapped into the device (pinned, managed, registered): its index and
 * value, or -1. */
static int host_mapped_arg(const struct cudart_rt *rt, struct cudart_fn *f,
                           void **args, uint64_t *addr)
{
    struct api_kernel kk;
    const struct api_kernel *pf = kernel_of(f, &kk);
    for (uint32_t i = 0; pf && args && i < pf->nparams; i++) {
        if (api_kernel_param_size(f->mod->lsmod, f->name, i) != 8)
            continue;
        uint64_t v;
        memcpy(&v, args[i], 8);
        for (size_t k = 0; k < rt->nmgd; k++)
            if (rt->mgd[k].map && v - rt->mgd[k].d < rt->mgd[k].size)
                return *addr = v, (int)i;
        for (size_t k = 0; k < rt->nhreg; k++)
            if (v - rt->hreg[k].d < rt->hreg[k].size)
                return *addr = v, (int)i;
    }
    return -1;
}

static int is_sticky(ls_status st)
{
    return st != LS_ERR_INVALID && st != LS_ERR_LAUNCH && st != LS_ERR_PARSE &&
           st != LS_ERR_NOMEM;
}

cudaError_t cudart_launch_now(const void *fn, dim3 grid, dim3 block, void **args,
                              size_t shared, const char *api)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (rt->sticky != cudaSuccess)
        return rt->sticky;
    struct cudart_fn *f = ready_fn(rt, fn, api, &e);
    if (!f)
        return e;
    if ((e = check_dyn_shared(rt, f, shared, api)) != cudaSuccess)
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
    const ls_check_finding *fl = NULL;
    size_t nf0 = ls_check_findings(rt->gpu, &fl);
    l->st = ls_launch(rt->gpu, f->mod->lsmod, f->name, g, b, shared, args, &l->s);
    rt->nlaunches++;
    report_oob(rt, nf0);
    /* the memory digest is a pass over every allocated byte: after each
     * launch while the device holds at most CUDART_DIGEST_EVERY bytes,
     * else once, for the last launch, at exit (cudart_report) */
    struct api_device dm;
    api_device_info(rt->gpu, &dm);
    if (rt->stats_path && dm.mem_used <= CUDART_DIGEST_EVERY &&
        ls_mem_digest(rt->gpu, &l->digest) == LS_OK)
        l->have_digest = 1;
    rt->now_ms += cudart_launch_ms(rt, &l->s);
    cudaError_t pe = cudart_managed_pull(rt);
    if (l->st != LS_OK) {
        e = cudart_from_status(l->st);
        cudart_fail(rt, e, api, "kernel %s (launch %zu, grid %ux%ux%u, block "
                    "%ux%ux%u): %s: %s", f->name, rt->nlaunches, grid.x, grid.y, grid.z,
                    block.x, block.y, block.z, ls_status_name(l->st),
                    ls_gpu_error(rt->gpu));
        uint64_t ha;
        int ai = l->st == LS_ERR_DEADLOCK ? host_mapped_arg(rt, f, args, &ha) : -1;
        if (ai >= 0)
            fprintf(stderr, "lockstep cudart: kernel %s reads host memory mapped into the "
                    "device (argument %d, 0x%llx): a kernel waiting for the host to write "
                    "there cannot finish, as every launch runs to completion inside its "
                    "launch call (docs/cuda-programs.md, \"Kernels that wait for the "
                    "host\")\n", f->name, ai, (unsigned long long)ha);
        if (is_sticky(l->st))
            rt->sticky = e;
        return e;
    }
    if (pe != cudaSuccess)
        return cudart_fail(rt, pe, api, "copying managed memory back: %s",
                           ls_gpu_error(rt->gpu));
    return cudaSuccess;
}

/* A launch on stream s: recorded as a graph node when s is capturing,
 * else run now (every stream is in order). */
static cudaError_t launch_on(const void *fn, dim3 grid, dim3 block, void **args,
                             size_t shared, cudaStream_t s, const char *api)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (cudart_capturing(rt, s))
        return cudart_capture_kernel(rt, s, fn, grid, block, args, shared);
    return cudart_launch_now(fn, grid, block, args, shared, api);
}

cudaError_t __cudaLaunchKernel(cudaKernel_t k, dim3 grid, dim3 block, void **args,
                               size_t shared, cudaStream_t s)
{
    return launch_on(k, grid, block, args, shared, s, "<<<>>> launch");
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t k, dim3 grid, dim3 block, void **args,
                                    size_t shared, cudaStream_t s)
{
    return launch_on(k, grid, block, args, shared, s, "<<<>>> launch");
}

cudaError_t cudaLaunchKernel(const void *fn, dim3 grid, dim3 block, void **args,
                             size_t shared, cudaStream_t s)
{
    return launch_on(fn, grid, block, args, shared, s, "cudaLaunchKernel");
}

/* A cooperative launch: every CTA resident at once, so the grid may
 * synchronise (cooperative groups' grid.sync()). CUDA refuses a grid
 * larger than the device holds at once; the functional loop then runs all
 * its CTAs side by side (gpu_launch.c), timing mode dispatches them all
 * since they fit. */
static cudaError_t launch_coop(const void *fn, dim3 grid, dim3 block, void **args,
                               size_t shared, cudaStream_t s, const char *api)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (cudart_capturing(rt, s))
        return cudart_fail(rt, cudaErrorStreamCaptureUnsupported, api, "cooperative "
                           "kernel nodes are not modelled in captured graphs");
    int per_sm = 0;
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (threads > 0x7fffffff ||
        (e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, (int)threads,
                                                           shared)) != cudaSuccess)
        return threads > 0x7fffffff
                   ? cudart_fail(rt, cudaErrorInvalidConfiguration, api, "block size")
                   : e;
    uint64_t ctas = (uint64_t)grid.x * grid.y * grid.z;
    struct api_device dv;
    api_device_info(rt->gpu, &dv);
    uint64_t room = (uint64_t)per_sm * (uint64_t)dv.num_sms;
    if (ctas > room)
        return cudart_fail(rt, cudaErrorCooperativeLaunchTooLarge, api, "%llu CTAs of %llu "
                           "threads; the configured GPU holds %llu at once (%d per SM x %lld "
                           "SMs)", (unsigned long long)ctas, (unsigned long long)threads,
                           (unsigned long long)room, per_sm,
                           (long long)dv.num_sms);
    api_set_cooperative(rt->gpu, 1);
    e = cudart_launch_now(fn, grid, block, args, shared, api);
    if (rt->gpu)
        api_set_cooperative(rt->gpu, 0);
    return e;
}

cudaError_t cudaLaunchCooperativeKernel(const void *fn, dim3 grid, dim3 block, void **args,
                                        size_t shared, cudaStream_t s)
{
    return launch_coop(fn, grid, block, args, shared, s, "cudaLaunchCooperativeKernel");
}

cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *fn, dim3 grid, dim3 block,
                                             void **args, size_t shared, cudaStream_t s)
{
    return launch_coop(fn, grid, block, args, shared, s, "cudaLaunchCooperativeKernel");
}

#define cudaLaunchAttributeCooperative 2

cudaError_t cudaLaunchKernelExC(const struct cudaLaunchConfig *c, const void *fn, void **args)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!c)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaLaunchKernelExC", "null config");
    int coop = 0;
    for (unsigned i = 0; i < c->numAttrs; i++)
        if (c->attrs[i].id == cudaLaunchAttributeCooperative)
            coop = c->attrs[i].val.cooperative;
    /* the other attributes (priority, access policy, clusters of one,
     * programmatic serialisation ...) change nothing in order here */
    if (coop)
        return launch_coop(fn, c->gridDim, c->blockDim, args, c->dynamicSmemBytes,
                           c->stream, "cudaLaunchKernelExC");
    return launch_on(fn, c->gridDim, c->blockDim, args, c->dynamicSmemBytes, c->stream,
                     "cudaLaunchKernelExC");
}

cudaError_t cudart_copy_args(struct cudart_rt *rt, const void *fn, void **args,
                             char **blob, void ***argv, unsigned *n, const char *api)
{
    cudaError_t e;
    struct cudart_fn *f = ready_fn(rt, fn, api, &e);
    if (!f)
        return e;
    struct api_kernel kk;
    const struct api_kernel *pf = kernel_of(f, &kk);
    if (!pf)
        return cudart_fail(rt, cudaErrorInvalidDeviceFunction, api, "kernel %s not in "
                           "its PTX", f->name);
    size_t total = 0;
    for (uint32_t i = 0; i < pf->nparams; i++)
        total += (api_kernel_param_size(f->mod->lsmod, f->name, i) + 15) / 16 * 16;
    if (pf->nparams && !args)
        return cudart_fail(rt, cudaErrorInvalidValue, api, "kernel %s takes %u arguments "
                           "and none were given", f->name, pf->nparams);
    *blob = malloc(total ? total : 1);
    *argv = calloc(pf->nparams ? pf->nparams : 1, sizeof **argv);
    if (!*blob || !*argv) {
        free(*blob);
        free(*argv);
        return cudart_fail(rt, cudaErrorMemoryAllocation, api, "out of host memory");
    }
    size_t off = 0;
    for (uint32_t i = 0; i < pf->nparams; i++) {
        size_t sz = api_kernel_param_size(f->mod->lsmod, f->name, i);
        memcpy(*blob + off, args[i], sz);
        (*argv)[i] = *blob + off;
        off += (sz + 15) / 16 * 16;
    }
    *n = pf->nparams;
    return cudaSuccess;
}

/* f's kernel in its loaded module into *k; NULL when it is not there. */
static const struct api_kernel *kernel_of(struct cudart_fn *f, struct api_kernel *k)
{
    return api_kernel_info(f->mod->lsmod, f->name, k) ? NULL : k;
}

/* Threads per CTA f may be launched with: the GPU's limit, its
 * .maxntid/.reqntid if smaller. */
static uint32_t fn_max_threads(const struct api_kernel *pf, const struct api_device *lim)
{
    uint64_t t = lim->max_cta_threads;
    if (pf->maxntid[0]) {
        uint64_t m = (uint64_t)pf->maxntid[0] * (pf->maxntid[1] ? pf->maxntid[1] : 1) *
                     (pf->maxntid[2] ? pf->maxntid[2] : 1);
        t = m < t ? m : t;
    }
    return (uint32_t)t;
}

/* Registers per thread of f: the model's estimate (core_regs_per_thread),
 * the count the timing model gives every CTA of f that fits an SM by
 * registers (core_sm_fits), at least 1. */
static uint32_t fn_regs(const struct api_kernel *pf)
{
    return pf->regs ? pf->regs : 1;
}

/* cudaFuncAttributes.maxThreadsPerBlock: fn_max_threads lowered, in whole
 * warps, to the CTAs whose fn_regs registers fit the GPU's registers per
 * CTA, as CUDA reports it for a function of that register count (at least
 * one warp). Occupancy calculators that programs carry (LonestarGPU's
 * maximum_residency) multiply numRegs by their block size; with the count
 * the timing model uses, the CTAs they plan as resident are resident, so
 * a grid-wide software barrier in such a program completes. A larger
 * launch still runs: the timing model then lowers the registers per
 * thread (spilling, gpu_timing.c). */
static uint32_t fn_attr_threads(const struct api_kernel *pf, const struct api_device *lim)
{
    uint64_t t = fn_max_threads(pf, lim);
    uint64_t fit = (uint64_t)lim->max_cta_regs / ((uint64_t)fn_regs(pf) * 32) * 32;
    if (fit < 32)
        fit = 32;
    return (uint32_t)(fit < t ? fit : t);
}

/* Dynamic shared bytes a launch of f may ask for (CUDA's
 * cudaFuncAttributeMaxDynamicSharedMemorySize): the program's setting,
 * else the GPU's shared memory per CTA without opt-in less f's static. */
static uint64_t fn_max_dyn(const struct cudart_fn *f, const struct api_kernel *pf,
                           const struct api_device *lim)
{
    if (f->max_dyn_shared >= 0)
        return (uint64_t)f->max_dyn_shared;
    return lim->max_shared > pf->shared_bytes ? lim->max_shared - pf->shared_bytes : 0;
}

/* A launch's dynamic shared memory against the kernel's limit, as CUDA
 * checks it (cudaErrorInvalidValue); the GPU's opt-in limit on static +
 * dynamic bytes is ls_launch's (LS_ERR_LAUNCH), in both modes. */
static cudaError_t check_dyn_shared(struct cudart_rt *rt, struct cudart_fn *f,
                                    size_t shared, const char *api)
{
    struct api_kernel kk0;
    const struct api_kernel *pf = kernel_of(f, &kk0);
    struct api_device lim;
    api_device_info(rt->gpu, &lim);
    uint64_t max = pf ? fn_max_dyn(f, pf, &lim) : lim.max_shared_optin;
    if (shared <= max)
        return cudaSuccess;
    return cudart_fail(rt, cudaErrorInvalidValue, api, "kernel %s: %zu bytes of dynamic "
                       "shared memory, more than its limit of %llu (%s; "
                       "cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize) "
                       "raises it up to sharedMemPerBlockOptin, %llu bytes with the "
                       "static ones)", f->name, shared, (unsigned long long)max,
                       f->max_dyn_shared >= 0 ? "as set by the program"
                                              : "sharedMemPerBlock less its static bytes",
                       (unsigned long long)lim.max_shared_optin);
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *fn)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
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
    struct api_device lim;
    api_device_info(rt->gpu, &lim);
    memset(a, 0, sizeof *a);
    a->sharedSizeBytes = (size_t)pf->shared_bytes;
    a->constSizeBytes = (size_t)pf->const_bytes;
    a->localSizeBytes = (size_t)pf->local_bytes;
    a->maxThreadsPerBlock = (int)fn_attr_threads(pf, &lim);
    a->numRegs = (int)fn_regs(pf);
    /* the virtual architecture the PTX was generated for (CUB compares it
     * with __CUDA_ARCH_LIST__), and the device's own: the model runs it
     * as sm_75 code */
    a->ptxVersion = (int)pf->target_sm;
    a->binaryVersion = 75;
    a->maxDynamicSharedSizeBytes = (int)fn_max_dyn(f, pf, &lim);
    a->preferredShmemCarveout = -1;
    return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void *fn, int cfg)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
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
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    struct cudart_fn *f = ready_fn(rt, fn, "cudaFuncSetAttribute", &e);
    if (!f)
        return e;
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout)
        return value >= -1 && value <= 100
                   ? cudaSuccess
                   : cudart_fail(rt, cudaErrorInvalidValue, "cudaFuncSetAttribute",
                                 "%s: carveout %d (-1 or 0..100 percent)", f->name, value);
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        /* as CUDA checks it: static + dynamic within the opt-in limit */
        struct api_kernel kk0;
    const struct api_kernel *pf = kernel_of(f, &kk0);
        struct api_device lim;
        api_device_info(rt->gpu, &lim);
        if (value < 0 || !pf || (uint64_t)value + pf->shared_bytes > lim.max_shared_optin)
            return cudart_fail(rt, cudaErrorInvalidValue, "cudaFuncSetAttribute",
                               "%s: %d dynamic + %llu static shared bytes exceed the "
                               "configured GPU's %llu per CTA (sharedMemPerBlockOptin: "
                               "max_shared_per_cta_optin, shared_per_sm)", f->name,
                               value, pf ? (unsigned long long)pf->shared_bytes : 0ull,
                               (unsigned long long)lim.max_shared_optin);
        f->max_dyn_shared = value;
        return cudaSuccess;
    }
    return cudart_fail(rt, cudaErrorInvalidValue, "cudaFuncSetAttribute",
                       "attribute %d is not modelled (max dynamic shared size, "
                       "preferred carveout)", attr);
}

/* CTAs of block threads that fit one SM at once: the limits of
 * core_sm_fits (CTA slots, warp slots, threads, registers, shared). */
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n,
    const void *fn, int block, size_t dyn_shared, unsigned flags)
{
    (void)flags;
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
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
    struct api_device cl;
    api_device_info(rt->gpu, &cl);
    if ((uint64_t)block > fn_max_threads(pf, &cl) ||
        pf->shared_bytes + dyn_shared > cl.max_shared_optin) {
        *n = 0;                 /* such a CTA cannot be launched at all */
        return cudaSuccess;
    }
    const struct api_device *c = &cl;
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
