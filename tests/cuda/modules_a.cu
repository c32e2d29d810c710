// Several kernels in several modules: this file and modules_b.cu are two
// translation units, so the program registers two fat binaries, each with
// its own __constant__ named c_bias (the modules keep them apart).
#define TEST_NAME "modules"
#include "ck.h"

__constant__ int c_bias;
__global__ void add_bias(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += c_bias;
}
__global__ void square(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= x[i];
}

// modules_b.cu
void b_set_bias(int v);
cudaError_t b_launch_scale(int *x, int n);

int main()
{
    const int n = 700;
    int h[n], *d;
    for (int i = 0; i < n; i++)
        h[i] = i % 50;
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    int bias = 3;
    CK(cudaMemcpyToSymbol(c_bias, &bias, sizeof bias));
    b_set_bias(-1000);              // the other module's c_bias
    add_bias<<<(n + 127) / 128, 128>>>(d, n);
    square<<<(n + 127) / 128, 128>>>(d, n);
    CK(b_launch_scale(d, n));
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int v = i % 50 + 3;
        int want = v * v * 2 - 1000;
        EXPECT(h[i] == want, "x[%d] = %d, want %d", i, h[i], want);
    }
    CK(cudaFree(d));
    return ck_done();
}
