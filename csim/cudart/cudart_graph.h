/* CUDA graphs inside the runtime: nodes, graphs and instantiated graphs,
 * shared by cudart_graph.c (streams, events, capture, the node kinds of
 * CUDA 10-11, launch) and cudart_gnode.c (cudaGraphAddNode, node
 * parameters, memory nodes, conditional nodes). */
#ifndef CUDART_GRAPH_H
#define CUDART_GRAPH_H

#include <stdbool.h>
#include "cudart/cudart_int.h"

#define STREAM_MAGIC 0x5354524du
#define EVENT_MAGIC 0x45564e54u
#define GRAPH_MAGIC 0x47525048u
#define NODE_MAGIC 0x4e4f4445u
#define GEXEC_MAGIC 0x47584543u
#define cudaEventDisableTiming 0x02u

enum {                          /* cudaGraphNodeType values */
    NODE_KERNEL = 0, NODE_MEMCPY = 1, NODE_MEMSET = 2, NODE_HOST = 3,
    NODE_GRAPH = 4, NODE_EMPTY = 5, NODE_WAIT = 6, NODE_RECORD = 7,
    NODE_SEM_SIGNAL = 8, NODE_SEM_WAIT = 9, NODE_MEM_ALLOC = 10, NODE_MEM_FREE = 11,
    NODE_COND = 13
};

enum {                          /* cudaGraphConditionalNodeType values */
    COND_IF = 0, COND_WHILE = 1, COND_SWITCH = 2
};
#define COND_ASSIGN_DEFAULT 1u  /* cudaGraphCondAssignDefault */

struct cudart_node {
    unsigned magic;
    int type;
    struct cudart_graph *g;
    size_t index;                       /* creation order in g          */
    struct cudart_tail deps;
    /* kernel */
    const void *fn;
    dim3 grid, block;
    unsigned shared;
    char *blob;                         /* the arguments' bytes         */
    void **argv;                        /* pointers into blob           */
    unsigned nargs;
    /* memcpy: 1-D (dst, src, count, kind) or 3-D (p3) */
    int one_d;
    void *dst;
    const void *src;
    size_t count;
    int kind;
    struct cudaMemcpy3DParms p3;
    struct cudaMemsetParams ms;         /* memset                      */
    struct cudaHostNodeParams host;     /* host function               */
    struct cudart_graph *child;         /* child graph (owned clone)   */
    cudaEvent_t ev;                     /* event record / wait         */
    /* memory alloc / free: the allocation (made when the node is added) */
    void *mem;
    size_t mem_bytes;
    /* conditional: the handle's device word, the kind, the body graphs */
    uint64_t cond;
    int cond_type;
    unsigned nbodies;
    struct cudart_graph **bodies;       /* owned; cudaGraph_t[nbodies] */
};

/* A conditional handle (cudaGraphConditionalHandleCreate): its value is a
 * 32-bit word of device memory at addr, which cudaGraphSetConditional in a
 * kernel stores to and the conditional node reads. */
struct cudart_cond {
    uint64_t addr;
    unsigned dflt, flags;
};

struct cudart_graph {
    unsigned magic;
    struct cudart_node **nodes;
    size_t n, cap;
    struct cudart_cond *conds;          /* handles created for this graph */
    size_t nconds;
};

struct cudart_gexec {
    unsigned magic;
    struct cudart_graph *g;             /* its own copy of the graph   */
    size_t *order;                      /* node indices, run order     */
};

static inline bool graph_ok(cudaGraph_t g)
{
    return g && g->magic == GRAPH_MAGIC;
}

static inline bool node_ok(cudaGraphNode_t n)
{
    return n && n->magic == NODE_MAGIC;
}

static inline bool gexec_ok(cudaGraphExec_t x)
{
    return x && x->magic == GEXEC_MAGIC;
}

/* Appends n to t unless there; -1 when out of memory. */
int cudart_tail_add(struct cudart_tail *t, struct cudart_node *n);
/* A new node of g depending on deps[0..nd) (nodes of g), or NULL with *e. */
struct cudart_node *cudart_node_new(struct cudart_rt *rt, struct cudart_graph *g, int type,
                                    const cudaGraphNode_t *deps, size_t nd, const char *fn,
                                    cudaError_t *e);
/* Sets kernel node n's launch from p (copying the arguments). */
cudaError_t cudart_node_set_kernel(struct cudart_rt *rt, struct cudart_node *n,
                                   const struct cudaKernelNodeParams *p, const char *fn);
/* Checks that ev is an event (cudaErrorInvalidResourceHandle with a message if not). */
cudaError_t cudart_event_check(struct cudart_rt *rt, cudaEvent_t ev, const char *fn);
/* A copy of g (nodes, parameters, argument copies, bodies, handles). */
cudaError_t cudart_graph_clone(struct cudart_rt *rt, struct cudart_graph *g,
                               struct cudart_graph **out);
/* Frees g, its nodes and the graphs they own. */
void cudart_graph_free(struct cudart_graph *g);
/* Runs g's nodes in dependency order (order, or computed when NULL). */
cudaError_t cudart_graph_run(struct cudart_rt *rt, struct cudart_graph *g,
                             const size_t *order);
/* Runs conditional node n: reads its handle's word, runs the body it selects
 * (if, if/else, switch) or its body while the word is non-zero (while). */
cudaError_t cudart_cond_run(struct cudart_rt *rt, struct cudart_node *n);
/* Stores the default of every handle of g (and of the graphs its nodes own)
 * created with cudaGraphCondAssignDefault: the start of a graph launch. */
cudaError_t cudart_cond_defaults(struct cudart_rt *rt, struct cudart_graph *g);
/* cudaErrorInvalidValue naming the first node of g (or of a body) of a kind
 * CUDA refuses in a conditional body, or cudaSuccess; body: g is one. */
cudaError_t cudart_cond_check(struct cudart_rt *rt, const struct cudart_graph *g, int body,
                              const char *fn);

#endif
