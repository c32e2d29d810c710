/* A CUDA host program for every workload: the workload's own C driver
 * (workloads/NAME/NAME.c, its inputs, launches and CPU check unchanged)
 * over a stand-in for the few liblockstep calls drivers make, written
 * with the CUDA runtime API; the kernels are the workload's .cu compiled
 * by nvcc into the same program. Run under `lockstep exec`, it must give
 * the statistics `lockstep run NAME` gives (tests/cuda/run.sh).
 * Built with -DWL_DEF=wl_def_NAME and a generated NAME.table.cu that
 * includes the workload's .cu and lists each kernel's host stub and each
 * __constant__'s host shadow by name (from the committed PTX), so the
 * driver's by-name calls reach them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include "workloads/wl_common.h"

/* NAME.table.cu: {name, host stub or shadow}, ending with {0, 0}. */
struct wl_entity { const char *name; const void *host; };
extern const struct wl_entity wl_entities[];

static const void *find_entity(const char *name)
{
    for (const struct wl_entity *e = wl_entities; e->name; e++)
        if (!strcmp(e->name, name))
            return e->host;
    return NULL;
}

static ls_status st_of(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return LS_OK;
    case cudaErrorMemoryAllocation: return LS_ERR_NOMEM;
    case cudaErrorIllegalAddress: return LS_ERR_MEMFAULT;
    case cudaErrorInvalidConfiguration: return LS_ERR_LAUNCH;
    default: return LS_ERR_INVALID;
    }
}

const char *ls_status_name(ls_status s)
{
    static const char *const n[] = { "LS_OK", "LS_ERR_INVALID", "LS_ERR_PARSE",
        "LS_ERR_NOMEM", "LS_ERR_MEMFAULT", "LS_ERR_DEADLOCK", "LS_ERR_LAUNCH" };
    return (unsigned)s < sizeof n / sizeof n[0] ? n[s] : "LS_ERR_?";
}

const char *ls_gpu_error(const ls_gpu *gpu)
{
    (void)gpu;
    return cudaGetErrorString(cudaPeekAtLastError());
}

ls_status ls_malloc(ls_gpu *gpu, ls_dptr *ptr, size_t bytes)
{
    (void)gpu;
    void *p = NULL;
    ls_status st = st_of(cudaMalloc(&p, bytes));
    *ptr = (ls_dptr)(uintptr_t)p;
    return st;
}

ls_status ls_free(ls_gpu *gpu, ls_dptr ptr)
{
    (void)gpu;
    return st_of(cudaFree((void *)(uintptr_t)ptr));
}

ls_status ls_memcpy_htod(ls_gpu *gpu, ls_dptr dst, const void *src, size_t n)
{
    (void)gpu;
    return st_of(cudaMemcpy((void *)(uintptr_t)dst, src, n, cudaMemcpyHostToDevice));
}

ls_status ls_memcpy_dtoh(ls_gpu *gpu, void *dst, ls_dptr src, size_t n)
{
    (void)gpu;
    return st_of(cudaMemcpy(dst, (void *)(uintptr_t)src, n, cudaMemcpyDeviceToHost));
}

ls_status ls_memset(ls_gpu *gpu, ls_dptr dst, int value, size_t n)
{
    (void)gpu;
    return st_of(cudaMemset((void *)(uintptr_t)dst, value, n));
}

ls_status ls_module_symbol(ls_gpu *gpu, ls_module *mod, const char *name,
                           ls_dptr *ptr, size_t *bytes)
{
    (void)gpu; (void)mod;
    const void *shadow = find_entity(name);
    void *d = NULL;
    if (!shadow) {
        fprintf(stderr, "wl_host: no host shadow of __constant__ %s\n", name);
        return LS_ERR_INVALID;
    }
    cudaError_t e = cudaGetSymbolAddress(&d, shadow);
    if (e == cudaSuccess && bytes)
        e = cudaGetSymbolSize(bytes, shadow);
    *ptr = (ls_dptr)(uintptr_t)d;
    return st_of(e);
}

ls_status ls_launch(ls_gpu *gpu, ls_module *mod, const char *kernel,
                    ls_dim3 grid, ls_dim3 block, size_t dyn_shared,
                    void **args, ls_stats *stats)
{
    (void)gpu; (void)mod;
    const void *stub = find_entity(kernel);
    if (!stub) {
        fprintf(stderr, "wl_host: no host stub for kernel %s\n", kernel);
        return LS_ERR_INVALID;
    }
    if (stats)
        memset(stats, 0, sizeof *stats);   /* the runtime library reports them */
    dim3 g = { grid.x, grid.y, grid.z }, b = { block.x, block.y, block.z };
    return st_of(cudaLaunchKernel(stub, g, b, args, dyn_shared, 0));
}

void ls_stats_add(ls_stats *acc, const ls_stats *s, unsigned warp_size)
{
    (void)warp_size;
    acc->launches += s->launches;
}

extern const struct workload WL_DEF;
const struct workload *const wl_registry[] = { &WL_DEF, NULL };

int main(int argc, char **argv)
{
    enum wl_size size = WL_SMALL;
    if (argc > 1 && !strcmp(argv[1], "default"))
        size = WL_DEFAULT;
    else if (argc > 1 && !strcmp(argv[1], "large"))
        size = WL_LARGE;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
    struct wl_report rep;
    memset(&rep, 0, sizeof rep);
    int rc = WL_DEF.run(NULL, NULL, size, seed, &rep);
    int pass = rc == 0 && rep.pass && rep.nlaunches > 0;
    printf("%s %s: %u launches%s%s\n", pass ? "PASS" : "FAIL", WL_DEF.name,
           rep.nlaunches, rep.msg[0] ? ": " : "", rep.msg);
    return pass ? 0 : 1;
}
