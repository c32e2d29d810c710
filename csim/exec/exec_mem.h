/* Memory side of the functional exec layer: the device allocation table,
 * the per-warp view of shared/local/param memory, the generic-address
 * windows, ld/st/atom/red/tex/cvta (exec_mem) and the warp collectives
 * shfl/vote/activemask/bar.warp.sync (exec_warpops).
 * The address map is documented in docs/memory-model.md. */
#ifndef EXEC_MEM_H
#define EXEC_MEM_H

#include <stdint.h>
#include "exec/exec.h"
#include "exec/exec_tex.h"

struct exec_chk;

/* Generic address space: global allocations live in
 * [EXEC_GLOBAL_BASE, EXEC_GLOBAL_BASE + capacity); the shared and local
 * windows map generic addresses onto space offsets. */
#define EXEC_GLOBAL_BASE   0x10000000ull
#define EXEC_SHARED_WINDOW 0x0000100000000000ull   /* generic = base + off */
#define EXEC_LOCAL_WINDOW  0x0000200000000000ull
#define EXEC_PARAM_WINDOW  0x0000300000000000ull   /* kernel params     */
#define EXEC_WINDOW_BYTES  0x0000000100000000ull   /* 4 GiB per window    */
/* Device-heap (malloc in device code) allocations are global allocations
 * in [EXEC_HEAP_BASE, EXEC_HEAP_BASE + EXEC_HEAP_SPAN), above any
 * ls_malloc address (global_mem_bytes <= 2^40); docs/device-runtime.md. */
#define EXEC_HEAP_BASE     0x0000080000000000ull
#define EXEC_HEAP_SPAN     0x0000080000000000ull
/* Param-space addresses with this bit name per-thread call parameters
 * (offset into the thread's local stack); without it, the kernel param
 * buffer. */
#define EXEC_PARAM_THREAD  0x80000000ull
/* Texture handles are (tag | index) into the texture table. */
#define EXEC_TEX_TAG       0x7e70000000000000ull

/* memcheck = warn/off: the memory a GPU maps around the allocations.
 * NVIDIA's GPUs map device memory in 2 MiB pages (the allocation
 * granularity cuMemGetAllocationGranularity reports) and the driver keeps
 * the context's own allocations below the program's first one, so an
 * access a little before or past an allocation reads mapped memory. The
 * model's mapped range: from one such page below EXEC_GLOBAL_BASE to the
 * end of the page holding the end of the highest allocation (the device
 * heap aside). Its bytes outside every allocation's granule start zero
 * and are backed on first touch, EXEC_GAP_CHUNK bytes at a time. */
#define EXEC_MAP_PAGE      (2ull << 20)
#define EXEC_GAP_CHUNK     4096ull

/* One backed chunk of the mapped range outside the allocations. */
struct exec_gap {
    uint64_t base;              /* EXEC_GAP_CHUNK-aligned                 */
    uint8_t *host;              /* EXEC_GAP_CHUNK bytes                   */
};

/* One live device allocation. */
struct exec_alloc {
    uint64_t base, size;
    uint8_t *host;              /* size bytes of backing store            */
    const char *what;           /* "ls_malloc" or the module symbol name  */
    uint8_t *init;              /* initcheck: bit per byte written, or NULL */
    uint64_t mapped;            /* 0: host is malloc'd; else the bytes of
                                   its anonymous mapping (host pages only
                                   where touched: gpu_mem.c)              */
    uint64_t span;              /* bytes host holds (size rounded up to the
                                   allocation granule; >= size)           */
    bool ext;                   /* host belongs to the caller (managed
                                   memory: the program's own pages), not
                                   freed with the allocation             */
};

/* Device memory: allocations sorted by base, non-overlapping. */
struct exec_dmem {
    struct exec_alloc *a;
    uint32_t n, cap;
    uint64_t capacity;          /* bytes of address space after the base */
    uint64_t used;
    uint32_t epoch;             /* bumped when a kernel changes the table
                                   (device malloc/free): cached pointers
                                   into it (exec_memctx.last) are stale */
    uint8_t memcheck;           /* config key memcheck: 0 error, 1 warn,
                                   2 off (out-of-bounds global accesses)  */
    struct exec_chk *oob_chk;   /* the launch's checker: memcheck = warn
                                   findings go there (exec_chk_oob)       */
    struct exec_gap *gap;       /* memcheck warn/off: backed chunks of the
                                   mapped range outside the allocations,
                                   sorted by base                        */
    uint32_t ngap, gapcap;
};

/* What one warp's memory instructions see. */
struct exec_memctx {
    struct exec_dmem *dmem;
    uint32_t oob;                   /* lanes of the last instruction whose
                                       global access went past its
                                       allocation, inside its granule or
                                       the mapped range (memcheck
                                       warn/off); the caller
                                       clears it                         */
    uint64_t oob_addr;              /* the lowest such address, its lane */
    uint8_t oob_lane;               /* and whether it was a store        */
    bool oob_store;
    const struct exec_alloc *last;  /* last allocation hit (fast path)  */
    uint32_t epoch;                 /* dmem->epoch when last was cached  */
    uint8_t *shared;  uint64_t shared_bytes;    /* this CTA's segment    */
    uint8_t *local;   uint64_t local_stride;    /* lane l: local + l*stride */
    const uint8_t *param; uint64_t param_bytes; /* kernel param buffer   */
    const struct ptx_func *func;    /* current frame: register types     */
    const struct exec_tex *tex; uint32_t ntex;
    uint64_t *texaddr;  uint32_t ntexaddr;  /* tex: every texel address of
                                               the last fetch (timing)   */
};

/* exec_dmem_find: the allocation holding [addr, addr+n) (exec_dmem.h) */
#include "exec/exec_dmem.h"
/* Allocation whose granule (base + span) holds [addr, addr+n), or NULL. */
const struct exec_alloc *exec_dmem_granule(const struct exec_dmem *d,
                                           uint64_t addr, uint64_t n);

/* Whether [addr, addr+n) lies in the mapped range around the allocations
 * (EXEC_MAP_PAGE) without being inside an allocation's granule. */
bool exec_dmem_mapped(const struct exec_dmem *d, uint64_t addr, uint64_t n);
/* Host bytes for [addr, addr+n) (not crossing an EXEC_GAP_CHUNK) when
 * exec_dmem_mapped holds, backed (zero) on first touch; NULL otherwise or
 * when the host is out of memory. */
uint8_t *exec_dmem_gap(struct exec_dmem *d, uint64_t addr, uint64_t n);
/* Frees the backed chunks of the mapped range. */
void exec_dmem_gap_free(struct exec_dmem *d);

/* Executes ld/ldu/st/atom/red/tex/cvta for the lanes of mask passing the
 * guard; fills res (per-lane addresses, bytes, store flag). Returns 0, or
 * -1 with err (lane, address, what went wrong) on a fault. */
int exec_mem(struct exec_warp *w, struct exec_memctx *m,
             const struct ptx_inst *in, uint32_t mask,
             struct exec_result *res, struct exec_error *err);

/* Executes tex/tld4/txq/suld/sust/suq (exec_tex.c) for the lanes act;
 * fills res like exec_mem. Returns 0, or -1 with err. */
int exec_tex_op(struct exec_warp *w, struct exec_memctx *m,
                const struct ptx_inst *in, uint32_t act,
                struct exec_result *res, struct exec_error *err);

/* Host pointer for n bytes at addr in state space sp (PTX_SP_GENERIC goes
 * through the windows) as lane sees it, with the checks of ld/st (bounds,
 * alignment, read-only params when store), or NULL with err filled. For
 * the device runtime (printf arguments, call parameters). */
uint8_t *exec_mem_host(struct exec_memctx *m, unsigned sp, uint64_t addr,
                       unsigned n, unsigned lane, bool store,
                       struct exec_error *err);

/* As exec_mem_host, for tensor-core fragments: host pointer of n bytes at *addr in state space `space` for lane (a
 * generic address resolves through the windows, shared/local offsets
 * wrap at 32 bits); *addr becomes the offset within the resolved space
 * *sp. NULL with err filled on a misaligned or out-of-bounds access. */
uint8_t *exec_mem_host_sp(struct exec_memctx *m, unsigned space, uint64_t *addr,
                          unsigned n, unsigned lane, bool store, unsigned *sp,
                          struct exec_error *err);

/* Executes wmma.load/wmma.store/wmma.mma/mma (exec_mma.c), warp
 * collectives: every lane of the warp must pass mask and the guard.
 * Fills res like exec_mem for the loads and stores. Returns 0, or -1
 * with err. */
int exec_mma(struct exec_warp *w, struct exec_memctx *m, const struct ptx_inst *in,
             uint32_t mask, struct exec_result *res, struct exec_error *err);

/* Executes shfl/vote/match/activemask/nanosleep/bar.warp.sync for the lanes of mask
 * passing the guard. Returns 0, or -1 with err. */
int exec_warpops(struct exec_warp *w, const struct ptx_func *f,
                 const struct ptx_inst *in, uint32_t mask,
                 struct exec_result *res, struct exec_error *err);

#endif
