// CUDA graphs: stream capture (one stream, and a fork/join over two
// streams through events), explicit cudaGraphAdd*Node graphs with
// dependencies added out of creation order, a child graph, host nodes
// recording the order they ran in, cudaGraphExecKernelNodeSetParams,
// cudaGraphExecUpdate and repeated launches. Nothing captured runs before
// its graph is launched; nodes run in dependency order.
#define TEST_NAME "graphs"
#include <cstring>
#include <cstdint>
#include <vector>
#include "ck.h"

__global__ void axpb(int *x, int a, int b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = a * x[i] + b;
}

__global__ void add(int *dst, const int *a, const int *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = a[i] + b[i];
}

static std::vector<int> order;
static void CUDART_CB note(void *p) { order.push_back((int)(intptr_t)p); }

int main()
{
    const int n = 300;
    int h[n], got[n];
    for (int i = 0; i < n; i++)
        h[i] = i;
    int *x, *y, *z;
    CK(cudaMalloc(&x, n * sizeof(int)));
    CK(cudaMalloc(&y, n * sizeof(int)));
    CK(cudaMalloc(&z, n * sizeof(int)));
    CK(cudaMemset(x, 0, n * sizeof(int)));
    cudaStream_t s1, s2;
    CK(cudaStreamCreate(&s1));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));

    // ---- capture on one stream ----
    CK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus cs;
    CK(cudaStreamIsCapturing(s1, &cs));
    EXPECT(cs == cudaStreamCaptureStatusActive, "not capturing");
    CK(cudaMemcpyAsync(x, h, sizeof h, cudaMemcpyHostToDevice, s1));
    axpb<<<3, 128, 0, s1>>>(x, 2, 1, n);            // 2i + 1
    CK(cudaMemcpyAsync(y, x, sizeof h, cudaMemcpyDeviceToDevice, s1));
    CK(cudaMemsetAsync(z, 0, n * sizeof(int), s1));
    CK(cudaLaunchHostFunc(s1, note, (void *)1));
    cudaGraph_t g;
    CK(cudaStreamEndCapture(s1, &g));
    CK(cudaMemcpy(got, x, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got[7] == 0 && order.empty(), "captured work ran during the capture");
    size_t nn = 0;
    CK(cudaGraphGetNodes(g, NULL, &nn));
    EXPECT(nn == 5, "%zu nodes captured, want 5", nn);
    cudaGraphExec_t ge;
    CK(cudaGraphInstantiate(&ge, g, 0));
    cudaEvent_t t0, t1;
    CK(cudaEventCreate(&t0));
    CK(cudaEventCreate(&t1));
    CK(cudaEventRecord(t0, s1));
    for (int r = 0; r < 3; r++)
        CK(cudaGraphLaunch(ge, s1));
    CK(cudaEventRecord(t1, s1));
    CK(cudaStreamSynchronize(s1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, t0, t1));
    EXPECT(ms > 0, "three graph launches took %g ms", ms);
    CK(cudaMemcpy(got, y, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(got[i] == 2 * i + 1, "captured graph: y[%d] = %d", i, got[i]);
    EXPECT(order.size() == 3, "host node ran %zu times", order.size());
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));

    // ---- fork/join over two streams ----
    cudaEvent_t fork, join;
    CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    CK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    CK(cudaMemcpyAsync(x, h, sizeof h, cudaMemcpyHostToDevice, s1));
    CK(cudaEventRecord(fork, s1));
    CK(cudaStreamWaitEvent(s2, fork, 0));
    axpb<<<3, 128, 0, s1>>>(x, 3, 0, n);            // s1: x = 3i
    CK(cudaMemcpyAsync(y, h, sizeof h, cudaMemcpyHostToDevice, s2));
    axpb<<<3, 128, 0, s2>>>(y, 1, 5, n);            // s2: y = i + 5
    CK(cudaEventRecord(join, s2));
    CK(cudaStreamWaitEvent(s1, join, 0));
    add<<<3, 128, 0, s1>>>(z, x, y, n);             // after both: 4i + 5
    CK(cudaStreamEndCapture(s1, &g));
    CK(cudaStreamIsCapturing(s2, &cs));
    EXPECT(cs == cudaStreamCaptureStatusNone, "s2 still capturing after the join");
    cudaGraphNode_t nodes[16];
    nn = 16;
    CK(cudaGraphGetNodes(g, nodes, &nn));
    EXPECT(nn == 5, "fork/join: %zu nodes, want 5", nn);
    size_t nd = 4;
    cudaGraphNode_t deps[4];
    CK(cudaGraphNodeGetDependencies(nodes[nn - 1], deps, NULL, &nd));
    EXPECT(nd == 2, "the joining kernel has %zu dependencies, want 2", nd);
    size_t nroot = 0;
    CK(cudaGraphGetRootNodes(g, NULL, &nroot));
    EXPECT(nroot == 1, "%zu root nodes, want 1 (the fork follows the first copy)", nroot);
    CK(cudaGraphInstantiate(&ge, g, 0));
    CK(cudaGraphLaunch(ge, s1));
    CK(cudaStreamSynchronize(s1));
    CK(cudaMemcpy(got, z, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(got[i] == 4 * i + 5, "fork/join: z[%d] = %d", i, got[i]);
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));

    // ---- an explicit graph, dependencies out of creation order ----
    order.clear();
    CK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t kA, cp, hst, empty, child, ms0;
    int a = 5, b = 7, nv = n;
    void *pa[] = { &x, &a, &b, &nv };
    cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    kp.func = (void *)axpb;
    kp.gridDim = dim3(3);
    kp.blockDim = dim3(128);
    kp.kernelParams = pa;
    CK(cudaGraphAddKernelNode(&kA, g, NULL, 0, &kp));      // created first, runs second
    a = 1000;                                               // the node kept a copy
    CK(cudaGraphAddMemcpyNode1D(&cp, g, NULL, 0, x, h, sizeof h, cudaMemcpyHostToDevice));
    cudaHostNodeParams hp = { note, (void *)2 };
    CK(cudaGraphAddHostNode(&hst, g, &kA, 1, &hp));
    CK(cudaGraphAddEmptyNode(&empty, g, &hst, 1));
    cudaMemsetParams mp;
    memset(&mp, 0, sizeof mp);
    mp.dst = y;
    mp.value = 0x01020304;
    mp.elementSize = 4;
    mp.width = n;
    mp.height = 1;
    CK(cudaGraphAddMemsetNode(&ms0, g, NULL, 0, &mp));
    CK(cudaGraphAddDependencies(g, &cp, &kA, NULL, 1));    // copy before the kernel
    cudaGraph_t sub;                                        // z = x + y, then a note
    CK(cudaGraphCreate(&sub, 0));
    cudaGraphNode_t sk, sh;
    void *pz[] = { &z, &x, &y, &nv };
    kp.func = (void *)add;
    kp.kernelParams = pz;
    CK(cudaGraphAddKernelNode(&sk, sub, NULL, 0, &kp));
    cudaHostNodeParams hp3 = { note, (void *)3 };
    CK(cudaGraphAddHostNode(&sh, sub, &sk, 1, &hp3));
    cudaGraphNode_t cdeps[2] = { empty, ms0 };
    CK(cudaGraphAddChildGraphNode(&child, g, cdeps, 2, sub));
    int type = -1;
    CK(cudaGraphNodeGetType(child, (cudaGraphNodeType *)&type));
    EXPECT(type == cudaGraphNodeTypeGraph, "child node type %d", type);
    CK(cudaGraphInstantiate(&ge, g, 0));
    CK(cudaGraphLaunch(ge, 0));
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got, z, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(got[i] == 5 * i + 7 + 0x01020304, "explicit graph: z[%d] = %d", i, got[i]);
    EXPECT(order.size() == 2 && order[0] == 2 && order[1] == 3, "host nodes ran in order "
           "%d, %d (%zu)", order.size() > 0 ? order[0] : -1,
           order.size() > 1 ? order[1] : -1, order.size());

    // new arguments for the instantiated kernel node, then an update
    int a2 = 2, b2 = 0;
    void *pa2[] = { &x, &a2, &b2, &nv };
    kp.func = (void *)axpb;
    kp.kernelParams = pa2;
    CK(cudaGraphExecKernelNodeSetParams(ge, kA, &kp));
    CK(cudaGraphLaunch(ge, 0));
    CK(cudaMemcpy(got, z, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got[10] == 20 + 0x01020304, "after SetParams: z[10] = %d", got[10]);
    cudaGraphExecUpdateResultInfo info;
    CK(cudaGraphExecUpdate(ge, g, &info));  // back to the graph's own parameters
    CK(cudaGraphLaunch(ge, 0));
    CK(cudaMemcpy(got, z, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got[10] == 57 + 0x01020304, "after cudaGraphExecUpdate: z[10] = %d", got[10]);
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(sub));
    CK(cudaGraphDestroy(g));
    EXPECT(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal) ==
           cudaErrorStreamCaptureUnsupported, "the legacy stream was captured");
    (void)cudaGetLastError();
    CK(cudaStreamDestroy(s1));
    CK(cudaStreamDestroy(s2));
    return ck_done();
}
