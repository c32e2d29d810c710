/* The simulated GPU behind the public API: device memory, loaded modules,
 * textures, the last error message, and the functional launch loop. */
#ifndef GPU_H
#define GPU_H

#include <stdarg.h>
#include "lockstep.h"
#include "exec/exec_mem.h"
#include "ptx/ptx_ir.h"

#define GPU_ERR_LEN 8192
#define GPU_MAX_SHARED (96u * 1024u)   /* static + dynamic shared per CTA */
#define GPU_MAX_CTA_THREADS 1024u

struct ls_module {
    struct ls_module *next;
    struct ptx_module *ptx;
    uint64_t *sym_addr;         /* device address of each module symbol */
    char *name;
};

struct ls_gpu {
    ls_config cfg;
    struct exec_dmem dmem;
    struct exec_tex *tex;
    uint32_t ntex, texcap;
    struct ls_module *mods;
    char err[GPU_ERR_LEN];
};

/* Records "file:line: message" as gpu's last error and returns st. */
ls_status gpu_fail(ls_gpu *gpu, ls_status st, const char *file, int line,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define GPU_FAIL(gpu, st, ...) gpu_fail((gpu), (st), __FILE__, __LINE__, __VA_ARGS__)

/* Reserves bytes (256-aligned) of device memory for `what`; *ptr = base. */
ls_status gpu_mem_alloc(ls_gpu *gpu, uint64_t bytes, const char *what,
                        ls_dptr *ptr);
/* Releases the allocation starting at ptr. */
ls_status gpu_mem_free(ls_gpu *gpu, ls_dptr ptr);
/* Host pointer for [addr, addr+n) inside one live allocation, or NULL
 * (with the error recorded, naming op). */
uint8_t *gpu_mem_host(ls_gpu *gpu, ls_dptr addr, uint64_t n, const char *op);
/* Frees every allocation of gpu. */
void gpu_mem_fini(ls_gpu *gpu);

/* Allocates and initialises the module's .global/.const/.texref symbols. */
ls_status gpu_module_place(ls_gpu *gpu, struct ls_module *m);

/* Kernel entry of mod named name, or its mangled form _Z<len><name>... */
const struct ptx_func *gpu_find_kernel(const struct ptx_module *mod,
                                       const char *name, int *ambiguous);

/* Runs kernel f of module m to completion (functional mode). */
ls_status gpu_launch(ls_gpu *gpu, struct ls_module *m,
                     const struct ptx_func *f, ls_dim3 grid, ls_dim3 block,
                     size_t dyn_shared, void **args, ls_stats *stats);

#endif
