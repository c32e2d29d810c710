// Cooperative launches: cudaLaunchCooperativeKernel and grid.sync() of
// cooperative groups, which needs every CTA of the grid resident at once
// (functional mode runs them side by side, timing mode dispatches them
// all). Phases separated by grid.sync() read what other CTAs wrote in the
// phase before; a grid larger than the GPU holds is refused with
// cudaErrorCooperativeLaunchTooLarge; cudaLaunchKernelEx with the
// cooperative attribute does the same.
#define TEST_NAME "coop"
#include <cooperative_groups.h>
#include "ck.h"

namespace cg = cooperative_groups;

__global__ void phases(int *a, int *b, int n)
{
    cg::grid_group g = cg::this_grid();
    int stride = (int)g.size();
    for (int i = (int)g.thread_rank(); i < n; i += stride)
        a[i] = i;
    g.sync();                   // every CTA's writes are visible
    for (int i = (int)g.thread_rank(); i < n; i += stride)
        b[i] = a[(i + 1) % n] + a[(i + n - 1) % n];
    g.sync();
    for (int i = (int)g.thread_rank(); i < n; i += stride)
        a[i] = b[(i + 7) % n];
}

int main()
{
    int dev = 0, coop = 0, per_sm = 0, sms = 0;
    CK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    EXPECT(coop == 1, "cooperative launch attribute %d", coop);
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    const int threads = 128, n = 10000;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phases, threads, 0));
    int blocks = per_sm * sms;
    int *a, *b;
    CK(cudaMalloc(&a, n * sizeof(int)));
    CK(cudaMalloc(&b, n * sizeof(int)));
    int nn = n;
    void *args[] = { &a, &b, &nn };
    CK(cudaLaunchCooperativeKernel((void *)phases, blocks, threads, args, 0, 0));
    int h[n];
    CK(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int j = (i + 7) % n, want = (j + 1) % n + (j + n - 1) % n;
        EXPECT(h[i] == want, "a[%d] = %d, want %d (%d CTAs)", i, h[i], want, blocks);
    }
    // the same through cudaLaunchKernelEx with the cooperative attribute
    CK(cudaMemset(a, 0, n * sizeof(int)));
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeCooperative;
    at[0].val.cooperative = 1;
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(threads);
    cfg.attrs = at;
    cfg.numAttrs = 1;
    CK(cudaLaunchKernelEx(&cfg, phases, a, b, nn));
    CK(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[5] == 11 + 13, "cudaLaunchKernelEx: a[5] = %d", h[5]);
    // one CTA more than fits at once is refused, and not sticky
    EXPECT(cudaLaunchCooperativeKernel((void *)phases, blocks + 1, threads, args, 0, 0) ==
           cudaErrorCooperativeLaunchTooLarge, "an oversized cooperative grid ran");
    EXPECT(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge, "its error");
    CK(cudaDeviceSynchronize());
    return ck_done();
}
