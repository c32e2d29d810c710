/* Graph nodes beyond cudart_graph.c's: cudaGraphAddNode (every node kind
 * through one parameter union), the parameters of copy, memset and host
 * nodes (get, set, and set in an instantiated graph), copies to and from
 * symbols, graph memory nodes, and conditional nodes (if and while as
 * CUDA 12.4 defines them, if/else and switch as CUDA 13 does) with their
 * handles, which kernels set through cudaGraphSetConditional (the device
 * runtime, csim/gpu/gpu_devrt.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/cudart_graph.h"

CUDART_API cudaError_t cudaMalloc(void **p, size_t n);
CUDART_API cudaError_t cudaGraphCreate(cudaGraph_t *g, unsigned flags);
CUDART_API cudaError_t cudaGetSymbolAddress(void **p, const void *sym);
CUDART_API cudaError_t cudaGraphAddNode(cudaGraphNode_t *n, cudaGraph_t g,
    const cudaGraphNode_t *deps, const struct cudaGraphEdgeData *edges, size_t nd,
    struct cudaGraphNodeParams *p);
CUDART_API cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t n, struct cudaGraphNodeParams *p);
CUDART_API cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n,
                                                  struct cudaGraphNodeParams *p);
CUDART_API cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *h,
    cudaGraph_t g, unsigned dflt, unsigned flags);
CUDART_API cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *n, cudaGraph_t g,
    const cudaGraphNode_t *deps, size_t nd, struct cudaMemAllocNodeParams *p);
CUDART_API cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *n, cudaGraph_t g,
    const cudaGraphNode_t *deps, size_t nd, void *dptr);
CUDART_API cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t n,
                                                      struct cudaMemAllocNodeParams *p);
CUDART_API cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t n, void *dptr);
CUDART_API cudaError_t cudaDeviceGraphMemTrim(int dev);
CUDART_API cudaError_t cudaDeviceGetGraphMemAttribute(int dev, int attr, void *v);
CUDART_API cudaError_t cudaDeviceSetGraphMemAttribute(int dev, int attr, void *v);
CUDART_API cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *n, cudaGraph_t g,
    const cudaGraphNode_t *deps, size_t nd, const void *sym, const void *src, size_t count,
    size_t off, int kind);
CUDART_API cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *n, cudaGraph_t g,
    const cudaGraphNode_t *deps, size_t nd, void *dst, const void *sym, size_t count,
    size_t off, int kind);
CUDART_API cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t n,
                                                    struct cudaMemcpy3DParms *p);
CUDART_API cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t n,
                                                    const struct cudaMemcpy3DParms *p);
CUDART_API cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t n, void *dst,
                                                      const void *src, size_t count, int kind);
CUDART_API cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t n,
                                                    struct cudaMemsetParams *p);
CUDART_API cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t n,
                                                    const struct cudaMemsetParams *p);
CUDART_API cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t n,
                                                  struct cudaHostNodeParams *p);
CUDART_API cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t n,
                                                  const struct cudaHostNodeParams *p);
CUDART_API cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n,
    const struct cudaMemcpy3DParms *p);
CUDART_API cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t x,
    cudaGraphNode_t n, void *dst, const void *src, size_t count, int kind);
CUDART_API cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n,
    const struct cudaMemsetParams *p);
CUDART_API cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n,
    const struct cudaHostNodeParams *p);
CUDART_API cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t n, cudaGraph_t *g);

#define GET_RT() \
    cudaError_t e; \
    CUDART_ENTER(rt, cudart_get(&e)); \
    if (!rt) \
        return e

/* ---- parameters of copy, memset and host nodes ---- */

static cudaError_t set_copy3d(struct cudart_rt *rt, struct cudart_node *n,
                              const struct cudaMemcpy3DParms *p, const char *fn)
{
    if (!p)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "null parameters");
    n->one_d = 0;
    n->p3 = *p;
    return cudaSuccess;
}

static void set_copy1d(struct cudart_node *n, void *dst, const void *src, size_t count,
                       int kind)
{
    n->one_d = 1;
    n->dst = dst;
    n->src = src;
    n->count = count;
    n->kind = kind;
}

static cudaError_t set_memset(struct cudart_rt *rt, struct cudart_node *n,
                              const struct cudaMemsetParams *p, const char *fn)
{
    if (!p || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4))
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "element size must be 1, 2 or 4");
    if (p->height > 1 && p->pitch < p->width * p->elementSize)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "pitch %zu is less than a row "
                           "(%zu bytes)", p->pitch, p->width * p->elementSize);
    n->ms = *p;
    return cudaSuccess;
}

static cudaError_t set_host(struct cudart_rt *rt, struct cudart_node *n,
                            const struct cudaHostNodeParams *p, const char *fn)
{
    if (!p || !p->fn)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "no host function");
    n->host = *p;
    return cudaSuccess;
}

/* Node n of type type, or NULL with the error recorded. */
static struct cudart_node *typed(struct cudart_rt *rt, cudaGraphNode_t n, int type,
                                 const char *fn, cudaError_t *e)
{
    if (node_ok(n) && n->type == type)
        return n;
    *e = cudart_fail(rt, cudaErrorInvalidValue, fn, "%p is not a %s node", (void *)n,
                     type == NODE_MEMCPY ? "copy" : type == NODE_MEMSET ? "memset"
                     : type == NODE_HOST ? "host" : type == NODE_GRAPH ? "child graph"
                     : type == NODE_MEM_ALLOC ? "memory allocation" : "memory free");
    return NULL;
}

/* The node of instantiated graph x made from node n of its graph. */
static struct cudart_node *exec_node(struct cudart_rt *rt, cudaGraphExec_t x,
                                     cudaGraphNode_t n, int type, const char *fn,
                                     cudaError_t *e)
{
    if (!gexec_ok(x) || !node_ok(n) || n->index >= x->g->n ||
        x->g->nodes[n->index]->type != type || n->type != type) {
        *e = cudart_fail(rt, cudaErrorInvalidValue, fn, "not a node of this kind in the "
                         "instantiated graph");
        return NULL;
    }
    return x->g->nodes[n->index];
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t n, struct cudaMemcpy3DParms *p)
{
    GET_RT();
    struct cudart_node *x = typed(rt, n, NODE_MEMCPY, "cudaGraphMemcpyNodeGetParams", &e);
    if (!x)
        return e;
    if (!p)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphMemcpyNodeGetParams",
                           "null pointer");
    if (!x->one_d) {
        *p = x->p3;
        return cudaSuccess;
    }
    /* a 1-D copy as CUDA reports it: one row of count bytes */
    memset(p, 0, sizeof *p);
    p->srcPtr = (struct cudaPitchedPtr){ (void *)(uintptr_t)x->src, x->count, x->count, 1 };
    p->dstPtr = (struct cudaPitchedPtr){ x->dst, x->count, x->count, 1 };
    p->extent = (struct cudaExtent){ x->count, 1, 1 };
    p->kind = x->kind;
    return cudaSuccess;
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t n, const struct cudaMemcpy3DParms *p)
{
    GET_RT();
    struct cudart_node *x = typed(rt, n, NODE_MEMCPY, "cudaGraphMemcpyNodeSetParams", &e);
    return x ? set_copy3d(rt, x, p, "cudaGraphMemcpyNodeSetParams") : e;
}

cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t n, void *dst, const void *src,
                                           size_t count, int kind)
{
    GET_RT();
    struct cudart_node *x = typed(rt, n, NODE_MEMCPY, "cudaGraphMemcpyNodeSetParams1D", &e);
    if (!x)
        return e;
    set_copy1d(x, dst, src, count, kind);
    return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t n, struct cudaMemsetParams *p)
{
    GET_RT();
    struct cudart_node *x = typed(rt, n, NODE_MEMSET, "cudaGraphMemsetNodeGetParams", &e);
    if (!x || !p)
        return x ? cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphMemsetNodeGetParams",
                               "null pointer") : e;
    *p = x->ms;
    return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t n, const struct cudaMemsetParams *p)
{
    GET_RT();
    struct cudart_node *x = typed(rt, n, NODE_MEMSET, "cudaGraphMemsetNodeSetParams", &e);
    return x ? set_memset(rt, x, p, "cudaGraphMemsetNodeSetParams") : e;
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t n, struct cudaHostNodeParams *p)
{
    GET_RT();
    struct cudart_node *x = typed(rt, n, NODE_HOST, "cudaGraphHostNodeGetParams", &e);
    if (!x || !p)
        return x ? cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphHostNodeGetParams",
                               "null pointer") : e;
    *p = x->host;
    return cudaSuccess;
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t n, const struct cudaHostNodeParams *p)
{
    GET_RT();
    struct cudart_node *x = typed(rt, n, NODE_HOST, "cudaGraphHostNodeSetParams", &e);
    return x ? set_host(rt, x, p, "cudaGraphHostNodeSetParams") : e;
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n,
                                             const struct cudaMemcpy3DParms *p)
{
    static const char fn[] = "cudaGraphExecMemcpyNodeSetParams";
    GET_RT();
    struct cudart_node *m = exec_node(rt, x, n, NODE_MEMCPY, fn, &e);
    return m ? set_copy3d(rt, m, p, fn) : e;
}

cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t x, cudaGraphNode_t n,
                                               void *dst, const void *src, size_t count,
                                               int kind)
{
    GET_RT();
    struct cudart_node *m = exec_node(rt, x, n, NODE_MEMCPY,
                                      "cudaGraphExecMemcpyNodeSetParams1D", &e);
    if (!m)
        return e;
    set_copy1d(m, dst, src, count, kind);
    return cudaSuccess;
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n,
                                             const struct cudaMemsetParams *p)
{
    static const char fn[] = "cudaGraphExecMemsetNodeSetParams";
    GET_RT();
    struct cudart_node *m = exec_node(rt, x, n, NODE_MEMSET, fn, &e);
    return m ? set_memset(rt, m, p, fn) : e;
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n,
                                           const struct cudaHostNodeParams *p)
{
    static const char fn[] = "cudaGraphExecHostNodeSetParams";
    GET_RT();
    struct cudart_node *m = exec_node(rt, x, n, NODE_HOST, fn, &e);
    return m ? set_host(rt, m, p, fn) : e;
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t n, cudaGraph_t *g)
{
    GET_RT();
    struct cudart_node *x = typed(rt, n, NODE_GRAPH, "cudaGraphChildGraphNodeGetGraph", &e);
    if (!x || !g)
        return x ? cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphChildGraphNodeGetGraph",
                               "null pointer") : e;
    *g = x->child;
    return cudaSuccess;
}

/* A 1-D copy node to (to 1) or from symbol sym at offset off. */
static cudaError_t symbol_node(cudaGraphNode_t *out, cudaGraph_t g,
                               const cudaGraphNode_t *deps, size_t nd, void *host,
                               const void *sym, size_t count, size_t off, int kind, int to,
                               const char *fn)
{
    GET_RT();
    void *d = NULL;
    if (!out)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "null pointer");
    if ((e = cudaGetSymbolAddress(&d, sym)) != cudaSuccess)
        return e;
    struct cudart_node *n = cudart_node_new(rt, g, NODE_MEMCPY, deps, nd, fn, &e);
    if (!n)
        return e;
    if (to)
        set_copy1d(n, (char *)d + off, host, count, kind);
    else
        set_copy1d(n, host, (char *)d + off, count, kind);
    *out = n;
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *out, cudaGraph_t g,
                                           const cudaGraphNode_t *deps, size_t nd,
                                           const void *sym, const void *src, size_t count,
                                           size_t off, int kind)
{
    return symbol_node(out, g, deps, nd, (void *)(uintptr_t)src, sym, count, off, kind, 1,
                       "cudaGraphAddMemcpyNodeToSymbol");
}

cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *out, cudaGraph_t g,
                                             const cudaGraphNode_t *deps, size_t nd,
                                             void *dst, const void *sym, size_t count,
                                             size_t off, int kind)
{
    return symbol_node(out, g, deps, nd, dst, sym, count, off, kind, 0,
                       "cudaGraphAddMemcpyNodeFromSymbol");
}

/* ---- graph memory nodes ---- */

static cudaError_t add_alloc(struct cudart_rt *rt, struct cudart_node *n,
                             struct cudaMemAllocNodeParams *p, const char *fn)
{
    if (!p || !p->bytesize)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "no size");
    if (p->poolProps.handleTypes)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "IPC handle types are not "
                           "allowed for graph memory (CUDA's rule)");
    cudaError_t e = cudaMalloc(&n->mem, p->bytesize);
    if (e != cudaSuccess)
        return e;
    n->mem_bytes = p->bytesize;
    p->dptr = n->mem;
    return cudart_gmem_add(rt, n->mem, p->bytesize, fn);
}

cudaError_t cudart_gmem_add(struct cudart_rt *rt, void *p, size_t n, const char *fn)
{
    if (rt->ngmem == rt->capgmem) {
        size_t nc = rt->capgmem ? rt->capgmem * 2 : 16;
        void **m = realloc(rt->gmem, nc * sizeof *m);
        if (!m)
            return cudart_fail(rt, cudaErrorMemoryAllocation, fn, "out of host memory");
        rt->gmem = m;
        rt->capgmem = nc;
    }
    rt->gmem[rt->ngmem++] = p;
    rt->graph_mem_now += n;
    if (rt->graph_mem_now > rt->graph_mem_high)
        rt->graph_mem_high = rt->graph_mem_now;
    return cudaSuccess;
}

int cudart_gmem_has(const struct cudart_rt *rt, const void *p)
{
    for (size_t i = 0; i < rt->ngmem; i++)
        if (rt->gmem[i] == p)
            return 1;
    return 0;
}

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *out, cudaGraph_t g,
                                     const cudaGraphNode_t *deps, size_t nd,
                                     struct cudaMemAllocNodeParams *p)
{
    static const char fn[] = "cudaGraphAddMemAllocNode";
    GET_RT();
    if (!out)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "null pointer");
    struct cudart_node *n = cudart_node_new(rt, g, NODE_MEM_ALLOC, deps, nd, fn, &e);
    if (!n)
        return e;
    *out = n;
    if ((e = add_alloc(rt, n, p, fn)) != cudaSuccess)
        n->type = NODE_EMPTY;
    return e;
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *out, cudaGraph_t g,
                                    const cudaGraphNode_t *deps, size_t nd, void *dptr)
{
    static const char fn[] = "cudaGraphAddMemFreeNode";
    GET_RT();
    if (!out || !dptr)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "null pointer");
    struct cudart_node *n = cudart_node_new(rt, g, NODE_MEM_FREE, deps, nd, fn, &e);
    if (!n)
        return e;
    n->mem = dptr;
    *out = n;
    return cudaSuccess;
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t n, struct cudaMemAllocNodeParams *p)
{
    GET_RT();
    struct cudart_node *x = typed(rt, n, NODE_MEM_ALLOC, "cudaGraphMemAllocNodeGetParams",
                                  &e);
    if (!x || !p)
        return x ? cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphMemAllocNodeGetParams",
                               "null pointer") : e;
    memset(p, 0, sizeof *p);
    p->poolProps.allocType = 1;         /* cudaMemAllocationTypePinned */
    p->poolProps.location.type = 1;     /* cudaMemLocationTypeDevice, device 0 */
    p->bytesize = x->mem_bytes;
    p->dptr = x->mem;
    return cudaSuccess;
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t n, void *dptr)
{
    GET_RT();
    struct cudart_node *x = typed(rt, n, NODE_MEM_FREE, "cudaGraphMemFreeNodeGetParams", &e);
    if (!x || !dptr)
        return x ? cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphMemFreeNodeGetParams",
                               "null pointer") : e;
    memcpy(dptr, &x->mem, sizeof x->mem);
    return cudaSuccess;
}

cudaError_t cudaDeviceGraphMemTrim(int dev)
{
    GET_RT();
    return dev ? cudart_fail(rt, cudaErrorInvalidDevice, "cudaDeviceGraphMemTrim",
                             "device %d", dev) : cudaSuccess;
}

enum { GMEM_USED_NOW = 0, GMEM_USED_HIGH = 1, GMEM_RES_NOW = 2, GMEM_RES_HIGH = 3 };

cudaError_t cudaDeviceGetGraphMemAttribute(int dev, int attr, void *v)
{
    static const char fn[] = "cudaDeviceGetGraphMemAttribute";
    GET_RT();
    if (dev)
        return cudart_fail(rt, cudaErrorInvalidDevice, fn, "device %d", dev);
    if (!v || attr < GMEM_USED_NOW || attr > GMEM_RES_HIGH)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "attribute %d", attr);
    uint64_t x = attr == GMEM_USED_NOW || attr == GMEM_RES_NOW ? rt->graph_mem_now
                                                               : rt->graph_mem_high;
    memcpy(v, &x, sizeof x);
    return cudaSuccess;
}

cudaError_t cudaDeviceSetGraphMemAttribute(int dev, int attr, void *v)
{
    static const char fn[] = "cudaDeviceSetGraphMemAttribute";
    GET_RT();
    uint64_t x = 0;
    if (v)
        memcpy(&x, v, sizeof x);
    if (dev || !v || x || (attr != GMEM_USED_HIGH && attr != GMEM_RES_HIGH))
        return cudart_fail(rt, dev ? cudaErrorInvalidDevice : cudaErrorInvalidValue, fn,
                           "only the high-water marks can be reset, to 0");
    rt->graph_mem_high = rt->graph_mem_now;
    return cudaSuccess;
}

/* ---- conditional nodes ---- */

cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *h, cudaGraph_t g,
                                             unsigned dflt, unsigned flags)
{
    static const char fn[] = "cudaGraphConditionalHandleCreate";
    GET_RT();
    if (!h || !graph_ok(g))
        return cudart_fail(rt, cudaErrorInvalidValue, fn, h ? "%p is not a graph"
                           : "null pointer", (void *)g);
    if (flags & ~COND_ASSIGN_DEFAULT)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "flags 0x%x", flags);
    struct cudart_cond *m = realloc(g->conds, (g->nconds + 1) * sizeof *m);
    if (!m)
        return cudart_fail(rt, cudaErrorMemoryAllocation, fn, "out of host memory");
    g->conds = m;
    void *word = NULL;
    if ((e = cudaMalloc(&word, sizeof(unsigned))) != cudaSuccess)
        return e;
    /* the word starts at the default: without cudaGraphCondAssignDefault a
     * kernel's value then persists from one launch to the next */
    if ((e = cudart_copy(rt, word, &dflt, sizeof dflt, cudaMemcpyHostToDevice, fn)))
        return e;
    m[g->nconds++] = (struct cudart_cond){ (uint64_t)(uintptr_t)word, dflt, flags };
    *h = (uint64_t)(uintptr_t)word;
    return cudaSuccess;
}

/* Whether h is a handle of g. */
static bool cond_of(const struct cudart_graph *g, uint64_t h)
{
    for (size_t i = 0; i < g->nconds; i++)
        if (g->conds[i].addr == h)
            return true;
    return false;
}

static cudaError_t add_cond(struct cudart_rt *rt, struct cudart_node *n,
                            struct cudaConditionalNodeParams *p, const char *fn)
{
    if (!cond_of(n->g, p->handle))
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "the handle was not created for "
                           "this graph (cudaGraphConditionalHandleCreate)");
    if (p->type < COND_IF || p->type > COND_SWITCH || !p->size ||
        (p->type == COND_IF && p->size > 2) || (p->type == COND_WHILE && p->size != 1))
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "conditional type %d with %u "
                           "bodies (if: 1 or 2, while: 1, switch: 1 or more)", p->type,
                           p->size);
    n->bodies = calloc(p->size, sizeof *n->bodies);
    if (!n->bodies)
        return cudart_fail(rt, cudaErrorMemoryAllocation, fn, "out of host memory");
    for (; n->nbodies < p->size; n->nbodies++) {
        cudaError_t e = cudaGraphCreate(&n->bodies[n->nbodies], 0);
        if (e != cudaSuccess)
            return e;
    }
    n->cond = p->handle;
    n->cond_type = p->type;
    p->phGraph_out = n->bodies;
    return cudaSuccess;
}

cudaError_t cudart_cond_run(struct cudart_rt *rt, struct cudart_node *n)
{
    static const char fn[] = "cudaGraphLaunch (conditional node)";
    for (;;) {
        unsigned v = 0;
        cudaError_t e = cudart_copy(rt, &v, (void *)(uintptr_t)n->cond, sizeof v,
                                    cudaMemcpyDeviceToHost, fn);
        if (e != cudaSuccess)
            return e;
        unsigned b = n->cond_type == COND_SWITCH ? v : v ? 0 : 1;
        if (b >= n->nbodies)
            return cudaSuccess;         /* if without else, switch out of range */
        if ((e = cudart_graph_run(rt, n->bodies[b], NULL)) != cudaSuccess)
            return e;
        if (n->cond_type != COND_WHILE)
            return cudaSuccess;
    }
}

cudaError_t cudart_cond_defaults(struct cudart_rt *rt, struct cudart_graph *g)
{
    for (size_t i = 0; i < g->nconds; i++) {
        const struct cudart_cond *c = &g->conds[i];
        if (!(c->flags & COND_ASSIGN_DEFAULT))
            continue;
        cudaError_t e = cudart_copy(rt, (void *)(uintptr_t)c->addr, &c->dflt, sizeof c->dflt,
                                    cudaMemcpyHostToDevice, "cudaGraphLaunch");
        if (e != cudaSuccess)
            return e;
    }
    for (size_t i = 0; i < g->n; i++) {
        const struct cudart_node *n = g->nodes[i];
        cudaError_t e = n->child ? cudart_cond_defaults(rt, n->child) : cudaSuccess;
        for (unsigned b = 0; e == cudaSuccess && b < n->nbodies; b++)
            e = cudart_cond_defaults(rt, n->bodies[b]);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

cudaError_t cudart_cond_check(struct cudart_rt *rt, const struct cudart_graph *g, int body,
                              const char *fn)
{
    for (size_t i = 0; i < g->n; i++) {
        const struct cudart_node *n = g->nodes[i];
        int t = n->type;
        if (body && t != NODE_KERNEL && t != NODE_EMPTY && t != NODE_GRAPH &&
            t != NODE_MEMSET && t != NODE_MEMCPY && t != NODE_COND)
            return cudart_fail(rt, cudaErrorInvalidValue, fn, "node %zu of a conditional "
                               "body is of type %d; CUDA allows kernel, empty, child graph, "
                               "memset, copy and conditional nodes there", i, t);
        cudaError_t e = n->child ? cudart_cond_check(rt, n->child, body, fn) : cudaSuccess;
        for (unsigned b = 0; e == cudaSuccess && b < n->nbodies; b++)
            e = cudart_cond_check(rt, n->bodies[b], 1, fn);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

/* ---- cudaGraphAddNode and the generic parameter calls ---- */

cudaError_t cudaGraphAddNode(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps,
                             const struct cudaGraphEdgeData *edges, size_t nd,
                             struct cudaGraphNodeParams *p)
{
    static const char fn[] = "cudaGraphAddNode";
    GET_RT();
    if (!out || !p)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "null pointer");
    for (size_t i = 0; edges && i < nd; i++)
        if (edges[i].from_port || edges[i].to_port || edges[i].type)
            return cudart_fail(rt, cudaErrorNotSupported, fn, "edge %zu: only full "
                               "dependencies (edge data 0) are modelled", i);
    switch (p->type) {
    case NODE_KERNEL: case NODE_MEMCPY: case NODE_MEMSET: case NODE_HOST: case NODE_GRAPH:
    case NODE_EMPTY: case NODE_WAIT: case NODE_RECORD: case NODE_MEM_ALLOC:
    case NODE_MEM_FREE: case NODE_COND:
        break;
    default:
        return cudart_fail(rt, cudaErrorNotSupported, fn, "node type %d (external "
                           "semaphores) is not modelled (%s:%d)", p->type, __FILE__,
                           __LINE__);
    }
    struct cudart_node *n = cudart_node_new(rt, g, p->type, deps, nd, fn, &e);
    if (!n)
        return e;
    *out = n;
    switch (p->type) {
    case NODE_KERNEL: e = cudart_node_set_kernel(rt, n, &p->u.kernel, fn); break;
    case NODE_MEMCPY:
        e = p->u.memcpy.flags ? cudart_fail(rt, cudaErrorInvalidValue, fn, "copy flags "
                                            "must be 0")
                              : set_copy3d(rt, n, &p->u.memcpy.copyParams, fn);
        break;
    case NODE_MEMSET: e = set_memset(rt, n, &p->u.memset, fn); break;
    case NODE_HOST: e = set_host(rt, n, &p->u.host, fn); break;
    case NODE_GRAPH:
        e = graph_ok(p->u.graph.graph)
            ? cudart_graph_clone(rt, p->u.graph.graph, &n->child)
            : cudart_fail(rt, cudaErrorInvalidValue, fn, "%p is not a graph",
                          (void *)p->u.graph.graph);
        break;
    case NODE_WAIT: n->ev = p->u.eventWait.event; e = cudart_event_check(rt, n->ev, fn); break;
    case NODE_RECORD:
        n->ev = p->u.eventRecord.event;
        e = cudart_event_check(rt, n->ev, fn);
        break;
    case NODE_MEM_ALLOC: e = add_alloc(rt, n, &p->u.alloc, fn); break;
    case NODE_MEM_FREE:
        n->mem = p->u.free.dptr;
        e = n->mem ? cudaSuccess : cudart_fail(rt, cudaErrorInvalidValue, fn, "null pointer");
        break;
    case NODE_COND: e = add_cond(rt, n, &p->u.conditional, fn); break;
    default: break;
    }
    if (e != cudaSuccess)
        n->type = NODE_EMPTY;   /* keep the graph consistent; report the error */
    return e;
}

/* Sets node n (of a graph or of an instantiated one) from p: kernel, copy,
 * memset and host nodes, as cudaGraph*NodeSetParams. */
static cudaError_t node_set(struct cudart_rt *rt, struct cudart_node *n,
                            struct cudaGraphNodeParams *p, const char *fn)
{
    if (!p || p->type != n->type)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "the parameters' type differs "
                           "from the node's");
    switch (n->type) {
    case NODE_KERNEL: return cudart_node_set_kernel(rt, n, &p->u.kernel, fn);
    case NODE_MEMCPY: return set_copy3d(rt, n, &p->u.memcpy.copyParams, fn);
    case NODE_MEMSET: return set_memset(rt, n, &p->u.memset, fn);
    case NODE_HOST: return set_host(rt, n, &p->u.host, fn);
    default:
        return cudart_fail(rt, cudaErrorNotSupported, fn, "changing a node of type %d is "
                           "not modelled (%s:%d): kernel, copy, memset and host nodes",
                           n->type, __FILE__, __LINE__);
    }
}

cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t n, struct cudaGraphNodeParams *p)
{
    GET_RT();
    if (!node_ok(n))
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphNodeSetParams", "bad node");
    return node_set(rt, n, p, "cudaGraphNodeSetParams");
}

cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n,
                                       struct cudaGraphNodeParams *p)
{
    static const char fn[] = "cudaGraphExecNodeSetParams";
    GET_RT();
    if (!node_ok(n))
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "bad node");
    struct cudart_node *m = exec_node(rt, x, n, n->type, fn, &e);
    return m ? node_set(rt, m, p, fn) : e;
}
