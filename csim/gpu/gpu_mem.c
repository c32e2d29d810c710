/* Device memory: a flat 64-bit address space from EXEC_GLOBAL_BASE with a
 * sorted allocation table (first fit, 256-byte granules); module variables
 * live in it too. See docs/memory-model.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/gpu.h"
#include "exec/exec_check.h"

#define GPU_ALIGN 256u

ls_status gpu_mem_alloc(ls_gpu *gpu, uint64_t bytes, const char *what,
                        ls_dptr *ptr)
{
    struct exec_dmem *d = &gpu->dmem;
    uint64_t sz = bytes ? bytes : 1;
    uint64_t span = (sz + GPU_ALIGN - 1) / GPU_ALIGN * GPU_ALIGN;
    if (span < sz || span > d->capacity - d->used)
        return GPU_FAIL(gpu, LS_ERR_NOMEM,
                        "device memory exhausted: %llu bytes requested, "
                        "%llu of %llu in use", (unsigned long long)bytes,
                        (unsigned long long)d->used,
                        (unsigned long long)d->capacity);
    /* first fit between sorted allocations */
    uint64_t cand = EXEC_GLOBAL_BASE;
    uint32_t pos = 0;
    for (; pos < d->n; pos++) {
        const struct exec_alloc *a = &d->a[pos];
        if (a->base - cand >= span)
            break;
        uint64_t end = a->base + (a->size + GPU_ALIGN - 1) / GPU_ALIGN * GPU_ALIGN;
        if (a->size == 0)
            end = a->base + GPU_ALIGN;
        cand = end;
    }
    if (cand - EXEC_GLOBAL_BASE + span > d->capacity)
        return GPU_FAIL(gpu, LS_ERR_NOMEM,
                        "device memory exhausted (fragmented): %llu bytes",
                        (unsigned long long)bytes);
    if (d->n == d->cap) {
        uint32_t nc = d->cap ? d->cap * 2 : 64;
        struct exec_alloc *na = realloc(d->a, nc * sizeof *na);
        if (!na)
            return GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted");
        d->a = na;
        d->cap = nc;
    }
    uint8_t *host = calloc(1, (size_t)sz);
    if (!host)
        return GPU_FAIL(gpu, LS_ERR_NOMEM,
                        "host memory exhausted backing %llu device bytes",
                        (unsigned long long)bytes);
    /* initcheck: one bit per byte, set when the host or a kernel writes it */
    uint8_t *init = NULL;
    if ((unsigned)gpu->tcfg.check & EXEC_CHK_INIT) {
        init = calloc(1, (size_t)(sz + 7) / 8);
        if (!init) {
            free(host);
            return GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted (initcheck "
                            "shadow of %llu device bytes)", (unsigned long long)bytes);
        }
    }
    memmove(&d->a[pos + 1], &d->a[pos], (d->n - pos) * sizeof *d->a);
    d->a[pos] = (struct exec_alloc){ cand, bytes, host, what, init };
    d->n++;
    d->used += span;
    *ptr = cand;
    return LS_OK;
}

ls_status gpu_mem_free(ls_gpu *gpu, ls_dptr ptr)
{
    struct exec_dmem *d = &gpu->dmem;
    for (uint32_t i = 0; i < d->n; i++) {
        if (d->a[i].base != ptr)
            continue;
        if (ptr >= EXEC_HEAP_BASE)
            return GPU_FAIL(gpu, LS_ERR_INVALID, "ls_free(0x%llx): memory of the "
                            "device heap (free it with free() in device code)",
                            (unsigned long long)ptr);
        uint64_t sz = d->a[i].size ? d->a[i].size : 1;
        d->used -= (sz + GPU_ALIGN - 1) / GPU_ALIGN * GPU_ALIGN;
        free(d->a[i].host);
        free(d->a[i].init);
        memmove(&d->a[i], &d->a[i + 1], (d->n - i - 1) * sizeof *d->a);
        d->n--;
        return LS_OK;
    }
    return GPU_FAIL(gpu, LS_ERR_INVALID,
                    "ls_free(0x%llx): not the start of a live allocation",
                    (unsigned long long)ptr);
}

uint8_t *gpu_mem_host(ls_gpu *gpu, ls_dptr addr, uint64_t n, const char *op)
{
    const struct exec_alloc *a = exec_dmem_find(&gpu->dmem, addr, n ? n : 1);
    if (!a) {
        GPU_FAIL(gpu, LS_ERR_MEMFAULT,
                 "%s: device range [0x%llx, 0x%llx) is not inside one live "
                 "allocation", op, (unsigned long long)addr,
                 (unsigned long long)(addr + n));
        return NULL;
    }
    return a->host + (addr - a->base);
}

void gpu_mem_written(ls_gpu *gpu, ls_dptr addr, uint64_t n)
{
    const struct exec_alloc *a = exec_dmem_find(&gpu->dmem, addr, n ? n : 1);
    if (a)
        exec_chk_init_mark(a, addr - a->base, n);
}

void gpu_mem_fini(ls_gpu *gpu)
{
    for (uint32_t i = 0; i < gpu->dmem.n; i++) {
        free(gpu->dmem.a[i].host);
        free(gpu->dmem.a[i].init);
    }
    free(gpu->dmem.a);
    gpu->dmem.a = NULL;
    gpu->dmem.n = gpu->dmem.cap = 0;
    gpu->dmem.used = 0;
}

ls_status gpu_module_place(ls_gpu *gpu, struct ls_module *m)
{
    const struct ptx_module *p = m->ptx;
    m->sym_addr = calloc(p->nsyms ? p->nsyms : 1, sizeof *m->sym_addr);
    if (!m->sym_addr)
        return GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted");
    for (uint32_t i = 0; i < p->nsyms; i++) {
        const struct ptx_symbol *s = &p->syms[i];
        if (s->space != PTX_SP_GLOBAL && s->space != PTX_SP_CONST &&
            s->space != PTX_SP_TEX)
            continue;
        if (s->is_extern && s->size == 0)
            continue;
        uint64_t sz = s->size ? s->size : 8;    /* .texref: one handle */
        ls_dptr a;
        ls_status st = gpu_mem_alloc(gpu, sz, s->name, &a);
        if (st != LS_OK)
            return st;
        m->sym_addr[i] = a;
        gpu_mem_written(gpu, a, sz);    /* zero or its initializer */
        if (s->init)
            memcpy(gpu_mem_host(gpu, a, s->size, "module load"), s->init,
                   (size_t)s->size);
    }
    return gpu_module_relocate(gpu, m);
}
