// The mini suite's program that does not build with nvcc 13: a texture
// reference (texture<float, 1>), which CUDA 12 removed.
#include <cstdio>

texture<float, 1, cudaReadModeElementType> tex;

__global__ void copy(int n, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch(tex, i);
}

int main()
{
    printf("oldtex\n");
    return 0;
}
