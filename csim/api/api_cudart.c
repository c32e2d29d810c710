/* The internal API of the CUDA runtime (api_int.h): what csim/cudart asks
 * of the simulated device and its kernels beyond include/lockstep.h. */
#include <string.h>
#include "api/api_int.h"
#include "gpu/gpu.h"
#include "core/core.h"

void api_device_info(const ls_gpu *gpu, struct api_device *d)
{
    const struct cfg *c = &gpu->tcfg;
    memset(d, 0, sizeof *d);
    d->num_sms = c->num_sms;
    d->core_clock_mhz = c->core_clock_mhz;
    d->dram_clock_mhz = c->dram_clock_mhz;
    d->dram_bus_bytes = c->dram_bus_bytes;
    d->regs_per_sm = c->regs_per_sm;
    d->shared_per_sm = c->shared_per_sm;
    d->max_threads_per_sm = c->max_threads_per_sm;
    d->max_ctas_per_sm = c->max_ctas_per_sm;
    d->warp_slots = core_sm_slots(c);
    d->max_cta_threads = GPU_MAX_CTA_THREADS;
    d->max_shared = GPU_MAX_SHARED;
    d->mem_capacity = gpu->dmem.capacity;
    d->mem_used = gpu->dmem.used;
}

int api_kernel_info(const ls_module *mod, const char *name, struct api_kernel *k)
{
    const struct ptx_func *f = mod && name ? ptx_find_func(mod->ptx, name) : NULL;
    if (!f)
        return -1;
    memset(k, 0, sizeof *k);
    k->shared_bytes = f->shared_bytes;
    k->const_bytes = mod->ptx->const_bytes;
    k->local_bytes = f->local_bytes;
    for (int i = 0; i < 3; i++)
        k->maxntid[i] = f->maxntid[i];
    k->regs = (unsigned)core_regs_per_thread(f);
    k->ptx_version = (unsigned)(mod->ptx->version_major * 10 + mod->ptx->version_minor);
    return 0;
}

int api_mem_is_device(const ls_gpu *gpu, uint64_t addr, size_t n)
{
    return exec_dmem_find(&gpu->dmem, addr, n ? n : 1) != NULL;
}

ls_status api_memcpy_dtod(ls_gpu *gpu, ls_dptr dst, ls_dptr src, size_t n, const char *who)
{
    const uint8_t *s = gpu_mem_host(gpu, src, n, who);
    uint8_t *d = s ? gpu_mem_host(gpu, dst, n, who) : NULL;
    if (!d)
        return LS_ERR_INVALID;
    memmove(d, s, n);
    gpu_mem_written(gpu, dst, n);
    return LS_OK;
}
