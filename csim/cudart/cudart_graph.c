/* Streams, events and CUDA graphs. Every stream runs in order on one
 * queue (operations complete before their call returns); events record
 * the simulated time of the launches before them. A graph is nodes
 * (kernel, copy, memset, host function, child graph, event record and
 * wait, empty) with dependencies, built by cudaGraphAdd*Node calls or by
 * stream capture (cudaStreamBeginCapture/EndCapture: operations issued to
 * a capturing stream become nodes depending on the stream's previous
 * ones; cudaEventRecord/cudaStreamWaitEvent fork and join other streams
 * into the capture). cudaGraphLaunch runs an instantiated graph's nodes
 * one at a time in dependency order, lowest creation index first among
 * the ready ones, so runs repeat. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/cudart_graph.h"

CUDART_API cudaError_t cudaStreamCreate(cudaStream_t *s);
CUDART_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
CUDART_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags,
                                                    int prio);
CUDART_API cudaError_t cudaStreamDestroy(cudaStream_t s);
CUDART_API cudaError_t cudaStreamSynchronize(cudaStream_t s);
CUDART_API cudaError_t cudaStreamQuery(cudaStream_t s);
CUDART_API cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags);
CUDART_API cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *user);
CUDART_API cudaError_t cudaEventCreate(cudaEvent_t *e);
CUDART_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
CUDART_API cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
CUDART_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s,
                                                unsigned flags);
CUDART_API cudaError_t cudaEventSynchronize(cudaEvent_t e);
CUDART_API cudaError_t cudaEventQuery(cudaEvent_t e);
CUDART_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
CUDART_API cudaError_t cudaEventDestroy(cudaEvent_t e);
CUDART_API cudaError_t cudaStreamBeginCapture(cudaStream_t s, int mode);
CUDART_API cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *g);
CUDART_API cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t s, cudaGraph_t g,
    const cudaGraphNode_t *deps, const struct cudaGraphEdgeData *edges, size_t nd, int mode);
CUDART_API cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t s,
    cudaGraphNode_t *deps, const struct cudaGraphEdgeData *edges, size_t nd, unsigned flags);
CUDART_API cudaError_t cudaStreamIsCapturing(cudaStream_t s, int *status);
CUDART_API cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, int *status,
    unsigned long long *id, cudaGraph_t *g, const cudaGraphNode_t **deps,
    const struct cudaGraphEdgeData **edges, size_t *ndeps);
CUDART_API cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode);
CUDART_API cudaError_t cudaGraphCreate(cudaGraph_t *g, unsigned flags);
CUDART_API cudaError_t cudaGraphDestroy(cudaGraph_t g);
CUDART_API cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *n, cudaGraph_t g,
    const cudaGraphNode_t *deps, size_t nd, const struct cudaKernelNodeParams *p);
CUDART_API cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *n, cudaGraph_t g,
    const cudaGraphNode_t *deps, size_t nd, const struct cudaMemcpy3DParms *p);
CUDART_API cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *n, cudaGraph_t g,
    const cudaGraphNode_t *deps, size_t nd, void *dst, const void *src, size_t count,
    int kind);
CUDART_API cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *n, cudaGraph_t g,
    const cudaGraphNode_t *deps, size_t nd, const struct cudaMemsetParams *p);
CUDART_API cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *n, cudaGraph_t g,
    const cudaGraphNode_t *deps, size_t nd, const struct cudaHostNodeParams *p);
CUDART_API cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *n, cudaGraph_t g,
    const cudaGraphNode_t *deps, size_t nd);
CUDART_API cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *n, cudaGraph_t g,
    const cudaGraphNode_t *deps, size_t nd, cudaGraph_t child);
CUDART_API cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *n, cudaGraph_t g,
    const cudaGraphNode_t *deps, size_t nd, cudaEvent_t e);
CUDART_API cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *n, cudaGraph_t g,
    const cudaGraphNode_t *deps, size_t nd, cudaEvent_t e);
CUDART_API cudaError_t cudaGraphAddDependencies(cudaGraph_t g, const cudaGraphNode_t *from,
    const cudaGraphNode_t *to, const struct cudaGraphEdgeData *edges, size_t n);
CUDART_API cudaError_t cudaGraphGetNodes(cudaGraph_t g, cudaGraphNode_t *nodes, size_t *n);
CUDART_API cudaError_t cudaGraphGetRootNodes(cudaGraph_t g, cudaGraphNode_t *nodes,
                                             size_t *n);
CUDART_API cudaError_t cudaGraphNodeGetType(cudaGraphNode_t n, int *type);
CUDART_API cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t n, cudaGraphNode_t *deps,
    struct cudaGraphEdgeData *edges, size_t *nd);
CUDART_API cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t n,
                                                    struct cudaKernelNodeParams *p);
CUDART_API cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t n,
                                                    const struct cudaKernelNodeParams *p);
CUDART_API cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n,
    const struct cudaKernelNodeParams *p);
CUDART_API cudaError_t cudaGraphClone(cudaGraph_t *clone, cudaGraph_t g);
CUDART_API cudaError_t cudaGraphInstantiate(cudaGraphExec_t *x, cudaGraph_t g,
                                            unsigned long long flags);
CUDART_API cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *x, cudaGraph_t g,
                                                     unsigned long long flags);
CUDART_API cudaError_t cudaGraphExecUpdate(cudaGraphExec_t x, cudaGraph_t g,
    struct cudaGraphExecUpdateResultInfo *info);
CUDART_API cudaError_t cudaGraphUpload(cudaGraphExec_t x, cudaStream_t s);
CUDART_API cudaError_t cudaGraphLaunch(cudaGraphExec_t x, cudaStream_t s);
CUDART_API cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t x, cudaStream_t s);
CUDART_API cudaError_t cudaGraphExecDestroy(cudaGraphExec_t x);

/* ---- dependency lists ---- */

int cudart_tail_add(struct cudart_tail *t, struct cudart_node *n)
{
    for (size_t i = 0; i < t->len; i++)
        if (t->n[i] == n)
            return 0;
    if (t->len == t->cap) {
        size_t nc = t->cap ? t->cap * 2 : 4;
        struct cudart_node **m = realloc(t->n, nc * sizeof *m);
        if (!m)
            return -1;
        t->n = m;
        t->cap = nc;
    }
    t->n[t->len++] = n;
    return 0;
}

static int tail_copy(struct cudart_tail *t, const struct cudart_tail *from)
{
    t->len = 0;
    for (size_t i = 0; i < from->len; i++)
        if (cudart_tail_add(t, from->n[i]))
            return -1;
    return 0;
}

/* ---- streams ---- */

struct cudart_stream *cudart_stream_of(struct cudart_rt *rt, cudaStream_t s, const char *fn)
{
    if ((uintptr_t)s <= 2)              /* 0, cudaStreamLegacy, PerThread */
        return &rt->legacy;
    for (struct cudart_stream *x = rt->streams; x; x = x->next)
        if (x == s && x->magic == STREAM_MAGIC)
            return x;
    cudart_fail(rt, cudaErrorInvalidResourceHandle, fn, "%p is not a stream created "
                "by cudaStreamCreate", (void *)s);
    return NULL;
}

int cudart_capturing(struct cudart_rt *rt, cudaStream_t s)
{
    if ((uintptr_t)s <= 2)
        return rt->legacy.cap != NULL;
    return s->magic == STREAM_MAGIC && s->cap != NULL;
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int prio)
{
    (void)flags; (void)prio;
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!s)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaStreamCreate", "null pointer");
    *s = calloc(1, sizeof **s);
    if (!*s)
        return cudart_fail(rt, cudaErrorMemoryAllocation, "cudaStreamCreate",
                           "out of host memory");
    (*s)->magic = STREAM_MAGIC;
    (*s)->next = rt->streams;
    rt->streams = *s;
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *s)
{
    return cudaStreamCreateWithPriority(s, 0, 0);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags)
{
    return cudaStreamCreateWithPriority(s, flags, 0);
}

cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if ((uintptr_t)s <= 2 || !cudart_stream_of(rt, s, "cudaStreamDestroy"))
        return cudart_fail(rt, cudaErrorInvalidResourceHandle, "cudaStreamDestroy",
                           "%p is not a stream created by cudaStreamCreate", (void *)s);
    for (struct cudart_stream **p = &rt->streams; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    s->magic = 0;
    free(s->tail.n);
    free(s);
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!cudart_stream_of(rt, s, "cudaStreamSynchronize"))
        return cudaErrorInvalidResourceHandle;
    return rt->sticky;          /* everything issued has completed */
}

cudaError_t cudaStreamQuery(cudaStream_t s)
{
    return cudaStreamSynchronize(s);
}

/* ---- capture ---- */

/* A node of type for an operation issued to capturing stream s: depends
 * on the stream's tail, and becomes it. */
static struct cudart_node *capture_node(struct cudart_rt *rt, cudaStream_t s, int type,
                                        const char *fn, cudaError_t *e)
{
    struct cudart_stream *st = cudart_stream_of(rt, s, fn);
    if (!st) {
        *e = cudaErrorInvalidResourceHandle;
        return NULL;
    }
    struct cudart_node *n = cudart_node_new(rt, st->cap, type,
                                            (const cudaGraphNode_t *)st->tail.n,
                                            st->tail.len, fn, e);
    if (!n)
        return NULL;
    st->tail.len = 0;
    if (cudart_tail_add(&st->tail, n)) {
        *e = cudart_fail(rt, cudaErrorMemoryAllocation, fn, "out of host memory");
        return NULL;
    }
    return n;
}

cudaError_t cudart_capture_kernel(struct cudart_rt *rt, cudaStream_t s, const void *fn,
                                  dim3 grid, dim3 block, void **args, size_t shared)
{
    cudaError_t e = cudaSuccess;
    char *blob = NULL;
    void **argv = NULL;
    unsigned na = 0;
    if ((e = cudart_copy_args(rt, fn, args, &blob, &argv, &na, "kernel launch (captured)")))
        return e;
    struct cudart_node *n = capture_node(rt, s, NODE_KERNEL, "kernel launch (captured)", &e);
    if (!n) {
        free(blob);
        free(argv);
        return e;
    }
    n->fn = fn;
    n->grid = grid;
    n->block = block;
    n->shared = (unsigned)shared;
    n->blob = blob;
    n->argv = argv;
    n->nargs = na;
    return cudaSuccess;
}

cudaError_t cudart_capture_copy(struct cudart_rt *rt, cudaStream_t s, void *dst,
                                const void *src, size_t count, int kind,
                                const struct cudaMemcpy3DParms *p3)
{
    cudaError_t e = cudaSuccess;
    struct cudart_node *n = capture_node(rt, s, NODE_MEMCPY, "copy (captured)", &e);
    if (!n)
        return e;
    n->one_d = p3 == NULL;
    n->dst = dst;
    n->src = src;
    n->count = count;
    n->kind = kind;
    if (p3)
        n->p3 = *p3;
    return cudaSuccess;
}

cudaError_t cudart_capture_memset(struct cudart_rt *rt, cudaStream_t s, void *dst,
                                  size_t pitch, int v, size_t width, size_t height)
{
    cudaError_t e = cudaSuccess;
    struct cudart_node *n = capture_node(rt, s, NODE_MEMSET, "memset (captured)", &e);
    if (!n)
        return e;
    n->ms = (struct cudaMemsetParams){ dst, pitch, (unsigned)(unsigned char)v, 1, width,
                                       height };
    return cudaSuccess;
}

enum { cudaStreamCaptureModeGlobal = 0, cudaStreamCaptureModeThreadLocal = 1,
       cudaStreamCaptureModeRelaxed = 2 };

/* Begins a capture on s into a new graph (into NULL) or into graph into
 * after its nodes deps[0..nd) (origin 2: cudaStreamBeginCaptureToGraph). */
static cudaError_t begin_capture(cudaStream_t s, int mode, struct cudart_graph *into,
                                 const cudaGraphNode_t *deps, size_t nd, const char *fn)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    struct cudart_stream *st = cudart_stream_of(rt, s, fn);
    if (!st)
        return cudaErrorInvalidResourceHandle;
    if ((uintptr_t)s == 0 || (uintptr_t)s == 1)
        return cudart_fail(rt, cudaErrorStreamCaptureUnsupported, fn, "the legacy default "
                           "stream cannot be captured (CUDA's rule; capture a created "
                           "stream or cudaStreamPerThread)");
    if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "capture mode %d", mode);
    if (st->cap)
        return cudart_fail(rt, cudaErrorIllegalState, fn, "the stream is capturing already");
    if (into && !graph_ok(into))
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "%p is not a graph", (void *)into);
    for (size_t i = 0; into && i < nd; i++)
        if (!deps || !node_ok(deps[i]) || deps[i]->g != into)
            return cudart_fail(rt, cudaErrorInvalidValue, fn, "dependency %zu is not a "
                               "node of the graph", i);
    if (!into && (e = cudaGraphCreate(&st->cap, 0)) != cudaSuccess)
        return e;
    if (into)
        st->cap = into;
    st->tail.len = 0;
    for (size_t i = 0; into && i < nd; i++)
        if (cudart_tail_add(&st->tail, deps[i])) {
            st->cap = NULL;
            st->tail.len = 0;
            return cudart_fail(rt, cudaErrorMemoryAllocation, fn, "out of host memory");
        }
    st->origin = into ? 2 : 1;
    return cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t s, int mode)
{
    return begin_capture(s, mode, NULL, NULL, 0, "cudaStreamBeginCapture");
}

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t s, cudaGraph_t g,
                                          const cudaGraphNode_t *deps,
                                          const struct cudaGraphEdgeData *edges, size_t nd,
                                          int mode)
{
    static const char fn[] = "cudaStreamBeginCaptureToGraph";
    if (!g) {
        cudaError_t e;
        CUDART_ENTER(rt, cudart_get(&e));
        return rt ? cudart_fail(rt, cudaErrorInvalidValue, fn, "no graph") : e;
    }
    for (size_t i = 0; edges && i < nd; i++)
        if (edges[i].from_port || edges[i].to_port || edges[i].type) {
            cudaError_t e;
            CUDART_ENTER(rt, cudart_get(&e));
            return rt ? cudart_fail(rt, cudaErrorNotSupported, fn, "edge %zu: only full "
                                    "dependencies (edge data 0) are modelled", i) : e;
        }
    return begin_capture(s, mode, g, deps, nd, fn);
}

enum { cudaStreamAddCaptureDependencies = 0, cudaStreamSetCaptureDependencies = 1 };

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t s, cudaGraphNode_t *deps,
                                                const struct cudaGraphEdgeData *edges,
                                                size_t nd, unsigned flags)
{
    static const char fn[] = "cudaStreamUpdateCaptureDependencies";
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    struct cudart_stream *st = cudart_stream_of(rt, s, fn);
    if (!st)
        return cudaErrorInvalidResourceHandle;
    if (!st->cap)
        return cudart_fail(rt, cudaErrorIllegalState, fn, "the stream is not capturing");
    if (flags != cudaStreamAddCaptureDependencies && flags != cudaStreamSetCaptureDependencies)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "flags %u", flags);
    for (size_t i = 0; i < nd; i++) {
        if (!deps || !node_ok(deps[i]) || deps[i]->g != st->cap)
            return cudart_fail(rt, cudaErrorInvalidValue, fn, "node %zu is not a node of "
                               "the graph being captured", i);
        if (edges && (edges[i].from_port || edges[i].to_port || edges[i].type))
            return cudart_fail(rt, cudaErrorNotSupported, fn, "edge %zu: only full "
                               "dependencies (edge data 0) are modelled", i);
    }
    if (flags == cudaStreamSetCaptureDependencies)
        st->tail.len = 0;
    for (size_t i = 0; i < nd; i++)
        if (cudart_tail_add(&st->tail, deps[i]))
            return cudart_fail(rt, cudaErrorMemoryAllocation, fn, "out of host memory");
    return cudaSuccess;
}

/* Ends the capture into g on every stream taking part in it. */
static void capture_release(struct cudart_rt *rt, struct cudart_graph *g)
{
    for (struct cudart_stream *x = rt->streams; x; x = x->next)
        if (x->cap == g) {
            x->cap = NULL;
            x->origin = 0;
            x->tail.len = 0;
        }
    if (rt->legacy.cap == g) {
        rt->legacy.cap = NULL;
        rt->legacy.origin = 0;
        rt->legacy.tail.len = 0;
    }
}

cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *g)
{
    static const char fn[] = "cudaStreamEndCapture";
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    struct cudart_stream *st = cudart_stream_of(rt, s, fn);
    if (!st)
        return cudaErrorInvalidResourceHandle;
    if (!g && st->origin != 2)  /* a capture into an existing graph may pass NULL */
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "null pointer");
    if (!st->cap || !st->origin)
        return cudart_fail(rt, cudaErrorIllegalState, fn, "the stream %s", st->cap
                           ? "did not begin this capture (end it where it began)"
                           : "is not capturing");
    if (g)
        *g = st->cap;
    capture_release(rt, st->cap);
    return cudaSuccess;
}

enum { cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1 };

cudaError_t cudaStreamIsCapturing(cudaStream_t s, int *status)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    struct cudart_stream *st = cudart_stream_of(rt, s, "cudaStreamIsCapturing");
    if (!st)
        return cudaErrorInvalidResourceHandle;
    if (!status)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaStreamIsCapturing",
                           "null pointer");
    *status = st->cap ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
    return cudaSuccess;
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, int *status, unsigned long long *id,
                                     cudaGraph_t *g, const cudaGraphNode_t **deps,
                                     const struct cudaGraphEdgeData **edges, size_t *ndeps)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    struct cudart_stream *st = cudart_stream_of(rt, s, "cudaStreamGetCaptureInfo");
    if (!st)
        return cudaErrorInvalidResourceHandle;
    if (!status)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaStreamGetCaptureInfo",
                           "null pointer");
    *status = st->cap ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
    if (id)
        *id = (unsigned long long)(uintptr_t)st->cap;
    if (g)
        *g = st->cap;
    if (deps)
        *deps = st->cap ? (const cudaGraphNode_t *)st->tail.n : NULL;
    if (edges)
        *edges = NULL;          /* all edges are full dependencies */
    if (ndeps)
        *ndeps = st->cap ? st->tail.len : 0;
    return cudaSuccess;
}

cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!mode)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaThreadExchangeStreamCaptureMode",
                           "null pointer");
    int old = rt->capture_mode;
    rt->capture_mode = *mode;
    *mode = old;
    return cudaSuccess;
}

cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *user)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!fn)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaLaunchHostFunc", "null function");
    if (!cudart_stream_of(rt, s, "cudaLaunchHostFunc"))
        return cudaErrorInvalidResourceHandle;
    if (cudart_capturing(rt, s)) {
        struct cudart_node *n = capture_node(rt, s, NODE_HOST, "cudaLaunchHostFunc", &e);
        if (!n)
            return e;
        n->host = (struct cudaHostNodeParams){ fn, user };
        return cudaSuccess;
    }
    if (rt->sticky != cudaSuccess)
        return rt->sticky;
    fn(user);                   /* the work before it has completed */
    return cudaSuccess;
}

/* ---- events: simulated time of the launches before them ---- */

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *ev, unsigned flags)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!ev)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaEventCreate", "null pointer");
    *ev = calloc(1, sizeof **ev);
    if (!*ev)
        return cudart_fail(rt, cudaErrorMemoryAllocation, "cudaEventCreate",
                           "out of host memory");
    (*ev)->magic = EVENT_MAGIC;
    (*ev)->flags = flags;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *ev)
{
    return cudaEventCreateWithFlags(ev, 0);
}

cudaError_t cudart_event_check(struct cudart_rt *rt, cudaEvent_t ev, const char *fn)
{
    if (!ev || ev->magic != EVENT_MAGIC)
        return cudart_fail(rt, cudaErrorInvalidResourceHandle, fn,
                           "%p is not an event created by cudaEventCreate", (void *)ev);
    return cudaSuccess;
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t ev, cudaStream_t s, unsigned flags)
{
    (void)flags;
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if ((e = cudart_event_check(rt, ev, "cudaEventRecord")) != cudaSuccess)
        return e;
    struct cudart_stream *st = cudart_stream_of(rt, s, "cudaEventRecord");
    if (!st)
        return cudaErrorInvalidResourceHandle;
    if (st->cap) {              /* a fork/join point of the capture */
        ev->cap = st->cap;
        if (tail_copy(&ev->tail, &st->tail))
            return cudart_fail(rt, cudaErrorMemoryAllocation, "cudaEventRecord",
                               "out of host memory");
        return cudaSuccess;
    }
    ev->cap = NULL;
    ev->recorded = 1;
    ev->ms = rt->now_ms;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t s)
{
    return cudaEventRecordWithFlags(ev, s, 0);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t ev, unsigned flags)
{
    (void)flags;
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    struct cudart_stream *st = cudart_stream_of(rt, s, "cudaStreamWaitEvent");
    if (!st)
        return cudaErrorInvalidResourceHandle;
    if ((e = cudart_event_check(rt, ev, "cudaStreamWaitEvent")) != cudaSuccess)
        return e;
    if (ev->cap) {              /* s joins the capture after the event's nodes */
        if (st->cap && st->cap != ev->cap)
            return cudart_fail(rt, cudaErrorStreamCaptureUnmatched, "cudaStreamWaitEvent",
                               "the stream captures into another graph");
        if (!st->cap) {
            st->cap = ev->cap;
            st->tail.len = 0;
        }
        for (size_t i = 0; i < ev->tail.len; i++)
            if (cudart_tail_add(&st->tail, ev->tail.n[i]))
                return cudart_fail(rt, cudaErrorMemoryAllocation, "cudaStreamWaitEvent",
                                   "out of host memory");
    }
    return cudaSuccess;         /* in order: the event has happened */
}

cudaError_t cudaEventSynchronize(cudaEvent_t ev)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if ((e = cudart_event_check(rt, ev, "cudaEventSynchronize")) != cudaSuccess)
        return e;
    return rt->sticky;
}

cudaError_t cudaEventQuery(cudaEvent_t ev)
{
    return cudaEventSynchronize(ev);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if ((e = cudart_event_check(rt, a, "cudaEventElapsedTime")) != cudaSuccess ||
        (e = cudart_event_check(rt, b, "cudaEventElapsedTime")) != cudaSuccess)
        return e;
    if (!ms)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaEventElapsedTime",
                           "null pointer");
    if ((a->flags | b->flags) & cudaEventDisableTiming)
        return cudart_fail(rt, cudaErrorInvalidResourceHandle, "cudaEventElapsedTime",
                           "an event was created with cudaEventDisableTiming");
    if (!a->recorded || !b->recorded)
        return cudart_fail(rt, cudaErrorInvalidResourceHandle, "cudaEventElapsedTime",
                           "an event was never recorded");
    if (rt->cfg.mode != LS_MODE_TIMING && !rt->functional_time_noted && !rt->quiet) {
        rt->functional_time_noted = 1;
        fprintf(stderr, "lockstep cudart: cudaEventElapsedTime: functional mode has "
                "no clock; events measure an estimate (warp instructions at one per "
                "scheduler per cycle on the SMs a grid fills; LOCKSTEP_MODE=timing "
                "measures simulated time)\n");
    }
    *ms = (float)(b->ms - a->ms);
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t ev)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if ((e = cudart_event_check(rt, ev, "cudaEventDestroy")) != cudaSuccess)
        return e;
    ev->magic = 0;
    free(ev->tail.n);
    free(ev);
    return cudaSuccess;
}

/* ---- graphs ---- */

cudaError_t cudaGraphCreate(cudaGraph_t *g, unsigned flags)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!g || flags)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphCreate",
                           g ? "flags must be 0" : "null pointer");
    *g = calloc(1, sizeof **g);
    if (!*g)
        return cudart_fail(rt, cudaErrorMemoryAllocation, "cudaGraphCreate",
                           "out of host memory");
    (*g)->magic = GRAPH_MAGIC;
    return cudaSuccess;
}

void cudart_graph_free(struct cudart_graph *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n; i++) {
        struct cudart_node *n = g->nodes[i];
        free(n->deps.n);
        free(n->blob);
        free(n->argv);
        cudart_graph_free(n->child);
        for (unsigned b = 0; b < n->nbodies; b++)
            cudart_graph_free(n->bodies[b]);
        free(n->bodies);
        n->magic = 0;
        free(n);
    }
    free(g->nodes);
    free(g->conds);
    g->magic = 0;
    free(g);
}

cudaError_t cudaGraphDestroy(cudaGraph_t g)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!graph_ok(g))
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphDestroy", "%p is not a "
                           "graph", (void *)g);
    capture_release(rt, g);
    cudart_graph_free(g);
    return cudaSuccess;
}

/* A new node of g depending on deps[0..nd) (nodes of g). */
struct cudart_node *cudart_node_new(struct cudart_rt *rt, struct cudart_graph *g, int type,
                                    const cudaGraphNode_t *deps, size_t nd, const char *fn,
                                    cudaError_t *e)
{
    if (!graph_ok(g)) {
        *e = cudart_fail(rt, cudaErrorInvalidValue, fn, "%p is not a graph", (void *)g);
        return NULL;
    }
    for (size_t i = 0; i < nd; i++)
        if (!deps || !node_ok(deps[i]) || deps[i]->g != g) {
            *e = cudart_fail(rt, cudaErrorInvalidValue, fn, "dependency %zu is not a node "
                             "of this graph", i);
            return NULL;
        }
    struct cudart_node *n = calloc(1, sizeof *n);
    if (n && g->n == g->cap) {
        size_t nc = g->cap ? g->cap * 2 : 16;
        struct cudart_node **m = realloc(g->nodes, nc * sizeof *m);
        if (m) {
            g->nodes = m;
            g->cap = nc;
        }
    }
    bool ok = n && g->n < g->cap;
    for (size_t i = 0; ok && i < nd; i++)
        ok = cudart_tail_add(&n->deps, deps[i]) == 0;
    if (!ok) {
        if (n)
            free(n->deps.n);
        free(n);
        *e = cudart_fail(rt, cudaErrorMemoryAllocation, fn, "out of host memory");
        return NULL;
    }
    n->magic = NODE_MAGIC;
    n->type = type;
    n->g = g;
    n->index = g->n;
    g->nodes[g->n++] = n;
    *e = cudaSuccess;
    return n;
}

/* Sets kernel node n's launch from p (copying the arguments). */
cudaError_t cudart_node_set_kernel(struct cudart_rt *rt, struct cudart_node *n,
                              const struct cudaKernelNodeParams *p, const char *fn)
{
    if (!p || !p->func)
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "no kernel");
    if (p->extra)
        return cudart_fail(rt, cudaErrorNotSupported, fn, "the 'extra' argument format is "
                           "not modelled (use kernelParams)");
    char *blob = NULL;
    void **argv = NULL;
    unsigned na = 0;
    cudaError_t e = cudart_copy_args(rt, p->func, p->kernelParams, &blob, &argv, &na, fn);
    if (e != cudaSuccess)
        return e;
    free(n->blob);
    free(n->argv);
    n->fn = p->func;
    n->grid = p->gridDim;
    n->block = p->blockDim;
    n->shared = p->sharedMemBytes;
    n->blob = blob;
    n->argv = argv;
    n->nargs = na;
    return cudaSuccess;
}

#define ADD_NODE(type, fn) \
    cudaError_t e; \
    CUDART_ENTER(rt, cudart_get(&e)); \
    if (!rt) \
        return e; \
    if (!out) \
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "null pointer"); \
    struct cudart_node *n = cudart_node_new(rt, g, type, deps, nd, fn, &e); \
    if (!n) \
        return e; \
    *out = n

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *out, cudaGraph_t g,
                                   const cudaGraphNode_t *deps, size_t nd,
                                   const struct cudaKernelNodeParams *p)
{
    ADD_NODE(NODE_KERNEL, "cudaGraphAddKernelNode");
    if ((e = cudart_node_set_kernel(rt, n, p, "cudaGraphAddKernelNode")) != cudaSuccess)
        n->type = NODE_EMPTY;   /* keep the graph consistent; report the error */
    return e;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *out, cudaGraph_t g,
                                   const cudaGraphNode_t *deps, size_t nd,
                                   const struct cudaMemcpy3DParms *p)
{
    ADD_NODE(NODE_MEMCPY, "cudaGraphAddMemcpyNode");
    if (!p) {
        n->type = NODE_EMPTY;
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphAddMemcpyNode",
                           "null parameters");
    }
    n->p3 = *p;
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *out, cudaGraph_t g,
                                     const cudaGraphNode_t *deps, size_t nd, void *dst,
                                     const void *src, size_t count, int kind)
{
    ADD_NODE(NODE_MEMCPY, "cudaGraphAddMemcpyNode1D");
    n->one_d = 1;
    n->dst = dst;
    n->src = src;
    n->count = count;
    n->kind = kind;
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *out, cudaGraph_t g,
                                   const cudaGraphNode_t *deps, size_t nd,
                                   const struct cudaMemsetParams *p)
{
    ADD_NODE(NODE_MEMSET, "cudaGraphAddMemsetNode");
    if (!p || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)) {
        n->type = NODE_EMPTY;
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphAddMemsetNode",
                           "element size must be 1, 2 or 4");
    }
    n->ms = *p;
    return cudaSuccess;
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *out, cudaGraph_t g,
                                 const cudaGraphNode_t *deps, size_t nd,
                                 const struct cudaHostNodeParams *p)
{
    ADD_NODE(NODE_HOST, "cudaGraphAddHostNode");
    if (!p || !p->fn) {
        n->type = NODE_EMPTY;
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphAddHostNode",
                           "no host function");
    }
    n->host = *p;
    return cudaSuccess;
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *out, cudaGraph_t g,
                                  const cudaGraphNode_t *deps, size_t nd)
{
    ADD_NODE(NODE_EMPTY, "cudaGraphAddEmptyNode");
    return cudaSuccess;
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *out, cudaGraph_t g,
                                       const cudaGraphNode_t *deps, size_t nd,
                                       cudaGraph_t child)
{
    ADD_NODE(NODE_GRAPH, "cudaGraphAddChildGraphNode");
    if (!graph_ok(child) || (e = cudart_graph_clone(rt, child, &n->child)) != cudaSuccess) {
        n->type = NODE_EMPTY;
        return graph_ok(child) ? e : cudart_fail(rt, cudaErrorInvalidValue,
                                                 "cudaGraphAddChildGraphNode",
                                                 "%p is not a graph", (void *)child);
    }
    return cudaSuccess;
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *out, cudaGraph_t g,
                                        const cudaGraphNode_t *deps, size_t nd, cudaEvent_t ev)
{
    ADD_NODE(NODE_RECORD, "cudaGraphAddEventRecordNode");
    n->ev = ev;
    return cudart_event_check(rt, ev, "cudaGraphAddEventRecordNode");
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *out, cudaGraph_t g,
                                      const cudaGraphNode_t *deps, size_t nd, cudaEvent_t ev)
{
    ADD_NODE(NODE_WAIT, "cudaGraphAddEventWaitNode");
    n->ev = ev;
    return cudart_event_check(rt, ev, "cudaGraphAddEventWaitNode");
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t g, const cudaGraphNode_t *from,
                                     const cudaGraphNode_t *to,
                                     const struct cudaGraphEdgeData *edges, size_t n)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    for (size_t i = 0; i < n; i++) {
        if (!graph_ok(g) || !from || !to || !node_ok(from[i]) || !node_ok(to[i]) ||
            from[i]->g != g || to[i]->g != g || from[i] == to[i])
            return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphAddDependencies",
                               "edge %zu is not between two nodes of the graph", i);
        if (edges && (edges[i].from_port || edges[i].to_port || edges[i].type))
            return cudart_fail(rt, cudaErrorNotSupported, "cudaGraphAddDependencies",
                               "edge %zu: only full dependencies (edge data 0) are "
                               "modelled", i);
        if (cudart_tail_add(&to[i]->deps, from[i]))
            return cudart_fail(rt, cudaErrorMemoryAllocation, "cudaGraphAddDependencies",
                               "out of host memory");
    }
    return cudaSuccess;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t g, cudaGraphNode_t *nodes, size_t *n)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!graph_ok(g) || !n)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphGetNodes", "bad graph");
    if (nodes)
        for (size_t i = 0; i < g->n && i < *n; i++)
            nodes[i] = g->nodes[i];
    *n = g->n;
    return cudaSuccess;
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t g, cudaGraphNode_t *nodes, size_t *n)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!graph_ok(g) || !n)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphGetRootNodes", "bad graph");
    size_t k = 0;
    for (size_t i = 0; i < g->n; i++)
        if (!g->nodes[i]->deps.len) {
            if (nodes && k < *n)
                nodes[k] = g->nodes[i];
            k++;
        }
    *n = k;
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t n, int *type)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!node_ok(n) || !type)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphNodeGetType", "bad node");
    *type = n->type;
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t n, cudaGraphNode_t *deps,
                                         struct cudaGraphEdgeData *edges, size_t *nd)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!node_ok(n) || !nd)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphNodeGetDependencies",
                           "bad node");
    for (size_t i = 0; i < n->deps.len && i < *nd; i++) {
        if (deps)
            deps[i] = n->deps.n[i];
        if (edges)
            memset(&edges[i], 0, sizeof edges[i]);
    }
    *nd = n->deps.len;
    return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t n, struct cudaKernelNodeParams *p)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!node_ok(n) || n->type != NODE_KERNEL || !p)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphKernelNodeGetParams",
                           "not a kernel node");
    *p = (struct cudaKernelNodeParams){ (void *)(uintptr_t)n->fn, n->grid, n->block,
                                        n->shared, n->argv, NULL };
    return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t n, const struct cudaKernelNodeParams *p)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!node_ok(n) || n->type != NODE_KERNEL)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphKernelNodeSetParams",
                           "not a kernel node");
    return cudart_node_set_kernel(rt, n, p, "cudaGraphKernelNodeSetParams");
}

/* A copy of g (nodes, parameters, argument copies, dependencies). */
cudaError_t cudart_graph_clone(struct cudart_rt *rt, struct cudart_graph *g,
                               struct cudart_graph **out)
{
    struct cudart_graph *c;
    cudaError_t e = cudaGraphCreate(&c, 0);
    if (e != cudaSuccess)
        return e;
    for (size_t i = 0; i < g->n; i++) {
        const struct cudart_node *o = g->nodes[i];
        struct cudart_node *n = cudart_node_new(rt, c, o->type, NULL, 0, "cudaGraphClone", &e);
        if (!n) {
            cudart_graph_free(c);
            return e;
        }
        struct cudart_tail keep = n->deps;
        *n = *o;
        n->g = c;
        n->index = i;
        n->deps = keep;
        n->blob = NULL;
        n->argv = NULL;
        n->child = NULL;
        n->bodies = NULL;
        n->nbodies = 0;
        bool ok = true;
        if (o->type == NODE_KERNEL) {
            void *args[64];
            for (unsigned k = 0; k < o->nargs && k < 64; k++)
                args[k] = o->argv[k];
            ok = o->nargs <= 64 &&
                 cudart_copy_args(rt, o->fn, args, &n->blob, &n->argv, &n->nargs,
                                  "cudaGraphClone") == cudaSuccess;
        }
        if (ok && o->type == NODE_GRAPH)
            ok = cudart_graph_clone(rt, o->child, &n->child) == cudaSuccess;
        if (ok && o->nbodies) {
            ok = (n->bodies = calloc(o->nbodies, sizeof *n->bodies)) != NULL;
            for (unsigned b = 0; ok && b < o->nbodies; b++, n->nbodies++)
                ok = cudart_graph_clone(rt, o->bodies[b], &n->bodies[b]) == cudaSuccess;
        }
        if (!ok) {
            cudart_graph_free(c);
            return cudart_fail(rt, cudaErrorMemoryAllocation, "cudaGraphClone",
                               "could not copy node %zu", i);
        }
    }
    if (g->nconds && !(c->conds = malloc(g->nconds * sizeof *c->conds))) {
        cudart_graph_free(c);
        return cudart_fail(rt, cudaErrorMemoryAllocation, "cudaGraphClone",
                           "out of host memory");
    }
    if (g->nconds)
        memcpy(c->conds, g->conds, g->nconds * sizeof *c->conds);
    c->nconds = g->nconds;
    /* edges once every node exists (a node may depend on a later one) */
    for (size_t i = 0; i < g->n; i++)
        for (size_t k = 0; k < g->nodes[i]->deps.len; k++)
            if (cudart_tail_add(&c->nodes[i]->deps, c->nodes[g->nodes[i]->deps.n[k]->index])) {
                cudart_graph_free(c);
                return cudart_fail(rt, cudaErrorMemoryAllocation, "cudaGraphClone",
                                   "out of host memory");
            }
    *out = c;
    return cudaSuccess;
}

cudaError_t cudaGraphClone(cudaGraph_t *clone, cudaGraph_t g)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!clone || !graph_ok(g))
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphClone", "bad graph");
    return cudart_graph_clone(rt, g, clone);
}

/* Dependency order of g into order[g->n]: Kahn's algorithm taking the
 * lowest-index ready node each step. Returns false on a cycle. */
static bool topo(const struct cudart_graph *g, size_t *order)
{
    size_t n = g->n, k = 0;
    unsigned char *done = calloc(n ? n : 1, 1);
    if (!done)
        return false;
    while (k < n) {
        size_t pick = n;
        for (size_t i = 0; i < n && pick == n; i++) {
            if (done[i])
                continue;
            bool ready = true;
            const struct cudart_node *x = g->nodes[i];
            for (size_t d = 0; d < x->deps.len && ready; d++)
                ready = done[x->deps.n[d]->index];
            if (ready)
                pick = i;
        }
        if (pick == n)
            break;
        done[pick] = 1;
        order[k++] = pick;
    }
    free(done);
    return k == n;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *x, cudaGraph_t g,
                                          unsigned long long flags)
{
    static const char fn[] = "cudaGraphInstantiate";
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    (void)flags;                /* upload, auto-free, priority: nothing to do */
    if (!x || !graph_ok(g))
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "bad graph");
    if ((e = cudart_cond_check(rt, g, 0, fn)) != cudaSuccess)
        return e;
    struct cudart_gexec *ex = calloc(1, sizeof *ex);
    if (!ex)
        return cudart_fail(rt, cudaErrorMemoryAllocation, fn, "out of host memory");
    if ((e = cudart_graph_clone(rt, g, &ex->g)) != cudaSuccess) {
        free(ex);
        return e;
    }
    ex->order = malloc((g->n ? g->n : 1) * sizeof *ex->order);
    if (!ex->order || !topo(ex->g, ex->order)) {
        bool cyc = ex->order != NULL;
        cudart_graph_free(ex->g);
        free(ex->order);
        free(ex);
        return cudart_fail(rt, cyc ? cudaErrorInvalidValue : cudaErrorMemoryAllocation, fn,
                           cyc ? "the graph has a cycle" : "out of host memory");
    }
    ex->magic = GEXEC_MAGIC;
    *x = ex;
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *x, cudaGraph_t g, unsigned long long flags)
{
    return cudaGraphInstantiateWithFlags(x, g, flags);
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t n,
                                             const struct cudaKernelNodeParams *p)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!gexec_ok(x) || !node_ok(n) || n->index >= x->g->n ||
        x->g->nodes[n->index]->type != NODE_KERNEL)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphExecKernelNodeSetParams",
                           "not a kernel node of the instantiated graph");
    return cudart_node_set_kernel(rt, x->g->nodes[n->index], p,
                                  "cudaGraphExecKernelNodeSetParams");
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t x, cudaGraph_t g,
                                struct cudaGraphExecUpdateResultInfo *info)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (info)
        memset(info, 0, sizeof *info);
    if (!gexec_ok(x) || !graph_ok(g))
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphExecUpdate", "bad graph");
    /* same topology and node types: the new parameters replace the old */
    bool same = g->n == x->g->n;
    for (size_t i = 0; same && i < g->n; i++) {
        const struct cudart_node *a = g->nodes[i], *b = x->g->nodes[i];
        same = a->type == b->type && a->deps.len == b->deps.len;
        for (size_t d = 0; same && d < a->deps.len; d++)
            same = a->deps.n[d]->index == b->deps.n[d]->index;
    }
    if (!same) {
        if (info)
            info->result = 2;   /* cudaGraphExecUpdateErrorTopologyChanged */
        return cudaErrorGraphExecUpdateFailure;
    }
    struct cudart_graph *c;
    if ((e = cudart_graph_clone(rt, g, &c)) != cudaSuccess)
        return e;
    cudart_graph_free(x->g);
    x->g = c;
    return cudaSuccess;
}

cudaError_t cudaGraphUpload(cudaGraphExec_t x, cudaStream_t s)
{
    (void)s;
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    return gexec_ok(x) ? cudaSuccess
                       : cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphUpload",
                                     "not an instantiated graph");
}

/* Runs one node now. */
static cudaError_t run_node(struct cudart_rt *rt, struct cudart_node *n);

cudaError_t cudart_graph_run(struct cudart_rt *rt, struct cudart_graph *g,
                             const size_t *order)
{
    size_t *own = NULL;
    if (!order) {               /* a child graph: its order now */
        own = malloc((g->n ? g->n : 1) * sizeof *own);
        if (!own || !topo(g, own)) {
            free(own);
            return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphLaunch",
                               "a child graph has a cycle");
        }
        order = own;
    }
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; i < g->n && e == cudaSuccess; i++)
        e = run_node(rt, g->nodes[order[i]]);
    free(own);
    return e;
}

static cudaError_t run_node(struct cudart_rt *rt, struct cudart_node *n)
{
    static const char fn[] = "cudaGraphLaunch";
    if (rt->sticky != cudaSuccess)
        return rt->sticky;
    switch (n->type) {
    case NODE_KERNEL:
        return cudart_launch_now(n->fn, n->grid, n->block, n->argv, n->shared,
                                 "cudaGraphLaunch (kernel node)");
    case NODE_MEMCPY:
        return n->one_d ? cudart_copy(rt, n->dst, n->src, n->count, n->kind, fn)
                        : cudart_memcpy3d(rt, &n->p3, fn);
    case NODE_MEMSET: {
        const struct cudaMemsetParams *m = &n->ms;
        size_t rowb = m->width * m->elementSize;
        if (m->elementSize == 1) {
            for (size_t y = 0; y < (m->height ? m->height : 1); y++) {
                cudaError_t e = cudart_memset(rt, (char *)m->dst + y * m->pitch,
                                              (int)m->value, rowb, fn);
                if (e != cudaSuccess)
                    return e;
            }
            return cudaSuccess;
        }
        unsigned char *row = malloc(rowb ? rowb : 1);
        if (!row)
            return cudart_fail(rt, cudaErrorMemoryAllocation, fn, "out of host memory");
        for (size_t i = 0; i < m->width; i++)
            memcpy(row + i * m->elementSize, &m->value, m->elementSize);
        cudaError_t e = cudaSuccess;
        for (size_t y = 0; y < (m->height ? m->height : 1) && e == cudaSuccess; y++)
            e = cudart_copy(rt, (char *)m->dst + y * m->pitch, row, rowb,
                            cudaMemcpyHostToDevice, fn);
        free(row);
        return e;
    }
    case NODE_HOST:
        n->host.fn(n->host.userData);
        return cudaSuccess;
    case NODE_GRAPH:
        return cudart_graph_run(rt, n->child, NULL);
    case NODE_COND:
        return cudart_cond_run(rt, n);
    case NODE_RECORD:
        if (n->ev && n->ev->magic == EVENT_MAGIC) {
            n->ev->recorded = 1;
            n->ev->ms = rt->now_ms;
        }
        return cudaSuccess;
    default:                    /* empty, event wait: everything is in order;
                                   memory nodes: allocated when added */
        return cudaSuccess;
    }
}

static cudaError_t graph_launch(cudaGraphExec_t x, cudaStream_t s, const char *fn)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!gexec_ok(x))
        return cudart_fail(rt, cudaErrorInvalidValue, fn, "%p is not an instantiated "
                           "graph", (void *)x);
    if (!cudart_stream_of(rt, s, fn))
        return cudaErrorInvalidResourceHandle;
    if (cudart_capturing(rt, s)) {      /* a graph launched into a capture */
        struct cudart_node *n = capture_node(rt, s, NODE_GRAPH, fn, &e);
        if (!n)
            return e;
        return cudart_graph_clone(rt, x->g, &n->child);
    }
    if (rt->sticky != cudaSuccess)
        return rt->sticky;
    if ((e = cudart_cond_defaults(rt, x->g)) != cudaSuccess)
        return e;
    return cudart_graph_run(rt, x->g, x->order);
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t x, cudaStream_t s)
{
    return graph_launch(x, s, "cudaGraphLaunch");
}

cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t x, cudaStream_t s)
{
    return graph_launch(x, s, "cudaGraphLaunch");
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t x)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!gexec_ok(x))
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaGraphExecDestroy",
                           "not an instantiated graph");
    cudart_graph_free(x->g);
    free(x->order);
    x->magic = 0;
    free(x);
    return cudaSuccess;
}
