/* The runtime state of build/libcudart.so.13 and the registration calls
 * nvcc's generated host code makes from static constructors.
 *
 * A CUDA runtime is process-wide by contract: __cudaRegisterFatBinary and
 * cudaMalloc carry no context argument. So this file holds the library's
 * one mutable global, `g_rt` (the project's no-globals rule is about
 * liblockstep, which this wraps: everything below the CUDA calls is an
 * ordinary ls_gpu). It is set up on first use from the LOCKSTEP_*
 * environment, read once (docs/cuda-programs.md). */
#define _GNU_SOURCE             /* PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "cudart/cudart_int.h"
#include "api/api_int.h"

static struct cudart_rt g_rt = { .lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP };

static void *grow(void *p, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return p;
    size_t nc = *cap ? *cap * 2 : 16;
    void *q = realloc(p, nc * elem);
    if (q)
        *cap = nc;
    return q;
}

cudaError_t cudart_ret(struct cudart_rt *rt, cudaError_t e)
{
    if (rt && e != cudaSuccess)
        rt->last = e;
    return e;
}

cudaError_t cudart_fail(struct cudart_rt *rt, cudaError_t e, const char *fn,
                        const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "lockstep cudart: %s: %s\n", fn, msg);
    return cudart_ret(rt, e);
}

cudaError_t cudart_from_status(ls_status st)
{
    switch (st) {
    case LS_OK: return cudaSuccess;
    case LS_ERR_INVALID: return cudaErrorInvalidValue;
    case LS_ERR_PARSE: return cudaErrorInvalidPtx;
    case LS_ERR_NOMEM: return cudaErrorMemoryAllocation;
    case LS_ERR_MEMFAULT: return cudaErrorIllegalAddress;
    case LS_ERR_DEADLOCK: return cudaErrorLaunchTimeout;
    case LS_ERR_LAUNCH: return cudaErrorInvalidConfiguration;
    case LS_ERR_IO: return cudaErrorFileNotFound;
    case LS_ERR_INTERNAL: return cudaErrorUnknown;
    case LS_ERR_ASSERT: return cudaErrorAssert;       /* device assert() */
    default: return cudaErrorLaunchFailure;   /* cosim, check, interrupted */
    }
}

static void read_prog_name(char *buf, size_t n)
{
    snprintf(buf, n, "program");
    FILE *f = fopen("/proc/self/comm", "r");
    if (!f)
        return;
    if (fgets(buf, (int)n, f))
        buf[strcspn(buf, "\n")] = 0;
    fclose(f);
}

/* LOCKSTEP_SET=k=v,k=v: a comma-separated item without '=' continues the
 * value before it (check=racecheck,synccheck). */
static int split_sets(struct cudart_rt *rt, const char *env)
{
    size_t len = strlen(env);
    rt->sets_buf = malloc(len + 1);
    rt->sets = calloc(len / 2 + 8, sizeof *rt->sets);
    if (!rt->sets_buf || !rt->sets)
        return -1;
    size_t n = 0, o = 0;
    for (size_t i = 0; i <= len; i++) {
        size_t j = i;
        while (j < len && env[j] != ',')
            j++;
        if (j > i) {
            if (!memchr(env + i, '=', j - i) && n > 0) {
                rt->sets_buf[o - 1] = ',';        /* undo the terminator */
            } else {
                rt->sets[n++] = rt->sets_buf + o;
            }
            memcpy(rt->sets_buf + o, env + i, j - i);
            o += j - i;
            rt->sets_buf[o++] = 0;
        }
        i = j;
    }
    rt->sets[n] = NULL;
    return 0;
}

/* LOCKSTEP_COSIM=LIST: each listed block (or all) in lockstep with its RTL
 * and every other block of the loop on its C model, as `lockstep run
 * --cosim LIST` does; prepended to the sets so an explicit
 * LOCKSTEP_SET=slp.backend=... wins. Returns 0, or -1 with err (empty when
 * host memory ran out). */
static int add_cosim(struct cudart_rt *rt, const char *list, char *err, size_t n)
{
    static const char *const be[2][LS_BLK_COUNT] = {
#define LS_BLOCK(id, name, group, title, when) [LS_BLK_##id] = #name ".backend=c",
        {
#include "lockstep_blocks.def"
        },
#undef LS_BLOCK
#define LS_BLOCK(id, name, group, title, when) [LS_BLK_##id] = #name ".backend=lockstep",
        {
#include "lockstep_blocks.def"
        },
#undef LS_BLOCK
    };
    int sel[LS_BLK_COUNT];
    char e[512];
    if (api_cosim_select(list, sel, e, sizeof e)) {
        snprintf(err, n, "LOCKSTEP_COSIM='%s': %s", list, e);
        return -1;
    }
    size_t k = 0;
    while (rt->sets && rt->sets[k])
        k++;
    const char **ns = calloc(k + LS_BLK_COUNT + 1, sizeof *ns);
    if (!ns)
        return -1;
    size_t m = 0;
    for (int b = 0; b < LS_BLK_COUNT; b++)
        if (ls_block_in_loop(b))
            ns[m++] = be[sel[b]][b];
    for (size_t i = 0; i < k; i++)
        ns[m + i] = rt->sets[i];
    ns[m + k] = NULL;
    free(rt->sets);
    rt->sets = ns;
    return 0;
}

static void at_exit_report(void)
{
    pthread_mutex_lock(&g_rt.lock);
    cudart_report(&g_rt);
    pthread_mutex_unlock(&g_rt.lock);
}

static void setup(struct cudart_rt *rt)
{
    rt->inited = 1;
    rt->owner = pthread_self();
    read_prog_name(rt->prog, sizeof rt->prog);
    ls_config_default(&rt->cfg);
    const char *v;
    char err[1024] = "";
    if ((v = getenv("LOCKSTEP_MODE")) && *v) {
        if (!strcmp(v, "functional"))
            rt->cfg.mode = LS_MODE_FUNCTIONAL;
        else if (!strcmp(v, "timing"))
            rt->cfg.mode = LS_MODE_TIMING;
        else
            snprintf(err, sizeof err, "LOCKSTEP_MODE='%s': expected functional "
                     "or timing", v);
    }
    if ((v = getenv("LOCKSTEP_CONFIG")) && *v) {
        snprintf(rt->config_name, sizeof rt->config_name, "%s", v);
        rt->cfg.config = rt->config_name;
    }
    if (!err[0] && (v = getenv("LOCKSTEP_SET")) && *v && split_sets(rt, v))
        snprintf(err, sizeof err, "out of host memory reading LOCKSTEP_SET");
    if (!err[0] && (v = getenv("LOCKSTEP_COSIM")) && *v &&
        add_cosim(rt, v, err, sizeof err) && !err[0])
        snprintf(err, sizeof err, "out of host memory reading LOCKSTEP_COSIM");
    rt->cfg.sets = rt->sets;
    rt->cfg.run_name = rt->prog;
    if ((v = getenv("LOCKSTEP_STATS")) && *v)
        rt->stats_path = strdup(v);
    rt->quiet = (v = getenv("LOCKSTEP_QUIET")) && *v && strcmp(v, "0");
    /* a progress line on a terminal once launches have run 2 s;
     * LOCKSTEP_PROGRESS=1 shows it on any stderr, now from the first
     * launch on, 0 never */
    v = getenv("LOCKSTEP_PROGRESS");
    rt->cfg.progress = v && *v ? (!strcmp(v, "0") ? 0 : !strcmp(v, "now") ? 3 : 2)
                               : !rt->quiet;
    if (!err[0]) {
        char gerr[4096] = "";
        rt->gpu = ls_gpu_create(&rt->cfg, gerr, sizeof gerr);
        if (!rt->gpu)
            snprintf(err, sizeof err, "creating the simulated GPU: %s", gerr);
    }
    if (err[0]) {
        rt->init_err = cudaErrorInitializationError;
        snprintf(rt->init_msg, sizeof rt->init_msg, "%s", err);
        fprintf(stderr, "lockstep cudart: %s\n", err);
        return;
    }
    atexit(at_exit_report);
}

void cudart_leave(struct cudart_rt **rt)
{
    (void)rt;
    pthread_mutex_unlock(&g_rt.lock);
}

struct cudart_rt *cudart_get(cudaError_t *err)
{
    struct cudart_rt *rt = &g_rt;
    pthread_mutex_lock(&rt->lock);
    if (!rt->inited)
        setup(rt);
    if (!pthread_equal(rt->owner, pthread_self()) && !rt->threads_noted && !rt->quiet) {
        rt->threads_noted = 1;
        fprintf(stderr, "lockstep cudart: CUDA calls from several host threads run one "
                "at a time (one simulated device, in order)\n");
    }
    if (rt->init_err != cudaSuccess) {
        *err = rt->init_err;
        return NULL;
    }
    if (!rt->gpu) {                 /* after cudaDeviceReset: a fresh GPU */
        char gerr[4096] = "";
        rt->gpu = ls_gpu_create(&rt->cfg, gerr, sizeof gerr);
        if (!rt->gpu) {
            fprintf(stderr, "lockstep cudart: creating the simulated GPU: %s\n", gerr);
            *err = cudaErrorInitializationError;
            return NULL;
        }
        rt->reported = 0;
        for (size_t i = 0; i < rt->nmods; i++) {
            rt->mods[i]->lsmod = NULL;
            rt->mods[i]->load_st = LS_OK;
        }
    }
    *err = cudaSuccess;
    return rt;
}

/* __managed__ variables of m: a host copy the program reaches through the
 * pointer nvcc registered, made equal to the device copy at every launch
 * boundary like cudaMallocManaged memory. Without a GPU copy (the module
 * failed to load) the host still gets zeroed memory, never a NULL. */
static void managed_vars(struct cudart_rt *rt, struct cudart_mod *m)
{
    for (size_t i = 0; i < rt->nvars; i++) {
        struct cudart_var *v = &rt->vars[i];
        if (!v->managed || v->mod != m)
            continue;
        if (!v->mhost && !(v->mhost = calloc(1, v->size ? v->size : 1))) {
            fprintf(stderr, "lockstep cudart: out of host memory for __managed__ %s\n",
                    v->name);
            continue;
        }
        *(void **)(uintptr_t)v->host = v->mhost;
        ls_dptr d;
        size_t n;
        if (!m->lsmod || ls_module_symbol(rt->gpu, m->lsmod, v->name, &d, &n) != LS_OK ||
            n != v->size || ls_memcpy_dtoh(rt->gpu, v->mhost, d, n) != LS_OK)
            continue;
        struct cudart_managed *nm = grow(rt->mgd, &rt->capmgd, rt->nmgd, sizeof *nm);
        if (!nm)
            continue;
        rt->mgd = nm;
        rt->mgd[rt->nmgd++] = (struct cudart_managed){ d, n, 0, v->mhost, { 0 }, 0 };
    }
}

cudaError_t cudart_mod_ready(struct cudart_rt *rt, struct cudart_mod *m)
{
    if (m->err != cudaSuccess) {
        managed_vars(rt, m);
        return m->err;
    }
    if (m->lsmod)
        return cudaSuccess;
    /* .attribute(.managed) only says where the host reaches the variable
     * (managed_vars); blanked so the PTX keeps its lines and columns */
    for (char *p = m->ptx; (p = strstr(p, ".attribute(.managed)")) != NULL;)
        memset(p, ' ', strlen(".attribute(.managed)"));
    ls_status st = ls_module_load_text(rt->gpu, m->name, m->ptx, m->len, &m->lsmod);
    managed_vars(rt, m);
    if (st != LS_OK) {
        m->lsmod = NULL;
        m->load_st = st;
        m->err = st == LS_ERR_PARSE ? cudaErrorInvalidPtx : cudart_from_status(st);
        snprintf(m->msg, sizeof m->msg, "loading the PTX of %s: %s: %s", m->name,
                 ls_status_name(st), ls_gpu_error(rt->gpu));
        fprintf(stderr, "lockstep cudart: %s\n", m->msg);
    }
    return m->err;
}

/* ---- registration (nvcc's generated constructors) ---- */

CUDART_API void **__cudaRegisterFatBinary(void *fatCubin);
CUDART_API void __cudaRegisterFatBinaryEnd(void **handle);
CUDART_API void __cudaUnregisterFatBinary(void **handle);
CUDART_API void __cudaRegisterFunction(void **handle, const char *hostFun,
    char *deviceFun, const char *deviceName, int thread_limit, void *tid,
    void *bid, void *bDim, void *gDim, int *wSize);
CUDART_API void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
    const char *deviceName, int ext, size_t size, int constant, int global);
CUDART_API void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress,
    char *deviceAddress, const char *deviceName, int ext, size_t size,
    int constant, int global);
CUDART_API char __cudaInitModule(void **handle);

void **__cudaRegisterFatBinary(void *fatCubin)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    struct cudart_mod *m = calloc(1, sizeof *m);
    if (!m) {
        fprintf(stderr, "lockstep cudart: out of host memory registering a module\n");
        return NULL;
    }
    m->wrapper = fatCubin;
    snprintf(m->name, sizeof m->name, "%s module %zu", g_rt.prog, g_rt.nmods + 1);
    char err[1024];
    if (cudart_fatbin_ptx(fatCubin, &m->ptx, &m->len, err, sizeof err)) {
        m->err = cudaErrorNoKernelImageForDevice;
        snprintf(m->msg, sizeof m->msg, "%s: %s", m->name, err);
        fprintf(stderr, "lockstep cudart: %s\n", m->msg);
    }
    struct cudart_mod **nm = grow(g_rt.mods, &g_rt.capmods, g_rt.nmods, sizeof *nm);
    if (!nm) {
        free(m->ptx);
        free(m);
        return NULL;
    }
    g_rt.mods = nm;
    g_rt.mods[g_rt.nmods++] = m;
    (void)rt;
    (void)e;
    return (void **)m;
}

void __cudaRegisterFatBinaryEnd(void **handle)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (rt && handle)
        cudart_mod_ready(rt, (struct cudart_mod *)handle);
}

char __cudaInitModule(void **handle)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    return rt && handle && cudart_mod_ready(rt, (struct cudart_mod *)handle) == cudaSuccess;
}

void __cudaUnregisterFatBinary(void **handle)
{
    /* the module stays: the exit report runs after the program's own
     * atexit handlers, and nothing is called after it */
    (void)handle;
}

void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, void *tid,
                            void *bid, void *bDim, void *gDim, int *wSize)
{
    (void)deviceFun; (void)thread_limit; (void)tid; (void)bid; (void)bDim;
    (void)gDim; (void)wSize;
    struct cudart_fn *nf = grow(g_rt.fns, &g_rt.capfns, g_rt.nfns, sizeof *nf);
    char *name = strdup(deviceName ? deviceName : "");
    if (!nf || !name) {
        free(name);
        fprintf(stderr, "lockstep cudart: out of host memory registering %s\n",
                deviceName ? deviceName : "a kernel");
        return;
    }
    g_rt.fns = nf;
    g_rt.fns[g_rt.nfns++] = (struct cudart_fn){ hostFun, name,
                                                (struct cudart_mod *)handle, -1 };
}

static void add_var(void **handle, const void *host, const char *name, size_t size,
                    int managed)
{
    struct cudart_var *nv = grow(g_rt.vars, &g_rt.capvars, g_rt.nvars, sizeof *nv);
    char *nm = strdup(name ? name : "");
    if (!nv || !nm) {
        free(nm);
        fprintf(stderr, "lockstep cudart: out of host memory registering %s\n",
                name ? name : "a variable");
        return;
    }
    g_rt.vars = nv;
    g_rt.vars[g_rt.nvars++] = (struct cudart_var){ host, nm,
        (struct cudart_mod *)handle, size, managed, NULL };
}

void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size, int constant,
                       int global)
{
    (void)deviceAddress; (void)ext; (void)constant; (void)global;
    add_var(handle, hostVar, deviceName, size, 0);
}

void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress,
                              char *deviceAddress, const char *deviceName, int ext,
                              size_t size, int constant, int global)
{
    (void)deviceAddress; (void)ext; (void)constant; (void)global;
    add_var(handle, hostVarPtrAddress, deviceName, size, 1);
}

struct cudart_var *cudart_var_find(struct cudart_rt *rt, const void *sym)
{
    for (size_t i = 0; i < rt->nvars; i++)
        if (rt->vars[i].host == sym)
            return &rt->vars[i];
    return NULL;
}

/* ---- managed memory: host pages at the device address ---- */

struct cudart_managed *cudart_managed_find(struct cudart_rt *rt, uint64_t p, size_t n)
{
    for (size_t i = 0; i < rt->nmgd; i++) {
        struct cudart_managed *m = &rt->mgd[i];
        if (m->host == (void *)(uintptr_t)m->d && p >= m->d &&
            p - m->d <= m->size && n <= m->size - (p - m->d))
            return m;
    }
    return NULL;
}

/* Whether region m is shared pages (cudaMallocManaged), not a copy. */
static int shared_pages(const struct cudart_managed *m)
{
    return m->map && m->host == (void *)(uintptr_t)m->d;
}

cudaError_t cudart_managed_push(struct cudart_rt *rt)
{
    for (size_t i = 0; i < rt->nmgd; i++) {
        struct cudart_managed *m = &rt->mgd[i];
        if (shared_pages(m))
            continue;
        ls_status st = ls_memcpy_htod(rt->gpu, m->d, m->host,
                                      m->size);
        if (st != LS_OK)
            return cudart_from_status(st);
    }
    return cudaSuccess;
}

cudaError_t cudart_managed_pull(struct cudart_rt *rt)
{
    for (size_t i = 0; i < rt->nmgd; i++) {
        struct cudart_managed *m = &rt->mgd[i];
        if (shared_pages(m))
            continue;
        ls_status st = ls_memcpy_dtoh(rt->gpu, m->host, m->d,
                                      m->size);
        if (st != LS_OK)
            return cudart_from_status(st);
    }
    return cudaSuccess;
}

void cudart_gpu_reset(struct cudart_rt *rt)
{
    for (size_t i = 0; i < rt->nmgd; i++)
        if (rt->mgd[i].map)        /* __managed__ variables keep their host copy */
            munmap(rt->mgd[i].host, rt->mgd[i].map);
    rt->nmgd = 0;
    rt->nhreg = 0;             /* the program's pages stay its own */
    rt->npalloc = 0;           /* the pools' allocations went with the GPU */
    rt->ngmem = 0;             /* and so did the graphs' memory */
    rt->graph_mem_now = rt->graph_mem_high = 0;
    ls_gpu_destroy(rt->gpu);
    rt->gpu = NULL;
    rt->nlaunches = 0;
    rt->now_ms = 0;
    rt->sticky = cudaSuccess;
    rt->last = cudaSuccess;
    rt->ncc = 0;
}

/* ---- the exit report ---- */

struct kstat { const char *name; unsigned n; ls_stats s; };

void cudart_report(struct cudart_rt *rt)
{
    if (rt->reported || !rt->gpu)
        return;
    rt->reported = 1;
    int timing = rt->cfg.mode == LS_MODE_TIMING;
    ls_stats total;
    memset(&total, 0, sizeof total);
    char msg[256] = "";
    struct api_run r = {
        .workload = rt->prog, .category = "cuda", .size = "program",
        .mode = timing ? "timing" : "functional",
        .config = rt->cfg.config ? rt->cfg.config : "builtin", .pass = 1, .msg = msg,
        .nlaunches = (unsigned)rt->nlaunches, .total = &total,
    };
    if (rt->stats_path && rt->nlaunches && !rt->launches[rt->nlaunches - 1].have_digest &&
        ls_mem_digest(rt->gpu, &rt->launches[rt->nlaunches - 1].digest) == LS_OK)
        rt->launches[rt->nlaunches - 1].have_digest = 1;  /* the final memory */
    struct api_launch *cl = calloc(rt->nlaunches + 1, sizeof *cl);
    struct kstat *ks = calloc(rt->nlaunches + 1, sizeof *ks);
    size_t nk = 0;
    for (size_t i = 0; i < rt->nlaunches; i++) {
        const struct cudart_launch *l = &rt->launches[i];
        ls_stats_add(&total, &l->s, 32);
        r.wall_s += l->s.wall_s;
        if (l->st != LS_OK) {
            r.pass = 0;
            if (!msg[0])
                snprintf(msg, sizeof msg, "launch %zu %s: %s", i + 1, l->kernel,
                         ls_status_name(l->st));
        }
        if (cl) {
            snprintf(cl[i].kernel, sizeof cl[i].kernel, "%s", l->kernel);
            cl[i].status = l->st;
            cl[i].s = l->s;
            cl[i].have_digest = l->have_digest;
            cl[i].mem_digest = l->digest;
            r.have_digest = l->have_digest;
            r.mem_digest = l->digest;
        }
        if (ks) {
            size_t k = 0;
            while (k < nk && strcmp(ks[k].name, l->kernel))
                k++;
            if (k == nk)
                ks[nk++].name = l->kernel;
            ks[k].n++;
            ls_stats_add(&ks[k].s, &l->s, 32);
        }
    }
    r.launch = cl;
    r.nlaunch_rec = cl ? (unsigned)rt->nlaunches : 0;
    r.nchk = ls_check_findings(rt->gpu, &r.chk);
    r.checks_on = ls_checks_enabled(rt->gpu);
    if (!rt->quiet) {
        fprintf(stderr, "lockstep: %s: %zu kernel%s, %zu launch%s, %s mode (%s)",
                rt->prog, nk, nk == 1 ? "" : "s", rt->nlaunches,
                rt->nlaunches == 1 ? "" : "es", r.mode, r.config);
        if (timing)
            fprintf(stderr, ": %llu cycles, IPC %.3f", (unsigned long long)total.cycles,
                    total.cycles ? (double)total.warp_insts / (double)total.cycles : 0.0);
        fprintf(stderr, ", %llu warp insts, SIMD util %.3f%s\n",
                (unsigned long long)total.warp_insts, total.simd_util,
                r.pass ? "" : ", FAILED launches");
        for (size_t k = 0; ks && k < nk; k++) {
            const ls_stats *s = &ks[k].s;
            fprintf(stderr, "  %-24s %4u launch%s", ks[k].name, ks[k].n,
                    ks[k].n == 1 ? "  " : "es");
            if (timing)
                fprintf(stderr, " %12llu cycles  IPC %7.3f",
                        (unsigned long long)s->cycles,
                        s->cycles ? (double)s->warp_insts / (double)s->cycles : 0.0);
            fprintf(stderr, " %12llu warp insts  SIMD %.3f\n",
                    (unsigned long long)s->warp_insts, s->simd_util);
        }
        if (r.nchk)
            fprintf(stderr, "  %zu check finding%s%s:\n", r.nchk, r.nchk == 1 ? "" : "s",
                    r.nchk > 10 ? " (the first 10; LOCKSTEP_STATS lists them all)" : "");
        for (size_t k = 0; k < r.nchk && k < 10; k++) {
            char line[1024];
            fprintf(stderr, "    %s\n", ls_check_format(&r.chk[k], line, sizeof line));
        }
        api_print_cosim(stderr, &total);
    }
    if (rt->stats_path) {
        FILE *f = strcmp(rt->stats_path, "-") ? fopen(rt->stats_path, "w") : stdout;
        if (!f) {
            fprintf(stderr, "lockstep cudart: cannot write LOCKSTEP_STATS=%s: %s\n",
                    rt->stats_path, strerror(errno));
        } else {
            api_json_run(f, &r, 0);
            fputc('\n', f);
            int bad = ferror(f);
            if (f != stdout)
                bad |= fclose(f) != 0;
            else
                fflush(f);
            if (bad)
                fprintf(stderr, "lockstep cudart: error writing LOCKSTEP_STATS=%s\n",
                        rt->stats_path);
        }
    }
    free(cl);
    free(ks);
}
