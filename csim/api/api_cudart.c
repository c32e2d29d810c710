/* The internal API of the CUDA runtime (api_int.h): what csim/cudart asks
 * of the simulated device and its kernels beyond include/lockstep.h. */
#include <stdlib.h>
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
    struct gpu_cta_limits lim;
    gpu_cta_limits(gpu, &lim);
    d->max_cta_threads = lim.threads;
    d->max_shared = (unsigned)lim.shared;
    d->max_shared_optin = lim.shared_optin;
    d->max_cta_regs = lim.regs;
    d->warp_size = c->warp_size;
    d->num_schedulers = c->num_schedulers;
    d->l1d_size = c->l1d_size;
    d->l2_size = c->l2_size;
    d->mem_partitions = c->mem_partitions;
    d->dram_chips = c->dram_chips;
    d->dram_dq_pins = c->dram_dq_pins;
    d->printf_fifo_size = c->printf_fifo_size;
    d->malloc_heap_size = c->malloc_heap_size;
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
    const char *t = strstr(mod->ptx->target, "sm_");
    k->target_sm = t ? (unsigned)atoi(t + 3) : 0;
    k->nparams = f->nparams;
    return 0;
}

size_t api_kernel_param_size(const ls_module *mod, const char *name, unsigned i)
{
    const struct ptx_func *f = mod && name ? ptx_find_func(mod->ptx, name) : NULL;
    return f && i < f->nparams ? (size_t)f->params[i].size : 0;
}

void api_set_dev_limits(ls_gpu *gpu, int64_t printf_fifo, int64_t malloc_heap)
{
    if (printf_fifo >= 0)
        gpu->tcfg.printf_fifo_size = printf_fifo;
    if (malloc_heap >= 0)
        gpu->tcfg.malloc_heap_size = malloc_heap;
}

void api_set_cooperative(ls_gpu *gpu, int on)
{
    gpu->coop_launch = on != 0;
}

ls_status api_mem_adopt(ls_gpu *gpu, ls_dptr ptr, void *host, uint64_t bytes, int copy)
{
    return gpu_mem_adopt(gpu, ptr, host, bytes, copy != 0);
}

ls_status api_mem_watch(ls_gpu *gpu, uint64_t more)
{
    return gpu_mem_watch(gpu, more);
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
