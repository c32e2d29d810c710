/* The library's internal API: what the command line (csim/cli) and the
 * CUDA runtime (csim/cudart) need beyond include/lockstep.h. They reach the
 * model through lockstep.h and this header only (tools/layers.txt). */
#ifndef API_INT_H
#define API_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "lockstep.h"

/* Parses a block list of --cosim or LOCKSTEP_COSIM (block and group names,
 * all, none; include/lockstep_blocks.def) into sel[b] = 1 for each block to
 * put in lockstep; `all` selects the blocks in the GPU loop. Returns 0, or
 * -1 with why in err (an unknown name, a named block the GPU does not
 * clock). */
int api_cosim_select(const char *list, int sel[LS_BLK_COUNT], char *err, size_t errlen);

/* ---- for the CUDA runtime (csim/api/api_cudart.c) ---- */

/* The simulated device as the CUDA runtime reports it: the machine's
 * config keys (their names and types) and the model's limits. */
struct api_device {
    int64_t num_sms, core_clock_mhz, dram_clock_mhz, dram_bus_bytes;
    int64_t regs_per_sm, shared_per_sm, max_threads_per_sm, max_ctas_per_sm;
    int64_t warp_size, num_schedulers, l1d_size, l2_size;
    int64_t mem_partitions, dram_chips, dram_dq_pins;
    int64_t printf_fifo_size, malloc_heap_size;
    uint64_t warp_slots;       /* resident warps per SM                   */
    unsigned max_cta_threads;  /* threads of one CTA                      */
    unsigned max_shared;       /* shared bytes of one CTA, static + dynamic,
                                  without opt-in                          */
    uint64_t max_shared_optin; /* the same with opt-in                    */
    uint64_t max_cta_regs;     /* 32-bit registers of one CTA             */
    uint64_t mem_capacity;     /* device memory bytes                     */
    uint64_t mem_used;         /* of those, allocated                     */
};
/* Fills *d for gpu. */
void api_device_info(const ls_gpu *gpu, struct api_device *d);

/* A kernel of a loaded module as cudaFuncGetAttributes reports it. */
struct api_kernel {
    uint64_t shared_bytes;     /* static shared memory                    */
    uint64_t const_bytes;      /* the module's constant bank              */
    uint64_t local_bytes;      /* local memory per thread                 */
    unsigned maxntid[3];       /* .maxntid, 0 where the PTX gives none     */
    unsigned regs;             /* registers per thread the model allocates */
    unsigned ptx_version;      /* the module's .version, major x 10 + minor */
    unsigned target_sm;        /* the module's .target sm_NN (75), or 0   */
    unsigned nparams;          /* kernel parameters                       */
};
/* Fills *k for the kernel named name of mod. Returns 0, or -1 when mod
 * has no function of that name. */
int api_kernel_info(const ls_module *mod, const char *name, struct api_kernel *k);
/* Bytes of parameter i of the kernel named name of mod, or 0. */
size_t api_kernel_param_size(const ls_module *mod, const char *name, unsigned i);
/* Sets the device-runtime limits of gpu (cudaDeviceSetLimit): printf FIFO
 * and device heap bytes, each when >= 0. */
void api_set_dev_limits(ls_gpu *gpu, int64_t printf_fifo, int64_t malloc_heap);
/* The next launches of gpu are cooperative (on: 1) or not (0). */
void api_set_cooperative(ls_gpu *gpu, int on);
/* gpu_mem_adopt: the allocation at ptr is backed by host's bytes. */
ls_status api_mem_adopt(ls_gpu *gpu, ls_dptr ptr, void *host, uint64_t bytes, int copy);
/* gpu_mem_watch: LS_ERR_NOMEM when more host bytes would pass the budget. */
ls_status api_mem_watch(ls_gpu *gpu, uint64_t more);
/* 1 when [addr, addr + n) lies in one live allocation of gpu, else 0. */
int api_mem_is_device(const ls_gpu *gpu, uint64_t addr, size_t n);
/* Copies n bytes device -> device (the ranges may overlap); who names the
 * caller in the error of gpu. */
ls_status api_memcpy_dtod(ls_gpu *gpu, ls_dptr dst, ls_dptr src, size_t n, const char *who);

/* ---- statistics reports (docs/stats.md; csim/api/api_stats.c) ---- */

/* Version of the --stats-json layout (docs/stats.md). */
#define API_STATS_SCHEMA 1

/* One kernel launch as the stats JSON reports it. */
struct api_launch {
    char kernel[96];
    ls_status status;
    ls_stats s;
    int have_digest;
    uint64_t mem_digest;       /* ls_mem_digest right after this launch   */
};

/* A run (a workload, a CUDA program) as the stats JSON reports it. */
struct api_run {
    const char *workload;
    const char *category;
    const char *size;          /* "small" ... "xlarge", "program"       */
    uint64_t seed;
    const char *mode;          /* "functional" or "timing" (NULL: functional) */
    const char *config;        /* config name/file (NULL: builtin)        */
    int pass;
    const char *msg;           /* first failure, "" on a pass             */
    unsigned nlaunches;
    const ls_stats *total;     /* summed over launches                     */
    const struct api_launch *launch; /* per-launch records, nlaunch_rec   */
    unsigned nlaunch_rec;
    int have_digest;           /* mem_digest is valid                      */
    uint64_t mem_digest;       /* ls_mem_digest after the last launch      */
    double wall_s;             /* simulation seconds                      */
    unsigned checks_on;        /* ls_checks_enabled bits                  */
    const ls_check_finding *chk; /* the check findings, nchk of them      */
    size_t nchk;
};

/* Writes len bytes of s as a quoted JSON string literal. */
void api_json_str(FILE *f, const char *s, size_t len);
/* Writes r as one JSON object (no trailing newline) at the given indent. */
void api_json_run(FILE *f, const struct api_run *r, int indent);
/* Writes the statistics members of s (generated from csim/api/stats.def),
 * one per line at indent in, each line ending with a comma. */
void api_json_stats(FILE *f, int in, const ls_stats *s);
/* Prints one line per block s clocked: backend, instances, cycles compared
 * (or stepped), idle edges skipped, transactions, mismatches. */
void api_print_cosim(FILE *f, const ls_stats *s);

#endif
