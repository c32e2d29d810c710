// __constant__ and __device__ variables: cudaMemcpyToSymbol/FromSymbol
// (with offsets), cudaGetSymbolAddress, cudaGetSymbolSize, a kernel
// reading the constants and accumulating into a device global.
#define TEST_NAME "symbols"
#include "ck.h"

__constant__ int c_coef[8];
__device__ int g_sum;
__device__ float g_table[64];

__global__ void use_symbols(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = c_coef[i % 8] * i;
        atomicAdd(&g_sum, c_coef[i % 8]);
        g_table[i % 64] = (float)c_coef[7];
    }
}

int main()
{
    const int n = 1000;
    int coef[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    CK(cudaMemcpyToSymbol(c_coef, coef, 4 * sizeof(int)));
    CK(cudaMemcpyToSymbol(c_coef, coef + 4, 4 * sizeof(int), 4 * sizeof(int)));
    int zero = 0;
    CK(cudaMemcpyToSymbol(g_sum, &zero, sizeof zero));
    size_t sz = 0;
    CK(cudaGetSymbolSize(&sz, g_table));
    EXPECT(sz == 64 * sizeof(float), "g_table size %zu", sz);
    void *addr = NULL;
    CK(cudaGetSymbolAddress(&addr, g_table));
    CK(cudaMemset(addr, 0, sz));
    int *d_out;
    CK(cudaMalloc(&d_out, n * sizeof(int)));
    use_symbols<<<(n + 127) / 128, 128>>>(d_out, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    int *out = (int *)malloc(n * sizeof(int)), sum = 0, want = 0;
    CK(cudaMemcpy(out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpyFromSymbol(&sum, g_sum, sizeof sum));
    for (int i = 0; i < n; i++) {
        EXPECT(out[i] == coef[i % 8] * i, "out[%d] = %d, want %d", i, out[i], coef[i % 8] * i);
        want += coef[i % 8];
    }
    EXPECT(sum == want, "g_sum = %d, want %d", sum, want);
    float t[2];
    CK(cudaMemcpyFromSymbol(t, g_table, sizeof t, 62 * sizeof(float)));
    EXPECT(t[0] == 8.0f && t[1] == 8.0f, "g_table[62..63] = %g %g", t[0], t[1]);
    EXPECT(cudaMemcpyToSymbol(c_coef, coef, 64) == cudaErrorInvalidValue,
           "an over-long symbol copy was accepted");
    cudaGetLastError();
    CK(cudaFree(d_out));
    free(out);
    return ck_done();
}
