// The second module of the "modules" program (see modules_a.cu).
#include <cuda_runtime.h>

__constant__ int c_bias;
__global__ void scale_bias(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * 2 + c_bias;
}

void b_set_bias(int v)
{
    cudaMemcpyToSymbol(c_bias, &v, sizeof v);
}

cudaError_t b_launch_scale(int *x, int n)
{
    scale_bias<<<(n + 63) / 64, 64>>>(x, n);
    return cudaGetLastError();
}
