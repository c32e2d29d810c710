/* The simulated GPU behind the public API: device memory, loaded modules,
 * textures, the last error message, and the functional launch loop. */
#ifndef GPU_H
#define GPU_H

#include <stdarg.h>
#include "lockstep.h"
#include "exec/exec_mem.h"
#include "ptx/ptx_ir.h"
#include "cfg/cfg.h"

struct mem_sys;
struct core_sm;
struct cosim_env;

#define GPU_ERR_LEN 8192

struct ls_module {
    struct ls_module *next;
    struct ptx_module *ptx;
    uint64_t *sym_addr;         /* device address of each module symbol */
    char *name;
};

/* One device printf call's text (gpu_devrt.c). */
struct gpu_prec {
    uint64_t gtid, seq;         /* order key: global thread id, arrival  */
    char *text;
    size_t len;
};

/* Device runtime state (gpu_devrt.c): printf records of the launch in
 * flight, the device heap, the failed assert's message. */
struct gpu_devrt {
    const struct ls_module *mod;
    const struct ptx_func *kernel;
    ls_dim3 grid, block;
    uint64_t win;               /* heap window bytes per thread (launch)  */
    struct gpu_prec *rec;
    size_t nrec, caprec;
    uint64_t rec_bytes, seq, fifo;
    uint64_t printf_calls, printf_bytes, printf_dropped;
    uint64_t malloc_calls, malloc_failed, free_calls;
    uint64_t heap_used;         /* live device-heap bytes (all launches)  */
    char assert_msg[2048];
    FILE *out;                  /* printf_file, or NULL: stdout           */
    void (*fn)(void *user, const char *text, size_t len);
    void *fn_user;
};

/* An open commit log (gpu_commit.c). */
struct gpu_clog {
    FILE *f;                    /* NULL: no log                           */
    unsigned launch;            /* launches logged so far                 */
    uint64_t records;
};

struct ls_gpu {
    ls_config cfg;
    struct exec_dmem dmem;
    struct exec_tex *tex;
    uint32_t ntex, texcap;
    struct ls_module *mods;
    char err[GPU_ERR_LEN];
    /* timing mode */
    struct cfg tcfg;            /* effective timing configuration        */
    struct mem_sys *mem;        /* memory hierarchy (kept across kernels) */
    struct core_sm *sms;        /* tcfg.num_sms SMs, created on first use */
    uint64_t now;               /* core cycle (monotonic across kernels)  */
    struct cosim_env *cosim;    /* block backends and loaded RTL models   */
    struct gpu_clog clog;       /* commit log (ls_config.commit_log)      */
    /* racecheck, synccheck, initcheck (gpu_check.c, docs/checks.md) */
    unsigned nlaunch;           /* launches so far (ls_launch calls)      */
    ls_check_finding *chk;      /* findings of every launch, in order     */
    size_t nchk, capchk;
    struct gpu_devrt devrt;     /* device printf/malloc/assert            */
    /* the progress line (gpu_tick): shown once a program's launches have
     * run for 2 s, refreshed every 0.5 s, cleared at each launch's end */
    double prog_t0, prog_last;  /* first launch's start; last refresh    */
    bool prog_shown;
    bool coop_launch;           /* the launch in flight is cooperative
                                   (cudaLaunchCooperativeKernel): the
                                   functional loop runs all its CTAs at
                                   once, as grid-wide sync needs          */
};

/* What every CTA of one launch shares: parameter buffer, symbol
 * addresses, shared-memory layout, the per-thread local stack. */
struct gpu_layout {
    uint8_t *param; uint64_t param_bytes;
    uint64_t *sym0, *sym1;
    uint64_t shared_bytes, frame0, local_stride;
};

/* Records "file:line: message" as gpu's last error and returns st (file
 * and line: the user's PTX position). */
ls_status gpu_fail(ls_gpu *gpu, ls_status st, const char *file, int line,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Records "message [src:line]": a failure found by the library's own
 * checks, where the user's input has no file:line of its own. */
ls_status gpu_fail_src(ls_gpu *gpu, ls_status st, const char *file, int line,
                       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define GPU_FAIL(gpu, st, ...) gpu_fail_src((gpu), (st), __FILE__, __LINE__, __VA_ARGS__)

/* Reserves bytes (256-aligned) of device memory for `what`; *ptr = base. */
ls_status gpu_mem_alloc(ls_gpu *gpu, uint64_t bytes, const char *what,
                        ls_dptr *ptr);
/* Releases the allocation starting at ptr. */
ls_status gpu_mem_free(ls_gpu *gpu, ls_dptr ptr);
/* Backs the allocation starting at ptr with the caller's bytes host
 * (at least its granule span; copy: the allocation's contents copied
 * over, else host keeps its own), which stay the caller's: managed or
 * registered host memory the program and the kernels share. */
ls_status gpu_mem_adopt(ls_gpu *gpu, ls_dptr ptr, uint8_t *host, uint64_t bytes,
                        bool copy);
/* Frees an allocation's host backing (mapped: its mapping's bytes, 0 if
 * malloc'd). */
void gpu_mem_release(uint8_t *host, uint64_t mapped);
/* Whether the host can back the device memory touched so far plus `more`
 * bytes about to be: LS_OK, or LS_ERR_NOMEM with a message when the
 * config key host_mem_limit (or, without one, the host's available
 * memory less a reserve) would be exceeded. Checked before large copies
 * and about twice a second while kernels run. */
ls_status gpu_mem_watch(ls_gpu *gpu, uint64_t more);
/* FNV-1a of allocation a's size bytes continuing from h (ls_mem_digest),
 * skipping the host pages never touched in one step each. */
uint64_t gpu_mem_digest(const struct exec_alloc *a, uint64_t h);
/* Host pointer for [addr, addr+n) inside one live allocation, or NULL
 * (with the error recorded, naming op). */
uint8_t *gpu_mem_host(ls_gpu *gpu, ls_dptr addr, uint64_t n, const char *op);
/* Marks [addr, addr+n) as written by the host (initcheck; no-op when
 * the check is off or the range is not allocated). */
void gpu_mem_written(ls_gpu *gpu, ls_dptr addr, uint64_t n);
/* Frees every allocation of gpu. */
void gpu_mem_fini(ls_gpu *gpu);

/* Allocates and initialises the module's .global/.const/.texref symbols. */
ls_status gpu_module_place(ls_gpu *gpu, struct ls_module *m);

/* Kernel entry of mod named name, or its mangled form _Z<len><name>... */
const struct ptx_func *gpu_find_kernel(const struct ptx_module *mod,
                                       const char *name, int *ambiguous);

/* The configured GPU's per-CTA limits (config keys max_threads_per_cta,
 * max_shared_per_cta[_optin], max_regs_per_cta, each capped by what one
 * SM holds): what a launch may use in both modes and what the CUDA
 * runtime reports as the device's limits. */
struct gpu_cta_limits {
    uint32_t threads;           /* threads per CTA                          */
    uint64_t shared;            /* shared bytes per CTA without opt-in      */
    uint64_t shared_optin;      /* shared bytes per CTA with opt-in         */
    uint64_t regs;              /* 32-bit registers per CTA                 */
};
/* Fills l from gpu's configuration. */
void gpu_cta_limits(const ls_gpu *gpu, struct gpu_cta_limits *l);

/* Checks grid/block dimensions against the limits and .maxntid. */
ls_status gpu_check_geometry(ls_gpu *gpu, const struct ptx_func *f,
                             ls_dim3 grid, ls_dim3 block);
/* Fills lay for a launch of f (params copied from args, symbol addresses,
 * shared layout with dyn_shared bytes, local stack stride). */
ls_status gpu_layout_prepare(ls_gpu *gpu, const struct ls_module *m,
                             const struct ptx_func *f, size_t dyn_shared,
                             void **args, struct gpu_layout *lay);
/* Frees what gpu_layout_prepare allocated. */
void gpu_layout_free(struct gpu_layout *lay);

/* Runs kernel f of module m to completion (timing mode: cycle loop over
 * the SMs and the memory system; same results as gpu_launch). */
ls_status gpu_timing_launch(ls_gpu *gpu, struct ls_module *m,
                            const struct ptx_func *f, ls_dim3 grid,
                            ls_dim3 block, size_t dyn_shared, void **args,
                            ls_stats *stats);
struct simt_warp;
/* Opens a commit log at path (truncated, with its header). Returns 0 or -1
 * with err. */
int gpu_commit_open(struct gpu_clog *c, const char *path, char *err, size_t n);
/* Starts the records of a new launch of kernel. */
void gpu_commit_launch(struct gpu_clog *c, const char *kernel, ls_dim3 grid,
                       ls_dim3 block);
/* simt_commit_fn: writes one record (user = the struct gpu_clog). */
void gpu_commit_record(void *user, const struct simt_warp *w,
                       const struct ptx_func *f, int32_t pc, uint32_t mask);
/* Closes the log. Returns 0, or -1 if a write failed. */
int gpu_commit_close(struct gpu_clog *c);

/* Creates gpu->cosim from the config (backends per block, the user's RTL,
 * run name) and, in timing mode, builds and loads the RTL models the run
 * will need, so a bad RTL file fails here. Returns LS_OK or an error. */
ls_status gpu_cosim_init(ls_gpu *gpu, const ls_config *lc);
/* Frees the timing-mode state of gpu (SMs, memory system). */
void gpu_timing_free(ls_gpu *gpu);

struct exec_chk;
/* Starts the checker of a launch of f (c->mask 0 when only memcheck is
 * on: then nothing observes the warps). */
void gpu_check_begin(ls_gpu *gpu, struct exec_chk *c, const struct ls_module *m,
                     const struct ptx_func *f, ls_dim3 grid, ls_dim3 block,
                     uint64_t shared_bytes, uint64_t local_stride);
/* Ends it: appends its findings to gpu->chk and frees c. Returns st, or
 * LS_ERR_CHECK (message naming the first finding) when st is LS_OK,
 * check_error = 1 and there is a finding. */
ls_status gpu_check_end(ls_gpu *gpu, struct exec_chk *c, const struct ls_module *m,
                        const struct ptx_func *f, ls_status st);
/* ls_check_format: one line describing f into buf (n bytes); returns buf. */
char *gpu_check_format(const ls_check_finding *f, char *buf, size_t n);
/* Device runtime (gpu_devrt.c, docs/device-runtime.md). */
/* Opens the printf sink of lc. Returns LS_OK or an error (unwritable file). */
ls_status gpu_devrt_init(ls_gpu *gpu, const ls_config *lc);
/* Closes the printf sink; frees pending records. */
void gpu_devrt_fini(ls_gpu *gpu);
/* Starts a launch: empty printf buffer, heap window size for the grid. */
void gpu_devrt_begin(ls_gpu *gpu, const struct ls_module *m,
                     const struct ptx_func *f, ls_dim3 grid, ls_dim3 block);
/* Ends a launch with status st: writes the printf text in order (also
 * after a failure), adds the counts to stats (may be NULL); returns st. */
ls_status gpu_devrt_end(ls_gpu *gpu, ls_status st, ls_stats *stats);
struct simt_warp;
/* simt_extern_fn (user = the ls_gpu): vprintf, malloc, free,
 * __assertfail; any other extern function fails the kernel, named. */
int gpu_devrt_call(void *user, struct simt_warp *w, const struct ptx_func *callee,
                   const struct ptx_inst *in, uint32_t lanes);
/* The status and message (into gpu->err) of a warp that stopped with
 * SIMT_RC_ERROR; file names the PTX, kf the kernel. */
ls_status gpu_warp_error(ls_gpu *gpu, const char *file,
                         const struct ptx_func *kf, const struct simt_warp *w);
/* Patches m's address initialisers (function pointers, vtables,
 * generic(sym)) once its symbols have device addresses. */
ls_status gpu_module_relocate(ls_gpu *gpu, struct ls_module *m);

/* What a running launch does now and then, in both modes: the host
 * memory watch (gpu_mem_watch, about twice a second) and the progress
 * line on a terminal. */
struct gpu_tick {
    double last_watch;
    uint64_t n;
};
/* Starts the ticks of a launch. */
void gpu_tick_begin(ls_gpu *gpu, struct gpu_tick *t);
/* One tick (cheap: the clock is read every 64th): CTAs done (timing:
 * dispatched; those still resident are subtracted) of ctas, warp
 * instructions and (timing) cycles so far. Returns LS_OK, or the watch's
 * LS_ERR_NOMEM. */
ls_status gpu_tick(ls_gpu *gpu, struct gpu_tick *t, const char *kernel,
                   uint64_t ctas_done, uint64_t ctas, uint64_t insts, uint64_t cycles);
/* Ends them (clears the progress line); returns st, or the watch's error
 * when host_mem_limit is set and exceeded. */
ls_status gpu_tick_end(ls_gpu *gpu, struct gpu_tick *t, ls_status st);

/* A zeroed device word for a cooperative launch's grid-wide barrier
 * (exec_grid.grid_ws); the caller frees it after the launch. */
ls_status gpu_coop_workspace(ls_gpu *gpu, ls_dptr *ws);

/* Runs kernel f of module m to completion (functional mode). */
ls_status gpu_launch(ls_gpu *gpu, struct ls_module *m,
                     const struct ptx_func *f, ls_dim3 grid, ls_dim3 block,
                     size_t dyn_shared, void **args, ls_stats *stats);

#endif
