/* The device runtime: what the extern functions nvcc calls from device
 * code do here (docs/device-runtime.md).
 *  - vprintf(fmt, argbuf): the text is formatted at the call and kept per
 *    launch; at the end of the launch it is written ordered by (global
 *    thread id, call order within the thread), the same in both modes.
 *    At most printf_fifo_size bytes are written: the records beyond the
 *    longest prefix of that order that fits are dropped and counted.
 *  - malloc/free (and so device new/delete): every thread allocates in its
 *    own window of the heap address range, first fit, so an allocation's
 *    address depends only on the thread and its own earlier calls, never
 *    on the order warps run in; live bytes are bounded by malloc_heap_size
 *    (beyond it malloc returns NULL).
 *  - __assertfail: stops the kernel with CUDA's message and LS_ERR_ASSERT.
 *  - cudaGraphSetConditional: stores the value in the handle's word.
 *  - anything else (device-side launches, graph calls): the kernel that
 *    reaches it stops with a message naming the function and its line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/gpu.h"
#include "simt/simt.h"
#include "exec/exec_printf.h"

#define HEAP_WHAT "device malloc"
#define HEAP_ALIGN 16u
#define MIN_WIN 4096u

ls_status gpu_devrt_init(ls_gpu *gpu, const ls_config *lc)
{
    struct gpu_devrt *d = &gpu->devrt;
    d->fn = lc->printf_fn;
    d->fn_user = lc->printf_user;
    if (lc->printf_file && !lc->printf_fn) {
        d->out = fopen(lc->printf_file, "w");
        if (!d->out)
            return GPU_FAIL(gpu, LS_ERR_IO, "printf_file %s: cannot open for "
                            "writing", lc->printf_file);
    }
    gpu->cfg.printf_file = NULL;    /* the caller's strings are not kept */
    return LS_OK;
}

static void drop_records(struct gpu_devrt *d, size_t from)
{
    for (size_t i = from; i < d->nrec; i++) {
        d->rec_bytes -= d->rec[i].len;
        free(d->rec[i].text);
    }
    d->nrec = from < d->nrec ? from : d->nrec;
}

void gpu_devrt_fini(ls_gpu *gpu)
{
    struct gpu_devrt *d = &gpu->devrt;
    drop_records(d, 0);
    free(d->rec);
    d->rec = NULL;
    d->caprec = 0;
    if (d->out)
        fclose(d->out);
    d->out = NULL;
}

void gpu_devrt_begin(ls_gpu *gpu, const struct ls_module *m,
                     const struct ptx_func *f, ls_dim3 grid, ls_dim3 block)
{
    struct gpu_devrt *d = &gpu->devrt;
    drop_records(d, 0);
    d->mod = m;
    d->kernel = f;
    d->grid = grid;
    d->block = block;
    d->seq = 0;
    d->fifo = (uint64_t)gpu->tcfg.printf_fifo_size;
    d->printf_calls = d->printf_bytes = d->printf_dropped = 0;
    d->malloc_calls = d->malloc_failed = d->free_calls = 0;
    d->assert_msg[0] = 0;
    /* heap windows: a power of two per thread, at most the heap size
     * rounded up, so that every thread of the grid has one */
    uint64_t nt = (uint64_t)grid.x * grid.y * grid.z *
                  ((uint64_t)block.x * block.y * block.z);
    uint64_t want = MIN_WIN, heap = (uint64_t)gpu->tcfg.malloc_heap_size;
    while (want < heap && want < EXEC_HEAP_SPAN)
        want <<= 1;
    uint64_t fit = nt ? EXEC_HEAP_SPAN / nt : EXEC_HEAP_SPAN;
    uint64_t w = 1;
    while (w <= fit / 2)
        w <<= 1;
    d->win = w < want ? w : want;
}

static int rec_cmp(const void *a, const void *b)
{
    const struct gpu_prec *x = a, *y = b;
    if (x->gtid != y->gtid)
        return x->gtid < y->gtid ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sorts the records and keeps the longest prefix that fits the FIFO; the
 * rest is dropped (a record dropped now can never be in the final prefix,
 * so the result does not depend on when this runs). */
static void trim(struct gpu_devrt *d)
{
    if (d->nrec)
        qsort(d->rec, d->nrec, sizeof *d->rec, rec_cmp);
    uint64_t sum = 0;
    size_t k = 0;
    while (k < d->nrec && sum + d->rec[k].len <= d->fifo)
        sum += d->rec[k++].len;
    d->printf_dropped += d->nrec - k;
    drop_records(d, k);
}

ls_status gpu_devrt_end(ls_gpu *gpu, ls_status st, ls_stats *stats)
{
    struct gpu_devrt *d = &gpu->devrt;
    trim(d);
    FILE *o = d->out ? d->out : stdout;
    for (size_t i = 0; i < d->nrec; i++) {
        d->printf_calls++;
        d->printf_bytes += d->rec[i].len;
        if (d->fn)
            d->fn(d->fn_user, d->rec[i].text, d->rec[i].len);
        else
            fwrite(d->rec[i].text, 1, d->rec[i].len, o);
    }
    if (!d->fn && d->nrec)
        fflush(o);
    drop_records(d, 0);
    if (stats) {
        stats->printf_calls = d->printf_calls;
        stats->printf_bytes = d->printf_bytes;
        stats->printf_dropped = d->printf_dropped;
        stats->malloc_calls = d->malloc_calls;
        stats->malloc_failed = d->malloc_failed;
        stats->free_calls = d->free_calls;
    }
    return st;
}

/* ------------------------------------------------------------ helpers */

/* Global linear thread id of lane (block-major, then thread linear). */
static uint64_t gtid_of(const struct gpu_devrt *d, const struct simt_warp *w,
                        unsigned lane)
{
    const struct exec_grid *g = &w->gridv;
    uint64_t cta = ((uint64_t)g->ctaid[2] * d->grid.y + g->ctaid[1]) * d->grid.x +
                   g->ctaid[0];
    const uint32_t *t = w->ew.ids[lane].tid;
    uint64_t tl = ((uint64_t)t[2] * d->block.y + t[1]) * d->block.x + t[0];
    return cta * ((uint64_t)d->block.x * d->block.y * d->block.z) + tl;
}

struct rd_ctx {
    struct simt_warp *w;
    unsigned lane;
};

static int rd_generic(void *user, uint64_t addr, void *buf, size_t n)
{
    struct rd_ctx *c = user;
    uint8_t *p = exec_mem_host(&c->w->mem, PTX_SP_GENERIC, addr, (unsigned)n,
                               c->lane, false, &c->w->err);
    if (!p)
        return -1;
    memcpy(buf, p, n);
    return 0;
}

/* Host pointer of argument i (or the return value, i = -1) of the call in,
 * n bytes, for lane. */
static uint8_t *param_ptr(struct simt_warp *w, const struct ptx_inst *in, int i,
                          unsigned n, unsigned lane, bool store)
{
    const struct ptx_operand *o = i < 0 ? &in->o[1]
                                        : ptx_call_arg(w->mem.func, in, (unsigned)i);
    if (!o || o->kind != PTX_O_SYM || o->sym.index < 0)
        return NULL;
    uint64_t a = w->ew.sym_addr[o->sym.scope ? 1 : 0][o->sym.index] + (uint64_t)o->imm;
    return exec_mem_host(&w->mem, PTX_SP_PARAM, a, n, lane, store, &w->err);
}

static int arg_u64(struct simt_warp *w, const struct ptx_inst *in, int i,
                   unsigned n, unsigned lane, uint64_t *v)
{
    uint8_t *p = param_ptr(w, in, i, n, lane, false);
    if (!p)
        return -1;
    *v = 0;
    memcpy(v, p, n);
    return 0;
}

static int ret_u64(struct simt_warp *w, const struct ptx_inst *in, unsigned n,
                   unsigned lane, uint64_t v)
{
    if (in->o[1].kind == PTX_O_NONE)
        return 0;               /* the caller ignores the result */
    uint8_t *p = param_ptr(w, in, -1, n, lane, true);
    if (!p)
        return -1;
    memcpy(p, &v, n);
    return 0;
}

static int lane_fail(struct simt_warp *w, unsigned lane, uint64_t addr,
                     const char *msg)
{
    w->err.lane = (int)lane;
    w->err.addr = addr;
    snprintf(w->err.msg, sizeof w->err.msg, "%s", msg);
    w->err_simt = false;
    w->err_kind = SIMT_ERR_PLAIN;
    return -1;
}

/* A reader or parameter failure: exec_mem_host filled w->err already. */
static int mem_fail(struct simt_warp *w, const char *what)
{
    char m[sizeof w->err.msg];
    size_t k = strlen(what);
    memcpy(m, w->err.msg, sizeof m);
    m[sizeof m - 1] = 0;
    if (k + 2 < sizeof m) {     /* "what: message", cut to the buffer */
        memcpy(w->err.msg, what, k);
        memcpy(w->err.msg + k, ": ", 2);
        size_t r = strlen(m), room = sizeof w->err.msg - k - 3;
        memcpy(w->err.msg + k + 2, m, r < room ? r : room);
        w->err.msg[k + 2 + (r < room ? r : room)] = 0;
    }
    w->err_simt = false;
    w->err_kind = SIMT_ERR_PLAIN;
    if (w->err.lane < 0)
        w->err.lane = 0;
    return -1;
}

/* Reads a device C string (for messages), at most n-1 bytes. */
static void dev_string(struct simt_warp *w, unsigned lane, uint64_t a, char *buf,
                       size_t n)
{
    struct rd_ctx c = { w, lane };
    size_t i = 0;
    struct exec_error keep = w->err;
    for (; a && i + 1 < n; i++) {
        char ch;
        if (rd_generic(&c, a + i, &ch, 1) != 0 || ch == 0)
            break;
        buf[i] = ch;
    }
    buf[i] = 0;
    w->err = keep;
}

/* ------------------------------------------------------------- printf */

static int do_vprintf(ls_gpu *gpu, struct simt_warp *w, const struct ptx_inst *in,
                      uint32_t lanes)
{
    struct gpu_devrt *d = &gpu->devrt;
    EXEC_FOR_EACH_LANE(lanes, lane, {
        uint64_t fmt, argbuf;
        if (arg_u64(w, in, 0, 8, lane, &fmt) || arg_u64(w, in, 1, 8, lane, &argbuf))
            return mem_fail(w, "vprintf arguments");
        int32_t rv = -1;
        if (fmt) {
            /* the format string, copied to the host */
            struct exec_text f = { 0 }, t = { 0 };
            struct rd_ctx c = { w, lane };
            for (uint64_t i = 0;; i++) {
                char ch;
                if (i >= (1u << 20) || rd_generic(&c, fmt + i, &ch, 1) != 0) {
                    free(f.s);
                    return mem_fail(w, "vprintf format string");
                }
                if (ch == 0)
                    break;
                if (exec_text_add(&f, &ch, 1) != 0) {
                    free(f.s);
                    return lane_fail(w, lane, 0, "vprintf: out of host memory");
                }
            }
            rv = exec_printf_format(f.s ? f.s : "", argbuf, rd_generic, &c, &t);
            free(f.s);
            if (rv < 0) {
                free(t.s);
                return mem_fail(w, "vprintf argument");
            }
            if (d->nrec == d->caprec) {
                size_t nc = d->caprec ? d->caprec * 2 : 64;
                struct gpu_prec *r = realloc(d->rec, nc * sizeof *r);
                if (!r) {
                    free(t.s);
                    return lane_fail(w, lane, 0, "vprintf: out of host memory");
                }
                d->rec = r;
                d->caprec = nc;
            }
            d->rec[d->nrec++] = (struct gpu_prec){ gtid_of(d, w, lane), d->seq++,
                                                   t.s, t.len };
            d->rec_bytes += t.len;
            if (d->rec_bytes > 2 * d->fifo + 4096)
                trim(d);
        }
        if (ret_u64(w, in, 4, lane, (uint64_t)(uint32_t)rv) != 0)
            return mem_fail(w, "vprintf result");
    });
    return 0;
}

/* --------------------------------------------------------------- heap */

/* First-fit address for size bytes in [lo, hi) among the allocations. */
static uint64_t window_fit(const struct exec_dmem *dm, uint64_t lo, uint64_t hi,
                           uint64_t size, uint32_t *pos)
{
    uint32_t a = 0, b = dm->n;
    while (a < b) {             /* first allocation ending after lo */
        uint32_t m = a + (b - a) / 2;
        if (dm->a[m].base + (dm->a[m].size ? dm->a[m].size : 1) <= lo)
            a = m + 1;
        else
            b = m;
    }
    uint64_t cand = lo;
    for (; a < dm->n && dm->a[a].base < hi; a++) {
        if (dm->a[a].base >= cand && dm->a[a].base - cand >= size)
            break;
        uint64_t end = dm->a[a].base + (dm->a[a].size ? dm->a[a].size : 1);
        end = (end + HEAP_ALIGN - 1) / HEAP_ALIGN * HEAP_ALIGN;
        if (end > cand)
            cand = end;
    }
    *pos = a;
    return cand + size <= hi ? cand : 0;
}

static int do_malloc(ls_gpu *gpu, struct simt_warp *w, const struct ptx_inst *in,
                     uint32_t lanes)
{
    struct gpu_devrt *d = &gpu->devrt;
    struct exec_dmem *dm = &gpu->dmem;
    EXEC_FOR_EACH_LANE(lanes, lane, {
        uint64_t size, addr = 0;
        if (arg_u64(w, in, 0, 8, lane, &size))
            return mem_fail(w, "malloc argument");
        d->malloc_calls++;
        uint64_t span = (size + HEAP_ALIGN - 1) / HEAP_ALIGN * HEAP_ALIGN;
        uint64_t lo = EXEC_HEAP_BASE + gtid_of(d, w, lane) * d->win;
        uint32_t pos = 0;
        if (size && span >= size && size <= (uint64_t)gpu->tcfg.malloc_heap_size &&
            d->heap_used + span <= (uint64_t)gpu->tcfg.malloc_heap_size &&
            lo + d->win <= EXEC_HEAP_BASE + EXEC_HEAP_SPAN)
            addr = window_fit(dm, lo, lo + d->win, span, &pos);
        uint8_t *host = addr ? calloc(1, (size_t)size) : NULL;
        if (addr && host && dm->n == dm->cap) {
            uint32_t nc = dm->cap ? dm->cap * 2 : 64;
            struct exec_alloc *na = realloc(dm->a, nc * sizeof *na);
            if (na) {
                dm->a = na;
                dm->cap = nc;
            }
        }
        if (!addr || !host || dm->n == dm->cap) {
            free(host);
            addr = 0;           /* heap full: NULL, as CUDA */
            d->malloc_failed++;
        } else {
            memmove(&dm->a[pos + 1], &dm->a[pos], (dm->n - pos) * sizeof *dm->a);
            dm->a[pos] = (struct exec_alloc){ addr, size, host, HEAP_WHAT, NULL, 0, size, false };
            dm->n++;
            dm->epoch++;
            d->heap_used += span;
        }
        if (ret_u64(w, in, 8, lane, addr) != 0)
            return mem_fail(w, "malloc result");
    });
    return 0;
}

static int do_free(ls_gpu *gpu, struct simt_warp *w, const struct ptx_inst *in,
                   uint32_t lanes)
{
    struct gpu_devrt *d = &gpu->devrt;
    struct exec_dmem *dm = &gpu->dmem;
    EXEC_FOR_EACH_LANE(lanes, lane, {
        uint64_t p;
        if (arg_u64(w, in, 0, 8, lane, &p))
            return mem_fail(w, "free argument");
        if (!p)
            continue;           /* free(NULL) does nothing */
        d->free_calls++;
        const struct exec_alloc *a = exec_dmem_find(dm, p, 1);
        if (!a || a->base != p || strcmp(a->what, HEAP_WHAT) != 0) {
            char m[200];
            snprintf(m, sizeof m, "free(0x%llx): not a pointer that device "
                     "malloc returned (%s)", (unsigned long long)p,
                     !a ? "no live allocation there; freed twice?"
                        : a->base != p ? "inside an allocation, not its start"
                                       : "memory of the host API or a module");
            return lane_fail(w, lane, p, m);
        }
        uint32_t i = (uint32_t)(a - dm->a);
        d->heap_used -= (a->size + HEAP_ALIGN - 1) / HEAP_ALIGN * HEAP_ALIGN;
        free(dm->a[i].host);
        memmove(&dm->a[i], &dm->a[i + 1], (dm->n - i - 1) * sizeof *dm->a);
        dm->n--;
        dm->epoch++;
    });
    return 0;
}

/* ------------------------------------------------------------- assert */

static int do_assert(ls_gpu *gpu, struct simt_warp *w, const struct ptx_inst *in,
                     uint32_t lanes)
{
    struct gpu_devrt *d = &gpu->devrt;
    unsigned lane = (unsigned)__builtin_ctz(lanes);
    uint64_t msg = 0, file = 0, line = 0, func = 0;
    if (arg_u64(w, in, 0, 8, lane, &msg) || arg_u64(w, in, 1, 8, lane, &file) ||
        arg_u64(w, in, 2, 4, lane, &line) || arg_u64(w, in, 3, 8, lane, &func))
        return mem_fail(w, "__assertfail arguments");
    char m[512], f[256], fn[512];
    dev_string(w, lane, msg, m, sizeof m);
    dev_string(w, lane, file, f, sizeof f);
    dev_string(w, lane, func, fn, sizeof fn);
    const uint32_t *c = w->gridv.ctaid, *t = w->ew.ids[lane].tid;
    snprintf(d->assert_msg, sizeof d->assert_msg,
             "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` "
             "failed.", f, (unsigned)line, fn, c[0], c[1], c[2], t[0], t[1], t[2], m);
    w->err.lane = (int)lane;
    w->err.addr = 0;
    snprintf(w->err.msg, sizeof w->err.msg, "assertion failed");
    w->err_simt = false;
    w->err_kind = SIMT_ERR_ASSERT;
    return -1;
}

/* ------------------------------------------------ graph conditionals */

/* cudaGraphSetConditional(handle, value): the runtime's handle is the
 * device address of the condition's 32-bit word (csim/cudart/cudart_gnode.c);
 * lanes store in lane order (racing calls are undefined behaviour in CUDA). */
static int do_setcond(ls_gpu *gpu, struct simt_warp *w, const struct ptx_inst *in,
                      uint32_t lanes)
{
    (void)gpu;
    EXEC_FOR_EACH_LANE(lanes, lane, {
        uint64_t h = 0, v = 0;
        if (arg_u64(w, in, 0, 8, lane, &h) || arg_u64(w, in, 1, 4, lane, &v))
            return mem_fail(w, "cudaGraphSetConditional arguments");
        uint8_t *p = exec_mem_host(&w->mem, PTX_SP_GLOBAL, h, 4, lane, true, &w->err);
        if (!p)
            return mem_fail(w, "cudaGraphSetConditional handle (not a handle of "
                            "cudaGraphConditionalHandleCreate)");
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, 4);
    });
    return 0;
}

/* What an unimplemented extern function belongs to, for the message. */
static const char *extern_hint(const char *name)
{
    if (strstr(name, "CDP") || strstr(name, "LaunchDevice") ||
        strstr(name, "GetParameterBuffer") || strstr(name, "cudaDeviceSynchronize"))
        return " (dynamic parallelism: device-side kernel launch)";
    if (strstr(name, "Graph"))
        return " (CUDA graphs from device code)";
    return "";
}

int gpu_devrt_call(void *user, struct simt_warp *w, const struct ptx_func *callee,
                   const struct ptx_inst *in, uint32_t lanes)
{
    ls_gpu *gpu = user;
    const char *n = callee->name ? callee->name : "?";
    unsigned nargs = ptx_call_nargs(in);
    struct { const char *name; unsigned nargs; int (*fn)(ls_gpu *, struct simt_warp *,
                                                          const struct ptx_inst *, uint32_t); }
        const tab[] = {
        { "vprintf", 2, do_vprintf }, { "malloc", 1, do_malloc },
        { "free", 1, do_free }, { "__assertfail", 5, do_assert },
        { "cudaGraphSetConditional", 2, do_setcond },
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        if (strcmp(n, tab[i].name) != 0)
            continue;
        if (nargs != tab[i].nargs || callee->nparams != tab[i].nargs) {
            snprintf(w->err.msg, sizeof w->err.msg, "line %u:%u: call of %s with "
                     "%u arguments (the device runtime's takes %u)", in->line,
                     in->col, n, nargs, tab[i].nargs);
            w->err.lane = -1;
            w->err_simt = true;
            w->err_kind = SIMT_ERR_EXTERN;
            return -1;
        }
        return tab[i].fn(gpu, w, in, lanes);
    }
    snprintf(w->err.msg, sizeof w->err.msg, "line %u:%u: call of extern function "
             "%s%s, which this model does not implement", in->line, in->col, n,
             extern_hint(n));
    w->err.lane = -1;
    w->err_simt = true;
    w->err_kind = SIMT_ERR_EXTERN;
    return -1;
}

ls_status gpu_warp_error(ls_gpu *gpu, const char *file, const struct ptx_func *kf,
                         const struct simt_warp *w)
{
    const struct ptx_func *f = w->err_func ? w->err_func : kf;
    uint32_t line = (uint32_t)w->err_pc < f->ninsts ? f->insts[w->err_pc].line
                                                     : f->line;
    if (w->err_kind == SIMT_ERR_ASSERT) {
        snprintf(gpu->err, sizeof gpu->err, "%s (kernel %s, %s:%u)",
                 gpu->devrt.assert_msg, kf->name, file, line);
        return LS_ERR_ASSERT;
    }
    return gpu_fail(gpu, LS_ERR_LAUNCH, file, (int)line,
                    "error in kernel %s, CTA (%u,%u,%u), warp %u, pc %d (%s): %s",
                    kf->name, w->gridv.ctaid[0], w->gridv.ctaid[1],
                    w->gridv.ctaid[2], w->gridv.warpid, w->err_pc, f->name,
                    w->err.msg);
}

ls_status gpu_module_relocate(ls_gpu *gpu, struct ls_module *m)
{
    const struct ptx_module *p = m->ptx;
    for (uint32_t i = 0; i < p->nrelocs; i++) {
        const struct ptx_reloc *r = &p->relocs[i];
        if (r->sym >= p->nsyms || r->target < 0)
            return GPU_FAIL(gpu, LS_ERR_INTERNAL, "bad relocation %u", i);
        uint64_t v = r->is_func ? PTX_FUNC_ADDR(r->target)
                                : m->sym_addr[r->target] + (uint64_t)r->addend;
        if (r->is_func)
            v += (uint64_t)r->addend;
        uint8_t *h = gpu_mem_host(gpu, m->sym_addr[r->sym] + r->offset, r->bytes,
                                  "address initialiser");
        if (!h)
            return LS_ERR_INTERNAL;
        memcpy(h, &v, r->bytes);
    }
    return LS_OK;
}
