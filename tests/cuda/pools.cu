// Stream-ordered allocation and memory pools, as NVIDIA's
// streamOrderedAllocation sample uses them: the device reports pools,
// cudaMallocAsync/cudaFreeAsync go through the default pool (its
// threshold kept, its used bytes counted), a pool the program creates
// serves cudaMallocFromPoolAsync and can become the device's current pool,
// the default pool cannot be destroyed, and a captured allocation serves
// every launch of its graph.
#define TEST_NAME "pools"
#include <cstdint>
#include "ck.h"

__global__ void fill(int *x, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = v + i;
}

int main()
{
    int v = 0;
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryPoolsSupported, 0));
    EXPECT(v == 1, "cudaDevAttrMemoryPoolsSupported %d", v);
    cudaMemPool_t dflt, cur;
    CK(cudaDeviceGetDefaultMemPool(&dflt, 0));
    uint64_t thr = UINT64_MAX, got = 0;
    CK(cudaMemPoolSetAttribute(dflt, cudaMemPoolAttrReleaseThreshold, &thr));
    CK(cudaMemPoolGetAttribute(dflt, cudaMemPoolAttrReleaseThreshold, &got));
    EXPECT(got == UINT64_MAX, "release threshold %llu", (unsigned long long)got);
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    const int n = 1000;
    int *a, *b, h[n];
    CK(cudaMallocAsync(&a, n * sizeof(int), s));
    CK(cudaMallocAsync(&b, 2 * n * sizeof(int), s));
    CK(cudaMemPoolGetAttribute(dflt, cudaMemPoolAttrUsedMemCurrent, &got));
    EXPECT(got == 3 * n * sizeof(int), "used %llu bytes", (unsigned long long)got);
    fill<<<(n + 255) / 256, 256, 0, s>>>(a, n, 5);
    CK(cudaMemcpyAsync(h, a, sizeof h, cudaMemcpyDeviceToHost, s));
    CK(cudaFreeAsync(a, s));
    CK(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++)
        EXPECT(h[i] == 5 + i, "h[%d] = %d", i, h[i]);
    CK(cudaMemPoolGetAttribute(dflt, cudaMemPoolAttrUsedMemCurrent, &got));
    EXPECT(got == 2 * n * sizeof(int), "used after a free: %llu", (unsigned long long)got);
    CK(cudaMemPoolGetAttribute(dflt, cudaMemPoolAttrUsedMemHigh, &got));
    EXPECT(got == 3 * n * sizeof(int), "high-water mark %llu", (unsigned long long)got);

    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t mine;
    CK(cudaMemPoolCreate(&mine, &props));
    int *c;
    CK(cudaMallocFromPoolAsync(&c, n * sizeof(int), mine, s));
    CK(cudaDeviceSetMemPool(0, mine));
    CK(cudaDeviceGetMemPool(&cur, 0));
    EXPECT(cur == mine, "the current pool is not the one set");
    int *d;
    CK(cudaMallocAsync(&d, n * sizeof(int), s));   // from mine now
    CK(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &got));
    EXPECT(got == 2 * n * sizeof(int), "my pool's used bytes %llu", (unsigned long long)got);
    fill<<<(n + 255) / 256, 256, 0, s>>>(d, n, -3);
    CK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    EXPECT(h[10] == 7, "from my pool: %d", h[10]);
    CK(cudaFreeAsync(c, s));
    CK(cudaFreeAsync(d, s));
    CK(cudaFreeAsync(b, s));
    CK(cudaDeviceSetMemPool(0, dflt));
    CK(cudaMemPoolDestroy(mine));

    // captured into a graph: the allocation is the graph's at every launch
    int *t, *hp;
    CK(cudaMallocHost(&hp, n * sizeof(int)));
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CK(cudaMallocAsync(&t, n * sizeof(int), s));
    fill<<<(n + 255) / 256, 256, 0, s>>>(t, n, 40);
    CK(cudaMemcpyAsync(hp, t, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    CK(cudaFreeAsync(t, s));
    CK(cudaStreamEndCapture(s, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
    for (int k = 0; k < 2; k++) {
        hp[3] = -1;
        CK(cudaGraphLaunch(ge, s));
        CK(cudaStreamSynchronize(s));
        EXPECT(hp[3] == 43, "graph launch %d: %d", k, hp[3]);
    }
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
    CK(cudaFreeHost(hp));
    EXPECT(cudaMemPoolDestroy(dflt) == cudaErrorInvalidValue,
           "the default pool was destroyed");
    cudaGetLastError();
    CK(cudaStreamDestroy(s));
    return ck_done();
}
