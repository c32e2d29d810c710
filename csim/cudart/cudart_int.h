/* Internals of the CUDA runtime library (build/libcudart.so.13): the one
 * process-wide runtime state behind the CUDA calls, the registered
 * modules, kernels and variables, and the helpers the cudart_*.c files
 * share. docs/cuda-programs.md describes the library. */
#ifndef CUDART_INT_H
#define CUDART_INT_H

#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include "lockstep.h"
#include "cudart/cudart_types.h"

/* Exported CUDA entry points: default visibility (everything else in the
 * library is hidden by -fvisibility=hidden and the version script). */
#define CUDART_API __attribute__((visibility("default")))

/* One registered fat binary (a translation unit's device code). */
struct cudart_mod {
    const void *wrapper;       /* the __fatBinC_Wrapper_t nvcc emitted     */
    char name[300];            /* "PROG module N" (messages)               */
    char *ptx;                 /* decoded PTX text (NULL on error)         */
    size_t len;
    ls_module *lsmod;          /* loaded at __cudaRegisterFatBinaryEnd     */
    ls_status load_st;         /* LS_OK, or why the PTX did not load       */
    cudaError_t err;           /* cudaSuccess or the error its use returns */
    char msg[1400];            /* why, when err != cudaSuccess             */
};

/* One registered kernel: host stub -> device name. */
struct cudart_fn {
    const void *host;
    char *name;
    struct cudart_mod *mod;
    int max_dyn_shared;        /* cudaFuncAttributeMaxDynamicSharedMemorySize
                                  set by the program, or -1: the default  */
};

/* One registered __device__/__constant__/__managed__ variable. */
struct cudart_var {
    const void *host;          /* the host shadow (or, managed: void **)   */
    char *name;
    struct cudart_mod *mod;
    size_t size;
    int managed;
    void *mhost;               /* managed: the host copy (owned here)      */
};

/* Managed memory: a host copy of a device range, made equal before and
 * after every launch. cudaMallocManaged: host pages mapped at the device
 * address itself (host == d, map bytes); __managed__ variables: a host
 * buffer the program reaches through the pointer nvcc registered. */
struct cudart_managed {
    ls_dptr d;
    size_t size, map;          /* bytes asked, bytes mapped (0: malloc'd)  */
    void *host;
    ls_dptr pad[4];            /* fillers that made d page-aligned         */
    unsigned hflags;           /* cudaHostAlloc: its flags | CUDART_HOSTALLOC
                                  (mapped pinned memory); else 0         */
};
#define CUDART_HOSTALLOC 0x100u

/* Host memory the program registered (cudaHostRegister): the device
 * allocation d is those very bytes (gpu_mem_adopt), reached by kernels
 * through the device pointer cudaHostGetDevicePointer returns. */
struct cudart_hostreg {
    void *host;
    size_t size;
    ls_dptr d;
    unsigned flags;
};

/* Nodes a captured operation depends on (a stream's or an event's). */
struct cudart_tail {
    struct cudart_node **n;
    size_t len, cap;
};

/* A stream: in-order like every stream here, plus its capture state
 * (cudaStreamBeginCapture: operations become nodes of `cap`). */
struct cudart_stream {
    unsigned magic;
    struct cudart_graph *cap;  /* the graph being captured into, or NULL */
    struct cudart_tail tail;   /* what the next captured node depends on */
    int origin;                /* 1: this stream began the capture; 2: one
                                  into an existing graph (ToGraph)       */
    struct cudart_stream *next; /* the runtime's list of streams         */
};

/* An event: the simulated time it was recorded at, and, recorded in a
 * capturing stream, the nodes a stream waiting on it joins after. */
struct cudart_event {
    unsigned magic, flags;
    int recorded;
    double ms;
    struct cudart_graph *cap;
    struct cudart_tail tail;
};

/* One launch as the stats JSON and the summary report it. */
struct cudart_launch {
    char kernel[96];
    ls_status st;
    ls_stats s;
    uint64_t digest;
    int have_digest;
};

/* A pushed <<<grid, block, shared, stream>>> configuration. */
struct cudart_callcfg {
    dim3 grid, block;
    size_t shared;
    void *stream;
};

#define CUDART_MAX_CALLCFG 16
/* Device memory in use up to which every launch's statistics get a
 * memory digest (LOCKSTEP_STATS); above it only the last launch's. */
#define CUDART_DIGEST_EVERY (64ull << 20)

struct cudart_rt {
    pthread_mutex_t lock;
    int inited;                /* cudart_get ran its one-time set-up       */
    cudaError_t init_err;      /* cudaSuccess, or why there is no GPU      */
    char init_msg[1024];
    pthread_t owner;           /* the host thread that made the first call */
    int threads_noted;         /* a second host thread's calls were noted */
    ls_config cfg;
    char *sets_buf;            /* LOCKSTEP_SET copy, split in place        */
    const char **sets;
    char *stats_path;          /* LOCKSTEP_STATS or NULL                   */
    int quiet;                 /* LOCKSTEP_QUIET                           */
    char prog[256];            /* program name (/proc/self/comm)           */
    char config_name[256];
    ls_gpu *gpu;
    /* registrations */
    struct cudart_mod **mods;   size_t nmods, capmods;
    struct cudart_fn *fns;      size_t nfns, capfns;
    struct cudart_var *vars;    size_t nvars, capvars;
    struct cudart_managed *mgd; size_t nmgd, capmgd;
    struct cudart_hostreg *hreg; size_t nhreg, caphreg;
    /* memory pools (cudart_pool.c): the device's default and current
     * pool, and each stream-ordered allocation's pool and size */
    struct cudart_pool *pool_default, *pool_current;
    struct cudart_poolalloc *palloc; size_t npalloc, cappalloc;
    /* launches */
    struct cudart_callcfg cc[CUDART_MAX_CALLCFG];
    int ncc;
    struct cudart_launch *launches; size_t nlaunches, caplaunches;
    double now_ms;             /* simulated time: kernel cycles / clock    */
    /* errors */
    cudaError_t last;          /* cudaGetLastError                         */
    cudaError_t sticky;        /* a kernel fault: every later call fails   */
    int functional_time_noted;
    struct cudart_stream legacy;   /* streams 0, cudaStreamLegacy and
                                      cudaStreamPerThread: one in-order
                                      queue, their capture state here    */
    struct cudart_stream *streams; /* created streams (capture bookkeeping) */
    int capture_mode;              /* cudaThreadExchangeStreamCaptureMode */
    void **gmem; size_t ngmem, capgmem;   /* graph memory: allocation
                                             nodes, captured cudaMallocAsync */
    size_t graph_mem_now, graph_mem_high; /* its bytes now and at most      */
    size_t limits[7];              /* cudaDeviceSetLimit values the model
                                      keeps without using (0: CUDA's)     */
    uint64_t *oob_seen;         /* memcheck warn: sites already reported
                                   (hash of kernel and pc), so each is
                                   named once per program               */
    size_t noob_seen, capoob_seen;
    int reported;              /* the exit summary was written             */
};

/* The runtime, set up on first use from the LOCKSTEP_* environment, with
 * its lock held (recursively: calls nest); NULL (with *err set and the
 * reason printed once) when there is no usable GPU. Every API entry point
 * starts with CUDART_ENTER(rt, cudart_get(&e)), which releases the lock
 * when rt goes out of scope, so calls from several host threads run one
 * at a time. */
struct cudart_rt *cudart_get(cudaError_t *err);
/* Releases the lock cudart_get took (the cleanup of CUDART_ENTER). */
void cudart_leave(struct cudart_rt **rt);
#define CUDART_ENTER(rt, get) \
    struct cudart_rt *rt __attribute__((cleanup(cudart_leave))) = (get)
/* Records e as the last error of rt (cudaGetLastError) and returns it. */
cudaError_t cudart_ret(struct cudart_rt *rt, cudaError_t e);
/* Prints "lockstep cudart: fn: message" on stderr, records e, returns e. */
cudaError_t cudart_fail(struct cudart_rt *rt, cudaError_t e, const char *fn,
                        const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The CUDA error of a library status (LS_ERR_MEMFAULT -> cudaErrorIllegalAddress, ...). */
cudaError_t cudart_from_status(ls_status st);
/* The cudaMallocManaged region (host pages at the device address) holding
 * device range [p, p+n), or NULL. */
struct cudart_managed *cudart_managed_find(struct cudart_rt *rt, uint64_t p, size_t n);
/* Device pointer of mapped host memory at ph (cudaHostAllocMapped,
 * cudaHostRegister), or NULL. */
void *cudart_host_dev(struct cudart_rt *rt, const void *ph);
/* Copies every managed region host -> device (before a launch). */
cudaError_t cudart_managed_push(struct cudart_rt *rt);
/* Copies every managed region device -> host (after a launch). */
cudaError_t cudart_managed_pull(struct cudart_rt *rt);
/* Loads mod's PTX into the GPU if not done; returns its error. */
cudaError_t cudart_mod_ready(struct cudart_rt *rt, struct cudart_mod *m);
/* Registered variable whose host shadow is sym, or NULL. */
struct cudart_var *cudart_var_find(struct cudart_rt *rt, const void *sym);
/* Simulated time of a launch with statistics s, in ms: timing mode its
 * cycles at core_clock_mhz; functional mode (no clock) the estimate
 * ceil(warp_insts / (min(ctas, num_sms) x num_schedulers)) cycles, the
 * time at the machine's peak issue rate (docs/cuda-programs.md). */
double cudart_launch_ms(const struct cudart_rt *rt, const ls_stats *s);
/* Writes the exit summary on stderr (unless quiet) and the stats JSON
 * (LOCKSTEP_STATS); once per process or per cudaDeviceReset. */
void cudart_report(struct cudart_rt *rt);
/* Frees the GPU and every registration-independent resource (reset). */
void cudart_gpu_reset(struct cudart_rt *rt);

/* The stream state of s (0, 1 and 2 share rt->legacy), or NULL (with the
 * error recorded) when s is no stream. */
struct cudart_stream *cudart_stream_of(struct cudart_rt *rt, cudaStream_t s, const char *fn);
/* Whether operations issued to s are being captured into a graph. */
int cudart_capturing(struct cudart_rt *rt, cudaStream_t s);
/* Capture of a kernel launch on s (cudart_capturing): a kernel node with
 * copies of the arguments. */
cudaError_t cudart_capture_kernel(struct cudart_rt *rt, cudaStream_t s, const void *fn,
                                  dim3 grid, dim3 block, void **args, size_t shared);
/* Capture of a copy (1-D: dst, src, n, kind) or of a 3-D copy (p3) on s. */
cudaError_t cudart_capture_copy(struct cudart_rt *rt, cudaStream_t s, void *dst,
                                const void *src, size_t n, int kind,
                                const struct cudaMemcpy3DParms *p3);
/* Capture of a memset of rows (height rows of width bytes, pitch apart). */
cudaError_t cudart_capture_memset(struct cudart_rt *rt, cudaStream_t s, void *dst,
                                  size_t pitch, int v, size_t width, size_t height);
/* Launches kernel fn now (the <<<>>> path without capture): api names the
 * calling entry point. */
cudaError_t cudart_launch_now(const void *fn, dim3 grid, dim3 block, void **args,
                              size_t shared, const char *api);
/* Copies of the arguments of a launch of fn (sizes from its PTX): *blob
 * one malloc'd buffer, *argv (malloc'd) pointers into it, *n of them. */
cudaError_t cudart_copy_args(struct cudart_rt *rt, const void *fn, void **args,
                             char **blob, void ***argv, unsigned *n, const char *api);
/* The body of cudaMemcpy3D (both sides arrays or pitched memory). */
cudaError_t cudart_memcpy3d(struct cudart_rt *rt, const struct cudaMemcpy3DParms *p,
                            const char *fn);
/* cudaMemset of n bytes at p to v (device or managed memory). */
cudaError_t cudart_memset(struct cudart_rt *rt, void *p, int v, size_t n, const char *fn);

/* Copies n bytes from src to dst, kind a cudaMemcpyKind (Default: by
 * address), as cudaMemcpy does; fn names the calling API in errors. */
cudaError_t cudart_copy(struct cudart_rt *rt, void *dst, const void *src, size_t n,
                        int kind, const char *fn);
/* The model's resource (LS_RES_ARRAY, LS_RES_MIPMAPPED) for a
 * cudaResourceDesc over a CUDA array or mipmapped array. */
cudaError_t cudart_array_resource(struct cudart_rt *rt, const struct cudaResourceDesc *r,
                                  ls_resource_desc *res, const char *fn);

/* Records p (n bytes) as graph memory: an allocation node's or a captured
 * cudaMallocAsync's, which stays the graph's for every launch. */
cudaError_t cudart_gmem_add(struct cudart_rt *rt, void *p, size_t n, const char *fn);
/* Whether p is graph memory: cudaFree and cudaFreeAsync outside the graph
 * leave it mapped, as a GPU maps it again at the graph's next launch. */
int cudart_gmem_has(const struct cudart_rt *rt, const void *p);

/* Decodes the PTX of a registered fat binary (nvcc's __fatBinC_Wrapper_t):
 * uncompressed, LZ4 (-compress-mode speed) or zstd (the default; through
 * the system's libzstd.so.1) entries. Picks the sm_75 PTX, else the
 * lowest-architecture PTX. Returns 0 with a malloc'd NUL-terminated text
 * in *ptx, or -1 with a message naming what is missing and the nvcc flags
 * that avoid it. */
int cudart_fatbin_ptx(const void *wrapper, char **ptx, size_t *len,
                      char *err, size_t errlen);
/* Decodes an LZ4 block (no frame) of n bytes into exactly cap bytes of
 * out. Returns 0, or -1 on a malformed block. */
int cudart_lz4_block(const uint8_t *in, size_t n, uint8_t *out, size_t cap);

#endif
