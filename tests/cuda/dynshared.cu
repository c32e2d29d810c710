// Dynamic shared memory (extern __shared__, size from <<<>>>), a block
// reduction with __syncthreads, cudaFuncGetAttributes, cudaFuncSetCacheConfig,
// cudaFuncSetAttribute and the occupancy calculator.
#define TEST_NAME "dynshared"
#include "ck.h"

__global__ void block_sum(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    buf[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = buf[0];
}

__global__ void static_shared(int *out)
{
    __shared__ int tile[1024];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

int main()
{
    const int n = 10000;
    int *hin = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        hin[i] = (i * 37) % 101 - 50;
    for (int bs = 64; bs <= 512; bs *= 2) {
        int nb = (n + bs - 1) / bs;
        int *din, *dout, *hout = (int *)malloc(nb * sizeof(int));
        CK(cudaMalloc(&din, n * sizeof(int)));
        CK(cudaMalloc(&dout, nb * sizeof(int)));
        CK(cudaMemcpy(din, hin, n * sizeof(int), cudaMemcpyHostToDevice));
        block_sum<<<nb, bs, bs * sizeof(int)>>>(din, dout, n);
        CK(cudaGetLastError());
        CK(cudaMemcpy(hout, dout, nb * sizeof(int), cudaMemcpyDeviceToHost));
        for (int b = 0; b < nb; b++) {
            int want = 0;
            for (int i = b * bs; i < (b + 1) * bs && i < n; i++)
                want += hin[i];
            EXPECT(hout[b] == want, "block %d of %d: %d, want %d", b, bs, hout[b], want);
        }
        CK(cudaFree(din));
        CK(cudaFree(dout));
        free(hout);
    }
    cudaFuncAttributes a;
    CK(cudaFuncGetAttributes(&a, static_shared));
    EXPECT(a.sharedSizeBytes == 4096, "static_shared: %zu shared bytes", a.sharedSizeBytes);
    EXPECT(a.numRegs > 0 && a.maxThreadsPerBlock == 1024, "regs %d, max threads %d",
           a.numRegs, a.maxThreadsPerBlock);
    CK(cudaFuncGetAttributes(&a, block_sum));
    EXPECT(a.sharedSizeBytes == 0, "block_sum: %zu static shared bytes", a.sharedSizeBytes);
    CK(cudaFuncSetCacheConfig(block_sum, cudaFuncCachePreferShared));
    CK(cudaFuncSetAttribute(block_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, 32768));
    int occ_small = 0, occ_big = 0, max_blocks = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ_small, block_sum, 64, 256));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ_big, block_sum, 64, 40000));
    CK(cudaDeviceGetAttribute(&max_blocks, cudaDevAttrMaxBlocksPerMultiprocessor, 0));
    EXPECT(occ_small >= 1 && occ_small <= max_blocks, "occupancy %d (max %d)", occ_small, max_blocks);
    EXPECT(occ_big >= 1 && occ_big < occ_small, "40000 shared bytes: occupancy %d vs %d",
           occ_big, occ_small);
    printf("occupancy %d %d\n", occ_small, occ_big);
    int *dst;
    CK(cudaMalloc(&dst, 1024 * sizeof(int)));
    static_shared<<<1, 1024>>>(dst);
    CK(cudaDeviceSynchronize());
    int hst[1024];
    CK(cudaMemcpy(hst, dst, sizeof hst, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 1024; i++)
        EXPECT(hst[i] == (i + 1) % 1024, "tile[%d] = %d", i, hst[i]);
    CK(cudaFree(dst));
    free(hin);
    return ck_done();
}
