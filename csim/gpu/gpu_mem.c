/* Device memory: a flat 64-bit address space from EXEC_GLOBAL_BASE with a
 * sorted allocation table (first fit, 256-byte granules); module variables
 * live in it too. Large allocations are anonymous mappings the host backs
 * only where they are touched, so a device of the configured size
 * (global_mem_bytes) costs host memory in proportion to what a program
 * uses; gpu_mem_watch stops a run with a message before the host runs
 * out. See docs/memory-model.md. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "gpu/gpu.h"
#include "exec/exec_check.h"

#define GPU_ALIGN 256u
/* Allocations of at least this many bytes are mapped (sparse), smaller
 * ones malloc'd (a mapping costs a page and a system call). */
#define GPU_MAP_MIN (1ull << 20)
/* Without host_mem_limit: the host memory a run leaves free (MemAvailable)
 * below which gpu_mem_watch stops it, rather than let the kernel's
 * out-of-memory killer end the process without a word. */
#define GPU_HOST_RESERVE (256ull << 20)

void gpu_mem_release(uint8_t *host, uint64_t mapped)
{
    if (mapped)
        munmap(host, (size_t)mapped);
    else
        free(host);
}

/* For n pages from page-aligned p: bit k of used[k / 64] = page k was
 * ever touched (present, or swapped out: /proc/self/pagemap bits 63 and
 * 62). Returns 0, or -1 when pagemap cannot be read (then every page
 * counts as touched). */
static int touched_pages(const uint8_t *p, uint64_t n, uint64_t *used)
{
    uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
    FILE *f = fopen("/proc/self/pagemap", "rb");
    int rc = -1;
    if (f && fseeko(f, (off_t)((uintptr_t)p / pg * 8), SEEK_SET) == 0) {
        uint64_t e[512];
        rc = 0;
        for (uint64_t k = 0; k < n && rc == 0;) {
            size_t m = n - k < 512 ? (size_t)(n - k) : 512;
            if (fread(e, 8, m, f) != m) {
                rc = -1;
                break;
            }
            for (size_t j = 0; j < m; j++, k++)
                if (e[j] >> 62)
                    used[k / 64] |= 1ull << (k % 64);
        }
    }
    if (f)
        fclose(f);
    if (rc != 0)
        memset(used, 0xff, (size_t)((n + 63) / 64) * 8);
    return rc;
}

/* Host bytes touched in the mapped allocations of d. */
static uint64_t mapped_resident(const struct exec_dmem *d)
{
    uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE), res = 0;
    for (uint32_t i = 0; i < d->n; i++) {
        const struct exec_alloc *a = &d->a[i];
        if (!a->mapped)
            continue;
        uint64_t np = (a->mapped + pg - 1) / pg;
        uint64_t *used = calloc((size_t)(np + 63) / 64, 8);
        if (!used) {
            res += a->mapped;
            continue;
        }
        touched_pages(a->host, np, used);
        for (uint64_t w = 0; w < (np + 63) / 64; w++)
            res += (uint64_t)__builtin_popcountll(used[w]) * pg;
        free(used);
    }
    return res;
}

/* MemAvailable of /proc/meminfo in bytes, or UINT64_MAX if unknown. */
static uint64_t host_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    uint64_t v = UINT64_MAX;
    char line[128];
    while (f && fgets(line, sizeof line, f)) {
        unsigned long long kb;
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
            v = (uint64_t)kb * 1024;
            break;
        }
    }
    if (f)
        fclose(f);
    return v;
}

ls_status gpu_mem_watch(ls_gpu *gpu, uint64_t more)
{
    const struct exec_dmem *d = &gpu->dmem;
    bool any = false;
    for (uint32_t i = 0; i < d->n && !any; i++)
        any = d->a[i].mapped != 0;
    if (!any)
        return LS_OK;
    uint64_t lim = (uint64_t)gpu->tcfg.host_mem_limit;
    uint64_t res = mapped_resident(d);
    if (lim) {
        if (res + more <= lim)
            return LS_OK;
        return GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory limit reached: the device memory "
                        "touched so far takes %llu MiB of host memory%s, over "
                        "host_mem_limit (%llu MiB); device memory is backed only where "
                        "a program touches it", (unsigned long long)(res >> 20),
                        more ? " and a copy would add more" : "",
                        (unsigned long long)(lim >> 20));
    }
    uint64_t avail = host_available();
    if (avail == UINT64_MAX || (avail > GPU_HOST_RESERVE &&
                                avail - GPU_HOST_RESERVE >= more))
        return LS_OK;
    return GPU_FAIL(gpu, LS_ERR_NOMEM, "the host is out of memory: the device memory "
                    "touched so far takes %llu MiB of host memory and the host has %llu "
                    "MiB left%s (device memory is backed only where a program touches "
                    "it; a smaller problem, or a host with more memory, is needed)",
                    (unsigned long long)(res >> 20), (unsigned long long)(avail >> 20),
                    more ? ", less than a copy needs" : "");
}

uint64_t gpu_mem_digest(const struct exec_alloc *a, uint64_t h)
{
    /* FNV-1a; a page the host never touched is zeros, and n zero bytes
     * multiply h by P^n, so such a page costs one multiplication */
    const uint64_t P = 0x100000001b3ull;
    uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE), np = 0, pn = 1;
    uint64_t *used = NULL;
    if (a->mapped) {
        np = a->size / pg;
        used = calloc((size_t)(np + 63) / 64 + 1, 8);
        if (used)
            touched_pages(a->host, np, used);
        for (uint64_t k = 0; k < pg; k++)
            pn *= P;
    }
    uint64_t k = 0;
    if (used)
        for (uint64_t p = 0; p < np; p++, k += pg) {
            if (!(used[p / 64] >> (p % 64) & 1)) {
                h *= pn;
                continue;
            }
            for (uint64_t j = 0; j < pg; j++)
                h = (h ^ a->host[k + j]) * P;
        }
    for (; k < a->size; k++)
        h = (h ^ a->host[k]) * P;
    free(used);
    return h;
}

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
    uint64_t mapped = 0;
    uint8_t *host;
    if (sz >= GPU_MAP_MIN) {
        /* MAP_NORESERVE: no commit charge; pages appear when touched */
        void *h = mmap(NULL, (size_t)span, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        host = h == MAP_FAILED ? NULL : h;
        mapped = span;
    } else {
        host = calloc(1, (size_t)span);     /* the granule's padding too */
    }
    if (!host)
        return GPU_FAIL(gpu, LS_ERR_NOMEM,
                        "host memory exhausted reserving address space for %llu "
                        "device bytes", (unsigned long long)bytes);
    /* initcheck: one bit per byte, set when the host or a kernel writes it */
    uint8_t *init = NULL;
    if ((unsigned)gpu->tcfg.check & EXEC_CHK_INIT) {
        init = calloc(1, (size_t)(sz + 7) / 8);
        if (!init) {
            gpu_mem_release(host, mapped);
            return GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted (initcheck "
                            "shadow of %llu device bytes)", (unsigned long long)bytes);
        }
    }
    memmove(&d->a[pos + 1], &d->a[pos], (d->n - pos) * sizeof *d->a);
    d->a[pos] = (struct exec_alloc){ cand, bytes, host, what, init, mapped, span, false };
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
        if (!d->a[i].ext)
            gpu_mem_release(d->a[i].host, d->a[i].mapped);
        free(d->a[i].init);
        memmove(&d->a[i], &d->a[i + 1], (d->n - i - 1) * sizeof *d->a);
        d->n--;
        return LS_OK;
    }
    return GPU_FAIL(gpu, LS_ERR_INVALID,
                    "ls_free(0x%llx): not the start of a live allocation",
                    (unsigned long long)ptr);
}

ls_status gpu_mem_adopt(ls_gpu *gpu, ls_dptr ptr, uint8_t *host, uint64_t bytes,
                        bool copy)
{
    struct exec_dmem *d = &gpu->dmem;
    for (uint32_t i = 0; i < d->n; i++) {
        struct exec_alloc *a = &d->a[i];
        if (a->base != ptr)
            continue;
        if (bytes < a->span || a->ext)
            return GPU_FAIL(gpu, LS_ERR_INVALID, "gpu_mem_adopt(0x%llx): %llu bytes for "
                            "a %llu-byte granule span%s", (unsigned long long)ptr,
                            (unsigned long long)bytes, (unsigned long long)a->span,
                            a->ext ? " (adopted already)" : "");
        uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE), np = (a->mapped + pg - 1) / pg;
        uint64_t *used = copy && a->mapped ? calloc((size_t)(np + 63) / 64, 8) : NULL;
        if (!copy) {
            /* host holds the contents */
        } else if (used) {      /* only the pages ever touched hold data */
            touched_pages(a->host, np, used);
            for (uint64_t k = 0; k < np; k++)
                if (used[k / 64] >> (k % 64) & 1)
                    memcpy(host + k * pg, a->host + k * pg,
                           (size_t)(a->span - k * pg < pg ? a->span - k * pg : pg));
            free(used);
        } else {
            memcpy(host, a->host, (size_t)a->span);
        }
        gpu_mem_release(a->host, a->mapped);
        a->host = host;
        a->mapped = 0;
        a->ext = true;
        d->epoch++;             /* cached host pointers are stale */
        return LS_OK;
    }
    return GPU_FAIL(gpu, LS_ERR_INVALID, "gpu_mem_adopt(0x%llx): not the start of a live "
                    "allocation", (unsigned long long)ptr);
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
        if (!gpu->dmem.a[i].ext)
            gpu_mem_release(gpu->dmem.a[i].host, gpu->dmem.a[i].mapped);
        free(gpu->dmem.a[i].init);
    }
    free(gpu->dmem.a);
    gpu->dmem.a = NULL;
    exec_dmem_gap_free(&gpu->dmem);
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
