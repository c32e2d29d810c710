// CUDA graph nodes of CUDA 12: cudaGraphAddNode for kernel, copy, memset
// and host nodes; their parameters read back, changed in the graph and in
// an instantiated graph; copies to and from a symbol; graph memory nodes;
// conditional nodes (CUDA 12.4+: if, if/else, while, switch) whose
// condition kernels set with cudaGraphSetConditional, a handle with and
// without cudaGraphCondAssignDefault, bodies filled by explicit nodes and
// by cudaStreamBeginCaptureToGraph, a conditional added into a capture
// (cudaStreamUpdateCaptureDependencies); and the refusals: a host node in
// a conditional body, an external-semaphore node.
#define TEST_NAME "graph_nodes"
#include <cstdint>
#include <cstring>
#include <vector>
#include "ck.h"

__device__ int sym[8];

__global__ void scale(int *x, int a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= a;
}

// one step of a countdown: *c -= 1, the condition is *c > 0 afterwards;
// also counts the body's runs in *runs
__global__ void countdown(cudaGraphConditionalHandle h, int *c, int *runs)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        int v = --*c;
        ++*runs;
        cudaGraphSetConditional(h, v > 0);
    }
}

// sets the condition to *v (switch: the body index)
__global__ void setcond(cudaGraphConditionalHandle h, const int *v)
{
    if (threadIdx.x == 0)
        cudaGraphSetConditional(h, (unsigned)*v);
}

__global__ void put(int *p, int v) { *p = v; }

static std::vector<int> ran;
static void CUDART_CB note(void *p) { ran.push_back((int)(intptr_t)p); }

static cudaGraphNode_t add(cudaGraph_t g, cudaGraphNodeParams *p,
                           const cudaGraphNode_t *deps = nullptr, size_t nd = 0)
{
    cudaGraphNode_t n;
    CK(cudaGraphAddNode(&n, g, deps, nullptr, nd, p));
    return n;
}

static cudaGraphNodeParams kernel_params(void *fn, void **args, unsigned blocks)
{
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeKernel;
    p.kernel.func = fn;
    p.kernel.gridDim = dim3(blocks);
    p.kernel.blockDim = dim3(128);
    p.kernel.kernelParams = args;
    return p;
}

static void generic_nodes(void)
{
    const int n = 1000;
    static int h[n], back[n];
    for (int i = 0; i < n; i++)
        h[i] = i;
    int *d;
    CK(cudaMalloc(&d, n * sizeof(int)));
    cudaGraph_t g;
    CK(cudaGraphCreate(&g, 0));
    // memset(d, 0x01 bytes) -> copy h -> d -> scale by 3 -> host -> copy d -> back
    cudaGraphNodeParams ms = {};
    ms.type = cudaGraphNodeTypeMemset;
    ms.memset.dst = d;
    ms.memset.value = 0x01;
    ms.memset.elementSize = 1;
    ms.memset.width = n * sizeof(int);
    ms.memset.height = 1;
    cudaGraphNode_t a = add(g, &ms);
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeMemcpy;
    cp.memcpy.copyParams.srcPtr = make_cudaPitchedPtr(h, sizeof h, n, 1);
    cp.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(d, sizeof h, n, 1);
    cp.memcpy.copyParams.extent = make_cudaExtent(sizeof h, 1, 1);
    cp.memcpy.copyParams.kind = cudaMemcpyHostToDevice;
    cudaGraphNode_t b = add(g, &cp, &a, 1);
    int three = 3, nn = n;
    void *args[] = { &d, &three, &nn };
    cudaGraphNodeParams kp = kernel_params((void *)scale, args, (n + 127) / 128);
    cudaGraphNode_t k = add(g, &kp, &b, 1);
    cudaGraphNodeParams hp = {};
    hp.type = cudaGraphNodeTypeHost;
    hp.host.fn = note;
    hp.host.userData = (void *)(intptr_t)7;
    cudaGraphNode_t ho = add(g, &hp, &k, 1);
    cudaGraphNode_t c;
    CK(cudaGraphAddMemcpyNode1D(&c, g, &ho, 1, back, d, sizeof back, cudaMemcpyDeviceToHost));
    // read the parameters back
    cudaMemsetParams msr;
    CK(cudaGraphMemsetNodeGetParams(a, &msr));
    EXPECT(msr.dst == d && msr.value == 0x01 && msr.width == n * sizeof(int),
           "memset parameters read back wrong");
    cudaMemcpy3DParms p3;
    CK(cudaGraphMemcpyNodeGetParams(c, &p3));
    EXPECT(p3.extent.width == sizeof back && p3.dstPtr.ptr == back && p3.srcPtr.ptr == d &&
           p3.kind == cudaMemcpyDeviceToHost, "1-D copy parameters read back wrong");
    cudaHostNodeParams hr;
    CK(cudaGraphHostNodeGetParams(ho, &hr));
    EXPECT(hr.fn == note && hr.userData == (void *)(intptr_t)7, "host parameters wrong");
    cudaGraphNodeType t;
    CK(cudaGraphNodeGetType(k, &t));
    EXPECT(t == cudaGraphNodeTypeKernel, "kernel node type %d", (int)t);

    cudaGraphExec_t x;
    CK(cudaGraphInstantiate(&x, g, 0));
    CK(cudaGraphLaunch(x, 0));
    CK(cudaStreamSynchronize(0));
    for (int i = 0; i < n; i++)
        EXPECT(back[i] == 3 * i, "generic nodes: back[%d] = %d, want %d", i, back[i], 3 * i);
    EXPECT(ran.size() == 1 && ran[0] == 7, "host node ran %zu times", ran.size());

    // change the instantiated graph: scale by 5, the host node's value,
    // copy only the first half back
    int five = 5;
    void *args5[] = { &d, &five, &nn };
    cudaGraphNodeParams kp5 = kernel_params((void *)scale, args5, (n + 127) / 128);
    CK(cudaGraphExecNodeSetParams(x, k, &kp5));
    cudaHostNodeParams h8 = { note, (void *)(intptr_t)8 };
    CK(cudaGraphExecHostNodeSetParams(x, ho, &h8));
    memset(back, 0, sizeof back);
    CK(cudaGraphExecMemcpyNodeSetParams1D(x, c, back, d, sizeof back / 2,
                                          cudaMemcpyDeviceToHost));
    CK(cudaGraphLaunch(x, 0));
    CK(cudaStreamSynchronize(0));
    for (int i = 0; i < n; i++) {
        int want = i < n / 2 ? 5 * i : 0;
        EXPECT(back[i] == want, "updated exec: back[%d] = %d, want %d", i, back[i], want);
    }
    EXPECT(ran.size() == 2 && ran[1] == 8, "updated host node did not run with 8");

    // change the graph itself: memset to 2-byte 0x0102, no scaling effect
    // checked through the symbol nodes below
    cudaMemsetParams m2 = { d, 0, 0x0102, 2, 4, 1 };
    CK(cudaGraphMemsetNodeSetParams(a, &m2));
    CK(cudaGraphMemsetNodeGetParams(a, &msr));
    EXPECT(msr.elementSize == 2 && msr.value == 0x0102, "memset set params not kept");
    m2.elementSize = 3;
    EXPECT(cudaGraphMemsetNodeSetParams(a, &m2) == cudaErrorInvalidValue,
           "element size 3 accepted");
    (void)cudaGetLastError();
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));

    // copies to and from a symbol, at an offset
    int in[4] = { 11, 12, 13, 14 }, out[8] = { 0 };
    CK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t to, from;
    CK(cudaGraphAddMemcpyNodeToSymbol(&to, g, nullptr, 0, sym, in, sizeof in,
                                      2 * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaGraphAddMemcpyNodeFromSymbol(&from, g, &to, 1, out, sym, sizeof out, 0,
                                        cudaMemcpyDeviceToHost));
    CK(cudaGraphInstantiate(&x, g, 0));
    CK(cudaGraphLaunch(x, 0));
    CK(cudaStreamSynchronize(0));
    EXPECT(out[2] == 11 && out[5] == 14 && out[0] == 0 && out[6] == 0,
           "symbol nodes: %d %d %d %d", out[0], out[2], out[5], out[6]);
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));
    CK(cudaFree(d));
}

static void memory_nodes(void)
{
    const int n = 256;
    cudaGraph_t g;
    CK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap = {};
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.bytesize = n * sizeof(int);
    cudaGraphNode_t al, ms, k, cp, fr;
    CK(cudaGraphAddMemAllocNode(&al, g, nullptr, 0, &ap));
    int *d = (int *)ap.dptr;
    EXPECT(d != nullptr, "no address from the allocation node");
    cudaMemsetParams m = { d, 0, 2, 4, (size_t)n, 1 };
    CK(cudaGraphAddMemsetNode(&ms, g, &al, 1, &m));
    int seven = 7, nn = n;
    void *args[] = { &d, &seven, &nn };
    cudaKernelNodeParams kp = { (void *)scale, dim3(2), dim3(128), 0, args, nullptr };
    CK(cudaGraphAddKernelNode(&k, g, &ms, 1, &kp));
    static int back[n];
    CK(cudaGraphAddMemcpyNode1D(&cp, g, &k, 1, back, d, sizeof back, cudaMemcpyDeviceToHost));
    CK(cudaGraphAddMemFreeNode(&fr, g, &cp, 1, d));
    cudaMemAllocNodeParams ar;
    CK(cudaGraphMemAllocNodeGetParams(al, &ar));
    EXPECT(ar.dptr == d && ar.bytesize == n * sizeof(int), "allocation parameters wrong");
    void *fp = nullptr;
    CK(cudaGraphMemFreeNodeGetParams(fr, &fp));
    EXPECT(fp == d, "free node's pointer wrong");
    unsigned long long used = 0;
    CK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
    EXPECT(used >= n * sizeof(int), "graph memory in use: %llu", used);
    cudaGraphExec_t x;
    CK(cudaGraphInstantiate(&x, g, 0));
    for (int r = 0; r < 2; r++) {
        memset(back, 0, sizeof back);
        CK(cudaGraphLaunch(x, 0));
        CK(cudaStreamSynchronize(0));
        for (int i = 0; i < n; i++)
            EXPECT(back[i] == 14, "memory nodes, launch %d: back[%d] = %d", r, i, back[i]);
    }
    CK(cudaDeviceGraphMemTrim(0));
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));
}

// a graph: [set condition from *v] -> conditional(type, nb bodies); body b
// writes b + 1 to *out (a kernel)
static int run_cond(cudaGraphConditionalNodeType type, unsigned nb, int v)
{
    int *dv, *dout;
    CK(cudaMalloc(&dv, sizeof(int)));
    CK(cudaMalloc(&dout, sizeof(int)));
    CK(cudaMemcpy(dv, &v, sizeof v, cudaMemcpyHostToDevice));
    CK(cudaMemset(dout, 0, sizeof(int)));
    cudaGraph_t g;
    CK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle h;
    CK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    void *sargs[] = { &h, &dv };
    cudaGraphNodeParams sp = kernel_params((void *)setcond, sargs, 1);
    cudaGraphNode_t s = add(g, &sp);
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = h;
    cp.conditional.type = type;
    cp.conditional.size = nb;
    add(g, &cp, &s, 1);
    std::vector<int> vals(nb);
    for (unsigned b = 0; b < nb; b++) {
        vals[b] = (int)b + 1;
        void *pargs[] = { &dout, &vals[b] };
        cudaKernelNodeParams kp = { (void *)put, dim3(1), dim3(1), 0, pargs, nullptr };
        cudaGraphNode_t k;
        CK(cudaGraphAddKernelNode(&k, cp.conditional.phGraph_out[b], nullptr, 0, &kp));
    }
    cudaGraphExec_t x;
    CK(cudaGraphInstantiate(&x, g, 0));
    CK(cudaGraphLaunch(x, 0));
    CK(cudaStreamSynchronize(0));
    int out = -1;
    CK(cudaMemcpy(&out, dout, sizeof out, cudaMemcpyDeviceToHost));
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));
    CK(cudaFree(dv));
    CK(cudaFree(dout));
    return out;
}

static void conditional_nodes(void)
{
    // if: the body runs for a non-zero condition only
    EXPECT(run_cond(cudaGraphCondTypeIf, 1, 1) == 1, "if(1) did not run its body");
    EXPECT(run_cond(cudaGraphCondTypeIf, 1, 0) == 0, "if(0) ran its body");
    // if/else (size 2): body 1 for a zero condition
    EXPECT(run_cond(cudaGraphCondTypeIf, 2, 5) == 1, "if/else(5) did not run body 0");
    EXPECT(run_cond(cudaGraphCondTypeIf, 2, 0) == 2, "if/else(0) did not run body 1");
    // switch: body v, none past the last
    EXPECT(run_cond(cudaGraphCondTypeSwitch, 3, 0) == 1, "switch(0)");
    EXPECT(run_cond(cudaGraphCondTypeSwitch, 3, 2) == 3, "switch(2)");
    EXPECT(run_cond(cudaGraphCondTypeSwitch, 3, 3) == 0, "switch(3) of 3 ran a body");

    // while with cudaGraphCondAssignDefault (1): the body runs until the
    // countdown reaches 0; a counter of 0 still runs it once (the default
    // makes the condition true at the launch's start)
    int *c, *runs;
    CK(cudaMalloc(&c, sizeof(int)));
    CK(cudaMalloc(&runs, sizeof(int)));
    cudaGraph_t g;
    CK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle h;
    CK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    cudaGraphNodeParams wp = {};
    wp.type = cudaGraphNodeTypeConditional;
    wp.conditional.handle = h;
    wp.conditional.type = cudaGraphCondTypeWhile;
    wp.conditional.size = 1;
    add(g, &wp);
    // the body filled by capture
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    CK(cudaStreamBeginCaptureToGraph(s, wp.conditional.phGraph_out[0], nullptr, nullptr, 0,
                                     cudaStreamCaptureModeGlobal));
    countdown<<<1, 32, 0, s>>>(h, c, runs);
    CK(cudaStreamEndCapture(s, nullptr));
    cudaGraphExec_t x;
    CK(cudaGraphInstantiate(&x, g, 0));
    const int starts[] = { 10, 1, 4 };
    for (int st : starts) {
        int zero = 0, left = -1, nr = -1;
        CK(cudaMemcpy(c, &st, sizeof st, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(runs, &zero, sizeof zero, cudaMemcpyHostToDevice));
        CK(cudaGraphLaunch(x, s));
        CK(cudaStreamSynchronize(s));
        CK(cudaMemcpy(&left, c, sizeof left, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&nr, runs, sizeof nr, cudaMemcpyDeviceToHost));
        EXPECT(left == 0 && nr == st, "while from %d: %d left after %d runs", st, left, nr);
    }
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));

    // while without the default flag, added into a capture after a kernel
    // through cudaStreamGetCaptureInfo, cudaGraphAddNode and
    // cudaStreamUpdateCaptureDependencies, then a kernel after it: the
    // handle starts at its default 0, so the first launch skips the body;
    // setcond then sets it before the second launch's loop
    int *v;
    CK(cudaMalloc(&v, sizeof(int)));
    CK(cudaGraphCreate(&g, 0));
    CK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    CK(cudaStreamBeginCaptureToGraph(s, g, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal));
    setcond<<<1, 1, 0, s>>>(h, v);
    cudaStreamCaptureStatus cs;
    cudaGraph_t cg;
    const cudaGraphNode_t *deps;
    size_t nd;
    CK(cudaStreamGetCaptureInfo(s, &cs, nullptr, &cg, &deps, nullptr, &nd));
    EXPECT(cg == g && nd == 1, "capture info: graph %p, %zu dependencies", (void *)cg, nd);
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = h;
    cp.conditional.type = cudaGraphCondTypeWhile;
    cp.conditional.size = 1;
    cudaGraphNode_t cn = add(cg, &cp, deps, nd);
    CK(cudaStreamUpdateCaptureDependencies(s, &cn, nullptr, 1,
                                           cudaStreamSetCaptureDependencies));
    int fortytwo = 42;
    put<<<1, 1, 0, s>>>(runs, fortytwo);
    CK(cudaStreamEndCapture(s, &cg));
    void *bargs[] = { &h, &c, &runs };
    cudaKernelNodeParams kp = { (void *)countdown, dim3(1), dim3(32), 0, bargs, nullptr };
    cudaGraphNode_t bk;
    CK(cudaGraphAddKernelNode(&bk, cp.conditional.phGraph_out[0], nullptr, 0, &kp));
    size_t nn = 0;
    CK(cudaGraphGetNodes(g, nullptr, &nn));
    EXPECT(nn == 3, "captured graph has %zu nodes, want 3", nn);
    CK(cudaGraphInstantiate(&x, g, 0));
    int zero = 0, five = 5, left = -1, nr = -1;
    CK(cudaMemcpy(v, &zero, sizeof zero, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(c, &five, sizeof five, cudaMemcpyHostToDevice));
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaMemcpy(&left, c, sizeof left, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&nr, runs, sizeof nr, cudaMemcpyDeviceToHost));
    EXPECT(left == 5 && nr == 42, "while(0): body ran (%d left) or the last kernel did not "
           "(%d)", left, nr);
    int one = 1;
    CK(cudaMemcpy(v, &one, sizeof one, cudaMemcpyHostToDevice));
    CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaMemcpy(&left, c, sizeof left, cudaMemcpyDeviceToHost));
    EXPECT(left == 0, "while(1) from 5: %d left", left);
    CK(cudaGraphExecDestroy(x));
    CK(cudaGraphDestroy(g));

    // refusals: a host node in a conditional body (CUDA's rule), at
    // instantiation; a handle of another graph; an external-semaphore node
    CK(cudaGraphCreate(&g, 0));
    CK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    cp.conditional.handle = h;
    cp.conditional.type = cudaGraphCondTypeIf;
    add(g, &cp);
    cudaHostNodeParams hp = { note, nullptr };
    cudaGraphNode_t hn;
    CK(cudaGraphAddHostNode(&hn, cp.conditional.phGraph_out[0], nullptr, 0, &hp));
    EXPECT(cudaGraphInstantiate(&x, g, 0) == cudaErrorInvalidValue,
           "a host node in a conditional body was accepted");
    cudaGraph_t other;
    CK(cudaGraphCreate(&other, 0));
    cudaGraphNode_t bad;
    EXPECT(cudaGraphAddNode(&bad, other, nullptr, nullptr, 0, &cp) == cudaErrorInvalidValue,
           "a handle of another graph was accepted");
    cudaGraphNodeParams sem = {};
    sem.type = cudaGraphNodeTypeExtSemaphoreSignal;
    EXPECT(cudaGraphAddNode(&bad, other, nullptr, nullptr, 0, &sem) == cudaErrorNotSupported,
           "an external-semaphore node was accepted");
    (void)cudaGetLastError();
    CK(cudaGraphDestroy(other));
    CK(cudaGraphDestroy(g));
    CK(cudaStreamDestroy(s));
    CK(cudaFree(c));
    CK(cudaFree(runs));
    CK(cudaFree(v));
}

int main()
{
    generic_nodes();
    memory_nodes();
    conditional_nodes();
    return ck_done();
}
